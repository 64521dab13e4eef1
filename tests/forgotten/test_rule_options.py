"""Every rule option (``goal``, ``erasure``) reaches every Forgotten service: hint, solve, score, puzzles.

Issue 16: ``solve`` ignored ``goal=clear``; these tests name each service under each goal. The exact values
come from the independent brute force in ``brute_force.py`` (and ``test_exact_independent.py``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.forgotten.knowledge import Model, info_from_state
from solver.forgotten.puzzles import _forced_puzzle, forced_turns
from solver.registry import load_game
from solver.search import Limits, SearchContext
from solver import contract

START = "???/@?@/?.? 0 first"
EXACT = {("clear", "turn"): Fraction(931, 6561), ("path", "turn"): Fraction(227, 243)}


def game(goal: str, erasure: str = "turn"):
    return load_game(f"forgotten(goal={goal},erasure={erasure})")


@pytest.mark.parametrize("goal", ["path", "clear"])
def test_fg14_hint_estimates_the_goals_own_value(goal):
    g = game(goal)
    result = contract.hint(g, g.parse_state(START), SearchContext(limits=Limits(nodes=12_000), seed=3))
    root = result.root_info
    assert root["goal"] == goal and load_game(result.game).goal == goal
    # the rollouts' estimate (a policy's win rate, best of the candidates) is near its goal's optimum
    assert root["winProbability"] == pytest.approx(float(EXACT[goal, "turn"]), abs=0.02)


def test_fg14_hint_under_the_clear_goal_speaks_of_pairs_not_routes():
    g = game("clear")
    result = contract.hint(g, g.parse_state("A??/@?@/A.? 2 first"), SearchContext(limits=Limits(nodes=4000), seed=1),
                           top=3)
    assert result.move_infos[0].extra["kind"] == "known-pair"     # under the clear goal, match it now
    assert all("route" not in m.why for m in result.move_infos)
    assert result.root_info["routeCost"] is None and "greedy" in result.root_info["method"]


def test_fg14_score_under_the_clear_goal_has_no_route_and_every_face_down_roll_is_fatal():
    g = game("clear")
    report = contract.score(g, "A??/@?@/A.? 2 first")
    assert report["goal"] == "clear" and report["route"] is None
    assert len(report["erasure"]["rollsThatEndTheGame"]) == 6        # every face-down tile
    path = contract.score(game("path"), "A??/@?@/A.? 2 first")
    assert path["route"]["missingTiles"] == 1 and len(path["erasure"]["rollsThatEndTheGame"]) < 6


def test_fg14_erasure_roll_hint_under_the_clear_goal():
    g = game("clear")
    state = g.parse_state("A??/@?@/A.? 2 first")
    state.apply_move("flip 1,1")
    state.apply_move("flip 1,3")
    assert state.phase == "erase"
    result = contract.hint(g, state, SearchContext(limits=Limits(nodes=2000), seed=0))
    assert sorted(result.root_info["rollsThatEndTheGame"]) == ["2,1", "2,2", "3,1", "3,3"]


@pytest.mark.parametrize("goal, turns", [("path", 1), ("clear", 2)])
def test_fg14_forced_wins_follow_the_goal(goal, turns):
    """Two known pairs, no erasure: B (2,1 and 2,3) touches both Brains, so the path needs one turn, clearing two."""
    state = game(goal, "off").parse_state("AB./@.@/AB. 2 first")
    assert forced_turns(Model.of(state.game), info_from_state(state), False, 3)[0] == turns


@pytest.mark.parametrize("goal, notation, pair", [("path", "AB./@.@/AB. 2 first", ["flip 2,1", "flip 2,3"]),
                                                  ("clear", "B+A./@.@/B+A. 2 first", ["flip 1,1", "flip 1,3"])])
def test_fg14_forced_puzzles_are_worded_for_the_goal(goal, notation, pair):
    puzzle = _forced_puzzle(game(goal, "off").parse_state(notation), "easy")
    assert puzzle is not None and puzzle["answer"] == {"turns": 1, "firstMoves": pair}
    assert puzzle["question"].startswith("Match every pair" if goal == "clear" else "Link the Brains")


def test_fg14_placement_advice_under_the_clear_goal_plays_greedy_and_says_placement_is_moot():
    from solver.forgotten.placement import advise_placement
    clear = advise_placement(game("clear"), SearchContext(limits=Limits(nodes=2000), seed=0), top=2)
    path = advise_placement(game("path"), SearchContext(limits=Limits(nodes=2000), seed=0), top=2)
    assert clear["policy"] == "greedy" and "does not change the odds" in clear["note"]
    assert path["policy"] == "route" and "note" not in path


def test_every_rule_option_reaches_selfplay_and_generate(capsys):
    """goal, erasure, pairs and brains given in --game reach the commands without a position."""
    import json
    from solver.cli import main
    rates = {}
    for goal in ("path", "clear"):
        assert main(["forgotten", "selfplay", "--game", f"forgotten(width=4,height=3,pairs=3,erasure=turn,goal={goal})",
                     "--count", "500", "--policies", "greedy", "--fast", "--summary", "--json"]) == 0
        rates[goal] = json.loads(capsys.readouterr().out)["summary"]["labels"]["greedy"]["mean"]
    assert rates["clear"] < rates["path"]
    assert main(["forgotten", "generate", "--game", "forgotten(width=4,height=3,brains=21-33,erasure=turn)",
                 "--count", "1", "--difficulty", "easy", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    position = load_game(answer["game"]).parse_state(answer["position"])
    assert position.board.brains == (1, 10) and position.game.erasure == "turn"


# -- the services main added (views, pictures, text forms) follow the goal too ---------------------------------------
def test_fg14_views_pictures_and_text_forms_follow_the_clear_goal():
    g = game("clear")
    view = g.parse_position("view:0 A??/@?@/A.? 2 first")
    result = contract.hint(g, view, SearchContext(limits=Limits(nodes=2000), seed=1), top=3)
    assert result.root_info["plannedRoute"] == [] and all("Brains" not in m.why for m in result.move_infos)
    assert "the last pair" not in result.move_infos[0].why        # tiles are still face down elsewhere
    assert "goal clear: 6 tiles face down still to match" in contract.render_text(g, "score", contract.score(g, view))
    assert 'data-target' in contract.svg(g, view)                            # no route to draw, and no failure
    won = game("clear", "off").parse_state("+A+B./@.@/+A+B. 2 won")
    assert "every pair matched: won" in contract.svg(g, won)


def test_a_solve_stopped_by_its_limit_says_its_best_so_far_in_text():
    g = load_game("forgotten(erasure=turn)")
    result = contract.solve(g, START, SearchContext(limits=Limits(nodes=800)))
    text = contract.render_text(g, "solve", result)
    assert text.startswith("position: ") and "not solved: node limit reached" in text
    assert "best so far" in text and "flip 2,1" in text
