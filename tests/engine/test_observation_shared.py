"""``observe(game, seat, public)`` with one :class:`PublicView` shared by all
seats gives, for every variant, exactly what ``observe`` gave before the public
part was split out (the reference below is that function, verbatim): the same
Observation and byte-identical JSON, for every seat and for a spectator."""

from __future__ import annotations

import json

import pytest

from unokit import Game
from unokit.engine.actions import Action
from unokit.engine.cards import Color, Face
from unokit.engine.events import Event, redact
from unokit.engine.observation import (
    JSON_KEYS,
    SEAT_KEYS,
    Observation,
    _face_key,
    combine,
    entries,
    observe,
    public_view,
    seat_part,
)

from .conftest import VARIANTS, random_game_states


def _reference(game: Game, seat: int | None) -> Observation:
    """observe() as it was before PublicView (main at the time), kept verbatim as the oracle."""
    from unokit.engine.game import _CH, _D, _MO, _RO, Phase

    v = game.variant
    cs = v.cards.cards
    n = game.n
    side = game.side
    if seat is not None and not 0 <= seat < n:
        from unokit.engine.errors import IllegalActionError

        raise IllegalActionError(f"P{seat} is not a seat of this {n}-player game")
    hands = game.hands
    backs: tuple[tuple[Face, ...], ...] = tuple(() for _ in range(n))
    draw_top_back = None
    if v.two_sided:
        other = 1 - side
        backs = tuple(
            () if s == seat else tuple(sorted((cs[c].face(other) for c in hands[s]), key=_face_key))
            for s in range(n)
        )
        if game.draw:
            draw_top_back = cs[game.draw[-1]].face(other)
    over = game.phase in (_RO, _MO)
    revealed = None
    if game.reveal is not None and seat is not None and game.reveal[0] == seat:
        revealed = (game.reveal[1], tuple(cs[c] for c in game.reveal[2]))
    history: tuple[Event, ...] = ()
    log = game.log
    if log is not None:
        history = tuple(redact(e, seat) for e in log)
    legal: tuple[Action, ...] = ()
    if seat is not None and not over:
        legal = tuple(game.legal_actions(seat))
    return Observation(
        variant=v.name,
        players=n,
        seat=seat,
        options=game.options,
        round=game.round_no,
        phase=Phase(game.phase).name,
        current=game.current,
        direction=game.direction,
        side=side,
        color=None if game.color < 0 else Color(game.color),
        dealer=game.dealer,
        top=cs[game.discard[-1]] if game.discard else None,
        discard=tuple(cs[c] for c in game.discard),
        hand=() if seat is None else tuple(cs[c] for c in hands[seat]),
        hand_sizes=tuple(len(h) for h in hands),
        draw_size=len(game.draw),
        draw_top_back=draw_top_back,
        backs=backs,
        powers=tuple(game.powers),
        uno=tuple(("none", "safe", "vulnerable")[u] for u in game.uno),
        scores=tuple(game.scores),
        drawn=cs[game.drawn] if game.phase == _D and seat == game.current else None,
        pending_draw=game.pending,
        challenge_offender=game.ch_offender if game.phase == _CH else None,
        color_reason=game.color_reason,
        revealed=revealed,
        winner=None if not over or game.winner < 0 else game.winner,
        round_points=game.round_points if over else 0,
        match_winners=tuple(game.match_winners),
        final_hands=tuple(tuple(cs[c] for c in h) for h in hands) if over else None,
        legal=legal,
        history=history,
    )


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_shared_public_view_is_byte_identical(variant: str, seed: int) -> None:
    states = 0
    for g in random_game_states(seed, steps=150, variant=variant):
        public = public_view(g)
        for seat in [*range(g.n), None]:
            want = _reference(g, seat)
            got = observe(g, seat, public)
            assert got == want
            assert json.dumps(got.to_dict()) == json.dumps(want.to_dict())
            assert observe(g, seat) == want
        states += 1
    assert states > 20


def test_a_public_view_of_another_game_is_refused() -> None:
    a = Game.new("classic", 3, seed=1)
    b = Game.new("classic", 3, seed=2)
    with pytest.raises(ValueError, match="another game"):
        observe(b, 0, public_view(a))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(2))
def test_public_view_and_seat_part_make_the_observation(variant: str, seed: int) -> None:
    """The web server's pieces (issue 13): the public view converted once, each
    seat's own part apart (its legal actions given, as loaded once for all
    seats), give the same observation and the same JSON entries as observe()."""
    public_keys = [k for k in JSON_KEYS if k not in SEAT_KEYS and k != "history"]
    states = 0
    for g in random_game_states(seed, steps=120, variant=variant):
        public = public_view(g)
        legal = g.legal_actions_by_seat()
        assert legal == [g.legal_actions(s) for s in range(g.n)]
        for seat in [*range(g.n), None]:
            want = _reference(g, seat)
            part = seat_part(g, seat, public, None if seat is None else legal[seat])
            assert combine(public, part, want.history) == want
            assert part == seat_part(g, seat, public)  # legal actions found by itself
            d = {**entries(public, public_keys), **entries(part, SEAT_KEYS)}
            assert json.dumps(d, sort_keys=True) == json.dumps(
                {k: v for k, v in want.to_dict().items() if k != "history"}, sort_keys=True
            )
        states += 1
    assert states > 20


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(2))
def test_seat_raw_holds_the_seat_part_as_ids_and_codes(variant: str, seed: int) -> None:
    """The server diffs a seat's own part as card ids and move codes
    (``seat_raw``, with every seat's codes from one load into the core): it
    makes the same part as ``seat_part``, the oracle's own entries, and
    nothing of another seat (a spectator: no hand, no drawn card, no legal
    move, no revealed hand)."""
    from unokit.engine.observation import part_of_raw, seat_raw

    states = 0
    for g in random_game_states(seed, steps=120, variant=variant):
        public = public_view(g)
        codes = g.legal_moves_by_seat()
        assert codes == [g.legal_moves(s) for s in range(g.n)]
        for seat in [*range(g.n), None]:
            raw = seat_raw(g, seat, public, None if seat is None else codes[seat])
            assert raw == seat_raw(g, seat, public)  # legal moves found by itself
            part = part_of_raw(g, raw)
            assert part == seat_part(g, seat, public)
            want = _reference(g, seat).to_dict()
            assert entries(part, SEAT_KEYS) == {k: want[k] for k in SEAT_KEYS}
            if seat is None:
                assert raw[1] == () and raw[3] == -1 and raw[4] is None and raw[5] == ()
        states += 1
    assert states > 20
