"""Random legal games for every variant, player count and option set (Hypothesis).

Each example deals a match with random options drawn from docs/rules.md (Options) and
plays it with a random policy over *every* seat's legal actions (turn decisions,
UNO calls with or without a play, catches, jump-ins). After every step:

* the §8 invariants hold, with conservation of the round's card multiset
  (``check_invariants``), the deck is complete at each round start, Flex Power
  Cards are all green at each round start, and scores change only at round end;
* the seat to act always has a legal turn action (no dead end);
* every listed legal action of every seat is accepted by ``apply`` on a copy;
* random commands that are not listed (wrong seat, card not held, wrong colour,
  bad side/target/swap, out-of-phase verbs...) are rejected and change nothing,
  so enumeration and legality agree;
* every round ends within a bounded number of steps.

Examples are derandomized so CI runs the same games every time.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unokit import Color, Game, Kind, Phase, UnoError
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

DECK = {"classic": 108, "flip": 112, "flex": 104}
ROUND_STEP_LIMIT = 3000  # a round with this policy ends far sooner; this bounds a hang
CHECKED_STEPS = 120  # expensive per-step checks on the first steps of each example
MATCH_STEP_LIMIT = 1500

LIGHT = (Color.R, Color.Y, Color.G, Color.B)
DARK = (Color.Pk, Color.Tl, Color.Or, Color.Pu)


def _common() -> dict[str, st.SearchStrategy[Any]]:
    return {
        "targetScore": st.sampled_from([1, 60, 200, 500]),
        "scoringMode": st.sampled_from(["highest", "lowest"]),
        "matchMode": st.sampled_from(["points", "single_round"]),
        "lowestModeTie": st.sampled_from(["co_winners", "play_on"]),
        "dealerSelection": st.sampled_from(["cut", "random", "fixed", "fixed:1"]),
        "dealerRotation": st.sampled_from(["left", "winner", "random"]),
        "handSize": st.integers(1, 7),
        "unoPenalty": st.integers(0, 4),
        "falseCatchPenalty": st.integers(0, 2),
        "misplayPenalty": st.sampled_from(["off", "on"]),
        "blockedRound": st.sampled_from(["no_score", "lowest_hand_wins"]),
        "stacking": st.sampled_from(["off", "same_symbol", "escalate"]),
        "jumpIn": st.booleans(),
        "sevenZero": st.booleans(),
        "drawUntilPlayable": st.booleans(),
        "forcedPlay": st.booleans(),
        "noBluff": st.booleans(),
    }


VARIANT_OPTIONS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "classic": {"wildDrawWildsCountAsMatch": st.booleans()},
    "flip": {
        "wildDrawWildsCountAsMatch": st.booleans(),
        "flipPairing": st.sampled_from(["canonical", "random_seeded"]),
        "flipFirstCardWild": st.sampled_from(["choose", "redraw"]),
        "flipFirstCardFlip": st.sampled_from(["flip", "redraw"]),
        "flipExposedWildChooser": st.sampled_from(["flip_player", "next_player"]),
        "flipReverseDrawPile": st.booleans(),
        "flipLastCardFlips": st.booleans(),
        "flipDrawColorCap": st.one_of(st.none(), st.integers(1, 6)),
    },
    "flex": {
        "flexWildsCountAsMatch": st.booleans(),
        "flexFlexColorsCountAsMatch": st.booleans(),
        "flexWildAllFlipResetCheck": st.sampled_from(["immediate", "skip_after_wild_all_flip"]),
        "flexFlexSideWD4Restricted": st.booleans(),
        "flexFirstCardIgnored": st.sampled_from(["stay_in_discard", "return_to_deck"]),
        "flexActionCardsHaveFlexColor": st.just(False),  # true is refused (D66)
    },
}


@st.composite
def configs(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    variant = draw(st.sampled_from(["classic", "flip", "flex"]))
    players = draw(st.integers(2, 8 if variant == "flex" else 10))
    optional = _common() | VARIANT_OPTIONS[variant]
    options = draw(st.fixed_dictionaries({}, optional=optional))
    seed = draw(st.integers(0, 2**31 - 1))
    return variant, players, options, seed


# ---------------------------------------------------------------------------- checks


def _norm(action: Action) -> Action:
    if isinstance(action, Play):
        return dataclasses.replace(action, uno=False, flip_color=None)
    return action


def _round_cards(g: Game) -> Counter[int]:
    return g.all_cards()


def _candidates(g: Game, rnd: random.Random, seat: int) -> list[Action]:
    """Random commands of ``seat``, legal or not."""
    n = g.players
    colors = DARK if g.side else LIGHT
    out: list[Action] = [
        Draw(seat),
        Pass(seat),
        Accept(seat),
        Challenge(seat),
        ChooseColor(seat, rnd.choice(list(Color))),
        CallUno(seat),
        Catch(seat, rnd.randrange(n)),
    ]
    hand = g.hand(seat)
    pool = list(hand) + [rnd.choice(g.cards) for _ in range(2)]
    for card in rnd.sample(pool, min(4, len(pool))):
        face = card.face(g.side)
        if face.is_wild:
            color: Color | None = (
                rnd.choice(colors) if rnd.random() < 0.85 else rnd.choice(list(Color))
            )
        else:
            color = rnd.choice(list(Color)) if rnd.random() < 0.1 else None
        flex = (
            g.variant.flex and (card.has_flex_side or rnd.random() < 0.1) and (rnd.random() < 0.5)
        )
        target = rnd.randrange(n + 1) if rnd.random() < (0.9 if flex else 0.05) else None
        swap = rnd.randrange(n + 1) if rnd.random() < 0.3 else None
        out.append(Play(seat, card, color=color, flex=flex, target=target, swap=swap))
    return out


def _legal_but_unlisted(g: Game, action: Action) -> bool:
    """Commands the spec allows that ``legal_actions`` does not list on purpose."""
    if isinstance(action, (CallUno, Catch)):
        return True  # calls/catches without effect are accepted and change nothing
    if isinstance(action, Play):
        hand = g.hands[action.seat]
        if action.color is None and len(hand) == 1 and action.seat == g.current:
            return True  # a going-out wild needs no colour (§1.12)
        if (
            g.options.misplayPenalty == "on"
            and g.state == Phase.AWAIT_TURN
            and action.seat == g.current
        ):
            return True  # a non-matching play is a penalised misplay, not an error
    return False


def _check_unlisted(g: Game, action: Action) -> None:
    g2 = g.copy()
    try:
        g2.apply(action)
    except UnoError:
        assert g2 == g, f"rejected {action} changed the game"
        return
    if isinstance(action, (CallUno, Catch)):
        changed = g2 != g
        if isinstance(action, Catch) and g.options.falseCatchPenalty and changed:
            assert action.seat != action.target
            return
        assert not changed, f"{action} had an effect but is not in legal_actions"
        return
    assert _legal_but_unlisted(g, action), f"{action} was accepted but is not listed in {g!r}"
    if (
        isinstance(action, Play)
        and g.options.misplayPenalty == "on"
        and (g.hand(action.seat).count(action.card) and len(g2.discard) == len(g.discard))
    ):
        # §2.7 misplay: the card stays in hand, the player draws 2, the turn passes on
        supply = g.draw_count + len(g.discard) - 1
        assert len(g2.hands[action.seat]) == len(g.hands[action.seat]) + min(2, supply)
        assert not Counter(g.hand(action.seat)) - Counter(g2.hand(action.seat))  # card kept
        assert g2.current == (action.seat + g.direction) % g.players
        assert g2.discard_pile == g.discard_pile and g2.state == Phase.AWAIT_TURN


_CLASS = {
    Kind.SKIP: 1,
    Kind.FLEX_SKIP: 1,
    Kind.REVERSE: 2,
    Kind.FLEX_REVERSE: 2,
    Kind.DRAW_TWO: 3,
    Kind.FLEX_DRAW_TWO: 3,
    Kind.DRAW_ONE: 4,
    Kind.DRAW_FIVE: 5,
    Kind.FLIP: 6,
    Kind.SKIP_EVERYONE: 7,
}
_FLEX_SIDED = (
    Kind.FLEX_SKIP,
    Kind.FLEX_REVERSE,
    Kind.FLEX_DRAW_TWO,
    Kind.WILD_ALL_DRAW,
    Kind.WILD_TARGET_DRAW,
    Kind.FLEX_WILD_DRAW_FOUR,
)


def spec_playable(g: Game, seat: int, card: Any, flex: bool, rest: list[Any] | None = None) -> bool:
    """docs/rules.md §1.5 (and §4.4 for flex sides, §6.6 noBluff), written independently.
    ``rest``: the rest of the hand, if not the seat's hand without ``card``."""
    side = g.side
    face = card.face(side)
    top = g.top.face(side)  # type: ignore[union-attr]
    col = g.color
    if flex:
        if not g.variant.flex or not g.powers[seat]:
            return False
        if face.flex_color is not None:
            return int(face.flex_color) == col or (top.is_number and top.number == face.number)
        if face.kind not in _FLEX_SIDED:
            return False
    if face.is_wild:
        restricted = face.kind in (
            Kind.WILD_DRAW_FOUR,
            Kind.WILD_DRAW_TWO,
            Kind.WILD_DRAW_COLOR,
            Kind.FLEX_WILD_DRAW_FOUR,
        ) and not (flex and not g.options.flexFlexSideWD4Restricted)
        if restricted and g.options.noBluff:
            return Oracle._legal(g, seat, card, rest)
        return True
    if face.color is not None and int(face.color) == col:
        return True
    if face.is_number and top.is_number and face.number == top.number:
        return True
    return face.kind in _CLASS and not top.is_wild and _CLASS.get(top.kind) == _CLASS[face.kind]


