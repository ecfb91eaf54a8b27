"""Classic UNO, checked card by card against docs/rules.md §1, §2, §6 and Appendix C.

Written from the spec, independently of the engine's code: every test builds an
explicit position with ``Game.setup`` (draw pile top first, discard bottom to
top), applies commands in the text notation and asserts the exact outcome
(hands, piles, seat to act, colour, state). Every accepted command is followed
by the §8 invariants with card conservation; every rejected command must leave
the game exactly as it was.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unokit import Color, Game, IllegalActionError, ParseError, Phase, UnoError, UnoState
from unokit.engine.actions import CallUno, Catch
from unokit.engine.errors import InvalidPositionError, OptionError

from .table import S, Table

# ---------------------------------------------------------------------------- helpers


def classic(hands: list[list[str]], **kw: Any) -> Table:
    return Table("classic", len(hands), hands, **kw)


FILL = [["Y1", "Y2"], ["B7", "B8"]]  # harmless two-card hands for bystanders
# distinct harmless two-card hands for up to nine bystanders (the deck holds at most two of a card)
BYSTANDERS = [
    ["Y1", "Y2"],
    ["Y3", "Y4"],
    ["Y5", "Y6"],
    ["Y7", "Y8"],
    ["Y9", "Y0"],
    ["B1", "B2"],
    ["B3", "B7"],
    ["B8", "B9"],
    ["B0", "G1"],
]


def around(p1: list[str], players: int) -> list[list[str]]:
    """P1 holds ``p1``, every other seat a different bystander hand."""
    others = iter(BYSTANDERS)
    return [p1[:] if seat == 1 else next(others)[:] for seat in range(players)]


# ---------------------------------------------------------------------------- §1.5 matching


@pytest.mark.parametrize(
    ("top", "color", "card", "legal"),
    [
        ("R3", "R", "R9", True),  # same colour
        ("R3", "R", "G3", True),  # same number
        ("R3", "R", "G4", False),
        ("RS", "R", "GS", True),  # symbol class Skip
        ("RR", "R", "BR", True),  # symbol class Reverse
        ("RD2", "R", "YD2", True),  # symbol class Draw Two
        ("RS", "R", "GR", False),  # different symbol classes never match
        ("RS", "R", "GD2", False),
        ("RS", "R", "G5", False),  # a number never matches an action
        ("R5", "R", "GS", False),
        ("R0", "R", "B0", True),
        ("W", "G", "G2", True),  # a top wild offers only its declared colour
        ("W", "G", "R2", False),
        ("W4", "B", "BS", True),
        ("W4", "B", "YS", False),
        ("R3", "R", "W", True),  # wilds always playable
        ("GS", "G", "W4", True),  # WD4 is playable even when it would be a bluff
    ],
)
def test_matching(top: str, color: str, card: str, legal: bool) -> None:
    t = classic([["Y1", "Y2"], [card, "G7", "R1"], *FILL], discard=["B9", top], color=color)
    extra = " color=Y" if card.startswith("W") else ""
    if legal:
        t.do(f"P1 PLAY {card}{extra}")
        assert t.discard[-1] == card
        assert S("G7", "R1") == t.hand(1)
    else:
        msg = t.reject(f"P1 PLAY {card}{extra}")
        assert "P1" in msg and card in msg


def test_wd4_playable_while_holding_current_colour() -> None:
    # §1.5.1: the restriction is only checked on challenge (noBluff is off).
    t = classic([["Y1", "Y2"], ["W4", "R8", "R9"], *FILL], discard=["R3"])
    t.do("P1 PLAY W4 color=B")
    assert t.g.state == Phase.AWAIT_CHALLENGE
    assert t.g.current == 2


# ---------------------------------------------------------------------------- §1.6 turn structure


def test_voluntary_draw_with_a_playable_card_and_unplayable_draw_ends_turn() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"], draw=["G9", "B1"])
    t.do("P1 DRAW")
    assert t.hand(1) == S("R5", "G8", "G9")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 2
    assert t.draw == ["B1"]


def test_drawn_playable_card_may_be_played_only_itself() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"], draw=["R7", "B1"])
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN and t.g.current == 1
    assert str(t.g.cards[t.g.drawn]) == "R7"
    t.reject("P1 PLAY R5", match="drawn")  # only the drawn card
    t.reject("P1 DRAW")  # only one draw per turn (D45)
    t.reject("P2 PASS")
    t.do("P1 PLAY R7")
    assert t.discard == ["R3", "R7"] and t.hand(1) == S("R5", "G8")
    assert t.g.current == 2 and t.g.state == Phase.AWAIT_TURN


def test_drawn_playable_card_may_be_kept() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"], draw=["G3", "B1"])
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    t.do("P1 PASS")
    assert t.hand(1) == S("R5", "G8", "G3")
    assert t.g.current == 2 and t.g.state == Phase.AWAIT_TURN
    assert t.discard == ["R3"]


def test_pass_without_drawing_is_rejected() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"], draw=["G3"])
    msg = t.reject("P1 PASS")
    assert "P1" in msg


def test_plain_wild_may_be_played_while_holding_playable_cards() -> None:
    t = classic([["Y1", "Y2"], ["W", "R5", "R6"], *FILL], discard=["R3"])
    t.do("P1 PLAY W color=R")  # re-declaring the current colour is allowed
    assert t.g.current_color == Color.R and t.g.current == 2


# ---------------------------------------------------------------------------- §2.2 effects, §1.7


def test_number_passes_turn_cw_and_ccw() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"])
    t.do("P1 PLAY R5")
    assert t.g.current == 2 and t.g.current_color == Color.R
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"], direction=-1)
    t.do("P1 PLAY R5")
    assert t.g.current == 0


@pytest.mark.parametrize(
    ("players", "direction", "after"), [(4, 1, 3), (4, -1, 3), (3, 1, 0), (2, 1, 1), (5, -1, 4)]
)
def test_skip(players: int, direction: int, after: int) -> None:
    t = classic(around(["RS", "G8"], players), discard=["R3"], direction=direction)
    t.do("P1 PLAY RS")
    assert t.g.current == after
    assert t.g.direction == direction
    assert t.counts == [2] + [1] + [2] * (players - 2)


@pytest.mark.parametrize(("players", "after"), [(4, 0), (3, 0), (2, 1), (10, 0)])
def test_reverse(players: int, after: int) -> None:
    t = classic(around(["GR", "G8"], players), discard=["RR"])
    t.do("P1 PLAY GR")
    assert t.g.direction == -1
    assert t.g.current == after
    assert t.g.current_color == Color.G


def test_two_reverses_restore_direction() -> None:
    t = classic([["GR", "Y1"], ["GR", "G8"], ["Y3", "Y4"], ["B7", "B8"]], discard=["RR"])
    t.do("P1 PLAY GR")
    assert t.g.current == 0 and t.g.direction == -1
    t.do("P0 PLAY GR")
    assert t.g.current == 1 and t.g.direction == 1


@pytest.mark.parametrize(("players", "victim", "after"), [(4, 2, 3), (2, 0, 1), (3, 2, 0)])
def test_draw_two(players: int, victim: int, after: int) -> None:
    hands = around(["RD2", "G8"], players)
    t = classic(hands, discard=["R3"], draw=["B4", "B5", "B6"])
    t.do("P1 PLAY RD2")
    assert t.hand(victim) == S(*hands[victim], "B4", "B5")
    assert t.draw == ["B6"]
    assert t.g.current == after
    assert t.g.state == Phase.AWAIT_TURN


def test_draw_two_ccw_victim_is_next_in_direction() -> None:
    t = classic(
        [["Y1", "Y2"], ["RD2", "G8"], ["Y3", "Y4"], ["B7", "B8"]],
        discard=["R3"],
        draw=["B4", "B5"],
        direction=-1,
    )
    t.do("P1 PLAY RD2")
    assert t.hand(0) == S("Y1", "Y2", "B4", "B5")
    assert t.g.current == 3


def test_wild_declares_colour() -> None:
    t = classic([["Y1", "Y2"], ["W", "G8"], *FILL], discard=["R3"])
    t.reject("P1 PLAY W", match="colour")
    t.reject("P1 PLAY W color=Pk", match="colour")
    t.do("P1 PLAY W color=B")
    assert t.g.current_color == Color.B and t.g.current == 2
    t.reject("P2 PLAY Y1")


def test_colour_given_for_a_coloured_card_is_rejected() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8"], *FILL], discard=["R3"])
    t.reject("P1 PLAY R5 color=G", match="not a wild")


# ---------------------------------------------------------------------------- §2.3 Wild Draw Four

WD4_DRAW = ["B1", "B2", "B3", "B4", "B5", "B6", "B9", "G9"]


def wd4_table(p1: list[str], players: int = 4, **kw: Any) -> Table:
    hands = [["Y1", "Y2"], p1, ["Y7", "Y8"], ["G7", "G8"]][:players]
    if players == 2:
        hands = [["Y1", "Y2"], p1]
    kw.setdefault("discard", ["R3"])
    return classic(hands, draw=WD4_DRAW, **kw)


def test_wd4_accept() -> None:
    t = wd4_table(["W4", "R8", "Y3"])  # illegal, but accepting never checks
    t.do("P1 PLAY W4 color=G")
    assert t.g.state == Phase.AWAIT_CHALLENGE and t.g.current == 2
    assert t.g.current_color == Color.G  # declared colour applies at once (D18)
    t.do("P2 ACCEPT")
    assert t.hand(2) == S("Y7", "Y8", "B1", "B2", "B3", "B4")
    assert t.hand(1) == S("R8", "Y3")
    assert t.g.current == 3 and t.g.state == Phase.AWAIT_TURN
    assert t.g.current_color == Color.G


def test_wd4_failed_challenge_costs_six_and_turn() -> None:
    # holding cards that match only by number, and another wild, keeps it legal (§2.3)
    t = wd4_table(["W4", "Y3", "W", "B3"])
    t.do("P1 PLAY W4 color=G", "P2 CHALLENGE")
    assert t.hand(2) == S("Y7", "Y8", "B1", "B2", "B3", "B4", "B5", "B6")
    assert t.hand(1) == S("Y3", "W", "B3")
    assert t.g.current == 3 and t.g.current_color == Color.G


def test_wd4_successful_challenge() -> None:
    t = wd4_table(["W4", "R8", "Y3"])
    t.do("P1 PLAY W4 color=G", "P2 CHALLENGE")
    assert t.hand(1) == S("R8", "Y3", "B1", "B2", "B3", "B4")
    assert t.hand(2) == S("Y7", "Y8")
    assert t.g.current == 2 and t.g.state == Phase.AWAIT_TURN  # D17: not skipped
    assert t.g.current_color == Color.G  # D18: declared colour stands
    t.reject("P2 PLAY Y7")  # the challenger plays on the declared colour


def test_wd4_challenge_reveals_hand_to_challenger_only() -> None:
    t = wd4_table(["W4", "R8", "Y3"])
    t.do("P1 PLAY W4 color=G", "P2 CHALLENGE")
    seen = t.g.observe(2).revealed
    assert seen is not None and seen[0] == 1
    assert sorted(str(c) for c in seen[1]) == S("R8", "Y3")
    assert t.g.observe(3).revealed is None
    assert t.g.observe(0).revealed is None


def test_wd4_legality_uses_colour_before_the_play_after_a_wild() -> None:
    # top is a Wild declared G: holding G5 makes the WD4 illegal, holding R5 does not
    t = wd4_table(["W4", "G5", "R5"], discard=["R3", "W"], color="G")
    t.do("P1 PLAY W4 color=Y", "P2 CHALLENGE")
    assert t.hand(1) == S("G5", "R5", "B1", "B2", "B3", "B4")
    t = wd4_table(["W4", "R5", "R6"], discard=["R3", "W"], color="G")
    t.do("P1 PLAY W4 color=Y", "P2 CHALLENGE")
    assert len(t.hand(2)) == 8 and t.g.current == 3


def test_wd4_second_wd4_in_hand_does_not_make_it_illegal() -> None:
    t = wd4_table(["W4", "W4", "Y3"])
    t.do("P1 PLAY W4 color=G", "P2 CHALLENGE")
    assert len(t.hand(2)) == 8 and t.hand(1) == S("W4", "Y3")


def test_wild_draw_wilds_count_as_match_option() -> None:
    t = wd4_table(["W4", "W", "Y3"], options={"wildDrawWildsCountAsMatch": True})
    t.do("P1 PLAY W4 color=G", "P2 CHALLENGE")
    assert t.hand(1) == S("W", "Y3", "B1", "B2", "B3", "B4")  # the held Wild made it illegal
    assert t.g.current == 2


def test_wd4_two_players_accept_returns_turn_to_offender() -> None:
    t = wd4_table(["W4", "Y3"], players=2)
    t.do("P1 PLAY W4 color=G", "P0 ACCEPT")
    assert t.hand(0) == S("Y1", "Y2", "B1", "B2", "B3", "B4")
    assert t.g.current == 1


def test_wd4_two_players_failed_and_successful_challenge() -> None:
    t = wd4_table(["W4", "Y3"], players=2)
    t.do("P1 PLAY W4 color=G", "P0 CHALLENGE")
    assert len(t.hand(0)) == 8 and t.g.current == 1
    t = wd4_table(["W4", "R3"], players=2)
    t.do("P1 PLAY W4 color=G", "P0 CHALLENGE")
    assert t.hand(1) == S("R3", "B1", "B2", "B3", "B4") and t.g.current == 0


def test_wd4_played_from_drawn_card_keeps_bookkeeping() -> None:
    # D47: a restricted card just drawn may be played; legality as usual
    t = classic([["Y1", "Y2"], ["R8"], *FILL], discard=["R3"], draw=["W4", *WD4_DRAW])
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    t.do("P1 PLAY W4 color=B", "P2 CHALLENGE")
    assert t.hand(1) == S("R8", "B1", "B2", "B3", "B4")
    assert t.g.current == 2 and t.g.current_color == Color.B


def test_only_the_victim_answers_a_challenge() -> None:
    t = wd4_table(["W4", "R8", "Y3"])
    t.do("P1 PLAY W4 color=G")
    t.reject("P3 CHALLENGE")
    t.reject("P1 CHALLENGE")
    t.reject("P0 ACCEPT")
    t.reject("P2 PLAY Y7")
    t.reject("P2 DRAW")
    t.reject("P2 PASS")
    t.reject("P2 COLOR R")
    assert {type(a).__name__ for a in t.g.legal_actions(2)} == {"Accept", "Challenge"}


# ---------------------------------------------------------------------------- §1.11 UNO


def uno_table(p1: list[str], **kw: Any) -> Table:
    kw.setdefault("discard", ["R3"])
    kw.setdefault("draw", ["B1", "B2", "B3", "B4", "B5", "B6", "G9", "G1"])
    return classic([["Y1", "Y2"], p1, ["Y7", "Y8", "R9"], ["G7", "G8", "R7"]], **kw)


def test_play_to_one_card_without_call_is_vulnerable_and_caught() -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5")
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    assert Catch(3, 1) in t.g.legal_actions(3)
    assert CallUno(1) in t.g.legal_actions(1)
    t.do("P3 CATCH P1")
    assert t.hand(1) == S("R6", "B1", "B2")
    assert t.g.uno_state(1) == UnoState.NONE
    assert t.g.current == 2  # a catch does not move the turn


def test_next_player_may_catch() -> None:  # D56
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5", "P2 CATCH P1")
    assert len(t.hand(1)) == 3 and t.g.current == 2


def test_uno_called_with_play_is_safe() -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5 uno=true")
    assert t.g.uno_state(1) == UnoState.SAFE
    assert all(not isinstance(a, Catch) for a in t.g.legal_actions(3))
    t.no_effect("P3 CATCH P1")


def test_call_uno_after_play_before_catch() -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5", "P1 UNO")
    assert t.g.uno_state(1) == UnoState.SAFE
    t.no_effect("P0 CATCH P1")
    t.no_effect("P1 UNO")  # already safe: nothing more


def test_uno_pre_announcement_with_two_cards() -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 UNO", "P1 PLAY R5")
    assert t.g.uno_state(1) == UnoState.SAFE


def test_uno_pre_announcement_in_await_drawn() -> None:
    t = uno_table(["R5"], draw=["R7", "B1"])
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    t.do("P1 UNO", "P1 PLAY R7")
    assert t.g.uno_state(1) == UnoState.SAFE


def test_call_uno_without_effect_is_ignored() -> None:
    t = uno_table(["R5", "R6", "R1"])
    t.no_effect("P1 UNO")  # three cards
    t.no_effect("P0 UNO")  # two cards, not P0's turn
    t.do("P1 PLAY R5")
    assert t.g.uno_state(1) == UnoState.NONE


def test_pre_announcement_applies_only_to_this_turn() -> None:
    t = classic([["R9", "G1", "G2"], ["R5", "R6"]], discard=["R3"])
    t.do("P1 UNO", "P1 DRAW")  # nothing to draw: the turn ends without a play
    assert t.hand(1) == S("R5", "R6") and t.g.current == 0
    t.do("P0 PLAY R9", "P1 PLAY R5")  # no call this time
    assert t.g.uno_state(1) == UnoState.VULNERABLE


@pytest.mark.parametrize("closing", ["P2 PLAY R9", "P2 DRAW"])
def test_catch_window_closes_on_next_turn_action(closing: str) -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5", closing)
    assert t.g.uno_state(1) == UnoState.NONE
    t.no_effect("P3 CATCH P1")
    assert len(t.hand(1)) == 1


def test_catch_window_stays_open_through_calls_and_false_catches() -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5", "P2 UNO", "P0 UNO", "P3 CATCH P0", "P0 CATCH P2")
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P0 CATCH P1")
    assert len(t.hand(1)) == 3


def test_catch_window_survives_automatic_penalty_draw() -> None:
    # §1.11 example: P plays a Draw Two leaving one card; the victim's draw does not close it
    t = uno_table(["RD2", "R6"])
    t.do("P1 PLAY RD2")
    assert t.hand(2) == S("Y7", "Y8", "R9", "B1", "B2")
    assert t.g.current == 3 and t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P2 CATCH P1")
    assert t.hand(1) == S("R6", "B3", "B4")


def test_catch_window_closes_when_player_after_the_victim_acts() -> None:
    t = uno_table(["RD2", "R6"])
    t.do("P1 PLAY RD2", "P3 PLAY R7")
    t.no_effect("P2 CATCH P1")
    assert t.hand(1) == ["R6"]


def test_catch_window_during_challenge_and_closed_by_accept() -> None:
    t = uno_table(["W4", "G6"])
    t.do("P1 PLAY W4 color=G")
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P2 ACCEPT")
    t.no_effect("P3 CATCH P1")
    assert t.hand(1) == ["G6"]


def test_catch_window_closed_by_challenge() -> None:
    t = uno_table(["W4", "G6"])
    t.do("P1 PLAY W4 color=G", "P2 CHALLENGE")  # legal: P2 draws 6
    assert len(t.hand(2)) == 9
    t.no_effect("P3 CATCH P1")


def test_catch_while_challenge_pending() -> None:
    t = uno_table(["W4", "G6"])
    t.do("P1 PLAY W4 color=G", "P3 CATCH P1")
    assert t.hand(1) == S("G6", "B1", "B2")
    assert t.g.state == Phase.AWAIT_CHALLENGE and t.g.current == 2
    t.do("P2 ACCEPT")
    assert t.hand(2) == S("Y7", "Y8", "R9", "B3", "B4", "B5", "B6")


def test_catch_self_and_bad_seats_rejected() -> None:
    t = uno_table(["R5", "R6"])
    t.do("P1 PLAY R5")
    t.reject("P1 CATCH P1")
    t.reject("P0 CATCH P9")
    t.reject("P9 CATCH P1")
    t.reject("P9 UNO")
    assert t.g.uno_state(1) == UnoState.VULNERABLE


def test_drawing_cancels_uno_state() -> None:
    t = uno_table(["R5", "R6"], draw=["G2", "G3"])
    t.do("P1 PLAY R5 uno=true", "P2 PLAY R9", "P3 PLAY R7", "P0 DRAW")
    assert t.g.current == 1
    t.do("P1 DRAW")  # G3 on R7: unplayable
    assert len(t.hand(1)) == 2 and t.g.uno_state(1) == UnoState.NONE


def test_uno_penalty_option() -> None:
    t = uno_table(["R5", "R6"], options={"unoPenalty": 4})
    t.do("P1 PLAY R5", "P0 CATCH P1")
    assert t.hand(1) == S("R6", "B1", "B2", "B3", "B4")


def test_false_catch_penalty_option() -> None:
    t = uno_table(["R5", "R6"], options={"falseCatchPenalty": 1})
    t.do("P3 CATCH P1")  # P1 holds two cards: false catch
    assert t.hand(3) == S("G7", "G8", "R7", "B1")
    assert len(t.hand(1)) == 2


def test_false_catch_costs_nothing_by_default() -> None:
    t = uno_table(["R5", "R6"])
    t.no_effect("P3 CATCH P1")


# ---------------------------------------------------------------------------- §1.8 drawing


def test_lazy_reshuffle_keeps_top_and_declared_colour() -> None:
    t = classic([["Y1", "Y2"], ["R5", "B8"], *FILL], discard=["R1", "G2", "B7", "W"], color="G")
    t.do("P1 DRAW")
    assert t.discard == ["W"]
    assert t.g.current_color == Color.G
    got = [c for c in t.hand(1) if c not in ("R5", "B8")]
    assert len(got) == 1
    assert Counter(t.draw + got) == Counter(["R1", "G2", "B7"])


def test_multi_card_penalty_reshuffles_and_continues() -> None:
    t = classic(
        [["Y1", "Y2"], ["RD2", "B8"], ["Y3", "Y4"], ["B7", "B9"]],
        discard=["R1", "G2", "B5", "R3"],
        draw=["Y9"],
    )
    t.do("P1 PLAY RD2")
    assert t.discard == ["RD2"]
    new = [c for c in t.hand(2) if c not in ("Y3", "Y4")]
    assert len(new) == 2 and "Y9" in new
    assert Counter(t.draw + new) == Counter(["Y9", "R1", "G2", "B5", "R3"])
    assert t.g.current == 3


def test_draw_from_exhausted_piles_yields_nothing_and_ends_turn() -> None:  # D22
    t = classic([["Y1", "Y2"], ["G5", "B8"], *FILL], discard=["R3"])
    t.do("P1 DRAW")
    assert t.hand(1) == S("G5", "B8")
    assert t.g.current == 2 and t.g.state == Phase.AWAIT_TURN
    assert t.discard == ["R3"] and t.draw == []


def test_penalty_stops_when_nothing_left_but_skip_still_applies() -> None:
    t = classic([["Y1", "Y2"], ["RD2", "B8"], ["Y3", "Y4"], ["B7", "B9"]], discard=["R3"])
    t.do("P1 PLAY RD2")
    assert t.hand(2) == S("Y3", "Y4", "R3")  # the only card there was
    assert t.discard == ["RD2"] and t.draw == []
    assert t.g.current == 3


def blocked_table(**kw: Any) -> Table:
    return classic([["G1", "G2"], ["B5", "B8"], ["Y9", "G4", "Y4"]], discard=["R3"], **kw)


def test_blocked_round_no_score() -> None:  # D55
    t = blocked_table(scores=[10, 20, 30])
    t.do("P1 DRAW", "P2 DRAW")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 0
    t.do("P0 DRAW")
    assert t.g.state == Phase.ROUND_OVER
    assert t.g.winner == -1 and t.g.round_points == 0
    assert t.g.scores == [10, 20, 30]


def test_blocked_round_lowest_hand_wins() -> None:
    t = blocked_table(options={"blockedRound": "lowest_hand_wins"})
    t.do("P1 DRAW", "P2 DRAW", "P0 DRAW")
    assert t.g.state == Phase.ROUND_OVER
    assert t.g.winner == 0  # G1 G2 = 3 points
    assert t.g.round_points == 13 + 17
    assert t.g.scores == [30, 0, 0]


def test_blocked_round_count_restarts_after_a_play() -> None:
    t = classic([["R5", "G1"], ["B4", "B8"]], discard=["R3"])
    t.do("P1 DRAW")  # empty (1)
    t.do("P0 PLAY R5")  # a play: the count restarts
    t.do("P1 DRAW")  # reshuffles the R3 and draws it: playable on R5
    assert t.g.state == Phase.AWAIT_DRAWN
    t.do("P1 PASS", "P0 DRAW")  # empty (1)
    assert t.g.state == Phase.AWAIT_TURN
    t.do("P1 DRAW")  # empty (2): blocked
    assert t.g.state == Phase.ROUND_OVER and t.g.winner == -1


# ---------------------------------------------------------------------------- §2.4 first card


def first(card: str, players: int = 4, dealer: int = 0, **kw: Any) -> Table:
    hands = [["Y1", "Y2"], ["B3", "B4"], ["Y7", "Y8"], ["G7", "G8"], ["B1", "B2"]][:players]
    kw.setdefault("draw", [card, "B5", "B6", "B9"])
    t = classic(hands, dealer=dealer, **kw)
    assert t.g.state == Phase.DEAL
    t.g.start()
    t.g.check_invariants(t.initial)
    return t


def test_first_card_number() -> None:
    t = first("R5")
    assert t.discard == ["R5"] and t.g.current == 1 and t.g.current_color == Color.R
    assert t.g.direction == 1 and t.g.state == Phase.AWAIT_TURN


def test_first_card_number_after_other_dealer() -> None:
    t = first("R5", dealer=3)
    assert t.g.current == 0


def test_first_card_skip() -> None:
    t = first("GS")
    assert t.g.current == 2 and t.g.current_color == Color.G


def test_first_card_reverse_dealer_starts() -> None:
    t = first("GR", dealer=2)
    assert t.g.direction == -1 and t.g.current == 2
    t = first("GR", players=2, dealer=1)
    assert t.g.direction == -1 and t.g.current == 1


def test_first_card_draw_two() -> None:
    t = first("BD2")
    assert t.hand(1) == S("B3", "B4", "B5", "B6")
    assert t.g.current == 2 and t.g.current_color == Color.B


def test_first_card_wild_first_player_declares() -> None:
    t = first("W")
    assert t.g.state == Phase.AWAIT_COLOR and t.g.current == 1
    t.reject("P2 COLOR G")
    t.reject("P1 COLOR Pk")
    t.reject("P1 PLAY B3")
    t.do("P1 COLOR G")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 1  # then a normal turn
    assert t.g.current_color == Color.G and t.counts == [2, 2, 2, 2]


def test_first_card_wd4_is_returned_until_another_card() -> None:
    t = first("W4", draw=["W4", "W4", "W4", "R5"])
    assert t.discard == ["R5"]
    assert t.draw == ["W4", "W4", "W4"]
    assert t.g.current == 1 and t.g.current_color == Color.R


def test_start_twice_is_rejected() -> None:
    t = first("R5")
    before = t.g.copy()
    with pytest.raises(IllegalActionError):
        t.g.start()
    assert t.g == before


# ---------------------------------------------------------------------------- §1.12 round end, §1.13


SCORING_HANDS = [["RS", "W"], ["R5"], ["W4", "R9", "B0"], ["GR", "GD2", "Y7"]]  # 70, -, 59, 47


def test_going_out_scores_opponents_hands() -> None:
    t = classic([h[:] for h in SCORING_HANDS], discard=["R3"], scores=[5, 7, 0, 0])
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.ROUND_OVER
    assert t.g.winner == 1 and t.g.round_points == 176
    assert t.g.scores == [5, 183, 0, 0]
    t.reject("P2 PLAY R9", match="over")
    t.reject("P2 CATCH P1")
    t.reject("P2 UNO")
    t.reject("P2 DRAW")


def test_last_card_draw_two_still_draws_and_counts() -> None:  # D19
    t = classic(
        [["RS", "W"], ["RD2"], ["W4", "R9", "B0"], ["GR", "GD2", "Y7"]],
        discard=["R3"],
        draw=["R9", "B8"],
    )
    t.do("P1 PLAY RD2")
    assert t.g.state == Phase.ROUND_OVER
    assert t.hand(2) == S("W4", "R9", "B0", "R9", "B8")
    assert t.g.round_points == 70 + 59 + 17 + 47


def test_last_card_wd4_draws_four_without_challenge() -> None:
    t = classic(
        [["RS", "W"], ["W4"], ["R9"], ["Y7"]], discard=["R3"], draw=["B1", "B2", "B3", "B4", "B5"]
    )
    t.do("P1 PLAY W4 color=G")
    assert t.g.state == Phase.ROUND_OVER
    assert t.hand(2) == S("R9", "B1", "B2", "B3", "B4")
    assert t.g.round_points == 70 + 19 + 7


def test_last_card_wild_needs_no_colour() -> None:
    t = classic([["RS", "W"], ["W"], ["R9"], ["Y7"]], discard=["R3"])
    t.do("P1 PLAY W")
    assert t.g.state == Phase.ROUND_OVER and t.g.round_points == 70 + 9 + 7


def test_last_card_skip_and_reverse_are_moot() -> None:
    t = classic([["Y1"], ["RS"], ["R9"], ["Y7"]], discard=["R3"])
    t.do("P1 PLAY RS")
    assert t.g.state == Phase.ROUND_OVER and t.g.winner == 1 and t.g.round_points == 17


def test_match_ends_when_target_reached() -> None:
    t = classic([["Y1"], ["R5"], ["R9"], ["Y7"]], discard=["R3"], scores=[0, 483, 0, 499])
    t.do("P1 PLAY R5")  # 1 + 9 + 7 = 17 -> exactly 500
    assert t.g.state == Phase.MATCH_OVER and t.g.is_over
    assert t.g.scores == [0, 500, 0, 499]
    assert tuple(t.g.match_winners) == (1,)
    t.reject("NEXT")


def test_match_continues_below_target_and_next_round_deals() -> None:
    t = classic(
        [["Y1"], ["R5"], ["R9"], ["Y7"]],
        discard=["R3"],
        scores=[0, 482, 0, 0],
        dealer=2,
        options={"targetScore": 500},
    )
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.ROUND_OVER and t.g.scores[1] == 499
    t.g.apply("NEXT")
    g = t.g
    assert g.round_no == 2 and g.dealer == 3  # dealerRotation=left
    assert g.scores == [0, 499, 0, 0]
    assert g.state in (Phase.AWAIT_TURN, Phase.AWAIT_COLOR)
    assert sum(len(h) for h in g.hands) + g.draw_count + len(g.discard) == 108
    assert all(g.uno_state(s) == UnoState.NONE for s in range(4))


def test_target_score_option() -> None:
    t = classic([["Y1"], ["R5"], ["R9"], ["Y7"]], discard=["R3"], options={"targetScore": 17})
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.MATCH_OVER and tuple(t.g.match_winners) == (1,)


def test_lowest_scoring_mode() -> None:
    t = classic(
        [["Y1"], ["R5"], ["R9"], ["Y7"]],
        discard=["R3"],
        scores=[3, 0, 10, 2],
        options={"scoringMode": "lowest", "targetScore": 100},
    )
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.ROUND_OVER
    assert t.g.scores == [4, 0, 19, 9]


def test_lowest_mode_match_end_lowest_wins() -> None:
    t = classic(
        [["Y1"], ["R5"], ["R9"], ["Y7"]],
        discard=["R3"],
        scores=[3, 5, 95, 2],
        options={"scoringMode": "lowest", "targetScore": 100},
    )
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.MATCH_OVER
    assert t.g.scores == [4, 5, 104, 9]
    assert tuple(t.g.match_winners) == (0,)


def test_lowest_mode_tie_co_winners() -> None:
    t = classic(
        [["Y1"], ["R5"], ["R9"], ["Y7"]],
        discard=["R3"],
        scores=[4, 5, 95, 2],
        options={"scoringMode": "lowest", "targetScore": 100},
    )
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.MATCH_OVER
    assert t.g.scores == [5, 5, 104, 9]
    assert sorted(t.g.match_winners) == [0, 1]


def test_lowest_mode_tie_play_on() -> None:
    t = classic(
        [["Y1"], ["R5"], ["R9"], ["Y7"]],
        discard=["R3"],
        scores=[4, 5, 95, 2],
        options={"scoringMode": "lowest", "targetScore": 100, "lowestModeTie": "play_on"},
    )
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.ROUND_OVER
    assert t.g.scores == [5, 5, 104, 9]
    t.g.apply("NEXT")
    assert t.g.round_no == 2 and not t.g.is_over


def test_single_round_match() -> None:
    t = classic(
        [["Y1"], ["R5"], ["R9"], ["Y7"]], discard=["R3"], options={"matchMode": "single_round"}
    )
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.MATCH_OVER and tuple(t.g.match_winners) == (1,)
    assert t.g.scores == [0, 17, 0, 0]


def test_scores_do_not_change_during_a_round() -> None:
    t = uno_table(["RD2", "R6", "R1"], scores=[1, 2, 3, 4])
    t.do("P1 PLAY RD2", "P3 PLAY R7", "P0 DRAW")
    assert t.g.scores == [1, 2, 3, 4]


# ---------------------------------------------------------------------------- dealer, players, options


def finished(options: dict[str, Any] | None = None, dealer: int = 2) -> Game:
    t = classic([["Y1"], ["R5"], ["R9"], ["Y7"]], discard=["R3"], dealer=dealer, options=options)
    t.do("P1 PLAY R5")
    return t.g


def test_dealer_rotation_left() -> None:
    g = finished(dealer=3)
    g.apply("NEXT")
    assert g.dealer == 0


def test_dealer_rotation_winner() -> None:
    g = finished({"dealerRotation": "winner"})
    g.apply("NEXT")
    assert g.dealer == 1


def test_dealer_rotation_random_is_a_seat_and_deterministic() -> None:
    dealers = set()
    for seed in range(12):
        a = Game.setup(
            "classic",
            4,
            {"dealerRotation": "random"},
            hands=[["Y1"], ["R5"], ["R9"], ["Y7"]],
            discard=["R3"],
            seed=seed,
        )
        b = a.copy()
        for g in (a, b):
            g.apply("P1 PLAY R5")
            g.apply("NEXT")
        assert a == b and 0 <= a.dealer < 4
        dealers.add(a.dealer)
    assert len(dealers) > 1


def test_dealer_selection_fixed_and_first_player() -> None:
    g = Game.new("classic", 4, {"dealerSelection": "fixed:2"}, seed=5)
    assert g.dealer == 2
    for seed in range(20):
        g = Game.new("classic", 5, {"dealerSelection": "random"}, seed=seed)
        assert 0 <= g.dealer < 5
        assert g == Game.new("classic", 5, {"dealerSelection": "random"}, seed=seed)


def test_deal_hand_size_and_first_player() -> None:
    for seed in range(30):
        g = Game.new("classic", 3, {"handSize": 5, "dealerSelection": "fixed:1"}, seed=seed)
        assert g.dealer == 1
        first_card = g.discard_pile[0]
        sizes = [len(h) for h in g.hands]
        kind = first_card.light.kind.name
        if kind == "DRAW_TWO":
            assert sizes == [5, 5, 7] and g.current == 0
        else:
            assert sizes == [5, 5, 5]
        if kind == "NUMBER":
            assert g.current == 2 and g.current_color == first_card.light.color
        assert sum(sizes) + g.draw_count + len(g.discard) == 108


@pytest.mark.parametrize("players", [0, 1, 11])
def test_player_limits_classic(players: int) -> None:
    with pytest.raises(InvalidPositionError):
        Game.new("classic", players)


@pytest.mark.parametrize("players", [2, 10])
def test_player_limits_classic_ok(players: int) -> None:
    g = Game.new("classic", players, seed=1)
    assert g.players == players and sum(len(h) for h in g.hands) >= 7 * players


def test_bad_options_are_rejected() -> None:
    with pytest.raises(OptionError, match="stacking"):
        Game.new("classic", 3, {"stacking": "always"})
    with pytest.raises(OptionError, match="unknown option"):
        Game.new("classic", 3, {"colour": "R"})
    with pytest.raises(OptionError):
        Game.new("classic", 3, {"targetScore": 0})
    with pytest.raises(OptionError):
        Game.new("classic", 3, {"jumpIn": "maybe"})


# ---------------------------------------------------------------------------- bad commands


@pytest.mark.parametrize(
    ("command", "exc"),
    [
        ("P1 PLAY R99", ParseError),
        ("P1 PLAY", ParseError),
        ("P1 JUMP", ParseError),
        ("", ParseError),
        ("X1 DRAW", ParseError),
        ("P1 PLAY R5 colour=R", ParseError),
        ("P1 PLAY R5 uno=maybe", ParseError),
        ("P1 PLAY W color=R color=G", ParseError),
        ("P1 CATCH", ParseError),
        ("P1 COLOR", ParseError),
        ("P1 DRAW now", ParseError),
        ("P1 PLAY R|Pk5", ParseError),
        ("P2 PLAY Y7", IllegalActionError),  # not P2's turn
        ("P1 PLAY G9", IllegalActionError),  # not in hand
        ("P1 PLAY G8", IllegalActionError),  # does not match
        ("P1 PLAY R5 side=flex", IllegalActionError),
        ("P1 PLAY R5 target=P2", IllegalActionError),
        ("P1 PLAY R5 swap=P2", IllegalActionError),
        ("P1 PLAY R5 flipcolor=Pk", IllegalActionError),
        ("P1 COLOR G", IllegalActionError),
        ("P1 ACCEPT", IllegalActionError),
        ("P1 CHALLENGE", IllegalActionError),
        ("P1 PASS", IllegalActionError),
        ("P7 DRAW", IllegalActionError),
        ("NEXT", IllegalActionError),
    ],
)
def test_bad_commands_change_nothing(command: str, exc: type[UnoError]) -> None:
    t = classic(
        [["Y1", "Y2"], ["R5", "G8", "W"], ["Y7", "Y8"], ["B7", "B8"]],
        discard=["R3"],
        draw=["B1", "B2"],
    )
    msg = t.reject(command, exc=exc)
    assert len(msg) > 10


def test_illegal_play_message_names_card_and_top() -> None:
    t = classic([["Y1", "Y2"], ["G8", "R5"], *FILL], discard=["R3"])
    msg = t.reject("P1 PLAY G8")
    assert "G8" in msg and "R3" in msg


def test_wrong_seat_message_names_seat_to_act() -> None:
    t = classic([["Y1", "Y2"], ["G8", "R5"], *FILL], discard=["R3"])
    msg = t.reject("P0 PLAY Y1")
    assert "P1" in msg


# ---------------------------------------------------------------------------- §2.7 misplay penalty


def test_misplay_penalty_on() -> None:
    t = classic(
        [["Y1", "Y2"], ["G8", "R5"], *FILL],
        discard=["R3"],
        draw=["B1", "B2", "B3"],
        options={"misplayPenalty": "on"},
    )
    t.do("P1 PLAY G8")
    assert t.hand(1) == S("G8", "R5", "B1", "B2")  # card stays in hand, draws 2
    assert t.discard == ["R3"] and t.g.current == 2
    # commands that are not misplays are still simply rejected
    t.reject("P0 PLAY Y1")
    t.reject("P2 PLAY Q5", exc=ParseError)


def test_misplay_penalty_off_by_default() -> None:
    t = classic([["Y1", "Y2"], ["G8", "R5"], *FILL], discard=["R3"], draw=["B1", "B2", "B3"])
    t.reject("P1 PLAY G8")


# ---------------------------------------------------------------------------- §6.1 stacking


def stack_table(mode: str, p1: list[str], p2: list[str], **kw: Any) -> Table:
    return classic(
        [["Y1", "Y2"], p1, p2, ["G7", "G8", "B2"]],
        discard=["R3"],
        draw=["B1", "B3", "B4", "B5", "B6", "B9", "G1", "G2", "G3", "G4", "G5"],
        options={"stacking": mode},
        **kw,
    )


def test_stacking_off_by_default_draw_two_is_immediate() -> None:
    t = classic(
        [["Y1", "Y2"], ["RD2", "R1"], ["GD2", "Y8"], ["G7", "G8"]],
        discard=["R3"],
        draw=["B1", "B3"],
    )
    t.do("P1 PLAY RD2")
    assert t.hand(2) == S("GD2", "Y8", "B1", "B3") and t.g.current == 3


def test_stacking_same_symbol_draw_two_chain_then_draw() -> None:
    t = stack_table("same_symbol", ["RD2", "R1"], ["GD2", "Y8", "W4"])
    t.do("P1 PLAY RD2")
    assert t.g.current == 2 and len(t.hand(2)) == 3  # nothing drawn yet
    t.reject("P2 PLAY W4 color=G")  # same_symbol: only Draw Two on Draw Two
    t.reject("P2 PLAY Y8")
    t.reject("P2 PASS")
    t.do("P2 PLAY GD2")
    assert t.g.current == 3
    t.reject("P3 PLAY G7")
    t.do("P3 DRAW")  # takes 4 and loses the turn
    assert t.hand(3) == S("G7", "G8", "B2", "B1", "B3", "B4", "B5")
    assert t.g.current == 0 and t.g.state == Phase.AWAIT_TURN
    t.do("P0 DRAW")  # a normal draw again: one card
    assert len(t.hand(0)) == 3


def test_stacking_escalate() -> None:
    t = stack_table("escalate", ["RD2", "R1"], ["W4", "Y8"])
    t.do("P1 PLAY RD2", "P2 PLAY W4 color=G")  # 2 -> 4 allowed
    assert t.g.current == 3 and t.g.current_color == Color.G
    t.do("P3 DRAW")
    assert len(t.hand(3)) == 3 + 6 and t.g.current == 0


def test_stacking_escalate_forbids_smaller_draw() -> None:
    t = stack_table("escalate", ["W4", "R1"], ["GD2", "Y8"])
    t.do("P1 PLAY W4 color=G")
    assert t.g.current == 2
    t.reject("P2 PLAY GD2")  # WD4 -> Draw Two not allowed
    t.do("P2 DRAW")
    assert len(t.hand(2)) == 2 + 4 and t.g.current == 3


def test_stacking_same_symbol_wd4_on_wd4() -> None:
    t = stack_table("same_symbol", ["W4", "R1"], ["W4", "Y8"])
    t.do("P1 PLAY W4 color=G", "P2 PLAY W4 color=B")
    assert t.g.current == 3 and t.g.current_color == Color.B
    t.do("P3 DRAW")
    assert len(t.hand(3)) == 3 + 8 and t.g.current == 0


def test_stacked_wd4_challenge_legal_victim_draws_pending_plus_two() -> None:
    t = stack_table("escalate", ["RD2", "R1"], ["W4", "G8"])
    t.do("P1 PLAY RD2", "P2 PLAY W4 color=B")  # colour was R, P2 holds no red: legal
    t.do("P3 CHALLENGE")
    assert len(t.hand(3)) == 3 + 6 + 2 and t.g.current == 0


def test_stacked_wd4_challenge_success() -> None:
    t = stack_table("escalate", ["RD2", "R1"], ["W4", "R8"])
    t.do("P1 PLAY RD2", "P2 PLAY W4 color=B", "P3 CHALLENGE")
    assert t.hand(2) == S("R8", "B1", "B3", "B4", "B5", "B6", "B9")  # the whole pending 6
    assert t.hand(3) == S("G7", "G8", "B2")
    assert t.g.current == 3 and t.g.state == Phase.AWAIT_TURN
    assert t.g.current_color == Color.B
    t.do("P3 PLAY B2")  # plays normally


def test_stacking_draw_two_cannot_be_challenged() -> None:
    t = stack_table("same_symbol", ["RD2", "R1"], ["GD2", "Y8"])
    t.do("P1 PLAY RD2")
    t.reject("P2 CHALLENGE")


def test_stacking_catch_window_closes_when_victim_acts() -> None:
    t = stack_table("same_symbol", ["RD2", "R1"], ["GD2", "Y8"])
    t.do("P1 PLAY RD2")
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P2 PLAY GD2")
    t.no_effect("P0 CATCH P1")


# ---------------------------------------------------------------------------- §6.2 jump-in


def jump_table(jumper: int = 3, **kw: Any) -> Table:
    # R3 on top; the deck's other R3 is with ``jumper``, the other seats hold a G3 instead
    opts = {"jumpIn": True} | kw.pop("options", {})
    hands = [["R3", "Y2", "W"], ["R5", "G8"], ["Y7", "Y8", "R3"], ["R3", "G1", "B5"]]
    for seat in (0, 2, 3):
        if seat != jumper:
            hands[seat] = ["G3" if c == "R3" else c for c in hands[seat]]
    return classic(hands, discard=["B9", "R3"], options=opts, **kw)


def test_jump_in_with_identical_card() -> None:
    t = jump_table()
    assert any(str(a) == "P3 PLAY R3" for a in t.g.legal_actions(3))
    t.do("P3 PLAY R3")
    assert t.discard == ["B9", "R3", "R3"]
    assert t.g.current == 0  # play continues from the jumper; P1 lost the turn
    assert t.hand(3) == S("G1", "B5")


def test_jump_in_skip_continues_from_jumper() -> None:
    t = classic(
        [["Y1", "Y2"], ["R5", "G8"], ["GS", "Y8"], ["B7", "B8"]],
        discard=["R3", "GS"],
        color="G",
        options={"jumpIn": True},
    )
    t.do("P2 PLAY GS")
    assert t.g.current == 0  # next(next(P2))


def test_jump_in_needs_identical_card() -> None:
    t = jump_table()
    t.reject("P2 PLAY Y7")  # not identical
    t = classic(
        [["R5", "Y2"], ["R6", "G8"], ["G3", "Y8"], ["B7", "B8"]],
        discard=["R3"],
        options={"jumpIn": True},
    )
    t.reject("P2 PLAY G3")  # same number, other colour
    t.reject("P0 PLAY R5")  # same colour, other number


def test_no_jump_in_with_wilds() -> None:
    t = classic(
        [["W", "Y2"], ["R6", "G8"], ["G3", "Y8"], ["B7", "B8"]],
        discard=["R3", "W"],
        color="G",
        options={"jumpIn": True},
    )
    t.reject("P0 PLAY W color=G")


def test_jump_in_off_by_default() -> None:
    t = classic([["R3", "Y2"], ["R5", "G8"], ["Y7", "Y8"], ["B7", "B8"]], discard=["R3"])
    assert t.g.legal_actions(0) == []
    t.reject("P0 PLAY R3")


@pytest.mark.parametrize("jumper", [3, 0])
def test_no_jump_in_while_decision_pending(jumper: int) -> None:
    # AWAIT_DRAWN
    t = jump_table(jumper, draw=["R6"])
    assert any(str(a) == f"P{jumper} PLAY R3" for a in t.g.legal_actions(jumper))
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    t.reject(f"P{jumper} PLAY R3")


def test_no_jump_in_during_stacking() -> None:
    t = classic(
        [["Y1", "Y2"], ["RD2", "G8"], ["Y7", "Y8"], ["RD2", "B8"]],
        discard=["R3"],
        options={"jumpIn": True, "stacking": "same_symbol"},
        draw=["B1", "B2"],
    )
    t.do("P1 PLAY RD2")
    t.reject("P3 PLAY RD2")


def test_jump_in_closes_uno_window() -> None:
    t = classic(
        [["R5", "Y2"], ["R5", "G8"], ["Y7", "Y8"], ["B7", "B8"]],
        discard=["R3"],
        options={"jumpIn": True},
    )
    t.do("P1 PLAY R5")
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P0 PLAY R5")  # jump-in: a turn action
    assert t.g.uno_state(1) == UnoState.NONE
    t.no_effect("P3 CATCH P1")


# ---------------------------------------------------------------------------- §6.3 seven-zero


def seven_table(p1: list[str], **kw: Any) -> Table:
    return classic(
        [["Y1", "Y2", "Y3"], p1, ["Y7"], ["B7", "B8", "B9", "B1"]],
        discard=["R3"],
        options={"sevenZero": True},
        **kw,
    )


def test_seven_swaps_hands() -> None:
    t = seven_table(["R7", "G8", "G9"])
    t.reject("P1 PLAY R7", match="swap")
    t.reject("P1 PLAY R7 swap=P1")
    t.reject("P1 PLAY R7 swap=P8")
    t.do("P1 PLAY R7 swap=P3")
    assert t.hand(1) == S("B7", "B8", "B9", "B1")
    assert t.hand(3) == S("G8", "G9")
    assert t.g.current == 2


def test_seven_swap_gives_no_uno_obligation() -> None:  # D57
    t = seven_table(["R7", "G8"])
    t.do("P1 PLAY R7 swap=P2")  # P1 had 1 card left, gives it away; P2's one card comes back
    assert t.hand(1) == ["Y7"] and t.hand(2) == ["G8"]
    for s in range(4):
        assert t.g.uno_state(s) == UnoState.NONE
    t.no_effect("P0 CATCH P1")
    t.no_effect("P0 CATCH P2")


def test_zero_passes_hands_in_direction() -> None:
    t = seven_table(["R0", "G8"])
    t.do("P1 PLAY R0")
    assert t.hand(2) == ["G8"]
    assert t.hand(3) == ["Y7"]
    assert t.hand(0) == S("B7", "B8", "B9", "B1")
    assert t.hand(1) == S("Y1", "Y2", "Y3")
    assert t.g.current == 2


def test_zero_passes_hands_counterclockwise() -> None:
    t = seven_table(["R0", "G8"], direction=-1)
    t.do("P1 PLAY R0")
    assert t.hand(0) == ["G8"]
    assert t.hand(3) == S("Y1", "Y2", "Y3")
    assert t.hand(2) == S("B7", "B8", "B9", "B1")
    assert t.hand(1) == ["Y7"]
    assert t.g.current == 0


def test_seven_as_last_card_ends_round_without_swap() -> None:
    t = seven_table(["R7"])
    t.do("P1 PLAY R7")
    assert t.g.state == Phase.ROUND_OVER and t.g.winner == 1
    assert t.hand(1) == []


def test_seven_without_seven_zero_swaps_nothing() -> None:
    t = classic([["Y1", "Y2"], ["R7", "G8"], *FILL], discard=["R3"])
    t.reject("P1 PLAY R7 swap=P2")
    t.do("P1 PLAY R7")
    assert t.hand(1) == ["G8"]


# ---------------------------------------------------------------------------- §6.4-6.6


def test_draw_until_playable() -> None:
    t = classic(
        [["Y1", "Y2"], ["G5", "B8"], *FILL],
        discard=["R3"],
        draw=["G1", "B2", "Y3", "G4"],
        options={"drawUntilPlayable": True},
    )
    t.do("P1 DRAW")
    assert t.hand(1) == S("G5", "B8", "G1", "B2", "Y3")
    assert t.g.state == Phase.AWAIT_DRAWN and str(t.g.cards[t.g.drawn]) == "Y3"
    t.do("P1 PASS")
    assert t.g.current == 2 and t.draw == ["G4"]


def test_draw_until_playable_runs_out() -> None:
    t = classic(
        [["Y1", "Y2"], ["G5", "B8"], *FILL],
        discard=["R3"],
        draw=["G1", "B2"],
        options={"drawUntilPlayable": True},
    )
    t.do("P1 DRAW")
    assert t.hand(1) == S("G5", "B8", "G1", "B2")
    assert t.g.current == 2 and t.g.state == Phase.AWAIT_TURN


def test_forced_play_forbids_voluntary_draw_and_pass() -> None:
    t = classic(
        [["Y1", "Y2"], ["R5", "B8"], *FILL],
        discard=["R3"],
        draw=["R6", "R7"],
        options={"forcedPlay": True},
    )
    t.reject("P1 DRAW", match="forcedPlay")
    t = classic(
        [["Y1", "Y2"], ["G5", "B8"], *FILL],
        discard=["R3"],
        draw=["R6", "R7"],
        options={"forcedPlay": True},
    )
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    t.reject("P1 PASS")
    t.do("P1 PLAY R6")


def test_forced_play_legal_wd4_forces_the_play() -> None:
    # §6.5: a restricted card counts as playable when it is legal (no red card held)
    t = classic(
        [["Y1", "Y2"], ["W4", "B8"], *FILL],
        discard=["R3"],
        draw=["G6"],
        options={"forcedPlay": True},
    )
    t.reject("P1 DRAW")
    t.do("P1 PLAY W4 color=B")


def test_no_bluff_rejects_illegal_wd4_and_skips_challenge() -> None:
    t = classic(
        [["Y1", "Y2"], ["W4", "R8", "B8"], ["Y7", "Y8"], ["G7", "G8"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        options={"noBluff": True},
    )
    t.reject("P1 PLAY W4 color=G", match="noBluff")
    assert not any(str(a).startswith("P1 PLAY W4") for a in t.g.legal_actions(1))
    t = classic(
        [["Y1", "Y2"], ["W4", "Y8", "B8"], ["Y7", "Y8"], ["G7", "G8"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        options={"noBluff": True},
    )
    t.do("P1 PLAY W4 color=G")
    assert t.g.state == Phase.AWAIT_TURN
    assert t.hand(2) == S("Y7", "Y8", "B1", "B2", "B3", "B4")
    assert t.g.current == 3 and t.g.current_color == Color.G


# ---------------------------------------------------------------------------- legal_actions sanity


def test_legal_actions_in_simple_turn() -> None:
    t = classic([["Y1", "Y2"], ["R5", "G8", "W"], *FILL], discard=["R3"], draw=["B1"])
    acts = {str(a) for a in t.g.legal_actions(1)}
    assert acts == {"P1 PLAY R5", "P1 DRAW"} | {f"P1 PLAY W color={c}" for c in "RYGB"}
    assert t.g.legal_actions(0) == []


def test_zero_as_last_card_ends_round_without_passing_hands() -> None:
    t = seven_table(["R0"])
    t.do("P1 PLAY R0")
    assert t.g.state == Phase.ROUND_OVER and t.g.winner == 1
    assert t.hand(0) == S("Y1", "Y2", "Y3") and t.hand(2) == ["Y7"]


def test_classic_deck_composition() -> None:  # §2.1
    g = Game.new("classic", 4, seed=11)
    cards = Counter(str(c) for c in (g.cards[i] for i in g.all_cards().elements()))
    assert sum(cards.values()) == 108
    for col in "RYGB":
        assert cards[f"{col}0"] == 1
        for n in range(1, 10):
            assert cards[f"{col}{n}"] == 2
        for sym in ("S", "R", "D2"):
            assert cards[f"{col}{sym}"] == 2
    assert cards["W"] == 4 and cards["W4"] == 4


def test_first_card_skip_and_draw_two_with_two_players() -> None:
    t = first("GS", players=2)
    assert t.g.current == 0  # F = P1 skipped: the dealer starts
    t = first("GD2", players=2)
    assert t.hand(1) == S("B3", "B4", "B5", "B6") and t.g.current == 0


def test_setup_first_card_wild_await_color_equals_started_round() -> None:
    hands = [["Y1", "Y2"], ["B3", "B4"], ["Y7", "Y8"]]
    started = Game.setup("classic", 3, hands=hands, draw=["W", "B5"])
    started.start()
    assert started.state == Phase.AWAIT_COLOR and started.current == 1
    built = Game.setup(
        "classic", 3, hands=hands, draw=["B5"], discard=["W"], phase="AWAIT_COLOR", current=1
    )
    assert built == started
