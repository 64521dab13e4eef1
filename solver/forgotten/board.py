"""Board geometry for Forgotten: cells, names, Brain placements, neighbours, symmetries.

A cell is addressed ``(x, y)`` as the dice name it: ``x`` from the blue die
(column, 1 = left), ``y`` from the orange die (row, 1 = top). Internally a cell
is the index ``(y - 1) * width + (x - 1)`` and a set of cells is a bitboard
(bit ``i`` = cell ``i``), so that a 6x6 board fits a 64-bit word.

Brain Tiles sit on two opposite sides of the grid (FG-2): one in the left
column and one in the right column, or one in the top row and one in the
bottom row.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from functools import cached_property

from solver.errors import InvalidInputError

MIN_SIDE = 3
MAX_SIDE = 8
_CELL = re.compile(r"^\(?\s*([0-9])\s*[, ]\s*([0-9])\s*\)?$|^([0-9])([0-9])$")


def cell_index(x: int, y: int, width: int) -> int:
    """The index of cell ``(x, y)`` (1-based coordinates)."""
    return (y - 1) * width + (x - 1)


class OffBoard(InvalidInputError):
    """A cell written correctly but off the board (``9,9`` on a 4x3 board)."""


def parse_cell(text: object, width: int, height: int, field_name: str) -> int:
    """A cell from ``"x,y"`` (also ``"(x,y)"``, ``"x y"`` or the two digits ``"xy"``)."""
    if not isinstance(text, str):
        raise InvalidInputError(field_name, text, "expected a cell such as '3,4' (x from the blue die, y from the orange die)")
    match = _CELL.match(text.strip())
    if not match:
        raise InvalidInputError(field_name, text, "expected a cell such as '3,4' (x from the blue die, y from the orange die)")
    x = int(match.group(1) or match.group(3))
    y = int(match.group(2) or match.group(4))
    if not (1 <= x <= width and 1 <= y <= height):
        raise OffBoard(field_name, text, f"off the {width}x{height} board (x from 1 to {width}, the blue die; y from 1 "
                                         f"to {height}, the orange die)")
    return cell_index(x, y, width)


def opposite_sides(a: int, b: int, width: int, height: int) -> bool:
    """True when cells ``a`` and ``b`` lie on opposite sides (left/right columns or top/bottom rows)."""
    ax, ay = a % width, a // width
    bx, by = b % width, b // width
    left_right = {ax, bx} == {0, width - 1}
    top_bottom = {ay, by} == {0, height - 1}
    return left_right or top_bottom


def all_placements(width: int, height: int) -> list[tuple[int, int]]:
    """Every legal Brain placement as a sorted pair of cells."""
    cells = width * height
    return [(a, b) for a in range(cells) for b in range(a + 1, cells) if opposite_sides(a, b, width, height)]


def default_brains(width: int, height: int) -> tuple[int, int]:
    """The default placement: the middle of the left column and the middle of the right column.

    On a 6x6 board that is ``(1,3)`` and ``(6,4)``, a half-turn symmetric placement.
    """
    y_a = (height + 1) // 2
    y_b = height + 1 - y_a
    return tuple(sorted((cell_index(1, y_a, width), cell_index(width, y_b, width))))  # type: ignore[return-value]


def parse_brains(text: object, width: int, height: int, field_name: str) -> tuple[int, int]:
    """A placement ``"13-64"`` (two-digit cells joined by ``-``), ``"1,3-6,4"``, or ``"auto"``."""
    if text == "auto":
        return default_brains(width, height)
    if not isinstance(text, str) or text.count("-") != 1:
        raise InvalidInputError(field_name, text, "expected two cells joined by '-', e.g. '13-64' for (1,3) and (6,4)")
    first, second = text.split("-")
    a = parse_cell(first, width, height, field_name)
    b = parse_cell(second, width, height, field_name)
    check_brains(a, b, width, height, field_name, text)
    return (min(a, b), max(a, b))


def check_brains(a: int, b: int, width: int, height: int, field_name: str, shown: object) -> None:
    """Raise unless ``a`` and ``b`` are a legal Brain placement."""
    if a == b:
        raise InvalidInputError(field_name, shown, "the two Brain Tiles need two different cells")
    if not opposite_sides(a, b, width, height):
        raise InvalidInputError(field_name, shown, "Brain Tiles go on opposite sides: one in the left column and one "
                                                    "in the right column, or one in the top row and one in the bottom row")


@dataclass(frozen=True)
class Board:
    """A ``width`` x ``height`` grid with its two Brain Tiles (sorted cell indices)."""

    width: int
    height: int
    brains: tuple[int, int]

    @property
    def cells(self) -> int:
        """Number of cells (dice outcomes)."""
        return self.width * self.height

    def name(self, cell: int) -> str:
        """``"x,y"`` of a cell index."""
        return f"{cell % self.width + 1},{cell // self.width + 1}"

    def xy(self, cell: int) -> tuple[int, int]:
        """1-based ``(x, y)`` of a cell index."""
        return cell % self.width + 1, cell // self.width + 1

    def parse(self, text: object, field_name: str) -> int:
        """A cell index from its name."""
        return parse_cell(text, self.width, self.height, field_name)

    def spec(self) -> str:
        """The placement in game-parameter form, e.g. ``"13-64"``."""
        return "-".join("".join(map(str, self.xy(c))) for c in self.brains)

    @cached_property
    def full(self) -> int:
        """Mask of every cell."""
        return (1 << self.cells) - 1

    @cached_property
    def brain_mask(self) -> int:
        """Mask of the two Brain cells."""
        return (1 << self.brains[0]) | (1 << self.brains[1])

    @cached_property
    def not_left(self) -> int:
        """Mask of every cell except the left column."""
        return self.full & ~sum(1 << (y * self.width) for y in range(self.height))

    @cached_property
    def not_right(self) -> int:
        """Mask of every cell except the right column."""
        return self.full & ~sum(1 << (y * self.width + self.width - 1) for y in range(self.height))

    def spread(self, mask: int) -> int:
        """Cells orthogonally adjacent to a cell of ``mask``."""
        w = self.width
        return (((mask << 1) & self.not_left) | ((mask >> 1) & self.not_right) | (mask << w) | (mask >> w)) & self.full

    def around(self, cell: int) -> int:
        """The (up to 8) cells around ``cell``, diagonals included."""
        x, y = cell % self.width, cell // self.width
        mask = 0
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx or dy) and 0 <= nx < self.width and 0 <= ny < self.height:
                    mask |= 1 << (ny * self.width + nx)
        return mask

    @cached_property
    def start(self) -> int:
        """Cells a path may begin on: around the first Brain, diagonals included (FG-5)."""
        return self.around(self.brains[0]) & ~self.brain_mask

    @cached_property
    def goal(self) -> int:
        """Cells a path may end on: around the second Brain, diagonals included (FG-5)."""
        return self.around(self.brains[1]) & ~self.brain_mask

    def closure(self, seed: int, cells: int) -> int:
        """``seed`` grown through orthogonally adjacent cells of ``cells``."""
        while True:
            grown = seed | (self.spread(seed) & cells)
            if grown == seed:
                return seed
            seed = grown

    def connected(self, cells: int) -> bool:
        """True when ``cells`` hold a path from Brain to Brain (orthogonal steps, diagonal off/onto a Brain)."""
        reach = self.start & cells
        while True:
            if reach & self.goal:
                return True
            grown = reach | (self.spread(reach) & cells)
            if grown == reach:
                return False
            reach = grown

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Index permutations of the grid's symmetries that map the Brain pair onto itself (identity first)."""
        w, h = self.width, self.height
        maps = [lambda x, y: (x, y), lambda x, y: (w - 1 - x, y), lambda x, y: (x, h - 1 - y),
                lambda x, y: (w - 1 - x, h - 1 - y)]
        if w == h:
            maps += [lambda x, y: (y, x), lambda x, y: (h - 1 - y, w - 1 - x), lambda x, y: (y, w - 1 - x),
                     lambda x, y: (h - 1 - y, x)]
        out = []
        for f in maps:
            perm = tuple(f(c % w, c // w)[1] * w + f(c % w, c // w)[0] for c in range(self.cells))
            if {perm[self.brains[0]], perm[self.brains[1]]} == set(self.brains) and perm not in out:
                out.append(perm)
        return tuple(out)


def make_board(width: int, height: int, brains: tuple[int, int]) -> Board:
    """A checked board."""
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise InvalidInputError("game.width", (width, height), f"board sides must be {MIN_SIDE} to {MAX_SIDE}")
    a, b = brains
    check_brains(a, b, width, height, "brains", (a, b))
    return Board(width, height, (min(a, b), max(a, b)))


# -- routes --------------------------------------------------------------------------------------------------------
def route_prices(board: Board, up: int, pairs: int, singles: int, unseen: int) -> dict[int, int]:
    """What each cell costs a route, as the route policy prices it: face up 0, known pair 1, seen tile whose
    partner is unseen 2, unseen tile 3 (cells in none of the masks cannot be on a route)."""
    price = {}
    for weight, mask in ((3, unseen), (2, singles), (1, pairs), (0, up)):
        for c in range(board.cells):
            if mask >> c & 1:
                price[c] = weight
    return price


def cheapest_route(board: Board, price: dict[int, int]) -> list[int]:
    """One cheapest Brain-to-Brain route (FG-5) through the priced cells, in path order (ties: lowest cells)."""
    best: dict[int, int] = {}
    parent: dict[int, int] = {}
    heap = []
    for c in sorted(price):
        if board.start >> c & 1:
            best[c] = price[c]
            parent[c] = -1
            heapq.heappush(heap, (price[c], c))
    while heap:
        cost, c = heapq.heappop(heap)
        if cost > best.get(c, 1 << 30):
            continue
        if board.goal >> c & 1:
            path = [c]
            while parent[path[-1]] >= 0:
                path.append(parent[path[-1]])
            return path[::-1]
        spread = board.spread(1 << c)
        for n in range(board.cells):
            if spread >> n & 1 and n in price and cost + price[n] < best.get(n, 1 << 30):
                best[n], parent[n] = cost + price[n], c
                heapq.heappush(heap, (best[n], n))
    return []
