"""Hints for a Mnemonic session: ranked moves with exact odds, story prompts and the plan's Victory chance."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.mnemonic import state as S
from solver.mnemonic.cards import CATEGORIES, SUITS, card_code, card_name, category, prompt
from solver.mnemonic.odds import fraction_text, individual_odds
from solver.mnemonic.model import UNTIL_THE_CARDS_RUN_OUT, session_rounds_left
from solver.mnemonic.planner import (ASSUMPTION_ESTIMATE, ASSUMPTION_HORIZON, ASSUMPTIONS, DEFAULT_STATES, MARGIN,
                                     TABLE_PHASES, Evaluation, Horizon, draw_odds, evaluate, group_now_odds,
                                     ranked, roll_odds)
from solver.mnemonic.state import MnemonicState
from solver.results import PROBABILITY, HintResult, MoveInfo, SolveResult, percent
from solver.search import SearchContext

VALUE_MEANING = ("probability that a Group Scene ends in Victory within the horizon (the rounds and Group Scenes "
                 "the plan looks ahead), every player playing on as well as possible; exact over the planning model")
VALUE_MEANING_ESTIMATE = ("estimated probability of a Victory in the rest of the session, every player playing on as "
                          "well as possible: exact within the horizon (the rounds and Group Scenes the plan looks "
                          "ahead), estimated beyond it")
#: how long a position with one legal move may search (it answers at once with the smallest horizon)
ONLY_MOVE_SECONDS = 0.2


def horizon_of(state: MnemonicState, rounds: int | None = None, groups: int | None = None) -> Horizon:
    """The horizon asked for, defaulting to the rules' ``planner.rounds`` / ``planner.groupScenes``."""
    r = state.rules["planner.rounds"] if rounds is None else rounds
    g = state.rules["planner.groupScenes"] if groups is None else groups
    return Horizon(max(0, r), max(1, g))


def advised_player(state: MnemonicState, player: int | None) -> int:
    """Who is advised: the player to act, or anyone for the table's choices and chance events."""
    actor = state.current_player()
    if player is None:
        if actor < 0:
            return 0
        return actor
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.n:
        raise InvalidInputError("player", player, f"expected a player index 0..{state.n - 1}")
    if actor >= 0 and player != actor and state.phase not in TABLE_PHASES:
        raise InvalidInputError("player", player, f"it is player {actor}'s decision ({state.phase}); only the "
                                                  "table's choices can be advised to anyone")
    return player


def chance(p: Fraction, fractions: bool = False) -> str:
    """An exact chance for a person: a percentage (``>99.9%`` never rounds to a certainty), with the fraction in
    lowest terms first when asked for (``fractions``: the hint option ``--fractions``)."""
    return f"{fraction_text(p)} ({percent(float(p))})" if fractions else percent(float(p))


def _odds_text(n: int, success: Fraction, fractions: bool = False) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}: succeeds {chance(success, fractions)}"


