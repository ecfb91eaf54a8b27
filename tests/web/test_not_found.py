"""Issue 30 item 16: a wrong address in a browser is a page, not raw JSON; the
API still answers JSON; /favicon.ico exists."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_a_browser_at_a_wrong_address_gets_a_page(client: TestClient) -> None:
    r = client.get("/nonexistent", headers={"accept": "text/html,application/xhtml+xml"})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "Page not found" in r.text and 'href="/"' in r.text


def test_the_api_and_scripts_still_get_json(client: TestClient) -> None:
    r = client.get("/nonexistent", headers={"accept": "application/json"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json")
    r = client.get("/api/rooms/nope1234", headers={"accept": "text/html"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json")


def test_favicon(client: TestClient) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
