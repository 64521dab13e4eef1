"""Optimal Blink plans: CP-SAT against exhaustive search on rows of up to 4 cards (EM-70..EM-76)."""

import pytest

from solver.embers import plan as P
from solver.embers import solve_cpsat as C

from .helpers import DECK, GAME, blink_problems, cid, state, with_row

# Positions (found by a seeded search) where the best plans would split the Mind, so the solver must cut them.
SPLITTING = [
    ("embers/one day=1 turn=fenrys phase=blink mind=G5@1,-1;S2a@2,-2;S4@2,0;S1a@3,-2;C4@2,0 row=D5,F5 "
     "demons=- discard=F2b,Gd box=- resolve=S3.F4,C2a.G2b.S1b,C5,G1b completed=1 added=0 pending=- result=-",
     ("F1a", "G2a", "G4")),
    ("embers/one day=3 turn=fenrys phase=blink mind=G1b@0,0;S2b@1,-1;G5@0,-2;S3@0,1 row=G4,S4,S1a demons=- "
     "discard=- box=C3,C2a,C5,C2b,F1a,F4,F2a,F2b,F1b,C1b,C1a,D1b,D3,D1a,D2a,D4 resolve=D5.G2b,F5,S5,D2b "
     "completed=1 added=0 pending=- result=-", ("S2a", "F3", "G1a")),
]
ONLY_SPLITS = ("embers/one day=3 turn=fenrys phase=blink mind=F2a@0,-1;S4@1,-1;D1a@2,-1;D2b@0,-2;F3@1,0 "
               "row=F5,G3 demons=Gd,Dd,Fd discard=D3,F1b box=G1b,G2a,G1a,G4,C5,C2b,C4,C1b,C2a,C3,C1a "
               "resolve=^S1b.F1a.S1a.F4,S2a,D2a,D1b completed=1 added=0 pending=- result=-", ("S5", "F2b", "S2b"))


def problems(count, sizes, seed):
    """Seeded Blink problems taken from games, with rows of the given sizes drawn from the deck."""
    def row(s, rng, found):
        pool = [c for c in sorted(s.pile) if not DECK.cards[c].is_demon]
        k = int(sizes[found % len(sizes)])
        return [int(c) for c in rng.choice(pool, size=k, replace=False)] if len(pool) >= k else None
    return blink_problems(count, seed, row, chance=0.3)


def _check(problem, time_limit=30):
    ex = P.exhaustive(problem)
    assert ex.complete
    cp = C.solve_cpsat(problem, time_limit=time_limit)
    assert cp.value == ex.value, (cp.moves(DECK), ex.best[:3])
    if ex.value is None:
        assert cp.status == "INFEASIBLE" and not cp.optimal
        return cp
    assert cp.optimal and cp.status == "OPTIMAL" and cp.bound == cp.value
    assert cp.adds in ex.best
    assert P.evaluate(problem, cp.adds).value == cp.value
    return cp


@pytest.mark.parametrize("index", range(10))
def test_EM70_cpsat_is_optimal_against_exhaustive_search(index):
    """EM-70: on seeded rows of 1 to 3 cards the proven CP-SAT optimum equals the exhaustive optimum."""
    _check(problems(10, [1, 2, 3, 3, 2], seed=41)[index])


@pytest.mark.parametrize("index", range(3))
def test_EM70_cpsat_is_optimal_on_rows_of_four(index):
    """EM-70: the same on rows of four cards."""
    _check(problems(3, [4], seed=97)[index])


@pytest.mark.parametrize("notation, row", SPLITTING)
def test_EM73_plans_that_split_the_mind_are_cut(notation, row):
    """EM-73: CP-SAT first proposes plans that split the Mind; each is cut and the final optimum is the
    exhaustive optimum over split-free plans."""
    problem = with_row(GAME.state_from_notation(notation), row)
    assert _check(problem).cuts > 0


def test_EM73_when_every_plan_splits_there_is_no_split_free_plan():
    """EM-73: here every legal first add splits the Mind: no split-free plan exists (the hint then falls
    back to a plan that splits, EM-80)."""
    notation, row = ONLY_SPLITS
    problem = with_row(GAME.state_from_notation(notation), row)
    assert _check(problem).status == "INFEASIBLE"


