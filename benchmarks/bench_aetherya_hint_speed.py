"""Aetherya hint at the table: playouts in the same time, and what they buy (issue 24).

One evaluation of the hint = one sampled world x one candidate plan: the plan is
played on a copy of the world, the rest of the turn is finished, and the game is
played out to the end by the compiled kernel. The baseline is the evaluation as
it was before issue 24, run in the same process on the same positions: two
``numpy.random.default_rng([seed, k])`` generators per evaluation, the rest of
the turn played by the Python greedy policy (every placement scored one kingdom
at a time) and the kernel called from the next turn's start. Now: a splitmix64
stream (the kernels' generator) where the Python policy still plays, the greedy
policy's placements scored in one compiled call, and in base and co-op games the
kernel plays the rest of the turn itself (the turn's phase is packed).

Speed is CPU time (``time.process_time``) for a fixed node budget, so that the
other engineers' load on the shared machine does not enter the ratio; the
playouts a 700 ms hint makes (wall clock) are shown beside it. Strength at equal
time: the baseline with B evaluations against the new evaluation with B x the
measured speed ratio (the same CPU time), both scored by a long reference
search: agreement with its best move and regret in its values.

``python benchmarks/bench_aetherya_hint_speed.py [--quick]``
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, table  # noqa: E402
from solver.aetherya import hints, playout  # noqa: E402
from solver.aetherya.hints import Candidate, hint, solo_progress  # noqa: E402
from solver.aetherya.playout import advance_to_turn_start, greedy_action, pack, playout_values  # noqa: E402
from solver.aetherya.state import AetheryaState  # noqa: E402
from solver.registry import load_game  # noqa: E402
from solver.search import Limits, SearchContext  # noqa: E402

SPECS = ("aetherya", "aetherya(players=3)", "aetherya(mode=coop)")
HINT_MS = 700


def positions(count: int, seed: int = 7) -> list[AetheryaState]:
    """Decisions of seeded greedy games (base 2 and 3 players, co-op): turn starts and the card-to-place and
    end-of-turn decisions inside a turn."""
    rng = np.random.default_rng(seed)
    out: list[AetheryaState] = []
    p = 0
    while len(out) < count:
        game = load_game(SPECS[p % len(SPECS)])
        state = game.new_initial_state(100 + p)
        for _ in range(int(rng.integers(0, 10))):
            state = advance_to_turn_start(state, rng)
            if state.is_terminal():
                break
            state.apply_action(greedy_action(state, rng))
        state = advance_to_turn_start(state, rng)
        for _ in range(int(rng.integers(0, 2))):  # some decisions inside the turn (a card to place, the end)
            if state.is_terminal() or state.is_chance_node():
                break
            state.apply_action(greedy_action(state, rng))
        while not state.is_terminal() and state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            out.append(state)
        p += 1
    return out


def _baseline_evaluate_paired(live: list[Candidate], worlds: list[AetheryaState], seeds: list[int], player: int,
                              round_no: int, stop=None, keep_partial: bool = False, stop_age: int = -1,
                              plans=None, consume: bool = False) -> int:
    """The hint's evaluation before issue 24 (same contract as ``hints._evaluate_paired``)."""
    solo = worlds[0].mode == "solo"
    results: dict[tuple[int, int], tuple[float, float]] = {}
    packed, owners, seed_list = [], [], []
    stopped = False
    for i, (world, seed) in enumerate(zip(worlds, seeds)):
        for j, cand in enumerate(live):
            w = world.clone()
            for action in cand.plan:
                w.apply_action(action)
            advance_to_turn_start(w, np.random.default_rng([seed, 2]), np.random.default_rng([seed, 1]))
            if w.is_terminal():
                results[i, j] = (float(w.returns()[player]), float(solo_progress(w)) if solo else 0.0)
            else:
                packed.append(pack(w))
                owners.append((i, j))
                seed_list.append(seed)
            if stop is not None and stop() and (i, j) != (len(worlds) - 1, len(live) - 1):
                stopped = True
                break
        if stopped:
            break
    if stopped and not keep_partial:
        return 0
    values = playout_values(packed, seed_list, stop_age) if packed else np.zeros((0, 4), np.int32)
    for row, key in enumerate(owners):
        results[key] = (float(values[row][player]), float(values[row][1]) if solo else 0.0)
    appended = 0
    for i in range(len(worlds)):
        for j, cand in enumerate(live):
            if (i, j) in results:
                value, progress = results[i, j]
                cand.record(round_no, value, progress if solo else None)
                appended += 1
    return appended


@contextlib.contextmanager
def baseline() -> Iterator[None]:
    """The hint as before issue 24: the old evaluation and the one-kingdom-at-a-time placements."""
    saved = hints._evaluate_paired, playout.placements
    hints._evaluate_paired, playout.placements = _baseline_evaluate_paired, playout.placements_one_by_one
    try:
        yield
    finally:
        hints._evaluate_paired, playout.placements = saved


