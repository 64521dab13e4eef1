"""Shared fixtures. (Tests import the installed ``solver``; see ``--import-mode=importlib`` in pyproject.)"""

import fcntl
import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from solver import registry
from solver.testing import TimedLines, serving


TOYGAME = "memory_solver_tests_toygame"

#: Property tests draw the same examples in every run (Hypothesis's ``derandomize``: a seed from each test), so the
#: suite's outcome and time are the same from one run to the next; ``HYPOTHESIS_PROFILE=explore pytest ...`` draws
#: new examples each run, to look for cases the fixed ones miss.
settings.register_profile("suite", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


#: whether the test after this one on this worker is marked ``serial`` too (set by ``pytest_runtest_protocol``)
NEXT_IS_SERIAL = pytest.StashKey[bool]()
#: the locks (``RunLocks``) this worker holds from one serial test to the next
_held_exclusive: list = []

#: Test files that run on one core and start no process, server, browser or thread pool (paths under tests/; a
#: folder ends with "/"). A serial test may run beside them: it needs a core of its own, not the whole machine.
LIGHT_FILES = ("twins/", "openspiel/", "test_openspiel.py")
#: ... except these (a kernel compiled by gcc in a subprocess)
NOT_LIGHT_FILES = ("twins/test_portable_build.py",)
#: Serial tests under these folders need the whole machine, light tests included: a browser and a server beside
#: the test use more than one core.
WHOLE_MACHINE_FILES = ("web/",)


def _relative(path: Path) -> str:
    return path.relative_to(Path(__file__).parent).as_posix()


def _matches(relative: str, patterns: tuple[str, ...]) -> bool:
    return any(relative == p or (p.endswith("/") and relative.startswith(p)) for p in patterns)


def is_light_file(path: Path) -> bool:
    """Whether the tests of ``path`` are light (``LIGHT_FILES``): a serial test may run beside them."""
    relative = _relative(path)
    return _matches(relative, LIGHT_FILES) and not _matches(relative, NOT_LIGHT_FILES)


def _is_serial(item) -> bool:
    return item.get_closest_marker("serial") is not None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Tell ``_serial_when_marked`` whether the worker's next test is serial too (xdist knows it before a test
    starts)."""
    item.stash[NEXT_IS_SERIAL] = nextitem is not None and _is_serial(nextitem)
    yield


class RunLocks:
    """The locks one test holds while it runs under pytest-xdist (``_serial_when_marked``), in ``folder`` (the
    run's, shared by its workers). Two locks, taken in this order: ``machine.lock``, shared by every test but a
    serial one that needs the whole machine (exclusive), and ``cores.lock``, shared by every test that is not light
    and exclusive for a serial one; light tests take no other. A turnstile, held by a serial test while it waits
    and runs, lets it in before the next test that is not light (a light one needs no turn)."""

    KINDS = ("light", "plain", "serial", "whole machine")
    #: the kinds of a test marked ``serial``
    SERIAL = ("serial", "whole machine")

    def __init__(self, folder: Path):
        self.turnstile, self.machine, self.cores = (
            open(folder / name, "a") for name in ("serial.turnstile", "machine.lock", "cores.lock"))

    def take(self, kind: str, blocking: bool = True) -> bool:
        """Take the locks of a test of ``kind`` (one of ``KINDS``); without ``blocking``, whether they were free
        (when not, nothing is held)."""
        serial = kind in RunLocks.SERIAL
        steps = [] if kind == "light" else [(self.turnstile, fcntl.LOCK_EX)]
        steps.append((self.machine, fcntl.LOCK_EX if kind == "whole machine" else fcntl.LOCK_SH))
        if kind != "light":
            steps.append((self.cores, fcntl.LOCK_EX if serial else fcntl.LOCK_SH))
        taken = []
        try:
            for file, mode in steps:
                fcntl.flock(file, mode if blocking else mode | fcntl.LOCK_NB)
                taken.append(file)
        except BlockingIOError:
            for file in taken:
                fcntl.flock(file, fcntl.LOCK_UN)
            return False
        if not serial and kind != "light":
            fcntl.flock(self.turnstile, fcntl.LOCK_UN)
        return True

    def keep_for(self, kind: str) -> None:
        """Held since the previous serial test of a run of them: hold the machine as the next one, of ``kind``,
        needs it."""
        fcntl.flock(self.machine, fcntl.LOCK_EX if kind == "whole machine" else fcntl.LOCK_SH)

    def release(self) -> None:
        for file in (self.turnstile, self.machine, self.cores):
            fcntl.flock(file, fcntl.LOCK_UN)
            file.close()


def lock_kind(item) -> str:
    """``light``, ``plain``, ``serial`` or ``whole machine`` (``RunLocks.KINDS``): what a test may run beside."""
    if not _is_serial(item):
        return "light" if is_light_file(item.path) else "plain"
    return "whole machine" if _matches(_relative(item.path), WHOLE_MACHINE_FILES) else "serial"


@pytest.fixture(autouse=True)
def _serial_when_marked(request, tmp_path_factory):
    """Tests marked ``serial`` (wall-clock caps: a search stops at its time limit, terminate answers within
    200 ms) get a core of their own when pytest-xdist runs the suite on several workers (``RunLocks``): beside a
    serial test the other worker runs light tests only (``LIGHT_FILES``: one core, no process), and beside a
    serial one of ``WHOLE_MACHINE_FILES`` nothing. A run of serial tests on one worker (a whole serial file) keeps
    the locks from one to the next, so the other worker waits once for the run. Without xdist there is no lock."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    kind = lock_kind(request.node)
    if kind in RunLocks.SERIAL and _held_exclusive:
        locks = _held_exclusive.pop()             # held since the previous serial test
        locks.keep_for(kind)
    else:
        locks = RunLocks(tmp_path_factory.getbasetemp().parent)  # this run's folder, shared by its workers
        locks.take(kind)
    try:
        yield
    finally:
        if kind in RunLocks.SERIAL and request.node.stash.get(NEXT_IS_SERIAL, False):
            _held_exclusive.append(locks)
        else:
            locks.release()


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


def pytest_configure(config):
    """The order of ``pytest_collection_modifyitems`` is the order the files run in: pytest-xdist's ``loadfile``
    would otherwise start the files with the most tests first (its ``--loadscope-reorder``, on by default)."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def _interleaved(first: list, second: list) -> list:
    """first[0], second[0], first[1], second[1]... then what is left of the longer list."""
    merged = [x for pair in zip(first, second) for x in pair]
    shorter = min(len(first), len(second))
    return merged + first[shorter:] + second[shorter:]


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist, the order of the files (every worker collects the same order, as xdist requires; the
    tests of a file keep theirs): first the files with serial tests outside ``WHOLE_MACHINE_FILES``, each
    followed by a light file, so that the worker beside a serial run has a light file to run; then the rest of
    the light files and the other files, ``LONGEST_FILES`` first, longest first, and the many short files fill
    in behind them. Without xdist nothing moves."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    rank = {name: place for place, name in enumerate(LONGEST_FILES)}
    by_file: dict[Path, list] = {}
    for item in items:
        by_file.setdefault(item.path, []).append(item)
    files = sorted(by_file, key=lambda path: rank.get(_relative(path), len(rank)))  # stable: pytest's order
    serial = [f for f in files if any(_is_serial(item) for item in by_file[f])
              and not _matches(_relative(f), WHOLE_MACHINE_FILES)]
    light = [f for f in files if is_light_file(f) and f not in serial]
    paired = _interleaved(serial, light[:len(serial)])
    order = paired + [f for f in files if f not in paired]
    items[:] = [item for f in order for item in by_file[f]]


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
