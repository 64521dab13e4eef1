"""The README's examples run (python-chess style), and CI runs the README's test command."""

import doctest
import json
import re
from pathlib import Path

import solver
import solver.errors
from solver.testing import TimedLines

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


def _engine_examples() -> list[tuple[str, list[str], list[str]]]:
    """(section, query lines, documented response lines) of each worked example in docs/engine.md."""
    text = (ROOT / "docs" / "engine.md").read_text().split("## Worked examples", 1)[1]
    examples = []
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        title = section.splitlines()[0].strip()
        for block in re.findall(r"^```\n(.*?)\n```", section, flags=re.M | re.S):
            lines = block.splitlines()
            responses = [line for line in lines if line.startswith('{"id":') and not line.startswith('{"id": ')]
            queries = [line for line in lines if line not in responses]
            examples.append((title, queries, responses))
    return examples


def _without_seconds(value):
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


def _registered(answer):
    """A documented ``query_version`` answer lists the games registered now (a new game changes no document)."""
    from solver.registry import game_names
    return {**answer, "games": game_names()} if answer.get("action") == "query_version" else answer


def test_engine_worked_examples_are_what_the_engine_answers():
    """Every worked example in docs/engine.md (but terminate, which needs a running search) is replayed."""
    from solver.engine import Engine

    examples = [e for e in _engine_examples() if e[0] != "terminate"]
    assert {e[0] for e in examples} >= {"hint", "solve", "score", "legal_moves", "query_version", "Errors"}
    for title, queries, documented in examples:
        out = TimedLines()
        engine = Engine(out)
        for line in queries:
            engine.handle_line(line)
        engine.close()
        answered = [_without_seconds(answer) for answer in out.answers()]
        expected = [_registered(_without_seconds(json.loads(line))) for line in documented]
        key = lambda r: json.dumps(r, sort_keys=True)  # noqa: E731
        assert sorted(answered, key=key) == sorted(expected, key=key), title


def test_the_readme_games_table_has_one_row_per_registered_game_with_its_documents():
    """The games table follows the registry: one row per game (its long name), each linking files that exist."""
    from solver.registry import game_names, load_game
    section = (ROOT / "README.md").read_text().split("## The games", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| **")]
    assert [re.match(r"\| \*\*(.+?)\*\*", row).group(1) for row in rows] == \
        [load_game(name).long_name for name in game_names()]
    for row in rows:
        for link in re.findall(r"\]\((docs/[^)]+)\)", row):
            assert (ROOT / link).exists(), link
