"""Memorinth JSON states and views, the compact notation, and the checks of a parsed position
(``docs/formats/memorinth.md``).

Both formats describe the full state (or one player's view) and round-trip. Parsing checks every field and
raises the classes of ``solver.errors`` naming the field and quoting the value; well-formed input that no game
can reach raises :class:`~solver.errors.ImpossibleStateError`. Parsing gives the game, the state vector, the
deal so far (while setting up) and the awaited reveal; ``solver/memorinth/game.py`` makes the state or view of
them. Formatting reads any position (a state or a view: ``rules``, ``vec``, ``setup``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import ImpossibleStateError, InvalidInputError, NotationError, UnknownCardError
from solver.memorinth import layout as R
from solver.memorinth.deck import ACTION_NAMES, DIRECTIONS, Deck, load_deck
from solver.memorinth.knowledge import fill_unknown_undersides, knows_underside
from solver.memorinth.layout import (CHAR, CLOVER, DEAL_CARD, DEAL_CHAR, DOWN, LAST, OWNTURNS, PENDING, PH_ACT,
                                     PH_CHOOSE, PH_FLIP, PH_OVER, PHASE, PIECE, ROUND, SEEN, START, SUPPLY, TOMOVE,
                                     TURNS, UP, WINNER, rule_vector)
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get, join

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame
    from solver.memorinth.state import MemorinthState

#: what a parsed position is made of: its game, the state vector, the deal so far while setting up (``None``
#: once dealt) and the cell whose revealed side a view awaits (-1: none)
Parsed = tuple["MemorinthGame", np.ndarray, "list[int] | None", int]

FACE_NAMES = ("sun", "moon")
JSON_KEYS = ("players", "variant", "actionSide", "seats", "deck", "board", "seen", "pieces", "characters",
             "clovers", "supply", "round", "toMove", "startCard", "lastFlipped", "phase", "pending", "winner",
             "turns", "ownTurns", "dealt", "dealtCharacters")
_CELL_TOKEN = re.compile(r"^([A-Za-z0-9]{1,4})([SM])(?::([A-Za-z0-9]{1,4}|\?))?(?:\+([0-3]+))?$")


# =============================================================================================
# output
# =============================================================================================
def cell_token(state: Any, cell: int, with_seen: bool, observer: int | None = None) -> str:
    """``12S`` (its own underside), ``12S:7`` (underside: the other face of card 7), ``12S:?`` (in ``observer``'s
    view: an underside they do not know), with ``+01`` who has seen it."""
    deck = state.rules.deck
    up, down = int(state.vec[UP + cell]), int(state.vec[DOWN + cell])
    text = deck.side_name(up)
    if observer is not None and not knows_underside(state.vec, cell, observer):
        text += ":?"
    elif down != up ^ 1:
        text += ":" + deck.cards[down >> 1].ident
    if with_seen:
        seen = "".join(str(p) for p in range(state.rules.players) if state.vec[SEEN + cell] >> p & 1)
        if seen:
            text += "+" + seen
    return text


def _characters_json(state: Any) -> dict[str, str]:
    codes = state.rules.deck.codes
    out = {d: "" for d in DIRECTIONS}
    action = [""] * 4
    for i in range(8):
        loc = int(state.vec[CHAR + i])
        if loc < 4:
            out[DIRECTIONS[loc]] += codes[i]
        else:
            action[loc - 4] = codes[i]
    if state.rules.master:
        out["action"] = "".join(action)
    return out


def _rules_json(game: MemorinthGame) -> dict[str, Any]:
    rules = game.rules
    deck: Any = "default" if rules.deck.is_default else (game.params["deck"] if game.deck_is_file
                                                         else rules.deck.to_json())
    return {"players": rules.players, "variant": rules.variant, "actionSide": rules.action_side,
            "seats": rules.seats, "deck": deck}


def state_to_json(state: Any, observer: int | None = None, reveal: int = -1) -> dict[str, Any]:
    """The full state as JSON, or (``observer`` given) that player's view of it (``"view": N``, ``12S:?`` for the
    undersides they do not know, ``reveal`` the cell whose revealed side comes next)."""
    out: dict[str, Any] = {} if observer is None else {"view": observer}
    out.update(_rules_json(state.game))
    if state.setup is not None:
        deck = state.rules.deck
        out["phase"] = "setup"
        out["dealt"] = [deck.cards[a - DEAL_CARD].ident for a in state.setup[:24]]
        out["dealtCharacters"] = "".join(deck.codes[a - DEAL_CHAR] for a in state.setup[24:])
        return out
    v = state.vec
    n = state.rules.players
    out["board"] = [" ".join(cell_token(state, 5 * r + c, False, observer) for c in range(5)) for r in range(5)]
    out["seen"] = [[R.cell_name(c) for c in range(25) if v[SEEN + c] >> p & 1] for p in range(n)]
    out["pieces"] = ["out" if v[PIECE + p] == R.OUT else R.cell_name(int(v[PIECE + p])) for p in range(n)]
    out["characters"] = _characters_json(state)
    if state.rules.goblins:
        out["clovers"] = [int(v[CLOVER + p]) for p in range(n)]
        out["supply"] = int(v[SUPPLY])
    out["round"] = int(v[ROUND])
    out["toMove"] = int(v[TOMOVE])
    out["startCard"] = FACE_NAMES[int(v[START])]
    out["lastFlipped"] = None if v[LAST] < 0 else R.cell_name(int(v[LAST]))
    out["phase"] = R.PHASE_NAMES[int(v[PHASE])]
    out["pending"] = R.PENDING_NAMES[int(v[PENDING])] if v[PHASE] == PH_ACT else None
    out["winner"] = None if v[WINNER] < 0 else int(v[WINNER])
    out["turns"] = int(v[TURNS])
    out["ownTurns"] = [int(v[OWNTURNS + p]) for p in range(n)]
    if reveal >= 0:
        out["reveal"] = R.cell_name(reveal)
    return out


def state_to_notation(state: Any, observer: int | None = None, reveal: int = -1) -> str:
    """The compact one-line notation (``docs/formats/memorinth.md``); with ``observer``, the body of that player's
    view (``12S:?`` for unknown undersides, ``reveal=<cell>`` in the status); the caller adds ``view:N``."""
    head = state.rules.header()
    deck = state.rules.deck
    if state.setup is not None:
        cards = ",".join(deck.cards[a - DEAL_CARD].ident for a in state.setup[:24]) or "-"
        chars = "".join(deck.codes[a - DEAL_CHAR] for a in state.setup[24:]) or "-"
        return f"{head} | setup {cards} | {chars}"
    v = state.vec
    n = state.rules.players
    board = "/".join(",".join(cell_token(state, 5 * r + c, True, observer) for c in range(5)) for r in range(5))
    pieces = ",".join("out" if v[PIECE + p] == R.OUT else R.cell_name(int(v[PIECE + p])) for p in range(n))
    chars = _characters_json(state)
    char_text = " ".join(f"{d}={chars[d]}" for d in DIRECTIONS)
    if state.rules.master:
        char_text += f" A={chars['action']}"
    status = [f"r{int(v[ROUND])}", f"p{int(v[TOMOVE])}", R.PHASE_NAMES[int(v[PHASE])]]
    if v[PHASE] == PH_ACT:
        status[-1] += ":" + R.PENDING_NAMES[int(v[PENDING])]
    if v[LAST] >= 0:
        status.append(f"last={R.cell_name(int(v[LAST]))}")
    if state.rules.goblins:
        status.append("clovers=" + ",".join(str(int(v[CLOVER + p])) for p in range(n)) + f"/{int(v[SUPPLY])}")
    if v[WINNER] >= 0:
        status.append(f"winner={int(v[WINNER])}")
    if v[TURNS] or any(v[OWNTURNS + p] for p in range(n)):
        status.append(f"turns={int(v[TURNS])}:" + ",".join(str(int(v[OWNTURNS + p])) for p in range(n)))
    if reveal >= 0:
        status.append(f"reveal={R.cell_name(reveal)}")
    return f"{head} | {board} | {pieces} | {char_text} | {' '.join(status)}"


def legacy_observation_to_view(obj: dict[str, Any], field: str) -> dict[str, Any]:
    """The observation format of earlier releases (``"player": N`` and ``board`` rows of ``{"up", "under",
    "seenBy"}`` objects) as a view's JSON, so that files written by them still load."""
    out = {k: v for k, v in obj.items() if k not in ("player", "board", "dealt")}
    out["view"] = obj["player"]
    if obj.get("phase") == "setup":
        raise InvalidInputError(join(field, "phase"), "setup", "an observation of an undealt table lists no cards: "
                                                               "give the view's JSON instead")
    rows = as_list(get(obj, "board", field), join(field, "board"), 5, 5)
    board, seen = [], [[] for _ in range(as_int(obj.get("players", 2), join(field, "players"), 1, 4))]
    for r, row in enumerate(rows):
        tokens = []
        for c, cell in enumerate(as_list(row, join(join(field, "board"), r), 5, 5)):
            f = join(join(join(field, "board"), r), c)
            cell = as_object(cell, f)
            check_keys(cell, ("up", "under", "seenBy"), f)
            up = as_str(get(cell, "up", f), join(f, "up"))
            under = cell.get("under")
            token = up
            if under is None:
                token += ":?"
            else:
                under = as_str(under, join(f, "under"))
                if under[:-1] != up[:-1]:
                    token += ":" + under[:-1]
            tokens.append(token)
            for i, p in enumerate(as_list(cell.get("seenBy", []), join(f, "seenBy"))):
                p = as_int(p, join(join(f, "seenBy"), i), 0, len(seen) - 1)
                seen[p].append(R.cell_name(5 * r + c))
        board.append(" ".join(tokens))
    out["board"] = board
    out["seen"] = seen
    return out


