"""Hostile MCP clients (issue 29, items 6 and 12): one client cannot read, play
or evict another's games; game ids cannot be guessed; unknown tool arguments
are an error naming the accepted ones, and change nothing."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra: pip install 'unokit[mcp]'")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.types import CallToolResult, TextContent  # noqa: E402

from unokit.agents.table import AgentTable  # noqa: E402
from unokit.engine.errors import OptionError  # noqa: E402

pytestmark = pytest.mark.timeout(180)

# the SDK starts a stdio server with a minimal environment: pass ours (PYTHONPATH)
STDIO = StdioServerParameters(
    command=sys.executable, args=["-m", "unokit", "mcp"], env=dict(os.environ)
)


def text_of(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    out = result.structured_content
    if out is not None:
        return dict(out.get("result", out))
    data = json.loads(text_of(result))
    assert isinstance(data, dict)
    return data


@pytest.fixture
async def http_url() -> AsyncIterator[str]:
    import anyio

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "unokit", "mcp", "--transport", "http", "--port", str(port)],
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(200):  # wait (at most 20 s) for the port to open
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, "the server exited"
            await anyio.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert b"Traceback" not in err, err.decode(errors="replace")[-3000:]


async def test_http_clients_do_not_reach_each_others_games(http_url: str) -> None:
    async with Client(http_url) as a, Client(http_url) as b:
        first = ok(await a.call_tool("new_game", {"seed": 1, "opponents": "random"}))
        second = ok(await a.call_tool("new_game", {"seed": 2, "opponents": "random"}))
        ids = [first["game_id"], second["game_id"]]
        for gid in ids:  # unguessable: not a counter
            assert len(gid) >= 16 and not gid[1:].isdigit(), gid
        attempts = 0
        # B, without the id: no "latest game" to fall back on
        for tool, args in (
            ("get_observation", {}),
            ("legal_moves", {}),
            ("play_move", {"move": "P0 DRAW"}),
            ("get_rules", {}),
            ("ask_bot", {"level": "random"}),
        ):
            r = await b.call_tool(tool, args)
            attempts += 1
            assert r.is_error and "game_id" in text_of(r), (tool, text_of(r))
        # B guessing ids in the old order
        for guess in ("g1", "g2", "g3", ids[0][:-1] + ("A" if ids[0][-1] != "A" else "B")):
            r = await b.call_tool("get_observation", {"game_id": guess})
            attempts += 1
            assert r.is_error and "no game" in text_of(r)
            assert ids[1] not in text_of(r)  # other ids are never listed
        # A's game is as it was: same view, same legal moves
        again = ok(await a.call_tool("get_observation", {"game_id": ids[1]}))
        assert again["observation"] == second["observation"]
        assert again["legal_moves"] == second["legal_moves"]
        assert attempts == 9


def ctx(headers: dict[str, str] | None, host: str = "127.0.0.1") -> Any:
    request = SimpleNamespace(client=SimpleNamespace(host=host))
    return SimpleNamespace(headers=headers, request_context=SimpleNamespace(request=request))


def table() -> AgentTable:
    return AgentTable("classic", 2, "random", {}, False, 0, 1, None)


def test_sessions_own_their_games_and_caps() -> None:
    from unokit.agents.mcp_server import Sessions

    s = Sessions(per_owner=3, max_owners=3)
    a, b = ctx({"mcp-session-id": "aaa"}), ctx({"mcp-session-id": "bbb"})
    ga = s.of(a).add(table())
    with pytest.raises(OptionError, match="no game yet"):
        s.of(b).get("")  # B has no games, and does not see A's latest
    with pytest.raises(OptionError, match="no game"):
        s.of(b).get(ga)  # nor A's by its id
    # A's own cap: its oldest game makes way; B's games are not touched
    gb = s.of(b).add(table())
    a_ids = [ga] + [s.of(a).add(table()) for _ in range(3)]
    with pytest.raises(OptionError):
        s.of(a).get(a_ids[0])
    assert s.of(a).get("")[0] == a_ids[-1]
    assert s.of(b).get(gb)[0] == gb
    # a flood of new clients is refused, never evicting others
    s.of(ctx(None))  # stdio: the one client
    with pytest.raises(OptionError, match="clients already"):
        s.of(ctx({"mcp-session-id": "ccc"}))
    assert s.of(b).get(gb)[0] == gb and len(s) == 3
    # without a session, calls must name their game
    t = Sessions().of(ctx({}, host="10.0.0.9"))
    g = t.add(table())
    with pytest.raises(OptionError, match="game_id"):
        t.get("")
    assert t.get(g)[0] == g


def test_idle_owners_are_forgotten() -> None:
    from unokit.agents.mcp_server import Sessions

    now = [0.0]
    s = Sessions(idle=60, clock=lambda: now[0])
    s.of(ctx({"mcp-session-id": "old"})).add(table())
    now[0] = 61.0
    s.of(ctx({"mcp-session-id": "new"}))
    assert len(s) == 1


async def test_unknown_arguments_are_refused_with_the_accepted_ones() -> None:
    async with Client(STDIO) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        for t in tools.values():
            assert t.input_schema.get("additionalProperties") is False, t.name
        r = await client.call_tool("new_game", {"zzz_not_an_argument": [1]})
        assert r.is_error
        msg = text_of(r)
        assert "zzz_not_an_argument" in msg and "opponents" in msg and "variant" in msg, msg
        r = await client.call_tool("legal_moves", {})  # no game was started
        assert r.is_error and "no game yet" in text_of(r)
        r = await client.call_tool("new_game", {"opponent": "hard", "seed": 1})
        assert r.is_error and "'opponent'" in text_of(r) and "opponents" in text_of(r)
        start = ok(await client.call_tool("new_game", {"seed": 1, "opponents": "random"}))
        move = start["legal_moves"][0]["move"]
        r = await client.call_tool("play_move", {"move": move, "gameid": start["game_id"]})
        assert r.is_error and "gameid" in text_of(r) and "game_id" in text_of(r)
        # refused calls changed nothing
        same = ok(await client.call_tool("legal_moves", {"game_id": start["game_id"]}))
        assert same["legal_moves"] == start["legal_moves"]
