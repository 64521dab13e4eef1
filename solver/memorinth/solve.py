"""Memorinth's ``solve`` and ``score``: full-information shortest escapes (MR-26), the fewest own turns for one
player to leave the forest, and where each piece stands in the race.

The model is solitaire: the player knows every card, and the other players'
turns change nothing (their pieces stay where they are, only the turn order
and the start-player card advance). The compiled IDA* search
(``kernel.shortest_escape``) uses an admissible bound
(base game: moves out along the union of both sides of every card, which
never move; Master Memorinth: the distance to the nearest edge plus one, since
a turn moves a piece by at most one card), so the first solution it finds is
proven shortest. A greedy full-information run gives an upper bound first, so
a search stopped by its limits still answers with the best escape known and
the proven lower bound. A long search runs under the one watcher
(:class:`solver.search.Watch`), which stops it at its time limit or on
``terminate`` and sends the interim reports.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.memorinth import kernel
from solver.memorinth import layout as R
from solver.memorinth.layout import PIECE
from solver.memorinth.state import MemorinthState
from solver.memorinth.view import MemorinthView
from solver.results import SolveResult
from solver.search import SearchContext, Watch
from solver.twins import memorinth_escape as TE
from solver.validate import as_int, as_object, check_keys, get, join

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame

INF_BOUND = 1 << 20
SMALL_NODES = 200_000    # a node limit this small ends the search within about 0.1 s: no watcher needed
SMALL_SECONDS = 0.1      # likewise a time limit this short
MODEL = ("solitaire, full information: the player knows every card; the other players' turns change nothing "
         "(their pieces stay, only the turn order and the start-player card advance)")


@dataclass
class Escape:
    """A shortest-escape answer."""

    player: int
    status: str                 # "OPTIMAL", "NO_ESCAPE" (proven: never), "NONE_WITHIN_MAX_DEPTH" or "LIMIT"
    turns: int | None           # best known number of own turns (None: no escape known)
    lower_bound: int            # proven: no escape in fewer own turns
    turn_moves: list[list[str]] = field(default_factory=list)   # the move strings of each own turn
    nodes: int = 0
    seconds: float = 0.0
    max_depth: int = 0

    @property
    def moves(self) -> list[str]:
        """All move strings in order."""
        return [m for turn in self.turn_moves for m in turn]

    @property
    def optimal(self) -> bool:
        """True when ``turns`` is proven shortest."""
        return self.status == "OPTIMAL"

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON (``lowerBound`` is ``null`` when no escape can ever exist)."""
        return {"player": self.player, "turns": self.turns, "moves": self.moves, "turnMoves": self.turn_moves,
                "status": self.status,
                "lowerBound": None if self.lower_bound >= INF_BOUND else self.lower_bound,
                "maxDepth": self.max_depth, "nodes": self.nodes, "fullInformation": True, "model": MODEL}


def _move_strings(state: MemorinthState, player: int, actions: list[int]) -> list[list[str]]:
    """Replay ``actions`` in the solitaire model: the move strings of each own turn (checks the escape)."""
    copy = state.clone()
    turns: list[list[str]] = [[]]
    for action in actions:
        if copy.current_player() != player:
            _advance(copy, player)
        if copy.phase == "flip" and turns[-1]:
            turns.append([])
        turns[-1].append(copy.action_to_string(action))
        copy.apply_action(action)
    if copy.winner() != player:
        raise AssertionError("the escape did not replay")
    return turns


def _advance(state: MemorinthState, player: int) -> None:
    """Skip the other players' turns as the solitaire model does (the kernel's own bookkeeping)."""
    kernel.skip_to_player(state.vec, state.deck_table, player)


