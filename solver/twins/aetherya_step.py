"""Pure-Python twin of ``src/aetherya_step.pyx``: N Aetherya games (base and co-op) stepped together.

Same functions, same parameters, same results as the kernel (``tests/twins/test_aetherya_step.py`` checks it):
the rules of ``solver/aetherya/state.py`` on int32 rows of ``STATE_LEN`` words, chance events drawn from each
row's splitmix64 stream (``solver/twins/common.py``), kingdoms scored by ``solver/twins/aetherya_score.py``. Each
function reads a row into a Python list, plays on it and writes it back.
"""

from __future__ import annotations

import itertools

import numpy as np

from solver.twins.aetherya_score import score_one
from solver.twins.common import MASK64, SplitMix64, stream_seed

# header words and blocks (the kernel's enum)
H_PHASE, H_TO_MOVE, H_TURN, H_HOLD, H_HOLD_FROM, H_HOLD_PILE, H_CLAIMED, H_AFTER = range(8)
H_PILE_KNOWN, H_WROTE, H_RNG_LO, H_RNG_HI, H_NDISC, H_AGE, H_FAILED = 8, 9, 10, 11, 12, 14, 15
PILE, HIDDEN, KINGDOMS, START, ROW, DECK, HELD, BOX, LDISCARD, DISC = 16, 26, 30, 94, 134, 150, 166, 230, 246, 262
DISC_CAP = 80
H_DRAWS, H_NPAIR, PAIR, H_NSCORES, AGE_SCORES, SROW, WRITTEN, STATE_LEN = 424, 425, 426, 430, 431, 434, 450, 466
BASE, COOP, SOLO = 0, 1, 2
P_LEGENDS, P_START, P_ARRANGE, P_TERRITORIES, P_FIRST_DISCARD, P_SWAP, P_CHOOSE, P_DRAW = 0, 1, 2, 3, 5, 6, 7, 8
P_KEEP, P_PLACE, P_END_TURN, P_REFILL, P_REFORM, P_LEGEND_DISCARD, P_BLOCK = 9, 10, 12, 13, 14, 15, 16
P_OVER, N_PHASES = 17, 18
CHANCE_PHASES = (P_LEGENDS, P_START, P_TERRITORIES, P_FIRST_DISCARD, P_DRAW, P_REFILL, P_REFORM)
AFTER_NOTHING, AFTER_END_TURN, AFTER_FINISH, AFTER_COOP_NEXT = range(4)
A_TAKE, A_DRAW, A_DRAW2, A_TAKE_DRAW, A_PLACE, A_REVEAL, A_KEEP, A_CLAIM, A_END = 0, 2, 3, 4, 10, 42, 80, 99, 131
A_ARRANGE, A_BLOCK, A_NOSWAP, A_SWAP, A_LDISCARD = 140, 170, 180, 200, 440
C_CARD, C_LEGEND = 2000, 2100
NUM_ACTIONS, KINDS, CELLS, LEGENDS, MAX_LEGAL, MAX_DRAWS = 1456, 10, 16, 15, 72, 64
CHANCE, TERMINAL = -1, -4
CENTRE = (5, 6, 9, 10)
RING = (0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15)
LEGEND_POINTS = (0, 2, 2, 2, 2, 2, 2, 4, 3, 3, 3, 3, 4, 4, 4, 4)
PERMS = tuple(itertools.permutations(range(4)))
ROW_TARGET = ((8, 8, 8, 8, 8), (0, 0, 4, 3, 2), (0, 4, 0, 0, 0))
SOLO_ROWS = (4, 5, 6)
BLOCKS = (0, 1, 2, 4, 5, 6, 8, 9, 10)
UNEXPLORED = 10


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
            "SROW": SROW, "WRITTEN": WRITTEN}


class Rules:
    def __init__(self, config: np.ndarray) -> None:
        if len(config) != 2 or not ((config[0] in (BASE, COOP) and 2 <= config[1] <= 4)
                                    or (config[0] == SOLO and config[1] == 1)):
            raise ValueError("config: expected (mode, players): mode 0 (base) or 1 (co-op) with 2-4 players, or 2 "
                             f"(solo) with 1, got {list(config)}")
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


def legends_met(s: list[int], seat: int) -> tuple[int, int]:
    """(bit n - 1 set when the seat's kingdom meets Legend n, its board total)."""
    hidden = s[HIDDEN + seat]
    cards = [UNEXPLORED if s[KINGDOMS + seat * CELLS + c] < 0 or hidden >> c & 1 else s[KINGDOMS + seat * CELLS + c]
             for c in range(CELLS)]
    scored = score_one(cards)
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


# -- legal actions ------------------------------------------------------------------------------------------------
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
        if not s[H_CLAIMED]:
            met = claimable(s, r, seat)
            out = [A_CLAIM + n for n in range(1, LEGENDS + 1) if met >> (n - 1) & 1]
        out.append(A_END)
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
    s[H_PHASE] = P_OVER


