"""Determinization: samples agree with everything the seat observed, and with
nothing else; a sample built from the real deal is the real game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.determinize import Determinizer
from unokit.bots.inference import (
    hand_inferences,
    known_cards,
    last_plays,
    named_colors,
    past_plays,
)
from unokit.engine.cards import CLASSIC, Color
from unokit.engine.playout import random_move

PUBLIC = (
    "variant players seat round phase current direction side color dealer top discard hand "
    "hand_sizes draw_size draw_top_back backs powers uno scores drawn pending_draw "
    "challenge_offender color_reason legal"
).split()

RULES = [
    {},
    {"stacking": "escalate"},
    {"stacking": "same_symbol", "drawUntilPlayable": True},
    {"sevenZero": True, "jumpIn": True},
    {"noBluff": True, "forcedPlay": True},
]


def _positions(variant: str, players: int, options: dict[str, object], seed: int, steps: int):
    g = Game.new(variant, players, options, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.phase >= 4:
            return
        yield g
        g.apply_move(random_move(g, rnd.random), uno=rnd.random() < 0.8)


CASES = [(v, o) for v in ("classic", "flip", "flex") for o in RULES]


@pytest.mark.parametrize(
    ("variant", "options"), CASES + [("flip", {"flipPairing": "random_seeded"})]
)
def test_samples_show_the_same_observation(variant: str, options: dict[str, object]) -> None:
    checked = Counter[str]()
    for players in (2, 3):
        for seed in range(2):
            for g in _positions(variant, players, options, seed, 120):
                seat = g.current
                obs = g.observe(seat)
                sample = Determinizer(obs).sample(random.Random(len(checked)))
                mine = sample.observe(seat)
                for name in PUBLIC:
                    assert getattr(mine, name) == getattr(obs, name), (name, seed, players)
                sample.check_invariants()
                assert sample.log is None
                if variant != "flip" or "flipPairing" not in options:
                    assert sample.all_cards() == g.all_cards()
                checked[obs.phase] += 1
    assert checked["AWAIT_TURN"] > 50 and checked["AWAIT_DRAWN"] > 0


@pytest.mark.parametrize(
    ("variant", "options"),
    CASES
    + [
        ("flex", {"flexFlexSideWD4Restricted": True}),
        ("flip", {"flipExposedWildChooser": "next_player"}),
    ],
)
def test_the_real_deal_rebuilds_the_real_game(variant: str, options: dict[str, object]) -> None:
    """Every public fact and pending decision (challenge, stack, colour choice)
    is restored: with the real hidden cards, the sample is the real game."""
    phases = Counter[str]()
    for players in (2, 4):
        for seed in range(3):
            for g in _positions(variant, players, options, seed, 200):
                obs = g.observe(g.current)
                rebuilt = Determinizer(obs).with_deal(g.hands, g.draw, g.seed)
                same = ["shuffles", "reveal", "uno_pre", "empty_draws"]  # not part of a decision
                if g.ch_offender < 0:  # stale challenge fields the engine leaves behind
                    same += ["ch_card", "ch_after", "ch_after_success", "ch_legal"]
                rebuilt = rebuilt.replace(**{attr: getattr(g, attr) for attr in same})
                assert rebuilt.state_tuple() == g.state_tuple(), (seed, players, obs.phase)
                phases[obs.phase + ("+stack" if obs.pending_draw else "")] += 1
    # the pending decisions were met: a challenge, or a stacked penalty
    assert phases["AWAIT_CHALLENGE"] + phases["AWAIT_TURN+stack"] > 0 or options.get("noBluff")


def test_flip_samples_keep_every_visible_back_face() -> None:
    g = Game.new("flip", 3, seed=11)
    obs = g.observe(0)
    d = Determinizer(obs)
    for k in range(30):
        s = d.sample(random.Random(k))
        for seat in (1, 2):
            assert sorted(map(str, (c.dark for c in s.hand(seat)))) == sorted(
                map(str, obs.backs[seat])
            )
        assert s.draw_pile[0].dark == obs.draw_top_back
    # and the hidden cards do vary between samples
    hands = {tuple(sorted(d.sample(random.Random(k)).hands[1])) for k in range(10)}
    assert len(hands) > 1


def test_a_hand_revealed_by_a_challenge_is_known_until_played() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "B2"], ["W4", "R5", "G7", "Y3"]],
        draw=["B5", "B6", "B7", "B8", "B9", "G1", "G2", "G3"],
        discard=["R9"],
        current=1,
    )
    g.apply("P1 PLAY W4 color=G")  # a bluff: P1 holds R5
    g.apply("P0 CHALLENGE")  # P0 sees R5 G7 Y3, P1 draws 4
    obs = g.observe(0)
    assert known_cards(obs)[1] == Counter(CLASSIC.parse(x) for x in ("R5", "G7", "Y3"))
    d = Determinizer(obs)
    for k in range(20):
        s = d.sample(random.Random(k))
        assert Counter(s.hand(1)) >= Counter(CLASSIC.parse(x) for x in ("R5", "G7", "Y3"))
    # a spectator, or the offender's opponent without the challenge, knows nothing
    assert known_cards(g.observe(1))[0] == Counter()


def test_hand_inferences_hold_for_players_who_draw_only_when_stuck() -> None:
    """Every bot here draws only with nothing playable: the inferred facts are
    true of the real hands, and samples respect them."""
    rules = 0
    for variant in ("classic", "flip", "flex"):
        for seed in range(3):
            g = Game.new(variant, 3, {"matchMode": "single_round"}, seed=seed)
            bots = [make_bot("heuristic", seed=s) for s in range(3)]
            while g.phase < 4:
                me = g.current
                obs = g.observe(me)
                infs = hand_inferences(obs)
                for s in range(3):
                    for r in infs[s]:
                        if r.trust < 1.0:  # a wild draw: the heuristic bluffs at times
                            continue
                        rules += 1
                        held = sum(1 for c in g.hands[s] if r.allows(g.variant, c))
                        assert held >= r.old
                if any(infs) and rules % 7 == 0:
                    sample = Determinizer(obs).sample(random.Random(rules))
                    for s in range(3):
                        for r in infs[s]:
                            if r.trust < 1.0:
                                continue
                            assert (
                                sum(1 for c in sample.hands[s] if r.allows(g.variant, c)) >= r.old
                            )
                g.apply(bots[me].act(obs))
    assert rules > 100


def test_draw_inference_example() -> None:
    """P1 drew on a red 9: none of its old cards is red, a 9 or a wild."""
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "B2", "G4"], ["B5", "G6", "Y7"]],
        draw=["B8", "G1", "G2", "G3", "Y1", "Y2"],
        discard=["R9"],
        current=1,
    )
    g.apply("P1 DRAW")  # B8: not playable, the turn passes
    obs = g.observe(0)
    (rule,) = hand_inferences(obs)[1]
    assert rule.old == 3  # 4 cards now, 1 drawn since
    v = g.variant
    for text, ok in (("R3", False), ("B9", False), ("W", False), ("G5", True), ("B1", True)):
        assert rule.allows(v, CLASSIC.parse_id(text)) is ok
    d = Determinizer(obs)
    for k in range(20):
        hand = d.sample(random.Random(k)).hand(1)
        assert sum(1 for c in hand if rule.allows(v, CLASSIC.index[c])) >= 3
    assert Determinizer(obs, infer=False).inferences == [[], []]


def test_wild_draw_four_inference_is_soft_until_a_challenge_settles_it() -> None:
    def position() -> Game:
        return Game.setup(
            "classic",
            3,
            hands=[["R1", "B2", "G4"], ["W4", "B5", "G6", "Y7"], ["G1", "Y2", "B3"]],
            draw=["B8", "G1", "G2", "G3", "Y1", "Y2", "B9", "B1"],
            discard=["R9"],
            current=1,
        )

    g = position()
    g.apply("P1 PLAY W4 color=G")  # legal: P1 holds no red
    obs = g.observe(0)
    wd4, wild = hand_inferences(obs)[1]
    assert wd4.trust < 1.0 and wd4.old == 3 and wd4.acc == 1 << Color.R
    assert not wd4.allows(g.variant, CLASSIC.parse_id("R5"))
    assert wd4.allows(g.variant, CLASSIC.parse_id("W"))  # wilds do not count as red
    assert wd4.allows(g.variant, CLASSIC.parse_id("G9"))
    # and a wild is played for want of another card: no red, no 9 either
    assert wild.trust < 1.0 and not wild.allows(g.variant, CLASSIC.parse_id("G9"))
    g.apply("P2 CHALLENGE")  # fails: now it is certain
    wd4, wild = hand_inferences(g.observe(0))[1]
    assert wd4.trust == 1.0 and wd4.old == 3 and wild.trust < 1.0
    # a bluff that a challenge exposes tells nothing any more
    g = Game.setup(
        "classic",
        3,
        hands=[["R1", "B2", "G4"], ["W4", "R5", "G6", "Y7"], ["G1", "Y2", "B3"]],
        draw=["B8", "G1", "G2", "G3", "Y1", "Y2", "B9", "B1"],
        discard=["R9"],
        current=1,
    )
    g.apply("P1 PLAY W4 color=G")
    g.apply("P2 CHALLENGE")
    assert hand_inferences(g.observe(0))[1] == []


def test_named_colour_and_last_play_inferences() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "B2", "G4", "Y5"], ["W", "B5", "B6", "Y7", "G8"]],
        draw=["B8", "G1", "G2", "G3", "Y1", "Y2", "B9", "B1"],
        discard=["R9"],
        current=1,
    )
    g.apply("P1 PLAY W color=B")  # P1 names blue: it holds blue
    obs = g.observe(0)
    assert named_colors(obs)[1] == (0, int(Color.B))
    rules = [r for r in hand_inferences(obs)[1]]
    assert len(rules) == 1 and rules[0].trust < 1.0  # a wild: nothing else to play
    d = Determinizer(obs)
    blue = sum(
        any(c.light.color == Color.B for c in d.sample(random.Random(k)).hand(1))
        for k in range(200)
    )
    assert blue > 150  # named colour respected in most samples (75% + chance)
    g.apply("P0 PLAY B2")
    g.apply("P1 PLAY B5")  # plays blue: the named colour is spent
    obs = g.observe(0)
    assert named_colors(obs)[1] is None
    (lp,) = [x for x in last_plays(obs) if x is not None]
    assert lp.seat == 1 and str(g.cards[lp.card]) == "B5"
    v = g.variant
    # with B1 Y7 G8 left, B5 is the rules' choice on B2 (the higher blue); with
    # B6 left it would have played B6
    assert lp.agrees(v, [CLASSIC.parse_id(x) for x in ("B1", "Y7", "G8")])
    assert not lp.agrees(v, [CLASSIC.parse_id(x) for x in ("B6", "Y7", "G8")])
    # holding four yellows with a Y2, the rules would have switched to yellow with Y2
    assert not lp.agrees(v, [CLASSIC.parse_id(x) for x in ("Y2", "Y7", "Y8", "Y9")])


def test_past_plays_rebuild_the_hand_each_play_was_chosen_from() -> None:
    """Against heuristic players, every earlier play whose hand the history
    rebuilds exactly is the heuristic's choice on that hand (with the colour
    it would name), and most plays are rebuilt exactly."""
    exact = checked = 0
    for seed in range(6):
        g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(2)]
        before: list[Counter[int]] = []  # seat 1's hand before each of its decisions
        while g.phase < 4:
            me = g.current
            obs = g.observe(me)
            if me == 1:
                before.append(Counter(g.hands[1]))
            else:
                now = list(g.hands[1])  # the engine keeps a hand oldest card first
                for pp in past_plays(obs):
                    assert pp.seat == 1
                    checked += 1
                    then = Counter(now[: pp.old] + pp.later + [pp.card])
                    if then in before:
                        exact += 1
                        assert pp.fits(g.variant, now), (seed, pp.card)
            g.apply(bots[me].act(obs))
    assert checked > 300 and exact > 0.4 * checked


def test_posterior_samples_explain_the_past_plays_better() -> None:
    """With particles, sampled hands fit the other player's earlier plays far
    more often than plain samples do, and still show the seat's observation."""
    g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=11)
    bots = [make_bot("heuristic", seed=s) for s in range(2)]
    misfit = {0: 0, 64: 0}
    positions = 0
    while g.phase < 4:
        me = g.current
        obs = g.observe(me)
        past = past_plays(obs)
        if me == 0 and len(past) >= 3:
            positions += 1
            for particles in misfit:
                d = Determinizer(obs, particles=particles)
                rng = random.Random(positions)
                for _ in range(20):
                    s = d.sample(rng)
                    assert s.observe(0).hand == obs.hand
                    assert s.observe(0).hand_sizes == obs.hand_sizes
                    misfit[particles] += sum(not pp.fits(g.variant, s.hands[1]) for pp in past)
        g.apply(bots[me].act(obs))
    assert positions >= 3
    assert misfit[64] < 0.5 * misfit[0]


