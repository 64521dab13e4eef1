"""Pure-Python twin of ``src/aetherya_step.pxi`` (and ``aetherya_objects.pxd``): N Aetherya games stepped together.

Same functions, same parameters, same results as the kernel (``tests/twins/test_aetherya_step.py`` checks it):
the rules of ``solver/aetherya/state.py`` on int32 rows of ``STATE_LEN`` words, chance events drawn from each
row's splitmix64 stream (``solver/twins/common.py``), kingdoms scored by ``solver/twins/aetherya_score.py``. Each
function reads a row into a Python list, plays on it and writes it back.
"""

from __future__ import annotations

import itertools

import numpy as np

from solver.twins.aetherya_play import board_value
from solver.twins.aetherya_score import connections, score_one
from solver.twins.common import MASK64, SplitMix64, stream_seed

# header words and blocks (the kernel's enum)
H_PHASE, H_TO_MOVE, H_TURN, H_HOLD, H_HOLD_FROM, H_HOLD_PILE, H_CLAIMED, H_AFTER = range(8)
H_PILE_KNOWN, H_WROTE, H_RNG_LO, H_RNG_HI, H_NDISC, H_AGE, H_FAILED = 8, 9, 10, 11, 12, 14, 15
PILE, HIDDEN, KINGDOMS, START, ROW, DECK, HELD, BOX, LDISCARD, DISC = 16, 26, 30, 94, 134, 150, 166, 230, 246, 262
DISC_CAP = 80
H_DRAWS, H_NPAIR, PAIR, H_NSCORES, AGE_SCORES, SROW, WRITTEN = 424, 425, 426, 430, 431, 434, 450
# Objects and Characters: a tile is family * 16 + kind; blocks indexed by tile hold counts
H_PENDING, H_PEEKS_USED, TERR, FACE_UP, ACCORDS, STAFFS, OWNED = 466, 467, 468, 532, 536, 600, 664
TDISC, UNREV, UNDEALT, KNOWN, STATE_LEN = 920, 984, 1048, 1112, 1368
BASE, COOP, SOLO, OBJECTS = 0, 1, 2, 3
P_LEGENDS, P_START, P_ARRANGE, P_TERRITORIES, P_TILES, P_FIRST_DISCARD, P_SWAP, P_CHOOSE = 0, 1, 2, 3, 4, 5, 6, 7
P_DRAW, P_KEEP, P_PLACE, P_TILE, P_END_TURN, P_REFILL, P_REFORM, P_LEGEND_DISCARD = 8, 9, 10, 11, 12, 13, 14, 15
P_BLOCK, P_OVER, N_PHASES = 16, 17, 18
CHANCE_PHASES = (P_LEGENDS, P_START, P_TERRITORIES, P_TILES, P_FIRST_DISCARD, P_DRAW, P_REFILL, P_REFORM)
AFTER_NOTHING, AFTER_END_TURN, AFTER_FINISH, AFTER_COOP_NEXT = range(4)
A_TAKE, A_DRAW, A_DRAW2, A_TAKE_DRAW, A_PLACE, A_REVEAL, A_KEEP, A_CLAIM, A_END = 0, 2, 3, 4, 10, 42, 80, 99, 131
A_TILE_TAKE, A_TILE_REFUSE, A_CLAIM_SWORD = 90, 91, 114
A_ARRANGE, A_BLOCK, A_NOSWAP, A_SWAP, A_LDISCARD = 140, 170, 180, 200, 440
A_ACCORD, A_STAFF, A_HAMMER, A_GRIFFIN, A_PEEK, A_THIEF, A_TRAFFIC = 500, 520, 600, 900, 1000, 1100, 1200
C_CARD, C_LEGEND, C_TILE = 2000, 2100, 2200
T_ACCORD, T_STAFF, T_SWORD, T_GRIFFIN, T_HAMMER, T_PALANTIR, T_STONE1 = range(7)
T_STONE4, T_TRAFFICKER, T_THIEF, TILE_KINDS = 9, 10, 11, 12
STONE_KINDS = range(T_STONE1, T_STONE4 + 1)
NUM_ACTIONS, KINDS, CELLS, LEGENDS, MAX_LEGAL, MAX_DRAWS = 1456, 10, 16, 15, 512, 128
CHANCE, TERMINAL = -1, -4
CENTRE = (5, 6, 9, 10)
RING = (0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15)
LEGEND_POINTS = (0, 2, 2, 2, 2, 2, 2, 4, 3, 3, 3, 3, 4, 4, 4, 4)
PERMS = tuple(itertools.permutations(range(4)))
ROW_TARGET = ((8, 8, 8, 8, 8), (0, 0, 4, 3, 2), (0, 4, 0, 0, 0), (8, 8, 8, 8, 8))
SOLO_ROWS = (4, 5, 6)
BLOCKS = (0, 1, 2, 4, 5, 6, 8, 9, 10)
UNEXPLORED, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON = 10, 4, 5, 6, 7, 8
BATTLES = {8: (GOBLINS, HUMANS), 9: (GOBLINS, ELVES), 10: (GOBLINS, DWARVES), 11: (ELVES, DWARVES)}


def state_len() -> int:
    return STATE_LEN


def max_draws() -> int:
    return MAX_DRAWS


def layout() -> dict[str, int]:
    return {"phase": H_PHASE, "to_move": H_TO_MOVE, "turn": H_TURN, "hold": H_HOLD, "hold_from": H_HOLD_FROM,
            "hold_pile": H_HOLD_PILE, "claimed": H_CLAIMED, "after": H_AFTER, "pile_known": H_PILE_KNOWN,
            "wrote": H_WROTE, "rng_lo": H_RNG_LO, "rng_hi": H_RNG_HI, "n_discard": H_NDISC, "PILE": PILE,
            "HIDDEN": HIDDEN, "KINGDOMS": KINGDOMS, "START": START, "ROW": ROW, "DECK": DECK, "HELD": HELD,
            "BOX": BOX, "LDISCARD": LDISCARD, "DISC": DISC, "DISC_CAP": DISC_CAP, "age": H_AGE, "failed": H_FAILED,
            "draws": H_DRAWS, "n_pair": H_NPAIR, "PAIR": PAIR, "n_scores": H_NSCORES, "AGE_SCORES": AGE_SCORES,
            "SROW": SROW, "WRITTEN": WRITTEN, "pending": H_PENDING, "peeks_used": H_PEEKS_USED, "TERR": TERR,
            "FACE_UP": FACE_UP, "ACCORDS": ACCORDS, "STAFFS": STAFFS, "OWNED": OWNED, "TDISC": TDISC, "UNREV": UNREV,
            "UNDEALT": UNDEALT, "KNOWN": KNOWN}


