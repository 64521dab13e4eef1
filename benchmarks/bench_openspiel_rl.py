"""OpenSpiel's PPO (PyTorch) trained on a small setting of each game, against random play and our hint.

``python benchmarks/run.py openspiel_rl [--quick] [--games a,b]`` needs the ``rl`` extra
(``pip install 'memory-solver[openspiel,rl]'``: PyTorch, CPU is enough). Per game:

- training: OpenSpiel's ``open_spiel.python.pytorch.ppo.PPO`` with its MLP agent (``PPOAgent``, two hidden
  layers of 64), observation tensors (``observation_type=OBSERVATION``: the tensor of ``docs/openspiel.md``, which
  says who observes); Adam's step 1e-3 annealed linearly to 0 (the default 2.5e-4 hardly moved in short runs). On
  Embers the agent is ``rl_agents.FactoredAgent`` (card, x and y outputs for an ``add`` id instead of one output
  per id). Rollouts come from one of two places (``Setting.batched``):
  - OpenSpiel's ``rl_environment`` (``SeatEnv``), 8 environments x 128 steps an update (Forgotten, Mnemonic; any
    game with ``--rl-environment``);
  - the batched environment (``solver.openspiel.batched.BatchedEnv``, kernel-stepped; ``BatchedRollouts``): N games
    stepped together, the learner's decisions sampled in one network call and written straight into PPO's
    buffers (one column per game slot), PPO's own ``learn`` then run on them (Memorinth, Aetherya, Embers;
    collecting costs 6-12x less CPU a learner decision than ``rl_environment`` in Memorinth and Aetherya, and no
    less in Embers, whose 201,791-wide legal masks dominate).
  In the cooperative games (Embers, Forgotten, Mnemonic) one network plays every seat; in the competitive ones
  (Aetherya and Memorinth for two) it plays one seat, alternately the first and the second, against uniformly
  random play. Its reward is the game's return (cooperative), or 1 for a win, 0.5 for a tie and 0 for a loss;
  a setting may add to it in training (declared in the output, the saved result and the curve's title):
  ``shaping`` x the progress of the learner's own step (Embers: Resolve cards turned face up, then strength rows
  completed) or ``margin`` x the learner's return minus the best other (Aetherya's score margin). The reported
  metric is always the win rate.
- the learning curve: every few updates, the win rate of the current policy (sampling its moves) on fresh deals
  against random play (in the batched environment where the rollouts come from it, one game a slot), drawn into
  ``docs/plots/rl-<game>.svg``;
- at the end, on the same seeded deals: the trained policy, random play and our hint (``solver.hint``, top
  move, a fixed node budget) in every seat (cooperative), or the trained policy against random play and
  against our hint in both seats (competitive), with 95% Wilson intervals.

Everything is seeded (PyTorch, the environments, the deals, the policies); CPU time is reported.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import table  # noqa: E402
from openspiel_charts import curves, write  # noqa: E402

from solver.stats import wilson  # noqa: E402
from solver.testing import random_action  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
NUM_ENVS, STEPS_PER_BATCH = 8, 128


@dataclass(frozen=True)
class Setting:
    """A game's small setting for the benchmark."""

    spec: str
    cooperative: bool
    #: training updates (each of 8 environments x 128 steps) in the full and the quick run
    updates: int
    quick_updates: int
    #: our hint's budget per decision (``nodes``)
    hint_nodes: int
    #: deals of the final comparison (the hint is the slow part)
    deals: int = 100
    #: Adam's step size (annealed linearly to 0 over the run) and the entropy bonus
    learning_rate: float = 1e-3
    entropy_coef: float = 0.01
    #: deals of each point of the learning curve
    curve_deals: int = 100
    #: points of the learning curve (besides the untrained policy's)
    curve_points: int = 10
    #: choose Embers' ``add`` ids factored (card, x, y) instead of one output per id (``FactoredAgent``)
    factored: bool = False
    #: games stepped together by the batched environment, and the learner's decisions per game per update
    envs: int = NUM_ENVS
    steps: int = STEPS_PER_BATCH
    #: shaped reward: ``shaping`` times each step's gain in the game's progress (``PROGRESS``), added to the
    #: learner's reward in training only (None: the game's own reward)
    shaping: float | None = None
    #: competitive games: ``margin`` x (the learner's return - the best other return) added to the win / tie / loss
    #: reward in training (a score game's margin; None: the result only)
    margin: float | None = None
    #: collect rollouts in the batched environment (``BatchedRollouts``), else in ``rl_environment`` (``SeatEnv``)
    batched: bool = False


