"""Two people and a bot play UNO Flip in the browser, through the real server.

Alice creates the room with the lobby form (3 seats: her, an open seat, a
bot), Bob opens the invite link and sits down, and they play a whole round to
its end by clicking (Alice) and with the keyboard only (Bob). The round must
show a UNO call, a catch, a challenge (with the challenged hand shown to the
challenger only) and a flip to the dark side; the scripted players aim for
those (see ``flip_policy`` in conftest.py). Which cards are dealt is up to the
server, so when a round ends without all four the next round is dealt and the
check starts over (each round shows all four about half the time; at most
MAX_ROUNDS rounds).
"""

from __future__ import annotations

from typing import Any

from .conftest import FLIP_GOALS, PHONE, Player, flip_policy, goals_seen

MAX_ROUNDS = 12  # each round shows all four about half the time: 0.5**12 < 0.03% to miss
MAX_STEPS = 4000


def _create_room(alice: Player) -> str:
    page = alice.page
    page.goto("/")
    page.wait_for_selector("#create-form")
    page.fill("#create-name", "Alice")
    page.click('.variant-tile[data-variant="flip"]')
    page.wait_for_selector('.variant-tile.checked[data-variant="flip"]')
    page.select_option("#create-players", "3")
    page.select_option("#seat-1", "human")
    page.select_option("#seat-2", "bot:easy")
    alice.screenshot("flip-lobby-form")
    page.click("#create-submit")
    page.wait_for_selector("#invite-link")
    alice.screenshot("flip-waiting-room")
    invite = page.input_value("#invite-link")
    assert "/r/" in invite
    return invite


def _join(bob: Player, invite: str) -> None:
    page = bob.page
    page.goto(invite)
    page.wait_for_selector("#join-seat-form")
    page.fill("#join-name", "Bob")
    page.click("#join-submit")


def _sync(players: dict[int, Player]) -> int:
    """Wait until every page shows the newest version any of them has."""
    v = max(p.version() for p in players.values())
    for p in players.values():
        p.wait_version_at_least(v)
    return v


def _check_challenge(players: dict[int, Player], challenger: int) -> None:
    """After a challenge: the challenger's page shows the offender's hand (from
    the Challenged event, which only the challenger's history carries), and
    no other page does."""
    cp = players[challenger]
    page = cp.page
    page.wait_for_selector("#reveal:not([hidden]) .reveal-cards")
    got = page.evaluate(
        """() => {
          const h = window.unokit.state.observation.history;
          const ev = [...h].reverse().find((e) => e.type === 'Challenged');
          return {ev, shown: document.querySelectorAll('#reveal .reveal-cards svg.card').length,
                  seat: document.querySelector('#reveal').dataset.seat};
        }"""
    )
    ev = got["ev"]
    assert ev["seat"] == challenger and ev["revealed"] is not None
    assert got["shown"] == len(ev["revealed"])
    assert int(got["seat"]) == ev["offender"]
    cp.screenshot("flip-challenge-revealed")
    for seat, p in players.items():
        if seat != challenger:
            p.wait_version_at_least(cp.version())
            other = p.page.evaluate(
                """() => [...window.unokit.state.observation.history]
                     .reverse().find((e) => e.type === 'Challenged')"""
            )
            assert other["seat"] == challenger and other["revealed"] is None
            assert p.page.locator("#reveal:not([hidden])").count() == 0


