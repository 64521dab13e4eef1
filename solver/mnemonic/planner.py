"""Advice for a Mnemonic session: expectimax over the planning model, deepened while the limits allow (MN-33..MN-44).

For every legal move of the player being advised, the compiled kernel
``solver.kernels.mnemonic`` computes the value of the position the move
leads to. With rule ``planner.continuation = estimate`` (the default) the value
is the estimated chance of a Victory in the rest of the session: exact within
the horizon (``rounds`` new rounds of Individual Scenes and ``groups`` Group
Scenes), the continuation estimate (MN-44) at its edge. With ``none`` it is the
exact chance of a Victory within the horizon (nothing beyond counts).

The search is anytime: horizons are tried from the smallest up (iterative
deepening), each within what is left of the time, the node budget and the
cancellation flag; the deepest completed horizon is reported with every value
of the horizons before it. A search given ``nodes`` is bounded by them alone,
so that its answer is the same on every machine. A ``progress`` callback sees a
copy of the deepest completed horizon every 10 ms while the search runs (the
engine's interim reports, ``reportDuringSearchEvery``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.kernels import mnemonic as kernel
from solver.lazynp import np
from solver.buffers import INT32, stacked, zeros
from solver.mnemonic import state as S
from solver.mnemonic.cards import CATEGORIES, DECK_SIZE, category
from solver.mnemonic.model import Layout, layout_of, position_of, session_rounds_left
from solver.mnemonic.odds import group_odds, individual_odds
from solver.mnemonic.state import MnemonicState
from solver.search import Watch
from solver.twins import mnemonic_plan as twin

#: memoised states one horizon may use when no node budget is given (a memory guard, about 150 MB)
DEFAULT_STATES = 1_000_000
#: positions small enough for exact fractions from the twin
EXACT_STATES = 1_500
#: the smallest horizon gets at least this long, so that a hint always has an answer
MIN_SECONDS = 0.05
#: time kept back from the search for building the answer
ANSWER_SECONDS = 0.03
#: at the table the base policy's choice is kept unless another move is estimated better by this much (MN-44)
MARGIN = 0.01
TABLE_PHASES = ("table", "after-victory", "after-defeat")
ASSUMPTIONS = (
    "card ranks only tell the story: a card counts by its suit (or as a Joker)",
    "other players' hidden hands are open: they may play any suit the unseen cards still hold",
)
ASSUMPTION_HORIZON = "the plan maximises the chance of a Victory within the horizon; ending is worth nothing"
ASSUMPTION_ESTIMATE = ("beyond the horizon the rest of the session is estimated: face the Adversary after every "
                       "round, try again while allowed, scenes with the best matching skill")


@dataclass(frozen=True)
class Horizon:
    """New rounds of Individual Scenes and Group Scenes the exact search may use."""

    rounds: int
    groups: int

    def to_json(self) -> dict[str, int]:
        return {"rounds": self.rounds, "groupScenes": self.groups}


@dataclass
class Level:
    """One completed horizon of the deepening: its best value and size."""

    horizon: Horizon
    value: float
    states: int
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {**self.horizon.to_json(), "value": self.value, "states": self.states, "seconds": round(self.seconds, 4)}


@dataclass
class Evaluation:
    """Values of the legal moves of one decision, within the deepest completed horizon."""

    actions: list[int]
    values: dict[int, float]
    best_next: dict[int, tuple[int, float] | None]
    horizon: Horizon | None
    requested: Horizon
    states: int
    seconds: float
    exact: dict[int, Fraction] = field(default_factory=dict)
    unvalued: list[int] = field(default_factory=list)
    #: the continuation estimate was used at the deepest horizon (False: the values are exact for the session)
    estimated: bool = False
    continuation: bool = True
    #: what ended the deepening early: "time", "nodes", "terminate", "states" (the memory guard) or None
    stopped_by: str | None = None
    levels: list[Level] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when the requested horizon was reached (or the values are exact) and every move valued."""
        reached = self.horizon == self.requested or (self.horizon is not None and not self.estimated)
        return reached and not self.unvalued


