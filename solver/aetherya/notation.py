"""JSON form and compact notation of :class:`AetheryaState` and of a player's view (``solver.aetherya.view``).

The state and the view format themselves with the functions here; a parsed state is made by its game
(``game.new_root_state()``), so this module imports neither class.

The JSON form and the notation carry the same fields (``docs/formats/aetherya.md``);
the notation is parsed into the JSON form, so both go through one validator.
In kingdoms an upper-case letter is a face-up card, a lower-case letter a
face-down card (an Unexplored Territory, with the card it hides), ``.`` an
empty cell (during setup) and, in observations, ``?`` a face-down card whose
kind the player does not know.
"""

from __future__ import annotations

from typing import Any

from solver.aetherya.cards import (CARD_TYPES, CELL_NAMES, CENTRE, LEGENDS, LETTERS, MODES, RING, SOLO_ROWS, cell_index,
                                   legend)
from solver.aetherya.tiles import (PALANTIR, TILE_SLUGS, tile_from_code, tile_from_json, tile_kind, tile_to_code,
                                   tile_to_json, tile_family)
from solver.errors import ImpossibleStateError, InvalidInputError, NotationError
from solver.validate import as_bool, as_choice, as_int, as_list, as_object, as_str, check_keys, get

PHASES_BY_MODE_EXTRA = {"objects": ("tiles", "tile"), "coop": ("legend-discard",), "solo": ("swap", "keep", "block")}
COMMON_PHASES = ("legends", "start", "arrange", "territories", "first-discard", "choose", "draw", "place",
                 "end-turn", "refill", "reform", "over")


# ---------------------------------------------------------------------- helpers
def _kingdom_text(cards: list[int], hidden: int, mask_hidden: bool = False) -> str:
    out = []
    for c in range(16):
        if cards[c] < 0:
            out.append(".")
        elif hidden >> c & 1:
            out.append("?" if mask_hidden else LETTERS[cards[c]].lower())
        else:
            out.append(LETTERS[cards[c]])
    text = "".join(out)
    return "/".join(text[i:i + 4] for i in range(0, 16, 4))


def _parse_kingdom(text: Any, field: str) -> tuple[list[int], int]:
    text = as_str(text, field)
    rows = text.strip().split("/")
    if len(rows) != 4 or any(len(r) != 4 for r in rows):
        raise NotationError(field, text, "expected 4 rows of 4 letters joined by '/' (upper case face up, lower case "
                                         "face down, '.' empty)")
    cards, hidden = [], 0
    for c, ch in enumerate("".join(rows)):
        if ch == ".":
            cards.append(-1)
            continue
        if ch.upper() not in LETTERS[:CARD_TYPES]:
            raise NotationError(f"{field} ({CELL_NAMES[c]})", ch, "unknown card letter (expected PFMSHEDGRO, lower "
                                                                  "case when face down, or '.')")
        cards.append(LETTERS.index(ch.upper()))
        if ch.islower():
            hidden |= 1 << c
    return cards, hidden


def _cards_text(cards: list[int]) -> str:
    return "".join(LETTERS[c] for c in cards)


def parse_cards(text: Any, field: str) -> list[int]:
    """Card letters (``PFMSHEDGRO``, either case) as card codes; errors name ``field[i]``."""
    text = as_str(text, field)
    out = []
    for i, ch in enumerate(text.strip()):
        if ch.upper() not in LETTERS[:CARD_TYPES]:
            raise NotationError(f"{field}[{i}]", ch, "unknown card letter (expected one of PFMSHEDGRO)")
        out.append(LETTERS.index(ch.upper()))
    return out


def _legends(items: Any, field: str) -> list[int]:
    numbers = [legend(x, f"{field}[{i}]").number for i, x in enumerate(as_list(items, field))]
    return sorted(numbers)


def _slugs(numbers: list[int]) -> list[str]:
    return [LEGENDS[n - 1].slug for n in numbers]


# ---------------------------------------------------------------------- state -> JSON
def _hold_json(s: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"card": LETTERS[s.hold], "from": s.hold_from}
    if s.hold_pile:  # co-op: taken from the second discard pile
        out["pile"] = s.hold_pile + 1
    return out



def state_to_json(s: Any) -> dict[str, Any]:
    """The full state as JSON (every hidden card included)."""
    out: dict[str, Any] = {
        "mode": s.mode, "players": s.players, "phase": s.phase, "toMove": s.to_move, "turn": s.turn,
        "kingdoms": [_kingdom_text(s.kingdoms[p], s.hidden[p]) for p in range(s.players)],
        "drawPile": _cards_text([k for k in range(CARD_TYPES) for _ in range(s.pile[k])]),
        "drawPileKnown": s.pile_known,
        "discard": [_cards_text(d) for d in s.discards],
        "hold": None if s.hold < 0 else _hold_json(s),
        "claimed": s.claimed, "afterRefill": s.after_refill,
        "start": [_cards_text(c) for c in s.start],
        "legendRow": _slugs(s.row), "legendDeck": _slugs(sorted(s.legend_deck)),
        "legends": [_slugs(h) for h in s.held],
    }
    if s.mode == "coop":
        out.update({"box": _slugs(s.box), "legendDiscard": _slugs(s.legend_discard),
                    "wroteThisRound": s.wrote_this_round})
    if s.mode == "solo":
        out.update({"age": s.age + 1, "ageRows": [_slugs(r) for r in s.rows], "written": _slugs(s.written),
                    "ageScores": list(s.age_scores), "failed": s.failed,
                    "pair": [{"card": LETTERS[c], "from": src} for c, src in s.pair], "drawsNeeded": s.draws_needed})
    if s.mode == "objects":
        out["tiles"] = {
            "undealt": [[tile_to_json(t) for t in u] for u in s.undealt],
            "territories": [{CELL_NAMES[c]: tile_to_json(t) for c, t in enumerate(tt) if t >= 0}
                            for tt in s.territory_tiles],
            "faceUp": [[CELL_NAMES[c] for c in range(16) if f >> c & 1] for f in s.face_up_tiles],
            "owned": [[tile_to_json(t) for t in o] for o in s.owned],
            "accords": [{CELL_NAMES[c]: tile_to_json(t) for c, t in enumerate(a) if t >= 0} for a in s.accords],
            "staffs": [{CELL_NAMES[c]: tile_to_json(t) for c, t in enumerate(a) if t >= 0} for a in s.staffs],
            "discard": [tile_to_json(t) for t in s.tile_discard],
            "unrevealed": [tile_to_json(t) for t in s.unrevealed],
            "known": [[f"p{slot // 16} {CELL_NAMES[slot % 16]}" for slot in k] for k in s.known],
            "pending": None if s.pending_tile < 0 else tile_to_json(s.pending_tile),
            "peeksUsed": s.peeks_used,
        }
    return out