def _why(state: MnemonicState, action: int, evaluation: Evaluation, observer: int | None,
         fractions: bool = False) -> tuple[str, dict[str, Any]]:
    """A one-line reason and the figures behind it (chances as percentages; with ``fractions`` exact too)."""
    phase = state.phase
    extra: dict[str, Any] = {}
    if phase == "scene-card":
        if action == S.DRAW:
            odds = draw_odds(state, observer)
            extra["drawOdds"] = {k: fraction_text(v) for k, v in odds.items()}
            return ("draw from the deck: " + ", ".join(f"{k} {chance(v, fractions)}" for k, v in odds.items()), extra)
        card = action
        extra.update({"card": card_code(card), "prompt": prompt(card), "category": CATEGORIES[category(card)]})
        follow = evaluation.best_next.get(action)
        text = f"{card_name(card)}: \u201c{prompt(card)}\u201d"
        if follow is not None:
            child = state.child(action)
            extra["then"] = child.action_to_string(follow[0])
            odds = roll_odds(child, follow[0]) if child.phase == "scene-skill" else None
            if odds is not None:
                extra["success"] = fraction_text(odds[1])
                text += f" ({_odds_text(*odds, fractions)})"
        same = [c for c in state.players[state.focus].hand if c != card and category(c) == category(card)]
        if same:
            extra["sameSuit"] = [card_code(c) for c in same]
            extra["sameSuitPrompts"] = {card_code(c): prompt(c) for c in same}
            text += f"; as good: {', '.join(card_code(c) for c in same)} (same suit, other prompts)"
        return text, extra
    if phase == "scene-skill":
        if action == S.PASS:
            return "no skill, no help, no learning: the scene is played without a roll", extra
        odds = roll_odds(state, action)
        if odds is not None:
            n, success = odds
            extra.update({"dice": n, "success": fraction_text(success), "complication": fraction_text(1 - success)})
            if action >= S.ASK:
                helper = (action - S.ASK) // 10
                return (f"with {state.players[helper].name}'s help ({_odds_text(n, success, fractions)}); "
                        "both skills are at risk", extra)
            if S.LEARN <= action < S.PASS:
                return f"learn a new {SUITS[action - S.LEARN]} skill ({_odds_text(n, success, fractions)})", extra
            return _odds_text(n, success, fractions), extra
        return "choose the helper's skill next", extra
    if phase == "scene-help":
        odds = roll_odds(state, action)
        if odds is not None:
            extra.update({"dice": odds[0], "success": fraction_text(odds[1])})
            return f"this skill is at risk if the roll fails ({_odds_text(*odds, fractions)})", extra
        return "help", extra
    if phase == "scene-weave":
        m = state.adversary_pool()
        if action == S.WEAVE_AVOID:
            return f"keep the skill usable; the Adversary's pool stays at {m}", extra
        if action == S.NO_WEAVE:
            return "keep the weaving for later", extra
        if S.WEAVE_GIVE <= action < S.WEAVE_REPAIR:
            q = action - S.WEAVE_GIVE
            return f"{state.players[q].name} rolls one extra die next time", extra
        return "repair a complicated skill: one die fewer for the Adversary", extra
    if phase == "group-skill":
        q = state.current_player()
        n = state.dice(q, state.group_skill_of(action))
        extra["dice"] = n
        text = f"{n} {'die' if n == 1 else 'dice'} to the plan; on a Defeat this suit is injured"
        if action >= S.GROUP_CARD:
            card = (action - S.GROUP_CARD) // 10
            extra.update({"card": card_code(card), "prompt": prompt(card), "category": CATEGORIES[category(card)]})
            text += f"; discards the {card_name(card)}"
        return text, extra
    if phase in TABLE_PHASES:
        if action in (S.GROUP, S.TRY_AGAIN):
            v, d, w = group_now_odds(state, observer)
            extra["groupNow"] = {"victory": fraction_text(v), "defeat": fraction_text(d), "draw": fraction_text(w)}
            return (f"face the Adversary's {state.adversary_pool()} dice now: Victory {chance(v, fractions)} in this "
                    "scene", extra)
        if action in (S.ROUND, S.REGROUP):
            return "another round of Individual Scenes first (more complications are likely)", extra
        return "end the session here (no further Victory)", extra
    return "", extra


def scene_success(state: MnemonicState, cat: int) -> Fraction:
    """Best exact chance that the focus player's scene with a card of ``cat`` ends without a new complication."""
    p = state.focus
    joker = cat == 4
    best = Fraction(0)
    matching = state.matching(p, cat)
    for s in matching:
        best = max(best, individual_odds(state.dice(p, s)).success)
    rules = state.rules
    player = state.players[p]
    if (rules["learning.allowed"] and len(player.skills) < rules["skills.maxPerCharacter"]
            and not (rules["learning.onlyWithoutMatch"] and matching) and (not joker or rules["joker"] == "wild")):
        best = max(best, individual_odds(max(0, rules["learning.rating"] + player.bonus)).success)
    helpers = [q for q in range(state.n) if q != p and state.available(q)]
    can_help = bool(helpers) and not (rules["help.onlyWithoutMatch"] and matching)
    if can_help:
        for s in state.available(p):
            best = max(best, individual_odds(state.dice(p, s, helped=True)).success)
    learnable = (rules["learning.allowed"] and len(player.skills) < rules["skills.maxPerCharacter"]
                 and not (rules["learning.onlyWithoutMatch"] and matching) and (not joker or rules["joker"] == "wild"))
    if not matching and (rules["scene.passWithoutMatch"] or (not can_help and not learnable)):
        return Fraction(1)  # a scene played without a roll (pass, MN-17) complicates nothing
    return best


