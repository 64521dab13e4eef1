"""Embers of Memory for OpenSpiel and the batched environment: action ids, returns, observation tensor.

Everything on the table was shown face up and is remembered (EM-27..EM-29) except the deck's order
and the face-down Resolve cards: in Chapter One Aelin (player 1) sees them, in the Prologue nobody
does, and the strength rows leak their strength (EM-24, public). So every piece is public but one:
Aelin's private piece holds her face-down Resolve cards. ``C`` is the number of cards in the deck
(memory cards and demons), ``R`` the number of strength rows (4 in Chapter One, 3 in the Prologue),
``M`` the number of memory cards. Layout (``docs/openspiel.md``):

===============  ===========  =========================================================================
piece            shape        meaning
===============  ===========  =========================================================================
``where``        C x (7+2R)   where each card is: unseen (the deck, or a face-down Resolve card), the
                              Mind, the memory row, the demon row, tainted under its demon, the discard
                              pile, the box, then the face-up Resolve card of row 1..R, then a card added
                              to row 1..R
``order``        C            the card's place in its zone's list (Mind, row, discard, ...) / C
``mind``         C x 2        a Mind card's position (x, y) / M
``rows``         R x 3        per strength row: dealt, its Resolve card is face up, the public lower
                              bound on a face-down Resolve card's strength (EM-24) / 7
``completed``    R + 1        rows announced complete
``day``, ``part``  3, 3       the day (1-3); the Prologue's part (none, 1, 2)
``turn``         2            whose turn (Fenrys or Rowan, Aelin)
``to_move``      3            who acts (player 0, player 1, a chance event or the end)
``phase``        9            the phase (``solver/embers/state.py`` ``PHASES`` of the chapter)
``added``        1            a card was added this turn
``pending``      4 + 5        what Aelin's choice is about: none, a suit, a row, (a play); its value
``result``       6            none, then ``RESULTS`` (won, and the four ways to lose)
``deck_count``   1            cards in the deck / C
``resolve``      R x (C+1)    private: each face-down Resolve card this player sees (C: none)
===============  ===========  =========================================================================
"""

from __future__ import annotations

import numpy as np

from solver.embers import state as E
from solver.embers.state import AELIN, CHAPTERS, PHASES, RESULTS, ROWS, TARGET, arrangements
from solver.game import Game, State
from solver.kernels import embers as kernel
from solver.learning import ActionCodec, KernelRules, Piece, in_bound, valid_id

MAX_MOVES = 2000
FIXED_ZONES = 7
UNSEEN, MIND, ROW, DEMON, TAINTED, DISCARD, BOX = range(FIXED_ZONES)
PENDING_KINDS = ("suit", "row", "play")
PENDING_VALUES = 5


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
        kind, payload = E.decode(int(action))
        simple = {E.DRAW: 0, E.STOP: 1, E.PASS: 2}
        if kind in simple:
            return simple[kind]
        bases = {E.DISCARD: (self.discard_base, self.cards), E.TAKE: (self.take_base, self.cards),
                 E.KEEP: (self.keep_base, self.cards), E.REVEAL: (self.reveal_base, self.rows),
                 E.ARRANGE: (self.arrange_base, self.orders)}
        if kind in bases:
            base, count = bases[kind]
            return base + in_bound(payload, count, f"Embers action {action}'s payload")
        if kind == E.ADD:
            card, x, y = E.decode_add(payload)
            if not (0 <= card < self.cards and abs(x) <= self.reach and abs(y) <= self.reach):
                raise AssertionError(f"Embers add of card {card} at ({x}, {y}) is outside the OpenSpiel action bound")
            return self.add_base + (card * self.side + x + self.reach) * self.side + y + self.reach
        raise AssertionError(f"Embers action {action} has no OpenSpiel id (unknown kind {kind})")

    def encode_all(self, actions: list[int]) -> list[int]:
        return sorted(self.encode(a) for a in actions)

    def decode(self, index: int) -> int:
        index = valid_id(int(index), self.num_distinct_actions, "action")
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


def num_players(game: Game) -> int:
    return 2


def codec(game: Game) -> EmbersCodec:
    return EmbersCodec(len(game.deck.cards), len(game.deck.memory))


def utility_range(game: Game) -> tuple[float, float]:
    """Both players win (1) or lose (0) together."""
    return (0.0, 1.0)


def chance_steps(game: Game, decisions: int) -> int:
    """Each draw follows a decision (Fenrys's ``draw``, or a prologue play); the deals of days 2 and 3 (the
    first day is dealt with the game) are a Mind card, the Resolve cards and at most a memory row of 4."""
    return decisions + 2 * (1 + max(ROWS.values()) + 4)


