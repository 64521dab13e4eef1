"""The service layer: the one way from a front door to a game (``docs/architecture.md``).

The front doors (the command line, the JSON-lines engine, the Python API, the web board) parse their input
into a typed request (:class:`HintRequest`, :class:`SolveRequest`, ... one per action) and print or send its
answers. Everything in between happens here, once:

- **a position is parsed once** (a record gives its final position) and the moves are applied to it; the
  positions of recent engine queries are remembered (:class:`Positions`), so a query that repeats or extends an
  earlier one (the web board sends the start and every move so far) applies only the moves that are new;
- **every bound is written once** (:data:`solver.validate.SEED`, :data:`~solver.validate.TOP`, ...) and checked
  here, the field named as the front door calls it (:class:`Names`: ``--seed`` on the command line, ``seed`` in
  a query, ``limits.time_ms`` in a query's limits);
- **limits**: the game's default time unless a node budget alone is given, then the caller's cap
  (:func:`limits_for`); the search context of a request is made in one place (:func:`context`);
- **what a verb needs is loaded before its clock starts** (:func:`run`: ``contract.prepare``);
- the game is reached only through :mod:`solver.contract`: no front door imports it.

:func:`run` is the one place an action runs: it yields the request's final answers (one per analysed turn for a
hint with ``analyzeTurns``, one per item for a run of puzzles or self-play games, one otherwise). The engine
protocol (``docs/engine.md``) that the engine and the web board speak is read into these requests, and their
answers written back, by ``solver/protocol.py``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from solver import contract
from solver.errors import InvalidInputError, SolverError, UnsupportedActionError
from solver.game import Game, Position, State
from solver.lazynp import np
from solver.record import Record, is_record, record_from_json
from solver.registry import game_listing, load_game
from solver.results import HintResult, SolveResult
from solver.search import Limits, SearchContext, Stopped
from solver.validate import (MISTAKES, NODES, PLAYER, PLAYERS, SEED, TIME_MS,
                             TOP, as_bool, as_choice, as_object, as_str, join)


# ---------------------------------------------------------------------------------------------- field names
@dataclass(frozen=True)
class Names:
    """How a front door names a request's fields in its errors: ``Names({"seed": "--seed"})("seed") == "--seed"``;
    a field not listed keeps its own name."""

    names: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, key: str) -> str:
        return self.names.get(key, key)


#: the engine protocol's names
QUERY = Names({"time_ms": "limits.time_ms", "nodes": "limits.nodes"})
#: the Python API: its keyword arguments
API = Names({})


# ---------------------------------------------------------------------------------------------- limits
def limits_of(time_ms: Any = None, nodes: Any = None, names: Names = QUERY) -> Limits:
    """Checked limits (``None``: not given)."""
    return Limits(time_ms=None if time_ms is None else TIME_MS.check(time_ms, names("time_ms")),
                  nodes=None if nodes is None else NODES.check(nodes, names("nodes")))


def limits_for(game: Game, asked: Limits, cap_ms: int | None = None, default_time: bool = True) -> Limits:
    """The limits a search of ``game`` runs under: a node budget alone runs to its end (the answer is then the
    same on every machine); otherwise the game's default time applies (unless ``default_time`` is false: a
    puzzle's generation takes what it takes). ``cap_ms`` (the engine's ``--max-time-ms``, the web board's cap)
    bounds the time whatever was asked."""
    limits = asked
    if default_time and not (asked.nodes is not None and asked.time_ms is None):
        limits = asked.with_defaults(game.default_time_ms)
    if cap_ms is not None and (limits.time_ms is None or limits.time_ms > cap_ms):
        limits = Limits(time_ms=cap_ms, nodes=limits.nodes)
    return limits


# ---------------------------------------------------------------------------------------------- requests
@dataclass(kw_only=True, eq=False, repr=False)
class Request:
    """What every action carries: its game, the limits asked for, the seed and the game's options for the verb."""

    #: the engine protocol's action (a subclass names it: ``class HintRequest(Request, action="hint")``)
    ACTION: ClassVar[str] = ""
    #: the command-line verb (the action with ``-`` for ``_``): the game's options for it (``Option``) and the
    #: module loaded before the clock
    VERB: ClassVar[str] = ""
    #: whether the game's default time applies when no limit is given (a search's does; a generation's not)
    DEFAULT_TIME: ClassVar[bool] = True
    #: whether the action searches; one that only reads or changes a position runs under the caller's cap alone
    SEARCH: ClassVar[bool] = True

    game: Game
    limits: Limits = field(default_factory=Limits)
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def __init_subclass__(cls, *, action: str, search: bool = True, default_time: bool = True,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.ACTION, cls.VERB = action, action.replace("_", "-")
        cls.SEARCH, cls.DEFAULT_TIME = search, default_time

    @property
    def finals(self) -> int:
        """How many final answers the request has (one per analysed turn for a hint with turns)."""
        return 1

    @property
    def limits_each(self) -> bool:
        """Whether the action spreads ``limits`` over its decisions or turns itself (a review's decisions, a hint's
        analysed turns): its context then carries only the caller's cap, which bounds the whole either way."""
        return False

    def __repr__(self) -> str:  # short: a generated one would print whole positions
        spec = None if self.game is None else self.game.spec()
        return f"{type(self).__name__}(game={spec!r}, limits={self.limits!r}, seed={self.seed!r})"


@dataclass(kw_only=True, eq=False, repr=False)
class HintRequest(Request, action="hint"):
    """Rank the moves of ``player`` (default: the player to act) from what that player knows; with ``turns``, one
    hint for each ``(turn number, position)`` (the engine's ``analyzeTurns``)."""

    position: Position
    top: int = 3
    player: int | None = None
    full_information: bool = False
    turns: tuple[tuple[int, Position], ...] = ()

    @property
    def finals(self) -> int:
        return max(1, len(self.turns))

    @property
    def limits_each(self) -> bool:
        return bool(self.turns)


@dataclass(kw_only=True, eq=False, repr=False)
class SolveRequest(Request, action="solve"):
    """The game's optimal search on ``problem`` (a position or the game's problem form), with its proof."""

    problem: Any


@dataclass(kw_only=True, eq=False, repr=False)
class ScoreRequest(Request, action="score", search=False):
    """Where ``problem`` (a position, or the game's scoring form) stands."""

    problem: Any


@dataclass(kw_only=True, eq=False, repr=False)
class LegalMovesRequest(Request, action="legal_moves", search=False):
    """What may be entered next in ``position``."""

    position: Position


@dataclass(kw_only=True, eq=False, repr=False)
class NewRequest(Request, action="new", search=False):
    """A game dealt with ``seed`` (``player``'s view of it when given), or with ``table`` a real table's start as
    ``player`` sees it."""

    player: int | None = None
    table: bool = False


@dataclass(kw_only=True, eq=False, repr=False)
class ViewRequest(Request, action="view", search=False):
    """What ``player`` knows in ``position``."""

    position: Position
    player: int


@dataclass(kw_only=True, eq=False, repr=False)
class ApplyRequest(Request, action="apply", search=False):
    """``position`` advanced by ``moves`` (errors name ``moves_field[i]``); with ``record``, the record extended."""

    position: Position
    moves: tuple[str, ...] = ()
    moves_field: str = "moves"
    record: Record | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class ShowRequest(Request, action="show"):
    """``position`` as a picture (``form="svg"``) or as text (``form="text"``), with a hint drawn or listed:
    ``hint`` is ``True`` (compute one under the request's limits), a hint already computed, or ``None``."""

    position: Position
    hint: bool | HintResult | dict[str, Any] | None = None
    form: str = "svg"


@dataclass(frozen=True, kw_only=True)
class Run:
    """Items ``start .. start+count-1`` of a seeded run, on ``jobs`` local processes or a Ray cluster
    (``solver.scale``: the output is the same)."""

    start: int = 0
    count: int = 1
    jobs: int = 1
    executor: str = "local"
    address: str | None = None
    progress: bool = False


@dataclass(kw_only=True, eq=False, repr=False)
class GenerateRequest(Request, action="generate", default_time=False):
    """Puzzles of ``kind`` and ``difficulty`` from the run seeded ``seed``: puzzle ``index`` made here under the
    request's context, or with ``run`` a whole run (``generate --count N``)."""

    kind: str
    difficulty: str = "medium"
    index: int = 0
    run: Run | None = None

    @property
    def finals(self) -> int:
        return 1 if self.run is None else self.run.count


@dataclass(kw_only=True, eq=False, repr=False)
class CheckRequest(Request, action="check", default_time=False):
    """The verdict on ``answer`` to ``puzzle``, re-proved from the puzzle's position (a proof takes what it takes,
    under the caller's cap)."""

    puzzle: dict[str, Any]
    answer: Any


@dataclass(kw_only=True, eq=False, repr=False)
class ReviewRequest(Request, action="review"):
    """Every decision of ``player`` in ``record`` judged from what that player knew (``limits.time_ms`` caps the
    whole review, ``limits.nodes`` is each decision's budget: :func:`solver.review.review`)."""

    record: Record
    player: int | None = None
    mistakes: int = 3

    @property
    def limits_each(self) -> bool:
        return True


@dataclass(kw_only=True, eq=False, repr=False)
class SampleRequest(Request, action="sample", search=False):
    """A chance outcome of ``state`` drawn from the seed and ``draw`` (the number of moves that led there)."""

    state: State
    draw: int = 0


@dataclass(kw_only=True, eq=False, repr=False)
class GamesRequest(Request, action="games", search=False):
    """Every registered game with its parameters (no game needed: ``game`` is ``None``)."""

    game: Game | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class SelfplayRequest(Request, action="selfplay"):
    """Games of a seeded run between ``policies`` (one result per game)."""

    policies: tuple[str, ...]
    run: Run = field(default_factory=Run)

    @property
    def finals(self) -> int:
        return self.run.count


# ---------------------------------------------------------------------------------------------- answers
class Answer(Protocol):
    """A final (or interim) answer: its body in the engine protocol's JSON form."""

    def to_json(self) -> dict[str, Any]:
        """The answer's JSON body (without the query's ``id`` and ``action``)."""


@dataclass(eq=False, repr=False)
class BodyAnswer:
    """An answer a game or a verb gives as a JSON object (a score, a verdict, a review, a self-play game)."""

    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return dict(self.body)


class ScoreAnswer(BodyAnswer):
    """Where a position stands, as the game counts it."""


class ReviewAnswer(BodyAnswer):
    """A review: each decision, the biggest mistakes first (``docs/records.md``)."""


class SelfplayGame(BodyAnswer):
    """One self-play game: ``outcomes`` per label, and what the game adds."""


class Verdict(BodyAnswer):
    """The verdict on an answer to a puzzle."""

    @property
    def correct(self) -> bool:
        return bool(self.body.get("correct"))


@dataclass(eq=False, repr=False)
class MovesAnswer:
    """What may be entered next."""

    moves: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"moves": list(self.moves)}


