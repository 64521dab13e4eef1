// The table-side board: a game held as a record (start + moves) in the page; the server keeps nothing.
import { engine, EngineError, stream } from "./api.js";
import { drawBoard, formatValue } from "./board.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const S = {
  games: [],          // the games the server offers (action "games")
  spec: null,         // the game spec being played, e.g. "forgotten" or "aetherya(players=3)"
  seat: 0,            // the seat the user plays
  table: false,       // a real table (the start is the seat's view) or a dealt game (the full state)
  others: "engine",   // who plays the other seats in a dealt game
  start: null,        // the start position's JSON
  moves: [],          // [{move, by}] entered so far
  redo: [],
  position: null,     // the answer of "apply" for the current position
  hint: null,         // the last hint's answer, while it is for the current position
  hintRun: null,
  review: null,
  cursor: null,       // the review's selected move index
  seed: 1,
};

// ---------------------------------------------------------------------- busy
let busy = 0;
/** Run an action with the page marked busy (body[data-busy]); tests and the cursor wait on it. */
function guarded(action) {
  return async (...args) => {
    busy += 1;
    document.body.dataset.busy = "true";
    try {
      return await action(...args);
    } finally {
      busy -= 1;
      if (!busy) document.body.dataset.busy = "false";
    }
  };
}

// ---------------------------------------------------------------------- messages
function say(element, text, kind = "error") {
  element.textContent = text || "";
  element.className = `message ${text ? kind : ""}`;
}

function budget() {
  const value = params.get("nodes") ? `nodes:${params.get("nodes")}` : $("budget").value;
  const [kind, amount] = value.split(":");
  return kind === "nodes" ? { nodes: Number(amount) } : { time_ms: Number(amount) };
}

function info(name) {
  return S.games.find((g) => g.name === name);
}

function gameName(spec) {
  return (spec || "").split("(")[0];
}

// ---------------------------------------------------------------------- start
async function loadGames() {
  const answer = await engine({ action: "games" });
  S.games = answer.games;
  for (const select of [$("game"), $("puzzle-game")]) {
    select.innerHTML = "";
    for (const g of S.games) select.append(new Option(g.longName, g.name));
  }
  if (params.get("game")) $("game").value = params.get("game");
  if (params.get("seed")) $("seed").value = params.get("seed");
  fillStartFields();
  fillPuzzleKinds();
}

function fillStartFields() {
  const g = info($("game").value);
  const players = g.playersParameter ? g.parameters[g.playersParameter] : null;
  $("players-field").hidden = !players;
  if (players) {
    $("players").min = players.min ?? g.players[0];
    $("players").max = players.max ?? g.players[1];
    $("players").value = players.default;
  }
  const mode = g.modeParameter ? g.parameters[g.modeParameter] : null;
  $("mode-field").hidden = !mode;
  $("mode").innerHTML = "";
  if (mode) for (const choice of mode.choices || [mode.default]) $("mode").append(new Option(choice, choice));
  if (mode) $("mode").value = mode.default;
  fillSeats();
}

function fillSeats() {
  const g = info($("game").value);
  const count = g.playersParameter ? Number($("players").value) || g.players[0] : g.players[0];
  $("seat").innerHTML = "";
  for (let p = 0; p < count; p++) $("seat").append(new Option(`seat ${p}`, String(p)));
}

function startQuery() {
  const g = info($("game").value);
  const query = { action: "new", game: g.name };
  if (g.playersParameter && !$("players-field").hidden) query.players = Number($("players").value);
  if (g.modeParameter && !$("mode-field").hidden) query.mode = $("mode").value;
  return query;
}

async function startGame(table) {
  say($("start-message"), "");
  try {
    S.seat = Number($("seat").value);
    S.seed = Number($("seed").value) || 0;
    S.others = $("others").value;
    const query = { ...startQuery(), seed: S.seed };
    if (table) Object.assign(query, { table: true, player: S.seat });
    const answer = await engine(query);
    S.spec = answer.game;
    S.table = table;
    S.start = answer.state;
    S.moves = [];
    S.redo = [];
    await showTable();
  } catch (error) {
    say($("start-message"), error.message);
  }
}

