"""Strength of the bot levels, measured in small steps that survive a deadline.

Runs several match-ups of ``unokit tournament`` at once, one game of each in
turn (so that all progress evenly), appending every finished game to a JSON
Lines file; a rerun resumes where it stopped. Game ``i`` of a match-up is
exactly game ``i`` of

    unokit tournament --variant V --players N --bots A,B --seed S --sims K

(seat rotation on duplicate deals; a budget by count, so the results do not
depend on the machine's load). The report gives each match-up's first bot's
win rate with its 95% Wilson interval.

Usage:
    python benchmarks/strength/strength.py --out FILE.jsonl [--until HH:MM] [--games G] [--shard K/N]
        [--sims K] [--seed S] [--only LABEL,...]
    python benchmarks/strength/strength.py --out FILE.jsonl --report [--json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from dataclasses import asdict
from pathlib import Path

from unokit.bots.tournament import GameResult, parse_bots, play_game, wilson
from unokit.engine.options import Options

#: label -> (variant, players, bots); the first bot is the one measured
MATCHUPS: dict[str, tuple[str, int, str]] = {
    "classic hard-heuristic": ("classic", 2, "hard,heuristic"),
    "flip hard-heuristic": ("flip", 2, "hard,heuristic"),
    "flex hard-heuristic": ("flex", 2, "hard,heuristic"),
    "classic expert-hard": ("classic", 2, "expert,hard"),
    "flip expert-hard": ("flip", 2, "expert,hard"),
    "flex expert-hard": ("flex", 2, "expert,hard"),
    "classic expert-rlcard": ("classic", 2, "expert,rlcard-rule"),
    # variants of the expert: leaves scored by the mean of the network and one
    # rollout; twice the samples (about hard's CPU time per decision at 1000)
    "classic expert:mix-hard": ("classic", 2, "expert:leaf=mix,hard"),
    "classic expert:2x-hard": ("classic", 2, "expert:sims=2000,hard"),
    "classic 4p expert-3heuristic": ("classic", 4, "expert,heuristic,heuristic,heuristic"),
    "classic 4p hard-3heuristic": ("classic", 4, "hard,heuristic,heuristic,heuristic"),
    # posterior deals: samples weighed against every earlier play (issue 16, session 2)
    "classic hard:particles=128-heuristic": ("classic", 2, "hard:particles=128,heuristic"),
    "flip hard:particles=128-heuristic": ("flip", 2, "hard:particles=128,heuristic"),
    "classic hard:particles=128-rlcard": ("classic", 2, "hard:particles=128,rlcard-rule"),
    "classic hard:particles=128-hard": ("classic", 2, "hard:particles=128,hard"),
    # a Markov chain posterior over the hidden hands (issue 16, session 3;
    # play_eps 0.03, 0.3 for plays rebuilt inexactly)
    "classic hard:mcmc-heuristic": ("classic", 2, "hard:mcmc=4,heuristic"),
    "flip hard:mcmc-heuristic": ("flip", 2, "hard:mcmc=4,heuristic"),
    "classic hard:mcmc-rlcard": ("classic", 2, "hard:mcmc=4,rlcard-rule"),
    "classic hard:mcmc-hard": ("classic", 2, "hard:mcmc=4,hard:mcmc=0"),
    # hard with the plain sampling, explicitly (the default)
    "classic hard:plain-heuristic": ("classic", 2, "hard:mcmc=0,heuristic"),
    # issue 16, session 6: the sensible rollouts and the samplers' shuffles in
    # C make a rollout about three times cheaper, so 100 ms of CPU buys more
    # samples: the counts that cost 100 ms per searched decision or less
    # (benchmarks/bots/search_cost.py, docs/bots.md)
    "classic hard:s3000-heuristic": ("classic", 2, "hard:sims=3000,heuristic"),
    "flip hard:s1300-heuristic": ("flip", 2, "hard:sims=1300,heuristic"),
    "flex hard:s4000-heuristic": ("flex", 2, "hard:sims=4000,heuristic"),
    # the same code at the earlier count (paired on the same deals)
    "classic hard:s1000-heuristic": ("classic", 2, "hard:sims=1000,heuristic"),
    # the chain posterior at the CPU time of plain hard's 3000 samples
    "classic hard:mcmc=4:s1400-heuristic": ("classic", 2, "hard:mcmc=4:sims=1400,heuristic"),
    # issue 16, session 8: the whole 100 ms the issue allows, as counts
    # (benchmarks/bots/search_cost.py on 2026-11-28: Classic 5000 samples 94 ms,
    # Flex 6000 samples 99 ms of CPU per searched decision)
    "classic hard:s5000-heuristic": ("classic", 2, "hard:sims=5000,heuristic"),
    "flex hard:s6000-heuristic": ("flex", 2, "hard:sims=6000,heuristic"),
    # the searching seat's own rollout moves by the weighted sensible policy
    # tuned against the sensible one (benchmarks/strength/tune_rollout.py; issue 16,
    # session 8), paired with "classic hard:s3000-heuristic"
    "classic hard:tuned:s3000-heuristic": ("classic", 2, "hard:own=tuned:sims=3000,heuristic"),
    # issue 25: hard's default since then, raced in C with at most 1000
    # rollouts per decision (written out, so the label keeps its meaning),
    # paired with the match-ups above on the same games
    "classic hard:race1000-heuristic": ("classic", 2, "hard:race=true:sims=1000,heuristic"),
    "flip hard:race1000-heuristic": ("flip", 2, "hard:race=true:sims=1000,heuristic"),
    "flex hard:race1000-heuristic": ("flex", 2, "hard:race=true:sims=1000,heuristic"),
    # Flex's default (2500: race1000 measured weaker than the 4000-6000 above)
    "flex hard:race2500-heuristic": ("flex", 2, "hard:race=true:sims=2500,heuristic"),
    # issue 25, session 15: the 2-player caps of the default raised (Classic and
    # Flip 2000, Flex 4000) once the move generation got cheaper; tested on
    # games 0-3999 against the references above (s3000, s1300, s6000)
    "classic hard:race2000-heuristic": ("classic", 2, "hard:race=true:sims=2000,heuristic"),
    "flip hard:race2000-heuristic": ("flip", 2, "hard:race=true:sims=2000,heuristic"),
    "flex hard:race4000-heuristic": ("flex", 2, "hard:race=true:sims=4000,heuristic"),
    "classic 4p hard:race1000-3heuristic": (
        "classic",
        4,
        "hard:race=true:sims=1000,heuristic,heuristic,heuristic",
    ),
    "classic 4p hard:s3000-3heuristic": (
        "classic",
        4,
        "hard:sims=3000,heuristic,heuristic,heuristic",
    ),
}


def _load(path: Path) -> dict[str, list[dict[str, object]]]:
    done: dict[str, list[dict[str, object]]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done.setdefault(row["matchup"], []).append(row)
    return done


def _first_bot_score(rows: list[dict[str, object]]) -> tuple[float, int]:
    """Wins (co-wins shared) and seat-games of the first bot: the seats that
    hold entry 0 in each line-up."""
    wins = 0.0
    games = 0
    for r in rows:
        lineup = r["lineup"]
        winners = r["winners"]
        assert isinstance(lineup, list) and isinstance(winners, list)
        for s, b in enumerate(lineup):
            if b == 0:
                games += 1
                if s in winners:
                    wins += 1.0 / len(winners)
    return wins, games


def report(path: Path, as_json: bool) -> None:
    done = _load(path)
    out = {}
    for label, rows in done.items():
        variant, players, bots = MATCHUPS[label]
        wins, games = _first_bot_score(rows)
        lo, hi = wilson(wins, games)
        sims = rows[0]["sims"]
        out[label] = {
            "games": len(rows),
            "seat_games": games,
            "win_rate": wins / games,
            "ci95": [lo, hi],
            "sims": sims,
            "seed": rows[0]["seed"],
            "command": f"unokit tournament --variant {variant} --players {players} "
            f"--bots {bots} --games {len(rows)} --seed {rows[0]['seed']} "
            f"--sims {sims} --workers 1",
        }
    if as_json:
        print(json.dumps(out, indent=1))
        return
    for label, r in out.items():
        lo, hi = r["ci95"]
        print(
            f"{label:32s} {r['games']:5d} games  {r['win_rate']:6.1%}  95% CI {lo:6.1%} - {hi:6.1%}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--until", help="stop starting games at this UTC time (HH:MM)")
    ap.add_argument("--games", type=int, default=500, help="games per match-up")
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", help="comma-separated match-up labels")
    ap.add_argument(
        "--shard",
        default="0/1",
        help="K/N: play only games i with i %% N == K (run N processes, one per "
        "shard, each with its own --out; concatenate the files to report)",
    )
    args = ap.parse_args()
    if args.report:
        report(args.out, args.json)
        return
    labels = list(MATCHUPS) if not args.only else [x.strip() for x in args.only.split(",")]
    unknown = [x for x in labels if x not in MATCHUPS]
    if unknown:
        sys.exit(f"unknown match-ups {unknown}; known: {list(MATCHUPS)}")
    end = None
    if args.until:
        hh, mm = (int(x) for x in args.until.split(":"))
        now = dt.datetime.now(dt.UTC)
        end = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
    try:
        shard, shards = (int(x) for x in args.shard.split("/"))
        if not 0 <= shard < shards:
            raise ValueError
    except ValueError:
        sys.exit(f"--shard wants K/N with 0 <= K < N, got {args.shard!r}")
    done = _load(args.out)
    specs = {lb: parse_bots(MATCHUPS[lb][2], sims=args.sims) for lb in labels}
    options = Options.from_dict({"matchMode": "single_round"})
    with args.out.open("a") as fh:
        for i in range(shard, args.games, shards):
            for lb in labels:
                if end is not None and dt.datetime.now(dt.UTC) >= end:
                    return
                have = {int(str(r["index"])) for r in done.get(lb, [])}
                if i in have:
                    continue
                variant, players, _ = MATCHUPS[lb]
                r: GameResult = play_game(variant, players, options, specs[lb], args.seed, i)
                # the measured bot's own count when the match-up sets one
                sims = dict(specs[lb][0].options).get("sims", args.sims)
                row = {"matchup": lb, "sims": sims, "seed": args.seed, **asdict(r)}
                fh.write(json.dumps(row) + "\n")
                fh.flush()


if __name__ == "__main__":
    main()
