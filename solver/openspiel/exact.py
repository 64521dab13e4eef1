"""Exact values through OpenSpiel's API, to check OpenSpiel's algorithms on the small roots (``deal=all``).

:func:`team_value` is the best expected return a team can reach in a game where every player
sees the same and wants the same (identical utility, all information public: Forgotten, FG-13).
It is an expectimax over *public states*: the histories a player cannot tell apart form one
group, weighted by their probabilities; the team picks, for each group, the action with the
best expected return of the groups it leads to. Groups are keyed by ``key(state)``, by default
the current player's information state; a game whose observation is all the team needs to
know (Forgotten: the unseen tiles are uniformly spread over the arrangements that agree with
what was seen and with the game still going on, so the observation fixes the belief) may key
by the observation string, so that histories reaching the same observation are solved once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyspiel

Group = list[tuple[Any, float]]


def team_value(game: pyspiel.Game, key: Callable[[Any], str] | None = None, root: Group | None = None) -> float:
    """The best expected return of player 0's team from the root of ``game`` (see the module docstring).

    A key met again below itself (a position repeated, possible with a ``key`` that forgets the past) is
    valued 0 there: a lower bound, and exact when repeating a position never raises the value (in
    Forgotten an Erasure roll only ever takes tiles away). ``root`` replaces the game's root by a group of
    ``(state, probability)``: every world a player's view allows, say.
    """
    if game.get_type().utility != pyspiel.GameType.Utility.IDENTICAL:
        raise ValueError("team_value needs a game of identical utility")
    key = key or (lambda state: state.information_state_string(state.current_player()))
    memo: dict[str, float] = {}
    open_keys: set[str] = set()

    def settle(group: Group) -> list[Group]:
        """The groups of decisions and ends that ``group`` leads to, chance outcomes expanded."""
        out: dict[str, Group] = {}
        stack = list(group)
        while stack:
            state, p = stack.pop()
            if state.is_chance_node():
                stack.extend((state.child(a), p * q) for a, q in state.chance_outcomes())
                continue
            name = "end" if state.is_terminal() else key(state)
            out.setdefault(name, []).append((state, p))
        return list(out.values())

    def value(group: Group) -> float:
        """The group's best expected return, given that it happened."""
        total = sum(p for _, p in group)
        state = group[0][0]
        if state.is_terminal():
            return sum(p * s.returns()[0] for s, p in group) / total
        name = key(state)
        if name in memo:
            return memo[name]
        if name in open_keys:
            return 0.0
        open_keys.add(name)
        best = -float("inf")
        for action in state.legal_actions():
            children = settle([(s.child(action), p) for s, p in group])
            best = max(best, sum(sum(p for _, p in child) * value(child) for child in children) / total)
        open_keys.discard(name)
        memo[name] = best
        return best

    start = root if root is not None else [(game.new_initial_state(), 1.0)]
    total = sum(p for _, p in start)
    return sum(sum(p for _, p in group) * value(group) for group in settle(start)) / total
