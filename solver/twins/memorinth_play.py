"""Pure-Python twin of ``src/memorinth_play.pxi``: the Memorinth rules one call at a time and in batches, path
bitboards, dealing, resampling, the policies' moves and playouts.

Same functions, same parameter names and the same results as the compiled kernel ``solver.kernels.memorinth``
(same integer arithmetic, same random number stream). The rules are ``memorinth_rules.py``, the policies
``memorinth_policy.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.twins.common import SplitMix64
from solver.twins.memorinth_policy import choose_action
from solver.twins.memorinth_rules import *  # noqa: F403 (the rules' names, as the kernel's ``cimport *``)


def layout() -> dict[str, int]:
    """The vector layout and codes (the kernel returns the same dict)."""
    return {"CELLS": CELLS, "UP": UP, "DOWN": DOWN, "SEEN": SEEN, "PIECE": PIECE, "CHAR": CHAR, "CLOVER": CLOVER,
            "SUPPLY": SUPPLY, "NPLAYERS": NPLAYERS, "VARIANT": VARIANT, "SIDEMODE": SIDEMODE, "SEAT": SEAT,
            "START": START, "ROUND": ROUND, "TOMOVE": TOMOVE, "LAST": LAST, "PHASE": PHASE, "PENDING": PENDING,
            "WINNER": WINNER, "TURNS": TURNS, "OWNTURNS": OWNTURNS, "STATE_LEN": STATE_LEN, "OUT": OUT,
            "A_FLIP": A_FLIP, "A_PASS": A_PASS, "A_CHOOSE": A_CHOOSE, "A_SHIFT": A_SHIFT, "A_CLOVER": A_CLOVER,
            "A_PEEK": A_PEEK, "A_SWAPCARDS": A_SWAPCARDS, "A_SWAPCHARS": A_SWAPCHARS, "N_ACTIONS": N_ACTIONS,
            "DECK_LEN": DECK_LEN, "PLAYOUT_OUT": PLAYOUT_OUT}


def path_bitboards(state: Any, deck: Any) -> tuple[int, ...]:
    """``(open_n, open_e, open_s, open_w, link_n, link_e, link_s, link_w, escape)`` of the face-up sides."""
    s = checked(state, deck)
    ex = exits_of(s, deck)
    opened = [0, 0, 0, 0]
    for c in range(CELLS):
        for d in range(4):
            if ex[c] >> d & 1:
                opened[d] |= 1 << c
    return (opened[0], opened[1], opened[2], opened[3]) + links(ex)


def escape_distances(state: Any, deck: Any, out: Any) -> int:
    """Fill ``out[25]`` with each cell's fewest moves out along the face-up paths (-1: none)."""
    s = checked(state, deck)
    if len(out) != CELLS:
        raise ValueError("out: expected 25 entries")
    dist = [0] * CELLS
    n = field(exits_of(s, deck), dist)
    for c in range(CELLS):
        out[c] = dist[c]
    return n


def legal_actions(state: Any, deck: Any, out: Any) -> int:
    """Write the legal actions (ascending) into ``out`` (at least 396 entries); return how many."""
    s = checked(state, deck)
    if len(out) < N_ACTIONS:
        raise ValueError("out: expected at least 396 entries")
    acts = legal(s, deck)
    for i, a in enumerate(acts):
        out[i] = a
    return len(acts)


def apply_action(state: Any, deck: Any, action: int) -> int:
    """Play ``action`` on ``state`` in place if it is legal; return 1, or 0 (state unchanged) if it is not."""
    s = checked(state, deck)
    if action not in legal(s, deck):
        return 0
    apply(s, deck, action)
    for i in range(STATE_LEN):
        state[i] = s[i]
    return 1


def escape_distances_batch(states: Any, deck: Any, out: Any) -> None:
    """``escape_distances`` for every row of ``states`` (n, 112) into ``out`` (n, 25)."""
    rows = checked_rows(states, deck)
    if len(out) != len(rows) or any(len(o) != CELLS for o in out):
        raise ValueError("out: expected (n, 25)")
    dist = [0] * CELLS
    for i, s in enumerate(rows):
        field(exits_of(s, deck), dist)
        for c in range(CELLS):
            out[i][c] = dist[c]


