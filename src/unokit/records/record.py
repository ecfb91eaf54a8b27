"""Game records: the start of a match, every accepted command, who played, the
result and the deal commitments (specification: docs/record-format.md; JSON
Schema: ``unokit/data/record.schema.json``).

A full record replays to the identical game; bug reports, the terminal game's
``--save``, ``sim --save``, tournaments, the environments' ``to_record()`` and
the replay viewer all share it. A per-seat view (:func:`record_for_seat`)
holds what one seat saw: the public commands, its own cards, and the deals
revealed once their rounds were over.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=4)
>>> for _ in range(6):
...     _ = g.apply(g.legal_actions()[0])
>>> rec = loads(dumps(g))
>>> rec.replay() == g
True
>>> len(list(rec.games())) == len(rec.commands) + 1
True
>>> validate(rec)
[]
>>> seat = record_for_seat(rec, 1)
>>> seat.view, seat.seed, len(seat.commands) == len(rec.commands)
(1, None, True)

Version 1 records (the line format ``unokit-record 1``) are still read.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from unokit.engine import notation
from unokit.engine.errors import OptionError, RecordError, UnoError
from unokit.engine.game import Game
from unokit.engine.options import Options

__all__ = [
    "Record",
    "Problem",
    "dumps",
    "loads",
    "dump",
    "load",
    "load_all",
    "record_of",
    "record_for_seat",
    "validate",
    "schema",
    "FORMAT",
]

FORMAT = 2  # the version written; 1 (the line format) is still read
MARKER = "unokit_record"


@dataclass
class Record:
    """A match: its start (``seed`` or an explicit ``position``), its commands
    and what is known about it. ``view`` is None for the full record, else the
    seat whose view this is (no seed: the hidden cards are unknown)."""

    variant: str
    players: int
    options: Options = field(default_factory=Options)
    seed: int | None = 0
    position: str | None = None
    names: list[str] | None = None
    commands: list[str] = field(default_factory=list)
    view: int | None = None
    bots: list[str | None] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    deals: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)  # seat view: its hand after command k
    version: int = FORMAT

    def start(self) -> Game:
        """The game before the first command."""
        if self.view is not None:
            raise RecordError(
                f"this is seat P{self.view}'s view: the hidden cards are unknown, "
                "so it cannot be replayed (use the full record)"
            )
        if self.position is not None:
            return notation.loads(self.position)
        return Game.new(self.variant, self.players, self.options, seed=self.seed or 0)

    def games(self) -> Iterator[Game]:
        """The start, then a copy of the game after each command."""
        g = self.start()
        yield g.copy(events=True)
        for n, command in enumerate(self.commands, 1):
            apply_line(g, command, n)
            yield g.copy(events=True)

    def replay(self) -> Game:
        """The game after the last command. A command the rules refuse raises
        :class:`RecordError` naming its number."""
        g = self.start()
        for n, command in enumerate(self.commands, 1):
            apply_line(g, command, n)
        return g

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON object of docs/record-format.md."""
        d: dict[str, Any] = {
            MARKER: FORMAT,
            "variant": self.variant,
            "players": self.players,
            "options": self.options.to_dict(),
            "view": "full" if self.view is None else self.view,
        }
        if self.view is None:
            if self.position is not None:
                d["position"] = self.position.strip() + "\n"
            else:
                d["seed"] = self.seed
        meta = dict(self.meta)
        if self.names or self.bots:
            names = self.names or [f"P{s}" for s in range(self.players)]
            bots = self.bots or [None] * self.players
            meta["seats"] = [{"name": n, "bot": b} for n, b in zip(names, bots, strict=True)]
        d["meta"] = meta
        d["deals"] = self.deals
        if self.view is not None:
            d["hands"] = self.hands
        d["commands"] = self.commands
        return d

    def dumps(self) -> str:
        """The record as JSON text: one key per line, one command per line."""
        d = self.to_dict()
        commands = d.pop("commands")
        lines = ["{"]
        for key, value in d.items():
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
        if commands:
            lines.append(' "commands": [')
            lines += [f"  {json.dumps(c)}," for c in commands]
            lines[-1] = lines[-1][:-1]
            lines.append(" ]")
        else:
            lines.append(' "commands": []')
        lines.append("}")
        return "\n".join(lines) + "\n"

    def dumps_line(self) -> str:
        """The record as one line of JSON (for JSON Lines datasets)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


def _run(g: Game, command: str) -> None:
    """One recorded command: ``START`` deals the first round, anything else is
    a game command."""
    if command.strip().upper() == "START":
        g.start()
    else:
        g.apply(command)


def apply_line(g: Game, command: str, n: int) -> None:
    try:
        _run(g, command)
    except UnoError as e:
        raise RecordError(f"command {n} ({command!r}) cannot be replayed: {e}") from None


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def result_of(game: Game) -> dict[str, Any]:
    """The ``meta.result`` of a game: rounds dealt, scores, winners, whether it is over."""
    from unokit.engine.game import Phase

    over = game.phase == Phase.MATCH_OVER
    out: dict[str, Any] = {
        "rounds": game.round_no,
        "scores": list(game.scores),
        "match_over": over,
    }
    if over:
        out["winners"] = list(game.match_winners)
    elif game.phase == Phase.ROUND_OVER:
        out["round_winner"] = game.winner
    return out


def record_of(
    game: Game,
    names: Sequence[str] | None = None,
    *,
    bots: Sequence[str | None] | None = None,
    deals: Any = None,
    commit: bool = False,
    producer: str | None = None,
    started: str | None = None,
    ended: str | None = None,
    extra: dict[str, Any] | None = None,
) -> Record:
    """The full record of a match created by :meth:`Game.new` with events on.

    ``bots``: the bot of each seat (None for a person); ``deals``: the
    :class:`~unokit.records.commitment.DealCommitments` shown to the players during
    play; ``commit``: without them, commit to every deal now with fresh salts
    (bot games nobody watched: the record carries commitments all the same);
    ``producer`` (the program, e.g. ``"unokit 0.1.0 sim"``), ``started``,
    ``ended`` (ISO 8601 times, ``"now"`` for the current time), ``extra``:
    metadata (e.g. ``event``). Without them the record is a pure function of
    the game (its golden files do not change with the version)."""
    if game.commands is None:
        raise RecordError("this game keeps no commands (it was created with events=False)")
    meta: dict[str, Any] = {"producer": producer} if producer else {}
    if started:
        meta["started"] = _now() if started == "now" else started
    if ended:
        meta["ended"] = _now() if ended == "now" else ended
    meta["result"] = result_of(game)
    meta.update(extra or {})
    rec = Record(
        game.variant.name,
        game.n,
        game.options,
        seed=game.seed,
        names=list(names) if names else None,
        commands=list(game.commands),
        bots=list(bots) if bots else None,
        meta=meta,
    )
    if deals is None and commit:
        from unokit.records.commitment import DealCommitments

        deals = DealCommitments()
        for g in deal_states(rec):
            deals.on_deal(g)
    if deals is not None:
        rec.deals = deals.entries(game)
    return rec


def deal_states(rec: Record) -> Iterator[Game]:
    """The game right after each deal of the record (the start of a seeded
    record, and after every NEXT)."""
    g = rec.start()
    if rec.position is None:
        yield g
    for n, command in enumerate(rec.commands, 1):
        apply_line(g, command, n)
        if command.strip().upper() == "NEXT":
            yield g


def dumps(game: Game, names: Sequence[str] | None = None, **kwargs: Any) -> str:
    """The record of ``game`` as text (keywords: those of :func:`record_of`)."""
    return record_of(game, names, **kwargs).dumps()


# ---------------------------------------------------------------------- reading


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of a version-2 record (shipped in the package)."""
    from importlib.resources import files

    text = files("unokit").joinpath("data/record.schema.json").read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


