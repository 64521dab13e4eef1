"""The optimal Blink plan proven by CP-SAT (EM-70..EM-76): the model and its solving loop.

:func:`solve_cpsat` builds a time-indexed CP-SAT model of the Blink problem of :mod:`solver.embers.plan` (one
Boolean per card, position and step; the top segment of every quarter before every step; same-suit groups by
bounded reachability), solves it, replays the plan in the rules engine and, if the plan splits the Mind, cuts
that prefix and solves again, so the final ``OPTIMAL`` status is a proof over split-free plans. The compiled
search (:func:`solver.embers.plan.search`) is the independent second proof.

OR-Tools is imported on first use (it loads for about a second): :func:`cpsat_loaded` does it on a helper
thread that a stopped search does not wait for.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from solver.embers import mind as mindlib
from solver.embers.cards import SUITS, Deck
from solver.embers.plan import SEGMENTS, BlinkProblem, Placement, PlanResult, evaluate, greedy_plan
from solver.embers.state import TARGET
from solver.search import WATCH_EVERY, Watch


def _top_layer(deck: Deck, mind: Sequence[Placement]) -> dict[tuple[int, int], bool]:
    top: dict[tuple[int, int], bool] = {}
    for card, x, y in mind:
        b = deck.cards[card].blocked
        for s, (dx, dy) in enumerate(SEGMENTS):
            top[(x + dx, y + dy)] = bool(b >> s & 1)
    return top


def candidate_placements(problem: BlinkProblem, check: Callable[[], None] | None = None) -> dict[Placement, int]:
    """Every ``(card, x, y)`` that could be legal at some step, with the earliest step it could happen.

    Step 0 is exactly the kernel's legal placements. A later candidate must be
    compatible, quarter by quarter, with a top segment the Mind or another
    card's candidate could show there, and have a blocked segment that could
    lie on a blocked one; a candidate first found in round ``d`` needs ``d``
    adds before it, so it cannot come before step ``d``. ``check`` is called now and then (it may raise to
    stop).
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
            if check is not None:
                check()
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

    def __init__(self, problem: BlinkProblem, candidates: dict[Placement, int] | None = None,
                 check: Callable[[], None] | None = None) -> None:
        from ortools.sat.python import cp_model  # lazy: OR-Tools loads pandas (over a second) on import
        self.check = check or (lambda: None)  # raises _Stopped when the search must stop (building takes seconds)
        self.problem = problem
        self.deck = problem.deck
        self.m = cp_model.CpModel()
        self.steps = len(problem.row)
        self.candidates = candidate_placements(problem, self.check) if candidates is None else candidates
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
            self.check()
            for t in range(depth, T):
                self.a[(placement, t)] = m.new_bool_var(f"a{placement}{t}")
        by_step: list[list[tuple[Placement, Any]]] = [[] for _ in range(T)]
        by_card: dict[int, list[tuple[Placement, int, Any]]] = {c: [] for c in p.row}
        for (placement, t), v in self.a.items():
            by_step[t].append((placement, v))
            by_card[placement[0]].append((placement, t, v))
        self.check()
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
        self.check()
        self._quarter_states(by_step)
        self._legality()
        relive = self._relives(by_card)
        self._objective(relive, by_card)

    def _quarter_states(self, by_step: list[list[tuple[Placement, Any]]]) -> None:
        """``O[q][t]``/``B[q][t]``: quarter ``q`` is covered / shows a blocked segment before step ``t``."""
        deck, m = self.deck, self.m
        covering: list[dict[tuple[int, int], list[tuple[Any, bool]]]] = []
        for t in range(self.steps):
            self.check()
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
            self.check()
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
            self.check()
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
            self.check()
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
                self.check()
                for v in cards[i + 1:]:
                    self.check()
                    direct = []
                    for xy, pu in positions[u].items():
                        self.check()
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
                self.check()
                if reach_max < TARGET or not by_card[c]:
                    relive[c] = 0
                    continue
                others = [v for v in cards if v != c]
                reach = {v: self._and([link[(c, v)], before[(v, c)]]) for v in others}
                for _ in range(len(others) - 1):
                    self.check()
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
            self.check()
            if not by_card[c]:
                continue
            flags = []
            for (card, x, y), t, v in by_card[c]:
                self.check()
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
            self.check()
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


