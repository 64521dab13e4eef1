"""Hints for Forgotten: rank the flips of the current stage of the turn by win probability.

A hint reads only what the players have seen (FG-13): the position is rebuilt from
``state.observation(player)``, and every rollout re-draws the unseen tiles uniformly among the unseen
cells (rejecting draws in which the game would already be over), then plays the candidate flip and
continues with the route policy (``docs/rules/forgotten.md``, "Policies") in the compiled kernel. All
candidates share the same draws and dice (common random numbers), and a successive-halving schedule
spends the rollouts on the flips that are still in contention. Each move carries its win probability,
a 95% Wilson interval and the reason it is worth (or not worth) flipping.

Every kernel call is sized to take about ``SLICE_S`` (from the rollouts per second measured so far) and never
to run past the time limit, so the search looks at ``terminate`` and its clock, and sends interim reports,
between calls. Rollout ``i`` of a batch uses the kernel's random stream ``i`` whatever the pieces the batch is
cut into, so with a node budget the answer is the same on every machine, however fast it runs.

A full-information analysis (``full_information=True``) instead plays the true tiles with the oracle
policy, and says so (``rootInfo["fullInformation"] = true``): it is not advice a player could follow.

Under the clear goal (FG-14) where a tile lies does not matter: the rollouts continue with the greedy
perfect-memory policy (match a known pair first) instead of the route policy, all unseen tiles are one
candidate, and the reasons speak of pairs, not routes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import UnsupportedActionError
from solver.forgotten.board import cheapest_route, route_prices
from solver.forgotten.knowledge import (DEAD, LABEL, UNK, Info, Model, info_from_state, mate_of, useful_moves,
                                        world_arrays)
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.forgotten.tiles import letter
from solver.kernels import forgotten as kernel
from solver.ranking import (KEEP, PERCENTAGE_POINTS, Arm, Schedule, WinArm, display_order, first_note, loss_to_first,
                            paired, recommend, standing_note, successive_halving)
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext
from solver.stats import wilson

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame
    from solver.forgotten.view import ForgottenView

GREEDY_POLICY = 1
ROUTE_POLICY = 2
ORACLE_POLICY = 3
DEFAULT_ROLLOUTS = 40_000
#: a review's grades (inaccuracy, mistake, blunder): the least significant loss of win probability, in percentage
#: points (lichess's 10, 20 and 30 points of winning chances on its -1..1 scale)
REVIEW_GRADES = (5.0, 10.0, 15.0)
FIRST_BATCH = 256
SLICE_S = 0.01       # a kernel call's target duration: between calls the search checks its limits and reports
FIRST_SLICE = 32     # rollouts of the first call, before the rate is known


def continuation_policy(game: Any, full_information: bool) -> int:
    """The kernel policy rollouts continue with: oracle (full information), else greedy under the clear goal
    (positions do not matter, known pairs are matched first), else the route policy."""
    if full_information:
        return ORACLE_POLICY
    return GREEDY_POLICY if game.goal == "clear" else ROUTE_POLICY


# -- the hint services (solver.contract) ------------------------------------------------------------------------
def hint_view(game: ForgottenGame, view: ForgottenView, ctx: SearchContext, *, top: int = 3,
              **options: Any) -> HintResult:
    """Rank the flips of this stage of the turn by win probability from the view (see the module docstring)."""
    if view.flipped >= 0:
        return reveal_hint(view.known, view.flipped, ctx, viewer=view.observer)
    return hint(view.known, ctx, top=top, player=view.observer)


def hint_full(game: ForgottenGame, state: ForgottenState, ctx: SearchContext, *, top: int = 3,
              player: int | None = None, **options: Any) -> HintResult:
    """Oracle rollouts on the true tiles: a full-information analysis, labelled as such."""
    return hint(state, ctx, top=top, player=player, full_information=True)


# -- what the players know, in words -----------------------------------------------------------------------
@dataclass
class Knowledge:
    """The knowledge of a position with its route prices (face up 0, known pair 1, seen single 2, unseen 3)."""

    state: ForgottenState
    info: Info
    costs: list[int]
    best: int
    unseen_pool: int
    clear: bool = False

    @classmethod
    def of(cls, state: ForgottenState) -> Knowledge:
        info = info_from_state(state)
        up, unk, pairs, singles, dead = info.masks()
        board = state.board
        out = np.zeros(board.cells, np.int32)
        best = kernel.route_costs(board.width, board.height, *board.brains, up, pairs,
                                  singles if unk else 0, unk, out)
        clear = state.game.goal == "clear"
        # under the clear goal the living worlds hold every unseen orphan among the removed tiles (Model.reveal)
        pool = info.unseen_on_board if clear else info.unseen_on_board + info.e
        return cls(state, info, [int(x) for x in out], best, pool, clear)

    def route_cells(self) -> list[str]:
        """The cells still to turn face up on one cheapest route (what the plan aims at), in board order; none
        under the clear goal, where no route is needed."""
        up, unk, pairs, singles, dead = self.info.masks()
        board = self.state.board
        if self.best < 0 or self.clear:
            return []
        cells = cheapest_route(board, route_prices(board, up, pairs, singles if unk else 0, unk))
        return [board.name(c) for c in cells if not up >> c & 1]

    def letter(self, cell: int) -> str:
        """The pair letter of a seen tile."""
        return letter(self.state.tiles[cell])

    def mate(self, cell: int) -> int:
        """The seen face-down partner of ``cell`` (-1 if none)."""
        return mate_of(self.info, cell)

    def route_singles(self) -> int:
        """Seen tiles with an unseen partner that lie on a shortest route."""
        singles = self.info.masks()[3]
        return sum(1 for c in range(len(self.costs)) if singles >> c & 1 and self.costs[c] == self.best)

    def route_words(self, cell: int) -> str:
        """Where ``cell`` lies relative to the cheapest route, as words (a leading space; none under the clear
        goal, where places do not matter)."""
        if self.clear:
            return ""
        return " " + self._route_place(cell)

    def _route_place(self, cell: int) -> str:
        cost = self.costs[cell]
        if cost < 0:
            return "off every route"
        if cost == self.best:
            return "on the shortest route"
        return f"on a route {cost - self.best} dearer than the shortest"

    def winning_words(self, a: int, b: int) -> str:
        """``", which links the Brains: the game is won"`` when turning up ``a`` and ``b`` completes a path
        (under the clear goal: when they are the last face-down tiles)."""
        up = self.info.masks()[0]
        if self.clear:
            return ", the last pair: the game is won" if self.info.down() == (1 << a | 1 << b) else ""
        return ", which links the Brains: the game is won" if self.state.board.connected(up | 1 << a | 1 << b) else ""

    def kind_and_reason(self, action: int, stage: str) -> tuple[str, str]:
        """A short category and the reason for one candidate flip."""
        if action == GIVE_UP:
            return "give-up", "giving up ends the game as a loss"
        board = self.state.board
        code = self.info.codes[action]
        pool = self.unseen_pool
        lone = self.info.lone
        if stage == "first":
            if code == UNK:
                on_route = self.route_singles()
                odds = f"; it pairs {_seen_tiles(lone)} with chance {lone}/{pool}" if lone else ""
                if self.clear:
                    return "unseen", f"unseen tile{odds}"
                if self.costs[action] == self.best:
                    return "unseen", f"unseen tile on the shortest route{odds}"
                if on_route:
                    return "unseen", (f"unseen tile{self.route_words(action)}: it may show the partner of "
                                      f"{_seen_tiles(on_route)} on the shortest route (chance {on_route}/{pool})")
                return "unseen", f"unseen tile{self.route_words(action)}"
            mate = self.mate(action)
            if mate >= 0:
                return "known-pair", (f"known pair {self.letter(action)} ({board.name(action)} and "
                                      f"{board.name(mate)}){self.route_words(action)}: a sure match"
                                      f"{self.winning_words(action, mate)}")
            if code == DEAD:
                return "waste", "its partner was erased: avoid wasting a flip on it"
            return "seen-single", (f"seen tile {self.letter(action)}, partner unseen: the second flip matches it "
                                   f"only with chance 1/{pool}; an unseen tile first learns more")
        first = self.state.first
        if action == self.mate(first):
            return "match", (f"completes the pair {self.letter(first)}{self.route_words(first)}"
                             f"{self.winning_words(first, action)}")
        if code == UNK:
            first_code = self.info.codes[first]
            singles_first = first_code >= LABEL and self.mate(first) < 0
            chance = f"matches {self.letter(first)} with chance 1/{pool}, else " if singles_first else ""
            return "unseen", f"unseen tile{self.route_words(action)}: {chance}shows one more tile"
        return "waste", "a seen tile that does not match: avoid wasting a flip, it learns nothing"


def _seen_tiles(n: int) -> str:
    return "the seen tile" if n == 1 else f"one of the {n} seen tiles"


# -- rollouts --------------------------------------------------------------------------------------------------
@dataclass(eq=False)
class Tally(WinArm):
    """Rollout results (1 won, 0 lost) of one candidate flip (``key``), standing for ``members``, flips of equal
    value; rollout ``i`` of batch ``r`` shares its draws and dice with every candidate's (``Arm.samples``)."""

    members: list[int] = field(default_factory=list)
    turns: int = 0
    advantage: tuple[float, float] | None = None     # paired mean difference to the plan's move, and its SE

    @property
    def action(self) -> int:
        return int(self.key)

    def add_rollouts(self, batch: int, wins: np.ndarray, turns: int) -> None:
        """The next rollouts of ``batch`` (a batch may come in pieces)."""
        self.add(batch, wins)
        self.turns += turns

    def tiebreak(self) -> int:
        return self.action


