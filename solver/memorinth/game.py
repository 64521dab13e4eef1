"""Memorinth (Pegasus Spiele): the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import numpy as np

from solver.errors import InvalidInputError
from solver.game import Game, Information, Option, Parameter, State, Utility
from solver.memorinth import rules as R
from solver.memorinth.deck import Deck, load_deck
from solver.memorinth.rules import kernel
from solver.memorinth.state import MemorinthState, rule_vector
from solver.memorinth.view import MemorinthView
from solver.results import HintResult, SolveResult
from solver.search import SearchContext


class MemorinthGame(Game):
    """Memorinth: flip forest cards, follow the fairy-tale characters, be first out of the labyrinth."""

    name = "memorinth"
    long_name = "Memorinth"
    utility = Utility.GENERAL_SUM      # one winner, or nobody when no piece can ever leave (MR-19)
    information = Information.IMPERFECT
    min_players = 1
    max_players = 4
    default_time_ms = 1000
    PARAMETERS = {
        "players": Parameter(2, int, "number of players, 2-4 (1 = solitaire: puzzles and shortest escapes)",
                             lo=1, hi=4),
        "variant": Parameter("base", str, "'base' or 'master' (Master Memorinth)", choices=R.VARIANTS),
        "action_side": Parameter("shift", str, "Master Memorinth: the action card side in use: 'shift' (row and "
                                               "column shifts), 'special' (clover, peek, swaps; goblins count) "
                                               "or 'alternate' (turned with the start-player card) (MR-13)",
                                 choices=R.ACTION_SIDE_MODES),
        "seats": Parameter("auto", str, "the table side (N, E, S, W) of each player in turn order, e.g. 'SN'; "
                                        "'auto' = S, SN, SWN, SWNE"),
        "deck": Parameter("default", str, "a deck file (docs/formats/memorinth.md) or 'default' (invented, not the "
                                          "printed cards)", data_file=True),
        "chance_setup": Parameter(False, bool, "new games start undealt, the deal played as chance nodes"),
    }

    def __init__(self, _deck: Deck | None = None, **params: Any) -> None:
        super().__init__(**params)
        players = self.params["players"]
        seats = R.check_seats(self.params["seats"], players, "game.seats")
        if self.params["variant"] == "base" and self.params["action_side"] != "shift":
            raise InvalidInputError("game.action_side", self.params["action_side"],
                                    "the action card is only used in Master Memorinth (variant=master)")
        deck = _deck if _deck is not None else load_deck(self.params["deck"], "game.deck")
        self.deck_is_file = _deck is None and self.params["deck"] != "default"
        self.rules = R.Rules(players, self.params["variant"], self.params["action_side"], seats, deck)
        self.deck_table: np.ndarray = deck.table()

    def derive(self, changes: dict[str, Any], deck: Deck | str | None, field: str) -> MemorinthGame:
        """This game with some parameters (and possibly the deck) changed; errors name ``field``."""
        params = dict(self.params)
        if "players" in changes and "seats" not in changes:
            params["seats"] = "auto"
        if changes.get("variant") == "base" and "action_side" not in changes:
            params["action_side"] = "shift"
        params.update(changes)
        if params.get("seats") == R.DEFAULT_SEATS.get(params.get("players")):
            params["seats"] = "auto"
        inline: Deck | None = None
        if isinstance(deck, Deck):
            inline = deck
            params["deck"] = "inline"
        elif isinstance(deck, str):
            params["deck"] = deck
        elif not self.deck_is_file and self.params["deck"] != "default":
            inline = self.rules.deck
        if params == self.params and inline is None:
            return self
        try:
            return MemorinthGame(_deck=inline, **params)
        except InvalidInputError as exc:
            key = (exc.field or "").removeprefix("game.")
            name = {"action_side": "actionSide"}.get(key, key)
            raise type(exc)(f"{field}.{name}" if name else field, exc.value, exc.problem) from None

    # -- states ---------------------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0) -> MemorinthState:
        """A game dealt with ``seed`` (or, with ``chance_setup=true``, the undealt table: seed unused)."""
        if self.params["chance_setup"]:
            return MemorinthState(self, rule_vector(self.rules), [])
        return self.deal(seed)

    def deal(self, seed: int) -> MemorinthState:
        """A game dealt with ``seed``: cards shuffled into a checkerboard around the clearing, characters drawn."""
        from solver.memorinth.rules import kernel
        vec = rule_vector(self.rules)
        kernel.deal(vec, self.deck_table, int(seed) & (2**64 - 1))
        return MemorinthState(self, vec)

    def state_from_json(self, obj: Any, field: str = "state") -> MemorinthState:
        from solver.memorinth.notation import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> MemorinthState:
        from solver.memorinth.notation import state_from_notation
        return state_from_notation(self, text, field)

    def parse_state(self, payload: Any, field: str = "state") -> MemorinthState:
        state = super().parse_state(payload, field)
        if not isinstance(state, MemorinthState):
            raise InvalidInputError(field, type(state).__name__, "not a Memorinth state")
        return state

    def parse_position(self, payload: Any, field: str = "state") -> MemorinthState | MemorinthView:
        """A state or a view; the observation JSON of earlier releases is read as the view it describes."""
        from solver.game import _decode_json_text
        from solver.memorinth.notation import legacy_observation_to_view, looks_like_legacy_observation
        payload = _decode_json_text(payload, field)
        if looks_like_legacy_observation(payload):
            payload = legacy_observation_to_view(payload, field)
        position = super().parse_position(payload, field)
        if not isinstance(position, (MemorinthState, MemorinthView)):
            raise InvalidInputError(field, type(position).__name__, "not a Memorinth position")
        return position

    def view_from_json(self, obj: Any, field: str = "state") -> MemorinthView:
        from solver.memorinth.view import view_from_json
        return view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> MemorinthView:
        from solver.memorinth.view import view_from_notation
        return view_from_notation(self, text, field)

    def new_game(self, seed: int) -> MemorinthState:
        """A dealt game (``new --seed S``), also when ``chance_setup`` is set."""
        return self.deal(seed)

    def new_table(self, player: int) -> MemorinthView:
        """A real table before the deal, as ``player`` sees it: the cards are then entered as they are laid out
        (``deal card 7`` for each cell row by row, skipping the clearing's, then ``deal character R`` for each
        character place), as the ``chance_setup`` deal does."""
        from solver.memorinth.view import MemorinthView
        if not 0 <= player < self.rules.players:
            raise InvalidInputError("player", player, f"expected 0..{self.rules.players - 1}")
        return MemorinthView(self, player, rule_vector(self.rules), [])

    # -- services -------------------------------------------------------------------------------
    def hint_view(self, view: Any, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
        from solver.memorinth.hints import hint_view
        return hint_view(self._own_view(view), ctx, top=top)

    def hint_full(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  **options: Any) -> HintResult:
        from solver.memorinth.hints import hint_full
        return hint_full(self.parse_state(state), ctx, top=top, player=player)

    def _own_view(self, view: Any) -> MemorinthView:
        from solver.memorinth.view import MemorinthView
        if not isinstance(view, MemorinthView):
            raise InvalidInputError("state", type(view).__name__, "not a Memorinth view")
        return view

    def solve(self, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
        """The proven shortest escape (MR-26); ``maxDepth`` and ``player`` as options or in the object form."""
        from solver.memorinth.escape import solve_request
        if options:
            if isinstance(payload, dict) and "state" in payload:
                clash = sorted(set(options) & set(payload))
                if clash:
                    raise InvalidInputError(f"options.{clash[0]}", options[clash[0]],
                                            f"also given in the problem object ({clash[0]!r})")
                payload = {**payload, **options}
            else:
                payload = {"state": payload, **options}
        return solve_request(self, payload, ctx)

    def score(self, payload: Any, **options: Any) -> dict[str, Any]:
        """The race (``docs/formats/memorinth.md``): from a view, the paths as they lie (no shortest escape,
        which needs every underside)."""
        from solver.memorinth.escape import race_report
        from solver.memorinth.view import MemorinthView
        position = self.parse_position(payload)
        if isinstance(position, MemorinthView):
            return view_race_report(position)
        return race_report(position)

    # -- puzzles and self-play --------------------------------------------------------------------
    PUZZLE_KINDS = ("escape",) + tuple(f"escape-in-{k}" for k in range(1, 13))
    SELFPLAY_POLICIES = ("hint", "greedy", "random")
    SELFPLAY_DEFAULT = ("hint", "greedy")

    def puzzle_request(self, kind: str, difficulty: str, **options: Any) -> tuple[str, str]:
        """``--turns K`` is the kind ``escape-in-K``, graded by K (``docs/formats/memorinth.md``)."""
        from solver.memorinth.puzzles import grade
        turns = options.get("turns")
        if turns is None:
            return kind, difficulty
        return f"escape-in-{turns}", grade(self.rules.variant, turns)

    def generate_puzzle(self, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
        from solver.memorinth.puzzles import generate_one
        return generate_one(self, kind, difficulty, rng)

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        from solver.memorinth.puzzles import check_answer
        return check_answer(self, puzzle, answer)

    def puzzle_position(self, puzzle: dict[str, Any]) -> MemorinthState:
        """The puzzle's solitaire position, every underside known: the answer is the moves played from it
        (``check_puzzle`` takes them as a flat list and counts the own turns on the replay)."""
        from solver.memorinth.puzzles import puzzle_state
        return puzzle_state(self, puzzle)

    def describe_puzzle(self, puzzle: dict[str, Any]) -> str:
        from solver.memorinth.puzzles import describe_puzzle
        return describe_puzzle(self, puzzle)

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        from solver.memorinth.puzzles import answer_text
        return answer_text(puzzle.get("solution") or [])

    def selfplay_game(self, policies: tuple[str, ...], rng: np.random.Generator, **options: Any) -> dict[str, Any]:
        from solver.memorinth.selfplay import play_deal
        return play_deal(self, policies, rng, **options)

    # -- pictures and text --------------------------------------------------------------------------
    def svg(self, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
        from solver.memorinth.picture import position_svg
        return position_svg(self, position, hint, **options)

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        from solver.memorinth.picture import puzzle_svg
        return puzzle_svg(self, puzzle, solution)

    def describe(self, position: Any, player: int | None = None) -> str:
        """The text picture (``solver/memorinth/render.py``), of ``player``'s view when given."""
        import io

        from solver.memorinth.render import render
        if player is not None and isinstance(position, MemorinthState):
            position = position.view(player)
        out = io.StringIO()
        render(position, out)
        out.write(f"notation: {position.to_notation()}\n")
        return out.getvalue()

    def render_text(self, verb: str, result: Any) -> str | None:
        from solver.memorinth.render import score_text, solve_text
        if verb == "solve":
            return solve_text(result.to_json())
        if verb == "score":
            return score_text(result)
        return None

    # -- command line and demo ------------------------------------------------------------------
    PLAYERS_PARAMETER = "players"
    MODE_PARAMETER = "variant"
    VERB_ALIASES = {"apply": ("play",)}
    VERB_OPTIONS = {
        "solve": (Option("maxDepth", "--max-depth", int, 30, "give up beyond this many own turns", lo=1, hi=64),
                  Option("player", "--player", int, None, "whose escape (default: the player to act)", lo=0,
                         hi=3)),
        "generate": (Option("turns", "--turns", int, None, "exactly this many own turns (the kind escape-in-K, "
                                                           "graded by K) instead of --difficulty", lo=1, hi=12),),
        "selfplay": (Option("hintNodes", "--hint-nodes", int, 200, "playouts per hint of the 'hint' policy",
                            lo=1, hi=1_000_000),
                     Option("maxTurns", "--max-turns", int, 200, "a game longer than this many turns is unfinished",
                            lo=1, hi=100_000)),
    }

    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        from solver.memorinth.cli import add_commands
        add_commands(self, commands)

    def demo(self, out: TextIO) -> None:
        from solver.memorinth.cli import demo
        demo(self, out)


def view_race_report(view: Any) -> dict[str, Any]:
    """``score`` on a view: each piece's fewest moves out along the face-up paths (public); the shortest escape
    needs every underside, so it is left out."""
    from solver.memorinth.state import PIECE
    dist = np.zeros(25, dtype=np.int32)
    kernel.escape_distances(view.vec, view.deck_table, dist)
    players = []
    for p in range(view.rules.players):
        cell = int(view.vec[PIECE + p])
        entry: dict[str, Any] = {"player": p, "colour": R.COLOURS[p],
                                 "cell": "out" if cell == R.OUT else R.cell_name(cell)}
        if cell != R.OUT and view.setup is None:
            entry["pathDistance"] = int(dist[cell]) if dist[cell] >= 0 else None
        players.append(entry)
    return {"players": players, "winner": view.winner(), "over": view.is_terminal(), "view": view.observer,
            "pathDistanceMeaning": "fewest moves out along the paths as they lie now (characters ignored)",
            "shortestEscapeMeaning": "needs the full state (every underside): not given for a player's view"}


GAME = MemorinthGame