#: measured cost of building the model in Python, per placement variable (for budgeting anytime searches)
BUILD_SECONDS_PER_VARIABLE = 0.0004


def placement_variables(problem: BlinkProblem, candidates: dict[Placement, int]) -> int:
    """How many card-position-step Booleans the model of ``problem`` has (its size)."""
    return sum(len(problem.row) - depth for depth in candidates.values())


class _Stopped(Exception):
    """The search was stopped (terminate or time) while the CP-SAT model was being built."""


_CPSAT_LOADED = threading.Event()
_CPSAT_LOADING = threading.Lock()
_CPSAT_FAILURE: list[BaseException] = []


def cpsat_loaded(watch: Any = None) -> bool:
    """Import CP-SAT (OR-Tools loads for about a second on first use) on a helper thread, waiting for it while
    ``watch`` allows: ``False`` when the search was stopped first (the import goes on for the next search)."""
    if not _CPSAT_LOADED.is_set():
        with _CPSAT_LOADING:
            if not _CPSAT_LOADED.is_set() and not any(t.name == "cpsat-import" for t in threading.enumerate()):
                def load() -> None:
                    try:  # lazy: OR-Tools loads for about a second, on this helper thread
                        import ortools.sat.python.cp_model  # noqa: F401
                    except BaseException as exc:  # noqa: BLE001 - raised again in the searching thread
                        _CPSAT_FAILURE.append(exc)
                    finally:
                        _CPSAT_LOADED.set()
                threading.Thread(target=load, daemon=True, name="cpsat-import").start()
    while not _CPSAT_LOADED.wait(WATCH_EVERY):
        if watch is not None and watch.stopped():
            return False
    if _CPSAT_FAILURE:
        raise _CPSAT_FAILURE[0]
    return True


