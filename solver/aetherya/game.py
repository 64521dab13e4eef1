"""Aetherya: the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

import numpy as np

from solver.aetherya.cards import CATEGORIES
from solver.aetherya.scoring import KingdomScore, score_kingdom
from solver.aetherya.state import MODES, AetheryaState
from solver.aetherya.tiles import load_families
from solver.cli import add_hint_command, add_legal_moves_command, print_json
from solver.errors import InvalidInputError, UnknownGameError
from solver.game import CHANCE_PLAYER, Game, Information, Parameter, State, Utility
from solver.results import HintResult, SolveResult
from solver.search import SearchContext
from solver.validate import as_list, as_object, check_keys, get


def parse_score_request(payload: Any, field: str = "state") -> KingdomScore:
    """Score ``"KINGDOM"`` or ``{"kingdom": "KINGDOM", "legends": [...]}``."""
    if isinstance(payload, str):
        return score_kingdom(payload, field=field)
    obj = as_object(payload, field)
    check_keys(obj, ("kingdom", "legends"), field)
    legends = as_list(obj.get("legends", []), f"{field}.legends")
    return score_kingdom(get(obj, "kingdom", field), legends, field=f"{field}.kingdom",
                         legends_field=f"{field}.legends")


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
                                           "not the printed one) or a JSON file (docs/formats/aetherya.md)"),
    }

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

    # -- states ---------------------------------------------------------------------
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

    def state_from_json(self, obj: Any, field: str = "state") -> AetheryaState:
        from solver.aetherya.serial import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> AetheryaState:
        from solver.aetherya.serial import notation_to_json, state_from_json
        return state_from_json(self, notation_to_json(text, field), field)

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A state from JSON or notation; a state of another mode or player count loads its own game.

        ``aetherya hint STATE.json`` therefore works for every mode: the state
        says which mode and how many players it is played with.
        """
        if isinstance(payload, State):
            return payload
        mode, players = self.mode, self.num_players
        if isinstance(payload, dict):
            mode, players = payload.get("mode", mode), payload.get("players", players)
        elif isinstance(payload, str) and ":" in payload.split(" ", 1)[0]:
            head_mode, _, head_players = payload.strip().split(" ", 1)[0].partition(":")
            mode, players = head_mode, int(head_players) if head_players.isdigit() else players
        elif isinstance(payload, str) and payload.strip().lower().endswith(".json"):
            raise InvalidInputError(field, payload, "no such file (a state is a JSON file, '-' for stdin, inline "
                                                    "JSON or the notation 'base:2 ph=... ', docs/formats/aetherya.md)")
        counted = isinstance(players, int) and not isinstance(players, bool) and 1 <= players <= 4
        if mode in MODES and counted and (mode == "solo") != (players == 1):
            raise InvalidInputError(f"{field}.players", players, f"the {mode} mode is played by "
                                    + ("1 player (the solo campaign)" if mode == "solo" else "2 to 4 players"))
        if (mode, players) != (self.mode, self.num_players) and mode in MODES and counted:
            return AetheryaGame(players=players, mode=mode, tiles=self.params["tiles"]).parse_state(payload, field)
        return super().parse_state(payload, field)

    def score(self, payload: Any) -> dict[str, Any]:
        """Score a kingdom (notation or ``{"kingdom", "legends"}``) or, given a game state, every seat's sheet."""
        if isinstance(payload, dict) and "mode" in payload or isinstance(payload, State) or \
                (isinstance(payload, str) and ":" in payload.split(" ", 1)[0]):
            state = self.parse_state(payload)
            out = {"players": [dict(state.score(p).to_json(), player=p) for p in range(state.players)],
                   "returns": state.returns() if state.is_terminal() else None,
                   "winners": state.winners() if state.is_terminal() else None}
            if state.mode == "solo":
                out["ages"] = solo_age_sheet(state)
            return out
        return parse_score_request(payload).to_json()

    def hint(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False) -> HintResult:
        """Rank every decision of the turn for the player to act (``solver/aetherya/hints.py``)."""
        from solver.aetherya.hints import hint
        if not isinstance(state, AetheryaState):
            state = self.parse_state(state)
        return hint(state, ctx, top=top, player=player, full_information=full_information)

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        from solver.aetherya.optimize import solve
        return solve(payload, ctx)

    # -- command line ---------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        score = commands.add_parser("score", help="score a kingdom",
                                    description="Score a kingdom given as 4 rows of 4 letters joined by '/' "
                                                "(P F M S H E D G R O ?), e.g. FEFP/MDMH/PHFS/SSGS.")
        score.add_argument("kingdom", metavar="KINGDOM")
        score.add_argument("--legends", default="", metavar="ID,...",
                           help="Legends held: numbers 1-15 or slugs such as plains-3 (docs/rules/aetherya.md)")
        score.add_argument("--json", action="store_true", help="print one JSON object")
        score.set_defaults(run=_run_score)
        add_hint_command(commands, self)
        add_legal_moves_command(commands, self)
        gen = commands.add_parser("generate", help="generate puzzles with verified solutions (JSON lines)",
                                  description="Generate puzzles as JSON lines, each with its verified solution: "
                                              "best-kingdom (place cards around fixed ones for the best score; "
                                              "optimum proven by exhaustive enumeration, unique up to symmetry) or "
                                              "legend-race (write a named Legend in the fewest turns; verified by "
                                              "breadth-first search).")
        gen.add_argument("--kind", required=True, choices=("best-kingdom", "legend-race"))
        gen.add_argument("--count", type=int, default=1)
        gen.add_argument("--seed", type=int, default=0)
        gen.add_argument("--difficulty", default="medium", choices=("easy", "medium", "hard"))
        gen.set_defaults(run=_run_generate)
        chk = commands.add_parser("check", help="check an answer to a puzzle",
                                  description="PUZZLE is one JSON line from 'generate' (a file, '-' or inline JSON). "
                                              "ANSWER is a kingdom (best-kingdom) or turns separated by ';' such as "
                                              "'take, place b2; draw, reveal a1' (legend-race), or a JSON file.")
        chk.add_argument("puzzle", metavar="PUZZLE")
        chk.add_argument("answer", metavar="ANSWER")
        chk.add_argument("--json", action="store_true")
        chk.set_defaults(run=_run_check)
        from solver.aetherya.optimize import add_optimize_command
        add_optimize_command(commands)

    def demo(self, out: TextIO) -> None:
        kingdom = "FEFP/MDMH/PHFS/SSGS"
        out.write(f"Score of the kingdom {kingdom} holding the Legend 'plains-3':\n")
        render_score(score_kingdom(kingdom, ["plains-3"]), out)
        from solver.aetherya.playout import advance_to_turn_start
        from solver.cli import render_hint
        from solver.search import Limits
        game = AetheryaGame()
        state = advance_to_turn_start(game.new_initial_state(3), np.random.default_rng(0))
        obs = state.observation(state.to_move)
        out.write(f"\nA dealt 2-player game (seed 3), player {state.to_move} to move; what that player sees:\n")
        for seat, text in enumerate(obs["kingdoms"]):
            out.write(f"  kingdom {seat}: {text}\n")
        out.write(f"  discard top: {obs['discard'][0][-1:]}, draw pile: {obs['drawPile']} cards, "
                  f"Legends face up: {', '.join(obs['legendRow'])}\n")
        result = self.hint(state, SearchContext(limits=Limits(time_ms=500), seed=0), top=3)
        out.write("Hint (0.5 s, `memory-solver aetherya hint STATE.json`):\n")
        render_hint(result, out)
        from solver.aetherya.optimize import optimize_kingdom, render_result
        hand = "PFFMMSSHHEEDGGRO"
        out.write(f"\nThe best arrangement of 16 held cards, proven (`memory-solver aetherya optimize {hand}`):\n")
        render_result(optimize_kingdom(hand, time_ms=20_000), out)
        hand, fixed = "PPFFMMSHHEEDGRRO", "a1=R,d4=O"
        out.write(f"\nThe same with a Dragon and a Portal already locked in place "
                  f"(`memory-solver aetherya optimize {hand} --fixed {fixed}`):\n")
        render_result(optimize_kingdom(hand, fixed=fixed, time_ms=20_000), out)


