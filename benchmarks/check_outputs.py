"""Record the outputs that must stay byte-identical across a refactoring, and compare them later (issue 21).

For every registered game: ``generate``, ``selfplay``, ``hint --nodes`` and ``solve`` through the command line
(JSON and text) and the same through the engine (``memory-solver engine``). Outputs with a seed or a ``nodes``
budget must not change; wall-clock figures (``seconds``, ``timeMs``, "in 0.2 s") are taken out before comparing::

    python benchmarks/check_outputs.py record /tmp/outputs-before     # on the old code
    python benchmarks/check_outputs.py compare /tmp/outputs-before    # on the new code: lists every difference

Every command runs in a fresh process (``python -m solver``) from a scratch directory, as a user would run it.

``--wide`` adds the kernels' cases (issue 24): every rule set of every game (Aetherya's modes, Embers' chapters,
Forgotten's erasure and a small board, Memorinth's variants and player counts, Mnemonic's modes), ``hint
--nodes`` on positions reached by seeded random play and on the player's view of each, ``solve`` (a node budget,
or on a problem solved to the end), ``generate`` at two difficulties, ``selfplay``, and Aetherya's hardest
hands; about 170 more commands.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

#: solve problems that each game's solver proves in well under a second (from the games' own tests and docs)
SOLVE = {
    "aetherya": ('{"cards": "PFFMMSSHHEEDGGRO", "fixed": {"a1": "O"}}', None),
    "embers": ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- "
               "box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-", None),
    "forgotten": ("c.B./@bc@/.a.a 1 first", "forgotten(width=4,height=3,pairs=3)"),
    "memorinth": (None, None),   # the dealt position of `new --seed 3`
    "mnemonic": (None, None),
}
HINT_NODES = "300"

# -- the --wide cases ----------------------------------------------------------------------------------------
#: the rule sets of the wide cases (``--game`` specs)
SPECS = {
    "aetherya": ("aetherya", "aetherya(mode=objects)", "aetherya(mode=coop,players=3)", "aetherya(players=1,mode=solo)"),
    "embers": ("embers", "embers(chapter=prologue)"),
    "forgotten": ("forgotten", "forgotten(erasure=turn)", "forgotten(width=4,height=3)"),
    "memorinth": ("memorinth", "memorinth(variant=master)", "memorinth(players=3)", "memorinth(players=1)"),
    "mnemonic": ("mnemonic", "mnemonic(mode=into-the-grey)"),
}
#: self-play policies where the default pair does not fit the player count
POLICIES = {"memorinth(players=3)": ("--policies", "hint,greedy,random"), "memorinth(players=1)": ("--policies", "hint")}
WIDE_HINT_NODES = {"aetherya": 300, "embers": 200, "forgotten": 300, "memorinth": 300, "mnemonic": 200000}
#: solve's budget: a node budget where the search is node for node deterministic, else a time limit no solve
#: reaches (Embers' CP-SAT; Forgotten's exact solver runs in time chunks, so only a complete solve is
#: deterministic: the small board only)
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
#: Aetherya's optimal kingdoms (the hardest hands of issue 24 among them: the tie between optimal kingdoms must
#: not change), with a time limit no search reaches (the local search's effort follows the time left)
EXTRA = {
    "aetherya": [["aetherya", "solve", hand, "--time-ms", "600000"] for hand in
                 ("PFFMMSSHHEEDGGRO", "PFMMHHHEEEDDDGOO", "FMSHHHHEEEEDGGOO", "PPFFMMSSHHEEDDGG")]
    + [["aetherya", "solve", "PFMMHHHEEEDDDGOO", "--nodes", "20000", "--time-ms", "600000"],
       ["aetherya", "solve", "PPFMSSHHEEDDGGRO", "--nodes", "3000", "--time-ms", "600000"]],
    "forgotten": [["forgotten", "generate", "--game", "forgotten(width=4,height=3)", "--kind", "best-move",
                   "--difficulty", "easy", "--count", "1", "--seed", "7"]],
}
#: keys that follow the clock for one verb: Forgotten's exact solver runs in time chunks, and a chunk cut in the
#: middle of a position expands it again in the next (the values and the states stored do not change)
CLOCK_KEYS = {"forgotten.wide.solve": ("nodes",)}


def run(argv: list[str], cwd: str, stdin: str | None = None) -> str:
    """stdout, then the exit status and stderr, of one command."""
    proc = subprocess.run([sys.executable, "-m", "solver", *argv], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=600)
    return f"{proc.stdout}--- exit {proc.returncode}\n{proc.stderr}"


def problem_json(problem: str) -> object:
    """A problem as the engine takes it: a JSON object, or the notation string."""
    return json.loads(problem) if problem.startswith("{") else problem


def without_seconds(text: str) -> str:
    """The output with wall-clock figures taken out (JSON ``seconds`` and ``timeMs`` keys, text lines that give
    seconds)."""
    text = re.sub(r'"(seconds|timeMs)": ?[0-9.e-]+', r'"\1": _', text)
    if text.startswith('["forgotten", "solve"'):
        for key in CLOCK_KEYS["forgotten.wide.solve"]:
            text = re.sub(rf'"{key}": ?[0-9]+', rf'"{key}": _', text)
    return "\n".join("<seconds>" if re.search(r"\b(seconds|[0-9.]+ ?s\b)", line) and not line.startswith("{")
                     else line for line in text.splitlines()) + "\n"


def played_positions(spec: str, seed: int, moves: int) -> list[str]:
    """Notations of a seeded game after ``moves`` random actions (chance outcomes drawn by their odds), and the
    view of the player to move."""
    import numpy as np

    from solver.registry import load_game
    state = load_game(spec).new_game(seed)
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


def wide_commands(game: str) -> list[list[str]]:
    """The ``--wide`` argv lists of one game (JSON output)."""
    out: list[list[str]] = []
    for spec in SPECS[game]:
        rules = ["--game", spec]
        out.append([game, "selfplay", *rules, "--count", "3", "--seed", "5", *POLICIES.get(spec, ())])
        for seed, moves in ((1, 0), (2, 6), (3, 15), (4, 30)):
            positions = played_positions(spec, seed, moves)
            for position in positions:
                out.append([game, "hint", position, *rules, "--nodes", str(WIDE_HINT_NODES[game])])
            if game == "aetherya" or (game == "forgotten" and "width=4" not in spec):
                continue  # Aetherya solves hands (EXTRA); Forgotten solves small boards
            out.append([game, "solve", positions[0], *rules, *SOLVE_LIMITS[game]])
    for kind, difficulty in PUZZLES[game]:
        out.append([game, "generate", "--kind", kind, "--difficulty", difficulty, "--count", "2", "--seed", "7"])
    return [argv + ["--json"] for argv in out + EXTRA.get(game, [])]


def wide_cases(games: list[str], cwd: str) -> dict[str, str]:
    """The ``--wide`` outputs, named ``<game>.wide.<verb>.<hash of the command>`` (the command is the file's first
    line)."""
    out: dict[str, str] = {}
    for game in games:
        for argv in wide_commands(game):
            digest = hashlib.sha1(json.dumps(argv).encode()).hexdigest()[:12]
            out[f"{game}.wide.{argv[1]}.{digest}"] = json.dumps(argv) + "\n" + run(argv, cwd)
    return out


def cases(games: list[str], cwd: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for game in games:
        dealt = run([game, "new", "--seed", "3"], cwd).split("--- exit")[0].strip()
        out[f"{game}.new"] = dealt
        for fmt in ((), ("--json",)):
            tag = "json" if fmt else "text"
            out[f"{game}.hint.{tag}"] = run([game, "hint", dealt, "--nodes", HINT_NODES, *fmt], cwd)
            out[f"{game}.generate.{tag}"] = run([game, "generate", "--difficulty", "easy", "--count", "2",
                                                  "--seed", "1", *fmt], cwd)
            out[f"{game}.selfplay.{tag}"] = run([game, "selfplay", "--count", "2", "--seed", "1", *fmt], cwd)
            problem, spec = SOLVE[game]
            args = [game, "solve", problem or dealt, "--nodes", HINT_NODES, *fmt]
            if spec:
                args += ["--game", spec]
            out[f"{game}.solve.{tag}"] = run(args, cwd)
        queries = [
            {"id": "h", "game": game, "action": "hint", "state": dealt, "limits": {"nodes": int(HINT_NODES)}},
            {"id": "g", "game": game, "action": "generate", "difficulty": "easy", "seed": 1, "index": 1},
            {"id": "s", "game": SOLVE[game][1] or game, "action": "solve", "state": problem_json(SOLVE[game][0] or dealt),
             "limits": {"nodes": int(HINT_NODES)}},
        ]
        for query in queries:
            answer = run(["engine"], cwd, json.dumps(query) + "\n")
            out[f"{game}.engine.{query['action']}"] = answer
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("directory")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--wide", action="store_true", help="also every rule set, played positions, views, hard "
                                                            "hands (the kernels' cases, about 170 more commands)")
    args = parser.parse_args()
    from solver.registry import game_names
    games = args.game or game_names()
    folder = Path(args.directory)
    with tempfile.TemporaryDirectory() as scratch:
        found = cases(games, scratch)
        if args.wide:
            found.update(wide_cases(games, scratch))
    if args.mode == "record":
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in found.items():
            (folder / f"{name}.txt").write_text(text)
        print(f"recorded {len(found)} outputs in {folder}")
        return 0
    differ = [name for name, text in found.items()
              if without_seconds((folder / f"{name}.txt").read_text()) != without_seconds(text)]
    for name in differ:
        print(f"DIFFERS: {name}")
    print(f"{len(found) - len(differ)} of {len(found)} outputs identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