# -- the observation tensor -----------------------------------------------------------------------------------
def _sizes(game: Game) -> tuple[int, int, int]:
    return len(game.deck.cards), ROWS[game.params["chapter"]], len(game.deck.memory)


def public_pieces(game: Game) -> list[Piece]:
    cards, rows, _ = _sizes(game)
    return [Piece("where", (cards, FIXED_ZONES + 2 * rows)), Piece("order", (cards,)), Piece("mind", (cards, 2)),
            Piece("rows", (rows, 3)), Piece("completed", (rows + 1,)), Piece("day", (3,)), Piece("part", (3,)),
            Piece("turn", (2,)), Piece("to_move", (3,)), Piece("phase", (len(PHASES["one"]),)),
            Piece("added", (1,)), Piece("pending", (1 + len(PENDING_KINDS) + PENDING_VALUES,)),
            Piece("result", (1 + len(RESULTS),)), Piece("deck_count", (1,))]


def private_pieces(game: Game) -> list[Piece]:
    cards, rows, _ = _sizes(game)
    return [Piece("resolve", (rows, cards + 1))]


def _place(planes: dict[str, np.ndarray], cards: int, zone: int, items: list[int]) -> None:
    for k, card in enumerate(items):
        planes["where"][card, zone] = 1
        planes["order"][card] = (k + 1) / cards


def fill_public(game: Game, state: State, planes: dict[str, np.ndarray]) -> None:
    cards, rows, memory = _sizes(game)
    where = planes["where"]
    where[:, UNSEEN] = 1
    for k, (card, x, y) in enumerate(state.mind):
        where[card, UNSEEN] = 0
        where[card, MIND] = 1
        planes["order"][card] = (k + 1) / cards
        planes["mind"][card] = (x / memory, y / memory)
    for zone, items in ((ROW, state.row), (DISCARD, state.discard), (BOX, state.box)):
        where[items, UNSEEN] = 0
        _place(planes, cards, zone, items)
    demons = [d for d, _ in state.demons]
    where[demons, UNSEEN] = 0
    _place(planes, cards, DEMON, demons)
    for _, tainted in state.demons:
        where[tainted, UNSEEN] = 0
        _place(planes, cards, TAINTED, tainted)
    for i, row in enumerate(state.rows):
        planes["rows"][i] = (1, row.face_up, row.at_least / TARGET)
        if row.face_up:
            where[row.resolve, UNSEEN] = 0
            where[row.resolve, FIXED_ZONES + i] = 1
        where[row.cards, UNSEEN] = 0
        _place(planes, cards, FIXED_ZONES + rows + i, row.cards)
    planes["completed"][state.completed] = 1
    planes["day"][state.day - 1] = 1
    planes["part"][state.part] = 1
    planes["turn"][state.turn] = 1
    actor = state.current_player()
    planes["to_move"][actor if actor >= 0 else 2] = 1
    planes["phase"][PHASES[state.chapter].index(state.phase)] = 1
    planes["added"][0] = state.added
    pending = planes["pending"]
    if state.pending is None:
        pending[0] = 1
    else:
        kind, value = state.pending
        pending[1 + PENDING_KINDS.index(kind)] = 1
        pending[1 + len(PENDING_KINDS) + value] = 1
    planes["result"][0 if state.result is None else 1 + RESULTS.index(state.result)] = 1
    planes["deck_count"][0] = len(state.pile) / cards


def fill_private(game: Game, state: State, player: int, planes: dict[str, np.ndarray]) -> None:
    cards, _, _ = _sizes(game)
    resolve = planes["resolve"]
    sees = state.sees_resolve(player)
    for i, row in enumerate(state.rows):
        resolve[i, row.resolve if sees and not row.face_up else cards] = 1


# -- the batched environment: N rows of the step kernel ----------------------------------------------------------
#: the step kernel's phases (``P_*`` of ``src/embers_row.pxd``), by number
KERNEL_PHASES = ("arrange", "draw", "observe", "blink", "reveal", "split", "acknowledge", "deal", "over", "first",
                 "second")
#: the row's blocks and header words (``src/embers_row.pxd``)
_L = kernel.layout()

def deck_table(game: Game) -> np.ndarray:
    """The step kernel's deck: ``(suit, strength, blocked)`` per card (strength 0: a demon)."""
    return np.array([(c.suit, c.strength, c.blocked) for c in game.deck.cards], dtype=np.int32).reshape(-1, 3)


