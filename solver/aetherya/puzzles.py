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
Legend in the fewest turns (the rules and the breadth-first search are in
``race.py``).

An answer is checked by proving the optimum again from the puzzle's own cards;
it may be given as the moves played from the puzzle's position
(``puzzle_play.py``), which are replayed there first.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from solver.aetherya.cards import (CARD_TYPES, CELL_NAMES, DRAGON, LEGENDS, LETTERS, PORTAL, UNEXPLORED, card_code,
                                   cell_index, legend)
from solver.aetherya.playout import greedy_action, sample_chance
from solver.aetherya.puzzle_play import (DRAW, EMPTY, KINDS, TAKE, PuzzlePosition, is_move_text, kingdom_position,
                                         race_position)
from solver.aetherya.race import RacePosition, legend_met, race_moves, solve_race
from solver.aetherya.scoring import format_kingdom, parse_kingdom, score_rows
from solver.aetherya.solve import SYMMETRIES, optimize_kingdom
from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError, UnsupportedActionError
from solver.game import Game
from solver.search import Limits, SearchContext, Stopped
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get

T = TypeVar("T")
DIFFICULTIES = ("easy", "medium", "hard")
META_KEYS = ("id", "game", "kind", "difficulty", "seed", "index")
RACE_TURNS = {"easy": 2, "medium": 3, "hard": 4}
GAP_RANGE = {"easy": (0, 2), "medium": (3, 6), "hard": (7, 999)}
MAX_ARRANGEMENTS = 2_500_000  # the proof's limit
CHUNK_ARRANGEMENTS = 50_000  # boards a proof scores between two looks at its limits (some 30 ms)
GENERATE_ARRANGEMENTS = 120_000  # hands the generator tries (keeps generation to a fraction of a second each)
CHECK_TIME_MS = 20_000  # the optimiser's time to prove a checked hand too large to enumerate
CROSS_CHECK_MS = 20_000  # the optimiser's time to prove a generated puzzle's optimum independently
RACE_SEARCH_TURNS = 4   # how deep ``check`` looks for a shorter legend-race answer (4: about a second)


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


def arrangement_chunks(free_cells: list[int], free_cards: list[int], fixed: dict[int, int],
                       size: int = CHUNK_ARRANGEMENTS) -> Iterator[np.ndarray]:
    """Every distinct board of :func:`all_arrangements`, in blocks of at most ``size`` boards where the hand allows
    (each placement of the smallest card kind in turn, split further while a block is too big), so that a proof
    looks at its limits between blocks."""
    kinds = sorted(set(free_cards))
    if len(kinds) <= 1 or arrangement_count(free_cards) <= size:
        yield all_arrangements(free_cells, free_cards, fixed)
        return
    kind = kinds[0]
    rest = [card for card in free_cards if card != kind]
    for combo in itertools.combinations(range(len(free_cells)), free_cards.count(kind)):
        placed = {**fixed, **{free_cells[i]: kind for i in combo}}
        yield from arrangement_chunks([cell for i, cell in enumerate(free_cells) if i not in combo], rest, placed,
                                      size)


