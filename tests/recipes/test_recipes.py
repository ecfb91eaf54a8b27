"""The RL recipes of examples/ (docs/rl.md) run end to end on a short budget:
each trains, saves its model, reloads it and evaluates it against ``random``
and ``heuristic`` with a 95% confidence interval (issue 18)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# recipe -> (extra arguments for a short run, the file it saves)
RECIPES = {
    "sb3_maskable_ppo.py": (["--checkpoints", "2", "--checkpoint-games", "4"], "model.zip"),
    "tianshou_dqn.py": ([], "dqn.pt"),
    "tianshou_ppo.py": (
        ["--rollout", "256", "--checkpoints", "2", "--checkpoint-games", "4"],
        "ppo.pt",
    ),
    "rllib_ppo.py": (
        ["--batch", "256", "--minibatch", "128", "--checkpoints", "2", "--checkpoint-games", "4"],
        "main_module",
    ),
    "cleanrl_ppo.py": (["--num-envs", "8", "--num-steps", "16"], "agent.pt"),
}


def _run(recipe: str, variant: str, tmp_path: Path) -> dict:
    extra, saved = RECIPES[recipe]
    cmd = [sys.executable, str(EXAMPLES / recipe), "--variant", variant,
           "--budget-seconds", "4", "--eval-games", "12", "--out", str(tmp_path)] + extra  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert f"trained {variant}" in out and "reloaded from" in out
    for opponent in ("random", "heuristic"):
        assert f"vs {opponent}: " in out and "(95% CI " in out
    assert (tmp_path / saved).exists()
    results = json.loads((tmp_path / "results.json").read_text())
    final = results["final"]
    assert final["steps"] > 0 and final["seconds"] >= 4
    for opponent in ("random", "heuristic"):
        r = final[opponent]
        assert r["games"] == 12 and 0 <= r["wins"] <= 12
        assert r["low"] <= r["rate"] <= r["high"]
        assert f"vs {opponent}: {r['rate']:.1%} of 12 games" in out
    return results


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_recipe_trains_saves_reloads_and_evaluates(recipe: str, tmp_path: Path) -> None:
    _run(recipe, "classic", tmp_path)


@pytest.mark.parametrize("variant", ["flip", "flex"])
def test_recipes_take_the_other_variants(variant: str, tmp_path: Path) -> None:
    # one quick recipe per variant on the CI budget: SB3 for Flip, the
    # CleanRL loop (on the batched Flex environment) for Flex
    recipe = "sb3_maskable_ppo.py" if variant == "flip" else "cleanrl_ppo.py"
    results = _run(recipe, variant, tmp_path)
    assert results["variant"] == variant
    if recipe == "sb3_maskable_ppo.py":
        # Flip trains at its own default learning rate (docs/rl.md: measured)
        assert float(results["args"]["lr"]) == 3e-4


def test_sb3_learning_rate_schedule_follows_the_budget() -> None:
    """``--lr-end``: the learning rate goes linearly from ``--lr`` to
    ``--lr-end`` over the budget, by steps or by wall time, whichever is
    further along; SB3 calls it with the progress remaining (1 at the start)."""
    sb3 = _load("sb3_maskable_ppo")
    sched = sb3.LinearBudgetSchedule(1e-3, 1e-4, seconds=1000.0)
    assert sched(1.0) == pytest.approx(1e-3, rel=1e-2)
    assert sched(0.5) == pytest.approx(5.5e-4, rel=1e-2)
    assert sched(0.0) == pytest.approx(1e-4)
    sched.t0 -= 500.0  # half the wall time gone, no steps yet
    assert sched(1.0) == pytest.approx(5.5e-4, rel=1e-2)
    assert sched(0.25) == pytest.approx(1e-3 - 0.75 * 9e-4, rel=1e-2)
    sched.t0 -= 5000.0  # past the budget: it stays at the end
    assert sched(1.0) == pytest.approx(1e-4)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(EXAMPLES))  # the recipes import uno_features from beside them
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
        sys.path.remove(str(EXAMPLES))
    return module


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_features_count_what_the_engine_holds(variant: str) -> None:
    """The engineered features (examples/uno_features.py), computed from the
    observation vector and mask alone, agree with the game itself on every
    decision of random rounds: colours and hand sizes, legal plays, DRAW/UNO."""
    from unokit.envs.gym import UnoGymEnv

    features = _load("uno_features").UnoFeatures(variant, 2)
    env = UnoGymEnv(variant, 2, opponent="random", obs_layout=1)
    table = env.table
    at = features.at
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = obs["action_mask"]
            x = features(obs["observation"], mask)
            assert x.shape == (features.size,) and x.dtype == np.float32
            game = env.game
            hand = [game.variant.cards.cards[c].face(game.side) for c in game.hands[0]]
            colors = [sum(f.color is not None and int(f.color) % 4 == k for f in hand)
                      for k in range(4)]  # fmt: skip
            assert x[at["hand_colors"] : at["hand_colors"] + 4] * 10 == pytest.approx(colors)
            assert x[at["hand_kinds"]] * 4 == pytest.approx(sum(f.is_wild for f in hand))
            mine = np.zeros(10)
            mine[min(len(hand), 10) - 1] = 1
            assert (x[at["my_size"] : at["my_size"] + 10] == mine).all()
            theirs = np.zeros(10)
            theirs[min(len(game.hands[1]), 10) - 1] = 1
            assert (x[at["opp_sizes"] : at["opp_sizes"] + 10] == theirs).all()
            plays = sum(1 for i in np.flatnonzero(mask) if table.names[i].startswith("PLAY"))
            assert x[at["legal"]] * 10 == pytest.approx(plays)
            assert x[at["legal"] + 1] == (plays > 0)
            assert x[at["legal"] + 8] == mask[table.index_of("DRAW")]
            assert x[at["legal"] + 9] == mask[table.index_of("UNO")]
            # the scaled observation comes first, unchanged apart from the scale
            size = env.encoder.size
            assert x[:size] == pytest.approx(obs["observation"] / env.encoder.high)
            checked += 1
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
    assert checked > 100


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_action_features_describe_each_legal_play(variant: str) -> None:
    """The per-action features of uno_features.py (what the SB3 recipe's
    scoring policy sees for each action), recomputed from the game's own
    state on every decision of random rounds: for each legal play, its kind,
    the cards of the colour it leaves in force still in hand, the cards of the
    hand that could follow it (wild, same colour or same symbol) and the
    copies held; for each legal COLOR, the cards of that colour held."""
    from unokit.envs.gym import UnoGymEnv

    features = _load("uno_features").UnoFeatures(variant, 2)
    env = UnoGymEnv(variant, 2, opponent="random", obs_layout=1)
    table = env.table
    kinds = features.action_at["dyn"] - 3 - 7
    dyn = features.action_at["dyn"]
    rng = np.random.default_rng(2)
    checked = 0
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = obs["action_mask"]
            acts = features.actions(obs["observation"], mask)
            assert acts.shape == (table.size, features.action_size) and acts.dtype == np.float32
            flat = features.with_actions(obs["observation"], mask)
            assert (flat[: features.size] == features(obs["observation"], mask)).all()
            assert (flat[features.size :] == acts.ravel()).all()
            game = env.game
            side = game.side
            hand = [game.variant.cards.cards[c] for c in game.hands[0]]
            for i in np.flatnonzero(mask):
                name = table.names[i]
                row = acts[i]
                if name.startswith("COLOR"):
                    c = ["R", "Y", "G", "B", "Pk", "Tl", "Or", "Pu"].index(name.split()[1]) % 4
                    held = sum(h.face(side).color is not None and int(h.face(side).color) % 4 == c
                               for h in hand)  # fmt: skip
                    assert row[dyn] * 10 == pytest.approx(held)
                    continue
                if not name.startswith("PLAY") or "side=flex" in name:
                    continue
                move = table.move(0, int(i))
                card = game.variant.cards.cards[(move >> 4) & 0xFFF]
                face = card.face(side)
                assert row[int(face.kind)] == 1 and row[:kinds].sum() == 1
                if face.is_wild:
                    c = (((move >> 16) & 15) - 1) % 4
                else:
                    assert face.color is not None
                    c = int(face.color) % 4
                rest = list(hand)
                rest.remove(card)
                same = [h.face(side).color is not None and int(h.face(side).color) % 4 == c
                        for h in rest]  # fmt: skip
                follow = sum(
                    s or h.face(side).is_wild
                    or (not face.is_wild and h.face(side).kind == face.kind
                        and (face.kind != 0 or h.face(side).number == face.number))
                    for s, h in zip(same, rest, strict=True))  # fmt: skip
                assert row[dyn] * 10 == pytest.approx(sum(same))
                assert row[dyn + 1] * 10 == pytest.approx(follow)
                assert row[dyn + 5] * 4 == pytest.approx(hand.count(card))
                checked += 1
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
    assert checked > 100


def _expected_opponent(game: Any, universe: list[int]) -> np.ndarray:
    """The opponent's hand as the Flip features should infer it, recomputed
    from the game: each of its cards' back face, shared out over the cards of
    the deck with that back in proportion to the copies neither in seat 0's
    hand nor in the discard pile."""
    from collections import Counter

    cards = game.variant.cards.cards
    down = 1 - game.side
    at = {c: i for i, c in enumerate(universe)}
    unseen = Counter(game.variant.deck(game.options, 0))
    unseen.subtract(game.hands[0])
    unseen.subtract(game.discard)
    expected = np.zeros(len(universe))
    for c in game.hands[1]:
        back = cards[c].face(down)
        same = [d for d in universe if cards[d].face(down) == back and unseen[d] > 0]
        total = sum(unseen[d] for d in same)
        for d in same:
            expected[at[d]] += unseen[d] / total
    return expected


def test_flip_features_read_the_opponents_backs() -> None:
    """Flip: the features of the opponent's hand come from its back faces,
    which every player sees (docs/rules.md §1.14), and from nothing hidden:
    recomputed from the game on every decision of random rounds (its hand on
    the side down exactly, on the side up as the expected copies of the cards
    with those backs), unchanged when one of its cards is swapped for a card of
    the draw pile with the same back; and for every legal Flip card, the hands
    as they will be on the other side."""
    from unokit.engine.cards import Kind
    from unokit.envs.gym import UnoGymEnv

    features = _load("uno_features").UnoFeatures("flip", 2)
    env = UnoGymEnv("flip", 2, opponent="random", obs_layout=1)
    table = env.table
    universe = list(features.encoder.cards)
    at = features.at
    flip_at = features.action_at["flip"]
    rng = np.random.default_rng(3)
    checked = swapped = flips = 0
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = obs["action_mask"]
            game = env.game
            cards = game.variant.cards.cards
            side, down = game.side, 1 - game.side
            x = features(obs["observation"], mask)
            opp = features.opponent_cards(obs["observation"])
            expected = _expected_opponent(game, universe)
            assert opp == pytest.approx(expected, abs=1e-4)
            assert opp.sum() == pytest.approx(len(game.hands[1]), abs=1e-3)

            def colors(faces: list[Any]) -> list[int]:
                return [sum(f.color is not None and int(f.color) % 4 == k for f in faces)
                        for k in range(4)]  # fmt: skip

            theirs_down = [cards[c].face(down) for c in game.hands[1]]
            mine_down = [cards[c].face(down) for c in game.hands[0]]
            up = [sum(expected[i] * (cards[d].face(side).color is not None
                                     and int(cards[d].face(side).color) % 4 == k)
                      for i, d in enumerate(universe)) for k in range(4)]  # fmt: skip
            assert x[at["opp_colors"] : at["opp_colors"] + 4] * 10 == pytest.approx(up, abs=1e-4)
            assert x[at["opp_other_colors"] : at["opp_other_colors"] + 4] * 10 == pytest.approx(
                colors(theirs_down), abs=1e-4)  # fmt: skip
            assert x[at["opp_other_kinds"]] * 4 == pytest.approx(
                sum(f.is_wild for f in theirs_down), abs=1e-4)  # fmt: skip
            assert x[at["my_other_colors"] : at["my_other_colors"] + 4] * 10 == pytest.approx(
                colors(mine_down))  # fmt: skip
            assert x[at["my_other_kinds"]] * 4 == pytest.approx(sum(f.is_wild for f in mine_down))
            # no hidden information: swap an opponent's card for one of the
            # draw pile with the same back, and nothing the features say changes
            pairs = [(i, j) for i, c in enumerate(game.hands[1]) for j, d in enumerate(game.draw)
                     if c != d and cards[c].face(down) == cards[d].face(down)]  # fmt: skip
            if pairs:
                i, j = pairs[0]
                hands, draw = [h[:] for h in game.hands], game.draw[:]
                hands[1][i], draw[j] = draw[j], hands[1][i]
                other = game.replace(hands=hands, draw=draw)
                again = env.encoder.encode_game(other, 0)
                assert (again == obs["observation"]).all()
                assert (features.with_actions(again, mask)
                        == features.with_actions(obs["observation"], mask)).all()  # fmt: skip
                swapped += 1
            acts = features.actions(obs["observation"], mask)
            for a in np.flatnonzero(mask):
                name = table.names[a]
                if not name.startswith("PLAY"):
                    continue
                move = table.move(0, int(a))
                card = (move >> 4) & 0xFFF
                face = cards[card].face(side)
                row = acts[a]
                if face.kind != Kind.FLIP:
                    # the opponent's cards that could follow it, expected
                    c = (((move >> 16) & 15) - 1) % 4 if face.is_wild else int(face.color) % 4
                    follow = sum(
                        expected[i] * (g.is_wild or (g.color is not None and int(g.color) % 4 == c)
                                       or (not face.is_wild and g.kind == face.kind
                                           and (face.kind != Kind.NUMBER or g.number == face.number)))
                        for i, g in ((i, cards[d].face(side)) for i, d in enumerate(universe)))  # fmt: skip
                    assert row[flip_at] * 10 == pytest.approx(follow, abs=1e-4)
                    assert (row[flip_at + 2 :] == 0).all()
                    continue
                rest = list(game.hands[0])
                rest.remove(card)
                mine = [cards[c].face(down) for c in rest]
                assert row[flip_at + 2] * 10 == pytest.approx(max(colors(mine)))
                assert row[flip_at + 3] * 4 == pytest.approx(sum(f.is_wild for f in mine))
                assert row[flip_at + 4] * 10 == pytest.approx(
                    sum(not f.is_wild and f.kind != Kind.NUMBER for f in mine))  # fmt: skip
                assert row[flip_at + 5] * 10 == pytest.approx(max(colors(theirs_down)), abs=1e-4)
                assert row[flip_at + 6] * 4 == pytest.approx(
                    sum(f.is_wild for f in theirs_down), abs=1e-4)  # fmt: skip
                assert row[flip_at + 8] * 200 == pytest.approx(
                    sum(f.points for f in mine) - sum(f.points for f in theirs_down), abs=1e-3)  # fmt: skip
                flips += 1
            checked += 1
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
    assert checked > 100 and swapped > 50 and flips > 5


def test_hand_shaping_is_potential_based() -> None:
    """Over a round, the shaped rewards (gamma = 1) add up to the true rewards
    minus the potential of the first state: shaping changes no return's ranking."""
    import gymnasium

    sb3 = _load("sb3_maskable_ppo")
    raw = gymnasium.make(
        "unokit/UnoClassic-v0", players=2, opponent="heuristic", reward="win", obs_layout=1
    )
    shaped = sb3.HandShaping(
        gymnasium.make("unokit/UnoClassic-v0", players=2, opponent="heuristic", reward="win", obs_layout=1),
        coef=0.1, gamma=1.0)  # fmt: skip
    rng = np.random.default_rng(1)
    for seed in range(5):
        o1, _ = raw.reset(seed=seed)
        o2, _ = shaped.reset(seed=seed)
        sizes = o2["observation"][shaped.sizes]
        phi0 = 0.1 * (sizes[1] - sizes[0])
        total_raw = total_shaped = 0.0
        steps = 0
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(o1["action_mask"])))
            o1, r1, t1, u1, _ = raw.step(a)
            o2, r2, _, _, _ = shaped.step(a)
            total_raw += r1
            total_shaped += r2
            steps += 1
            done = t1 or u1
        assert total_shaped == pytest.approx(total_raw - phi0)
        assert steps > 1


