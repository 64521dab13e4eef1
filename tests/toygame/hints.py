"""Hints for the toy game: a move that leaves a multiple of 3 wins. Slow on purpose on large piles."""

from __future__ import annotations

import time
from typing import Any

from solver.game import Game, State, View
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext

VALUE_MEANING = "+1 win, -1 loss"


def ranked(game: Game, pile: int, ctx: SearchContext, top: int) -> tuple[list[MoveInfo], int]:
    """The moves, winners first; loops in ~1 ms steps until its limits when the pile is 100 or more."""
    nodes = 0
    infos = [MoveInfo(f"take{a}", 1.0 if (pile - a) % 3 == 0 else -1.0, [f"take{a}"],
                      "leaves a multiple of 3" if (pile - a) % 3 == 0 else "does not leave a multiple of 3")
             for a in (1, 2) if a <= pile]
    infos.sort(key=lambda m: -m.value)
    while pile >= 100 and not ctx.should_stop(nodes):
        nodes += 1
        time.sleep(0.001)
        ctx.maybe_report(lambda: HintResult(game.name, infos[:top], {"visits": nodes}, is_during_search=True))
    return infos[:top], nodes


def hint_view(game: Game, view: View, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
    """Rank the observer's moves."""
    infos, nodes = ranked(game, view.pile, ctx, top)
    return HintResult(game.name, infos, {"visits": nodes, "valueMeaning": VALUE_MEANING,
                                         "fullInformation": False, "player": view.observer})


def hint_full(game: Game, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
              **options: Any) -> HintResult:
    """The same ranking, labelled as a full-information analysis."""
    infos, nodes = ranked(game, state.pile, ctx, top)
    return HintResult(game.name, infos, {"visits": nodes, "valueMeaning": VALUE_MEANING, "fullInformation": True})
