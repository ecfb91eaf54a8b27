"""Tournaments: bots play seat-rotated rounds in parallel; win rates, intervals, Elo.

Fairness:

* **Seat rotation, duplicate deals.** Games come in blocks. Every game of a
  block is dealt from the same seed (same deck order, same dealer) and the
  block's line-ups rotate the bots through the seats, so every bot plays every
  seat, and every deal, equally often (exactly so when ``games`` is a multiple
  of the block size, :func:`lineups`). With ``k`` bots and ``n`` seats and
  ``k <= n`` a block has ``k`` line-ups (seat ``s`` of line-up ``r`` holds bot
  ``(s + r) % k``); with ``k > n`` it has ``C(k, n) * n`` (every set of ``n``
  bots, in its ``n`` rotations), so that every pair of bots meets.
* **Statistics per bot**, over the seats it held (a bot named for two seats of
  one game plays two "seat-games"): win rate with a 95% Wilson score
  interval; mean points = round points it scored per seat-game (0 when it did
  not win); Elo from the pairwise results (:func:`elo_ratings`), with a 95%
  interval from a bootstrap over the deals (:func:`elo_intervals`).
* **Reproducible**: game ``i`` is a pure function of (seed, i) — bots are seeded
  from it — so the number of worker processes does not change any result
  (time-budgeted search bots aside: a slower machine thinks less).

>>> r = run_tournament("classic", 2, parse_bots("heuristic,random"), games=8, seed=1, workers=1)
>>> r.games, sorted(r.bots), r.bots["heuristic"].games
(8, ['heuristic', 'random'], 8)
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from unokit.bots import Bot, make_bot
from unokit.bots.distributed import make_runner
from unokit.bots.sim import offer_catch
from unokit.engine.codes import MATCH_OVER as _MO
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.errors import BotFailure, OptionError
from unokit.engine.game import Game
from unokit.engine.options import Options

__all__ = [
    "BotSpec",
    "BotStats",
    "GameResult",
    "TournamentResult",
    "parse_bots",
    "engine_specs",
    "lineups",
    "play_game",
    "run_tournament",
    "wilson",
    "elo_ratings",
    "elo_intervals",
]


@dataclass(frozen=True)
class BotSpec:
    """One entrant: a label (unique in the tournament), a bot name and its options."""

    label: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def make(self, seed: int) -> Bot:
        return make_bot(self.name, seed=seed, **dict(self.options))


def parse_value(text: str) -> Any:
    t = text.strip()
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    return t


def bot_option_names(bot: str) -> set[str]:
    """The options a registered bot's factory names (``seed`` aside)."""
    import inspect

    from unokit.bots import REGISTRY

    try:
        params = inspect.signature(REGISTRY[bot]).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - a factory without a signature
        return set()
    return {
        p.name
        for p in params
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("seed", "self")
    }


def parse_bots(text: str, think_ms: int | None = None, sims: int | None = None) -> list[BotSpec]:
    """``"hard,heuristic"`` or with per-bot options ``"hard:think_ms=50,hard:think_ms=400"``.

    ``think_ms`` and ``sims`` apply to every bot that does not set its own
    budget (bots that do not search ignore them). Labels are the
    text of each entry (``hard``, ``hard:think_ms=50``); a repeated entry gets
    ``#2``, ``#3``... Unknown bot names raise :class:`~unokit.engine.errors.OptionError`.

    >>> [s.label for s in parse_bots("hard:think_ms=50, random,random")]
    ['hard:think_ms=50', 'random', 'random#2']
    """
    from unokit.bots import bot_names
    from unokit.bots.budget import level_options

    specs: list[BotSpec] = []
    seen: dict[str, int] = {}
    entries = [e.strip() for e in text.split(",") if e.strip()]
    if not entries:
        raise OptionError("name at least one bot, e.g. --bots hard,heuristic")
    for entry in entries:
        name, *opts = [p.strip() for p in entry.split(":")]
        key = name.lower()
        if key not in bot_names():
            raise OptionError(f"unknown bot {name!r}: expected one of {', '.join(bot_names())}")
        options: dict[str, Any] = {}
        accepted = bot_option_names(key)
        for o in opts:
            k, sep, v = o.partition("=")
            if not sep or not k.strip():
                raise OptionError(f"bad bot option {o!r} in {entry!r}: expected key=value")
            k = k.strip().replace("-", "_")
            if k not in accepted:
                raise OptionError(
                    f"{name} has no option {k!r}"
                    + (f": expected one of {', '.join(sorted(accepted))}" if accepted else "")
                )
            options[k] = parse_value(v)
        own_budget = "think_ms" in options or "sims" in options
        if sims is not None and not own_budget:
            options["sims"] = sims
        elif think_ms is not None and not own_budget:
            options["think_ms"] = think_ms
        elif not own_budget and "iterations" not in options:
            # the level's budget by count, as at a table (unokit.bots.budget)
            options.update(level_options(key))
        label = key + (":" + ":".join(opts) if opts else "")
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label}#{seen[label]}"
        specs.append(BotSpec(label, key, tuple(sorted(options.items()))))
    # fail early (in the parent process) on bad bot options
    for s in specs:
        s.make(0)
    return specs