SETTINGS = {
    "forgotten": Setting("forgotten(width=4,height=3,pairs=4,erasure=round)", True, 150, 6, 200),
    "memorinth": Setting("memorinth", False, 100, 6, 2000, deals=30, curve_deals=200, curve_points=10, envs=64,
                         steps=32, batched=True),
    "mnemonic": Setting("mnemonic(players=2)", True, 120, 6, 200),
    "aetherya": Setting("aetherya", False, 80, 4, 200, deals=8, curve_deals=200, curve_points=8, envs=64,
                        steps=32, margin=0.05, batched=True),
    "embers": Setting("embers(chapter=prologue)", True, 120, 3, 200, deals=100, curve_deals=100, curve_points=8,
                      factored=True, envs=16, steps=64, shaping=0.1, batched=True),
}


# ---------------------------------------------------------------------- the learner's view of a game
class SeatEnv:
    """One ``rl_environment`` game seen by a learner that plays ``seats`` (every seat, or one); the other seats
    are played by uniformly random moves inside the environment. Time steps carry the observation and legal
    actions of the seat to act at index 0, so that PPO (``player_id=0``) plays whichever seat is to act."""

    def __init__(self, env, rng: np.random.Generator, cooperative: bool) -> None:
        self.env, self.rng, self.cooperative = env, rng, cooperative
        self.seat, self.episodes = 0, 0

    def _learner(self, player: int) -> bool:
        return self.cooperative or player == self.seat

    def _advance(self, step):
        while not step.last() and not self._learner(step.observations["current_player"]):
            player = step.observations["current_player"]
            step = self.env.step([int(self.rng.choice(step.observations["legal_actions"][player]))])
        return step

    def _reward(self, step) -> float:
        returns = step.rewards
        if self.cooperative:
            return float(returns[0])
        mine, theirs = returns[self.seat], max(r for p, r in enumerate(returns) if p != self.seat)
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    def reset(self):
        while True:
            self.episodes += 1
            self.seat = self.episodes % self.env.num_players
            step = self._advance(self.env.reset())
            if not step.last():
                return self._view(step)

    def _view(self, step):
        from open_spiel.python.rl_environment import StepType, TimeStep
        player = step.observations["current_player"]
        return TimeStep(observations={"info_state": [step.observations["info_state"][player]],
                                      "legal_actions": [step.observations["legal_actions"][player]],
                                      "current_player": 0},
                        rewards=None, discounts=None, step_type=StepType.MID)

    def step(self, action: int):
        """Play the learner's ``action``, then the others' until the learner's turn or the end; returns
        ``(next time step, reward, done)`` (a finished game is dealt again)."""
        step = self._advance(self.env.step([int(action)]))
        if step.last():
            return self.reset(), self._reward(step), True
        return self._view(step), 0.0, False


# ---------------------------------------------------------------------- the batched environment's rollouts
def embers_progress(env) -> np.ndarray:
    """Embers' progress in each slot (the shaped reward's measure): the Resolve cards face up in the Prologue's
    part one (EM-51, EM-52: three win it), then 3 + the completed strength rows of part two (EM-56)."""
    from solver.embers.openspiel import _L
    rows = env.rules.states
    face_up = sum(rows[:, _L["STRENGTH"] + k * _L["ROW_WORDS"] + 1] for k in range(3))
    return np.where(rows[:, _L["part"]] <= 1, face_up, 3 + rows[:, _L["completed"]]).astype(np.float64)


