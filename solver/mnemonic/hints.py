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

from solver import seeded

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.mnemonic import state as S
from solver.mnemonic.advice import chance, hint, horizon_of, myopic_values
from solver.mnemonic.cards import CATEGORIES, card_code, category, parse_card, prompt
from solver.mnemonic.odds import fraction_text
from solver.mnemonic.rules_file import parse_horizon
from solver.mnemonic.state import MnemonicState
from solver.mnemonic.view import MnemonicView
from solver.results import PROBABILITY, HintResult, MoveInfo, percent
from solver.search import SearchContext

#: every legal move is ranked when ``top`` is at least the number of legal moves
EVERY_MOVE = 100_000
TIE = 1e-12
#: the phases whose moves start or play an Individual Scene (where the chance of a complication is known exactly)
SCENE_PHASES = ("scene-card", "scene-skill", "scene-help", "scene-weave")
#: a review's grades (inaccuracy, mistake, blunder): the least significant loss of the chance of a Victory, in
#: percentage points (lichess's 10, 20 and 30 points of winning chances on its -1..1 scale)
REVIEW_GRADES = (5.0, 10.0, 15.0)


def decided(view: MnemonicView) -> str | None:
    """MN-49: once a Group Scene of the session ends in Victory the session is won for everyone (MN-31), so no
    later decision can lose it: a review grades none of them (the hint still values the chance of another)."""
    if view.known.tally.victories > 0:
        return "the session already has a Victory (MN-31): no move can lose it (MN-49)"
    return None


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
        raise InvalidInputError(key, value, "not an option of a Mnemonic hint (known: horizon, fractions)")


def hint_view(game: Any, view: MnemonicView, ctx: SearchContext, *, top: int = 3, horizon: Any = None,
              fractions: bool = False, **options: Any) -> HintResult:
    """Ranked moves of the view's observer with the chance of a Victory within the horizon (MN-33..MN-38),
    from the view alone (``fractions``: the reasons give exact chances as fractions too)."""
    _no_other_options(options)
    if not isinstance(view, MnemonicView):
        raise InvalidInputError("state", type(view).__name__, "expected a Mnemonic view")
    top = check_top(top)
    wanted = horizon_argument(horizon)
    if view.is_terminal():
        raise UnsupportedActionError("state.phase", "over", "the session is over: there is nothing to advise")
    if view.known.phase == "deal":
        return deal_hint(view, top, bool(fractions))
    state = view.resample(seeded.default_rng(ctx.seed))
    target = None if wanted is None else horizon_of(state, *wanted)
    result = hint(state, ctx, top=EVERY_MOVE, player=view.observer, full_information=False, horizon=target,
                  shape=lambda partial: finish(state, partial, top), fractions=bool(fractions))
    return finish(state, result, top)


def hint_full(game: Any, state: MnemonicState, ctx: SearchContext, *, top: int = 3, player: int | None = None,
              horizon: Any = None, fractions: bool = False, **options: Any) -> HintResult:
    """The same ranking with every hand known (``rootInfo.fullInformation`` true)."""
    _no_other_options(options)
    top = check_top(top)
    wanted = horizon_argument(horizon)
    target = None if wanted is None else horizon_of(state, *wanted)
    result = hint(state, ctx, top=EVERY_MOVE, player=player, full_information=True, horizon=target,
                  shape=lambda partial: finish(state, partial, top), fractions=bool(fractions))
    return finish(state, result, top)


def finish(state: MnemonicState, result: HintResult, top: int) -> HintResult:
    """Every legal move when ``top`` covers them all, moves whose Victory chance saturates separated by what the
    rules value next, ties named, then the first ``top``."""
    infos = list(result.move_infos)
    if not result.root_info.get("chance"):
        legal = state.legal_actions()
        if top >= len(legal):
            if state.phase in ("scene-card", "group-skill"):
                infos = _with_siblings(state, infos, legal)
            infos += _beyond_horizon(state, infos, legal, result.root_info)
        decided = separate_saturated(state, infos, result.root_info)
        if decided:
            result.root_info["decidedBy"] = decided
        _name_ties(infos)
    return HintResult(result.game, infos[:top], result.root_info, result.is_during_search)


#: Victory chances at least this high are shown as ">99.9%": moves there are told apart by what the rules value next
SATURATED = 0.9995
#: what the rules value after a Victory, in the order a tie is broken, and how a reason names each
NEXT_MEASURES = (("complications", "the chance this scene adds no complication"),
                 ("dice", "the dice it brings to the roll"))


