"""Mnemonic: the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from solver.cli import print_json
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game, Information, Parameter, State, Utility
from solver.mnemonic.state import MnemonicState
from solver.results import HintResult, SolveResult
from solver.search import SearchContext
from solver.mnemonic.odds import (GroupOdds, IndividualOdds, fraction_text, group_odds, individual_odds,
                                  parse_pools)
from solver.mnemonic.rules import MnemonicRules, load_rules


def render_individual(odds: IndividualOdds, out: TextIO) -> None:
    """One Individual Scene roll as text."""
    out.write(f"Individual Scene, {odds.dice} {'die' if odds.dice == 1 else 'dice'} (keep the highest; a 6 succeeds)\n")
    out.write(f"  success       {fraction_text(odds.success):>22}  {float(odds.success):9.4%}\n")
    out.write(f"  complication  {fraction_text(odds.complication):>22}  {float(odds.complication):9.4%}\n")


def render_group(odds: GroupOdds, out: TextIO) -> None:
    """One Group Scene as text."""
    pools = ",".join(map(str, odds.pools)) or "none"
    out.write(f"Group Scene, player pools {pools} against an Adversary pool of {odds.adversary}\n")
    for name in ("victory", "defeat", "draw"):
        value = odds.get(name)
        out.write(f"  {name:<12}  {fraction_text(value):>22}  {float(value):9.4%}\n")
    if odds.nobody_rolls:
        out.write("  nobody rolls a die: the outcome is set by rules group.nobodyRolls (MN-6)\n")


def parse_horizon(text: str, field: str = "--horizon") -> tuple[int, int]:
    """``"1,2"`` -> (1 round, 2 Group Scenes)."""
    parts = text.split(",") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InvalidInputError(field, text, "expected ROUNDS,GROUP_SCENES such as 1,2")
    rounds, groups = int(parts[0]), int(parts[1])
    if rounds > 4 or not 1 <= groups <= 6:
        raise InvalidInputError(field, text, "rounds 0-4 and Group Scenes 1-6")
    return rounds, groups


def render_hint_details(result: HintResult, out: TextIO) -> None:
    """The horizon, the search size and the scene's story prompt under the ranked moves."""
    info = result.root_info
    if info.get("chance"):
        return
    if info.get("horizon"):
        h = info["horizon"]
        why = "the only legal move" if info.get("stoppedBy") == "only move" else "limits reached"
        done = "" if info.get("complete") else (f" (asked for {info['requestedHorizon']['rounds']} rounds, "
                                                 f"{info['requestedHorizon']['groupScenes']} Group Scenes: {why})")
        out.write(f"horizon: {h['rounds']} new round(s), {h['groupScenes']} Group Scene(s){done}; "
                  f"{info.get('states', 0):,} states searched in {info.get('seconds', 0)} s\n")
    if "prompt" in info:
        out.write(f"scene card {info['card']}: {info['prompt']}\n")
    out.write(f"Adversary's pool: {info.get('adversaryPool', 0)} dice\n")


