"""The observation vector: defined on the Observation only; the fast path agrees
with it and never depends on hidden information."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from unokit import Game
from unokit.envs.actions import action_table
from unokit.envs.observation import PHASES, ActionLayout, FeatureLayout, ObservationEncoder

CONFIGS = [
    ("classic", {}),
    ("classic", {"stacking": "escalate", "sevenZero": True}),
    ("flip", {}),
    ("flip", {"flipPairing": "random_seeded", "stacking": "same_symbol"}),
    ("flex", {}),
    ("flex", {"sevenZero": True, "flexFlexSideWD4Restricted": True}),
]


def _random_states(variant: str, players: int, options: dict, games: int, steps: int):
    """Games stepped with uniformly random legal moves (UNO calls and catches included)."""
    rnd = random.Random(players * 7 + games)
    for seed in range(games):
        g = Game.new(variant, players, options, seed=seed, events=False)
        for _ in range(steps):
            if g.phase >= 4:
                break
            yield g
            moves = g.legal_moves()
            g.apply_move(moves[rnd.randrange(len(moves))])
        yield g


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
@pytest.mark.parametrize("players", [2, 4])
def test_fast_path_equals_the_observation_encoding(
    variant: str, options: dict, players: int
) -> None:
    enc = ObservationEncoder(variant, players, options)
    checked = 0
    for g in _random_states(variant, players, options, games=4, steps=300):
        for seat in range(players):
            reference = enc.encode(g.observe(seat))
            fast = enc.encode_game(g, seat)
            assert fast.dtype == np.float32 and fast.shape == (enc.size,)
            np.testing.assert_array_equal(fast, reference, err_msg=f"{g!r} seat {seat}")
            assert (fast >= 0).all() and (fast <= enc.high).all()
            checked += 1
    assert checked > 1000


def test_encoder_takes_only_an_observation() -> None:
    enc = ObservationEncoder("classic", 2)
    g = Game.new("classic", 2, seed=5)
    with pytest.raises(TypeError, match="expected an Observation"):
        enc.encode(g)  # type: ignore[arg-type]
    obs = g.observe(0)
    before = enc.encode(obs)
    # the Observation is a frozen snapshot: playing on cannot change its encoding
    for _ in range(10):
        if g.phase >= 4:
            break
        g.apply(g.legal_actions()[0])
    np.testing.assert_array_equal(enc.encode(obs), before)
    # and the encoding reads no field the Observation does not have
    assert dataclasses.is_dataclass(obs) and not hasattr(obs, "draw")
    with pytest.raises(ValueError, match="spectator"):
        enc.encode(g.observe(None))
    with pytest.raises(ValueError, match="classic with 2 players"):
        enc.encode(Game.new("classic", 3, seed=1).observe(0))


def test_segments_describe_the_vector() -> None:
    for variant in ("classic", "flip", "flex"):
        enc = ObservationEncoder(variant, 3)
        offsets = enc.describe()
        assert offsets[0][1] == 0
        for (_, off, length), (_, nxt, _) in zip(offsets, offsets[1:], strict=False):
            assert nxt == off + length
        assert offsets[-1][1] + offsets[-1][2] == enc.size == len(enc.high)
        names = {name for name, _, _ in offsets}
        assert ("backs" in names) == (variant == "flip")
        assert ("powers" in names) == (variant == "flex")


def test_meaning_of_the_segments() -> None:
    g = Game.setup(
        "classic",
        3,
        hands=[["R1", "R1", "W"], ["G2"], ["B3", "B4"]],
        draw=["Y5", "Y6"],
        discard=["G9", "R5"],
        current=0,
        uno={1: "vulnerable"},
        direction=-1,
    )
    enc = ObservationEncoder("classic", 3)
    v = enc.encode(g.observe(0))
    np.testing.assert_array_equal(v, enc.encode_game(g, 0))
    names = [g.variant.cards.cards[c] for c in enc.cards]
    hand = dict(zip(map(str, names), v[enc.slice("hand")], strict=True))
    assert hand["R1"] == 2 and hand["W"] == 1 and sum(hand.values()) == 3
    top = v[enc.slice("top")]
    assert top.sum() == 1 and str(names[int(np.argmax(top))]) == "R5"
    assert v[enc.slice("discard")].sum() == 2
    assert list(v[enc.slice("color")]) == [1, 0, 0, 0]  # red
    assert list(v[enc.slice("phase")]) == [1, 0, 0, 0]  # AWAIT_TURN
    assert PHASES[0] == "AWAIT_TURN"
    assert list(v[enc.slice("hand_sizes")]) == [3, 1, 2]  # self, +1, +2
    assert list(v[enc.slice("uno")]) == [0, 0, 0, 0, 1, 0]  # seat +1 vulnerable
    assert v[enc.slice("direction")][0] == 1  # counter-clockwise
    assert v[enc.slice("draw_size")][0] == 2
    # the same table seen from seat 2: seat 1 is now two places clockwise
    v2 = enc.encode_game(g, 2)
    assert list(v2[enc.slice("hand_sizes")]) == [2, 3, 1]
    assert list(v2[enc.slice("uno")]) == [0, 0, 0, 0, 0, 1]


def _reshuffle_hidden(g: Game, seat: int, rnd: random.Random) -> Game:
    """A copy of ``g`` where everything ``seat`` cannot see is dealt differently:
    other hands and the draw pile (in Flip only among cards whose visible back is
    the same, and the draw pile's top keeps its back)."""
    h = g.copy()
    others = [s for s in range(h.n) if s != seat]
    places = [(s, i) for s in others for i in range(len(h.hands[s]))]
    places += [(-1, i) for i in range(len(h.draw))]

    def get(p: tuple[int, int]) -> int:
        return h.draw[p[1]] if p[0] < 0 else h.hands[p[0]][p[1]]

    def put(p: tuple[int, int], c: int) -> None:
        if p[0] < 0:
            h.draw[p[1]] = c
        else:
            h.hands[p[0]][p[1]] = c

    groups: dict[object, list[tuple[int, int]]] = {}
    for p in places:
        key = g.variant.cards.cards[get(p)].face(1 - g.side) if g.variant.two_sided else 0
        groups.setdefault(key, []).append(p)
    for group in groups.values():
        cards = [get(p) for p in group]
        rnd.shuffle(cards)
        for p, c in zip(group, cards, strict=True):
            put(p, c)
    return h


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_hidden_information_does_not_reach_the_vector(variant: str) -> None:
    enc = ObservationEncoder(variant, 3)
    rnd = random.Random(9)
    changed = 0
    for g in _random_states(variant, 3, {}, games=3, steps=120):
        if g.phase >= 4:
            continue
        for seat in range(3):
            h = _reshuffle_hidden(g, seat, rnd)
            if h.hands != g.hands or h.draw != g.draw:
                changed += 1
            np.testing.assert_array_equal(enc.encode_game(h, seat), enc.encode_game(g, seat))
            np.testing.assert_array_equal(enc.encode(h.observe(seat)), enc.encode(g.observe(seat)))
    assert changed > 100  # the reshuffles did move hidden cards
    # while the observer's own hand is visible: changing it changes the vector
    g = Game.new(variant, 3, seed=1, events=False)
    h = g.replace(hands=[g.hands[1], g.hands[0], *g.hands[2:]])
    assert not np.array_equal(enc.encode_game(h, 0), enc.encode_game(g, 0))


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("layout", [2, 3])
def test_hidden_information_does_not_reach_layouts_2_and_3(variant: str, layout: int) -> None:
    """Other hands and the draw pile dealt differently (in Flip only among
    cards with the same visible back): the same layout vector for every seat."""
    enc = ObservationEncoder(variant, 3)
    table = action_table(variant, 3)
    lay = ActionLayout(enc, table) if layout == 3 else FeatureLayout(enc, table)
    rnd = random.Random(5)
    changed = 0

    def view(g: Game, seat: int) -> np.ndarray:
        legal = g.legal_moves(seat) if seat == g.current and not g.catch_window() else []
        idx = table.indices(seat)
        mask = table.mask(idx[m] for m in legal if m in idx)
        return lay(enc.encode_game(g, seat), mask)

    for g in _random_states(variant, 3, {}, games=2, steps=100):
        if g.phase >= 4:
            continue
        for seat in range(3):
            h = _reshuffle_hidden(g, seat, rnd)
            changed += h.hands != g.hands or h.draw != g.draw
            np.testing.assert_array_equal(view(h, seat), view(g, seat))
    assert changed > 50
    g = Game.new(variant, 3, seed=1, events=False)
    h = g.copy()
    h.hands[0], h.hands[1] = h.hands[1], h.hands[0]
    assert not np.array_equal(view(h, 0), view(g, 0))
