"""Classic UNO and UNO Flex in the browser against bots, for several turns each:
the Classic game entirely with the keyboard (with a page reload in the middle
that must give back the same seat and hand, and a switch to French), the Flex
game with the mouse using flex sides (side choice, target choice, Power Cards).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import PHONE, Player, Server

TURNS = 8
MAX_STEPS = 400


def _open_room(server: Server, player: Player, variant: str, bots: int, **extra: Any) -> str:
    """Create a room through the REST API and open it with the creator's seat token."""
    res = server.post(
        "/api/rooms",
        {
            "variant": variant,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * bots,
            "name": player.name,
            **extra,
        },
    )
    page = player.page
    page.goto("/")
    page.evaluate(
        "([c, t, s]) => localStorage.setItem('unokit.room.' + c, "
        "JSON.stringify({token: t, seat: s, variant: 'x', name: 'x'}))",
        [res["room"], res["token"], res["seat"]],
    )
    page.goto(f"/r/{res['room']}")
    player.wait_table()
    return str(res["room"])


def _wait_decision(player: Player) -> dict[str, Any]:
    """Wait until it is this seat's move (or the round is over); return the observation."""
    player.page.wait_for_function(
        """() => {
          const o = window.unokit?.state?.observation;
          if (!o) return false;
          if (o.phase === 'ROUND_OVER' || o.phase === 'MATCH_OVER') return true;
          return o.legal.some((c) => !/ (UNO|CATCH)( |$)/.test(c)) ||
                 o.legal.some((c) => / CATCH /.test(c));
        }"""
    )
    return player.obs()


def _simple_step(obs: dict[str, Any], prefer_flex: bool) -> tuple[str, str]:
    """A plain policy: catch, call UNO before the second-to-last card, play
    (a flex side first when asked), else draw and keep."""
    legal = [c.split(None, 1)[1] for c in obs["legal"]]
    catches = [c for c in legal if c.startswith("CATCH ")]
    if catches:
        return ("catch", catches[0].split()[1])
    phase = obs["phase"]
    if phase == "AWAIT_COLOR":
        return ("color", next(c for c in legal if c.startswith("COLOR ")).split()[1])
    if phase == "AWAIT_CHALLENGE":
        return ("accept", "") if "ACCEPT" in legal else ("draw", "")
    plays = [c for c in legal if c.startswith("PLAY ")]
    if phase == "AWAIT_DRAWN":
        return ("play", plays[0]) if plays else ("pass", "")
    if len(obs["hand"]) == 2 and "UNO" in legal and plays:
        return ("uno", "")
    if prefer_flex:
        flex = [c for c in plays if "side=flex" in c]
        if flex:
            return ("play", flex[0])
    if plays:
        return ("play", plays[0])
    return ("draw", "")


def _play_turns(player: Player, turns: int, keyboard: bool, prefer_flex: bool = False) -> int:
    """Play until `turns` of this seat's decisions have been made; returns how many."""
    done = 0
    for _ in range(MAX_STEPS):
        obs = _wait_decision(player)
        if obs["phase"] in ("ROUND_OVER", "MATCH_OVER"):
            player.page.wait_for_selector("#round-end:not([hidden]) .score-table")
            player.screenshot(f"{obs['variant']}-round-end")
            player.act(lambda: player.page.keyboard.press("n"))
            continue
        kind, arg = _simple_step(obs, prefer_flex)
        if keyboard and kind == "play" and arg:
            # keyboard: arrows to the card, Enter, then number keys in the choice panel
            _keyboard_play(player, arg)
        else:
            player.step(kind, arg, keyboard=keyboard)
        done += 1
        if done >= turns:
            return done
    return done


def _keyboard_play(player: Player, command: str) -> None:
    """Move the focus to the card with the arrow keys only, then play it."""
    card = command.split()[1]
    page = player.page
    if not page.evaluate("() => document.activeElement?.classList.contains('hc')"):
        page.keyboard.press("ArrowRight")  # enters the hand on its first playable card
    for _ in range(60):
        if page.evaluate("(c) => document.activeElement?.dataset.card === c", card):
            break
        page.keyboard.press("ArrowRight")
    else:
        raise AssertionError(f"the arrow keys never reached {card}")
    player.play(command, keyboard=True)