def next_player(s: list[int], r: Rules) -> None:
    s[H_TO_MOVE] = (s[H_TO_MOVE] + 1) % r.players
    s[H_TURN] += 1
    s[H_CLAIMED] = 0
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
    if not s[H_CLAIMED] and claimable(s, r, s[H_TO_MOVE]):
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
        if reveal:
            push(s, pile, s[H_HOLD])
        else:
            push(s, pile, s[KINGDOMS + seat * CELLS + cell])
            s[KINGDOMS + seat * CELLS + cell] = s[H_HOLD]
        s[HIDDEN + seat] &= ~(1 << cell)
        s[H_HOLD], s[H_HOLD_FROM], s[H_HOLD_PILE] = -1, -1, 0
        if s[HIDDEN + seat] == 0:
            (end_age if r.mode == SOLO else game_over)(s, r)
        else:
            enter_end_turn(s, r)
    elif phase == P_END_TURN:
        if action == A_END:
            finish_turn(s, r)
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
    card = draw_card(s, None)
    if phase == P_TERRITORIES:
        empty = [(q, c) for q in range(r.players) for c in RING if s[KINGDOMS + q * CELLS + c] < 0]
        q, c = empty[0]
        s[KINGDOMS + q * CELLS + c] = card
        s[HIDDEN + q] |= 1 << c
        if len(empty) == 1:
            s[H_PHASE] = P_FIRST_DISCARD
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
    store_rng(s, stream_seed(int(seed) & MASK64, 0))
    settle(s, r)
    return s


# -- checks and the Python-facing functions ------------------------------------------------------------------------
def valid_header(s: np.ndarray) -> bool:
    return 0 <= s[H_PHASE] < N_PHASES and 0 <= s[H_TO_MOVE] < 4 and 0 <= s[H_NDISC] <= DISC_CAP \
        and 0 <= s[H_NDISC + 1] <= DISC_CAP and -1 <= s[H_HOLD] < KINDS and -1 <= s[H_HOLD_FROM] <= 1 \
        and 0 <= s[H_HOLD_PILE] <= 1 and 0 <= s[H_AFTER] <= AFTER_COOP_NEXT and 0 <= s[H_AGE] <= 2 \
        and 0 <= s[H_NPAIR] <= 2 and 0 <= s[H_NSCORES] <= 3 and 0 <= s[H_DRAWS] <= 2


def check_rows(states: np.ndarray) -> None:
    if states.shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words, got {states.shape[1]}")
    for i, s in enumerate(states):
        if not valid_header(s):
            raise ValueError(f"states[{i}]: not a row of this kernel (a header word out of range: phase "
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
    check_rows(states)
    check_length(len(counts), len(states), "counts")
    if out.shape[0] != len(states) or out.shape[1] < MAX_LEGAL:
        raise ValueError(f"out: expected ({len(states)}, >= {MAX_LEGAL})")
    for i, s in enumerate(states):
        listed = list_legal(s.tolist(), r)
        counts[i] = len(listed)
        out[i, :len(listed)] = listed


def legal_mask(states: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    r = Rules(config)
    check_rows(states)
    if out.shape != (len(states), NUM_ACTIONS):
        raise ValueError(f"out: expected ({len(states)}, {NUM_ACTIONS})")
    for i, s in enumerate(states):
        out[i, list_legal(s.tolist(), r)] = 1


def random_legal(states: np.ndarray, config: np.ndarray, uniforms: np.ndarray, out: np.ndarray) -> None:
    r = Rules(config)
    check_rows(states)
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
    check_rows(states)
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
    check_rows(states)
    if out.shape != (len(states), r.players):
        raise ValueError(f"out: expected ({len(states)}, {r.players})")
    for i, row in enumerate(states):
        s = row.tolist()
        if r.mode == SOLO:
            out[i, 0] = 0 if s[H_FAILED] else sum(s[AGE_SCORES:AGE_SCORES + s[H_NSCORES]])
            continue
        boards = [legends_met(s, seat)[1] for seat in range(r.players)]
        if r.mode == BASE:
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
            age_rows, written, age_scores, failed, pair, draws, mine) -> None:
    r, n = Rules(config), len(states)
    deck = 20 * r.deck_players
    check_rows(states)
    check_length(len(observers), n, "observers")
    if kingdoms.shape[0] != n or kingdoms.shape[1] != r.players * CELLS * (KINDS + 2) \
            or discard.shape[1] != r.piles * deck * KINDS or mine.shape[0] != n \
            or (r.mode == COOP and (box.shape[1], legend_discard.shape[1], wrote.shape[1]) != (LEGENDS, LEGENDS, 1)) \
            or (r.mode == SOLO and (age.shape[1], age_rows.shape[1], written.shape[1], age_scores.shape[1],
                                    failed.shape[1], pair.shape[1], draws.shape[1])
                != (3, 3 * LEGENDS, LEGENDS, 3, 1, 2 * (KINDS + 3), 1)):
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
