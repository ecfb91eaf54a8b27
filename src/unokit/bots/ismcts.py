"""``hard``: information-set Monte Carlo search on observations only.

The bot sees only its :class:`~unokit.engine.observation.Observation`. It samples full
games consistent with it (:class:`~unokit.bots.determinize.Determinizer`: the
unseen cards dealt to the other hands and the draw pile, respecting every
visible fact and what the other players' draws and wilds reveal), plays each
candidate move on each sample, plays the round out with a fast policy
(:func:`~unokit.bots.rollout.sensible_move`, a copy of the heuristic bot's
rules, for every seat) and counts the rounds it wins. Two ways to spend the
samples:

* ``search="flat"`` (default): every candidate is tried on the *same* samples
  (paired comparisons), and sequential halving (Karnin, Koren & Somekh 2013)
  drops the worse half of the candidates after each round, so the budget goes
  to the close calls. The best mean wins; on a tie, the heuristic's move.
* ``search="tree"``: single-observer ISMCTS (Cowling, Powley & Whitehouse
  2012): one tree of this seat's decisions, nodes keyed by move code and chosen
  by UCB1 over the moves available in each sample, one node added per sample.

Measured against the heuristic bot, flat halving makes better decisions than
the tree at these budgets (docs/bots.md): UNO's value is mostly in the next
move, and paired samples cancel most of the luck of the deal.

Budget: ``sims=N`` (``N`` rollouts per decision, no clock: a decision
is a pure function of the observation and the seed, so tournaments are
reproducible whatever the machine's load), or ``think_ms`` of CPU time of the
searching thread (:func:`time.thread_time`) with an optional cap
``iterations`` on the rollouts. A decision with one legal answer is made at
once, and a vulnerable opponent is caught before anything else.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=3)
>>> bot = ISMCTSBot(seed=1, sims=200)
>>> g.is_legal(bot.act(g.observe(g.current)))
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from unokit.bots.base import with_uno
from unokit.bots.determinize import Determinizer
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.rollout import OWN_POLICIES, rollout, sensible_move, sensible_rollout
from unokit.engine.actions import Action, CallUno, Catch, Draw, Play
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.errors import OptionError
from unokit.engine.game import Game
from unokit.engine.observation import Observation

__all__ = ["ISMCTSBot", "DEFAULT_THINK_MS", "DEFAULT_SIMS", "SearchStats", "legacy_hard"]

#: the budget of ``hard`` before issue 25 (``hard-legacy``): 700 ms of CPU time
#: per decision, flat sequential halving
DEFAULT_THINK_MS = 700.0
#: the default budget of ``hard`` since issue 25: at most this many rollouts
#: per decision, by count (no clock), raced (``race``): most decisions stop
#: long before it (docs/bots.md)
DEFAULT_SIMS = 1000
#: the default's cap where it differs, by (variant, players): in 2 players
#: the reference's extra rollouts were worth a quarter of a point per
#: decision in Classic, and a race at 2000 recovers it (Flip gains a little); 2-player
#: Flex's decisions have the most candidates (a card with or without its
#: Flex power) and its rollouts are the cheapest. Measured no weaker than
#: ``hard`` before on 4,000 paired deals each, at a median CPU per decision
#: under 10 ms (docs/bots.md, issue 25, sixth session).
DEFAULT_SIMS_BY_VARIANT = {("classic", 2): 2000, ("flip", 2): 2000, ("flex", 2): 4000}
#: racing: samples between two checks, samples before the first one, the
#: normal quantile of an elimination and the difference in win rate below
#: which two moves count as equal
RACE_BLOCK = 8
RACE_MIN = 24
RACE_Z = 3.0
RACE_DELTA = 0.02
#: deals weighed against the other players' earlier plays per decision
DEFAULT_PARTICLES = 0
#: Metropolis-Hastings steps between samples of the posterior over the hidden
#: hands (:mod:`unokit.bots.posterior`; 0: the determinizer's plain sampling).
#: Off by default: against ``heuristic`` it won 66.0% of 520 Classic rounds
#: where plain sampling won 61.0% of the same, but head to head against
#: plain ``hard`` 47.8% of 441 (docs/bots.md)
DEFAULT_MCMC = 0


class _Node:
    __slots__ = ("player", "visits", "wins", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat whose move led here
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[int, _Node] = {}


class SearchStats:
    """What the last search did (for benchmarks and the docs): samples dealt,
    rollouts played, wall seconds, and the win rate estimated for each
    candidate (by index in the candidate list)."""

    __slots__ = ("iterations", "rollouts", "seconds", "values")

    def __init__(self) -> None:
        self.iterations = 0
        self.rollouts = 0
        self.seconds = 0.0
        self.values: dict[int, float] = {}


def _random_rollout(c: Game, rnd: Callable[[], float]) -> int:
    """:func:`unokit.engine.playout.playout` on a game (the same calls of ``rnd``)."""
    return c.playout(rnd) if c.phase < _RO else 0


#: a rollout plays the round of ONE game (a simulation's sampled game,
#: converted once) to its end
Rollout = Callable[[Game, Callable[[], float]], int]
_ROLLOUTS: dict[str, Rollout] = {
    "greedy": rollout,
    "random": _random_rollout,
    "sensible": sensible_rollout,
}


class ISMCTSBot:
    """See the module docstring. Options:

    * ``sims``: the budget by count: this many rollouts per searched
      decision (rounded up to whole rounds of paired samples) and no clock (``think_ms`` and ``iterations`` are then
      ignored). Same seed and ``sims``: same decisions, on any machine.
    * ``think_ms``: thinking budget per decision, in milliseconds of CPU time
      of the thinking thread (default :data:`DEFAULT_THINK_MS`; ``None``: no
      clock). CPU time (:func:`time.thread_time`), so that a busy machine
      does not make the bot weaker. ``max_wall_ms`` (default: none) adds a
      wall-clock cap for an application that must answer in time whatever
      the load (it makes the strength depend on the load again).
    * ``iterations``: a cap on the number of rollouts (``None``: no cap).
    * ``search``: ``flat`` (default) or ``tree`` (see the module docstring).
    * ``rollout``: ``sensible`` (default), ``greedy`` or ``random``.
    * ``own``: the policy of this seat's own moves in the sensible rollouts:
      ``sensible`` (default: the same as the other seats') or ``tuned`` (the
      weighted sensible policy with :data:`~unokit.bots.rollout.TUNED_WEIGHTS`,
      tuned against the sensible policy; the other seats stay sensible).
    * ``infer``: sample hands consistently with what the other players' draws
      and wilds reveal (default true; false: only the visible facts).
    * ``mcmc``: sample them from a posterior given every earlier play and
      draw of the other players (:mod:`unokit.bots.posterior`), this many
      Markov chain steps between two samples (default :data:`DEFAULT_MCMC`;
      0: the plain sampling); ``play_eps``: the chance its opponent model
      gives a play the heuristic would not make (default 0.03).
    * ``exploration``, ``opponents`` (tree search only): the UCB1 constant;
      ``policy`` (default: the other seats play the rollout policy and the
      tree holds this seat's decisions) or ``tree`` (every seat in the tree).
    """

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        think_ms: float | None | str = "default",
        iterations: int | None = None,
        sims: int | None = None,
        search: str = "flat",
        rollout: str = "sensible",
        own: str = "sensible",
        infer: bool = True,
        exploration: float = 0.7,
        opponents: str = "policy",
        max_wall_ms: float | None = None,
        particles: int = DEFAULT_PARTICLES,
        mcmc: int = DEFAULT_MCMC,
        play_eps: float | None = None,
        race: bool | str | None = None,
        c_race: bool | str = True,
        name: str | None = None,
        **_: Any,
    ) -> None:
        default_budget = think_ms == "default" and sims is None and iterations is None
        if think_ms == "default":
            think_ms = None if iterations is not None or sims is not None else DEFAULT_THINK_MS
        if default_budget:
            sims = DEFAULT_SIMS
        #: the cap follows the variant (:data:`DEFAULT_SIMS_BY_VARIANT`)
        self._variant_cap = default_budget
        #: racing (successive elimination on paired samples) instead of
        #: sequential halving: on by default with the default budget
        self.race = default_budget if race is None else _flag("race", race)
        if self.race and search != "flat":
            raise OptionError("race needs search=flat")
        #: the race in C (``_core.Game.race``) when the samples allow it; the
        #: Python race otherwise (same algorithm, Python's generator)
        self._c_race = (
            rollout == "sensible"
            and own == "sensible"
            and _flag("c_race", c_race)
            # a subclass that scores or samples otherwise (expert) races in Python
            and type(self)._values is ISMCTSBot._values
            and type(self)._sample is ISMCTSBot._sample
        )
        if sims is not None:
            sims = _count("sims", sims)
            think_ms, iterations, max_wall_ms = None, sims, None
        if think_ms is not None and float(think_ms) <= 0:
            raise OptionError(f"think_ms must be positive, got {think_ms}")
        if iterations is not None and int(iterations) < 1:
            raise OptionError(f"iterations must be at least 1, got {iterations}")
        if think_ms is None and iterations is None:
            raise OptionError("a search needs a budget: think_ms or iterations")
        if search not in ("flat", "tree"):
            raise OptionError(f"search must be flat or tree, got {search!r}")
        if rollout not in _ROLLOUTS:
            raise OptionError(f"unknown rollout {rollout!r}: expected {', '.join(_ROLLOUTS)}")
        if own not in OWN_POLICIES:
            raise OptionError(f"unknown own {own!r}: expected {', '.join(OWN_POLICIES)}")
        if own != "sensible" and rollout != "sensible":
            raise OptionError(f"own={own} needs the sensible rollout, not {rollout!r}")
        if opponents not in ("policy", "tree"):
            raise OptionError(f"opponents must be policy or tree, got {opponents!r}")
        self.think_ms = None if think_ms is None else float(think_ms)
        self.iterations = None if iterations is None else int(iterations)
        self.search = search
        self.rollout = rollout
        self._rollout = _ROLLOUTS[rollout]
        self.own = own
        #: the weights of this seat's own rollout moves (None: sensible)
        self._own_weights = OWN_POLICIES[own]
        self.infer = infer not in (False, 0, "0", "false", "False")
        self.exploration = float(exploration)
        self.opponents = opponents
        if max_wall_ms is not None and float(max_wall_ms) <= 0:
            raise OptionError(f"max_wall_ms must be positive, got {max_wall_ms}")
        self.sims = None if sims is None else int(sims)
        self.particles = _count("particles", particles) if particles not in (0, "0") else 0
        self.mcmc = _count("mcmc", mcmc) if mcmc not in (0, "0") else 0
        self.play_eps = None if play_eps is None else _share("play_eps", play_eps)
        self.max_wall_ms = None if max_wall_ms is None else float(max_wall_ms)
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(seed=seed)
        self.stats = SearchStats()
        if name is not None:
            self.name = name

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        for a in legal:
            if isinstance(a, Catch):
                return a
        if obs.seat is None or obs.seat != obs.current:
            # out of turn: jump in when the house rule allows it (shedding a card is good)
            plays = [a for a in legal if isinstance(a, Play)]
            return with_uno(plays[0], obs) if plays else legal[0]
        self.stats = SearchStats()
        choices: list[Action] = [a for a in legal if not isinstance(a, CallUno | Catch)]
        if len(choices) == 1:
            return with_uno(choices[0], obs)
        default = _without_uno(self._heuristic.act(obs))
        if (
            obs.phase == "AWAIT_TURN"
            and not obs.pending_draw
            and any(isinstance(a, Play) for a in choices)
        ):
            # drawing with a card to play is never better in our measurements
            choices = [a for a in choices if not isinstance(a, Draw) or a == default]
        if default not in choices:  # cannot happen with the heuristic bot
            default = choices[0]
        if len(choices) == 1:
            return with_uno(choices[0], obs)
        return with_uno(self._search(obs, choices, default), obs)

    # ------------------------------------------------------------------ search

    def _search(self, obs: Observation, choices: list[Action], default: Action) -> Action:
        wall0 = time.perf_counter()
        cpu0 = time.thread_time()
        try:
            det = Determinizer(obs, infer=self.infer, particles=self.particles, mcmc=self.mcmc)
            if self.play_eps is not None:
                det.play_eps = self.play_eps
        except ValueError:
            # a position no real deck can produce (a hand-made set-up): play sensibly
            return default
        self._clock = _Clock(cpu0, wall0, self.think_ms, self.max_wall_ms)
        template = det.sample(self._rng)
        codes = [template.encode(a) for a in choices]
        assert obs.seat is not None
        if self.search == "flat" and self.race and self.iterations is not None:
            cap = self.iterations
            if self._variant_cap:
                cap = DEFAULT_SIMS_BY_VARIANT.get((obs.variant, obs.players), cap)
            best = self._race(det, codes, choices.index(default), obs.seat, cap)
        elif self.search == "flat":
            best = self._flat(det, codes, choices.index(default), obs.seat)
        else:
            best = self._tree(det, codes, obs.seat)
        self.stats.seconds = time.perf_counter() - wall0
        return choices[best]

    def _flat(self, det: Determinizer, codes: list[int], default: int, me: int) -> int:
        """Sequential halving over ``codes`` on shared samples; the index of the
        best candidate (``default`` on a tie)."""
        rng = self._rng
        clock = self._clock
        k = len(codes)
        wins = [0.0] * k
        tried = [0] * k
        alive = list(range(k))
        rounds = max(1, math.ceil(math.log2(k)))
        cap = self.iterations
        done = 0
        for r in range(rounds):
            slice_end = clock.slice(r, rounds)
            quota = None if cap is None else max(len(alive), (cap - done) // (rounds - r))
            spent = 0
            while True:
                values = self._values(self._sample(det, rng), [codes[i] for i in alive], me)
                for i, v in zip(alive, values, strict=True):
                    wins[i] += v
                    tried[i] += 1
                spent += len(alive)
                if quota is not None and spent >= quota:
                    break
                if clock.over(slice_end):
                    break
            done += spent
            self.stats.iterations += spent // len(alive)
            self.stats.rollouts += spent
            if len(alive) > 1 and r < rounds - 1:
                alive.sort(key=lambda i: (-wins[i] / tried[i], i != default))
                alive = alive[: (len(alive) + 1) // 2]
        self.stats.values = {i: wins[i] / tried[i] for i in range(k) if tried[i]}
        return max(alive, key=lambda i: (wins[i] / tried[i], i == default))

    def _race(self, det: Determinizer, codes: list[int], default: int, me: int, cap: int) -> int:
        """Successive elimination on paired samples: every candidate still in
        the race is played on each sample; every :data:`RACE_BLOCK` samples
        (from :data:`RACE_MIN` on) a candidate is dropped when the leader beat
        it on more samples than it beat the leader, by more than
        :data:`RACE_Z` standard deviations of that count (a sign test), and
        the race stops when one candidate is left, when the leader is within
        :data:`RACE_DELTA` of every other one at that confidence (they are
        as good), or when ``cap`` rollouts are spent. The index of the
        candidate with the most wins (``default`` on a tie)."""
        rng = self._rng
        k = len(codes)
        spec = det.race_spec() if self._c_race else None
        if spec is not None and k <= 64:
            # the whole race in one C call (src/unokit/_core/search.c): the
            # samples dealt there from the determinizer's spec, with its own
            # generator seeded from this bot's
            core = det._core
            assert core is not None
            best, samples, spent, won = core._g.race(
                spec, codes, default, cap, rng.getrandbits(64), RACE_BLOCK, RACE_MIN,
                RACE_Z, RACE_DELTA,
            )  # fmt: skip
            self.stats.iterations = samples
            self.stats.rollouts = spent
            self.stats.values = {i: won[i] / samples for i in range(k) if samples}
            return best
        wins = [0] * k
        #: beat[i][j]: samples on which i won the round and j did not
        beat = [[0] * k for _ in range(k)]
        alive = list(range(k))
        spent = samples = 0
        z = RACE_Z
        sqrt = math.sqrt
        while len(alive) > 1 and spent < cap:
            for _ in range(RACE_BLOCK):
                values = self._values(self._sample(det, rng), [codes[i] for i in alive], me)
                won = [i for i, v in zip(alive, values, strict=True) if v >= 1.0]
                if won and len(won) < len(alive):
                    lost = [i for i in alive if i not in won]
                    for i in won:
                        wins[i] += 1
                        row = beat[i]
                        for j in lost:
                            row[j] += 1
                elif won:
                    for i in won:
                        wins[i] += 1
                samples += 1
                spent += len(alive)
                if spent >= cap:
                    break
            if samples < RACE_MIN:
                continue
            lead = max(alive, key=lambda i: (wins[i], i == default))
            keep = [lead]
            close = True
            for j in alive:
                if j == lead:
                    continue
                a, b = beat[lead][j], beat[j][lead]
                bound = z * sqrt(a + b)
                if a - b > bound:
                    continue
                keep.append(j)
                if (abs(a - b) + bound) >= RACE_DELTA * samples:
                    close = False
            alive = sorted(keep)
            if close:
                break
        self.stats.iterations = samples
        self.stats.rollouts = spent
        self.stats.values = {i: wins[i] / samples for i in range(k) if samples}
        return max(alive, key=lambda i: (wins[i], i == default))

    def _sample(self, det: Determinizer, rng: random.Random) -> Game:
        """One sample for :meth:`_values`: on the core (no ``Game`` is built;
        the same deal as ``det.sample(rng)``). Subclasses that read a
        ``Game`` take :meth:`Determinizer.sample`'s."""
        return det.sample_core(rng)

    def _values(self, g0: Game, codes: list[int], me: int) -> list[float]:
        """The value for ``me`` of each move ``codes`` on the sampled game ``g0``
        (left unchanged): one rollout each, 1 for a win, 1/n for a round
        without a winner. Subclasses score leaves otherwise (``expert``)."""
        rnd = self._rng.random
        play_out = self._rollout
        # the sample on the core, once
        c0 = g0 if g0.log is None else g0.copy()
        out = []
        if play_out is sensible_rollout:
            # the commonest search, on the core's game object directly (the
            # Game wrappers cost as much as a C rollout)
            raw = c0._g
            share = 1.0 / c0.n
            own = self._own_weights
            for code in codes:
                r = raw.copy()
                if r.apply_move(code, -1, True):
                    c0.copy().apply_move(code, uno=True)  # raises, with the reason
                if r.phase < _RO:
                    if own is None:
                        r.sensible_playout(100_000)
                    else:
                        r.mixed_playout(100_000, me, own)
                w = r.winner
                out.append(1.0 if w == me else (share if w < 0 else 0.0))
            return out
        for code in codes:
            c = c0.copy()
            c.apply_move(code, uno=True)
            if c.phase < _RO:
                play_out(c, rnd)
            w = c.winner
            out.append(1.0 if w == me else (1.0 / c.n if w < 0 else 0.0))
        return out

    def _tree(self, det: Determinizer, codes: list[int], me: int) -> int:
        """Single-observer ISMCTS; the index of the most visited root move."""
        rng = self._rng
        rnd = rng.random
        root = _Node(-1)
        cap = self.iterations
        c = self.exploration
        play_out = self._rollout
        own = self._own_weights
        if own is not None:
            w = own

            def play_out(cg: Game, rnd: Callable[[], float]) -> int:
                return cg._g.mixed_playout(100_000, me, w)

        seat = me if self.opponents == "policy" else -1
        clock = self._clock
        end = clock.slice(0, 1)
        it = 0
        while True:
            _iterate(det.sample(rng), root, rnd, c, play_out, seat)
            it += 1
            if cap is not None and it >= cap:
                break
            if clock.over(end):
                break
        self.stats.iterations = self.stats.rollouts = it
        ch = root.children
        self.stats.values = {i: ch[m].wins / ch[m].visits for i, m in enumerate(codes) if m in ch}
        return max(
            range(len(codes)),
            key=lambda i: (ch[codes[i]].visits, ch[codes[i]].wins) if codes[i] in ch else (-1, 0),
        )


class _Clock:
    """The budget: CPU seconds of this thread, and a wall-clock cap."""

    __slots__ = ("cpu0", "wall0", "cpu_budget", "wall_end")

    def __init__(
        self, cpu0: float, wall0: float, think_ms: float | None, max_wall_ms: float | None
    ) -> None:
        self.cpu0 = cpu0
        self.wall0 = wall0
        self.cpu_budget = None if think_ms is None else think_ms / 1000.0
        self.wall_end = None if max_wall_ms is None else wall0 + max_wall_ms / 1000.0

    def slice(self, r: int, rounds: int) -> float | None:
        """CPU time at which round ``r`` of ``rounds`` equal rounds ends."""
        if self.cpu_budget is None:
            return None
        return self.cpu0 + self.cpu_budget * (r + 1) / rounds

    def over(self, cpu_end: float | None) -> bool:
        if cpu_end is not None and time.thread_time() >= cpu_end:
            return True
        return self.wall_end is not None and time.perf_counter() >= self.wall_end


def _iterate(
    g: Game,
    root: _Node,
    rnd: Callable[[], float],
    c: float,
    play_out: Rollout,
    me: int = -1,
) -> None:
    """One ISMCTS iteration on the sampled game ``g`` (left unchanged: the
    iteration steps ONE game made from it). With ``me >= 0`` only that
    seat's decisions are in the tree; the other seats play
    :func:`~unokit.bots.rollout.sensible_move`."""
    cg = g.copy()
    node = root
    path: list[_Node] = []
    log = math.log
    sqrt = math.sqrt
    while cg.phase < _RO:
        moves = cg.turn_moves()
        if len(moves) == 1:
            cg.apply_move(moves[0], uno=True)
            continue
        if me >= 0 and cg.current != me:
            cg.apply_move(sensible_move(cg), uno=True)
            continue
        children = node.children
        untried: list[int] = []
        for m in moves:
            ch = children.get(m)
            if ch is None:
                untried.append(m)
            else:
                ch.avail += 1
        if untried:
            m = untried[int(rnd() * len(untried))]
            child = children[m] = _Node(cg.current)
            child.avail = 1
            path.append(child)
            cg.apply_move(m, uno=True)
            break
        best_m = moves[0]
        best_v = -1.0
        for m in moves:
            ch = children[m]
            v = ch.wins / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
            if v > best_v:
                best_v, best_m = v, m
        node = children[best_m]
        path.append(node)
        cg.apply_move(best_m, uno=True)
    if cg.phase < _RO:
        play_out(cg, rnd)
    winner = cg.winner
    share = 1.0 / cg.n if winner < 0 else 0.0
    for ch in path:
        ch.visits += 1
        ch.wins += 1.0 if ch.player == winner else share


def legacy_hard(seed: int = 0, **options: Any) -> ISMCTSBot:
    """``hard-legacy``: ``hard`` as it was before issue 25 (700 ms of CPU time
    per decision, sequential halving), kept so that comparisons with it can
    be repeated. Its options are ``hard``'s."""
    if not {"sims", "think_ms", "iterations"} & set(options):
        options["think_ms"] = DEFAULT_THINK_MS
    options.setdefault("race", False)
    options.setdefault("name", "hard-legacy")
    return ISMCTSBot(seed=seed, **options)


def _flag(name: str, value: object) -> bool:
    """``value`` as a yes/no option (``true``/``false``, ``1``/``0``)."""
    if value in (True, 1, "1", "true", "True", "on", "yes"):
        return True
    if value in (False, 0, "0", "false", "False", "off", "no"):
        return False
    raise OptionError(f"{name} must be true or false, got {value!r}")


def _share(name: str, value: object) -> float:
    """``value`` as a number strictly between 0 and 1, or an :class:`OptionError`."""
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OptionError(f"{name} must be a number between 0 and 1, got {value!r}") from None
    if not 0.0 < x < 1.0:
        raise OptionError(f"{name} must be a number between 0 and 1, got {value!r}")
    return x


def _count(name: str, value: object) -> int:
    """``value`` as a whole number of at least 1, or an :class:`OptionError`."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise OptionError(f"{name} must be a whole number of at least 1, got {value!r}")
    try:
        n = int(value)
    except ValueError:
        raise OptionError(f"{name} must be a whole number of at least 1, got {value!r}") from None
    if n < 1:
        raise OptionError(f"{name} must be a whole number of at least 1, got {value!r}")
    return n


def _without_uno(a: Action) -> Action:
    return replace(a, uno=False) if isinstance(a, Play) else a