#: the progress measured for a shaped reward, per game: the function and what it counts
PROGRESS = {"embers": (embers_progress, "Resolve cards face up in part one, then 3 + completed strength rows")}


class BatchedRollouts:
    """The learner's decisions in a :class:`~solver.openspiel.batched.BatchedEnv`, gathered into OpenSpiel PPO's
    buffers (``steps_per_batch`` x ``num_envs``: one column per slot).

    Every slot always waits for a decision: the learner's (every seat in a cooperative game; in a competitive one
    the slot's seat, which alternates from game to game) are sampled from PPO's network, in one call for all the
    slots; the others are uniformly random legal moves. A transition's reward (the game's return, or 1 / 0.5 / 0
    for a win / tie / loss) is given at the game's end to the slot's last learner transition of that game, with its
    ``done``; a shaped reward adds ``shaping`` x the progress gained by the learner's own step, and ``margin`` x
    the margin of the learner's return over the best other one at the end. The steps go on
    until every slot holds ``steps + 1`` transitions; the first ``steps`` fill the buffers and the next one's
    observation bootstraps the value (the rest, played by the old policy, are dropped)."""

    def __init__(self, env, name: str, cooperative: bool, rng: np.random.Generator,
                 shaping: float | None = None, margin: float | None = None) -> None:
        self.env, self.cooperative, self.rng = env, cooperative, rng
        self.seat = np.arange(env.n) % env.num_players
        self.progress = PROGRESS[name][0] if shaping else None
        self.shaping, self.margin = shaping, margin
        self.games = 0

    def _outcome(self, rewards: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """The learner's reward for games that ended with ``rewards`` (the returns), the learner in ``seat``."""
        if self.cooperative:
            return rewards[:, 0]
        rows = np.arange(len(rewards))
        mine = rewards[rows, seat]
        others = rewards.copy()
        others[rows, seat] = -np.inf
        theirs = others.max(axis=1)
        result = np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))
        return result + self.margin * (mine - theirs) if self.margin else result

    def collect(self, agent, torch) -> torch.Tensor:
        """Play until every slot has ``agent.steps_per_batch + 1`` learner transitions; fill ``agent``'s buffers;
        returns the observations that bootstrap the value (``agent.learn``'s next observations)."""
        env, n, steps = self.env, self.env.n, agent.steps_per_batch
        obs_chunks, mask_chunks, act_chunks, logp_chunks, value_chunks, slots = [], [], [], [], [], []
        rewards, dones = [], []
        count = np.zeros(n, dtype=np.int64)
        last = np.full(n, -1, dtype=np.int64)      # the slot's last transition in its current game, or -1
        total = 0
        while count.min() <= steps:
            learner = np.ones(n, dtype=bool) if self.cooperative else env.current_player == self.seat
            rows = np.flatnonzero(learner)
            actions = env.random_actions(self.rng)
            before = self.progress(env) if self.progress is not None else None
            if len(rows):
                obs = torch.from_numpy(env.observations()[rows])
                mask = torch.from_numpy(env.legal_mask[rows])
                with torch.no_grad():
                    chosen, logp, _, value, _ = agent.get_action_and_value(obs, legal_actions_mask=mask)
                actions[rows] = chosen.numpy()
                obs_chunks.append(obs), mask_chunks.append(mask), act_chunks.append(chosen)
                logp_chunks.append(logp), value_chunks.append(value.flatten())
                slots.append(rows)
                ids = np.arange(total, total + len(rows))
                total += len(rows)
                rewards.extend([0.0] * len(rows)), dones.extend([False] * len(rows))
                last[rows] = ids
                count[rows] += 1
            reward, done = env.step(actions)
            if before is not None and len(rows):    # the learner's own steps' progress (not a game's last step)
                gain = self.progress(env)[rows] - before[rows]
                for i, g in zip(last[rows], np.where(done[rows], 0.0, gain)):
                    rewards[i] += self.shaping * g
            ended = np.flatnonzero(done)
            if len(ended):
                outcome = self._outcome(reward[ended], self.seat[ended])
                for slot, value in zip(ended, outcome):
                    if last[slot] >= 0:
                        rewards[last[slot]] += value
                        dones[last[slot]] = True
                    last[slot] = -1
                self.seat[ended] = (self.seat[ended] + 1) % env.num_players
                self.games += len(ended)
        slot_of = np.concatenate(slots)
        order = np.argsort(slot_of, kind="stable")            # per slot, in time order
        starts = np.concatenate([[0], np.cumsum(np.bincount(slot_of, minlength=n))[:-1]])
        index = torch.from_numpy(order[starts[None, :] + np.arange(steps + 1)[:, None]])   # [steps + 1, n]
        obs, mask = torch.cat(obs_chunks), torch.cat(mask_chunks)
        kept = index[:steps]
        agent.obs[:] = obs[kept]
        agent.legal_actions_mask[:] = mask[kept]
        agent.actions[:] = torch.cat(act_chunks)[kept].float()
        agent.logprobs[:] = torch.cat(logp_chunks)[kept]
        agent.values[:] = torch.cat(value_chunks)[kept]
        agent.rewards[:] = torch.tensor(rewards, dtype=torch.float32)[kept]
        agent.dones[:] = torch.tensor(dones, dtype=torch.float32)[kept]
        agent.total_steps_done += steps * n
        return obs[index[steps]]