class Rules:
    def __init__(self, config: np.ndarray) -> None:
        if len(config) < 2 or len(config) != (50 if config[0] == OBJECTS else 2) \
                or not ((config[0] in (BASE, COOP, OBJECTS) and 2 <= config[1] <= 4)
                        or (config[0] == SOLO and config[1] == 1)):
            raise ValueError("config: expected (mode, players): mode 0 (base), 1 (co-op) or 3 (Objects, then the 12 "
                             "tile kinds of each of 4 families) with 2-4 players, or 2 (solo) with 1, got "
                             f"{list(config)}")
        for i in range(2, len(config)):
            if not 0 <= config[i] < TILE_KINDS:
                raise ValueError(f"config[{i}]: expected a tile kind 0..{TILE_KINDS - 1}, got {config[i]}")
        self.family = [[int(k) for k in config[2 + 12 * f:14 + 12 * f]] for f in range(4)]
        self.mode, self.players = int(config[0]), int(config[1])
        self.deck_players = 2 if self.mode == SOLO else self.players
        self.piles = 2 if self.mode == COOP else 1
        self.target = ROW_TARGET[self.mode][self.players]


# -- small queries ----------------------------------------------------------------------------------------------
def row_count(s: list[int]) -> int:
    return sum(s[ROW + 1:ROW + 16])


def deck_count(s: list[int]) -> int:
    return sum(s[DECK + 1:DECK + 16])


def pile_total(s: list[int]) -> int:
    return sum(s[PILE:PILE + KINDS])


def current_player(s: list[int]) -> int:
    if s[H_PHASE] == P_OVER:
        return TERMINAL
    return CHANCE if s[H_PHASE] in CHANCE_PHASES else s[H_TO_MOVE]


def board_codes(s: list[int], seat: int) -> list[int]:
    """The seat's 16 board codes: face-down and empty cells unexplored."""
    hidden = s[HIDDEN + seat]
    return [UNEXPLORED if s[KINGDOMS + seat * CELLS + c] < 0 or hidden >> c & 1 else s[KINGDOMS + seat * CELLS + c]
            for c in range(CELLS)]


def legends_met(s: list[int], seat: int) -> tuple[int, int]:
    """(bit n - 1 set when the seat's kingdom meets Legend n, its board total)."""
    scored = score_one(board_codes(s, seat))
    return scored[7], scored[6]


def claims(s: list[int], r: Rules, n: int) -> bool:
    if r.mode == SOLO:
        return s[SROW + n] == s[H_AGE] + 1 and not s[WRITTEN + n]
    return s[ROW + n] != 0


def claimable(s: list[int], r: Rules, seat: int) -> int:
    met = legends_met(s, seat)[0]
    return sum(1 << (n - 1) for n in range(1, LEGENDS + 1) if claims(s, r, n) and met >> (n - 1) & 1)


def count_row(s: list[int], age: int) -> int:
    return sum(1 for n in range(1, LEGENDS + 1) if s[SROW + n] == age + 1)


def draw_random(s: list[int], n: int) -> int:
    stream = SplitMix64((s[H_RNG_LO] & 0xFFFFFFFF) | ((s[H_RNG_HI] & 0xFFFFFFFF) << 32))
    r = stream.below_high(n)
    store_rng(s, stream.state)
    return r


def store_rng(s: list[int], word: int) -> None:
    lo, hi = word & 0xFFFFFFFF, (word >> 32) & 0xFFFFFFFF
    s[H_RNG_LO] = lo - (1 << 32) if lo >= 1 << 31 else lo
    s[H_RNG_HI] = hi - (1 << 32) if hi >= 1 << 31 else hi


def _start_cards(s: list[int], seat: int) -> list[int]:
    return [k for k in range(KINDS) for _ in range(s[START + seat * KINDS + k])]


# -- Objects and Characters (aetherya_objects.pxd) ----------------------------------------------------------------
def tile_index(tile: int) -> int:
    return (tile >> 4) * TILE_KINDS + (tile & 15)


def owned_kind(s: list[int], seat: int, kind: int) -> int:
    return sum(s[OWNED + seat * 64 + family * 16 + kind] for family in range(4))


def take_owned(s: list[int], seat: int, kind: int) -> int:
    """Remove and return the seat's tile of ``kind``, the lowest family first."""
    family = next(f for f in range(4) if s[OWNED + seat * 64 + f * 16 + kind] > 0)
    s[OWNED + seat * 64 + family * 16 + kind] -= 1
    return family * 16 + kind


def clear_slot(s: list[int], r: Rules, seat: int, cell: int) -> None:
    s[TERR + seat * CELLS + cell] = -1
    s[FACE_UP + seat] &= ~(1 << cell)
    for p in range(r.players):
        s[KNOWN + p * 64 + seat * CELLS + cell] = 0


def tile_cells(s: list[int], first: int) -> int:
    return sum(1 << c for c in range(CELLS) if s[first + c] >= 0)


def stones(s: list[int], seat: int) -> int:
    return sum((kind - T_STONE1 + 1) * owned_kind(s, seat, kind) for kind in STONE_KINDS) % 10


def board_total(s: list[int], seat: int) -> int:
    return board_value(np.array(board_codes(s, seat)), tile_cells(s, ACCORDS + seat * CELLS),
                       tile_cells(s, STAFFS + seat * CELLS))


def sword_battles(s: list[int], seat: int) -> int:
    """Bit n - 1: battle Legend n is winnable with the Magic Sword (AE-26)."""
    k = board_codes(s, seat)
    conn = connections(k)
    return sum(1 << (n - 1) for n, (a, b) in BATTLES.items()
               if any(k[c] == a and any(conn[c] >> x & 1 and k[x] == b for x in range(CELLS)) for c in range(CELLS)))


def open_slot(s: list[int], q: int, c: int) -> bool:
    return s[TERR + q * CELLS + c] >= 0 and not s[FACE_UP + q] >> c & 1