def _method(name: str) -> contextlib.AbstractContextManager:
    return baseline() if name == "baseline" else contextlib.nullcontext()


def evaluations(states: list[AetheryaState], nodes: int, method: str) -> tuple[int, float, float]:
    """(playouts, CPU seconds, wall seconds) of the hint's search with ``nodes`` evaluations a position."""
    made = 0
    with _method(method):
        cpu, wall = time.process_time(), time.perf_counter()
        for i, state in enumerate(states):
            _, info = hints.search(state, SearchContext(limits=Limits(nodes=nodes), seed=i), state.to_move,
                                   lambda rng, s=state: s.clone())
            made += info["playouts"]
        return made, time.process_time() - cpu, time.perf_counter() - wall


def timed_hints(states: list[AetheryaState], method: str) -> tuple[float, float]:
    """Mean playouts of a hint limited to HINT_MS (wall clock), and its mean CPU seconds."""
    made, cpu = 0, 0.0
    with _method(method):
        for i, state in enumerate(states):
            start = time.process_time()
            result = hint(state, SearchContext(limits=Limits(time_ms=HINT_MS), seed=i), top=1)
            cpu += time.process_time() - start
            made += result.root_info["playouts"]
    return made / len(states), cpu / len(states)


def speed(states: list[AetheryaState], nodes: int) -> dict[str, float]:
    """Playouts per CPU second, baseline and now, interleaved twice (load drifts), and their ratio."""
    totals = {"baseline": [0, 0.0], "now": [0, 0.0]}
    for _ in range(2):
        for method in ("baseline", "now"):
            made, cpu, _ = evaluations(states, nodes, method)
            totals[method][0] += made
            totals[method][1] += cpu
    base = totals["baseline"][0] / totals["baseline"][1]
    now = totals["now"][0] / totals["now"][1]
    return {"baseline_rate": base, "now_rate": now, "ratio": now / base,
            "cpu_s": totals["baseline"][1] + totals["now"][1]}


def strength(states: list[AetheryaState], budget: int, ratio: float, reference: int) -> list[list]:
    """Agreement with a long reference search and regret in its values: the baseline with ``budget``
    evaluations, the new evaluation with the same budget and with the same CPU time (``budget * ratio``)."""
    refs = []
    for i, state in enumerate(states):
        result = hint(state, SearchContext(limits=Limits(nodes=reference), seed=999 + i), top=100)
        refs.append({m.move: m.value for m in result.move_infos})
    rows = []
    for label, method, nodes in (("baseline", "baseline", budget), ("now, same evaluations", "now", budget),
                                 ("now, same CPU time", "now", int(round(budget * ratio)))):
        agree, regret, cpu = 0, [], 0.0
        with _method(method):
            for i, state in enumerate(states):
                start = time.process_time()
                result = hint(state, SearchContext(limits=Limits(nodes=nodes), seed=i), top=1)
                cpu += time.process_time() - start
                move = result.move_infos[0].move
                best = max(refs[i], key=refs[i].get)
                agree += move == best
                regret.append(refs[i][best] - refs[i].get(move, min(refs[i].values())))
        rows.append([label, nodes, len(states), f"{agree / len(states):.2f}", f"{np.mean(regret):.2f}",
                     f"{1000 * cpu / len(states):.0f}"])
    return rows


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    states = positions(6 if quick else 24)
    nodes = 200 if quick else 600
    got = speed(states, nodes)
    print(f"### Aetherya hint: evaluations per CPU second ({len(states)} decisions, base 2-3 players and co-op; "
          f"{nodes} evaluations each, twice, interleaved)\n")
    print(table(["evaluation", "playouts / CPU s", f"playouts / {HINT_MS} ms CPU", "ratio"],
                [["baseline (before issue 24)", round(got["baseline_rate"]), round(got["baseline_rate"] * HINT_MS / 1000),
                  "1.00"],
                 ["now", round(got["now_rate"]), round(got["now_rate"] * HINT_MS / 1000), f"{got['ratio']:.2f}"]]))
    timed = [timed_hints(states[:4 if quick else 12], m) for m in ("baseline", "now")]
    print(f"\nA hint limited to {HINT_MS} ms (wall clock, the machine shared): baseline {timed[0][0]:.0f} playouts "
          f"({1000 * timed[0][1]:.0f} ms CPU), now {timed[1][0]:.0f} ({1000 * timed[1][1]:.0f} ms CPU), "
          f"ratio {timed[1][0] / max(timed[0][0], 1):.2f}")
    budget, reference = (60, 800) if quick else (120, 3200)
    print(f"\n### Strength at equal time (reference: {reference} evaluations; regret in the reference's points)\n")
    print(table(["evaluation", "evaluations", "decisions", "agrees with reference", "mean regret", "ms CPU a hint"],
                strength(states, budget, got["ratio"], reference)))
    print(f"\n{machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
