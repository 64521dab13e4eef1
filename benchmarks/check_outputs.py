"""Record the outputs that must stay byte-identical across a refactoring, and compare them later (issue 21).

For every registered game: ``generate``, ``selfplay``, ``hint --nodes`` and ``solve`` through the command line
(JSON and text) and the same through the engine (``memory-solver engine``). Outputs with a seed or a ``nodes``
budget must not change; wall-clock figures (``seconds``, ``timeMs``, "in 0.2 s") are taken out before comparing::

    python benchmarks/check_outputs.py record /tmp/outputs-before     # on the old code
    python benchmarks/check_outputs.py compare /tmp/outputs-before    # on the new code: lists every difference

Every command runs in a fresh process (``python -m solver``) from a scratch directory, as a user would run it.
"""

from __future__ import annotations

import argparse
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
    return "\n".join("<seconds>" if re.search(r"\b(seconds|[0-9.]+ ?s\b)", line) and not line.startswith("{")
                     else line for line in text.splitlines()) + "\n"


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
    args = parser.parse_args()
    from solver.registry import game_names
    games = args.game or game_names()
    folder = Path(args.directory)
    with tempfile.TemporaryDirectory() as scratch:
        found = cases(games, scratch)
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
