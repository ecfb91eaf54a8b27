"""Plot win rate against training wall time from the recipes' results.json files.

    python examples/plot_rl_results.py artifacts/sb3_classic artifacts/cleanrl_classic ... \
        --png docs/img/rl_win_rate.png --json docs/rl_results.json

Each directory holds the ``results.json`` of one recipe run (``curve``: the
checkpoints and the final model, each evaluated against ``random`` and
``heuristic``; runs without checkpoints give one point). Error bars are the
95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="*", type=Path)
    p.add_argument(
        "--keep",
        type=Path,
        default=None,
        help="a summary written earlier (--json): its runs are plotted too, "
        "except those replaced by a run of the same name",
    )
    p.add_argument(
        "--drop",
        action="append",
        default=[],
        help="the name of a kept run to leave out (repeatable)",
    )
    p.add_argument("--png", type=Path, default=Path("docs/img/rl_win_rate.png"))
    p.add_argument("--json", type=Path, default=None, help="also write the runs' summary here")
    args = p.parse_args(argv)
    runs: list[dict] = []
    for d in args.runs:
        r = json.loads((d / "results.json").read_text())
        curve = r.get("curve") or [r["final"]]
        runs.append({"name": f"{r['library']} - {r['variant']}", "library": r["library"],
                     "variant": r["variant"], "args": r["args"], "curve": curve})  # fmt: skip
    if args.keep is not None:
        new = {r["name"] for r in runs}
        drop = new | set(args.drop)
        runs = [r for r in json.loads(args.keep.read_text()) if r["name"] not in drop] + runs
    if not runs:
        p.error("no runs to plot")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    for ax, opponent, target in zip(axes, ("random", "heuristic"), (0.65, 0.45), strict=True):
        for k, run in enumerate(runs):
            xs = [c["seconds"] / 60 for c in run["curve"]]
            ys = [c[opponent]["rate"] for c in run["curve"]]
            lo = [c[opponent]["rate"] - c[opponent]["low"] for c in run["curve"]]
            hi = [c[opponent]["high"] - c[opponent]["rate"] for c in run["curve"]]
            ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=run["name"],
                        color=plt.cm.tab20(k % 20))  # fmt: skip
        ax.axhline(target, color="grey", linestyle="--", linewidth=1)
        ax.text(0.99, target - 0.04, f"target {target:.0%}", color="grey", ha="right",
                transform=ax.get_yaxis_transform())  # fmt: skip
        if opponent == "random":
            ax.axhline(0.678, color="black", linestyle=":", linewidth=1)
            ax.text(0.01, 0.695, "heuristic bot vs random: 67.8%", color="black",
                    transform=ax.get_yaxis_transform())  # fmt: skip
            ax.axhline(0.5, color="black", linestyle=":", linewidth=1)
            ax.text(0.01, 0.465, "random vs random: 50%", color="black",
                    transform=ax.get_yaxis_transform())  # fmt: skip
        ax.set_title(f"2-player win rate vs {opponent} (greedy policy)")
        ax.set_xlabel("training wall time (minutes, shared 2-core machine)")
        ax.set_ylim(0, 0.8)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (95% CI)")
    axes[1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    args.png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.png, dpi=90)
    print(f"wrote {args.png}")
    if args.json is not None:
        args.json.write_text(json.dumps(runs, indent=1) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
