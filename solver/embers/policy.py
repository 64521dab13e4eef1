"""Policies for Fenrys and Aelin: random, greedy, the hint policy and its full-information reference.

Silence (EM-80): a player's policy is a function of what that player may
see. :class:`HintPolicy` enforces it by deciding on
``state.resample_from_observation(player, rng)``: whatever it reads of the
hidden cards is a random draw consistent with the table, never the truth.
:class:`FullInformationPolicy` is the same policy with the truth (Aelin's
Resolve for Fenrys, and the next card of the deck when the game driver
provides a deck order): a reference for how much hidden information costs,
not a proven bound.

Decisions (docs/rules/embers-of-memory.md, EM-80..EM-86):

* Fenrys, Observe: draw again while one more card raises the chance that a
  visible card completes Aelin's current row (as he infers her need from the
  table) by more than the price of a card, up to two memory cards in the row
  and while the deck holds eight cards; never stop with no card that can be added.
* Fenrys, Blink: follow the best plan found within the time budget
  (:mod:`solver.embers.plan`): exhaustive search on short rows, CP-SAT when
  its model fits the budget, else a greedy plan (each plan says which).
* Aelin: take the visible card that minimises the expected number of turns she
  still needs to complete the day's rows (a turns-to-go table over the deck's
  strengths, with one turn of lookahead), never emptying the Mind; keep the
  section of a split that costs fewest turns; always reveal (it only informs
  Fenrys); put the strongest Resolve cards first.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.embers import mind as mindlib
from solver.embers import plan as planlib
from solver.embers.cards import SUITS
from solver.embers.knowledge import deck_composition, need_distribution
from solver.embers.state import (ADD, AELIN, DISCARD, DRAW, FENRYS, KEEP, PASS, REVEAL, STOP,
                                 TARGET, EmbersState, arrangements, decode, decode_add, encode,
                                 encode_add)
from solver.lazynp import np


class Policy(Protocol):
    """Chooses an action for the player to move."""

    name: str

    def choose(self, state: EmbersState, rng: np.random.Generator) -> int:
        """A legal action of ``state.current_player()``."""


@dataclass
class Scored:
    """An action with its score and a one-line reason."""

    action: int
    score: float
    why: str
    pv: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


class RandomPolicy:
    """Uniformly random legal actions."""

    name = "random"

    def choose(self, state: EmbersState, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))]


# ------------------------------------------------------------------------------ Aelin
#: how many cards a turn typically shows Aelin (the cards left in the Mind plus Fenrys's adds), for EM-84's table
OFFERS = 3
TAINT_TURNS = 0.15  # a card tainted under a demon, counted in turns (it is corrupted at Day's End unless banished)
LOST_TURNS = 0.05  # a card lost to a split, counted in turns


def strength_law(state: EmbersState) -> np.ndarray:
    """``law[s]``: the chance that a memory card still to come from the deck has strength ``s`` (index 0..7).

    Aelin sees every card but the deck's order, so the deck's contents are known to her (EM-27)."""
    counts = np.zeros(TARGET + 1)
    for card in state.pile:
        c = state.deck.cards[card]
        if not c.is_demon:
            counts[min(c.strength, TARGET)] += 1
    if not counts.any():
        counts[1:6] = 1.0
    return counts / counts.sum()


def turns_table(law: np.ndarray, offers: int = OFFERS, rounds: int = 60) -> np.ndarray:
    """``T[n]``: the expected number of turns Aelin needs to bring a strength row that still needs ``n`` to
    exactly 7, when each turn shows her ``offers`` cards drawn from ``law`` and she takes the best one
    (a card over ``n`` is discarded and the row still needs ``n``). Value iteration on ``T[n] = 1 + E[min over
    the offered cards of T[n - s] (s <= n) or T[n] (s > n)]``."""
    table = np.zeros(TARGET + 1)
    strengths = [s for s in range(1, TARGET + 1) if law[s] > 0]
    for _ in range(rounds):
        new = np.zeros(TARGET + 1)
        for n in range(1, TARGET + 1):
            costs = sorted((table[n - s] if s <= n else table[n], law[s]) for s in strengths)
            tails = [sum(p for _, p in costs[i:]) for i in range(len(costs))] + [0.0]
            # E[min of `offers` independent draws] = sum over values of v * P(min == v)
            new[n] = 1.0 + sum(v * (tails[i] ** offers - tails[i + 1] ** offers) for i, (v, _) in enumerate(costs))
        table = new
    return table


def turns_from(table: np.ndarray, law: np.ndarray, need: int, shown: list[int]) -> float:
    """Expected turns to finish a row needing ``need`` when the next turn shows the strengths ``shown`` (the
    cards Aelin leaves visible) plus one new card from ``law`` (Fenrys adds at least one card per turn)."""
    if need <= 0:
        return 0.0
    def cost(s: int) -> float:
        return float(table[need - s] if s <= need else table[need])
    known = min((cost(s) for s in shown), default=float(table[need]))
    return 1.0 + sum(p * min(known, cost(s)) for s, p in enumerate(law) if p > 0)


def aelin_take_scores(state: EmbersState) -> list[Scored]:
    """Aelin's view of every card she may take now (she knows her Resolve cards), best first (EM-84).

    The score is minus the expected number of turns she still needs to complete the day's strength rows
    (:func:`turns_table`, with one turn of lookahead over the cards she leaves visible); taking the last card of
    the Mind loses (EM-42), completing the fourth row ends the day. Cards tainted (her overflow, or a split's
    discards under a demon) and cards lost to a split cost a little more.
    """
    deck = state.deck
    law = strength_law(state)
    table = turns_table(law)
    need = TARGET - state.row_total(state.rows[state.completed])
    later_rows = [TARGET - state.row_total(r) for r in state.rows[state.completed + 1:]]
    demon_suits = state.demon_suits()
    out = []
    for action in state.legal_actions():
        card = decode(action)[1]
        strength = deck.cards[card].strength
        left = need - strength if strength <= need else need
        rest = [e for e in state.mind if e[0] != card]
        _, lost = _best_section(state, rest, left, table, law)
        after = [e for e in rest if e[0] not in lost]
        if state.chapter == "one" and not after:
            out.append(Scored(action, -10_000.0, "empties the Mind: Aelin breaks"))
            continue
        shown = [deck.cards[c].strength for c in mindlib.visible_cards(after)]
        if left == 0 and not later_rows:
            turns, why = 0.0, "completes the fourth row: the day ends"
        elif left == 0:
            turns = turns_from(table, law, later_rows[0], shown) + float(sum(table[n] for n in later_rows[1:]))
            why = "completes the row"
        else:
            turns = turns_from(table, law, left, shown) + float(sum(table[n] for n in later_rows))
            why = f"adds {strength}; {left} still missing" if strength <= need else \
                f"over 7 ({strength} > {need}): discarded"
        tainted = sum(1 for c in lost if deck.cards[c].suit in demon_suits)
        if strength > need and deck.cards[card].suit in demon_suits:
            tainted += 1
            why += ", tainted"
        turns += TAINT_TURNS * tainted + LOST_TURNS * len(lost)  # as in keep_cost
        if lost:
            why += f"; splits the Mind, {len(lost)} card(s) lost"
        out.append(Scored(action, -turns, why + f" (about {turns:.1f} turns left today)",
                          extra={"expectedTurns": round(turns, 2)}))
    return sorted(out, key=lambda s: -s.score)


def _best_section(state: EmbersState, mind: list[mindlib.Entry], need: int, table: np.ndarray,
                  law: np.ndarray) -> tuple[list[int], set[int]]:
    """The section Aelin keeps after a split (:func:`keep_cost`) and the visible cards she loses."""
    parts = mindlib.sections(mind) if mind else []
    if len(parts) <= 1:
        return (parts[0] if parts else []), set()
    best = min(parts, key=lambda p: keep_cost(state, parts, p, need, table, law))
    return best, {c for p in parts if p is not best for c in p}


def keep_cost(state: EmbersState, parts: list[list[int]], part: list[int], need: int, table: np.ndarray,
              law: np.ndarray) -> float:
    """What keeping ``part`` of a split Mind costs Aelin, in turns (EM-85): the expected turns to finish her
    current row with its cards shown, plus a little per card of the other sections lost (more if tainted);
    ties go to the larger section."""
    deck = state.deck
    demon_suits = state.demon_suits() if state.chapter == "one" else set()
    others = [c for p in parts if p is not part for c in p]
    return (turns_from(table, law, need, [deck.cards[c].strength for c in part]) - 0.001 * len(part)
            + LOST_TURNS * len(others) + TAINT_TURNS * sum(1 for c in others if deck.cards[c].suit in demon_suits))


def aelin_scores(state: EmbersState) -> list[Scored]:
    """Aelin's ranked options in any of her decisions."""
    phase = state.phase
    if phase == "acknowledge" and state.chapter == "one":
        return aelin_take_scores(state)
    if phase == "acknowledge":
        return _part_two_take_scores(state)
    if phase == "split":
        law = strength_law(state)
        table = turns_table(law)
        need = TARGET - state.row_total(state.rows[state.completed]) if state.completed < len(state.rows) else 0
        parts = mindlib.sections(state.mind)
        out = []
        for action in state.legal_actions():
            part = next(p for p in parts if p[0] == decode(action)[1])
            turns = keep_cost(state, parts, part, need, table, law)
            out.append(Scored(action, -turns, f"keeps {len(part)} visible card(s) (about {turns:.1f} turns to "
                                              f"finish the row)"))
        return sorted(out, key=lambda s: -s.score)
    if phase == "reveal":
        reveals = [a for a in state.legal_actions() if decode(a)[0] == REVEAL]
        current = [a for a in reveals if decode(a)[1] == state.completed]
        ranked = current + [a for a in reveals if a not in current] + [encode(PASS)]
        return [Scored(a, float(len(ranked) - i), "turning a Resolve card face up tells Fenrys its strength"
                       if decode(a)[0] == REVEAL else "keep the Resolve card hidden")
                for i, a in enumerate(ranked)]
    if phase == "arrange":
        deck = state.deck
        out = []
        n = len(state.rows)
        for action in state.legal_actions():
            order = arrangements(n)[decode(action)[1]]
            strengths = [deck.cards[state.rows[i].resolve].strength for i in order]
            out.append(Scored(action, float(sum(s * (n - k) for k, s in enumerate(strengths))),
                              "strongest Resolve cards first: the first rows need the least"))
        return sorted(out, key=lambda s: -s.score)
    raise ValueError(f"not Aelin's decision: {phase}")


