"""Blink puzzles with a unique optimal plan, verified twice (EM-77), graded by the solver's work (EM-78).

A puzzle is a Mind and a memory row: "Add every card of the row to the Mind
and relive as many memories as possible." Its answer is where each card goes
(and an order that works). A puzzle is kept only if

* exhaustive search over every plan (every order and position; plans that
  split the Mind are not allowed, EM-73) finds exactly one set of placements
  that reaches the maximum number of relives, and
* CP-SAT, given the same question, proves the same maximum (status ``OPTIMAL``).

Difficulty (EM-78) is the solver's work, Simon Tatham style: the number of
complete plans the exhaustive proof has to examine (every order and position
of the row's cards that keeps the Mind whole), among which the answer is the
only best one. ``easy``: fewer than 10 (rows of two cards, one relive);
``medium``: 10 to 199 (three cards, at least one relive); ``hard``: 200 or
more (four cards, at least two relives). Minds are grown by legal random adds
from one card. Everything is drawn from the generator given, so puzzle ``i``
of a run is made again from its own stream (``solver/puzzles.py``).

Generation stops when its context says so (``terminate`` or the time limit): between candidates, and inside a
candidate's proofs (the exhaustive search and CP-SAT both watch the context), raising
:class:`solver.search.Stopped`.
"""

from __future__ import annotations

import re
import time
from typing import Any

import numpy as np

from solver.embers import mind as mindlib
from solver.embers import plan as planlib
from solver.embers.cards import SUITS, Deck, pattern_text
from solver.embers.solve_cpsat import solve_cpsat
from solver.embers.state import FENRYS, EmbersState, StrengthRow, decode, decode_add
from solver.errors import InvalidInputError, SolverError, UnsupportedActionError
from solver.game import Game
from solver.search import SearchContext, Stopped, Watch
from solver.validate import get

KIND = "blink"
#: the puzzle kinds ``generate --kind`` offers (the first is the default)
KINDS = (KIND,)
#: per grade: row size, least relives, Mind size range, and the band of the solver's work (plans examined)
DIFFICULTY = {
    "easy": (2, 1, (2, 4), 1, 9),
    "medium": (3, 1, (3, 6), 10, 199),
    "hard": (4, 2, (4, 7), 200, None),
}
ATTEMPTS = 20_000
#: the exhaustive proof examines at most this many plans (a harder candidate is skipped)
MAX_PLANS = 20_000
#: CP-SAT's second proof may use this much of its deterministic work measure (about seconds on this machine);
#: a candidate it cannot prove within it is skipped, the same on every machine
CPSAT_WORK = 5.0
#: ... and re-solve at most this many times after cutting a plan that splits the Mind (EM-73)
CPSAT_CUTS = 10
_PLACEMENT = re.compile(r"(?:add\s+)?([A-Za-z][A-Za-z0-9_-]*)\s*@\s*(-?\d+)\s*,\s*(-?\d+)")


def puzzle_problem(state: EmbersState) -> planlib.BlinkProblem:
    """The puzzle's question as a Blink problem: the objective counts relives, every card must be added."""
    deck = state.deck
    row = tuple(state.row)
    weights = planlib.Weights(demon=0, taint=0, reveal=1, exact=0, fit=0, visible=0)
    counting = tuple(tuple(range(len(row) + 1)) for _ in SUITS)
    return planlib.BlinkProblem(deck, tuple(state.mind), row, frozenset(), counting, {}, {}, must_add=True,
                                weights=weights, require_all=True)


def _grow_mind(deck: Deck, rng: np.random.Generator, size: int) -> list[mindlib.Entry] | None:
    cards = [c.index for c in deck.memory]
    order = [cards[i] for i in rng.permutation(len(cards))]
    mind = [(order[0], 0, 0)]
    for card in order[1:]:
        if len(mind) >= size:
            break
        spots = mindlib.legal_placements(deck, mind, [card])
        spots = [s for s in spots if len(mindlib.sections(mind + [s])) == 1]
        if spots:
            mind.append(spots[int(rng.integers(len(spots)))])
    return mind if len(mind) >= size else None


def _state_for(game: Any, mind: list[mindlib.Entry], row: list[int], rng: np.random.Generator) -> EmbersState:
    """A Chapter One position in which Fenrys blinks with this Mind and row (Resolve drawn from the rest)."""
    state = EmbersState(game)
    used = {e[0] for e in mind} | set(row)
    rest = [c.index for c in game.deck.memory if c.index not in used]
    resolve = [rest[i] for i in rng.choice(len(rest), size=4, replace=False)]
    state.mind = list(mind)
    state.row = list(row)
    state.rows = [StrengthRow(c) for c in resolve]
    state.phase, state.turn = "blink", 0
    state.pile = {c.index for c in game.deck.cards} - used - set(resolve)
    return state


