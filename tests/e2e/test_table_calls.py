"""Issue 30 in real Chromium: every UNO call is a loud moment (burst, toast, log
line, live-region line, a sound unless muted); toasts never cover one's own
seat, the hand, a control or a dialog; after the round-over panel is closed
"Next round" is clickable and no two controls overlap.

Exact positions go through the table module (``Table`` of test_table_states).
"""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game

from .conftest import PHONE, Player, Server, first_legal_step
from .test_player_ux import JS_MOUNT_SEATS
from .test_table_states import Table, _classic, _state

VIEWPORTS = [
    {"width": 1366, "height": 800},
    {"width": 1280, "height": 800},
    {"width": 1280, "height": 720},
    PHONE,
]

JS_COUNT_TONES = """() => {
  window.tones = 0;
  const C = window.AudioContext || window.webkitAudioContext;
  const orig = C.prototype.createOscillator;
  C.prototype.createOscillator = function () { window.tones += 1; return orig.call(this); };
}"""


def test_a_bots_uno_call_is_a_burst_a_toast_a_log_line_and_a_live_line(new_player: Any) -> None:
    table = Table(new_player("table"))
    page = table.page
    page.evaluate(JS_COUNT_TONES)
    # Cid (a bot, seat 2) goes down to one card and calls UNO with the play,
    # as the bots and the web table do
    g = _classic(hands=[["R5", "G2", "G3"], ["B1", "B2", "W4"], ["R7", "Y2"]], current=2)
    table.show(g, 1)
    g.apply("P2 PLAY R7 uno=true")
    table.show(g, 1, version=2)
    page.wait_for_selector("#feed .feed-toast.feed-uno:has-text('Cid called UNO!')", timeout=3000)
    page.wait_for_selector('#log-list li[data-type="UnoCalled"]:has-text("Cid called UNO!")')
    assert "Cid called UNO!" in page.inner_text("#feed-live")
    # the burst sits over Cid's seat
    burst = page.locator(".uno-burst").first.bounding_box()
    seat = page.locator('.opp[data-seat="2"]').bounding_box()
    assert burst is not None and seat is not None
    cx, cy = burst["x"] + burst["width"] / 2, burst["y"] + burst["height"] / 2
    assert (
        seat["x"] <= cx <= seat["x"] + seat["width"]
        and seat["y"] <= cy <= seat["y"] + seat["height"]
    )
    assert page.evaluate("() => window.tones") >= 3  # play + the three-note UNO call
    # muted: the call is still seen, not heard
    page.click("#act-mute")
    page.evaluate("() => { window.tones = 0; }")
    g2 = _classic(hands=[["R5", "G2", "G3"], ["B1", "B2", "W4"], ["R7", "Y2"]], current=2)
    table.show(g2, 1, version=3)
    g2.apply("P2 PLAY R7 uno=true")
    table.show(g2, 1, version=4)
    page.wait_for_function(
        "() => document.querySelectorAll('#log-list li[data-type=\"UnoCalled\"]').length === 1"
        " && document.querySelector('#feed-live').textContent.split('Cid called UNO!').length === 3"
    )
    assert page.evaluate("() => window.tones") == 0
    # one's own call is announced too
    g3 = _classic(hands=[["R5", "G2", "G3"], ["R7", "B2"], ["Y1", "Y2"]], current=1)
    table.show(g3, 1, version=5)
    g3.apply("P1 PLAY R7 uno=true")
    table.show(g3, 1, version=6)
    page.wait_for_selector("#feed .feed-toast.feed-uno:has-text('You called UNO!')", timeout=3000)


JS_BLOCKERS = """() => {
  const vis = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const box = (el, what) => { const r = el.getBoundingClientRect();
    return {what, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const out = {toasts: [], blocks: []};
  for (const el of document.querySelectorAll('#feed .feed-toast')) if (vis(el)) out.toasts.push(box(el, el.textContent));
  const sel = '#me-bar .me-info, #hand, #hand .hc, #view-table button, #view-table input, '
    + '#decision .decision-card, #round-end, #scores, .opp';
  for (const el of document.querySelectorAll(sel)) if (vis(el)) {
    const b = box(el, el.id || el.className);
    if (b.right > b.left && b.bottom > b.top) out.blocks.push(b);
  }
  return out;
}"""


NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def _show(table: Table, g: Game, seat: int, version: int) -> None:
    """``Table.show`` for up to ten players (the first two seats people, the rest bots)."""
    state = _state(Game.new(g.variant.name, 2, seed=0), seat, version)
    state["info"]["players"] = g.n
    state["info"]["options"] = g.options.to_dict()
    state["info"]["seats"] = [
        {
            "seat": s,
            "kind": "human" if s < 2 else "bot",
            "level": None if s < 2 else "normal",
            "name": NAMES[s],
            "claimed": True,
            "connected": True,
        }
        for s in range(g.n)
    ]
    state["observation"] = g.observe(seat).to_dict()
    table.page.evaluate("(s) => { window.sent = []; window.T.update(s); }", state)


def _overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def _check_toasts(page: Any, where: str) -> int:
    seen = page.evaluate(JS_BLOCKERS)
    for t in seen["toasts"]:
        for b in seen["blocks"]:
            assert not _overlaps(t, b), f"{where}: the toast {t} covers {b}"
    return len(seen["toasts"])


def _others_act(g: Game, me: int, events: int) -> None:
    """Moves by the first legal action until ``events`` events by other seats
    (or the round's end)."""
    seen = 0
    while seen < events and not g.state.name.endswith("OVER"):
        s = g.current
        a = g.legal_actions(s)[0]
        seen += sum(1 for e in g.apply(a) if getattr(e, "seat", None) not in (None, me))


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_toasts_never_cover_the_seat_the_hand_a_control_or_a_dialog(
    new_player: Any, viewport: dict[str, int]
) -> None:
    player: Player = new_player("toasts", viewport=viewport)
    table = Table(player)
    page = table.page
    # the page's clock stands still: a toast lives 3.5 s, and on a loaded machine the
    # steps between a move and the check below can take longer than that
    page.clock.install()
    page.clock.pause_at(1_000_000_000_000)
    version = 1
    for n in (2, 3, 4, 6, 8, 10):
        for seed in (1, 2):
            g = Game.new("classic", n, {"targetScore": 10_000}, seed=seed)
            _show(table, g, 0, version)
            version += 1
            # others' turns, then one's own turn: three toasts on screen
            _others_act(g, 0, 3)
            _show(table, g, 0, version)
            version += 1
            shown = _check_toasts(page, f"{n} players, seed {seed}, {g.state.name}")
            if not g.state.name.endswith("OVER"):
                assert shown >= 1, f"{n} players at {viewport}: no toast anywhere"
            # on to the round's end: the panel open, then closed
            while not g.state.name.endswith("OVER"):
                g.apply(g.legal_actions(g.current)[0])
            _show(table, g, 0, version)
            version += 1
            page.wait_for_selector("#round-end:not([hidden])")
            _check_toasts(page, f"{n} players, round over, panel open")
            page.click("#round-hide")
            _check_toasts(page, f"{n} players, round over, panel closed")
        # the match's end (a target of 1 point: the first round ends it), the
        # toasts of its last move on screen: the panel open, then closed
        g = Game.new("classic", n, {"targetScore": 1}, seed=3)
        while True:
            before = g.copy()
            g.apply(g.legal_actions(g.current)[0])
            if g.state.name.endswith("OVER"):
                break
        assert g.state.name == "MATCH_OVER"
        _show(table, before, 0, version)
        _show(table, g, 0, version + 1)
        version += 2
        page.wait_for_selector("#round-end:not([hidden]) #act-newmatch")
        _check_toasts(page, f"{n} players, match over, panel open")
        page.click("#round-hide")
        page.wait_for_selector("#act-newmatch-bar")
        shown = _check_toasts(page, f"{n} players, match over, panel closed")
        assert shown >= 1, f"{n} players at {viewport}: no toast at the match's end"
    player.screenshot(f"toasts-{viewport['width']}x{viewport['height']}")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_after_the_round_panel_is_closed_next_round_is_clickable_and_no_controls_overlap(
    new_player: Any, viewport: dict[str, int]
) -> None:
    player: Player = new_player("host", viewport=viewport)
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    assert page.evaluate(JS_MOUNT_SEATS)
    hand = ["R1", "R2", "R3", "Y4", "Y5", "G6", "G7", "B8", "B9", "W", "W4", "RS"]
    g = Game.setup(
        "classic",
        4,
        {"targetScore": 500},
        hands=[hand, ["Y1"], ["B1", "B2", "G3", "G4"], ["G1", "G2", "Y2", "Y3"]],
        draw=["R4", "R5", "R6", "R7", "R8", "G8", "G9"],
        discard=["Y9"],
        color="Y",
        current=1,
    )
    g.apply("P1 PLAY Y1")
    assert g.state.name == "ROUND_OVER"
    page.evaluate("(s) => window.T.update(s)", _state(g, 0))  # the host, with bots in seats 2, 3
    page.wait_for_selector("#round-end:not([hidden])")
    page.click("#round-hide")
    # Playwright's own actionability check: visible, stable, enabled and the
    # element that receives the click (no forced click)
    page.locator("#act-next-bar").click(trial=True, timeout=3000)
    page.click("#act-next-bar")
    assert page.evaluate("() => window.sent") == ["next_round"]
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#view-table button, #view-table input, #center .pile, #hand')]
          // the hand's cards fan over each other by design: the hand is one box
          .filter((el) => el.getClientRects().length && !el.closest('#hand .hc'))
          .map((el) => { const r = el.getBoundingClientRect();
            // what the middle area scrolls out of sight is not on screen
            const m = el.closest('.middle')?.getBoundingClientRect();
            const top = m ? Math.max(r.top, m.top) : r.top;
            const bottom = m ? Math.min(r.bottom, m.bottom) : r.bottom;
            return {what: el.id || el.className || el.textContent, left: r.left, right: r.right, top, bottom}; })
          .filter((b) => b.right > b.left && b.bottom > b.top)"""
    )
    player.screenshot(f"next-round-{viewport['width']}x{viewport['height']}")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not _overlaps(a, b), f"{a} overlaps {b}"
    # no seat box (grown by its hand-over buttons) over the piles
    measure = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
        const r = el.getBoundingClientRect();
        return {what: el.className, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""
    seats = page.evaluate(measure, ".opp")
    piles = page.evaluate(measure, "#center .draw-pile, #discard")
    assert len(seats) == 3 and len(piles) == 2
    for seat in seats:
        for pile in piles:
            assert not _overlaps(seat, pile), f"seat {seat} overlaps {pile}"


def test_chat_with_the_log_closed_is_a_toast_and_an_unread_mark_in_time_order(
    new_player: Any, server: Server
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    res = server.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Ann"})
    code = res["room"]
    res2 = server.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    ann = new_player("Ann")
    ann.enter(code, res["token"], res["seat"])
    bob = new_player("Bob")
    bob.enter(code, res2["token"], res2["seat"])
    # the chat box says what it is for
    assert ann.page.get_attribute("#chat-input", "placeholder")
    assert ann.page.locator("#chat-input").evaluate("el => el.labels[0].textContent") == (
        "Chat with the table"
    )
    # Ann closes the log; Bob writes: a toast and an unread mark for Ann
    ann.page.click("#log-close")
    assert ann.page.locator("#log").is_hidden()
    bob.page.fill("#chat-input", "good luck")
    bob.page.press("#chat-input", "Enter")
    ann.page.wait_for_selector(
        "#feed .feed-toast.feed-chat:has-text('Bob: good luck')", timeout=3000
    )
    assert ann.page.inner_text("#btn-log .unread") == "1"
    assert "Bob: good luck" in ann.page.inner_text("#feed-live")
    # opening the log reads it: the mark goes, the line is after the moves made
    # before it and before the moves made after it
    ann.page.click("#btn-log")
    assert ann.page.locator("#btn-log .unread").count() == 0
    types = ann.log_types()
    assert "chat" in types
    before = len(ann.obs()["history"])
    seen = ann.version()
    for p in (ann, bob):
        if first_legal_step(p):
            break
    ann.wait_version_above(seen)
    ann.page.wait_for_function(
        "(n) => document.querySelectorAll('#log-list li[data-type]').length > n",
        arg=len(types),
    )
    types = ann.log_types()
    assert types.index("chat") < len(types) - 1, types  # a later move comes after it
    assert before >= 1


def test_chat_in_the_waiting_room_then_first_in_the_tables_log(
    new_player: Any, server: Server
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    res = server.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Ann"})
    code = res["room"]
    res2 = server.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    ann, bob = new_player("Ann"), new_player("Bob")
    for p, r in ((ann, res), (bob, res2)):
        p.page.goto("/")
        p.page.evaluate(
            "([c, t, s]) => localStorage.setItem('unokit.room.' + c, JSON.stringify({token: t, seat: s}))",
            [code, r["token"], r["seat"]],
        )
        p.page.goto(f"/r/{code}")
        p.page.wait_for_selector("body[data-view='room'] #room-chat-input")
    # the box says what it is for; Bob writes, both see it in the waiting room
    assert ann.page.locator("#room-chat-input").evaluate("el => el.labels[0].textContent") == (
        "Chat with the table"
    )
    bob.page.fill("#room-chat-input", "hi all")
    bob.page.press("#room-chat-input", "Enter")
    for p in (ann, bob):
        p.page.wait_for_selector("#room-chat-list li[data-type=chat]:has-text('Bob: hi all')")
    ann.screenshot("waiting-room-chat")
    server.post(f"/api/rooms/{code}/join", {"name": "Cy"})  # the last seat: the deal
    # the table opens with the waiting room's chat first in its log, before the deal
    for p in (ann, bob):
        p.wait_table()
        p.page.wait_for_selector("#log-list li[data-type=chat]:has-text('Bob: hi all')")
        types = p.log_types()
        assert types[0] == "chat" and len(types) > 1, types
    # no toast for a line already read in the waiting room
    assert ann.page.locator("#feed .feed-chat").count() == 0
    assert not ann.errors and not bob.errors, ann.errors + bob.errors


def test_a_half_typed_waiting_room_line_survives_a_redraw(new_player: Any, server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    res = server.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Ann"})
    code = res["room"]
    ann = new_player("Ann")
    ann.page.goto("/")
    ann.page.evaluate(
        "([c, t, s]) => localStorage.setItem('unokit.room.' + c, JSON.stringify({token: t, seat: s}))",
        [code, res["token"], res["seat"]],
    )
    ann.page.goto(f"/r/{code}")
    ann.page.wait_for_selector("body[data-view='room'] #room-chat-input")
    ann.page.fill("#room-chat-input", "half a")
    ann.page.focus("#room-chat-input")
    server.post(f"/api/rooms/{code}/join", {"name": "Bob"})  # the room is drawn again
    ann.page.wait_for_selector(".room-seats li[data-seat='1'].claimed")
    assert ann.page.input_value("#room-chat-input") == "half a"
    assert ann.page.evaluate("() => document.activeElement.id") == "room-chat-input"


def test_the_replay_has_an_exit_no_table_controls_and_plain_words(
    new_player: Any, tmp_path: Any
) -> None:
    from unokit.bots import make_bot
    from unokit.records.record import dumps

    g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=5)
    bots = [make_bot("heuristic", seed=s) for s in range(2)]
    while not g.state.name.endswith("OVER"):
        s = g.to_act
        assert s is not None
        g.apply(bots[s].act(g.observe(s)))
    path = tmp_path / "game.json"
    path.write_text(dumps(g, ["Ann", "Ben"]))
    p = new_player("Ann")
    page = p.page
    page.goto("/")
    page.wait_for_selector("#replay-file")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("body[data-view='replay'] #replay-step")
    # no Draw / UNO! / Sort, no chat box, no next-round bar in a replay
    for sel in ("#act-draw", "#act-uno", "#act-sort", "#chat-input"):
        assert page.locator(f"#view-replay {sel}").is_hidden(), sel
    page.click("#replay-next")
    page.wait_for_selector("body[data-replay-step='1']")
    words = page.inner_text("#replay-command")
    assert words and " PLAY " not in words and not words.startswith("P0"), words
    page.click("#replay-last")
    page.wait_for_selector("#view-replay #round-end:not([hidden])")
    # a jump leaves no toasts or bursts of the steps skipped over
    assert page.locator("#feed .feed-toast, .uno-burst").count() == 0
    assert page.locator("#view-replay #act-newmatch").is_hidden()
    page.keyboard.press("Escape")
    assert page.locator("#view-replay #next-step").is_hidden()
    # the replay bar sits under the top bar, not over it
    bar = page.locator(".replay-bar").bounding_box()
    top = page.locator(".topbar").bounding_box()
    assert bar is not None and top is not None and bar["y"] >= top["y"] + top["height"] - 1
    p.screenshot("replay-end")
    # Exit: back to the lobby, no toasts left over
    page.click("#replay-exit")
    page.wait_for_selector("body[data-view='lobby'] #create-form")
    assert page.locator("#feed .feed-toast").count() == 0


def test_an_unplayable_card_says_why_and_a_revealed_hand_goes_after_the_next_play(
    new_player: Any,
) -> None:
    table = Table(new_player("table"))
    page = table.page
    # Bob (seat 1) to play on R9: Blue 1 does not match
    g = _classic(current=1)
    table.show(g, 1)
    # (aria-disabled: Playwright would not click it, a person can)
    page.locator('#hand .hc[data-card="B1"]').dispatch_event("click")
    page.wait_for_selector("#feed .feed-warn:has-text('Blue 1 does not match Red 9')")
    assert "Blue 1 does not match" in page.inner_text("#feed-live")
    assert table.sent() == []
    # a challenge shows Ann's hand to Bob, until the next card is played
    g = _classic()
    g.apply("P0 PLAY W4 color=G")
    g.apply("P1 CHALLENGE")
    table.show(g, 1, version=2)
    page.wait_for_selector("#reveal:not([hidden])")
    g.apply(next(a for a in g.legal_actions(g.current) if type(a).__name__ in ("Play", "Draw")))
    if type(g.log[-1]).__name__ != "Played":
        g.apply(g.legal_actions(g.current)[0])
    table.show(g, 1, version=3)
    page.wait_for_selector("#reveal", state="hidden")


def test_on_a_phone_the_log_opens_at_the_newest_line(new_player: Any) -> None:
    table = Table(new_player("phone", viewport=PHONE))
    page = table.page
    g = Game.new("classic", 4, seed=3)
    table.show(g, 0)
    for v in range(2, 12):
        _others_act(g, 0, 2)
        if g.state.name.endswith("OVER"):
            break
        table.show(g, 0, version=v)
    page.keyboard.press("l")
    page.wait_for_selector("#log:visible")
    last = page.locator("#log-list li").last.bounding_box()
    box = page.locator("#log-list").bounding_box()
    assert last is not None and box is not None
    assert last["y"] + last["height"] <= box["y"] + box["height"] + 1, (last, box)


def test_a_link_to_no_room_says_so(new_player: Any) -> None:
    p = new_player("lost")
    page = p.page
    page.goto("/r/NOPE!")
    page.wait_for_selector("body[data-view='lobby']")
    page.wait_for_selector("text=There is no room with the code NOPE!")


def test_the_lobby_shows_an_option_error_next_to_the_field_in_plain_words(
    new_player: Any,
) -> None:
    p = new_player("lobby", viewport={"width": 1366, "height": 800})
    page = p.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    page.fill("#create-name", "Ann")
    # a target of 0 points, set while its section is closed
    page.evaluate(
        "() => { const i = document.querySelector('[name=\"opt-targetScore\"]'); i.value = '0'; }"
    )
    page.click("#create-submit")
    note = page.locator("#create-form .field-error")
    note.wait_for(state="visible")
    assert note.inner_text() == "Target score: choose a whole number from 1 to 100000."
    field = page.locator('[name="opt-targetScore"]')
    assert field.is_visible() and field.get_attribute("aria-invalid") == "true"
    assert page.evaluate("() => document.activeElement.name") == "opt-targetScore"
    # right under the field, on screen
    f, n = field.bounding_box(), note.bounding_box()
    assert f is not None and n is not None
    assert 0 <= n["y"] - (f["y"] + f["height"]) <= 40 and n["y"] + n["height"] <= 800
    assert "outside" not in page.inner_text("#create-form")
    assert page.evaluate("() => location.pathname") == "/"  # no room made


def test_the_ready_check_holds_the_next_round_until_every_person_is_ready(
    new_player: Any, server: Server
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    res = server.post(
        "/api/rooms",
        {"variant": "classic", "seats": seats, "name": "Ann", "options": {"handSize": 1}},
    )
    code = res["room"]
    res2 = server.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    ann, bob = new_player("Ann"), new_player("Bob")
    ann.enter(code, res["token"], res["seat"])
    bob.enter(code, res2["token"], res2["seat"])
    for _ in range(200):
        # both pages at the newest version either has: a page behind the other
        # would see the bot still to move while the other person's turn has come
        seen = max(ann.version(), bob.version())
        ann.wait_version_at_least(seen)
        bob.wait_version_at_least(seen)
        if ann.obs()["phase"].endswith("OVER"):
            break
        if not (first_legal_step(ann) or first_legal_step(bob)):
            ann.wait_version_above(seen)
    obs = ann.obs()
    assert obs["phase"] == "ROUND_OVER", obs["phase"]
    version = ann.version()
    ann.page.wait_for_selector("#round-end:not([hidden]) #act-next")
    assert "Ready" in ann.page.inner_text("#act-next")
    ann.page.click("#act-next")
    # Ann waits for Bob (the bot is ready at once); nothing is dealt
    ann.page.wait_for_selector("#round-end [data-ready-note]:has-text('waiting for Bob')")
    bob.page.wait_for_function("() => (window.unokit.state.info.ready || []).includes(0)")
    assert bob.obs()["phase"] == "ROUND_OVER" and ann.version() == version
    assert ann.page.locator("#round-end #act-next").count() == 0
    # Bob is ready too: the next round is dealt for both
    bob.click("#act-next")
    ann.wait_version_above(version)
    # (by its number: with one card each, the bot may go out at once and the new
    # round may already be over again when Ann's page draws it)
    ann.page.wait_for_function("(r) => window.unokit.state.observation.round > r", arg=obs["round"])
    assert ann.obs()["round"] == obs["round"] + 1


def test_a_turn_timer_is_a_countdown_ring(new_player: Any) -> None:
    table = Table(new_player("table"))
    page = table.page
    g = _classic()
    state = _state(g, 1)
    state["info"]["turn_timer"] = 30
    state["remaining"] = 15
    page.evaluate("(s) => window.T.update(s)", state)
    ring = page.locator('.opp[data-seat="0"] .timer-slot svg.timer-ring .ring-fg')
    ring.wait_for()
    offset = float(ring.get_attribute("stroke-dashoffset") or "-1")
    assert 45 <= offset <= 60, offset  # about half of the 30 s left
    assert page.inner_text('.opp[data-seat="0"] .timer-slot').strip().endswith("s")


def test_open_seats_a_bot_plays_have_one_badge_and_their_own_avatar(new_player: Any) -> None:
    table = Table(new_player("table"))
    page = table.page
    g = _classic()
    state = _state(g, 0)
    for s in (1, 2):
        state["info"]["seats"][s].update(
            {"kind": "human", "name": None, "claimed": False, "auto": True}
        )
    page.evaluate("(s) => window.T.update(s)", state)
    for s in (1, 2):
        opp = page.locator(f'.opp[data-seat="{s}"]')
        opp.wait_for()
        assert opp.locator(".badge").count() == 1
        assert opp.locator(".badge").text_content() == "open seat · a bot plays"
        assert opp.locator(".avatar").inner_text() == str(s + 1)
