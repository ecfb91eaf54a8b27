"""No bot reads hidden information.

For many positions of the three variants (with and without house rules) a
*twin* game is built: the same game with every card the observing seat cannot
see (the other hands' unknown cards, the draw pile's order) replaced by
others, consistently with everything public (hand sizes, in Flip every visible
back face, a hand the seat saw after its challenge). The seat's observation is
the same in both games (asserted), and every bot level, seeded alike, makes
the same decision in both, over many seeds: its decision distribution does
not depend on the hidden cards. The real game stays alive in the caller's
frame while the bot thinks, so a bot that went looking for it would be caught.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.inference import known_cards
from unokit.engine.game import _RO

#: every level a player can meet, and the baselines; search levels with a small
#: budget by count (so that a decision is a function of observation and seed)
LEVELS: dict[str, dict[str, Any]] = {
    "random": {},
    "heuristic": {},
    "easy": {},
    "normal": {},
    "hard": {"sims": 40},
    # hard's default search since issue 25: raced, the samples dealt in C
    "hard:race": {"sims": 40, "race": True},
    "expert": {"sims": 40},
    # the posterior deals (weighed against every earlier play), explicitly
    "hard:posterior": {"sims": 40, "particles": 24},
    "expert:posterior": {"sims": 40, "particles": 24},
    # the Markov chain posterior over the hidden hands
    "hard:mcmc": {"sims": 40, "mcmc": 2},
    "expert:mcmc": {"sims": 40, "mcmc": 2},
    # the searching seat's own rollout moves by the tuned policy (issue 16)
    "hard:own=tuned": {"sims": 40, "own": "tuned"},
    "rlcard-rule": {},
}
HOUSE = {"stacking": "escalate", "sevenZero": True, "jumpIn": True, "drawUntilPlayable": True}


def twin(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with the cards ``seat`` cannot see dealt again at random, keeping
    every public fact and what ``seat`` knows (cards shown to it)."""
    hands = [h[:] for h in game.hands]
    draw = game.draw[:]
    obs = game.observe(seat)
    cs = game.variant.cards.cards
    known = known_cards(obs)
    # (place, index) of every hidden card: a slot in another hand or in the draw pile
    slots: list[tuple[list[int], int]] = []
    for s in range(game.n):
        if s == seat:
            continue
        index = game.variant.cards.index
        keep = Counter({index[c]: k for c, k in known[s].items()})
        for i, c in enumerate(hands[s]):
            if keep[c] > 0:
                keep[c] -= 1
                continue
            slots.append((hands[s], i))
    top = len(draw) - 1
    for i in range(len(draw)):
        if not (game.variant.two_sided and i == top):  # Flip: the top's back is seen
            slots.append((draw, i))
    # Flip: a card may only move to a place whose visible back face is its own
    other = 1 - game.side

    def group(c: int) -> object:
        return cs[c].face(other) if game.variant.two_sided else None

    by_group: dict[object, list[tuple[list[int], int]]] = {}
    for place, i in slots:
        by_group.setdefault(group(place[i]), []).append((place, i))
    for places in by_group.values():
        cards = [place[i] for place, i in places]
        rng.shuffle(cards)
        for (place, i), c in zip(places, cards, strict=True):
            place[i] = c
    # later reshuffles differ too
    return game.replace(hands=hands, draw=draw, seed=rng.randrange(1 << 30), events=True)


def positions(variant: str) -> list[tuple[Game, Game, int]]:
    """(game, twin, seat) at every third decision of heuristic games."""
    out: list[tuple[Game, Game, int]] = []
    rng = random.Random(variant)
    for options in ({"matchMode": "single_round"}, {"matchMode": "single_round", **HOUSE}):
        for seed in range(2):
            players = 2 + seed * 2
            g = Game.new(variant, players, options, seed=seed + 10, events=True)
            bots = [make_bot("heuristic", seed=s) for s in range(players)]
            k = 0
            while g.phase < _RO:
                s = g.current
                if k % 3 == 0:
                    t = twin(g, s, rng)
                    if t.hands != g.hands or t.draw != g.draw:
                        out.append((g.copy(events=True), t, s))
                    # a seat out of turn too (jump-in, catches)
                    o = (s + 1) % players
                    out.append((g.copy(events=True), twin(g, o, rng), o))
                g.apply(bots[s].act(g.observe(s)))
                k += 1
    return out


def decide(bot: Any, game: Game, seat: int) -> Any:
    """The bot's decision, called with only this game in the calling frame."""
    return bot.act(game.observe(seat))


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_no_bot_reads_hidden_cards(variant: str) -> None:
    pos = positions(variant)
    assert len(pos) >= 40
    changed = 0
    decisions = 0
    levels = {k: v for k, v in LEVELS.items() if variant == "classic" or k != "rlcard-rule"}
    for n, (real, other, seat) in enumerate(pos):
        a, b = real.observe(seat), other.observe(seat)
        assert a == b, "the twin must look the same to the seat"
        changed += real.hands != other.hands or real.draw != other.draw
        if not a.legal:
            continue
        for name, extra in levels.items():
            for seed in (n, n + 1000):
                bot = name.split(":")[0]
                da = decide(make_bot(bot, seed=seed, **extra), real, seat)
                db = decide(make_bot(bot, seed=seed, **extra), other, seat)
                assert da == db, (name, variant, seat, str(da), str(db))
                assert real.is_legal(da) and other.is_legal(db)
                decisions += 1
    assert changed >= len(pos) // 2  # the hidden cards really differ in most twins
    assert decisions >= 200


def test_twins_really_differ_and_keep_every_public_fact() -> None:
    g = Game.new("flip", 3, {"matchMode": "single_round"}, seed=4, events=True)
    t = twin(g, 0, random.Random(1))
    assert t.hands[0] == g.hands[0]
    assert t.hands[1:] != g.hands[1:]
    assert [len(h) for h in t.hands] == [len(h) for h in g.hands]
    assert t.observe(0) == g.observe(0)
    assert t.observe(1) != g.observe(1)  # another seat sees the difference


class _PeekingBot:
    """A cheat: it looks up the caller's frames for the game and lets the other
    hands decide. The test above must catch such a bot."""

    name = "peeking"

    def act(self, obs: Any) -> Any:
        import inspect

        frame = inspect.currentframe()
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, Game):
                    hidden = [c for s, h in enumerate(value.hands) if s != obs.seat for c in h]
                    return obs.legal[hash(tuple(hidden)) % len(obs.legal)]
            frame = frame.f_back
        return obs.legal[0]


def test_the_twin_test_catches_a_peeking_bot() -> None:
    differ = 0
    for real, other, seat in positions("classic")[:30]:
        if len(real.observe(seat).legal) < 2:
            continue
        da = decide(_PeekingBot(), real, seat)
        db = decide(_PeekingBot(), other, seat)
        differ += da != db
    assert differ >= 3
