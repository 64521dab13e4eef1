"""Forgotten for OpenSpiel and the batched environment: action ids, observation tensor, tiny deals.

Both players see every flip (FG-13), so every piece of the tensor is public and both players'
observations hold the same (the adapter adds who is observing). Layout (``docs/openspiel.md``):

==============  ==================  ===========================================================
piece           shape               meaning
==============  ==================  ===========================================================
``cells``       cells x (4 + 3P)    per cell one of: Brain, no tile, face down unseen, removed
                                    unseen, then per pair P: face down seen, face up, removed
                                    after being seen
``phase``       6                   first, second, erase, won, lost, gave-up
``first``       cells               the tile flipped first this turn (phase ``second``)
``to_move``     2                   the player whose turn it is (or comes next after a roll)
``erasure``     1                   an Erasure roll follows the turn being played (FG-8)
``turn``        1                   turns finished / 100
==============  ==================  ===========================================================
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from solver.errors import UnsupportedActionError
from solver.forgotten.notation import DOWN, NONE, REMOVED, UP
from solver.forgotten.state import GIVE_UP, PHASES, ForgottenState
from solver.game import Game, Utility
from solver.learning import ActionCodec, Piece

MAX_MOVES = 2000
#: cell planes before the per-pair planes: Brain, no tile, face down unseen, removed unseen
FIXED_PLANES = 4
TURN_SCALE = 100.0
#: the most deals ``arrangements`` lists (a 3x3 board with 3 pairs has 630, a 4x3 with 5 pairs 1.2 million)
ARRANGEMENT_LIMIT = 200_000


def num_players(game: Game) -> int:
    return 2


def codec(game: Game) -> ActionCodec:
    """Flips are cells (at most 64) and ``give up`` is 64; Erasure rolls (chance) are cells."""
    return ActionCodec(GIVE_UP + 1, game.board.cells)


def utility_range(game: Game) -> tuple[float, float]:
    """Both players win (1) or lose (0) together."""
    return (0.0, 1.0)


def utility(game: Game) -> Utility:
    return Utility.IDENTICAL


def chance_steps(game: Game, decisions: int) -> int:
    """At most one Erasure roll per turn (``erasure=turn``), per two turns (``round``), none (``off``)."""
    turns = decisions // 2 + 1
    return {"off": 0, "turn": turns, "round": turns // 2 + 1}[game.erasure]


# -- the observation tensor -----------------------------------------------------------------------------------
def public_pieces(game: Game) -> list[Piece]:
    cells = game.board.cells
    return [Piece("cells", (cells, FIXED_PLANES + 3 * game.pairs)), Piece("phase", (len(PHASES),)),
            Piece("first", (cells,)), Piece("to_move", (2,)), Piece("erasure", (1,)), Piece("turn", (1,))]


def private_pieces(game: Game) -> list[Piece]:
    return []


def fill_public(game: Game, state: ForgottenState, planes: dict[str, np.ndarray]) -> None:
    """The board as the players saw it: a tile's pair only where it was seen (FG-13)."""
    grid = planes["cells"]
    brains = state.board.brains
    for c, (tile, status, seen) in enumerate(zip(state.tiles, state.status, state.seen)):
        if c in brains:
            grid[c, 0] = 1
        elif tile < 0 or status == NONE:
            grid[c, 1] = 1
        elif not seen:
            grid[c, 2 if status == DOWN else 3] = 1
        else:
            grid[c, FIXED_PLANES + 3 * tile + {DOWN: 0, UP: 1, REMOVED: 2}[status]] = 1
    planes["phase"][PHASES.index(state.phase)] = 1
    if state.phase == "second":
        planes["first"][state.first] = 1
    planes["to_move"][state.turn % 2] = 1
    if state.phase in ("first", "second") and game.erasure_due(state.turn + 1):
        planes["erasure"][0] = 1
    planes["turn"][0] = state.turn / TURN_SCALE


def fill_private(game: Game, state: ForgottenState, player: int, planes: dict[str, np.ndarray]) -> None:
    """Nothing: both players know the same (FG-13)."""


# -- tiny settings: every deal ----------------------------------------------------------------------------------
def arrangement_count(game: Game) -> int:
    """How many different deals the board has: the tiles and empty cells over the cells but the Brains."""
    free = game.board.cells - 2
    empty = free - 2 * game.pairs
    return math.factorial(free) // (2 ** game.pairs * math.factorial(empty))


def arrangements(game: Game) -> list[tuple[float, ForgottenState]]:
    """Every deal of ``new_initial_state`` (FG-3), each as likely as the others, as ``[(probability, state)]``.

    A shuffled bag lays every distinct arrangement of its pairs and empty cells with the same
    probability, so this is the deal made explicit. A deal already lost (no route possible)
    has phase ``lost``, as in ``new_initial_state``.
    """
    count = arrangement_count(game)
    if count > ARRANGEMENT_LIMIT:
        raise UnsupportedActionError("deal", "all", f"{game.spec()} has {count:,} deals, more than the "
                                                    f"{ARRANGEMENT_LIMIT:,} an explicit chance node lists")
    board = game.board
    free = [c for c in range(board.cells) if c not in board.brains]
    bag = [p for p in range(game.pairs) for _ in range(2)] + [-1] * (len(free) - 2 * game.pairs)
    out = []
    for order in _distinct_orders(sorted(bag)):
        tiles = [-1] * board.cells
        for c, v in zip(free, order):
            tiles[c] = v
        state = ForgottenState(game, board, tiles, [DOWN if t >= 0 else NONE for t in tiles], [False] * board.cells)
        if not state.alive():
            state.phase = "lost"
        out.append(state)
    return [(1.0 / len(out), state) for state in out]


def _distinct_orders(items: list[int]) -> Iterator[list[int]]:
    """Every distinct ordering of the multiset ``items`` (sorted), in lexicographic order."""
    counts: dict[int, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    keys = sorted(counts)
    order: list[int] = []

    def walk() -> Iterator[list[int]]:
        if len(order) == len(items):
            yield list(order)
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                order.append(key)
                yield from walk()
                order.pop()
                counts[key] += 1

    return walk()