class MnemonicGame(Game):
    """Mnemonic (Into the Grey and Deck Burner): exact odds, session tracking and advice."""

    name = "mnemonic"
    long_name = "Mnemonic"
    utility = Utility.IDENTICAL
    information = Information.IMPERFECT
    min_players = 1
    max_players = 6
    PARAMETERS = {
        "players": Parameter(3, int, "number of players in a new session", lo=1, hi=6),
        "mode": Parameter("deck-burner", str, "mode of play", choices=("deck-burner", "into-the-grey")),
        "rules": Parameter("", str, "path of a rules file (empty: the shipped solver/data/mnemonic_rules.json)"),
    }
    default_time_ms = 1000

    @property
    def rules(self) -> MnemonicRules:
        """The rule set this game uses (the shipped defaults unless ``rules=PATH``)."""
        return load_rules(self.params["rules"])

    def new_initial_state(self, seed: int) -> State:
        """A new session: characters from the rule data, the deck dealt (Into the Grey) or shuffled (Deck Burner)."""
        from solver.mnemonic.setup import new_session
        return new_session(self, self.params["players"], self.params["mode"], seed)

    def state_from_json(self, obj: Any, field: str = "state") -> State:
        from solver.mnemonic.serialize import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> State:
        from solver.mnemonic.serialize import state_from_notation
        return state_from_notation(self, text, field)

    def hint(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False, horizon: tuple[int, int] | None = None) -> HintResult:
        """Ranked moves with the chance of a Victory within the horizon (rules ``planner.*`` by default)."""
        from solver.mnemonic.advice import hint, horizon_of
        if not isinstance(state, MnemonicState):
            raise InvalidInputError("state", type(state).__name__, "expected a Mnemonic state")
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise InvalidInputError("top", top, "expected a positive integer")
        target = None if horizon is None else horizon_of(state, *horizon)
        return hint(state, ctx, top=top, player=player, full_information=full_information, horizon=target)

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        """The table's plan: the best move where the state stands and its value (as the hint's, MN-33..MN-42).

        ``payload`` is a state (JSON or notation). With ``planner.continuation = none`` the result is optimal for
        the planning model within the reported horizon (status ``EXHAUSTIVE``); with the continuation estimate it
        is ``EXHAUSTIVE`` only when the search reached the end of the session, else ``ESTIMATE`` (no proven
        bound). ``exact`` gives the value as a fraction when the position is small enough for the exact twin.
        """
        from solver.mnemonic.advice import solve
        return solve(self.parse_state(payload), ctx)

    def score(self, payload: Any) -> dict[str, Any]:
        """Odds of a scene: ``{"individual": n}`` or ``{"players": [...], "adversary": m}``."""
        from solver.validate import as_object, check_keys
        obj = as_object(payload, "state")
        check_keys(obj, ("individual", "players", "adversary"), "state")
        if "individual" in obj:
            if "players" in obj or "adversary" in obj:
                raise InvalidInputError("state.individual", obj["individual"], "give individual or players, not both")
            return individual_odds(obj["individual"], "state.individual").to_json()
        if "players" not in obj:
            raise InvalidInputError("state.players", problem="missing required field (or give individual)")
        return group_odds(obj["players"], obj.get("adversary", 0), self.rules["group.nobodyRolls"],
                          "state.players", "state.adversary").to_json()

    # -- command line ---------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        odds = commands.add_parser(
            "odds", help="exact odds of an Individual or a Group Scene",
            description="Exact odds as fractions in lowest terms. Individual Scene: --individual N (pool of N dice, "
                        "extra dice from weaving or help included). Group Scene: --players 3,2,0 (each player's "
                        "pool; 0 = no skill available) and --adversary M (one die per complication).")
        which = odds.add_mutually_exclusive_group(required=True)
        which.add_argument("--individual", type=int, metavar="N", help="dice in an Individual Scene pool")
        which.add_argument("--players", metavar="POOLS", help="comma-separated player pools, e.g. 3,2,0")
        odds.add_argument("--adversary", type=int, default=None, metavar="M", help="Adversary dice (complications)")
        odds.add_argument("--rules", default=None, metavar="FILE", help="rules file (default: the shipped rules)")
        odds.add_argument("--json", action="store_true", help="print one JSON object")
        odds.set_defaults(run=self._run_odds)

        new = commands.add_parser("new", help="start a session and print its state",
                                  description="Start a session: characters from the rule data, the deck dealt "
                                              "(into-the-grey) or shuffled (deck-burner). Prints the JSON state.")
        new.add_argument("--players", type=int, default=self.params["players"], help="players (1-6, default 3)")
        new.add_argument("--mode", default=self.params["mode"], help="deck-burner (default) or into-the-grey")
        new.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        new.add_argument("--rules", default=None, metavar="FILE", help="rules file (default: the shipped rules)")
        new.add_argument("--notation", action="store_true", help="print the one-line notation instead of JSON")
        new.set_defaults(run=self._run_new)

        apply = commands.add_parser("apply", help="play moves and print the new state",
                                    description="Play MOVE... in order (move strings as listed by legal-moves, "
                                                "chance results included: 'reveal 7H', 'roll 4', 'result defeat').")
        apply.add_argument("state", metavar="STATE")
        apply.add_argument("moves", metavar="MOVE", nargs="+")
        apply.add_argument("--rules", default=None, metavar="FILE", help="rules file the state refers to")
        apply.add_argument("--notation", action="store_true", help="print the one-line notation instead of JSON")
        apply.set_defaults(run=self._run_apply)

        show = commands.add_parser("show", help="describe a state in words",
                                   description="Who acts, the table, the Adversary's pool and the legal moves.")
        show.add_argument("state", metavar="STATE")
        show.add_argument("--player", type=int, default=None, help="show this player's hand (default: the actor)")
        show.add_argument("--rules", default=None, metavar="FILE", help="rules file the state refers to")
        show.set_defaults(run=self._run_show)

        from solver.cli import add_legal_moves_command
        add_legal_moves_command(commands, self)

        hint = commands.add_parser(
            "hint", help="advice for the player to act (or the table)",
            description="Rank the moves of the player to act by the chance of a Victory within the horizon "
                        "(exact expectimax over the planning model), with exact odds and the card's story prompt. "
                        "STATE is a JSON file, '-' for stdin, inline JSON or the notation.")
        hint.add_argument("state", metavar="STATE")
        hint.add_argument("--top", type=int, default=3, help="number of moves to show (default 3)")
        hint.add_argument("--player", type=int, default=None,
                          help="advise this player (default: the player to act; anyone for the table's choices)")
        hint.add_argument("--full-information", action="store_true", help="analyse with every hand known")
        hint.add_argument("--horizon", default=None, metavar="R,G",
                          help="rounds and Group Scenes the plan may use (default: rules planner.rounds, "
                               "planner.groupScenes)")
        hint.add_argument("--rules", default=None, metavar="FILE", help="rules file the state refers to")
        hint.add_argument("--json", action="store_true", help="print the engine's JSON response")
        from solver.cli import add_limit_args
        add_limit_args(hint)
        hint.set_defaults(run=self._run_hint)

    def _run_odds(self, args: argparse.Namespace) -> int:
        rules = load_rules(args.rules) if args.rules else self.rules
        if args.individual is not None:
            if args.adversary is not None:
                raise InvalidInputError("--adversary", args.adversary, "applies to a Group Scene (--players), "
                                                                       "not to --individual")
            result: IndividualOdds | GroupOdds = individual_odds(args.individual, "--individual")
        else:
            pools = parse_pools(args.players, "--players")
            result = group_odds(pools, 0 if args.adversary is None else args.adversary,
                                rules["group.nobodyRolls"], "--players", "--adversary")
        if args.json:
            print_json(result.to_json())
        elif isinstance(result, IndividualOdds):
            render_individual(result, sys.stdout)
        else:
            render_group(result, sys.stdout)
        return 0

    def _with_rules(self, path: str | None) -> MnemonicGame:
        return self if not path else MnemonicGame(**{**self.params, "rules": path})

    def _run_new(self, args: argparse.Namespace) -> int:
        game = MnemonicGame(**{**self.params, "players": args.players, "mode": args.mode,
                               **({"rules": args.rules} if args.rules else {})})
        if args.seed < 0:
            raise InvalidInputError("--seed", args.seed, "must be at least 0")
        state = game.new_initial_state(args.seed)
        if args.notation:
            sys.stdout.write(state.to_notation() + "\n")
        else:
            print_json(state.to_json())
        return 0

    def _run_apply(self, args: argparse.Namespace) -> int:
        from solver.cli import read_input_arg
        game = self._with_rules(args.rules)
        state = game.parse_state(read_input_arg(args.state), "STATE")
        for i, move in enumerate(args.moves):
            if state.is_terminal():
                raise InvalidInputError(f"MOVE[{i}]", move, "the session is over")
            state.apply_move(move, f"MOVE[{i}]")
        if args.notation:
            sys.stdout.write(state.to_notation() + "\n")
        else:
            print_json(state.to_json())
        return 0

    def _run_hint(self, args: argparse.Namespace) -> int:
        from solver.cli import context_from_args, read_input_arg, render_hint
        game = self._with_rules(args.rules)
        state = game.parse_state(read_input_arg(args.state), "STATE")
        if args.top < 1:
            raise InvalidInputError("--top", args.top, "must be at least 1")
        horizon = parse_horizon(args.horizon) if args.horizon is not None else None
        result = game.hint(state, context_from_args(game, args), top=args.top, player=args.player,
                           full_information=args.full_information, horizon=horizon)
        if args.json:
            print_json(result.to_json())
        else:
            render_hint(result, sys.stdout)
            render_hint_details(result, sys.stdout)
        return 0

    def _run_show(self, args: argparse.Namespace) -> int:
        from solver.cli import read_input_arg
        from solver.mnemonic.describe import describe
        game = self._with_rules(args.rules)
        state = game.parse_state(read_input_arg(args.state), "STATE")
        sys.stdout.write(describe(state, args.player))
        return 0

    def demo(self, out: TextIO) -> None:
        """Exact odds, then a short Deck Burner session with advice at each kind of decision."""
        from solver.cli import render_hint
        from solver.mnemonic.describe import describe
        from solver.search import Limits, SearchContext
        for dice in (1, 2, 3):
            render_individual(individual_odds(dice), out)
        render_group(group_odds([3, 2, 0], 4), out)
        out.write("\nA Deck Burner session (3 players, seed 7):\n")
        state = self.new_initial_state(7)

        def advise(horizon: tuple[int, int], top: int = 3) -> None:
            ctx = SearchContext(limits=Limits(nodes=100_000))  # a node budget: the same output on every machine
            result = self.hint(state, ctx, top=top, horizon=horizon)
            render_hint(result, out)
            render_hint_details(result, out)

        for move in ("draw", "reveal 8S"):
            state.apply_move(move)
        out.write(describe(state))
        out.write("\n> hint (plan to the next Group Scene):\n")
        advise((0, 2))
        for move in ('use "Sneak"', "roll 4"):
            state.apply_move(move)
        out.write(f"\n> {state.players[0].name} uses Sneak and rolls a 4: a complication unless they weave.\n")
        advise((0, 2), top=4)
        for move in ("weave give 1", "draw", "reveal QD", 'use "Bargain"', "roll 6", "no weave", "draw",
                     "reveal 3C", 'use "Endure"', "roll 2", "no weave"):
            state.apply_move(move)
        out.write("\n> The round is over; the table chooses (another round valued by the estimate, MN-42):\n")
        out.write(describe(state))
        advise((0, 2))