def myopic_values(state: MnemonicState, observer: int | None) -> dict[int, Fraction]:
    """Fallback when no horizon fits the limits: the exact chance that this scene adds no complication."""
    out: dict[int, Fraction] = {}
    for action in state.legal_actions():
        if state.phase == "scene-card":
            if action == S.DRAW:
                out[action] = sum((p * scene_success(state, CATEGORIES.index(name))
                                   for name, p in draw_odds(state, observer).items()), Fraction(0))
            else:
                out[action] = scene_success(state, category(action))
        elif state.phase in ("scene-skill", "scene-help"):
            odds = roll_odds(state, action)
            out[action] = Fraction(1) if odds is None and action == S.PASS else (odds[1] if odds else Fraction(0))
        elif state.phase == "scene-weave":
            failed = state.scene is not None and state.scene.failed
            out[action] = Fraction(1) if (not failed or action == S.WEAVE_AVOID) else Fraction(0)
        else:
            out[action] = Fraction(0)
    return out


def myopic_hint(state: MnemonicState, who: int, observer: int | None, full: bool, top: int,
                evaluation: Evaluation, fractions: bool = False) -> HintResult:
    """Ranked by the scene's own exact odds, clearly labelled as a fallback."""
    values = myopic_values(state, observer)
    order = sorted(values, key=lambda a: (-values[a], state.legal_actions().index(a)))
    infos = []
    for action in order[:top]:
        why, extra = _why(state, action, evaluation, observer, fractions)
        extra["exact"] = fraction_text(values[action])
        infos.append(MoveInfo(state.action_to_string(action), float(values[action]), [state.action_to_string(action)],
                              why, extra=extra))
    return HintResult("mnemonic", infos, {
        "player": who, "phase": state.phase, "round": state.round, "fullInformation": full,
        "valueUnit": PROBABILITY,
        "valueMeaning": "exact chance that this scene ends without a new complication (fallback: the plan to "
                        "the next Group Scene did not fit the search limits; raise limits.time_ms or limits.nodes)",
        "fallback": True, "optimal": False, "horizon": None, "requestedHorizon": evaluation.requested.to_json(),
        "complete": False, "states": evaluation.states, "adversaryPool": state.adversary_pool()})


def chance_hint(state: MnemonicState, observer: int | None, full: bool, top: int,
                fractions: bool = False) -> HintResult:
    """At a chance node: the outcomes and their exact probabilities (by suit for a draw, unless full information)."""
    infos: list[MoveInfo] = []
    if state.phase in ("scene-draw", "group-draw") and not full:
        for name, p in draw_odds(state, observer).items():
            infos.append(MoveInfo(f"reveal a {name[:-1] if name != 'joker' else 'joker'} card", float(p), [],
                                  f"{chance(p, fractions)} of the unseen cards",
                                  extra={"probability": fraction_text(p)}))
    else:
        for action, p in state.chance_outcomes_exact():
            infos.append(MoveInfo(state.action_to_string(action), float(p), [state.action_to_string(action)],
                                  f"probability {chance(p, fractions)}", extra={"probability": fraction_text(p)}))
    infos.sort(key=lambda m: -m.value)
    return HintResult("mnemonic", infos[:top], {
        "chance": True, "phase": state.phase, "player": observer, "fullInformation": full,
        "valueMeaning": "exact probability of the chance outcome", "valueUnit": PROBABILITY,
        "adversaryPool": state.adversary_pool()})


def search_limits(ctx: SearchContext) -> tuple[float | None, int, bool]:
    """(seconds, memoised states per horizon, nodes given) for the planner.

    The time limit always applies, whatever the node budget (a budget is never a way around time); with
    ``limits.nodes`` and no time limit the node budget alone bounds the search, so that its answer is the same
    on every machine (``terminate`` still stops it). Without a node budget a memory guard bounds each horizon.
    """
    if ctx.limits.nodes is not None:
        return ctx.remaining(), ctx.limits.nodes, True
    return ctx.remaining(), DEFAULT_STATES, False


def run_evaluation(state: MnemonicState, ctx: SearchContext, observer: int | None, target: Horizon,
                   progress: Callable[[Evaluation], None] | None = None) -> Evaluation:
    """The planner's evaluation of ``state`` within the context's limits (one legal move: the smallest horizon
    only, at once); ``progress`` sees the best so far while it runs (interim reports)."""
    seconds, max_states, nodes_given = search_limits(ctx)
    levels = None
    if len(state.legal_actions()) == 1:
        continuation = state.rules["planner.continuation"] == "estimate"
        levels = [Horizon(0, 0)] if continuation else [Horizon(0, min(1, target.groups))]
        seconds = ONLY_MOVE_SECONDS if seconds is None else min(seconds, ONLY_MOVE_SECONDS)
    evaluation = evaluate(state, observer, target, max_states=max_states, seconds=seconds, cancel=ctx.cancel,
                          nodes_given=nodes_given, levels=levels, progress=progress)
    if levels is not None and evaluation.stopped_by is None:
        evaluation.stopped_by = "only move"
    return evaluation