def legal_actions_batch(states: Any, deck: Any, out: Any, counts: Any) -> None:
    """``legal_actions`` for every row of ``states`` (n, 112): actions into ``out`` (n, 396), counts (n)."""
    rows = checked_rows(states, deck)
    if len(out) != len(rows) or any(len(o) < N_ACTIONS for o in out) or len(counts) != len(rows):
        raise ValueError("out: expected (n, 396) and counts (n)")
    for i, s in enumerate(rows):
        acts = legal(s, deck)
        counts[i] = len(acts)
        for j, a in enumerate(acts):
            out[i][j] = a


def apply_actions_batch(states: Any, deck: Any, actions: Any, applied: Any) -> None:
    """``apply_action`` of ``actions[i]`` to row ``i`` of ``states`` in place; ``applied[i]`` 1 or 0 (illegal)."""
    rows = checked_rows(states, deck)
    if len(actions) != len(rows) or len(applied) != len(rows):
        raise ValueError("actions and applied: expected n entries")
    for i, s in enumerate(rows):
        a = int(actions[i])
        if a in legal(s, deck):
            apply(s, deck, a)
            applied[i] = 1
            for j in range(STATE_LEN):
                states[i][j] = s[j]
        else:
            applied[i] = 0


# -- resampling and dealing -------------------------------------------------------------------
def _resample(s: list[int], player: int, rng: SplitMix64) -> None:
    bit = 1 << player
    for face in (0, 1):
        cells = [c for c in range(CELLS) if (s[UP + c] & 1) == face and not knows_under(s, c, bit)]
        vals = sorted(s[DOWN + c] for c in cells)  # sorted first: the sample depends on what the player knows only
        for i in range(len(vals) - 1, 0, -1):
            j = rng.below_scaled(i + 1)
            vals[i], vals[j] = vals[j], vals[i]
        for c, v in zip(cells, vals):
            s[DOWN + c] = v


def resample(state: Any, player: int, seed: int) -> None:
    """Shuffle, in place, the undersides ``player`` does not know among those cards (Sun-up and Moon-up apart;
    known: seen, or the clearing's, MR-21)."""
    s = checked_vector(state)
    if not 0 <= player < s[NPLAYERS]:
        raise ValueError("player: out of range")
    _resample(s, player, SplitMix64(seed))
    for i in range(STATE_LEN):
        state[i] = s[i]


