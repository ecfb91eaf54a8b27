"""Everything the server keeps per room, connection, seat or address is bounded
or evicted (issue 13, the soak): after rooms are created, played to the end
and left, the room table returns to its baseline and nothing else keeps the
rooms or their connections alive; rate-limiter entries expire; the cache of
replayed finished matches has a size limit. Clocks are injected, never slept on.
"""

from __future__ import annotations

import gc
import json
import time
import weakref
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from unokit import Game
from unokit.bots import make_bot
from unokit.engine.game import Phase
from unokit.web.hardening import AddressLimiter, RestLimiter
from unokit.web.hub import Hub
from unokit.web.room import Room
from unokit.web.routes import records as web_records

from .conftest import apply_delta


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_address_limiter_forgets_buckets_that_refilled() -> None:
    clock = Clock()
    lim = AddressLimiter(rate=10.0, burst=20, clock=clock, prune_every=5.0)
    for i in range(5000):
        assert lim.allow(f"10.0.{i // 256}.{i % 256}")
    assert len(lim.buckets) == 5000
    clock.now += 1.0  # not yet full again (20 tokens at 10/s: 2 s)
    lim.prune()
    assert len(lim.buckets) == 5000
    clock.now += 5.0
    assert lim.allow("192.0.2.1")  # a call after prune_every prunes by itself
    assert list(lim.buckets) == ["192.0.2.1"]


def test_address_limiter_keeps_an_empty_bucket_until_it_refills() -> None:
    clock = Clock()
    lim = AddressLimiter(rate=1.0, burst=3, clock=clock, prune_every=0.0)
    assert [lim.allow("a") for _ in range(4)] == [True, True, True, False]
    clock.now += 1.0  # one token back, not forgotten: still limited after it
    assert lim.allow("a") and not lim.allow("a")
    clock.now += 3.0
    lim.prune()
    assert "a" not in lim.buckets  # full again: forgetting it changes nothing


def test_rest_limiter_forgets_quiet_addresses() -> None:
    clock = Clock()
    lim = RestLimiter(2, clock=clock, prune_every=10.0)
    for i in range(3000):
        assert lim.allow(f"h{i}")
    assert lim.allow("busy") and lim.allow("busy") and not lim.allow("busy")
    clock.now += 30.0
    lim.prune()
    assert len(lim.hits) == 3001  # within the minute: all remembered
    assert not lim.allow("busy")
    clock.now += 31.0
    assert lim.allow("busy")  # the minute has passed; this call also pruned
    assert list(lim.hits) == ["busy"]


def _finished_match() -> tuple[int, list[str], Game]:
    """(seed, commands, final game) of a whole match played by bots (target score 1)."""
    g = Game.new("classic", 2, {"targetScore": 1}, seed=7)
    bots = [make_bot("heuristic", seed=s) for s in range(2)]
    commands = []
    while g.state != Phase.MATCH_OVER:
        seat = g.to_act
        assert seat is not None
        action = bots[seat].act(g.observe(seat))
        g.apply(action)
        commands.append(str(action))
    return 7, commands, g


def test_finished_match_cache_is_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(web_records, "FINISHED_CACHE", 3)
    monkeypatch.setattr(web_records, "_FINISHED", type(web_records._FINISHED)())
    seed, commands, over = _finished_match()
    log = [f"#MATCH {seed}", *commands]

    def room(code: str) -> Any:
        fake = SimpleNamespace(code=code, variant="classic", players=2, game=over)
        fake.options = Game.new("classic", 2, {"targetScore": 1}, seed=0).options
        fake.matches = lambda: Room.matches(SimpleNamespace(log=log))  # type: ignore[arg-type]
        return fake

    rooms = [room(f"room{i}") for i in range(10)]
    for r in rooms:
        [(number, game)] = web_records._finished(r)
        assert number == 1 and game.state == Phase.MATCH_OVER
    assert len(web_records._FINISHED) == 3
    assert [k[0] for k in web_records._FINISHED] == ["room7", "room8", "room9"]
    web_records._finished(rooms[7])  # used again: the most recent
    web_records._finished(rooms[0])  # replayed again, evicts the least recent
    assert [k[0] for k in web_records._FINISHED] == ["room9", "room7", "room0"]


def _play_to_the_end(ws: Any) -> None:
    """Seat 0 plays the first legal command until the match is over."""
    ws.send({"type": "hello", "token": ws.token})
    msg_id = 0
    acted = -1
    while True:
        m = ws.until(lambda m: m["type"] == "state" and m["observation"] is not None)
        obs = m["observation"]
        if obs["phase"] == "MATCH_OVER":
            return
        if m["version"] == acted or (obs["phase"] != "ROUND_OVER" and not obs["legal"]):
            continue
        if obs["phase"] != "ROUND_OVER" and obs["current"] != 0:
            continue
        msg_id += 1
        acted = m["version"]
        if obs["phase"] == "ROUND_OVER":
            ws.send({"type": "next_round", "id": msg_id, "version": acted})
        else:
            ws.send({"type": "command", "id": msg_id, "text": obs["legal"][0], "version": acted})


