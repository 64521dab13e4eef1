"""Forgotten positions and rules: flips, matches, the Erasure Process, winning and losing.

A :class:`ForgottenState` is the whole truth (which pair lies on every cell) plus what the players
have seen. Each turn is two decisions (first flip, second flip) by the player to move; after the
turns that trigger it the Erasure Process is a chance node with one outcome per cell (the two dice).
Rules and interpretations: ``docs/rules/forgotten.md`` (ids FG-n); notation and JSON:
``docs/formats/forgotten.md``.

A position may leave the unseen tiles unsaid (``?``): the state then fills them with a draw
consistent with what was seen (the game not being over included) and keeps printing them as ``?``.
Every service that advises the players reads only :meth:`ForgottenState.observation`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError, NotationError
from solver.forgotten.board import Board, check_brains
from solver.forgotten.notation import (BRAIN, DOWN, EMPTY, HIDDEN, NONE, REMOVED, UP, Cell, format_row, letter,
                                       parse_row)
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, State
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get, join

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame
    from solver.forgotten.view import ForgottenView

GIVE_UP = 64
PLAY_PHASES = ("first", "second", "erase")
END_PHASES = ("won", "lost", "gave-up")
PHASES = PLAY_PHASES + END_PHASES
JSON_KEYS = ("board", "turn", "phase", "first")
SAMPLE_TRIES = 20_000
MAX_TURN = 1_000_000


class ForgottenState(State):
    """One Forgotten position (mutable; ``apply_action`` changes it in place)."""

    def __init__(self, game: ForgottenGame, board: Board, tiles: list[int], status: list[int], seen: list[bool],
                 turn: int = 0, phase: str = "first", first: int = -1, given: bool = True) -> None:
        super().__init__(game)
        self.board = board
        self.tiles = tiles          # pair number per cell, -1 for no tile
        self.status = status        # NONE, DOWN, UP or REMOVED per cell
        self.seen = seen            # the players have seen the tile on this cell
        self.turn = turn            # turns finished
        self.phase = phase
        self.first = first          # the cell flipped first this turn (phase "second")
        self.given = given          # False: unseen tiles were drawn, print them as '?'

    # -- bitboards and rule helpers -----------------------------------------------------------
    def mask(self, status: int) -> int:
        """Cells with the given status."""
        return sum(1 << c for c, s in enumerate(self.status) if s == status)

    def partners(self) -> list[int]:
        """For every cell, the cell holding the other tile of its pair (-1 for no tile)."""
        return partner_cells(self.tiles)

    def partner(self, cell: int) -> int:
        """The cell holding the other tile of the pair on ``cell`` (-1 for no tile)."""
        return self.partners()[cell]

    def matchable(self) -> int:
        """Face-down tiles whose partner is still face down on the board (FG-11)."""
        other = self.partners()
        out = 0
        for c, s in enumerate(self.status):
            if s == DOWN and other[c] >= 0 and self.status[other[c]] == DOWN:
                out |= 1 << c
        return out

    def alive(self) -> bool:
        """The game can still be won: FG-11 (path goal) or FG-14 (clear goal)."""
        if self.game.goal == "clear":
            return self.mask(DOWN) == self.matchable()
        return self.board.connected(self.mask(UP) | self.matchable())

    def won(self) -> bool:
        """The winning condition holds: a face-up path (FG-10), or no face-down tile left (clear goal)."""
        if self.game.goal == "clear":
            return self.mask(DOWN) == 0
        return self.board.connected(self.mask(UP))

    def player(self) -> int:
        """The player whose turn it is (player 0 takes the first turn, FG-6)."""
        return self.turn % 2

    # -- the State contract -------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in END_PHASES:
            return TERMINAL_PLAYER
        if self.phase == "erase":
            return CHANCE_PLAYER
        return self.player()

    def legal_actions(self) -> list[int]:
        if self.phase in END_PHASES:
            return []
        if self.phase == "erase":
            return list(range(self.board.cells))
        flips = [c for c, s in enumerate(self.status) if s == DOWN and c != self.first]
        return flips + [GIVE_UP]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase != "erase":
            return super().chance_outcomes()
        p = 1.0 / self.board.cells
        return [(c, p) for c in range(self.board.cells)]

    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or action not in self.legal_actions():
            raise IllegalMoveError("action", action, f"not a legal action in {self.to_notation()!r}")
        action = int(action)
        if action == GIVE_UP:
            self.phase, self.first = "gave-up", -1
        elif self.phase == "erase":
            self._erase(action)
        elif self.phase == "first":
            self.seen[action] = True
            self.first, self.phase = action, "second"
        else:
            self._second_flip(action)

    def _second_flip(self, cell: int) -> None:
        first = self.first
        self.seen[cell] = True
        self.turn += 1
        self.first = -1
        if self.tiles[first] == self.tiles[cell]:
            self.status[first] = self.status[cell] = UP
            if self.won():
                self.phase = "won"
                return
        self.phase = "erase" if self.game.erasure_due(self.turn) else "first"

    def _erase(self, cell: int) -> None:
        if self.status[cell] in (DOWN, UP):
            self.status[cell] = REMOVED
        self.phase = "first" if self.alive() else "lost"

    def action_to_string(self, action: int) -> str:
        if action == GIVE_UP:
            return "give up"
        verb = "erase" if self.phase == "erase" else "flip"
        return f"{verb} {self.board.name(action)}"

    def parse_move(self, text: str, field: str = "move") -> int:
        """``flip 3,4`` (or just ``3,4``, ``34``), ``give up``, and at the Erasure roll ``erase 3,4``."""
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string such as 'flip 3,4' or 'give up'")
        words = text.strip().lower().replace("(", " ").replace(")", " ").split()
        if words in (["give", "up"], ["giveup"], ["give-up"]):
            action = GIVE_UP
        else:
            if words and words[0] in ("flip", "erase", "roll"):
                verb, words = words[0], words[1:]
                if (verb == "flip") != (self.phase != "erase"):
                    expected = "an Erasure roll ('erase x,y')" if self.phase == "erase" else "a flip ('flip x,y')"
                    raise IllegalMoveError(field, text, f"the position waits for {expected}")
            try:
                action = self.board.parse(" ".join(words).replace(" ,", ",").replace(", ", ","), field)
            except InvalidInputError:
                raise InvalidMoveError(field, text, "expected 'flip x,y' (x from the blue die, y from the orange "
                                                    "die), 'give up', or 'erase x,y' at the Erasure roll") from None
        if action not in self.legal_actions():
            raise IllegalMoveError(field, text, self._why_illegal(action))
        return action

    def _why_illegal(self, action: int) -> str:
        if self.phase in END_PHASES:
            return f"the game is over ({self.phase})"
        if action == GIVE_UP:
            return "players give up on their own turn, not during the Erasure roll"
        if action == self.first:
            return "this tile is already flipped this turn: flip a different one"
        status = self.status[action]
        what = "a Brain Tile" if action in self.board.brains else {NONE: "an empty cell", UP: "a face-up tile",
                                                                   REMOVED: "an erased cell"}.get(status, "")
        return f"{self.board.name(action)} is {what}: only face-down tiles can be flipped"

    def is_terminal(self) -> bool:
        return self.phase in END_PHASES

    def returns(self) -> list[float]:
        value = 1.0 if self.phase == "won" else 0.0
        return [value, value]

    # -- information --------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What the players know (both saw every flip, FG-13): the position with unseen tiles as ``?``."""
        return self._json(given=False)

    def resample_from_observation(self, player: int, rng: np.random.Generator) -> ForgottenState:
        """A world drawn uniformly from those the players cannot tell apart from this one (FG-13).

        The same draw as ``self.view(player).resample(rng)``.
        """
        return self.view(player).resample(rng)

    def view(self, player: int) -> ForgottenView:
        """What ``player`` knows (FG-13: both players know the same): ``solver.forgotten.view``."""
        from solver.forgotten.view import PLAYERS, ForgottenView
        if isinstance(player, bool) or player not in PLAYERS:
            raise InvalidInputError("player", player, "Forgotten has players 0 and 1")
        known = self.game.state_from_json(self.observation(player), "state")
        return ForgottenView(known.game, player, known)

    def default_observer(self) -> int:
        """Both players know the same (FG-13): a hint advises the player whose turn it is or comes next."""
        return self.turn % 2

    # -- copies and serialisation ---------------------------------------------------------------
    def clone(self) -> ForgottenState:
        return ForgottenState(self.game, self.board, list(self.tiles), list(self.status), list(self.seen), self.turn,
                              self.phase, self.first, self.given)

    def cell(self, c: int) -> Cell:
        """The notation cell of index ``c``."""
        if c in self.board.brains:
            return BRAIN
        if self.tiles[c] < 0:
            return EMPTY
        return Cell(self.tiles[c], self.status[c], self.seen[c])

    def rows(self, given: bool | None = None) -> list[str]:
        """The board rows in notation (unseen tiles as ``?`` unless they are given)."""
        show = self.given if given is None else given
        w = self.board.width
        return [format_row([self.cell(y * w + x) for x in range(w)], show) for y in range(self.board.height)]

    def _json(self, given: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"board": self.rows(given and self.given), "turn": self.turn, "phase": self.phase}
        if self.phase == "second":
            out["first"] = self.board.name(self.first)
        return out

    def to_json(self) -> dict[str, Any]:
        return self._json(given=True)

    def to_notation(self) -> str:
        fields = ["/".join(self.rows()), str(self.turn), self.phase]
        if self.phase == "second":
            fields.append(self.board.name(self.first))
        return " ".join(fields)

    # -- derived facts ------------------------------------------------------------------------
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(tiles int8, status uint8, seen uint8)`` per cell, as the kernels take them."""
        tiles = np.asarray(self.tiles, dtype=np.int8)
        status = np.asarray(self.status, dtype=np.uint8)
        seen = np.asarray([1 if s and t >= 0 else 0 for s, t in zip(self.seen, self.tiles)], dtype=np.uint8)
        return tiles, status, seen

    @property
    def phase_code(self) -> int:
        """The kernels' phase code: 0 first flip, 1 second flip, 2 Erasure roll."""
        return PLAY_PHASES.index(self.phase)

    def hidden_cells(self) -> list[int]:
        """Cells whose tile nobody has seen (face down or removed)."""
        return [c for c, t in enumerate(self.tiles) if t >= 0 and not self.seen[c] and self.status[c] in (DOWN, REMOVED)]


