"""The OpenSpiel adapter (``solver.openspiel``): how fast OpenSpiel's algorithms can drive our games.

``python benchmarks/run.py openspiel`` (add ``--quick`` for a small run). Needs the optional extra
``memory-solver[openspiel]``; without it the benchmark says so and stops. Sections:

1. random games per second on the same seeded deals: our state contract driven directly, against the
   OpenSpiel state (``pyspiel`` calls through the Python-game trampoline); decisions per game, and how
   many games reached the adapter's ``max_moves`` cap (should be none);
2. OpenSpiel's IS-MCTS (Python, random rollouts, our resampler): simulations per second at the first
   decision of seeded deals, the figure that sets how many simulations a time budget buys.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import openspiel_adapter, table  # noqa: E402

from solver.registry import game_names, load_game  # noqa: E402
from solver.testing import random_action  # noqa: E402

SPECS = {name: name for name in game_names()}


def section(title: str, command: str) -> None:
    print(f"\n### {title}\n\nCommand: `{command}`\n")


def play_ours(game, seed: int, rng: np.random.Generator) -> int:
    """One random game on our contract from deal ``seed``; returns the number of decisions."""
    state = game.new_initial_state(seed)
    decisions = 0
    while not state.is_terminal():
        decisions += not state.is_chance_node()
        state.apply_action(random_action(state, rng))
    return decisions


def play_openspiel(sos, game, seed: int, rng: np.random.Generator) -> tuple[int, bool]:
    """One random game through OpenSpiel from the same deal; returns (decisions, stopped by the cap)."""
    state = sos.deal(game, seed)
    decisions = 0
    while not state.is_terminal():
        decisions += not state.is_chance_node()
        state.apply_action(random_action(state, rng))
    return decisions, not state.position.inner.is_terminal()


def bench_random_games(sos, quick: bool) -> None:
    section("Random games per second, same deals (default parameters)",
            "python benchmarks/run.py openspiel" + (" --quick" if quick else ""))
    n = 30 if quick else 200
    rows = []
    for name, spec in SPECS.items():
        ours, game = load_game(spec), sos.load_game(spec)
        start = time.process_time()
        lengths = [play_ours(ours, seed, np.random.default_rng(seed)) for seed in range(n)]
        ours_s = time.process_time() - start
        start = time.process_time()
        runs = [play_openspiel(sos, game, seed, np.random.default_rng(seed)) for seed in range(n)]
        os_s = time.process_time() - start
        capped = sum(1 for _, stopped in runs if stopped)
        os_lengths = [d for d, _ in runs]
        rows.append([name, n, n / ours_s, n / os_s, os_s / ours_s, sum(lengths) / n, sum(os_lengths) / n,
                     max(os_lengths), game.max_game_length(), capped])
    print(table(["game", "games", "ours games/s", "OpenSpiel games/s", "slowdown", "decisions/game (ours)",
                 "decisions/game (OpenSpiel)", "max decisions", "max_moves", "capped"], rows))
    print("\nGames per CPU second (the machine is shared, so wall time would mostly measure the neighbours). "
          "Both play the same deals with the same random generator; where OpenSpiel's ids are our ids (all "
          "but Embers) the games are move for move the same.")


def first_choice(sos, game, seed: int):
    """The first state of deal ``seed`` where the player to move has two or more legal moves (random play)."""
    rng = np.random.default_rng(seed)
    state = sos.deal(game, seed)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_terminal():
            raise RuntimeError(f"deal {seed} of {game} ended before any real choice")
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def bench_ismcts(sos, quick: bool) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    section("OpenSpiel IS-MCTS (Python, one random rollout per simulation, our resampler)",
            "python benchmarks/run.py openspiel" + (" --quick" if quick else ""))
    sims = 50 if quick else 200
    deals = 2 if quick else 5
    rows = []
    for name, spec in SPECS.items():
        game = sos.load_game(spec)
        seconds = 0.0
        for seed in range(deals):
            rs = np.random.RandomState(seed)
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=sims,
                                   random_state=rs)
            bot.set_resampler(sos.resampler(seed))
            state = first_choice(sos, game, seed)
            start = time.process_time()
            bot.step(state)
            seconds += time.process_time() - start
        rows.append([name, deals, sims, deals * sims / seconds, 1000 * seconds / deals])
    print(table(["game", "deals", "simulations/decision", "simulations/CPU s", "CPU ms/decision"], rows))
    print("\nEach search starts at the first decision with two or more legal moves of a seeded deal (random moves "
          "before it).")


def main(argv: list[str]) -> int:
    sos = openspiel_adapter()
    if sos is None:
        return 0
    quick = "--quick" in argv
    bench_random_games(sos, quick)
    bench_ismcts(sos, quick)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
