"""The observation's house-rule entries (RULES.md §6.7, §6.13, §6.16): the
seating, the teams and their scores, and where a pending draw goes.

They are made from public entries only (the options, the seating, the scores,
whose turn, the direction, the pending draw), so every seat sees them alike.
:mod:`unokit.engine.observation` adds them to ``to_dict``;
:mod:`unokit.engine.narration` adds :func:`house_lines` to ``to_text``.

>>> from unokit import Game
>>> g = Game.new("classic", 4, {"teams": "pairs"}, seed=1)
>>> d = g.observe(0).to_dict()
>>> d["seating"], d["teams"], d["team_scores"]
([0, 1, 2, 3], [[0, 2], [1, 3]], [0, 0])
>>> d["pending"] is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

__all__ = ["teams", "team_scores", "pending", "house_lines", "HOUSE_JSON", "HOUSE_SOURCES"]


if TYPE_CHECKING:
    from unokit.engine.observation import Observation, PublicView

    # what these are made from: an observation, or the public part of one
    _Public: TypeAlias = Observation | PublicView


def _order(o: _Public) -> tuple[int, ...]:
    return o.seating or tuple(range(o.players))


def _step(o: _Public, order: tuple[int, ...], at: int, way: int) -> int:
    """The seat after index ``at`` of ``order`` going ``way`` (1 or -1 times
    the direction of play), passing over players out of the match (mercy)."""
    n = len(order)
    i = (at + way) % n
    while order[i] in o.out and i != at:
        i = (i + way) % n
    return order[i]


def teams(o: _Public) -> list[list[int]]:
    """The teams (``teams=pairs``): partners sit opposite in the seating order
    (seats ``i`` and ``i + n/2`` unless the seats were shuffled; docs/rules.md
    §6.13, §6.16); ``[]`` without teams."""
    if o.options.teams != "pairs":
        return []
    order = _order(o)
    half = len(order) // 2
    return [sorted((order[i], order[i + half])) for i in range(half)]


def team_scores(o: _Public) -> list[int]:
    """Each team's total, in the order of :func:`teams` (the partners' two
    ``scores`` entries are equal); ``[]`` without teams."""
    return [o.scores[t[0]] for t in teams(o)]


def pending(o: _Public) -> dict[str, Any] | None:
    """The pending draw of stacking and deflect (§6.1, §6.7): its ``amount``,
    the ``victim`` who must answer it, the seat it passes ``to`` when stacked
    or deflected by a Skip (the next player), and the seat a Reverse deflects
    it ``back`` to (``None`` unless Reverse deflects); ``None`` when no draw
    is pending."""
    if o.pending_draw <= 0 or o.phase != "AWAIT_TURN":
        return None
    order = _order(o)
    at = order.index(o.current)
    back = None
    if o.options.deflect in ("reverse", "both"):
        back = _step(o, order, at, -o.direction)
    return {
        "amount": o.pending_draw,
        "victim": o.current,
        "to": _step(o, order, at, o.direction),
        "back": back,
    }


def house_lines(o: _Public, labels: Sequence[str]) -> list[str]:
    """The same facts in words, for ``to_text``: the seating when shuffled,
    the teams with their scores, where a pending draw goes."""
    lines = []
    if o.options.shuffleSeats:
        lines.append("Seating (clockwise): " + ", ".join(labels[s] for s in _order(o)) + ".")
    ts = teams(o)
    if ts:
        parts = [
            f"{' and '.join(labels[s] for s in t)} ({score} points)"
            for t, score in zip(ts, team_scores(o), strict=True)
        ]
        lines.append("Teams: " + "; ".join(parts) + ".")
    p = pending(o)
    if p is not None:
        line = (
            f"Pending draw: {p['amount']} cards for {labels[p['victim']]}; "
            f"stacked or skipped it passes to {labels[p['to']]}"
        )
        if p["back"] is not None:
            line += f", a Reverse sends it to {labels[p['back']]}"
        lines.append(line + ".")
    return lines


#: the entries added to ``Observation.to_dict``, and the fields each is made from
HOUSE_JSON: dict[str, Callable[[Any], Any]] = {
    "seating": lambda o: list(_order(o)),
    "teams": teams,
    "team_scores": team_scores,
    "pending": pending,
}
HOUSE_SOURCES: dict[str, tuple[str, ...]] = {
    "seating": ("seating", "players"),
    "teams": ("options", "seating", "players"),
    "team_scores": ("options", "seating", "players", "scores"),
    "pending": ("pending_draw", "phase", "current", "direction", "options", "seating", "players"),
}
