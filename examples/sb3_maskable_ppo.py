"""Stable-Baselines3: MaskablePPO (sb3-contrib) on the Gymnasium UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'sb3-contrib>=2.9'
    python examples/sb3_maskable_ppo.py --variant classic --budget-seconds 600

The learner plays seat 0 of ``unokit/Uno<Variant>-v0`` (two players, 16
environments) against ``random`` in half of its environments and
``heuristic`` in the other half (``--opponent``), with ``norm_points``
rewards and ``stall_reward="loss"`` (a round cut at ``max_steps`` is worth a
loss, so stalling never pays). The network sees the observation divided by
the Box's upper bound (all in 0..1) followed by the features of
``uno_features.py`` (``--no-features``: without them); ``--shaping c`` adds a
potential-based shaping on hand sizes (:class:`HandShaping`, off by default:
measured, it did not help). Training stops at
``--budget-seconds`` of wall time or ``--steps`` environment steps; the model
is saved (``model.zip``), reloaded, and played greedily for ``--eval-games``
rounds against ``random`` and ``heuristic`` (the same seeds for every model):
win rates with 95% Wilson intervals go to stdout and ``results.json``.
Checkpoints saved along the way (``--checkpoints``) are evaluated too, so
``results.json`` holds win rate against wall time.
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

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402
from uno_features import UnoFeatures  # noqa: E402

from unokit.envs.evaluate import evaluate  # noqa: E402
from unokit.envs.gym import GYM_IDS  # noqa: E402


class FeatureObservation(gymnasium.ObservationWrapper[dict[str, Any], Any, dict[str, Any]]):
    """The observation divided by its Box's upper bound (every feature in 0..1),
    followed by the engineered features of ``uno_features.py`` (``--features``)."""

    def __init__(self, env: gymnasium.Env[Any, Any], variant: str, features: bool) -> None:
        super().__init__(env)
        self.transform = observation_transform(variant, features)
        size = len(self.transform(np.zeros(env.observation_space["observation"].shape),  # type: ignore[index]
                                  np.zeros(env.action_space.n, np.int8)))  # type: ignore[attr-defined]  # fmt: skip
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": env.observation_space["action_mask"],  # type: ignore[index]
            }
        )

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        mask = observation["action_mask"]
        return {"observation": self.transform(observation["observation"], mask),
                "action_mask": mask}  # fmt: skip

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


class HandShaping(gymnasium.Wrapper[dict[str, Any], Any, dict[str, Any], Any]):
    """Potential-based shaping (Ng, Harada and Russell 1999) on hand sizes:
    ``r + gamma * phi(s') - phi(s)`` with ``phi = coef * (fewest cards of an
    opponent - my cards)`` and ``phi = 0`` once the round is over. Over a round
    the shaping terms telescope, so the policies that are best for the true
    reward stay best; the learner is only told sooner that shedding cards (and
    making the opponent draw) is good. ``coef=0`` turns it off."""

    def __init__(self, env: gymnasium.Env[Any, Any], coef: float, gamma: float) -> None:
        super().__init__(env)
        enc = env.unwrapped.encoder  # type: ignore[attr-defined]
        self.sizes = enc.slice("hand_sizes")
        self.coef = coef
        self.gamma = gamma
        self.phi = 0.0

    def _phi(self, obs: dict[str, Any]) -> float:
        sizes = obs["observation"][self.sizes]
        return self.coef * float(sizes[1:].min() - sizes[0])

    def reset(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.phi = self._phi(obs)
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated or truncated else self._phi(obs)
        shaped = float(reward) + self.gamma * phi - self.phi
        self.phi = phi
        return obs, shaped, terminated, truncated, info

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


def observation_transform(variant: str, features: bool) -> Any:
    """``(observation, mask) -> network input``: the scaled observation, plus
    the engineered features when ``features``."""
    f = UnoFeatures(variant, 2)
    if features:
        return f
    return lambda obs, mask: (np.asarray(obs, np.float32) * f.scale).astype(np.float32)


def make_env(variant: str, opponent: str, args: argparse.Namespace) -> Any:
    def thunk() -> gymnasium.Env[Any, Any]:
        env: gymnasium.Env[Any, Any] = gymnasium.make(
            GYM_IDS[variant], players=2, opponent=opponent, reward=args.reward,
            stall_reward=args.stall_reward)  # fmt: skip
        if args.shaping:
            env = HandShaping(env, args.shaping, args.gamma)
        return FeatureObservation(env, variant, args.features)

    return thunk


class Budget(BaseCallback):
    """Stop at the wall-time budget; save checkpoints at the given times."""

    def __init__(self, seconds: float, checkpoints: list[float], out: Path) -> None:
        super().__init__()
        self.seconds = seconds
        self.pending = sorted(t for t in checkpoints if t < seconds)
        self.out = out
        self.saved: list[tuple[float, int, Path]] = []
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        elapsed = time.monotonic() - self.start
        while self.pending and elapsed >= self.pending[0]:
            self.pending.pop(0)
            path = self.out / f"checkpoint_{int(elapsed)}s.zip"
            self.model.save(path)
            self.saved.append((elapsed, self.num_timesteps, path))
        return elapsed < self.seconds


def greedy(model: MaskablePPO, transform: Any) -> Any:
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict({"observation": transform(obs, mask), "action_mask": mask},
                                  action_masks=mask.astype(bool), deterministic=True)  # fmt: skip
        return int(action)

    return policy


def evaluate_model(path: Path, args: argparse.Namespace, games: int) -> dict:
    model = MaskablePPO.load(path, device="cpu")
    policy = greedy(model, observation_transform(args.variant, args.features))
    out = {}
    for opponent in ("random", "heuristic"):
        r = evaluate(policy, args.variant, opponent, games=games, seed=args.eval_seed)
        out[opponent] = r.as_dict()
        print(f"  {r}", flush=True)
    return out


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(GYM_IDS), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=10_000_000, help="environment steps at most")
    p.add_argument("--n-envs", type=int, default=16)
    p.add_argument("--n-steps", type=int, default=128, help="steps per environment per update")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--net", default="256,256", help="hidden layers of the policy and value nets")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--features", action=argparse.BooleanOptionalAction, default=True,
                   help="append the engineered features of uno_features.py")
    p.add_argument("--shaping", type=float, default=0.0,
                   help="potential-based shaping: coef * (opponent's cards - mine); 0 = off")
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--opponent", choices=["mixed", "random", "heuristic"], default="mixed",
                   help="training opponents: half random and half heuristic, or one of them")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--checkpoint-games", type=int, default=200)
    p.add_argument("--checkpoints", default="60,120,240,360,480",
                   help="seconds at which to save (and later evaluate) checkpoints")
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/sb3"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.opponent == "mixed":
        opponents = ["random", "heuristic"] * (args.n_envs // 2) + ["random"] * (args.n_envs % 2)
    else:
        opponents = [args.opponent] * args.n_envs
    env = DummyVecEnv([make_env(args.variant, o, args) for o in opponents])
    env.seed(args.seed)
    net = [int(x) for x in args.net.split(",") if x]
    model = MaskablePPO("MultiInputPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.n_epochs, learning_rate=args.lr, gamma=args.gamma,
                        ent_coef=args.ent_coef, seed=args.seed,
                        policy_kwargs={"net_arch": net}, device="cpu")  # fmt: skip
    checkpoints = [float(t) for t in args.checkpoints.split(",") if t]
    budget = Budget(args.budget_seconds, checkpoints, args.out)
    t0 = time.monotonic()
    model.learn(total_timesteps=args.steps, callback=budget)
    train_seconds = time.monotonic() - t0
    path = args.out / "model.zip"
    model.save(path)
    print(f"trained {args.variant}: {model.num_timesteps} steps in {train_seconds:.0f} s; "
          f"saved {path}", flush=True)  # fmt: skip
    curve = []
    for elapsed, steps, ckpt in budget.saved:
        print(f"checkpoint at {elapsed:.0f} s ({steps} steps):", flush=True)
        curve.append({"seconds": elapsed, "steps": steps,
                      **evaluate_model(ckpt, args, args.checkpoint_games)})  # fmt: skip
    print(f"final model (reloaded from {path}), {args.eval_games} games each:", flush=True)
    final = {"seconds": train_seconds, "steps": model.num_timesteps,
             **evaluate_model(path, args, args.eval_games)}  # fmt: skip
    curve.append(final)
    results = {"library": "stable-baselines3 MaskablePPO", "variant": args.variant,
               "args": {k: str(v) for k, v in vars(args).items()},
               "final": final, "curve": curve}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
