"""Optimal relive plans for Fenrys's Blink, proven with CP-SAT and cross-checked by exhaustive search.

The Blink problem (docs/rules/embers-of-memory.md, EM-70..EM-76): given the
Mind, the memory cards of the memory row, the demons in the demon row (with
the cards tainted under them) and what Fenrys knows of Aelin's Resolve, choose
which cards to add, in which order and where (the others are discarded), to
maximise (EM-71)

  - 1000 x demons left in the demon row at the end of the Blink
  +  150 x cards rescued (tainted under a demon that a relive banishes)
  -  150 x cards tainted by this Blink's discards and left under a demon
  +  150 x expected face-down Resolve cards of a relived suit (Aelin may turn them)
  +  value of every visible card at the end: 5, plus 60 x P(it completes Aelin's
     current strength row) + 15 x P(it fits without completing it), the
     probabilities taken over the face-down Resolve card as Fenrys sees it

over plans in which every add is legal when it is made and the Mind never
splits (a split hands the choice to Aelin, so no plan can count on it, EM-73).
The order of discards does not matter: a card tainted before its demon is
banished leaves with the demon, exactly as if it had been discarded after (EM-72).

:func:`solve_cpsat` builds a time-indexed CP-SAT model (one Boolean per
card, position and step; the top segment of every quarter before every step;
same-suit groups by bounded reachability), solves it, replays the plan in the
rules engine and, if the plan splits the Mind, cuts that prefix and solves
again, so the final ``OPTIMAL`` status is a proof over split-free plans.
:func:`exhaustive` enumerates every plan with the rules engine.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.embers import mind as mindlib
from solver.embers.cards import SUITS, Deck
from solver.embers.state import FENRYS, TARGET

SEGMENTS = ((0, 0), (1, 0), (0, 1), (1, 1))
Placement = tuple[int, int, int]  # (card, x, y)


OBJECTIVE_SCALE = 1000   # integer units per point of the objective: the search works in thousandths (EM-71)


@dataclass(frozen=True)
class Weights:
    """The objective's weights in points (docs/rules/embers-of-memory.md, EM-71)."""

    demon: int = 1000  # per demon left in the demon row
    taint: int = 150  # per card tainted and left under a demon (and per tainted card a banish rescues)
    reveal: int = 150  # per expected face-down Resolve card a relive lets Aelin turn
    exact: int = 60  # x P(a visible card completes Aelin's current row)
    fit: int = 15  # x P(a visible card fits her current row without completing it)
    visible: int = 5  # per visible card


@dataclass(frozen=True)
class BlinkProblem:
    """One Blink to plan, with everything the objective needs, from Fenrys's point of view."""

    deck: Deck
    mind: tuple[Placement, ...]
    row: tuple[int, ...]
    demon_suits: frozenset[int]
    reveal_value: tuple[tuple[int, ...], ...]  # per suit: scaled value of r relives, r = 0..len(row)
    card_value: dict[int, int]  # value of each card of the Mind and the row if visible at the end
    rescue: dict[int, int] = field(default_factory=dict)  # per demon suit: cards already tainted under it
    must_add: bool = True
    weights: Weights = field(default_factory=Weights)
    require_all: bool = False  # puzzles: every card of the row must be added
    scale: int = 1  # integer units per point: reveal_value, card_value and every plan value are in units

    @property
    def units(self) -> Weights:
        """The weights in the problem's integer units (what the searches add up)."""
        w, k = self.weights, self.scale
        return Weights(w.demon * k, w.taint * k, w.reveal * k, w.exact * k, w.fit * k, w.visible * k)

    def value_of(self, card: int) -> int:
        """What a visible card is worth to Aelin (see :class:`Weights`), in units."""
        return self.card_value.get(card, self.units.visible)

    def points(self, value: float | None) -> float | None:
        """A value in units as points (the objective as EM-71 writes it)."""
        return None if value is None else value / self.scale


@dataclass
class Outcome:
    """What a plan achieves, computed by replaying it in the rules engine."""

    value: int                  # in the problem's units
    relives: dict[int, int]
    banished: list[int]
    tainted: list[int]
    visible: list[int]
    demons_left: list[int]
    scale: int = 1

    def to_json(self, deck: Deck) -> dict[str, Any]:
        """The objective's parts, readable (``value`` in points)."""
        return {"value": self.value / self.scale, "relives": {SUITS[s]: n for s, n in sorted(self.relives.items())},
                "banished": [SUITS[s] for s in self.banished],
                "demonsLeft": [SUITS[s] for s in sorted(self.demons_left)],
                "tainted": [deck.cards[c].id for c in self.tainted],
                "visible": [deck.cards[c].id for c in self.visible]}