@dataclass(eq=False, repr=False)
class PositionAnswer:
    """A position with what a board needs to draw it and take the next move; ``spec`` names the configured game
    (``new``); ``record`` is the record extended by the moves (``apply`` on a record)."""

    position: Position
    spec: str | None = None
    record: Record | None = None

    def to_json(self) -> dict[str, Any]:
        terminal = self.position.is_terminal()
        body: dict[str, Any] = {} if self.spec is None else {"game": self.spec}
        body.update({"state": self.position.to_json(), "notation": self.position.to_notation(),
                     "currentPlayer": self.position.current_player(), "terminal": terminal,
                     "legalMoves": [] if terminal else contract.legal_moves(self.position.game, self.position)})
        waiting = contract.waiting_for(self.position.game, self.position)
        if waiting is not None:
            body["waitingFor"] = waiting
        if self.record is not None:
            body["record"] = self.record.to_json()
        return body


@dataclass(eq=False, repr=False)
class ShowAnswer:
    """A position drawn (``svg``) or described (``text``), with the hint shown on it (``None``: none)."""

    position: Position
    hint: HintResult | dict[str, Any] | None
    svg: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        hint = self.hint.to_json() if isinstance(self.hint, HintResult) else self.hint
        return {"svg": self.svg, "hint": hint} if self.svg is not None else {"text": self.text, "hint": hint}


