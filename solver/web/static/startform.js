// The start form offers exactly the game's parameters, as the engine's `games` answer lists them (the CLI's
// `memory-solver games --json`): players and mode in their own fields, every other parameter here, a number within
// its bounds or one of its choices. Players and a solo mode adjust each other. Nothing here names a game.

/** The parameters other than players and mode, as form fields in ``box`` (each labelled by its doc). */
export function renderParameters(game, box) {
  box.innerHTML = "";
  for (const [name, spec] of Object.entries(game.parameters || {})) {
    if (name === game.playersParameter || name === game.modeParameter) continue;
    const label = document.createElement("label");
    label.title = spec.doc || "";
    label.append(document.createTextNode(name));
    let field;
    if (spec.choices || spec.type === "bool") {
      field = document.createElement("select");
      for (const choice of spec.choices || [false, true]) field.append(new Option(String(choice), String(choice)));
    } else {
      field = document.createElement("input");
      field.type = spec.type === "int" ? "number" : "text";
      if (spec.min !== undefined) field.min = spec.min;
      if (spec.max !== undefined) field.max = spec.max;
      if (spec.example) field.placeholder = `e.g. ${spec.example}`;
    }
    field.value = String(spec.default);
    field.dataset.parameter = name;
    field.setAttribute("aria-label", `${name}: ${spec.doc || ""}`);
    label.append(field);
    box.append(label);
  }
}

/** ``name=value`` for each parameter of ``box`` changed from its default. */
export function changedParameters(game, box) {
  const changed = [];
  for (const field of box.querySelectorAll("[data-parameter]")) {
    const spec = game.parameters[field.dataset.parameter];
    const value = field.value.trim();
    if (value !== "" && value !== String(spec.default)) changed.push(`${field.dataset.parameter}=${value}`);
  }
  return changed;
}

/** Players and a solo mode adjust each other: solo sets players to 1; one player picks solo where the game has
 * it; more players leave solo for the default mode. Returns whether anything changed. */
export function linkPlayersAndMode(game, players, mode, changedField) {
  const modeSpec = game.modeParameter ? game.parameters[game.modeParameter] : null;
  const solo = modeSpec?.choices?.includes("solo") ? "solo" : null;
  if (!game.playersParameter || !solo) return false;
  if (changedField === "mode" && mode.value === solo && players.value !== "1") {
    players.value = "1";
    return true;
  }
  if (changedField === "players" && players.value === "1" && mode.value !== solo) {
    mode.value = solo;
    return true;
  }
  if (changedField === "players" && Number(players.value) > 1 && mode.value === solo) {
    mode.value = modeSpec.default;
    return true;
  }
  return false;
}

/** The current value of parameter ``name`` in the form: players and mode from their own fields, the others from
 * ``box``; the default when the form has no field for it. */
export function formValue(game, name, players, mode, box) {
  if (name === game.playersParameter) return players.value;
  if (name === game.modeParameter) return mode.value;
  const field = box.querySelector(`[data-parameter="${CSS.escape(name)}"]`);
  return field ? field.value : String(game.parameters[name]?.default);
}

/** The label of each of ``count`` seats: the game's own name for the player where it has one (the `games` answer's
 * ``playerNames``, or ``playerNamesWith`` under a parameter's current choice: Embers' Prologue has Rowan, not
 * Fenrys), with the seat's number; ``seat N`` for a game whose seats are just numbered. */
export function seatLabels(game, count, valueOf) {
  let names = game.playerNames || null;
  for (const [param, byChoice] of Object.entries(game.playerNamesWith || {})) {
    names = byChoice[valueOf(param)] || names;
  }
  return Array.from({ length: count }, (_, p) => (names && names[p] ? `${names[p]} (seat ${p})` : `seat ${p}`));
}