async function loadRecord(file) {
  say($("start-message"), "");
  try {
    const lines = (await file.text()).split("\n").filter((l) => l.trim());
    const header = JSON.parse(lines[0]);
    if (header.format !== "memory-solver-record") throw new Error("not a memory-solver game record");
    const moves = (header.moves || []).concat(lines.slice(1).map((l) => JSON.parse(l)));
    S.spec = header.game;
    S.start = header.start;
    S.table = header.observer !== null && header.observer !== undefined;
    S.seat = S.table ? header.observer : Number($("seat").value);
    S.others = "me";
    S.moves = moves.map((m) => (typeof m === "string" ? { move: m } : { move: m.move, by: m.by }));
    S.redo = [];
    await showTable();
  } catch (error) {
    say($("start-message"), `could not load the record: ${error.message}`);
  }
}

async function showTable() {
  $("start").hidden = true;
  $("table").hidden = false;
  $("review-panel").hidden = true;
  S.review = null;
  S.cursor = null;
  await refresh();
  await autoplay();
}

// ---------------------------------------------------------------------- the position
function moveStrings(count = S.moves.length) {
  return S.moves.slice(0, count).map((m) => m.move);
}

async function positionAfter(count) {
  return engine({ action: "apply", game: S.spec, state: S.start, moves: moveStrings(count) });
}

function myTurn(position) {
  if (position.terminal) return false;
  if (S.table || S.others === "me") return true;
  return position.currentPlayer === S.seat;
}

async function refresh() {
  S.position = await positionAfter(S.moves.length);
  await drawPosition();
  renderMoves();
  renderMoveList();
}

async function drawPosition() {
  const count = S.cursor === null ? S.moves.length : S.cursor;
  const query = { action: "show", game: S.spec, state: S.start, moves: moveStrings(count) };
  if (!S.table) query.player = S.seat;
  if (S.cursor !== null) query.hint = reviewHint(S.cursor);
  else if (S.hint) query.hint = S.hint;
  const legal = S.cursor === null && myTurn(S.position) ? S.position.legalMoves : [];
  await drawInto($("board"), query, legal, (moves, token) => choose(moves, token, $("chooser"), play));
  $("status").textContent = statusLine(S.position, count);
}

/** The picture of a position (the text description where a game draws no picture). */
async function drawInto(element, query, legal, onMoves) {
  try {
    const answer = await engine(query);
    drawBoard(element, answer.svg, legal, onMoves);
  } catch (error) {
    if (!(error instanceof EngineError) || !/picture/.test(error.message)) throw error;
    const answer = await engine({ ...query, svg: false });
    const pre = document.createElement("pre");
    pre.className = "board-text";
    pre.textContent = answer.text;
    element.replaceChildren(pre);
  }
}

function statusLine(position, count) {
  if (S.cursor !== null) return `Review: the position before move ${count + 1}`;
  if (position.terminal) return "The game is over.";
  const who = position.currentPlayer;
  if (who === -1) return S.table ? "Enter the outcome (the card drawn, the tile seen, the dice)." : "Dealing...";
  if (who === S.seat) return `Your move (seat ${S.seat}).`;
  return S.table || S.others === "me" ? `Enter seat ${who}'s move.` : `Seat ${who} is thinking...`;
}

function choose(moves, token, element, act) {
  element.innerHTML = "";
  if (moves.length === 1) return act(moves[0]);
  if (!moves.length) {
    element.textContent = `Nothing to do at ${token} now.`;
    return undefined;
  }
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.addEventListener("click", () => { element.innerHTML = ""; act(move); });
    element.append(button);
  }
  return undefined;
}

function renderMoves() {
  const box = $("moves");
  box.innerHTML = "";
  const position = S.position;
  $("moves-title").textContent = position.currentPlayer === -1 ? "Outcomes" : "Moves";
  if (S.cursor !== null) {  // the board shows a past position: moves are played on the game, after the review
    box.textContent = "Reviewing a past position: Back to the game to play on.";
    return;
  }
  if (!myTurn(position)) return;
  const best = S.hint?.moveInfos?.[0]?.move;
  for (const move of position.legalMoves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.dataset.move = move;
    if (move === best) button.classList.add("best");
    button.addEventListener("click", () => play(move));
    box.append(button);
  }
}

function renderMoveList() {
  const list = $("move-list");
  list.innerHTML = "";
  const mistakes = new Set((S.review?.mistakes || []).map((d) => d.turn));
  S.moves.forEach((m, i) => {
    const item = document.createElement("li");
    const by = m.by === undefined ? "" : m.by === -1 ? "chance" : `seat ${m.by}`;
    item.innerHTML = `<span class="by">${by}</span> `;
    item.append(document.createTextNode(m.move));
    if (mistakes.has(i)) item.classList.add("mistake");
    if (S.cursor === i) item.classList.add("cursor");
    list.append(item);
  });
  list.scrollTop = list.scrollHeight;
}

