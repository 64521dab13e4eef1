"""An independent audit of the rules engine: hand-checked Minds and seeded games replayed against the naive
rulebook statement in ``tests/embers/reference.py`` (docs/rules/embers-of-memory.md, ids in each test)."""

from __future__ import annotations

import numpy as np
import pytest

from solver import contract
from solver.embers import mind as M
from solver.embers.cards import pattern_text
from solver.embers.state import ADD, KEEP, TAKE, decode, decode_add

from . import reference as R
from solver.embers.cards import SUITS as SUIT_NAMES

from .helpers import DECK, GAME, PROLOGUE, biased_action, blink_problems, cid, state

CARDS = {c.id: R.RefCard(c.id, c.suit_name, c.strength, pattern_text(c.blocked)) for c in DECK.memory}


def named(mind):
    return [(DECK.cards[c].id, x, y) for c, x, y in mind]


def project_adds(mind, row):
    return {(DECK.cards[c].id, x, y) for c, x, y in M.legal_placements(DECK, mind, row)}


# ------------------------------------------------------------------------------ hand-checked Minds
def test_EM3_EM4_EM5_EM6_hand_checked_placements():
    """EM-3..EM-6 on C4 '#..#' at (0,0), worked by hand:
    S1a '#...' at (1,1): blocked top-left on C4's blocked bottom-right, the rest on empty quarters: legal.
    S1a at (0,0): its clear bottom-right would lie on C4's blocked one: illegal (EM-4).
    C3 '.#..' at (-1,0): blocked top-right on (0,0) '#', clear bottom-right on (0,1) '.': legal.
    D3 '...#' at (1,-1): only its clear bottom-left overlaps C4 (clear on clear): no blocked-on-blocked (EM-5).
    G3 '...#' at (5,5): overlaps nothing (EM-3).
    A card added goes on top (EM-6): after S4 '#..#' at (1,1), quarter (2,2) shows S4's blocked segment."""
    mind = [(cid("C4"), 0, 0)]
    assert project_adds(mind, [cid("S1a")]) == {("S1a", 1, 1)}
    assert ("C3", -1, 0) in project_adds(mind, [cid("C3")])
    assert ("D3", 1, -1) not in project_adds(mind, [cid("D3")])
    assert ("G3", 5, 5) not in project_adds(mind, [cid("G3")])
    for card, x, y, expected in (("S1a", 1, 1, True), ("S1a", 0, 0, False), ("C3", -1, 0, True),
                                 ("D3", 1, -1, False), ("G3", 5, 5, False)):
        assert R.may_add(CARDS, [("C4", 0, 0)], card, x, y) is expected
    stacked = [(cid("C4"), 0, 0), (cid("S4"), 1, 1)]
    assert ("S1a", 2, 2) in project_adds(stacked, [cid("S1a")])
    assert R.top_layer(CARDS, named(stacked))[(2, 2)] is True


def test_EM7_EM11_EM8_hand_checked_visibility_and_splits():
    """EM-7: C4@0,0 and S1a@1,1 share quarter (1,1): they overlap; C4@0,0 and G3@2,0 are only adjacent.
    EM-11: F4 exactly under S4 is not visible. EM-8: with the bridge C3 gone the two ends are two sections."""
    assert R.overlap(("C4", 0, 0), ("S1a", 1, 1)) and not R.overlap(("C4", 0, 0), ("G3", 2, 0))
    mind = [(cid("F4"), 5, 5), (cid("S4"), 5, 5), (cid("C4"), 0, 0)]
    assert M.visible_cards(mind) == [cid("S4"), cid("C4")]
    assert R.visible(named(mind)) == ["S4", "C4"]
    bridge = [(cid("C4"), 0, 0), (cid("C3"), 1, 1), (cid("S4"), 2, 2)]
    assert len(M.sections(bridge)) == 1
    assert sorted(map(sorted, M.sections([bridge[0], bridge[2]]))) == [[cid("C4")], [cid("S4")]]


