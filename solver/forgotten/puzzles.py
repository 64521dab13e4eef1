"""Forgotten puzzles: positions (known tiles, removed cells) with a verified answer, and the check of an answer.

Two kinds (``docs/formats/forgotten.md``, "Puzzles"), both stated from what the players know (unseen tiles
are ``?``):

* **forced connection in k turns**: whatever the unseen tiles show and whatever the Erasure dice roll,
  the players can link the Brains within ``k`` turns, and not within ``k - 1``. Verified by an AND-OR
  search over every flip, every tile an unseen cell may hold and every roll (:func:`forced_turns`).
* **unique best move** (boards of at most 24 cells): one first flip has a strictly higher optimal win
  probability than every other, by at least a margin; verified by the exact solver.

Difficulty is the solver's work: ``easy`` forced in 1 turn, or a best move by at least 10 points that the
route plan (the hint engine's base plan; the greedy policy under the clear goal, where the puzzles ask to match
every pair) finds; ``medium`` forced in 2 turns or a best move by at least 5 points; ``hard`` forced in 3 turns
or a best move by at least 1 point that the route plan misses.

Each puzzle is drawn from its own random stream (``solver/puzzles.py``): candidate positions come from seeded
self-play of the route policy (positions real play reaches) and from built positions, and the first that makes
a puzzle of the kind and difficulty asked is the puzzle. Generation looks at its context between candidates,
inside the AND-OR search and between the exact solver's chunks, and raises :class:`solver.search.Stopped` on
``terminate`` or at the time limit. :func:`check` re-proves an answer from the puzzle's own position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError, SolverError, UnsupportedActionError
from solver.forgotten.hints import continuation_policy
from solver.forgotten.knowledge import UNK, Info, Model, info_from_state, mate_of, useful_moves
from solver.forgotten.solve import MAX_CELLS, ExactAnalysis
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.forgotten.text import answer_line, render_board
from solver.forgotten.tiles import REMOVED as REMOVED_STATUS
from solver.forgotten.tiles import UP as UP_STATUS
from solver.forgotten.view import ForgottenView
from solver.kernels import forgotten as kernel
from solver.results import percent
from solver.search import SearchContext, Stopped
from solver.validate import as_object, as_str, get

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame

KINDS = ("forced-connection", "best-move")
#: best-move puzzles need the exact solver (at most 24 cells): the web board makes them on a small board
GAMES = {"best-move": "forgotten(width=4,height=3,pairs=3)"}
FORCED_TURNS = {"easy": 1, "medium": 2, "hard": 3}
#: margins (win-probability points) a best move must win by, per difficulty
BEST_MARGINS = {"easy": 0.10, "medium": 0.05, "hard": 0.01}
NODE_BUDGET = 200_000          # AND-OR nodes per candidate position
MAX_UNSEEN_FOR_EXACT = 6       # more unseen tiles: the exact search rarely ends within the budget
EXACT_NODES = 150_000          # per candidate position
EXACT_ENTRIES = 8_000_000      # knowledge states kept across candidates (about 400 MB at most)
MAX_GAMES = 200                # self-played games per puzzle before giving up
POLL_EVERY = 256               # AND-OR nodes between two looks at the context


def _poll(ctx: SearchContext) -> None:
    """Raise :class:`Stopped` on ``terminate`` or at the time limit."""
    if ctx.should_stop():
        raise Stopped("terminated" if ctx.cancelled else "time limit")


# -- generation ------------------------------------------------------------------------------------------------
def generate(game: ForgottenGame, kind: str, difficulty: str, rng: np.random.Generator,
             ctx: SearchContext) -> dict[str, Any]:
    """One puzzle of ``kind`` and ``difficulty``, everything drawn from ``rng`` (the puzzle without ``id``)."""
    if kind == "best-move" and game.board.cells > MAX_CELLS:
        raise UnsupportedActionError("kind", kind, f"best-move puzzles need the exact solver: boards of at most "
                                                   f"{MAX_CELLS} cells (this one has "
                                                   f"{game.board.cells}); use --kind forced-connection")
    # one exact solver for every candidate of this puzzle (they share most knowledge states); it lives only as
    # long as this call, so puzzle i depends on its own stream alone
    exact = _SharedExact() if kind == "best-move" else None
    for _ in range(MAX_GAMES):
        _poll(ctx)
        positions = _played_positions(game, rng) + _built_positions(game, rng, 20)
        for i in rng.permutation(len(positions)):
            _poll(ctx)
            position = game.state_from_json(positions[int(i)].observation(0))
            if kind == "forced-connection":
                puzzle = _forced_puzzle(position, difficulty, ctx)
            else:
                puzzle = _best_move_puzzle(position, difficulty, exact, ctx)
            if puzzle is not None:
                return puzzle
    raise UnsupportedActionError("difficulty", difficulty, f"no {kind} puzzle of this difficulty found in {MAX_GAMES} "
                                                     f"self-played games on {game.spec()}; try another board or "
                                                     "difficulty")


def _puzzle(state: ForgottenState, question: str, answer: dict[str, Any], verified: dict[str, Any]) -> dict[str, Any]:
    return {"position": state.to_notation(), "state": state.to_json(), "question": question, "answer": answer,
            "verified": verified}


# -- forced connections: an AND-OR proof -----------------------------------------------------------------------
class SearchBudget(Exception):
    """The AND-OR search ran out of nodes."""


def forced_turns(model: Model, info: Info, erase_next: bool, limit: int, nodes: int = NODE_BUDGET,
                 ctx: SearchContext | None = None) -> tuple[int, list[int]]:
    """``(k, first_moves)``: the fewest turns within which a win is certain (0 if none up to ``limit``) and the
    first flips that achieve it. Every tile an unseen cell may show and every roll is the adversary's. With
    ``ctx``, ``terminate`` and its time limit raise :class:`Stopped`."""
    search = _Forced(model, nodes, ctx)
    for k in range(1, limit + 1):
        winners = [c for c in search.firsts(info) if search.first_wins(info, c, k, erase_next)]
        if winners:
            return k, sorted(set(winners) | {mate_of(info, c) for c in winners if mate_of(info, c) >= 0})
    return 0, []


@dataclass
class _Forced:
    model: Model
    budget: int
    ctx: SearchContext | None = None
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
        if self.ctx is not None and self.budget % POLL_EVERY == 0:
            _poll(self.ctx)
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
        return kernel.missing_tiles(board.width, board.height, *board.brains, up, usable)

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


# -- candidate positions ------------------------------------------------------------------------------------------
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
        move = kernel.policy_move(board.width, board.height, *board.brains, *state.arrays(), first, 2, 0)
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


def _forced_puzzle(state: ForgottenState, difficulty: str, ctx: SearchContext | None = None) -> dict[str, Any] | None:
    """A forced connection in exactly the difficulty's turns from ``state``, or None."""
    target = FORCED_TURNS[difficulty]
    model = Model.of(state.game)
    info = info_from_state(state)
    erase_next = state.game.erasure_due(state.turn + 1)
    try:
        k, firsts = forced_turns(model, info, erase_next, target, ctx=ctx)
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
    return _puzzle(state, question, {"turns": k, "firstMoves": moves},
                   {"method": "AND-OR search over every flip, every unseen tile and every Erasure roll",
                    "notWithin": k - 1})


