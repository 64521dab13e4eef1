"""The batched environment against the OpenSpiel adapter: random games per CPU second, in the same run.

``python benchmarks/run.py openspiel_batched [--quick] [--games=a,b]`` (needs ``memory-solver[openspiel]``). Per
game (every game, or those ``--games`` names, each a spec: ``aetherya(players=4,mode=objects)``; the commas inside
its parentheses do not split) at its default parameters:

- the adapter: seeded random games through ``pyspiel`` (``sos.deal``, then uniformly random legal actions and
  chance outcomes by their probabilities), as in ``benchmarks/bench_openspiel.py``;
- the batched environment (``solver/openspiel/batched.py``) with ``n`` slots: uniformly random legal actions
  chosen from its legal mask (``random_actions``), finished games dealt again; games per CPU second counts the
  games finished;
- the batched environment's observation tensors of every slot (``observations()``), per CPU second;
- whether the game runs on vectorised rules or on the state rules (our states one by one).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import openspiel_adapter, table  # noqa: E402

from solver.registry import game_names  # noqa: E402
from solver.testing import random_action  # noqa: E402


def adapter_games(sos, name: str, seconds: float) -> tuple[float, float]:
    """(games, decisions) per CPU second of random play through the adapter."""
    game = sos.load_game(name)
    rng = np.random.default_rng(1)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = sos.deal(game, games)
        while not state.is_terminal():
            decisions += not state.is_chance_node()
            state.apply_action(random_action(state, rng))
        games += 1
    spent = time.process_time() - start
    return games / spent, decisions / spent


def batched_games(name: str, n: int, seconds: float) -> tuple[float, float, float, bool]:
    """(games, decisions, observations) per CPU second of the batched environment, and whether vectorised."""
    from solver.openspiel.batched import BatchedEnv
    env = BatchedEnv(name, n=n, seed=1)
    rng = np.random.default_rng(2)
    for _ in range(3):     # warm up: the first deals and the caches
        env.step(env.random_actions(rng))
    finished, steps = env.games_finished, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.step(env.random_actions(rng))
        steps += 1
    spent = time.process_time() - start
    games = (env.games_finished - finished) / spent
    start = time.process_time()
    calls = 0
    while time.process_time() - start < seconds / 4 or calls < 2:
        env.observations()
        calls += 1
    observed = calls * n / (time.process_time() - start)
    return games, steps * n / spent, observed, env.vectorised


def main(argv: list[str]) -> int:
    sos = openspiel_adapter()
    if sos is None:
        return 0
    quick = "--quick" in argv
    seconds = 2.0 if quick else 10.0
    chosen = [re.split(r",(?![^(]*\))", a.split("=", 1)[1]) for a in argv if a.startswith("--games=")]
    rows = []
    for name in chosen[-1] if chosen else game_names():
        fast = sos.load_game(name).context.facts.batch_rules(sos.load_game(name).context.game, 1, True) is not None
        n = 1024 if fast else 32
        a_games, a_decisions = adapter_games(sos, name, seconds)
        b_games, b_decisions, observed, vectorised = batched_games(name, n, seconds)
        rows.append([name, "vectorised" if vectorised else "state rules", n, f"{a_games:,.0f}", f"{b_games:,.0f}",
                     f"{b_games / a_games:.1f}", f"{a_decisions:,.0f}", f"{b_decisions:,.0f}", f"{observed:,.0f}"])
    print(f"Random play, CPU time, {seconds:g} s per measurement.\n")
    print(table(["game", "rules", "slots", "adapter games/s", "batched games/s", "ratio", "adapter decisions/s",
                 "batched decisions/s", "batched observations/s"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
