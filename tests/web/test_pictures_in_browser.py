"""Issue 12: a picture of each game, rendered by headless Chromium, without console errors and not blank.

For every game a dealt state and the acting player's view with a hint are drawn by ``solver.svg``, loaded into a
page, screenshotted, and measured: the picture must fill its box with more than one colour (a blank, transparent
or failed image would not), and the page must log no error (an invalid SVG attribute or a broken reference logs
one in Chromium).
"""

import base64

import pytest

import solver
from solver.registry import game_names

GAMES = game_names()
HINT_NODES = 60

MEASURE = """async (src) => {
  const img = new Image();
  img.src = src;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth || 600; canvas.height = img.naturalHeight || 600;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const colours = new Set(); let painted = 0;
  for (let i = 0; i < data.length; i += 16) {
    if (data[i + 3] > 0) painted++;
    colours.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
  }
  return {width: canvas.width, height: canvas.height, painted: painted / (data.length / 16), colours: colours.size};
}"""


def pictures(game: str) -> dict[str, str]:
    """The dealt state, and the acting player's view with the hint for it."""
    state = solver.new(game, seed=3)
    while state.is_chance_node():  # a picture of a decision, not of a pending deal
        state = state.child(state.chance_outcomes()[0][0])
    player = state.current_player()
    hint = solver.hint(game, state, nodes=HINT_NODES, top=3)
    return {"state": solver.svg(game, state),
            "view with hint": solver.svg(game, state, player=player, hint=hint)}


@pytest.mark.parametrize("game", GAMES)
def test_each_games_picture_renders_in_chromium_without_errors_and_is_not_blank(tabs, game, tmp_path):
    errors: list[str] = []
    page = tabs.open(1000, 800, on={"console": lambda message: errors.append(message.text)
                                    if message.type == "error" else None,
                                    "pageerror": lambda exc: errors.append(str(exc))})
    for label, svg in pictures(game).items():
        assert svg.lstrip().startswith(("<?xml", "<svg")), label
        page.set_content(f"<!doctype html><html><body style='margin:0;background:#fff'>{svg}</body></html>")
        box = page.locator("svg").first.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, (label, box)
        shot = tmp_path / f"{game}-{label.replace(' ', '-')}.png"
        page.locator("svg").first.screenshot(path=str(shot))
        assert shot.stat().st_size > 2000, (label, shot.stat().st_size)
        src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
        measured = page.evaluate(MEASURE, src)
        assert measured["painted"] > 0.5 and measured["colours"] >= 4, (label, measured)
    assert errors == [], errors
