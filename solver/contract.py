"""The one place the shared layer asks a game for anything beyond its rules (``docs/architecture.md``).

A game is a package: ``game.py`` holds the rules (:class:`solver.game.Game`), and each capability lives in a
module of a fixed name that the shared layer finds by convention: ``hints.py`` (``hint_view``, ``hint_full``,
``REVIEW_GRADES``, ``decided``), ``solve.py`` (``solve``, ``score``), ``puzzles.py`` (``KINDS``, ``GAMES``, ``generate``,
``check``, ``describe``, ``answer``, ``position``, ``request``), ``selfplay.py`` (``POLICIES``, ``DEFAULT``,
``play``), ``picture.py`` (``svg``, ``puzzle_svg``), ``text.py`` (``describe``, ``render``, ``turn_label``,
``player_name``), ``notation.py`` (``START``) and ``commands.py`` (``OPTIONS``, ``NOTES``, ``ALIASES``, ``FLAG_ALIASES``,
``COMMANDS``, ``DEMO``). A game without a capability does not define it, and the action is answered with
:class:`~solver.errors.UnsupportedActionError`.

Modules are imported by name (``importlib``), so a game never imports the layer that drives it and no game
module is loaded before it is needed.

"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game, State, View
from solver.lazynp import np
from solver.options import Command, Example, Option
from solver.results import HintResult, SolveResult
from solver.search import SearchContext

#: the module each shared verb needs loaded before its clock starts (a compiled kernel's first import)
VERB_MODULES = {"hint": "hints", "solve": "solve", "score": "solve", "generate": "puzzles", "check": "puzzles",
                "selfplay": "selfplay", "review": "hints", "show": "picture"}


# ---------------------------------------------------------------------------------------------- finding parts
def package_of(game: Game | type[Game]) -> str:
    """The game's package (``solver.forgotten``): the package of the module that defines its class."""
    cls = game if isinstance(game, type) else type(game)
    module = cls.__module__
    return module.rpartition(".")[0] or module


def part(game: Game | type[Game], name: str) -> ModuleType | None:
    """The game's module ``name`` (``hints``, ``puzzles``, ...), or ``None`` when the game has none."""
    full = f"{package_of(game)}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise


def _find(game: Game | type[Game], module: str, name: str, default: Any = None) -> Any:
    """``name`` in the game's module ``module``, or ``default`` when either is missing."""
    found = part(game, module)
    return default if found is None else getattr(found, name, default)


def _function(game: Game, module: str, name: str, action: str) -> Any:
    found = _find(game, module, name)
    if found is None:
        raise UnsupportedActionError("action", action, f"{game.name} has no {action}")
    return found


def prepare(game: Game, verb: str) -> None:
    """Load what ``verb`` needs (its module and the kernels it imports) before its time limit starts."""
    module = VERB_MODULES.get(verb)
    if module is not None:
        part(game, module)


# ---------------------------------------------------------------------------------------------- hints and solving
def hint(game: Game, position: Any, ctx: SearchContext, *, top: int = 3, player: int | None = None,
         full_information: bool = False, **options: Any) -> HintResult:
    """Rank the moves of ``player`` (default: the player to act), from what that player knows.

    A hint on a state for player ``p`` is, by definition, the hint on ``state.view(p)``: both reach
    :func:`hint_view` with the same view, budget and seed, so they are identical. ``full_information``
    analyses the full state instead (:func:`hint_full`) and says so in ``rootInfo``.
    """
    position = game.parse_position(position)
    if isinstance(position, View):
        if full_information:
            raise InvalidInputError("fullInformation", True, "a view has no hidden cards to reveal; give the "
                                                             "full state for a full-information analysis")
        if player is not None and player != position.observer:
            position = position.view(player)   # refused unless the rules let one view give another's
        return hint_view(game, position, ctx, top=top, **options)
    if full_information:
        return hint_full(game, position, ctx, top=top, player=player, **options)
    who = position.default_observer() if player is None else player
    return hint_view(game, position.view(who), ctx, top=top, **options)


