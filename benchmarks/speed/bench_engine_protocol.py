"""Engine protocol benchmark: the cost of a decision made by an external
program over stdin/stdout, against the same kind of decision made in process.

Usage: python benchmarks/speed/bench_engine_protocol.py [--rounds N] [--repeats R] [--json]

Compiles examples/engine/firstplay.c with gcc, then plays 2-player Classic
rounds ``heuristic`` against the engine, and ``heuristic`` against
``heuristic`` (the anchor), interleaved, one process start per round as in a
tournament. Reports decisions per second of each pairing, the median of the
repeats, and the engine's wall time per decision (including its start), with
the ratio to the anchor. Bounded: N rounds per sample (default 100).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from unokit.bots.tournament import BotSpec, engine_specs, play_game
from unokit.engine.options import Options

ROOT = Path(__file__).resolve().parents[2]


def sample(specs: list[BotSpec], rounds: int, seed: int) -> float:
    """Decisions per second over ``rounds`` tournament games of ``specs``."""
    opts = Options.from_dict({"matchMode": "single_round"})
    decisions = 0
    start = time.perf_counter()
    for i in range(rounds):
        r = play_game("classic", 2, opts, specs, seed, i)
        assert r.forfeit < 0, r.forfeit_reason
        decisions += sum(r.decisions)
    return decisions / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.rounds < 1 or args.repeats < 1:
        ap.error("--rounds and --repeats must be at least 1")
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise SystemExit("this benchmark compiles the reference engine: install gcc")
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "firstplay"
        subprocess.run([gcc, "-O2", "-o", str(exe), str(ROOT / "examples/engine/firstplay.c")],
                       check=True)  # fmt: skip
        heuristic = BotSpec("heuristic", "heuristic")
        engine = [heuristic, *engine_specs([str(exe)], 5000)]
        anchor = [heuristic, BotSpec("heuristic#2", "heuristic")]
        eng, anc = [], []
        for k in range(args.repeats):
            eng.append(sample(engine, args.rounds, k))
            anc.append(sample(anchor, args.rounds, k))
    e, a = statistics.median(eng), statistics.median(anc)
    out = {"rounds_per_sample": args.rounds, "repeats": args.repeats,
           "engine_pairing_decisions_per_s": round(e), "anchor_decisions_per_s": round(a),
           "ratio": round(e / a, 3)}  # fmt: skip
    if args.json:
        print(json.dumps(out))
        return
    print(f"heuristic vs engine (firstplay over the protocol): {e:,.0f} decisions/s")
    print(f"heuristic vs heuristic (in process, anchor):       {a:,.0f} decisions/s")
    print(f"ratio {e / a:.3f} (one engine process per round, as in tournaments)")


if __name__ == "__main__":
    main()
