"""Interpretations of the rulebook not covered elsewhere (docs/rules/embers-of-memory.md)."""

import numpy as np
import pytest

from solver import contract
from solver.embers import mind as M
from solver.embers import plan as P
from solver.embers import solve_cpsat as C
from solver.embers.campaign import Campaign
from solver.embers.policy import FenrysSettings, blink_plan, blink_scores
from solver.search import Limits, SearchContext

from .helpers import DECK, GAME, PROLOGUE, check_zones, cid, play, state


def test_EM2_cards_sit_on_a_lattice_of_quarters_in_one_orientation():
    """EM-2: positions are whole quarters; cards never turn, so '#...' cannot stand in for '...#'."""
    mind = [(cid("C4"), 0, 0)]
    assert (cid("C1a"), 1, 1) in M.legal_placements(DECK, mind, [cid("C1a")])  # corner to corner
    assert (cid("C1a"), -1, -1) not in M.legal_placements(DECK, mind, [cid("C1a")])  # would need a rotation
    assert (cid("D3"), -1, -1) in M.legal_placements(DECK, mind, [cid("D3")])


def test_EM26_cards_join_a_strength_row_in_order():
    """EM-26: cards go to the left of the row one after the other; the row keeps that order."""
    s = state(turn="aelin", phase="acknowledge", mind=["C4@0,0", "S1a@1,1"], added=True)
    s.rows[0].cards.append(cid("F1a"))
    play(s, "take S1a", "pass")
    assert [DECK.cards[c].id for c in s.rows[0].cards] == ["F1a", "S1a"]


def test_EM30_EM33_setup_of_chapter_one():
    """EM-30: the Mind card and the Resolve are dealt from memory cards before the demons are shuffled in;
    EM-33: the Mind card lies at (0, 0)."""
    for seed in range(20):
        s = GAME.new_initial_state(seed)
        assert s.mind[0][1:] == (0, 0)
        assert not any(DECK.cards[c].is_demon for c in [s.mind[0][0]] + [r.resolve for r in s.rows])
        assert {d.index for d in DECK.demons} <= s.pile
    prologue = PROLOGUE.new_initial_state(1)
    assert not any(DECK.cards[c].is_demon for c in prologue.pile | set(prologue.row))
    check_zones(prologue)


def test_EM60_EM61_EM62_EM63_EM64_EM65_EM66_campaign():
    """EM-60 chapters in order; EM-61 archive; EM-62 new cards of chapter one; EM-63 removal; EM-64 reset;
    EM-65 a won chapter leaves its card on top of the captivity deck; EM-66 corrupted cards are not removed
    from the memory deck (they come back next game)."""
    campaign = Campaign()
    assert campaign.memory_deck(DECK)[:2] == ["C1a", "C1b"]
    campaign.record("won", DECK)
    campaign.record("won", DECK)
    assert campaign.chapter == "one" and "rowan" in campaign.archive and "Cd" in campaign.added
    campaign.archive_card("C5", DECK)
    assert "C5" not in campaign.memory_deck(DECK) and "C5" in campaign.out_of_play(DECK)
    campaign.remove_card("C4", DECK)
    campaign.add_card("C4", DECK)
    assert "C4" in campaign.memory_deck(DECK)
    campaign.record("won", DECK)
    assert campaign.chapter == "two" and campaign.pending_chapter_card and campaign.chapters_drawn == 1
    campaign.reset(DECK)
    assert campaign.chapter == "one" and campaign.archive == ["aelin-prologue", "rowan"]
    assert "C5" in campaign.memory_deck(DECK)
    assert all(c.id in campaign.memory_deck(DECK) for c in DECK.memory)  # corruption never edits the deck


def test_EM74_fenrys_problem_depends_only_on_what_he_sees():
    """EM-74: the planning problem built for Fenrys is the same for two positions he cannot tell apart."""
    notation = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b "
                "discard=- box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    a = P.problem_from_state(GAME.state_from_notation(notation))
    b = P.problem_from_state(GAME.state_from_notation(notation.replace("D1a,G2b,S3,F5", "F1b,D4,G3,S2b")))
    assert a == b
    full = P.problem_from_state(GAME.state_from_notation(notation), player=1)
    assert full.card_value != a.card_value or full.reveal_value != a.reveal_value


def test_EM75_candidates_cover_every_plan():
    """EM-75: step-0 candidates are exactly the legal placements, and every add of every plan the
    exhaustive search finds is a candidate no earlier than its step."""
    s = state(phase="blink", mind=["C4@0,0", "S1a@1,1"], row=["C3", "C1b", "F1a"])
    problem = P.problem_from_state(s)
    candidates = C.candidate_placements(problem)
    legal = set(M.legal_placements(DECK, list(problem.mind), list(problem.row)))
    assert {p for p, d in candidates.items() if d == 0} == legal
    result = P.exhaustive(problem)
    for plan in result.best:
        for step, placement in enumerate(plan):
            assert candidates[placement] <= step


