"""Stable-Baselines3: MaskablePPO (sb3-contrib) on the Gymnasium UNO environment.

    pip install 'unokit[rl]' torch==2.13.0 'sb3-contrib>=2.9'
    python examples/sb3_maskable_ppo.py --variant classic --minutes 10

The learner plays seat 0 of ``unokit/Uno<Variant>-v0`` (two players, 16
environments) against ``random`` in half of its environments and
``heuristic`` in the other half (``--opponent``), with ``norm_points``
rewards and ``stall_reward="loss"`` (a round cut at ``max_steps`` is worth a
loss, so stalling never pays). The network sees the observation divided by
the Box's upper bound (all in 0..1) followed by the features of
``uno_features.py`` (``--no-features``: without them). The policy
(``--policy scoring``, the default; :class:`ScoringPolicy`) scores every
action with one small network shared by all actions, from that action's own
features (``UnoFeatures.actions``: the kind of card, the colour it leaves in
force, the cards of the hand that could follow it, ...) weighed by the
state, plus one logit per action slot from an MLP on the state
(``--net``, default 128,128); ``--policy mlp`` is SB3's ``MultiInputPolicy``
(one logit per slot only). ``--shaping c`` adds a potential-based shaping on
hand sizes (:class:`HandShaping`, off by default: measured, it did not
help). Training stops at ``--minutes`` (or ``--budget-seconds``) of wall
time or ``--steps`` environment steps, at learning rate ``--lr`` (default
1e-3; Flip 3e-4, ``DEFAULT_LR``), constant or, with ``--lr-end``, linear
to it over the budget; the model is saved (``model.zip``),
reloaded, and played greedily for ``--eval-games`` rounds against ``random``
and ``heuristic`` (the same seeds for every model): win rates with 95%
Wilson intervals go to stdout and ``results.json``. Checkpoints saved along
the way (``--checkpoints``) are evaluated too, so ``results.json`` holds win
rate against wall time.
"""

from __future__ import annotations

import argparse
import functools
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
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402
from torch import nn  # noqa: E402
from uno_features import UnoFeatures  # noqa: E402

from unokit.envs.evaluate import evaluate_many  # noqa: E402
from unokit.envs.gym import GYM_IDS  # noqa: E402

#: The learning rate by variant when ``--lr`` is not given: at 200,000 steps
#: Flip reached 75.2% against ``random`` with 3e-4 and 68.8% with 1e-3
#: (docs/rl.md); Classic and Flex met their targets with 1e-3.
DEFAULT_LR = {"flip": 3e-4}


class FeatureObservation(gymnasium.ObservationWrapper[dict[str, Any], Any, dict[str, Any]]):
    """The observation divided by its Box's upper bound (every feature in 0..1),
    followed by the engineered features of ``uno_features.py`` (``--features``)
    and, for the action-scoring policy, by the per-action features
    (``UnoFeatures.actions``, flattened)."""

    def __init__(self, env: gymnasium.Env[Any, Any], variant: str, features: bool,
                 scoring: bool = False) -> None:  # fmt: skip
        super().__init__(env)
        self.transform = observation_transform(variant, features, scoring)
        size = len(self.transform(np.zeros(env.observation_space["observation"].shape),  # type: ignore[index]
                                  np.zeros(env.action_space.n, np.int8)))  # type: ignore[attr-defined]  # fmt: skip
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-10.0, 10.0, (size,), np.float32),
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


class StateAndActions(BaseFeaturesExtractor):
    """The network input of :class:`ScoringPolicy`: the state part of the
    observation and the action mask, then the per-action features."""

    def __init__(self, observation_space: gymnasium.spaces.Dict, state_size: int) -> None:
        total = observation_space["observation"].shape[0]  # type: ignore[index]
        super().__init__(observation_space, total + observation_space["action_mask"].shape[0])  # type: ignore[index]
        self.state_size = state_size

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        x = obs["observation"]
        s = self.state_size
        return torch.cat([x[:, :s], obs["action_mask"].float(), x[:, s:]], dim=1)


