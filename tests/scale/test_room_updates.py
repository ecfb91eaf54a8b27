"""Per-room fan-out between processes (issue 15): what a room sends the clients
another process relays travels as one entry per room update — each distinct
text once — and the relaying process fans it out to its own clients, every
client getting exactly its texts in their order, also when other messages
(another room's, an ``opened``/``closed``) are queued in between.

No broker is needed: the queue a process publishes is read back as the Redis
messages it would send, and fed to the relaying process's dispatcher."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from unokit.web.cluster import ClusterHub
from unokit.web.config import Settings


def _hub(node: str) -> ClusterHub:
    # the Redis client connects lazily: nothing here reaches a broker
    return ClusterHub(Settings(db_url="sqlite://"), None, "redis://127.0.0.1:1/0", node=node)  # type: ignore[arg-type]


def _deliver(owner: ClusterHub, relay: ClusterHub) -> list[Any]:
    """Publish the owner's queue to the relay as Redis would; returns the entries."""
    entries: list[Any] = []
    for channel, texts in owner._take_batch().items():
        assert channel == "unokit:node:" + relay.node
        # one PUBLISH per channel: a JSON list when several
        data = json.loads(texts[0] if len(texts) == 1 else f"[{','.join(texts)}]")
        items = data if isinstance(data, list) else [data]
        entries.extend(items)
        for item in items:
            relay._dispatch(item)
    return entries


def test_one_entry_per_room_update_and_each_client_gets_its_texts_in_order() -> None:
    async def main() -> None:
        owner, relay = _hub("own"), _hub("rel")
        inboxes: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        for cid in ("a", "b", "c", "d"):
            inboxes[cid] = asyncio.Queue()
            relay.relays[cid] = ("own", inboxes[cid])
        delta_p0, delta_p1, spect = '{"v":1,"p":0}', '{"v":1,"p":1}', '{"v":1,"p":null}'
        # version 1 of room R: seats 0 (two tabs: a, b), 1 (c) and a spectator (d)
        owner.publish_out("rel", "R", "a", delta_p0)
        owner.publish_out("rel", "R", "b", delta_p0)
        owner.publish_out("rel", "R", "c", delta_p1)
        owner.publish_out("rel", "R", "d", spect)
        # another room, then a close of a: a new entry each, in order
        owner.publish_out("rel", "S", "c", "other-room")
        await owner.publish("rel", {"op": "closed", "conn": "a", "code": 1000, "reason": ""})
        owner.publish_out("rel", "R", "b", '{"v":2}')
        entries = _deliver(owner, relay)
        assert [(e["op"], e.get("code") if e["op"] == "room" else None) for e in entries] == [
            ("room", "R"),
            ("room", "S"),
            ("closed", None),
            ("room", "R"),
        ]
        first = entries[0]
        assert first["code"] == "R" and first["texts"] == [delta_p0, delta_p1, spect]
        assert first["out"] == [["a", 0], ["b", 0], ["c", 1], ["d", 2]]

        def got(cid: str) -> list[str]:
            q = inboxes[cid]
            out = []
            while not q.empty():
                m = q.get_nowait()
                out.append(m["text"] if m["op"] == "out" else m["op"])
            return out

        assert got("a") == [delta_p0, "closed"]
        assert got("b") == [delta_p0, '{"v":2}']
        assert got("c") == [delta_p1, "other-room"]
        assert got("d") == [spect]

    asyncio.run(main())