def _relive_candidates(deck: Deck, mind: list[mindlib.Entry], row: list[int]) -> int:
    """How many row cards could close a group of exactly 7 with other row cards and Mind groups of their suit
    (a necessary condition for a relive; it ignores geometry)."""
    count = 0
    for card in row:
        suit = deck.cards[card].suit
        parts = [deck.cards[c].strength for c in row if c != card and deck.cards[c].suit == suit]
        seen: set[int] = set()
        for k, (c, _, _) in enumerate(mind):
            if deck.cards[c].suit == suit and k not in seen:
                group = mindlib.same_suit_group(deck, mind, k)
                seen |= {j for j, e in enumerate(mind) if e[0] in set(group)}
                parts.append(sum(deck.cards[g].strength for g in group))
        sums = {deck.cards[card].strength}
        for part in parts:
            sums |= {v + part for v in sums}
        count += 7 in sums
    return count


def _unique_optimum(problem: planlib.BlinkProblem, watch: Watch | None = None
                    ) -> tuple[int, list[planlib.Placement], int, int] | None:
    result = planlib.exhaustive(problem, max_plans=MAX_PLANS, deadline=None if watch is None else watch.deadline,
                                cancel=None if watch is None else watch.cancel)
    if not result.complete or result.value is None:
        return None
    placements = {frozenset(plan) for plan in result.best}
    if len(placements) != 1:
        return None
    return result.value, result.best[0], len(result.best), result.plans


def generate(game: Game, kind: str, difficulty: str, rng: np.random.Generator,
             ctx: SearchContext) -> dict[str, Any]:
    """A Blink puzzle with a unique optimal plan, graded by the solver's work (EM-77, EM-78); raises
    :class:`solver.search.Stopped` when ``ctx`` says stop."""
    with Watch.for_context(ctx, name="embers-puzzle") as watch:
        return generate_puzzle(game.for_chapter("one"), difficulty, rng, watch)  # type: ignore[attr-defined]


def generate_puzzle(game: Any, difficulty: str, rng: np.random.Generator, watch: Watch | None = None
                    ) -> dict[str, Any]:
    """One verified Blink puzzle of ``difficulty``, every choice drawn from ``rng``; ``watch`` stops it
    (:class:`solver.search.Stopped`) on ``terminate`` or at the time limit."""
    if difficulty not in DIFFICULTY:
        raise InvalidInputError("difficulty", difficulty, f"expected one of {', '.join(DIFFICULTY)}")
    k, least, (low, high), work_low, work_high = DIFFICULTY[difficulty]
    deck = game.deck
    for _ in range(ATTEMPTS):
        if watch is not None and watch.stopped():
            raise Stopped("puzzle generation stopped")
        mind = _grow_mind(deck, rng, int(rng.integers(low, high + 1)))
        if mind is None:
            continue
        free = [c.index for c in deck.memory if c.index not in {e[0] for e in mind}]
        row = [free[i] for i in rng.choice(len(free), size=k, replace=False)]
        if _relive_candidates(deck, mind, row) < least:
            continue
        state = _state_for(game, mind, row, rng)
        problem = puzzle_problem(state)
        found = _unique_optimum(problem, watch)
        if found is None:
            continue
        relives, solution, orders, plans = found
        if relives < least or (difficulty == "easy" and relives != 1) or plans < work_low or \
                (work_high is not None and plans > work_high):
            continue
        check = solve_cpsat(problem, time_limit=600.0, deterministic_time=CPSAT_WORK, max_cuts=CPSAT_CUTS,
                            watch=watch)
        if check.optimal and check.value != relives:
            raise AssertionError(f"CP-SAT disagrees with exhaustive search on puzzle {state.to_notation()}")
        if not check.optimal:  # CP-SAT did not finish its proof within its (machine-independent) work limit
            continue
        return _puzzle_json(state, relives, solution, orders, plans, check.status)
    raise UnsupportedActionError("difficulty", difficulty, f"no {difficulty} puzzle found in {ATTEMPTS} attempts")


def _puzzle_json(state: EmbersState, relives: int, solution: list[planlib.Placement], orders: int, plans: int,
                 cpsat: str) -> dict[str, Any]:
    deck = state.deck
    return {
        "goal": f"Add every card of the memory row to the Mind and relive {relives} "
                f"memor{'y' if relives == 1 else 'ies'} (the most possible).",
        "mind": [f"{deck.cards[c].id}@{x},{y}" for c, x, y in state.mind],
        "row": [deck.cards[c].id for c in state.row],
        "state": state.to_notation(),
        "relives": relives,
        "solution": [f"add {deck.cards[c].id}@{x},{y}" for c, x, y in solution],
        "work": plans,
        "verified": {"uniquePlacements": True, "ordersReachingIt": orders, "exhaustivePlans": plans,
                     "cpsat": cpsat},
    }