@pytest.mark.parametrize(
    ("variant", "options"), CASES + [("flip", {"flipPairing": "random_seeded"})]
)
def test_chain_samples_show_the_same_observation(variant: str, options: dict[str, object]) -> None:
    """The Markov chain's deals (``mcmc=N``) are real games that show the seat
    exactly its observation, as plain deals do, with the deck's cards."""
    checked = 0
    for players in (2, 3):
        for seed in range(2):
            for g in _positions(variant, players, options, seed, 80):
                obs = g.observe(g.current)
                d = Determinizer(obs, mcmc=3)
                rng = random.Random(checked)
                for _ in range(3):  # the first sample starts the chain, the next move it
                    sample = d.sample(rng)
                    mine = sample.observe(g.current)
                    for name in PUBLIC:
                        assert getattr(mine, name) == getattr(obs, name), (name, seed, players)
                    sample.check_invariants()
                    if variant != "flip" or "flipPairing" not in options:
                        assert sample.all_cards() == g.all_cards()
                checked += 1
    assert checked > 100


def test_chain_samples_explain_the_past_plays_and_draws() -> None:
    """The chain's deals fit the other player's earlier plays far more often
    than plain deals, break fewer voluntary draws (nothing playable), and
    put more of the true cards in its hand, read only to score here."""
    misfit = {"plain": 0, "chain": 0}
    overlap = {"plain": 0, "chain": 0}
    positions = 0
    for seed in (11, 12, 13):
        g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(2)]
        while g.phase < 4:
            me = g.current
            obs = g.observe(me)
            past = past_plays(obs)
            if me == 0 and len(past) >= 2:
                positions += 1
                true = Counter(g.hands[1])
                for kind in misfit:
                    d = Determinizer(obs, mcmc=4 if kind == "chain" else 0)
                    rng = random.Random(positions)
                    for _ in range(40):
                        s = d.sample(rng)
                        assert s.observe(0).hand == obs.hand
                        misfit[kind] += sum(not pp.fits(g.variant, s.hands[1]) for pp in past)
                        overlap[kind] += sum((Counter(s.hands[1]) & true).values())
            g.apply(bots[me].act(obs))
    assert positions >= 10
    assert misfit["chain"] < 0.5 * misfit["plain"]
    assert overlap["chain"] > overlap["plain"]


