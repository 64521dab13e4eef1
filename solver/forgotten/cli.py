"""``memory-solver forgotten place`` (Brain placement advice), the text forms of the shared verbs, and the demo.

The verbs every game shares (``new``, ``show``, ``view``, ``apply``, ``legal-moves``, ``hint``, ``solve``,
``score``, ``generate``, ``check``, ``review``, ``selfplay``) come from ``solver/commands.py``; this module
adds ``place`` and the text a person reads (``ForgottenGame.render_text``, ``describe``). A position carries
its own board; ``--game`` sets the rules (``erasure``, ``goal``) and, for commands without a position, the
board.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any, TextIO

import numpy as np

from solver.commands import add_game_args, add_limit_args, context_from_args, game_from_args, print_json
from solver.errors import InvalidInputError
from solver.forgotten.notation import letter
from solver.registry import load_game
from solver.results import HintResult, SolveResult

POLICIES = {"random": 0, "greedy": 1, "route": 2, "oracle": 3}


def add_commands(commands: argparse._SubParsersAction, game: Any) -> None:
    """Register ``place``, the command only Forgotten has."""
    place = commands.add_parser("place", help="Brain placement advice: the opposite-side cells with the best odds",
                                description="Self-play of the route policy (the greedy policy under goal=clear, where "
                                            "the placement cannot change the odds) for every legal Brain "
                                            "placement (up to symmetry); --nodes is the number of games in all.")
    place.add_argument("--top", type=int, default=5)
    place.add_argument("--json", action="store_true")
    add_limit_args(place)
    add_game_args(place, game)
    place.set_defaults(run=lambda args: _run_place(args, game))


def _run_place(args: argparse.Namespace, default: Any) -> int:
    from solver.forgotten.placement import advise_placement
    game = game_from_args(default, args)
    if args.top < 1:
        raise InvalidInputError("--top", args.top, "must be at least 1")
    result = advise_placement(game, context_from_args(game, args), top=args.top)
    if args.json:
        print_json(result)
        return 0
    out = sys.stdout
    out.write(f"{result['game']}: Brain placements by win probability ({result['gamesPlayed']:,} games of the "
              f"{result['policy']} policy, seed {result['seed']})\n")
    if "note" in result:
        out.write(f"  note: {result['note']}\n")
    for i, p in enumerate(result["placements"], 1):
        twins = p["symmetricPlacements"]
        note = f"; stands for {twins} symmetric placements" if twins > 1 else ""
        out.write(f"{i:>3}. Brains on {p['brains'][0]} and {p['brains'][1]} (brains={p['spec']}): "
                  f"{p['winProbability']:.4f} [{p['ci'][0]:.4f}, {p['ci'][1]:.4f}] over {p['games']:,} games{note}\n")
    return 0


# -- rendering --------------------------------------------------------------------------------------------------------
def render_board(state: Any, out: TextIO, player: int = 0) -> None:
    """The board as the players see it, with dice coordinates."""
    rows = state.observation(player)["board"]
    from solver.forgotten.game import _tokens
    width = state.board.width
    out.write("      " + " ".join(f"{x:>3}" for x in range(1, width + 1)) + "   (x: blue die)\n")
    for y, row in enumerate(rows, 1):
        out.write(f"  y={y:<2}" + " ".join(f"{t:>3}" for t in _tokens(row)) + "\n")
    mover = state.current_player()
    who = {-1: "Erasure roll", -4: "game over"}.get(mover, f"player {mover} to move")
    extra = f", first flip on {state.board.name(state.first)}" if state.phase == "second" else ""
    out.write(f"  turn {state.turn}, {state.phase}{extra}, {who}\n")


def render_hint(result: HintResult, out: TextIO) -> None:
    """A readable hint: moves with win probability, interval and reason."""
    info = result.root_info
    label = "FULL-INFORMATION ANALYSIS (uses hidden tiles; not advice)" if info.get("fullInformation") \
        else "hint from what the players have seen"
    out.write(f"{result.game}: {label}, {info.get('stage', '')}\n")
    if "winProbability" in info and "ci" in info:
        out.write(f"win probability {info['winProbability']:.4f} [{info['ci'][0]:.4f}, {info['ci'][1]:.4f}]"
                  f"{' after ' + format(info['rollouts'], ',') + ' rollouts' if info.get('rollouts') else ''}\n")
    if info.get("rollsThatEndTheGame") is not None:
        fatal = info["rollsThatEndTheGame"]
        out.write(f"rolls that end the game: {', '.join(fatal) if fatal else 'none'}\n")
    plan = info.get("planMove")
    if plan and all(m.move != plan for m in result.move_infos):
        out.write(f"(the route plan's own move, {plan}, is beaten on the same rollouts by the moves below)\n")
    for move in result.move_infos:
        ci = move.extra.get("ci", [move.value, move.value])
        out.write(f"{move.order + 1:>3}. {move.move:<11} {move.value:.4f} [{ci[0]:.4f}, {ci[1]:.4f}]  {move.why}\n")
        if move.extra.get("then"):
            plan = "; ".join(f"{k}: {v}" for k, v in move.extra["then"].items())
            out.write(f"       then {plan}\n")
        elif len(move.pv) > 1:
            out.write(f"       then {' '.join(move.pv[1:])}\n")


def describe_position(position: Any) -> str:
    """A state or view as text: the board as the players see it, whose turn it is, what is waited for."""
    from solver.forgotten.view import ForgottenView
    out = io.StringIO()
    if isinstance(position, ForgottenView):
        out.write(f"player {position.observer}'s view (both players see every flip)\n")
        render_board(position.known, out)
        if position.flipped >= 0:
            out.write(f"  flipped {position.board.name(position.flipped)}: enter the tile it shows ('shows L')\n")
    else:
        render_board(position, out)
    return out.getvalue()


def hint_text(result: HintResult) -> str:
    out = io.StringIO()
    render_hint(result, out)
    return out.getvalue()


def solve_text(result: SolveResult) -> str:
    out = io.StringIO()
    solution = result.solution
    if solution.get("position"):
        out.write(f"position: {solution['position']}\n")
    if not result.optimal:
        out.write(f"not solved: {solution.get('reason', result.status)} "
                  f"({solution.get('knowledgeStates', 0):,} knowledge states); try a larger --time-ms\n")
        solved = [m for m in solution.get("moves", []) if m["winProbability"] is not None and m["move"] != "give up"]
        if solved:
            out.write(f"best so far {result.value:.6f} (exact for the moves solved; the others are not):\n")
            for move in solved:
                out.write(f"    {move['move']:<12} {move['winProbability']:.6f}\n")
        return out.getvalue()
    out.write(f"optimal win probability {result.value:.6f} (proven: {result.status}, "
              f"{solution['knowledgeStates']:,} knowledge states, {result.seconds:.2f} s)\n")
    for move in solution.get("moves", []):
        mark = "*" if move["move"] in solution.get("bestMoves", []) else " "
        out.write(f"  {mark} {move['move']:<12} {move['winProbability']:.6f}\n")
    return out.getvalue()


def score_text(report: dict[str, Any]) -> str:
    out = io.StringIO()
    out.write(f"status: {report['status']} (turn {report['turn']}, phase {report['phase']})\n")
    if report.get("flipped"):
        out.write(f"flipped {report['flipped']}: the tile it shows is not entered yet\n")
    route = report["route"]
    if route is None:
        out.write(f"goal clear: {report['tiles']['faceDown']} tiles face down still to match\n")
    elif route["missingTiles"] is None:
        out.write("no route is possible any more\n")
    else:
        out.write(f"fewest tiles still to turn face up on a route: {route['missingTiles']}; "
                  f"cheapest route cost {route['cost']} ({route['costMeaning']})\n")
        out.write(f"tiles on cheapest routes: {', '.join(route['cells']) or 'none (face-up tiles only)'}\n")
    for key, label in (("knownPairs", "known pairs"), ("seenSingles", "seen, partner unseen"),
                       ("lostTiles", "partner erased")):
        if report[key]:
            out.write(f"{label}: {'; '.join(report[key])}\n")
    if "erasure" in report:
        fatal = report["erasure"]["rollsThatEndTheGame"]
        out.write(f"Erasure rolls that would end the game: {', '.join(fatal) if fatal else 'none'} "
                  f"({len(fatal)}/{report['erasure']['outOf']})\n")
    return out.getvalue()


# -- demo ---------------------------------------------------------------------------------------------------------------
def demo(out: TextIO) -> None:
    """Built-in examples: a hint on the real board, an exact solution, placement advice, the memory-game anchor."""
    from solver.forgotten.exact import clear_expected_turns
    from solver.forgotten.hints import hint
    from solver.forgotten.placement import advise_placement
    from solver.forgotten.solve import solve_position
    from solver.search import Limits, SearchContext

    game = load_game("forgotten")
    truth = _demo_position(game)
    view = truth.view(0)
    out.write(f"1. A hint on the real 6x6 board from player 0's view (turn {truth.turn}; '?' = nobody has seen "
              "that tile):\n")
    render_board(view.known, out)
    result = game.hint(view, SearchContext(limits=Limits(nodes=6000), seed=1), top=3)
    render_hint(result, out)
    best = result.best.move
    view.apply_move(best)
    if view.flipped >= 0:
        truth.apply_move(best)
        shown = f"shows {letter(truth.tiles[truth.first])}"
        view.apply_move(shown)
        best = f"{best}' and '{shown}"
    out.write(f"\n   After '{best}', the second flip:\n")
    render_hint(game.hint(view, SearchContext(limits=Limits(nodes=4000), seed=1), top=3), out)

    small = load_game("forgotten(width=4,height=3,pairs=3,erasure=turn)")
    puzzle = small.state_from_notation("C.b./@Bc@/.-a.a 2 first")
    out.write("\n2. Exact solution on a 4x3 board (Erasure after every turn; a removed tile nobody saw):\n")
    render_board(puzzle, out)
    solved = solve_position(small, small.state_from_json(puzzle.observation(0)), SearchContext())
    out.write(f"   optimal win probability {solved.value:.6f} ({solved.status}); the game is still alive with "
              f"probability {solved.solution['aliveProbability']:.4f} given what was seen\n")
    for move in solved.solution["moves"][:4]:
        out.write(f"   {move['move']:<10} {move['winProbability']:.6f}\n")

    out.write("\n3. Brain placement advice on a 4x4 board with 7 pairs (route policy self-play):\n")
    advice = advise_placement(load_game("forgotten(width=4,height=4,pairs=7)"),
                              SearchContext(limits=Limits(nodes=40_000), seed=0), top=3)
    for p in advice["placements"]:
        out.write(f"   Brains on {p['brains'][0]} and {p['brains'][1]}: {p['winProbability']:.4f} "
                  f"[{p['ci'][0]:.4f}, {p['ci'][1]:.4f}]\n")

    out.write("\n4. Memory-game anchor (goal=clear, erasure=off): perfect memory needs on average\n")
    for n in (2, 4, 17):
        value = clear_expected_turns(2 * n)
        exact = f" = {value}" if n <= 4 else ""
        out.write(f"   {n:>2} pairs: {float(value):.4f} turns{exact}\n")

    out.write("\n5. A short game at the table, reviewed (4x3 board; player 0 follows the hint but once; "
              "docs/sessions/forgotten.md):\n")
    _reviewed_game(out)


def _reviewed_game(out: TextIO, deal: int = 29, dice_seed: int = 3, deviation: tuple[int, str] = (2, "second")) -> None:
    """A seeded deal played from player 0's view with the hint's moves (one deviation), then reviewed."""
    from solver.record import Record
    from solver.review import render_review, review
    from solver.search import Limits, SearchContext
    game = load_game("forgotten(width=4,height=3)")
    truth = game.new_game(deal)
    dice = np.random.default_rng(dice_seed)
    view = game.new_table(0)
    entries: list[str] = []
    while not truth.is_terminal():
        if truth.is_chance_node():
            cell = int(dice.integers(truth.board.cells))
            roll = truth.action_to_string(cell)
            truth.apply_action(cell)
            typed = [roll + " lost" if truth.phase == "lost" and not view.child(roll).is_terminal() else roll]
        else:
            move = game.hint(view, SearchContext(limits=Limits(nodes=2000), seed=0), top=2).best.move
            if (truth.turn, truth.phase) == deviation:
                move = next(m for m in view.legal_moves() if m not in (move, "give up"))
            action = truth.parse_move(move)
            unseen = not truth.seen[action]
            truth.apply_action(action)
            typed = [move] + ([f"shows {letter(truth.tiles[action])}"] if unseen else [])
        for entry in typed:
            view.apply_move(entry)
        entries += typed
    out.write(f"   entered: {', '.join(entries)}\n   final position: {view.to_notation()}\n")
    record = Record.start_of(game.new_table(0)).extended(entries, stamp=False)
    text = render_review(review(game, record, None, Limits(nodes=2000)))
    out.write("".join(f"   {line}\n" for line in text.splitlines()))


def _demo_position(game: Any) -> Any:
    """A seeded 6x6 game played for six turns by the route policy, Erasure dice included."""
    from solver.forgotten.state import GIVE_UP
    from solver.kernels import forgotten_playout
    state = game.new_initial_state(2024)
    rng = np.random.default_rng(7)
    board = game.board
    while state.turn < 6 or state.phase != "first":
        if state.is_chance_node():
            state.apply_action(int(rng.integers(board.cells)))
            continue
        first = state.first if state.phase == "second" else -1
        move = forgotten_playout.policy_move(board.width, board.height, *board.brains, *state.arrays(), first, 2, 0)
        state.apply_action(move if move != GIVE_UP else state.legal_actions()[0])
    return state
