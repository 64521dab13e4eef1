"""Memorinth hints: rank the legal moves by the advised player's chance to win the race.

A hint reads only the advised player's view (``solver/memorinth/view.py``): one
world is drawn from it (``view.resample``) and every playout re-deals again
the undersides that player has not seen (MR-21), so the true hidden cards are
never used; a hint on a state for player p is the hint on ``state.view(p)``.
Each candidate move is played, then all players follow the greedy policy (the
kernel's heuristic, which itself only uses what each player has seen) until
someone leaves the forest. Playout ``i`` of a round is the same re-dealt world
and the same dice for every candidate (common random numbers), and successive
halving (:mod:`solver.ranking`) gives the playouts to the moves still in
contention. With ``full_information`` the true position is played out instead,
and the result is labelled ``fullInformation``.

Figures per move: ``value`` = ``winProbability`` (with a 95% Wilson interval),
``expectedTurns`` = the mean number of own turns (this one included) until
the player leaves, over the playouts the player won, with its 95% interval.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.memorinth import kernel
from solver.memorinth import layout as R
from solver.memorinth.reasons import action_reason, flip_reason
from solver.memorinth.state import MemorinthState
from solver.memorinth.view import MemorinthView
from solver.ranking import (PERCENTAGE_POINTS, Arm, Schedule, WinArm, display_order, first_note, loss_to_first,
                            recommend, standing_note, successive_halving)
from solver.results import PROBABILITY, HintResult, MoveInfo, percent
from solver.search import SearchContext
from solver.stats import wilson
from solver.validate import as_int

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame

POLICY = np.array([1, 1, 1, 1], dtype=np.int32)      # greedy for everybody after the candidate move
MAX_TURNS = 400                                      # playouts longer than this count as unfinished
BATCH = 16                                           # playouts per candidate in the first round
SCREEN = 24                                          # more candidates than this: a shorter first round
SCREEN_PLAYOUTS = 4                                  # playouts per candidate in that first round
TIME_SHARE = 0.7                                     # of the time limit spent on playouts
#: a review's grades (inaccuracy, mistake, blunder): the least significant loss of the chance to leave first, in
#: percentage points (lichess's 10, 20 and 30 points of winning chances on its -1..1 scale)
REVIEW_GRADES = (5.0, 10.0, 15.0)
DEFAULT_PLAYOUTS = 200_000                           # cap when neither time nor node limit is given
Z = 1.96                                             # 95% intervals: the normal quantile, rounded as always


@dataclass(eq=False)
class Tally(WinArm):
    """Playout results of one candidate move (``key``): ``samples`` holds 1 for a playout the advised player won,
    0 otherwise; playout ``i`` of round ``r`` is the same re-dealt world for every candidate (common random
    numbers)."""

    unfinished: int = 0
    turns_in_wins: int = 0
    squares_in_wins: int = 0

    @property
    def action(self) -> int:
        return int(self.key)

    def wilson(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win probability."""
        return wilson(self.wins, self.games, Z)

    def turns(self) -> tuple[float | None, float | None]:
        """Mean own turns to leave in the won playouts, and the half-width of its 95% interval."""
        if not self.wins:
            return None, None
        mean = self.turns_in_wins / self.wins
        if self.wins < 2:
            return mean, None
        var = max(0.0, (self.squares_in_wins - self.wins * mean * mean) / (self.wins - 1))
        return mean, Z * math.sqrt(var / self.wins)

    def tiebreak(self) -> tuple[float, int]:
        """Between equal win rates: fewer own turns when winning, then the move's number."""
        mean = self.turns()[0]
        return (mean if mean is not None else 1e9, self.action)


def _advised(position: MemorinthState | MemorinthView, player: int | None) -> int:
    """The player the hint ranks moves for: the player to act (``player`` must be that player)."""
    if position.setup is not None:
        raise UnsupportedActionError("state.phase", "setup", "the game is not dealt yet: enter the deal first")
    if position.is_terminal():
        raise InvalidInputError("state.phase", "over", "the game is over: no move to advise")
    if isinstance(position, MemorinthView) and position.reveal >= 0:
        raise InvalidInputError("state.reveal", R.cell_name(position.reveal),
                                "enter what the card showed first ('reveal <side>'): no decision is pending")
    to_move = position.current_player()
    if player is None:
        return to_move
    player = as_int(player, "player", 0, position.rules.players - 1)
    if player != to_move:
        raise InvalidInputError("player", player, f"it is player {to_move}'s turn; hints rank the moves of the "
                                                  "player to move")
    return player


