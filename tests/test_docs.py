"""The README's examples run (python-chess style), and CI runs the README's test command."""

import doctest
import re
from pathlib import Path

import solver
import solver.errors

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_package_docstrings():
    for module in (solver, solver.errors):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0


def test_quick_start_has_two_commands_and_ci_runs_the_test_command():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^```(?:sh|bash|console)?\n(.*?)\n```", section, flags=re.M | re.S)
    lines = [line for block in commands for line in block.splitlines() if line.strip()]
    assert len(lines) == 2, lines
    assert "memory-solver demo" in lines[0]
    assert "pytest" in lines[1]
    assert lines[1] in (ROOT / ".ci" / "run").read_text()
