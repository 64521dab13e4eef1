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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.aetherya.cards import CATEGORIES
from solver.aetherya.planner import PLANNER_NODES, kingdom_potential
from solver.aetherya.playout import advance_to_turn_start, greedy_action, pack, playout_values, unseen_stones
from solver.aetherya.rules import legend_card
from solver.aetherya.state import (A_CLAIM, A_CLAIM_SWORD, A_DRAW, A_DRAW2, A_END, A_GRIFFIN, A_HAMMER, A_PEEK,
                                   A_PLACE, A_REVEAL, A_TAKE, A_TAKE2, A_TAKE_DRAW, A_TILE_TAKE, AetheryaState)
from solver.aetherya.tiles import STONES, best_stone_value, stone_value, tile_kind
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext

FIRST_ROUND = 6
MAX_CANDIDATES = 40
#: solo ranking: one more Legend written (on average) outweighs any campaign-score difference
SOLO_LEGEND_WEIGHT = 100
#: solo placements sampled by a hint: the best by the policy's value, plus a few reveals
SOLO_SHORTLIST = 8
SOLO_REVEALS = 2
#: time kept, within a hint's time limit, for the planner call that follows the search
PLANNER_S = 0.05


@dataclass
class Candidate:
    """A plan (actions from the root) and the final values measured for it."""

    plan: list[int]
    values: list[float] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)  # solo: Legends written over the campaign
    dropped_round: int = -1
    dominated: bool = False  # 'end' while a Legend can be claimed: claiming is never worse
    default: bool = False  # solo: the solo policy's own move, kept unless another is significantly better

    @property
    def utilities(self) -> list[float]:
        """Per sampled world, what the ranking maximises (solo: Legends written first, see :attr:`key`)."""
        if self.progress:
            return [SOLO_LEGEND_WEIGHT * p + v for p, v in zip(self.progress, self.values)]
        return list(self.values)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else float("-inf")

    @property
    def key(self) -> float:
        """Ranking key: the expected value; in solo the Legends written come first (AE-34: a campaign that
        misses one Legend is lost, whatever its kingdoms score), so the key is the mean of
        ``SOLO_LEGEND_WEIGHT`` x Legends written + campaign score."""
        if self.progress:
            return round(SOLO_LEGEND_WEIGHT * float(np.mean(self.progress)) + self.mean, 9)
        return round(self.mean, 9)

    @property
    def completion(self) -> float:
        """Solo: the share of the sampled campaigns that wrote all 15 Legends."""
        return float(np.mean([p >= 15 for p in self.progress])) if self.progress else 0.0

    @property
    def stdev(self) -> float:
        return float(np.std(self.values, ddof=1)) if len(self.values) > 1 else 0.0


def candidate_plans(state: AetheryaState) -> list[list[int]]:
    """Every decision of the turn as plans: at the turn start, "take" is expanded with each placement."""
    legal = state.legal_actions()
    if state.phase == "choose" and state.mode != "solo":
        plans: list[list[int]] = []
        for action in legal:
            if action in (A_TAKE, A_TAKE2):
                after = state.child(action)
                plans += [[action, place] for place in after.legal_actions()]
            else:
                plans.append([action])
        return plans
    if state.phase == "end-turn" and len(legal) > MAX_CANDIDATES:
        return [[a] for a in _shortlist_end_turn(state, legal)]
    if state.mode == "solo" and state.phase == "place" and len(legal) > SOLO_SHORTLIST + SOLO_REVEALS:
        return [[a] for a in _shortlist_solo_place(state, legal)]
    return [[a] for a in legal]


