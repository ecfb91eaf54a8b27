"""What one seat may know: :meth:`unokit.Game.observe`.

An :class:`Observation` holds the seat's own hand, every public fact (hand
sizes, piles' public faces, colour, direction, scores, Power Cards, UNO states),
in Flip the faces the seat can see on the backs of other hands and of the draw
pile's top, a hand revealed to this seat by a challenge, the legal actions and
the round's history redacted for this seat — and nothing else. It never holds
another hand's cards, the draw order, the seed or the random state.

>>> from unokit import Game
>>> g = Game.new("flip", 3, seed=2)
>>> obs = g.observe(1)
>>> len(obs.hand), obs.hand_sizes, len(obs.backs[0]), obs.backs[1]
(7, (7, 7, 7), 7, ())
>>> sorted(obs.to_dict())[:5]
['backs', 'challenge_offender', 'color', 'color_reason', 'current']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, cast

from unokit import _core
from unokit.engine import events as _events
from unokit.engine.actions import Action
from unokit.engine.cards import Card, Color, Face
from unokit.engine.codes import CHALLENGE, COLOR_REASONS, DRAWN, MATCH_OVER, ROUND_OVER
from unokit.engine.errors import IllegalActionError
from unokit.engine.events import Event, redact
from unokit.engine.house_view import HOUSE_JSON, HOUSE_SOURCES
from unokit.engine.options import Options, seating

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = [
    "Observation",
    "PublicView",
    "SeatPart",
    "SEAT_KEYS",
    "seat_part",
    "seat_raw",
    "part_of_raw",
    "SeatRaw",
    "entries",
    "combine",
    "observe",
    "public_view",
    "event_to_dict",
    "JSON_KEYS",
    "JSON_SOURCES",
]


@dataclass(frozen=True, slots=True)
class Observation:
    variant: str
    players: int
    seat: int | None  # None: a spectator
    options: Options
    round: int
    phase: str  # a Phase name
    current: int
    direction: int  # 1 clockwise, -1 counter-clockwise
    side: int  # 0 light, 1 dark (Flip)
    color: Color | None
    dealer: int
    top: Card | None
    discard: tuple[Card, ...]  # bottom -> top; the pile is face up
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    draw_top_back: Face | None  # Flip: the visible face of the draw pile's top card
    backs: tuple[tuple[Face, ...], ...]  # Flip: visible back faces of other hands (sorted)
    powers: tuple[bool, ...]  # Flex: True = green
    uno: tuple[str, ...]  # none | safe | vulnerable
    scores: tuple[int, ...]
    drawn: Card | None  # the card this seat just drew, in AWAIT_DRAWN
    pending_draw: int  # stacked draw penalty waiting (stacking house rule)
    challenge_offender: int | None  # who played the restricted card, in AWAIT_CHALLENGE
    color_reason: str  # why AWAIT_COLOR waits: first_card | flip_exposed_wild
    revealed: tuple[int, tuple[Card, ...]] | None  # (offender, hand) shown to this challenger
    winner: int | None  # winner of the round just ended
    round_points: int
    match_winners: tuple[int, ...]
    final_hands: tuple[tuple[Card, ...], ...] | None  # all hands, once the round is over
    legal: tuple[Action, ...]
    history: tuple[Event, ...]
    seating: tuple[int, ...] = ()  # seats clockwise (shuffleSeats); () = in seat order
    out: tuple[int, ...] = ()  # seats out of the match (house rule mercy)

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.current and bool(self.legal)

    def to_text(
        self,
        names: Sequence[str] | None = None,
        *,
        history: int = 12,
        moves: bool = False,
    ) -> str:
        """This view in plain words and the project's notation, bounded in
        length whatever the round's history: the table, the seats, the last
        ``history`` events (plus a count of the earlier ones), what the game
        waits for and, with ``moves``, the legal moves as commands. See
        :func:`unokit.engine.narration.observation_text` and docs/arena.md."""
        from unokit.engine.narration import observation_text

        return observation_text(self, names, history=history, moves=moves)

    def to_dict(self, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """A JSON-ready form: cards and faces as notation strings.

        With ``keys`` (names of :data:`JSON_KEYS`), only those entries: a server
        that sends what changed converts nothing else."""
        if keys is None:
            return {k: f(self) for k, f in _JSON.items()}
        return {k: _JSON[k](self) for k in keys}


def _cards(cards: Iterable[Card | Face]) -> list[str]:
    return [str(c) for c in cards]


#: how each entry of :meth:`Observation.to_dict` is made, in order
_JSON: dict[str, Callable[[Observation], Any]] = {
    "variant": lambda o: o.variant,
    "players": lambda o: o.players,
    "seat": lambda o: o.seat,
    "options": lambda o: o.options.to_dict(),
    "round": lambda o: o.round,
    "phase": lambda o: o.phase,
    "current": lambda o: o.current,
    "direction": lambda o: "cw" if o.direction == 1 else "ccw",
    "side": lambda o: ("light", "dark")[o.side],
    "color": lambda o: None if o.color is None else o.color.name,
    "dealer": lambda o: o.dealer,
    "top": lambda o: None if o.top is None else str(o.top),
    "top_face": lambda o: None if o.top is None else str(o.top.face(o.side)),
    "discard": lambda o: _cards(o.discard),
    "hand": lambda o: _cards(o.hand),
    "hand_sizes": lambda o: list(o.hand_sizes),
    "draw_size": lambda o: o.draw_size,
    "draw_top_back": lambda o: None if o.draw_top_back is None else str(o.draw_top_back),
    "backs": lambda o: [_cards(b) for b in o.backs],
    "powers": lambda o: ["G" if p else "X" for p in o.powers],
    "uno": lambda o: list(o.uno),
    "scores": lambda o: list(o.scores),
    "drawn": lambda o: None if o.drawn is None else str(o.drawn),
    "pending_draw": lambda o: o.pending_draw,
    "challenge_offender": lambda o: o.challenge_offender,
    "color_reason": lambda o: o.color_reason,
    "revealed": lambda o: (
        None if o.revealed is None else {"seat": o.revealed[0], "hand": _cards(o.revealed[1])}
    ),
    "winner": lambda o: o.winner,
    "round_points": lambda o: o.round_points,
    "match_winners": lambda o: list(o.match_winners),
    "final_hands": lambda o: None if o.final_hands is None else [_cards(h) for h in o.final_hands],
    "legal": lambda o: [str(a) for a in o.legal],
    "history": lambda o: [event_to_dict(e) for e in o.history],
    "out": lambda o: list(o.out),
}

_JSON.update(HOUSE_JSON)  # seating, teams, team_scores, pending (house_view.py)

#: the keys of :meth:`Observation.to_dict`, in order
JSON_KEYS: tuple[str, ...] = tuple(_JSON)

#: the :class:`Observation` fields each key of :meth:`Observation.to_dict` is made from
JSON_SOURCES: dict[str, tuple[str, ...]] = {k: (k,) for k in _JSON}
JSON_SOURCES["top_face"] = ("top", "side")
JSON_SOURCES.update(HOUSE_SOURCES)


@functools.cache
def _event_fields(name: str) -> tuple[str, ...]:
    """The field names of event class ``name``, in order (a base's first: ``seat``)."""
    return tuple(f.name for f in fields(getattr(_events, name)))


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready form of an event: ``{"type": ..., fields...}``."""
    kind = type(event).__name__
    out: dict[str, Any] = {"type": kind}
    for name in _event_fields(kind):
        out[name] = _jsonable(getattr(event, name))
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (Card, Face)):
        return str(value)
    if isinstance(value, Color):
        return value.name
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class PublicView:
    """The part of every seat's :class:`Observation` that does not depend on the
    seat, made once by :func:`public_view` for a game in one state and shared
    by the :func:`observe` calls of all its seats (a server fanning one version
    out to four seats and spectators converts the discard pile once).

    It is only valid while the game it was made from is unchanged."""

    game_id: int
    variant: str
    players: int
    options: Options
    round: int
    phase: str
    current: int
    direction: int
    side: int
    color: Color | None
    dealer: int
    top: Card | None
    discard: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    draw_size: int
    draw_top_back: Face | None
    all_backs: tuple[tuple[Face, ...], ...]  # Flip: every hand's visible backs (sorted)
    powers: tuple[bool, ...]
    uno: tuple[str, ...]
    scores: tuple[int, ...]
    pending_draw: int
    challenge_offender: int | None
    color_reason: str
    winner: int | None
    round_points: int
    match_winners: tuple[int, ...]
    final_hands: tuple[tuple[Card, ...], ...] | None
    over: bool
    seating: tuple[int, ...] = ()
    out: tuple[int, ...] = ()  # seats out of the match (house rule mercy)


_NO_BACKS: dict[int, tuple[tuple[Face, ...], ...]] = {}


def public_view(game: Game) -> PublicView:
    """What every seat of ``game`` sees alike, in its current state (see
    :class:`PublicView`; pass it to :func:`observe` as ``public``). Made once
    per version of the position: the seats of one state share it."""
    ver = game._g.version
    known = game._pub
    if known is not None and known[2] == ver and known[3].game_id == id(game):
        view: PublicView = known[3]
        return view
    v = game.variant
    cs = v.cards.cards
    n = game.n
    st = game._raw()  # the position's fields, read from the core once
    side = st[4]
    hands = st[1]
    all_backs = _NO_BACKS.get(n)
    if all_backs is None:
        all_backs = _NO_BACKS[n] = tuple(() for _ in range(n))
    draw_top_back = None
    if v.two_sided:
        other = 1 - side
        all_backs = tuple(
            tuple(sorted((cs[c].face(other) for c in hands[s]), key=_face_key)) for s in range(n)
        )
        if st[2]:
            draw_top_back = cs[st[2][-1]].face(other)
    phase = st[9]
    over = phase in _OVER
    discard = st[3]
    # the discard pile's cards: the previous version's, extended, when it only grew
    if known is not None and known[0] == discard:
        pile = known[1]
    elif (
        known is not None and len(known[0]) < len(discard) and discard[: len(known[0])] == known[0]
    ):
        pile = known[1] + tuple(map(cs.__getitem__, discard[len(known[0]) :]))
    else:
        pile = tuple(map(cs.__getitem__, discard))
    color = st[5]
    winner = st[27]
    # the fields of PublicView, in order (built without the frozen __init__: _new)
    view = _new(PublicView, _PUBLIC_MEMBERS, (
        id(game), v.name, n, game.options, st[26], _PHASE_NAMES[phase], st[6], st[7], side,
        None if color < 0 else _COLORS[color], st[8], pile[-1] if pile else None, pile,
        tuple(map(len, hands)), len(st[2]), draw_top_back, all_backs,
        st[24] if v.flex else (), tuple(map(_UNO_NAMES.__getitem__, st[21])), st[25], st[18],
        st[13] if phase == CHALLENGE else None, COLOR_REASONS[st[12]],
        None if not over or winner < 0 else winner, st[28] if over else 0, st[29],
        tuple(tuple(map(cs.__getitem__, h)) for h in hands) if over else None, over,
        seating(game.seed, n, game.options) if game.options.shuffleSeats else (),
        game.out_of_match(),
    ))  # fmt: skip
    game._pub = (discard, pile, ver, view)
    return view


_UNO_NAMES = ("none", "safe", "vulnerable")
_COLORS = tuple(Color)
#: phase names by value (unokit.engine.game.Phase)
_PHASE_NAMES = ("AWAIT_TURN", "AWAIT_DRAWN", "AWAIT_COLOR", "AWAIT_CHALLENGE", "ROUND_OVER",
                "MATCH_OVER", "DEAL")  # fmt: skip
_OVER = (ROUND_OVER, MATCH_OVER)


@dataclass(frozen=True, slots=True)
class SeatPart:
    """The part of an :class:`Observation` that is the seat's own (the
    history apart): what :func:`observe` adds to the :class:`PublicView`.
    Its fields have the names of the observation's, so :func:`entries`
    converts them alike."""

    seat: int | None
    hand: tuple[Card, ...]
    backs: tuple[tuple[Face, ...], ...]
    drawn: Card | None
    revealed: tuple[int, tuple[Card, ...]] | None
    legal: tuple[Action, ...]


#: the keys of :meth:`Observation.to_dict` made from a :class:`SeatPart` (the
#: others, the history apart, are made from the :class:`PublicView`)
SEAT_KEYS: tuple[str, ...] = ("seat", "hand", "backs", "drawn", "revealed", "legal")


SeatRaw = tuple[
    int | None,
    tuple[int, ...],
    tuple[tuple[Face, ...], ...],
    int,
    tuple[int, tuple[int, ...]] | None,
    tuple[int, ...],
]
"""A seat's own part as card ids and move codes, in the order of
:data:`SEAT_KEYS`: (seat, hand ids, backs, drawn card id or -1, revealed
(offender, card ids) or None, legal move codes). See :func:`seat_raw`."""


def seat_raw(
    game: Game, seat: int | None, public: PublicView, legal: Sequence[int] | None = None
) -> SeatRaw:
    """What :func:`seat_part` holds, as card ids and move codes (cheap to make
    and to compare: a server that sends what changed converts only the
    entries that differ). ``legal``: this seat's ``game.legal_moves(seat)``
    if the caller already has it. What a seat may see is decided here, once,
    for both forms."""
    backs = public.all_backs
    if seat is None:
        return (None, (), backs, -1, None, ())
    if game.variant.two_sided:
        backs = backs[:seat] + ((),) + backs[seat + 1 :]
    st = game._raw()  # the position's fields, read from the core once per version
    reveal = st[32]
    revealed = None
    if reveal is not None and reveal[0] == seat:
        revealed = (reveal[1], tuple(reveal[2]))
    codes: tuple[int, ...] = ()
    if not public.over:
        codes = tuple(game.legal_moves(seat) if legal is None else legal)
    drawn = st[10] if st[9] == DRAWN and seat == st[6] else -1
    return (seat, st[1][seat], backs, drawn, revealed, codes)


def part_of_raw(game: Game, raw: SeatRaw) -> SeatPart:
    """The :class:`SeatPart` of a :func:`seat_raw` of ``game`` (cards and
    typed actions made from the ids and codes)."""
    seat, hand, backs, drawn, revealed, codes = raw
    cs = game.variant.cards.cards
    return _new(SeatPart, _PART_MEMBERS, (
        seat,
        tuple(map(cs.__getitem__, hand)),
        backs,
        None if drawn < 0 else cs[drawn],
        None if revealed is None else (revealed[0], tuple(cs[c] for c in revealed[1])),
        () if seat is None else tuple(game.actions_of(seat, codes)),
    ))  # fmt: skip


def seat_part(
    game: Game, seat: int | None, public: PublicView, legal: Sequence[Action] | None = None
) -> SeatPart:
    """The seat's own part of its observation (see :func:`observe`, which
    checks ``seat`` and ``public``; ``legal``: this seat's
    ``game.legal_actions(seat)`` if the caller already has it)."""
    part = part_of_raw(game, seat_raw(game, seat, public, None if legal is None else ()))
    if legal is None or seat is None or public.over:
        return part
    return SeatPart(part.seat, part.hand, part.backs, part.drawn, part.revealed, tuple(legal))


def entries(source: Observation | PublicView | SeatPart, keys: Iterable[str]) -> dict[str, Any]:
    """The entries ``keys`` of :meth:`Observation.to_dict`, made from an
    observation, or from the public view (its keys) or the seat's part
    (:data:`SEAT_KEYS`) alone: a server that sends what changed converts
    each part once."""
    o = cast(Observation, source)  # the same field names
    return {k: _JSON[k](o) for k in keys}


def combine(public: PublicView, part: SeatPart, history: tuple[Event, ...] = ()) -> Observation:
    """The observation made of a public view and a seat's part of the same state."""
    p = public
    return _new(Observation, _OBS_MEMBERS, (
        p.variant, p.players, part.seat, p.options, p.round, p.phase, p.current, p.direction,
        p.side, p.color, p.dealer, p.top, p.discard, part.hand, p.hand_sizes, p.draw_size,
        p.draw_top_back, part.backs, p.powers, p.uno, p.scores, part.drawn, p.pending_draw,
        p.challenge_offender, p.color_reason, part.revealed, p.winner, p.round_points,
        p.match_winners, p.final_hands, part.legal, history,
        p.seating, p.out,
    ))  # fmt: skip