// ---------------------------------------------------------------------- moves
const play = guarded(playMove);

async function playMove(move) {
  say($("message"), "");
  $("chooser").innerHTML = "";
  const by = S.position.currentPlayer;
  S.moves.push({ move, by });
  try {
    await refresh();
  } catch (error) {
    S.moves.pop();
    say($("message"), error instanceof EngineError ? `Refused: ${error.message}` : error.message);
    await refresh();
    return;
  }
  S.redo = [];
  clearHint();
  await autoplay();
}

/** In a dealt game, deal chance outcomes and play the other seats until it is the user's turn. */
async function autoplay() {
  if (S.table) return;
  for (let guard = 0; guard < 2000 && !S.position.terminal; guard++) {
    const who = S.position.currentPlayer;
    let move;
    if (who === -1) {
      move = (await engine({ action: "sample", game: S.spec, state: S.start, moves: moveStrings(), seed: S.seed })).move;
    } else if (who !== S.seat && S.others === "engine") {
      const answer = await engine({ action: "hint", game: S.spec, state: S.start, moves: moveStrings(), player: who,
                                    top: 1, limits: { nodes: 60, time_ms: 400 }, seed: S.seed + S.moves.length });
      move = answer.moveInfos[0].move;
    } else break;
    S.moves.push({ move, by: who });
    S.position = await positionAfter(S.moves.length);
  }
  await refresh();
}

function engineSeats() {
  return !S.table && S.others === "engine";
}

async function undo() {
  if (!S.moves.length) return;
  clearHint();
  // with the engine playing the other seats, back to before the user's previous decision (its replies go too)
  for (;;) {
    const move = S.moves.pop();
    S.redo.push(move);
    if (!engineSeats() || move.by === S.seat || !S.moves.length) break;
  }
  await refresh();
}

async function redo() {
  if (!S.redo.length) return;
  clearHint();
  for (;;) {
    const move = S.redo.pop();
    S.moves.push(move);
    const next = S.redo[S.redo.length - 1];
    if (!engineSeats() || !next || (move.by === S.seat && next.by === S.seat)) break;
    if (move.by !== S.seat && next.by === S.seat) break;
  }
  await refresh();
}

// ---------------------------------------------------------------------- hints
function clearHint() {
  if (S.hintRun) S.hintRun.stop();
  S.hintRun = null;
  S.hint = null;
  $("hint-list").innerHTML = "";
  $("hint-meaning").textContent = "";
  $("stop").disabled = true;
}

async function hint() {
  if (S.position.terminal || S.hintRun) return;
  say($("message"), "");
  const query = { action: "hint", game: S.spec, state: S.start, moves: moveStrings(), top: 5, limits: budget(),
                  seed: S.seed, reportDuringSearchEvery: 0.5 };
  if (!S.table) query.player = S.position.currentPlayer >= 0 ? S.position.currentPlayer : S.seat;
  $("stop").disabled = false;
  $("hint").disabled = true;
  const run = stream(query, (answer) => { S.hint = answer; renderHint(answer); });
  S.hintRun = run;
  try {
    S.hint = await run.done;
    renderHint(S.hint);
    await drawPosition();
    renderMoves();
  } catch (error) {
    if (error.name !== "AbortError") say($("message"), error.message);
  } finally {
    S.hintRun = null;
    $("stop").disabled = true;
    $("hint").disabled = false;
  }
}

function renderHint(answer) {
  const meaning = answer.rootInfo?.valueMeaning || "";
  const searching = answer.isDuringSearch ? " (searching...)" : answer.terminated ? " (stopped)" : "";
  $("hint-meaning").textContent = `value: ${meaning}${searching}`;
  const list = $("hint-list");
  list.innerHTML = "";
  const values = (answer.moveInfos || []).map((m) => m.value);
  const top = Math.max(...values.map(Math.abs), 1e-9);
  for (const m of answer.moveInfos || []) {
    const item = document.createElement("li");
    item.dataset.move = m.move;
    const ci = m.valueCI ? ` [${formatValue(m.valueCI[0], meaning)}, ${formatValue(m.valueCI[1], meaning)}]` : "";
    item.innerHTML = '<span class="move"></span><span class="value"></span><span class="why"></span>' +
      '<div class="bar"><span></span></div>';
    item.querySelector(".move").textContent = m.move;
    item.querySelector(".value").textContent = formatValue(m.value, meaning) + ci;
    item.querySelector(".why").textContent = m.why || "";
    item.querySelector(".bar span").style.width = `${Math.max(2, (100 * Math.abs(m.value)) / top)}%`;
    list.append(item);
  }
}

