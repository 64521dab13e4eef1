"""Puzzle runs shared by every game: ids, per-puzzle random streams, batches and answer checks.

A puzzle's id names everything needed to make it again::

    <game spec>-<kind>-<difficulty>-<seed>-<index>     e.g. embers-blink-hard-7-12

Puzzle ``index`` of a run seeded ``seed`` is drawn from its own stream
(:func:`solver.scale.item_rng` of seed, index, kind and difficulty), so
``generate --id ID`` prints exactly that puzzle again, ``--start`` resumes a
run, and ``--jobs N`` or a Ray cluster give the same output as one process.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from solver import contract
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game
from solver.registry import load_game
from solver.scale import item_rng, run_items
from solver.search import SearchContext
from solver.validate import as_object

DIFFICULTIES = ("easy", "medium", "hard")
META_KEYS = ("id", "game", "kind", "difficulty", "seed", "index")


def puzzle_id(spec: str, kind: str, difficulty: str, seed: int, index: int) -> str:
    """The id of puzzle ``index`` of a run."""
    return f"{spec}-{kind}-{difficulty}-{seed}-{index}"


def parse_puzzle_id(text: Any, field: str = "id", game: Game | None = None) -> tuple[str, str, str, int, int]:
    """``(spec, kind, difficulty, seed, index)`` from a puzzle id; errors name ``field``."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError(field, text, "expected a puzzle id such as 'embers-blink-hard-7-12'")
    text = text.strip()
    if "(" in text.split("-", 1)[0]:
        close = text.find(")")
        if close < 0:
            raise InvalidInputError(field, text, "unbalanced parentheses in the game spec")
        spec, rest = text[:close + 1], text[close + 1:]
    else:
        spec, _, rest = text.partition("-")
        rest = "-" + rest
    parts = rest.split("-")[1:]
    if len(parts) < 4 or not parts[-1].isdigit() or not parts[-2].isdigit() or parts[-3] not in DIFFICULTIES:
        raise InvalidInputError(field, text, "expected GAME-KIND-DIFFICULTY-SEED-INDEX, e.g. 'embers-blink-hard-7-12'")
    kind = "-".join(parts[:-3])
    loaded = load_game(spec, field)
    if game is not None and loaded.name != game.name:
        raise InvalidInputError(field, text, f"is a puzzle of {loaded.long_name}, not of {game.long_name}")
    if kind not in contract.puzzle_kinds(loaded):
        raise InvalidInputError(field, text, f"unknown puzzle kind {kind!r} (known: {', '.join(contract.puzzle_kinds(loaded))})")
    return spec, kind, parts[-3], int(parts[-2]), int(parts[-1])


def make_puzzle(game: Game, kind: str, difficulty: str, seed: int, index: int,
                ctx: SearchContext | None = None) -> dict[str, Any]:
    """Puzzle ``index`` of the run ``(game, kind, difficulty, seed)``, with its id and metadata first; a game's
    generator that polls ``ctx`` stops with :class:`solver.search.Stopped` when it says so."""
    spec = game.spec()
    body = contract.generate_puzzle(game, kind, difficulty, item_rng(seed, index, "puzzle", kind, difficulty), ctx)
    meta = {"id": puzzle_id(spec, kind, difficulty, seed, index), "game": spec, "kind": kind,
            "difficulty": difficulty, "seed": seed, "index": index}
    return {**meta, **{k: v for k, v in body.items() if k not in META_KEYS}}


def _make_from_spec(spec: str, kind: str, difficulty: str, seed: int, index: int) -> dict[str, Any]:
    return make_puzzle(load_game(spec), kind, difficulty, seed, index)


def generate(game: Game, kind: str, difficulty: str, seed: int = 0, start: int = 0, count: int = 1,
             jobs: int = 1, executor: str = "local", address: str | None = None,
             progress: bool = False) -> Iterator[dict[str, Any]]:
    """Puzzles ``start .. start+count-1`` of a run, in index order (``solver.generate`` in the Python API)."""
    if kind not in contract.puzzle_kinds(game):
        raise InvalidInputError("kind", kind, f"expected one of {', '.join(contract.puzzle_kinds(game)) or 'none'}")
    if difficulty not in DIFFICULTIES:
        raise InvalidInputError("difficulty", difficulty, f"expected one of {', '.join(DIFFICULTIES)}")
    task = functools.partial(_make_from_spec, game.spec(), kind, difficulty, seed)
    return run_items(task, start, count, jobs=jobs, executor=executor, address=address, progress=progress,
                     label="puzzles")


def puzzle_of_id(text: str, field: str = "id", game: Game | None = None) -> dict[str, Any]:
    """The puzzle whose id is ``text``, made again."""
    spec, kind, difficulty, seed, index = parse_puzzle_id(text, field, game)
    return make_puzzle(load_game(spec, field), kind, difficulty, seed, index)


def _nothing_played(answer: Any) -> bool:
    """True for an answer with no move in it (``[]``, ``""``): a player who has not played yet."""
    return answer == [] or (isinstance(answer, str) and not answer.strip())


def check(game: Game, puzzle: Any, answer: Any, field: str = "puzzle", ctx: SearchContext | None = None,
          ) -> dict[str, Any]:
    """The verdict on ``answer``: re-proved by the game from the puzzle's position, never read from the file (under
    ``ctx``'s terminate and time limit where the game's proof polls it)."""
    obj = as_object(puzzle, field)
    spec = obj.get("game", game.spec())
    loaded = load_game(spec, f"{field}.game") if isinstance(spec, str) else game
    if loaded.name != game.name:
        raise InvalidInputError(f"{field}.game", spec, f"is a puzzle of {loaded.long_name}, not of {game.long_name}")
    try:
        verdict = contract.check_puzzle(loaded, obj, answer, ctx)
    except InvalidInputError:
        if not _nothing_played(answer):
            raise
        verdict = {"correct": False, "readAs": "moves",
                   "message": "no move played yet: play your answer from the puzzle's position, then check it"}
    out = {"puzzleId": obj.get("id"), **verdict}
    if "solution" not in out:
        try:
            out["solution"] = contract.puzzle_answer(loaded, obj)
        except (UnsupportedActionError, KeyError, TypeError):
            pass
    return out