@dataclass
class PlanResult:
    """A plan with its value and, when proven, its optimality."""

    adds: list[Placement]
    discards: list[int]
    value: int | None
    bound: float | None
    status: str
    optimal: bool
    seconds: float
    outcome: Outcome | None = None
    cuts: int = 0
    candidates: int = 0
    variables: int = 0
    exhaustive: Any = None  # the ExhaustiveResult when the plan comes from exhaustive search

    def moves(self, deck: Deck) -> list[str]:
        """The plan as move strings, adds in order then discards."""
        return ([f"add {deck.cards[c].id}@{x},{y}" for c, x, y in self.adds]
                + [f"discard {deck.cards[c].id}" for c in self.discards])


# ---------------------------------------------------------------------------------- problem
def problem_from_state(state: Any, weights: Weights | None = None, player: int = FENRYS,
                       reveals: list[list[float]] | None = None,
                       need: dict[int, float] | None = None, scale: int = OBJECTIVE_SCALE) -> BlinkProblem:
    """The Blink problem of a Chapter One state in Observe (after stopping) or Blink, as ``player`` sees it.

    ``reveals`` and ``need`` may pass precomputed :func:`solver.embers.knowledge.expected_reveals` and
    :func:`solver.embers.knowledge.need_distribution` tables of ``state``. The probability terms are rounded
    to ``1/scale`` of a point (EM-71: thousandths by default, so both proofs work on integers).
    """
    from solver.embers.knowledge import expected_reveals, need_distribution
    deck = state.deck
    weights = weights or Weights()
    row = tuple(c for c in state.row if not deck.cards[c].is_demon)
    demon_suits = {deck.cards[d].suit for d, _ in state.demons}
    demon_suits |= {deck.cards[c].suit for c in state.row if deck.cards[c].is_demon}
    rescue = {deck.cards[d].suit: len(t) for d, t in state.demons if t}
    table = reveals if reveals is not None and len(reveals[0]) > len(row) else \
        expected_reveals(state, player, max_relives=len(row))
    reveal_value = tuple(tuple(int(round(scale * weights.reveal * v)) for v in table[s]) for s in range(len(SUITS)))
    if need is None:
        need = need_distribution(state, player)
    card_value = {}
    for card in [e[0] for e in state.mind] + list(row):
        strength = deck.cards[card].strength
        exact = sum(p for n, p in need.items() if n == strength)
        fit = sum(p for n, p in need.items() if n > strength)
        card_value[card] = int(round(scale * (weights.visible + weights.exact * exact + weights.fit * fit)))
    return BlinkProblem(deck, tuple(state.mind), row, frozenset(demon_suits), reveal_value, card_value, rescue,
                        must_add=not state.added, weights=weights, scale=scale)


# ---------------------------------------------------------------------------------- evaluation by replay
def evaluate(problem: BlinkProblem, adds: Sequence[Placement]) -> Outcome | None:
    """Replay ``adds`` in the rules engine; ``None`` if an add is illegal, a card repeats, or the Mind splits."""
    deck = problem.deck
    mind = list(problem.mind)
    demons = set(problem.demon_suits)
    relives: Counter[int] = Counter()
    banished: list[int] = []
    used: set[int] = set()
    if (problem.must_add and not adds) or (problem.require_all and len(adds) != len(problem.row)):
        return None
    for card, x, y in adds:
        if card in used or card not in problem.row or not mindlib.is_legal_placement(deck, mind, card, x, y):
            return None
        used.add(card)
        mind.append((card, x, y))
        if mindlib.relives(deck, mind):
            suit = deck.cards[card].suit
            relives[suit] += 1
            if suit in demons:
                demons.discard(suit)
                banished.append(suit)
        if len(mindlib.sections(mind)) > 1:
            return None
    return _score(problem, mind, relives, banished, [c for c in problem.row if c not in used], demons)


def _score(problem: BlinkProblem, mind: list[Placement], relives: Counter[int], banished: list[int],
           discarded: list[int], demons_left: set[int]) -> Outcome:
    deck, w = problem.deck, problem.units
    tainted = [c for c in discarded if deck.cards[c].suit in demons_left]
    visible = mindlib.visible_cards(mind)
    value = (-w.demon * len(demons_left) + w.taint * sum(problem.rescue.get(s, 0) for s in banished)
             + sum(problem.reveal_value[s][n] for s, n in relives.items()) - w.taint * len(tainted)
             + sum(problem.value_of(c) for c in visible))
    return Outcome(value, dict(relives), banished, tainted, visible, sorted(demons_left), problem.scale)


# ---------------------------------------------------------------------------------- exhaustive search
@dataclass
class ExhaustiveResult:
    """The best value over every split-free plan, with every plan that reaches it."""

    value: int | None
    best: list[list[Placement]]
    plans: int
    complete: bool
    by_first: dict[Placement, int] = field(default_factory=dict)  # best value of plans starting with an add
    without: dict[int, int] = field(default_factory=dict)  # best value of plans that never add a card


