"""What a player of Forgotten knows: the view, advanced move by move as the game happens at a real table.

Both players see every flip (FG-13), so both players' views hold the same: the board with every tile nobody
has seen as ``?``, the turn count and the phase. A view is a position of its own (``docs/formats/forgotten.md``,
"Views"): its JSON is the observation with ``"view": N``, its notation ``view:N ROWS TURN PHASE [FIRST]``.

At the table a flip is two entries: the decision ``flip x,y`` (the same string as on a full state), then,
when nobody had seen that tile, the tile it shows, ``shows B`` (FG-16). Until the tile is entered the view
waits with ``flipped x,y``. The Erasure dice are entered as rolled, ``erase x,y`` (the same string as on a
full state). A roll after which no route is possible whatever the unseen tiles are ends the game; when the
unseen tiles decide it (FG-11), ``erase x,y lost`` enters the loss the game announced.

Internally a view keeps ``known``: a full state whose unseen tiles are its *canonical completion*, the
arrangement the notation parser draws for ``?`` (seed 0, or the exact search ``knowledge.find_world``).
It is a pure function of what the view shows, so two states with the same view give the same ``known``, the
same samples and the same hints.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError, SolverError
from solver.forgotten.board import OffBoard
from solver.forgotten.knowledge import find_world, sample_hidden
from solver.forgotten.tiles import DOWN, REMOVED, SECOND_SERIES, UP, letter, letter_range
from solver.game import CHANCE_PLAYER, View, join_view_notation

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame
    from solver.forgotten.state import ForgottenState

PLAYERS = (0, 1)


class ForgottenView(View):
    """Player ``observer``'s view of a Forgotten position (both players' views hold the same, FG-13)."""

    def __init__(self, game: ForgottenGame, observer: int, known: ForgottenState, flipped: int = -1) -> None:
        super().__init__(game, observer)
        self.known = known          # the view's canonical completion (given=False: prints unseen tiles as '?')
        self.flipped = flipped      # a flipped tile nobody had seen, whose pair is entered next (-1: none)

    # -- whose turn, what can be entered --------------------------------------------------------------
    @property
    def board(self):
        return self.known.board

    def current_player(self) -> int:
        if self.flipped >= 0:
            return CHANCE_PLAYER
        return self.known.current_player()

    def default_observer(self) -> int:
        return self.observer

    def legal_moves(self) -> list[str]:
        """Flips and ``give up`` (as on a full state); ``shows L`` after an unseen flip; ``erase x,y`` at a roll."""
        if self.flipped >= 0:
            return [f"shows {letter(p)}" for p in self.possible_letters()]
        known = self.known
        if known.phase != "erase":
            return [known.action_to_string(a) for a in known.legal_actions()]
        moves, position = [], _Position(known)
        for cell in range(known.board.cells):
            moves.append(f"erase {known.board.name(cell)}")
            if _roll_ending(position, cell) == "maybe":
                moves.append(f"erase {known.board.name(cell)} lost")
        return moves

    def possible_letters(self) -> list[int]:
        """Pairs the flipped unseen tile may show: those with fewer than two tiles seen (FG-16)."""
        return [p for p in range(self.known.game.pairs) if self._seen_count(p) < 2]

    def _seen_count(self, pair: int) -> int:
        known = self.known
        return sum(1 for c, t in enumerate(known.tiles) if t == pair and known.seen[c])

    # -- entering moves and outcomes ------------------------------------------------------------------------
    def apply_move(self, text: str, field: str = "move") -> None:
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string such as 'flip 3,4', 'shows B' or 'erase 2,5'")
        if self.known.is_terminal():
            raise IllegalMoveError(field, text, f"the game is over ({self.known.phase})")
        words = text.strip().split()
        if self.flipped >= 0:
            self._reveal(self._parse_letter(words, text, field), field)
        elif self.known.phase == "erase":
            self._roll(words, text, field)
        else:
            self._decide(text, field)

    def _decide(self, text: str, field: str) -> None:
        """A flip or ``give up``: checked exactly as on a full state; an unseen tile then waits for its pair."""
        lowered = text.strip().lower().split()
        if lowered and lowered[0] in ("shows", "show"):
            raise IllegalMoveError(field, text, "no tile is waiting to be entered: flip a tile first")
        action = self.known.parse_move(text, field)
        if action < self.board.cells and not self.known.seen[action]:
            self.flipped = action
            return
        after = self.known.clone()
        after.apply_action(action)
        self.known = _settle(after, field, text)

    def _parse_letter(self, words: list[str], text: str, field: str) -> int:
        if words and words[0].lower() in ("shows", "show"):
            words = words[1:]
        flipped = self.board.name(self.flipped)
        if len(words) != 1 or not (words[0][:1].isalpha() and words[0][1:] in ("", SECOND_SERIES)):
            raise InvalidMoveError(field, text, f"the tile flipped on {flipped} is entered as 'shows L' with L its "
                                                "pair letter, e.g. 'shows B' (after Z: 'shows A2')")
        name = words[0].upper()
        pairs = self.known.game.pairs
        names = [letter(p) for p in range(pairs)]
        if name not in names:
            raise IllegalMoveError(field, text, f"no pair {name} in a game of {pairs} pairs (letters "
                                                f"{letter_range(pairs)})")
        pair = names.index(name)
        seen = [c for c, t in enumerate(self.known.tiles) if t == pair and self.known.seen[c]]
        if len(seen) >= 2:
            where = " and ".join(f"{self.board.name(c)} ({_status_word(self.known, c)})" for c in seen)
            raise IllegalMoveError(field, text, f"both tiles of pair {name} have been seen already, on {where}: "
                                                f"the tile on {flipped} cannot be a third")
        return pair

    def _reveal(self, pair: int, field: str) -> None:
        """The flipped tile shows ``pair``: the flip is played in a world where it does (FG-16)."""
        cell, known = self.flipped, self.known
        world = known.clone()
        holders = [c for c in known.hidden_cells() if known.tiles[c] == pair and c != cell]
        if known.tiles[cell] != pair:
            swap = holders[0]
            world.tiles[cell], world.tiles[swap] = world.tiles[swap], world.tiles[cell]
        world.apply_action(cell)
        self.known = _settle(world, field, f"shows {letter(pair)}")
        self.flipped = -1

    def _roll(self, words: list[str], text: str, field: str) -> None:
        lowered = [w.lower() for w in words]
        lost = bool(lowered) and lowered[-1] == "lost"
        if lost:
            lowered = lowered[:-1]
        if lowered and lowered[0] in ("erase", "roll"):
            lowered = lowered[1:]
        elif lowered and lowered[0] == "flip":
            raise IllegalMoveError(field, text, "the position waits for an Erasure roll ('erase x,y')")
        board = self.board
        try:
            cell = board.parse(" ".join(lowered).replace(" ,", ",").replace(", ", ","), field)
        except OffBoard:
            raise IllegalMoveError(field, text, f"off the {board.width}x{board.height} board: the dice show x "
                                                f"1-{board.width} (blue) and y 1-{board.height} (orange)") from None
        except InvalidInputError:
            raise InvalidMoveError(field, text, "the Erasure dice are entered as 'erase x,y' (x from the blue die, y "
                                                "from the orange die), or 'erase x,y lost' when the roll ended the "
                                                "game") from None
        ending = self._roll_may_end(cell)
        world = self.known.clone()
        world._erase(cell)
        if lost:
            if ending == "no":
                still = "every face-down tile matchable" if self.known.game.goal == "clear" else "a route possible"
                raise IllegalMoveError(field, text, f"erasing {board.name(cell)} leaves {still} whatever the "
                                                    "unseen tiles are: the game cannot be lost by this roll")
            world.phase = "lost"
        else:
            world.phase = "lost" if ending == "yes" else "first"
        self.known = _settle(world, field, text)

    def _roll_may_end(self, cell: int) -> str:
        """Whether a roll on ``cell`` ends the game: ``yes`` (whatever the unseen tiles), ``no`` or ``maybe``."""
        return _roll_ending(_Position(self.known), cell)

    # -- the end ---------------------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.flipped < 0 and self.known.is_terminal()

    def returns(self) -> list[float] | None:
        return self.known.returns() if self.is_terminal() else None

    # -- sampling -------------------------------------------------------------------------------------------
    def resample(self, rng: np.random.Generator) -> ForgottenState:
        """A world drawn uniformly from those the players cannot tell apart (FG-13).

        While a flipped tile waits to be entered, the world is drawn before the flip and the flip is then
        played in it: the full state just after the flip, whose tile on ``flipped`` is the drawn one.
        """
        world = self.known.clone()
        world.tiles = sample_hidden(self.known, rng, start=self.known.tiles)
        world.given = True
        if self.flipped >= 0:
            world.apply_action(self.flipped)
        return world

    # -- copies and serialisation ---------------------------------------------------------------------------
    def view(self, player: int) -> ForgottenView:
        """Both players know the same (FG-13): another player's view is this one with its observer changed."""
        check_player(player)
        return ForgottenView(self.game, player, self.known.clone(), self.flipped)

    def clone(self) -> ForgottenView:
        return ForgottenView(self.game, self.observer, self.known.clone(), self.flipped)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"view": self.observer, **self.known.observation(self.observer)}
        if self.flipped >= 0:
            out["flipped"] = self.board.name(self.flipped)
        return out

    def to_notation(self) -> str:
        body = self.known.to_notation()
        if self.flipped >= 0:
            body += f" flipped {self.board.name(self.flipped)}"
        return join_view_notation(self.observer, body)


