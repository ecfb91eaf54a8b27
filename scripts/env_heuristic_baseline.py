"""What issue 28's 65% means: a few-line heuristic on the env's own observation.

The policy reads only the default observation and mask of
``unokit/UnoClassic-v0`` (2 players, opponent ``random``): it calls UNO and
catches whenever it may; otherwise it plays a card if it can, preferring
action cards (Skip, Reverse, Draw Two), then number cards of the colour it
holds most (``hand_colors``), wilds last (naming the colour it holds most);
with no play it draws, then passes; it accepts a Wild Draw Four unless
``--challenge`` (then it always challenges). ``--random-play`` plays a uniformly random
legal card instead (what the ``random`` opponent does). ``--bot NAME`` plays
one of unokit's bots (``heuristic``, ``hard``...) in seat 0 of the same
environment instead (:func:`unokit.envs.evaluate.evaluate_bot`: the bot reads
its own observation, history included, and its moves go through the env's
actions). Evaluated as
``scripts/train_env_defaults.py`` evaluates PPO: ``--games`` rounds as seat 0
against ``random``, seeds 10,000.., one JSON line with the 95% Wilson interval.

    python scripts/env_heuristic_baseline.py --games 400
    python scripts/env_heuristic_baseline.py --games 400 --challenge
    python scripts/env_heuristic_baseline.py --games 400 --bot heuristic
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from unokit.engine.cards import Kind
from unokit.engine.variants import get_variant
from unokit.envs.evaluate import evaluate, evaluate_bot
from unokit.envs.gym import UnoGymEnv

_ACTIONS = {Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=10_000)
    ap.add_argument("--random-play", action="store_true")
    ap.add_argument("--challenge", action="store_true", help="always challenge a Wild Draw Four")
    ap.add_argument("--bot", help="play this unokit bot in seat 0 instead")
    args = ap.parse_args()
    if args.bot:
        rate = evaluate_bot(args.bot, "classic", "random", games=args.games, seed=args.seed)
        print(json.dumps({"policy": f"bot {args.bot}", **rate.as_dict()}))
        return
    env = UnoGymEnv("classic", 2, opponent="random")
    table, lay = env.table, env.layout
    assert lay is not None
    cards = get_variant("classic").cards.cards
    faces = [cards[(table.codes[a] >> 4) & 0xFFF].face(0) for a in range(table.num_plays)]
    chosen = [((table.codes[a] >> 16) & 15) - 1 for a in range(table.num_plays)]
    calls = [table.index_of("UNO")] + [i for i, n in enumerate(table.names) if "CATCH" in n]
    draw, colours = table.index_of("DRAW"), lay.slice("hand_colors")
    challenge = table.index_of("CHALLENGE")
    rng = np.random.default_rng(0)

    def score(a: int, held: np.ndarray) -> float:
        f = faces[a]
        if f.is_wild:  # last; the colour held most
            return held[chosen[a] % 4] * 0.01
        return (2.0 if f.kind in _ACTIONS else 1.0) + held[int(f.color) % 4]

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        for a in calls:
            if mask[a]:
                return a
        plays = np.flatnonzero(mask[: table.num_plays])
        if plays.size:
            if args.random_play:
                return int(rng.choice(plays))
            held = obs[colours]
            return int(max(plays, key=lambda a: score(int(a), held)))
        if args.challenge and mask[challenge]:
            return challenge
        if mask[draw]:
            return draw
        return int(np.flatnonzero(mask)[0])  # PASS after a draw

    rate = evaluate(policy, "classic", "random", games=args.games, seed=args.seed)
    name = "random legal play" if args.random_play else "heuristic"
    if args.challenge:
        name += ", always challenges"
    print(json.dumps({"policy": name, "obs_layout": env.obs_layout, **rate.as_dict()}))


if __name__ == "__main__":
    main()