@dataclass
class Rollouts:
    """Kernel rollouts from one position; rollouts of one batch share draws and dice across candidates."""

    state: ForgottenState
    full_information: bool
    seed: int
    rejected: int = 0
    accepted: int = 0
    dominated: set = field(default_factory=set)
    arrays: tuple = field(init=False)

    def __post_init__(self) -> None:
        self.arrays = self.state.arrays()

    def run(self, action: int, batch: int, n: int, first_stream: int = 0) -> tuple[np.ndarray, int]:
        """Per-rollout wins and the total turns of rollouts ``first_stream`` to ``first_stream + n - 1`` of
        ``batch`` after flipping ``action`` (-1: none)."""
        state = self.state
        game, board = state.game, state.board
        wins = np.zeros(n, np.uint8)
        turns = np.zeros(n, np.int32)
        first = state.first if state.phase == "second" else -1
        policy = continuation_policy(game, self.full_information)
        seed = (self.seed * 1_000_003 + batch * 7919) % (2**63)
        rejected = kernel.rollouts(board.width, board.height, *board.brains, game.erasure_code,
                                   game.goal_code, *self.arrays, state.turn, state.phase_code, first,
                                   action, policy, not self.full_information, seed, wins, turns,
                                   first_stream)
        self.rejected += rejected
        self.accepted += n
        return wins, int(turns.sum())

    def plan(self) -> int:
        """The move the continuation policy itself would make here."""
        state = self.state
        board = state.board
        first = state.first if state.phase == "second" else -1
        policy = continuation_policy(state.game, self.full_information)
        return kernel.policy_move(board.width, board.height, *board.brains, *self.arrays, first, policy, 0)


