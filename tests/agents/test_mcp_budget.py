"""The MCP server caps the bots' budget (an error above the documented maxima)
and its bots stop thinking when the call is cancelled (the client went away)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp extra: pip install 'unokit[mcp]'")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.types import CallToolResult, TextContent  # noqa: E402

from unokit.agents.mcp_server import _thinking  # noqa: E402
from unokit.agents.table import AgentTable  # noqa: E402
from unokit.bots.budget import MAX_SIMS, MAX_THINK_MS  # noqa: E402
from unokit.engine.actions import Action  # noqa: E402
from unokit.engine.observation import Observation  # noqa: E402

pytestmark = pytest.mark.timeout(180)

# this tree's unokit (the SDK passes the server only a few variables by default)
SERVER = StdioServerParameters(
    command=sys.executable, args=["-m", "unokit", "mcp"], env=dict(os.environ)
)


def text_of(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


async def test_budgets_above_the_maxima_are_refused() -> None:
    async with Client(SERVER) as client:
        r = await client.call_tool("new_game", {"opponents": "hard", "think_ms": 1_000_000_000})
        assert r.is_error and f"think_ms must be 1 to {MAX_THINK_MS}" in text_of(r)
        r = await client.call_tool("new_game", {"opponents": "hard", "sims": MAX_SIMS + 1})
        assert r.is_error and f"sims must be 1 to {MAX_SIMS}" in text_of(r)
        r = await client.call_tool("new_game", {"think_ms": 5, "sims": 5})
        assert r.is_error and "not both" in text_of(r)
        r = await client.call_tool("ask_bot", {"level": "hard", "think_ms": 10**9})
        assert r.is_error and "think_ms must be" in text_of(r)
        r = await client.call_tool("new_game", {"opponents": "hard", "sims": 50, "seed": 2})
        assert not r.is_error, text_of(r)


class Slow:
    """A bot that takes 0.2 s per decision and counts them."""

    name = "slow"

    def __init__(self, inner: Any, calls: list[float]) -> None:
        self.inner = inner
        self.calls = calls

    def act(self, obs: Observation) -> Action:
        self.calls.append(time.monotonic())
        time.sleep(0.2)
        action: Action = self.inner.act(obs)
        return action


async def test_a_cancelled_call_stops_the_bots_between_decisions() -> None:
    table = AgentTable("classic", 10, "heuristic", seed=5)
    calls: list[float] = []
    table.bots = [None if b is None else Slow(b, calls) for b in table.bots]
    # the agent's move, then up to nine slow bot decisions
    assert table.waiting_for_agent  # the bots before the agent played at once
    move = table.legal_moves()[0]["move"]
    task = asyncio.create_task(_thinking(lambda: table.play(move), table))
    while not calls:
        await asyncio.sleep(0.01)
    task.cancel()
    t0 = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - t0 < 0.15  # the caller is released at once
    # the thread stops at the next decision: at most the one in progress more
    for _ in range(300):
        if table.cancel is None:
            break
        await asyncio.sleep(0.01)
    assert table.cancel is None
    stopped = len(calls)
    assert stopped <= 2  # the decision in progress when cancelled, at most one more
    # the next call lets the bots finish, then the agent decides again
    table.bots = [None if b is None else b.inner for b in table.bots]
    table.advance()
    assert table.waiting_for_agent or table.over