def test_EM15_hand_checked_relive_groups():
    """EM-15: C4 + C3 = 7 by overlap relives; C4 + C3 with C1b also touching the group is 8 (every connected
    same-suit card counts): no relive; a covered Chains card still counts; a Stags card between two Chains
    cards does not connect them."""
    two = [(cid("C4"), 0, 0), (cid("C3"), -1, 0)]
    assert M.relives(DECK, two) and R.relives(CARDS, named(two))
    three = [(cid("C4"), 0, 0), (cid("C1b"), -1, 0), (cid("C3"), 0, 1)]
    assert M.group_strength(DECK, three, 2) == 8 and not M.relives(DECK, three)
    covered = [(cid("C4"), 0, 0), (cid("F4"), 0, 0)]  # F4 '#..#' lies exactly on C4: C4 is hidden
    assert M.visible_cards(covered) == [cid("F4")]
    assert ("C3", -1, 0) in project_adds(covered, [cid("C3")])
    covered.append((cid("C3"), -1, 0))
    assert M.relives(DECK, covered) and R.relives(CARDS, named(covered))  # the hidden C4 counts: 4 + 3
    chain = [(cid("C4"), 0, 0), (cid("S4"), 1, 1), (cid("C3"), 2, 2)]  # C4 and C3 do not overlap
    assert M.group_strength(DECK, chain, 2) == 3 and R.group(CARDS, named(chain), "C3") == {"C3"}


# ------------------------------------------------------------------------------ seeded games against the reference
def _check_decision(s) -> None:
    legal = s.legal_actions()
    kinds = {decode(a)[0] for a in legal}
    if s.phase in ("blink", "first", "second"):
        memory = [DECK.cards[c].id for c in s.row if not DECK.cards[c].is_demon]
        mine = {(DECK.cards[decode_add(decode(a)[1])[0]].id, *decode_add(decode(a)[1])[1:])
                for a in legal if decode(a)[0] == ADD}
        assert mine == R.all_adds(CARDS, named(s.mind), memory), s.to_notation()
    if s.phase == "acknowledge":
        assert sorted(DECK.cards[decode(a)[1]].id for a in legal) == sorted(R.visible(named(s.mind)))
        assert kinds == {TAKE}
    if s.phase == "split":
        parts = R.sections(named(s.mind))
        assert len(parts) > 1 and len(legal) == len(parts) and kinds == {KEEP}
        assert sorted(map(sorted, parts)) == sorted(sorted(DECK.cards[c].id for c in p) for p in M.sections(s.mind))


def _check_transition(before, action, after) -> None:
    """What the rulebook says must follow ``action`` from ``before``, checked on ``after``."""
    kind, payload = decode(action)
    if kind == ADD:
        card, x, y = decode_add(payload)
        grown = named(before.mind) + [(DECK.cards[card].id, x, y)]
        relived = R.relives(CARDS, grown)
        suit = DECK.cards[card].suit
        if before.chapter == "one":
            had_demon = suit in before.demon_suits()
            assert (suit in after.demon_suits()) == (had_demon and not relived), before.to_notation()  # EM-20
            face_down = any(not r.face_up for r in before.rows)
            assert (after.phase == "reveal") == (relived and face_down), before.to_notation()  # EM-21/EM-22
            if after.phase != "reveal" and not after.is_terminal():
                assert (after.phase == "split") == (len(R.sections(grown)) > 1)  # EM-8, relive first
        elif before.part == 1:
            flipped = sum(r.face_up for r in after.rows) - sum(r.face_up for r in before.rows)
            assert flipped == (1 if relived else 0) or after.part == 2  # EM-51/EM-52
    if kind == TAKE:
        row = before.rows[before.completed]
        total = before.row_total(row) + DECK.cards[payload].strength
        joined = payload in after.rows[before.completed].cards if after.rows else False
        if not after.is_terminal() and before.day == after.day:
            assert joined == (total <= 7), before.to_notation()  # EM-16
            if not joined and before.chapter == "one" and DECK.cards[payload].suit in before.demon_suits():
                assert any(payload in t for _, t in after.demons)  # EM-13: Aelin's overflow is tainted
    if kind == KEEP and after.day == before.day and not after.is_terminal():
        parts = R.sections(named(before.mind))
        kept = next(p for p in parts if DECK.cards[payload].id in p)
        lost = {c for p in parts if p is not kept for c in p}
        assert {DECK.cards[c].id for c, _, _ in after.mind} == {e[0] for e in named(before.mind)} - lost


