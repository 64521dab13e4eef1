"""Optimal kingdoms: proofs cross-checked by brute force, invariants, anytime results and bad input."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import contract
from solver.aetherya.cards import CELL_NAMES, LETTERS
from solver.aetherya.solve import (SYMMETRIES, Hand, apply_symmetry, clear_cache, heuristic_kingdom, layouts,
                                      make_hand, optimize_kingdom, parse_solve_request)
from solver.aetherya.scoring import board_scores, format_kingdom, parse_kingdom, score_kingdom
from solver.cli import main as cli_main
from solver.errors import ImpossibleStateError, InvalidInputError, SolverError, UnknownCardError
from solver.kernels import aetherya as kernel
from solver.search import Limits, SearchContext

DECK = "PFMSHEDGRO"


# -- brute force ----------------------------------------------------------------------------------

def all_arrangements(hand: Hand) -> np.ndarray:
    """Every distinct kingdom of ``hand`` (fixed cells in place), as rows of 16 codes."""
    fixed = hand.fixed_map
    free_counts = hand.free_counts()
    kinds = sorted((k for k in range(10) if free_counts[k]), key=lambda k: (free_counts[k], k))
    filler = kinds.pop()
    board = np.array([fixed.get(c, filler) for c in range(16)], dtype=np.uint8)
    rows: list[np.ndarray] = []

    def place(i: int, open_cells: list[int]) -> None:
        if i == len(kinds):
            rows.append(board.copy())
            return
        kind = kinds[i]
        for chosen in itertools.combinations(open_cells, free_counts[kind]):
            board[list(chosen)] = kind
            place(i + 1, [c for c in open_cells if c not in chosen])
            board[list(chosen)] = filler

    place(0, [c for c in range(16) if c not in fixed])
    return np.array(rows, dtype=np.uint8)


def multinomial(counts: list[int]) -> int:
    out = math.factorial(sum(counts))
    for n in counts:
        out //= math.factorial(n)
    return out


def brute_force(hand: Hand) -> tuple[int, int]:
    """(best board total, number of arrangements)."""
    rows = all_arrangements(hand)
    return int(board_scores(rows).max()), len(rows)


BRUTE_FORCE_HANDS = [
    # (cards, fixed): Portals, Dragons (with the cap of three tamed), Goblins (orthogonal Swamps only)
    ("PPPPPPPPPPPPHHEO", None),
    ("SSSSSSSSSSSSGGHO", None),
    ("MMMMMMMMMMMRRDDO", None),
    ("FFFFFFFFFFFEEDGO", None),
    ("SSSSSSSSSSSGGEOO", None),
    ("PPPPPPPPHHRRRROO", "b2=O,c2=O,b1=R,c1=R,b3=R,c3=R"),
    ("PPPPPPPPPPPHHRRO", "a1=R"),
    ("MMMMMMMMMMMMDDRO", "b2=O"),
]


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_cache()
    yield
    clear_cache()


def test_arrangement_count_of_the_issue_example():
    """12 Plains + 2 Humans + an Elf + a Portal: 21,840 distinct arrangements."""
    hand = make_hand("PPPPPPPPPPPPHHEO")
    assert len(all_arrangements(hand)) == 21_840 == multinomial([12, 2, 1, 1])


@pytest.mark.parametrize("cards,fixed", BRUTE_FORCE_HANDS)
def test_compiled_search_matches_brute_force(cards, fixed):
    """AE-OPT-1: the optimum is the best board total over every arrangement (AE-2 hubs, AE-5, AE-7 cap)."""
    hand = make_hand(cards, fixed)
    best, n = brute_force(hand)
    assert n == multinomial(hand.free_counts())
    result = optimize_kingdom(hand, prover="search", use_cache=False)
    assert result.optimal and result.status == "EXHAUSTIVE"
    assert result.total == result.bound == best
    assert score_kingdom(format_kingdom(result.kingdom)).total == best


@pytest.mark.parametrize("cards,fixed", BRUTE_FORCE_HANDS[:3] + BRUTE_FORCE_HANDS[5:6])
def test_cp_sat_matches_brute_force(cards, fixed):
    """AE-OPT-1: the CP-SAT prover proves the same optimum."""
    hand = make_hand(cards, fixed)
    best, _ = brute_force(hand)
    result = optimize_kingdom(hand, prover="cp-sat", use_cache=False, time_ms=60_000)
    assert result.optimal and result.status == "OPTIMAL"
    assert result.total == result.bound == best


@st.composite
def mostly_fixed_hands(draw, free: int = 7):
    """A random hand with all but ``free`` cards fixed on random cells (brute force stays small)."""
    cards = draw(hands)
    cells = draw(st.permutations(range(16)))
    order = draw(st.permutations(range(16)))
    fixed = {CELL_NAMES[cells[i]]: cards[order[i]] for i in range(16 - free)}
    return cards, fixed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mostly_fixed_hands())
def test_compiled_search_matches_brute_force_on_random_hands(case):
    """AE-OPT-1: any mix of cards (fixed Tribes, Terrains, Portals, Dragons) against every arrangement."""
    hand = make_hand(*case)
    best, _ = brute_force(hand)
    result = optimize_kingdom(hand, prover="search", use_cache=False)
    assert result.optimal and result.total == result.bound == best


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mostly_fixed_hands(free=6))
def test_cp_sat_matches_brute_force_on_random_hands(case):
    """AE-OPT-1: the CP-SAT prover on the same kind of instances."""
    hand = make_hand(*case)
    best, _ = brute_force(hand)
    result = optimize_kingdom(hand, prover="cp-sat", use_cache=False, time_ms=60_000)
    assert result.optimal and result.total == result.bound == best


def test_dragon_cap_of_three_shapes_the_optimum():
    """AE-7: four Dragons around a hub with two Humans; only three may count as tamed."""
    hand = make_hand("PPPPPPPPHHRRRROO", "b2=O,c2=O,b1=R,c1=R,b3=R,c3=R")
    result = optimize_kingdom(hand, use_cache=False)
    assert result.score().dragons == 6 * 3 - 6 * 1


def test_the_search_proves_the_optimum_of_a_layout_by_itself():
    """Without an incumbent the kernel finds the best filling of the layout on its own."""
    hand = make_hand("PPPPPPPPPPPPHHEO")
    best_by_layout = {}
    for row in all_arrangements(hand):
        mask = sum(1 << c for c in range(16) if row[c] == 9)
        canonical = min(sum(1 << image[c] for c in range(16) if mask >> c & 1) for image in SYMMETRIES)
        total = kernel.kingdom_value(row)
        best_by_layout[canonical] = max(best_by_layout.get(canonical, -99), total)
    counts = np.array([12, 0, 0, 0, 2, 1, 0, 0, 0, 0], dtype=np.int32)
    for layout in layouts(hand):
        out = np.zeros(16, dtype=np.uint8)
        stats = np.zeros(4, dtype=np.int64)
        symmetries = np.array(layout.symmetries, dtype=np.int8).reshape(-1, 16)
        value = kernel.search_layout(np.array(layout.codes, dtype=np.uint8), counts, symmetries, -1000, 0, 0.0,
                                     out, stats)
        assert value == best_by_layout[layout.portals] == kernel.kingdom_value(out)
        assert stats[1] == 1 and stats[3] == 1
        assert kernel.layout_bound(np.array(layout.codes, dtype=np.uint8), counts) >= value


# -- invariants on random hands ---------------------------------------------------------------------

hands = st.lists(st.sampled_from(DECK), min_size=16, max_size=16).map("".join)


@st.composite
def hands_with_fixed(draw):
    cards = draw(hands)
    cells = draw(st.lists(st.integers(0, 15), unique=True, max_size=4))
    picked = draw(st.permutations(range(16)))[:len(cells)]
    fixed = {CELL_NAMES[cell]: cards[i] for cell, i in zip(cells, picked)}
    return cards, fixed


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_with_fixed())
def test_result_uses_exactly_the_hand_and_keeps_fixed_cells(case):
    """The kingdom holds the 16 cards, the fixed cells are untouched, the score is the scorer's."""
    cards, fixed = case
    result = optimize_kingdom(cards, fixed, time_ms=3000)
    assert Counter(result.notation.replace("/", "")) == Counter(cards.upper())
    for cell, card in fixed.items():
        assert result.kingdom[CELL_NAMES.index(cell)] == LETTERS.index(card)
    assert score_kingdom(result.notation).total == result.total
    assert result.bound >= result.total
    assert result.optimal == (result.bound == result.total)
    body = result.to_json()
    assert body["score"] == score_kingdom(body["kingdom"]).to_json()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, st.integers(0, 2**32))
