"""Render the static card gallery in headless Chromium and check it.

Serves ``src/unokit/web/static`` with ``http.server`` on 127.0.0.1 (free port,
background thread), opens ``gallery.html`` through Playwright's synchronous
API, asserts there are no console errors, that every expected card rendered
with the right aria-label, and saves ``artifacts/cards-gallery.png``.

Needs the ``playwright`` Python package and a system Chromium at
/usr/bin/chromium (``playwright install`` is never used); skipped otherwise.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "src" / "unokit" / "web" / "static"
ARTIFACTS = REPO / "artifacts"

LIGHT = ["R", "Y", "G", "B"]
DARK = ["Pk", "Tl", "Or", "Pu"]


def _expected_sections() -> dict[str, list[str]]:
    """Card notations each gallery section must show, in order."""
    classic = [f"{c}{x}" for c in LIGHT for x in [*map(str, range(10)), "S", "R", "D2"]]
    classic += ["W", "W4"]
    flip_light = [f"{c}{x}" for c in LIGHT for x in [*map(str, range(1, 10)), "D1", "S", "R", "F"]]
    flip_light += ["W", "W2"]
    flip_dark = [f"{c}{x}" for c in DARK for x in [*map(str, range(1, 10)), "D5", "SE", "R", "F"]]
    flip_dark += ["DW", "WDC"]
    flex = [f"{c}{n}" for c in LIGHT for n in range(1, 9)]
    flex += [f"{c}{n}*" for c in LIGHT for n in range(1, 9)]
    for c in LIGHT:
        others = [o for o in LIGHT if o != c]
        flex += [f"{c}{n}~{others[(n - 1) % 3]}" for n in range(1, 9)]
    flex += [f"{c}{x}" for c in LIGHT for x in ["S", "R", "D2", "FS", "FR", "FD2"]]
    flex += ["WAF", "WAD", "WTD", "FW4"]
    return {"classic": classic, "flip-light": flip_light, "flip-dark": flip_dark, "flex": flex}


# Other sections: fixed sample sets defined in gallery.html.
EXTRA_COUNTS = {"flip-physical": 12, "sizes": 18, "states": 16, "backs": 9, "hand": 12}

SAMPLE_LABELS = {
    ("classic", "R5"): "Red 5",
    ("classic", "Y9"): "Yellow 9",
    ("classic", "BD2"): "Blue Draw Two",
    ("classic", "GR"): "Green Reverse",
    ("classic", "W"): "Wild",
    ("classic", "W4"): "Wild Draw Four",
    ("flip-light", "RD1"): "Red Draw One",
    ("flip-light", "YF"): "Yellow Flip",
    ("flip-light", "W2"): "Wild Draw Two",
    ("flip-dark", "PkSE"): "Pink Skip Everyone",
    ("flip-dark", "TlD5"): "Teal Draw Five",
    ("flip-dark", "Or3"): "Orange 3",
    ("flip-dark", "PuR"): "Purple Reverse",
    ("flip-dark", "WDC"): "Wild Draw Color",
    ("flex", "R5~G"): "Red 5, flex colour Green",
    ("flex", "R4*"): "Red 4, flip icon",
    ("flex", "BFS"): "Blue Flex Skip",
    ("flex", "YFD2"): "Yellow Flex Draw Two",
    ("flex", "WTD"): "Flex Wild Target Draw 2",
    ("flex", "FW4"): "Flex Wild Draw Four",
    ("flex", "WAF"): "Wild All Flip",
}


# Every rendered card, grouped by gallery section.
JS_SECTIONS = """() => Object.fromEntries(
  [...document.querySelectorAll('main > section')].map((s) => [
    s.id,
    [...s.querySelectorAll('svg.card')].map((e) => ({
      card: e.dataset.card ?? null,
      back: e.dataset.back ?? null,
      label: e.getAttribute('aria-label'),
      role: e.getAttribute('role'),
      w: String(e.getBoundingClientRect().width),
    })),
  ]))"""

# Direct checks of the module API (exposed by gallery.html as window.unokitCards).
JS_API = """() => {
  const {renderCard, parseCard, colorInfo} = window.unokitCards;
  const fails = [];
  for (const bad of ['X9', 'R10', 'PkS', 'RSE', 'R9*', 'R5~R', 'Pk5|R5', '']) {
    try { renderCard(bad); } catch (e) { fails.push(bad); }
  }
  const host = document.createElement('div');
  host.innerHTML = renderCard('R3|WDC', {
    side: 'dark', label: 'Custom', size: 'lg', playable: true, selected: true,
  });
  const svg = host.firstElementChild;
  const back = document.createElement('div');
  back.innerHTML = renderCard('R5', {back: true});
  const symbols = {};
  for (const [k, v] of Object.entries(colorInfo)) symbols[k] = v.symbol;
  return {
    fails,
    p1: parseCard('R3|WDC'),
    p2: parseCard('R5~G'),
    p3: parseCard('R4*'),
    p4: parseCard('R5'),
    symbols,
    cls: svg.getAttribute('class'),
    label: svg.getAttribute('aria-label'),
    backLabel: back.firstElementChild.getAttribute('aria-label'),
  };
}"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".css": "text/css",
        ".html": "text/html",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_server() -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_cards_gallery(static_server: str, browser: Any) -> None:
    errors: list[str] = []

    def on_console(msg: Any) -> None:
        if msg.type == "error":
            errors.append(f"console.{msg.type}: {msg.text}")

    page = browser.new_page(viewport={"width": 1360, "height": 900})
    try:
        page.on("console", on_console)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        page.on(
            "requestfailed",
            lambda r: errors.append(f"requestfailed: {r.url} {r.failure}"),
        )
        page.goto(f"{static_server}/gallery.html", wait_until="load")
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)

        # ---- what rendered -------------------------------------------
        sections: dict[str, list[dict[str, str | None]]] = page.evaluate(JS_SECTIONS)
        total = page.locator("svg.card").count()

        expected = _expected_sections()
        for sec, notations in expected.items():
            got = [c["card"] for c in sections.get(sec, [])]
            assert got == notations, f"section {sec}: cards differ"
        for sec, n in EXTRA_COUNTS.items():
            assert len(sections.get(sec, [])) == n, f"section {sec}"
        assert total == sum(map(len, expected.values())) + sum(EXTRA_COUNTS.values())
        assert total == 353

        for sec, cards in sections.items():
            for c in cards:
                assert c["role"] == "img", (sec, c)
                assert c["label"], (sec, c)
                assert float(c["w"] or 0) > 20, (sec, c)

        for (sec, notation), label in SAMPLE_LABELS.items():
            labels = [c["label"] for c in sections[sec] if c["card"] == notation]
            assert labels == [label], (sec, notation, labels)

        # Physical Flip cards show the requested face.
        flip_labels = [c["label"] for c in sections["flip-physical"]]
        assert flip_labels[:4] == ["Red 3", "Wild Draw Color", "Yellow 7", "Pink Skip Everyone"]
        assert [c["back"] for c in sections["backs"][:3]] == ["classic", "flex", "flip"]

        # ---- API checks ----------------------------------------------
        api = page.evaluate(JS_API)
        assert api["fails"] == ["X9", "R10", "PkS", "RSE", "R9*", "R5~R", "Pk5|R5", ""]
        assert api["p1"]["variant_hint"] == "flip"
        assert [f["kind"] for f in api["p1"]["faces"]] == ["number", "wild_draw_color"]
        assert api["p2"]["variant_hint"] == "flex"
        assert api["p2"]["faces"][0]["color"] == "R"
        assert api["p2"]["faces"][0]["flexColor"] == "G"
        assert api["p3"]["faces"][0]["flipIcon"] is True
        assert api["p4"]["variant_hint"] is None
        assert len(set(api["symbols"].values())) == 8
        assert {"card", "card--lg", "playable", "selected"} <= set(api["cls"].split())
        assert api["label"] == "Custom"
        assert api["backLabel"] == "Face-down card"

        # ---- screenshot ----------------------------------------------
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "cards-gallery.png"), full_page=True)
    finally:
        page.close()

    assert not errors, "\n".join(errors)


JS_ENGINE = """(cards) => {
  const {renderCard, parseCard} = window.unokitCards;
  const bad = [];
  for (const [variant, notation, twoFaced] of cards) {
    try {
      if (!parseCard(notation).variants.includes(variant)) bad.push([notation, 'variant']);
      renderCard(notation, {side: 'light'});
      if (twoFaced) renderCard(notation, {side: 'dark'});
    } catch (e) {
      bad.push([notation, String(e)]);
    }
  }
  return bad;
}"""


def test_cards_js_accepts_every_engine_card(static_server: str, browser: Any) -> None:
    """cards.js must parse and draw every card notation the Python engine defines."""
    cards_mod = pytest.importorskip("unokit.engine.cards")
    cards = [
        (cs.name, str(card), card.dark is not None)
        for cs in (cards_mod.CLASSIC, cards_mod.FLIP, cards_mod.FLEX)
        for card in cs.cards
    ]
    assert len(cards) > 100
    page = browser.new_page()
    try:
        page.goto(f"{static_server}/gallery.html", wait_until="load")
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        bad = page.evaluate(JS_ENGINE, cards)
    finally:
        page.close()
    assert bad == []
