"""The benchmark's policies: the rules of thumb do what they say, sessions are seeded and legal."""

import numpy as np

from solver.mnemonic import state as S
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.planner import Horizon
from solver.mnemonic.policies import plain_scene_move, planner_policy, play_session, rule_of_thumb


def test_rules_of_thumb_at_the_table(build, mn):
    state = build([mn.player("A=H2,B=S1c", "7H 8H"), mn.player("D=C2", "9C TC")], rules={"deckBurner.handSize": 2},
                  phase="table")
    assert rule_of_thumb(1)(state, 2, 1) == S.GROUP
    assert rule_of_thumb(2)(state, 2, 1) == S.ROUND
    assert rule_of_thumb(2)(state, 0, 1) == S.GROUP  # no round left: face it now
    assert rule_of_thumb(2)(state, 2, 2) == S.GROUP


def test_rules_of_thumb_play_on_after_a_draw_with_the_victory_choices(build, mn):
    """group.afterDraw = as-victory (MN-27): a Draw offers 'round'/'end' but is no Victory, so the rules of
    thumb play another round while one is left instead of ending the session."""
    state = build([mn.player("A=H2,B=S1c", "7H 8H"), mn.player("D=C2", "9C TC")],
                  rules={"deckBurner.handSize": 2, "group.afterDraw": "as-victory"}, phase="after-victory",
                  tally={"victories": 0, "defeats": 0, "draws": 1}, lastOutcome="draw", attempts=1)
    assert set(state.legal_actions()) == {S.END, S.ROUND}
    assert rule_of_thumb(1)(state, 2, 0) == S.ROUND
    assert rule_of_thumb(2, planned_scenes=True)(state, 1, 0) == S.ROUND
    assert rule_of_thumb(1)(state, 0, 0) == S.END  # no round left


def test_plain_scene_move_takes_the_most_dice(build, mn):
    state = build([mn.player("Big=H3,Small=H1", "7H 2S"), mn.player("D=C2")], rules={"deckBurner.handSize": 2})
    assert plain_scene_move(state) == 5  # 7H: the hearts hold the best skill
    state.apply_move("play 7H")
    assert state.action_to_string(plain_scene_move(state)) == 'use "Big"'


def test_sessions_are_seeded_and_legal():
    game = MnemonicGame(players=2)
    for policy in (rule_of_thumb(1), rule_of_thumb(2), planner_policy(Horizon(1, 1))):
        first = play_session(game.new_initial_state(3), policy, np.random.default_rng(7))
        again = play_session(game.new_initial_state(3), policy, np.random.default_rng(7))
        assert first == again and first["rounds"] <= 3 and first["victory"] in (0, 1)