def test_tianshou_view_gives_the_learner_the_opponents_win() -> None:
    """The learner view of the PettingZoo env (examples/tianshou_dqn.py) plays
    the opponent inside ``step``: a round the opponent wins on its own move
    ends the learner's episode with the loss (-1 with ``reward="win"``), and
    the learner's decisions are exactly player_0's; the opponent is unokit's
    ``random`` bot, which never draws when it can play."""
    ts = _load("tianshou_dqn")
    from unokit.envs import uno_classic_v0

    aec = uno_classic_v0.env(players=2, reward="win", max_steps=1000, obs_layout=1)
    view = ts.LearnerView(aec, ts.UnoFeatures("classic", 2), seed=3)
    rng = np.random.default_rng(2)
    lost = won = 0
    for seed in range(40):
        obs, _ = view.reset(seed=seed)
        done = False
        rewards = []
        while not done:
            assert aec.agent_selection == "player_0"
            mask = obs["mask"]
            assert mask.any() and (mask == (aec.observe("player_0")["action_mask"] == 1)).all()
            legal = np.flatnonzero(mask)
            plays = legal[legal < aec.table.num_plays]  # play when it can, like the opponent
            action = int(rng.choice(plays if len(plays) else legal))
            obs, r, terminated, truncated, _ = view.step(action)
            rewards.append(r)
            done = terminated or truncated
        winner = aec.game.winner
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == (1.0 if winner == 0 else -1.0)
        lost += winner == 1
        won += winner == 0
    assert lost > 5 and won > 5  # both outcomes were seen
    # against a uniformly random choice over the mask (which mostly draws) a
    # learner that plays when it can would win nearly every round
    assert lost > 10