class Bootstrap:
    """What ``PPO.learn`` reads of a time step (the learner's observation, ``player_id`` 0)."""

    def __init__(self, observation) -> None:
        self.observations = {"info_state": [observation]}


def batched_win_rate(agent, torch, spec: str, cooperative: bool, games: int, seed: int) -> list[float]:
    """The trained policy (sampling its moves) on ``games`` games of the batched environment, one a slot, against
    random play in the other seats (in a competitive game the slot's seat is ``slot % players``); per game the
    outcome as :func:`won`."""
    from solver.openspiel.batched import BatchedEnv
    env = BatchedEnv(spec, n=games, seed=seed)
    rng = np.random.default_rng(seed)
    seat = np.arange(games) % env.num_players
    outcome = np.full(games, np.nan)
    while np.isnan(outcome).any():
        learner = (np.ones(games, dtype=bool) if cooperative else env.current_player == seat) & np.isnan(outcome)
        actions = env.random_actions(rng)
        rows = np.flatnonzero(learner)
        if len(rows):
            with torch.no_grad():
                chosen, *_ = agent.get_action_and_value(torch.from_numpy(env.observations()[rows]),
                                                        legal_actions_mask=torch.from_numpy(env.legal_mask[rows]))
            actions[rows] = chosen.numpy()
        rewards, done = env.step(actions)
        for slot in np.flatnonzero(done & np.isnan(outcome)):
            outcome[slot] = won(rewards[slot].tolist(), None if cooperative else int(seat[slot]))
    return outcome.tolist()


# ---------------------------------------------------------------------- policies for evaluation
def ppo_move(agent, torch, state, player: int) -> int:
    obs = torch.Tensor(np.asarray(state.observation_tensor(player), dtype=np.float32))[None, :]
    mask = torch.zeros((1, agent.num_actions), dtype=torch.bool)
    mask[0, state.legal_actions()] = True
    with torch.no_grad():
        action, *_ = agent.get_action_and_value(obs, legal_actions_mask=mask)
    return int(action.item())


def hint_move(ours, sos, solver_api, state, player: int, nodes: int, seed: int) -> int:
    result = solver_api.hint(ours, sos.inner_state(state), top=1, nodes=nodes, player=player, seed=seed)
    return sos.action_from_move(state, result.best.move)


def play(game, sos, deal: int, seats: tuple, rng: np.random.Generator) -> list[float]:
    """One game from deal ``deal``: ``seats[p]`` is a function ``(state, player) -> action``."""
    state = sos.deal(game, deal)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
        else:
            player = state.current_player()
            state.apply_action(seats[player](state, player))
    return state.returns()


