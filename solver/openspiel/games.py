"""What OpenSpiel needs to know about each of our games, and nothing that needs OpenSpiel.

For every game of :mod:`solver.registry` this module says how many players a
parameter set gives, which integer ids OpenSpiel sees for our actions (an
:class:`ActionCodec`), the range of the returns, a default cap on the game's
length, and where a game starts: our own explicit chance nodes when the game
has them from the very first card, or else a deal seed chosen by chance (see
``docs/openspiel.md``).

The bounds are derived from each game's action encoding (documented in the
game's state module and ``docs/formats/<game>.md``); the tests check them on
random games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver.errors import IllegalMoveError
from solver.game import Game, State, Utility

#: The deal of a game without an explicit chance root is a 32-bit seed, dealt as 4 chance nodes of one byte each.
SEED_BYTES = 4
BYTE_OUTCOMES = 256


class ActionCodec:
    """Maps our integer actions to OpenSpiel's dense ids ``0 <= id < num_distinct_actions`` and back.

    Player decisions and chance outcomes have separate id spaces, as in OpenSpiel
    (``LegalActionsMask`` is ``NumDistinctActions`` long at a decision and
    ``MaxChanceOutcomes`` long at a chance node). The default codec is the identity
    with range checks: our ids already are small non-negative integers.
    """

    def __init__(self, num_distinct_actions: int, num_chance_outcomes: int) -> None:
        self.num_distinct_actions = num_distinct_actions
        self.num_chance_outcomes = num_chance_outcomes

    def encode(self, action: int) -> int:
        """OpenSpiel's id of our decision ``action``."""
        return _in_bound(int(action), self.num_distinct_actions, "action")

    def decode(self, index: int) -> int:
        """Our decision action of OpenSpiel's id ``index``."""
        return _valid_id(int(index), self.num_distinct_actions, "action")

    def encode_all(self, actions: list[int]) -> list[int]:
        """OpenSpiel's ids of our sorted decision ``actions``, sorted (the identity keeps the order)."""
        if actions and (actions[0] < 0 or actions[-1] >= self.num_distinct_actions):
            _in_bound(actions[0] if actions[0] < 0 else actions[-1], self.num_distinct_actions, "action")
        return [int(a) for a in actions]

    def encode_chance(self, outcome: int) -> int:
        """OpenSpiel's id of our chance ``outcome``."""
        return _in_bound(int(outcome), self.num_chance_outcomes, "chance outcome")

    def decode_chance(self, index: int) -> int:
        """Our chance outcome of OpenSpiel's id ``index``."""
        return _valid_id(int(index), self.num_chance_outcomes, "chance outcome")


def _in_bound(value: int, bound: int, what: str) -> int:
    """``value`` (one of our ids), which must fit OpenSpiel's bound: if not, the bound here is wrong."""
    if not 0 <= value < bound:
        raise AssertionError(f"our {what} {value} is outside OpenSpiel's 0..{bound - 1}: the bound in "
                             "solver/openspiel/games.py is wrong")
    return value


def _valid_id(value: int, bound: int, what: str) -> int:
    """``value`` (an OpenSpiel id from the caller), which must be one of the game's ids."""
    if not 0 <= value < bound:
        raise IllegalMoveError("action", value, f"not an OpenSpiel {what} id of this game (0..{bound - 1})")
    return value


