"""Runs at scale (issue 14): one format everywhere, interrupted runs keep valid lines and resume, Ray gives the
same bytes as local processes (one cluster for the file). The per-game checks are in tests/<game>/; these use real
games end to end."""

import functools
import json
import os
import signal
import subprocess
import sys

import pytest

from solver import cli, contract
from solver.registry import game_names, load_game
from solver.scale import run_items
from solver.testing import command_line

CLI = [sys.executable, "-c", "import sys; from solver.cli import main; sys.exit(main())"]


def run(args, tmp_path, **kw):
    return subprocess.run(CLI + args, capture_output=True, text=True, timeout=300, cwd=tmp_path, **kw)


def test_an_interrupted_run_keeps_whole_lines_and_start_resumes_it(tmp_path):
    args = ["forgotten", "selfplay", "--fast", "--seed", "9", "--json"]
    whole = run(args + ["--count", "3000"], tmp_path).stdout.splitlines()[:-1]  # without the summary line
    # unbuffered: reading the first line leaves the lines after it in the pipe for communicate()
    proc = subprocess.Popen(CLI + args + ["--count", "3000", "--progress"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0, cwd=tmp_path)
    first = proc.stdout.readline()    # a game written: interrupt the run there (3,000 games take about 1 s alone)
    proc.send_signal(signal.SIGINT)
    out, err = (stream.decode() for stream in proc.communicate(timeout=60))
    lines = (first.decode() + out).splitlines()
    assert proc.returncode in (0, 130)
    kept = [json.loads(line) for line in lines if not line.startswith('{"summary"')]  # every line is whole JSON
    assert kept and [item["index"] for item in kept] == list(range(len(kept)))
    rest = run(args + ["--start", str(len(kept)), "--count", str(3000 - len(kept))], tmp_path).stdout.splitlines()
    assert [json.dumps(k) for k in kept] == [json.dumps(json.loads(l)) for l in whole[:len(kept)]]
    assert rest[:-1] == whole[len(kept):]
    assert "%" in err or "games" in err or proc.returncode == 0  # the progress bar goes to stderr, never stdout


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    """One local Ray cluster for this file's Ray tests (starting one takes seconds): the executor uses a cluster
    already running in the process and leaves it running (solver/scale.py). It starts from a folder of its own: Ray's
    workers import from the driver's working folder first, and from the repository's root that is the uncompiled
    source tree instead of the installed build (which failed CI)."""
    ray = pytest.importorskip("ray", reason="pip install 'memory-solver[ray]' to run the Ray executor")
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("ray"))
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    finally:
        os.chdir(here)
    yield ray
    ray.shutdown()


def test_a_local_ray_cluster_writes_the_same_puzzles_as_one_process(ray_cluster, capsys):
    args = ["forgotten", "generate", "--kind", "forced-connection", "--difficulty", "easy", "--seed", "4",
            "--count", "4", "--json"]
    assert cli.main(args) == 0
    one = capsys.readouterr().out
    assert cli.main(args + ["--executor", "ray", "--jobs", "2"]) == 0
    ray = capsys.readouterr()
    assert ray.out == one and len(one.splitlines()) == 4, ray.err
    assert ray_cluster.is_initialized()  # the cluster of the fixture served it


def test_a_local_ray_cluster_gives_the_same_items_in_the_same_order(ray_cluster):
    """Moved here from tests/test_shared_layer.py (issue 24) to share the cluster."""
    task = functools.partial(pow, 7)
    assert list(run_items(task, 3, 9, jobs=2, executor="ray")) == [7**i for i in range(3, 12)]


@pytest.mark.parametrize("game", game_names())
def test_every_games_generate_and_selfplay_write_one_json_line_per_item(game, capfd):
    g = load_game(game)
    assert contract.puzzle_kinds(g) and contract.selfplay_policies(g), f"{game} has no puzzles or no self-play"
    puzzles = command_line(cli.main, [game, "generate", "--difficulty", "easy", "--count", "2", "--seed", "1", "--json"],
                           capfd)
    assert puzzles.returncode == 0, puzzles.stderr
    items = [json.loads(line) for line in puzzles.stdout.splitlines()]
    assert [p["index"] for p in items] == [0, 1] and all(p["id"].startswith(game) for p in items)
    games = command_line(cli.main, [game, "selfplay", "--count", "2", "--seed", "1", "--json"], capfd)
    assert games.returncode == 0, games.stderr
    lines = [json.loads(line) for line in games.stdout.splitlines()]
    assert [item["index"] for item in lines[:-1]] == [0, 1] and "summary" in lines[-1]
    assert all("outcomes" in item and item["id"] for item in lines[:-1])
