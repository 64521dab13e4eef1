"""Mnemonic for a person: a position in words (``show``), the odds of a scene, a hint's details, a puzzle's answer."""

from __future__ import annotations

import io
from typing import Any

from solver.errors import InvalidInputError
from solver.game import State, View
from solver.mnemonic.cards import SUIT_SYMBOLS, card_code, card_name, prompt
from solver.mnemonic.odds import GroupOdds, IndividualOdds, fraction_text
from solver.mnemonic.state import MnemonicState
from solver.mnemonic.view import MnemonicView
from solver.results import HintResult, percent, render_hint

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


def describe(game: Any, position: State | View) -> str:
    """``show``: the round, who acts, the Adversary's pool, each character, hands (every hand in a full state, the
    observer's only in a view) and the legal moves."""
    if isinstance(position, MnemonicView):
        return describe_session(position.known, position.observer, view=True)
    assert isinstance(position, MnemonicState)
    return describe_session(position, None, every_hand=True)


def describe_session(state: MnemonicState, player: int | None = None, view: bool = False,
                     every_hand: bool = False) -> str:
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


def turn_label(game: Any, position: State | View) -> str:
    """The round of the session (a review's ``gameTurn``)."""
    state = position.known if isinstance(position, MnemonicView) else position
    return f"round {state.round}"


def render(verb: str, result: Any) -> str | None:
    """The text of a verb's result: the hint's ranked moves with its horizon, search size, scene prompt and the
    Adversary's pool; ``None`` (the generic ``key: value`` lines) for the other verbs."""
    if verb != "hint":
        return None
    out = io.StringIO()
    render_hint(result, out)
    out.write(hint_details(result))
    return out.getvalue()


def hint_details(result: HintResult) -> str:
    """The horizon, the search size and the scene's story prompt, under the ranked moves."""
    info = result.root_info
    if info.get("chance"):
        return ""
    lines = []
    if info.get("horizon"):
        h = info["horizon"]
        why = "the only legal move" if info.get("stoppedBy") == "only move" else "limits reached"
        done = "" if info.get("complete") else (f" (asked for {info['requestedHorizon']['rounds']} rounds, "
                                                 f"{info['requestedHorizon']['groupScenes']} Group Scenes: {why})")
        lines.append(f"horizon: {h['rounds']} new round(s), {h['groupScenes']} Group Scene(s){done}; "
                     f"{info.get('states', 0):,} states searched in {info.get('seconds', 0)} s")
    if "prompt" in info:
        lines.append(f"scene card {info['card']}: {info['prompt']}")
    lines.append(f"Adversary's pool: {info.get('adversaryPool', 0)} dice")
    return "".join(line + "\n" for line in lines)


def individual_text(odds: IndividualOdds) -> str:
    """One Individual Scene roll's odds, exact and as a percentage."""
    return (f"Individual Scene, {odds.dice} {'die' if odds.dice == 1 else 'dice'} (keep the highest; a 6 succeeds)\n"
            f"  success       {fraction_text(odds.success):>22}  {float(odds.success):9.4%}\n"
            f"  complication  {fraction_text(odds.complication):>22}  {float(odds.complication):9.4%}\n")


def group_text(odds: GroupOdds) -> str:
    """One Group Scene's odds, exact and as percentages."""
    pools = ",".join(map(str, odds.pools)) or "none"
    text = f"Group Scene, player pools {pools} against an Adversary pool of {odds.adversary}\n"
    for name in ("victory", "defeat", "draw"):
        value = odds.get(name)
        text += f"  {name:<12}  {fraction_text(value):>22}  {float(value):9.4%}\n"
    if odds.nobody_rolls:
        text += "  nobody rolls a die: the outcome is set by the rule group.nobodyRolls\n"
    return text


def puzzle_answer(puzzle: dict[str, Any]) -> str:
    """A best-call puzzle's proven answer in one line (the answers page, the solution's picture)."""
    also = puzzle.get("alsoCorrect") or []
    same = f" (or {', '.join(also)}: same suit)" if also else ""
    return (f"{puzzle['solution']}{same}: Victory chance {percent(puzzle['value'])}, better than any other choice by "
            f"{100 * puzzle['margin']:.1f} percentage points")