def shortest_escape(state: MemorinthState, player: int | None = None, *, max_depth: int = 30,
                    ctx: SearchContext | None = None) -> Escape:
    """The fewest own turns for ``player`` (default: the player to move) to leave the forest, knowing every card."""
    start = time.perf_counter()
    ctx = ctx or SearchContext()
    if state.setup is not None:
        raise UnsupportedActionError("state", "setup", "deal the game first")
    if state.is_terminal():
        raise InvalidInputError("state.phase", "over", "the game is over")
    if player is None:
        player = state.current_player()
    player = as_int(player, "player", 0, state.rules.players - 1)
    if player != state.current_player() and state.phase != "flip":
        raise InvalidInputError("player", player, f"player {state.current_player()} is in the middle of a turn; "
                                                  "ask for the player to move or finish that turn")
    max_depth = as_int(max_depth, "maxDepth", 1, 64)
    vec, deck = state.vec, state.deck_table
    buf = np.zeros(3 * max_depth, dtype=np.int32)
    upper, decisions = kernel.greedy_escape(vec, deck, player, max_depth, 32, ctx.seed, buf)
    best = [int(a) for a in buf[:decisions]] if upper > 0 else []
    remaining = ctx.remaining()
    nodes_limit = ctx.limits.nodes or 0
    # control[0]: the stop flag the kernel polls; control[1], control[2]: the kernel's progress (bound, nodes/1024)
    control = np.array([1 if ctx.cancel.is_set() else 0, 0, 0], dtype=np.int32)
    replayed: list[list[list[str]]] = []

    def greedy_moves() -> list[list[str]]:  # the greedy escape's moves, replayed once when first needed
        if not replayed:
            replayed.append(_move_strings(state, player, best) if best else [])
        return replayed[0]

    def interim() -> SolveResult:
        bound = int(control[1])
        name = "OPTIMAL" if 0 < upper <= bound else "LIMIT"
        partial = Escape(player, name, upper if upper > 0 else None, bound, greedy_moves(),
                         nodes=int(control[2]) << 10, seconds=time.perf_counter() - start, max_depth=max_depth)
        return escape_result(state.game.name, partial, during_search=True)

    def report() -> None:
        if control[1] > 0:
            ctx.maybe_report(interim)

    # The watcher (terminate, the deadline, interim reports) unless the search is too small to need one: the
    # kernel itself stops at the node and time limits it is given.
    small = (0 < nodes_limit <= SMALL_NODES) or (remaining is not None and remaining <= SMALL_SECONDS)
    watch = Watch.for_context(ctx, report=report, name="memorinth-escape-watch") \
        if ctx.report is not None or not small else Watch()
    watch.on_stop(lambda: control.__setitem__(0, 1))
    with watch:
        status, length, bound, nodes = kernel.shortest_escape(
            vec, deck, player, max_depth if upper < 0 else min(max_depth, upper), nodes_limit,
            0.0 if remaining is None else max(remaining, 1e-3), buf, control)
    if status == 0:
        result = Escape(player, "OPTIMAL", length, length, nodes=nodes, max_depth=max_depth)
        actions = [int(a) for a in buf[:_decisions(state, player, buf, length)]]
        result.turn_moves = _move_strings(state, player, actions)
    elif status == 1 and upper < 0:
        # no escape within max_depth; impossibility is proven only when the admissible bound is infinite
        never = bound >= INF_BOUND
        result = Escape(player, "NO_ESCAPE" if never else "NONE_WITHIN_MAX_DEPTH", None, bound, nodes=nodes,
                        max_depth=max_depth)
    elif status == 1:  # cannot happen: the greedy escape is within the searched depth
        raise AssertionError("IDA* missed the greedy escape")
    else:  # stopped: the greedy escape is proven shortest when it meets IDA*'s proven lower bound
        status_name = "OPTIMAL" if 0 < upper <= bound else "LIMIT"
        result = Escape(player, status_name, upper if upper > 0 else None, bound, nodes=nodes, max_depth=max_depth)
        result.turn_moves = greedy_moves()
    result.seconds = time.perf_counter() - start
    return result


def exhaustive_escape(vec: np.ndarray, deck: np.ndarray, player: int, max_turns: int) -> int | None:
    """The fewest own turns for ``player`` to leave within ``max_turns`` (None: not within them) by plain
    breadth-first search over whole own turns in the solitaire model (the twin's rules, no bound, no pruning):
    what :func:`shortest_escape` is cross-checked and measured against on small instances."""
    deck_list = [int(x) for x in deck]
    root = [int(x) for x in vec]
    if root[TE.TOMOVE] != player:
        TE.advance_to(root, deck_list, player)
    frontier = {tuple(root)}
    for turn in range(1, max_turns + 1):
        ends: set[tuple[int, ...]] = set()
        stack = [list(s) for s in frontier]
        while stack:
            s = stack.pop()
            for action in TE.legal(s, deck_list):
                c = s[:]
                TE.apply(c, deck_list, action)
                if c[TE.PHASE] == TE.PH_OVER:
                    if c[TE.WINNER] == player:
                        return turn
                    continue
                if c[TE.PHASE] == TE.PH_FLIP:
                    TE.advance_to(c, deck_list, player)
                    if c[TE.PHASE] != TE.PH_OVER:
                        ends.add(tuple(c))
                else:
                    stack.append(c)
        frontier = ends
    return None


def _decisions(state: MemorinthState, player: int, buf: np.ndarray, turns: int) -> int:
    """How many entries of ``buf`` the kernel's solution uses (replay until the player has left)."""
    copy = state.clone()
    for i, action in enumerate(buf):
        if copy.current_player() != player:
            _advance(copy, player)
        copy.apply_action(int(action))
        if copy.is_terminal():
            return i + 1
    raise AssertionError("the kernel's solution does not end with an escape")