def test_no_local_search_beats_a_proven_optimum(cards, seed):
    """AE-OPT-1: long local searches from random starts never exceed the proven optimum."""
    result = optimize_kingdom(cards, time_ms=20_000)
    assert result.optimal
    _, total = heuristic_kingdom(make_hand(cards), seed=seed, starts=4, rounds=64)
    assert total <= result.total


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_with_fixed(), st.integers(0, 7))
def test_optimum_is_invariant_under_board_symmetries(case, which):
    """Rotating or mirroring the fixed cells does not change the optimum (the rules are symmetric)."""
    cards, fixed = case
    image = SYMMETRIES[which]
    moved = {CELL_NAMES[image[CELL_NAMES.index(c)]]: card for c, card in fixed.items()}
    a = optimize_kingdom(cards, fixed, use_cache=False, time_ms=20_000)
    b = optimize_kingdom(cards, moved, use_cache=False, time_ms=20_000)
    assert a.optimal and b.optimal and a.total == b.total


# -- anytime behaviour, caching, warm starts ---------------------------------------------------------

def test_node_limit_gives_a_valid_kingdom_and_an_honest_bound():
    """Stopped early: the best kingdom found, a bound at least the optimum, optimal only if proven."""
    cards = "HHHEEEDDDGGGPFMS"
    exact = optimize_kingdom(cards, use_cache=False)
    ctx = SearchContext(limits=Limits(time_ms=60_000, nodes=50))
    early = optimize_kingdom(cards, ctx=ctx, use_cache=False)
    assert early.total <= exact.total <= early.bound
    assert not early.optimal and early.status == "FEASIBLE"
    assert score_kingdom(early.notation).total == early.total


