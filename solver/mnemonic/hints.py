"""Mnemonic hints (the shared contract): a player's view, or a full-information analysis, over the planner's
entry point :func:`solver.mnemonic.advice.hint`.

A hint reads only the view: a full state is drawn from the view
(:meth:`MnemonicView.resample`, seeded by the search context) and the planner is
asked for the observer's advice on it. The planner's model already reads only
what the advised player may know (MN-36: their own hand, the other hands as
open, the unseen cards as one pool), so the hint is the same whichever
consistent state was drawn; two states with the same view give identical hints.

Around the planner's ranking this module adds what the shared layer needs: with
``top`` covering every legal move, the cards the planner folds into one line per
suit are listed too (each as good as the card shown: same suit, another
prompt), so that a review finds the value of the move actually played; ties are
named in the reason; at the deal the outcomes are listed from the view.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.mnemonic import state as S
from solver.mnemonic.advice import hint, horizon_of
from solver.mnemonic.cards import CATEGORIES, card_code, category, parse_card, prompt
from solver.mnemonic.odds import fraction_text
from solver.mnemonic.rules_file import parse_horizon
from solver.mnemonic.state import MnemonicState
from solver.mnemonic.view import MnemonicView
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext

#: every legal move is ranked when ``top`` is at least the number of legal moves
EVERY_MOVE = 100_000
TIE = 1e-12


def horizon_argument(value: Any, field: str = "horizon") -> tuple[int, int] | None:
    """``"1,2"`` or ``(1, 2)`` -> (rounds, Group Scenes); ``None`` keeps the rules' ``planner.*``."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_horizon(value, field)
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return parse_horizon(f"{value[0]},{value[1]}", field)
    raise InvalidInputError(field, value, "expected ROUNDS,GROUP_SCENES such as 1,2")


def check_top(top: Any) -> int:
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise InvalidInputError("top", top, "expected a positive integer")
    return top


def _no_other_options(options: dict[str, Any]) -> None:
    for key, value in options.items():
        raise InvalidInputError(key, value, "not an option of a Mnemonic hint (known: horizon)")


def hint_view(game: Any, view: MnemonicView, ctx: SearchContext, *, top: int = 3, horizon: Any = None,
              **options: Any) -> HintResult:
    """Ranked moves of the view's observer with the chance of a Victory within the horizon (MN-33..MN-38),
    from the view alone."""
    _no_other_options(options)
    if not isinstance(view, MnemonicView):
        raise InvalidInputError("state", type(view).__name__, "expected a Mnemonic view")
    top = check_top(top)
    wanted = horizon_argument(horizon)
    if view.is_terminal():
        raise UnsupportedActionError("state.phase", "over", "the session is over: there is nothing to advise")
    if view.known.phase == "deal":
        return deal_hint(view, top)
    state = view.resample(np.random.default_rng(ctx.seed))
    target = None if wanted is None else horizon_of(state, *wanted)
    result = hint(state, ctx, top=EVERY_MOVE, player=view.observer, full_information=False, horizon=target,
                  shape=lambda partial: finish(state, partial, top))
    return finish(state, result, top)


def hint_full(game: Any, state: MnemonicState, ctx: SearchContext, *, top: int = 3, player: int | None = None,
              horizon: Any = None, **options: Any) -> HintResult:
    """The same ranking with every hand known (``rootInfo.fullInformation`` true)."""
    _no_other_options(options)
    top = check_top(top)
    wanted = horizon_argument(horizon)
    target = None if wanted is None else horizon_of(state, *wanted)
    result = hint(state, ctx, top=EVERY_MOVE, player=player, full_information=True, horizon=target,
                  shape=lambda partial: finish(state, partial, top))
    return finish(state, result, top)


def finish(state: MnemonicState, result: HintResult, top: int) -> HintResult:
    """Every legal move when ``top`` covers them all, ties named, then the first ``top``."""
    infos = list(result.move_infos)
    if not result.root_info.get("chance"):
        legal = state.legal_actions()
        if top >= len(legal):
            if state.phase in ("scene-card", "group-skill"):
                infos = _with_siblings(state, infos, legal)
            infos += _beyond_horizon(state, infos, legal, result.root_info)
        _name_ties(infos)
    return HintResult(result.game, infos[:top], result.root_info, result.is_during_search)


