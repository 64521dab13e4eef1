"""Pure-Python twin of ``src/embers_step.pxi``: N Embers of Memory games stepped together.

Same functions, parameters and results as the kernel, on the same rows (the layout of ``src/embers_row.pxd``),
with the Mind's rules of the twins ``embers_placement`` and ``embers_mind``. Each rule of
``solver/embers/state.py`` is a method of :class:`_Game`, a row read into Python lists and written back.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np

from solver.twins import embers_mind as mind_rules
from solver.twins import embers_placement as placement_rules

MAXC, MAX_ROWS, MAX_DEMONS, ROW_CARDS, TARGET, MAX_DRAWS = 64, 4, 5, 8, 7, 16
TERMINAL, CHANCE, FENRYS, AELIN = -4, -1, 0, 1
HEADER = ("chapter", "part", "day", "turn", "phase", "completed", "added", "kind", "value", "result", "n_mind",
          "n_row", "n_demons", "n_discard", "n_box", "n_rows", "n_pile")
PILE = 20
MIND = PILE + MAXC
ROW = MIND + 3 * MAXC
DISCARD = ROW + MAXC
BOX = DISCARD + MAXC
DEMONS = BOX + MAXC
DEMON_WORDS = 2 + MAXC
STRENGTH = DEMONS + MAX_DEMONS * DEMON_WORDS
ROW_WORDS = 4 + ROW_CARDS
STATE_LEN = STRENGTH + MAX_ROWS * ROW_WORDS
(P_ARRANGE, P_DRAW, P_OBSERVE, P_BLINK, P_REVEAL, P_SPLIT, P_ACK, P_DEAL, P_OVER, P_FIRST,
 P_SECOND) = range(11)
PHASE_INDEX = ((0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1), (4, 3, -1, -1, -1, 6, 5, 0, 7, 1, 2))
WON, LOST_DECK, LOST_PLACEMENT, LOST_MIND, LOST_SETUP = range(5)
K_SUIT, K_ROW = 0, 1
A_DRAW, A_STOP, A_PASS = 0, 1, 2
ORDERS = 24


def state_len() -> int:
    """The int32 words of one game's row."""
    return STATE_LEN


def layout() -> dict[str, int]:
    """The row's blocks: name -> first word (``embers_row.pxd``), and the header's words by name."""
    return {"PILE": PILE, "MIND": MIND, "ROW": ROW, "DISCARD": DISCARD, "BOX": BOX, "DEMONS": DEMONS,
            "DEMON_WORDS": DEMON_WORDS, "STRENGTH": STRENGTH, "ROW_WORDS": ROW_WORDS,
            **{name: k for k, name in enumerate(HEADER)}}


def max_draws() -> int:
    """At most how many chance outcomes follow one decision (the width of ``uniforms`` and ``drawn``)."""
    return MAX_DRAWS


class _Deck:
    def __init__(self, deck: Any) -> None:
        table = np.asarray(deck)
        if table.ndim != 2 or table.shape[1] != 3 or not 1 <= table.shape[0] <= MAXC:
            raise ValueError("deck: expected (cards, 3) rows of suit, strength, blocked, at most 64 cards")
        for c, (suit, strength, blocked) in enumerate(table.tolist()):
            if not (0 <= suit < MAX_DEMONS and 0 <= strength <= TARGET and 0 <= blocked < 16):
                raise ValueError(f"deck[{c}]: expected a suit 0-4, a strength 0-7 and a blocked mask 0-15")
        self.suit, self.strength, self.blocked = (table[:, k].tolist() for k in range(3))
        self.cards = len(self.suit)
        self.reach = sum(1 for s in self.strength if s > 0)
        self.side = 2 * self.reach + 1
        self.take_base, self.keep_base, self.reveal_base = 3 + self.cards, 3 + 2 * self.cards, 3 + 3 * self.cards
        self.arrange_base = self.reveal_base + MAX_ROWS
        self.add_base = self.arrange_base + ORDERS
        self.num_actions = self.add_base + self.cards * self.side * self.side

    def demon(self, card: int) -> bool:
        return self.strength[card] == 0