@dataclass(eq=False, repr=False)
class PuzzleAnswer:
    """A puzzle (``id`` and metadata first), its statement as text and, where the game offers one, the position a
    player answers it from by playing moves."""

    game: Game
    puzzle: dict[str, Any]

    @property
    def text(self) -> str:
        return contract.describe_puzzle(self.game, self.puzzle)

    @property
    def position(self) -> Position | None:
        try:
            return contract.puzzle_position(self.game, self.puzzle)
        except UnsupportedActionError:
            return None

    def to_json(self) -> dict[str, Any]:
        position = self.position
        return {"puzzle": self.puzzle, "text": self.text,
                "position": None if position is None else PositionAnswer(position).to_json()}


@dataclass(eq=False, repr=False)
class SampleAnswer:
    """A chance outcome drawn, with its probability."""

    move: str
    probability: float

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "probability": self.probability}


@dataclass(eq=False, repr=False)
class GamesAnswer:
    """The registered games (``memory-solver games``)."""

    games: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"game": None, "isDuringSearch": False, "games": self.games}


# ---------------------------------------------------------------------------------------------- positions
class Positions:
    """The positions recent queries ended at, so that a query that repeats or extends an earlier one applies only
    the moves that are new (the web board sends the start and every move so far with each query).

    A position is remembered under the game's spec, the start as the query gave it and the moves; at most
    ``size`` are kept (the least recently used leaves first), each as a private copy, and only for queries whose
    start and moves hold at most ``max_chars`` characters (a longer query is answered, not remembered). A move
    that fails is replayed from the start, so its error is the one a replay from the start gives.
    """

    def __init__(self, size: int = 256, max_chars: int = 64 * 1024) -> None:
        self.size = size
        self.max_chars = max_chars
        self._lock = threading.Lock()
        self._order: OrderedDict[tuple[Any, tuple[str, ...]], Position] = OrderedDict()
        self._by_start: dict[Any, set[tuple[str, ...]]] = {}

    def after(self, game: Game, payload: Any, moves: list[str], state_field: str = "state",
              moves_field: str = "moves", stop: Callable[[], None] | None = None) -> Position:
        """The position ``payload`` (parsed by ``game``) advanced by ``moves``: a private copy. ``stop`` is called
        before each move (:func:`stop_check`: a long list of moves ends at the query's cap or ``terminate``)."""
        start = _start_key(game, payload)
        if start is None or len(start[1]) + sum(len(m) for m in moves) > self.max_chars:
            # a position object (the caller holds it already), or a query too long to keep
            return apply_moves(game, game.parse_position(payload, state_field), moves, moves_field, stop)
        done, found = self._longest_prefix(start, moves)
        if found is None:
            found = game.parse_position(payload, state_field)
            self._remember(start, (), found)
        if done == len(moves):
            return found
        try:
            position = apply_moves(game, found, moves[done:], moves_field, stop)
        except SolverError:  # the error names the move's index in the whole list, as a replay from the start does
            apply_moves(game, game.parse_position(payload, state_field), moves, moves_field, stop)
            raise
        self._remember(start, tuple(moves), position)
        return position

    def _longest_prefix(self, start: Any, moves: list[str]) -> tuple[int, Position | None]:
        """The most moves of a remembered prefix of ``moves``, and a copy of its position."""
        with self._lock:
            known = self._by_start.get(start, ())
            best = max((k for k in known if len(k) <= len(moves) and tuple(moves[:len(k)]) == k), key=len,
                       default=None)
            if best is None:
                return 0, None
            self._order.move_to_end((start, best))
            return len(best), self._order[(start, best)].clone()

    def _remember(self, start: Any, moves: tuple[str, ...], position: Position) -> None:
        """Keep a copy of ``position`` (the least recently used leaves when there are too many)."""
        copy = position.clone()
        with self._lock:
            self._order[(start, moves)] = copy
            self._order.move_to_end((start, moves))
            self._by_start.setdefault(start, set()).add(moves)
            while len(self._order) > self.size:
                (old_start, old_moves), _ = self._order.popitem(last=False)
                left = self._by_start[old_start]
                left.discard(old_moves)
                if not left:
                    del self._by_start[old_start]


