"""Seeded and node-budgeted outputs, recorded once and compared after a kernel change.

``python benchmarks/check_outputs.py record FILE`` runs a fixed set of commands for every game (``generate``,
``selfplay``, ``hint --nodes``, ``solve``, on positions reached by seeded random play) through the CLI in this
process and writes their standard output to FILE; ``python benchmarks/check_outputs.py compare FILE`` runs them
again and prints every command whose output changed (exit status 1 when one did). Keys that measure time
(``elapsed``, ``timeMs``, ...) are dropped from JSON answers before comparing: they are the only part of these
outputs allowed to differ between runs. ``--only GAME`` restricts the run to one game; ``--skip "GAME VERB"`` leaves
out that game's verb (``--skip "aetherya hint"``: the Aetherya hint, whose search changes on purpose).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import solver
from solver import cli

#: JSON keys whose values are clock readings, not results
TIME_KEYS = frozenset({"elapsed", "elapsedMs", "timeMs", "time_ms", "seconds", "nps", "nodesPerSecond",
                       "wallMs", "cpuMs", "ms"})
#: more keys that follow the clock for one verb: Forgotten's exact solver runs in time chunks, and a chunk cut
#: in the middle of a position expands it again in the next (the values and states stored do not change)
CLOCK_KEYS = {("forgotten", "solve"): frozenset({"nodes"})}

GAMES = ("aetherya", "embers", "forgotten", "memorinth", "mnemonic")
#: the rule sets checked for each game (``--game`` specs)
SPECS = {
    "aetherya": ("aetherya", "aetherya(mode=objects)", "aetherya(mode=coop,players=3)", "aetherya(players=1,mode=solo)"),
    "embers": ("embers", "embers(chapter=prologue)"),
    "forgotten": ("forgotten", "forgotten(erasure=turn)", "forgotten(width=4,height=3)"),
    "memorinth": ("memorinth", "memorinth(variant=master)", "memorinth(players=3)", "memorinth(players=1)"),
    "mnemonic": ("mnemonic", "mnemonic(mode=into-the-grey)"),
}
#: self-play policies where the default pair does not fit the player count
POLICIES = {"memorinth(players=3)": ("--policies", "hint,greedy,random"),
            "memorinth(players=1)": ("--policies", "hint")}
HINT_NODES = {"aetherya": 300, "embers": 200, "forgotten": 300, "memorinth": 300, "mnemonic": 200000}
#: solve's budget: a node budget where the search is node-for-node deterministic, else a time limit no solve
#: reaches (Embers' CP-SAT; Forgotten's exact solver runs in time chunks, so only a complete solve is
#: deterministic: it solves the small board only)
SOLVE_LIMITS = {"embers": ("--time-ms", "600000"), "forgotten": ("--time-ms", "600000"),
                "memorinth": ("--nodes", "200000"), "mnemonic": ("--nodes", "200000")}
#: (kind, difficulty) generated for each game
PUZZLES = {
    "aetherya": (("best-kingdom", "easy"), ("best-kingdom", "hard"), ("legend-race", "easy")),
    "embers": (("blink", "easy"), ("blink", "medium")),
    "forgotten": (("forced-connection", "easy"), ("forced-connection", "medium")),
    "memorinth": (("escape", "easy"), ("escape-in-1", "easy"), ("escape-in-2", "easy"), ("escape-in-4", "medium")),
    "mnemonic": (("best-call", "easy"), ("best-call", "medium")),
}
#: extra commands: Aetherya's optimal kingdoms (the worst hands of issue 24 among them), small-board Forgotten
EXTRA = {
    "aetherya": [["aetherya", "solve", hand, "--time-ms", "600000", "--json"] for hand in
                 ("PFFMMSSHHEEDGGRO", "PFMMHHHEEEDDDGOO", "FMSHHHHEEEEDGGOO", "PPFFMMSSHHEEDDGG")]
    + [["aetherya", "optimize", "PFFMMSSHHEEDGGRO", "--json"],
       # a node budget with a time limit no search reaches: the local search's effort depends on the time left
       ["aetherya", "solve", "PFMMHHHEEEDDDGOO", "--nodes", "20000", "--time-ms", "600000", "--json"],
       ["aetherya", "solve", "PPFMSSHHEEDDGGRO", "--nodes", "3000", "--time-ms", "600000", "--json"]],
    "forgotten": [["forgotten", "generate", "--game", "forgotten(width=4,height=3)", "--kind", "best-move",
                   "--difficulty", "easy", "--count", "1", "--seed", "7", "--json"]],
}


def played_positions(spec: str, seed: int, moves: int) -> list[str]:
    """Notations of a seeded game after ``moves`` random actions (chance outcomes drawn by their odds), and
    the view of the player to move."""
    game = solver.load_game(spec)
    state = game.new_game(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes], dtype=float)
            state.apply_action(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.integers(len(actions)))])
    positions = [state.to_notation()]
    if not state.is_terminal() and state.current_player() >= 0:
        positions.append(state.view(state.current_player()).to_notation())
    return positions


def commands(name: str) -> list[list[str]]:
    """The argv lists checked for one game."""
    out: list[list[str]] = []
    for spec in SPECS[name]:
        game = ["--game", spec]
        out.append([name, "selfplay", *game, "--count", "3", "--seed", "5", *POLICIES.get(spec, ()), "--json"])
        for seed, moves in ((1, 0), (2, 6), (3, 15), (4, 30)):
            positions = played_positions(spec, seed, moves)
            for position in positions:
                out.append([name, "hint", position, *game, "--nodes", str(HINT_NODES[name]), "--json"])
            if name == "aetherya" or (name == "forgotten" and "width=4" not in spec):
                continue  # Aetherya solves hands (EXTRA); Forgotten solves small boards
            out.append([name, "solve", positions[0], *game, *SOLVE_LIMITS[name], "--json"])
    for kind, difficulty in PUZZLES[name]:
        out.append([name, "generate", "--kind", kind, "--difficulty", difficulty, "--count", "2", "--seed", "7",
                    "--json"])
    return out + EXTRA.get(name, [])


def strip_time(value: Any, keys: frozenset[str] = TIME_KEYS) -> Any:
    """``value`` without the keys of ``keys``, recursively."""
    if isinstance(value, dict):
        return {k: strip_time(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [strip_time(v, keys) for v in value]
    return value


def load_kernels() -> None:
    """Import every compiled kernel before standard output is redirected (an editable install may rebuild
    on first import, in a subprocess that needs the real file descriptors)."""
    for pyx in sorted((Path(__file__).resolve().parent.parent / "src").glob("*.pyx")):
        importlib.import_module(f"solver.kernels.{pyx.stem}")


def run(argv: list[str]) -> str:
    """The command's exit status, standard error and standard output."""
    buf, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as exc:
            status = exc.code
    return f"status {status}\n{err.getvalue().strip()}\n{buf.getvalue()}"


