"""Shared fixtures. (Tests import the installed ``solver``; see ``--import-mode=importlib`` in pyproject.)"""

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from solver import registry
from solver.testing import TimedLines, serving


TOYGAME = "memory_solver_tests_toygame"


#: whether the test after this one on this worker is marked ``serial`` too (set by ``pytest_runtest_protocol``)
NEXT_IS_SERIAL = pytest.StashKey[bool]()
#: the turnstile and lock files while this worker holds the exclusive lock from one serial test to the next
_held_exclusive: list = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Tell ``_serial_when_marked`` whether the worker's next test is serial too (xdist knows it before a test
    starts)."""
    item.stash[NEXT_IS_SERIAL] = nextitem is not None and nextitem.get_closest_marker("serial") is not None
    yield


@pytest.fixture(autouse=True)
def _serial_when_marked(request, tmp_path_factory):
    """Tests marked ``serial`` (wall-clock caps: a search stops at its time limit, terminate answers within
    200 ms) run alone when pytest-xdist runs the suite on several workers: a serial test holds an exclusive
    lock that every other test of the run holds shared, so the other workers wait between two tests; the
    turnstile lets a waiting serial test in before the next shared holder. A run of serial tests on one worker
    (a whole serial file) keeps the lock from one to the next, so the other worker waits once for the run, not
    once a test, and the serial worker does not wait for one of the other worker's tests before each serial
    test. Without xdist there is no lock."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    import fcntl  # lazy: xdist runs on the POSIX CI only
    serial = request.node.get_closest_marker("serial") is not None
    if serial and _held_exclusive:
        files = _held_exclusive.pop()             # held since the previous serial test
    else:
        run = tmp_path_factory.getbasetemp().parent  # this run's folder, shared by its workers
        files = (open(run / "serial.turnstile", "a"), open(run / "serial.lock", "a"))
        turnstile, lock = files
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if serial else fcntl.LOCK_SH)
        finally:
            if not serial:
                fcntl.flock(turnstile, fcntl.LOCK_UN)
    try:
        yield
    finally:
        if serial and request.node.stash.get(NEXT_IS_SERIAL, False):
            _held_exclusive.append(files)
        else:
            turnstile, lock = files
            fcntl.flock(lock, fcntl.LOCK_UN)
            if serial:
                fcntl.flock(turnstile, fcntl.LOCK_UN)
            turnstile.close()
            lock.close()


#: The test files that take longest, longest first (summed seconds in the whole suite's run of 2026-12-06 08:00 on
#: two workers, main 0c673b6, load 2-5). Under pytest-xdist's ``--dist loadfile`` a worker takes the next file as it
#: frees up, in collection order; started last, a long file would leave the other worker idle at the end, so these
#: go first (longest processing time first) and the many short files fill in behind them.
LONGEST_FILES = (
    "web/test_board_ui.py", "web/test_browser.py", "web/test_table_browser.py",  # 85, 59, 33 s
    "twins/test_aetherya_step.py", "web/test_server.py", "web/test_entry.py",  # 29, 25, 25 s
    "test_openspiel.py", "openspiel/test_batched.py", "twins/test_aetherya_play.py",  # 23, 22, 17 s
    "test_engine_limits.py", "test_scale.py", "web/test_tables.py",  # 15, 14, 14 s
)


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist, the tests of ``LONGEST_FILES`` first, longest file first (every worker collects the same
    order, as xdist requires); the other files keep pytest's order. Without xdist nothing moves."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    rank = {name: place for place, name in enumerate(LONGEST_FILES)}
    root = Path(__file__).parent
    items.sort(key=lambda item: rank.get(item.path.relative_to(root).as_posix(), len(rank)))


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


@pytest.fixture(scope="module")
def pile_game_for_module():
    """``pile_game`` for a whole module (a server the module's tests share serves it)."""
    module = _load_toygame()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.GAMES, "pile", TOYGAME)
        yield module.GAME()


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