def tile_options(s: list[int], r: Rules, seat: int) -> list[int]:
    """The tile plays open at the end of the seat's turn, ascending."""
    k, hidden, out = board_codes(s, seat), s[HIDDEN + seat], []
    conn = connections(k)
    slots = [(q, c) for q in range(r.players) for c in range(CELLS) if open_slot(s, q, c)]
    if owned_kind(s, seat, T_ACCORD):
        out += [A_ACCORD + c for c in range(CELLS) if HUMANS <= k[c] <= GOBLINS and s[ACCORDS + seat * CELLS + c] < 0]
    if owned_kind(s, seat, T_STAFF):
        staffs = tile_cells(s, STAFFS + seat * CELLS)
        out += [A_STAFF + c for c in range(CELLS) if k[c] == DRAGON and not staffs >> c & 1
                and all(sum(1 for x in range(CELLS) if conn[c] >> x & 1 and k[x] == tribe) < 2
                        for tribe in (HUMANS, ELVES, DWARVES))]
    if owned_kind(s, seat, T_HAMMER):
        cards = s[KINGDOMS + seat * CELLS:KINGDOMS + (seat + 1) * CELLS]
        out += [A_HAMMER + a * CELLS + b for a in range(CELLS) for b in range(a + 1, CELLS)
                if not (hidden >> a & 1 or hidden >> b & 1) and cards[a] != cards[b]]
    if owned_kind(s, seat, T_GRIFFIN):
        out += [A_GRIFFIN + q * CELLS + c for q, c in slots]
    if owned_kind(s, seat, T_PALANTIR) > s[H_PEEKS_USED]:
        out += [A_PEEK + q * CELLS + c for q, c in slots if not s[KNOWN + seat * 64 + q * CELLS + c]]
    others = [q for q in range(r.players) if q != seat]
    if owned_kind(s, seat, T_THIEF):
        out += [A_THIEF + q * CELLS + kind for q in others for kind in range(TILE_KINDS)
                if kind not in (T_GRIFFIN, T_TRAFFICKER, T_THIEF) and owned_kind(s, q, kind)]
    if owned_kind(s, seat, T_TRAFFICKER):
        mine = [stone for stone in range(4) if owned_kind(s, seat, T_STONE1 + stone)]
        out += [A_TRAFFIC + q * 64 + stone * CELLS + kind for q in others for stone in mine
                for kind in range(TILE_KINDS) if kind not in STONE_KINDS and owned_kind(s, q, kind)]
    return out


def play_tile(s: list[int], r: Rules, seat: int, action: int) -> None:
    if action < A_STAFF:
        s[ACCORDS + seat * CELLS + action - A_ACCORD] = take_owned(s, seat, T_ACCORD)
    elif action < A_HAMMER:
        s[STAFFS + seat * CELLS + action - A_STAFF] = take_owned(s, seat, T_STAFF)
    elif action < A_GRIFFIN:
        a, b = divmod(action - A_HAMMER, CELLS)
        s[TDISC + take_owned(s, seat, T_HAMMER)] += 1
        for first in (KINGDOMS, ACCORDS, STAFFS):  # AE-28: tiles on the cards move with them
            at = first + seat * CELLS
            s[at + a], s[at + b] = s[at + b], s[at + a]
    elif action < A_PEEK:
        q, cell = divmod(action - A_GRIFFIN, CELLS)
        taken = s[TERR + q * CELLS + cell]
        griffin = take_owned(s, seat, T_GRIFFIN)
        clear_slot(s, r, q, cell)
        s[TERR + q * CELLS + cell] = griffin
        s[FACE_UP + q] |= 1 << cell
        s[OWNED + seat * 64 + taken] += 1
    elif action < A_THIEF:
        s[KNOWN + seat * 64 + action - A_PEEK] = 1
        s[H_PEEKS_USED] += 1
    elif action < A_TRAFFIC:
        q, kind = divmod(action - A_THIEF, CELLS)
        s[TDISC + take_owned(s, seat, T_THIEF)] += 1
        s[OWNED + seat * 64 + take_owned(s, q, kind)] += 1
    else:
        q, rest = divmod(action - A_TRAFFIC, 64)
        stone, kind = divmod(rest, CELLS)
        s[TDISC + take_owned(s, seat, T_TRAFFICKER)] += 1
        given = take_owned(s, seat, T_STONE1 + stone)
        s[OWNED + seat * 64 + take_owned(s, q, kind)] += 1
        s[OWNED + q * 64 + given] += 1


def undealt_of(s: list[int], seat: int) -> int:
    return sum(s[UNDEALT + seat * 16:UNDEALT + seat * 16 + TILE_KINDS])


def deal_tile(s: list[int], r: Rules, x: int) -> int:
    """Deal the next tile (``x`` below the seat's undealt tiles) onto the seat's first ring territory without one."""
    seat = next(q for q in range(4) if undealt_of(s, q))
    for kind in range(TILE_KINDS):
        if x < s[UNDEALT + seat * 16 + kind]:
            break
        x -= s[UNDEALT + seat * 16 + kind]
    s[UNDEALT + seat * 16 + kind] -= 1
    cell = next(c for c in RING if s[TERR + seat * CELLS + c] < 0)
    s[TERR + seat * CELLS + cell] = seat * 16 + kind
    if not any(s[UNDEALT:UNDEALT + 64]):
        s[H_PHASE] = P_FIRST_DISCARD
    return kind


def discard_territories(s: list[int], r: Rules) -> None:
    for seat in range(r.players):
        for cell in range(CELLS):
            tile = s[TERR + seat * CELLS + cell]
            if tile >= 0:
                s[(TDISC if s[FACE_UP + seat] >> cell & 1 else UNREV) + tile] += 1
                clear_slot(s, r, seat, cell)


def deal_objects(s: list[int], r: Rules) -> None:
    s[H_PENDING] = -1
    for first in (TERR, ACCORDS, STAFFS):
        s[first:first + 64] = [-1] * 64
    for seat in range(r.players):
        for kind in r.family[seat]:
            s[UNDEALT + seat * 16 + kind] += 1