def _check_matching(g: Game, listed: list[Action]) -> None:
    """The cards listed as playable are exactly those §1.5 allows."""
    seat = g.current
    if g.state == Phase.AWAIT_TURN and not g.pending:
        cards = set(g.hand(seat))
    elif g.state == Phase.AWAIT_DRAWN:
        cards = {g.cards[g.drawn]}
    else:
        return
    got = {(a.card, a.flex) for a in listed if isinstance(a, Play)}
    want = {(c, f) for c in cards for f in (False, True) if spec_playable(g, seat, c, f)}
    assert got == want, f"playable {sorted(map(str, got))} != spec {sorted(map(str, want))}"


def _check_step(g: Game, rnd: random.Random, initial: Counter[int]) -> None:
    n = g.players
    listed: dict[int, list[Action]] = {s: g.legal_actions(s) for s in range(n)}
    cur = g.current
    turn = [a for a in listed[cur] if not isinstance(a, (CallUno, Catch))]
    assert turn, f"no legal turn action for P{cur} in {g!r}"
    _check_matching(g, listed[cur])
    for actions in listed.values():
        for a in actions:
            g2 = g.copy()
            g2.apply(a)
            g2.check_invariants(initial)
    for seat in {cur, rnd.randrange(n)}:
        legal = {_norm(a) for a in listed[seat]}
        for a in _candidates(g, rnd, seat):
            if _norm(a) not in legal:
                _check_unlisted(g, a)


