"""The rules core in C (:mod:`unokit._core`), behind a small typed face.

:class:`CoreGame` is one match on the C core: the same move codes as
:meth:`unokit.Game.legal_moves` / :meth:`~unokit.Game.apply_move`, in the same
order, and the same randomness (CPython's Mersenne Twister, reimplemented
bit for bit), so that a ``CoreGame`` and a ``Game`` created with the same
variant, players, options and seed are in the same state after every command
(:meth:`CoreGame.state_tuple` equals :meth:`Game.state_tuple`; the fuzzer checks
this command by command, docs/core.md). Card data is not written in C: the
tables of :mod:`unokit.engine.variants` are handed to the core at construction.

>>> g = CoreGame.new("classic", 3, seed=7)
>>> from unokit import Game
>>> r = Game.new("classic", 3, seed=7, events=False)
>>> g.state_tuple() == r.state_tuple()
True
>>> m = g.legal_moves()[0]; g.apply_move(m); r.apply_move(m)
>>> g.state_tuple() == r.state_tuple()
True

Events are kept on request (:meth:`CoreGame.record_events`): the core writes
integer records and :meth:`CoreGame.take_events` turns them into the
:mod:`unokit.engine.events` objects ``Game.apply`` returns (the fuzzer compares them).
:class:`unokit.Game` keeps notation, records and ``Game.setup``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from unokit import _core
from unokit.engine import events as ev
from unokit.engine.actions import Action, NextRound, Play, parse_action
from unokit.engine.cards import Color
from unokit.engine.errors import IllegalActionError
from unokit.engine.game import Game, check_config
from unokit.engine.options import Options
from unokit.engine.variants import Variant

#: the C core's API version this Python code expects (``UK_ABI`` in
#: ``_core/core.h``): a checkout updated without rebuilding its core gets a
#: clear error here instead of a missing attribute in the middle of a game
CORE_ABI = 5


def check_core_abi(built: int | None) -> None:
    """Raise :class:`ImportError` unless ``built`` is :data:`CORE_ABI`."""
    if built != CORE_ABI:
        raise ImportError(
            f"unokit's C core (unokit._core, API {built}) is older or newer than its Python "
            f"code (API {CORE_ABI}): rebuild it with `make install` or `pip install -e .`"
        )


check_core_abi(getattr(_core, "ABI", None))

__all__ = [
    "CoreGame",
    "core_tables",
    "core_options",
    "simulate_random",
    "decode_events",
    "error_text",
    "core_config",
    "CoreConfig",
]

_REASONS = ("", "first_card", "flip_exposed_wild")
_BASE: dict[str, _core.Tables] = {}
_TABLES: dict[tuple[str, tuple[int, ...]], _core.Tables] = {}
# (variant, options, pairing seed) -> the core's tables and option integers
_MADE: dict[tuple[str, Options, int], tuple[_core.Tables, tuple[int, ...]]] = {}


def core_tables(variant: Variant, options: Options, seed: int = 0) -> _core.Tables:
    """The core's card tables of ``variant`` with the deck in force under
    ``options`` (cached; Flip's ``random_seeded`` pairing has a deck per seed)."""
    deck = variant.deck_ids(options, seed)
    key = (variant.name, deck)
    t = _TABLES.get(key)
    if t is not None:
        return t
    base = _BASE.get(variant.name)
    if base is None:
        v = variant
        flex_color = [
            -1 if c.light.flex_color is None else int(c.light.flex_color) for c in v.cards.cards
        ]
        base = _BASE[variant.name] = _core.Tables(
            len(v.cards), v.two_sided, v.flex, deck, v.color, v.kind, v.number, v.mask,
            v.topkey, v.points, v.draw_amount,
            [[int(x) for x in side] for side in v.restricted],
            v.stack_class, v.ident, v.flexmask, v.cut_value,
            [int(x) for x in v.flip_icon], flex_color,
        )  # fmt: skip
    t = base.with_deck(deck)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[key] = t
    return t


def core_options(o: Options) -> tuple[int, ...]:
    """``o`` as the core's option integers (the order of ``uk_options``, core.h)."""
    fixed = o.dealer_fixed_seat
    return (
        o.targetScore,
        o.scoringMode == "lowest",
        o.matchMode == "single_round",
        o.lowestModeTie == "play_on",
        2 if fixed is not None else (1 if o.dealerSelection == "random" else 0),
        fixed if fixed is not None else 0,
        ("left", "winner", "random").index(o.dealerRotation),
        o.handSize,
        o.unoPenalty,
        o.falseCatchPenalty,
        o.misplayPenalty == "on",
        o.blockedRound == "lowest_hand_wins",
        o.wildDrawWildsCountAsMatch,
        o.flipFirstCardWild == "redraw",
        o.flipFirstCardFlip == "redraw",
        o.flipExposedWildChooser == "next_player",
        o.flipReverseDrawPile,
        o.flipLastCardFlips,
        -1 if o.flipDrawColorCap is None else o.flipDrawColorCap,
        o.flexWildsCountAsMatch,
        o.flexFlexColorsCountAsMatch,
        o.flexWildAllFlipResetCheck == "skip_after_wild_all_flip",
        o.flexFlexSideWD4Restricted,
        o.flexFirstCardIgnored == "return_to_deck",
        ("off", "same_symbol", "escalate").index(o.stacking),
        o.jumpIn,
        o.seven_swap,
        o.drawUntilPlayable,
        o.forcedPlay,
        o.noBluff,
        # RULES.md §6.7-§6.15 (uk_options, appended)
        ("off", "reverse", "skip", "both").index(o.deflect),
        o.zero_rotate,
        ("off", "no_action", "no_wild", "no_action_no_wild").index(o.finishRestriction),
        o.handLimit,
        o.wildDrawChallenge == "off",
        o.must_play_drawn,
        o.teams == "pairs",
        o.shuffleSeats,
        o.mercy,  # §6.12
        o.multiPlay == "same_number",  # §6.9
    )


_DRAW_REASONS = ("draw", "penalty", "challenge", "catch", "stack", "misplay", "false_catch")
_TURN_REASONS = ("start", "ignored", "returned")


def decode_events(variant: Variant, flat: list[int]) -> list[ev.Event]:
    """The event objects of the core's records ``[type, length, payload...]``."""
    cards = variant.cards.cards
    out: list[ev.Event] = []
    i = 0
    while i < len(flat):
        t, n = flat[i], flat[i + 1]
        p = flat[i + 2 : i + 2 + n]
        i += 2 + n
        e: ev.Event
        if t == 0:
            e = ev.RoundStarted(p[0], p[1], tuple(p[3 : 3 + p[2]]))
        elif t == 1:
            e = ev.CardTurned(cards[p[0]], _TURN_REASONS[p[1]])
        elif t == 2:
            e = ev.Played(
                p[0], cards[p[1]], None if p[2] < 0 else Color(p[2]), bool(p[3]),
                None if p[4] < 0 else p[4], bool(p[5]),
            )  # fmt: skip
        elif t == 3:
            drawn = tuple(cards[c] for c in p[4 : 4 + p[3]])
            backs = tuple(c.face(1 - p[2]) for c in drawn) if variant.two_sided else None
            e = ev.Drew(p[0], p[3], drawn, backs, _DRAW_REASONS[p[1]])
        elif t == 4:
            e = ev.Passed(p[0])
        elif t == 5:
            e = ev.ColorChosen(p[0], Color(p[1]))
        elif t == 6:
            e = ev.Accepted(p[0])
        elif t == 7:
            e = ev.Challenged(p[0], p[1], bool(p[2]), tuple(cards[c] for c in p[4 : 4 + p[3]]))
        elif t == 8:
            e = ev.UnoCalled(p[0])
        elif t == 9:
            e = ev.Caught(p[0], p[1], bool(p[2]))
        elif t == 10:
            e = ev.Skipped(p[0])
        elif t == 11:
            e = ev.Reversed(p[0])
        elif t == 12:
            e = ev.Flipped(p[0], cards[p[1]])
        elif t == 13:
            e = ev.Reshuffled(p[0])
        elif t == 14:
            e = ev.PowersChanged(tuple(bool(x) for x in p[1 : 1 + p[0]]))
        elif t == 15:
            k = p[0]
            e = ev.HandsSwapped(tuple(p[1 : 1 + k]), tuple(p[1 + k : 1 + 2 * k]))
        elif t == 16:
            e = ev.Misplayed(p[0], cards[p[1]])
        elif t == 17:
            k = p[2]
            e = ev.RoundEnded(
                None if p[0] < 0 else p[0], p[1], tuple(p[3 : 3 + k]), tuple(p[3 + k : 3 + 2 * k])
            )
        elif t == 18:
            k = p[0]
            e = ev.MatchEnded(tuple(p[1 : 1 + k]), tuple(p[2 + k : 2 + k + p[1 + k]]))
        elif t == 19:
            e = ev.Eliminated(p[0], p[1])
        else:  # pragma: no cover - the core writes only the types above
            raise ValueError(f"unknown event record type {t}")
        out.append(e)
    return out


CoreConfig = tuple[_core.Tables, tuple[int, ...]]


def core_config(variant: Variant, options: Options, seed: int = 0) -> CoreConfig:
    """The core's card tables and option integers of a match (cached per
    variant and options; Flip's ``random_seeded`` pairing per seed)."""
    key = (variant.name, options, seed if options.flipPairing == "random_seeded" else 0)
    made = _MADE.get(key)
    if made is None:
        made = (core_tables(variant, options, seed), core_options(options))
        if len(_MADE) > 256:
            _MADE.clear()
        _MADE[key] = made
    return made


class CoreGame:
    """One match on the C core. Read the state through the properties; change
    it only with :meth:`apply_move` and :meth:`next_round`."""

    __slots__ = ("variant", "options", "n", "seed", "_g")

    def __init__(
        self, variant: Variant, options: Options, players: int, seed: int,
        made: CoreConfig | None = None,
    ) -> None:  # fmt: skip
        """An empty table (phase ``DEAL``); use :meth:`new` or :meth:`from_game`.
        ``made``: :func:`core_config` of the same variant, options and seed
        (callers that load many positions keep it)."""
        self.variant = variant
        self.options = options
        self.n = players
        self.seed = seed
        if made is None:
            made = core_config(variant, options, seed)
        self._g = _core.Game(made[0], made[1], players, seed & 0xFFFFFFFFFFFF)

    @classmethod
    def new(
        cls,
        variant: str | Variant,
        players: int,
        options: Options | dict[str, Any] | None = None,
        seed: int = 0,
        *,
        events: bool = False,
    ) -> CoreGame:
        """Start a match like :meth:`unokit.Game.new` (same checks, same deal);
        ``events``: record events from the deal on (:meth:`take_events`)."""
        v, opts = check_config(variant, players, options, seed)
        g = cls(v, opts, players, seed)
        if events:
            g._g.record_events(True)
        g._g.new_match()
        return g

    @classmethod
    def from_game(cls, game: Game, made: CoreConfig | None = None) -> CoreGame:
        """The position of ``game`` on the core (its event log is not carried);
        ``made``: :func:`core_config` of the game's variant, options and seed."""
        g = cls(game.variant, game.options, game.n, game.seed, made)
        g._g.set_state(
            (
                game.shuffles, game.hands, game.draw, game.discard, game.side, game.color,
                game.current, game.direction, game.dealer, game.phase, game.drawn,
                game.color_next, _REASONS.index(game.color_reason), game.ch_offender,
                game.ch_legal, game.ch_card, game.ch_after, game.ch_after_success, game.pending,
                game.stack_class, game.stack_amount, game.uno, game.uno_pre, game.vulnerable,
                game.powers, game.scores, game.round_no, game.winner, game.round_points,
                game.match_winners, game.empty_draws, game.wild_top, game.reveal,
            )
        )  # fmt: skip
        return g

    def to_game(self) -> Game:
        """This position as an :class:`unokit.Game` (without events)."""
        g = Game(self.variant, self.n, self.options, self.seed, events=False)
        self.store(g)
        return g

    def store(self, g: Game) -> None:
        """Write this position into ``g``, a Game of the same match (its event
        log and command list are left as they are)."""
        (
            g.shuffles, hands, draw, discard, g.side, g.color, g.current, g.direction,
            g.dealer, g.phase, g.drawn, g.color_next, reason, g.ch_offender, ch_legal,
            g.ch_card, g.ch_after, g.ch_after_success, g.pending, g.stack_class,
            g.stack_amount, uno, g.uno_pre, g.vulnerable, powers, scores, g.round_no,
            g.winner, g.round_points, g.match_winners, g.empty_draws, wild_top, g.reveal,
        ) = self._g.state()  # fmt: skip
        g.hands = [list(h) for h in hands]
        g.draw, g.discard = list(draw), list(discard)
        g.color_reason = _REASONS[reason]
        g.ch_legal = bool(ch_legal)
        g.uno = list(uno)
        g.powers = list(powers) if self.variant.flex else []
        g.scores = list(scores)
        g.wild_top = bool(wild_top)

    def record_events(self, on: bool = True) -> None:
        """Record events from now on (or stop); a copy records none until asked."""
        self._g.record_events(on)

    def take_events(self) -> list[ev.Event]:
        """The events since the last call (a new round starts the list again,
        as ``Game``'s log does), as :mod:`unokit.engine.events` objects."""
        return decode_events(self.variant, self._g.take_events())

    def copy(self) -> CoreGame:
        c = CoreGame.__new__(CoreGame)
        c.variant, c.options, c.n, c.seed = self.variant, self.options, self.n, self.seed
        c._g = self._g.copy()
        return c

    # ------------------------------------------------------------------ commands

    def legal_moves(self, seat: int | None = None) -> list[int]:
        """:meth:`unokit.Game.legal_moves`: the same codes in the same order."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise IllegalActionError(f"P{seat} is not a seat of this {self.n}-player game")
        return self._g.legal_moves(-1 if seat is None else seat)

    def turn_moves(self) -> list[int]:
        return self._g.turn_moves()

    def apply_move(self, move: int, seat: int | None = None, uno: bool = False) -> None:
        """:meth:`unokit.Game.apply_move`: a refused move raises
        :class:`~unokit.engine.errors.IllegalActionError` and changes nothing."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise IllegalActionError(f"P{seat} is not a seat of this {self.n}-player game")
        err = self._g.apply_move(move, -1 if seat is None else seat, uno)
        if err:
            raise IllegalActionError(f"{_core.error_text(err)} (move {self.describe(move, seat)})")

    def attempt_move(self, move: int, seat: int, uno: bool = False) -> int:
        """Carry out move code ``move`` for ``seat``: 0, or the core's error
        code of a refusal (nothing changed; :func:`error_text`). The face
        :class:`unokit.Game` words its own refusals."""
        return int(self._g.apply_move(move, seat, uno))

    def attempt_play(
        self, seat: int, cid: int, color: int, flex: bool, target: int, swap: int, uno: bool,
        flip_color: int,
    ) -> int:  # fmt: skip
        """A PLAY with every field (:meth:`unokit.Game.play`): 0 or an error code."""
        return int(self._g.play(seat, cid, color, flex, target, swap, uno, flip_color))

    def attempt_multi(self, seat: int, cids: list[int], swap: int, uno: bool) -> int:
        """A PLAY of several number cards (multiPlay): 0 or an error code."""
        return int(self._g.play_multi(seat, cids, swap, uno))

    def attempt_start(self) -> int:
        """Turn the first card: 0 or an error code."""
        return int(self._g.start())

    def attempt_next_round(self) -> int:
        """Deal the next round: 0 or an error code."""
        return int(self._g.next_round())

    def fingerprint(self) -> tuple[Any, ...]:
        """The raw state (for "did this command change anything")."""
        return tuple(self._g.state())

    def apply(self, action: Action | str) -> list[ev.Event]:
        """A typed action or its text, like :meth:`unokit.Game.apply`: the events
        it caused (while :meth:`record_events` is on, else ``[]``); a refused
        command raises and changes nothing."""
        if isinstance(action, str):
            action = parse_action(action, self.variant.cards)
        if isinstance(action, NextRound):
            self.next_round()
            return self.take_events()
        if isinstance(action, Play) and action.more:  # multiPlay
            cids = [self.variant.cards.index.get(c) for c in (action.card, *action.more)]
            if None in cids:
                raise IllegalActionError(f"{action} names a card not of {self.variant.name}")
            color, flex, target, swap, uno, flip = action.engine_args()
            if color >= 0 or flex or target >= 0 or flip >= 0:
                err = 6  # UK_ERR_FORM: number cards take no colour, side or target
            else:
                err = self._g.play_multi(action.seat, cids, swap, uno)  # type: ignore[arg-type]
        elif isinstance(action, Play):
            cid = self.variant.cards.index.get(action.card)
            if cid is None:
                raise IllegalActionError(f"{action.card} is not a {self.variant.name} card")
            err = self._g.play(action.seat, cid, *action.engine_args())
        else:
            seat = getattr(action, "seat", -1)
            if not (isinstance(seat, int) and 0 <= seat < self.n):
                raise IllegalActionError(f"P{seat} is not a seat of this {self.n}-player game")
            target = getattr(action, "target", 0)
            if not (isinstance(target, int) and 0 <= target < self.n):
                raise IllegalActionError(f"P{target} is not a seat of this {self.n}-player game")
            err = self._g.apply_move(_DECODER.encode(self.variant, action), seat)
        if err:
            raise IllegalActionError(f"{_core.error_text(err)} ({action})")
        return self.take_events()

    def start(self) -> None:
        """Turn the first card of a set-up position (phase ``DEAL``)."""
        err = self._g.start()
        if err:
            raise IllegalActionError(_core.error_text(err))

    def next_round(self) -> None:
        err = self._g.next_round()
        if err:
            raise IllegalActionError("the next round can only be dealt when a round is over")

    def describe(self, move: int, seat: int | None = None) -> str:
        """A move code in the notation of commands (``P1 PLAY R5``)."""
        s = self.current if seat is None else seat
        try:
            action: Action = _DECODER.decode(self.variant, s, move)
        except (ValueError, IndexError):
            return f"code {move}"
        return str(action)

    def playout(self, rnd: Callable[[], float], max_turns: int = 1_000_000) -> int:
        """:func:`unokit.engine.playout.playout` on the core: the random policy, calling
        ``rnd`` exactly as the Python playout does (a round needs a few dozen
        calls: cheaper than moving a ``random.Random``'s state in and out)."""
        return int(self._g.playout(rnd, max_turns))

    def playout_random(self, r: random.Random, max_turns: int = 1_000_000) -> int:
        """:meth:`playout` drawing from ``r`` inside C: ``r``'s Mersenne Twister
        state is read, advanced as ``r.random()`` would advance it, and written
        back (worth it for long playouts, e.g. whole matches)."""
        version, state, gauss = r.getstate()
        turns, new = self._g.playout_mt(state, max_turns)
        r.setstate((version, new, gauss))
        return int(turns)

    # ------------------------------------------------------------------ state

    def state_tuple(self) -> tuple[Any, ...]:
        """Comparable with :meth:`unokit.Game.state_tuple`."""
        st = self._g.state()
        reveal = st[32]
        return (
            (self.variant.name, self.options, self.n, self.seed)
            + st[:12]
            + (_REASONS[st[12]], st[13], bool(st[14]))
            + st[15:24]
            + (st[24] if self.variant.flex else (),)
            + st[25:31]
            + (bool(st[31]), reveal)
        )

    @property
    def phase(self) -> int:
        return int(self._g.phase)

    @property
    def current(self) -> int:
        return int(self._g.current)

    @property
    def side(self) -> int:
        return int(self._g.side)

    @property
    def color(self) -> int:
        return int(self._g.color)

    @property
    def direction(self) -> int:
        return int(self._g.direction)

    @property
    def dealer(self) -> int:
        return int(self._g.dealer)

    @property
    def drawn(self) -> int:
        return int(self._g.drawn)

    @property
    def pending(self) -> int:
        return int(self._g.pending)

    @property
    def vulnerable(self) -> int:
        return int(self._g.vulnerable)

    @property
    def winner(self) -> int:
        return int(self._g.winner)

    @property
    def round_no(self) -> int:
        return int(self._g.round_no)

    @property
    def round_points(self) -> int:
        return int(self._g.round_points)

    @property
    def draw_count(self) -> int:
        return int(self._g.draw_count)

    @property
    def ch_offender(self) -> int:
        return int(self._g.ch_offender)

    @property
    def reveal_seat(self) -> int:
        """The seat whose hand is being revealed (7-0 / Flex), -1: none."""
        return int(self._g.reveal_seat)

    @property
    def accept_mask(self) -> int:
        """What the top card accepts (``Game._accept_mask``, computed by the core)."""
        return int(self._g.accept_mask)

    def hand_ids(self, seat: int) -> list[int]:
        """The card ids in ``seat``'s hand (a fresh list; cheaper than :attr:`hands`)."""
        return self._g.hand(seat)

    def hand_sizes(self) -> list[int]:
        return self._g.hand_sizes()

    def power(self, seat: int) -> bool:
        """Whether ``seat`` holds the Flex power (False outside Flex)."""
        return bool(self._g.power(seat))

    @property
    def hands(self) -> list[list[int]]:
        return [list(h) for h in self._g.state()[1]]

    @property
    def draw(self) -> list[int]:
        """The draw pile (top of the pile is the end of the list)."""
        return list(self._g.state()[2])

    @property
    def discard(self) -> list[int]:
        return list(self._g.state()[3])

    @property
    def scores(self) -> list[int]:
        return list(self._g.state()[25])

    @property
    def match_winners(self) -> tuple[int, ...]:
        return tuple(self._g.state()[29])

    @property
    def uno(self) -> list[int]:
        return list(self._g.state()[21])

    @property
    def powers(self) -> list[bool]:
        return list(self._g.state()[24]) if self.variant.flex else []

    def __repr__(self) -> str:
        return (
            f"<CoreGame {self.variant.name} {self.n}p round {self.round_no} "
            f"phase {self.phase} P{self.current}>"
        )


class _Decoder:
    """Move codes to typed actions and back through an empty Game of the variant."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}

    def _game(self, variant: Variant) -> Game:
        g = self._games.get(variant.name)
        if g is None:
            g = self._games[variant.name] = Game(variant, 2, None, 0, events=False)
        return g

    def decode(self, variant: Variant, seat: int, move: int) -> Action:
        return self._game(variant).decode(seat, move)

    def encode(self, variant: Variant, action: Action) -> int:
        return self._game(variant).encode(action)


_DECODER = _Decoder()


def error_text(code: int) -> str:
    """The text of a core error code."""
    return str(_core.error_text(code))


def simulate_random(
    variant: Variant, players: int, options: Options, seed: int, games: int, match: bool
) -> tuple[int, int, int, list[int], list[int]] | None:
    """Games ``seed`` .. ``seed + games - 1`` of :func:`unokit.bots.sim.simulate` with
    every seat the ``random`` bot, played in C: ``(rounds, turns, blocked,
    wins, points)``, the same tally as the Python path; None when the seeds do
    not fit the core's 64-bit loop (the caller plays them one by one)."""
    if not (-(2**62) < seed and seed + games < 2**62):
        return None
    if variant.two_sided and options.flipPairing == "random_seeded":
        return None  # a deck per game seed: one table each, the caller's loop
    tables = core_tables(variant, options, seed)
    rounds, turns, blocked, wins, points = _core.simulate(
        tables, core_options(options), players, seed, games, match
    )
    return int(rounds), int(turns), int(blocked), list(wins), list(points)
