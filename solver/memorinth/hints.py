"""Memorinth hints: rank the legal moves by the advised player's chance to win the race.

A hint reads only the advised player's view (``solver/memorinth/view.py``): one
world is drawn from it (``view.resample``) and every playout re-deals again
the undersides that player has not seen (MR-21), so the true hidden cards are
never used; a hint on a state for player p is the hint on ``state.view(p)``.
Each candidate move is played, then all players follow the greedy policy (the
kernel's heuristic, which itself only uses what each player has seen) until
someone leaves the forest. Candidates share their sampled worlds within a
batch (common random numbers). With ``full_information`` the true position is
played out instead, and the result is labelled ``fullInformation``.

Figures per move: ``value`` = ``winProbability`` (with a 95% Wilson interval),
``expectedTurns`` = the mean number of own turns (this one included) until
the player leaves, over the playouts the player won, with its 95% interval.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.memorinth import kernel
from solver.memorinth import layout as R
from solver.memorinth.reasons import action_reason, flip_reason
from solver.memorinth.state import MemorinthState
from solver.memorinth.view import MemorinthView
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext
from solver.stats import wilson
from solver.validate import as_int

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame

POLICY = np.array([1, 1, 1, 1], dtype=np.int32)      # greedy for everybody after the candidate move
MAX_TURNS = 400                                      # playouts longer than this count as unfinished
BATCH = 16                                           # playouts per candidate per round
SCREEN = 24                                          # more candidates than this: screen them first
SCREEN_PLAYOUTS = 4                                  # playouts per candidate in the screen
TIME_SHARE = 0.7                                     # of the time limit spent on playouts
DEFAULT_PLAYOUTS = 200_000                           # cap when neither time nor node limit is given
Z = 1.96                                             # 95% intervals: the normal quantile, rounded as always


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


def _seed(base: int, round_no: int) -> int:
    return (base * 0x9E3779B1 + round_no * 0x85EBCA77 + 0x632BE5AB) & (2**64 - 1)


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
    """Playouts of every legal move of ``world`` for ``advised`` (``world`` re-dealt per playout unless
    ``full_information``), within the context's node and time limits."""
    started = time.perf_counter()
    resample = 0 if full_information else 1
    legal = world.legal_actions()
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
        if budget is not None:  # the last of the budget is spread evenly over the candidates
            count = min(count, max(1, (budget - done) // len(candidates)))
        for action in candidates:
            if out_of_budget():
                return
            n = count if budget is None else min(count, budget - done)
            kernel.playouts(world.vec, world.deck_table, advised, action, n, seed, resample, POLICY, MAX_TURNS, out)
            tallies[action].add(out)
            done += n

    if len(active) > SCREEN:   # many candidates (swaps): a quick screen, then the best SCREEN get the budget
        run_round(active, SCREEN_PLAYOUTS)
        active = sorted(active, key=lambda a: (-tallies[a].p, a))[:SCREEN]
    while not out_of_budget():
        run_round(active, BATCH)
        ctx.maybe_report(lambda: _result(world, tallies, advised, top, full_information, done, started,
                                         interim=True))
        if len(active) == 1 and tallies[active[0]].games >= BATCH:
            break
    return _result(world, tallies, advised, top, full_information, done, started, interim=False)


def _rank_key(t: Tally) -> tuple[float, float, int]:
    """Best first: the higher win probability, then fewer own turns when winning, then the move's number."""
    mean = t.turns()[0]
    return (-t.p, mean if mean is not None else 1e9, t.action)


def _result(world: MemorinthState, tallies: dict[int, Tally], advised: int, top: int, full_information: bool,
            done: int, started: float, interim: bool) -> HintResult:
    played = sorted((t for t in tallies.values() if t.games), key=_rank_key)
    unplayed = sorted((t for t in tallies.values() if not t.games), key=lambda t: t.action)
    ranked = (played + unplayed)[:top]
    infos = []
    for rank, t in enumerate(ranked):
        move = world.action_to_string(t.action)
        if not t.games:
            infos.append(MoveInfo(move=move, value=0.0, pv=[move],
                                  why="not played out: the budget ran out before this move's turn (value unknown)",
                                  extra={"winProbability": None, "winCI": [0.0, 1.0], "valueCI": [0.0, 1.0],
                                         "expectedTurns": None, "expectedTurnsCI": None, "playouts": 0,
                                         "unfinished": 0}))
            continue
        mean, half = t.turns()
        lo, hi = t.wilson()
        why = _reason(world, t.action, advised, full_information)
        why += f"; wins {100 * t.p:.0f}% (95% CI {100 * lo:.0f}-{100 * hi:.0f}%)"
        if mean is not None:
            why += f", out in {mean:.1f} own turns when winning"
        why += _standing(t, played, rank, world)
        interval = [round(lo, 4), round(hi, 4)]
        infos.append(MoveInfo(
            move=move, value=round(t.p, 4), pv=[move], why=why,
            extra={"winProbability": round(t.p, 4), "winCI": interval, "valueCI": interval,
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
            "phase": world.phase, "policy": "greedy (MR-27)"}
    return HintResult(game=world.game.spec(), move_infos=infos, root_info=root, is_during_search=interim)


def _standing(t: Tally, played: list[Tally], rank: int, world: MemorinthState) -> str:
    """Where the move stands against the others: within the noise of the best, or ranked on fewer own turns."""
    if rank >= len(played) or len(played) < 2:
        return ""
    lo, hi = t.wilson()
    if rank == 0:
        close = [o for o in played[1:] if o.wilson()[1] >= lo]
        if not close:
            return "; clearly ahead of the other moves (95% intervals apart)"
        names = ", ".join(world.action_to_string(o.action) for o in close[:2])
        more = f" and {len(close) - 2} more" if len(close) > 2 else ""
        return f"; within the noise of {names}{more} (95% intervals overlap: more playouts could change the order)"
    best = played[0]
    above = played[rank - 1]
    text = ""
    if above.wins * t.games == t.wins * above.games:
        how = "on more own turns" if above.turns()[0] != t.turns()[0] else "by the move order (a tie)"
        text = f"; same win rate as {world.action_to_string(above.action)}, ranked below it {how}"
    if best.wilson()[0] <= hi:
        text += "; within the noise of the best move"
    return text


def _reason(view: MemorinthState, action: int, advised: int, know_all: bool) -> str:
    if R.A_FLIP <= action < R.A_PASS:
        return flip_reason(view, action, advised, know_all)
    if action == R.A_PASS:
        return "no card may be flipped"
    return action_reason(view, action, advised)
