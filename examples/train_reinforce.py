"""Train a small policy to beat the ``random`` bot at 2-player UNO Classic.

NumPy only, on CPU, in a few minutes: a one-hidden-layer policy network over
the environment's observation vector, a softmax restricted to the legal actions
(the action mask), trained with REINFORCE (policy gradient with a learned value as baseline) on
whole rounds of :class:`unokit.envs.gym.UnoGymEnv` with the ``win`` reward
(+1 for winning the round, -1 for losing it). Several environments are stepped
in lockstep so that the network sees a batch at a time.

Every ``--eval-every`` updates the greedy policy (the most probable legal
action) plays ``--eval-episodes`` rounds on fixed seeds, never used in
training; at the end it plays ``--final-episodes`` rounds. The learning curve
goes to ``learning_curve.png`` and the numbers to ``results.json`` in
``--out``.

    python examples/train_reinforce.py                  # 500 updates: about 3-5 minutes
    python examples/train_reinforce.py --updates 100    # shorter

Training is deterministic: the same arguments give the same policy and the
same numbers on any machine (only the time taken differs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# One BLAS thread: the matrices are small, and threads only contend on a busy CPU.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402  (after the thread settings)
import numpy.typing as npt  # noqa: E402

from unokit.bots import make_bot  # noqa: E402
from unokit.envs.gym import UnoGymEnv  # noqa: E402

Array = npt.NDArray[np.float64]
TRAIN_SEEDS = 10_000_000  # training rounds use seeds from here on; evaluation uses 0, 1, ...
MAX_STEPS = 300  # agent decisions per round; a longer round counts as lost (stalling)


def input_scale(env: UnoGymEnv) -> Array:
    """Per-feature scale that brings counts to about 0..1."""
    enc = env.encoder
    scale = np.ones(enc.size)
    for name, factor in (
        ("hand_sizes", 1 / 10),
        ("draw_size", 1 / 50),
        ("pending_draw", 1 / 10),
        ("scores", 1 / 500),
    ):
        scale[enc.slice(name)] = factor
    return scale


class Policy:
    """Actor and critic on one hidden layer: h = relu(W1 x + b1); action logits
    W2 h + b2 with a softmax over the legal actions; value Wv h + bv (the
    expected result of the round, the baseline of the policy gradient)."""

    def __init__(self, n_in: int, n_out: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "W1": rng.normal(0, 1 / math.sqrt(n_in), (n_in, hidden)),
            "b1": np.zeros(hidden),
            "W2": rng.normal(0, 0.01, (hidden, n_out)),
            "b2": np.zeros(n_out),
            "Wv": np.zeros((hidden, 1)),
            "bv": np.zeros(1),
        }
        self._m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._t = 0

    def forward(self, x: Array, mask: Array) -> tuple[Array, Array]:
        """Hidden activations and action probabilities (0 on illegal actions)."""
        p = self.params
        h = np.maximum(x @ p["W1"] + p["b1"], 0.0)
        z = h @ p["W2"] + p["b2"]
        z = np.where(mask > 0, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z) * (mask > 0)
        return h, e / e.sum(axis=1, keepdims=True)

    def update(
        self,
        x: Array,
        mask: Array,
        actions: npt.NDArray[np.int64],
        returns: Array,
        lr: float,
        entropy: float,
        value_coef: float = 0.5,
    ) -> float:
        """One Adam step on the policy gradient loss -adv * log pi(a|x) with
        adv = return - value(x) (normalised over the batch), minus an entropy
        bonus, plus the critic's squared error; returns the mean entropy."""
        p = self.params
        h, probs = self.forward(x, mask)
        value = (h @ p["Wv"] + p["bv"])[:, 0]
        n = len(actions)
        adv = returns - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        g = probs.copy()
        g[np.arange(n), actions] -= 1.0
        g *= adv[:, None]  # d(-adv log pi_a)/dz = adv (pi - onehot)
        logp = np.log(np.where(probs > 0, probs, 1.0))
        ent = -(probs * logp).sum(axis=1)
        g += entropy * probs * (logp + ent[:, None])  # d(-entropy H)/dz
        g /= n
        gv = (value_coef * (value - returns) / n)[:, None]  # d(0.5 c (v - R)^2)/dv
        grads = {"W2": h.T @ g, "b2": g.sum(axis=0), "Wv": h.T @ gv, "bv": gv.sum(axis=0)}
        dh = (g @ p["W2"].T + gv @ p["Wv"].T) * (h > 0)
        grads["W1"] = x.T @ dh
        grads["b1"] = dh.sum(axis=0)
        self._t += 1
        b1, b2 = 0.9, 0.999
        for k, gk in grads.items():
            self._m[k] = b1 * self._m[k] + (1 - b1) * gk
            self._v[k] = b2 * self._v[k] + (1 - b2) * gk * gk
            mhat = self._m[k] / (1 - b1**self._t)
            vhat = self._v[k] / (1 - b2**self._t)
            p[k] -= lr * mhat / (np.sqrt(vhat) + 1e-8)
        return float(ent.mean())