class _Game:
    """One row as Python lists: the header, the deck as a set, the Mind as (card, x, y), the demons as (demon,
    tainted), the strength rows as [resolve, face up, at least, cards]."""

    def __init__(self, row: Any, deck: _Deck) -> None:
        s = [int(v) for v in row]
        self.d = deck
        self.h = dict(zip(HEADER, s))
        self.pile = {c for c in range(MAXC) if s[PILE + c]}
        self.mind = [tuple(s[MIND + 3 * k:MIND + 3 * k + 3]) for k in range(self.h["n_mind"])]
        self.row = s[ROW:ROW + self.h["n_row"]]
        self.discard = s[DISCARD:DISCARD + self.h["n_discard"]]
        self.box = s[BOX:BOX + self.h["n_box"]]
        slots = [s[DEMONS + i * DEMON_WORDS:DEMONS + (i + 1) * DEMON_WORDS] for i in range(self.h["n_demons"])]
        self.demons = [(w[0], w[2:2 + w[1]]) for w in slots]
        rows = [s[STRENGTH + i * ROW_WORDS:STRENGTH + (i + 1) * ROW_WORDS] for i in range(self.h["n_rows"])]
        self.rows = [[w[0], w[1], w[2], w[4:4 + w[3]]] for w in rows]

    def write(self, out: Any) -> None:
        s = [0] * STATE_LEN
        h = {**self.h, "n_mind": len(self.mind), "n_row": len(self.row), "n_discard": len(self.discard),
             "n_box": len(self.box), "n_demons": len(self.demons), "n_rows": len(self.rows), "n_pile": len(self.pile)}
        for k, name in enumerate(HEADER):
            s[k] = h[name]
        for c in self.pile:
            s[PILE + c] = 1
        for k, entry in enumerate(self.mind):
            s[MIND + 3 * k:MIND + 3 * k + 3] = entry
        for base, items in ((ROW, self.row), (DISCARD, self.discard), (BOX, self.box)):
            s[base:base + len(items)] = items
        for i, (demon, tainted) in enumerate(self.demons):
            at = DEMONS + i * DEMON_WORDS
            s[at:at + 2 + len(tainted)] = [demon, len(tainted), *tainted]
        for i, (resolve, up, least, cards) in enumerate(self.rows):
            at = STRENGTH + i * ROW_WORDS
            s[at:at + 4 + len(cards)] = [resolve, up, least, len(cards), *cards]
        out[:] = s

    # -- the Mind ----------------------------------------------------------------------------------------------
    def _xy(self) -> tuple[list[int], list[int]]:
        return [e[1] for e in self.mind], [e[2] for e in self.mind]

    def sections(self) -> list[list[int]]:
        """The sections of the visible Mind as lists of stack positions."""
        if not self.mind:
            return []
        xs, ys = self._xy()
        labels = np.zeros(len(xs), dtype=np.int32)
        count = mind_rules.section_labels(xs, ys, mind_rules.visible_mask(xs, ys), labels)
        return [[k for k in range(len(xs)) if labels[k] == part] for part in range(count)]

    def placements(self, card: int) -> list[int]:
        """The add ids of ``card``'s legal placements, by x then y."""
        if not self.mind:
            return []
        xs, ys = self._xy()
        masks = np.zeros((1, 64), dtype=np.uint64)
        x0, y0 = placement_rules.legal_placement_masks(xs, ys, [self.d.blocked[e[0]] for e in self.mind],
                                                       [self.d.blocked[card]], masks)
        spots = sorted((x0 + c, y0 + r) for r in range(64) for c in range(64) if int(masks[0, r]) >> c & 1)
        d = self.d
        return [d.add_base + (card * d.side + x + d.reach) * d.side + y + d.reach for x, y in spots]

    def can_place(self) -> bool:
        return any(self.placements(c) for c in self.row if not self.d.demon(c))

    def relives(self) -> bool:
        xs, ys = self._xy()
        cards = [e[0] for e in self.mind]
        return bool(cards) and mind_rules.group_strength(xs, ys, [self.d.suit[c] for c in cards],
                                                         [self.d.strength[c] for c in cards], len(cards) - 1) == TARGET

    # -- legal actions -----------------------------------------------------------------------------------------
    def player(self) -> int:
        h = self.h
        if h["result"] >= 0:
            return TERMINAL
        if h["phase"] in (P_DRAW, P_DEAL):
            return CHANCE
        return AELIN if h["phase"] in (P_REVEAL, P_SPLIT, P_ARRANGE) else h["turn"]

    def legal(self) -> list[int]:
        h, d = self.h, self.d
        phase = h["phase"]
        if h["result"] >= 0:
            return []
        if phase in (P_DRAW, P_DEAL):
            return sorted(c for c in self.pile if not (phase == P_DEAL and d.demon(c)))
        if phase == P_OBSERVE:
            return [A_DRAW, A_STOP] if self.pile else [A_STOP]
        if phase in (P_BLINK, P_FIRST, P_SECOND):
            memory = sorted(c for c in self.row if not d.demon(c))
            found = [3 + c for c in memory] if phase == P_SECOND or (phase == P_BLINK and h["added"]) else []
            return found + [a for c in memory for a in self.placements(c)]
        if phase == P_ACK:
            xs, ys = self._xy()
            shown = mind_rules.visible_mask(xs, ys) if self.mind else 0
            return sorted(d.take_base + e[0] for k, e in enumerate(self.mind) if shown >> k & 1)
        if phase == P_SPLIT:
            return sorted(d.keep_base + self.mind[part[0]][0] for part in self.sections())
        if phase == P_REVEAL:
            return [A_PASS] + [d.reveal_base + i for i in self.revealable()]
        return [d.arrange_base + i for i in range(len(list(permutations(range(len(self.rows))))))]

    def revealable(self) -> list[int]:
        kind, value, suit = self.h["kind"], self.h["value"], self.d.suit
        if kind == K_SUIT:
            return [i for i, r in enumerate(self.rows) if not r[1] and suit[r[0]] == value]
        if kind == K_ROW:
            r = self.rows[value]
            if not r[1] and r[3] and suit[r[3][-1]] == suit[r[0]]:
                return [value]
        return []

    # -- the rules (solver/embers/state.py) ----------------------------------------------------------------------
    def finish(self, result: int) -> None:
        self.h.update(result=result, phase=P_OVER, kind=-1, value=0)

    def discard_card(self, card: int) -> None:
        if self.h["chapter"] == 0:
            for demon, tainted in self.demons:
                if self.d.suit[demon] == self.d.suit[card]:
                    tainted.append(card)
                    return
        self.discard.append(card)

    def banish(self, suit: int) -> None:
        for i, (demon, tainted) in enumerate(self.demons):
            if self.d.suit[demon] == suit:
                del self.demons[i]
                self.discard += [demon, *tainted]
                return

    def row_total(self, i: int) -> int:
        r = self.rows[i]
        return self.d.strength[r[0]] + sum(self.d.strength[c] for c in r[3])

    def start_fenrys_turn(self) -> None:
        self.h.update(turn=FENRYS, added=0, kind=-1, value=0)
        if not self.pile:
            self.finish(LOST_DECK)
        else:
            self.h["phase"] = P_DRAW

    def start_prologue_turn(self, player: int) -> None:
        self.h.update(turn=player, added=0)
        if not self.pile:
            self.finish(LOST_DECK)
        elif not self.can_place():
            self.finish(LOST_PLACEMENT)
        else:
            self.h["phase"] = P_FIRST

    def start_part_two_turn(self, player: int) -> None:
        self.h.update(turn=player, added=0)
        if not self.mind:
            self.finish(LOST_MIND)
        else:
            self.h["phase"] = P_ACK

    def end_prologue_plays(self) -> None:
        if self.h["phase"] == P_FIRST:
            self.h["phase"] = P_SECOND
        elif self.pile and len(self.row) < 4:
            self.h["phase"] = P_DRAW
        else:
            self.start_prologue_turn(1 - self.h["turn"])

    def start_part_two(self) -> None:
        self.discard += self.row + sorted(self.pile)
        self.row, self.pile = [], set()
        self.h.update(part=2, added=0, turn=AELIN, phase=P_ARRANGE)

    def prologue_relive(self) -> None:
        for r in self.rows:
            if not r[1]:
                r[1] = 1
                break
        if all(r[1] for r in self.rows):
            self.start_part_two()
        else:
            self.end_prologue_plays()

    def day_end(self) -> None:
        if self.h["day"] == 3:
            self.finish(WON)
            return
        for card, _, _ in self.mind:
            self.discard_card(card)
        for resolve, _, _, cards in self.rows:
            for card in [resolve, *cards]:
                self.discard_card(card)
        for demon, tainted in self.demons:
            self.box += tainted
            self.discard.append(demon)
        self.demons, self.mind, self.rows = [], [], []
        self.pile |= set(self.discard)
        self.discard = []
        self.h.update(completed=0, added=0, day=self.h["day"] + 1)
        if sum(1 for c in self.pile if not self.d.demon(c)) < 1 + MAX_ROWS:
            self.finish(LOST_SETUP)
        else:
            self.h["phase"] = P_DEAL

    def after_acknowledge(self) -> None:
        if not self.mind:
            self.finish(LOST_MIND)
            return
        if self.row_total(self.h["completed"]) == TARGET:
            self.h["completed"] += 1
        if self.h["completed"] == len(self.rows):
            self.day_end()
        else:
            self.start_fenrys_turn()

    def end_part_two_take(self) -> None:
        if self.row_total(self.h["completed"]) == TARGET:
            self.h["completed"] += 1
        if self.h["completed"] == len(self.rows):
            self.finish(WON)
        else:
            self.start_part_two_turn(1 - self.h["turn"])

    def continue_turn(self) -> None:
        if self.h["chapter"] == 1:
            if self.h["added"]:
                self.end_part_two_take()
            else:
                self.start_part_two_turn(AELIN)
        elif self.h["turn"] == FENRYS:
            if self.row:
                self.h["phase"] = P_BLINK
            else:
                self.h.update(turn=AELIN, phase=P_ACK)
        else:
            self.after_acknowledge()

    def check_split(self) -> None:
        if len(self.sections()) > 1:
            self.h["phase"] = P_SPLIT
        else:
            self.continue_turn()

    def keep_section(self, first: int) -> None:
        lost = {k for part in self.sections() if self.mind[part[0]][0] != first for k in part}
        for k in sorted(lost):
            self.discard_card(self.mind[k][0])
        self.mind = [e for k, e in enumerate(self.mind) if k not in lost]
        self.check_split()

    def stop_drawing(self) -> None:
        self.demons += [(c, []) for c in self.row if self.d.demon(c)]
        self.row = [c for c in self.row if not self.d.demon(c)]
        if not self.can_place():
            self.finish(LOST_PLACEMENT)
        else:
            self.h["phase"] = P_BLINK

    def after_add(self, card: int) -> None:
        if self.relives():
            if self.h["chapter"] == 1:
                self.prologue_relive()
                return
            self.banish(self.d.suit[card])
            if any(not r[1] for r in self.rows):
                self.h.update(phase=P_REVEAL, kind=K_SUIT, value=self.d.suit[card])
                return
        if self.h["chapter"] == 1:
            self.end_prologue_plays()
        else:
            self.check_split()

    def take(self, card: int) -> None:
        h, strength = self.h, self.d.strength
        self.mind = [e for e in self.mind if e[0] != card]
        if h["chapter"] == 1:
            h["added"] = 1
        r = self.rows[h["completed"]]
        if self.row_total(h["completed"]) + strength[card] > TARGET:
            self.discard_card(card)
            if not r[1]:
                r[2] = max(r[2], TARGET + 1 - sum(strength[c] for c in r[3]) - strength[card])
        else:
            r[3].append(card)
            if h["chapter"] == 0 and not r[1]:
                h.update(phase=P_REVEAL, kind=K_ROW, value=h["completed"])
                return
        self.check_split()

    def deal_card(self, card: int) -> None:
        h = self.h
        self.pile.discard(card)
        rows = MAX_ROWS - h["chapter"]
        if not self.mind:
            self.mind = [(card, 0, 0)]
        elif len(self.rows) < rows:
            self.rows.append([card, 0, 0, []])
        else:
            self.row.append(card)
        if h["chapter"] == 1:
            if len(self.row) == 4:
                self.start_prologue_turn(FENRYS)
            return
        if len(self.rows) == rows:
            if h["day"] == 1:
                self.pile |= {c for c in range(self.d.cards) if self.d.demon(c)}
            h.update(turn=FENRYS, phase=P_ARRANGE)

    def apply(self, action: int) -> None:
        h, d = self.h, self.d
        phase = h["phase"]
        if phase == P_DRAW:
            self.pile.discard(action)
            self.row.append(action)
            if h["chapter"] == 0:
                h["phase"] = P_OBSERVE
            elif len(self.row) >= 4 or not self.pile:
                self.start_prologue_turn(1 - h["turn"])
        elif phase == P_DEAL:
            self.deal_card(action)
        elif action == A_DRAW:
            h["phase"] = P_DRAW
        elif action == A_STOP:
            self.stop_drawing()
        elif action == A_PASS:
            h.update(kind=-1, value=0)
            self.check_split()
        elif action >= d.add_base:
            card, rest = divmod(action - d.add_base, d.side * d.side)
            x, y = divmod(rest, d.side)
            self.row.remove(card)
            self.mind.append((card, x - d.reach, y - d.reach))
            h["added"] = 1
            self.after_add(card)
        elif action >= d.arrange_base:
            order = list(permutations(range(len(self.rows))))[action - d.arrange_base]
            self.rows = [self.rows[i] for i in order]
            h["added"] = 0
            self.start_fenrys_turn() if h["chapter"] == 0 else self.check_split()
        elif action >= d.reveal_base:
            self.rows[action - d.reveal_base][1:3] = [1, 0]
            h.update(kind=-1, value=0)
            self.check_split()
        elif action >= d.keep_base:
            self.keep_section(action - d.keep_base)
        elif action >= d.take_base:
            self.take(action - d.take_base)
        else:
            self.row.remove(action - 3)
            self.discard_card(action - 3)
            self.end_prologue_plays() if h["chapter"] == 1 else self.continue_turn()


