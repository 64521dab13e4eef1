"""Blink puzzles with a unique optimal plan, verified twice (EM-77).

A puzzle is a Mind and a memory row: "Add every card of the row to the Mind
and relive as many memories as possible." Its answer is where each card goes
(and an order that works). A puzzle is kept only if

* exhaustive search over every plan (every order and position; plans that
  split the Mind are not allowed, EM-73) finds exactly one set of placements
  that reaches the maximum number of relives, and
* CP-SAT, given the same question, proves the same maximum (status ``OPTIMAL``).

Difficulty: ``easy`` two cards and one relive; ``medium`` three cards, at least
one relive; ``hard`` four cards, at least two relives. Minds are grown by
legal random adds from one card, all seeded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from solver.embers import mind as mindlib
from solver.embers import plan as planlib
from solver.embers.cards import SUITS, Deck, pattern_text
from solver.embers.state import EmbersState, StrengthRow

DIFFICULTY = {  # row size, least relives, Mind size range
    "easy": (2, 1, (2, 4)),
    "medium": (3, 1, (3, 6)),
    "hard": (4, 2, (4, 7)),
}
ATTEMPTS = 4000


@dataclass
class Puzzle:
    """One verified puzzle."""

    index: int
    seed: int
    difficulty: str
    state: EmbersState
    relives: int
    solution: list[planlib.Placement]
    orders: int  # orders of those placements that reach the maximum
    plans: int  # plans the exhaustive search examined
    cpsat_status: str
    cpsat_seconds: float

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON (``docs/formats/embers.md``)."""
        deck = self.state.deck
        return {
            "puzzle": self.index, "seed": self.seed, "difficulty": self.difficulty,
            "goal": f"Add every card of the memory row to the Mind and relive {self.relives} "
                    f"memor{'y' if self.relives == 1 else 'ies'} (the most possible).",
            "mind": [f"{deck.cards[c].id}@{x},{y}" for c, x, y in self.state.mind],
            "row": [deck.cards[c].id for c in self.state.row],
            "state": self.state.to_notation(),
            "relives": self.relives,
            "solution": [f"add {deck.cards[c].id}@{x},{y}" for c, x, y in self.solution],
            "verified": {"uniquePlacements": True, "ordersReachingIt": self.orders,
                         "exhaustivePlans": self.plans, "cpsat": self.cpsat_status,
                         "cpsatSeconds": round(self.cpsat_seconds, 4)},
        }


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


def _unique_optimum(problem: planlib.BlinkProblem) -> tuple[int, list[planlib.Placement], int, int] | None:
    result = planlib.exhaustive(problem, max_plans=400_000)
    if not result.complete or result.value is None:
        return None
    placements = {frozenset(plan) for plan in result.best}
    if len(placements) != 1:
        return None
    return result.value, result.best[0], len(result.best), result.plans


def generate(game: Any, count: int, seed: int, difficulty: str) -> list[Puzzle]:
    """``count`` verified puzzles of ``difficulty`` from ``seed`` (deterministic)."""
    if difficulty not in DIFFICULTY:
        from solver.errors import InvalidInputError
        raise InvalidInputError("--difficulty", difficulty, f"expected one of {', '.join(DIFFICULTY)}")
    k, least, (low, high) = DIFFICULTY[difficulty]
    rng = np.random.default_rng([seed, list(DIFFICULTY).index(difficulty)])
    deck = game.deck
    puzzles: list[Puzzle] = []
    for attempt in range(ATTEMPTS * count):
        if len(puzzles) == count:
            break
        mind = _grow_mind(deck, rng, int(rng.integers(low, high + 1)))
        if mind is None:
            continue
        free = [c.index for c in deck.memory if c.index not in {e[0] for e in mind}]
        row = [free[i] for i in rng.choice(len(free), size=k, replace=False)]
        if _relive_candidates(deck, mind, row) < least:
            continue
        state = _state_for(game, mind, row, rng)
        problem = puzzle_problem(state)
        found = _unique_optimum(problem)
        if found is None or found[0] < least or (difficulty == "easy" and found[0] != 1):
            continue
        relives, solution, orders, plans = found
        check = planlib.solve_cpsat(problem, time_limit=60.0)
        if not check.optimal or check.value != relives:
            raise AssertionError(f"CP-SAT disagrees with exhaustive search on puzzle {state.to_notation()}")
        puzzles.append(Puzzle(len(puzzles) + 1, seed, difficulty, state, relives, solution, orders, plans,
                              check.status, check.seconds))
    if len(puzzles) < count:
        from solver.errors import UnsupportedActionError
        raise UnsupportedActionError("--count", count, f"found only {len(puzzles)} {difficulty} puzzles in "
                                                       f"{ATTEMPTS * count} attempts with seed {seed}")
    return puzzles


def render_puzzle(puzzle: Puzzle, out: TextIO) -> None:
    """A puzzle as text, with its answer at the end."""
    data = puzzle.to_json()
    deck = puzzle.state.deck
    out.write(f"Puzzle {puzzle.index} ({puzzle.difficulty}, seed {puzzle.seed}): {data['goal']}\n")
    out.write("  Mind (bottom to top): " + ", ".join(data["mind"]) + "\n")
    for line in mindlib.render(deck, puzzle.state.mind):
        out.write("      " + line + "\n")
    out.write("  Row: " + ", ".join(f"{deck.cards[c].id} ({deck.cards[c].suit_name} {deck.cards[c].strength} "
                                     f"{pattern_text(deck.cards[c].blocked)})" for c in puzzle.state.row) + "\n")
    out.write(f"  Position: {data['state']}\n")
    out.write(f"  Answer: {'; '.join(data['solution'])} (unique placements; {puzzle.orders} order(s) work; "
              f"{puzzle.plans} plans searched; CP-SAT {puzzle.cpsat_status})\n\n")
