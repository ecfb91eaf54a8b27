"""A PNG chart of a tournament (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from unokit.bots.tournament import TournamentResult

__all__ = ["plot_tournament"]


def plot_tournament(result: TournamentResult, path: str | Path) -> None:
    """Win rate and Elo of each bot, each with its 95% interval, side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = sorted(result.bots.values(), key=lambda b: -b.elo)
    labels = [b.label for b in bots]
    rates = [100 * b.win_rate for b in bots]
    lows = [100 * (b.win_rate - b.ci95[0]) for b in bots]
    highs = [100 * (b.ci95[1] - b.win_rate) for b in bots]
    elos = [b.elo for b in bots]
    colors = ["#d7263d", "#1b998b", "#2e86ab", "#f46036", "#7768ae", "#c5d86d"]
    bar_colors = [colors[i % len(colors)] for i in range(len(bots))]

    width = max(7.0, 1.4 * len(bots) + 4)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(width, 4.2), dpi=110)
    x = list(range(len(bots)))
    ax1.bar(x, rates, yerr=[lows, highs], capsize=6, color=bar_colors)
    ax1.axhline(
        100 / result.players,
        color="#555",
        linestyle="--",
        linewidth=1,
        label=f"even share ({100 / result.players:.0f}%)",
    )
    ax1.set_xticks(
        x, labels, rotation=20 if len(bots) > 3 else 0, ha="right" if len(bots) > 3 else "center"
    )
    ax1.set_ylabel("win rate (%), 95% interval")
    ax1.set_ylim(0, min(100, max(r + h for r, h in zip(rates, highs, strict=True)) + 12))
    for xi, r in zip(x, rates, strict=True):
        ax1.annotate(f"{r:.1f}%", (xi, r), textcoords="offset points", xytext=(14, 3), fontsize=9)
    ax1.legend(loc="upper right", fontsize=8)
    ax1.set_title("Win rate")

    elo_lows = [b.elo - b.elo_ci95[0] for b in bots]
    elo_highs = [b.elo_ci95[1] - b.elo for b in bots]
    ax2.bar(x, elos, yerr=[elo_lows, elo_highs], capsize=6, color=bar_colors)
    ax2.set_xticks(
        x, labels, rotation=20 if len(bots) > 3 else 0, ha="right" if len(bots) > 3 else "center"
    )
    lo = min(e - d for e, d in zip(elos, elo_lows, strict=True)) - 60
    ax2.set_ylim(lo, max(e + d for e, d in zip(elos, elo_highs, strict=True)) + 60)
    ax2.set_ylabel("Elo (mean 1500), 95% interval")
    for xi, e in zip(x, elos, strict=True):
        ax2.annotate(f"{e:.0f}", (xi, e), textcoords="offset points", xytext=(16, 3), fontsize=9)
    ax2.set_title("Elo (Bradley-Terry fit, bootstrap over deals)")

    unit = "matches" if result.match else "rounds"
    fig.suptitle(
        f"UNO {result.variant}, {result.players} players, {result.games} {unit}, "
        f"seed {result.seed}",
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
