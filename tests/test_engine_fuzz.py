"""Seeded fuzzing of the engine (solver/fuzz.py): 2,000 mutated queries over every game and action."""

import time

from solver.registry import game_names
from solver.fuzz import base_queries, campaign, check_answers, run_campaign


def test_two_thousand_mutated_queries_each_get_one_clean_answer():
    queries = base_queries()
    actions = {q.get("action") for q in queries}
    games = {q.get("game") for q in queries}
    assert {"hint", "solve", "score", "legal_moves", "apply", "view", "show", "new", "review"} <= actions
    assert set(game_names()) <= games
    lines = campaign(2000, seed=20261201, queries=queries)
    start = time.perf_counter()
    answers = run_campaign(lines)
    counts = check_answers(lines, answers)
    assert counts["errors"] > 500 and counts["answers"] > 100, counts  # both kinds are exercised
    assert time.perf_counter() - start < 600  # a hang would fail here rather than stall the suite
