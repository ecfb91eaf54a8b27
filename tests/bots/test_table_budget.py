"""A table's bots think by count (unokit.bots.budget): the table's ``hard``
and ``unokit tournament --bots hard`` make the same decision for the same seed
and position, and no clock cuts the table's search."""

from __future__ import annotations

from unokit.bots.budget import decision_seed, level_bot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import DEFAULT_SIMS, ISMCTSBot
from unokit.bots.tournament import parse_bots
from unokit.engine.game import Game
from unokit.web.botpool import decide


def positions() -> list[tuple[Game, int]]:
    """Positions with a real choice: after a few heuristic moves, 2 and 4 players."""
    out = []
    for players, seed in ((2, 4), (4, 9)):
        g = Game.new("classic", players, seed=seed)
        bot = HeuristicBot(seed=1)
        for _ in range(3 * players):
            seat = g.to_act
            assert seat is not None
            g.apply(bot.act(g.observe(seat)))
        seat = g.to_act
        assert seat is not None
        out.append((g, seat))
    return out


def test_the_table_budget_is_a_count_without_a_clock() -> None:
    bot = level_bot("hard", seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert bot.think_ms is None and bot.max_wall_ms is None
    assert bot.iterations == DEFAULT_SIMS and bot.race  # its own default: a race by count
    # and the tournament's hard without a budget of its own is the same bot
    (spec,) = parse_bots("hard")
    assert dict(spec.options) == {}
    assert dict(parse_bots("expert")[0].options)["sims"] > 0  # expert's clock becomes a count
    # a budget given on the command line still wins
    assert dict(parse_bots("hard", think_ms=50)[0].options) == {"think_ms": 50}


def test_the_tables_hard_plays_the_tournaments_moves() -> None:
    (spec,) = parse_bots("hard")
    for game, seat in positions():
        obs = game.observe(seat)
        seed = decision_seed(123456789, len(game.log or ()))
        table_move, _cpu = decide("hard", seed, obs)  # what a worker answers
        tournament = spec.make(seed)
        assert tournament.act(obs) == table_move
        assert 0 < tournament.stats.rollouts <= DEFAULT_SIMS * 2  # it searched, by count
