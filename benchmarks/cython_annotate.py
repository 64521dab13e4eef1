"""List the lines of each kernel that touch Python objects: ``python benchmarks/cython_annotate.py [src/x.pyx ...]``.

Runs ``cython -a`` into a temporary directory and prints the lines with a
non-zero Python-interaction score, marking those inside ``nogil`` or
``noexcept nogil`` functions (which must be zero: inner loops hold no Python
objects). Exits 1 if any line inside a ``nogil`` function interacts with Python.
A kernel (``src/<game>.pyx``) includes its parts (``src/<game>_<part>.pxi``), and ``cython -a`` scores only
the lines of the file it compiles: the kernel is annotated with its parts written in place of their ``include``
lines, and each line reported as ``part:line``.
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


INCLUDE = re.compile(r'^include "([^"]+)"$')


def inlined(pyx: Path) -> tuple[str, list[tuple[str, int]]]:
    """``pyx`` with each ``include`` line replaced by the file it names, and the (file, line) of every line."""
    lines: list[str] = []
    where: list[tuple[str, int]] = []
    for number, line in enumerate(pyx.read_text().splitlines(), start=1):
        match = INCLUDE.match(line)
        if match:
            part = pyx.parent / match.group(1)
            for k, text in enumerate(part.read_text().splitlines(), start=1):
                lines.append(text)
                where.append((part.name, k))
        else:
            lines.append(line)
            where.append((pyx.name, number))
    return "\n".join(lines) + "\n", where


def scored_lines(pyx: Path) -> list[tuple[int, int, str]]:
    """(score, line number, source) for every line of ``pyx`` (a kernel with its parts written in place)."""
    with tempfile.TemporaryDirectory() as tmp:
        whole = Path(tmp) / pyx.name
        whole.write_text(inlined(pyx)[0])
        out_c = Path(tmp) / (pyx.stem + ".c")
        subprocess.run([sys.executable, "-m", "cython", "-3", "-a", "-I", str(ROOT / "src"), "-o", str(out_c),
                        str(whole)], check=True, capture_output=True)
        text = out_c.with_suffix(".html").read_text()
    return [(int(s), int(n), html.unescape(re.sub(r"<[^>]+>", "", src)).rstrip())
            for s, n, src in LINE.findall(text)]


def nogil_lines(pyx: Path) -> set[int]:
    """Line numbers inside functions declared ``nogil``."""
    inside, indent, lines = False, 0, set()
    for number, line in enumerate(inlined(pyx)[0].splitlines(), start=1):
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
        hot, where = nogil_lines(pyx), inlined(pyx)[1]
        print(f"== {pyx.name}")
        hot_count = 0
        for score, number, source in scored_lines(pyx):
            if score and number in hot:
                hot_count += 1
                part, line = where[number - 1]
                print(f"  NOGIL {part}:{line} score {score:3d}: {source.strip()}")
        bad += hot_count
        print(f"  lines touching Python inside nogil functions: {hot_count}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