# ---------------------------------------------------------------------- JSON -> state
BASE_KEYS = ("mode", "players", "phase", "toMove", "turn", "kingdoms", "drawPile", "drawPileKnown", "discard", "hold",
             "claimed", "afterRefill", "start", "legendRow", "legendDeck", "legends")
MODE_KEYS = {"base": (), "objects": ("tiles",), "coop": ("box", "legendDiscard", "wroteThisRound"),
             "solo": ("age", "ageRows", "written", "ageScores", "failed", "pair", "drawsNeeded")}
TILE_KEYS = ("undealt", "territories", "faceUp", "owned", "accords", "staffs", "discard", "unrevealed", "known",
             "pending", "peeksUsed")


def state_from_json(game: Any, obj: Any, field: str = "state") -> Any:
    """Parse and validate a JSON state of ``game``'s mode and player count."""
    data = as_object(obj, field)
    mode = as_choice(as_str(get(data, "mode", field), f"{field}.mode"), f"{field}.mode", MODES)
    if mode != game.mode:
        raise InvalidInputError(f"{field}.mode", mode, f"this game is {game.spec()!r} (mode {game.mode!r}); "
                                                      f"load the game with mode={mode}")
    check_keys(data, BASE_KEYS + MODE_KEYS[mode], field)
    players = as_int(get(data, "players", field), f"{field}.players", 1, 4)
    if players != game.num_players:
        raise InvalidInputError(f"{field}.players", players, f"this game has {game.num_players} player(s); "
                                                             f"load it with players={players}")
    s = game.new_root_state()
    P = players
    phase = as_str(get(data, "phase", field), f"{field}.phase")
    allowed = COMMON_PHASES + PHASES_BY_MODE_EXTRA.get(mode, ())
    if phase not in allowed:
        raise InvalidInputError(f"{field}.phase", phase, f"expected one of {', '.join(allowed)}")
    s.phase = phase
    s.to_move = as_int(data.get("toMove", 0), f"{field}.toMove", 0, P - 1)
    kingdoms = as_list(get(data, "kingdoms", field), f"{field}.kingdoms", P, P)
    for p, text in enumerate(kingdoms):
        s.kingdoms[p], s.hidden[p] = _parse_kingdom(text, f"{field}.kingdoms[{p}]")
    if "turn" in data:
        s.turn = as_int(data["turn"], f"{field}.turn", 0, 10**6)
    else:  # the fewest turns that could have produced the kingdoms
        s.turn = 0 if mode == "solo" and as_int(data.get("age", 1), f"{field}.age", 1, 3) > 1 else _fewest_turns(s)
    pile = parse_cards(get(data, "drawPile", field), f"{field}.drawPile")
    s.pile = [pile.count(k) for k in range(CARD_TYPES)]
    s.pile_known = as_bool(data.get("drawPileKnown", False), f"{field}.drawPileKnown")
    discards = as_list(get(data, "discard", field), f"{field}.discard", s.piles(), s.piles())
    s.discards = [parse_cards(d, f"{field}.discard[{i}]") for i, d in enumerate(discards)]
    hold = data.get("hold")
    if hold is not None:
        h = as_object(hold, f"{field}.hold")
        check_keys(h, ("card", "from", "pile"), f"{field}.hold")
        cards = parse_cards(get(h, "card", f"{field}.hold"), f"{field}.hold.card")
        if len(cards) != 1:
            raise InvalidInputError(f"{field}.hold.card", h["card"], "expected one card letter")
        s.hold = cards[0]
        s.hold_from = as_str(get(h, "from", f"{field}.hold"), f"{field}.hold.from")
        if s.hold_from not in ("take", "draw"):
            raise InvalidInputError(f"{field}.hold.from", s.hold_from, "expected 'take' or 'draw'")
        if "pile" in h:
            s.hold_pile = as_int(h["pile"], f"{field}.hold.pile", 1, s.piles()) - 1
            if s.hold_pile and s.hold_from != "take":
                raise InvalidInputError(f"{field}.hold.pile", h["pile"], "only a card taken from a discard pile "
                                                                         "comes from a pile")
    s.claimed = as_bool(data.get("claimed", False), f"{field}.claimed")
    s.after_refill = as_str(data.get("afterRefill", ""), f"{field}.afterRefill")
    if s.after_refill not in ("", "end-turn", "finish", "coop-next"):
        raise InvalidInputError(f"{field}.afterRefill", s.after_refill, "expected '', end-turn, finish or coop-next")
    starts = as_list(data.get("start", [""] * P), f"{field}.start", P, P)
    s.start = [sorted(parse_cards(x, f"{field}.start[{p}]")) for p, x in enumerate(starts)]
    s.row = _legends(data.get("legendRow", []), f"{field}.legendRow")
    s.legend_deck = _legends(data.get("legendDeck", []), f"{field}.legendDeck")
    held = as_list(data.get("legends", [[]] * P), f"{field}.legends", P, P)
    s.held = [_legends(h, f"{field}.legends[{p}]") for p, h in enumerate(held)]
    if mode == "coop":
        s.box = _legends(data.get("box", []), f"{field}.box")
        s.legend_discard = _legends(data.get("legendDiscard", []), f"{field}.legendDiscard")
        s.wrote_this_round = as_bool(data.get("wroteThisRound", False), f"{field}.wroteThisRound")
    if mode == "solo":
        _solo_from_json(s, data, field)
    if mode == "objects":
        _tiles_from_json(s, data.get("tiles"), f"{field}.tiles")
    validate_state(s, field)
    return s


