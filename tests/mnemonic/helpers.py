"""Loading the documented session's script (it lives in docs/, not in the package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from solver import testing

SESSION_SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "sessions" / "mnemonic_session.py"


def session_script() -> ModuleType:
    """``docs/sessions/mnemonic_session.py``: the documented session and pictures, made by running their commands."""
    spec = importlib.util.spec_from_file_location("mnemonic_session", SESSION_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_action(state, rng):
    """A random move that keeps a session going (ending a scene or retreating only when nothing else is legal)."""
    return testing.random_action(state, rng, avoid=("end", "retreat"))