# -- checks -----------------------------------------------------------------------------------------------------
SPAN = 30   # Mind positions within 30 of (0, 0): a span of 60 quarters at most, what the kernel's bitboards hold


def _problem(s: list[int], cards: int) -> str | None:
    """Why row ``s`` is not a state of this deck (None when it is one), as the kernel checks it."""
    h = dict(zip(HEADER, s))

    def bad_list(at: int, count: int, most: int, width: int = 1) -> bool:
        return not 0 <= count <= most or any(not 0 <= s[at + k * width] < cards for k in range(count))

    if not (0 <= h["chapter"] <= 1 and 0 <= h["phase"] < 11):
        return "chapter or phase"
    if PHASE_INDEX[h["chapter"]][h["phase"]] < 0 or not 0 <= h["turn"] <= 1:
        return "phase or turn"
    if not (-1 <= h["result"] <= LOST_SETUP and 1 <= h["day"] <= 3 and 0 <= h["part"] <= 2 and 0 <= h["added"] <= 1):
        return "result, day, part or added"
    if not (0 <= h["n_rows"] <= MAX_ROWS - h["chapter"] and 0 <= h["completed"] <= h["n_rows"]):
        return "strength rows"
    if not (-1 <= h["kind"] <= K_ROW and 0 <= h["value"] <= 4) or (h["kind"] == K_ROW and h["value"] >= h["n_rows"]):
        return "pending"
    if bad_list(MIND, h["n_mind"], MAXC, 3) or bad_list(ROW, h["n_row"], MAXC) or \
            bad_list(DISCARD, h["n_discard"], MAXC) or bad_list(BOX, h["n_box"], MAXC) or \
            bad_list(DEMONS, h["n_demons"], MAX_DEMONS, DEMON_WORDS):
        return "a card list"
    if any(not (abs(s[MIND + 3 * k + 1]) <= SPAN and abs(s[MIND + 3 * k + 2]) <= SPAN) for k in range(h["n_mind"])):
        return "a Mind position"
    if any(bad_list(DEMONS + i * DEMON_WORDS + 2, s[DEMONS + i * DEMON_WORDS + 1], MAXC) for i in range(h["n_demons"])):
        return "tainted cards"
    for i in range(h["n_rows"]):
        at = STRENGTH + i * ROW_WORDS
        if bad_list(at, 1, 1) or not 0 <= s[at + 1] <= 1 or bad_list(at + 4, s[at + 3], ROW_CARDS - 1):
            return "a strength row"
    flags = s[PILE:PILE + MAXC]
    if any(not 0 <= f <= 1 or (c >= cards and f) for c, f in enumerate(flags)):
        return "the deck"
    return "the deck's count" if sum(flags) != h["n_pile"] else None