def _part_two_take_scores(state: EmbersState) -> list[Scored]:
    """Prologue part two: the same reasoning, but taking the last card does not lose."""
    deck = state.deck
    need = TARGET - state.row_total(state.rows[state.completed])
    law, table = strength_law(state), None
    out = []
    for action in state.legal_actions():
        card = decode(action)[1]
        strength = deck.cards[card].strength
        rest = [e for e in state.mind if e[0] != card]
        table = table if table is not None else turns_table(law)
        _, lost = _best_section(state, rest, need, table, law)
        if strength == need:
            score, why = 100.0, "completes the row"
        elif strength < need:
            score, why = 10.0 * strength, f"adds {strength}"
        else:
            score, why = -40.0, "over 7: discarded"
        score -= 12.0 * len(lost)
        if not [e for e in rest if e[0] not in lost] and state.completed < len(state.rows) - 1 and strength != need:
            score -= 5_000.0
            why += "; leaves the Mind empty"
        out.append(Scored(action, score, why))
    return sorted(out, key=lambda s: -s.score)


# ------------------------------------------------------------------------------ Fenrys
@dataclass
class FenrysSettings:
    """Tunable constants of Fenrys's decisions (docs/rules/embers-of-memory.md, EM-81, EM-82)."""

    card_price: float = 0.1  # a drawn card must raise the chance that Aelin can complete her row by this much
    max_row: int = 2  # draw a further card only while the memory row holds fewer memory cards than this
    min_deck: int = 8  # ... and the deck holds at least this many cards
    search_nodes: int = 1_000_000  # node budget of the compiled plan search per Blink (about half a second)


