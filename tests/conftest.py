"""Shared fixtures. (Tests import the installed ``solver``; see ``--import-mode=importlib`` in pyproject.)"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from solver import registry
from solver.testing import TimedLines, serving


TOYGAME = "memory_solver_tests_toygame"


def _load_toygame():
    """The toy game's package (tests/toygame/), importable by name so that the registry finds its modules."""
    if TOYGAME not in sys.modules:
        folder = Path(__file__).with_name("toygame")
        spec = importlib.util.spec_from_file_location(TOYGAME, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[TOYGAME] = module
        spec.loader.exec_module(module)
    return importlib.import_module(f"{TOYGAME}.game")


@pytest.fixture
def pile_game(monkeypatch):
    """Registers the toy game ``pile`` (tests/toygame/) with one registry line, as a real game is."""
    module = _load_toygame()
    monkeypatch.setitem(registry.GAMES, "pile", TOYGAME)
    return module.GAME()


@pytest.fixture
def engine_answers():
    """``engine_answers(query, ...)``: the queries sent to an in-process engine one after the other, then every
    answer line (interim reports included) as a dict, once the engine has finished them all."""
    from solver.engine import Engine

    def answers(*queries):
        out = TimedLines()
        engine = Engine(out)
        for query in queries:
            engine.handle_line(json.dumps(query))
        engine.close()
        return out.answers()
    return answers


def _engine_seat_limits(game):
    """An engine seat's move in the tests: a small node budget (the same move on every machine, and quick)."""
    from solver.search import Limits
    return Limits(nodes=40, time_ms=2000)


@pytest.fixture(scope="session")
def engine_seat_limits():
    """``engine_seat_limits(game)``: the limits of an engine seat's move on the test servers."""
    return _engine_seat_limits


@pytest.fixture
def live_server(pile_game, tmp_path):
    """The web board at http://127.0.0.1:PORT with the toy game 'pile' registered beside the five games, its games
    kept in a database of the test's own."""
    from solver.datafiles import unrestrict
    from solver.web.server import build_app
    app = build_app(threads=2, db=tmp_path / "games.sqlite3", engine_limits=_engine_seat_limits)
    try:
        with serving(app, log_level="warning", lifespan="on") as url:
            yield url, app
    finally:
        unrestrict()
