"""House rules in the browser (issue 27): the presets of the rules registry in
the lobby, every rule explained with an example, a custom set remembered and
shared as a link, and at the table the rules as chips, teams (partner, team
scores), where a pending draw goes and a player out of the match greyed.

The presets come from /api/meta, so a preset the engine does not play yet
(Crazy and Merciless until multiPlay and mercy are played) is checked to be
shown disabled, and is played like the others as soon as it is playable.
Screenshots: artifacts/e2e/house-*.png.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from unokit import Game

from .conftest import Player, Server, first_legal_step
from .test_table_states import Table, _state

DRAW_BODIES = ("D2", "W4")


def _body(card: str) -> str:
    return card[1:] if card[:1] in ("R", "Y", "G", "B") else card


def deflections(history: list[dict[str, Any]]) -> int:
    """Reverse or Skip plays that passed a pending draw on (Classic, §6.7):
    a Skip/Reverse played while a draw card's penalty is still untaken."""
    pending = False
    count = 0
    for ev in history:
        if ev["type"] == "Played":
            body = _body(ev["card"])
            if body in DRAW_BODIES:
                pending = True
            elif pending and body in ("S", "R"):
                count += 1
            else:
                pending = False
        elif ev["type"] == "Drew" and ev["reason"] in ("stack", "penalty", "challenge"):
            pending = False
    return count


def house_step(p: Player) -> bool:
    """One move of this seat: deflect a pending draw when it can, play a draw
    card when it can (someone may deflect it), else the first legal move."""
    obs = p.obs()
    if obs["phase"].endswith("OVER") or obs["current"] != p.seat():
        return False
    # single-card plays (a multi-play, once played, needs more than one click)
    plays = [
        c.split(None, 1)[1]
        for c in obs["legal"]
        if " PLAY " in c and all("=" in w for w in c.split()[3:]) and "+" not in c.split()[2]
    ]
    if obs.get("pending"):
        deflect = [c for c in plays if _body(c.split()[1]) in ("S", "R")]
        if deflect:
            p.play(deflect[0])
            return True
    else:
        draws = [c for c in plays if _body(c.split()[1]) in DRAW_BODIES]
        if draws:
            p.play(draws[0])
            return True
    if plays:
        p.play(plays[0])
        return True
    return first_legal_step(p)


def play_until(p: Player, done: Any, max_steps: int = 400) -> dict[str, Any]:
    """Play this seat (bots play the others) until ``done(obs)``, starting the
    next round or match when one ends; bounded in steps."""
    for _ in range(max_steps):
        seen = p.version()  # before the observation: a newer state ends the wait below
        obs = p.obs()
        if done(obs):
            return obs
        if obs["phase"] in ("ROUND_OVER", "MATCH_OVER"):
            p.page.keyboard.press("n")
            p.wait_version_above(seen)
            continue
        if not house_step(p):
            p.wait_version_above(seen)
    raise AssertionError(f"not reached in {max_steps} steps: {p.obs()['phase']}")


def _meta(server: Server) -> dict[str, Any]:
    return server.get("/api/meta")  # type: ignore[no-any-return]


def _create(p: Player, preset: str | None = None) -> None:
    page = p.page
    page.fill("#create-name", "Hugo")
    page.click('.variant-tile[data-variant="classic"]')
    page.select_option("#create-players", "4")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "bot:easy")
    if preset is not None:
        page.click(f'.preset[data-preset="{preset}"]')
        page.wait_for_selector(f'.preset.checked[data-preset="{preset}"]')
    page.click("#create-submit-top")
    p.wait_table()


def _chips(p: Player) -> list[str]:
    return list(
        p.page.eval_on_selector_all("#rule-chips .rule-chip", "els => els.map(e => e.dataset.rule)")
    )