def _tianshou_learner(ts: ModuleType, **overrides: object) -> tuple[Any, Any, Any]:
    import argparse

    args = argparse.Namespace(variant="classic", reward="norm_points", stall_reward="loss",
                              max_steps=1000, lr=3e-4, eps=0.0, gamma=1.0,
                              n_step=3, target_update=500, dueling=False)  # fmt: skip
    vars(args).update(overrides)
    view = ts.make_env(args, 5)
    return view, ts.make_learner(view, args), args


def test_tianshou_dqn_masks_acting_and_the_target() -> None:
    """A masked DQN never takes an illegal action, greedy or in Tianshou's
    forward, and its double-DQN target evaluates the best *legal* action of the
    next state, even when the network rates an illegal one far higher (here
    CHALLENGE, given a huge bias: in most positions it is illegal)."""
    import torch
    from tianshou.data import Batch, Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    ts = _load("tianshou_dqn")
    view, learner, args = _tianshou_learner(ts)
    table = view.aec.table
    challenge = table.index_of("CHALLENGE")
    with torch.no_grad():
        learner.policy.model.model.model[-1].bias[challenge] = 1e3
    learner._update_lagged_network_weights()
    envs = DummyVectorEnv([lambda: ts.make_env(args, 11)])
    buffer = VectorReplayBuffer(2000, 1)
    Collector[CollectStats](learner, envs, buffer).collect(n_step=400, reset_before_collect=True)
    data = buffer[np.arange(len(buffer))]
    assert data.obs.mask[np.arange(len(data)), data.act].all()  # every stored action was legal
    assert (data.act != challenge).sum() > 300
    idx = np.flatnonzero(~data.terminated)
    nxt = data[idx].obs_next
    with torch.no_grad():
        q_new = learner.policy.model(nxt.obs)[0].numpy()
        q_old = learner.model_old(nxt.obs)[0].numpy()
        target = learner._target_q(buffer, idx).numpy()
    best_legal = np.where(nxt.mask, q_new, -np.inf).argmax(axis=1)
    assert (q_new.argmax(axis=1) == challenge).mean() > 0.9  # unmasked, it would pick CHALLENGE
    assert not nxt.mask[np.arange(len(idx)), challenge].all()
    assert target == pytest.approx(q_old[np.arange(len(idx)), best_legal])
    greedy = ts.greedy(learner, view.features)
    obs, _ = view.reset(seed=1)
    act = learner.policy(Batch(obs=Batch(obs=obs["obs"][None], mask=obs["mask"][None]),
                               info=[None])).act[0]  # fmt: skip
    raw = view.aec.observe("player_0")
    assert obs["mask"][act] and raw["action_mask"][greedy(raw["observation"], raw["action_mask"])]


