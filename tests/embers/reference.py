"""An independent, deliberately naive statement of the Embers of Memory rules, for audit tests.

Written from the rulebook alone (``shared/rules/embers-of-memory.txt``), without the project's kernels,
twins or state machine, so that the tests comparing against it can catch a mistake shared by a kernel and
its twin. Everything here works on plain Python sets of quarters and is slow on purpose.

A Mind is a list of ``(card_id, x, y)`` bottom card first; a card covers the quarters ``(x..x+1, y..y+1)``;
segment order top-left, top-right, bottom-left, bottom-right ('#' blocked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

OFFSETS = ((0, 0), (1, 0), (0, 1), (1, 1))


@dataclass(frozen=True)
class RefCard:
    """A memory card as the rulebook describes it."""

    id: str
    suit: str
    strength: int
    pattern: str  # four of '#' / '.'

    def segment(self, quarter: int) -> bool:
        """True when segment ``quarter`` (0..3) is blocked."""
        return self.pattern[quarter] == "#"


Placed = tuple[str, int, int]


def quarters(x: int, y: int) -> set[tuple[int, int]]:
    """The four quarters a card at ``(x, y)`` covers."""
    return {(x + dx, y + dy) for dx, dy in OFFSETS}


def top_layer(cards: dict[str, RefCard], mind: Sequence[Placed]) -> dict[tuple[int, int], bool]:
    """The segment one sees at each covered quarter (the last card placed over it)."""
    seen: dict[tuple[int, int], bool] = {}
    for card, x, y in mind:
        for s, (dx, dy) in enumerate(OFFSETS):
            seen[(x + dx, y + dy)] = cards[card].segment(s)
    return seen


def may_add(cards: dict[str, RefCard], mind: Sequence[Placed], card: str, x: int, y: int) -> bool:
    """"Adding Memories" rules 1-4: overlap, match every overlapped segment, at least one blocked on blocked."""
    seen = top_layer(cards, mind)
    overlapped = [(cards[card].segment(s), seen[(x + dx, y + dy)])
                  for s, (dx, dy) in enumerate(OFFSETS) if (x + dx, y + dy) in seen]
    if not overlapped:
        return False  # rule 1
    if any(mine != under for mine, under in overlapped):
        return False  # rule 2
    return any(mine and under for mine, under in overlapped)  # rule 3


def all_adds(cards: dict[str, RefCard], mind: Sequence[Placed], row: Iterable[str]) -> set[Placed]:
    """Every legal ``(card, x, y)`` for the cards of ``row``: every position touching a covered quarter."""
    seen = top_layer(cards, mind)
    spots = {(qx - dx, qy - dy) for qx, qy in seen for dx, dy in OFFSETS}
    return {(card, x, y) for card in row for x, y in spots if may_add(cards, mind, card, x, y)}


def overlap(a: Placed, b: Placed) -> bool:
    """Two cards overlap when they share a quarter (adjacent cards do not)."""
    return bool(quarters(a[1], a[2]) & quarters(b[1], b[2]))


def visible(mind: Sequence[Placed]) -> list[str]:
    """Cards with at least one quarter that no later card covers."""
    out = []
    for k, (card, x, y) in enumerate(mind):
        covered: set[tuple[int, int]] = set()
        for _, x2, y2 in mind[k + 1:]:
            covered |= quarters(x2, y2)
        if quarters(x, y) - covered:
            out.append(card)
    return out


def sections(mind: Sequence[Placed]) -> list[frozenset[str]]:
    """The sections of the visible cards linked by overlap (more than one: the Mind is split)."""
    shown = [e for e in mind if e[0] in set(visible(mind))]
    left = list(shown)
    out = []
    while left:
        part = [left.pop(0)]
        grew = True
        while grew:
            grew = False
            for e in list(left):
                if any(overlap(e, f) for f in part):
                    part.append(e)
                    left.remove(e)
                    grew = True
        out.append(frozenset(e[0] for e in part))
    return out


def group(cards: dict[str, RefCard], mind: Sequence[Placed], card: str) -> set[str]:
    """Same-suit cards connected to ``card`` through overlapping cards of that suit (covered ones too)."""
    entry = next(e for e in mind if e[0] == card)
    suit = cards[card].suit
    members = {entry}
    grew = True
    while grew:
        grew = False
        for e in mind:
            if e not in members and cards[e[0]].suit == suit and any(overlap(e, m) for m in members):
                members.add(e)
                grew = True
    return {e[0] for e in members}


def relives(cards: dict[str, RefCard], mind: Sequence[Placed]) -> bool:
    """The card just added (the last one) makes its same-suit group total exactly 7."""
    return bool(mind) and sum(cards[c].strength for c in group(cards, mind, mind[-1][0])) == 7


# ------------------------------------------------------------------------------ Blink plans, brute force
@dataclass(frozen=True)
class RefProblem:
    """A Blink to plan: the Mind, the row, the demons (suit -> tainted count), the objective's value tables."""

    cards: dict[str, RefCard]
    mind: tuple[Placed, ...]
    row: tuple[str, ...]
    demons: dict[str, int]  # suit -> number of cards already tainted under its demon
    reveal_value: dict[str, tuple[int, ...]]  # suit -> value of r relives of that suit
    card_value: dict[str, int]  # value of each card if visible at the end of the Blink
    must_add: bool
    demon_weight: int = 1000
    taint_weight: int = 150


def plan_value(p: RefProblem, adds: Sequence[Placed]) -> int | None:
    """The objective (docs EM-71) of adding ``adds`` in order and discarding the rest; ``None`` if illegal or
    if the Mind ever splits (EM-73)."""
    if p.must_add and not adds:
        return None
    mind = list(p.mind)
    demons = dict(p.demons)
    count: Counter[str] = Counter()
    rescued = 0
    for card, x, y in adds:
        if card not in p.row or card in {e[0] for e in mind} or not may_add(p.cards, mind, card, x, y):
            return None
        mind.append((card, x, y))
        if relives(p.cards, mind):
            suit = p.cards[card].suit
            count[suit] += 1
            if suit in demons:
                rescued += demons.pop(suit)
        if len(sections(mind)) > 1:
            return None
    used = {a[0] for a in adds}
    tainted = sum(1 for c in p.row if c not in used and p.cards[c].suit in demons)
    return (-p.demon_weight * len(demons) + p.taint_weight * rescued - p.taint_weight * tainted
            + sum(p.reveal_value[s][n] for s, n in count.items())
            + sum(p.card_value[c] for c in visible(mind)))


def best_plan(p: RefProblem) -> tuple[int | None, list[list[Placed]]]:
    """Brute force over every order and position of every subset of the row: the best value and its plans."""
    best: int | None = None
    plans: list[list[Placed]] = []

    def visit(adds: list[Placed]) -> None:
        nonlocal best, plans
        value = plan_value(p, adds)
        if value is not None:
            if best is None or value > best:
                best, plans = value, [list(adds)]
            elif value == best:
                plans.append(list(adds))
        elif adds:
            return  # an illegal or splitting prefix cannot be extended
        mind = list(p.mind) + adds
        left = [c for c in p.row if c not in {a[0] for a in adds}]
        for move in sorted(all_adds(p.cards, mind, left)):
            visit(adds + [move])

    visit([])
    return best, plans
