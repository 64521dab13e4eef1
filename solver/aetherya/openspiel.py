"""Aetherya for OpenSpiel and the batched environment: action ids, returns, observation tensor.

What a player knows (AE-22, AE-41): every face-up card, the discard piles in order, the draw pile's
size (its cards once it was re-formed from the discard, AE-19), the Legends, the tiles in play, and
who peeked at which face-down tile with the Palantir. Nobody knows a face-down card (its owner
neither), a face-down tile or the draw order; a player knows their own starting cards before they
are arranged and the tiles they peeked at. So those two are the private pieces and everything else
is public. ``P`` is the number of players, ``L`` the cards in the deck (``2 P`` of each of the ten
kinds; 40 in solo), ``T = 12 P`` the tiles (12 per family). Layout (``docs/openspiel.md``):

===================  ============  ===================================================================
piece                shape         meaning
===================  ============  ===================================================================
``kingdoms``         P x 16 x 12   each cell: the face-up card (10 kinds), face down, or empty
``discard``          D x L x 10    each discard pile (D: 2 in co-op, else 1) from the top, card by card
``pile``             12            the draw pile's size / L, whether its cards are known, and if so how
                                   many of each kind / L
``unseen``           10            cards of each kind nobody has seen (deck minus everything face up,
                                   discarded, held or in a known pile) / L
``start``            P             starting cards each player holds before arranging them / 4
``hold``             16            the card being placed (10 kinds, none), where it came from (take,
                                   draw, none), the pile taken from (2)
``phase``            18            the phase (``solver/aetherya/state.py`` ``PHASES``)
``to_move``          P + 1         who acts (the last entry: a chance event or the end)
``seat``             P             whose turn it is
``turn``             1             turns played / 100
``flags``            6             Legend claimed this turn, then after a refill: nothing, end-turn,
                                   finish, next player (co-op)
``legends``          15            the Legend row
``legend_deck``      1             Legends left in the deck / 15
``held``             P x 15        the Legends each player holds
co-op: ``box``, ``legend_discard`` (15 each), ``wrote`` (1)
solo: ``age`` 3, ``age_rows`` 3 x 15, ``written`` 15, ``age_scores`` 3 (/ 100), ``failed`` 1,
``pair`` 2 x 13 (the two cards of take+draw: kind, from take or draw, present), ``draws`` 1
objects: ``territory`` P x 16 x (1 + T) (a tile face down, or the face-up tile), ``accords`` and
``staffs`` P x 16 x P (the family of the tile on a card), ``owned`` P x T, ``tile_discard`` T,
``unrevealed`` P, ``undealt`` P (/ 12), ``pending`` T + 1, ``peeks`` P x P x 16 (who peeked where),
``peeks_used`` 1
``mine``             4 + ...       private: the player's starting cards (10 kinds, / 4); objects: the
                                   tile under each territory they peeked at (P x 16 x T)
===================  ============  ===================================================================
"""

from __future__ import annotations

import numpy as np

from solver.aetherya.cards import CARD_TYPES, deck_counts
from solver.aetherya.state import A_TRAFFIC, C_TILE, PHASES, SOLO_DECK_PLAYERS, AetheryaState
from solver.aetherya.tiles import FAMILY_SIZE, TILE_SLUGS, family_tiles, tile_family, tile_kind
from solver.game import Game, Utility
from solver.kernels import aetherya as kernel
from solver.learning import ActionCodec, KernelRules, Piece

MAX_MOVES = 4000
CELLS, LEGEND_COUNT = 16, 15
SCALE = 100.0
AFTER_REFILL = ("", "end-turn", "finish", "coop-next")
HOLD_FROM = ("take", "draw")


def num_players(game: Game) -> int:
    return game.num_players


def codec(game: Game) -> ActionCodec:
    """``1200 + seat * 64 + stone * 16 + kind`` (4 seats) is the largest decision id; chance ends with the tiles."""
    return ActionCodec(A_TRAFFIC + 4 * 64, C_TILE + len(TILE_SLUGS))