def engine_specs(
    commands: Sequence[str], timeout_ms: int = 5000, taken: Sequence[BotSpec] = ()
) -> list[BotSpec]:
    """Entrants played by engine programs (docs/engine-protocol.md), labelled
    ``engine:NAME`` after the program's file name. The programs must exist
    (:class:`~unokit.engine.errors.OptionError` otherwise); none is started here.

    >>> engine_specs(["sh -c true"], 100)[0].label
    'engine:sh'
    """
    from unokit.agents.engine_protocol import EngineBot

    labels = {s.label for s in taken}
    out: list[BotSpec] = []
    for command in commands:
        bot = EngineBot(command=command, timeout_ms=timeout_ms)
        label, k = bot.name, 1
        while label in labels:
            k += 1
            label = f"{bot.name}#{k}"
        labels.add(label)
        out.append(BotSpec(label, "engine", (("command", command), ("timeout_ms", timeout_ms))))
    return out


def lineups(bots: int, seats: int) -> list[tuple[int, ...]]:
    """The line-ups of one block: ``lineup[s]`` is the index of the bot at seat ``s``.

    >>> lineups(2, 2)
    [(0, 1), (1, 0)]
    >>> lineups(2, 3)
    [(0, 1, 0), (1, 0, 1)]
    >>> lineups(3, 2)
    [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    """
    k, n = bots, seats
    if k <= n:
        return [tuple((s + r) % k for s in range(n)) for r in range(k)]
    from itertools import combinations

    return [
        tuple(combo[(s + t) % n] for s in range(n))
        for combo in combinations(range(k), n)
        for t in range(n)
    ]


@dataclass
class GameResult:
    index: int
    deal: int  # the seed the round (or match) was dealt from
    lineup: tuple[int, ...]
    winners: tuple[int, ...]  # seats (one, several co-winners of a match, or none if blocked)
    points: tuple[int, ...]  # points scored by seat
    turns: int
    decisions: tuple[int, ...]  # by seat
    seconds: tuple[float, ...]  # thinking time by seat
    slowest: tuple[float, ...]  # longest single decision by seat
    forfeit: int = -1  # the seat whose engine failed (it lost the game), or -1
    forfeit_reason: str = ""
    record: str | None = None  # the game's record (one JSON line), when asked for


def play_game(
    variant: str,
    players: int,
    options: Options,
    specs: Sequence[BotSpec],
    seed: int,
    index: int,
    match: bool = False,
    record: bool = False,
) -> GameResult:
    """Game ``index`` of a tournament: its line-up, deal and bot seeds follow from
    ``(seed, index)`` alone."""
    ups = lineups(len(specs), players)
    lineup = ups[index % len(ups)]
    deal = seed + index // len(ups)
    game = Game.new(variant, players, options, seed=deal, events=True)
    bots = [specs[b].make(seed * 1_000_003 + index * 16 + s) for s, b in enumerate(lineup)]
    try:
        result = _play(game, bots, lineup, index, deal, match)
    except BotFailure as e:
        # an engine that crashes, hangs or answers an illegal move loses the game:
        # the seats held by the other entrants share the win, nobody scores
        seat = e.seat if e.seat is not None else -1
        bad = lineup[seat] if 0 <= seat < players else -1
        winners = tuple(s for s, b in enumerate(lineup) if b != bad)
        zeros = tuple(0 for _ in range(players))
        return GameResult(index, deal, lineup, winners, zeros, 0, zeros,
                          tuple(0.0 for _ in range(players)), tuple(0.0 for _ in range(players)),
                          seat, str(e))  # fmt: skip
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    if not record:
        return result
    from unokit import __version__
    from unokit.records.record import record_of

    labels = [specs[b].label for b in lineup]
    line = record_of(
        game,
        [f"P{s} ({label})" for s, label in enumerate(labels)],
        bots=labels,
        commit=True,
        producer=f"unokit {__version__} tournament",
        ended="now",
        extra={"event": f"unokit tournament, seed {seed}, game {index}"},
    ).dumps_line()
    return replace(result, record=line)