def _own_invariants(g: Game) -> None:
    """docs/rules.md §8 checked through the public API (not trusting check_invariants)."""
    n = g.players
    for s in range(n):
        if g.uno_state(s).name != "NONE":
            assert len(g.hand(s)) == 1, f"P{s} has a UNO state with {len(g.hand(s))} cards"
    assert g.discard_pile, "empty discard pile"
    if g.state in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return
    assert all(g.hand(s) for s in range(n)), "an empty hand while the round goes on"
    if g.state == Phase.AWAIT_TURN:
        colors = DARK if g.side else LIGHT
        assert g.current_color in colors, f"current colour {g.current_color} on side {g.side}"
    if g.variant.two_sided:
        assert g.side in (0, 1)
    else:
        assert g.side == 0


class Oracle:
    """Predicts, from docs/rules.md alone, the outcome of every play, challenge answer, colour
    choice, draw and catch of a random game, and asserts that the engine agrees.

    Modelled: §1.7 turn advancement and every card effect of §2.2, §3.4, §4.5 (both Flex
    sides), supply-limited draws with lazy reshuffle (§1.8), §3.5 flips, §1.10 legality
    bookkeeping and the three challenge outcomes, Wild Draw Color's draw-until (§3.9),
    Power Card transitions (§4.3), UNO states after a play (§1.11), final-card effects and
    scoring (§1.12, §1.13, §3.11), stacking (§6.1) and 7-0 swaps (§6.3). Not modelled
    (skipped): going out on a pending stack, the flex side of FW4 under
    flexFlexSideWD4Restricted, drawUntilPlayable draws."""

    def __init__(self) -> None:
        self.challenge: tuple[int, bool, Kind, int] | None = None
        self.stack_kind: Kind | None = None
        self.stack_amount = 0

    def apply(self, g: Game, action: Action) -> None:
        before = g.copy()
        g.apply(action)
        self._window(before, g, action)
        _own_invariants(g)
        if isinstance(action, Play):
            if not before.pending:
                self.challenge = None
            self._play(before, g, action)
        elif isinstance(action, (Draw, Challenge)) and before.pending:
            self._stack_answer(before, g, action)
        elif isinstance(action, (Accept, Challenge)) and before.state == Phase.AWAIT_CHALLENGE:
            self._answer(before, g, action)
        elif isinstance(action, ChooseColor):
            self._color(before, g, action)
        elif isinstance(action, Draw):
            self._draw(before, g, action)
        elif isinstance(action, Catch):
            self._catch(before, g, action)
        elif isinstance(action, NextRound):
            self.challenge = None
            self.stack_kind, self.stack_amount = None, 0

    @staticmethod
    def _window(before: Game, g: Game, action: Action) -> None:
        """D6: a turn action closes the catch window; colour choices, calls and
        catches of someone else do not."""
        if g.state in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return
        turn_action = isinstance(action, (Play, Draw, Pass, Accept, Challenge))
        for s in range(before.players):
            if before.uno_state(s).name != "VULNERABLE":
                continue
            if turn_action:
                assert g.uno_state(s).name != "VULNERABLE", f"{action} left P{s}'s window open"
            elif not (isinstance(action, CallUno) and action.seat == s) and not (
                isinstance(action, Catch) and action.target == s
            ):
                assert g.uno_state(s).name == "VULNERABLE", f"{action} closed P{s}'s window"

    # -------------------------------------------------------------- helpers

    @staticmethod
    def _supply(before: Game, played: bool) -> int:
        # after a play the played card is the top; everything under it can be reshuffled
        return before.draw_count + len(before.discard) - (0 if played else 1)

    @staticmethod
    def _check_draws(
        before: Game,
        g: Game,
        draws: list[tuple[int, int]],
        supply: int,
        player: int = -1,
        skip: tuple[int, ...] = (),
    ) -> None:
        expected = [0] * before.players
        if player >= 0:
            expected[player] -= 1
        for seat, k in draws:
            got = min(k, supply)
            supply -= got
            expected[seat] += got
        actual = [len(g.hands[s]) - len(before.hands[s]) for s in range(before.players)]
        for s in skip:
            expected[s] = actual[s]
        assert actual == expected, f"hand sizes changed by {actual}, expected {expected}"

    @staticmethod
    def _check_until(before: Game, g: Game, seat: int, color: int, extra: int, supply: int) -> None:
        drawn = g.hand(seat)[len(before.hands[seat]) :]
        cap = g.options.flipDrawColorCap
        loop = drawn[: len(drawn) - extra] if len(drawn) >= extra else drawn
        if extra and len(drawn) < supply:
            assert len(drawn) >= extra
        side = g.side
        hits = [
            i
            for i, c in enumerate(loop)
            if c.face(side).color is not None and int(c.face(side).color) == color
        ]  # type: ignore[arg-type]
        if hits:
            assert hits == [len(loop) - 1], "draw-until went past the first card of the colour"
        else:
            assert len(drawn) == supply or (cap is not None and len(loop) == cap), (
                "draw-until stopped before finding the colour"
            )
        if cap is not None:
            assert len(loop) <= cap

    @staticmethod
    def _legal(before: Game, seat: int, card: Any, rest: list[Any] | None = None) -> bool:
        o = before.options
        flex_variant = before.variant.flex
        if rest is None:
            hand = list(before.hand(seat))
            hand.remove(card)
        else:
            hand = rest
        col = before.color
        restricted = before.variant.restricted[before.side]
        for c in hand:
            if o.noBluff and restricted[before.variant.cards.index[c]]:
                continue  # docs/decisions.md E15: another restricted wild draw is no match
            f = c.face(before.side)
            if f.color is not None and int(f.color) == col:
                return False
            if f.is_wild and (
                o.flexWildsCountAsMatch if flex_variant else o.wildDrawWildsCountAsMatch
            ):
                return False
            fc = c.light.flex_color
            if flex_variant and o.flexFlexColorsCountAsMatch and fc is not None and int(fc) == col:
                return False
        return True

    # -------------------------------------------------------------- commands

    def _play(self, before: Game, g: Game, a: Play) -> None:
        o = before.options
        i, n, d, side = a.seat, before.players, before.direction, before.side
        face = a.card.face(side)
        kind = face.kind
        if kind == Kind.FLEX_WILD_DRAW_FOUR and a.flex and o.flexFlexSideWD4Restricted:
            return

        def nxt(k: int, dd: int = d) -> int:
            return (i + k * dd) % n

        supply = self._supply(before, True)
        final = len(before.hands[i]) == 1
        restricted = kind in (Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR) or (
            kind == Kind.FLEX_WILD_DRAW_FOUR and not a.flex
        )
        base = {
            Kind.WILD_DRAW_FOUR: 4,
            Kind.FLEX_WILD_DRAW_FOUR: 4,
            Kind.WILD_DRAW_TWO: 2,
            Kind.DRAW_TWO: 2,
            Kind.DRAW_ONE: 1,
            Kind.DRAW_FIVE: 5,
            Kind.FLEX_DRAW_TWO: 2,
        }
        stackable = kind in base and not a.flex
        if o.stacking != "off" and (before.pending or (stackable and not final)):
            if final:
                return  # going out on a stack: not specified by §1.12/§6.1
            self._stack_play(before, g, a, kind, base[kind], restricted, nxt(1))
            return
        if o.sevenZero and kind == Kind.NUMBER and face.number in (0, 7) and not final:
            self._seven_zero(before, g, a, face.number == 7, nxt(1))
            return
        others = [nxt(k) for k in range(1, n)]
        draws: list[tuple[int, int]] = []
        skip: tuple[int, ...] = ()
        if a.flex and kind == Kind.FLEX_DRAW_TWO:
            draws = [(s, 1) for s in others]
        elif a.flex and kind == Kind.WILD_ALL_DRAW:
            draws = [(s, 2) for s in others]
        elif a.flex and kind in (Kind.WILD_TARGET_DRAW, Kind.FLEX_WILD_DRAW_FOUR):
            assert a.target is not None
            draws = [(a.target, 2 if kind == Kind.WILD_TARGET_DRAW else 4)]
        elif kind in base and (final or not restricted):
            draws = [(nxt(1), base[kind])]
        elif kind == Kind.WILD_DRAW_COLOR and final:
            skip = (nxt(1),)

        # Power Cards (§4.3), checked for every play
        if before.variant.flex:
            p = list(before.powers)
            if a.flex:
                p[i] = False
            if a.card.light.flip_icon:
                p[i] = not p[i]
            waf = kind == Kind.WILD_ALL_FLIP
            if waf:
                p = [not x for x in p]
            if not any(p) and not (
                waf and o.flexWildAllFlipResetCheck == "skip_after_wild_all_flip"
            ):
                p = [True] * n
            assert g.powers == p, f"powers {g.powers}, expected {p}"

        if final:  # §1.12: the final card's effects resolve, then the round is scored
            assert g.state in (Phase.ROUND_OVER, Phase.MATCH_OVER) and g.winner == i
            flips = kind == Kind.FLIP and o.flipLastCardFlips
            assert g.side == (1 - side if flips else side)
            if kind == Kind.WILD_DRAW_COLOR:
                self._check_until(
                    before, g, nxt(1), int(a.color) if a.color is not None else -1, 0, supply
                )
            self._check_draws(before, g, draws, supply, i, skip)
            values = [sum(c.face(g.side).points for c in g.hand(s)) for s in range(n)]
            if o.scoringMode == "highest":
                assert g.round_points == sum(values)
                assert g.scores == [
                    sc + (sum(values) if s == i else 0) for s, sc in enumerate(before.scores)
                ]
            else:
                assert g.scores == [
                    sc + (values[s] if s != i else 0) for s, sc in enumerate(before.scores)
                ]
            return

        phase = Phase.AWAIT_TURN
        direction = d
        color = (
            int(a.color)
            if face.is_wild and a.color is not None
            else (-1 if face.color is None else int(face.color))
        )
        if kind == Kind.FLIP:
            assert g.side == 1 - side
            new_discard = list(reversed([*before.discard_pile, a.card]))
            assert g.discard_pile == new_discard
            pile = before.draw_pile
            assert g.draw_pile == (list(reversed(pile)) if o.flipReverseDrawPile else pile)
            top = new_discard[-1].face(1 - side)
            if top.is_wild and a.flip_color is None:
                phase = Phase.AWAIT_COLOR
                color = -1
                current = i if o.flipExposedWildChooser == "flip_player" else nxt(1)
            else:
                current = nxt(1)
                color = (
                    int(a.flip_color)
                    if top.is_wild and a.flip_color is not None
                    else int(top.color)
                )  # type: ignore[arg-type]
        elif (
            kind == Kind.NUMBER
            or kind in (Kind.WILD, Kind.WILD_ALL_FLIP)
            or (kind in (Kind.WILD_ALL_DRAW, Kind.WILD_TARGET_DRAW))
        ):
            current = nxt(1)
        elif kind == Kind.FLEX_WILD_DRAW_FOUR and a.flex:
            current = nxt(1)
        elif kind == Kind.SKIP or (kind == Kind.FLEX_SKIP and not a.flex):
            current = nxt(2)
        elif kind == Kind.REVERSE or (kind == Kind.FLEX_REVERSE and not a.flex):
            direction = -d
            current = i if n == 2 else nxt(1, -d)
        elif kind == Kind.SKIP_EVERYONE or kind == Kind.FLEX_SKIP:
            current = i
        elif kind == Kind.FLEX_REVERSE:
            direction = -d
            current = i if n == 2 else nxt(2, -d)
        elif kind == Kind.FLEX_DRAW_TWO and a.flex:
            current = nxt(1)
        elif restricted:
            legal = self._legal(before, i, a.card)
            if o.noBluff:
                assert legal, "noBluff accepted an illegal restricted wild draw"
                current = nxt(2)
                if kind == Kind.WILD_DRAW_COLOR:
                    skip = (nxt(1),)
                    self._check_until(before, g, nxt(1), color, 0, supply)
                else:
                    draws = [(nxt(1), base[kind])]
            else:
                phase = Phase.AWAIT_CHALLENGE
                current = nxt(1)
                self.challenge = (i, legal, kind, nxt(1))
        else:  # Draw Two / Draw One / Draw Five (and Flex Draw Two regular side)
            current = nxt(2)
        self._check_draws(before, g, draws, supply, i, skip)
        assert g.state == phase, f"{a}: state {g.state.name}, expected {phase.name}"
        assert g.current == current, f"{a}: P{g.current} to act, expected P{current}"
        assert g.direction == direction
        assert g.color == color, f"{a}: colour {g.color}, expected {color}"
        if len(g.hands[i]) == 1:
            expected_uno = "SAFE" if a.uno or before.uno_pre == i else "VULNERABLE"
            assert g.uno_state(i).name == expected_uno

    def _stack_play(
        self, before: Game, g: Game, a: Play, kind: Kind, amount: int, restricted: bool, victim: int
    ) -> None:
        """§6.1: the draw is kept pending and passed on; nobody draws yet."""
        o = before.options
        if before.pending:
            prev = self.stack_kind
            assert prev is not None, "a pending draw the oracle did not see"
            if o.stacking == "same_symbol":
                same = {
                    Kind.FLEX_DRAW_TWO: Kind.DRAW_TWO,
                    Kind.FLEX_WILD_DRAW_FOUR: Kind.WILD_DRAW_FOUR,
                }
                assert same.get(kind, kind) == same.get(prev, prev), (
                    f"same_symbol stacking accepted {kind.name} on {prev.name}"
                )
            else:
                assert amount >= self.stack_amount, "escalate accepted a smaller draw"
        self._check_draws(before, g, [], 0, a.seat)
        assert g.pending == before.pending + amount
        assert g.current == victim and g.state == Phase.AWAIT_TURN
        self.stack_kind, self.stack_amount = kind, amount
        if restricted and not o.noBluff:
            self.challenge = (a.seat, self._legal(before, a.seat, a.card), kind, victim)
        else:
            if restricted:
                assert self._legal(before, a.seat, a.card), "noBluff accepted a bluff"
            self.challenge = None

    def _stack_answer(self, before: Game, g: Game, a: Action) -> None:
        victim = before.current
        n, d = before.players, before.direction
        supply = self._supply(before, False)
        total = before.pending
        if isinstance(a, Draw):
            self._check_draws(before, g, [(victim, total)], supply)
            assert g.current == (victim + d) % n
        else:
            assert self.challenge is not None, "a stack was challenged without a restricted card"
            off, legal, _kind, v = self.challenge
            assert v == victim
            if legal:
                self._check_draws(before, g, [(victim, total + 2)], supply)
                assert g.current == (victim + d) % n
            else:
                self._check_draws(before, g, [(off, total)], supply)
                assert g.current == victim
        assert g.pending == 0 and g.state == Phase.AWAIT_TURN
        self.challenge = None
        self.stack_kind, self.stack_amount = None, 0

    @staticmethod
    def _seven_zero(before: Game, g: Game, a: Play, seven: bool, after: int) -> None:
        """§6.3: a 7 swaps with the chosen player, a 0 passes every hand on."""
        n, d, i = before.players, before.direction, a.seat
        old = [Counter(str(c) for c in before.hand(s)) for s in range(n)]
        old[i] -= Counter([str(a.card)])
        new = [Counter(str(c) for c in g.hand(s)) for s in range(n)]
        if seven:
            assert a.swap is not None
            j = a.swap
            expected = list(old)
            expected[i], expected[j] = old[j], old[i]
        else:
            expected = [old[(s - d) % n] for s in range(n)]
        assert new == expected, "7-0 hands"
        moved = {i, a.swap} if seven else set(range(n))
        for s in range(n):  # D57: no UNO state arises from a swap; bystanders keep theirs
            want = before.uno_state(s).name
            if s in moved or want == "VULNERABLE":  # the play also closed any catch window
                want = "NONE"
            assert g.uno_state(s).name == want, f"P{s} UNO state after 7-0"
        assert g.current == after and g.state == Phase.AWAIT_TURN

    def _answer(self, before: Game, g: Game, a: Action) -> None:
        if self.challenge is None:  # the play was not modelled (stacking)
            return
        off, legal, kind, victim = self.challenge
        self.challenge = None
        assert a.seat == victim == before.current  # type: ignore[union-attr]
        n, d = before.players, before.direction
        base = 2 if kind == Kind.WILD_DRAW_TWO else 4
        supply = self._supply(before, False)
        color = before.color
        if isinstance(a, Accept) or legal:
            extra = 0 if isinstance(a, Accept) else 2
            current = (victim + d) % n
            if kind == Kind.WILD_DRAW_COLOR:
                self._check_until(before, g, victim, color, extra, supply)
                self._check_draws(before, g, [], supply, skip=(victim,))
            else:
                self._check_draws(before, g, [(victim, base + extra)], supply)
        else:  # successful challenge: the offender draws, the challenger plays (D17)
            current = victim
            if kind == Kind.WILD_DRAW_COLOR:
                self._check_until(before, g, off, color, 0, supply)
                self._check_draws(before, g, [], supply, skip=(off,))
            else:
                self._check_draws(before, g, [(off, base)], supply)
        assert g.state == Phase.AWAIT_TURN and g.current == current
        assert g.color == color  # the declared colour stands (D18)

    @staticmethod
    def _color(before: Game, g: Game, a: ChooseColor) -> None:
        chooser = before.current
        assert a.seat == chooser
        keeps = before.color_reason == "first_card" or (
            before.options.flipExposedWildChooser == "next_player"
        )
        expected = chooser if keeps else (chooser + before.direction) % before.players
        assert g.state == Phase.AWAIT_TURN and g.current == expected
        assert g.current_color == a.color
        assert [len(h) for h in g.hands] == [len(h) for h in before.hands]

    def _draw(self, before: Game, g: Game, a: Draw) -> None:
        if before.pending:
            return
        seat = a.seat
        supply = self._supply(before, False)
        if g.options.drawUntilPlayable:  # §6.4: draw until a playable card or nothing left
            old = list(before.hand(seat))
            drawn = g.hand(seat)[len(old) :]
            assert drawn or supply == 0

            def playable(k: int) -> bool:
                rest = old + drawn[:k]
                return any(spec_playable(before, seat, drawn[k], f, rest) for f in (False, True))

            for k in range(len(drawn) - 1):
                assert not playable(k), f"drew past the playable {drawn[k]}"
            last_ok = bool(drawn) and playable(len(drawn) - 1)
            assert last_ok or len(drawn) == supply
            assert (g.state == Phase.AWAIT_DRAWN) == last_ok
            return
        self._check_draws(before, g, [(seat, 1)], supply)
        if g.state == Phase.AWAIT_DRAWN:
            assert g.hand(seat)[-1] == g.cards[g.drawn] and g.current == seat
        elif g.state == Phase.AWAIT_TURN:
            assert g.current == (seat + before.direction) % before.players

    @staticmethod
    def _catch(before: Game, g: Game, a: Catch) -> None:
        supply = before.draw_count + max(0, len(before.discard) - 1)
        if before.uno_state(a.target).name == "VULNERABLE":
            Oracle._check_draws(before, g, [(a.target, g.options.unoPenalty)], supply)
            assert g.uno_state(a.target).name == "NONE"
        else:
            Oracle._check_draws(before, g, [(a.seat, g.options.falseCatchPenalty)], supply)
        assert g.current == before.current and g.state == before.state


