"""Advice for a Mnemonic session by exact expectimax over the planning model (MN-33..MN-38).

For every legal move of the player being advised, the compiled kernel
``solver.kernels.mnemonic_plan`` computes the highest probability that a Group
Scene ends in Victory within the horizon (``rounds`` new rounds of
Individual Scenes and ``groups`` Group Scenes) when that move is played and
everybody plays on optimally. The horizon is deepened step by step
((1,1), (1,2), ... up to the one asked for) and the deepest horizon completed
within the state and time limits is reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.kernels import mnemonic_plan as kernel
from solver.mnemonic import state as S
from solver.mnemonic.cards import CATEGORIES, DECK_SIZE, category
from solver.mnemonic.model import Layout, layout_of, position_of
from solver.mnemonic.odds import group_odds, individual_odds
from solver.mnemonic.state import MnemonicState
from solver.twins import mnemonic_plan as twin

DEFAULT_STATES = 600_000
EXACT_STATES = 4_000
MIN_SECONDS = 0.5  # positions small enough for exact fractions from the twin
ASSUMPTIONS = (
    "card ranks only tell the story: a card counts by its suit (or as a Joker)",
    "other players' hidden hands are open: they may play any suit the unseen cards still hold (MN-36)",
    "the plan maximises the chance of a Victory within the horizon; ending is worth nothing",
)


@dataclass(frozen=True)
class Horizon:
    """New rounds of Individual Scenes and Group Scenes the plan may use."""

    rounds: int
    groups: int

    def to_json(self) -> dict[str, int]:
        return {"rounds": self.rounds, "groupScenes": self.groups}


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

    @property
    def complete(self) -> bool:
        """True when the requested horizon was reached and every move valued."""
        return self.horizon == self.requested and not self.unvalued


def ladder(target: Horizon, table: bool) -> list[Horizon]:
    """Horizons tried in turn: more Group Scenes first, then more rounds.

    At a scene the plan may stop after the current round ((0, 1), (0, 2), ...);
    at the table's choice at least one round is needed to value "another round"
    ((1, 1), (1, 2), ...). The first table step that does not fit the limits is
    replaced by the scene ladder, with the round moves left unvalued.
    """
    first = 1 if table else 0
    steps = [Horizon(first, g) for g in range(1, target.groups + 1)]
    steps += [Horizon(r, target.groups) for r in range(first + 1, target.rounds + 1)]
    return steps


def started(state: MnemonicState, action: int) -> tuple[int, int]:
    """(rounds, Group Scenes) a move starts."""
    if state.phase in ("table", "after-victory", "after-defeat"):
        if action in (S.ROUND, S.REGROUP):
            return 1, 0
        if action in (S.GROUP, S.TRY_AGAIN):
            return 0, 1
    return 0, 0


def _batch(state: MnemonicState, layout: Layout, horizon: Horizon,
           skip: set[int]) -> tuple[list[np.ndarray], list[tuple[int, int | None]]]:
    """Positions of every child (and, when the same player decides again, every grandchild)."""
    rows: list[np.ndarray] = []
    index: list[tuple[int, int | None]] = []
    for action in state.legal_actions():
        if action in skip:
            continue
        dr, dg = started(state, action)
        r, g = horizon.rounds - dr, horizon.groups - dg
        if r < 0 or g < 0:
            continue  # beyond the horizon: not valued
        child = state.child(action)
        rows.append(position_of(child, layout, r, g))
        index.append((action, None))
        if not child.is_terminal() and not child.is_chance_node() and child.current_player() == state.current_player():
            for follow in child.legal_actions():
                grand = child.child(follow)
                dr2, dg2 = started(child, follow)
                if r - dr2 < 0 or g - dg2 < 0:
                    continue
                rows.append(position_of(grand, layout, r - dr2, g - dg2))
                index.append((action, follow))
    return rows, index


def evaluate(state: MnemonicState, observer: int | None, target: Horizon, max_states: int = DEFAULT_STATES,
             seconds: float | None = None, exact: bool = True) -> Evaluation:
    """Value every legal move at a decision node, deepening the horizon while the limits allow."""
    if state.is_terminal() or state.is_chance_node():
        raise UnsupportedActionError("state", state.phase, "moves are ranked only where a player decides")
    if target.rounds < 0 or target.groups < 1:
        raise InvalidInputError("horizon", target.to_json(), "at least 1 Group Scene and 0 or more rounds")
    start = time.perf_counter()
    table = state.phase in ("table", "after-victory", "after-defeat")
    result = Evaluation(state.legal_actions(), {}, {}, None, target, 0, 0.0)
    steps = ladder(target, table and target.rounds >= 1)
    done = _deepen(state, observer, steps, result, max_states, seconds, start, exact)
    if table and not done and result.horizon is None:
        # even one more round is too big: value the other moves within the current round only
        result.unvalued = [a for a in result.actions if started(state, a)[0] > 0]
        _deepen(state, observer, ladder(Horizon(0, target.groups), False), result, max_states, seconds, start,
                exact, skip=set(result.unvalued))
    result.seconds = time.perf_counter() - start
    return result


def _deepen(state: MnemonicState, observer: int | None, steps: list[Horizon], result: Evaluation, max_states: int,
            seconds: float | None, start: float, exact: bool, skip: set[int] | None = None) -> bool:
    """Run the ladder; keep the deepest completed horizon in ``result``. True if every step completed."""
    for step, horizon in enumerate(steps):
        layout = layout_of(state, horizon.rounds, observer)
        rows, index = _batch(state, layout, horizon, skip or set())
        left = 0.0
        if seconds is not None:
            left = seconds - (time.perf_counter() - start)
            if result.horizon is None and step == 0:
                left = max(left, MIN_SECONDS)  # the smallest horizon always gets a moment, even if queued long
            elif left <= 0:
                return False
        values, states, complete = kernel.plan_values(layout.config, layout.skills, np.vstack(rows), max_states, left)
        result.states = max(result.states, states)
        if not complete:
            return False
        result.horizon = horizon
        result.values = {a: v for (a, follow), v in zip(index, values) if follow is None}
        best: dict[int, tuple[int, float] | None] = {a: None for a in result.values}
        for (a, follow), v in zip(index, values):
            if follow is not None and (best[a] is None or v > best[a][1] + 1e-15):  # type: ignore[index]
                best[a] = (follow, v)
        result.best_next = best
        result.exact = {}
        if exact and states <= EXACT_STATES:
            # the exact fractions are an explanation: they get only the time left (0 means none, not unlimited)
            spare = 0.0 if seconds is None else seconds - (time.perf_counter() - start)
            if seconds is None or spare > 0:
                tops = [rows[i] for i, (_, f) in enumerate(index) if f is None]
                tv, _, ok = twin.plan_values(layout.config, layout.skills, tops, EXACT_STATES, spare)
                if ok:
                    result.exact = dict(zip(list(result.values), tv))
    return True


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
    pool = unseen_pool(state, observer)
    total = [Fraction(0)] * 3

    def walk(q: int, prob: Fraction, left: list[int], pools: tuple[int, ...]) -> None:
        if q == state.n:
            odds = _group_odds_cached(pools, m, nobody)
            for i in range(3):
                total[i] += prob * odds[i]
            return
        size = sum(left)
        for cat, count in enumerate(left):
            if count:
                nxt = list(left)
                nxt[cat] -= 1
                best = max((state.dice(q, s) for s in state.matching(q, cat)), default=0)
                walk(q + 1, prob * Fraction(count, size), nxt, pools + (best,))

    walk(0, Fraction(1), pool, ())
    return total[0], total[1], total[2]


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
