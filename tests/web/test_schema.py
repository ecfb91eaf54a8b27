"""The JSON Schemas of the protocol (docs/protocol.schema.json): generated from
the Pydantic models, shipped up to date, served, and true of what the server
sends (checked with the independent ``jsonschema`` validator)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from unokit.web.messages import protocol_schema

pytestmark = pytest.mark.timeout(60)

SHIPPED = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


def test_shipped_schema_is_current(client: TestClient) -> None:
    schema = protocol_schema()
    assert json.loads(SHIPPED.read_text()) == schema, (
        "regenerate: python -m unokit.web.messages > docs/protocol.schema.json"
    )
    assert client.get("/api/protocol.schema.json").json() == schema
    for part in (schema["client"], schema["server"], *schema["rest"].values()):
        Draft202012Validator.check_schema(part)


def test_server_messages_match_the_schema(client: TestClient, room_helpers: Any) -> None:
    schema = json.loads(SHIPPED.read_text())
    server = Draft202012Validator(schema["server"])
    client_v = Draft202012Validator(schema["client"])
    out = room_helpers.create(
        client, "flip", [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    )
    assert Draft202012Validator(schema["rest"]["JoinReply"]).is_valid(out)
    sent = [
        {"type": "hello", "token": out["token"], "deltas": True, "id": 1},
        {"type": "command", "text": "FLY", "id": 2, "version": 1},
        {"type": "command", "text": "DRAW", "id": 3, "version": 0},
        {"type": "chat", "text": "hi"},
        {"type": "resync", "id": 4},
        {"type": "ping", "id": 5},
    ]
    with room_helpers.connect(client, out["room"]) as s:
        ws = room_helpers.wrap(s)
        for msg in sent:
            assert client_v.is_valid(msg), msg
            ws.send(msg)
        ws.until(lambda m: m["type"] == "pong")
        # play a little: deltas carrying their acks, a replayed command's ack
        last: dict[str, Any] | None = None
        for i in range(10, 30):
            ws.send({"type": "resync", "id": i})
            st = ws.state()
            legal = st["observation"]["legal"]
            if legal:
                last = {
                    "type": "command",
                    "id": 100 + i,
                    "text": legal[-1],
                    "version": st["version"],
                }
                ws.send(last)
                ws.until(lambda m, i=i: m.get("id") == 100 + i or m.get("ack") == 100 + i)
        assert last is not None
        ws.send({**last, "id": 99})
        assert ws.reply(99)["replay"] is True
        ws.ping()
    kinds = {m["type"] for m in ws.seen}
    assert {"welcome", "state", "delta", "ack", "error", "chat", "pong"} <= kinds, kinds
    for m in ws.seen:
        errors = sorted(server.iter_errors(m), key=str)
        assert not errors, (m["type"], errors[0].message)
    for bad in ({"type": "command"}, {"type": "hello", "x": 1}, {"type": "ping", "id": -1}):
        assert not client_v.is_valid(bad)