def completion_chance(need: dict[int, float], strengths: set[int]) -> float:
    """The chance that one of ``strengths`` is exactly what Aelin's current row needs (``need``: its law)."""
    return sum(p for n, p in need.items() if n in strengths)


def observe_scores(state: EmbersState, player: int, settings: FenrysSettings,
                   next_card: int | None = None) -> list[Scored]:
    """Fenrys's draw-or-stop decision (EM-81); ``next_card`` (full information only) is the deck's next card.

    Value of ``stop``: the chance that, once the row's cards that can be added are in the Mind, a visible card
    completes Aelin's current row (her need as Fenrys infers it from the table, EM-24). Value of ``draw``: the
    same chance expected after one more card (over the cards he cannot locate), minus the price of a card. He
    never stops while no card can be added, and does not draw further once the row holds ``max_row`` memory
    cards or the deck is down to ``min_deck`` cards.
    """
    deck = state.deck
    memory = [c for c in state.row if not deck.cards[c].is_demon]
    if next_card is not None:
        weights = {next_card: 1.0}
    else:
        composition = deck_composition(state, player)
        total = sum(composition.values())
        weights = {c: p / total for c, p in composition.items() if p > 0}
    unseen = [c for c in weights if not deck.cards[c].is_demon]
    placeable = {c for c, _, _ in mindlib.legal_placements(deck, state.mind, memory + unseen)}
    addable = [c for c in memory if c in placeable]
    if not addable:
        stop = Scored(encode(STOP), -1.0, "stop: no card of the row can be added, Aelin would break")
        if not state.pile:
            return [stop]
        return [Scored(encode(DRAW), 1.0, "draw: no card of the row can be added yet"), stop]
    need = need_distribution(state, player) if state.completed < len(state.rows) else {}
    shown = {deck.cards[c].strength for c in mindlib.visible_cards(state.mind)}
    shown |= {deck.cards[c].strength for c in addable}
    now = completion_chance(need, shown)
    stop = Scored(encode(STOP), now, f"stop: {now:.0%} chance a visible card completes Aelin's row",
                  extra={"completionChance": round(now, 3)})
    if not state.pile:
        return [stop]
    after = sum(p * completion_chance(need, shown | ({deck.cards[c].strength} if c in placeable else set()))
                for c, p in weights.items())
    score = after - settings.card_price
    why = f"draw: {after:.0%} chance after one more card, minus {settings.card_price:.0%} for the card"
    if len(memory) >= settings.max_row:
        score, why = -1.0, f"stop drawing: the row holds {len(memory)} memory cards"
    elif len(state.pile) < settings.min_deck:
        score, why = -1.0, f"stop drawing: only {len(state.pile)} cards left in the deck"
    draw = Scored(encode(DRAW), score, why, extra={"completionChance": round(after, 3)})
    return sorted([stop, draw], key=lambda s: -s.score)


