"""Every option is honest (docs/rules.md D66): for every option of Appendix C and
each of its values, a position where the value changes the outcome.

The table holds, per option, the values tried and a probe: a function that
builds a position under ``{option: value}``, plays a few commands and returns
what happened. The test fails if two values give the same outcome (the option
would be ignored), and if an option or a value of Appendix C has no row.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pytest

from unokit import Game, UnoError
from unokit.engine.decks import register_flex_deck
from unokit.engine.options import OPTION_CHOICES, Options

Probe = Callable[[Any], Hashable]


def _setup(variant: str, players: int, options: dict[str, Any], **given: Any) -> Game:
    return Game.setup(variant, players, options, **given)


def _after(g: Game, *commands: str) -> Game:
    for c in commands:
        g.apply(c)
    return g


def _legal(g: Game, command: str) -> bool:
    return g.is_legal(command)


# ---------------------------------------------------------------------------- probes


def target_score(value: int) -> Hashable:
    g = _setup(
        "classic",
        2,
        {"targetScore": value},
        hands=[["R9", "G9"], ["R5"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _after(g, "P1 PLAY R5").state.name  # 18 points: over at 1, not at 500


def scoring_mode(value: str) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"scoringMode": value},
        hands=[["R9"], ["R5"], ["G4"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return tuple(_after(g, "P1 PLAY R5").scores)


def match_mode(value: str) -> Hashable:
    g = _setup(
        "classic",
        2,
        {"matchMode": value},
        hands=[["R9"], ["R5"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _after(g, "P1 PLAY R5").state.name


def lowest_mode_tie(value: str) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"scoringMode": "lowest", "lowestModeTie": value},
        hands=[["R0"], ["R5"], ["G9"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
        scores=[10, 10, 495],
    )
    g = _after(g, "P1 PLAY R5")  # P2 passes 500; P0 and P1 tie on 10
    return g.state.name, g.match_winners


def dealer_selection(value: str) -> Hashable:
    # the seed is chosen so that the cut and a random choice name other dealers
    return Game.new("classic", 10, {"dealerSelection": value}, seed=_DEALER_SEED).dealer


def _find_dealer_seed() -> int:
    for seed in range(200):
        d = {
            v: Game.new("classic", 10, {"dealerSelection": v}, seed=seed).dealer
            for v in ("cut", "random")
        }
        if len({d["cut"], d["random"], 0, 3}) == 4:
            return seed
    raise AssertionError("no seed separates the dealer choices")


_DEALER_SEED = _find_dealer_seed()


def dealer_rotation(value: str) -> Hashable:
    for seed in range(200):  # a seed where the random dealer is neither other one
        g = _setup(
            "classic",
            6,
            {"dealerRotation": value},
            hands=[["R9"], ["G1"], ["G2"], ["R5"], ["G3"], ["G4"]],
            discard=["R3"],
            draw=["B1"],
            current=3,
            dealer=0,
            seed=seed,
        )
        g = _after(g, "P3 PLAY R5", "NEXT")  # winner P3, left of the dealer P1
        if value != "random" or g.dealer not in (1, 3):
            return g.dealer
    raise AssertionError("no seed separates the rotations")


def hand_size(value: int) -> Hashable:
    return len(
        Game.new("classic", 3, {"handSize": value, "dealerSelection": "fixed"}, seed=1).hands[2]
    )


def uno_penalty(value: int) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"unoPenalty": value},
        hands=[["G1"], ["R5", "R6"], ["G2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        current=1,
    )
    return len(_after(g, "P1 PLAY R5", "P0 CATCH P1").hands[1])


def false_catch_penalty(value: int) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"falseCatchPenalty": value},
        hands=[["G1"], ["R5", "R6"], ["G2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        current=1,
    )
    return len(_after(g, "P1 PLAY R5 uno=true", "P0 CATCH P1").hands[0])


def misplay_penalty(value: str) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"misplayPenalty": value},
        hands=[["G1"], ["B5", "R6"], ["G2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        current=1,
    )
    try:
        g.apply("P1 PLAY B5")
    except UnoError:
        return "rejected"
    return len(g.hands[1]), g.current


def blocked_round(value: str) -> Hashable:
    g = _setup(
        "classic", 2, {"blockedRound": value}, hands=[["G1"], ["B9"]], discard=["R3"], current=1
    )
    g = _after(g, "P1 DRAW", "P0 DRAW")
    return g.winner, tuple(g.scores)


def wild_draw_wilds_count_as_match(value: bool) -> Hashable:
    g = _setup(
        "classic",
        2,
        {"wildDrawWildsCountAsMatch": value},
        hands=[["G1"], ["W4", "W", "B1"]],
        discard=["R3"],
        draw=["B2", "B3", "B4", "B5", "B6", "B7"],
        current=1,
    )
    g = _after(g, "P1 PLAY W4 color=G", "P0 CHALLENGE")
    return len(g.hands[0]), len(g.hands[1])


def flip_pairing(value: str) -> Hashable:
    g = Game.new("flip", 2, {"flipPairing": value}, seed=5)
    return tuple(sorted(str(c) for c in g.variant.cards.cards if g.all_cards()[g._card_id(c)]))


def flip_first_card_wild(value: str) -> Hashable:
    g = _setup(
        "flip",
        2,
        {"flipFirstCardWild": value},
        hands=[["R1|Pk3"], ["R5|Tl5"]],
        draw=["W|Pk5", "R7|Or1"],
        dealer=1,
    )
    g.start()
    return g.state.name, str(g.top)


def flip_first_card_flip(value: str) -> Hashable:
    g = _setup(
        "flip",
        2,
        {"flipFirstCardFlip": value},
        hands=[["R1|Pk3"], ["R5|Tl5"]],
        draw=["RF|Pk8", "R7|Or1"],
        dealer=1,
    )
    g.start()
    return g.side, str(g.top)


def flip_exposed_wild_chooser(value: str) -> Hashable:
    g = _setup(
        "flip",
        3,
        {"flipExposedWildChooser": value},
        hands=[["R5|Tl5"], ["RF|Pk8", "R1|Pu2"], ["R7|Or1"]],
        draw=["R9|Pu5"],
        discard=["RS|DW", "R1|Pk3"],
        current=1,
    )
    g = _after(g, "P1 PLAY RF|Pk8")
    return g.state.name, g.current


def flip_reverse_draw_pile(value: bool) -> Hashable:
    g = _setup(
        "flip",
        3,
        {"flipReverseDrawPile": value},
        hands=[["R5|Tl5"], ["RF|Pk8", "R1|Pu2"], ["R7|Or1"]],
        draw=["R9|Pu5", "Y1|DW", "R4|OrF"],
        discard=["R1|Pk3"],
        current=1,
    )
    return tuple(str(c) for c in _after(g, "P1 PLAY RF|Pk8").draw_pile)


def flip_last_card_flips(value: bool) -> Hashable:
    g = _setup(
        "flip",
        2,
        {"flipLastCardFlips": value},
        hands=[["R5|Tl5"], ["RF|Pk8"]],
        draw=["R9|Pu5"],
        discard=["R1|Pk3"],
        current=1,
    )
    g = _after(g, "P1 PLAY RF|Pk8")
    return g.side, g.round_points


def flip_draw_color_cap(value: int | None) -> Hashable:
    g = _setup(
        "flip",
        2,
        {"flipDrawColorCap": value},
        hands=[["R5|Tl5"], ["R3|WDC", "R1|Pk3"]],
        draw=["R9|Pu5", "R7|Or1", "Y1|DW", "R6|Or9"],
        discard=["R2|OrR"],
        side=1,
        color="Or",
        current=1,
    )
    return len(_after(g, "P1 PLAY R3|WDC color=Pk", "P0 ACCEPT").hands[0])


def _flex_deck_name() -> str:
    text = (Path(__file__).parents[2] / "src/unokit/data/flex_default_v1.json").read_text()
    cards = dict(json.loads(text)["cards"])
    cards["R1"] = 2  # a deck with one more card
    register_flex_deck("honesty_v1", cards)
    return "honesty_v1"


_OTHER_FLEX_DECK = _flex_deck_name()


def flex_deck(value: str) -> Hashable:
    return sum(Game.new("flex", 2, {"flexDeck": value}, seed=1).all_cards().values())


def flex_wilds_count_as_match(value: bool) -> Hashable:
    g = _setup(
        "flex",
        2,
        {"flexWildsCountAsMatch": value},
        hands=[["G1"], ["FW4", "WAF", "B1"]],
        discard=["R3"],
        draw=["B2", "B3", "B5", "B6", "B7", "Y1"],
        current=1,
    )
    g = _after(g, "P1 PLAY FW4 color=G", "P0 CHALLENGE")
    return len(g.hands[0]), len(g.hands[1])


def flex_flex_colors_count_as_match(value: bool) -> Hashable:
    g = _setup(
        "flex",
        2,
        {"flexFlexColorsCountAsMatch": value},
        hands=[["G1"], ["FW4", "B1~R", "B2"]],
        discard=["R3"],
        draw=["B3", "B5", "B6", "B7", "Y1", "Y2"],
        current=1,
    )
    g = _after(g, "P1 PLAY FW4 color=G", "P0 CHALLENGE")
    return len(g.hands[0]), len(g.hands[1])


def flex_wild_all_flip_reset_check(value: str) -> Hashable:
    g = _setup(
        "flex",
        2,
        {"flexWildAllFlipResetCheck": value},
        hands=[["G1", "G2"], ["WAF", "B1"]],
        discard=["R3"],
        draw=["B2"],
        current=1,
    )
    return tuple(_after(g, "P1 PLAY WAF color=B").powers)


def flex_flex_side_wd4_restricted(value: bool) -> Hashable:
    g = _setup(
        "flex",
        3,
        {"flexFlexSideWD4Restricted": value},
        hands=[["G1"], ["FW4", "B1"], ["G2"]],
        discard=["R3"],
        draw=["B2", "B3", "B5", "B6", "B7", "Y1"],
        current=1,
    )
    return _after(g, "P1 PLAY FW4 side=flex color=G target=P0").state.name


def flex_first_card_ignored(value: str) -> Hashable:
    g = _setup(
        "flex",
        2,
        {"flexFirstCardIgnored": value},
        hands=[["G1"], ["G2"]],
        draw=["RS", "R5", "B1", "B2"],
        dealer=1,
    )
    g.start()
    return tuple(str(c) for c in g.discard_pile)


def flex_action_cards_have_flex_color(value: bool) -> Hashable:
    try:
        Options.from_dict({"flexActionCardsHaveFlexColor": value})
    except UnoError:
        return "refused (D66)"
    return "accepted"


def stacking(value: str) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"stacking": value},
        hands=[["G1"], ["RD2", "B5"], ["W4", "Y2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4", "B6", "B7"],
        current=1,
    )
    g = _after(g, "P1 PLAY RD2")
    return g.pending, _legal(g, "P2 PLAY W4 color=G")


def jump_in(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"jumpIn": value},
        hands=[["R3", "G1"], ["B5", "B6"], ["Y2"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _legal(g, "P0 PLAY R3")


def seven_zero(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"sevenZero": value},
        hands=[["G1"], ["R7", "B6"], ["Y2", "Y3"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _legal(g, "P1 PLAY R7 swap=P2"), _legal(g, "P1 PLAY R7")


def draw_until_playable(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"drawUntilPlayable": value},
        hands=[["G1"], ["B5", "B6"], ["Y2"]],
        discard=["R3"],
        draw=["G4", "B2", "R9"],
        current=1,
    )
    return len(_after(g, "P1 DRAW").hands[1])


def forced_play(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"forcedPlay": value},
        hands=[["G1"], ["R5", "B6"], ["Y2"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _legal(g, "P1 DRAW")


def no_bluff(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"noBluff": value},
        hands=[["G1"], ["W4", "R6"], ["Y2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        current=1,
    )
    return _legal(g, "P1 PLAY W4 color=G")


def deflect(value: str) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"deflect": value},
        hands=[["RD2", "G1"], ["RR", "RS", "B5"], ["Y2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        current=0,
    )
    g = _after(g, "P0 PLAY RD2")
    return g.pending, _legal(g, "P1 PLAY RR"), _legal(g, "P1 PLAY RS")


def zero_rotate(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"zeroRotate": value},
        hands=[["G1"], ["R0", "B5"], ["Y2", "Y3"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return tuple(len(h) for h in _after(g, "P1 PLAY R0").hands)


def seven_swap(value: bool) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"sevenSwap": value},
        hands=[["G1"], ["R7", "B5"], ["Y2", "Y3"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _legal(g, "P1 PLAY R7"), _legal(g, "P1 PLAY R7 swap=P2")


def finish_restriction(value: str) -> Hashable:
    out = []
    for card in ("RS", "W"):
        g = _setup(
            "classic",
            2,
            {"finishRestriction": value},
            hands=[["G1", "G2"], [card]],
            discard=["R3"],
            draw=["B1"],
            current=1,
            uno={1: "safe"},
        )
        out.append(_legal(g, f"P1 PLAY {card}{' color=G' if card == 'W' else ''}"))
    return tuple(out)


def hand_limit(value: int) -> Hashable:
    g = _setup(
        "classic",
        2,
        {"handSize": 2, "handLimit": value},
        hands=[["G1", "G2"], ["RD2", "B5"]],
        discard=["R3"],
        draw=["B1", "B2", "B3"],
        current=1,
    )
    return len(_after(g, "P1 PLAY RD2").hands[0])


def multi_play(value: str) -> Hashable:
    g = _setup(
        "classic",
        2,
        {"multiPlay": value},
        hands=[["G1"], ["R5", "B5", "Y2"]],
        discard=["R3"],
        draw=["B1", "B2"],
        current=1,
    )
    return _legal(g, "P1 PLAY R5+B5")


def mercy(value: int) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"handSize": 2, "mercy": value},
        hands=[["G1", "G2"], ["RD2", "B5"], ["Y1"]],
        discard=["R3"],
        draw=["B1", "B2", "B3"],
        current=1,
    )
    return len(_after(g, "P1 PLAY RD2").hands[2])


def wild_draw_challenge(value: str) -> Hashable:
    g = _setup(
        "classic",
        3,
        {"wildDrawChallenge": value},
        hands=[["G1"], ["W4", "R6"], ["Y2"]],
        discard=["R3"],
        draw=["B1", "B2", "B3", "B4"],
        current=1,
    )
    return _after(g, "P1 PLAY W4 color=G").state.name


def must_play_drawn(value: bool) -> Hashable:
    g = _setup(
        "classic",
        2,
        {"mustPlayDrawn": value},
        hands=[["G1"], ["R6", "B5"]],
        discard=["R3"],
        draw=["R1", "B2"],
        current=1,
    )
    return _legal(_after(g, "P1 DRAW"), "P1 PASS")


def teams(value: str) -> Hashable:
    g = _setup(
        "classic",
        4,
        {"teams": value},
        hands=[["R9"], ["R5"], ["G4"], ["B8"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return tuple(_after(g, "P1 PLAY R5").scores)


def shuffle_seats(value: bool) -> Hashable:
    g = _setup(
        "classic",
        4,
        {"shuffleSeats": value},
        hands=[["G1"], ["R7", "B5"], ["Y2"], ["Y3"]],
        discard=["R3"],
        draw=["B1"],
        current=1,
    )
    return _after(g, "P1 PLAY R7").current  # seed 0 seats P2 P0 P1 P3 clockwise


def _not_played_yet(name: str) -> Probe:
    """A house rule the engine does not play yet: every value but the default
    is refused (never accepted and ignored, D66)."""

    def probe(value: Any) -> Hashable:
        try:
            Options.from_dict({name: value})
        except UnoError:
            return f"refused {value!r}"
        return "accepted"

    return probe


# ---------------------------------------------------------------------------- the table

TABLE: dict[str, tuple[list[Any], Probe]] = {
    "targetScore": ([1, 500], target_score),
    "scoringMode": (["highest", "lowest"], scoring_mode),
    "matchMode": (["points", "single_round"], match_mode),
    "lowestModeTie": (["co_winners", "play_on"], lowest_mode_tie),
    "dealerSelection": (["cut", "random", "fixed", "fixed:3"], dealer_selection),
    "dealerRotation": (["left", "winner", "random"], dealer_rotation),
    "handSize": ([1, 7, 20], hand_size),
    "unoPenalty": ([0, 2, 4], uno_penalty),
    "falseCatchPenalty": ([0, 2], false_catch_penalty),
    "misplayPenalty": (["off", "on"], misplay_penalty),
    "blockedRound": (["no_score", "lowest_hand_wins"], blocked_round),
    "wildDrawWildsCountAsMatch": ([False, True], wild_draw_wilds_count_as_match),
    "flipPairing": (["canonical", "random_seeded"], flip_pairing),
    "flipFirstCardWild": (["choose", "redraw"], flip_first_card_wild),
    "flipFirstCardFlip": (["flip", "redraw"], flip_first_card_flip),
    "flipExposedWildChooser": (["flip_player", "next_player"], flip_exposed_wild_chooser),
    "flipReverseDrawPile": ([True, False], flip_reverse_draw_pile),
    "flipLastCardFlips": ([True, False], flip_last_card_flips),
    "flipDrawColorCap": ([None, 1], flip_draw_color_cap),
    "flexDeck": (["default_v1", _OTHER_FLEX_DECK], flex_deck),
    "flexWildsCountAsMatch": ([True, False], flex_wilds_count_as_match),
    "flexFlexColorsCountAsMatch": ([False, True], flex_flex_colors_count_as_match),
    "flexWildAllFlipResetCheck": (
        ["immediate", "skip_after_wild_all_flip"],
        flex_wild_all_flip_reset_check,
    ),
    "flexFlexSideWD4Restricted": ([False, True], flex_flex_side_wd4_restricted),
    "flexFirstCardIgnored": (["stay_in_discard", "return_to_deck"], flex_first_card_ignored),
    "flexActionCardsHaveFlexColor": ([False, True], flex_action_cards_have_flex_color),
    "stacking": (["off", "same_symbol", "escalate"], stacking),
    "jumpIn": ([False, True], jump_in),
    "sevenZero": ([False, True], seven_zero),
    "drawUntilPlayable": ([False, True], draw_until_playable),
    "forcedPlay": ([False, True], forced_play),
    "noBluff": ([False, True], no_bluff),
    "deflect": (["off", "reverse", "skip", "both"], deflect),
    "zeroRotate": ([False, True], zero_rotate),
    "sevenSwap": ([False, True], seven_swap),
    "multiPlay": (["off", "same_number"], multi_play),
    "finishRestriction": (["off", "no_action", "no_wild", "no_action_no_wild"], finish_restriction),
    "handLimit": ([0, 3], hand_limit),
    "mercy": ([0, 3], mercy),
    "teams": (["off", "pairs"], teams),
    "wildDrawChallenge": (["on", "off"], wild_draw_challenge),
    "mustPlayDrawn": ([False, True], must_play_drawn),
    "shuffleSeats": ([False, True], shuffle_seats),
}


def test_the_table_covers_every_option_and_value() -> None:
    assert set(TABLE) == {f.name for f in dataclasses.fields(Options)}
    for name, choices in OPTION_CHOICES.items():
        assert set(TABLE[name][0]) == set(choices), name
    for f in dataclasses.fields(Options):
        if f.type in (bool, "bool"):
            assert set(TABLE[f.name][0]) == {False, True}, f.name


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_value_changes_the_outcome(name: str) -> None:
    values, probe = TABLE[name]
    outcomes = {}
    for value in values:
        outcomes[repr(value)] = probe(value)
    assert len(set(outcomes.values())) == len(values), f"{name} ignored: {outcomes}"