def solve(game: MemorinthGame, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
    """The proven shortest escape (MR-26) of a state (JSON or notation), or of ``{"state", "player", "maxDepth"}``;
    ``maxDepth`` and ``player`` may also come as options (``solve --max-depth/--player``)."""
    if options:
        if isinstance(payload, dict) and "state" in payload:
            clash = sorted(set(options) & set(payload))
            if clash:
                raise InvalidInputError(f"options.{clash[0]}", options[clash[0]],
                                        f"also given in the problem object ({clash[0]!r})")
            payload = {**payload, **options}
        else:
            payload = {"state": payload, **options}
    player, max_depth = None, 30
    if isinstance(payload, dict) and "state" in payload:
        obj = as_object(payload, "state")
        check_keys(obj, ("state", "player", "maxDepth"), "state")
        player = obj.get("player")
        max_depth = as_int(obj.get("maxDepth", 30), join("state", "maxDepth"), 1, 64)
        state = game.parse_state(get(obj, "state", "state"), "state.state")
    else:
        state = game.parse_state(payload)
    if player is not None:
        player = as_int(player, join("state", "player"), 0, state.rules.players - 1)
    return escape_result(game.name, shortest_escape(state, player, max_depth=max_depth, ctx=ctx))


def escape_result(game_name: str, escape: Any, during_search: bool = False) -> SolveResult:
    """A shortest escape as a ``SolveResult`` (the engine's and ``solve --json``'s answer; an interim report's
    with ``during_search``).

    ``NO_ESCAPE`` (the piece can never leave) and ``OPTIMAL`` are proofs: status ``EXHAUSTIVE``. No escape
    within ``maxDepth`` proves only that none is that short: status ``LIMIT``, ``limit`` ``maxDepth`` and the
    proven lower bound (issue 16: it was reported as ``NO_ESCAPE`` and ``EXHAUSTIVE``).
    """
    bound = None if escape.lower_bound >= INF_BOUND else escape.lower_bound
    status = {"OPTIMAL": "EXHAUSTIVE", "NO_ESCAPE": "EXHAUSTIVE", "NONE_WITHIN_MAX_DEPTH": "LIMIT",
              "LIMIT": "LIMIT"}[escape.status]
    solution = escape.to_json()
    solution["result"] = escape.status
    if escape.status == "NONE_WITHIN_MAX_DEPTH":
        solution["limit"] = "maxDepth"
    return SolveResult(game=game_name, value=escape.turns, optimal=escape.optimal, bound=bound, status=status,
                       seconds=escape.seconds, solution=solution, is_during_search=during_search)


def score(game: MemorinthGame, payload: Any, **options: Any) -> dict[str, Any]:
    """The race (``docs/formats/memorinth.md``): from a view, the paths as they lie (no shortest escape, which
    needs every underside)."""
    return race_report(game.parse_position(payload))


def race_report(position: MemorinthState | MemorinthView) -> dict[str, Any]:
    """``score``: where each piece stands in the race: its fewest moves out along the face-up paths (public) and,
    in a full state, each shortest solitaire escape (a view lacks the undersides it needs)."""
    view = isinstance(position, MemorinthView)
    if position.setup is not None and not view:
        raise UnsupportedActionError("state", "setup", "deal the game first")
    dist = np.zeros(25, dtype=np.int32)
    kernel.escape_distances(position.vec, position.deck_table, dist)
    players = []
    for p in range(position.rules.players):
        cell = int(position.vec[PIECE + p])
        entry: dict[str, Any] = {"player": p, "colour": R.COLOURS[p],
                                 "cell": "out" if cell == R.OUT else R.cell_name(cell)}
        if cell != R.OUT and position.setup is None:
            entry["pathDistance"] = int(dist[cell]) if dist[cell] >= 0 else None
            if not view and not position.is_terminal() and (p == position.current_player()
                                                            or position.phase == "flip"):
                entry["shortestEscape"] = _escape_entry(position, p)
        players.append(entry)
    report = {"players": players, "winner": position.winner(), "over": position.is_terminal()}
    if view:
        report["view"] = position.observer
    report["pathDistanceMeaning"] = "fewest moves out along the paths as they lie now (characters ignored)"
    report["shortestEscapeMeaning"] = "needs the full state (every underside): not given for a player's view" \
        if view else MODEL
    return report


def _escape_entry(state: MemorinthState, player: int) -> dict[str, Any]:
    """A quick shortest escape for ``score`` (at most 200 ms and 300,000 nodes, 20 own turns)."""
    ctx = SearchContext()
    ctx.limits = ctx.limits.with_defaults(200, 300_000)
    escape = shortest_escape(state, player, max_depth=20, ctx=ctx)
    return {"turns": escape.turns, "status": escape.status, "lowerBound": escape.to_json()["lowerBound"]}