def test_room_table_returns_to_its_baseline_after_churn(
    client: TestClient, room_helpers: Any
) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    baseline = len(hub.rooms)
    rooms: list[weakref.ref[Room]] = []
    conns: list[weakref.ref[Any]] = []
    for _ in range(8):
        out = room_helpers.create(
            client,
            seats=[{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
            options={"targetScore": 1, "handSize": 2},
        )
        room = hub.rooms[out["room"]]
        with room_helpers.connect(client, out["room"]) as s:
            ws = room_helpers.wrap(s)
            ws.token = out["token"]
            _play_to_the_end(ws)
            conns.extend(weakref.ref(c) for c in room.conns)
        assert room.game is not None and room.game.state == Phase.MATCH_OVER
        rooms.append(weakref.ref(room))
        del room
    assert len(hub.rooms) == baseline + 8
    hub.settings.idle_unload = 0.0

    def quiet() -> bool:  # every disconnect seen, no bot move under way
        return all(
            not r.conns and (r.bot_task is None or r.bot_task.done()) for r in hub.rooms.values()
        )

    for _ in range(500):
        if client.portal.call(quiet):  # type: ignore[attr-defined]
            break
        time.sleep(0.01)  # waiting for a condition, bounded
    # Freed by reference counting alone, without the cycle collector (the
    # server runs the collector of old objects rarely: unokit.web.cli)
    gc.collect()
    gc.disable()
    try:
        client.portal.call(hub.sweep)  # type: ignore[attr-defined]
        assert len(hub.rooms) == baseline
        # the grace tasks of the seats that left are cancelled with their
        # room; let the loop run them to their end
        client.portal.call(_settle)  # type: ignore[attr-defined]
        assert [r for r in rooms if r() is not None] == []  # nothing else keeps a room
        assert len(conns) == 8 and [c for c in conns if c() is not None] == []
    finally:
        gc.enable()


async def _settle() -> None:
    import asyncio

    for _ in range(5):
        await asyncio.sleep(0)


def test_a_room_nobody_watches_keeps_only_its_game(client: TestClient, room_helpers: Any) -> None:
    """The views, deltas and serialised histories built for a room's viewers
    are dropped with its last connection; the next viewer gets the same table."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    out = room_helpers.create(client, options={"targetScore": 500})
    code = out["room"]
    room = hub.rooms[code]
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        ws.send({"type": "hello", "token": out["token"], "deltas": True})
        st = ws.state(lambda m: m["observation"] is not None)
        obs, version, acted, sent = st["observation"], st["version"], -1, 0
        while sent < 5 and obs["phase"] not in ("ROUND_OVER", "MATCH_OVER"):
            if obs["current"] == 0 and obs["legal"] and acted != version:
                sent, acted = sent + 1, version
                ws.send({"type": "command", "id": sent, "text": obs["legal"][0], "version": acted})
            m = ws.until(lambda m: m["type"] in ("state", "delta"))
            if m["type"] == "state":
                obs, version = m["observation"], m["version"]
            elif "set" in m:  # followed with deltas
                assert m["from"] == version
                obs.update(m["set"])
                version = m["version"]
        assert sent > 0
        assert room._views and room._histories
        assert room._prev and room._deltas
    for _ in range(500):  # the server has seen the disconnect
        if not client.portal.call(lambda: bool(room.conns)):  # type: ignore[attr-defined]
            break
        time.sleep(0.01)  # waiting for a condition, bounded
    assert not room.conns
    assert not room._views and not room._histories and not room._fragments
    assert not room._prev and not room._deltas and not room._cache.states
    assert room._nolog is None
    with room_helpers.connect(client, code) as s:  # the next viewer: the same table
        ws = room_helpers.wrap(s)
        ws.send({"type": "hello", "token": out["token"], "deltas": True})
        st = ws.state(lambda m: m["observation"] is not None)

        # the bot may still be moving: follow its updates until the room waits
        # for seat 0 at the version read, then the followed table is the room's
        def waiting(st: dict[str, Any]) -> bool:
            o = st["observation"]
            return o["current"] == 0 or o["phase"] in ("ROUND_OVER", "MATCH_OVER")

        while not waiting(st) or st["version"] != room.version:
            m = ws.until(lambda m: m["type"] in ("state", "delta"))
            st = m if m["type"] == "state" else apply_delta(st, m)
        g = room.game
        assert g is not None and st["version"] == room.version
        assert st["observation"] == json.loads(json.dumps(g.observe(0).to_dict()))


def test_the_sweep_collects_the_cycles_closed_websockets_leave() -> None:
    """A closed WebSocket's protocol object is a reference cycle (websockets
    keeps its frame parser, a generator, on it): only a collection frees it,
    and ``unokit serve`` makes automatic full collections rare. The sweep's
    Collector runs one every ``gc_every`` seconds."""
    from websockets.server import ServerProtocol

    from unokit.web.app import Collector

    clock = Clock()
    collector = Collector(60.0, clock=clock)
    gc.disable()
    try:
        proto = ServerProtocol()
        ref = weakref.ref(proto)
        del proto
        assert ref() is not None  # a cycle: reference counting alone does not free it
        clock.now += 30.0
        assert not collector.maybe_collect() and ref() is not None
        clock.now += 30.0
        assert collector.maybe_collect() and ref() is None
        assert not collector.maybe_collect()  # the next one a period later
        clock.now += 60.0
        assert collector.maybe_collect() and collector.runs == 2
    finally:
        gc.enable()
    assert not Collector(0.0, clock=clock).maybe_collect()  # 0: never