def looks_like_legacy_observation(obj: Any) -> bool:
    """True for the observation format of earlier releases (see :func:`legacy_observation_to_view`)."""
    if not isinstance(obj, dict) or "view" in obj or "player" not in obj:
        return False
    board = obj.get("board")
    return isinstance(board, list) and bool(board) and isinstance(board[0], list) and bool(board[0]) \
        and isinstance(board[0][0], dict)


# =============================================================================================
# input
# =============================================================================================
def _resolve_game(game: MemorinthGame, obj: dict[str, Any], field: str) -> MemorinthGame:
    """The game whose rules the JSON names (missing keys keep ``game``'s parameters)."""
    params: dict[str, Any] = {}
    if "players" in obj:
        params["players"] = as_int(obj["players"], join(field, "players"), 1, 4)
    if "variant" in obj:
        params["variant"] = obj["variant"]
    if "actionSide" in obj:
        params["action_side"] = obj["actionSide"]
    if "seats" in obj:
        params["seats"] = obj["seats"]
    deck: Any = None
    if "deck" in obj:
        deck = obj["deck"]
        if isinstance(deck, dict):
            deck = load_deck(deck, join(field, "deck"))
        elif not isinstance(deck, str):
            raise InvalidInputError(join(field, "deck"), deck, "expected 'default', a deck file path or a deck object")
    return game.derive(params, deck, field)