def _games(states: Any, deck: Any) -> tuple[_Deck, list[_Game]]:
    d = _Deck(deck)
    if np.asarray(states).ndim != 2 or np.asarray(states).shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words")
    games = []
    for i, row in enumerate(states):
        problem = _problem([int(v) for v in row], d.cards)
        if problem is not None:
            raise ValueError(f"states[{i}]: not an Embers state ({problem})")
        games.append(_Game(row, d))
    return d, games


# -- the batch --------------------------------------------------------------------------------------------------
def deal(states: Any, deck: Any, slots: Any, chapter: int, orders: Any) -> None:
    """Deal a new game into row ``slots[j]`` from ``orders[j]``, the memory cards in the order the game's seeded
    shuffle gives (``EmbersState.deal_initial``)."""
    d = _Deck(deck)
    rows = MAX_ROWS - chapter
    if np.asarray(states).shape[1] != STATE_LEN or chapter not in (0, 1) or len(orders) != len(slots):
        raise ValueError("deal: expected states rows, chapter 0 or 1 and one order per slot")
    if np.asarray(orders).shape[1] < 1 + rows + 4 * chapter:
        raise ValueError(f"orders: not enough memory cards to set up (need {1 + rows + 4 * chapter})")
    for j, slot in enumerate(slots):
        if not 0 <= slot < len(states):
            raise ValueError(f"slots[{j}]: no such row")
        for k, card in enumerate(orders[j]):
            if not 0 <= card < d.cards or d.demon(int(card)):
                raise ValueError(f"orders[{j}, {k}]: not a memory card")
    for j, slot in enumerate(slots):
        order = [int(c) for c in orders[j]]
        g = _Game([0] * STATE_LEN, d)
        g.h.update(chapter=chapter, part=chapter, day=1, result=-1, kind=-1)
        g.mind = [(order[0], 0, 0)]
        g.rows = [[c, 0, 0, []] for c in order[1:1 + rows]]
        rest = order[1 + rows:]
        if chapter == 1:
            g.row, rest = rest[:4], rest[4:]
        g.pile = set(rest)
        if chapter == 1:
            g.start_prologue_turn(FENRYS)
        else:
            g.pile |= {c for c in range(d.cards) if d.demon(c)}
            g.h.update(turn=FENRYS, phase=P_ARRANGE)
        g.write(states[slot])