def _choose(g: Game, rnd: random.Random) -> Action:
    n = g.players
    if rnd.random() < 0.15:
        other = rnd.randrange(n)
        extra = [
            a
            for a in g.legal_actions(other)
            if other != g.current or isinstance(a, (CallUno, Catch))
        ]
        if extra:
            return rnd.choice(extra)
    actions = g.legal_actions(g.current)
    plays = [a for a in actions if isinstance(a, Play)]
    pool = plays if plays and rnd.random() < 0.85 else actions
    a = rnd.choice(pool)
    if isinstance(a, Play) and rnd.random() < 0.5:
        a = dataclasses.replace(a, uno=True)
    return a


# ---------------------------------------------------------------------------- the property


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(configs())
def test_random_games_keep_invariants(config: tuple[str, int, dict[str, Any], int]) -> None:
    variant, players, options, seed = config
    g = Game.new(variant, players, options, seed=seed, events=False)
    rnd = random.Random(seed)
    total_steps = 0
    rounds = 0
    oracle = Oracle()
    while total_steps < MATCH_STEP_LIMIT and rounds < 3:
        # a fresh round: a full deck, all Power Cards green (flex), scores fixed
        assert sum(len(h) for h in g.hands) + g.draw_count + len(g.discard) == DECK[variant]
        if g.variant.flex:
            assert all(g.powers)
        initial = _round_cards(g)
        scores = list(g.scores)
        steps = 0
        while g.state not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            assert steps < ROUND_STEP_LIMIT, f"round did not end: {g!r}"
            if total_steps < CHECKED_STEPS:
                _check_step(g, rnd, initial)
            oracle.apply(g, _choose(g, rnd))
            g.check_invariants(initial)
            steps += 1
            total_steps += 1
            if g.state not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                assert g.scores == scores, "scores changed during a round"
        rounds += 1
        assert g.all_cards() == initial
        assert g.legal_actions() == []
        if g.state == Phase.MATCH_OVER:
            assert g.match_winners
            break
        g.apply(NextRound())
        assert g.round_no == rounds + 1


@settings(max_examples=30, deadline=None, derandomize=True)
@given(configs())
def test_same_seed_same_game(config: tuple[str, int, dict[str, Any], int]) -> None:
    variant, players, options, seed = config
    a = Game.new(variant, players, options, seed=seed, events=False)
    b = Game.new(variant, players, options, seed=seed, events=False)
    assert a == b
    rnd_a, rnd_b = random.Random(seed), random.Random(seed)
    for _ in range(60):
        if a.state in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            break
        a.apply(_choose(a, rnd_a))
        b.apply(_choose(b, rnd_b))
        assert a == b