def ladder(target: Horizon, table: bool, continuation: bool, session_left: int) -> list[Horizon]:
    """Horizons tried in turn, each containing the one before.

    With the continuation: (0, 0) (the current scene, then the estimate), (0, 1), then rounds before Group
    Scenes ((1, 1), (1, 2), (2, 2), ...), never more rounds than the session has left. Without it (the plain
    horizon objective): more Group Scenes first, then more rounds; at the table's choice at least one round
    is needed to value "another round" ((1, 1), (1, 2), ...).
    """
    rounds = min(target.rounds, session_left) if continuation else target.rounds
    if not continuation:
        first = 1 if table and target.rounds >= 1 else 0
        steps = [Horizon(first, g) for g in range(1, target.groups + 1)]
        return steps + [Horizon(r, target.groups) for r in range(first + 1, target.rounds + 1)]
    steps = [Horizon(0, 0)]
    if target.groups >= 1 and not table:  # at the table (0, 1) values every move as (0, 0) does
        steps.append(Horizon(0, 1))
    if rounds == 0:
        steps += [Horizon(0, g) for g in range(2, target.groups + 1)]
    for r in range(1, rounds + 1):
        steps += [Horizon(r, g) for g in range(max(1, min(r, target.groups)), target.groups + 1)
                  if Horizon(r, g) not in steps]
    return steps


def base_choice(state: MnemonicState) -> int | None:
    """The continuation's base policy at the table's choices (MN-44): face the Adversary, try again while
    someone can bring a skill, else play on; None elsewhere."""
    legal = state.legal_actions()
    if state.phase == "table":
        return S.GROUP if S.GROUP in legal else S.ROUND if S.ROUND in legal else None
    if state.phase == "after-defeat":
        if S.TRY_AGAIN in legal and state.someone_can_bring():
            return S.TRY_AGAIN
        return S.REGROUP if S.REGROUP in legal else None
    if state.phase == "after-victory":
        return S.ROUND if S.ROUND in legal else None
    return None


def ranked(state: MnemonicState, evaluation: Evaluation) -> list[int]:
    """The valued moves, best first (ties: the first legal). With the estimate, at the table's choices the base
    policy's move comes first unless another is estimated better by at least ``MARGIN``: smaller differences
    lie within the estimate's error (MN-44)."""
    order = sorted(evaluation.values, key=lambda a: (-evaluation.values[a], evaluation.actions.index(a)))
    base = base_choice(state) if evaluation.continuation and evaluation.estimated else None
    if base is not None and base in evaluation.values and order[0] != base \
            and evaluation.values[order[0]] - evaluation.values[base] < MARGIN:
        order.remove(base)
        order.insert(0, base)
    return order


def started(state: MnemonicState, action: int) -> tuple[int, int]:
    """(rounds, Group Scenes) a move starts."""
    if state.phase in TABLE_PHASES:
        if action in (S.ROUND, S.REGROUP):
            return 1, 0
        if action in (S.GROUP, S.TRY_AGAIN):
            return 0, 1
    return 0, 0


def _budget(horizon: Horizon, move: tuple[int, int], continuation: bool) -> tuple[int, int] | None:
    """The horizon left after a move, or None when the move lies beyond it (plain objective only: with the
    continuation, a Group Scene past the budget is the horizon's last and a round past it is estimated)."""
    r, g = horizon.rounds - move[0], horizon.groups - move[1]
    if not continuation:
        return None if r < 0 or g < 0 else (r, g)
    return max(r, -1), max(g, 0)


def past_the_session(state: MnemonicState, action: int) -> bool:
    """A round the rules allow but the session (``planner.sessionRounds``) has no room for: worth nothing, like
    ending there."""
    return started(state, action)[0] > 0 and session_rounds_left(state) == 0


def _batch(state: MnemonicState, layout: Layout, horizon: Horizon, skip: set[int],
           continuation: bool) -> tuple[list[np.ndarray], list[tuple[int, int | None]]]:
    """Positions of every child (and, when the same player decides again, every grandchild)."""
    rows: list[np.ndarray] = []
    index: list[tuple[int, int | None]] = []
    for action in state.legal_actions():
        if action in skip or (continuation and past_the_session(state, action)):
            continue
        left = _budget(horizon, started(state, action), continuation)
        if left is None:
            continue  # beyond the horizon: not valued
        child = state.child(action)
        rows.append(position_of(child, layout, *left))
        index.append((action, None))
        if not child.is_terminal() and not child.is_chance_node() and child.current_player() == state.current_player():
            for follow in child.legal_actions():
                more = _budget(Horizon(*left), started(child, follow), continuation)
                if more is None or (continuation and left[0] < 0 and more[0] < left[0]):
                    continue
                rows.append(position_of(child.child(follow), layout, *more))
                index.append((action, follow))
    return rows, index


