"""The plots of docs/benchmarks.md, measured and drawn by one command.

    python benchmarks/plots.py [--quick] [--jobs N] [--executor local|ray] [--out docs/plots]

1. ``selfplay-<game>.svg`` and ``selfplay.svg``: win rates (or mean scores) of each game's default self-play
   policies on the same deals, with 95% intervals (``solver.selfplay``; paired deals);
2. ``hint-budget.svg``: hint strength against the search budget, from the OpenSpiel IS-MCTS match-up results
   (``benchmarks/results/vs_ismcts.json``, written by ``python benchmarks/run.py vs_ismcts``) where present;
3. ``proof-times.svg``: the distribution of proof times per game and difficulty: the time ``check`` takes to
   re-prove each generated puzzle's answer from its position (``solver.generate``, ``solver.puzzles.check``).

Measurements go through the public entry points, so ``--jobs`` and ``--executor ray`` spread them; the figures
are written as JSON beside the SVGs (``<name>.json``) so a plot can be redrawn without measuring again
(``--redraw``). The drawings use the project's own SVG builder (``solver/drawing.py``): no plotting library.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

from solver import contract
from solver.drawing import INK, PALETTE, Svg
from solver.puzzles import check, generate
from solver.registry import game_names, load_game
from solver.selfplay import selfplay, summarize

ROOT = Path(__file__).resolve().parent.parent
SERIES = [PALETTE[c] for c in ("blue", "vermillion", "green", "purple", "orange", "sky", "black")]
MARKS = ("circle", "square", "diamond", "triangle", "circle", "square", "diamond")


# ---------------------------------------------------------------------- measuring
def measure_selfplay(count: int, jobs: int, executor: str) -> dict:
    out = {}
    for name in game_names():
        game = load_game(name)
        if not contract.selfplay_policies(game):
            continue
        start = time.perf_counter()
        results = list(selfplay(game, None, seed=2026, count=count, jobs=jobs, executor=executor))
        summary = summarize(results)
        summary["seconds"] = round(time.perf_counter() - start, 1)
        summary["policies"] = list(contract.selfplay_default(game))
        out[name] = summary
        print(f"  self-play {name}: {count} deals in {summary['seconds']} s", file=sys.stderr)
    return out


def proven_answer(puzzle: dict) -> object:
    """The answer a puzzle file proves, in a form ``check`` reads: its ``solution``, or Forgotten's ``answer``
    (the set of forcing first flips, or the best move)."""
    if "solution" in puzzle:
        return puzzle["solution"]
    answer = puzzle.get("answer") or {}
    return answer.get("firstMoves") or answer.get("move")


def measure_proofs(count: int, jobs: int, executor: str) -> dict:
    out: dict = {}
    for name in game_names():
        game = load_game(name)
        if not contract.puzzle_kinds(game):
            continue
        kind = contract.puzzle_kinds(game)[0]
        for difficulty in ("easy", "medium", "hard"):
            times = []
            for puzzle in generate(game, kind, difficulty, seed=2026, count=count, jobs=jobs, executor=executor):
                answer = proven_answer(puzzle)
                start = time.perf_counter()
                check(game, puzzle, answer)
                times.append(round(time.perf_counter() - start, 6))
            out.setdefault(name, {"kind": kind})[difficulty] = times
            print(f"  proofs {name} {difficulty}: median {statistics.median(times):.3f} s", file=sys.stderr)
    return out


# ---------------------------------------------------------------------- drawing
def _marker(doc: Svg, shape: str, x: float, y: float, r: float, colour: str) -> None:
    if shape == "square":
        doc.rect(x - r, y - r, 2 * r, 2 * r, fill=colour)
    elif shape == "diamond":
        doc.polygon([(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)], fill=colour)
    elif shape == "triangle":
        doc.polygon([(x, y - r * 1.3), (x + r * 1.2, y + r), (x - r * 1.2, y + r)], fill=colour)
    else:
        doc.circle(x, y, r, fill=colour)


def interval_chart(title: str, rows: list[tuple[str, float, float, float, str]], unit: str) -> str:
    """One row per (label, mean, lo, hi, group): a dot with its 95% interval, rows grouped."""
    lo = min(r[2] for r in rows)
    hi = max(r[3] for r in rows)
    if unit == "win rate":
        lo, hi = 0.0, 1.0
    span = (hi - lo) or 1.0
    left, width, row_h = 260, 460, 26
    groups = list(dict.fromkeys(r[4] for r in rows))
    height = 70 + row_h * len(rows) + 18 * len(groups) + 40
    doc = Svg(left + width + 60, height, title=title)
    doc.text(20, 24, title, size=16, anchor="start", weight="bold")
    x = lambda v: left + width * (v - lo) / span  # noqa: E731
    y = 56
    for tick in range(6):
        value = lo + span * tick / 5
        doc.line(x(value), 44, x(value), height - 34, stroke="#dddddd", width=1)
        label = f"{value:.0%}" if unit == "win rate" else f"{value:.3g}"
        doc.text(x(value), height - 22, label, size=11, fill="#555555")
    doc.text(left + width / 2, height - 8, f"{unit}, with 95% intervals", size=11, fill="#555555")
    for group in groups:
        doc.text(20, y + 6, group, size=13, anchor="start", weight="bold")
        y += 18
        for n, (label, mean, a, b, g) in enumerate(r for r in rows if r[4] == group):
            colour, shape = SERIES[n % len(SERIES)], MARKS[n % len(MARKS)]
            doc.text(36, y + 6, label, size=12, anchor="start")
            doc.line(x(a), y + 6, x(b), y + 6, stroke=colour, width=3, cap="round")
            _marker(doc, shape, x(mean), y + 6, 5, colour)
            doc.text(x(b) + 8, y + 6, f"{mean:.3f}" if unit != "win rate" else f"{mean:.1%}", size=11,
                     anchor="start", fill=INK)
            y += row_h
    return doc.render()


def line_chart(title: str, series: dict[str, list[tuple[float, float, float, float]]], xlabel: str,
               ylabel: str) -> str:
    """Lines of (x, y, lo, hi) points, x on a log scale."""
    xs = [p[0] for pts in series.values() for p in pts]
    lo_x, hi_x = math.log10(min(xs)), math.log10(max(xs))
    left, top, width, height = 70, 62, 520, 300
    doc = Svg(left + width + 260, top + height + 60, title=title)
    doc.text(20, 24, title, size=16, anchor="start", weight="bold")
    x = lambda v: left + width * (math.log10(v) - lo_x) / ((hi_x - lo_x) or 1)  # noqa: E731
    y = lambda v: top + height * (1 - v)  # noqa: E731
    for tick in range(6):
        value = tick / 5
        doc.line(left, y(value), left + width, y(value), stroke="#dddddd", width=1)
        doc.text(left - 8, y(value), f"{value:.0%}", size=11, anchor="end", fill="#555555")
    for value in sorted(set(xs)):
        doc.text(x(value), top + height + 16, f"{value:g}", size=11, fill="#555555")
    doc.text(left + width / 2, top + height + 38, xlabel, size=12, fill="#555555")
    doc.text(left, top - 10, ylabel, size=12, anchor="middle", fill="#555555")
    groups = list(dict.fromkeys(name.rsplit(" (", 1)[0] for name in series))
    for n, (name, pts) in enumerate(series.items()):
        # one colour and mark per game; the baseline of a pair ("... (IS-MCTS)") dashed, its intervals shifted
        g = groups.index(name.rsplit(" (", 1)[0])
        colour, shape = SERIES[g % len(SERIES)], MARKS[g % len(MARKS)]
        baseline = name.endswith("(IS-MCTS)")
        shift, dash = (5, "6 4") if baseline else (0, None)
        pts = sorted(pts)
        doc.polyline([(x(p[0]) + shift, y(p[1])) for p in pts], stroke=colour, width=2.5, dash=dash,
                     opacity=0.8 if baseline else None)
        for px, py, plo, phi in pts:
            doc.line(x(px) + shift, y(plo), x(px) + shift, y(phi), stroke=colour, width=1.5)
            _marker(doc, shape, x(px) + shift, y(py), 4.5, "#ffffff" if baseline else colour)
            if baseline:
                _marker(doc, shape, x(px) + shift, y(py), 3, colour)
        legend_y = top + 14 + 20 * n
        doc.line(left + width + 18, legend_y, left + width + 40, legend_y, stroke=colour, width=2.5, dash=dash)
        doc.text(left + width + 46, legend_y, name, size=12, anchor="start", fill=colour, weight="bold")
    return doc.render()


def strip_chart(title: str, groups: dict[str, dict[str, list[float]]]) -> str:
    """Per game and difficulty, every proof time as a dot on a log scale, with the median marked."""
    values = [v for g in groups.values() for d in ("easy", "medium", "hard") for v in g.get(d, []) if v > 0]
    lo, hi = math.log10(min(values)), math.log10(max(values))
    lo, hi = math.floor(lo), math.ceil(hi)
    left, width, row_h = 220, 500, 24
    rows = [(game, d) for game, g in groups.items() for d in ("easy", "medium", "hard") if g.get(d)]
    height = 60 + row_h * len(rows) + 50
    doc = Svg(left + width + 130, height, title=title)
    doc.text(20, 24, title, size=16, anchor="start", weight="bold")
    x = lambda v: left + width * (math.log10(max(v, 10 ** lo)) - lo) / ((hi - lo) or 1)  # noqa: E731
    for power in range(lo, hi + 1):
        doc.line(x(10 ** power), 44, x(10 ** power), height - 40, stroke="#dddddd", width=1)
        doc.text(x(10 ** power), height - 28, f"{10 ** power:g} s", size=11, fill="#555555")
    colours = {"easy": PALETTE["green"], "medium": PALETTE["orange"], "hard": PALETTE["vermillion"]}
    y = 56
    for game, difficulty in rows:
        times = groups[game][difficulty]
        doc.text(20, y, f"{game} ({groups[game].get('kind', '')}) {difficulty}", size=12, anchor="start")
        for v in times:
            doc.circle(x(v), y, 3, fill=colours[difficulty], opacity=0.6)
        median = statistics.median(times)
        doc.line(x(median), y - 8, x(median), y + 8, stroke=INK, width=2)
        doc.text(left + width + 10, y, f"median {median:.3g} s", size=11, anchor="start")
        y += row_h
    doc.text(left + width / 2, height - 10, "time to re-prove each puzzle's answer (log scale); bar: median",
             size=11, fill="#555555")
    return doc.render()


# ---------------------------------------------------------------------- the command
def draw_selfplay(data: dict, out: Path) -> list[Path]:
    written = []
    rows = []
    for game, summary in data.items():
        for label, d in summary["labels"].items():
            rows.append((label, d["mean"], d["ci"][0], d["ci"][1], f"{game} ({summary['games']} deals)"))
    # a win rate, or wins shared over seat rotations (a mean of wins): both read on the 0-100% scale
    win_rows = [r for r in rows if 0.0 <= r[2] and r[3] <= 1.0]
    score_rows = [r for r in rows if r not in win_rows]
    if win_rows:
        path = out / "selfplay.svg"
        path.write_text(interval_chart("Self-play: win rates on the same deals", win_rows, "win rate"))
        written.append(path)
    if score_rows:
        path = out / "selfplay-scores.svg"
        path.write_text(interval_chart("Self-play: mean scores on the same deals", score_rows, "mean score"))
        written.append(path)
    return written


def draw_budget(out: Path) -> list[Path]:
    source = ROOT / "benchmarks" / "results" / "vs_ismcts.json"
    if not source.exists():
        print(f"  no {source.relative_to(ROOT)}: run python benchmarks/run.py vs_ismcts first", file=sys.stderr)
        return []
    data = json.loads(source.read_text())
    series: dict[str, list[tuple[float, float, float, float]]] = {}
    for row in data.get("rows", []):
        if row.get("kind") != "win rate":
            continue
        series.setdefault(f"{row['game']} (our hint)", []).append(
            (row["budget"], row["ours"], row["oursCI"][0], row["oursCI"][1]))
        series.setdefault(f"{row['game']} (IS-MCTS)", []).append(
            (row["budget"], row["theirs"], row["theirsCI"][0], row["theirsCI"][1]))
    if not series:
        return []
    path = out / "hint-budget.svg"
    path.write_text(line_chart("Hint strength against budget: our hint and IS-MCTS", series,
                               "seconds per decision", "win rate"))
    return [path]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="plots.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small samples (minutes, not hours)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--executor", choices=("local", "ray"), default="local")
    parser.add_argument("--out", default=str(ROOT / "docs" / "plots"))
    parser.add_argument("--redraw", action="store_true", help="draw from the JSON written by the last run")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    deals, puzzles = (40, 6) if args.quick else (400, 30)
    if args.redraw:
        selfplay_data = json.loads((out / "selfplay.json").read_text())
        proofs = json.loads((out / "proof-times.json").read_text())
    else:
        selfplay_data = measure_selfplay(deals, args.jobs, args.executor)
        (out / "selfplay.json").write_text(json.dumps(selfplay_data, indent=1))
        proofs = measure_proofs(puzzles, args.jobs, args.executor)
        (out / "proof-times.json").write_text(json.dumps(proofs, indent=1))
    written = draw_selfplay(selfplay_data, out) + draw_budget(out)
    path = out / "proof-times.svg"
    path.write_text(strip_chart("Proof times of generated puzzles", proofs))
    written.append(path)
    for p in written:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