@pytest.mark.parametrize("game,seeds", [(GAME, range(16)), (PROLOGUE, range(4))], ids=["one", "prologue"])
def test_EM3_to_EM56_seeded_games_follow_the_reference_rules(game, seeds):
    """Every decision of seeded games (legal adds, takes, sections) and the effect of every add, take and keep
    (EM-8, EM-13, EM-15, EM-16, EM-20, EM-21, EM-22, EM-51) agree with the naive rulebook statement."""
    checked = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        s = game.new_initial_state(seed)
        steps = 0
        while not s.is_terminal() and steps < 400:
            action = biased_action(s, rng)
            if not s.is_chance_node():
                _check_decision(s)
                before = s.clone()
                s.apply_action(action)
                _check_transition(before, action, s)
                checked += 1
            else:
                s.apply_action(action)
            steps += 1
    assert checked > 60


# ------------------------------------------------------------------------------ optimality, by an independent brute force
def ref_problem(problem) -> R.RefProblem:
    """The same Blink problem for the reference brute force (only the value tables are shared)."""
    deck = problem.deck
    ids = {c: deck.cards[c].id for c in [e[0] for e in problem.mind] + list(problem.row)}
    return R.RefProblem(
        cards=CARDS, mind=tuple(named(problem.mind)), row=tuple(ids[c] for c in problem.row),
        demons={SUIT_NAMES[s]: problem.rescue.get(s, 0)
                for s in problem.demon_suits},
        reveal_value={SUIT_NAMES[s]: problem.reveal_value[s] for s in range(len(SUIT_NAMES))},
        card_value={ids[c]: problem.value_of(c) for c in ids}, must_add=problem.must_add,
        demon_weight=problem.units.demon, taint_weight=problem.units.taint)


def suited_problems(count: int, seed: int):
    """Seeded Blink problems from games, rows of 2 to 4 cards drawn mostly from the suits already in the Mind
    (so that relives are common), Minds of at most 6 cards (so that the naive brute force stays quick)."""
    def row(s, rng, found):
        suits = {DECK.cards[c].suit for c, _, _ in s.mind}
        pool = [c for c in sorted(s.pile) if not DECK.cards[c].is_demon]
        near = [c for c in pool if DECK.cards[c].suit in suits]
        k = 2 + found % 3
        if len(pool) < k:
            return None
        drawn = []
        while len(drawn) < k:
            source = near if near and rng.random() < 0.75 else pool
            card = int(source[int(rng.integers(len(source)))])
            if card not in drawn:
                drawn.append(card)
        return drawn
    return blink_problems(count, seed, row, chance=0.5, accept=lambda s: len(s.mind) <= 6)


def test_EM70_cpsat_optimum_matches_an_independent_brute_force():
    """EM-70/EM-71/EM-73: on seeded rows of 2 to 4 cards (with demons in the demon row and tainted cards under
    them), CP-SAT's OPTIMAL value equals the best value of the reference brute force, and its plan, replayed
    and scored by the reference (not by the project's evaluator), reaches that value."""
    from solver.embers import solve_cpsat as C
    checked = with_relive = 0
    for problem in suited_problems(12, seed=41):
        ref = ref_problem(problem)
        best, plans = R.best_plan(ref)
        result = C.solve_cpsat(problem, time_limit=30)
        if best is None:
            assert result.status == "INFEASIBLE" and result.value is None
            continue
        assert result.status == "OPTIMAL" and result.optimal and result.value == best == result.bound
        assert R.plan_value(ref, [(DECK.cards[c].id, x, y) for c, x, y in result.adds]) == best
        with_relive += any(R.relives(CARDS, list(ref.mind) + plan[:i + 1]) for plan in plans
                           for i in range(len(plan)))
        checked += 1
    assert checked >= 10 and with_relive >= 3


# ------------------------------------------------------------------------------ regressions found in review
GUESSED = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- box=- "
           "resolve=?,?,?,? completed=0 added=1 pending=- result=-")


def test_EM4_a_typed_mind_with_mismatched_segments_is_impossible():
    """EM-4: cards are only added on matching segments, so every card covering a quarter shows the same segment
    there. A typed Mind with S1a '#...' exactly on C4 '#..#' (clear on blocked at 1,1) was silently accepted."""
    from solver.errors import ImpossibleStateError
    with pytest.raises(ImpossibleStateError) as err:
        state(phase="blink", added=True, row=["C3"], mind=["C4@0,0", "S1a@0,0"])
    assert err.value.field == "state.mind[1]" and "S1a@0,0" in str(err.value)
    assert state(phase="blink", added=True, row=["C3"], mind=["C4@0,0", "F4@0,0"]).mind  # same pattern: fine


