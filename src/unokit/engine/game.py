"""The rules engine's typed face: one mutable :class:`Game` holding a whole match.

A game holds one position of the C rules core (:mod:`unokit._core`) for its
whole life: its attributes are read-only views of that position (lists are
made on first read and kept until the next command), a command is one call
into the core, :meth:`Game.copy` is the core's copy (docs/core.md, "Game on
the core"). The readable Python rules live in :mod:`unokit.testing.reference`,
the differential fuzzer's oracle.

The engine is pure and synchronous: no I/O, no clock, no global randomness.
Randomness comes from the ``seed`` given at creation; every shuffle ``k`` of a
game is drawn from a generator seeded with ``(seed, k)``, so the same seed and
the same commands always give the same game, and a position can be written
down completely (seed and shuffle counter included).

>>> g = Game.new("classic", players=3, seed=7)
>>> g.state.name, len(g.hands[0]), g.draw_count
('AWAIT_TURN', 7, 86)
>>> a = g.legal_actions()[0]; events = g.apply(a)
>>> g.apply("P0 PLAY R99")
Traceback (most recent call last):
...
unokit.engine.errors.ParseError: unknown classic card 'R99': expected R0-R9, RS, RR, RD2, W, W4 (colours R Y G B)

Commands are typed objects (:mod:`unokit.engine.actions`) or their text; an illegal
command raises :class:`~unokit.engine.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, overload

from unokit import _core
from unokit.engine import codes, multiplay
from unokit.engine import events as ev
from unokit.engine.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    NextRound,
    Pass,
    Play,
    parse_action,
)
from unokit.engine.cards import Card, Color, Kind, NamedIntEnum
from unokit.engine.coredata import CoreConfig, core_config, decode_events, decode_run
from unokit.engine.errors import IllegalActionError, InvalidPositionError, OptionError, ParseError
from unokit.engine.multiplay import OP_MULTI
from unokit.engine.observation import Observation, observe
from unokit.engine.options import Options, seating
from unokit.engine.refusals import refusal
from unokit.engine.render import render
from unokit.engine.variants import Variant, get_variant

__all__ = [
    "Game",
    "Phase",
    "UnoState",
    "max_hand_size",
    "check_deal",
    "check_config",
    "MAX_HAND_SIZE",
]


class Phase(NamedIntEnum):
    """The engine's decision states (docs/rules.md §1.9), plus ``DEAL``: cards dealt,
    first card not yet turned."""

    AWAIT_TURN = 0
    AWAIT_DRAWN = 1
    AWAIT_COLOR = 2
    AWAIT_CHALLENGE = 3
    ROUND_OVER = 4
    MATCH_OVER = 5
    DEAL = 6


_PHASE_OF = tuple(Phase)


class UnoState(NamedIntEnum):
    NONE = 0
    SAFE = 1
    VULNERABLE = 2


# the codes of unokit.engine.codes under the short names other modules import
_T, _D, _C, _CH, _RO, _MO, _DEAL = (
    codes.TURN, codes.DRAWN, codes.COLOR, codes.CHALLENGE, codes.ROUND_OVER, codes.MATCH_OVER,
    codes.DEAL,
)  # fmt: skip
_NONE, _SAFE, _VULN = codes.UNO_NONE, codes.UNO_SAFE, codes.UNO_VULNERABLE
_NUMBER, _FLIP, _WDC, _WTD, _FW4 = (
    int(Kind.NUMBER), int(Kind.FLIP), int(Kind.WILD_DRAW_COLOR), int(Kind.WILD_TARGET_DRAW),
    int(Kind.FLEX_WILD_DRAW_FOUR),
)  # fmt: skip

# Move codes (the fast integer form of commands; see Game.legal_moves).
OP_PLAY, OP_DRAW, OP_PASS, OP_COLOR, OP_ACCEPT = (
    codes.OP_PLAY,
    codes.OP_DRAW,
    codes.OP_PASS,
    codes.OP_COLOR,
    codes.OP_ACCEPT,
)
OP_CHALLENGE, OP_UNO, OP_CATCH, OP_NEXT = (
    codes.OP_CHALLENGE,
    codes.OP_UNO,
    codes.OP_CATCH,
    codes.OP_NEXT,
)
_FLEX_BIT = codes.FLEX_BIT
_REASONS = codes.COLOR_REASONS

#: the fields of a position, in the order of the core's ``state()`` tuple
FIELDS = (
    "shuffles", "hands", "draw", "discard", "side", "color", "current", "direction", "dealer",
    "phase", "drawn", "color_next", "color_reason", "ch_offender", "ch_legal", "ch_card",
    "ch_after", "ch_after_success", "pending", "stack_class", "stack_amount", "uno", "uno_pre",
    "vulnerable", "powers", "scores", "round_no", "winner", "round_points", "match_winners",
    "empty_draws", "wild_top", "reveal",
)  # fmt: skip
_FIELD = {name: i for i, name in enumerate(FIELDS)}
_V = TypeVar("_V")


class _Field(property, Generic[_V]):
    # a read-only attribute of the position: a property made by _live or _state
    # from the field's name, typed _V (no docstring here: each has its own)

    if TYPE_CHECKING:

        @overload
        def __get__(self, obj: None, owner: type | None = None) -> Self: ...
        @overload
        def __get__(self, obj: object, owner: type | None = None) -> _V: ...
        def __get__(self, obj: object, owner: type | None = None) -> Any: ...


def _live(name: str, doc: str | None = None) -> _Field[int]:
    """The core game's attribute ``name``, as an int."""

    def get(game: Game) -> int:
        return int(getattr(game._g, name))

    return _field(get, doc)


def _state(kind: Callable[[Any], _V], name: str, doc: str | None = None) -> _Field[_V]:
    """The field ``name`` of the core's ``state()`` tuple (:data:`FIELDS`), as ``kind``."""
    i = _FIELD[name]

    def get(game: Game) -> _V:
        return kind(game._raw()[i])

    return _field(get, doc)


def _field(get: Callable[[Game], _V], doc: str | None) -> _Field[_V]:
    made: _Field[_V] = _Field(get)
    made.__doc__ = doc  # not _Field(get, doc=doc): Python 3.11 drops a subclass's doc
    return made


def _view(make: Callable[[Game, Any], _V], name: str, doc: str | None = None) -> _Field[_V]:
    """``make(game, entry)`` of the field ``name`` of the core's ``state()``
    tuple, made once per version of the position (a view: not to be changed)."""
    i = _FIELD[name]

    def get(game: Game) -> _V:
        entry = game._raw()[i]  # first: a new version empties game._lists
        made: _V | None = game._lists.get(name)
        if made is None:
            made = game._lists[name] = make(game, entry)
        return made

    return _field(get, doc)


def _ints(game: Game, entry: tuple[int, ...]) -> list[int]:
    return list(entry)


