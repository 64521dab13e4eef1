"""The layers of docs/architecture.md, held by reading the source: games never import the layers that drive
them, no import cycles (imports inside functions count), an import inside a function says why (start-up
speed), and every game folder has the same files for the same jobs."""

from __future__ import annotations

import pytest

from .architecture import PACKAGE, all_imports, cycles
from solver.registry import GAMES

#: games whose folder is still being moved to the standard layout (issue 21); each leaves this set when done
STILL_MOVING: set[str] = set()
#: shared modules whose imports inside functions are still being sorted out; each leaves this set when done
SHARED_STILL_MOVING: set[str] = {"solver.openspiel", "solver.fuzz"}

ABOVE_THE_GAMES = ("solver.cli", "solver.commands", "solver.engine", "solver.api", "solver.web", "solver.service",
                   "solver.record", "solver.review", "solver.puzzles", "solver.selfplay", "solver.scale",
                   "solver.pictures", "solver.openspiel", "solver.contract")
#: the front doors: they parse input and print or send output, and reach the games only through the service
FRONT_DOORS = ("solver.cli", "solver.commands", "solver.engine", "solver.api", "solver.web")
STANDARD_FILES = ("game.py", "state.py", "view.py", "notation.py", "knowledge.py", "hints.py", "solve.py",
                  "puzzles.py", "selfplay.py", "picture.py", "text.py", "commands.py")
#: standard jobs under other names (text, hints, self-play, knowledge, rules meaning three things), or front
#: doors inside a game
NOT_IN_A_GAME = ("cli.py", "demo.py", "render.py", "describe.py", "hinting.py", "runs.py", "hidden.py",
                 "worlds.py", "rules.py", "session.py", "examples.py")
GAME_PY_MAX_LINES = 160

IMPORTS = all_imports()
PACKAGES = {name: where for name, where in GAMES.items() if ":" not in where}


def _game_of(module: str) -> str | None:
    return next((name for name, package in PACKAGES.items()
                 if module == package or module.startswith(package + ".")), None)


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_a_game_never_imports_a_layer_above_it_or_another_game(game):
    if game in STILL_MOVING:
        pytest.skip(f"{game} is still moving to the standard layout (issue 21)")
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in IMPORTS
             if _game_of(i.importer) == game and (i.imported.startswith(ABOVE_THE_GAMES)
                                                  or _game_of(i.imported) not in (None, game))]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle_outside_the_games_still_moving():
    def moving(module: str) -> bool:
        game = _game_of(module)
        return (game in STILL_MOVING) or module.startswith(tuple(SHARED_STILL_MOVING))

    found = [c for c in cycles(IMPORTS) if not all(moving(m) for m in c)]
    assert not found, "\n".join(" <-> ".join(c) for c in found)


def test_an_import_inside_a_function_says_it_is_lazy_for_start_up():
    def moving(module: str) -> bool:
        return _game_of(module) in STILL_MOVING or module.startswith(tuple(SHARED_STILL_MOVING))

    unexplained = [f"{i.importer}:{i.line} imports {i.imported}" for i in IMPORTS
                   if i.in_function and not moving(i.importer) and "lazy" not in i.comment.lower()]
    assert not unexplained, "\n".join(unexplained)


def test_the_front_doors_reach_the_games_only_through_the_service():
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in IMPORTS
             if i.importer.startswith(FRONT_DOORS) and i.imported == "solver.contract"]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_every_game_folder_has_the_same_files_for_the_same_jobs(game):
    if game in STILL_MOVING:
        pytest.skip(f"{game} is still moving to the standard layout (issue 21)")
    folder = PACKAGE / game
    missing = [f for f in STANDARD_FILES if not (folder / f).exists()]
    misnamed = [f for f in NOT_IN_A_GAME if (folder / f).exists()]
    assert not missing and not misnamed, f"missing {missing}, misnamed {misnamed}"
    lines = len((folder / "game.py").read_text(encoding="utf-8").splitlines())
    assert lines <= GAME_PY_MAX_LINES, f"{game}/game.py has {lines} lines (at most {GAME_PY_MAX_LINES})"


def test_the_checker_sees_function_level_imports_and_cycles():
    """The checker itself: the known cycle of a game still moving is found (or none remain to find)."""
    assert any(i.in_function for i in IMPORTS)
    assert all(isinstance(c, list) and len(c) > 1 for c in cycles(IMPORTS))
