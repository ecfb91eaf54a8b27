"""A rules fuzzer: seeded random matches over every variant, player count,
option of docs/rules.md Appendix C and valid ``handSize``, played through the public
API and checked after every command.

Each match is reproducible from one integer seed (``python -m unokit.testing.fuzz
--replay SEED``): the seed chooses the configuration (variant, players, a
random combination of options, a random valid ``handSize``), the game's own
seed and every random choice of the players.

Checked (a failed check is a :class:`Failure` naming the seed):

* after every accepted command, the engine invariants of docs/rules.md §8 through
  ``Game.check_invariants`` (card conservation first) *and* again through the
  public API: UNO states, colours, empty hands, Power Cards, scores that change
  only at round end, a legal turn action for the seat to act;
* at every round start (D59, §8.11): the whole deck is in play and each hand
  was dealt exactly ``handSize`` cards (cards drawn by a first-card Draw Two
  aside);
* every listed legal action (all of them, or a sample on long lists) is
  accepted on a copy of the game and keeps the invariants; sampled commands
  that are not legal (wrong seat, card not held, bad colour, side, target...)
  are rejected and leave the state exactly as it was;
* rounds end (§8.10, D60): a round longer than ``round_limit`` commands fails;
* a watchdog: a command, a deal or ``Game.new`` that takes longer than
  ``command_seconds`` is a hang and fails (``SIGALRM`` interrupts it);
* the C core (``--core``, :func:`core_match`): :class:`unokit.Game`
  and ``Game`` (the reference) play the same commands, legal or not, over
  whole matches; after every command both have the same ``state_tuple``, list
  the same legal moves in the same order and refuse the same commands;
* differential checks: the fast paths that re-implement rules agree with
  ``Game`` command by command -- the random playout (:mod:`unokit.engine.playout`),
  the sensible rollout (:mod:`unokit.bots.rollout`; the greedy one draws its
  random numbers in its own order, so it is only checked for legality) and the
  batched environment of every variant under the match's options
  (:func:`unokit.envs.differential.vector_differential`).

>>> stats = run(matches=2, seed=1)
>>> stats.matches, stats.failures
(2, [])
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

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
)
from unokit.engine.cards import Color
from unokit.engine.errors import UnoError
from unokit.engine.game import Game, Phase, max_hand_size
from unokit.engine.options import NOT_YET_PLAYED, OPTION_CHOICES, Options, seating
from unokit.engine.refusals import reason_name
from unokit.engine.variants import get_variant
from unokit.testing.reference import ReferenceGame

__all__ = [
    "FuzzConfig",
    "Failure",
    "FuzzStats",
    "Hang",
    "random_config",
    "fuzz_match",
    "core_match",
    "run",
    "run_core",
    "main",
]

VARIANTS = ("classic", "flip", "flex")
LIGHT = (Color.R, Color.Y, Color.G, Color.B)
DARK = (Color.Pk, Color.Tl, Color.Or, Color.Pu)
#: a round with the fuzzing policy ends far sooner (D60); more is a failure
ROUND_LIMIT = 5000
#: a command (or a deal) that takes longer is a hang
COMMAND_SECONDS = 5.0


class Hang(Exception):
    """Raised by the watchdog inside a command that ran too long."""


@dataclass(frozen=True)
class FuzzConfig:
    """What one match plays: everything follows from ``seed``."""

    seed: int
    variant: str
    players: int
    options: dict[str, Any]

    def describe(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.variant} {self.players}p {opts}".strip()


@dataclass(frozen=True)
class Failure:
    """A broken check, with everything needed to reproduce it."""

    seed: int
    config: str
    round: int
    command: int
    message: str

    def line(self) -> str:
        return (
            f"FAIL seed={self.seed} round={self.round} command={self.command}: {self.message}\n"
            f"     config: {self.config}\n"
            f"     replay: python -m unokit.testing.fuzz --replay {self.seed}"
        )


@dataclass
class FuzzStats:
    """Totals of a fuzzing run."""

    matches: int = 0
    rounds: int = 0
    commands: int = 0  # commands played in the matches (each checked after)
    legal_checked: int = 0  # listed legal actions tried on a copy
    illegal_checked: int = 0  # commands that had to be rejected
    differential: int = 0  # commands compared against a fast path (or the C core)
    compared_with: str = "the fast paths"
    seconds: float = 0.0
    variants: Counter[str] = field(default_factory=Counter)
    options_seen: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)

    def add(self, other: FuzzStats) -> None:
        self.matches += other.matches
        self.rounds += other.rounds
        self.commands += other.commands
        self.legal_checked += other.legal_checked
        self.illegal_checked += other.illegal_checked
        self.differential += other.differential
        self.compared_with = other.compared_with
        self.variants.update(other.variants)
        self.options_seen.update(other.options_seen)
        self.failures += other.failures

    def summary(self) -> str:
        rate = self.commands / self.seconds if self.seconds else 0.0
        return (
            f"{self.matches} matches, {self.rounds} rounds, {self.commands} commands checked "
            f"({self.legal_checked} legal actions tried, {self.illegal_checked} illegal "
            f"commands rejected, {self.differential} compared with {self.compared_with}) in "
            f"{self.seconds:.1f} s ({rate:.0f} commands/s); "
            f"variants {dict(sorted(self.variants.items()))}; "
            f"{len(self.failures)} failure(s)"
        )


# ---------------------------------------------------------------------------- configurations


def _option_values(variant: str, players: int) -> dict[str, list[Any]]:
    """Every option of Appendix C with values worth trying (all of a choice)."""
    values: dict[str, list[Any]] = {name: list(choices) for name, choices in OPTION_CHOICES.items()}
    values |= {
        "targetScore": [1, 30, 200, 500],
        "dealerSelection": ["cut", "random", "fixed", f"fixed:{players - 1}"],
        "unoPenalty": [0, 1, 2, 4],
        "falseCatchPenalty": [0, 1, 2],
        "flipDrawColorCap": [None, 1, 3, 6],
        "flexDeck": ["default_v1"],
        "flexActionCardsHaveFlexColor": [False],  # true is refused (D66)
        "handLimit": [0],  # chosen with handSize (random_config)
        "mercy": [0],  # chosen with handSize (random_config)
    }
    # house rules the engine refuses (not played yet) stay at their default
    values |= {name: [default] for name, default in NOT_YET_PLAYED.items()}
    for f in dataclasses.fields(Options):
        if f.name not in values and f.name != "handSize":
            values[f.name] = [False, True]
    return values


def random_config(seed: int) -> FuzzConfig:
    """The configuration of match ``seed``: a variant, a player count, a random
    combination of options (each option of Appendix C present with probability
    1/2, at a random value; options of the other variants included) and a
    random valid ``handSize``."""
    r = random.Random(seed * 7919 + 17)
    variant = r.choice(VARIANTS)
    v = get_variant(variant)
    players = r.randint(v.min_players, v.max_players)
    options: dict[str, Any] = {}
    for name, choices in _option_values(variant, players).items():
        if r.random() < 0.5:
            options[name] = r.choice(choices)
    if options.get("teams") == "pairs" and (players < 4 or players % 2):
        del options["teams"]  # pairs need an even number of players, 4 or more (§6.13)
    if options.get("noBluff") and options.get("wildDrawChallenge") == "off":
        del options["noBluff" if r.random() < 0.5 else "wildDrawChallenge"]  # refused (§6.14)
    top = max_hand_size(variant, players, options)
    x = r.random()
    if x < 0.4:
        hand = min(7, top)
    elif x < 0.6:
        hand = top  # the largest deal: first-card and reshuffle corner cases
    else:
        hand = r.randint(1, top)
    options["handSize"] = hand
    # handLimit (RULES.md §6.11) is handSize + 1 or more: tight limits most often
    if r.random() < 0.3:
        options["handLimit"] = hand + r.choice([1, 1, 2, 3, 5, 10])
    # mercy (RULES.md §6.12) is handSize + 1 or more, and not above a handLimit
    if r.random() < 0.3:
        mercy = hand + r.choice([1, 2, 3, 5, 10, 18])
        if options.get("handLimit", 0) and options["handLimit"] < mercy:
            mercy = options["handLimit"]
        options["mercy"] = mercy
    return FuzzConfig(seed, variant, players, options)


# ---------------------------------------------------------------------------- the watchdog


@contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block if it runs longer than ``seconds``
    (SIGALRM; a no-op where signals are not available, e.g. off the main thread)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable or seconds <= 0:
        yield
        return

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------- checks


class _Broken(Exception):
    pass


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise _Broken(message)


def _deck_size(g: Game) -> int:
    return len(g.variant.deck_ids(g.options, g.seed))


def _check_deal(g: Game) -> None:
    """docs/rules.md D59, §8.1, §8.11 at a round start (``g`` keeps its event log)."""
    size = g.options.handSize
    _check(
        sum(g.all_cards().values()) == _deck_size(g), "the round does not start with the whole deck"
    )
    assert g.log is not None
    started = [e for e in g.log if isinstance(e, ev.RoundStarted)]
    _check(len(started) == 1, "no RoundStarted event at the round start")
    # mercy (RULES.md §6.12): a seat out of the match is dealt nothing; a first
    # card's draw may put one more out before this check
    sizes = started[0].hand_sizes
    out_before = {s for s in range(g.n) if sizes[s] == 0}
    gone = {e.seat for e in g.log if isinstance(e, ev.Eliminated)}
    _check(
        all(k in (0, size) for k in sizes) and out_before <= set(g.out_of_match()),
        f"dealt {sizes}, not {size} cards each (out: {sorted(g.out_of_match())})",
    )
    _check(not out_before or g.options.mercy > 0, "a seat dealt nothing without mercy")
    want = [0 if s in out_before else size for s in range(g.n)]
    extra = [0] * g.n
    for e in g.log:
        if isinstance(e, ev.Drew):
            extra[e.seat] += e.count
    dealt = [len(g.hand(s)) - extra[s] if s not in gone else want[s] for s in range(g.n)]
    _check(dealt == want, f"hands hold {dealt} dealt cards, not {size} each")
    if g.variant.flex:
        _check(all(g.powers), "a Power Card is red at the round start")


def _check_public(g: Game, initial: Counter[int], scores: list[int]) -> None:
    """docs/rules.md §8 through the public API (not trusting ``check_invariants``)."""
    n = g.players
    _check(g.all_cards() == initial, "card conservation broken")
    for s in range(n):
        if g.uno_state(s).name != "NONE":
            _check(len(g.hand(s)) == 1, f"P{s} has a UNO state with {len(g.hand(s))} cards")
    _check(bool(g.discard_pile), "empty discard pile")
    out = set(g.out_of_match())  # mercy (RULES.md §6.12)
    if g.state in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        empty = [s for s in range(n) if not g.hand(s) and s not in out]
        order = seating(g.seed, n, g.options)
        mate = {order[k]: order[(k + n // 2) % n] for k in range(n)}  # opposite (§6.13)
        pairs = g.options.teams == "pairs"
        teams_in = {min(s, mate[s]) if pairs else s for s in range(n) if s not in out}
        # a round won because one player (team) was left holds no empty hand
        last_left = bool(out) and g.winner >= 0 and g.hand(g.winner) and len(teams_in) == 1
        if last_left:
            _check(g.state == Phase.MATCH_OVER, "one player left in the match but it goes on")
        elif g.winner >= 0 and not (g.options.blockedRound == "lowest_hand_wins" and not empty):
            _check(empty == [g.winner], f"round won by P{g.winner} but empty hands {empty}")
        if g.options.teams == "pairs":  # partners keep one total
            _check(
                all(g.scores[s] == g.scores[mate[s]] for s in range(n)),
                f"partners' totals differ: {g.scores}",
            )
        if g.state == Phase.MATCH_OVER and g.options.matchMode == "single_round":
            want: tuple[int, ...] = () if g.winner < 0 else (g.winner,)
            if g.winner >= 0 and g.options.teams == "pairs":
                want = tuple(sorted((g.winner, mate[g.winner])))
            _check(g.match_winners == want, f"single_round match won by {g.match_winners}")
        return
    _check(g.scores == scores, "scores changed during a round")
    _check(
        all(g.hand(s) for s in range(n) if s not in out), "an empty hand while the round goes on"
    )
    _check(g.current not in out, f"P{g.current} is out of the match but is to act")
    if g.state == Phase.AWAIT_TURN:
        colors = DARK if g.side else LIGHT
        _check(g.current_color in colors, f"current colour {g.current_color} on side {g.side}")
    turn = [a for a in g.legal_actions() if not isinstance(a, (CallUno, Catch))]
    _check(bool(turn), f"no legal turn action for P{g.current}")
    plays = [a for a in turn if isinstance(a, Play)]
    if g.state == Phase.AWAIT_DRAWN:
        # D58: the drawn card is offered only if it can be played on some side
        _check(bool(plays), f"AWAIT_DRAWN with the unplayable {g.cards[g.drawn]}")
    if g.options.forcedPlay and g.state == Phase.AWAIT_TURN and not g.pending:
        if any(isinstance(a, Draw) for a in turn):
            # D58, §6.5: DRAW is refused while a card must be played; only a
            # restricted side (legal or bluffed) may be listed beside it
            free = [a for a in plays if not _restricted_side(g, a)]
            if free:
                raise _Broken(f"forcedPlay lets P{g.current} draw while {free[0]} is playable")


_RESTRICTED = frozenset(
    {"WILD_DRAW_FOUR", "WILD_DRAW_TWO", "WILD_DRAW_COLOR", "FLEX_WILD_DRAW_FOUR"}
)


def _restricted_side(g: Game, a: Play) -> bool:
    """Whether play ``a`` is of a restricted wild-draw side (docs/rules.md §1.10, D58)."""
    if a.card.face(g.side).kind.name not in _RESTRICTED:
        return False
    return not a.flex or g.options.flexFlexSideWD4Restricted


def _norm(action: Action) -> Action:
    if isinstance(action, Play):
        return dataclasses.replace(action, uno=False, flip_color=None)
    return action


def _candidates(g: Game, r: random.Random, seat: int) -> list[Action]:
    """Random commands of ``seat``, legal or not."""
    n = g.players
    colors = DARK if g.side else LIGHT
    verbs: list[Action] = [Draw(seat), Pass(seat), Accept(seat), Challenge(seat)]
    out: list[Action] = [
        r.choice(verbs),
        ChooseColor(seat, r.choice(list(Color))),
        Catch(seat, seat),  # a catch of oneself is always rejected (D65)
    ]
    hand = g.hand(seat)
    pool = list(hand) + [r.choice(g.cards)]
    for card in r.sample(pool, min(3, len(pool))):
        face = card.face(g.side)
        color: Color | None
        if face.is_wild:
            color = r.choice(colors) if r.random() < 0.8 else r.choice(list(Color))
        else:
            color = r.choice(list(Color)) if r.random() < 0.1 else None
        flex = g.variant.flex and r.random() < 0.4
        target = r.randrange(n + 1) if r.random() < (0.8 if flex else 0.05) else None
        swap = r.randrange(n + 1) if r.random() < 0.2 else None
        out.append(Play(seat, card, color=color, flex=flex, target=target, swap=swap))
    return out


def _may_be_accepted(g: Game, action: Action) -> bool:
    """Commands the rules accept although ``legal_actions`` does not list them."""
    if isinstance(action, (CallUno, Catch)):
        return not (isinstance(action, Catch) and action.seat == action.target)
    if isinstance(action, Play) and action.seat == g.current:
        if action.color is None and len(g.hand(action.seat)) == 1:
            return True  # a going-out wild needs no colour (§1.12)
        if g.options.misplayPenalty == "on" and g.state == Phase.AWAIT_TURN:
            return True  # a penalised misplay (§2.7, D65)
    return False


def _check_illegal(g: Game, r: random.Random, seat: int, listed: set[Action]) -> int:
    """Sampled commands that are not legal are rejected and change nothing."""
    checked = 0
    for a in _candidates(g, r, seat):
        if _norm(a) in listed or _may_be_accepted(g, a):
            continue
        before = g.state_tuple()
        try:
            g.apply(a)
        except UnoError:
            _check(g.state_tuple() == before, f"rejected {a} changed the state")
            checked += 1
            continue
        raise _Broken(f"{a} was accepted but is not legal")
    return checked


def _check_legal(g: Game, r: random.Random, initial: Counter[int], limit: int) -> int:
    """Listed legal actions of the seat to act and of another seat are accepted
    (on copies) and keep the invariants."""
    tried = 0
    for seat in {g.current, r.randrange(g.players)}:
        actions = g.legal_actions(seat)
        if len(actions) > limit:
            actions = r.sample(actions, limit)
        for a in actions:
            c = g.copy()
            try:
                c.apply(a)
            except UnoError as e:
                raise _Broken(f"listed legal action {a} was rejected: {e}") from None
            try:
                c.check_invariants(initial)
            except AssertionError as e:
                raise _Broken(f"after the legal action {a}: {e}") from None
            tried += 1
    return tried


def _choose(g: Game, r: random.Random) -> Action:
    """The fuzzing policy: mostly a random play, sometimes a draw, an answer
    by another seat (UNO, catch, jump-in), a play with or without UNO."""
    n = g.players
    if r.random() < 0.12:
        other = r.randrange(n)
        extra = [
            a
            for a in g.legal_actions(other)
            if other != g.current or isinstance(a, (CallUno, Catch))
        ]
        if extra:
            return r.choice(extra)
    actions = [a for a in g.legal_actions() if not isinstance(a, (CallUno, Catch))]
    plays = [a for a in actions if isinstance(a, Play)]
    pool = plays if plays and r.random() < 0.85 else actions
    a = r.choice(pool)
    if isinstance(a, Play) and r.random() < 0.6:
        a = dataclasses.replace(a, uno=True)
    return a


# ---------------------------------------------------------------------------- differential


def _lockstep(
    name: str,
    start: Game,
    fast_one: Callable[[Game], None],
    slow_one: Callable[[Game], None],
    limit: int,
) -> int:
    """Play the round of ``start`` with a fast path and with the checked API,
    one decision at a time; the states must agree after every decision."""
    fast = start.copy()
    slow = start.copy(events=True)
    steps = 0
    while slow.phase < int(Phase.ROUND_OVER) and steps < limit:
        fast_one(fast)
        slow_one(slow)
        steps += 1
        if fast.state_tuple() != slow.state_tuple():
            raise _Broken(f"{name} differs from Game after decision {steps}: {fast!r} != {slow!r}")
    _check(fast.phase >= int(Phase.ROUND_OVER) or steps >= limit, f"{name} did not end the round")
    return steps


def _differential(g: Game, seed: int) -> int:
    """Compare the fast paths with ``Game`` on the round of ``g`` (a round start)."""
    from unokit.bots.rollout import sensible_move, sensible_rollout
    from unokit.engine.playout import playout, random_move

    start = g.copy()
    ra, rb = random.Random(seed).random, random.Random(seed).random
    n = _lockstep(
        "playout",
        start,
        lambda x: _turns(playout(x, ra, max_turns=1)),
        lambda x: x.apply_move(random_move(x, rb), uno=True),
        ROUND_LIMIT,
    )
    n += _lockstep(
        "sensible rollout",
        start,
        lambda x: _turns(sensible_rollout(x, max_turns=1)),
        lambda x: x.apply_move(sensible_move(x), uno=True),
        ROUND_LIMIT,
    )
    return n


def _vector_differential(variant: str, players: int, options: dict[str, Any], seed: int) -> int:
    """The batched environment of ``variant`` on the rules core against the
    same games played by ``Game`` (:func:`unokit.envs.differential.vector_differential`:
    every observation, mask, reward and termination, and the engine state)."""
    from unokit.envs.differential import Disagreement, vector_differential

    try:
        return vector_differential(variant, players, options, seed, num_envs=2, steps=150)
    except Disagreement as e:
        raise _Broken(f"batched environment: {e}") from None


def _turns(k: int) -> None:
    _check(k == 1, f"a fast path made {k} decisions where one was asked")


# ---------------------------------------------------------------------------- a match


def fuzz_match(
    seed: int,
    *,
    max_rounds: int = 3,
    round_limit: int = ROUND_LIMIT,
    command_seconds: float = COMMAND_SECONDS,
    legal_limit: int = 6,
    differential: bool = True,
) -> FuzzStats:
    """Play and check match ``seed`` (see the module documentation)."""
    stats = FuzzStats(matches=1)
    cfg = random_config(seed)
    stats.variants[cfg.variant] += 1
    stats.options_seen.update(f"{k}={v}" for k, v in cfg.options.items())
    r = random.Random(seed)
    rounds = commands = 0

    def fail(message: str) -> None:
        stats.failures.append(Failure(seed, cfg.describe(), rounds, commands, message))

    try:
        with _watchdog(command_seconds):
            g = Game.new(cfg.variant, cfg.players, cfg.options, seed=seed)
    except Hang as e:
        fail(f"Game.new hung: {e}")
        return stats
    except UnoError as e:
        fail(f"Game.new refused a valid configuration: {e}")
        return stats
    try:
        while True:
            rounds += 1
            stats.rounds += 1
            _check_deal(g)
            initial = g.all_cards()
            scores = list(g.scores)
            g.check_invariants(initial)
            if differential and rounds == 1:
                with _watchdog(command_seconds * 20):
                    stats.differential += _differential(g, seed)
                    stats.differential += _vector_differential(
                        cfg.variant, cfg.players, cfg.options, seed
                    )
            in_round = 0
            while g.state not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                _check(in_round < round_limit, f"the round did not end in {round_limit} commands")
                with _watchdog(command_seconds):
                    if r.random() < 0.5:
                        stats.legal_checked += _check_legal(g, r, initial, legal_limit)
                    if r.random() < 0.5:
                        seat = g.current if r.random() < 0.7 else r.randrange(g.players)
                        listed = {_norm(a) for a in g.legal_actions(seat)}
                        stats.illegal_checked += _check_illegal(g, r, seat, listed)
                    action = _choose(g, r)
                    try:
                        g.apply(action)
                    except UnoError as e:
                        raise _Broken(f"the legal action {action} was rejected: {e}") from None
                commands += 1
                in_round += 1
                stats.commands += 1
                try:
                    g.check_invariants(initial)
                except AssertionError as e:
                    raise _Broken(f"after {action}: {e}") from None
                _check_public(g, initial, scores)
            if g.state == Phase.MATCH_OVER or rounds >= max_rounds:
                return stats
            with _watchdog(command_seconds):
                g.apply(NextRound())
            commands += 1
            stats.commands += 1
    except _Broken as e:
        fail(str(e))
    except Hang as e:
        fail(f"hang: {e}")
    except Exception as e:  # a crash of the engine is a failure of this seed
        fail(f"crash {type(e).__name__}: {e}")
    return stats


# ---------------------------------------------------------------------------- the C core


def _random_code(g: Game, r: random.Random) -> int:
    """A move code with random fields: mostly malformed or illegal, sometimes legal."""
    op = r.choice((0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11))
    if op == 9:  # multiPlay: a first card, a mask over the seat's other cards of its number
        hand = g.hands[r.randrange(g.n)]
        cid = r.choice(hand) if hand and r.random() < 0.8 else r.randrange(len(g.cards))
        swp = r.randrange(g.n + 2) if r.random() < 0.2 else 0
        return 9 | (cid << 4) | (r.randrange(128) << 16) | (swp << 25)
    if op == 0:
        hand = g.hands[r.randrange(g.n)]
        cid = r.choice(hand) if hand and r.random() < 0.8 else r.randrange(len(g.cards))
        col = r.randrange(10) if r.random() < 0.5 else 0
        flex = _FLEX if g.variant.flex and r.random() < 0.3 else 0
        tgt = r.randrange(g.n + 2) if r.random() < 0.3 else 0
        swp = r.randrange(g.n + 2) if r.random() < 0.2 else 0
        return (cid << 4) | (col << 16) | flex | (tgt << 21) | (swp << 25)
    if op == 3:
        return 3 | (r.randrange(10) << 16)
    if op == 7:
        return 7 | (r.randrange(g.n + 1) << 21)
    return op


_FLEX = 1 << 20


def _refusal(e: Exception | None) -> tuple[str, str, str] | None:
    """A refusal as the fuzzer compares it: its type, its reason (the core's
    code, :data:`unokit.engine.codes.ERRORS`; both engines decide it on their
    own) and its words (one table words both: same reason, same position,
    same words)."""
    if e is None:
        return None
    reason = getattr(e, "reason", None)
    name = "none" if reason is None else reason_name(reason)
    return (type(e).__name__, name, str(e))


def core_match(seed: int, *, max_commands: int = 20_000, events: bool = True) -> FuzzStats:
    """Match ``seed`` (the configuration of :func:`random_config`) on the C core
    (``Game``, which holds one C position) and on the reference, command by command, to the end of the match (or
    ``max_commands``): equal states, equal legal move lists (the seat to act
    and a random seat), the same refusals and (``events``) the same events;
    half of the legal moves made without an UNO call are applied as the typed
    action ``legal_actions`` made (the public face's fast path).
    ``stats.differential`` counts the commands compared."""
    stats = FuzzStats(matches=1, compared_with="the C core")
    cfg = random_config(seed)
    stats.variants[cfg.variant] += 1
    stats.options_seen.update(f"{k}={v}" for k, v in cfg.options.items())
    r = random.Random(seed ^ 0x5EED)
    # half the legal moves made without an UNO call go through Game.apply of the
    # action legal_actions made (a stream of its own: the seeds' matches are
    # the same as before it)
    via_action = random.Random(seed ^ 0xAC7)
    rounds = commands = 0

    def fail(message: str) -> None:
        stats.failures.append(Failure(seed, cfg.describe(), rounds, commands, message))

    try:
        ref = ReferenceGame.new(cfg.variant, cfg.players, cfg.options, seed=seed, events=events)
        core = Game.new(cfg.variant, cfg.players, cfg.options, seed=seed, events=events)
        rounds = 1

        def same_events(since: int) -> None:
            if not events:
                return
            assert ref.log is not None
            want = ref.log[since:]
            assert core.log is not None
            got = core.log[since:]
            if got != want:
                raise _Broken(f"events differ: the reference {want}, the core {got}")

        same_events(0)
        n = cfg.players
        while commands < max_commands:
            a, b = ref.state_tuple(), core.state_tuple()
            if a != b:
                fields = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
                raise _Broken(f"core state differs from the reference in fields {fields}")
            if ref.phase == Phase.MATCH_OVER:
                break
            if ref.phase == Phase.ROUND_OVER:
                ref.next_round()
                core.next_round()
                same_events(0)  # a new round starts the log again
                rounds += 1
                stats.rounds += 1
                commands += 1
                continue
            seat = ref.current if r.random() < 0.75 else r.randrange(n)
            legal = ref.legal_moves(seat)
            got = core.legal_moves(seat)
            if legal != got:
                raise _Broken(f"P{seat}: the reference lists {legal}, the core {got}")
            if r.random() < 0.03:
                # a copy is independent of its original
                c = core.copy()
                c.apply_move(legal[0], seat) if legal else None
                _check(core.state_tuple() == b, "a core copy shares state with its original")
            x = r.random()
            if legal and x < 0.85:
                plays = [m for m in legal if m & 15 == 0]
                move = r.choice(plays if plays and r.random() < 0.8 else legal)
            else:
                move = _random_code(ref, r)
            uno = r.random() < 0.6
            since = len(ref.log) if ref.log is not None else 0
            ref_err: Exception | None = None
            core_err: Exception | None = None
            try:
                ref.apply_move(move, seat, uno)
            except UnoError as e:
                ref_err = e
            except ValueError as e:  # Game: Color(8+) of a malformed code
                ref_err = e
            try:
                if not uno and move in got and via_action.random() < 0.5:
                    # the public face's hot path: apply() of an action that
                    # legal_actions() made (one call into the core by its code)
                    core.apply(core.legal_actions(seat)[got.index(move)])
                else:
                    core.apply_move(move, seat, uno)
            except (UnoError, ValueError) as e:
                core_err = e
            if (ref_err is None) != (core_err is None):
                raise _Broken(
                    f"P{seat} move {move}: the reference {'refused' if ref_err else 'accepted'}, "
                    f"the core {'refused' if core_err else 'accepted'} ({ref_err or core_err})"
                )
            if _refusal(core_err) != _refusal(ref_err):
                raise _Broken(
                    f"P{seat} move {move}: the reference {_refusal(ref_err)}, "
                    f"the core {_refusal(core_err)} (a refusal must have the same reason, "
                    "hence the same words)"
                )
            same_events(since)
            commands += 1
        stats.rounds += 1
    except _Broken as e:
        fail(str(e))
    except Exception as e:  # a crash of either is a failure of this seed
        fail(f"crash {type(e).__name__}: {e}")
    stats.commands = stats.differential = commands
    return stats


def run_core(
    *,
    seconds: float | None = None,
    matches: int | None = None,
    commands: int | None = None,
    seed: int = 0,
    progress: Callable[[FuzzStats], None] | None = None,
) -> FuzzStats:
    """:func:`core_match` over seeds ``seed``, ``seed + 1``, ... within the bounds."""
    return _run_seeds(core_match, seconds, matches, commands, seed, progress, 30.0)


def run(
    *,
    seconds: float | None = None,
    matches: int | None = None,
    commands: int | None = None,
    seed: int = 0,
    differential: bool = True,
    progress: Callable[[FuzzStats], None] | None = None,
) -> FuzzStats:
    """Fuzz matches ``seed``, ``seed + 1``, ... until ``seconds`` have passed,
    ``matches`` were played or ``commands`` checked (whichever comes first; at
    least one bound is needed)."""
    return _run_seeds(
        lambda s: fuzz_match(s, differential=differential),
        seconds, matches, commands, seed, progress, 10.0,
    )  # fmt: skip


def _run_seeds(
    one: Callable[[int], FuzzStats],
    seconds: float | None,
    matches: int | None,
    commands: int | None,
    seed: int,
    progress: Callable[[FuzzStats], None] | None,
    every: float,
) -> FuzzStats:
    """``one(seed)``, ``one(seed + 1)``, ... until a bound is reached; the totals."""
    if seconds is None and matches is None and commands is None:
        raise ValueError("give seconds, matches or commands")
    total = FuzzStats()
    t0 = last = time.perf_counter()
    s = seed
    while True:
        total.add(one(s))
        s += 1
        now = time.perf_counter()
        total.seconds = now - t0
        if progress is not None and now - last >= every:
            progress(total)
            last = now
        if matches is not None and total.matches >= matches:
            break
        if commands is not None and total.commands >= commands:
            break
        if seconds is not None and total.seconds >= seconds:
            break
    return total


# ---------------------------------------------------------------------------- the batched env


@dataclass
class VectorFuzzStats:
    """What :func:`fuzz_vector` did."""

    configs: int = 0
    decisions: int = 0
    seconds: float = 0.0
    variants: Counter[str] = field(default_factory=Counter)
    #: ``(seed, configuration, message)`` of each disagreement
    failures: list[tuple[int, str, str]] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"batched environment: {self.configs} configurations, {self.decisions:,} decisions "
            f"compared with the engine in {self.seconds:.1f} s; variants "
            f"{dict(sorted(self.variants.items()))}; {len(self.failures)} disagreement(s)"
        )


def fuzz_vector(
    *,
    seconds: float | None = None,
    configs: int | None = None,
    seed: int = 0,
    num_envs: int = 8,
    steps: int = 300,
    progress: Callable[[VectorFuzzStats], None] | None = None,
) -> VectorFuzzStats:
    """:func:`~unokit.envs.differential.vector_differential` on the fuzzer's configurations ``seed``,
    ``seed + 1``, ... (:func:`random_config`: a variant, a player
    count, random options and ``handSize``) for ``seconds`` or ``configs``
    configurations; ``num_envs`` games of ``steps`` decisions each."""
    from unokit.envs.differential import Disagreement, vector_differential  # NumPy

    stats = VectorFuzzStats()
    start = time.monotonic()
    last = start
    s = seed
    while True:
        now = time.monotonic()
        if (seconds is not None and now - start >= seconds) or (
            configs is not None and stats.configs >= configs
        ):
            break
        cfg = random_config(s)
        try:
            stats.decisions += vector_differential(
                cfg.variant, cfg.players, cfg.options, s, num_envs=num_envs, steps=steps
            )
        except Disagreement as e:
            stats.failures.append((s, cfg.describe(), str(e)))
        stats.configs += 1
        stats.variants[cfg.variant] += 1
        s += 1
        if progress is not None and time.monotonic() - last >= 10:
            last = time.monotonic()
            stats.seconds = last - start
            progress(stats)
    stats.seconds = time.monotonic() - start
    return stats


def main(argv: list[str] | None = None) -> int:
    """``python -m unokit.testing.fuzz --seconds 600``: fuzz, print every failure with
    its seed and the totals; exit status 1 if anything failed."""
    p = argparse.ArgumentParser(
        prog="python -m unokit.testing.fuzz", description=__doc__.split("\n")[0]
    )
    p.add_argument("--seconds", type=float, default=None, help="fuzz for this long")
    p.add_argument("--matches", type=int, default=None, help="fuzz this many matches")
    p.add_argument("--commands", type=int, default=None, help="stop after this many commands")
    p.add_argument("--seed", type=int, default=0, help="first match seed")
    p.add_argument("--replay", type=int, default=None, help="replay one match seed, verbosely")
    p.add_argument("--no-differential", action="store_true", help="skip the fast-path checks")
    p.add_argument(
        "--core", action="store_true", help="compare the C core with Game command by command"
    )
    p.add_argument(
        "--vector", action="store_true", help="compare the batched environments with Game"
    )
    a = p.parse_args(argv)
    if a.vector:  # unokit.envs.differential.fuzz_vector
        vs = fuzz_vector(
            seconds=a.seconds if a.seconds or a.matches else 60.0, configs=a.matches,
            seed=a.seed, progress=lambda v: print(f"... {v.summary()}", flush=True),
        )  # fmt: skip
        for seed, config, message in vs.failures:
            print(f"seed {seed} ({config}): {message}")
        print(vs.summary())
        return 1 if vs.failures else 0

    def progress(s: FuzzStats) -> None:
        print(f"... {s.summary()}", flush=True)

    if a.core:
        if a.replay is not None:
            print(f"seed {a.replay}: {random_config(a.replay).describe()}")
            stats = core_match(a.replay)
        else:
            if a.seconds is None and a.matches is None and a.commands is None:
                a.seconds = 60.0
            stats = run_core(
                seconds=a.seconds, matches=a.matches, commands=a.commands, seed=a.seed,
                progress=progress,
            )  # fmt: skip
        for f in stats.failures:
            print(f.line().replace("--replay", "--core --replay"))
        print(stats.summary())
        return 1 if stats.failures else 0
    if a.replay is not None:
        cfg = random_config(a.replay)
        print(f"seed {a.replay}: {cfg.describe()}")
        stats = fuzz_match(a.replay, differential=not a.no_differential)
    else:
        if a.seconds is None and a.matches is None and a.commands is None:
            a.seconds = 60.0
        stats = run(
            seconds=a.seconds,
            matches=a.matches,
            commands=a.commands,
            seed=a.seed,
            differential=not a.no_differential,
            progress=progress,
        )
    for f in stats.failures:
        print(f.line())
    print(stats.summary())
    return 1 if stats.failures else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
