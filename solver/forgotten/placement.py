"""Brain placement advice: which pair of opposite-side cells gives the best win probability (FG-2).

Every legal placement is played out (up to the board's symmetries, which give equal odds) with the
route policy in the compiled kernel (the greedy policy under the clear goal, as the hints play), on the
same deals' random streams; a successive-halving schedule spends the games on the placements still in
contention. Results carry 95% Wilson intervals. Under the clear goal where the Brains lie cannot change the
odds (no route is needed, the Erasure dice pick every cell alike), and the answer says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.forgotten.board import Board, all_placements
from solver.forgotten.hints import GREEDY_POLICY, continuation_policy
from solver.kernels import forgotten as kernel
from solver.ranking import Schedule, WinArm, rank_key, successive_halving
from solver.search import SearchContext

DEFAULT_GAMES = 200_000
#: games per compiled call of a placement's batch: terminate and the time limit are looked at in between (some
#: 30 ms of the route policy on the real board)
CHUNK_GAMES = 2048


@dataclass(eq=False)
class PlacementResult(WinArm):
    """One placement (a class of symmetric placements, ``key``: its Brains) and its simulated games (1 won, 0 lost):
    game ``i`` of a round is dealt and rolled from the same seed for every placement."""

    equivalent: int = 1

    @property
    def brains(self) -> tuple[int, int]:
        return self.key

    def tiebreak(self) -> tuple[int, int]:
        return self.key

    def to_json(self, board: Board) -> dict[str, Any]:
        return {"brains": [board.name(c) for c in self.brains], "spec": Board(board.width, board.height,
                                                                               self.brains).spec(),
                "winProbability": self.mean, "ci": list(self.ci), "games": self.games,
                "symmetricPlacements": self.equivalent}


def placement_classes(width: int, height: int) -> list[tuple[tuple[int, int], int]]:
    """Legal placements up to the grid's symmetries: ``(representative, how many placements it stands for)``."""
    w, h = width, height
    transforms = [lambda x, y: (x, y), lambda x, y: (w - 1 - x, y), lambda x, y: (x, h - 1 - y),
                  lambda x, y: (w - 1 - x, h - 1 - y)]
    if w == h:
        transforms += [lambda x, y: (y, x), lambda x, y: (h - 1 - y, w - 1 - x), lambda x, y: (y, w - 1 - x),
                       lambda x, y: (h - 1 - y, x)]
    classes: dict[tuple[int, int], int] = {}
    for a, b in all_placements(width, height):
        images = []
        for f in transforms:
            pa, pb = f(a % w, a // w), f(b % w, b // w)
            images.append(tuple(sorted((pa[1] * w + pa[0], pb[1] * w + pb[0]))))
        rep = min(images)
        classes[rep] = classes.get(rep, 0) + 1
    return sorted(classes.items())


def advise_placement(game: Any, ctx: SearchContext, top: int = 5) -> dict[str, Any]:
    """Rank Brain placements by simulated win probability with the hints' policy (``ctx.limits.nodes`` games in
    all)."""
    budget = ctx.limits.nodes or DEFAULT_GAMES
    policy = continuation_policy(game, False)
    policy_name = "greedy" if policy == GREEDY_POLICY else "route"
    results = [PlacementResult(rep, equivalent=count) for rep, count in placement_classes(game.width, game.height)]
    spent = 0

    def play(live: list[PlacementResult], round_no: int, n: int) -> tuple[int, bool]:
        nonlocal spent
        before = spent
        for result in live:
            if ctx.cancelled or ctx.deadline_passed():      # terminate or the time limit: stop within the round
                return spent - before, True
            wins = np.zeros(min(n, CHUNK_GAMES), np.uint8)  # one piece's (a budget of 1e12 asked for 78 GiB)
            turns = np.zeros(min(n, CHUNK_GAMES), np.int32)
            played = 0
            for start in range(0, n, CHUNK_GAMES):  # pieces of one run: the limits are looked at in between
                if start and (ctx.cancelled or ctx.deadline_passed()):
                    break
                end = min(n, start + CHUNK_GAMES)
                kernel.play_games(game.width, game.height, *result.brains, game.pairs, game.erasure_code,
                                  game.goal_code, policy, (ctx.seed * 7919 + round_no) % (2**63),
                                  wins[:end - start], turns[:end - start], start)
                result.add(round_no, wins[:end - start].copy())
                played = end
            spent += played
            if played < n:
                return spent - before, True
        return spent - before, ctx.should_stop(spent)

    successive_halving(results, play, Schedule(max(200, budget // (4 * len(results))), keep=max(2, top)), budget)
    ranked = sorted((r for r in results if r.games), key=rank_key)
    board = game.board
    out = {"game": game.spec(), "placements": [r.to_json(board) for r in ranked[:top]],
           "best": ranked[0].to_json(board), "gamesPlayed": spent, "seed": ctx.seed, "policy": policy_name,
           "method": f"self-play of the {policy_name} policy, successive halving over placements up to symmetry "
                     "(the same deals and dice for every placement of a round)",
           "valueMeaning": "probability that the players win with this Brain placement"}
    if game.goal == "clear":
        out["note"] = ("under goal=clear where the Brains lie does not change the odds (no route is needed and the "
                       "Erasure dice pick every cell alike): differences between placements are noise")
    return out
