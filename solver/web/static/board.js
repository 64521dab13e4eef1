// The board: the SVG picture of a position, and clicks on it turned into legal moves.

/** The tokens of a move string that a board element may name (a cell, a card, a side): its words, and the
 * parts of a word joined by commas ("flip 3,4" names "3,4", "3" and "4"). */
export function moveTokens(move) {
  const lower = move.toLowerCase();
  const words = lower.split(/[\s;@=:()]+/).filter(Boolean);
  const parts = lower.split(/[\s,;@=:()]+/).filter(Boolean);
  return [...new Set([...words, ...parts])];
}

/** The legal moves an element with data-target="token" stands for. */
export function movesFor(token, legalMoves) {
  const wanted = token.toLowerCase();
  return legalMoves.filter((move) => move.toLowerCase() === wanted || moveTokens(move).includes(wanted));
}

/**
 * Draw `svg` into `element`; a click on a target calls onMoves(candidates, token) with the legal moves it names.
 * The SVG comes from our own server (escaped by solver/drawing.py).
 */
export function drawBoard(element, svg, legalMoves, onMoves) {
  element.innerHTML = svg.replace(/^<\?xml[^>]*>\s*/, "");
  const picture = element.querySelector("svg");
  if (!picture) return;
  picture.removeAttribute("width");
  picture.removeAttribute("height");
  picture.setAttribute("role", "img");
  picture.addEventListener("click", (event) => {
    const target = event.target.closest("[data-target]");
    if (!target) return;
    const token = target.getAttribute("data-target");
    onMoves(movesFor(token, legalMoves), token);
  });
}

/** A value for people: a percentage for probabilities, else a short number. */
export function formatValue(value, meaning) {
  if (typeof value !== "number") return "?";
  if (meaning && /probab/i.test(meaning) && value >= 0 && value <= 1) return `${(value * 100).toFixed(1)}%`;
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

/**
 * A move entered piece by piece. When every legal move is one verb and a word of capital letters of one length
 * (an ordering of pieces, one letter each: Aetherya's `arrange HEDG`, up to 5,040 of them), the page does not
 * list them: it fills the word's slots one click at a time and offers only the letters still consistent with
 * some legal move. Returns {verb, words} (the moves' words, by move), or null for any other list of moves.
 */
export function sequenceOf(legalMoves) {
  if (legalMoves.length < 2) return null;
  const parsed = legalMoves.map((move) => move.trim().split(/\s+/));
  const [verb, first] = parsed[0];
  if (!first || !/^[A-Z]{3,}$/.test(first)) return null;
  const same = (p) => p.length === 2 && p[0] === verb && p[1].length === first.length && /^[A-Z]+$/.test(p[1]);
  return parsed.every(same) ? { verb, length: first.length, moves: legalMoves, words: parsed.map((p) => p[1]) } : null;
}

/** The legal moves whose word agrees with every slot chosen so far (picks[i]: a letter, or null). */
export function consistentMoves(sequence, picks) {
  return sequence.moves.filter((_, i) => picks.every((letter, slot) => !letter || sequence.words[i][slot] === letter));
}

/** The letters that may go in `slot` given the other slots' picks (sorted). */
export function choicesAt(sequence, picks, slot) {
  const others = picks.map((letter, i) => (i === slot ? null : letter));
  const letters = new Set();
  sequence.words.forEach((word, i) => {
    if (others.every((letter, s) => !letter || word[s] === letter)) letters.add(word[slot]);
  });
  return [...letters].sort();
}

/** The piece a board target names for a move builder: its last word when that is one letter ("arrange H" -> "H"). */
export function pieceOf(token) {
  const last = token.trim().split(/\s+/).pop() || "";
  return /^[A-Za-z]$/.test(last) ? last.toUpperCase() : null;
}
