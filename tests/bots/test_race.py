"""``hard``'s default search since issue 25: the candidates raced on paired
samples, the whole search of a decision in one C call (``_core.Game.race``,
src/unokit/_core/search.c), with a budget by count."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unokit import Game
from unokit.bots import ismcts as ismcts_module
from unokit.bots import make_bot
from unokit.bots.determinize import Determinizer
from unokit.bots.ismcts import DEFAULT_SIMS, DEFAULT_SIMS_BY_VARIANT, DEFAULT_THINK_MS, ISMCTSBot
from unokit.bots.tournament import offer_catch, parse_bots, play_game
from unokit.engine.actions import Play
from unokit.engine.game import _RO
from unokit.engine.options import Options

from .test_budget import _FakeTime


def _positions(variant: str, players: int, count: int, seed: int = 40) -> list[Any]:
    """Observations of seat 0 with three legal answers or more, in rounds of
    ``heuristic`` bots."""
    opts = Options.from_dict({"matchMode": "single_round"})
    out = []
    i = 0
    while len(out) < count:
        g = Game.new(variant, players, opts, seed=seed + i, events=True)
        bots = [make_bot("heuristic", seed=i + s) for s in range(players)]
        while g.phase < _RO and len(out) < count:
            s = g.current
            obs = g.observe(s)
            if s == 0 and obs.current == 0 and len(obs.legal) >= 3:
                out.append((g.copy(), obs))
            g.apply(bots[s].act(obs))
            offer_catch(g, bots)
        i += 1
    return out


def test_the_default_is_a_race_by_count_and_legacy_is_the_old_bot() -> None:
    hard = make_bot("hard", seed=1)
    assert isinstance(hard, ISMCTSBot)
    assert hard.race and hard.think_ms is None and hard.iterations == DEFAULT_SIMS
    legacy = make_bot("hard-legacy", seed=1)
    assert isinstance(legacy, ISMCTSBot)
    assert not legacy.race and legacy.think_ms == DEFAULT_THINK_MS and legacy.iterations is None
    assert legacy.name == "hard-legacy"
    # an explicit budget keeps the earlier search (sequential halving), so the
    # recorded results of `hard:sims=N` replay
    assert not make_bot("hard", sims=300).race
    assert not make_bot("hard", think_ms=50).race
    assert make_bot("hard", sims=300, race="true").race  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_the_default_equals_its_written_out_budget(variant: str) -> None:
    """`hard` (what a table and `tournament --bots hard` build) plays game for
    game what `hard:race=true:sims=N` plays, N the variant's cap."""
    cap = DEFAULT_SIMS_BY_VARIANT.get((variant, 2), DEFAULT_SIMS)
    opts = Options.from_dict({"matchMode": "single_round"})
    for i in range(2):
        a = play_game(variant, 2, opts, parse_bots("hard,heuristic"), 7, i)
        b = play_game(variant, 2, opts, parse_bots(f"hard:race=true:sims={cap},heuristic"), 7, i)
        assert (a.winners, a.turns, a.decisions) == (b.winners, b.turns, b.decisions)
    if variant == "flex":  # 4 players: the common cap
        spec = f"hard:race=true:sims={DEFAULT_SIMS}"
        a = play_game(variant, 4, opts, parse_bots("hard,heuristic,heuristic,heuristic"), 7, 0)
        b = play_game(variant, 4, opts, parse_bots(f"{spec},heuristic,heuristic,heuristic"), 7, 0)
        assert (a.winners, a.turns, a.decisions) == (b.winners, b.turns, b.decisions)


