"""Every reason the C core gives for a refusal (issue 26, "each rule decided once").

The core decides every command and names the reason of a refusal
(``UK_ERR_*``, :data:`unokit.engine.codes.ERRORS`); Python only words it, with
one table (:data:`unokit.engine.refusals.WORDS`). Each case below drives a
game into the situation of one reason and checks that the core gives exactly
that reason, that the words are filled in (and today's wording where the docs
and front ends quote it), that nothing changed, and that the reference engine,
which decides on its own, gives the same reason and words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from unokit import Game
from unokit.engine import codes
from unokit.engine.actions import Play
from unokit.engine.errors import IllegalActionError
from unokit.engine.refusals import WORDS, refusal
from unokit.testing.reference import ReferenceGame

Command = str | Callable[[Game], object]


@dataclass(frozen=True)
class Case:
    reason: str
    command: Command
    hands: list[list[str]]
    discard: list[str] = field(default_factory=lambda: ["R1"])
    variant: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    words: str | None = None  # the exact text, where docs or front ends rely on it
    first: bool = False  # the command changes the game before the refused part


def _cid(g: Game, card: str) -> int:
    return g.variant.cards.parse_id(card)


def _finish_round(g: Game) -> Game:
    """``g`` after P0 plays its last card (R3): the round (or match) is over."""
    g.apply("P0 PLAY R3")
    return g


TWO = [["R3", "G7", "Y2"], ["B4", "R5", "G9"]]
STACKED = {"discard": ["R1", "RD2"], "setup": {"pending_draw": 2}}
FLEX_HANDS = [["WTD", "R5~G", "Y6"], ["Y1", "Y2", "Y7"], ["B7", "G7", "B6"]]

CASES = [
    Case("SEAT", lambda g: g.draw_card(5), TWO, words="P5 is not a seat of this 2-player game"),
    Case("PHASE", "P0 ACCEPT", TWO, words="P0 cannot accept now: waiting for P0 to play or draw"),
    Case(
        "NOT_YOUR_TURN",
        "P1 DRAW",
        TWO,
        words="it is P0's decision, not P1's (waiting for P0 to play or draw)",
    ),
    Case("CARD", lambda g: g.play(0, 4000), TWO, words="card id -1 is not a classic card"),
    Case("NOT_HELD", "P0 PLAY B9", TWO, words="P0 does not hold B9"),
    Case(
        "FORM",
        lambda g: g.play_multi(0, [_cid(g, "R3")]),
        [["R3", "Y3"], ["B4", "G9"]],
        options={"multiPlay": "same_number"},
    ),
    Case(
        "FORM",
        lambda g: g.apply(
            Play(0, g.cards[_cid(g, "R3")], color=None, flex=True, more=(g.cards[_cid(g, "Y3")],))
        ),
        [["R3", "Y3"], ["B4", "G9"]],
        options={"multiPlay": "same_number"},
    ),
    Case("NO_MATCH", "P0 PLAY G7", TWO, words="P0 cannot play G7 on R1: colour R, number 1"),
    Case(
        "NO_MATCH",  # a multi-play's move code names places in the hand: worded by its cards
        lambda g: g.apply_move(
            g.encode(Play(0, g.cards[_cid(g, "Y3")], more=(g.cards[_cid(g, "G3")],))), 0
        ),
        [["Y3", "G3", "B5"], ["B4", "G9"]],
        options={"multiPlay": "same_number"},
        words="P0 cannot play Y3 on R1: colour R, number 1",
    ),
    Case(
        "NO_BLUFF",
        "P0 PLAY W4 color=G",
        [["W4", "R3"], ["B4", "G9"]],
        options={"noBluff": True},
        words="P0 holds a card of colour R: W4 may not be played (noBluff)",
    ),
    Case(
        "STACK",
        "P0 PLAY R3",
        TWO,
        options={"stacking": "same_symbol"},
        **STACKED,
        words="P0 must stack a draw card or DRAW 2 (R3 cannot be stacked)",
    ),
    Case(
        "FORCED",
        "P0 DRAW",
        TWO,
        options={"forcedPlay": True},
        words="P0 holds a playable card and must play it (forcedPlay)",
    ),
    Case("MOVE", lambda g: g.apply_move(15, 0), TWO, words="not a move code: 15"),
    Case(
        "EMPTY",
        lambda g: g.start(),
        [["R3", "G7"], ["B4", "G9"]],
        discard=[],
        setup={"draw": []},
        words="the draw pile is empty: no first card to turn",
        first=True,
    ),  # a deal that finds no first card may have moved cards
    Case(
        "FINISH", "P0 PLAY RS", [["RS"], ["B4", "G9"]], options={"finishRestriction": "no_action"}
    ),
    Case(
        "MUST_PLAY_DRAWN",
        "P0 PASS",
        TWO,
        options={"mustPlayDrawn": True},
        setup={"phase": "AWAIT_DRAWN", "drawn": "R3"},
        words="P0 must play the drawn R3 (mustPlayDrawn)",
    ),
    Case(
        "OUT",
        "P2 CATCH P1",
        [["R3", "G7"], ["B4", "G9"], []],
        options={"mercy": 25},
        words="P2 is out of the match (mercy)",
    ),
    Case(
        "MULTI",
        lambda g: g.play_multi(0, [_cid(g, "R3"), _cid(g, "Y3")]),
        [["R3", "Y3"], ["B4", "G9"]],
    ),
    Case(
        "MULTI",
        lambda g: g.play_multi(0, [_cid(g, "R3"), _cid(g, "Y4")]),
        [["R3", "Y4"], ["B4", "G9"]],
        options={"multiPlay": "same_number"},
    ),
    Case(
        "ROUND_OVER",
        lambda g: _finish_round(g).apply("P1 DRAW"),
        [["R3"], ["B4", "G9"]],
        words="the round is over",
        first=True,
    ),
    Case(
        "MATCH_OVER",
        lambda g: _finish_round(g).apply("P1 DRAW"),
        [["R3"], ["B4", "G9"]],
        options={"matchMode": "single_round"},
        words="the match is over",
        first=True,
    ),
    Case(
        "PHASE",
        lambda g: _finish_round(g).apply("NEXT"),
        [["R3"], ["B4", "G9"]],
        options={"matchMode": "single_round"},
        words="the next round can only be dealt when a round is over (the match is over)",
        first=True,
    ),
    Case("PHASE", "NEXT", TWO, words="the next round can only be dealt when a round is over"),
    Case("PHASE", lambda g: g.start(), TWO, words="the first card has already been turned"),
    Case(
        "NOT_STARTED",
        "P0 DRAW",
        TWO,
        discard=[],
        words="the round has not started: the first card is not turned yet",
    ),
    Case("NOT_IN_ROUND", "P0 UNO", TWO, discard=[], words="UNO can be called only during a round"),
    Case(
        "NOT_IN_ROUND",
        "P0 CATCH P1",
        TWO,
        discard=[],
        words="catches are possible only during a round",
    ),
    Case(
        "JUMP_NOW",
        "P1 PLAY R5",
        TWO,
        options={"jumpIn": True},
        setup={"phase": "AWAIT_DRAWN", "drawn": "R3"},
    ),
    Case(
        "JUMP_CARD",
        "P1 PLAY R5",
        TWO,
        options={"jumpIn": True},
        words="P1 cannot jump in with R5: it is P0's turn and only a card identical to R1 "
        "may jump in",
    ),
    Case(
        "ONLY_DRAWN",
        "P0 PLAY G7",
        [["R3", "G7", "R4"], ["B4", "G9"]],
        setup={"phase": "AWAIT_DRAWN", "drawn": "R3"},
        words="P0 may only play the card just drawn (R3) or pass",
    ),
    Case(
        "NO_FLEX",
        lambda g: g.play(0, _cid(g, "R3"), flex=True),
        TWO,
        words="R3 has no flex side: flex sides exist only in UNO Flex",
    ),
    Case("NO_FLEX_SIDE", "P0 PLAY Y6 side=flex", FLEX_HANDS, discard=["R3"], variant="flex"),
    Case(
        "POWER_RED",
        "P0 PLAY R5~G side=flex",
        FLEX_HANDS,
        discard=["R3"],
        variant="flex",
        setup={"powers": [False, True, True]},
    ),
    Case(
        "STACK_SAME",
        "P0 PLAY W4 color=R",
        [["W4", "G7"], ["B4", "G9"]],
        options={"stacking": "same_symbol"},
        **STACKED,
    ),
    Case(
        "STACK_LESS",
        "P0 PLAY RD2",
        [["RD2", "G7"], ["B4", "G9"]],
        options={"stacking": "escalate"},
        discard=["R1", "W4"],
        setup={"pending_draw": 4, "color": "R"},
    ),
    Case(
        "NEED_COLOR",
        "P0 PLAY W",
        [["W", "G7"], ["B4", "G9"]],
        words="W is a wild: declare a colour (color=...)",
    ),
    Case(
        "BAD_COLOR",
        lambda g: g.play(0, _cid(g, "W"), color=5),
        [["W", "G7"], ["B4", "G9"]],
        words="colour Tl is not a colour of the light side (R Y G B)",
    ),
    Case(
        "BAD_COLOR",
        lambda g: g.choose_color(0, 9),
        TWO,
        discard=["W"],
        setup={"phase": "AWAIT_COLOR"},
        words="9 is not a colour of the light side: choose one of R Y G B",
    ),
    Case("NOT_WILD", "P0 PLAY R3 color=G", TWO, words="R3 is not a wild: no colour to declare"),
    Case(
        "NEED_TARGET", "P0 PLAY WTD side=flex color=Y", FLEX_HANDS, discard=["R3"], variant="flex"
    ),
    Case(
        "BAD_TARGET",
        lambda g: g.play(0, _cid(g, "WTD"), 1, True, 7),
        FLEX_HANDS,
        discard=["R3"],
        variant="flex",
        words="target P7 is not a seat",
    ),
    Case(
        "TARGET_SELF",
        "P0 PLAY WTD side=flex color=Y target=P0",
        FLEX_HANDS,
        discard=["R3"],
        variant="flex",
        words="P0 cannot target themselves",
    ),
    Case(
        "TARGET_OUT",
        "P0 PLAY WTD side=flex color=Y target=P2",
        [["WTD", "R5~G", "Y6"], ["Y1", "Y2", "Y7"], []],
        discard=["R3"],
        variant="flex",
        options={"mercy": 25},
        words="target P2 is out of the match (mercy)",
    ),
    Case("NO_TARGET", "P0 PLAY R3 target=P1", TWO, words="R3 takes no target"),
    Case("NEED_SWAP", "P0 PLAY R7", [["R7", "G7"], ["B4", "G9"]], options={"sevenZero": True}),
    Case(
        "BAD_SWAP",
        "P0 PLAY R7 swap=P0",
        [["R7", "G7"], ["B4", "G9"]],
        options={"sevenZero": True},
        words="P0 cannot swap hands with P0",
    ),
    Case("NO_SWAP", "P0 PLAY R3 swap=P1", TWO, words="R3 swaps no hands"),
    Case(
        "NOT_FLIP",
        "P0 PLAY R3|Pk7 flipcolor=Pu",
        [["R3|Pk7", "B2|Or8"], ["Y9|Pu4", "B3|Pu8"]],
        variant="flip",
        discard=["R5|Pk2"],
    ),
    Case(
        "FLIP_COLOR",
        "P0 PLAY RF|Pk8 flipcolor=R",
        [["RF|Pk8", "B2|Or8"], ["Y9|Pu4", "B3|Pu8"]],
        variant="flip",
        discard=["R5|Pk2"],
        words="flipcolor R is not a colour of the other side",
    ),
    Case(
        "NOT_DRAWN",
        "P0 PASS",
        TWO,
        words="P0 may pass only after drawing a playable card: play or draw",
    ),
    Case(
        "FORCED_DRAWN",
        "P0 PASS",
        TWO,
        options={"forcedPlay": True},
        setup={"phase": "AWAIT_DRAWN", "drawn": "R3"},
        words="P0 must play the drawn R3 (forcedPlay)",
    ),
    Case(
        "NO_CHALLENGE",
        "P0 CHALLENGE",
        TWO,
        options={"stacking": "same_symbol"},
        **STACKED,
        words="the stacked card is not a restricted wild draw: it cannot be challenged",
    ),
    Case("CATCH_SELF", "P0 CATCH P0", TWO, words="P0 cannot catch themselves"),
]


def _game(cls: type[Game], case: Case) -> Game:
    draw = {"classic": ["B7", "Y8", "G3"], "flex": ["B1~R", "B2~Y", "G8~R"],
            "flip": ["Y2|Tl8", "B3|Tl2", "G4|Tl9"]}[case.variant]  # fmt: skip
    kw: dict[str, Any] = {"current": 0, "draw": draw, **case.setup}
    return cls.setup(case.variant, len(case.hands), case.options, hands=case.hands,
                     discard=case.discard, **kw)  # fmt: skip


def _refused(g: Game, command: Command) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        if isinstance(command, str):
            g.apply(command)
        else:
            command(g)
    return info.value


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c.reason}-{c.command if isinstance(c.command, str) else 'call'}"
)
def test_the_core_gives_the_reason_and_the_table_words_it(case: Case) -> None:
    g = _game(Game, case)
    before = g.copy()
    version = g.version
    e = _refused(g, case.command)
    if not case.first:
        assert g == before and g.version == version, "a refused command changed the game"
    assert e.reason is not None, str(e)
    assert codes.ERRORS[e.reason] == case.reason, f"{codes.ERRORS[e.reason]}: {e}"
    text = str(e)
    assert text and "{" not in text and "}" not in text
    if case.words is not None:
        assert text == case.words
    # the reference decides on its own, with the same reason and so the same words
    r = _game(ReferenceGame, case)
    ref = _refused(r, case.command)
    assert (ref.reason, str(ref)) == (e.reason, text)


def test_every_reason_is_produced_and_worded() -> None:
    produced = {c.reason for c in CASES}
    assert produced == set(codes.ERRORS[1:]), set(codes.ERRORS[1:]) ^ produced
    assert set(WORDS) == set(range(1, len(codes.ERRORS)))


def test_refusals_change_no_version_and_accepted_commands_do() -> None:
    """``Game.version`` moves exactly when a command changes the position;
    ``Game.changed`` says whether the last accepted one did (docs/engine.md)."""
    g = Game.setup("classic", 2, hands=[["R3", "G7"], ["B4", "R5"]], discard=["R1"],
                   draw=["B7", "Y8"], current=0)  # fmt: skip
    v = g.version
    with pytest.raises(IllegalActionError):
        g.apply("P1 DRAW")
    assert g.version == v
    g.apply("P1 UNO")  # two cards, not P1's turn: accepted without effect (D65)
    assert g.version == v and not g.changed
    g.apply("P0 CATCH P1")  # nobody vulnerable, falseCatchPenalty=0: no effect either
    assert g.version == v and not g.changed
    g.apply("P0 UNO")  # two cards on one's own turn: the pre-announcement
    assert g.version != v and g.changed
    v = g.version
    g.apply("P0 PLAY R3")
    assert g.version != v and g.changed


def test_a_refusal_pickles_with_its_reason() -> None:
    import pickle

    g = Game.setup("classic", 2, hands=TWO, discard=["R1"], current=0)
    e = refusal(g, codes.ERR_NO_MATCH, "play", 0, cids=(g.variant.cards.parse_id("G7"),))
    back = pickle.loads(pickle.dumps(e))
    assert (back.reason, str(back)) == (codes.ERR_NO_MATCH, str(e))