def test_EM76_anytime_plans_carry_their_status():
    """EM-76: with no time the solver proves nothing and says so; the hint keeps a greedy plan."""
    rng = np.random.default_rng(2)
    s = state(phase="blink", mind=["C4@0,0", "S1a@1,1"], row=["C3", "C1b", "F1a", "G3", "D3", "S4"])
    result = C.solve_cpsat(P.problem_from_state(s), time_limit=0.001)
    assert not result.optimal and result.status != "OPTIMAL"
    _, chosen, status = blink_plan(s, 0, FenrysSettings(search_nodes=50))
    assert chosen is not None and status in ("GREEDY", "INCOMPLETE") and not chosen.optimal
    assert chosen.value >= P.evaluate(P.problem_from_state(s), P.greedy_plan(P.problem_from_state(s))).value
    _, proven, status = blink_plan(s, 0, FenrysSettings())
    assert status == "EXHAUSTIVE" and proven.optimal and proven.value == P.search(P.problem_from_state(s)).value
    del rng


def test_EM82_the_blink_hint_starts_the_plan():
    """EM-82: on a short row the plan comes from exhaustive search and the hint's first move starts it."""
    s = state(phase="blink", mind=["C4@0,0"], row=["C3", "C1b"], demons=[{"demon": "Cd", "tainted": []}])
    ranked = blink_scores(s, 0, FenrysSettings())
    assert ranked[0].extra["planStatus"] == "EXHAUSTIVE" and ranked[0].pv[0] == ranked[0].action
    problem = P.problem_from_state(s)
    assert ranked[0].score == problem.points(P.exhaustive(problem).value)


def test_EM83_when_every_plan_splits_the_hint_still_adds_a_card():
    """EM-83: with no split-free plan, Fenrys must still add a card: the hint picks the add that keeps the
    largest section."""
    notation = ("embers/one day=3 turn=fenrys phase=blink mind=F2a@0,-1;S4@1,-1;D1a@2,-1;D2b@0,-2;F3@1,0 "
                "row=F5,G3 demons=Gd,Dd,Fd discard=D3,F1b box=G1b,G2a,G1a,G4,C5,C2b,C4,C1b,C2a,C3,C1a "
                "resolve=^S1b.F1a.S1a.F4,S2a,D2a,D1b completed=1 added=0 pending=- result=-")
    s = GAME.state_from_notation(notation)
    s.row = [cid("S5"), cid("F2b"), cid("S2b")]
    s.pile = s.pile - set(s.row)
    s._legal = None
    result = contract.hint(GAME, s, SearchContext(limits=Limits(time_ms=3000), seed=0))
    assert result.best.move.startswith("add ") and "splits" in result.best.why


def test_EM76_a_cancelled_search_stops_unproven():
    """EM-76: the engine's terminate sets the context's cancel flag; CP-SAT and exhaustive search stop."""
    import threading
    s = state(phase="blink", mind=["C4@0,0", "S1a@1,1"], row=["C3", "C1b", "F1a", "G3", "D3", "S4"])
    cancel = threading.Event()
    cancel.set()
    result = C.solve_cpsat(P.problem_from_state(s), time_limit=30, cancel=cancel)
    assert not result.optimal and result.status == "CANCELLED"
    assert not P.exhaustive(P.problem_from_state(s), cancel=cancel).complete


def test_EM71_the_objective_is_computed_as_documented():
    """Issue 16: in Fenrys's view each card's and each suit's term was rounded to a whole point (290 on the
    docs position, where EM-71's formula gives 288.94). The terms are now kept to a thousandth of a point:
    the reported value is the formula, recomputed here in floats from Fenrys's probabilities."""
    from solver.embers.cards import SUITS
    from solver.embers.knowledge import expected_reveals, need_distribution
    from solver.embers.state import FENRYS
    blink = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- "
             "box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    s = GAME.state_from_notation(blink)
    result = contract.solve(GAME, blink, SearchContext())
    objective = result.solution["objective"]
    reveals = expected_reveals(s, FENRYS, max_relives=len(s.row))
    need = need_distribution(s, FENRYS)
    by_id = {c.id: c for c in s.deck.cards}

    def seen(card) -> float:
        return 5 + 60 * need.get(card.strength, 0.0) + 15 * sum(p for n, p in need.items() if n > card.strength)
    rescued = sum(len(t) for d, t in s.demons if SUITS[s.deck.cards[d].suit] in objective["banished"])
    formula = (-1000 * len(objective["demonsLeft"]) + 150 * rescued - 150 * len(objective["tainted"])
               + 150 * sum(reveals[SUITS.index(suit)][n] for suit, n in objective["relives"].items())
               + sum(seen(by_id[c]) for c in objective["visible"]))
    terms = len(objective["visible"]) + len(objective["relives"])
    assert formula == pytest.approx(288.94, abs=0.005)
    assert abs(result.value - formula) <= 0.0005 * terms and result.bound == result.value and result.optimal
