"""``memory-solver demo --game aetherya``: a scored kingdom, the end of a game played from one player's view with a
hint at each decision and reviewed, and proven optimal kingdoms."""

from __future__ import annotations

from typing import Any, TextIO

import numpy as np

#: the reviewed game: a seeded deal played greedily until seat 0 has this many face-down cards left
FACE_DOWN_LEFT = 3
DEMO_NODES = 150


def demo(game: Any, out: TextIO) -> None:
    from solver.aetherya.game import render_score
    from solver.aetherya.optimize import optimize_kingdom, render_result
    from solver.aetherya.scoring import score_kingdom
    kingdom = "FEFP/MDMH/PHFS/SSGS"
    out.write(f"Score of the kingdom {kingdom} holding the Legend 'plains-3':\n")
    render_score(score_kingdom(kingdom, ["plains-3"]), out)
    reviewed_game(out)
    hand = "PFFMMSSHHEEDGGRO"
    out.write(f"\nThe best arrangement of 16 held cards, proven (`memory-solver aetherya optimize {hand}`):\n")
    render_result(optimize_kingdom(hand, time_ms=20_000), out)
    hand, fixed = "PPFFMMSHHEEDGRRO", "a1=R,d4=O"
    out.write(f"\nThe same with a Dragon and a Portal already locked in place "
              f"(`memory-solver aetherya optimize {hand} --fixed {fixed}`):\n")
    render_result(optimize_kingdom(hand, fixed=fixed, time_ms=20_000), out)


def reviewed_game(out: TextIO, seed: int = 3) -> None:
    """The last turns of a seeded 2-player game: seat 0 plays from its own view, asking a hint at each of its
    decisions and entering what it sees; then the review of that record."""
    from solver.aetherya.game import AetheryaGame
    from solver.aetherya.playout import greedy_action, sample_chance
    from solver.aetherya.view import observed_entries, turned_over_entries
    from solver.record import Record
    from solver.review import render_review, review
    from solver.search import Limits, SearchContext
    game = AetheryaGame()
    while True:  # the first deal from ``seed`` on that reaches the wanted position before the game ends
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and (state.is_chance_node() or state.to_move != 0 or state.phase != "choose"
                                           or bin(state.hidden[0]).count("1") > FACE_DOWN_LEFT):
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
        if not state.is_terminal():
            break
        seed += 1
    view = state.view(0)
    record = Record.start_of(view)
    out.write(f"\nThe end of a dealt 2-player game (seed {seed}), played from seat 0's view: seat 0 has "
              f"{FACE_DOWN_LEFT} face-down cards left and asks a hint at each decision ({DEMO_NODES} playouts); "
              "seat 1 plays greedily; seat 0 enters what it sees (`docs/sessions/aetherya.md` plays a whole game):\n")
    data = view.to_json()
    for seat, text in enumerate(data["kingdoms"]):
        out.write(f"  kingdom {seat}: {text}\n")
    pile = data["drawPile"]
    pile_text = f"{pile} cards" if isinstance(pile, int) else f"{len(pile)} cards ({pile}: re-formed from the discard)"
    out.write(f"  discard top: {data['discard'][0][-1:]}, draw pile: {pile_text}, "
              f"Legends face up: {', '.join(data['legendRow'])}\n")
    entries: list[str] = []
    while not view.is_terminal():
        if state.is_terminal():
            typed = turned_over_entries(view, state)
        else:
            if not state.is_chance_node() and state.to_move == 0:
                hint = game.hint(view, SearchContext(limits=Limits(nodes=DEMO_NODES), seed=0), top=1).best
                out.write(f"  Hint: {hint.move} ({hint.value:.1f}): {hint.why}\n")
                action = state.parse_move(hint.move)
            else:
                action = sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng)
            typed = observed_entries(state, action, 0)
            state.apply_action(action)
            typed += turned_over_entries(_after(view, typed), state)
        for text in typed:
            view.apply_move(text)
        entries += typed
    out.write(f"  Entered: {'; '.join(entries)}\n")
    out.write(f"  Final scores: seat 0 {int(state.returns()[0])}, seat 1 {int(state.returns()[1])}\n")
    record = record.extended(entries, stamp=False)
    result = review(game, record, player=0, limits=Limits(nodes=DEMO_NODES))
    out.write("The review of seat 0's record (`memory-solver aetherya review game.jsonl`):\n")
    out.write("".join(f"  {line}\n" for line in render_review(result).splitlines()))


def _after(view: Any, typed: list[str]) -> Any:
    trial = view.clone()
    for text in typed:
        trial.apply_move(text)
    return trial
