"""Puzzle generator: positions (known tiles, removed cells) with a verified answer.

Two kinds, both stated from what the players know (unseen tiles are ``?``):

* **forced connection in k turns**: whatever the unseen tiles show and whatever the Erasure dice roll,
  the players can link the Brains within ``k`` turns, and not within ``k - 1``. Verified by an AND-OR
  search over every flip, every tile an unseen cell may hold and every roll (:func:`forced_turns`).
* **unique best move** (boards of at most 24 cells): one first flip has a strictly higher optimal win
  probability than every other, by at least a margin; verified by the exact solver. At ``hard`` the
  route policy (the hint engine's base plan) picks a different, worse flip.

Difficulty: ``easy`` forced in 1 turn; ``medium`` forced in 2 turns or a best move by at least 5
points; ``hard`` forced in 3 turns or a best move by at least 1 point that the hint's base plan misses
(the route policy; the greedy policy under the clear goal, where the puzzles ask to match every pair).
Positions come from seeded self-play of the route policy, so they are positions real play reaches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from solver.errors import InvalidInputError, SolverError
from solver.forgotten.notation import REMOVED as REMOVED_STATUS
from solver.forgotten.notation import UP as UP_STATUS
from solver.forgotten.knowledge import LABEL, UNK, Info, Model, info_from_state, useful_moves
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.kernels import forgotten_paths, forgotten_playout

FORCED_TURNS = {"easy": 1, "medium": 2, "hard": 3}
BEST_MARGIN = {"medium": 0.05, "hard": 0.01}
NODE_BUDGET = 200_000
MAX_UNSEEN_FOR_EXACT = 6       # more unseen tiles: the exact search rarely ends within the budget
EXACT_NODES = 150_000          # per candidate position
EXACT_ENTRIES = 8_000_000      # knowledge states kept across candidates (about 400 MB at most)
GAMES_PER_PUZZLE = 200


@dataclass
class Puzzle:
    """A position, the question, its verified answer and how it was verified."""

    kind: str
    difficulty: str
    state: ForgottenState
    question: str
    answer: dict[str, Any]
    verified: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "difficulty": self.difficulty, "game": self.state.game.spec(),
                "position": self.state.to_notation(), "state": self.state.to_json(), "question": self.question,
                "answer": self.answer, "verified": self.verified}


class SearchBudget(Exception):
    """The AND-OR search ran out of nodes."""


# -- forced connections ---------------------------------------------------------------------------------------
def forced_turns(model: Model, info: Info, erase_next: bool, limit: int, nodes: int = NODE_BUDGET) -> tuple[int, list[int]]:
    """``(k, first_moves)``: the fewest turns within which a win is certain (0 if none up to ``limit``) and the
    first flips that achieve it. Every tile an unseen cell may show and every roll is the adversary's."""
    search = _Forced(model, nodes)
    for k in range(1, limit + 1):
        winners = [c for c in search.firsts(info) if search.first_wins(info, c, k, erase_next)]
        if winners:
            return k, sorted(set(winners) | {mate_of(info, c) for c in winners if mate_of(info, c) >= 0})
    return 0, []


def mate_of(info: Info, cell: int) -> int:
    """The known face-down partner of ``cell`` (-1 if none)."""
    code = info.codes[cell]
    return next((c for c, other in enumerate(info.codes) if code >= LABEL and other == code and c != cell), -1)


@dataclass
class _Forced:
    model: Model
    budget: int
    memo: dict = field(default_factory=dict)

    def wins(self, info: Info, k: int, erase_next: bool) -> bool:
        """A win within ``k`` turns is certain from the start of a turn."""
        if k <= 0 or not self.model.hopeful(info):
            return False
        key = (info, k, erase_next)
        if key in self.memo:
            return self.memo[key]
        self.budget -= 1
        if self.budget < 0:
            raise SearchBudget()
        result = 0 <= self.missing(info) <= 2 * k and any(self.first_wins(info, c, k, erase_next) for c in self.firsts(info))
        self.memo[key] = result
        return result

    def missing(self, info: Info) -> int:
        """Tiles still to turn face up: on the cheapest possible route (-1: none), or every face-down tile
        under the clear goal. A turn turns up at most two."""
        up, unk, pairs, singles, dead = info.masks()
        if self.model.goal == "clear":
            return bin(info.down()).count("1")
        board = self.model.board
        usable = up | unk | pairs | (singles if unk else 0)
        return forgotten_paths.missing_tiles(board.width, board.height, *board.brains, up, usable)

    def firsts(self, info: Info) -> list[int]:
        """First flips that surely lead to a match this turn (any other flip can, at worst, match nothing; such
        a turn is a pass, and a pass never shortens a sure win): a tile of a known pair, or an unseen tile when
        every unseen tile is the partner of a seen one."""
        up, unk, pairs, singles, dead = info.masks()
        if self.model.conditioned:      # living worlds only: every unseen tile pairs a seen one when u == k
            sure = info.unseen_on_board == info.lone
        else:
            sure = info.fresh_pairs == 0 and info.d == 0 and info.e == 0
        sure_unseen = unk if sure else 0
        return [c for c in range(self.model.cells) if (pairs | sure_unseen) >> c & 1]

    def seconds(self, info: Info, first: int) -> list[int]:
        """Second flips that surely match ``first``."""
        mate = mate_of(info, first)
        if mate >= 0:
            return [mate]
        return [c for c in useful_moves(info, first)
                if all(matched for _, _, matched in self.model.second_flip(info, first, c))]

    def first_wins(self, info: Info, first: int, k: int, erase_next: bool) -> bool:
        outcomes = [after for _, after, _ in self.model.reveal(info, first)] if info.codes[first] == UNK else [info]
        return all(any(self.second_wins(after, first, second, k, erase_next) for second in self.seconds(after, first))
                   for after in outcomes)

    def second_wins(self, info: Info, first: int, second: int, k: int, erase_next: bool) -> bool:
        for _, after, matched in self.model.second_flip(info, first, second):
            if matched and self.model.won(after):
                continue
            if k <= 1:
                return False
            if erase_next:
                flag = self.model.next_flag(True)
                if not all(self.wins(self.model.erase(after, cell), k - 1, flag) for cell in range(self.model.cells)):
                    return False
            elif not self.wins(after, k - 1, self.model.next_flag(erase_next)):
                return False
        return True


