"""The web game as players expect it (issue 12), in real Chromium: no dead
ends, a phone hand of whole cards, others' actions as toasts and in a live
region, the challenge's colour, presets and how to play, reactions and sound.

Exact positions go through the table module (``Table`` of
test_table_states); the rest through the real server.
"""

from __future__ import annotations

from typing import Any

from unokit import Game

from .conftest import ARTIFACTS, DESKTOP, PHONE, Player, Server, first_legal_step
from .test_table_states import Table, _classic, _state

NEXT_BAR = "#next-step:not([hidden])"


def _round_over(scores: list[int]) -> Game:
    g = _classic(
        options={"targetScore": 100},
        hands=[["R5"], ["B1", "B2", "W4"], ["Y1", "Y2", "Y3"]],
        scores=scores,
    )
    g.apply("P0 PLAY R5")
    return g


def test_round_over_always_leaves_a_visible_next_step(new_player: Any) -> None:
    table = Table(new_player("table"))
    page = table.page
    g = _round_over([10, 20, 30])
    assert g.state.name == "ROUND_OVER"
    table.show(g, 1)
    page.wait_for_selector("#round-end:not([hidden])")
    # closed with its button: the next round is one visible click away
    page.click("#round-hide")
    assert page.locator("#round-end").is_hidden()
    page.wait_for_selector(f"{NEXT_BAR} #act-next-bar")
    assert page.evaluate("() => document.activeElement.id") == "act-next-bar"
    page.click("#act-next-bar")
    assert table.sent() == ["next_round"]
    # the results come back, and Escape closes them the same way
    page.click("#act-results")
    page.wait_for_selector("#round-end:not([hidden])")
    page.keyboard.press("Escape")
    assert page.locator("#round-end").is_hidden()
    assert page.locator(f"{NEXT_BAR} #act-next-bar").is_visible()
    table.player.screenshot("ux-next-round-bar")
    # the match is over: a new match, and the record of the finished one
    g2 = _round_over([90, 20, 30])
    assert g2.state.name == "MATCH_OVER"
    table.show(g2, 1, version=2)
    page.wait_for_selector("#round-end:not([hidden]) .match-line")
    page.keyboard.press("Escape")
    page.wait_for_selector(f"{NEXT_BAR} #act-newmatch-bar")
    page.click("#act-newmatch-bar")
    assert table.sent() == ["new_match"]
    # a spectator sees that it is over, and no button
    table.show(g2, None, version=3)
    page.keyboard.press("Escape")
    assert page.locator(NEXT_BAR).is_visible()
    assert page.locator("#act-newmatch-bar").count() == 0


def test_play_against_bots_in_one_click(new_player: Any) -> None:
    p = new_player("Solo")
    page = p.page
    page.goto("/")
    page.wait_for_selector("#quick-bots")
    for sel in ("#quick-bots", "#create-submit-top"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] + box["height"] <= DESKTOP["height"], sel
    page.click("#quick-bots")  # the only click
    p.wait_table()
    obs = p.obs()
    assert len(obs["hand"]) >= 7 and obs["players"] == 4  # dealt (a first Draw Two adds 2)
    assert page.locator(".opp .badge.bot").count() == 3
    # the focus is on the table, not left behind on the lobby
    assert page.evaluate("() => !!document.activeElement.closest('#view-table, #main')")