#: the compiled plan search's pace on a loaded 2-core machine (nodes per second), to turn a time budget into a
#: node budget: hints then depend on their limits, never on the machine's load
SEARCH_NODES_PER_SECOND = 2_000_000


def node_budget(settings: FenrysSettings, time_limit: float | None = None) -> int:
    """The compiled search's node budget for a Blink plan (``settings.search_nodes``, or a time limit's worth)."""
    if time_limit is None:
        return settings.search_nodes
    return max(10_000, int(SEARCH_NODES_PER_SECOND * time_limit))


def blink_plan(state: EmbersState, player: int, settings: FenrysSettings, time_limit: float | None = None,
               control: Any = None) -> tuple[planlib.BlinkProblem, planlib.PlanResult | None, str]:
    """The best plan found for the Blink within the budget, or ``None`` when every plan splits the Mind.

    The compiled branch-and-bound search (:func:`solver.embers.plan.search`) proves the optimum within its node
    budget (status ``EXHAUSTIVE``); when the budget runs out first, the better of its best plan so far and the
    greedy plan is returned, unproven (``INCOMPLETE`` or ``GREEDY``). ``control``: a
    :class:`solver.search.Watch`'s stop flag (raised, the search stops with its best plan so far).
    """
    problem, result, status, _ = _blink_plan(state, player, node_budget(settings, time_limit), control)
    return problem, result, status


def _blink_plan(state: EmbersState, player: int, nodes: int, control: Any = None,
                problem: planlib.BlinkProblem | None = None
                ) -> tuple[planlib.BlinkProblem, planlib.PlanResult | None, str, int]:
    """:func:`blink_plan` with a node budget, also returning the nodes spent (at most ``nodes``); ``control``:
    a :class:`solver.search.Watch`'s stop flag (a stopped search is ``INCOMPLETE`` or ``GREEDY``)."""
    start = time.perf_counter()
    problem = problem or planlib.problem_from_state(state, player=player)
    found = _search(problem, nodes, control=control)
    spent = min(found.nodes, nodes) if found is not None else 0
    if found is not None and found.complete:
        if not found.found:
            return problem, None, "INFEASIBLE", spent
        return problem, _result(problem, found.adds, "EXHAUSTIVE", True, start, spent), "EXHAUSTIVE", spent
    adds = planlib.greedy_plan(problem)
    greedy = planlib.evaluate(problem, adds) if adds else None
    if found is not None and found.found and (greedy is None or found.value >= greedy.value):
        return problem, _result(problem, found.adds, "INCOMPLETE", False, start, spent), "INCOMPLETE", spent
    if greedy is None:
        return problem, None, "NO_PLAN", spent
    return problem, _result(problem, adds, "GREEDY", False, start, spent), "GREEDY", spent


