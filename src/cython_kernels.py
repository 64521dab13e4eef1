"""Translate the kernels to C in one Cython process: the build's step before gcc (``CMakeLists.txt`` runs it).

``python src/cython_kernels.py OUTPUT_DIR SHARED_MODULE NAME...`` writes ``OUTPUT_DIR/NAME.c`` from
``src/NAME.pyx`` as the module ``solver.kernels.NAME`` (``cython -3 --fast-fail -I src --shared=SHARED_MODULE``),
and Cython's shared utility code as ``OUTPUT_DIR/<last part of SHARED_MODULE>.c`` (``cython --generate-shared``)
when it is missing. A kernel (one a game) is ``src/NAME.pyx`` and the parts it includes, ``src/NAME_*.pxi``. Its C
is written again only when it is older than its ``.pyx``, one of its parts, a shared ``.pxd`` or ``.h`` of
``src/``, or this script, the rule ninja applied to one Cython process per kernel.

One process instead of one per kernel (issue 24, build time): every Cython process spends about a second of CPU
before it reads its file (importing the compiler, building its scanner's tables, declaring the builtins), so 14
processes spent 21 s of CPU where one spends 9 s. The C is byte-identical to the one-process-per-kernel build's.

Python's cyclic garbage collector is off while Cython runs (issue 24, fourth pass): Cython builds millions of
small objects (parse trees, scopes, types) that live until their module is written, and the collector scanned
them again and again, a third of the process's CPU (8.4-11.5 s against 5.8-6.1 s for the 17 kernels). The
process peaks at about 420 MB instead of 300 MB; the C is byte-identical.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from Cython.Build.SharedModule import generate_shared_module
from Cython.Compiler import Options
from Cython.Compiler.Main import CompilationOptions, compile_single, default_options

SRC = Path(__file__).resolve().parent


def out_of_date(c_file: Path, sources: list[Path]) -> bool:
    """Whether ``c_file`` is missing or older than one of ``sources``."""
    return not c_file.exists() or c_file.stat().st_mtime < max(p.stat().st_mtime for p in sources)


def sources_of(name: str) -> list[Path]:
    """What kernel ``name``'s C is written from: ``src/name.pyx``, its parts ``src/name_*.pxi``, every shared
    ``.pxd`` and ``.h`` of ``src/``, and this script."""
    return [SRC / f"{name}.pyx", *sorted(SRC.glob(f"{name}_*.pxi")), *sorted(SRC.glob("*.pxd")),
            *sorted(SRC.glob("*.h")), Path(__file__).resolve()]


def translate(name: str, output_dir: Path, shared_module: str) -> bool:
    """``src/name.pyx`` to ``output_dir/name.c``; whether Cython reported no error."""
    module = f"solver.kernels.{name}"
    options = CompilationOptions(default_options, language_level=3, include_path=[str(SRC)],
                                 output_file=str(output_dir / f"{name}.c"), module_name=module,
                                 shared_utility_qualified_name=shared_module)
    return compile_single(str(SRC / f"{name}.pyx"), options, full_module_name=module).num_errors == 0


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    output_dir, shared_module, names = Path(argv[0]), argv[1], argv[2:]
    gc.disable()  # the collector spent a third of the CPU rescanning Cython's live trees (module docstring)
    Options.fast_fail = True
    shared_c = output_dir / f"{shared_module.rpartition('.')[2]}.c"
    if not shared_c.exists():
        generate_shared_module(CompilationOptions(default_options, shared_c_file_path=str(shared_c)))
        if not shared_c.exists():
            sys.stderr.write(f"cython: the shared utility module {shared_c} was not written\n")
            return 1
    for name in names:
        if out_of_date(output_dir / f"{name}.c", sources_of(name)) and not translate(
                name, output_dir, shared_module):
            sys.stderr.write(f"cython: src/{name}.pyx did not compile\n")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