def _schema_errors(obj: Any) -> list[str]:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    out = []
    for err in sorted(validator.iter_errors(obj), key=lambda e: list(map(str, e.path))):
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{where}: {err.message}")
    return out


def from_dict(obj: Any) -> Record:
    """A record from its JSON object; raises :class:`RecordError` naming the
    first problem (the schema's, then the options' and the start's)."""
    errors = _schema_errors(obj)
    if errors:
        raise RecordError(f"not a valid record: {errors[0]}")
    try:
        options = Options.from_dict(obj.get("options") or {})
    except (OptionError, ValueError) as e:
        raise RecordError(f"bad options: {e}") from None
    view = obj["view"]
    meta = dict(obj.get("meta") or {})
    seats = meta.pop("seats", None)
    if seats is not None and len(seats) != obj["players"]:
        raise RecordError(f"meta.seats names {len(seats)} seats for {obj['players']} players")
    if view != "full" and not 0 <= view < obj["players"]:
        raise RecordError(f"view {view}: no such seat in a {obj['players']}-player game")
    rec = Record(
        obj["variant"],
        obj["players"],
        options,
        seed=obj.get("seed"),
        position=obj.get("position"),
        names=[s["name"] for s in seats] if seats else None,
        commands=list(obj["commands"]),
        view=None if view == "full" else int(view),
        bots=[s.get("bot") for s in seats] if seats else None,
        meta=meta,
        deals=list(obj.get("deals") or []),
        hands=list(obj.get("hands") or []),
    )
    if rec.view is None:
        if (rec.seed is None) == (rec.position is None):
            raise RecordError("a full record needs either a seed or a position")
        try:
            rec.start()
        except UnoError as e:
            raise RecordError(f"the start of the record is invalid: {e}") from None
    return rec


