"""Pure-Python twin of ``src/memorinth_step.pxi``: N Memorinth games stepped together.

Same functions, parameters and results as the kernel, on the readable rules of
``solver/twins/memorinth_rules.py``. The kernel's memo of the public paths is a cache with no effect on the
results, so the twin checks its shape and leaves it alone (the twin's rules work the paths out every time).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from solver.twins.memorinth_rules import N_ACTIONS, PH_OVER, PHASE, STATE_LEN, TOMOVE, apply, checked_rows, legal

MEMO_WORDS = 6
TERMINAL = -4


def memo_words() -> int:
    """The int32 words of one row's memo (the width of the ``memos`` array)."""
    return MEMO_WORDS


def _rank(s: list[int], deck: Sequence[int], action: int) -> int:
    """The rank of ``action`` in the ascending legal list of ``s``, or -1 when it is not legal."""
    if s[PHASE] == PH_OVER or not 0 <= action < N_ACTIONS:
        return -1
    listed = legal(s, deck)
    at = bisect_left(listed, action)
    return at if at < len(listed) and listed[at] == action else -1


def legal_counts(states: Any, deck: Any, counts: Any) -> None:
    """``counts[i]``: how many legal actions row ``i`` has (0 once its game is over)."""
    rows = checked_rows(states, deck)
    if len(counts) != len(rows):
        raise ValueError("counts: expected n entries")
    for i, s in enumerate(rows):
        counts[i] = 0 if s[PHASE] == PH_OVER else len(legal(s, deck))


def random_legal(states: Any, deck: Any, uniforms: Any, out: Any) -> None:
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i`` (a uniformly random one for
    uniforms in [0, 1)), -1 where the game is over."""
    rows = checked_rows(states, deck)
    if len(uniforms) != len(rows) or len(out) != len(rows):
        raise ValueError("uniforms and out: expected n entries")
    for i, u in enumerate(uniforms):
        if not 0.0 <= u < 1.0:
            raise ValueError(f"uniforms[{i}]: expected a number in [0, 1), got {u}")
    for i, s in enumerate(rows):
        listed = [] if s[PHASE] == PH_OVER else legal(s, deck)
        out[i] = listed[int(float(uniforms[i]) * len(listed))] if listed else -1


def legal_ranks(states: Any, deck: Any, actions: Any, ranks: Any) -> None:
    """``ranks[i]``: the rank of ``actions[i]`` in row ``i``'s ascending legal list, -1 when it is not legal."""
    rows = checked_rows(states, deck)
    if len(actions) != len(rows) or len(ranks) != len(rows):
        raise ValueError("actions and ranks: expected n entries")
    for i, s in enumerate(rows):
        ranks[i] = _rank(s, deck, int(actions[i]))


def step(states: Any, deck: Any, actions: Any, memos: Any, players: Any) -> int:
    """Apply ``actions[i]`` to row ``i`` of ``states`` in place and write the player to act next (-4: the game is
    over) into ``players``. Every action is checked first: when one is not legal nothing is applied and the first
    such row is returned; otherwise -1."""
    rows = checked_rows(states, deck)
    if len(memos) != len(rows) or any(len(m) != MEMO_WORDS for m in memos):
        raise ValueError(f"memos: expected (n, {MEMO_WORDS})")
    if len(actions) != len(rows) or len(players) != len(rows):
        raise ValueError("actions and players: expected n entries")
    for i, s in enumerate(rows):
        if _rank(s, deck, int(actions[i])) < 0:
            return i
    for i, s in enumerate(rows):
        apply(s, deck, int(actions[i]))
        for j in range(STATE_LEN):
            states[i][j] = s[j]
        players[i] = TERMINAL if s[PHASE] == PH_OVER else s[TOMOVE]
    return -1