def test_tianshou_view_ends_a_cut_round_for_the_learner() -> None:
    """A round cut at ``max_steps`` is paid its stall reward (a loss) and is
    *terminal* for the learner: Tianshou must not bootstrap it from the
    Q-values of the round's end (an all-illegal mask)."""
    ts = _load("tianshou_dqn")
    view, _, _ = _tianshou_learner(ts, max_steps=6)
    obs, _ = view.reset(seed=2)
    steps, done = 0, False
    while not done:
        obs, r, terminated, truncated, _ = view.step(int(np.flatnonzero(obs["mask"])[0]))
        steps += 1
        done = terminated or truncated
    game = view.aec.game
    assert game.winner == -1 and truncated and terminated and steps <= 6
    assert r == pytest.approx(-game.hand_value(0) / 100)  # norm_points: the loser's reward
    assert not obs["mask"].any()


def test_cleanrl_advantages_follow_each_seat() -> None:
    """Two seats alternate in one game; the round ends after step 2 (seat 0
    wins +1, seat 1 gets -1); a new round starts at step 3 with seat 1."""
    cleanrl = _load("cleanrl_ppo")
    values = np.array([[0.1], [0.2], [0.3], [0.4]])
    actors = np.array([[0], [1], [0], [1]])
    rewards = np.zeros((4, 1, 2))
    rewards[2, 0] = [1.0, -1.0]
    dones = np.array([[False], [False], [True], [False]])
    adv = cleanrl.seat_advantages(values, rewards, actors, dones, np.array([0.5]),
                                  np.array([0]), gamma=1.0, lam=1.0)  # fmt: skip
    # step 3 (seat 1, new round): bootstraps on itself (no later decision of seat 1)
    assert adv[3, 0] == pytest.approx(0.0)
    # step 2 (seat 0): won, the round is over -> 1 - 0.3
    assert adv[2, 0] == pytest.approx(0.7)
    # step 1 (seat 1): its -1 came after its last decision -> -1 - 0.2
    assert adv[1, 0] == pytest.approx(-1.2)
    # step 0 (seat 0): next decision step 2 (value 0.3), GAE through it: 0.3-0.1 + 0.7
    assert adv[0, 0] == pytest.approx(0.9)


