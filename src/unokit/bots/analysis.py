"""Game analysis: a seat's winning chances, decision by decision.

For each decision of one seat in a recorded match, :func:`analyse` estimates
from **that seat's observation only** (the games it could be in, sampled by
:class:`~unokit.bots.determinize.Determinizer`; the real hidden cards are never
read) the seat's chance to win the round after each legal move, with the
``expert``'s evaluation (:class:`~unokit.bots.expert.ExpertBot`: the other
seats answer with the ``sensible`` policy, then the value network), every move
scored on the same samples. ``before`` is the chance with the best move,
``after`` the chance with the move played; the difference is what the move
lost. Moves that lost at least 5, 10, 20 points are flagged as an inaccuracy,
a mistake, a blunder, with the better move named.

>>> from unokit import Game
>>> from unokit.records import record
>>> from unokit.bots import make_bot
>>> g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=5, events=True)
>>> bots = [make_bot("heuristic", seed=s) for s in range(2)]
>>> while g.phase < 4:
...     _ = g.apply(bots[g.current].act(g.observe(g.current)))
>>> rows = analyse(record.record_of(g), seat=0, samples=16)
>>> all(0.0 <= r.after <= r.before <= 1.0 for r in rows)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from unokit.bots.expert import ExpertBot
from unokit.engine.actions import Action, CallUno, Catch, Play, parse_action
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.errors import OptionError
from unokit.engine.observation import Observation
from unokit.records.record import Record

__all__ = ["MoveReport", "analyse", "evaluate", "position_value", "LABELS"]

#: a move that lost at least this many points of winning chance is flagged
LABELS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))


@dataclass(frozen=True)
class MoveReport:
    command: int  # number of the command in the record (1-based)
    round: int
    played: str
    before: float  # the seat's winning chance with its best move
    after: float  # ... with the move it played
    best: str  # the best move found
    moves: int  # legal moves compared
    label: str  # "", "inaccuracy", "mistake" or "blunder"

    @property
    def loss(self) -> float:
        return self.before - self.after

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "round": self.round,
            "played": self.played,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "loss": round(self.loss, 4),
            "best": self.best,
            "moves": self.moves,
            "label": self.label,
        }


def _choices(obs: Observation) -> list[Action]:
    """The seat's own moves (UNO calls and catches aside; no UNO flag)."""
    return [_plain(a) for a in obs.legal if not isinstance(a, CallUno | Catch)]


def _plain(a: Action) -> Action:
    from dataclasses import replace

    return replace(a, uno=False) if isinstance(a, Play) else a


def evaluate(
    obs: Observation, moves: list[Action], samples: int = 200, seed: int = 0
) -> list[float]:
    """The seat's winning chance after each of ``moves`` (its own legal
    actions), from its observation only, on the same ``samples`` sampled games."""
    if samples < 1:
        raise OptionError(f"samples must be at least 1, got {samples}")
    bot = ExpertBot(seed=seed, sims=samples)
    from unokit.bots.determinize import Determinizer

    det = Determinizer(obs)
    rng = random.Random(seed)
    template = det.sample(rng)
    codes = [template.encode(a) for a in moves]
    assert obs.seat is not None
    return bot.score(det, codes, obs.seat, samples, rng)


def position_value(obs: Observation, samples: int = 64, seed: int = 0) -> float:
    if samples < 1:
        raise OptionError(f"samples must be at least 1, got {samples}")
    """The seat's winning chance in this position (the value network on games
    sampled from its observation, everyone playing the ``sensible`` policy
    from here; rollouts where no network ships)."""
    bot = ExpertBot(seed=seed, sims=samples)
    from unokit.bots.determinize import Determinizer

    det = Determinizer(obs)
    assert obs.seat is not None
    return bot.state_value(det, obs.seat, samples, random.Random(seed))


def analyse(record: Record, seat: int, samples: int = 200, seed: int = 0) -> list[MoveReport]:
    """One :class:`MoveReport` per decision of ``seat`` with at least two
    different moves (see the module docstring)."""
    if not 0 <= seat < record.players:
        raise OptionError(f"seat {seat} is not a seat of this {record.players}-player game")
    g = record.start()
    out: list[MoveReport] = []
    cards = g.variant.cards
    from unokit.records.record import apply_line

    for n, command in enumerate(record.commands, 1):
        text = command.strip()
        if g.phase < _RO and g.current == seat and text.upper().startswith(f"P{seat} "):
            obs = g.observe(seat)
            try:
                played = _plain(parse_action(text, cards))
            except Exception:  # noqa: BLE001 - the replay below names the bad command
                played = None
            moves = _choices(obs)
            if played is not None and played in moves and len(moves) > 1:
                values = evaluate(obs, moves, samples, seed + n)
                best = max(range(len(moves)), key=lambda i: values[i])
                after = values[moves.index(played)]
                loss = values[best] - after
                label = next((name for cut, name in LABELS if loss >= cut), "")
                out.append(
                    MoveReport(
                        n,
                        g.round_no,
                        str(played),
                        values[best],
                        after,
                        str(moves[best]),
                        len(moves),
                        label,
                    )
                )
        apply_line(g, command, n)
    return out
