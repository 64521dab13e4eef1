"""Puzzle generation and self-play at scale (issue 14): one format, per-item streams, the same lines on 1 or 2
processes, --id and --start."""

import json

import pytest

from solver.cli import main
from solver.puzzles import generate
from solver.registry import load_game
from solver.selfplay import selfplay, summarize
from solver.testing import command_line


def cli(capfd, *args):
    """``memory-solver embers ARGS`` in this process: its standard output."""
    run = command_line(main, ["embers", *args], capfd)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("command", [
    ("generate", "--difficulty", "easy", "--seed", "4", "--count", "3", "--json"),
    ("selfplay", "--policies", "greedy,random", "--seed", "4", "--count", "3", "--json"),
])
def test_same_seed_same_lines_on_one_or_two_processes(capfd, command):
    one = cli(capfd, *command, "--jobs", "1")
    two = cli(capfd, *command, "--jobs", "2")
    assert one == two and len(one.splitlines()) >= 3


def test_generate_lines_follow_the_one_format_and_regenerate_from_their_id(capfd):
    game = load_game("embers")
    run = list(generate(game, "blink", "easy", seed=6, count=3))
    for i, puzzle in enumerate(run):
        assert list(puzzle)[:6] == ["id", "game", "kind", "difficulty", "seed", "index"]
        assert (puzzle["id"], puzzle["kind"], puzzle["index"]) == (f"embers-blink-easy-6-{i}", "blink", i)
    line = cli(capfd, "generate", "--id", run[2]["id"], "--json")
    assert json.loads(line) == run[2]
    assert list(generate(game, "blink", "easy", seed=6, start=1, count=2)) == run[1:]
    text = cli(capfd, "generate", "--id", run[0]["id"])
    assert text.startswith(run[0]["id"]) and "Row:" in text and run[0]["solution"][0] not in text


def test_selfplay_pairs_the_policies_on_one_deal():
    game = load_game("embers")
    results = list(selfplay(game, ("greedy", "random"), seed=2, count=3))
    assert [r["id"] for r in results] == [f"embers-selfplay-2-{i}" for i in range(3)]
    for r in results:
        assert set(r["outcomes"]) == {"greedy", "random"} and set(r["outcomes"].values()) <= {0, 1}
        replay = game.apply(game.new_game(r["deal"]), r["moves"]["greedy"])
        assert replay.is_terminal() and replay.result == r["results"]["greedy"]
    assert list(selfplay(game, ("greedy", "random"), seed=2, start=2, count=1)) == results[2:]
    pair = summarize(results)["paired"][0]
    assert (pair["a"], pair["b"], pair["deals"]) == ("greedy", "random", 3)