def test_chain_is_a_function_of_observation_and_seed() -> None:
    g = Game.new("classic", 2, seed=5)
    rnd = random.Random(5)
    for _ in range(30):
        g.apply_move(random_move(g, rnd.random), uno=True)
        if g.phase >= 4:
            break
    obs = g.observe(g.current)
    d1, d2 = Determinizer(obs, mcmc=2), Determinizer(obs, mcmc=2)
    r1, r2 = random.Random(9), random.Random(9)
    hands = [d1.sample(r1).hands for _ in range(5)]
    assert hands == [d2.sample(r2).hands for _ in range(5)]
    assert len({str(h) for h in hands}) > 1  # the chain moves between samples


def test_plays_marked_exact_fit_the_true_hand() -> None:
    """A play whose hand is rebuilt exactly (``PastPlay.exact``) is always the
    heuristic's choice on the true hand of a heuristic player: the chain may
    trust those sharply."""
    exact = inexact = 0
    for seed in range(8):
        g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(2)]
        while g.phase < 4:
            me = g.current
            obs = g.observe(me)
            if me == 0:
                for pp in past_plays(obs):
                    if pp.exact:
                        exact += 1
                        assert pp.fits(g.variant, list(g.hands[1])), (seed, pp.card)
                    else:
                        inexact += 1
            g.apply(bots[me].act(obs))
    assert exact > 100 and inexact > 100


