"""The page on incremental updates (issue 13): a page that misses a delta asks
to resync and then shows the same table as a fresh join; a command whose socket
dies right after it was sent is resent after the reconnect and applied once."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect as ws_connect

from .conftest import Player, Server

# Wraps the page's WebSocket: counts states and deltas, can drop the next
# delta(s) (window.__drop) and can close the socket right after the next
# command is sent (window.__killAfterCommand).
HOOK = """
(() => {
  const Orig = window.WebSocket;
  window.__drop = 0; window.__states = 0; window.__deltas = 0; window.__resyncs = 0;
  window.__killAfterCommand = false;
  window.WebSocket = class extends Orig {
    constructor(...args) {
      super(...args);
      const add = this.addEventListener.bind(this);
      this.addEventListener = (type, fn, ...rest) => {
        if (type !== "message") return add(type, fn, ...rest);
        return add(type, (e) => {
          let m = null;
          try { m = JSON.parse(e.data); } catch { return fn(e); }
          if (m.type === "state") window.__states++;
          if (m.type === "delta") {
            window.__deltas++;
            if (window.__drop > 0 && m.from !== m.version) { window.__drop--; return; }
          }
          fn(e);
        }, ...rest);
      };
    }
    send(data) {
      const m = JSON.parse(data);
      if (m.type === "resync") window.__resyncs++;
      super.send(data);
      if (m.type === "command" && window.__killAfterCommand) {
        window.__killAfterCommand = false;
        this.close();
      }
    }
  };
})();
"""


class Seat:
    """A scripted player of one seat over its own WebSocket (full states)."""

    def __init__(self, server: Server, code: str, token: str) -> None:
        url = server.base.replace("http", "ws") + f"/ws/{code}"
        self.ws = ws_connect(url, open_timeout=10).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state = self.until(lambda m: m["type"] == "state")
        self.n = 0

    def until(self, pred: Any) -> dict[str, Any]:
        for _ in range(500):
            m = json.loads(self.ws.recv(timeout=15))
            if m["type"] == "state":
                self.state = m
            if pred(m):
                return m
        raise AssertionError("no such message")

    def sync(self, version: int) -> None:
        """Wait until this seat has seen ``version``."""
        if self.state["version"] < version:
            self.until(lambda m: m["type"] == "state" and m["version"] >= version)

    def act(self, text: str) -> int:
        self.n += 1
        v = self.state["version"]
        self.ws.send(json.dumps({"type": "command", "id": self.n, "text": text, "version": v}))
        ack = self.until(lambda m: m.get("id") == self.n)
        assert ack["type"] == "ack", ack
        self.until(lambda m: m["type"] == "state" and m["version"] == ack["version"])
        return int(ack["version"])

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def two_humans(server: Server, player: Player) -> tuple[str, dict[int, str]]:
    res = server.post(
        "/api/rooms",
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": player.name},
    )
    code = res["room"]
    bob = server.post(f"/api/rooms/{code}/join", {"name": "Bob"})
    player.page.add_init_script(HOOK)
    player.page.goto("/")
    player.page.evaluate(
        "([c, t, s]) => localStorage.setItem('unokit.room.' + c, "
        "JSON.stringify({token: t, seat: s, variant: 'classic', name: 'x'}))",
        [code, res["token"], res["seat"]],
    )
    return code, {res["seat"]: res["token"], bob["seat"]: bob["token"]}


def table_of(player: Player) -> dict[str, Any]:
    """What the page shows: its state and the rendered hand and opponents."""
    page = player.page
    state = player.state()
    assert state is not None
    for seat in state["info"]["seats"]:
        seat.pop("connected")  # who is connected at this moment
    state["info"].pop("spectators")
    return {
        "state": state,
        "hand": page.eval_on_selector_all("#hand .hc", "els => els.map(e => e.dataset.card)"),
        "opponents": page.inner_text("#opponents"),
    }


def test_a_page_that_misses_a_delta_resyncs_to_the_same_table(
    new_player: Any, server: Server
) -> None:
    ann = new_player("Ann")
    code, tokens = two_humans(server, ann)
    ann.page.goto(f"/r/{code}")
    ann.wait_table()
    assert ann.page.evaluate("window.__states") == 1
    seats = {s: Seat(server, code, t) for s, t in tokens.items()}
    try:
        ann.page.evaluate("window.__drop = 1")
        version = 0
        for _ in range(2):  # two moves: the first delta is lost, the second does not apply
            st = seats[0].state
            obs = st["observation"]
            seat = obs["current"]
            seats[seat].sync(st["version"])
            legal = seats[seat].state["observation"]["legal"]
            version = seats[seat].act(legal[-1])
            seats[1 - seat].sync(version)
        ann.wait_version_at_least(version)
        assert ann.page.evaluate("window.__resyncs") == 1
        assert ann.page.evaluate("window.__states") == 2  # the snapshot it asked for
        assert ann.page.evaluate("window.__deltas") >= 2
        ann.page.wait_for_function(
            "(v) => document.body.dataset.version === String(v)", arg=version
        )
        seen = table_of(ann)
        fresh = new_player("Ann again")
        fresh.page.goto("/")
        fresh.page.evaluate(
            "([c, t]) => localStorage.setItem('unokit.room.' + c, "
            "JSON.stringify({token: t, seat: 0, variant: 'classic', name: 'x'}))",
            [code, tokens[0]],
        )
        fresh.page.goto(f"/r/{code}")
        fresh.wait_table()
        fresh.wait_version_at_least(version)
        assert table_of(fresh) == seen
    finally:
        for s in seats.values():
            s.close()


def test_a_command_sent_as_the_socket_dies_is_applied_once(new_player: Any, server: Server) -> None:
    ann = new_player("Ann")
    code, tokens = two_humans(server, ann)
    me = next(s for s, t in tokens.items() if s == 0)
    seats = {s: Seat(server, code, t) for s, t in tokens.items()}
    try:
        # play until it is Ann's turn to draw
        for _ in range(60):
            st = seats[me].state
            obs = st["observation"]
            if obs["current"] == me and obs["phase"] == "AWAIT_TURN":
                break
            seat = obs["current"]
            seats[seat].sync(st["version"])
            legal = seats[seat].state["observation"]["legal"]
            version = seats[seat].act(legal[-1])
            seats[1 - seat].sync(version)
        else:
            raise AssertionError("never Ann's turn")
        ann.page.goto(f"/r/{code}")
        ann.wait_table()
        before = ann.version()
        assert before == server.get(f"/api/rooms/{code}")["version"]
        ann.page.evaluate("window.__killAfterCommand = true")
        ann.page.click("#act-draw")
        # the page reconnects, resends the draw, and shows its result
        ann.page.wait_for_function("() => window.__states >= 2")  # a new hello, a snapshot
        ann.wait_version_above(before)
        after = server.get(f"/api/rooms/{code}")["version"]
        assert after == before + 1  # applied once (nobody else acted)
        ann.page.wait_for_selector("#conn", state="hidden")
    finally:
        for s in seats.values():
            s.close()