class EmbersCodec(ActionCodec):
    """Embers of Memory packs a decision as ``kind << 32 | payload`` (``solver/embers/state.py``).

    OpenSpiel gets dense ids: ``draw``, ``stop``, ``pass``; ``discard``/``take``/``keep``
    per card; ``reveal`` per strength row; ``arrange`` per permutation; ``add`` per
    card and Mind position. A card added to the Mind overlaps a card already there
    (EM-3: positions differ by at most one quarter), the Mind starts each day as one
    card at (0, 0) (EM-33) and a card enters the Mind at most once a day (drawn cards
    leave the deck until Day's End), so ``|x|, |y| <= memory cards``.
    """

    def __init__(self, cards: int, memory_cards: int) -> None:
        from solver.embers.state import ROWS, arrangements
        self.cards = cards
        self.reach = memory_cards
        self.side = 2 * memory_cards + 1
        self.rows = max(ROWS.values())
        self.orders = len(arrangements(self.rows))
        self.discard_base = 3
        self.take_base = self.discard_base + cards
        self.keep_base = self.take_base + cards
        self.reveal_base = self.keep_base + cards
        self.arrange_base = self.reveal_base + self.rows
        self.add_base = self.arrange_base + self.orders
        super().__init__(self.add_base + cards * self.side * self.side, cards)

    def encode(self, action: int) -> int:
        from solver.embers import state as E
        kind, payload = E.decode(int(action))
        simple = {E.DRAW: 0, E.STOP: 1, E.PASS: 2}
        if kind in simple:
            return simple[kind]
        bases = {E.DISCARD: (self.discard_base, self.cards), E.TAKE: (self.take_base, self.cards),
                 E.KEEP: (self.keep_base, self.cards), E.REVEAL: (self.reveal_base, self.rows),
                 E.ARRANGE: (self.arrange_base, self.orders)}
        if kind in bases:
            base, count = bases[kind]
            return base + _in_bound(payload, count, f"Embers action {action}'s payload")
        if kind == E.ADD:
            card, x, y = E.decode_add(payload)
            if not (0 <= card < self.cards and abs(x) <= self.reach and abs(y) <= self.reach):
                raise AssertionError(f"Embers add of card {card} at ({x}, {y}) is outside the OpenSpiel action bound")
            return self.add_base + (card * self.side + x + self.reach) * self.side + y + self.reach
        raise AssertionError(f"Embers action {action} has no OpenSpiel id (unknown kind {kind})")

    def encode_all(self, actions: list[int]) -> list[int]:
        return sorted(self.encode(a) for a in actions)

    def decode(self, index: int) -> int:
        from solver.embers import state as E
        index = _valid_id(int(index), self.num_distinct_actions, "action")
        if index < self.discard_base:
            return E.encode((E.DRAW, E.STOP, E.PASS)[index])
        if index >= self.add_base:
            card, rest = divmod(index - self.add_base, self.side * self.side)
            x, y = divmod(rest, self.side)
            return E.encode_add(card, x - self.reach, y - self.reach)
        for kind, base in ((E.ARRANGE, self.arrange_base), (E.REVEAL, self.reveal_base), (E.KEEP, self.keep_base),
                           (E.TAKE, self.take_base), (E.DISCARD, self.discard_base)):
            if index >= base:
                return E.encode(kind, index - base)
        raise AssertionError("unreachable")


@dataclass(frozen=True)
class TensorLayout:
    """An observation tensor computed from our ``observation(player)`` JSON alone.

    ``pieces(game)`` lists ``(name, shape)``; ``fill(game, observation, planes)`` sets
    the (zeroed) arrays ``planes[name]``.
    """

    pieces: Callable[[Game], list[tuple[str, tuple[int, ...]]]]
    fill: Callable[[Game, dict, dict], None]


@dataclass(frozen=True)
class GameFacts:
    """What the adapter needs to know about one of our games."""

    name: str
    num_players: Callable[[Game], int]
    codec: Callable[[Game], ActionCodec]
    utility_range: Callable[[Game], tuple[float, float]]
    #: decisions (chance excluded) after which the adapter ends a game: OpenSpiel's ``max_game_length``
    default_max_moves: int
    #: the state before any card is dealt, when the game has one (its set-up is then our own chance nodes)
    explicit_root: Callable[[Game], State | None] = lambda game: None
    #: per-instance utility (Aetherya co-op and solo are cooperative)
    utility: Callable[[Game], Utility] = lambda game: game.utility
    #: the observation tensor, where it is cheap (else OpenSpiel is told there is none)
    tensor: TensorLayout | None = None


# -- per game ------------------------------------------------------------------------------------------------
def _forgotten_codec(game: Game) -> ActionCodec:
    from solver.forgotten.state import GIVE_UP
    return ActionCodec(GIVE_UP + 1, game.board.cells)   # flips are cells (at most 64), give up is 64


def _memorinth_codec(game: Game) -> ActionCodec:
    from solver.memorinth.layout import DEAL_CHAR, N_ACTIONS
    return ActionCodec(N_ACTIONS, DEAL_CHAR + 8)   # chance: the deal's cards 401..424 and characters 430..437


def _mnemonic_codec(game: Game) -> ActionCodec:
    from solver.mnemonic.cards import DECK_SIZE
    from solver.mnemonic.state import GROUP_CARD, RESULT, RESULTS
    # ``1000 + 10 card + skill`` is the largest decision id (skills per character are at most 8 < 10)
    return ActionCodec(GROUP_CARD + 10 * DECK_SIZE, RESULT + len(RESULTS))