def test_EM45_EM56_results_the_rules_cannot_reach_are_refused():
    """EM-45: a Chapter One win ends the third day; EM-43: a new day is only set up after day 1;
    EM-52/EM-56: the prologue is won in part two only."""
    from solver.errors import ImpossibleStateError
    over = dict(phase="over", turn="aelin", mind=["C4@0,0"])
    for day, result in ((1, "won"), (2, "won"), (1, "lost:setup-short")):
        with pytest.raises(ImpossibleStateError) as err:
            state(day=day, result=result, **over)
        assert err.value.field == "state.result"
    assert state(day=3, result="won", **over).is_terminal()
    with pytest.raises(ImpossibleStateError):
        PROLOGUE.state_from_json({"chapter": "prologue", "part": 1, "phase": "over", "result": "won",
                                  "mind": ["C4@0,0"], "resolve": [{"card": "D1a"}, {"card": "G2b"},
                                                                  {"card": "S3"}]})


def test_EM27_guessed_resolve_cards_are_never_passed_off_as_real():
    """A Fenrys view typed with '?' Resolve cards is filled with a seeded guess (for Fenrys's own hints). The
    guess used to leak out as if it were the truth: a full-information hint or plan, 'score' totals, the JSON and
    notation written back, and Aelin's moves (whose outcome depends on her cards) were all computed on it."""
    from solver.errors import InvalidInputError
    from solver.search import Limits, SearchContext
    s = GAME.state_from_notation(GUESSED)
    ctx = SearchContext(limits=Limits(time_ms=2000), seed=0)
    for call in (lambda: contract.hint(GAME, s, ctx, full_information=True),
                 lambda: contract.solve(GAME, {"state": GUESSED, "fullInformation": True}, ctx)):
        with pytest.raises(InvalidInputError) as err:
            call()
        assert err.value.field == "state.resolve"
    assert contract.hint(GAME, s, ctx).best.move.startswith("add C3")  # Fenrys's own hint is fine
    summary = contract.score(GAME, GUESSED)
    assert all(r["resolve"] == "?" and r["total"] is None for r in summary["rows"])
    assert [r["card"] for r in s.to_json()["resolve"]] == ["?"] * 4 and "deck" not in s.to_json()
    assert "resolve=?,?,?,?" in s.to_notation()
    s.apply_move("add C3@0,1")  # a Chains relive: Aelin is asked about her Resolve
    with pytest.raises(InvalidInputError):
        contract.legal_moves(GAME, s.to_notation())
    assert s.observation(0)["deckCount"] == len(s.pile)


def test_EM77_generated_puzzles_checked_by_the_reference():
    """EM-77: for generated puzzles, the reference brute force (every order and position of every card, no
    split) finds the stated maximum of relives and exactly one set of placements reaching it: the answer's."""
    from solver.puzzles import generate

    def full_plans(mind, row):
        found = []

        def visit(current, adds, relived):
            left = [c for c in row if c not in {a[0] for a in adds}]
            if not left:
                found.append((relived, frozenset(adds)))
                return
            for move in sorted(R.all_adds(CARDS, current, left)):
                grown = current + [move]
                if len(R.sections(grown)) == 1:
                    visit(grown, adds + [move], relived + R.relives(CARDS, grown))

        visit(list(mind), [], 0)
        return found

    for difficulty in ("easy", "medium"):
        for puzzle in generate(GAME, "blink", difficulty, seed=5, count=2):
            state = GAME.state_from_notation(puzzle["state"])
            solution = {(m.split()[1].split("@")[0], *map(int, m.split("@")[1].split(","))) for m in puzzle["solution"]}
            plans = full_plans(named(state.mind), [DECK.cards[c].id for c in state.row])
            best = max(r for r, _ in plans)
            assert best == puzzle["relives"]
            assert {s for r, s in plans if r == best} == {frozenset(solution)}


