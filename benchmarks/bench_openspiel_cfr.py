"""OpenSpiel's exact algorithms on tiny roots: CFR's exploitability against exact values.

``python benchmarks/run.py openspiel_cfr [--quick]`` (needs ``memory-solver[openspiel]``). Draws
``docs/plots/openspiel-cfr.svg``. Two tiny settings:

1. Forgotten on a 3x3 board with 2 pairs, the Brains in opposite corners, no Erasure, two turns
   (``max_moves=4``), every deal as one chance node (``deal=all``): 156 deals, 32,329 states. Both
   players see everything (FG-13), so the team's best is an expectimax over public states
   (``solver.openspiel.exact.team_value``); that expectimax is itself checked against our exact solver
   (``forgotten solve``) on start views of the uncapped 3x3 game.
2. Master Memorinth for two (constant-sum) on the deal of seed 1 (``deal=fixed``), two decisions each
   (``max_moves=4``): 7,726 states. With the deal fixed and every move public, each history is its own
   information state, so the game's value is plain minimax over the tree.

Per setting: CFR (OpenSpiel's ``CFRSolver``, Python; on Forgotten CFR+ too) iterations, NashConv of the average
policy (the sum of what each player gains by a best response; exploitability is half of it in a two-player
constant-sum game), the expected return of the average and the current policy against the exact value, and CPU
time.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import openspiel_adapter, table  # noqa: E402
from openspiel_charts import curves, write  # noqa: E402

FORGOTTEN = "forgotten(width=3,height=3,pairs=2,brains=11-33,erasure=off,max_moves=4,deal=all)"
MEMORINTH = "memorinth(variant=master,deal=fixed,deal_seed=1,max_moves=4)"
CHECKS = "forgotten(width=3,height=3,pairs=2,erasure=turn)"


def forgotten_key(state) -> str:
    """Forgotten's observation without the turn count (``erasure=turn``: every turn has the same rules)."""
    seen = json.loads(state.observation_string(0))
    seen.pop("turn", None)
    return json.dumps(seen, sort_keys=True)


def check_team_value(sos, team_value, views: int) -> list[list]:
    """``team_value`` on every world of a start view against ``forgotten solve`` of that view."""
    import solver.api
    from solver.registry import load_game
    ours, game = load_game(CHECKS), sos.load_game(CHECKS)
    rows, seed = [], 0
    while len(rows) < views:
        state = ours.new_initial_state(seed)
        seed += 1
        if state.is_terminal():
            continue
        hidden = state.hidden_cells()
        worlds = {}
        for order in set(itertools.permutations(sorted(state.tiles[c] for c in hidden))):
            world = state.clone()
            for c, v in zip(hidden, order):
                world.tiles[c] = v
            if world.alive():   # the game goes on: a world where it is lost is not this view's
                worlds[tuple(world.tiles)] = world
        start = time.process_time()
        value = team_value(game, key=forgotten_key, root=[(sos.wrap_state(game, w), 1.0) for w in worlds.values()])
        seconds = time.process_time() - start
        view = state.view(0)
        exact = solver.api.solve(CHECKS, view.to_json()).value
        rows.append([view.to_notation(), len(worlds), f"{value:.12f}", f"{exact:.12f}", f"{abs(value - exact):.1e}",
                     f"{seconds:.1f}"])
    return rows


def minimax(state, player: int = 0) -> float:
    """The value of a two-player constant-sum game whose histories are its information states."""
    if state.is_terminal():
        return state.returns()[player]
    if state.is_chance_node():
        return sum(p * minimax(state.child(a), player) for a, p in state.chance_outcomes())
    values = [minimax(state.child(a), player) for a in state.legal_actions()]
    return max(values) if state.current_player() == player else min(values)


def run_cfr(sos, spec: str, iterations: list[int], exact: float, plus: bool = False
            ) -> tuple[list[list], list[tuple[float, float]]]:
    """CFR (or CFR+) iterations on ``spec``: NashConv and value of the average policy, value of the current one."""
    from open_spiel.python.algorithms import cfr, exploitability, expected_game_score
    game = sos.load_game(spec)
    solver = (cfr.CFRPlusSolver if plus else cfr.CFRSolver)(game)
    rows, curve, done, spent = [], [], 0, 0.0
    players = game.num_players()
    for target in iterations:
        start = time.process_time()
        while done < target:
            solver.evaluate_and_update_policy()
            done += 1
        spent += time.process_time() - start
        average, current = solver.average_policy(), solver.current_policy()
        conv = exploitability.nash_conv(game, average)
        value = expected_game_score.policy_value(game.new_initial_state(), [average] * players)[0]
        now = expected_game_score.policy_value(game.new_initial_state(), [current] * players)[0]
        rows.append([target, f"{conv:.6f}", f"{value:.6f}", f"{now:.6f}", f"{exact:.6f}", f"{spent:.1f}"])
        curve.append((target, conv))
    return rows, curve


def main(argv: list[str]) -> int:
    sos = openspiel_adapter()
    if sos is None:
        return 0
    from solver.openspiel.exact import team_value
    from open_spiel.python.algorithms import get_all_states
    quick = "--quick" in argv
    iterations = [1, 2, 4, 8, 16] if quick else [1, 2, 4, 8, 16, 32, 64, 128]
    print("### Team value through OpenSpiel against `forgotten solve` (start views, 3x3, 2 pairs, erasure=turn)\n")
    print(table(["view", "worlds", "team_value", "forgotten solve", "difference", "CPU s"],
                check_team_value(sos, team_value, 1 if quick else 3)))
    curves_out = {}
    for label, spec in (("Forgotten", FORGOTTEN), ("Memorinth", MEMORINTH)):
        game = sos.load_game(spec)
        states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                               include_chance_states=True)
        start = time.process_time()
        exact = team_value(game, key=lambda s: s.observation_string(0)) if label == "Forgotten" \
            else minimax(game.new_initial_state())
        exact_seconds = time.process_time() - start
        print(f"\n### CFR on {label}: `{spec}`\n")
        print(f"{len(states):,} states; exact value {exact:.6f} "
              f"({'team expectimax' if label == 'Forgotten' else 'minimax'}, {exact_seconds:.1f} s CPU)\n")
        for plus in (False, True) if label == "Forgotten" else (False,):
            rows, curve = run_cfr(sos, spec, iterations[:-1] if plus else iterations, exact, plus)
            print(f"{'CFR+' if plus else 'CFR'}:\n")
            print(table(["iterations", "NashConv (average policy)", "average policy value", "current policy value",
                         "exact value", "CPU s"], rows))
            print()
            curves_out[f"{label}, {'CFR+' if plus else 'CFR'}"] = curve
    path = write("openspiel-cfr", curves("CFR on tiny roots: NashConv of the average policy", curves_out,
                                         "CFR iterations", "NashConv", log_x=True, log_y=True,
                                         note="Forgotten 3x3, 2 pairs, two turns, deal=all; Master Memorinth for "
                                              "two, deal of seed 1, four decisions"))
    print(f"\nPlot: {path.relative_to(Path(__file__).resolve().parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