def test_phone_lobby_fits_and_a_20_card_hand_is_tappable(new_player: Any) -> None:
    player = new_player("phone", viewport=PHONE)
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    page.click("details.more summary >> nth=0")  # target score, match, scoring, time
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("#btn-lang")  # French words are longer
    page.wait_for_selector("html[lang='fr']")
    page.click("details.more summary >> nth=0")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    for el in page.locator("#create-form input:visible, #create-form select:visible").all():
        box = el.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    player.screenshot("ux-phone-lobby")
    # a hand of 20 cards: rows of whole cards, none outside the screen
    table = Table(player)
    hand = ["R1", "R2", "R3", "R4", "R6", "R7", "R8", "G1", "G2", "G3"]
    hand += ["G4", "G5", "B1", "B2", "B3", "B4", "Y1", "Y2", "Y3", "Y4"]
    g = Game.setup(
        "classic",
        3,
        hands=[hand, ["B5", "B6"], ["Y5", "Y6"]],
        draw=["G8", "G9", "B8"],
        discard=["R9"],
        color="R",
        current=0,
    )
    table.show(g, 0)
    assert page.locator("#hand .hc").count() == 20
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    targets = page.evaluate(
        """() => [...document.querySelectorAll('#hand .hc')].map((b) => {
          b.scrollIntoView({block: 'center'});
          const r = b.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {x: r.left, w: r.width, h: r.height, mine: !!hit && b.contains(hit)};
        })"""
    )
    for t in targets:
        assert t["w"] >= 40 and t["h"] >= 40, t
        assert t["x"] >= 0 and t["x"] + t["w"] <= PHONE["width"], t
    player.screenshot("ux-phone-20-cards")
    # a tap selects; it can be taken back; a second tap plays
    page.locator('#hand .hc[data-card="R3"]').scroll_into_view_if_needed()
    page.tap('#hand .hc[data-card="R3"]')
    page.wait_for_selector('#hand .hc.armed[data-card="R3"]')
    assert table.sent() == []
    page.tap("#act-unarm")
    assert page.locator("#hand .hc.armed").count() == 0
    page.tap('#hand .hc[data-card="R3"]')
    page.tap('#hand .hc[data-card="R3"]')
    assert table.sent() == ["PLAY R3"]
    # or the Play button confirms it
    table.show(g, 0, version=2)
    page.tap('#hand .hc[data-card="R4"]')
    page.tap("#act-play")
    assert table.sent() == ["PLAY R4"]
    # every card on screen is reachable: its centre is the card itself
    assert all(t["mine"] for t in targets), targets


def test_an_opponents_draw_two_is_told_within_3_seconds(new_player: Any) -> None:
    table = Table(new_player("table"))
    page = table.page
    g = _classic(hands=[["RD2", "G2", "G3"], ["B1", "B2", "W4"], ["Y1", "Y2", "Y3"]])
    table.show(g, 1)
    g.apply("P0 PLAY RD2")  # Ann plays a Draw Two on Bob, who draws 2
    table.show(g, 1, version=2)
    page.wait_for_selector("#feed .feed-toast:has-text('Ann played Red Draw Two')", timeout=3000)
    page.wait_for_function(
        "() => /Ann played Red Draw Two/.test(document.querySelector('#feed-live').textContent)"
        " && /You drew 2/.test(document.querySelector('#feed-live').textContent)",
        timeout=3000,
    )
    live = page.locator("#feed-live")
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "log"
    # UNO calls and catches too
    g2 = _classic(hands=[["R5", "G2"], ["B1", "B2", "W4"], ["Y1", "Y2", "Y3"]])
    table.show(g2, 1, version=3)
    g2.apply("P0 UNO")
    table.show(g2, 1, version=4)
    page.wait_for_selector("#feed .feed-toast:has-text('Ann called UNO')", timeout=3000)


def test_a_bot_play_in_a_live_game_is_a_toast(new_player: Any, server: Server) -> None:
    p = new_player("Lou")
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 2
    res = server.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Lou"})
    page = p.page
    p.enter(res["room"], res["token"], res["seat"])
    # act until a bot has played after us: its play is announced
    for _ in range(10):
        page.wait_for_function(
            "() => { const o = window.unokit.state.observation;"
            " return o.current === window.unokit.seat || o.phase.endsWith('OVER'); }"
        )
        if page.locator("#feed .feed-toast:has-text('played')").count():
            break
        if p.obs()["phase"].endswith("OVER"):
            break
        p.click("#act-draw")
        if page.locator("#act-pass:not([hidden])").count():
            p.click("#act-pass")
        page.wait_for_selector("#feed-live p", timeout=3000)
    assert page.locator("#feed-live p").count() >= 1


