"""A game as readable text, for ``print(game)`` (like python-chess's board).

Every hand is shown: this is the referee's view, for the console, tests and
bug reports. A player's view is :meth:`unokit.Game.observe`.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=4)
>>> print(render(g))  # doctest: +NORMALIZE_WHITESPACE
UNO classic, 2 players, round 1, dealer P0
discard: R5 (colour R), draw pile 93 cards, clockwise
  P0   7 cards  R5 Y4 R2 R9 G6 Y5 Y6
> P1   7 cards  GS G5 Y2 R7 Y3 G9 W4
scores: P0 0, P1 0
P1 to play (AWAIT_TURN)
>>> print(g.state)
AWAIT_TURN
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = ["render"]

_UNO = ("", " UNO", " UNO!?")  # none, safe (called), vulnerable (not called)


def render(game: Game) -> str:
    """The whole position in a few lines: piles, every hand, scores, who acts."""
    cs = game.variant.cards.cards
    phase = game.state
    side = ""
    if game.variant.two_sided:
        side = f", {('light', 'dark')[game.side]} side"
    lines = [
        f"UNO {game.variant.name}, {game.n} players, round {game.round_no}, "
        f"dealer P{game.dealer}{side}"
    ]
    top = game.top
    colour = game.current_color
    pile = f"discard: {top if top is not None else '-'}"
    if colour is not None:
        pile += f" (colour {colour.name})"
    pile += f", draw pile {len(game.draw)} cards, "
    pile += "clockwise" if game.direction == 1 else "counter-clockwise"
    if game.pending:
        pile += f", {game.pending} to draw"
    lines.append(pile)
    acting = game.to_act
    for s, hand in enumerate(game.hands):
        mark = ">" if s == acting else " "
        cards = " ".join(str(cs[c]) for c in hand) or "-"
        count = f"{len(hand)} card{'s' if len(hand) != 1 else ''}"
        lines.append(f"{mark} P{s}  {count:>8}  {cards}{_UNO[game.uno[s]]}")
    lines.append("scores: " + ", ".join(f"P{s} {x}" for s, x in enumerate(game.scores)))
    if phase.name == "MATCH_OVER":
        winners = ", ".join(f"P{w}" for w in game.match_winners) or "nobody"
        lines.append(f"match over: {winners} won")
    elif phase.name == "ROUND_OVER":
        who = f"P{game.winner} won" if game.winner >= 0 else "blocked"
        lines.append(f"round over: {who}, {game.round_points} points")
    else:
        verb = {
            "AWAIT_TURN": "to play",
            "AWAIT_DRAWN": "to play or keep the drawn card",
            "AWAIT_COLOR": "to choose a colour",
            "AWAIT_CHALLENGE": "to accept or challenge",
            "DEAL": "first card not yet turned",
        }.get(phase.name, "to act")
        lines.append(f"P{game.current} {verb} ({phase.name})")
    return "\n".join(lines)