def hint_view(game: Game, view: View, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
    """Rank the moves of ``view.observer`` from that view alone."""
    return _function(game, "hints", "hint_view", "hint")(game, view, ctx, top=top, **options)


def hint_full(game: Game, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
              **options: Any) -> HintResult:
    """A full-information analysis (``rootInfo.fullInformation`` true)."""
    found = _find(game, "hints", "hint_full")
    if found is None:
        raise UnsupportedActionError("fullInformation", True, f"{game.name} offers no full-information analysis")
    return found(game, state, ctx, top=top, player=player, **options)


def solve(game: Game, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
    """The game's optimal search on ``payload``, with its proof."""
    return _function(game, "solve", "solve", "solve")(game, payload, ctx, **options)


def score(game: Game, payload: Any, **options: Any) -> dict[str, Any]:
    """Where the position ``payload`` stands: scores, status, result."""
    return _function(game, "solve", "score", "score")(game, payload, **options)


def legal_moves(game: Game, payload: Any) -> list[str]:
    """What may be entered next in the state or view described by ``payload``."""
    return game.legal_moves(payload)


# ---------------------------------------------------------------------------------------------- puzzles
def puzzle_kinds(game: Game | type[Game]) -> tuple[str, ...]:
    """The puzzle kinds ``generate --kind`` offers; the first is the default."""
    return tuple(_find(game, "puzzles", "KINDS", ()))


def puzzle_games(game: Game | type[Game]) -> dict[str, str]:
    """The game spec the web board makes a kind's puzzles on, for kinds the default game cannot have."""
    return dict(_find(game, "puzzles", "GAMES", {}))


def generate_puzzle(game: Game, kind: str, difficulty: str, rng: np.random.Generator,
                    ctx: SearchContext | None = None) -> dict[str, Any]:
    """One puzzle drawn from ``rng`` (the puzzle object without ``id``); stops with ``Stopped`` when ``ctx`` says."""
    return _function(game, "puzzles", "generate", "generate")(game, kind, difficulty, rng, ctx or SearchContext())


def puzzle_request(game: Game, kind: str, difficulty: str, **options: Any) -> tuple[str, str]:
    """The ``(kind, difficulty)`` that ``generate``'s game options ask for (Memorinth ``--turns 4``)."""
    found = _find(game, "puzzles", "request")
    return (kind, difficulty) if found is None else found(game, kind, difficulty, **options)


def check_puzzle(game: Game, puzzle: dict[str, Any], answer: Any, ctx: SearchContext | None = None) -> dict[str, Any]:
    """``{"correct": bool, "message": str, ...}`` for ``answer`` to ``puzzle`` (re-proved, never trusted); the proof
    stops with ``Stopped`` when ``ctx`` says (a puzzle sent to a server may be one whose proof never ends)."""
    return _function(game, "puzzles", "check", "check")(game, puzzle, answer, ctx or SearchContext())


def puzzle_position(game: Game, puzzle: dict[str, Any]) -> State | View:
    """The position a player answers ``puzzle`` from by playing moves."""
    found = _find(game, "puzzles", "position")
    if found is None:
        raise UnsupportedActionError("action", "puzzle", f"{game.name} puzzles are not answered by moves")
    return found(game, puzzle)


def describe_puzzle(game: Game, puzzle: dict[str, Any]) -> str:
    """The puzzle's statement as text for a person (never its answer)."""
    return _function(game, "puzzles", "describe", "generate")(game, puzzle)


def puzzle_answer(game: Game, puzzle: dict[str, Any]) -> str:
    """The proven answer of ``puzzle`` as a line of text (for the answers page)."""
    return _function(game, "puzzles", "answer", "generate")(game, puzzle)


# ---------------------------------------------------------------------------------------------- self-play
def selfplay_policies(game: Game | type[Game]) -> tuple[str, ...]:
    """Policy names ``selfplay --policies`` accepts."""
    return tuple(_find(game, "selfplay", "POLICIES", ()))


def selfplay_default(game: Game | type[Game]) -> tuple[str, ...]:
    """The default ``--policies``."""
    return tuple(_find(game, "selfplay", "DEFAULT", ()))


def selfplay_game(game: Game, policies: tuple[str, ...], rng: np.random.Generator,
                  ctx: SearchContext | None = None, **options: Any) -> dict[str, Any]:
    """One seeded deal played by ``policies`` (``outcomes`` per label, and what the game adds)."""
    return _function(game, "selfplay", "play", "selfplay")(game, policies, rng, ctx or SearchContext(), **options)


# ---------------------------------------------------------------------------------------------- pictures and text
#: the layouts of every game's picture (``show --layout``, the engine's ``"options": {"layout": "narrow"}``):
#: ``narrow`` is a phone's, drawn by a game whose ``picture.LAYOUTS`` names it; any other game draws its wide one
LAYOUTS = ("wide", "narrow")
#: the options every game's ``show`` takes
SHOW_OPTIONS = (Option("layout", "--layout", str, "wide", "the picture's layout: wide, or narrow for a phone's "
                       "screen (text stays legible in a picture about 360 wide; a game without a narrow picture "
                       "draws its wide one)", choices=LAYOUTS),)


def svg(game: Game, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """A standalone SVG picture of ``position`` with ``hint`` drawn on it (``layout``: see :data:`LAYOUTS`)."""
    layout = options.pop("layout", "wide")
    if layout != "wide" and layout in picture_layouts(game):
        options["layout"] = layout
    return _function(game, "picture", "svg", "svg")(game, position, hint=hint, **options)


def picture_layouts(game: Game | type[Game]) -> tuple[str, ...]:
    """The layouts the game's picture draws (``picture.LAYOUTS``; the wide one only by default)."""
    return tuple(_find(game, "picture", "LAYOUTS", ("wide",)))


def puzzle_svg(game: Game, puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable picture of ``puzzle``, or of its solution."""
    found = _find(game, "picture", "puzzle_svg")
    if found is None:
        raise UnsupportedActionError("action", "svg", f"{game.name} has no puzzle pictures")
    return found(game, puzzle, solution=solution)


def describe(game: Game, position: State | View, player: int | None = None) -> str:
    """``position`` (or ``player``'s view of it) as text for a person (``show``)."""
    if player is not None and isinstance(position, State):
        position = position.view(player)
    found = _find(game, "text", "describe")
    return position.to_notation() + "\n" if found is None else found(game, position)


def render_text(game: Game, verb: str, result: Any) -> str | None:
    """The text form of a verb's result for a person, or ``None`` for the generic ``key: value`` lines."""
    found = _find(game, "text", "render")
    return None if found is None else found(verb, result)


def turn_label(game: Game, position: State | View) -> str | None:
    """The game's own name for the turn of ``position`` (``turn 6, second flip``, ``round 3``): ``text.turn_label``;
    ``None`` for a game without one."""
    found = _find(game, "text", "turn_label")
    return None if found is None else found(game, position)


def has_player_names(game: Game | type[Game]) -> bool:
    """Whether the game names its players itself (``text.player_name``) rather than numbering its seats."""
    return _find(game, "text", "player_name") is not None


def player_name(game: Game, player: int) -> str:
    """What the game calls ``player`` (Embers: ``Fenrys``, ``Aelin``): the game's ``text.player_name``, else
    ``Seat N``."""
    found = _find(game, "text", "player_name")
    return f"Seat {player}" if found is None else found(game, player)


def waiting_for(game: Game, position: State | View) -> str | None:
    """What a view waits for when its next entry is an outcome the table shows (a card turned up, a tile flipped), in
    words, with how to enter it: the game's ``text.waiting``, else the entries it takes; ``None`` when it waits for
    no outcome."""
    if not isinstance(position, View) or position.is_terminal() or not position.is_chance_node():
        return None
    found = _find(game, "text", "waiting")
    words = None if found is None else found(game, position)
    if words:
        return words
    moves = position.legal_moves()
    shown = ", ".join(f"'{m}'" for m in moves[:5]) + (f" ... ({len(moves)} entries)" if len(moves) > 5 else "")
    return f"what the table shows next: enter {shown}"


def review_grades(game: Game | type[Game]) -> Any:
    """The least loss a review grades inaccuracy, mistake and blunder, in the units the game's hint shows
    (``hints.REVIEW_GRADES``: one triple, or one per ``rootInfo.valueUnit``); ``None`` for a game without them (any
    significant loss is then a mistake)."""
    grades = _find(game, "hints", "REVIEW_GRADES")
    if grades is None or isinstance(grades, dict):
        return grades
    return tuple(grades)


def decided(game: Game, view: View) -> str | None:
    """Why no move at ``view`` can change its observer's return any more (a cooperative session already won), or
    ``None``: ``hints.decided``; always ``None`` for a game without it. A review grades no such decision."""
    found = _find(game, "hints", "decided")
    return None if found is None else found(view)


# ---------------------------------------------------------------------------------------------- declared extras
def verb_options(game: Game | type[Game], verb: str) -> tuple[Option, ...]:
    """The extra options of a shared verb: the game's own, and for ``show`` the picture's layout (every game)."""
    return tuple(_find(game, "commands", "OPTIONS", {}).get(verb, ())) + (SHOW_OPTIONS if verb == "show" else ())


def verb_notes(game: Game | type[Game], verb: str) -> str:
    """The game's own words added to a shared verb's ``--help`` description."""
    return _find(game, "commands", "NOTES", {}).get(verb, "")


def verb_aliases(game: Game | type[Game], verb: str) -> tuple[str, ...]:
    """Other names a shared verb answers to on the command line."""
    return tuple(_find(game, "commands", "ALIASES", {}).get(verb, ()))


def flag_aliases(game: Game | type[Game], verb: str) -> dict[str, str]:
    """Old flag names a game keeps working on a shared verb."""
    return dict(_find(game, "commands", "FLAG_ALIASES", {}).get(verb, {}))


def notation_start(game: Game | type[Game]) -> str | None:
    """The word every notation of the game starts with, if there is one."""
    start = _find(game, "notation", "START", None)
    return start if isinstance(start, str) else None


def commands(game: Game) -> tuple[Command, ...]:
    """The game's own sub-commands, declared as data."""
    return tuple(_find(game, "commands", "COMMANDS", ()))


def demo(game: Game) -> tuple[Example, ...]:
    """The command lines ``memory-solver demo`` runs for the game."""
    return tuple(_find(game, "commands", "DEMO", ()))