def test_tianshou_ppo_masks_sampling_and_the_loss() -> None:
    """The PPO actor (examples/tianshou_ppo.py) gives illegal actions no
    probability: with a huge bias on CHALLENGE (illegal in most positions) no
    sampled, greedy or stored action is illegal, and the log-probabilities the
    loss uses are finite for every stored action."""
    import argparse

    import torch
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.utils.torch_utils import policy_within_training_step

    ts = _load("tianshou_ppo")
    args = argparse.Namespace(variant="classic", reward="norm_points", stall_reward="loss",
                              max_steps=1000, hidden=32, lr=3e-4, gamma=1.0, gae_lambda=0.95,
                              ent_coef=0.01)  # fmt: skip
    view = ts.make_env(args, 5)
    learner = ts.make_learner(view, args)
    challenge = view.aec.table.index_of("CHALLENGE")
    with torch.no_grad():
        learner.policy.actor.net[-1].bias[challenge] = 1e3
    envs = DummyVectorEnv([lambda: ts.make_env(args, 11)])
    buffer = VectorReplayBuffer(2000, 1)
    collector = Collector[CollectStats](learner, envs, buffer)
    with policy_within_training_step(learner.policy):
        collector.collect(n_step=400, reset_before_collect=True)
    data = buffer[np.arange(len(buffer))]
    assert data.obs.mask[np.arange(len(data)), data.act].all()  # every sampled action was legal
    assert (data.act != challenge).sum() > 300
    with torch.no_grad():
        logp = learner.policy(data).dist.log_prob(torch.as_tensor(data.act))
    assert torch.isfinite(logp).all()
    greedy = ts.greedy(learner, view.features)
    for seed in range(20):
        obs, _ = view.reset(seed=seed)
        raw = view.aec.observe("player_0")
        assert raw["action_mask"][greedy(raw["observation"], raw["action_mask"])]