// ---------------------------------------------------------------------- records and review
function record() {
  return {
    format: "memory-solver-record", version: 1, game: S.spec, start: S.start,
    observer: S.table ? S.seat : null,
    moves: S.moves.map((m) => (m.by === undefined ? { move: m.move } : { move: m.move, by: m.by })),
  };
}

function save() {
  const r = record();
  const { moves, ...header } = r;
  const text = [JSON.stringify(header), ...moves.map((m) => JSON.stringify(m))].join("\n") + "\n";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  link.download = `${gameName(S.spec)}-record.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
}

async function review() {
  clearHint();  // the review draws each decision's own best move; the last hint was for the current position
  await drawPosition();
  renderMoves();
  say($("message"), "Reviewing...", "ok");
  try {
    S.review = await engine({ action: "review", game: S.spec, record: record(), player: S.seat, limits: budget(),
                              seed: S.seed });
  } catch (error) {
    say($("message"), error.message);
    return;
  }
  say($("message"), "");
  $("review-panel").hidden = false;
  const lost = S.review.totalValueLost;
  $("review-summary").textContent = `${S.review.decisions.length} decisions of seat ${S.seat}; ` +
    `best move played ${Math.round(100 * (S.review.bestMoveRate ?? 0))}% of the time; value lost ${lost}. ` +
    (S.review.valueMeaning ? `(value: ${S.review.valueMeaning})` : "");
  const body = $("review-table").querySelector("tbody");
  body.innerHTML = "";
  const mistakes = new Set(S.review.mistakes.map((d) => d.turn));
  for (const d of S.review.decisions) {
    const row = document.createElement("tr");
    row.dataset.turn = d.turn;
    for (const text of [d.turn + 1, d.played, d.best ?? "-", d.valueLost ?? "?"]) {
      const cell = document.createElement("td");
      cell.textContent = typeof text === "number" && !Number.isInteger(text) ? text.toPrecision(3) : text;
      row.append(cell);
    }
    if (mistakes.has(d.turn)) row.classList.add("mistake");
    row.addEventListener("click", guarded(async () => { await showReviewTurn(d.turn); boardIntoView(); }));
    body.append(row);
  }
  renderMoveList();
  $("review-panel").scrollIntoView({ block: "nearest" });
  if (S.review.mistakes.length) await showReviewTurn(S.review.mistakes[0].turn);
}

function reviewHint(turn) {
  const d = S.review?.decisions.find((x) => x.turn === turn);
  if (!d) return null;
  const infos = [{ move: d.best, value: d.bestValue, pv: d.pv, why: d.why }];
  if (d.played !== d.best) infos.push({ move: d.played, value: d.playedValue, pv: [d.played], why: "played" });
  return { moveInfos: infos, rootInfo: { valueMeaning: S.review.valueMeaning } };
}

async function showReviewTurn(turn) {
  S.cursor = turn;
  for (const row of $("review-table").querySelectorAll("tr")) row.classList.toggle("cursor", row.dataset.turn == turn);
  renderMoveList();
  renderMoves();
  await drawPosition();
}

/** Bring the board back on screen when it is scrolled away (a narrow screen: the board is above the panels). */
function boardIntoView() {
  const box = $("board-wrap").getBoundingClientRect();
  if (box.bottom < 120 || box.top > window.innerHeight - 120) $("board-wrap").scrollIntoView({ block: "start" });
}

async function closeReview() {
  S.cursor = null;
  $("review-panel").hidden = true;
  await refresh();
}

// ---------------------------------------------------------------------- puzzles
const P = { puzzle: null, position: null, start: null, moves: [] };

function fillPuzzleKinds() {
  const g = info($("puzzle-game").value);
  $("puzzle-kind").innerHTML = "";
  for (const kind of g.puzzleKinds) $("puzzle-kind").append(new Option(kind, kind));
}

async function newPuzzle() {
  say($("puzzle-message"), "Generating...", "ok");
  $("puzzle-answer").hidden = true;
  try {
    const answer = await engine({ action: "generate", game: $("puzzle-game").value, kind: $("puzzle-kind").value,
                                  difficulty: $("puzzle-difficulty").value, index: Number($("puzzle-index").value),
                                  seed: Number(params.get("puzzleSeed") || 0) });
    P.puzzle = answer.puzzle;
    P.start = answer.position?.state ?? null;
    P.moves = [];
    $("puzzle-text").textContent = `${answer.puzzle.id}\n${answer.text}`;
    say($("puzzle-message"), P.start ? "" : "This puzzle is answered in its own notation (see the text).", "ok");
    await drawPuzzle();
  } catch (error) {
    say($("puzzle-message"), error.message);
  }
}

async function drawPuzzle() {
  if (!P.start) {
    $("puzzle-board").innerHTML = "";
    $("puzzle-legal").innerHTML = "";
    return;
  }
  const game = P.puzzle.game;
  P.position = await engine({ action: "apply", game, state: P.start, moves: P.moves });
  await drawInto($("puzzle-board"), { action: "show", game, state: P.start, moves: P.moves }, P.position.legalMoves,
                 (moves, token) => choose(moves, token, $("puzzle-chooser"), puzzleMove));
  const legal = $("puzzle-legal");
  legal.innerHTML = "";
  for (const move of P.position.terminal ? [] : P.position.legalMoves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.dataset.move = move;
    button.addEventListener("click", () => puzzleMove(move));
    legal.append(button);
  }
  const list = $("puzzle-moves");
  list.innerHTML = "";
  for (const move of P.moves) list.append(Object.assign(document.createElement("li"), { textContent: move }));
}

const puzzleMove = guarded(playPuzzleMove);

async function playPuzzleMove(move) {
  P.moves.push(move);
  try {
    await drawPuzzle();
  } catch (error) {
    P.moves.pop();
    say($("puzzle-message"), error.message);
  }
}

async function checkPuzzle() {
  if (!P.puzzle) return;
  try {
    const verdict = await engine({ action: "check", game: P.puzzle.game, puzzle: P.puzzle, answer: P.moves });
    say($("puzzle-message"), `${verdict.correct ? "correct" : "not correct"}: ${verdict.message}`,
        verdict.correct ? "ok" : "error");
  } catch (error) {
    say($("puzzle-message"), error.message);
  }
}

async function showSolution() {
  if (!P.puzzle) return;
  const answer = await engine({ action: "check", game: P.puzzle.game, puzzle: P.puzzle, answer: P.moves });
  $("puzzle-answer").hidden = false;
  $("puzzle-answer").textContent = `Proven solution: ${answer.solution ?? answer.message}`;
}

// ---------------------------------------------------------------------- wiring
function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  $("puzzles").hidden = name !== "puzzles";
  const playing = S.start !== null;
  $("start").hidden = name !== "play" || playing;
  $("table").hidden = name !== "play" || !playing;
}

function wire() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("game").addEventListener("change", fillStartFields);
  $("players").addEventListener("change", fillSeats);
  $("deal").addEventListener("click", guarded(() => startGame(false)));
  $("table-start").addEventListener("click", guarded(() => startGame(true)));
  $("load").addEventListener("change", guarded((e) => e.target.files[0] && loadRecord(e.target.files[0])));
  $("hint").addEventListener("click", guarded(hint));
  $("stop").addEventListener("click", () => S.hintRun && S.hintRun.stop());
  $("undo").addEventListener("click", guarded(undo));
  $("redo").addEventListener("click", guarded(redo));
  $("save").addEventListener("click", save);
  $("review").addEventListener("click", guarded(review));
  $("review-close").addEventListener("click", guarded(closeReview));
  $("again").addEventListener("click", () => { clearHint(); S.start = null; showTab("play"); });
  $("puzzle-game").addEventListener("change", fillPuzzleKinds);
  $("puzzle-new").addEventListener("click", guarded(newPuzzle));
  $("puzzle-reset").addEventListener("click", guarded(() => { P.moves = []; return drawPuzzle(); }));
  $("puzzle-check").addEventListener("click", guarded(checkPuzzle));
  $("puzzle-solution").addEventListener("click", guarded(showSolution));
}

wire();
document.body.dataset.busy = "false";
loadGames().then(() => { document.body.dataset.ready = "true"; })
  .catch((error) => say($("start-message"), `cannot reach the engine: ${error.message}`));