def _aetherya_codec(game: Game) -> ActionCodec:
    from solver.aetherya.state import A_TRAFFIC, C_TILE
    from solver.aetherya.tiles import TILE_SLUGS
    # ``1200 + seat * 64 + stone * 16 + kind`` (4 seats) is the largest decision id; chance ends with the tiles
    return ActionCodec(A_TRAFFIC + 4 * 64, C_TILE + len(TILE_SLUGS))


def _embers_codec(game: Game) -> ActionCodec:
    return EmbersCodec(len(game.deck.cards), len(game.deck.memory))


#: Aetherya scores, bounded crudely but safely (``docs/openspiel.md``): a 16-cell kingdom has at most 15
#: connections per Tribe card worth at most 3 points (+720) or -1 (-240), at most 120 connected pairs in
#: conflict (-240), Dragons between -96 and +18, all 15 Legends are worth 44, Power Stones at most 9.
AETHERYA_KINGDOM_RANGE = (-600.0, 800.0)
AETHERYA_COOP_RANGE = (-650.0, 800.0)       # the lowest kingdom minus the discarded Legends (at most 44)
AETHERYA_SOLO_RANGE = (-1800.0, 2250.0)     # three Ages' kingdoms minus their Legends (44 in all); failure is 0


def _aetherya_range(game: Game) -> tuple[float, float]:
    return {"coop": AETHERYA_COOP_RANGE, "solo": AETHERYA_SOLO_RANGE}.get(game.mode, AETHERYA_KINGDOM_RANGE)


def _memorinth_root(game: Game) -> State | None:
    return game.new_initial_state(0) if game.params["chance_setup"] else None


def _aetherya_utility(game: Game) -> Utility:
    return Utility.IDENTICAL if game.mode in ("coop", "solo") else game.utility


#: Forgotten cell planes: Brain, no tile, face down unseen (``?``), removed unseen (``-?``), then per pair:
#: face down seen, face up, removed after being seen.
FORGOTTEN_FIXED_PLANES = 4


def _forgotten_pieces(game: Game) -> list[tuple[str, tuple[int, ...]]]:
    from solver.forgotten.state import PHASES
    cells = game.board.cells
    return [("cells", (cells, FORGOTTEN_FIXED_PLANES + 3 * game.pairs)), ("phase", (len(PHASES),)),
            ("first", (cells,))]


def _forgotten_fill(game: Game, observation: dict, planes: dict) -> None:
    """One-hot planes of the players' common view (FG-13: both see every flip), from its notation rows."""
    from solver.forgotten.notation import DOWN, HIDDEN, REMOVED, UP, parse_row
    from solver.forgotten.state import PHASES
    cells = [cell for row in observation["board"]
             for cell in parse_row(row, game.width, game.pairs, "observation.board")]
    grid = planes["cells"]
    for c, cell in enumerate(cells):
        if cell.brain:
            grid[c, 0] = 1
        elif cell.tile == -1:
            grid[c, 1] = 1
        elif cell.tile == HIDDEN:
            grid[c, 2 if cell.status == DOWN else 3] = 1
        else:
            grid[c, FORGOTTEN_FIXED_PLANES + 3 * cell.tile + {DOWN: 0, UP: 1, REMOVED: 2}[cell.status]] = 1
    planes["phase"][PHASES.index(observation["phase"])] = 1
    if "first" in observation:
        planes["first"][game.board.parse(observation["first"], "observation.first")] = 1


def _win_or_lose(game: Game) -> tuple[float, float]:
    return (0.0, 1.0)


FACTS: dict[str, GameFacts] = {
    "aetherya": GameFacts("aetherya", lambda g: g.num_players, _aetherya_codec, _aetherya_range, 4000,
                          explicit_root=lambda g: g.new_root_state(), utility=_aetherya_utility),
    "embers": GameFacts("embers", lambda g: 2, _embers_codec, _win_or_lose, 2000),
    "forgotten": GameFacts("forgotten", lambda g: 2, _forgotten_codec, _win_or_lose, 2000,
                           tensor=TensorLayout(_forgotten_pieces, _forgotten_fill)),
    "memorinth": GameFacts("memorinth", lambda g: g.rules.players, _memorinth_codec, _win_or_lose, 2000,
                           explicit_root=_memorinth_root),
    "mnemonic": GameFacts("mnemonic", lambda g: g.params["players"], _mnemonic_codec, _win_or_lose, 1000),
}
