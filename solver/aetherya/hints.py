"""Hints during play: every decision of the turn ranked by expected final score.

Method (determinised sampling, "perfect-information Monte Carlo"): the hidden
cards (face-down territories, the draw order, face-down tiles) are re-sampled
consistently with the advised player's observation; in each sampled world
every candidate plan is played, the rest of the turn is finished by the greedy
policy, and the game is then played out to the end by the compiled playout
kernel. All candidates see the same worlds and the same random numbers
(common random numbers), so their differences are measured much more
precisely than their values. Candidates are sampled in rounds and the worse
half is dropped after each round (successive halving), so more time gives
more samples to the moves that matter. A full-information analysis (the true
hidden cards, only the future draws random) is available and labelled.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from solver.aetherya.cards import CARD_NAMES, CATEGORIES, CELL_NAMES, deck_counts
from solver.aetherya.knowledge import canonicalize
from solver.aetherya.planner import PLANNER_NODES, kingdom_potential
from solver.aetherya.playout import (PLAN_MODES, current_value, greedy_action, legend_needs, pack, packable,
                                     placements, plan_array, plan_values, play_plan, playout_values, solo_avail,
                                     solo_left, solo_moves, solo_options, unseen_stones)
from solver.aetherya.scoring import legend_card
from solver.aetherya.state import (A_CLAIM, A_CLAIM_SWORD, A_DRAW, A_DRAW2, A_END, A_GRIFFIN, A_HAMMER, A_PEEK,
                                   A_PLACE, A_REVEAL, A_TAKE, A_TAKE2, A_TAKE_DRAW, A_TILE_TAKE, AetheryaState)
from solver.aetherya.tiles import STONES, best_stone_value, stone_value, tile_kind
from solver.aetherya.view import AetheryaView
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import CHANCE_PLAYER, Game
from solver.ranking import (KEEP, Z, Arm, Schedule, Units, display_order, first_note, loss_to_first, paired,
                            recommend, significantly_better, standing_note, successive_halving)
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext

FIRST_ROUND = 6
#: a score and its differences, in points
POINTS = Units(unit="points", digits=1)
#: a review's grades (inaccuracy, mistake, blunder): the least significant loss of expected final score, in points
REVIEW_GRADES = (1.0, 2.5, 5.0)
MAX_CANDIDATES = 40
#: solo ranking: one more Legend written (on average) outweighs any campaign-score difference
SOLO_LEGEND_WEIGHT = 100
#: solo ranking: completing the Age of the horizon (every Legend of it written) outweighs Legends and score
SOLO_AGE_WEIGHT = 1000
#: solo: Legends written over the campaign once Age index 0, 1, 2 is over (4, 5 and 6 a row, AE-33)
SOLO_GOALS = (4, 9, 15)
#: solo: the sampled worlds on which the policy's move is screened first; when it completes the Age in every
#: one, the hint keeps it (the search's budget goes to the decisions where the policy is seen to fail)
SOLO_SCREEN = 8
#: solo: the chance, per decision where the screen found the policy failing, that one of the other moves replaces
#: the policy's move by luck alone (a Bonferroni bar: the more moves compared with it, the higher; see solo_bar)
SOLO_ALPHA = 0.2
#: solo placements sampled by a hint: the best by the policy's value, plus a few reveals
SOLO_SHORTLIST = 8
SOLO_REVEALS = 2
#: time kept, within a hint's time limit, for the planner call that follows the search
PLANNER_S = 0.05
#: and for building the answer (the reasons of every ranked move)
RESULT_S = 0.03
#: the planner call's longest time (the time limit permitting)
PLANNER_MS = 40
#: playouts per compiled call, the limits and terminate looked at in between (a whole solo campaign takes
#: about 7 ms on a loaded 2-core machine since solo reveals are valued at their expectation: a chunk stays
#: near 50 ms)
PLAYOUT_CHUNK = 8


@dataclass(eq=False)
class Candidate(Arm):
    """A plan (actions from the root) and the final values measured for it, one per sampled world (``rounds``:
    the successive-halving round of each world; the same world and random numbers for every candidate played in
    it). Its ranking samples (:attr:`Arm.samples`) are the :attr:`utilities`; the value shown is :attr:`score`."""

    key: Any = None
    plan: list[int] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)  # solo: Legends written over the campaign
    rounds: list[int] = field(default_factory=list)
    dominated: bool = False  # 'end' while a Legend can be claimed: listed after the claims unless it measures better
    after_claims: bool = False  # set by each ranking: dominated and listed after the claims this time
    goal: int = 15  # solo: the Legends written by the horizon's end that complete it (SOLO_GOALS)
    safe: bool = False  # solo, the policy's move: it completed the horizon's Age in every screened world
    notes: list[str] = field(default_factory=list)  # why it is ranked where it is, when values alone do not say
    label: str = ""  # the move string shown

    def __post_init__(self) -> None:
        if self.key is None:
            self.key = tuple(self.plan)

    @property
    def default(self) -> bool:
        """Solo, co-op: the policy's own move, kept unless another is significantly better."""
        return self.protected

    @property
    def extra(self) -> bool:
        """Outside the shortlist: sampled in the first round only."""
        return self.first_round_only

    def record(self, round_no: int, value: float, progress: float | None) -> None:
        """The value (and solo progress) of one more sampled world of round ``round_no``."""
        self.values.append(value)
        if progress is not None:
            self.progress.append(progress)
        self.rounds.append(round_no)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` worlds (a world cut short leaves no trace)."""
        del self.values[n:], self.progress[n:], self.rounds[n:]

    @property
    def utilities(self) -> list[float]:
        """Per sampled world, what the ranking maximises (solo: Legends written first, see :attr:`mean`)."""
        if self.progress:
            return [SOLO_AGE_WEIGHT * (p >= self.goal) + SOLO_LEGEND_WEIGHT * p + v
                    for p, v in zip(self.progress, self.values)]
        return list(self.values)

    @property
    def samples(self) -> dict[int, np.ndarray]:
        return _by_round(self.rounds, self.utilities)

    def score_samples(self) -> dict[int, np.ndarray]:
        """The values shown (final scores), by round: what a review's loss is measured in."""
        return _by_round(self.rounds, self.values)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def total(self) -> float:
        return float(np.sum(self.utilities)) if self.values else 0.0

    @property
    def mean(self) -> float:
        """Ranking key: the expected value; in solo completing the horizon's Age comes first, then the Legends
        written (AE-34: a campaign that misses one Legend is lost, whatever its kingdoms score), so the key is
        the mean of ``SOLO_AGE_WEIGHT`` x Age completed + ``SOLO_LEGEND_WEIGHT`` x Legends written + score."""
        return round(float(np.mean(self.utilities)), 9) if self.values else float("-inf")

    def tiebreak(self) -> int:
        return 0

    @property
    def score(self) -> float:
        """The value shown: the expected final score."""
        return float(np.mean(self.values)) if self.values else float("-inf")

    @property
    def completion(self) -> float:
        """Solo: the share of the sampled playouts that completed the horizon's Age (all its Legends written;
        the horizon of Age 3, or of a Legend swap, is the whole campaign)."""
        return float(np.mean([p >= self.goal for p in self.progress])) if self.progress else 0.0

    @property
    def stdev(self) -> float:
        return float(np.std(self.values, ddof=1)) if len(self.values) > 1 else 0.0


def _by_round(rounds: list[int], values: list[float]) -> dict[int, np.ndarray]:
    out: dict[int, list[float]] = {}
    for round_no, value in zip(rounds, values):
        out.setdefault(round_no, []).append(value)
    return {r: np.asarray(v, dtype=np.float64) for r, v in out.items()}


def candidate_plans(state: AetheryaState) -> list[list[int]]:
    """The decisions of the turn sampled in every round: at the turn start, "take" is expanded with each
    placement; where there are many moves (solo placements, Objects and Characters end of turn), a shortlist."""
    return _plans(state)[0]


def _plans(state: AetheryaState) -> tuple[list[list[int]], list[list[int]]]:
    """(shortlisted plans, the other legal moves): the others are sampled in the first round only, so that
    every legal move gets a value (a review needs the value of the move played)."""
    legal = state.legal_actions()
    if state.phase == "choose" and state.mode != "solo":
        plans: list[list[int]] = []
        for action in legal:
            if action in (A_TAKE, A_TAKE2):
                after = state.child(action)
                plans += [[action, place] for place in after.legal_actions()]
            else:
                plans.append([action])
        return plans, []
    short = None
    if state.phase == "end-turn" and len(legal) > MAX_CANDIDATES:
        short = _shortlist_end_turn(state, legal)
    elif state.mode == "solo" and state.phase == "place" and len(legal) > SOLO_SHORTLIST + SOLO_REVEALS:
        short = _shortlist_solo_place(state, legal)
    if short is None:
        return [[a] for a in legal], []
    return [[a] for a in short], [[a] for a in legal if a not in short]


def _shortlist_solo_place(state: AetheryaState, legal: list[int]) -> list[int]:
    """Solo placements worth sampling: the ``SOLO_SHORTLIST`` best placements and the ``SOLO_REVEALS`` best
    reveals by the solo policy's own values (closeness to the Age's Legends from the face-up cards; a reveal at
    its expectation over the unseen cards), so that the policy's move is among them; sampling every one of 25
    moves would leave each too few samples."""
    places, reveals = solo_moves(state, state.hold, state.hold_from == "draw")
    place_value = {A_PLACE + cell: v for v, cell in places}
    reveal_value = {A_REVEAL + cell: v for v, cell in reveals}
    by_value = lambda values: (lambda a: (-values.get(a, -10**9), a))  # noqa: E731
    keep = sorted((a for a in legal if a < A_REVEAL), key=by_value(place_value))[:SOLO_SHORTLIST]
    keep += sorted((a for a in legal if a >= A_REVEAL), key=by_value(reveal_value))[:SOLO_REVEALS]
    return sorted(keep)


def _shortlist_end_turn(state: AetheryaState, legal: list[int]) -> list[int]:
    """Claims, Accords, Staffs, Thief, Trafficker and ``end`` always; the best Hammer swaps and a few
    Griffin and Palantir targets (the ones on the advised player's own kingdom first)."""
    seat = state.to_move
    keep = [a for a in legal if not (A_HAMMER <= a < A_HAMMER + 256 or A_GRIFFIN <= a < A_PEEK + 64)]
    hammers = [a for a in legal if A_HAMMER <= a < A_HAMMER + 256]
    scored = []
    for a in hammers:
        trial = state.clone()
        trial.apply_action(a)
        scored.append((trial.score(seat).total, -a, a))
    keep += [a for _, _, a in sorted(scored, reverse=True)[:8]]
    for base in (A_GRIFFIN, A_PEEK):
        targets = [a for a in legal if base <= a < base + 64]
        own = [a for a in targets if (a - base) // 16 == seat]
        keep += (own + [a for a in targets if a not in own])[:4]
    return sorted(set(keep))


#: the modes whose hints keep the policy's own move unless another is significantly better (the cooperative
#: ones: playouts to the end of a campaign or a co-op game are noisy, and one player's mistake costs the team)
POLICY_MOVE_MODES = ("solo", "coop")


def _mark_policy_move(state: AetheryaState, candidates: list[Candidate], seed: int,
                      action: int | None = None) -> None:
    """Solo and co-op: mark the policy's own move (the greedy player's; at a co-op turn start, its take with the
    placement it then makes, or its draw), sampled in every round even where the shortlist left it out (a tie
    the policy broke its own way). Playouts are noisy, so a hint keeps this move unless another measures
    significantly better (:func:`solver.ranking.recommend`)."""
    trial = state.clone()
    rng = np.random.default_rng(seed)
    if action is None or action not in state.legal_actions():
        action = greedy_action(trial, rng)
    plan = [action]
    if state.phase == "choose" and state.mode != "solo" and action in (A_TAKE, A_TAKE2):
        trial.apply_action(action)
        plan.append(greedy_action(trial, rng))
    for cand in candidates:
        if cand.plan == plan:
            cand.protected = True
            cand.first_round_only = False  # outside the shortlist (a tie the policy broke its own way): sampled
            return
    if state.phase == "place" and action >= A_REVEAL:
        for cand in candidates:
            if cand.plan[0] >= A_REVEAL:
                cand.protected = True
                return


Sampler = Callable[[np.random.Generator], AetheryaState]
#: the search's rounds (solver.ranking): FIRST_ROUND worlds per candidate in the first two, then twice as many each
#: round (at most LARGEST_ROUND), the worse half dropped after each round from the second; at least KEEP candidates
SCHEDULE = Schedule(FIRST_ROUND, largest=64, keep=KEEP, halve_from=2, spend_all=True)
#: rounds of a search given no limit at all
MAX_ROUNDS = 8


def solo_horizon(state: AetheryaState) -> int:
    """The Age (index) a solo hint's playouts stop after: the current one, since a decision mostly decides
    whether its own Age is completed; -1 (the whole campaign) for a Legend swap, which moves a Legend to the
    next Age."""
    return -1 if state.phase == "swap" else int(state.age)


def search(state: AetheryaState, ctx: SearchContext, player: int, sample: Sampler,
           plans: tuple[list[list[int]], list[list[int]]] | None = None,
           top_only: bool = False, policy_move: int | None = None) -> tuple[list[Candidate], dict[str, Any]]:
    """Successive-halving sampling of the turn's plans within the context's limits (:mod:`solver.ranking`).

    ``sample(rng)`` draws a full state from what the advised player knows (or returns the true state in a
    full-information analysis). With a node limit (and no time limit) the search evaluates exactly that many
    playouts (sampled world x plan), the last ones on one more world for the best candidates, whatever the
    machine's speed; solo hints stop earlier when the policy's move passes the screen (:func:`_solo_screen`, the
    first round), and ``top_only`` (the move alone is wanted) then skips valuing the other moves. ``policy_move``
    (solo self-play) is the policy's own move as the greedy player would make it, its ties broken from the game's
    own stream; without it the policy's move breaks its ties from the context's seed.
    """
    short, extras = plans if plans is not None else _plans(state)
    candidates = ([Candidate(plan=plan) for plan in short]
                  + [Candidate(plan=plan, first_round_only=True) for plan in extras])
    if state.phase == "end-turn" and any(A_CLAIM < c.plan[0] <= A_CLAIM + 15 for c in candidates):
        for cand in candidates:
            cand.dominated = cand.plan == [A_END]
    if state.mode in POLICY_MOVE_MODES:
        _mark_policy_move(state, candidates, ctx.seed, policy_move)
    stop_age = solo_horizon(state) if state.mode == "solo" else -1
    if state.mode == "solo":
        for cand in candidates:
            cand.goal = SOLO_GOALS[stop_age] if stop_age >= 0 else SOLO_GOALS[-1]
    rng = np.random.default_rng(ctx.seed)
    nodes = ctx.limits.nodes
    budget = ctx.limits.time_ms / 1000.0 if ctx.limits.time_ms else None
    # the sampling ends by search_end, leaving the time limit's last PLANNER_S + RESULT_S to the planner call
    # and the answer; a world that would run past it is not started, one that does is stopped and dropped
    search_end = None if budget is None else budget - PLANNER_S - RESULT_S

    def hard_stop() -> bool:
        return ctx.cancelled or (search_end is not None and ctx.elapsed() > search_end)

    default = next((c for c in candidates if c.default), None)
    screening = state.mode == "solo" and len(candidates) > 1 and default is not None
    info: dict[str, Any] = {"rounds": 0, "playouts": 0, "worlds": 0, "screen": "none"}
    pace: list[float] = []      # seconds per world and candidate of the last round

    def play(live: list[Candidate], round_no: int, n: int) -> tuple[int, bool]:
        if round_no == 0 and screening:
            def screen_report(done_playouts: int) -> None:
                ctx.maybe_report(lambda: _result(state, [default], player, False, 3, 1, done_playouts,
                                                 len(default.values), ctx, interim=True))

            screen = _solo_screen(candidates, default, sample, rng, stop_age, player, nodes, hard_stop, top_only,
                                  screen_report)
            info["worlds"] += screen["worlds"]
            info["screen"] = ("safe" if default.safe else "cut") if screen["done"] else "failed"
            return screen["playouts"], screen["done"]
        if pace and _no_time_for(ctx, search_end, pace[-1] * len(live)):  # not even one world of this round
            return 0, True
        started = time.perf_counter()
        worlds = [sample(rng) for _ in range(n)]
        seeds = [int(x) for x in rng.integers(0, 2**63, size=n)]
        plans = plan_array([cand.plan for cand in live]) if state.mode in PLAN_MODES else None  # once a round
        done = spent = 0
        for world, seed in zip(worlds, seeds):  # world by world, so that a deadline or terminate cuts the round
            if done and _no_time_for(ctx, search_end, (time.perf_counter() - started) / done):
                break
            count = _evaluate_paired(live, [world], [seed], player, round_no, stop=hard_stop,
                                     keep_partial=info["worlds"] + done == 0, stop_age=stop_age, plans=plans,
                                     consume=True)
            spent += count
            if count < len(live):  # stopped inside the world (its values were dropped, unless it was the first)
                break
            done += 1
            ctx.maybe_report(lambda: _result(state, candidates, player, False, 3, round_no + 1,
                                             info["playouts"] + spent, info["worlds"] + done, ctx, interim=True))
        info["worlds"] += done
        if done:
            pace.append((time.perf_counter() - started) / (len(live) * done))
        unlimited = budget is None and nodes is None and round_no + 1 >= MAX_ROUNDS
        return spent, done < n or ctx.cancelled or ctx.deadline_passed() or unlimited

    progress = successive_halving(candidates, play, SCHEDULE, nodes)
    info["rounds"], info["playouts"] = progress.rounds, progress.spent
    return candidates, info


def _solo_screen(candidates: list[Candidate], default: Candidate, sample: Sampler, rng: np.random.Generator,
                 stop_age: int, player: int, nodes: int | None, hard_stop: Callable[[], bool],
                 top_only: bool, report: Callable[[int], None]) -> dict[str, Any]:
    """Solo: the policy's move alone on ``SOLO_SCREEN`` sampled worlds first. When it completes the horizon's
    Age in every one (``default.safe``), the hint keeps it: the other moves are valued on the same worlds (for
    the answer and reviews; not with ``top_only``) and the search ends. Otherwise the other moves are valued on
    those worlds, as the first round of the successive halving that follows. Returns the counts and ``done``
    (the search is over: safe, or cut by the limits). ``report(playouts)`` is called after each world (the
    interim answer: the policy's move as valued so far)."""
    count = SOLO_SCREEN if nodes is None else max(1, min(SOLO_SCREEN, nodes // len(candidates)))
    worlds = [sample(rng) for _ in range(count)]
    seeds = [int(x) for x in rng.integers(0, 2**63, size=count)]
    playouts = done = 0
    for world, seed in zip(worlds, seeds):
        got = _evaluate_paired([default], [world], [seed], player, 0, stop=hard_stop, keep_partial=done == 0,
                               stop_age=stop_age)
        playouts += got
        if not got or (done and hard_stop()):
            break
        done += 1
        report(playouts)
    default.safe = done == count and all(p >= default.goal for p in default.progress)
    if default.safe and top_only:
        return {"playouts": playouts, "worlds": done, "rounds": 1, "done": True}
    others = [c for c in candidates if c is not default]
    valued = 0
    for world, seed in zip(worlds[:done], seeds[:done]):
        got = _evaluate_paired(others, [world], [seed], player, 0, stop=hard_stop, keep_partial=valued == 0,
                               stop_age=stop_age)
        playouts += got
        if got < len(others):
            break
        valued += 1
        report(playouts)
    if valued:
        for cand in others:  # a world cut short leaves no trace: the paired comparisons need equal lengths
            cand.truncate(valued)
        if valued < done:
            default.truncate(valued)
            default.safe = False
    # else the limits cut the first world while the other moves were valued: keep what it gave (better some
    # moves ranked than none; the paired comparisons use the worlds both moves were played in)
    cut = valued < count or hard_stop()
    return {"playouts": playouts, "worlds": valued, "rounds": 1, "done": default.safe or cut}


def _no_time_for(ctx: SearchContext, search_end: float | None, seconds_per_world: float) -> bool:
    """True when the search must not start another world: terminated, or the world would end past
    ``search_end`` at the pace of the worlds so far."""
    return ctx.cancelled or (search_end is not None and ctx.elapsed() + seconds_per_world > search_end)


def _evaluate_paired(live: list[Candidate], worlds: list[AetheryaState], seeds: list[int], player: int,
                     round_no: int, stop: Callable[[], bool] | None = None, keep_partial: bool = False,
                     stop_age: int = -1, plans: np.ndarray | None = None, consume: bool = False) -> int:
    """One value per (world, candidate): the same world and random numbers for every candidate; each
    candidate's values are appended in world order (as worlds of round ``round_no``), so that candidates can be
    compared world by world.

    In base and co-op each world is packed once and the kernel applies every plan to it, plays its chance nodes
    and the co-op group discard up to the next turn and plays it out, in one call; a plan it leaves (a discard
    pile longer than the packed vector holds), and every plan in solo and Objects, is played on a copy of the full
    state (:func:`play_plan`), then packed.

    ``stop()`` is asked after each such candidate's set-up and after each world; once it is true the evaluation
    ends and nothing is appended, unless
    ``keep_partial`` (the search's very first world: better some values than none), when the candidates
    set up so far get theirs. Returns the number of values appended. ``plans``: the candidates' :func:`plan_array`
    when the caller has it; ``consume``: the worlds are not used again (the last plan a world leaves is played on
    the world itself, not on a copy)."""
    solo = worlds[0].mode == "solo"
    results: dict[tuple[int, int], tuple[float, float]] = {}
    packed, owners, seed_list = [], [], []
    stopped = False
    if plans is None and worlds[0].mode in PLAN_MODES:
        plans = plan_array([cand.plan for cand in live])
    for i, (world, seed) in enumerate(zip(worlds, seeds)):
        rest = list(range(len(live)))
        if plans is not None and packable(world):  # the world packed once, every plan applied in the kernel
            played, status = plan_values(world, plans, seed, stop_age)
            mine = played[:, player].tolist()
            rest = []
            for j, left in enumerate(status.tolist()):
                if left:
                    rest.append(j)
                else:
                    results[i, j] = (float(mine[j]), 0.0)
            if not rest and stop is not None and i < len(worlds) - 1 and stop():
                stopped = True
                break
        for j in rest:  # on the full state: solo and Objects, a discard pile longer than the packed vector holds
            w = play_plan(world if consume and j == rest[-1] else world.clone(), live[j].plan, seed)
            if w.is_terminal():
                results[i, j] = (float(w.returns()[player]), float(solo_progress(w)) if solo else 0.0)
            else:
                packed.append(pack(w))
                owners.append((i, j))
                seed_list.append(seed)
            if stop is not None and stop() and (i, j) != (len(worlds) - 1, len(live) - 1):
                stopped = True
                break
        if stopped:
            break
    if stopped and not keep_partial:
        return 0
    values = np.zeros((len(packed), 4), dtype=np.int32)
    for start in range(0, len(packed), PLAYOUT_CHUNK):  # rows are independent: chunks give the same values
        if start and stop is not None and not keep_partial and stop():
            return 0
        values[start:start + PLAYOUT_CHUNK] = playout_values(packed[start:start + PLAYOUT_CHUNK],
                                                             seed_list[start:start + PLAYOUT_CHUNK], stop_age)
    for row, key in enumerate(owners):
        results[key] = (float(values[row][player]), float(values[row][1]) if solo else 0.0)
    appended = 0
    for i in range(len(worlds)):
        for j, cand in enumerate(live):
            if (i, j) not in results:
                continue
            value, progress = results[i, j]
            cand.record(round_no, value, progress if solo else None)
            appended += 1
    return appended


def solo_bar(compared: int) -> float:
    """Standard errors by which the best of ``compared`` other moves must beat the solo policy's move to replace
    it: one-sided, Bonferroni over the moves compared, ``SOLO_ALPHA`` in all (0.84 for one other move, 2.0 for
    nine, 2.4 for a Legend swap's two dozen). At a flat bar the best of ten noisy moves beat the policy's move
    by luck at most risky decisions; at 1 SE the hint departed in every campaign and won no more than greedy."""
    return NormalDist().inv_cdf(1.0 - SOLO_ALPHA / max(1, compared))


# ---------------------------------------------------------------------- presenting
def _is_claim(cand: Candidate) -> bool:
    return A_CLAIM < cand.plan[0] <= A_CLAIM + 15 or A_CLAIM_SWORD < cand.plan[0] <= A_CLAIM_SWORD + 15


def _ranked(candidates: list[Candidate]) -> list[Candidate]:
    """The sampled candidates in the order shown (:func:`solver.ranking.recommend` and ``display_order``), each
    with a note where the values alone do not explain it.

    The first: solo and co-op, the policy's move unless another is significantly better on the same sampled
    worlds (solo by :func:`solo_bar` standard errors of the moves compared; never when the screen found it
    completing the Age in every screened world); otherwise the best, unless another is significantly better.
    The rest follow their ranking values (solo: Age completed, then Legends written, then score). ``end`` while
    a Legend can be claimed comes after the claims unless it measures significantly better than the best of them.
    """
    for cand in candidates:  # recomputed at each call: an interim report must not change the final answer
        cand.notes = []
        cand.after_claims = False
    measured = [c for c in candidates if c.values]
    default = next((c for c in measured if c.default), None)
    if default is not None and default.safe:
        first = default
    else:
        bar = Z
        if default is not None and default.progress:
            bar = solo_bar(sum(1 for c in measured if c is not default and len(c.values) >= FIRST_ROUND))
        first = recommend(measured, bar, min_samples=FIRST_ROUND)
    order = display_order(measured, first)
    claims = [c for c in order if _is_claim(c)]
    for end in [c for c in order if c.dominated]:
        if claims and order.index(end) < order.index(claims[-1]) and not significantly_better(end, claims[0]):
            order.remove(end)
            order.insert(order.index(claims[-1]) + 1, end)
            end.after_claims = True
    _note_order(order)
    return order


def _note_order(order: list[Candidate]) -> None:
    """Say why a move is listed where its value alone does not put it (issue 22: the order is the order of the
    values shown, or one plain sentence says why); the others say whether they are within noise of the first."""
    if not order:
        return
    first = order[0]
    if first.default and first.safe:
        first.notes.append(f"the policy's move: it completed the Age in all {len(first.values)} screened worlds, so "
                           "the hint keeps it")
    for i, cand in enumerate(order[1:], 1):
        # a lower value listed above this move: the first says why it is first itself; the others are ranked by
        # the ranking's values (solo: the Age completed and Legends written before the score)
        lower = next((c for c in order[1:i] if round(c.score, 3) < round(cand.score, 3)), None)
        if cand.after_claims:
            diff = paired(cand, first, _scores)
            gap = ("" if diff is None else
                   f" ({POINTS.signed(diff.mean)}, 95% interval {POINTS.interval(*diff.interval())})")
            cand.notes.append(f"listed after the claims although its value is higher{gap}: not significantly better, "
                              "and a Legend claimed now is held for good")
        elif lower is not None and cand.progress:
            cand.notes.append(f"listed below {_label(lower)}, whose value is lower: moves are ranked by the Age "
                              f"completed ({lower.completion:.0%} against {cand.completion:.0%}), then Legends "
                              f"written ({np.mean(lower.progress):.2f} against {np.mean(cand.progress):.2f})")
        elif lower is not None:
            cand.notes.append(f"listed below {_label(lower)}, whose value is lower: a Legend claimed now comes "
                              "before ending the turn")
        else:
            note = standing_note(cand, first, _label, POINTS, "sampled worlds", _scores)
            if note:
                cand.notes.append(note)
    _note_first(order)


def _scores(cand: Arm) -> dict[int, np.ndarray]:
    return cand.score_samples()


def _label(cand: Arm) -> str:
    return f"'{cand.label}'" if getattr(cand, "label", "") else "the move above"


def _note_first(order: list[Candidate]) -> None:
    """The first move's reason says why it is first when a move listed below it shows a higher value."""
    first = order[0]
    higher = max(order[1:], key=lambda c: c.score, default=None)
    if higher is None or round(higher.score, 3) <= round(first.score, 3) or first.safe:
        return
    if first.progress and higher.progress and first.mean > higher.mean:
        first.notes.append(f"listed first although {_label(higher)} shows more: moves are ranked by the Age "
                           f"completed ({first.completion:.0%} against {higher.completion:.0%}), then Legends "
                           f"written ({np.mean(first.progress):.2f} against {np.mean(higher.progress):.2f})")
        return
    why = ("; the policy's move stays first unless another is significantly better on the same sampled worlds "
           "(whole playouts are noisy)" if first.default else "")
    note = first_note(order, _label, POINTS, "sampled worlds", why, lambda c: c.score, _scores)
    if note:
        first.notes.append(note)


def _result(state: AetheryaState, candidates: list[Candidate], player: int, full: bool, top: int, rounds: int,
            playouts: int, worlds: int, ctx: SearchContext, interim: bool = False,
            extra_root: dict[str, Any] | None = None, plan_offset: int = 0,
            root_filter: Callable[[int], bool] | None = None, shown: AetheryaState | None = None) -> HintResult:
    """The hint's JSON: the best plan under each first move, ranked. ``plan_offset`` 1 with ``root_filter``
    and ``shown`` (the position after the plans' first action) presents the second actions of the plans kept:
    a placement ranked within the plans of the turn start."""
    shown = shown or state
    kept = [c for c in candidates if root_filter is None or root_filter(c.plan[0])]
    for cand in kept:
        cand.label = shown.action_to_string(cand.plan[plan_offset])
    by_root: dict[int, list[Candidate]] = {}
    for cand in _ranked(kept):
        by_root.setdefault(cand.plan[plan_offset], []).append(cand)
    groups = list(by_root.values())
    best_cand = groups[0][0] if groups else None
    infos = []
    for rank, cands in enumerate(groups[:top]):  # only the moves shown are explained (an interim report too)
        best = cands[0]
        plan = best.plan[plan_offset:]
        n = len(best.values)
        half = 1.96 * best.stdev / math.sqrt(n) if n > 1 else None
        interval = None if half is None else [round(best.score - half, 3), round(best.score + half, 3)]
        extra: dict[str, Any] = {"valueStdev": round(best.stdev, 3), "samples": n, "ci95": interval,
                                 "valueCI": interval}
        if best.progress:
            extra["legendsWritten"] = round(float(np.mean(best.progress)), 3)
            extra["campaignCompleted" if best.goal == SOLO_GOALS[-1] else "ageCompleted"] = round(best.completion, 3)
        if best.default:
            extra["policyMove"] = True
        loss = loss_to_first(best_cand, best, _scores)
        extra["lossToFirst"] = loss
        if best is not best_cand and loss["ci"] is not None and loss["ci"][0] <= 0:
            extra["withinNoiseOfBest"] = True
        if len(cands) > 1:
            extra["plans"] = [{"pv": _pv(shown, c.plan[plan_offset:]), "value": round(c.score, 3),
                               "samples": len(c.values)} for c in cands[:3]]
        why = explain(shown, plan, best.score, best.stdev, float(np.mean(best.progress)) if best.progress else None,
                      dominated_end=best.after_claims)
        if best.notes:
            why = f"{why}; " + "; ".join(best.notes)
        infos.append(MoveInfo(move=best.label, value=round(best.score, 3), pv=_pv(shown, plan), why=why,
                              extra=extra))
    infos = infos[:top]
    root = {
        "player": player, "phase": shown.phase, "fullInformation": full,
        "valueMeaning": _meaning(state, player, kept[0].goal if kept else SOLO_GOALS[-1]), "valueUnit": "points",
        "currentScore": shown.score(player).total if state.mode != "solo" else shown.score(0).total,
        "rounds": rounds, "playouts": playouts, "worlds": worlds, "nodes": ctx.limits.nodes,
        "seconds": round(ctx.elapsed(), 3),
        "candidates": len(by_root), "method": "determinised sampling with greedy playouts "
                                              "(compiled kernel), successive halving",
    }
    if extra_root:
        root.update(extra_root)
    return HintResult(game=state.game.spec(), move_infos=infos, root_info=root, is_during_search=interim)


def _meaning(state: AetheryaState, player: int, goal: int = 15) -> str:
    if state.mode == "coop":
        return "expected team score (lowest player score minus the discarded Legends' points), higher is better"
    if state.mode == "solo" and goal != SOLO_GOALS[-1]:
        age = SOLO_GOALS.index(goal) + 1
        return (f"expected score of the finished Ages at the end of Age {age}, where the playouts stop (the sum "
                "of their Age scores; 0 if an Age fails); moves are ranked by the share of sampled playouts that "
                f"complete Age {age} first (ageCompleted: all its Legends written), then by the Legends written "
                f"by then (legendsWritten, of {goal}), then by value")
    if state.mode == "solo":
        return ("expected campaign score (sum of the Age scores; 0 if an Age fails); moves are ranked by the "
                "share of sampled campaigns completed first (campaignCompleted: all 15 Legends written), then by "
                "the expected number of Legends written over the campaign (legendsWritten), then by value")
    return f"expected final score of player {player} (Harmony points, Legends included)"


def solo_progress(state: AetheryaState) -> int:
    """Legends written over a solo campaign so far (finished Ages count in full)."""
    return sum(len(state.rows[i]) for i in range(state.age)) + len(state.written)


def _uncovers(state: AetheryaState, action: int) -> bool:
    """True for the actions whose outcome shows the player something hidden (a revealed card, a Griffin's tile)."""
    return (state.phase == "place" and action >= A_REVEAL) or (state.phase == "end-turn" and A_GRIFFIN <= action < A_PEEK)


def _pv(state: AetheryaState, plan: list[int]) -> list[str]:
    out, s, uncovered = [], state.clone(), False
    for action in plan:
        out.append(s.action_to_string(action))
        uncovered |= _uncovers(s, action)
        s.apply_action(action)
    if s.phase == "draw" and s.mode == "solo":
        out.append("(keep the better of the two cards and play it)")
    elif s.phase == "draw":
        out.append("(place the drawn card where it scores best, or reveal a territory)")
    elif uncovered and not s.is_terminal() and s.phase != "tile":
        # what follows depends on the card (or tile) uncovered, which the player does not know yet
        out.append("(the best Legend or tile, if any)" if s.mode == "objects" else "(the best Legend, if any)")
    elif s.phase == "end-turn":
        out.append("(the best Legend or tile)" if s.mode == "objects" else "(the best Legend)")
    return out


def explain(state: AetheryaState, plan: list[int], mean: float, stdev: float, progress: float | None = None,
            dominated_end: bool = False) -> str:
    """A one-line human reason for a plan: what it does, what it aims at, and its expected final value."""
    seat = state.to_move
    s = state.clone()
    before = s.score(seat)
    words = []
    # the cells still unknown to the player after the plan: a revealed card is not known before it is revealed,
    # and an end of the game (or of a solo Age) that turns every card over shows nothing the plan could use
    unknown = state.hidden[seat]
    griffin_taken: list[int] = []
    for i, action in enumerate(plan):
        text = s.action_to_string(action)
        if action in (A_TAKE, A_TAKE2):
            where = s.child(action).action_to_string(plan[i + 1]).split()[1] if i + 1 < len(plan) else "?"
            words.append(f"the discard {_card_name(s.discards[action - A_TAKE][-1])} on {where}")
        elif action == A_DRAW and s.phase == "choose":
            words.append("a fresh card from the pile, then placed where it scores best (or a territory revealed)")
        elif action == A_TAKE_DRAW:
            words.append(f"the discard {_card_name(s.discards[0][-1])} plus one card: the pile lasts longer")
        elif action == A_DRAW2:
            words.append("two fresh cards, but the Age ends sooner")
        elif A_CLAIM < action <= A_CLAIM + 15 or A_CLAIM_SWORD < action <= A_CLAIM_SWORD + 15:
            number = action - (A_CLAIM_SWORD if action > A_CLAIM_SWORD else A_CLAIM)
            words.append(f"writes {legend_card(number).title} ({legend_card(number).points} pts)")
        elif s.phase == "tile" and s.pending_tile >= 0 and tile_kind(s.pending_tile) in STONES:
            words.append(_stone_reason(s, action == A_TILE_TAKE))
        elif action == A_END and dominated_end:
            words.append("ends the turn without writing the Legend it could claim")
        elif action == A_END and any(A_CLAIM < a <= A_CLAIM + 15 for a in s.legal_actions()):
            words.append("ends the turn without writing a Legend: the playouts find no loss in waiting")
        elif action == A_END:
            words.append("nothing left that pays this turn")
        elif s.phase == "place" and text.startswith("reveal"):
            words.append(_reveal_reason(s, text.split()[1]))
        elif s.phase == "place" and A_PLACE <= action < A_REVEAL and not (i and plan[i - 1] in (A_TAKE, A_TAKE2)):
            cell = (action - A_PLACE) % 16
            covered = "a face-down card" if s.hidden[seat] >> cell & 1 else f"the {_card_name(s.kingdoms[seat][cell])}"
            words.append(f"the {_card_name(s.hold)} on {CELL_NAMES[cell]} (replacing {covered})")
        if s.phase == "place" and A_PLACE <= action < A_REVEAL:
            unknown &= ~(1 << ((action - A_PLACE) % 16))
        if s.phase == "end-turn" and A_GRIFFIN <= action < A_PEEK:
            q, cell = divmod(action - A_GRIFFIN, 16)
            griffin_taken.append(s.territory_tiles[q][cell])
        s.apply_action(action)
        if s.is_chance_node():
            break
    s.hidden[seat] = unknown
    for tile in griffin_taken:  # its tile is face down until taken: it is no part of the reason
        if tile in s.owned[seat]:
            s.owned[seat].remove(tile)
    after = s.score(seat)
    deltas = [f"{name} {a - b:+d}" for name, a, b in zip(CATEGORIES, after.categories, before.categories) if a != b]
    change = after.total - before.total
    now = f"{change:+d} now" + (f" ({', '.join(deltas[:3])})" if deltas else "")
    if state.mode == "solo" and s.phase != "over" and s.age == state.age:
        now = f"{now}; {_solo_progress_words(s)}"
    elif state.mode != "solo" and s.phase != "over":
        aim = _aim_words(state, s, seat)
        if aim:
            now = f"{now}; {aim}"
    text = "; ".join(words + [now]) if words else now
    tail = f" ({progress:.1f} Legends written)" if progress is not None else ""
    return f"{text}; expected {mean:.1f} ± {stdev:.1f}{tail}"


def unseen_counts(state: AetheryaState, seat: int) -> list[int]:
    """Copies of each kind ``seat`` may still get: not face up in any kingdom, not buried in a discard pile
    (a pile's top can still be taken), from public information only."""
    avail = deck_counts(2 if state.mode == "solo" else state.players)
    for q in range(state.players):
        for c in range(16):
            card = state.kingdoms[q][c]
            if card >= 0 and not state.hidden[q] >> c & 1:
                avail[card] -= 1
    for pile in state.discards:
        for card in pile[:-1]:
            avail[card] -= 1
    if state.hold >= 0:
        avail[state.hold] -= 1
    return [max(0, a) for a in avail]


def _aim_words(before: AetheryaState, after: AetheryaState, seat: int) -> str:
    """Which face-up Legend the plan brings closer (the fewest cards still to place, by the solo policy's measure
    applied to the Legend row), or which it makes writable."""
    row = list(before.row)
    if not row:
        return ""
    avail = unseen_counts(before, seat)
    need_before = legend_needs(before.kingdoms[seat], before.hidden[seat], avail)
    need_after = legend_needs(after.kingdoms[seat], after.hidden[seat], avail)
    gained = [n for n in row if need_after[n] < need_before[n]]
    if not gained:
        return ""
    n = min(gained, key=lambda k: (need_after[k], -legend_card(k).points, k))
    d = need_after[n]
    where = "writable now" if d == 0 else f"{d} card{'s' if d > 1 else ''} away"
    return f"aims at {legend_card(n).slug} ({legend_card(n).points} pts, {where})"


def _reveal_reason(state: AetheryaState, cell: str) -> str:
    """Why the drawn card is discarded: it improves no cell (true only when no placement raises the value), or
    its best cell gains less than exploring is expected to."""
    seat, card = state.to_move, state.hold
    if state.mode == "solo":
        options = [(v, c) for v, c in solo_options(state, card, True) if c >= 0]
        reveal = max((v for v, c in solo_options(state, card, True) if c < 0), default=None)
        best = max(options, default=None)
        if best is None or (reveal is not None and best[0] <= reveal - 30):
            return f"the drawn {_card_name(card)} brings no Legend closer; exploring {cell}"
        return f"the drawn {_card_name(card)} would go best on {CELL_NAMES[best[1]]}, but exploring {cell} pays more later"
    now = current_value(state, seat)
    options = placements(state, seat, card)
    best_cell, best_value = max(options, key=lambda o: (o[1], -o[0])) if options else (-1, now)
    if best_value <= now:
        return f"the drawn {_card_name(card)} improves no cell; exploring {cell}"
    return (f"the drawn {_card_name(card)} would give +{best_value - now} on {CELL_NAMES[best_cell]}, but exploring "
            f"{cell} measures better")


def _solo_progress_words(s: AetheryaState) -> str:
    """How far the Age's Legends still to write are after a plan (face-up cards only): writable now, one card
    away, further."""
    left = solo_left(s)
    if not left:
        return "every Legend of the Age is written"
    need = legend_needs(s.kingdoms[0], s.hidden[0], solo_avail(s))
    groups: dict[str, list[str]] = {}
    for n in range(1, 16):
        if left >> n & 1:
            d = need[n]
            label = "writable" if d == 0 else "1 card away" if d == 1 else f"{d} cards away" if d < 99 else \
                "out of reach"
            groups.setdefault(label, []).append(legend_card(n).slug)
    order = ["writable", "1 card away"] + [f"{d} cards away" for d in range(2, 17)] + ["out of reach"]
    return "Legends " + ", ".join(f"{label}: {' '.join(groups[label])}" for label in order if label in groups)


def _card_name(code: int) -> str:
    return CARD_NAMES[code]


def _stone_reason(state: AetheryaState, take: bool) -> str:
    seat = state.to_move
    held = sum(stone_value(tile_kind(t)) for t in state.owned[seat])
    x = stone_value(tile_kind(state.pending_tile))
    future = unseen_stones(state, seat)
    base = held + (x if take else 0)
    best, subset = best_stone_value(base, future)
    verb = "keeping" if take else "refusing"
    rest = f", then {'+'.join(map(str, subset))}" if subset else ""
    return f"{verb} the {x}-Stone: Stones now {base % 10}, best reachable {best}{rest}"


def power_stones(state: AetheryaState, seat: int) -> dict[str, Any]:
    """The exact best Power Stone set for ``seat`` (AE-30): kept Stones, unseen Stones, the best to add."""
    held = sorted(stone_value(tile_kind(t)) for t in state.owned[seat] if tile_kind(t) in STONES)
    unseen = unseen_stones(state, seat)
    offered = []
    if state.phase == "tile" and state.to_move == seat and tile_kind(state.pending_tile) in STONES:
        offered = [stone_value(tile_kind(state.pending_tile))]
    best, subset = best_stone_value(sum(held), offered + unseen)
    return {"held": held, "value": sum(held) % 10, "offered": offered, "unseen": unseen, "bestReachable": best,
            "bestToAdd": subset,
            "takeOffered": bool(offered) and (best_stone_value(sum(held) + offered[0], unseen)[0], (sum(held) + offered[0]) % 10)
            >= (best_stone_value(sum(held), unseen)[0], sum(held) % 10)}


def hint_view(game: Game, view: AetheryaView, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
    """Rank the decisions of the view's observer from that view alone: hidden cards are sampled with
    ``view.resample`` and the representative position is read only where the view decides it (AE-22)."""
    state = view.rep
    if view.is_terminal():
        raise UnsupportedActionError("state.phase", state.phase, "the game is over: nothing to hint")
    if view.current_player() == CHANCE_PLAYER:
        expected = ", ".join(view.legal_moves()[:4])
        raise InvalidInputError("state.phase", state.phase, "the view waits for what happens next at the table "
                                                            f"(enter it first, e.g. {expected})")
    if state.to_move != view.observer:
        raise InvalidInputError("player", view.observer, f"it is seat {state.to_move}'s decision; this is player "
                                                         f"{view.observer}'s view")
    if state.phase == "place" and state.hold_from == "take" and state.mode != "solo":
        return _hint_after_take(view, ctx, top)
    return _hint(state, ctx, top, view.observer, view.resample, full=False)


def _hint_after_take(view: AetheryaView, ctx: SearchContext, top: int) -> HintResult:
    """A placement after 'take' is ranked within the search of the turn start (the same worlds, plans and
    budget as the hint asked before 'take'), so the cell that hint planned is the one ranked first here: taking
    a face-up card shows nothing new."""
    before = view.clone()
    rep = before.rep
    pile = rep.hold_pile
    rep.discards[pile].append(rep.hold)
    rep.hold, rep.hold_from, rep.hold_pile, rep.phase = -1, "", 0, "choose"
    canonicalize(before)
    take = A_TAKE + pile
    result = _hint(before.rep, ctx, top, view.observer, before.resample, full=False, plan_offset=1,
                   root_filter=lambda a: a == take, shown=view.rep)
    if not result.move_infos:  # a budget too small to reach a plan that takes this card: rank the placements
        return _hint(view.rep, ctx, top, view.observer, view.resample, full=False)
    result.root_info["rankedWithin"] = ("the plans of the turn start that take this card (same worlds and "
                                        "budget as the hint before 'take')")
    return result


def hint_full(game: Game, state: AetheryaState, ctx: SearchContext, *, top: int = 3, player: int | None = None,
              **options: Any) -> HintResult:
    """A full-information analysis: the true hidden cards, only the future draws random."""
    if state.is_terminal():
        raise UnsupportedActionError("state.phase", state.phase, "the game is over: nothing to hint")
    if state.is_chance_node():
        raise InvalidInputError("state.phase", state.phase, "the state waits for a card (or Legend, or tile) to be "
                                                            "dealt: apply the chance outcome first")
    seat = state.to_move
    if player is None:
        player = seat
    if isinstance(player, bool) or not isinstance(player, int) or player != seat:
        raise InvalidInputError("player", player, f"hints rank the decisions of the player to act (seat {seat})")
    return _hint(state, ctx, top, player, lambda rng: state.clone(), full=True)


def _hint(state: AetheryaState, ctx: SearchContext, top: int, player: int, sample: Sampler, full: bool,
          plan_offset: int = 0, root_filter: Callable[[int], bool] | None = None,
          shown: AetheryaState | None = None) -> HintResult:
    seat = state.to_move
    candidates, info = search(state, ctx, player, sample)
    rng = np.random.default_rng(ctx.seed + 1)
    world = sample(rng)
    extra: dict[str, Any] = {}
    if state.mode == "solo":
        age = solo_horizon(state)
        extra["horizon"] = "the whole campaign" if age < 0 or age == 2 else f"the end of Age {age + 1}"
        extra["screen"] = info["screen"]
    if min(world.kingdoms[seat]) >= 0:
        time_ms, nodes = _planner_limits(ctx)
        extra["kingdomPotential"] = kingdom_potential(world, seat, rng, time_ms=time_ms, nodes=nodes).to_json()
        extra["kingdomPotential"]["meaning"] = ("best score of this player's 16 cards rearranged (face-down cards "
                                                + ("as they are" if full else "sampled once")
                                                + "; locked Portals and Dragons in place)")
    if state.mode == "objects":
        extra["powerStones"] = power_stones(state, seat)
    return _result(state, candidates, player, full, top, info["rounds"], info["playouts"], info["worlds"], ctx,
                   extra_root=extra, plan_offset=plan_offset, root_filter=root_filter, shown=shown)


def _planner_limits(ctx: SearchContext) -> tuple[int | None, int | None]:
    """``(time_ms, nodes)`` of the planner call. A node-limited hint is reproducible: its planner call is
    node-limited too (``PLANNER_NODES``), within what is left of the hint's time limit when it has one (a node
    budget never gets around the time) and at once when terminated; otherwise :func:`_planner_ms`."""
    if ctx.limits.nodes is None:
        return _planner_ms(ctx), None
    if ctx.cancelled:
        return 1, PLANNER_NODES
    left = ctx.remaining()
    return (None if left is None else int(max(1, (left - RESULT_S) * 1000))), PLANNER_NODES


def _planner_ms(ctx: SearchContext) -> int:
    """The planner call's time: ``PLANNER_MS``, less when the time limit is nearly used up (1 ms when
    terminated: the quick local search only, no proof)."""
    if ctx.cancelled:
        return 1
    left = ctx.remaining()
    if left is None:
        return PLANNER_MS
    return int(max(1, min(PLANNER_MS, (left - RESULT_S) * 1000)))


def best_move(state: AetheryaState, ctx: SearchContext, full_information: bool = False,
              policy_move: int | None = None) -> int:
    """The action the hint ranks first (``hint(...).best``) for the player to act, from the same search and
    ranking, without what only the answer needs (the explanations, the planner's kingdom potential): for
    self-play, which uses the move alone. A placement after ``take`` (ranked within the turn start's search)
    goes through the hint itself. ``policy_move``: see :func:`search`."""
    seat = state.to_move
    if full_information:
        if state.is_terminal() or state.is_chance_node():
            return state.parse_move(hint_full(state.game, state, ctx, top=1).best.move)  # the hint's own error
        candidates, _ = search(state, ctx, seat, lambda rng: state.clone(), top_only=True, policy_move=policy_move)
    else:
        view = state.view(seat)
        rep = view.rep
        if view.is_terminal() or view.current_player() == CHANCE_PLAYER or rep.to_move != seat \
                or (rep.phase == "place" and rep.hold_from == "take" and rep.mode != "solo"):
            return state.parse_move(hint_view(state.game, view, ctx, top=1).best.move)
        candidates, _ = search(rep, ctx, seat, view.resample, top_only=True, policy_move=policy_move)
    return _ranked(candidates)[0].plan[0]


def hint(state: AetheryaState, ctx: SearchContext, top: int = 3, player: int | None = None,
         full_information: bool = False) -> HintResult:
    """The hint on a full state: by definition the hint on the view of the player to act (or
    :func:`hint_full` with ``full_information``)."""
    if full_information:
        return hint_full(state.game, state, ctx, top=top, player=player)
    seat = state.to_move if player is None else player
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidInputError("player", player, f"expected a seat 0..{state.players - 1}")
    return hint_view(state.game, state.view(seat), ctx, top=top)