def _shortlist_solo_place(state: AetheryaState, legal: list[int]) -> list[int]:
    """Solo placements worth sampling: the ``SOLO_SHORTLIST`` best by the solo policy's value (closeness to the
    Age's Legends, from the face-up cards only) and up to ``SOLO_REVEALS`` reveals (the face-down cells with the
    most face-up neighbours); sampling every one of 25 moves would leave each too few samples."""
    from solver.aetherya.playout import solo_options
    values = {cell: v for v, cell in solo_options(state, state.hold, state.hold_from == "draw")}
    places = sorted((a for a in legal if a < A_REVEAL), key=lambda a: (-values.get(a - A_PLACE, -10**9), a))
    keep = places[:SOLO_SHORTLIST]
    reveals = [a for a in legal if a >= A_REVEAL]
    if reveals:
        hidden = state.hidden[0]

        def open_neighbours(a: int) -> int:
            cell = a - A_REVEAL
            row, col = divmod(cell, 4)
            near = [(row + dr) * 4 + col + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                    if 0 <= row + dr < 4 and 0 <= col + dc < 4]
            return sum(1 for n in near if not hidden >> n & 1)
        keep += sorted(reveals, key=lambda a: (-open_neighbours(a), a))[:SOLO_REVEALS]
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


def _mark_policy_move(state: AetheryaState, candidates: list[Candidate], seed: int) -> None:
    """Solo: mark the solo policy's own move (a reveal stands for any reveal: the policy picks its cell at
    random). Whole-campaign playouts are noisy, so a hint keeps this move unless another measures significantly
    better (:func:`_significantly_better`)."""
    action = greedy_action(state.clone(), np.random.default_rng(seed))
    for cand in candidates:
        if cand.plan == [action]:
            cand.default = True
            return
    if state.phase == "place" and action >= A_REVEAL:
        for cand in candidates:
            if cand.plan[0] >= A_REVEAL:
                cand.default = True
                return


def _worlds(state: AetheryaState, player: int, full: bool, rng: np.random.Generator, n: int) -> list[AetheryaState]:
    return [state.clone() if full else state.resample_from_observation(player, rng) for _ in range(n)]


def search(state: AetheryaState, ctx: SearchContext, player: int, full_information: bool,
           top: int) -> tuple[list[Candidate], dict[str, Any]]:
    """Successive-halving sampling of the turn's plans within the context's limits."""
    candidates = [Candidate(plan) for plan in candidate_plans(state)]
    if state.phase == "end-turn" and any(A_CLAIM < c.plan[0] <= A_CLAIM + 15 for c in candidates):
        for cand in candidates:
            cand.dominated = cand.plan == [A_END]
    if state.mode == "solo":
        _mark_policy_move(state, candidates, ctx.seed)
    rng = np.random.default_rng(ctx.seed)
    budget = ctx.limits.time_ms / 1000.0 if ctx.limits.time_ms else None
    live = list(candidates)
    rounds = playouts = worlds_seen = 0
    batch = FIRST_ROUND
    while True:
        started = time.perf_counter()
        worlds = _worlds(state, player, full_information, rng, batch)
        seeds = [int(x) for x in rng.integers(0, 2**63, size=batch)]
        playouts += _evaluate_paired(live, worlds, seeds, player)
        worlds_seen += batch
        rounds += 1
        seconds_per_unit = (time.perf_counter() - started) / (len(live) * batch)
        if len(live) > top and rounds >= 2:
            live.sort(key=lambda c: (c.default, c.key), reverse=True)  # the policy's move is never dropped
            keep = max(top, math.ceil(len(live) / 2))
            for cand in live[keep:]:
                cand.dropped_round = rounds
            live = live[:keep]
            batch = min(batch * 2, 64)
        ctx.maybe_report(lambda: _result(state, candidates, player, full_information, top, rounds, playouts,
                                         worlds_seen, ctx, interim=True))
        if ctx.should_stop(playouts):
            break
        if budget is not None and ctx.elapsed() + seconds_per_unit * len(live) * batch > budget * 0.9 - PLANNER_S:
            break
        if budget is None and ctx.limits.nodes is None and rounds >= 8:
            break
    return candidates, {"rounds": rounds, "playouts": playouts, "worlds": worlds_seen}