def test_rllib_random_bot_module_plays_like_the_random_bot() -> None:
    """The RLlib recipe's fixed opponent module (examples/rllib_ppo.py) reads
    unokit's ``random`` bot off the mask: on every decision of random rounds it
    picks a legal action, calls UNO when it may, plays a card when it can (a
    play is legal and DRAW too: an ordinary turn), draws when it cannot, and
    never catches; the seat mapping gives ``main`` both seats (self-play) or
    one seat against the bot, and both kinds of episode occur with ``mixed``."""
    import torch
    from ray.rllib.core.columns import Columns

    rl = _load("rllib_ppo")
    env = rl.UnoMultiAgentEnv({"variant": "classic"})
    table = env.env.table
    space = env.observation_spaces["player_0"]
    bot = rl.RandomBotRLModule(observation_space=space, action_space=env.action_spaces["player_0"],
                               model_config={"plays": table.num_plays,
                                             "draw": table.index_of("DRAW"),
                                             "uno": table.index_of("UNO"),
                                             "catch": [i for i, n in enumerate(table.names)
                                                       if n.startswith("CATCH")]})  # fmt: skip
    uno, draw = table.index_of("UNO"), table.index_of("DRAW")
    catches = {i for i, n in enumerate(table.names) if n.startswith("CATCH")}
    seen = {"uno": 0, "play": 0, "draw": 0}
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            ((agent, o),) = obs.items()
            batch = {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in o.items()}}
            action = int(bot.forward_exploration(batch)[Columns.ACTIONS][0])
            mask = o["action_mask"] > 0
            assert mask[action] and action not in catches
            plays = mask[: table.num_plays].any()
            if mask[uno]:
                assert action == uno
                seen["uno"] += 1
            elif plays and mask[draw]:
                assert action < table.num_plays
                seen["play"] += 1
            elif mask[draw]:
                assert action == draw
                seen["draw"] += 1
            obs, _, term, _, _ = env.step({agent: action})
            done = term["__all__"]
    assert min(seen.values()) > 0

    class Episode:
        def __init__(self, i: int) -> None:
            self.id_ = f"episode-{i}"

    for opponents in ("self", "random", "mixed"):
        fn = rl.mapping(opponents)
        kinds = set()
        for i in range(40):
            seats = sorted(fn(a, Episode(i)) for a in ("player_0", "player_1"))
            assert "main" in seats
            kinds.add(tuple(seats))
        expected = {"self": {("main", "main")}, "random": {("main", "random")},
                    "mixed": {("main", "main"), ("main", "random")}}[opponents]  # fmt: skip
        assert kinds == expected