# ------------------------------------------------------------------------------ hidden information and silence
def _two_views(phase, row, added):
    """Two positions Fenrys cannot tell apart: the face-down Resolve cards differ, but each fits what the table
    shows (row 1 complete with S5 + F1a, so its Resolve card is a 1; row 2 open with C3, so below 4)."""
    base = dict(phase=phase, row=row, added=added, completed=1, mind=["C4@0,0", "S1a@1,1"],
                demons=[{"demon": "Dd", "tainted": ["D1b"]}], discard=["G1a"])
    a = [{"card": "D1a", "cards": ["S5", "F1a"]}, {"card": "G2b", "cards": ["C3"]}, {"card": "S3"}, {"card": "F5"}]
    b = [{"card": "F1b", "cards": ["S5", "F1a"]}, {"card": "D3", "cards": ["C3"]}, {"card": "S4"}, {"card": "C2a"}]
    return state(resolve=a, **base), state(resolve=b, **base)


@pytest.mark.parametrize("phase,row,added", [("observe", ["G3"], False), ("blink", ["C1b", "G3"], False),
                                             ("blink", ["G3"], True)])
def test_EM80_EM24_fenrys_hints_are_identical_for_positions_he_cannot_tell_apart(phase, row, added):
    """EM-80/EM-24: two positions that differ only in Aelin's face-down Resolve cards (each consistent with the
    strength rows) give Fenrys exactly the same hint, for the same seed, in Observe and in Blink."""
    from solver.search import Limits, SearchContext
    a, b = _two_views(phase, row, added)
    assert a.observation(0) == b.observation(0) and a.to_json() != b.to_json()
    for seed in (0, 3):
        ha = contract.hint(GAME, a, SearchContext(limits=Limits(time_ms=3000), seed=seed), top=6).to_json()
        hb = contract.hint(GAME, b, SearchContext(limits=Limits(time_ms=3000), seed=seed), top=6).to_json()
        for h in (ha, hb):
            h["rootInfo"].pop("timeMs")
        assert ha == hb


def test_EM80_the_hint_policies_ignore_the_deck_order():
    """EM-80: nobody sees the deck's order. The hint policies are given an oracle of the deck's next card (the
    self-play driver knows it) and must not use it, for Fenrys's draw decision or for Aelin's take; the
    full-information reference does use it (so the comparison can fail)."""
    from solver.embers.policy import FullInformationPolicy, HintPolicy
    fenrys, _ = _two_views("observe", ["G3"], False)
    aelin = state(turn="aelin", phase="acknowledge", mind=["C4@0,0", "S1a@1,1", "C3@-1,0"], added=True)
    for s in (fenrys, aelin):
        ranked = [[(x.action, x.score) for x in HintPolicy(next_card=lambda _, c=c: cid(c)).scores(
            s, np.random.default_rng(0))] for c in ("C1a", "S5", "Dd")]
        assert ranked[0] == ranked[1] == ranked[2]
    peeked = [[(x.action, round(x.score, 6)) for x in FullInformationPolicy(next_card=lambda _, c=c: cid(c)).scores(
        fenrys, np.random.default_rng(0))] for c in ("C2b", "G4")]
    assert peeked[0] != peeked[1]


# ------------------------------------------------------------------------------ determinism
def test_same_seed_same_hint_same_puzzles_same_game():
    """Every random process is seeded: the same hint query, puzzle generation and self-played game give the
    same output when repeated (hint samples, puzzle Minds, deals and both players' choices)."""
    from solver.embers.policy import HintPolicy
    from solver.puzzles import generate
    from solver.embers.selfplay import DeckOrder
    from solver.search import Limits, SearchContext

    def hint(s, seed):
        out = contract.hint(GAME, s, SearchContext(limits=Limits(time_ms=3000), seed=seed), top=5).to_json()
        out["rootInfo"].pop("timeMs")
        return out

    observe, _ = _two_views("observe", ["G3"], False)
    assert hint(observe, 4) == hint(observe, 4)
    def puzzles():
        return list(generate(GAME, "blink", "easy", seed=9, count=2))

    assert puzzles() == puzzles()

    def game(seed):
        s = GAME.new_initial_state(seed)
        order = DeckOrder(s, np.random.default_rng([seed, 1]))
        rng = np.random.default_rng(seed)
        fenrys, aelin = HintPolicy(), HintPolicy()
        moves = []
        while not s.is_terminal() and len(moves) < 60:
            action = order.next_card(s) if s.is_chance_node() else \
                (aelin if s.current_player() == 1 else fenrys).choose(s, rng)
            moves.append(s.action_to_string(action))
            s.apply_action(action)
        return moves

    assert game(7) == game(7)
