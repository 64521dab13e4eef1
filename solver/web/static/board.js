// The board: the SVG picture of a position, and clicks on it turned into legal moves.

/** The tokens of a move string that a board element may name (a cell, a card, a side). */
export function moveTokens(move) {
  return move.toLowerCase().split(/[\s,;@=:()]+/).filter(Boolean);
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