def observe_objects(s: list[int], r: Rules, observer: int, i: int, territory, accords, staffs, owned, tile_discard,
                    unrevealed, undealt, pending, peeks, peeks_used, peeked) -> None:
    p, t = r.players, TILE_KINDS * r.players
    for q in range(p):
        for c in range(CELLS):
            tile, at = s[TERR + q * CELLS + c], q * CELLS + c
            if tile >= 0:
                territory[i, at * (1 + t) + (1 + tile_index(tile) if s[FACE_UP + q] >> c & 1 else 0)] = 1
            if s[ACCORDS + at] >= 0:
                accords[i, at * p + (s[ACCORDS + at] >> 4)] = 1
            if s[STAFFS + at] >= 0:
                staffs[i, at * p + (s[STAFFS + at] >> 4)] = 1
        for tile in range(64):
            if s[OWNED + q * 64 + tile]:
                owned[i, q * t + tile_index(tile)] = 1
        undealt[i, q] = undealt_of(s, q) / 12.0
        for slot in range(64):
            if s[KNOWN + q * 64 + slot]:
                peeks[i, q * p * CELLS + slot] = 1
    for tile in range(64):
        if s[TDISC + tile]:
            tile_discard[i, tile_index(tile)] = 1
        for _ in range(s[UNREV + tile]):
            unrevealed[i, tile >> 4] += 1 / 12
    pending[i, tile_index(s[H_PENDING]) if s[H_PENDING] >= 0 else t] = 1
    peeks_used[i, 0] = s[H_PEEKS_USED]
    for slot in range(64):
        if s[KNOWN + observer * 64 + slot] and s[TERR + slot] >= 0:
            peeked[i, slot * t + tile_index(s[TERR + slot])] = 1


# -- legal actions ------------------------------------------------------------------------------------------------
def claim_options(s: list[int], r: Rules, seat: int) -> list[int]:
    """The claims open at the end of the seat's turn: the Legends met, then (Objects) the battles won with a Sword."""
    if s[H_CLAIMED]:
        return []
    met = claimable(s, r, seat)
    out = [A_CLAIM + n for n in range(1, LEGENDS + 1) if met >> (n - 1) & 1]
    if r.mode == OBJECTS and owned_kind(s, seat, T_SWORD):
        battles = sword_battles(s, seat) & ~met
        out += [A_CLAIM_SWORD + n for n in range(8, 12) if battles >> (n - 1) & 1 and s[ROW + n]]
    return out


def list_legal(s: list[int], r: Rules) -> list[int]:
    seat, phase, out = s[H_TO_MOVE], s[H_PHASE], []
    if phase == P_ARRANGE:
        cards, seen = _start_cards(s, seat), set()
        for i, perm in enumerate(PERMS):
            key = tuple(cards[j] for j in perm)
            if key not in seen:
                seen.add(key)
                out.append(A_ARRANGE + i)
    elif phase == P_CHOOSE and r.mode == SOLO:
        if pile_total(s) >= 2:
            out.append(A_DRAW2)
        if s[H_NDISC] > 0 and pile_total(s) >= 1:
            out.append(A_TAKE_DRAW)
        if not out and pile_total(s) >= 1:
            out.append(A_DRAW)
    elif phase == P_CHOOSE:
        out = [A_TAKE + pile for pile in range(r.piles) if s[H_NDISC + pile] > 0]
        if pile_total(s) >= 1:
            out.append(A_DRAW)
    elif phase == P_PLACE:
        hidden, card = s[HIDDEN + seat], s[H_HOLD]
        for pile in range(r.piles):
            for c in range(CELLS):
                current = s[KINGDOMS + seat * CELLS + c]
                if hidden >> c & 1 or current not in (8, 9, card):
                    out.append(A_PLACE + pile * CELLS + c)
        if s[H_HOLD_FROM] == 1:
            out += [A_REVEAL + pile * CELLS + c for pile in range(r.piles) for c in range(CELLS) if hidden >> c & 1]
    elif phase == P_END_TURN:
        out = claim_options(s, r, seat) + [A_END] + (tile_options(s, r, seat) if r.mode == OBJECTS else [])
    elif phase == P_TILE:
        out = [A_TILE_TAKE, A_TILE_REFUSE]
    elif phase == P_LEGEND_DISCARD:
        out = [A_LDISCARD + n for n in range(1, LEGENDS + 1) if s[ROW + n]]
    elif phase == P_KEEP:
        out = sorted({A_KEEP + s[PAIR + 2 * i] for i in range(s[H_NPAIR])})
    elif phase == P_SWAP:
        now = [n for n in range(1, LEGENDS + 1) if s[SROW + n] == s[H_AGE] + 1]
        later = [n for n in range(1, LEGENDS + 1) if s[SROW + n] == s[H_AGE] + 2]
        out = [A_NOSWAP] + [A_SWAP + (a - 1) * LEGENDS + b - 1 for a in now for b in later]
    elif phase == P_BLOCK:
        out = [A_BLOCK + i for i in range(9)]
    return out


# -- the rules' flow ----------------------------------------------------------------------------------------------
def push(s: list[int], pile: int, card: int) -> None:
    n = s[H_NDISC + pile]
    if n < DISC_CAP:
        s[DISC + pile * DISC_CAP + n] = card
        s[H_NDISC + pile] = n + 1


def pop(s: list[int], pile: int) -> int:
    s[H_NDISC + pile] -= 1
    return s[DISC + pile * DISC_CAP + s[H_NDISC + pile]]


def game_over(s: list[int], r: Rules) -> None:
    for seat in range(r.players):
        s[HIDDEN + seat] = 0
    if r.mode == OBJECTS:
        discard_territories(s, r)
    s[H_PHASE] = P_OVER


def next_player(s: list[int], r: Rules) -> None:
    s[H_TO_MOVE] = (s[H_TO_MOVE] + 1) % r.players
    s[H_TURN] += 1
    s[H_CLAIMED] = 0
    s[H_PEEKS_USED] = 0
    s[H_PHASE] = P_CHOOSE


def legends_gone(s: list[int]) -> bool:
    return row_count(s) == 0 and deck_count(s) == 0


def coop_next(s: list[int], r: Rules) -> None:
    if legends_gone(s):
        game_over(s, r)
        return
    if s[H_TO_MOVE] == r.players - 1:
        s[H_WROTE] = 0
    next_player(s, r)


def end_age(s: list[int], r: Rules) -> None:
    age = s[H_AGE]
    s[HIDDEN] = 0
    row = [n for n in range(1, LEGENDS + 1) if s[SROW + n] == age + 1]
    if any(not s[WRITTEN + n] for n in row):
        s[H_FAILED], s[H_PHASE] = 1, P_OVER
        return
    s[AGE_SCORES + s[H_NSCORES]] = legends_met(s, 0)[1] - sum(LEGEND_POINTS[n] for n in row)
    s[H_NSCORES] += 1
    if age == 2:
        s[H_PHASE] = P_OVER
        return
    s[H_AGE] = age + 1
    s[WRITTEN:WRITTEN + 16] = [0] * 16
    s[H_TO_MOVE], s[H_CLAIMED] = 0, 0
    s[H_TURN] += 1
    s[H_PHASE] = P_SWAP if age + 1 == 1 else P_BLOCK