def utility(game: Game) -> Utility:
    """Co-op and solo share one score (identical); the base and Objects games score each kingdom (general-sum)."""
    return Utility.IDENTICAL if game.mode in ("coop", "solo") else game.utility


def explicit_root(game: Game) -> AetheryaState:
    """The set-up is our own chance nodes: the Legends, the starting cards, the territories, the tiles."""
    return game.new_root_state()


def setup_steps(game: Game) -> int:
    """The set-up's chance outcomes: the Legends, 4 starting cards and 12 territories a player (and 12 tiles a
    player with Objects), the first discards."""
    legends = LEGEND_COUNT if game.mode == "solo" else 8
    tiles = 12 * game.num_players if game.mode == "objects" else 0
    return legends + 16 * game.num_players + tiles + 2


def chance_steps(game: Game, decisions: int) -> int:
    """At most two draws per decision (``draw2``; a Legend refill, a re-formed pile), and the territories and first
    discard of the two later solo Ages."""
    return 2 * decisions + (2 * 13 if game.mode == "solo" else 0)


# -- the returns ------------------------------------------------------------------------------------------------
#: A board total (AE-1 to AE-7) lies in [MIN_BOARD[P], MAX_BOARD], derived by enumerating every Portal layout of
#: the 4x4 kingdom with at most 2P Portals (``benchmarks/bench_openspiel_bounds.py`` recomputes them): the pairs
#: that score are a Tribe and a Terrain, at most 2 points (3 for an orthogonal Goblin-Swamp pair), so they score
#: at most the heaviest Tribe/Terrain cut of the connection graph, 72 on every layout; three tamed Dragons add
#: 18. A conflict or a Swamp costs at most 2 per connected pair (at most 36 pairs with 4 Portals, 40 with more)
#: and each of the 2P Dragons at most 6. The best board a search of hands found scores 48 (base, 2 players).
MAX_BOARD = 72 + 18
MIN_BOARD = {2: -2 * 36 - 6 * 4, 3: -2 * 40 - 6 * 6, 4: -2 * 40 - 6 * 8}
DRAGON_MAX, DRAGON_COST = 18, 6
#: all 15 Legends are worth 44 points; the Power Stones' units digit at most 9 (AE-30)
LEGEND_POINTS, STONES_MAX = 44, 9


def utility_range(game: Game) -> tuple[float, float]:
    """Bounds every return lies in: a kingdom's score with every Legend (base, Objects with the Stones), the
    lowest kingdom less every Legend discarded (co-op), three Ages (solo, less their Legends; failure is 0)."""
    low = MIN_BOARD[SOLO_DECK_PLAYERS if game.mode == "solo" else game.num_players]
    if game.mode == "coop":
        return (float(low - LEGEND_POINTS), float(MAX_BOARD))
    if game.mode == "solo":
        return (float(3 * low - LEGEND_POINTS), float(3 * MAX_BOARD))
    stones = STONES_MAX if game.mode == "objects" else 0
    return (float(low), float(MAX_BOARD + LEGEND_POINTS + stones))


# -- the observation tensor -----------------------------------------------------------------------------------
def _deck_size(game: Game) -> int:
    return CARD_TYPES * deck_counts(SOLO_DECK_PLAYERS if game.mode == "solo" else game.num_players)[0]


def _tiles(game: Game) -> int:
    return FAMILY_SIZE * game.num_players


