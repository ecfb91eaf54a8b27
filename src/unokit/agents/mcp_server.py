"""``unokit mcp``: UNO, UNO Flip and UNO Flex for language-model agents, as an
MCP server (the official ``mcp`` Python SDK; stdio or streamable HTTP).

The tools wrap :class:`unokit.agents.table.AgentTable`: the agent holds one
seat, our bots the others. Every tool answers in plain JSON; a refused call is
an MCP tool error whose text says what was wrong and what is legal. See
docs/mcp.md.
"""

from __future__ import annotations

import functools
import inspect
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from unokit.agents.table import AgentTable, ask_level, think_options
from unokit.engine.errors import OptionError, UnoError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.tools import Tool

__all__ = ["build_server", "Sessions", "Tables", "INSTRUCTIONS"]

INSTRUCTIONS = """\
You are playing UNO (variants: classic, flip, flex) against bots, by the exact
official rules. Loop: new_game, then repeatedly legal_moves (or read the
legal_moves returned by the last call) and play_move with one move copied
exactly from that list, until game_over is true. get_observation shows your
hand and the table in words or JSON; get_rules explains the rules in force.
A PLAY that leaves you with one card should end with ' uno=true' (calling
UNO), or a bot may catch you (you draw 2)."""

_MOVE_HELP = (
    "Moves are in the project's notation, e.g. 'P0 PLAY R5', 'P0 PLAY W4 color=G', "
    "'P0 PLAY R5+B5' (multiPlay: several cards of one number), "
    "'P0 DRAW', 'P0 PASS', 'P0 ACCEPT', 'P0 CHALLENGE', 'P0 COLOR B', 'P0 CATCH P1', "
    "'NEXT' (next round), 'WAIT' (let a chance out of turn go). Cards: colour letter "
    "R Y G B (Flip dark side: Pk Tl Or Pu) then 0-9, S skip, R reverse, D2 draw two; "
    "W wild, W4 wild draw four; Flip cards are written light|dark, e.g. 'Y1|DW'."
)


class Tables:
    """The games of one owner (docs/mcp.md, "Sessions"), by id; the last one
    started is the default unless ``require_id``.

    Ids are unguessable (``g`` and 96 random bits); at most ``limit`` games are
    kept, the owner's oldest one making way for its newest."""

    def __init__(self, limit: int = 16, require_id: bool = False) -> None:
        self.limit = limit
        self.require_id = require_id
        self._games: OrderedDict[str, AgentTable] = OrderedDict()

    def add(self, table: AgentTable) -> str:
        gid = "g" + secrets.token_urlsafe(12)
        self._games[gid] = table
        while len(self._games) > self.limit:
            self._games.popitem(last=False)
        return gid

    def get(self, game_id: str = "") -> tuple[str, AgentTable]:
        gid = game_id.strip()
        if not gid and self.require_id:
            raise OptionError(
                "pass game_id (the one new_game returned): without an MCP session, "
                "a game is reached by its id only"
            )
        if not self._games:
            raise OptionError("no game yet: start one with new_game")
        gid = gid or next(reversed(self._games))
        if gid not in self._games:
            shown = "" if self.require_id else f"; your games: {', '.join(self._games)}"
            raise OptionError(f"no game {gid[:40]!r} of yours{shown} (omit game_id for the latest)")
        return gid, self._games[gid]