def players(states: Any, out: Any) -> None:
    """``out[i]``: the player to act in row ``i`` (-1: a chance event, -4: the game is over)."""
    if np.asarray(states).shape[1] != STATE_LEN or len(out) != len(states):
        raise ValueError("players: expected states rows and n entries")
    for i, row in enumerate(states):
        h = dict(zip(HEADER, (int(v) for v in row)))
        out[i] = TERMINAL if h["result"] >= 0 else CHANCE if h["phase"] in (P_DRAW, P_DEAL) else \
            AELIN if h["phase"] in (P_REVEAL, P_SPLIT, P_ARRANGE) else h["turn"]


def legal_counts(states: Any, deck: Any, counts: Any) -> None:
    """``counts[i]``: how many legal actions (or chance outcomes) row ``i`` has (0 once its game is over)."""
    _, games = _games(states, deck)
    if len(counts) != len(games):
        raise ValueError("counts: expected n entries")
    for i, g in enumerate(games):
        counts[i] = len(g.legal())


def legal_mask(states: Any, deck: Any, out: Any) -> None:
    """Set ``out[i, a]`` for every legal action ``a`` of row ``i`` (decisions only: a chance row sets nothing)."""
    d, games = _games(states, deck)
    if np.asarray(out).shape != (len(games), d.num_actions):
        raise ValueError("out: expected (n, num_distinct_actions)")
    for i, g in enumerate(games):
        if g.player() >= 0:
            for a in g.legal():
                out[i, a] = 1


