"""Training of the value network with PyTorch on the CPU (the ``train`` extra).

:func:`train` plays self-play rounds (:mod:`unokit.train.selfplay`), holds out
a share of the *rounds* for validation (positions of one round are never on
both sides), fits a multilayer perceptron by binary cross-entropy with Adam,
and writes to the output directory:

* ``value-<variant>-<players>p.npz``: the weights of the epoch with the
  lowest validation loss, for NumPy inference
  (:class:`unokit.bots.net.ValueNet`; copy it to ``src/unokit/data/`` to ship);
* ``log.jsonl``: one line per epoch (losses, Brier score, accuracy, seconds);
* ``curve.png``: the learning curve (training and validation loss by epoch);
* ``summary.json``: the configuration, data sizes, wall time and the
  validation calibration by decile of predicted chance.

Everything follows from the configuration and the seed (one thread).
"""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from unokit.bots.net import FEATURES_VERSION, ValueNet, net_path
from unokit.engine.errors import OptionError
from unokit.train.selfplay import generate

__all__ = ["TrainConfig", "load_config", "train"]


@dataclass
class TrainConfig:
    players: int = 2
    games: int = 20_000  # self-play rounds at most
    record: float = 0.1  # share of decisions kept as training positions
    epsilon: float = 0.05  # share of random moves in self-play
    hidden: list[int] = field(default_factory=lambda: [256, 128])
    epochs: int = 20
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-5
    val_share: float = 0.1  # rounds held out for validation
    data_seconds: float = 600.0  # time limit of self-play
    train_seconds: float = 600.0  # time limit of the fitting

    def check(self) -> None:
        if not 2 <= self.players <= 10:
            raise OptionError(f"players must be 2 to 10, got {self.players}")
        if self.games < 2:
            raise OptionError(f"games must be at least 2, got {self.games}")
        if not 0 < self.record <= 1 or not 0 <= self.epsilon < 1:
            raise OptionError("record must be in (0, 1] and epsilon in [0, 1)")
        if not self.hidden or any(int(h) < 1 for h in self.hidden):
            raise OptionError(f"hidden must list layer sizes of at least 1, got {self.hidden}")
        if self.epochs < 1 or self.batch < 1 or self.lr <= 0 or self.weight_decay < 0:
            raise OptionError("epochs, batch and lr must be positive, weight_decay >= 0")
        if not 0 < self.val_share < 1:
            raise OptionError(f"val_share must be in (0, 1), got {self.val_share}")
        if self.data_seconds <= 0 or self.train_seconds <= 0:
            raise OptionError("data_seconds and train_seconds must be positive")