# -- generation ------------------------------------------------------------------------------------------------
def generate(game: Any, count: int, seed: int, difficulty: str) -> list[Puzzle]:
    """``count`` verified puzzles for ``game`` (deterministic for a seed)."""
    if difficulty not in FORCED_TURNS:
        raise InvalidInputError("difficulty", difficulty, "expected easy, medium or hard")
    rng = np.random.default_rng(seed)
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    small = game.board.cells <= 24
    exact = _SharedExact() if small and difficulty in BEST_MARGIN else None
    games = 0
    while len(puzzles) < count and games < GAMES_PER_PUZZLE * count:
        games += 1
        positions = _played_positions(game, rng) + _built_positions(game, rng, 20)
        for i in rng.permutation(len(positions)):
            if len(puzzles) >= count:
                break
            position = game.state_from_json(positions[int(i)].observation(0))
            key = position.to_notation()
            if key in seen:
                continue
            seen.add(key)
            want_best = small and difficulty in BEST_MARGIN and rng.random() < 0.5
            puzzle = _best_move_puzzle(position, difficulty, exact) if want_best else \
                _forced_puzzle(position, difficulty)
            if puzzle is not None:
                puzzles.append(puzzle)
    return puzzles


def _played_positions(game: Any, rng: np.random.Generator) -> list[ForgottenState]:
    """Every start-of-turn position of one game of the route policy with random Erasure rolls."""
    state = game.new_initial_state(int(rng.integers(2**31)))
    board = game.board
    out: list[ForgottenState] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(board.cells)))
            continue
        if state.phase == "first" and state.turn >= 1:
            out.append(state.clone())
        first = state.first if state.phase == "second" else -1
        move = forgotten_playout.policy_move(board.width, board.height, *board.brains, *state.arrays(), first, 2, 0)
        state.apply_action(move)
    return out