def _evaluate_paired(live: list[Candidate], worlds: list[AetheryaState], seeds: list[int], player: int) -> int:
    """One value per (world, candidate): the same world and random numbers for every candidate; each
    candidate's values are appended in world order, so that candidates can be compared world by world."""
    solo = worlds[0].mode == "solo"
    results: dict[tuple[int, int], tuple[float, float]] = {}
    packed, owners, seed_list = [], [], []
    for i, (world, seed) in enumerate(zip(worlds, seeds)):
        for j, cand in enumerate(live):
            w = world.clone()
            for action in cand.plan:
                w.apply_action(action)
            advance_to_turn_start(w, np.random.default_rng(seed))
            if w.is_terminal():
                results[i, j] = (float(w.returns()[player]), float(solo_progress(w)) if solo else 0.0)
            else:
                packed.append(pack(w))
                owners.append((i, j))
                seed_list.append(seed)
    values = playout_values(packed, seed_list)
    for row, key in enumerate(owners):
        results[key] = (float(values[row][player]), float(values[row][1]) if solo else 0.0)
    for i in range(len(worlds)):
        for j, cand in enumerate(live):
            value, progress = results[i, j]
            cand.values.append(value)
            if solo:
                cand.progress.append(progress)
    return len(worlds) * len(live)


def _significantly_better(cand: Candidate, default: Candidate) -> bool:
    """True when ``cand`` beats ``default`` on the worlds both were played in, by more than two standard errors
    of the paired differences of their ranking utilities."""
    n = min(len(cand.values), len(default.values))
    if n < FIRST_ROUND:
        return False
    diffs = np.asarray(cand.utilities[:n]) - np.asarray(default.utilities[:n])
    spread = float(np.std(diffs, ddof=1)) / math.sqrt(n)
    return float(np.mean(diffs)) > 2.0 * spread and float(np.mean(diffs)) > 0


# ---------------------------------------------------------------------- presenting
def _ranked(candidates: list[Candidate]) -> list[Candidate]:
    """Candidates still live first (by mean), then the dropped ones (later-dropped first, then by mean); 'end'
    after every claim when a Legend can be claimed (dominated). Solo: the policy's move comes first unless the
    best measured move is significantly better than it."""
    order = sorted(candidates, key=lambda c: (not c.dominated, c.dropped_round == -1, c.dropped_round, c.key),
                   reverse=True)
    default = next((c for c in order if c.default), None)
    if default is not None and order[0] is not default and not order[0].dominated \
            and not _significantly_better(order[0], default):
        order.remove(default)
        order.insert(0, default)
    return order


def _result(state: AetheryaState, candidates: list[Candidate], player: int, full: bool, top: int, rounds: int,
            playouts: int, worlds: int, ctx: SearchContext, interim: bool = False,
            extra_root: dict[str, Any] | None = None) -> HintResult:
    by_root: dict[int, list[Candidate]] = {}
    for cand in _ranked(candidates):
        by_root.setdefault(cand.plan[0], []).append(cand)
    infos = []
    for root, cands in by_root.items():
        best = cands[0]
        n = len(best.values)
        half = 1.96 * best.stdev / math.sqrt(n) if n > 1 else None
        extra: dict[str, Any] = {
            "valueStdev": round(best.stdev, 3), "samples": n,
            "ci95": None if half is None else [round(best.mean - half, 3), round(best.mean + half, 3)],
        }
        if best.progress:
            extra["legendsWritten"] = round(float(np.mean(best.progress)), 3)
            extra["campaignCompleted"] = round(best.completion, 3)
        if best.default:
            extra["policyMove"] = True
        if len(cands) > 1:
            extra["plans"] = [{"pv": _pv(state, c.plan),
                               "value": round(c.mean, 3), "samples": len(c.values)} for c in cands[:3]]
        infos.append(MoveInfo(move=state.action_to_string(root), value=round(best.mean, 3), pv=_pv(state, best.plan),
                              why=explain(state, best.plan, best.mean, best.stdev,
                                         float(np.mean(best.progress)) if best.progress else None), extra=extra))
    infos = infos[:top]
    root = {
        "player": player, "phase": state.phase, "fullInformation": full,
        "valueMeaning": _meaning(state, player),
        "currentScore": state.score(player).total if state.mode != "solo" else state.score(0).total,
        "rounds": rounds, "playouts": playouts, "worlds": worlds, "seconds": round(ctx.elapsed(), 3),
        "candidates": len(candidates), "method": "determinised sampling with greedy playouts "
                                                 "(compiled kernel), successive halving",
    }
    if extra_root:
        root.update(extra_root)
    return HintResult(game=state.game.spec(), move_infos=infos, root_info=root, is_during_search=interim)


