"""Each preset of RULES.md §6.17 played at the table in real Chromium, until
its distinctive rules have happened the way a player sees them.

Every test creates its room from the lobby with the preset (one click) on a
server of its own whose rooms are seeded (conftest.start_server ``seed``: the
same deal and bot moves on every run), and plays the person's seat through
the UI (clicks, the choice panels) against three bots until the goals of the
preset are seen, bounded in steps:

* Official: a Wild Draw Four offered to the person for a challenge, answered
  from the challenge panel; a Draw Two taken at once (nothing to stack);
* Party: a draw card stacked on a pending draw, and a 7 played by the person
  with the swap chosen in the panel (7-0), the hands swapped;
* Crazy: several cards of one number played by the person in one play
  (picked in the hand, "Play N cards"), told in one log line; a deflection;
* Merciless: a deflection, and Draw refused while a card can be played
  (forced play). Being put out by the mercy rule and a last card refused
  (no going out on an action card) happen too rarely in a live game to wait
  for: the same table then plays an exact position (``Game.setup`` with the
  preset) with the engine and bots in the loop, where the person's Draw Two
  puts a bot over the limit and the table greys it out.

Screenshots: artifacts/e2e/preset-*.png.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.engine.options import preset

from .conftest import Player, Server, first_legal_step, start_server, stop_server
from .test_house_rules import deflections
from .test_table_states import Table, _state

SEED = 7  # the rooms' seeds (any value works; this one keeps the tests short)
DRAWS = ("D2", "W4")


@pytest.fixture
def server(tmp_path: Any) -> Iterator[Server]:
    """A server of this test alone, its rooms seeded."""
    pytest.importorskip("fastapi")
    srv = start_server(tmp_path, seed=SEED)
    try:
        yield srv
    finally:
        stop_server(srv)


def _body(card: str) -> str:
    return card[1:] if card[:1] in ("R", "Y", "G", "B") else card


def _create(p: Player, key: str) -> None:
    page = p.page
    page.goto("/")
    page.fill("#create-name", "Hugo")
    page.click('.variant-tile[data-variant="classic"]')
    page.select_option("#create-players", "4")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "bot:easy")
    page.click(f'.preset[data-preset="{key}"]')
    page.wait_for_selector(f'.preset.checked[data-preset="{key}"]')
    page.click("#create-submit-top")
    p.wait_table()


def _chips(p: Player) -> list[str]:
    return sorted(
        p.page.eval_on_selector_all("#rule-chips .rule-chip", "els => els.map(e => e.dataset.rule)")
    )


def my_runs(history: list[dict[str, Any]], me: int) -> list[list[str]]:
    """The person's plays of several cards: runs of Played events of one seat
    with nothing in between and no jump-in (a multi-play's events)."""
    runs: list[list[str]] = []
    prev = None
    for ev in history:
        if ev["type"] == "Played" and ev["seat"] == me and not ev["jump_in"]:
            if prev is not None and prev["type"] == "Played" and prev["seat"] == me:
                runs[-1].append(ev["card"])
            else:
                runs.append([ev["card"]])
        prev = ev
    return [r for r in runs if len(r) > 1]


def stacks(history: list[dict[str, Any]]) -> int:
    """Draw cards played on a pending draw (stacking, §6.1)."""
    pending = False
    count = 0
    for ev in history:
        if ev["type"] == "Played":
            is_draw = _body(ev["card"]) in DRAWS
            if is_draw and pending:
                count += 1
            pending = is_draw or (pending and _body(ev["card"]) in ("S", "R"))
        elif ev["type"] == "Drew":
            pending = False
    return count


def preset_step(p: Player, seen: set[str]) -> bool:
    """One move of the person's seat through the UI, preferring what makes the
    presets' rules happen: a play of several cards (the most cards), a stack
    or a deflection on a pending draw, a 7 (7-0), a draw card; the challenge
    of a Wild Draw Four. False when it is not this seat's move."""
    obs = p.obs()
    me = p.seat()
    if obs["phase"].endswith("OVER") or obs["current"] != me:
        return False
    legal = [c.split(None, 1)[1] for c in obs["legal"]]
    if obs["phase"] == "AWAIT_CHALLENGE" and "CHALLENGE" in legal:
        # the challenge panel of a Wild Draw Four, as the person sees it
        text = p.page.inner_text("#decision")
        assert "Challenge" in text and "Wild Draw Four" in text, text
        seen.add("challenge offered")
        p.step("challenge")
        return True
    plays = [c for c in legal if c.startswith("PLAY ")]
    multi = [c for c in plays if "+" in c.split()[1]]
    if multi:
        best = max(multi, key=lambda c: len(c.split()[1].split("+")))
        n = len(best.split()[1].split("+"))
        if len(obs["hand"]) - n == 1:
            best += " uno=true"  # calls UNO with the play
        p.play(best)
        return True
    singles = [c for c in plays if "=" not in c.split()[1]]
    if obs.get("pending"):
        answer = [c for c in singles if _body(c.split()[1]) in (*DRAWS, "S", "R")]
        if answer:
            p.play(answer[0])
            return True
    if "forced play" not in seen and obs["options"].get("forcedPlay") and plays:
        # Draw is refused while a card can be played
        if obs["phase"] == "AWAIT_TURN" and not obs.get("pending"):
            assert p.page.is_disabled("#act-draw")
            seen.add("forced play")
    for want in (("7",), DRAWS):
        chosen = [c for c in singles if _body(c.split()[1]) in want]
        if chosen:
            p.play(chosen[0])
            return True
    return first_legal_step(p)


def play_until(
    p: Player,
    goals: dict[str, Callable[[dict[str, Any]], bool]],
    also: frozenset[str] = frozenset(),
    max_steps: int = 500,
) -> set[str]:
    """Play the person's seat (bots play the others) until every goal has been
    seen in a state (each checks an observation) and every name of ``also``
    has been seen by :func:`preset_step`, starting the next round or match
    when one ends; bounded in steps. Returns what was seen."""
    seen: set[str] = set()
    for _ in range(max_steps):
        version = p.version()
        obs = p.obs()
        seen |= {name for name, test in goals.items() if test(obs)}
        if set(goals) | also <= seen:
            return seen
        if obs["phase"] in ("ROUND_OVER", "MATCH_OVER"):
            p.page.keyboard.press("n")
            p.wait_version_above(version)
            continue
        if not preset_step(p, seen):
            p.wait_version_above(version)
    raise AssertionError(f"after {max_steps} steps, seen only {sorted(seen)} of {sorted(goals)}")


def _check_room(p: Player, name: str) -> dict[str, Any]:
    """The room has the preset's options, one chip per rule, its name on the button."""
    want = preset(name).to_dict()  # the options that differ from the defaults
    obs = p.obs()
    assert obs["options"] == want
    assert _chips(p) == sorted(want)
    label = p.page.inner_text("#rules-chip")
    assert label == ("Official rules" if not want else f"Rules: {name}"), label
    return want


def test_official_challenge_and_no_stacking(new_player: Any) -> None:
    p = new_player("official")
    _create(p, "official")
    assert _check_room(p, "Official") == {}
    me = p.seat()

    def challenged(o: dict[str, Any]) -> bool:
        return any(e["type"] == "Challenged" and e["seat"] == me for e in o["history"])

    def draw_two_taken(o: dict[str, Any]) -> bool:
        # a Draw Two's victim draws at once: there is no pending draw to answer
        h = o["history"]
        for i, e in enumerate(h[:-1]):
            if e["type"] == "Played" and _body(e["card"]) == "D2":
                nxt = h[i + 1]
                if nxt["type"] == "Drew" and nxt["reason"] == "penalty" and nxt["count"] == 2:
                    return True
        return False

    play_until(
        p,
        {"challenge": challenged, "draw two": draw_two_taken},
        also=frozenset({"challenge offered"}),
    )
    assert p.obs()["pending_draw"] == 0
    p.screenshot("preset-official")


def test_party_stacks_and_a_seven_swap(new_player: Any) -> None:
    p = new_player("party")
    _create(p, "party")
    _check_room(p, "Party")
    me = p.seat()
    pending_texts: list[str] = []

    def stacked(o: dict[str, Any]) -> bool:
        if o.get("pending") and o["phase"] == "AWAIT_TURN":
            pending_texts.extend(p.page.locator("#center .pending").all_inner_texts())
        return stacks(o["history"]) > 0

    def swapped(o: dict[str, Any]) -> bool:
        h = o["history"]
        return any(
            e["type"] == "HandsSwapped"
            and i > 0
            and h[i - 1]["type"] == "Played"
            and h[i - 1]["seat"] == me
            and _body(h[i - 1]["card"]) == "7"
            for i, e in enumerate(h)
        )

    play_until(p, {"stack": stacked, "swap": swapped})
    assert any("+" in t or "Draw" in t or "draw" in t for t in pending_texts), pending_texts
    p.screenshot("preset-party")


def test_crazy_several_cards_in_one_play_and_a_deflection(new_player: Any) -> None:
    p = new_player("crazy")
    _create(p, "crazy")
    _check_room(p, "Crazy")
    me = p.seat()
    lines: list[str] = []

    def multi(o: dict[str, Any]) -> bool:
        runs = my_runs(o["history"], me)
        if runs and not lines:
            # the log (in the page even when closed) says the play in one line
            lines.append(p.page.inner_text("#log-list") or p.page.text_content("#log-list") or "")
            p.screenshot("preset-crazy-multi")
        return bool(runs)

    play_until(p, {"multi": multi, "deflect": lambda o: deflections(o["history"]) > 0})
    assert lines and "You played" in lines[0] and "in one go." in lines[0], lines


class EngineTable:
    """The table module showing an exact position, with the engine and bots
    in the loop: each command the person's clicks send is applied to the
    game, the bots play until the person's next move, and the new state is
    shown."""

    def __init__(self, player: Player, g: Game, me: int = 0) -> None:
        self.table = Table(player)
        self.page = player.page
        self.g = g
        self.me = me
        self.version = 1
        self.bots = {s: make_bot("heuristic", seed=s) for s in range(g.n) if s != me}
        self.table.show(g, me, self.version)

    def answer(self) -> str:
        """Apply the command the table sent; returns it."""
        self.page.wait_for_function("() => window.sent.length > 0")
        (cmd,) = self.page.evaluate("() => window.sent.splice(0)")
        self.g.apply(f"P{self.me} {cmd}")
        while True:
            obs = self.g.observe(self.me)
            if obs.phase in ("ROUND_OVER", "MATCH_OVER") or obs.current == self.me:
                break
            self.g.apply(self.bots[obs.current].act(self.g.observe(obs.current)))
        self.version += 1
        self.page.evaluate("(s) => window.T.update(s)", _state(self.g, self.me, self.version))
        return str(cmd)


NUMBERS = [f"{c}{n}" for n in range(1, 10) for c in "YGB"]


def test_merciless_live_then_mercy_and_last_card_at_the_table(new_player: Any) -> None:
    p = new_player("merciless")
    _create(p, "merciless")
    _check_room(p, "Merciless")
    play_until(
        p, {"deflect": lambda o: deflections(o["history"]) > 0}, also=frozenset({"forced play"})
    )
    p.screenshot("preset-merciless")
    # the mercy rule: Bob holds 23 cards and nothing to pass a draw on with;
    # the person's Draw Two makes him draw 2: 25 cards, out of the match
    rules = preset("Merciless")
    g = Game.setup(
        "classic",
        4,
        rules,
        hands=[["RD2", "R4", "G7"], NUMBERS[:23], ["Y1", "Y2", "B9"], ["G1", "G2", "B8"]],
        draw=["R1", "R2", "R5", "R6", "R7", "R8", "R9", "Y9", "G9", "R0"],
        discard=["R3"],
        color="R",
        current=0,
    )
    t = EngineTable(new_player("mercy"), g)
    page = t.page
    assert page.is_disabled("#act-draw")  # forced play: a card can be played
    page.locator('#hand .hc[data-card="RD2"]').first.click(position={"x": 8, "y": 40})
    assert t.answer() == "PLAY RD2"
    out = page.locator('.opp.out[data-seat="1"]')
    out.wait_for()
    assert out.locator(".badge.out").inner_text().lower() == "out"
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('.opp.out')).filter"
    ).startswith("grayscale")
    page.evaluate("() => window.T.toggleLog()")
    assert (
        "Bob holds too many cards and is out of the match (25 cards go under the draw pile)."
        in page.inner_text("#log-list")
    )
    t.table.player.screenshot("preset-merciless-mercy")
    # no going out on an action card: the last card, a Skip, is refused with
    # the reason, and Draw is the move
    g2 = Game.setup(
        "classic",
        4,
        rules,
        hands=[["RS"], ["Y5", "Y6"], ["Y1", "Y2", "B9"], ["G1", "G2", "B8"]],
        draw=["R1", "R2", "R5", "R6", "R8", "R9", "G3", "G4"],
        discard=["R3"],
        color="R",
        current=0,
    )
    t2 = EngineTable(new_player("last-card"), g2)
    skip = t2.page.locator('#hand .hc[data-card="RS"]').first
    assert skip.get_attribute("aria-disabled") == "true"
    skip.click(position={"x": 8, "y": 40}, force=True)
    toast = t2.page.wait_for_selector(".feed-toast.feed-warn")
    assert "cannot be your last card" in toast.inner_text()
    assert "action card" in toast.inner_text()
    t2.page.keyboard.press("d")
    assert t2.answer() == "DRAW"
