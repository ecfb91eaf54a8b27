"""The words of refusals: one table from the C core's reason codes to text.

The C core decides every command and, when it refuses one, says why with a
reason code (``UK_ERR_*`` of ``_core/core.h``, named by
:data:`unokit.engine.codes.ERRORS`). This module is the only place that words
those reasons: :data:`WORDS` maps each code to a template, and
:func:`refusal` fills it in from the position the command was refused in (it
describes the position; it never judges the command again). The reference
engine (:mod:`unokit.testing.reference`) decides on its own and words its
reasons here too, so the differential fuzzer compares reasons, not prose.

>>> from unokit import Game
>>> g = Game.setup("classic", 2, hands=[["R5", "G7"], ["Y2"]], discard=["R1"], current=0)
>>> try:
...     g.apply("P0 PLAY G7")
... except Exception as e:
...     print(codes.ERRORS[e.reason], "-", e)
NO_MATCH - P0 cannot play G7 on R1: colour R, number 1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from unokit.engine import codes
from unokit.engine.cards import Color
from unokit.engine.errors import IllegalActionError

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = ["WORDS", "COMMANDS", "refusal", "reason_name"]

#: the commands a reason may be worded for (``command`` of :func:`refusal`),
#: with the verb of "P1 cannot <verb> now"
COMMANDS = {
    "play": "play",
    "draw": "draw",
    "pass": "pass",
    "color": "choose a colour",
    "accept": "accept",
    "challenge": "challenge",
    "uno": "call UNO",
    "catch": "catch",
    "next": "deal the next round",
    "start": "turn the first card",
}

E = codes
#: reason code -> template (or templates by command, ``""``: any other command).
#: Fields: ``p`` the seat ("P1"), ``cur`` the seat to act, ``waiting`` what the
#: game waits for, ``what`` the command's verb, ``card``/``cards`` the card(s)
#: played, ``cid``, ``drawn``, ``top``, ``top_face``, ``flex_note``,
#: ``colour`` (the colour in force), ``number_note``, ``pending``, ``n``,
#: ``variant``, ``side``, ``colours`` (the side's), ``declared``, ``target``,
#: ``swap``, ``flip``, ``move``, ``match_note``
WORDS: Mapping[int, str | Mapping[str, str]] = {
    E.ERR_SEAT: "{p} is not a seat of this {n}-player game",
    E.ERR_PHASE: {
        "next": "the next round can only be dealt when a round is over{match_note}",
        "start": "the first card has already been turned",
        "": "{p} cannot {what} now: {waiting}",
    },
    E.ERR_NOT_YOUR_TURN: "it is {cur}'s decision, not {p}'s ({waiting})",
    E.ERR_CARD: "card id {cid} is not a {variant} card",
    E.ERR_NOT_HELD: "{p} does not hold {cards}",
    E.ERR_FORM: (
        "a play of several cards takes two number cards or more, and no colour, flex side, "
        "target or flipcolor"
    ),
    E.ERR_NO_MATCH: "{p} cannot play {card}{flex_note} on {top_face}: colour {colour}{number_note}",
    E.ERR_NO_BLUFF: "{p} holds a card of colour {colour}: {card} may not be played (noBluff)",
    E.ERR_STACK: "{p} must stack a draw card or DRAW {pending} ({card} cannot be stacked)",
    E.ERR_FORCED: "{p} holds a playable card and must play it (forcedPlay)",
    E.ERR_MOVE: "not a move code: {move}",
    E.ERR_EMPTY: "the draw pile is empty: no first card to turn",
    E.ERR_FINISH: "{card} may not be {p}'s last card (finishRestriction)",
    E.ERR_MUST_PLAY_DRAWN: "{p} must play the drawn {drawn} (mustPlayDrawn)",
    E.ERR_OUT: "{p} is out of the match (mercy)",
    E.ERR_MULTI: (
        "several cards in one play: only number cards of one number, on one's own turn, "
        "with multiPlay"
    ),
    E.ERR_ROUND_OVER: "the round is over",
    E.ERR_MATCH_OVER: "the match is over",
    E.ERR_NOT_STARTED: "the round has not started: the first card is not turned yet",
    E.ERR_NOT_IN_ROUND: {
        "catch": "catches are possible only during a round",
        "": "UNO can be called only during a round",
    },
    E.ERR_JUMP_NOW: "{p} cannot jump in now: {waiting}",
    E.ERR_JUMP_CARD: (
        "{p} cannot jump in with {card}: it is {cur}'s turn and only a card identical to "
        "{top} may jump in"
    ),
    E.ERR_ONLY_DRAWN: "{p} may only play the card just drawn ({drawn}) or pass",
    E.ERR_NO_FLEX: "{card} has no flex side: flex sides exist only in UNO Flex",
    E.ERR_NO_FLEX_SIDE: "{card} has no flex side",
    E.ERR_POWER_RED: "{p}'s Power Card is red: no flex play until it turns green",
    E.ERR_STACK_SAME: "only the same draw card may be stacked here, not {card}",
    E.ERR_STACK_LESS: (
        "{card} draws fewer than the stacked card: only an equal or larger draw may be stacked"
    ),
    E.ERR_NEED_COLOR: "{card} is a wild: declare a colour (color=...)",
    E.ERR_BAD_COLOR: {
        "color": "{declared} is not a colour of the {side} side: choose one of {colours}",
        "": "colour {declared} is not a colour of the {side} side ({colours})",
    },
    E.ERR_NOT_WILD: "{card} is not a wild: no colour to declare",
    E.ERR_NEED_TARGET: "{card} on its flex side needs a target (target=P...)",
    E.ERR_BAD_TARGET: "target P{target} is not a seat",
    E.ERR_TARGET_SELF: "{p} cannot target themselves",
    E.ERR_TARGET_OUT: "target P{target} is out of the match (mercy)",
    E.ERR_NO_TARGET: "{card}{flex_note} takes no target",
    E.ERR_NEED_SWAP: "a 7 swaps hands under the 7-0 rule: choose a player (swap=P...)",
    E.ERR_BAD_SWAP: "{p} cannot swap hands with P{swap}",
    E.ERR_NO_SWAP: "{card} swaps no hands",
    E.ERR_NOT_FLIP: "{card} is not a Flip card: flipcolor does not apply",
    E.ERR_FLIP_COLOR: "flipcolor {flip} is not a colour of the other side",
    E.ERR_NOT_DRAWN: "{p} may pass only after drawing a playable card: play or draw",
    E.ERR_FORCED_DRAWN: "{p} must play the drawn {drawn} (forcedPlay)",
    E.ERR_NO_CHALLENGE: "the stacked card is not a restricted wild draw: it cannot be challenged",
    E.ERR_CATCH_SELF: "{p} cannot catch themselves",
}


def reason_name(reason: int) -> str:
    """The name of a reason code (``"NO_MATCH"``), or ``"code N"`` for an unknown one."""
    if 0 <= reason < len(codes.ERRORS):
        return codes.ERRORS[reason]
    return f"code {reason}"


def _colour(c: int) -> str:
    return Color(c).name if 0 <= c < 8 else str(c)


class _Facts(dict[str, object]):
    """The fields of :data:`WORDS`, each read from the position when a
    template asks for it (``str.format_map``)."""

    def __init__(
        self, game: Game, seat: int, command: str, cids: Sequence[int], args: dict[str, int]
    ) -> None:
        super().__init__()
        self.game, self.seat, self.command, self.cids, self.args = game, seat, command, cids, args

    def __missing__(self, key: str) -> object:
        value = self._fact(key)
        self[key] = value
        return value

    def _card(self, cid: int) -> str:
        cards = self.game.variant.cards.cards
        return str(cards[cid]) if 0 <= cid < len(cards) else f"card id {cid}"

    def _fact(self, key: str) -> object:  # noqa: C901 - one branch per field
        g, a = self.game, self.args
        if key == "p":
            return f"P{self.seat}"
        if key == "cur":
            return f"P{g.current}"
        if key == "what":
            return COMMANDS.get(self.command, self.command)
        if key == "waiting":
            return waiting_for(g)
        if key == "card":
            return self._card(self.cids[0]) if self.cids else "that card"
        if key == "cards":
            return "+".join(self._card(c) for c in self.cids) if self.cids else "that card"
        if key == "cid":
            bad = [c for c in self.cids if not 0 <= c < len(g.variant.cards.cards)]
            return (bad or list(self.cids) or [-1])[0]
        if key == "drawn":
            return self._card(g.drawn)
        if key == "top":
            return self._card(g.discard[-1]) if g.discard else "no card"
        if key == "top_face":
            return g.discard_pile[-1].face(g.side) if g.discard else "no card"
        if key == "flex_note":
            return " (flex side)" if a.get("flex") else ""
        if key == "colour":
            return _colour(g.color)
        if key == "number_note":
            num = g.variant.number[g.side][g.discard[-1]] if g.discard else -1
            return f", number {num}" if num >= 0 else ""
        if key == "pending":
            return g.pending
        if key == "n":
            return g.n
        if key == "variant":
            return g.variant.name
        if key == "side":
            return ("light", "dark")[g.side]
        if key == "colours":
            return " ".join(c.name for c in g.variant.colors(g.side))
        if key == "declared":
            return _colour(a.get("color", -1))
        if key == "flip":
            return _colour(a.get("flip_color", -1))
        if key in ("target", "swap", "move"):
            return a.get(key, -1)
        if key == "match_note":
            return " (the match is over)" if g.phase == codes.MATCH_OVER else ""
        raise KeyError(key)


def waiting_for(game: Game) -> str:
    """What ``game`` waits for, in words ("waiting for P1 to play or draw")."""
    ph, p = game.phase, game.current
    if ph == codes.TURN:
        if game.pending:
            return f"P{p} must stack a draw card or DRAW {game.pending}"
        return f"waiting for P{p} to play or draw"
    if ph == codes.DRAWN:
        return f"waiting for P{p} to play the drawn {game.cards[game.drawn]} or pass"
    if ph == codes.COLOR:
        return f"waiting for P{p} to choose a colour"
    if ph == codes.CHALLENGE:
        return f"waiting for P{p} to accept or challenge"
    if ph == codes.DEAL:
        return "the first card is not turned yet"
    return "the round is over"


def words(
    game: Game, reason: int, command: str, seat: int = -1, *, cids: Sequence[int] = (),
    **args: int,
) -> str:  # fmt: skip
    """The text of refusal ``reason`` of ``command`` by ``seat`` in ``game``'s
    position (the one the command was refused in). ``cids``: the card(s)
    played; ``args``: ``color``, ``flex``, ``target``, ``swap``, ``flip_color``,
    ``move`` as the command gave them."""
    entry = WORDS.get(reason)
    if entry is None:
        return f"refused ({reason_name(reason)})"
    if not isinstance(entry, str):
        entry = entry.get(command, entry[""])
    return entry.format_map(_Facts(game, seat, command, cids, args))


def refusal(
    game: Game, reason: int, command: str, seat: int = -1, *, cids: Sequence[int] = (),
    **args: int,
) -> IllegalActionError:  # fmt: skip
    """The :class:`~unokit.engine.errors.IllegalActionError` of refusal
    ``reason`` (its ``reason`` attribute), worded by :func:`words`."""
    return IllegalActionError(words(game, reason, command, seat, cids=cids, **args), reason=reason)