def _meaning(state: AetheryaState, player: int) -> str:
    if state.mode == "coop":
        return "expected team score (lowest player score minus the discarded Legends' points), higher is better"
    if state.mode == "solo":
        return ("expected campaign score (sum of the Age scores; 0 if an Age fails); moves are ranked by the "
                "expected number of Legends written over the campaign first (legendsWritten; all 15 = the "
                "campaign is won, campaignCompleted is the share of sampled campaigns that did), then by value")
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
        out.append("(the best Legend or tile, if any)")
    elif s.phase == "end-turn":
        out.append("(the best Legend or tile)")
    return out


def explain(state: AetheryaState, plan: list[int], mean: float, stdev: float, progress: float | None = None) -> str:
    """A one-line human reason for a plan: its immediate effect and its expected final value."""
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
            words.append("a fresh card from the pile")
        elif action == A_TAKE_DRAW:
            words.append(f"the discard {_card_name(s.discards[0][-1])} plus one card: the pile lasts longer")
        elif action == A_DRAW2:
            words.append("two fresh cards, but the Age ends sooner")
        elif A_CLAIM < action <= A_CLAIM + 15 or A_CLAIM_SWORD < action <= A_CLAIM_SWORD + 15:
            number = action - (A_CLAIM_SWORD if action > A_CLAIM_SWORD else A_CLAIM)
            words.append(f"writes {legend_card(number).title} ({legend_card(number).points} pts)")
        elif s.phase == "tile" and s.pending_tile >= 0 and tile_kind(s.pending_tile) in STONES:
            words.append(_stone_reason(s, action == A_TILE_TAKE))
        elif action == A_END and any(A_CLAIM < a <= A_CLAIM + 15 for a in s.legal_actions()):
            words.append("ends the turn without writing a Legend: claiming one is never worse")
        elif action == A_END:
            words.append("nothing left that pays this turn")
        elif s.phase == "place" and text.startswith("reveal"):
            words.append(f"the drawn {_card_name(s.hold)} fits nowhere; exploring {text.split()[1]}")
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
    text = "; ".join(words + [now]) if words else now
    tail = f" ({progress:.1f} Legends written)" if progress is not None else ""
    return f"{text}; expected {mean:.1f} ± {stdev:.1f}{tail}"


def _solo_progress_words(s: AetheryaState) -> str:
    """How far the Age's Legends still to write are after a plan (face-up cards only): writable now, one card
    away, further."""
    from solver.aetherya.playout import legend_needs, solo_avail, solo_left
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
    from solver.aetherya.cards import CARD_NAMES
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


def hint(state: AetheryaState, ctx: SearchContext, top: int = 3, player: int | None = None,
         full_information: bool = False) -> HintResult:
    """Rank the decisions of the player to act (see the module docstring)."""
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
    candidates, info = search(state, ctx, player, full_information, top)
    rng = np.random.default_rng(ctx.seed + 1)
    world = state.clone() if full_information else state.resample_from_observation(player, rng)
    extra: dict[str, Any] = {}
    if min(world.kingdoms[seat]) >= 0:
        # a node-limited hint is reproducible: its planner call is node-limited too
        nodes = PLANNER_NODES if ctx.limits.nodes is not None else None
        extra["kingdomPotential"] = kingdom_potential(world, seat, rng, nodes=nodes).to_json()
        extra["kingdomPotential"]["meaning"] = ("best score of this player's 16 cards rearranged (face-down cards "
                                                + ("as they are" if full_information else "sampled once")
                                                + "; locked Portals and Dragons in place)")
    if state.mode == "objects":
        extra["powerStones"] = power_stones(state, seat)
    return _result(state, candidates, player, full_information, top, info["rounds"], info["playouts"],
                   info["worlds"], ctx, extra_root=extra)
