"""Greedy and random policies on :class:`AetheryaState`, and packing positions for the playout kernel.

The greedy policy (best immediate value, see ``solver/twins/aetherya_play.py``)
is the benchmark's "greedy" player and finishes the current turn inside the
hint search; from the next turn on, positions are packed into the int32 vector
of the compiled playout kernel (``solver.kernels.aetherya``), which plays
the same policy for every player to the end of the game.
"""

from __future__ import annotations

import numpy as np

from solver.aetherya.cards import CARD_TYPES, DRAGON, PORTAL
from solver.aetherya.scoring import LEGEND_POINTS, board_array, legend_points, score_board, score_rows
from solver.aetherya.state import (A_ACCORD, A_ARRANGE, A_BLOCK, A_CLAIM, A_CLAIM_SWORD, A_DRAW, A_DRAW2, A_END,
                                   A_HAMMER, A_KEEP, A_LDISCARD, A_NOSWAP, A_PLACE, A_REVEAL, A_STAFF, A_TAKE,
                                   A_TAKE2, A_TAKE_DRAW, A_TILE_REFUSE, A_TILE_TAKE, BLOCKS, CENTRE, PERMS,
                                   AetheryaState)
from solver.aetherya.tiles import STONES, family_tiles, stone_value, tile_kind, best_stone_value
from solver.kernels import aetherya as kernel
from solver.twins.common import SplitMix64, stream_seed
from solver.twins.aetherya_play import (ACC, AGE, AGE_SUM, BIG, CARDS, DECK, DISC, DISC_CAP, DLEN, FAILED, HELD,
                                        HID, HOLD, HOLD_FROM, LD_POINTS, LENGTH, MODE, NEED_SCALE, NEED_WEIGHT, NEG,
                                        PHASE, PHASE_DRAW, PHASE_END, PHASE_PLACE, PILE, PLAYERS, ROW, ROW_TARGET,
                                        SROW, STF, TO_MOVE, TURN, WRIT, WROTE)

MODE_CODES = {"base": 0, "objects": 1, "coop": 2, "solo": 3}
UNEXPLORED = 10


# ---------------------------------------------------------------------- packing
#: the phases of a turn under way that the playout kernel plays on (base and co-op): its PHASE codes
KERNEL_PHASES = {"draw": PHASE_DRAW, "place": PHASE_PLACE, "end-turn": PHASE_END}


def packable(state: AetheryaState) -> bool:
    """True when :func:`pack` takes ``state``: at the start of a turn, or (base and co-op) with the rest of a turn
    to play the kernel plays as the greedy policy does: a card to draw and play, a card to play, the end."""
    if state.phase == "choose":
        return True
    return (state.mode in ("base", "coop") and state.phase in KERNEL_PHASES
            and not (state.phase == "draw" and state.draws_needed))


def pack(state: AetheryaState) -> np.ndarray:
    """The int32 playout vector of a full (determinised) state at the start of a turn (phase 'choose') or, where
    :func:`packable`, in the middle of one."""
    if not packable(state):
        raise ValueError(f"pack: expected a state at the start of a turn, not in phase {state.phase!r}")
    s = np.zeros(LENGTH, dtype=np.int32)
    if state.phase != "choose":
        s[PHASE] = KERNEL_PHASES[state.phase]
        if state.phase == "place":
            s[HOLD] = state.hold
            s[HOLD_FROM] = 0 if state.hold_from == "take" else 1
    s[MODE] = MODE_CODES[state.mode]
    s[PLAYERS] = state.players
    s[TO_MOVE] = state.to_move
    s[TURN] = min(state.turn, 1 << 20)
    s[AGE] = state.age
    s[AGE_SUM] = sum(state.age_scores)
    s[WROTE] = int(state.wrote_this_round)
    s[LD_POINTS] = legend_points(state.legend_discard)
    s[ROW_TARGET] = 0 if state.mode == "solo" else state.row_target()
    s[FAILED] = int(state.failed)
    s[PILE:PILE + CARD_TYPES] = state.pile
    for p in range(state.players):
        s[HID + p] = state.hidden[p]
        s[HELD + p] = legend_points(state.held[p]) + (state.stones(p) if state.mode == "objects" else 0)
        s[ACC + p] = state.mask(state.accords[p])
        s[STF + p] = state.mask(state.staffs[p])
        s[CARDS + 16 * p:CARDS + 16 * p + 16] = [c if c >= 0 else UNEXPLORED for c in state.kingdoms[p]]
    for p in range(state.players, 4):
        s[CARDS + 16 * p:CARDS + 16 * p + 16] = UNEXPLORED
    for n in state.row:
        s[ROW + n] = 1
    for n in state.legend_deck:
        s[DECK + n] = 1
    for age, row in enumerate(state.rows):
        for n in row:
            s[SROW + n] = age + 1
    for n in state.written:
        s[WRIT + n] = 1
    for pile, cards in enumerate(state.discards):
        kept = cards[-DISC_CAP:]
        s[DLEN + pile] = len(kept)
        s[DISC + pile * DISC_CAP:DISC + pile * DISC_CAP + len(kept)] = kept
    return s


