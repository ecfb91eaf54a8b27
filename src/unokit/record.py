"""Game records: the start of a match plus every accepted command, one per line.

A record replays to the identical state; bug reports, the web server's storage
and the replay viewer all share it. Format (docs/records.md)::

    unokit-record 1
    variant classic
    players 3
    seed 42
    options {"stacking":"same_symbol"}
    names Ann,Ben,bot:heuristic
    ---
    P1 PLAY R5
    P2 DRAW
    NEXT

An explicit start position (for positions that no seed produces) replaces the
``seed`` line with a ``position`` block holding the position notation, ended by
``end``.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=4)
>>> for _ in range(6):
...     _ = g.apply(g.legal_actions()[0])
>>> rec = loads(dumps(g))
>>> rec.replay() == g
True
>>> len(list(rec.games())) == len(rec.commands) + 1
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unokit import notation
from unokit.errors import OptionError, RecordError, UnoError
from unokit.game import Game
from unokit.options import Options

__all__ = ["Record", "dumps", "loads", "dump", "load", "record_of"]

FORMAT = 1


@dataclass
class Record:
    """The start of a match (``seed`` or an explicit ``position``) and its commands."""

    variant: str
    players: int
    options: Options = field(default_factory=Options)
    seed: int | None = 0
    position: str | None = None
    names: list[str] | None = None
    commands: list[str] = field(default_factory=list)

    def start(self) -> Game:
        """The game before the first command."""
        if self.position is not None:
            return notation.loads(self.position)
        return Game.new(self.variant, self.players, self.options, seed=self.seed or 0)

    def games(self) -> Iterator[Game]:
        """The start, then a copy of the game after each command."""
        g = self.start()
        yield g.copy(events=True)
        for n, command in enumerate(self.commands, 1):
            _apply(g, command, n)
            yield g.copy(events=True)

    def replay(self) -> Game:
        """The game after the last command. A command the rules refuse raises
        :class:`RecordError` naming its line."""
        g = self.start()
        for n, command in enumerate(self.commands, 1):
            _apply(g, command, n)
        return g

    def dumps(self) -> str:
        lines = [
            f"unokit-record {FORMAT}",
            f"variant {self.variant}",
            f"players {self.players}",
            f"options {json.dumps(self.options.to_dict(), separators=(',', ':'), sort_keys=True)}",
        ]
        if self.position is not None:
            lines.append("position")
            lines += self.position.strip().splitlines()
            lines.append("end")
        else:
            lines.append(f"seed {self.seed}")
        if self.names:
            if any("," in n or "\n" in n for n in self.names):
                raise RecordError("seat names may not contain commas or newlines")
            lines.append("names " + ",".join(self.names))
        lines.append("---")
        lines += self.commands
        return "\n".join(lines) + "\n"


def _apply(g: Game, command: str, n: int) -> None:
    try:
        if command.strip().upper() == "START":
            g.start()
        else:
            g.apply(command)
    except UnoError as e:
        raise RecordError(f"command {n} ({command!r}) cannot be replayed: {e}") from None


def record_of(game: Game, names: Sequence[str] | None = None) -> Record:
    """The record of a match created by :meth:`Game.new` with events on."""
    if game.commands is None:
        raise RecordError("this game keeps no commands (it was created with events=False)")
    return Record(
        game.variant.name,
        game.n,
        game.options,
        seed=game.seed,
        names=list(names) if names else None,
        commands=list(game.commands),
    )


def dumps(game: Game, names: Sequence[str] | None = None) -> str:
    """The record of ``game`` as text."""
    return record_of(game, names).dumps()


def loads(text: str) -> Record:
    """Read a record; raises :class:`RecordError` saying what is wrong."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != f"unokit-record {FORMAT}":
        raise RecordError(f"not a record: the first line must be 'unokit-record {FORMAT}'")
    values: dict[str, str] = {}
    position: list[str] | None = None
    i = 1
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        if line == "---":
            break
        if line == "position":
            position = []
            while i < len(lines) and lines[i].strip() != "end":
                position.append(lines[i])
                i += 1
            if i >= len(lines):
                raise RecordError("the position block has no 'end' line")
            i += 1
            continue
        key, _, value = line.partition(" ")
        if key not in ("variant", "players", "options", "seed", "names"):
            raise RecordError(f"line {i}: unknown header key {key!r}")
        if key in values:
            raise RecordError(f"line {i}: {key} given twice")
        values[key] = value.strip()
    else:
        raise RecordError("the record has no '---' line before its commands")
    for key in ("variant", "players"):
        if key not in values:
            raise RecordError(f"the header has no {key} line")
    try:
        players = int(values["players"])
        seed = int(values["seed"]) if "seed" in values else None
    except ValueError as e:
        raise RecordError(f"players and seed must be integers: {e}") from None
    if (seed is None) == (position is None):
        raise RecordError("the header needs either a seed line or a position block")
    try:
        opts: Any = json.loads(values.get("options", "{}"))
        if not isinstance(opts, dict):
            raise RecordError("options must be a JSON object")
        options = Options.from_dict(opts)
    except (ValueError, OptionError) as e:
        raise RecordError(f"bad options: {e}") from None
    names = values["names"].split(",") if values.get("names") else None
    if names is not None and len(names) != players:
        raise RecordError(f"{len(names)} names for {players} players")
    commands = [c.strip() for c in lines[i:] if c.strip() and not c.strip().startswith("#")]
    rec = Record(
        values["variant"],
        players,
        options,
        seed,
        "\n".join(position) if position is not None else None,
        names,
        commands,
    )
    try:
        rec.start()
    except UnoError as e:
        raise RecordError(f"the start of the record is invalid: {e}") from None
    return rec


def dump(game: Game, path: str | Path, names: Sequence[str] | None = None) -> None:
    """Write the record of ``game`` to ``path``."""
    Path(path).write_text(dumps(game, names), encoding="utf-8")


def load(path: str | Path) -> Record:
    """Read a record file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    return loads(text)
