"""Escape-in-k puzzles: solitaire positions with every card known and exactly one shortest way out.

A puzzle is a one-player position (``players=1``, MR-26) in which the player
has seen every underside. Its answer is the proven shortest escape (IDA*,
``solver/memorinth/escape.py``); the generator keeps a position only when the
exhaustive count of decision sequences that leave the forest within k own
turns is exactly one, then replays that sequence move by move to verify it.

The grade is the depth of that proof, the number of own turns k the solver
must search to and prove no shorter escape exists (its work grows with k:
``nodes`` in each puzzle records it). Kinds: ``escape`` (k from the
difficulty's range) and ``escape-in-K`` (exactly K, graded by K). Puzzle i of
a run draws everything from its own random stream (:func:`generate`), so its
id makes it again (``solver/puzzles.py``); :func:`check` re-proves the
shortest escape from the puzzle's position and never reads its ``solution``.
Generation stops with :class:`solver.search.Stopped` within a fraction of a
second of its context's time limit or ``terminate``.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError, UnsupportedActionError
from solver.memorinth import kernel
from solver.memorinth import layout as R
from solver.memorinth.layout import DOWN, LAST, PIECE, ROUND, SEEN, START, UP, start_side
from solver.memorinth.notation import check_state
from solver.memorinth.solve import Escape, shortest_escape
from solver.memorinth.state import MemorinthState
from solver.memorinth.text import draw
from solver.search import Limits, SearchContext, Stopped, Watch
from solver.validate import as_int, get

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame

#: the puzzle kinds (``generate --kind``), the first the default
KINDS = ("escape",) + tuple(f"escape-in-{k}" for k in range(1, 13))

DIFFICULTIES = {  # own turns of the unique shortest escape, by variant
    "base": {"easy": (2, 3), "medium": (4, 5), "hard": (6, 7)},
    "master": {"easy": (2, 2), "medium": (3, 3), "hard": (4, 5)},
}
COUNT_LIMIT = 40            # positions with more shortest solutions than this are dropped at once
COUNT_NODE_LIMIT = 3_000_000
ESCAPE_NODE_LIMIT = 1_000_000
CHECK_NODE_LIMIT = 20 * ESCAPE_NODE_LIMIT   # the budget of a check's proof (about 4 s of CPU)
IMPROVE_STEPS = 60


def first_step_bounds(state: MemorinthState) -> list[int]:
    """For each cell, the base game's admissible bound on the turns a piece there needs (-1: never out)."""
    deck = state.rules.deck
    v = state.vec
    union = [deck.side(int(v[UP + c])).paths | deck.side(int(v[DOWN + c])).paths for c in range(25)]
    out = []
    field = _union_field(union)
    for cell in range(25):
        own = deck.side(int(v[UP + cell])).paths
        best = -1
        for d, step in enumerate((-5, 1, 5, -1)):
            if not own >> d & 1:
                continue
            r, c = divmod(cell, 5)
            if (d == 0 and r == 0) or (d == 1 and c == 4) or (d == 2 and r == 4) or (d == 3 and c == 0):
                best = 1
                break
            t = cell + step
            if union[t] >> ((d + 2) % 4) & 1 and field[t] >= 0 and (best < 0 or field[t] + 1 < best):
                best = field[t] + 1
        out.append(best)
    return out


def _union_field(union: list[int]) -> list[int]:
    dist = [-1] * 25
    frontier = []
    for c in range(25):
        r, col = divmod(c, 5)
        if (r == 0 and union[c] & 1) or (col == 4 and union[c] & 2) or (r == 4 and union[c] & 4) \
                or (col == 0 and union[c] & 8):
            dist[c] = 1
            frontier.append(c)
    while frontier:
        nxt = []
        for cell in frontier:
            r, col = divmod(cell, 5)
            for d, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                rr, cc = r + dr, col + dc
                if 0 <= rr < 5 and 0 <= cc < 5:
                    nb = 5 * rr + cc
                    if dist[nb] < 0 and union[cell] >> d & 1 and union[nb] >> ((d + 2) % 4) & 1:
                        dist[nb] = dist[cell] + 1
                        nxt.append(nb)
        frontier = nxt
    return dist


