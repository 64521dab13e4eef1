"""Puzzles and self-play in the one format (issue 14): per-item streams, ids, --start, --jobs, JSON lines."""

from __future__ import annotations

import json

import pytest

from solver import contract
from solver.aetherya.game import AetheryaGame
from solver.cli import main
from solver.puzzles import generate, parse_puzzle_id
from solver.selfplay import selfplay, summarize
from solver.testing import command_line


def cli(capfd, *args):
    """``memory-solver aetherya ARGS`` in this process: its standard output."""
    run = command_line(main, ["aetherya", *args], capfd)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_generate_json_lines_are_the_same_with_two_processes_and_ids_regenerate(capfd):
    one = cli(capfd, "generate", "--kind", "legend-race", "--difficulty", "easy", "--count", "3", "--seed", "5",
              "--json")
    two = cli(capfd, "generate", "--kind", "legend-race", "--difficulty", "easy", "--count", "3", "--seed", "5",
              "--json", "--jobs", "2")
    assert one == two and len(one.splitlines()) == 3
    puzzles = [json.loads(line) for line in one.splitlines()]
    assert [p["id"] for p in puzzles] == [f"aetherya-legend-race-easy-5-{i}" for i in range(3)]
    again = cli(capfd, "generate", "--id", puzzles[2]["id"], "--json")
    assert again.splitlines() == [one.splitlines()[2]]
    resumed = cli(capfd, "generate", "--kind", "legend-race", "--difficulty", "easy", "--start", "1", "--count",
                  "2", "--seed", "5", "--json")
    assert resumed.splitlines() == one.splitlines()[1:]
    text = cli(capfd, "generate", "--kind", "legend-race", "--difficulty", "easy", "--seed", "5")
    assert text.startswith("aetherya-legend-race-easy-5-0\nlegend-race (easy)") and "{" not in text


def test_puzzle_ids_name_the_difficulty_and_the_kinds_are_kept():
    game = AetheryaGame()
    assert contract.puzzle_kinds(game) == ("best-kingdom", "legend-race")
    ids = {next(generate(game, "legend-race", d, seed=11))["id"] for d in ("easy", "medium")}
    assert ids == {f"aetherya-legend-race-{d}-11-0" for d in ("easy", "medium")}  # once the same for every one
    assert parse_puzzle_id("aetherya-best-kingdom-hard-11-0") == ("aetherya", "best-kingdom", "hard", 11, 0)


def test_selfplay_json_lines_are_the_same_with_two_processes_and_resume(capfd):
    args = ["selfplay", "--policies", "greedy,random", "--count", "3", "--seed", "2", "--json"]
    one = cli(capfd, *args)
    assert cli(capfd, *args, "--jobs", "2") == one
    lines = [json.loads(line) for line in one.splitlines()]
    assert [item.get("index") for item in lines[:3]] == [0, 1, 2] and "summary" in lines[3]
    resumed = cli(capfd, "selfplay", "--policies", "greedy,random", "--start", "1", "--count", "2", "--seed", "2",
                  "--json")
    assert resumed.splitlines()[:2] == one.splitlines()[1:3]


@pytest.mark.parametrize("mode", ["base", "solo", "coop"])
def test_selfplay_rotates_seats_in_the_competitive_modes_and_pairs_the_policies(mode):
    game = AetheryaGame().configure(mode=mode)
    items = list(selfplay(game, ("greedy", "random"), seed=4, count=2))
    for item in items:
        games = item["games"]
        if mode == "base":
            assert [g["seats"] for g in games] == [["greedy", "random"], ["random", "greedy"]]
            assert set(item["outcomes"]) == {"greedy", "random", "greedy wins", "random wins"}
        else:
            assert [g["seats"][0] for g in games] == ["greedy", "random"]
        assert all(g["moves"] for g in games)
    summary = summarize(items)
    pairs = {(p["a"], p["b"]) for p in summary["paired"]}
    assert ("greedy", "random") in pairs and ("greedy", "random wins") not in pairs