def test_on_a_phone_the_toasts_sit_under_the_opponents_row(new_player: Any, server: Server) -> None:
    p = new_player("Lou", viewport=PHONE)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 3
    res = server.post("/api/rooms", {"variant": "flip", "seats": seats, "name": "Lou"})
    page = p.page
    p.enter(res["room"], res["token"], res["seat"])
    # measured in one frame: the newest toast (the only one shown on a phone)
    # against the opponents' row
    measure = (
        "() => { const t = [...document.querySelectorAll('#feed .feed-toast')].pop();"
        " if (!t) return null;"
        " const r = (el) => el.getBoundingClientRect();"
        " return {toast: r(t).top, opps: r(document.querySelector('#opponents')).bottom,"
        " right: r(t).right}; }"
    )
    boxes = None
    for _ in range(40):
        boxes = page.evaluate(measure)
        if boxes is not None or p.obs()["phase"].endswith("OVER"):
            break
        seen = p.version()
        if not first_legal_step(p):
            p.wait_version_above(seen)
    assert boxes is not None, "no toast while three bots played"
    assert boxes["toast"] >= boxes["opps"], boxes
    assert boxes["right"] <= PHONE["width"], boxes


def test_challenge_names_the_colour_before_the_wild_and_leaves_the_pile_visible(
    new_player: Any,
) -> None:
    table = Table(new_player("table"))
    page = table.page
    g = _classic()  # the colour in play is red
    g.apply("P0 PLAY W4 color=G")
    table.show(g, 1)
    page.wait_for_selector("#decision:not([hidden]) #act-challenge")
    before = page.locator("#decision .challenge-before")
    assert before.get_attribute("data-color") == "R"
    assert "the colour in force was Red" in before.inner_text()
    pile = page.locator("#discard").bounding_box()
    panel = page.locator("#decision .decision-card").bounding_box()
    assert pile is not None and panel is not None
    overlap = not (
        panel["y"] >= pile["y"] + pile["height"]
        or panel["y"] + panel["height"] <= pile["y"]
        or panel["x"] >= pile["x"] + pile["width"]
        or panel["x"] + panel["width"] <= pile["x"]
    )
    assert not overlap, (pile, panel)
    table.player.screenshot("ux-challenge")


def test_flex_log_power_cards_only_when_they_change(new_player: Any) -> None:
    table = Table(new_player("table"))
    page = table.page
    g = Game.new("flex", 3, seed=5)
    for _ in range(12):
        if g.state.name.endswith("OVER"):
            break
        g.apply(g.legal_actions()[0])
    table.show(g, 0)
    history = g.observe(0).to_dict()["history"]
    changes = 0
    last = None
    for ev in history:
        if ev["type"] == "PowersChanged":
            key = tuple(ev["powers"])
            if key != (last or tuple([True] * len(key))):
                changes += 1
            last = key
    lines = page.locator("#log-list li[data-type='PowersChanged']").count()
    assert lines == changes
    assert "✓ may play flex sides" in page.inner_text("#power-legend")


def test_presets_rules_at_the_table_and_how_to_play(new_player: Any) -> None:
    p = new_player("Host")
    page = p.page
    page.goto("/")
    page.fill("#create-name", "Hugo")
    page.click('.preset[data-preset="party"]')
    page.wait_for_selector('.preset.checked[data-preset="party"]')
    page.click("details.house summary")
    assert page.is_checked('input[name="opt-jumpIn"]') and page.is_checked(
        'input[name="opt-sevenZero"]'
    )
    assert page.locator('select[name="opt-stacking"]').input_value() == "same_symbol"
    # every house rule the server plays is explained in one line
    rules = page.evaluate("() => fetch('/api/meta').then(r => r.json()).then(m => m.house_rules)")
    assert page.locator("details.house .help-line").count() == len(rules) >= 15
    page.click('.preset[data-preset="official"]')
    assert not page.is_checked('input[name="opt-drawUntilPlayable"]')
    assert not page.is_checked('input[name="opt-jumpIn"]')
    page.click('.preset[data-preset="party"]')
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "bot:normal")
    page.click("#create-submit-top")
    p.wait_table()
    assert p.obs()["options"] == {
        "stacking": "same_symbol",
        "jumpIn": True,
        "sevenZero": True,
        "drawUntilPlayable": True,
    }
    assert page.inner_text("#rules-chip") == "Rules: Party"
    page.click("#rules-chip")
    page.wait_for_selector(".howto-panel #howto-house")
    house = page.inner_text("#howto-house")
    assert "Jump-in" in house and "7-0" in house and "Stacking" in house
    # per variant, with the real card faces
    seen = {}
    for v in ("classic", "flip", "flex"):
        page.click(f"[data-howto='{v}']")
        page.wait_for_selector(f".howto-panel[data-variant='{v}']")
        assert page.locator(".howto-cards svg.card").count() >= 5
        seen[v] = page.inner_text(".howto-special")
    assert "dark side" in seen["flip"] and "Power Card" in seen["flex"]
    p.screenshot("ux-howto")
    # in French
    page.keyboard.press("Escape")
    page.click("#btn-lang")
    page.click("#btn-howto")
    page.wait_for_selector(".howto-panel")
    assert "Comment jouer" in page.inner_text("#howto-title")
    assert "Interception" in page.inner_text("#howto-house")
    page.click("#howto-close")