def _solo_from_json(s: Any, data: dict[str, Any], field: str) -> None:
    s.age = as_int(data.get("age", 1), f"{field}.age", 1, 3) - 1
    rows = as_list(data.get("ageRows", [[], [], []]), f"{field}.ageRows", 3, 3)
    s.rows = [_legends(r, f"{field}.ageRows[{i}]") for i, r in enumerate(rows)]
    s.written = _legends(data.get("written", []), f"{field}.written")
    for n in s.written:
        if n not in s.rows[s.age]:
            raise ImpossibleStateError(f"{field}.written", LEGENDS[n - 1].slug, f"not in the row of Age {s.age + 1}")
    s.age_scores = [as_int(x, f"{field}.ageScores[{i}]", -1000, 1000)
                    for i, x in enumerate(as_list(data.get("ageScores", []), f"{field}.ageScores", 0, 3))]
    s.failed = as_bool(data.get("failed", False), f"{field}.failed")
    pair = as_list(data.get("pair", []), f"{field}.pair", 0, 2)
    s.pair = []
    for i, item in enumerate(pair):
        h = as_object(item, f"{field}.pair[{i}]")
        check_keys(h, ("card", "from"), f"{field}.pair[{i}]")
        cards = parse_cards(get(h, "card", f"{field}.pair[{i}]"), f"{field}.pair[{i}].card")
        src = as_str(get(h, "from", f"{field}.pair[{i}]"), f"{field}.pair[{i}].from")
        if len(cards) != 1 or src not in ("take", "draw"):
            raise InvalidInputError(f"{field}.pair[{i}]", item, "expected {\"card\": one letter, \"from\": take|draw}")
        s.pair.append((cards[0], src))
    s.draws_needed = as_int(data.get("drawsNeeded", 0), f"{field}.drawsNeeded", 0, 2)
    if len(s.age_scores) != (s.age if not (s.phase == "over" and not s.failed) else 3):
        raise ImpossibleStateError(f"{field}.ageScores", s.age_scores, f"expected one score per finished Age "
                                                                       f"(Age {s.age + 1} is being played)")


def _cell_map(obj: Any, field: str, players: int) -> list[int]:
    cells = [-1] * 16
    for key, value in as_object(obj, field).items():
        cells[cell_index(key, f"{field}.{key}")] = tile_from_json(value, f"{field}.{key}", players)
    return cells


def _tiles_from_json(s: Any, obj: Any, field: str) -> None:
    P = s.players
    data = as_object(obj if obj is not None else {}, field)
    check_keys(data, TILE_KEYS, field)

    def per_seat(key: str, default: Any) -> list[Any]:
        return as_list(data.get(key, [default] * P), f"{field}.{key}", P, P)

    s.undealt = [sorted(tile_from_json(t, f"{field}.undealt[{p}][{i}]", P) for i, t in enumerate(as_list(u, f"{field}.undealt[{p}]")))
                 for p, u in enumerate(per_seat("undealt", []))]
    s.territory_tiles = [_cell_map(m, f"{field}.territories[{p}]", P) for p, m in enumerate(per_seat("territories", {}))]
    s.face_up_tiles = [sum(1 << cell_index(c, f"{field}.faceUp[{p}][{i}]") for i, c in enumerate(as_list(f, f"{field}.faceUp[{p}]")))
                       for p, f in enumerate(per_seat("faceUp", []))]
    s.owned = [sorted(tile_from_json(t, f"{field}.owned[{p}][{i}]", P) for i, t in enumerate(as_list(o, f"{field}.owned[{p}]")))
               for p, o in enumerate(per_seat("owned", []))]
    s.accords = [_cell_map(m, f"{field}.accords[{p}]", P) for p, m in enumerate(per_seat("accords", {}))]
    s.staffs = [_cell_map(m, f"{field}.staffs[{p}]", P) for p, m in enumerate(per_seat("staffs", {}))]
    s.tile_discard = sorted(tile_from_json(t, f"{field}.discard[{i}]", P)
                            for i, t in enumerate(as_list(data.get("discard", []), f"{field}.discard")))
    s.unrevealed = sorted(tile_from_json(t, f"{field}.unrevealed[{i}]", P)
                          for i, t in enumerate(as_list(data.get("unrevealed", []), f"{field}.unrevealed")))
    s.known = []
    for p, k in enumerate(per_seat("known", [])):
        slots = []
        for i, text in enumerate(as_list(k, f"{field}.known[{p}]")):
            f = f"{field}.known[{p}][{i}]"
            parts = as_str(text, f).split()
            if len(parts) != 2 or not parts[0].startswith("p") or not parts[0][1:].isdigit() or int(parts[0][1:]) >= P:
                raise InvalidInputError(f, text, "expected 'pSEAT CELL', e.g. 'p1 a1'")
            slots.append(int(parts[0][1:]) * 16 + cell_index(parts[1], f))
        s.known.append(sorted(set(slots)))
    pending = data.get("pending")
    s.pending_tile = -1 if pending is None else tile_from_json(pending, f"{field}.pending", P)
    s.peeks_used = as_int(data.get("peeksUsed", 0), f"{field}.peeksUsed", 0, 4)


