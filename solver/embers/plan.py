"""Fenrys's Blink plans: the problem, its objective, and the exact searches over split-free plans.

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

:func:`exhaustive` enumerates every plan with the rules engine; :func:`search` is the compiled
branch-and-bound (``src/embers_plan.pxi``) over the same plans; :func:`greedy_plan` is a quick plan to start
from. The CP-SAT proof of the same optimum is :mod:`solver.embers.solve_cpsat`.
"""


import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.buffers import INT32, INT64, UINT8, matrix, typed, zeros
from solver.embers import mind as mindlib
from solver.embers.cards import SUITS, Deck
from solver.embers.knowledge import expected_reveals, need_distribution
from solver.embers.state import FENRYS
from solver.kernels import embers as kernel

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
    visits = [0]  # the limits are looked at every 64 visits (plans or dead ends alike)

    def visit(mind: list[Placement], adds: list[Placement], relives: Counter[int], banished: list[int],
              demons: set[int]) -> None:
        visits[0] += 1
        if result.plans >= max_plans or not result.complete or (visits[0] % 64 == 0 and (
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
           first: Placement | None = None, control: Any = None) -> SearchOutcome:
    """The best split-free plan by the compiled branch-and-bound kernel (``src/embers_plan.pxi``).

    Same objective and plans as :func:`exhaustive` (EM-70..EM-73), searched in C with a bound that cuts
    hopeless subtrees. ``allowed``: the row cards that may be added (the others are discarded); ``first``:
    the plan must start with this add (``must_add`` then holds too). ``max_nodes`` bounds the work
    (deterministic, unlike a time limit); ``complete`` says whether the search finished. ``control``: the
    stop flag of a :class:`solver.search.Watch` (``watch.control``): raised, the search stops within
    1024 nodes with its best plan so far (``complete`` false); raised before the call, it does not start.
    """
    if first is not None and first[0] not in problem.row:
        return SearchOutcome(False, None, [], 0, True)
    if control is not None and control[0]:
        return SearchOutcome(False, None, [], 0, False)
    args = search_arguments(problem, max_nodes, allowed, first)
    found, value, length, nodes, complete = kernel.search_plans(*args, control)
    adds = [(problem.row[int(i)], int(x), int(y)) for i, x, y in args[-1].tolist()[:length]]
    return SearchOutcome(bool(found), int(value) if found else None, adds, int(nodes), bool(complete))


def search_arguments(problem: BlinkProblem, max_nodes: int = 50_000_000, allowed: Sequence[int] | None = None,
                     first: Placement | None = None) -> tuple[Any, ...]:
    """The arguments of ``search_plans`` (kernel and twin) for ``problem``; the last one is the plan array."""
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
        typed(INT32, [e[1] for e in mind]), typed(INT32, [e[2] for e in mind]),
        typed(UINT8, [cards[e[0]].blocked for e in mind]),
        typed(UINT8, [cards[e[0]].suit for e in mind]),
        typed(UINT8, [cards[e[0]].strength for e in mind]),
        typed(INT64, [problem.value_of(e[0]) for e in mind]),
        typed(UINT8, [cards[c].blocked for c in row]), typed(UINT8, [cards[c].suit for c in row]),
        typed(UINT8, [cards[c].strength for c in row]),
        typed(INT64, [problem.value_of(c) for c in row]),
        matrix(typed(INT64, [v for t in problem.reveal_value for v in list(t) + [t[-1]] * (width - len(t))]), width),
        sum(1 << s for s in problem.demon_suits),
        typed(INT64, [problem.rescue.get(s, 0) for s in range(len(SUITS))]),
        problem.units.demon, problem.units.taint, mask, problem.must_add or first is not None,
        first_card, first_x, first_y, max_nodes, matrix(zeros(INT32, max(len(row), 1) * 3), 3))


def search_anytime(problem: BlinkProblem, max_nodes: int = 50_000_000, watch: Any = None,
                   on_round: Any = None) -> SearchOutcome:
    """:func:`search` in rounds of doubling node budgets (from 100,000 to ``max_nodes``); ``on_round`` gets each
    round's answer (the best so far, for interim reports). ``watch`` (:class:`solver.search.Watch`) stops
    the round under way on ``terminate`` or at the deadline: the answer is then that round's best plan so far,
    which is at least the previous round's (a round searches the previous round's nodes first)."""
    control = None if watch is None else watch.control
    nodes = min(100_000, max_nodes)
    last: SearchOutcome | None = None
    while True:
        outcome = search(problem, max_nodes=nodes, control=control)
        if last is not None and not outcome.complete and (not outcome.found or (
                last.found and outcome.value is not None and last.value is not None and outcome.value < last.value)):
            outcome = dataclasses.replace(last, nodes=last.nodes + outcome.nodes)  # stopped before it caught up
        if on_round is not None:
            on_round(outcome)
        if outcome.complete or nodes >= max_nodes or (watch is not None and watch.stopped()):
            return outcome
        last = outcome
        nodes = min(2 * nodes, max_nodes)


# ---------------------------------------------------------------------------------- a quick plan
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
