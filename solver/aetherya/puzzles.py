"""Aetherya puzzles with verified solutions: best-kingdom and legend-race.

best-kingdom: a hand of 16 cards, some of them locked Portals and Dragons
already in place (``fixed``); arrange the rest for the best score. The optimum
is proven by exhaustive enumeration of every distinct arrangement (scored by
the compiled batch scorer), which also proves that the optimal kingdom is
unique up to the board symmetries that keep the fixed cards in place; the
foundation's optimiser (``optimize_kingdom``) proves the same optimum
independently (``crossCheck``). Hands are
drawn so that enumeration stays small (few kinds among the free cards).
Difficulty comes from how far a greedy player (each card in turn on the cell
that scores best now) falls short of the optimum, and from the number of
arrangements the proof had to look at.

legend-race: a solitaire position (your kingdom with its face-down cards known,
the discard top, and the next cards of the draw pile in order): write the named
Legend in the fewest turns. A turn is ``take`` then ``place CELL``, or ``draw``
then ``place CELL`` or ``reveal CELL`` (base rules: a face-up card is never
replaced by one of its kind, Portals and Dragons are locked). Because every turn
ends with a card put on the discard, only the discard's top card can ever be
taken. The fewest turns are found by breadth-first search over all positions.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.aetherya.cards import CARD_TYPES, CELL_NAMES, DRAGON, LEGENDS, LETTERS, PORTAL, card_code, cell_index, legend
from solver.aetherya.scoring import format_kingdom, parse_kingdom
from solver.errors import InvalidInputError, InvalidMoveError, UnsupportedActionError
from solver.kernels import aetherya_score as kernel
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get

DIFFICULTIES = ("easy", "medium", "hard")
META_KEYS = ("id", "game", "kind", "difficulty", "seed", "index")
KINDS = ("best-kingdom", "legend-race")
UNEXPLORED = 10
RACE_TURNS = {"easy": 2, "medium": 3, "hard": 4}
GAP_RANGE = {"easy": (0, 2), "medium": (3, 6), "hard": (7, 999)}
MAX_ARRANGEMENTS = 2_500_000  # the proof's limit
GENERATE_ARRANGEMENTS = 120_000  # hands the generator tries (keeps generation to a fraction of a second each)
CHECK_TIME_MS = 20_000  # the optimiser's time to prove a checked hand too large to enumerate
RACE_SEARCH_TURNS = 4   # how deep ``check`` looks for a shorter legend-race answer (4: about a second)


# ---------------------------------------------------------------------- symmetry
def _symmetries() -> list[list[int]]:
    out = []
    for k in range(8):
        perm = []
        for c in range(16):
            r, col = divmod(c, 4)
            for _ in range(k % 4):
                r, col = col, 3 - r
            if k >= 4:
                col = 3 - col
            perm.append(r * 4 + col)
        out.append(perm)
    return out


SYMMETRIES = _symmetries()


def _scores(boards: np.ndarray) -> np.ndarray:
    out = np.empty((boards.shape[0], 8), dtype=np.int32)
    kernel.score_batch(np.ascontiguousarray(boards, dtype=np.uint8), out)
    return out


# ---------------------------------------------------------------------- best-kingdom: exhaustive proof
def arrangement_count(free_cards: list[int]) -> int:
    """Distinct arrangements of a multiset of cards on as many cells."""
    counts = [free_cards.count(k) for k in set(free_cards)]
    return math.factorial(len(free_cards)) // math.prod(math.factorial(n) for n in counts)


def all_arrangements(free_cells: list[int], free_cards: list[int], fixed: dict[int, int]) -> np.ndarray:
    """Every distinct board (uint8, n x 16) with ``free_cards`` on ``free_cells`` and ``fixed`` in place."""
    m = len(free_cells)
    rows = np.full((1, m), 255, dtype=np.uint8)
    for kind in sorted(set(free_cards)):
        n = free_cards.count(kind)
        empty = np.argsort(rows != 255, axis=1, kind="stable")[:, : int((rows[0] == 255).sum())]
        combos = np.asarray(list(itertools.combinations(range(empty.shape[1]), n)), dtype=np.int64)
        grown = np.repeat(rows, len(combos), axis=0)
        picks = np.take_along_axis(np.repeat(empty, len(combos), axis=0),
                                   np.tile(combos, (rows.shape[0], 1)), axis=1)
        np.put_along_axis(grown, picks, kind, axis=1)
        rows = grown
    boards = np.full((rows.shape[0], 16), UNEXPLORED, dtype=np.uint8)
    boards[:, free_cells] = rows
    for cell, card in fixed.items():
        boards[:, cell] = card
    return boards


@dataclass
class KingdomProof:
    """The proven optimum of a best-kingdom hand."""

    kingdom: str
    score: int
    arrangements: int
    optimal_boards: int
    optimal_orbits: int


def prove_best_kingdom(cards: list[int], fixed: dict[int, int]) -> KingdomProof:
    """Exhaustive optimum of a hand (16 codes) with ``fixed`` cells; counts optimal kingdoms up to symmetry."""
    free_cards = list(cards)
    for card in fixed.values():
        free_cards.remove(card)
    free_cells = [c for c in range(16) if c not in fixed]
    count = arrangement_count(free_cards)
    if count > MAX_ARRANGEMENTS:
        raise InvalidInputError("cards", format_kingdom(cards), f"{count} arrangements: too many to enumerate")
    boards = all_arrangements(free_cells, free_cards, fixed)
    totals = _scores(boards)[:, 6]
    best = int(totals.max())
    optimal = boards[totals == best]
    keeps = [p for p in SYMMETRIES if all(fixed.get(p[c]) == card for c, card in fixed.items())]
    canon = {min(tuple(int(b[p[c]]) for c in range(16)) for p in keeps) for b in optimal}
    first = sorted(tuple(int(x) for x in b) for b in optimal)[0]
    return KingdomProof(format_kingdom(first), best, len(boards), len(optimal), len(canon))


def greedy_kingdom(cards: list[int], fixed: dict[int, int]) -> tuple[str, int]:
    """Each free card in turn (the hand's order) on the empty cell that scores best now (first cell on ties)."""
    board = np.full(16, UNEXPLORED, dtype=np.uint8)
    for cell, card in fixed.items():
        board[cell] = card
    free_cards = list(cards)
    for card in fixed.values():
        free_cards.remove(card)
    for card in free_cards:
        empty = [c for c in range(16) if board[c] == UNEXPLORED]
        trials = np.tile(board, (len(empty), 1))
        trials[np.arange(len(empty)), empty] = card
        totals = _scores(trials)[:, 6]
        board[empty[int(np.argmax(totals))]] = card
    return format_kingdom(board), int(_scores(board[None, :])[0, 6])


def _deal_hand(rng: np.random.Generator, difficulty: str) -> tuple[list[int], dict[int, int]]:
    """16 cards dealt from the 80-card deck; some of them already fixed in place so that the free cards'
    arrangements can be enumerated (fewer fixed cards for harder puzzles)."""
    deck = [k for k in range(CARD_TYPES) for _ in range(8)]
    cards = sorted(int(x) for x in rng.choice(deck, size=16, replace=False))
    n_fixed = {"easy": 8, "medium": 7, "hard": 6}[difficulty]
    for _ in range(50):
        order = [int(i) for i in rng.permutation(16)]
        fixed_cards = [cards[i] for i in order[:n_fixed]]
        free_cards = [cards[i] for i in order[n_fixed:]]
        if arrangement_count(free_cards) <= GENERATE_ARRANGEMENTS:
            cells = [int(c) for c in rng.permutation(16)[:n_fixed]]
            return cards, dict(zip(cells, fixed_cards))
    return cards, {}


def best_kingdom_puzzle(rng: np.random.Generator, difficulty: str, max_tries: int = 400) -> dict[str, Any]:
    """One best-kingdom puzzle drawn from ``rng`` (its own stream; the shared layer adds the id)."""
    lo, hi = GAP_RANGE[difficulty]
    for _ in range(max_tries):
        cards, fixed = _deal_hand(rng, difficulty)
        if not fixed:
            continue
        order = [int(x) for x in rng.permutation(cards)]
        greedy, greedy_score = greedy_kingdom(order, fixed)
        proof = prove_best_kingdom(cards, fixed)
        gap = proof.score - greedy_score
        if proof.optimal_orbits != 1 or not lo <= gap <= hi:
            continue
        cross = _optimizer_cross_check(cards, fixed, proof.score)
        return {
            "kind": "best-kingdom", "difficulty": difficulty,
            "cards": "".join(LETTERS[c] for c in order),
            "fixed": {CELL_NAMES[c]: LETTERS[k] for c, k in sorted(fixed.items())},
            "question": "Place the other cards around the fixed ones for the highest score (no Legends).",
            "solution": {"kingdom": proof.kingdom, "score": proof.score, "optimal": True, "status": "EXHAUSTIVE",
                         "bound": proof.score, "arrangements": proof.arrangements,
                         "optimalKingdoms": proof.optimal_boards, "uniqueUpToSymmetry": True},
            "greedy": {"kingdom": greedy, "score": greedy_score, "gap": gap},
            "crossCheck": cross,
        }
    raise InvalidInputError("--difficulty", difficulty, f"no {difficulty} best-kingdom puzzle found in {max_tries} tries")


def _optimizer_cross_check(cards: list[int], fixed: dict[int, int], score: int) -> dict[str, Any]:
    """The foundation's optimiser must prove the same optimum independently (else the generator stops)."""
    from solver.aetherya.optimize import optimize_kingdom
    locked = ",".join(f"{CELL_NAMES[c]}={LETTERS[k]}" for c, k in sorted(fixed.items()))
    result = optimize_kingdom("".join(LETTERS[c] for c in cards), fixed=locked or None, time_ms=20_000,
                              use_cache=False)
    if result.optimal and result.total != score:
        raise AssertionError(f"optimiser and enumeration disagree on {cards} {fixed}: {result.total} != {score}")
    return {"optimizer": result.status, "score": int(result.total), "agrees": result.total == score}


# ---------------------------------------------------------------------- legend-race
@dataclass(frozen=True)
class RacePosition:
    """A solitaire race position: kingdom (codes), face-down mask, discard top (-1 none), draw index."""

    cards: tuple[int, ...]
    hidden: int
    top: int
    drawn: int


def _visible(cards: tuple[int, ...], hidden: int) -> np.ndarray:
    return np.asarray([UNEXPLORED if hidden >> c & 1 else cards[c] for c in range(16)], dtype=np.uint8)


def _placement_ok(cards: tuple[int, ...], hidden: int, cell: int, card: int) -> bool:
    return bool(hidden >> cell & 1) or (cards[cell] not in (DRAGON, PORTAL) and cards[cell] != card)


def race_moves(pos: RacePosition, draw: list[int]) -> list[tuple[str, RacePosition]]:
    """Every turn from ``pos``: ("take, place b2", next position), ...."""
    out = []
    options = []
    if pos.top >= 0:
        options.append(("take", pos.top, False))
    if pos.drawn < len(draw):
        options.append(("draw", draw[pos.drawn], True))
    for source, card, drawn in options:
        for cell in range(16):
            if _placement_ok(pos.cards, pos.hidden, cell, card):
                cards = list(pos.cards)
                replaced = cards[cell]
                cards[cell] = card
                out.append((f"{source}, place {CELL_NAMES[cell]}",
                            RacePosition(tuple(cards), pos.hidden & ~(1 << cell), replaced,
                                         pos.drawn + (1 if drawn else 0))))
            if drawn and pos.hidden >> cell & 1:
                out.append((f"draw, reveal {CELL_NAMES[cell]}",
                            RacePosition(pos.cards, pos.hidden & ~(1 << cell), card, pos.drawn + 1)))
    return out


def _met(positions: list[RacePosition], number: int) -> np.ndarray:
    if not positions:
        return np.zeros(0, dtype=bool)
    boards = np.stack([_visible(p.cards, p.hidden) for p in positions])
    return (_scores(boards)[:, 7] >> (number - 1) & 1).astype(bool)


def _expand(C: np.ndarray, Hd: np.ndarray, T: np.ndarray, D: np.ndarray, draw: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every turn from every frontier position, vectorised: children arrays, parent index, move code.

    Move code: source * 16 + cell with source 0 take-place, 1 draw-place, 2 draw-reveal.
    """
    n = C.shape[0]
    rows = np.arange(n)
    out_c, out_h, out_t, out_d, out_p, out_m = [], [], [], [], [], []
    has_draw = D < len(draw)
    drawn_card = np.where(has_draw, draw[np.minimum(D, max(len(draw) - 1, 0))] if len(draw) else 0, 255)
    for source in range(3):
        if source == 0:
            ok_src, card = T != 255, T
        else:
            ok_src, card = has_draw, drawn_card
        for cell in range(16):
            old = C[:, cell]
            hid = Hd[:, cell]
            if source == 2:
                ok = ok_src & hid
            else:
                ok = ok_src & (hid | ((old != DRAGON) & (old != PORTAL) & (old != card)))
            idx = rows[ok]
            if not len(idx):
                continue
            c2 = C[idx].copy()
            h2 = Hd[idx].copy()
            h2[:, cell] = False
            if source == 2:
                t2 = card[idx]
            else:
                t2 = old[idx]
                c2[:, cell] = card[idx]
            d2 = D[idx] + (0 if source == 0 else 1)
            out_c.append(c2); out_h.append(h2); out_t.append(t2); out_d.append(d2)
            out_p.append(idx); out_m.append(np.full(len(idx), source * 16 + cell))
    if not out_c:
        empty = np.zeros((0, 16), np.uint8)
        return empty, np.zeros((0, 16), bool), np.zeros(0, np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64), \
            np.zeros(0, np.int64)
    return (np.concatenate(out_c), np.concatenate(out_h), np.concatenate(out_t).astype(np.uint8),
            np.concatenate(out_d), np.concatenate(out_p), np.concatenate(out_m))


def _met_arrays(C: np.ndarray, Hd: np.ndarray, number: int) -> np.ndarray:
    boards = np.where(Hd, UNEXPLORED, C).astype(np.uint8)
    hits = np.zeros(len(boards), dtype=bool)
    for start in range(0, len(boards), 1 << 18):
        chunk = boards[start:start + (1 << 18)]
        hits[start:start + len(chunk)] = (_scores(chunk)[:, 7] >> (number - 1) & 1).astype(bool)
    return hits


def _move_text(code: int) -> str:
    source, cell = divmod(int(code), 16)
    return ("take, place ", "draw, place ", "draw, reveal ")[source] + CELL_NAMES[cell]


def solve_race(start: RacePosition, draw: list[int], number: int, max_turns: int = 4
               ) -> tuple[int | None, list[str], int]:
    """Fewest turns to meet Legend ``number`` (breadth-first over every position, vectorised); returns
    ``(turns, moves, positions generated)``; ``turns`` is ``None`` when more than ``max_turns`` are needed."""
    if _met([start], number)[0]:
        return 0, [], 1
    C = np.asarray([start.cards], dtype=np.uint8)
    Hd = np.asarray([[bool(start.hidden >> c & 1) for c in range(16)]])
    T = np.asarray([255 if start.top < 0 else start.top], dtype=np.uint8)
    D = np.asarray([start.drawn], dtype=np.int64)
    draw_arr = np.asarray(draw, dtype=np.uint8)
    levels: list[tuple[np.ndarray, np.ndarray]] = []
    generated = 1
    for turn in range(1, max_turns + 1):
        C, Hd, T, D, parent, move = _expand(C, Hd, T, D, draw_arr)
        generated += len(C)
        hits = _met_arrays(C, Hd, number)
        if hits.any():
            i = int(np.argmax(hits))
            moves = [_move_text(move[i])]
            p = int(parent[i])
            for par, mv in reversed(levels):
                moves.append(_move_text(mv[p]))
                p = int(par[p])
            return turn, moves[::-1], generated
        if turn == max_turns or not len(C):
            break
        key = np.concatenate([C, Hd.astype(np.uint8), T[:, None], D[:, None].astype(np.uint8)], axis=1)
        _, first = np.unique(np.ascontiguousarray(key).view(np.dtype((np.void, key.shape[1]))).ravel(),
                             return_index=True)
        first.sort()
        C, Hd, T, D = C[first], Hd[first], T[first], D[first]
        levels.append((parent[first], move[first]))
    return None, [], generated


def _race_position(rng: np.random.Generator) -> tuple[RacePosition, list[int], list[int]]:
    """A mid-game kingdom of a seeded 2-player greedy game, its pile order drawn at random."""
    from solver.aetherya.game import AetheryaGame
    from solver.aetherya.playout import greedy_action, sample_chance
    game = AetheryaGame()
    state = game.new_initial_state(int(rng.integers(2**31)))
    turns = int(rng.integers(2, 12))
    while not state.is_terminal() and state.turn < turns:
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
    while state.phase != "choose" and not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
    seat = state.to_move
    pile = [k for k in range(CARD_TYPES) for _ in range(state.pile[k])]
    draw = [int(x) for x in rng.permutation(pile)][:10]
    pos = RacePosition(tuple(state.kingdoms[seat]), state.hidden[seat],
                       state.discards[0][-1] if state.discards[0] else -1, 0)
    return pos, draw, list(state.discards[0])


def legend_race_puzzle(rng: np.random.Generator, difficulty: str, max_tries: int = 300) -> dict[str, Any]:
    """One legend-race puzzle drawn from ``rng`` (its own stream; the shared layer adds the id)."""
    target = RACE_TURNS[difficulty]
    for _ in range(max_tries):
        pos, draw, discard = _race_position(rng)
        if pos.hidden == 0:
            continue
        unmet = [leg.number for leg in LEGENDS if not _met([pos], leg.number)[0]]
        number = int(rng.choice(unmet))
        turns, moves, explored = solve_race(pos, draw, number, max_turns=target)
        if turns != target:
            continue
        kingdom = "".join(LETTERS[c].lower() if pos.hidden >> i & 1 else LETTERS[c] for i, c in enumerate(pos.cards))
        return {
            "kind": "legend-race", "difficulty": difficulty,
            "legend": LEGENDS[number - 1].slug,
            "kingdom": "/".join(kingdom[i:i + 4] for i in range(0, 16, 4)),
            "discard": "".join(LETTERS[c] for c in discard), "draw": "".join(LETTERS[c] for c in draw),
            "question": (f"Write the Legend '{LEGENDS[number - 1].slug}' in as few turns as possible "
                         "(solitaire: only your turns; face-down cards shown in lower case; the draw pile "
                         "listed top first)."),
            "solution": {"turns": turns, "moves": moves, "optimal": True, "status": "EXHAUSTIVE",
                         "positionsSearched": explored},
        }
    raise InvalidInputError("--difficulty", difficulty, f"no {difficulty} legend-race puzzle found in {max_tries} tries")


# ---------------------------------------------------------------------- public entry points
def generate(kind: str, count: int, seed: int, difficulty: str, start: int = 0) -> list[dict[str, Any]]:
    """Puzzles ``start .. start+count-1`` of the run ``(kind, difficulty, seed)``, each from its own stream
    (``solver.puzzles.generate``: the ids regenerate them)."""
    from solver.aetherya.game import AetheryaGame
    from solver.puzzles import generate as shared_generate
    as_int(count, "count", 1)
    as_int(seed, "seed", 0, 2**63 - 1)
    return list(shared_generate(AetheryaGame(), kind, difficulty, seed=seed, start=start, count=count))


def _parse_fixed(obj: Any, field: str) -> dict[int, int]:
    fixed = {}
    for key, value in as_object(obj, field).items():
        code = card_code(as_str(value, f"{field}.{key}"), f"{field}.{key}")
        if code >= CARD_TYPES:
            raise InvalidInputError(f"{field}.{key}", value, "a fixed cell holds a card, not '?'")
        fixed[cell_index(key, f"{field}.{key}")] = code
    return fixed


def check(puzzle: Any, answer: Any) -> dict[str, Any]:
    """Verify ``answer`` against ``puzzle`` (both parsed JSON or strings); returns a verdict object.

    Nothing the puzzle file says about its solution is trusted: the optimum is proven again from the
    puzzle's own cards (and ``solution`` may be left out). A well-formed answer that breaks the puzzle's
    rules (other cards, a moved fixed card, a turn that is not legal there) is a verdict, ``correct``
    false with the reason; only input that cannot be read raises.
    """
    p = as_object(puzzle, "PUZZLE")
    kind = as_str(get(p, "kind", "PUZZLE"), "PUZZLE.kind")
    if kind == "best-kingdom":
        return _check_kingdom(p, answer)
    if kind == "legend-race":
        return _check_race(p, answer)
    raise InvalidInputError("PUZZLE.kind", kind, f"expected one of {', '.join(KINDS)}")


def _recorded(p: dict[str, Any], key: str, lo: int, hi: int) -> int | None:
    """``solution.<key>`` as the puzzle file records it (None when there is no solution)."""
    if p.get("solution") is None:
        return None
    solution = as_object(p["solution"], "PUZZLE.solution")
    if key not in solution:
        return None
    return as_int(solution[key], f"PUZZLE.solution.{key}", lo, hi)


def _verdict(kind: str, correct: bool, message: str, recorded: int | None, proven: int | None,
             **facts: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "correct": correct, **facts, "message": message}
    if recorded is not None and proven is not None and recorded != proven:
        out["recordedOptimum"] = recorded
        out["puzzleError"] = f"the puzzle records {recorded} but the proven optimum is {proven}"
    return out


def prove_kingdom_optimum(cards: list[int], fixed: dict[int, int]) -> tuple[int, str]:
    """The best board total of a hand with ``fixed`` cells, proven: ``(score, how)``. Exhaustive enumeration
    when the free cards have at most ``MAX_ARRANGEMENTS`` arrangements, else the foundation optimiser."""
    free_cards = list(cards)
    for card in fixed.values():
        free_cards.remove(card)
    if arrangement_count(free_cards) <= MAX_ARRANGEMENTS:
        return prove_best_kingdom(cards, fixed).score, "EXHAUSTIVE"
    from solver.aetherya.optimize import optimize_kingdom
    locked = ",".join(f"{CELL_NAMES[c]}={LETTERS[k]}" for c, k in sorted(fixed.items()))
    result = optimize_kingdom("".join(LETTERS[c] for c in cards), fixed=locked or None, time_ms=CHECK_TIME_MS)
    if not result.optimal:
        raise UnsupportedActionError("PUZZLE.cards", "".join(LETTERS[c] for c in cards),
                                     f"the optimum could not be proven within {CHECK_TIME_MS // 1000} s")
    return int(result.total), result.status


def _check_kingdom(p: dict[str, Any], answer: Any) -> dict[str, Any]:
    check_keys(p, META_KEYS + ("cards", "fixed", "question", "solution", "greedy", "crossCheck"), "PUZZLE")
    cards_text = as_str(get(p, "cards", "PUZZLE"), "PUZZLE.cards")
    if len(cards_text) != 16:
        raise InvalidInputError("PUZZLE.cards", cards_text, "expected 16 card letters")
    cards = sorted(int(x) for x in parse_kingdom("/".join(cards_text[i:i + 4] for i in range(0, 16, 4)), "PUZZLE.cards"))
    if any(c >= CARD_TYPES for c in cards):
        raise InvalidInputError("PUZZLE.cards", cards_text, "a hand holds cards, not '?'")
    fixed = _parse_fixed(p.get("fixed", {}), "PUZZLE.fixed")
    free = list(cards)
    for cell, card in fixed.items():
        if card not in free:
            raise InvalidInputError(f"PUZZLE.fixed.{CELL_NAMES[cell]}", LETTERS[card], "the fixed cards must be "
                                    "among the puzzle's 16 cards")
        free.remove(card)
    recorded = _recorded(p, "score", -10_000, 10_000)
    if isinstance(answer, dict):
        answer = get(answer, "kingdom", "ANSWER")
    board = parse_kingdom(answer, "ANSWER")
    optimum, proof = prove_kingdom_optimum(cards, fixed)
    used = sorted(int(x) for x in board)
    if used != cards:
        return _verdict("best-kingdom", False, f"the kingdom uses other cards than the puzzle's 16 "
                        f"({_card_difference(used, cards)})", recorded, optimum, score=None, optimum=optimum,
                        proof=proof)
    for cell, card in sorted(fixed.items()):
        if board[cell] != card:
            return _verdict("best-kingdom", False, f"the fixed card {LETTERS[card]} must stay on {CELL_NAMES[cell]} "
                            f"(the kingdom has {LETTERS[board[cell]]} there)", recorded, optimum, score=None,
                            optimum=optimum, proof=proof)
    score = int(_scores(board[None, :])[0, 6])
    return _verdict("best-kingdom", score == optimum, "optimal" if score == optimum else f"{optimum - score} short",
                    recorded, optimum, score=score, optimum=optimum, proof=proof)


def _card_difference(used: list[int], cards: list[int]) -> str:
    """What a kingdom has too many and too few of, e.g. ``2 P too many; 1 F, 1 M missing``."""
    extra = [f"{used.count(k) - cards.count(k)} {LETTERS[k]}" for k in range(len(LETTERS)) if used.count(k) > cards.count(k)]
    short = [f"{cards.count(k) - used.count(k)} {LETTERS[k]}" for k in range(len(LETTERS)) if cards.count(k) > used.count(k)]
    return "; ".join(part for part in (", ".join(extra) + " too many" if extra else "",
                                        ", ".join(short) + " missing" if short else "") if part)


_TURN = re.compile(r"^(take|draw)\s*,\s*(place|reveal)\s+([a-d][1-4])$")


def _parse_race_moves(answer: Any) -> list[tuple[str, str, int]]:
    """The answer's turns as ``(source, action, cell)``; case and spaces do not matter. A turn that is not
    of the form ``take|draw, place|reveal CELL`` cannot be read (an error naming it)."""
    if isinstance(answer, dict):
        answer = get(answer, "moves", "ANSWER")
    if isinstance(answer, str):
        items = [m.strip() for m in answer.split(";") if m.strip()]
        fields = [f"ANSWER[{i}]" for i in range(len(items))]
    else:
        items = [as_str(m, f"ANSWER[{i}]") for i, m in enumerate(as_list(answer, "ANSWER"))]
        fields = [f"ANSWER[{i}]" for i in range(len(items))]
    out = []
    for field, item in zip(fields, items):
        match = _TURN.match(" ".join(item.lower().split()))
        if not match:
            raise InvalidMoveError(field, item, "expected a turn 'take, place CELL', 'draw, place CELL' or "
                                                "'draw, reveal CELL' (CELL a1 to d4)")
        out.append((match.group(1), match.group(2), cell_index(match.group(3), field)))
    return out


def _turn_text(source: str, action: str, cell: int) -> str:
    return f"{source}, {action} {CELL_NAMES[cell]}"


def _why_not_legal(pos: RacePosition, draw: list[int], source: str, action: str, cell: int) -> str:
    """Why a well-formed turn is not legal in ``pos`` (the base rules as ``race_moves`` applies them)."""
    if source == "take" and pos.top < 0:
        return "the discard is empty: there is nothing to take"
    if source == "draw" and pos.drawn >= len(draw):
        return f"the draw pile the puzzle gives ({len(draw)} cards) is used up"
    if action == "reveal" and source == "take":
        return "only a drawn card may go to the discard to reveal a face-down card"
    if action == "reveal":
        return f"{CELL_NAMES[cell]} is face up: only a face-down card can be revealed"
    card = pos.top if source == "take" else draw[pos.drawn]
    shown = pos.cards[cell]
    if shown in (DRAGON, PORTAL):
        return f"{CELL_NAMES[cell]} holds a locked {'Dragon' if shown == DRAGON else 'Portal'}"
    return f"{CELL_NAMES[cell]} holds a face-up {LETTERS[shown]}: a card never replaces one of its kind (the card is {LETTERS[card]})"


def _check_race(p: dict[str, Any], answer: Any) -> dict[str, Any]:
    check_keys(p, META_KEYS + ("legend", "kingdom", "discard", "draw", "question", "solution"), "PUZZLE")
    number = legend(get(p, "legend", "PUZZLE"), "PUZZLE.legend").number
    text = as_str(get(p, "kingdom", "PUZZLE"), "PUZZLE.kingdom")
    codes = parse_kingdom(text, "PUZZLE.kingdom")
    hidden = sum(1 << i for i, ch in enumerate(text.replace("/", "")) if ch.islower())
    if "?" in text:
        raise InvalidInputError("PUZZLE.kingdom", text, "a race position shows every face-down card (lower case)")
    discard = as_str(p.get("discard", ""), "PUZZLE.discard")
    if any(ch.upper() not in LETTERS[:CARD_TYPES] for ch in discard):
        raise InvalidInputError("PUZZLE.discard", discard, "expected card letters")
    draw_text = as_str(p.get("draw", ""), "PUZZLE.draw")
    draw = [LETTERS.index(ch.upper()) for ch in draw_text if ch.upper() in LETTERS[:CARD_TYPES]]
    if len(draw) != len(draw_text):
        raise InvalidInputError("PUZZLE.draw", draw_text, "expected card letters")
    top = LETTERS.index(discard[-1].upper()) if discard else -1
    recorded = _recorded(p, "turns", 0, 20)
    start = RacePosition(tuple(int(x) for x in codes), hidden, top, 0)
    moves = _parse_race_moves(answer)
    pos = start
    for i, (source, action, cell) in enumerate(moves):
        options = dict(race_moves(pos, draw))
        turn = _turn_text(source, action, cell)
        if turn not in options:
            optimum = _race_optimum(start, draw, number, RACE_SEARCH_TURNS)
            return _verdict("legend-race", False, f"turn {i + 1} '{turn}' is not legal there: "
                            f"{_why_not_legal(pos, draw, source, action, cell)}", recorded, optimum,
                            turns=len(moves), optimum=optimum, legendWritten=False)
        pos = options[turn]
    met = bool(_met([pos], number)[0])
    if not met:
        optimum = _race_optimum(start, draw, number, RACE_SEARCH_TURNS)
        return _verdict("legend-race", False, "the Legend is not met", recorded, optimum, turns=len(moves),
                        optimum=optimum, legendWritten=False)
    # the answer meets the Legend in len(moves) turns: the optimum is proven by looking for a shorter way
    depth = min(len(moves) - 1, RACE_SEARCH_TURNS)
    shorter = _race_optimum(start, draw, number, depth) if depth >= 0 else None
    if shorter is not None:
        return _verdict("legend-race", False, f"{len(moves) - shorter} turn(s) longer than the optimum", recorded,
                        shorter, turns=len(moves), optimum=shorter, legendWritten=True)
    if depth < len(moves) - 1:
        return _verdict("legend-race", False, f"the Legend is met in {len(moves)} turns, but no search to "
                        f"{len(moves) - 1} turns can prove that none is shorter (the check searches "
                        f"{RACE_SEARCH_TURNS})", recorded, None, turns=len(moves), optimum=None, legendWritten=True)
    return _verdict("legend-race", True, "optimal", recorded, len(moves), turns=len(moves), optimum=len(moves),
                    legendWritten=True)


def _race_optimum(start: RacePosition, draw: list[int], number: int, max_turns: int) -> int | None:
    """The fewest turns to meet the Legend, searched up to ``max_turns`` (None: more are needed)."""
    if max_turns < 0:
        return None
    return solve_race(start, draw, number, max_turns=max_turns)[0] if max_turns else \
        (0 if _met([start], number)[0] else None)


def load_json_arg(value: Any, field: str) -> Any:
    """A puzzle or answer from the command line: JSON text (already parsed) or a plain string."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith(("{", "[")):
            try:
                return json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise InvalidInputError(field, stripped[:80], f"malformed JSON ({exc.msg})") from None
    return value


# ---------------------------------------------------------------------- text for a person
def describe_puzzle(puzzle: dict[str, Any]) -> str:
    """The puzzle as text: the question and the position (no solution)."""
    lines = [f"{puzzle.get('kind')} ({puzzle.get('difficulty')}): {puzzle.get('question', '')}"]
    if puzzle.get("kind") == "best-kingdom":
        lines.append(f"  cards: {puzzle['cards']}")
        fixed = puzzle.get("fixed", {})
        lines.append("  fixed: " + (", ".join(f"{cell}={card}" for cell, card in fixed.items()) or "none"))
        grid = ["." if CELL_NAMES[c] not in fixed else fixed[CELL_NAMES[c]] for c in range(16)]
        for r in range(4):
            lines.append("    " + " ".join(grid[r * 4:r * 4 + 4]))
    else:
        lines.append(f"  Legend: {puzzle['legend']}")
        for r, row in enumerate(puzzle["kingdom"].split("/")):
            lines.append(f"    {r + 1} " + " ".join(ch.upper() + "'" if ch.islower() else ch + " " for ch in row))
        lines.append("    (X' = face down, its kind given)")
        lines.append(f"  discard (bottom to top): {puzzle.get('discard') or '-'}; draw pile (top first): "
                     f"{puzzle.get('draw') or '-'}")
    return "\n".join(lines) + "\n"


def proven_answer(verdict: dict[str, Any]) -> str:
    """The answer line of a verdict whose puzzle file records no solution, or a wrong one: what ``check``
    proved."""
    optimum = verdict.get("optimum")
    if verdict.get("kind") == "best-kingdom":
        return f"score {optimum}, proven optimal ({verdict.get('proof')})"
    if optimum is None:
        return f"not proven: the check searches up to {RACE_SEARCH_TURNS} turns"
    return f"{optimum} turns, proven fewest"


def puzzle_answer(puzzle: dict[str, Any]) -> str:
    """The proven answer as one line of text."""
    solution = puzzle.get("solution") or {}
    if puzzle.get("kind") == "best-kingdom":
        return f"{solution.get('kingdom')} (score {solution.get('score')}, proven optimal)"
    moves = "; ".join(solution.get("moves", []))
    return f"{moves} ({solution.get('turns')} turns, proven fewest)"
