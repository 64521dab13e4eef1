"""``memory-solver forgotten ...``: hint, solve, score, legal-moves, place, selfplay, generate; and the demo.

Every command that takes a position reads STATE as a JSON file, ``-`` (stdin), inline JSON or the
notation (docs/formats/forgotten.md). The position carries its own board; ``--game`` sets the rules
(``erasure``, ``goal``) and, for commands without a position, the board.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

import numpy as np

from solver.cli import add_limit_args, context_from_args, print_json, read_input_arg
from solver.errors import InvalidInputError
from solver.forgotten.notation import letter
from solver.registry import load_game
from solver.results import HintResult

POLICIES = {"random": 0, "greedy": 1, "route": 2, "oracle": 3}


def _game(args: argparse.Namespace, default: Any) -> Any:
    if not getattr(args, "game", None):
        return default
    game = load_game(args.game, "--game")
    if game.name != "forgotten":
        raise InvalidInputError("--game", args.game, "expected a Forgotten game such as 'forgotten(erasure=turn)'")
    return game


def _position(args: argparse.Namespace, default: Any) -> Any:
    game = _game(args, default)
    return game, game.parse_state(read_input_arg(args.state), "STATE")


def add_commands(commands: argparse._SubParsersAction, game: Any) -> None:
    """Register the Forgotten sub-commands."""
    position_help = ("STATE is a JSON file, '-' for stdin, inline JSON or the notation "
                     "'ROWS TURN PHASE [FIRST]' (docs/formats/forgotten.md)")

    def with_game(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--game", default=None, metavar="SPEC",
                            help="rules and board, e.g. 'forgotten(erasure=turn)' or 'forgotten(width=4,height=4)' "
                                 "(default: forgotten)")

    hint = commands.add_parser("hint", help="rank the flips of this stage of the turn by win probability",
                               description="Rank the flips of the player to move by win probability, with 95%% "
                                           "intervals and reasons, from what the players have seen. " + position_help)
    hint.add_argument("state", metavar="STATE")
    hint.add_argument("--top", type=int, default=3, help="moves to show (default 3)")
    hint.add_argument("--player", type=int, default=None, help="advise this player (default: the player to move)")
    hint.add_argument("--full-information", action="store_true",
                      help="analyse with every tile known (labelled as such; not advice)")
    hint.add_argument("--json", action="store_true", help="print the engine's JSON response")
    add_limit_args(hint)
    with_game(hint)
    hint.set_defaults(run=lambda args: _run_hint(args, game))

    solve = commands.add_parser("solve", help="exact optimal win probability of every move (boards up to 24 cells)",
                                description="Expectimax over what the players know; proven optimal values. "
                                            + position_help)
    solve.add_argument("state", metavar="STATE")
    solve.add_argument("--json", action="store_true")
    add_limit_args(solve, seed=False)
    with_game(solve)
    solve.set_defaults(run=lambda args: _run_solve(args, game))

    score = commands.add_parser("score", help="status, route and Erasure risks of a position",
                                description="What the position means for the players. " + position_help)
    score.add_argument("state", metavar="STATE")
    score.add_argument("--json", action="store_true")
    with_game(score)
    score.set_defaults(run=lambda args: _run_score(args, game))

    legal = commands.add_parser("legal-moves", help="list the legal moves of the player to act")
    legal.add_argument("state", metavar="STATE")
    legal.add_argument("--json", action="store_true")
    with_game(legal)
    legal.set_defaults(run=lambda args: _run_legal(args, game))

    place = commands.add_parser("place", help="Brain placement advice: the opposite-side cells with the best odds",
                                description="Self-play of the route policy for every legal Brain placement (up to "
                                            "symmetry); --nodes is the number of games in all.")
    place.add_argument("--top", type=int, default=5)
    place.add_argument("--json", action="store_true")
    add_limit_args(place)
    with_game(place)
    place.set_defaults(run=lambda args: _run_place(args, game))

    selfplay = commands.add_parser("selfplay", help="win rate of a policy over seeded games, with a 95%% interval")
    selfplay.add_argument("--policy", choices=sorted(POLICIES), default="route")
    selfplay.add_argument("--games", type=int, default=10_000)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--json", action="store_true")
    with_game(selfplay)
    selfplay.set_defaults(run=lambda args: _run_selfplay(args, game))

    generate = commands.add_parser("generate", help="puzzles with a unique best move or a forced connection",
                                   description="Positions (known tiles, removed cells) whose answer is verified by "
                                               "exact search; see docs/formats/forgotten.md. What to expect: a few "
                                               "seconds of CPU per puzzle on boards of up to 24 cells (best-move "
                                               "puzzles are solved exactly, one solver shared by every candidate, "
                                               "positions with at most 6 unseen tiles); on larger boards only "
                                               "forced connections, usually faster. Fewer puzzles than --count "
                                               "come back when none are found within 200 self-played games per "
                                               "puzzle asked.")
    generate.add_argument("--count", type=int, default=5)
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--difficulty", choices=("easy", "medium", "hard"), default="medium")
    generate.add_argument("--json", action="store_true")
    with_game(generate)
    generate.set_defaults(run=lambda args: _run_generate(args, game))


# -- runners -------------------------------------------------------------------------------------------------------
def _run_hint(args: argparse.Namespace, default: Any) -> int:
    game, state = _position(args, default)
    if args.top < 1:
        raise InvalidInputError("--top", args.top, "must be at least 1")
    result = game.hint(state, context_from_args(game, args), top=args.top, player=args.player,
                       full_information=args.full_information)
    if args.json:
        print_json(result.to_json())
    else:
        render_board(state, sys.stdout)
        render_hint(result, sys.stdout)
    return 0


def _run_solve(args: argparse.Namespace, default: Any) -> int:
    import solver.forgotten.solve  # noqa: F401  (load the exact kernel before the time limit starts counting)
    game, state = _position(args, default)
    result = game.solve(state, context_from_args(game, args))
    if args.json:
        print_json(result.to_json())
        return 0
    render_board(state, sys.stdout)
    out = sys.stdout
    if not result.optimal:
        out.write(f"not solved: {result.solution.get('reason', result.status)} "
                  f"({result.solution.get('knowledgeStates', 0):,} knowledge states); try a larger --time-ms\n")
        solved = [m for m in result.solution.get("moves", []) if m["winProbability"] is not None
                  and m["move"] != "give up"]
        if solved:
            out.write(f"best so far {result.value:.6f} (exact for the moves solved; the others are not):\n")
            for move in solved:
                out.write(f"    {move['move']:<12} {move['winProbability']:.6f}\n")
        return 0
    out.write(f"optimal win probability {result.value:.6f} (proven: {result.status}, "
              f"{result.solution['knowledgeStates']:,} knowledge states, {result.seconds:.2f} s)\n")
    for move in result.solution.get("moves", []):
        mark = "*" if move["move"] in result.solution.get("bestMoves", []) else " "
        out.write(f"  {mark} {move['move']:<12} {move['winProbability']:.6f}\n")
    return 0


def _run_score(args: argparse.Namespace, default: Any) -> int:
    game, state = _position(args, default)
    report = game.score(state)
    if args.json:
        print_json(report)
        return 0
    render_board(state, sys.stdout)
    out = sys.stdout
    out.write(f"status: {report['status']} (turn {report['turn']}, phase {report['phase']})\n")
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
    return 0


def _run_legal(args: argparse.Namespace, default: Any) -> int:
    game, state = _position(args, default)
    moves = game.legal_moves(state)
    if args.json:
        print_json({"moves": moves})
    else:
        sys.stdout.write("\n".join(moves) + ("\n" if moves else ""))
    return 0


def _run_place(args: argparse.Namespace, default: Any) -> int:
    from solver.forgotten.placement import advise_placement
    game = _game(args, default)
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


def _run_selfplay(args: argparse.Namespace, default: Any) -> int:
    from solver.forgotten.hints import wilson
    from solver.kernels import forgotten_playout
    game = _game(args, default)
    if not 1 <= args.games <= 100_000_000:
        raise InvalidInputError("--games", args.games, "must be 1 to 100,000,000")
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    wins = np.zeros(args.games, np.uint8)
    turns = np.zeros(args.games, np.int32)
    won = forgotten_playout.play_games(game.width, game.height, *game.board.brains, game.pairs, game.erasure_code,
                                       game.goal_code, POLICIES[args.policy], args.seed, wins, turns)
    lo, hi = wilson(int(won), args.games)
    report = {"game": game.spec(), "policy": args.policy, "games": args.games, "seed": args.seed,
              "wins": int(won), "winRate": won / args.games, "ci": [lo, hi], "meanTurns": float(turns.mean()),
              "meanTurnsWhenWon": float(turns[wins == 1].mean()) if won else None}
    if args.json:
        print_json(report)
    else:
        sys.stdout.write(f"{report['game']}, {args.policy} policy: {won:,}/{args.games:,} won = "
                         f"{report['winRate']:.4f} [{lo:.4f}, {hi:.4f}], {report['meanTurns']:.2f} turns per game\n")
    return 0


def _run_generate(args: argparse.Namespace, default: Any) -> int:
    from solver.forgotten.puzzles import generate, render_puzzle
    game = _game(args, default)
    if not 1 <= args.count <= 1000:
        raise InvalidInputError("--count", args.count, "must be 1 to 1000")
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    puzzles = generate(game, args.count, args.seed, args.difficulty)
    if args.json:
        print_json({"game": game.spec(), "difficulty": args.difficulty, "seed": args.seed,
                    "puzzles": [p.to_json() for p in puzzles]})
    else:
        for i, puzzle in enumerate(puzzles, 1):
            sys.stdout.write(f"puzzle {i}:\n")
            render_puzzle(puzzle, sys.stdout)
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
    elif plan and result.move_infos and result.move_infos[0].move == plan and \
            any(m.value > result.move_infos[0].value for m in result.move_infos[1:]):
        out.write(f"(first: the route plan's own move, {plan}; a higher estimate below does not beat it by more "
                  "than 2 standard errors on the same rollouts, so the difference may be noise)\n")
    for move in result.move_infos:
        ci = move.extra.get("ci", [move.value, move.value])
        out.write(f"{move.order + 1:>3}. {move.move:<11} {move.value:.4f} [{ci[0]:.4f}, {ci[1]:.4f}]  {move.why}\n")
        if move.extra.get("then"):
            plan = "; ".join(f"{k}: {v}" for k, v in move.extra["then"].items())
            out.write(f"       then {plan}\n")
        elif len(move.pv) > 1:
            out.write(f"       then {' '.join(move.pv[1:])}\n")


# -- demo ---------------------------------------------------------------------------------------------------------------
def demo(out: TextIO) -> None:
    """Built-in examples: a hint on the real board, an exact solution, placement advice, the memory-game anchor."""
    from solver.forgotten.exact import clear_expected_turns
    from solver.forgotten.hints import hint
    from solver.forgotten.placement import advise_placement
    from solver.forgotten.solve import solve_position
    from solver.search import Limits, SearchContext

    game = load_game("forgotten")
    state = game.state_from_json(_demo_position(game).observation(0))
    out.write(f"1. A hint on the real 6x6 board (turn {state.turn}; '?' = nobody has seen that tile):\n")
    render_board(state, out)
    result = hint(state, SearchContext(limits=Limits(nodes=6000), seed=1), top=3)
    render_hint(result, out)
    best = result.best.move
    state.apply_move(best)
    out.write(f"\n   After '{best}' the tile shows {letter(state.tiles[state.first])}; the second flip:\n")
    render_hint(hint(state, SearchContext(limits=Limits(nodes=4000), seed=1), top=3), out)

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
