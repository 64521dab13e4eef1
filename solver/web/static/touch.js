// A board a phone can read and tap: on a narrow screen the picture is zoomed until its smallest text is 12 px (the
// board then scrolls in its frame; "Fit the screen" shows it whole), and a click target smaller than 40 px gets an
// invisible tap area of 40 px around it, beneath every other target (so it never takes a tap from a neighbour).
// Nothing here names a game: it measures the picture in the DOM.

export const MIN_TEXT_PX = 12;
export const MIN_TAP_PX = 40;
const NARROW = "(max-width: 820px)";
const SVG = "http://www.w3.org/2000/svg";
let fitWhole = false;  // the reader asked to see the whole board (the zoom button)

/** The smallest on-screen font size of the picture's visible text, in CSS pixels. */
export function smallestText(svg) {
  let smallest = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    if (!text.textContent.trim()) continue;
    const box = text.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const matrix = text.getScreenCTM();
    const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 1;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
  }
  return smallest;
}

/** Each target token's tap area on screen: the union of its elements' boxes. */
export function tapAreas(svg) {
  const areas = new Map();
  for (const element of svg.querySelectorAll("[data-target]")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const token = element.getAttribute("data-target");
    const area = areas.get(token);
    areas.set(token, area ? {
      left: Math.min(area.left, box.left), top: Math.min(area.top, box.top),
      right: Math.max(area.right, box.right), bottom: Math.max(area.bottom, box.bottom),
    } : { left: box.left, top: box.top, right: box.right, bottom: box.bottom });
  }
  return areas;
}

/** The picture options of a ``show`` query for this screen: a phone's narrow layout (every game takes it; one
 * without a narrow picture draws its wide one, which ``fitForTouch`` then zooms). */
export function pictureOptions() {
  return window.matchMedia(NARROW).matches ? { layout: "narrow" } : {};
}

/** Zoom ``element``'s picture for touch on a narrow screen and widen its small targets' tap areas. */
export function fitForTouch(element) {
  const svg = element.querySelector("svg");
  if (!svg) return;
  svg.querySelector("g.tap-areas")?.remove();
  svg.style.width = "";
  svg.style.maxWidth = "";
  element.classList.remove("zoomed");
  if (!window.matchMedia(NARROW).matches) return;
  addZoomButton(element);
  if (fitWhole) return;
  const smallest = smallestText(svg);
  const zoom = Number.isFinite(smallest) && smallest < MIN_TEXT_PX ? (MIN_TEXT_PX / smallest) * 1.02 : 1;
  if (zoom > 1) {
    const width = svg.getBoundingClientRect().width;
    svg.style.width = `${Math.ceil(width * zoom)}px`;
    svg.style.maxWidth = "none";
    element.classList.add("zoomed");
  }
  widenTapAreas(svg);
}

function widenTapAreas(svg) {
  const toUser = svg.getScreenCTM()?.inverse();
  if (!toUser) return;
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("class", "tap-areas");
  for (const [token, area] of tapAreas(svg)) {
    const width = area.right - area.left;
    const height = area.bottom - area.top;
    if (width >= MIN_TAP_PX && height >= MIN_TAP_PX) continue;
    const cx = (area.left + area.right) / 2;
    const cy = (area.top + area.bottom) / 2;
    const w = Math.max(width, MIN_TAP_PX + 1);
    const h = Math.max(height, MIN_TAP_PX + 1);
    const corner = new DOMPoint(cx - w / 2, cy - h / 2).matrixTransform(toUser);
    const far = new DOMPoint(cx + w / 2, cy + h / 2).matrixTransform(toUser);
    const rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", String(Math.min(corner.x, far.x)));
    rect.setAttribute("y", String(Math.min(corner.y, far.y)));
    rect.setAttribute("width", String(Math.abs(far.x - corner.x)));
    rect.setAttribute("height", String(Math.abs(far.y - corner.y)));
    rect.setAttribute("data-target", token);
    rect.setAttribute("class", "target tap-area");
    group.append(rect);
  }
  // beneath the picture: a target drawn above keeps its own taps
  svg.insertBefore(group, svg.firstElementChild?.tagName === "title" ? svg.firstElementChild.nextSibling : svg.firstChild);
}

function addZoomButton(element) {
  const frame = element.parentElement;
  let button = frame.querySelector(":scope > .zoom-toggle");
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.className = "zoom-toggle";
    button.addEventListener("click", () => {
      fitWhole = !fitWhole;
      for (const board of document.querySelectorAll("#board, #puzzle-board")) fitForTouch(board);
    });
    frame.insertBefore(button, element);
  }
  button.textContent = fitWhole ? "Zoom in (readable)" : "Fit the screen";
}

/** Pan a zoomed board so that the target standing for ``move`` (a hint's best move) is in its frame. */
export function revealMove(element, move, movesFor) {
  if (!move || !element.classList.contains("zoomed")) return;
  const target = [...element.querySelectorAll("[data-target]")]
    .find((e) => movesFor(e.getAttribute("data-target"), [move]).length > 0);
  if (!target) return;
  const frame = element.getBoundingClientRect();
  const box = target.getBoundingClientRect();
  if (box.left >= frame.left && box.right <= frame.right) return;
  element.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
}
