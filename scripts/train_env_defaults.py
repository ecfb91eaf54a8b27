"""Issue 28's check that the Gymnasium env learns with its own defaults.

SB3 MaskablePPO, ``MultiInputPolicy`` and every hyper-parameter at SB3's
default, 4 environments ``unokit/UnoClassic-v0`` with the env's defaults
(2 players, opponent ``random``, observation layout 2 unless
``--obs-layout 1``), ``--steps`` steps (480,000), then the greedy policy
plays ``--games`` (400) rounds against ``random`` as seat 0 (seeds 0..).
Prints one JSON line with the win rate and its 95% Wilson interval.

    python scripts/train_env_defaults.py --steps 480000 --games 400
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
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    kw: dict[str, Any] = {} if args.obs_layout is None else {"obs_layout": args.obs_layout}
    train_kw: dict[str, Any] = {} if args.reward is None else {"reward": args.reward}

    def thunk() -> gymnasium.Env[Any, Any]:
        return gymnasium.make(
            "unokit/UnoClassic-v0", players=2, opponent="random", **kw, **train_kw
        )

    venv = DummyVecEnv([thunk] * args.envs)
    model = MaskablePPO("MultiInputPolicy", venv, seed=args.seed, verbose=0)
    start = time.monotonic()
    model.learn(total_timesteps=args.steps)
    train_s = time.monotonic() - start

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        x = {"observation": obs[None], "action_mask": mask[None]}
        action, _ = model.predict(x, action_masks=mask[None].astype(bool), deterministic=True)
        return int(action[0])

    rate = evaluate(policy, "classic", "random", games=args.games, seed=10_000, **kw)
    print(json.dumps({"steps": args.steps, "envs": args.envs, "seed": args.seed,
                      "obs_layout": args.obs_layout or "default", "reward": args.reward or "default",
                      "train_seconds": round(train_s),
                      **rate.as_dict()}))  # fmt: skip


if __name__ == "__main__":
    main()
