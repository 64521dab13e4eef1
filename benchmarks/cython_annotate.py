"""List the lines of each kernel that touch Python objects: ``python benchmarks/cython_annotate.py [src/x.pyx ...]``.

Runs ``cython -a`` into a temporary directory and prints the lines with a
non-zero Python-interaction score, marking those inside ``nogil`` or
``noexcept nogil`` functions (which must be zero: inner loops hold no Python
objects). Exits 1 if any line inside a ``nogil`` function interacts with Python.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r'<pre class="cython line score-(\d+)"[^>]*>.*?<span class="">(\d+)</span>:(.*?)</pre>', re.S)


def scored_lines(pyx: Path) -> list[tuple[int, int, str]]:
    """(score, line number, source) for every line of ``pyx``."""
    with tempfile.TemporaryDirectory() as tmp:
        out_c = Path(tmp) / (pyx.stem + ".c")
        subprocess.run([sys.executable, "-m", "cython", "-3", "-a", "-I", str(ROOT / "src"), "-o", str(out_c),
                        str(pyx)], check=True, capture_output=True)
        text = out_c.with_suffix(".html").read_text()
    return [(int(s), int(n), html.unescape(re.sub(r"<[^>]+>", "", src)).rstrip())
            for s, n, src in LINE.findall(text)]


def nogil_lines(pyx: Path) -> set[int]:
    """Line numbers inside functions declared ``nogil``."""
    inside, indent, lines = False, 0, set()
    for number, line in enumerate(pyx.read_text().splitlines(), start=1):
        stripped = line.lstrip()
        if stripped.startswith(("cdef ", "cpdef ", "def ")) and line.rstrip().endswith(":"):
            inside, indent = "nogil" in line, len(line) - len(stripped)
            continue
        if inside and stripped and len(line) - len(stripped) <= indent and not stripped.startswith("#"):
            inside = False
        if inside:
            lines.add(number)
    return lines


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((ROOT / "src").glob("*.pyx"))
    bad = 0
    for pyx in files:
        hot = nogil_lines(pyx)
        print(f"== {pyx.name}")
        for score, number, source in scored_lines(pyx):
            if score and number in hot:
                bad += 1
                print(f"  NOGIL {number:4d} score {score:3d}: {source.strip()}")
        hot_count = sum(1 for s, n, _ in scored_lines(pyx) if s and n in hot)
        print(f"  lines touching Python inside nogil functions: {hot_count}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
