// Moves entered where the picture shows them (issue 22): a card added to a place is entered by a click on that place
// (Embers' Mind: each legal `add CARD@X,Y` has its place drawn as a target `X,Y`, solver/embers/picture.py). A card
// clicked first (in the memory row) is held: only its places stay lit, and a click on one of them plays it. A place
// where several cards may go asks which, with one button per card. Nothing here names a game: it reads the moves'
// shape `VERB CARD@X,Y` and the picture's targets.

const PLACED = /^(\S+) (\S+)@(-?\d+),(-?\d+)$/;
const SPOT = /^-?\d+,-?\d+$/;
let held = null;  // {card, verb}: the card clicked before its place, while the legal moves still place it

/** The legal moves that put a card on a place (`add CARD@X,Y`), parsed. */
function placements(moves) {
  return moves.map((move) => move.match(PLACED)).filter(Boolean)
    .map(([move, verb, card, x, y]) => ({ move, verb, card, spot: `${x},${y}` }));
}

/** The held card, while some legal move still places it. */
function holding(legal) {
  if (held && !placements(legal).some((p) => p.card === held.card && p.verb === held.verb)) held = null;
  return held;
}

/** Light the places the held card may go to (the others dimmed), or every place when no card is held. */
export function markPlaces(board, legal) {
  const card = holding(legal);
  const spots = new Set(placements(legal).filter((p) => !card || p.card === card.card).map((p) => p.spot));
  for (const spot of board.querySelectorAll(".spot[data-target]")) {
    spot.classList.toggle("off", !spots.has(spot.getAttribute("data-target")));
  }
  for (const element of board.querySelectorAll("[data-target].held")) element.classList.remove("held");
  if (card) {
    for (const element of board.querySelectorAll(`[data-target="${CSS.escape(card.card)}"]:not(.tap-area)`)) {
      element.classList.add("held");
    }
  }
}

function button(text, move, act, chooser) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.dataset.move = move;
  element.addEventListener("click", () => { chooser.innerHTML = ""; held = null; act(move); });
  return element;
}

/**
 * A click on the board (`token`, standing for the legal `moves`) where a card goes on a place: true when handled
 * here. A place: its one move is played (the held card's, when one is held); several cards that may go there are
 * offered in `chooser`. A card that has places: it is held, its places lit, its other moves (a discard) offered.
 */
export function placeClick(board, legal, moves, token, chooser, act) {
  const placed = placements(moves);
  if (!placed.length) return false;
  chooser.innerHTML = "";
  if (SPOT.test(token)) {
    const card = holding(legal);
    const here = card ? placed.filter((p) => p.card === card.card) : placed;
    const choices = here.length ? here : placed;
    if (choices.length === 1) {
      held = null;
      act(choices[0].move);
      return true;
    }
    const note = document.createElement("p");
    note.className = "help";
    note.textContent = `${choices.length} cards may go at ${token}: which one?`;
    chooser.append(note, ...choices.map((p) => button(`${p.card} here`, p.move, act, chooser)));
    return true;
  }
  const mine = placed.filter((p) => p.card === token);
  if (!mine.length) return false;
  held = { card: token, verb: mine[0].verb };
  markPlaces(board, legal);
  const note = document.createElement("p");
  note.className = "help";
  note.textContent = `${token}: click its place on the board (${mine.length} lit).`;
  const others = moves.filter((move) => !placed.some((p) => p.move === move));
  chooser.append(note, ...others.map((move) => button(move, move, act, chooser)));
  return true;
}