def _additions(deck: Deck, mind: list[Placement], remaining: Sequence[int], relives: Counter[int],
               banished: list[int], demons: set[int]
               ) -> Iterator[tuple[Placement, list[Placement], Counter[int], list[int], set[int]]]:
    """Each legal placement that keeps the Mind in one section, with the Mind it makes and the relive
    bookkeeping after it: ``(placement, grown, relives, banished, demons)``."""
    for card, x, y in mindlib.legal_placements(deck, mind, remaining):
        grown = mind + [(card, x, y)]
        if len(mindlib.sections(grown)) > 1:
            continue
        more, gone, left = relives, banished, demons
        if mindlib.relives(deck, grown):
            suit = deck.cards[card].suit
            more = relives + Counter({suit: 1})
            if suit in demons:
                gone, left = banished + [suit], demons - {suit}
        yield (card, x, y), grown, more, gone, left


def exhaustive(problem: BlinkProblem, max_plans: int = 2_000_000, deadline: float | None = None,
               cancel: threading.Event | None = None) -> ExhaustiveResult:
    """Enumerate every plan (order and positions of the adds) with the rules engine.

    Stops early (``complete`` false) after ``max_plans`` plans, at ``deadline`` (``time.perf_counter()``) or
    when ``cancel`` is set.
    """
    deck = problem.deck
    result = ExhaustiveResult(None, [], 0, True)

    def visit(mind: list[Placement], adds: list[Placement], relives: Counter[int], banished: list[int],
              demons: set[int]) -> None:
        if result.plans >= max_plans or not result.complete or (result.plans % 64 == 0 and (
                (deadline is not None and time.perf_counter() > deadline) or (cancel is not None and cancel.is_set()))):
            result.complete = False
            return
        used = {c for c, _, _ in adds}
        remaining = [c for c in problem.row if c not in used]
        if (adds or not problem.must_add) and not (problem.require_all and remaining):
            result.plans += 1
            value = _score(problem, mind, relives, banished, remaining, demons).value
            if adds and value > result.by_first.get(adds[0], -10**9):
                result.by_first[adds[0]] = value
            for card in remaining:
                if value > result.without.get(card, -10**9):
                    result.without[card] = value
            if result.value is None or value > result.value:
                result.value, result.best = value, [list(adds)]
            elif value == result.value:
                result.best.append(list(adds))
        for (card, x, y), grown, more, gone, left in _additions(deck, mind, remaining, relives, banished, demons):
            visit(grown, adds + [(card, x, y)], more, gone, left)

    visit(list(problem.mind), [], Counter(), [], set(problem.demon_suits))
    return result


# ---------------------------------------------------------------------------------- compiled branch and bound
@dataclass
class SearchOutcome:
    """The compiled exact search's answer (:func:`search`)."""

    found: bool
    value: int | None
    adds: list[Placement]
    nodes: int
    complete: bool  # the search ran to the end: ``value`` is the optimum (over the plans asked about)


def searchable(problem: BlinkProblem) -> bool:
    """Whether the compiled search's 64 x 64 board holds the Mind and every card the row could add."""
    if not problem.mind or len(problem.row) > 16 or len(problem.mind) + len(problem.row) > 64:
        return False
    width, height = mindlib.span(problem.mind)
    return max(width, height) - 2 + 2 * len(problem.row) + 4 <= 64


def search(problem: BlinkProblem, max_nodes: int = 50_000_000, allowed: Sequence[int] | None = None,
           first: Placement | None = None) -> SearchOutcome:
    """The best split-free plan by the compiled branch-and-bound kernel (``src/embers_plan.pyx``).

    Same objective and plans as :func:`exhaustive` (EM-70..EM-73), searched in C with a bound that cuts
    hopeless subtrees. ``allowed``: the row cards that may be added (the others are discarded); ``first``:
    the plan must start with this add (``must_add`` then holds too). ``max_nodes`` bounds the work
    (deterministic, unlike a time limit); ``complete`` says whether the search finished.
    """
    from solver.kernels import embers_plan as kernel
    if first is not None and first[0] not in problem.row:
        return SearchOutcome(False, None, [], 0, True)
    args = search_arguments(problem, max_nodes, allowed, first)
    found, value, length, nodes, complete = kernel.search_plans(*args)
    adds = [(problem.row[int(i)], int(x), int(y)) for i, x, y in args[-1][:length].tolist()]
    return SearchOutcome(bool(found), int(value) if found else None, adds, int(nodes), bool(complete))


