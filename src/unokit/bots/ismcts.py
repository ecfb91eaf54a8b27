"""Information-set Monte Carlo tree search (single-observer ISMCTS).

The bot sees only its :class:`~unokit.observation.Observation`. Each iteration
samples a full game consistent with it (:class:`~unokit.bots.determinize.Determinizer`),
walks one shared tree of decisions — nodes keyed by move code, chosen by UCB1
over the moves available in that sample (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search") — adds one node, plays the round
out with a fast policy (:mod:`unokit.bots.rollout`) and backs up who won. Every
seat in the tree maximises its own chance to win the round. The move played is
the most visited one at the root.

Budget: ``think_ms`` (wall clock) and/or ``iterations``; whichever ends first.
A decision with one legal answer is made at once, and a vulnerable opponent is
caught before anything else.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=3)
>>> bot = ISMCTSBot(seed=1, think_ms=None, iterations=200)
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

from unokit.actions import Action, CallUno, Catch, Play
from unokit.bots.determinize import Determinizer
from unokit.bots.rollout import rollout, sensible_move, sensible_rollout
from unokit.errors import OptionError
from unokit.game import _RO, Game
from unokit.observation import Observation
from unokit.playout import playout

__all__ = ["ISMCTSBot", "DEFAULT_THINK_MS", "SearchStats"]

#: default budget of ``hard``: a decision takes well under a second
DEFAULT_THINK_MS = 700.0


class _Node:
    __slots__ = ("player", "visits", "wins", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat whose move led here
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[int, _Node] = {}


class SearchStats:
    """What the last search did (for benchmarks and the docs)."""

    __slots__ = ("iterations", "seconds", "visits")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.visits: dict[str, int] = {}


Rollout = Callable[[Game, Callable[[], float]], int]
_ROLLOUTS: dict[str, Rollout] = {
    "greedy": rollout,
    "random": playout,
    "sensible": sensible_rollout,
}


class ISMCTSBot:
    """See the module docstring. Options:

    * ``think_ms``: thinking budget per decision, in milliseconds of CPU time
      of the thinking thread (default :data:`DEFAULT_THINK_MS`; ``None``: no
      clock). CPU time, so that a busy machine does not make the bot weaker;
      the wall clock is capped at ``max_wall_ms`` (default 4 x ``think_ms``).
    * ``iterations``: a cap on the number of samples (``None``: no cap).
    * ``exploration``: the UCB1 constant.
    * ``rollout``: ``sensible`` (default), ``greedy`` or ``random``.
    * ``opponents``: ``policy`` (default: the other seats play the rollout
      policy on their sampled hands, and the tree holds this seat's own
      decisions) or ``tree`` (every seat's decisions are in the tree).
    """

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        think_ms: float | None = DEFAULT_THINK_MS,
        iterations: int | None = None,
        exploration: float = 0.7,
        rollout: str = "sensible",
        opponents: str = "policy",
        max_wall_ms: float | None = None,
        infer: bool = True,
        name: str | None = None,
        **_: Any,
    ) -> None:
        if think_ms is not None and float(think_ms) <= 0:
            raise OptionError(f"think_ms must be positive, got {think_ms}")
        if iterations is not None and int(iterations) < 1:
            raise OptionError(f"iterations must be at least 1, got {iterations}")
        if think_ms is None and iterations is None:
            raise OptionError("a search needs a budget: think_ms or iterations")
        if rollout not in _ROLLOUTS:
            raise OptionError(f"unknown rollout {rollout!r}: expected {', '.join(_ROLLOUTS)}")
        if opponents not in ("policy", "tree"):
            raise OptionError(f"opponents must be policy or tree, got {opponents!r}")
        self.think_ms = None if think_ms is None else float(think_ms)
        self.iterations = None if iterations is None else int(iterations)
        self.exploration = float(exploration)
        self.rollout = rollout
        self._rollout = _ROLLOUTS[rollout]
        self.opponents = opponents
        self.infer = bool(infer)
        if max_wall_ms is None and self.think_ms is not None:
            max_wall_ms = 4 * self.think_ms
        self.max_wall_ms = None if max_wall_ms is None else float(max_wall_ms)
        self._rng = random.Random(seed)
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
            return _with_uno(plays[0]) if plays else legal[0]
        choices: list[Action] = [a for a in legal if not isinstance(a, CallUno | Catch)]
        if len(choices) == 1:
            self.stats = SearchStats()
            return _with_uno(choices[0])
        return _with_uno(self._search(obs, choices))

    # ------------------------------------------------------------------ search

    def _search(self, obs: Observation, choices: list[Action]) -> Action:
        wall0 = time.perf_counter()
        cpu0 = time.thread_time()
        try:
            det = Determinizer(obs, infer=self.infer)
        except ValueError:
            # a position no real deck can produce (a hand-made set-up): play sensibly
            from unokit.bots.heuristic import HeuristicBot

            return HeuristicBot(seed=self._rng.getrandbits(32)).act(obs)
        rng = self._rng
        rnd = rng.random
        template = det.sample(rng)
        codes = {template.encode(a): a for a in choices}
        root = _Node(-1)
        cpu_end = None if self.think_ms is None else cpu0 + self.think_ms / 1000.0
        wall_end = None if self.max_wall_ms is None else wall0 + self.max_wall_ms / 1000.0
        cap = self.iterations
        c = self.exploration
        play_out = self._rollout
        me = obs.seat if self.opponents == "policy" and obs.seat is not None else -1
        it = 0
        cpu = time.thread_time
        wall = time.perf_counter
        while True:
            g = det.sample(rng)
            _iterate(g, root, rnd, c, play_out, me)
            it += 1
            if cap is not None and it >= cap:
                break
            if cpu_end is not None and cpu() >= cpu_end:
                break
            if wall_end is not None and wall() >= wall_end:
                break
        stats = SearchStats()
        stats.iterations = it
        stats.seconds = time.perf_counter() - wall0
        stats.visits = {
            str(codes[m]): ch.visits for m, ch in root.children.items() if m in codes
        }
        self.stats = stats
        best = max(
            codes,
            key=lambda m: (
                root.children[m].visits if m in root.children else -1,
                root.children[m].wins if m in root.children else 0.0,
            ),
        )
        return codes[best]


def _iterate(
    g: Game,
    root: _Node,
    rnd: Callable[[], float],
    c: float,
    play_out: Rollout,
    me: int = -1,
) -> None:
    """One ISMCTS iteration on the sampled game ``g`` (changed in place). With
    ``me >= 0`` only that seat's decisions are in the tree; the other seats
    play :func:`~unokit.bots.rollout.sensible_move`."""
    node = root
    path: list[_Node] = []
    log = math.log
    sqrt = math.sqrt
    while g.phase < _RO:
        moves = g.turn_moves()
        if len(moves) == 1:
            g._step(moves[0])
            continue
        if me >= 0 and g.current != me:
            g._step(sensible_move(g))
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
            child = children[m] = _Node(g.current)
            child.avail = 1
            path.append(child)
            g._step(m)
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
        g._step(best_m)
    if g.phase < _RO:
        play_out(g, rnd)
    winner = g.winner
    share = 1.0 / g.n if winner < 0 else 0.0
    for ch in path:
        ch.visits += 1
        ch.wins += 1.0 if ch.player == winner else share


def _with_uno(a: Action) -> Action:
    return replace(a, uno=True) if isinstance(a, Play) else a