class _Position:
    """A position as a key of :func:`_roll_ending`'s memo: its game and everything on its board."""

    __slots__ = ("state", "key", "hash")

    def __init__(self, state: ForgottenState) -> None:
        self.state = state
        self.key = (state.game.spec(), tuple(state.tiles), tuple(state.status), tuple(state.seen), state.turn,
                    state.phase)
        self.hash = hash(self.key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Position) and self.key == other.key


@lru_cache(maxsize=4096)
def _roll_ending(position: _Position, cell: int) -> str:
    """:meth:`ForgottenView._roll_may_end`, kept for the positions asked again (a table server asks every seat's
    legal moves at every request, and each roll's answer may take exact searches: issue 24)."""
    known = position.state
    world = known.clone()
    world._erase(cell)
    world.phase = "first"
    if world.status == known.status:
        return "no"                      # nothing removed: the game was alive and stays so
    alive = world.alive() or find_world(world, alive=True) is not None
    if not alive:
        return "yes"
    dead = not world.alive() or _sampled_dead(world) or find_world(world, alive=False) is not None
    return "maybe" if dead else "no"


def _sampled_dead(world: ForgottenState, draws: int = 8) -> bool:
    """A few fixed draws of the unseen tiles: one that leaves no route settles it before the exact search."""
    rng = np.random.default_rng(0)
    slots = world.hidden_cells()
    bag = sorted(world.tiles[c] for c in slots)
    probe = world.clone()
    for _ in range(draws):
        for c, tile in zip(slots, rng.permutation(bag)):
            probe.tiles[c] = int(tile)
        if not probe.alive():
            return True
    return False


def _status_word(state: ForgottenState, cell: int) -> str:
    return {DOWN: "face down", UP: "face up", REMOVED: "erased"}.get(state.status[cell], "")


def _settle(world: ForgottenState, field: str, text: str) -> ForgottenState:
    """The view's canonical completion after a move: the position re-read from what it shows.

    ``world`` is any world agreeing with the view after the move. When what was seen leaves no route
    whatever the unseen tiles are, the game was lost (FG-11), and the view says so (FG-16).
    """
    if not world.is_terminal() and not world.alive() and find_world(world, alive=True) is None:
        world.phase, world.first = "lost", -1
    try:
        return world.game.state_from_json(world.observation(0), "view")
    except SolverError as exc:
        raise IllegalMoveError(field, text, exc.problem) from None


def check_player(player: Any, field: str = "player") -> int:
    """``player`` if it is a player of Forgotten (0 or 1)."""
    if isinstance(player, bool) or player not in PLAYERS:
        raise InvalidInputError(field, player, "Forgotten has players 0 and 1")
    return player
