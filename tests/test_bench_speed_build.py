"""The build row's same-run baseline (``benchmarks/bench_speed.py --build-baseline=REV``, issue 24): a revision
that names no commit is refused with the option and the value named, before any row is measured; a commit's tree
is written out whole, ready to build."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_speed  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], cwd=ROOT,
                                                  capture_output=True).returncode != 0,
    reason="not a git checkout")


@pytest.mark.parametrize("argv", [["--build-baseline=no-such-rev-24"], ["--build", "--build-rounds=0"],
                                  ["--build", "--build-rounds=two"]])
def test_bad_build_options_are_refused_before_any_row(argv, capsys):
    assert bench_speed.main(argv) == 2
    err = capsys.readouterr().err
    option, value = argv[-1].split("=", 1)
    assert option in err and value in err and "Traceback" not in err


def test_a_baseline_commit_is_written_out_as_a_source_tree(tmp_path):
    commit = bench_speed.baseline_commit("HEAD")
    assert len(commit) == 40
    tree = bench_speed.checkout_tree(commit, tmp_path / "tree")
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", commit], cwd=ROOT,
                            capture_output=True,
                            text=True, check=True).stdout.split()
    assert sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file()) == sorted(listed)
    assert (tree / "CMakeLists.txt").read_bytes() == subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:CMakeLists.txt"], cwd=ROOT, capture_output=True, check=True).stdout
