"""The suite's own schedule under pytest-xdist (tests/conftest.py): a ``serial`` test gets a core of its own, light
tests may run beside it, and the files run in the order the conftest gives them.

A made-up suite with the real conftest runs on two workers; each of its tests sleeps and writes when it ran."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import RunLocks, _interleaved, is_light_file

HERE = Path(__file__).parent
SLEEP_S = 0.1

TEST_FILE = '''
import json, os, time
import pytest

SERIAL = {serial}


@pytest.mark.parametrize("k", [pytest.param(k, marks=[pytest.mark.serial] * (k in SERIAL)) for k in range({count})])
def test_sleeps(k):
    start = time.monotonic()
    time.sleep({sleep})
    name = __name__.rpartition(".")[2] + ("[serial]" if k in SERIAL else "")
    with open(os.environ["SCHEDULE_LOG"], "a") as log:
        log.write(json.dumps([name, os.environ["PYTEST_XDIST_WORKER"], start, time.monotonic()]) + "\\n")
'''


def _write(folder: Path, relative: str, count: int, serial: range = range(0)) -> None:
    """A test file of ``count`` sleeps, those numbered in ``serial`` marked ``serial``."""
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TEST_FILE.format(count=count, sleep=SLEEP_S, serial=set(serial) or "set()"))


def _overlap(a, b) -> float:
    return min(a[3], b[3]) - max(a[2], b[2])


def test_light_files_are_the_listed_folders_but_the_excepted_files():
    assert is_light_file(HERE / "twins" / "test_aetherya_score.py")
    assert is_light_file(HERE / "openspiel" / "test_batched.py")
    assert is_light_file(HERE / "test_openspiel.py")
    assert not is_light_file(HERE / "twins" / "test_portable_build.py")
    assert not is_light_file(HERE / "test_openspiel_more.py")
    assert not is_light_file(HERE / "web" / "test_browser.py")


def test_interleaved_alternates_then_keeps_the_rest():
    assert _interleaved([1, 2, 3], ["a"]) == [1, "a", 2, 3]
    assert _interleaved([1], ["a", "b"]) == [1, "a", "b"]


#: (the kind of test holding its locks, the kind of test that wants to start): whether it may
MAY_START_BESIDE = {
    ("light", "light"): True, ("light", "plain"): True, ("light", "serial"): True, ("light", "whole machine"): False,
    ("plain", "light"): True, ("plain", "plain"): True, ("plain", "serial"): False, ("plain", "whole machine"): False,
    ("serial", "light"): True, ("serial", "plain"): False, ("serial", "serial"): False,
    ("serial", "whole machine"): False,
    ("whole machine", "light"): False, ("whole machine", "plain"): False, ("whole machine", "serial"): False,
    ("whole machine", "whole machine"): False,
}


@pytest.mark.parametrize(("held", "wanted"), MAY_START_BESIDE)
def test_which_test_may_start_beside_which(tmp_path, held, wanted):
    """flock locks of two open files conflict as two workers' would; without blocking, a take says whether the
    locks were free."""
    holder, other = RunLocks(tmp_path), RunLocks(tmp_path)
    assert holder.take(held)
    try:
        assert other.take(wanted, blocking=False) == MAY_START_BESIDE[held, wanted]
    finally:
        other.release()
        holder.release()
    again = RunLocks(tmp_path)
    assert again.take("whole machine", blocking=False), "a refused take left a lock held"
    again.release()


@pytest.mark.slow
def test_under_xdist_a_serial_file_runs_first_beside_a_light_one_and_a_serial_web_test_beside_none(tmp_path):
    """A made-up suite with the real conftest on two workers: its serial file and the first light file start
    together and run side by side; no serial test overlaps a test of another kind; the serial web test, which
    comes last, waits for the long light file to end."""
    suite = tmp_path / "tests"
    suite.mkdir()
    shutil.copy(HERE / "conftest.py", suite / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    serial: a wall-clock cap\n")
    _write(suite, "test_capped.py", 4, serial=range(4))
    _write(suite, "openspiel/test_first_light.py", 4)
    _write(suite, "test_heavy.py", 2)
    _write(suite, "twins/test_light.py", 6)   # the most tests: pytest-xdist alone would start this file first
    _write(suite, "web/test_page_capped.py", 2, serial=range(2))
    log = tmp_path / "schedule.jsonl"
    env = {**os.environ, "SCHEDULE_LOG": str(log)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadfile", "-p", "no:cacheprovider",
                           "-q", "--import-mode=importlib", "tests"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(runs) == 18
    first = {worker: min((r for r in runs if r[1] == worker), key=lambda r: r[2])[0] for worker in ("gw0", "gw1")}
    assert sorted(first.values()) == ["test_capped[serial]", "test_first_light"], first
    beside_light = 0
    for serial in (r for r in runs if r[0].endswith("[serial]")):
        for other in runs:
            if other[1] == serial[1] or _overlap(serial, other) <= 0.02:
                continue
            assert serial[0] == "test_capped[serial]" and other[0] in ("test_light", "test_first_light"), \
                f"{other[0]} ran beside {serial[0]}"
            beside_light += 1
    assert beside_light > 0, "no light test ran beside a serial one: the other worker idled"
