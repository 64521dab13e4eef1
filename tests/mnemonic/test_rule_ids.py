"""Every rule and interpretation id of docs/rules/mnemonic.md is named by at least one test that can fail."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def documented_ids() -> set[int]:
    text = (ROOT / "docs" / "rules" / "mnemonic.md").read_text(encoding="utf-8")
    return {int(n) for n in re.findall(r"^\| MN-(\d+) \|", text, flags=re.M)}


def ids_named_by_tests() -> set[int]:
    """Ids in a test function's name (``test_mn33_mn37_...``) or docstring (``MN-33``), for tests with asserts."""
    found: set[int] = set()
    files = list((ROOT / "tests" / "mnemonic").glob("test_*.py")) + list((ROOT / "tests" / "twins").glob("test_mnemonic_*.py"))
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
                continue
            checks = any(isinstance(n, (ast.Assert, ast.With)) for n in ast.walk(node))
            if not checks:
                continue
            found |= {int(n) for n in re.findall(r"mn(\d+)(?=_|$)", node.name)}
            found |= {int(n) for n in re.findall(r"MN-(\d+)", ast.get_docstring(node) or "")}
    return found


def test_every_documented_id_is_named_by_a_test():
    missing = sorted(documented_ids() - ids_named_by_tests())
    assert not missing, f"ids without a test: {missing}"


def test_ids_are_numbered_without_gaps_or_duplicates():
    text = (ROOT / "docs" / "rules" / "mnemonic.md").read_text(encoding="utf-8")
    ids = [int(n) for n in re.findall(r"^\| MN-(\d+) \|", text, flags=re.M)]
    assert len(ids) == len(set(ids)) and sorted(ids) == list(range(1, max(ids) + 1))
