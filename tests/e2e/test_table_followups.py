"""Issue 30 follow-ups in real Chromium: lobby sections and saved settings, the
phone's round results, the solo game's seat buttons, French words."""

from __future__ import annotations

import re
from typing import Any

from unokit import Game

from .conftest import PHONE
from .test_player_ux import JS_MOUNT_SEATS, _round_over
from .test_table_states import _state


def test_a_solo_game_offers_no_open_to_a_newcomer_on_bot_seats(new_player: Any) -> None:
    player = new_player("solo")
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    assert page.evaluate(JS_MOUNT_SEATS)
    over: Game = _round_over([10, 20, 30])

    def show(version: int, public: bool, others: str) -> None:
        st = _state(over, 0, version)
        st["info"]["public"] = public
        st["info"]["seats"][1].update(kind=others, level=None if others == "human" else "normal")
        page.evaluate("(s) => { window.sent = []; window.T.update(s); }", st)
        page.wait_for_selector("#round-end:not([hidden])")

    # me and two bots, a private room nobody watches: nothing to open
    show(1, public=False, others="bot")
    assert page.locator('.opp[data-seat="2"]').count() == 1
    assert page.locator('[data-hand-over$=":open"]').count() == 0
    # a public room: bot seats can be opened to a newcomer
    show(2, public=True, others="bot")
    page.wait_for_selector('[data-hand-over="2:open"]', state="attached")
    # a private room with a friend: the same
    show(3, public=False, others="human")
    page.wait_for_selector('[data-hand-over="2:open"]', state="attached")
    page.wait_for_selector('[data-hand-over="1:bot"]', state="attached")


def test_french_says_robots_throughout_and_names_the_default_player(new_player: Any) -> None:
    player = new_player("fr", locale="fr-FR")
    page = player.page
    page.goto("/")
    page.wait_for_selector("#quick-bots")
    text = page.inner_text("#view-lobby")
    assert "Jouer contre des robots" in text
    assert "Vous et 3 robots, les cartes sont distribuées tout de suite." in text
    assert not re.search(r"\bbots?\b", text), text
    # no name typed: the quick game seats me under the French default name
    page.click("#quick-bots")
    player.wait_table()
    state = player.state()
    assert state is not None
    assert state["info"]["seats"][player.seat()]["name"] == "Joueur", state["info"]["seats"]


def test_on_a_phone_the_round_results_fit_without_scrolling_and_show_no_key_hints(
    new_player: Any,
) -> None:
    player = new_player("phone", viewport=PHONE)
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    assert page.evaluate(JS_MOUNT_SEATS)
    left = ["R1", "R2", "R3", "Y4", "Y5", "G6", "G7", "B8", "B9", "W", "W4", "RS"]
    g = Game.setup(
        "classic",
        4,
        {"targetScore": 500},
        hands=[left, ["Y1"], ["B1", "B2", "G3", "G4", "GR", "BD2"], ["G1", "G2", "Y2", "Y3", "W"]],
        draw=["R4", "R5", "R6", "R7", "R8", "G8", "G9"],
        discard=["Y9"],
        color="Y",
        current=1,
    )
    g.apply("P1 PLAY Y1")
    assert g.state.name == "ROUND_OVER"
    page.evaluate("(s) => window.T.update(s)", _state(g, 0))
    page.wait_for_selector("#round-end:not([hidden]) #act-next")
    player.screenshot("round-results-390x844")
    # the panel needs no scrolling and "Next round" is on screen
    scroll = page.evaluate(
        """() => { const p = document.querySelector('#round-end .panel');
           return [p.scrollHeight, p.clientHeight]; }"""
    )
    assert scroll[0] <= scroll[1], scroll
    box = page.locator("#act-next").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    page.locator("#act-next").click(trial=True, timeout=3000)
    # each hand left is one row of cards, not two
    rows = page.evaluate(
        """() => [...document.querySelectorAll('#round-end .mini-hand')].map((h) => {
           const tops = new Set([...h.querySelectorAll('.card')].map((c) => Math.round(c.getBoundingClientRect().top)));
           return tops.size; })"""
    )
    assert rows and max(rows) <= 1, rows
    # no key hints on a phone: not on "Next round", not on any table control
    hints = page.evaluate(
        """() => [...document.querySelectorAll('#view-table kbd')]
           .filter((k) => k.getClientRects().length).map((k) => k.textContent)"""
    )
    assert hints == [], hints


JS_SECTIONS_OPEN = (
    "() => [...document.querySelectorAll('#create-form details.more')].map((d) => d.open)"
)


def test_lobby_sections_stay_open_and_saved_settings_are_shown_with_a_reset(
    new_player: Any,
) -> None:
    player = new_player("lobby")
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    page.evaluate("() => localStorage.removeItem('unokit.lastCreate')")
    page.reload()
    page.wait_for_selector("#create-form")
    assert page.locator("#saved-note").count() == 0  # nothing saved yet
    # open both sections, then change Players and Game: they stay open
    page.locator("#create-form details.more > summary").nth(0).click()
    page.locator("#create-form details.more > summary").nth(1).click()
    page.select_option("#create-players", "3")
    page.wait_for_function("() => document.querySelector('#create-players').value === '3'")
    assert page.evaluate(JS_SECTIONS_OPEN) == [True, True]
    page.click('.variant-tile[data-variant="flip"]')
    page.wait_for_selector('.variant-tile.checked[data-variant="flip"]')
    assert page.evaluate(JS_SECTIONS_OPEN) == [True, True]
    # a target of 30, then a new visit: the lobby says it reuses those settings
    page.fill('[name="opt-targetScore"]', "30")
    page.dispatch_event('[name="opt-targetScore"]', "change")
    page.reload()
    page.wait_for_selector("#create-form")
    note = page.locator("#saved-note")
    assert note.is_visible() and "Using your last settings" in note.inner_text()
    create = page.locator("#create-submit").bounding_box()
    where = note.bounding_box()
    assert create is not None and where is not None
    assert abs(where["y"] - create["y"]) < 80  # beside the Create button
    assert page.input_value('[name="opt-targetScore"]') == "30"
    # Reset: the defaults again, the note gone, nothing saved
    page.click("#saved-reset")
    page.wait_for_selector("#saved-note", state="detached")
    assert page.input_value('[name="opt-targetScore"]') == "500"
    assert page.input_value("#create-players") == "4"
    assert page.locator('.variant-tile.checked[data-variant="classic"]').count() == 1
    assert page.evaluate("() => localStorage.getItem('unokit.lastCreate')") is None