def _built_positions(game: Any, rng: np.random.Generator, count: int) -> list[ForgottenState]:
    """Positions built from a random deal: some pairs face up, some known, some single tiles seen, some tiles
    removed, at the earliest turn the rules allow (FG-15); positions the rules refuse are skipped."""
    out = []
    for _ in range(count):
        state = game.new_initial_state(int(rng.integers(2**31)))
        pairs = list(rng.permutation(game.pairs))
        n_up = int(rng.integers(0, max(1, game.pairs // 3) + 1))
        n_known = int(rng.integers(1, 7))
        n_single = int(rng.integers(0, 5))
        n_removed = int(rng.integers(0, max(1, game.pairs // 3) + 1))
        where = {p: [c for c, t in enumerate(state.tiles) if t == p] for p in range(game.pairs)}
        route = _random_route(game.board, rng)
        on_route = [state.tiles[c] for c in route if state.tiles[c] >= 0]
        if on_route and rng.random() < 0.7:      # favour pairs that matter: those lying on a route
            chosen = list(dict.fromkeys(int(p) for p in rng.permutation(on_route)))
            pairs = chosen + [p for p in pairs if p not in chosen]
        for p in pairs[:n_up]:
            for c in where[p]:
                state.status[c], state.seen[c] = UP_STATUS, True
        for p in pairs[n_up:n_up + n_known]:
            for c in where[p]:
                state.seen[c] = True
        for p in pairs[n_up + n_known:n_up + n_known + n_single]:
            state.seen[where[p][int(rng.integers(2))]] = True
        hidden = [c for c, t in enumerate(state.tiles) if t >= 0 and not state.seen[c]]
        for c in rng.permutation(hidden)[:n_removed]:
            state.status[int(c)] = REMOVED_STATUS
        seen = sum(state.seen)
        turn = (seen + 1) // 2 + int(rng.integers(0, 2))
        while game.rolls_after(turn) < n_removed or turn < n_up:
            turn += 1
        state.turn = turn
        try:
            built = game.state_from_json(state.to_json())
        except SolverError:
            continue
        if built.phase == "first":
            out.append(built)
    return out


def _random_route(board: Any, rng: np.random.Generator) -> list[int]:
    """The cells of a random Brain-to-Brain path (a random depth-first walk, orthogonal steps)."""
    starts = [c for c in range(board.cells) if board.start >> c & 1]
    stack = [(int(rng.choice(starts)), [])]
    seen: set[int] = set()
    while stack:
        cell, path = stack.pop()
        if cell in seen:
            continue
        seen.add(cell)
        path = path + [cell]
        if board.goal >> cell & 1:
            return path
        nexts = [c for c in range(board.cells) if board.spread(1 << cell) >> c & 1 and c not in board.brains]
        for c in rng.permutation(nexts):
            stack.append((int(c), path))
    return []


def _forced_puzzle(state: ForgottenState, difficulty: str) -> Puzzle | None:
    target = FORCED_TURNS[difficulty]
    model = Model.of(state.game)
    info = info_from_state(state)
    erase_next = state.game.erasure_due(state.turn + 1)
    try:
        k, firsts = forced_turns(model, info, erase_next, target)
    except SearchBudget:
        return None
    if k != target:
        return None
    useful = useful_moves(info)
    if len(firsts) > max(2, len(useful) // 3):     # a puzzle: most flips must fail
        return None
    moves = [state.action_to_string(c) for c in firsts]
    aim = "Match every pair" if state.game.goal == "clear" else "Link the Brains"
    question = (f"{aim} for sure within {k} turn{'s' if k > 1 else ''}, whatever the unseen tiles show "
                f"and the dice roll. Which first flips do it?")
    return Puzzle("forced-connection", difficulty, state, question, {"turns": k, "firstMoves": moves},
                  {"method": "AND-OR search over every flip, every unseen tile and every Erasure roll",
                   "notWithin": k - 1})


class _SharedExact:
    """One exact solver for every candidate of a generation run: candidates come from the same board and
    rules, so they share most knowledge states, and the memo of one speeds up the next. Each candidate
    gets its own node budget; a full memo is dropped and started afresh."""

    def __init__(self) -> None:
        self.analysis: Any = None

    def values(self, state: ForgottenState) -> list[Any] | None:
        """Exact values of every move of ``state``, or None when the candidate's budget runs out."""
        from solver.forgotten.solve import ExactAnalysis
        from solver.kernels import forgotten_exact
        if self.analysis is None or self.analysis.game.spec() != state.game.spec():
            self.analysis = ExactAnalysis(state.game, max_entries=EXACT_ENTRIES)
        self.analysis.limit(None)
        self.analysis.max_nodes = EXACT_NODES
        try:
            return self.analysis.move_values(state)
        except forgotten_exact.SearchStopped as exc:
            if str(exc) == "memory limit":
                self.analysis.solver.clear()
            return None


def _best_move_puzzle(state: ForgottenState, difficulty: str, exact: _SharedExact | None = None) -> Puzzle | None:
    from solver.forgotten.hints import continuation_policy
    if info_from_state(state).unseen_on_board > MAX_UNSEEN_FOR_EXACT:
        return None
    values = (exact or _SharedExact()).values(state)
    if values is None:
        return None
    moves = [m for m in values if m.action != GIVE_UP]
    if len(moves) < 2:
        return None
    moves.sort(key=lambda m: -m.value)
    margin = moves[0].value - moves[1].value
    if margin < BEST_MARGIN[difficulty]:
        return None
    board = state.board
    plan = forgotten_playout.policy_move(board.width, board.height, *board.brains, *state.arrays(), -1,
                                         continuation_policy(state.game, False), 0)
    if difficulty == "hard" and plan == moves[0].action:
        return None
    aim = "match every pair" if state.game.goal == "clear" else "link the Brains"
    question = f"Which flip gives the best chance to {aim}? (one flip is best)"
    answer = {"move": moves[0].move, "winProbability": moves[0].value, "secondBest": moves[1].move,
              "secondBestWinProbability": moves[1].value, "margin": margin,
              "values": {m.move: m.value for m in moves}}
    return Puzzle("best-move", difficulty, state, question, answer,
                  {"method": "exact expectimax over what the players know", "status": "EXHAUSTIVE",
                   "routePlanMove": state.action_to_string(plan)})


def render_puzzle(puzzle: Puzzle, out: TextIO) -> None:
    """A puzzle as text: the board, the question and the verified answer."""
    from solver.forgotten.cli import render_board
    render_board(puzzle.state, out)
    out.write(f"  {puzzle.question}\n")
    if puzzle.kind == "forced-connection":
        out.write(f"  answer: {', '.join(puzzle.answer['firstMoves'])} (sure within {puzzle.answer['turns']} turns; "
                  f"verified by {puzzle.verified['method']})\n")
    else:
        out.write(f"  answer: {puzzle.answer['move']} wins with probability {puzzle.answer['winProbability']:.4f}; "
                  f"next best {puzzle.answer['secondBest']} {puzzle.answer['secondBestWinProbability']:.4f} "
                  f"(exact search)\n")
    out.write(f"  position: {puzzle.state.to_notation()}\n\n")