def search_arguments(problem: BlinkProblem, max_nodes: int = 50_000_000, allowed: Sequence[int] | None = None,
                     first: Placement | None = None) -> tuple[Any, ...]:
    """The arguments of ``search_plans`` (kernel and twin) for ``problem``; the last one is the plan array."""
    import numpy as np
    if problem.require_all:
        raise ValueError("plans that must add every card are searched by exhaustive(), not search()")
    if not searchable(problem):
        raise ValueError("mind: too wide for the plan search (span + 2 x row cards + 4 must be at most 64)")
    deck, mind, row = problem.deck, problem.mind, problem.row
    cards = deck.cards
    index = {c: i for i, c in enumerate(row)}
    mask = (1 << len(row)) - 1 if allowed is None else sum(1 << index[c] for c in allowed if c in index)
    first_card, first_x, first_y = (-1, 0, 0) if first is None else (index[first[0]], first[1], first[2])
    width = max(len(t) for t in problem.reveal_value)
    return (
        np.array([e[1] for e in mind], dtype=np.int32), np.array([e[2] for e in mind], dtype=np.int32),
        np.array([cards[e[0]].blocked for e in mind], dtype=np.uint8),
        np.array([cards[e[0]].suit for e in mind], dtype=np.uint8),
        np.array([cards[e[0]].strength for e in mind], dtype=np.uint8),
        np.array([problem.value_of(e[0]) for e in mind], dtype=np.int64),
        np.array([cards[c].blocked for c in row], dtype=np.uint8), np.array([cards[c].suit for c in row], dtype=np.uint8),
        np.array([cards[c].strength for c in row], dtype=np.uint8),
        np.array([problem.value_of(c) for c in row], dtype=np.int64),
        np.array([list(t) + [t[-1]] * (width - len(t)) for t in problem.reveal_value], dtype=np.int64),
        sum(1 << s for s in problem.demon_suits),
        np.array([problem.rescue.get(s, 0) for s in range(len(SUITS))], dtype=np.int64),
        problem.units.demon, problem.units.taint, mask, problem.must_add or first is not None,
        first_card, first_x, first_y, max_nodes, np.zeros((max(len(row), 1), 3), dtype=np.int32))


def search_anytime(problem: BlinkProblem, max_nodes: int = 50_000_000, deadline: float | None = None,
                   cancel: threading.Event | None = None) -> SearchOutcome:
    """:func:`search` in rounds of doubling node budgets (from 100,000 to ``max_nodes``), so that a deadline
    (``time.perf_counter()``) or ``cancel`` stops it between rounds; the last round's answer is returned."""
    nodes = min(100_000, max_nodes)
    while True:
        outcome = search(problem, max_nodes=nodes)
        if outcome.complete or nodes >= max_nodes or (cancel is not None and cancel.is_set()) or (
                deadline is not None and time.perf_counter() > deadline):
            return outcome
        nodes = min(2 * nodes, max_nodes)


# ---------------------------------------------------------------------------------- CP-SAT
def _top_layer(deck: Deck, mind: Sequence[Placement]) -> dict[tuple[int, int], bool]:
    top: dict[tuple[int, int], bool] = {}
    for card, x, y in mind:
        b = deck.cards[card].blocked
        for s, (dx, dy) in enumerate(SEGMENTS):
            top[(x + dx, y + dy)] = bool(b >> s & 1)
    return top


def candidate_placements(problem: BlinkProblem) -> dict[Placement, int]:
    """Every ``(card, x, y)`` that could be legal at some step, with the earliest step it could happen.

    Step 0 is exactly the kernel's legal placements. A later candidate must be
    compatible, quarter by quarter, with a top segment the Mind or another
    card's candidate could show there, and have a blocked segment that could
    lie on a blocked one; a candidate first found in round ``d`` needs ``d``
    adds before it, so it cannot come before step ``d``.
    """
    deck = problem.deck
    top = _top_layer(deck, problem.mind)
    found: dict[Placement, int] = {p: 0 for p in mindlib.legal_placements(deck, problem.mind, list(problem.row))}
    for depth in range(1, len(problem.row)):
        cover: dict[tuple[int, int], set[tuple[int, bool]]] = {}
        for card, x, y in found:
            b = deck.cards[card].blocked
            for s, (dx, dy) in enumerate(SEGMENTS):
                cover.setdefault((x + dx, y + dy), set()).add((card, bool(b >> s & 1)))
        quarters = set(top) | set(cover)
        xs = [q[0] for q in quarters]
        ys = [q[1] for q in quarters]
        new = []
        for card in problem.row:
            b = deck.cards[card].blocked
            for x in range(min(xs) - 1, max(xs) + 1):
                for y in range(min(ys) - 1, max(ys) + 1):
                    if (card, x, y) not in found and _could_fit(card, b, x, y, top, cover):
                        new.append((card, x, y))
        if not new:
            break
        for p in new:
            found[p] = depth
    return found


def _could_fit(card: int, blocked: int, x: int, y: int, top: dict[tuple[int, int], bool],
               cover: dict[tuple[int, int], set[tuple[int, bool]]]) -> bool:
    support = False
    for s, (dx, dy) in enumerate(SEGMENTS):
        q = (x + dx, y + dy)
        mine = bool(blocked >> s & 1)
        options = {b for c, b in cover.get(q, ()) if c != card}
        if q in top:
            options.add(top[q])
        elif mine not in options:
            continue  # the quarter may still be empty when the card goes down
        if mine not in options:
            return False
        if mine:
            support = True
    return support


