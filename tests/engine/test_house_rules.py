"""The house rules of RULES.md §6.7-§6.17 beyond the scenario files: the option
registry and its errors, the presets, shuffled seating in a dealt match, and
the bots playing every new rule legally."""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.engine.core import CoreGame
from unokit.engine.errors import InvalidPositionError, OptionError
from unokit.engine.options import (
    ALL_HOUSE_RULES,
    HOUSE_RULES,
    NOT_YET_PLAYED,
    PRESETS,
    Options,
    preset,
    seating,
)
from unokit.testing.reference import ReferenceGame

# every house rule the engine plays, switched on together
ALL_ON: dict[str, Any] = {
    "matchMode": "single_round",
    "stacking": "escalate",
    "jumpIn": True,
    "drawUntilPlayable": True,
    "deflect": "both",
    "zeroRotate": True,
    "sevenSwap": True,
    "finishRestriction": "no_action_no_wild",
    "handLimit": 12,
    "wildDrawChallenge": "off",
    "mustPlayDrawn": True,
    "shuffleSeats": True,
    "teams": "pairs",
}


def test_the_registry_holds_every_key_of_section_6() -> None:
    keys = {
        "deflect", "zeroRotate", "sevenSwap", "multiPlay", "finishRestriction", "handLimit",
        "mercy", "teams", "wildDrawChallenge", "mustPlayDrawn", "shuffleSeats",
    }  # fmt: skip
    assert keys <= set(ALL_HOUSE_RULES)
    assert set(HOUSE_RULES) == set(ALL_HOUSE_RULES) - set(NOT_YET_PLAYED)
    assert Options().to_dict() == {}  # every default reproduces the official rules


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"handLimit": 7}, r"below handSize \+ 1 = 8"),
        ({"handSize": 5, "handLimit": 5}, r"below handSize \+ 1 = 6"),
        ({"noBluff": True, "wildDrawChallenge": "off"}, "do not go together"),
        ({"deflect": "sometimes"}, "not one of off, reverse, skip, both"),
        ({"finishRestriction": "no_numbers"}, "no_action_no_wild"),
        ({"multiPlay": "several"}, "not one of off, same_number"),
        ({"mercy": 7}, r"below handSize \+ 1 = 8"),
    ],
)
def test_option_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Options.from_dict(options)


def test_option_values_from_a_command_line() -> None:
    o = Options.from_dict({"wildDrawChallenge": "false", "handLimit": "12", "sevenSwap": "on"})
    assert (o.wildDrawChallenge, o.handLimit, o.sevenSwap) == ("off", 12, True)
    assert o.seven_swap and not o.zero_rotate
    assert Options(sevenZero=True).zero_rotate and Options(forcedPlay=True).must_play_drawn


@pytest.mark.parametrize("players", [3, 5])
def test_teams_need_an_even_number_of_players(players: int) -> None:
    with pytest.raises(InvalidPositionError, match="even number of players"):
        Game.new("classic", players, {"teams": "pairs"}, seed=1)


def test_presets() -> None:
    assert set(PRESETS) == {"Official", "Party", "Crazy", "Merciless"}
    assert preset("official") == Options()
    party = preset("Party")
    assert party.to_dict() == PRESETS["Party"]
    g = Game.new("flip", 4, options=preset("Party", jumpIn=False), seed=2)
    assert g.options.stacking == "same_symbol" and not g.options.jumpIn
    with pytest.raises(OptionError, match="unknown preset 'Wild'"):
        preset("Wild")
    crazy = Game.new("flip", 4, options=preset("Crazy"), seed=3)
    assert crazy.options.multiPlay == "same_number" and crazy.options.wildDrawChallenge == "off"
    merciless = Game.new("classic", 4, options=preset("Merciless"), seed=3)
    assert merciless.options.mercy == 25 and merciless.options.forcedPlay


@pytest.mark.parametrize("seed", range(6))
def test_shuffled_seats_in_a_dealt_match(seed: int) -> None:
    n = 5
    order = seating(seed, n, Options(shuffleSeats=True))
    assert sorted(order) == list(range(n))
    g = Game.new("classic", n, {"shuffleSeats": True, "dealerSelection": "fixed:0"}, seed=seed)
    first = order[(order.index(0) + 1) % n]  # the dealer's left in the shuffled order
    ref = ReferenceGame.new("classic", n, {"shuffleSeats": True, "dealerSelection": "fixed:0"},
                            seed=seed)  # fmt: skip
    assert g.state_tuple() == ref.state_tuple()
    assert g.state_tuple() == CoreGame.new("classic", n, g.options, seed).state_tuple()
    # the first card may skip or reverse; a plain first card gives the turn to the dealer's left
    if g.top is not None and g.top.light.kind.name == "NUMBER":
        assert g.current == first


def test_shuffled_seats_change_with_the_seed() -> None:
    o = Options(shuffleSeats=True)
    assert len({seating(s, 6, o) for s in range(20)}) > 10
    assert seating(3, 6, Options()) == tuple(range(6))


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bots_play_every_new_rule_legally(variant: str, level: str) -> None:
    """Four bots under every played house rule at once; the engine raises on any
    illegal action."""
    for seed in range(3):
        g = Game.new(variant, 4, ALL_ON, seed=seed)
        bots = [make_bot(level, seed=s) for s in range(4)]
        turns = 0
        while g.phase < 4 and turns < 5000:
            s = g.current
            g.apply(bots[s].act(g.observe(s)))
            turns += 1
        assert g.phase == 5, f"{variant} seed {seed}: no end after {turns} turns"
        assert len(g.match_winners) in (0, 2)  # teams: both partners, or a blocked round
        assert all(len(h) <= 12 for h in g.hands)  # handLimit


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_records_and_positions_keep_the_new_rules(variant: str) -> None:
    """A match under every played rule is written as a record and as a
    position; replaying the record and reading the position give the same game
    (the seed reproduces the shuffled seating)."""
    from unokit.engine import notation
    from unokit.records.record import dumps, loads

    options = ALL_ON | {"matchMode": "points", "targetScore": 60}
    g = Game.new(variant, 4, options, seed=11)
    bots = [make_bot("random", seed=s) for s in range(4)]
    for _ in range(400):
        if g.phase == 5:
            break
        if g.phase == 4:
            g.apply("NEXT")
            continue
        s = g.current
        g.apply(bots[s].act(g.observe(s)))
    assert loads(dumps(g)).replay().state_tuple() == g.state_tuple()
    if g.phase < 4:
        assert notation.loads(notation.dumps(g)).state_tuple() == g.state_tuple()
