"""The observation's house-rule entries (engine/house_view.py): the seating,
the teams and their scores, and where a pending draw goes, checked against
what the engine then does."""

from __future__ import annotations

import random

from unokit import Game
from unokit.engine.options import seating


def test_seating_and_teams_follow_the_shuffled_table() -> None:
    g = Game.new("classic", 6, {"teams": "pairs", "shuffleSeats": True}, seed=5)
    d = g.observe(1).to_dict()
    order = list(seating(5, 6, g.options))
    assert d["seating"] == order and sorted(order) == list(range(6))
    assert d["teams"] == [sorted((order[i], order[i + 3])) for i in range(3)]
    assert d["team_scores"] == [0, 0, 0]
    plain = Game.new("classic", 4, {}, seed=5).observe(0).to_dict()
    assert plain["seating"] == [0, 1, 2, 3] and plain["teams"] == [] and plain["team_scores"] == []


def test_team_scores_after_a_team_round_win() -> None:
    rng = random.Random(3)
    g = Game.new("classic", 4, {"teams": "pairs", "matchMode": "single_round"}, seed=11)
    while not g.is_over:
        seat = g.current
        acts = g.legal_actions(seat)
        g.apply(rng.choice(acts))
    d = g.observe(None).to_dict()
    (team,) = [t for t in d["teams"] if d["winner"] in t]
    assert sorted(d["match_winners"]) == team
    assert d["team_scores"][d["teams"].index(team)] == d["scores"][d["winner"]] > 0
    assert "Teams: Player" in g.observe(0).to_text()


def test_pending_names_the_victim_and_where_a_deflection_sends_it() -> None:
    """Over random games with stacking and deflect: whenever a draw is pending,
    the victim is the player to act, and a stack or a Skip sends it to ``to``,
    a Reverse to ``back``."""
    checked = {"stack_or_skip": 0, "reverse": 0}
    opts = {
        "stacking": "same_symbol",
        "deflect": "both",
        "shuffleSeats": True,
        "matchMode": "single_round",
    }
    for seed in range(40):
        rng = random.Random(seed)
        g = Game.new("classic", 4, opts, seed=seed)
        for _ in range(400):
            if g.is_over:
                break
            p = g.observe(g.current).to_dict()["pending"]
            acts = g.legal_actions(g.current)
            if p is None:
                g.apply(rng.choice(acts))
                continue
            assert p["victim"] == g.current and p["amount"] == g.pending
            passes = [a for a in acts if str(a).split()[1:2] == ["PLAY"]]
            if not passes:
                g.apply(rng.choice(acts))
                continue
            a = rng.choice(passes)
            card = str(a).split()[2]
            g.apply(a)
            if g.is_over or g.pending == 0:
                continue
            if card.endswith("R"):
                assert g.current == p["back"]
                checked["reverse"] += 1
            else:
                assert g.current == p["to"]
                checked["stack_or_skip"] += 1
    assert checked["reverse"] > 0 and checked["stack_or_skip"] > 0, checked


def test_heuristic_spares_its_partner() -> None:
    """teams: the heuristic bot swaps hands (7) with an opponent, not with its
    partner holding fewer cards, and catches an opponent, never its partner."""
    from unokit.bots.heuristic import HeuristicBot
    from unokit.engine.actions import Catch, Play

    hands = [["R7", "B9", "G4", "Y8", "Y9"], ["B1", "B2", "B3"], ["G1"], ["Y1", "Y2", "Y3"]]
    draw = ["R1", "R2", "R3", "R4", "R6", "G8", "G9"]
    game = Game.setup(
        "classic", 4, {"teams": "pairs", "sevenSwap": True}, hands=hands, draw=draw,
        discard=["R5"], color="R", current=0,
    )  # fmt: skip
    bot = HeuristicBot(seed=1)
    a = bot.act(game.observe(0))
    assert isinstance(a, Play) and str(a.card) == "R7" and a.swap in (1, 3), a
    # without teams the smallest hand (seat 2) is the one taken
    solo = Game.setup(
        "classic", 4, {"sevenSwap": True}, hands=hands, draw=draw, discard=["R5"], color="R",
        current=0,
    )  # fmt: skip
    b = HeuristicBot(seed=1).act(solo.observe(0))
    assert isinstance(b, Play) and b.swap == 2, b
    # on its turn, P3 catches an opponent who forgot UNO, never its partner P1
    hands2 = [["R1"], ["B2"], ["G1", "G2", "G3"], ["Y1", "Y2", "R3"]]
    for vulnerable, catch in ((0, True), (1, False)):
        g2 = Game.setup(
            "classic", 4, {"teams": "pairs"}, hands=hands2, draw=draw, discard=["R5"],
            color="R", current=3, uno={vulnerable: "vulnerable"},
        )  # fmt: skip
        assert any(isinstance(x, Catch) for x in g2.legal_actions(3))
        act = HeuristicBot(seed=1).act(g2.observe(3))
        assert isinstance(act, Catch) == catch, act
