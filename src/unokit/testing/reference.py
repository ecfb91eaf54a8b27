"""The readable reference: the rules of :class:`unokit.Game` in Python.

:class:`ReferenceGame` is a :class:`unokit.Game` whose commands run the Python
implementation of the rules below, where ``Game`` runs them in the C core
(:mod:`unokit.engine.core`). It exists only as the oracle of the differential fuzzer
(``python -m unokit.testing.fuzz --core``) and of the tests: both engines play the same
commands and must agree on the state, the legal moves, the refusals and the
events after every command (docs/core.md). No production module imports it.

>>> from unokit import Game
>>> r = ReferenceGame.new("classic", 3, seed=7)
>>> g = Game.new("classic", 3, seed=7)
>>> m = r.legal_moves()[0]; r.apply_move(m); g.apply_move(m)
>>> r == g
True
"""

# The oracle keeps its position in plain attributes that shadow Game's
# read-only views (see ReferenceGame): its rules assign them.
# mypy: disable-error-code="misc"

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any, Self

from unokit import _core
from unokit.engine import codes as E
from unokit.engine import events as ev
from unokit.engine import multiplay
from unokit.engine.cards import Color
from unokit.engine.codes import COLOR_REASONS
from unokit.engine.game import FIELDS, Game, check_deal
from unokit.engine.options import seating
from unokit.engine.playout import random_move
from unokit.engine.refusals import refusal
from unokit.engine.variants import WILD_BIT

__all__ = ["ReferenceGame", "playout_python"]

# the same constants as unokit.engine.game (phases, UNO states, kinds, move codes)
_T, _D, _C, _CH, _RO, _MO, _DEAL = range(7)
_NONE, _SAFE, _VULN = 0, 1, 2
_NUMBER = 0
_SKIP, _REVERSE, _DRAW_TWO, _DRAW_ONE, _DRAW_FIVE = 1, 2, 3, 4, 5
_FLIP, _SKIP_EVERYONE, _FLEX_SKIP, _FLEX_REVERSE, _FLEX_DRAW_TWO = 6, 7, 8, 9, 10
_WILD, _WD4, _WD2, _WDC, _WAF, _WAD, _WTD, _FW4 = 11, 12, 13, 14, 15, 16, 17, 18
OP_PLAY, OP_DRAW, OP_PASS, OP_COLOR, OP_ACCEPT, OP_CHALLENGE, OP_UNO, OP_CATCH, OP_NEXT = range(9)
_FLEX_BIT = 1 << 20

_LOCAL = threading.local()


def _rng() -> random.Random:
    r: random.Random | None = getattr(_LOCAL, "rng", None)
    if r is None:
        r = _LOCAL.rng = random.Random()
    return r


