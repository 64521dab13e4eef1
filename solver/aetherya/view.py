"""Aetherya player views: what one player knows (AE-22, AE-41), advanced by what that player sees at the table.

A view holds every face-up card, the discard piles in order, the draw pile's
size (its cards once it was re-formed from the discard, AE-19), the Legend
row, every Legend held, the tiles in play and the Palantir peeks (their
targets are public, the tiles seen only by the one who looked, AE-41). It
does not hold the face-down cards (nobody looks at an Unexplored Territory,
its owner neither), the other players' starting cards before they are
arranged, the face-down tiles, the draw order or the Legend deck's order.

Internally a view keeps a *representative*: one full state consistent with
what the observer knows, whose unknown parts are always refilled in one
canonical way from the view's own data (so two equal views have equal
representatives, and nothing of a true state leaks through). The rules are
those of :class:`~solver.aetherya.state.AetheryaState` applied to it; an
outcome the observer enters (a card drawn, the card found under a territory,
a tile) is first *pinned* into the representative, which is refused when no
state consistent with the view has it (a ninth Dragon, a tile already seen).
What is unknown, the refill and the re-sampling are in ``solver/aetherya/knowledge.py``.

Move and outcome strings are those of the full state (``docs/formats/aetherya.md``):
``card H`` for every card the observer sees (a draw, a revealed or replaced
territory, the first discard, a card turned over at the end), ``card ?`` for
a card dealt unseen (a territory, another player's starting card), ``tile
griffin`` / ``tile ?`` for tiles, ``legend plains-3`` for Legends.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np

from solver.aetherya.cards import CARD_NAMES, CARD_TYPES, CELL_NAMES, LEGENDS, LETTERS, deck_counts, legend
from solver.aetherya.knowledge import (UNSEEN_DEALS, canonicalize, card_pool, no_such_card, refill, refill_tiles,
                                       resample, start_seats, tile_known, tile_pool, turn_over_cells)
from solver.aetherya.notation import (BASE_KEYS, MODE_KEYS, TILE_KEYS, parse_cards, state_from_json, state_to_json,
                                      view_json_to_notation)
from solver.aetherya.scoring import KingdomScore, board_array, legend_points, score_board
from solver.aetherya.state import (A_GRIFFIN, A_PEEK, A_PLACE, A_REVEAL, C_CARD, C_LEGEND, C_TILE, SOLO_DECK_PLAYERS,
                                   AetheryaState)
from solver.aetherya.tiles import (TILE_SLUGS, family_tiles, kind_from_slug, make_tile, tile_family, tile_from_json,
                                   tile_kind, tile_to_json)
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, View, join_view_notation
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get

UNSEEN = "?"
#: chance phases dealing a card from the pile that everybody sees
SEEN_DRAWS = ("first-discard", "draw", "reform")


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


class AetheryaView(View):
    """One player's view of an Aetherya game (see the module docstring)."""

    def __init__(self, game: Any, observer: int, rep: AetheryaState, unknown: list[int],
                 start_unknown: list[bool], awaiting: tuple[str, list[str]] | None = None) -> None:
        super().__init__(game, observer)
        self.rep = rep
        self.unknown = list(unknown)  # per seat: cells whose card the observer does not know
        self.start_unknown = list(start_unknown)  # per seat: starting cards not seen by the observer
        self.awaiting = awaiting  # a decision entered, waiting for the outcomes it shows (card, tile)

    # ------------------------------------------------------------------ building
    @staticmethod
    def of_state(state: AetheryaState, observer: int) -> AetheryaView:
        """``observer``'s view of a full state."""
        if isinstance(observer, bool) or not isinstance(observer, int) or not 0 <= observer < state.players:
            raise InvalidInputError("player", observer, f"expected a seat 0..{state.players - 1}")
        view = AetheryaView(state.game, observer, state.clone(), list(state.hidden),
                            [p != observer for p in range(state.players)])
        canonicalize(view)
        return view

    def clone(self) -> AetheryaView:
        awaiting = None if self.awaiting is None else (self.awaiting[0], list(self.awaiting[1]))
        return AetheryaView(self.game, self.observer, self.rep.clone(), self.unknown, self.start_unknown, awaiting)

    # ------------------------------------------------------------------ what is unknown (knowledge.py)
    def turn_over_cells(self) -> list[tuple[int, int]]:
        """Cards turned face up at the end (of the game, or of a solo Age) whose kind is still to be entered."""
        return turn_over_cells(self)

    def pool(self) -> Counter:
        """The cards the observer has not seen, by kind (:func:`~solver.aetherya.knowledge.card_pool`)."""
        return card_pool(self)

    def resample(self, rng: np.random.Generator) -> AetheryaState:
        """A full state drawn from those consistent with this view (:func:`~solver.aetherya.knowledge.resample`)."""
        return resample(self, rng)

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        if self.awaiting is not None or turn_over_cells(self):
            return CHANCE_PLAYER
        if self.rep.is_terminal():
            return TERMINAL_PLAYER
        return self.rep.current_player()

    def is_terminal(self) -> bool:
        return self.rep.is_terminal() and self.awaiting is None and not turn_over_cells(self)

    def returns(self) -> list[float] | None:
        return self.rep.returns() if self.is_terminal() else None

    def score(self, seat: int) -> KingdomScore:
        """``seat``'s score sheet from the cards the observer sees (unknown cards score nothing, AE-12)."""
        rep = self.rep
        points = 0
        if rep.mode in ("base", "objects"):
            points = legend_points(rep.held[seat])
        if rep.mode == "objects":
            points += rep.stones(seat)
        board = board_array(rep.kingdoms[seat], rep.hidden[seat] | self.unknown[seat])
        return score_board(board, rep.mask(rep.accords[seat]), rep.mask(rep.staffs[seat]), points)

    # ------------------------------------------------------------------ what may be entered
    def legal_moves(self) -> list[str]:
        rep = self.rep
        if self.awaiting is not None:
            what, seat, cell = self._next_need()
            if what == "card":
                return [f"card {LETTERS[k]}" for k in range(CARD_TYPES) if self._can_pin_cell(seat, cell, k)]
            return [f"tile {TILE_SLUGS[k]}" for k in range(len(TILE_SLUGS)) if tile_pool(self, seat)[make_tile(seat, k)]]
        turned = turn_over_cells(self)
        if turned:
            seat, cell = turned[0]
            return [f"card {LETTERS[k]}" for k in range(CARD_TYPES) if self._can_pin_cell(seat, cell, k)]
        if rep.is_terminal():
            return []
        if rep.is_chance_node():
            return self._chance_entries()
        if rep.phase == "arrange" and self.start_unknown[rep.to_move]:
            return self._other_arrangements()
        return [rep.action_to_string(a) for a in rep.legal_actions()]

    def _chance_entries(self) -> list[str]:
        rep = self.rep
        if rep.phase in ("legends", "refill"):
            return [f"legend {LEGENDS[n - 1].slug}" for n in sorted(rep.legend_deck)]
        if rep.phase == "tiles":
            return ["tile ?"]
        if rep.phase in UNSEEN_DEALS or (rep.phase == "start" and rep._start_seat() != self.observer):
            return ["card ?"]
        held = set(rep.start[self.observer]) if rep.phase == "start" else set()
        return [f"card {LETTERS[k]}" for k in range(CARD_TYPES) if k not in held and self._can_pin_pile(k)]

    def _other_arrangements(self) -> list[str]:
        pool = card_pool(self)
        kinds = [k for k in range(CARD_TYPES) if pool[k] > 0]
        return ["arrange " + "".join(LETTERS[k] for k in perm) for perm in itertools.permutations(kinds, 4)]

    def _trial(self, **pins: Any) -> bool:
        trial = self.clone()
        try:
            refill(trial, **pins)
        except IllegalMoveError:
            return False
        return True

    def _can_pin_cell(self, seat: int, cell: int, kind: int) -> bool:
        return self._trial(cells={(seat, cell): kind})

    def _can_pin_pile(self, kind: int) -> bool:
        if self.rep.pile_known:
            return self.rep.pile[kind] > 0
        return self.rep.pile[kind] > 0 or self._trial(pile_card=kind)

    # ------------------------------------------------------------------ entering moves and outcomes
    def apply_move(self, text: str, field: str = "move") -> None:
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string")
        wanted = _norm(text)
        if self.awaiting is not None:
            self._enter_awaited(wanted, text, field)
        elif turn_over_cells(self):
            seat, cell = turn_over_cells(self)[0]
            kind = self._parse_card(wanted, text, field, f"the card turned over on seat {seat}'s {CELL_NAMES[cell]}")
            refill(self, cells={(seat, cell): kind}, field=field, text=text)
            self.unknown[seat] &= ~(1 << cell)
            if not turn_over_cells(self):
                self._rescore_age()
            canonicalize(self)
        elif self.rep.is_terminal():
            raise IllegalMoveError(field, text, "the game is over")
        elif self.rep.is_chance_node():
            self._enter_chance(wanted, text, field)
        else:
            self._enter_decision(wanted, text, field)

    def _parse_card(self, wanted: str, text: str, field: str, what: str, unseen: bool = False,
                    hidden_how: str = "is dealt face down and nobody sees it") -> int:
        word, _, letter = wanted.partition(" ")
        if word not in ("card", "draw") or len(letter) != 1 or letter.upper() not in LETTERS:
            example = "card ?" if unseen else "card H"
            raise InvalidMoveError(field, text, f"expected {what} as '{example}'")
        if letter == "?":
            if unseen:
                return -1
            raise IllegalMoveError(field, text, f"{what} is seen by everybody at the table (AE-22): enter its letter, "
                                                "e.g. 'card H'")
        if unseen:
            raise IllegalMoveError(field, text, f"{what} {hidden_how} (AE-22): enter 'card ?'")
        return LETTERS.index(letter.upper())

    def _enter_chance(self, wanted: str, text: str, field: str) -> None:
        rep = self.rep
        if rep.phase in ("legends", "refill"):
            word, _, slug = wanted.partition(" ")
            if word != "legend":
                raise InvalidMoveError(field, text, "expected the Legend dealt face up, e.g. 'legend plains-3'")
            number = legend(slug, field).number
            if number not in rep.legend_deck:
                raise IllegalMoveError(field, text, f"{LEGENDS[number - 1].slug} is not in the Legend deck (it is "
                                                    "already face up, held, written or discarded)")
            self._apply_rep(C_LEGEND + number)
            return
        if rep.phase == "tiles":
            if wanted != "tile ?":
                raise IllegalMoveError(field, text, "tiles are dealt face down and nobody sees them: enter 'tile ?'")
            seat = rep._tile_deal_seat()
            self._apply_rep(C_TILE + tile_kind(min(rep.undealt[seat])))
            return
        if rep.phase == "start":
            seat = rep._start_seat()
            if seat != self.observer:
                self._parse_card(wanted, text, field, f"seat {seat}'s starting card", unseen=True,
                                 hidden_how="is seen by that player alone until arranged")
                kind = next(k for k in range(CARD_TYPES) if rep.pile[k] > 0 and k not in rep.start[seat])
                self._apply_rep(C_CARD + kind)
                return
            kind = self._parse_card(wanted, text, field, "your starting card")
            if kind in rep.start[seat]:
                raise IllegalMoveError(field, text, f"you already hold a {CARD_NAMES[kind]}: a duplicate is "
                                                    "discarded and another card drawn (AE-17)")
            self._draw(kind, text, field)
            return
        if rep.phase in UNSEEN_DEALS:
            self._parse_card(wanted, text, field, "a territory", unseen=True)
            self._apply_rep(C_CARD + next(k for k in range(CARD_TYPES) if rep.pile[k] > 0))
            return
        what = {"first-discard": "the first discard", "reform": "the new first discard"}.get(rep.phase, "the drawn card")
        self._draw(self._parse_card(wanted, text, field, what), text, field)

    def _draw(self, kind: int, text: str, field: str) -> None:
        refill(self, pile_card=kind, field=field, text=text)
        self._apply_rep(C_CARD + kind)

    def _enter_decision(self, wanted: str, text: str, field: str) -> None:
        rep = self.rep
        if rep.phase == "arrange" and self.start_unknown[rep.to_move]:
            word, _, letters = wanted.partition(" ")
            if word != "arrange" or len(letters) != 4 or any(ch.upper() not in LETTERS[:CARD_TYPES] for ch in letters):
                raise InvalidMoveError(field, text, "expected 'arrange' and the 4 letters for b2 c2 b3 c3, e.g. "
                                                    "'arrange HEDG'")
            kinds = [LETTERS.index(ch.upper()) for ch in letters]
            if len(set(kinds)) != 4:
                raise IllegalMoveError(field, text, "the 4 starting cards are of 4 different kinds (AE-17)")
            refill(self, start=(rep.to_move, kinds), field=field, text=text)
            self.start_unknown[rep.to_move] = False
        action = rep.parse_move(text, field)
        needs = self._needs(action)
        if needs:
            self.awaiting = (rep.action_to_string(action), [])
            return
        self._apply_rep(action)

    def _needs(self, action: int) -> list[tuple[str, int, int]]:
        """The outcomes the observer must enter before ``action`` can be played: the card under a territory it
        reveals or replaces, and the tile on it when the observer has not seen that tile."""
        rep, out = self.rep, []
        seat = rep.to_move
        if rep.phase == "place":
            cell = (action - (A_REVEAL if action >= A_REVEAL else A_PLACE)) % 16
            if self.unknown[seat] >> cell & 1:
                out.append(("card", seat, cell))
            if rep.mode == "objects" and rep.territory_tiles[seat][cell] >= 0 and not tile_known(self, seat, cell):
                out.append(("tile", seat, cell))
        elif rep.phase == "end-turn" and A_GRIFFIN <= action < A_PEEK + 64:
            q, cell = divmod(action - (A_PEEK if action >= A_PEEK else A_GRIFFIN), 16)
            peek = action >= A_PEEK
            if not tile_known(self, q, cell) and (not peek or seat == self.observer):
                out.append(("tile", q, cell))
        return out

    def _next_need(self) -> tuple[str, int, int]:
        move, entered = self.awaiting
        return self._needs(self.rep.parse_move(move))[len(entered)]

    def _enter_awaited(self, wanted: str, text: str, field: str) -> None:
        move, entered = self.awaiting[0], list(self.awaiting[1])
        what, seat, cell = self._next_need()
        where = f"seat {seat}'s {CELL_NAMES[cell]}"
        if what == "card":
            kind = self._parse_card(wanted, text, field, f"the card found on {where} (after '{move}')")
            if not self._can_pin_cell(seat, cell, kind):
                raise IllegalMoveError(field, text, no_such_card(self, kind))
            entered.append(f"card {LETTERS[kind]}")
        else:
            word, _, slug = wanted.partition(" ")
            if word != "tile" or slug == "?":
                raise InvalidMoveError(field, text, f"expected the tile on {where} (after '{move}'), e.g. 'tile griffin'")
            tile = make_tile(seat, kind_from_slug(slug, field))
            if tile_pool(self, seat)[tile] < 1:
                raise IllegalMoveError(field, text, f"no unseen {TILE_SLUGS[tile_kind(tile)]} of seat {seat}'s family "
                                                    "is left (the others are seen)")
            entered.append(f"tile {TILE_SLUGS[tile_kind(tile)]}")
        action = self.rep.parse_move(move)
        needs = self._needs(action)
        if len(entered) < len(needs):
            self.awaiting = (move, entered)
            return
        cells, tiles, revealed = {}, {}, [0] * self.rep.players
        for (kind, q, c), entry in zip(needs, entered):
            if kind == "card":
                cells[q, c] = LETTERS.index(entry.split()[1].upper())
                revealed[q] |= 1 << c
            else:
                tiles[q, c] = make_tile(q, TILE_SLUGS.index(entry.split()[1]))
        refill(self, cells=cells, field=field, text=text)
        refill_tiles(self, tiles, field=field, text=text)
        self.awaiting = None
        self._apply_rep(action, revealed)

    def _apply_rep(self, action: int, revealed: list[int] | None = None) -> None:
        """Play ``action`` on the representative and update what the observer knows."""
        rep = self.rep
        before = list(self.unknown)
        rep.apply_action(action)
        for q in range(rep.players):
            self.unknown[q] = rep.hidden[q] | (before[q] & ~(revealed[q] if revealed else 0))
        canonicalize(self)

    def _rescore_age(self) -> None:
        """Solo: the Age that just ended scored with cards turned over and entered since (AE-34)."""
        rep = self.rep
        if rep.mode != "solo" or rep.failed or not rep.age_scores:
            return
        ended = len(rep.age_scores) - 1
        rep.age_scores[-1] = rep.score(0).total - legend_points(rep.rows[ended])

    # ------------------------------------------------------------------ JSON and notation
    def to_json(self) -> dict[str, Any]:
        rep = self.rep
        data = state_to_json(rep)
        out: dict[str, Any] = {"view": self.observer}
        out.update(data)
        out["kingdoms"] = [masked_kingdom(rep.kingdoms[q], self.unknown[q]) for q in range(rep.players)]
        if not rep.pile_known:
            out["drawPile"] = sum(rep.pile)
        out["legendDeck"] = len(rep.legend_deck)
        out["start"] = [UNSEEN * len(rep.start[q]) if q in start_seats(self) else data["start"][q]
                        for q in range(rep.players)]
        if rep.mode == "solo" and turn_over_cells(self) and not rep.failed and rep.age_scores:
            out["ageScores"] = list(rep.age_scores[:-1]) + [None]
        if rep.mode == "objects":
            tiles = out["tiles"]
            tiles["territories"] = [{cell: (UNSEEN if not tile_known(self, q, CELL_NAMES.index(cell)) else tile)
                                     for cell, tile in tiles["territories"][q].items()} for q in range(rep.players)]
            tiles["undealt"] = [len(u) for u in rep.undealt]
            tiles["unrevealed"] = [sum(1 for t in rep.unrevealed if tile_family(t) == f) for f in range(rep.players)]
        out["awaiting"] = None if self.awaiting is None else {"move": self.awaiting[0],
                                                               "entered": list(self.awaiting[1])}
        return out

    def to_notation(self) -> str:
        return join_view_notation(self.observer, view_json_to_notation(self.to_json()))