def finish_turn(s: list[int], r: Rules) -> None:
    s[H_PHASE] = P_CHOOSE
    if r.mode == SOLO:
        if pile_total(s) == 0:
            end_age(s, r)
        else:
            next_player(s, r)
        return
    if r.mode == COOP:
        if pile_total(s) == 0 or legends_gone(s):
            game_over(s, r)
        elif s[H_TO_MOVE] == r.players - 1 and not s[H_WROTE] and row_count(s) > 0:
            s[H_PHASE] = P_LEGEND_DISCARD
        else:
            coop_next(s, r)
        return
    if pile_total(s) == 0:
        s[PILE:PILE + KINDS] = [0] * KINDS
        for i in range(s[H_NDISC]):
            s[PILE + s[DISC + i]] += 1
        s[H_NDISC] = 0
        s[H_PILE_KNOWN] = 1
        if pile_total(s):
            s[H_PHASE] = P_REFORM
            return
    next_player(s, r)


def continue_end_turn(s: list[int], r: Rules) -> None:
    seat = s[H_TO_MOVE]
    if claim_options(s, r, seat) or (r.mode == OBJECTS and tile_options(s, r, seat)):
        s[H_PHASE] = P_END_TURN
    else:
        finish_turn(s, r)


def after_refill(s: list[int], r: Rules) -> None:
    after, s[H_AFTER] = s[H_AFTER], AFTER_NOTHING
    if row_count(s) < r.target and deck_count(s) > 0:
        s[H_AFTER], s[H_PHASE] = after, P_REFILL
    elif after == AFTER_END_TURN:
        continue_end_turn(s, r)
    elif after == AFTER_FINISH:
        finish_turn(s, r)
    else:
        coop_next(s, r)


def refill_then(s: list[int], r: Rules, after: int) -> None:
    s[H_AFTER] = after
    after_refill(s, r)


def enter_end_turn(s: list[int], r: Rules) -> None:
    seat = s[H_TO_MOVE]
    if r.mode == COOP:
        written = claimable(s, r, seat)
        if written:
            for n in range(1, LEGENDS + 1):
                if written >> (n - 1) & 1:
                    s[ROW + n], s[BOX + n] = 0, 1
            s[H_WROTE] = 1
        refill_then(s, r, AFTER_FINISH)
        return
    continue_end_turn(s, r)


def after_placement(s: list[int], r: Rules) -> None:
    if s[HIDDEN + s[H_TO_MOVE]] == 0:
        (end_age if r.mode == SOLO else game_over)(s, r)
    else:
        enter_end_turn(s, r)


def apply_decision(s: list[int], r: Rules, action: int) -> None:
    seat, phase = s[H_TO_MOVE], s[H_PHASE]
    if phase == P_ARRANGE:
        cards = _start_cards(s, seat)
        s[START + seat * KINDS:START + (seat + 1) * KINDS] = [0] * KINDS
        for i, cell in enumerate(CENTRE):
            s[KINGDOMS + seat * CELLS + cell] = cards[PERMS[action - A_ARRANGE][i]]
        if seat + 1 < r.players:
            s[H_TO_MOVE] = seat + 1
        else:
            s[H_TO_MOVE], s[H_PHASE] = 0, P_TERRITORIES
    elif phase == P_CHOOSE:
        if action == A_DRAW:
            s[H_PHASE] = P_DRAW
        elif action == A_DRAW2:
            s[H_DRAWS], s[H_PHASE] = 2, P_DRAW
        elif action == A_TAKE_DRAW:
            s[PAIR], s[PAIR + 1], s[H_NPAIR] = pop(s, 0), 0, 1
            s[H_DRAWS], s[H_PHASE] = 1, P_DRAW
        else:
            pile = action - A_TAKE
            s[H_HOLD] = pop(s, pile)
            s[H_HOLD_FROM], s[H_HOLD_PILE], s[H_PHASE] = 0, pile, P_PLACE
    elif phase == P_PLACE:
        reveal = action >= A_REVEAL
        pile, cell = divmod(action - (A_REVEAL if reveal else A_PLACE), CELLS)
        was_hidden = s[HIDDEN + seat] >> cell & 1
        if reveal:
            push(s, pile, s[H_HOLD])
        else:
            push(s, pile, s[KINGDOMS + seat * CELLS + cell])
            s[KINGDOMS + seat * CELLS + cell] = s[H_HOLD]
            if r.mode == OBJECTS and s[ACCORDS + seat * CELLS + cell] >= 0:  # AE-24: the Accord leaves with its Tribe
                s[TDISC + s[ACCORDS + seat * CELLS + cell]] += 1
                s[ACCORDS + seat * CELLS + cell] = -1
        s[HIDDEN + seat] &= ~(1 << cell)
        s[H_HOLD], s[H_HOLD_FROM], s[H_HOLD_PILE] = -1, -1, 0
        if r.mode == OBJECTS and was_hidden and s[TERR + seat * CELLS + cell] >= 0:
            s[H_PENDING] = s[TERR + seat * CELLS + cell]
            clear_slot(s, r, seat, cell)
            s[H_PHASE] = P_TILE
        else:
            after_placement(s, r)
    elif phase == P_TILE:
        s[(OWNED + seat * 64 if action == A_TILE_TAKE else TDISC) + s[H_PENDING]] += 1
        s[H_PENDING] = -1
        after_placement(s, r)
    elif phase == P_END_TURN:
        if action == A_END:
            finish_turn(s, r)
        elif action > A_END:
            play_tile(s, r, seat, action)
            continue_end_turn(s, r)
        elif action > A_CLAIM_SWORD:
            s[TDISC + take_owned(s, seat, T_SWORD)] += 1
            s[H_CLAIMED] = 1
            s[ROW + action - A_CLAIM_SWORD] = 0
            s[HELD + seat * 16 + action - A_CLAIM_SWORD] = 1
            refill_then(s, r, AFTER_END_TURN)
        elif r.mode == SOLO:
            s[H_CLAIMED] = 1
            s[WRITTEN + action - A_CLAIM] = 1
            continue_end_turn(s, r)
        else:
            s[H_CLAIMED] = 1
            s[ROW + action - A_CLAIM] = 0
            s[HELD + seat * 16 + action - A_CLAIM] = 1
            refill_then(s, r, AFTER_END_TURN)
    elif phase == P_LEGEND_DISCARD:
        s[ROW + action - A_LDISCARD] = 0
        s[LDISCARD + action - A_LDISCARD] = 1
        refill_then(s, r, AFTER_COOP_NEXT)
    elif phase == P_KEEP:
        _keep(s, action - A_KEEP)
    elif phase == P_SWAP:
        if action != A_NOSWAP:
            a, b = divmod(action - A_SWAP, LEGENDS)
            s[SROW + a + 1], s[SROW + b + 1] = s[H_AGE] + 2, s[H_AGE] + 1
        s[H_PHASE] = P_CHOOSE if s[H_TURN] == 0 and s[H_AGE] == 0 else P_BLOCK
    elif phase == P_BLOCK:
        corner = BLOCKS[action - A_BLOCK]
        kept = [s[KINGDOMS + c] for c in (corner, corner + 1, corner + 4, corner + 5)]
        s[PILE:PILE + KINDS] = [2 * r.deck_players] * KINDS
        s[KINGDOMS:KINGDOMS + CELLS] = [-1] * CELLS
        for cell, card in zip(CENTRE, kept):
            s[PILE + card] -= 1
            s[KINGDOMS + cell] = card
        s[HIDDEN], s[H_PILE_KNOWN], s[H_NDISC], s[H_PHASE] = 0, 0, 0, P_TERRITORIES


