"""The page works under the server's Content-Security-Policy (issue 29, item 1):
the lobby, a table played to a few moves, the log, how to play and the keys
overlay, with no CSP violation reported by Chromium."""

from __future__ import annotations

from typing import Any

from .conftest import Player, Server, first_legal_step

WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));
"""


def violations(p: Player) -> list[str]:
    return list(p.page.evaluate("() => window.__csp || []"))


def test_pages_work_under_the_csp(new_player: Any, server: Server) -> None:
    p = new_player("csp")
    p.page.add_init_script(WATCH)
    # the lobby: its page answer carries the policy
    response = p.page.goto("/")
    assert response is not None
    csp = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, csp
    assert response.headers.get("x-frame-options") == "DENY"
    p.page.wait_for_selector("body[data-view='lobby']")
    # a table against a bot, a few moves through the UI
    out = server.post(
        "/api/rooms",
        {
            "variant": "classic",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
            "name": "Csp",
        },
    )
    p.enter(out["room"], out["token"], out["seat"])
    moves = 0
    for _ in range(40):
        if moves >= 4:
            break
        if first_legal_step(p):
            moves += 1
        else:
            before = p.version()
            if p.obs()["phase"].endswith("OVER"):
                break
            p.wait_version_above(before)
    assert moves >= 1
    # overlays that render markup (with style attributes) and the log
    p.page.click("#btn-log")
    p.page.click("#btn-howto")
    p.page.wait_for_selector(".howto-panel")
    p.page.keyboard.press("Escape")
    p.page.click("#btn-help")
    p.page.keyboard.press("Escape")
    # the table's inline custom properties (avatars' hue) took effect
    hue = p.page.evaluate(
        "() => getComputedStyle(document.querySelector('.avatar')).getPropertyValue('--hue')"
    )
    assert hue.strip() != ""
    assert violations(p) == []
    assert not [e for e in p.errors if "Content Security Policy" in e], p.errors


def test_card_gallery_works_under_the_csp(new_player: Any) -> None:
    p = new_player("gallery")
    p.page.add_init_script(WATCH)
    response = p.page.goto("/static/gallery.html")
    assert response is not None and "content-security-policy" in response.headers
    p.page.wait_for_selector("body[data-ready='1']")
    assert int(p.page.evaluate("() => document.body.dataset.cardCount")) > 50
    assert violations(p) == []
