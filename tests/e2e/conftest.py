"""Browser end-to-end tests: the real server (``unokit serve`` in a subprocess,
temporary SQLite database, bots without delay) driven through headless
Chromium (Debian's /usr/bin/chromium, never ``playwright install``).

Every wait is on a condition (a selector, a state version, a phase) with a
timeout; nothing sleeps. Screenshots of the table go to ``artifacts/e2e/``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "e2e"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STEP_TIMEOUT_MS = 15_000

pytestmark = pytest.mark.timeout(300)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 2.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - 127.0.0.1 only
        return json.load(r)


class Server:
    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.proc = proc
        self.log = log

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=5) as r:  # noqa: S310 - 127.0.0.1 only
            return json.load(r)

    def get(self, path: str) -> Any:
        return _get(self.base + path)


# A server whose rooms are seeded: the seeds of matches and bots come from
# ``secrets.randbits`` (unokit.web.room.new_seed), drawn here from a seeded
# generator, so that one test run plays the same deals and bot moves again.
SEEDED = "import random, secrets; secrets.randbits = random.Random({seed}).getrandbits; "


def start_server(
    tmp: Path, port: int | None = None, env: dict[str, str] | None = None, seed: int | None = None
) -> Server:
    """``unokit serve`` on 127.0.0.1 (a free port unless given) with the SQLite
    file ``tmp/e2e.sqlite3`` and the extra environment ``env``; returns once
    /healthz answers. With ``seed``, the rooms' seeds are drawn from it."""
    port = port or _free_port()
    log = tmp / f"server-{port}.log"
    cmd = [
        sys.executable,
        "-c",
        ("" if seed is None else SEEDED.format(seed=int(seed)))
        + "from unokit.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp / 'e2e.sqlite3'}",
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
    ]
    env = {**os.environ, "UNOKIT_DATA_DIR": str(tmp), **(env or {})}
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            if _get(base + "/healthz", timeout=1.0).get("ok"):
                return Server(base, proc, log)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            stop_server(Server(base, proc, log))
            raise RuntimeError(f"server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)  # polling the start-up of a subprocess, not a timing assertion


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``unokit serve`` on a free port of 127.0.0.1 with a fresh SQLite file."""
    pytest.importorskip("fastapi")
    srv = start_server(tmp_path_factory.mktemp("e2e-server"))
    try:
        yield srv
    finally:
        stop_server(srv)


JS_STATE = """() => {
  const s = window.unokit && window.unokit.state;
  if (!s) return null;
  return {version: s.version, seat: s.seat, info: s.info, obs: s.observation};
}"""


class Player:
    """One browser page at the table, with the helpers the tests share."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.name = name
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        page.set_default_timeout(STEP_TIMEOUT_MS)

    # ---- reading ---------------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        return self.page.evaluate(JS_STATE)  # type: ignore[no-any-return]

    def obs(self) -> dict[str, Any]:
        s = self.state()
        assert s is not None and s["obs"] is not None, "no observation yet"
        return s["obs"]  # type: ignore[no-any-return]

    def version(self) -> int:
        return int(self.page.evaluate("() => window.unokit?.state?.version ?? -1"))

    def legal(self) -> list[str]:
        return list(self.obs()["legal"])

    def seat(self) -> int:
        s = self.state()
        assert s is not None
        return int(s["seat"])

    def wait_table(self) -> None:
        self.page.wait_for_selector("body[data-view='table'] #opponents .opp")

    def enter(self, code: str, token: str, seat: int) -> None:
        """Open room ``code`` holding seat ``seat`` (its token stored as the
        lobby stores it) and wait for the table."""
        self.page.goto("/")
        self.page.evaluate(
            "([c, t, s]) => localStorage.setItem('unokit.room.' + c, JSON.stringify({token: t, seat: s}))",
            [code, token, seat],
        )
        self.page.goto(f"/r/{code}")
        self.wait_table()

    def wait_version_above(self, version: int) -> None:
        self.page.wait_for_function(
            "(v) => (window.unokit?.state?.version ?? -1) > v", arg=version, timeout=STEP_TIMEOUT_MS
        )

    def wait_version_at_least(self, version: int) -> None:
        self.page.wait_for_function(
            "(v) => (window.unokit?.state?.version ?? -1) >= v",
            arg=version,
            timeout=STEP_TIMEOUT_MS,
        )

    def hand(self) -> list[str]:
        return list(self.obs()["hand"])

    def log_types(self) -> list[str]:
        return list(
            self.page.eval_on_selector_all(
                "#log-list li[data-type]", "els => els.map(e => e.dataset.type)"
            )
        )

    # ---- acting through the UI ------------------------------------------------------
    def act(self, action: Callable[[], None]) -> None:
        """Do a UI action that must produce a new game version, and wait for it."""
        before = self.version()
        action()
        self.wait_version_above(before)

    def click(self, selector: str) -> None:
        self.act(lambda: self.page.click(selector))

    def play(self, command: str, keyboard: bool = False) -> None:
        """Play a legal PLAY command through the hand and the choice panel."""
        words = command.split()
        if words[0][0] == "P" and words[0][1:].isdigit():
            words = words[1:]  # the seat prefix of observation.legal
        assert words[0] == "PLAY", command
        card = words[1]
        kw = dict(w.split("=", 1) for w in words[2:])
        before = self.version()
        button = self.page.locator(f'#hand .hc[data-card="{card}"]').first
        if "+" in card:
            self.pick_and_play(card.split("+"), uno=kw.get("uno") == "true")
        elif keyboard:
            button.focus()
            self.page.keyboard.press("Enter")
            # multiPlay: Enter picked a card that could start a play of several; P plays it
            if self.page.locator("#act-play").count():
                self.page.keyboard.press("p")
        else:
            # in a fanned hand only the left strip of a card is uncovered
            button.click(position={"x": 8, "y": 40})
            # on a touch screen the first tap selects the card; Play confirms it
            # (whatever else changed meanwhile: the version may have moved on)
            if self.page.locator("#act-play").count():
                self.page.click("#act-play")
        for _ in range(5):
            if self.version() > before:
                break
            choices = self.page.locator("#decision:not([hidden]) [data-choose]")
            if choices.count() == 0:
                break  # sent: the new state is on its way
            key = choices.first.get_attribute("data-choose")
            value = kw.get(key or "", "")
            values = [choices.nth(i).get_attribute("data-value") for i in range(choices.count())]
            assert value in values, f"{command}: {key} offers {values}"
            if keyboard:
                self.page.keyboard.press(str(values.index(value) + 1))
            else:
                choices.nth(values.index(value)).click()
        self.wait_version_above(before)

    def pick_and_play(self, cards: list[str], uno: bool = False) -> None:
        """multiPlay: pick ``cards`` in this order by clicks (taps on a phone),
        call UNO with the play if asked, and press "Play N cards"."""
        for c in cards:
            el = self.page.locator(f'#hand .hc[data-card="{c}"]:not(.picked)').first
            if self.page.evaluate("() => matchMedia('(pointer: coarse)').matches"):
                el.tap(position={"x": 8, "y": 40})
            else:
                el.click(position={"x": 8, "y": 40})
        picked = self.page.eval_on_selector_all(
            "#hand .hc.picked",
            "els => els.map(e => [+e.querySelector('.pick-n').textContent, e.dataset.card])",
        )
        assert [c for _, c in sorted(picked)] == cards, picked
        if uno:
            self.page.click("#act-multi-uno")
        self.page.click("#act-play")

    def step(self, kind: str, arg: str = "", keyboard: bool = False) -> None:
        """One UI step of the kinds flip_policy returns, by mouse or by keyboard."""
        if kind == "play":
            self.play(arg, keyboard=keyboard)
            return
        if keyboard:
            key = {
                "catch": "c",
                "uno": "u",
                "draw": "d",
                "pass": "p",
                "challenge": "x",
                "accept": "a",
            }
            if kind == "color":
                buttons = self.page.locator('#decision [data-choose="COLOR"]')
                values = [
                    buttons.nth(i).get_attribute("data-value") for i in range(buttons.count())
                ]
                self.act(lambda: self.page.keyboard.press(str(values.index(arg) + 1)))
                return
            # keys act wherever the focus is, except in a text field
            self.act(lambda: self.page.keyboard.press(key[kind]))
            return
        selector = {
            "catch": f'.opp[data-seat="{arg[1:]}"] [data-catch]',
            "uno": "#act-uno",
            "draw": "#act-draw",
            "pass": "#act-pass",
            "challenge": "#act-challenge",
            "accept": "#act-accept",
            "color": f'#decision [data-choose="COLOR"][data-value="{arg}"]',
        }[kind]
        self.click(selector)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


def first_legal_step(p: Player) -> bool:
    """One move of this seat by the first legal choice; False when it has none."""
    obs = p.obs()  # read once: a later read may be a newer state
    if obs["phase"].endswith("OVER") or obs["current"] != p.seat():
        return False
    legal = [c.split(None, 1)[1] for c in obs["legal"]]
    for c in legal:
        if c.startswith("COLOR "):
            p.step("color", c.split()[1])
            return True
    if "ACCEPT" in legal:
        p.step("accept")
        return True
    plays = [c for c in legal if c.startswith("PLAY ")]
    if plays:
        p.play(plays[0])
        return True
    if "DRAW" in legal:
        p.step("draw")
        return True
    if "PASS" in legal:
        p.step("pass")
        return True
    return False


@pytest.fixture
def new_player(browser: Any, server: Server) -> Iterator[Callable[..., Player]]:
    contexts: list[Any] = []
    players: list[Player] = []

    def make(name: str, viewport: dict[str, int] | None = None, locale: str = "en-GB") -> Player:
        vp = viewport or DESKTOP
        phone = vp["width"] < 600
        ctx = browser.new_context(
            viewport=vp,
            locale=locale,
            is_mobile=phone,
            has_touch=phone,
            base_url=server.base,
            reduced_motion="reduce",
        )
        contexts.append(ctx)
        p = Player(ctx.new_page(), name)
        players.append(p)
        return p

    yield make
    try:
        for p in players:
            assert not p.errors, f"{p.name}: " + "\n".join(p.errors)
    finally:
        for ctx in contexts:
            ctx.close()


# ---- the scripted players of the Flip round ----------------------------------------------
# A pure function of what the seat sees, so that it can also be run against the
# engine alone (to check how often one round shows every event the test needs).

FLIP_GOALS = frozenset({"flip", "challenge", "uno", "catch"})


def goals_seen(history: list[dict[str, Any]]) -> set[str]:
    """Which of FLIP_GOALS the round's events show."""
    seen: set[str] = set()
    for ev in history:
        t = ev["type"]
        if t == "Flipped":
            seen.add("flip")
        elif t == "Challenged":
            seen.add("challenge")
        elif t == "UnoCalled":
            seen.add("uno")
        elif t == "Caught" and ev["success"]:
            seen.add("catch")
    return seen


def _face(card: str, side: str) -> str:
    parts = card.split("|")
    return parts[1] if len(parts) == 2 and side == "dark" else parts[0]


def _kind(face: str) -> str:
    if face in ("W", "DW"):
        return "wild"
    if face in ("W2", "WDC"):
        return "wild_draw"
    body = face.lstrip("RYGB") if not face.startswith(("Pk", "Tl", "Or", "Pu")) else face[2:]
    if body.isdigit():
        return "number"
    return {"F": "flip", "S": "skip", "SE": "skip_everyone", "R": "reverse"}.get(body, "draw")


def flip_policy(obs: dict[str, Any], me: int, friend: int) -> tuple[str, str] | None:
    """The next UI step of a scripted human in the Flip round test, or None.

    Steps: ("catch", "P2"), ("uno", ""), ("play", command), ("draw", ""),
    ("pass", ""), ("color", "R"), ("challenge", ""), ("accept", "").
    The players aim for a flip, a challenge, a UNO call and a catch: they keep
    Flip and wild draw cards for that, play a wild draw only on the other human
    (who always challenges), go down to one card without calling UNO when the
    other human plays next (who catches), call UNO otherwise, and draw rather
    than go out while something is still missing.
    """
    legal = [c.split(None, 1)[1] for c in obs["legal"]]
    if obs["phase"] in ("ROUND_OVER", "MATCH_OVER"):
        return None
    catches = [c for c in legal if c.startswith("CATCH ")]
    if catches:
        return ("catch", catches[0].split()[1])
    if obs["current"] != me or not legal:
        return None
    done = goals_seen(obs["history"])
    all_done = done >= FLIP_GOALS
    phase = obs["phase"]
    side = obs["side"]
    plays = [c for c in legal if c.startswith("PLAY ")]
    if phase == "AWAIT_COLOR":
        return ("color", next(c for c in legal if c.startswith("COLOR ")).split()[1])
    if phase == "AWAIT_CHALLENGE":
        return ("challenge", "") if "CHALLENGE" in legal else ("accept", "")
    if phase == "AWAIT_DRAWN":
        if plays and (all_done or len(obs["hand"]) > 2):
            return ("play", plays[0])
        return ("pass", "") if "PASS" in legal else ("play", plays[0])
    if "DRAW" not in legal and not plays:
        return None
    n = obs["players"]
    nxt = (me + (1 if obs["direction"] == "cw" else -1)) % n
    kinds = {c: _kind(_face(c.split()[1], side)) for c in plays}
    hand = len(obs["hand"])
    # colour choices: take the first one offered for each card
    first: dict[str, str] = {}
    for c in plays:
        first.setdefault(c.split()[1], c)
    options = list(first.values())
    if "challenge" not in done and nxt == friend and hand > 2:
        for c in options:
            if kinds[c] == "wild_draw":
                return ("play", c)
    if "flip" not in done and hand > 1:
        for c in options:
            if kinds[c] == "flip":
                return ("play", c)
    keep = {"wild_draw", "flip"} if not all_done else set()
    normal = [c for c in options if kinds[c] not in keep]
    if hand == 2 and options:
        simple = [c for c in options if kinds[c] in ("number", "wild", "flip")]
        if "catch" not in done and nxt == friend and simple:
            return ("play", simple[0])  # no UNO: the other human catches
        if "UNO" in legal:
            return ("uno", "")
        return ("play", (normal or options)[0])
    if hand == 1 and not all_done:
        return ("draw", "") if "DRAW" in legal else ("play", options[0])
    if nxt != friend:
        # slow the bot down: make it draw or skip it
        for c in normal:
            if kinds[c] in ("draw", "skip", "skip_everyone", "reverse"):
                return ("play", c)
        if obs["hand_sizes"][nxt] <= 2:
            for c in options:
                if kinds[c] == "wild_draw":
                    return ("play", c)
    if normal:
        return ("play", normal[0])
    if all_done and options:
        return ("play", options[0])
    return ("draw", "") if "DRAW" in legal else ("play", options[0])
