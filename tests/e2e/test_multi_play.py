"""Several cards of one number in one play at the web table (house rule
``multiPlay = same_number``, RULES.md §6.9, docs/rules.md §6).

Exact positions (``Game.setup``) are given to the table module as `state`
messages, as in test_table_states.py, and the test checks what a player sees
and which command each click, tap or key sends: the cards are picked in
order (a numbered ring), "Play N cards" plays them in that order (the last
one sets the colour), UNO can be called with the play, a 7-0 swap asks whom,
and the log and the toasts say the play in one sentence, in English and in
French. Screenshots: artifacts/e2e/multi-*.png.
"""

from __future__ import annotations

from typing import Any

from unokit import Game

from .conftest import PHONE, Player
from .test_table_states import Table, _state

DESKTOP_WIDE = {"width": 1366, "height": 800}
MULTI = {"multiPlay": "same_number"}


def _fives(**kw: Any) -> Game:
    base: dict[str, Any] = dict(
        hands=[["R5", "B5", "Y1", "G5", "W"], ["B1", "B2", "B3"], ["Y2", "Y3", "Y4"]],
        draw=["R1", "R2", "R3", "R4", "R6", "R7", "R8", "G8", "G9"],
        discard=["R3"],
        color="R",
        current=0,
    )
    base.update(kw)
    options = base.pop("options", MULTI)
    return Game.setup("classic", 3, options, **base)


def _card(page: Any, card: str) -> Any:
    return page.locator(f'#hand .hc[data-card="{card}"]').first


def _click(page: Any, card: str) -> None:
    # in a fanned hand only the left strip of a card is uncovered
    _card(page, card).click(position={"x": 8, "y": 40})


def _picked(page: Any) -> list[str]:
    """The picked cards in the order of their numbers."""
    got = page.eval_on_selector_all(
        "#hand .hc.picked",
        "els => els.map(e => [+e.querySelector('.pick-n').textContent, e.dataset.card])",
    )
    return [c for _, c in sorted(got)]