def test_classic_by_keyboard_with_reload_and_french(new_player: Any, server: Server) -> None:
    alice = new_player("Alice")
    _open_room(
        server, alice, "classic", bots=3, options={"sevenZero": True, "stacking": "escalate"}
    )
    page = alice.page
    assert page.locator(".opp").count() == 3
    assert page.locator(".opp .badge.bot").count() == 3
    first_version = alice.version()
    made = _play_turns(alice, TURNS // 2, keyboard=True)
    assert made == TURNS // 2
    alice.screenshot("classic-desktop")

    # ---- reload in the middle of the game: same seat, same hand ----------------
    # (at this seat's move the game waits for it, so nothing changes meanwhile)
    _wait_decision(alice)
    before = alice.state()
    assert before is not None
    page.reload()
    alice.wait_table()
    alice.wait_version_at_least(before["version"])
    after = alice.state()
    assert after is not None
    assert after["seat"] == before["seat"]
    assert after["version"] == before["version"]
    assert after["obs"]["hand"] == before["obs"]["hand"]
    shown = page.eval_on_selector_all("#hand .hc", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(after["obs"]["hand"])
    alice.screenshot("classic-after-reload")

    # ---- French ------------------------------------------------------------------
    page.click("#btn-lang")
    page.wait_for_selector("html[lang='fr']")
    assert page.inner_text("#log-title") == "Journal"
    assert page.inner_text("#act-draw").split()[0] in (
        "Piocher",
        "Prendre",
    )  # "Take N" when stacked
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log-list li')].some("
        "(li) => /a joué|avez joué|a pioché|avez pioché|manche/.test(li.textContent))"
    )
    alice.screenshot("classic-french")
    made += _play_turns(alice, TURNS // 2, keyboard=True)
    page.click("#btn-lang")
    page.wait_for_selector("html[lang='en']")
    assert page.inner_text("#log-title") == "Game log"
    assert page.inner_text("#act-draw").split()[0] in ("Draw", "Take")
    assert made >= TURNS
    assert alice.version() > first_version

    # ---- the help overlay lists the keys -------------------------------------------
    page.keyboard.press("?")
    page.wait_for_selector("#help:not([hidden]) .keys")
    assert page.locator("#help .keys dt").count() >= 10
    page.keyboard.press("Escape")
    page.wait_for_selector("#help", state="hidden")


def test_flex_flex_sides_and_power_cards(new_player: Any, server: Server) -> None:
    bea = new_player("Béa")
    _open_room(server, bea, "flex", bots=3)
    page = bea.page
    # every player's Power Card is on the table (three opponents and me)
    page.wait_for_selector(".me-info .power")
    assert page.locator(".opp .power").count() == 3
    shots: set[str] = set()
    turns = 0
    flex_plays = 0
    for _ in range(MAX_STEPS):
        obs = _wait_decision(bea)
        if obs["phase"] in ("ROUND_OVER", "MATCH_OVER"):
            bea.act(lambda: page.click("#act-next, #act-newmatch"))
            continue
        kind, arg = _simple_step(obs, prefer_flex=True)
        if kind == "play" and "side=flex" in arg:
            card = arg.split()[1]
            options = [c for c in obs["legal"] if c.split()[1:3] == ["PLAY", card]]
            regular = [c for c in options if "side=flex" not in c]
            before = bea.version()
            page.locator(f'#hand .hc[data-card="{card}"]').first.click(position={"x": 8, "y": 40})
            if regular:
                # both sides are legal: the side choice comes first
                page.wait_for_selector('#decision [data-choose="side"][data-value="flex"]')
                if "side" not in shots:
                    bea.screenshot("flex-side-choice")
                    shots.add("side")
                page.click('#decision [data-choose="side"][data-value="flex"]')
            kw = dict(w.split("=", 1) for w in arg.split()[2:])
            if "color" in kw and bea.version() == before:
                if page.locator('#decision [data-choose="color"]').count():
                    page.click(f'#decision [data-choose="color"][data-value="{kw["color"]}"]')
            if "target" in kw and bea.version() == before:
                page.wait_for_selector('#decision [data-choose="target"]')
                if "target" not in shots:
                    bea.screenshot("flex-target-choice")
                    shots.add("target")
                page.click(f'#decision [data-choose="target"][data-value="{kw["target"]}"]')
            bea.wait_version_above(before)
            flex_plays += 1
            # a flex side turns the player's Power Card red (unless all were red: reset)
            seat = bea.seat()
            powers = bea.obs()["powers"]
            if powers[seat] == "X":
                page.wait_for_selector(".me-info .power.power-x")
        else:
            bea.step(kind, arg)
        turns += 1
        if turns >= TURNS and flex_plays >= 1:
            break
    assert turns >= TURNS
    assert flex_plays >= 1, "no flex side was ever playable"
    bea.screenshot("flex-desktop")
    assert page.locator("#log-list li[data-type='Played']").count() >= 1


def test_classic_on_a_phone(new_player: Any, server: Server) -> None:
    zoe = new_player("Zoé", viewport=PHONE)
    _open_room(server, zoe, "classic", bots=5)
    page = zoe.page
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator(".opp").count() == 5
    made = _play_turns(zoe, 4, keyboard=False)
    assert made == 4
    zoe.screenshot("classic-phone")
    # the log opens as a drawer over the table and closes again
    page.click("#btn-log")
    page.wait_for_selector("#log-list li")
    zoe.screenshot("classic-phone-log")
    # five bots play on meanwhile: if one went out, the results panel now
    # covers the table; a player closes it first, as the page offers
    for _ in range(3):
        if page.locator("#round-end:not([hidden])").count():
            page.click("#round-hide")
        try:
            page.click("#log-close", timeout=3000)
            break
        except PlaywrightTimeoutError:  # the round ended just then: close its panel
            continue
    page.wait_for_selector("#log", state="hidden")


def test_match_over_and_new_match(new_player: Any, server: Server) -> None:
    """A one-point match: the first round ends it; the scoreboard names the
    winner and "New match" deals a fresh match with the same seats."""
    ann = new_player("Ann")
    _open_room(server, ann, "classic", bots=1, options={"targetScore": 1})
    page = ann.page
    for _ in range(MAX_STEPS):
        obs = _wait_decision(ann)
        if obs["phase"] == "MATCH_OVER":
            break
        if obs["phase"] == "ROUND_OVER":  # a blocked round scores nothing: deal again
            ann.click("#act-next")
            continue
        kind, arg = _simple_step(obs, prefer_flex=False)
        ann.step(kind, arg)
    else:
        raise AssertionError("the match did not end")
    page.wait_for_selector("#round-end:not([hidden]) .match-line")
    winners = ann.obs()["match_winners"]
    assert len(winners) == 1
    line = page.inner_text("#round-end .match-line")
    assert ("You win" in line) if winners == [ann.seat()] else ("wins the match" in line)
    assert page.locator("#round-end .sb-list li").count() == 2
    ann.screenshot("classic-match-over")
    state = ann.state()
    assert state is not None
    match = state["info"]["match"]
    ann.click("#act-newmatch")
    page.wait_for_function(
        "(m) => window.unokit.state.info.match === m + 1 && "
        "window.unokit.state.observation.round === 1",
        arg=match,
    )
    assert ann.obs()["scores"] == [0, 0]
    page.wait_for_selector("#round-end", state="hidden")


def test_server_restart_gives_back_the_seat(browser: Any, tmp_path: Any) -> None:
    """The server stops mid-game and starts again on the same database: the
    page says it is reconnecting, then shows the same seat and hand."""
    from .conftest import DESKTOP, start_server, stop_server

    srv = start_server(tmp_path)
    port = int(srv.base.rsplit(":", 1)[1])
    ctx = browser.new_context(viewport=DESKTOP, base_url=srv.base, reduced_motion="reduce")
    try:
        eve = Player(ctx.new_page(), "Eve")
        _open_room(srv, eve, "flip", bots=2)
        _play_turns(eve, 2, keyboard=False)
        _wait_decision(eve)
        before = eve.state()
        assert before is not None
        stop_server(srv)
        eve.page.wait_for_selector("#conn:not([hidden])")
        eve.screenshot("reconnecting")
        srv = start_server(tmp_path, port=port)
        eve.page.wait_for_selector("#conn", state="hidden", timeout=30_000)
        eve.wait_version_at_least(before["version"])
        after = eve.state()
        assert after is not None
        assert after["seat"] == before["seat"]
        assert after["version"] == before["version"]
        assert after["obs"]["hand"] == before["obs"]["hand"]
        # and the game goes on
        _play_turns(eve, 1, keyboard=False)
        # a closed connection logs a console error in Chromium; nothing else may
        assert all("WebSocket" in e or "ERR_CONNECTION_REFUSED" in e for e in eve.errors), (
            eve.errors
        )
    finally:
        ctx.close()
        stop_server(srv)


def test_host_fills_empty_seats_with_bots(new_player: Any) -> None:
    """Create a room with open seats through the form, then start it at once:
    the open seats become bots of the chosen level and the table appears."""
    host = new_player("Hugo")
    page = host.page
    page.goto("/")
    page.fill("#create-name", "Hugo")
    page.click('.variant-tile[data-variant="flex"]')
    page.select_option("#create-players", "4")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "human")
    page.click('.preset[data-preset="custom"]')  # the house rules one by one
    page.check('input[name="opt-jumpIn"]')
    page.click("details.more:has(input[name='opt-targetScore']) summary")
    page.fill('input[name="opt-targetScore"]', "250")
    page.click("#create-submit")
    page.wait_for_selector("#room-start")
    assert page.locator(".room-seats .seat-row.open").count() == 3
    # the settings chosen in the form are the room's
    settings = page.inner_text(".opts")
    assert "250" in settings and "Jump-in" in settings
    page.select_option("#room-start-level", "easy")
    page.click("#room-start")
    host.wait_table()
    assert page.locator(".opp .badge.bot").count() == 3
    info = host.state()
    assert info is not None
    assert [s["level"] for s in info["info"]["seats"][1:]] == ["easy"] * 3
    assert info["obs"]["options"] == {"targetScore": 250, "jumpIn": True}
