"""Forgotten as text for a person: positions (``show``), hints, exact solutions, scores, puzzle answers and Brain
placement advice.

The board is drawn as the players see it, with the dice coordinates (x from the blue die, y from the orange
die); a view says whose it is and what it waits for.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, TextIO

from solver.forgotten.tiles import tokens
from solver.forgotten.view import ForgottenView
from solver.results import HintResult, SolveResult, percent

if TYPE_CHECKING:
    from solver.forgotten.state import ForgottenState


def describe(game: Any, position: ForgottenState | ForgottenView) -> str:
    """A state or view as text: the board as the players see it, whose turn it is, what is waited for."""
    if not isinstance(position, ForgottenView):
        return render_board(position)
    return (f"player {position.observer}'s view (both players see every flip)\n" + render_board(position.known)
            + (f"  flipped {position.board.name(position.flipped)}: enter the tile it shows ('shows L')\n"
               if position.flipped >= 0 else ""))


def turn_label(game: Any, position: ForgottenState | ForgottenView) -> str:
    """The turn as the board text counts it, and the flip of the turn (a review's ``gameTurn``)."""
    state = position.known if isinstance(position, ForgottenView) else position
    stage = {"first": ", first flip", "second": ", second flip"}.get(state.phase, "")
    return f"turn {state.turn}{stage}"


def waiting(game: Any, position: ForgottenState | ForgottenView) -> str | None:
    """What a view waits for: the tile a flip turned up, entered by its pair letter."""
    if isinstance(position, ForgottenView) and position.flipped >= 0:
        return (f"the tile flipped on {position.board.name(position.flipped)}: enter it as 'shows L' with L its pair "
                "letter, e.g. 'shows B'")
    if isinstance(position, ForgottenView) and position.known.phase == "erase":
        return ("the Erasure roll: enter the dice as 'erase x,y' (x from the blue die, y from the orange die), or "
                "'erase x,y lost' when the roll ends the game")
    return None


def render(verb: str, result: Any) -> str | None:
    """The text of a shared verb's result (``hint``, ``solve``, ``score``); ``None`` for the generic lines."""
    renderer = {"hint": hint_text, "solve": solve_text, "score": score_text}.get(verb)
    return renderer(result) if renderer else None


def render_board(state: ForgottenState, player: int = 0) -> str:
    """The board as the players see it, with dice coordinates, and whose turn it is."""
    rows = state.observation(player)["board"]
    width = state.board.width
    out = "      " + " ".join(f"{x:>3}" for x in range(1, width + 1)) + "   (x: blue die)\n"
    for y, row in enumerate(rows, 1):
        out += f"  y={y:<2}" + " ".join(f"{t:>3}" for t in tokens(row)) + "\n"
    mover = state.current_player()
    who = {-1: "Erasure roll", -4: "game over"}.get(mover, f"player {mover} to move")
    extra = f", first flip on {state.board.name(state.first)}" if state.phase == "second" else ""
    return out + f"  turn {state.turn}, {state.phase}{extra}, {who}\n"


def hint_text(result: HintResult) -> str:
    """A readable hint: moves with win probability, interval and reason."""
    out = io.StringIO()
    _write_hint(result, out)
    return out.getvalue()


def _write_hint(result: HintResult, out: TextIO) -> None:
    info = result.root_info
    label = "FULL-INFORMATION ANALYSIS (uses hidden tiles; not advice)" if info.get("fullInformation") \
        else "hint from what the players have seen"
    out.write(f"{result.game}: {label}, {info.get('stage', '')}\n")
    if "winProbability" in info and "ci" in info:
        out.write(f"win probability {percent(info['winProbability'])} (95% interval {percent(info['ci'][0])} to "
                  f"{percent(info['ci'][1])})"
                  f"{' after ' + format(info['rollouts'], ',') + ' rollouts' if info.get('rollouts') else ''}\n")
    if info.get("rollsThatEndTheGame") is not None:
        fatal = info["rollsThatEndTheGame"]
        out.write(f"rolls that end the game: {', '.join(fatal) if fatal else 'none'}\n")
    plan = info.get("planMove")
    if plan and result.move_infos and all(m.move != plan for m in result.move_infos):
        out.write(f"(the plan's own move, {plan}, is not listed: {result.move_infos[0].move} is significantly better "
                  "than it on the rollouts they share)\n")
    for move in result.move_infos:
        ci = move.extra.get("ci", [move.value, move.value])
        out.write(f"{move.order + 1:>3}. {move.move:<11} {percent(move.value):>6} [{percent(ci[0])}, "
                  f"{percent(ci[1])}]  {move.why}\n")
        if move.extra.get("then"):
            plan = "; ".join(f"{k}: {v}" for k, v in move.extra["then"].items())
            out.write(f"       then {plan}\n")
        elif len(move.pv) > 1:
            out.write(f"       then {' '.join(move.pv[1:])}\n")


def solve_text(result: SolveResult) -> str:
    """An exact solution: the optimal win probability with its proof and every move's value (or the best so far)."""
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
    """Where a position stands: status, route, known and lost tiles, the Erasure rolls that would end the game."""
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


def answer_line(puzzle: dict[str, Any]) -> str:
    """The proven answer in one line."""
    answer = puzzle.get("answer") or {}
    if puzzle.get("kind") == "forced-connection":
        turns = answer.get("turns")
        return f"{' or '.join(answer.get('firstMoves', []))} (sure within {turns} turn{'s' if turns != 1 else ''})"
    return (f"{answer.get('move')} (wins {percent(answer.get('winProbability', 0))}; next best "
            f"{answer.get('secondBest')} {percent(answer.get('secondBestWinProbability', 0))})")


def placement_text(result: dict[str, Any]) -> str:
    """Brain placement advice (``place``): placements by win probability, with intervals."""
    out = io.StringIO()
    out.write(f"{result['game']}: Brain placements by win probability ({result['gamesPlayed']:,} games of the "
              f"{result['policy']} policy, seed {result['seed']})\n")
    if "note" in result:
        out.write(f"  note: {result['note']}\n")
    for i, p in enumerate(result["placements"], 1):
        twins = p["symmetricPlacements"]
        note = f"; stands for {twins} symmetric placements" if twins > 1 else ""
        out.write(f"{i:>3}. Brains on {p['brains'][0]} and {p['brains'][1]} (brains={p['spec']}): "
                  f"{p['winProbability']:.4f} [{p['ci'][0]:.4f}, {p['ci'][1]:.4f}] over {p['games']:,} games{note}\n")
    return out.getvalue()
