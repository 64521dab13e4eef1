"""A kernel compiled without any CPU flag imports and scores like the installed one (issue 24: CPU features are
decided at build time for the build machine, or at run time by dispatch, never a binary that fails elsewhere).

The installed kernels are compiled with ``-march=native`` unless ``MEMORY_SOLVER_PORTABLE=ON``; the Aetherya
scorer also picks its vector path at run time. Here the scorer's part of the Aetherya kernel,
``src/aetherya_score.pxi`` (with ``aetherya_board.pxd`` and the vector code of ``aetherya_lanes.h``), is compiled
alone with the kernel's directives (``src/aetherya.pyx``'s first line) as a portable build compiles it, for the
baseline of the architecture, imported and checked against the installed kernel on every vector path the CPU has.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from solver.kernels import aetherya as installed

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None, reason="no C compiler")
def test_a_build_without_cpu_flags_imports_and_scores(tmp_path):
    name = "aetherya_score_portable"
    c_file, pyx = tmp_path / f"{name}.c", tmp_path / f"{name}.pyx"
    directives = (SRC / "aetherya.pyx").read_text(encoding="utf-8").splitlines()[0]
    pyx.write_text(f'{directives}\ninclude "aetherya_score.pxi"\n', encoding="utf-8")
    subprocess.run([sys.executable, "-m", "cython", "-3", "-I", str(SRC), "--module-name", name, "-o", str(c_file),
                    str(pyx)], check=True, capture_output=True, cwd=tmp_path)
    library = tmp_path / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    flags = ["-O1", "-shared", "-fPIC", "-ffp-contract=off", f"-I{sysconfig.get_paths()['include']}", f"-I{SRC}"]
    subprocess.run([os.environ.get("CC", "cc"), *flags, str(c_file), "-o", str(library)], check=True,
                   capture_output=True, cwd=tmp_path)
    spec = importlib.util.spec_from_file_location(name, library)
    portable = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(portable)
    rng = np.random.default_rng(24)
    deck = np.repeat(np.arange(10, dtype=np.uint8), 8)
    kingdoms = np.array([rng.permutation(deck)[:16] for _ in range(3000)], dtype=np.uint8)
    expected = np.zeros((len(kingdoms), 8), dtype=np.int32)
    installed.score_batch(kingdoms, expected)
    assert portable.simd_level() == installed.simd_level()
    for level in range(portable.simd_level() + 1):
        out = np.zeros_like(expected)
        portable.score_batch(kingdoms, out, level)
        assert np.array_equal(out, expected), f"vector path {level}"
    assert all(portable.score_one(k) == installed.score_one(k) for k in kingdoms[:200])