def _keep(s: list[int], card: int) -> None:
    pair = [(s[PAIR + 2 * i], s[PAIR + 2 * i + 1]) for i in range(2)]
    source = 1 if (card, 1) in pair else 0    # AE-33: a drawn copy keeps its options
    other = pair[1 - pair.index((card, source))][0]
    s[H_NPAIR] = 0
    s[PAIR:PAIR + 4] = [0] * 4
    push(s, 0, other)
    s[H_HOLD], s[H_HOLD_FROM], s[H_PHASE] = card, source, P_PLACE


def draw_card(s: list[int], excluded: list[int] | None) -> int:
    allowed = [k for k in range(KINDS) if excluded is None or not excluded[k]]
    x = draw_random(s, sum(s[PILE + k] for k in allowed))
    for k in allowed:
        if x < s[PILE + k]:
            s[PILE + k] -= 1
            return k
        x -= s[PILE + k]
    return -1


def draw_legend(s: list[int]) -> int:
    x = draw_random(s, deck_count(s))
    for n in range(1, LEGENDS + 1):
        if s[DECK + n]:
            if x == 0:
                s[DECK + n] = 0
                return n
            x -= 1
    return -1


def chance(s: list[int], r: Rules) -> int:
    phase = s[H_PHASE]
    if phase == P_LEGENDS and r.mode == SOLO:
        legend = draw_legend(s)
        s[SROW + legend] = 1 + next(i for i in range(3) if count_row(s, i) < SOLO_ROWS[i])
        if count_row(s, 2) == SOLO_ROWS[2]:
            s[H_PHASE] = P_START
        return C_LEGEND + legend
    if phase in (P_LEGENDS, P_REFILL):
        legend = draw_legend(s)
        s[ROW + legend] = 1
        if phase == P_REFILL:
            after_refill(s, r)
        elif row_count(s) == r.target:
            s[H_PHASE] = P_START
        return C_LEGEND + legend
    if phase == P_START:
        seat = next(q for q in range(r.players) if sum(s[START + q * KINDS:START + (q + 1) * KINDS]) < 4)
        card = draw_card(s, s[START + seat * KINDS:START + (seat + 1) * KINDS])
        s[START + seat * KINDS + card] = 1
        if seat == r.players - 1 and sum(s[START + seat * KINDS:START + (seat + 1) * KINDS]) == 4:
            s[H_PHASE], s[H_TO_MOVE] = P_ARRANGE, 0
        return C_CARD + card
    if phase == P_TILES:
        seat = next(q for q in range(4) if undealt_of(s, q))
        return C_TILE + deal_tile(s, r, draw_random(s, undealt_of(s, seat)))
    card = draw_card(s, None)
    if phase == P_TERRITORIES:
        empty = [(q, c) for q in range(r.players) for c in RING if s[KINGDOMS + q * CELLS + c] < 0]
        q, c = empty[0]
        s[KINGDOMS + q * CELLS + c] = card
        s[HIDDEN + q] |= 1 << c
        if len(empty) == 1:
            s[H_PHASE] = P_TILES if r.mode == OBJECTS else P_FIRST_DISCARD
    elif phase == P_FIRST_DISCARD:
        pile = 0 if s[H_NDISC] == 0 else 1
        push(s, pile, card)
        if pile == r.piles - 1:
            s[H_TO_MOVE] = 0
            s[H_PHASE] = P_SWAP if r.mode == SOLO and s[H_AGE] == 0 and s[H_TURN] == 0 else P_CHOOSE
    elif phase == P_REFORM:
        push(s, 0, card)
        next_player(s, r)
    elif s[H_DRAWS] > 0:
        s[PAIR + 2 * s[H_NPAIR]], s[PAIR + 2 * s[H_NPAIR] + 1] = card, 1
        s[H_NPAIR] += 1
        s[H_DRAWS] -= 1
        if s[H_DRAWS] == 0:
            s[H_PHASE] = P_KEEP
    else:
        s[H_HOLD], s[H_HOLD_FROM], s[H_PHASE] = card, 1, P_PLACE
    return C_CARD + card


def settle(s: list[int], r: Rules) -> list[int]:
    drawn: list[int] = []
    while current_player(s) == CHANCE and len(drawn) < MAX_DRAWS:
        drawn.append(chance(s, r))
    return drawn


def deal_row(r: Rules, seed: int) -> list[int]:
    s = [0] * STATE_LEN
    s[PILE:PILE + KINDS] = [2 * r.deck_players] * KINDS
    s[KINGDOMS:KINGDOMS + 64] = [-1] * 64
    s[DECK + 1:DECK + 16] = [1] * LEGENDS
    s[H_HOLD], s[H_HOLD_FROM], s[H_PHASE] = -1, -1, P_LEGENDS
    if r.mode == OBJECTS:
        deal_objects(s, r)
    store_rng(s, stream_seed(int(seed) & MASK64, 0))
    settle(s, r)
    return s


