"""Plain words for the terminal: card names, events, observations and commands.

Everything here is pure text (no Textual, no colour codes), shared by the
Textual app's log, the plain mode and the replay viewer.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=3)
>>> n = Narrator(["Ann", "Ada"], viewer=0)
>>> [n.line(e) for e in g.observe(0).history][:2]
['Round 1: You deal 7 cards to each player.', 'First card: Blue 9.']
>>> read_command("play g9", g.observe(0))
Play(seat=0, card=Card('G9'), color=None, flex=False, target=None, swap=None, uno=False, flip_color=None)
>>> print(read_command("play w4 color=g", g.observe(0)))
you do not hold w4; your hand: Y8 G9 R9 B1 G7 R4 BD2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from unokit.engine import events as ev
from unokit.engine.actions import Action, Catch, ChooseColor, Draw, Play, parse_action
from unokit.engine.cards import FLIP, Card, Color, Face, Kind, parse_color
from unokit.engine.errors import ParseError, UnoError
from unokit.engine.house_view import house_lines
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

if TYPE_CHECKING:  # observation imports this module (Observation.to_text)
    from unokit.engine.observation import Observation

__all__ = [
    "COLOR_SYMBOL",
    "VARIANT_TITLE",
    "Narrator",
    "Meta",
    "read_command",
    "face_text",
    "card_text",
    "describe",
    "points",
    "legal_summary",
    "status_line",
    "seat_label",
    "FLEX_SIDE_EFFECT",
    "previous_color",
    "observation_text",
    "move_commands",
    "move_meaning",
    "match_goal",
    "TEXT_HISTORY",
]

#: Colour-blind symbols, the same as the web cards (cards.js).
COLOR_SYMBOL: dict[Color, str] = {
    Color.R: "▲",
    Color.Y: "✱",
    Color.G: "❦",
    Color.B: "●",
    Color.Pk: "♥",
    Color.Tl: "≈",
    Color.Or: "■",
    Color.Pu: "☾",
}

VARIANT_TITLE = {"classic": "UNO", "flip": "UNO Flip", "flex": "UNO Flex"}

#: What a Flex card does on its flex side (docs/rules.md §4.5), in plain words.
FLEX_SIDE_EFFECT: dict[Kind, str] = {
    Kind.NUMBER: "matches its flex colour",
    Kind.FLEX_SKIP: "Skip All: everyone else is skipped",
    Kind.FLEX_REVERSE: "Reverse then Skip",
    Kind.FLEX_DRAW_TWO: "everyone else draws 1",
    Kind.WILD_ALL_DRAW: "everyone else draws 2",
    Kind.WILD_TARGET_DRAW: "a chosen player draws 2",
    Kind.FLEX_WILD_DRAW_FOUR: "a chosen player draws 4, no challenge",
}

_DRAW_REASON = {
    "draw": "",
    "penalty": " (penalty)",
    "challenge": " (challenge)",
    "catch": " for not calling UNO",
    "stack": " (stacked penalty)",
    "misplay": " (misplay penalty)",
    "false_catch": " (false catch penalty)",
}


def face_text(face: Face) -> str:
    """A face's notation, e.g. ``R5``, ``PkSE``, ``W4``."""
    return str(face)


def card_text(card: Card, side: int) -> str:
    """The notation of the face a player sees (Flip: the active face only)."""
    return str(card.face(side))