def read_json(game: MemorinthGame, obj: Any, field: str, observer: int | None) -> Parsed:
    """The game, the vector, the undealt table (or ``None``) and the ``reveal`` cell (-1) of a JSON state, or of
    ``observer``'s view (then the undersides they do not know hold the remaining sides in a canonical order)."""
    obj = as_object(obj, field)
    check_keys(obj, JSON_KEYS + (("view", "reveal") if observer is not None else ()), field)
    game = _resolve_game(game, obj, field)
    rules = game.rules
    if observer is not None and not 0 <= observer < rules.players:
        raise InvalidInputError(join(field, "view"), observer, f"expected a player 0..{rules.players - 1}")
    if obj.get("phase") == "setup":
        if "reveal" in obj:
            raise InvalidInputError(join(field, "reveal"), obj["reveal"], "nothing is revealed while setting up")
        setup = _setup_from_lists(game, as_list(obj.get("dealt", []), join(field, "dealt")),
                                  as_str(obj.get("dealtCharacters", ""), join(field, "dealtCharacters")), field)
        return game, rule_vector(game.rules), setup, -1
    for key in ("dealt", "dealtCharacters"):
        if key in obj:
            raise InvalidInputError(join(field, key), obj[key], "only allowed with \"phase\": \"setup\"")
    vec = rule_vector(rules)
    rows = as_list(get(obj, "board", field), join(field, "board"), 5, 5)
    tokens: list[str] = []
    for r, row in enumerate(rows):
        f = join(join(field, "board"), r)
        cells = row.split() if isinstance(row, str) else as_list(row, f)
        if len(cells) != 5:
            raise InvalidInputError(f, row, "expected 5 cells (west to east) such as '3S 17M CS 5M 9S'")
        tokens.extend(as_str(c, join(f, i)) for i, c in enumerate(cells))
    cell_fields = [join(join(field, "board"), c // 5) + f" cell {R.cell_name(c)}" for c in range(25)]
    _fill_board(vec, rules.deck, tokens, cell_fields, allow_seen=False, allow_unknown=observer is not None)
    n = rules.players
    seen_lists = as_list(obj.get("seen", [[] for _ in range(n)]), join(field, "seen"), n, n)
    for p, cells in enumerate(seen_lists):
        f = join(join(field, "seen"), p)
        for i, name in enumerate(as_list(cells, f)):
            cell = R.parse_cell(name, join(f, i))
            if vec[SEEN + cell] >> p & 1:
                raise InvalidInputError(join(f, i), name, "cell listed twice")
            vec[SEEN + cell] |= 1 << p
    if observer is not None:
        check_view_board(vec, rules.deck, observer, [tokens[c] for c in range(25)], cell_fields)
    _read_pieces(vec, as_list(get(obj, "pieces", field), join(field, "pieces"), n, n), n, join(field, "pieces"))
    _read_characters(vec, rules, as_object(get(obj, "characters", field), join(field, "characters")),
                     join(field, "characters"))
    if rules.goblins:
        clovers = as_list(get(obj, "clovers", field), join(field, "clovers"), n, n)
        for p, value in enumerate(clovers):
            vec[CLOVER + p] = as_int(value, join(join(field, "clovers"), p), 0, 5)
        vec[SUPPLY] = as_int(get(obj, "supply", field), join(field, "supply"), 0, 5)
    else:
        for key in ("clovers", "supply"):
            if key in obj:
                raise InvalidInputError(join(field, key), obj[key],
                                        "lucky clovers are only in play in Master Memorinth with the special side "
                                        "(actionSide 'special' or 'alternate')")
    _read_turn(vec, rules, obj, field)
    _read_counters(vec, obj, n, field)
    reveal = obj.get("reveal")
    return game, vec, None, -1 if reveal is None else R.parse_cell(reveal, join(field, "reveal"))


def _setup_from_lists(game: MemorinthGame, cards: list[Any], chars: str, field: str) -> list[int]:
    """The chance actions of a deal under way: the forest cards laid out so far, then the characters."""
    deck = game.rules.deck
    setup: list[int] = []
    for i, ident in enumerate(cards):
        f = join(join(field, "dealt"), i)
        k = deck.card_index(as_str(ident, f), f)
        if k == 0:
            raise InvalidInputError(f, ident, "the clearing is not dealt: it always starts in the centre")
        if DEAL_CARD + k in setup:
            raise InvalidInputError(f, ident, "card dealt twice")
        setup.append(DEAL_CARD + k)
    if len(setup) > 24:
        raise InvalidInputError(join(field, "dealt"), len(setup), "at most 24 forest cards")
    if chars and len(setup) < 24:
        raise InvalidInputError(join(field, "dealtCharacters"), chars, "characters are dealt after the 24 cards")
    for ch in chars:
        i = deck.character_index(ch, join(field, "dealtCharacters"))
        if DEAL_CHAR + i in setup:
            raise InvalidInputError(join(field, "dealtCharacters"), chars, f"character {ch} dealt twice")
        setup.append(DEAL_CHAR + i)
    if len(setup) == 32:
        raise InvalidInputError(join(field, "phase"), "setup", "the deal is complete: give the dealt position instead")
    return setup


def _fill_board(vec: np.ndarray, deck: Deck, tokens: list[str], fields: list[str], allow_seen: bool,
                allow_unknown: bool = False) -> None:
    """Read the 25 cell tokens into ``vec``; with ``allow_unknown`` (a view), ``12S:?`` leaves the underside to be
    filled by :func:`fill_unknown_undersides` (marked -1 until then)."""
    used: dict[int, str] = {}
    for cell, (token, f) in enumerate(zip(tokens, fields)):
        m = _CELL_TOKEN.match(token)
        if m and m.group(3) == "?" and not allow_unknown:
            raise InvalidInputError(f, token, "a full state names every underside ('?' is for a player's view, "
                                              "whose JSON has \"view\": N and whose notation starts 'view:N ')")
        if not m or (m.group(4) and not allow_seen):
            raise InvalidInputError(f, token, "expected a card id and its face-up side, such as '12S' or 'CM' "
                                              "(optionally ':7' for the underside of a different card"
                                              + (", ':?' for an underside not known" if allow_unknown else "") + ")")
        k = deck.card_index(m.group(1), f)
        face = "SM".index(m.group(2))
        up = 2 * k + face
        if m.group(3) == "?":
            down = -1
        else:
            down = up ^ 1 if m.group(3) is None else 2 * deck.card_index(m.group(3), f) + 1 - face
        for side in (up, down):
            if side < 0:
                continue
            if side in used:
                raise ImpossibleStateError(f, token, f"side {deck.side_name(side)} is already on {used[side]}")
            used[side] = R.cell_name(cell)
        vec[UP + cell], vec[DOWN + cell] = up, down
        if m.group(4):
            for ch in m.group(4):
                vec[SEEN + cell] |= 1 << int(ch)


def check_view_board(vec: np.ndarray, deck: Deck, observer: int, tokens: list[str], fields: list[str]) -> None:
    """A view gives exactly the undersides its observer knows (MR-21): those they have seen, and the clearing's;
    then the unknown ones are filled in a canonical order."""
    for cell in range(25):
        up, down = int(vec[UP + cell]), int(vec[DOWN + cell])
        seen = bool(int(vec[SEEN + cell]) >> observer & 1)
        if down < 0 and up < 2:
            raise ImpossibleStateError(fields[cell], tokens[cell], "the clearing's underside is known to everybody "
                                                                   "(MR-21): write 'CS' or 'CM'")
        if down < 0 and seen:
            raise ImpossibleStateError(fields[cell], tokens[cell], f"player {observer} has seen this underside "
                                                                   "(see 'seen'): name it")
        if down >= 0 and up >= 2 and not seen:
            raise ImpossibleStateError(fields[cell], tokens[cell],
                                       f"player {observer} has not seen this underside (see 'seen'): write "
                                       f"'{deck.side_name(up)}:?', or list the cell among what they have seen")
    fill_unknown_undersides(vec, observer)


def _read_pieces(vec: np.ndarray, items: list[Any], n: int, field: str) -> None:
    for p, name in enumerate(items):
        vec[PIECE + p] = R.OUT if name == "out" else R.parse_cell(name, join(field, p))


def _read_characters(vec: np.ndarray, rules: R.Rules, obj: dict[str, Any], field: str) -> None:
    deck = rules.deck
    keys = tuple(DIRECTIONS) + (("action",) if rules.master else ())
    check_keys(obj, keys, field)
    placed: dict[int, str] = {}
    per_side = 1 if rules.master else 2
    for key in keys:
        text = as_str(get(obj, key, field), join(field, key))
        want = 4 if key == "action" else per_side
        if len(text) != want:
            raise ImpossibleStateError(join(field, key), text,
                                       f"expected {want} character{'s' if want > 1 else ''} "
                                       + ("around the action card (its N, E, S, W edges)" if key == "action"
                                          else f"on the {key} side of the forest"))
        for j, ch in enumerate(text):
            i = deck.character_index(ch, join(field, key))
            if i in placed:
                raise ImpossibleStateError(join(field, key), text, f"character {ch} is already on {placed[i]}")
            placed[i] = key
            vec[CHAR + i] = 4 + j if key == "action" else DIRECTIONS.index(key)


def _read_turn(vec: np.ndarray, rules: R.Rules, obj: dict[str, Any], field: str) -> None:
    n = rules.players
    to_move = as_int(obj.get("toMove", 0), join(field, "toMove"), 0, n - 1)
    vec[TOMOVE] = to_move
    card = obj.get("startCard")
    side = None
    if card is not None:
        if card not in FACE_NAMES:
            raise InvalidInputError(join(field, "startCard"), card, "expected 'sun' or 'moon'")
        side = FACE_NAMES.index(card)
    if "round" in obj:
        rnd = as_int(obj["round"], join(field, "round"), 1, 1_000_000)
    elif side is None:
        rnd = 1
    else:
        rnd = 2 if R.start_side(2, to_move) == side else 3
    if side is not None and R.start_side(rnd, to_move) != side:
        raise ImpossibleStateError(join(field, "startCard"), card,
                                   f"in round {rnd} the start-player card shows "
                                   f"{FACE_NAMES[R.start_side(rnd, to_move)]} during player {to_move}'s turn")
    vec[ROUND] = rnd
    vec[START] = R.start_side(rnd, to_move)
    last = obj.get("lastFlipped")
    vec[LAST] = -1 if last is None else R.parse_cell(last, join(field, "lastFlipped"))
    phase = obj.get("phase", "flip")
    if phase not in R.PHASE_NAMES:
        raise InvalidInputError(join(field, "phase"), phase, "expected flip, choose, act, over or setup")
    vec[PHASE] = R.PHASE_NAMES.index(phase)
    pending = obj.get("pending")
    if vec[PHASE] == PH_ACT:
        if pending not in R.PENDING_NAMES:
            raise InvalidInputError(join(field, "pending"), pending,
                                    f"expected one of {', '.join(R.PENDING_NAMES)} in the act phase")
        vec[PENDING] = R.PENDING_NAMES.index(pending)
    elif pending is not None:
        raise InvalidInputError(join(field, "pending"), pending, "only allowed in the act phase")
    winner = obj.get("winner")
    vec[WINNER] = -1 if winner is None else as_int(winner, join(field, "winner"), 0, n - 1)


def _read_counters(vec: np.ndarray, obj: dict[str, Any], n: int, field: str) -> None:
    vec[TURNS] = as_int(obj.get("turns", 0), join(field, "turns"), 0, 10**9)
    own = as_list(obj.get("ownTurns", [0] * n), join(field, "ownTurns"), n, n)
    for p, value in enumerate(own):
        vec[OWNTURNS + p] = as_int(value, join(join(field, "ownTurns"), p), 0, 10**9)


def check_state(state: MemorinthState, field: str) -> None:
    """Reject positions the rules cannot produce (the kernel relies on these invariants)."""
    v, rules = state.vec, state.rules
    n = rules.players
    phase = int(v[PHASE])
    winner = int(v[WINNER])
    out = [p for p in range(n) if v[PIECE + p] == R.OUT]
    if winner >= 0:
        if phase != PH_OVER:
            raise ImpossibleStateError(join(field, "winner"), winner, "a winner is only named when the phase is 'over'")
        if out != [winner]:
            raise ImpossibleStateError(join(field, "pieces"), [R.cell_name(int(v[PIECE + p])) if p not in out else "out"
                                                              for p in range(n)],
                                       f"the winner's piece (and only it) must be 'out'")
    elif out:
        raise ImpossibleStateError(join(field, "pieces"), "out", "a piece left the forest but no winner is named")
    if rules.goblins and int(v[SUPPLY]) + sum(int(v[CLOVER + p]) for p in range(n)) != 5:
        raise ImpossibleStateError(join(field, "clovers"), [int(v[CLOVER + p]) for p in range(n)],
                                   f"the players' clovers and the supply ({int(v[SUPPLY])}) must add up to 5")
    last = int(v[LAST])
    if phase == PH_CHOOSE:
        if last < 0:
            raise ImpossibleStateError(join(field, "lastFlipped"), None, "the choose phase needs the card just flipped")
        if (int(v[UP + last]) & 1) == int(v[START]):
            raise ImpossibleStateError(join(field, "lastFlipped"), R.cell_name(last),
                                       "the card just flipped must show the side the start-player card does not")
    if int(v[ROUND]) == 1 and int(v[TOMOVE]) == 0 and phase == PH_FLIP and last >= 0:
        raise ImpossibleStateError(join(field, "lastFlipped"), R.cell_name(last), "nobody has flipped a card yet")
    if phase == PH_FLIP and last >= 0:
        _check_previous_flip(state, last, field)
    if phase == PH_OVER and winner < 0 and (rules.master or not all(stuck(state, p) for p in range(n))):
        raise ImpossibleStateError(join(field, "phase"), "over",
                                   "the game is over only when a piece has left the forest, or (base game) when "
                                   "no piece can ever leave (MR-19)")
    if phase != PH_OVER:
        try:
            legal = state.legal_actions()
        except ValueError as exc:  # the kernel's own guard
            raise ImpossibleStateError(field, state_to_notation(state), str(exc)) from None
        if phase in (PH_CHOOSE, PH_ACT) and len(legal) < 2:
            raise ImpossibleStateError(join(field, "phase"), R.PHASE_NAMES[phase],
                                       "a choice is only pending when there are at least two options "
                                       f"(here: {len(legal)})")
    if phase == PH_ACT:
        pending = int(v[PENDING])
        if not rules.master:
            raise ImpossibleStateError(join(field, "phase"), "act", "actions exist only in Master Memorinth")
        side = {"shift": 0, "special": 1}.get(rules.action_side, int(v[START]))
        if (pending < 4) != (side == 0):
            raise ImpossibleStateError(join(field, "pending"), R.PENDING_NAMES[pending],
                                       f"not an action of the action card's {('shift', 'special')[side]} side, "
                                       "the side in use")
        if last < 0:
            raise ImpossibleStateError(join(field, "lastFlipped"), None, "the act phase needs the card just flipped")
        if (int(v[UP + last]) & 1) == int(v[START]):
            raise ImpossibleStateError(join(field, "lastFlipped"), R.cell_name(last),
                                       "the card just flipped must show the side the start-player card does not")
        if pending not in _pending_from_flip(state, last, side):
            raise ImpossibleStateError(join(field, "pending"), R.PENDING_NAMES[pending],
                                       f"no character on the card just flipped ({R.cell_name(last)}, "
                                       f"{rules.deck.side_name(int(v[UP + last]))}) stands at that action")


def _check_previous_flip(state: MemorinthState, last: int, field: str) -> None:
    """MR-5 / MR-6: the card the previous player flipped shows the side other than the one the start-player card
    showed during that player's turn (no flip has happened since, and shifts and swaps keep the faces)."""
    v, n = state.vec, state.rules.players
    to_move, round_no = int(v[TOMOVE]), int(v[ROUND])
    previous, prev_round = (to_move - 1, round_no) if to_move > 0 else (n - 1, round_no - 1)
    shown = R.start_side(prev_round, previous)
    if int(v[UP + last]) & 1 == shown:
        raise ImpossibleStateError(join(field, "lastFlipped"), R.cell_name(last),
                                   f"the card player {previous} flipped in round {prev_round} (a "
                                   f"{FACE_NAMES[shown]} round for them) must now show {FACE_NAMES[1 - shown]}")


def _pending_from_flip(state: MemorinthState, last: int, side: int) -> set[int]:
    """The pending codes the characters on the card just flipped can start (MR-11, MR-18, MR-25)."""
    v, rules = state.vec, state.rules
    seat = "NESW".index(rules.seats[int(v[TOMOVE])])
    out = set()
    chars = rules.deck.side(int(v[UP + last])).characters
    for i in range(8):
        loc = int(v[CHAR + i])
        if chars >> i & 1 and loc >= 4:
            name = ACTION_NAMES[rules.deck.actions[side][loc - 4]]
            if name.startswith("shift-"):
                rel = ("shift-down", "shift-up", "shift-left", "shift-right").index(name)
                out.add((seat, (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4)[rel])
            else:
                out.add(R.PENDING_NAMES.index(name))
    return out


def stuck(state: MemorinthState, player: int) -> bool:
    """As every player can see, no sequence of flips can ever open a way out for ``player``'s piece (MR-19; the
    kernel's rule).

    Any card may come to show either side it may have: its own two when every player knows its underside (it was
    flipped, or it is the clearing), else its face-up side or any side of the other colour whose place not
    everybody knows. The card under the piece is the exception: nobody may flip it while the piece is there, so
    the piece's first step follows its face-up paths.
    """
    deck = state.rules.deck
    v = state.vec
    here = int(v[PIECE + player])
    everybody = (1 << state.rules.players) - 1
    public = [int(v[UP + c]) < 2 or int(v[SEEN + c]) & everybody == everybody for c in range(25)]
    pool = [0, 0]
    for c in range(25):
        if not public[c]:
            pool[int(v[UP + c]) & 1] |= deck.side(int(v[DOWN + c])).paths
    union = [deck.side(int(v[UP + c])).paths | (deck.side(int(v[DOWN + c])).paths if public[c]
                                                else pool[int(v[UP + c]) & 1]) for c in range(25)]
    reached: set[int] = set()
    frontier = []
    for c in range(25):
        r, col = divmod(c, 5)
        if (r == 0 and union[c] & 1) or (col == 4 and union[c] & 2) or (r == 4 and union[c] & 4) \
                or (col == 0 and union[c] & 8):
            reached.add(c)
            frontier.append(c)
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
    while frontier:
        cell = frontier.pop()
        r, col = divmod(cell, 5)
        for d, (dr, dc) in enumerate(steps):
            rr, cc = r + dr, col + dc
            if 0 <= rr < 5 and 0 <= cc < 5:
                nb = 5 * rr + cc
                if nb not in reached and union[cell] >> d & 1 and union[nb] >> ((d + 2) % 4) & 1:
                    reached.add(nb)
                    frontier.append(nb)
    own = deck.side(int(v[UP + here])).paths
    r, col = divmod(here, 5)
    for d, (dr, dc) in enumerate(steps):
        if own >> d & 1:
            rr, cc = r + dr, col + dc
            if not (0 <= rr < 5 and 0 <= cc < 5):
                return False
            nb = 5 * rr + cc
            if nb in reached and union[nb] >> ((d + 2) % 4) & 1:
                return False
    return True


# -- notation -----------------------------------------------------------------------------------
_HEAD = re.compile(r"^([1-4])p\s+(base|master-shift|master-special|master-alternate)\s+([NESW]{1,4})"
                   r"(?:\s+(default|#[0-9a-f]{8}))?$")


def read_notation(game: MemorinthGame, text: Any, field: str, observer: int | None) -> Parsed:
    """As :func:`read_json`, from the notation (with ``observer``: a view's body, after ``view:N``)."""
    if not isinstance(text, str):
        raise NotationError(field, text, "expected a notation string")
    parts = [p.strip() for p in text.strip().split("|")]
    if not parts or not parts[0]:
        raise NotationError(field, text, "expected '<rules> | <board> | <pieces> | <characters> | <status>'")
    m = _HEAD.match(parts[0])
    if not m:
        raise NotationError(f"{field} (rules)", parts[0], "expected e.g. '2p base SN' or '3p master-special SWN'")
    players, variant, seats, tag = int(m.group(1)), m.group(2), m.group(3), m.group(4)
    params: dict[str, Any] = {"players": players, "seats": seats}
    if variant == "base":
        params["variant"] = "base"
    else:
        params["variant"] = "master"
        params["action_side"] = variant.split("-", 1)[1]
    game = game.derive(params, None, field)
    if (tag or "default") != game.rules.deck.tag():
        raise NotationError(f"{field} (rules)", tag or "default",
                            f"the notation was written with another deck than this game's ({game.rules.deck.tag()}); "
                            "pass the deck file with --deck")
    if len(parts) == 3 and parts[1].startswith("setup"):
        cards = parts[1][len("setup"):].strip()
        card_list = [] if cards in ("", "-") else [c.strip() for c in cards.split(",")]
        chars = "" if parts[2] in ("", "-") else parts[2]
        try:
            setup = _setup_from_lists(game, card_list, chars, field)
            return game, rule_vector(game.rules), setup, -1
        except InvalidInputError as exc:
            raise NotationError(f"{field} (setup)", text, exc.problem) from None
    if len(parts) != 5:
        raise NotationError(field, text, "expected 5 sections separated by '|': rules, board, pieces, characters, "
                                         "status")
    vec = rule_vector(game.rules)
    rows = parts[1].split("/")
    tokens = [t.strip() for row in rows for t in row.split(",")]
    if len(rows) != 5 or len(tokens) != 25:
        raise NotationError(f"{field} (board)", parts[1], "expected 5 rows separated by '/', 5 cells each "
                                                          "separated by ','")
    try:
        cell_fields = [f"{field} (board cell {R.cell_name(c)})" for c in range(25)]
        _fill_board(vec, game.rules.deck, tokens, cell_fields, allow_seen=True, allow_unknown=observer is not None)
    except InvalidInputError as exc:
        if isinstance(exc, (ImpossibleStateError, UnknownCardError)):
            raise
        raise NotationError(exc.field, exc.value, exc.problem) from None
    n = players
    for c in range(25):
        if vec[SEEN + c] >> n:
            raise NotationError(f"{field} (board cell {R.cell_name(c)})", tokens[c], f"players are 0..{n - 1}")
    if observer is not None:
        if not 0 <= observer < n:
            raise NotationError(field, f"view:{observer}", f"expected a player 0..{n - 1}")
        check_view_board(vec, game.rules.deck, observer, tokens, cell_fields)
    pieces = [p.strip() for p in parts[2].split(",")]
    if len(pieces) != n:
        raise NotationError(f"{field} (pieces)", parts[2], f"expected {n} cells separated by ','")
    try:
        _read_pieces(vec, pieces, n, f"{field} (pieces)")
    except InvalidInputError as exc:
        raise NotationError(exc.field, exc.value, exc.problem) from None
    chars: dict[str, str] = {}
    for item in parts[3].split():
        key, sep, value = item.partition("=")
        key = {"A": "action"}.get(key, key)
        if not sep or key in chars or key not in tuple(DIRECTIONS) + ("action",):
            raise NotationError(f"{field} (characters)", parts[3], "expected 'N=RF E=GH S=PB W=XT' (+ ' A=....' in "
                                                                   "Master Memorinth)")
        chars[key] = value
    _read_characters(vec, game.rules, chars, f"{field} (characters)")
    obj = _parse_status(parts[4], game.rules, f"{field} (status)")
    if game.rules.goblins:
        clovers = obj.pop("clovers", None)
        if clovers is None:
            raise NotationError(f"{field} (status)", parts[4], "expected clovers=a,b/supply in this variant")
        for p, value in enumerate(clovers[0]):
            vec[CLOVER + p] = value
        vec[SUPPLY] = clovers[1]
    elif "clovers" in obj:
        raise NotationError(f"{field} (status)", parts[4], "clovers are not in play in this variant")
    _read_turn(vec, game.rules, obj, f"{field} (status)")
    _read_counters(vec, obj, n, f"{field} (status)")
    reveal = obj.get("reveal")
    if reveal is not None and observer is None:
        raise NotationError(f"{field} (status)", parts[4], "reveal= is only part of a player's view")
    return game, vec, None, -1 if reveal is None else R.parse_cell(reveal, f"{field} (status).reveal")


def _parse_status(text: str, rules: R.Rules, field: str) -> dict[str, Any]:
    words = text.split()
    bad = NotationError(field, text, "expected e.g. 'r3 p1 flip last=b2' (phase flip, choose, act:<action>, over; "
                                     "optional last=, clovers=a,b/supply, winner=, turns=t:a,b, and in a view "
                                     "reveal=<cell>)")
    if len(words) < 3 or not re.fullmatch(r"r[0-9]{1,7}", words[0]) or not re.fullmatch(r"p[0-9]{1,2}", words[1]):
        raise bad
    obj: dict[str, Any] = {"round": int(words[0][1:]), "toMove": int(words[1][1:])}
    if obj["round"] < 1:
        raise NotationError(f"{field}.round", words[0], "rounds are numbered from 1")
    if obj["toMove"] >= rules.players:
        raise NotationError(f"{field}.toMove", words[1], f"players are p0..p{rules.players - 1}")
    phase, _, pending = words[2].partition(":")
    obj["phase"] = phase
    if pending:
        obj["pending"] = pending
    n = rules.players
    for word in words[3:]:
        key, sep, value = word.partition("=")
        if not sep or key in obj:
            raise bad
        if key == "last":
            obj["lastFlipped"] = value
        elif key == "reveal":
            obj["reveal"] = value
        elif key == "winner" and value in "0123" and len(value) == 1:
            obj["winner"] = int(value)
        elif key == "clovers":
            m = re.fullmatch(r"([0-5](?:,[0-5]){0,3})/([0-5])", value)
            if not m or len(m.group(1).split(",")) != n:
                raise bad
            obj["clovers"] = ([int(x) for x in m.group(1).split(",")], int(m.group(2)))
        elif key == "turns":
            m = re.fullmatch(r"([0-9]{1,9}):([0-9]{1,9}(?:,[0-9]{1,9}){0,3})", value)
            if not m or len(m.group(2).split(",")) != n:
                raise bad
            obj["turns"] = int(m.group(1))
            obj["ownTurns"] = [int(x) for x in m.group(2).split(",")]
        else:
            raise bad
    return obj
