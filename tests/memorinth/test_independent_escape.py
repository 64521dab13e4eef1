"""Shortest escapes and puzzles checked against rules written again from scratch (MR-26).

Nothing here calls the kernel or its twin: the rules are re-implemented from
docs/rules/memorinth.md on top of the public JSON state (``state.to_json()``)
and the deck file, and a plain breadth-first search over whole own turns gives
the fewest turns out. The project's proven answers ("OPTIMAL", "NO_ESCAPE") and
its puzzles ("unique") must agree with it, and every reported solution must be
playable move by move in this independent model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

import solver
from solver.memorinth.solve import shortest_escape
from solver.memorinth.game import MemorinthGame
from solver.search import SearchContext

DECK_FILE = Path(solver.__file__).parent / "data" / "memorinth_default_deck.json"
DIRS = "NESW"
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}
LEFT_HAND = {"S": "W", "N": "E", "W": "N", "E": "S"}    # a player's left, looking across the table


def shift_direction(action: str, seat: str) -> str:
    """MR-18: where the cards travel for a shift named from the mover's seat ('down' = toward the seat)."""
    left = LEFT_HAND[seat]
    return {"shift-down": seat, "shift-up": OPPOSITE[seat], "shift-left": left,
            "shift-right": OPPOSITE[left]}[action]


def load_deck() -> tuple[dict, dict, str]:
    """``(card id, 'S'|'M') -> (paths, characters, goblin arms)``, the action card, the character codes."""
    deck = json.loads(DECK_FILE.read_text())
    sides = {}
    for card in deck["cards"]:
        for face, key in (("S", "sun"), ("M", "moon")):
            side = card[key]
            sides[(card["id"], face)] = (side["paths"], side["characters"], side["goblins"])
    return sides, deck["actionCard"], "".join(c["code"] for c in deck["characters"])


SIDES, ACTION_CARD, CODES = load_deck()


@dataclass(frozen=True)
class Pos:
    """A solitaire-model position: faces, pieces, the card flipped last, the start card, whose turn, where each
    character stands, the clovers."""

    board: tuple[tuple[str, str], ...]    # per cell (row-major from a1): (card id, face up)
    pieces: tuple[tuple[int, int], ...]
    last: tuple[int, int] | None
    start: str                            # 'S' or 'M'
    round_two: bool                       # round >= 2 (the start card turns from then on)
    to_move: int
    places: tuple[str, ...]               # per character code: 'N'/'E'/'S'/'W' or 'A0'..'A3' (action card edge)
    clovers: tuple[int, ...]
    supply: int


@dataclass(frozen=True)
class Rules:
    players: int
    player: int
    seat: str
    side: str                             # 'shift', 'special' or 'alternate' (Master), '' (base game)

    @property
    def goblins(self) -> bool:
        return self.side in ("special", "alternate")


def cell_of(name: str) -> tuple[int, int]:
    return int(name[1]) - 1, "abcde".index(name[0])


def name_of(rc: tuple[int, int]) -> str:
    return f"{'abcde'[rc[1]]}{rc[0] + 1}"


def from_json(obj: dict) -> tuple[Pos, Rules]:
    board = []
    for row in obj["board"]:
        for token in row.split():
            assert ":" not in token
            board.append((token[:-1], token[-1]))
    places = {}
    for key, codes in obj["characters"].items():
        for i, code in enumerate(codes):
            places[code] = f"A{i}" if key == "action" else key
    last = cell_of(obj["lastFlipped"]) if obj["lastFlipped"] else None
    n = obj["players"]
    pos = Pos(tuple(board), tuple(cell_of(p) for p in obj["pieces"]), last, obj["startCard"][0].upper(),
              obj["round"] >= 2, obj["toMove"], tuple(places[c] for c in CODES),
              tuple(obj.get("clovers", [0] * n)), obj.get("supply", 5))
    side = obj["actionSide"] if obj["variant"] == "master" else ""
    return pos, Rules(n, obj["toMove"], obj["seats"][obj["toMove"]], side)


