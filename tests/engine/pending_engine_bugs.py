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


# BUG 1 (regular-side Flex Draw Two acted as its flex side) and BUG 2 (forcedPlay forced
# playing an illegal drawn restricted card) were fixed in commit 8da1b36; their tests now
# live in test_flex_effects.py.


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


def test_setup_first_card_wild_await_color_equals_started_round() -> None:
    # the same defect (b) for a Classic first-card Wild (§2.4, AWAIT_COLOR first_card)
    hands = [["Y1", "Y2"], ["B3", "B4"], ["Y7", "Y8"]]
    started = Game.setup("classic", 3, hands=hands, draw=["W", "B5"])
    started.start()
    assert started.state == Phase.AWAIT_COLOR and started.current == 1
    built = Game.setup("classic", 3, hands=hands, draw=["B5"], discard=["W"],
                       phase="AWAIT_COLOR", current=1)
    assert built == started
