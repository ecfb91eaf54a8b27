"""The engine protocol (UEP): a bot in any language, as a program on stdin/stdout.

:class:`EngineBot` runs an engine program and speaks the line protocol of
``docs/engine-protocol.md`` with it: a handshake (``uep`` / ``uepok``), then
per decision a ``position`` block (the seat's observation, key by key, its
legal moves one per line, in the command notation) and ``go MS``; the engine
answers ``move COMMAND`` within ``MS`` milliseconds.

Everything an engine can do wrong is an :class:`EngineError` that names the
seat and says what happened: the program cannot be started, exits, says
something other than the protocol, takes longer than its time, or answers a
move that is not legal (the message lists the legal ones). A tournament counts
that game as lost by the engine's seat and goes on
(:func:`unokit.bots.tournament.play_game`).

The engine sees exactly the seat's observation (``Observation.to_dict()``
without the history, plus the legal moves), never more.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any

from unokit.engine.actions import Action, Play, parse_action
from unokit.engine.errors import BotFailure, OptionError, UnoError
from unokit.engine.observation import Observation

if TYPE_CHECKING:
    from unokit.bots.base import Bot

__all__ = ["EngineBot", "EngineError", "match_legal", "position_lines", "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 1
_MAX_LINE = 64 * 1024


class EngineError(BotFailure):
    """The engine at ``seat`` failed (crash, timeout, bad answer, illegal move)."""


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) or "-"


def _seat(seat: int | None) -> str:
    return "-" if seat is None else f"P{seat}"


def position_lines(obs: Observation) -> list[str]:
    """The ``position`` block for ``obs`` (without ``go``): one ``key value``
    line per fact, then ``legal N`` and the N legal moves, then ``end``.

    >>> from unokit import Game
    >>> lines = position_lines(Game.new("classic", 2, seed=1).observe(1))
    >>> lines[0], lines[1], lines[-1]
    ('position', 'variant classic', 'end')
    """
    d = obs.to_dict()
    d.pop("history", None)
    lines = [
        "position",
        f"variant {obs.variant}",
        f"players {obs.players}",
        f"seat {_seat(obs.seat)}",
        f"round {obs.round}",
        f"phase {obs.phase}",
        f"current P{obs.current}",
        f"direction {d['direction']}",
        f"side {d['side']}",
        f"color {d['color'] or '-'}",
        f"top {d['top'] or '-'}",
        f"topface {d['top_face'] or '-'}",
        f"hand {_cards(obs.hand)}",
        f"handsizes {' '.join(map(str, obs.hand_sizes))}",
        f"drawsize {obs.draw_size}",
        f"uno {' '.join(obs.uno)}",
        f"scores {' '.join(map(str, obs.scores))}",
        f"drawn {d['drawn'] or '-'}",
        f"pending {obs.pending_draw}",
        f"offender {_seat(obs.challenge_offender)}",
        "json " + json.dumps(d, separators=(",", ":")),
        f"legal {len(obs.legal)}",
        *(str(a) for a in obs.legal),
        "end",
    ]
    return lines


def _canonical(action: Action) -> Action:
    """A play's UNO call is free to add: compare moves without it."""
    return replace(action, uno=False) if isinstance(action, Play) else action


def _label(command: str) -> str:
    words = shlex.split(command)
    path = next((w for w in reversed(words) if "/" in w), words[0] if words else command)
    return os.path.basename(path) or command