def observe(game: Game, seat: int | None, public: PublicView | None = None) -> Observation:
    """The view of ``seat`` (``None`` for a spectator, who sees no hand).

    ``public``: :func:`public_view` of ``game`` in its current state, shared by
    several seats' calls (made here when not given); only the seat's own part
    (:func:`seat_part`: hand, backs of the others, drawn card, revealed hand,
    legal actions; and the redacted history) is computed per call.

    Without ``public``, the observation of a game on the core's rules is
    lazy: a frozen copy of the position (one per version, shared by the
    seats) and the length of the log are kept, and each field is made on its
    first read (the legal actions and the history alone; the others
    together). It reads and compares as the full observation, pickles as one
    and is not changed by later commands to the game."""
    n = game.n
    if seat is not None and not 0 <= seat < n:
        raise IllegalActionError(f"P{seat} is not a seat of this {n}-player game")
    if public is None:
        if game._direct:
            return _lazy(game, seat)
        public = public_view(game)
    elif public.game_id != id(game):
        raise ValueError("observe: this PublicView was made from another game")
    history: tuple[Event, ...] = ()
    log = game.log
    if log is not None:
        history = _history(game, seat, log, len(log))
    return combine(public, seat_part(game, seat, public), history)


def _history(game: Game, seat: int | None, log: list[Event], length: int) -> tuple[Event, ...]:
    """``seat``'s redacted view of ``log[:length]`` (``log``: the game's log
    now or earlier), extended incrementally per seat while ``log`` is the
    game's."""
    if log is not game.log:
        return tuple(redact(e, seat) for e in log[:length])
    # the seat's redacted history, extended by the events since the last call
    key = id(log)
    cached = game._views.get(seat)
    if cached is None or cached[0] != key or len(cached[1]) > len(log):
        cached = (key, [], ())
    view, history = cached[1], cached[2]
    if len(view) < len(log):
        new = [redact(e, seat) for e in log[len(view) :]]
        view.extend(new)
        history += tuple(new)
        cached = (key, view, history)
    game._views[seat] = cached
    return history if len(history) == length else history[:length]


