"""Memorinth hints: rank the legal moves by the advised player's chance to win the race.

For a hint from the player's own information, the position is first re-sampled
from the player's observation (``resample_from_observation``) and every
playout re-deals again the undersides that player has not seen (MR-21), so
the true hidden cards are never used. Each candidate move is played, then all
players follow the greedy policy (the kernel's heuristic, which itself only
uses what each player has seen) until someone leaves the forest. Candidates
share their sampled worlds within a batch (common random numbers). With
``full_information`` the true position is played out instead, and the result
is labelled ``fullInformation``.

Figures per move: ``value`` = ``winProbability`` (with a 95% Wilson interval),
``expectedTurns`` = the mean number of own turns (this one included) until
the player leaves, over the playouts the player won, with its 95% interval.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.memorinth import rules as R
from solver.memorinth.reasons import action_reason, flip_reason
from solver.memorinth.rules import kernel
from solver.memorinth.state import MemorinthState
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext
from solver.validate import as_int

POLICY = np.array([1, 1, 1, 1], dtype=np.int32)      # greedy for everybody after the candidate move
MAX_TURNS = 400                                      # playouts longer than this count as unfinished
BATCH = 16                                           # playouts per candidate per round
SCREEN = 24                                          # more candidates than this: screen them first
TIME_SHARE = 0.7                                     # of the time limit spent on playouts
DEFAULT_PLAYOUTS = 200_000                           # cap when neither time nor node limit is given


@dataclass
class Tally:
    """Playout results of one candidate move."""

    action: int
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    turns_in_wins: int = 0
    squares_in_wins: int = 0

    def add(self, out: np.ndarray) -> None:
        self.games += int(out[0])
        self.unfinished += int(out[1])
        self.wins += int(out[2])
        self.turns_in_wins += int(out[3])
        self.squares_in_wins += int(out[5])

    @property
    def p(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def wilson(self) -> tuple[float, float]:
        if not self.games:
            return (0.0, 1.0)
        z, n, p = 1.96, self.games, self.p
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        return (max(0.0, centre - half), min(1.0, centre + half))

    def turns(self) -> tuple[float | None, float | None]:
        """Mean own turns to leave in the won playouts, and the half-width of its 95% interval."""
        if not self.wins:
            return None, None
        mean = self.turns_in_wins / self.wins
        if self.wins < 2:
            return mean, None
        var = max(0.0, (self.squares_in_wins - self.wins * mean * mean) / (self.wins - 1))
        return mean, 1.96 * math.sqrt(var / self.wins)


def _check(state: MemorinthState, player: int | None) -> int:
    if state.setup is not None:
        raise UnsupportedActionError("state.phase", "setup", "the game is not dealt yet")
    if state.is_terminal():
        raise InvalidInputError("state.phase", "over", "the game is over: no move to advise")
    to_move = state.current_player()
    if player is None:
        return to_move
    player = as_int(player, "player", 0, state.rules.players - 1)     # whole-number floats too, as everywhere
    if player != to_move:
        raise InvalidInputError("player", player, f"it is player {to_move}'s turn; hints rank the moves of the "
                                                  "player to move")
    return player


def _seed(base: int, round_no: int) -> int:
    return (base * 0x9E3779B1 + round_no * 0x85EBCA77 + 0x632BE5AB) & (2**64 - 1)


def hint(state: MemorinthState, ctx: SearchContext, *, top: int = 3, player: int | None = None,
         full_information: bool = False) -> HintResult:
    """Rank the advised player's legal moves by win probability (see the module docstring)."""
    started = time.perf_counter()
    advised = _check(state, player)
    rng = np.random.default_rng(ctx.seed)
    view = state.clone() if full_information else state.resample_from_observation(advised, rng)
    resample = 0 if full_information else 1
    legal = view.legal_actions()
    tallies = {a: Tally(a) for a in legal}
    deadline = None if ctx.remaining() is None else started + TIME_SHARE * ctx.remaining()
    budget = ctx.limits.nodes or (None if deadline is not None else DEFAULT_PLAYOUTS)
    done = 0
    round_no = 0
    active = list(legal)

    def out_of_budget() -> bool:
        if ctx.cancelled:
            return True
        if budget is not None and done >= budget:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    def run_round(candidates: list[int], count: int) -> None:
        nonlocal done, round_no
        seed = _seed(ctx.seed, round_no)
        round_no += 1
        out = np.zeros(12, dtype=np.int64)
        for action in candidates:
            n = count if budget is None else max(1, min(count, budget - done))
            kernel.playouts(view.vec, view.deck_table, advised, action, n, seed, resample, POLICY, MAX_TURNS, out)
            tallies[action].add(out)
            done += n
            if out_of_budget():
                return

    if len(active) > SCREEN:   # many candidates (swaps): a quick screen, then the best SCREEN get the budget
        run_round(active, 4)
        active = sorted(active, key=lambda a: -tallies[a].p)[:SCREEN]
    while True:
        run_round(active, BATCH)
        ctx.maybe_report(lambda: _result(view, state, tallies, advised, top, full_information, done, started,
                                         interim=True))
        if out_of_budget() or len(active) == 1 and tallies[active[0]].games >= BATCH:
            break
    return _result(view, state, tallies, advised, top, full_information, done, started, interim=False)


def _result(view: MemorinthState, state: MemorinthState, tallies: dict[int, Tally], advised: int, top: int,
            full_information: bool, done: int, started: float, interim: bool) -> HintResult:
    ranked = sorted((t for t in tallies.values() if t.games),
                    key=lambda t: (-t.p, t.turns()[0] if t.turns()[0] is not None else 1e9, t.action))[:top]
    infos = []
    for t in ranked:
        mean, half = t.turns()
        lo, hi = t.wilson()
        why = _reason(view, t.action, advised, full_information)
        infos.append(MoveInfo(
            move=state.action_to_string(t.action), value=round(t.p, 4), pv=[state.action_to_string(t.action)],
            why=f"{why}; wins {100 * t.p:.0f}% (95% CI {100 * lo:.0f}-{100 * hi:.0f}%)"
                + (f", out in {mean:.1f} own turns when winning" if mean is not None else ""),
            extra={"winProbability": round(t.p, 4), "winCI": [round(lo, 4), round(hi, 4)],
                   "expectedTurns": None if mean is None else round(mean, 2),
                   "expectedTurnsCI": None if half is None else [round(mean - half, 2), round(mean + half, 2)],
                   "playouts": t.games, "unfinished": t.unfinished}))
    root = {"player": advised, "colour": R.COLOURS[advised], "fullInformation": full_information,
            "valueMeaning": "probability that this player leaves the forest first, from playouts "
                            + ("on the true position (every underside as it really is)" if full_information else
                               "in which the undersides this player has not seen are re-dealt each time")
                            + "; after the move every player follows the greedy policy, which uses what that "
                              "player has seen (MR-27)",
            "expectedTurnsMeaning": "mean own turns (this one included) until this player leaves, over the "
                                    "playouts this player won",
            "playouts": done, "candidates": len(tallies), "seconds": round(time.perf_counter() - started, 4),
            "phase": state.phase, "policy": "greedy (MR-27)"}
    return HintResult(game=state.game.spec(), move_infos=infos, root_info=root, is_during_search=interim)


def _reason(view: MemorinthState, action: int, advised: int, know_all: bool) -> str:
    if R.A_FLIP <= action < R.A_PASS:
        return flip_reason(view, action, advised, know_all)
    if action == R.A_PASS:
        return "no card may be flipped"
    return action_reason(view, action, advised)
