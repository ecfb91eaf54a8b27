"""Issue 30 in real Chromium: the decision panel never covers a seat or its controls.

A Wild Draw Four played without calling UNO leaves its victim two things to do at
once: decide (challenge or accept) and catch the player who forgot UNO. The
decision panel used to be drawn over the opponents' row, so the Catch button
was under it and could not be clicked (CI saw Playwright report that
``#decision`` intercepts the pointer events). Here the table is put in exactly
that position (``Game.setup``, the engine in the loop: what the table sends is
applied by the engine and the new state shown), at the viewports of issue 30
and with 2 to 10 players (Classic, and Flip on its dark side as in the CI
failure), and:

* the panel's box (``#decision`` and its card) intersects no seat box (``.opp``),
  nor one's own bar or hand, and the panel is on screen;
* Catch is clicked with Playwright's own actionability check (no forced click),
  the catch is applied, and the panel's Challenge is then clicked the same way.

Screenshots: artifacts/e2e/decision-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game
from unokit.engine.decks import FLIP_CANONICAL_PAIRING

from .conftest import Player
from .test_table_calls import NAMES, VIEWPORTS, _overlaps, _show
from .test_table_states import Table

JS_BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length > 0)
  .map((el) => { const r = el.getBoundingClientRect();
    return {what: (el.id ? '#' + el.id : '') + '.' + el.className + ' ' + (el.dataset.seat ?? ''),
            left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""


def _position(variant: str, n: int, offender: int) -> tuple[Game, str]:
    """``offender`` to play with a wild draw card and one more card in hand, the
    others holding three cards each; and the play of the wild draw without UNO
    (Classic: Wild Draw Four; Flip: Wild Draw Colour on the dark side, as in
    the Flip round where CI saw the Catch button covered)."""
    if variant == "flip":
        # distinct physical cards (light|dark) for up to nine other seats and the draw
        pool = [
            f"{light}|{dark}"
            for light, darks in FLIP_CANONICAL_PAIRING.items()
            for dark in darks
            if light[0] in "RYGB" and light[1:].isdigit() and light not in ("R3", "G4")
        ]
        own, play = ["R3|WDC", "G4|Tl9"], f"P{offender} PLAY R3|WDC color=Or"
        piles: dict[str, Any] = dict(discard=["YF|Pk4"], color="Pk", side=1)
        options: dict[str, Any] = {}
    else:
        pool = [f"{c}{k}" for c in "YB" for k in range(1, 10)]
        pool += ["YS", "BS", "YR", "BR", "YD2", "BD2", "GS", "GR", "GD2"]
        own, play = ["W4", "G2"], f"P{offender} PLAY W4 color=G"
        piles = dict(discard=["R9"], color="R")
        options = {"targetScore": 10_000}
    hands = [own if s == offender else [pool.pop(0) for _ in range(3)] for s in range(n)]
    draw = pool[:12] if variant == "flip" else ["R1", "R2", "R3", "R4", "R6", "R7", "G8", "G9"]
    g = Game.setup(variant, n, options, hands=hands, draw=draw, current=offender, **piles)
    return g, play


def _boxes(page: Any, sel: str) -> list[dict[str, Any]]:
    return list(page.evaluate(JS_BOXES, sel))


def _check_panel_clear_of_seats(page: Any, where: str, viewport: dict[str, int]) -> None:
    """The panel covers no seat, nor one's own bar or hand, and is on screen."""
    panel = _boxes(page, "#decision, #decision .decision-card")
    seats = _boxes(page, ".opp")
    assert len(panel) == 2 and seats, f"{where}: panel {panel}, seats {seats}"
    for p in panel:
        for s in seats + _boxes(page, "#me-bar .me-info, #me-bar button, #hand"):
            assert not _overlaps(p, s), f"{where}: the panel {p} covers {s}"
    card = panel[1]
    # (scrolled in view edge to edge: a fraction of a pixel may round either way)
    assert -1 <= card["top"] and card["bottom"] <= viewport["height"] + 1, f"{where}: {card}"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_a_pending_challenge_leaves_the_catch_button_clickable(
    new_player: Any, viewport: dict[str, int]
) -> None:
    player: Player = new_player("victim", viewport=viewport)
    table = Table(player)
    page = table.page
    version = 1
    games = [("classic", n) for n in (2, 3, 4, 6, 8, 10)] + [("flip", 3), ("flip", 10)]
    for variant, n in games:
        # the offender just before the victim: the first and the last seat of the row
        for offender, me in ((0, 1), (n - 1, 0)):
            where = f"{variant}, {n} players, P{offender} caught by P{me} at {viewport}"
            g, play = _position(variant, n, offender)
            g.apply(play)
            legal = {str(a) for a in g.legal_actions(me)}
            assert {"CHALLENGE", "ACCEPT", f"CATCH P{offender}"} <= {
                c.split(None, 1)[1] for c in legal
            }, legal
            _show(table, g, me, version)
            version += 1
            page.wait_for_selector("#decision:not([hidden])[data-kind='challenge'] #act-challenge")
            catch = page.locator(f'.opp[data-seat="{offender}"] [data-catch]')
            catch.wait_for()
            _check_panel_clear_of_seats(page, where, viewport)
            if n in (3, 10) and offender == 0:
                vp = f"{viewport['width']}x{viewport['height']}"
                player.screenshot(f"decision-catch-{variant}-{n}p-{vp}")
            # Playwright's actionability check: the button itself receives the click
            catch.click(trial=True, timeout=3000)
            page.locator("#act-challenge").click(trial=True, timeout=3000)
            page.locator("#act-accept").click(trial=True, timeout=3000)
            catch.click()
            assert table.sent() == [f"CATCH P{offender}"], where
            g.apply(f"P{me} CATCH P{offender}")
            _show(table, g, me, version)
            version += 1
            # the catch is applied: two cards for the offender, the log says so,
            # and the challenge is still to decide, its panel still clear of the seats
            assert g.observe(me).hand_sizes[offender] == 3
            page.wait_for_selector(
                f'.opp[data-seat="{offender}"] .opp-foot:has-text("3 cards")', timeout=3000
            )
            assert page.locator(f'.opp[data-seat="{offender}"] [data-catch]').count() == 0
            caught = page.locator('#log-list li[data-type="Caught"][data-success="true"]').last
            assert caught.text_content() == f"You caught {NAMES[offender]} without UNO!"
            page.wait_for_selector("#decision:not([hidden])[data-kind='challenge'] #act-challenge")
            _check_panel_clear_of_seats(page, where + ", after the catch", viewport)
            page.click("#act-challenge")
            assert table.sent() == ["CHALLENGE"], where
