"""The Aetherya rules engine: one :class:`AetheryaState` for every mode.

Modes: ``base`` (2-4 players), ``objects`` (Objects and Characters tiles,
2-4 players), ``coop`` (Cooperative, 2-4 players) and ``solo`` (the 3-Age
campaign, 1 player). The rules, with the rulebook passages and the
interpretation ids (AE-17 onward) they rest on, are in
``docs/rules/aetherya.md``; the JSON form, the notation and the move strings in
``docs/formats/aetherya.md``.

Every draw and deal is a chance node whose outcomes are the card kinds (or
Legends, or tiles) with probabilities proportional to their copies in the pile:
the order of a shuffled pile is never stored, it is drawn when a card is.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from solver.aetherya.cards import (CARD_TYPES, CELL_NAMES, CENTRE, DRAGON, LEGENDS, LETTERS, LOCKED, MODES, RING,
                                   SOLO_ROWS, TRIBES, deck_counts, legend)
from solver.aetherya.notation import state_to_json, state_to_notation
from solver.aetherya.scoring import (BATTLES, KingdomScore, board_array, dragon_is_wild, legend_points, legend_slugs,
                                     satisfied_legends, score_board, sword_battles)
from solver.aetherya.tiles import (ACCORD, GRIFFIN, HAMMER, OBJECTS, PALANTIR, STAFF, STONES, SWORD, THIEF,
                                   TILE_SLUGS, TRAFFICKER, family_tiles, stone_value, tile_kind)
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidMoveError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, State

PERMS = tuple(itertools.permutations(range(4)))
BLOCKS = tuple(r * 4 + c for r in range(3) for c in range(3))  # top-left cell of each 2x2 block
ROW_SIZE = {2: 8, 3: 8, 4: 8}
COOP_ROW = {2: 4, 3: 3, 4: 2}  # errata: 4 at 2 players
SOLO_DECK_PLAYERS = 2  # "Only the base components for 2 players are used"

# -- actions ---------------------------------------------------------------------------
A_TAKE, A_TAKE2, A_DRAW, A_DRAW2, A_TAKE_DRAW = 0, 1, 2, 3, 4
A_PLACE = 10        # + pile * 16 + cell
A_REVEAL = 42       # + pile * 16 + cell
A_KEEP = 80         # + card kind
A_TILE_TAKE, A_TILE_REFUSE = 90, 91
A_CLAIM = 99        # + Legend number (100..114)
A_CLAIM_SWORD = 114  # + Legend number (122..125 for the battles)
A_END = 131
A_ARRANGE = 140     # + permutation index (24)
A_BLOCK = 170       # + block index (9)
A_NOSWAP = 180
A_SWAP = 200        # + (a - 1) * 15 + (b - 1)
A_LDISCARD = 440    # + Legend number (co-op group discard)
A_ACCORD = 500      # + cell
A_STAFF = 520       # + cell
A_HAMMER = 600      # + c1 * 16 + c2, c1 < c2
A_GRIFFIN = 900     # + seat * 16 + cell
A_PEEK = 1000       # + seat * 16 + cell
A_THIEF = 1100      # + seat * 16 + tile kind
A_TRAFFIC = 1200    # + seat * 64 + stone index * 16 + tile kind
C_CARD = 2000       # chance: + card kind
C_LEGEND = 2100     # chance: + Legend number
C_TILE = 2200       # chance: + tile kind

# -- phases ----------------------------------------------------------------------------
PHASES = ("legends", "start", "arrange", "territories", "tiles", "first-discard", "swap", "choose", "draw",
          "keep", "place", "tile", "end-turn", "refill", "reform", "legend-discard", "block", "over")


def cell_bit(cell: int) -> int:
    return 1 << cell


def cards_from_counts(counts: list[int]) -> str:
    """Sorted card letters of a count vector."""
    return "".join(LETTERS[k] * n for k, n in enumerate(counts))


class AetheryaState(State):
    """One Aetherya position (mutable; ``apply_action`` checks legality)."""

    # ------------------------------------------------------------------ construction
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.mode: str = game.mode
        self.players: int = game.num_players
        P = self.players
        self.kingdoms: list[list[int]] = [[-1] * 16 for _ in range(P)]
        self.hidden: list[int] = [0] * P
        self.pile: list[int] = deck_counts(SOLO_DECK_PLAYERS if self.mode == "solo" else P)
        self.pile_known = False
        self.discards: list[list[int]] = [[] for _ in range(2 if self.mode == "coop" else 1)]
        self.row: list[int] = []
        self.legend_deck: list[int] = list(range(1, 16))
        self.held: list[list[int]] = [[] for _ in range(P)]
        self.start: list[list[int]] = [[] for _ in range(P)]
        self.to_move = 0
        self.phase = "legends"
        self.turn = 0
        self.hold = -1
        self.hold_from = ""
        self.hold_pile = 0  # co-op: the discard pile a taken card came from (0 or 1)
        self.pair: list[tuple[int, str]] = []
        self.draws_needed = 0
        self.claimed = False
        self.after_refill = ""
        # co-op
        self.box: list[int] = []
        self.legend_discard: list[int] = []
        self.wrote_this_round = False
        # solo
        self.age = 0
        self.rows: list[list[int]] = [[], [], []]
        self.written: list[int] = []
        self.age_scores: list[int] = []
        self.failed = False
        # objects and characters
        self.families = game.families if self.mode == "objects" else ()
        self.undealt: list[list[int]] = [family_tiles(self.families, p) if self.mode == "objects" else []
                                         for p in range(P)]
        self.territory_tiles: list[list[int]] = [[-1] * 16 for _ in range(P)]
        self.face_up_tiles: list[int] = [0] * P
        self.owned: list[list[int]] = [[] for _ in range(P)]
        self.accords: list[list[int]] = [[-1] * 16 for _ in range(P)]
        self.staffs: list[list[int]] = [[-1] * 16 for _ in range(P)]
        self.tile_discard: list[int] = []
        self.unrevealed: list[int] = []  # tiles never revealed, discarded face down at the end of the game
        self.known: list[list[int]] = [[] for _ in range(P)]  # seat*16+cell peeked with the Palantir
        self.pending_tile = -1
        self.peeks_used = 0

    def clone(self) -> AetheryaState:
        copy = AetheryaState.__new__(AetheryaState)
        copy.__dict__.update(self.__dict__)
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                copy.__dict__[name] = [list(v) if isinstance(v, list) else v for v in value]
        return copy

    # ------------------------------------------------------------------ basic queries
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL_PLAYER
        if self.phase in ("legends", "start", "territories", "tiles", "first-discard", "draw", "refill", "reform"):
            return CHANCE_PLAYER
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def piles(self) -> int:
        return len(self.discards)

    def row_target(self) -> int:
        return COOP_ROW[self.players] if self.mode == "coop" else 8

    def board(self, seat: int) -> np.ndarray:
        return board_array(self.kingdoms[seat], self.hidden[seat])

    def mask(self, cells: list[int]) -> int:
        return sum(1 << c for c in range(16) if cells[c] >= 0)

    def stones(self, seat: int) -> int:
        """Units digit of the Power Stones ``seat`` owns (AE-30)."""
        return sum(stone_value(tile_kind(t)) for t in self.owned[seat]) % 10

    def score(self, seat: int) -> KingdomScore:
        """``seat``'s score sheet now (face-down cards score nothing; Legends held count in base modes)."""
        points = 0
        if self.mode in ("base", "objects"):
            points = legend_points(self.held[seat])
        if self.mode == "objects":
            points += self.stones(seat)
        return score_board(self.board(seat), self.mask(self.accords[seat]), self.mask(self.staffs[seat]), points)

    def claimable(self, seat: int) -> list[int]:
        """Legends in the row (solo: the current Age's row) that ``seat``'s revealed cards satisfy."""
        ok = satisfied_legends(self.board(seat))
        if self.mode == "solo":
            return sorted(n for n in self.rows[self.age] if n in ok and n not in self.written)
        return sorted(n for n in self.row if n in ok)

    def returns(self) -> list[float]:
        """Final scores (base, objects); the team score for everyone (co-op); the campaign score (solo)."""
        if self.mode == "solo":
            return [0.0 if self.failed else float(sum(self.age_scores))]
        totals = [self.score(p).total for p in range(self.players)]
        if self.mode == "coop":
            team = min(totals) - legend_points(self.legend_discard)
            return [float(team)] * self.players
        return [float(t) for t in totals]

    def winners(self) -> list[int]:
        """Seats with the best score, ties broken by the best categories (AE-13); co-op: all or none."""
        if self.mode == "coop":
            return list(range(self.players)) if self.returns()[0] > 0 else []
        if self.mode == "solo":
            return [] if self.failed else [0]
        keys = [self.score(p).rank_key() for p in range(self.players)]
        best = max(keys)
        return [p for p in range(self.players) if keys[p] == best]

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE_PLAYER:
            return super().chance_outcomes()
        if self.phase in ("legends", "refill"):
            n = len(self.legend_deck)
            return [(C_LEGEND + leg, 1.0 / n) for leg in sorted(self.legend_deck)]
        if self.phase == "tiles":
            seat = self._tile_deal_seat()
            kinds: dict[int, int] = {}
            for t in self.undealt[seat]:
                kinds[tile_kind(t)] = kinds.get(tile_kind(t), 0) + 1
            n = len(self.undealt[seat])
            return [(C_TILE + k, c / n) for k, c in sorted(kinds.items())]
        counts = list(self.pile)
        if self.phase == "start":
            seat = self._start_seat()
            for k in self.start[seat]:
                counts[k] = 0
        n = sum(counts)
        return [(C_CARD + k, c / n) for k, c in enumerate(counts) if c > 0]

    def _start_seat(self) -> int:
        return next(p for p in range(self.players) if len(self.start[p]) < 4)

    def _territory_target(self) -> tuple[int, int]:
        for p in range(self.players):
            for c in RING:
                if self.kingdoms[p][c] < 0:
                    return p, c
        raise AssertionError("no territory left to deal")

    def _tile_deal_seat(self) -> int:
        return next(p for p in range(self.players) if self.undealt[p])

    def _tile_deal_cell(self, seat: int) -> int:
        return next(c for c in RING if self.territory_tiles[seat][c] < 0)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.current_player() == CHANCE_PLAYER:
            return sorted(a for a, _ in self.chance_outcomes())
        handler = getattr(self, f"_legal_{self.phase.replace('-', '_')}")
        return sorted(handler())

    def _legal_arrange(self) -> list[int]:
        cards = self.start[self.to_move]
        seen, out = set(), []
        for i, perm in enumerate(PERMS):
            key = tuple(cards[j] for j in perm)
            if key not in seen:
                seen.add(key)
                out.append(A_ARRANGE + i)
        return out

    def _legal_swap(self) -> list[int]:
        a_row, b_row = self.rows[self.age], self.rows[self.age + 1]
        return [A_NOSWAP] + [A_SWAP + (a - 1) * 15 + (b - 1) for a in a_row for b in b_row]

    def _legal_block(self) -> list[int]:
        return [A_BLOCK + i for i in range(9)]

    def _legal_choose(self) -> list[int]:
        out = []
        if self.mode == "solo":
            if sum(self.pile) >= 2:
                out.append(A_DRAW2)
            if self.discards[0] and sum(self.pile) >= 1:
                out.append(A_TAKE_DRAW)
            if not out and sum(self.pile) >= 1:
                out.append(A_DRAW)
            return out
        if self.discards[0]:
            out.append(A_TAKE)
        if self.mode == "coop" and self.discards[1]:
            out.append(A_TAKE2)
        if sum(self.pile) >= 1:
            out.append(A_DRAW)
        return out

    def _legal_keep(self) -> list[int]:
        return sorted({A_KEEP + card for card, _ in self.pair})

    def _legal_place(self) -> list[int]:
        seat, card = self.to_move, self.hold
        out = []
        for pile in range(self.piles()):
            for c in range(16):
                hidden = self.hidden[seat] >> c & 1
                current = self.kingdoms[seat][c]
                if hidden or (current not in LOCKED and current != card):
                    out.append(A_PLACE + pile * 16 + c)
                if hidden and self.hold_from == "draw":
                    out.append(A_REVEAL + pile * 16 + c)
        return out

    def _legal_tile(self) -> list[int]:
        return [A_TILE_TAKE, A_TILE_REFUSE]

    def _legal_legend_discard(self) -> list[int]:
        return [A_LDISCARD + n for n in self.row]

    def _legal_end_turn(self) -> list[int]:
        return [A_END] + self._end_turn_options()

    def _end_turn_options(self) -> list[int]:
        """Everything the player may still do at the end of the turn, ``end`` excluded."""
        seat = self.to_move
        out: list[int] = []
        if not self.claimed:
            claim = self.claimable(seat)
            out += [A_CLAIM + n for n in claim]
            if self.mode == "objects" and self._owns(seat, SWORD):
                out += [A_CLAIM_SWORD + n for n in sorted(sword_battles(self.board(seat))) if n in self.row
                        and n not in claim]
        if self.mode != "objects":
            return out
        kinds = {tile_kind(t) for t in self.owned[seat]}
        board = self.board(seat)
        if ACCORD in kinds:
            out += [A_ACCORD + c for c in range(16) if board[c] in TRIBES and self.accords[seat][c] < 0]
        if STAFF in kinds:
            staffs = self.mask(self.staffs[seat])
            out += [A_STAFF + c for c in range(16) if board[c] == DRAGON and dragon_is_wild(board, c, staffs)]
        if HAMMER in kinds:
            out += [A_HAMMER + a * 16 + b for a in range(16) for b in range(a + 1, 16)
                    if not (self.hidden[seat] >> a & 1 or self.hidden[seat] >> b & 1)
                    and self.kingdoms[seat][a] != self.kingdoms[seat][b]]
        if GRIFFIN in kinds:
            for q in range(self.players):
                for c in range(16):
                    if self.territory_tiles[q][c] >= 0 and not self.face_up_tiles[q] >> c & 1:
                        out.append(A_GRIFFIN + q * 16 + c)
        palantirs = sum(1 for t in self.owned[seat] if tile_kind(t) == PALANTIR)
        if palantirs > self.peeks_used:
            for q in range(self.players):
                for c in range(16):
                    if (self.territory_tiles[q][c] >= 0 and not self.face_up_tiles[q] >> c & 1
                            and q * 16 + c not in self.known[seat]):
                        out.append(A_PEEK + q * 16 + c)
        if THIEF in kinds:
            for q in range(self.players):
                if q != seat:
                    out += sorted({A_THIEF + q * 16 + tile_kind(t) for t in self.owned[q] if tile_kind(t) in OBJECTS})
        if TRAFFICKER in kinds:
            my_stones = sorted({tile_kind(t) for t in self.owned[seat] if tile_kind(t) in STONES})
            for q in range(self.players):
                if q == seat:
                    continue
                theirs = sorted({tile_kind(t) for t in self.owned[q] if tile_kind(t) not in STONES})
                out += [A_TRAFFIC + q * 64 + (s - STONES[0]) * 16 + k for s in my_stones for k in theirs]
        return out

    def _owns(self, seat: int, kind: int) -> bool:
        return any(tile_kind(t) == kind for t in self.owned[seat])

    def _take_owned(self, seat: int, kind: int) -> int:
        """Remove and return ``seat``'s tile of ``kind`` (the lowest family first)."""
        tile = min(t for t in self.owned[seat] if tile_kind(t) == kind)
        self.owned[seat].remove(tile)
        return tile

    # ------------------------------------------------------------------ applying
    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise InvalidMoveError("action", action, "expected an integer action")
        action = int(action)
        legal = self.legal_actions()
        if action not in legal:
            if self.phase == "over":
                raise IllegalMoveError("action", action, "the game is over")
            raise IllegalMoveError("action", action, f"not legal in phase {self.phase!r} "
                                                     f"(legal: {', '.join(self.action_to_string(a) for a in legal[:12])}"
                                                     f"{', ...' if len(legal) > 12 else ''})")
        if self.current_player() == CHANCE_PLAYER:
            self._apply_chance(action)
        else:
            getattr(self, f"_do_{self.phase.replace('-', '_')}")(action)

    def _apply_chance(self, action: int) -> None:
        phase = self.phase
        if phase in ("legends", "refill"):
            leg = action - C_LEGEND
            self.legend_deck.remove(leg)
            if phase == "refill":
                self.row = sorted(self.row + [leg])
                self._after_refill()
                return
            if self.mode == "solo":
                row = next(i for i in range(3) if len(self.rows[i]) < SOLO_ROWS[i])
                self.rows[row] = sorted(self.rows[row] + [leg])
                if all(len(self.rows[i]) == SOLO_ROWS[i] for i in range(3)):
                    self.phase = "start"
            else:
                self.row = sorted(self.row + [leg])
                if len(self.row) == self.row_target():
                    self.phase = "start"
            return
        if phase == "tiles":
            seat = self._tile_deal_seat()
            kind = action - C_TILE
            tile = min(t for t in self.undealt[seat] if tile_kind(t) == kind)
            self.undealt[seat].remove(tile)
            self.territory_tiles[seat][self._tile_deal_cell(seat)] = tile
            if not any(self.undealt):
                self.phase = "first-discard"
            return
        card = action - C_CARD
        self.pile[card] -= 1
        if phase == "start":
            seat = self._start_seat()
            self.start[seat] = sorted(self.start[seat] + [card])
            if all(len(s) == 4 for s in self.start):
                self.phase, self.to_move = "arrange", 0
        elif phase == "territories":
            seat, cell = self._territory_target()
            self.kingdoms[seat][cell] = card
            self.hidden[seat] |= cell_bit(cell)
            if all(min(k) >= 0 for k in self.kingdoms):
                self.phase = "tiles" if self.mode == "objects" else "first-discard"
        elif phase == "first-discard":
            pile = next(i for i, d in enumerate(self.discards) if not d)
            self.discards[pile].append(card)
            if all(self.discards):
                self.to_move = 0
                self.phase = "swap" if self.mode == "solo" and self.age == 0 and self.turn == 0 else "choose"
        elif phase == "reform":
            self.discards[0].append(card)
            self._next_player()
        elif phase == "draw":
            if self.draws_needed:
                self.pair.append((card, "draw"))
                self.draws_needed -= 1
                if not self.draws_needed:
                    self.phase = "keep"
            else:
                self.hold, self.hold_from, self.phase = card, "draw", "place"
        else:  # pragma: no cover - phases are exhaustive
            raise AssertionError(phase)

    # -- setup decisions
    def _do_arrange(self, action: int) -> None:
        seat = self.to_move
        perm = PERMS[action - A_ARRANGE]
        for i, cell in enumerate(CENTRE):
            self.kingdoms[seat][cell] = self.start[seat][perm[i]]
        self.start[seat] = []
        if seat + 1 < self.players:
            self.to_move = seat + 1
        else:
            self.to_move, self.phase = 0, "territories"

    def _do_swap(self, action: int) -> None:
        if action != A_NOSWAP:
            a, b = divmod(action - A_SWAP, 15)
            a, b = a + 1, b + 1
            lo, hi = self.rows[self.age], self.rows[self.age + 1]
            self.rows[self.age] = sorted([x for x in lo if x != a] + [b])
            self.rows[self.age + 1] = sorted([x for x in hi if x != b] + [a])
        if self.turn == 0 and self.age == 0:
            self.phase = "choose"
        else:
            self.phase = "block"

    def _do_block(self, action: int) -> None:
        corner = BLOCKS[action - A_BLOCK]
        cells = (corner, corner + 1, corner + 4, corner + 5)
        kept = [self.kingdoms[0][c] for c in cells]
        counts = deck_counts(SOLO_DECK_PLAYERS)
        for card in kept:
            counts[card] -= 1
        self.kingdoms[0] = [-1] * 16
        for cell, card in zip(CENTRE, kept):
            self.kingdoms[0][cell] = card
        self.hidden[0] = 0
        self.pile, self.pile_known = counts, False
        self.discards = [[]]
        self.phase = "territories"

    # -- the turn
    def _do_choose(self, action: int) -> None:
        if action in (A_TAKE, A_TAKE2):
            pile = action - A_TAKE
            self.hold, self.hold_from, self.phase = self.discards[pile].pop(), "take", "place"
            self.hold_pile = pile
        elif action == A_DRAW:
            self.phase = "draw"
        elif action == A_DRAW2:
            self.draws_needed, self.phase = 2, "draw"
        else:  # A_TAKE_DRAW
            self.pair = [(self.discards[0].pop(), "take")]
            self.draws_needed, self.phase = 1, "draw"

    def _do_keep(self, action: int) -> None:
        card = action - A_KEEP
        sources = [src for c, src in self.pair if c == card]
        kept_from = "draw" if "draw" in sources else "take"  # AE-33: a drawn copy keeps its options
        index = next(i for i, (c, src) in enumerate(self.pair) if c == card and src == kept_from)
        other = self.pair[1 - index][0]
        self.pair = []
        self.discards[0].append(other)
        self.hold, self.hold_from, self.phase = card, kept_from, "place"

    def _do_place(self, action: int) -> None:
        seat = self.to_move
        reveal = action >= A_REVEAL
        pile, cell = divmod(action - (A_REVEAL if reveal else A_PLACE), 16)
        was_hidden = self.hidden[seat] >> cell & 1
        if reveal:
            self.discards[pile].append(self.hold)
        else:
            self.discards[pile].append(self.kingdoms[seat][cell])
            self.kingdoms[seat][cell] = self.hold
            if self.accords[seat][cell] >= 0:  # AE-24: the Accord leaves with its Tribe
                self.tile_discard = sorted(self.tile_discard + [self.accords[seat][cell]])
                self.accords[seat][cell] = -1
        self.hidden[seat] &= ~cell_bit(cell)
        self.hold, self.hold_from, self.hold_pile = -1, "", 0
        if was_hidden and self.territory_tiles[seat][cell] >= 0:
            self.pending_tile = self.territory_tiles[seat][cell]
            self._clear_slot(seat, cell)
            self.phase = "tile"
            return
        self._after_placement()

    def _clear_slot(self, seat: int, cell: int) -> None:
        self.territory_tiles[seat][cell] = -1
        self.face_up_tiles[seat] &= ~cell_bit(cell)
        slot = seat * 16 + cell
        for p in range(self.players):
            if slot in self.known[p]:
                self.known[p].remove(slot)

    def _do_tile(self, action: int) -> None:
        seat = self.to_move
        if action == A_TILE_TAKE:
            self.owned[seat] = sorted(self.owned[seat] + [self.pending_tile])
        else:
            self.tile_discard = sorted(self.tile_discard + [self.pending_tile])
        self.pending_tile = -1
        self._after_placement()

    def _after_placement(self) -> None:
        seat = self.to_move
        if self.hidden[seat] == 0:
            if self.mode == "solo":
                self._end_age()
            else:
                self._game_over()
            return
        self._enter_end_turn()

    def _enter_end_turn(self) -> None:
        seat = self.to_move
        if self.mode == "coop":
            written = [n for n in self.claimable(seat)]
            if written:  # AE-37: every Legend the kingdom meets is written, into the box
                self.row = [n for n in self.row if n not in written]
                self.box = sorted(self.box + written)
                self.wrote_this_round = True
            self._refill_then("finish")
            return
        if self._end_turn_options():
            self.phase = "end-turn"
        else:
            self._finish_turn()

    def _do_end_turn(self, action: int) -> None:
        seat = self.to_move
        if action == A_END:
            self._finish_turn()
            return
        if A_CLAIM < action <= A_CLAIM + 15 or A_CLAIM_SWORD < action <= A_CLAIM_SWORD + 15:
            sword = action > A_CLAIM_SWORD
            number = action - (A_CLAIM_SWORD if sword else A_CLAIM)
            if sword:
                self.tile_discard = sorted(self.tile_discard + [self._take_owned(seat, SWORD)])
            self.claimed = True
            if self.mode == "solo":
                self.written = sorted(self.written + [number])
                self._continue_end_turn()
                return
            self.row.remove(number)
            self.held[seat] = sorted(self.held[seat] + [number])
            self._refill_then("end-turn")
            return
        self._play_tile(seat, action)
        self._continue_end_turn()

    def _continue_end_turn(self) -> None:
        if self._end_turn_options():
            self.phase = "end-turn"
        else:
            self._finish_turn()

    def _play_tile(self, seat: int, action: int) -> None:
        if A_ACCORD <= action < A_ACCORD + 16:
            self.accords[seat][action - A_ACCORD] = self._take_owned(seat, ACCORD)
        elif A_STAFF <= action < A_STAFF + 16:
            self.staffs[seat][action - A_STAFF] = self._take_owned(seat, STAFF)
        elif A_HAMMER <= action < A_HAMMER + 256:
            a, b = divmod(action - A_HAMMER, 16)
            self.tile_discard = sorted(self.tile_discard + [self._take_owned(seat, HAMMER)])
            for cells in (self.kingdoms[seat], self.accords[seat], self.staffs[seat]):
                cells[a], cells[b] = cells[b], cells[a]  # AE-28: tiles on the cards move with them
        elif A_GRIFFIN <= action < A_GRIFFIN + 64:
            q, cell = divmod(action - A_GRIFFIN, 16)
            taken = self.territory_tiles[q][cell]
            griffin = self._take_owned(seat, GRIFFIN)
            self._clear_slot(q, cell)
            self.territory_tiles[q][cell] = griffin
            self.face_up_tiles[q] |= cell_bit(cell)
            self.owned[seat] = sorted(self.owned[seat] + [taken])
        elif A_PEEK <= action < A_PEEK + 64:
            self.known[seat] = sorted(self.known[seat] + [action - A_PEEK])
            self.peeks_used += 1
        elif A_THIEF <= action < A_THIEF + 64:
            q, kind = divmod(action - A_THIEF, 16)
            self.tile_discard = sorted(self.tile_discard + [self._take_owned(seat, THIEF)])
            self.owned[seat] = sorted(self.owned[seat] + [self._take_owned(q, kind)])
        else:
            q, rest = divmod(action - A_TRAFFIC, 64)
            stone, kind = divmod(rest, 16)
            self.tile_discard = sorted(self.tile_discard + [self._take_owned(seat, TRAFFICKER)])
            given = self._take_owned(seat, STONES[stone])
            bought = self._take_owned(q, kind)
            self.owned[q] = sorted(self.owned[q] + [given])
            self.owned[seat] = sorted(self.owned[seat] + [bought])

    def _refill_then(self, after: str) -> None:
        if len(self.row) < self.row_target() and self.legend_deck:
            self.after_refill, self.phase = after, "refill"
        else:
            self.after_refill = after
            self._after_refill()

    def _after_refill(self) -> None:
        after, self.after_refill = self.after_refill, ""
        if len(self.row) < self.row_target() and self.legend_deck:
            self.after_refill, self.phase = after, "refill"
            return
        if after == "end-turn":
            self._continue_end_turn()
        elif after == "finish":
            self._finish_turn()
        else:  # after the co-op group discard
            self._coop_next()

    def _finish_turn(self) -> None:
        self.phase = "choose"  # provisional; replaced below
        if self.mode == "solo":
            if sum(self.pile) == 0:
                self._end_age()
            else:
                self._next_player()
            return
        if self.mode == "coop":
            if sum(self.pile) == 0 or self._legends_gone():
                self._game_over()
                return
            if self.to_move == self.players - 1 and not self.wrote_this_round and self.row:
                self.phase = "legend-discard"  # AE-38
                return
            self._coop_next()
            return
        if sum(self.pile) == 0:  # AE-19: the discard pile becomes the draw pile
            self.pile = [0] * CARD_TYPES
            for card in self.discards[0]:
                self.pile[card] += 1
            self.discards[0] = []
            self.pile_known = True
            if sum(self.pile):
                self.phase = "reform"
                return
        self._next_player()

    def _legends_gone(self) -> bool:
        return not self.row and not self.legend_deck

    def _do_legend_discard(self, action: int) -> None:
        number = action - A_LDISCARD
        self.row.remove(number)
        self.legend_discard = sorted(self.legend_discard + [number])
        self._refill_then("coop-next")

    def _coop_next(self) -> None:
        if self._legends_gone():
            self._game_over()
            return
        if self.to_move == self.players - 1:
            self.wrote_this_round = False
        self._next_player()

    def _next_player(self) -> None:
        self.to_move = (self.to_move + 1) % self.players
        self.turn += 1
        self.claimed = False
        self.peeks_used = 0
        self.phase = "choose"

    def _game_over(self) -> None:
        self.hidden = [0] * self.players  # AE-20: every face-down card is turned over
        for seat in range(self.players):  # "all tiles that have not been revealed are discarded"
            for cell in range(16):
                tile = self.territory_tiles[seat][cell]
                if tile >= 0:  # a face-up Griffin was seen; the others go unseen (AE-23)
                    face_up = self.face_up_tiles[seat] >> cell & 1
                    (self.tile_discard if face_up else self.unrevealed).append(tile)
                    self._clear_slot(seat, cell)
        self.tile_discard.sort()
        self.unrevealed.sort()
        self.phase = "over"

    def _end_age(self) -> None:
        """AE-34: the Age ends; failure unless every Legend of the Age is written."""
        self.hidden[0] = 0
        row = self.rows[self.age]
        if any(n not in self.written for n in row):
            self.failed = True
            self.phase = "over"
            return
        self.age_scores.append(self.score(0).total - legend_points(row))
        if self.age == 2:
            self.phase = "over"
            return
        self.age += 1
        self.written = []
        self.to_move = 0
        self.turn += 1
        self.claimed = False
        self.phase = "swap" if self.age == 1 else "block"

    # ------------------------------------------------------------------ move strings
    def action_to_string(self, action: int) -> str:
        action = int(action)
        if action >= C_TILE:
            return f"tile {TILE_SLUGS[action - C_TILE]}"
        if action >= C_LEGEND:
            return f"legend {LEGENDS[action - C_LEGEND - 1].slug}"
        if action >= C_CARD:
            return f"card {LETTERS[action - C_CARD]}"
        if action >= A_TRAFFIC:
            q, rest = divmod(action - A_TRAFFIC, 64)
            stone, kind = divmod(rest, 16)
            return f"trafficker {TILE_SLUGS[STONES[stone]]} p{q} {TILE_SLUGS[kind]}"
        for first, word, names in ((A_THIEF, "thief", TILE_SLUGS), (A_PEEK, "peek", CELL_NAMES),
                                   (A_GRIFFIN, "griffin", CELL_NAMES)):
            if action >= first:  # one of 16 tiles or cells of player q
                q, index = divmod(action - first, 16)
                return f"{word} p{q} {names[index]}"
        if action >= A_HAMMER:
            a, b = divmod(action - A_HAMMER, 16)
            return f"hammer {CELL_NAMES[a]} {CELL_NAMES[b]}"
        if action >= A_STAFF:
            return f"staff {CELL_NAMES[action - A_STAFF]}"
        if action >= A_ACCORD:
            return f"accord {CELL_NAMES[action - A_ACCORD]}"
        if action >= A_LDISCARD:
            return f"discard-legend {LEGENDS[action - A_LDISCARD - 1].slug}"
        if action >= A_SWAP:
            a, b = divmod(action - A_SWAP, 15)
            return f"swap {LEGENDS[a].slug} {LEGENDS[b].slug}"
        if action == A_NOSWAP:
            return "swap none"
        if action >= A_BLOCK:
            return f"block {CELL_NAMES[BLOCKS[action - A_BLOCK]]}"
        if action >= A_ARRANGE:
            cards = self.start[self.to_move] if self.phase == "arrange" else [0, 1, 2, 3]
            perm = PERMS[action - A_ARRANGE]
            return "arrange " + "".join(LETTERS[cards[j]] for j in perm)
        if action == A_END:
            return "end"
        if action > A_CLAIM_SWORD:
            return f"claim {LEGENDS[action - A_CLAIM_SWORD - 1].slug} sword"
        if action > A_CLAIM:
            return f"claim {LEGENDS[action - A_CLAIM - 1].slug}"
        if action == A_TILE_TAKE:
            return "tile take"
        if action == A_TILE_REFUSE:
            return "tile refuse"
        if action >= A_KEEP:
            return f"keep {LETTERS[action - A_KEEP]}"
        if action >= A_PLACE:
            reveal = action >= A_REVEAL
            pile, cell = divmod(action - (A_REVEAL if reveal else A_PLACE), 16)
            suffix = " pile2" if pile == 1 else ""
            return f"{'reveal' if reveal else 'place'} {CELL_NAMES[cell]}{suffix}"
        return {A_TAKE: "take", A_TAKE2: "take2", A_DRAW: "draw", A_DRAW2: "draw2",
                A_TAKE_DRAW: "take+draw"}.get(action, f"action {action}")

    def parse_move(self, text: str, field: str = "move") -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string")
        wanted = " ".join(text.strip().lower().split())
        for action in self.legal_actions():
            if self.action_to_string(action).lower() == wanted:
                return action
        if self.phase == "over":
            raise IllegalMoveError(field, text, "the game is over")
        words = wanted.split()
        if len(words) >= 2 and words[0] in ("place", "reveal") and words[1] not in CELL_NAMES \
                and len(words[1]) == 2 and words[1][0].isalpha() and words[1][1].isdigit():
            raise IllegalMoveError(field, text, f"{words[1]} is off the 4x4 kingdom (columns a-d, rows 1-4)")
        examples = ", ".join(self.action_to_string(a) for a in self.legal_actions()[:8])
        raise IllegalMoveError(field, text, f"not a legal move in phase {self.phase!r} (for example: {examples})")

    # ------------------------------------------------------------------ information
    def view(self, player: int) -> Any:
        """What ``player`` knows here (AE-22): an :class:`~solver.aetherya.view.AetheryaView`, built by the game
        (``view.py`` builds on this module, so the game, which imports both, makes the view)."""
        return self.game.view_of(self, player)

    def observation(self, player: int) -> dict[str, Any]:
        """``player``'s view as JSON (``docs/formats/aetherya.md``; it parses back as a position)."""
        return self.view(player).to_json()

    def resample_from_observation(self, player: int, rng: np.random.Generator) -> AetheryaState:
        """A full state drawn from those consistent with ``player``'s view: ``self.view(player).resample(rng)``."""
        return self.view(player).resample(rng)

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    def to_notation(self) -> str:
        return state_to_notation(self)

    # ------------------------------------------------------------------ invariants
    def card_counts(self) -> list[int]:
        """Copies of each card kind across every pile, kingdom, hand and pending card."""
        counts = list(self.pile)
        for cards in self.kingdoms:
            for c in cards:
                if c >= 0:
                    counts[c] += 1
        for pile in self.discards:
            for c in pile:
                counts[c] += 1
        for cards in self.start:
            for c in cards:
                counts[c] += 1
        for c, _ in self.pair:
            counts[c] += 1
        if self.hold >= 0:
            counts[self.hold] += 1
        return counts

    def legend_locations(self) -> list[int]:
        """Every Legend number wherever it is (row, deck, held, box, discard, solo rows), sorted."""
        found = list(self.row) + list(self.legend_deck) + list(self.box) + list(self.legend_discard)
        for held in self.held:
            found += held
        for row in self.rows:
            found += row
        return sorted(found)

    def tile_locations(self) -> list[int]:
        """Every tile wherever it is, sorted."""
        found = list(self.tile_discard) + list(self.unrevealed) + ([self.pending_tile] if self.pending_tile >= 0 else [])
        for seat in range(self.players):
            found += self.undealt[seat] + self.owned[seat]
            found += [t for t in self.territory_tiles[seat] + self.accords[seat] + self.staffs[seat] if t >= 0]
        return sorted(found)

    def expected_tiles(self) -> list[int]:
        if self.mode != "objects":
            return []
        return sorted(t for seat in range(self.players) for t in family_tiles(self.families, seat))

    def check_invariants(self, field: str = "state") -> None:
        """Raise :class:`ImpossibleStateError` when a card, Legend or tile is lost or duplicated."""
        deck = deck_counts(SOLO_DECK_PLAYERS if self.mode == "solo" else self.players)
        counts = self.card_counts()
        if counts != deck:
            diff = {LETTERS[k]: counts[k] - deck[k] for k in range(CARD_TYPES) if counts[k] != deck[k]}
            raise ImpossibleStateError(field, diff, "card counts do not add up to the deck "
                                                    f"({2 * (SOLO_DECK_PLAYERS if self.mode == 'solo' else self.players)}"
                                                    " copies of each kind; shown: surplus or shortfall)")
        legends = self.legend_locations()
        if self.mode == "solo":
            legends = sorted(legends)
        if legends != list(range(1, 16)):
            twice = sorted({n for n in legends if legends.count(n) > 1})
            missing = sorted(set(range(1, 16)) - set(legends))
            problem = "each of the 15 Legends must be in exactly one place (row, deck, held" + (
                ", box, discard" if self.mode == "coop" else ", Age rows" if self.mode == "solo" else "") + ")"
            details = ([f"in two places: {', '.join(legend_slugs(twice))}"] if twice else []) + \
                      ([f"missing: {', '.join(legend_slugs(missing))}"] if missing else [])
            raise ImpossibleStateError(f"{field}.legends", "; ".join(details), problem)
        if self.tile_locations() != self.expected_tiles():
            raise ImpossibleStateError(f"{field}.tiles", len(self.tile_locations()),
                                       "each tile of every family must be in exactly one place")


def legend_number(key: Any, field: str) -> int:
    """A Legend number from a slug or number."""
    return legend(key, field).number


__all__ = ["AetheryaState", "MODES", "BATTLES", "CENTRE", "RING", "SOLO_ROWS"]