def end_turn(pos: Pos, rules: Rules, **changes) -> Pos:
    """MR-6: after the start player's turn from round 2 on, the start card turns; then the next player."""
    start = pos.start
    if pos.to_move == 0 and pos.round_two:
        start = "M" if start == "S" else "S"
    nxt = (pos.to_move + 1) % rules.players
    return replace(pos, start=start, to_move=nxt, round_two=pos.round_two or nxt == 0, **changes)


def step(board, piece: tuple[int, int], d: str):
    """``(target, goblin)``: target None (no path), 'out' (leaves the forest) or the neighbour cell (MR-7, MR-9,
    MR-10); goblin when an arm crossed on the way has one (MR-28)."""
    r, c = piece
    paths, _, goblins = SIDES[board[5 * r + c]]
    if d not in paths:
        return None, False
    dr, dc = STEP[d]
    rr, cc = r + dr, c + dc
    if not (0 <= rr < 5 and 0 <= cc < 5):
        return "out", d in goblins
    paths2, _, goblins2 = SIDES[board[5 * rr + cc]]
    if OPPOSITE[d] not in paths2:
        return None, False
    return (rr, cc), d in goblins or OPPOSITE[d] in goblins2


def shift(pos: Pos, d: str, line: int) -> dict:
    """MR-12: the cards of column/row ``line`` travel one place toward ``d``; the one pushed out re-enters."""
    cells = [(r, line) for r in range(5)] if d in "NS" else [(line, c) for c in range(5)]
    if d in "NW":
        cells = cells[::-1]             # listed in travel order: each card moves to the next cell
    dest = {cells[i]: cells[(i + 1) % 5] for i in range(5)}
    new = list(pos.board)
    for src, dst in dest.items():
        new[5 * dst[0] + dst[1]] = pos.board[5 * src[0] + src[1]]
    return dict(board=tuple(new), pieces=tuple(dest.get(p, p) for p in pos.pieces),
                last=dest.get(pos.last, pos.last) if pos.last else None)


def act(pos: Pos, rules: Rules, action: str):
    """The ways to carry out ``action`` (MR-12, MR-15 - MR-17): ``(move strings, changes)``; none when it cannot
    be done (MR-24)."""
    if action.startswith("shift"):
        d = shift_direction(action, rules.seat)
        for line in range(5):
            name = f"col {'abcde'[line]}" if d in "NS" else f"row {line + 1}"
            yield [f"shift {name} {WORD[d]}"], shift(pos, d, line)
        return
    me = rules.player
    free = [(r, c) for r in range(5) for c in range(5) if (r, c) not in pos.pieces]
    if action == "clover":
        clovers = list(pos.clovers)
        clovers[me] += 1
        if pos.supply:
            yield [], dict(clovers=tuple(clovers), supply=pos.supply - 1)
            return
        for q in range(rules.players):
            if q != me and pos.clovers[q]:
                taken = list(clovers)
                taken[q] -= 1
                yield [f"clover from {q}"], dict(clovers=tuple(taken))
    elif action == "peek":
        for rc in free:                 # full information: a peek changes nothing, but it is a move of its own
            yield [f"peek {name_of(rc)}"], {}
    elif action == "swap-cards":
        for i, a in enumerate(free):
            for b in free[i + 1:]:
                board = list(pos.board)
                board[5 * a[0] + a[1]], board[5 * b[0] + b[1]] = board[5 * b[0] + b[1]], board[5 * a[0] + a[1]]
                last = {a: b, b: a}.get(pos.last, pos.last) if pos.last else None
                yield [f"swap {name_of(a)} {name_of(b)}"], dict(board=tuple(board), last=last)
    else:
        for i in range(8):
            for j in range(i + 1, 8):
                places = list(pos.places)
                places[i], places[j] = places[j], places[i]
                yield [f"swap {CODES[i]} {CODES[j]}"], dict(places=tuple(places))