def _play(
    game: Game, bots: Sequence[Bot], lineup: tuple[int, ...], index: int, deal: int, match: bool
) -> GameResult:
    players = game.n
    decisions = [0] * players
    seconds = [0.0] * players
    slowest = [0.0] * players
    points = [0] * players
    turns = 0
    clock = time.perf_counter
    while True:
        while game.phase < _RO:
            seat = game.current
            t = clock()
            action = bots[seat].act(game.observe(seat))
            dt = clock() - t
            game.apply(action)
            offer_catch(game, bots)
            decisions[seat] += 1
            seconds[seat] += dt
            if dt > slowest[seat]:
                slowest[seat] = dt
            turns += 1
            if turns > 100_000:
                raise RuntimeError(f"game {index} did not end after {turns} decisions")
        if game.winner >= 0:
            points[game.winner] += game.round_points
        if not match or game.phase == _MO:
            break
        game.next_round()
    if match:
        winners = tuple(game.match_winners)
    else:
        winners = () if game.winner < 0 else (game.winner,)
    return GameResult(index, deal, lineup, winners, tuple(points), turns, tuple(decisions),
                      tuple(seconds), tuple(slowest))  # fmt: skip


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_ratings(
    names: Sequence[str], score: dict[tuple[int, int], float], prior: float = 1.0
) -> list[float]:
    """Elo ratings from pairwise results, by a Bradley-Terry fit.

    ``score[(i, j)]`` is how many pairwise games ``i`` won against ``j`` (a draw
    adds 0.5 to both). Every pair of bots also gets ``prior`` virtual draws, so
    that a bot that never lost still has a finite rating. The strengths ``g``
    maximise the likelihood of ``P(i beats j) = g_i / (g_i + g_j)`` (Hunter's
    MM algorithm); ``elo_i = 400 log10 g_i``, shifted so that the mean is 1500.
    So a 100-point gap means the stronger bot wins 64% of head-to-head games.

    >>> [round(x) for x in elo_ratings(["a", "b"], {(0, 1): 64.0, (1, 0): 36.0}, prior=0)]
    [1550, 1450]
    """
    k = len(names)
    if k == 1:
        return [1500.0]
    w = [[0.0] * k for _ in range(k)]
    for (i, j), s in score.items():
        if i != j:
            w[i][j] += s
    for i in range(k):
        for j in range(k):
            if i != j:
                w[i][j] += prior / 2
    g = [1.0] * k
    for _ in range(10_000):
        new = []
        for i in range(k):
            won = sum(w[i][j] for j in range(k) if j != i)
            den = sum((w[i][j] + w[j][i]) / (g[i] + g[j]) for j in range(k) if j != i)
            new.append(won / den if den > 0 and won > 0 else 1e-9)
        mean_log = sum(math.log(x) for x in new) / k
        new = [x / math.exp(mean_log) for x in new]
        done = max(abs(a - b) for a, b in zip(new, g, strict=True)) < 1e-10
        g = new
        if done:
            break
    return [1500.0 + 400.0 * math.log10(x) for x in g]


ELO_BOOTSTRAP = 400
"""Resamples behind each Elo interval (:func:`elo_intervals`)."""

Pairwise = dict[tuple[int, int], float]


