// The table-side board. The server holds every game (docs/web.md, "The table server"): this page asks it to deal,
// to apply a move, to undo and redo, and shows what its key opens: one seat's view and record (/play/ID/KEY), or
// the table's public information (/table/ID/KEY). It never holds a card its seat may not see. Analysis (hints,
// reviews, puzzles) posts the seat's own view or record to the engine (/api/engine, /api/stream).
import { engine, EngineError, stream, tables } from "./api.js";
import { choicesAt, consistentMoves, drawBoard, formatValue, movesFor, pieceOf, sequenceOf } from "./board.js";
import { bindKeys, copyText, newLine, playInLine, renderLine } from "./navigation.js";
import { drawGraph, renderProgress, renderTable, startReview, summary } from "./review.js";
import { fitForTouch, pictureOptions, revealMove } from "./touch.js";
import {
  changedParameters, fillPerPlayer, formValue, linkPlayersAndMode, renderParameters, seatLabels,
} from "./startform.js";
import { renderSummary } from "./summary.js";
import { markPlaces, placeClick } from "./entry.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const ROUTE = location.pathname.match(/^\/(play|table)\/([^/]+)\/([^/]+)\/?$/);
const GAMES_KEY = "memory-solver.games";       // the games this browser opened: [{id, url, game, seat, last}]
const INVITES_KEY = "memory-solver.invites.";  // + game id: the links of a game this browser dealt
const BUDGET_KEY = "memory-solver.budget";     // the hint budget chosen last (the start form's or the game's)

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
  reviewRun: null,    // the review under way ({done, stop})
  cursor: null,       // the past position shown: how many of the record's moves (null: the game now)
  line: null,         // a side line tried on this page (navigation.js newLine), or null
  shown: null,        // the engine's apply answer for a shown past position or side line (its legalMoves)
  build: null,        // a move entered piece by piece (board.js sequenceOf): {key, picks, slot}
  listOpen: false,    // the folded list of moves (while the picture offers them as cards) was opened
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
  const value = params.get("nodes") ? `nodes:${params.get("nodes")}` : (S.id ? $("play-budget") : $("budget")).value;
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
                  name: answer.player === null ? null : seatName(answer, answer.player),
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
    link.textContent = `${longName(g.game)}, ${g.seat === null ? "the table" : g.name || `seat ${g.seat}`}`;
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
  renderParameters(g, $("more-params"));
  fillSeats();
}

function playerCount() {
  const g = info($("game").value);
  return g.playersParameter ? Number($("players").value) || g.players[0] : g.players[0];
}

function fillSeats() {
  const g = info($("game").value);
  const chosen = $("seat").value;
  const labels = seatLabels(g, playerCount(), (name) => formValue(g, name, $("players"), $("mode"), $("more-params")));
  $("seat").innerHTML = "";
  labels.forEach((label, p) => $("seat").append(new Option(label, String(p))));
  if (chosen && Number(chosen) < labels.length) $("seat").value = chosen;
  fillPerPlayer(g, $("more-params"), labels);
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
  changed.push(...changedParameters(g, $("more-params")));
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
  if (pictureOffers() !== Boolean($("moves-fold"))) renderMoves();  // the new picture offers (or stopped)
  if (!pictureOffers()) S.listOpen = false;
  const seat = S.role === "seat";
  $("undo").disabled = !seat || !answer.canUndo;
  $("redo").disabled = !seat || !answer.canRedo;
  $("hint").disabled = !seat || answer.over || S.hintRun !== null;
  $("full-record").hidden = !answer.fullRecord;
  const summarise = seat && answer.over;
  if (!summarise) $("summary-panel").hidden = true;
  else if ($("summary-panel").dataset.revision !== String(answer.revision)) {
    $("summary-panel").dataset.revision = String(answer.revision);
    renderSummary($("summary"), answer.game, answer.view)
      .then(() => { $("summary-panel").hidden = false; })
      .catch((error) => say($("message"), `no score: ${error.message}`));
  }
  const training = seat && answer.mode === "dealt" && !answer.fullRecord &&
    answer.seats.filter((s) => s.by === "human").length === 1;
  $("reveal").hidden = !training;
}

function entries(count) {
  return S.answer.record.moves.slice(0, count).map((m) => m.move);
}

function playable() {
  if (live()) return S.answer.legalMoves;
  return S.shown && !S.shown.terminal ? S.shown.legalMoves : [];
}

