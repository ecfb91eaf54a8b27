"""How big the value loss's gradient is next to the policy loss's in SB3's PPO,
per reward option of the Gymnasium env (docs/rl.md, issue 28).

MaskablePPO, ``MultiInputPolicy``, SB3's defaults, 4 environments
``unokit/UnoClassic-v0`` (defaults but ``reward``); after the first rollout
(8,192 steps) and its update, the gradient norms of the clipped policy loss
and of the value term (``vf_coef`` x MSE) on 20 minibatches of 64 of that
rollout (medians). SB3 clips the *sum* to ``max_grad_norm`` (0.5)
over all the parameters. Prints one JSON line per reward.

    python scripts/ppo_grad_norms.py points norm_points win
"""

from __future__ import annotations

import json
import sys
from typing import Any

import gymnasium
import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import unokit.envs.gym  # noqa: F401 - registers the ids


def grad_norms(reward: str, minibatches: int = 20) -> dict[str, Any]:
    def thunk() -> gymnasium.Env[Any, Any]:
        return gymnasium.make("unokit/UnoClassic-v0", reward=reward)

    model = MaskablePPO("MultiInputPolicy", DummyVecEnv([thunk] * 4), seed=0, verbose=0)
    model.learn(total_timesteps=8192)
    policy, buffer = model.policy, model.rollout_buffer
    clip = 0.2
    norms: dict[str, list[float]] = {"policy": [], "value": []}
    for i, data in enumerate(buffer.get(64)):
        if i == minibatches:
            break
        values, logp, _ = policy.evaluate_actions(
            data.observations, data.actions.long().flatten(), action_masks=data.action_masks
        )
        adv = (data.advantages - data.advantages.mean()) / (data.advantages.std() + 1e-8)
        ratio = th.exp(logp - data.old_log_prob)
        pg = -th.min(adv * ratio, adv * th.clamp(ratio, 1 - clip, 1 + clip)).mean()
        vf = model.vf_coef * ((data.returns - values.flatten()) ** 2).mean()
        for name, loss in (("policy", pg), ("value", vf)):
            policy.zero_grad()
            loss.backward(retain_graph=True)
            grads = [p.grad for p in policy.parameters() if p.grad is not None]
            norms[name].append(float(th.sqrt(sum((g**2).sum() for g in grads))))
    return {
        "reward": reward,
        "returns_std": round(float(np.std(buffer.returns)), 3),
        "policy_grad_norm": round(float(np.median(norms["policy"])), 3),
        "value_grad_norm": round(float(np.median(norms["value"])), 3),
        "max_grad_norm": model.max_grad_norm,
    }


if __name__ == "__main__":
    th.set_num_threads(1)
    for r in sys.argv[1:] or ["points", "norm_points", "win"]:
        print(json.dumps(grad_norms(r)), flush=True)