def elo_intervals(
    names: Sequence[str], blocks: Sequence[Pairwise], resamples: int = ELO_BOOTSTRAP, seed: int = 0
) -> list[tuple[float, float]]:
    """95% interval of each Elo rating of :func:`elo_ratings`, by a bootstrap
    over independent blocks of games.

    ``blocks`` holds the pairwise results of each block (a tournament's blocks
    are its deals: the games of one deal are dealt alike, so they are not
    independent and are resampled together). Each resample draws as many blocks
    as there are, with replacement, and fits the ratings again; the interval
    runs from the 2.5th to the 97.5th percentile of each bot's rating. The
    ratings keep a mean of 1500, so an interval says where a bot stands in this
    pool. ``seed`` makes it reproducible.

    >>> blocks = [{(0, 1): 3.0, (1, 0): 1.0}, {(0, 1): 2.0, (1, 0): 2.0}] * 50
    >>> [round(e) for e in elo_ratings(["a", "b"], {(0, 1): 250.0, (1, 0): 150.0})]
    [1544, 1456]
    >>> (lo_a, hi_a), (lo_b, hi_b) = elo_intervals(["a", "b"], blocks)
    >>> lo_a < 1544 < hi_a and lo_b < 1456 < hi_b
    True
    """
    k = len(names)
    if k == 1 or not blocks:  # nothing played: every rating is the mean
        return [(1500.0, 1500.0)] * k
    rng = random.Random(seed)
    n = len(blocks)
    draws: list[list[float]] = [[] for _ in range(k)]
    for _ in range(resamples):
        total: Pairwise = {}
        for b in rng.choices(range(n), k=n):
            for key, v in blocks[b].items():
                total[key] = total.get(key, 0.0) + v
        for i, e in enumerate(elo_ratings(names, total)):
            draws[i].append(e)
    out = []
    for d in draws:
        cuts = statistics.quantiles(d, n=40, method="inclusive")  # every 2.5%
        out.append((cuts[0], cuts[-1]))
    return out


def _pairwise(r: GameResult, into: Pairwise) -> None:
    """Add game ``r``'s pairwise results: each winner beats every other seat
    held by another bot; without a winner, all draw."""
    up = r.lineup
    for s, a in enumerate(up):
        for t, b in enumerate(up):
            if s >= t or a == b:
                continue
            if not r.winners:
                into[a, b] = into.get((a, b), 0.0) + 0.5
                into[b, a] = into.get((b, a), 0.0) + 0.5
            elif s in r.winners and t not in r.winners:
                into[a, b] = into.get((a, b), 0.0) + 1.0
            elif t in r.winners and s not in r.winners:
                into[b, a] = into.get((b, a), 0.0) + 1.0


@dataclass
class BotStats:
    label: str
    games: int = 0  # seat-games
    wins: float = 0.0
    points: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    elo: float = 1500.0
    elo_ci95: tuple[float, float] = (1500.0, 1500.0)
    forfeits: int = 0  # games lost because the bot (an engine) failed

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_points(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000.0 * self.seconds / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "games": self.games,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_points": round(self.mean_points, 2),
            "elo": round(self.elo, 1),
            "elo_ci95": [round(self.elo_ci95[0], 1), round(self.elo_ci95[1], 1)],
            "wins": self.wins,
            "ms_per_decision": round(self.ms_per_decision, 2),
            "max_ms_per_decision": round(1000.0 * self.slowest, 1),
            "forfeits": self.forfeits,
        }