def _search_info(state: MnemonicState, ctx: SearchContext, evaluation: Evaluation) -> dict[str, Any]:
    """What every Mnemonic hint and solve states about its search."""
    left = session_rounds_left(state)
    return {"continuation": "estimate" if evaluation.continuation else "none",
            "sessionRoundsLeft": None if left == UNTIL_THE_CARDS_RUN_OUT else left,
            "stoppedBy": evaluation.stopped_by,
            "limits": {"time_ms": ctx.limits.time_ms, "nodes": ctx.limits.nodes},
            "levels": [level.to_json() for level in evaluation.levels]}


def _proof(evaluation: Evaluation) -> tuple[bool, str]:
    """(optimal, status): exhaustive within the horizon (plain objective), or exact for the whole session."""
    if not evaluation.continuation or not evaluation.estimated:
        return True, "EXHAUSTIVE"
    return False, "ESTIMATE"


def _assumptions(evaluation: Evaluation, full_information: bool) -> list[str]:
    out = [ASSUMPTIONS[0]] if full_information else list(ASSUMPTIONS)
    out.append(ASSUMPTION_ESTIMATE if evaluation.continuation else ASSUMPTION_HORIZON)
    return out


def reporter(ctx: SearchContext, build: Callable[[Evaluation], Any]) -> Callable[[Evaluation], None] | None:
    """With interim reports asked for (``reportDuringSearchEvery``), a progress callback for the planner that
    sends ``build(best so far)`` when a report is due; else None."""
    if ctx.report is None or not ctx.report_every:
        return None
    return lambda evaluation: ctx.maybe_report(lambda: build(evaluation))


def hint(state: MnemonicState, ctx: SearchContext, top: int = 3, player: int | None = None,
         full_information: bool = False, horizon: Horizon | None = None,
         shape: Callable[[HintResult], HintResult] | None = None, fractions: bool = False) -> HintResult:
    """Ranked moves for the advised player (observation-level information unless ``full_information``).

    ``shape`` (the view layer's finishing) is applied to the interim reports sent while the search runs
    (``isDuringSearch``: the deepest horizon completed so far); the caller applies it to the final answer.
    ``fractions``: the reasons give exact chances as fractions too (percentages only by default)."""
    if state.is_terminal():
        raise UnsupportedActionError("state.phase", "over", "the session is over: there is nothing to advise")
    who = advised_player(state, player)
    observer = None if full_information else who
    if state.is_chance_node():
        return chance_hint(state, observer, full_information, top, fractions)
    target = horizon or horizon_of(state)

    def interim(evaluation: Evaluation) -> HintResult:
        result = hint_result(state, ctx, evaluation, who, observer, bool(full_information), top, fractions)
        result = shape(result) if shape is not None else result
        result.is_during_search = True
        return result

    evaluation = run_evaluation(state, ctx, observer, target, reporter(ctx, interim))
    return hint_result(state, ctx, evaluation, who, observer, bool(full_information), top, fractions)


