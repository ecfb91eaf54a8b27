"""The fast paths of the Game face (issue 26): lazy observations, legal lists
made once per version, apply by move code, copy in one call. Each cache must
be invisible: these tests check that what is cached never goes stale."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from unokit import Game
from unokit.engine import observation as obs_mod
from unokit.engine.actions import Play
from unokit.engine.core import CoreGame
from unokit.engine.errors import IllegalActionError
from unokit.engine.observation import Observation, combine, public_view, seat_part
from unokit.testing.reference import ReferenceGame


def _full(g: Game, seat: int | None) -> Observation:
    """The observation made eagerly, field by field (the old path)."""
    pv = public_view(g)
    hist = obs_mod._history(g, seat, g.log, len(g.log)) if g.log is not None else ()
    return combine(pv, seat_part(g, seat, pv), hist)


def _play(g: Game, r: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.to_act is None:
            if g.is_over:
                return
            g.next_round()
            continue
        acts = g.legal_actions()
        g.apply(acts[r.randrange(len(acts))])


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_an_observation_taken_before_an_apply_is_unchanged_after_it(variant: str) -> None:
    r = random.Random(5)
    for seed in range(6):
        g = Game.new(variant, 3, seed=seed)
        for _ in range(40):
            if g.to_act is None:
                break
            seats = (None, 0, 1, 2)
            lazy = [g.observe(s) for s in seats]  # no field read yet
            want = [_full(g, s) for s in seats]
            texts = [w.to_dict() for w in want]
            _play(g, r, 1)
            for o, w, t in zip(lazy, want, texts, strict=True):
                assert o == w and w == o and hash(o) == hash(w)
                assert o.to_dict() == t
                assert o.to_text() == w.to_text()


def test_observe_reads_only_the_fields_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that reads ``observe(seat).legal`` does not pay for the public
    view or the history."""
    made: list[int] = []
    real = obs_mod.public_view

    def counting(game: Game) -> obs_mod.PublicView:
        made.append(1)
        return real(game)

    monkeypatch.setattr(obs_mod, "public_view", counting)
    g = Game.new("classic", 2, seed=3)
    o = g.observe(g.current)
    assert o.legal == tuple(g.legal_actions())
    assert made == []
    assert len(o.hand) == 7  # another field: the whole observation, once
    assert made == [1]
    assert o.top == g.top
    assert made == [1]


def test_a_copys_observation_does_not_see_the_originals_later_moves() -> None:
    r = random.Random(2)
    g = Game.new("flip", 2, seed=4)
    _play(g, r, 5)
    c = g.copy()
    before = c.observe(c.current)
    want = _full(c, c.current)
    _play(g, r, 10)  # the original moves on; the copy does not
    assert c.observe(c.current) == want
    assert before == want
    assert c.legal_actions() == list(want.legal)


def test_legal_lists_are_fresh_per_call_and_per_version() -> None:
    g = Game.new("classic", 2, seed=8)
    a = g.legal_actions()
    a.clear()  # the caller's list: the game's is not touched
    b = g.legal_actions()
    assert b and b is not g.legal_actions()
    assert b == g.legal_actions(g.current) == g.actions_of(g.current, g.legal_moves())
    g.apply(b[0])
    after = g.legal_actions()
    assert after == g.actions_of(g.current, g.legal_moves())
    # a failed command bumps the version: the lists are made again, equal
    with pytest.raises(IllegalActionError):
        g.apply("P9 DRAW")
    assert g.legal_actions() == after


def test_a_known_action_that_is_no_longer_legal_is_refused_in_words() -> None:
    g = Game.new("classic", 2, seed=1)
    stale = g.legal_actions()[0]
    g.apply(stale)
    state = g.state_tuple()
    log, commands = list(g.log or ()), list(g.commands or ())
    fresh = dataclasses.replace(stale)  # equal, not from a legal list
    with pytest.raises(IllegalActionError) as want:
        g.apply(fresh)
    with pytest.raises(IllegalActionError) as got:
        g.apply(stale)
    assert str(got.value) == str(want.value)
    assert g.state_tuple() == state and g.log == log and g.commands == commands


def test_multi_plays_decode_per_hand() -> None:
    """A multi-play's move code names places in the hand: its action is made
    from the hand of the version it is listed in, never reused by code."""
    opts = {"multiPlay": "same_number"}
    g = Game.setup(
        "classic", 2, opts, hands=[["R5", "G5", "Y1"], ["B5", "Y5", "G2"]],
        draw=["R1", "R2", "R3", "R4"], discard=["R3"], color="R", current=0,
    )  # fmt: skip
    multi = [a for a in g.legal_actions() if isinstance(a, Play) and a.more]
    assert multi and {(a.card, *a.more) for a in multi} <= {
        (g.cards[x], g.cards[y]) for x in g.hands[0] for y in g.hands[0] if x != y
    }
    g.apply(multi[0])
    assert g.commands is not None and g.commands[-1] == str(multi[0])
    assert len(g.hands[0]) == 1
    theirs = [a for a in g.legal_actions() if isinstance(a, Play) and a.more]
    for a in theirs:  # the other hand's cards, not the first hand's places
        assert a.seat == 1 and {a.card, *a.more} <= {g.cards[c] for c in g.hands[1]}


def test_copy_shares_caches_but_not_the_position() -> None:
    r = random.Random(9)
    g = Game.new("flex", 3, seed=2)
    g.observe(0).to_dict()  # fill the caches
    g.legal_actions()
    c = g.copy(events=True)
    assert c == g and c.log == g.log and c.log is not g.log
    _play(c, r, 6)
    assert g.legal_actions() == g.actions_of(g.current, g.legal_moves())
    assert c.legal_actions() == c.actions_of(c.current, c.legal_moves())
    assert g.observe(1) == _full(g, 1) and c.observe(1) == _full(c, 1)


def test_lazy_observations_pickle_and_replace_as_full_ones() -> None:
    g = Game.new("flip", 3, seed=6)
    o = g.observe(1)
    _play(g, random.Random(1), 3)
    p = pickle.loads(pickle.dumps(o))
    assert type(p) is Observation and p == o
    r = dataclasses.replace(o, legal=())
    assert type(r) is Observation and r.legal == () and r.hand == o.hand
    assert dataclasses.asdict(o) == dataclasses.asdict(p)


def test_only_games_on_the_cores_rules_take_the_fast_paths() -> None:
    assert Game._direct and CoreGame._direct
    assert not ReferenceGame._direct  # the oracle runs its own rules
    ref = ReferenceGame.new("classic", 2, seed=3)
    assert type(ref.observe(0)) is Observation
    assert type(ref.copy()) is ReferenceGame


def test_a_fully_read_observation_keeps_nothing_of_the_game() -> None:
    g = Game.new("classic", 2, seed=4)
    o = g.observe(0)
    want = _full(g, 0)
    assert o._game is g  # type: ignore[attr-defined]
    assert o.to_dict() == want.to_dict()
    assert o._game is None and o._snap is None and o._log is None  # type: ignore[attr-defined]
    _play(g, random.Random(3), 5)
    assert o == want and o.legal == want.legal and o.history == want.history
