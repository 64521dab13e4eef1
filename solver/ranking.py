"""Successive halving over candidate moves, with common random numbers and paired differences.

A hint that ranks moves by sampling plays every candidate in the same sampled worlds with the same random
numbers (common random numbers): world ``i`` of round ``r`` holds the same hidden cards and the same dice for
every candidate played in it. Two candidates are then compared world by world (a paired difference), which
measures their difference far more precisely than either value.

The search runs in rounds (:func:`successive_halving`): every live candidate is played in the round's new
worlds; after each round the candidates significantly worse than the leader on the worlds they share are
dropped, then the worse half, never below ``keep`` candidates and never the protected one (the policy's own
move); each round is ``growth`` times longer than the last.

The answer (:func:`recommend`, :func:`display_order`): the protected move comes first unless another is
significantly better on shared worlds (then the best of those, and so on, so that no listed move is
significantly better than the first); the others follow by their values. When a move listed below the first
shows a higher value, the difference is within noise, and :func:`first_note` says so in one sentence with its
interval. :func:`loss_to_first` is each move's paired loss against the first move: what a review judges a
decision by (``docs/records.md``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.results import percent
from solver.stats import Z95, wilson

#: standard errors by which a paired difference must exceed zero to count as significant (when choosing the
#: move to recommend and when dropping a candidate): the 95% interval of the difference excludes zero
Z = Z95
#: successive halving keeps at least this many live candidates (whatever ``top`` is, so that a hint listing every
#: move, as a review asks, ranks them as the hint asked at the table does)
KEEP = 3


@dataclass(eq=False)
class Arm:
    """One candidate move and its samples: ``samples[r]`` holds its values in round ``r``'s worlds, in world order.

    ``protected`` marks the policy's own move (never dropped; first unless significantly beaten);
    ``first_round_only`` a candidate outside the shortlist (played in the first round only). ``dropped`` is the
    round after which successive halving dropped it (0 while it is live). A game subclasses it to keep its own
    figures and to give :meth:`tiebreak`. Values are summed as they come (floating point, in order), so ``mean``
    costs nothing however often it is read.
    """

    key: Hashable
    protected: bool = False
    first_round_only: bool = False
    dropped: int = 0
    _pieces: dict[int, list[np.ndarray]] = field(default_factory=dict, repr=False)
    _n: int = field(default=0, repr=False)
    _total: float = field(default=0.0, repr=False)

    def add(self, round_no: int, values: np.ndarray) -> None:
        """The next values of round ``round_no`` (a round may come in pieces, in world order)."""
        values = np.asarray(values)
        self._pieces.setdefault(round_no, []).append(values)
        self._n += len(values)
        self._total += float(values.sum())

    @property
    def samples(self) -> dict[int, np.ndarray]:
        """Round -> the values of its worlds, in world order."""
        for round_no, pieces in self._pieces.items():
            if len(pieces) > 1:
                self._pieces[round_no] = [np.concatenate(pieces)]
        return {round_no: pieces[0] for round_no, pieces in self._pieces.items()}

    @property
    def n(self) -> int:
        """Samples so far."""
        return self._n

    @property
    def total(self) -> float:
        return self._total

    @property
    def mean(self) -> float:
        """The mean sample (0 before the first)."""
        return self._total / self._n if self._n else 0.0

    def values(self) -> np.ndarray:
        """Every sample, round by round."""
        samples = self.samples
        return np.concatenate(list(samples.values())) if samples else np.zeros(0)

    def tiebreak(self) -> Any:
        """The second ranking key between equal means, lower first (a subclass's; the order given by default)."""
        return 0


@dataclass(eq=False)
class WinArm(Arm):
    """A candidate whose samples are games played on from it: 1 won, 0 lost."""

    @property
    def wins(self) -> int:
        """Games won so far."""
        return int(self.total)

    @property
    def games(self) -> int:
        """Games played so far."""
        return self.n

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win probability."""
        return wilson(self.wins, self.games)


def rank_key(arm: Arm) -> tuple[float, Any]:
    """Best first: the higher mean, then the lower :meth:`Arm.tiebreak`."""
    return (-arm.mean, arm.tiebreak())


@dataclass(frozen=True)
class Paired:
    """``a - b`` on the worlds both were played in: the mean difference, its standard error, the worlds shared."""

    mean: float
    se: float
    n: int

    def interval(self, z: float = Z) -> tuple[float, float]:
        """The (95%) interval of the mean difference."""
        return (self.mean - z * self.se, self.mean + z * self.se)

    def significant(self, z: float = Z) -> bool:
        """True when ``a`` is better than ``b`` by more than ``z`` standard errors."""
        return self.mean - z * self.se > 0


Samples = dict[int, np.ndarray]


def shared_differences(a: Samples, b: Samples) -> np.ndarray | None:
    """``a``'s samples minus ``b``'s on the worlds both were played in (None when they share none)."""
    parts = []
    for round_no, values in a.items():
        other = b.get(round_no)
        if other is not None:
            m = min(len(values), len(other))
            if m:
                parts.append(values[:m].astype(np.float64) - other[:m].astype(np.float64))
    return np.concatenate(parts) if parts else None


def paired(a: Arm, b: Arm, samples: Callable[[Arm], Samples] | None = None) -> Paired | None:
    """The paired difference ``a - b`` on their samples (or on ``samples(arm)``, another figure measured in the
    same worlds); None when no world is shared; a standard error of 1 with one world."""
    diff = (shared_differences(a.samples, b.samples) if samples is None
            else shared_differences(samples(a), samples(b)))
    if diff is None:
        return None
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else 1.0
    return Paired(float(diff.mean()), se, len(diff))


def significantly_better(a: Arm, b: Arm, z: float = Z) -> bool:
    """True when ``a`` beats ``b`` by more than ``z`` standard errors on the worlds they share."""
    diff = paired(a, b)
    return diff is not None and diff.significant(z)


# ---------------------------------------------------------------------------------------------- the search
@dataclass(frozen=True)
class Schedule:
    """Round sizes and how many candidates stay: ``first`` worlds per live candidate in the first round, each next
    round ``growth`` times longer (at most ``largest``); at least ``keep`` candidates stay live."""

    first: int
    growth: int = 2
    largest: int | None = None
    keep: int = KEEP
    z: float = Z
    #: the first round after which the worse half is dropped (and the rounds start growing); before it only the
    #: candidates outside the shortlist leave
    halve_from: int = 1
    #: spend a budget to the last sample: what is left when it is less than one world each goes to the best
    #: live candidates, one world each
    spend_all: bool = False

    def next_size(self, size: int) -> int:
        grown = size * self.growth
        return grown if self.largest is None else min(grown, self.largest)


#: ``play(live, round_no, n)`` plays every live arm in round ``round_no``'s ``n`` new worlds (adding the values to
#: each arm) and returns the samples spent and whether the search must stop (a time limit or terminate)
Play = Callable[[list[Arm], int, int], tuple[int, bool]]


@dataclass
class Progress:
    """What a search did: rounds played, samples spent, and whether its limits cut it short."""

    rounds: int = 0
    spent: int = 0
    stopped: bool = False


def successive_halving(arms: Sequence[Arm], play: Play, schedule: Schedule, budget: int | None = None) -> Progress:
    """Rounds of :func:`survivors` until ``budget`` samples are spent (``None``: until ``play`` says stop), the
    ranking is settled (one candidate left) or ``play`` says stop.

    A round gives each live candidate ``size`` worlds, or an equal share of what is left of the budget (every
    candidate gets at least one world in the first round); a remainder smaller than one world each is not spent,
    or with ``schedule.spend_all`` is one more world for the best live candidates.
    """
    live = list(arms)
    progress = Progress()
    size = schedule.first
    while live:
        n = size
        if budget is not None:
            left = budget - progress.spent
            n = min(size, left // len(live))
            if n < 1 and progress.rounds and schedule.spend_all and left > 0:
                best = sorted(live, key=rank_key)[:left]
                spent, stop = play(best, progress.rounds, 1)
                progress.spent += spent
                progress.rounds += 1
                progress.stopped = stop
                break
            if n < 1:
                if progress.rounds:
                    break
                n = 1
        spent, stop = play(live, progress.rounds, n)
        progress.spent += spent
        progress.rounds += 1
        if stop:
            progress.stopped = True
            break
        live = survivors(live, progress.rounds, schedule)
        if len(live) <= 1 < len(arms):
            break
        if progress.rounds >= schedule.halve_from:
            size = schedule.next_size(size)
    return progress


def survivors(live: list[Arm], round_no: int, schedule: Schedule) -> list[Arm]:
    """The candidates still in contention after round ``round_no``: candidates outside the shortlist leave after
    the first round; of the rest (best first) the first ``keep`` and those not significantly worse than the leader
    on the worlds they share, then the better half of those (at least ``keep``); the protected ones always stay."""
    contenders = [a for a in live if not a.first_round_only] or list(live)
    if round_no < schedule.halve_from:
        for arm in live:
            if arm not in contenders:
                arm.dropped = round_no
        return contenders
    ranked = sorted(contenders, key=rank_key)
    leader = ranked[0]
    kept = [a for i, a in enumerate(ranked)
            if i < schedule.keep or not significantly_better(leader, a, schedule.z)]
    kept = kept[:max(schedule.keep, math.ceil(len(kept) / 2))]
    kept += [a for a in live if a.protected and a not in kept]
    for arm in live:
        if arm not in kept:
            arm.dropped = round_no
    return kept


# ---------------------------------------------------------------------------------------------- the answer
def recommend(arms: Sequence[Arm], z: float = Z, min_samples: int = 1) -> Arm | None:
    """The move to play: the protected one (else the best by :func:`rank_key`), replaced by the move that beats
    it by the most among those significantly better on at least ``min_samples`` shared worlds (``z`` standard
    errors), until none is; None without a sample."""
    measured = [a for a in arms if a.n]
    if not measured:
        return None
    choice = next((a for a in measured if a.protected), None) or min(measured, key=rank_key)
    while True:
        better = []
        for arm in measured:
            if arm is choice:
                continue
            diff = paired(arm, choice)
            if diff is not None and diff.n < min_samples:
                continue
            if diff is not None and diff.significant(z):
                better.append((diff.mean, arm))
        if not better:
            return choice
        choice = max(better, key=lambda pair: pair[0])[1]


def display_order(arms: Sequence[Arm], first: Arm | None) -> list[Arm]:
    """``first``, then every other measured candidate by :func:`rank_key` (the order of their values)."""
    rest = sorted((a for a in arms if a.n and a is not first), key=rank_key)
    return ([first] if first is not None else []) + rest


def loss_to_first(first: Arm, arm: Arm, samples: Callable[[Arm], Samples] | None = None) -> dict[str, Any]:
    """How much ``arm`` loses against ``first`` on the worlds they share (on ``samples(arm)`` when the values shown
    are another figure than the ranking's): the mean, its 95% interval, the worlds shared (``lossToFirst`` in a
    hint's moves; exactly 0 for the first move itself)."""
    if arm is first:
        return {"value": 0.0, "ci": [0.0, 0.0], "samples": arm.n}
    diff = paired(first, arm, samples)
    if diff is None:
        return {"value": None, "ci": None, "samples": 0}
    lo, hi = diff.interval()
    return {"value": diff.mean, "ci": [lo, hi], "samples": diff.n}


@dataclass(frozen=True)
class Units:
    """How values and their differences are written: a probability as a percentage and its differences in
    percentage points; other values as numbers with ``digits`` decimals, differences in ``unit``."""

    probability: bool = False
    unit: str = ""
    digits: int = 1

    @property
    def scale(self) -> float:
        return 100.0 if self.probability else 1.0

    def value(self, value: float) -> str:
        return percent(value) if self.probability else f"{value:.{self.digits}f}"

    def number(self, value: float) -> str:
        """A difference, signed, without its unit (never ``-0.0``)."""
        shown = round(value * self.scale, self.digits)
        return f"{shown if shown else 0.0:+.{self.digits}f}"

    def signed(self, value: float) -> str:
        unit = "percentage points" if self.probability else self.unit
        return f"{self.number(value)}{' ' + unit if unit else ''}"

    def interval(self, lo: float, hi: float) -> str:
        return f"{self.number(lo)} to {self.number(hi)}"


#: values that are probabilities: percentages, differences in percentage points
PERCENTAGE_POINTS = Units(probability=True)


def first_note(order: Sequence[Arm], name: Callable[[Arm], str], units: Units, samples: str = "samples",
               why: str = "", shown: Callable[[Arm], float] | None = None,
               figure: Callable[[Arm], Samples] | None = None) -> str:
    """One sentence for the first move when a move listed below it shows a higher value: the difference is within
    noise (it always is: see :func:`recommend`), with its 95% interval on the shared worlds; ``why`` says why the
    first is first among moves as good (the policy's own move, ...). Empty when the order is the order of values.
    ``shown`` and ``figure``: the value shown and its samples, when they are not the ranking's."""
    if len(order) < 2:
        return ""
    value = shown or (lambda arm: arm.mean)
    first = order[0]
    higher = max(order[1:], key=value)
    if value(higher) <= value(first):
        return ""
    diff = paired(higher, first, figure)
    shown_text = f"{units.value(value(higher))} against {units.value(value(first))}"
    if diff is None:
        return (f"listed first although {name(higher)} shows more ({shown_text}; no {samples} shared to compare "
                f"them){why}")
    lo, hi = diff.interval()
    words = "within noise: as good as" if not diff.significant() else "listed first although better:"
    return (f"{words} {name(higher)} ({shown_text}; on the {diff.n} {samples} they share "
            f"{units.signed(diff.mean)}, 95% interval {units.interval(lo, hi)}){why}")


def standing_note(arm: Arm, first: Arm, name: Callable[[Arm], str], units: Units, samples: str = "samples",
                  figure: Callable[[Arm], Samples] | None = None) -> str:
    """For a move listed below the first: within noise of it (with the interval), or nothing when it is clearly
    behind (``figure``: the samples of the value shown, when it is not the ranking's)."""
    diff = paired(first, arm, figure)
    if diff is None or diff.significant():
        return ""
    lo, hi = diff.interval()
    return (f"within noise of {name(first)}: {units.signed(-diff.mean)} on the {diff.n} {samples} they share "
            f"(95% interval {units.interval(-hi, -lo)})")
