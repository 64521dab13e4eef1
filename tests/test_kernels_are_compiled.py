"""The compiled core is really compiled, and every part of a kernel has a twin with the same signatures.

A kernel is one extension module a game, ``solver.kernels.<game>`` from ``src/<game>.pyx``, which includes its
parts ``src/<game>_<part>.pxi``; each part's public functions have a pure-Python twin in
``solver.twins.<game>_<part>``.
"""

import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
KERNELS = sorted(p.stem for p in SRC.glob("*.pyx"))
PARTS = sorted(p.stem for p in SRC.glob("*.pxi"))
DEFINED = re.compile(r"^(?:def\s+(\w+)\s*\(|cpdef\s+[^(]*?\b(\w+)\s*\()", re.M)


def public_functions(kernel) -> set[str]:
    """The kernel's own public functions (not its classes, not what it imported)."""
    return {n for n, obj in vars(kernel).items()
            if callable(obj) and not n.startswith("_") and not isinstance(obj, type)
            and getattr(obj, "__module__", kernel.__name__) == kernel.__name__}


def defined_in(part: str) -> set[str]:
    """The public functions written at the top level of ``src/<part>.pxi``."""
    text = (SRC / f"{part}.pxi").read_text(encoding="utf-8")
    return {name for name in (a or b for a, b in DEFINED.findall(text)) if not name.startswith("_")}


def test_there_are_kernels_and_parts():
    assert KERNELS, "src/ holds no .pyx kernel"
    assert PARTS, "src/ holds no .pxi part"


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_is_an_extension_module(name):
    module = importlib.import_module(f"solver.kernels.{name}")
    assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (
        f"solver.kernels.{name} was imported from {module.__file__}, not from a compiled build")


@pytest.mark.parametrize("name", KERNELS)
def test_every_public_function_of_a_kernel_is_written_in_one_of_its_parts(name):
    kernel = importlib.import_module(f"solver.kernels.{name}")
    parts = [p for p in PARTS if p.startswith(f"{name}_")]
    assert parts, f"kernel {name} includes no part src/{name}_*.pxi"
    owners: dict[str, list[str]] = {}
    for part in parts:
        for fn in defined_in(part):
            owners.setdefault(fn, []).append(part)
    assert {fn: ps for fn, ps in owners.items() if len(ps) > 1} == {}, "a public function written in two parts"
    assert public_functions(kernel) == set(owners), f"kernel {name}'s functions and its parts' differ"


@pytest.mark.parametrize("part", PARTS)
def test_twin_has_the_same_public_functions_and_signatures(part):
    kernel = importlib.import_module(f"solver.kernels.{part.split('_')[0]}")
    twin = importlib.import_module(f"solver.twins.{part}")
    public = sorted(defined_in(part))
    assert public, f"part {part} exposes no function"
    for fn in public:
        assert hasattr(twin, fn), f"twin solver.twins.{part} lacks {fn}"
        kernel_params = list(inspect.signature(getattr(kernel, fn)).parameters)
        twin_params = list(inspect.signature(getattr(twin, fn)).parameters)
        assert kernel_params == twin_params, f"{part}.{fn}: kernel {kernel_params} != twin {twin_params}"


@pytest.mark.parametrize("name", KERNELS)
def test_a_change_to_any_part_makes_the_kernels_c_out_of_date(name, tmp_path):
    """``src/cython_kernels.py`` writes a kernel's C again when one of its parts changed, not only its ``.pyx``."""
    spec = importlib.util.spec_from_file_location("cython_kernels", SRC / "cython_kernels.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    sources = script.sources_of(name)
    assert {p.name for p in SRC.glob(f"{name}_*.pxi")} <= {p.name for p in sources}
    c_file = tmp_path / f"{name}.c"
    c_file.write_text("")
    newest = max(p.stat().st_mtime for p in sources)
    os.utime(c_file, (newest + 1, newest + 1))
    assert not script.out_of_date(c_file, sources)
    os.utime(c_file, (newest - 1, newest - 1))
    assert script.out_of_date(c_file, sources)