class Sessions:
    """Each client's own :class:`Tables`: one client can neither read, play nor
    evict another's games (docs/mcp.md, "Sessions").

    The owner of a call is: over stdio, the one client (single-user mode);
    over HTTP, the MCP session (``Mcp-Session-Id``, checked by the SDK) when
    the client opened one, else the client's address, and then every call
    must name its ``game_id`` (an unguessable id: a capability). Owners idle
    for ``idle`` seconds are forgotten; past ``max_owners`` at once, a new
    owner's first game is refused (never someone else's evicted)."""

    def __init__(
        self,
        per_owner: int = 16,
        max_owners: int = 256,
        idle: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_owner = per_owner
        self.max_owners = max_owners
        self.idle = idle
        self.clock = clock
        self._owners: OrderedDict[str, tuple[float, Tables]] = OrderedDict()

    @staticmethod
    def owner(ctx: Any) -> tuple[str, bool]:
        """(owner key, whether calls must name their game) of a tool call."""
        headers = ctx.headers
        if headers is None:
            return "stdio", False
        session = headers.get("mcp-session-id")
        if session:
            return f"session {session}", False
        client = getattr(ctx.request_context.request, "client", None)
        return f"address {client.host if client else '?'}", True

    def of(self, ctx: Any) -> Tables:
        key, require_id = self.owner(ctx)
        now = self.clock()
        while self._owners:  # forget the idle ones, oldest first
            first = next(iter(self._owners))
            if now - self._owners[first][0] < self.idle or first == key:
                break
            del self._owners[first]
        if key in self._owners:
            tables = self._owners.pop(key)[1]
        else:
            if len(self._owners) >= self.max_owners:
                raise OptionError(
                    f"this server holds the games of {self.max_owners} clients already; "
                    "try again later"
                )
            tables = Tables(self.per_owner, require_id)
        self._owners[key] = (now, tables)
        return tables

    def __len__(self) -> int:
        return len(self._owners)


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise OptionError(message)


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


async def _thinking(work: Callable[[], T], table: AgentTable | None = None) -> T:
    """Run ``work`` (bots thinking) in a worker thread, off the server's event
    loop. If the call is cancelled (the client went away), the caller gets
    the cancellation at once and the table's bots stop before their next
    decision (each is bounded by the budget caps: ``MAX_THINK_MS``, ``MAX_SIMS``)."""
    import anyio.to_thread

    stop = threading.Event()

    def run() -> T:
        if table is not None:
            table.cancel = stop
        try:
            return work()
        finally:
            if table is not None and table.cancel is stop:
                table.cancel = None

    try:
        return await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
    except BaseException:
        stop.set()
        raise


def _tool(fn: Callable[..., Any], sessions: Sessions) -> Tool:
    """The MCP tool of ``fn``, whose first parameter ``tables`` receives the
    calling session's games; its other parameters are the tool's arguments,
    and any other argument is refused with the accepted ones named (the input
    schema says ``additionalProperties: false``).

    A refused call (bad input, illegal move) reaches the model as a tool error
    with its message; anything else stays a crash (logged by the SDK)."""
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.tools import Tool
    from pydantic import model_validator

    @functools.wraps(fn)
    def plain(*args: Any, ctx: Context, **kwargs: Any) -> Any:
        try:
            return fn(sessions.of(ctx), *args, **kwargs)
        except UnoError as e:
            raise ToolError(str(e)) from None

    @functools.wraps(fn)
    async def thinking(*args: Any, ctx: Context, **kwargs: Any) -> Any:
        try:
            return await fn(sessions.of(ctx), *args, **kwargs)
        except UnoError as e:
            raise ToolError(str(e)) from None

    # a tool whose bots think is a coroutine (off the loop, cancellable)
    wrapper: Callable[..., Any] = thinking if inspect.iscoroutinefunction(fn) else plain

    sig = inspect.signature(fn, eval_str=True)
    params = list(sig.parameters.values())
    assert params[0].name == "tables", fn.__name__
    ctx = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    wrapper.__signature__ = sig.replace(parameters=[*params[1:], ctx])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params[1:]} | {"ctx": Context}
    del wrapper.__wrapped__  # type: ignore[attr-defined]
    tool = Tool.from_function(wrapper)
    accepted = [p.name for p in params[1:]]
    base = tool.fn_metadata.arg_model

    def only_known(data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in accepted)
            if unknown:
                raise ValueError(
                    f"unknown argument{'s' if len(unknown) > 1 else ''} "
                    f"{', '.join(map(repr, unknown))}; {fn.__name__} accepts: "
                    + (", ".join(accepted) or "no arguments")
                )
        return data

    checked = type(
        base.__name__,
        (base,),
        {"__module__": base.__module__, "_only_known": model_validator(mode="before")(only_known)},
    )
    tool.fn_metadata.arg_model = checked
    tool.parameters["additionalProperties"] = False
    return tool