def _start_key(game: Game, payload: Any) -> Any:
    """What a start is remembered under: the game and the payload as text (``None``: a position object)."""
    if isinstance(payload, str):
        return game.spec(), payload
    if isinstance(payload, (dict, list)):
        try:
            return game.spec(), json.dumps(payload, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return None
    return None


def apply_moves(game: Game, position: Position, moves: list[str] | tuple[str, ...], field: str = "moves",
                stop: Callable[[], None] | None = None) -> Position:
    """A copy of ``position`` advanced by ``moves`` (the game's rules of entry: ``Game.apply``, which enters a view's
    forced masked entries implicitly, even with no move given); ``stop`` is called before each move."""
    return game.apply(position, list(moves), field, stop)


#: the positions of the engine's and the web board's recent queries (one set per process)
POSITIONS = Positions()


def position_of(game: Game, payload: Any, field: str = "state") -> Position:
    """A position from a payload: a state or a view (an object, its JSON, JSON text or notation), or a game
    record's object form (its final position)."""
    if is_record(payload):
        return record_from_json(payload, field).final_position(game)
    return game.parse_position(payload, field)


def problem_of(game: Game, payload: Any, field: str = "state") -> Any:
    """A solve or score problem: a record gives its final position; anything else goes to the game as it is."""
    return record_from_json(payload, field).final_position(game) if is_record(payload) else payload


# ---------------------------------------------------------------------------------------------- what a game declares
# The command line builds its parsers from what each game declares (``solver.options``) and prints a result with
# the game's own text; these are the contract's readers, offered here so that no front door calls the contract.
verb_options = contract.verb_options
verb_notes = contract.verb_notes
verb_aliases = contract.verb_aliases
flag_aliases = contract.flag_aliases
notation_start = contract.notation_start
puzzle_kinds = contract.puzzle_kinds
selfplay_policies = contract.selfplay_policies
selfplay_default = contract.selfplay_default
game_commands = contract.commands
waiting_for = contract.waiting_for
player_name = contract.player_name
demo_examples = contract.demo
render_text = contract.render_text


# ---------------------------------------------------------------------------------------------- checks
def check_seed(value: Any, names: Names = QUERY) -> int:
    """A seed: an integer from 0 to 2**63-1."""
    return SEED.check(value, names("seed"))


def check_player(value: Any, names: Names = QUERY, required: bool = False,
                 problem: str = "missing required field") -> int | None:
    """A player number (``None`` when not given and not ``required``)."""
    if value is None:
        if required:
            raise InvalidInputError(names("player"), problem=problem)
        return None
    return PLAYER.check(value, names("player"))


def options_from_json(game: Game, verb: str, value: Any, field_name: str = "options") -> dict[str, Any]:
    """A query's ``options`` object, checked against the game's options for ``verb``."""
    if value is None:
        return {}
    obj = as_object(value, field_name)
    known = {option.key: option for option in contract.verb_options(game, verb)}
    for key in obj:
        if key not in known or not known[key].engine:
            allowed = ", ".join(sorted(k for k, o in known.items() if o.engine)) or "none"
            raise InvalidInputError(join(field_name, key), key, f"unknown option for {game.name} {verb} (known: "
                                    f"{allowed})" + (" (a command-line option)" if key in known else ""))
    return {key: known[key].check(item, join(field_name, key)) for key, item in obj.items()}


def puzzle_kind(game: Game, kind: Any, difficulty: Any, options: dict[str, Any], names: Names = QUERY,
                ) -> tuple[str, str]:
    """The checked ``(kind, difficulty)`` of a puzzle request, with the game's options folded in (Memorinth
    ``--turns 4`` is the kind ``escape-in-4``)."""
    from solver.puzzles import DIFFICULTIES  # lazy: start-up (a hint needs no puzzle run)
    kinds = contract.puzzle_kinds(game)
    if not kinds:
        raise UnsupportedActionError("action", "generate", f"{game.name} has no puzzles")
    kind = as_choice(kinds[0] if kind is None else kind, names("kind"), kinds)
    difficulty = as_choice(difficulty, names("difficulty"), DIFFICULTIES)
    return contract.puzzle_request(game, kind, difficulty, **options)


def puzzle_of_id(text: Any, game: Game | None = None, field_name: str = "id") -> GenerateRequest:
    """The request that makes the puzzle with id ``text`` again (``game``: it must be a puzzle of that game)."""
    from solver.puzzles import parse_puzzle_id  # lazy: start-up (a hint needs no puzzle run)
    spec, kind, difficulty, seed, index = parse_puzzle_id(text, field_name, game)
    return GenerateRequest(game=load_game(spec, field_name), kind=kind, difficulty=difficulty, seed=seed, index=index)


def check_run_of(seed: int, run: Run) -> None:
    """A run's flags (errors name the flag)."""
    from solver.scale import check_run  # lazy: start-up (a hint needs no run of many items)
    check_run(seed, run.start, run.count, run.jobs, run.executor, run.address)


# ---------------------------------------------------------------------------------------------- running
def stop_check(cancel: threading.Event | None, deadline: float | None) -> Callable[[], None]:
    """A check for the loops of a query outside its search (the moves it applies, the turns it analyses): it raises
    :class:`solver.search.Stopped` once ``cancel`` is set or ``deadline`` (``time.perf_counter()``) has passed."""
    def stop() -> None:
        if (cancel is not None and cancel.is_set()) or (deadline is not None and time.perf_counter() >= deadline):
            raise Stopped
    return stop


def context_stop(ctx: SearchContext) -> Callable[[], None]:
    """:func:`stop_check` for the cancel event and the time limit of ``ctx``."""
    limit = ctx.limits.time_ms
    return stop_check(ctx.cancel, None if limit is None else ctx.started + limit / 1000)


def context(request: Request, cap_ms: int | None = None, cancel: threading.Event | None = None,
            report: Callable[[Any], None] | None = None, report_every: float | None = None) -> SearchContext:
    """The search context of ``request``: its limits (:func:`limits_for`; for an action whose limits apply to each
    decision, only ``cap_ms``: the whole action's), its seed, the cancel event that ``terminate`` sets and where
    interim reports go."""
    if request.limits_each or not request.SEARCH:
        limits = Limits(time_ms=cap_ms)
    else:
        limits = request.limits if request.game is None else \
            limits_for(request.game, request.limits, cap_ms, request.DEFAULT_TIME)
    return SearchContext(limits=limits, seed=request.seed, cancel=cancel or threading.Event(), report=report,
                         report_every=report_every)


def run(request: Request, ctx: SearchContext) -> Iterator[Answer]:
    """Every final answer of ``request``, in order. What the verb needs (a compiled kernel's first import) is
    loaded first; the clock of ``ctx`` starts after it."""
    if request.game is not None:
        contract.prepare(request.game, request.VERB)
    ctx.started = time.perf_counter()
    return _RUNNERS[type(request)](request, ctx)


def answer(request: Request, ctx: SearchContext | None = None) -> Any:
    """The one final answer of a request that has one (the Python API, the command line)."""
    found = list(run(request, ctx or context(request)))
    return found[0]


def _hint(request: HintRequest, ctx: SearchContext) -> Iterator[Answer]:
    def one(position: Position, search: SearchContext) -> HintResult:
        return contract.hint(request.game, position, search, top=request.top, player=request.player,
                             full_information=request.full_information, **request.options)
    if not request.turns:
        yield one(request.position, ctx)
        return
    each, deadline = _each(request, ctx)
    for turn, position in request.turns:  # each turn its own limits and clock, all of them under the cap
        if ctx.cancelled or (deadline is not None and time.perf_counter() >= deadline):
            yield UnsearchedTurn(turn, timed_out=not ctx.cancelled)  # no search begins past the cap or a terminate
            continue
        search = SearchContext(limits=each.until(deadline), report=ctx.report, report_every=ctx.report_every,
                               cancel=ctx.cancel, seed=ctx.seed)
        yield TurnAnswer(one(position, search), turn)


def _each(request: Request, ctx: SearchContext) -> tuple[Limits, float | None]:
    """The limits of each decision or turn of a request whose limits apply to each, and the deadline of the whole
    (``ctx`` carries the caller's cap: :func:`context`)."""
    cap = ctx.limits.time_ms
    return limits_for(request.game, request.limits, cap), None if cap is None else ctx.started + cap / 1000


@dataclass(eq=False, repr=False)
class TurnAnswer:
    """The hint of one analysed turn (``analyzeTurns``)."""

    result: HintResult
    turn: int

    def to_json(self) -> dict[str, Any]:
        return {**self.result.to_json(), "turnNumber": self.turn}


@dataclass(eq=False, repr=False)
class UnsearchedTurn:
    """The final answer of an analysed turn reached after the query's cap ran out (``timedOut``) or after it was
    terminated (the engine adds ``terminated``): every turn gets its answer, none gets a search."""

    turn: int
    timed_out: bool

    def to_json(self) -> dict[str, Any]:
        return {"noResults": True, **({"timedOut": True} if self.timed_out else {}), "turnNumber": self.turn}


def _solve(request: SolveRequest, ctx: SearchContext) -> Iterator[Answer]:
    yield contract.solve(request.game, request.problem, ctx, **request.options)


def _score(request: ScoreRequest, ctx: SearchContext) -> Iterator[Answer]:
    yield ScoreAnswer(dict(contract.score(request.game, request.problem, **request.options)))


def _legal_moves(request: LegalMovesRequest, ctx: SearchContext) -> Iterator[Answer]:
    yield MovesAnswer(contract.legal_moves(request.game, request.position))


def _new(request: NewRequest, ctx: SearchContext) -> Iterator[Answer]:
    game = request.game
    if request.table:
        position: Position = game.new_table(request.player, **request.options)
    else:
        position = game.new_game(request.seed, **request.options)
        if request.player is not None:
            position = position.view(request.player)
    yield PositionAnswer(position, spec=game.spec())


def _view(request: ViewRequest, ctx: SearchContext) -> Iterator[Answer]:
    yield PositionAnswer(request.position.view(request.player))


def _apply(request: ApplyRequest, ctx: SearchContext) -> Iterator[Answer]:
    position = apply_moves(request.game, request.position, request.moves, request.moves_field, context_stop(ctx))
    record = None if request.record is None else request.record.extended(list(request.moves), stamp=False)
    yield PositionAnswer(position, record=record)


def _show(request: ShowRequest, ctx: SearchContext) -> Iterator[Answer]:
    position = request.position
    hint = request.hint
    if hint is True:
        hint = contract.hint(position.game, position, ctx, top=3)
    elif hint is False:
        hint = None
    if request.form == "svg":
        from solver.drawing import svg  # lazy: start-up (xml.sax loads urllib; only pictures need it)
        yield ShowAnswer(position, hint, svg=svg(position.game, position, hint=hint, **request.options))
    else:
        yield ShowAnswer(position, hint, text=contract.describe(position.game, position))


def _generate(request: GenerateRequest, ctx: SearchContext) -> Iterator[Answer]:
    from solver.puzzles import generate, make_puzzle  # lazy: start-up (a hint needs no puzzle run)
    game = request.game
    if request.run is None:
        return iter([PuzzleAnswer(game, make_puzzle(game, request.kind, request.difficulty, request.seed,
                                                    request.index, ctx))])
    run_ = request.run
    puzzles = generate(game, request.kind, request.difficulty, seed=request.seed, start=run_.start,
                               count=run_.count, jobs=run_.jobs, executor=run_.executor, address=run_.address,
                               progress=run_.progress)  # checked now; made one by one as they are read
    return (PuzzleAnswer(game, puzzle) for puzzle in puzzles)


def _check(request: CheckRequest, ctx: SearchContext) -> Iterator[Answer]:
    from solver.puzzles import check  # lazy: start-up (a hint needs no puzzle run)
    yield Verdict(check(request.game, request.puzzle, request.answer, ctx=ctx))


def _review(request: ReviewRequest, ctx: SearchContext) -> Iterator[Answer]:
    from solver.review import review  # lazy: start-up (a hint needs no review)
    report = None
    if ctx.report is not None:
        def report(partial: dict[str, Any]) -> None:
            ctx.maybe_report(lambda: ReviewAnswer(partial))
    cap = ctx.limits.time_ms  # the caller's cap on the whole review (context); time_ms caps it too (review)
    deadline = None if cap is None else ctx.started + cap / 1000
    yield ReviewAnswer(review(request.game, request.record, request.player, limits=request.limits, seed=request.seed,
                              mistakes=request.mistakes, cancel=ctx.cancel, report=report, deadline=deadline))


def _sample(request: SampleRequest, ctx: SearchContext) -> Iterator[Answer]:
    position = request.state
    if not position.is_chance_node():
        raise InvalidInputError("state", position.to_notation()[:80], "no chance outcome comes next here")
    outcomes = position.chance_outcomes()
    rng = np.random.default_rng([request.seed, request.draw])
    probs = np.asarray([p for _, p in outcomes], dtype=float)
    pick = int(rng.choice(len(outcomes), p=probs / probs.sum()))
    action, probability = outcomes[pick]
    yield SampleAnswer(position.action_to_string(action), probability)


def _games(request: GamesRequest, ctx: SearchContext) -> Iterator[Answer]:
    yield GamesAnswer(game_listing())


def _selfplay(request: SelfplayRequest, ctx: SearchContext) -> Iterator[Answer]:
    from solver.selfplay import selfplay  # lazy: start-up (a hint needs no self-play run)
    run_ = request.run
    games = selfplay(request.game, request.policies, seed=request.seed, start=run_.start, count=run_.count,
                       options=request.options, jobs=run_.jobs, executor=run_.executor, address=run_.address,
                       progress=run_.progress)  # checked now; played one by one as they are read
    return (SelfplayGame(item) for item in games)


_RUNNERS: dict[type, Callable[[Any, SearchContext], Iterator[Answer]]] = {
    HintRequest: _hint, SolveRequest: _solve, ScoreRequest: _score, LegalMovesRequest: _legal_moves,
    NewRequest: _new, ViewRequest: _view, ApplyRequest: _apply, ShowRequest: _show, GenerateRequest: _generate,
    CheckRequest: _check, ReviewRequest: _review, SampleRequest: _sample, GamesRequest: _games,
    SelfplayRequest: _selfplay,
}


# ---------------------------------------------------------------------------------------------- building requests
def selfplay_request(game: Game, policies: str | tuple[str, ...] | list[str] | None, *, seed: Any = 0, run_: Run = Run(),
                     options: dict[str, Any] | None = None, names: Names = QUERY) -> SelfplayRequest:
    """A self-play run, checked: the policies are the game's, the run's flags in range."""
    from solver.selfplay import parse_policies  # lazy: start-up (a hint needs no self-play run)
    chosen = parse_policies(game, policies if policies is None or isinstance(policies, str) else ",".join(policies),
                            names("policies"))
    request = SelfplayRequest(game=game, policies=chosen, seed=check_seed(seed, names), options=dict(options or {}),
                              run=run_)
    check_run_of(request.seed, run_)
    return request


def hint_request(game: Game, position: Position, *, top: Any = 3, player: Any = None, full_information: Any = False,
                 time_ms: Any = None, nodes: Any = None, seed: Any = 0, options: dict[str, Any] | None = None,
                 names: Names = QUERY) -> HintRequest:
    """A hint, checked (``top`` from 1 to 1000, ``player`` a player number, the limits and the seed)."""
    return HintRequest(game=game, position=position, top=TOP.check(top, names("top")),
                       player=check_player(player, names), full_information=as_bool(full_information,
                                                                                  names("fullInformation")),
                       limits=limits_of(time_ms, nodes, names), seed=check_seed(seed, names),
                       options=dict(options or {}))


def review_request(game: Game, record: Any, *, player: Any = None, mistakes: Any = 3, time_ms: Any = None,
                   nodes: Any = None, seed: Any = 0, names: Names = QUERY) -> ReviewRequest:
    """A review of ``record`` (a :class:`~solver.record.Record` or its object form), checked."""
    rec = record if isinstance(record, Record) else record_from_json(record, names("record"))
    return ReviewRequest(game=game, record=rec, player=check_player(player, names),
                         mistakes=MISTAKES.check(mistakes, names("mistakes")), limits=limits_of(time_ms, nodes, names),
                         seed=check_seed(seed, names))


def new_request(game: Game, *, seed: Any = 0, player: Any = None, table: bool = False, players: Any = None,
                mode: Any = None, options: dict[str, Any] | None = None, names: Names = QUERY) -> NewRequest:
    """A new game (``players`` and ``mode`` configure ``game``), checked."""
    configured = game.configure(players=None if players is None else PLAYERS.check(players, names("players")),
                                mode=None if mode is None else as_str(mode, names("mode")))
    player = check_player(player, names, required=table, problem="a real table needs the player whose view it is")
    return NewRequest(game=configured, seed=check_seed(seed, names), player=player, table=table,
                      options=dict(options or {}))


__all__ = [
    "API", "Answer", "ApplyRequest", "BodyAnswer", "CheckRequest", "GamesAnswer", "GamesRequest", "GenerateRequest",
    "HintRequest", "LegalMovesRequest", "MovesAnswer", "Names", "NewRequest", "POSITIONS", "Position",
    "PositionAnswer", "Positions", "PuzzleAnswer", "QUERY", "Request", "ReviewAnswer", "ReviewRequest", "Run",
    "SampleAnswer", "SampleRequest", "ScoreAnswer", "ScoreRequest", "SelfplayGame", "SelfplayRequest", "ShowAnswer",
    "ShowRequest", "SolveRequest", "SolveResult", "TurnAnswer", "UnsearchedTurn", "Verdict", "ViewRequest", "answer",
    "apply_moves", "check_player", "check_run_of", "check_seed", "context", "context_stop", "demo_examples",
    "flag_aliases", "game_commands", "hint_request", "limits_for", "limits_of", "new_request", "notation_start",
    "options_from_json", "player_name", "position_of", "problem_of", "puzzle_kind", "puzzle_kinds", "puzzle_of_id", "render_text",
    "review_request", "run", "selfplay_default", "selfplay_policies", "selfplay_request", "stop_check",
    "verb_aliases", "verb_notes", "verb_options", "waiting_for",
]