# -- checks and the Python-facing functions ------------------------------------------------------------------------
def valid_header(s: np.ndarray) -> bool:
    return 0 <= s[H_PHASE] < N_PHASES and 0 <= s[H_TO_MOVE] < 4 and 0 <= s[H_NDISC] <= DISC_CAP \
        and 0 <= s[H_NDISC + 1] <= DISC_CAP and -1 <= s[H_HOLD] < KINDS and -1 <= s[H_HOLD_FROM] <= 1 \
        and 0 <= s[H_HOLD_PILE] <= 1 and 0 <= s[H_AFTER] <= AFTER_COOP_NEXT and 0 <= s[H_AGE] <= 2 \
        and 0 <= s[H_NPAIR] <= 2 and 0 <= s[H_NSCORES] <= 3 and 0 <= s[H_DRAWS] <= 2 and -1 <= s[H_PENDING] < 64


#: the tile words of a row: territories, accords and staffs
TILE_WORDS = np.r_[TERR:TERR + 64, ACCORDS:ACCORDS + 64, STAFFS:STAFFS + 64]


def valid_tiles(s: np.ndarray) -> bool:
    """Every tile word of a row in -1..63 (read at once: word by word it cost the twin's tests more than its steps,
    issue 24)."""
    words = np.asarray(s)[TILE_WORDS]
    return bool(((words >= -1) & (words < 64)).all())


def check_rows(states: np.ndarray, tiles: bool = False) -> None:
    if states.shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words, got {states.shape[1]}")
    for i, s in enumerate(states):
        if not valid_header(s) or (tiles and not valid_tiles(s)):
            raise ValueError(f"states[{i}]: not a row of this kernel (a header or tile word out of range: phase "
                             f"{s[H_PHASE]}, to_move {s[H_TO_MOVE]}, hold {s[H_HOLD]})")


def check_length(got: int, n: int, name: str) -> None:
    if got != n:
        raise ValueError(f"{name}: expected n entries ({n}), got {got}")


def deal(states: np.ndarray, config: np.ndarray, slots: np.ndarray, seeds: np.ndarray) -> None:
    r, n = Rules(config), len(states)
    if states.shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words, got {states.shape[1]}")
    check_length(len(seeds), len(slots), "seeds")
    for j, slot in enumerate(slots):
        if not 0 <= slot < n:
            raise ValueError(f"slots[{j}]: expected a row 0..{n - 1}, got {slot}")
    for slot, seed in zip(slots, seeds):
        states[slot] = deal_row(r, int(seed))


def players(states: np.ndarray, out: np.ndarray) -> None:
    check_rows(states)
    check_length(len(out), len(states), "out")
    for i, s in enumerate(states):
        out[i] = current_player(s.tolist())


def legal_actions(states: np.ndarray, config: np.ndarray, out: np.ndarray, counts: np.ndarray) -> None:
    r = Rules(config)
    check_rows(states, r.mode == OBJECTS)
    check_length(len(counts), len(states), "counts")
    if out.shape[0] != len(states) or out.shape[1] < MAX_LEGAL:
        raise ValueError(f"out: expected ({len(states)}, >= {MAX_LEGAL})")
    for i, s in enumerate(states):
        listed = list_legal(s.tolist(), r)
        counts[i] = len(listed)
        out[i, :len(listed)] = listed