def prove_best_kingdom(cards: list[int], fixed: dict[int, int], ctx: SearchContext | None = None) -> KingdomProof:
    """Exhaustive optimum of a hand (16 codes) with ``fixed`` cells; counts optimal kingdoms up to symmetry.
    ``ctx`` (its terminate and time limit) is polled between blocks of boards: :class:`~solver.search.Stopped`."""
    free_cards = list(cards)
    for card in fixed.values():
        free_cards.remove(card)
    free_cells = [c for c in range(16) if c not in fixed]
    count = arrangement_count(free_cards)
    if count > MAX_ARRANGEMENTS:
        raise InvalidInputError("cards", format_kingdom(cards), f"{count} arrangements: too many to enumerate")
    best, optimal, boards = None, [], 0
    for block in arrangement_chunks(free_cells, free_cards, fixed):
        if ctx is not None:
            _poll(ctx, "best-kingdom proof")
        totals = score_rows(block)[:, 6]
        top = int(totals.max())
        if best is None or top > best:
            best, optimal = top, []
        if top == best:
            optimal.append(block[totals == best])
        boards += len(block)
    assert best is not None
    keeps = [p for p in SYMMETRIES if all(fixed.get(p[c]) == card for c, card in fixed.items())]
    found = np.concatenate(optimal)
    canon = {min(tuple(int(b[p[c]]) for c in range(16)) for p in keeps) for b in found}
    first = sorted(tuple(int(x) for x in b) for b in found)[0]
    return KingdomProof(format_kingdom(first), best, boards, len(found), len(canon))


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
        totals = score_rows(trials)[:, 6]
        board[empty[int(np.argmax(totals))]] = card
    return format_kingdom(board), int(score_rows(board[None, :])[0, 6])


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


def best_kingdom_puzzle(rng: np.random.Generator, difficulty: str, ctx: SearchContext, max_tries: int = 400
                        ) -> dict[str, Any]:
    """One best-kingdom puzzle drawn from ``rng`` (its own stream; the shared layer adds the id); ``ctx`` is
    polled between tries (:class:`~solver.search.Stopped`) and stops the optimiser's cross-check."""
    lo, hi = GAP_RANGE[difficulty]
    for _ in range(max_tries):
        _poll(ctx)
        cards, fixed = _deal_hand(rng, difficulty)
        if not fixed:
            continue
        order = [int(x) for x in rng.permutation(cards)]
        greedy, greedy_score = greedy_kingdom(order, fixed)
        proof = prove_best_kingdom(cards, fixed)
        gap = proof.score - greedy_score
        if proof.optimal_orbits != 1 or not lo <= gap <= hi:
            continue
        _poll(ctx)
        cross = _optimizer_cross_check(cards, fixed, proof.score, ctx)
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


def _optimizer_cross_check(cards: list[int], fixed: dict[int, int], score: int, ctx: SearchContext
                           ) -> dict[str, Any]:
    """The foundation's optimiser must prove the same optimum independently (else the generator stops); it
    searches for ``CROSS_CHECK_MS`` at most, and stops with ``ctx`` (its terminate and time limit)."""
    locked = ",".join(f"{CELL_NAMES[c]}={LETTERS[k]}" for c, k in sorted(fixed.items()))
    left = ctx.remaining()
    time_ms = CROSS_CHECK_MS if left is None else max(1, min(CROSS_CHECK_MS, math.ceil(left * 1000)))
    search = SearchContext(limits=Limits(time_ms=time_ms), cancel=ctx.cancel)
    result = optimize_kingdom("".join(LETTERS[c] for c in cards), fixed=locked or None, ctx=search,
                              use_cache=False)
    _poll(ctx)  # a cross-check cut by the limits is no proof
    if result.optimal and result.total != score:
        raise AssertionError(f"optimiser and enumeration disagree on {cards} {fixed}: {result.total} != {score}")
    return {"optimizer": result.status, "score": int(result.total), "agrees": result.total == score}


# ---------------------------------------------------------------------- legend-race
def _race_position(game: Game, rng: np.random.Generator) -> tuple[RacePosition, list[int], list[int]]:
    """A mid-game kingdom of a seeded greedy game of the default rules (2-player base, whatever ``game`` is
    played with), its pile order drawn at random."""
    state = type(game)().new_initial_state(int(rng.integers(2**31)))
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


def legend_race_puzzle(game: Game, rng: np.random.Generator, difficulty: str, ctx: SearchContext,
                       max_tries: int = 300) -> dict[str, Any]:
    """One legend-race puzzle drawn from ``rng`` (its own stream; the shared layer adds the id); ``ctx`` is
    polled between tries and between the search's turns (:class:`~solver.search.Stopped`)."""
    target = RACE_TURNS[difficulty]
    for _ in range(max_tries):
        _poll(ctx)
        pos, draw, discard = _race_position(game, rng)
        if pos.hidden == 0:
            continue
        unmet = [leg.number for leg in LEGENDS if not legend_met([pos], leg.number)[0]]
        number = int(rng.choice(unmet))
        turns, moves, explored = solve_race(pos, draw, number, max_turns=target, ctx=ctx)
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