def test_the_default_ignores_every_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock racing ahead changes nothing: the default has no time budget."""
    [(_, obs)] = _positions("classic", 2, 1)
    first = make_bot("hard", seed=5)
    a = first.act(obs)
    monkeypatch.setattr(ismcts_module, "time", _FakeTime(10.0, 10.0))
    busy = make_bot("hard", seed=5)
    assert busy.act(obs) == a
    assert busy.stats.rollouts == first.stats.rollouts > 0  # type: ignore[attr-defined]


def test_the_race_takes_a_forced_win_and_stops_early() -> None:
    """Skip then the last card wins at once: the other moves are eliminated
    long before the cap."""
    g = Game.setup(
        "classic",
        2,
        hands=[["RS", "R5"], ["G1", "G2", "G3", "Y4", "B6"]],
        draw=["G8", "Y8", "B9", "G5", "Y6", "B1"],
        discard=["R3"],
        current=0,
    )
    for c_race in (True, False):
        bot = ISMCTSBot(seed=4, sims=1000, race=True, c_race=c_race)
        a = bot.act(g.observe(0))
        assert isinstance(a, Play) and str(a.card) == "RS" and a.uno
        assert bot.stats.rollouts < 1000


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("flip", 2), ("flex", 4)])
def test_c_race_estimates_what_the_python_race_does(variant: str, players: int) -> None:
    """The samples dealt in C have the distribution of the determinizer's:
    with the elimination off, every candidate's win rate over 1,200 samples
    from the C race and from the Python race (Python's deals, the same
    rollouts) agree within the noise, position by position."""
    z, delta = ismcts_module.RACE_Z, ismcts_module.RACE_DELTA
    ismcts_module.RACE_Z, ismcts_module.RACE_DELTA = 1e9, 0.0
    try:
        compared = 0
        for k, (_, obs) in enumerate(_positions(variant, players, 4, seed=70)):
            n_cands = len([a for a in obs.legal])
            cap = 1200 * n_cands
            a = ISMCTSBot(seed=k, sims=cap, race=True)
            a.act(obs)
            b = ISMCTSBot(seed=k, sims=cap, race=True, c_race=False)
            b.act(obs)
            va, vb = a.stats.values, b.stats.values
            assert a.stats.iterations == b.stats.iterations
            for j in va:
                p = (va[j] + vb[j]) / 2
                se = (2 * p * (1 - p) / a.stats.iterations) ** 0.5
                assert abs(va[j] - vb[j]) <= 4.5 * se + 1e-9, (k, j, va[j], vb[j])
                compared += 1
        assert compared >= 8
    finally:
        ismcts_module.RACE_Z, ismcts_module.RACE_DELTA = z, delta


def test_the_c_race_is_deterministic_for_a_seed() -> None:
    pos = _positions("flip", 2, 6, seed=90)
    for k, (_, obs) in enumerate(pos):
        a, b = make_bot("hard", seed=k), make_bot("hard", seed=k)
        assert a.act(obs) == b.act(obs)
        assert a.stats.rollouts == b.stats.rollouts  # type: ignore[attr-defined]


def test_bad_race_input_is_refused_and_changes_nothing() -> None:
    (g, obs) = _positions("classic", 2, 1)[0]
    det = Determinizer(obs)
    spec = det.race_spec()
    assert spec is not None
    core = det._core
    assert core is not None
    before = core._g.state()
    codes = [core.turn_moves()[0], core.turn_moves()[1]]
    rng = random.Random(1)
    bad_specs = [
        spec[:5],  # too short
        (99,) + spec[1:],  # no such seat
        spec[:1] + ([10**6],) + spec[2:],  # no such card
        spec[:5] + ([500] * len(spec[5]),) + spec[6:],  # more hidden places than cards
    ]
    for bad in bad_specs:
        with pytest.raises((ValueError, TypeError, OverflowError)):
            core._g.race(bad, codes, 0, 100, rng.getrandbits(64), 8, 24, 3.0, 0.02)
    for args in [([], 0, 100), (codes, 5, 100), (codes, 0, 0), ([-4, 1], 0, 100)]:
        with pytest.raises(ValueError):
            core._g.race(spec, *args, rng.getrandbits(64), 8, 24, 3.0, 0.02)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="refused"):
        core._g.race(spec, [codes[0], 0x7FFFFFF0], 0, 100, 1, 8, 24, 3.0, 0.02)
    assert core._g.state() == before
