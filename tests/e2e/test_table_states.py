"""The table in exact positions: observations the engine produces for chosen
positions (``Game.setup``) are given to the table module as `state` messages,
and the test checks what it shows and which command each click or key sends.

This covers the decisions a live game reaches only by chance: the colour
choice for a first-card Wild, the challenge and the revealed hand, a stacked
draw, the 7-0 swap, Flex targets, a jump-in, a catch, round and match ends.
Screenshots: artifacts/e2e/state-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game

from .conftest import PHONE, Player

NAMES = ["Ann", "Bob", "Cid", "Dee"]

JS_MOUNT = """async () => {
  const m = await import('/static/table.js');
  document.getElementById('view-lobby').hidden = true;
  const root = document.getElementById('view-table');
  root.hidden = false;
  document.body.dataset.view = 'table';
  window.sent = [];
  window.T = m.createTable(root, {
    send: (t) => window.sent.push(t),
    nextRound: () => window.sent.push('next_round'),
    newMatch: () => window.sent.push('new_match'),
    chat: (t) => window.sent.push('chat ' + t),
  });
  document.addEventListener('keydown', (e) => { if (window.T.key(e)) e.preventDefault(); });
  return true;
}"""


def _state(g: Game, seat: int | None, version: int = 1) -> dict[str, Any]:
    n = g.n
    return {
        "type": "state",
        "version": version,
        "seat": seat,
        "info": {
            "room": "testroom42",
            "invite": "/r/testroom42",
            "variant": g.variant.name,
            "players": n,
            "options": g.options.to_dict(),
            "turn_timer": None,
            "status": "playing",
            "host": 0,
            "match": 1,
            "version": version,
            "spectators": 0,
            "seats": [
                {
                    "seat": s,
                    "kind": "human" if s < 2 else "bot",
                    "level": None if s < 2 else "normal",
                    "name": NAMES[s],
                    "claimed": True,
                    "connected": True,
                }
                for s in range(n)
            ],
        },
        "observation": g.observe(seat).to_dict(),
        "last": None,
        "deadline": None,
        "remaining": None,
    }


class Table:
    def __init__(self, player: Player) -> None:
        self.player = player
        self.page = player.page
        self.page.goto("/")
        self.page.wait_for_selector("#create-form")
        assert self.page.evaluate(JS_MOUNT)

    def show(self, g: Game, seat: int | None, version: int = 1) -> None:
        self.page.evaluate(
            "(s) => { window.sent = []; window.T.update(s); }", _state(g, seat, version)
        )

    def sent(self) -> list[str]:
        return list(self.page.evaluate("() => window.sent"))


@pytest.fixture
def table(new_player: Any) -> Table:
    return Table(new_player("table"))


def _classic(**kw: Any) -> Game:
    options = kw.pop("options", None)
    base: dict[str, Any] = dict(
        hands=[["R5", "W4", "G2"], ["B1", "B2", "RD2", "W4"], ["Y1", "Y2", "Y3"]],
        draw=["R1", "R2", "R3", "R4", "R6", "R7", "R8", "G8", "G9"],
        discard=["R9"],
        color="R",
        current=0,
    )
    base.update(kw)
    return Game.setup("classic", 3, options, **base)


def test_first_card_wild_asks_the_colour(table: Table) -> None:
    g = Game.setup(
        "classic",
        3,
        hands=[["R5", "G2"], ["B1", "B2"], ["Y1", "Y2"]],
        draw=["R1", "R2", "R3"],
        discard=["W"],
        color=None,
        current=1,
        phase="AWAIT_COLOR",
    )
    table.show(g, 1)
    page = table.page
    page.wait_for_selector('#decision:not([hidden]) [data-choose="COLOR"]')
    buttons = page.locator('#decision [data-choose="COLOR"]')
    assert buttons.count() == 4
    # every colour button carries its colour-blind symbol and its name
    assert page.locator("#decision .color-btn svg.card-symbol").count() == 4
    assert page.inner_text("#decision").count("Red") == 1
    table.player.screenshot("state-first-card-colour")
    page.keyboard.press("3")
    assert table.sent() == ["COLOR G"]
    # the other seats only wait
    table.show(g, 0, version=2)
    assert page.locator("#decision").is_hidden()
    assert "choosing a colour" in page.inner_text("#status")


def test_wild_play_asks_the_colour_and_sends_one_command(table: Table) -> None:
    g = _classic()
    table.show(g, 0)
    page = table.page
    assert page.locator("#hand .hc.playable").count() == 2  # R5 and W4
    assert page.locator('#hand .hc.playable[data-card="G2"]').count() == 0
    page.click('#hand .hc[data-card="W4"]')
    page.wait_for_selector('#decision [data-choose="color"]')
    assert table.sent() == []
    page.click('#decision [data-choose="color"][data-value="B"]')
    assert table.sent() == ["PLAY W4 color=B"]
    # a card with one legal command is sent at once
    table.show(g, 0, version=2)
    page.click('#hand .hc[data-card="R5"]')
    assert table.sent() == ["PLAY R5"]
    # Escape closes the colour choice without sending anything
    table.show(g, 0, version=3)
    page.locator('#hand .hc[data-card="W4"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#decision [data-choose="color"]')
    page.keyboard.press("Escape")
    assert page.locator("#decision").is_hidden()
    assert table.sent() == []


def test_challenge_and_revealed_hand(table: Table) -> None:
    g = _classic()
    g.apply("P0 PLAY W4 color=G")
    table.show(g, 1)
    page = table.page
    page.wait_for_selector("#decision:not([hidden]) #act-challenge")
    text = page.inner_text("#decision")
    assert "Ann played Wild Draw Four" in text and "6" in text
    table.player.screenshot("state-challenge")
    page.keyboard.press("x")
    assert table.sent() == ["CHALLENGE"]
    g.apply("P1 CHALLENGE")  # Ann held R5 of the colour in play: a bluff
    table.show(g, 1, version=2)
    page.wait_for_selector("#reveal:not([hidden])")
    assert page.locator("#reveal svg.card").count() == 2
    assert "Ann" in page.inner_text("#reveal")
    assert "it was a bluff" in page.inner_text("#log-list")
    table.player.screenshot("state-revealed")
    # Ann and Cid never see the revealed hand
    for seat in (0, 2):
        table.show(g, seat, version=3)
        assert page.locator("#reveal").is_hidden()
    # the challenger can close it, and it stays closed
    table.show(g, 1, version=4)
    page.click("[data-dismiss-reveal]")
    assert page.locator("#reveal").is_hidden()
    table.show(g, 1, version=5)
    assert page.locator("#reveal").is_hidden()


def test_revealed_hand_stays_until_the_challenger_plays(table: Table) -> None:
    """Other seats' plays (a bot plays at once) do not take the hand away
    before the challenger has seen it; the challenger's own play does."""
    g = _classic(hands=[["R5", "W4", "G2"], ["B1", "B2", "RD2", "W4"], ["Y1", "G3", "Y3"]])
    g.apply("P0 PLAY W4 color=G")
    g.apply("P1 CHALLENGE")  # a bluff: Ann draws four, Bob keeps his turn
    g.apply("P1 DRAW")  # nothing playable: the turn passes
    g.apply("P2 PLAY G3")
    table.show(g, 1, version=2)
    page = table.page
    page.wait_for_selector("#reveal:not([hidden]) .reveal-cards")
    assert "Ann" in page.inner_text("#reveal")
    while g.observe(1).to_dict()["current"] != 1:
        g.apply(g.legal_actions()[0])
    play = next(a for a in g.legal_actions() if str(a).startswith("P1 PLAY"))
    g.apply(play)
    table.show(g, 1, version=3)
    assert page.locator("#reveal").is_hidden()