# ---------------------------------------------------------------------- validation
def validate_state(s: Any, field: str = "state") -> None:
    """Structural checks beyond the field types: an impossible state raises :class:`ImpossibleStateError`."""
    setup = s.phase in ("legends", "start", "arrange", "territories")
    for p in range(s.players):
        f = f"{field}.kingdoms[{p}]"
        if not setup and min(s.kingdoms[p]) < 0 and s.phase not in ("territories",):
            raise ImpossibleStateError(f, _kingdom_text(s.kingdoms[p], s.hidden[p]), "empty cells ('.') only during setup")
        if any(s.hidden[p] >> c & 1 for c in CENTRE) and s.phase != "over":
            raise ImpossibleStateError(f, _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                       "the centre 2x2 (b2 c2 b3 c3) is never face down")
        if s.phase == "over" and s.hidden[p]:
            raise ImpossibleStateError(f, _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                       "every card is face up once the game is over")
        if s.mode == "objects":
            for c in range(16):
                t = s.territory_tiles[p][c]
                if t >= 0 and not (s.hidden[p] >> c & 1):
                    raise ImpossibleStateError(f"{field}.tiles.territories[{p}].{CELL_NAMES[c]}", tile_to_json(t),
                                               "a tile lies only on a face-down Unexplored Territory")
                if s.face_up_tiles[p] >> c & 1 and (t < 0 or tile_kind(t) != 3):
                    raise ImpossibleStateError(f"{field}.tiles.faceUp[{p}]", CELL_NAMES[c],
                                               "only a Griffin lies face up on a territory")
                if t >= 0 and tile_kind(t) != 3 and tile_family(t) != p:
                    raise ImpossibleStateError(f"{field}.tiles.territories[{p}].{CELL_NAMES[c]}", tile_to_json(t),
                                               "a face-down tile lies on its own family's kingdom")
                if s.accords[p][c] >= 0 and (tile_kind(s.accords[p][c]) != 0 or s.kingdoms[p][c] not in (4, 5, 6, 7)):
                    raise ImpossibleStateError(f"{field}.tiles.accords[{p}].{CELL_NAMES[c]}", tile_to_json(s.accords[p][c]),
                                               "an Accord lies on a Tribe card")
                if s.staffs[p][c] >= 0 and (tile_kind(s.staffs[p][c]) != 1 or s.kingdoms[p][c] != 8):
                    raise ImpossibleStateError(f"{field}.tiles.staffs[{p}].{CELL_NAMES[c]}", tile_to_json(s.staffs[p][c]),
                                               "a Staff of Command lies on a Dragon")
    if (s.hold >= 0) != (s.phase == "place"):
        raise ImpossibleStateError(f"{field}.hold", None if s.hold < 0 else LETTERS[s.hold],
                                   "a card is held exactly in phase 'place'")
    if s.mode == "objects" and (s.pending_tile >= 0) != (s.phase == "tile"):
        raise ImpossibleStateError(f"{field}.tiles.pending", s.pending_tile, "a pending tile exists exactly in phase 'tile'")
    if s.mode == "solo":
        if s.phase == "keep" and len(s.pair) != 2:
            raise ImpossibleStateError(f"{field}.pair", len(s.pair), "phase 'keep' needs two cards")
        if s.phase not in ("keep", "draw") and s.pair:
            raise ImpossibleStateError(f"{field}.pair", len(s.pair), "a pair of cards exists only while drawing two")
        if not s.phase == "legends":
            for i, n in enumerate(SOLO_ROWS):
                if len(s.rows[i]) != n:
                    raise ImpossibleStateError(f"{field}.ageRows[{i}]", len(s.rows[i]), f"Age {i + 1} has {n} Legends")
    elif not s.phase == "legends" and len(s.row) > s.row_target():
        raise ImpossibleStateError(f"{field}.legendRow", len(s.row), f"at most {s.row_target()} Legends are face up")
    if any(s.start) and s.phase not in ("start", "arrange"):
        raise ImpossibleStateError(f"{field}.start", [_cards_text(x) for x in s.start],
                                   "starting cards are held only during setup")
    for p, cards in enumerate(s.start):
        if len(set(cards)) != len(cards) or len(cards) > 4:
            raise ImpossibleStateError(f"{field}.start[{p}]", _cards_text(cards), "at most 4 different starting cards")
    if s.phase == "draw" and s.mode != "solo" and s.draws_needed:
        raise ImpossibleStateError(f"{field}.drawsNeeded", s.draws_needed, "only the solo mode draws two cards")
    _validate_setup(s, field)
    _validate_turn(s, field)
    _validate_turn_count(s, field)
    if s.mode == "solo":
        _validate_solo(s, field)
    if s.mode == "coop":
        _validate_coop(s, field)
    if s.mode == "objects":
        _validate_tiles(s, field)
    s.check_invariants(field)
    if s.phase != "over" and not s.legal_actions():
        raise ImpossibleStateError(field, s.phase, "the player to act would have no legal move")


SETUP_PHASES = ("legends", "start", "arrange", "territories", "tiles", "first-discard")
PLAY_PHASES = ("choose", "draw", "keep", "place", "tile", "end-turn", "refill", "reform", "legend-discard")


def _filled(cards: list[int], cells: Any) -> list[bool]:
    return [cards[c] >= 0 for c in cells]