def test_each_preset_of_the_registry_in_one_click(new_player: Any, server: Server) -> None:
    meta = _meta(server)
    names = [x["name"] for x in meta["presets"]]
    assert names == ["Official", "Party", "Crazy", "Merciless"]
    defaults = {k: v["default"] for k, v in meta["options"].items()}
    for preset in meta["presets"]:
        key = preset["name"].lower()
        p = new_player(f"preset-{key}")
        page = p.page
        page.goto("/")
        tile = page.locator(f'.preset[data-preset="{key}"]')
        if not preset["playable"]:
            # shown with a word, not chosen, and nothing changes when clicked
            assert tile.get_attribute("aria-disabled") == "true"
            assert "Not playable yet" in tile.inner_text()
            assert tile.locator("input").is_disabled()
            assert preset["why"] and "not implemented" in preset["why"]
            before = page.locator(".preset.checked").get_attribute("data-preset")
            tile.click(force=True)
            assert page.locator(".preset.checked").get_attribute("data-preset") == before
            p.screenshot(f"house-lobby-{key}-disabled")
            continue
        _create(p, key)
        obs = p.obs()
        want = {k: v for k, v in preset["options"].items() if defaults.get(k) != v}
        assert obs["options"] == want
        # one chip per rule switched on, and the preset's name on the rules button
        assert sorted(_chips(p)) == sorted(want)
        label = page.inner_text("#rules-chip")
        assert label == ("Official rules" if not want else f"Rules: {preset['name']}"), label
        if "deflect" in want:  # Crazy, Merciless: play until a deflection
            play_until(p, lambda o: deflections(o["history"]) > 0)
        p.screenshot(f"house-table-{key}")


def test_custom_set_teams_and_a_deflection_at_the_table(new_player: Any) -> None:
    """A custom set (teams, deflect, shuffled seats) chosen rule by rule: the
    table shows its chips, the seats in the shuffled order with the partner
    marked, the team scores after a team wins a round, and where a pending
    draw goes; play goes on until a deflection has happened."""
    p = new_player("custom")
    page = p.page
    page.goto("/")
    page.click('.preset[data-preset="custom"]')
    page.select_option('select[name="opt-teams"]', "pairs")
    page.select_option('select[name="opt-deflect"]', "both")
    page.check('input[name="opt-shuffleSeats"]')
    # every rule has its line, and its "?" shows an example
    rules = page.locator("details.house .house-rule")
    assert rules.count() == len(_meta_rules(page)) >= 15
    page.click('.rule-why[data-example="deflect"]')
    assert "Skip of the colour" in page.inner_text("#example-deflect")
    p.screenshot("house-lobby-custom")
    _create(p)
    obs = p.obs()
    assert obs["options"] == {"deflect": "both", "teams": "pairs", "shuffleSeats": True}
    assert sorted(_chips(p)) == ["deflect", "shuffleSeats", "teams"]
    me = p.seat()
    (mine,) = [t for t in obs["teams"] if me in t]
    partner = next(s for s in mine if s != me)
    assert page.locator(f'.opp.partner[data-seat="{partner}"] .badge.partner').count() == 1
    assert page.locator(".opp.partner").count() == 1
    # the opponents are shown around the table as seated
    ring = obs["seating"]
    at = ring.index(me)
    shown = page.eval_on_selector_all("#opponents .opp", "els => els.map(e => +e.dataset.seat)")
    assert shown == [ring[(at + i) % 4] for i in range(1, 4)]
    # a pending draw names who must answer it and where it goes
    seen_pending = {}

    def pending_seen(o: dict[str, Any]) -> bool:
        if o.get("pending") and o["phase"] == "AWAIT_TURN" and not seen_pending:
            # read without waiting: the next state may already have taken it away
            texts = page.locator("#center .pending-to").all_inner_texts()
            if texts:
                seen_pending["text"] = texts[0]
        return False

    end = play_until(
        p,
        lambda o: (
            pending_seen(o)
            or (
                o["phase"].endswith("OVER")
                and o["winner"] is not None
                and deflections(o["history"]) > 0
            )
        ),
        max_steps=600,
    )
    winner = end["winner"]
    (won,) = [t for t in end["teams"] if winner in t]
    assert sorted(end["match_winners"]) == sorted(won) or end["phase"] == "ROUND_OVER"
    i = end["teams"].index(won)
    assert end["team_scores"][i] == end["scores"][won[0]] == end["scores"][won[1]] > 0
    page.click("#round-hide")  # the round's panel closed: the table under it
    team_rows = page.inner_text("#team-scores")
    assert f"{end['team_scores'][i]} pts" in team_rows and "Team 2" in team_rows
    p.screenshot("house-table-custom-teams")
    if seen_pending:
        assert "must take it or pass it on" in seen_pending["text"]
    assert deflections(end["history"]) > 0


def _meta_rules(page: Any) -> list[str]:
    return list(
        page.evaluate("() => fetch('/api/meta').then(r => r.json()).then(m => m.house_rules)")
    )