def world_seed(base: int, round_no: int, index: int) -> int:
    """The kernel seed of playout ``index`` of round ``round_no``: the same re-dealt world and dice for every
    candidate move (common random numbers)."""
    mixed = (base * 0x9E3779B1 + round_no * 0x85EBCA77 + 0x632BE5AB) & (2**64 - 1)
    return (mixed ^ ((index + 1) * 0x9E3779B97F4A7C15)) & (2**64 - 1)


def hint_view(game: MemorinthGame, view: MemorinthView, ctx: SearchContext, *, top: int = 3,
              **options: Any) -> HintResult:
    """Rank the observer's legal moves from their view alone: one world drawn by ``view.resample`` and, in every
    playout, the undersides the observer does not know re-dealt again (MR-21, MR-27)."""
    if not isinstance(view, MemorinthView):
        raise InvalidInputError("state", type(view).__name__, "not a Memorinth view")
    advised = _advised(view, view.observer)
    rng = np.random.default_rng(ctx.seed)
    return _search(view.resample(rng), advised, ctx, top, full_information=False)


def hint_full(game: MemorinthGame, state: MemorinthState, ctx: SearchContext, *, top: int = 3,
              player: int | None = None, **options: Any) -> HintResult:
    """A full-information analysis: playouts on the true position (``rootInfo.fullInformation`` true)."""
    state = game.parse_state(state)
    advised = _advised(state, player)
    return _search(state.clone(), advised, ctx, top, full_information=True)


def _search(world: MemorinthState, advised: int, ctx: SearchContext, top: int,
            full_information: bool) -> HintResult:
    """Successive halving (:mod:`solver.ranking`) over the legal moves of ``world`` for ``advised`` (``world``
    re-dealt per playout unless ``full_information``), within the context's node and time limits: every live
    move is played in the round's worlds, the moves clearly behind drop out, the best get the playouts."""
    started = time.perf_counter()
    resample = 0 if full_information else 1
    legal = world.legal_actions()
    tallies = {a: Tally(a) for a in legal}
    deadline = None if ctx.remaining() is None else started + TIME_SHARE * ctx.remaining()
    budget = ctx.limits.nodes or (None if deadline is not None else DEFAULT_PLAYOUTS)
    if len(legal) == 1:
        budget = min(budget or BATCH, BATCH)   # nothing to compare: a few playouts give its value
    done = 0
    out = np.zeros(12, dtype=np.int64)

    def out_of_budget() -> bool:
        if ctx.cancelled:
            return True
        if budget is not None and done >= budget:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    def play(live: list[Tally], round_no: int, n: int) -> tuple[int, bool]:
        nonlocal done
        before = done
        for start in range(0, n, BATCH):        # world by world in pieces, so that a limit leaves equal counts
            size = min(BATCH, n - start)
            seeds = [world_seed(ctx.seed, round_no, start + i) for i in range(size)]
            for tally in live:
                if out_of_budget():
                    return done - before, True
                count = size if budget is None else min(size, budget - done)
                tally.add(round_no, _playouts(world, advised, tally, resample, seeds[:count], out))
                done += count
            ctx.maybe_report(lambda: _result(world, tallies, advised, top, full_information, done, started,
                                             interim=True))
        return done - before, out_of_budget()

    first = SCREEN_PLAYOUTS if len(legal) > SCREEN else BATCH
    successive_halving(list(tallies.values()), play, Schedule(first, spend_all=True), budget)
    return _result(world, tallies, advised, top, full_information, done, started, interim=False)


def _playouts(world: MemorinthState, advised: int, tally: Tally, resample: int, seeds: list[int],
              out: np.ndarray) -> np.ndarray:
    """One playout of ``tally``'s move per seed (one kernel call each, so that playout ``i`` is the same world for
    every move): 1 where ``advised`` won; the turn counts go to the tally."""
    wins = np.zeros(len(seeds), dtype=np.uint8)
    vec, deck, action, play = world.vec, world.deck_table, tally.action, kernel.playouts
    unfinished = turns = squares = 0
    for i, seed in enumerate(seeds):
        play(vec, deck, advised, action, 1, seed, resample, POLICY, MAX_TURNS, out)
        wins[i], unfinished, turns, squares = out[2], unfinished + out[1], turns + out[3], squares + out[5]
    tally.unfinished += int(unfinished)
    tally.turns_in_wins += int(turns)
    tally.squares_in_wins += int(squares)
    return wins


