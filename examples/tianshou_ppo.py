"""Tianshou: a PPO learner with action masking on the PettingZoo UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'tianshou>=2.0'
    python examples/tianshou_ppo.py --variant classic --budget-seconds 600

The learner plays ``player_0`` of the PettingZoo AEC environment
(``uno_<variant>_v0``, two players) through :class:`learner_view.LearnerView`:
the opponent's moves are taken inside ``step`` (``--opponent mixed``, the
default: unokit's ``random`` bot in half the environments and its
``heuristic`` bot in the other half; ``random`` or ``heuristic``: one of
them), so each transition runs from one of the learner's decisions to
its next one and carries everything the learner received in between, a round
lost on the opponent's move included. Observations are ``{"obs": features,
"mask": legal actions}``; the actor sets the logits of illegal actions to
-1e9, in sampling and in the loss, so the policy never puts probability on
them. Rewards are ``norm_points`` with ``stall_reward="loss"``, undiscounted
(``--gamma 1``: a round is short, and a discount would pay a learner that is
behind for postponing the loss). The networks see the observation divided by
its Box's upper bound and the features of ``uno_features.py``.

Training stops at ``--budget-seconds`` or ``--steps``; the actor and critic are
saved (``ppo.pt``), loaded into fresh networks and the actor is played greedily
(the most probable legal action) for ``--eval-games`` rounds against unokit's
``random`` and ``heuristic`` bots: win rates with 95% Wilson intervals go to
stdout and ``results.json``. ``--checkpoints 120,300`` also evaluates the
policy after so many seconds of training (``--checkpoint-games`` rounds each;
the time spent evaluating is not counted as training).
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
from learner_view import BotOpponent, LearnerView  # noqa: E402
from tianshou.algorithm import PPO  # noqa: E402
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step  # noqa: E402
from torch import nn  # noqa: E402
from uno_features import UnoFeatures  # noqa: E402

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0  # noqa: E402
from unokit.envs.evaluate import evaluate_many  # noqa: E402

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


def _mlp(size: int, hidden: int, out: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                         nn.Linear(hidden, out))  # fmt: skip


class MaskedActor(nn.Module):
    """``(obs.obs, obs.mask) -> logits`` with illegal actions at -1e9 (Tianshou's
    actor interface: ``forward(obs, state, info) -> (logits, state)``)."""

    def __init__(self, size: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.net = _mlp(size, hidden, actions)

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        x = torch.as_tensor(obs.obs, dtype=torch.float32)
        mask = torch.as_tensor(obs.mask, dtype=torch.bool)
        return self.net(x).masked_fill(~mask, -1e9), state


class Critic(nn.Module):
    """``obs.obs -> V(s)``."""

    def __init__(self, size: int, hidden: int) -> None:
        super().__init__()
        self.net = _mlp(size, hidden, 1)

    def forward(self, obs: Any, **kwargs: Any) -> torch.Tensor:
        return self.net(torch.as_tensor(obs.obs, dtype=torch.float32))


def make_env(args: argparse.Namespace, seed: int, index: int = 0) -> LearnerView:
    """The learner's view of environment ``index``: against the ``random`` bot, or
    (``--opponent heuristic``, and every other environment with ``mixed``)
    against unokit's ``heuristic`` bot."""
    aec = MODULES[args.variant].env(players=2, reward=args.reward, stall_reward=args.stall_reward,
                                    max_steps=args.max_steps, obs_layout=1)  # fmt: skip
    opponent = getattr(args, "opponent", "random")
    heuristic = opponent == "heuristic" or (opponent == "mixed" and index % 2 == 1)
    bot = BotOpponent("heuristic", seed) if heuristic else None
    return LearnerView(aec, UnoFeatures(args.variant, 2), opponent=bot, seed=seed)