def canonical(argv: list[str], output: str) -> str:
    """``output`` of ``run(argv)`` with every JSON line's clock readings dropped and its keys sorted."""
    keys = TIME_KEYS | CLOCK_KEYS.get((argv[0], argv[1]), frozenset())
    lines = []
    for line in output.splitlines():
        try:
            lines.append(json.dumps(strip_time(json.loads(line), keys), sort_keys=True))
        except ValueError:
            lines.append(line)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--only", action="append", choices=GAMES)
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--missing", action="store_true", help="record: run only the commands FILE lacks")
    args = parser.parse_args(argv)
    load_kernels()
    known = json.loads(args.file.read_text()) if args.missing and args.file.exists() else {}
    results: dict[str, str] = {}
    for name in args.only or GAMES:
        for command in commands(name):
            key = json.dumps(command)
            if f"{command[0]} {command[1]}" in args.skip or key in known:
                continue
            start = time.process_time()
            results[key] = canonical(command, run(command))
            print(f"{time.process_time() - start:6.2f} s  {' '.join(command)[:110]}", file=sys.stderr, flush=True)
    if args.action == "record":
        args.file.write_text(json.dumps({**known, **results}, indent=1, sort_keys=True))
        print(f"recorded {len(results)} outputs in {args.file}")
        return 0
    recorded = json.loads(args.file.read_text())
    recorded = {key: canonical(json.loads(key), text) for key, text in recorded.items()}
    changed = [key for key in results if key in recorded and recorded[key] != results[key]]
    missing = [key for key in results if key not in recorded]
    for key in changed:
        print(f"CHANGED: {key[:160]}")
        old, new = recorded[key].splitlines(), results[key].splitlines()
        for a, b in zip(old, new):
            if a != b:
                print(f"  was: {a[:300]}\n  now: {b[:300]}")
                break
    for key in missing:
        print(f"not recorded: {key[:160]}")
    print(f"{len(results) - len(changed) - len(missing)} identical, {len(changed)} changed, "
          f"{len(missing)} not in the record")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
