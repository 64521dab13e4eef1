"""A Mnemonic state in words, for ``memory-solver mnemonic show`` and the demo."""

from __future__ import annotations

from solver.errors import InvalidInputError
from solver.mnemonic.cards import SUIT_SYMBOLS, card_code, card_name, prompt
from solver.mnemonic.state import MnemonicState

PHASE_TEXT = {
    "scene-card": "chooses a card from hand or draws one",
    "scene-draw": "draws a card (chance: reveal it)",
    "scene-skill": "chooses a skill, asks for help, or learns a skill",
    "scene-help": "chooses the skill they help with",
    "scene-roll": "rolls (chance: the highest die)",
    "scene-weave": "may perform a weaving",
    "table": "speaks for the table: Group Scene, another round, or end",
    "group-draw": "draws a card for the Group Scene (chance)",
    "group-skill": "chooses a skill for the Group Scene",
    "group-roll": "the Group Scene is rolled (chance: victory, defeat or draw)",
    "after-victory": "speaks for the table after the Victory: a new round or end",
    "after-defeat": "speaks for the table: try again, regroup or retreat",
    "over": "the session is over",
    "deal": "the cards are dealt (chance: each card as it is dealt)",
}


def describe(state: MnemonicState, player: int | None = None, view: bool = False, every_hand: bool = False) -> str:
    """Several lines: round, phase, who acts, the Adversary's pool, each character and the legal moves.

    Hands shown: ``player``'s (default: the player to act), every hand with ``every_hand`` (a full state), or,
    with ``view``, the observer's own (``state`` is then the view's knowledge, other hands hidden)."""
    actor = state.current_player()
    viewer = player if player is not None else (actor if actor >= 0 else None)
    if viewer is not None and not 0 <= viewer < state.n:
        raise InvalidInputError("--player", viewer, f"expected a player index 0..{state.n - 1}")
    who = state.players[actor].name if actor >= 0 else "chance" if state.is_chance_node() else "nobody"
    lines = [f"Player {viewer}'s view." if view else ("Full state (every hand)." if every_hand else None),
             f"Mnemonic ({state.mode}), round {state.round}: {who} {PHASE_TEXT[state.phase]}.",
             f"Adversary's pool: {state.adversary_pool()} dice; deck: {len(state.deck)} cards; "
             f"Group Scenes: {state.tally.victories} won, {state.tally.defeats} lost, {state.tally.draws} drawn."]
    if state.scene is not None and state.scene.card is not None:
        lines.append(f"Scene card: {card_code(state.scene.card)} ({card_name(state.scene.card)}): "
                     f"{prompt(state.scene.card)}")
    for q, p in enumerate(state.players):
        skills = ", ".join(f"{s.name} {SUIT_SYMBOLS[s.suit]}{s.rating}"
                           + ("" if s.status == "ok" else f" [{s.status}]") for s in p.skills) or "no skills"
        hand = " ".join(card_code(c) for c in p.hand) if (q == viewer or every_hand) else f"{len(p.hand)} cards"
        lines.append(f"  {q} {p.name}: {skills}; weavings {p.weavings}; extra dice {p.bonus}; hand: {hand or '-'}")
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    if moves:
        lines.append("Legal moves: " + "; ".join(moves[:30]) + (" ..." if len(moves) > 30 else ""))
    return "\n".join(line for line in lines if line is not None) + "\n"