def test_stacked_draw_offers_stack_or_take(table: Table) -> None:
    g = _classic(
        options={"stacking": "escalate"},
        hands=[["R5", "RD2", "G2"], ["B1", "B2", "BD2", "W4"], ["Y1", "Y2", "Y3"]],
    )
    g.apply("P0 PLAY RD2")
    table.show(g, 1)
    page = table.page
    assert page.inner_text("#center .pending") == "+2 pending"
    assert "Take 2" in page.inner_text("#act-draw")
    assert "2 cards are coming to you" in page.inner_text("#status")
    assert sorted(
        page.eval_on_selector_all("#hand .hc.playable", "e => e.map(x => x.dataset.card)")
    ) == ["BD2", "W4"]
    table.player.screenshot("state-stacking")
    page.keyboard.press("d")
    assert table.sent() == ["DRAW"]


def test_seven_swaps_with_a_chosen_player(table: Table) -> None:
    g = _classic(
        options={"sevenZero": True}, hands=[["R7", "G2", "B3"], ["B1", "B2"], ["Y1", "Y2", "Y3"]]
    )
    table.show(g, 0)
    page = table.page
    page.click('#hand .hc[data-card="R7"]')
    page.wait_for_selector('#decision [data-choose="swap"]')
    assert "Swap hands with whom?" in page.inner_text("#decision")
    assert page.locator('#decision [data-choose="swap"]').count() == 2
    table.player.screenshot("state-swap")
    page.keyboard.press("2")
    assert table.sent() == ["PLAY R7 swap=P2"]


def test_flex_side_colour_and_target(table: Table) -> None:
    g = Game.setup(
        "flex",
        3,
        hands=[["WTD", "R5~G", "B2"], ["B1", "B3"], ["Y1", "Y2", "Y3"]],
        draw=["R1", "R2", "R3", "R6"],
        discard=["G7"],
        color="G",
        current=0,
    )
    table.show(g, 0)
    page = table.page
    assert page.locator(".power").count() == 3
    # R5~G: its flex colour matches green, its regular side does not
    page.click('#hand .hc[data-card="R5~G"]')
    assert table.sent() == ["PLAY R5~G side=flex"]
    table.show(g, 0, version=2)
    page.click('#hand .hc[data-card="WTD"]')
    page.wait_for_selector('#decision [data-choose="side"]')
    assert "a chosen player draws 2" in page.inner_text("#decision")
    table.player.screenshot("state-flex-side")
    page.click('#decision [data-choose="side"][data-value="flex"]')
    page.click('#decision [data-choose="color"][data-value="Y"]')
    page.wait_for_selector('#decision [data-choose="target"]')
    assert page.locator('#decision [data-choose="target"]').count() == 2
    table.player.screenshot("state-flex-target")
    page.click('#decision [data-choose="target"][data-value="P2"]')
    assert table.sent() == ["PLAY WTD color=Y side=flex target=P2"]


