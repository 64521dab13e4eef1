"""Mnemonic: the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from solver.commands import print_json
from solver.errors import InvalidInputError
from solver.game import Game, Information, Option, Parameter, State, Utility, View
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


def standing(position: Any) -> dict[str, Any]:
    """Where a session stands (``score`` on a state or a view)."""
    known = position.known if hasattr(position, "known") else position
    out = {"round": known.round, "phase": known.phase,
           "tally": {"victories": known.tally.victories, "defeats": known.tally.defeats, "draws": known.tally.draws},
           "victory": known.tally.victories > 0, "adversaryPool": known.adversary_pool(), "over": known.is_terminal()}
    if known.is_terminal():
        out["returns"] = known.returns()
    return out


def _no_other_options(options: dict[str, Any]) -> None:
    for key, value in options.items():
        raise InvalidInputError(key, value, "not an option of a Mnemonic hint (known: horizon)")


def render_hint_text(result: HintResult) -> str:
    """The ranked moves, then the horizon, the search size, the scene's prompt and the Adversary's pool."""
    import io
    from solver.commands import render_hint
    out = io.StringIO()
    render_hint(result, out)
    render_hint_details(result, out)
    return out.getvalue()


class MnemonicGame(Game):
    """Mnemonic (Into the Grey and Deck Burner): exact odds, session tracking and advice."""

    name = "mnemonic"
    long_name = "Mnemonic"
    NOTATION_START = "mnemonic"      # a command-line word that does not start so is named as a missing file
    utility = Utility.IDENTICAL
    information = Information.IMPERFECT
    min_players = 1
    max_players = 6
    PARAMETERS = {
        "players": Parameter(3, int, "number of players in a new session", lo=1, hi=6),
        "mode": Parameter("deck-burner", str, "mode of play", choices=("deck-burner", "into-the-grey")),
        "rules": Parameter("", str, "path of a rules file (empty: the shipped solver/data/mnemonic_rules.json)", data_file=True),
    }
    default_time_ms = 1000
    PLAYERS_PARAMETER = "players"
    MODE_PARAMETER = "mode"
    VERB_OPTIONS = {"hint": (Option("horizon", "--horizon", str, None,
                                    "rounds and Group Scenes the plan may use, R,G (default: rules planner.rounds, "
                                    "planner.groupScenes)", parse=lambda value, field: parse_horizon(value, field)),),
                    "selfplay": (Option("maxRounds", "--max-rounds", int, 3, "rounds of Individual Scenes a session may "
                                        "last (it stops at its first Victory)", lo=1, hi=6),)}

    @property
    def rules(self) -> MnemonicRules:
        """The rule set this game uses (the shipped defaults unless ``rules=PATH``)."""
        return load_rules(self.params["rules"])

    def new_initial_state(self, seed: int) -> State:
        """A new session: characters from the rule data, the deck dealt (Into the Grey) or shuffled (Deck Burner)."""
        from solver.mnemonic.setup import new_session
        return new_session(self, self.params["players"], self.params["mode"], seed)

    def state_from_json(self, obj: Any, field: str = "state") -> State:
        from solver.mnemonic.notation import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> State:
        from solver.mnemonic.notation import state_from_notation
        return state_from_notation(self, text, field)

    # -- views and the real table ------------------------------------------------------
    def view_from_json(self, obj: Any, field: str = "state") -> View:
        from solver.mnemonic.view import view_from_json
        return view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> View:
        from solver.mnemonic.view import view_from_notation
        return view_from_notation(self, text, field)

    def new_table(self, player: int) -> View:
        """Player ``player``'s view before the deal (MN-42): the characters of ``new --seed 0``, every card still
        in the deck; the observer enters ``draw 7H`` for each card dealt to them and ``draw ?`` for the others'."""
        from solver.mnemonic.setup import new_table_state
        from solver.mnemonic.view import MnemonicView
        state = new_table_state(self, self.params["players"], self.params["mode"])
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.n:
            raise InvalidInputError("--player", player, f"expected a player index 0..{state.n - 1}")
        return MnemonicView.of(state, player)

    # -- hints ------------------------------------------------------------------------------
    def hint_view(self, view: View, ctx: SearchContext, *, top: int = 3, horizon: Any = None,
                  **options: Any) -> HintResult:
        """Ranked moves of the view's observer with the chance of a Victory within the horizon (MN-33..MN-38),
        from the view alone (``solver/mnemonic/hinting.py``)."""
        from solver.mnemonic.hinting import hint_view
        _no_other_options(options)
        return hint_view(view, ctx, top, horizon)

    def hint_full(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  horizon: Any = None, **options: Any) -> HintResult:
        """The same ranking with every hand known (``rootInfo.fullInformation`` true)."""
        from solver.mnemonic.hinting import hint_full
        _no_other_options(options)
        return hint_full(state, ctx, top, player, horizon)

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        """The table's plan: the best move where the state stands and its value (as the hint's, MN-33..MN-44).

        ``payload`` is a state (JSON or notation). With ``planner.continuation = none`` the result is optimal for
        the planning model within the reported horizon (status ``EXHAUSTIVE``); with the continuation estimate it
        is ``EXHAUSTIVE`` only when the search reached the end of the session, else ``ESTIMATE`` (no proven
        bound). ``exact`` gives the value as a fraction when the position is small enough for the exact twin.
        """
        from solver.mnemonic.advice import solve
        return solve(self.parse_state(payload), ctx)

    def score(self, payload: Any) -> dict[str, Any]:
        """Odds of a scene (``{"individual": n}`` or ``{"players": [...], "adversary": m}``), or where a session
        (a state or a view) stands: round, phase, tally, the Adversary's pool and whether it has had a Victory."""
        from solver.validate import as_object, check_keys, decode_json
        if isinstance(payload, str) and payload.lstrip().startswith("{"):
            payload = decode_json(payload, "state")
        if not (isinstance(payload, dict) and "mode" not in payload and "view" not in payload):
            return standing(self.parse_position(payload))
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

    # -- puzzles and self-play ----------------------------------------------------------
    PUZZLE_KINDS = ("best-call",)
    SELFPLAY_POLICIES = ("planner", "after-one-round", "after-two-rounds", "plain-after-one-round",
                         "plain-after-two-rounds")
    SELFPLAY_DEFAULT = ("planner", "after-one-round")

    def generate_puzzle(self, kind: str, difficulty: str, rng: Any) -> dict[str, Any]:
        """A best-call puzzle (``solver/mnemonic/puzzles.py``): one player's decision with a proven, unique best
        move; the difficulty is the simplest reasoning that finds it."""
        from solver.mnemonic.puzzles import generate
        return generate(self, difficulty, rng)

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        from solver.mnemonic.puzzles import check
        return check(self, puzzle, answer)

    def prepare(self, verb: str) -> None:
        """``hint``, ``solve`` and ``review`` load the planner and its compiled kernel before the time limit starts
        counting (a first import takes about 1.5 s in an editable install, more than a short limit)."""
        if verb in ("hint", "solve", "review"):
            import solver.mnemonic.advice  # noqa: F401
            import solver.mnemonic.hinting  # noqa: F401
            import solver.mnemonic.view  # noqa: F401

    def puzzle_position(self, puzzle: dict[str, Any]) -> View:
        """The puzzle's player's view at their decision: the answer is the one move played from it (``check``
        also takes it as a JSON list of that one move string)."""
        from solver.mnemonic.puzzles import puzzle_view
        return puzzle_view(self, puzzle)

    def describe_puzzle(self, puzzle: dict[str, Any]) -> str:
        view = self.parse_position(puzzle["position"], "puzzle.position")
        return self.describe(view) + puzzle.get("question", "") + "\n"

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        also = puzzle.get("alsoCorrect") or []
        same = f" (or {', '.join(also)}: same suit)" if also else ""
        return (f"{puzzle['solution']}{same}: Victory chance {puzzle['value']:.4f}, better than any other choice by "
                f"{puzzle['margin']:.4f}")

    def selfplay_game(self, policies: tuple[str, ...], rng: Any, **options: Any) -> dict[str, Any]:
        """One deal played by each policy with the same dice (``solver/mnemonic/selfplay.py``)."""
        from solver.mnemonic.selfplay import play
        return play(self, policies, rng, **{"max_rounds": options.get("maxRounds", 3)})

    # -- command line ---------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        """Mnemonic's own command, ``odds``; the shared verbs (``new``, ``apply``, ``hint``, ...) come from
        :mod:`solver.commands`, with ``--rules FILE`` (the game parameter) and ``hint --horizon R,G``."""
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

    def svg(self, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
        """The table as a player sees it (``solver/mnemonic/picture.py``)."""
        from solver.mnemonic.picture import svg
        return svg(self, self.parse_position(position) if not isinstance(position, (State, View)) else position,
                   hint=hint, **options)

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        from solver.mnemonic.picture import puzzle_svg
        return puzzle_svg(self, puzzle, solution)

    def render_text(self, verb: str, result: Any) -> str | None:
        if verb == "hint":
            return render_hint_text(result)
        return None

    def describe(self, position: State | View, player: int | None = None) -> str:
        """``show``: the round, who acts, the Adversary's pool, each character, hands (the observer's only, in a
        view) and the legal moves."""
        from solver.mnemonic.describe import describe
        if player is not None and isinstance(position, State):
            position = position.view(player)
        if isinstance(position, View):
            return describe(position.known, position.observer, view=True)  # type: ignore[attr-defined]
        return describe(position, None, every_hand=True)  # type: ignore[arg-type]

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

    def demo(self, out: TextIO) -> None:
        """Exact odds, then the short reviewed session of ``docs/sessions/mnemonic.md`` (player 0's seat)."""
        from solver.mnemonic.examples import SESSION
        from solver.record import Record
        from solver.review import render_review, review
        from solver.search import Limits
        import shlex
        for dice in (1, 2, 3):
            render_individual(individual_odds(dice), out)
        render_group(group_odds([3, 2, 0], 4), out)
        game = MnemonicGame(players=2, mode="into-the-grey")
        view = game.new_game(4).view(0)
        entries = [move for _, command in SESSION if " apply " in command and "--record" in command
                   for move in _moves_of(shlex.split(command))]
        record = Record.start_of(view).extended(entries, stamp=False)
        out.write("\nA two-player Into the Grey session, entered from player 0's seat (docs/sessions/mnemonic.md):\n")
        out.write("  " + "; ".join(entries) + "\n\n")
        out.write(render_review(review(game, record, player=0, limits=Limits(nodes=30_000))))


def _moves_of(argv: list[str]) -> list[str]:
    """The MOVE arguments of an ``apply`` command line."""
    moves = argv[argv.index("apply") + 2:]
    return moves[:moves.index("--record")] if "--record" in moves else moves


GAME = MnemonicGame
