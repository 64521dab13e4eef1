// The review of a seat's game (docs/records.md, "Reviewing records"): streamed with its progress, every decision
// graded as the engine grades it (inaccuracy, mistake, blunder; "as good as the best" within noise, never red), the
// game's own turn names, and the whole-game evaluation as a graph whose points open their decision. Nothing here
// names a game: the units, grades and turn names come from the engine's answer.
import { stream } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
/** Short forms of the engine's loss units for a narrow column (the summary spells the unit out). */
const SHORT_UNITS = { "percentage points": "pp" };
const GRADE_WORDS = { inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
const GRADE_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** Start a streamed review: onAnswer(answer) for the review so far after each decision and for the final one.
 * Returns {done, stop} (api.js stream). */
export function startReview(query, onAnswer) {
  return stream({ action: "review", reportDuringSearchEvery: 0.3, ...query }, onAnswer);
}

/** A loss for people: never negative, two significant digits, in its unit. */
export function formatLoss(loss, unit) {
  if (typeof loss !== "number") return "?";
  const value = Math.max(0, loss);
  const text = value === 0 ? "0" : value >= 10 ? value.toFixed(0) : value.toPrecision(2);
  const short = SHORT_UNITS[unit] ?? unit ?? "";
  return short ? `${text} ${short}` : text;
}

/** What a decision was: its grade, "best" (the engine's own move or one valued with it) or "as good as the best". */
export function verdict(decision) {
  if (decision.grade) return { kind: decision.grade, text: `${GRADE_WORDS[decision.grade]} ${GRADE_MARKS[decision.grade]}` };
  if (decision.playedBest || decision.played === decision.best) return { kind: "best", text: "best" };
  if (decision.decided) return { kind: "good", text: `not graded: ${decision.decided}` };
  if (decision.asGoodAsBest) return { kind: "good", text: "as good as the best" };
  return { kind: "good", text: "no grade (a small loss)" };
}

/** The progress bar and its words. */
export function renderProgress(element, answer, running) {
  const progress = answer?.progress ?? { done: 0, total: 0 };
  element.hidden = false;
  const bar = element.querySelector("progress");
  bar.max = Math.max(1, progress.total);
  bar.value = progress.done;
  let text = `${progress.done} / ${progress.total} decisions reviewed`;
  if (running) text += "...";
  else if (answer?.terminated) text += " (stopped)";
  else if (answer?.timedOut) text += " (the time cap ended it)";
  element.querySelector("span").textContent = text;
  element.dataset.done = String(progress.done);
  element.dataset.total = String(progress.total);
  element.dataset.running = running ? "true" : "false";
}

/** The summary line: grades counted, the share of good moves, the value unit spelled out. */
export function summary(answer, seat) {
  const decisions = answer.decisions || [];
  const grades = answer.grades || {};
  const plural = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
  const counts = ["inaccuracy", "mistake", "blunder"].map((g) => `${grades[g] ?? 0} ${grades[g] === 1 ? g : plural[g]}`);
  const good = Math.round(100 * (answer.asGoodAsBestRate ?? answer.bestMoveRate ?? 0));
  const unit = answer.lossUnit ? ` Losses in ${answer.lossUnit}.` : " Losses in each decision's own unit.";
  const meaning = answer.valueMeaning ? ` (value: ${answer.valueMeaning})` : "";
  return `${decisions.length} decisions of seat ${seat}: ${counts.join(", ")}; ${good}% as good as the best.${unit}${meaning}`;
}

/** The table of decisions: the game's turn, the move played, the engine's first move, the loss, the verdict. */
export function renderTable(body, answer, cursor, onPick) {
  body.innerHTML = "";
  for (const d of answer.decisions || []) {
    const index = d.index ?? d.turn;
    const row = document.createElement("tr");
    row.dataset.turn = index;
    const v = verdict(d);
    row.dataset.grade = v.kind;
    row.classList.add(`grade-${v.kind}`);
    if (cursor === index) row.classList.add("cursor");
    const loss = v.kind === "best" ? "0" : formatLoss(d.loss ?? d.valueLost, d.lossUnit ?? answer.lossUnit);
    for (const text of [d.gameTurn ?? `move ${index + 1}`, d.played, d.best ?? "-", loss, v.text]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    if (d.lossCI && v.kind !== "best") {
      row.title = `95% interval of the loss: ${d.lossCI.map((x) => x.toPrecision(2)).join(" to ")}`;
    }
    row.addEventListener("click", () => onPick(index));
    body.append(row);
  }
}

function node(name, attributes = {}) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** The whole-game evaluation (the value of the seat's position after each decision, and after the engine's first
 * move in dashes) as an SVG graph; a click on a decision's band calls onPick(index). Decisions whose units differ
 * (a game whose values change with the phase) are each drawn on their own unit's scale. */
export function drawGraph(element, answer, cursor, onPick) {
  element.innerHTML = "";
  const points = answer.evaluation || [];
  if (!points.length) return;
  const width = 600;
  const height = 160;
  const pad = 8;
  const scales = {};
  for (const p of points) {
    const unit = p.unit ?? "";
    const s = scales[unit] ?? (scales[unit] = { lo: Infinity, hi: -Infinity });
    for (const v of [p.value, p.best]) {
      if (typeof v === "number") { s.lo = Math.min(s.lo, v); s.hi = Math.max(s.hi, v); }
    }
  }
  for (const s of Object.values(scales)) {
    if (s.hi - s.lo < 1e-9) { s.lo -= 1; s.hi += 1; }
  }
  const units = Object.keys(scales);
  const percent = units.length === 1 && /percent/.test(units[0]);
  if (percent) { scales[units[0]].lo = Math.min(0, scales[units[0]].lo); scales[units[0]].hi = Math.max(100, scales[units[0]].hi); }
  const band = (width - 2 * pad) / points.length;
  const x = (i) => pad + band * (i + 0.5);
  const y = (p, v) => {
    const s = scales[p.unit ?? ""];
    return height - pad - ((v - s.lo) / (s.hi - s.lo)) * (height - 2 * pad);
  };
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "evaluation-graph",
                            "aria-label": "the evaluation after each decision; click a decision to open it" });
  svg.append(node("rect", { x: 0, y: 0, width, height, class: "graph-ground" }));
  if (percent) {
    const mid = y(points[0], 50);
    svg.append(node("line", { x1: pad, x2: width - pad, y1: mid, y2: mid, class: "graph-mid" }));
  }
  const line = (key, cls) => {
    let d = "";
    points.forEach((p, i) => {
      if (typeof p[key] !== "number") return;
      const broken = i > 0 && (points[i - 1].unit ?? "") !== (p.unit ?? "");
      d += `${d && !broken ? "L" : "M"}${x(i).toFixed(1)},${y(p, p[key]).toFixed(1)}`;
    });
    if (d) svg.append(node("path", { d, class: cls }));
  };
  line("best", "graph-best");
  line("value", "graph-value");
  const byIndex = new Map((answer.decisions || []).map((d) => [d.index ?? d.turn, d]));
  points.forEach((p, i) => {
    const d = byIndex.get(p.index);
    const kind = d ? verdict(d).kind : "good";
    const group = node("g", { class: `graph-decision grade-${kind}`, "data-index": p.index });
    if (cursor === p.index) group.classList.add("cursor");
    const title = node("title");
    const loss = d && kind !== "best" ? `, lost ${formatLoss(d.loss, d.lossUnit ?? answer.lossUnit)}` : "";
    title.textContent = `${p.gameTurn ?? `move ${p.index + 1}`}: ${d?.played ?? ""}${loss}${d ? ` (${verdict(d).text})` : ""}`;
    group.append(title, node("rect", { x: pad + band * i, y: 0, width: band, height, class: "graph-band" }));
    if (typeof p.value === "number") {
      const r = ["inaccuracy", "mistake", "blunder"].includes(kind) ? 5 : 3;
      group.append(node("circle", { cx: x(i), cy: y(p, p.value), r, class: "graph-point" }));
    }
    group.addEventListener("click", () => onPick(p.index));
    svg.append(group);
  });
  element.append(svg);
  const legend = document.createElement("p");
  legend.className = "help";
  legend.textContent = units.length > 1
    ? "The value after each decision (solid) and after the engine's first move (dashed), each phase on its own scale."
    : `The value after each decision (solid) and after the engine's first move (dashed), in ${units[0] || "the game's unit"}.`;
  element.append(legend);
}
