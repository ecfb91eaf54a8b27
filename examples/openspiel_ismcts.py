"""OpenSpiel's ISMCTS against unokit's `heuristic` bot, on the OpenSpiel UNO games.

    pip install 'unokit[openspiel]'
    python examples/openspiel_ismcts.py --variant flip --rounds 20 --simulations 100

Each deal is played twice, the two bots swapping seats. ISMCTS sees only its
information state; its leaves are evaluated with unokit's fast random
playouts (`PlayoutEvaluator`); the heuristic acts on its own observation
(`bot_action`).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from unokit.bots import make_bot
from unokit.envs import openspiel as uno_spiel  # registers python_uno_classic/flip/flex


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=["classic", "flip", "flex"], default="classic")
    ap.add_argument("--rounds", type=int, default=10, help="rounds (an even number: both seatings)")
    ap.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per move")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.rounds < 2 or args.simulations < 1:
        ap.error("--rounds must be at least 2 and --simulations at least 1")

    game = pyspiel.load_game(uno_spiel.GAMES[args.variant], {"players": 2})
    searcher = ismcts.ISMCTSBot(
        game=game,
        evaluator=uno_spiel.PlayoutEvaluator(n_rollouts=2, seed=args.seed),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=np.random.RandomState(args.seed),
    )
    heuristic = make_bot("heuristic", seed=args.seed)
    wins, start = 0, time.perf_counter()
    for r in range(args.rounds):
        seat = r % 2  # ISMCTS's seat
        state = game.new_initial_state(seed=args.seed + r // 2)
        while not state.is_terminal():
            if state.current_player() == seat:
                action = searcher.step(state)
            else:
                action = uno_spiel.bot_action(state, heuristic)
            state.apply_action(action)
        won = state.returns()[seat] > 0
        wins += won
        print(f"round {r + 1}: ISMCTS (P{seat}) {'won' if won else 'lost'}")
    print(
        f"ISMCTS won {wins} of {args.rounds} rounds against heuristic "
        f"({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
