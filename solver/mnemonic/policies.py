"""Simple Mnemonic policies: the rules of thumb, a plain scene policy, and the planner as a policy.

Used by ``benchmarks/bench_mnemonic.py`` (and the paired sweep in the tests) to
compare the planner with "always face the Adversary after one round" and
"never before two rounds" on seeded sessions. Every policy sees only what its
player may see (hands are private) and returns a legal action. The planner's
session length is the rule ``planner.sessionRounds``; give the session played
the same number of rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from solver.mnemonic import state as S
from solver.mnemonic.cards import category
from solver.mnemonic.planner import Horizon, evaluate, ranked
from solver.mnemonic.state import MnemonicState
from solver.search import SearchContext, Stopped

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame

#: ``policy(state, rounds_left, rounds_since_last_group) -> action``
Policy = Callable[[MnemonicState, int, int], int]
TABLE_PHASES = ("table", "after-victory", "after-defeat")


def plain_scene_move(state: MnemonicState) -> int:
    """A sensible, simple choice outside the table's decisions.

    Card: the card whose suit has the player's best available skill (a draw
    when the hand has none). Skill: the most dice; without a match, learn if
    allowed, else ask the player with the most available skills, risking
    one's own strongest skill; a helper offers their weakest skill. Weaving:
    never (weaving is optional; using it well is the planner's job). Group
    Scene: the most dice.
    """
    legal = state.legal_actions()
    p = state.current_player()
    phase = state.phase
    if phase == "scene-card":
        def strength(action: int) -> tuple[int, int]:
            if action == S.DRAW:
                return (0, 0)
            dice = [state.dice(p, s) for s in state.matching(p, category(action))]
            return (max(dice, default=-1) + 1, -action)
        return max(legal, key=strength)
    if phase == "scene-skill":
        uses = [a for a in legal if S.USE <= a < S.LEARN]
        if uses:
            return max(uses, key=lambda a: (state.dice(p, a - S.USE), -a))
        learns = [a for a in legal if S.LEARN <= a < S.PASS]
        if learns:
            return learns[0]
        asks = [a for a in legal if a >= S.ASK]
        if asks:
            return max(asks, key=lambda a: (len(state.available((a - S.ASK) // 10)),
                                            state.dice(p, (a - S.ASK) % 10, helped=True), -a))
        return legal[0]
    if phase == "scene-help":
        return min(legal, key=lambda a: (state.players[p].skills[a - S.USE].rating, a))
    if phase == "scene-weave":
        return S.NO_WEAVE
    if phase == "group-skill":
        return max(legal, key=lambda a: (state.dice(p, state.group_skill_of(a)), -a))
    return legal[0]


def best_move(state: MnemonicState, horizon: Horizon, max_states: int, seconds: float | None,
              continuation: bool | None = None, ctx: SearchContext | None = None) -> int | None:
    """The planner's best move within ``horizon`` (:func:`~solver.mnemonic.planner.ranked`: ties go to the first
    legal move, and at the table the base policy's move is kept within the margin), or None when nothing was
    valued.

    A node budget alone (``seconds`` None) makes the choice the same on every machine. ``horizon.groups`` 0: only
    the current scene exactly, then the estimate (MN-44). ``continuation`` defaults to the rule. ``ctx`` (a
    self-play's) stops the search at its time limit or on ``terminate``, raising :class:`~solver.search.Stopped`:
    a move chosen from a search cut short is never played."""
    levels = [horizon] if horizon.groups == 0 else None
    target = Horizon(horizon.rounds, max(1, horizon.groups))
    left = None if ctx is None else ctx.remaining()
    cut_by_ctx = left is not None and (seconds is None or left < seconds)
    evaluation = evaluate(state, state.current_player(), target, max_states=max_states,
                          seconds=left if cut_by_ctx else seconds, exact=False, nodes_given=seconds is None,
                          cancel=None if ctx is None else ctx.cancel, continuation=continuation, levels=levels)
    if evaluation.stopped_by == "terminate" or (cut_by_ctx and evaluation.stopped_by == "time"):
        raise Stopped
    if not evaluation.values:
        return None
    return ranked(state, evaluation)[0]


#: node budgets of the planner as a policy: memoised states per horizon at a scene and at the table's choices
SCENE_STATES = 50_000
TABLE_STATES = 200_000


def planned_scene_move(state: MnemonicState, groups: int = 1, max_states: int = SCENE_STATES,
                       seconds: float | None = None, ctx: SearchContext | None = None) -> int:
    """The planner's choice outside the table's decisions: plan to the end of this round and ``groups``
    Group Scenes (0: to the end of this scene), the estimate beyond (MN-44); falls back to
    :func:`plain_scene_move` if nothing fits."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    move = best_move(state, Horizon(0, groups), max_states, seconds, ctx=ctx)
    return plain_scene_move(state) if move is None else move


def _scene_policy(planned: bool, max_states: int, seconds: float | None, groups: int = 1,
                  ctx: SearchContext | None = None) -> Callable[[MnemonicState], int]:
    if not planned:
        return plain_scene_move
    return lambda state: planned_scene_move(state, groups, max_states, seconds, ctx)


def rule_of_thumb(min_rounds: int, planned_scenes: bool = False, scene_states: int = SCENE_STATES,
                  seconds: float | None = None, scene_groups: int = 1, ctx: SearchContext | None = None) -> Policy:
    """Face the Adversary once ``min_rounds`` rounds have been played since the last Group Scene (or the start),
    or when no round is left; after a Defeat or Draw try again while allowed and some player can still bring a
    skill (Try Again has no cap by default, MN-28), else regroup, else retreat (after a Draw followed by the
    Victory's choices, ``group.afterDraw = as-victory``: another round while one is left). Scenes: plain, or
    planned (:func:`planned_scene_move` with ``scene_groups`` and ``scene_states``, deterministic when
    ``seconds`` is None; ``ctx`` stops them as :func:`best_move` says)."""
    scene = _scene_policy(planned_scenes, scene_states, seconds, scene_groups, ctx)

    def policy(state: MnemonicState, rounds_left: int, rounds_since: int) -> int:
        legal = state.legal_actions()
        if state.phase == "table":
            if (rounds_since >= min_rounds or rounds_left == 0) and S.GROUP in legal:
                return S.GROUP
            if rounds_left > 0 and S.ROUND in legal:
                return S.ROUND
            return S.GROUP if S.GROUP in legal else S.END
        if state.phase == "after-defeat":
            if S.TRY_AGAIN in legal and state.someone_can_bring():
                return S.TRY_AGAIN
            return S.REGROUP if rounds_left > 0 and S.REGROUP in legal else S.RETREAT
        if state.phase == "after-victory":
            # a Draw under group.afterDraw = as-victory (MN-27) offers the Victory's choices without a Victory:
            # play on (the session stops at its first real Victory, so a real one never reaches this choice)
            if not state.tally.victories and rounds_left > 0 and S.ROUND in legal:
                return S.ROUND
            return S.END
        return legal[0] if len(legal) == 1 else scene(state)
    return policy


def planner_policy(horizon: Horizon = Horizon(1, 2), max_states: int = TABLE_STATES, seconds: float | None = None,
                   scenes: bool = False, scene_states: int = SCENE_STATES, scene_groups: int = 1,
                   continuation: bool | None = None, ctx: SearchContext | None = None) -> Policy:
    """The planner at the table's decisions within ``horizon`` (never past the rounds the session has left), and
    with ``scenes`` at every other decision with a real choice (:func:`planned_scene_move`); otherwise plain
    scenes. ``seconds`` None: the node budgets alone (the same choices on every machine). ``continuation``
    False: the plain horizon objective at the table (MN-33), for comparison. ``ctx`` stops the searches as
    :func:`best_move` says."""
    scene = _scene_policy(scenes, scene_states, seconds, scene_groups, ctx)

    def policy(state: MnemonicState, rounds_left: int, rounds_since: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase in TABLE_PHASES:
            move = best_move(state, Horizon(min(horizon.rounds, rounds_left), horizon.groups), max_states, seconds,
                             continuation, ctx)
            if move is not None:
                return move
        return scene(state)
    return policy


def start_with_complications(game: MnemonicGame, seed: int, complications: int) -> MnemonicState:
    """A new session whose Adversary's pool starts at ``complications`` dice: that many skills, drawn at random
    (seeded) among all the characters' skills, start complicated (as if carried over from an earlier evening)."""
    state = game.new_initial_state(seed)
    if complications:
        rng = np.random.default_rng(50_000 + seed)
        skills = [skill for player in state.players for skill in player.skills]
        for i in rng.choice(len(skills), size=min(complications, len(skills)), replace=False):
            skills[int(i)].complicated = True
    return state


def paired_wins(game: MnemonicGame, contestants: dict[str, Policy], sessions: int, complications: int = 0,
                max_rounds: int = 3) -> dict[str, list[int]]:
    """Each contestant plays the same seeded sessions (deal, starting complications, chance stream seed): the
    Victory (1/0) of every session, in seed order, for paired comparisons."""
    return {name: [play_session(start_with_complications(game, seed, complications), policy,
                                np.random.default_rng(10_000 + seed), max_rounds)["victory"]
                   for seed in range(sessions)]
            for name, policy in contestants.items()}


def play_session(state: MnemonicState, policy: Policy, rng: np.random.Generator, max_rounds: int = 3,
                 max_steps: int = 20_000, compare: Policy | None = None) -> dict[str, int]:
    """Play at most ``max_rounds`` rounds, until the first Victory or the end; chance outcomes drawn with ``rng``.

    A move that would start a round past ``max_rounds`` ends the session instead. With ``compare``, count the
    table's decisions (with a real choice) and how many of them ``compare`` would have decided differently.
    """
    groups = decisions = table_choices = disagreements = 0
    last_group_round = 0
    for _ in range(max_steps):
        if state.is_terminal() or state.tally.victories:
            break
        if state.is_chance_node():
            action = state.sample_chance_outcome(rng)
        else:
            rounds_left = max(0, max_rounds - state.round)
            action = policy(state, rounds_left, state.round - last_group_round)
            decisions += 1
            if compare is not None and state.phase in TABLE_PHASES and len(state.legal_actions()) > 1:
                table_choices += 1
                disagreements += int(compare(state, rounds_left, state.round - last_group_round) != action)
            if state.phase in TABLE_PHASES:
                if action in (S.ROUND, S.REGROUP) and rounds_left == 0:
                    action = S.END if state.phase != "after-defeat" else S.RETREAT
                if action in (S.GROUP, S.TRY_AGAIN):
                    groups += 1
                    last_group_round = state.round
        state.apply_action(action)
    return {"victory": int(state.tally.victories > 0), "rounds": state.round, "groups": groups,
            "decisions": decisions, "tableChoices": table_choices, "disagreements": disagreements}
