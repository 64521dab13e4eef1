// Moving through a game as on an analysis board (lichess): the arrow keys, a side line tried from a past position
// (kept on this page only: the game on the server is not touched) and a position copied or pasted in its game's
// notation. Nothing here names a game: positions and moves are the engine's strings.

/** The arrow keys (and Home/End) call back(), forward(), first(), last(), unless the focus is in a field. */
export function bindKeys(actions) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
    const action = { ArrowLeft: actions.back, ArrowRight: actions.forward, Home: actions.first, End: actions.last }[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
}

/** A side line: moves tried from a position (a past position of the game, or a pasted one). ``base`` of its
 * moves are the game's own (the way to the position it starts from); ``at`` is how many of them are shown. */
export function newLine(state, prefix, label) {
  return { state, moves: [...prefix], base: prefix.length, at: prefix.length, label };
}

/** Play ``move`` in the line at the position shown (a later part of the line is replaced, as lichess does). */
export function playInLine(line, move) {
  line.moves = line.moves.slice(0, line.at);
  line.moves.push(move);
  line.at = line.moves.length;
}

/** The side line's own moves as buttons (a click shows the position after it) and a way back to the game. */
export function renderLine(element, line, onPick, onReturn) {
  element.innerHTML = "";
  element.hidden = !line;
  if (!line) return;
  const title = document.createElement("span");
  title.className = "line-title";
  title.textContent = `${line.label}: `;
  element.append(title);
  line.moves.slice(line.base).forEach((move, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "line-move";
    button.textContent = move;
    if (line.base + i + 1 === line.at) button.classList.add("cursor");
    button.addEventListener("click", () => onPick(line.base + i + 1));
    element.append(button);
  });
  if (line.moves.length === line.base) {
    element.append(document.createTextNode("play a move on the board to try it "));
  }
  const back = document.createElement("button");
  back.type = "button";
  back.id = "main-line";
  back.textContent = "Back to the main line";
  back.addEventListener("click", onReturn);
  element.append(back);
}

/** Put ``notation`` in the position field and, where the browser allows, on the clipboard. */
export async function copyText(field, notation) {
  field.value = notation;
  field.select();
  try {
    await navigator.clipboard.writeText(notation);
    return true;
  } catch {
    return false;  // no clipboard (an insecure origin, or no permission): the field holds it, selected
  }
}
