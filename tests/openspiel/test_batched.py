"""The batched environment (``solver/openspiel/batched.py``) against the single-game path.

Every game, on its vectorised rules where it has them and on the generic state rules otherwise, plays seeded
random steps with ``record=True``; each finished game is then replayed through the OpenSpiel adapter from its
first state with the same decisions and chance outcomes: at every decision the batched legal mask and
observation tensor must equal the adapter's, and the returns at the end too.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'memory-solver[openspiel]')")

import solver.openspiel as sos  # noqa: E402
from solver.errors import IllegalMoveError  # noqa: E402
from solver.game import CHANCE_PLAYER  # noqa: E402
from solver.datafiles import PACKAGE_DATA  # noqa: E402
from solver.openspiel.batched import BatchedEnv  # noqa: E402

#: (spec, slots, steps): small settings, so that games finish within the steps
CASES = [("forgotten(width=4,height=3,pairs=4,erasure=turn)", 16, 60),
         ("forgotten(width=5,height=4,goal=clear,erasure=round,max_moves=40)", 8, 60),
         ("memorinth", 8, 150), ("memorinth(players=3,variant=master,action_side=special,max_moves=30)", 6, 40),
         ("embers(chapter=prologue)", 6, 80), ("embers(chapter=one)", 6, 120),
         ("embers(chapter=prologue,max_moves=15)", 4, 40), ("aetherya(max_moves=30)", 3, 40),
         ("aetherya(mode=objects,max_moves=30)", 2, 32), ("aetherya(players=1,max_moves=30)", 2, 32)]
#: Aetherya on its step kernel: the base game, Objects and co-op at every player count, the solo campaign, whole
#: games and capped ones
CASES += [(f"aetherya(players={players},mode={mode})", 2, 400) for players in (2, 3, 4)
          for mode in ("base", "coop", "objects")]
CASES += [("aetherya(players=3,mode=coop,max_moves=45)", 3, 50), ("aetherya(players=1)", 3, 400)]
#: Mnemonic on its step kernel: every player count and both modes (one with the max_moves cap)
CASES += [(f"mnemonic(players={players},mode={mode}{',max_moves=12' if players == 4 else ''})", 3, 40)
          for players in range(1, 7) for mode in ("deck-burner", "into-the-grey")]
VECTORISED = ("forgotten", "memorinth", "mnemonic", "embers", "aetherya")


@pytest.mark.parametrize("spec,slots,steps", CASES)
def test_the_batched_games_are_the_single_games(spec, slots, steps):
    env = BatchedEnv(spec, n=slots, seed=3, record=True)
    game = sos.load_game(spec)
    shadows = _Shadows(game, env)
    rng = np.random.default_rng(5)
    for _ in range(steps):
        seen = env.observations()
        for i in range(slots):
            shadow = shadows[i]
            player = int(env.current_player[i])
            assert player == shadow.current_player()
            assert np.flatnonzero(env.legal_mask[i]).tolist() == shadow.legal_actions()
            assert np.array_equal(seen[i], np.asarray(shadow.observation_tensor(player), dtype=np.float32))
        checked = len(env.completed)
        rewards, done = shadows.step(env.random_actions(rng))
        ended = env.completed[checked:]
        assert len(ended) == done.sum()
        for (first, recorded, returns), slot in zip(ended, np.flatnonzero(done)):
            replayed = sos.wrap_state(game, first)
            for _, action in recorded:
                replayed.apply_action(action)
            assert replayed.is_terminal() and replayed.returns() == returns == rewards[slot].tolist()
        assert not rewards[~done].any()
    assert len(env.completed) >= 1, f"no game of {spec} finished within {steps} steps"
    name = spec.split("(")[0]
    assert env.vectorised == (name in VECTORISED)


@pytest.mark.parametrize("mode", ["deck-burner", "into-the-grey"])
def test_a_mnemonic_rules_file_runs_on_the_step_kernel(tmp_path, mode):
    """The step kernel reads every setting of a rules file (its config vector): a rule set far from the defaults
    plays the same games as the adapter."""
    rules = json.loads((PACKAGE_DATA / "mnemonic_rules.json").read_text(encoding="utf-8"))
    rules.update(joker="wild", help={"onlyWithoutMatch": False, "extraDice": 1, "helperSharesComplication": False},
                 learning={"allowed": True, "onlyWithoutMatch": False, "rating": 2},
                 weaving={"perPlayer": 2, "refresh": "round", "avoidCoversHelper": False},
                 complications={"repairOutsideVictory": "weaving"},
                 injury={"scope": "skill", "effect": "minus-one-die"}, round={"rotateFirstPlayer": True},
                 group={"needsComplication": False, "nobodyRolls": "victory", "afterDraw": "as-victory",
                        "maxAttempts": 2},
                 deckBurner={"handSize": 3, "groupDraws": "in-turn"}, intoTheGrey={"groupCard": "none"})
    rules["scene"]["passWithoutMatch"] = False
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules), encoding="utf-8")
    test_the_batched_games_are_the_single_games(f"mnemonic(players=3,mode={mode},rules={path})", 3, 40)


class _Shadows:
    """The adapter's state of each slot: its game's first state stepped through the slot's recorded steps. Each
    recorded step is applied once, when first seen (replaying every game from its first state at every step made
    the 400-step cases quadratic); :meth:`step` steps the environment and starts the slots dealt again over from
    their new first states."""

    def __init__(self, game, env: BatchedEnv) -> None:
        self.game, self.env = game, env
        self.states: list = [None] * env.n
        self.applied = [0] * env.n

    def step(self, actions) -> tuple[np.ndarray, np.ndarray]:
        rewards, done = self.env.step(actions)
        for slot in np.flatnonzero(done):
            self.states[slot] = None
        return rewards, done

    def __getitem__(self, slot: int) -> pyspiel.State:
        first, steps = self.env.history(slot)
        if self.states[slot] is None:
            self.states[slot], self.applied[slot] = sos.wrap_state(self.game, first), 0
        state = self.states[slot]
        assert len(steps) >= self.applied[slot]
        for actor, action in steps[self.applied[slot]:]:
            if actor != CHANCE_PLAYER:
                assert state.current_player() == actor
            state.apply_action(action)
        self.applied[slot] = len(steps)
        assert state.position.moves == self.env.moves[slot]
        return state


def test_steps_are_checked_and_seeded():
    one, two = BatchedEnv("forgotten(width=4,height=3)", n=4, seed=9), BatchedEnv("forgotten(width=4,height=3)", n=4,
                                                                                    seed=9)
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(20):
        r1, d1 = one.step(one.random_actions(rng1))
        r2, d2 = two.step(two.random_actions(rng2))
        assert np.array_equal(r1, r2) and np.array_equal(d1, d2)
        assert np.array_equal(one.observations(), two.observations())
    bad = one.random_actions(rng1)
    bad[2] = next(a for a in range(one.num_actions) if not one.legal_mask[2, a])
    with pytest.raises(IllegalMoveError, match=r"actions\[2\]"):
        one.step(bad)
    with pytest.raises(ValueError, match="expected 4"):
        one.step([0, 1])


def test_the_state_rules_serve_a_game_without_vectorised_rules():
    fast, slow = BatchedEnv("memorinth", n=3, seed=2), BatchedEnv("memorinth", n=3, seed=2, fast=False)
    assert fast.vectorised and not slow.vectorised
    assert np.array_equal(fast.legal_mask, slow.legal_mask)      # the same deals: the kernel's deal of each seed
    assert np.array_equal(fast.observations(), slow.observations())


@pytest.mark.parametrize("spec", ["memorinth(players=3)", "aetherya(players=3)", "aetherya(mode=coop)",
                                  "aetherya(players=1)", "aetherya(players=3,mode=objects)"])
def test_an_illegal_action_changes_no_slot_of_the_kernel_rules(spec):
    """A step kernel (Memorinth's, Aetherya's) checks every slot before it applies any: a refused step names the slot
    and leaves every game as it was."""
    env = BatchedEnv(spec, n=5, seed=4)
    assert env.vectorised
    rng = np.random.default_rng(2)
    for _ in range(7):
        env.step(env.random_actions(rng))
    seen, moves = env.observations(), env.moves.copy()
    actions = env.random_actions(rng)
    actions[3] = next(a for a in range(env.num_actions) if not env.legal_mask[3, a])
    with pytest.raises(IllegalMoveError, match=r"actions\[3\]"):
        env.step(actions)
    assert np.array_equal(env.observations(), seen) and np.array_equal(env.moves, moves)
    actions[3] = env.random_actions(np.random.default_rng(0))[3]
    env.step(actions)
    assert ((env.moves == moves + 1) | (env.moves == 0)).all()     # played, or finished and dealt again


def test_an_embers_deal_lost_before_the_first_decision_is_dealt_again(tmp_path):
    """With a deck of mostly all-clear cards most Prologue deals cannot play a card (EM-50); the step kernel's rules
    deal those slots again (``redeal``), and the games still agree with the adapter."""
    from solver.embers.cards import DEFAULT_DECK_PATH
    data = json.loads(DEFAULT_DECK_PATH.read_text())
    for i, card in enumerate(data["memory"]):
        if i % 5:
            card["blocked"] = "...."
    path = tmp_path / "clear.json"
    path.write_text(json.dumps(data))
    spec = f"embers(chapter=prologue,deck={path})"
    game = sos.load_game(spec)
    lost = [s for s in range(40) if game.context.game.new_initial_state(s).is_terminal()]
    assert len(lost) > 10
    env = BatchedEnv(spec, n=40, seed=0)
    assert env.vectorised and (env.current_player >= 0).all()
    test_the_batched_games_are_the_single_games(spec, 4, 20)


@pytest.mark.parametrize("chapter", ["one", "prologue"])
def test_an_embers_row_reads_back_as_the_adapters_state(chapter):
    """``EmbersBatch.state`` (a kernel row as our state) is the adapter's state after the same steps, mid-game too:
    demons, tainted cards, strength rows, the discard pile and the box."""
    spec = f"embers(chapter={chapter})"
    env, game = BatchedEnv(spec, n=4, seed=6, record=True), sos.load_game(spec)
    shadows = _Shadows(game, env)
    rng = np.random.default_rng(8)
    for _ in range(60):
        for i in range(env.n):
            assert env.rules.state(i).to_json() == sos.inner_state(shadows[i]).to_json()
        shadows.step(env.random_actions(rng))


def test_aetherya_solo_later_ages_are_the_single_games():
    """Random play almost never ends the solo campaign's first Age well; with its Legends marked written (on the
    kernel's rows and on our states alike) the campaign reaches the later Ages, and the kernel's rows stay our
    states stepped with the same actions and chance outcomes: the same state, legal actions, observation tensor
    (against the state rules' tensor) and returns, through the swap, the 2x2 block kept and the new territories."""
    from solver.kernels import aetherya as kernel
    layout = kernel.layout()
    spec, n = "aetherya(players=1)", 4
    env = BatchedEnv(spec, n=n, seed=6, record=True)
    reference = BatchedEnv(spec, n=n, seed=6, fast=False)
    ours = [env.rules.state(i) for i in range(n)]
    rng = np.random.default_rng(1)
    phases = set()
    for _ in range(400):
        for i, state in enumerate(ours):
            if state.age == 0:
                state.written = list(state.rows[0])
                env.rules.states[i, layout["WRITTEN"]:layout["WRITTEN"] + 16] = \
                    [int(k in state.rows[0]) for k in range(16)]
        reference.rules.states, reference.moves[:] = ours, env.moves
        assert np.array_equal(env.observations(), reference.observations(env.current_player))
        for i, state in enumerate(ours):
            assert env.rules.state(i).to_json() == state.to_json()
            assert np.flatnonzero(env.legal_mask[i]).tolist() == state.legal_actions()
        assert env.rules.returns().tolist() == [state.returns() for state in ours]
        phases |= {state.phase for state in ours}
        done_before = [len(env.history(i)[1]) for i in range(n)]
        rewards, done = env.step(env.random_actions(rng))
        if done.any():
            break
        for i, state in enumerate(ours):
            for _, action in env.history(i)[1][done_before[i]:]:
                state.apply_action(action)
    assert {"swap", "block"} <= phases and max(state.age for state in ours) >= 1


@pytest.mark.parametrize("spec", ["aetherya(players=3)", "aetherya(players=4,mode=coop)", "aetherya(players=1)",
                                  "aetherya(players=4,mode=objects)"])
def test_an_aetherya_row_reads_back_as_the_adapters_state(spec):
    """``AetheryaBatch.state`` (a kernel row as our state) is the adapter's state after the same steps, mid-game too:
    kingdoms, piles in order, Legends held, the box, solo's pair and rows."""
    env, game = BatchedEnv(spec, n=3, seed=2, record=True), sos.load_game(spec)
    shadows = _Shadows(game, env)
    rng = np.random.default_rng(4)
    for _ in range(80):
        for i in range(env.n):
            assert env.rules.state(i).to_json() == sos.inner_state(shadows[i]).to_json()
        shadows.step(env.random_actions(rng))