def action_at(pos: Pos, rules: Rules, edge: int) -> str:
    """MR-13 / MR-25: the action on that edge of the side of the action card in use."""
    side = rules.side if rules.side != "alternate" else ("shift" if pos.start == "S" else "special")
    return ACTION_CARD[side]["NESW"[edge]]


def turn_outcomes(pos: Pos, rules: Rules, last_turn: bool = False):
    """Every way the player's own turn can go: ``(moves, result)`` with result 'out' or the next Pos (with
    ``last_turn`` the actions, which never leave the forest, are not worked out)."""
    me = rules.player
    occupied = set(pos.pieces)
    for cell in range(25):
        rc = divmod(cell, 5)
        ident, face = pos.board[cell]
        if face != pos.start or rc in occupied or rc == pos.last:
            continue
        board = list(pos.board)
        board[cell] = (ident, "M" if face == "S" else "S")
        flipped = replace(pos, board=tuple(board), last=rc)
        choices = {}                    # the distinct effective choices among the revealed characters (MR-8)
        for code in SIDES[flipped.board[cell]][1]:
            where = pos.places[CODES.index(code)]
            if where in DIRS:
                target, goblin = step(flipped.board, pos.pieces[me], where)
                if target is not None and not (goblin and rules.goblins and not pos.clovers[me]):
                    choices.setdefault(where, (code, target, goblin))
            else:
                action = action_at(pos, rules, int(where[1]))
                if last_turn:
                    continue
                ways = list(act(flipped, rules, action))
                if ways:                # MR-24: an action that can be carried out counts as doing something
                    choices.setdefault(where, (code, action, ways))
        if any(where in DIRS for where in choices):      # the mover must move when any choice moves (MR-8)
            choices = {where: choice for where, choice in choices.items() if where in DIRS}
        flip = [f"flip {name_of(rc)}"]
        if not choices:
            yield flip, end_turn(flipped, rules)
            continue
        for where, (code, what, extra) in choices.items():
            head = flip + ([f"choose {code}"] if len(choices) > 1 else [])
            if where in DIRS:
                clovers = list(pos.clovers)
                if extra and rules.goblins:
                    clovers[me] -= 1    # MR-14 / MR-23: one clover back to the supply
                if what == "out":
                    yield head, "out"
                    continue
                pieces = list(pos.pieces)
                pieces[me] = what
                supply = pos.supply + (1 if extra and rules.goblins else 0)
                yield head, end_turn(flipped, rules, pieces=tuple(pieces), clovers=tuple(clovers), supply=supply)
            else:
                for moves, changes in extra:    # a single way to do it is carried out without asking
                    yield head + (moves if len(extra) > 1 else []), end_turn(replace(flipped, **changes), rules)


def skip_others(pos: Pos, rules: Rules) -> Pos:
    """MR-26: the other players' turns change nothing (no flip: they leave no 'previous card')."""
    while pos.to_move != rules.player:
        pos = end_turn(pos, rules, last=None)
    return pos


def bfs_escape(obj: dict, max_turns: int) -> int | None:
    """Fewest own turns for the player to move to leave the forest, by plain breadth-first search."""
    root, rules = from_json(obj)
    frontier = {root}
    for turn in range(1, max_turns + 1):
        nxt = set()
        for pos in frontier:
            for _, result in turn_outcomes(pos, rules, last_turn=turn == max_turns):
                if result == "out":
                    return turn
                nxt.add(skip_others(result, rules))
        frontier = nxt
    return None


