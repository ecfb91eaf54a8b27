"""Simulations: bots play rounds or matches; statistics by seat.

>>> r = simulate("classic", 2, games=20, seed=1, bots=["heuristic", "random"])
>>> r.rounds, len(r.win_rate), round(sum(r.win_rate), 6) <= 1.0
(20, 2, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from unokit.bots import Bot, make_bot
from unokit.bots.distributed import SerialRunner, make_runner
from unokit.engine.actions import Catch
from unokit.engine.codes import MATCH_OVER as _MO
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.errors import OptionError
from unokit.engine.game import Game
from unokit.engine.options import Options
from unokit.engine.playout import playout

__all__ = ["SimResult", "simulate", "play_round", "play_match"]


@dataclass
class SimResult:
    variant: str
    players: int
    bots: list[str]
    games: int  # rounds, or matches with --match
    match: bool
    seed: int
    rounds: int = 0
    turns: int = 0
    seconds: float = 0.0
    wins: list[int] = field(default_factory=list)  # rounds (or matches) won by seat
    points: list[int] = field(default_factory=list)  # round points scored by seat
    blocked: int = 0

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_turns(self) -> float:
        return self.turns / self.rounds if self.rounds else 0.0

    @property
    def win_rate(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]

    @property
    def mean_points(self) -> list[float]:
        return [p / self.rounds if self.rounds else 0.0 for p in self.points]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(
            rounds_per_second=round(self.rounds_per_second, 1),
            mean_turns=round(self.mean_turns, 2),
            win_rate=[round(x, 4) for x in self.win_rate],
            mean_points=[round(x, 2) for x in self.mean_points],
        )
        return d


def play_round(game: Game, bots: Sequence[Bot], max_turns: int = 100_000) -> int:
    """Let ``bots`` (one per seat) play the round in progress; returns the turns played.

    Each decision goes to the seat to act, which sees only its observation; a
    bot may also catch a vulnerable opponent when it is its turn to act, or
    when it is offered the catch (:func:`offer_catch`)."""
    turns = 0
    while game.phase < _RO:
        seat = game.current
        action = bots[seat].act(game.observe(seat))
        game.apply(action)
        offer_catch(game, bots)
        turns += 1
        if turns >= max_turns:
            raise RuntimeError(f"round did not end after {max_turns} decisions")
    return turns


def offer_catch(game: Game, bots: Sequence[Bot]) -> None:
    """Offer the catch to the seats of :meth:`unokit.Game.catch_window` (the
    vulnerable seat acts again before anyone else), in order of play: the
    first bot whose answer to its observation is a catch makes it. Any other
    answer lets the chance go, and so does a bot whose ``catches`` attribute
    is false (``easy``, which never catches)."""
    for seat in game.catch_window():
        bot = bots[seat]
        if not getattr(bot, "catches", True):
            continue
        action = bot.act(game.observe(seat))
        if isinstance(action, Catch) and action.seat == seat:
            game.apply(action)
            return


def play_match(game: Game, bots: Sequence[Bot]) -> int:
    """Play every remaining round of the match; returns the turns played."""
    turns = 0
    while True:
        turns += play_round(game, bots)
        if game.phase == _MO:
            return turns
        game.next_round()


def simulate(
    variant: str,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("random",),
    match: bool = False,
    options: dict[str, Any] | Options | None = None,
    progress: Callable[[int], None] | None = None,
    bot_options: dict[str, Any] | None = None,
    workers: int = 1,
    ray: str | None = None,
    records: list[str] | None = None,
    event: str | None = None,
) -> SimResult:
    """Play ``games`` rounds (or whole matches with ``match``) between bots.

    ``bots`` names one bot per seat, or one name for every seat. Game ``i``
    uses seed ``seed + i``, so a run is reproducible, and the same on any
    number of ``workers`` processes or on Ray (``ray="local"`` or a cluster
    address, :func:`unokit.bots.distributed.make_runner`). When every seat is the
    ``random`` bot the fast playout is used (same policy, proven equal).
    ``records``: a list that receives the record of every game, one JSON
    line each, in game order (docs/record-format.md); ``event`` is written in
    their metadata."""
    names = list(bots)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise OptionError(f"{len(names)} bots named for {players} seats: name one or {players}")
    if games < 1:
        raise OptionError(f"games must be at least 1, got {games}")
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    if not match:
        opts = opts.replace(matchMode="single_round")
    Game.new(variant, players, opts, seed=seed, events=False)  # validate before any work
    runner = make_runner(workers, ray)
    result = SimResult(variant, players, names, games, match, seed)
    result.wins = [0] * players
    result.points = [0] * players
    # one job in this process; on several workers, chunks small enough to
    # keep the progress bar moving
    parts = 1 if isinstance(runner, SerialRunner) else max(1, min(games, workers * 16))
    size = -(-games // parts)
    jobs = [
        _SimJob(variant, players, opts, names, match, seed, i, min(games, i + size),
                dict(bot_options or {}), records is not None, event)
        for i in range(0, games, size)
    ]  # fmt: skip
    done = 0
    start = time.perf_counter()
    # in this process, each game reports as it ends; from workers, each job
    fn = partial(_sim_job, progress=progress) if parts == 1 else _sim_job
    lines: dict[int, list[str]] = {}
    for part, start_index, part_lines in runner.map(fn, jobs):
        lines[start_index] = part_lines
        result.rounds += part.rounds
        result.turns += part.turns
        result.blocked += part.blocked
        result.wins = [a + b for a, b in zip(result.wins, part.wins, strict=True)]
        result.points = [a + b for a, b in zip(result.points, part.points, strict=True)]
        done += part.games
        if progress is not None and parts > 1:
            progress(done)
    result.seconds = time.perf_counter() - start
    if records is not None:
        for k in sorted(lines):
            records += lines[k]
    return result


@dataclass(frozen=True)
class _SimJob:
    """Games ``start`` to ``stop - 1`` of a simulation (picklable for workers)."""

    variant: str
    players: int
    options: Options
    names: list[str]
    match: bool
    seed: int
    start: int
    stop: int
    bot_options: dict[str, Any]
    record: bool = False
    event: str | None = None


def _sim_job(
    job: _SimJob, progress: Callable[[int], None] | None = None
) -> tuple[SimResult, int, list[str]]:
    """The job's tally, its first game index and (when asked) its games' records."""
    variant, players, opts, names, match, seed = (
        job.variant, job.players, job.options, job.names, job.match, job.seed,
    )  # fmt: skip
    # the fast playout keeps no commands: a recorded run lets the bots play
    all_random = not job.record and all(n.strip().lower() == "random" for n in names)
    records: list[str] = []
    result = SimResult(variant, players, names, job.stop - job.start, match, seed)
    result.wins = [0] * players
    result.points = [0] * players
    start = job.start
    if all_random:
        start = _sim_on_core(job, result, progress)
    for i in range(start, job.stop):
        game = Game.new(variant, players, opts, seed=seed + i, events=not all_random)
        if all_random:
            rnd = random.Random(seed + i).random
            while True:
                result.turns += playout(game, rnd)
                _tally(result, game)
                if game.phase == _MO:
                    break
                game.next_round()
        else:
            seat_bots = [
                make_bot(name, seed=(seed + i) * 100 + s, **job.bot_options)
                for s, name in enumerate(names)
            ]
            while True:
                result.turns += play_round(game, seat_bots)
                _tally(result, game)
                if game.phase == _MO:
                    break
                game.next_round()
        if match:
            for w in game.match_winners:
                result.wins[w] += 1
        if job.record:
            records.append(_record_line(game, names, seed + i, job.event))
        if progress is not None:
            progress(i + 1)
    return result, job.start, records


def _sim_on_core(job: _SimJob, result: SimResult, progress: Callable[[int], None] | None) -> int:
    """Play the job's all-random games on the C core (:func:`unokit.engine.core.simulate_random`:
    the same games, the same tally as the loop below), in chunks so that
    ``progress`` moves. Returns the first game left to the caller's loop
    (``job.stop`` when the core played them all)."""
    from unokit.engine.core import simulate_random
    from unokit.engine.variants import get_variant

    v = get_variant(job.variant)
    i = job.start
    while i < job.stop:
        k = min(job.stop - i, 512)
        tally = simulate_random(v, job.players, job.options, job.seed + i, k, job.match)
        if tally is None:
            return i
        rounds, turns, blocked, wins, points = tally
        result.rounds += rounds
        result.turns += turns
        result.blocked += blocked
        result.wins = [a + b for a, b in zip(result.wins, wins, strict=True)]
        result.points = [a + b for a, b in zip(result.points, points, strict=True)]
        i += k
        if progress is not None:
            progress(i)
    return i


def _record_line(game: Game, bots: Sequence[str], seed: int, event: str | None) -> str:
    from unokit import __version__
    from unokit.records.record import record_of

    names = [f"P{s} ({b})" for s, b in enumerate(bots)]
    extra = {"event": event or f"unokit sim, game seed {seed}"}
    rec = record_of(
        game,
        names,
        bots=list(bots),
        commit=True,
        producer=f"unokit {__version__} sim",
        ended="now",
        extra=extra,
    )
    return rec.dumps_line()


def _tally(result: SimResult, game: Game) -> None:
    result.rounds += 1
    w = game.winner
    if w < 0:
        result.blocked += 1
        return
    result.points[w] += game.round_points
    if not result.match:
        result.wins[w] += 1