class _LazyObservation(Observation):
    """An :class:`Observation` whose fields are made on first read (see
    :func:`observe`) from a frozen copy of the core's position. It is equal
    to, hashes, prints and pickles as the full :class:`Observation`;
    :func:`dataclasses.replace` of it gives a full one."""

    __slots__ = ("_game", "_src", "_snap", "_ver", "_log", "_nlog", "_legal", "_hist", "_full")
    # the game observed, its core then (at version _ver) and a frozen copy of
    # that position: None once every field is made (nothing more is kept alive)
    _game: Game | None
    _src: _core.Game | None
    _snap: _core.Game | None
    _ver: int
    _log: list[Event] | None  # the game's log then, and its length
    _nlog: int
    _legal: tuple[Action, ...] | None  # the fields made so far
    _hist: tuple[Event, ...] | None
    _full: Observation | None

    def __new__(cls, *args: Any, **kw: Any) -> Observation:  # type: ignore[misc]
        return Observation(*args, **kw)  # dataclasses.replace() makes a full one

    def _then(self) -> Game:
        """The game as it was observed: itself while it has not moved on, else
        the frozen copy of its position then."""
        game = self._game
        src = self._src
        assert game is not None and src is not None and self._snap is not None
        if game._g is src and src.version == self._ver:
            return game
        return game._frozen(self._snap)

    def _whole(self) -> Observation:
        """The full observation (made once)."""
        full: Observation | None = self._full
        if full is None:
            base = self._then()
            public = public_view(base)
            part = seat_part(base, self.seat, public, self.legal)
            full = combine(public, part, self.history)
            _SET_FULL(self, full)
            for release in _RELEASE:  # every field is made: let the game go
                release(self, None)
        return full

    def _legal_now(self) -> tuple[Action, ...]:
        legal: tuple[Action, ...] | None = self._legal
        if legal is None:
            seat = self.seat
            legal = () if seat is None else self._then()._legal_of(seat)[0]
            _SET_LEGAL(self, legal)
        return legal

    def _history_now(self) -> tuple[Event, ...]:
        hist: tuple[Event, ...] | None = self._hist
        if hist is None:
            log, game = self._log, self._game  # both None once every field is made
            hist = () if log is None or game is None else _history(game, self.seat, log, self._nlog)
            _SET_HIST(self, hist)
        return hist

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _LazyObservation):
            return self._whole() == other._whole()
        if isinstance(other, Observation):
            return self._whole() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._whole())

    def __repr__(self) -> str:
        return repr(self._whole())

    def __reduce_ex__(self, protocol: Any) -> Any:
        return self.__reduce__()

    def __reduce__(self) -> Any:
        # pickled and copied as a full Observation, made by its constructor
        full = self._whole()
        return (Observation, tuple(get(full) for get in _FIELD_GETS))

    def to_dict(self, keys: Iterable[str] | None = None) -> dict[str, Any]:
        return self._whole().to_dict(keys)