/** A move chosen on the board or in the list: played on the game now, else tried in a side line on this page. */
function boardMove(move) {
  if (live()) return play(move);
  clearHint();
  if (!S.line) {
    S.line = newLine(S.answer.record.start, entries(S.cursor), `Side line after move ${S.cursor}`);
    S.line.from = S.cursor;
  }
  playInLine(S.line, move);
  return guarded(showNavigation)();
}

/** The position the board shows, as an engine query's {state, moves}: the game now, a past position, a side line. */
function shownPosition() {
  if (S.line) return { state: S.line.state, moves: S.line.moves.slice(0, S.line.at) };
  if (S.cursor !== null) return { state: S.answer.record.start, moves: entries(S.cursor) };
  return { state: S.answer.view, moves: [] };
}

function live() {
  return S.line === null && S.cursor === null;
}

async function drawPosition() {
  const answer = S.answer;
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
  } else {
    query = { action: "show", game: answer.game, ...shownPosition() };
  }
  const ticket = ++drawings;  // a newer drawing (the next event) wins over one still under way
  S.shown = null;
  if (!live() && S.role !== "table") {
    try {
      S.shown = await engine({ action: "apply", game: answer.game, ...shownPosition() });
    } catch (error) {
      say($("message"), error.message);
    }
    if (ticket !== drawings) return;
  }
  if (S.hint) query.hint = S.hint;
  else if (S.cursor !== null && !S.line) query.hint = reviewHint(S.cursor);
  document.body.dataset.cursor = S.cursor === null ? "" : String(S.cursor);
  document.body.dataset.line = S.line ? String(S.line.at - S.line.base) : "";
  await drawInto($("board"), query, playable(),
                 (moves, token) => builderClick(token) ||
                   placeClick($("board"), playable(), moves, token, $("chooser"), boardMove) ||
                   choose(moves, token, $("chooser"), boardMove),
                 () => ticket === drawings);
  markPlaces($("board"), playable());
  revealMove($("board"), query.hint?.moveInfos?.[0]?.move, movesFor);
  renderMoves();
}
let drawings = 0;