def _result(world: MemorinthState, tallies: dict[int, Tally], advised: int, top: int, full_information: bool,
            done: int, started: float, interim: bool) -> HintResult:
    arms = list(tallies.values())
    ranked = display_order(arms, recommend(arms))
    unplayed = sorted((t for t in arms if not t.games), key=lambda t: t.action)
    shown = (ranked + unplayed)[:top]
    name = _namer(world)
    infos = []
    for t in shown:
        move = world.action_to_string(t.action)
        if not t.games:
            infos.append(MoveInfo(move=move, value=0.0, pv=[move],
                                  why="not played out: the budget ran out before this move's turn (value unknown)",
                                  extra={"winProbability": None, "winCI": [0.0, 1.0], "valueCI": [0.0, 1.0],
                                         "expectedTurns": None, "expectedTurnsCI": None, "playouts": 0,
                                         "unfinished": 0, "lossToFirst": {"value": None, "ci": None, "samples": 0}}))
            continue
        mean, half = t.turns()
        lo, hi = t.wilson()
        why = _reason(world, t.action, advised, full_information)
        why += f"; wins {percent(t.mean, 0)} (95% interval {percent(lo, 0)} to {percent(hi, 0)})"
        if mean is not None:
            why += f", out in {mean:.1f} own turns when winning"
        if t is ranked[0]:
            note = first_note(ranked, name, PERCENTAGE_POINTS, "playouts")
        else:
            note = _same_rate(t, ranked, name) or standing_note(t, ranked[0], name, PERCENTAGE_POINTS, "playouts")
        why += f"; {note}" if note else ""
        interval = [round(lo, 4), round(hi, 4)]
        infos.append(MoveInfo(
            move=move, value=round(t.mean, 4), pv=[move], why=why,
            extra={"winProbability": round(t.mean, 4), "winCI": interval, "valueCI": interval,
                   "expectedTurns": None if mean is None else round(mean, 2),
                   "expectedTurnsCI": None if half is None else [round(mean - half, 2), round(mean + half, 2)],
                   "playouts": t.games, "unfinished": t.unfinished, "lossToFirst": loss_to_first(ranked[0], t)}))
    root = {"player": advised, "colour": R.COLOURS[advised], "fullInformation": full_information,
            "valueMeaning": "probability that this player leaves the forest first, from playouts "
                            + ("on the true position (every underside as it really is)" if full_information else
                               "in which the undersides this player has not seen are re-dealt each time")
                            + "; after the move every player plays the greedy policy, which moves by what that "
                              "player has seen",
            "valueUnit": PROBABILITY,
            "expectedTurnsMeaning": "mean own turns (this one included) until this player leaves, over the "
                                    "playouts this player won",
            "playouts": done, "candidates": len(tallies), "seconds": round(time.perf_counter() - started, 4),
            "phase": world.phase, "policy": "greedy"}
    return HintResult(game=world.game.spec(), move_infos=infos, root_info=root, is_during_search=interim)


def _namer(world: MemorinthState) -> Callable[[Arm], str]:
    return lambda tally: world.action_to_string(tally.key)


def _same_rate(t: Tally, ranked: list[Tally], name: Callable[[Arm], str]) -> str:
    """A move with the same win rate as the one above it: ranked below it on more own turns (or by the move order)."""
    i = ranked.index(t)
    above = ranked[i - 1] if i > 0 else None
    if above is None or above.wins * t.games != t.wins * above.games:
        return ""
    how = "on more own turns" if above.turns()[0] != t.turns()[0] else "by the move order (a tie)"
    return f"same win rate as {name(above)}, ranked below it {how}"


def _reason(view: MemorinthState, action: int, advised: int, know_all: bool) -> str:
    if R.A_FLIP <= action < R.A_PASS:
        return flip_reason(view, action, advised, know_all)
    if action == R.A_PASS:
        return "no card may be flipped"
    return action_reason(view, action, advised)
