"""Contract checks any game can run on itself (after OpenSpiel's ``basic_tests``).

``random_simulation`` plays seeded random games and checks, at every state,
that the contract holds: sorted legal actions, chance probabilities summing to
one, JSON and notation round trips, independent clones, and observations that
survive re-sampling of the hidden information. Games add their own invariants
(no card lost or duplicated) through ``check``. ``TimedLines`` records an engine's
answer lines with the time each was written (limit and terminate checks). ``svg_root``, ``click_targets`` and
``click_reaches`` check a picture the way the web board uses it. ``wait_until`` polls a condition;
``serving`` runs a web app on a free loopback port in a thread of the test's process.
``printed_sheets`` writes and checks a run's puzzle sheets. ``cancelled_after`` measures how soon a search stops
once terminated.
"""

from __future__ import annotations

import json
import math
import re
import socket
import subprocess
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.drawing import write_puzzle_sheets
from solver.game import Game, State
from solver.search import SearchContext


@dataclass
class SimulationReport:
    """What a batch of random games did."""

    games: int = 0
    steps: int = 0
    chance_steps: int = 0
    terminal: int = 0


def check_state_contract(state: State, rng: np.random.Generator, resample: bool = True) -> None:
    """Assert the contract at one state (raises ``AssertionError`` with the state's notation)."""
    game = state.game
    where = state.to_notation()
    legal = state.legal_actions()
    assert legal == sorted(legal), f"legal actions not sorted at {where}"
    assert len(set(legal)) == len(legal), f"duplicate legal actions at {where}"
    if state.is_terminal():
        assert not legal, f"terminal state with legal actions at {where}"
        assert len(state.returns()) >= 1
    else:
        assert legal, f"non-terminal state without legal actions at {where}"
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == legal, f"chance outcomes differ from legal actions at {where}"
        total = sum(p for _, p in outcomes)
        assert math.isclose(total, 1.0, rel_tol=0, abs_tol=1e-9), f"chance probabilities sum to {total} at {where}"
        assert all(p > 0 for _, p in outcomes), f"zero-probability chance outcome at {where}"
    else:
        for action in legal:
            text = state.action_to_string(action)
            assert state.parse_move(text) == action, f"move {text!r} does not parse back at {where}"
    as_json = state.to_json()
    json.dumps(as_json)  # must be plain JSON
    assert game.state_from_json(as_json).to_json() == as_json, f"JSON round trip changed the state at {where}"
    assert game.state_from_notation(where).to_notation() == where, f"notation round trip failed at {where}"
    copy = state.clone()
    assert copy.to_json() == as_json
    if resample and not state.is_terminal() and not state.is_chance_node():
        player = state.current_player()
        seen = state.observation(player)
        json.dumps(seen)
        sampled = state.resample_from_observation(player, rng)
        assert sampled.observation(player) == seen, f"re-sampling changed player {player}'s observation at {where}"


def random_simulation(game: Game, games: int, seed: int, max_steps: int = 100_000,
                      check: Callable[[State], None] | None = None, check_every: int = 1,
                      resample: bool = True) -> SimulationReport:
    """Play ``games`` random games (seeded) checking the contract (and ``check``) along the way."""
    rng = np.random.default_rng(seed)
    report = SimulationReport()
    for g in range(games):
        state = game.new_initial_state(seed=int(rng.integers(2**62)))
        for step in range(max_steps):
            if step % check_every == 0:
                check_state_contract(state, rng, resample=resample)
                if check is not None:
                    check(state)
            if state.is_terminal():
                report.terminal += 1
                break
            if state.is_chance_node():
                action = state.sample_chance_outcome(rng)
                report.chance_steps += 1
            else:
                legal = state.legal_actions()
                action = int(legal[rng.integers(len(legal))])
            copy_before = state.to_json()
            child = state.child(action)
            assert state.to_json() == copy_before, "child() modified its parent"
            state = child
            report.steps += 1
        else:
            raise AssertionError(f"game {g} did not end within {max_steps} steps")
        if check is not None:
            check(state)
        report.games += 1
    return report


class TimedLines:
    """An engine output stream that keeps each answer line, parsed, with the time it was written."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, dict]] = []
        self.lock = threading.Lock()

    def write(self, text: str) -> None:
        with self.lock:
            for line in text.splitlines():
                self.lines.append((time.perf_counter(), json.loads(line)))

    def flush(self) -> None:
        pass

    def answers(self) -> list[dict]:
        """Every answer line written so far, parsed, in order (interim reports included)."""
        with self.lock:
            return [answer for _, answer in self.lines]

    def of(self, qid: object, interim: bool = False) -> list[tuple[float, dict]]:
        """(time, answer) of query ``qid``: its final answers, or with ``interim`` its reports during search."""
        return [(t, r) for t, r in self.lines if r.get("id") == qid and bool(r.get("isDuringSearch")) == interim]


def command_line(main: Callable[[list[str]], int], argv: list[str], capfd: Any) -> subprocess.CompletedProcess:
    """A command line run in the test's process: ``main(argv)`` (``solver.cli.main``), its exit status (argparse's
    ``SystemExit`` too) and what it wrote to the standard output and error, read by pytest's ``capfd`` at the file
    descriptors (a kernel's or a worker's output too), as a process of its own would give them; without the second
    of imports a process costs (issue 24)."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(argv, status, out, err)


