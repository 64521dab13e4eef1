"""Memorinth for OpenSpiel and the batched environment: action ids, returns, observation tensor.

Everything on the table is public except the undersides of the cards (MR-21): a flip shows both
sides to everybody, a peek shows one underside to the player who peeks, and who has seen which
underside is public. So the public pieces are the board, pieces, characters, clovers and turn,
and the undersides every player knows (the clearing's, and those everybody has seen); a player's
private piece is the undersides they alone (or not everybody) know. Layout (``docs/openspiel.md``):

=============== =========== ====================================================================
piece           shape       meaning
=============== =========== ====================================================================
``up``          25 x 27     the side face up on each cell: side id ``2k + f`` as card ``k`` (25) and face
                            ``f`` (Sun, Moon)
``exits``       25 x 4      the paths of that side (N, E, S, W)
``under``       25 x 28     the underside every player knows, as card and face (column 27: not known to
                            everybody)
``seen``        25 x 4      which players have seen the underside
``pieces``      4 x 27      each seat's piece: a cell, 25 out of the forest, 26 no such player
``characters``  8 x 8       each character's place: N, E, S, W, then the action card's four slots
``clovers``     4           clovers per player (Master with goblins)
``supply``      1           clovers in the supply / 5
``to_move``     4           the player to move
``start``       2           the start-player card's side (Sun, Moon)
``last``        26          the cell flipped last (25: none)
``phase``       4           flip, choose, act, over
``pending``     9           the action waiting (8: none)
``winner``      5           the winner (4: none yet)
``round``       1           round / 100
``turns``       1           turns played / 100, and per player in ``own_turns`` (4)
``mine``        25 x 28     private: the underside this player knows and not everybody does (27: none)
=============== =========== ====================================================================
"""

from __future__ import annotations

import numpy as np

from solver.game import Game, State, Utility
from solver.learning import ActionCodec, KernelRules, Piece, mark_listed
from solver.memorinth import kernel
from solver.memorinth.layout import DEAL_CHAR, N_ACTIONS, PH_OVER, K, rule_vector
from solver.memorinth.state import MemorinthState

MAX_MOVES = 2000
CELLS, CARDS, SEATS, CHARACTERS = 25, 25, 4, 8
SIDE = CARDS + 2            # a side id 2k + f as the card k one-hot, then the face f one-hot
UNKNOWN = SIDE
SCALE = 100.0
UP, DOWN, SEEN, PIECE, CHAR, CLOVER = K["UP"], K["DOWN"], K["SEEN"], K["PIECE"], K["CHAR"], K["CLOVER"]
SUPPLY, START, ROUND, TOMOVE, LAST, PHASE = K["SUPPLY"], K["START"], K["ROUND"], K["TOMOVE"], K["LAST"], K["PHASE"]
PENDING, WINNER, TURNS, OWNTURNS = K["PENDING"], K["WINNER"], K["TURNS"], K["OWNTURNS"]
TABLE_EXITS = 0


def num_players(game: Game) -> int:
    return game.rules.players


def codec(game: Game) -> ActionCodec:
    """Decisions are below ``N_ACTIONS`` (396); chance: the deal's cards 401..424 and characters 430..437."""
    return ActionCodec(N_ACTIONS, DEAL_CHAR + 8)


def utility_range(game: Game) -> tuple[float, float]:
    """1 for the player who leaves the forest, 0 for the others."""
    return (0.0, 1.0)


def constant_sum(game: Game) -> float | None:
    """Master Memorinth always has one winner (1 in all) when two or more play; the base game may end with
    nobody able to leave (MR-19: 0 for everybody), so it is general-sum. The adapter's ``max_moves`` cap
    ends a Master game nobody has won as a draw, the players sharing the 1."""
    return 1.0 if game.rules.master and game.rules.players >= 2 else None


def utility(game: Game) -> Utility:
    return Utility.CONSTANT_SUM if constant_sum(game) is not None else Utility.GENERAL_SUM


def explicit_root(game: Game) -> State | None:
    """With ``chance_setup=true`` the deal is our own chance nodes (24 cards, then 8 characters)."""
    return game.new_initial_state(0) if game.params["chance_setup"] else None


def setup_steps(game: Game) -> int:
    """The set-up's 32 outcomes (``chance_setup=true``: 24 cards, 8 characters)."""
    return 32


def chance_steps(game: Game, decisions: int) -> int:
    """Play has no chance."""
    return 0


