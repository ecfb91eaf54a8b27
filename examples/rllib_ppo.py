"""RLlib (Ray): multi-agent PPO with action masking on the PettingZoo UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'ray[rllib]>=2.60'
    python examples/rllib_ppo.py --variant classic --budget-seconds 600

Both seats of the two-player AEC environment ``uno_<variant>_v0`` are agents
of one RLlib ``MultiAgentEnv``. The learnt policy ``main`` is an
``ActionMaskingTorchRLModule`` (RLlib's own example module: illegal actions get
logit -inf). ``--opponents`` says who plays the other seat: ``mixed`` (the
default) half the episodes ``main`` itself (self-play with parameter sharing)
and half ``random``, a fixed module that plays as unokit's ``random`` bot
(:class:`RandomBotRLModule`, never trained); ``self`` and ``random`` only one
of them. Against the bot alone the policy beats ``random`` soonest but never
learns to call UNO (the random bot never catches), so it loses nearly every
round to ``heuristic``; self-play teaches that. Rewards are ``norm_points`` with
``stall_reward="loss"``, undiscounted (``--gamma 1``); the network sees the
observation divided by its Box's upper bound followed by the features of
``uno_features.py`` (``--no-features``: the scaled observation only).

Throughput: Ray runs locally in this process (``num_env_runners=0``: on a
small machine remote env runners only add copying) and the env runner steps
``--num-envs`` environments together (16: one batched forward pass of the
module for all of them, about four times the steps a second of a single
environment); each PPO update takes ``--batch`` steps (4,000) in minibatches
of 512, 4 epochs, with a [256, 256] tanh network for the policy and another
for the value.

Training stops at ``--budget-seconds`` or ``--steps``; the ``main`` module is
saved with ``save_to_path``, reloaded with ``RLModule.from_checkpoint`` and
played greedily for ``--eval-games`` rounds against unokit's ``random`` and
``heuristic`` bots: win rates with 95% Wilson intervals go to stdout and
``results.json``. ``--checkpoints 120,300`` also evaluates the policy after so
many seconds of training (``--checkpoint-games`` rounds each; not counted as
training time).
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
from uno_features import UnoFeatures  # noqa: E402

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0  # noqa: E402
from unokit.envs.evaluate import evaluate_many  # noqa: E402

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
        self.features = observation_fn(variant, c.pop("features", True))
        self.env = MODULES[variant].env(players=2, obs_layout=1, **c)  # raw vector + uno_features
        self.agents = self.possible_agents = list(self.env.possible_agents)
        box = self.env.observation_space(self.agents[0])["observation"]
        n = self.env.action_space(self.agents[0]).n
        size = len(self.features(box.high, np.ones(n, np.int8)))
        space = gymnasium.spaces.Dict({
            "observations": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (n,), np.float32),
        })  # fmt: skip
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = dict.fromkeys(self.agents, self.env.action_space(self.agents[0]))

    def _obs(self, raw: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"observations": self.features(raw["observation"], raw["action_mask"]),
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


class RandomBotRLModule(RLModule):  # type: ignore[misc]
    """unokit's ``random`` bot as a fixed (never trained) RLlib module, read off
    the action mask: it calls UNO when it may, plays a uniformly random legal
    card when it can, draws when it cannot, never catches, and otherwise picks
    a uniformly random legal action (a colour, a challenge, the drawn card)."""

    def setup(self) -> None:
        c = self.model_config
        self.plays, self.draw, self.uno = c["plays"], c["draw"], c["uno"]
        self.catch = list(c["catch"])
        self.rng = np.random.default_rng(0)

    def _pick(self, mask: np.ndarray) -> int:
        if mask[self.uno]:
            return int(self.uno)
        plays = np.flatnonzero(mask[: self.plays])
        if len(plays) and mask[self.draw]:
            return int(self.rng.choice(plays))
        if mask[self.draw]:
            return int(self.draw)
        legal = mask.copy()
        legal[self.catch] = 0
        return int(self.rng.choice(np.flatnonzero(legal if legal.any() else mask)))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        masks = np.asarray(batch[Columns.OBS]["action_mask"]) > 0
        return {Columns.ACTIONS: np.array([self._pick(m) for m in masks])}

    def _forward_train(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the random bot is not trained")


def mapping(opponents: str) -> Any:
    """Which module plays which seat: ``self``: ``main`` on both seats
    (self-play); ``random``: ``main`` on one seat (alternating by episode), the
    random bot on the other; ``mixed``: half the episodes each way."""

    def fn(agent: str, episode: Any, **kwargs: Any) -> str:
        h = hash(episode.id_)
        if opponents == "self" or (opponents == "mixed" and h % 2 == 0):
            return "main"
        return "main" if agent == f"player_{(h // 2) % 2}" else "random"

    return fn


def observation_fn(variant: str, features: bool) -> Any:
    """What the network sees: the observation divided by its Box's upper bound,
    followed by the features of ``uno_features.py`` unless ``features`` is false."""
    f = UnoFeatures(variant, 2)
    if features:
        return f
    return lambda obs, mask: (obs * f.scale).astype(np.float32)


def config(args: argparse.Namespace) -> PPOConfig:
    env_config = {"variant": args.variant, "reward": args.reward, "features": args.features,
                  "stall_reward": args.stall_reward, "max_steps": args.max_steps}  # fmt: skip
    hidden = [args.hidden, args.hidden]
    table = UnoMultiAgentEnv({"variant": args.variant}).env.table
    bot = RLModuleSpec(module_class=RandomBotRLModule, model_config={
        "plays": table.num_plays, "draw": table.index_of("DRAW"), "uno": table.index_of("UNO"),
        "catch": [i for i, n in enumerate(table.names) if n.startswith("CATCH")]})  # fmt: skip
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"head_fcnet_hiddens": [], "fcnet_hiddens": hidden,
                                        "fcnet_activation": "tanh", "vf_share_layers": False})  # fmt: skip
    return (
        PPOConfig()
        .environment(UnoMultiAgentEnv, env_config=env_config)
        .env_runners(
            num_env_runners=0, num_envs_per_env_runner=args.num_envs, rollout_fragment_length="auto"
        )  # fmt: skip
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(args.minibatch, args.batch),
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=args.gamma,
            lambda_=0.95,
            entropy_coeff=0.01,
            vf_clip_param=100.0,
        )  # fmt: skip
        .multi_agent(
            policies={"main", "random"},
            policies_to_train=["main"],
            policy_mapping_fn=mapping(args.opponents),
        )  # fmt: skip
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(rl_module_specs={"main": module, "random": bot})
        )  # fmt: skip
        .debugging(seed=args.seed, log_level="ERROR")
    )


def greedy(module: RLModule, features: Any) -> Any:
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        batch = {Columns.OBS: {"observations": torch.as_tensor(features(obs, mask)[None]),
                               "action_mask": torch.as_tensor(mask[None], dtype=torch.float32)}}  # fmt: skip
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        logits[mask == 0] = -np.inf
        return int(logits.argmax())

    return policy


def evaluate_both(module: RLModule, features: Any, args: argparse.Namespace, games: int,
                  seconds: float, steps: int) -> dict[str, Any]:  # fmt: skip
    rates = evaluate_many(greedy(module, features), args.variant, games=games, obs_layout=1,
                          seed=args.eval_seed, echo=lambda line: print(line, flush=True))  # fmt: skip
    return {"seconds": seconds, "steps": steps, **rates}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(MODULES), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=100_000_000, help="environment steps at most")
    p.add_argument(
        "--num-envs",
        type=int,
        default=16,
        help="environments stepped together by the env runner (one batched forward pass)",
    )
    p.add_argument("--batch", type=int, default=4_000, help="environment steps per PPO update")
    p.add_argument("--minibatch", type=int, default=512)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", type=int, default=256, help="units of the two hidden layers")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument(
        "--features",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="append the features of uno_features.py to the scaled observation",
    )
    p.add_argument(
        "--opponents",
        choices=["mixed", "self", "random"],
        default="mixed",
        help="self-play, the random bot on the other seat, or half the episodes each",
    )
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--max-steps", type=int, default=1_000, help="decisions before a round is cut")
    p.add_argument("--checkpoints", default="", help="seconds of training, comma-separated")
    p.add_argument("--checkpoint-games", type=int, default=200)
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/rllib"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    checkpoints = sorted(float(s) for s in args.checkpoints.split(",") if s.strip())
    features = observation_fn(args.variant, args.features)
    curve: list[dict[str, Any]] = []
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)  # fmt: skip
    try:
        algo = config(args).build_algo()
        trained = 0.0  # seconds of training (evaluations of checkpoints excluded)
        steps = 0
        while trained < args.budget_seconds and steps < args.steps:
            t0 = time.monotonic()
            result = algo.train()
            trained += time.monotonic() - t0
            steps = int(result["num_env_steps_sampled_lifetime"])
            if checkpoints and trained >= checkpoints[0]:
                checkpoints.pop(0)
                print(f"checkpoint at {trained:.0f} s, {steps} environment steps:", flush=True)
                curve.append(evaluate_both(algo.get_module("main"), features, args,
                                           args.checkpoint_games, trained, steps))  # fmt: skip
        path = args.out / "main_module"
        algo.get_module("main").save_to_path(str(path))
        algo.stop()
    finally:
        ray.shutdown()
    print(f"trained {args.variant}: {steps} environment steps in {trained:.0f} s; "
          f"saved {path}", flush=True)  # fmt: skip
    module = RLModule.from_checkpoint(str(path))
    print(f"reloaded from {path}, {args.eval_games} games each:", flush=True)
    final = evaluate_both(module, features, args, args.eval_games, trained, steps)
    who = {"self": "self-play", "random": "vs random bot", "mixed": "self-play + random bot"}
    results = {"library": f"RLlib PPO (multi-agent, {who[args.opponents]})", "variant": args.variant,
               "args": {k: str(v) for k, v in vars(args).items()}, "curve": curve + [final],
               "final": final}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