def legal_mask(states: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    r = Rules(config)
    check_rows(states, r.mode == OBJECTS)
    if out.shape != (len(states), NUM_ACTIONS):
        raise ValueError(f"out: expected ({len(states)}, {NUM_ACTIONS})")
    for i, s in enumerate(states):
        out[i, list_legal(s.tolist(), r)] = 1


def random_legal(states: np.ndarray, config: np.ndarray, uniforms: np.ndarray, out: np.ndarray) -> None:
    r = Rules(config)
    check_rows(states, r.mode == OBJECTS)
    check_length(len(uniforms), len(states), "uniforms")
    check_length(len(out), len(states), "out")
    for i, u in enumerate(uniforms):
        if not 0.0 <= u < 1.0:
            raise ValueError(f"uniforms[{i}]: expected a number in [0, 1), got {u}")
    for i, s in enumerate(states):
        listed = list_legal(s.tolist(), r)
        out[i] = listed[int(uniforms[i] * len(listed))] if listed else -1


def step(states: np.ndarray, config: np.ndarray, actions: np.ndarray, settled: np.ndarray, drawn: np.ndarray,
         out_players: np.ndarray) -> int:
    r, n = Rules(config), len(states)
    check_rows(states, r.mode == OBJECTS)
    for got, name in ((len(actions), "actions"), (len(settled), "settled"), (len(out_players), "out_players")):
        check_length(got, n, name)
    if drawn.shape != (n, MAX_DRAWS):
        raise ValueError(f"drawn: expected ({n}, {MAX_DRAWS})")
    rows = [s.tolist() for s in states]
    for i, s in enumerate(rows):
        if current_player(s) < 0 or int(actions[i]) not in list_legal(s, r):
            return i
    for i, s in enumerate(rows):
        apply_decision(s, r, int(actions[i]))
        outcomes = settle(s, r) if settled[i] else []
        drawn[i] = outcomes + [-1] * (MAX_DRAWS - len(outcomes))
        out_players[i] = current_player(s)
        states[i] = s
    return -1


def returns(states: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    r = Rules(config)
    check_rows(states, r.mode == OBJECTS)
    if out.shape != (len(states), r.players):
        raise ValueError(f"out: expected ({len(states)}, {r.players})")
    for i, row in enumerate(states):
        s = row.tolist()
        if r.mode == SOLO:
            out[i, 0] = 0 if s[H_FAILED] else sum(s[AGE_SCORES:AGE_SCORES + s[H_NSCORES]])
            continue
        boards = [board_total(s, seat) + stones(s, seat) if r.mode == OBJECTS else legends_met(s, seat)[1]
                  for seat in range(r.players)]
        if r.mode in (BASE, OBJECTS):
            out[i] = [boards[q] + sum(LEGEND_POINTS[n] * s[HELD + q * 16 + n] for n in range(1, LEGENDS + 1))
                      for q in range(r.players)]
        else:
            out[i] = min(boards) - sum(LEGEND_POINTS[n] * s[LDISCARD + n] for n in range(1, LEGENDS + 1))


def _legend_plane(s: list[int], first: int, plane: np.ndarray, i: int, offset: int) -> None:
    for n in range(1, LEGENDS + 1):
        if s[first + n]:
            plane[i, offset + n - 1] = 1


def observe(states: np.ndarray, config: np.ndarray, observers: np.ndarray, kingdoms, discard, pile, unseen, start,
            hold, phase, to_move, seat, turn, flags, legends, legend_deck, held, box, legend_discard, wrote, age,
            age_rows, written, age_scores, failed, pair, draws, territory, accords, staffs, owned, tile_discard,
            unrevealed, undealt, pending, peeks, peeks_used, mine, peeked) -> None:
    r, n = Rules(config), len(states)
    p, t = r.players, TILE_KINDS * r.players
    deck = 20 * r.deck_players
    check_rows(states, r.mode == OBJECTS)
    check_length(len(observers), n, "observers")
    if kingdoms.shape[0] != n or kingdoms.shape[1] != r.players * CELLS * (KINDS + 2) \
            or discard.shape[1] != r.piles * deck * KINDS or mine.shape[0] != n \
            or (r.mode == COOP and (box.shape[1], legend_discard.shape[1], wrote.shape[1]) != (LEGENDS, LEGENDS, 1)) \
            or (r.mode == SOLO and (age.shape[1], age_rows.shape[1], written.shape[1], age_scores.shape[1],
                                    failed.shape[1], pair.shape[1], draws.shape[1])
                != (3, 3 * LEGENDS, LEGENDS, 3, 1, 2 * (KINDS + 3), 1)) \
            or (r.mode == OBJECTS and (territory.shape[1], accords.shape[1], staffs.shape[1], owned.shape[1],
                                       tile_discard.shape[1], unrevealed.shape[1], undealt.shape[1], pending.shape[1],
                                       peeks.shape[1], peeks_used.shape[1], peeked.shape[1])
                != (p * CELLS * (1 + t), p * CELLS * p, p * CELLS * p, p * t, t, p, p, t + 1, p * p * CELLS, 1,
                    p * CELLS * t)):
        raise ValueError("observe: expected n rows of this mode's and player count's pieces")
    for i, who in enumerate(observers):
        if not 0 <= who < r.players:
            raise ValueError(f"observers[{i}]: expected a seat 0..{r.players - 1}, got {who}")
    for i, row in enumerate(states):
        s, seen = row.tolist(), [0.0] * KINDS
        for q in range(r.players):
            for c in range(CELLS):
                card, at = s[KINGDOMS + q * CELLS + c], (q * CELLS + c) * (KINDS + 2)
                if card < 0:
                    kingdoms[i, at + KINDS + 1] = 1
                elif s[HIDDEN + q] >> c & 1:
                    kingdoms[i, at + KINDS] = 1
                else:
                    kingdoms[i, at + card] = 1
                    seen[card] += 1
            start[i, q] = sum(s[START + q * KINDS:START + (q + 1) * KINDS]) / 4.0
            _legend_plane(s, HELD + q * 16, held, i, q * LEGENDS)
        for d in range(r.piles):
            length = s[H_NDISC + d]
            for depth in range(length):
                card = s[DISC + d * DISC_CAP + length - 1 - depth]
                discard[i, (d * deck + depth) * KINDS + card] = 1
                seen[card] += 1
        pile[i, 0] = pile_total(s) / deck
        if s[H_PILE_KNOWN]:
            pile[i, 1] = 1
            for k in range(KINDS):
                pile[i, 2 + k] = s[PILE + k] / deck
                seen[k] += s[PILE + k]
        if s[H_HOLD] >= 0:
            hold[i, s[H_HOLD]] = 1
            seen[s[H_HOLD]] += 1
            hold[i, KINDS + 1 + s[H_HOLD_FROM]] = 1
        else:
            hold[i, KINDS] = 1
            hold[i, KINDS + 3] = 1
        hold[i, KINDS + 4 + s[H_HOLD_PILE]] = 1
        for k in range(s[H_NPAIR]):
            seen[s[PAIR + 2 * k]] += 1
        for k in range(KINDS):
            unseen[i, k] = (2 * r.deck_players - seen[k]) / deck
        phase[i, s[H_PHASE]] = 1
        actor = current_player(s)
        to_move[i, actor if actor >= 0 else r.players] = 1
        seat[i, s[H_TO_MOVE]] = 1
        turn[i, 0] = s[H_TURN] / 100.0
        flags[i, 0] = s[H_CLAIMED]
        flags[i, 1 + s[H_AFTER]] = 1
        _legend_plane(s, ROW, legends, i, 0)
        legend_deck[i, 0] = deck_count(s) / 15.0
        if r.mode == COOP:
            _legend_plane(s, BOX, box, i, 0)
            _legend_plane(s, LDISCARD, legend_discard, i, 0)
            wrote[i, 0] = s[H_WROTE]
        if r.mode == SOLO:
            _observe_solo(s, i, age, age_rows, written, age_scores, failed, pair, draws)
        if r.mode == OBJECTS:
            observe_objects(s, r, int(observers[i]), i, territory, accords, staffs, owned, tile_discard, unrevealed,
                            undealt, pending, peeks, peeks_used, peeked)
        for k in range(KINDS):
            mine[i, k] = s[START + int(observers[i]) * KINDS + k] * 0.25


def _observe_solo(s: list[int], i: int, age, age_rows, written, age_scores, failed, pair, draws) -> None:
    age[i, s[H_AGE]] = 1
    for n in range(1, LEGENDS + 1):
        if s[SROW + n] > 0:
            age_rows[i, (s[SROW + n] - 1) * LEGENDS + n - 1] = 1
    _legend_plane(s, WRITTEN, written, i, 0)
    for k in range(s[H_NSCORES]):
        age_scores[i, k] = s[AGE_SCORES + k] / 100.0
    failed[i, 0] = s[H_FAILED]
    for k in range(s[H_NPAIR]):
        at = k * (KINDS + 3)
        pair[i, at + s[PAIR + 2 * k]] = 1
        pair[i, at + KINDS + s[PAIR + 2 * k + 1]] = 1
        pair[i, at + KINDS + 2] = 1
    draws[i, 0] = s[H_DRAWS]
