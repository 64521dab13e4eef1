// The end-of-game summary: the engine's score of the seat's view (its `score` answer: the game's own score keys,
// such as each player's points per category or each row's total), laid out without naming a game: a list of
// objects becomes a table (one row each, one column per key), a value a line.
import { engine } from "./api.js";

const SKIP = new Set(["id", "action", "isDuringSearch", "game"]);

function cellText(value) {
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return value.map(cellText).join(" ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${cellText(v)}`).join(", ");
  if (typeof value === "number" && !Number.isInteger(value)) return value.toPrecision(3);
  return String(value);
}

function table(rows) {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const element = document.createElement("table");
  element.className = "summary-table";
  const head = element.createTHead().insertRow();
  for (const key of keys) head.append(Object.assign(document.createElement("th"), { textContent: key }));
  const body = element.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    for (const key of keys) line.insertCell().textContent = cellText(row[key]);
  }
  return element;
}

/** Fill ``box`` with the score of ``state`` (the seat's view at the end of the game). */
export async function renderSummary(box, game, state) {
  const answer = await engine({ action: "score", game, state });
  box.innerHTML = "";
  const facts = document.createElement("dl");
  for (const [key, value] of Object.entries(answer)) {
    if (SKIP.has(key) || value === null) continue;
    if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const title = document.createElement("h3");
      title.textContent = key;
      const wrap = document.createElement("div");
      wrap.className = "summary-scroll";
      wrap.append(table(value));
      box.append(title, wrap);
    } else {
      facts.append(Object.assign(document.createElement("dt"), { textContent: key }),
                   Object.assign(document.createElement("dd"), { textContent: cellText(value) }));
    }
  }
  if (facts.childElementCount) box.append(facts);
}