def hint_result(state: MnemonicState, ctx: SearchContext, evaluation: Evaluation, who: int, observer: int | None,
                full_information: bool, top: int, fractions: bool = False) -> HintResult:
    """The hint's answer from the planner's evaluation (the final one, or the best so far)."""
    if evaluation.horizon is None:
        result = myopic_hint(state, who, observer, bool(full_information), top, evaluation, fractions)
        result.root_info.update(_search_info(state, ctx, evaluation))
        return result
    valued = [a for a in evaluation.actions if a in evaluation.values]
    seen: set[tuple[int, int]] = set()
    kept = []
    for a in valued:  # cards of one suit (with one skill, MN-41) lead to the same future: one line for them
        key = state.sibling_key(a)
        if key is None or key not in seen:
            kept.append(a)
            if key is not None:
                seen.add(key)
    valued = kept
    keep = set(valued)
    order = [a for a in ranked(state, evaluation) if a in keep]
    top_value = max(evaluation.values[a] for a in order)
    infos = []
    for action in order[:top]:
        why, extra = _why(state, action, evaluation, observer, fractions)
        if action == order[0] and evaluation.values[action] < top_value:
            extra["baseMove"] = True
            why += (f"; kept: the base policy's move (face the Adversary; try again while someone can bring a skill), "
                    f"within {100 * MARGIN:.0f} percentage point of the best estimate, the estimate's own error")
        pv = [state.action_to_string(action)]
        follow = evaluation.best_next.get(action)
        if follow is not None:
            pv.append(state.child(action).action_to_string(follow[0]))
        if action in evaluation.exact:
            extra["exact"] = fraction_text(evaluation.exact[action])
        infos.append(MoveInfo(state.action_to_string(action), evaluation.values[action], pv, why, extra=extra))
    unvalued = [MoveInfo(state.action_to_string(action), 0.0, [state.action_to_string(action)],
                         "not valued: one more round of Individual Scenes does not fit the search limits",
                         extra={"valued": False}) for action in evaluation.unvalued]
    if unvalued and top_value <= 0:
        # every valued move is a sure failure within the horizon (a probability of 0) and an unvalued one
        # cannot be worse: it comes first (MN-47)
        for info in unvalued:
            info.why += ("; listed first: every valued move has probability 0 within the horizon, and a move "
                         "not valued cannot be worse")
        infos = unvalued + infos
    else:
        infos += unvalued
    optimal, status = _proof(evaluation)
    best = top_value
    root: dict[str, Any] = {
        "player": who, "phase": state.phase, "round": state.round, "fullInformation": bool(full_information),
        "valueMeaning": VALUE_MEANING_ESTIMATE if evaluation.continuation else VALUE_MEANING,
        "valueUnit": PROBABILITY, "value": best,
        "horizon": evaluation.horizon.to_json(), "requestedHorizon": evaluation.requested.to_json(),
        "complete": evaluation.complete, "optimal": optimal, "status": status, "states": evaluation.states,
        "seconds": round(evaluation.seconds, 4), "adversaryPool": state.adversary_pool(),
        "assumptions": _assumptions(evaluation, bool(full_information)),
    }
    root.update(_search_info(state, ctx, evaluation))
    if state.scene is not None and state.scene.card is not None:
        root["card"] = card_code(state.scene.card)
        root["prompt"] = prompt(state.scene.card)
    if state.phase == "scene-weave" and state.scene is not None:
        root["rolled"] = state.scene.roll
        root["failed"] = state.scene.failed
    return HintResult("mnemonic", infos, root)


def solve(state: MnemonicState, ctx: SearchContext) -> SolveResult:
    """The best move where the state stands and its value (see :func:`hint`); proven (``EXHAUSTIVE``) within the
    horizon for the plain objective or when the search reached the end of the session, else ``ESTIMATE``."""
    if state.is_terminal() or state.is_chance_node():
        raise UnsupportedActionError("state.phase", state.phase, "solve needs a position where a player decides")
    who = advised_player(state, None)

    def interim(evaluation: Evaluation) -> SolveResult:
        result = solve_result(state, ctx, evaluation, who)
        result.is_during_search = True
        return result

    evaluation = run_evaluation(state, ctx, who, horizon_of(state), reporter(ctx, interim))
    if evaluation.horizon is None:
        raise UnsupportedActionError("limits", ctx.limits.nodes, "the smallest horizon does not fit the limits")
    return solve_result(state, ctx, evaluation, who)


def solve_result(state: MnemonicState, ctx: SearchContext, evaluation: Evaluation, who: int) -> SolveResult:
    """The solve's answer from the planner's evaluation (the final one, or the best so far)."""
    best = ranked(state, evaluation)[0]
    value = evaluation.values[best]
    optimal, status = _proof(evaluation)
    solution: dict[str, Any] = {
        "move": state.action_to_string(best), "player": who,
        "values": {state.action_to_string(a): evaluation.values[a] for a in evaluation.actions
                   if a in evaluation.values},
        "horizon": evaluation.horizon.to_json(), "requestedHorizon": evaluation.requested.to_json(),
        "complete": evaluation.complete, "states": evaluation.states, **_search_info(state, ctx, evaluation)}
    if best in evaluation.exact:
        solution["exact"] = fraction_text(evaluation.exact[best])
    return SolveResult("mnemonic", value, optimal, value if optimal else None, status, evaluation.seconds, solution)
