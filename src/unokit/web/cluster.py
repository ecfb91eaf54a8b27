"""Many ``unokit serve`` processes serving the same rooms (``--broker redis://…``).

The database (PostgreSQL) stays the record: a room is its append-only log, and
any process can rebuild it. Redis coordinates who runs it:

* **Leases.** One process at a time owns a room: the key
  ``unokit:lease:<code>`` names it and expires ``lease`` seconds after its last
  renewal (every ``lease / 3`` s while the process lives). Each process also
  keeps ``unokit:alive:<node>`` alive the same way. A lease whose holder's
  alive key has expired may be taken by anyone; the taker rebuilds the room from
  the log. The log's primary key ``(room, seq)`` fences a stale owner: a second
  writer of the same version fails, so no command is ever applied twice.
* **Forwarding.** A WebSocket reaching a process that does not own its room is
  relayed to the owner through Redis pub/sub: frames go to the owner's channel
  ``unokit:node:<owner>``, where a :class:`~unokit.web.conn.Conn` stands for the
  client (rate limits, seat, deltas: all as for a local client); what that Conn
  sends comes back on the relaying process's channel, in order (what one
  process sends another in one round trip goes as one PUBLISH of a JSON
  list, whatever the rooms and clients; a room's update to the clients one
  process relays is one entry of it, each distinct text once, which that
  process fans out to its own clients). So commands,
  bots and the turn timer of a room all run in its owner, and every update
  reaches every process holding a watcher of the room through pub/sub. Lobby
  calls (join, room info) are forwarded the same way, as one request and reply.
* **Failure.** When an owner dies, the relays notice its alive key expire and
  close their clients' sockets with 1012 ("reconnect"); clients reconnect to any
  process, which takes the lease once it is free and rebuilds the room from the
  log. A command sent again after a reconnect names the version it was decided
  on, so a command the dead owner committed is acknowledged again
  (``replay``), never applied twice (docs/protocol.md). Rooms nobody is
  connected to are adopted too: the set ``unokit:rooms`` lists the rooms being
  run, and every heartbeat each process takes over those whose lease expired.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from unokit.engine.options import Options
from unokit.web.botbroker import BrokerBots
from unokit.web.botpool import WorkerPool
from unokit.web.conn import Conn
from unokit.web.hub import Hub
from unokit.web.room import ROOM_CODE_RE, Room
from unokit.web.store import StorageError, Store

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from unokit.web.config import Settings

__all__ = ["ClusterHub", "Elsewhere", "LEASE_PREFIX", "ALIVE_PREFIX"]

log = logging.getLogger("unokit.web.cluster")

LEASE_PREFIX = "unokit:lease:"
ALIVE_PREFIX = "unokit:alive:"
NODE_PREFIX = "unokit:node:"
ROOMS_KEY = "unokit:rooms"  # rooms some process runs (loaded, not swept as idle)

# Take the lease if it is free, ours, or held by a node that is not alive.
_ACQUIRE = """
local h = redis.call('GET', KEYS[1])
if (not h) or h == ARGV[1] or redis.call('EXISTS', ARGV[3] .. h) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return h
"""
# Renew the leases of KEYS that are still ours; return the ones that are not.
_RENEW = """
local lost = {}
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then
    redis.call('PEXPIRE', k, ARGV[2])
  else
    table.insert(lost, k)
  end
end
return lost
"""
# The rooms of ROOMS_KEY whose lease has expired (their owner died).
_ORPHANS = """
local out = {}
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. code) == 0 then table.insert(out, code) end
end
return out
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

Frame = Callable[[Conn, dict[str, Any]], Awaitable[None]]
Call = Callable[[str, str, dict[str, Any]], Awaitable[tuple[int, Any]]]


class Elsewhere(Exception):
    """The room is owned by another live process: ``owner`` (its node id)."""

    def __init__(self, owner: str) -> None:
        super().__init__(owner)
        self.owner = owner


