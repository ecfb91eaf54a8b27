"""The action table: fixed per configuration, covers every legal move, relative seats."""

from __future__ import annotations

import random

import numpy as np
import pytest

from unokit import Game, IllegalActionError
from unokit.engine.actions import Catch, Play
from unokit.engine.options import Options
from unokit.engine.variants import VARIANTS
from unokit.envs.actions import ActionTable, action_table, card_universe

CONFIGS = [
    ("classic", {}),
    ("classic", {"sevenZero": True, "stacking": "escalate"}),
    ("classic", {"noBluff": True, "forcedPlay": True, "drawUntilPlayable": True}),
    ("flip", {}),
    ("flip", {"sevenZero": True, "stacking": "same_symbol"}),
    ("flip", {"flipPairing": "random_seeded"}),
    ("flex", {}),
    ("flex", {"flexFlexSideWD4Restricted": True, "sevenZero": True}),
]


@pytest.mark.parametrize(
    ("variant", "players", "size", "plays"),
    [
        ("classic", 2, 70, 60),
        ("classic", 4, 72, 60),
        ("flip", 2, 189, 175),
        ("flip", 4, 191, 175),
        ("flex", 2, 170, 160),
        ("flex", 4, 188, 176),
    ],
)
def test_documented_sizes(variant: str, players: int, size: int, plays: int) -> None:
    t = action_table(variant, players)
    assert t.size == size == len(t.names) == len(t.codes)
    assert t.num_plays == plays
    assert t.summary()["PLAY"] == plays
    assert t.summary()["CATCH"] == players - 1
    assert len(set(t.names)) == t.size  # every action has its own name


def test_table_is_fixed_and_cached() -> None:
    a = action_table("flip", 3, {"stacking": "same_symbol"})
    b = action_table("flip", 3, Options.from_dict({"stacking": "same_symbol"}))
    assert a is b
    fresh = ActionTable("flip", 3, Options.from_dict({"stacking": "same_symbol"}))
    assert fresh.codes == a.codes and fresh.names == a.names


def test_card_universe_is_the_deck() -> None:
    opts = Options()
    assert len(card_universe(VARIANTS["classic"], opts)) == 54
    assert len(card_universe(VARIANTS["flip"], opts)) == 111
    assert len(card_universe(VARIANTS["flex"], opts)) == 92
    seeded = card_universe(VARIANTS["flip"], Options.from_dict({"flipPairing": "random_seeded"}))
    assert len(seeded) == len(VARIANTS["flip"].cards) == 2916


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_legal_move_is_in_the_table(variant: str, options: dict, players: int) -> None:
    t = action_table(variant, players, options)
    rnd = random.Random(players)
    for seed in range(6):
        g = Game.new(variant, players, options, seed=seed, events=False)
        for _ in range(600):
            if g.phase >= 4:
                break
            seat = g.current
            moves = g.legal_moves(seat)
            for m in moves:
                i = t.index(seat, m)
                assert t.move(seat, i) == m
            legal = {t.index(seat, m) for m in moves}
            assert len(legal) == len(moves)  # distinct moves, distinct actions
            g.apply_move(moves[rnd.randrange(len(moves))], seat)


def test_names_decode_like_the_engine() -> None:
    t = action_table("classic", 2)
    g = Game.new("classic", 2, seed=11, events=False)
    for m in g.legal_moves():
        name = t.names[t.index(g.current, m)]
        assert name.replace(" ", "") in str(g.decode(g.current, m)).replace(" ", "")
    assert t.names[t.index_of("PLAY W color=G")] == "PLAY W color=G"
    assert t.index_of("  DRAW ") == t.num_plays


def test_seats_are_relative_to_the_actor() -> None:
    t = action_table("classic", 4)
    catch1 = t.index_of("CATCH +1")
    # seat 2 catching "+1" catches seat 3; seat 3 catching "+1" catches seat 0
    g = Game.setup("classic", 4, hands=[["R1"], ["R2"], ["R3"], ["R4"]], discard=["R5"])
    assert g.decode(2, t.move(2, catch1)) == Catch(2, 3)
    assert g.decode(3, t.move(3, catch1)) == Catch(3, 0)
    flex = action_table("flex", 3)
    i = flex.index_of("PLAY WTD side=flex color=R target=+2")
    gf = Game.setup("flex", 3, hands=[["WTD"], ["R2"], ["R3"]], discard=["R5"])
    action = gf.decode(1, flex.move(1, i))
    assert isinstance(action, Play) and action.target == 0 and action.flex


def test_seven_zero_swaps_are_listed_per_partner() -> None:
    t = action_table("classic", 3, {"sevenZero": True})
    assert {"PLAY R7", "PLAY R7 swap=+1", "PLAY R7 swap=+2"} <= set(t.names)
    plain = action_table("classic", 3)
    assert not any("swap" in n for n in plain.names)


def test_bad_indices_raise() -> None:
    t = action_table("classic", 2)
    with pytest.raises(IllegalActionError, match="outside the action table"):
        t.move(0, t.size)
    with pytest.raises(IllegalActionError, match="outside the action table"):
        t.move(0, -1)
    with pytest.raises(IllegalActionError, match="not in the classic action table"):
        t.index(0, 123456789)
    with pytest.raises(IllegalActionError, match="no action"):
        t.index_of("PLAY R99")
    with pytest.raises(IllegalActionError, match="2 to 10 players"):
        ActionTable("classic", 11, Options())


def test_mask() -> None:
    t = action_table("classic", 2)
    m = t.mask([0, 5, t.size - 1])
    assert m.dtype == np.int8 and m.shape == (t.size,)
    assert list(np.flatnonzero(m)) == [0, 5, t.size - 1]
    assert not t.mask(()).any()