def solve_cpsat(problem: BlinkProblem, time_limit: float = 10.0, workers: int = 1, seed: int = 0,
                max_cuts: int = 500, cancel: threading.Event | None = None,
                candidates: dict[Placement, int] | None = None,
                deterministic_time: float | None = None, watch: Any = None,
                on_plan: Callable[[PlanResult], None] | None = None,
                incumbent: list[Placement] | None = None) -> PlanResult:
    """The optimal split-free plan, proven by CP-SAT (``status`` says whether the proof completed).

    ``time_limit`` covers loading OR-Tools, building the model and solving it; setting ``cancel`` stops the
    search (the best plan so far is returned, unproven). ``watch`` (:class:`solver.search.Watch`) may
    replace both: its deadline and its cancel event stop the search the same way. A search stopped before CP-SAT
    has a plan answers ``CANCELLED`` (terminate) or ``UNKNOWN`` (time). ``on_plan`` receives every better
    split-free plan CP-SAT finds on the way (unproven, status ``FEASIBLE``), for interim reports.
    ``incumbent``: a plan to start from (CP-SAT's hint; the greedy plan when not given).
    ``deterministic_time`` also caps CP-SAT's own deterministic work measure, which does not depend on the
    machine (with one worker, the same problem then gets the same answer everywhere).
    """
    start = time.perf_counter()
    if not problem.row:
        outcome = evaluate(problem, []) if not problem.must_add else None
        return PlanResult([], [], outcome.value if outcome else None, outcome.value if outcome else None,
                          "OPTIMAL" if outcome else "INFEASIBLE", outcome is not None, 0.0, outcome)
    if watch is None:
        with Watch(cancel, start + time_limit) as own:
            return solve_cpsat(problem, time_limit, workers, seed, max_cuts, None, candidates, deterministic_time,
                               own, on_plan, incumbent)
    deadline = start + time_limit if watch.deadline is None else min(watch.deadline, start + time_limit)

    def stopped(cuts: int = 0, candidates: int = 0, variables: int = 0) -> PlanResult:
        return PlanResult([], list(problem.row), None, None, "CANCELLED" if watch.cancelled else "UNKNOWN", False,
                          time.perf_counter() - start, cuts=cuts, candidates=candidates, variables=variables)

    if watch.stopped() or not cpsat_loaded(watch):
        return stopped()
    from ortools.sat.python import cp_model  # lazy: loaded above by cpsat_loaded (start-up speed)

    def check() -> None:
        if watch.stopped() or time.perf_counter() >= deadline:
            raise _Stopped

    try:
        candidates = candidate_placements(problem, check) if candidates is None else candidates
        if watch.deadline is not None and (
                time.perf_counter() + BUILD_SECONDS_PER_VARIABLE * placement_variables(problem, candidates) > deadline):
            return stopped(candidates=len(candidates))  # the model would not be built in time: keep the incumbent
        model = _Model(problem, candidates, check)
    except _Stopped:
        return stopped()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.cp_model_probing_level = 0  # measured: probing costs more than it saves here
    if deterministic_time is not None:
        solver.parameters.max_deterministic_time = deterministic_time
    model.hint(greedy_plan(problem) if incumbent is None else incumbent)
    cuts = 0
    while True:
        left = deadline - time.perf_counter()
        base = dict(candidates=len(model.candidates), variables=len(model.m.proto.variables), cuts=cuts)
        if watch.stopped() or left <= 0:
            return stopped(**base)
        solver.parameters.max_time_in_seconds = max(left, 0.01)
        forget = watch.on_stop(solver.stop_search)
        try:
            status = solver.solve(model.m, _plan_callback(problem, model, on_plan, start) if on_plan else None)
        finally:
            forget()
        name = solver.status_name(status)
        seconds = time.perf_counter() - start
        if status == cp_model.INFEASIBLE:
            return PlanResult([], list(problem.row), None, None, "INFEASIBLE", False, seconds, **base)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if watch.stopped():
                return stopped(**base)
            return PlanResult([], list(problem.row), None, solver.best_objective_bound if left > 0 else None,
                              name, False, seconds, **base)
        adds = model.plan(solver)
        outcome = evaluate(problem, adds)
        if outcome is None:
            prefix = _splitting_prefix(problem, adds)
            if prefix is None:
                raise AssertionError(f"CP-SAT plan {adds} is not legal in the rules engine")
            if cuts >= max_cuts or watch.stopped() or time.perf_counter() >= deadline:
                # out of cuts, time or terminate before a split-free plan came out
                if cuts >= max_cuts:
                    return PlanResult([], list(problem.row), None, None, "CUT_LIMIT", False, seconds, **base)
                return stopped(**base)
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


def _plan_callback(problem: BlinkProblem, model: _Model, on_plan: Callable[[PlanResult], None],
                   start: float) -> Any:
    """A CP-SAT solution callback that hands every better split-free plan to ``on_plan`` (interim reports).
    (The class is made here: OR-Tools is imported on first use only.)"""
    from ortools.sat.python import cp_model  # lazy: OR-Tools is imported on first use only (start-up speed)

    class PlanCallback(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.best: int | None = None

        def on_solution_callback(self) -> None:
            chosen = sorted((t, placement) for (placement, t), v in model.a.items() if self.boolean_value(v))
            plan = [placement for _, placement in chosen]
            outcome = evaluate(problem, plan)
            if outcome is None or (self.best is not None and outcome.value <= self.best):
                return  # a plan that splits the Mind (a cut will follow), or no better
            self.best = outcome.value
            used = {c for c, _, _ in plan}
            on_plan(PlanResult(plan, [c for c in problem.row if c not in used], outcome.value, None, "FEASIBLE",
                               False, time.perf_counter() - start, outcome, candidates=len(model.candidates)))

    return PlanCallback()


def _splitting_prefix(problem: BlinkProblem, adds: list[Placement]) -> list[Placement] | None:
    mind = list(problem.mind)
    for i, (card, x, y) in enumerate(adds):
        if not mindlib.is_legal_placement(problem.deck, mind, card, x, y):
            return None
        mind.append((card, x, y))
        if len(mindlib.sections(mind)) > 1:
            return adds[:i + 1]
    return None