def _with_siblings(state: MnemonicState, infos: list[MoveInfo], legal: list[int]) -> list[MoveInfo]:
    listed = {info.move for info in infos}
    by_string = {state.action_to_string(a): a for a in legal}
    out: list[MoveInfo] = []
    for info in infos:
        out.append(info)
        action = by_string.get(info.move)
        key = None if action is None or info.extra.get("valued") is False else state.sibling_key(action)
        if key is None:
            continue
        for other in legal:
            text = state.action_to_string(other)
            if text in listed or state.sibling_key(other) != key:
                continue
            card = other if state.phase == "scene-card" else (other - S.GROUP_CARD) // 10
            extra = {k: v for k, v in info.extra.items() if k in ("exact", "dice", "success", "complication", "then")}
            extra.update({"card": card_code(card), "prompt": prompt(card), "category": CATEGORIES[category(card)],
                          "sameAs": info.move})
            out.append(MoveInfo(text, info.value, [text] + info.pv[1:], f"as good as {info.move} (same suit, "
                                f"another story prompt: \u201c{prompt(card)}\u201d)", extra=extra))
            listed.add(text)
    return out


def _beyond_horizon(state: MnemonicState, infos: list[MoveInfo], legal: list[int],
                    root: dict[str, Any]) -> list[MoveInfo]:
    """Moves the planner did not value because they start a round the horizon does not reach."""
    listed = {info.move for info in infos}
    reach = root.get("horizon") or {}
    out = []
    for action in legal:
        text = state.action_to_string(action)
        if text not in listed:
            out.append(MoveInfo(text, 0.0, [text], f"not valued: beyond the horizon ({reach.get('rounds', 0)} new "
                                                   "rounds); ask for a longer one with --horizon R,G",
                                extra={"valued": False}))
    return out


def _name_ties(infos: list[MoveInfo]) -> None:
    """A move exactly as good as the one above it says so (the order among ties is the order of the moves)."""
    for above, info in zip(infos, infos[1:]):
        if info.extra.get("valued") is False or above.extra.get("valued") is False:
            continue
        if abs(info.value - above.value) <= TIE and "as good as" not in info.why:
            first = next(m for m in infos if abs(m.value - info.value) <= TIE)
            info.why += f"; exactly as good as {first.move} (ties are listed in the moves' order)"


def deal_hint(view: MnemonicView, top: int) -> HintResult:
    """During the deal: the next card's chances from the observer's view (by suit, like a draw)."""
    known = view.known
    outcomes = view.chance_outcomes()
    infos: list[MoveInfo] = []
    if outcomes and outcomes[0][0] == "draw ?":
        infos.append(MoveInfo("draw ?", 1.0, ["draw ?"], f"this card goes to player {known.deal_recipient()}, "
                                                           "unseen by you", extra={"probability": "1/1"}))
    else:
        by_category: dict[int, Fraction] = {}
        for text, p in outcomes:
            card = _card_of(text)
            by_category[category(card)] = by_category.get(category(card), Fraction(0)) + p
        for cat, p in sorted(by_category.items(), key=lambda kv: (-kv[1], kv[0])):
            name = CATEGORIES[cat]
            infos.append(MoveInfo(f"draw a {name[:-1] if name != 'joker' else 'joker'} card", float(p), [],
                                  f"{fraction_text(p)} of the cards you have not seen"
                                  + (f" ({['face', 'number', 'joker'][known.deal_class()]} cards are dealt now)"
                                     if known.deal_class() is not None else ""),
                                  extra={"probability": fraction_text(p)}))
    return HintResult("mnemonic", infos[:top], {
        "chance": True, "phase": "deal", "player": view.observer, "fullInformation": False,
        "valueMeaning": "exact probability of the chance outcome", "adversaryPool": known.adversary_pool(),
        "dealt": known.deal_step(), "dealSize": known.deal_size()})


def _card_of(text: str) -> int:
    return parse_card(text.split()[-1])