class _Model:
    """The CP-SAT model of one Blink problem."""

    def __init__(self, problem: BlinkProblem, candidates: dict[Placement, int] | None = None) -> None:
        from ortools.sat.python import cp_model  # imported on first use: it loads pandas (over a second)
        self.problem = problem
        self.deck = problem.deck
        self.m = cp_model.CpModel()
        self.steps = len(problem.row)
        self.candidates = candidate_placements(problem) if candidates is None else candidates
        self.top = _top_layer(self.deck, problem.mind)
        self.a: dict[tuple[Placement, int], Any] = {}
        self._build()

    # -- helpers ---------------------------------------------------------------------
    def _and(self, literals: list[Any]) -> Any:
        literals = [l for l in literals if not (isinstance(l, int) and l == 1)]
        if any(isinstance(l, int) and l == 0 for l in literals):
            return 0
        if not literals:
            return 1
        if len(literals) == 1:
            return literals[0]
        v = self.m.new_bool_var("")
        for l in literals:
            self.m.add(v <= l)
        self.m.add(v >= sum(literals) - (len(literals) - 1))
        return v

    def _or(self, literals: list[Any]) -> Any:
        literals = [l for l in literals if not (isinstance(l, int) and l == 0)]
        if any(isinstance(l, int) and l == 1 for l in literals):
            return 1
        if not literals:
            return 0
        if len(literals) == 1:
            return literals[0]
        v = self.m.new_bool_var("")
        for l in literals:
            self.m.add(v >= l)
        self.m.add(v <= sum(literals))
        return v

    def _bool_of(self, expr_terms: list[Any]) -> Any:
        """A Boolean equal to a sum of mutually exclusive Booleans."""
        if not expr_terms:
            return 0
        if len(expr_terms) == 1:
            return expr_terms[0]
        v = self.m.new_bool_var("")
        self.m.add(v == sum(expr_terms))
        return v

    # -- the model -------------------------------------------------------------------
    def _build(self) -> None:
        p, m = self.problem, self.m
        T = self.steps
        for placement, depth in self.candidates.items():
            for t in range(depth, T):
                self.a[(placement, t)] = m.new_bool_var(f"a{placement}{t}")
        by_step: list[list[tuple[Placement, Any]]] = [[] for _ in range(T)]
        by_card: dict[int, list[tuple[Placement, int, Any]]] = {c: [] for c in p.row}
        for (placement, t), v in self.a.items():
            by_step[t].append((placement, v))
            by_card[placement[0]].append((placement, t, v))
        filled = [self._bool_of([v for _, v in by_step[t]]) for t in range(T)]
        for t in range(T - 1):
            if not _const(filled[t + 1]):
                m.add(filled[t + 1] <= filled[t])
        if p.must_add:
            if _const(filled[0]):
                m.add_bool_or([])  # nothing can be added: infeasible
            else:
                m.add(filled[0] == 1)
        self.placed = {c: self._bool_of([v for _, _, v in by_card[c]]) for c in p.row}
        if p.require_all:
            for c in p.row:
                if _const(self.placed[c]):
                    m.add_bool_or([])  # a card with no possible place: infeasible
                else:
                    m.add(self.placed[c] == 1)
        self._quarter_states(by_step)
        self._legality()
        relive = self._relives(by_card)
        self._objective(relive, by_card)

    def _quarter_states(self, by_step: list[list[tuple[Placement, Any]]]) -> None:
        """``O[q][t]``/``B[q][t]``: quarter ``q`` is covered / shows a blocked segment before step ``t``."""
        deck, m = self.deck, self.m
        covering: list[dict[tuple[int, int], list[tuple[Any, bool]]]] = []
        for t in range(self.steps):
            here: dict[tuple[int, int], list[tuple[Any, bool]]] = {}
            for (card, x, y), v in by_step[t]:
                b = deck.cards[card].blocked
                for s, (dx, dy) in enumerate(SEGMENTS):
                    here.setdefault((x + dx, y + dy), []).append((v, bool(b >> s & 1)))
            covering.append(here)
        self.covering = covering
        quarters = set(self.top) | {q for here in covering for q in here}
        self.O: dict[tuple[int, int], list[Any]] = {}
        self.B: dict[tuple[int, int], list[Any]] = {}
        for q in quarters:
            o = [1 if q in self.top else 0]
            b = [1 if self.top.get(q) else 0]
            for t in range(1, self.steps):
                prev = covering[t - 1].get(q)
                if not prev:
                    o.append(o[-1])
                    b.append(b[-1])
                    continue
                X = sum(v for v, blocked in prev if blocked)
                Y = sum(v for v, blocked in prev if not blocked)
                o2, b2 = m.new_bool_var(""), m.new_bool_var("")
                m.add(o2 >= o[-1])
                m.add(o2 >= X + Y)
                m.add(o2 <= o[-1] + X + Y)
                m.add(b2 >= X)
                m.add(b2 >= b[-1] - Y)
                m.add(b2 <= b[-1] + X)
                m.add(b2 <= 1 - Y)
                o.append(o2)
                b.append(b2)
            self.O[q] = o
            self.B[q] = b

    def _legality(self) -> None:
        deck, m = self.deck, self.m
        for ((card, x, y), t), v in self.a.items():
            blocked = deck.cards[card].blocked
            support = []
            for s, (dx, dy) in enumerate(SEGMENTS):
                q = (x + dx, y + dy)
                Ot, Bt = self.O[q][t], self.B[q][t]
                if blocked >> s & 1:
                    m.add(v + Ot - Bt <= 1)
                    support.append(Bt)
                else:
                    m.add(v + Bt <= 1)
            m.add(v <= sum(support))

    def _relives(self, by_card: dict[int, list[tuple[Placement, int, Any]]]) -> dict[int, Any]:
        """``relive[c]``: adding ``c`` completes a same-suit group worth exactly 7 (EM-15)."""
        p, deck, m = self.problem, self.deck, self.m
        T = self.steps
        positions: dict[int, dict[tuple[int, int], Any]] = {}
        for c in p.row:
            at: dict[tuple[int, int], list[Any]] = {}
            for (card, x, y), t, v in by_card[c]:
                at.setdefault((x, y), []).append(v)
            positions[c] = {xy: self._bool_of(vs) for xy, vs in at.items()}
        step = {c: sum(t * v for _, t, v in by_card[c]) + T * (1 - self.placed[c]) for c in p.row}
        relive: dict[int, Any] = {}
        for c in p.row:
            relive[c] = 0
        for suit in range(len(SUITS)):
            cards = [c for c in p.row if deck.cards[c].suit == suit and by_card[c]]
            if not cards:
                continue
            comps = _components(deck, p.mind, suit)

            def near(xy: tuple[int, int], other: tuple[int, int]) -> bool:
                return abs(xy[0] - other[0]) <= 1 and abs(xy[1] - other[1]) <= 1

            ek = {c: [self._bool_of([v for xy, v in positions[c].items()
                                     if any(near(xy, cell) for cell in comp_cells)])
                      for _, comp_cells in comps] for c in cards}
            link: dict[tuple[int, int], Any] = {}
            for i, u in enumerate(cards):
                for v in cards[i + 1:]:
                    direct = []
                    for xy, pu in positions[u].items():
                        close = [pv for xy2, pv in positions[v].items() if near(xy, xy2)]
                        if close:
                            direct.append(self._and([pu, self._bool_of(close)]))
                    er = self._bool_of(direct)
                    shared = [self._and([ek[u][k], ek[v][k]]) for k in range(len(comps))]
                    link[(u, v)] = link[(v, u)] = self._or([er, *shared])
            before: dict[tuple[int, int], Any] = {}
            for u in cards:
                for v in cards:
                    if u != v:
                        bv = m.new_bool_var("")
                        m.add(step[u] + 1 <= step[v]).only_enforce_if(bv)
                        m.add(step[u] >= step[v]).only_enforce_if(~bv)
                        before[(u, v)] = bv
            reach_max = sum(deck.cards[c].strength for c in cards) + sum(w for w, _ in comps)
            for c in cards:
                if reach_max < TARGET or not by_card[c]:
                    relive[c] = 0
                    continue
                others = [v for v in cards if v != c]
                reach = {v: self._and([link[(c, v)], before[(v, c)]]) for v in others}
                for _ in range(len(others) - 1):
                    reach = {v: self._or([reach[v]] + [self._and([reach[u], link[(u, v)], before[(v, c)]])
                                                      for u in others if u != v]) for v in others}
                in_comp = [self._or([ek[c][k]] + [self._and([reach[v], ek[v][k]]) for v in others])
                           for k in range(len(comps))]
                total = (deck.cards[c].strength + sum(deck.cards[v].strength * reach[v] for v in others)
                         + sum(w * in_comp[k] for k, (w, _) in enumerate(comps)))
                if _const(total):
                    relive[c] = self.placed[c] if total == TARGET else 0
                    continue
                seven = m.new_bool_var("")
                m.add(total == TARGET).only_enforce_if(seven)
                m.add(total != TARGET).only_enforce_if(~seven)
                relive[c] = self._and([seven, self.placed[c]])
        return relive

    def _objective(self, relive: dict[int, Any], by_card: dict[int, list[tuple[Placement, int, Any]]]) -> None:
        p, deck, m, w = self.problem, self.deck, self.m, self.problem.units
        terms: list[Any] = []
        for suit in range(len(SUITS)):
            cards = [c for c in p.row if deck.cards[c].suit == suit]
            if not cards:
                continue
            count = sum(relive[c] for c in cards)
            most = self._relive_limit(suit, cards)
            if not _const(count):
                m.add(count <= most)
            table = list(p.reveal_value[suit][:len(cards) + 1])
            if _const(count):
                terms.append(table[count])
            else:
                value = m.new_int_var(min(table), max(table), f"reveal{suit}")
                index = m.new_int_var(0, len(cards), "")
                m.add(index == count)
                m.add_element(index, table, value)
                terms.append(value)
            if suit in p.demon_suits:
                banish = self._or([relive[c] for c in cards])
                terms.append((w.demon + w.taint * p.rescue.get(suit, 0)) * banish)
                for c in cards:
                    if _const(self.placed[c]) and _const(banish):
                        terms.append(-w.taint * int(self.placed[c] == 0 and banish == 0))
                        continue
                    tainted = m.new_bool_var("")
                    m.add(tainted >= 1 - self.placed[c] - banish)
                    terms.append(-w.taint * tainted)
        later = self._covered_later()
        owner: dict[tuple[int, int], int] = {}
        for k, (card, x, y) in enumerate(p.mind):
            for dx, dy in SEGMENTS:
                owner[(x + dx, y + dy)] = k
        for k, (card, _, _) in enumerate(p.mind):
            mine = [q for q, o in owner.items() if o == k]
            if not mine:
                continue
            vis = m.new_bool_var("")
            m.add(vis <= sum(1 - later[q][0] if q in later else 1 for q in mine))
            terms.append(p.value_of(card) * vis)
        for c in p.row:
            if not by_card[c]:
                continue
            flags = []
            for (card, x, y), t, v in by_card[c]:
                uncovered = [1 - later[(x + dx, y + dy)][t + 1] for dx, dy in SEGMENTS]
                flag = m.new_bool_var("")
                m.add(flag <= v)
                m.add(flag <= sum(uncovered))
                flags.append(flag)
            vis = m.new_bool_var("")
            m.add(vis <= sum(flags))
            m.add(vis <= self.placed[c])
            terms.append(p.value_of(c) * vis)
        terms.append(-w.demon * len(p.demon_suits))
        m.maximize(sum(terms))

    def _relive_limit(self, suit: int, cards: list[int]) -> int:
        """At most one relive per 7 strength of the suit's cards (each relived group is a disjoint set worth
        exactly 7: a second relive needs a group not connected to the first one)."""
        strength = sum(self.deck.cards[c].strength for c in cards)
        strength += sum(w for w, _ in _components(self.deck, self.problem.mind, suit))
        return strength // TARGET

    def _covered_later(self) -> dict[tuple[int, int], list[Any]]:
        """``later[q][t]`` is at least 1 when an add at step ``t`` or later covers quarter ``q`` (``t`` = 0..T).

        Only lower bounds are needed: the objective prefers cards to stay
        uncovered, so the solver never sets these higher than the truth.
        """
        m = self.m
        later: dict[tuple[int, int], list[Any]] = {}
        for q in {q for here in self.covering for q in here}:
            chain: list[Any] = [0] * (self.steps + 1)
            for t in range(self.steps - 1, -1, -1):
                here = [v for v, _ in self.covering[t].get(q, [])]
                if not here:
                    chain[t] = chain[t + 1]
                    continue
                v = m.new_bool_var("")
                m.add(v >= sum(here))
                if not _const(chain[t + 1]):
                    m.add(v >= chain[t + 1])
                chain[t] = v
            later[q] = chain
        return later

    def plan(self, solver: Any) -> list[Placement]:
        """The adds of the solver's current solution, in order."""
        chosen = sorted((t, placement) for (placement, t), v in self.a.items() if solver.boolean_value(v))
        return [placement for _, placement in chosen]

    def hint(self, adds: list[Placement]) -> None:
        """Suggest a plan to the solver (a starting incumbent; it does not constrain anything)."""
        chosen = {(placement, t) for t, placement in enumerate(adds)}
        for key, v in self.a.items():
            self.m.add_hint(v, key in chosen)

    def cut(self, adds: list[Placement]) -> None:
        """Forbid this exact sequence of adds as a prefix (it splits the Mind at its last add)."""
        literals = [self.a[(placement, t)] for t, placement in enumerate(adds)]
        self.m.add(sum(literals) <= len(literals) - 1)