# -- the observation tensor -----------------------------------------------------------------------------------
def public_pieces(game: Game) -> list[Piece]:
    return [Piece("up", (CELLS, SIDE)), Piece("exits", (CELLS, 4)), Piece("under", (CELLS, SIDE + 1)),
            Piece("seen", (CELLS, SEATS)), Piece("pieces", (SEATS, CELLS + 2)),
            Piece("characters", (CHARACTERS, 8)), Piece("clovers", (SEATS,)), Piece("supply", (1,)),
            Piece("to_move", (SEATS,)), Piece("start", (2,)), Piece("last", (CELLS + 1,)), Piece("phase", (4,)),
            Piece("pending", (9,)), Piece("winner", (SEATS + 1,)), Piece("round", (1,)), Piece("turns", (1,)),
            Piece("own_turns", (SEATS,))]


def private_pieces(game: Game) -> list[Piece]:
    return [Piece("mine", (CELLS, SIDE + 1))]


def _knowers(vec: np.ndarray) -> np.ndarray:
    """Per cell, the bit mask of the players who know its underside (everybody knows the clearing's, MR-21)."""
    return vec[SEEN:SEEN + CELLS] | np.where(vec[UP:UP + CELLS] < 2, 0xF, 0)


def _sides(plane: np.ndarray, sides: np.ndarray, known: np.ndarray) -> None:
    """Side ids as card and face where ``known``, else the unknown column."""
    cells = np.flatnonzero(known)
    plane[cells, sides[cells] >> 1] = 1
    plane[cells, CARDS + (sides[cells] & 1)] = 1
    plane[np.flatnonzero(~known), UNKNOWN] = 1


def fill_public(game: Game, state: State, planes: dict[str, np.ndarray]) -> None:
    if state.setup is not None:
        return  # the deal is being made: nothing is on the table yet
    vec = state.vec
    players = game.rules.players
    everybody = (1 << players) - 1
    cells = np.arange(CELLS)
    up = vec[UP:UP + CELLS]
    planes["up"][cells, up >> 1] = 1
    planes["up"][cells, CARDS + (up & 1)] = 1
    exits = game.deck_table[TABLE_EXITS + up]
    seen = vec[SEEN:SEEN + CELLS]
    bit = np.arange(4)
    planes["exits"][:] = (exits[:, None] >> bit) & 1
    planes["seen"][:, :players] = ((seen[:, None] >> bit) & 1)[:, :players]
    _sides(planes["under"], vec[DOWN:DOWN + CELLS], _knowers(vec) & everybody == everybody)
    for p in range(SEATS):
        planes["pieces"][p, int(vec[PIECE + p]) if p < players else CELLS + 1] = 1
    planes["clovers"][:players] = vec[CLOVER:CLOVER + players]
    planes["own_turns"][:players] = vec[OWNTURNS:OWNTURNS + players] / SCALE
    planes["characters"][np.arange(CHARACTERS), vec[CHAR:CHAR + CHARACTERS]] = 1
    planes["supply"][0] = vec[SUPPLY] / 5.0
    planes["to_move"][int(vec[TOMOVE])] = 1
    planes["start"][int(vec[START])] = 1
    planes["last"][int(vec[LAST])] = 1          # -1 (none) is the last entry
    planes["phase"][int(vec[PHASE])] = 1
    planes["pending"][int(vec[PENDING])] = 1    # -1 (none) is the last entry
    planes["winner"][int(vec[WINNER])] = 1      # -1 (none) is the last entry
    planes["round"][0] = vec[ROUND] / SCALE
    planes["turns"][0] = vec[TURNS] / SCALE


def fill_private(game: Game, state: State, player: int, planes: dict[str, np.ndarray]) -> None:
    mine = planes["mine"]
    if state.setup is not None:
        mine[:, UNKNOWN] = 1
        return
    vec = state.vec
    everybody = (1 << game.rules.players) - 1
    knowers = _knowers(vec)
    _sides(mine, vec[DOWN:DOWN + CELLS], (knowers >> player & 1 == 1) & (knowers & everybody != everybody))


