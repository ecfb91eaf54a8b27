"""The C core's inputs and outputs: card tables, option integers, event records.

:class:`unokit.Game` holds one position of the C core (:mod:`unokit._core`)
for its whole life; this module makes what the core is built from (the card
tables of :mod:`unokit.engine.variants`, the options as integers) and turns the
core's integer event records into :mod:`unokit.engine.events` objects.
"""

from __future__ import annotations

from collections.abc import Sequence

from unokit import _core
from unokit.engine import events as ev
from unokit.engine.cards import Color
from unokit.engine.codes import DRAW_REASONS, TURN_REASONS
from unokit.engine.options import Options
from unokit.engine.variants import Variant

#: the C core's API version this Python code expects (``UK_ABI`` in
#: ``_core/core.h``): a checkout updated without rebuilding its core gets a
#: clear error here instead of a missing attribute in the middle of a game
CORE_ABI = 8


def check_core_abi(built: int | None) -> None:
    """Raise :class:`ImportError` unless ``built`` is :data:`CORE_ABI`."""
    if built != CORE_ABI:
        raise ImportError(
            f"unokit's C core (unokit._core, API {built}) is older or newer than its Python "
            f"code (API {CORE_ABI}): rebuild it with `make install` or `pip install -e .`"
        )


check_core_abi(getattr(_core, "ABI", None))

__all__ = [
    "CORE_ABI",
    "check_core_abi",
    "core_tables",
    "core_options",
    "simulate_random",
    "decode_events",
    "decode_run",
    "error_text",
    "core_config",
    "CoreConfig",
]

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


# events by variant and record: events are immutable, and most records recur
# (the same seat draws, passes, plays the same card), so a record is decoded once.
# RoundStarted is always made anew: a round's first event is its own object
# (web/room.py knows a history by the identity of its first event)
_EVENTS: dict[str, dict[tuple[int, ...], ev.Event]] = {}


_RUNS: dict[str, dict[tuple[int, ...], tuple[ev.Event, ...]]] = {}


def decode_events(variant: Variant, flat: list[int]) -> list[ev.Event]:
    """The event objects of the core's records ``[type, length, payload...]``."""
    return list(decode_run(variant, flat))


def decode_run(variant: Variant, flat: list[int]) -> Sequence[ev.Event]:
    """:func:`decode_events` as a sequence that may be shared (not to be
    changed: a caller that keeps it copies it)."""
    # the events of one command's records, whole (the commonest case: one lookup)
    key = tuple(flat)
    runs = _RUNS.get(variant.name)
    if runs is not None:
        run = runs.get(key)
        if run is not None:
            return run
    if runs is None or len(runs) > 50_000:
        runs = _RUNS[variant.name] = {}
    memo = _EVENTS.get(variant.name)
    if memo is None or len(memo) > 50_000:
        memo = _EVENTS[variant.name] = {}
    fresh = False
    out: list[ev.Event] = []
    i = 0
    end = len(flat)
    while i < end:
        j = i + 2 + flat[i + 1]
        record = tuple(flat[i:j])
        e = memo.get(record)
        if e is None:
            e = _decode_one(variant, record)
            if record[0]:  # not RoundStarted
                memo[record] = e
            else:
                fresh = True
        out.append(e)
        i = j
    if not fresh:
        runs[key] = tuple(out)
    return out


def _decode_one(variant: Variant, record: tuple[int, ...]) -> ev.Event:
    """The event of one record ``(type, length, payload...)``."""
    cards = variant.cards.cards
    t = record[0]
    p = record[2:]
    e: ev.Event
    if t == 0:
        e = ev.RoundStarted(p[0], p[1], tuple(p[3 : 3 + p[2]]))
    elif t == 1:
        e = ev.CardTurned(cards[p[0]], TURN_REASONS[p[1]])
    elif t == 2:
        e = ev.Played(
            p[0], cards[p[1]], None if p[2] < 0 else Color(p[2]), bool(p[3]),
            None if p[4] < 0 else p[4], bool(p[5]),
        )  # fmt: skip
    elif t == 3:
        drawn = tuple(cards[c] for c in p[4 : 4 + p[3]])
        backs = tuple(c.face(1 - p[2]) for c in drawn) if variant.two_sided else None
        e = ev.Drew(p[0], p[3], drawn, backs, DRAW_REASONS[p[1]])
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
    return e


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


def error_text(code: int) -> str:
    """The name of a core reason code without a position to word it in
    (``"NO_MATCH"``; :func:`unokit.engine.refusals.refusal` words a refusal)."""
    from unokit.engine.refusals import reason_name

    return reason_name(code)


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