def candidate(game: MemorinthGame, seed: int, lo: int, hi: int) -> MemorinthState:
    """A random solitaire position, every underside known: a dealt board with random faces, a random round, and
    the piece on a cell whose bound suits the wanted length."""
    rng = np.random.default_rng(seed)
    state = game.deal(int(rng.integers(2**62)))
    v = state.vec
    round_no = int(rng.integers(2, 9))
    v[ROUND] = round_no
    v[START] = start_side(round_no, 0)
    for cell in range(25):
        if rng.random() < 0.5:
            v[UP + cell], v[DOWN + cell] = v[DOWN + cell], v[UP + cell]
    v[SEEN:SEEN + 25] = 1
    v[LAST] = -1
    bounds = first_step_bounds(state) if not state.rules.master else [1 + min(c // 5, c % 5, 4 - c // 5, 4 - c % 5)
                                                                      for c in range(25)]
    cells = [c for c in range(25) if lo - 2 <= bounds[c] <= hi] or list(range(25))
    v[PIECE] = cells[int(rng.integers(len(cells)))]
    return state


def _escape(state: MemorinthState, hi: int, ctx: SearchContext | None = None) -> Escape:
    """The shortest escape within ``ESCAPE_NODE_LIMIT`` nodes, stopped early by ``ctx``'s deadline or terminate (then
    not proven: the generator stops)."""
    limits = Limits(nodes=ESCAPE_NODE_LIMIT, time_ms=None if ctx is None else ctx.limits.time_ms)
    search = SearchContext(limits=limits) if ctx is None else \
        SearchContext(limits=limits, cancel=ctx.cancel, started=ctx.started)
    return shortest_escape(state, 0, max_depth=hi, ctx=search)


def _stop_if_asked(ctx: SearchContext | None) -> None:
    if ctx is not None and ctx.should_stop():
        raise Stopped("puzzle generation stopped by its limit")


def _count(state: MemorinthState, turns: int, limit: int, ctx: SearchContext | None = None) -> int | None:
    """The shortest solutions of ``turns`` turns, counted up to ``limit`` within ``COUNT_NODE_LIMIT`` nodes;
    None when the count was not finished (the node limit, or ``ctx``'s time limit or terminate: a watcher raises
    the flag the kernel polls every 1024 nodes)."""
    if ctx is None:
        n, _, complete = kernel.count_solutions(state.vec, state.deck_table, 0, turns, limit, COUNT_NODE_LIMIT)
        return n if complete else None
    left = ctx.remaining()
    stop = np.array([1 if ctx.cancel.is_set() else 0], dtype=np.int32)
    watch = Watch.for_context(ctx, name="memorinth-count-watch")
    watch.on_stop(lambda: stop.__setitem__(0, 1))
    with watch:
        n, _, complete = kernel.count_solutions(state.vec, state.deck_table, 0, turns, limit, COUNT_NODE_LIMIT,
                                                0.0 if left is None else max(left, 1e-3), stop)
    return n if complete else None


def improve(state: MemorinthState, lo: int, hi: int, rng: np.random.Generator,
            ctx: SearchContext | None = None) -> MemorinthState | None:
    """Hill-climb toward a unique shortest escape: turn single cards over while the count of shortest solutions
    falls and the length stays in range. Returns the position once the count is one; raises ``Stopped`` when
    ``ctx`` says stop."""
    escape = _escape(state, hi, ctx)
    _stop_if_asked(ctx)
    if not escape.optimal or not lo <= escape.turns <= hi:
        return None
    count = _count(state, escape.turns, COUNT_LIMIT, ctx)
    _stop_if_asked(ctx)
    if count is None or count >= COUNT_LIMIT:
        return None
    for _ in range(IMPROVE_STEPS):
        if count == 1:
            return state
        _stop_if_asked(ctx)
        cell = int(rng.integers(25))
        if cell == int(state.vec[PIECE]):
            continue
        trial = state.clone()
        v = trial.vec
        v[UP + cell], v[DOWN + cell] = v[DOWN + cell], v[UP + cell]
        escape = _escape(trial, hi, ctx)
        if not escape.optimal or not lo <= escape.turns <= hi:
            continue
        fewer = _count(trial, escape.turns, count, ctx)
        _stop_if_asked(ctx)
        if fewer is not None and fewer < count:
            state, count = trial, fewer
    return state if count == 1 else None


def verify(state: MemorinthState, solution: list[list[str]]) -> bool:
    """Replay the solution: every move legal, the piece out at the end of the last turn and not before."""
    copy = state.clone()
    for i, turn in enumerate(solution):
        for move in turn:
            if copy.is_terminal():
                return False
            copy.apply_move(move)
        if copy.is_terminal() != (i == len(solution) - 1):
            return False
    return copy.winner() == 0


def turn_range(variant: str, difficulty: str, turns: int | None) -> tuple[int, int]:
    """The wanted escape length for a difficulty (or exactly ``turns``)."""
    if turns is not None:
        turns = as_int(turns, "--turns", 1, 12)
        return turns, turns
    table = DIFFICULTIES[variant]
    if difficulty not in table:
        raise InvalidInputError("--difficulty", difficulty, f"expected one of {', '.join(table)}")
    return table[difficulty]


# -- the shared puzzle layer (solver/puzzles.py): one puzzle per random stream ---------------------------------
#: deals tried for one puzzle: a base-game escape-in-7 takes about 5,000 (docs/formats/memorinth.md)
MAX_ATTEMPTS = 50_000


def grade(variant: str, turns: int) -> str:
    """The difficulty an escape in ``turns`` own turns has (below easy counts as easy, above hard as hard)."""
    for name, (lo, hi) in DIFFICULTIES[variant].items():
        if lo <= turns <= hi:
            return name
    return "easy" if turns < DIFFICULTIES[variant]["easy"][0] else "hard"


def kind_range(variant: str, kind: str, difficulty: str) -> tuple[int, int]:
    """The wanted escape length of a puzzle kind."""
    if kind == "escape":
        return turn_range(variant, difficulty, None)
    if kind.startswith("escape-in-") and kind[len("escape-in-"):].isdigit():
        turns = int(kind[len("escape-in-"):])
        if difficulty != grade(variant, turns):
            raise InvalidInputError("difficulty", difficulty, f"an escape in {turns} own turns is always "
                                                              f"{grade(variant, turns)} in the {variant} game: ask for "
                                                              f"{grade(variant, turns)}, or for another K")
        return turn_range(variant, difficulty, turns)
    raise InvalidInputError("kind", kind, "expected 'escape' or 'escape-in-K' (K = 1..12)")


def _turns_text(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def request(game: MemorinthGame, kind: str, difficulty: str, **options: Any) -> tuple[str, str]:
    """``--turns K`` is the kind ``escape-in-K``; an escape in K own turns has the difficulty K grades it (whatever
    difficulty was asked: each K belongs to one; ``docs/formats/memorinth.md``)."""
    turns = options.get("turns")
    if turns is None and kind.startswith("escape-in-") and kind[len("escape-in-"):].isdigit():
        turns = int(kind[len("escape-in-"):])
    if turns is None:
        return kind, difficulty
    return f"escape-in-{turns}", grade(game.rules.variant, turns)


def generate(game: MemorinthGame, kind: str, difficulty: str, rng: np.random.Generator,
             ctx: SearchContext) -> dict[str, Any]:
    """One verified puzzle drawn from ``rng`` alone: the puzzle object without the shared ``id`` and metadata.
    Raises ``Stopped`` when ``ctx`` says stop (its time limit or terminate; a node budget does not apply)."""
    if game.rules.players != 1:
        game = game.derive({"players": 1}, None, "game")
    lo, hi = kind_range(game.rules.variant, kind, difficulty)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        _stop_if_asked(ctx)
        state = candidate(game, int(rng.integers(2**62)), lo, hi)
        check_state(state, "puzzle")
        state = improve(state, lo, hi, np.random.default_rng(int(rng.integers(2**62))), ctx)
        if state is None:
            continue
        check_state(state, "puzzle")
        escape = _escape(state, hi, ctx)
        _stop_if_asked(ctx)
        unique = escape.optimal and _count(state, escape.turns, 2, ctx) == 1
        _stop_if_asked(ctx)  # a count cut by the limits is no failed verification
        if not unique or not verify(state, escape.turn_moves):
            raise AssertionError("a generated puzzle failed its verification")
        return {"turns": escape.turns, "state": state.to_json(), "notation": state.to_notation(), "solution": escape.turn_moves,
                "unique": True, "verified": True, "attempts": attempt, "nodes": escape.nodes}
    raise UnsupportedActionError("kind", kind, f"no puzzle with a unique shortest escape of {_turns_text(lo, hi)} own turns "
                                               f"was found in {MAX_ATTEMPTS} deals of the {game.rules.variant} game "
                                               f"(the longest found: 7 own turns in the base game, 4 in Master "
                                               f"Memorinth)")


def position(game: MemorinthGame, puzzle: dict[str, Any]) -> MemorinthState:
    """The puzzle's solitaire position, every underside known: the answer is the moves played from it
    (:func:`check` takes them as a flat list and counts the own turns on the replay)."""
    return puzzle_state(game, puzzle)


def puzzle_state(game: MemorinthGame, puzzle: dict[str, Any], field: str = "puzzle") -> MemorinthState:
    """The puzzle's position (a one-player full state, from ``state`` or else ``notation``)."""
    if "state" in puzzle:
        state = game.parse_state(puzzle["state"], f"{field}.state")
    else:
        state = game.parse_state(get(puzzle, "notation", field), f"{field}.notation")
    if state.rules.players != 1:
        raise InvalidInputError(f"{field}.state", state.rules.players, "a puzzle is a one-player position "
                                                                       "(players 1)")
    return state


def parse_answer(answer: Any, field: str = "ANSWER") -> list[list[str]]:
    """An answer: moves per own turn as JSON (``[["flip a1", "choose R"], ["flip c1"]]``), a flat list of moves,
    or text with turns separated by ``/`` and moves by ``,`` (``flip a1, choose R / flip c1``)."""
    if isinstance(answer, str):
        turns = [[m.strip() for m in turn.split(",") if m.strip()] for turn in answer.split("/")]
    elif isinstance(answer, list) and all(isinstance(t, list) for t in answer):
        turns = [list(t) for t in answer]
    elif isinstance(answer, list):
        turns = [list(answer)]
    elif isinstance(answer, dict) and "solution" in answer:
        return parse_answer(answer["solution"], f"{field}.solution")
    else:
        raise InvalidInputError(field, answer, "expected the moves of each turn, e.g. 'flip a1, choose R / flip c1'")
    for i, turn in enumerate(turns):
        for j, move in enumerate(turn):
            if not isinstance(move, str):
                raise InvalidInputError(f"{field}[{i}][{j}]", move, "expected a move string")
    if not any(turns):
        raise InvalidInputError(field, answer, "no moves")
    return [turn for turn in turns if turn]


def check(game: MemorinthGame, puzzle: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
    """Replay ``answer`` from the puzzle's position and compare it with the shortest escape proven anew (within
    ``CHECK_NODE_LIMIT`` nodes; ``ctx``'s terminate and time limit stop the proof: :class:`solver.search.Stopped`).

    Own turns are counted on the replay (a turn starts with each move made while a card is to be flipped), so a
    flat list of moves (the web board's answer) is judged as its turns; where the answer groups its moves by
    turn, each group must start a turn."""
    state = puzzle_state(game, puzzle)
    turns = parse_answer(answer)
    flat = isinstance(answer, list) and not any(isinstance(t, list) for t in answer)
    search = SearchContext(limits=Limits(nodes=CHECK_NODE_LIMIT, time_ms=ctx.limits.time_ms), cancel=ctx.cancel,
                           started=ctx.started)
    escape = shortest_escape(state, 0, max_depth=12, ctx=search)
    if not escape.optimal:
        _stop_if_asked(ctx)    # cut by the query's terminate or time limit: no verdict
        raise InvalidInputError("puzzle.state", state.to_notation(), "no shortest escape could be proven for this "
                                                                     "position (not a puzzle of this generator)")
    copy = state.clone()
    own_turns = 0
    for i, turn in enumerate(turns):
        if copy.phase != "flip" and not copy.is_terminal():
            return _verdict(False, f"turn {i + 1} starts before turn {i} is complete", escape.turns)
        for j, move in enumerate(turn):
            if copy.is_terminal():
                return _verdict(False, f"the piece has already left (in own turn {own_turns}) before '{move}'",
                                escape.turns)
            if copy.phase == "flip":
                own_turns += 1
            try:
                copy.apply_move(move, f"ANSWER[{j}]" if flat else f"ANSWER[{i}][{j}]")
            except (IllegalMoveError, InvalidMoveError) as exc:
                return _verdict(False, f"own turn {own_turns}: {exc.problem}: {move!r}", escape.turns)
    if copy.winner() != 0:
        where = "in the middle of a turn" if copy.phase != "flip" else f"on {R.cell_name(copy.piece(0))}"
        return _verdict(False, f"after {_own(own_turns)} the piece is still in the forest ({where})",
                        escape.turns)
    if own_turns > escape.turns:
        return _verdict(False, f"leaves in {_own(own_turns)}; the shortest escape takes {escape.turns}",
                        escape.turns)
    return _verdict(True, f"leaves the forest in {_own(own_turns)}, the proven shortest", escape.turns)


def _own(turns: int) -> str:
    return f"{turns} own turn" + ("" if turns == 1 else "s")


def _verdict(correct: bool, message: str, shortest: int) -> dict[str, Any]:
    return {"correct": correct, "message": message, "shortest": shortest}


def answer(game: MemorinthGame, puzzle: dict[str, Any]) -> str:
    """The proven solution as one line: moves of a turn joined by ',', turns by '/'."""
    return " / ".join(", ".join(turn) for turn in puzzle.get("solution") or [])


def describe(game: MemorinthGame, puzzle: dict[str, Any]) -> str:
    """The puzzle for a person: the task, the board (every card known) and its notation."""
    state = puzzle_state(game, puzzle)
    out = io.StringIO()
    out.write(f"Leave the forest in {puzzle.get('turns', '?')} own turns ({puzzle.get('difficulty', '')}; solitaire, "
              "every card known: each turn flip a card, then follow a character)\n")
    draw(state, out, 0)
    out.write(f"  notation: {state.to_notation()}\n")
    return out.getvalue()