# -- the batched environment: N state vectors stepped by the step kernel ---------------------------------------
class MemorinthBatch(KernelRules):
    """N Memorinth games as rows of the kernel's state vector (``solver/openspiel/batched.py``): deals by the
    kernel's ``deal`` (the deal of ``new_initial_state(seed)``), random legal actions, checks and steps by the step
    kernel (``src/memorinth_step.pxi``: one call a step, each row keeping its memo of the public paths), legal
    masks by ``legal_actions_batch`` (only when a policy reads them); play has no chance."""

    def __init__(self, game: Game, n: int) -> None:
        self.game = game
        self.blank = rule_vector(game.rules)
        super().__init__(kernel, game.deck_table, np.tile(self.blank, (n, 1)))
        self.memos = np.zeros((n, kernel.memo_words()), dtype=np.int32)

    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        for slot, seed in zip(slots, seeds):
            self.states[slot] = self.blank
            kernel.deal(self.states[slot], self.rule_data, int(seed))
        self.memos[slots] = 0
        rows = self.states[slots]
        self.to_act[slots] = np.where(rows[:, PHASE] == PH_OVER, -4, rows[:, TOMOVE])

    def legal_mask(self, out: np.ndarray) -> None:
        n = len(self.states)
        actions, counts = np.zeros((n, N_ACTIONS), dtype=np.int32), np.zeros(n, dtype=np.int32)
        kernel.legal_actions_batch(self.states, self.rule_data, actions, counts)
        mark_listed(out, actions, counts)

    def apply_checked(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
                      drawn: list[list[int]] | None) -> int:
        """Check and apply every slot's action in one kernel call: -1, or the first illegal slot (nothing applied)."""
        return kernel.step(self.states, self.rule_data, np.ascontiguousarray(actions, dtype=np.int32), self.memos,
                           self.to_act)

    def returns(self) -> np.ndarray:
        players = self.game.rules.players
        return (self.states[:, WINNER][:, None] == np.arange(players)[None, :]).astype(np.float64)

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        vec = self.states
        n, count = len(vec), self.game.rules.players
        everybody = (1 << count) - 1
        rows = np.arange(n)[:, None]
        up = vec[:, UP:UP + CELLS]
        planes["up"][rows, np.arange(CELLS)[None, :], up >> 1] = 1
        planes["up"][rows, np.arange(CELLS)[None, :], CARDS + (up & 1)] = 1
        exits = self.game.deck_table[TABLE_EXITS + up]
        bit = np.arange(4)
        planes["exits"][:] = (exits[:, :, None] >> bit) & 1
        seen = vec[:, SEEN:SEEN + CELLS]
        planes["seen"][:, :, :count] = ((seen[:, :, None] >> bit) & 1)[:, :, :count]
        knowers = seen | np.where(up < 2, 0xF, 0)
        down = vec[:, DOWN:DOWN + CELLS]
        _sides_batch(planes["under"], down, knowers & everybody == everybody)
        mine = ((knowers >> players[:, None]) & 1 == 1) & (knowers & everybody != everybody)
        _sides_batch(planes["mine"], down, mine)
        seats = np.arange(SEATS)[None, :]
        pieces = np.where(seats < count, vec[:, PIECE:PIECE + SEATS], CELLS + 1)
        planes["pieces"][rows, seats, pieces] = 1
        planes["clovers"][:, :count] = vec[:, CLOVER:CLOVER + count]
        planes["own_turns"][:, :count] = vec[:, OWNTURNS:OWNTURNS + count] / SCALE
        planes["characters"][rows, np.arange(CHARACTERS)[None, :], vec[:, CHAR:CHAR + CHARACTERS]] = 1
        flat = np.arange(n)
        planes["supply"][:, 0] = vec[:, SUPPLY] / 5.0
        planes["to_move"][flat, vec[:, TOMOVE]] = 1
        planes["start"][flat, vec[:, START]] = 1
        planes["last"][flat, vec[:, LAST]] = 1
        planes["phase"][flat, vec[:, PHASE]] = 1
        planes["pending"][flat, vec[:, PENDING]] = 1
        planes["winner"][flat, vec[:, WINNER]] = 1
        planes["round"][:, 0] = vec[:, ROUND] / SCALE
        planes["turns"][:, 0] = vec[:, TURNS] / SCALE

    def state(self, slot: int) -> State:
        return MemorinthState(self.game, self.states[slot].copy())


def _sides_batch(plane: np.ndarray, sides: np.ndarray, known: np.ndarray) -> None:
    rows, cells = np.nonzero(known)
    plane[rows, cells, sides[rows, cells] >> 1] = 1
    plane[rows, cells, CARDS + (sides[rows, cells] & 1)] = 1
    rows, cells = np.nonzero(~known)
    plane[rows, cells, UNKNOWN] = 1


def batch_rules(game: Game, n: int, redeal: bool = True) -> MemorinthBatch:
    """The batched environment's rules (a Memorinth deal is never decided before the first decision)."""
    return MemorinthBatch(game, n)
