"""Issue 28's check that the Gymnasium env learns with its own defaults.

SB3 MaskablePPO, ``MultiInputPolicy`` and every hyper-parameter at SB3's
default, 4 environments ``unokit/UnoClassic-v0`` with the env's defaults
(2 players, opponent ``random``, the env's default observation layout
unless ``--obs-layout N``, reward ``points`` unless ``--reward``), ``--steps``
steps (480,000), then the greedy policy plays ``--games`` (400) rounds
against ``random`` as seat 0 (seeds 10,000..). Prints one JSON line with
the win rate and its 95% Wilson interval; with ``--target 0.65`` it also
says whether the rate reached it and exits with status 1 if not.
``--checkpoints 150000,300000`` also evaluates the policy (the same games)
when training passes those steps, one JSON line each, so a long run that is
cut still says how far it got.

    python scripts/train_env_defaults.py --steps 480000 --games 400 --seed 0 --target 0.65
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import unokit.envs.gym  # noqa: F401 - registers the ids
from unokit.envs.evaluate import evaluate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=480_000)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--envs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--obs-layout", type=int, default=None, help="default: the env's own")
    ap.add_argument("--reward", default=None, help="default: the env's own (points)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--target", type=float, default=None, help="win rate to reach (exit 1 if not)")
    ap.add_argument("--checkpoints", default="", help="steps at which to evaluate too: 150000,...")
    args = ap.parse_args()
    checkpoints = sorted(int(x) for x in args.checkpoints.split(",") if x.strip())
    torch.set_num_threads(args.threads)
    kw: dict[str, Any] = {} if args.obs_layout is None else {"obs_layout": args.obs_layout}
    train_kw: dict[str, Any] = {} if args.reward is None else {"reward": args.reward}

    def thunk() -> gymnasium.Env[Any, Any]:
        return gymnasium.make(
            "unokit/UnoClassic-v0", players=2, opponent="random", **kw, **train_kw
        )

    venv = DummyVecEnv([thunk] * args.envs)
    model = MaskablePPO("MultiInputPolicy", venv, seed=args.seed, verbose=0)
    reward = venv.envs[0].unwrapped.reward_mode  # type: ignore[attr-defined]
    layout = venv.envs[0].unwrapped.obs_layout  # type: ignore[attr-defined]

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        x = {"observation": obs[None], "action_mask": mask[None]}
        action, _ = model.predict(x, action_masks=mask[None].astype(bool), deterministic=True)
        return int(action[0])

    def report(steps: int, train_s: float) -> bool:
        rate = evaluate(policy, "classic", "random", games=args.games, seed=10_000, **kw)
        met = None if args.target is None else rate.rate >= args.target
        # "timesteps": what SB3 counted (learn() ends on a whole rollout: 483,328 for 480,000)
        print(json.dumps({"steps": steps, "timesteps": model.num_timesteps,
                          "envs": args.envs, "seed": args.seed,
                          "obs_layout": layout if args.obs_layout else f"default ({layout})",
                          "reward": reward if args.reward else f"default ({reward})",
                          "train_seconds": round(train_s),
                          **rate.as_dict(), "target": args.target, "met": met}),
              flush=True)  # fmt: skip
        return met is not False

    class Checkpoints(BaseCallback):
        """Evaluates (outside the training clock) when a checkpoint is passed."""

        def __init__(self) -> None:
            super().__init__()
            self.todo = [c for c in checkpoints if c < args.steps]
            self.eval_s = 0.0

        def _on_step(self) -> bool:
            if self.todo and self.num_timesteps >= self.todo[0]:
                self.todo.pop(0)
                t = time.monotonic()
                report(self.num_timesteps, t - start - self.eval_s)
                self.eval_s += time.monotonic() - t
            return True

    callback = Checkpoints()
    start = time.monotonic()
    model.learn(total_timesteps=args.steps, callback=callback)
    ok = report(args.steps, time.monotonic() - start - callback.eval_s)
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
