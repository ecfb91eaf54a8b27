"""Screenshots of the web app for the README (``make screenshots``).

Starts ``unokit serve`` on a free port of 127.0.0.1 with a temporary SQLite
database and bots that act at once, drives Debian's Chromium
(/usr/bin/chromium) through Playwright, and writes PNG files to docs/img/:
the home page and a table of each game (Classic, Flip, Flex) on a desktop
(1280x800) and a phone (390x844) screen, plus the how-to-play panel.

    .venv/bin/python scripts/screenshots.py [--out docs/img] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=5) as r:  # noqa: S310 - 127.0.0.1 only
        return json.load(r)


def start(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "unokit", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{tmp / 'shots.sqlite3'}", "--bot-delay", "0"]
    cmd += ["--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=tmp, env={**os.environ, "UNOKIT_DATA_DIR": str(tmp)})
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):  # noqa: S310
                return proc, base
        except OSError:
            time.sleep(0.1)  # waiting for the server to start
    proc.kill()
    raise SystemExit("the server did not start")


def seat_page(page: Page, base: str, res: dict[str, Any]) -> None:
    page.goto(base + "/")
    page.evaluate(
        "([c, t, s]) => { localStorage.setItem('unokit.room.' + c, JSON.stringify({token: t, seat: s}));"
        " localStorage.setItem('unokit.hintsDone', '1'); }",
        [res["room"], res["token"], res["seat"]],
    )
    page.goto(f"{base}/r/{res['room']}")
    page.wait_for_selector("body[data-view='table'] #opponents .opp")
    # a few turns: draw when it is our turn, so that the table shows a game under way
    for _ in range(3):
        page.wait_for_function(
            "() => { const o = window.unokit?.state?.observation;"
            " return o && (o.current === window.unokit.seat || o.phase.endsWith('OVER')); }",
            timeout=15000,
        )
        if page.locator("#act-draw:not([disabled])").count() == 0:
            break
        v = page.evaluate("() => window.unokit.state.version")
        page.click("#act-draw")
        page.wait_for_function("(v) => window.unokit.state.version > v", arg=v)
        if page.locator("#act-pass:not([hidden])").count():
            v = page.evaluate("() => window.unokit.state.version")
            page.click("#act-pass")
            page.wait_for_function("(v) => window.unokit.state.version > v", arg=v)
    page.wait_for_function(
        "() => { const o = window.unokit?.state?.observation;"
        " return o && (o.current === window.unokit.seat || o.phase.endsWith('OVER')); }",
        timeout=15000,
    )
    page.wait_for_timeout(300)  # let the last toast and animation settle for the picture


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    ap.add_argument("--only", default=None, help="only the screenshots whose name contains this")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
                )
                errors: list[str] = []
                for device, vp in (("desktop", DESKTOP), ("phone", PHONE)):
                    phone = device == "phone"
                    ctx = browser.new_context(
                        viewport=vp,
                        locale="en-GB",
                        is_mobile=phone,
                        has_touch=phone,
                        reduced_motion="reduce",
                    )
                    page = ctx.new_page()
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    page.on(
                        "console", lambda m: errors.append(m.text) if m.type == "error" else None
                    )
                    shots: list[tuple[str, Any]] = []
                    name = f"lobby-{device}"
                    if not args.only or args.only in name:
                        page.goto(base + "/")
                        page.wait_for_selector("#quick-bots")
                        page.wait_for_timeout(
                            300
                        )  # public rooms and history load after the first paint
                        page.screenshot(path=str(args.out / f"{name}.png"))
                        shots.append((name, None))
                    for variant in ("classic", "flip", "flex"):
                        name = f"table-{variant}-{device}"
                        if args.only and args.only not in name:
                            continue
                        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 3
                        res = post(
                            base, "/api/rooms", {"variant": variant, "seats": seats, "name": "Zoé"}
                        )
                        seat_page(page, base, res)
                        page.screenshot(path=str(args.out / f"{name}.png"))
                        shots.append((name, None))
                    name = f"howto-flip-{device}"
                    if not args.only or args.only in name:
                        page.click("#btn-howto")
                        page.wait_for_selector(".howto-panel")
                        page.click("[data-howto='flip']")
                        page.wait_for_selector(".howto-panel[data-variant='flip']")
                        page.screenshot(path=str(args.out / f"{name}.png"))
                    ctx.close()
                browser.close()
                if errors:
                    raise SystemExit("errors in the page:\n" + "\n".join(errors))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"screenshots written to {args.out}")


if __name__ == "__main__":
    main()
