"""Same seed, same game; golden playthroughs catch any change of behaviour."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.sim import play_match
from unokit.engine.notation import dumps as dump_position
from unokit.engine.options import PRESETS
from unokit.records.record import dumps as dump_record

GOLDEN = Path(__file__).parent / "golden"


def _match(variant: str, players: int, seed: int, options: dict[str, object]) -> Game:
    g = Game.new(variant, players, {"targetScore": 150, **options}, seed=seed)
    bots = [
        make_bot("heuristic" if s % 2 else "random", seed=seed * 10 + s) for s in range(players)
    ]
    play_match(g, bots)
    return g


def test_same_seed_same_game() -> None:
    for variant in ("classic", "flip", "flex"):
        a = _match(variant, 3, 11, {})
        b = _match(variant, 3, 11, {})
        assert a == b
        assert dump_record(a) == dump_record(b)
        c = _match(variant, 3, 12, {})
        assert dump_record(a) != dump_record(c)


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    deals = {Game.new("classic", 4, seed=s).hands[0].__repr__() for s in range(20)}
    assert len(deals) == 20
    assert Game.new("flip", 4, seed=5) == Game.new("flip", 4, seed=5)


CASES = [
    ("classic", 2, 1, {}),
    ("classic", 4, 2, {"stacking": "escalate", "jumpIn": True}),
    ("flip", 3, 3, {}),
    ("flip", 5, 4, {"sevenZero": True, "scoringMode": "lowest"}),
    ("flex", 2, 5, {}),
    ("flex", 6, 6, {"forcedPlay": True, "drawUntilPlayable": True}),
    # the house rules of RULES.md §6.7-§6.17: two presets and a custom set
    ("classic", 4, 7, {**PRESETS["Crazy"], "teams": "pairs"}),
    ("flip", 4, 8, PRESETS["Merciless"]),
    (
        "flex",
        4,
        9,
        {
            "teams": "pairs",
            "deflect": "skip",
            "finishRestriction": "no_wild",
            "handLimit": 14,
            "mustPlayDrawn": True,
            "shuffleSeats": True,
            "wildDrawChallenge": "off",
            "zeroRotate": True,
            "multiPlay": "same_number",
        },
    ),
]


@pytest.mark.parametrize(("variant", "players", "seed", "options"), CASES)
def test_golden_playthrough(
    variant: str, players: int, seed: int, options: dict[str, object]
) -> None:
    """The record and final position of a fixed match are stored; any change of
    behaviour shows here. Regenerate with ``python tests/engine/golden/regen.py``
    only after checking the change is intended."""
    g = _match(variant, players, seed, options)
    text = dump_record(g) + "\n" + dump_position(g)
    name = f"{variant}-{players}p-seed{seed}.txt"
    expected = (GOLDEN / name).read_text()
    if text != expected:
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        pytest.fail(f"{name} changed (new digest {digest}); regenerate only if intended")


def test_replayed_record_equals_the_game() -> None:
    r = random.Random(3)
    for variant in ("classic", "flip", "flex"):
        g = _match(variant, r.randint(2, 5), r.randrange(1000), {"stacking": "same_symbol"})
        from unokit.records.record import loads

        assert loads(dump_record(g)).replay() == g
