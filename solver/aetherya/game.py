"""Aetherya: the game object, its engine services and its command line (the shared verbs of
``solver/commands.py`` plus ``optimize``)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import numpy as np

from solver.aetherya.cards import CATEGORIES, LEGENDS, legend
from solver.aetherya.scoring import KingdomScore, score_kingdom
from solver.aetherya.state import MODES, AetheryaState
from solver.aetherya.tiles import load_families
from solver.errors import InvalidInputError, UnknownGameError
from solver.game import (CHANCE_PLAYER, VIEW_PREFIX, Game, Information, Option, Parameter, State, Utility, View,
                         split_view_notation)
from solver.results import HintResult, SolveResult
from solver.search import SearchContext
from solver.validate import as_list, as_object, as_str, check_keys, get


def parse_score_request(payload: Any, field: str = "state", legends: Any = None) -> KingdomScore:
    """Score ``"KINGDOM"`` or ``{"kingdom": "KINGDOM", "legends": [...]}`` (``legends``: Legends held, from the
    ``--legends`` option)."""
    if isinstance(payload, str):
        return score_kingdom(payload, legends or [], field=field, legends_field="legends")
    obj = as_object(payload, field)
    check_keys(obj, ("kingdom", "legends"), field)
    held = as_list(obj.get("legends", []), f"{field}.legends")
    return score_kingdom(get(obj, "kingdom", field), held + list(legends or []), field=f"{field}.kingdom",
                         legends_field=f"{field}.legends")


def parse_legends_option(value: Any, field: str) -> list[str]:
    """``--legends plains-3,7``: Legend numbers or slugs, comma-separated."""
    text = as_str(value, field)
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if text.strip() and not parts:
        raise InvalidInputError(field, text, "expected comma-separated Legend ids")
    slugs: list[str] = []
    for i, part in enumerate(parts):
        slug = legend(part, f"{field}[{i}]").slug
        if slug in slugs:
            raise InvalidInputError(f"{field}[{i}]", part, "Legend listed twice (each Legend card is unique)")
        slugs.append(slug)
    return slugs


def render_score(score: KingdomScore, out: TextIO) -> None:
    """The score sheet as text."""
    for name, value in zip(CATEGORIES, score.categories):
        out.write(f"  {name:<10}{value:>5}\n")
    out.write(f"  {'total':<10}{score.total:>5}\n")
    out.write(f"  tie-break  {score.tiebreak}\n")
    satisfied = ", ".join(leg.slug for leg in score.satisfied) or "none"
    out.write(f"  Legends this kingdom satisfies: {satisfied}\n")


def solo_age_sheet(state: AetheryaState) -> list[dict[str, Any]]:
    """The finished Ages of a solo campaign: objective (the Age's Legends' points), kingdom points, Age score
    and whether the objective was met (kingdom strictly greater, AE-34; missing it only lowers the score)."""
    from solver.aetherya.rules import legend_points, legend_slugs
    sheet = []
    for age, score in enumerate(state.age_scores):
        objective = legend_points(state.rows[age])
        sheet.append({"age": age + 1, "legends": legend_slugs(state.rows[age]), "objective": objective,
                      "kingdom": score + objective, "score": score, "objectiveMet": score > 0})
    return sheet


class AetheryaGame(Game):
    """Aetherya (Nostromo Editions): kingdom building on a 4x4 grid."""

    name = "aetherya"
    long_name = "Aetherya"
    utility = Utility.GENERAL_SUM
    information = Information.IMPERFECT
    min_players = 1
    max_players = 4
    #: a hint's default time: with the command line's start-up (0.2-0.4 s) the answer comes within about 1 s
    default_time_ms = 700
    PARAMETERS = {
        "players": Parameter(2, int, "number of players (1 = solo campaign)", lo=1, hi=4),
        "mode": Parameter("base", str, "base, objects (Objects and Characters), coop (Cooperative) or solo "
                                       "(3-Age campaign; players=1)", choices=MODES),
        "tiles": Parameter("default", str, "Objects and Characters tile family: 'default' (the shipped family, "
                                           "not the printed one) or a JSON file (docs/formats/aetherya.md)", data_file=True),
    }
    PLAYERS_PARAMETER = "players"
    MODE_PARAMETER = "mode"
    VERB_OPTIONS = {
        "score": (Option("legends", "--legends", str, "",
                         "Legends held with a kingdom: numbers 1-15 or slugs such as plains-3, comma-separated "
                         "(docs/rules/aetherya.md)", parse=parse_legends_option),),
        "selfplay": (Option("hintNodes", "--hint-nodes", int, 300, "playouts per decision of the hint policies",
                            lo=1, hi=10**7),),
    }
    PUZZLE_KINDS = ("best-kingdom", "legend-race")
    SELFPLAY_POLICIES = ("hint", "greedy", "random", "hint-full-info")
    SELFPLAY_DEFAULT = ("hint", "greedy")

    def __init__(self, **params: Any) -> None:
        if params.get("mode") == "solo" and "players" not in params:
            params["players"] = 1
        super().__init__(**params)
        if self.params["players"] == 1 and self.params["mode"] == "base" and "mode" not in params:
            self.params["mode"] = "solo"
        mode, players = self.params["mode"], self.params["players"]
        if (mode == "solo") != (players == 1):
            raise UnknownGameError("game.mode", mode, "the solo campaign is the only 1-player mode, and it is "
                                                      f"played alone (got players={players})")
        self.mode: str = mode
        self.num_players: int = players
        self.families = load_families(self.params["tiles"]) if mode == "objects" else ()

    def spec(self) -> str:
        changed = [f"{k}={v}" for k, v in sorted(self.params.items())
                   if v != self.PARAMETERS[k].default and not (k == "mode" and v == "solo")]
        return f"{self.name}({','.join(changed)})" if changed else self.name

    def configure(self, players: int | None = None, mode: str | None = None) -> Game:
        """``--mode solo`` plays alone; ``--players 1`` is the solo campaign; another mode from solo is 2 players."""
        if mode is not None:
            self.PARAMETERS["mode"].check("mode", mode)
        if players is None and mode is not None:
            players = 1 if mode == "solo" else (2 if self.num_players == 1 else self.num_players)
        if mode is None and players is not None:
            mode = "solo" if players == 1 else ("base" if self.mode == "solo" else self.mode)
        return super().configure(players=players, mode=mode)

    def _game_for(self, mode: Any, players: Any, field: str) -> AetheryaGame:
        """This game, or the one of the mode and player count a position names."""
        counted = isinstance(players, int) and not isinstance(players, bool) and 1 <= players <= 4
        if mode in MODES and counted and (mode == "solo") != (players == 1):
            raise InvalidInputError(f"{field}.players", players, f"the {mode} mode is played by "
                                    + ("1 player (the solo campaign)" if mode == "solo" else "2 to 4 players"))
        if (mode, players) != (self.mode, self.num_players) and mode in MODES and counted:
            return AetheryaGame(players=players, mode=mode, tiles=self.params["tiles"])
        return self

    # -- states and views -------------------------------------------------------------
    def new_root_state(self) -> AetheryaState:
        """The game before any card is dealt: a chance node (the Legends come first)."""
        return AetheryaState(self)

    def new_initial_state(self, seed: int) -> AetheryaState:
        """A game whose setup chance nodes are drawn with ``seed``, stopped at the first decision."""
        state = self.new_root_state()
        rng = np.random.default_rng(seed)
        while state.current_player() == CHANCE_PLAYER:
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
        return state

    def new_table(self, player: int) -> View:
        """A real table before anything is dealt, as ``player`` sees it (the Legends are entered first)."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise InvalidInputError("--player", player, f"expected a seat 0..{self.num_players - 1}")
        return self.new_root_state().view(player)

    def state_from_json(self, obj: Any, field: str = "state") -> AetheryaState:
        from solver.aetherya.notation import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> AetheryaState:
        from solver.aetherya.notation import notation_to_json, state_from_json
        return state_from_json(self, notation_to_json(text, field), field)

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A state from JSON or notation; a state of another mode or player count loads its own game.

        ``aetherya hint STATE.json`` therefore works for every mode: the state
        says which mode and how many players it is played with.
        """
        if isinstance(payload, State):
            return payload
        from solver.aetherya.puzzle_play import is_puzzle_position, position_from_payload
        if is_puzzle_position(payload):  # a puzzle being answered by moves (docs/formats/aetherya.md, "Puzzles")
            return position_from_payload(self, payload, field)
        mode, players = self.mode, self.num_players
        if isinstance(payload, dict):
            mode, players = payload.get("mode", mode), payload.get("players", players)
        elif isinstance(payload, str) and ":" in payload.split(" ", 1)[0] and not payload.startswith(VIEW_PREFIX):
            head_mode, _, head_players = payload.strip().split(" ", 1)[0].partition(":")
            mode, players = head_mode, int(head_players) if head_players.isdigit() else players
        elif isinstance(payload, str) and payload.strip().lower().endswith(".json"):
            raise InvalidInputError(field, payload, "no such file (a state is a JSON file, '-' for stdin, inline "
                                                    "JSON or the notation 'base:2 ph=... ', docs/formats/aetherya.md)")
        game = self._game_for(mode, players, field)
        if game is not self:
            return game.parse_state(payload, field)
        return super().parse_state(payload, field)

    def view_from_json(self, obj: Any, field: str = "state") -> View:
        """A player's view from its JSON (``"view": N``; docs/formats/aetherya.md)."""
        from solver.aetherya.view import view_from_json
        data = as_object(obj, field)
        game = self._game_for(data.get("mode", self.mode), data.get("players", self.num_players), field)
        if data.get("mode", self.mode) != game.mode:
            raise InvalidInputError(f"{field}.mode", data.get("mode"), f"expected one of {', '.join(MODES)}")
        return view_from_json(game, data, field)

    def view_from_notation(self, text: str, field: str = "state") -> View:
        """A player's view from its notation, ``view:N MODE:PLAYERS key=value ...``."""
        from solver.aetherya.notation import view_notation_to_json
        observer, body = split_view_notation(text, field)
        return self.view_from_json(view_notation_to_json(observer, body, field), field)

    def parse_position(self, payload: Any, field: str = "state") -> State | View:
        """A state or a view (a view carries ``"view": N``, or its notation starts with ``view:N``)."""
        if isinstance(payload, dict) and "observer" in payload and "view" not in payload:
            raise InvalidInputError(f"{field}.observer", payload["observer"], "this looks like an observation in "
                                    "the old format: give the view's JSON ('\"view\": N', as `aetherya view` "
                                    "prints it)")
        return super().parse_position(payload, field)

    # -- services ---------------------------------------------------------------------
    def hint_view(self, view: View, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
        """Rank the observer's decisions from the view alone (``solver/aetherya/hints.py``)."""
        from solver.aetherya.hints import hint_view
        return hint_view(view, ctx, top=top)

    def hint_full(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  **options: Any) -> HintResult:
        """A full-information analysis: the true face-down cards and tiles, only future draws random."""
        from solver.aetherya.hints import hint_full
        return hint_full(state, ctx, top=top, player=player)

    def score(self, payload: Any, legends: Any = None) -> dict[str, Any]:
        """Score a kingdom (notation or ``{"kingdom", "legends"}``, with ``legends`` held) or, given a game state
        or a view, every seat's sheet (a view counts only the cards its observer knows)."""
        from solver.aetherya.puzzle_play import PuzzlePosition, is_puzzle_position
        from solver.aetherya.puzzle_play import score as puzzle_score
        position = payload if isinstance(payload, (State, View)) else None
        if position is None and (isinstance(payload, dict) and ("mode" in payload or "view" in payload)
                                 or isinstance(payload, str) and (":" in payload.split(" ", 1)[0])
                                 or is_puzzle_position(payload)):
            position = self.parse_position(payload)
        if position is None:
            return parse_score_request(payload, legends=legends).to_json()
        if isinstance(position, PuzzlePosition):
            return puzzle_score(position)
        if legends:
            raise InvalidInputError("legends", ",".join(legends), "Legends held are part of a game position; "
                                                                  "the option is for a kingdom")
        sheets = [position.score(p) for p in range(position.game.num_players)]
        state = position.rep if isinstance(position, View) else position
        terminal = position.is_terminal()
        out: dict[str, Any] = {"players": [dict(sheet.to_json(), player=p) for p, sheet in enumerate(sheets)],
                               "returns": position.returns() if terminal else None,
                               "winners": state.winners() if terminal else None}
        if isinstance(position, View):
            out["view"] = position.observer
        if state.mode == "solo":
            out["ages"] = solo_age_sheet(state) if not (isinstance(position, View) and position.turn_over_cells()) \
                else solo_age_sheet(state)[:-1]
        return out

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        from solver.aetherya.optimize import solve
        return solve(payload, ctx)

    # -- text for a person --------------------------------------------------------------
    def describe(self, position: State | View, player: int | None = None) -> str:
        """The position as a person reads it: every kingdom as a 4x4 grid, the piles, the Legends."""
        from solver.aetherya.puzzle_play import PuzzlePosition
        from solver.aetherya.puzzle_play import describe as describe_puzzle_position
        if isinstance(position, PuzzlePosition):
            return describe_puzzle_position(position)
        if player is not None and isinstance(position, State):
            position = position.view(player)
        from solver.aetherya.text import describe
        return describe(position.to_json())

    def render_text(self, verb: str, result: Any) -> str | None:
        if verb == "score" and isinstance(result, dict):
            from io import StringIO
            out = StringIO()
            if "players" in result:
                for sheet in result["players"]:
                    out.write(f"seat {sheet['player']}: total {sheet['total']}  ("
                              + ", ".join(f"{name} {sheet[name]}" for name in CATEGORIES) + ")\n")
                if result.get("winners") is not None:
                    out.write(f"winners: {', '.join(map(str, result['winners'])) or 'none'}\n")
                for age in result.get("ages", []):
                    out.write(f"Age {age['age']}: kingdom {age['kingdom']}, objective {age['objective']}, score "
                              f"{age['score']}\n")
                return out.getvalue()
            render_score(score_kingdom_from_json(result), out)
            return out.getvalue()
        return None

    # -- puzzles --------------------------------------------------------------------------
    def generate_puzzle(self, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
        from solver.aetherya.puzzles import best_kingdom_puzzle, legend_race_puzzle
        make = best_kingdom_puzzle if kind == "best-kingdom" else legend_race_puzzle
        return make(rng, difficulty)

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        """The verdict on ``answer``: a kingdom or turns (``docs/formats/aetherya.md``), or the moves played
        from :meth:`puzzle_position` as a list (replayed there, then judged the same way), proven again from the
        puzzle's own cards (``solver.aetherya.puzzles.check``): the file's ``solution`` is never trusted and may
        be left out."""
        from solver.aetherya.puzzle_play import read_move_answer
        from solver.aetherya.puzzles import check, proven_answer
        verdict = read_move_answer(self, puzzle, answer)
        if verdict is None:
            verdict = check(puzzle, answer)
        if "optimum" in verdict and ("puzzleError" in verdict or not puzzle.get("solution")):
            verdict["solution"] = proven_answer(verdict)       # the file's own solution is wrong or missing
        return verdict

    def puzzle_position(self, puzzle: dict[str, Any]) -> State:
        """The position a player answers ``puzzle`` from by moves: a best-kingdom puzzle's fixed cards and hand
        (``pick CARD``, ``place CELL``, ``lift CELL``), a legend-race puzzle's solitaire position (``take``/``draw``
        then ``place CELL``/``reveal CELL``); ``solver/aetherya/puzzle_play.py``."""
        from solver.aetherya.puzzle_play import puzzle_position
        return puzzle_position(self, puzzle)

    def describe_puzzle(self, puzzle: dict[str, Any]) -> str:
        from solver.aetherya.puzzles import describe_puzzle
        return describe_puzzle(puzzle)

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        from solver.aetherya.puzzles import puzzle_answer
        return puzzle_answer(puzzle)

    # -- self-play ----------------------------------------------------------------------
    def selfplay_game(self, policies: tuple[str, ...], rng: np.random.Generator, **options: Any) -> dict[str, Any]:
        from solver.aetherya.selfplay import selfplay_game
        return selfplay_game(self, policies, rng, **options)

    # -- pictures -----------------------------------------------------------------------
    def svg(self, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
        from solver.aetherya.picture import position_svg, puzzle_position_svg
        from solver.aetherya.puzzle_play import PuzzlePosition
        if isinstance(position, PuzzlePosition):
            return puzzle_position_svg(position.to_json(), position.board_total())
        return position_svg(position.to_json(), hint, **options)

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        from solver.aetherya.picture import puzzle_svg
        return puzzle_svg(puzzle, solution)

    # -- command line ---------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        from solver.aetherya.optimize import add_optimize_command
        add_optimize_command(commands)

    def demo(self, out: TextIO) -> None:
        from solver.aetherya.demo import demo
        demo(self, out)


def score_kingdom_from_json(result: dict[str, Any]) -> KingdomScore:
    """A :class:`KingdomScore` back from its JSON (for the text form of ``score``)."""
    by_slug = {leg.slug: leg for leg in LEGENDS}
    return KingdomScore(*(result[name] for name in CATEGORIES),
                        satisfied=tuple(by_slug[s] for s in result.get("satisfied_legends", [])))


GAME = AetheryaGame
