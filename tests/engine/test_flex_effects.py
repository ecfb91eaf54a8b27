"""UNO Flex, checked card by card against docs/rules.md §1 and §4 (and the Flex options of
Appendix C), independently of the engine's code.

Positions are built with ``Game.setup`` (draw pile top first, discard bottom to
top, ``powers`` True = green). Every accepted command is followed by the §8
invariants with card conservation; every rejected command must leave the game
unchanged.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unokit import Color, Game, ParseError, Phase, UnoError
from unokit.engine.errors import InvalidPositionError

from .table import S
from .table import Table as _Table

# ---------------------------------------------------------------------------- helpers


class Table(_Table):
    def __init__(self, players: int, hands: list[list[str]], **kw: Any) -> None:
        super().__init__("flex", players, hands, **kw)


def flex(hands: list[list[str]], **kw: Any) -> Table:
    return Table(len(hands), hands, **kw)


P0 = ["Y1", "Y2"]
P2 = ["Y7", "B7"]
P3 = ["G7", "B6"]
# flex numbers, so that the tests' hands and discards may use any plain card
DRAW = ["B1~R", "B2~Y", "B3~G", "B4~R", "B5~Y", "G1~B", "G2~R", "G4~B", "G6~Y", "G8~R"]


def table(p1: list[str], players: int = 4, **kw: Any) -> Table:
    hands = [P0, p1, P2, P3][:players]
    kw.setdefault("discard", ["Y3", "R3"])
    kw.setdefault("draw", DRAW)
    return flex(hands, **kw)


# ---------------------------------------------------------------------------- matching (§1.5, D38)


@pytest.mark.parametrize(
    ("top", "color", "card", "legal"),
    [
        ("R3", "R", "R5", True),
        ("R3", "R", "G3", True),
        ("R3", "R", "G3~Y", True),  # regular side G3: number
        ("R3", "R", "R5~G", True),  # regular colour R
        ("R3", "R", "G5~R", False),  # its flex colour is not used on the regular side
        ("R3", "R", "G4*", False),
        ("R4*", "R", "G4*", True),
        ("R5~G", "R", "B5", True),  # the top counts by its regular side
        ("R5~G", "R", "G6", False),
        ("GS", "G", "RFS", True),  # Skip and Flex Skip share a class
        ("GFS", "G", "RS", True),
        ("BR", "B", "RFR", True),
        ("YFR", "Y", "RR", True),
        ("YD2", "Y", "RFD2", True),
        ("YFD2", "Y", "RD2", True),
        ("GFS", "G", "RFR", False),
        ("GFD2", "G", "R2", False),
        ("R3", "R", "WAF", True),
        ("R3", "R", "WAD", True),
        ("R3", "R", "WTD", True),
        ("R3", "R", "FW4", True),
        ("WAF", "B", "B1", True),
        ("WAF", "B", "R1", False),
    ],
)
def test_regular_side_matching(top: str, color: str, card: str, legal: bool) -> None:
    t = table([card, "Y6", "B4*"], discard=["Y8*", top], color=color)
    cmd = f"P1 PLAY {card}" + (" color=G" if card.startswith(("W", "F")) else "")
    if legal:
        t.do(cmd)
        assert t.discard[-1] == card
    else:
        msg = t.reject(cmd)
        assert card in msg


@pytest.mark.parametrize(
    ("top", "color", "card", "legal"),
    [
        ("G2", "G", "R5~G", True),  # flex colour = current colour
        ("Y5", "Y", "R5~G", True),  # same number
        ("B3", "B", "R5~G", False),
        ("R3", "R", "R5~G", False),  # regular would match, the flex side does not
        ("R5", "R", "R5~G", True),  # both sides match: a "wasted" flex is allowed
        ("G3", "G", "RFS", False),  # Flex actions are single-coloured (D32)
        ("R3", "R", "RFS", True),
        ("GS", "G", "RFS", True),
        ("B3", "B", "WAD", True),
    ],
)
def test_flex_side_legality(top: str, color: str, card: str, legal: bool) -> None:
    t = table([card, "Y6", "B4*"], discard=["Y8*", top], color=color)
    extra = " color=G" if card.startswith("W") else ""
    cmd = f"P1 PLAY {card} side=flex{extra}"
    if legal:
        t.do(cmd)
        assert t.powers == "GXGG"
    else:
        t.reject(cmd)


def test_flex_side_needs_green_power() -> None:
    t = table(["R5~G", "WAD", "Y6"], discard=["G2"], powers="GXGG")
    t.reject("P1 PLAY R5~G side=flex", match="Power")
    t.reject("P1 PLAY WAD side=flex color=G", match="Power")
    assert not any(getattr(a, "flex", False) for a in t.g.legal_actions(1))


@pytest.mark.parametrize("card", ["R5", "R4*", "RS", "RR", "RD2", "WAF"])
def test_cards_without_flex_side(card: str) -> None:
    t = table([card, "Y6"], discard=["R3"])
    t.reject(f"P1 PLAY {card} side=flex" + (" color=G" if card == "WAF" else ""))


def test_flex_number_continues_regular_colour() -> None:
    t = table(["R5~G", "Y6", "B4*"], discard=["G2"])
    t.do("P1 PLAY R5~G side=flex")
    assert t.g.current_color == Color.R  # §4.4: colour C continues
    assert t.powers == "GXGG" and t.g.current == 2
    t.reject("P2 PLAY B7")
    t.reject("P2 PLAY Y7")


# ---------------------------------------------------------------------------- Power Cards §4.3


def test_flip_icon_toggles_both_ways() -> None:
    t = table(["R4*", "R8*", "Y6"])
    t.do("P1 PLAY R4*")
    assert t.powers == "GXGG"
    t = table(["R4*", "R8*", "Y6"], powers="GXGG")
    t.do("P1 PLAY R4*")
    assert t.powers == "GGGG"


def test_wild_all_flip_toggles_everyone() -> None:
    t = table(["WAF", "Y6"], powers="GXGX")
    t.do("P1 PLAY WAF color=B")
    assert t.powers == "XGXG"
    assert t.g.current_color == Color.B and t.g.current == 2


def test_wild_all_flip_from_all_green_resets_immediately() -> None:  # D34
    t = table(["WAF", "Y6"])
    t.do("P1 PLAY WAF color=B")
    assert t.powers == "GGGG"


def test_wild_all_flip_skip_reset_option() -> None:
    t = table(
        ["WAF", "Y6"],
        options={"flexWildAllFlipResetCheck": "skip_after_wild_all_flip"},
        discard=["R3"],
    )
    t.do("P1 PLAY WAF color=B")
    assert t.powers == "XXXX"
    t.do("P2 PLAY B7")  # the next play applies the reset check again
    assert t.powers == "GGGG"


def test_all_red_reset_after_flex_play() -> None:
    t = table(["R5~G", "Y6"], discard=["G2"], powers="XGXX")
    t.do("P1 PLAY R5~G side=flex")
    assert t.powers == "GGGG"


def test_all_red_reset_after_flip_icon() -> None:
    t = table(["R4*", "Y6"], powers="XGXX")
    t.do("P1 PLAY R4*")
    assert t.powers == "GGGG"


def test_powers_unchanged_by_plain_plays() -> None:
    t = table(["R5", "Y6"], powers="XGXG")
    t.do("P1 PLAY R5")
    assert t.powers == "XGXG"


def test_powers_green_at_round_start() -> None:
    t = table(["R5"], powers="XGXG")
    t.do("P1 PLAY R5")
    assert t.g.state == Phase.ROUND_OVER
    t.g.apply("NEXT")
    assert t.powers == "GGGG"
    assert t.g.powers == [True] * 4


# ---------------------------------------------------------------------------- effects §4.5


@pytest.mark.parametrize(("players", "after"), [(4, 3), (2, 1)])
def test_flex_skip_regular_is_skip(players: int, after: int) -> None:
    t = table(["RFS", "Y6"], players=players)
    t.do("P1 PLAY RFS")
    assert t.g.current == after and t.powers == "G" * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_flex_skip_flex_side_skips_all(players: int) -> None:
    t = table(["RFS", "Y6", "R6"], players=players)
    t.do("P1 PLAY RFS side=flex")
    assert t.g.current == 1 and t.g.state == Phase.AWAIT_TURN
    t.do("P1 PLAY R6")
    assert t.g.current == 2 % players


@pytest.mark.parametrize(("players", "after"), [(4, 0), (3, 0), (2, 1)])
def test_flex_reverse_regular(players: int, after: int) -> None:
    t = table(["RFR", "Y6"], players=players)
    t.do("P1 PLAY RFR")
    assert t.g.direction == -1 and t.g.current == after


@pytest.mark.parametrize(("players", "after"), [(4, 3), (3, 2), (5, 4), (2, 1)])
def test_flex_reverse_flex_side_reverses_then_skips(players: int, after: int) -> None:
    hands = [P0, ["RFR", "Y6"], P2, P3, ["Y3", "G5"]][:players]
    t = flex(hands, discard=["R3"])
    t.do("P1 PLAY RFR side=flex")
    assert t.g.direction == -1 and t.g.current == after


@pytest.mark.parametrize(("players", "victim", "after"), [(4, 2, 3), (2, 0, 1)])
def test_flex_draw_two_regular_side_is_a_draw_two(players: int, victim: int, after: int) -> None:
    # §4.5 regular side "as Draw Two" (was a bug: it acted as the flex side)
    t = table(["RFD2", "Y6"], players=players)
    t.do("P1 PLAY RFD2")
    assert t.hand(victim) == S(*{0: P0, 2: P2}[victim], "B1~R", "B2~Y")
    assert t.g.current == after


def test_flex_draw_two_flex_side_everyone_draws_one_in_turn_order() -> None:
    t = table(["RFD2", "Y6"])
    t.do("P1 PLAY RFD2 side=flex")
    assert t.hand(2) == S(*P2, "B1~R")
    assert t.hand(3) == S(*P3, "B2~Y")
    assert t.hand(0) == S(*P0, "B3~G")
    assert t.hand(1) == ["Y6"]
    assert t.g.current == 2  # nobody loses a turn


def test_flex_draw_two_flex_side_counterclockwise() -> None:
    t = table(["RFD2", "Y6"], direction=-1)
    t.do("P1 PLAY RFD2 side=flex")
    assert t.hand(0) == S(*P0, "B1~R")
    assert t.hand(3) == S(*P3, "B2~Y")
    assert t.hand(2) == S(*P2, "B3~G")
    assert t.g.current == 0


def test_flex_draw_two_flex_side_two_players() -> None:  # §4.9
    t = table(["RFD2", "Y6"], players=2)
    t.do("P1 PLAY RFD2 side=flex")
    assert t.hand(0) == S(*P0, "B1~R") and t.g.current == 0


def test_wild_all_draw_regular_is_plain_wild() -> None:
    t = table(["WAD", "Y6"])
    t.do("P1 PLAY WAD color=Y")
    assert t.g.current_color == Color.Y and t.g.current == 2
    assert t.draw == DRAW and t.powers == "GGGG"


def test_wild_all_draw_flex_side() -> None:
    t = table(["WAD", "Y6"])
    t.reject("P1 PLAY WAD side=flex")  # colour needed
    t.do("P1 PLAY WAD side=flex color=Y")
    assert t.hand(2) == S(*P2, "B1~R", "B2~Y")
    assert t.hand(3) == S(*P3, "B3~G", "B4~R")
    assert t.hand(0) == S(*P0, "B5~Y", "G1~B")
    assert t.g.current == 2 and t.g.current_color == Color.Y
    assert t.powers == "GXGG"


def test_wild_target_draw_regular_is_plain_wild() -> None:
    t = table(["WTD", "Y6"])
    t.reject("P1 PLAY WTD color=Y target=P3")  # no target on the regular side
    t.do("P1 PLAY WTD color=Y")
    assert t.draw == DRAW and t.g.current == 2


@pytest.mark.parametrize("target", [3, 2, 0])
def test_wild_target_draw_flex_side(target: int) -> None:
    t = table(["WTD", "Y6"])
    t.do(f"P1 PLAY WTD side=flex color=Y target=P{target}")
    before = {0: P0, 2: P2, 3: P3}[target]
    assert t.hand(target) == S(*before, "B1~R", "B2~Y")
    assert t.g.current == 2  # even when the target is the next player (D36)
    assert t.g.state == Phase.AWAIT_TURN


def test_wild_target_draw_bad_targets() -> None:
    t = table(["WTD", "Y6"])
    t.reject("P1 PLAY WTD side=flex color=Y", match="target")
    t.reject("P1 PLAY WTD side=flex color=Y target=P1", match="themselves")
    t.reject("P1 PLAY WTD side=flex color=Y target=P4")
    t.reject("P1 PLAY WTD side=flex color=Y target=P9")


# ---------------------------------------------------------------------------- Flex Wild Draw Four


def test_fw4_regular_accept() -> None:
    t = table(["FW4", "R6"])  # illegal; accept does not check
    t.do("P1 PLAY FW4 color=G")
    assert t.g.state == Phase.AWAIT_CHALLENGE and t.g.current == 2
    t.do("P2 ACCEPT")
    assert t.hand(2) == S(*P2, "B1~R", "B2~Y", "B3~G", "B4~R")
    assert t.g.current == 3 and t.g.current_color == Color.G


def test_fw4_regular_failed_challenge() -> None:
    # flex colours do not count (D39): R->G flex number G5~R ... its regular colour is G
    t = table(["FW4", "G5~R", "Y6"])
    t.do("P1 PLAY FW4 color=B", "P2 CHALLENGE")
    assert t.hand(2) == S(*P2, "B1~R", "B2~Y", "B3~G", "B4~R", "B5~Y", "G1~B")
    assert t.g.current == 3 and t.g.current_color == Color.B


def test_fw4_regular_successful_challenge() -> None:
    t = table(["FW4", "R6"])
    t.do("P1 PLAY FW4 color=B", "P2 CHALLENGE")
    assert t.hand(1) == S("R6", "B1~R", "B2~Y", "B3~G", "B4~R")
    assert t.hand(2) == S(*P2) and t.g.current == 2
    assert t.g.current_color == Color.B
    t.do("P2 PLAY B7")


@pytest.mark.parametrize("wild", ["WAF", "WAD", "WTD", "FW4"])
def test_fw4_held_wild_counts_as_match(wild: str) -> None:  # D16: Flex counts wilds
    t = table(["FW4", wild, "Y6"])
    t.do("P1 PLAY FW4 color=B", "P2 CHALLENGE")
    assert t.hand(1) == S(wild, "Y6", "B1~R", "B2~Y", "B3~G", "B4~R")


def test_fw4_wilds_count_option_off() -> None:
    t = table(["FW4", "WAF", "Y6"], options={"flexWildsCountAsMatch": False})
    t.do("P1 PLAY FW4 color=B", "P2 CHALLENGE")
    assert len(t.hand(2)) == 8 and t.hand(1) == S("WAF", "Y6")


def test_fw4_flex_colors_count_option() -> None:
    t = table(["FW4", "G5~R", "Y6"], options={"flexFlexColorsCountAsMatch": True})
    t.do("P1 PLAY FW4 color=B", "P2 CHALLENGE")
    assert t.hand(1) == S("G5~R", "Y6", "B1~R", "B2~Y", "B3~G", "B4~R")


def test_fw4_two_players() -> None:
    t = table(["FW4", "Y6"], players=2)
    t.do("P1 PLAY FW4 color=G", "P0 ACCEPT")
    assert t.g.current == 1 and len(t.hand(0)) == 6


@pytest.mark.parametrize("target", [2, 3])
def test_fw4_flex_side_target_draws_four_no_challenge(target: int) -> None:
    t = table(["FW4", "R6"])  # holding red: no restriction on the flex side (D37)
    t.reject("P1 PLAY FW4 side=flex color=G")  # target required
    t.do(f"P1 PLAY FW4 side=flex color=G target=P{target}")
    assert t.g.state == Phase.AWAIT_TURN and t.g.current == 2
    assert t.hand(target) == S(*{2: P2, 3: P3}[target], "B1~R", "B2~Y", "B3~G", "B4~R")
    assert t.powers == "GXGG" and t.g.current_color == Color.G


def test_fw4_flex_side_restricted_option_makes_it_challengeable() -> None:
    t = table(["FW4", "R6"], options={"flexFlexSideWD4Restricted": True})
    t.do("P1 PLAY FW4 side=flex color=G target=P3")
    assert t.g.state == Phase.AWAIT_CHALLENGE


# ---------------------------------------------------------------------------- §4.8 first card


def first(draw: list[str], options: dict[str, Any] | None = None) -> Table:
    t = flex([P0, ["B4*", "B5"], P2, P3], draw=draw, options=options)
    t.g.start()
    t.g.check_invariants(t.initial)
    return t


def test_first_card_action_and_wilds_are_ignored_and_stay() -> None:
    t = first(["RS", "WAF", "GFD2", "FW4", "R4*", "B1"])
    assert t.discard == ["RS", "WAF", "GFD2", "FW4", "R4*"]
    assert t.g.current == 1 and t.g.current_color == Color.R
    assert t.powers == "GGGG"  # the flip icon of a first card does nothing
    assert t.draw == ["B1"]
    assert all(len(t.hand(s)) == 2 for s in range(4))  # no draw effects either


def test_first_card_flex_number() -> None:
    t = first(["Y5~B", "B1"])
    assert t.discard == ["Y5~B"] and t.g.current_color == Color.Y


def test_first_card_ignored_return_to_deck() -> None:
    t = first(["RS", "WAF", "R5"], options={"flexFirstCardIgnored": "return_to_deck"})
    assert t.discard == ["R5"]
    assert Counter(t.draw) == Counter(["RS", "WAF"])
    assert t.g.current == 1


# ---------------------------------------------------------------------------- scoring, round end

SCORING = [["R4*", "R5~G"], ["R1"], ["RFS", "RFR", "YFD2", "RS"], ["WAF", "WAD", "WTD", "FW4"]]


def test_scoring_values() -> None:
    t = flex([h[:] for h in SCORING], discard=["R3"])
    t.do("P1 PLAY R1")
    assert t.g.state == Phase.ROUND_OVER and t.g.round_points == 9 + 80 + 200


def test_final_flex_draw_two_flex_side_draws_and_counts() -> None:
    hands = [h[:] for h in SCORING]
    hands[1] = ["RFD2"]
    t = flex(hands, discard=["R3"], draw=DRAW)
    t.do("P1 PLAY RFD2 side=flex")
    assert t.g.state == Phase.ROUND_OVER
    assert t.hand(2) == S(*SCORING[2], "B1~R")
    assert t.hand(3) == S(*SCORING[3], "B2~Y")
    assert t.hand(0) == S(*SCORING[0], "B3~G")
    assert t.g.round_points == 289 + 6


def test_final_wild_all_draw_flex_side() -> None:
    hands = [h[:] for h in SCORING]
    hands[1] = ["WAD"]
    t = flex(hands, discard=["R3"], draw=DRAW)
    t.do("P1 PLAY WAD side=flex color=G")
    assert t.g.round_points == 289 + 1 + 2 + 3 + 4 + 5 + 1


def test_final_targeted_draw_still_needs_target() -> None:
    hands = [h[:] for h in SCORING]
    hands[1] = ["WTD"]
    t = flex(hands, discard=["R3"], draw=DRAW)
    t.reject("P1 PLAY WTD side=flex color=G")
    t.do("P1 PLAY WTD side=flex color=G target=P0")
    assert t.hand(0) == S(*SCORING[0], "B1~R", "B2~Y")
    assert t.g.round_points == 289 + 3


def test_final_fw4_regular_draws_four_no_challenge() -> None:
    hands = [h[:] for h in SCORING]
    hands[1] = ["FW4"]
    t = flex(hands, discard=["R3"], draw=DRAW)
    t.do("P1 PLAY FW4 color=G")
    assert t.g.state == Phase.ROUND_OVER
    assert t.hand(2) == S(*SCORING[2], "B1~R", "B2~Y", "B3~G", "B4~R")
    assert t.g.round_points == 289 + 10


def test_final_fw4_flex_side_target_draws_four() -> None:
    hands = [h[:] for h in SCORING]
    hands[1] = ["FW4"]
    t = flex(hands, discard=["R3"], draw=DRAW)
    t.do("P1 PLAY FW4 side=flex color=G target=P3")
    assert t.hand(3) == S(*SCORING[3], "B1~R", "B2~Y", "B3~G", "B4~R")
    assert t.hand(2) == S(*SCORING[2])
    assert t.g.round_points == 289 + 10


def test_final_wild_regular_side_needs_no_colour() -> None:
    hands = [h[:] for h in SCORING]
    hands[1] = ["WTD"]
    t = flex(hands, discard=["R3"], draw=DRAW)
    t.do("P1 PLAY WTD")
    assert t.g.state == Phase.ROUND_OVER and t.g.round_points == 289
    assert t.draw == DRAW


def test_single_round_match_mode() -> None:
    t = flex([h[:] for h in SCORING], discard=["R3"], options={"matchMode": "single_round"})
    t.do("P1 PLAY R1")
    assert t.g.state == Phase.MATCH_OVER and tuple(t.g.match_winners) == (1,)


# ---------------------------------------------------------------------------- players, setup


@pytest.mark.parametrize("players", [1, 9, 10])
def test_flex_player_limits(players: int) -> None:
    with pytest.raises(InvalidPositionError):
        Game.new("flex", players)


@pytest.mark.parametrize("players", [2, 8])
def test_flex_player_limits_ok(players: int) -> None:
    g = Game.new("flex", players, seed=3)
    assert len(g.powers) == players and all(g.powers)
    total = sum(len(h) for h in g.hands) + g.draw_count + len(g.discard)
    assert total == 104


def test_power_cards_only_in_flex() -> None:
    with pytest.raises(InvalidPositionError):
        Game.setup("classic", 2, hands=[["R1"], ["R2"]], discard=["R3"], powers=[True, True])


def test_unknown_flex_deck_table() -> None:
    with pytest.raises(UnoError):
        Game.new("flex", 3, {"flexDeck": "no_such_table"})


# ---------------------------------------------------------------------------- house rules on Flex


def test_stacking_flex_side_draws_never_stack() -> None:
    t = flex(
        [P0, ["RD2", "Y6"], ["GFD2", "FW4", "B7"], P3],
        discard=["R3"],
        draw=DRAW,
        options={"stacking": "escalate"},
    )
    t.do("P1 PLAY RD2")
    t.reject("P2 PLAY GFD2 side=flex")  # flex-side draws are never stackable
    t.reject("P2 PLAY FW4 side=flex color=G target=P3")
    t.reject("P2 PLAY B7")
    t.do("P2 PLAY FW4 color=G")  # regular side: 2 -> 4
    assert t.g.current == 3
    t.do("P3 DRAW")
    assert t.hand(3) == S(*P3, "B1~R", "B2~Y", "B3~G", "B4~R", "B5~Y", "G1~B") and t.g.current == 0


def test_no_bluff_flex_side_fw4_is_unrestricted() -> None:
    t = table(["FW4", "R6"], options={"noBluff": True})
    t.reject("P1 PLAY FW4 color=G", match="noBluff")
    t.do("P1 PLAY FW4 side=flex color=G target=P3")
    assert len(t.hand(3)) == 6


def test_seven_zero_swaps_hands_not_powers() -> None:
    t = table(["R7", "Y6", "B4*"], powers="GXGX", options={"sevenZero": True})
    t.do("P1 PLAY R7 swap=P3")
    assert t.hand(1) == S(*P3) and t.hand(3) == S("Y6", "B4*")
    assert t.powers == "GXGX"


# ---------------------------------------------------------------------------- deck (§4.2, Appendix B)

APPENDIX_B_FLEX = {
    "R": "R1~Y R2~G R3~B R4~Y R5~G R6~B R7~Y R8~G",
    "Y": "Y1~G Y2~B Y3~R Y4~G Y5~B Y6~R Y7~G Y8~B",
    "G": "G1~B G2~R G3~Y G4~B G5~R G6~Y G7~B G8~R",
    "B": "B1~R B2~Y B3~G B4~R B5~Y B6~G B7~R B8~Y",
}


def test_default_deck_is_appendix_b() -> None:
    g = Game.new("flex", 3, seed=5)
    deck = Counter(str(g.cards[i]) for i in g.all_cards().elements())
    expected: Counter[str] = Counter()
    for c in "RYGB":
        expected.update([f"{c}1", f"{c}2", f"{c}3", f"{c}4*", f"{c}5", f"{c}6", f"{c}7", f"{c}8*"])
        expected.update(APPENDIX_B_FLEX[c].split())
        expected.update([f"{c}S", f"{c}R", f"{c}D2", f"{c}FS", f"{c}FR", f"{c}FD2"])
    expected.update({"WAF": 4, "WAD": 4, "WTD": 4, "FW4": 4})
    assert sum(expected.values()) == 104
    assert deck == expected


@pytest.mark.parametrize(
    "command",
    [
        "P1 PLAY R9",
        "P1 PLAY R0",
        "P1 PLAY R5~Q",
        "P1 PLAY R5~R",
        "P1 PLAY R5 side=sideways",
        "P1 PLAY WTD side=flex color=G target=X2",
        "P1 PLAY W color=G",
        "P1 PLAY W4 color=G",
    ],
)
def test_flex_parse_errors(command: str) -> None:
    t = table(["R5", "WTD"])
    msg = t.reject(command, exc=ParseError)
    assert len(msg) > 10


def test_flex_illegal_commands_name_the_problem() -> None:
    t = table(["R5~G", "WTD", "B4*"], discard=["B3"], powers="GXGG")
    assert "red" in t.reject("P1 PLAY R5~G side=flex").lower()
    msg = t.reject("P1 PLAY R5~G")
    assert "R5~G" in msg and "B3" in msg
    t = table(["R5~G", "WTD", "B4*"], discard=["B3"])
    assert "target" in t.reject("P1 PLAY WTD side=flex color=G")
    assert "flex side" in t.reject("P1 PLAY B4* side=flex")


def test_flex_draw_two_regular_side_stacks() -> None:  # §6.1
    t = flex(
        [P0, ["RD2", "Y6"], ["GFD2", "FW4", "B7"], P3],
        discard=["R3"],
        draw=DRAW,
        options={"stacking": "escalate"},
    )
    t.do("P1 PLAY RD2", "P2 PLAY GFD2")
    assert t.g.current == 3
    t.do("P3 DRAW")
    assert t.hand(3) == S(*P3, "B1~R", "B2~Y", "B3~G", "B4~R") and t.g.current == 0
    assert t.hand(0) == S(*P0) and t.hand(1) == ["Y6"]


def test_forced_play_allows_pass_with_illegal_drawn_restricted_card() -> None:
    # §6.5: a restricted card counts as playable for forcedPlay only if legal. Here the
    # drawn FW4 is illegal (R5~G's flex colour G counts under the option) and P1's red
    # Power Card leaves nothing else playable.
    t = flex(
        [P0, ["R5~G"], P2, P3],
        discard=["Y3", "WAF"],
        color="G",
        draw=["FW4", "B5"],
        powers="GXGG",
        options={"forcedPlay": True, "flexFlexColorsCountAsMatch": True},
    )
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    assert any(type(a).__name__ == "Pass" for a in t.g.legal_actions(1))
    t.do("P1 PASS")
    assert t.g.current == 2 and t.hand(1) == S("R5~G", "FW4")
