"""Pure-Python twin of ``src/forgotten_playout.pxi``: whole seeded games and rollouts of a policy.

Same functions, same signatures, same results (and the same random numbers) as
``solver.kernels.forgotten``. A position is given per cell: ``tiles[c]`` the pair number on
``c`` (-1 for no tile), ``status[c]`` 0 no tile, 1 face down, 2 face up, 3 removed, ``seen[c]`` 1 when
the players have seen that tile. ``phase`` 0 waits for the first flip, 1 for the second (after
``first``), 2 for the Erasure roll. ``erasure`` 0 off, 1 after every second turn, 2 after every turn.
``goal`` 0 a Brain-to-Brain path, 1 clear every pair.

Policies: 0 random flips; 1 greedy matcher with perfect memory; 2 route (uses only what was seen);
3 oracle (full information). Ties go to the lowest cell index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.twins.common import SplitMix64, stream_seed
from solver.twins.forgotten_paths import path_exists, route, route_costs

MASK64 = (1 << 64) - 1
NONE, DOWN, UP, REMOVED = 0, 1, 2, 3
FIRST, SECOND, ERASE = 0, 1, 2
RANDOM, GREEDY, ROUTE, ORACLE = 0, 1, 2, 3
MAX_TURNS = 10000
MAX_TRIES = 10000
MAX_PAIRS = 32


def stream(seed: int, index: int) -> SplitMix64:
    """Random stream ``index`` of ``seed``, as the kernel draws it (``common.stream_seed``; numbers ``below_mod``)."""
    return SplitMix64(stream_seed(seed, index))


def _bits(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _random_cell(mask: int, rng: SplitMix64) -> int:
    cells = _bits(mask)
    return cells[rng.below_mod(len(cells))]


@dataclass
class _Game:
    width: int
    height: int
    brain_a: int
    brain_b: int
    other: list[int] = field(default_factory=lambda: [-1] * 64)
    down: int = 0
    up: int = 0
    seen: int = 0
    dead: int = 0
    turn: int = 0
    phase: int = FIRST
    first: int = -1

    @property
    def cells(self) -> int:
        return self.width * self.height

    def connected(self, mask: int) -> bool:
        return path_exists(self.width, self.height, self.brain_a, self.brain_b, mask)

    def alive(self, goal: int) -> bool:
        if goal == 1:
            return self.down & self.dead == 0
        return self.connected(self.up | (self.down & ~self.dead))

    def copy(self) -> _Game:
        return _Game(self.width, self.height, self.brain_a, self.brain_b, list(self.other), self.down, self.up,
                     self.seen, self.dead, self.turn, self.phase, self.first)


def _link(game: _Game, tiles: Sequence[int]) -> bool:
    game.other = [-1] * 64
    where: dict[int, list[int]] = {}
    for c in range(game.cells):
        if tiles[c] >= 0:
            where.setdefault(int(tiles[c]), []).append(c)
    if any(v >= MAX_PAIRS or len(cells) != 2 for v, cells in where.items()):
        return False
    for a, b in where.values():
        game.other[a], game.other[b] = b, a
    return True


def _mark_dead(game: _Game) -> None:
    game.dead = 0
    for c in _bits(game.down):
        p = game.other[c]
        if p < 0 or not game.down >> p & 1:
            game.dead |= 1 << c


# -- policies -------------------------------------------------------------------------------
def _classify(game: _Game) -> tuple[int, int, int]:
    kp = ku = kd = 0
    for c in _bits(game.down & game.seen):
        p = game.other[c]
        if p >= 0 and game.seen >> p & 1:
            if game.down >> p & 1:
                kp |= 1 << c
            else:
                kd |= 1 << c
        else:
            ku |= 1 << c
    return kp, ku, kd


def _route(game: _Game, c0: int, c1: int, c2: int, c3: int) -> int:
    return route(game.width, game.height, game.brain_a, game.brain_b, c0, c1, c2, c3)[1]


def _knowledge_costs(game: _Game) -> tuple[int, list[int]]:
    """Cheapest route cost through each cell (face up 0, known pair 1, seen single 2, unseen 3; -1: none)."""
    kp, ku, _ = _classify(game)
    unk = game.down & ~game.seen
    if unk == 0:
        ku = 0
    out = np.zeros(game.cells, np.int32)
    best = route_costs(game.width, game.height, game.brain_a, game.brain_b, game.up, kp, ku, unk, out)
    return best, [int(x) for x in out]


def _cheapest(mask: int, costs: list[int]) -> int:
    """The cell of ``mask`` on the cheapest route (lowest index among ties); -1 if no route crosses it."""
    best, best_cost = -1, None
    for c in _bits(mask):
        if costs[c] >= 0 and (best_cost is None or costs[c] < best_cost):
            best, best_cost = c, costs[c]
    return best


def _choose_first(game: _Game, policy: int, rng: SplitMix64) -> int:
    unk = game.down & ~game.seen
    if policy == RANDOM:
        return _random_cell(game.down, rng)
    if policy == GREEDY:
        kp, _, _ = _classify(game)
        if kp:
            return _lowest(kp)
        return _lowest(unk if unk else game.down)
    if policy == ORACLE:
        usable = game.down & ~game.dead
        on_route = _route(game, game.up, usable, 0, 0) & usable
        for c in _bits(on_route):
            if game.other[c] >= 0 and on_route >> game.other[c] & 1:
                return c
        if on_route:
            return _lowest(on_route)
        return _lowest(usable) if usable else _lowest(game.down)
    kp, _, _ = _classify(game)
    best, costs = _knowledge_costs(game)
    for c in _bits(kp):
        if best >= 0 and costs[c] == best:        # no route at all (-1): no pair is on a cheapest one
            return c
    c = _cheapest(unk, costs)
    if c >= 0:
        return c
    if unk:
        return _lowest(unk)
    c = _cheapest(kp, costs)
    if c >= 0:
        return c
    return _lowest(kp) if kp else _lowest(game.down)


def _choose_second(game: _Game, policy: int, rng: SplitMix64) -> int:
    first = game.first
    others = game.down & ~(1 << first)
    unk = game.down & ~game.seen & ~(1 << first)
    if policy == RANDOM:
        return _random_cell(others, rng)
    p = game.other[first]
    if policy == ORACLE:
        return p if p >= 0 and game.down >> p & 1 else _lowest(others)
    if p >= 0 and p != first and game.seen >> p & 1 and game.down >> p & 1:
        return p
    if policy == GREEDY:
        return _lowest(unk if unk else others)
    _, costs = _knowledge_costs(game)
    c = _cheapest(unk, costs)
    if c >= 0:
        return c
    return _lowest(unk) if unk else _lowest(others)


# -- rules ----------------------------------------------------------------------------------
def _erasure_due(erasure: int, turn: int) -> bool:
    return erasure == 2 or (erasure == 1 and turn % 2 == 0)


def _end_turn(game: _Game, second: int, erasure: int, goal: int) -> bool:
    first = game.first
    game.seen |= 1 << second
    game.turn += 1
    if game.other[first] == second:
        pair = (1 << first) | (1 << second)
        game.down &= ~pair
        game.up |= pair
        if (goal == 1 and game.down == 0) or (goal == 0 and game.connected(game.up)):
            return True
    game.first = -1
    game.phase = ERASE if _erasure_due(erasure, game.turn) else FIRST
    return False


def _erase(game: _Game, cell: int) -> None:
    b = 1 << cell
    if game.down & b:
        game.down &= ~b
        game.dead &= ~b
        p = game.other[cell]
        if p >= 0 and game.down >> p & 1:
            game.dead |= 1 << p
    elif game.up & b:
        game.up &= ~b
    game.phase = FIRST


def _play(game: _Game, erasure: int, goal: int, policy: int, forced: int, rng: SplitMix64) -> int:
    while True:
        if game.phase == ERASE:
            _erase(game, rng.below_mod(game.cells))
            if not game.alive(goal):
                return 0
        elif game.phase == FIRST:
            if game.turn >= MAX_TURNS:
                return 0
            cell, forced = (forced, -1) if forced >= 0 else (_choose_first(game, policy, rng), -1)
            game.seen |= 1 << cell
            game.first = cell
            game.phase = SECOND
        else:
            cell, forced = (forced, -1) if forced >= 0 else (_choose_second(game, policy, rng), -1)
            if _end_turn(game, cell, erasure, goal):
                return 1


def _check_board(width: int, height: int, brain_a: int, brain_b: int) -> None:
    cells = width * height
    if width < 3 or height < 3 or cells > 64 or not (0 <= brain_a < cells and 0 <= brain_b < cells) \
            or brain_a == brain_b:
        raise ValueError(f"bad board: {width}x{height} with Brains at cells {brain_a} and {brain_b}")


def _check_rules(erasure: int, goal: int, policy: int) -> None:
    if not 0 <= erasure <= 2:
        raise ValueError("erasure must be 0 (off), 1 (every second turn) or 2 (every turn)")
    if goal not in (0, 1):
        raise ValueError("goal must be 0 (path) or 1 (clear)")
    if not 0 <= policy <= 3:
        raise ValueError("policy must be 0 random, 1 greedy, 2 route or 3 oracle")


def _deal(width: int, height: int, brain_a: int, brain_b: int, pairs: int, rng: SplitMix64) -> _Game:
    game = _Game(width, height, brain_a, brain_b)
    cells = width * height
    bag = [i // 2 if i < 2 * pairs else -1 for i in range(cells - 2)]
    for i in range(cells - 3, 0, -1):
        j = rng.below_mod(i + 1)
        bag[i], bag[j] = bag[j], bag[i]
    free = iter(bag)
    tiles = [-1 if c in (brain_a, brain_b) else next(free) for c in range(cells)]
    _link(game, tiles)
    game.down = sum(1 << c for c in range(cells) if tiles[c] >= 0)
    return game


def _load(width: int, height: int, brain_a: int, brain_b: int, tiles: Sequence[int], status: Sequence[int],
          seen: Sequence[int], turn: int, phase: int, first: int) -> _Game:
    game = _Game(width, height, brain_a, brain_b)
    cells = width * height
    if len(tiles) != cells or len(status) != cells or len(seen) != cells:
        raise ValueError("tiles, status and seen need one entry per cell")
    if not _link(game, [int(t) for t in tiles]):
        raise ValueError("tiles: every pair number must appear on exactly two cells")
    for c in range(cells):
        s = int(status[c])
        if s > 3 or (s == NONE) != (int(tiles[c]) < 0):
            raise ValueError(f"status: cell {c} has status {s} and tile {int(tiles[c])}")
        if s == DOWN:
            game.down |= 1 << c
        elif s == UP:
            game.up |= 1 << c
        if seen[c] and int(tiles[c]) >= 0:
            game.seen |= 1 << c
    if turn < 0 or not 0 <= phase <= 2:
        raise ValueError("turn must be >= 0 and phase 0, 1 or 2")
    if phase == SECOND and (not 0 <= first < cells or not (game.down & game.seen) >> first & 1):
        raise ValueError("phase 1 needs the first flipped cell: a face-down tile the players have seen")
    game.turn, game.phase, game.first = turn, phase, first if phase == SECOND else -1
    _mark_dead(game)
    return game


# -- public functions -------------------------------------------------------------------------
def play_games(width: int, height: int, brain_a: int, brain_b: int, pairs: int, erasure: int, goal: int,
               policy: int, seed: int, wins: np.ndarray, turns: np.ndarray, first_stream: int = 0) -> int:
    """Deal and play ``len(wins)`` games; game ``i`` uses random stream ``first_stream + i`` of ``seed`` (a run cut
    in pieces, ``first_stream`` = the games before, is the run in one call). ``wins[i]`` is 1 for a win,
    ``turns[i]`` the number of turns played. Returns the number of wins."""
    _check_board(width, height, brain_a, brain_b)
    _check_rules(erasure, goal, policy)
    cells = width * height
    if pairs < 1 or 2 * pairs > cells - 2 or pairs > MAX_PAIRS:
        raise ValueError(f"pairs must be 1 to {min((cells - 2) // 2, MAX_PAIRS)}")
    if turns.shape[0] != wins.shape[0]:
        raise ValueError("wins and turns need the same length")
    total = 0
    for i in range(wins.shape[0]):
        rng = stream(seed, (first_stream + i) & MASK64)
        game = _deal(width, height, brain_a, brain_b, pairs, rng)
        wins[i] = _play(game, erasure, goal, policy, -1, rng) if game.alive(goal) else 0
        turns[i] = game.turn
        total += int(wins[i])
    return total


def rollouts(width: int, height: int, brain_a: int, brain_b: int, erasure: int, goal: int, tiles: np.ndarray,
             status: np.ndarray, seen: np.ndarray, turn: int, phase: int, first: int, forced: int, policy: int,
             resample: bool, seed: int, wins: np.ndarray, turns: np.ndarray, first_stream: int = 0) -> int:
    """Play ``len(wins)`` games on from a position with ``policy`` (after the flip ``forced`` when it is >= 0).

    With ``resample``, rollout ``i`` first re-draws the tiles nobody has seen among the unseen cells (face
    down or removed), uniformly, rejecting draws in which the game would already be lost (the players know
    it is not); without it the given tiles are the truth (full information). Rollout ``i`` uses random
    stream ``first_stream + i`` of ``seed``, so the same seed gives the same worlds and rolls for every
    ``forced`` flip, and a run cut in pieces (``first_stream`` = the rollouts before) is the run in one call.
    Returns the number of rejected draws."""
    _check_board(width, height, brain_a, brain_b)
    base = _load(width, height, brain_a, brain_b, tiles, status, seen, turn, phase, first)
    _check_rules(erasure, goal, policy)
    if turns.shape[0] != wins.shape[0]:
        raise ValueError("wins and turns need the same length")
    if not base.alive(goal):
        raise ValueError("the position is already lost")
    if forced >= 0 and (forced >= base.cells or not base.down >> forced & 1 or (phase == SECOND and forced == first)
                        or phase == ERASE):
        raise ValueError(f"forced flip {forced} is not legal here")
    tiles = [int(t) for t in tiles]
    slots = [c for c in range(base.cells) if tiles[c] >= 0 and not base.seen >> c & 1 and int(status[c]) in (DOWN, REMOVED)]
    rejected = 0
    for i in range(wins.shape[0]):
        rng = stream(seed, (first_stream + i) & MASK64)
        game = base.copy()
        if resample:
            tries = 0
            while True:
                bag = [tiles[c] for c in slots]
                for k in range(len(bag) - 1, 0, -1):
                    j = rng.below_mod(k + 1)
                    bag[k], bag[j] = bag[j], bag[k]
                world = list(tiles)
                for c, v in zip(slots, bag):
                    world[c] = v
                _link(game, world)
                _mark_dead(game)
                if game.alive(goal):
                    break
                tries += 1
                if tries >= MAX_TRIES:
                    raise ValueError(f"could not draw a world consistent with the position in {MAX_TRIES} tries")
            rejected += tries
        wins[i] = _play(game, erasure, goal, policy, forced, rng)
        turns[i] = game.turn
    return rejected


def policy_move(width: int, height: int, brain_a: int, brain_b: int, tiles: np.ndarray, status: np.ndarray,
                seen: np.ndarray, first: int, policy: int, seed: int) -> int:
    """The cell ``policy`` flips next: a first flip when ``first`` is -1, else the second flip after ``first``.
    Policy 0 draws from random stream 0 of ``seed``."""
    _check_board(width, height, brain_a, brain_b)
    game = _load(width, height, brain_a, brain_b, tiles, status, seen, 0, SECOND if first >= 0 else FIRST, first)
    _check_rules(0, 0, policy)
    if bin(game.down).count("1") < 2:
        raise ValueError("no legal flip: fewer than two face-down tiles")
    rng = stream(seed, 0)
    return _choose_second(game, policy, rng) if first >= 0 else _choose_first(game, policy, rng)