class ScoringNet(nn.Module):
    """Actor: an MLP on the state (and mask) gives one logit per action slot,
    and one small network shared by every action adds a score computed from
    that action's own features (``UnoFeatures.actions``) and the state's
    hidden layer -- so what is learnt about one card carries over to every card
    with the same features. Critic: an MLP on the state."""

    def __init__(self, state_size: int, n_actions: int, action_size: int, net: list[int],
                 hidden: int = 16) -> None:  # fmt: skip
        super().__init__()
        self.state_size = state_size + n_actions  # with the mask
        self.n_actions = n_actions
        self.action_size = action_size

        def mlp() -> nn.Sequential:
            layers: list[nn.Module] = []
            last = self.state_size
            for width in net:
                layers += [nn.Linear(last, width), nn.Tanh()]
                last = width
            return nn.Sequential(*layers)

        width = net[-1] if net else self.state_size
        self.pi_trunk = mlp()
        self.vf_trunk = mlp()
        self.base = nn.Linear(width, n_actions)
        # the shared scorer, bilinear: the action's features (and a few
        # non-linear ones of them) weighed by weights read off the state
        self.action_hidden = nn.Linear(action_size, hidden)
        self.weights = nn.Linear(width, action_size + hidden)
        self.latent_dim_pi = n_actions
        self.latent_dim_vf = width

    def forward_actor(self, x: torch.Tensor) -> torch.Tensor:
        h = self.pi_trunk(x[:, : self.state_size])
        acts = x[:, self.state_size :].reshape(-1, self.n_actions, self.action_size)
        z = torch.cat([acts, torch.tanh(self.action_hidden(acts))], dim=2)
        return self.base(h) + torch.bmm(z, self.weights(h).unsqueeze(2)).squeeze(2)

    def forward_critic(self, x: torch.Tensor) -> torch.Tensor:
        return self.vf_trunk(x[:, : self.state_size])

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(x), self.forward_critic(x)


class ScoringPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's policy with :class:`ScoringNet` (``--policy scoring``):
    the logits come straight from it (no extra linear layer)."""

    def __init__(self, *args: Any, scoring: dict[str, int], **kwargs: Any) -> None:
        self.scoring = scoring
        kwargs["features_extractor_class"] = StateAndActions
        kwargs["features_extractor_kwargs"] = {"state_size": scoring["state_size"]}
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        sc = self.scoring
        self.mlp_extractor = ScoringNet(sc["state_size"], sc["n_actions"], sc["action_size"],
                                        list(self.net_arch), sc.get("hidden", 16))  # type: ignore[arg-type]  # fmt: skip

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()
        ext = self.mlp_extractor
        for layer in (ext.base, ext.weights):  # type: ignore[union-attr]
            nn.init.orthogonal_(layer.weight, gain=0.01)
            nn.init.zeros_(layer.bias)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)  # fmt: skip

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["scoring"] = self.scoring
        data.pop("features_extractor_class", None)
        data.pop("features_extractor_kwargs", None)
        return data


@functools.cache
def features_of(variant: str) -> UnoFeatures:
    """One :class:`UnoFeatures` per variant (its tables take a moment to build)."""
    return UnoFeatures(variant, 2)


def observation_transform(variant: str, features: bool, scoring: bool = False) -> Any:
    """``(observation, mask) -> network input``: the scaled observation, plus
    the engineered features when ``features``, plus the per-action features
    when ``scoring``."""
    f = features_of(variant)
    if scoring:
        return f.with_actions
    if features:
        return f
    return lambda obs, mask: (np.asarray(obs, np.float32) * f.scale).astype(np.float32)


def make_env(variant: str, opponent: str, args: argparse.Namespace) -> Any:
    def thunk() -> gymnasium.Env[Any, Any]:
        env: gymnasium.Env[Any, Any] = gymnasium.make(
            GYM_IDS[variant], players=2, opponent=opponent, reward=args.reward,
            stall_reward=args.stall_reward, obs_layout=1)  # the raw vector + uno_features  # fmt: skip
        if args.shaping:
            env = HandShaping(env, args.shaping, args.gamma)
        return FeatureObservation(env, variant, args.features, args.policy == "scoring")

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


class LinearBudgetSchedule:
    """A learning rate going linearly from ``start`` to ``end`` over the
    training budget, whichever of its two ends comes first: the wall time
    (``seconds``) or the steps (SB3's ``progress_remaining``). ``end == start``:
    constant."""

    def __init__(self, start: float, end: float, seconds: float) -> None:
        self.start, self.end, self.seconds = start, end, seconds
        self.t0 = time.monotonic()

    def __call__(self, progress_remaining: float) -> float:
        done = max(1.0 - progress_remaining, (time.monotonic() - self.t0) / self.seconds)
        return self.start + (self.end - self.start) * min(max(done, 0.0), 1.0)

    def __repr__(self) -> str:
        return f"LinearBudgetSchedule({self.start}, {self.end}, {self.seconds})"


def greedy(model: MaskablePPO, transform: Any) -> Any:
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict({"observation": transform(obs, mask), "action_mask": mask},
                                  action_masks=mask.astype(bool), deterministic=True)  # fmt: skip
        return int(action)

    return policy


def evaluate_model(path: Path, args: argparse.Namespace, games: int) -> dict:
    model = MaskablePPO.load(path, device="cpu")
    policy = greedy(model, observation_transform(args.variant, args.features,
                                                 args.policy == "scoring"))  # fmt: skip
    return evaluate_many(policy, args.variant, games=games, seed=args.eval_seed, obs_layout=1,
                         echo=lambda line: print(line, flush=True))  # fmt: skip


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(GYM_IDS), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0, help="training wall time")
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="training wall time in minutes (overrides --budget-seconds)",
    )
    p.add_argument("--steps", type=int, default=10_000_000, help="environment steps at most")
    p.add_argument("--n-envs", type=int, default=16)
    p.add_argument("--n-steps", type=int, default=128, help="steps per environment per update")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--net", default="128,128", help="hidden layers of the policy and value nets")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument(
        "--features",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="append the engineered features of uno_features.py",
    )
    p.add_argument(
        "--policy",
        choices=["scoring", "mlp"],
        default="scoring",
        help="scoring: an MLP on the state plus a network shared by every action "
        "on that action's features; mlp: SB3's MultiInputPolicy",
    )
    p.add_argument(
        "--shaping",
        type=float,
        default=0.0,
        help="potential-based shaping: coef * (opponent's cards - mine); 0 = off",
    )
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument(
        "--opponent",
        choices=["mixed", "random", "heuristic"],
        default="mixed",
        help="training opponents: half random and half heuristic, or one of them",
    )
    p.add_argument(
        "--lr",
        type=float,
        default=None,
        help="learning rate; default 1e-3, Flip 3e-4 (measured: docs/rl.md)",
    )
    p.add_argument(
        "--lr-end",
        type=float,
        default=None,
        help="learning rate at the end of the budget (linear from --lr); default: constant --lr",
    )
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--checkpoint-games", type=int, default=200)
    p.add_argument(
        "--checkpoints",
        default="120,300,480",
        help="seconds at which to save (and later evaluate) checkpoints",
    )
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/sb3"))
    args = p.parse_args(argv)
    if args.minutes is not None:
        args.budget_seconds = args.minutes * 60
    if args.lr is None:
        args.lr = DEFAULT_LR.get(args.variant, 1e-3)
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.opponent == "mixed":
        opponents = ["random", "heuristic"] * (args.n_envs // 2) + ["random"] * (args.n_envs % 2)
    else:
        opponents = [args.opponent] * args.n_envs
    env = DummyVecEnv([make_env(args.variant, o, args) for o in opponents])
    env.seed(args.seed)
    net = [int(x) for x in args.net.split(",") if x]
    if args.policy == "scoring" and not args.features:
        p.error("--policy scoring needs the features (drop --no-features or use --policy mlp)")
    policy: Any = "MultiInputPolicy"
    policy_kwargs: dict[str, Any] = {"net_arch": net}
    if args.policy == "scoring":
        f = features_of(args.variant)
        policy = ScoringPolicy
        policy_kwargs["scoring"] = {"state_size": f.size, "n_actions": f.num_actions,
                                    "action_size": f.action_size}  # fmt: skip
    lr: Any = args.lr
    if args.lr_end is not None and args.lr_end != args.lr:
        lr = LinearBudgetSchedule(args.lr, args.lr_end, args.budget_seconds)
    model = MaskablePPO(policy, env, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.n_epochs, learning_rate=lr, gamma=args.gamma,
                        gae_lambda=args.gae_lambda, ent_coef=args.ent_coef, seed=args.seed,
                        policy_kwargs=policy_kwargs, device="cpu")  # fmt: skip
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