class Pacer:
    """Sizes kernel calls to about ``SLICE_S`` each, and never past the time limit, from the measured rate."""

    def __init__(self, ctx: SearchContext) -> None:
        self.ctx = ctx
        self.rate: float | None = None      # rollouts per second, smoothed

    def size(self, wanted: int) -> int:
        """How many of ``wanted`` rollouts the next call plays (at least one)."""
        if self.rate is None:
            return max(1, min(wanted, FIRST_SLICE))
        seconds = SLICE_S
        left = self.ctx.remaining()
        if left is not None:
            seconds = min(seconds, left)
        return max(1, min(wanted, int(self.rate * seconds)))

    def run(self, roll: Rollouts, action: int, batch: int, n: int, first_stream: int) -> tuple[np.ndarray, int]:
        """``roll.run``, timed."""
        start = time.perf_counter()
        out = roll.run(action, batch, n, first_stream)
        rate = n / max(time.perf_counter() - start, 1e-6)
        self.rate = rate if self.rate is None else 0.5 * (self.rate + rate)
        return out


def value_rollouts(roll: Rollouts, action: int, budget: int, ctx: SearchContext,
                   interim: Callable[[int, int], HintResult]) -> tuple[int, int]:
    """Wins and rollouts of up to ``budget`` rollouts after ``action`` (-1: none), in paced calls that stop at
    the limits and report ``interim(wins, n)`` on the way."""
    pacer = Pacer(ctx)
    wins = n = 0
    while n < budget:
        m = pacer.size(budget - n)
        wins += int(pacer.run(roll, action, 0, m, n)[0].sum())
        n += m
        if ctx.should_stop(n):
            break
        ctx.maybe_report(lambda: interim(wins, n))
    return wins, n


def advice_state(state: ForgottenState, player: int) -> ForgottenState:
    """The position as the players know it: rebuilt from their observation (unseen tiles drawn with seed 0)."""
    return state.game.state_from_json(state.observation(player))