def _poll(ctx: SearchContext, what: str = "puzzle generation") -> None:
    """:class:`~solver.search.Stopped` once ``ctx`` says stop (its terminate or time limit)."""
    if ctx.should_stop():
        raise Stopped(what)


# ---------------------------------------------------------------------- the shared layer's entry points
def generate(game: Game, kind: str, difficulty: str, rng: np.random.Generator, ctx: SearchContext
             ) -> dict[str, Any]:
    """One puzzle of ``kind`` drawn from ``rng`` (the puzzle without its id); stops with ``Stopped`` when ``ctx``
    says (its terminate or time limit)."""
    if kind == "best-kingdom":
        return best_kingdom_puzzle(rng, difficulty, ctx)
    return legend_race_puzzle(game, rng, difficulty, ctx)


def check(game: Game, puzzle: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
    """The verdict on ``answer``: a kingdom or turns (``docs/formats/aetherya.md``), or the moves played from
    :func:`position` as a list (replayed there, then judged the same way), proven again from the puzzle's own
    cards (:func:`check_answer`): the file's ``solution`` is never trusted and may be left out. The proof stops
    with :class:`~solver.search.Stopped` when ``ctx`` says (its terminate or time limit)."""
    verdict = read_move_answer(game, puzzle, answer, ctx)
    if verdict is None:
        verdict = check_answer(puzzle, answer, ctx)
    if "optimum" in verdict and ("puzzleError" in verdict or not puzzle.get("solution")):
        verdict["solution"] = proven_answer(verdict)       # the file's own solution is wrong or missing
    return verdict


def position(game: Game, puzzle: dict[str, Any]) -> PuzzlePosition:
    """The position a player answers ``puzzle`` from by moves: a best-kingdom puzzle's fixed cards and hand
    (``pick CARD``, ``place CELL``, ``lift CELL``), a legend-race puzzle's solitaire position (``take``/``draw``
    then ``place CELL``/``reveal CELL``); built from the puzzle itself, never its solution (``puzzle_play.py``)."""
    return _by_kind(puzzle, "puzzle", lambda p: kingdom_position(game, p), lambda p: race_position(game, p))


def _by_kind(puzzle: Any, field: str, best_kingdom: Callable[[dict[str, Any]], T],
             legend_race: Callable[[dict[str, Any]], T]) -> T:
    """``best_kingdom(puzzle)`` or ``legend_race(puzzle)`` by the puzzle's ``kind`` (errors name ``field``)."""
    p = as_object(puzzle, field)
    kind = as_str(get(p, "kind", field), f"{field}.kind")
    if kind == "best-kingdom":
        return best_kingdom(p)
    if kind == "legend-race":
        return legend_race(p)
    raise InvalidInputError(f"{field}.kind", kind, f"expected one of {', '.join(KINDS)}")


def _moves_of(answer: Any) -> list[str] | None:
    """The answer as moves played from the puzzle's position, or None when it is in another form (a kingdom,
    or legend-race turns such as 'take, place b2')."""
    if isinstance(answer, dict) and set(answer) == {"moves"}:
        answer = answer["moves"]
    if not isinstance(answer, list):
        return None
    for i, item in enumerate(answer):
        if not isinstance(item, str):
            raise InvalidMoveError(f"ANSWER[{i}]", item, "expected a move string")
    if answer and not all(is_move_text(item) for item in answer):
        return None
    return list(answer)


def read_move_answer(game: Game, puzzle: dict[str, Any], answer: Any, ctx: SearchContext | None = None
                     ) -> dict[str, Any] | None:
    """The verdict on an answer given as the moves played from the puzzle's position (None: another form).

    The moves are replayed on :func:`position`; a move that is not legal where it is played, or an answer that
    stops short (cards still in hand, a turn begun and not finished), is a verdict with the reason. Otherwise
    the kingdom (best-kingdom) or the turns (legend-race) they make are judged by :func:`check_answer`, which
    proves the optimum again from the puzzle's cards (under ``ctx``).
    """
    moves = _moves_of(answer)
    if moves is None:
        return None
    played = position(game, puzzle)
    kind = played.kind
    turns: list[str] = []
    pending = ""
    for i, move in enumerate(moves):
        try:
            action = played.parse_move(move, f"ANSWER[{i}]")
        except IllegalMoveError as exc:
            return {"kind": kind, "correct": False, "readAs": "moves",
                    "message": f"move {i + 1} '{move}' is not legal there: {exc.problem}"}
        text = played.action_to_string(action)
        if kind == "legend-race":
            if action in (TAKE, DRAW):
                pending = text
            else:
                turns.append(f"{pending}, {text}")
                pending = ""
        played.apply_action(action)
    if kind == "best-kingdom":
        if not played.is_terminal():
            left = sum(played.hand) + (played.held != EMPTY)
            return {"kind": kind, "correct": False, "readAs": "moves", "placed": 16 - left,
                    "message": f"{left} card(s) still to place: the answer is the whole kingdom"}
        verdict = check_answer(puzzle, played.kingdom(), ctx)
        return {**verdict, "readAs": "moves", "kingdom": played.kingdom()}
    if pending:
        return {"kind": kind, "correct": False, "readAs": "moves", "turns": len(turns),
                "message": f"the last turn is not finished: '{pending}' needs 'place CELL'"
                           + (" or 'reveal CELL'" if pending == "draw" else "")}
    verdict = check_answer(puzzle, turns, ctx)
    return {**verdict, "readAs": "moves"}


def _parse_fixed(obj: Any, field: str) -> dict[int, int]:
    fixed = {}
    for key, value in as_object(obj, field).items():
        code = card_code(as_str(value, f"{field}.{key}"), f"{field}.{key}")
        if code >= CARD_TYPES:
            raise InvalidInputError(f"{field}.{key}", value, "a fixed cell holds a card, not '?'")
        fixed[cell_index(key, f"{field}.{key}")] = code
    return fixed


def check_answer(puzzle: Any, answer: Any, ctx: SearchContext | None = None) -> dict[str, Any]:
    """Verify ``answer`` (a kingdom, or legend-race turns) against ``puzzle``; returns a verdict object.

    Nothing the puzzle file says about its solution is trusted: the optimum is proven again from the
    puzzle's own cards (and ``solution`` may be left out). A well-formed answer that breaks the puzzle's
    rules (other cards, a moved fixed card, a turn that is not legal there) is a verdict, ``correct``
    false with the reason; only input that cannot be read raises. ``ctx`` (its terminate and time limit) stops
    the proof: :class:`~solver.search.Stopped`.
    """
    ctx = ctx or SearchContext()
    return _by_kind(puzzle, "PUZZLE", lambda p: _check_kingdom(p, answer, ctx), lambda p: _check_race(p, answer, ctx))


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


def prove_kingdom_optimum(cards: list[int], fixed: dict[int, int], ctx: SearchContext | None = None
                          ) -> tuple[int, str]:
    """The best board total of a hand with ``fixed`` cells, proven: ``(score, how)``. Exhaustive enumeration
    when the free cards have at most ``MAX_ARRANGEMENTS`` arrangements, else the foundation optimiser (for
    ``CHECK_TIME_MS`` at most). ``ctx`` (its terminate and time limit) stops either: :class:`~solver.search.Stopped`."""
    ctx = ctx or SearchContext()
    free_cards = list(cards)
    for card in fixed.values():
        free_cards.remove(card)
    if arrangement_count(free_cards) <= MAX_ARRANGEMENTS:
        return prove_best_kingdom(cards, fixed, ctx).score, "EXHAUSTIVE"
    locked = ",".join(f"{CELL_NAMES[c]}={LETTERS[k]}" for c, k in sorted(fixed.items()))
    left = ctx.remaining()
    time_ms = CHECK_TIME_MS if left is None else max(1, min(CHECK_TIME_MS, math.ceil(left * 1000)))
    search = SearchContext(limits=Limits(time_ms=time_ms), cancel=ctx.cancel)
    result = optimize_kingdom("".join(LETTERS[c] for c in cards), fixed=locked or None, ctx=search)
    if not result.optimal:
        _poll(ctx, "best-kingdom proof")  # cut by the query's limits: no verdict
        raise UnsupportedActionError("PUZZLE.cards", "".join(LETTERS[c] for c in cards),
                                     f"the optimum could not be proven within {CHECK_TIME_MS // 1000} s")
    return int(result.total), result.status


def _check_kingdom(p: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
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
    optimum, proof = prove_kingdom_optimum(cards, fixed, ctx)
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
    score = int(score_rows(board[None, :])[0, 6])
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


def _check_race(p: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
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
            optimum = _race_optimum(start, draw, number, RACE_SEARCH_TURNS, ctx)
            return _verdict("legend-race", False, f"turn {i + 1} '{turn}' is not legal there: "
                            f"{_why_not_legal(pos, draw, source, action, cell)}", recorded, optimum,
                            turns=len(moves), optimum=optimum, legendWritten=False)
        pos = options[turn]
    met = bool(legend_met([pos], number)[0])
    if not met:
        optimum = _race_optimum(start, draw, number, RACE_SEARCH_TURNS, ctx)
        return _verdict("legend-race", False, "the Legend is not met", recorded, optimum, turns=len(moves),
                        optimum=optimum, legendWritten=False)
    # the answer meets the Legend in len(moves) turns: the optimum is proven by looking for a shorter way
    depth = min(len(moves) - 1, RACE_SEARCH_TURNS)
    shorter = _race_optimum(start, draw, number, depth, ctx) if depth >= 0 else None
    if shorter is not None:
        return _verdict("legend-race", False, f"{len(moves) - shorter} turn(s) longer than the optimum", recorded,
                        shorter, turns=len(moves), optimum=shorter, legendWritten=True)
    if depth < len(moves) - 1:
        return _verdict("legend-race", False, f"the Legend is met in {len(moves)} turns, but no search to "
                        f"{len(moves) - 1} turns can prove that none is shorter (the check searches "
                        f"{RACE_SEARCH_TURNS})", recorded, None, turns=len(moves), optimum=None, legendWritten=True)
    return _verdict("legend-race", True, "optimal", recorded, len(moves), turns=len(moves), optimum=len(moves),
                    legendWritten=True)


def _race_optimum(start: RacePosition, draw: list[int], number: int, max_turns: int, ctx: SearchContext
                  ) -> int | None:
    """The fewest turns to meet the Legend, searched up to ``max_turns`` (None: more are needed); ``ctx`` stops the
    search (:class:`~solver.search.Stopped`)."""
    if max_turns < 0:
        return None
    return solve_race(start, draw, number, max_turns=max_turns, ctx=ctx)[0] if max_turns else \
        (0 if legend_met([start], number)[0] else None)


# ---------------------------------------------------------------------- text for a person
def describe(game: Game, puzzle: dict[str, Any]) -> str:
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


def answer(game: Game, puzzle: dict[str, Any]) -> str:
    """The proven answer as one line of text (for the answers page)."""
    solution = puzzle.get("solution") or {}
    if puzzle.get("kind") == "best-kingdom":
        return f"{solution.get('kingdom')} (score {solution.get('score')}, proven optimal)"
    moves = "; ".join(solution.get("moves", []))
    return f"{moves} ({solution.get('turns')} turns, proven fewest)"