def _const(value: Any) -> bool:
    """True for plain integers (no solver variable involved)."""
    return isinstance(value, int)


def _components(deck: Deck, mind: Sequence[Placement], suit: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """The Mind's same-suit groups of ``suit``: (total strength, card positions)."""
    seen: set[int] = set()
    comps = []
    for k, (card, _, _) in enumerate(mind):
        if deck.cards[card].suit != suit or k in seen:
            continue
        group = mindlib.same_suit_group(deck, mind, k)
        members = [j for j, e in enumerate(mind) if e[0] in set(group)]
        seen.update(members)
        comps.append((sum(deck.cards[mind[j][0]].strength for j in members),
                      [(mind[j][1], mind[j][2]) for j in members]))
    return comps


def greedy_plan(problem: BlinkProblem) -> list[Placement]:
    """A quick split-free plan: add, one at a time, the card whose add scores best if the Blink stopped there."""
    deck = problem.deck
    mind = list(problem.mind)
    demons = set(problem.demon_suits)
    relives: Counter[int] = Counter()
    banished: list[int] = []
    adds: list[Placement] = []
    best_value = None if problem.must_add else _score(problem, mind, relives, banished, list(problem.row),
                                                      demons).value
    while True:
        remaining = [c for c in problem.row if c not in {a[0] for a in adds}]
        choice = None
        for (card, x, y), grown, more, gone, left in _additions(deck, mind, remaining, relives, banished, demons):
            rest = [c for c in remaining if c != card]
            value = _score(problem, grown, more, gone, rest, left).value
            if choice is None or value > choice[0]:
                choice = (value, (card, x, y), grown, more, gone, left)
        if choice is None or (best_value is not None and choice[0] < best_value and adds):
            return adds
        best_value, placement, mind, relives, banished, demons = choice
        adds.append(placement)


#: measured cost of building the model in Python, per placement variable (for budgeting anytime searches)
BUILD_SECONDS_PER_VARIABLE = 0.0004


def placement_variables(problem: BlinkProblem, candidates: dict[Placement, int]) -> int:
    """How many card-position-step Booleans the model of ``problem`` has (its size)."""
    return sum(len(problem.row) - depth for depth in candidates.values())


def solve_cpsat(problem: BlinkProblem, time_limit: float = 10.0, workers: int = 1, seed: int = 0,
                max_cuts: int = 500, cancel: threading.Event | None = None,
                candidates: dict[Placement, int] | None = None,
                deterministic_time: float | None = None) -> PlanResult:
    """The optimal split-free plan, proven by CP-SAT (``status`` says whether the proof completed).

    ``time_limit`` covers building the model and solving it; setting ``cancel`` stops the search (the best
    plan so far is returned, unproven). ``deterministic_time`` also caps CP-SAT's own deterministic work
    measure, which does not depend on the machine (with one worker, the same problem then gets the same
    answer everywhere).
    """
    from ortools.sat.python import cp_model
    start = time.perf_counter()
    if not problem.row:
        outcome = evaluate(problem, []) if not problem.must_add else None
        return PlanResult([], [], outcome.value if outcome else None, outcome.value if outcome else None,
                          "OPTIMAL" if outcome else "INFEASIBLE", outcome is not None, 0.0, outcome)
    model = _Model(problem, candidates)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.cp_model_probing_level = 0  # measured: probing costs more than it saves here
    if deterministic_time is not None:
        solver.parameters.max_deterministic_time = deterministic_time
    model.hint(greedy_plan(problem))
    cuts = 0
    while True:
        left = time_limit - (time.perf_counter() - start)
        if cancel is not None and cancel.is_set():
            return PlanResult([], list(problem.row), None, None, "CANCELLED", False,
                              time.perf_counter() - start, cuts=cuts, candidates=len(model.candidates))
        solver.parameters.max_time_in_seconds = max(left, 0.01)
        status = _solve_cancellable(solver, model.m, cancel)
        name = solver.status_name(status)
        seconds = time.perf_counter() - start
        base = dict(candidates=len(model.candidates), variables=len(model.m.proto.variables), cuts=cuts)
        if status == cp_model.INFEASIBLE:
            return PlanResult([], list(problem.row), None, None, "INFEASIBLE", False, seconds, **base)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return PlanResult([], list(problem.row), None, solver.best_objective_bound if left > 0 else None,
                              name, False, seconds, **base)
        adds = model.plan(solver)
        outcome = evaluate(problem, adds)
        if outcome is None:
            prefix = _splitting_prefix(problem, adds)
            if prefix is None:
                raise AssertionError(f"CP-SAT plan {adds} is not legal in the rules engine")
            if cuts >= max_cuts or left <= 0:  # out of cuts or time before a split-free plan came out
                return PlanResult([], list(problem.row), None, None, "CUT_LIMIT" if cuts >= max_cuts else "UNKNOWN",
                                  False, seconds, **base)
            model.cut(prefix)
            cuts += 1
            continue
        value = int(round(solver.objective_value))
        optimal = status == cp_model.OPTIMAL
        # Auxiliary variables (visibility, taints) are only bounded on the side the objective pushes against,
        # so they are exact at the optimum; an interim solution's objective may undercount its true value.
        if (optimal and value != outcome.value) or value > outcome.value:
            raise AssertionError(f"CP-SAT value {value} differs from the replayed value {outcome.value} "
                                 f"for plan {adds}")
        used = {c for c, _, _ in adds}
        return PlanResult(adds, [c for c in problem.row if c not in used], outcome.value,
                          outcome.value if optimal else max(solver.best_objective_bound, outcome.value), name,
                          optimal, seconds, outcome, **base)


def _solve_cancellable(solver: Any, model: Any, cancel: threading.Event | None) -> Any:
    """``solver.solve(model)``, stopped early when ``cancel`` is set (CP-SAT runs outside Python)."""
    if cancel is None:
        return solver.solve(model)
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if cancel.wait(0.02):
                solver.stop_search()
                return

    watcher = threading.Thread(target=watch, daemon=True, name="cpsat-cancel")
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        done.set()
        watcher.join()


def _splitting_prefix(problem: BlinkProblem, adds: list[Placement]) -> list[Placement] | None:
    mind = list(problem.mind)
    for i, (card, x, y) in enumerate(adds):
        if not mindlib.is_legal_placement(problem.deck, mind, card, x, y):
            return None
        mind.append((card, x, y))
        if len(mindlib.sections(mind)) > 1:
            return adds[:i + 1]
    return None