def hint(state: ForgottenState, ctx: SearchContext, top: int = 3, player: int | None = None,
         full_information: bool = False) -> HintResult:
    """Rank the flips of the player to move (see the module docstring)."""
    game = state.game
    if player is not None and player not in (0, 1):
        raise UnsupportedActionError("player", player, "Forgotten has players 0 and 1")
    if full_information and not state.given:
        raise UnsupportedActionError("fullInformation", True, "a full-information analysis needs every tile: the "
                                                              "position leaves unseen tiles as '?'")
    viewer = state.current_player() if player is None else player
    if state.is_terminal():
        return HintResult(game.spec(), [], {"status": state.phase, "winProbability": state.returns()[0],
                                            "fullInformation": full_information, "stage": "game over"})
    work = state if full_information else advice_state(state, max(viewer, 0))
    roll = Rollouts(work, full_information, ctx.seed)
    if state.is_chance_node():
        return _chance_hint(work, roll, ctx, full_information)
    stage = state.phase
    knowledge = Knowledge.of(work)
    groups = candidate_groups(work, knowledge, full_information)
    flips = [a for a in work.legal_actions() if a != GIVE_UP]
    if top >= len(flips) + 1:
        # every move asked for (a review needs the played move's value): dominated flips are rolled out too,
        # but never recommended (they are never better than another flip)
        listed = {m for members in groups.values() for m in members}
        groups.update({a: [a] for a in flips if a not in listed})
        roll.dominated = {a for a in flips if a not in listed}
    plan = roll.plan()
    plan_rep = next(rep for rep, members in groups.items() if plan in members)
    tallies = _search(roll, groups, plan_rep, ctx, top, lambda t: _result(work, knowledge, roll, t, plan_rep, top,
                                                                          stage, full_information, True, viewer))
    return _result(work, knowledge, roll, tallies, plan_rep, top, stage, full_information, False, viewer)


def candidate_groups(state: ForgottenState, knowledge: Knowledge, full_information: bool) -> dict[int, list[int]]:
    """The flips worth rolling out, each standing for the flips of equal value.

    Dominated flips are left out (``knowledge.useful_moves``); unseen tiles that lie on no possible route
    are all worth the same (their position cannot matter) and are rolled out once; under the clear goal
    that is every unseen tile. A full-information analysis keeps every legal flip apart.
    """
    legal = [a for a in state.legal_actions() if a != GIVE_UP]
    if full_information:
        return {a: [a] for a in legal}
    first = state.first if state.phase == "second" else -1
    useful = useful_moves(knowledge.info, first)
    relevant = Model.of(state.game).route_cells(knowledge.info)
    groups: dict[int, list[int]] = {}
    loose: list[int] = []
    for action in useful:
        if knowledge.info.codes[action] == UNK and not relevant >> action & 1:
            loose.append(action)
        else:
            groups[action] = [action]
    if loose:
        groups[loose[0]] = loose
    return groups


