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


def test_the_fuzzer_against_the_http_layer_gets_a_clean_json_answer_for_every_request():
    """The same mutations through the web board in process (solver.fuzz.http_campaign), plus damaged requests
    (method, path, Content-Type, Origin, Host, bytes, sizes): every response is JSON with the security headers,
    never a 500, a readable id echoed, one final answer per turn."""
    from solver.fuzz import check_http_answers, http_campaign, run_http_campaign
    from solver.web.server import build_app
    from solver.datafiles import unrestrict
    cases = http_campaign(400, seed=20261205, queries=base_queries())
    try:
        counts = check_http_answers(cases, run_http_campaign(cases, build_app(threads=2, max_time_ms=50)))
    finally:
        unrestrict()  # the board allows only the package's data files; the rest of the suite may name others
    assert counts.get("200", 0) > 40 and counts.get("400", 0) > 100, counts
    assert {"403", "404", "405", "413", "415"} <= set(counts), counts