def _run_generate(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise InvalidInputError("--count", args.count, "must be at least 1")
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    from solver.aetherya.puzzles import best_kingdom_puzzle, legend_race_puzzle
    rng = np.random.default_rng(args.seed)
    make = best_kingdom_puzzle if args.kind == "best-kingdom" else legend_race_puzzle
    for i in range(args.count):
        print_json(make(rng, args.difficulty, i, args.seed))
        sys.stdout.flush()
    return 0


def _run_check(args: argparse.Namespace) -> int:
    from solver.aetherya.puzzles import check
    from solver.cli import read_input_arg
    puzzle = read_input_arg(args.puzzle, "PUZZLE")
    if isinstance(puzzle, str):
        lines = [line for line in puzzle.splitlines() if line.strip()]
        if len(lines) == 1 and lines[0].startswith("{"):
            puzzle = read_input_arg(lines[0], "PUZZLE")
        else:
            raise InvalidInputError("PUZZLE", puzzle[:80], "expected one puzzle as a JSON object (one line of "
                                                           "'generate' output)")
    verdict = check(puzzle, read_input_arg(args.answer, "ANSWER"))
    if args.json:
        print_json(verdict)
    else:
        sys.stdout.write(f"{'correct' if verdict['correct'] else 'not correct'}: {verdict['message']}\n")
        if "puzzleError" in verdict:
            sys.stdout.write(f"note: {verdict['puzzleError']} (checked against the proven optimum)\n")
    return 0 if verdict["correct"] else 4


def _run_score(args: argparse.Namespace) -> int:
    legends = [part for part in args.legends.split(",") if part.strip()] if args.legends else []
    if args.legends and not legends:
        raise InvalidInputError("--legends", args.legends, "expected comma-separated Legend ids")
    result = score_kingdom(args.kingdom, legends, field="KINGDOM", legends_field="--legends")
    if args.json:
        print_json(result.to_json())
    else:
        render_score(result, sys.stdout)
    return 0