def test_learner_view_takes_unokits_bots_as_the_opponent() -> None:
    """``BotOpponent`` (examples/learner_view.py) plays unokit's ``heuristic``
    bot on the AEC environment through the view: every round ends with a
    winner, and it catches a missed UNO call, so a learner that plays random
    cards and never calls UNO loses (almost) every round to it, while it wins
    a good share against the random bot (which never catches) and against the
    heuristic bot when it does call."""
    ts = _load("tianshou_ppo")
    from unokit.envs import uno_classic_v0

    def wins(opponent: Any, call_uno: bool, rounds: int = 30) -> int:
        aec = uno_classic_v0.env(players=2, reward="win", max_steps=1000, obs_layout=1)
        view = ts.LearnerView(aec, ts.UnoFeatures("classic", 2), opponent=opponent, seed=4)
        uno = aec.table.index_of("UNO")
        rng = np.random.default_rng(3)
        won = 0
        for seed in range(rounds):
            obs, _ = view.reset(seed=seed)
            done = False
            while not done:
                legal = np.flatnonzero(obs["mask"])
                plays = legal[legal < aec.table.num_plays]
                if obs["mask"][uno] and call_uno:
                    action = uno
                else:
                    action = int(rng.choice(plays if len(plays) else legal))
                obs, _, terminated, truncated, _ = view.step(action)
                done = terminated or truncated
            assert aec.game.winner in (0, 1)
            won += aec.game.winner == 0
        return won

    assert wins(ts.BotOpponent("heuristic", 1), call_uno=False) <= 2
    assert wins(None, call_uno=False) >= 6  # the random bot (default opponent)
    assert wins(ts.BotOpponent("heuristic", 1), call_uno=True) >= 5