def test_flip_round_with_uno_catch_challenge_and_flip(new_player: Any) -> None:
    alice = new_player("Alice")
    bob = new_player("Bob")
    invite = _create_room(alice)
    _join(bob, invite)
    alice.wait_table()
    bob.wait_table()
    players = {alice.seat(): alice, bob.seat(): bob}
    assert sorted(players) == [0, 1]
    keyboard = {alice.seat(): False, bob.seat(): True}
    bot_seat = 2
    # the bot's seat shows as a bot, with its hand size; Bob sees Alice's name
    bob.page.wait_for_selector(f'.opp[data-seat="{bot_seat}"] .badge.bot')
    assert "Alice" in bob.page.inner_text('.opp[data-seat="0"] .opp-name')

    # a spectator opens the same link: every seat on the table, no hand
    carol = new_player("Carol")
    carol.page.goto(invite)
    carol.page.click("#room-watch")
    carol.wait_table()
    carol.page.wait_for_selector(".table.spectator")
    assert carol.page.locator(".opp").count() == 3
    assert carol.page.locator("#hand .hc").count() == 0
    spectator = carol.state()
    assert spectator is not None and spectator["seat"] is None
    assert spectator["obs"]["hand"] == [] and spectator["obs"]["legal"] == []
    carol.screenshot("flip-spectator")

    # chat reaches the other players' logs
    alice.page.fill("#chat-input", "good luck!")
    alice.page.press("#chat-input", "Enter")
    bob.page.wait_for_selector("#log-list li.ev-chat:has-text('good luck!')")

    rounds: list[set[str]] = []
    shots: set[str] = set()
    for _ in range(MAX_STEPS):
        v = _sync(players)
        obs = alice.obs()
        if obs["phase"] in ("ROUND_OVER", "MATCH_OVER"):
            seen = goals_seen(obs["history"])
            rounds.append(seen)
            for p in players.values():
                p.page.wait_for_selector("#round-end:not([hidden]) .score-table")
                assert p.page.locator("#round-end .score-table tbody tr").count() == 3
            alice.screenshot(f"flip-round-{len(rounds)}-end")
            if seen >= FLIP_GOALS or len(rounds) >= MAX_ROUNDS:
                break
            # the ready check: the next round (or match) waits for both people
            sel = "#act-newmatch" if obs["phase"] == "MATCH_OVER" else "#act-next"
            alice.page.click(sel)
            alice.page.wait_for_selector("#round-end [data-ready-note]")
            for p in players.values():
                if p is not alice:
                    p.click(sel)
            continue
        acted = False
        for seat, p in players.items():
            friend = 1 - seat
            o = p.obs()
            step = flip_policy(o, seat, friend)
            if step is None:
                continue
            kind, arg = step
            # pictures of the moments this test is about
            if kind == "challenge" and "challenge" not in shots:
                p.page.wait_for_selector("#decision:not([hidden]) #act-challenge")
                p.screenshot("flip-challenge-choice")
                shots.add("challenge")
            if kind == "catch" and "catch" not in shots:
                p.page.wait_for_selector(f'.opp[data-seat="{arg[1:]}"] [data-catch]')
                p.screenshot("flip-catch-button")
                shots.add("catch")
            p.step(kind, arg, keyboard=keyboard[seat])
            if kind == "challenge":
                _check_challenge(players, seat)
            if kind == "catch":
                p.page.wait_for_selector('#log-list li[data-type="Caught"][data-success="true"]')
            if kind == "uno":
                p.page.wait_for_selector('#log-list li[data-type="UnoCalled"]')
            acted = True
            break
        if not acted:
            # the bot is to act (it plays at once): wait for its move
            alice.wait_version_above(v)
        o = alice.obs()
        if o["side"] == "dark" and "dark" not in shots:
            _sync(players)
            alice.page.wait_for_selector("body[data-side='dark'] .side-badge.dark")
            # Flip: the back faces of the opponents' cards and of the draw pile are shown
            alice.page.wait_for_selector(".opp .fan-faces svg.card")
            alice.screenshot("flip-dark-side")
            shots.add("dark")
    else:
        raise AssertionError(f"no round end after {MAX_STEPS} steps")

    assert any(r >= FLIP_GOALS for r in rounds), f"goals seen per round: {rounds}"
    # the last round shows all four in its log, in plain words, on both pages
    for p in players.values():
        types = set(p.log_types())
        assert {"UnoCalled", "Caught", "Challenged", "Flipped", "RoundEnded"} <= types
    bob.screenshot("flip-round-end-bob")


def test_flip_table_on_a_phone(new_player: Any, server: Any) -> None:
    """A 390x844 screen: the whole table fits, the hand is usable by touch."""
    phone = new_player("Phone", viewport=PHONE)
    res = server.post(
        "/api/rooms",
        {
            "variant": "flip",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
            "name": "Zoé",
        },
    )
    phone.enter(res["room"], res["token"], res["seat"])
    page = phone.page
    # nothing of the table is wider than the screen
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    for sel in ("#opponents", "#center", "#me-bar", "#hand"):
        box = page.locator(sel).bounding_box()
        assert (
            box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
        ), sel
    # every opponent is visible at once
    assert page.locator(".opp").count() == 3
    phone.screenshot("flip-phone")
