"""Memorinth benchmarks: kernel vs twin, games per second, solver vs baseline, puzzles, hint latency, self-play.

``python benchmarks/run.py memorinth [--quick]`` prints every table; the figures
in docs/benchmarks.md (## Memorinth) come from it. ``python benchmarks/bench_memorinth.py
[--quick] [--jobs N] [--only generate,selfplay]`` runs some sections, the puzzle and
self-play ones through ``solver.generate`` / ``solver.selfplay`` on N processes
(the same output as one). Targets (issue 6): kernels at
least 100x their twins; at least 10,000 full seeded games per second with the
greedy (heuristic) policy on one core; hints within 1 s at default limits.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_time, mean_ci, table  # noqa: E402

import solver  # noqa: E402

from solver import contract  # noqa: E402
from solver.kernels import memorinth as K  # noqa: E402
from solver.memorinth.solve import exhaustive_escape, shortest_escape  # noqa: E402
from solver.memorinth.game import MemorinthGame  # noqa: E402
from solver.memorinth.puzzles import DIFFICULTIES  # noqa: E402
from solver.search import Limits, SearchContext  # noqa: E402
from solver.twins import memorinth_escape as TE  # noqa: E402
from solver.twins import memorinth_play as T  # noqa: E402

GREEDY = np.ones(4, dtype=np.int32)
RANDOM = np.zeros(4, dtype=np.int32)


def positions(game: MemorinthGame, count: int, seed: int) -> list:
    """Mid-game positions reached by random play from seeded deals."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.deal(int(rng.integers(2**62)))
        for _ in range(int(rng.integers(0, 30))):
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            if state.is_terminal():
                break
        if not state.is_terminal():
            out.append(state)
    return out


