"""Tianshou: a DQN learner on the PettingZoo UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'tianshou>=2.0'
    python examples/tianshou_dqn.py --variant classic --budget-seconds 600

The learner plays ``player_0`` of the PettingZoo AEC environment
(``uno_<variant>_v0``, two players) through :class:`LearnerView`, a
single-agent view in which the **opponent's moves are taken inside** ``step``
(unokit's ``random`` bot, as in the evaluation): each transition of the learner runs from
one of its decisions to the next, and its reward is everything the learner
received in between, including a round lost on the opponent's move. (Tianshou's
own ``MultiAgentOffPolicyAlgorithm`` stores each agent's transitions
separately, so such a loss never reached the learner: a DQN trained that way
did not learn, 0 wins in 500.) Q-values are masked with the legal actions (the
view's ``mask``), in acting and in the targets. Rewards are ``norm_points``
with ``stall_reward="loss"``: a blocked round, or one cut at ``max_steps``, is
worth a loss. The network sees the observation divided by its Box's upper
bound and the features of ``uno_features.py``.

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
from learner_view import LearnerView, RandomOpponent  # noqa: E402,F401
from tianshou.algorithm import DQN  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step  # noqa: E402
from uno_features import UnoFeatures  # noqa: E402

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0  # noqa: E402
from unokit.envs.evaluate import evaluate_many  # noqa: E402

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


class FeatureNet(Net):
    """Tianshou's MLP; the features are computed by the environment view."""

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> Any:
        return super().forward(torch.as_tensor(obs, dtype=torch.float32), state, info)


def make_env(args: argparse.Namespace, seed: int) -> LearnerView:
    aec = MODULES[args.variant].env(players=2, reward=args.reward, stall_reward=args.stall_reward,
                                    max_steps=args.max_steps, obs_layout=1)  # fmt: skip
    return LearnerView(aec, UnoFeatures(args.variant, 2), seed=seed)


def make_learner(env: LearnerView, args: argparse.Namespace) -> DQN:
    size = env.features.size
    # dueling (Wang et al. 2016): Q = V(s) + A(s, a) - mean A; V learns from every
    # transition, so an action seldom taken is not judged by its own few samples
    dueling = ({"hidden_sizes": [128]}, {"hidden_sizes": [128]}) if args.dueling else None
    net = FeatureNet(state_shape=(size,), action_shape=env.action_space.n, hidden_sizes=[256, 256],
                     dueling_param=dueling)  # fmt: skip
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=args.eps, eps_inference=0.0)  # fmt: skip
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
               n_step_return_horizon=args.n_step, target_update_freq=args.target_update)  # fmt: skip


def greedy(learner: DQN, features: UnoFeatures) -> Any:
    net = learner.policy.model

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            q, _ = net(features(obs, mask)[None])
        q = q[0].numpy()
        q[mask == 0] = -np.inf
        return int(q.argmax())

    return policy


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(MODULES), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=10_000_000, help="learner steps at most")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--max-steps", type=int, default=1_000, help="decisions before a round is cut")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument(
        "--gamma",
        type=float,
        default=1.0,
        help="discount; < 1 makes postponing a likely loss pay (the DQN learnt to stall)",
    )
    p.add_argument(
        "--dueling",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="dueling Q-network (state value + advantages)",
    )
    p.add_argument("--n-step", type=int, default=16, help="n-step return horizon")
    p.add_argument(
        "--target-update",
        type=int,
        default=100,
        help="gradient steps between target-network updates",
    )
    p.add_argument("--eps", type=float, default=0.05, help="epsilon-greedy in training (final)")
    p.add_argument("--eps-start", type=float, default=0.05, help="epsilon at the first step")
    p.add_argument(
        "--eps-decay", type=int, default=0, help="learner steps from --eps-start to --eps"
    )
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/tianshou"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    env = make_env(args, args.seed)
    learner = make_learner(env, args)
    train_envs = DummyVectorEnv([lambda i=i: make_env(args, args.seed * 1000 + 7919 * i)
                                 for i in range(args.n_envs)])  # fmt: skip
    buffer = VectorReplayBuffer(100_000, len(train_envs))
    train_collector = Collector[CollectStats](learner, train_envs, buffer, exploration_noise=True)
    train_collector.reset()
    # Tianshou's off-policy loop, written out so that it stops at the budget:
    # collect a few steps in every environment, then a gradient step per 8
    # transitions on a sample of 256 from the replay buffer
    start = time.monotonic()
    collect_steps = 8 * args.n_envs
    steps = 0
    while time.monotonic() - start < args.budget_seconds and steps < args.steps:
        # epsilon decays linearly from --eps-start to --eps over --eps-decay steps
        frac = min(1.0, steps / args.eps_decay) if args.eps_decay > 0 else 1.0
        learner.policy.set_eps_training(args.eps_start + frac * (args.eps - args.eps_start))
        with policy_within_training_step(learner.policy):  # as Tianshou's trainer does
            stats = train_collector.collect(n_step=collect_steps)
            steps += stats.n_collected_steps
            if len(buffer) >= 256:
                for _ in range(max(1, stats.n_collected_steps // 8)):
                    learner.update(buffer=buffer, sample_size=256)
    train_seconds = time.monotonic() - start
    path = args.out / "dqn.pt"
    torch.save(learner.state_dict(), path)
    print(f"trained {args.variant}: {steps} learner steps in {train_seconds:.0f} s; "
          f"saved {path}", flush=True)  # fmt: skip

    fresh = make_learner(env, args)
    fresh.load_state_dict(torch.load(path))
    policy = greedy(fresh, env.features)
    print(f"reloaded from {path}, {args.eval_games} games each:", flush=True)
    final: dict[str, Any] = {"seconds": train_seconds, "steps": steps}
    final |= evaluate_many(policy, args.variant, games=args.eval_games, seed=args.eval_seed, obs_layout=1,
                           echo=lambda line: print(line, flush=True))  # fmt: skip
    results = {"library": "tianshou DQN (learner view of the PettingZoo env)",
               "variant": args.variant, "args": {k: str(v) for k, v in vars(args).items()},
               "final": final}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