def test_catch_a_player_without_uno(table: Table) -> None:
    g = _classic(hands=[["R5", "R6"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]])
    g.apply("P0 PLAY R5")  # one card left, no UNO
    table.show(g, 2)
    page = table.page
    page.wait_for_selector('.opp[data-seat="0"].vulnerable [data-catch="0"]')
    assert "no UNO" in page.inner_text('.opp[data-seat="0"]')
    table.player.screenshot("state-catch")
    page.keyboard.press("c")
    assert table.sent() == ["CATCH P0"]
    # Ann herself is told to call UNO
    table.show(g, 0, version=2)
    assert page.locator("#act-uno.urgent:not([disabled])").count() == 1
    page.keyboard.press("u")
    assert table.sent() == ["UNO"]


def test_jump_in_out_of_turn(table: Table) -> None:
    g = _classic(options={"jumpIn": True}, hands=[["R5", "G2"], ["B1", "B2"], ["Y1", "R9", "Y3"]])
    table.show(g, 2)  # Ann's turn; Cid holds the identical R9
    page = table.page
    assert "Jump in" in page.inner_text("#status")
    assert page.eval_on_selector_all("#hand .hc.playable", "e => e.map(x => x.dataset.card)") == [
        "R9"
    ]
    page.click('#hand .hc[data-card="R9"]')
    assert table.sent() == ["PLAY R9"]


def test_round_end_and_match_end(table: Table) -> None:
    g = _classic(
        options={"targetScore": 100},
        hands=[["R5"], ["B1", "B2", "W4"], ["Y1", "Y2", "Y3"]],
        scores=[10, 20, 30],
    )
    g.apply("P0 PLAY R5")
    assert g.state.name == "ROUND_OVER"
    table.show(g, 1)
    page = table.page
    page.wait_for_selector("#round-end:not([hidden]) .score-table")
    rows = page.locator("#round-end tbody tr")
    assert rows.count() == 3
    assert "Ann wins the round: 59 points." in page.inner_text("#round-end")
    assert page.inner_text('#round-end tr[data-seat="0"] .total') == "69"
    assert page.locator('#round-end tr[data-seat="1"] .mini-hand svg.card').count() == 3
    table.player.screenshot("state-round-end")
    page.keyboard.press("n")
    assert table.sent() == ["next_round"]
    # the panel can be closed to look at the table, and comes back with the scores button
    page.click("#round-hide")
    assert page.locator("#round-end").is_hidden()
    g2 = _classic(
        options={"targetScore": 100},
        hands=[["R5"], ["B1", "B2", "W4"], ["Y1", "Y2", "Y3"]],
        scores=[90, 20, 30],
    )
    g2.apply("P0 PLAY R5")
    assert g2.state.name == "MATCH_OVER"
    table.show(g2, 1, version=2)
    page.wait_for_selector("#round-end .match-line")
    assert "Ann wins the match!" in page.inner_text("#round-end .match-line")
    table.player.screenshot("state-match-end")
    page.click("#act-newmatch")
    assert table.sent() == ["new_match"]
    # a spectator sees the result but has no button
    table.show(g2, None, version=3)
    assert page.locator("#act-newmatch").count() == 0


def test_flip_dark_side_on_a_phone(new_player: Any) -> None:
    t = Table(new_player("phone", viewport=PHONE))
    g = Game.setup(
        "flip",
        4,
        hands=[
            ["R3|WDC", "R6|PkSE", "G4|Tl9"],
            ["G9|OrD5", "Y4|PuF"],
            ["W2|Or4", "R1|Pk3"],
            ["B8|Tl4"],
        ],
        draw=["G5|Or7", "B6|PuR", "B3|Tl2"],
        discard=["YF|Pk4"],
        color="Pk",
        side=1,
        current=0,
    )
    t.show(g, 0)
    page = t.page
    assert page.evaluate("() => document.body.dataset.side") == "dark"
    assert "Dark side" in page.inner_text(".side-badge")
    # the draw pile shows the light face of its top card; opponents show their light faces
    assert page.get_attribute("#draw-pile svg.card", "data-face") == "G5"
    faces = page.eval_on_selector_all(
        '.opp[data-seat="2"] svg.card', "e => e.map(x => x.dataset.face)"
    )
    assert sorted(faces) == ["R1", "W2"]
    # own hand: dark faces
    own = page.eval_on_selector_all("#hand svg.card", "e => e.map(x => x.dataset.face)")
    assert sorted(own) == sorted(["WDC", "PkSE", "Tl9"])
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    t.player.screenshot("state-flip-dark-phone")
