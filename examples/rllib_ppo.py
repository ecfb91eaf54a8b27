"""RLlib (Ray): multi-agent PPO with action masking on the PettingZoo UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'ray[rllib]>=2.60'
    python examples/rllib_ppo.py --variant classic --budget-seconds 600

Both seats of the two-player AEC environment ``uno_<variant>_v0`` are agents
of one RLlib ``MultiAgentEnv`` and share one policy, ``main`` (self-play with
parameter sharing), an ``ActionMaskingTorchRLModule`` (RLlib's own example
module: illegal actions get logit -inf). Rewards are ``norm_points`` with
``stall_reward="loss"``; observations are divided by the Box's upper bound.
Ray runs locally on this process (no remote workers: ``num_env_runners=0``).

Training stops at ``--budget-seconds`` or ``--steps``; the ``main`` module is
saved with ``save_to_path``, reloaded with ``RLModule.from_checkpoint`` and
played greedily for ``--eval-games`` rounds against unokit's ``random`` and
``heuristic`` bots: win rates with 95% Wilson intervals go to stdout and
``results.json``.
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
os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import ray  # noqa: E402
import torch  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec  # noqa: E402
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (  # noqa: E402
    ActionMaskingTorchRLModule,
)

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0  # noqa: E402
from unokit.envs.evaluate import evaluate  # noqa: E402

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


class UnoMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """The AEC environment as an RLlib turn-based MultiAgentEnv: only the agent
    to act gets an observation (``observations`` scaled to 0..1 and
    ``action_mask``, the keys RLlib's masking module reads); rewards arrive as
    PettingZoo accumulates them; at the end every agent gets its last reward."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        c = dict(config or {})
        variant = c.pop("variant", "classic")
        self.env = MODULES[variant].env(players=2, **c)
        self.agents = self.possible_agents = list(self.env.possible_agents)
        box = self.env.observation_space(self.agents[0])["observation"]
        self.scale = (1.0 / box.high).astype(np.float32)
        n = self.env.action_space(self.agents[0]).n
        space = gymnasium.spaces.Dict({
            "observations": gymnasium.spaces.Box(0.0, 1.0, box.shape, np.float32),
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (n,), np.float32),
        })  # fmt: skip
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = dict.fromkeys(self.agents, self.env.action_space(self.agents[0]))

    def _obs(self, raw: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"observations": raw["observation"] * self.scale,
                "action_mask": raw["action_mask"].astype(np.float32)}  # fmt: skip

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.env.reset(seed=seed)
        agent = self.env.agent_selection
        return {agent: self._obs(self.env.observe(agent))}, {}

    def step(self, actions: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        self.env.step(int(actions[self.env.agent_selection]))
        obs: dict[str, Any] = {}
        rewards: dict[str, float] = {}
        while self.env.agents:
            raw, reward, term, trunc, _ = self.env.last()
            agent = self.env.agent_selection
            rewards[agent] = rewards.get(agent, 0.0) + float(reward)
            if term or trunc:
                self.env.step(None)
                continue
            obs[agent] = self._obs(raw)
            break
        done = not self.env.agents
        return obs, rewards, {"__all__": done}, {"__all__": False}, {}


def config(args: argparse.Namespace) -> PPOConfig:
    env_config = {"variant": args.variant, "reward": args.reward,
                  "stall_reward": args.stall_reward, "max_steps": args.max_steps}  # fmt: skip
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"head_fcnet_hiddens": [128, 128],
                                        "fcnet_hiddens": [128, 128]})  # fmt: skip
    return (
        PPOConfig()
        .environment(UnoMultiAgentEnv, env_config=env_config)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1,
                     rollout_fragment_length="auto")  # fmt: skip
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=args.batch,
                  minibatch_size=min(256, args.batch), num_epochs=4,
                  lr=3e-4, gamma=0.99, entropy_coeff=0.01)  # fmt: skip
        .multi_agent(policies={"main"}, policy_mapping_fn=lambda agent, episode, **kw: "main")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"main": module}))
        .debugging(seed=args.seed, log_level="ERROR")
    )


def greedy(module: RLModule, scale: np.ndarray) -> Any:
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        batch = {Columns.OBS: {"observations": torch.as_tensor(obs[None] * scale),
                               "action_mask": torch.as_tensor(mask[None], dtype=torch.float32)}}  # fmt: skip
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        logits[mask == 0] = -np.inf
        return int(logits.argmax())

    return policy


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(MODULES), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=10_000_000, help="environment steps at most")
    p.add_argument("--batch", type=int, default=2_000, help="environment steps per PPO update")
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--max-steps", type=int, default=1_000, help="decisions before a round is cut")
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/rllib"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)  # fmt: skip
    try:
        algo = config(args).build_algo()
        start = time.monotonic()
        steps = 0
        while time.monotonic() - start < args.budget_seconds and steps < args.steps:
            result = algo.train()
            steps = int(result["num_env_steps_sampled_lifetime"])
        train_seconds = time.monotonic() - start
        path = args.out / "main_module"
        algo.get_module("main").save_to_path(str(path))
        algo.stop()
    finally:
        ray.shutdown()
    print(f"trained {args.variant}: {steps} environment steps in {train_seconds:.0f} s; "
          f"saved {path}", flush=True)  # fmt: skip
    module = RLModule.from_checkpoint(str(path))
    scale = UnoMultiAgentEnv({"variant": args.variant}).scale
    policy = greedy(module, scale)
    print(f"reloaded from {path}, {args.eval_games} games each:", flush=True)
    final: dict[str, Any] = {"seconds": train_seconds, "steps": steps}
    for opp in ("random", "heuristic"):
        r = evaluate(policy, args.variant, opp, games=args.eval_games, seed=args.eval_seed)
        final[opp] = r.as_dict()
        print(f"  {r}", flush=True)
    results = {"library": "RLlib PPO (multi-agent, shared policy)", "variant": args.variant,
               "args": {k: str(v) for k, v in vars(args).items()}, "final": final}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