def won(returns: list[float], seat: int | None) -> float:
    """The outcome for ``seat`` (1 win, 0.5 tie, 0 loss), or the team's return (``seat`` None)."""
    if seat is None:
        return float(returns[0] > 0)
    theirs = max(r for p, r in enumerate(returns) if p != seat)
    return 1.0 if returns[seat] > theirs else 0.5 if returns[seat] == theirs else 0.0


def win_rate(game, sos, policy, other, deals: list[int], cooperative: bool, seed: int) -> list[float]:
    """Per deal: the team's result with ``policy`` in every seat, or ``policy``'s result in each seat in turn
    against ``other`` (the deal played once per seat)."""
    rng = np.random.default_rng(seed)
    n = game.num_players()
    out = []
    for deal in deals:
        if cooperative:
            out.append(won(play(game, sos, deal, tuple([policy] * n), rng), None))
            continue
        for seat in range(n):
            seats = tuple(policy if p == seat else other for p in range(n))
            out.append(won(play(game, sos, deal, seats, rng), seat))
    return out


def interval(results: list[float]) -> str:
    wins = sum(results)
    lo, hi = wilson(int(round(wins)), len(results))
    return f"{wins / len(results):.1%} [{lo:.1%}, {hi:.1%}]"


# ---------------------------------------------------------------------- training
def agent_fn(setting: Setting, ours):
    """OpenSpiel's MLP agent (one output per action id), or the factored one (``rl_agents.py``) for Embers."""
    if not setting.factored:
        from open_spiel.python.pytorch.ppo import PPOAgent
        return PPOAgent
    from rl_agents import embers_agent_fn

    from solver.embers.openspiel import codec
    return embers_agent_fn(codec(ours))


