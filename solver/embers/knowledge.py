"""What each player knows, and hidden cards re-sampled consistently with it.

Hidden information in Embers of Memory:

* the deck's order (hidden from everybody; the deck is a set, so there is nothing to sample);
* in Chapter One, Aelin's face-down Resolve cards, hidden from Fenrys;
* in the Prologue, the face-down Resolve cards, hidden from both players.

Fenrys's knowledge of a face-down Resolve card is not only "some memory card
not seen elsewhere": the strength rows leak its strength (EM-24). A row that
was announced complete ("I am here") fixes it to 7 minus the other cards; a
row still open says the total is below 7 (at most 7 while Aelin is still in
the middle of her turn); a card Aelin took and had to discard because the
total went over 7 gives the lower bound ``atLeast``. :func:`resolve_options`
turns this into the set of possible strengths of each face-down card, and
:func:`resample` draws uniformly among all assignments of the unseen cards
consistent with it (exactly: it weighs each vector of strengths by the number
of ways to pick distinct cards).
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from math import comb, perm

from solver import seeded
from solver.embers.cards import SUITS
from solver.embers.state import AELIN, TARGET, EmbersState
from solver.errors import ImpossibleStateError
from solver.lazynp import np


def hidden_slots(state: EmbersState, player: int) -> list[int]:
    """Indices of the strength rows whose Resolve card ``player`` cannot see."""
    if state.sees_resolve(player):
        return []
    return [i for i, r in enumerate(state.rows) if not r.face_up]


def resolve_options(state: EmbersState, row_index: int) -> set[int]:
    """The strengths a face-down Resolve card can have, given what the table shows (EM-24)."""
    cards = state.deck.cards
    row = state.rows[row_index]
    others = sum(cards[c].strength for c in row.cards)
    strengths = {c.strength for c in state.deck.memory}
    if state.chapter == "prologue" or row_index > state.completed:
        allowed = strengths
    elif row_index < state.completed:
        allowed = {TARGET - others}
    else:
        mid_take = state.turn == AELIN and state.phase in ("reveal", "split", "speak")
        top = TARGET - others if mid_take else TARGET - 1 - others
        allowed = {s for s in strengths if s <= top}
    return {s for s in allowed if s >= max(row.at_least, 1)}


def unseen_pool(state: EmbersState, player: int) -> list[int]:
    """Cards ``player`` cannot locate: the deck plus the Resolve cards hidden from them."""
    return sorted(state.pile | {state.rows[i].resolve for i in hidden_slots(state, player)})


def strength_vectors(state: EmbersState, slots: list[int], pool: list[int]
                      ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every vector of strengths the hidden ``slots`` can hold with cards of ``pool``, and its number of card
    choices (its weight in a uniform draw)."""
    cards = state.deck.cards
    counts = Counter(cards[c].strength for c in pool if not cards[c].is_demon)
    options = tuple(tuple(sorted(resolve_options(state, i) & set(counts))) for i in slots)
    return _vectors(options, tuple(sorted(counts.items())))