def puzzle_state(game: Any, puzzle: dict[str, Any]) -> EmbersState:
    """The puzzle's position (its ``state``), checked to be a Blink with the puzzle's row."""
    if not isinstance(puzzle, dict):
        raise InvalidInputError("puzzle", puzzle, "expected a puzzle object")
    state = game.parse_state(get(puzzle, "state", "puzzle"), "puzzle.state")
    if not isinstance(state, EmbersState) or state.chapter != "one" or state.phase != "blink" or not state.row:
        raise InvalidInputError("puzzle.state", puzzle.get("state"), "a Blink puzzle is a Chapter One position in "
                                                                     "which Fenrys blinks with a memory row")
    if any(state.deck.cards[c].is_demon for c in state.row):
        raise InvalidInputError("puzzle.state", puzzle.get("state"), "a puzzle's memory row holds memory cards only")
    return state


def position(game: Game, puzzle: dict[str, Any]) -> EmbersState:
    """The Blink to play the answer from (its Resolve cards face up: they play no part, and no relive then
    waits for Aelin's reveal); :func:`check` takes the moves played there as a list."""
    return puzzle_position(game.for_chapter("one"), puzzle)  # type: ignore[attr-defined]


def check(game: Game, puzzle: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
    """Judge ``answer`` (the adds in order, or the moves played from :func:`position`), re-proving the puzzle; the
    proof stops with :class:`solver.search.Stopped` when ``ctx`` says (its terminate or time limit)."""
    return check_answer(game.for_chapter("one"), puzzle, answer, ctx)  # type: ignore[attr-defined]


def describe(game: Game, puzzle: dict[str, Any]) -> str:
    """The puzzle's statement as text (never its answer)."""
    return describe_puzzle(game.for_chapter("one"), puzzle)  # type: ignore[attr-defined]


def answer(game: Game, puzzle: dict[str, Any]) -> str:
    """The proven answer as one line: the adds in order and the relives."""
    solution = puzzle.get("solution") or []
    return f"{'; '.join(solution)} (relives {puzzle.get('relives')})"


def puzzle_position(game: Any, puzzle: dict[str, Any]) -> EmbersState:
    """The position a player answers the puzzle from by playing moves (the web board): the puzzle's Blink with
    every Resolve card face up. The Resolve cards play no part in a Blink puzzle; face up, no relive stops the
    Blink for Aelin's choice to reveal one (EM-21), so the moves played are the puzzle's choices only: Fenrys's
    adds (and, once he has added a card, discards, which no correct answer makes)."""
    return _face_up(puzzle_state(game, puzzle))


def _face_up(state: EmbersState) -> EmbersState:
    for row in state.rows:
        row.face_up, row.at_least = True, 0
    state.pending = None
    state._legal = None
    return state


def _answer_moves(state: EmbersState, answer: list[Any]) -> tuple[list[planlib.Placement], str | None]:
    """The web board's answer, the move strings played from :func:`puzzle_position`: its adds, or the reason
    it is not correct (a discard, a move after the row is used up, an illegal move)."""
    position = _face_up(state.clone())
    adds: list[planlib.Placement] = []
    for n, move in enumerate(answer, 1):
        if not isinstance(move, str):
            raise InvalidInputError(f"answer[{n - 1}]", move, "expected a move string such as 'add C4@0,0'")
        text = move.strip()
        if position.phase != "blink" or position.current_player() != FENRYS:
            return adds, f"move {n} ({text}) comes after the Blink: the answer is Fenrys's adds"
        placement = _PLACEMENT.fullmatch(text)
        if placement is None and not text.startswith(("add ", "discard ")):
            raise InvalidInputError(f"answer[{n - 1}]", move, "expected a move string such as 'add C4@0,0'")
        try:
            action = position.parse_move(text if placement is None or text.startswith("add") else f"add {text}",
                                         f"answer[{n - 1}]")
        except SolverError as exc:
            return adds, f"move {n} ({text}) is not legal then: {exc.problem}"
        if text.startswith("discard"):
            return adds, f"move {n} ({text}) discards a card: every card of the row must be added"
        adds.append(decode_add(decode(action)[1]))
        position.apply_action(action)
    return adds, None


def parse_answer(state: EmbersState, answer: Any) -> list[planlib.Placement]:
    """An answer: the adds in order, as ``"add C4@0,0; add G3@-1,-2"`` (``add`` optional) or a list of them."""
    if isinstance(answer, list):
        answer = "; ".join(str(a) for a in answer)
    if not isinstance(answer, str) or not answer.strip():
        raise InvalidInputError("answer", answer, "expected the adds in order, such as 'add C4@0,0; add G3@-1,-2'")
    found = list(_PLACEMENT.finditer(answer))
    leftover = _PLACEMENT.sub("", answer).replace(";", " ").replace(",", " ").split()
    if not found or leftover:
        raise InvalidInputError("answer", answer, "expected the adds in order, such as 'add C4@0,0; add G3@-1,-2'")
    return [(state.deck.card(m.group(1), "answer").index, int(m.group(2)), int(m.group(3))) for m in found]


def check_answer(game: Any, puzzle: dict[str, Any], answer: Any, ctx: SearchContext | None = None) -> dict[str, Any]:
    """Re-prove the puzzle from its position and judge ``answer`` (the stored solution is never read); ``ctx`` (its
    terminate and time limit) stops the proof: :class:`solver.search.Stopped`."""
    state = puzzle_state(game, puzzle)
    refused = None
    if isinstance(answer, list) and not all(isinstance(a, str) and _PLACEMENT.fullmatch(a.strip()) for a in answer):
        adds, refused = _answer_moves(state, answer)  # moves played on the web board, checked as they were played
    else:
        adds = parse_answer(state, answer)
    problem = puzzle_problem(state)
    ctx = ctx or SearchContext()
    left = ctx.remaining()
    best = planlib.exhaustive(problem, max_plans=10 * MAX_PLANS, cancel=ctx.cancel,
                              deadline=None if left is None else time.perf_counter() + left)
    if not best.complete and (ctx.cancelled or ctx.deadline_passed()):
        raise Stopped("puzzle check stopped")
    if not best.complete or best.value is None:
        raise UnsupportedActionError("puzzle", puzzle.get("id"), "this puzzle could not be re-proved (its row has "
                                                                  "no complete split-free plan, or too many plans)")
    if refused is not None:
        return _verdict(False, refused, best.value)
    deck = state.deck
    names = [deck.cards[c].id for c, _, _ in adds]
    row = [deck.cards[c].id for c in state.row]
    missing = [c for c in row if c not in names]
    extra = sorted({n for n in names if n not in row or names.count(n) > 1})
    if extra:
        return _verdict(False, f"{', '.join(extra)}: every card of the row is added exactly once", best.value)
    if missing:
        return _verdict(False, f"{', '.join(missing)} not added: every card of the row must be added", best.value)
    mind = list(state.mind)
    relives = 0
    for n, (card, x, y) in enumerate(adds, 1):
        if not mindlib.is_legal_placement(deck, mind, card, x, y):
            return _verdict(False, f"add {n} ({deck.cards[card].id}@{x},{y}) is not a legal placement then "
                                   "(EM-3..EM-6)", best.value)
        mind.append((card, x, y))
        relives += mindlib.relives(deck, mind)
        if len(mindlib.sections(mind)) > 1:
            return _verdict(False, f"add {n} ({deck.cards[card].id}@{x},{y}) splits the Mind (EM-73)", best.value)
    if relives < best.value:
        return _verdict(False, f"relives {relives}; {best.value} can be relived", best.value)
    return _verdict(True, f"relives {relives}, the most possible (proven by exhaustive search over "
                          f"{best.plans} plans)", best.value)


def _verdict(correct: bool, message: str, best: int) -> dict[str, Any]:
    return {"correct": correct, "message": message, "bestRelives": best}


def describe_puzzle(game: Any, puzzle: dict[str, Any]) -> str:
    """A puzzle as text for a person (the answer is not shown)."""
    state = puzzle_state(game, puzzle)
    deck = state.deck
    lines = [f"{puzzle.get('difficulty', '')} Blink puzzle (work {puzzle.get('work', '?')} plans): "
             f"{puzzle.get('goal', '')}".strip(),
             "  Mind (bottom to top): " + ", ".join(f"{deck.cards[c].id}@{x},{y}" for c, x, y in state.mind)]
    lines.extend("      " + line for line in mindlib.render(deck, state.mind))
    lines.append("  Row: " + ", ".join(f"{deck.cards[c].id} ({deck.cards[c].suit_name} {deck.cards[c].strength} "
                                       f"{pattern_text(deck.cards[c].blocked)})" for c in state.row))
    lines.append(f"  Position: {puzzle['state']}")
    return "\n".join(lines) + "\n"