def _search(problem: planlib.BlinkProblem, nodes: int, control: Any = None,
            **restrict: Any) -> planlib.SearchOutcome | None:
    """The compiled search, or ``None`` when the Mind is too wide for its board (span + 2 x row + 4 > 64)."""
    if not planlib.searchable(problem):
        return None
    return planlib.search(problem, max_nodes=nodes, control=control, **restrict)


def _result(problem: planlib.BlinkProblem, adds: list[planlib.Placement], status: str, proven: bool,
            start: float, nodes: int) -> planlib.PlanResult:
    outcome = planlib.evaluate(problem, adds)
    assert outcome is not None, "the plan search returned an illegal plan"
    used = {c for c, _, _ in adds}
    return planlib.PlanResult(adds, [c for c in problem.row if c not in used], outcome.value,
                              outcome.value if proven else None, status, proven, time.perf_counter() - start,
                              outcome, candidates=nodes)


def fallback_blink(state: EmbersState) -> int:
    """When every plan splits the Mind: the add that keeps the most of it, else a discard."""
    best = None
    for action in state.legal_actions():
        kind, payload = decode(action)
        if kind != ADD:
            continue
        card, x, y = decode_add(payload)
        grown = state.mind + [(card, x, y)]
        parts = mindlib.sections(grown)
        score = max(len(p) for p in parts) - 3 * (len(parts) - 1)
        if best is None or score > best[0]:
            best = (score, action)
    return best[1] if best else state.legal_actions()[0]


def plan_actions(result: planlib.PlanResult) -> list[int]:
    """The plan as actions: adds in order, then discards."""
    return [encode_add(c, x, y) for c, x, y in result.adds] + [encode(DISCARD, c) for c in result.discards]


# ------------------------------------------------------------------------------ policies
class GreedyPolicy:
    """A plain baseline: Fenrys draws until a card can be added, adds the best single placement at a time and
    discards the rest; Aelin takes the card that completes her row, else the largest that fits."""

    name = "greedy"

    def choose(self, state: EmbersState, rng: np.random.Generator) -> int:
        player = state.current_player()
        view = state.resample_from_observation(player, rng)
        legal = view.legal_actions()
        deck = view.deck
        if view.phase == "observe":
            memory = [c for c in view.row if not deck.cards[c].is_demon]
            if not mindlib.legal_placements(deck, view.mind, memory) and encode(DRAW) in legal:
                return encode(DRAW)
            return encode(STOP)
        if view.phase in ("blink", "first", "second"):
            best = None
            for action in legal:
                kind, payload = decode(action)
                if kind != ADD:
                    continue
                card, x, y = decode_add(payload)
                grown = view.mind + [(card, x, y)]
                score = (50 if mindlib.relives(deck, grown) else 0) + len(mindlib.visible_cards(grown)) \
                    - 20 * (len(mindlib.sections(grown)) - 1)
                if best is None or score > best[0]:
                    best = (score, action)
            if best is not None:
                return best[1]
            return legal[0]
        if view.phase == "acknowledge":
            row = view.rows[view.completed]
            need = TARGET - view.row_total(row)
            options = []
            for action in legal:
                card = decode(action)[1]
                strength = deck.cards[card].strength
                alone = len(view.mind) == 1 and view.chapter == "one"
                options.append(((strength == need, strength <= need, strength if strength <= need else -strength,
                                 not alone), action))
            return max(options)[1]
        if view.phase == "split":
            parts = mindlib.sections(view.mind)
            return encode(KEEP, max(parts, key=len)[0])
        if view.phase == "reveal":
            reveals = [a for a in legal if decode(a)[0] == REVEAL]
            return reveals[0] if reveals else encode(PASS)
        return legal[0]