def test_any_seed_works_and_the_same_seed_gives_the_same_answer():
    a = optimize_kingdom("PFFMMSSHHEEDGGRO", seed=2**63 - 1, use_cache=False)
    b = optimize_kingdom("PFFMMSSHHEEDGGRO", seed=2**63 - 1, use_cache=False)
    assert a.kingdom == b.kingdom and a.optimal
    with pytest.raises(InvalidInputError, match="seed"):
        optimize_kingdom("PFFMMSSHHEEDGGRO", seed=-1)


def test_tiny_time_limit_still_answers():
    result = optimize_kingdom("PFFMMSSHHEEDGGRO", time_ms=1, use_cache=False)
    assert score_kingdom(result.notation).total == result.total <= result.bound


def test_cancelled_search_returns_the_incumbent():
    ctx = SearchContext(limits=Limits(time_ms=60_000))
    ctx.cancel.set()
    result = optimize_kingdom("HHHEEEDDDGGGPFMS", ctx=ctx, use_cache=False)
    assert not result.optimal and result.bound >= result.total


def test_interim_reports_between_layouts():
    """With reporting on, each closed layout may emit an interim result marked as during search."""
    reports = []
    ctx = SearchContext(limits=Limits(time_ms=60_000), report=reports.append, report_every=1e-9)
    final = optimize_kingdom("FMHHHEEEDDDGRROO", {"b2": "R"}, ctx=ctx, use_cache=False)  # 57 layouts, ~0.7 s
    assert final.optimal and reports
    for partial in reports:
        body = partial.to_json()
        assert body["isDuringSearch"] and not body["optimal"] and body["bound"] >= body["value"]
        assert score_kingdom(body["kingdom"]).total == body["value"]