def load_config(path: Path | None) -> TrainConfig:
    """A configuration from a TOML or JSON file (``None``: the defaults). Unknown
    keys and bad values raise :class:`~unokit.engine.errors.OptionError`."""
    if path is None:
        cfg = TrainConfig()
        cfg.check()
        return cfg
    try:
        text = path.read_bytes()
    except OSError as e:
        raise OptionError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        raw = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text.decode())
    except (ValueError, UnicodeDecodeError) as e:
        raise OptionError(f"{path} is not valid {path.suffix.lstrip('.') or 'TOML'}: {e}") from None
    if not isinstance(raw, dict):
        raise OptionError(f"{path}: expected a table of settings")
    known = set(TrainConfig.__dataclass_fields__)
    unknown = sorted(set(raw) - known)
    if unknown:
        raise OptionError(
            f"{path}: unknown settings {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    defaults = asdict(TrainConfig())
    try:
        values: dict[str, Any] = {
            k: type(defaults[k])(v) if k != "hidden" else [int(h) for h in v]
            for k, v in raw.items()
        }
    except (TypeError, ValueError) as e:
        raise OptionError(f"{path}: bad value: {e}") from None
    cfg = TrainConfig(**values)
    cfg.check()
    return cfg


def train(
    variant: str,
    config: TrainConfig,
    seed: int,
    out: Path,
    say: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Train (see the module docstring); returns the summary."""
    try:
        import torch
    except ModuleNotFoundError:
        raise OptionError(
            "training needs PyTorch: pip install torch==2.13.0 && pip install -e '.[train]'"
        ) from None
    from unokit.engine.variants import get_variant

    name = get_variant(variant).name
    config.check()
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    say(f"self-play: up to {config.games} rounds of {name}, {config.players} players")
    data = generate(
        name,
        config.players,
        config.games,
        seed,
        config.record,
        config.epsilon,
        time_limit=config.data_seconds,
    )
    say(f"  {data.games} rounds, {len(data.y)} positions in {data.seconds:.0f} s")
    if len(data.y) < 10:
        raise OptionError("too few positions to train on: play more games")
    rng = np.random.default_rng(seed)
    rounds = np.unique(data.game)
    held = set(
        rng.choice(rounds, size=max(1, int(len(rounds) * config.val_share)), replace=False).tolist()
    )
    is_val = np.array([g in held for g in data.game.tolist()])
    if is_val.all() or not is_val.any():
        raise OptionError("too few rounds to hold some out for validation: play more games")
    x_tr = torch.from_numpy(data.x[~is_val].astype(np.float32))
    y_tr = torch.from_numpy(data.y[~is_val])
    x_va = torch.from_numpy(data.x[is_val].astype(np.float32))
    y_va = torch.from_numpy(data.y[is_val])
    sizes = [data.features.size, *config.hidden, 1]
    layers: list[torch.nn.Module] = []
    for a, b in zip(sizes, sizes[1:], strict=False):
        layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers[:-1])
    opt = torch.optim.Adam(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    log_path = out / "log.jsonl"
    log: list[dict[str, Any]] = []
    gen = torch.Generator().manual_seed(seed)
    best_val = float("inf")
    best_state: dict[str, Any] = {}
    best_epoch = 0
    t1 = time.perf_counter()
    with log_path.open("w") as fh:
        for epoch in range(1, config.epochs + 1):
            model.train()
            order = torch.randperm(len(y_tr), generator=gen)
            total = 0.0
            for k in range(0, len(order), config.batch):
                idx = order[k : k + config.batch]
                opt.zero_grad()
                loss = loss_fn(model(x_tr[idx])[:, 0], y_tr[idx])
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            model.eval()
            with torch.no_grad():
                logits = model(x_va)[:, 0]
                val = float(loss_fn(logits, y_va))
                p = torch.sigmoid(logits)
                brier = float(((p - y_va) ** 2).mean())
                acc = float(((p > 0.5).float() == (y_va > 0.5).float()).float().mean())
            row = {
                "epoch": epoch,
                "train_loss": round(total / len(y_tr), 5),
                "val_loss": round(val, 5),
                "val_brier": round(brier, 5),
                "val_accuracy": round(acc, 4),
                "seconds": round(time.perf_counter() - t0, 1),
            }
            if val < best_val:  # early stopping: the exported weights are the best epoch's
                best_val, best_epoch = val, epoch
                best_state = {k: v.clone() for k, v in model.state_dict().items()}
            log.append(row)
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            say(
                f"  epoch {epoch}: train {row['train_loss']:.4f}, validation {val:.4f}, "
                f"Brier {brier:.4f}, accuracy {acc:.1%}"
            )
            if time.perf_counter() - t1 > config.train_seconds:
                say("  training time limit reached")
                break
    model.load_state_dict(best_state)
    weights = [
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in model
        if isinstance(m, torch.nn.Linear)
    ]
    meta = {
        "variant": name,
        "players": config.players,
        "features": FEATURES_VERSION,
        "inputs": data.features.size,
        "hidden": list(config.hidden),
        "seed": seed,
        "rounds": data.games,
        "positions": int(len(data.y)),
        "val_loss": round(best_val, 5),
        "epoch": best_epoch,
    }
    net = ValueNet(weights, meta)
    path = out / net_path(name, config.players)
    net.save(path)
    # calibration on the validation positions, with the exported (float16) weights
    exported = ValueNet.load(path)
    pv = exported.predict(data.x[is_val].astype(np.float32))
    yv = data.y[is_val]
    calib = []
    for d in range(10):
        sel = (pv >= d / 10) & (pv < (d + 1) / 10 if d < 9 else pv <= 1.0)
        if sel.any():
            calib.append(
                {
                    "decile": d,
                    "positions": int(sel.sum()),
                    "predicted": round(float(pv[sel].mean()), 4),
                    "observed": round(float(yv[sel].mean()), 4),
                }
            )
    summary = {
        "variant": name,
        "seed": seed,
        "config": asdict(config),
        "rounds": data.games,
        "positions": int(len(data.y)),
        "train_positions": int((~is_val).sum()),
        "val_positions": int(is_val.sum()),
        "selfplay_seconds": round(data.seconds, 1),
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "epochs": log,
        "best_epoch": best_epoch,
        "calibration": calib,
        "weights": path.name,
        "weights_bytes": path.stat().st_size,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    _plot(log, out / "curve.png", f"value network, {name}, {config.players} players")
    say(
        f"wrote {path} ({path.stat().st_size // 1024} kB), log.jsonl, curve.png, summary.json "
        f"in {summary['wall_seconds']:.0f} s"
    )
    return summary


def _plot(log: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    epochs = [r["epoch"] for r in log]
    ax.plot(epochs, [r["train_loss"] for r in log], marker="o", label="training loss")
    ax.plot(epochs, [r["val_loss"] for r in log], marker="o", label="validation loss")
    ax.set_xlabel("epoch")
    ax.set_ylabel("binary cross-entropy")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