def count_sequences(obj: dict, turns: int) -> tuple[int, int | None]:
    """Every move sequence that leaves within ``turns`` own turns: how many, and the fewest turns."""
    root, rules = from_json(obj)
    found = [0, None]

    def walk(pos: Pos, turn: int) -> None:
        for _, result in turn_outcomes(pos, rules, last_turn=turn == turns):
            if result == "out":
                found[0] += 1
                found[1] = turn if found[1] is None else min(found[1], turn)
            elif turn < turns:
                walk(skip_others(result, rules), turn + 1)

    walk(root, 1)
    return found[0], found[1]


def replay(obj: dict, turn_moves: list[list[str]]) -> bool:
    """True when the reported solution is a legal sequence of own turns ending outside the forest."""
    pos, rules = from_json(obj)
    for i, moves in enumerate(turn_moves):
        options = {tuple(m): r for m, r in turn_outcomes(pos, rules)}
        result = options.get(tuple(moves))
        if result is None:
            return False
        if result == "out":
            return i == len(turn_moves) - 1
        pos = skip_others(result, rules)
    return False


def positions(game: MemorinthGame, count: int, seed: int) -> list:
    """Reachable positions (random play from seeded deals), the mover's piece put on a random cell."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.deal(int(rng.integers(2**32)))
        for _ in range(int(rng.integers(0, 12))):
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        if state.is_terminal() or state.phase != "flip":
            continue
        obj = state.to_json()
        cell = int(rng.integers(25))
        me = obj["toMove"]
        obj["pieces"][me] = f"{'abcde'[cell % 5]}{cell // 5 + 1}"
        if "clovers" in obj and rng.random() < 0.5:      # no clover: goblins block (MR-14)
            obj["supply"] += obj["clovers"][me]
            obj["clovers"][me] = 0
        out.append(game.state_from_json(obj))
    return out


@pytest.mark.parametrize("spec,count,depth,seed", [
    (dict(players=1), 30, 4, 1),
    (dict(players=2), 30, 4, 2),
    (dict(players=3), 12, 3, 3),
    (dict(players=1, variant="master"), 12, 3, 4),
    (dict(players=2, variant="master"), 12, 3, 5),
    (dict(players=2, variant="master", action_side="special"), 12, 2, 6),
    (dict(players=3, variant="master", action_side="alternate"), 12, 2, 7),
])
def test_mr26_optimal_escapes_agree_with_an_independent_brute_force(spec, count, depth, seed):
    """MR-26 / MR-7 / MR-8 / MR-12: 'OPTIMAL' and 'NO_ESCAPE' answers equal a breadth-first search over rules
    written again from scratch, and every reported solution plays move by move in that independent model."""
    game = MemorinthGame(**spec)
    found = 0
    for state in positions(game, count, seed):
        obj = state.to_json()
        truth = bfs_escape(obj, depth)
        escape = shortest_escape(state, max_depth=depth, ctx=SearchContext())
        if truth is None:      # none within depth: proven never (NO_ESCAPE, infinite bound) or only not that short
            assert escape.status in ("NO_ESCAPE", "NONE_WITHIN_MAX_DEPTH") and escape.lower_bound > depth, obj
            assert (escape.status == "NO_ESCAPE") == (escape.to_json()["lowerBound"] is None), obj
        else:
            found += 1
            assert escape.status == "OPTIMAL" and escape.turns == truth, (obj, escape.to_json())
            assert replay(obj, escape.turn_moves), (obj, escape.turn_moves)
    assert found >= count // 3


@pytest.mark.parametrize("spec,seed", [(dict(), 7), (dict(variant="master"), 8),
                                       (dict(variant="master", action_side="special"), 9)])
def test_easy_puzzles_are_unique_by_an_independent_count(spec, seed):
    """Puzzles: exactly one move sequence leaves in k own turns and none in fewer, counted on the independent
    rules; the published solution is that sequence."""
    for puzzle in solver.generate(MemorinthGame(**spec), kind="escape", difficulty="easy", seed=seed, count=2):
        obj = puzzle["state"]
        assert count_sequences(obj, puzzle["turns"]) == (1, puzzle["turns"])
        assert replay(obj, puzzle["solution"])