class _SharedExact:
    """One exact solver for every candidate of a puzzle: candidates come from the same board and rules, so they
    share most knowledge states, and the memo of one speeds up the next. Each candidate gets its own node
    budget; a full memo is dropped and started afresh."""

    def __init__(self) -> None:
        self.analysis: ExactAnalysis | None = None

    def values(self, state: ForgottenState, ctx: SearchContext) -> list[Any] | None:
        """Exact values of every move of ``state``, or None when the candidate's budget runs out; ``terminate``
        and the time limit of ``ctx`` raise :class:`Stopped` (the budget is its own, not ``ctx``'s nodes)."""
        if self.analysis is None or self.analysis.game.spec() != state.game.spec():
            self.analysis = ExactAnalysis(state.game, max_entries=EXACT_ENTRIES)
        self.analysis.limit(ctx)
        self.analysis.max_nodes = EXACT_NODES
        try:
            return self.analysis.move_values(state)
        except kernel.SearchStopped as exc:
            if str(exc) in ("terminated", "time limit"):
                raise Stopped(str(exc)) from None
            if str(exc) == "memory limit":
                self.analysis.solver.clear()
            return None


def _best_move_puzzle(state: ForgottenState, difficulty: str, exact: _SharedExact | None = None,
                      ctx: SearchContext | None = None) -> dict[str, Any] | None:
    """A unique best first flip by the difficulty's margin from ``state`` (``easy``: the route plan finds it,
    ``hard``: it misses it), or None."""
    if info_from_state(state).unseen_on_board > MAX_UNSEEN_FOR_EXACT:
        return None
    values = (exact or _SharedExact()).values(state, ctx or SearchContext())
    if values is None:
        return None
    moves = [m for m in values if m.action != GIVE_UP]
    if len(moves) < 2:
        return None
    moves.sort(key=lambda m: -m.value)
    margin = moves[0].value - moves[1].value
    if margin < BEST_MARGINS[difficulty]:
        return None
    board = state.board
    plan = kernel.policy_move(board.width, board.height, *board.brains, *state.arrays(), -1,
                              continuation_policy(state.game, False), 0)
    if (difficulty == "hard" and plan == moves[0].action) or (difficulty == "easy" and plan != moves[0].action):
        return None
    aim = "match every pair" if state.game.goal == "clear" else "link the Brains"
    question = f"Which flip gives the best chance to {aim}? (one flip is best)"
    answer = {"move": moves[0].move, "winProbability": moves[0].value, "secondBest": moves[1].move,
              "secondBestWinProbability": moves[1].value, "margin": margin,
              "values": {m.move: m.value for m in moves}}
    return _puzzle(state, question, answer, {"method": "exact expectimax over what the players know",
                                             "status": "EXHAUSTIVE", "routePlanMove": state.action_to_string(plan)})