class ReferenceGame(Game):
    """:class:`unokit.Game` with the rules executed in Python (the oracle).

    Its position is kept in plain attributes (the fields of
    :data:`unokit.engine.game.FIELDS`), which the Python rules below change;
    the inherited views that read the core read a core position loaded from
    these attributes at each read (``_g``), and constructors that write the
    core's position (:meth:`Game.setup`, :meth:`Game.replace`) write them."""

    __slots__ = (*FIELDS, "_gc", "_tables", "_plain")

    def _make(self, *args: Any, **kw: Any) -> None:
        super()._make(*args, **kw)
        self._tables = self.variant
        self._plain = self._plain_rules()
        self._load({})

    def _plain_rules(self) -> bool:
        """Whether no option changes what a plain card does or how it is listed."""
        o = self.options
        return not (
            o.seven_swap
            or o.zero_rotate
            or o.finishRestriction != "off"
            or o.shuffleSeats
            or o.mercy
        )

    # ---- what the top card accepts, and matching for restricted wild draws (§1.5, §1.10)

    def _accept_mask(self) -> int:
        """What the top card accepts: its colour (or the declared one), its
        number or symbol class, and wilds (docs/rules.md §1.5)."""
        if self.wild_top:
            return (1 << self.color) | WILD_BIT
        top = self.discard[-1]
        return (1 << self.color) | self.variant.topkey[self.side][top] | WILD_BIT

    def _top_ident(self) -> int:
        """Identity of the top card for jump-ins (docs/rules.md §6.2, D64); -1: none."""
        if self.wild_top:
            return -1
        return self.variant.ident[self.side][self.discard[-1]]

    def _holds_match(
        self, seat: int, color: int, skip_card: int, skip_restricted: bool = False
    ) -> bool:
        """Whether ``seat`` (without one copy of ``skip_card``) holds a card that
        "matches the current colour" for restricted wild draws (docs/rules.md §1.10).
        ``skip_restricted``: other restricted wild draws do not count (noBluff)."""
        v = self.variant
        restricted = v.restricted[self.side]
        o = self.options
        colors = v.color[self.side]
        if v.flex:
            wilds = o.flexWildsCountAsMatch
            flexcols = o.flexFlexColorsCountAsMatch
        else:
            wilds = o.wildDrawWildsCountAsMatch
            flexcols = False
        skipped = False
        for c in self.hands[seat]:
            if c == skip_card and not skipped:
                skipped = True
                continue
            if skip_restricted and restricted[c]:
                continue
            col = colors[c]
            if col == color:
                return True
            if col < 0 and wilds:
                return True
            if flexcols:
                fc = v.cards.cards[c].light.flex_color
                if fc is not None and int(fc) == color:
                    return True
        return False

    @property
    def _g(self) -> _core.Game:
        """The core holding this position (loaded from the attributes)."""
        gc: _core.Game = self._gc
        gc.set_state(self._raw())
        return gc

    @_g.setter
    def _g(self, value: _core.Game) -> None:
        self._gc = value

    def _raw(self) -> tuple[Any, ...]:
        return (
            self.shuffles, tuple(tuple(h) for h in self.hands), tuple(self.draw),
            tuple(self.discard), self.side, self.color,
            self.current, self.direction, self.dealer, self.phase, self.drawn, self.color_next,
            COLOR_REASONS.index(self.color_reason), self.ch_offender, int(self.ch_legal),
            self.ch_card, self.ch_after, self.ch_after_success, self.pending, self.stack_class,
            self.stack_amount, tuple(self.uno), self.uno_pre, self.vulnerable,
            tuple(self.powers) if self.variant.flex else (True,) * self.n, tuple(self.scores),
            self.round_no, self.winner, self.round_points, tuple(self.match_winners),
            self.empty_draws, int(self.wild_top), self.reveal,
        ) if hasattr(self, "shuffles") else self._gc.state()  # fmt: skip

    def _load(self, fields: dict[str, Any]) -> None:
        st = list(self._raw())
        for name, value in fields.items():
            st[FIELDS.index(name)] = value
        (
            self.shuffles, hands, draw, discard, self.side, self.color, self.current,
            self.direction, self.dealer, self.phase, self.drawn, self.color_next, reason,
            self.ch_offender, ch_legal, self.ch_card, self.ch_after, self.ch_after_success,
            self.pending, self.stack_class, self.stack_amount, uno, self.uno_pre,
            self.vulnerable, powers, scores, self.round_no, self.winner, self.round_points,
            match_winners, self.empty_draws, wild_top, reveal,
        ) = st  # fmt: skip
        self.hands = [list(h) for h in hands]
        self.draw, self.discard = list(draw), list(discard)
        self.color_reason = reason if isinstance(reason, str) else COLOR_REASONS[reason]
        self.ch_legal = bool(ch_legal)
        self.uno = list(uno)
        self.powers = [bool(p) for p in powers] if self.variant.flex else []
        self.scores = list(scores)
        self.match_winners = tuple(match_winners)
        self.wild_top = bool(wild_top)
        self.reveal = None if reveal is None else (reveal[0], reveal[1], tuple(reveal[2]))

    def copy(self, *, events: bool = False) -> Self:
        g = super().copy(events=events)
        g._tables, g._plain = self._tables, self._plain
        g._load({})  # the copy's attributes, from this position
        return g

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._load(dict(zip(FIELDS, state["state"], strict=True)))

    def _left(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places clockwise of ``seat`` around the table
        (shuffleSeats, §6.16), whatever the direction of play."""
        order = seating(self.seed, self.n, self.options)
        return order[(order.index(seat) + steps) % self.n]

    def _partner(self, seat: int) -> int:
        """teams (§6.13): the seat opposite ``seat``."""
        return self._left(seat, self.n // 2)

    # ---- mercy (§6.12): out of the match at ``mercy`` cards or more after a draw

    def _out(self, seat: int) -> bool:
        """Whether ``seat`` is out of the match: mercy is on and it holds no
        card while a round is played (in ROUND_OVER / MATCH_OVER: no card and
        not the round's winner). Derived from the position, no field of its own."""
        if not self.options.mercy or self.hands[seat]:
            return False
        if self.phase in (_RO, _MO):
            return seat != self.winner
        return True

    def _alive(self) -> int:
        return sum(1 for s in range(self.n) if not self._out(s))

    def _next(self, seat: int, steps: int = 1) -> int:
        if self.options.mercy and self._alive() < self.n:
            if not self._alive():
                return seat
            order = seating(self.seed, self.n, self.options)
            x = order.index(seat)
            d = -self.direction if steps < 0 else self.direction
            k = abs(steps)
            while k:
                x = (x + d) % self.n
                if not self._out(order[x]):
                    k -= 1
            return order[x]
        return super()._next(seat, steps)

    def _others(self, seat: int) -> list[int]:
        """The other seats in the match, in turn order from ``seat``."""
        order = seating(self.seed, self.n, self.options)
        x = order.index(seat)
        out = []
        for k in range(1, self.n):
            s = order[(x + k * self.direction) % self.n]
            if not self._out(s):
                out.append(s)
        return out

    def _left_in(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = self._left(seat, k)
            if not self._out(s):
                return s
        return self._left(seat)

    def _mercy_check(self, seat: int) -> None:
        """After a draw: at ``mercy`` cards or more ``seat`` is out; its hand
        goes under the draw pile in the order held."""
        hand = self.hands[seat]
        if not self.options.mercy or len(hand) < self.options.mercy:
            return
        self.draw[:0] = hand
        self.hands[seat] = []
        self.uno[seat] = _NONE
        if self.vulnerable == seat:
            self.vulnerable = -1
        if self.uno_pre == seat:
            self.uno_pre = -1
        self._emit(ev.Eliminated(seat, len(hand)))

    def _units(self) -> list[int]:
        """The players (teams: the lower seat of each team) still in."""
        units: list[int] = []
        for s in seating(self.seed, self.n, self.options):
            if self._out(s):
                continue
            u = min(s, self._partner(s)) if self.options.teams == "pairs" else s
            if u not in units:
                units.append(u)
        return units

    def _mercy_settle(self) -> None:
        """After a command: one player (team) left wins the round at once; a
        seat to act that is out has its decision lapse and the next seat in plays."""
        if not self.options.mercy or self.phase not in (_T, _D, _C, _CH):
            return
        if len(self._units()) <= 1:
            w = self._next(self.current) if self._out(self.current) else self.current
            self._clear_challenge()
            self.pending = self.stack_class = self.stack_amount = 0
            self.color_next = -1
            self.color_reason = ""
            self._end_round(w)
            return
        if self.color_next >= 0 and self._out(self.color_next):
            self.color_next = self._next(self.color_next)
        if not self._out(self.current):
            return
        frm = self.current
        if self.phase == _CH:
            frm = self.ch_after
            self._clear_challenge()
            if not self._out(frm):
                self.phase = _T
                self.current = frm
                return
        elif self.phase == _C:
            self.current = self._next(frm)
            return
        self.phase = _T
        self.drawn = -1
        self.pending = self.stack_class = self.stack_amount = 0
        self._clear_challenge()
        self.current = self._next(frm)

    # ---- house rules of RULES.md §6.7-§6.15 that Game's shared helpers do not know

    def _finish_forbidden(self, cid: int) -> bool:
        """finishRestriction (§6.10): ``cid`` may not be a player's last card
        (an action card under no_action, a wild under no_wild; a Flex card's
        flex side has the kind of its regular side)."""
        f = self.options.finishRestriction
        kind = self.variant.kind[self.side][cid]
        if f == "off" or kind == _NUMBER:
            return False
        if kind >= _WILD:
            return f in ("no_wild", "no_action_no_wild")
        return f in ("no_action", "no_action_no_wild")

    def _deflects(self, cid: int, flex: bool) -> bool:
        """deflect (§6.7): ``cid`` on that side passes a pending draw on."""
        d = self.options.deflect
        if d == "off" or flex:
            return False
        kind = self.variant.kind[self.side][cid]
        if kind in (_REVERSE, _FLEX_REVERSE):
            return d in ("reverse", "both")
        if kind in (_SKIP, _SKIP_EVERYONE, _FLEX_SKIP):
            return d in ("skip", "both")
        return False

    def _room(self, seat: int) -> int:
        """handLimit (§6.11): how many more cards ``seat`` may draw."""
        limit = self.options.handLimit
        if not limit:
            return 1 << 30
        return max(0, limit - len(self.hands[seat]))

    # ---- legality: the oracle's own (the core decides in turn.c; the reason
    # codes are the core's, unokit.engine.codes, worded by unokit.engine.refusals)

    def _restricted_side(self, cid: int, flex: bool) -> bool:
        """Whether ``cid`` played on that side is a restricted wild draw (§1.10):
        WD4, WD2, WDC, FW4 regular; FW4 flex only with flexFlexSideWD4Restricted."""
        if not self.variant.restricted[self.side][cid]:
            return False
        return not flex or self.options.flexFlexSideWD4Restricted

    def _restricted_legal(self, seat: int, cid: int) -> bool:
        """Whether ``seat`` may legally play restricted wild draw ``cid`` now: no
        other card in hand "matches the current colour" (docs/rules.md §1.10). Under
        ``noBluff`` another restricted wild draw does not count as a match: it
        could not be played instead (docs/decisions.md E15)."""
        return not self._holds_match(seat, self.color, cid, self.options.noBluff)

    def _side_playable(self, seat: int, cid: int, flex: bool, acc: int, strict: bool) -> bool:
        """One side of the D58 test (``acc``: the accept mask of the top)."""
        v = self.variant
        if flex:
            if not (v.flex and self.powers[seat] and v.flexmask[cid] & acc):
                return False
        elif not v.mask[self.side][cid] & acc:
            return False
        if (strict or self.options.noBluff) and self._restricted_side(cid, flex):
            return self._restricted_legal(seat, cid)
        return True

    def playable(self, seat: int, cid: int, *, strict: bool = False) -> bool:
        """docs/rules.md D58 (:meth:`Game.playable`): a side that matches, a flex
        side only with a green Power Card, a restricted side only when legal
        (under noBluff, or ``strict``); a card that may not be the last one
        (finishRestriction, §6.10) is not playable as the last card."""
        if (
            len(self.hands[seat]) == 1
            and self.options.finishRestriction != "off"
            and self._finish_forbidden(cid)
        ):
            return False
        acc = self._accept_mask()
        return self._side_playable(seat, cid, False, acc, strict) or self._side_playable(
            seat, cid, True, acc, strict
        )

    def _has_forced_play(self, seat: int) -> bool:
        """forcedPlay: ``seat`` holds a card it must play (docs/rules.md §6.5, D58)."""
        return any(self.playable(seat, c, strict=True) for c in set(self.hands[seat]))

    def _must_play_drawn(self, seat: int) -> bool:
        """forcedPlay (§6.5) or mustPlayDrawn (§6.15): the drawn card is
        playable, so PASS is not allowed."""
        return self.options.must_play_drawn and self.playable(seat, self.drawn, strict=True)

    def _check_turn(self, seat: int, phases: tuple[int, ...]) -> int:
        """0 when ``seat`` may decide now in one of ``phases``, else the reason."""
        ph = self.phase
        if ph == _RO:
            return E.ERR_ROUND_OVER
        if ph == _MO:
            return E.ERR_MATCH_OVER
        if ph == _DEAL:
            return E.ERR_NOT_STARTED
        if ph not in phases:
            return E.ERR_PHASE
        if seat != self.current:
            return E.ERR_NOT_YOUR_TURN
        return 0

    def _play_error(  # noqa: C901 - one check per rule, in the order of the refusals
        self,
        seat: int,
        cid: int,
        color: int,
        flex: bool,
        target: int,
        swap: int,
        flip_color: int,
    ) -> tuple[int, bool]:
        """Why this play is illegal (0 if legal), and whether it is a misplay
        (a card that does not match, which ``misplayPenalty=on`` punishes):
        the command's turn and form first, then matching (D65)."""
        v = self.variant
        o = self.options
        n = self.n
        side = self.side
        ph = self.phase
        jump = False
        if ph in (_T, _D, _C, _CH) and seat != self.current and o.jumpIn:
            if ph != _T or self.pending:
                return E.ERR_JUMP_NOW, False
            ident = v.ident[side][cid]
            if ident < 0 or ident != self._top_ident() or flex:
                return E.ERR_JUMP_CARD, False
            jump = True
        else:
            err = self._check_turn(seat, (_T, _D))
            if err:
                return err, False
        hand = self.hands[seat]
        if cid not in hand:
            return E.ERR_NOT_HELD, False
        if ph == _D and not jump and cid != self.drawn:
            return E.ERR_ONLY_DRAWN, False
        kind = v.kind[side][cid]
        wild = v.mask[side][cid] & WILD_BIT
        last = len(hand) == 1
        if flex:
            if not v.flex:
                return E.ERR_NO_FLEX, False
            if not v.flexmask[cid]:
                return E.ERR_NO_FLEX_SIDE, False
            if not self.powers[seat]:
                return E.ERR_POWER_RED, False
        if self.pending:
            sc = v.stack_class[side][cid]
            if self._deflects(cid, flex):
                # deflect (§6.7): a Reverse / Skip of the colour or on its symbol
                if not v.mask[side][cid] & self._accept_mask():
                    return E.ERR_STACK, False
            else:
                if flex or not sc or o.stacking == "off":
                    return E.ERR_STACK, False
                if o.stacking == "same_symbol" and sc != self.stack_class:
                    return E.ERR_STACK_SAME, False
                if o.stacking == "escalate" and v.draw_amount[side][cid] < self.stack_amount:
                    return E.ERR_STACK_LESS, False
        if wild:
            if color < 0:
                if not last or kind == _WDC:
                    return E.ERR_NEED_COLOR, False
            elif not (color < 8 and Color(color) in v.colors(side)):
                return E.ERR_BAD_COLOR, False
        elif color >= 0:
            return E.ERR_NOT_WILD, False
        if flex and kind in (_WTD, _FW4):
            if target < 0:
                return E.ERR_NEED_TARGET, False
            if target >= n:
                return E.ERR_BAD_TARGET, False
            if target == seat:
                return E.ERR_TARGET_SELF, False
            if self._out(target):
                return E.ERR_TARGET_OUT, False
        elif target >= 0:
            return E.ERR_NO_TARGET, False
        seven = o.seven_swap and kind == _NUMBER and v.number[side][cid] == 7
        if seven and not last:
            if swap < 0:
                return E.ERR_NEED_SWAP, False
            if swap >= n or swap == seat or self._out(swap):
                return E.ERR_BAD_SWAP, False
        elif swap >= 0 and not seven:
            return E.ERR_NO_SWAP, False
        if flip_color >= 0:
            if kind != _FLIP:
                return E.ERR_NOT_FLIP, False
            if not (flip_color < 8 and Color(flip_color) in v.colors(1 - side)):
                return E.ERR_FLIP_COLOR, False
        acc = self._accept_mask()
        if not (v.flexmask[cid] if flex else v.mask[side][cid]) & acc and not jump:
            return E.ERR_NO_MATCH, True
        if (
            o.noBluff
            and self._restricted_side(cid, flex)
            and self.color >= 0
            and not self._restricted_legal(seat, cid)
        ):
            return E.ERR_NO_BLUFF, False
        if last and self._finish_forbidden(cid):
            return E.ERR_FINISH, False
        return 0, False

    def _new_match(self) -> None:
        self.dealer = self._choose_dealer()
        self._deal_round([True] * self.n)

    def _emit(self, event: ev.Event) -> None:
        if self.log is not None:
            self.log.append(event)

    def _shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates with the generator of shuffle number ``self.shuffles``."""
        r = _rng()
        r.seed((self.seed & 0xFFFFFFFFFFFF) * 1_000_003 + self.shuffles)
        self.shuffles += 1
        rnd = r.random
        for i in range(len(cards) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]

    def _draw_one(self) -> int:
        """Take the top card of the draw pile, reshuffling lazily (docs/rules.md §1.8).
        Returns -1 when nothing can be drawn."""
        d = self.draw
        if not d:
            disc = self.discard
            if len(disc) <= 1:
                return -1
            top = disc.pop()
            self.draw = d = disc
            self.discard = [top]
            self._shuffle(d)
            if self.log is not None:
                self._emit(ev.Reshuffled(len(d)))
        return d.pop()

    def _give(self, seat: int, count: int, reason: str) -> int:
        """``seat`` draws ``count`` cards (fewer if the piles run out); returns how many."""
        hand = self.hands[seat]
        got = 0
        if self._out(seat):  # mercy (§6.12): an out seat draws nothing
            return 0
        count = min(count, self._room(seat))  # handLimit (§6.11)
        for _ in range(count):
            c = self._draw_one()
            if c < 0:
                break
            hand.append(c)
            got += 1
        if got:
            if self.uno[seat]:
                self._uno_off(seat)
            if self.log is not None:
                self._log_draw(seat, hand[len(hand) - got :], reason)
            self._mercy_check(seat)
        return got

    def _log_draw(self, seat: int, cids: list[int], reason: str) -> None:
        cs = self.variant.cards.cards
        cards = tuple(cs[c] for c in cids)
        backs = None
        if self.variant.two_sided:
            backs = tuple(c.face(1 - self.side) for c in cards)
        self._emit(ev.Drew(seat, len(cards), cards, backs, reason))

    def _draw_until(self, seat: int, color: int, extra: int, reason: str = "penalty") -> None:
        """Wild Draw Color: draw until a card of ``color`` (docs/rules.md §3.9)."""
        hand = self.hands[seat]
        start = len(hand)
        if self._out(seat):  # mercy (§6.12)
            return
        cap = self.options.flipDrawColorCap
        colors = self.variant.color[self.side]
        drawn = 0
        while (cap is None or drawn < cap) and self._room(seat):
            c = self._draw_one()
            if c < 0:
                break
            hand.append(c)
            drawn += 1
            if colors[c] == color:
                break
        for _ in range(extra):
            if not self._room(seat):
                break
            c = self._draw_one()
            if c < 0:
                break
            hand.append(c)
        got = len(hand) - start
        if got:
            if self.uno[seat]:
                self._uno_off(seat)
            if self.log is not None:
                self._log_draw(seat, hand[start:], reason)
            self._mercy_check(seat)

    def _uno_off(self, seat: int) -> None:
        if len(self.hands[seat]) != 1:
            self.uno[seat] = _NONE
            if self.vulnerable == seat:
                self.vulnerable = -1

    def _turn_action(self) -> None:
        """A turn action was accepted: the catch window closes (docs/rules.md §1.11)."""
        v = self.vulnerable
        if v >= 0:
            self.uno[v] = _NONE
            self.vulnerable = -1
        self.reveal = None

    def _turn_ended(self, drew: int) -> bool:
        """A turn ended without a play, having drawn ``drew`` cards. A full cycle
        of turns by all players without a play or a draw, whatever the reason,
        blocks the round (docs/rules.md §1.8, D55, D60). Returns whether it did."""
        if drew:
            self.empty_draws = 0
            return False
        self.empty_draws += 1
        if self.empty_draws >= self._alive():
            self._end_blocked()
            return True
        return False

    def _choose_dealer(self) -> int:
        o = self.options
        fixed = o.dealer_fixed_seat
        if fixed is not None:
            return fixed
        if o.dealerSelection == "random":
            return self._randbelow(self.n)
        # cut: everyone draws a card, highest deals, ties re-cut (docs/rules.md §1.2, D50)
        deck = self.variant.deck_ids(o, self.seed)
        v = self.variant
        value = v.cut_value
        contenders = list(range(self.n))
        taken: set[int] = set()
        r = _rng()
        r.seed((self.seed & 0xFFFFFFFFFFFF) * 1_000_003 + self.shuffles)
        self.shuffles += 1
        rnd = r.random
        while len(contenders) > 1:
            if len(deck) - len(taken) < len(contenders):  # cannot happen with real decks
                break
            # each contender takes a random card of those left (cut cards return
            # to the deck before the deal shuffle, so the deck itself is untouched)
            cut = {}
            for s in contenders:
                i = int(rnd() * len(deck))
                while i in taken:
                    i = int(rnd() * len(deck))
                taken.add(i)
                cut[s] = value[deck[i]]
            best = max(cut.values())
            contenders = [s for s in contenders if cut[s] == best]
        return contenders[0]

    def _randbelow(self, k: int) -> int:
        r = _rng()
        r.seed((self.seed & 0xFFFFFFFFFFFF) * 1_000_003 + self.shuffles)
        self.shuffles += 1
        return r.randrange(k)

    def _deal_round(self, ins: list[bool]) -> None:
        """Shuffle, deal and turn the first card of a new round (to the seats
        ``ins`` still in the match, mercy §6.12)."""
        v = self.variant
        o = self.options
        n = self.n
        deck = v.deck(o, self.seed)
        self._shuffle(deck)
        size = o.handSize
        check_deal(v, n, o, self.seed)  # Options are immutable: checked at creation too
        # one card at a time, clockwise from the dealer's left, from the top of
        # the pile (the end of the list)
        d = self.dealer
        hands: list[list[int]] = [[] for _ in range(n)]
        for _ in range(size):
            for k in range(1, n + 1):
                if ins[self._left(d, k)]:
                    hands[self._left(d, k)].append(deck.pop())
        self.hands = hands
        self.draw = deck
        self.discard = []
        self.side = 0
        self.color = -1
        self.direction = 1
        self.drawn = -1
        self.pending = self.stack_class = self.stack_amount = 0
        self._clear_challenge()
        self.uno = [_NONE] * n
        self.uno_pre = self.vulnerable = -1
        if v.flex:
            self.powers = [True] * n
        self.empty_draws = 0
        self.wild_top = False
        self.winner = -1
        self.round_points = 0
        self.reveal = None
        self.round_no += 1
        self.phase = _DEAL
        if self.log is not None:
            self.log = []
            self._views = {}
            self._emit(ev.RoundStarted(self.round_no, d, tuple(len(h) for h in hands)))
        self._start()

    def start(self) -> None:
        """Turn the first card and apply the variant's first-card rule
        (docs/rules.md §2.4, §3.7, §4.8). Only in phase ``DEAL`` (positions set up
        before their first card); a new round does this by itself."""
        if self.phase != _DEAL:
            raise refusal(self, E.ERR_PHASE, "start")
        self._start()
        if self.commands is not None:
            self.commands.append("START")

    def _first_card_ok(self, c: int) -> bool:
        """Whether a card turned up first stays (docs/rules.md §2.4, §3.7, §4.8)."""
        v = self.variant
        o = self.options
        k = v.kind[0][c]
        if v.flex:
            return k == _NUMBER
        if k == _WD4 or k == _WD2:
            return False
        if v.two_sided and k == _WILD and o.flipFirstCardWild == "redraw":
            return False
        return not (v.two_sided and k == _FLIP and o.flipFirstCardFlip == "redraw")

    def _start(self) -> None:
        v = self.variant
        o = self.options
        first = self._left_in(self.dealer)
        self.direction = 1
        self.wild_top = False
        kinds = v.kind[0]
        cs = v.cards.cards
        # Turn cards until one may stay. The procedure only ever turns cards of
        # the draw pile (no reshuffle): when no card left there may stay, the
        # last card turned stays and counts as a plain Wild (docs/rules.md D59).
        while True:
            if not self.draw:
                raise refusal(self, E.ERR_EMPTY, "start")
            c = self.draw.pop()
            if self._first_card_ok(c):
                self.discard.append(c)
                self._emit(ev.CardTurned(cs[c], "start"))
                k = kinds[c]
                break
            if v.flex and o.flexFirstCardIgnored == "stay_in_discard":
                # ignored cards stay in the discard pile; the next one is turned
                # on top, while there is one (D29)
                self.discard.append(c)
                if self.draw:
                    self._emit(ev.CardTurned(cs[c], "ignored"))
                    continue
            elif any(self._first_card_ok(x) for x in self.draw):
                # returned into the draw pile, which is shuffled (D8, D29)
                self._emit(ev.CardTurned(cs[c], "returned" if not v.flex else "ignored"))
                self.draw.append(c)
                self._shuffle(self.draw)
                continue
            else:
                self.discard.append(c)
            # nothing left to turn that may stay: this card stays (D59)
            self._emit(ev.CardTurned(cs[c], "start"))
            self.wild_top = True
            k = _WILD
            break
        self.phase = _T
        self.current = first
        self.color = -1 if self.wild_top else v.color[0][c]
        if k == _SKIP:
            self._emit(ev.Skipped(first))
            self.current = self._next(first)
        elif k == _REVERSE:
            self.direction = -1
            self.current = self.dealer
            self._emit(ev.Reversed(-1))
        elif k == _DRAW_TWO or k == _DRAW_ONE:
            self._give(first, v.draw_amount[0][c], "penalty")
            self._emit(ev.Skipped(first))
            self.current = self._next(first)
        elif k == _WILD:
            self.phase = _C
            self.color_reason = "first_card"
            self.color_next = first
        elif k == _FLIP:
            self._flip_piles()
            top = self.discard[-1]
            self.color = v.color[1][top]
            if self.color < 0:
                self.phase = _C
                self.color_reason = "first_card"
                self.color_next = first
        self._mercy_settle()  # mercy (§6.12): a first Draw Two may put the first player out

    def next_round(self) -> list[ev.Event]:
        """Deal the next round (only in ``ROUND_OVER``)."""
        if self.phase != _RO:
            raise refusal(self, E.ERR_PHASE, "next")
        rot = self.options.dealerRotation
        ins = [not self._out(s) for s in range(self.n)]
        seats = [s for s in range(self.n) if ins[s]]
        if rot == "left":
            self.dealer = self._left_in(self.dealer)
        elif rot == "winner" and self.winner >= 0:
            self.dealer = self.winner
        elif rot == "random":
            if len(seats) < self.n:
                self.dealer = seats[self._randbelow(len(seats))]
            else:
                self.dealer = self._randbelow(self.n)
        else:
            self.dealer = self._left_in(self.dealer)
        self._deal_round(ins)
        if self.commands is not None:
            self.commands.append("NEXT")
        return list(self.log) if self.log is not None else []

    def _flip_piles(self) -> None:
        """Turn the discard pile, the draw pile and all hands over (docs/rules.md §3.5)."""
        self.discard.reverse()
        if self.options.flipReverseDrawPile:
            self.draw.reverse()
        self.side ^= 1
        self.wild_top = False
        if self.log is not None:
            self._emit(ev.Flipped(self.side, self.variant.cards.cards[self.discard[-1]]))

    def _end_round(self, winner: int) -> None:
        """Score a round won by ``winner`` (docs/rules.md §1.13, §3.11)."""
        n = self.n
        values = [self.hand_value(s) for s in range(n)]
        o = self.options
        self.winner = winner
        if o.teams == "pairs":
            # §6.13: the team wins; partners keep one total (the same on both seats)
            team = (winner, self._partner(winner))
            if o.scoringMode == "highest":
                pts = sum(values[s] for s in range(n) if s not in team)
                self.round_points = pts
                for s in team:
                    self.scores[s] += pts
            else:
                self.round_points = 0
                for s in range(n):
                    if s not in team:
                        self.scores[s] += values[s] + values[self._partner(s)]
            self._after_round(values)
            return
        if o.scoringMode == "highest":
            pts = sum(values) - values[winner]
            self.round_points = pts
            self.scores[winner] += pts
        else:
            self.round_points = 0
            for s in range(n):
                if s != winner:
                    self.scores[s] += values[s]
        self._after_round(values)

    def _end_blocked(self) -> None:
        """No card can be drawn or played any more (docs/rules.md §1.8, D55, D60).
        ``lowest_hand_wins``: the lowest hand value wins, a tie is broken by
        fewer cards, a remaining tie leaves the round without a winner (D62)."""
        n = self.n
        values = [self.hand_value(s) for s in range(n)]
        if self.options.blockedRound == "lowest_hand_wins":
            ins = [s for s in range(n) if not self._out(s)]  # mercy (§6.12)
            best = min((values[s], len(self.hands[s])) for s in ins)
            lows = [s for s in ins if (values[s], len(self.hands[s])) == best]
            if len(lows) == 1:
                self._end_round(lows[0])
                return
        self.winner = -1
        self.round_points = 0
        self._after_round(values)

    def _after_round(self, values: list[int]) -> None:
        o = self.options
        self.phase = _RO
        self.uno = [_NONE] * self.n
        self.vulnerable = self.uno_pre = -1
        self.drawn = -1
        self.pending = 0
        w = self.winner
        if self.log is not None:
            self._emit(
                ev.RoundEnded(
                    None if w < 0 else w, self.round_points, tuple(values), tuple(self.scores)
                )
            )
        sc = self.scores
        if o.matchMode == "single_round":
            # the player who went out wins the match, whatever the round was
            # worth; a round without a winner ends it without one (D61)
            self.match_winners = () if w < 0 else (w,)
            if w >= 0 and o.teams == "pairs":  # both partners (§6.13)
                self.match_winners = tuple(sorted((w, self._partner(w))))
            self.phase = _MO
            self._emit(ev.MatchEnded(self.match_winners, tuple(sc)))
            return
        # mercy (§6.12): an out seat cannot win the match (with teams, the team
        # can while the partner is in); fewer than two players (teams) left ends it
        teams = o.teams == "pairs"
        can = [
            not self._out(s) or (teams and not self._out(self._partner(s))) for s in range(self.n)
        ]
        units = sum(1 for s in range(self.n) if can[s] and (not teams or s < self._partner(s)))
        if o.mercy and units < 2:
            self.match_winners = tuple(s for s in range(self.n) if can[s])
            self.phase = _MO
            self._emit(ev.MatchEnded(self.match_winners, tuple(sc)))
            return
        if max(sc) < o.targetScore:
            return
        cand = [s for s in range(self.n) if can[s]]
        if o.scoringMode == "highest":
            best = max(sc[s] for s in cand)
            winners = tuple(s for s in cand if sc[s] == best)
        else:
            low = min(sc[s] for s in cand)
            winners = tuple(s for s in cand if sc[s] == low)
            # teams: partners share a total, so a tie is between two teams or more
            if len(winners) > (2 if o.teams == "pairs" else 1) and o.lowestModeTie == "play_on":
                return
        self.match_winners = winners
        self.phase = _MO
        self._emit(ev.MatchEnded(winners, tuple(sc)))

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
            raise refusal(self, E.ERR_CARD, "play", seat, cids=(-1,))
        err = 0
        if color < -1:
            err = E.ERR_BAD_COLOR
        elif target < -1:
            err = E.ERR_BAD_TARGET
        elif swap < -1:
            err = E.ERR_BAD_SWAP
        elif flip_color < -1:
            err = E.ERR_FLIP_COLOR
        misplay = False
        if not err:
            err, misplay = self._play_error(seat, cid, color, flex, target, swap, flip_color)
        if err:
            if misplay and self.options.misplayPenalty == "on" and self.phase == _T:
                self._misplay(seat, cid)
                return
            raise refusal(
                self, err, "play", seat, cids=(cid,), color=color, flex=int(flex),
                target=target, swap=swap, flip_color=flip_color,
            )  # fmt: skip
        self._do_play(seat, cid, color, flex, target, swap, uno, flip_color)

    # ---- multiPlay (§6.9): several number cards of one number in one PLAY

    def play_multi(self, seat: int, cids: list[int], swap: int = -1, uno: bool = False) -> None:
        """A PLAY of the number cards ``cids`` (two or more of one number), in order."""
        self._seat_ok(seat, "play")
        v = self.variant
        o = self.options
        side = self.side

        def no(reason: int) -> Exception:
            return refusal(self, reason, "play", seat, cids=cids, swap=swap)

        if len(cids) > 8:
            raise no(E.ERR_NOT_HELD)
        if not all(isinstance(c, int) and 0 <= c < 4096 for c in cids):
            raise no(E.ERR_CARD)
        if swap < -1:
            raise no(E.ERR_BAD_SWAP)
        if o.multiPlay != "same_number":
            raise no(E.ERR_MULTI)
        err = self._check_turn(seat, (_T,))
        if err:
            raise no(err)
        if len(cids) < 2:
            raise no(E.ERR_FORM)
        if any(c >= len(v.cards.cards) for c in cids):
            raise no(E.ERR_CARD)
        hand = self.hands[seat]
        if len(cids) > len(hand) or any(cids.count(c) > hand.count(c) for c in cids):
            raise no(E.ERR_NOT_HELD)
        if self.pending:
            raise no(E.ERR_STACK)
        num = v.number[side][cids[0]]
        if any(v.kind[side][c] != _NUMBER or v.number[side][c] != num for c in cids):
            raise no(E.ERR_MULTI)
        seven = o.seven_swap and num == 7 and len(cids) < len(hand)
        if seven:
            if swap < 0:
                raise no(E.ERR_NEED_SWAP)
            if swap >= self.n or swap == seat or self._out(swap):
                raise no(E.ERR_BAD_SWAP)
        elif swap >= 0:
            raise no(E.ERR_NO_SWAP)
        if not v.mask[side][cids[0]] & self._accept_mask():
            if o.misplayPenalty == "on":
                self._misplay(seat, cids[0])
                return
            raise no(E.ERR_NO_MATCH)
        if self.vulnerable >= 0 or self.reveal is not None:
            self._turn_action()
        cs = v.cards.cards
        for c in cids[:-1]:  # all but the last go down in order
            hand.remove(c)
            self.discard.append(c)
            self._emit(ev.Played(seat, cs[c], None, False, None, False))
        # the last card is played as one card: UNO, colour, the number's effect once
        self._do_play(seat, cids[-1], -1, False, -1, swap, uno, -1)

    def _multi_moves(self) -> list[int]:
        """The multi-plays of the seat to act (at most 1024), in the core's order."""
        o = self.options
        if o.multiPlay != "same_number" or self.pending or self.phase != _T:
            return []
        v = self.variant
        side = self.side
        p = self.current
        hand = self.hands[p]
        acc = self._accept_mask()
        out: list[int] = []
        for c in sorted(set(hand)):
            if v.kind[side][c] != _NUMBER or not v.mask[side][c] & acc:
                continue
            pos = multiplay.others(v, side, hand, c)
            for mask in range(1, 1 << len(pos)):
                chosen = [j for j in range(len(pos)) if mask >> j & 1]
                # one code per set of cards: of identical cards, the first ones
                if any(
                    hand[pos[e]] == hand[pos[j]] and not mask >> e & 1
                    for j in chosen
                    for e in range(j)
                ):
                    continue
                code = multiplay.OP_MULTI | (c << 4) | (mask << 16)
                if o.seven_swap and v.number[side][c] == 7 and len(chosen) + 1 < len(hand):
                    for t in range(self.n):
                        if t != p and not self._out(t) and len(out) < 1024:
                            out.append(code | ((t + 1) << 25))
                elif len(out) < 1024:
                    out.append(code)
        return out

    def _misplay(self, seat: int, cid: int) -> None:
        self._turn_action()
        self._emit(ev.Misplayed(seat, self.cards[cid]))
        got = self._give(seat, 2, "misplay")
        self.uno_pre = -1
        if not self._turn_ended(got):
            self.current = self._next(seat)

    def _do_play(
        self,
        seat: int,
        cid: int,
        color: int,
        flex: bool,
        target: int,
        swap: int,
        uno: bool,
        flip_color: int,
    ) -> None:
        v = self._tables
        side = self.side
        hand = self.hands[seat]
        if self.vulnerable >= 0 or self.reveal is not None:
            self._turn_action()
        kind = v.kind[side][cid]
        legal = True
        restricted = self._restricted_side(cid, flex)
        if restricted:
            legal = self._restricted_legal(seat, cid)
        hand.remove(cid)
        self.discard.append(cid)
        self.wild_top = False
        self.drawn = -1
        self.empty_draws = 0
        log = self.log is not None
        if log:
            self._emit(
                ev.Played(
                    seat,
                    v.cards.cards[cid],
                    None if color < 0 else Color(color),
                    flex,
                    None if target < 0 else target,
                    seat != self.current,
                )
            )
        left = len(hand)
        if left == 1:
            if uno or self.uno_pre == seat:
                self.uno[seat] = _SAFE
                # a call made with the play is announced like any other call
                # (a pre-announced one was announced when it was made)
                if log and self.uno_pre != seat:
                    self._emit(ev.UnoCalled(seat))
            else:
                self.uno[seat] = _VULN
                self.vulnerable = seat
        elif left == 0 or self.uno[seat]:
            self.uno[seat] = _NONE
        self.uno_pre = -1
        if color >= 0:
            self.color = color
        else:
            col = v.color[side][cid]
            if col >= 0:
                self.color = col
        self.phase = _T
        # Flex Power Card transitions (docs/rules.md §4.3), in order.
        if v.flex:
            self._powers_after(seat, cid, flex, kind)
        if left == 0:
            self._final_card(seat, cid, kind, flex, target, color)
            return
        if kind == _NUMBER and self._plain:  # the common case, kept short
            self.current = (seat + self.direction) % self.n
            return
        o = self.options
        n = self._alive()  # mercy (§6.12): the players still in
        self.current = seat
        # ---- effects
        if self.pending and self._deflects(cid, flex):
            # deflect (§6.7): the whole pending draw passes to the next player
            # (after a Reverse, in the new direction); nobody is skipped and the
            # new victim may no longer challenge
            if kind in (_REVERSE, _FLEX_REVERSE):
                self.direction = -self.direction
                if log:
                    self._emit(ev.Reversed(self.direction))
            self._clear_challenge()
            self.current = self._next(seat)
        elif kind == _NUMBER:
            num = v.number[side][cid]
            if num == 7 and swap >= 0:
                self._swap(seat, swap)
            elif num == 0 and o.zero_rotate:
                self._rotate_hands()
            self.current = self._next(seat)
        elif kind == _SKIP or (kind == _FLEX_SKIP and not flex):
            victim = self._next(seat)
            if log:
                self._emit(ev.Skipped(victim))
            self.current = self._next(seat, 2)
        elif kind == _REVERSE or (kind == _FLEX_REVERSE and not flex):
            self.direction = -self.direction
            if log:
                self._emit(ev.Reversed(self.direction))
            self.current = seat if n == 2 else self._next(seat)
        elif kind == _WILD or kind == _WAF or (not flex and (kind == _WAD or kind == _WTD)):
            self.current = self._next(seat)
        elif kind == _FLIP:
            self._flip_piles()
            top = self.discard[-1]
            tc = v.color[self.side][top]
            nxt = self._next(seat)
            if tc >= 0:
                self.color = tc
                self.current = nxt
            elif flip_color >= 0 and o.flipExposedWildChooser == "flip_player":
                self.color = flip_color
                self.current = nxt
            else:
                self.phase = _C
                self.color_reason = "flip_exposed_wild"
                self.color = -1
                self.color_next = nxt
                if o.flipExposedWildChooser == "next_player":
                    self.current = nxt
        elif kind == _SKIP_EVERYONE or kind == _FLEX_SKIP:  # flex side: Skip All
            if log:
                for k in range(1, n):
                    self._emit(ev.Skipped(self._next(seat, k)))
            self.current = seat
        elif kind == _FLEX_REVERSE:  # flex side: reverse then skip
            self.direction = -self.direction
            if log:
                self._emit(ev.Reversed(self.direction))
                self._emit(ev.Skipped(self._next(seat)))
            self.current = seat if n == 2 else self._next(seat, 2)
        elif flex and (kind == _FLEX_DRAW_TWO or kind == _WAD):  # everyone else draws
            amount = 1 if kind == _FLEX_DRAW_TWO else 2
            for s in self._others(seat):
                self._give(s, amount, "penalty")
            self.current = self._next(seat)
        elif kind == _WTD or (kind == _FW4 and flex and not restricted):
            self._give(target, 2 if kind == _WTD else 4, "penalty")
            self.current = self._next(seat)
        elif restricted:
            self._restricted_play(seat, cid, kind, legal, flex, target)
        else:  # Draw Two / Draw One / Draw Five
            amount = v.draw_amount[side][cid]
            victim = self._next(seat)
            if o.stacking != "off" or o.deflect != "off":  # a pending draw (§6.1, §6.7)
                self._stack(cid, amount)
                self.current = victim
            else:
                self._give(victim, amount, "penalty")
                if log:
                    self._emit(ev.Skipped(victim))
                self.current = self._next(victim)

    def _stack(self, cid: int, amount: int) -> None:
        v = self.variant
        if not v.restricted[self.side][cid]:
            self._clear_challenge()  # only the last stacked card can be challenged
        self.pending += amount
        self.stack_class = v.stack_class[self.side][cid]
        self.stack_amount = amount

    def _restricted_play(
        self, seat: int, cid: int, kind: int, legal: bool, flex: bool, target: int
    ) -> None:
        o = self.options
        victim = target if flex else self._next(seat)
        if flex:  # flexFlexSideWD4Restricted: the target may challenge, nobody is skipped
            after = after_success = self._next(seat)
        else:
            after, after_success = self._next(victim), victim
        stack = (o.stacking != "off" or o.deflect != "off") and kind != _WDC and not flex
        unchallenged = o.no_challenge  # noBluff (§6.6) or wildDrawChallenge=off (§6.14)
        if unchallenged and not stack:
            self._penalty(victim, kind, 0)
            if not flex and self.log is not None:
                self._emit(ev.Skipped(victim))
            self.current = after
            return
        if not unchallenged:  # with noBluff the play was legal: nothing to challenge
            self.ch_offender = seat
            self.ch_legal = legal
            self.ch_card = cid
            self.ch_after = after
            self.ch_after_success = after_success
        if stack:
            if unchallenged:
                self._clear_challenge()
            self._stack(cid, self.variant.draw_amount[self.side][cid])
            self.current = victim
            return
        self.phase = _CH
        self.current = victim

    def _penalty(self, seat: int, kind: int, extra: int, reason: str = "penalty") -> None:
        if kind == _WDC:
            self._draw_until(seat, self.color, extra, reason)
        else:
            amount = 4 if kind in (_WD4, _FW4) else 2
            self._give(seat, amount + extra, reason)

    def _powers_after(self, seat: int, cid: int, flex: bool, kind: int) -> None:
        p = self.powers
        before = p[:]
        if flex:
            p[seat] = False
        if self.variant.flip_icon[cid]:
            p[seat] = not p[seat]
        waf = kind == _WAF
        if waf:
            for i in range(self.n):
                p[i] = not p[i]
        if not any(p) and not (
            waf and self.options.flexWildAllFlipResetCheck == "skip_after_wild_all_flip"
        ):
            for i in range(self.n):
                p[i] = True
        if self.log is not None and p != before:
            self._emit(ev.PowersChanged(tuple(p)))

    def _final_card(
        self, seat: int, cid: int, kind: int, flex: bool, target: int, color: int
    ) -> None:
        """The player went out: the last card's effects still resolve (docs/rules.md §1.12)."""
        v = self.variant
        o = self.options
        victim = self._next(seat)
        if self.pending and kind in (_REVERSE, _FLEX_REVERSE) and self._deflects(cid, flex):
            victim = self._next(seat, -1)  # a deflecting Reverse going out (§6.7)
        if kind == _FLIP:
            if o.flipLastCardFlips:
                self._flip_piles()
                tc = v.color[self.side][self.discard[-1]]
                self.color = tc
        elif kind == _WDC:
            extra = self.pending
            self._draw_until(victim, self.color, 0)
            if extra:
                self._give(victim, extra, "stack")
        elif flex and (kind == _FLEX_DRAW_TWO or kind == _WAD):
            amount = 1 if kind == _FLEX_DRAW_TWO else 2
            for s in self._others(seat):
                self._give(s, amount, "penalty")
        elif flex and (kind == _WTD or kind == _FW4):
            self._give(target, 2 if kind == _WTD else 4, "penalty")
        else:
            amount = v.draw_amount[self.side][cid] if not flex else 0
            if kind in (_WAD, _WTD):
                amount = 0
            if amount or self.pending:
                self._give(victim, amount + self.pending, "penalty")
        self.pending = 0
        self._end_round(seat)

    def _swap(self, seat: int, other: int) -> None:
        h = self.hands
        h[seat], h[other] = h[other], h[seat]
        for s in (seat, other):
            self.uno[s] = _NONE
        self.vulnerable = -1
        if self.log is not None:
            self._emit(ev.HandsSwapped((seat, other), (other, seat)))

    def _rotate_hands(self) -> None:
        n = self.n
        old = self.hands
        # mercy (§6.12): only the seats in pass and receive
        seats = [s for s in range(n) if not self._out(s)]
        sources = [self._next(s, -1) for s in seats]
        self.hands = list(old)
        for s, f in zip(seats, sources, strict=True):
            self.hands[s] = old[f]
            self.uno[s] = _NONE
        self.vulnerable = -1
        if self.log is not None:
            self._emit(ev.HandsSwapped(tuple(seats), tuple(sources)))

    def draw_card(self, seat: int) -> None:
        """DRAW: the turn's one card, or the stacked penalty (docs/rules.md §1.6, §6.1)."""
        self._seat_ok(seat, "draw")
        err = self._check_turn(seat, (_T,))
        if err:
            raise refusal(self, err, "draw", seat)
        o = self.options
        if self.pending:
            self._turn_action()
            total = self.pending
            self.pending = self.stack_class = self.stack_amount = 0
            self._clear_challenge()
            if self._turn_ended(self._give(seat, total, "stack")):
                return
            if self.log is not None:
                self._emit(ev.Skipped(seat))
            self.current = self._next(seat)
            return
        if o.forcedPlay and self._has_forced_play(seat):
            raise refusal(self, E.ERR_FORCED, "draw", seat)
        self._turn_action()
        self.uno_pre = -1
        hand = self.hands[seat]
        # handLimit (§6.11): a full hand draws nothing, as from an empty pile
        c = self._draw_one() if self._room(seat) else -1
        if c < 0:
            self._emit(ev.Drew(seat, 0, (), () if self.variant.two_sided else None, "draw"))
            if not self._turn_ended(0):
                self.current = self._next(seat)
            return
        self.empty_draws = 0
        got = [c]
        hand.append(c)
        if o.drawUntilPlayable:
            while not self.playable(seat, c) and self._room(seat):
                c = self._draw_one()
                if c < 0:
                    break
                hand.append(c)
                got.append(c)
            c = got[-1]
        if self.uno[seat]:
            self._uno_off(seat)
        if self.log is not None:
            self._log_draw(seat, got, "draw")
        self._mercy_check(seat)
        if self._out(seat):
            self.current = self._next(seat)
        elif self.playable(seat, c):
            self.phase = _D
            self.drawn = c
        else:
            self.current = self._next(seat)

    def _plain_draw(self, seat: int, acc: int, flex: bool) -> None:
        """What :meth:`draw_card` does for ``seat``, the seat to act, on a plain
        turn, without its checks: the hot path of playouts. The caller knows
        that no penalty waits, nobody is vulnerable, no hand is revealed, the
        draw pile is not empty, no event log is kept and ``drawUntilPlayable``
        is off. ``acc`` is the turn's accept mask; ``flex``: the seat's Power
        Card is green (Flex)."""
        c = self.draw.pop()
        self.hands[seat].append(c)
        self.empty_draws = 0
        self.uno_pre = -1
        if self.uno[seat]:
            self._uno_off(seat)
        v = self.variant
        if v.mask[self.side][c] & acc or (flex and v.flexmask[c] & acc):
            self.phase = _D
            self.drawn = c
        else:
            self.current = self._next(seat)

    def keep(self, seat: int) -> None:
        """PASS: keep the playable card just drawn."""
        self._seat_ok(seat, "pass")
        err = self._check_turn(seat, (_D,))
        if err == E.ERR_PHASE and self.phase == _T and seat == self.current:
            err = E.ERR_NOT_DRAWN
        if err:
            raise refusal(self, err, "pass", seat)
        if self._must_play_drawn(seat):
            why = E.ERR_FORCED_DRAWN if self.options.forcedPlay else E.ERR_MUST_PLAY_DRAWN
            raise refusal(self, why, "pass", seat)
        self._turn_action()
        self.uno_pre = -1
        self.drawn = -1
        self.phase = _T
        self._emit(ev.Passed(seat))
        self.current = self._next(seat)

    def choose_color(self, seat: int, color: int) -> None:
        """CHOOSE_COLOR in ``AWAIT_COLOR``."""
        self._seat_ok(seat, "color")
        err = self._check_turn(seat, (_C,))
        if not err and not (0 <= color < 8 and Color(color) in self.variant.colors(self.side)):
            err = E.ERR_BAD_COLOR
        if err:
            raise refusal(self, err, "color", seat, color=color)
        self.color = color
        self.phase = _T
        self.current = self.color_next
        self.color_reason = ""
        self.color_next = -1
        self._emit(ev.ColorChosen(seat, Color(color)))

    def accept(self, seat: int) -> None:
        """ACCEPT a restricted wild draw: take the base penalty, lose the turn."""
        self._seat_ok(seat, "accept")
        err = self._check_turn(seat, (_CH,))
        if err:
            raise refusal(self, err, "accept", seat)
        self._turn_action()
        kind = self.variant.kind[self.side][self.ch_card]
        self._emit(ev.Accepted(seat))
        size = len(self.hands[seat])
        self._penalty(seat, kind, 0)
        after = self.ch_after
        loses_turn = after != self.ch_after_success  # not a flex-side FW4
        if loses_turn and self._turn_ended(len(self.hands[seat]) - size):
            self._clear_challenge()
            return
        if after != seat:
            self._emit(ev.Skipped(seat))
        self._clear_challenge()
        self.phase = _T
        self.current = after

    def challenge(self, seat: int) -> None:
        """CHALLENGE a restricted wild draw (docs/rules.md §1.10)."""
        self._seat_ok(seat, "challenge")
        if self.pending and self.ch_offender >= 0 and self.phase == _T and seat == self.current:
            self._challenge_stack(seat)
            return
        err = self._check_turn(seat, (_CH,))
        if err == E.ERR_PHASE and self.phase == _T and self.pending and seat == self.current:
            err = E.ERR_NO_CHALLENGE  # the stacked card is not a restricted wild draw
        if err:
            raise refusal(self, err, "challenge", seat)
        self._turn_action()
        off = self.ch_offender
        kind = self.variant.kind[self.side][self.ch_card]
        revealed = tuple(self.hands[off])
        self.reveal = (seat, off, revealed)
        if self.log is not None:
            cs = self.cards
            self._emit(ev.Challenged(seat, off, not self.ch_legal, tuple(cs[c] for c in revealed)))
        # both outcomes draw with reason "challenge": the failed challenger's
        # penalty, or the guilty offender's
        if self.ch_legal:
            size = len(self.hands[seat])
            self._penalty(seat, kind, 2, "challenge")
            self.current = self.ch_after
            loses_turn = self.ch_after != self.ch_after_success  # not a flex-side FW4
            if loses_turn and self._turn_ended(len(self.hands[seat]) - size):
                self._clear_challenge()
                return
        else:
            self._penalty(off, kind, 0, "challenge")
            self.current = self.ch_after_success
        self._clear_challenge()
        self.phase = _T

    def _challenge_stack(self, seat: int) -> None:
        self._turn_action()
        off = self.ch_offender
        revealed = tuple(self.hands[off])
        self.reveal = (seat, off, revealed)
        total = self.pending
        if self.log is not None:
            cs = self.cards
            self._emit(ev.Challenged(seat, off, not self.ch_legal, tuple(cs[c] for c in revealed)))
        self.pending = self.stack_class = self.stack_amount = 0
        if self.ch_legal:
            drew = self._give(seat, total + 2, "challenge")
            self._clear_challenge()
            if self._turn_ended(drew):
                return
            self.current = self._next(seat)
        else:
            self._give(off, total, "challenge")
            self.current = seat
        self._clear_challenge()

    def _clear_challenge(self) -> None:
        self.ch_offender = self.ch_card = self.ch_after = self.ch_after_success = -1
        self.ch_legal = False

    def call_uno(self, seat: int) -> bool:
        """CALL_UNO: safe with one card; with two on one's own turn, a
        pre-announcement for the next play; otherwise accepted with no effect
        at all (no event, not recorded; docs/rules.md D65). Returns whether it had
        an effect."""
        self._seat_ok(seat, "uno")
        if self.phase in (_RO, _MO, _DEAL):
            raise refusal(self, E.ERR_NOT_IN_ROUND, "uno", seat)
        size = len(self.hands[seat])
        if size == 1 and self.uno[seat] != _SAFE:
            self.uno[seat] = _SAFE
            if self.vulnerable == seat:
                self.vulnerable = -1
        elif size == 2 and seat == self.current and self.phase in (_T, _D) and self.uno_pre != seat:
            self.uno_pre = seat
        else:
            return False
        self._emit(ev.UnoCalled(seat))
        return True

    def catch(self, seat: int, target: int) -> bool:
        """CATCH ``target`` for not calling UNO. A catch of oneself is rejected;
        a catch of a seat that is not vulnerable costs ``falseCatchPenalty``
        cards, and with 0 is accepted with no effect at all (no event, not
        recorded; docs/rules.md D65). Returns whether it had an effect."""
        self._seat_ok(seat, "catch")
        self._seat_ok(target, "catch")
        if self.phase in (_RO, _MO, _DEAL):
            raise refusal(self, E.ERR_NOT_IN_ROUND, "catch", seat, target=target)
        if seat == target:
            raise refusal(self, E.ERR_CATCH_SELF, "catch", seat, target=target)
        if self._out(seat):
            raise refusal(self, E.ERR_OUT, "catch", seat, target=target)
        if self.uno[target] == _VULN:
            self.uno[target] = _NONE
            self.vulnerable = -1
            self._emit(ev.Caught(seat, target, True))
            self._give(target, self.options.unoPenalty, "catch")
            return True
        if not self.options.falseCatchPenalty:
            return False
        self._emit(ev.Caught(seat, target, False))
        self._give(seat, self.options.falseCatchPenalty, "false_catch")
        return True

    def legal_moves(self, seat: int | None = None) -> list[int]:
        """Like :meth:`legal_actions`, as integer move codes (see :meth:`decode`)."""
        if self.phase in (_RO, _MO, _DEAL):
            return []
        s = self.current if seat is None else seat
        if self._out(s):  # mercy (§6.12): an out seat has no command
            return []
        moves = self.turn_moves() if s == self.current else []
        if s != self.current and self.options.jumpIn and self.phase == _T and not self.pending:
            moves += self._jump_moves(s)
        size = len(self.hands[s])
        if (size == 1 and self.uno[s] != _SAFE) or (
            size == 2 and s == self.current and self.phase in (_T, _D) and self.uno_pre != s
        ):
            moves.append(OP_UNO)
        v = self.vulnerable
        if v >= 0 and v != s:
            moves.append(OP_CATCH | ((v + 1) << 21))
        return moves

    def _jump_moves(self, seat: int) -> list[int]:
        v = self.variant
        side = self.side
        ident = self._top_ident()
        if ident < 0:
            return []
        out = []
        for c in sorted(set(self.hands[seat])):
            if v.ident[side][c] == ident:
                out += self._play_codes(seat, c, False, last=len(self.hands[seat]) == 1)
        return out

    def turn_moves(self) -> list[int]:
        """The current player's turn decisions as move codes (no UNO or catch)."""
        ph = self.phase
        p = self.current
        v = self.variant
        if ph == _T:
            hand = self.hands[p]
            side = self.side
            acc = self._accept_mask()
            mask = v.mask[side]
            moves: list[int] = []
            last = len(hand) == 1
            if self.pending:
                sc_tab = v.stack_class[side]
                amt = v.draw_amount[side]
                mode = self.options.stacking
                acc = self._accept_mask()
                for c in sorted(set(hand)):
                    if self._deflects(c, False):  # deflect (§6.7)
                        if mask[c] & acc:
                            moves += self._play_codes(p, c, False, last)
                        continue
                    sc = sc_tab[c]
                    if not sc or mode == "off" or not mask[c] & acc:
                        continue
                    if mode == "same_symbol" and sc != self.stack_class:
                        continue
                    if mode == "escalate" and amt[c] < self.stack_amount:
                        continue
                    moves += self._play_codes(p, c, False, last)
                moves.append(OP_DRAW)
                if self.ch_offender >= 0:
                    moves.append(OP_CHALLENGE)
                return moves
            flex = v.flex and self.powers[p]
            fmask = v.flexmask
            plain = self._plain  # no option changes the list of plain cards' moves
            playable = False
            for c in sorted(set(hand)):
                m = mask[c]
                if m & acc:
                    if plain and not m & WILD_BIT:
                        moves.append(c << 4)
                        playable = True
                    else:
                        codes = self._play_codes(p, c, False, last)
                        if codes:
                            playable = True
                            moves += codes
                if flex and fmask[c] & acc:
                    moves += self._play_codes(p, c, True, last)
                    playable = True
            moves += self._multi_moves()  # multiPlay (§6.9)
            if not (playable and self.options.forcedPlay and self._has_forced_play(p)):
                moves.append(OP_DRAW)
            return moves
        if ph == _D:
            c = self.drawn
            last = len(self.hands[p]) == 1
            moves = []
            acc = self._accept_mask()
            if v.mask[self.side][c] & acc:
                moves += self._play_codes(p, c, False, last)
            if v.flex and self.powers[p] and v.flexmask[c] & acc:
                moves += self._play_codes(p, c, True, last)
            if not self._must_play_drawn(p):
                moves.append(OP_PASS)
            return moves
        if ph == _C:
            return [OP_COLOR | ((int(c) + 1) << 16) for c in v.colors(self.side)]
        if ph == _CH:
            return [OP_ACCEPT, OP_CHALLENGE]
        return []

    def _play_codes(self, seat: int, c: int, flex: bool, last: bool) -> list[int]:
        v = self.variant
        side = self.side
        kind = v.kind[side][c]
        base = (c << 4) | (_FLEX_BIT if flex else 0)
        o = self.options
        if last and o.finishRestriction != "off" and self._finish_forbidden(c):
            return []
        if v.mask[side][c] & WILD_BIT:
            if o.noBluff and self._restricted_side(c, flex) and not self._restricted_legal(seat, c):
                return []
            cols = (4, 5, 6, 7) if side else (0, 1, 2, 3)
            if flex and (kind == _WTD or kind == _FW4):
                return [
                    base | ((col + 1) << 16) | ((t + 1) << 21)
                    for col in cols
                    for t in range(self.n)
                    if t != seat and not self._out(t)
                ]
            return [base | ((col + 1) << 16) for col in cols]
        if o.seven_swap and kind == _NUMBER and v.number[side][c] == 7 and not last:
            return [base | ((t + 1) << 25) for t in range(self.n) if t != seat and not self._out(t)]
        return [base]

    def apply_move(self, move: int, seat: int | None = None, uno: bool = False) -> None:
        """Carry out a move code for ``seat`` (default: the seat to act) without
        building events objects for the caller; ``uno`` calls UNO with a play.
        Illegal moves raise like :meth:`apply`."""
        s = self.current if seat is None else seat
        op = move & 15
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
        elif op == multiplay.OP_MULTI:
            self._seat_ok(s, "play")
            got = multiplay.decode(self.variant, self.side, self.hands[s], move)
            if got is None:
                raise refusal(self, E.ERR_MOVE, "move", s, move=move)
            self.play_multi(s, *got, uno)
        else:
            raise refusal(self, E.ERR_MOVE, "move", s, move=move)

    def _step(self, move: int, uno: bool = True) -> None:
        """Carry out a move code that came from :meth:`turn_moves` for the seat
        to act, without re-checking it (the hot path of random playouts; the
        test suite proves it equals :meth:`apply_move`)."""
        if move & 15 == OP_PLAY:
            self._do_play(
                self.current,
                (move >> 4) & 0xFFF,
                ((move >> 16) & 15) - 1,
                bool(move & _FLEX_BIT),
                ((move >> 21) & 15) - 1,
                ((move >> 25) & 15) - 1,
                uno,
                -1,
            )
        else:
            self.apply_move(move, self.current, uno)


def _settled(name: str) -> None:
    """Wrap command ``name`` of :class:`ReferenceGame`: after it is accepted,
    mercy (§6.12) settles the position (one player left wins; an out seat to
    act is passed over)."""
    fn = getattr(ReferenceGame, name)

    def run(self: ReferenceGame, *args: Any, **kwargs: Any) -> Any:
        result = fn(self, *args, **kwargs)
        self._mercy_settle()
        return result

    run.__doc__ = fn.__doc__
    run.__name__ = name
    setattr(ReferenceGame, name, run)


for _name in (
    "play",
    "play_multi",
    "draw_card",
    "keep",
    "choose_color",
    "accept",
    "challenge",
    "call_uno",
    "catch",
    "_step",
):
    _settled(_name)


def playout_python(
    game: ReferenceGame, rnd: Callable[[], float], max_turns: int = 1_000_000
) -> int:
    """:func:`playout` in Python, on ``Game`` itself (keeps events): the
    reference the core's playout is compared with."""
    v = game.variant
    o = game.options
    flexv = v.flex
    # noBluff and finishRestriction remove some plays: use the general path
    fast = not o.noBluff and o.finishRestriction == "off" and not o.mercy
    plain_numbers = not flexv and game._plain and game.log is None
    quick_draw = fast and game.log is None and not o.drawUntilPlayable and not o.handLimit
    colors_of = ((0, 1, 2, 3), (4, 5, 6, 7))
    fmask = v.flexmask
    step = game._step
    n = game.n
    turns = 0
    while game.phase < _RO and turns < max_turns:
        turns += 1
        if fast and game.phase == _T and not game.pending:
            side = game.side
            mask = v.mask[side]
            acc = game._accept_mask()
            cur = game.current
            hand = game.hands[cur]
            flexok = flexv and game.powers[cur]
            if flexok:
                ok = [c for c in hand if mask[c] & acc or fmask[c] & acc]
            else:
                ok = [c for c in hand if mask[c] & acc]
            if not ok:
                d = game.draw
                if quick_draw and d and game.vulnerable < 0 and game.reveal is None:
                    game._plain_draw(cur, acc, flexok)
                else:
                    game.draw_card(cur)
                continue
            c = ok[int(rnd() * len(ok))]
            m = mask[c]
            if (
                plain_numbers
                and not m & WILD_BIT
                and v.kind[side][c] == _NUMBER
                and len(hand) > 2
                and game.vulnerable < 0
                and game.reveal is None
            ):
                hand.remove(c)
                game.discard.append(c)
                game.wild_top = False
                game.empty_draws = 0
                game.uno_pre = -1
                game.color = v.color[side][c]
                game.current = (cur + game.direction) % n
                continue
            if not flexok or not fmask[c] & acc:
                if not m & WILD_BIT and game._plain:
                    game._do_play(cur, c, -1, False, -1, -1, True, -1)
                    continue
                if m & WILD_BIT and not flexv:
                    col = colors_of[side][int(rnd() * 4)]
                    game._do_play(cur, c, col, False, -1, -1, True, -1)
                    continue
            # the general case: every way to play this card, in turn_moves() order
            last = len(hand) == 1
            codes = game._play_codes(cur, c, False, last) if m & acc else []
            if flexok and fmask[c] & acc:
                codes += game._play_codes(cur, c, True, last)
            step(codes[0] if len(codes) == 1 else codes[int(rnd() * len(codes))])
            continue
        if fast and game.phase == _D and not flexv:
            # play the drawn card (each colour of a wild is a choice) or keep it
            cur = game.current
            c = game.drawn
            wild = v.mask[game.side][c] & WILD_BIT
            if wild or game._plain:
                nplay = 4 if wild else 1
                k = int(rnd() * (nplay + (0 if game._must_play_drawn(cur) else 1)))
                if k == nplay:
                    game.keep(cur)
                else:
                    col = colors_of[game.side][k] if wild else -1
                    game._do_play(cur, c, col, False, -1, -1, True, -1)
                continue
        step(random_move(game, rnd))
    return turns
