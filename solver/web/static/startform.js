// The start form offers exactly the game's parameters, as the engine's `games` answer lists them (the CLI's
// `memory-solver games --json`): players and mode in their own fields, every other parameter here, a number within
// its bounds or one of its choices. Players and a solo mode adjust each other. Nothing here names a game.

/** The parameters other than players and mode, as form fields in ``box`` (each labelled by its doc). */
export function renderParameters(game, box) {
  box.innerHTML = "";
  for (const [name, spec] of Object.entries(game.parameters || {})) {
    if (name === game.playersParameter || name === game.modeParameter) continue;
    if (spec.perPlayer) {
      box.append(perPlayerFields(name, spec));
      continue;
    }
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

/** A parameter with one value per player (Mnemonic's ``skills``: each character as its player enters it): a
 * hidden field holding the value (``/`` between seats, ``-`` for a seat left empty) and a box that
 * ``fillPerPlayer`` fills with one field per seat. */
function perPlayerFields(name, spec) {
  const group = document.createElement("fieldset");
  group.className = "per-player";
  group.dataset.perPlayer = name;
  group.title = spec.doc || "";
  const legend = document.createElement("legend");
  legend.textContent = `${name}, each player's own (empty: ${spec.default === "" ? "the game's" : spec.default})`;
  const value = document.createElement("input");
  value.type = "hidden";
  value.value = String(spec.default);
  value.dataset.parameter = name;
  const seats = document.createElement("span");
  seats.className = "fields seats";
  group.append(legend, value, seats);
  return group;
}

/** One field per seat (labelled ``labels[p]``) in each per-player parameter of ``box``; fields already there stay
 * (with what was typed, and the focus), a seat added gets a new one, a seat gone takes its own away. Typing sets the
 * parameter's value: the seats' values joined by ``/``, ``-`` for an empty one, trailing empty seats left out (so
 * an untouched form leaves the default). */
export function fillPerPlayer(game, box, labels) {
  for (const group of box.querySelectorAll("fieldset[data-per-player]")) {
    const name = group.dataset.perPlayer;
    const spec = game.parameters[name];
    const hidden = group.querySelector("[data-parameter]");
    const examples = (spec.example || "").split("/");
    const seats = group.querySelector(".seats");
    const update = () => {
      const values = [...seats.querySelectorAll("input[data-seat]")].map((f) => f.value.replace(/\s+/g, "") || "-");
      while (values.length && values[values.length - 1] === "-") values.pop();
      hidden.value = values.join("/");
    };
    while (seats.children.length > labels.length) seats.lastElementChild.remove();
    labels.forEach((text, p) => {
      let label = seats.children[p];
      if (!label) {
        label = document.createElement("label");
        label.append(document.createTextNode(""));
        const field = document.createElement("input");
        field.type = "text";
        field.dataset.seat = String(p);
        field.placeholder = `e.g. ${examples[p % examples.length]}`;
        field.addEventListener("input", update);
        label.append(field);
        seats.append(label);
      }
      label.firstChild.textContent = text;
      label.lastElementChild.setAttribute("aria-label", `${name} of ${text}: ${spec.doc || ""}`);
    });
    update();
  }
}
