"""An independent brute-force expectimax for Forgotten on tiny boards, written from the rulebook alone.

Nothing here imports the package: it parses the notation itself, checks paths itself (FG-5) and plays
every legal flip, turns that learn and match nothing included. The belief after any history is every
arrangement of the unseen tiles that agrees with what was seen and in which the game is not over
(FG-11, FG-13, FG-14); that is a function of the public board, so the public board is the search state.
Cycles (a turn that changes nothing, an Erasure roll on an empty cell) are handled by value iteration
over the explicit graph of public states, which converges from below to the optimal win probability.
"""

from __future__ import annotations

from itertools import permutations

DOWN, UP, REMOVED, NONE = "D", "U", "R", "X"


def tokens(row: str) -> list[str]:
    out, i = [], 0
    while i < len(row):
        if row[i] in "+-":
            out.append(row[i:i + 2])
            i += 2
        else:
            out.append(row[i])
            i += 1
    return out


class Forgotten:
    """The rules on one board: ``goal`` ``path`` or ``clear``, ``erasure`` ``off``, ``round`` or ``turn``."""

    def __init__(self, rows: list[str], goal: str, erasure: str) -> None:
        cells = [tokens(r) for r in rows]
        self.width, self.height = len(cells[0]), len(cells)
        flat = [t for r in cells for t in r]
        self.n = len(flat)
        self.goal, self.erasure = goal, erasure
        self.brains = [c for c, t in enumerate(flat) if t == "@"]
        self.slots = [c for c, t in enumerate(flat) if t not in "@."]
        pairs = len(self.slots) // 2
        board = []
        for t in flat:
            if t in "@.":
                board.append((NONE, None))
                continue
            status = UP if t[0] == "+" else REMOVED if t[0] == "-" else DOWN
            letter = t[-1]
            label = None if letter == "?" or letter.islower() else ord(letter) - ord("A")
            board.append((status, label))
        self.pairs = pairs
        self.start = tuple(board)
        self.belief_memo: dict = {}

    # -- geometry (FG-5) ---------------------------------------------------------------------------
    def xy(self, c: int) -> tuple[int, int]:
        return c % self.width, c // self.width

    def touches(self, c: int, brain: int) -> bool:
        (x, y), (bx, by) = self.xy(c), self.xy(brain)
        return max(abs(x - bx), abs(y - by)) == 1

    def linked(self, cells: set[int]) -> bool:
        """A path of orthogonal steps through ``cells`` from a cell touching one Brain to one touching the other."""
        a, b = self.brains
        frontier = [c for c in cells if self.touches(c, a)]
        reached = set(frontier)
        while frontier:
            c = frontier.pop()
            if self.touches(c, b):
                return True
            x, y = self.xy(c)
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                m = ny * self.width + nx
                if 0 <= nx < self.width and 0 <= ny < self.height and m in cells and m not in reached:
                    reached.add(m)
                    frontier.append(m)
        return False

    # -- the true board -----------------------------------------------------------------------------
    def alive(self, world: tuple, board: tuple) -> bool:
        """The game can still be won on the true board (FG-11; FG-14 for the clear goal)."""
        def partner_down(c: int) -> bool:
            return any(board[m][0] == DOWN for m in self.slots if m != c and world[m] == world[c])
        if self.goal == "clear":
            return all(partner_down(c) for c in self.slots if board[c][0] == DOWN)
        usable = {c for c in self.slots if board[c][0] == UP or (board[c][0] == DOWN and partner_down(c))}
        return self.linked(usable)

    def won(self, board: tuple) -> bool:
        if self.goal == "clear":
            return all(board[c][0] != DOWN for c in self.slots)
        return self.linked({c for c in self.slots if board[c][0] == UP})

    def belief(self, board: tuple) -> tuple:
        """Every arrangement of the unseen tiles that agrees with the board and keeps the game alive."""
        if board not in self.belief_memo:
            hidden = [c for c in self.slots if board[c][1] is None]
            shown = [board[c][1] for c in self.slots if board[c][1] is not None]
            bag = [p for p in range(self.pairs) for _ in range(2 - shown.count(p))]
            worlds = []
            for perm in set(permutations(bag)):
                world = [board[c][1] for c in range(self.n)]
                for c, v in zip(hidden, perm):
                    world[c] = v
                if self.alive(tuple(world), board):
                    worlds.append(tuple(world))
            self.belief_memo[board] = tuple(worlds)
        return self.belief_memo[board]

    def erasure_due(self, turn: int) -> bool:
        """An Erasure roll follows the ``turn``-th finished turn (FG-8)."""
        return self.erasure == "turn" or (self.erasure == "round" and turn % 2 == 0)

    # -- the game graph -------------------------------------------------------------------------------
    def name(self, c: int) -> str:
        x, y = self.xy(c)
        return f"flip {x + 1},{y + 1}"

    def moves(self, node: tuple) -> list[list[tuple[float, object]]]:
        """Per decision option, its outcomes ``(probability, next node or a terminal value)``; one option for a
        chance node. Options of a decision: giving up, then every face-down tile in cell order."""
        kind, board, turn_parity, first = node
        worlds = self.belief(board)
        if not worlds:                       # reached with probability 0 only
            return [[(1.0, 0.0)]]
        if kind == "erase":
            outcomes: list[tuple[float, object]] = []
            for c in range(self.n):
                after = list(board)
                if board[c][0] in (DOWN, UP):
                    after[c] = (REMOVED, board[c][1])
                after = tuple(after)
                living = len(self.belief(after)) / len(worlds)
                if living:
                    outcomes.append((living / self.n, self.node("first", after, turn_parity, -1)))
            return [outcomes]
        options: list[list[tuple[float, object]]] = [[(1.0, 0.0)]]      # giving up (FG-12)
        for c in self.slots:
            if board[c][0] != DOWN or c == first:
                continue
            groups: dict = {}
            for w in worlds:
                groups[w[c]] = groups.get(w[c], 0) + 1
            option = []
            for label, count in groups.items():
                p = count / len(worlds)
                after = list(board)
                after[c] = (DOWN, label)
                if kind == "first":
                    option.append((p, self.node("second", tuple(after), turn_parity, c)))
                    continue
                if label == board[first][1]:
                    after[c] = after[first] = (UP, label)
                after = tuple(after)
                if after[c][0] == UP and self.won(after):
                    option.append((p, 1.0))
                    continue
                turn = turn_parity + 1
                nxt = "erase" if self.erasure_due(turn) else "first"
                option.append((p, self.node(nxt, after, turn % 2, -1)))
            options.append(option)
        return options

    def node(self, kind: str, board: tuple, turn_parity: int, first: int) -> tuple:
        """A search node; pairs are renamed in order of appearance (they are interchangeable) and the turn
        parity is kept only when it decides the Erasure rolls."""
        names: dict = {}
        board = tuple((s, None if label is None else names.setdefault(label, len(names))) for s, label in board)
        return (kind, board, turn_parity if self.erasure == "round" else 0, first)

    def value_of(self, node: tuple) -> float:
        """Optimal win probability of a node. Boards only ever progress (tiles get seen, turned up, removed), so
        the nodes of one board are solved together (value iteration over the turns that change nothing) once
        every board they lead to is solved."""
        if node not in self.values:
            self._solve_board(node)
        return self.values[node]

    def _solve_board(self, entry: tuple) -> None:
        board = entry[1]
        local: dict = {}
        stack = [entry]
        while stack:
            node = stack.pop()
            if node in local or node in self.values:
                continue
            options = []
            for option in self.moves(node):
                resolved = []
                for p, x in option:
                    if isinstance(x, tuple) and x[1] == board:
                        resolved.append((p, x))
                        stack.append(x)
                    else:
                        resolved.append((p, self.value_of(x) if isinstance(x, tuple) else x))
                options.append(resolved)
            local[node] = options
        values = dict.fromkeys(local, 0.0)

        def get(x: object) -> float:
            if not isinstance(x, tuple):
                return x
            return values[x] if x in values else self.values[x]
        for _ in range(1_000_000):
            change = 0.0
            for node, options in local.items():
                best = max(sum(p * get(x) for p, x in option) for option in options)
                change = max(change, best - values[node])
                values[node] = best
            if change <= 1e-16:
                self.values.update(values)
                return
        raise RuntimeError("value iteration did not converge")

    def value(self, turn: int, phase: str = "first", first: int = -1) -> float:
        """Optimal win probability of the position given to the constructor."""
        self.values: dict = {}
        return self.value_of(self.node(phase, self.start, turn % 2, first))

    def move_values(self, turn: int, phase: str = "first", first: int = -1) -> dict[str, float]:
        """The optimal win probability of every move of the position given to the constructor."""
        root = self.node(phase, self.start, turn % 2, first)
        self.value(turn, phase, first)
        names = ["give up"] + [self.name(c) for c in self.slots if self.start[c][0] == DOWN and c != first]
        return {name: sum(p * (self.value_of(x) if isinstance(x, tuple) else x) for p, x in option)
                for name, option in zip(names, self.moves(root))}


def brute_force_moves(notation: str, goal: str, erasure: str) -> dict[str, float]:
    """The optimal win probability of every move of ``ROWS TURN PHASE [FIRST]``, from what the players know."""
    parts = notation.split()
    game = Forgotten(parts[0].split("/"), goal, erasure)
    first = -1
    if len(parts) == 4:
        x, y = (int(v) for v in parts[3].split(","))
        first = (y - 1) * game.width + (x - 1)
    return game.move_values(int(parts[1]), parts[2], first)


def brute_force_value(notation: str, goal: str, erasure: str) -> float:
    """The optimal win probability of ``ROWS TURN PHASE [FIRST]`` from what the players know."""
    return max(brute_force_moves(notation, goal, erasure).values())