@pytest.mark.parametrize(
    ("variant", "options"), CASES + [("flip", {"flipPairing": "random_seeded"})]
)
def test_a_sample_on_the_core_is_the_sample_of_the_game(
    variant: str, options: dict[str, object]
) -> None:
    """``sample_core`` (the search's samples, put into a copy of the position
    on the C core without building a ``Game``) gives exactly the position of
    ``sample`` from the same generator, whatever the samplers (plain, last
    plays, the chain), at turns, drawn cards, colours and challenges."""
    from unokit.engine.core import CoreGame

    phases = Counter[str]()
    for players in (2, 3):
        for seed in range(2):
            for g in _positions(variant, players, options, seed, 80):
                obs = g.observe(g.current)
                for kw in ({}, {"mcmc": 2}):
                    # two samplers: the chain's state moves with every sample
                    da = Determinizer(obs, **kw)  # type: ignore[arg-type]
                    db = Determinizer(obs, **kw)  # type: ignore[arg-type]
                    a, b = random.Random(seed), random.Random(seed)
                    for _ in range(3):
                        core = da.sample_core(a)
                        ref = CoreGame.from_game(db.sample(b))
                        assert core._g.state() == ref._g.state()
                        assert core.seed == ref.seed
                    assert a.random() == b.random()  # as many draws
                phases[obs.phase] += 1
    assert phases["AWAIT_TURN"] > 30 and phases["AWAIT_DRAWN"] > 0


def test_the_samplers_shuffle_is_a_uniform_reproducible_permutation() -> None:
    """``_core.shuffle`` (the samplers' Fisher-Yates in C): the same seed
    gives the same order, every order of four items comes up about equally
    often, and nothing is lost or duplicated."""
    from unokit import _core

    counts = Counter[tuple[int, ...]]()
    for seed in range(24_000):
        x = [0, 1, 2, 3]
        _core.shuffle(x, seed * 0x9E3779B1 + 7)
        counts[tuple(x)] += 1
    assert len(counts) == 24
    assert all(800 <= c <= 1200 for c in counts.values())  # 1000 expected, sd 31
    a, b = list(range(108)), list(range(108))
    _core.shuffle(a, 2**70 + 3)  # the low 64 bits count
    _core.shuffle(b, 3)
    assert a == b and sorted(a) == list(range(108)) and a != list(range(108))