class RemoteSocket:
    """The :class:`~unokit.web.conn.Socket` of a client connected to another
    process: what the room sends goes to that process's channel, in the
    room's update for that process (:class:`_RoomUpdate`)."""

    def __init__(self, hub: ClusterHub, node: str, cid: str, code: str = "") -> None:
        self.hub = hub
        self.node = node
        self.cid = cid
        self.code = code

    async def send_text(self, data: str) -> None:
        self.hub.publish_out(self.node, self.code, self.cid, data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.hub.publish(
            self.node, {"op": "closed", "conn": self.cid, "code": code, "reason": reason or ""}
        )


class _RoomUpdate:
    """What one room sends the clients one other process relays, in one tick:
    each distinct text once (a delta shared by a seat's tabs and by the
    spectators is sent once), and per client the texts it gets, in order. The
    relaying process receives it as one entry and fans it out to its own
    clients (``{"op": "room", "code", "texts": [...], "out": [[conn, i], ...]}``)."""

    __slots__ = ("code", "texts", "index", "out")

    def __init__(self, code: str) -> None:
        self.code = code
        self.texts: list[str] = []
        self.index: dict[str, int] = {}
        self.out: list[tuple[str, int]] = []

    def add(self, cid: str, text: str) -> None:
        i = self.index.get(text)
        if i is None:
            i = self.index[text] = len(self.texts)
            self.texts.append(text)
        self.out.append((cid, i))

    def dumps(self) -> str:
        return json.dumps(
            {"op": "room", "code": self.code, "texts": self.texts, "out": self.out},
            ensure_ascii=False,
        )


class ClusterHub(Hub):
    """A :class:`~unokit.web.hub.Hub` that owns only the rooms it holds a lease of."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        broker_url: str,
        *,
        lease: float = 3.0,
        node: str | None = None,
    ) -> None:
        super().__init__(settings, store)
        from redis.asyncio import BlockingConnectionPool, Redis

        # a bounded pool that waits for a free connection (rather than failing)
        pool = BlockingConnectionPool.from_url(
            broker_url, decode_responses=True, max_connections=32, timeout=20
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.broker_url = broker_url
        self.node = node or secrets.token_hex(6)
        # bots decide in `unokit bot-worker` processes while any is alive,
        # else in this server's own workers (web/botbroker.py)
        self.bots = BrokerBots(
            broker_url,
            self.node,
            local=self.bots if isinstance(self.bots, WorkerPool) else None,
            queue_limit=settings.bot_queue,
            deadline=settings.bot_hang,
        )
        self.lease_ms = int(lease * 1000)
        self.beat_every = lease / 3
        self.frame: Frame | None = None  # the app's handler of a client frame
        self.call: Call | None = None  # the app's handler of a forwarded lobby call
        # owner side: forwarded clients (node, conn id) -> their inbox
        self.remote: dict[tuple[str, str], asyncio.Queue[dict[str, Any]]] = {}
        # relay side: our clients of rooms owned elsewhere (conn id -> (owner, inbox))
        self.relays: dict[str, tuple[str, asyncio.Queue[dict[str, Any]]]] = {}
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: asyncio.Task[None] | None = None
        self._beater: asyncio.Task[None] | None = None
        self._ids = 0
        # messages to publish, sent in order by one task, many per round trip
        # (channel, JSON text, or a room's update still open to more texts)
        self._out: deque[tuple[str, str | _RoomUpdate]] = deque()
        self._out_wake = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        self._last_beat = time.monotonic()
        self.acquire_script = self.redis.register_script(_ACQUIRE)
        self.renew_script = self.redis.register_script(_RENEW)
        self.release_script = self.redis.register_script(_RELEASE)
        self.orphans_script = self.redis.register_script(_ORPHANS)
        self._adopting: set[str] = set()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Announce this node and listen on its channel (before owning anything)."""
        await self.redis.set(ALIVE_PREFIX + self.node, "1", px=self.lease_ms)
        if isinstance(self.bots, BrokerBots):
            await self.bots.start()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(NODE_PREFIX + self.node)
        self._listener = asyncio.create_task(self._listen(pubsub))
        self._publisher = asyncio.create_task(self._publish_loop())
        self._beater = asyncio.create_task(self._beat())
        log.info("cluster node %s on %s", self.node, self.broker_url.split("@")[-1])

    async def stop(self) -> None:
        for t in (self._beater, self._listener, self._publisher, *self._tasks):
            if t is not None:
                t.cancel()
        codes = list(self.rooms)
        self.close()
        with contextlib.suppress(Exception):
            for code in codes:
                await self.release_script(keys=[LEASE_PREFIX + code], args=[self.node])
            await self.redis.delete(ALIVE_PREFIX + self.node)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, node: str, message: dict[str, Any]) -> None:
        """Publish ``message`` on ``node``'s channel. Messages are sent in the
        order of these calls (one sender, pipelined), so a client's frames and
        a room's updates to it keep their order without waiting here."""
        self._out.append((NODE_PREFIX + node, json.dumps(message, ensure_ascii=False)))
        self._out_wake.set()

    def publish_out(self, node: str, code: str, cid: str, text: str) -> None:
        """Send ``text`` to the relayed client ``cid`` of ``node``, in the
        room's update to ``node``: texts that follow one another on the queue
        for the same room and process (a version's fan-out to that process's
        clients) travel as one entry. Only the last queued entry is extended,
        so every client's texts keep their order among all its messages."""
        channel = NODE_PREFIX + node
        if self._out:
            last_channel, last = self._out[-1]
            if last_channel == channel and isinstance(last, _RoomUpdate) and last.code == code:
                last.add(cid, text)
                return
        update = _RoomUpdate(code)
        update.add(cid, text)
        self._out.append((channel, update))
        self._out_wake.set()

    async def _publish_loop(self) -> None:
        while True:
            await self._out_wake.wait()
            self._out_wake.clear()
            while self._out:
                by_channel = self._take_batch()
                try:
                    pipe = self.redis.pipeline(transaction=False)
                    for channel, items in by_channel.items():
                        pipe.publish(
                            channel, items[0] if len(items) == 1 else f"[{','.join(items)}]"
                        )
                    await pipe.execute()
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # the broker went away: these are lost
                    lost = sum(len(v) for v in by_channel.values())
                    log.warning("cluster: %d messages not published: %s", lost, e)
                    await asyncio.sleep(0.2)

    def _take_batch(self, limit: int = 500) -> dict[str, list[str]]:
        """Up to ``limit`` queued entries, as JSON texts per channel, in order:
        one PUBLISH per process, not per message (what its clients of every
        room get in this round trip goes as one JSON list). A room's update
        taken here is closed: later texts start a new one."""
        by_channel: dict[str, list[str]] = {}
        for _ in range(min(len(self._out), limit)):
            channel, data = self._out.popleft()
            text = data if isinstance(data, str) else data.dumps()
            by_channel.setdefault(channel, []).append(text)
        return by_channel

    async def alive(self, node: str) -> bool:
        return bool(await self.redis.exists(ALIVE_PREFIX + node))

    # ------------------------------------------------------------ leases

    async def locate(self, code: str) -> str:
        """The owner of ``code``: this node if it holds (or just took) the lease."""
        holder = await self.acquire_script(
            keys=[LEASE_PREFIX + code], args=[self.node, self.lease_ms, ALIVE_PREFIX]
        )
        return str(holder)

    async def get(self, code: str) -> Room | None:
        """The room if this node owns it (taking the lease when it is free);
        :class:`Elsewhere` if another live node does; None if there is no such room."""
        if not ROOM_CODE_RE.match(code):
            return None
        room = self.rooms.get(code)
        if room is not None:
            return room
        owner = await self.locate(code)
        if owner != self.node:
            raise Elsewhere(owner)
        try:
            room = await super().get(code)
        except BaseException:
            self._spawn(self._release(code))
            raise
        if room is None:
            await self._release(code)
        else:
            await self.redis.sadd(ROOMS_KEY, code)
        return room

    async def create(
        self,
        variant: str,
        seat_specs: list[tuple[str, str | None]],
        options: Options,
        turn_timer: float | None,
        name: str,
        host: int | None = None,
    ) -> tuple[Room, int, str]:
        room, seat, token = await super().create(
            variant, seat_specs, options, turn_timer, name, host
        )
        if await self.locate(room.code) != self.node:  # pragma: no cover - a fresh code
            super().evict(room)
            raise StorageError("a new room's lease is held elsewhere")
        await self.redis.sadd(ROOMS_KEY, room.code)
        return room, seat, token

    def evict(self, room: Room) -> None:
        super().evict(room)
        self._spawn(self._release(room.code))

    def sweep(self) -> None:
        """Unload idle rooms, which then are nobody's to adopt."""
        before = set(self.rooms)
        super().sweep()
        gone = before - set(self.rooms)
        if gone:
            self._spawn(self.redis.srem(ROOMS_KEY, *gone))

    async def _release(self, code: str) -> None:
        with contextlib.suppress(Exception):
            await self.release_script(keys=[LEASE_PREFIX + code], args=[self.node])

    def _lose(self, code: str) -> None:
        """Another node holds the lease now: stop running the room here."""
        room = self.rooms.get(code)
        if room is not None:
            log.warning("room %s: lease lost; handing it over", code)
            super().evict(room)

    async def _beat(self) -> None:
        """Keep this node alive and its leases renewed; give up rooms whose lease
        was lost; drop relays and forwarded clients whose other end died."""
        while True:
            try:
                await self._beat_once()
                self._last_beat = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster heartbeat failed: %s", e)
                if time.monotonic() - self._last_beat > self.lease_ms / 1000:
                    for code in list(self.rooms):  # cannot prove we own them any more
                        self._lose(code)
            await asyncio.sleep(self.beat_every)

    async def _beat_once(self) -> None:
        await self.redis.set(ALIVE_PREFIX + self.node, "1", px=self.lease_ms)
        if isinstance(self.bots, BrokerBots):
            await self.bots.start()
        codes = list(self.rooms)
        if codes:
            lost = await self.renew_script(
                keys=[LEASE_PREFIX + c for c in codes], args=[self.node, self.lease_ms]
            )
            for key in lost:
                self._lose(str(key)[len(LEASE_PREFIX) :])
        # rooms whose owner died: take them over now (their bots and turn timer
        # go on even before a client reconnects)
        for code in await self.orphans_script(keys=[ROOMS_KEY], args=[LEASE_PREFIX]):
            code = str(code)
            if code not in self.rooms and code not in self._adopting:
                self._adopting.add(code)
                self._spawn(self._adopt(code))
        peers = {owner for owner, _ in self.relays.values()} | {n for n, _ in self.remote}
        for peer in peers:
            if await self.alive(peer):
                continue
            log.warning("node %s is gone; its clients reconnect", peer)
            for owner, inbox in self.relays.values():
                if owner == peer:
                    inbox.put_nowait(
                        {"op": "closed", "code": 1012, "reason": "server moved; reconnect"}
                    )
            for (n, _), inbox in self.remote.items():
                if n == peer:
                    inbox.put_nowait({"op": "close"})

    async def _adopt(self, code: str) -> None:
        try:
            if await self.get(code) is None:
                await self.redis.srem(ROOMS_KEY, code)
            else:
                log.info("room %s: taken over from the log", code)
        except Elsewhere:
            pass  # another process was quicker
        except Exception as e:
            log.warning("room %s: cannot take it over: %s", code, e)
        finally:
            self._adopting.discard(code)

    # ------------------------------------------------------------ the channel

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for m in pubsub.listen():
                    if m.get("type") == "message":
                        try:
                            data = json.loads(m["data"])
                        except ValueError:
                            log.error("bad cluster message %r", str(m.get("data"))[:200])
                            continue
                        # one message, or a list of them (many per publish, in order)
                        for item in data if isinstance(data, list) else (data,):
                            try:
                                self._dispatch(item)
                            except Exception:
                                log.exception("bad cluster message %r", str(item)[:200])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the broker went away: listen again
                log.warning("cluster channel lost (%s); resubscribing", e)
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(NODE_PREFIX + self.node)

    def _dispatch(self, m: dict[str, Any]) -> None:
        op = m["op"]
        if op == "room":  # a room's update: fanned out to our clients of it
            texts = m["texts"]
            for cid, i in m["out"]:
                relay = self.relays.get(cid)
                if relay is not None:
                    relay[1].put_nowait({"op": "out", "text": texts[i]})
        elif op in ("out", "closed", "opened", "refused"):  # to a relay of ours
            relay = self.relays.get(m["conn"])
            if relay is not None:
                relay[1].put_nowait(m)
        elif op == "reply":
            fut = self.replies.get(m["rid"])
            if fut is not None and not fut.done():
                fut.set_result(m)
        elif op == "open":
            key = (m["from"], m["conn"])
            inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            self.remote[key] = inbox
            self._spawn(self._serve_remote(key, m["code"], m.get("host", "?"), inbox))
        elif op in ("msg", "close"):
            remote = self.remote.get((m["from"], m["conn"]))
            if remote is not None:
                remote.put_nowait(m)
        elif op == "call":
            self._spawn(self._answer(m))

    # ------------------------------------------------------------ owner side

    async def _serve_remote(
        self, key: tuple[str, str], code: str, host: str, inbox: asyncio.Queue[dict[str, Any]]
    ) -> None:
        node, cid = key
        conn: Conn | None = None
        try:
            try:
                room = self.rooms.get(code) or await self.get(code)
            except (Elsewhere, StorageError) as e:
                await self.publish(node, {"op": "refused", "conn": cid, "reason": str(e)})
                return
            if room is None:
                await self.publish(node, {"op": "refused", "conn": cid, "reason": "no_room"})
                return
            await self.publish(node, {"op": "opened", "conn": cid})
            if len(room.conns) >= self.settings.max_room_conns:
                sock = RemoteSocket(self, node, cid)
                await sock.send_text(
                    json.dumps(
                        {
                            "type": "error",
                            "id": None,
                            "code": "bad_state",
                            "message": "this room has too many connections",
                        }
                    )
                )
                await sock.close(1013)
                return
            conn = Conn(RemoteSocket(self, node, cid, code), room, self.settings)
            conn.host = host
            room.attach(conn)
            conn.start()
            while not conn.closed:
                m = await inbox.get()
                if m["op"] == "close" or self.frame is None:
                    break
                if "b64" in m:
                    frame: dict[str, Any] = {"bytes": base64.b64decode(m["b64"])}
                else:
                    frame = {"text": m.get("text")}
                await self.frame(conn, frame)
        finally:
            self.remote.pop(key, None)
            if conn is not None:
                conn.room.detach(conn)
                if conn.writer is not None:
                    conn.writer.cancel()
                    with contextlib.suppress(BaseException):
                        await conn.writer

    async def _answer(self, m: dict[str, Any]) -> None:
        status, body = 503, "no handler"
        if self.call is not None:
            try:
                status, body = await self.call(m["code"], m["call"], m["args"])
            except Elsewhere:
                status, body = 503, "the room is moving to another server; try again"
            except Exception as e:
                log.exception("forwarded call %s failed", m["call"])
                status, body = 500, f"internal error: {type(e).__name__}"
        await self.publish(
            m["from"], {"op": "reply", "rid": m["rid"], "status": status, "body": body}
        )

    # ------------------------------------------------------------ relay side

    def _next_id(self) -> str:
        self._ids += 1
        return f"{self._ids:x}"

    async def forward_call(
        self, code: str, call: str, args: dict[str, Any], timeout: float = 8.0
    ) -> tuple[int, Any]:
        """Run a lobby call on the room's owner (taking the room over if the owner
        is gone): ``(status, body)``; (-1, None) when this node became the owner."""
        deadline = time.monotonic() + timeout
        while True:
            owner = await self.locate(code)
            if owner == self.node:
                return -1, None
            rid = f"{self.node}.{self._next_id()}"
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.replies[rid] = fut
            try:
                await self.publish(
                    owner,
                    {
                        "op": "call",
                        "rid": rid,
                        "from": self.node,
                        "code": code,
                        "call": call,
                        "args": args,
                    },
                )
                reply = await asyncio.wait_for(fut, 2.0)
                return int(reply["status"]), reply["body"]
            except TimeoutError:
                if time.monotonic() > deadline:
                    return 503, "the room's server does not answer; try again"
            finally:
                self.replies.pop(rid, None)
            await asyncio.sleep(0.2)

    async def relay(self, ws: Any, code: str, host: str, timeout: float = 8.0) -> bool:
        """Relay the WebSocket ``ws`` to the owner of ``code``. Returns False
        without touching ``ws`` if this node became the owner (serve it here)."""
        deadline = time.monotonic() + timeout
        while True:
            owner = await self.locate(code)
            if owner == self.node:
                return False
            cid = self._next_id()
            inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            self.relays[cid] = (owner, inbox)
            await self.publish(
                owner, {"op": "open", "conn": cid, "from": self.node, "code": code, "host": host}
            )
            try:
                first: dict[str, Any] | None = await asyncio.wait_for(inbox.get(), 2.0)
            except TimeoutError:
                first = None
            if first is not None and first["op"] == "opened":
                break
            self.relays.pop(cid, None)
            if first is not None and first.get("reason") == "no_room":
                await ws.send_text(
                    json.dumps(
                        {
                            "type": "error",
                            "id": None,
                            "code": "no_room",
                            "message": f"no room {code!r}",
                        }
                    )
                )
                await ws.close(4404)
                return True
            if time.monotonic() > deadline:
                await ws.send_text(
                    json.dumps(
                        {
                            "type": "error",
                            "id": None,
                            "code": "storage",
                            "message": "the room's server does not answer; reconnect",
                        }
                    )
                )
                await ws.close(1013)
                return True
            await asyncio.sleep(0.2)
        await self._pump(ws, owner, cid, inbox)
        return True

    async def _pump(
        self, ws: Any, owner: str, cid: str, inbox: asyncio.Queue[dict[str, Any]]
    ) -> None:
        async def down() -> None:
            while True:
                m = await inbox.get()
                if m["op"] == "out":
                    await ws.send_text(m["text"])
                elif m["op"] == "closed":
                    with contextlib.suppress(Exception):
                        await ws.close(int(m.get("code", 1012)), m.get("reason") or None)
                    return

        async def up() -> None:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                out: dict[str, Any] = {"op": "msg", "conn": cid, "from": self.node}
                if message.get("text") is not None:
                    out["text"] = message["text"]
                else:
                    data = message.get("bytes") or b""
                    if len(data) > 4 * self.settings.max_message:
                        data = data[: 4 * self.settings.max_message]  # refused there as too large
                    out["b64"] = base64.b64encode(data).decode("ascii")
                await self.publish(owner, out)

        tasks = [asyncio.create_task(down()), asyncio.create_task(up())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t
            self.relays.pop(cid, None)
            with contextlib.suppress(Exception):
                await self.publish(owner, {"op": "close", "conn": cid, "from": self.node})
