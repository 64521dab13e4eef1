"""The service layer's remembered positions: a query that extends an earlier one by a move, against a replay.

``python benchmarks/bench_service.py [--moves N] [--quick]``: for every game, a seeded random game of up to N
moves; the web board sends its start and every move so far with each query. In the same run: the position
after all the moves read from the start (a fresh ``solver.service.Positions``, what every query cost before),
and the same position when the query before it (one move fewer) is remembered. CPU time, median of the runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from common import machine, table
from solver.registry import game_names, load_game
from solver.service import Positions


def random_game(name: str, moves: int, seed: int = 3) -> tuple[object, dict, list[str]]:
    """A dealt game and up to ``moves`` random moves (chance outcomes drawn by their probabilities)."""
    game = load_game(name)
    state = game.new_game(seed)
    start = state.to_json()
    rng = np.random.default_rng(seed)
    played = []
    while len(played) < moves and not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance_outcome(rng)
        else:
            action = int(rng.choice(state.legal_actions()))
        played.append(state.action_to_string(action))
        state.apply_action(action)
    return game, start, played


def cpu_ms(call, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        call()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else args.runs
    rows = []
    for name in game_names():
        game, start, moves = random_game(name, args.moves)

        def replay() -> None:
            Positions().after(game, start, moves)

        remembered = Positions()
        remembered.after(game, start, moves[:-1])
        cold, warm = cpu_ms(replay, runs), cpu_ms(lambda: remembered.after(game, start, moves), runs)
        rows.append([name, len(moves), round(cold, 3), round(warm, 3), f"{cold / warm:.1f}x"])
    print(f"Machine: {machine()}; {runs} runs each, CPU time\n")
    print(table(["game", "moves", "replayed from the start (ms)", "one move after a remembered query (ms)",
                 "ratio"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