def partner_cells(tiles: list[int]) -> list[int]:
    """For every cell, the cell holding the other tile of its pair (-1 for no tile or a lone tile)."""
    other = [-1] * len(tiles)
    where: dict[int, int] = {}
    for c, t in enumerate(tiles):
        if t >= 0:
            if t in where:
                other[c], other[where[t]] = where[t], c
            else:
                where[t] = c
    return other


# -- sampling the unseen tiles ------------------------------------------------------------------------
def _status_ok(state: ForgottenState, tiles: list[int]) -> bool:
    """True when a world with ``tiles`` agrees with the position's phase (alive while in play, FG-13)."""
    probe = ForgottenState(state.game, state.board, tiles, state.status, state.seen, state.turn, state.phase,
                           state.first)
    if state.phase == "lost":
        return not probe.alive()
    if state.phase == "won":
        return True
    return probe.alive()


def sample_hidden(state: ForgottenState, rng: np.random.Generator, start: list[int] | None = None) -> list[int]:
    """The tiles with the unseen ones re-drawn uniformly among the unseen cells, given the game's status.

    Rejection sampling; when fewer than 1 in ``SAMPLE_TRIES`` draws agree with the status, a Metropolis
    walk of swaps from ``start`` (a world known to agree) mixes instead. Raises
    :class:`ImpossibleStateError` when no agreeing world is found.
    """
    slots = state.hidden_cells()
    bag = sorted(state.tiles[c] for c in slots)   # sorted: the draw depends on what is known only
    if not slots:
        if _status_ok(state, state.tiles):
            return list(state.tiles)
        raise ImpossibleStateError("state", state.to_notation(), "the tiles contradict the phase")
    for _ in range(SAMPLE_TRIES):
        tiles = list(state.tiles)
        for c, v in zip(slots, rng.permutation(bag)):
            tiles[c] = int(v)
        if _status_ok(state, tiles):
            return tiles
    if start is None or not _status_ok(state, start):
        raise ImpossibleStateError("state", state.to_notation(),
                                   "no arrangement of the unseen tiles agrees with the phase "
                                   f"({state.phase}) in {SAMPLE_TRIES} draws")
    tiles = list(start)
    for _ in range(200 * len(slots)):
        i, j = rng.integers(len(slots), size=2)
        a, b = slots[int(i)], slots[int(j)]
        tiles[a], tiles[b] = tiles[b], tiles[a]
        if not _status_ok(state, tiles):
            tiles[a], tiles[b] = tiles[b], tiles[a]
    return tiles


# -- parsing --------------------------------------------------------------------------------------
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
    # too few agreeing worlds for rejection sampling: decide exactly (solver.forgotten.worlds)
    from solver.forgotten.worlds import find_world
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