def test_share_link_applies_a_rule_set_and_refuses_a_bad_one(new_player: Any) -> None:
    p = new_player("share")
    page = p.page
    page.goto("/")
    page.click('.preset[data-preset="party"]')
    page.click("details.house summary")
    page.click("#share-rules")
    assert page.input_value("#share-link").endswith("/?variant=classic&preset=Party")
    page.uncheck('input[name="opt-jumpIn"]')
    page.fill('input[name="opt-handLimit"]', "15")
    page.dispatch_event('input[name="opt-handLimit"]', "change")
    page.click("#share-rules")
    link = page.input_value("#share-link")
    assert "/?variant=classic&rules=" in link and "preset" not in link and "jumpIn" not in link
    assert "sevenZero=true" in link and "handLimit=15" in link
    # the same browser remembers the custom set: Official, then Custom, brings it back
    page.click('.preset[data-preset="official"]')
    assert not page.is_checked('input[name="opt-sevenZero"]')
    page.click('.preset[data-preset="custom"]')
    assert page.is_checked('input[name="opt-sevenZero"]')
    assert not page.is_checked('input[name="opt-jumpIn"]')
    assert page.input_value('input[name="opt-handLimit"]') == "15"
    # a friend opens the link in another browser
    friend = new_player("friend")
    fp = friend.page
    fp.goto(link)
    fp.wait_for_selector("#share-note")
    fp.click("details.house summary")
    assert fp.is_checked('input[name="opt-sevenZero"]')
    assert not fp.is_checked('input[name="opt-jumpIn"]')
    assert fp.locator('select[name="opt-stacking"]').input_value() == "same_symbol"
    assert fp.input_value('input[name="opt-handLimit"]') == "15"
    assert fp.evaluate("() => location.search") == ""
    friend.screenshot("house-share-applied")
    # the room made from it has these rules (the server validates them again)
    fp.fill("#create-name", "Fay")
    for i in (1, 2, 3):
        fp.select_option(f"#seat-{i}", "bot:easy")
    fp.click("#create-submit-top")
    friend.wait_table()
    assert friend.obs()["options"] == {
        "stacking": "same_symbol",
        "sevenZero": True,
        "drawUntilPlayable": True,
        "handLimit": 15,
    }
    # bad links: a clear error, and nothing changes
    for query, words in [
        ("rules=jumpIn=maybe", "“maybe” is not a value of jumpIn"),
        ("rules=flying=true", "there is no rule “flying”"),
        ("preset=Boring", "there is no preset “Boring”"),
        ("rules=jumpIn", "“jumpIn” is not key=value"),
        ("rules=" + quote("mercy=many", safe="="), "“many” is not a value of mercy"),
        ("rules=" + quote("multiPlay=all", safe="="), "“all” is not a value of multiPlay"),
    ]:
        bad = new_player("bad")
        bad.page.goto("/")
        bad.page.click('.preset[data-preset="official"]')
        bad.page.goto(f"/?{query}")
        err = bad.page.wait_for_selector("#share-error")
        text = err.inner_text()
        assert "nothing was changed" in text and words in text, (query, text)
        assert bad.page.locator('.preset.checked[data-preset="official"]').count() == 1


def test_teams_pending_and_a_player_out_at_the_table(new_player: Any) -> None:
    """Exact positions given to the table module: the partner and both team
    scores, the pending draw's way on, and a seat out of the match (the
    observation's ``out``, added by the mercy rule) greyed."""
    table = Table(new_player("table"))
    page = table.page
    g = Game.setup(
        "classic",
        4,
        {"teams": "pairs", "deflect": "both"},
        hands=[["R5", "RS"], ["B1", "B2"], ["Y1", "Y2"], ["G1", "G2"]],
        draw=["R1", "R2", "R3", "R4", "R6", "R7", "R8", "G8", "G9"],
        discard=["RD2"],
        color="R",
        current=0,
        pending_draw=2,
    )
    table.show(g, 0)
    assert page.locator('.opp.partner[data-seat="2"] .badge.partner').count() == 1
    assert page.locator('.opp[data-seat="1"] .badge.team-1').count() == 1
    assert page.locator("#me-bar .badge.team-0").inner_text().lower() == "team 1"
    pend = page.inner_text("#center .pending-to")
    assert "You must take it or pass it on: to Bob, a Reverse sends it to Dee" in pend, pend
    assert page.locator("#team-scores li").count() == 2
    assert page.locator(".opp.out").count() == 0  # no "out" field: nobody greyed
    st = _state(g, 0, version=2)
    st["observation"]["out"] = [3]
    page.evaluate("(s) => window.T.update(s)", st)
    out = page.locator('.opp.out[data-seat="3"]')
    assert out.count() == 1 and out.locator(".badge.out").inner_text().lower() == "out"
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('.opp.out')).filter"
    ).startswith("grayscale")
    table.player.screenshot("house-state-teams-out")