def loads(text: str) -> Record:
    """Read a record (version 2 JSON, or the version 1 line format); raises
    :class:`RecordError` saying what is wrong."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"line {e.lineno}: not JSON: {e.msg}") from None
        return from_dict(obj)
    return _loads_v1(text)


def _loads_v1(text: str) -> Record:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "unokit-record 1":
        raise RecordError(
            "not a record: expected a JSON object (docs/record-format.md) "
            "or the line format starting 'unokit-record 1'"
        )
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
        version=1,
    )
    try:
        rec.start()
    except UnoError as e:
        raise RecordError(f"the start of the record is invalid: {e}") from None
    return rec


def dump(game: Game, path: str | Path, names: Sequence[str] | None = None, **kwargs: Any) -> None:
    """Write the record of ``game`` to ``path`` (atomically)."""
    from unokit.atomic import write_atomic

    write_atomic(Path(path), dumps(game, names, **kwargs))


def _read(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None


def load(path: str | Path) -> Record:
    """Read a record file."""
    return loads(_read(path))


def load_all(path: str | Path) -> Iterator[tuple[int, Record | RecordError]]:
    """The records of a file with their first line: one record (JSON or the
    line format), or JSON Lines (``*.jsonl``, one record per line). A record
    that cannot be read comes as its :class:`RecordError`."""
    text = _read(path)
    if str(path).endswith(".jsonl"):
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    yield i, loads(line)
                except RecordError as e:
                    yield i, e
        return
    try:
        yield 1, loads(text)
    except RecordError as e:
        yield 1, e


# ---------------------------------------------------------------------- views


def record_for_seat(record: Record, seat: int, game: Game | None = None) -> Record:
    """What seat ``seat`` may know of a full record: the public commands, its
    own hand after every command that changed it, the commitment of every deal
    and the salt and deal text of every round that is over. No seed: it
    would show every hidden card. ``game``: the current game, when the record
    is of a match in progress (its last round is not revealed)."""
    from unokit.records.commitment import deal_text, round_is_over

    if record.view is not None:
        if record.view == seat:
            return record
        raise RecordError(f"this is seat P{record.view}'s view, not P{seat}'s")
    if not 0 <= seat < record.players:
        raise RecordError(f"no seat P{seat} in a {record.players}-player game")
    last = record.replay() if game is None else game
    cs = last.variant.cards.cards
    hands: list[dict[str, Any]] = []
    texts: dict[int, str] = {}
    prev: tuple[int, ...] | None = None
    g = record.start()
    dealt = {g.round_no} if record.position is None else set()
    if record.position is None:
        texts[g.round_no] = deal_text(g)
    for k in range(len(record.commands) + 1):
        if k:
            command = record.commands[k - 1]
            apply_line(g, command, k)
            if command.strip().upper() == "NEXT":
                texts[g.round_no] = deal_text(g)
                dealt.add(g.round_no)
        hand = tuple(g.hands[seat])
        if hand != prev:
            hands.append({"after": k, "cards": [str(cs[c]) for c in hand]})
            prev = hand
    deals = []
    for entry in record.deals:
        out = {"round": entry["round"], "commitment": entry["commitment"]}
        r = entry["round"]
        if "salt" in entry and round_is_over(last, r) and r in texts:
            out["salt"] = entry["salt"]
            out["deal"] = texts[r]
        deals.append(out)
    return Record(
        record.variant,
        record.players,
        record.options,
        seed=None,
        position=None,
        names=record.names,
        commands=list(record.commands),
        view=seat,
        bots=record.bots,
        meta=dict(record.meta),
        deals=deals,
        hands=hands,
    )


# ---------------------------------------------------------------------- validation


@dataclass(frozen=True)
class Problem:
    """One reason a record is refused: where (``line`` of the file when known,
    ``command`` number when it is about one) and what."""

    message: str
    line: int | None = None
    command: int | None = None

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.command is not None:
            where.append(f"command {self.command}")
        return (", ".join(where) + ": " if where else "") + self.message


def command_lines(text: str) -> list[int]:
    """The line (1-based) of each command of a record's JSON text, in order
    (empty when the text has no commands array)."""
    from json.decoder import scanstring  # type: ignore[attr-defined]

    if text.startswith("unokit-record 1"):  # version 1: the lines after '---'
        lines = text.splitlines()
        if "---" not in (ln.strip() for ln in lines):
            return []
        start = [ln.strip() for ln in lines].index("---") + 1
        return [
            i + 1
            for i in range(start, len(lines))
            if lines[i].strip() and not lines[i].strip().startswith("#")
        ]
    key = text.find('"commands"')
    if key < 0:
        return []
    i = text.find("[", key)
    out = []
    while i >= 0:
        j = text.find('"', i + 1)
        close = text.find("]", i + 1)
        if j < 0 or (0 <= close < j):
            break
        out.append(text.count("\n", 0, j) + 1)
        _, end = scanstring(text, j + 1)
        i = end
    return out


def validate(record: Record, text: str | None = None) -> list[Problem]:
    """Every reason to refuse ``record`` (empty: it is valid). A full record
    is replayed through the engine: every command must be legal, every
    revealed deal must match its commitment and be the deal the engine made,
    and the result in ``meta`` must be the one reached. A per-seat view is
    checked as far as it can be without the hidden cards. ``text``: the JSON
    text it was read from, to name the line of a failing command."""
    from unokit.records.commitment import deal_text, matches

    lines = command_lines(text) if text is not None else []

    def line_of(k: int) -> int | None:
        return lines[k - 1] if 0 < k <= len(lines) else None

    problems: list[Problem] = []
    if record.version >= 2:
        problems += [Problem(m) for m in _schema_errors(record.to_dict())]
        if problems:
            return problems
    rounds = {}
    for entry in record.deals:
        if entry["round"] in rounds:
            problems.append(Problem(f"deal of round {entry['round']} committed twice"))
        rounds[entry["round"]] = entry
    if record.view is not None:
        return problems + _validate_view(record, rounds, line_of)
    try:
        g = record.start()
    except UnoError as e:
        return [Problem(f"the start is invalid: {e}")]
    checked: set[int] = set()

    def check_deal(at: int) -> None:
        r = g.round_no
        entry = rounds.get(r)
        checked.add(r)
        if entry is None:
            if rounds:
                problems.append(Problem(f"round {r} was dealt but has no commitment", line_of(at)))
            return
        if "salt" in entry and not matches(deal_text(g), entry["salt"], entry["commitment"]):
            problems.append(
                Problem(
                    f"round {r}: the revealed salt and the deal the engine made do not give "
                    "the committed hash (a changed deal, seed or salt)",
                    line_of(at),
                    at or None,
                )
            )

    if record.position is None:
        check_deal(0)
    for k, command in enumerate(record.commands, 1):
        try:
            _run(g, command)
        except UnoError as e:
            problems.append(Problem(f"{command!r} cannot be replayed: {e}", line_of(k), k))
            return problems
        if command.strip().upper() == "NEXT":
            check_deal(k)
    for r in sorted(set(rounds) - checked):
        problems.append(Problem(f"a commitment for round {r}, which the record never deals"))
    from unokit.records.commitment import round_is_over

    for r in sorted(rounds):
        if r in checked and round_is_over(g, r) and "salt" not in rounds[r]:
            problems.append(Problem(f"round {r} is over but its salt is not revealed"))
        if not round_is_over(g, r) and "salt" in rounds[r]:
            problems.append(Problem(f"round {r} is not over but its salt is revealed"))
    result = record.meta.get("result")
    if isinstance(result, dict):
        reached = result_of(g)
        for key, want in result.items():
            if key in reached and reached[key] != want:
                problems.append(
                    Problem(
                        f"meta.result.{key} is {want!r} but the commands reach {reached[key]!r} "
                        "(a command missing or added?)",
                        line_of(len(record.commands)),
                    )
                )
    return problems


def _validate_view(
    record: Record, rounds: dict[int, dict[str, Any]], line_of: Any
) -> list[Problem]:
    from unokit.engine.actions import parse_action
    from unokit.engine.variants import get_variant
    from unokit.records.commitment import matches

    problems: list[Problem] = []
    seat = record.view
    try:
        variant = get_variant(record.variant)
    except UnoError as e:
        return [Problem(str(e))]
    cards = variant.cards
    for k, command in enumerate(record.commands, 1):
        if command.strip().upper() in ("START", "NEXT"):
            continue
        try:
            parse_action(command, cards)
        except UnoError as e:
            problems.append(Problem(f"{command!r} is not a command: {e}", line_of(k), k))
    for r, entry in sorted(rounds.items()):
        if "salt" in entry:
            deal = entry.get("deal")
            if not isinstance(deal, str):
                problems.append(Problem(f"round {r}: a salt without the deal text"))
            elif not matches(deal, entry["salt"], entry["commitment"]):
                problems.append(
                    Problem(f"round {r}: the revealed deal and salt do not give the committed hash")
                )
            else:
                mine = next(
                    (ln for ln in deal.splitlines() if ln.startswith(f"hands P{seat} ")), None
                )
                known = [h for h in record.hands if h["after"] == _deal_command(record, r)]
                if mine is not None and known:
                    held = " ".join(known[0]["cards"]) or "-"
                    if mine.split(" ", 2)[2] != held:
                        problems.append(
                            Problem(f"round {r}: the revealed deal gives P{seat} other cards")
                        )
    return problems


def _deal_command(record: Record, round_no: int) -> int:
    """The number of the command after which round ``round_no`` was dealt
    (0: the start), counting NEXT commands of a seeded record."""
    r = 1
    if round_no == 1:
        return 0
    for k, c in enumerate(record.commands, 1):
        if c.strip().upper() == "NEXT":
            r += 1
            if r == round_no:
                return k
    return -1