@lru_cache(maxsize=4096)
def _vectors(options: tuple[tuple[int, ...], ...], counts: tuple[tuple[int, int], ...]
             ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    available = dict(counts)
    vectors, weights = [], []
    for vector in itertools.product(*options):
        weight = 1
        for strength, k in Counter(vector).items():
            weight *= perm(available[strength], k)
        if weight:
            vectors.append(vector)
            weights.append(weight)
    return tuple(vectors), tuple(weights)


def resample(state: EmbersState, player: int, rng: np.random.Generator) -> EmbersState:
    """A full state drawn uniformly among those consistent with ``player``'s observation."""
    slots = hidden_slots(state, player)
    copy = state.clone()
    if not slots:
        return copy
    pool = unseen_pool(state, player)
    assign_resolve(copy, slots, pool, rng, "state.resolve")
    return copy


def assign_resolve(state: EmbersState, slots: list[int], pool: list[int], rng: np.random.Generator, field: str) -> None:
    cards = state.deck.cards
    vectors, weights = strength_vectors(state, slots, pool)
    if not vectors:
        raise ImpossibleStateError(field, [state.rows[i].resolve for i in slots],
                                   "no unseen cards fit the face-down Resolve cards' strength rows")
    total = sum(weights)
    pick = vectors[int(rng.choice(len(vectors), p=[w / total for w in weights]))]
    free = [c for c in pool if not cards[c].is_demon]
    chosen: list[int] = []
    for strength in pick:
        candidates = [c for c in free if cards[c].strength == strength and c not in chosen]
        chosen.append(candidates[int(rng.integers(len(candidates)))])
    for i, card in zip(slots, chosen):
        state.rows[i].resolve = card
    state.pile = set(pool) - set(chosen)
    state._legal = None


def fill_unknown_resolve(state: EmbersState, slots: list[int], field: str) -> None:
    """Fill Resolve cards given as ``"?"`` by a seeded draw consistent with the table (marks the state ``guessed``)."""
    pool = sorted(state.pile)
    assign_resolve(state, slots, pool, seeded.default_rng(0), f"{field}.resolve")
    state.guessed = True


def suit_count_distribution(state: EmbersState, player: int) -> list[list[float]]:
    """For each suit, the probability that exactly ``n`` hidden Resolve cards are of that suit (``n`` = 0..4).

    Exact: each vector of strengths is weighed by its number of card choices,
    and within one strength the suits follow a multivariate hypergeometric law.
    """
    slots = hidden_slots(state, player)
    dist = [[0.0] * 5 for _ in SUITS]
    if not slots:
        for s in range(len(SUITS)):
            dist[s][0] = 1.0
        return dist
    cards = state.deck.cards
    pool = unseen_pool(state, player)
    vectors, weights = strength_vectors(state, slots, pool)
    total = sum(weights)
    by_strength: dict[int, list[int]] = {}
    for c in pool:
        if not cards[c].is_demon:
            by_strength.setdefault(cards[c].strength, []).append(cards[c].suit)
    grouped: Counter[tuple[int, ...]] = Counter()
    for vector, weight in zip(vectors, weights):
        grouped[tuple(sorted(vector))] += weight  # the law below depends only on the multiset of strengths
    for vector, weight in grouped.items():
        need = Counter(vector)
        for s in range(len(SUITS)):
            # number of hidden cards of suit s: sum over strengths of hypergeometric draws
            law = [1.0]
            for strength, k in need.items():
                suits = by_strength[strength]
                good = sum(1 for x in suits if x == s)
                size = len(suits)
                hyper = [comb(good, j) * comb(size - good, k - j) / comb(size, k) for j in range(k + 1)]
                law = _convolve(law, hyper)
            for n, p in enumerate(law[:5]):
                dist[s][n] += weight / total * p
    return dist


def _convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def expected_reveals(state: EmbersState, player: int, max_relives: int = 8) -> list[list[float]]:
    """``E[min(r, N_s)]`` for each suit ``s`` and ``r`` relives: the expected face-down Resolve cards of
    suit ``s`` that ``r`` relives of that suit let Aelin turn, as ``player`` sees it."""
    dist = suit_count_distribution(state, player)
    if state.sees_resolve(player):
        counts = Counter(state.deck.cards[r.resolve].suit for r in state.rows if not r.face_up)
        return [[float(min(r, counts.get(s, 0))) for r in range(max_relives + 1)] for s in range(len(SUITS))]
    return [[sum(p * min(r, n) for n, p in enumerate(dist[s])) for r in range(max_relives + 1)]
            for s in range(len(SUITS))]


def resolve_distribution(state: EmbersState, player: int, row_index: int) -> dict[int, float]:
    """The strength of a strength row's Resolve card as ``player`` sees it (exact when they can see it)."""
    row = state.rows[row_index]
    if row.face_up or state.sees_resolve(player):
        return {state.deck.cards[row.resolve].strength: 1.0}
    slots = hidden_slots(state, player)
    position = slots.index(row_index)
    vectors, weights = strength_vectors(state, slots, unseen_pool(state, player))
    total = sum(weights)
    out: Counter[int] = Counter()
    for vector, weight in zip(vectors, weights):
        out[vector[position]] += weight / total
    return dict(out)


def need_distribution(state: EmbersState, player: int) -> dict[int, float]:
    """What Aelin's current strength row still needs to reach exactly 7, as ``player`` sees it."""
    if state.completed >= len(state.rows):
        return {}
    row = state.rows[state.completed]
    others = sum(state.deck.cards[c].strength for c in row.cards)
    return {TARGET - others - s: p for s, p in resolve_distribution(state, player, state.completed).items()}


def deck_composition(state: EmbersState, player: int) -> dict[int, float]:
    """For each card ``player`` cannot locate, the probability that it is in the deck (the rest are Resolve cards)."""
    slots = hidden_slots(state, player)
    pool = unseen_pool(state, player)
    if not slots:
        return {c: 1.0 for c in pool}
    cards = state.deck.cards
    vectors, weights = strength_vectors(state, slots, pool)
    total = sum(weights)
    counts = Counter(cards[c].strength for c in pool if not cards[c].is_demon)
    in_resolve: Counter[int] = Counter()
    for vector, weight in zip(vectors, weights):
        for strength, k in Counter(vector).items():
            in_resolve[strength] += weight / total * k
    out = {}
    for c in pool:
        if cards[c].is_demon:
            out[c] = 1.0
        else:
            out[c] = 1.0 - in_resolve[cards[c].strength] / counts[cards[c].strength]
    return out