def _lazy(game: Game, seat: int | None) -> Observation:
    """:func:`observe` of a game on the core's rules, lazily."""
    g = game._g
    ver = g.version
    snap = game._snap
    if snap is None or snap[0] != ver:
        snap = game._snap = (ver, g.copy())
    log = game.log
    return _new(_LazyObservation, _LAZY_MEMBERS, (
        game.variant.name, game.n, seat, game.options, _PHASE_NAMES[g.phase], g.current,
        game, g, snap[1], ver, log, 0 if log is None else len(log), None, None, None,
    ))  # fmt: skip


def _members(cls: type) -> tuple[Any, ...]:
    """The slot descriptors of dataclass ``cls``'s fields, in field order."""
    return tuple(cls.__dict__[f.name] for f in fields(cls))


# frozen dataclasses built without their __init__ (which sets each field through
# object.__setattr__): _core.new_slots fills every field's slot from a tuple
_new = _core.new_slots
_OBS_MEMBERS = _members(Observation)
_PUBLIC_MEMBERS = _members(PublicView)
_PART_MEMBERS = _members(SeatPart)
# the lazy observation's fields set when it is made, then its own slots
_EAGER = ("variant", "players", "seat", "options", "phase", "current")
_LAZY_MEMBERS = tuple(Observation.__dict__[f] for f in _EAGER) + tuple(
    _LazyObservation.__dict__[f] for f in _LazyObservation.__slots__
)
_FIELD_GETS = tuple(m.__get__ for m in _OBS_MEMBERS)
_RELEASE = tuple(_LazyObservation.__dict__[f].__set__ for f in ("_game", "_src", "_snap", "_log"))
_SET_FULL = _LazyObservation.__dict__["_full"].__set__
_SET_LEGAL = _LazyObservation.__dict__["_legal"].__set__
_SET_HIST = _LazyObservation.__dict__["_hist"].__set__


def _lazy_field(name: str) -> property:
    """The property of a lazy observation's field ``name``: read from the
    full observation, made on the first read."""
    get = Observation.__dict__[name].__get__

    def field(self: _LazyObservation) -> Any:
        full = self._full
        return get(self._whole() if full is None else full)

    field.__name__ = name
    return property(field)


for _f in fields(Observation):
    if _f.name not in _EAGER:
        setattr(_LazyObservation, _f.name, _lazy_field(_f.name))
_LazyObservation.legal = property(_LazyObservation._legal_now)  # type: ignore[assignment]
_LazyObservation.history = property(_LazyObservation._history_now)  # type: ignore[assignment]


def _face_key(face: Face) -> tuple[int, int, int]:
    return (
        -1 if face.color is None else int(face.color),
        int(face.kind),
        -1 if face.number is None else face.number,
    )
