"""Our hint policy against OpenSpiel's IS-MCTS on the same deals: the match-ups of ``benchmarks/bench_vs_ismcts.py``.

One *item* is one match-up (a game in one mode) at one budget on one seeded deal:

- competitive games (Aetherya base, Memorinth): the deal is played twice, our
  hint in seat 0 and IS-MCTS in seat 1, then the seats swapped;
- cooperative games (Embers, Forgotten, Mnemonic, Aetherya co-op and solo): the
  deal is played once by our hint in every seat and once by IS-MCTS in every seat.

Our policy is the top move of ``solver.hint(game, state, player=p)`` (the public
API: a hint on a state for the player to act reads only that player's view).
IS-MCTS is OpenSpiel's Python ``ISMCTSBot`` (random rollouts, UCT, a fresh world
resampled from the player's information state for every simulation through our
seeded resampler) running simulations until the same wall time per decision is
spent. Decisions with one legal move are played without asking either policy.

A budget is either equal wall time per decision (``seconds``) or, for
reproducible runs such as the tests, fixed work (``hint_nodes`` for our hint,
``simulations`` for IS-MCTS); with fixed work the same item gives the same
result on every machine. Every random process is seeded from the run's seed and
the deal: chance outcomes after the deal, our hint's seed at each decision,
IS-MCTS's random state and its resampler.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import solver.api
import solver.openspiel as sos
from solver.registry import load_game as load_our_game
from solver.scale import item_rng
from solver.stats import mcnemar, mean_t_ci, sign_flip_p, wilson

HINT = "hint"
ISMCTS = "ismcts"
POLICIES = (HINT, ISMCTS)
#: a decision is an overrun when it took more than this many times its time budget
OVERRUN_FACTOR = 1.5
#: IS-MCTS needs two simulations before it can choose: the first only expands the root
MIN_SIMULATIONS = 2


@dataclass(frozen=True)
class Matchup:
    """A game in one mode, how its deals are played and what counts as the result of a game."""

    label: str
    spec: str
    competitive: bool
    #: UCT exploration constant of IS-MCTS, in units of the game's returns
    uct_c: float = 2.0
    #: whether the returns are a score worth reporting beside the wins (Aetherya)
    scored: bool = False


#: Aetherya's returns are points: its UCT constant is OpenSpiel's 2.0 per 10 points, the standard deviation of
#: final scores under random play (9.2 in base 2-player games and 9.0 in co-op, 40 seeded deals each)
AETHERYA_UCT_C = 20.0

MATCHUPS: tuple[Matchup, ...] = (
    Matchup("aetherya 2p", "aetherya", competitive=True, uct_c=AETHERYA_UCT_C, scored=True),
    Matchup("aetherya co-op 2p", "aetherya(mode=coop)", competitive=False, uct_c=AETHERYA_UCT_C, scored=True),
    Matchup("aetherya solo", "aetherya(mode=solo)", competitive=False, uct_c=AETHERYA_UCT_C, scored=True),
    Matchup("embers", "embers", competitive=False),
    Matchup("forgotten", "forgotten", competitive=False),
    Matchup("memorinth 2p", "memorinth", competitive=True),
    Matchup("mnemonic", "mnemonic", competitive=False),
)
BY_LABEL = {m.label: m for m in MATCHUPS}


@dataclass(frozen=True)
class Budget:
    """Work per decision: equal wall time (``seconds``), or fixed work for each policy (reproducible)."""

    seconds: float | None = None
    hint_nodes: int | None = None
    simulations: int | None = None
    #: IS-MCTS's wall time as a multiple of ``seconds`` (1: equal time; more: a handicap for our hint)
    ismcts_factor: float = 1.0

    def __post_init__(self) -> None:
        if self.seconds is None and (self.hint_nodes is None or self.simulations is None):
            raise ValueError("a budget is seconds per decision, or hint_nodes and simulations")

    @property
    def ismcts_seconds(self) -> float | None:
        """IS-MCTS's wall time per decision."""
        return None if self.seconds is None else self.seconds * self.ismcts_factor

    @property
    def label(self) -> str:
        if self.seconds is not None:
            extra = f" (IS-MCTS {self.ismcts_seconds:g} s)" if self.ismcts_factor != 1.0 else ""
            return f"{self.seconds:g} s{extra}"
        return f"{self.hint_nodes} nodes / {self.simulations} simulations"


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS, searching until a wall-clock budget is spent instead of a fixed count.

    The search itself is OpenSpiel's (``run_simulation``, selection, expansion,
    final policy); only the loop of :meth:`run_search` changes: it runs
    simulations while time remains (at least :data:`MIN_SIMULATIONS`, at most
    ``max_simulations`` when given) and records how many it ran.
    """

    def __init__(self, game: Any, uct_c: float, seconds: float | None, max_simulations: int | None,
                 seed: int) -> None:
        random_state = np.random.RandomState(seed % 2**32)
        super().__init__(game, mcts.RandomRolloutEvaluator(1, random_state), uct_c=uct_c,
                         max_simulations=max_simulations or 0, random_state=random_state)
        self.set_resampler(sos.resampler(seed))
        self.seconds = seconds
        self.cap = max_simulations
        self.last_simulations = 0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        self.last_simulations = 0
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        while self.cap is None or self.last_simulations < self.cap:
            if (deadline is not None and self.last_simulations >= MIN_SIMULATIONS
                    and time.perf_counter() >= deadline):
                break
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            self.last_simulations += 1
        return self.get_final_policy(state, self._root_node)


@dataclass
class PolicyStats:
    """What one policy spent in one game: its decisions (two or more legal moves), time and simulations."""

    decisions: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    max_seconds: float = 0.0
    overruns: int = 0
    simulations: int = 0

    def add(self, seconds: float, cpu_seconds: float, budget_seconds: float | None, simulations: int = 0) -> None:
        self.decisions += 1
        self.seconds += seconds
        self.cpu_seconds += cpu_seconds
        self.max_seconds = max(self.max_seconds, seconds)
        if budget_seconds is not None and seconds > OVERRUN_FACTOR * budget_seconds:
            self.overruns += 1
        self.simulations += simulations

    def to_json(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "seconds": round(self.seconds, 4),
                "cpuSeconds": round(self.cpu_seconds, 4), "maxSeconds": round(self.max_seconds, 4),
                "overruns": self.overruns, "simulations": self.simulations}


@dataclass
class Players:
    """The policy in each seat of one game, and how to ask each for a move."""

    matchup: Matchup
    game: Any  # the OpenSpiel game
    ours: Any  # our Game object (solver.hint's first argument)
    seats: tuple[str, ...]
    budget: Budget
    rng: np.random.Generator
    bots: dict[int, TimedISMCTSBot] = field(default_factory=dict)
    stats: dict[str, PolicyStats] = field(default_factory=dict)

    def choose(self, state: Any) -> int:
        """The action of the player to move (timed and counted when there is a real choice)."""
        player = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        policy = self.seats[player]
        stats = self.stats.setdefault(policy, PolicyStats())
        seed = int(self.rng.integers(2**62))
        if policy == HINT:
            start, cpu = time.perf_counter(), time.process_time()
            action = self._hint(state, player, seed)
            stats.add(time.perf_counter() - start, time.process_time() - cpu, self.budget.seconds)
            return action
        bot = self.bots.get(player)
        if bot is None:
            bot = self.bots[player] = TimedISMCTSBot(self.game, self.matchup.uct_c, self.budget.ismcts_seconds,
                                                     self.budget.simulations, seed)
        start, cpu = time.perf_counter(), time.process_time()
        action = int(bot.step(state))
        stats.add(time.perf_counter() - start, time.process_time() - cpu, self.budget.ismcts_seconds,
                  bot.last_simulations)
        return action

    def _hint(self, state: Any, player: int, seed: int) -> int:
        time_ms = None if self.budget.seconds is None else max(1, round(1000 * self.budget.seconds))
        nodes = None if self.budget.seconds is not None else self.budget.hint_nodes
        result = solver.api.hint(self.ours, sos.inner_state(state), top=1, time_ms=time_ms, nodes=nodes,
                                 player=player, seed=seed)
        if result.best is None:
            raise RuntimeError(f"{self.matchup.label}: the hint gave no move at {state}")
        return sos.action_from_move(state, result.best.move)


def play_game(matchup: Matchup, seats: tuple[str, ...], budget: Budget, deal: int, run_seed: int,
              game: Any = None) -> dict[str, Any]:
    """One game of ``matchup`` on deal ``deal`` with ``seats[p]`` the policy of seat ``p``.

    The chance outcomes after the deal and the policies' seeds come from the
    run's stream for this deal, so the games of one item see the same draws as
    long as their play agrees. ``record`` lists the decisions as move strings.
    """
    game = game if game is not None else sos.load_game(matchup.spec)
    ours = load_our_game(matchup.spec)
    state = sos.deal(game, deal)
    if len(seats) != game.num_players():
        raise ValueError(f"{matchup.label}: {len(seats)} seats for {game.num_players()} players")
    chance = item_rng(run_seed, deal, matchup.spec, "chance")
    players = Players(matchup, game, ours, tuple(seats), budget, item_rng(run_seed, deal, matchup.spec, "policies"))
    record: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(chance.choice(actions, p=np.asarray(probs) / sum(probs))))
        else:
            action = players.choose(state)
            record.append(sos.move_from_action(state, action))
            state.apply_action(action)
    inner = state.position.inner
    returns = [float(r) for r in state.returns()]
    return {"seats": list(seats), "returns": returns, "winners": _winners(matchup, inner, returns),
            "moves": len(record), "capped": not inner.is_terminal(), "record": record,
            "stats": {policy: s.to_json() for policy, s in sorted(players.stats.items())}}


def _winners(matchup: Matchup, inner: Any, returns: list[float]) -> list[int]:
    """The seats that won: our rules' winners where the game has them (Aetherya's tie-breaks), else a return
    of 1; nobody wins a game stopped by the ``max_moves`` cap."""
    if not inner.is_terminal():
        return []
    if hasattr(inner, "winners"):
        return [int(p) for p in inner.winners()]
    return [p for p, r in enumerate(returns) if r >= 1.0]


_WARM: set[str] = set()


def warm_up(matchup: Matchup, game: Any) -> None:
    """One untimed hint per process and game before the timed ones, so that no decision pays for imports."""
    if matchup.spec in _WARM:
        return
    _WARM.add(matchup.spec)
    state = sos.deal(game, 0)
    solver.api.hint(load_our_game(matchup.spec), sos.inner_state(state), top=1, nodes=1,
                    player=state.current_player())


def openspiel_game(matchup: Matchup, max_moves: int | None = None) -> Any:
    """The OpenSpiel game of ``matchup`` (with a shorter ``max_moves`` cap when given, e.g. for tests)."""
    if max_moves is None:
        return sos.load_game(matchup.spec)
    name, _, rest = matchup.spec.partition("(")
    params = rest.rstrip(")")
    return sos.load_game(f"{name}({params + ',' if params else ''}max_moves={int(max_moves)})")


def play_item(label: str, budget: Budget, deal: int, run_seed: int = 0,
              max_moves: int | None = None) -> dict[str, Any]:
    """Item (``label``, ``budget``, ``deal``): both games of the pair and each policy's outcome.

    ``outcomes[policy]`` is the policy's win on each game of the pair (a game won by
    both seats of a tie counts for neither); ``scores[policy]`` the returns of the
    seats it played (Aetherya). ``max_moves`` caps the games (the adapter's cap;
    default: the game's own, which real games never reach).
    """
    matchup = BY_LABEL[label]
    game = openspiel_game(matchup, max_moves)
    warm_up(matchup, game)
    n = game.num_players()
    if matchup.competitive:
        if n != 2:
            raise ValueError(f"{label}: a competitive match-up is for 2 players, not {n}")
        seatings = [(HINT, ISMCTS), (ISMCTS, HINT)]
    else:
        seatings = [(HINT,) * n, (ISMCTS,) * n]
    games = [play_game(matchup, seats, budget, deal, run_seed, game) for seats in seatings]
    outcomes: dict[str, list[int]] = {policy: [] for policy in POLICIES}
    scores: dict[str, list[float]] = {policy: [] for policy in POLICIES}
    for g in games:
        for policy in POLICIES:
            mine = [p for p, seat in enumerate(g["seats"]) if seat == policy]
            if not mine:
                continue
            if matchup.competitive:
                outcomes[policy].append(int(g["winners"] == mine))
            else:
                outcomes[policy].append(int(bool(g["winners"])))
            scores[policy].append(g["returns"][mine[0]])
    return {"matchup": label, "spec": matchup.spec, "budget": budget.label, "seconds": budget.seconds,
            "ismctsFactor": budget.ismcts_factor, "deal": deal, "seed": run_seed, "games": games, "outcomes": outcomes,
            "scores": scores if matchup.scored else {}}


def policy_totals(items: list[dict[str, Any]], policy: str) -> dict[str, float]:
    """A policy's decisions, mean and largest seconds per decision, overruns and simulations over ``items``."""
    total = PolicyStats()
    for item in items:
        for g in item["games"]:
            s = g["stats"].get(policy)
            if s is None:
                continue
            total.decisions += s["decisions"]
            total.seconds += s["seconds"]
            total.cpu_seconds += s["cpuSeconds"]
            total.max_seconds = max(total.max_seconds, s["maxSeconds"])
            total.overruns += s["overruns"]
            total.simulations += s["simulations"]
    d = max(1, total.decisions)
    return {"decisions": total.decisions, "meanSeconds": total.seconds / d, "meanCpuSeconds": total.cpu_seconds / d,
            "maxSeconds": total.max_seconds, "overrunShare": total.overruns / d,
            "simulationsPerDecision": total.simulations / d,
            "simulationsPerCpuSecond": total.simulations / total.cpu_seconds if total.cpu_seconds else 0.0,
            "seconds": total.seconds}


def summarize(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The paired comparison of one match-up at one budget (``items`` all of that match-up and budget).

    Wins: each policy's win rate over the games (competitive: both seatings of
    every deal; cooperative: one game per policy per deal) with Wilson
    intervals, the paired difference hint - IS-MCTS per deal with a Student t
    95% interval (few deals), and the exact McNemar p of the games one policy
    won and the other did not (competitive: the games of each seating, a sign
    test over games). Scores (Aetherya): the paired mean difference per deal
    with its t interval and the exact sign-flip permutation p.
    """
    hint_wins = [w for item in items for w in item["outcomes"][HINT]]
    ismcts_wins = [w for item in items for w in item["outcomes"][ISMCTS]]
    per_deal = [statistics.fmean(item["outcomes"][HINT]) - statistics.fmean(item["outcomes"][ISMCTS])
                for item in items]
    only_hint, only_ismcts, p = mcnemar(hint_wins, ismcts_wins)
    games = len(hint_wins)
    out: dict[str, Any] = {
        "deals": len(items), "games": games,
        "hint": {"wins": sum(hint_wins), "rate": sum(hint_wins) / games, "ci": wilson(sum(hint_wins), games)},
        "ismcts": {"wins": sum(ismcts_wins), "rate": sum(ismcts_wins) / games,
                   "ci": wilson(sum(ismcts_wins), games)},
        "difference": mean_t_ci(per_deal), "onlyHint": only_hint, "onlyIsmcts": only_ismcts, "mcnemarP": p,
        "capped": sum(1 for item in items for g in item["games"] if g["capped"]),
        "time": {policy: policy_totals(items, policy) for policy in POLICIES},
    }
    if all(item["scores"] for item in items):
        hint_scores = [statistics.fmean(item["scores"][HINT]) for item in items]
        ismcts_scores = [statistics.fmean(item["scores"][ISMCTS]) for item in items]
        differences = [a - b for a, b in zip(hint_scores, ismcts_scores)]
        out["scores"] = {"hint": mean_t_ci(hint_scores), "ismcts": mean_t_ci(ismcts_scores),
                         "difference": mean_t_ci(differences), "p": sign_flip_p(differences)}
    return out
