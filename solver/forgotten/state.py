"""Forgotten positions and rules: flips, matches, the Erasure Process, winning and losing.

A :class:`ForgottenState` is the whole truth (which pair lies on every cell) plus what the players
have seen. Each turn is two decisions (first flip, second flip) by the player to move; after the
turns that trigger it the Erasure Process is a chance node with one outcome per cell (the two dice).
Rules and interpretations: ``docs/rules/forgotten.md`` (ids FG-n); notation and JSON:
``docs/formats/forgotten.md``.

A position may leave the unseen tiles unsaid (``?``): the parser (``solver.forgotten.notation``) then fills
them with a draw consistent with what was seen (the game not being over included) and the state keeps printing
them as ``?``. Every service that advises the players reads only :meth:`ForgottenState.observation`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError
from solver.forgotten.board import Board, OffBoard
from solver.forgotten.tiles import BRAIN, DOWN, EMPTY, NONE, REMOVED, UP, Cell, format_row
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, State

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame
    from solver.forgotten.view import ForgottenView

GIVE_UP = 64
PLAY_PHASES = ("first", "second", "erase")
END_PHASES = ("won", "lost", "gave-up")
PHASES = PLAY_PHASES + END_PHASES


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
        return matchable_among(self.tiles, [c for c, s in enumerate(self.status) if s == DOWN])

    def alive(self) -> bool:
        """The game can still be won: FG-11 (path goal) or FG-14 (clear goal)."""
        return can_still_win(self.game.goal == "clear", self.board, self.mask(UP), self.mask(DOWN), self.matchable())

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
            except OffBoard as exc:
                raise IllegalMoveError(field, text, exc.problem) from None
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
        """What ``player`` knows (FG-13: both players know the same), built by the game (``ForgottenGame.view_of``)."""
        return self.game.view_of(self, player)

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


def matchable_among(tiles: list[int], down: list[int]) -> int:
    """The cells of ``down`` (the face-down ones) whose tile's partner lies in ``down`` too, as a mask (FG-11)."""
    out, where = 0, {}
    for c in down:
        if tiles[c] >= 0:
            other = where.setdefault(tiles[c], c)
            if other != c:
                out |= 1 << c | 1 << other
    return out


def can_still_win(clear: bool, board: Board, up: int, down: int, matchable: int) -> bool:
    """Whether the game can still be won with these face-up, face-down and matchable masks: every face-down tile
    matchable (FG-14, the clear goal), or a route of face-up and matchable cells between the Brains (FG-11)."""
    return matchable == down if clear else board.connected(up | matchable)


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