def evaluate(state: MnemonicState, observer: int | None, target: Horizon, max_states: int = DEFAULT_STATES,
             seconds: float | None = None, exact: bool = True, cancel: threading.Event | None = None,
             nodes_given: bool = False, continuation: bool | None = None,
             levels: list[Horizon] | None = None,
             progress: Callable[[Evaluation], None] | None = None) -> Evaluation:
    """Value every legal move at a decision node, deepening the horizon while the limits allow.

    ``seconds`` bounds the whole evaluation (None: no time limit) whatever the node budget, ``max_states`` each
    horizon's memoised states (the node budget when ``nodes_given``), ``cancel`` stops it at once (within the
    watcher's 20 ms and the kernel's poll). ``continuation`` defaults to the rule ``planner.continuation``;
    ``levels`` replaces the ladder (tests, the only-move shortcut); ``progress`` is called from the watcher
    thread (:class:`solver.search.Watch`) with a copy of the best so far (once a horizon is complete).
    """
    if state.is_terminal() or state.is_chance_node():
        raise UnsupportedActionError("state", state.phase, "moves are ranked only where a player decides")
    if target.rounds < 0 or target.groups < 1:
        raise InvalidInputError("horizon", target.to_json(), "at least 1 Group Scene and 0 or more rounds")
    start = time.perf_counter()
    if continuation is None:
        continuation = state.rules["planner.continuation"] == "estimate"
    table = state.phase in TABLE_PHASES
    result = Evaluation(state.legal_actions(), {}, {}, None, target, 0, 0.0, continuation=continuation)
    steps = levels if levels is not None else ladder(target, table, continuation, session_rounds_left(state))
    deadline = None if seconds is None else start + seconds
    latest: list[Evaluation] = []

    def publish() -> None:  # the main thread, after each completed horizon: a copy the watcher may read
        if progress is not None:
            latest[:] = [snapshot(result, time.perf_counter() - start)]

    def tick() -> None:  # the watcher thread
        if latest:
            progress(latest[0])  # type: ignore[misc]

    # the kernel stops at its own deadline (what is left of ``seconds`` at each horizon); the watcher raises the
    # stop flag on ``cancel``, and at the deadline plus the smallest horizon's moment as a backstop
    hard_end = None if seconds is None else start + seconds + MIN_SECONDS
    stop = zeros(INT32, 1)  # the kernel's flag (int32): raised with the watch's own
    with Watch(cancel, hard_end, tick if progress is not None else None, name="mnemonic-plan") as watch:
        watch.on_stop(lambda: stop.__setitem__(0, 1))
        watch.stopped()  # a search terminated before it began stops at once
        done = _deepen(state, observer, steps, result, max_states, deadline, exact, stop, nodes_given, continuation,
                       publish=publish)
        if not continuation and table and not done and result.horizon is None and result.stopped_by is None:
            # the plain objective: even one more round is too big: value the other moves within this round only
            result.unvalued = [a for a in result.actions if started(state, a)[0] > 0]
            _deepen(state, observer, ladder(Horizon(0, target.groups), False, False, 0), result, max_states,
                    deadline, exact, stop, nodes_given, continuation, skip=set(result.unvalued), publish=publish)
        if watch.cancelled:
            result.stopped_by = "terminate"
    result.seconds = time.perf_counter() - start
    return result


def snapshot(result: Evaluation, seconds: float) -> Evaluation:
    """A copy of ``result`` that later horizons do not change (what an interim report reads)."""
    return replace(result, actions=list(result.actions), values=dict(result.values), best_next=dict(result.best_next),
                   exact=dict(result.exact), unvalued=list(result.unvalued), levels=list(result.levels),
                   seconds=seconds)