def random_legal(states: Any, deck: Any, uniforms: Any, out: Any) -> None:
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i``, -1 where the game is over."""
    _, games = _games(states, deck)
    if len(uniforms) != len(games) or len(out) != len(games):
        raise ValueError("uniforms and out: expected n entries")
    for i, u in enumerate(uniforms):
        if not 0.0 <= u < 1.0:
            raise ValueError(f"uniforms[{i}]: expected a number in [0, 1), got {u}")
    for i, g in enumerate(games):
        listed = g.legal()
        out[i] = listed[int(float(uniforms[i]) * len(listed))] if listed else -1


def step(states: Any, deck: Any, actions: Any, settle: Any, uniforms: Any, drawn: Any, players: Any) -> int:
    """Apply the decision ``actions[i]`` to row ``i`` in place; where ``settle[i]``, then draw chance outcomes to the
    next decision (the ``k``-th of rank ``floor(uniforms[i, k] * count)``), written to ``drawn[i]`` (-1 after the
    last); ``players[i]``: who acts next. When an action is not a legal decision nothing is applied and the first
    such row is returned; otherwise -1."""
    _, games = _games(states, deck)
    n = len(games)
    if len(actions) != n or len(settle) != n or len(players) != n:
        raise ValueError("actions, settle and players: expected n entries")
    if np.asarray(uniforms).shape != (n, MAX_DRAWS) or np.asarray(drawn).shape != (n, MAX_DRAWS):
        raise ValueError(f"uniforms and drawn: expected (n, {MAX_DRAWS})")
    if not ((np.asarray(uniforms) >= 0.0) & (np.asarray(uniforms) < 1.0)).all():
        bad = np.argwhere(~((np.asarray(uniforms) >= 0.0) & (np.asarray(uniforms) < 1.0)))[0]
        raise ValueError(f"uniforms[{bad[0]}, {bad[1]}]: expected a number in [0, 1), "
                         f"got {np.asarray(uniforms)[bad[0], bad[1]]}")
    for i, g in enumerate(games):
        if g.player() < 0 or int(actions[i]) not in g.legal():
            return i
    for i, g in enumerate(games):
        g.apply(int(actions[i]))
        drawn[i, :] = -1
        k = 0
        while settle[i] and g.player() == CHANCE and k < MAX_DRAWS:
            listed = g.legal()
            drawn[i, k] = listed[int(float(uniforms[i, k]) * len(listed))]
            g.apply(int(drawn[i, k]))
            k += 1
        g.write(states[i])
        players[i] = g.player()
    return -1


def observe(states: Any, deck: Any, players: Any, where: Any, order: Any, mind: Any, rows: Any, completed: Any,
            day: Any, part: Any, turn: Any, to_move: Any, phase: Any, added: Any, pending: Any, result: Any,
            deck_count: Any, resolve: Any) -> None:
    """Fill the zeroed pieces of each row's observation by ``players[i]`` (``fill_public``/``fill_private`` of
    ``solver/embers/openspiel.py``)."""
    d, games = _games(states, deck)
    n, cards = len(games), d.cards
    count = where.shape[2] // 2 - 3
    if len(players) != n or where.shape[:2] != (n, cards) or resolve.shape[1] != count:
        raise ValueError("observe: expected n players and the planes of this deck")
    for i, g in enumerate(games):
        h = g.h

        def place(zone: int, items: list[int]) -> None:
            for k, card in enumerate(items):
                where[i, card, 0], where[i, card, zone] = 0, 1
                order[i, card] = (k + 1) / cards

        where[i, :, 0] = 1
        place(1, [e[0] for e in g.mind])
        for card, x, y in g.mind:
            mind[i, card] = (x / d.reach, y / d.reach)
        place(2, g.row)
        place(5, g.discard)
        place(6, g.box)
        place(3, [demon for demon, _ in g.demons])
        for _, tainted in g.demons:
            place(4, tainted)
        for r, (card, up, least, added_cards) in enumerate(g.rows):
            rows[i, r] = (1, up, least / TARGET)
            if up:
                where[i, card, 0], where[i, card, 7 + r] = 0, 1
            place(7 + count + r, added_cards)
            resolve[i, r, card if h["chapter"] == 0 and players[i] == AELIN and not up else cards] = 1
        completed[i, h["completed"]] = 1
        day[i, h["day"] - 1] = 1
        part[i, h["part"]] = 1
        turn[i, h["turn"]] = 1
        actor = g.player()
        to_move[i, actor if actor >= 0 else 2] = 1
        phase[i, PHASE_INDEX[h["chapter"]][h["phase"]]] = 1
        added[i, 0] = h["added"]
        if h["kind"] < 0:
            pending[i, 0] = 1
        else:
            pending[i, 1 + h["kind"]] = 1
            pending[i, 4 + h["value"]] = 1
        result[i, h["result"] + 1] = 1
        deck_count[i, 0] = len(g.pile) / cards