def test_first_game_hint_can_be_dismissed_for_good(new_player: Any, server: Server) -> None:
    p = new_player("New")
    page = p.page
    page.goto("/")
    page.click("#quick-bots")
    p.wait_table()
    # The hint is about playing from the hand, so it steps aside while a
    # decision of ours is pending (a first card's wild colour, a challenge of a
    # bot's Wild Draw Four): answer any such decision first.
    deciding = "document.querySelector('#view-table .table.deciding')"
    hint = "document.querySelector('#hint-layer')?.checkVisibility()"
    for _ in range(20):
        page.wait_for_function(f"() => {deciding} || {hint}")
        if page.locator("#hint-layer").is_visible():
            break
        page.click("#decision .choices button >> nth=0")
        page.wait_for_function(f"() => !{deciding} || {hint}")
    page.click("#hint-dismiss")
    assert page.locator("#hint-layer").count() == 0
    page.reload()
    p.wait_table()
    assert page.locator("#hint-layer").count() == 0


def test_reactions_sound_and_mute(new_player: Any, server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    res = server.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Ann"})
    code = res["room"]
    res2 = server.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    players = []
    for name, r in (("Ann", res), ("Bob", res2)):
        p = new_player(name)
        p.enter(code, r["token"], r["seat"])
        players.append(p)
    ann, bob = players
    ann.page.click("[data-react='🎉']")
    bob.page.wait_for_selector("#feed .feed-toast:has-text('Ann: 🎉')", timeout=3000)
    assert "Ann: 🎉" in bob.page.inner_text("#feed-live")
    # the mute switch is kept across a reload
    assert bob.page.get_attribute("#act-mute", "aria-pressed") == "false"
    bob.page.click("#act-mute")
    assert bob.page.get_attribute("#act-mute", "aria-pressed") == "true"
    bob.page.reload()
    bob.wait_table()
    assert bob.page.get_attribute("#act-mute", "aria-pressed") == "true"


JS_MOUNT_SEATS = """async () => {
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
    chat: () => {},
    takeSeat: (s) => window.sent.push('take ' + s),
    handOver: (s, to) => window.sent.push('hand ' + s + ' ' + to),
    comeBack: () => window.sent.push('back'),
  });
  document.addEventListener('keydown', (e) => { if (window.T.key(e)) e.preventDefault(); });
  return true;
}"""


def test_seat_controls_take_hand_over_and_come_back(new_player: Any) -> None:
    player = new_player("seats")
    page = player.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    assert page.evaluate(JS_MOUNT_SEATS)

    def show(g: Game, seat: int | None, version: int, **seat_changes: Any) -> None:
        st = _state(g, seat, version)
        for s, changes in seat_changes.items():
            st["info"]["seats"][int(s[1:])].update(changes)
        page.evaluate("(s) => { window.sent = []; window.T.update(s); }", st)

    g = _classic()
    # a spectator sees an open seat (played by a bot meanwhile) and takes it
    show(g, None, 1, s2={"kind": "human", "claimed": False, "name": None, "auto": True})
    page.wait_for_selector('.opp[data-seat="2"] .badge.auto')
    page.click('.opp[data-seat="2"] [data-take-seat]')
    assert page.evaluate("() => window.sent") == ["take 2"]
    # a player whose seat a bot plays takes it back
    show(g, 1, 2, s1={"auto": True})
    page.click("#act-back")
    assert page.evaluate("() => window.sent") == ["back"]
    # between rounds the host gives a seat to a bot or opens it; never during a round
    show(g, 0, 3)
    assert page.locator("[data-hand-over]").count() == 0
    over = _round_over([10, 20, 30])
    show(over, 0, 4)
    page.keyboard.press("Escape")
    page.click('[data-hand-over="1:bot"]')
    page.click('[data-hand-over="2:open"]')
    assert page.evaluate("() => window.sent") == ["hand 1 bot", "hand 2 open"]
    # nobody else gets those buttons
    show(over, 1, 5)
    assert page.locator("[data-hand-over]").count() == 0


def test_card_animations_only_without_reduced_motion(browser: Any, server: Server) -> None:
    seen = {}
    for motion in ("no-preference", "reduce"):
        ctx = browser.new_context(viewport=DESKTOP, base_url=server.base, reduced_motion=motion)
        try:
            player = Player(ctx.new_page(), motion)
            table = Table(player)
            g = _classic(hands=[["RD2", "G2", "G3"], ["B1", "B2", "W4"], ["Y1", "Y2", "Y3"]])
            table.show(g, 1)
            g.apply("P0 PLAY RD2")
            # the flying card is added while the new state is shown
            seen[motion] = player.page.evaluate(
                "(s) => { window.T.update(s); return document.querySelectorAll('.flying-card').length; }",
                _state(g, 1, 2),
            )
            assert not player.errors, player.errors
        finally:
            ctx.close()
    assert seen == {"no-preference": 1, "reduce": 0}


JS_GLYPH_RECT = """([sel, glyph]) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const i = n.data.indexOf(glyph);
    if (i < 0) continue;
    const r = document.createRange();
    r.setStart(n, i);
    r.setEnd(n, i + glyph.length);
    const b = r.getBoundingClientRect();
    return {x: b.x, y: b.y, width: b.width, height: b.height};
  }
  return null;
}"""


def _colour_share(page: Any, sel: str, glyph: str, name: str) -> float:
    """The share of the glyph's pixels that are clearly coloured (an outline
    glyph is drawn in the text's one grey-white colour)."""
    import io

    from PIL import Image

    page.wait_for_function(f"(a) => !!({JS_GLYPH_RECT})(a)", arg=[sel, glyph], timeout=3000)
    rect = page.evaluate(JS_GLYPH_RECT, [sel, glyph])
    png = page.screenshot(clip=rect, animations="disabled")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.png").write_bytes(png)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    px = [img.getpixel((x, y)) for x in range(w) for y in range(h)]
    coloured = [p for p in px if max(p) - min(p) > 80]
    return len(coloured) / len(px)


def test_reaction_emoji_are_in_colour_in_the_bubble_and_the_toast(
    new_player: Any, server: Server
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    res = server.post("/api/rooms", {"variant": "classic", "seats": seats, "name": "Ann"})
    code = res["room"]
    res2 = server.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    ann, bob = new_player("Ann"), new_player("Bob")
    ann.enter(code, res["token"], res["seat"])
    bob.enter(code, res2["token"], res2["seat"])
    for emoji in ("👍", "😂"):
        ann.page.click(f"[data-react='{emoji}']")
        toast = f"#feed .feed-toast:has-text('{emoji}')"
        bob.page.wait_for_selector(toast, timeout=3000)
        shares = {
            "toast": _colour_share(bob.page, "#feed .feed-react:last-child", emoji, "react-toast"),
            "bubble": _colour_share(ann.page, ".react-bubble", emoji, "react-bubble"),
        }
        # a colour emoji (yellow faces and hands) fills a good part of its box
        assert all(s > 0.15 for s in shares.values()), (emoji, shares)