def masked_kingdom(cards: list[int], unknown: int) -> str:
    """A kingdom as the observer sees it: face-up letters, ``?`` for a card not known, ``.`` for an empty cell."""
    text = "".join("." if cards[c] < 0 else UNSEEN if unknown >> c & 1 else LETTERS[cards[c]] for c in range(16))
    return "/".join(text[i:i + 4] for i in range(0, 16, 4))


# ---------------------------------------------------------------------- parsing a view's JSON
VIEW_KEYS = ("view", "awaiting")


def view_from_json(game: Any, obj: Any, field: str = "state") -> AetheryaView:
    """Parse and validate a view's JSON (``docs/formats/aetherya.md``): its unknown parts are filled in
    canonically and the result checked as a full state would be."""
    data = as_object(obj, field)
    mode = as_str(get(data, "mode", field), f"{field}.mode")
    check_keys(data, VIEW_KEYS + BASE_KEYS + MODE_KEYS.get(mode, ()), field)
    players = as_int(get(data, "players", field), f"{field}.players", 1, 4)
    observer = as_int(get(data, "view", field), f"{field}.view", 0, players - 1)
    full = {k: v for k, v in data.items() if k not in VIEW_KEYS}
    rows = as_list(get(data, "kingdoms", field), f"{field}.kingdoms", players, players)
    phase = as_str(get(data, "phase", field), f"{field}.phase")
    age = data.get("age", 1)
    over = phase == "over" or (mode == "solo" and phase in ("swap", "block") and isinstance(age, int) and age > 1)
    known: Counter = Counter()
    unknown_cells: list[list[int]] = []
    kingdoms: list[list[str]] = []
    for q, text in enumerate(rows):
        text = as_str(text, f"{field}.kingdoms[{q}]")
        cells = text.strip().split("/")
        if len(cells) != 4 or any(len(r) != 4 for r in cells):
            raise InvalidInputError(f"{field}.kingdoms[{q}]", text, "expected 4 rows of 4 letters joined by '/' "
                                                                    "(upper case face up, '?' unknown, '.' empty)")
        chars = list("".join(cells))
        unknown_cells.append([c for c, ch in enumerate(chars) if ch == UNSEEN])
        for c, ch in enumerate(chars):
            if ch in (UNSEEN, "."):
                continue
            if ch not in LETTERS[:CARD_TYPES]:
                problem = ("a view shows a face-down card as '?' (nobody knows its kind)" if ch.upper() in LETTERS
                           else "unknown card letter (expected PFMSHEDGRO, '?' or '.')")
                raise InvalidInputError(f"{field}.kingdoms[{q}] ({CELL_NAMES[c]})", ch, problem)
            known[LETTERS.index(ch)] += 1
        kingdoms.append(chars)
    for i, pile in enumerate(as_list(get(data, "discard", field), f"{field}.discard")):
        known.update(parse_cards(pile, f"{field}.discard[{i}]"))
    hold = data.get("hold")
    if isinstance(hold, dict) and isinstance(hold.get("card"), str):
        known.update(parse_cards(hold["card"], f"{field}.hold.card"))
    for i, item in enumerate(data.get("pair", []) if isinstance(data.get("pair", []), list) else []):
        if isinstance(item, dict) and isinstance(item.get("card"), str):
            known.update(parse_cards(item["card"], f"{field}.pair[{i}].card"))
    starts = as_list(data.get("start", [""] * players), f"{field}.start", players, players)
    start_unknown = [q != observer for q in range(players)]
    for q, text in enumerate(starts):
        text = as_str(text, f"{field}.start[{q}]")
        if q == observer:
            known.update(parse_cards(text, f"{field}.start[{q}]"))
        elif set(text) - {UNSEEN}:
            raise InvalidInputError(f"{field}.start[{q}]", text, "another seat's starting cards are not seen before "
                                                                 "they are arranged: one '?' per card")
    pile_value = get(data, "drawPile", field)
    pile_known = data.get("drawPileKnown", False) is True
    if pile_known:
        known.update(parse_cards(as_str(pile_value, f"{field}.drawPile"), f"{field}.drawPile"))
        pile_size = 0
    else:
        pile_size = as_int(pile_value, f"{field}.drawPile", 0, 80)
    deck = deck_counts(SOLO_DECK_PLAYERS if mode == "solo" else players)
    pool = Counter()
    for k in range(CARD_TYPES):
        left = deck[k] - known[k]
        if left < 0:
            raise ImpossibleStateError(f"{field}.kingdoms", LETTERS[k], f"{known[k]} {CARD_NAMES[k]} cards are seen "
                                                                        f"but the deck holds {deck[k]}")
        pool[k] = left
    slots = sum(len(u) for u in unknown_cells) + pile_size + sum(len(starts[q]) for q in range(players)
                                                                 if start_unknown[q])
    if sum(pool.values()) != slots:
        raise ImpossibleStateError(f"{field}.drawPile", pile_value, f"{sum(pool.values())} cards are unseen but the "
                                                                    f"view has {slots} places for them (face-down "
                                                                    "cards, other players' starting cards, the pile)")
    # other seats' starting cards: different kinds; the kingdoms' unknown cards; the rest is the pile
    full["start"] = list(starts)
    for q in range(players):
        if start_unknown[q]:
            need = len(starts[q])
            kinds = sorted((k for k in pool if pool[k] > 0), key=lambda k: (-pool[k], k))[:need]
            full["start"][q] = "".join(LETTERS[k] for k in kinds)
            pool -= Counter(kinds)
    rest = sorted(pool.elements())
    i = 0
    out_rows = []
    for q, chars in enumerate(kingdoms):
        for c in unknown_cells[q]:
            letter = LETTERS[rest[i]]
            chars[c] = letter if over else letter.lower()
            i += 1
        text = "".join(chars)
        out_rows.append("/".join(text[j:j + 4] for j in range(0, 16, 4)))
    full["kingdoms"] = out_rows
    if not pile_known:
        full["drawPile"] = "".join(LETTERS[k] for k in rest[i:])
    full["legendDeck"] = _legend_deck(data, mode, field)
    if mode == "solo" and isinstance(data.get("ageScores"), list):
        full["ageScores"] = [0 if x is None else x for x in data["ageScores"]]
    if mode == "objects":
        full["tiles"] = _fill_tiles(game, data.get("tiles"), players, f"{field}.tiles", TILE_KEYS)
    rep = state_from_json(game, full, field)
    unknown = [sum(1 << c for c in cells) for cells in unknown_cells]
    for q in range(players):
        if rep.hidden[q] & ~unknown[q]:
            raise InvalidInputError(f"{field}.kingdoms[{q}]", rows[q], "a face-down card is shown as '?'")
    view = AetheryaView(game, observer, rep, unknown, start_unknown)
    canonicalize(view)
    if mode == "solo" and view.turn_over_cells() and rep.age_scores and not rep.failed:
        if data.get("ageScores", [None])[-1] is not None:
            raise InvalidInputError(f"{field}.ageScores", data.get("ageScores"), "the last Age's score is unknown "
                                                                                "(null) until its turned-over cards "
                                                                                "are entered")
    awaiting = data.get("awaiting")
    if awaiting is not None:
        a = as_object(awaiting, f"{field}.awaiting")
        check_keys(a, ("move", "entered"), f"{field}.awaiting")
        move = as_str(get(a, "move", f"{field}.awaiting"), f"{field}.awaiting.move")
        entered = [as_str(x, f"{field}.awaiting.entered[{i}]")
                   for i, x in enumerate(as_list(a.get("entered", []), f"{field}.awaiting.entered"))]
        if view.current_player() == CHANCE_PLAYER or view.is_terminal():
            raise InvalidInputError(f"{field}.awaiting", awaiting, "only a decision waits for its outcomes")
        view.apply_move(move, f"{field}.awaiting.move")
        if view.awaiting is None:
            raise InvalidInputError(f"{field}.awaiting.move", move, "this move shows nothing to enter")
        for j, entry in enumerate(entered):
            view.apply_move(entry, f"{field}.awaiting.entered[{j}]")
            if view.awaiting is None:
                raise InvalidInputError(f"{field}.awaiting.entered", entered, "these outcomes complete the move: "
                                                                              "give the position after it")
    return view