def test_pick_several_fives_and_play_them_in_the_order_picked(new_player: Any) -> None:
    table = Table(new_player("multi", viewport=DESKTOP_WIDE))
    page = table.page
    g = _fives()
    table.show(g, 0)
    # R5 matches the red 3 and may start a play of 5s: a click picks it
    _click(page, "R5")
    assert _picked(page) == ["R5"]
    assert table.sent() == []
    assert page.inner_text("#act-play").startswith("Play Red 5")
    assert "Pick more 5s" in page.inner_text("#multi-note")
    # the other 5s can join it (dashed ring), the rest is dimmed
    joinable = page.eval_on_selector_all(
        "#hand .hc.joinable", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(joinable) == ["B5", "G5"]
    assert "muted" in (_card(page, "Y1").get_attribute("class") or "")
    assert _card(page, "R5").get_attribute("aria-pressed") == "true"
    # picked in the order clicked: the green one first, the blue one last
    _click(page, "G5")
    _click(page, "B5")
    assert _picked(page) == ["R5", "G5", "B5"]
    assert page.inner_text("#act-play").startswith("Play 3 cards")
    assert "Red 5 → Green 5 → Blue 5" in page.inner_text("#multi-note")
    assert _card(page, "B5").get_attribute("aria-label") == "Blue 5, picked 3"
    table.player.screenshot("multi-desktop")
    # a click on a picked card takes it back
    _click(page, "G5")
    assert _picked(page) == ["R5", "B5"]
    _click(page, "G5")
    assert _picked(page) == ["R5", "B5", "G5"]
    page.click("#act-play")
    assert table.sent() == ["PLAY R5+B5+G5"]
    # the engine takes it: green is in force, the last card is on top
    g.apply("P0 PLAY R5+B5+G5")
    assert g.observe(0).to_dict()["color"] == "G"


def test_a_card_that_cannot_go_first_says_which_can(new_player: Any) -> None:
    table = Table(new_player("multi-first"))
    page = table.page
    table.show(_fives(), 0)
    # B5 does not match the red 3: it may only follow a card that does
    _card(page, "B5").click(position={"x": 8, "y": 40}, force=True)  # aria-disabled
    assert table.sent() == [] and _picked(page) == []
    toast = page.wait_for_selector(".feed-toast.feed-warn")
    assert toast.inner_text() == "Blue 5 cannot go first: pick Red 5 first, then add Blue 5."
    # a card of no play of several cards plays alone, at once (the wild asks its colour)
    _click(page, "W")
    page.wait_for_selector('#decision:not([hidden]) [data-choose="color"]')
    page.keyboard.press("Escape")
    # picking, then cancelling with Escape: nothing is sent
    _click(page, "R5")
    _click(page, "G5")
    page.keyboard.press("Escape")
    assert _picked(page) == [] and page.locator("#act-play").count() == 0
    # a single card is still played alone: picked, then Play, or clicked twice
    _click(page, "R5")
    page.click("#act-play")
    assert table.sent() == ["PLAY R5"]
    table.show(_fives(), 0, version=2)
    _click(page, "R5")
    _click(page, "R5")
    assert table.sent() == ["PLAY R5"]


def test_keyboard_picks_calls_uno_with_the_play_and_plays(new_player: Any) -> None:
    table = Table(new_player("multi-keys"))
    page = table.page
    g = _fives(hands=[["R5", "B5", "Y1"], ["B1", "B2", "B3"], ["Y2", "Y3", "Y4"]])
    table.show(g, 0)
    order = page.eval_on_selector_all("#hand .hc", "els => els.map(e => e.dataset.card)")
    _card(page, "R5").focus()
    page.keyboard.press("Enter")
    assert _picked(page) == ["R5"]
    for _ in range((order.index("B5") - order.index("R5")) % len(order)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == "B5"
    page.keyboard.press("Enter")
    assert _picked(page) == ["R5", "B5"]
    # two of three cards: the play leaves one, so UNO can be called with it
    uno = page.locator("#act-multi-uno")
    assert uno.get_attribute("aria-pressed") == "false"
    page.keyboard.press("u")
    assert uno.get_attribute("aria-pressed") == "true"
    page.keyboard.press("p")
    assert table.sent() == ["PLAY R5+B5 uno=true"]
    g.apply("P0 PLAY R5+B5 uno=true")
    assert g.observe(1).to_dict()["uno"][0] == "safe"


def test_seven_swap_with_several_sevens_asks_whom(new_player: Any) -> None:
    table = Table(new_player("multi-swap"))
    page = table.page
    g = _fives(
        hands=[["R7", "B7", "G7", "Y1"], ["B1", "B2", "B3"], ["Y2", "Y3", "Y4"]],
        options={**MULTI, "sevenZero": True},
    )
    table.show(g, 0)
    for card in ("R7", "G7", "B7"):
        _click(page, card)
    page.click("#act-play")
    # one swap for the whole play: whom to swap hands with
    page.wait_for_selector('#decision:not([hidden]) [data-choose="swap"]')
    assert table.sent() == []
    page.click('#decision [data-choose="swap"][data-value="P2"]')
    assert table.sent() == ["PLAY R7+G7+B7 swap=P2"]


def test_a_play_of_several_cards_is_one_sentence_in_english_and_french(new_player: Any) -> None:
    g = _fives()
    table = Table(new_player("multi-log"))
    page = table.page
    table.show(g, 1)
    g.apply("P0 PLAY R5+G5+B5")
    page.evaluate("(s) => window.T.update(s)", _state(g, 1, version=2))
    line = "Ann played Red 5, Green 5 and Blue 5 in one go."
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg=line)
    page.evaluate("() => window.T.toggleLog()")
    log = page.inner_text("#log-list")
    assert line in log and "Ann played Red 5." not in log
    # the player's own log says "you"; in French too
    fr = Table(new_player("multi-fr", locale="fr-FR"))
    if fr.page.evaluate("() => document.documentElement.lang") != "fr":
        fr.page.click("#btn-lang")
    fr.page.wait_for_selector("html[lang='fr']")
    fr.show(g, 0, version=3)
    fr.page.evaluate("() => window.T.toggleLog()")
    log_fr = fr.page.inner_text("#log-list")
    assert "Vous avez joué 5 Rouge, 5 Vert et 5 Bleu d'un coup." in log_fr, log_fr


def test_pick_and_play_on_a_phone(new_player: Any) -> None:
    player: Player = new_player("multi-phone", viewport=PHONE)
    table = Table(player)
    page = table.page
    table.show(_fives(), 0)
    page.locator('#hand .hc[data-card="R5"]').first.tap(position={"x": 8, "y": 40})
    page.locator('#hand .hc[data-card="B5"]').first.tap(position={"x": 8, "y": 40})
    assert _picked(page) == ["R5", "B5"]
    # B5 could not be played alone: picked, it is no longer dimmed
    assert "muted" not in (_card(page, "B5").get_attribute("class") or "")
    bar = page.locator(".multi-bar")
    box = bar.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    player.screenshot("multi-phone")
    page.locator("#act-play").tap()
    assert table.sent() == ["PLAY R5+B5"]


def test_the_first_game_hint_says_how_to_play_several_cards_only_where_one_may(
    new_player: Any,
) -> None:
    table = Table(new_player("hint", viewport=DESKTOP_WIDE))
    page = table.page
    table.show(_fives(options={}), 0)
    page.wait_for_selector("#hint-layer")
    plain = page.inner_text("#hint-layer")
    assert "click one to play it" in plain and "go together" not in plain
    table.show(_fives(), 0)  # multiPlay: a click picks a card that may go with others
    page.wait_for_function(
        "() => document.querySelector('#hint-layer')?.textContent.includes('go together')"
    )
    assert "click the others to add them, then Play" in page.inner_text("#hint-layer")