def kernel_vs_twin(quick: bool) -> None:
    game = MemorinthGame()
    master = MemorinthGame(variant="master", action_side="special", players=3)
    states = positions(game, 40, 1)
    deck = game.deck_table
    buf = np.zeros(396, dtype=np.int32)
    dist = np.zeros(25, dtype=np.int32)
    out = np.zeros(12, dtype=np.int64)
    rows = []

    def row(name: str, per: str, kernel_fn, twin_fn, units: int) -> None:
        tk = best_time(kernel_fn, repeat=3, min_seconds=0.05 if quick else 0.2) / units
        tt = best_time(twin_fn, repeat=1 if quick else 2, min_seconds=0.05 if quick else 0.3) / units
        rows.append([name, per, f"{tk * 1e6:.2f}", f"{tt * 1e6:.1f}", f"{tt / tk:.0f}x"])

    vecs = [s.vec for s in states]
    row("escape_distances", "call", lambda: [K.escape_distances(v, deck, dist) for v in vecs],
        lambda: [T.escape_distances(v, deck, dist) for v in vecs], len(vecs))
    row("path_bitboards", "call", lambda: [K.path_bitboards(v, deck) for v in vecs],
        lambda: [T.path_bitboards(v, deck) for v in vecs], len(vecs))
    row("legal_actions", "call", lambda: [K.legal_actions(v, deck, buf) for v in vecs],
        lambda: [T.legal_actions(v, deck, buf) for v in vecs], len(vecs))

    batch = np.stack(vecs * 25)
    dists = np.zeros((len(batch), 25), dtype=np.int32)
    lists = np.zeros((len(batch), 396), dtype=np.int32)
    counts = np.zeros(len(batch), dtype=np.int32)
    small = batch[:len(vecs)]
    row("escape_distances_batch", "state", lambda: K.escape_distances_batch(batch, deck, dists),
        lambda: T.escape_distances_batch(small, deck, dists[:len(small)]), 1)
    _per_row(rows, len(batch), len(small))
    row("legal_actions_batch", "state", lambda: K.legal_actions_batch(batch, deck, lists, counts),
        lambda: T.legal_actions_batch(small, deck, lists[:len(small)], counts[:len(small)]), 1)
    _per_row(rows, len(batch), len(small))
    K.legal_actions_batch(batch, deck, lists, counts)
    picks = np.array([lists[i, counts[i] // 2] for i in range(len(batch))], dtype=np.int32)
    applied = np.zeros(len(batch), dtype=np.int32)
    row("apply_actions_batch", "state", lambda: K.apply_actions_batch(batch.copy(), deck, picks, applied),
        lambda: T.apply_actions_batch(small.copy(), deck, picks[:len(small)], applied[:len(small)]), 1)
    _per_row(rows, len(batch), len(small))

    # apply_action along recorded random games (one copy of the start per game, 30 checked moves)
    rng = np.random.default_rng(3)
    games_played = []
    for v in vecs:
        work, moves = v.copy(), []
        while len(moves) < 30 and work[T.PHASE] != T.PH_OVER:
            n = K.legal_actions(work, deck, buf)
            moves.append(int(buf[rng.integers(n)]))
            K.apply_action(work, deck, moves[-1])
        games_played.append((v, moves))

    def apply_all(module):
        for v, moves in games_played:
            work = v.copy()
            for action in moves:
                module.apply_action(work, deck, action)
    row("apply_action (checked)", "call", lambda: apply_all(K), lambda: apply_all(T),
        sum(len(m) for _, m in games_played))
    row("policy_action greedy", "call", lambda: [K.policy_action(v, deck, 1, 7) for v in vecs],
        lambda: [T.policy_action(v, deck, 1, 7) for v in vecs], len(vecs))
    games = 20 if quick else 100
    base = game.deal(0).vec
    row("random_games greedy, 2p base", "game", lambda: K.random_games(base, deck, games, 3, GREEDY, 400, out),
        lambda: T.random_games(base, deck, games // 4, 3, GREEDY, 400, out), 1)
    _per_row(rows, games, games // 4)
    mvec = master.deal(0).vec
    mdeck = master.deck_table
    row("random_games greedy, 3p master special", "game",
        lambda: K.random_games(mvec, mdeck, games, 3, GREEDY, 400, out),
        lambda: T.random_games(mvec, mdeck, games // 4, 3, GREEDY, 400, out), 1)
    _per_row(rows, games, games // 4)
    mid = states[5].vec
    row("playouts (re-sampled), 2p base", "playout",
        lambda: K.playouts(mid, deck, int(mid[T.TOMOVE]), -1, games, 5, 1, GREEDY, 400, out),
        lambda: T.playouts(mid, deck, int(mid[T.TOMOVE]), -1, games // 4, 5, 1, GREEDY, 400, out), 1)
    _per_row(rows, games, games // 4)
    solo = [s for s in positions(MemorinthGame(players=1), 12, 4)]
    moves = np.zeros(15, dtype=np.int32)
    stop = np.zeros(1, dtype=np.int32)
    row("shortest_escape (IDA*, depth <= 5)", "solve",
        lambda: [K.shortest_escape(s.vec, deck, 0, 5, 0, 0.0, moves, stop) for s in solo],
        lambda: [TE.shortest_escape(s.vec, deck, 0, 5, 0, 0.0, moves, stop) for s in solo], len(solo))
    print("### Kernel against its twin (same inputs, same results)\n")
    print("Single calls pay Python's call and argument overhead (about 0.3 µs); the batch functions show the "
          "kernels' own speed.\n")
    print(table(["function", "per", "kernel µs", "twin µs", "ratio"], rows))
    print()


def _per_row(rows: list, kernel_units: int, twin_units: int) -> None:
    """Turn the last row's whole-call times into per-item times."""
    rows[-1][2] = f"{float(rows[-1][2]) / kernel_units:.3f}"
    rows[-1][3] = f"{float(rows[-1][3]) / twin_units:.1f}"
    rows[-1][4] = f"{float(rows[-1][3]) / float(rows[-1][2]):.0f}x"


def games_per_second(quick: bool) -> None:
    rows = []
    count = 2000 if quick else 20000
    for spec in ({}, {"players": 3}, {"players": 4}, {"variant": "master"},
                 {"variant": "master", "action_side": "special", "players": 3},
                 {"variant": "master", "action_side": "alternate", "players": 4}):
        game = MemorinthGame(**spec)
        vec = game.deal(0).vec
        for name, pol in (("greedy", GREEDY), ("random", RANDOM)):
            out = np.zeros(12, dtype=np.int64)
            K.random_games(vec, game.deck_table, 200, 1, pol, 1000, out)   # warm-up
            start = time.perf_counter()
            K.random_games(vec, game.deck_table, count, 11, pol, 1000, out)
            seconds = time.perf_counter() - start
            label = game.spec().replace("memorinth", "") or "(2 players, base)"
            rows.append([label, name, f"{count / seconds:,.0f}", f"{out[10] / count:.1f}",
                         f"{out[1] / count:.2%}", f"{out[11] / count:.2%}"])
    print(f"### Full seeded games per second (kernel `random_games`: deal + play, one core, {count} games)\n")
    print(table(["rules", "policy", "games/s", "turns/game", "unfinished at 1000 turns", "nobody can leave"],
                rows))
    print()


def solver_vs_baseline(quick: bool) -> None:
    rows = []
    for spec, depth in (({"players": 1}, 3), ({"variant": "master", "players": 1}, 3)):
        game = MemorinthGame(**spec)
        states = positions(game, 6 if quick else 20, 9)
        agree = 0
        t_ida = t_bfs = 0.0
        gaps = []
        for state in states:
            start = time.perf_counter()
            esc = shortest_escape(state, 0, max_depth=depth)
            t_ida += time.perf_counter() - start
            start = time.perf_counter()
            truth = exhaustive_escape(state.vec, state.deck_table, 0, depth)
            t_bfs += time.perf_counter() - start
            agree += (esc.turns if esc.optimal else None) == truth
            buf = np.zeros(90, dtype=np.int32)
            upper, _ = K.greedy_escape(state.vec, state.deck_table, 0, 30, 32, 0, buf)
            full = shortest_escape(state, 0, max_depth=30, ctx=SearchContext(limits=Limits(time_ms=2000)))
            if full.optimal and upper > 0:
                gaps.append(upper - full.turns)
        rows.append([game.spec(), len(states), depth, f"{agree}/{len(states)}", f"{t_ida / len(states) * 1e3:.2f}",
                     f"{t_bfs / len(states) * 1e3:.0f}", f"{t_bfs / max(t_ida, 1e-9):.0f}x",
                     f"{np.mean(gaps):.2f}" if gaps else "-"])
    print("### Shortest escape: IDA* (kernel, admissible bound) against plain breadth-first search (twin)\n")
    print(table(["rules", "positions", "depth", "same answer", "IDA* ms", "BFS ms", "speed-up",
                 "greedy upper bound - optimum (turns)"], rows))
    print()


def puzzle_generation(quick: bool, jobs: int = 1) -> None:
    """Puzzles through the shared entry point ``solver.generate`` (puzzle i from its own stream; ``jobs``
    processes give the same puzzles)."""
    rows = []
    for variant in ("base", "master"):
        game = MemorinthGame(variant=variant)
        for difficulty in ("easy", "medium", "hard"):
            if quick and difficulty == "hard":
                continue
            count = 2 if quick else 10
            start = time.perf_counter()
            puzzles = list(solver.generate(game, kind="escape", difficulty=difficulty, seed=1, count=count,
                                           jobs=jobs))
            seconds = time.perf_counter() - start
            lo, hi = DIFFICULTIES[variant][difficulty]
            attempts = [p["attempts"] for p in puzzles]
            nodes = [p["nodes"] for p in puzzles]
            rows.append([variant, difficulty, f"{lo}-{hi}", len(puzzles), f"{np.mean(attempts):.0f}",
                         f"{np.median(nodes):,.0f}", f"{seconds / len(puzzles):.2f}"])
    print(f"### Puzzle generation (unique shortest solution, verified; `solver.generate`, {jobs} process"
          f"{'es' if jobs > 1 else ''})\n")
    print(table(["variant", "difficulty", "turns", "puzzles", "candidates per puzzle", "proof nodes (median)",
                 "s/puzzle"], rows))
    print()


def hint_latency(quick: bool) -> None:
    rows = []
    for spec in ({}, {"players": 3}, {"players": 4}, {"variant": "master", "players": 3},
                 {"variant": "master", "action_side": "special", "players": 4}):
        game = MemorinthGame(**spec)
        states = positions(game, 3 if quick else 10, 2)
        times, plays = [], []
        for state in states:
            start = time.perf_counter()
            result = contract.hint(game, state, SearchContext(limits=Limits(time_ms=game.default_time_ms)), top=3)
            times.append(time.perf_counter() - start)
            plays.append(result.root_info["playouts"] / max(1, result.root_info["candidates"]))
        rows.append([game.spec(), len(states), f"{np.mean(times):.3f}", f"{max(times):.3f}",
                     f"{np.mean(plays):.0f}"])
    print("### Hint latency at default limits (1 s)\n")
    print(table(["rules", "positions", "mean s", "max s", "playouts per candidate"], rows))
    print()


def self_play(quick: bool, jobs: int = 1, deals: int | None = None, nodes: int | None = None) -> None:
    """Self-play through the shared entry point ``solver.selfplay``: the hint in one seat against greedy or random
    opponents, every deal played once per rotation of the seats; the same deals with the greedy policy in the
    hint's place give the paired baseline."""
    deals = deals or (8 if quick else 75)
    nodes = nodes or (300 if quick else 1200)
    rows = []
    for players in (2, 3, 4):
        game = MemorinthGame(players=players)
        for opponents in ("greedy", "random"):
            others = (opponents,) * (players - 1)
            start = time.perf_counter()
            hint = list(solver.selfplay(game, ("hint",) + others, seed=10, count=deals,
                                        hintNodes=nodes, jobs=jobs))
            seconds = time.perf_counter() - start
            base = list(solver.selfplay(game, ("greedy",) + others, seed=10, count=deals, jobs=jobs))
            seat = "greedy" if opponents == "random" else "greedy@0"
            shares = [h["outcomes"]["hint"] for h in hint]
            baseline = [b["outcomes"][seat] for b in base]
            mean, lo, hi = mean_ci(shares)
            diff, dlo, dhi = mean_ci([a - b for a, b in zip(shares, baseline)])
            turns = [g["turns"] for h in hint for g in h["games"]]
            rows.append([players, f"hint vs {opponents}", deals * players, f"{mean:.1%}", f"{lo:.1%}-{hi:.1%}",
                         f"{np.mean(baseline):.1%}", f"{diff:+.1%} ({dlo:+.1%} to {dhi:+.1%})",
                         f"{1 / players:.1%}", f"{np.mean(turns):.1f}", f"{deals * players / seconds:.2f}"])
    print(f"### Self-play: the hint in one seat against the others (`solver.selfplay`, {nodes} playouts per "
          f"decision, {jobs} process{'es' if jobs > 1 else ''})\n")
    print("Each deal is played once per rotation of the seats (the hint meets the same cards from every seat). "
          "\"Greedy in that seat\": the same deals and rotations with the greedy policy in the hint's place; the "
          "paired difference is per deal, with its 95% interval.\n")
    print(table(["players", "match", "games", "hint wins", "95% CI", "greedy in that seat", "paired difference",
                 "fair share", "turns/game", "games/s"], rows))
    print()


def main(argv: list[str]) -> int:
    """``[--quick] [--jobs N] [--only generate,selfplay,...] [--deals N] [--hint-nodes N]``: every section, or
    the named ones (self-play on N deals with N playouts per hint)."""
    quick = "--quick" in argv

    def value(flag: str) -> str | None:
        return argv[argv.index(flag) + 1] if flag in argv else None

    jobs = int(value("--jobs") or 1)
    only = value("--only").split(",") if value("--only") else None
    deals = int(value("--deals")) if value("--deals") else None
    nodes = int(value("--hint-nodes")) if value("--hint-nodes") else None
    sections = {"kernels": lambda: kernel_vs_twin(quick), "games": lambda: games_per_second(quick),
                "escape": lambda: solver_vs_baseline(quick), "generate": lambda: puzzle_generation(quick, jobs),
                "hints": lambda: hint_latency(quick), "selfplay": lambda: self_play(quick, jobs, deals, nodes)}
    for name, section in sections.items():
        if only is None or name in only:
            section()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
