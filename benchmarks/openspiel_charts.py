"""Line charts of the OpenSpiel benchmarks (CFR's exploitability, learning curves), drawn with ``solver/drawing.py``."""

from __future__ import annotations

import math
from pathlib import Path

from solver.drawing import PALETTE, Svg

ROOT = Path(__file__).resolve().parent.parent
PLOTS = ROOT / "docs" / "plots"
SERIES = [PALETTE[c] for c in ("blue", "vermillion", "green", "purple", "orange", "sky", "black")]


def _ticks(lo: float, hi: float, log: bool) -> list[float]:
    if log:
        return [10.0 ** k for k in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]
    step = 10 ** math.floor(math.log10((hi - lo) or 1))
    if (hi - lo) / step < 3:
        step /= 4
    elif (hi - lo) / step < 6:
        step /= 2
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def curves(title: str, series: dict[str, list[tuple[float, float]]], xlabel: str, ylabel: str,
           log_x: bool = False, log_y: bool = False, y_range: tuple[float, float] | None = None,
           dashed: frozenset[str] = frozenset(), note: str = "") -> str:
    """One line per series of ``(x, y)`` points; dashed series (reference levels) drawn without marks."""
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [y for pts in series.values() for _, y in pts if not log_y or y > 0]
    lo_x, hi_x = min(xs), max(xs)
    lo_y, hi_y = y_range if y_range else (min(ys), max(ys))
    if log_y:
        lo_y, hi_y = 10 ** math.floor(math.log10(lo_y)), 10 ** math.ceil(math.log10(hi_y))
    left, top, width, height = 80, 60, 520, 300
    legend_width = max(220, 8 * max(len(name) for name in series) + 60)
    doc = Svg(left + width + legend_width, top + height + 70 + (18 if note else 0), title=title)
    doc.text(20, 24, title, size=16, anchor="start", weight="bold")

    def fx(v: float) -> float:
        a, b, v = (math.log10(lo_x), math.log10(hi_x), math.log10(v)) if log_x else (lo_x, hi_x, v)
        return left + width * (v - a) / ((b - a) or 1)

    def fy(v: float) -> float:
        if log_y:
            v = max(v, lo_y)
        a, b, v = (math.log10(lo_y), math.log10(hi_y), math.log10(v)) if log_y else (lo_y, hi_y, v)
        return top + height * (1 - (v - a) / ((b - a) or 1))

    for tick in _ticks(lo_y, hi_y, log_y):
        if lo_y - 1e-12 <= tick <= hi_y + 1e-12:
            doc.line(left, fy(tick), left + width, fy(tick), stroke="#dddddd", width=1)
            doc.text(left - 8, fy(tick), f"{tick:g}", size=11, anchor="end", fill="#555555")
    distinct = sorted(set(xs))
    for tick in distinct if log_x and len(distinct) <= 12 else _ticks(lo_x, hi_x, log_x):
        if lo_x - 1e-12 <= tick <= hi_x + 1e-12:
            doc.text(fx(tick), top + height + 16, f"{tick:g}", size=11, fill="#555555")
    doc.line(left, top + height, left + width, top + height, stroke="#888888", width=1)
    doc.line(left, top, left, top + height, stroke="#888888", width=1)
    doc.text(left + width / 2, top + height + 40, xlabel, size=12, fill="#555555")
    doc.text(left, top - 12, ylabel, size=12, anchor="start", fill="#555555")
    for n, (name, pts) in enumerate(series.items()):
        colour = SERIES[n % len(SERIES)]
        pts = sorted(p for p in pts if not log_y or p[1] > 0)
        dash = "6 4" if name in dashed else None
        doc.polyline([(fx(x), fy(y)) for x, y in pts], stroke=colour, width=2.5, dash=dash)
        if name not in dashed and len(pts) <= 40:
            for x, y in pts:
                doc.circle(fx(x), fy(y), 3.5, fill=colour)
        legend_y = top + 14 + 20 * n
        doc.line(left + width + 18, legend_y, left + width + 40, legend_y, stroke=colour, width=2.5, dash=dash)
        doc.text(left + width + 46, legend_y, name, size=12, anchor="start", fill=colour, weight="bold")
    if note:
        doc.text(20, top + height + 64, note, size=11, anchor="start", fill="#555555")
    return doc.render()


def write(name: str, svg: str) -> Path:
    """Write ``docs/plots/<name>.svg``."""
    PLOTS.mkdir(parents=True, exist_ok=True)
    path = PLOTS / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return path
