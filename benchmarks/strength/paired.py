"""Two match-ups of benchmarks/strength/strength.py compared game by game (the same
deals, line-ups and bot seeds): each first bot's win rate with its 95% Wilson
interval, the paired difference with a 95% interval (over games, and over
deals, whose two seatings are not independent), and the games won by only
one of them.

Usage:
    python benchmarks/strength/paired.py FILE.jsonl "LABEL A" "LABEL B" [--base FILE2.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
from math import comb
from pathlib import Path
from typing import Any

from unokit.bots.tournament import wilson


def _load(path: Path, label: str) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            if r["matchup"] == label:
                out[int(r["index"])] = r
    return out


def _won(r: dict[str, Any]) -> float:
    seat = r["lineup"].index(0)
    return 1.0 / len(r["winners"]) if seat in r["winners"] else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--base", type=Path, help="read label B from this file")
    args = ap.parse_args()
    ra = _load(args.file, args.a)
    rb = _load(args.base or args.file, args.b)
    idx = sorted(set(ra) & set(rb))
    for i in idx:
        if (ra[i]["deal"], ra[i]["lineup"]) != (rb[i]["deal"], rb[i]["lineup"]):
            raise SystemExit(f"game {i}: not the same deal and line-up")
    n = len(idx)
    a = [_won(ra[i]) for i in idx]
    b = [_won(rb[i]) for i in idx]
    for label, x in ((args.a, a), (args.b, b)):
        lo, hi = wilson(sum(x), n)
        print(f"{label}: {n} games, {sum(x) / n:.1%} (95% {lo:.1%} - {hi:.1%})")
    d = [x - y for x, y in zip(a, b, strict=True)]
    md = sum(d) / n
    sd = math.sqrt(sum((x - md) ** 2 for x in d) / (n - 1))
    deals: dict[int, list[float]] = {}
    for i, x in zip(idx, d, strict=True):
        deals.setdefault(int(ra[i]["deal"]), []).append(x)
    dd = [sum(v) / len(v) for v in deals.values()]
    mdd = sum(dd) / len(dd)
    sdd = math.sqrt(sum((x - mdd) ** 2 for x in dd) / (len(dd) - 1))
    print(
        f"paired difference {100 * md:+.1f} points, 95% +- {196 * sd / math.sqrt(n):.1f} "
        f"(games), +- {196 * sdd / math.sqrt(len(dd)):.1f} (over {len(dd)} deals)"
    )
    only_a = sum(x > y for x, y in zip(a, b, strict=True))
    only_b = sum(y > x for x, y in zip(a, b, strict=True))
    m = only_a + only_b
    p = min(1.0, 2 * sum(comb(m, j) for j in range(min(only_a, only_b) + 1)) / 2**m) if m else 1.0
    print(f"won only by A {only_a}, only by B {only_b} (two-sided sign test p = {p:.2f})")


if __name__ == "__main__":
    main()
