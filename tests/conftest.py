"""Shared fixtures. (Tests import the installed ``solver``; see ``--import-mode=importlib`` in pyproject.)"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from solver import registry


def _load_toygame():
    name = "memory_solver_tests_toygame"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("toygame.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture
def pile_game(monkeypatch):
    """Registers the toy game ``pile`` (tests/toygame.py) for protocol tests."""
    module = _load_toygame()
    monkeypatch.setitem(registry.GAMES, "pile", f"{module.__name__}:PileGame")
    return module.PileGame()


class _AnswerLines(list):
    """The engine's output stream, kept as the JSON objects of its lines."""

    def write(self, text):
        self.extend(json.loads(line) for line in text.splitlines())

    def flush(self):
        pass


@pytest.fixture
def engine_answers():
    """``engine_answers(query, ...)``: the queries sent to an in-process engine one after the other, then every
    answer line (interim reports included) as a dict, once the engine has finished them all."""
    from solver.engine import Engine

    def answers(*queries):
        out = _AnswerLines()
        engine = Engine(out)
        for query in queries:
            engine.handle_line(json.dumps(query))
        engine.close()
        return list(out)
    return answers