def make_learner(env: LearnerView, args: argparse.Namespace) -> PPO:
    size, n = env.features.size, int(env.action_space.n)
    policy = DiscreteActorPolicy(actor=MaskedActor(size, n, args.hidden),
                                 action_space=env.action_space, deterministic_eval=True)  # fmt: skip
    return PPO(policy=policy, critic=Critic(size, args.hidden),
               optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
               gae_lambda=args.gae_lambda, ent_coef=args.ent_coef, vf_coef=0.5,
               max_grad_norm=0.5, eps_clip=0.2, max_batchsize=2048)  # fmt: skip


def greedy(learner: PPO, features: UnoFeatures) -> Any:
    net = learner.policy.actor.net

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits = net(torch.as_tensor(features(obs, mask)[None]))[0].numpy()
        logits[mask == 0] = -np.inf
        return int(logits.argmax())

    return policy


def evaluate_both(learner: PPO, features: UnoFeatures, args: argparse.Namespace, games: int,
                  seconds: float, steps: int) -> dict[str, Any]:  # fmt: skip
    rates = evaluate_many(greedy(learner, features), args.variant, games=games, obs_layout=1,
                          seed=args.eval_seed, echo=lambda line: print(line, flush=True))  # fmt: skip
    return {"seconds": seconds, "steps": steps, **rates}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(MODULES), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=100_000_000, help="learner steps at most")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--rollout", type=int, default=2_048, help="learner steps per PPO update")
    p.add_argument("--minibatch", type=int, default=512)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument(
        "--opponent",
        choices=["random", "heuristic", "mixed"],
        default="mixed",
        help="the training opponent: unokit's random bot, its heuristic bot, or "
        "half the environments each",
    )
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--max-steps", type=int, default=1_000, help="decisions before a round is cut")
    p.add_argument("--checkpoints", default="", help="seconds of training, comma-separated")
    p.add_argument("--checkpoint-games", type=int, default=200)
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/tianshou_ppo"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    checkpoints = sorted(float(s) for s in args.checkpoints.split(",") if s.strip())

    env = make_env(args, args.seed)
    learner = make_learner(env, args)
    train_envs = DummyVectorEnv([lambda i=i: make_env(args, args.seed * 1000 + 7919 * i, i)
                                 for i in range(args.n_envs)])  # fmt: skip
    # on-policy: the buffer holds one rollout and is emptied by each update
    buffer = VectorReplayBuffer(args.rollout + args.n_envs, len(train_envs))
    collector = Collector[CollectStats](learner, train_envs, buffer)
    collector.reset()
    curve: list[dict[str, Any]] = []
    trained = 0.0  # seconds of training (evaluations of checkpoints excluded)
    steps = 0
    while trained < args.budget_seconds and steps < args.steps:
        t0 = time.monotonic()
        with policy_within_training_step(learner.policy):  # sample, don't take the mode
            stats = collector.collect(n_step=args.rollout)
            steps += stats.n_collected_steps
            learner.update(buffer=buffer, batch_size=args.minibatch, repeat=args.epochs)
        collector.reset_buffer(keep_statistics=True)
        trained += time.monotonic() - t0
        if checkpoints and trained >= checkpoints[0]:
            checkpoints.pop(0)
            print(f"checkpoint at {trained:.0f} s, {steps} learner steps:", flush=True)
            curve.append(evaluate_both(learner, env.features, args, args.checkpoint_games,
                                       trained, steps))  # fmt: skip
    path = args.out / "ppo.pt"
    torch.save(learner.state_dict(), path)
    print(f"trained {args.variant}: {steps} learner steps in {trained:.0f} s; saved {path}",
          flush=True)  # fmt: skip

    fresh = make_learner(env, args)
    fresh.load_state_dict(torch.load(path))
    print(f"reloaded from {path}, {args.eval_games} games each:", flush=True)
    final = evaluate_both(fresh, env.features, args, args.eval_games, trained, steps)
    who = {
        "random": "vs random bot",
        "heuristic": "vs heuristic bot",
        "mixed": "vs random + heuristic bots",
    }
    results = {"library": f"tianshou PPO (learner view, {who[args.opponent]})",
               "variant": args.variant, "args": {k: str(v) for k, v in vars(args).items()},
               "curve": curve + [final], "final": final}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