def state_of_row(game: Game, row: np.ndarray) -> State:
    """Our state of a step-kernel row (``src/embers_row.pxd``'s layout)."""
    h = {name: int(row[k]) for name, k in _L.items() if name.islower()}
    mind, strength, demons, words = _L["MIND"], _L["STRENGTH"], _L["DEMONS"], _L["DEMON_WORDS"]
    state = game.new_initial_state(0)
    state.part, state.day, state.turn, state.phase = h["part"], h["day"], h["turn"], KERNEL_PHASES[h["phase"]]
    state.mind = [tuple(row[mind + 3 * k:mind + 3 * k + 3].tolist()) for k in range(h["n_mind"])]
    state.row, state.discard, state.box = (row[_L[key]:_L[key] + h["n_" + key.lower()]].tolist()
                                           for key in ("ROW", "DISCARD", "BOX"))
    slots = [row[demons + i * words:demons + (i + 1) * words] for i in range(h["n_demons"])]
    state.demons = [(int(s[0]), s[2:2 + s[1]].tolist()) for s in slots]
    rows = [row[strength + i * _L["ROW_WORDS"]:strength + (i + 1) * _L["ROW_WORDS"]] for i in range(h["n_rows"])]
    state.rows = [E.StrengthRow(int(r[0]), bool(r[1]), r[4:4 + r[3]].tolist(), int(r[2])) for r in rows]
    state.completed, state.added = h["completed"], bool(h["added"])
    state.pending = None if h["kind"] < 0 else (("suit", "row")[h["kind"]], h["value"])
    state.result = None if h["result"] < 0 else RESULTS[h["result"]]
    state.pile = set(np.flatnonzero(row[_L["PILE"]:_L["MIND"]]).tolist())
    state._legal = None
    return state


class EmbersBatch(KernelRules):
    """N Embers games as rows of the step kernel (``src/embers_step.pxi``, ``solver/openspiel/batched.py``): deals
    of ``new_initial_state(seed)`` (numpy's shuffle of the seed, set out by the kernel), random legal actions,
    checks, steps and chance draws (uniform over the ascending outcomes) by the kernel, one call a step; legal masks
    and observations too."""

    def __init__(self, game: Game, n: int, redeal: bool) -> None:
        self.game = game
        self.redeal = redeal
        super().__init__(kernel, deck_table(game), np.zeros((n, kernel.state_len()), dtype=np.int32))
        self.memory = np.array([c.index for c in game.deck.memory], dtype=np.int32)
        self.chapter = CHAPTERS.index(game.params["chapter"])
        self.drawn = np.zeros((n, kernel.max_draws()), dtype=np.int32)

    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        """Deal ``new_initial_state(seed)`` into each slot; a Prologue deal lost before the first decision (EM-50:
        no card of the row can be played) is dealt again from a seed drawn from ``rng`` when the game redeals
        (OpenSpiel's ``redeal``, the default), else it ends at once."""
        slots, seeds = np.asarray(slots, dtype=np.int32), np.asarray(seeds, dtype=np.int64)
        while len(slots):
            orders = np.stack([self.memory[np.random.default_rng(int(seed)).permutation(len(self.memory))]
                               for seed in seeds])
            kernel.deal(self.states, self.rule_data, slots, self.chapter, orders)
            kernel.players(self.states, self.to_act)
            lost = self.to_act[slots] == -4
            if not self.redeal or not lost.any():
                return
            slots, seeds = slots[lost], rng.integers(2**32, 2**62, size=int(lost.sum()))

    def apply_checked(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
                      drawn: list[list[int]] | None) -> int:
        """Check and apply every slot's action, then draw its chance events, in one kernel call: -1, or the first
        illegal slot (nothing applied)."""
        bad = kernel.step(self.states, self.rule_data, np.ascontiguousarray(actions, dtype=np.int32),
                          np.ascontiguousarray(settle, dtype=np.uint8), rng.random(self.drawn.shape), self.drawn,
                          self.to_act)
        if bad < 0:
            self.record_drawn(self.drawn, drawn)
        return bad

    def returns(self) -> np.ndarray:
        won = (self.states[:, _L["result"]] == 0).astype(np.float64)
        return np.stack([won, won], axis=1)

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        kernel.observe(self.states, self.rule_data, np.ascontiguousarray(players, dtype=np.int32),
                       *(planes[p.name] for p in public_pieces(self.game)), planes["resolve"])

    def state(self, slot: int) -> State:
        return state_of_row(self.game, self.states[slot])


def batch_rules(game: Game, n: int, redeal: bool = True) -> EmbersBatch:
    """The batched environment's rules: the step kernel's rows."""
    return EmbersBatch(game, n, redeal)