class HintPolicy:
    """The policy behind ``hint``: Fenrys plans optimally, both decide from their own observation only."""

    name = "hint"
    full_information = False

    def __init__(self, settings: FenrysSettings | None = None,
                 next_card: Callable[[EmbersState], int | None] | None = None) -> None:
        self.settings = settings or FenrysSettings()
        self.next_card = next_card
        self.total_nodes: int | None = None  # the Blink ranking's whole node budget (default 1.5 x the plan's)
        self.nodes_used = 0
        self.watch: Any = None  # a solver.search.Watch: stops the Blink searches on terminate or time
        self.on_progress: Callable[[list[Scored]], None] | None = None  # the Blink ranking so far (interim)
        self._plan: list[int] = []
        self._plan_key: Any = None

    def view(self, state: EmbersState, rng: np.random.Generator) -> EmbersState:
        """What the deciding player may know, as a full state (hidden cards re-sampled)."""
        return state.resample_from_observation(state.current_player(), rng)

    def scores(self, state: EmbersState, rng: np.random.Generator) -> list[Scored]:
        """Ranked options for the player to move (used by the hint engine)."""
        player = state.current_player()
        view = self.view(state, rng)
        if player == AELIN and view.phase in ("acknowledge", "split", "reveal", "arrange"):
            return aelin_scores(view)
        if view.phase == "observe":
            return observe_scores(view, player, self.settings, self._peek(state))
        if view.phase == "blink":
            used: list[int] = []
            ranked = blink_scores(view, player, self.settings, total_nodes=self.total_nodes, used=used,
                                  watch=self.watch, on_progress=self.on_progress)
            self.nodes_used = sum(used)
            return ranked
        if view.phase in ("first", "second"):
            return prologue_play_scores(view)
        if view.phase == "acknowledge":
            return aelin_scores(view)
        legal = view.legal_actions()
        return [Scored(a, 0.0, "") for a in legal]

    def _peek(self, state: EmbersState) -> int | None:
        return self.next_card(state) if (self.full_information and self.next_card) else None

    def choose(self, state: EmbersState, rng: np.random.Generator) -> int:
        if state.phase == "blink" and state.current_player() == FENRYS:
            key = (tuple(state.mind), tuple(state.row))
            if self._plan and self._plan_key == key and self._plan[0] in state.legal_actions():
                action = self._plan.pop(0)
                self._plan_key = self._expected_key(state, action)
                return action
            view = self.view(state, rng)
            control = None if self.watch is None else self.watch.control
            problem, result, _ = blink_plan(view, FENRYS, self.settings, control=control)
            if result is None:
                return fallback_blink(state)
            actions = plan_actions(result)
            action = actions[0]
            self._plan = actions[1:]
            self._plan_key = self._expected_key(state, action)
            return action
        ranked = self.scores(state, rng)
        return ranked[0].action

    @staticmethod
    def _expected_key(state: EmbersState, action: int) -> Any:
        kind, payload = decode(action)
        if kind == ADD:
            card, x, y = decode_add(payload)
            return (tuple(state.mind) + ((card, x, y),), tuple(c for c in state.row if c != card))
        return (tuple(state.mind), tuple(c for c in state.row if c != payload))


class FullInformationPolicy(HintPolicy):
    """The hint policy given the truth: Fenrys sees Aelin's Resolve and, with a deck order, the next card."""

    name = "full-information"
    full_information = True

    def view(self, state: EmbersState, rng: np.random.Generator) -> EmbersState:
        view = state.clone()
        if view.chapter == "one":
            view.game = state.game
            view.__class__ = _OpenState
        return view


class _OpenState(EmbersState):
    """A state whose Resolve everybody sees (for the full-information reference only)."""

    def sees_resolve(self, player: int) -> bool:
        return self.chapter == "one"


#: seconds a stopped Blink ranking may still spend on greedy continuations before the last moves get their
#: one-add plans (terminate answers within 200 ms, a time limit within 100 ms)
STOPPED_GRACE = 0.04