@dataclass
class Batch:
    x: list[Array] = field(default_factory=list)
    mask: list[Array] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    episode: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)  # by episode


def collect(
    envs: list[UnoGymEnv],
    policy: Policy,
    scale: Array,
    episodes: int,
    next_seed: int,
    rng: np.random.Generator,
) -> tuple[Batch, int]:
    """Play ``episodes`` rounds, sampling from the policy, all envs in lockstep."""
    batch = Batch()
    obs: list[Any] = []
    ids: list[int] = []
    started = 0
    for env in envs:
        o, _ = env.reset(seed=next_seed + started)
        obs.append(o)
        ids.append(started)
        batch.returns.append(0.0)
        started += 1
    live = list(range(len(envs)))
    while live:
        x = np.stack([obs[i]["observation"] for i in live]) * scale
        mask = np.stack([obs[i]["action_mask"] for i in live]).astype(np.float64)
        _, probs = policy.forward(x, mask)
        cum = probs.cumsum(axis=1)
        draws = rng.random(len(live))[:, None]
        actions = np.minimum((cum < draws).sum(axis=1), probs.shape[1] - 1)
        still = []
        for row, i in enumerate(live):
            a = int(actions[row])
            if mask[row, a] == 0:  # rounding at the end of the cumulative sum
                a = int(np.flatnonzero(mask[row])[-1])
            batch.x.append(x[row])
            batch.mask.append(mask[row])
            batch.action.append(a)
            batch.episode.append(ids[i])
            o, reward, done, cut, _ = envs[i].step(a)
            if not (done or cut):
                obs[i] = o
                still.append(i)
                continue
            batch.returns[ids[i]] = -1.0 if cut else float(reward)  # stalling is losing
            if started < episodes:
                obs[i], _ = envs[i].reset(seed=next_seed + started)
                ids[i] = started
                batch.returns.append(0.0)
                started += 1
                still.append(i)
        live = still
    return batch, next_seed + started


def greedy_win_rate(policy: Policy, scale: Array, episodes: int, players: int = 2) -> float:
    """Rounds won by the greedy policy against ``random`` on seeds 0..episodes-1."""
    env = UnoGymEnv(
        "classic", players, opponent="random", reward="win", max_steps=MAX_STEPS, obs_layout=1
    )
    wins = 0
    for seed in range(episodes):
        obs, _ = env.reset(seed=seed)
        while True:
            x = obs["observation"][None, :] * scale
            mask = obs["action_mask"][None, :].astype(np.float64)
            _, probs = policy.forward(x, mask)
            obs, reward, done, cut, _ = env.step(int(np.argmax(probs[0])))
            if done or cut:
                wins += reward > 0
                break
    return wins / episodes


def bot_win_rate(name: str, episodes: int) -> float:
    """Rounds won against ``random`` by a bot of :mod:`unokit.bots` (``random``
    plays uniformly among the legal actions of its mask, like an untrained
    policy; other bots act on their Observation), same seeds as the evaluation."""
    env = UnoGymEnv(
        "classic", 2, opponent="random", reward="win", max_steps=MAX_STEPS, obs_layout=1
    )
    rng = np.random.default_rng(0)
    wins = 0
    for seed in range(episodes):
        obs, _ = env.reset(seed=seed)
        bot = make_bot(name, seed=seed) if name != "uniform" else None
        while True:
            if bot is None:
                a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                action = bot.act(env.game.observe(env.seat))  # the bot's own view only
                a = env.table.index(env.seat, env.game.encode(action))
            obs, reward, done, cut, _ = env.step(a)
            if done or cut:
                wins += reward > 0
                break
    return wins / episodes


