"""The cards a player's view does not show, and full deals drawn uniformly among those consistent with it.

A view (:mod:`solver.mnemonic.view`) knows the observer's own hand and the
discard; every other card is *unseen* and lies in another player's hand or in
the deck. What the observer also knows about where the unseen cards are
(MN-32, MN-43):

* how many cards each hand and the deck hold;
* in Into the Grey, how many face, number and joker cards each hand holds (the
  deal gives them out in that order, and every card played is public, MN-9);
* during an Into the Grey Group Scene, that a player who brought nothing holds
  no card of the suits of their available skills (*voids*), and that the player
  now choosing holds at least one (else they would have been passed over).

:class:`HiddenCards` holds these facts, counts the consistent deals exactly
(with Python integers) and draws one uniformly. Cards of a class are dealt
independently of the other classes; inside a class, the players with a void or
the must-hold fact are dealt by a small dynamic programme over the cards left in
each category (a suit, or the Jokers), the others (the deck included) take the
rest uniformly, which does not change the count whatever they get.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import comb, factorial
from typing import Iterator

from solver.lazynp import np
from solver.mnemonic.cards import card_class, category

DECK = -1
"""The holder id of the deck (players are 0..n-1)."""
CATEGORY_COUNT = 5


@dataclass
class HiddenCards:
    """Where the unseen cards may be: each holder's demand per class, the voids, and a must-hold fact."""

    unseen: list[int]
    #: holder (player index or ``DECK``) -> cards per class (one class in Deck Burner, three in Into the Grey)
    demand: dict[int, list[int]]
    classes: int
    voids: dict[int, frozenset[int]] = field(default_factory=dict)
    #: ``(holder, categories)``: that holder holds at least one card of these categories
    must_hold: tuple[int, frozenset[int]] | None = None

    def class_of(self, card: int) -> int:
        return card_class(card) if self.classes == 3 else 0

    def holders(self) -> list[int]:
        """Every holder, in a fixed order (the players, then the deck)."""
        return sorted(h for h in self.demand if h != DECK) + ([DECK] if DECK in self.demand else [])

    # -- facts ------------------------------------------------------------------------------------------
    def with_void(self, holder: int, categories: frozenset[int]) -> HiddenCards:
        voids = dict(self.voids)
        voids[holder] = voids.get(holder, frozenset()) | categories
        return HiddenCards(self.unseen, self.demand, self.classes, voids, self.must_hold)

    def with_card(self, holder: int, card: int) -> HiddenCards | None:
        """The facts once ``holder`` is known to hold ``card`` (``None`` when they cannot)."""
        cls = self.class_of(card)
        if card not in self.unseen or self.demand.get(holder, [0] * self.classes)[cls] < 1 \
                or category(card) in self.voids.get(holder, frozenset()):
            return None
        demand = {h: list(d) for h, d in self.demand.items()}
        demand[holder][cls] -= 1
        must = self.must_hold
        if must is not None and must[0] == holder and category(card) in must[1]:
            must = None
        return HiddenCards([c for c in self.unseen if c != card], demand, self.classes, self.voids, must)

    def without_must_hold(self) -> HiddenCards:
        return HiddenCards(self.unseen, self.demand, self.classes, self.voids, None)

    # -- counting -----------------------------------------------------------------------------------------
    def _pool(self, cls: int) -> tuple[int, ...]:
        counts = [0] * CATEGORY_COUNT
        for c in self.unseen:
            if self.class_of(c) == cls:
                counts[category(c)] += 1
        return tuple(counts)

    def _class_count(self, cls: int, must: frozenset[int] | None) -> int:
        """Consistent deals of the unseen cards of class ``cls`` (with the must-hold holder required to take
        one of ``must`` in this class when ``must`` is given)."""
        pool = self._pool(cls)
        constrained, free = self._split(cls, must)
        if sum(pool) != sum(self.demand[h][cls] for h in self.demand):
            return 0
        rest = sum(self.demand[h][cls] for h in free)
        free_ways = factorial(rest)
        for h in free:
            free_ways //= factorial(self.demand[h][cls])
        return _count(tuple(self._rule(h, cls, must) for h in constrained), pool) * free_ways

    def _split(self, cls: int, must: frozenset[int] | None) -> tuple[list[int], list[int]]:
        constrained, free = [], []
        for h in self.holders():
            if self.demand[h][cls] > 0 and (self.voids.get(h) or (must is not None and self.must_hold is not None
                                                                   and self.must_hold[0] == h)):
                constrained.append(h)
            else:
                free.append(h)
        return constrained, free

    def _rule(self, holder: int, cls: int, must: frozenset[int] | None) -> tuple[int, frozenset[int], frozenset[int]]:
        needs = must if (must is not None and self.must_hold is not None and self.must_hold[0] == holder) \
            else frozenset()
        return self.demand[holder][cls], self.voids.get(holder, frozenset()), needs

    def count(self) -> int:
        """The number of consistent deals of the unseen cards (0: the facts contradict each other)."""
        if self.must_hold is None:
            total = 1
            for cls in range(self.classes):
                total *= self._class_count(cls, None)
            return total
        return self.without_must_hold().count() - self.with_void(*self.must_hold).without_must_hold().count()

    def feasible(self) -> bool:
        return self.count() > 0

    def can_hold(self, holder: int, card: int) -> bool:
        """Whether some consistent deal puts ``card`` in ``holder``'s hand."""
        if not self.voids and self.must_hold is None:  # only the counts: any unseen card fits a free slot
            return card in self.unseen and self.demand.get(holder, [0] * self.classes)[self.class_of(card)] > 0
        after = self.with_card(holder, card)
        return after is not None and after.feasible()

    # -- sampling -----------------------------------------------------------------------------------------
    def sample(self, rng: np.random.Generator) -> dict[int, list[int]]:
        """One consistent deal drawn uniformly: holder -> its unseen cards."""
        out: dict[int, list[int]] = {h: [] for h in self.holders()}
        needs: dict[int, frozenset[int] | None] = {cls: None for cls in range(self.classes)}
        if self.must_hold is not None:
            needs = self._choose_must_class(rng)
        for cls in range(self.classes):
            self._sample_class(cls, needs[cls], rng, out)
        return out

    def _choose_must_class(self, rng: np.random.Generator) -> dict[int, frozenset[int] | None]:
        """For a must-hold fact, the classes in which the holder takes none of the categories and the one in
        which they take at least one, drawn with the right weights (the first class with such a card)."""
        assert self.must_hold is not None
        holder, cats = self.must_hold
        void = self.with_void(holder, cats).without_must_hold()
        free = self.without_must_hold()
        classes = list(range(self.classes))
        every = [free._class_count(c, None) for c in classes]
        none = [void._class_count(c, None) for c in classes]
        chosen: dict[int, frozenset[int] | None] = {}
        for i, cls in enumerate(classes):
            rest_all, rest_none = _product(every[i + 1:]), _product(none[i + 1:])
            here = (every[i] - none[i]) * rest_all
            later = none[i] * (rest_all - rest_none)
            if here + later == 0:
                raise ValueError("no consistent deal")
            if _below(rng, here, here + later):
                chosen[cls] = cats  # the first class where the holder has one: the rest are free
                for other in classes[i + 1:]:
                    chosen[other] = None
                break
            chosen[cls] = frozenset()  # marks "void in this class"
        return chosen

    def _sample_class(self, cls: int, must: frozenset[int] | None, rng: np.random.Generator,
                      out: dict[int, list[int]]) -> None:
        facts: HiddenCards = self
        if must is not None and not must and self.must_hold is not None:  # the holder takes none here
            facts = self.with_void(*self.must_hold)
            must = None
        by_category: list[list[int]] = [[] for _ in range(CATEGORY_COUNT)]
        for c in sorted(facts.unseen):
            if facts.class_of(c) == cls:
                by_category[category(c)].append(c)
        for cards in by_category:
            rng.shuffle(cards)
        pool = tuple(len(cards) for cards in by_category)
        constrained, free = facts._split(cls, must)
        rules = [facts._rule(h, cls, must) for h in constrained]
        for i, holder in enumerate(constrained):
            options = list(_compositions(rules[i], pool))
            weights = [_ways(x, pool) * _count(tuple(rules[i + 1:]), _minus(pool, x)) for x in options]
            x = options[_weighted(rng, weights)]
            for k, take in enumerate(x):
                out[holder] += by_category[k][:take]
                by_category[k] = by_category[k][take:]
            pool = _minus(pool, x)
        rest = [c for cards in by_category for c in cards]
        rng.shuffle(rest)
        for holder in free:
            take = facts.demand[holder][cls]
            out[holder] += [int(c) for c in rest[:take]]
            rest = rest[take:]
        for holder in out:
            out[holder] = [int(c) for c in out[holder]]


