"""Self-play runs shared by every game: one result per seeded deal, in index order, and a paired summary.

Game ``index`` of a run seeded ``seed`` draws from its own stream
(:func:`solver.scale.item_rng`), so any game can be replayed alone and ``--jobs``
or Ray give byte-identical output. Each result holds ``outcomes``: for every
label (a policy, or a policy in a seat) its win (0/1) or score on that deal.
Labels measured on the same deals are compared paired: the summary gives each
label's mean with a 95% interval and, for every pair of labels, the paired
difference with its interval (and the exact McNemar p-value for wins).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from solver.errors import InvalidInputError
from solver.game import Game
from solver.registry import load_game
from solver.scale import item_rng, run_items
from solver.stats import is_binary, mcnemar, mean_ci, wilson
from solver import contract


def parse_policies(game: Game, text: str | None, field: str = "policies") -> tuple[str, ...]:
    """Comma-separated policy names, each one of the game's."""
    if not contract.selfplay_policies(game):
        raise InvalidInputError("action", "selfplay", f"{game.name} has no self-play")
    if text is None or not str(text).strip():
        return contract.selfplay_default(game)
    names = tuple(part.strip() for part in str(text).split(","))
    for name in names:
        if name not in contract.selfplay_policies(game):
            raise InvalidInputError(field, name, f"unknown policy (known: {', '.join(contract.selfplay_policies(game))})")
    return names


def play_one(game: Game, policies: tuple[str, ...], seed: int, index: int, options: dict[str, Any]) -> dict[str, Any]:
    """Game ``index`` of the run."""
    result = contract.selfplay_game(game, policies, item_rng(seed, index, "selfplay"), **options)
    meta = {"id": f"{game.spec()}-selfplay-{seed}-{index}", "game": game.spec(), "seed": seed, "index": index,
            "policies": list(policies)}
    return {**meta, **{k: v for k, v in result.items() if k not in meta}}


def _play_from_spec(spec: str, policies: tuple[str, ...], options: dict[str, Any], seed: int,
                    index: int) -> dict[str, Any]:
    return play_one(load_game(spec), policies, seed, index, options)


def selfplay(game: Game, policies: tuple[str, ...] | None = None, seed: int = 0, start: int = 0, count: int = 1,
             options: dict[str, Any] | None = None, jobs: int = 1, executor: str = "local",
             address: str | None = None, progress: bool = False) -> Iterator[dict[str, Any]]:
    """Games ``start .. start+count-1`` of a run, in index order (``solver.selfplay`` in the Python API)."""
    chosen = policies if policies else parse_policies(game, None)
    for name in chosen:
        if name not in contract.selfplay_policies(game):
            raise InvalidInputError("policies", name, f"unknown policy (known: {', '.join(contract.selfplay_policies(game))})")
    task = functools.partial(_play_from_spec, game.spec(), tuple(chosen), dict(options or {}), seed)
    return run_items(task, start, count, jobs=jobs, executor=executor, address=address, progress=progress,
                     label="games")


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Means with intervals per label, and paired differences between labels measured on the same deals."""
    labels: list[str] = []
    for item in results:
        for label in item.get("outcomes", {}):
            if label not in labels:
                labels.append(label)
    per_label = {}
    for label in labels:
        values = [float(item["outcomes"][label]) for item in results if label in item.get("outcomes", {})]
        per_label[label] = _describe(values)
    pairs = []
    measures = _measures(results)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if measures.get(a) != measures.get(b):  # "hint" vs "greedy", "hint wins" vs "greedy wins"; not across
                continue
            both = [(float(item["outcomes"][a]), float(item["outcomes"][b])) for item in results
                    if a in item.get("outcomes", {}) and b in item.get("outcomes", {})]
            if not both:
                continue
            diffs = [x - y for x, y in both]
            mean, lo, hi = mean_ci(diffs)
            entry: dict[str, Any] = {"a": a, "b": b, "deals": len(both), "difference": round(mean, 6),
                                     "ci": [round(lo, 6), round(hi, 6)]}
            xs, ys = [x for x, _ in both], [y for _, y in both]
            if is_binary(xs) and is_binary(ys):
                only_a, only_b, p = mcnemar(xs, ys)
                entry.update({"onlyA": only_a, "onlyB": only_b, "mcnemarP": round(p, 6)})
            pairs.append(entry)
    return {"games": len(results), "labels": per_label, "paired": pairs}


def _measures(results: list[dict[str, Any]]) -> dict[str, str]:
    """What each label measures: the label without the policy name it starts with (``"hint wins"`` -> ``" wins"``,
    ``"hint"`` -> ``""``), so that only like is compared with like."""
    out: dict[str, str] = {}
    for item in results:
        names = sorted((str(p) for p in item.get("policies", [])), key=len, reverse=True)
        for label in item.get("outcomes", {}):
            name = next((n for n in names if label == n or label.startswith(n + " ")), None)
            out.setdefault(label, label[len(name):] if name is not None else label)
    return out


def _describe(values: list[float]) -> dict[str, Any]:
    if values and is_binary(values):
        wins = int(sum(values))
        lo, hi = wilson(wins, len(values))
        return {"n": len(values), "kind": "win rate", "mean": round(wins / len(values), 6),
                "ci": [round(lo, 6), round(hi, 6)]}
    mean, lo, hi = mean_ci(values)
    return {"n": len(values), "kind": "mean score", "mean": round(mean, 6), "ci": [round(lo, 6), round(hi, 6)]}


def render_game(item: dict[str, Any]) -> str:
    """One game's result as a line of text."""
    outcomes = ", ".join(f"{label} {value:g}" for label, value in item.get("outcomes", {}).items())
    return f"game {item['index']}: {outcomes}\n"


def render_summary(summary: dict[str, Any]) -> str:
    """The summary as text."""
    lines = [f"{summary['games']} games"]
    for label, d in summary["labels"].items():
        lines.append(f"  {label:<28} {d['kind']} {d['mean']:.4g}  95% CI [{d['ci'][0]:.4g}, {d['ci'][1]:.4g}]"
                     f"  (n={d['n']})")
    for pair in summary["paired"]:
        extra = f", McNemar p={pair['mcnemarP']:.3g}" if "mcnemarP" in pair else ""
        lines.append(f"  {pair['a']} - {pair['b']}: {pair['difference']:+.4g}  95% CI [{pair['ci'][0]:+.4g}, "
                     f"{pair['ci'][1]:+.4g}] over {pair['deals']} paired deals{extra}")
    return "\n".join(lines) + "\n"