def _search(roll: Rollouts, groups: dict[int, list[int]], plan: int, ctx: SearchContext, top: int,
            interim) -> list[Tally]:
    """Successive halving with common random numbers (:mod:`solver.ranking`): every live candidate gets the same
    batch of draws and dice; candidates clearly worse than the best drop out; the plan's own move always stays."""
    budget = ctx.limits.nodes or DEFAULT_ROLLOUTS
    tallies = {a: Tally(a, protected=a == plan, members=members) for a, members in groups.items()}
    arms = [tallies[plan]] + [t for a, t in tallies.items() if a != plan]   # the plan first: a batch cut short has it
    pacer = Pacer(ctx)
    spent = 0

    def play(live: list[Tally], batch_no: int, n: int) -> tuple[int, bool]:
        nonlocal spent
        before = spent
        spent, stopped = _batch(roll, pacer, live, batch_no, n, spent, ctx, lambda: interim(list(tallies.values())))
        return spent - before, stopped

    first = max(32, min(FIRST_BATCH, budget // max(1, 2 * len(arms))))
    successive_halving(arms, play, Schedule(first, keep=KEEP), budget)
    base = tallies[plan]
    for tally in tallies.values():
        diff = paired(tally, base)
        if diff is not None:
            tally.advantage = (diff.mean, diff.se)
    return list(tallies.values())


def _batch(roll: Rollouts, pacer: Pacer, live: list[Tally], batch_no: int, n: int, spent: int, ctx: SearchContext,
           interim: Callable[[], HintResult]) -> tuple[int, bool]:
    """``n`` rollouts of batch ``batch_no`` for every live candidate, in paced pieces played in turn (so a search
    stopped by its clock or ``terminate`` leaves the candidates with about as many rollouts each); with only a
    node budget the stopping points, hence the answer, do not depend on the pieces. Returns the rollouts spent so
    far and whether the search must stop."""
    done = 0
    while done < n:
        m = pacer.size(n - done)
        for tally in live:
            wins, turns = pacer.run(roll, tally.action, batch_no, m, done)
            tally.add_rollouts(batch_no, wins, turns)
            spent += m
            if ctx.should_stop(spent):      # a time limit or terminate: stop within the batch
                return spent, True
            ctx.maybe_report(interim)
        done += m
    return spent, False


def _result(state: ForgottenState, knowledge: Knowledge, roll: Rollouts, tallies: list[Tally], plan: int, top: int,
            stage: str, full_information: bool, during: bool, viewer: int) -> HintResult:
    unrolled = [t for t in tallies if t.n == 0]          # a search stopped before their first rollout
    tallies = [t for t in tallies if t.n > 0]
    choice = recommend([t for t in tallies if t.action not in roll.dominated])
    ranked = display_order(tallies, choice)
    infos = []
    for tally in ranked:
        for member in tally.members:
            if len(infos) < top:
                info = _move_info(state, knowledge, tally, member, stage, plan, ranked[0])
                if tally is not ranked[0]:
                    note = standing_note(tally, ranked[0], _name(state), PERCENTAGE_POINTS, "rollouts")
                    info.why += f"; {note}" if note else ""
                infos.append(info)
    route = knowledge.route_cells()
    if infos and route and infos[0].extra.get("kind") != "give-up":
        infos[0].why += f"; the plan links the Brains through {' '.join(route)}"
    if infos and len(ranked) > 1:
        infos[0].why += _first_words(state, ranked, plan)
    if len(infos) < top:
        # a sure loss: it loses the first move's whole win probability, known as well as that is
        loss = {"value": ranked[0].mean, "ci": list(ranked[0].ci), "samples": ranked[0].n} if ranked else None
        infos.append(MoveInfo("give up", 0.0, ["give up"], "giving up ends the game as a loss",
                              extra={"winProbability": 0.0, "ci": [0.0, 0.0], "valueCI": [0.0, 0.0], "rollouts": 0,
                                     "kind": "give-up", "lossToFirst": loss}))
    best = ranked[0] if ranked else None
    total = sum(t.n for t in tallies)
    root: dict[str, Any] = {
        "stage": "first flip" if stage == "first" else "second flip",
        "player": state.current_player(),
        "advisedPlayer": viewer,
        "winProbability": best.mean if best else 0.0,
        "ci": list(best.ci) if best else [0.0, 0.0],
        "rollouts": total,
        "valueMeaning": ("win probability if the players knew every tile (full-information analysis, not advice)"
                         if full_information else
                         "probability that the players win, from what they have seen (both players share it)"),
        "valueUnit": "probability",
        "method": ("oracle rollouts on the true tiles" if full_information else
                   f"rollouts of the {'greedy' if knowledge.clear else 'route'} policy over unseen tiles re-drawn "
                   "from what was seen"),
        "fullInformation": full_information,
        "goal": state.game.goal,
        "erasureAfterThisTurn": state.game.erasure_due(state.turn + 1),
        "routeCost": None if knowledge.clear else knowledge.best,
        "seed": roll.seed,
    }
    if not full_information and roll.accepted:
        root["aliveShare"] = roll.accepted / (roll.accepted + roll.rejected)
    if stage == "second":
        root["firstFlip"] = {"cell": state.board.name(state.first), "pair": knowledge.letter(state.first)}
    if unrolled:
        root["notRolledOut"] = [state.action_to_string(m) for t in unrolled for m in t.members]
    root["planMove"] = state.action_to_string(plan)
    root["plannedRoute"] = knowledge.route_cells()
    listed = {m for t in tallies + unrolled for m in t.members}
    skipped = [a for a in state.legal_actions() if a != GIVE_UP and a not in listed]
    if skipped:
        root["skipped"] = {state.action_to_string(a): knowledge.kind_and_reason(a, stage)[1] for a in skipped}
    return HintResult(state.game.spec(), infos, root, is_during_search=during)


def _name(state: ForgottenState) -> Callable[[Arm], str]:
    return lambda tally: state.action_to_string(tally.key)


def _first_words(state: ForgottenState, ranked: list[Tally], plan: int) -> str:
    """Why the first move is first when a move listed below it shows a higher estimate (within noise)."""
    policy = "greedy" if state.game.goal == "clear" else "route"
    why = (f"; the {policy} plan's move stays first unless another flip is significantly better" if ranked[0].action
           == plan else f"; it is significantly better than the {policy} plan's move on the rollouts they share")
    note = first_note(ranked, _name(state), PERCENTAGE_POINTS, "rollouts", why)
    return f"; {note}" if note else ""


def _move_info(state: ForgottenState, knowledge: Knowledge, tally: Tally, action: int, stage: str,
               plan: int, first: Tally) -> MoveInfo:
    move = state.action_to_string(action)
    kind, why = knowledge.kind_and_reason(action, stage)
    pv = [move]
    cost = knowledge.costs[action]
    extra: dict[str, Any] = {"winProbability": tally.mean, "ci": list(tally.ci), "valueCI": list(tally.ci),
                             "rollouts": tally.n, "kind": kind,
                             "routeCost": cost if cost >= 0 and not knowledge.clear else None}
    if len(tally.members) > 1:
        extra["sameValueAs"] = [state.action_to_string(m) for m in tally.members if m != action]
    if tally.advantage is not None and tally.action != plan:
        extra["advantageOverPlan"] = {"mean": tally.advantage[0], "se": tally.advantage[1]}
    extra["lossToFirst"] = loss_to_first(first, tally)
    if stage == "first":
        mate = knowledge.mate(action)
        if mate >= 0:
            pv.append(state.action_to_string(mate))
        elif knowledge.info.codes[action] == UNK:
            extra["then"] = _plan(state, knowledge, action)
    if tally.n:
        extra["meanTurns"] = tally.turns / tally.n
    return MoveInfo(move, tally.mean, pv, why, extra=extra)


def _plan(state: ForgottenState, knowledge: Knowledge, cell: int) -> dict[str, str]:
    """What to flip second after turning up the unseen tile on ``cell``, for each thing it may show."""
    model = Model.of(state.game)
    board = state.board
    plan: dict[str, str] = {}
    for _, after, kind in model.reveal(knowledge.info, cell):
        if kind == "partner":
            plan["if it pairs a seen tile"] = "flip that tile: a sure match"
            continue
        tiles, status, seen = world_arrays(model, after)
        second = kernel.policy_move(board.width, board.height, *board.brains, tiles, status, seen, cell,
                                    continuation_policy(state.game, False), 0)
        label = "if it shows a new pair" if kind == "fresh" else "if its partner was erased"
        plan[label] = f"flip {board.name(second)}"
    return plan


def reveal_hint(state: ForgottenState, cell: int, ctx: SearchContext, viewer: int) -> HintResult:
    """A flipped tile nobody had seen waits to be entered: nothing to decide; the win probability as it stands."""
    work = advice_state(state, viewer)
    roll = Rollouts(work, False, ctx.seed)
    budget = ctx.limits.nodes or DEFAULT_ROLLOUTS // 4

    def result(wins: int, n: int, during: bool = True) -> HintResult:
        lo, hi = wilson(wins, n)
        root = {"stage": "tile to enter", "flipped": state.board.name(cell), "player": state.current_player(),
                "advisedPlayer": viewer, "winProbability": wins / n, "ci": [lo, hi], "rollouts": n,
                "fullInformation": False, "seed": ctx.seed,
                "valueMeaning": "probability that the players win, from what they have seen (both players share it)"}
        return HintResult(state.game.spec(), [], root, is_during_search=during)

    return result(*value_rollouts(roll, cell, budget, ctx, result), during=False)


def _chance_hint(state: ForgottenState, roll: Rollouts, ctx: SearchContext, full_information: bool) -> HintResult:
    """At the Erasure roll nobody decides: report the win probability and the rolls that end the game."""
    budget = ctx.limits.nodes or DEFAULT_ROLLOUTS // 4
    info = info_from_state(state)
    model = Model.of(state.game)
    fatal = [state.board.name(c) for c in range(state.board.cells) if not model.hopeful(model.erase(info, c))]

    def result(wins: int, n: int, during: bool = True) -> HintResult:
        lo, hi = wilson(wins, n)
        root = {"stage": "erasure roll", "winProbability": wins / n, "ci": [lo, hi], "rollouts": n,
                "rollsThatEndTheGame": fatal, "fullInformation": full_information,
                "valueMeaning": "probability that the players win, from what they have seen"}
        return HintResult(state.game.spec(), [], root, is_during_search=during)

    return result(*value_rollouts(roll, -1, budget, ctx, result), during=False)