def next_measures(state: MnemonicState, infos: list[MoveInfo], observer: int | None) -> dict[str, dict[str, float]]:
    """For each move, what the rules value after the Victory itself: the exact chance that the scene it starts adds
    no complication (a complication feeds the Adversary's pool and takes a skill away until a Victory), then the
    dice it brings to its roll."""
    by_move = {state.action_to_string(a): a for a in state.legal_actions()}
    scene = myopic_values(state, observer) if state.phase in SCENE_PHASES else {}
    out = {}
    for info in infos:
        action = by_move.get(info.move)
        out[info.move] = {"complications": float(scene.get(action, 0)) if action is not None else 0.0,
                          "dice": float(info.extra.get("dice") or 0)}
    return out


def _saturated_together(a: MoveInfo, b: MoveInfo) -> bool:
    both_valued = a.extra.get("valued") is not False and b.extra.get("valued") is not False
    return both_valued and (abs(a.value - b.value) <= TIE or min(a.value, b.value) >= SATURATED)


def separate_saturated(state: MnemonicState, infos: list[MoveInfo], root: dict[str, Any]) -> str | None:
    """Moves whose Victory chances are equal, or all nearly certain (shown ">99.9%"), are ordered by what the rules
    value next (:data:`NEXT_MEASURES`); the first of such a run says which measure decides. Returns the measure
    that decided the first move, if one did. The table's choice kept by the base policy's margin is left alone."""
    if not infos or infos[0].extra.get("baseMove"):
        return None
    observer = None if root.get("fullInformation") else root.get("player")
    measures = next_measures(state, infos, observer)
    decided_first = None
    start = 0
    while start < len(infos):
        end = start + 1
        while end < len(infos) and _saturated_together(infos[start], infos[end]):
            end += 1
        run = infos[start:end]
        if len(run) > 1:
            run.sort(key=lambda m: tuple(-measures[m.move][key] for key, _ in NEXT_MEASURES))
            infos[start:end] = run
            decided = _decide(run, measures)
            if decided is not None and start == 0:
                decided_first = decided
        start = end
    return decided_first


def _decide(run: list[MoveInfo], measures: dict[str, dict[str, float]]) -> str | None:
    """Records each move's measures and says on the run's first move which measure puts it above the first move
    that differs from it (none when the whole run ties on every measure)."""
    for info in run:
        info.extra["noComplication"] = measures[info.move]["complications"]
    first = run[0]
    keys = [key for key, _ in NEXT_MEASURES]
    other = next((m for m in run[1:] if [measures[m.move][k] for k in keys] != [measures[first.move][k] for k in keys]),
                 None)
    if other is None:
        if min(m.value for m in run) >= SATURATED and any(abs(m.value - first.value) > TIE for m in run):
            first.why += (f"; Victory is nearly certain (>99.9%) for {len(run)} moves, which also tie on what the "
                          "rules value next (the chance of a complication, the dice): any of them will do")
        return None
    key, words = next((k, w) for k, w in NEXT_MEASURES if measures[first.move][k] != measures[other.move][k])
    a, b = measures[first.move][key], measures[other.move][key]
    shown = f"{percent(a)} against {percent(b)}" if key == "complications" else f"{a:.0f} against {b:.0f}"
    lowest = min(m.value for m in run)
    level = ("certain (100%)" if lowest >= 1.0 else "nearly certain (>99.9%)" if lowest >= SATURATED
             else f"the same ({percent(first.value)})")
    first.why += f"; Victory is {level} for {len(run)} moves: {words} decides ({shown} for {other.move})"
    for info in run:
        info.extra["decidedBy"] = key
    return key


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
    """A move exactly as good as the one above it says so (the order among ties is the order of the moves); moves
    told apart by what the rules value next (``noComplication``, ``dice``) are not ties."""
    def same(a: MoveInfo, b: MoveInfo) -> bool:
        return (abs(a.value - b.value) <= TIE and a.extra.get("noComplication") == b.extra.get("noComplication")
                and a.extra.get("dice") == b.extra.get("dice"))

    for above, info in zip(infos, infos[1:]):
        if info.extra.get("valued") is False or above.extra.get("valued") is False:
            continue
        if same(info, above) and "as good as" not in info.why:
            first = next(m for m in infos if same(m, info))
            info.why += f"; exactly as good as {first.move} (ties are listed in the moves' order)"


def deal_hint(view: MnemonicView, top: int, fractions: bool = False) -> HintResult:
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
                                  f"{chance(p, fractions)} of the cards you have not seen"
                                  + (f" ({['face', 'number', 'joker'][known.deal_class()]} cards are dealt now)"
                                     if known.deal_class() is not None else ""),
                                  extra={"probability": fraction_text(p)}))
    return HintResult("mnemonic", infos[:top], {
        "chance": True, "phase": "deal", "player": view.observer, "fullInformation": False,
        "valueMeaning": "exact probability of the chance outcome", "valueUnit": PROBABILITY,
        "adversaryPool": known.adversary_pool(),
        "dealt": known.deal_step(), "dealSize": known.deal_size()})


def _card_of(text: str) -> int:
    return parse_card(text.split()[-1])