def public_pieces(game: Game) -> list[Piece]:
    p, deck, mode = game.num_players, _deck_size(game), game.mode
    piles = 2 if mode == "coop" else 1
    pieces = [Piece("kingdoms", (p, CELLS, CARD_TYPES + 2)), Piece("discard", (piles, deck, CARD_TYPES)),
              Piece("pile", (2 + CARD_TYPES,)), Piece("unseen", (CARD_TYPES,)), Piece("start", (p,)),
              Piece("hold", (CARD_TYPES + 1 + 3 + 2,)), Piece("phase", (len(PHASES),)), Piece("to_move", (p + 1,)),
              Piece("seat", (p,)), Piece("turn", (1,)), Piece("flags", (1 + len(AFTER_REFILL) + 1,)),
              Piece("legends", (LEGEND_COUNT,)), Piece("legend_deck", (1,)), Piece("held", (p, LEGEND_COUNT))]
    if mode == "coop":
        pieces += [Piece("box", (LEGEND_COUNT,)), Piece("legend_discard", (LEGEND_COUNT,)), Piece("wrote", (1,))]
    if mode == "solo":
        pieces += [Piece("age", (3,)), Piece("age_rows", (3, LEGEND_COUNT)), Piece("written", (LEGEND_COUNT,)),
                   Piece("age_scores", (3,)), Piece("failed", (1,)), Piece("pair", (2, CARD_TYPES + 3)),
                   Piece("draws", (1,))]
    if mode == "objects":
        t = _tiles(game)
        pieces += [Piece("territory", (p, CELLS, 1 + t)), Piece("accords", (p, CELLS, p)),
                   Piece("staffs", (p, CELLS, p)), Piece("owned", (p, t)), Piece("tile_discard", (t,)),
                   Piece("unrevealed", (p,)), Piece("undealt", (p,)), Piece("pending", (t + 1,)),
                   Piece("peeks", (p, p, CELLS)), Piece("peeks_used", (1,))]
    return pieces


def private_pieces(game: Game) -> list[Piece]:
    pieces = [Piece("mine", (CARD_TYPES,))]
    if game.mode == "objects":
        pieces.append(Piece("peeked", (game.num_players, CELLS, _tiles(game))))
    return pieces


def _tile(tile: int) -> int:
    """A tile's index among the game's ``12 P`` tiles."""
    return tile_family(tile) * FAMILY_SIZE + tile_kind(tile)


def _legends(plane: np.ndarray, numbers: list[int]) -> None:
    for n in numbers:
        plane[n - 1] = 1


def fill_public(game: Game, state: AetheryaState, planes: dict[str, np.ndarray]) -> None:
    players, deck = state.players, _deck_size(game)
    seen = np.zeros(CARD_TYPES)
    kingdoms = planes["kingdoms"]
    for q in range(players):
        for c, card in enumerate(state.kingdoms[q]):
            if card < 0:
                kingdoms[q, c, CARD_TYPES + 1] = 1
            elif state.hidden[q] >> c & 1:
                kingdoms[q, c, CARD_TYPES] = 1
            else:
                kingdoms[q, c, card] = 1
                seen[card] += 1
        planes["start"][q] = len(state.start[q]) / 4
        _legends(planes["held"][q], state.held[q])
    for i, pile in enumerate(state.discards):
        for depth, card in enumerate(reversed(pile)):
            planes["discard"][i, depth, card] = 1
            seen[card] += 1
    pile = planes["pile"]
    pile[0] = sum(state.pile) / deck
    if state.pile_known:
        pile[1] = 1
        pile[2:] = np.asarray(state.pile) / deck
        seen += state.pile
    hold = planes["hold"]
    if state.hold >= 0:
        hold[state.hold] = 1
        seen[state.hold] += 1
        hold[CARD_TYPES + 1 + HOLD_FROM.index(state.hold_from)] = 1
    else:
        hold[CARD_TYPES] = 1
        hold[CARD_TYPES + 3] = 1
    hold[CARD_TYPES + 4 + state.hold_pile] = 1
    for card, _ in state.pair:
        seen[card] += 1
    total = np.asarray(deck_counts(SOLO_DECK_PLAYERS if state.mode == "solo" else players), dtype=float)
    planes["unseen"][:] = (total - seen) / deck
    planes["phase"][PHASES.index(state.phase)] = 1
    actor = state.current_player()
    planes["to_move"][actor if actor >= 0 else players] = 1
    planes["seat"][state.to_move] = 1
    planes["turn"][0] = state.turn / SCALE
    flags = planes["flags"]
    flags[0] = state.claimed
    flags[1 + AFTER_REFILL.index(state.after_refill)] = 1
    _legends(planes["legends"], state.row)
    planes["legend_deck"][0] = len(state.legend_deck) / LEGEND_COUNT
    if state.mode == "coop":
        _legends(planes["box"], state.box)
        _legends(planes["legend_discard"], state.legend_discard)
        planes["wrote"][0] = state.wrote_this_round
    if state.mode == "solo":
        _fill_solo(state, planes)
    if state.mode == "objects":
        _fill_objects(state, planes)


