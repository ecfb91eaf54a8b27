"""UNO Flip, checked card by card against docs/rules.md §1 and §3 (and the Flip options of
Appendix C), independently of the engine's code.

Cards are physical ``light|dark`` pairs taken from the canonical pairing of
Appendix A. Positions are built with ``Game.setup`` (draw pile top first, discard
bottom to top); every accepted command is followed by the §8 invariants with
card conservation and every rejected command must leave the game unchanged.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unokit import (
    FLIP,
    Color,
    Game,
    Kind,
    ParseError,
    Phase,
    UnoError,
    UnoState,
)

from .table import S
from .table import Table as _Table

# ---------------------------------------------------------------------------- helpers


class Table(_Table):
    def __init__(self, players: int, hands: list[list[str]], **kw: Any) -> None:
        super().__init__("flip", players, hands, **kw)


def flip(hands: list[list[str]], **kw: Any) -> Table:
    return Table(len(hands), hands, **kw)


# bystander hands: light faces yellow/blue numbers, dark faces teal/purple numbers
P0 = ["Y2|Tl1", "Y5|Pu9"]
P2 = ["Y9|Pu4", "B3|Pu8"]
P3 = ["B8|Tl4", "Y5|Tl8"]
DRAW = ["B4|Pu1", "G4|Tl9", "Y2|Tl8", "B3|Tl2", "G7|Tl2", "B9|Or5", "G1|Or5", "Y8|Or2"]


# ---------------------------------------------------------------------------- matching


@pytest.mark.parametrize(
    ("side", "top", "color", "card", "legal"),
    [
        (0, "R3|Pk7", "R", "R9|Pu5", True),  # colour
        (0, "R3|Pk7", "R", "G3|PkF", True),  # number
        (0, "R3|Pk7", "R", "B5|Pk9", False),  # its dark face would match the top's: irrelevant
        (0, "GD1|Or6", "G", "RD1|Pk3", True),  # Draw One class
        (0, "YS|Or3", "Y", "RS|OrD5", True),  # Skip class
        (0, "BR|Or4", "B", "RR|Pu3", True),  # Reverse class
        (0, "GF|Tl3", "G", "RF|Pk8", True),  # Flip class
        (0, "GF|Tl3", "G", "RS|OrD5", False),
        (0, "GD1|Or6", "G", "R1|Pk3", False),  # Draw One is not the number 1
        (0, "W|Pk5", "B", "B7|Or3", True),  # top wild: its declared colour only
        (0, "W|Pk5", "B", "R7|Or1", False),
        (1, "R3|Pk7", "Pk", "R5|Pk2", True),
        (1, "R3|Pk7", "Pk", "G5|Or7", True),  # number 7
        (1, "R3|Pk7", "Pk", "R7|Or1", False),  # its light face is irrelevant on the dark side
        (1, "G2|TlD5", "Tl", "Y3|PkD5", True),  # Draw Five class
        (1, "G2|TlSE", "Tl", "Y6|OrSE", True),  # Skip Everyone class
        (1, "R2|OrR", "Or", "G8|PkR", True),  # Reverse class
        (1, "G1|OrF", "Or", "Y4|PuF", True),  # Flip class
        (1, "G1|OrF", "Or", "Y6|OrSE", True),  # colour
        (1, "G2|TlD5", "Tl", "R6|PkSE", False),
        (1, "RS|DW", "Pu", "R7|Pu5", True),
        (1, "RS|DW", "Pu", "R5|Pk2", False),
    ],
)
def test_matching(side: int, top: str, color: str, card: str, legal: bool) -> None:
    t = flip(
        [P0, [card, "Y1|PkSE", "B2|Or8"], P2, P3], discard=["B6|PuR", top], color=color, side=side
    )
    if legal:
        t.do(f"P1 PLAY {card}")
        is_flip = FLIP.parse(card).face(side).kind == Kind.FLIP  # a Flip goes to the bottom
        assert t.discard[0 if is_flip else -1] == card
        assert len(t.hand(1)) == 2
    else:
        msg = t.reject(f"P1 PLAY {card}")
        assert card in msg and "P1" in msg


def test_wild_colours_belong_to_the_current_side() -> None:
    t = flip([P0, ["W|Pk5", "B2|Or8"], P2, P3], discard=["R3|Pk7"])
    t.reject("P1 PLAY W|Pk5 color=Pk")
    t.do("P1 PLAY W|Pk5 color=B")
    assert t.g.current_color == Color.B
    t = flip([P0, ["RS|DW", "B2|Or8"], P2, P3], discard=["R3|Pk7"], side=1)
    t.reject("P1 PLAY RS|DW color=R")
    t.reject("P1 PLAY RS|DW")
    t.do("P1 PLAY RS|DW color=Tl")
    assert t.g.current_color == Color.Tl and t.g.current == 2


def test_single_faced_notation_is_a_parse_error() -> None:
    t = flip([P0, ["R5|Pk2", "B2|Or8"], P2, P3], discard=["R3|Pk7"])
    t.reject("P1 PLAY R5", exc=ParseError)
    t.reject("P1 PLAY R0|Pk2", exc=ParseError)  # Flip has no zeros (D1)


# ---------------------------------------------------------------------------- light-side effects


@pytest.mark.parametrize(("players", "victim", "after"), [(4, 2, 3), (2, 0, 1)])
def test_draw_one(players: int, victim: int, after: int) -> None:
    hands = [P0, ["RD1|Pk3", "B2|Or8"], P2, P3][:players]
    t = flip(hands, discard=["R3|Pk7"], draw=DRAW)
    t.do("P1 PLAY RD1|Pk3")
    before = {0: P0, 2: P2}[victim]
    assert t.hand(victim) == S(*before, "B4|Pu1")
    assert t.g.current == after


@pytest.mark.parametrize(("players", "after"), [(4, 3), (3, 0), (2, 1)])
def test_light_skip(players: int, after: int) -> None:
    hands = [P0, ["RS|OrD5", "B2|Or8"], P2, P3][:players]
    t = flip(hands, discard=["R3|Pk7"])
    t.do("P1 PLAY RS|OrD5")
    assert t.g.current == after


@pytest.mark.parametrize(("players", "after"), [(4, 0), (2, 1)])
def test_light_reverse(players: int, after: int) -> None:
    hands = [P0, ["RR|Pu3", "B2|Or8"], P2, P3][:players]
    t = flip(hands, discard=["R3|Pk7"])
    t.do("P1 PLAY RR|Pu3")
    assert t.g.direction == -1 and t.g.current == after


def wd2_table(p1: list[str], players: int = 4, **kw: Any) -> Table:
    hands = [P0, p1, P2, P3][:players]
    return flip(hands, discard=["R3|Pk7"], draw=DRAW, **kw)


def test_wd2_accept() -> None:
    t = wd2_table(["W2|Or4", "R1|Pk3"])  # illegal, accept never checks
    t.do("P1 PLAY W2|Or4 color=G")
    assert t.g.state == Phase.AWAIT_CHALLENGE and t.g.current == 2
    assert t.g.current_color == Color.G
    t.do("P2 ACCEPT")
    assert t.hand(2) == S(*P2, "B4|Pu1", "G4|Tl9")
    assert t.g.current == 3 and t.g.current_color == Color.G


def test_wd2_failed_challenge_costs_four() -> None:
    # legality reads only the active (light) face colour: B5|Pk9, G3|PkF hold no red face
    t = wd2_table(["W2|Or4", "G3|PkF", "W|Pk5", "B5|Pk9"])
    t.do("P1 PLAY W2|Or4 color=G", "P2 CHALLENGE")
    assert t.hand(2) == S(*P2, "B4|Pu1", "G4|Tl9", "Y2|Tl8", "B3|Tl2")
    assert t.g.current == 3 and t.g.current_color == Color.G


def test_wd2_successful_challenge() -> None:
    t = wd2_table(["W2|Or4", "RS|DW"])  # RS is red on the light side: illegal
    t.do("P1 PLAY W2|Or4 color=B", "P2 CHALLENGE")
    assert t.hand(1) == S("RS|DW", "B4|Pu1", "G4|Tl9")
    assert t.hand(2) == S(*P2)
    assert t.g.current == 2 and t.g.current_color == Color.B
    t.do("P2 PLAY B3|Pu8")


def test_wd2_wilds_count_as_match_option() -> None:
    t = wd2_table(["W2|Or4", "W|Pk5"], options={"wildDrawWildsCountAsMatch": True})
    t.do("P1 PLAY W2|Or4 color=B", "P2 CHALLENGE")
    assert t.hand(1) == S("W|Pk5", "B4|Pu1", "G4|Tl9")


def test_wd2_two_players() -> None:
    t = wd2_table(["W2|Or4", "G3|PkF"], players=2)
    t.do("P1 PLAY W2|Or4 color=G", "P0 ACCEPT")
    assert t.g.current == 1 and len(t.hand(0)) == 4


# ---------------------------------------------------------------------------- dark-side effects


def dark(p1: list[str], players: int = 4, **kw: Any) -> Table:
    hands = [P0, p1, P2, P3][:players]
    kw.setdefault("discard", ["B6|PuR", "R3|Pk7"])
    kw.setdefault("draw", DRAW)
    return flip(hands, side=1, **kw)


@pytest.mark.parametrize(("players", "victim", "after"), [(4, 2, 3), (2, 0, 1)])
def test_draw_five(players: int, victim: int, after: int) -> None:
    t = dark(["Y3|PkD5", "B2|Or8"], players=players)
    t.do("P1 PLAY Y3|PkD5")
    before = {0: P0, 2: P2}[victim]
    assert t.hand(victim) == S(*before, *DRAW[:5])
    assert t.g.current == after
    assert t.g.current_color == Color.Pk


@pytest.mark.parametrize("players", [2, 3, 4])
def test_skip_everyone_gives_another_turn(players: int) -> None:
    t = dark(["R6|PkSE", "B2|Or8", "R5|Pk2"], players=players)
    t.do("P1 PLAY R6|PkSE")
    assert t.g.current == 1 and t.g.state == Phase.AWAIT_TURN
    t.do("P1 PLAY R5|Pk2")  # normal turn rules (D42)
    assert t.g.current == (2 % players)


@pytest.mark.parametrize(("players", "after"), [(4, 0), (2, 1)])
def test_dark_reverse(players: int, after: int) -> None:
    t = dark(["G8|PkR", "B2|Or8"], players=players)
    t.do("P1 PLAY G8|PkR")
    assert t.g.direction == -1 and t.g.current == after


WDC_DRAW = ["B1|PuSE", "Y1|DW", "G6|WDC", "B7|Or3", "G9|PkR", "B2|Pk6", "R7|Pu5"]


def wdc_table(p1: list[str], **kw: Any) -> Table:
    kw.setdefault("draw", WDC_DRAW)
    return dark(p1, **kw)


def test_wdc_accept_draws_until_colour_wilds_do_not_count() -> None:  # §3.9, D15
    t = wdc_table(["R3|WDC", "Y9|Tl5"])
    t.do("P1 PLAY R3|WDC color=Or")
    assert t.g.state == Phase.AWAIT_CHALLENGE and t.g.current_color == Color.Or
    t.do("P2 ACCEPT")
    assert t.hand(2) == S(*P2, "B1|PuSE", "Y1|DW", "G6|WDC", "B7|Or3")
    assert t.draw == ["G9|PkR", "B2|Pk6", "R7|Pu5"]
    assert t.g.current == 3 and t.g.current_color == Color.Or


def test_wdc_failed_challenge_until_colour_plus_two() -> None:
    t = wdc_table(["R3|WDC", "Y9|Tl5", "RS|DW"])  # active faces: Tl5 and a wild, no Pk
    t.do("P1 PLAY R3|WDC color=Or", "P2 CHALLENGE")
    assert t.hand(2) == S(*P2, "B1|PuSE", "Y1|DW", "G6|WDC", "B7|Or3", "G9|PkR", "B2|Pk6")
    assert t.g.current == 3


def test_wdc_successful_challenge_offender_draws_until_colour() -> None:
    t = wdc_table(["R3|WDC", "R5|Pk2"])  # holds a pink face: illegal
    t.do("P1 PLAY R3|WDC color=Or", "P2 CHALLENGE")
    assert t.hand(1) == S("R5|Pk2", "B1|PuSE", "Y1|DW", "G6|WDC", "B7|Or3")
    assert t.hand(2) == S(*P2)
    assert t.g.current == 2 and t.g.current_color == Color.Or


def test_wdc_exhaustion_stops_and_victim_still_loses_turn() -> None:  # D14
    t = wdc_table(["R3|WDC", "Y9|Tl5"], draw=["B1|PuSE", "Y1|DW"], discard=["R3|Pk7"])
    t.do("P1 PLAY R3|WDC color=Or", "P2 ACCEPT")
    assert t.hand(2) == S(*P2, "B1|PuSE", "Y1|DW", "R3|Pk7")  # reshuffled the old top too
    assert t.draw == [] and t.discard == ["R3|WDC"]
    assert t.g.current == 3 and t.g.state == Phase.AWAIT_TURN


def test_wdc_reshuffles_during_the_loop() -> None:
    t = wdc_table(
        ["R3|WDC", "Y9|Tl5"], draw=["B1|PuSE"], discard=["Y8|Or2", "Y7|Pu6", "G2|TlD5", "R3|Pk7"]
    )
    t.do("P1 PLAY R3|WDC color=Or", "P2 ACCEPT")
    got = [c for c in t.g.hand(2)][len(P2) :]
    assert str(got[0]) == "B1|PuSE"
    assert str(got[-1]) == "Y8|Or2"  # the loop stops at the first orange face
    assert all(str(c) != "Y8|Or2" for c in got[:-1])
    assert t.discard == ["R3|WDC"]
    assert Counter(str(c) for c in got[1:]) + Counter(t.draw) == Counter(
        ["Y8|Or2", "Y7|Pu6", "G2|TlD5", "R3|Pk7"]
    )


@pytest.mark.parametrize(("cap", "accept_count", "challenge_count"), [(2, 2, 4), (5, 4, 6)])
def test_wdc_draw_color_cap(cap: int, accept_count: int, challenge_count: int) -> None:
    t = wdc_table(["R3|WDC", "Y9|Tl5"], options={"flipDrawColorCap": cap})
    t.do("P1 PLAY R3|WDC color=Or", "P2 ACCEPT")
    assert t.hand(2) == S(*P2, *WDC_DRAW[:accept_count])
    t = wdc_table(["R3|WDC", "Y9|Tl5"], options={"flipDrawColorCap": cap})
    t.do("P1 PLAY R3|WDC color=Or", "P2 CHALLENGE")
    assert t.hand(2) == S(*P2, *WDC_DRAW[:challenge_count])


def test_wdc_is_never_stacked() -> None:
    t = wdc_table(["R3|WDC", "Y9|Tl5"], options={"stacking": "escalate"})
    t.do("P1 PLAY R3|WDC color=Or")
    assert t.g.state == Phase.AWAIT_CHALLENGE
    t.do("P2 ACCEPT")
    assert len(t.hand(2)) == 6


def test_wdc_no_bluff() -> None:
    t = wdc_table(["R3|WDC", "R5|Pk2"], options={"noBluff": True})
    t.reject("P1 PLAY R3|WDC color=Or", match="noBluff")
    t = wdc_table(["R3|WDC", "Y9|Tl5"], options={"noBluff": True})
    t.do("P1 PLAY R3|WDC color=Or")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 3
    assert t.hand(2) == S(*P2, *WDC_DRAW[:4])


def test_wdc_needs_colour_even_as_last_card_and_victim_draws() -> None:  # D19
    t = wdc_table(["R3|WDC"])
    t.reject("P1 PLAY R3|WDC")
    t.do("P1 PLAY R3|WDC color=Or")
    assert t.g.state == Phase.ROUND_OVER
    assert t.hand(2) == S(*P2, *WDC_DRAW[:4])
    # scored on the dark side: P0 Tl1 Pu9 = 10; P2 Pu4 Pu8 PuSE DW WDC Or3 = 4+8+30+40+60+3;
    # P3 Tl4 Tl8 = 12
    assert t.g.round_points == 10 + 145 + 12


# ---------------------------------------------------------------------------- §3.5 flip mechanics


def flip_table(p1: list[str], discard: list[str], **kw: Any) -> Table:
    kw.setdefault("draw", ["Y2|Tl8", "B3|Tl2", "G4|Tl9"])
    return flip([P0, p1, P2, P3], discard=discard, **kw)


def test_flip_reverses_discard_and_draw_piles() -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], ["G7|Or6", "B5|Pk9", "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8")
    assert t.g.side == 1
    assert t.discard == ["RF|Pk8", "R3|Pk7", "B5|Pk9", "G7|Or6"]
    assert t.top_face == "Or6" and t.g.current_color == Color.Or
    assert t.draw == ["G4|Tl9", "B3|Tl2", "Y2|Tl8"]
    assert t.hand(1) == ["B2|Or8"] and t.hand(0) == S(*P0)
    assert t.g.current == 2 and t.g.state == Phase.AWAIT_TURN
    t.reject("P2 PLAY Y9|Pu4")  # Pu4 on Or6: no
    t.do("P2 DRAW")
    assert "G4|Tl9" in t.hand(2)  # the new top of the draw pile (was its bottom)


def test_flip_without_draw_pile_reversal_option() -> None:
    t = flip_table(
        ["RF|Pk8", "B2|Or8"], ["G7|Or6", "R3|Pk7"], options={"flipReverseDrawPile": False}
    )
    t.do("P1 PLAY RF|Pk8")
    assert t.draw == ["Y2|Tl8", "B3|Tl2", "G4|Tl9"]
    assert t.discard == ["RF|Pk8", "R3|Pk7", "G7|Or6"]


def test_flip_of_single_card_pile_with_empty_draw_pile() -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], ["R3|Pk7"], draw=[])
    t.do("P1 PLAY RF|Pk8")
    assert t.discard == ["RF|Pk8", "R3|Pk7"] and t.draw == []
    assert t.top_face == "Pk7" and t.g.current_color == Color.Pk and t.g.current == 2


def test_two_successive_flips_bring_the_first_flip_back() -> None:
    t = flip(
        [P0, ["RF|Pk8", "B2|Or8"], ["G3|PkF", "Y9|Pu4"], P3],
        discard=["R3|Pk7"],
        draw=["Y2|Tl8", "B3|Tl2"],
    )
    t.do("P1 PLAY RF|Pk8")
    assert t.top_face == "Pk7" and t.g.side == 1
    t.do("P2 PLAY G3|PkF")  # pink Flip on pink
    assert t.g.side == 0
    assert t.discard == ["G3|PkF", "R3|Pk7", "RF|Pk8"]
    assert t.top_face == "RF" and t.g.current_color == Color.R
    assert t.draw == ["Y2|Tl8", "B3|Tl2"]  # reversed twice
    assert t.g.current == 3


def test_flip_card_on_dark_side_returns_to_light() -> None:
    t = dark(["Y4|PuF", "B2|Or8"], discard=["G5|Tl4", "B6|PuR"], draw=["Y2|Tl8", "B3|Tl2"])
    t.do("P1 PLAY Y4|PuF")
    assert t.g.side == 0
    assert t.discard == ["Y4|PuF", "B6|PuR", "G5|Tl4"]
    assert t.top_face == "G5" and t.g.current_color == Color.G
    assert t.draw == ["B3|Tl2", "Y2|Tl8"]
    assert t.g.current == 2


@pytest.mark.parametrize(
    "bottom",
    ["Y3|PkD5", "R6|PkSE", "G1|OrF", "R2|OrR"],
)
def test_exposed_action_face_has_no_effect(bottom: str) -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], [bottom, "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8")
    assert t.g.side == 1  # an exposed Flip face does not flip again
    assert t.discard[-1] == bottom
    assert t.g.direction == 1 and t.g.current == 2
    assert t.hand(2) == S(*P2) and t.draw == ["G4|Tl9", "B3|Tl2", "Y2|Tl8"]
    assert t.g.state == Phase.AWAIT_TURN


@pytest.mark.parametrize("bottom", ["RS|DW", "R3|WDC"])
def test_exposed_wild_face_flip_player_chooses(bottom: str) -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], [bottom, "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8")
    assert t.g.state == Phase.AWAIT_COLOR and t.g.current == 1
    assert t.hand(2) == S(*P2)  # an exposed WDC makes nobody draw
    t.reject("P2 COLOR Tl")
    t.reject("P1 COLOR R")
    t.reject("P1 PLAY B2|Or8")
    t.reject("P2 PLAY Y9|Pu4")
    t.do("P1 COLOR Tl")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 2
    assert t.g.current_color == Color.Tl


def test_exposed_wild_face_next_player_chooses_option() -> None:
    t = flip_table(
        ["RF|Pk8", "B2|Or8"], ["RS|DW", "R3|Pk7"], options={"flipExposedWildChooser": "next_player"}
    )
    t.do("P1 PLAY RF|Pk8")
    assert t.g.state == Phase.AWAIT_COLOR and t.g.current == 2
    t.reject("P1 COLOR Tl")
    t.do("P2 COLOR Pu")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 2
    t.do("P2 PLAY Y9|Pu4")
    assert t.g.current == 3


def test_flip_color_given_in_advance() -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], ["RS|DW", "R3|Pk7"])
    t.reject("P1 PLAY RF|Pk8 flipcolor=R")  # must be a colour of the other side
    t.do("P1 PLAY RF|Pk8 flipcolor=Pu")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 2
    assert t.g.current_color == Color.Pu


def test_flip_color_ignored_when_exposed_face_is_coloured() -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], ["G7|Or6", "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8 flipcolor=Pu")
    assert t.g.current_color == Color.Or


def test_flip_color_only_on_flip_cards() -> None:
    t = flip_table(["R5|Pk2", "B2|Or8"], ["G7|Or6", "R3|Pk7"])
    t.reject("P1 PLAY R5|Pk2 flipcolor=Pu")


def test_flip_two_players_passes_turn() -> None:
    t = flip([P0, ["RF|Pk8", "B2|Or8"]], discard=["G7|Or6", "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8")
    assert t.g.current == 0


def test_flip_keeps_direction() -> None:
    t = flip_table(["RF|Pk8", "B2|Or8"], ["G7|Or6", "R3|Pk7"], direction=-1)
    t.do("P1 PLAY RF|Pk8")
    assert t.g.direction == -1 and t.g.current == 0


def test_catch_window_survives_colour_choice_after_flip() -> None:
    t = flip_table(["RF|Pk8", "R1|Pk3"], ["RS|DW", "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8")
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P1 COLOR Tl")  # CHOOSE_COLOR does not close the window (D6)
    assert t.g.uno_state(1) == UnoState.VULNERABLE
    t.do("P3 CATCH P1")
    assert t.hand(1) == S("R1|Pk3", "G4|Tl9", "B3|Tl2")
    assert t.g.current == 2


def test_catch_during_await_color() -> None:
    t = flip_table(["RF|Pk8", "R1|Pk3"], ["RS|DW", "R3|Pk7"])
    t.do("P1 PLAY RF|Pk8", "P0 CATCH P1")
    assert len(t.hand(1)) == 3 and t.g.state == Phase.AWAIT_COLOR


# ---------------------------------------------------------------------------- reshuffle


def test_reshuffle_on_dark_side_keeps_top_and_colour() -> None:
    t = dark(["Y9|Tl5", "B2|Pk6"], discard=["B5|Pk9", "G7|Or6", "RS|DW"], color="Tl", draw=[])
    t.do("P1 DRAW")
    assert t.discard == ["RS|DW"] and t.g.current_color == Color.Tl and t.g.side == 1
    got = [c for c in t.hand(1) if c not in ("Y9|Tl5", "B2|Pk6")]
    assert Counter(got + t.draw) == Counter(["B5|Pk9", "G7|Or6"])


def test_drawn_card_arrives_with_current_side_active() -> None:
    t = dark(["Y9|Tl5", "B2|Pk6"], discard=["R3|Pk7"], draw=["R7|Pu5"])
    t.do("P1 DRAW")
    assert str(t.g.hand(1)[-1].face(t.g.side)) == "Pu5"
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 2  # Pu5 on Pk7: unplayable


# ---------------------------------------------------------------------------- §3.7 first card


def first(card: str, players: int = 4, dealer: int = 0, **kw: Any) -> Table:
    hands = [P0, ["B4|TlD5", "B8|TlR"], P2, P3, ["Y7|Pu6", "G7|Tl2"]][:players]
    kw.setdefault("draw", [card, "B9|Or5", "G1|Or5", "Y8|Or2"])
    t = flip(hands, dealer=dealer, **kw)
    t.g.start()
    t.g.check_invariants(t.initial)
    return t


@pytest.mark.parametrize("card", ["R5|Pk2", "R6|PkSE", "Y3|PkD5", "R9|TlR"])
def test_first_card_number_dark_face_ignored(card: str) -> None:
    t = first(card)
    assert t.discard == [card] and t.g.side == 0
    assert t.g.current == 1 and t.g.direction == 1
    assert len(t.hand(1)) == 2


def test_first_card_draw_one() -> None:
    t = first("RD1|Pk3")
    assert t.hand(1) == S("B4|TlD5", "B8|TlR", "B9|Or5")
    assert t.g.current == 2


def test_first_card_skip() -> None:
    t = first("RS|OrD5")
    assert t.g.current == 2 and len(t.hand(1)) == 2


def test_first_card_reverse() -> None:
    t = first("RR|Pu3", dealer=2)
    assert t.g.direction == -1 and t.g.current == 2


def test_first_card_wild_choose() -> None:
    t = first("W|Pk5")
    assert t.g.state == Phase.AWAIT_COLOR and t.g.current == 1
    t.reject("P1 COLOR Pk")
    t.do("P1 COLOR Y")
    assert t.g.current == 1 and t.g.current_color == Color.Y and t.g.state == Phase.AWAIT_TURN


def test_first_card_wild_redraw_option() -> None:
    t = first("W|Pk5", draw=["W|Pk5", "W|Tl3", "R5|Pk2"], options={"flipFirstCardWild": "redraw"})
    assert t.discard == ["R5|Pk2"]
    assert Counter(t.draw) == Counter(["W|Pk5", "W|Tl3"])
    assert t.g.current == 1


def test_first_card_wild_draw_two_is_returned() -> None:
    t = first("W2|Or4", draw=["W2|Or4", "W2|Or7", "R5|Pk2"])
    assert t.discard == ["R5|Pk2"]
    assert Counter(t.draw) == Counter(["W2|Or4", "W2|Or7"])
    assert all(len(t.hand(s)) == 2 for s in range(4))


def test_first_card_flip_flips_everything() -> None:
    t = first("RF|Pk8")
    assert t.g.side == 1
    assert t.discard == ["RF|Pk8"] and t.top_face == "Pk8"
    assert t.g.current_color == Color.Pk
    assert t.draw == ["Y8|Or2", "G1|Or5", "B9|Or5"]  # reversed
    assert t.g.current == 1 and t.g.state == Phase.AWAIT_TURN
    assert all(len(t.hand(s)) == 2 for s in range(4))
    t.reject("P1 PLAY B8|TlR")  # must match the dark face Pk8
    t.do("P1 DRAW")
    assert "Y8|Or2" in t.hand(1)


def test_first_card_flip_exposing_wild_draw_color() -> None:
    t = first("GF|WDC")
    assert t.g.side == 1 and t.top_face == "WDC"
    assert t.g.state == Phase.AWAIT_COLOR and t.g.current == 1
    assert len(t.hand(1)) == 2  # no draw
    t.reject("P1 COLOR G")
    t.do("P1 COLOR Tl")
    assert t.g.current == 1 and t.g.current_color == Color.Tl
    t.do("P1 PLAY B8|TlR")


def test_first_card_flip_redraw_option() -> None:
    t = first("RF|Pk8", draw=["RF|Pk8", "R5|Pk2"], options={"flipFirstCardFlip": "redraw"})
    assert t.g.side == 0 and t.discard == ["R5|Pk2"] and t.draw == ["RF|Pk8"]


# ---------------------------------------------------------------------------- scoring by side

LIGHT_HANDS = [["RD1|Pk3", "W|Pk5"], ["R5|Pk2"], ["W2|Or4", "Y7|Or2"], ["RF|Pk8", "YS|Or3"]]
# light values: 10+40, 50+7, 20+20 = 147; dark values: 3+5, 4+2, 8+3 = 25


def test_scoring_on_light_side() -> None:
    t = flip([h[:] for h in LIGHT_HANDS], discard=["R3|Pk7"])
    t.do("P1 PLAY R5|Pk2")
    assert t.g.state == Phase.ROUND_OVER and t.g.winner == 1 and t.g.round_points == 147


def test_scoring_on_dark_side() -> None:
    t = flip([h[:] for h in LIGHT_HANDS], discard=["B6|PuR", "R3|Pk7"], side=1)
    t.do("P1 PLAY R5|Pk2")
    assert t.g.round_points == 25


def test_scoring_dark_action_values() -> None:
    hands = [["Y3|PkD5", "Y6|OrSE"], ["R5|Pk2"], ["G8|PkR", "G1|OrF"], ["RS|DW", "R3|WDC"]]
    t = flip(hands, discard=["B6|PuR", "R3|Pk7"], side=1)
    t.do("P1 PLAY R5|Pk2")
    assert t.g.round_points == 20 + 30 + 20 + 20 + 40 + 60
    hands = [["Y3|PkD5", "Y6|OrSE"], ["R5|Pk2"], ["G8|PkR", "G1|OrF"], ["RS|DW", "R3|WDC"]]
    t = flip(hands, discard=["R3|Pk7"])
    t.do("P1 PLAY R5|Pk2")
    assert t.g.round_points == 3 + 6 + 8 + 1 + 20 + 3


def test_final_flip_scores_on_new_side() -> None:  # D20
    hands = [h[:] for h in LIGHT_HANDS]
    hands[1] = ["RF|Pk8"]
    hands[3] = ["RF|Pu3", "YS|Or3"]  # light 40, dark 3+3
    t = flip(hands, discard=["R3|Pk7"], draw=["Y2|Tl8", "B3|Tl2"])
    t.do("P1 PLAY RF|Pk8")
    assert t.g.state == Phase.ROUND_OVER and t.g.side == 1
    assert t.g.round_points == 8 + 6 + 6
    assert t.draw == ["B3|Tl2", "Y2|Tl8"]


def test_final_flip_without_flip_option() -> None:
    hands = [h[:] for h in LIGHT_HANDS]
    hands[1] = ["RF|Pk8"]
    hands[3] = ["RF|Pu3", "YS|Or3"]
    t = flip(hands, discard=["R3|Pk7"], options={"flipLastCardFlips": False})
    t.do("P1 PLAY RF|Pk8")
    assert t.g.state == Phase.ROUND_OVER and t.g.side == 0
    assert t.g.round_points == 50 + 57 + 40


def test_final_dark_flip_scores_on_light() -> None:
    hands = [h[:] for h in LIGHT_HANDS]
    hands[1] = ["Y4|PuF"]
    t = flip(hands, discard=["B6|PuR"], side=1)
    t.do("P1 PLAY Y4|PuF")
    assert t.g.side == 0 and t.g.round_points == 50 + 57 + 40


def test_final_draw_one_and_draw_five_count() -> None:
    hands = [h[:] for h in LIGHT_HANDS]
    hands[1] = ["RD1|Pk4"]
    t = flip(hands, discard=["R3|Pk7"], draw=["B9|Or5", "G1|Or5"])
    t.do("P1 PLAY RD1|Pk4")
    assert t.hand(2) == S("W2|Or4", "Y7|Or2", "B9|Or5")
    assert t.g.round_points == 147 + 9
    hands = [h[:] for h in LIGHT_HANDS]
    hands[1] = ["Y4|PkD5"]
    t = flip(hands, discard=["R3|Pk7"], side=1, draw=DRAW)
    t.do("P1 PLAY Y4|PkD5")
    assert t.hand(2) == S("W2|Or4", "Y7|Or2", *DRAW[:5])
    assert t.g.round_points == 25 + (1 + 9 + 8 + 2 + 2)


def test_final_wild_draw_two_draws_two() -> None:
    hands = [h[:] for h in LIGHT_HANDS]
    hands[1] = ["W2|Pk2"]
    t = flip(hands, discard=["R3|Pk7"], draw=["B9|Or5", "G1|Or5", "Y8|Or2"])
    t.do("P1 PLAY W2|Pk2")
    assert t.g.state == Phase.ROUND_OVER
    assert t.hand(2) == S("W2|Or4", "Y7|Or2", "B9|Or5", "G1|Or5")
    assert t.g.round_points == 147 + 10


# ---------------------------------------------------------------------------- house rules on Flip


# P3 without B8|Tl4, which the jump-in tests put on the discard pile
P3_JUMP = ["B3|Tl2", "Y5|Tl8"]


def test_jump_in_identical_dark_face() -> None:
    # B8|Tl4 and G5|Tl4 show the same dark face: identical on the dark side (§6.2)
    t = flip(
        [P0, ["Y9|Tl5", "B2|Pk6"], ["G5|Tl4", "Y9|Pu4"], P3_JUMP],
        discard=["R3|Pk7", "B8|Tl4"],
        side=1,
        options={"jumpIn": True},
    )
    t.do("P2 PLAY G5|Tl4")
    assert t.g.current == 3 and t.discard[-1] == "G5|Tl4"


def test_jump_in_light_face_must_be_identical() -> None:
    t = flip(
        [P0, ["Y9|Tl5", "B2|Pk6"], ["B8|TlR", "Y9|Pu4"], P3_JUMP],
        discard=["R3|Pk7", "B8|Tl4"],
        options={"jumpIn": True},
    )
    t.do("P2 PLAY B8|TlR")  # light B8 = light B8
    assert t.g.current == 3
    t = flip(
        [P0, ["Y9|Tl5", "B2|Pk6"], ["G5|Tl4", "Y9|Pu4"], P3_JUMP],
        discard=["R3|Pk7", "B8|Tl4"],
        options={"jumpIn": True},
    )
    t.reject("P2 PLAY G5|Tl4")  # same dark face, different light face


def test_stacking_draw_one_same_symbol_and_escalate() -> None:
    t = flip(
        [P0, ["RD1|Pk3", "B2|Pk6"], ["GD1|Or6", "W2|Or4"], P3],
        discard=["R3|Pk7"],
        draw=DRAW,
        options={"stacking": "same_symbol"},
    )
    t.do("P1 PLAY RD1|Pk3")
    t.reject("P2 PLAY W2|Or4 color=G")
    t.do("P2 PLAY GD1|Or6", "P3 DRAW")
    assert t.hand(3) == S(*P3, *DRAW[:2]) and t.g.current == 0
    t = flip(
        [P0, ["RD1|Pk3", "B2|Pk6"], ["GD1|Or6", "W2|Or4"], P3],
        discard=["R3|Pk7"],
        draw=DRAW,
        options={"stacking": "escalate"},
    )
    t.do("P1 PLAY RD1|Pk3", "P2 PLAY W2|Or4 color=G", "P3 DRAW")
    assert t.hand(3) == S(*P3, *DRAW[:3])


def test_seven_zero_on_flip_has_sevens_only() -> None:
    t = flip([P0, ["R7|Or1", "B2|Pk6"], P2, P3], discard=["R3|Pk7"], options={"sevenZero": True})
    t.do("P1 PLAY R7|Or1 swap=P3")
    assert t.hand(1) == S(*P3) and t.hand(3) == ["B2|Pk6"]


# ---------------------------------------------------------------------------- deck (§3.1, §3.2)

APPENDIX_A = """
R1 Pk3 Pu2; R2 OrR PuD5; R3 Pk7 WDC; R4 OrF PuD5; R5 Pk2 Tl5; R6 Or9 PkSE; R7 Or1 Pu5;
R8 PuR Tl7; R9 Pu5 TlR; RD1 Pk3 Pk4; RS OrD5 DW; RR Pu3 Tl7; RF Pk8 Pu3;
Y1 PkSE DW; Y2 Tl1 Tl8; Y3 PkD5 Pu1; Y4 PkD5 PuF; Y5 Pu9 Tl8; Y6 OrSE WDC; Y7 Or2 Pu6;
Y8 Or2 Pk1; Y9 Pu4 Tl5; YD1 Pk1 Pu8; YS Or3 TlF; YR TlF DW; YF Or8 Pk4;
G1 Or5 OrF; G2 TlD5 TlSE; G3 PkF Pu2; G4 Pk8 Tl9; G5 Or7 Tl4; G6 Pk5 WDC; G7 Or6 Tl2;
G8 PkR Tl9; G9 OrD5 PkR; GD1 Or6 Tl6; GS Or9 Pu4; GR Or1 Pk7; GF Tl3 WDC;
B1 PuSE PuSE; B2 Or8 Pk6; B3 Pu8 Tl2; B4 Pu1 TlD5; B5 OrR Pk9; B6 PuR TlSE; B7 Or3 OrSE;
B8 Tl4 TlR; B9 Or5 PuF; BD1 Pk6 Tl6; BS Pk9 Tl1; BR Or4 DW; BF Pu6 Pu7;
W Pk5 PkF Pu7 Tl3; W2 Or4 Or7 Pk2 Pu9
"""


def _appendix_a() -> Counter[str]:
    pairs: Counter[str] = Counter()
    for entry in APPENDIX_A.replace("\n", " ").split(";"):
        light, *darks = entry.split()
        for d in darks:
            pairs[f"{light}|{d}"] += 1
    return pairs


def _deck(g: Game) -> Counter[str]:
    return Counter(str(g.cards[i]) for i in g.all_cards().elements())


def test_canonical_deck_is_appendix_a() -> None:
    g = Game.new("flip", 3, seed=2)
    deck = _deck(g)
    assert sum(deck.values()) == 112
    assert deck == _appendix_a()


def _faces(deck: Counter[str], i: int) -> Counter[str]:
    out: Counter[str] = Counter()
    for card, k in deck.items():
        out[card.split("|")[i]] += k
    return out


def test_random_seeded_pairing_keeps_composition_and_stays_fixed() -> None:
    canonical = _appendix_a()
    decks = []
    for seed in (1, 2):
        g = Game.new(
            "flip",
            3,
            {"flipPairing": "random_seeded", "matchMode": "points", "handSize": 1},
            seed=seed,
        )
        deck = _deck(g)
        assert _faces(deck, 0) == _faces(canonical, 0)
        assert _faces(deck, 1) == _faces(canonical, 1)
        assert deck != canonical
        # the pairing is fixed for the whole match: play round 1 out, deal round 2
        for _ in range(3000):
            if g.state in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                break
            acts = g.legal_actions(g.current)
            plays = [a for a in acts if type(a).__name__ == "Play"]
            g.apply((plays or acts)[0])
        if g.state == Phase.ROUND_OVER:
            g.apply("NEXT")
            assert _deck(g) == deck
        decks.append(deck)
        assert (
            _deck(Game.new("flip", 3, {"flipPairing": "random_seeded", "handSize": 1}, seed=seed))
            == deck
        )
    assert decks[0] != decks[1]


@pytest.mark.parametrize("players", [1, 11])
def test_flip_player_limits(players: int) -> None:
    with pytest.raises(UnoError):
        Game.new("flip", players)


def test_flip_ten_players() -> None:
    g = Game.new("flip", 10, seed=4)
    assert sum(len(h) for h in g.hands) >= 70 and g.side in (0, 1)


def test_first_card_flip_exposed_wild_first_player_declares_whatever_the_chooser_option() -> None:
    # D10: in this case the first player F always declares
    t = first("GF|WDC", options={"flipExposedWildChooser": "next_player"})
    assert t.g.state == Phase.AWAIT_COLOR and t.g.current == 1
    t.do("P1 COLOR Pu")
    assert t.g.current == 1 and t.g.state == Phase.AWAIT_TURN


# ---------------------------------------------------------------------------- positions (setup)


def test_setup_await_color_next_player_chooser_keeps_turn() -> None:
    # §3.5 step 7 with flipExposedWildChooser=next_player: the chooser next(i) then plays
    t = flip(
        [["Y1|DW", "Y2|Tl1"], ["Y6|OrSE"], ["B4|Pu1", "B8|Tl4"], ["B3|Pu8", "B6|PuR"]],
        discard=["RF|Pk8", "R3|Pk7", "RS|DW"],
        side=1,
        phase="AWAIT_COLOR",
        current=2,
        options={"flipExposedWildChooser": "next_player"},
    )
    t.do("P2 COLOR Pu")
    assert t.g.current == 2


def test_setup_await_color_equals_position_reached_by_play() -> None:
    hands = [["Y2|Tl1", "Y5|Pu9"], ["RF|Pk8", "B2|Or8"], ["Y9|Pu4", "B3|Pu8"], ["B8|Tl4", "Y5|Tl8"]]
    played = Game.setup("flip", 4, hands=hands, discard=["RS|DW", "R3|Pk7"], draw=["Y2|Tl8"])
    played.apply("P1 PLAY RF|Pk8")
    assert played.state == Phase.AWAIT_COLOR
    built = Game.setup(
        "flip",
        4,
        hands=[hands[0], ["B2|Or8"], *hands[2:]],
        discard=["RF|Pk8", "R3|Pk7", "RS|DW"],
        draw=["Y2|Tl8"],
        side=1,
        phase="AWAIT_COLOR",
        current=1,
        uno={1: "vulnerable"},
    )
    assert built == played
