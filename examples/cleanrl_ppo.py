"""A single-file PPO in the CleanRL style: self-play on the batched UNO environment.

    pip install 'unokit[rl]' torch==2.13.0
    python examples/cleanrl_ppo.py --variant classic --budget-seconds 600

One policy plays every seat of ``--num-envs`` two-player rounds stepped
together: the batched environment of the variant
(``uno_<variant>_v0.vector_env``, :mod:`unokit.envs.vector`: the rounds in
the C rules core, many per call). Rewards are ``norm_points`` with
``stall_reward="loss"``; observations are divided by the Box's upper bound.

Each seat's decisions form its own trajectory: the advantage of a decision
(GAE) uses the rewards the seat received until its next decision and the value
there, so a round's outcome reaches every seat's last move. Logits of illegal
actions are set to -1e9 before sampling and in the loss.

Training stops at ``--budget-seconds`` or ``--steps`` (decisions, all seats);
the network is saved (``agent.pt``), reloaded into a fresh one and played
greedily for ``--eval-games`` rounds as seat 0 against unokit's ``random`` and
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

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0  # noqa: E402
from unokit.envs.evaluate import evaluate_many  # noqa: E402

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


class Agent(nn.Module):
    def __init__(self, high: np.ndarray, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(1.0 / high, dtype=torch.float32))
        size = len(high)
        self.critic = nn.Sequential(
            nn.Linear(size, hidden),
            nn.Tanh(),
            nn.Linear(hidden, hidden),
            nn.Tanh(),
            nn.Linear(hidden, 1),
        )
        self.actor = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh(),
                                   nn.Linear(hidden, actions))  # fmt: skip

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x * self.scale).squeeze(-1)

    def logits(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.actor(x * self.scale).masked_fill(mask == 0, -1e9)

    def act(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None) -> tuple:
        dist = torch.distributions.Categorical(logits=self.logits(x, mask))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


def seat_advantages(values: np.ndarray, rewards: np.ndarray, actors: np.ndarray,
                    dones: np.ndarray, last_value: np.ndarray, last_actor: np.ndarray,
                    gamma: float, lam: float) -> np.ndarray:  # fmt: skip
    """GAE over each seat's own decisions. ``values``/``actors``/``dones``
    ``(T, B)``, ``rewards`` ``(T, B, n)`` (by seat, in the step they came);
    a decision's reward is what its seat got until its next decision."""
    t_len, b, n = rewards.shape
    ar = np.arange(b)
    next_value = np.zeros((b, n))
    next_adv = np.zeros((b, n))
    pending = np.zeros((b, n))
    known = np.zeros((b, n), dtype=bool)
    next_value[ar, last_actor] = last_value
    known[ar, last_actor] = True
    adv = np.zeros((t_len, b))
    for t in reversed(range(t_len)):
        ended = dones[t]
        next_value[ended] = 0.0  # the round ended after this step: nothing follows
        next_adv[ended] = 0.0
        pending[ended] = 0.0
        known[ended] = True
        pending += rewards[t]
        a = actors[t]
        k = known[ar, a]
        nv = np.where(
            k, next_value[ar, a], values[t]
        )  # no later decision seen: bootstrap on itself
        delta = pending[ar, a] + gamma * nv - values[t]
        adv[t] = delta + gamma * lam * np.where(k, next_adv[ar, a], 0.0)
        next_value[ar, a] = values[t]
        next_adv[ar, a] = adv[t]
        pending[ar, a] = 0.0
        known[ar, a] = True
    return adv