def _fill_solo(state: AetheryaState, planes: dict[str, np.ndarray]) -> None:
    planes["age"][state.age] = 1
    for i, row in enumerate(state.rows):
        _legends(planes["age_rows"][i], row)
    _legends(planes["written"], state.written)
    for i, score in enumerate(state.age_scores):
        planes["age_scores"][i] = score / SCALE
    planes["failed"][0] = state.failed
    for i, (card, source) in enumerate(state.pair):
        planes["pair"][i, card] = 1
        planes["pair"][i, CARD_TYPES + HOLD_FROM.index(source)] = 1
        planes["pair"][i, CARD_TYPES + 2] = 1
    planes["draws"][0] = state.draws_needed


def _fill_objects(state: AetheryaState, planes: dict[str, np.ndarray]) -> None:
    players = state.players
    territory = planes["territory"]
    for q in range(players):
        for c in range(CELLS):
            tile = state.territory_tiles[q][c]
            if tile >= 0:
                territory[q, c, 1 + _tile(tile) if state.face_up_tiles[q] >> c & 1 else 0] = 1
            if state.accords[q][c] >= 0:
                planes["accords"][q, c, tile_family(state.accords[q][c])] = 1
            if state.staffs[q][c] >= 0:
                planes["staffs"][q, c, tile_family(state.staffs[q][c])] = 1
        for tile in state.owned[q]:
            planes["owned"][q, _tile(tile)] = 1
        planes["undealt"][q] = len(state.undealt[q]) / FAMILY_SIZE
        for slot in state.known[q]:
            planes["peeks"][q, slot // CELLS, slot % CELLS] = 1
    for tile in state.tile_discard:
        planes["tile_discard"][_tile(tile)] = 1
    for tile in state.unrevealed:
        planes["unrevealed"][tile_family(tile)] += 1 / FAMILY_SIZE
    planes["pending"][_tile(state.pending_tile) if state.pending_tile >= 0 else -1] = 1
    planes["peeks_used"][0] = state.peeks_used


def fill_private(game: Game, state: AetheryaState, player: int, planes: dict[str, np.ndarray]) -> None:
    for card in state.start[player]:
        planes["mine"][card] += 0.25
    if state.mode == "objects":
        peeked = planes["peeked"]
        for slot in state.known[player]:
            q, c = divmod(slot, CELLS)
            tile = state.territory_tiles[q][c]
            if tile >= 0:
                peeked[q, c, _tile(tile)] = 1


# -- the batched environment: N rows of the step kernel ----------------------------------------------------------
#: the modes the step kernel plays (``src/aetherya_step.pxi``: base, co-op and Objects at 2-4 players, the solo
#: campaign), by its mode number
KERNEL_MODES = ("base", "coop", "solo", "objects")
#: the kernel's optional pieces (``observe``): co-op's, solo's, then Objects'; a mode without them passes ``[n, 0]``
#: arrays
OPTIONAL_PIECES = ("box", "legend_discard", "wrote", "age", "age_rows", "written", "age_scores", "failed", "pair",
                   "draws", "territory", "accords", "staffs", "owned", "tile_discard", "unrevealed", "undealt",
                   "pending", "peeks", "peeks_used")
_L = kernel.layout()


def kernel_config(game: Game) -> np.ndarray:
    """The step kernel's ``config``: ``(mode, players)``, mode 0 base, 1 co-op, 2 solo, 3 Objects; with Objects, the
    12 tile kinds of each seat's family follow (4 seats; ``family_tiles``: seats beyond the file reuse its last)."""
    config = [KERNEL_MODES.index(game.mode), game.num_players]
    if game.mode == "objects":
        config += [tile_kind(t) for seat in range(4) for t in family_tiles(game.families, seat)]
    return np.array(config, dtype=np.int32)


def _flags(row: np.ndarray, first: int) -> list[int]:
    """The numbers ``n`` (1..15) set in ``row[first + n]``."""
    return [n for n in range(1, LEGEND_COUNT + 1) if row[first + n]]


def state_of_row(game: Game, row: np.ndarray) -> AetheryaState:
    """Our state of a step-kernel row (the layout of ``src/aetherya_step.pxi``)."""
    players = game.num_players
    state = game.new_root_state()
    state.pile = row[_L["PILE"]:_L["PILE"] + CARD_TYPES].tolist()
    state.pile_known = bool(row[_L["pile_known"]])
    state.kingdoms = [row[_L["KINGDOMS"] + 16 * q:_L["KINGDOMS"] + 16 * (q + 1)].tolist() for q in range(players)]
    state.hidden = row[_L["HIDDEN"]:_L["HIDDEN"] + players].tolist()
    cap = _L["DISC_CAP"]
    state.discards = [row[_L["DISC"] + cap * d:_L["DISC"] + cap * d + int(row[_L["n_discard"] + d])].tolist()
                      for d in range(len(state.discards))]
    state.start = [[k for k in range(CARD_TYPES) for _ in range(int(row[_L["START"] + q * CARD_TYPES + k]))]
                   for q in range(players)]
    state.row, state.legend_deck = _flags(row, _L["ROW"]), _flags(row, _L["DECK"])
    state.held = [_flags(row, _L["HELD"] + 16 * q) for q in range(players)]
    if game.mode == "coop":
        state.box, state.legend_discard = _flags(row, _L["BOX"]), _flags(row, _L["LDISCARD"])
        state.wrote_this_round = bool(row[_L["wrote"]])
    state.phase, state.to_move, state.turn = PHASES[int(row[_L["phase"]])], int(row[_L["to_move"]]), int(row[_L["turn"]])
    state.hold = int(row[_L["hold"]])
    state.hold_from = HOLD_FROM[int(row[_L["hold_from"]])] if row[_L["hold_from"]] >= 0 else ""
    state.hold_pile, state.claimed = int(row[_L["hold_pile"]]), bool(row[_L["claimed"]])
    state.after_refill = AFTER_REFILL[int(row[_L["after"]])]
    if game.mode == "solo":
        _solo_of_row(state, row)
    if game.mode == "objects":
        _objects_of_row(state, row)
    return state


def _tiles_of(row: np.ndarray, first: int) -> list[int]:
    """The tiles (sorted, with their copies) of a block of 64 tile counts."""
    return [tile for tile in range(64) for _ in range(int(row[first + tile]))]


def _objects_of_row(state: AetheryaState, row: np.ndarray) -> None:
    players = state.players
    undealt = _tiles_of(row, _L["UNDEALT"])
    state.undealt = [[t for t in undealt if t >> 4 == q] for q in range(players)]
    state.owned = [_tiles_of(row, _L["OWNED"] + 64 * q) for q in range(players)]
    for name, first in (("territory_tiles", "TERR"), ("accords", "ACCORDS"), ("staffs", "STAFFS")):
        setattr(state, name, [row[_L[first] + 16 * q:_L[first] + 16 * (q + 1)].tolist() for q in range(players)])
    state.face_up_tiles = row[_L["FACE_UP"]:_L["FACE_UP"] + players].tolist()
    state.tile_discard, state.unrevealed = _tiles_of(row, _L["TDISC"]), _tiles_of(row, _L["UNREV"])
    state.known = [[slot for slot in range(64) if row[_L["KNOWN"] + 64 * q + slot]] for q in range(players)]
    state.pending_tile, state.peeks_used = int(row[_L["pending"]]), int(row[_L["peeks_used"]])


def _solo_of_row(state: AetheryaState, row: np.ndarray) -> None:
    state.age, state.failed = int(row[_L["age"]]), bool(row[_L["failed"]])
    state.rows = [[n for n in range(1, LEGEND_COUNT + 1) if row[_L["SROW"] + n] == age + 1] for age in range(3)]
    state.written = _flags(row, _L["WRITTEN"])
    state.age_scores = row[_L["AGE_SCORES"]:_L["AGE_SCORES"] + int(row[_L["n_scores"]])].tolist()
    pair = row[_L["PAIR"]:_L["PAIR"] + 2 * int(row[_L["n_pair"]])].tolist()
    state.pair = [(pair[k], HOLD_FROM[pair[k + 1]]) for k in range(0, len(pair), 2)]
    state.draws_needed = int(row[_L["draws"]])


class AetheryaBatch(KernelRules):
    """N Aetherya games (base, Objects, co-op or solo) as rows of the step kernel (``src/aetherya_step.pxi``,
    ``solver/openspiel/batched.py``): the deal of each seed, random legal actions, checks, steps and every chance
    event (the row's own splitmix64 stream), legal masks, returns and observations by the kernel, one call each."""

    def __init__(self, game: Game, n: int) -> None:
        self.game = game
        super().__init__(kernel, kernel_config(game), np.zeros((n, kernel.state_len()), dtype=np.int32))
        self.drawn = np.zeros((n, kernel.max_draws()), dtype=np.int32)
        self.optional = np.zeros((n, 0), dtype=np.float32)

    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        """A new game in each slot, its set-up (Legends, starting cards) drawn from the seed's stream to the first
        decision (no deal is decided before it: ``redeal`` changes nothing)."""
        kernel.deal(self.states, self.rule_data, np.asarray(slots, dtype=np.int32),
                    np.asarray(seeds, dtype=np.uint64))
        kernel.players(self.states, self.to_act)

    def apply_checked(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
                      drawn: list[list[int]] | None) -> int:
        """Check and apply every slot's action, then draw its chance events, in one kernel call: -1, or the first
        illegal slot (nothing applied)."""
        bad = kernel.step(self.states, self.rule_data, np.ascontiguousarray(actions, dtype=np.int32),
                          np.ascontiguousarray(settle, dtype=np.uint8), self.drawn, self.to_act)
        if bad < 0:
            self.record_drawn(self.drawn, drawn)
        return bad

    def returns(self) -> np.ndarray:
        out = np.zeros((len(self.states), self.game.num_players), dtype=np.float64)
        kernel.returns(self.states, self.rule_data, out)
        return out

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        rows = len(self.states)
        flat = {name: plane.reshape(rows, -1) for name, plane in planes.items()}
        names = [p.name for p in public_pieces(self.game)[:14]]
        extra = [flat.get(name, self.optional) for name in OPTIONAL_PIECES]
        kernel.observe(self.states, self.rule_data, np.ascontiguousarray(players, dtype=np.int32),
                       *(flat[name] for name in names), *extra, flat["mine"], flat.get("peeked", self.optional))

    def state(self, slot: int) -> AetheryaState:
        return state_of_row(self.game, self.states[slot])


def batch_rules(game: Game, n: int, redeal: bool = True) -> AetheryaBatch:
    """The batched environment's rules: the step kernel's rows, in every mode."""
    return AetheryaBatch(game, n)