def test_cache_answers_a_rotated_question_with_a_rotated_kingdom():
    first = optimize_kingdom("PFFMMSSHHEEDGGRO", {"a1": "O", "b1": "R"})
    again = optimize_kingdom("PFFMMSSHHEEDGGRO", {"d1": "O", "d2": "R"})  # a quarter turn of the same question
    assert again.extra.get("cached") and again.total == first.total and again.optimal
    assert again.kingdom[3] == 9 and again.kingdom[7] == 8
    assert score_kingdom(again.notation).total == again.total


def test_warm_start_is_used_and_checked():
    cards = "PFFMMSSHHEEDGGRO"
    result = optimize_kingdom(cards, warm_start="PFFM/MSSH/HEED/GGRO", use_cache=False)
    assert result.optimal
    with pytest.raises(InvalidInputError, match="does not hold the cards"):
        optimize_kingdom(cards, warm_start="PPPP/MSSH/HEED/GGRO")
    with pytest.raises(InvalidInputError, match="must hold the fixed"):
        optimize_kingdom(cards, {"a1": "O"}, warm_start="PFFM/MSSH/HEED/GGRO")


def test_repeated_short_calls_with_fixed_cells_are_fast_and_consistent():
    """The planner's use: many short calls with fixed cells; each answer is valid, proven ones agree."""
    cards = "PPFMMSSHHEEDGGRO"
    totals = {}
    for cell in ("a1", "b2", "c3", "d4", "a4"):
        for _ in range(2):
            r = optimize_kingdom(cards, {cell: "O"}, time_ms=200)
            assert r.kingdom[CELL_NAMES.index(cell)] == 9
            if r.optimal:
                assert totals.setdefault(cell, r.total) == r.total


# -- bad input ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards,fixed,error,field,text", [
    ("PFFMMSSHHEEDGGR", None, InvalidInputError, "cards", "expected 16 card letters, got 15"),
    ("PFFMMSSHHEEDGGROO", None, InvalidInputError, "cards", "got 17"),
    ("PFFMMSSHHEEDGGRX", None, UnknownCardError, "cards[15]", "unknown card"),
    ("PFFMMSSHHEEDGGR?", None, UnknownCardError, "cards[15]", "not a card you hold"),
    (42, None, InvalidInputError, "cards", "expected the 16 cards"),
    ("PFFMMSSHHEEDGGRO", {"e5": "O"}, InvalidInputError, "fixed.e5", "unknown cell"),
    ("PFFMMSSHHEEDGGRO", {"a1": "Z"}, UnknownCardError, "fixed.a1", "unknown card"),
    ("PFFMMSSHHEEDGGRO", {"a1": "?"}, UnknownCardError, "fixed.a1", "'?' is not allowed"),
    ("PFFMMSSHHEEDGGRR", {"a1": "O"}, ImpossibleStateError, "fixed.a1", "fixed card not in the hand"),
    ("PFFMMSSHHEEDGGRO", {"a1": "R", "b1": "R"}, ImpossibleStateError, "fixed.b1", "holds 1"),
    ("PFFMMSSHHEEDGGRO", "a1=O,A1=R", InvalidInputError, "fixed", "fixed twice"),
    ("PFFMMSSHHEEDGGRO", "a1", InvalidInputError, "fixed", "expected CELL=CARD"),
    ("PFFMMSSHHEEDGGRO", 7, InvalidInputError, "fixed", "expected an object"),
])
def test_bad_hands_name_the_field_and_the_value(cards, fixed, error, field, text):
    with pytest.raises(error) as info:
        optimize_kingdom(cards, fixed)
    assert info.value.field == field
    assert text in str(info.value)


def test_bad_limits_and_prover():
    with pytest.raises(InvalidInputError, match="time_ms"):
        optimize_kingdom("PFFMMSSHHEEDGGRO", time_ms=0)
    with pytest.raises(InvalidInputError, match="prover"):
        optimize_kingdom("PFFMMSSHHEEDGGRO", prover="magic")