def greedy(agent: Agent) -> Any:
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits = agent.logits(torch.as_tensor(obs[None]), torch.as_tensor(mask[None]))
        return int(logits[0].argmax())

    return policy


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", choices=sorted(MODULES), default="classic")
    p.add_argument("--budget-seconds", type=float, default=600.0)
    p.add_argument("--steps", type=int, default=100_000_000, help="decisions at most (all seats)")
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--num-steps", type=int, default=64, help="rollout length per update")
    p.add_argument("--reward", default="norm_points")
    p.add_argument("--stall-reward", default="loss")
    p.add_argument("--max-steps", type=int, default=1_000, help="decisions before a round is cut")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--checkpoint-games", type=int, default=200)
    p.add_argument(
        "--checkpoints",
        default="60,120,240,360,480",
        help="seconds at which to save (and later evaluate) checkpoints",
    )
    p.add_argument("--eval-seed", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("artifacts/cleanrl"))
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    kw = {
        "reward": args.reward,
        "stall_reward": args.stall_reward,
        "max_steps": args.max_steps,
        "obs_layout": 1,
    }  # the raw vector: this recipe scales it itself
    envs = MODULES[args.variant].vector_env(args.num_envs, 2, seed=args.seed, **kw)
    high = envs.encoder.high
    agent = Agent(high, envs.reset().action_mask.shape[1])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    out = envs.reset()
    T, B = args.num_steps, args.num_envs
    start = time.monotonic()
    steps = updates = rounds = finished = 0
    pending = sorted(float(t) for t in args.checkpoints.split(",") if t)
    saved: list[tuple[float, int, Path]] = []
    while time.monotonic() - start < args.budget_seconds and steps < args.steps:
        obs = np.zeros((T, B, len(high)), np.float32)
        masks = np.zeros((T, B, out.action_mask.shape[1]), np.int8)
        actions = np.zeros((T, B), np.int64)
        logps = np.zeros((T, B), np.float32)
        values = np.zeros((T, B), np.float32)
        actors = np.zeros((T, B), np.int64)
        rewards = np.zeros((T, B, 2), np.float64)
        dones = np.zeros((T, B), bool)
        for t in range(T):
            obs[t], masks[t], actors[t] = out.observation, out.action_mask, out.current_player
            with torch.no_grad():
                a, logp, _, v = agent.act(torch.as_tensor(obs[t]), torch.as_tensor(masks[t]))
            actions[t], logps[t], values[t] = a.numpy(), logp.numpy(), v.numpy()
            out = envs.step(actions[t])
            rewards[t] = out.rewards
            dones[t] = out.terminated | out.truncated
            rounds += int(dones[t].sum())
            # a round with a winner: someone's reward is positive (points/win rewards)
            finished += int((out.rewards[dones[t]].max(axis=1) > 0).sum())
        with torch.no_grad():
            last_value = agent.value(torch.as_tensor(out.observation)).numpy()
        adv = seat_advantages(values, rewards, actors, dones, last_value, out.current_player,
                              args.gamma, args.gae_lambda)  # fmt: skip
        returns = adv + values
        b_obs = torch.as_tensor(obs.reshape(T * B, -1))
        b_mask = torch.as_tensor(masks.reshape(T * B, -1))
        b_act = torch.as_tensor(actions.reshape(-1))
        b_logp = torch.as_tensor(logps.reshape(-1))
        b_adv = torch.as_tensor(adv.reshape(-1), dtype=torch.float32)
        b_ret = torch.as_tensor(returns.reshape(-1), dtype=torch.float32)
        size = T * B
        mb = size // args.minibatches
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for i in range(0, size, mb):
                idx = order[i : i + mb]
                _, logp, ent, v = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a_ = b_adv[idx]
                a_ = (a_ - a_.mean()) / (a_.std() + 1e-8)
                pg = torch.max(-a_ * ratio, -a_ * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                loss = (
                    pg + args.vf_coef * ((v - b_ret[idx]) ** 2).mean() - args.ent_coef * ent.mean()
                )
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        steps += T * B
        updates += 1
        elapsed = time.monotonic() - start
        while pending and elapsed >= pending[0] and elapsed < args.budget_seconds:
            pending.pop(0)
            ckpt = args.out / f"checkpoint_{int(elapsed)}s.pt"
            torch.save(agent.state_dict(), ckpt)
            saved.append((elapsed, steps, ckpt))
        if updates % 10 == 0:
            print(f"update {updates}: {steps} decisions, {time.monotonic() - start:.0f} s, "
                  f"rounds {rounds}, with a winner {finished / max(rounds, 1):.1%}",
                  flush=True)  # fmt: skip
    train_seconds = time.monotonic() - start
    path = args.out / "agent.pt"
    torch.save(agent.state_dict(), path)
    print(f"trained {args.variant}: {steps} decisions ({rounds} rounds, {finished} with a winner) "
          f"in {train_seconds:.0f} s; saved {path}", flush=True)  # fmt: skip

    def evaluate_file(file: Path, games: int) -> dict[str, Any]:
        fresh = Agent(high, out.action_mask.shape[1])
        fresh.load_state_dict(torch.load(file))
        policy = greedy(fresh)
        return evaluate_many(policy, args.variant, games=games, seed=args.eval_seed, obs_layout=1,
                             echo=lambda line: print(line, flush=True))  # fmt: skip

    curve = []
    for elapsed, at, ckpt in saved:
        print(f"checkpoint at {elapsed:.0f} s ({at} decisions):", flush=True)
        curve.append({"seconds": elapsed, "steps": at,
                      **evaluate_file(ckpt, args.checkpoint_games)})  # fmt: skip
    print(f"reloaded from {path}, {args.eval_games} games each:", flush=True)
    final: dict[str, Any] = {"seconds": train_seconds, "steps": steps,
                             **evaluate_file(path, args.eval_games)}  # fmt: skip
    curve.append(final)
    results = {"library": "CleanRL-style PPO (self-play)", "variant": args.variant,
               "args": {k: str(v) for k, v in vars(args).items()}, "final": final,
               "curve": curve}  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