def first_decision(game: Game, seed: int) -> State:
    """A game dealt with ``seed`` and advanced by seeded chance outcomes to the first decision of a player."""
    rng = np.random.default_rng(seed)
    state = game.new_game(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome(rng))
    return state


def random_action(state: State, rng: np.random.Generator, avoid: tuple[str, ...] = ()) -> int:
    """A chance outcome drawn with its probability, else a legal action drawn uniformly (moves named in ``avoid``,
    such as a game's "end", only when nothing else is legal)."""
    if state.is_chance_node():  # written out, not State.sample_chance_outcome: OpenSpiel's states are welcome too
        actions, probs = zip(*state.chance_outcomes())
        return int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))
    legal = state.legal_actions()
    keep = [a for a in legal if state.action_to_string(a) not in avoid] or legal
    return int(keep[rng.integers(len(keep))])


SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"


def svg_root(picture: str) -> ET.Element:
    """The parsed root of an SVG picture, checked to be ``<svg>`` with a four-number ``viewBox``."""
    root = ET.fromstring(picture.encode())
    assert root.tag == f"{SVG_NAMESPACE}svg" and len(root.get("viewBox", "").split()) == 4
    return root


def printed_sheets(game: Game, puzzles: list[dict[str, Any]],
                   directory: str | Path) -> tuple[list[tuple[str, str]], str]:
    """The puzzle sheets ``write_puzzle_sheets`` writes into ``directory``, checked as a printer gets them: a sheet
    and a solution sheet for each puzzle and one answers page, each an SVG picture, the answers page naming every
    puzzle. Returns each puzzle's ``(sheet, solution sheet)``, in order, and the answers page."""
    written = [Path(path).read_text(encoding="utf-8") for path in write_puzzle_sheets(game, puzzles, str(directory))]
    assert len(written) == 2 * len(puzzles) + 1
    for picture in written:
        svg_root(picture)
    answers = written[-1]
    assert all(puzzle["id"] in answers for puzzle in puzzles)
    return list(zip(written[0:-1:2], written[1:-1:2])), answers


def click_targets(picture: str | ET.Element) -> set[str]:
    """The ``data-target`` tokens a player can click in a picture (its text or its parsed root)."""
    root = svg_root(picture) if isinstance(picture, str) else picture
    return {el.get("data-target") for el in root.iter() if el.get("data-target")}


def click_reaches(move: str, targets: set[str]) -> bool:
    """The web board's rule (``solver/web/static/board.js``, ``movesFor``): a click on some target offers the
    move when the target, compared without case, is the move or one of its tokens."""
    lower = move.lower()
    tokens = set(re.split(r"[\s;@=:()]+", lower)) | set(re.split(r"[\s,;@=:()]+", lower))
    wanted = {t.lower() for t in targets}
    return lower in wanted or bool((tokens - {""}) & wanted)


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, poll: float = 0.02) -> bool:
    """Whether ``condition()`` came true within ``timeout`` seconds (asked every ``poll`` seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(poll)
    return False


@contextmanager
def serving(app: Any, **config: Any) -> Iterator[str]:
    """``app`` (an ASGI app) served by uvicorn with ``config`` on a free port of 127.0.0.1, in a thread of this
    process: yields its URL ``http://127.0.0.1:PORT`` once the server has started, and stops it on leaving."""
    import uvicorn  # lazy: start-up speed (only the web tests serve)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        if not wait_until(lambda: server.started, timeout=30.0, poll=0.05):
            raise RuntimeError(f"the test server on port {port} did not start within 30 s")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def cancelled_after(search: Callable[[], Any], ctx: SearchContext, seconds: float,
                    timeout: float | None = None) -> tuple[Any, float]:
    """``search()`` (a search under ``ctx``) run on a thread of its own and terminated (``ctx.cancel``, as the
    engine's ``terminate``) ``seconds`` after it started: its answer, and the seconds from the cancel to it. Fails
    when the search has not answered ``timeout`` seconds after the cancel (None: waits)."""
    answer: dict[str, Any] = {}

    def run() -> None:
        answer["result"] = search()
        answer["at"] = time.perf_counter()

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(seconds)
    cancelled = time.perf_counter()
    ctx.cancel.set()
    worker.join(timeout)
    assert not worker.is_alive(), f"the search still runs {timeout} s after it was terminated"
    return answer["result"], answer["at"] - cancelled
