"""Random legal games for every variant, player count and option set (Hypothesis).

Each example deals a match with random options drawn from RULES.md Appendix C and
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

from unokit import Color, Game, Phase, UnoError
from unokit.actions import (
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
        "flexActionCardsHaveFlexColor": st.booleans(),
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
            color: Color | None = rnd.choice(colors) if rnd.random() < 0.85 else rnd.choice(
                list(Color))
        else:
            color = rnd.choice(list(Color)) if rnd.random() < 0.1 else None
        flex = g.variant.flex and (card.has_flex_side or rnd.random() < 0.1) and (
            rnd.random() < 0.5)
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


def _check_step(g: Game, rnd: random.Random, initial: Counter[int]) -> None:
    n = g.players
    listed: dict[int, list[Action]] = {s: g.legal_actions(s) for s in range(n)}
    cur = g.current
    turn = [a for a in listed[cur] if not isinstance(a, (CallUno, Catch))]
    assert turn, f"no legal turn action for P{cur} in {g!r}"
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


def _apply_with_oracle(g: Game, action: Action) -> None:
    """Apply ``action`` and check the few outcomes that need no rules model."""
    before = g.copy()
    g.apply(action)
    seat = getattr(action, "seat", -1)
    if isinstance(action, Play) and before.state == Phase.AWAIT_TURN and seat == before.current:
        face = action.card.face(before.side)
        hand_before = Counter(before.hand(seat))
        hand_after = Counter(g.hand(seat))
        seven_zero = g.options.sevenZero and face.number in (0, 7)
        if face.is_number and not seven_zero and not before.pending:
            # a plain number: it goes on top, its (regular) colour is current, the turn
            # moves one seat on, the hand loses exactly that card (RULES.md §1.4, §1.7)
            assert hand_before - hand_after == Counter([action.card])
            if g.state not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                assert hand_after + Counter([action.card]) == hand_before
                assert g.top == action.card and g.current_color == face.color
                assert g.current == (seat + before.direction) % before.players
    if isinstance(action, Draw) and not before.pending and not g.options.drawUntilPlayable:
        grew = len(g.hands[seat]) - len(before.hands[seat])
        supply = before.draw_count + max(0, len(before.discard) - 1)
        assert grew == min(1, supply), "a turn's DRAW takes exactly one card when there is one"
        if g.state == Phase.AWAIT_DRAWN:
            assert g.hand(seat)[-1] == g.cards[g.drawn] and g.current == seat
    if isinstance(action, Catch) and before.uno_state(action.target).name == "VULNERABLE":
        supply = before.draw_count + max(0, len(before.discard) - 1)
        grew = len(g.hands[action.target]) - len(before.hands[action.target])
        assert grew == min(g.options.unoPenalty, supply)
        assert g.uno_state(action.target).name == "NONE"
        assert g.current == before.current and g.state == before.state


def _choose(g: Game, rnd: random.Random) -> Action:
    n = g.players
    if rnd.random() < 0.15:
        other = rnd.randrange(n)
        extra = [a for a in g.legal_actions(other) if other != g.current or
                 isinstance(a, (CallUno, Catch))]
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
            _apply_with_oracle(g, _choose(g, rnd))
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
