"""Stepping through a game record without Textual: the :class:`Replay` of
every state and ``unokit replay --plain`` (:func:`run_plain_replay`). The
Textual viewer (:mod:`unokit.tui.replay`) builds on it."""

from __future__ import annotations

from typing import TextIO

from unokit.engine.errors import RecordError
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.narration import Narrator, describe
from unokit.records.record import Record

__all__ = ["Replay", "run_plain_replay"]

REPLAY_LIMIT = 100_000  # commands: a bound on memory for hostile files


class Replay:
    """Every state of a record, computed once. A command that does not replay
    stops the replay there; :attr:`error` says why."""

    def __init__(self, record: Record) -> None:
        if len(record.commands) > REPLAY_LIMIT:
            raise RecordError(
                f"the record has {len(record.commands)} commands (at most {REPLAY_LIMIT})"
            )
        self.record = record
        self.variant = record.variant
        self.names = list(record.names or [f"P{s}" for s in range(record.players)])
        self.error: str | None = None
        self.games: list[Game] = []
        self.events: list[list[Event]] = [[]]
        try:
            for g in record.games():
                self.games.append(g)
                if len(self.games) > 1:
                    self.events.append(new_events(self.games[-2], g))
        except RecordError as e:
            self.error = str(e)
        if not self.games:
            raise RecordError(self.error or "the record does not start")
        self.events[0] = list(self.games[0].log or [])

    @property
    def last(self) -> int:
        return len(self.games) - 1

    def game(self, step: int) -> Game:
        return self.games[step]

    def command(self, step: int) -> str:
        return "start" if step == 0 else self.record.commands[step - 1]

    def step_lines(self, step: int) -> list[str]:
        """What happened at ``step``, in plain words, for a spectator who sees all."""
        g = self.games[step]
        side = 0
        if g.log is not None:
            # the side before this step's events: replay the round's flips before them
            before = len(g.log) - len(self.events[step])
            narrator = Narrator(self.names, None)
            narrator.lines(g.log[:before])
            side = narrator.side
            narrator.side = side
            return narrator.lines(self.events[step])
        return []

    def round_starts(self) -> list[int]:
        """Steps at which a round starts (0, and each NEXT)."""
        return [0] + [
            i for i in range(1, self.last + 1) if self.command(i).upper().startswith("NEXT")
        ]

    def hands_lines(self, step: int) -> list[str]:
        g = self.games[step]
        side = g.side
        out = []
        for s in range(g.n):
            cards = " ".join(str(c.face(side)) for c in g.hand(s)) or "no cards"
            mark = " (to act)" if g.to_act == s else ""
            out.append(f"{self.names[s]}{mark}: {cards}")
        return out


def new_events(before: Game, after: Game) -> list[Event]:
    log_a = after.log or []
    log_b = before.log or []
    if after.round_no != before.round_no or len(log_a) < len(log_b):
        return list(log_a)
    return list(log_a[len(log_b) :])


# ------------------------------------------------------------------ plain mode


def run_plain_replay(rp: Replay, inp: TextIO, out: TextIO, start: int = 0) -> int:
    """Step through ``rp`` with typed commands: Enter or ``n`` forward, ``b``
    back, a number or ``go N`` to jump, ``end``, ``quit``."""
    step = start

    def show() -> None:
        g = rp.game(step)
        obs = g.observe(None)
        out.write(f"\nStep {step} of {rp.last}: {rp.command(step)}\n")
        for line in rp.step_lines(step):
            out.write(f"  {line}\n")
        for line in describe(obs, rp.names, hand=False):
            out.write(line + "\n")
        for line in rp.hands_lines(step):
            out.write(f"  {line}\n")
        if step == rp.last and rp.error:
            out.write(f"The record stops here: {rp.error}\n")
        out.flush()

    out.write(
        f"Replay of a {rp.variant} record, {rp.last} commands. "
        "Enter or n: next, b: back, a number or 'go N': jump, end, quit.\n"
    )
    show()
    while True:
        out.write("replay> ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return 0
        cmd = line.strip().lower()
        target = step
        if cmd in ("", "n", "next"):
            target = step + 1
        elif cmd in ("b", "back", "p", "prev"):
            target = step - 1
        elif cmd in ("end", "last"):
            target = rp.last
        elif cmd in ("start", "first"):
            target = 0
        elif cmd in ("q", "quit", "exit"):
            return 0
        else:
            word = cmd[3:].strip() if cmd.startswith("go ") else cmd
            if not word.isdigit():
                out.write("Not understood: Enter or n, b, a step number, go N, end, quit.\n")
                continue
            target = int(word)
        if not 0 <= target <= rp.last:
            out.write(f"No step {target}: the steps are 0 to {rp.last}.\n")
            continue
        step = target
        show()


# ------------------------------------------------------------------ Textual app
