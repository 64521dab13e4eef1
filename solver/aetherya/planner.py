"""What a kingdom can still become: the best arrangement of a player's 16 cards.

The planner answers "if these 16 cards (the face-down ones drawn consistently
with the player's view) could be rearranged, keeping the locked Portals and
Dragons where they are, what is the best kingdom?" with the foundation's
optimal-kingdom search (``solver.aetherya.solve.optimize_kingdom``) under a
short time limit, which says whether its answer is proven. ``local_search``
(steepest-ascent swaps over the compiled batch scorer) is a plain baseline
kept for the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.aetherya.cards import CELL_NAMES, DRAGON, LETTERS, PORTAL
from solver.aetherya.solve import optimize_kingdom
from solver.kernels import aetherya as kernel
from solver.search import Limits, SearchContext


@dataclass(frozen=True)
class Plan:
    """A target kingdom, its board score and which search produced it."""

    kingdom: str
    score: int
    planner: str
    optimal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kingdom": self.kingdom, "score": self.score, "planner": self.planner, "optimal": self.optimal}


def _scores(boards: np.ndarray) -> np.ndarray:
    out = np.empty((boards.shape[0], 8), dtype=np.int32)
    kernel.score_batch(np.ascontiguousarray(boards, dtype=np.uint8), out)
    return out[:, 6]


def local_search(cards: list[int], fixed: int, rng: np.random.Generator, restarts: int = 3) -> tuple[list[int], int]:
    """Steepest-ascent pair swaps from the given arrangement and ``restarts`` shuffles; ``fixed`` cells stay put."""
    free = [c for c in range(16) if not fixed >> c & 1]
    pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1:]]
    best_cards, best_score = list(cards), int(_scores(np.asarray([cards]))[0])
    starts = [list(cards)]
    for _ in range(restarts):
        start = list(cards)
        shuffled = [start[c] for c in free]
        rng.shuffle(shuffled)
        for c, k in zip(free, shuffled):
            start[c] = k
        starts.append(start)
    for start in starts:
        current, current_score = start, int(_scores(np.asarray([start]))[0])
        while pairs:
            trials = np.tile(np.asarray(current, dtype=np.uint8), (len(pairs), 1))
            idx = np.arange(len(pairs))
            a = np.asarray([p[0] for p in pairs])
            b = np.asarray([p[1] for p in pairs])
            trials[idx, a], trials[idx, b] = trials[idx, b], trials[idx, a]
            scores = _scores(trials)
            k = int(np.argmax(scores))
            if scores[k] <= current_score:
                break
            current, current_score = trials[k].tolist(), int(scores[k])
        if current_score > best_score:
            best_cards, best_score = current, current_score
    return best_cards, best_score


#: work cap of a node-limited planner call: deterministic (no wall clock), about 20 ms
PLANNER_NODES = 10_000


def best_kingdom(cards: list[int], fixed: int, rng: np.random.Generator, time_ms: int | None = 40,
                 nodes: int | None = None) -> Plan:
    """The best arrangement found of 16 card codes, ``fixed`` cells (bitmask) staying in place.

    Calls the foundation's optimiser (``optimize_kingdom``: compiled local search, layout bounds and the
    compiled branch-and-bound) for ``time_ms``, or, when ``nodes`` is given, for that much search work (then
    the answer does not depend on the machine's speed, unless ``time_ms`` is given too and cuts it); the result
    says whether it is proven optimal.
    """
    letters = "".join(LETTERS[c] for c in cards)
    locked = ",".join(f"{CELL_NAMES[c]}={LETTERS[cards[c]]}" for c in range(16) if fixed >> c & 1)
    seed = int(rng.integers(2**31))
    if nodes is None:
        result = optimize_kingdom(letters, fixed=locked or None, time_ms=time_ms, seed=seed)
    else:
        ctx = SearchContext(limits=Limits(time_ms=time_ms, nodes=nodes), seed=seed)
        result = optimize_kingdom(letters, fixed=locked or None, ctx=ctx, seed=seed, use_cache=False)
    return Plan(result.notation, int(result.total), "optimize_kingdom", bool(result.optimal))


def kingdom_potential(world: Any, seat: int, rng: np.random.Generator, time_ms: int | None = 40,
                      nodes: int | None = None) -> Plan:
    """The best rearrangement of ``seat``'s 16 cards in a (sampled) full state; locked cards stay."""
    cards = [c for c in world.kingdoms[seat]]
    fixed = sum(1 << c for c in range(16) if cards[c] in (DRAGON, PORTAL) and not world.hidden[seat] >> c & 1)
    return best_kingdom(cards, fixed, rng, time_ms, nodes)
