"""Tianshou: a multi-agent DQN learner on the PettingZoo UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'tianshou>=2.0'
    python examples/tianshou_dqn.py --variant classic --budget-seconds 600

The PettingZoo AEC environment (``uno_<variant>_v0``, two players, wrapped in
Tianshou's ``PettingZooEnv``) is played by a ``MultiAgentOffPolicyAlgorithm``:
``player_0`` is a DQN learner (masked Q-values), ``player_1`` Tianshou's
masked random agent (uniform over the legal actions). Rewards are
``norm_points`` with ``stall_reward="loss"``: a blocked round, or one cut at
``max_steps``, is worth a loss to both seats, so the learner cannot stall its
way out of losing (with the old 0 for a cut round, a DQN trained like this
converged to always drawing). Observations are divided by the Box's upper
bound inside the network.

Training stops at ``--budget-seconds`` or ``--steps``; the learner's weights
are saved (``dqn.pt``), loaded into a fresh network and played greedily for
``--eval-games`` rounds against unokit's ``random`` and ``heuristic`` bots:
win rates with 95% Wilson intervals go to stdout and ``results.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from tianshou.algorithm import (  # noqa: E402
    DQN,
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step  # noqa: E402

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0  # noqa: E402
from unokit.envs.evaluate import evaluate  # noqa: E402

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


class ScaledNet(Net):
    """Tianshou's MLP on the observation divided by its upper bound."""

    def __init__(self, scale: np.ndarray, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> Any:
        x = torch.as_tensor(obs, dtype=torch.float32) * self.scale
        return super().forward(x, state, info)


def make_env(variant: str, reward: str, stall_reward: str, max_steps: int) -> PettingZooEnv:
    return PettingZooEnv(MODULES[variant].env(players=2, reward=reward, stall_reward=stall_reward,
                                              max_steps=max_steps))  # fmt: skip


def make_learner(env: PettingZooEnv, args: argparse.Namespace) -> DQN:
    space = env.observation_space["observation"]
    net = ScaledNet(1.0 / space.high, state_shape=space.shape, action_shape=env.action_space.n,
                    hidden_sizes=[128, 128])  # fmt: skip
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=args.eps, eps_inference=0.0)  # fmt: skip
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=0.99,
               n_step_return_horizon=3, target_update_freq=320)  # fmt: skip


def greedy(learner: DQN) -> Any:
    net = learner.policy.model

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            q, _ = net(obs[None])
        q = q[0].numpy()
        q[mask == 0] = -np.inf
        return int(q.argmax())

    return policy


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(MODULES), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=10_000_000, help="environment steps at most")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--max-steps", type=int, default=1_000, help="decisions before a round is cut")
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--eps", type=float, default=0.1, help="epsilon-greedy in training")
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/tianshou"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    def env_fn() -> PettingZooEnv:
        return make_env(args.variant, args.reward, args.stall_reward, args.max_steps)

    env = env_fn()
    learner = make_learner(env, args)
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    marl = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)
    train_envs = DummyVectorEnv([env_fn for _ in range(args.n_envs)])
    train_envs.seed(args.seed)
    buffer = VectorReplayBuffer(50_000, len(train_envs))
    train_collector = Collector[CollectStats](marl, train_envs, buffer, exploration_noise=True)
    train_collector.reset()
    # Tianshou's off-policy loop, written out so that it stops at the budget:
    # collect a few steps in every environment, then a gradient step per 10
    # transitions on a sample of the replay buffer
    start = time.monotonic()
    collect_steps = 10 * args.n_envs
    steps = 0
    while time.monotonic() - start < args.budget_seconds and steps < args.steps:
        with policy_within_training_step(marl.policy):  # as Tianshou's trainer does
            stats = train_collector.collect(n_step=collect_steps)
            steps += stats.n_collected_steps
            if len(buffer) >= 64:
                for _ in range(max(1, stats.n_collected_steps // 10)):
                    marl.update(buffer=buffer, sample_size=64)
    train_seconds = time.monotonic() - start
    path = args.out / "dqn.pt"
    torch.save(learner.state_dict(), path)
    print(f"trained {args.variant}: {steps} environment steps in {train_seconds:.0f} s; "
          f"saved {path}", flush=True)  # fmt: skip

    fresh = make_learner(env, args)
    fresh.load_state_dict(torch.load(path))
    policy = greedy(fresh)
    print(f"reloaded from {path}, {args.eval_games} games each:", flush=True)
    final: dict[str, Any] = {"seconds": train_seconds, "steps": steps}
    for opp in ("random", "heuristic"):
        r = evaluate(policy, args.variant, opp, games=args.eval_games, seed=args.eval_seed)
        final[opp] = r.as_dict()
        print(f"  {r}", flush=True)
    results = {"library": "tianshou DQN (multi-agent)", "variant": args.variant,
               "args": {k: str(v) for k, v in vars(args).items()}, "final": final}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
