"""Rooms beyond one table of friends, in real Chromium (issue 12): a public
room joined from a second browser, quick play, a seat whose player leaves
mid-round played by a bot and handed back, and a finished game exported,
replayed in the page and opened by ``unokit replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import unokit.records.record

from .conftest import DESKTOP, Player, Server, first_legal_step, start_server, stop_server


def _seat(p: Player, code: str, res: dict[str, Any]) -> None:
    p.page.goto("/")
    p.page.evaluate(
        "([c, t, s]) => { localStorage.setItem('unokit.room.' + c, JSON.stringify({token: t, seat: s}));"
        " localStorage.setItem('unokit.rooms', JSON.stringify([{code: c, variant: 'classic'}])); }",
        [code, res["token"], res["seat"]],
    )
    p.page.goto(f"/r/{code}")
    p.wait_table()


def test_public_room_joined_from_a_second_browser_and_quick_play(
    new_player: Any, server: Server
) -> None:
    ann = new_player("Ann")
    page = ann.page
    page.goto("/")
    page.fill("#create-name", "Ann")
    page.select_option("#create-players", "3")
    page.select_option("#seat-1", "human")
    page.select_option("#seat-2", "bot:normal")
    page.check("#create-public")
    page.click("#create-submit-top")
    page.wait_for_selector("#room-start")
    code = page.evaluate("() => location.pathname.split('/').pop()")
    # another browser: the room is on its home page, with its game and free seat
    bob = new_player("Bob")
    bob.page.goto("/")
    row = bob.page.locator(f'#public-rooms li[data-room="{code}"]')
    row.wait_for()
    assert "Classic UNO" in row.inner_text() and "1 free" in row.inner_text()
    bob.page.click(f'[data-join-public="{code}"]')
    bob.page.fill("#join-name", "Bob")
    bob.page.click("#join-submit")
    bob.wait_table()
    ann.wait_table()
    assert bob.seat() == 1
    assert bob.state()["info"]["seats"][0]["name"] == "Ann"  # type: ignore[index]
    # the full room leaves the list; quick play opens a new table with bots
    cy = new_player("Cy")
    cy.page.goto("/")
    cy.page.fill("#create-name", "Cy")
    cy.page.click("#quick-play")
    cy.wait_table()
    info = cy.state()["info"]  # type: ignore[index]
    assert info["room"] != code and info["public"] and info["players"] == 4
    cy.page.wait_for_selector(".opp .badge.auto >> nth=2")
    assert cy.page.locator(".opp .badge.auto").count() == 3  # bots keep the seats warm
    # and the next quick player sits at that table (a bot plays for them until the round ends)
    dee = new_player("Dee")
    dee.page.goto("/")
    dee.page.fill("#create-name", "Dee")
    dee.page.click("#quick-play")
    dee.wait_table()
    assert dee.state()["info"]["room"] == info["room"]  # type: ignore[index]
    cy.page.wait_for_selector(f'.opp[data-seat="{dee.seat()}"] .opp-name:has-text("Dee")')


@pytest.fixture
def quick_away_server(tmp_path: Path) -> Iterator[Server]:
    """A server on which a seat left for 1 second is played by a bot."""
    srv = start_server(tmp_path, env={"UNOKIT_AWAY_GRACE": "1"})
    try:
        yield srv
    finally:
        stop_server(srv)


def test_a_seat_left_mid_round_is_played_by_a_bot_and_handed_back(
    browser: Any, quick_away_server: Server
) -> None:
    srv = quick_away_server
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    res = srv.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Ann"})
    code = res["room"]
    res_bob = srv.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    contexts = []
    players: list[Player] = []

    def open_player(name: str, r: dict[str, Any]) -> Player:
        ctx = browser.new_context(viewport=DESKTOP, base_url=srv.base, reduced_motion="reduce")
        contexts.append(ctx)
        p = Player(ctx.new_page(), name)
        players.append(p)
        _seat(p, code, r)
        return p

    try:
        ann = open_player("Ann", res)
        bob = open_player("Bob", res_bob)
        assert ann.page.locator('.opp[data-seat="1"] .badge.auto').count() == 0
        bob_ctx = contexts[1]
        players.remove(bob)
        bob_ctx.close()  # Bob leaves in the middle of the round
        ann.page.wait_for_selector('.opp[data-seat="1"] .badge.auto')
        left_at = len(ann.obs()["history"])
        round_no = ann.obs()["round"]
        # the bot plays Bob's turns: Ann plays hers until Bob's seat has acted
        for _ in range(60):
            obs = ann.obs()
            if obs["round"] != round_no or obs["phase"].endswith("OVER"):
                break
            if any(ev.get("seat") == 1 for ev in obs["history"][left_at:]):
                break
            seen = ann.version()
            if not first_legal_step(ann):
                ann.wait_version_above(seen)
        obs = ann.obs()
        assert obs["round"] != round_no or any(
            ev.get("seat") == 1 for ev in obs["history"][left_at:]
        ), "nobody played Bob's seat"
        # Bob comes back: the seat is his again
        bob2 = open_player("Bob again", res_bob)
        ann.page.wait_for_selector('.opp[data-seat="1"] .badge.auto', state="detached")
        assert bob2.page.locator("#me-bar .badge.auto").count() == 0
        assert bob2.seat() == 1
        for p in players:
            assert not p.errors, p.errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_finished_game_is_exported_replayed_and_opens_in_unokit_replay(
    new_player: Any, server: Server, tmp_path: Path
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "normal"}]
    res = server.post(
        "/api/rooms",
        {
            "variant": "classic",
            "seats": seats,
            "name": "Ann",
            "options": {"matchMode": "single_round"},
        },
    )
    code = res["room"]
    ann = new_player("Ann")
    _seat(ann, code, res)
    page = ann.page
    for _ in range(300):
        if ann.obs()["phase"] == "MATCH_OVER":
            break
        seen = ann.version()
        if not first_legal_step(ann):
            ann.wait_version_above(seen)
    assert ann.obs()["phase"] == "MATCH_OVER"
    page.wait_for_selector("#round-end:not([hidden]) #act-record")
    with page.expect_download() as dl:
        page.click("#act-record")
    path = tmp_path / "game.json"
    dl.value.save_as(str(path))
    text = path.read_text()
    rec = json.loads(text)
    assert rec["unokit_record"] == 2, rec
    assert [s["name"] for s in rec["meta"]["seats"]] == ["Ann", "Ben"]
    assert rec["meta"]["result"]["match_over"]
    # the standard's validator accepts it (schema and full replay)
    check = subprocess.run(
        [sys.executable, "-m", "unokit", "record", "validate", str(path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    # the same file in the terminal viewer
    out = subprocess.run(
        [sys.executable, "-m", "unokit", "replay", str(path), "--plain", "--at", "0"],
        input="go 1000\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    # the home page lists the finished game; its replay steps through in the page
    page.click(".brand")
    page.wait_for_selector("#history [data-replay]")
    assert "Classic UNO" in page.inner_text("#history")
    page.click("#history [data-replay]")
    page.wait_for_selector("body[data-view='replay'] #replay-step")
    assert page.inner_text("#replay-step").startswith("Step 0 of")
    # the table draws the step's hand after the step label changes: wait for it
    # (expect retries until the count holds or its timeout ends). Step 0 is the
    # deal with its start card applied: a Draw Two there leaves the first player
    # 9 cards, so the count comes from the record, not a constant.
    dealt = len(unokit.records.record.loads(text).start().observe(res["seat"]).hand)
    expect(page.locator("#view-replay #hand .hc")).to_have_count(dealt)
    page.click("#replay-next")
    page.wait_for_selector("body[data-replay-step='1']")
    page.click("#replay-last")
    page.wait_for_selector("#view-replay #round-end:not([hidden])")
    page.click("#replay-prev")
    page.click("#replay-first")
    page.wait_for_selector("body[data-replay-step='0']")
    ann.screenshot("ux-replay")
    # the downloaded file opens from disk too
    page.click(".brand")
    page.wait_for_selector("#replay-file")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("body[data-view='replay'] #replay-step")
    assert page.inner_text("#replay-step").startswith("Step 0 of")