def seat_label(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"P{seat}"


def _cards_words(cards: Iterable[Card], side: int) -> str:
    names = [c.face(side).long_name for c in cards]
    if not names:
        return "nothing"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


class Narrator:
    """Turns events into sentences for one viewer (``None``: a spectator).

    It follows the round's side (Flip) from the events it reads, so feed it
    every event of a round in order, starting with :class:`RoundStarted`."""

    def __init__(self, names: Sequence[str], viewer: int | None, side: int = 0) -> None:
        self.names = list(names)
        self.viewer = viewer
        self.side = side
        self._last_played: Card | None = None
        self._powers: tuple[bool, ...] = ()

    def who(self, seat: int) -> str:
        return "You" if seat == self.viewer else seat_label(seat, self.names)

    def _whom(self, seat: int) -> str:
        return "you" if seat == self.viewer else seat_label(seat, self.names)

    def _is_you(self, seat: int) -> bool:
        """The viewer, or a seat named "You" (a terminal game's record, replayed)."""
        return seat == self.viewer or seat_label(seat, self.names) == "You"

    def _was(self, seat: int) -> str:
        return "were" if self._is_you(seat) else "was"

    def lines(self, events: Iterable[ev.Event]) -> list[str]:
        out = []
        for e in events:
            text = self.line(e)
            if text:
                out.append(text)
        return out

    def line(self, e: ev.Event) -> str | None:  # noqa: C901 - one case per event type
        side = self.side
        if isinstance(e, ev.RoundStarted):
            self.side = 0
            self._last_played = None
            self._powers = ()
            size = e.hand_sizes[0] if e.hand_sizes else 0
            return (
                f"Round {e.round}: {self.who(e.dealer)} {'deal' if self._is_you(e.dealer) else 'deals'} "
                f"{size} cards to each player."
            )
        if isinstance(e, ev.CardTurned):
            name = e.card.face(0).long_name
            if e.reason == "ignored":
                return f"First card {name} is ignored; the next card is turned on top."
            if e.reason == "returned":
                return f"First card {name} goes back into the deck; another is turned."
            return f"First card: {name}."
        if isinstance(e, ev.Played):
            self._last_played = e.card
            face = e.card.face(side)
            text = (
                f"{self.who(e.seat)} {'jumped in with' if e.jump_in else 'played'} {face.long_name}"
            )
            if e.flex:
                text += " on its flex side"
                if face.kind is not Kind.NUMBER:
                    text += f" ({FLEX_SIDE_EFFECT.get(face.kind, 'flex')})"
            elif face.kind in (Kind.WILD_ALL_DRAW, Kind.WILD_TARGET_DRAW):
                # its regular side is a plain Wild: say why nobody draws
                text += " on its regular side, as a plain Wild (nobody draws)"
            if e.target is not None:
                text += f", targeting {self._whom(e.target)}"
            if e.color is not None:
                text += f" and chose {e.color.long_name}"
            return text + "."
        if isinstance(e, ev.Drew):
            who = self.who(e.seat)
            if e.count == 0:
                return f"{who} could not draw: no cards left."
            reason = _DRAW_REASON.get(e.reason, f" ({e.reason})")
            if e.cards is not None:
                what = _cards_words(e.cards, side)
            else:
                what = "a card" if e.count == 1 else f"{e.count} cards"
                if e.backs:
                    what += f" (backs: {' '.join(str(f) for f in e.backs)})"
            return f"{who} drew {what}{reason}."
        if isinstance(e, ev.Passed):
            return f"{self.who(e.seat)} kept the drawn card."
        if isinstance(e, ev.ColorChosen):
            return f"{self.who(e.seat)} chose {e.color.long_name}."
        if isinstance(e, ev.Accepted):
            return f"{self.who(e.seat)} accepted the penalty."
        if isinstance(e, ev.Challenged):
            card = self._last_played.face(side).long_name if self._last_played else "card"
            off = self._whom(e.offender)
            whose = "your" if self._is_you(e.offender) else f"{off}'s"
            if e.success:
                text = (
                    f"{self.who(e.seat)} challenged {whose} {card}: it was an illegal play, "
                    f"{off} draw{'' if self._is_you(e.offender) else 's'} instead."
                )
            else:
                text = (
                    f"{self.who(e.seat)} challenged {whose} {card}: it was legal, "
                    f"{self._whom(e.seat)} draw{'' if self._is_you(e.seat) else 's'} more."
                )
            if e.revealed is not None:
                shown = " ".join(c.face(side).__str__() for c in e.revealed) or "no cards"
                text += f" {seat_label(e.offender, self.names)}'s hand: {shown}."
            return text
        if isinstance(e, ev.UnoCalled):
            return f"{self.who(e.seat)} called UNO!"
        if isinstance(e, ev.Caught):
            if e.success:
                return f"{self.who(e.seat)} caught {self._whom(e.target)} without UNO!"
            return f"{self.who(e.seat)} tried to catch {self._whom(e.target)}: no effect."
        if isinstance(e, ev.Skipped):
            return f"{self.who(e.seat)} {self._was(e.seat)} skipped."
        if isinstance(e, ev.Reversed):
            way = "clockwise" if e.direction == 1 else "counter-clockwise"
            return f"Direction reversed: play goes {way}."
        if isinstance(e, ev.Flipped):
            self.side = e.side
            which = "dark" if e.side else "light"
            return (
                f"Everything flips to the {which} side! Top card: {e.top.face(e.side).long_name}."
            )
        if isinstance(e, ev.Reshuffled):
            return f"The discard pile was shuffled into a new draw pile ({e.count} cards)."
        if isinstance(e, ev.PowersChanged):
            before = self._powers or (True,) * len(e.powers)
            self._powers = e.powers
            changed = [s for s, p in enumerate(e.powers) if s >= len(before) or p != before[s]]
            if not changed:
                return None
            if all(e.powers) and len(changed) > 1:
                return "Every Power Card is green ✓ again."
            parts = []
            for s in changed:
                whose = "Your" if s == self.viewer else f"{seat_label(s, self.names)}'s"
                parts.append(f"{whose} Power Card turned {'green ✓' if e.powers[s] else 'red ✗'}")
            return "; ".join(parts) + "."
        if isinstance(e, ev.HandsSwapped):
            parts = [
                f"{self.who(s)} took {'your' if src == self.viewer else seat_label(src, self.names) + chr(39) + 's'} hand"
                for s, src in zip(e.seats, e.sources, strict=False)
            ]
            return "Hands swapped: " + "; ".join(parts) + "."
        if isinstance(e, ev.Misplayed):
            return f"{self.who(e.seat)} tried to play {e.card.face(side).long_name}: misplay."
        if isinstance(e, ev.RoundEnded):
            if e.winner is None:
                return "The round is blocked: nobody can draw or play. No points."
            w = self.who(e.winner)
            verb = "win" if self._is_you(e.winner) else "wins"
            if e.points:
                return f"{w} {verb} the round and score{'' if self._is_you(e.winner) else 's'} {points(e.points)}."
            return f"{w} {verb} the round."
        if isinstance(e, ev.MatchEnded):
            ws = [self.who(s) for s in e.winners]
            verb = "win" if len(ws) > 1 or self._is_you(e.winners[0]) else "wins"
            best = max(e.scores) if e.scores else 0
            return f"{' and '.join(ws)} {verb} the match ({points(best)})!"
        if isinstance(e, ev.Eliminated):
            are = "are" if self._is_you(e.seat) else "is"
            return f"{self.who(e.seat)} {are} out of the match: {e.count} cards (mercy)."
        return None


# --------------------------------------------------------------------- commands


@dataclass(frozen=True)
class Meta:
    """A plain-mode command that is not a game action: help, quit, show, next, scores."""

    name: str


_META = {
    "help": "help",
    "h": "help",
    "?": "help",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "show": "show",
    "look": "show",
    "hand": "show",
    "next": "next",
    "scores": "scores",
    "score": "scores",
}

_VERBS = "play, draw, pass, uno, catch, challenge, accept, color, help, quit"


def read_command(
    text: str, obs: Observation, names: Sequence[str] = ()
) -> Action | Meta | UnoError:
    """Read one plain-mode command for the seat of ``obs``.

    The notation is the one of docs/scenario-format.md without the seat prefix
    (``play R5``, ``play W4 color=G``, ``draw``, ``catch P2``...). A Flip card
    may be written by its active face (``play R5``). Returns the action, a
    :class:`Meta` command, or the error that says what is wrong (nothing is
    raised)."""
    seat = obs.seat
    words = text.split()
    if not words:
        return ParseError(f"empty command: type one of {_VERBS}")
    verb = words[0].lower()
    if verb in _META and len(words) == 1:
        return Meta(_META[verb])
    if seat is None:
        return ParseError("a spectator cannot act")
    p = f"P{seat}"
    cards = get_variant(obs.variant).cards
    try:
        if verb == "play":
            if len(words) < 2:
                return ParseError("play needs a card, e.g. 'play R5' or 'play W color=G'")
            # multiPlay: 'play R5+B5' plays several cards of one number
            card_words = [str(_hand_card(w, obs)) for w in words[1].split("+")]
            extra = []
            for w in words[2:]:
                low = w.lower()
                if low == "uno":
                    extra.append("uno=true")
                elif low == "flex":
                    extra.append("side=flex")
                elif "=" not in w:
                    extra.append(f"color={parse_color(w).name}")
                else:
                    key, _, value = w.partition("=")
                    if key.lower() in ("target", "swap"):
                        value = f"P{_seat_of(value, obs, names)}"
                    extra.append(f"{key}={value}")
            return parse_action(" ".join([p, "PLAY", "+".join(card_words), *extra]), cards)
        if verb == "catch":
            if len(words) == 1:
                vulnerable = [s for s, u in enumerate(obs.uno) if u == "vulnerable" and s != seat]
                if len(vulnerable) != 1:
                    return ParseError("nobody can be caught now (catch P<n> names a player)")
                return Catch(seat, vulnerable[0])
            if len(words) != 2:
                return ParseError("catch takes one player, e.g. 'catch P2'")
            return Catch(seat, _seat_of(words[1], obs, names))
        if verb in ("color", "colour"):
            if len(words) != 2:
                return ParseError("color takes one colour, e.g. 'color G'")
            return ChooseColor(seat, parse_color(words[1]))
        if verb in ("draw", "pass", "keep", "uno", "challenge", "accept"):
            if len(words) != 1:
                return ParseError(f"{verb} takes no arguments")
            return parse_action(f"{p} {'pass' if verb == 'keep' else verb}", cards)
    except UnoError as e:
        return e
    return ParseError(f"unknown command {words[0]!r}: type one of {_VERBS}")


def _seat_of(text: str, obs: Observation, names: Sequence[str]) -> int:
    t = text.strip()
    if len(t) >= 2 and t[0] in "Pp" and t[1:].isdigit():
        s = int(t[1:])
        if 0 <= s < obs.players:
            return s
        raise ParseError(f"there is no player {t} (players are P0-P{obs.players - 1})")
    for s, name in enumerate(names):
        if name.lower() == t.lower():
            return s
    raise ParseError(f"unknown player {text!r}: write P0-P{obs.players - 1} or a name")


def _hand_card(text: str, obs: Observation) -> Card:
    """The card of the hand written ``text`` (a Flip card by its active face)."""
    t = text.strip()
    cards = get_variant(obs.variant).cards
    side = obs.side
    if cards is FLIP and "|" not in t:
        low = t.lower()
        for c in obs.hand:
            if str(c.face(side)).lower() == low:
                return c
        cards.parse_face(t)  # raises a ParseError for text that is no face at all
    else:
        card = cards.parse(t)
        if card in obs.hand:
            return card
    held = " ".join(card_text(c, side) for c in obs.hand)
    raise ParseError(f"you do not hold {t}; your hand: {held}")


# ------------------------------------------------------------------- descriptions


def previous_color(obs: Observation) -> Color | None:
    """The colour in force before the top card was played (what a challenge of
    a restricted wild draw is about), read from the round's history."""
    colors: list[Color | None] = []
    side = 0
    for e in obs.history:
        if isinstance(e, ev.CardTurned) and e.reason == "start":
            colors.append(e.card.face(0).color)
        elif isinstance(e, ev.Played):
            colors.append(e.color if e.color is not None else e.card.face(side).color)
        elif isinstance(e, ev.ColorChosen):
            colors.append(e.color)
        elif isinstance(e, ev.Flipped):
            side = e.side
            colors.append(e.top.face(side).color)
    return colors[-2] if len(colors) >= 2 else None


def points(n: int) -> str:
    """``1 point``, ``0 points``, ``25 points``."""
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def legal_summary(obs: Observation) -> list[str]:
    """The seat's possible commands, grouped, in plain-mode notation."""
    side = obs.side
    plays: dict[tuple[tuple[Card, ...], bool], list[Play]] = {}
    others: list[str] = []
    for a in obs.legal:
        if isinstance(a, Play):
            plays.setdefault(((a.card, *a.more), a.flex), []).append(a)
        elif isinstance(a, Draw):
            others.append(f"draw {obs.pending_draw}" if obs.pending_draw else "draw")
        elif (word := _command_word(a)) is not None:
            others.append(word)
    out = []
    for (shown, flex), group in plays.items():
        text = "play " + "+".join(card_text(c, side) for c in shown) + (" flex" if flex else "")
        colors = sorted({a.color for a in group if a.color is not None})
        targets = sorted({a.target for a in group if a.target is not None})
        swaps = sorted({a.swap for a in group if a.swap is not None})
        # one typeable command, then the other values it takes
        for key, values in (
            ("color", [c.name for c in colors]),
            ("target", [f"P{t}" for t in targets]),
            ("swap", [f"P{t}" for t in swaps]),
        ):
            if values:
                text += f" {key}={values[0]}"
                if len(values) > 1:
                    text += f" (or {key}={', '.join(values[1:])})"
        out.append(text)
    return out + others


def status_line(obs: Observation, names: Sequence[str]) -> str:
    """One sentence: what the game waits for."""
    cur = obs.current
    who = seat_label(cur, names)
    mine = obs.seat == cur
    if obs.phase == "MATCH_OVER":
        return "The match is over."
    if obs.phase == "ROUND_OVER":
        return "The round is over."
    if obs.phase == "AWAIT_COLOR":
        return "Choose a colour." if mine else f"{who} is choosing a colour."
    if obs.phase == "AWAIT_CHALLENGE":
        off = (
            seat_label(obs.challenge_offender, names) if obs.challenge_offender is not None else "?"
        )
        if mine:
            return f"{off} played a restricted wild draw on you: challenge or accept?"
        return f"{who} decides whether to challenge {off}."
    if obs.phase == "AWAIT_DRAWN":
        if mine and obs.drawn is not None:
            return f"You drew {obs.drawn.face(obs.side).long_name}: play it or pass."
        return f"{who} decides whether to play the card just drawn."
    if obs.pending_draw:
        if mine:
            return f"Stack a draw card or draw {obs.pending_draw}."
        return f"{who} must stack a draw card or draw {obs.pending_draw}."
    return "Your turn." if mine else f"{who}'s turn."


def match_goal(options: Options, *, short: bool = False) -> str:
    """What wins the match, in words (``short``: for a title bar).

    >>> match_goal(Options(targetScore=250)), match_goal(Options(targetScore=250), short=True)
    ('first to 250 points', 'first to 250')
    """
    n = options.targetScore
    if options.matchMode == "single_round":
        return "one round" if short else "single round"
    if options.scoringMode == "highest":
        return f"first to {n}" if short else f"first to {n} points"
    return f"lowest at {n}" if short else f"lowest score when someone reaches {n}"


def describe(
    obs: Observation,
    names: Sequence[str],
    bots: Sequence[bool] = (),
    *,
    hand: bool = True,
) -> list[str]:
    """The observation as plain text lines (no symbols, for screen readers)."""
    side = obs.side
    title = VARIANT_TITLE.get(obs.variant, obs.variant)
    lines = [f"{title}, round {obs.round}, {match_goal(obs.options)}."]
    top = "none" if obs.top is None else obs.top.face(side).long_name
    color = "none" if obs.color is None else obs.color.long_name
    way = "clockwise" if obs.direction == 1 else "counter-clockwise"
    table = f"Top card: {top}. Colour: {color}. Play goes {way}. Draw pile: {obs.draw_size} cards"
    if obs.variant == "flip":
        table = f"{'Dark' if side else 'Light'} side. " + table
        if obs.draw_top_back is not None:
            table += f", its top shows {obs.draw_top_back.long_name}"
    lines.append(table + ".")
    if obs.pending_draw:
        lines.append(f"Stacked penalty: {obs.pending_draw} cards.")
    for s in range(obs.players):
        name = seat_label(s, names)
        tags = []
        if s == obs.seat and name != "You":
            tags.append("you")
        if s < len(bots) and bots[s]:
            tags.append("bot")
        if s == obs.dealer:
            tags.append("dealer")
        label = f"{name} (P{s}{', ' + ', '.join(tags) if tags else ''})"
        size = obs.hand_sizes[s]
        text = f"{label}: {size} card{'' if size == 1 else 's'}, {obs.scores[s]} points"
        if obs.uno[s] == "safe":
            text += ", UNO called"
        elif obs.uno[s] == "vulnerable":
            text += ", did not call UNO (catch!)"
        if obs.powers:
            text += ", Power Card " + ("green" if obs.powers[s] else "red")
        if obs.backs and obs.backs[s]:
            text += ", backs: " + " ".join(str(f) for f in obs.backs[s])
        if s == obs.current and obs.phase not in ("ROUND_OVER", "MATCH_OVER"):
            text += ", to act"
        lines.append(text + ".")
    if obs.revealed is not None:
        off, cards = obs.revealed
        shown = " ".join(card_text(c, side) for c in cards) or "no cards"
        lines.append(f"{seat_label(off, names)}'s hand was shown to you: {shown}.")
    if hand and obs.seat is not None:
        held = " ".join(card_text(c, side) for c in obs.hand) or "no cards"
        lines.append(f"Your hand ({len(obs.hand)}): {held}.")
    return lines


# ------------------------------------------------------------------ the text API

#: How many of the round's latest events :func:`observation_text` narrates.
TEXT_HISTORY = 12

#: What the summary of the earlier events counts, by event type.
_SUMMARY = (
    (ev.Played, "card played", "cards played"),
    (ev.Drew, "draw", "draws"),
    (ev.Skipped, "skip", "skips"),
    (ev.Reversed, "reverse", "reverses"),
    (ev.Flipped, "flip", "flips"),
    (ev.Challenged, "challenge", "challenges"),
    (ev.Caught, "catch", "catches"),
    (ev.Reshuffled, "reshuffle", "reshuffles"),
)


def move_commands(obs: Observation) -> list[str]:
    """Every legal action of ``obs`` as one plain-mode command (``play R5``,
    ``play W4 color=G``, ``play R5 uno``, ``draw``, ``catch P1``...), in the
    order of ``obs.legal``; :func:`read_command` reads each back to its
    action. Unlike :func:`legal_summary`, nothing is grouped. A Flip card is
    written by the face up, or whole (``Y6|OrSE``) when another card of the
    hand shows the same face."""
    side = obs.side
    # Flip: two different cards of the hand may show the same face; they are
    # then written whole (light|dark)
    faces: dict[str, set[Card]] = {}
    for c in obs.hand:
        faces.setdefault(card_text(c, side), set()).add(c)
    out = []
    for a in obs.legal:
        if isinstance(a, Play):
            shown = []
            for c in (a.card, *a.more):  # multiPlay: 'play R5+B5'
                face = card_text(c, side)
                shown.append(face if len(faces.get(face, ())) <= 1 else str(c))
            # the notation's keywords, but 'flex' first and 'uno' last, bare
            given = [f"{k}={v}" for k, v in a.keywords().items() if k not in ("side", "uno")]
            flex, uno = ["flex"] if a.flex else [], ["uno"] if a.uno else []
            out.append(" ".join(["play", "+".join(shown), *flex, *given, *uno]))
        else:
            out.append(_command_word(a) or str(a))
    return out


def observation_text(
    obs: Observation,
    names: Sequence[str] | None = None,
    bots: Sequence[bool] = (),
    *,
    history: int = TEXT_HISTORY,
    moves: bool = False,
    status: bool = True,
) -> str:
    """:meth:`Observation.to_text`: the seat's view in plain words and the
    project's notation (docs/arena.md, "Text observations").

    In order: the table and every seat (:func:`describe`), the round's last
    ``history`` events in words preceded by one line counting the earlier
    ones, what the game waits for (:func:`status_line`; not with ``status``
    false) and, with ``moves``, the legal moves as commands
    (:func:`move_commands`). ``names`` label the seats (default ``Player
    0``, ``Player 1``...), ``bots`` marks the seats played by bots. Its length does not
    grow with the round: at most ``history`` event lines, one summary line,
    one line per seat and the hands, all bounded by the deck."""
    if history < 0:
        raise ValueError(f"history must be >= 0, not {history}")
    labels = list(names) if names is not None else [f"Player {s}" for s in range(obs.players)]
    if len(labels) != obs.players:
        raise ValueError(f"{len(labels)} names for {obs.players} players")
    lines = describe(obs, labels, bots)
    lines += house_lines(obs, labels)  # seating, teams, pending draw (house rules)
    if history and obs.history:
        narrator = Narrator(labels, obs.seat)
        said = [(e, narrator.line(e)) for e in obs.history]  # in order: it follows the side
        told = [(e, t) for e, t in said if t]
        earlier, recent = told[:-history], told[-history:]
        if earlier:
            counts = []
            for kind, one, many in _SUMMARY:
                k = sum(isinstance(e, kind) for e, _ in earlier)
                if k:
                    counts.append(f"{k} {one if k == 1 else many}")
            lines.append(
                f"Earlier this round: {len(earlier)} events"
                + (f" ({', '.join(counts)})" if counts else "")
                + "."
            )
        lines.append("Latest events:" if earlier else "This round so far:")
        lines += [f"- {t}" for _, t in recent]
    if status:
        lines.append(status_line(obs, labels))
    if moves and obs.legal:
        lines.append("Legal moves: " + "; ".join(move_commands(obs)) + ".")
    return "\n".join(lines)


def _command_word(a: Action) -> str | None:
    """The typed words of a command that is not a PLAY (``draw``, ``pass``,
    ``color R``, ``accept``, ``challenge``, ``uno``, ``catch P2``): its
    notation without the seat, the verb in lower case."""
    words = str(a).split()
    if isinstance(a, Play) or len(words) < 2:  # NEXT has no seat
        return None
    _, verb, *rest = words
    return " ".join([verb.lower(), *rest])


def move_meaning(action: Action, obs: Observation) -> str:
    """What a move does, in a few words (for a reader who does not know the notation).

    >>> from unokit import Game
    >>> g = Game.new("classic", 2, seed=3)
    >>> [move_meaning(a, g.observe(1)) for a in g.observe(1).legal][:2]
    ['play Blue Reverse', 'play Wild Draw Four and name Red']
    """
    if isinstance(action, Play):
        text = "play " + action.card.face(obs.side).long_name
        for i, c in enumerate(action.more):  # multiPlay: several cards at once
            text += (" and " if i == len(action.more) - 1 else ", ") + c.face(obs.side).long_name
        if action.flex:
            text += " on its flex side"
        if action.color is not None:
            text += f" and name {action.color.long_name}"
        if action.target is not None:
            text += f", aimed at P{action.target}"
        if action.swap is not None:
            text += f", swapping hands with P{action.swap}"
        if action.flip_color is not None:
            text += f" (if the flip shows a wild, name {action.flip_color.long_name})"
        if action.seat != obs.current:
            text += " out of turn (jump-in)"
        return text
    if isinstance(action, Draw) and obs.pending_draw:
        return f"draw the {obs.pending_draw} stacked penalty cards (your turn ends)"
    if isinstance(action, ChooseColor):
        return f"choose {action.color.long_name} as the colour"
    if isinstance(action, Catch):
        return f"catch P{action.target}, who did not call UNO: they draw a penalty"
    return _MEANING[str(action).split()[-1]]


#: What the commands that say no more than their verb do (:func:`move_meaning`).
_MEANING = {
    "DRAW": "draw a card (you may then play it if it fits)",
    "PASS": "keep the card you just drew (your turn ends)",
    "ACCEPT": "accept the wild draw's penalty without challenging",
    "CHALLENGE": "challenge the wild draw (wrong: you draw more; right: they draw instead)",
    "UNO": "call UNO (you have, or are about to have, one card)",
    "NEXT": "deal the next round",
}