def _deepen(state: MnemonicState, observer: int | None, steps: list[Horizon], result: Evaluation, max_states: int,
            deadline: float | None, exact: bool, stop: np.ndarray, nodes_given: bool, continuation: bool,
            skip: set[int] | None = None, publish: Callable[[], None] | None = None) -> bool:
    """Run the ladder; keep the deepest completed horizon in ``result``. True if every step completed."""
    for step, horizon in enumerate(steps):
        layout = layout_of(state, max(horizon.rounds, 0), observer, tail=continuation)
        rows, index = _batch(state, layout, horizon, skip or set(), continuation)
        if not rows:
            return True
        left = 0.0
        if deadline is not None:
            left = deadline - time.perf_counter() - ANSWER_SECONDS
            if result.horizon is None and step == 0:
                left = max(left, MIN_SECONDS)  # the smallest horizon always gets a moment
            elif left <= 0:
                result.stopped_by = "time"
                return False
        began = time.perf_counter()
        values, states, complete, estimates = kernel.plan_values(layout.config, layout.skills, stacked(rows),
                                                                 max_states, left, stop)
        result.states = max(result.states, states)
        if not complete:
            result.stopped_by = ("nodes" if states >= max_states and nodes_given
                                 else "states" if states >= max_states else "time")
            return False
        _keep(result, horizon, index, values, states, time.perf_counter() - began, estimates > 0)
        if continuation:
            for action in result.actions:
                if past_the_session(state, action):
                    result.values[action] = 0.0
                    result.best_next[action] = None
        if exact:
            _exact_values(result, layout, rows, index, states, deadline, stop)
        if publish is not None:
            publish()
        if continuation and estimates == 0:
            return True  # exact for the whole session: deeper horizons change nothing
    return True


def _keep(result: Evaluation, horizon: Horizon, index: list[tuple[int, int | None]], values: list[float],
          states: int, seconds: float, estimated: bool) -> None:
    result.horizon = horizon
    result.estimated = estimated
    result.values = {a: v for (a, follow), v in zip(index, values) if follow is None}
    best: dict[int, tuple[int, float] | None] = {a: None for a in result.values}
    for (a, follow), v in zip(index, values):
        if follow is not None and (best[a] is None or v > best[a][1] + 1e-15):  # type: ignore[index]
            best[a] = (follow, v)
    result.best_next = best
    result.exact = {}
    result.levels.append(Level(horizon, max(result.values.values()), states, seconds))


def _exact_values(result: Evaluation, layout: Layout, rows: list[np.ndarray], index: list[tuple[int, int | None]],
                  states: int, deadline: float | None, stop: np.ndarray) -> None:
    """Exact fractions from the twin, for small positions whose values are exact (no estimate)."""
    if result.estimated or states > EXACT_STATES:
        return
    left = 0.0
    if deadline is not None:
        left = deadline - time.perf_counter() - ANSWER_SECONDS
        if left <= 0:
            return
    tops = [rows[i] for i, (_, f) in enumerate(index) if f is None]
    values, _, ok, _ = twin.plan_values(layout.config, layout.skills, tops, EXACT_STATES, left, stop)
    if ok:
        result.exact = dict(zip(list(result.values), values))


# -- exact odds for the explanations --------------------------------------------------------------
def roll_odds(state: MnemonicState, action: int) -> tuple[int, Fraction] | None:
    """(dice, exact success) of the Individual Scene roll a skill, learning or help choice leads to."""
    p = state.focus
    if state.phase == "scene-skill":
        if S.USE <= action < S.LEARN:
            n = state.dice(p, action - S.USE)
        elif S.LEARN <= action < S.PASS:
            n = max(0, state.rules["learning.rating"] + state.players[p].bonus)
        elif action >= S.ASK:
            n = state.dice(p, (action - S.ASK) % 10, helped=True)
        else:
            return None
    elif state.phase == "scene-help" and state.scene is not None and state.scene.skill is not None:
        n = state.dice(p, state.scene.skill, helped=True)
    else:
        return None
    return n, individual_odds(n).success


def unseen_pool(state: MnemonicState, observer: int | None) -> list[int]:
    """Category counts of the cards ``observer`` cannot see (the deck with full information)."""
    pool = [0] * len(CATEGORIES)
    if observer is None:
        for c in state.deck:
            pool[category(c)] += 1
        return pool
    seen = set(state.players[observer].hand) | {c for c, _ in state.discard}
    for c in range(DECK_SIZE):
        if c not in seen:
            pool[category(c)] += 1
    return pool


