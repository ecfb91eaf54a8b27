"""Bot levels: legal play everywhere, hard searches observations only, and
finds what a search should find."""

from __future__ import annotations

import random

import pytest

from unokit import Game
from unokit.bots import bot_names, make_bot
from unokit.bots.ismcts import ISMCTSBot
from unokit.engine.actions import Play
from unokit.engine.errors import OptionError
from unokit.engine.observation import Observation

FAST_HARD = {"think_ms": None, "iterations": 30}


def test_every_level_is_registered() -> None:
    assert {"random", "heuristic", "easy", "normal", "hard", "rlcard-rule"} <= set(bot_names())


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_levels_play_legal_rounds(variant: str, level: str) -> None:
    """Three seats of the level against a heuristic; every action is applied by
    the engine, which raises on anything illegal."""
    opts = (
        {"matchMode": "single_round", "stacking": "escalate"}
        if level != "hard"
        else {"matchMode": "single_round"}
    )
    for seed in range(2):
        g = Game.new(variant, 3, opts, seed=seed)
        extra = FAST_HARD if level == "hard" else {}
        bots = [make_bot(level, seed=s, **extra) for s in range(2)] + [make_bot("heuristic")]
        turns = 0
        while g.phase < 4 and turns < 3000:
            s = g.current
            g.apply(bots[s].act(g.observe(s)))
            turns += 1
        assert g.phase >= 4


def test_hard_handles_house_rules_and_every_decision() -> None:
    opts = {
        "matchMode": "single_round",
        "stacking": "escalate",
        "sevenZero": True,
        "jumpIn": True,
        "drawUntilPlayable": True,
    }
    seen = set()
    for variant in ("classic", "flip", "flex"):
        g = Game.new(variant, 2, opts, seed=3)
        bots = [make_bot("hard", seed=1, think_ms=None, iterations=12), make_bot("heuristic")]
        while g.phase < 4:
            s = g.current
            obs = g.observe(s)
            seen.add(obs.phase)
            g.apply(bots[s].act(obs))
    assert {"AWAIT_TURN", "AWAIT_DRAWN"} <= seen


def _twin_positions() -> tuple[Game, Game]:
    """Two games P0 cannot tell apart: same hand, piles' public faces, sizes and
    history; P1's hand and the draw order differ."""
    p0 = ["R1", "R7", "B2", "GS", "W", "Y9", "BD2"]
    deck_a = ["G4", "Y2", "B8", "R3", "GR", "Y5", "B0"]
    deck_b = ["B6", "R8", "W4", "G1", "Y7", "BR", "G9"]
    common = dict(discard=["R5"], current=0)
    a = Game.setup("classic", 2, hands=[p0, deck_a], draw=deck_b + ["R2", "G2"], **common)
    b = Game.setup("classic", 2, hands=[p0, deck_b], draw=deck_a + ["G2", "R2"], **common)
    return a, b


def test_hard_cannot_read_hidden_cards() -> None:
    """Same observation, same seed -> same decisions, whatever the hidden cards:
    the bot's only input is the observation."""
    a, b = _twin_positions()
    assert a.hands[1] != b.hands[1] and a.draw != b.draw
    decisions = 0
    for step in range(12):
        if a.phase >= 4 or a.current != b.current or a.phase != b.phase:
            break  # the hidden cards made the games part ways
        if a.current == 1:  # P1 makes the same public move in both games, if it can
            legal_b = {str(x) for x in b.observe(1).legal}
            same = [x for x in a.observe(1).legal if str(x) in legal_b]
            if not same:
                break
            a.apply(same[0])
            b.apply(same[0])
            continue
        oa, ob = a.observe(0), b.observe(0)
        assert oa == ob
        da = ISMCTSBot(seed=step, think_ms=None, iterations=150).act(oa)
        db = ISMCTSBot(seed=step, think_ms=None, iterations=150).act(ob)
        assert da == db
        decisions += 1
        a.apply(da)
        b.apply(db)
    assert decisions >= 2


def test_hard_sees_only_what_the_observation_holds() -> None:
    """The bot is given an Observation (no Game): it holds no hidden card, no
    draw order, no seed; and the bot's state keeps no reference to a game."""
    g = Game.new("flip", 2, seed=9)
    obs = g.observe(g.current)
    bot = ISMCTSBot(seed=0, think_ms=None, iterations=20)
    bot.act(obs)
    fields = set(Observation.__dataclass_fields__)
    assert not {"hands", "draw", "seed", "shuffles", "draw_pile"} & fields
    assert not any(isinstance(v, Game) for v in vars(bot).values())
    other = [c for s in range(2) if s != g.current for c in g.hand(s)]
    as_text = repr(obs.to_dict())
    assert all(str(c) not in as_text for c in other if c not in obs.discard and c not in obs.hand)