def _deal(s: list[int], rng: SplitMix64) -> None:
    cards = list(range(1, 25))
    for i in range(23, 0, -1):
        j = rng.below_scaled(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    k = 0
    for c in range(CELLS):
        if c == 12:
            card = 0
        else:
            card = cards[k]
            k += 1
        face = (c // 5 + c % 5) & 1
        s[UP + c] = 2 * card + face
        s[DOWN + c] = 2 * card + 1 - face
        s[SEEN + c] = 0
    perm = list(range(8))
    for i in range(7, 0, -1):
        j = rng.below_scaled(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    master = s[VARIANT] == VAR_MASTER
    for i in range(8):
        s[CHAR + perm[i]] = i if master else i // 2
    n = s[NPLAYERS]
    active = goblins_active(s)
    for i in range(4):
        s[PIECE + i] = 12 if i < n else -1
        s[CLOVER + i] = 1 if (active and i < n) else 0
        s[OWNTURNS + i] = 0
    s[SUPPLY] = 5 - n if active else 5
    s[START] = 0
    s[ROUND] = 1
    s[TOMOVE] = 0
    s[LAST] = -1
    s[PHASE] = PH_FLIP
    s[PENDING] = -1
    s[WINNER] = -1
    s[TURNS] = 0


def deal(state: Any, deck: Any, seed: int) -> None:
    """Deal a new game in place: shuffle the forest cards and the characters; keep the rule fields."""
    s = checked(state, deck)
    _deal(s, SplitMix64(seed))
    for i in range(STATE_LEN):
        state[i] = s[i]


# -- the policies' moves and playouts -------------------------------------------------------
def policy_action(state: Any, deck: Any, policy: int, seed: int) -> int:
    """The action policy ``policy`` (0 random, 1 greedy) plays for the player to act."""
    s = checked(state, deck)
    if s[PHASE] == PH_OVER:
        raise ValueError("state: the game is over")
    if policy not in (POLICY_RANDOM, POLICY_GREEDY):
        raise ValueError("policy: expected 0 (random) or 1 (greedy)")
    return choose_action(s, deck, policy, SplitMix64(seed))


def _play(s: list[int], deck: Sequence[int], policies: Sequence[int], rng: SplitMix64, max_turns: int) -> None:
    start = s[TURNS]
    while s[PHASE] != PH_OVER and s[TURNS] - start < max_turns:
        apply(s, deck, choose_action(s, deck, policies[s[TOMOVE]], rng))


def _record(s: list[int], player: int, own0: int, turns0: int, out: Any) -> None:
    own = s[OWNTURNS + player] - own0
    out[0] += 1
    if s[PHASE] != PH_OVER:
        out[1] += 1
    elif s[WINNER] < 0:
        out[11] += 1
    else:
        w = s[WINNER]
        out[6 + w] += 1
        if w == player:
            out[2] += 1
            out[3] += own
            out[5] += own * own
    out[4] += own
    out[10] += s[TURNS] - turns0


def _check_playout_args(policies: Any, out: Any, max_turns: int, count: int) -> list[int]:
    if len(policies) != 4 or any(int(p) not in (POLICY_RANDOM, POLICY_GREEDY) for p in policies):
        raise ValueError("policies: expected 4 entries, each 0 (random) or 1 (greedy)")
    if len(out) != PLAYOUT_OUT:
        raise ValueError("out: expected 12 entries")
    if max_turns < 1 or count < 0:
        raise ValueError("max_turns must be positive and count non-negative")
    return [int(p) for p in policies]


def playouts(state: Any, deck: Any, player: int, first_action: int, count: int, seed: int, resample: int,
             policies: Any, max_turns: int, out: Any) -> None:
    """Play ``count`` games on from ``state`` and add their results into ``out`` (int64[12]).

    With ``resample`` set, each game first re-deals the undersides ``player`` has not seen. ``first_action``
    (if >= 0) is played first; then each player follows ``policies[player]``. ``out``: games, unfinished,
    wins of ``player``, own turns in those wins, own turns in all games, squared own turns in wins, wins of
    players 0..3, total turns, games that ended with nobody able to leave.
    """
    base = checked(state, deck)
    pol = _check_playout_args(policies, out, max_turns, count)
    if not 0 <= player < base[NPLAYERS]:
        raise ValueError("player: out of range")
    if first_action >= 0 and first_action not in legal(base, deck):
        raise ValueError("first_action: not legal")
    rng = SplitMix64(seed)
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    for _ in range(count):
        s = base[:]
        if resample:
            _resample(s, player, rng)
        own0, turns0 = s[OWNTURNS + player], s[TURNS]
        if first_action >= 0:
            apply(s, deck, first_action)
        _play(s, deck, pol, rng, max_turns)
        _record(s, player, own0, turns0, out)


def random_games(state: Any, deck: Any, count: int, seed: int, policies: Any, max_turns: int, out: Any) -> None:
    """Deal and play ``count`` games with the rule fields of ``state``; results (for player 0) as in ``playouts``."""
    base = checked(state, deck)
    pol = _check_playout_args(policies, out, max_turns, count)
    rng = SplitMix64(seed)
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    for _ in range(count):
        s = base[:]
        _deal(s, rng)
        _play(s, deck, pol, rng, max_turns)
        _record(s, 0, 0, 0, out)