def train(
    minutes: float = 10.0,
    updates: int = 500,
    episodes_per_update: int = 128,
    envs: int = 32,
    hidden: int = 128,
    lr: float = 1e-3,
    entropy: float = 0.01,
    eval_every: int = 25,
    eval_episodes: int = 500,
    final_episodes: int = 4000,
    seed: int = 0,
    out: Path | None = None,
    log: bool = True,
) -> dict[str, Any]:
    """Make ``updates`` policy updates (stopping early after ``minutes``);
    returns the results."""
    rng = np.random.default_rng(seed)
    pool = [
        UnoGymEnv("classic", 2, opponent="random", reward="win", max_steps=MAX_STEPS, obs_layout=1)
        for _ in range(envs)
    ]
    scale = input_scale(pool[0])
    policy = Policy(pool[0].encoder.size, pool[0].table.size, hidden, rng)
    curve: list[dict[str, float]] = []
    next_seed = TRAIN_SEEDS
    episodes = 0
    start = time.perf_counter()

    def evaluate(update: int) -> None:
        rate = greedy_win_rate(policy, scale, eval_episodes)
        curve.append(
            {
                "update": update,
                "episodes": episodes,
                "seconds": round(time.perf_counter() - start, 1),
                "win_rate": rate,
            }
        )
        if log:
            print(
                f"update {update:5d}  episodes {episodes:7d}  "
                f"{time.perf_counter() - start:6.0f}s  greedy win rate {rate:.3f}",
                flush=True,
            )

    evaluate(0)
    update = 0
    while update < updates and time.perf_counter() - start < minutes * 60:
        batch, next_seed = collect(pool, policy, scale, episodes_per_update, next_seed, rng)
        episodes += episodes_per_update
        returns = np.array(batch.returns)[np.array(batch.episode)]
        policy.update(
            np.stack(batch.x), np.stack(batch.mask), np.array(batch.action), returns, lr, entropy
        )
        update += 1
        if update % eval_every == 0:
            evaluate(update)
    if not curve or curve[-1]["update"] != update:
        evaluate(update)
    train_seconds = time.perf_counter() - start
    final = greedy_win_rate(policy, scale, final_episodes)
    half = 1.96 * math.sqrt(final * (1 - final) / final_episodes)
    result = {
        "variant": "classic",
        "players": 2,
        "opponent": "random",
        "updates": update,
        "episodes": episodes,
        "train_seconds": round(train_seconds, 1),
        "final_episodes": final_episodes,
        "final_win_rate": round(final, 4),
        "final_win_rate_95ci": [round(final - half, 4), round(final + half, 4)],
        "curve": curve,
        "settings": {
            "episodes_per_update": episodes_per_update,
            "envs": envs,
            "hidden": hidden,
            "lr": lr,
            "entropy": entropy,
            "seed": seed,
        },
    }
    if log:
        print(
            f"final greedy win rate against random over {final_episodes} rounds: "
            f"{final:.3f} (95% CI {final - half:.3f}-{final + half:.3f})"
        )
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        refs = {
            "uniform over the mask (untrained)": bot_win_rate("uniform", eval_episodes),
            "heuristic bot": bot_win_rate("heuristic", eval_episodes),
        }
        result["references"] = {k: round(v, 4) for k, v in refs.items()}
        (out / "results.json").write_text(json.dumps(result, indent=2) + "\n")
        plot(result, out / "learning_curve.png")
    return result


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = result["curve"]
    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=120)
    ax.plot(
        [c["episodes"] for c in curve],
        [c["win_rate"] for c in curve],
        marker="o",
        markersize=3,
        label="trained policy (greedy), 500 evaluation rounds",
    )
    styles = iter(["--", ":"])
    for name, rate in result.get("references", {}).items():
        ax.axhline(rate, linestyle=next(styles), color="grey", label=f"{name}: {rate:.0%}")
    ax.axhline(0.5, color="black", linewidth=0.8, label="the random bot itself: 50%")
    ax.set_xlabel("training rounds")
    ax.set_ylabel("rounds won against random")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_title(
        f"UNO Classic, 2 players: REINFORCE vs random "
        f"({result['train_seconds'] / 60:.1f} min on CPU)\n"
        f"final: {result['final_win_rate']:.1%} of {result['final_episodes']} rounds"
    )
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--updates", type=int, default=500, help="policy updates to make")
    parser.add_argument(
        "--minutes", type=float, default=10.0, help="stop earlier once training took this long"
    )
    parser.add_argument("--episodes-per-update", type=int, default=128)
    parser.add_argument("--envs", type=int, default=32, help="environments in lockstep")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--eval-episodes", type=int, default=500)
    parser.add_argument("--final-episodes", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    a = parser.parse_args()
    train(
        a.minutes,
        a.updates,
        a.episodes_per_update,
        a.envs,
        a.hidden,
        a.lr,
        a.entropy,
        a.eval_every,
        a.eval_episodes,
        a.final_episodes,
        a.seed,
        a.out,
    )


if __name__ == "__main__":
    main()
