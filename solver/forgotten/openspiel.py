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
from solver.forgotten.tiles import DOWN, NONE, REMOVED, UP
from solver.forgotten.state import GIVE_UP, PHASES, ForgottenState
from solver.game import Game, Utility
from solver.kernels import forgotten as kernel
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


# -- the batched environment: N games in numpy arrays, paths by the compiled kernel -------------------------------
FIRST, SECOND, ERASE, WON, LOST, GAVE_UP = range(len(PHASES))


class ForgottenBatch:
    """N Forgotten games stepped together (``solver/openspiel/batched.py``): the rules of ``state.py`` on arrays.

    Per slot: the pair on each cell (``tiles``), its status and whether it was seen, the turn, the phase (an
    index of ``PHASES``), the cell flipped first and each tile's partner. Paths are the kernel's
    ``path_exists_batch``. A deal is a uniformly random arrangement of the bag over the free cells (the
    distribution of ``new_initial_state``), drawn with the environment's generator; a deal already lost is
    dealt again when the game redeals (OpenSpiel's ``redeal``, the default), else it ends at once.
    """

    def __init__(self, game: Game, n: int, redeal: bool = True) -> None:
        board = game.board
        self.game, self.redeal = game, redeal
        self.cells = board.cells
        self.free = np.array([c for c in range(board.cells) if c not in board.brains])
        self.bag = np.array(sorted([-1] * (len(self.free) - 2 * game.pairs)
                                   + [p for p in range(game.pairs) for _ in range(2)]), dtype=np.int8)
        self.bits = np.uint64(1) << np.arange(self.cells, dtype=np.uint64)
        self.geometry = (board.width, board.height, board.brains[0], board.brains[1])
        self.tiles = np.full((n, self.cells), -1, dtype=np.int8)
        self.status = np.zeros((n, self.cells), dtype=np.uint8)
        self.seen = np.zeros((n, self.cells), dtype=bool)
        self.partner = np.zeros((n, self.cells), dtype=np.int64)
        self.turn = np.zeros(n, dtype=np.int64)
        self.phase = np.zeros(n, dtype=np.int8)
        self.first = np.full(n, -1, dtype=np.int64)

    # -- bitboards and rules
    def _mask(self, cells: np.ndarray) -> np.ndarray:
        return (cells.astype(np.uint64) * self.bits).sum(axis=1, dtype=np.uint64)

    def _path(self, masks: np.ndarray) -> np.ndarray:
        out = np.zeros(len(masks), dtype=np.uint8)
        kernel.path_exists_batch(*self.geometry, np.ascontiguousarray(masks, dtype=np.uint64), out)
        return out.astype(bool)

    def _matchable(self, rows: np.ndarray) -> np.ndarray:
        """Face-down tiles whose partner is face down too (FG-11)."""
        status = self.status[rows]
        down = status == DOWN
        return down & np.take_along_axis(down, self.partner[rows], axis=1)

    def _alive(self, rows: np.ndarray) -> np.ndarray:
        if self.game.goal == "clear":
            return ((self.status[rows] == DOWN) == self._matchable(rows)).all(axis=1)
        return self._path(self._mask((self.status[rows] == UP) | self._matchable(rows)))

    def _won(self, rows: np.ndarray) -> np.ndarray:
        if self.game.goal == "clear":
            return ~(self.status[rows] == DOWN).any(axis=1)
        return self._path(self._mask(self.status[rows] == UP))

    def _erasure_due(self, turns: np.ndarray) -> np.ndarray:
        if self.game.erasure == "off":
            return np.zeros(len(turns), dtype=bool)
        return np.ones(len(turns), dtype=bool) if self.game.erasure == "turn" else turns % 2 == 0

    # -- the environment's contract
    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        slots = np.asarray(slots)
        while len(slots):
            order = np.argsort(rng.random((len(slots), len(self.free))), axis=1)
            tiles = np.full((len(slots), self.cells), -1, dtype=np.int8)
            tiles[:, self.free] = self.bag[order]
            self.tiles[slots] = tiles
            self.status[slots] = np.where(tiles >= 0, DOWN, NONE)
            self.seen[slots] = False
            self.turn[slots] = 0
            self.phase[slots] = FIRST
            self.first[slots] = -1
            ranked = np.argsort(tiles, axis=1, kind="stable")[:, self.cells - 2 * self.game.pairs:]
            pairs = ranked.reshape(len(slots), self.game.pairs, 2)
            partner = np.tile(np.arange(self.cells), (len(slots), 1))   # no tile: itself (never face down)
            rows = np.arange(len(slots))[:, None]
            partner[rows, pairs[:, :, 0]] = pairs[:, :, 1]
            partner[rows, pairs[:, :, 1]] = pairs[:, :, 0]
            self.partner[slots] = partner
            lost = ~self._alive(slots)
            if not self.redeal:
                self.phase[slots[lost]] = LOST
                return
            slots = slots[lost]

    def players(self) -> np.ndarray:
        return np.select([self.phase <= SECOND, self.phase == ERASE], [self.turn % 2, -1], -4).astype(np.int32)

    def legal_mask(self, out: np.ndarray) -> None:
        live = self.phase <= SECOND
        out[:, :self.cells] = (self.status == DOWN) & live[:, None]
        second = np.flatnonzero(self.phase == SECOND)
        out[second, self.first[second]] = False
        out[live, GIVE_UP] = True

    def apply(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
              drawn: list[list[int]] | None) -> None:
        phase = self.phase.copy()
        give = np.flatnonzero(actions == GIVE_UP)
        self.phase[give], self.first[give] = GAVE_UP, -1
        flip = actions != GIVE_UP
        firsts = np.flatnonzero(flip & (phase == FIRST))
        self.seen[firsts, actions[firsts]] = True
        self.first[firsts], self.phase[firsts] = actions[firsts], SECOND
        seconds = np.flatnonzero(flip & (phase == SECOND))
        if len(seconds):
            cell, before = actions[seconds], self.first[seconds]
            self.seen[seconds, cell] = True
            self.turn[seconds] += 1
            self.first[seconds] = -1
            match = self.tiles[seconds, before] == self.tiles[seconds, cell]
            matched = seconds[match]
            self.status[matched, before[match]] = UP
            self.status[matched, cell[match]] = UP
            won = np.zeros(len(seconds), dtype=bool)
            won[match] = self._won(matched)
            self.phase[seconds] = np.where(won, WON, np.where(self._erasure_due(self.turn[seconds]), ERASE, FIRST))
        rolls = np.flatnonzero((self.phase == ERASE) & settle)
        if len(rolls):
            cell = rng.integers(self.cells, size=len(rolls))
            hit = np.isin(self.status[rolls, cell], (DOWN, UP))
            self.status[rolls[hit], cell[hit]] = REMOVED
            self.phase[rolls] = np.where(self._alive(rolls), FIRST, LOST)
            if drawn is not None:
                for row, c in zip(rolls, cell):
                    drawn[row].append(int(c))

    def returns(self) -> np.ndarray:
        won = (self.phase == WON).astype(np.float64)
        return np.stack([won, won], axis=1)

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        n = len(self.phase)
        grid = planes["cells"]
        tiles, status, seen = self.tiles, self.status, self.seen
        brain = np.zeros(self.cells, dtype=bool)
        brain[list(self.game.board.brains)] = True
        brains = brain[None, :].repeat(n, axis=0)
        empty = ~brains & ((tiles < 0) | (status == NONE))
        unseen = ~brains & ~empty & ~seen
        grid[:, :, 0] = brains
        grid[:, :, 1] = empty
        grid[:, :, 2] = unseen & (status == DOWN)
        grid[:, :, 3] = unseen & (status != DOWN)
        known = ~brains & ~empty & seen
        r, c = np.nonzero(known)
        offset = np.select([status[r, c] == DOWN, status[r, c] == UP], [0, 1], 2)
        grid[r, c, FIXED_PLANES + 3 * tiles[r, c].astype(np.int64) + offset] = 1
        planes["phase"][np.arange(n), self.phase] = 1
        second = np.flatnonzero(self.phase == SECOND)
        planes["first"][second, self.first[second]] = 1
        planes["to_move"][np.arange(n), self.turn % 2] = 1
        playing = self.phase <= SECOND
        planes["erasure"][:, 0] = playing & self._erasure_due(self.turn + 1)
        planes["turn"][:, 0] = self.turn / TURN_SCALE

    def state(self, slot: int) -> ForgottenState:
        return ForgottenState(self.game, self.game.board, [int(t) for t in self.tiles[slot]],
                              [int(s) for s in self.status[slot]], [bool(s) for s in self.seen[slot]],
                              int(self.turn[slot]), PHASES[int(self.phase[slot])], int(self.first[slot]))


def batch_rules(game: Game, n: int, redeal: bool = True) -> ForgottenBatch:
    """The vectorised rules of the batched environment."""
    return ForgottenBatch(game, n, redeal)