def blink_scores(state: EmbersState, player: int, settings: FenrysSettings,
                 time_limit: float | None = None, total_nodes: int | None = None,
                 used: list[int] | None = None, watch: Any = None,
                 on_progress: Callable[[list[Scored]], None] | None = None) -> list[Scored]:
    """Fenrys's Blink: every legal move with the value of the best plan that starts with it, the optimal plan's
    first move first with the plan as principal variation.

    The plan is searched with ``settings.search_nodes`` (or ``time_limit``'s worth); the other moves share what
    is left of ``total_nodes`` (default one and a half times the plan's budget), the most promising first (by
    their immediate effect). A move's value is proven by the compiled search while the budget lasts
    (``planStatus`` ``EXHAUSTIVE``), else it is the value of a greedy continuation, a lower bound (``GREEDY``); a
    move after which every continuation splits the Mind gets :data:`SPLIT_VALUE` (``SPLITS``: no plan may count
    on Aelin's choice of section, EM-73). ``used`` receives the number of search nodes spent.

    ``watch`` (:class:`solver.search.Watch`) stops the searches on ``terminate`` or at the time limit: the
    plan is then the best found (``INCOMPLETE``) or greedy, the moves not searched yet get greedy continuations
    (``GREEDY``) and, past :data:`STOPPED_GRACE`, the plan of that one move (``UNSEARCHED``, also a lower bound).
    ``on_progress`` receives the ranking so far after the plan and after each move (interim reports).
    """
    plan_nodes = node_budget(settings, time_limit)
    total = total_nodes if total_nodes is not None else plan_nodes * 3 // 2
    plan_nodes = min(plan_nodes, total)
    control = None if watch is None else watch.control
    problem = planlib.problem_from_state(state, player=player)
    if on_progress is not None:
        greedy = planlib.greedy_plan(problem)
        outcome = planlib.evaluate(problem, greedy) if greedy else None
        if outcome is not None:
            first = encode_add(*greedy[0])
            on_progress([Scored(first, problem.points(outcome.value), "greedy plan (the search has just started)",
                                pv=_whole_plan(problem, first, greedy[1:]), extra={"planStatus": "GREEDY"})])
    problem, result, status, spent = _blink_plan(state, player, plan_nodes, control, problem)
    if result is None:
        if used is not None:
            used.append(spent)
        return _split_fallback_scores(state, status)
    actions = plan_actions(result)
    extra = {"planStatus": result.status, "planOptimal": result.optimal, "planBound": problem.points(result.bound),
             "objective": result.outcome.to_json(state.deck)}
    ranked = [Scored(actions[0], problem.points(result.value), _plan_reason(state, result), pv=actions, extra=extra)]
    budget = max(0, total - spent)
    first_step = []
    for action in state.legal_actions():
        if action == actions[0]:
            continue
        kind, payload = decode(action)
        outcome = planlib.evaluate(problem, [decode_add(payload)]) if kind == ADD else None
        first_step.append((outcome.value if outcome else -1e9 if kind == ADD else -1e8, action))
    if on_progress is not None:
        on_progress(list(ranked))
    for _, action in sorted(first_step, reverse=True):
        kind, payload = decode(action)
        found = None
        stopped = watch is not None and watch.stopped()
        if stopped and kind == ADD and watch.since_stop() > STOPPED_GRACE:
            one = planlib.evaluate(problem, [decode_add(payload)])
            ranked.append(_splits(action) if one is None else Scored(
                action, problem.points(one.value), "this add, then the rest discarded (a lower bound: the search was "
                "stopped before this move was searched)", pv=_whole_plan(problem, action, []),
                extra={"planStatus": "UNSEARCHED"}))
            continue
        if budget > 0 and not stopped:
            restrict = {"first": decode_add(payload)} if kind == ADD else \
                {"allowed": [c for c in problem.row if c != payload]}
            found = _search(problem, budget, control=control, **restrict)
            if found is not None:
                cost = min(found.nodes, budget)
                budget -= cost
                spent += cost
        if found is not None and found.complete:
            if found.found:
                rest = found.adds[1:] if kind == ADD else found.adds
                plan = _whole_plan(problem, action, rest)
                ranked.append(Scored(action, problem.points(found.value), "best plan starting with this move: "
                                     + _aims(state, problem, [decode_add(payload)] + rest if kind == ADD else rest),
                                     pv=plan, extra={"planStatus": "EXHAUSTIVE"}))
            else:
                ranked.append(_splits(action))
            continue
        greedy = _greedy_after(problem, kind, payload)
        if greedy is not None:
            value, rest = greedy
            ranked.append(Scored(action, value, "greedy plan starting with this move (a lower bound: the node "
                                                "budget ran out before its best plan was proven)",
                                 pv=_whole_plan(problem, action, rest), extra={"planStatus": "GREEDY"}))
        else:
            ranked.append(_splits(action))
        if on_progress is not None:
            on_progress(sorted(ranked, key=lambda s: -s.score))
    if used is not None:
        used.append(spent)
    return sorted(ranked, key=lambda s: -s.score)


#: the value of a Blink move after which every continuation splits the Mind (EM-73): below any split-free plan
SPLIT_VALUE = -10_000.0


def _splits(action: int) -> Scored:
    return Scored(action, SPLIT_VALUE, "every plan after this move splits the Mind, and no plan may count on the "
                                       "section Aelin keeps", extra={"planStatus": "SPLITS"})


