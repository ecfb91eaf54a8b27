"""Tests that the engine FAILS today, each one a suspected bug against RULES.md.

This file is deliberately not named ``test_*.py`` so that CI does not collect it
(CI must stay green). Run it by hand to see the failures::

    .venv/bin/pytest tests/engine/pending_engine_bugs.py

When the engine is fixed, move the test into the matching ``test_*_effects.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game, IllegalActionError, Phase, UnoError


class Table:
    def __init__(self, variant: str, players: int, hands: list[list[str]], **kw: Any) -> None:
        options = kw.pop("options", None)
        powers = kw.pop("powers", None)
        if isinstance(powers, str):
            powers = [p == "G" for p in powers]
        self.g = Game.setup(variant, players, options, hands=hands, powers=powers, **kw)
        self.initial = self.g.all_cards()

    def do(self, *commands: str) -> None:
        for cmd in commands:
            self.g.apply(cmd)
            self.g.check_invariants(self.initial)

    def reject(self, command: str, exc: type[UnoError] = IllegalActionError) -> None:
        before = self.g.copy()
        with pytest.raises(exc):
            self.g.apply(command)
        assert self.g == before

    def hand(self, seat: int) -> list[str]:
        return sorted(str(c) for c in self.g.hand(seat))


def S(*cards: str) -> list[str]:
    return sorted(cards)


P0, P2, P3 = ["Y1", "Y2"], ["Y7", "B8"], ["G7", "B6"]
DRAW = ["B1", "B2", "B3", "B4", "B5", "G1", "G2", "G3", "G4", "G5", "G6", "G8"]


# BUG 1 — RULES.md §4.5 (table, row "Flex Draw Two", column "regular side": "as Draw Two"),
# §1.7 (Draw k: victim next(i) draws k, turn -> next(v)).
# Position: Flex, 4 players, top R3 (colour R), P1 holds [RFD2, Y6], draw B1 B2 B3 B4 ...
# Command: "P1 PLAY RFD2" (regular side, the default).
# Spec: P2 draws B1 B2 and loses the turn; P3 plays next.
# Engine: applies the FLEX side instead — P2, P3 and P0 each draw one card and P2 plays
# next (game.py _do_play: the branch `kind == _FLEX_DRAW_TWO or kind == _WAD` does not test
# `flex`, so a regular-side Flex Draw Two never reaches the Draw Two branch).
@pytest.mark.parametrize(("players", "victim", "after"), [(4, 2, 3), (2, 0, 1)])
def test_flex_draw_two_regular_side_is_a_draw_two(players: int, victim: int, after: int) -> None:
    hands = [P0, ["RFD2", "Y6"], P2, P3][:players]
    t = Table("flex", players, hands, discard=["Y3", "R3"], draw=DRAW)
    t.do("P1 PLAY RFD2")
    assert t.hand(victim) == S(*{0: P0, 2: P2}[victim], "B1", "B2")
    assert t.g.current == after


# BUG 1, consequence for stacking — RULES.md §6.1: Flex Draw Two (regular side) is stackable.
# Position: Flex, stacking=escalate, P1 plays RD2 (pending 2), P2 holds GFD2.
# Command: "P2 PLAY GFD2" then "P3 DRAW".
# Spec: pending becomes 4; P3 draws B1 B2 B3 B4 and P0 plays next.
# Engine: GFD2 makes P3, P0, P1 draw one card each (flex-side effect) and P3 then draws
# only the pending 2.
def test_flex_draw_two_regular_side_stacks() -> None:
    t = Table("flex", 4, [P0, ["RD2", "Y6"], ["GFD2", "FW4", "B8"], P3], discard=["R3"],
              draw=DRAW, options={"stacking": "escalate"})
    t.do("P1 PLAY RD2", "P2 PLAY GFD2")
    assert t.g.current == 3
    t.do("P3 DRAW")
    assert t.hand(3) == S(*P3, "B1", "B2", "B3", "B4") and t.g.current == 0
    assert t.hand(0) == S(*P0) and t.hand(1) == ["Y6"]


# BUG 2 — RULES.md §6.5 forcedPlay: "A playable drawn card must be played (no PASS).
# Restricted wild-draw cards count as playable for this rule only if they are legal
# (otherwise the player would be forced to bluff)."
# Position: Flex, options forcedPlay=true, flexFlexColorsCountAsMatch=true; top WAF declared
# G; P1 holds only R5~G with a RED Power Card (so nothing is playable and DRAW is allowed);
# the draw pile's top is FW4.
# Commands: "P1 DRAW" (draws FW4, AWAIT_DRAWN), then "P1 PASS".
# Spec: the FW4 would be illegal (R5~G's flex colour G counts as a match under the option),
# so it does not count as playable for forcedPlay: PASS is allowed and P2 plays next.
# Engine: "P1 must play the drawn FW4 (forcedPlay)" — game.keep() refuses every PASS
# when forcedPlay is on, and turn_moves() offers no PASS, forcing a bluff.
# (Only reachable when a held card counts as a match without being playable; in the
# official decks that needs this Flex option and a red Power Card.)
def test_forced_play_allows_pass_with_illegal_drawn_restricted_card() -> None:
    t = Table("flex", 4, [P0, ["R5~G"], P2, P3], discard=["Y3", "WAF"], color="G",
              draw=["FW4", "B5"], powers="GXGG",
              options={"forcedPlay": True, "flexFlexColorsCountAsMatch": True})
    t.do("P1 DRAW")
    assert t.g.state == Phase.AWAIT_DRAWN
    assert any(type(a).__name__ == "Pass" for a in t.g.legal_actions(1))
    t.do("P1 PASS")
    assert t.g.current == 2 and t.hand(1) == S("R5~G", "FW4")


# BUG 3 — Game.setup cannot build the AWAIT_COLOR position of a Flip-exposed wild
# faithfully (RULES.md §3.5 step 5/7 and option flipExposedWildChooser; SCENARIO_FORMAT.md
# `state` AWAIT_COLOR, `current` = the chooser).
# (a) With flipExposedWildChooser=next_player the chooser is next(i) and, per §3.5 step 7,
#     the turn passes to next(i) — the chooser himself — after the colour choice.
#     Position: setup(flip, 4p, side=dark, discard [RF|Pk8, R3|Pk7, RS|DW] (top DW),
#     state AWAIT_COLOR, current=P2, option next_player). Command: "P2 COLOR Pu".
#     Spec: P2 plays next. Engine: P3 (setup always stores color_next = next(current)).
# (b) setup refuses an AWAIT_COLOR position whose top is wild unless a colour is given
#     ("the top card RS|DW is wild: give the current colour"), although no colour exists
#     until it is declared; the given colour is then kept, so the position differs from the
#     same position reached by play (where the colour is undefined).
def test_setup_await_color_next_player_chooser_keeps_turn() -> None:
    t = Table("flip", 4, [["Y1|DW", "Y2|Tl1"], ["Y6|OrSE"], ["B4|Pu1", "B8|Tl4"],
                          ["B3|Pu8", "B6|PuR"]],
              discard=["RF|Pk8", "R3|Pk7", "RS|DW"], side=1, phase="AWAIT_COLOR", current=2,
              color="Tl", options={"flipExposedWildChooser": "next_player"})
    t.do("P2 COLOR Pu")
    assert t.g.current == 2


def test_setup_await_color_equals_position_reached_by_play() -> None:
    hands = [["Y2|Tl1", "Y5|Pu9"], ["RF|Pk8", "B2|Or8"], ["Y9|Pu4", "B3|Pu8"],
             ["B8|Tl4", "Y5|Tl8"]]
    played = Game.setup("flip", 4, hands=hands, discard=["RS|DW", "R3|Pk7"], draw=["Y2|Tl1"])
    played.apply("P1 PLAY RF|Pk8")
    assert played.state == Phase.AWAIT_COLOR
    built = Game.setup("flip", 4, hands=[h for h in hands[:1]] + [["B2|Or8"]] + hands[2:],
                       discard=["RF|Pk8", "R3|Pk7", "RS|DW"], draw=["Y2|Tl1"], side=1,
                       phase="AWAIT_COLOR", current=1, uno={1: "vulnerable"})
    assert built == played