/** The picture of a position (the text description where a game draws no picture), drawn while ``current()``. */
async function drawInto(element, query, legal, onMoves, current = () => true) {
  try {
    const answer = await engine({ ...query, options: { ...query.options, ...pictureOptions() } });
    if (current()) {
      drawBoard(element, answer.svg, legal, onMoves);
      fitForTouch(element);
    }
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

/** What the game calls a seat's player (the server's `name`: Embers' Fenrys and Aelin, else "Seat N"). */
function seatName(answer, player) {
  return answer.seats.find((s) => s.player === player)?.name || `Seat ${player}`;
}

function renderStatus() {
  const answer = S.answer;
  if (!answer) return;
  const who = answer.toMove;
  const seat = answer.player;
  const engineSeat = answer.seats.find((s) => s.player === who)?.by === "engine";
  let text;
  if (S.line) text = `${S.line.label}: ${S.line.at - S.line.base} moves tried (the game is not changed).`;
  else if (S.cursor !== null) text = `The position after ${S.cursor} of ${answer.record.moves.length} moves (End: the game now).`;
  else if (answer.over) text = "The game is over.";
  else if (answer.thinking || engineSeat) text = `${seatName(answer, who)} (the engine) is thinking...`;
  else if (who === -1 && (S.role === "table" || !answer.legalMoves.length)) {
    text = "Waiting for a seat to enter what only it sees (on its own page).";
  } else if (who === -1) text = "Enter the outcome (the card drawn, the tile seen, the dice).";
  else if (S.role === "table") text = `${seatName(answer, who)} to move.`;
  else if (who === seat) text = `Your move (${seatName(answer, seat)}).`;
  else if (answer.legalMoves.length) text = `Enter ${seatName(answer, who)}'s move.`;
  else text = `Waiting for ${seatName(answer, who)}.`;
  const where = S.role === "table" ? "The table" : seatName(answer, seat);
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
  const best = S.hint?.moveInfos?.[0]?.move;
  if (!live()) {  // a past position: a move tried here starts a side line (the game is not changed)
    const note = document.createElement("p");
    note.className = "help";
    note.textContent = "A past position: a move played here is tried in a side line.";
    box.append(note);
  }
  const sequence = sequenceOf(playable());
  if (sequence) return renderBuilder(box, sequence);
  S.build = null;
  const list = pictureOffers() ? foldedList(box, playable().length) : box;
  for (const move of playable()) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.dataset.move = move;
    if (move === best) button.classList.add("best");
    button.addEventListener("click", () => boardMove(move));
    list.append(button);
  }
}

/** Whether the picture offers the moves as cards to click (Memorinth's look pictures while the table is dealt or
 * a card turned over, MR-30): the plain list is then folded, so that it does not push the page down. */
function pictureOffers() {
  return Boolean($("board").querySelector("g.offer"));
}

/** A folded list of ``count`` moves in ``box`` (a <details>, opened by a click or the keyboard); its buttons go
 * in the returned element. It stays open once opened, until the picture stops offering. */
function foldedList(box, count) {
  const fold = document.createElement("details");
  fold.id = "moves-fold";
  fold.open = S.listOpen;
  const title = document.createElement("summary");
  title.textContent = `or pick from the list (${count} ${S.answer.toMove === -1 ? "outcomes" : "moves"})`;
  const list = document.createElement("div");
  list.className = "move-buttons";
  fold.append(title, list);
  fold.addEventListener("toggle", () => { S.listOpen = fold.open; });
  box.append(fold);
  return list;
}

/** The move builder's state for these legal moves (a new list of moves starts it afresh). */
function building(sequence) {
  const key = sequence.moves.join("|");
  if (!S.build || S.build.key !== key) S.build = { key, picks: Array(sequence.length).fill(null), slot: 0, last: null };
  return S.build;
}

/** The slots' names: the picture's (data-slots, its targets where the pieces go), else 1, 2, 3, ... */
function slotNames(length) {
  const named = ($("board").querySelector("[data-slots]")?.getAttribute("data-slots") || "").split(/\s+/);
  return named.length === length ? named : Array.from({ length }, (_, i) => String(i + 1));
}

/** A slot clicked (here or its target on the board): a filled one is emptied; an empty one right after a piece
 * was placed takes that piece (a card, then the slot it goes to); else it is the slot the next piece fills. */
function clickSlot(sequence, slot) {
  const build = building(sequence);
  say($("message"), "");
  if (build.picks[slot]) {
    build.picks[slot] = null;
  } else if (build.last !== null && build.last !== slot) {
    const moved = build.picks.slice();
    [moved[slot], moved[build.last]] = [moved[build.last], null];
    if (consistentMoves(sequence, moved).length) {
      build.picks = moved;
      build.last = null;
      build.slot = Math.max(0, moved.findIndex((p) => !p));
      renderMoves();
      return;
    }
  }
  build.last = null;
  build.slot = slot;
  renderMoves();
}

/** A move entered piece by piece (board.js sequenceOf): the slots, then the pieces that may go in the chosen slot.
 * A piece (here or its card on the board) fills the chosen slot, the first empty one unless a slot was clicked;
 * a filled slot clicked is emptied. Once one legal move agrees with the picks, it is played. */
function renderBuilder(box, sequence) {
  const build = building(sequence);
  const left = consistentMoves(sequence, build.picks);
  if (left.length === 1) {
    S.build = null;
    boardMove(left[0]);
    return;
  }
  const help = document.createElement("p");
  help.className = "help";
  help.textContent = `${sequence.verb}: ${left.length} ways left. Click a card (here or on the board): it goes ` +
    "to the highlighted place, or to the place you click next; a filled place clicked is emptied.";
  const names = slotNames(sequence.length);
  const slots = document.createElement("div");
  slots.className = "build-slots";
  build.picks.forEach((letter, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "build-slot" + (i === build.slot ? " current" : "");
    button.dataset.slot = String(i);
    button.textContent = `${names[i]}: ${letter || "_"}`;
    button.setAttribute("aria-pressed", String(i === build.slot));
    button.addEventListener("click", () => clickSlot(sequence, i));
    slots.append(button);
  });
  const pieces = document.createElement("div");
  pieces.className = "build-pieces";
  for (const letter of choicesAt(sequence, build.picks, build.slot)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "build-piece";
    button.dataset.piece = letter;
    button.textContent = letter;
    button.addEventListener("click", () => pick(sequence, letter));
    pieces.append(button);
  }
  markBuild(sequence.verb, names, build.picks);
  const label = (text) => Object.assign(document.createElement("p"), { className: "help", textContent: text });
  box.append(help, label("Places:"), slots, label(`Cards for ${names[build.slot]}:`), pieces);
  const best = S.hint?.moveInfos?.[0]?.move;
  if (best && sequence.moves.includes(best)) {  // the hint's first move, outlined, played in one click
    const button = document.createElement("button");
    button.type = "button";
    button.className = "best";
    button.dataset.move = best;
    button.textContent = `${best} (the hint's first)`;
    button.addEventListener("click", () => boardMove(best));
    box.append(button);
  }
}

/** The picks drawn on the board: each letter in its place (the picture's slot target), the start cards placed
 * dimmed, the chosen place outlined. */
function markBuild(verb, names, picks) {
  const picture = $("board").querySelector("svg");
  if (!picture) return;
  picture.querySelectorAll(".build-mark").forEach((mark) => mark.remove());
  picture.querySelectorAll(".build-used").forEach((used) => used.classList.remove("build-used"));
  const svg = (tag, attrs) => {
    const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
    element.classList.add("build-mark");
    return element;
  };
  picks.forEach((letter, i) => {
    const place = picture.querySelector(`[data-target="${names[i]}"]:not(.tap-area)`);
    if (!place) return;
    const box = place.getBBox();
    if (i === S.build.slot) {
      picture.append(svg("rect", { x: box.x, y: box.y, width: box.width, height: box.height, fill: "none",
                                   stroke: "#1a6fb5", "stroke-width": 3, rx: 4 }));
    }
    if (!letter) return;
    const text = svg("text", { x: box.x + box.width / 2, y: box.y + box.height / 2, "text-anchor": "middle",
                               "dominant-baseline": "central", "font-size": 22, "font-weight": "bold" });
    text.textContent = letter;
    picture.append(text);
    const card = picture.querySelector(`[data-target="${verb} ${letter}"]:not(.build-used)`);
    if (card) card.classList.add("build-used");
  });
}

/** `letter` into the builder's chosen slot; the next empty slot is chosen next. */
function pick(sequence, letter) {
  const build = building(sequence);
  if (!choicesAt(sequence, build.picks, build.slot).includes(letter)) {
    say($("message"), `${letter} cannot go in ${slotNames(sequence.length)[build.slot]} now.`);
    return;
  }
  say($("message"), "");
  build.picks[build.slot] = letter;
  build.last = build.slot;
  const next = build.picks.findIndex((p, i) => !p && i > build.slot);
  build.slot = next >= 0 ? next : Math.max(0, build.picks.findIndex((p) => !p));
  renderMoves();
}

/** A board click while a move is built piece by piece: a card fills the chosen slot (true: handled here). */
function builderClick(token) {
  const sequence = sequenceOf(playable());
  if (!sequence) return false;
  const letter = pieceOf(token);
  const slot = slotNames(sequence.length).indexOf(token);
  if (slot >= 0) clickSlot(sequence, slot);
  else if (letter) pick(sequence, letter);
  else {
    const place = slotNames(sequence.length)[building(sequence).slot];
    say($("message"), `Choose a card for ${place} (on the board or under Moves).`);
  }
  return true;
}

function renderMoveList() {
  const list = $("move-list");
  list.innerHTML = "";
  const mistakes = new Set((S.review?.mistakes || []).map((d) => d.turn));
  const moves = S.answer.record.moves;
  const at = S.line ? S.line.base : S.cursor ?? moves.length;
  moves.forEach((m, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "list-move";
    button.textContent = m.move;
    button.title = "show the position after this move";
    button.addEventListener("click", guarded(() => goTo(i + 1)));
    item.append(button);
    if (mistakes.has(i)) item.classList.add("mistake");
    if (at === i + 1) item.classList.add("cursor");
    list.append(item);
  });
  const current = list.querySelector("li.cursor");  // scrolled into the list's view (not the page's)
  if (current) list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
}

/** This seat's own link and QR code (to open it on another device) and, on the page that dealt the game, the other
 * seats' and the table's. */
function renderLinks() {
  const box = $("links");
  box.innerHTML = "";
  const invites = JSON.parse(localStorage.getItem(INVITES_KEY + S.id) || "null");
  const links = [{ label: S.role === "table" ? "The table (this page)" : `${seatName(S.answer, S.answer.player)} (this page)`,
                   url: location.origin + location.pathname }];
  if (invites) {
    for (const seat of invites.seats) {
      if (seat.player !== S.answer.player || S.role === "table") links.push({ label: seatName(S.answer, seat.player), url: seat.url });
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
  delete $("hint-panel").dataset.state;
}

async function hint() {
  if (S.answer.over || S.hintRun) return;
  say($("message"), "");
  const position = shownPosition();
  const query = { action: "hint", game: S.answer.game, ...position, top: 5, limits: budget(),
                  seed: Number(params.get("hintSeed") || 0), reportDuringSearchEvery: 0.5 };
  $("stop").disabled = false;
  $("hint").disabled = true;
  $("hint-panel").dataset.state = "started";
  const same = () => S.hintRun === run;  // the position has not changed since (a change clears the hint)
  let drawn = 0;
  const run = stream(query, (answer) => {
    if (!same()) return;
    S.hint = answer;
    renderHint(answer);
    if (answer.moveInfos?.length && Date.now() - drawn > 1500) {  // the best so far drawn while the search runs
      drawn = Date.now();
      drawPosition();
    }
  });
  S.hintRun = run;
  try {
    const final = await run.done;
    if (same() && final) S.hint = final;
  } catch (error) {
    if (error.name !== "AbortError") say($("message"), error.message);
  } finally {
    if (same()) {  // finished or stopped: the best result so far stays listed, drawn and outlined
      S.hintRun = null;
      if (S.hint) {
        renderHint(S.hint, true);
        await drawPosition();
      }
    }
    $("stop").disabled = S.hintRun === null;
    $("hint").disabled = S.answer.over || S.hintRun !== null;
  }
}

function renderHint(answer, over = false) {
  const meaning = answer.rootInfo?.valueMeaning || "";
  const stopped = answer.terminated || (over && answer.isDuringSearch);
  const searching = stopped ? " (stopped: the best so far)" : answer.isDuringSearch ? " (searching...)" : "";
  $("hint-panel").dataset.state = stopped ? "stopped" : answer.isDuringSearch ? "searching" : "done";
  $("hint-meaning").textContent = `value: ${meaning}${searching}`;
  const list = $("hint-list");
  list.innerHTML = "";
  // the engine's unit decides how a value reads: "probability" as a percentage (docs/engine.md, valueUnit)
  const unit = answer.rootInfo?.valueUnit === "probability" ? "probability" : meaning;
  const values = (answer.moveInfos || []).map((m) => m.value);
  const top = Math.max(...values.map(Math.abs), 1e-9);
  for (const m of answer.moveInfos || []) {
    const item = document.createElement("li");
    item.dataset.move = m.move;
    const ci = m.valueCI ? ` [${formatValue(m.valueCI[0], unit)}, ${formatValue(m.valueCI[1], unit)}]` : "";
    item.innerHTML = '<span class="move"></span><span class="value"></span><span class="why"></span>' +
      '<div class="bar"><span></span></div>';
    item.querySelector(".move").textContent = m.move;
    item.querySelector(".value").textContent = formatValue(m.value, unit) + ci;
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

/** The review's limits: a sample budget is each decision's; a time budget is each decision's share of the whole
 * review's time (at most the server's 30 s cap). */
function reviewLimits() {
  const limits = budget();
  if (limits.nodes) return limits;
  return { time_ms: Math.min(30000, limits.time_ms * Math.max(1, S.answer.record.moves.length)) };
}

async function review() {
  if (S.reviewRun) return;
  clearHint();  // the review draws each decision's own best move; the last hint was for the current position
  await drawPosition();
  S.review = null;
  $("review-panel").hidden = false;
  $("review-summary").textContent = "";
  $("review-graph").innerHTML = "";
  $("review-table").querySelector("tbody").innerHTML = "";
  renderProgress($("review-progress"), null, true);
  $("review-stop").disabled = false;
  $("review-panel").scrollIntoView({ block: "start" });
  const run = startReview({ game: S.answer.game, record: S.answer.record, player: S.answer.player,
                            limits: reviewLimits(), seed: 0 }, (answer) => showReview(answer, true));
  S.reviewRun = run;
  let final = null;
  try {
    final = await run.done;
  } catch (error) {
    if (error.name !== "AbortError") say($("message"), error.message);
  } finally {
    S.reviewRun = null;
    $("review-stop").disabled = true;
  }
  if (final) showReview(final, false);
  else if (S.review) renderProgress($("review-progress"), S.review, false);
  $("review-panel").scrollIntoView({ block: "start" });  // its top: the progress, the summary and the graph
  const first = S.review?.mistakes?.[0];
  if (first && S.cursor === null) await showReviewTurn(first.index ?? first.turn);
}

/** The review so far (interim, ``running``) or the final one: progress, summary, graph and table. */
function showReview(answer, running) {
  S.review = answer;
  renderProgress($("review-progress"), answer, running);
  $("review-summary").textContent = summary(answer, S.answer.player);
  const pick = guarded(async (index) => { await showReviewTurn(index); boardIntoView(); });
  drawGraph($("review-graph"), answer, S.cursor, pick);
  renderTable($("review-table").querySelector("tbody"), answer, S.cursor, pick);
  renderMoveList();
}

function reviewHint(turn) {
  const d = S.review?.decisions?.find((x) => (x.index ?? x.turn) === turn);
  if (!d) return null;
  const infos = [{ move: d.best, value: d.bestValue, pv: d.pv, why: d.why }];
  if (d.played !== d.best) infos.push({ move: d.played, value: d.playedValue, pv: [d.played], why: "played" });
  return { moveInfos: infos, rootInfo: { valueMeaning: S.review.valueMeaning } };
}

async function showReviewTurn(turn) {
  await goTo(turn);
}

// ---------------------------------------------------------------------- moving through the game
/** Show the position after ``count`` of the record's moves (the record's length or null: the game now). */
async function goTo(count) {
  const length = S.answer.record.moves.length;
  S.line = null;
  S.cursor = count === null || count >= length ? null : Math.max(0, count);
  await showNavigation();
}

async function showNavigation() {
  clearHint();
  $("chooser").innerHTML = "";
  renderLine($("side-line"), S.line, (at) => { S.line.at = at; guarded(showNavigation)(); }, guarded(returnToMain));
  for (const row of $("review-table").querySelectorAll("tr")) {
    row.classList.toggle("cursor", S.cursor !== null && row.dataset.turn == S.cursor);
  }
  for (const point of $("review-graph").querySelectorAll("[data-index]")) {
    point.classList.toggle("cursor", S.cursor !== null && point.dataset.index == S.cursor);
  }
  renderMoveList();
  renderStatus();
  await drawPosition();
}

/** Leave the side line: back to the game's position it started from. */
async function returnToMain() {
  const from = S.line ? S.line.from : S.cursor;
  S.line = null;
  S.cursor = from ?? S.cursor;
  await showNavigation();
}

function step(delta) {
  if (S.line) {
    const at = S.line.at + delta;
    if (at < S.line.base) return returnToMain();
    S.line.at = Math.min(S.line.moves.length, at);
    return showNavigation();
  }
  const length = S.answer.record.moves.length;
  return goTo((S.cursor ?? length) + delta);
}

const navigate = {
  back: guarded(() => step(-1)),
  forward: guarded(() => step(1)),
  first: guarded(() => goTo(0)),
  last: guarded(() => goTo(null)),
};

// ---------------------------------------------------------------------- positions in their notation
async function shownNotation() {
  const answer = await engine({ action: "apply", game: S.answer.game, ...shownPosition() });
  return answer.notation ?? JSON.stringify(answer.state);
}

async function copyPosition() {
  try {
    const notation = await shownNotation();
    const copied = await copyText($("position-text"), notation);
    say($("message"), copied ? "Position copied." : "The position is in the box: copy it from there.", "ok");
  } catch (error) {
    say($("message"), error.message);
  }
}

/** Open a position in the game's notation (pasted, or from a link's ?position=) in a side line of this page. */
async function openPosition(text) {
  const notation = text.trim();
  if (!notation) {
    say($("message"), "Paste a position (its notation) into the box first.");
    return;
  }
  try {
    await engine({ action: "apply", game: S.answer.game, state: notation, moves: [] });
  } catch (error) {
    say($("message"), `That position is refused: ${error.message}`);
    return;
  }
  say($("message"), "");
  S.line = newLine(notation, [], "Pasted position");
  S.line.from = S.cursor;
  await showNavigation();
}

async function positionLink() {
  try {
    const url = new URL(location.href);
    url.searchParams.set("position", await shownNotation());
    await copyText($("position-text"), url.href);
    say($("message"), "A link to this position (for this seat's page) is in the box.", "ok");
  } catch (error) {
    say($("message"), error.message);
  }
}

/** Bring the board back on screen when it is scrolled away (a narrow screen: the board is above the panels). */
function boardIntoView() {
  const box = $("board-wrap").getBoundingClientRect();
  if (box.bottom < 120 || box.top > window.innerHeight - 120) $("board-wrap").scrollIntoView({ block: "start" });
}

async function closeReview() {
  if (S.reviewRun) await S.reviewRun.stop();
  S.cursor = null;
  S.line = null;
  $("review-panel").hidden = true;
  await showNavigation();
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
    // a refused kind or difficulty leaves no earlier puzzle on screen to be answered by mistake
    Object.assign(P, { puzzle: null, position: null, start: null, moves: [] });
    $("puzzle-text").textContent = "";
    for (const id of ["puzzle-board", "puzzle-legal", "puzzle-moves", "puzzle-chooser"]) $(id).innerHTML = "";
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
                 (moves, token) => placeClick($("puzzle-board"), P.position.legalMoves, moves, token,
                                              $("puzzle-chooser"), puzzleMove) ||
                   choose(moves, token, $("puzzle-chooser"), puzzleMove));
  markPlaces($("puzzle-board"), P.position.terminal ? [] : P.position.legalMoves);
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
  if (!P.puzzle) {
    say($("puzzle-message"), "No puzzle yet: choose a kind and press New puzzle.");
    return;
  }
  try {
    const verdict = await engine({ action: "check", game: P.puzzle.game, puzzle: P.puzzle, answer: P.moves });
    say($("puzzle-message"), `${verdict.correct ? "correct" : "not correct"}: ${verdict.message}`,
        verdict.correct ? "ok" : "error");
  } catch (error) {
    say($("puzzle-message"), error.message);
  }
}

async function showSolution() {
  if (!P.puzzle) {
    say($("puzzle-message"), "No puzzle yet: choose a kind and press New puzzle.");
    return;
  }
  try {  // the proven solution, whatever has been played (none at all included)
    const answer = await engine({ action: "check", game: P.puzzle.game, puzzle: P.puzzle, answer: P.moves });
    const solution = Array.isArray(answer.solution) ? answer.solution.join(", ") : answer.solution;
    $("puzzle-answer").hidden = false;
    $("puzzle-answer").textContent = `Proven solution: ${solution ?? answer.message}`;
  } catch (error) {
    say($("puzzle-message"), error.message);
  }
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
  // a parameter may rename the seats (Embers' chapter); a seat's own field (per-player parameters) does not
  $("more-params").addEventListener("change", (event) => { if (!event.target.dataset.seat) fillSeats(); });
  $("players").addEventListener("change", () => {
    linkPlayersAndMode(info($("game").value), $("players"), $("mode"), "players");
    fillSeats();
  });
  $("mode").addEventListener("change", () => {
    linkPlayersAndMode(info($("game").value), $("players"), $("mode"), "mode");
    fillSeats();  // solo may have changed the players, and a mode may rename the seats (Embers' Prologue)
  });
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
  $("review-stop").addEventListener("click", () => S.reviewRun && S.reviewRun.stop());
  $("nav-first").addEventListener("click", navigate.first);
  $("nav-back").addEventListener("click", navigate.back);
  $("nav-forward").addEventListener("click", navigate.forward);
  $("nav-last").addEventListener("click", navigate.last);
  bindKeys({ back: () => S.answer && navigate.back(), forward: () => S.answer && navigate.forward(),
             first: () => S.answer && navigate.first(), last: () => S.answer && navigate.last() });
  $("copy-position").addEventListener("click", guarded(copyPosition));
  $("paste-position").addEventListener("click", guarded(() => openPosition($("position-text").value)));
  $("position-link").addEventListener("click", guarded(positionLink));
  const remembered = localStorage.getItem(BUDGET_KEY);
  for (const id of ["budget", "play-budget"]) {
    if (remembered && [...$(id).options].some((o) => o.value === remembered)) $(id).value = remembered;
    $(id).addEventListener("change", () => localStorage.setItem(BUDGET_KEY, $(id).value));
  }
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
  .then(() => (ROUTE && S.answer && params.get("position") ? guarded(openPosition)(params.get("position")) : undefined))
  .then(() => { document.body.dataset.ready = "true"; })
  .catch((error) => say($("start-message"), `cannot reach the engine: ${error.message}`));