class EngineBot:
    """A bot played by an external program over the engine protocol.

    ``command`` is split like a shell would (no shell runs it). The program
    starts at the first decision; ``timeout_ms`` bounds each move (and
    ``startup_ms`` the handshake). Raises :class:`EngineError` on any failure
    and :class:`~unokit.engine.errors.OptionError` at once if the program does not
    exist. Call :meth:`close` when the game is over (a finaliser kills the
    program otherwise).

    With ``fallback`` (a bot name, for a game with people: ``unokit play``),
    a failure is reported once on stderr, kept in :attr:`failure`, and that
    bot plays the seat from then on instead of raising."""

    catches = True

    def __init__(
        self,
        seed: int = 0,
        command: str = "",
        timeout_ms: int = 5000,
        startup_ms: int = 10000,
        fallback: str | None = None,
        **_: Any,
    ) -> None:
        if not command or not command.strip():
            raise OptionError("the engine bot needs a command, e.g. --engine ./my-engine")
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise OptionError(f"cannot read the engine command {command!r}: {e}") from None
        exe = argv[0]
        if shutil.which(exe) is None:
            raise OptionError(
                f"engine program {exe!r} not found"
                + ("" if "/" in exe else " on PATH")
                + " or not executable"
            )
        if int(timeout_ms) < 1 or int(startup_ms) < 1:
            raise OptionError("engine timeouts must be at least 1 ms")
        self.command = command
        self.argv = argv
        self.seed = seed
        self.timeout_ms = int(timeout_ms)
        self.startup_ms = int(startup_ms)
        self.name = f"engine:{_label(command)}"
        self.engine_name = ""
        self.log: list[str] = []  # the engine's ``info`` lines, last 100
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buf = b""
        self._game_key: tuple[str, int, int | None] | None = None
        self._finalizer: weakref.finalize | None = None  # type: ignore[type-arg]
        self.failure: str | None = None
        self._fallback: Bot | None = None
        if fallback is not None:
            from unokit.bots.base import make_bot

            self._fallback = make_bot(fallback, seed=seed)

    # -- process -----------------------------------------------------------------

    def _start(self, seat: int | None) -> None:
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                start_new_session=True,  # so that a kill reaches its children too
            )
        except OSError as e:
            raise EngineError(f"cannot start engine {self.command!r}: {e}", seat) from None
        self._finalizer = weakref.finalize(self, _kill, self._proc)
        self._send(["uep"], seat, self.startup_ms)
        deadline = time.monotonic() + self.startup_ms / 1000
        while True:
            line = self._readline(deadline, seat, "the handshake (uepok)")
            word, _, rest = line.partition(" ")
            if word == "uepok":
                break
            if word == "id" and rest.startswith("name "):
                self.engine_name = rest[5:].strip()
            # anything else before uepok is ignored (like UCI)

    def _send(self, lines: list[str], seat: int | None, ms: int) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        data = ("\n".join(lines) + "\n").encode()
        fd = proc.stdin.fileno()
        deadline = time.monotonic() + ms / 1000
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"does not read its input (blocked for {ms} ms)", seat)
            _, w, _ = select.select([], [fd], [], left)
            if not w:
                continue
            try:
                n = os.write(fd, data[:4096])
            except (BrokenPipeError, ConnectionResetError):
                raise self._fail("closed its input", seat) from None
            data = data[n:]

    def _readline(self, deadline: float, seat: int | None, waiting: str) -> str:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"gave no answer in time while waiting for {waiting}", seat)
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._fail(f"ended its output while waiting for {waiting}", seat)
            self._buf += chunk
            if len(self._buf) > _MAX_LINE and b"\n" not in self._buf:
                raise self._fail(f"wrote a line longer than {_MAX_LINE} bytes", seat)
        raw, _, self._buf = self._buf.partition(b"\n")
        return raw.decode("utf-8", "replace").strip()

    def _fail(self, what: str, seat: int | None) -> EngineError:
        """Kill the engine and describe what went wrong (exit code, stderr tail)."""
        proc = self._proc
        detail = ""
        if proc is not None:
            _kill(proc)
            code = proc.poll()
            if code is not None and code != 0 and code != -signal.SIGKILL:
                detail += f"; it exited with status {code}"
            tail = self._stderr_tail()
            if tail:
                detail += f"; its stderr ended with: {tail!r}"
        self._proc = None
        return EngineError(f"engine {self.name} at {_seat(seat)} {what}{detail}", seat)

    def _stderr_tail(self) -> str:
        f = self._stderr
        if f is None:
            return ""
        try:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 300))
            return f.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def close(self) -> None:
        """Say ``quit`` and stop the program (killed if it lingers)."""
        proc = self._proc
        self._proc = None
        if proc is not None:
            try:
                if proc.poll() is None and proc.stdin is not None:
                    proc.stdin.write(b"quit\n")
                    proc.stdin.flush()
                    proc.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                pass
            _kill(proc)
        if self._finalizer is not None:
            self._finalizer.detach()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # -- the bot -----------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        if self._fallback is None:
            return self._act(obs)
        if self.failure is None:
            try:
                return self._act(obs)
            except EngineError as e:
                self.failure = str(e)
                self.close()
                sys.stderr.write(f"{e}; {self._fallback.name} plays the seat from now on\n")
        return self._fallback.act(obs)

    def _act(self, obs: Observation) -> Action:
        seat = obs.seat
        if not obs.legal:
            raise EngineError(f"engine {self.name} asked to act with no legal move", seat)
        if self._proc is None:
            self._start(seat)
        key = (obs.variant, obs.players, seat)
        if key != self._game_key:
            self._game_key = key
            opts = obs.options.to_dict()
            self._send(
                [f"newgame {obs.variant} {obs.players} {_seat(seat)}"]
                + [f"option {k} {json.dumps(v)}" for k, v in sorted(opts.items())],
                seat,
                self.timeout_ms,
            )
        self._send([*position_lines(obs), f"go {self.timeout_ms}"], seat, self.timeout_ms)
        deadline = time.monotonic() + self.timeout_ms / 1000
        while True:
            line = self._readline(deadline, seat, f"its move (go {self.timeout_ms})")
            word, _, rest = line.partition(" ")
            if word == "info":
                self.log = [*self.log[-99:], rest]
                continue
            if word == "move":
                return self._check(rest.strip(), obs)
            if not line:
                continue
            raise self._fail(f"answered {line[:200]!r} where 'move COMMAND' was expected", seat)

    def _check(self, text: str, obs: Observation) -> Action:
        try:
            return match_legal(text, obs)
        except UnoError as e:
            raise EngineError(
                f"engine {self.name} at {_seat(obs.seat)} answered {e}", obs.seat
            ) from None


