// The table-side board. The server holds every game (docs/web.md, "The table server"): this page asks it to deal,
// to apply a move, to undo and redo, and shows what its key opens: one seat's view and record (/play/ID/KEY), or
// the table's public information (/table/ID/KEY). It never holds a card its seat may not see. Analysis (hints,
// reviews, puzzles) posts the seat's own view or record to the engine (/api/engine, /api/stream).
import { engine, EngineError, stream, tables } from "./api.js";
import { drawBoard, formatValue } from "./board.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const ROUTE = location.pathname.match(/^\/(play|table)\/([^/]+)\/([^/]+)\/?$/);
const GAMES_KEY = "memory-solver.games";       // the games this browser opened: [{id, url, game, seat, last}]
const INVITES_KEY = "memory-solver.invites.";  // + game id: the links of a game this browser dealt

const S = {
  games: [],          // the games the server offers (action "games")
  id: null,           // the game's id, the key of this page, and what it opens ("seat" or "table")
  key: null,
  role: null,
  server: null,       // tables.at(id, key)
  answer: null,       // the server's last answer: view, record, legalMoves, over, toMove, ...
  link: "live",       // the event stream: "live" or "reconnecting"
  hint: null,         // the last hint's answer, while it is for the current position
  hintRun: null,
  review: null,
  cursor: null,       // the review's selected record entry
};

// ---------------------------------------------------------------------- busy
let busy = 0;
/** body[data-busy]: an action of this page under way, or the engine playing a seat (tests and the cursor wait). */
function showBusy() {
  document.body.dataset.busy = busy > 0 || S.answer?.thinking ? "true" : "false";
}

