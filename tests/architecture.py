"""The import graph of ``solver/``, read from the source with ``ast`` (no module is imported).

Used by ``tests/test_architecture.py`` to hold the layers of ``docs/architecture.md``: every import statement
counts, inside functions too, except those under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"


@dataclass(frozen=True)
class Import:
    """One import statement: who imports what, where, and whether it runs inside a function."""

    importer: str
    imported: str
    line: int
    in_function: bool
    comment: str


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    """Every ``solver`` module with Python source, by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(target: str, names: list[str], known: dict[str, Path]) -> list[str]:
    """``from target import names``: the submodules named, else ``target`` itself."""
    found = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
    return found or [target]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """The ``solver`` imports of one module."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found: list[Import] = []

    def comment_at(line: int) -> str:
        here = lines[line - 1]
        above = lines[line - 2] if line >= 2 else ""
        parts = [here.partition("#")[2]]
        if above.strip().startswith("#"):
            parts.append(above.strip().lstrip("#"))
        return " ".join(p.strip() for p in parts if p.strip())

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit_one(sub, in_function)
                continue
            visit_one(child, in_function)

    def visit_one(child: ast.AST, in_function: bool) -> None:
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            visit(child, True)
            return
        targets: list[str] = []
        if isinstance(child, ast.Import):
            targets = [a.name for a in child.names]
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[:len(package) - (child.level - 1)]
                base = ".".join(package + ([base] if base else []))
            targets = _resolve(base, [a.name for a in child.names], known)
        for target in targets:
            if target == "solver" or target.startswith("solver."):
                found.append(Import(name, target, child.lineno, in_function, comment_at(child.lineno)))
        visit(child, in_function)

    visit(ast.parse(text), False)
    return found


def all_imports() -> list[Import]:
    known = source_modules()
    return [imp for name, path in known.items() for imp in imports_of(name, path, known)]


def cycles(imports: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if imp.imported != imp.importer:
            graph.setdefault(imp.importer, set()).add(imp.imported)
            graph.setdefault(imp.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = [0]

    def connect(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(components)
