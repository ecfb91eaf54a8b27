"""``unokit mcp`` driven over stdio by the MCP SDK's own client: a whole game
with only the listed tools and legal moves, and bad calls with clear errors."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra: pip install 'unokit[mcp]'")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.types import CallToolResult, TextContent  # noqa: E402

from unokit import Game  # noqa: E402
from unokit.records.record import dumps  # noqa: E402

pytestmark = pytest.mark.timeout(180)

SERVER = StdioServerParameters(command=sys.executable, args=["-m", "unokit", "mcp"])
TOOLS = {
    "new_game",
    "get_observation",
    "legal_moves",
    "play_move",
    "call_uno",
    "catch_uno",
    "get_rules",
    "ask_bot",
}


def text_of(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    if result.structured_content is not None:
        out = result.structured_content
        return dict(out.get("result", out)) if isinstance(out, dict) else out
    data = json.loads(text_of(result))
    assert isinstance(data, dict)
    return data


async def test_a_whole_game_through_the_tools() -> None:
    rng = random.Random(7)
    async with Client(SERVER) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert TOOLS <= set(tools)
        for t in tools.values():  # every tool explains itself to a model
            assert t.description and len(t.description) > 60
        start = ok(await client.call_tool("new_game", {
            "variant": "flip", "players": 3, "opponents": "heuristic", "seed": 12,
            "match": False}))  # fmt: skip
        gid = start["game_id"]
        assert "Your hand" in start["observation"]
        assert start["happened"][0].startswith("Round 1")  # the deal, told once
        seen_json = ok(await client.call_tool("get_observation", {"format": "json"}))
        obs = seen_json["observation"]
        assert obs["seat"] == 0 and len(obs["hand"]) == obs["hand_sizes"][0]
        assert "backs" in obs and obs["backs"][0] == []  # it sees other backs, not its own
        rules = ok(await client.call_tool("get_rules", {}))
        assert rules["variant"] == "flip" and "Flip" in rules["rules"]
        moves = 0
        state = start
        while not state["game_over"]:
            listed = ok(await client.call_tool("legal_moves", {"game_id": gid}))["legal_moves"]
            assert listed == state["legal_moves"]
            assert listed, "the game is not over, so there is a move"
            choice = rng.choice(listed)["move"]
            if " PLAY " in choice and len(obs["hand"]) == 2:
                choice += " uno=true"
            state = ok(await client.call_tool("play_move", {"move": choice, "game_id": gid}))
            assert not any(x.startswith("Round 1:") for x in state["happened"])
            assert state["accepted"].split(" uno=")[0] in (choice.split(" uno=")[0],)
            obs = ok(await client.call_tool("get_observation", {"format": "json"}))["observation"]
            moves += 1
            assert moves < 500
        assert moves > 5
        assert "The game is over" in state["observation"]
        assert ok(await client.call_tool("legal_moves", {}))["legal_moves"] == []


async def test_bad_calls_get_clear_errors() -> None:
    async with Client(SERVER) as client:
        r = await client.call_tool("play_move", {"move": "P0 DRAW"})
        assert r.is_error and "no game yet: start one with new_game" in text_of(r)
        r = await client.call_tool("new_game", {"variant": "classic", "players": 11})
        assert r.is_error and "players" in text_of(r).lower()
        r = await client.call_tool("new_game", {"opponents": "grandmaster"})
        assert r.is_error and "unknown bot 'grandmaster'" in text_of(r)
        r = await client.call_tool("new_game", {"options": {"stacking": "always"}})
        assert r.is_error and "stacking" in text_of(r)
        start = ok(await client.call_tool("new_game", {"seed": 3, "opponents": "heuristic"}))
        legal = [m["move"] for m in start["legal_moves"]]
        r = await client.call_tool("play_move", {"move": "P0 PLAY R9"})
        msg = text_of(r)
        assert r.is_error and "'P0 PLAY R9' is not legal" in msg and "Legal moves now:" in msg
        assert all(m in msg for m in legal)
        r = await client.call_tool("play_move", {"move": "P0 FLY away"})
        assert r.is_error and "unknown command 'FLY'" in text_of(r)
        r = await client.call_tool("catch_uno", {"target": 1})
        assert r.is_error and "Legal moves now:" in text_of(r)
        r = await client.call_tool("get_observation", {"game_id": "g99"})
        assert r.is_error and "no game 'g99'" in text_of(r)
        # nothing changed: the same moves are legal
        again = ok(await client.call_tool("legal_moves", {}))["legal_moves"]
        assert [m["move"] for m in again] == legal


async def test_ask_a_level_about_a_record() -> None:
    g = Game.new("classic", 2, seed=5, events=True)
    g.apply(g.legal_actions()[-1])  # a draw, or the only answer
    record = dumps(g)
    async with Client(SERVER) as client:
        out = ok(await client.call_tool("ask_bot", {"level": "heuristic", "record": record}))
        assert out["position"] == "the record after 1 of 1 commands"
        legal = [str(a) for a in g.observe(g.to_act).legal]
        assert out["move"].split(" uno=")[0] in legal and out["meaning"]
        r = await client.call_tool("ask_bot", {"record": "not a record"})
        assert r.is_error and "unokit-record" in text_of(r)
        r = await client.call_tool("ask_bot", {"record": record, "step": 9})
        assert r.is_error and "step must be 0 to 1" in text_of(r)


async def test_streamable_http() -> None:
    import socket
    import subprocess

    import anyio

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "unokit", "mcp", "--transport", "http",
                             "--port", str(port)], stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        for _ in range(200):  # wait (at most 20 s) for the port to open
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, "the server exited"
            await anyio.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            start = ok(await client.call_tool("new_game", {"variant": "flex", "seed": 4}))
            move = start["legal_moves"][0]["move"]
            played = await client.call_tool(
                "play_move", {"move": move, "game_id": start["game_id"]}
            )
            assert ok(played)["accepted"] == move
    finally:
        proc.terminate()
        proc.wait(timeout=10)