/** Run an action with the page marked busy. */
function guarded(action) {
  return async (...args) => {
    busy += 1;
    showBusy();
    try {
      return await action(...args);
    } finally {
      busy -= 1;
      showBusy();
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

function longName(spec) {
  return info(gameName(spec))?.longName ?? gameName(spec);
}

// ---------------------------------------------------------------------- this browser's games
function savedGames() {
  try {
    return JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
  } catch {
    return [];
  }
}

/** Remember this page's game (its link, the game, the time of its last move) for the start page's list. */
function rememberGame(answer) {
  const moves = answer.record?.moves || [];
  const entry = { id: answer.id, url: location.pathname, game: answer.game, seat: answer.player,
                  last: moves.length ? moves[moves.length - 1].time || null : null, over: answer.over };
  const others = savedGames().filter((g) => g.url !== entry.url);
  localStorage.setItem(GAMES_KEY, JSON.stringify([entry, ...others].slice(0, 50)));
}

function renderSavedGames() {
  if (ROUTE) return;  // a game's page lists no other games
  const list = $("saved-games");
  list.innerHTML = "";
  const games = savedGames();
  $("saved-panel").hidden = games.length === 0;
  for (const g of games) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = g.url;
    link.textContent = `${longName(g.game)}, ${g.seat === null ? "the table" : `seat ${g.seat}`}`;
    const when = document.createElement("span");
    when.className = "when";
    when.textContent = g.over ? " (over)" : g.last ? ` (last move ${new Date(g.last).toLocaleString()})` : " (no move yet)";
    const forget = document.createElement("button");
    forget.type = "button";
    forget.textContent = "Forget";
    forget.addEventListener("click", () => {
      localStorage.setItem(GAMES_KEY, JSON.stringify(savedGames().filter((x) => x.url !== g.url)));
      localStorage.removeItem(INVITES_KEY + g.id);
      renderSavedGames();
    });
    item.append(link, when, " ", forget);
    list.append(item);
  }
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
  renderSavedGames();
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

function playerCount() {
  const g = info($("game").value);
  return g.playersParameter ? Number($("players").value) || g.players[0] : g.players[0];
}

function fillSeats() {
  $("seat").innerHTML = "";
  for (let p = 0; p < playerCount(); p++) $("seat").append(new Option(`seat ${p}`, String(p)));
}

/** The game spec of the start form: the game's name, with its players and mode where they are not the defaults. */
function startSpec() {
  const g = info($("game").value);
  const changed = [];
  for (const [param, field, element] of [[g.playersParameter, "players-field", "players"],
                                         [g.modeParameter, "mode-field", "mode"]]) {
    if (!param || $(field).hidden) continue;
    const value = $(element).value;
    if (String(value) !== String(g.parameters[param].default)) changed.push(`${param}=${value}`);
  }
  return changed.length ? `${g.name}(${changed.join(",")})` : g.name;
}

/** The seats of a new game: mine, and the others played by the engine, by players on their own devices, or (at a
 * real table) entered by me. */
function startSeats(table) {
  const me = Number($("seat").value);
  const others = $("others").value;
  if ((others === "engine" && !table) || (others === "me" && table)) return [{ player: me, by: "human" }];
  return Array.from({ length: playerCount() }, (_, p) => ({ player: p, by: "human" }));
}

/** A seed from the form, or (left empty) a random one: a seat that knows a dealt game's seed can deal it again. */
function startSeed() {
  const text = $("seed").value.trim();
  if (text !== "") return Number(text);
  const words = crypto.getRandomValues(new Uint32Array(2));
  return words[0] * 2 ** 21 + (words[1] >>> 11);
}

async function startGame(table) {
  say($("start-message"), "");
  try {
    const created = await tables.create({ game: startSpec(), seed: startSeed(), mode: table ? "table" : "dealt",
                                          seats: startSeats(table) });
    openCreated(created, Number($("seat").value));
  } catch (error) {
    say($("start-message"), error.message);
  }
}

/** Keep the new game's links (this browser dealt it: it shows them to the other players), then open my seat. */
function openCreated(created, seat) {
  localStorage.setItem(INVITES_KEY + created.id, JSON.stringify({ seats: created.seats, table: created.table }));
  const mine = created.seats.find((s) => s.player === seat) || created.seats[0];
  location.assign(new URL(mine.url).pathname + location.search);  // ?nodes=N (a hint budget) goes along
}

async function loadRecord(file) {
  say($("start-message"), "");
  try {
    const lines = (await file.text()).split("\n").filter((l) => l.trim());
    const header = JSON.parse(lines[0]);
    if (header.format !== "memory-solver-record") throw new Error("not a memory-solver game record");
    const moves = (header.moves || []).concat(lines.slice(1).map((l) => JSON.parse(l)));
    const record = { ...header, moves };
    const body = { game: header.game, record, seed: startSeed() };
    const fromView = header.observer !== null && header.observer !== undefined;
    if (!fromView) body.seats = startSeats(false);
    const created = await tables.create(body);
    openCreated(created, fromView ? header.observer : Number($("seat").value));
  } catch (error) {
    say($("start-message"), `could not load the record: ${error.message}`);
  }
}

// ---------------------------------------------------------------------- a game's page
async function openGame(kind, id, key) {
  S.id = decodeURIComponent(id);
  S.key = decodeURIComponent(key);
  S.role = kind === "table" ? "table" : "seat";
  S.server = tables.at(S.id, S.key);
  $("start").hidden = true;
  $("saved-panel").hidden = true;
  $("table").hidden = false;
  document.body.dataset.role = S.role;
  try {
    await take(await S.server.get());
  } catch (error) {
    $("table").hidden = true;
    $("start").hidden = false;
    say($("start-message"), error.status === 404 ? "This link opens no game (a wrong link, or the game is gone)."
      : `cannot open the game: ${error.message}`);
    return;
  }
  renderLinks();
  S.server.listen((answer) => guarded(take)(answer), (status) => {
    if (S.link === status) return;
    S.link = status;
    renderStatus();
    if (status === "live") S.server.get().then((answer) => guarded(take)(answer)).catch(() => {});
  });
}

/** A new answer from the server (ours, or an event from another seat's move): shown unless nothing changed. */
async function take(answer) {
  const before = S.answer;
  // answers may cross (an event of a later change before the answer to our own request): the newest wins
  if (before && (answer.revision < before.revision ||
                 (answer.revision === before.revision && answer.fullRecord === before.fullRecord))) return;
  if (before && answer.revision !== before.revision) clearHint();
  S.answer = answer;
  showBusy();
  rememberGame(answer);
  await render();
}

async function render() {
  const answer = S.answer;
  document.body.dataset.revision = answer.revision;
  $("moves-title").textContent = answer.toMove === -1 ? "Outcomes" : "Moves";
  renderMoves();
  renderMoveList();
  renderStatus();
  await drawPosition();
  const seat = S.role === "seat";
  $("undo").disabled = !seat || !answer.canUndo;
  $("redo").disabled = !seat || !answer.canRedo;
  $("hint").disabled = !seat || answer.over || S.hintRun !== null;
  $("full-record").hidden = !answer.fullRecord;
  const training = seat && answer.mode === "dealt" && !answer.fullRecord &&
    answer.seats.filter((s) => s.by === "human").length === 1;
  $("reveal").hidden = !training;
}

function entries(count) {
  return S.answer.record.moves.slice(0, count).map((m) => m.move);
}

function playable() {
  return S.cursor === null ? S.answer.legalMoves : [];
}

async function drawPosition() {
  const answer = S.answer;
  const count = S.cursor === null ? answer.record.moves.length : S.cursor;
  let query;
  if (S.role === "table") {
    if (!answer.position) {  // the seats see different things: what all of them know, as text
      const lines = Object.entries(answer.view || {})
        .filter(([key, value]) => value !== null && !["view", "role"].includes(key))
        .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
      const pre = document.createElement("pre");
      pre.className = "board-text";
      pre.textContent = `What everybody at the table knows (? where the seats know different things):\n\n${lines.join("\n")}`;
      $("board").replaceChildren(pre);
      return;
    }
    query = { action: "show", game: answer.game, state: answer.position };
  } else if (S.cursor === null) {
    query = { action: "show", game: answer.game, state: answer.view };
  } else {
    query = { action: "show", game: answer.game, state: answer.record.start, moves: entries(count) };
  }
  if (S.cursor !== null) query.hint = reviewHint(S.cursor);
  else if (S.hint) query.hint = S.hint;
  const ticket = ++drawings;  // a newer drawing (the next event) wins over one still under way
  await drawInto($("board"), query, playable(), (moves, token) => choose(moves, token, $("chooser"), play),
                 () => ticket === drawings);
}
let drawings = 0;

/** The picture of a position (the text description where a game draws no picture), drawn while ``current()``. */
async function drawInto(element, query, legal, onMoves, current = () => true) {
  try {
    const answer = await engine(query);
    if (current()) drawBoard(element, answer.svg, legal, onMoves);
  } catch (error) {
    if (!(error instanceof EngineError) || !/picture/.test(error.message)) throw error;
    const answer = await engine({ ...query, svg: false });
    if (!current()) return;
    const pre = document.createElement("pre");
    pre.className = "board-text";
    pre.textContent = answer.text;
    element.replaceChildren(pre);
  }
}

function renderStatus() {
  const answer = S.answer;
  if (!answer) return;
  const who = answer.toMove;
  const seat = answer.player;
  const engineSeat = answer.seats.find((s) => s.player === who)?.by === "engine";
  let text;
  if (S.cursor !== null) text = `Review: the position before move ${S.cursor + 1}`;
  else if (answer.over) text = "The game is over.";
  else if (answer.thinking || engineSeat) text = `Seat ${who} (the engine) is thinking...`;
  else if (who === -1 && (S.role === "table" || !answer.legalMoves.length)) {
    text = "Waiting for a seat to enter what only it sees (on its own page).";
  } else if (who === -1) text = "Enter the outcome (the card drawn, the tile seen, the dice).";
  else if (S.role === "table") text = `Seat ${who} to move.`;
  else if (who === seat) text = `Your move (seat ${seat}).`;
  else if (answer.legalMoves.length) text = `Enter seat ${who}'s move.`;
  else text = `Waiting for seat ${who}.`;
  const where = S.role === "table" ? "The table" : `Seat ${seat}`;
  $("whoami").textContent = `${longName(answer.game)}: ${where}` +
    (answer.mode === "table" ? " (a real table)" : "");
  $("status").textContent = text + (S.link === "live" ? "" : " (reconnecting to the server...)");
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
  if (S.cursor !== null) {  // the board shows a past position: moves are played on the game, after the review
    box.textContent = "Reviewing a past position: Back to the game to play on.";
    return;
  }
  const best = S.hint?.moveInfos?.[0]?.move;
  for (const move of S.answer.legalMoves) {
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
  S.answer.record.moves.forEach((m, i) => {
    const item = document.createElement("li");
    item.append(document.createTextNode(m.move));
    if (mistakes.has(i)) item.classList.add("mistake");
    if (S.cursor === i) item.classList.add("cursor");
    list.append(item);
  });
  list.scrollTop = list.scrollHeight;
}

/** This seat's own link and QR code (to open it on another device) and, on the page that dealt the game, the other
 * seats' and the table's. */
function renderLinks() {
  const box = $("links");
  box.innerHTML = "";
  const invites = JSON.parse(localStorage.getItem(INVITES_KEY + S.id) || "null");
  const links = [{ label: S.role === "table" ? "The table (this page)" : `Seat ${S.answer.player} (this page)`,
                   url: location.origin + location.pathname }];
  if (invites) {
    for (const seat of invites.seats) {
      if (seat.player !== S.answer.player || S.role === "table") links.push({ label: `Seat ${seat.player}`, url: seat.url });
    }
    if (S.role !== "table") links.push({ label: "The table (public information, for a shared screen)", url: invites.table });
  }
  for (const link of links) {
    const figure = document.createElement("figure");
    const path = new URL(link.url).pathname;
    const [, , id, key] = path.split("/");
    const image = document.createElement("img");
    image.src = tables.at(decodeURIComponent(id), decodeURIComponent(key)).qr;
    image.alt = `QR code of ${link.label}`;
    image.width = 132;
    image.height = 132;
    const caption = document.createElement("figcaption");
    const anchor = document.createElement("a");
    anchor.href = path;
    anchor.textContent = link.label;
    anchor.target = "_blank";
    anchor.rel = "noopener";
    caption.append(anchor);
    figure.append(image, caption);
    box.append(figure);
  }
}

// ---------------------------------------------------------------------- moves
const play = guarded(playMove);

async function playMove(move) {
  say($("message"), "");
  $("chooser").innerHTML = "";
  await change(() => S.server.moves([move], S.answer.record.moves.length));
}

/** A change asked of the server; its answer shown (a 409: the game moved on, its current state shown). */
async function change(request) {
  try {
    await take(await request());
  } catch (error) {
    if (error.status === 409 && error.answer?.record) {
      await take(error.answer);
      say($("message"), `The game moved on: ${error.message}`);
    } else {
      say($("message"), error instanceof EngineError ? `Refused: ${error.message}` : error.message);
    }
  }
}

async function undo() {
  clearHint();
  await change(() => S.server.undo(S.answer.record.moves.length));
}

async function redo() {
  clearHint();
  await change(() => S.server.redo(S.answer.record.moves.length));
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
  if (S.answer.over || S.hintRun) return;
  say($("message"), "");
  const query = { action: "hint", game: S.answer.game, state: S.answer.view, top: 5, limits: budget(),
                  seed: Number(params.get("hintSeed") || 0), reportDuringSearchEvery: 0.5 };
  $("stop").disabled = false;
  $("hint").disabled = true;
  const revision = S.answer.revision;
  const run = stream(query, (answer) => { S.hint = answer; renderHint(answer); });
  S.hintRun = run;
  try {
    const final = await run.done;
    if (S.answer.revision === revision) {
      S.hint = final;
      renderHint(final);
      await drawPosition();
      renderMoves();
    }
  } catch (error) {
    if (error.name !== "AbortError") say($("message"), error.message);
  } finally {
    S.hintRun = null;
    $("stop").disabled = true;
    $("hint").disabled = S.answer.over;
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
function download(record, name) {
  const { moves, ...header } = record;
  const text = [JSON.stringify(header), ...moves.map((m) => JSON.stringify(m))].join("\n") + "\n";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Save this seat's record (what this seat saw; docs/records.md). */
function save() {
  download(S.answer.record, `${gameName(S.answer.game)}-seat${S.answer.player}-record.jsonl`);
}

async function fullRecord() {
  try {
    download(await S.server.record(), `${gameName(S.answer.game)}-full-record.jsonl`);
  } catch (error) {
    say($("message"), error.message);
  }
}

async function reveal() {
  if (!confirm("Reveal every hidden card of this game (a training game: the engine's cards too)?")) return;
  try {
    download(await S.server.reveal(), `${gameName(S.answer.game)}-full-record.jsonl`);
    await take(await S.server.get());
  } catch (error) {
    say($("message"), error.message);
  }
}

async function review() {
  clearHint();  // the review draws each decision's own best move; the last hint was for the current position
  await drawPosition();
  renderMoves();
  say($("message"), "Reviewing...", "ok");
  try {
    S.review = await engine({ action: "review", game: S.answer.game, record: S.answer.record,
                              player: S.answer.player, limits: budget(), seed: 0 });
  } catch (error) {
    say($("message"), error.message);
    return;
  }
  say($("message"), "");
  $("review-panel").hidden = false;
  const lost = Number((S.review.totalValueLost ?? 0).toPrecision(3));
  $("review-summary").textContent = `${S.review.decisions.length} decisions of seat ${S.answer.player}; ` +
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
  renderStatus();
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
  await render();
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
    // a kind the game's default board cannot have is made on the board the game names for it
    const g = info($("puzzle-game").value);
    const kind = $("puzzle-kind").value;
    const answer = await engine({ action: "generate", game: g.puzzleGames?.[kind] ?? g.name, kind,
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
  const playing = S.answer !== null;
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
  $("full-record").addEventListener("click", guarded(fullRecord));
  $("reveal").addEventListener("click", guarded(reveal));
  $("review").addEventListener("click", guarded(review));
  $("review-close").addEventListener("click", guarded(closeReview));
  $("again").addEventListener("click", () => { location.assign(`/${location.search}`); });
  $("puzzle-game").addEventListener("change", fillPuzzleKinds);
  $("puzzle-new").addEventListener("click", guarded(newPuzzle));
  $("puzzle-reset").addEventListener("click", guarded(() => { P.moves = []; return drawPuzzle(); }));
  $("puzzle-check").addEventListener("click", guarded(checkPuzzle));
  $("puzzle-solution").addEventListener("click", guarded(showSolution));
}

wire();
showBusy();
loadGames()
  .then(() => (ROUTE ? guarded(openGame)(ROUTE[1], ROUTE[2], ROUTE[3]) : undefined))
  .then(() => { document.body.dataset.ready = "true"; })
  .catch((error) => say($("start-message"), `cannot reach the engine: ${error.message}`));
