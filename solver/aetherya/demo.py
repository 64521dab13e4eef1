"""``memory-solver demo --game aetherya``: a scored kingdom, a hint from a player's view, proven kingdoms."""

from __future__ import annotations

from typing import Any, TextIO

import numpy as np


def demo(game: Any, out: TextIO) -> None:
    from solver.aetherya.game import AetheryaGame, render_score
    from solver.aetherya.optimize import optimize_kingdom, render_result
    from solver.aetherya.playout import advance_to_turn_start
    from solver.aetherya.scoring import score_kingdom
    from solver.commands import render_hint
    from solver.search import Limits, SearchContext
    kingdom = "FEFP/MDMH/PHFS/SSGS"
    out.write(f"Score of the kingdom {kingdom} holding the Legend 'plains-3':\n")
    render_score(score_kingdom(kingdom, ["plains-3"]), out)
    base = AetheryaGame()
    state = advance_to_turn_start(base.new_initial_state(3), np.random.default_rng(0))
    view = state.view(state.to_move)
    obs = view.to_json()
    out.write(f"\nA dealt 2-player game (seed 3), player {state.to_move} to move; what that player sees:\n")
    for seat, text in enumerate(obs["kingdoms"]):
        out.write(f"  kingdom {seat}: {text}\n")
    out.write(f"  discard top: {obs['discard'][0][-1:]}, draw pile: {obs['drawPile']} cards, "
              f"Legends face up: {', '.join(obs['legendRow'])}\n")
    result = base.hint(view, SearchContext(limits=Limits(nodes=1500), seed=0), top=3)
    out.write("Hint (1,500 playouts, `memory-solver aetherya hint VIEW --nodes 1500`):\n")
    render_hint(result, out)
    hand = "PFFMMSSHHEEDGGRO"
    out.write(f"\nThe best arrangement of 16 held cards, proven (`memory-solver aetherya optimize {hand}`):\n")
    render_result(optimize_kingdom(hand, time_ms=20_000), out)
    hand, fixed = "PPFFMMSHHEEDGRRO", "a1=R,d4=O"
    out.write(f"\nThe same with a Dragon and a Portal already locked in place "
              f"(`memory-solver aetherya optimize {hand} --fixed {fixed}`):\n")
    render_result(optimize_kingdom(hand, fixed=fixed, time_ms=20_000), out)