def _validate_setup(s: Any, field: str) -> None:
    """Setup happens in a fixed order (AE-17): Legends, starting cards, 2x2 arrangements, territories, tiles,
    first discard. A state in a setup phase must look like that order produced it."""
    phase = s.phase
    if phase not in SETUP_PHASES:
        return
    kf = f"{field}.kingdoms"
    if phase in ("legends", "start"):
        for p in range(s.players):
            if any(_filled(s.kingdoms[p], range(16))):
                raise ImpossibleStateError(f"{kf}[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                           f"no card is in a kingdom before the starting cards are arranged "
                                           f"(phase {phase!r})")
        if phase == "legends" and any(s.start):
            raise ImpossibleStateError(f"{field}.start", [_cards_text(x) for x in s.start],
                                       "the starting cards are dealt after the Legends")
        if phase == "start":
            sizes = [len(x) for x in s.start]
            first = next(p for p in range(s.players) if sizes[p] < 4) if min(sizes) < 4 else s.players
            if any(sizes[p] for p in range(first + 1, s.players)):
                raise ImpossibleStateError(f"{field}.start", [_cards_text(x) for x in s.start],
                                           "starting cards are dealt seat by seat, 4 to each seat in turn")
    if phase == "arrange":
        for p in range(s.players):
            arranged = p < s.to_move
            if arranged and (not all(_filled(s.kingdoms[p], CENTRE)) or any(_filled(s.kingdoms[p], RING))):
                raise ImpossibleStateError(f"{kf}[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                           f"seat {p} arranged its 2x2 before seat {s.to_move}: only the centre "
                                           "b2 c2 b3 c3 is filled")
            if not arranged and (any(_filled(s.kingdoms[p], range(16))) or len(s.start[p]) != 4):
                raise ImpossibleStateError(f"{kf}[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                           f"seat {p} has not arranged yet: its kingdom is empty and it holds 4 "
                                           "starting cards")
    if phase in ("territories", "tiles", "first-discard"):
        dealt: list[bool] = []
        for p in range(s.players):
            if not all(_filled(s.kingdoms[p], CENTRE)):
                raise ImpossibleStateError(f"{kf}[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                           "the starting 2x2 (b2 c2 b3 c3) is placed before the territories")
            for c in RING:
                if s.kingdoms[p][c] >= 0 and not s.hidden[p] >> c & 1:
                    raise ImpossibleStateError(f"{kf}[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                               f"before the first turn only the centre 2x2 is face up (at most 4 "
                                               f"face-up cards), not {CELL_NAMES[c]}")
            dealt += _filled(s.kingdoms[p], RING)
        complete = phase != "territories"
        if (complete and not all(dealt)) or (not complete and dealt != sorted(dealt, reverse=True)):
            raise ImpossibleStateError(kf, [_kingdom_text(s.kingdoms[p], s.hidden[p]) for p in range(s.players)],
                                       "the 12 territories are dealt seat by seat, a1 to d4 around the centre"
                                       + (", all of them before this phase" if complete else ""))
    if phase != "first-discard" and any(s.discards):
        raise ImpossibleStateError(f"{field}.discard", [_cards_text(d) for d in s.discards],
                                   f"the first discard is dealt after the territories (phase {phase!r})")
    if phase == "first-discard" and all(s.discards):
        raise ImpossibleStateError(f"{field}.discard", [_cards_text(d) for d in s.discards],
                                   "phase 'first-discard' needs an empty discard pile to deal to")
    if s.mode != "solo" and phase == "legends" and len(s.row) >= s.row_target():
        raise ImpossibleStateError(f"{field}.legendRow", len(s.row), f"phase 'legends' deals the row of "
                                                                     f"{s.row_target()}: it is not complete yet")
    if s.mode == "solo" and phase == "legends" and all(len(r) == n for r, n in zip(s.rows, SOLO_ROWS)):
        raise ImpossibleStateError(f"{field}.ageRows", [len(r) for r in s.rows], "phase 'legends' deals the Age "
                                                                                  "rows: they are not complete yet")


def _validate_turn(s: Any, field: str) -> None:
    """Turn bookkeeping: the game is over once a player has no face-down card; flags live in their phases."""
    if s.mode in ("coop", "solo") and any(s.held):
        raise ImpossibleStateError(f"{field}.legends", [_slugs(h) for h in s.held],
                                   f"nobody holds Legends in the {s.mode} mode (written Legends go to "
                                   + ("the box)" if s.mode == "coop" else "'written')"))
    if s.phase in PLAY_PHASES:
        for p in range(s.players):
            if s.hidden[p] == 0 and not (s.phase == "tile" and p == s.to_move):
                raise ImpossibleStateError(f"{field}.kingdoms[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                           "no face-down card left: the game (solo: the Age) ended as soon as the "
                                           "last one went (AE-20, AE-34); use phase 'over'")
    if s.claimed and s.phase not in ("end-turn", "refill", "reform"):
        raise ImpossibleStateError(f"{field}.claimed", True, f"a Legend claimed this turn, yet phase {s.phase!r} "
                                                             "is not the end of a turn")
    allowed = {"base": ("end-turn",), "objects": ("end-turn",), "coop": ("finish", "coop-next"), "solo": ()}[s.mode]
    if (s.phase == "refill") != bool(s.after_refill) or (s.after_refill and s.after_refill not in allowed):
        raise ImpossibleStateError(f"{field}.afterRefill", s.after_refill,
                                   "phase 'refill' needs what follows the refill ("
                                   + (", ".join(allowed) or "never in solo") + f" in {s.mode}); "
                                   "other phases leave it empty")
    if s.mode != "solo" and s.phase not in ("legends", "refill") and s.legend_deck and len(s.row) < s.row_target():
        raise ImpossibleStateError(f"{field}.legendRow", len(s.row), f"the row is refilled to {s.row_target()} "
                                                                     "while the Legend deck lasts (AE-21)")
    if s.phase == "reform" and (s.discards[0] or not s.pile_known):
        raise ImpossibleStateError(f"{field}.discard", _cards_text(s.discards[0]),
                                   "phase 'reform' follows the re-forming of the draw pile from the whole discard "
                                   "(AE-19): the discard is empty and the pile known")


MID_TURN = ("tile", "end-turn", "refill", "reform", "legend-discard", "over")


def _face_up_ring(s: Any, p: int) -> int:
    return sum(1 for c in RING if s.kingdoms[p][c] >= 0 and not s.hidden[p] >> c & 1)


def _turns_played(s: Any, turn: int, p: int) -> int:
    """Turns seat ``p`` has played when ``turn`` turns have been played (seat 0 first), the current one included
    once its card is down."""
    done = len(range(p, turn, s.players))
    return done + (1 if p == s.to_move and s.phase in MID_TURN else 0)


def _fewest_turns(s: Any) -> int:
    """The smallest turn count consistent with the player to move and the face-up territories (each turn turns
    at most one territory face up)."""
    if s.phase in SETUP_PHASES or s.phase in ("swap", "block"):
        return 0
    turn = s.to_move
    while any(_face_up_ring(s, p) > _turns_played(s, turn, p) for p in range(s.players)) and turn < 10**6:
        turn += s.players
    return turn


def _validate_turn_count(s: Any, field: str) -> None:
    """``turn`` bounds the face-up territories: each turn turns at most one territory face up, so a kingdom with
    5 face-up cards before its owner's first turn is impossible. (Which seat plays which turn is not checked.)"""
    if s.mode == "solo" and s.age > 0:
        return
    if s.phase in SETUP_PHASES:
        if s.turn != 0:
            raise ImpossibleStateError(f"{field}.turn", s.turn, "setup happens before the first turn (turn 0)")
        return
    if s.phase in ("swap", "block", "over"):  # at the end every card is turned face up (AE-20)
        return
    for p in range(s.players):
        most = -(-s.turn // s.players) + (1 if p == s.to_move and s.phase in MID_TURN else 0)
        if _face_up_ring(s, p) > most:
            raise ImpossibleStateError(f"{field}.kingdoms[{p}]", _kingdom_text(s.kingdoms[p], s.hidden[p]),
                                       f"{4 + _face_up_ring(s, p)} face-up cards after at most {most} turn(s) of "
                                       f"seat {p} (turn {s.turn}): each turn turns at most one territory face up "
                                       "(omit 'turn' to let it be inferred)")


def _validate_solo(s: Any, field: str) -> None:
    ring_hidden = all(s.hidden[0] >> c & 1 for c in RING)
    if s.failed and s.phase != "over":
        raise ImpossibleStateError(f"{field}.failed", True, "a failed campaign is over (AE-34)")
    shape = (len(s.pair), s.draws_needed)
    if s.phase == "draw" and shape not in ((0, 0), (0, 2), (1, 1)):
        raise ImpossibleStateError(f"{field}.drawsNeeded", s.draws_needed, f"with {len(s.pair)} card(s) in "
                                                                           "'pair' the draws do not add up to two")
    if s.phase != "draw" and s.draws_needed:
        raise ImpossibleStateError(f"{field}.drawsNeeded", s.draws_needed, "cards are still to draw only in "
                                                                           "phase 'draw'")
    if s.phase == "swap":
        if s.age == 2 or (s.age == 0 and (s.turn != 0 or not ring_hidden)) or (s.age == 1 and s.hidden[0]):
            raise ImpossibleStateError(f"{field}.phase", "swap", "the Legend swap comes before Age 1's first turn "
                                                                 "(turn 0, territories face down) or at the end of "
                                                                 "Age 1 (kingdom face up), never later")
    if s.phase == "block" and (s.age == 0 or s.hidden[0]):
        raise ImpossibleStateError(f"{field}.phase", "block", "the 2x2 is kept at the end of Age 1 or 2 (age 2 or "
                                                              "3, kingdom face up)")
    if s.phase in SETUP_PHASES and s.age == 0 and s.turn != 0:
        raise ImpossibleStateError(f"{field}.turn", s.turn, "Age 1 is set up before the first turn (turn 0)")


def _validate_coop(s: Any, field: str) -> None:
    if s.phase == "legend-discard" and (s.to_move != s.players - 1 or s.wrote_this_round):
        raise ImpossibleStateError(f"{field}.phase", "legend-discard",
                                   f"the group discard is decided by the last seat ({s.players - 1}) after a round "
                                   "without a Legend written (AE-38)")
    if s.wrote_this_round and s.to_move == 0 and s.phase in ("choose", "draw", "place"):
        raise ImpossibleStateError(f"{field}.wroteThisRound", True, "a new round starts with seat 0: nobody has "
                                                                    "written a Legend in it yet")


def _validate_tiles(s: Any, field: str) -> None:
    tf = f"{field}.tiles"
    before = s.phase in ("legends", "start", "arrange", "territories")
    if before and (any(t >= 0 for tt in s.territory_tiles for t in tt) or any(s.owned) or s.tile_discard):
        raise ImpossibleStateError(f"{tf}.territories", s.phase, "the tiles are dealt after the territories")
    if s.phase == "tiles":
        seat = next(p for p in range(s.players) if s.undealt[p]) if any(s.undealt) else s.players
        for p in range(s.players):
            placed = [s.territory_tiles[p][c] >= 0 for c in RING]
            if placed != sorted(placed, reverse=True) or (p < seat and not all(placed)) or (p > seat and any(placed)):
                raise ImpossibleStateError(f"{tf}.territories[{p}]", sum(placed), "tiles are dealt seat by seat, "
                                                                                  "one on each territory in order")
    if s.unrevealed and s.phase != "over":
        raise ImpossibleStateError(f"{tf}.unrevealed", [tile_to_json(t) for t in s.unrevealed],
                                   "tiles are discarded unrevealed only at the end of the game")
    if not before and s.phase != "tiles" and any(s.undealt):
        raise ImpossibleStateError(f"{tf}.undealt", [len(u) for u in s.undealt], "every tile was dealt during setup")
    if not before and s.phase not in ("tiles", "over"):
        for p in range(s.players):
            bare = [CELL_NAMES[c] for c in range(16) if s.hidden[p] >> c & 1 and s.territory_tiles[p][c] < 0]
            if bare:
                raise ImpossibleStateError(f"{tf}.territories[{p}]", bare, "every face-down territory holds a tile "
                                                                           "until it is revealed or replaced")
    palantirs = sum(1 for t in s.owned[s.to_move] if tile_kind(t) == PALANTIR)
    if s.peeks_used > palantirs or (s.peeks_used and s.phase not in ("end-turn", "refill", "reform")):
        raise ImpossibleStateError(f"{tf}.peeksUsed", s.peeks_used, f"one peek per turn for each Palantir of "
                                                                    f"seat {s.to_move} ({palantirs}), at the end of "
                                                                    "its turn")
    for p in range(s.players):
        for slot in s.known[p]:
            q, c = divmod(slot, 16)
            if s.territory_tiles[q][c] < 0 or s.face_up_tiles[q] >> c & 1:
                raise ImpossibleStateError(f"{tf}.known[{p}]", f"p{q} {CELL_NAMES[c]}",
                                           "a Palantir peek is kept only on a face-down tile")


# ---------------------------------------------------------------------- notation
# (json key, notation key, kind)
NOTATION_FIELDS = (
    ("phase", "ph", "str"), ("toMove", "to", "int"), ("turn", "t", "int"),
    ("kingdoms", "k", "strs"), ("drawPile", "dp", "str"), ("drawPileKnown", "dk", "bool"),
    ("discard", "d", "strs"), ("hold", "h", "source"), ("claimed", "cl", "bool"), ("afterRefill", "ar", "str"),
    ("start", "st", "strs"), ("legendRow", "lr", "legends"), ("legendDeck", "ld", "legends"),
    ("legends", "lh", "legendlists"),
    ("box", "bx", "legends"), ("legendDiscard", "lx", "legends"), ("wroteThisRound", "wr", "bool"),
    ("age", "age", "int"), ("ageRows", "rows", "legendlists"), ("written", "wn", "legends"),
    ("ageScores", "as", "ints"), ("failed", "fl", "bool"), ("pair", "pr", "sources"), ("drawsNeeded", "dn", "int"),
)
TILE_NOTATION = (
    ("undealt", "tu", "tilelists"), ("territories", "tt", "cellmaps"), ("faceUp", "tf", "celllists"),
    ("owned", "tw", "tilelists"), ("accords", "ta", "cellmaps"), ("staffs", "ts", "cellmaps"),
    ("discard", "tx", "tiles"), ("unrevealed", "tr", "tiles"), ("known", "tk", "knownlists"), ("pending", "tp", "tile"), ("peeksUsed", "pk", "int"),
)


def _enc(kind: str, v: Any) -> str:
    if kind == "str":
        return v if v else "-"
    if kind == "int":
        return str(v)
    if kind == "bool":
        return "1" if v else "0"
    if kind == "strs":
        return ",".join(x if x else "-" for x in v)
    if kind == "ints":
        return ",".join(str(x) for x in v) or "-"
    if kind == "legends":
        return ",".join(str(legend(x, "x").number) for x in v) or "-"
    if kind == "legendlists":
        return ";".join(_enc("legends", x) for x in v)
    if kind == "source":
        return "-" if v is None else f"{v['card']}:{v['from']}{v.get('pile', '') if v.get('pile', 1) != 1 else ''}"
    if kind == "sources":
        return ",".join(_enc("source", x) for x in v) or "-"
    if kind == "tile":
        return "-" if v is None else _code(v)
    if kind == "tiles":
        return ",".join(_code(x) for x in v) or "-"
    if kind == "tilelists":
        return ";".join(_enc("tiles", x) for x in v)
    if kind == "cellmaps":
        return ";".join(",".join(f"{c}:{_code(t)}" for c, t in m.items()) or "-" for m in v)
    if kind == "celllists":
        return ";".join(",".join(x) or "-" for x in v)
    if kind == "knownlists":
        return ";".join(",".join(x.replace(" ", ":") for x in k) or "-" for k in v)
    if kind == "pile":  # a view: the count, or the cards once known
        return str(v) if isinstance(v, int) else (v or "-")
    if kind == "maybeints":
        return ",".join("?" if x is None else str(x) for x in v) or "-"
    if kind == "seatints":
        return ";".join(str(x) for x in v)
    if kind == "awaiting":
        return "-" if v is None else "/".join(x.replace(" ", "_") for x in [v["move"]] + list(v["entered"]))
    raise AssertionError(kind)


def _code(tile_json: str) -> str:
    if tile_json == "?":  # a view's unseen tile
        return "?"
    slug, _, fam = tile_json.partition("@")
    return tile_to_code(TILE_SLUGS.index(slug) + 16 * int(fam))


def _uncode(text: str, field: str, players: int) -> str:
    if text == "?":  # a view's unseen tile
        return "?"
    return tile_to_json(tile_from_code(text, field, players))


def _dec(kind: str, text: str, field: str, players: int) -> Any:
    items = [] if text == "-" else text.split(",")
    if kind == "str":
        return "" if text == "-" else text
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise NotationError(field, text, "expected an integer") from None
    if kind == "bool":
        if text not in ("0", "1"):
            raise NotationError(field, text, "expected 0 or 1")
        return text == "1"
    if kind == "strs":
        return ["" if x == "-" else x for x in text.split(",")]
    if kind == "ints":
        return [_dec("int", x, field, players) for x in items]
    if kind == "legends":
        return [_dec("int", x, field, players) for x in items]
    if kind == "legendlists":
        return [_dec("legends", x, field, players) for x in text.split(";")]
    if kind == "source":
        if text == "-":
            return None
        card, sep, src = text.partition(":")
        if not sep:
            raise NotationError(field, text, "expected CARD:take or CARD:draw")
        if src == "take2":  # co-op: taken from the second discard pile
            return {"card": card, "from": "take", "pile": 2}
        return {"card": card, "from": src}
    if kind == "sources":
        return [_dec("source", x, field, players) for x in items]
    if kind == "tile":
        return None if text == "-" else _uncode(text, field, players)
    if kind == "tiles":
        return [_uncode(x, field, players) for x in items]
    if kind == "tilelists":
        return [_dec("tiles", x, field, players) for x in text.split(";")]
    if kind == "cellmaps":
        out = []
        for part in text.split(";"):
            m = {}
            for item in ([] if part == "-" else part.split(",")):
                cell, sep, code = item.partition(":")
                if not sep:
                    raise NotationError(field, item, "expected CELL:TILE, e.g. a1:G0")
                m[cell] = _uncode(code, field, players)
            out.append(m)
        return out
    if kind == "celllists":
        return [[] if part == "-" else part.split(",") for part in text.split(";")]
    if kind == "knownlists":
        return [[] if part == "-" else [x.replace(":", " ") for x in part.split(",")] for part in text.split(";")]
    if kind == "pile":
        return int(text) if text.isdigit() else ("" if text == "-" else text)
    if kind == "maybeints":
        return [None if x == "?" else _dec("int", x, field, players) for x in items]
    if kind == "seatints":
        return [_dec("int", x, field, players) for x in text.split(";")]
    if kind == "awaiting":
        if text == "-":
            return None
        parts = [x.replace("_", " ") for x in text.split("/")]
        return {"move": parts[0], "entered": parts[1:]}
    raise AssertionError(kind)


def state_to_notation(s: Any) -> str:
    """The compact notation: ``MODE:PLAYERS`` then ``key=value`` fields separated by spaces."""
    return _fields_notation(state_to_json(s), NOTATION_FIELDS, TILE_NOTATION)


def _fields_notation(data: dict[str, Any], fields: tuple[tuple[str, str, str], ...],
                     tiles: tuple[tuple[str, str, str], ...]) -> str:
    """``MODE:PLAYERS`` then the ``short=value`` of each of ``fields`` (and of ``tiles``) present in ``data``."""
    parts = [f"{data['mode']}:{data['players']}"]
    for key, short, kind in fields:
        if key in data:
            parts.append(f"{short}={_enc(kind, data[key])}")
    if "tiles" in data:
        for key, short, kind in tiles:
            parts.append(f"{short}={_enc(kind, data['tiles'][key])}")
    return " ".join(parts)


def _view_fields() -> tuple[tuple[tuple[str, str, str], ...], tuple[tuple[str, str, str], ...]]:
    changed = {"drawPile": "pile", "legendDeck": "int", "ageScores": "maybeints"}
    fields = tuple((key, short, changed.get(key, kind)) for key, short, kind in NOTATION_FIELDS)
    fields += (("awaiting", "aw", "awaiting"),)
    changed_tiles = {"undealt": "seatints", "unrevealed": "seatints"}
    tiles = tuple((key, short, changed_tiles.get(key, kind)) for key, short, kind in TILE_NOTATION)
    return fields, tiles


def view_json_to_notation(data: dict[str, Any]) -> str:
    """A view's notation body (after ``view:N``): the state's fields, with ``?`` for what the observer does not
    know, the draw pile and Legend deck as counts, and ``aw=`` for a move waiting for its outcomes."""
    return _fields_notation(data, *_view_fields())


def view_notation_to_json(observer: int, text: Any, field: str = "state") -> dict[str, Any]:
    """Parse a view's notation body into the view's JSON form (validated by ``view_from_json``)."""
    fields, tiles = _view_fields()
    data = notation_to_json(text, field, fields, tiles)
    return {"view": observer, **data}


def notation_to_json(text: Any, field: str = "state", fields: Any = None, tiles: Any = None) -> dict[str, Any]:
    """Parse the notation into the JSON form (validated by :func:`state_from_json`)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(field, text, "expected an Aetherya state such as 'base:2 ph=choose ...' "
                                         "(docs/formats/aetherya.md)")
    tokens = text.split()
    head = tokens[0]
    mode, sep, players = head.partition(":")
    if not sep or not players.isdigit():
        raise NotationError(field, head, "the notation starts with MODE:PLAYERS, e.g. 'base:2'")
    P = int(players)
    data: dict[str, Any] = {"mode": mode, "players": P}
    by_short = {short: (key, kind) for key, short, kind in fields or NOTATION_FIELDS}
    tile_short = {short: (key, kind) for key, short, kind in tiles or TILE_NOTATION}
    for token in tokens[1:]:
        short, sep, value = token.partition("=")
        if not sep:
            raise NotationError(field, token, "expected key=value")
        if short in by_short:
            key, kind = by_short[short]
            if key in data:
                raise NotationError(field, token, "field given twice")
            data[key] = _dec(kind, value, f"{field} ({short}=)", P)
        elif short in tile_short:
            key, kind = tile_short[short]
            data.setdefault("tiles", {})[key] = _dec(kind, value, f"{field} ({short}=)", P)
        else:
            raise NotationError(field, token, "unknown field (see docs/formats/aetherya.md)")
    return data
