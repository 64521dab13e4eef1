"""The Forgotten notation and JSON of states and views: reading them, checked (``docs/formats/forgotten.md``).

A state is ``ROWS TURN PHASE [FIRST]`` (``@ab/cCd/ab@ 1 first``) or ``{"board": [rows], "turn": t, "phase":
"...", "first": "x,y"}``; a view is the same with ``view:N `` in front or ``"view": N`` (and, while a flipped
tile waits to be entered, ``flipped x,y``). The tokens of one row are read by ``solver.forgotten.tiles``; the
positions write themselves (``ForgottenState.to_notation``, ``to_json``).

A position that writes the tiles nobody has seen as ``?`` is completed with a draw (seed 0) that agrees with
what was seen and with the phase (``knowledge.sample_hidden``, or the exact search ``knowledge.find_world``
where agreeing draws are scarce): the *canonical completion*, a pure function of what the position shows.
Every check that a position can happen at the table (FG-15) and that its phase is right names its field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import ImpossibleStateError, InvalidInputError, NotationError
from solver.forgotten.board import MAX_SIDE, MIN_SIDE, Board, check_brains, default_brains, opposite_sides, parse_brains
from solver.forgotten.knowledge import find_world, sample_hidden
from solver.forgotten.state import PHASES, PLAY_PHASES, ForgottenState
from solver.forgotten.tiles import DOWN, HIDDEN, MAX_PAIRS, REMOVED, UP, Cell, letter, parse_row, tokens
from solver.forgotten.view import PLAYERS, ForgottenView
from solver.game import split_view_notation
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get, join

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame

__all__ = ["DOWN", "HIDDEN", "REMOVED", "UP", "parse_row", "board_of_rows", "state_from_json",
           "state_from_notation", "view_from_json", "view_from_notation"]

JSON_KEYS = ("board", "turn", "phase", "first")
VIEW_KEYS = ("view", "board", "turn", "phase", "first", "flipped")
MAX_TURN = 1_000_000


def board_of_rows(rows: Any) -> tuple[int, int, int, str, tuple[int, int]] | None:
    """``(width, height, pairs, brains spec, brains)`` of the board a position's rows describe, or ``None`` when the
    rows describe no board (the parser then says what is wrong). A typed position carries its own board
    (docs/formats/forgotten.md)."""
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        return None
    # The first row sets the width: a row of another length is then reported by the parser
    # ("row y=3: expected 5 cells"), not as a board of the wrong size.
    width, height = len(tokens(rows[0])), len(rows)
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE) or width * height > 64:
        return None
    cells = [t for r in rows for t in tokens(r)]
    tiles = sum(1 for t in cells if t not in ("@", "."))
    pairs = min(max(1, (tiles + 1) // 2), MAX_PAIRS, (width * height - 2) // 2)
    brains = [i for i, t in enumerate(cells) if t == "@"]
    spec = "auto"       # with no legal pair of Brains the parser says what is wrong with them
    if len(brains) == 2 and opposite_sides(brains[0], brains[1], width, height):
        spec = "-".join(f"{c % width + 1}{c // width + 1}" for c in brains)
        if tuple(brains) == default_brains(width, height):
            spec = "auto"
    return width, height, pairs, spec, parse_brains(spec, width, height, "game.brains")


# -- states ------------------------------------------------------------------------------------------------------
def build_state(game: ForgottenGame, rows: list[str], turn: int, phase: str, first_text: Any,
                field: str, rows_field: str) -> ForgottenState:
    """A checked state from notation rows; raises errors naming ``field``."""
    width, height, pairs = game.width, game.height, game.pairs
    if len(rows) != height:
        raise NotationError(rows_field, "/".join(rows) if all(isinstance(r, str) for r in rows) else rows,
                            f"expected {height} rows (the board is {width}x{height})")
    cells: list[Cell] = []
    for y, row in enumerate(rows):
        if rows_field.endswith("board"):
            cells.extend(parse_row(row, width, pairs, f"{rows_field}[{y}]"))
        else:
            cells.extend(parse_row(row, width, pairs, rows_field, f"row y={y + 1}"))
    brains = [c for c, cell in enumerate(cells) if cell.brain]
    shown = "/".join(rows)
    if len(brains) != 2:
        raise ImpossibleStateError(rows_field, shown, f"expected exactly two Brain Tiles '@', found {len(brains)}")
    try:
        check_brains(brains[0], brains[1], width, height, rows_field, shown)
    except InvalidInputError as exc:
        raise ImpossibleStateError(rows_field, shown, exc.problem) from None
    board = Board(width, height, (brains[0], brains[1]))
    tile_cells = [c for c, cell in enumerate(cells) if cell.tile != -1]
    if len(tile_cells) != 2 * pairs:
        raise ImpossibleStateError(rows_field, shown, f"a game of {pairs} pairs has {2 * pairs} tiles and "
                                                      f"{board.cells - 2 - 2 * pairs} empty cells; found "
                                                      f"{len(tile_cells)} tiles")
    hidden = [c for c in tile_cells if cells[c].tile == HIDDEN]
    unseen_given = [c for c in tile_cells if cells[c].tile >= 0 and not cells[c].seen]
    if hidden and unseen_given:
        raise NotationError(rows_field, shown, "give every unseen tile (lower-case letters) or none ('?'), not a mix")
    counts = [0] * pairs
    for c in tile_cells:
        if cells[c].tile >= 0:
            counts[cells[c].tile] += 1
    for p, n in enumerate(counts):
        if n > 2:
            raise ImpossibleStateError(rows_field, shown, f"pair {letter(p)} appears {n} times (a pair is two tiles)")
        if not hidden and n != 2:
            raise ImpossibleStateError(rows_field, shown, f"pair {letter(p)} appears {n} times: without '?' every "
                                                          "pair must show both tiles")
    _check_face_up(cells, counts, pairs, rows_field, shown)
    if phase not in PHASES:
        raise InvalidInputError(join(field, "phase"), phase, f"expected one of {', '.join(PHASES)}")
    first = _parse_first(board, cells, phase, first_text, field)
    state = ForgottenState(game, board, [cell.tile for cell in cells], [cell.status for cell in cells],
                           [cell.seen for cell in cells], turn, phase, first, given=not hidden)
    _check_history(state, cells, field)
    if hidden:
        state.tiles = _complete(state, cells, counts, field, shown)
    _check_outcome(state, field)
    return state


def _check_face_up(cells: list[Cell], counts: list[int], pairs: int, field: str, shown: str) -> None:
    for p in range(pairs):
        mine = [cell for cell in cells if cell.tile == p]
        if any(cell.status == UP for cell in mine):
            ok = len(mine) == 2 and all(cell.seen and cell.status in (UP, REMOVED) for cell in mine)
            if not ok:
                raise ImpossibleStateError(field, shown, f"pair {letter(p)} is face up, so its other tile must be "
                                                         f"face up ('+{letter(p)}') or removed after being seen "
                                                         f"('-{letter(p)}')")


def _parse_first(board: Board, cells: list[Cell], phase: str, text: Any, field: str) -> int:
    if phase != "second":
        if text is not None:
            raise InvalidInputError(join(field, "first"), text, "only the 'second' phase names a first flipped cell")
        return -1
    if text is None:
        raise InvalidInputError(join(field, "first"), problem="the 'second' phase needs the cell flipped first")
    first = board.parse(text, join(field, "first"))
    cell = cells[first]
    if cell.brain or cell.tile == -1 or cell.status != DOWN or not cell.seen or cell.tile == HIDDEN:
        raise ImpossibleStateError(join(field, "first"), text, "the first flipped tile must be a face-down tile "
                                                               "shown with its upper-case letter")
    return first


def _check_history(state: ForgottenState, cells: list[Cell], field: str) -> None:
    """Counts the turns so far must allow (FG-15)."""
    game, turn, phase = state.game, state.turn, state.phase
    seen = sum(1 for cell in cells if cell.seen)
    # a give-up may follow a first flip, and so may a loss a flip reveals at a real table (FG-16)
    flips = 2 * turn + (1 if phase in ("second", "gave-up", "lost") else 0)
    if seen > flips:
        raise ImpossibleStateError(join(field, "turn"), turn, f"{seen} tiles have been seen but {turn} turns "
                                                              f"flip at most {flips}")
    up_pairs = len({cell.tile for cell in cells if cell.status == UP})
    if up_pairs > turn:
        raise ImpossibleStateError(join(field, "turn"), turn, f"{up_pairs} pairs are face up after {turn} turns")
    if phase == "erase" and (turn < 1 or not game.erasure_due(turn)):
        raise ImpossibleStateError(join(field, "phase"), phase, f"no Erasure roll follows turn {turn} "
                                                                f"(erasure={game.erasure})")
    rolls = game.rolls_after(turn)
    if phase == "erase" or (phase == "won" and game.erasure_due(turn)):
        rolls -= 1
    removed = sum(1 for cell in cells if cell.status == REMOVED)
    if removed > rolls:
        raise ImpossibleStateError(join(field, "turn"), turn, f"{removed} tiles are removed but only {max(rolls, 0)} "
                                                              f"Erasure rolls have happened by turn {turn}")


def _complete(state: ForgottenState, cells: list[Cell], counts: list[int], field: str, shown: str) -> list[int]:
    """Fill the '?' cells with a draw (seed 0) that agrees with the phase; ``shown`` is the board as typed."""
    bag = [p for p, n in enumerate(counts) for _ in range(2 - n)]
    slots = [c for c, cell in enumerate(cells) if cell.tile == HIDDEN]
    if len(bag) != len(slots):
        raise ImpossibleStateError(join(field, "board"), shown,
                                   f"{len(slots)} '?' cells but {len(bag)} tiles unaccounted for")
    tiles = list(state.tiles)
    for c, v in zip(slots, bag):
        tiles[c] = v
    probe = state.clone()
    probe.tiles = tiles
    if state.phase in PLAY_PHASES + ("gave-up",):
        problem = _clear_impossible(probe) if state.game.goal == "clear" else _no_optimistic_route(probe)
        if problem:
            raise ImpossibleStateError(join(field, "board"), shown, problem)
    try:
        return sample_hidden(probe, np.random.default_rng(0))
    except ImpossibleStateError:
        pass
    # too few agreeing worlds for rejection sampling: decide exactly (knowledge.find_world)
    want_alive = state.phase != "lost"
    world = probe.tiles if state.phase == "won" else find_world(probe, alive=want_alive)
    if world is None:
        if state.game.goal == "clear":
            problem = ("no arrangement of the unseen tiles keeps every face-down tile's partner face down, so the "
                       "game is lost (goal=clear)" if want_alive else
                       "every arrangement of the unseen tiles keeps every face-down tile's partner face down, so the "
                       "game is not lost (goal=clear)")
        else:
            problem = ("no arrangement of the unseen tiles leaves a route possible, so the game is lost" if want_alive
                       else "every arrangement of the unseen tiles leaves a route possible, so the game is not lost")
        raise ImpossibleStateError(join(field, "board"), shown, problem)
    return world


def _no_optimistic_route(state: ForgottenState) -> str:
    """Why no route is possible through face-up tiles and every face-down tile not known to have lost its
    partner ("" when one is)."""
    usable = state.mask(UP)
    other = state.partners()
    for c, s in enumerate(state.status):
        if s == DOWN:
            p = other[c]
            if not (state.seen[c] and p >= 0 and state.seen[p] and state.status[p] != DOWN):
                usable |= 1 << c
    if state.board.connected(usable):
        return ""
    return "no route is left even if every unseen tile can still be matched: the game is lost"


def _clear_impossible(state: ForgottenState) -> str:
    """Under the clear goal (FG-14), why every world that agrees with what was seen is already lost ("" when
    some world is alive): alive means every face-down tile keeps its partner face down, so the removed tiles
    nobody saw must be the partners of removed seen tiles and whole pairs."""
    other = state.partners()
    seen_down = [c for c, s in enumerate(state.status) if s == DOWN and state.seen[c]]
    for c in seen_down:
        p = other[c]
        if state.seen[p] and state.status[p] == REMOVED:
            return (f"{letter(state.tiles[c])} at {state.board.name(c)} is face down and its partner was removed: "
                    "under goal=clear it can never be matched, so the game is lost")
    lone = sum(1 for c in seen_down if not state.seen[other[c]])
    unseen_down = sum(1 for c, s in enumerate(state.status) if s == DOWN and not state.seen[c])
    unseen_removed = sum(1 for c, s in enumerate(state.status) if s == REMOVED and not state.seen[c] and
                         state.tiles[c] >= 0)
    orphans = sum(1 for c, s in enumerate(state.status) if s == REMOVED and state.seen[c] and
                  not state.seen[other[c]])
    if lone > unseen_down:
        return (f"{lone} seen tiles wait for a partner but only {unseen_down} unseen tiles are face down: under "
                "goal=clear a partner was removed, so the game is lost")
    if orphans > unseen_removed or (unseen_down - lone) % 2:
        return ("the removed tiles nobody saw cannot all be partners of removed tiles or whole pairs: under "
                "goal=clear some face-down tile has lost its partner, so the game is lost")
    return ""


def _check_outcome(state: ForgottenState, field: str) -> None:
    phase = state.phase
    shown = state.to_notation()
    won = state.won()
    clear = state.game.goal == "clear"
    if won and phase != "won":
        raise ImpossibleStateError(join(field, "phase"), phase, "every tile is face up: the game is won (goal=clear)"
                                   if clear else "the face-up tiles already link the Brains: the game is won")
    if phase == "won" and not won:
        down = sum(1 for s in state.status if s == DOWN)
        raise ImpossibleStateError(join(field, "phase"), phase, f"{down} tiles are still face down (goal=clear)"
                                   if clear else "no face-up path links the Brains")
    if phase in PLAY_PHASES + ("gave-up",) and not state.alive():
        raise ImpossibleStateError(join(field, "phase"), phase,
                                   f"a face-down tile's partner was removed, so it can never be matched and the game "
                                   f"is lost (goal=clear): {shown}" if clear else
                                   f"no route can be completed any more, so the game is lost: {shown}")
    if phase == "lost" and state.alive():
        raise ImpossibleStateError(join(field, "phase"), phase, "every face-down tile can still be matched, so the "
                                   "game is not lost (goal=clear)" if clear else
                                   "a route can still be completed, so the game is not lost")


def state_from_json(game: ForgottenGame, obj: Any, field: str = "state") -> ForgottenState:
    """Parse ``{"board": [rows], "turn": n, "phase": "...", "first": "x,y"}``."""
    data = as_object(obj, field)
    check_keys(data, JSON_KEYS, field)
    rows = as_list(get(data, "board", field), join(field, "board"))
    for i, row in enumerate(rows):
        as_str(row, f"{join(field, 'board')}[{i}]")
    turn = as_int(get(data, "turn", field), join(field, "turn"), 0, MAX_TURN)
    phase = as_str(get(data, "phase", field), join(field, "phase"))
    return build_state(game, rows, turn, phase, data.get("first"), field, join(field, "board"))


def state_from_notation(game: ForgottenGame, text: Any, field: str = "state") -> ForgottenState:
    """Parse ``ROWS TURN PHASE [FIRST]``, e.g. ``@ab/cCd/ab@ 1 first`` (docs/formats/forgotten.md)."""
    if not isinstance(text, str):
        raise NotationError(field, text, "expected the notation 'ROWS TURN PHASE [FIRST]'")
    parts = text.split()
    if len(parts) not in (3, 4):
        raise NotationError(field, text, "expected 'ROWS TURN PHASE [FIRST]', e.g. '@ab.../... 0 first'")
    rows = parts[0].split("/")
    try:
        turn = int(parts[1])
    except ValueError:
        raise NotationError(field, text, f"the turn count {parts[1]!r} is not a number") from None
    if not 0 <= turn <= MAX_TURN:
        raise NotationError(field, text, f"the turn count must be 0 to {MAX_TURN:,}")
    first = parts[3] if len(parts) == 4 else None
    return build_state(game, rows, turn, parts[2], first, field, field)


# -- views -------------------------------------------------------------------------------------------------------
def view_from_json(game: ForgottenGame, obj: Any, field: str = "state") -> ForgottenView:
    """Parse ``{"view": N, "board": [...], "turn": t, "phase": "...", "first": "x,y", "flipped": "x,y"}``."""
    data = dict(as_object(obj, field))
    unknown = sorted(set(data) - set(VIEW_KEYS))
    if unknown:
        raise InvalidInputError(join(field, unknown[0]), data[unknown[0]],
                                f"unknown key (a view has {', '.join(VIEW_KEYS)})")
    observer = as_int(data.pop("view"), join(field, "view"), 0, 1)
    flipped = data.pop("flipped", None)
    known = game.state_from_json(data, field)
    return _finish(known, observer, flipped, join(field, "flipped"), join(field, "board"))


def view_from_notation(game: ForgottenGame, text: Any, field: str = "state") -> ForgottenView:
    """Parse ``view:N ROWS TURN PHASE [FIRST] [flipped X,Y]``."""
    if not isinstance(text, str):
        raise NotationError(field, text, "expected a view's notation 'view:N ROWS TURN PHASE [FIRST]'")
    observer, body = split_view_notation(text, field)
    if observer not in PLAYERS:
        raise NotationError(field, text, "Forgotten has players 0 and 1: 'view:0' or 'view:1'")
    parts = body.split()
    flipped = None
    if len(parts) >= 2 and parts[-2].lower() == "flipped":
        flipped, parts = parts[-1], parts[:-2]
    known = game.state_from_notation(" ".join(parts), field)
    return _finish(known, observer, flipped, field, field)


def _finish(known: ForgottenState, observer: int, flipped: Any, flipped_field: str, board_field: str) -> ForgottenView:
    if known.given and known.hidden_cells():
        raise InvalidInputError(board_field, "/".join(known.rows()),
                                "a view shows only what the players have seen: write the unseen tiles as '?'")
    cell = -1
    if flipped is not None:
        cell = known.board.parse(flipped, flipped_field)
        if known.phase not in ("first", "second"):
            raise ImpossibleStateError(flipped_field, flipped, f"a tile waits to be entered only during a turn, not in "
                                                               f"the '{known.phase}' phase")
        if known.status[cell] != DOWN or known.seen[cell] or cell == known.first:
            raise ImpossibleStateError(flipped_field, flipped, "the flipped tile waiting to be entered must be a "
                                                               "face-down tile nobody has seen ('?')")
    return ForgottenView(known.game, observer, known, cell)