def train(name: str, setting: Setting, quick: bool, seed: int, train_cpu: float | None = None,
          rl_env: bool = False) -> dict:
    """PPO on ``setting``, then the final comparison; training stops early (after a whole update, the curve
    measured there) once it has used ``train_cpu`` seconds of CPU, the learning rate annealed as planned."""
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch.ppo import PPO

    import solver.api as solver_api
    import solver.openspiel as sos
    from solver.registry import load_game

    torch.manual_seed(seed)
    np.random.seed(seed)        # PPO shuffles its minibatches with numpy's global generator
    game = sos.load_game(setting.spec)
    ours = load_game(setting.spec)
    batched = setting.batched and not rl_env
    num_envs, per_env = (setting.envs, setting.steps) if batched else (NUM_ENVS, STEPS_PER_BATCH)
    size = game.observation_tensor_size()
    agent = PPO(input_shape=(size,), num_actions=game.num_distinct_actions(), num_players=game.num_players(),
                player_id=0, num_envs=num_envs, steps_per_batch=per_env, agent_fn=agent_fn(setting, ours),
                learning_rate=setting.learning_rate, entropy_coef=setting.entropy_coef)
    rng = np.random.default_rng(seed)
    if batched:
        from solver.openspiel.batched import BatchedEnv
        rollouts = BatchedRollouts(BatchedEnv(setting.spec, n=num_envs, seed=seed), name, setting.cooperative,
                                   np.random.default_rng(seed), setting.shaping, setting.margin)
    else:
        envs = []
        for k in range(NUM_ENVS):
            env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION)
            env.seed(seed * 100 + k)
            envs.append(SeatEnv(env, np.random.default_rng(seed * 100 + k), setting.cooperative))
        steps = [env.reset() for env in envs]

    def random_move(state, player):
        return int(rng.choice(state.legal_actions()))

    def learned(state, player):
        return ppo_move(agent.network, torch, state, player)

    updates = setting.quick_updates if quick else setting.updates
    every = max(1, updates // setting.curve_points)
    curve_deals = list(range(10_000, 10_000 + (20 if quick else setting.curve_deals)))

    def curve_point() -> float:
        if batched:     # curve games in the batched environment (its own deals, seeded)
            rate = batched_win_rate(agent.network, torch, setting.spec, setting.cooperative, len(curve_deals), 1)
        else:
            rate = win_rate(game, sos, learned, random_move, curve_deals, setting.cooperative, 1)
        return sum(rate) / len(rate)

    curve, start, played = [], time.process_time(), 0
    curve.append((0, curve_point()))
    for update in range(1, updates + 1):
        agent.anneal_learning_rate(update - 1, updates)
        if batched:
            agent.learn([Bootstrap(obs) for obs in rollouts.collect(agent, torch)])
            played = rollouts.games
        else:
            for _ in range(STEPS_PER_BATCH):
                outputs = agent.step(steps)
                results = [env.step(out.action) for env, out in zip(envs, outputs)]
                steps = [r[0] for r in results]
                agent.post_step([r[1] for r in results], [r[2] for r in results])
                played += sum(r[2] for r in results)
            agent.learn(steps)
        over_budget = train_cpu is not None and time.process_time() - start > train_cpu
        if update % every == 0 or update == updates or over_budget:
            curve.append((update * num_envs * per_env, curve_point()))
            print(f"  {name}: update {update}/{updates}, {played} games, win rate against random "
                  f"{curve[-1][1]:.1%}, {time.process_time() - start:.0f} s CPU", flush=True)
        if over_budget:
            print(f"  {name}: stopped after update {update} of {updates}: {train_cpu:.0f} s CPU budget", flush=True)
            break
    training_seconds = time.process_time() - start

    def hinted(state, player):
        return hint_move(ours, sos, solver_api, state, player, setting.hint_nodes, int(rng.integers(2**31)))

    deals = list(range(20 if quick else setting.deals))
    start = time.process_time()
    if setting.cooperative:     # the team's win rate, the same policy in every seat
        final = {"trained policy": win_rate(game, sos, learned, random_move, deals, True, 2),
                 "random play": win_rate(game, sos, random_move, random_move, deals, True, 2),
                 "our hint": win_rate(game, sos, hinted, hinted, deals, True, 2)}
    else:                       # the first policy's win rate, in each seat against the second
        final = {"trained vs random": win_rate(game, sos, learned, random_move, deals, False, 2),
                 "trained vs our hint": win_rate(game, sos, learned, hinted, deals, False, 2),
                 "our hint vs random": win_rate(game, sos, hinted, random_move, deals, False, 2),
                 "random vs random": win_rate(game, sos, random_move, random_move, deals, False, 2)}
    return {"spec": setting.spec, "cooperative": setting.cooperative, "updates": update, "planned_updates": updates,
            "learning_rate": setting.learning_rate, "entropy_coef": setting.entropy_coef,
            "agent": "factored (rl_agents.FactoredAgent)" if setting.factored else "OpenSpiel's PPOAgent",
            "steps": update * num_envs * per_env, "games": played, "curve": curve,
            "environment": (f"BatchedEnv, {num_envs} games x {per_env} learner decisions an update" if batched
                            else f"rl_environment, {NUM_ENVS} environments x {STEPS_PER_BATCH} steps an update"),
            "shaping": setting.shaping if batched else None, "margin": setting.margin if batched else None,
            "training_seconds": round(training_seconds, 1), "evaluation_seconds": round(time.process_time() - start, 1),
            "final": final, "deals": len(deals), "curve_deals": len(curve_deals)}


def draw(name: str, setting: Setting, result: dict) -> Path:
    """The learning curve, with the final levels of random play and our hint as dashed lines."""
    curve = result["curve"]
    ends = (curve[0][0], curve[-1][0])
    final = {label: sum(r) / len(r) for label, r in result["final"].items()}
    shaped = (f" (shaped reward: +{result['shaping']:g} a progress step)" if result.get("shaping") else
              f" (reward + {result['margin']:g} x score margin)" if result.get("margin") else "")
    if setting.cooperative:
        title = f"PPO on {setting.spec}: team win rate{shaped}"
        series = {"trained policy (every seat)": curve,
                  "random play": [(x, final["random play"]) for x in ends],
                  "our hint": [(x, final["our hint"]) for x in ends]}
        dashed = frozenset(("random play", "our hint"))
    else:
        title = f"PPO on {setting.spec}: win rate against random play{shaped}"
        series = {"trained policy vs random": curve,
                  "our hint vs random": [(x, final["our hint vs random"]) for x in ends],
                  "random vs random": [(x, final["random vs random"]) for x in ends]}
        dashed = frozenset(("our hint vs random", "random vs random"))
    planned = result.get("planned_updates", result["updates"])
    stopped = f" of {planned} planned (CPU budget)" if planned > result["updates"] else ""
    where = " in the batched environment" if result.get("environment", "").startswith("BatchedEnv") else ""
    note = (f"{result['updates']} updates{stopped}, {result['steps']:,} learner steps, {result['training_seconds']:.0f} s "
            f"CPU; each point {result['curve_deals']} games{where} (dashed: the final comparison's levels)")
    return write(f"rl-{name}", curves(title, series, "training steps", "win rate", y_range=(0.0, 1.0),
                                      dashed=dashed, note=note))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_openspiel_rl")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", default=",".join(SETTINGS))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--train-cpu", type=float, default=None,
                        help="stop training a game after this many CPU seconds (the final comparison still runs)")
    parser.add_argument("--rl-environment", action="store_true",
                        help="collect rollouts in OpenSpiel's rl_environment even where the setting uses the batched "
                             "environment")
    parser.add_argument("--redraw", action="store_true",
                        help="no training: print the tables and draw the curves of the saved results")
    args = parser.parse_args(argv)
    unknown = [name for name in args.games.split(",") if name not in SETTINGS]
    if unknown:
        print(f"bench_openspiel_rl: --games: unknown game {unknown[0]!r} (one of {', '.join(SETTINGS)})",
              file=sys.stderr)
        return 2
    if args.redraw:
        return report(args.games.split(","), "-quick" if args.quick else "", None)
    try:
        import torch  # noqa: F401
        import solver.openspiel  # noqa: F401
    except ImportError as exc:
        print(f"bench_openspiel_rl: needs PyTorch and OpenSpiel ({exc}): pip install 'memory-solver[openspiel,rl]' "
              "(a CPU build of PyTorch is enough: docs/openspiel.md)", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    RESULTS.mkdir(exist_ok=True)
    return report(args.games.split(","), "-quick" if args.quick else "",
                  lambda name: train(name, SETTINGS[name], args.quick, args.seed, args.train_cpu,
                                     args.rl_environment))


def report(names: list[str], suffix: str, run) -> int:
    """Per game: ``run(name)``'s result saved (or, ``run`` None, the saved one read), its table and curve."""
    rows = []
    for name in names:
        setting = SETTINGS[name]
        print(f"\n### {name}: `{setting.spec}`\n", flush=True)
        path = RESULTS / f"rl_{name}{suffix}.json"
        if run is None and not path.exists():
            print(f"bench_openspiel_rl: --redraw: no saved result {path}", file=sys.stderr)
            return 2
        if run is None:
            result = json.loads(path.read_text(encoding="utf-8"))
        else:
            result = run(name)
            path.write_text(json.dumps(result, indent=1), encoding="utf-8")
        for label, results in result["final"].items():
            rows.append([name, label, interval(results), len(results)])
        print(table(["policy", "win rate [95% CI]", "games"],
                    [[label, interval(r), len(r)] for label, r in result["final"].items()]))
        print(f"\n{result['steps']:,} training steps ({result['games']:,} games) in {result['training_seconds']} s CPU; "
              f"evaluation {result['evaluation_seconds']} s CPU")
        if "environment" in result:
            print(f"rollouts: {result['environment']}; reward: "
                  + (f"shaped, the game's result + {result['shaping']:g} x progress ({PROGRESS[name][1]})"
                     if result.get("shaping") else f"the result + {result['margin']:g} x the margin of returns"
                     if result.get("margin") else "the game's result"))
        draw(name + suffix, setting, result)
    print("\n### All games\n")
    print(table(["game", "policy", "win rate [95% CI]", "games"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