def test_hard_takes_a_forced_win() -> None:
    """Skip then the last card wins at once; playing the 5 first lets P1 move."""
    g = Game.setup(
        "classic",
        2,
        hands=[["RS", "R5"], ["G1", "G2", "G3", "Y4", "B6"]],
        draw=["G7", "Y8", "B9", "G5", "Y6", "B1"],
        discard=["R3"],
        current=0,
    )
    bot = ISMCTSBot(seed=4, think_ms=None, iterations=120)
    a = bot.act(g.observe(0))
    assert isinstance(a, Play) and str(a.card) == "RS" and a.uno
    assert 120 <= bot.stats.rollouts < 130


def test_hard_moves_at_once_when_there_is_one_choice() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["B1", "B2"], ["G1", "G2"]],
        draw=["Y1", "Y2"],
        discard=["R3"],
        current=0,
    )
    bot = ISMCTSBot(seed=0, think_ms=5000)
    assert str(bot.act(g.observe(0))) == "P0 DRAW"
    assert bot.stats.iterations == 0


def test_hard_searches_within_a_cpu_budget() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "R2", "B3", "W"], ["G1", "G2"]],
        draw=["Y1", "Y2", "Y3"],
        discard=["R5"],
        current=0,
    )
    bot = ISMCTSBot(seed=0, think_ms=30)
    assert g.is_legal(bot.act(g.observe(0)))
    assert bot.stats.iterations >= 1


def test_hard_set_up_position_without_a_full_deck_falls_back() -> None:
    """More hidden places than unseen cards (an impossible deck): still a legal move."""
    # Game.setup refuses impossible decks, so corrupt a valid position (replace does not check)
    g = Game.setup(
        "classic", 2, hands=[["R1", "B2"], ["G1"]], draw=["G2"], discard=["R3"], current=0
    )
    g = g.replace(hands=[g.hands[0], [g.hands[1][0]] * 80], draw=[g.draw[0]] * 40)
    a = ISMCTSBot(seed=0, think_ms=None, iterations=10).act(g.observe(0))
    assert g.is_legal(a)


def test_bad_bot_options_are_refused() -> None:
    with pytest.raises(OptionError):
        make_bot("hard", think_ms=0)
    with pytest.raises(OptionError):
        make_bot("hard", think_ms=None, iterations=None)
    with pytest.raises(OptionError):
        make_bot("hard", rollout="telepathy")
    with pytest.raises(OptionError):
        make_bot("hard", mcmc=-2)
    with pytest.raises(OptionError):
        make_bot("hard", mcmc="many")
    with pytest.raises(OptionError):
        make_bot("expert", play_eps=1.5)
    with pytest.raises(OptionError):
        make_bot("hard", play_eps="often")
    with pytest.raises(OptionError):
        make_bot("nosuchbot")


def test_easy_is_weaker_than_normal() -> None:
    """Not a timing or luck claim: easy makes deliberate mistakes, so over
    duplicate deals it wins clearly less often than normal (the heuristic)."""
    from unokit.bots.tournament import parse_bots, run_tournament

    r = run_tournament("classic", 2, parse_bots("easy,normal"), games=400, seed=3, workers=1)
    assert r.bots["normal"].ci95[0] > 0.5 > r.bots["easy"].ci95[1]


def test_easy_forgets_uno_sometimes() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "R2"], ["G1", "G2"]],
        draw=["Y1", "Y5", "Y6", "Y7"],
        discard=["R3"],
        current=0,
    )
    acts = [make_bot("easy", seed=s, mistakes=0).act(g.observe(0)) for s in range(12)]
    calls = {a.uno for a in acts if isinstance(a, Play)}
    assert calls == {True, False}


def test_random_positions_get_legal_answers_from_every_bot() -> None:
    rnd = random.Random(5)
    bots = {
        name: make_bot(name, seed=1, **(FAST_HARD if name == "hard" else {}))
        for name in ("random", "heuristic", "easy", "normal", "hard")
    }
    for variant in ("classic", "flip", "flex"):
        g = Game.new(variant, 3, {"matchMode": "single_round"}, seed=8)
        while g.phase < 4:
            obs = g.observe(g.current)
            for name, bot in bots.items():
                assert g.is_legal(bot.act(obs)), name
            g.apply(bots["heuristic"].act(obs))
            rnd.random()