def _hands(game: Game, entry: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    return [list(hand) for hand in entry]


def _powers(game: Game, entry: tuple[bool, ...]) -> list[bool]:
    return list(entry) if game.variant.flex else []


# typed actions by variant and (move code << 4 | seat): actions are immutable,
# so legal_actions hands out the same objects instead of decoding every time
_DECODED: dict[str, dict[int, Action]] = {}

# the actions of _DECODED that apply() carries out by their move code, by id:
# (action, move code, variant name, command text). Not UNO calls or catches
# (accepted without effect, their own path says so) nor multi-plays (not cached)
_KNOWN: dict[int, tuple[Action, int, str, str]] = {}
_BY_CODE = (Play, Draw, Pass, ChooseColor, Accept, Challenge)

_LOCAL = threading.local()


def _rng() -> random.Random:
    r: random.Random | None = getattr(_LOCAL, "rng", None)
    if r is None:
        r = _LOCAL.rng = random.Random()
    return r


MAX_HAND_SIZE = 20  # docs/rules.md D59


def max_hand_size(
    variant: str | Variant, players: int, options: Options | dict[str, Any] | None = None
) -> int:
    """The largest valid ``handSize`` for ``players`` (docs/rules.md D59): every
    player gets ``handSize`` cards and at least one card is left to turn up.

    >>> max_hand_size("classic", 10), max_hand_size("flex", 8), max_hand_size("flip", 2)
    (10, 12, 20)
    """
    v = get_variant(variant)
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    deck = len(v.deck_ids(opts, 0))
    return min(MAX_HAND_SIZE, (deck - 1) // players)


def check_deal(variant: Variant, players: int, options: Options, seed: int = 0) -> None:
    """Refuse a configuration whose deal is impossible (docs/rules.md D59) with an
    :class:`~unokit.engine.errors.OptionError` that names the largest valid ``handSize``."""
    size = options.handSize
    deck = len(variant.deck_ids(options, seed))
    if not 1 <= size <= MAX_HAND_SIZE or players * size > deck - 1:
        best = min(MAX_HAND_SIZE, (deck - 1) // players)
        raise OptionError(
            f"option handSize={size}: cannot deal {size} cards to each of {players} players "
            f"from the {deck}-card {variant.name} deck (at most 20, and one card must be left "
            f"to turn up); the largest valid handSize for {players} players is {best}"
        )


def check_config(
    variant: str | Variant, players: int, options: Options | dict[str, Any] | None, seed: int
) -> tuple[Variant, Options]:
    """The variant and options of a new match, or the error that refuses it
    (players, dealer seat, seed, deal: docs/rules.md D59). Shared by
    :class:`Game` and its batched environments."""
    v = get_variant(variant)
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    if not isinstance(players, int) or isinstance(players, bool):
        raise InvalidPositionError(f"players must be an integer, got {players!r}")
    if not v.min_players <= players <= v.max_players:
        raise InvalidPositionError(
            f"{v.name} is played by {v.min_players} to {v.max_players} players, not {players}"
        )
    if opts.dealer_fixed_seat is not None and opts.dealer_fixed_seat >= players:
        raise InvalidPositionError(
            f"dealerSelection={opts.dealerSelection}: no seat P{opts.dealer_fixed_seat}"
        )
    if opts.teams == "pairs" and (players < 4 or players % 2):
        raise InvalidPositionError(
            f"teams=pairs needs an even number of players, at least 4 (not {players})"
        )
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidPositionError(f"seed must be an integer, got {seed!r}")
    check_deal(v, players, opts, seed)
    return v, opts


def encode_play(
    cid: int, color: int = -1, flex: bool = False, target: int = -1, swap: int = -1
) -> int:
    """Move code of a PLAY (card id, declared colour, flex side, target, swap)."""
    return (
        (cid << 4)
        | ((color + 1) << 16)
        | (_FLEX_BIT if flex else 0)
        | ((target + 1) << 21)
        | ((swap + 1) << 25)
    )


class Game:
    """A whole match of one variant: the authoritative, mutable state.

    The position lives in the C core; the attributes (``hands``, ``draw``,
    ``phase``, ...) are read-only views of it, and only commands
    (:meth:`apply`) change it. Card lists hold card ids of
    ``game.variant.cards``; the ``*_cards`` properties give :class:`Card`
    objects. A position is written only by constructors (:meth:`new`,
    :meth:`setup`, :meth:`replace`, :func:`unokit.engine.notation.loads`).
    """

    __slots__ = (
        "variant",
        "options",
        "n",
        "_seed",
        "log",
        "commands",
        "changed",
        "_g",
        "_st",
        "_ver",
        "_lists",
        "_views",
        "_made",
        "_pub",
        "_lver",
        "_lcache",
        "_snap",
    )

    #: whether this class runs the rules of the core unchanged, so that the
    #: fast paths may call the core directly (legal lists by version, apply by
    #: move code, copy in one call, lazy observations). A subclass is not,
    #: unless it says so (the Python reference overrides the rules)
    _direct: ClassVar[bool] = True

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "_direct" not in cls.__dict__:
            cls._direct = False

    # ------------------------------------------------------------------ creation

    def __init__(
        self,
        variant: str | Variant,
        players: int,
        options: Options | dict[str, Any] | None = None,
        seed: int = 0,
        *,
        events: bool = True,
    ) -> None:
        """An empty table; use :meth:`new` (deal a match) or :meth:`setup`
        (an explicit position) instead."""
        v, opts = check_config(variant, players, options, seed)
        self._make(v, opts, players, seed, events)

    def _make(
        self, v: Variant, opts: Options, players: int, seed: int, events: bool,
        made: CoreConfig | None = None,
    ) -> None:  # fmt: skip
        self.variant = v
        self.options = opts
        self.n = players
        self._seed = seed
        self.log: list[ev.Event] | None = [] if events else None
        # accepted commands of the whole match, as text (the body of a record)
        self.commands: list[str] | None = [] if events else None
        #: whether the last command this game accepted changed it (False only
        #: for an UNO call or a catch accepted without effect, docs/rules.md D65)
        self.changed = True
        if made is None:
            made = core_config(v, opts, seed)
        self._made = made
        self._g = _core.Game(made[0], made[1], players, seed & 0xFFFFFFFFFFFF)
        if events:
            self._g.record_events(True)
        # the core's state() and the views made from it, for the core's version _ver
        self._st: tuple[Any, ...] = ()
        self._ver = -1
        self._lists: dict[str, Any] = {}
        # per-seat redacted history, extended incrementally by observe()
        self._views: dict[int | None, tuple[int, list[ev.Event], tuple[ev.Event, ...]]] = {}
        # observation.public_view's last discard pile, as ids and as cards
        # observation.public_view's last (discard ids, discard cards, core version, view)
        self._pub: tuple[Any, ...] | None = None
        # the legal lists of the core's version _lver, by seat: (actions, move codes);
        # apply() knows an action of these lists by its code (no re-validation)
        self._lver = -1
        self._lcache: dict[int, tuple[tuple[Action, ...], list[int]]] = {}
        # observe()'s frozen copy of the core's position: (version, copy)
        self._snap: tuple[int, Any] | None = None

    def _raw(self) -> tuple[Any, ...]:
        """The core's ``state()`` tuple, read once per version of the position
        (the core bumps its version whenever the position may have changed)."""
        g = self._g
        if g.version != self._ver:
            self._ver = g.version
            self._st = g.state()
            self._lists = {}
        return self._st

    def _load(self, fields: dict[str, Any]) -> None:
        """Write ``fields`` (names of :data:`FIELDS`, values as the attributes
        give them) into the position; the others stay. For constructors only."""
        st = list(self._raw())
        for name, value in fields.items():
            i = _FIELD[name]
            if name == "color_reason":
                value = _REASONS.index(value)
            elif name in ("ch_legal", "wild_top"):
                value = int(bool(value))
            elif name == "hands":
                value = [list(h) for h in value]
            elif name == "powers":
                value = [int(bool(p)) for p in value]
            elif name == "reveal" and value is not None:
                value = (int(value[0]), int(value[1]), tuple(value[2]))
            st[i] = value
        try:
            self._g.set_state(tuple(st))
        except (ValueError, TypeError, OverflowError) as e:
            raise InvalidPositionError(f"not a position: {e}") from None

    def replace(self, *, seed: int | None = None, events: bool = False, **fields: Any) -> Self:
        """A new game: this position with ``fields`` (attribute names: ``hands``,
        ``draw``, ``phase``, ...) replaced and, with ``seed``, another seed for
        later shuffles. For samplers and tests that need a position no command
        leads to; it is not checked against docs/rules.md §8 (see :meth:`setup`)."""
        unknown = set(fields) - set(FIELDS)
        if unknown:
            raise TypeError(f"replace: no field {', '.join(sorted(unknown))}")
        new_seed = self.seed if seed is None else seed
        g = type(self).__new__(type(self))
        made = self._made if seed is None else None
        Game._make(g, self.variant, self.options, self.n, new_seed, events, made)
        g._g.set_state(self._g.state())
        if events:
            g.log = list(self.log) if self.log is not None else []
            g.commands = list(self.commands) if self.commands is not None else []
        if fields:
            g._load(fields)
        return g

    @classmethod
    def new(
        cls,
        variant: str | Variant,
        players: int,
        options: Options | dict[str, Any] | None = None,
        seed: int = 0,
        *,
        events: bool = True,
    ) -> Game:
        """Start a match: choose the dealer (docs/rules.md §1.2), deal the first round.

        >>> g = Game.new("flip", 4, {"targetScore": 250}, seed=3)
        >>> g.round_no, g.side, sum(len(h) for h in g.hands)
        (1, 0, 28)
        """
        g = cls(variant, players, options, seed, events=events)
        g._new_match()
        return g

    @classmethod
    def setup(
        cls,
        variant: str | Variant,
        players: int,
        options: Options | dict[str, Any] | None = None,
        *,
        hands: Sequence[Sequence[Card | str]],
        draw: Sequence[Card | str] = (),
        discard: Sequence[Card | str] = (),
        color: Color | str | None = None,
        current: int = 1,
        dealer: int = 0,
        direction: int = 1,
        side: int = 0,
        phase: Phase | str = Phase.AWAIT_TURN,
        drawn: Card | str | None = None,
        powers: Sequence[bool] | None = None,
        uno: dict[int, UnoState | str] | None = None,
        scores: Sequence[int] | None = None,
        pending_draw: int = 0,
        prior_color: Color | str | None = None,
        seed: int = 0,
        events: bool = True,
    ) -> Game:
        """Build an explicit position (``draw`` top first, ``discard`` bottom to top).

        An empty ``discard`` means the round waits for its first card
        (:meth:`start`). ``pending_draw``: with ``stacking`` on, in
        ``AWAIT_TURN``, the stacked penalty waiting for ``current`` (the top
        card is the last stacked card). ``prior_color``: in
        ``AWAIT_CHALLENGE`` (or with a restricted wild draw on top of a stack),
        the colour in force before that card was played, from which its
        legality is judged (default: the colour of the card under it). Raises
        :class:`InvalidPositionError` when the position breaks an invariant of
        docs/rules.md §8.
        """
        g = cls(variant, players, options, seed, events=events)
        v = g.variant
        parse = g._card_id
        if len(hands) != players:
            raise InvalidPositionError(f"{len(hands)} hands given for {players} players")
        f: dict[str, Any] = {}  # the fields of the position, loaded at the end
        f["hands"] = hand_ids = [[parse(c) for c in h] for h in hands]
        f["draw"] = [parse(c) for c in reversed(draw)]
        f["discard"] = discard_ids = [parse(c) for c in discard]
        if not 0 <= dealer < players:
            raise InvalidPositionError(f"dealer P{dealer} is not a seat")
        if not 0 <= current < players:
            raise InvalidPositionError(f"current P{current} is not a seat")
        if direction not in (1, -1):
            raise InvalidPositionError("direction must be cw (1) or ccw (-1)")
        if side not in (0, 1) or (side and not v.two_sided):
            raise InvalidPositionError(f"side {side} does not exist in {v.name}")
        f.update(dealer=dealer, current=current, direction=direction, side=side, round_no=1)
        ph = Phase[phase] if isinstance(phase, str) else Phase(phase)
        if scores is not None:
            if len(scores) != players or any(not isinstance(s, int) for s in scores):
                raise InvalidPositionError("scores must be one integer per seat")
            f["scores"] = list(scores)
        if powers is not None:
            if not v.flex:
                raise InvalidPositionError("Power Cards exist only in flex")
            if len(powers) != players:
                raise InvalidPositionError("powers must give one state per seat")
            f["powers"] = [bool(p) for p in powers]
        unos = [_NONE] * players
        for seat, state in (uno or {}).items():
            if not 0 <= seat < players:
                raise InvalidPositionError(f"uno: P{seat} is not a seat")
            s = UnoState[state.upper()] if isinstance(state, str) else UnoState(state)
            if s != UnoState.NONE and len(hand_ids[seat]) != 1:
                raise InvalidPositionError(
                    f"uno: P{seat} is {s.name.lower()} but holds {len(hand_ids[seat])} cards"
                )
            unos[seat] = int(s)
            if s == UnoState.VULNERABLE:
                f["vulnerable"] = seat
        f["uno"] = unos
        if sum(1 for s in unos if s == _VULN) > 1:
            raise InvalidPositionError("at most one player can be vulnerable at a time")
        if not discard_ids:
            if ph != Phase.AWAIT_TURN and ph != Phase.DEAL:
                raise InvalidPositionError(f"the discard pile is empty in state {ph.name}")
            if color is not None:
                raise InvalidPositionError("no colour before the first card is turned")
            f["phase"] = _DEAL
            if side:
                raise InvalidPositionError("a round starts on the light side")
            g._check_deck(f)
            g._load(f)
            return g
        if ph == Phase.DEAL:
            raise InvalidPositionError("state DEAL needs an empty discard pile")
        f["phase"] = int(ph)
        top = discard_ids[-1]
        order = seating(seed, players, g.options)  # §6.16: around the (shuffled) table
        nxt = order[(order.index(current) + direction) % players]
        if ph == Phase.AWAIT_COLOR:
            pass  # no colour is in force until it is declared
        elif color is None:
            c = v.color[side][top]
            if c < 0:
                raise InvalidPositionError(
                    f"the top card {v.cards.cards[top]} is wild: give the current colour"
                )
            f["color"] = c
        else:
            col = Color[color] if isinstance(color, str) else Color(color)
            if col not in v.colors(side):
                raise InvalidPositionError(
                    f"colour {col.name} does not belong to the {('light', 'dark')[side]} side"
                )
            f["color"] = int(col)
        if ph == Phase.AWAIT_DRAWN:
            if drawn is None:
                raise InvalidPositionError("state AWAIT_DRAWN needs the drawn card")
            d = parse(drawn)
            if d not in hand_ids[current]:
                raise InvalidPositionError(f"drawn card {drawn} is not in P{current}'s hand")
            f["drawn"] = d
        elif drawn is not None:
            raise InvalidPositionError("a drawn card is given outside AWAIT_DRAWN")
        elif ph == Phase.AWAIT_COLOR:
            if v.color[side][top] >= 0:
                raise InvalidPositionError(
                    "AWAIT_COLOR needs a wild face on top of the discard pile"
                )
            f["color"] = -1  # a given colour is ignored: none is in force until declared
            if len(discard_ids) == 1:
                f["color_reason"], f["color_next"] = "first_card", current
            elif g.options.flipExposedWildChooser == "next_player":
                # the next player declares, then takes their turn (docs/rules.md §3.5 step 7)
                f["color_reason"], f["color_next"] = "flip_exposed_wild", current
            else:
                f["color_reason"], f["color_next"] = "flip_exposed_wild", nxt
        elif ph == Phase.AWAIT_CHALLENGE:
            if not v.restricted[side][top]:
                raise InvalidPositionError("AWAIT_CHALLENGE needs a restricted wild draw on top")
            if g.options.no_challenge:
                raise InvalidPositionError(
                    "AWAIT_CHALLENGE with noBluff or wildDrawChallenge=off: nothing is challenged"
                )
            f["ch_after"], f["ch_after_success"] = nxt, current
            g._load({**f, "phase": _T})  # the hands, to judge the card's legality
            f.update(g._set_challenge(prior_color))
        elif ph in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            raise InvalidPositionError(f"a position cannot be set up in state {ph.name}")
        if not isinstance(pending_draw, int) or isinstance(pending_draw, bool) or pending_draw < 0:
            raise InvalidPositionError(
                f"pending_draw must be an integer >= 0, not {pending_draw!r}"
            )
        if pending_draw:
            if g.options.stacking == "off" and g.options.deflect == "off":
                raise InvalidPositionError(
                    "pending_draw needs stacking or deflect on (docs/rules.md §6.1, §6.7)"
                )
            if ph != Phase.AWAIT_TURN:
                raise InvalidPositionError(f"pending_draw is given in state {ph.name}")
            amount = v.draw_amount[side][top]
            if not v.stack_class[side][top] or amount > pending_draw:
                raise InvalidPositionError(
                    f"pending_draw {pending_draw}: the top card {v.cards.cards[top]} is not a "
                    f"stacked draw card of at most that amount"
                )
            f.update(pending=pending_draw, stack_class=v.stack_class[side][top])
            f["stack_amount"] = amount
            if v.restricted[side][top] and not g.options.no_challenge:
                # the last stacked card may be challenged
                f["ch_after"], f["ch_after_success"] = nxt, current
                g._load({**f, "pending": 0})  # the hands, to judge the card's legality
                f.update(g._set_challenge(prior_color))
        elif prior_color is not None and ph != Phase.AWAIT_CHALLENGE:
            raise InvalidPositionError("prior_color is given outside AWAIT_CHALLENGE or a stack")
        if any(not h for h in hand_ids) and not g.options.mercy:
            raise InvalidPositionError("a player with no cards: the round would be over")
        g._check_deck(f)
        g._load(f)
        if g.options.mercy:  # §6.12: a seat with no card is out of the match
            out = g.out_of_match()
            if g.current in out or g.n - len(out) < 2:
                raise InvalidPositionError(
                    "a player with no cards is out of the match (mercy): the seat to act "
                    "must hold cards and two players at least must be in"
                )
        return g

    def _set_challenge(self, prior_color: Color | str | None) -> dict[str, Any]:
        """Challenge bookkeeping of a set-up position whose top card is a
        restricted wild draw just played by the seat before ``current`` (the
        fields to load)."""
        v = self.variant
        side = self.side
        top = self.discard[-1]
        if prior_color is None:
            before = v.color[side][self.discard[-2]] if len(self.discard) > 1 else -1
        else:
            try:
                col = Color[prior_color] if isinstance(prior_color, str) else Color(prior_color)
            except (KeyError, ValueError):
                raise InvalidPositionError(f"prior_color {prior_color!r} is not a colour") from None
            if col not in v.colors(side):
                raise InvalidPositionError(
                    f"prior_color {col.name} does not belong to the {('light', 'dark')[side]} side"
                )
            before = int(col)
        off = self._next(self.current, -1)
        # the card is on the discard pile already: no card of the hand is skipped
        legal = before < 0 or not self.holds_match(off, before)
        return {"ch_offender": off, "ch_card": top, "ch_legal": legal}

    def _check_deck(self, f: dict[str, Any] | None = None) -> None:
        """Every card of the position must exist in the deck in force, and no
        more often than the deck holds it (docs/scenario-format.md, docs/rules.md §8).
        ``f``: the fields about to be loaded (hands and piles from there)."""
        v = self.variant
        if f is not None:
            used: Counter[int] = Counter(f.get("draw", self.draw))
            used.update(f.get("discard", self.discard))
            for h in f.get("hands", self.hands):
                used.update(h)
        else:
            used = self.all_cards()
        if v.two_sided and self.options.flipPairing == "random_seeded":
            # the pairing is the match's secret: check each side's composition
            canonical = Counter(v.deck_ids(Options(), 0))
            cards = v.cards.cards
            for side in (0, 1):
                allowed = Counter(str(cards[c].face(side)) for c in canonical.elements())
                faces = Counter(str(cards[c].face(side)) for c in used.elements())
                for face, count in faces.items():
                    if count > allowed[face]:
                        raise InvalidPositionError(
                            f"{count} cards show {face}; the Flip deck has {allowed[face]}"
                        )
            return
        deck = Counter(v.deck_ids(self.options, self.seed))
        for cid, count in used.items():
            have = deck.get(cid, 0)
            if count > have:
                card = self.cards[cid]
                if not have:
                    what = "deck"
                    if self.variant.two_sided:
                        what = (
                            f"{self.options.flipPairing} Flip deck (its pairing has no such card)"
                        )
                    raise InvalidPositionError(f"{card} is not a card of the {what}")
                raise InvalidPositionError(
                    f"{count} copies of {card} in the position; the deck holds {have}"
                )

    def _card_id(self, card: Card | str) -> int:
        cs = self.variant.cards
        if isinstance(card, Card):
            try:
                return cs.index[card]
            except KeyError:
                raise InvalidPositionError(f"{card} is not a {cs.name} card") from None
        try:
            return cs.parse_id(card)
        except ParseError as e:
            raise InvalidPositionError(str(e)) from None

    def copy(self, *, events: bool = False) -> Self:
        """An independent copy (the core's copy of the position).

        The copy does not keep the event log unless ``events`` is true."""
        if not self._direct:
            return self._copy_slots(events)
        c = self._g.copy()
        log: list[ev.Event] | None
        cmds: list[str] | None
        if events:
            log = self.log[:] if self.log is not None else []
            cmds = self.commands[:] if self.commands is not None else []
            c.record_events(True)
        else:
            log = cmds = None
        # every slot in one call (Game.__slots__'s order); what depends only on
        # the position at this version is immutable and shared: the state tuple,
        # the public view, the legal lists, observe()'s frozen copy
        g: Self = _new_slots(type(self), _GAME_MEMBERS, (
            self.variant, self.options, self.n, self._seed, log, cmds, self.changed, c,
            self._st, self._ver, {}, {}, self._made, self._pub, self._lver, self._lcache,
            self._snap,
        ))  # fmt: skip
        return g

    def _frozen(self, core: _core.Game) -> Game:
        """A game without a log on ``core`` (a frozen copy of this game's
        position, which nothing changes): lazy observations read it once the
        game has moved on."""
        g: Game = _new_slots(Game, _GAME_MEMBERS, (
            self.variant, self.options, self.n, self._seed, None, None, self.changed, core,
            (), -1, {}, {}, self._made, None, -1, {}, None,
        ))  # fmt: skip
        return g

    def _copy_slots(self, events: bool) -> Self:
        """:meth:`copy` slot by slot, through the subclass's properties."""
        g = object.__new__(type(self))
        g.variant = self.variant
        g.options = self.options
        g.n = self.n
        g._seed = self._seed
        g.changed = self.changed
        g._made = self._made
        g._g = c = self._g.copy()
        g._st = self._st  # immutable tuples: shared until either side changes
        g._ver = self._ver
        g._lists = {}
        g._views = {}
        g._pub = self._pub
        g._lver = -1
        g._lcache = {}
        g._snap = None
        if events:
            g.log = self.log[:] if self.log is not None else []
            g.commands = self.commands[:] if self.commands is not None else []
            c.record_events(True)
        else:
            g.log = g.commands = None
        return g

    def __copy__(self) -> Game:
        return self.copy(events=True)

    def __getstate__(self) -> dict[str, Any]:
        # pickling and deepcopy: the match, the position's fields and the logs
        return {
            "variant": self.variant.name,
            "options": self.options,
            "n": self.n,
            "seed": self.seed,
            "state": self._g.state(),
            "log": self.log,
            "commands": self.commands,
            "changed": self.changed,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._make(
            get_variant(state["variant"]), state["options"], state["n"], state["seed"],
            state["log"] is not None,
        )  # fmt: skip
        self._g.set_state(state["state"])
        self.log, self.commands, self.changed = state["log"], state["commands"], state["changed"]

    # ------------------------------------------------------------------ the position (read-only)

    @property
    def seed(self) -> int:
        """The match's seed (shuffle ``k`` draws from ``(seed, k)``)."""
        return self._seed

    shuffles = _state(
        int, "shuffles", "How many shuffles this match has drawn (the next one's generator)."
    )

    hands = _view(
        _hands, "hands", "Every seat's hand, card ids (read-only: a view made once per command)."
    )

    draw = _view(
        _ints, "draw", "The draw pile, card ids; the top of the pile is the END of the list."
    )

    discard = _view(_ints, "discard", "The discard pile, card ids, bottom to top.")

    side = _live("side")
    color = _live("color")
    current = _live("current")
    direction = _live("direction")
    dealer = _live("dealer")
    phase = _live("phase")
    drawn = _live("drawn")
    color_next = _state(int, "color_next")

    @property
    def color_reason(self) -> str:
        return _REASONS[self._raw()[12]]

    ch_offender = _live("ch_offender")
    ch_legal = _state(bool, "ch_legal")
    ch_card = _state(int, "ch_card")
    ch_after = _state(int, "ch_after")
    ch_after_success = _state(int, "ch_after_success")
    pending = _live("pending")
    stack_class = _state(int, "stack_class")
    stack_amount = _state(int, "stack_amount")

    uno = _view(_ints, "uno")

    uno_pre = _state(int, "uno_pre")
    vulnerable = _live("vulnerable")

    powers = _view(
        _powers, "powers", "Flex: every seat's Power Card (True: green); ``[]`` in other variants."
    )

    scores = _view(_ints, "scores")

    round_no = _live("round_no")
    winner = _live("winner")
    round_points = _live("round_points")

    @property
    def match_winners(self) -> tuple[int, ...]:
        mw: tuple[int, ...] = self._raw()[29]
        return mw

    empty_draws = _state(
        int, "empty_draws", "Consecutive turns without a play or a draw (docs/rules.md D55, D60)."
    )

    wild_top = _state(bool, "wild_top", "The top card counts as a plain Wild (first card, D59).")

    @property
    def reveal(self) -> tuple[int, int, tuple[int, ...]] | None:
        """A hand being shown: (seat shown to, offender, card ids), or None."""
        r: tuple[int, int, tuple[int, ...]] | None = self._raw()[32]
        return r

    # ------------------------------------------------------------------ views

    @property
    def players(self) -> int:
        return self.n

    @property
    def cards(self) -> tuple[Card, ...]:
        """Card objects by id."""
        return self.variant.cards.cards

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s hand as Card objects."""
        cs = self.variant.cards.cards
        return [cs[c] for c in self._g.hand(seat)]

    @property
    def draw_pile(self) -> list[Card]:
        """The draw pile, top first."""
        cs = self.variant.cards.cards
        return [cs[c] for c in reversed(self.draw)]

    @property
    def discard_pile(self) -> list[Card]:
        """The discard pile, bottom to top."""
        cs = self.variant.cards.cards
        return [cs[c] for c in self.discard]

    draw_count = _live("draw_count")

    @property
    def top(self) -> Card | None:
        """The top card of the discard pile (a physical card in Flip)."""
        t = self._g.top
        return None if t < 0 else self.variant.cards.cards[t]

    @property
    def top_face(self) -> Any:
        """The active face of the top card."""
        t = self.top
        return None if t is None else t.face(self.side)

    @property
    def current_color(self) -> Color | None:
        return None if self.color < 0 else Color(self.color)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is (None when the round or match is over)."""
        g = self._g
        if g.phase in (_RO, _MO):
            return None
        return int(g.current)

    @property
    def state(self) -> Phase:
        return _PHASE_OF[self._g.phase]

    def uno_state(self, seat: int) -> UnoState:
        return UnoState(self.uno[seat])

    @property
    def is_over(self) -> bool:
        """True when the match is over."""
        return bool(self._g.phase == _MO)

    def out_of_match(self) -> tuple[int, ...]:
        """The seats out of the match under the house rule ``mercy``
        (docs/rules.md §6): they hold no card while a round is played (in
        ``ROUND_OVER``/``MATCH_OVER``: no card and not the round's winner).
        Derived from the position; always ``()`` when ``mercy`` is off."""
        if not self.options.mercy:
            return ()
        over = self.phase in (_RO, _MO)
        return tuple(
            s for s in range(self.n) if not self.hands[s] and not (over and s == self.winner)
        )

    def hand_value(self, seat: int) -> int:
        """The scoring value of ``seat``'s hand on the current side."""
        pts = self.variant.points[self.side]
        return sum(pts[c] for c in self._g.hand(seat))

    def all_cards(self) -> Counter[int]:
        """Multiset of every card in hands and piles (for conservation checks)."""
        c: Counter[int] = Counter(self.draw)
        c.update(self.discard)
        for h in self.hands:
            c.update(h)
        return c

    # ------------------------------------------------------------------ helpers

    def _next(self, seat: int, steps: int = 1) -> int:
        if self.options.mercy and any(not h for h in self.hands):
            return self._next_in(seat, steps)
        if self.options.shuffleSeats:  # §6.16: around the shuffled table
            order = seating(self.seed, self.n, self.options)
            return order[(order.index(seat) + steps * self.direction) % self.n]
        return (seat + steps * self.direction) % self.n

    def _next_in(self, seat: int, steps: int) -> int:
        """:meth:`_next` passing over the seats out of the match (mercy, §6.12)."""
        out = self.out_of_match()
        if len(out) == self.n:
            return seat
        order = seating(self.seed, self.n, self.options)
        x = order.index(seat)
        d = -self.direction if steps < 0 else self.direction
        k = abs(steps)
        while k:
            x = (x + d) % self.n
            if order[x] not in out:
                k -= 1
        return order[x]

    # ------------------------------------------------------------------ round flow

    # ------------------------------------------------------------------ commands

    def _action_card(self, seat: int, card: Card) -> int:
        try:
            return self.variant.cards.index[card]
        except KeyError:
            raise IllegalActionError(
                f"{card} is not a {self.variant.name} card", codes.ERR_CARD
            ) from None

    def _seat_ok(self, seat: int, command: str) -> None:
        """A seat number the core can be given (its commands read a negative
        seat as "the seat to act"); the core decides everything else."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise refusal(self, codes.ERR_SEAT, command, seat)

    # ---- playability: docs/rules.md D58, decided by the core ------------------------

    def playable(self, seat: int, cid: int, *, strict: bool = False) -> bool:
        """docs/rules.md D58: whether ``seat`` could play card id ``cid`` now on at
        least one of its sides -- the regular side by §1.5 matching, a Flex flex
        side only with a green Power Card (§4.4), a restricted wild-draw side only
        when legal under ``noBluff``, not as the last card when
        ``finishRestriction`` forbids it. ``strict`` (the ``forcedPlay`` test,
        §6.5): a restricted side counts only when legal, whatever ``noBluff``.

        The core's one definition (``uk_playable``) behind the legal moves,
        ``forcedPlay``, ``drawUntilPlayable`` and the PLAY_DRAWN / PASS choice.
        Stacking (a pending draw) is not judged here: only stackable cards
        answer a stack.
        """
        return bool(self._g.playable(seat, cid, strict))

    def holds_match(self, seat: int, color: int, skip_card: int = -1) -> bool:
        """Whether ``seat`` (without one copy of ``skip_card``) holds a card that
        "matches the current colour" ``color`` for restricted wild draws
        (docs/rules.md §1.10; under ``noBluff`` another restricted wild draw
        does not count): the core's ``uk_holds_match``."""
        return bool(self._g.holds_match(seat, color, skip_card, bool(self.options.noBluff)))

    def catch_window(self) -> list[int]:
        """The seats that may catch the vulnerable seat but would otherwise get
        no decision before it acts again: when the vulnerable seat is also the
        seat to act (e.g. two players, a Skip played down to one card without
        calling UNO), every other seat, in order of play; else ``[]``.

        Any other player may catch until the vulnerable player's next turn
        action (docs/rules.md §1.11); adapters that let only one seat act at a time
        (bot loops, RL environments) offer these seats the catch first.

        >>> g = Game.setup("classic", 2, hands=[["RS", "G7"], ["Y2", "B3"]],
        ...                draw=["Y9"], discard=["R5"], color="R", current=0)
        >>> _ = g.apply("P0 PLAY RS")
        >>> g.current, g.vulnerable, g.catch_window()
        (0, 0, [1])
        """
        v = self.vulnerable
        if v < 0 or v != self.current or self.phase >= _RO:
            return []
        return [self._next(v, k) for k in range(1, self.n - len(self.out_of_match()))]

    # ------------------------------------------------------------------ moves

    # ------------------------------------------------------------------ commands (on the C core)

    def _done(self) -> None:
        """After a command the core accepted: the events it recorded go to the log."""
        self.changed = True
        log = self.log
        if log is not None:
            flat = self._g.take_events()
            if flat:
                log.extend(decode_events(self.variant, flat))

    def _command(
        self, err: int, command: str, seat: int = -1, cids: Sequence[int] = (),
        args: dict[str, int] | None = None,
    ) -> None:  # fmt: skip
        """After the core ran ``command``: its events to the log, or (``err``,
        the core's reason code) the refusal in words (nothing changed)."""
        if err:
            raise refusal(self, err, command, seat, cids=cids, **(args or {}))
        self._done()

    def _run_move(
        self, code: int, seat: int, uno: bool, command: str, args: dict[str, int] | None = None
    ) -> None:
        self._command(self._g.apply_move(code, seat, uno), command, seat, (), args)

    def start(self) -> None:
        """Turn the first card and apply the variant's first-card rule
        (docs/rules.md §2.4, §3.7, §4.8). Only in phase ``DEAL`` (positions set up
        before their first card); a new round does this by itself."""
        self._command(self._g.start(), "start")
        if self.commands is not None:
            self.commands.append("START")

    def _new_match(self) -> None:
        self._g.new_match()
        self._done()

    def next_round(self) -> list[ev.Event]:
        """Deal the next round (only in ``ROUND_OVER``)."""
        err = self._g.next_round()
        if err:
            raise refusal(self, err, "next")
        if self.log is not None:
            self.log = []
            self._views = {}
        self._done()
        if self.commands is not None:
            self.commands.append("NEXT")
        return list(self.log) if self.log is not None else []

    def apply(self, action: Action | str) -> list[ev.Event]:
        """Carry out one command (a typed action or its text) and return the
        events it caused. An illegal command raises
        :class:`~unokit.engine.errors.IllegalActionError` (or
        :class:`~unokit.engine.errors.ParseError` for bad text) and changes nothing."""
        known = _KNOWN.get(id(action)) if self._direct else None
        if known is not None and known[0] is action and known[2] == self.variant.name:
            # an action legal_actions made: one call into the core, which decides
            # (the hot path of every search and training loop, with _done written
            # out: measured by benchmarks/speed/bench_face.py --loops)
            g = self._g
            if g.apply_move(known[1], action.seat, False):  # type: ignore[union-attr]
                return self.apply(dataclasses.replace(action))  # words the refusal
            self.changed = True
            log = self.log
            if log is None:
                return self.take_events()  # [] unless record_events() was asked for
            start = len(log)
            flat = g.take_events()
            if flat:
                log.extend(decode_run(self.variant, flat))
            if self.commands is not None:
                self.commands.append(known[3])
            return log[start:]
        if isinstance(action, str):
            action = parse_action(action, self.variant.cards)
        start = len(self.log) if self.log is not None else 0
        if isinstance(action, Play) and action.more:
            self._apply_multi(action)
        elif isinstance(action, Play):
            cid = self._action_card(action.seat, action.card)
            self.play(action.seat, cid, *action.engine_args())
        elif isinstance(action, Draw):
            self.draw_card(action.seat)
        elif isinstance(action, Pass):
            self.keep(action.seat)
        elif isinstance(action, ChooseColor):
            self.choose_color(action.seat, int(action.color))
        elif isinstance(action, Accept):
            self.accept(action.seat)
        elif isinstance(action, Challenge):
            self.challenge(action.seat)
        elif isinstance(action, CallUno):
            if not self.call_uno(action.seat):
                return []  # accepted, changes nothing, is not recorded (D65)
        elif isinstance(action, Catch):
            if not self.catch(action.seat, action.target):
                return []
        elif isinstance(action, NextRound):
            evs = self.next_round()
            return evs if self.log is not None else self.take_events()
        else:  # pragma: no cover - typing guards this
            raise IllegalActionError(f"not a command: {action!r}")
        if self.commands is not None:
            self.commands.append(str(action))
        if self.log is None:
            return self.take_events()  # [] unless record_events() was asked for
        return self.log[start:]

    def play(
        self,
        seat: int,
        cid: int,
        color: int = -1,
        flex: bool = False,
        target: int = -1,
        swap: int = -1,
        uno: bool = False,
        flip_color: int = -1,
    ) -> None:
        """PLAY / PLAY_DRAWN with card id ``cid`` (see :class:`~unokit.engine.actions.Play`)."""
        self._seat_ok(seat, "play")
        if not (isinstance(cid, int) and 0 <= cid < len(self.variant.cards)):
            raise refusal(self, codes.ERR_CARD, "play", seat, cids=(-1,))
        err = self._g.play(seat, cid, color, flex, target, swap, uno, flip_color)
        args = {"color": color, "flex": int(flex), "target": target, "swap": swap}
        self._command(err, "play", seat, (cid,), {**args, "flip_color": flip_color})

    def _apply_multi(self, action: Play) -> None:
        """A :class:`Play` with ``more`` (house rule multiPlay): only number
        cards, so no colour, side, target or flip colour (which the core's
        multi-play cannot even be given)."""
        if (
            action.color is not None
            or action.flex
            or action.target is not None
            or action.flip_color is not None
        ):
            raise refusal(self, codes.ERR_FORM, "play", action.seat)
        cids = [self._action_card(action.seat, c) for c in (action.card, *action.more)]
        swap = -1 if action.swap is None else action.swap
        self.play_multi(action.seat, cids, swap, action.uno)

    def play_multi(self, seat: int, cids: list[int], swap: int = -1, uno: bool = False) -> None:
        """PLAY of several number cards of one number, in order (multiPlay,
        docs/rules.md §6)."""
        self._seat_ok(seat, "play")
        err = self._g.play_multi(seat, cids, swap, uno)
        self._command(err, "play", seat, cids, {"swap": swap})

    def draw_card(self, seat: int) -> None:
        """DRAW: the turn's one card, or the stacked penalty (docs/rules.md §1.6, §6.1)."""
        self._seat_ok(seat, "draw")
        self._run_move(OP_DRAW, seat, False, "draw")

    def keep(self, seat: int) -> None:
        """PASS: keep the playable card just drawn."""
        self._seat_ok(seat, "pass")
        self._run_move(OP_PASS, seat, False, "pass")

    def choose_color(self, seat: int, color: int) -> None:
        """CHOOSE_COLOR in ``AWAIT_COLOR``."""
        self._seat_ok(seat, "color")
        # a value no move code holds goes to the core as colour 14 (not a colour)
        field = color + 1 if isinstance(color, int) and 0 <= color < 15 else 15
        declared = color if isinstance(color, int) else -1
        self._run_move(OP_COLOR | (field << 16), seat, False, "color", {"color": declared})

    def accept(self, seat: int) -> None:
        """ACCEPT a restricted wild draw: take the base penalty, lose the turn."""
        self._seat_ok(seat, "accept")
        self._run_move(OP_ACCEPT, seat, False, "accept")

    def challenge(self, seat: int) -> None:
        """CHALLENGE a restricted wild draw (docs/rules.md §1.10), or the last
        card of a stack."""
        self._seat_ok(seat, "challenge")
        self._run_move(OP_CHALLENGE, seat, False, "challenge")

    def _effect(self, move: int, seat: int, command: str, target: int = -1) -> bool:
        """Carry out an UNO call or a catch; whether it changed anything (one
        that does not is accepted, is not recorded and has no event, D65)."""
        err = self._g.apply_move(move, seat, False)
        if err:
            raise refusal(self, err, command, seat, target=target)
        if not self._g.changed:
            self.changed = False
            return False
        self._done()
        return True

    def call_uno(self, seat: int) -> bool:
        """CALL_UNO: safe with one card; with two on one's own turn, a
        pre-announcement for the next play; otherwise accepted with no effect
        at all (no event, not recorded; docs/rules.md D65). Returns whether it had
        an effect."""
        self._seat_ok(seat, "uno")
        return self._effect(OP_UNO, seat, "uno")

    def catch(self, seat: int, target: int) -> bool:
        """CATCH ``target`` for not calling UNO. A catch of oneself is rejected;
        a catch of a seat that is not vulnerable costs ``falseCatchPenalty``
        cards, and with 0 is accepted with no effect at all (no event, not
        recorded; docs/rules.md D65). Returns whether it had an effect."""
        self._seat_ok(seat, "catch")
        self._seat_ok(target, "catch")
        return self._effect(OP_CATCH | ((target + 1) << 21), seat, "catch", target)

    def apply_move(self, move: int, seat: int | None = None, uno: bool = False) -> None:
        """Carry out a move code for ``seat`` (default: the seat to act) without
        building events objects for the caller; ``uno`` calls UNO with a play.
        Illegal moves raise like :meth:`apply`."""
        s = self.current if seat is None else seat
        op = move & 15 if isinstance(move, int) else -1
        if op == OP_PLAY:
            self.play(
                s,
                (move >> 4) & 0xFFF,
                ((move >> 16) & 15) - 1,
                bool(move & _FLEX_BIT),
                ((move >> 21) & 15) - 1,
                ((move >> 25) & 15) - 1,
                uno,
            )
        elif op == OP_DRAW:
            self.draw_card(s)
        elif op == OP_PASS:
            self.keep(s)
        elif op == OP_COLOR:
            self.choose_color(s, ((move >> 16) & 15) - 1)
        elif op == OP_ACCEPT:
            self.accept(s)
        elif op == OP_CHALLENGE:
            self.challenge(s)
        elif op == OP_UNO:
            self.call_uno(s)
        elif op == OP_CATCH:
            self.catch(s, ((move >> 21) & 15) - 1)
        elif op == OP_NEXT:
            self.next_round()
        elif op == OP_MULTI:
            self._seat_ok(s, "play")
            err = self._g.apply_move(move, s, uno)
            if err:  # the cards the code names, for the words only
                got = multiplay.decode(self.variant, self.side, self.hands[s], move)
                cids, swp = got if got is not None else ([], -1)
                raise refusal(self, err, "play", s, cids=cids, swap=swp, move=move)
            self._done()
        else:
            raise refusal(self, codes.ERR_MOVE, "move", s, move=move)

    # ------------------------------------------------------------------ the core, for fast callers

    def record_events(self, on: bool = True) -> None:
        """Without an event log (``events=False``): keep the events of the
        following commands for :meth:`take_events` (or stop)."""
        if self.log is not None:
            raise ValueError("this game keeps an event log: read game.log")
        self._g.record_events(on)

    def take_events(self) -> list[ev.Event]:
        """The events recorded since the last call (see :meth:`record_events`)."""
        flat = self._g.take_events()
        return decode_events(self.variant, flat) if flat else []

    def attempt_move(self, move: int, seat: int, uno: bool = False) -> int:
        """Carry out move code ``move`` for ``seat``: 0, or the core's error
        code of a refusal (nothing changed; :data:`unokit.engine.codes.ERRORS`)."""
        err = int(self._g.apply_move(move, seat, uno))
        if not err:
            self._done()
        return err

    def attempt_play(
        self, seat: int, cid: int, color: int, flex: bool, target: int, swap: int, uno: bool,
        flip_color: int,
    ) -> int:  # fmt: skip
        """A PLAY with every field (:meth:`play`): 0 or the core's error code."""
        err = int(self._g.play(seat, cid, color, flex, target, swap, uno, flip_color))
        if not err:
            self._done()
        return err

    def attempt_start(self) -> int:
        """Turn the first card: 0 or an error code."""
        err = int(self._g.start())
        if not err:
            self._done()
        return err

    def attempt_next_round(self) -> int:
        """Deal the next round: 0 or an error code."""
        try:
            self.next_round()
        except IllegalActionError as e:
            return e.reason or codes.ERR_PHASE
        return 0

    @property
    def version(self) -> int:
        """The position's version: it moves when (and only when) a command
        changes the position -- not on a refusal, nor on an UNO call or a
        catch accepted without effect (docs/rules.md D65) -- and whenever a
        constructor writes the position. Compare two readings of one game (a
        copy starts at its original's version) to know whether commands
        changed it, without comparing states (docs/engine.md)."""
        return int(self._g.version)

    def hand_ids(self, seat: int) -> list[int]:
        """The card ids in ``seat``'s hand (a fresh list; cheaper than :attr:`hands`)."""
        return self._g.hand(seat)

    def hand_sizes(self) -> list[int]:
        return self._g.hand_sizes()

    def power(self, seat: int) -> bool:
        """Whether ``seat`` holds the Flex power (False outside Flex)."""
        return bool(self._g.power(seat))

    accept_mask = _live("accept_mask", "What the top card accepts (computed by the core).")

    reveal_seat = _live(
        "reveal_seat", "The seat whose hand is being revealed (7-0 / Flex), -1: none."
    )

    def describe(self, move: int, seat: int | None = None) -> str:
        """A move code in the notation of commands (``P1 PLAY R5``)."""
        s = self.current if seat is None else seat
        try:
            action: Action = self.decode(s, move)
        except (ValueError, IndexError):
            return f"code {move}"
        return str(action)

    def playout(self, rnd: Callable[[], float], max_turns: int = 1_000_000) -> int:
        """:func:`unokit.engine.playout.playout` in the core: the random policy,
        calling ``rnd`` exactly as the Python playout does; the turns played."""
        turns = int(self._g.playout(rnd, max_turns))
        self._done()
        return turns

    def playout_random(self, r: random.Random, max_turns: int = 1_000_000) -> int:
        """:meth:`playout` drawing from ``r`` inside C: ``r``'s Mersenne Twister
        state is read, advanced as ``r.random()`` would advance it, and written
        back (worth it for long playouts, e.g. whole matches)."""
        version, state, gauss = r.getstate()
        turns, new = self._g.playout_mt(state, max_turns)
        r.setstate((version, new, gauss))
        self._done()
        return int(turns)

    # ------------------------------------------------------------------ moves (from the core)

    def legal_moves(self, seat: int | None = None) -> list[int]:
        """Like :meth:`legal_actions`, as integer move codes (see :meth:`decode`)."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise IllegalActionError(f"P{seat} is not a seat of this {self.n}-player game")
        g = self._g
        if g.phase >= _RO:
            return []
        return g.legal_moves(-1 if seat is None else seat)

    def turn_moves(self) -> list[int]:
        """The current player's turn decisions as move codes (no UNO or catch)."""
        if self._g.phase >= _RO:
            return []
        return self._g.turn_moves()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal command of ``seat`` (default: the seat to act), as typed
        actions: the turn decisions, plus UNO calls and catches that have an
        effect, plus jump-ins. Wild plays are listed once per colour.

        A fresh list each call; the actions are made once per version of the
        position (and are the same objects for the same move codes)."""
        if not self._direct:
            s = seat if seat is not None else int(self._g.current)
            return self.actions_of(s, self.legal_moves(seat))
        if seat is None:
            return list(self._legal_of(int(self._g.current))[0])
        if not (isinstance(seat, int) and 0 <= seat < self.n):
            raise IllegalActionError(f"P{seat} is not a seat of this {self.n}-player game")
        return list(self._legal_of(seat)[0])

    def _legal_of(self, seat: int) -> tuple[tuple[Action, ...], list[int]]:
        """``seat``'s legal actions and their move codes at the core's current
        version (made once per version and seat; :meth:`apply` knows these
        actions by their codes). ``seat`` must be a seat."""
        g = self._g
        ver = g.version
        if self._lver != ver:
            self._lver = ver
            cache = self._lcache = {}  # a new dict: a copy may share the old one
        else:
            cache = self._lcache
            got = cache.get(seat)
            if got is not None:
                return got
        moves = g.legal_moves(seat)  # [] once the round is over (the core's rule)
        made = _DECODED.get(self.variant.name)
        try:  # every code decoded before (the common case; else actions_of decodes)
            acts = tuple([made[m << 4 | seat] for m in moves])  # type: ignore[index]
        except (KeyError, TypeError):
            acts = tuple(self.actions_of(seat, moves))
        got = cache[seat] = (acts, moves)
        return got

    def actions_of(self, seat: int, moves: Sequence[int]) -> list[Action]:
        """The typed actions of move codes ``moves`` played by ``seat`` (the
        same objects for the same codes: actions are immutable)."""
        s = seat
        made = _DECODED.get(self.variant.name)
        if made is None or len(made) > 100_000:
            made = _DECODED[self.variant.name] = {}
            if len(_KNOWN) > 300_000:
                _KNOWN.clear()
        try:  # every code decoded before (multi-play codes never are)
            return [made[m << 4 | s] for m in moves]
        except KeyError:
            pass
        out = []
        for m in moves:
            if m & 15 == OP_MULTI:  # a multi-play's code names places in the hand
                out.append(self.decode(s, m))
                continue
            a = made.get(m << 4 | s)
            if a is None:
                a = made[m << 4 | s] = self.decode(s, m)
                if isinstance(a, _BY_CODE):
                    _KNOWN[id(a)] = (a, m, self.variant.name, str(a))
            out.append(a)
        return out

    def legal_actions_by_seat(self) -> list[list[Action]]:
        """``legal_actions(seat)`` of every seat, in seat order, with the
        position loaded into the core once (a server showing one state to all
        its seats)."""
        return [self.actions_of(s, ms) for s, ms in enumerate(self.legal_moves_by_seat())]

    def legal_moves_by_seat(self) -> list[list[int]]:
        """``legal_moves(seat)`` of every seat, in seat order, with the
        position loaded into the core once."""
        if self.phase in (_RO, _MO, _DEAL):
            return [[] for _ in range(self.n)]
        g = self._g
        return [g.legal_moves(s) for s in range(self.n)]

    def decode(self, seat: int, move: int) -> Action:
        """The typed action of move code ``move`` played by ``seat``."""
        op = move & 15
        if op == OP_PLAY:
            cid = (move >> 4) & 0xFFF
            col = ((move >> 16) & 15) - 1
            tgt = ((move >> 21) & 15) - 1
            swp = ((move >> 25) & 15) - 1
            return Play(
                seat,
                self.variant.cards.cards[cid],
                color=None if col < 0 else Color(col),
                flex=bool(move & _FLEX_BIT),
                target=None if tgt < 0 else tgt,
                swap=None if swp < 0 else swp,
            )
        if op == OP_DRAW:
            return Draw(seat)
        if op == OP_PASS:
            return Pass(seat)
        if op == OP_COLOR:
            return ChooseColor(seat, Color(((move >> 16) & 15) - 1))
        if op == OP_ACCEPT:
            return Accept(seat)
        if op == OP_CHALLENGE:
            return Challenge(seat)
        if op == OP_UNO:
            return CallUno(seat)
        if op == OP_CATCH:
            return Catch(seat, ((move >> 21) & 15) - 1)
        if op == OP_NEXT:
            return NextRound()
        if op == OP_MULTI:
            got = multiplay.decode(self.variant, self.side, self.hands[seat], move)
            if got is None:
                raise ValueError(f"not a move code of P{seat}: {move}")
            cs = self.variant.cards.cards
            cids, swp = got
            return Play(
                seat, cs[cids[0]], swap=None if swp < 0 else swp,
                more=tuple(cs[c] for c in cids[1:]),
            )  # fmt: skip
        raise ValueError(f"not a move code: {move}")

    def encode(self, action: Action) -> int:
        """The move code of a typed action (inverse of :meth:`decode`)."""
        if isinstance(action, Play) and action.more:
            cids = [self._action_card(action.seat, c) for c in (action.card, *action.more)]
            swap = -1 if action.swap is None else action.swap
            hand = self.hands[action.seat]
            return multiplay.encode(self.variant, self.side, hand, cids, swap)
        if isinstance(action, Play):
            return encode_play(
                self._action_card(action.seat, action.card),
                -1 if action.color is None else int(action.color),
                action.flex,
                -1 if action.target is None else action.target,
                -1 if action.swap is None else action.swap,
            )
        if isinstance(action, ChooseColor):
            return OP_COLOR | ((int(action.color) + 1) << 16)
        if isinstance(action, Catch):
            return OP_CATCH | ((action.target + 1) << 21)
        simple = {
            Draw: OP_DRAW,
            Pass: OP_PASS,
            Accept: OP_ACCEPT,
            Challenge: OP_CHALLENGE,
            CallUno: OP_UNO,
            NextRound: OP_NEXT,
        }
        return simple[type(action)]

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may know (``None``: a spectator); see :mod:`unokit.engine.observation`."""
        return observe(self, seat)

    def is_legal(self, action: Action | str) -> bool:
        """Whether :meth:`apply` would accept ``action`` (the game is not changed:
        the command is tried on a scratch copy of the core's position, with no
        events and no Python game)."""
        try:
            if isinstance(action, str):
                action = parse_action(action, self.variant.cards)
            return self._try(action)
        except (IllegalActionError, ParseError):
            return False

    def _try(self, action: Action) -> bool:
        """Whether the core accepts ``action`` on a scratch copy of the position."""
        g = self._g.copy()
        n = self.n
        if isinstance(action, Play):
            cid = self.variant.cards.index.get(action.card)
            if cid is None or not (isinstance(action.seat, int) and 0 <= action.seat < n):
                return False
            if action.more:  # multiPlay: the same checks as _apply_multi, on the copy
                if action.color is not None or action.flex or action.target is not None:
                    return False
                if action.flip_color is not None:
                    return False
                cids = [self._action_card(action.seat, c) for c in (action.card, *action.more)]
                swap = -1 if action.swap is None else action.swap
                return not g.play_multi(action.seat, cids, swap, action.uno)
            return not g.play(action.seat, cid, *action.engine_args())
        if isinstance(action, NextRound):
            return bool(g.phase == _RO)
        seat = getattr(action, "seat", None)
        if not (isinstance(seat, int) and 0 <= seat < n):
            return False
        if isinstance(action, (CallUno, Catch)) and g.phase >= _RO:
            return False
        if isinstance(action, Catch) and not (
            isinstance(action.target, int) and 0 <= action.target < n and action.target != seat
        ):
            return False
        if isinstance(action, ChooseColor) and not 0 <= int(action.color) < 8:
            return False
        return not g.apply_move(self.encode(action), seat, False)

    # ------------------------------------------------------------------ comparison

    def state_tuple(self) -> tuple[Any, ...]:
        """Everything that defines the game (not the event log), for equality."""
        st = self._raw()
        return (
            (self.variant.name, self.options, self.n, self.seed)
            + st[:12]
            + (_REASONS[st[12]], st[13], bool(st[14]))
            + st[15:24]
            + (st[24] if self.variant.flex else (),)
            + st[25:31]
            + (bool(st[31]), st[32])
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.state_tuple() == other.state_tuple()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        top = self.top
        return (
            f"<Game {self.variant.name} {self.n}p round {self.round_no} "
            f"{Phase(self.phase).name} P{self.current} top={top} "
            f"color={self.current_color} scores={self.scores}>"
        )

    def __str__(self) -> str:
        return render(self)

    def check_invariants(self, initial: Counter[int] | None = None) -> None:
        """Assert the engine invariants of docs/rules.md §8; raise AssertionError if broken."""
        if initial is not None:
            assert self.all_cards() == initial, "card conservation broken"
        ph = self.phase
        if ph not in (_DEAL,):
            assert self.discard, "empty discard pile after the first card"
        if ph == _T:
            cols = self.variant.colors(self.side)
            assert self.color >= 0 and Color(self.color) in cols, "current colour undefined"
        for s in range(self.n):
            if self.uno[s] != _NONE:
                assert len(self.hands[s]) == 1, f"P{s} has a UNO state with {len(self.hands[s])}"
        if ph in (_T, _D, _C, _CH):
            out = self.out_of_match()  # mercy (§6.12): out seats hold no card
            assert all(self.hands[s] for s in range(self.n) if s not in out), (
                "a player with no cards while the round goes on"
            )
            assert self.n - len(out) >= 2, "a round going on with fewer than two players in"
        if self.variant.flex and ph in (_T, _D, _C, _CH):
            assert any(self.powers) or (
                self.options.flexWildAllFlipResetCheck == "skip_after_wild_all_flip"
            ), "all Power Cards red after a play"
        if ph == _D:
            assert self.drawn in self.hands[self.current], "drawn card not in hand"


_new_slots = _core.new_slots
# Game's slot descriptors in Game.__slots__'s order (copy() fills them in one call)
_GAME_MEMBERS = tuple(Game.__dict__[name] for name in Game.__slots__)