def _split_fallback_scores(state: EmbersState, status: str) -> list[Scored]:
    """EM-83: when every plan splits the Mind, the add that keeps most of it (each move scored the same way)."""
    out = []
    for action in state.legal_actions():
        kind, payload = decode(action)
        if kind == ADD:
            card, x, y = decode_add(payload)
            parts = mindlib.sections(state.mind + [(card, x, y)])
            keep = max(len(p) for p in parts)
            score = SPLIT_VALUE + 10 * keep - 30 * (len(parts) - 1)
            why = ("every plan splits the Mind: this add keeps it whole for now" if len(parts) == 1 else
                   f"every plan splits the Mind: this add leaves {len(parts)} sections, the largest of {keep} cards")
        else:
            score, why = SPLIT_VALUE - 100, "every plan splits the Mind: a discard keeps nothing"
        out.append(Scored(action, float(score), why, extra={"planStatus": status}))
    return sorted(out, key=lambda s: -s.score)


def _plan_reason(state: EmbersState, result: planlib.PlanResult) -> str:
    """What the plan aims at, in words."""
    label = "optimal plan (proven)" if result.optimal else f"best plan found ({result.status.lower()}, unproven)"
    return f"{label}: " + _aims(state, None, result.adds, result.outcome)


def _aims(state: EmbersState, problem: planlib.BlinkProblem | None, adds: list[planlib.Placement],
          outcome: planlib.Outcome | None = None) -> str:
    """The aims of a plan: relives by suit, demons banished, cards tainted, what Aelin will see."""
    if outcome is None and problem is not None:
        outcome = planlib.evaluate(problem, adds)
    if outcome is None:
        return "no legal plan"
    parts = []
    relived = [f"{SUITS[s]}{' x' + str(n) if n > 1 else ''}" for s, n in sorted(outcome.relives.items())]
    if relived:
        parts.append("relives " + ", ".join(relived))
    if outcome.banished:
        parts.append("banishes the " + " and ".join(SUITS[s] for s in outcome.banished) + " demon"
                     + ("s" if len(outcome.banished) > 1 else ""))
    if outcome.demons_left:
        parts.append("leaves the " + " and ".join(SUITS[s] for s in outcome.demons_left) + " demon"
                     + ("s" if len(outcome.demons_left) > 1 else ""))
    if outcome.tainted:
        parts.append("taints " + ", ".join(state.deck.cards[c].id for c in outcome.tainted))
    if not relived:
        parts.append("no relive")
    parts.append(f"{len(outcome.visible)} card(s) visible for Aelin")
    return "; ".join(parts)


def _whole_plan(problem: planlib.BlinkProblem, action: int, rest: list[tuple[int, int, int]]) -> list[int]:
    """A plan that starts with ``action`` then adds ``rest``, as actions: the row's cards it never adds are
    discarded at the end (a forced discard is part of the plan; EM-72: when is immaterial; issue 16 item 4)."""
    kind, payload = decode(action)
    added = {c for c, _, _ in rest} | ({decode_add(payload)[0]} if kind == ADD else {payload})
    return [action] + [encode_add(*a) for a in rest] + [encode(DISCARD, c) for c in problem.row if c not in added]


def _greedy_after(problem: planlib.BlinkProblem, kind: int, payload: int) -> tuple[float, list] | None:
    """The value of a greedy plan that starts with this move (discard: the card is never added), and the adds
    after the move."""
    if kind == DISCARD:
        rest = tuple(c for c in problem.row if c != payload)
        sub = dataclasses.replace(problem, row=rest, must_add=False)
        adds = planlib.greedy_plan(sub)
        after = adds
    else:
        first = decode_add(payload)
        grown = dataclasses.replace(problem, mind=problem.mind + (first,),
                                    row=tuple(c for c in problem.row if c != first[0]), must_add=False)
        if planlib.evaluate(problem, [first]) is None:
            return None
        after = planlib.greedy_plan(grown)
        adds = [first] + after
    outcome = planlib.evaluate(problem, adds)
    return (problem.points(outcome.value), list(after)) if outcome else None


def prologue_play_scores(state: EmbersState) -> list[Scored]:
    """Prologue part one: prefer relives, then plays that keep the most cards visible."""
    deck = state.deck
    out = []
    for action in state.legal_actions():
        kind, payload = decode(action)
        if kind == ADD:
            card, x, y = decode_add(payload)
            grown = state.mind + [(card, x, y)]
            relive = mindlib.relives(deck, grown)
            score = (100.0 if relive else 0.0) + len(mindlib.visible_cards(grown))
            out.append(Scored(action, score, "relives a memory" if relive else "adds a card"))
        else:
            out.append(Scored(action, -1.0 - deck.cards[payload].strength / 10, "discard"))
    return sorted(out, key=lambda s: -s.score)