@dataclass
class TournamentResult:
    variant: str
    players: int
    games: int
    seed: int
    specs: list[BotSpec]
    match: bool = False
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    bots: dict[str, BotStats] = field(default_factory=dict)
    pairwise: dict[tuple[int, int], float] = field(default_factory=dict)

    def tally(self) -> None:
        """Fill :attr:`bots` and :attr:`pairwise` from :attr:`results`."""
        specs = self.specs
        stats = [BotStats(s.label) for s in specs]
        pair: Pairwise = {}
        by_deal: dict[int, Pairwise] = {}
        for r in sorted(self.results, key=lambda r: r.index):
            up = r.lineup
            share = 1.0 / len(r.winners) if r.winners else 0.0
            for s, b in enumerate(up):
                st = stats[b]
                st.games += 1
                st.points += r.points[s]
                st.decisions += r.decisions[s]
                st.seconds += r.seconds[s]
                st.slowest = max(st.slowest, r.slowest[s])
                if s in r.winners:
                    st.wins += share
                if s == r.forfeit:
                    st.forfeits += 1
            _pairwise(r, by_deal.setdefault(r.deal, {}))
        for block in by_deal.values():
            for key, v in block.items():
                pair[key] = pair.get(key, 0.0) + v
        names = [s.label for s in specs]
        intervals = elo_intervals(names, list(by_deal.values()), seed=self.seed)
        for st, e, ci in zip(stats, elo_ratings(names, pair), intervals, strict=True):
            st.elo = e
            st.elo_ci95 = ci
        self.bots = {st.label: st for st in stats}
        self.pairwise = pair

    def head_to_head(self) -> dict[str, dict[str, float]]:
        """``[a][b]``: the share of a's pairwise results against b that a won
        (draws count half); only pairs that met."""
        labels = [s.label for s in self.specs]
        out: dict[str, dict[str, float]] = {a: {} for a in labels}
        for i, a in enumerate(labels):
            for j, b in enumerate(labels):
                won = self.pairwise.get((i, j), 0.0)
                lost = self.pairwise.get((j, i), 0.0)
                if i != j and won + lost > 0:
                    out[a][b] = round(won / (won + lost), 4)
        return out

    def forfeits(self) -> list[dict[str, Any]]:
        """The games a bot lost by failing (an engine's crash, timeout or illegal move)."""
        return [
            {"game": r.index, "seat": r.forfeit, "bot": self.specs[r.lineup[r.forfeit]].label,
             "reason": r.forfeit_reason}
            for r in sorted(self.results, key=lambda r: r.index)
            if r.forfeit >= 0
        ]  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "bots": {k: v.to_dict() for k, v in self.bots.items()},
            "head_to_head": self.head_to_head(),
            "forfeits": self.forfeits(),
        }


def _check_variants(variant: str, specs: Sequence[BotSpec]) -> None:
    """Refuse a bot that declares the variants it plays (``variants``) elsewhere."""
    from unokit.bots.levels import bot_variants
    from unokit.engine.variants import get_variant

    name = get_variant(variant).name
    for s in specs:
        allowed = bot_variants(s.name)
        if allowed is not None and name not in allowed:
            raise OptionError(f"{s.label} plays {', '.join(allowed)} only, not {name}")


def _work(
    args: tuple[str, int, Options, list[BotSpec], int, list[int], bool, bool],
) -> list[GameResult]:
    variant, players, options, specs, seed, indices, match, record = args
    return [play_game(variant, players, options, specs, seed, i, match, record) for i in indices]


def run_tournament(
    variant: str,
    players: int,
    specs: Sequence[BotSpec],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    options: dict[str, Any] | Options | None = None,
    match: bool = False,
    progress: Callable[[int], None] | None = None,
    records: list[str] | None = None,
    ray: str | None = None,
) -> TournamentResult:
    """Play ``games`` games (rounds, or whole matches with ``match``) between
    ``specs`` on ``workers`` processes (default: one per CPU), or on Ray with
    ``ray`` (``"local"`` or a cluster address, :func:`unokit.bots.distributed.make_runner`);
    ``progress`` is called with the number of games finished so far. The
    results do not depend on where the games ran. ``records``: a list that
    receives every game's record (one JSON line each, in game order)."""
    if games < 1:
        raise OptionError("a tournament needs at least one game")
    if not specs:
        raise OptionError("a tournament needs at least one bot")
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    if not match:
        opts = opts.replace(matchMode="single_round")
    Game.new(variant, players, opts, seed=seed, events=False)  # validate before forking
    _check_variants(variant, specs)
    w = workers if workers is not None else (os.cpu_count() or 1)
    if w < 1:
        raise OptionError(f"workers must be at least 1, got {w}")
    runner = make_runner(w, ray)
    specs = list(specs)
    result = TournamentResult(variant, players, games, seed, specs, match)
    start = time.perf_counter()
    # small chunks keep the progress bar moving and the workers evenly loaded
    chunk = max(1, min(8, games // (w * 8) or 1))
    jobs = [
        (
            variant,
            players,
            opts,
            specs,
            seed,
            list(range(i, min(games, i + chunk))),
            match,
            records is not None,
        )
        for i in range(0, games, chunk)
    ]
    done = 0
    for out in runner.map(_work, jobs):
        result.results += out
        done += len(out)
        if progress is not None:
            progress(done)
    result.seconds = time.perf_counter() - start
    result.tally()
    if records is not None:
        records += [r.record for r in sorted(result.results, key=lambda r: r.index) if r.record]
    return result
