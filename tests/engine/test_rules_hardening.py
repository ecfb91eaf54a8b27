"""Issue 10 rules (docs/rules.md D59-D66) that scenario files cannot express."""

from __future__ import annotations

import pytest

from unokit import Game, OptionError
from unokit.engine.errors import InvalidPositionError
from unokit.engine.game import max_hand_size

DECK = {"classic": 108, "flip": 112, "flex": 104}


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_every_valid_deal_is_whole_and_the_next_size_is_refused(variant: str) -> None:
    top_players = 8 if variant == "flex" else 10
    for players in range(2, top_players + 1):
        top = max_hand_size(variant, players)
        assert top == min(20, (DECK[variant] - 1) // players)
        for size in sorted({1, 7 if 7 <= top else top, top}):
            g = Game.new(variant, players, {"handSize": size}, seed=players * 31 + size)
            assert sum(g.all_cards().values()) == DECK[variant]
            assert g.log is not None
            first = g.log[0]
            assert first.hand_sizes == (size,) * players  # type: ignore[union-attr]
        limit = f"largest valid handSize for {players} players is {top}"
        with pytest.raises(OptionError, match=limit):
            Game.new(variant, players, {"handSize": top + 1})
    with pytest.raises(OptionError, match="handSize"):
        Game.new(variant, 2, {"handSize": 0})


def test_setup_refuses_an_impossible_deal_too() -> None:
    with pytest.raises(OptionError, match="largest valid handSize for 10 players is 10"):
        Game.setup("classic", 10, {"handSize": 11}, hands=[["R1"]] * 10, discard=["R5"])


def test_no_winner_and_dealer_rotation_winner_falls_back_to_left() -> None:
    g = Game.setup(
        "classic",
        3,
        {"dealerRotation": "winner"},
        hands=[["G1"], ["B9"], ["Y7"]],
        discard=["R3"],
        current=1,
        dealer=2,
    )
    for cmd in ("P1 DRAW", "P2 DRAW", "P0 DRAW"):
        g.apply(cmd)
    assert g.state.name == "ROUND_OVER" and g.winner == -1
    g.apply("NEXT")
    assert g.dealer == 0  # left of P2 (D62)


def test_no_op_commands_leave_no_trace() -> None:
    g = Game.setup(
        "classic",
        3,
        hands=[["G1", "G2", "G3"], ["B5", "B6"], ["Y5"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
        uno={2: "safe"},
    )
    before = g.copy(events=True)
    assert g.apply("P0 UNO") == [] and g.apply("P0 CATCH P2") == []
    assert g == before and g.commands == before.commands and g.log == before.log
    with pytest.raises(InvalidPositionError, match="prior_color 'ZZ'"):
        Game.setup(
            "classic",
            3,
            hands=[["B7"], ["B5"], ["Y5"]],
            discard=["G3", "W4"],
            color="Y",
            phase="AWAIT_CHALLENGE",
            prior_color="ZZ",
        )