@lru_cache(maxsize=4096)
def _group_odds_cached(pools: tuple[int, ...], adversary: int, nobody: str) -> tuple[Fraction, Fraction, Fraction]:
    odds = group_odds(list(pools), adversary, nobody)
    return odds.victory, odds.defeat, odds.draw


def group_now_odds(state: MnemonicState, observer: int | None) -> tuple[Fraction, Fraction, Fraction]:
    """Exact odds of a Group Scene played now with each player's most dice (Deck Burner: over the draws)."""
    m = state.adversary_pool()
    nobody = state.rules["group.nobodyRolls"]
    if state.mode == "into-the-grey":
        if not state.grey_cards():
            pools = tuple(max((state.dice(q, s) for s in state.available(q)), default=0) for q in range(state.n))
        else:
            pools = _grey_card_pools(state, observer)
        return _group_odds_cached(pools, m, nobody)
    pool = tuple(unseen_pool(state, observer))
    best = [[max((state.dice(q, s) for s in state.matching(q, cat)), default=0) for cat in range(len(pool))]
            for q in range(state.n)]
    # ordered draws counted by the players' total dice (only the total matters, MN-3), memoised by the cards left
    counts = _draw_counts(tuple(tuple(row) for row in best), pool)
    sequences = sum(counts.values())
    total = [Fraction(0)] * 3
    for dice, ways in counts.items():
        odds = _group_odds_cached((dice,), m, nobody)
        for i in range(3):
            total[i] += Fraction(ways, sequences) * odds[i]
    return total[0], total[1], total[2]


@lru_cache(maxsize=256)
def _draw_counts(best: tuple[tuple[int, ...], ...], pool: tuple[int, ...]) -> dict[int, int]:
    """Players draw one card each from ``pool`` (category counts) in turn; ``best[q][c]`` is the dice player q
    brings with a card of category c. The number of ordered draws giving each total of dice."""
    @lru_cache(maxsize=None)
    def walk(q: int, left: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        if q == len(best):
            return ((0, 1),)
        out: dict[int, int] = {}
        for cat, count in enumerate(left):
            if count:
                rest = left[:cat] + (count - 1,) + left[cat + 1:]
                for dice, ways in walk(q + 1, rest):
                    out[dice + best[q][cat]] = out.get(dice + best[q][cat], 0) + ways * count
        return tuple(sorted(out.items()))

    return dict(walk(0, pool))


def _grey_card_pools(state: MnemonicState, observer: int | None) -> tuple[int, ...]:
    """Into the Grey with group cards (MN-41): each player's most dice with a card of the skill's suit; a hand
    the observer cannot see may hold any category the unseen cards still hold (MN-36), without two hidden
    hands playing the same unseen card. The assignment with the most dice in all (Victory grows with it)."""
    unseen = unseen_pool(state, observer)

    def best(q: int, cat: int) -> int:
        return max((state.dice(q, s) for s in state.matching(q, cat)), default=-1)

    def walk(q: int) -> tuple[int, tuple[int, ...]]:
        if q == state.n:
            return 0, ()
        if observer is None or q == observer:
            most = max((best(q, category(c)) for c in state.players[q].hand), default=0)
            total, rest = walk(q + 1)
            return total + max(most, 0), (max(most, 0),) + rest
        top = None
        for cat in range(len(unseen)):
            dice = best(q, cat)
            if unseen[cat] > 0 and dice >= 0 and state.players[q].hand:
                unseen[cat] -= 1
                total, rest = walk(q + 1)
                unseen[cat] += 1
                if top is None or total + dice > top[0]:
                    top = (total + dice, (dice,) + rest)
        if top is None:
            total, rest = walk(q + 1)
            return total, (0,) + rest
        return top

    return walk(0)[1]


def draw_odds(state: MnemonicState, observer: int | None) -> dict[str, Fraction]:
    """Chance of each category on the next card drawn, from ``observer``'s view."""
    pool = unseen_pool(state, observer)
    total = sum(pool)
    return {CATEGORIES[c]: Fraction(n, total) for c, n in enumerate(pool) if n}