def test_more_than_eight_copies_is_a_valid_question():
    """AE-OPT-2: a hand is any 16 cards; the deck limit of 8 copies is not enforced."""
    assert optimize_kingdom("PPPPPPPPPPPPHHEO").optimal


def test_a_pasted_kingdom_is_a_hand():
    """AE-OPT-2: '/' and spaces are ignored, letters are case-insensitive."""
    a = optimize_kingdom("pffm/mssh/heed/ggro")
    assert a.hand == make_hand("PFFMMSSHHEEDGGRO") and a.optimal


def test_fixed_cells_may_hold_any_card():
    """AE-OPT-3: fixed cells model locked Portals and Dragons, and may hold any card."""
    result = optimize_kingdom("PPFMMSSHHEEDGGRO", {"a1": "G", "d4": "E"})
    assert result.notation.startswith("G") and result.notation.endswith("E")


# -- engine and command line -------------------------------------------------------------------------

def test_solve_request_forms():
    hand, prover = parse_solve_request({"cards": "PFFMMSSHHEEDGGRO", "fixed": {"a1": "O"}})
    assert hand.fixed == ((0, 9),) and prover == "search"
    hand, _ = parse_solve_request("PFFMMSSHHEEDGGRO")
    assert hand.fixed == ()
    with pytest.raises(InvalidInputError) as info:
        parse_solve_request({"cards": "PFFMMSSHHEEDGGRO", "fixd": {}})
    assert info.value.field == "state.fixd"
    with pytest.raises(InvalidInputError) as info:
        parse_solve_request({"fixed": {}})
    assert info.value.field == "state.cards"


def test_engine_solve_returns_the_contract_keys():
    from solver.aetherya.game import AetheryaGame
    ctx = SearchContext(limits=Limits(time_ms=10_000))
    body = contract.solve(AetheryaGame(), {"cards": "PFFMMSSHHEEDGGRO", "fixed": {"a1": "O"}}, ctx).to_json()
    for key in ("kingdom", "score", "optimal", "bound", "seconds", "status", "value"):
        assert key in body
    assert body["kingdom"].startswith("O") and body["value"] == body["score"]["total"] == body["bound"]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_matches_the_score_command(capsys):
    code, out, _ = run_cli(capsys, "aetherya", "optimize", "PFFMMSSHHEEDGGRO", "--fixed", "a1=O,d4=R", "--json")
    assert code == 0
    body = json.loads(out)
    assert set(body) >= {"kingdom", "score", "optimal", "bound", "seconds"}
    assert body["kingdom"][0] == "O" and body["kingdom"][-1] == "R"
    code, out, _ = run_cli(capsys, "aetherya", "score", body["kingdom"], "--json")
    assert json.loads(out) == body["score"]
    assert body["optimal"] is True and body["bound"] == body["score"]["total"]


def test_cli_text_output(capsys):
    code, out, _ = run_cli(capsys, "aetherya", "optimize", "pffmmsshheedggro", "--time-ms", "20000")
    assert code == 0 and "proven optimal" in out and "total" in out


@pytest.mark.parametrize("argv,message", [
    (["PFFMMSSHHEEDGGR"], "CARDS: expected 16 card letters, got 15"),
    (["PFFMMSSHHEEDGGRX"], "CARDS[15]: unknown card"),
    (["PFFMMSSHHEEDGGRO", "--fixed", "z9=O"], "--fixed: unknown cell"),
    (["PFFMMSSHHEEDGGRO", "--fixed", "a1=O,a1=R"], "--fixed: cell a1 is fixed twice"),
    (["PFFMMSSHHEEDGGRR", "--fixed", "a1=O"], "--fixed: fixed card not in the hand"),
    (["PFFMMSSHHEEDGGRO", "--time-ms", "0"], "--time-ms: must be at least 1"),
])
def test_cli_errors_are_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "aetherya", "optimize", *argv, "--json")
    assert code == 1 and out == ""
    assert err.startswith("memory-solver: error: ") and message in err and err.count("\n") == 1