# -- the dynamic programme ---------------------------------------------------------------------------------
Rule = tuple[int, frozenset[int], frozenset[int]]  # (cards to take, categories forbidden, categories one of needed)


def _compositions(rule: Rule, pool: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to take ``rule[0]`` cards from ``pool`` (counts per category) honouring the rule."""
    take, forbidden, needed = rule
    cats = [k for k in range(CATEGORY_COUNT) if k not in forbidden and pool[k] > 0]

    def rec(i: int, left: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(cats):
            if left == 0:
                x = [0] * CATEGORY_COUNT
                for k, v in zip(cats, acc):
                    x[k] = v
                if not needed or any(x[k] for k in needed):
                    yield tuple(x)
            return
        for v in range(min(left, pool[cats[i]]), -1, -1):
            yield from rec(i + 1, left - v, acc + [v])

    yield from rec(0, take, [])


def _ways(x: tuple[int, ...], pool: tuple[int, ...]) -> int:
    ways = 1
    for k, v in enumerate(x):
        ways *= comb(pool[k], v)
    return ways


def _minus(pool: tuple[int, ...], x: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(pool, x))


@lru_cache(maxsize=65536)
def _count(rules: tuple[Rule, ...], pool: tuple[int, ...]) -> int:
    """Ways for the constrained holders (in order) to take their cards from ``pool``."""
    if not rules:
        return 1
    return sum(_ways(x, pool) * _count(rules[1:], _minus(pool, x)) for x in _compositions(rules[0], pool))


def _product(values: list[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _below(rng: np.random.Generator, numerator: int, denominator: int) -> bool:
    """True with probability ``numerator / denominator`` (exact for big integers)."""
    return _random_below(rng, denominator) < numerator


def _random_below(rng: np.random.Generator, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` for any Python integer ``bound``."""
    if bound < 2**62:
        return int(rng.integers(bound))
    bits = bound.bit_length()
    while True:
        value = 0
        for _ in range((bits + 61) // 62):
            value = (value << 62) | int(rng.integers(2**62))
        value >>= (62 * ((bits + 61) // 62) - bits)
        if value < bound:
            return value


def _weighted(rng: np.random.Generator, weights: list[int]) -> int:
    total = sum(weights)
    if total == 0:
        raise ValueError("no consistent deal")
    pick = _random_below(rng, total)
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    raise AssertionError("unreachable")
