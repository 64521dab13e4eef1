"""The layers of docs/architecture.md, held by reading the source: games never import the layers that drive
them, no import cycles (imports inside functions count), an import inside a function says why (start-up
speed), and every game folder has the same files for the same jobs."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from .architecture import PACKAGE, ROOT, all_imports, cycles, imports_of
from solver.registry import GAMES

ABOVE_THE_GAMES = ("solver.cli", "solver.commands", "solver.engine", "solver.api", "solver.web", "solver.service",
                   "solver.record", "solver.review", "solver.puzzles", "solver.selfplay", "solver.scale",
                   "solver.pictures", "solver.openspiel", "solver.contract")
#: the front doors: they parse input and print or send output, and reach the games only through the service
FRONT_DOORS = ("solver.cli", "solver.commands", "solver.engine", "solver.api", "solver.web")
STANDARD_FILES = ("game.py", "state.py", "view.py", "notation.py", "knowledge.py", "hints.py", "solve.py",
                  "puzzles.py", "selfplay.py", "picture.py", "text.py", "commands.py", "openspiel.py")
#: standard jobs under other names (text, hints, self-play, knowledge, rules meaning three things), or front
#: doors inside a game
NOT_IN_A_GAME = ("cli.py", "demo.py", "render.py", "describe.py", "hinting.py", "runs.py", "hidden.py",
                 "worlds.py", "rules.py", "session.py", "examples.py")
GAME_PY_MAX_LINES = 160

PACKAGES = {name: where for name, where in GAMES.items() if ":" not in where}


@functools.cache
def imports():
    """Every import in the package, parsed once and only by the worker that runs these tests (not at collection)."""
    return all_imports()


def _game_of(module: str) -> str | None:
    return next((name for name, package in PACKAGES.items()
                 if module == package or module.startswith(package + ".")), None)


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_a_game_never_imports_a_layer_above_it_or_another_game(game):
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in imports()
             if _game_of(i.importer) == game and (i.imported.startswith(ABOVE_THE_GAMES)
                                                  or _game_of(i.imported) not in (None, game))]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    found = cycles(imports())
    assert not found, "\n".join(" <-> ".join(c) for c in found)


def test_an_import_inside_a_function_says_it_is_lazy_for_start_up():
    unexplained = [f"{i.importer}:{i.line} imports {i.imported}" for i in imports()
                   if i.in_function and "lazy" not in i.comment.lower()]
    assert not unexplained, "\n".join(unexplained)


def test_the_front_doors_reach_the_games_only_through_the_service():
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in imports()
             if i.importer.startswith(FRONT_DOORS) and i.imported == "solver.contract"]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_every_game_folder_has_the_same_files_for_the_same_jobs(game):
    folder = PACKAGE / game
    missing = [f for f in STANDARD_FILES if not (folder / f).exists()]
    misnamed = [f for f in NOT_IN_A_GAME if (folder / f).exists()]
    assert not missing and not misnamed, f"missing {missing}, misnamed {misnamed}"
    lines = len((folder / "game.py").read_text(encoding="utf-8").splitlines())
    assert lines <= GAME_PY_MAX_LINES, f"{game}/game.py has {lines} lines (at most {GAME_PY_MAX_LINES})"


def test_the_checker_finds_a_cycle_through_a_function_level_import_and_skips_type_checking(tmp_path):
    """The checker itself, on a made-up package: ``a`` imports ``b`` at the top, ``b`` imports ``a`` inside a
    function (a cycle), and ``c`` imports ``a`` only for type checking (no edge)."""
    files = {"solver/a.py": "from solver import b\n",
             "solver/b.py": "def f():\n    import solver.a  # lazy: start-up\n",
             "solver/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from solver.a import X\n"}
    known = {}
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        known[name[:-3].replace("/", ".")] = path
    found = [imp for name, path in known.items() for imp in imports_of(name, path, known)]
    assert [(i.importer, i.imported, i.in_function) for i in found] == [("solver.a", "solver.b", False),
                                                                         ("solver.b", "solver.a", True)]
    assert "lazy" in found[1].comment
    assert cycles(found) == [["solver.a", "solver.b"]]


def _kernels_named_in(path: Path) -> set[str]:
    names: set[str] = set()
    text = path.read_text(encoding="utf-8")
    if "solver.kernels" not in text:    # every import the walk below counts names it: no need to parse the file
        return names
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module == "solver.kernels":
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("solver.kernels."):
            names.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[2] for a in node.names if a.name.startswith("solver.kernels."))
    return names


def test_every_kernel_imported_is_built_from_src_and_has_its_twin():
    """A kernel renamed or split in ``src/`` leaves no import of the old name behind (an editable build keeps the
    old module's binary, so only a clean install, as CI's, would notice). A kernel is one module a game
    (``src/<game>.pyx``) made of parts (``src/<game>_<part>.pxi``); every part has its twin
    ``solver/twins/<game>_<part>.py``, and every kernel has at least one part."""
    built = {p.stem for p in (ROOT / "src").glob("*.pyx")}
    parts = {p.stem for p in (ROOT / "src").glob("*.pxi")}
    twins = {p.stem for p in (PACKAGE / "twins").glob("*.py")}
    missing = []
    for folder in ("solver", "tests", "benchmarks", "docs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            missing += [f"{path.relative_to(ROOT)}: {name}" for name in _kernels_named_in(path) - built]
    assert missing == []
    assert parts <= twins, f"kernel parts without a twin: {sorted(parts - twins)}"
    assert {p.partition("_")[0] for p in parts} == built, "a part whose game has no kernel, or a kernel without parts"