def match_legal(text: str, obs: Observation) -> Action:
    """The legal move of ``obs`` that ``text`` names (a ``PLAY`` may add
    ``uno=true``); :class:`~unokit.engine.errors.IllegalActionError` saying why not,
    with the legal moves, otherwise.

    >>> from unokit import Game
    >>> g = Game.new("classic", 2, seed=3)
    >>> str(match_legal("p1 play br uno=true", g.observe(1)))
    'P1 PLAY BR uno=true'
    >>> match_legal("P1 PLAY R9", g.observe(1))
    Traceback (most recent call last):
    ...
    unokit.engine.errors.IllegalActionError: the illegal move 'P1 PLAY R9'; legal: P1 PLAY BR; P1 PLAY W4 color=R; P1 PLAY W4 color=Y; P1 PLAY W4 color=G; P1 PLAY W4 color=B; P1 DRAW
    """
    from unokit.engine.errors import IllegalActionError
    from unokit.engine.variants import get_variant

    legal = "; ".join(str(a) for a in obs.legal) or "none"
    try:
        action = parse_action(text, get_variant(obs.variant).cards)
    except UnoError as e:
        raise IllegalActionError(
            f"{text!r}, which is not a command ({e}); legal: {legal}"
        ) from None
    wanted = _canonical(action)
    if not any(_canonical(a) == wanted for a in obs.legal):
        raise IllegalActionError(f"the illegal move {text!r}; legal: {legal}")
    return action


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
    for f in (proc.stdin, proc.stdout):
        if f is not None:
            try:
                f.close()
            except OSError:
                pass


def seat_engine(session: Any, command: str, timeout_ms: int = 5000) -> EngineBot:
    """Give the first bot seat of a terminal :class:`~unokit.tui.session.Session`
    to the engine ``command`` (``unokit play --engine``); if the engine fails,
    the ``normal`` bot plays the seat on."""
    seat = next((s for s, b in enumerate(session.bots) if b is not None), None)
    if seat is None:
        raise OptionError("--engine needs a bot seat: add players or fewer --hotseat people")
    bot = EngineBot(seed=seat, command=command, timeout_ms=timeout_ms, fallback="normal")
    session.bots[seat] = bot
    session.levels[seat] = bot.name
    return bot