def _legend_deck(data: dict[str, Any], mode: str, field: str) -> list[str]:
    """The Legend deck of a view: every Legend not seen elsewhere (its order is no part of a view)."""
    count = as_int(get(data, "legendDeck", field), f"{field}.legendDeck", 0, 15)
    seen: set[int] = set()
    places: list[Any] = [data.get("legendRow", []), data.get("box", []), data.get("legendDiscard", [])]
    places += list(data.get("legends", []) or []) + list(data.get("ageRows", []) or [])
    for items in places:
        if isinstance(items, list):
            for item in items:
                try:
                    seen.add(legend(item, f"{field}.legends").number)
                except InvalidInputError:
                    pass  # reported with its own field by the state's validation
    deck = [leg.slug for leg in LEGENDS if leg.number not in seen]
    if len(deck) != count:
        raise ImpossibleStateError(f"{field}.legendDeck", count, f"{len(deck)} Legends are in no other place "
                                                                  "(row, held, written, discarded)")
    return deck


def _fill_tiles(game: Any, obj: Any, players: int, field: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """A view's tiles with the unseen ones filled in canonically (each family's own unseen tiles)."""
    data = dict(as_object(obj if obj is not None else {}, field))
    check_keys(data, keys, field)
    families = game.families
    known: Counter = Counter()

    def note(value: Any, where: str) -> None:
        known[tile_from_json(value, where, players)] += 1

    territories = [dict(as_object(m, f"{field}.territories[{q}]"))
                   for q, m in enumerate(as_list(data.get("territories", [{}] * players), f"{field}.territories",
                                                 players, players))]
    for q, cells in enumerate(territories):
        for cell, value in cells.items():
            if value != UNSEEN:
                note(value, f"{field}.territories[{q}].{cell}")
    for key in ("owned",):
        for q, items in enumerate(as_list(data.get(key, [[]] * players), f"{field}.{key}", players, players)):
            for i, value in enumerate(as_list(items, f"{field}.{key}[{q}]")):
                note(value, f"{field}.{key}[{q}][{i}]")
    for key in ("accords", "staffs"):
        for q, cells in enumerate(as_list(data.get(key, [{}] * players), f"{field}.{key}", players, players)):
            for cell, value in as_object(cells, f"{field}.{key}[{q}]").items():
                note(value, f"{field}.{key}[{q}].{cell}")
    for i, value in enumerate(as_list(data.get("discard", []), f"{field}.discard")):
        note(value, f"{field}.discard[{i}]")
    if data.get("pending") is not None:
        note(data["pending"], f"{field}.pending")
    undealt = [as_int(n, f"{field}.undealt[{q}]", 0, 12)
               for q, n in enumerate(as_list(data.get("undealt", [0] * players), f"{field}.undealt", players, players))]
    unrevealed = [as_int(n, f"{field}.unrevealed[{q}]", 0, 12) for q, n in
                  enumerate(as_list(data.get("unrevealed", [0] * players), f"{field}.unrevealed", players, players))]
    out_undealt, out_unrevealed = [], []
    for family in range(players):
        pool = Counter(family_tiles(families, family))
        for tile, n in known.items():
            if tile_family(tile) == family:
                pool[tile] -= n
        if any(n < 0 for n in pool.values()):
            tile = next(t for t, n in pool.items() if n < 0)
            raise ImpossibleStateError(field, tile_to_json(tile), "seen more often than the family holds it")
        rest = sorted(pool.elements())
        slots = [c for c, v in sorted(territories[family].items(), key=lambda kv: CELL_NAMES.index(kv[0])
                                      if kv[0] in CELL_NAMES else 99) if v == UNSEEN]
        need = len(slots) + undealt[family] + unrevealed[family]
        if need != len(rest):
            raise ImpossibleStateError(f"{field}.territories[{family}]", need, f"seat {family}'s family has "
                                                                              f"{len(rest)} unseen tiles for {need} "
                                                                              "places")
        for j, cell in enumerate(slots):
            territories[family][cell] = tile_to_json(rest[j])
        out_undealt.append([tile_to_json(t) for t in rest[len(slots):len(slots) + undealt[family]]])
        out_unrevealed += [tile_to_json(t) for t in rest[len(slots) + undealt[family]:]]
    data["territories"] = territories
    data["undealt"] = out_undealt
    data["unrevealed"] = out_unrevealed
    return data


__all__ = ["AetheryaView", "view_from_json"]