# -- checking ----------------------------------------------------------------------------------------------------
def position(game: ForgottenGame, puzzle: dict[str, Any]) -> ForgottenState | ForgottenView:
    """The position a player answers ``puzzle`` from: the view of the puzzle's position (unseen tiles are '?'; a
    flip of one waits for the tile it shows, as at the table). Its first flip is the answer both kinds ask for."""
    return game.parse_position(get(puzzle, "state", "puzzle"), "puzzle.state")


def check(game: ForgottenGame, puzzle: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
    """Re-prove ``answer`` from the puzzle's position (never from its stored answer); ``ctx``'s ``terminate`` and
    time limit stop the proof (:class:`solver.search.Stopped`).

    ANSWER is one flip; or a list: for a forced connection, exactly the set of the flips that force it is
    correct; otherwise a list is read as the moves played from :func:`position` (the web board's
    answer): its first flip is judged, and for a forced connection the turn's second flip too (it must match),
    moves after the first turn are not judged. A list that does not replay there is read as a set of flips.
    """
    kind = as_str(get(puzzle, "kind", "puzzle"), "puzzle.kind")
    if kind not in KINDS:
        raise InvalidInputError("puzzle.kind", kind, f"expected one of {', '.join(KINDS)}")
    state = game.parse_state(get(puzzle, "state", "puzzle"), "puzzle.state")
    if isinstance(answer, list) and not answer:
        return {"correct": False, "message": "no flip played: the puzzle asks for a first flip", "readAs": "moves",
                "proof": "AND-OR search" if kind == "forced-connection" else "exact expectimax"}
    played = _played_turn(game, puzzle, answer) if isinstance(answer, list) else None
    moves = _answer_moves(state, answer) if played is None else [played.first]
    if kind == "forced-connection":
        verdict = _check_forced(state, puzzle, moves, played, ctx)
        verdict.setdefault("readAs", "flips" if isinstance(answer, list) else "flip")
        return verdict
    verdict = {**_check_best(state, moves, ctx), "readAs": "flip"}
    if played is not None:
        rest = len(played.moves) - 1
        verdict = {**verdict, "readAs": "moves", "message": verdict["message"] + (
            f" (the {rest} move{'s' if rest > 1 else ''} after the first flip {'are' if rest > 1 else 'is'} not "
            "judged)" if rest else "")}
    return verdict


@dataclass
class PlayedTurn:
    """An answer read as moves played from the puzzle's position: the first turn's flips (cells) and what followed."""

    first: int
    second: int | None          # the second flip, when the answer reaches it (None: only the first flip)
    matched: bool               # the first turn made a match (when it got that far)
    after_turn: int             # moves given after the first turn (not judged)
    moves: list[str]


def _played_turn(game: ForgottenGame, puzzle: dict[str, Any], answer: list[Any]) -> PlayedTurn | None:
    """``answer`` replayed from the puzzle's position, or None when it does not replay there: then it is read as
    a set of flips. The tile an unseen flip shows is entered as at the table (``shows L``)."""
    if not all(isinstance(m, str) for m in answer):
        return None
    start = position(game, puzzle)

    def known() -> ForgottenState:
        return start.known if isinstance(start, ForgottenView) else start

    def waiting() -> bool:
        return isinstance(start, ForgottenView) and start.flipped >= 0

    flips: list[int] = []
    for i, text in enumerate(answer):
        decision = not waiting()
        try:
            action = known().parse_move(text, "ANSWER") if decision else None
            start.apply_move(text, f"ANSWER[{i}]")
        except SolverError:
            return None
        if action is not None:
            flips.append(action)
        over = known().is_terminal() or (len(flips) == 2 and not waiting())
        if over:
            matched = len(flips) == 2 and (known().phase == "won" or known().status[flips[0]] == UP_STATUS)
            return PlayedTurn(flips[0], flips[1] if len(flips) == 2 else None, matched, len(answer) - i - 1,
                              list(answer))
    return PlayedTurn(flips[0], flips[1] if len(flips) == 2 else None, False, 0, list(answer))


def _not_judged(played: PlayedTurn) -> str:
    n = played.after_turn
    return f" (the {n} move{'s' if n > 1 else ''} after the first turn {'are' if n > 1 else 'is'} not judged)" if n else ""


def _answer_moves(state: ForgottenState, answer: Any, strict: bool = True) -> list[int] | None:
    """The flips of ``answer`` (one flip or a list of flips); with ``strict`` False, None where one is not a flip."""
    items = answer if isinstance(answer, list) else [answer]
    if not items:
        raise InvalidInputError("ANSWER", answer, "expected a flip such as 'flip 3,4' (or a list of flips)")
    moves = []
    for i, item in enumerate(items):
        field = "ANSWER" if not isinstance(answer, list) else f"ANSWER[{i}]"
        try:
            if isinstance(item, str) and item.strip().startswith("{"):
                raise InvalidInputError(field, item, "expected a flip such as 'flip 3,4'")
            moves.append(state.parse_move(as_str(item, field), field))
        except SolverError:
            if strict:
                raise
            return None
    return moves


def _check_forced(state: ForgottenState, puzzle: dict[str, Any], moves: list[int],
                  played: PlayedTurn | None = None, ctx: SearchContext | None = None) -> dict[str, Any]:
    turns = as_object(get(puzzle, "answer", "puzzle"), "puzzle.answer").get("turns")
    question = str(puzzle.get("question", ""))
    if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 3:
        digits = [int(w) for w in question.split() if w.isdigit()]
        turns = digits[0] if digits else 3
    model = Model.of(state.game)
    erase_next = state.game.erasure_due(state.turn + 1)
    try:
        k, winners = forced_turns(model, info_from_state(state), erase_next, turns, ctx=ctx)
    except SearchBudget:
        raise UnsupportedActionError("puzzle", puzzle.get("id"), "the proof ran out of its node budget") from None
    names = [state.action_to_string(c) for c in winners]
    link = "a clear board" if state.game.goal == "clear" else "a link"     # FG-14: match every pair
    if k == 0:
        return {"correct": False, "message": f"no first flip forces {link} within {turns} turns from this position "
                                             "(the puzzle is wrong)", "proof": "AND-OR search"}
    as_set = _answer_moves(state, played.moves, strict=False) if played is not None else None
    if as_set is not None and set(as_set) == set(winners):
        moves, played = as_set, None    # exactly the set of the flips that force it (whatever else it reads as)
    if played is not None:
        return _check_forced_moves(state, played, k, winners)
    played = [state.action_to_string(m) for m in moves]
    wrong = [m for m, name in zip(moves, played) if m not in winners]
    if wrong:
        name = state.action_to_string(wrong[0])
        return {"correct": False, "message": f"{name} does not force {link} within {k} turn{'s' if k > 1 else ''}: "
                                             "some tile an unseen "
                                             f"cell may show, or some Erasure roll, stops it; the flips that do: "
                                             f"{', '.join(names)}", "proof": "AND-OR search"}
    if len(moves) > 1 and set(moves) != set(winners):
        return {"correct": False, "message": f"not every flip that forces {link} is listed: {', '.join(names)}",
                "proof": "AND-OR search"}
    return {"correct": True, "message": f"{', '.join(played)} forces {link} within {k} turn{'s' if k > 1 else ''} "
                                        "whatever the unseen tiles show and the dice roll", "proof": "AND-OR search"}


def _check_forced_moves(state: ForgottenState, played: PlayedTurn, k: int, winners: list[int]) -> dict[str, Any]:
    """The first turn played from the puzzle's position: its first flip must force the link, its second flip
    (when played) must match the first."""
    names = [state.action_to_string(c) for c in winners]
    first = state.action_to_string(played.first)
    within = f"within {k} turn{'s' if k > 1 else ''}"
    verdict: dict[str, Any] = {"proof": "AND-OR search", "readAs": "moves"}
    if played.first not in winners:
        return {**verdict, "correct": False,
                "message": f"{first} does not force a link {within}: some tile an unseen cell may show, or some "
                           f"Erasure roll, stops it; the flips that do: {', '.join(names)}"}
    if played.second is not None and not played.matched:
        second = state.action_to_string(played.second)
        return {**verdict, "correct": False,
                "message": f"{first} forces a link {within}, but only if the second flip matches it: {second} does "
                           "not, and the turn is lost"}
    then = f", then {state.action_to_string(played.second)}," if played.second is not None else ""
    return {**verdict, "correct": True,
            "message": f"{first}{then} forces a link {within} whatever the unseen tiles show and the dice roll"
                       f"{_not_judged(played)}"}


def _check_best(state: ForgottenState, moves: list[int], ctx: SearchContext | None = None) -> dict[str, Any]:
    if len(moves) != 1:
        raise InvalidInputError("ANSWER", [state.action_to_string(m) for m in moves], "expected one flip")
    if moves[0] == GIVE_UP:
        return {"correct": False, "message": "giving up ends the game as a loss", "proof": "exact expectimax"}
    analysis = ExactAnalysis(state.game)
    analysis.limit(ctx)
    try:
        found = analysis.move_values(state)
    except kernel.SearchStopped as exc:  # a puzzle nobody could have made: its proof meets the time limit
        if str(exc) in ("terminated", "time limit"):
            raise Stopped(str(exc)) from None
        raise
    values = sorted((m for m in found if m.action != GIVE_UP), key=lambda m: (-m.value, m.action))
    best = values[0]
    played = next(m for m in values if m.action == moves[0])
    tied = [m for m in values if m.value >= best.value - 1e-12]
    if played.action == best.action and len(tied) == 1:
        return {"correct": True, "message": f"{played.move} wins with probability {percent(played.value)}, the only "
                                            f"best flip (next {values[1].move} {percent(values[1].value)})"
                if len(values) > 1
                else f"{played.move} is the only flip", "proof": "exact expectimax"}
    if played.value >= best.value - 1e-12:
        return {"correct": False, "message": f"{played.move} ties for best ({percent(played.value)}) with "
                                             f"{', '.join(m.move for m in tied if m.action != played.action)}: the "
                                             "puzzle has no unique answer", "proof": "exact expectimax"}
    return {"correct": False, "message": f"{played.move} wins with probability {percent(played.value)}; {best.move} "
                                         f"wins with {percent(best.value)}", "proof": "exact expectimax"}


def describe(game: ForgottenGame, puzzle: dict[str, Any]) -> str:
    """A puzzle for a person: the board, the question and the position (never its answer: :func:`answer`)."""
    state = game.parse_state(puzzle["state"], "puzzle.state")
    return render_board(state) + f"  {puzzle.get('question', '')}\n  position: {puzzle.get('position')}\n"


def answer(game: ForgottenGame, puzzle: dict[str, Any]) -> str:
    """The proven answer in one line."""
    return answer_line(puzzle)