def test_EM71_banishing_a_demon_is_worth_most():
    """EM-71/EM-20: with the Chains demon out, C3 next to C4 relives Chains (4 + 3) and banishes it."""
    s = state(phase="blink", row=["C3", "S1a"], demons=[{"demon": "Cd", "tainted": []}])
    problem = P.problem_from_state(s)
    assert problem.demon_suits == {0}
    result = C.solve_cpsat(problem)
    assert result.optimal and result.outcome.banished == [0]
    assert result.outcome.demons_left == []
    moves = result.moves(DECK)
    assert any(m.startswith("add C3") for m in moves)
    replay = s.clone()  # the plan replays in the rules engine and banishes the demon
    for move in moves:
        replay.apply_move(move)
        while replay.phase == "reveal":
            replay.apply_move("pass")
    assert not replay.demons


def test_EM71_a_card_that_cannot_be_saved_is_tainted():
    """EM-71: '#..#' cards cannot be added to C1a@0,0 under D3@-1,-1, so S4 is tainted by the Stags demon."""
    s = state(phase="blink", mind=["C1a@0,0", "D3@-1,-1"], row=["S4", "G3"], demons=[{"demon": "Sd", "tainted": []}])
    result = C.solve_cpsat(P.problem_from_state(s))
    assert result.optimal and result.outcome.tainted == [cid("S4")]
    assert result.moves(DECK)[-1] == "discard S4"


def test_EM72_discard_timing_does_not_matter():
    """EM-72: a card tainted before its demon is banished leaves with the demon, as if discarded after."""
    s = state(phase="blink", row=["C3", "C1b", "S1a"], demons=[{"demon": "Cd", "tainted": []}])
    early = s.clone()
    for move in ("add S1a@1,1", "discard C1b", "add C3@-1,0"):
        early.apply_move(move)
    late = s.clone()
    for move in ("add S1a@1,1", "add C3@-1,0", "pass", "discard C1b"):
        late.apply_move(move)
    assert sorted(early.discard) == sorted(late.discard) and early.demons == late.demons == []


def test_greedy_plans_are_valid():
    """The greedy plan that seeds CP-SAT is a split-free, legal plan (empty only when every add splits)."""
    found = 0
    for problem in problems(6, [3, 4], seed=5):
        adds = P.greedy_plan(problem)
        if adds:
            found += 1
            assert P.evaluate(problem, adds) is not None
        else:
            assert P.exhaustive(problem).value is None
    assert found >= 4


def test_EM70_compiled_search_matches_exhaustive_search():
    """EM-70: the compiled branch-and-bound search (src/embers_plan.pxi) finds the exhaustive optimum on seeded
    rows of 1 to 4 cards, returns one of the optimal plans, and its restricted searches give the best value of
    the plans starting with each add (by_first) and of the plans never adding a card (without)."""
    import dataclasses
    for problem in problems(16, (1, 2, 3, 4), seed=9):
        ex = P.exhaustive(problem)
        found = P.search(problem)
        assert found.complete and found.value == ex.value
        if ex.value is None:
            continue
        assert found.adds in ex.best and P.evaluate(problem, found.adds).value == ex.value
        for first, value in ex.by_first.items():
            assert P.search(problem, first=first).value == value
        for card, value in ex.without.items():
            restricted = P.search(dataclasses.replace(problem), allowed=[c for c in problem.row if c != card])
            assert restricted.value == value


def test_EM76_compiled_search_is_anytime_and_deterministic():
    """EM-76: a node budget stops the compiled search with the best plan so far (a legal plan, unproven); the
    same budget always gives the same answer (no dependence on the machine's speed)."""
    problem = with_row(GAME.state_from_notation(SPLITTING[0][0]), ["F1a", "G2a", "G4", "S5", "C1a"])
    small = P.search(problem, max_nodes=30)
    assert not small.complete and small.nodes == 31
    assert small == P.search(problem, max_nodes=30)
    if small.found:
        assert P.evaluate(problem, small.adds).value == small.value
    full = P.search(problem)
    assert full.complete and (not small.found or full.value >= small.value)