def build_server(sessions: Sessions | None = None) -> MCPServer:
    """The MCP server with its tools (``unokit mcp`` runs it)."""
    from mcp.server.mcpserver import MCPServer

    from unokit import __version__ as version

    sessions = sessions if sessions is not None else Sessions()
    tools: list[Tool] = []

    def tool() -> Callable[[F], F]:
        def register(fn: F) -> F:
            tools.append(_tool(fn, sessions))
            return fn

        return register

    def state(gid: str, t: AgentTable, news: bool = False) -> dict[str, Any]:
        return {
            "game_id": gid,
            **({"happened": t.news()} if news else {}),
            "seat": t.seat,
            "your_seat_name": f"P{t.seat}",
            "observation": t.text(),
            "legal_moves": t.legal_moves(),
            "game_over": t.over,
        }

    @tool()
    async def new_game(
        tables: Tables,
        variant: Literal["classic", "flip", "flex"] = "classic",
        players: int = 2,
        opponents: str = "normal",
        options: dict[str, str | int | bool] | None = None,
        match: bool = False,
        seat: int = 0,
        seed: int | None = None,
        think_ms: int | None = None,
        sims: int | None = None,
    ) -> dict[str, Any]:
        """Start a game of UNO against bots and return your first view and legal moves.

        variant: classic (UNO), flip (UNO Flip) or flex (UNO Flex).
        players: 2 to 10 seats (flex: 2 to 8), you included.
        opponents: the bots' level: easy, normal, hard (strongest), heuristic or random;
          one for all bots or one per bot seat, comma-separated (e.g. "hard,easy").
        options: rule options by name, e.g. {"stacking": "same_symbol", "jumpIn": true,
          "sevenZero": true, "drawUntilPlayable": true, "targetScore": 200}; see get_rules.
        match: false = one round; true = a whole match to the target score (500 by default).
        seat: your seat number (0 = P0); the bots take the others.
        seed: a number to replay the same deal; random if omitted.
        think_ms: thinking time of 'hard' bots, in milliseconds of CPU (1 to 5000).
        sims: or their budget by count, rollouts per decision (1 to 100000); neither:
          the level's own budget (the same as at the web table).
        Returns game_id, your seat, the observation in words and your legal moves."""
        _check(players >= 2, "players must be at least 2")
        think_options(think_ms, sims)  # a budget above the maxima: an error at once

        def start() -> tuple[str, AgentTable]:
            table = AgentTable(variant, players, opponents, dict(options or {}), match, seat,
                               seed, think_ms, sims)  # fmt: skip
            return tables.add(table), table

        gid, table = await _thinking(start)
        return state(gid, table, news=True)

    @tool()
    def get_observation(
        tables: Tables, format: Literal["text", "json"] = "text", game_id: str = ""
    ) -> dict[str, Any]:
        """Read what you may know of the game: your hand, the top card and colour in
        force, direction, every player's card count, UNO calls, scores (Flip: the back
        faces you see; Flex: Power Cards).

        format: "text" (plain words) or "json" (every field, cards in notation, the last
          30 events of the round, and 'legal': your legal moves).
        game_id: the id new_game returned; omit it for the latest game."""
        _check(format in ("text", "json"), "format must be 'text' or 'json'")
        gid, t = tables.get(game_id)
        if format == "json":
            return {"game_id": gid, "observation": t.json(), "game_over": t.over}
        return state(gid, t)

    @tool()
    def legal_moves(tables: Tables, game_id: str = "") -> dict[str, Any]:
        """List your legal moves now, each as a command to pass verbatim to play_move,
        with what it does in words. Empty when the game is over.

        game_id: omit it for the latest game."""
        gid, t = tables.get(game_id)
        return {"game_id": gid, "status": t.status(), "legal_moves": t.legal_moves(),
                "notation": _MOVE_HELP}  # fmt: skip

    @tool()
    async def play_move(tables: Tables, move: str, game_id: str = "") -> dict[str, Any]:
        """Play one of your legal moves, then the bots play until it is your decision again.

        move: one command copied exactly from legal_moves, e.g. "P0 PLAY R5" or
          "P0 PLAY W4 color=G" or "P0 DRAW". Add " uno=true" to a PLAY that leaves you
          with one card, to call UNO. "NEXT" deals the next round of a match; "WAIT"
          lets a chance to catch go.
        game_id: omit it for the latest game.
        Returns what happened since (in words), your new observation, your legal moves
        and game_over. A refused move changes nothing; the error says why and lists
        the legal moves."""
        _, t = tables.get(game_id)
        return await _thinking(lambda: t.play(move), t)

    @tool()
    async def call_uno(tables: Tables, game_id: str = "") -> dict[str, Any]:
        """Call UNO now (when you hold one or two cards and UNO is among your legal moves).
        Usually simpler: add " uno=true" to the PLAY that leaves you one card.

        game_id: omit it for the latest game."""
        _, t = tables.get(game_id)
        return await _thinking(lambda: t.play(f"P{t.seat} UNO"), t)

    @tool()
    async def catch_uno(tables: Tables, target: int, game_id: str = "") -> dict[str, Any]:
        """Catch player P<target>, who has one card and did not call UNO: they draw a
        penalty. Only when "P<you> CATCH P<target>" is among your legal moves.

        target: the seat number of the player to catch (1 for P1).
        game_id: omit it for the latest game."""
        _, t = tables.get(game_id)
        return await _thinking(lambda: t.play(f"P{t.seat} CATCH P{target}"), t)

    @tool()
    def get_rules(
        tables: Tables,
        game_id: str = "",
        variant: Literal["", "classic", "flip", "flex"] = "",
        options: dict[str, str | int | bool] | None = None,
    ) -> dict[str, Any]:
        """The rules in force, in plain words (Markdown), and the option values.

        With no arguments: the rules of the latest game. With variant (and options):
        those rules, without a game.
        game_id: a game's id (omit it for the latest game)."""
        from unokit.engine.options import Options
        from unokit.tui.rules_text import rules_text

        if variant:
            opts = Options.from_dict(dict(options or {}))
            name: str = variant
        else:
            _, t = tables.get(game_id)
            opts = t.game.options
            name = t.game.variant.name
        return {"variant": name, "options": opts.to_dict(), "rules": rules_text(name, opts),
                "notation": _MOVE_HELP}  # fmt: skip

    @tool()
    async def ask_bot(
        tables: Tables,
        level: str = "hard",
        game_id: str = "",
        record: str = "",
        step: int = -1,
        seat: int = -1,
        think_ms: int | None = None,
        sims: int | None = None,
    ) -> dict[str, Any]:
        """Ask what one of our bot levels would play in a position, from that seat's
        view only (it never sees other hands).

        level: easy, normal, hard, heuristic or random.
        record: optional text of a game record: the JSON record of docs/record-format.md
          (written by 'unokit play --save' or downloaded from a web match; the old
          'unokit-record 1' lines are read too); without it, your current position in
          game_id is used.
        step: with a record, the position after this many commands (-1: the end).
        seat: the seat to ask for (-1: the seat whose decision it is).
        think_ms: thinking time for 'hard', in milliseconds of CPU (1 to 5000).
        sims: or its budget by count, rollouts (1 to 100000); neither: the level's own.
        Returns the move in notation and its meaning."""
        from dataclasses import replace

        from unokit.agents.table import move_meaning
        from unokit.engine.actions import Play
        from unokit.records.record import loads

        think_options(think_ms, sims)  # a budget above the maxima: an error at once
        if record.strip():
            rec = loads(record)
            total = len(rec.commands)
            _check(-1 <= step <= total, f"step must be 0 to {total} (or -1 for the end)")
            game = rec.start()
            for n, command in enumerate(rec.commands[: total if step == -1 else step], 1):
                try:
                    if command.strip().upper() == "START":
                        game.start()
                    else:
                        game.apply(command)
                except UnoError as e:
                    raise OptionError(
                        f"record command {n} ({command!r}) does not replay: {e}"
                    ) from None
            where = f"the record after {total if step == -1 else step} of {total} commands"
        else:
            gid, t = tables.get(game_id)
            game = t.game
            where = f"game {gid}"
        action, obs = await _thinking(
            lambda: ask_level(level, game, None if seat < 0 else seat, think_ms, sims=sims)
        )
        if isinstance(action, Play) and action.uno and len(obs.hand) != 2:
            action = replace(action, uno=False)  # an UNO call only matters with two cards
        return {"position": where, "seat": obs.seat, "level": level, "move": str(action),
                "meaning": move_meaning(action, obs)}  # fmt: skip

    server: MCPServer = MCPServer(
        "unokit", instructions=INSTRUCTIONS, version=version, log_level="WARNING", tools=tools
    )
    return server


def run(transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve until the client disconnects (stdio) or the process is stopped (http)."""
    server = build_server()
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)