def playout_values(packed: list[np.ndarray], seeds: list[int], stop_age: int = -1) -> np.ndarray:
    """Returns (n, 4) of the greedy playouts of packed positions, in one compiled call; with ``stop_age`` >= 0
    (solo) each playout stops once that Age is over (the finished Ages' scores, the Legends written so far)."""
    if not packed:
        return np.zeros((0, 4), dtype=np.int32)
    states = np.ascontiguousarray(np.stack(packed), dtype=np.int32)
    out = np.zeros((len(packed), 4), dtype=np.int32)
    kernel.playout_batch(states, np.asarray(seeds, dtype=np.uint64), out, stop_age)
    return out


#: the modes whose plans the kernel applies to a packed world (:func:`plan_values`)
PLAN_MODES = ("base", "coop")


def plan_array(plans: list[list[int]]) -> np.ndarray:
    """The plans (action lists) as one int32 array, a row each, padded with -1: :func:`plan_values`' input."""
    width = max((len(plan) for plan in plans), default=0)
    out = np.full((len(plans), width), -1, dtype=np.int32)
    for j, plan in enumerate(plans):
        out[j, :len(plan)] = plan
    return out


def plan_values(world: AetheryaState, plans: np.ndarray, seed: int, stop_age: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """``(values (m, 4), status (m,))``: each plan of :func:`plan_array` applied to ``world`` packed once (the
    kernel's ``advance``) and played out greedily with ``seed``, in one compiled call; the values are those of
    :func:`play_plan` on the full state, then the game's returns or the playout of its ``pack``. ``status[j]`` is
    0 where plan j was played; else the packed vector cannot follow it (a discard pile longer than the vector
    holds): the caller plays that plan on the full state."""
    values = np.zeros((len(plans), 4), dtype=np.int32)
    status = np.zeros(len(plans), dtype=np.int32)
    kernel.evaluate_plans(pack(world), plans, seed, values, status, stop_age)
    return values, status


# ---------------------------------------------------------------------- values
def solo_avail(state: AetheryaState) -> list[int]:
    """Copies of each kind still to come in the solo deck (4 each), from public information only: not face up
    in the kingdom, not buried in the discard (its top can still be taken)."""
    avail = [4] * CARD_TYPES
    for c in range(16):
        card = state.kingdoms[0][c]
        if card >= 0 and not state.hidden[0] >> c & 1:
            avail[card] -= 1
    for card in state.discards[0][:-1]:
        avail[card] -= 1
    return [max(0, a) for a in avail]


def solo_left(state: AetheryaState) -> int:
    """Bit n: Legend n is in the current Age's row and not written yet."""
    return sum(1 << n for n in state.rows[state.age] if n not in state.written)


def legend_needs(cards: list[int], hidden: int, avail: list[int]) -> list[int]:
    """For each Legend n (index 1..15), the fewest cards to place to meet it (99: out of reach), by the kernel."""
    codes = np.asarray([UNEXPLORED if (hidden >> c & 1 or cards[c] < 0) else cards[c] for c in range(16)],
                       dtype=np.int32)
    out = np.zeros(16, dtype=np.int32)
    kernel.legend_needs(codes, np.asarray(avail, dtype=np.int32), out)
    return out.tolist()


def solo_value(cards: list[int], hidden: int, avail: list[int], left: int) -> int:
    """The solo policy's value (the kernel's ``solo_value``): the board total once the Age's Legends are written;
    before, the closeness of each Legend still to write (``NEED_WEIGHT`` by need) scaled, plus the board."""
    codes = np.asarray([UNEXPLORED if (hidden >> c & 1 or cards[c] < 0) else cards[c] for c in range(16)],
                       dtype=np.int32)
    total = int(kernel.board_value(codes, 0, 0))
    if not left:
        return total
    need = legend_needs(cards, hidden, avail)
    weight = sum(NEED_WEIGHT[min(need[n], 5)] for n in range(1, 16) if left >> n & 1 and need[n] < BIG)
    return weight * NEED_SCALE + total


def _solo_codes(state: AetheryaState) -> np.ndarray:
    return np.asarray([UNEXPLORED if (state.hidden[0] >> c & 1 or state.kingdoms[0][c] < 0) else state.kingdoms[0][c]
                       for c in range(16)], dtype=np.int32)


def solo_moves(state: AetheryaState, card: int, drawn: bool) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``(value, cell)`` of every placement of ``card`` and, for a drawn card, of every reveal (the card discarded,
    the face-down cell turned; its expected value minus the reveal's cost), by the kernel's ``solo_moves`` (the
    playouts' own arithmetic). The copies still to come count the other card of the pair (phase ``keep``) as
    buried by the move. The last face-down card is kept while Legends are left to write and while the pile still
    holds a card after this turn (turning it ends the Age at once)."""
    left = solo_left(state)
    protect = int(left != 0 or sum(state.pile) > 0)
    base = [4] * CARD_TYPES
    for c in range(16):
        kind = state.kingdoms[0][c]
        if kind >= 0 and not state.hidden[0] >> c & 1:
            base[kind] -= 1
    for kind in state.discards[0]:
        base[kind] -= 1
    other = -1
    if state.phase == "keep":
        rest = list(state.pair)
        rest.remove(next(p for p in rest if p[0] == card))
        other = rest[0][0] if rest else -1
    place_out, reveal_out = np.zeros(16, np.int32), np.zeros(16, np.int32)
    kernel.solo_moves(_solo_codes(state), np.asarray(base, np.int32), card, other, left, protect, place_out, reveal_out)
    places = [(int(place_out[c]), c) for c in range(16) if place_out[c] > NEG]
    reveals = [(int(reveal_out[c]), c) for c in range(16) if drawn and reveal_out[c] > NEG]
    return places, reveals


def solo_options(state: AetheryaState, card: int, drawn: bool) -> list[tuple[int, int]]:
    """``(value, cell)`` of every move of the solo policy with ``card``: each placement and, for a drawn card, the
    best reveal as cell -1 (see :func:`solo_moves`)."""
    places, reveals = solo_moves(state, card, drawn)
    if reveals:
        places.append((max(v for v, _ in reveals), -1))
    return places


def value_of(state: AetheryaState, seat: int, cards: list[int], hidden: int) -> int:
    """The greedy policy's value of ``seat``'s kingdom ``cards``/``hidden`` (board + best claim, or, in solo,
    :func:`solo_value`)."""
    if state.mode == "solo":
        return solo_value(cards, hidden, solo_avail(state), solo_left(state))
    board = board_array(cards, hidden)
    result = score_board(board, state.mask(state.accords[seat]), state.mask(state.staffs[seat]))
    total = result.total
    met = {leg.number for leg in result.satisfied}
    if state.mode in ("base", "objects"):
        total += max((LEGEND_POINTS[n] for n in state.row if n in met), default=0)
    return total


def placements(state: AetheryaState, seat: int, card: int) -> list[tuple[int, int]]:
    """``(cell, value)`` for every legal placement of ``card`` in ``seat``'s kingdom."""
    cards, hidden = state.kingdoms[seat], state.hidden[seat]
    if state.mode != "solo" and not any(c >= 0 for c in state.accords[seat]) \
            and not any(c >= 0 for c in state.staffs[seat]):
        return _placements_batch(state, cards, hidden, card)
    return placements_one_by_one(state, seat, card)


def placements_one_by_one(state: AetheryaState, seat: int, card: int) -> list[tuple[int, int]]:
    """:func:`placements` by :func:`value_of` on each trial kingdom (every mode, Accords and Staffs included)."""
    cards, hidden = state.kingdoms[seat], state.hidden[seat]
    out = []
    for c in range(16):
        old = cards[c]
        if not hidden >> c & 1 and (old in (DRAGON, PORTAL) or old == card):
            continue
        trial = list(cards)
        trial[c] = card
        out.append((c, value_of(state, seat, trial, hidden & ~(1 << c))))
    return out


def _placements_batch(state: AetheryaState, cards: list[int], hidden: int, card: int) -> list[tuple[int, int]]:
    """:func:`placements` without Accords or Staffs, every trial kingdom scored in one compiled call (the values
    of :func:`value_of`: the board total, plus in base and Objects the best Legend of the row met)."""
    cells = [c for c in range(16) if hidden >> c & 1 or not (cards[c] in (DRAGON, PORTAL) or cards[c] == card)]
    if not cells:
        return []
    trials = np.repeat(board_array(cards, hidden)[None, :], len(cells), axis=0)
    trials[np.arange(len(cells)), cells] = card
    rows = score_rows(trials)
    values = rows[:, 6].astype(np.int64)
    if state.mode in ("base", "objects") and state.row:
        met, bonus = rows[:, 7], np.zeros(len(cells), dtype=np.int64)
        for n in state.row:
            bonus = np.maximum(bonus, np.where(met >> (n - 1) & 1, LEGEND_POINTS[n], 0))
        values += bonus
    return [(c, int(v)) for c, v in zip(cells, values)]


def _pick(options: list[tuple[int, int]], rng: np.random.Generator) -> tuple[int, int]:
    best = max(v for _, v in options)
    ties = [o for o in options if o[1] == best]
    return ties[int(rng.integers(len(ties)))]


def current_value(state: AetheryaState, seat: int) -> int:
    return value_of(state, seat, state.kingdoms[seat], state.hidden[seat])


# ---------------------------------------------------------------------- greedy policy
def greedy_action(state: AetheryaState, rng: np.random.Generator) -> int:
    """The greedy policy's action (best immediate value; random tie-breaks)."""
    phase, seat = state.phase, state.to_move
    legal = state.legal_actions()
    if phase == "choose":
        return _greedy_choose(state, seat, legal, rng)
    if phase == "place":
        return _solo_place(state, rng) if state.mode == "solo" else _greedy_place(state, seat, rng)
    if phase == "keep":
        return _solo_keep(state)
    if phase == "tile":
        return A_TILE_TAKE if take_tile_is_best(state) else A_TILE_REFUSE
    if phase == "end-turn":
        return _greedy_end_turn(state, seat, legal)
    if phase == "arrange":
        scored = []
        for a in legal:
            cards = list(state.kingdoms[seat])
            perm = PERMS[a - A_ARRANGE]
            for i, cell in enumerate(CENTRE):
                cards[cell] = state.start[seat][perm[i]]
            scored.append((a, value_of(state, seat, cards, state.hidden[seat])))
        return _pick(scored, rng)[0]
    if phase == "block":  # the 2x2 closest to the new Age's Legends (the kernel's choice)
        scored = []
        left = solo_left(state)
        for i, corner in enumerate(BLOCKS):
            cards = [-1] * 16
            avail = [4] * CARD_TYPES
            for j, cell in enumerate((corner, corner + 1, corner + 4, corner + 5)):
                cards[CENTRE[j]] = state.kingdoms[0][cell]
                avail[state.kingdoms[0][cell]] -= 1
            scored.append((A_BLOCK + i, solo_value(cards, 0, avail, left)))
        return _pick(scored, rng)[0]
    if phase == "swap":
        return A_NOSWAP
    if phase == "legend-discard":
        return min(legal, key=lambda a: (LEGEND_POINTS[a - A_LDISCARD], a))
    return legal[0]


def _greedy_choose(state: AetheryaState, seat: int, legal: list[int], rng: np.random.Generator) -> int:
    if state.mode == "solo":  # the rulebook's tip: drawing two from the pile shortens the Age
        return A_TAKE_DRAW if A_TAKE_DRAW in legal else (A_DRAW2 if A_DRAW2 in legal else legal[0])
    # (solo: the kept card is chosen in phase 'keep' and played in phase 'place', by solo_options)
    cur = current_value(state, seat)
    best, best_v = -1, None
    for action in (A_TAKE, A_TAKE2):
        if action in legal:
            v = max(v for _, v in placements(state, seat, state.discards[action - A_TAKE][-1]))
            if best_v is None or v > best_v:
                best, best_v = action, v
    if best >= 0 and (best_v > cur or A_DRAW not in legal):
        return best
    return A_DRAW


def _solo_best(options: list[tuple[int, int]]) -> tuple[int, int]:
    return max(options, key=lambda o: (o[0], o[1] >= 0))  # a placement beats a reveal of the same value


def _solo_keep(state: AetheryaState) -> int:
    """Keep the card with the best move (the kernel's order: the drawn card wins ties)."""
    best = None
    for card, source in reversed(state.pair):
        options = solo_options(state, card, source == "draw")
        if options:
            value = _solo_best(options)[0]
            if best is None or value > best[0]:
                best = (value, card)
    return A_KEEP + (best[1] if best is not None else state.pair[-1][0])


def _solo_place(state: AetheryaState, rng: np.random.Generator) -> int:
    """The solo policy's move with the kept card: the best placement, or the best reveal when it is strictly
    better (random tie-breaks); the forced placement when every move ends the Age."""
    places, reveals = solo_moves(state, state.hold, state.hold_from == "draw")
    if not places and not reveals:
        legal = [a for a in state.legal_actions() if a < A_REVEAL]
        return legal[0]
    best_place = max((v for v, _ in places), default=NEG)
    best_reveal = max((v for v, _ in reveals), default=NEG)
    if best_reveal > best_place:
        cells = [c for v, c in reveals if v == best_reveal]
        return A_REVEAL + cells[int(rng.integers(len(cells)))]
    cells = [c for v, c in places if v == best_place]
    return A_PLACE + cells[int(rng.integers(len(cells)))]


def _greedy_place(state: AetheryaState, seat: int, rng: np.random.Generator) -> int:
    cell, v = _pick(placements(state, seat, state.hold), rng)
    if state.hold_from == "take" or v > current_value(state, seat):
        return A_PLACE + cell
    hidden = [c for c in range(16) if state.hidden[seat] >> c & 1]
    return A_REVEAL + hidden[int(rng.integers(len(hidden)))]


def _greedy_end_turn(state: AetheryaState, seat: int, legal: list[int]) -> int:
    now = state.score(seat).total
    for action in legal:  # tiles that raise the score at once: Accord, Staff, Hammer
        if A_ACCORD <= action < A_STAFF + 16 or A_HAMMER <= action < A_HAMMER + 256:
            trial = state.clone()
            trial.apply_action(action)
            if trial.score(seat).total >= now + (2 if action >= A_HAMMER else 1):
                return action
    claims = [a for a in legal if A_CLAIM < a <= A_CLAIM + 15]
    if claims:
        return max(claims, key=lambda a: (LEGEND_POINTS[a - A_CLAIM], -a))
    swords = [a for a in legal if A_CLAIM_SWORD < a <= A_CLAIM_SWORD + 15]
    if swords:
        return swords[0]
    return A_END


def take_tile_is_best(state: AetheryaState) -> bool:
    """Take a non-Stone tile; take a Power Stone only when the exact best reachable Stone score allows it (AE-30)."""
    tile = state.pending_tile
    if tile_kind(tile) not in STONES:
        return True
    seat = state.to_move
    held = sum(stone_value(tile_kind(t)) for t in state.owned[seat])
    future = unseen_stones(state, seat)
    x = stone_value(tile_kind(tile))
    with_it = (best_stone_value(held + x, future)[0], (held + x) % 10)
    without = (best_stone_value(held, future)[0], held % 10)
    return with_it >= without


def unseen_stones(state: AetheryaState, seat: int) -> list[int]:
    """Values of ``seat``'s family Stones still face down on ``seat``'s territories (as ``seat`` knows them)."""
    seen = set(state.tile_discard) | {state.pending_tile}
    for p in range(state.players):
        seen |= set(state.owned[p]) | {t for t in state.accords[p] + state.staffs[p] if t >= 0}
        seen |= {state.territory_tiles[p][c] for c in range(16) if state.face_up_tiles[p] >> c & 1}
    return sorted(stone_value(tile_kind(t)) for t in family_tiles(state.families, seat)
                  if tile_kind(t) in STONES and t not in seen)


class PlayoutRandom:
    """A seeded random stream for the hint's evaluations, with the two methods the policies and the chance nodes
    use (``integers(n)``, ``choice(n, p)``): splitmix64, the kernels' step (``solver.twins.common``), where numpy's
    ``default_rng`` costs more to seed than an evaluation's whole turn to play."""

    def __init__(self, seed: int, stream: int) -> None:
        self.stream = SplitMix64(stream_seed(seed, stream))

    def integers(self, n: int) -> int:
        """A number in ``[0, n)``."""
        return self.stream.below_mod(int(n))

    def choice(self, n: int, p: np.ndarray) -> int:
        """An index in ``[0, n)`` drawn with the probabilities ``p``."""
        u = (self.stream.next() >> 11) * (1.0 / (1 << 53))
        for i in range(n - 1):
            u -= p[i]
            if u < 0:
                return i
        return n - 1


def random_action(state: AetheryaState, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def sample_chance(state: AetheryaState, rng: np.random.Generator) -> int:
    """A chance outcome drawn with its probability."""
    actions, probs = zip(*state.chance_outcomes())
    return int(actions[int(rng.choice(len(actions), p=np.asarray(probs) / sum(probs)))])


def play_plan(world: AetheryaState, plan: list[int], seed: int) -> AetheryaState:
    """``world`` (changed in place) after ``plan`` and, unless the playout kernel takes it there (:func:`packable`),
    up to the next turn start or the game's end: the chance nodes drawn by ``PlayoutRandom(seed, 1)``, the greedy
    policy's tie-breaks by ``PlayoutRandom(seed, 2)``. The hint's evaluation of a plan on the full state; the
    kernel's ``evaluate_plans`` plays the same on the packed state, with the same random numbers."""
    for action in plan:
        world.apply_action(action)
    if not packable(world):
        advance_to_turn_start(world, PlayoutRandom(seed, 2), PlayoutRandom(seed, 1))
    return world


def advance_to_turn_start(state: AetheryaState, rng: np.random.Generator,
                          chance_rng: np.random.Generator | None = None) -> AetheryaState:
    """Play chance nodes and greedy decisions until the next turn starts (phase 'choose') or the game ends.
    With ``chance_rng`` the chance outcomes come from it and the greedy tie-breaks from ``rng`` (two streams: the
    cards dealt do not depend on the choices made, as in the playout kernel)."""
    chance = rng if chance_rng is None else chance_rng
    while not state.is_terminal() and state.phase != "choose":
        state.apply_action(sample_chance(state, chance) if state.is_chance_node() else greedy_action(state, rng))
    return state

