"""The planner: proven against exhaustive search on the real session, checked by hand, and blind to hidden cards."""

import json
from fractions import Fraction

import numpy as np
import pytest

from solver import api, contract
from solver.search import Limits, SearchContext
from solver.cli import main
from solver.errors import InvalidInputError
from solver.mnemonic.advice import myopic_values
from solver.mnemonic.cards import card_code
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.model import layout_of, position_of
from solver.mnemonic.odds import group_odds, individual_odds
from solver.mnemonic.planner import Horizon, evaluate
from solver.twins import mnemonic_plan as twin

GREY_DONE = " ".join(f"{card_code(c)}@{c % 2}" for c in range(54))  # Into the Grey, every card played
NO_GROUP_CARD = {"intoTheGrey.groupCard": "none"}  # Group Scenes without cards, so that the table can still play


def advise(state, horizon=(0, 1), top=3, **kwargs):
    """A hint with a fixed horizon (tests never depend on the machine's speed)."""
    ctx = SearchContext(limits=Limits(time_ms=120_000, nodes=2_000_000))
    return contract.hint(state.game, state, ctx, top=top, horizon=horizon, **kwargs)


def twin_value(state, rounds, groups, observer=None, tail=False):
    """The twin's exact value within the horizon (``tail``: with the continuation estimate, MN-44)."""
    layout = layout_of(state, rounds, observer, tail=tail)
    values, _, complete, _ = twin.plan_values(layout.config, layout.skills,
                                              [position_of(state, layout, rounds, groups)], 200_000, 0)
    assert complete
    return values[0]


# seeds of small positions covering every phase, 1-3 player tables, both modes, every rule variant of
# conftest.RULE_CHOICES and the one-round horizon (each < 0.3 s); in review, sweeps of 150 Deck Burner and 200
# Into the Grey seeds agreed on every position
FAST_SEEDS = {"deck-burner": [1, 2, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 20, 21, 22, 23, 24, 27, 32, 34, 35],
              "into-the-grey": [0, 2, 4, 6, 8, 9, 10, 11, 12, 13, 14, 16, 17, 20, 21, 22, 23, 25, 26, 28, 29, 30, 33,
                                34]}


@pytest.mark.parametrize("mode,seed", [(mode, seed) for mode, seeds in FAST_SEEDS.items() for seed in seeds])
def test_mn33_mn37_twin_equals_exhaustive_search_over_the_real_state(game, planning, mode, seed):
    """MN-33/MN-37 (and MN-23's group rules): the planning model's value is the exact expectimax value of the
    session's own rules."""
    rng = np.random.default_rng(seed)
    state = planning.small_position(game, rng, max_players=2 if seed % 3 else 3, mode=mode)
    if state.is_terminal():
        return
    rounds, groups = (0, 1 + seed % 2) if seed % 4 else (1, 1)
    if rounds == 1 and (state.n > 1 or len(state.deck) > 3):
        rounds = 0
    assert twin_value(state, rounds, groups) == planning.exhaustive(state, rounds, groups)


def test_mn34_a_final_group_scene_is_worth_its_victory_odds(build, mn):
    """MN-34: with one Group Scene left and nothing after it, the value is the exact Victory chance."""
    state = build([mn.player("A=H3,B=S1c,C=D2c"), mn.player("D=C2,E=H1c")], mode="into-the-grey",
                  phase="table", discard=GREY_DONE, rules=NO_GROUP_CARD)
    expected = group_odds([3, 2], 3).victory
    assert twin_value(state, 0, 1) == expected
    evaluation = evaluate(state, 0, Horizon(1, 1), continuation=False)
    assert evaluation.exact[400] == expected  # 'group' (the round is impossible: no cards)
    assert evaluation.values[400] == pytest.approx(float(expected), abs=1e-12)
    assert evaluation.values[402] == 0  # 'end'


def test_mn34_try_again_after_a_draw_by_hand(build, mn):
    """MN-34: two Group Scenes, a Draw hurts nobody so the second has the same odds: v + w v."""
    state = build([mn.player("A=H3,B=S1c"), mn.player("D=C2")], mode="into-the-grey", phase="table",
                  discard=GREY_DONE, rules=NO_GROUP_CARD)
    odds = group_odds([3, 2], 1)
    after_defeat = group_odds([0, 0], 1).victory  # both suits used are injured: nobody can roll again
    assert after_defeat == 0
    assert twin_value(state, 0, 2) == odds.victory + odds.draw * odds.victory + odds.defeat * after_defeat


def test_mn35_risk_the_weak_skill_and_keep_the_strong_one_for_the_group(build, mn):
    """MN-35: exact success/failure odds drive the choice; here risking the 1-die skill beats the 3-die one,
    because a failed 'Big' would leave only 1 die for the Group Scene. Checked by hand."""
    state = build([mn.player("Big=H3,Small=H1,X=S1c", "7H", weavings=0), mn.player("B=H2", "8H", weavings=0)],
                  rules={"deckBurner.handSize": 5}, discard=" ".join(f"{card_code(c)}@1" for c in range(54)
                                                                     if card_code(c) not in ("7H", "8H", "2H", "3H")))
    state.apply_move("play 7H")
    evaluation = evaluate(state, 0, Horizon(0, 1), continuation=False)

    def by_hand(own_success: Fraction, dice_if_ok: int, dice_if_failed: int) -> Fraction:
        # then B plays 8H with its 2 dice; both group draws are hearts (2H, 3H); X is already complicated
        total = Fraction(0)
        b_success = individual_odds(2).success
        for b_ok, pb in ((True, b_success), (False, 1 - b_success)):
            for ok, po in ((True, own_success), (False, 1 - own_success)):
                pools = [dice_if_ok if ok else dice_if_failed, 2 if b_ok else 0]
                complications = 1 + (not ok) + (not b_ok)
                total += pb * po * group_odds(pools, complications).victory
        return total

    big = by_hand(individual_odds(3).success, 3, 1)
    small = by_hand(individual_odds(1).success, 3, 3)
    assert evaluation.exact[100] == big and evaluation.exact[101] == small
    assert small > big and evaluation.values[101] > evaluation.values[100]


def test_mn36_hints_read_only_the_players_own_view(game):
    """MN-36: redealing the cards a player cannot see never changes that player's hint."""
    grey = MnemonicGame(mode="into-the-grey", players=3)
    state = grey.new_initial_state(2)
    for _ in range(4):  # into the second player's scene
        state.apply_move(state.action_to_string(state.legal_actions()[0]))
    assert state.current_player() == 1 and state.phase == "scene-card"
    target = Horizon(0, 1)
    base = evaluate(state, 1, target, exact=False).values
    rng = np.random.default_rng(0)
    for _ in range(3):
        other = state.resample_from_observation(1, rng)
        assert other.to_json() != state.to_json()
        assert evaluate(other, 1, target, exact=False).values == base


def joker_scene(game, seed=3):
    """A scene of a two-player session with a Joker: no skill matches, so the leader may pass or ask the other
    player for help."""
    state = MnemonicGame(players=2).new_initial_state(seed)
    state.apply_move("draw")
    state.apply_move("reveal RJ")
    assert len(state.legal_actions()) > 1
    return state


def test_full_information_is_labelled(game):
    state = joker_scene(game)
    seen = advise(state)
    full = advise(state, full_information=True)
    assert seen.root_info["fullInformation"] is False and full.root_info["fullInformation"] is True
    assert seen.root_info["status"] == "ESTIMATE" and not seen.root_info["optimal"]  # MN-44: the session goes on
    assert seen.root_info["continuation"] == "estimate"


def test_hint_shape_prompt_and_odds(game):
    state = joker_scene(game)
    result = advise(state, top=5).to_json()
    assert result["rootInfo"]["card"] == "RJ" and result["rootInfo"]["prompt"] == "A mistake you can\u2019t take back."
    move = next(m for m in result["moveInfos"] if m["move"] != "pass")
    assert {"order", "move", "value", "pv", "why", "dice", "success", "complication"} <= set(move)
    assert Fraction(move["success"]) == individual_odds(move["dice"]).success
    assert result["rootInfo"]["horizon"] == {"rounds": 0, "groupScenes": 1}
    assert [(level["rounds"], level["groupScenes"]) for level in result["rootInfo"]["levels"]] == [(0, 0), (0, 1)]


def test_mn38_table_advice_lists_group_round_and_end(build, mn):
    """MN-38: the table's choice within one more round: each option valued, 'group' with its exact odds now."""
    state = build([mn.player("A=H2,B=S1c", "7H 8H"), mn.player("D=C2", "9C TC")], rules={"deckBurner.handSize": 2},
                  phase="table")
    result = advise(state, horizon=(1, 1)).to_json()
    moves = {m["move"]: m for m in result["moveInfos"]}
    assert set(moves) == {"group", "round", "end"} and moves["end"]["value"] == 0
    now = moves["group"]["groupNow"]
    assert sum(Fraction(now[k]) for k in ("victory", "defeat", "draw")) == 1
    assert result["rootInfo"]["horizon"]["rounds"] >= 1


def test_weaving_advice_after_a_failure(build, mn):
    """After a failed roll the weaving options are ranked (avoid versus an extra die)."""
    state = build([mn.player("A=H2,B=S1c", "7H"), mn.player("D=C2", "9C")], rules={"deckBurner.handSize": 2})
    mn.play(state, "play 7H", 'use "A"', "roll 4")
    result = advise(state, horizon=(0, 2), top=4).to_json()
    assert {m["move"] for m in result["moveInfos"]} == {"no weave", "weave avoid", "weave give 1"}
    assert result["rootInfo"]["failed"] is True


def test_chance_node_hint_does_not_reveal_the_deck(game):
    state = game.new_initial_state(1)
    state.apply_move("draw")
    result = api.hint(game, state, top=10).to_json()
    assert result["rootInfo"]["chance"] is True
    assert all("reveal a" in m["move"] for m in result["moveInfos"])
    assert sum(Fraction(m["probability"]) for m in result["moveInfos"]) == 1


def test_mn38_fallback_when_nothing_fits(game):
    """MN-38: when not even the smallest horizon fits the limits: the scene's own exact odds, clearly labelled,
    never a silent guess."""
    big = MnemonicGame(players=5)
    state = big.new_initial_state(2)
    state.apply_move("draw")
    state.apply_move("reveal 7H")
    result = api.hint(big, state, nodes=1).to_json()
    assert result["rootInfo"]["fallback"] is True and result["rootInfo"]["optimal"] is False
    assert result["rootInfo"]["stoppedBy"] == "nodes"
    assert result["moveInfos"][0]["value"] == float(myopic_values(state, 0)[100 + state.players[0].skill_index("Fight With Hands")])


def test_player_argument_is_checked(game):
    state = game.new_initial_state(1)
    with pytest.raises(InvalidInputError) as info:
        api.hint(game, state, player=2)
    assert info.value.field == "player"
    with pytest.raises(InvalidInputError):
        api.hint(game, state, player=9)


PLAIN = {"planner.continuation": "none", "group.maxAttempts": 3}  # the horizon objective, Try Again capped


def test_solve_reports_a_proven_plan(build, mn):
    state = build([mn.player("A=H3,B=S1c,C=D2c"), mn.player("D=C2,E=H1c")], mode="into-the-grey",
                  phase="table", discard=GREY_DONE, rules=NO_GROUP_CARD)
    payload = {**state.to_json(), "rules": {"planner.groupScenes": 1, **NO_GROUP_CARD, **PLAIN}}
    result = api.solve(MnemonicGame(), payload, time_ms=60_000)
    assert result.optimal and result.status == "EXHAUSTIVE" and result.value == result.bound
    assert result.solution["move"] == "group"
    assert Fraction(result.solution["exact"]) == group_odds([3, 2], 3).victory
    two = api.solve(MnemonicGame(), {**state.to_json(),
                                     "rules": {"planner.groupScenes": 2, **NO_GROUP_CARD, **PLAIN}}, time_ms=60_000)
    assert two.value > result.value  # trying again after a Draw can only help


def test_mn44_solve_is_an_estimate_until_the_search_reaches_the_end_of_the_session(build, mn):
    """MN-44: with the continuation the solve is labelled ESTIMATE (no proven bound) while the estimate is used,
    and EXHAUSTIVE once the horizon reaches the end of the session (here: no cards, so no round, and Try Again
    capped at one)."""
    state = build([mn.player("A=H3,B=S1c,C=D2c"), mn.player("D=C2,E=H1c")], mode="into-the-grey",
                  phase="table", discard=GREY_DONE, rules=NO_GROUP_CARD)
    estimate = api.solve(MnemonicGame(), {**state.to_json(), "rules": NO_GROUP_CARD}, time_ms=60_000)
    assert not estimate.optimal and estimate.status == "ESTIMATE" and estimate.bound is None
    capped = api.solve(MnemonicGame(), {**state.to_json(), "rules": {**NO_GROUP_CARD, "group.maxAttempts": 1}},
                       time_ms=60_000)
    assert capped.optimal and capped.status == "EXHAUSTIVE"
    assert Fraction(capped.solution["exact"]) == group_odds([3, 2], 3).victory


def test_cli_hint_text_json_and_errors(tmp_path, capsys):
    path = tmp_path / "state.json"
    state = joker_scene(MnemonicGame(), 5)
    path.write_text(json.dumps(state.to_json()))
    assert main(["mnemonic", "hint", str(path), "--horizon", "0,1", "--nodes", "2000000"]) == 0
    out = capsys.readouterr().out
    assert "A mistake you can\u2019t take back." in out and "horizon: 0 new round(s), 1 Group Scene(s)" in out
    assert main(["mnemonic", "hint", str(path), "--json", "--horizon", "0,1", "--nodes", "2000000"]) == 0
    assert json.loads(capsys.readouterr().out)["rootInfo"]["horizon"] == {"rounds": 0, "groupScenes": 1}
    assert main(["mnemonic", "hint", str(path), "--horizon", "x"]) == 1
    assert "--horizon" in capsys.readouterr().err
    path.write_text("{\"mode\": \"deck-burner\", \"players\": [}")
    assert main(["mnemonic", "hint", str(path)]) == 1
    err = capsys.readouterr().err
    assert "malformed JSON" in err and err.count("\n") == 1


def test_engine_serves_mnemonic(capsys):
    import io
    from solver.engine import run_engine
    state = MnemonicGame().new_initial_state(5).to_json()
    state["rules"] = {"planner.rounds": 0, "planner.groupScenes": 1}
    lines = [json.dumps({"id": 1, "game": "mnemonic", "action": "hint", "state": state, "limits": {"time_ms": 60000}}),
             json.dumps({"id": 2, "game": "mnemonic", "action": "score", "state": {"individual": 2}}),
             json.dumps({"id": 3, "game": "mnemonic", "action": "legal_moves", "state": {**state, "phase": "lunch"}})]
    out = io.StringIO()
    run_engine(io.BytesIO(("\n".join(lines) + "\n").encode()), out)
    replies = {r["id"]: r for r in map(json.loads, out.getvalue().splitlines())}
    assert replies[1]["moveInfos"][0]["move"] == "draw"
    assert replies[2]["success"] == "11/36"
    assert replies[3]["field"] == "state.phase"


def test_mn45_the_session_length_bounds_the_objective(game):
    """MN-45: with planner.sessionRounds the session ends after that many rounds: at the last round's table
    another round is worth nothing, and the hint reports the rounds left (null: until the cards run out)."""
    import numpy as np
    from solver.mnemonic.policies import plain_scene_move
    state = MnemonicGame(players=2).new_initial_state(4)
    rng = np.random.default_rng(4)
    while state.phase != "table":
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(plain_scene_move(state))
    until_the_end = advise(state, horizon=(1, 2))
    assert until_the_end.root_info["sessionRoundsLeft"] is None
    state.rules = state.rules.with_overrides({"planner.sessionRounds": 1})
    last = advise(state, horizon=(1, 2)).to_json()
    moves = {m["move"]: m["value"] for m in last["moveInfos"]}
    assert last["rootInfo"]["sessionRoundsLeft"] == 0 and moves["round"] == 0.0 and moves["group"] > 0


def test_mn45_rules_files_may_leave_the_new_planner_settings_out():
    """MN-45: planner.sessionRounds and planner.continuation were added after the rules format was published."""
    from solver.mnemonic.rules_file import default_rules, rules_from_json
    obj = default_rules().to_json()
    del obj["planner"]["sessionRounds"], obj["planner"]["continuation"]
    rules = rules_from_json(obj)
    assert rules["planner.sessionRounds"] == 0 and rules["planner.continuation"] == "estimate"


def test_mn44_the_base_move_is_kept_within_the_margin(build, mn):
    """MN-44: at the table the base policy's move (face the Adversary) stays first unless another move is
    estimated better by at least MARGIN; a clearer gain wins; the plain objective ranks by value alone."""
    from solver.mnemonic import state as S
    from solver.mnemonic.planner import MARGIN, Evaluation, ranked
    state = build([mn.player("A=H2,B=S1c", "7H 8H"), mn.player("D=C2", "9C TC")], rules={"deckBurner.handSize": 2},
                  phase="table")

    def order(group: float, round_: float, continuation: bool = True) -> list[int]:
        values = {S.GROUP: group, S.ROUND: round_, S.END: 0.0}
        evaluation = Evaluation(state.legal_actions(), values, {}, Horizon(0, 2), Horizon(0, 2), 1, 0.0,
                                estimated=True, continuation=continuation)
        return ranked(state, evaluation)

    assert order(0.50, 0.50 + MARGIN / 2)[0] == S.GROUP
    assert order(0.50, 0.50 + 2 * MARGIN)[0] == S.ROUND
    assert order(0.50, 0.50 + MARGIN / 2, continuation=False)[0] == S.ROUND


def test_mn47_a_move_not_valued_comes_before_a_sure_failure(build, mn):
    """MN-47: with the plain objective a hint that could not value one more round lists ``round`` as not valued;
    when every valued move is worth 0 it comes first (a chance of Victory cannot be lower), otherwise last."""
    from solver.mnemonic import state as S
    from solver.mnemonic.advice import hint_result
    from solver.mnemonic.planner import Evaluation
    from solver.search import Limits, SearchContext
    state = build([mn.player("A=H2,B=S1c", "7H 8H"), mn.player("D=C2", "9C TC")], rules={"deckBurner.handSize": 2},
                  phase="table")
    assert {S.ROUND, S.END, S.GROUP} <= set(state.legal_actions())

    def moves_listed(group: float) -> list[tuple[str, bool]]:
        evaluation = Evaluation(state.legal_actions(), {S.GROUP: group, S.END: 0.0}, {}, Horizon(0, 2),
                                Horizon(0, 2), 1, 0.0, continuation=False, unvalued=[S.ROUND])
        result = hint_result(state, SearchContext(limits=Limits(nodes=10)), evaluation, 0, 0, False, 5)
        return [(m.move, m.extra.get("valued", True)) for m in result.move_infos]

    lost = moves_listed(0.0)
    assert lost[0] == (state.action_to_string(S.ROUND), False)
    hopeful = moves_listed(0.4)
    assert hopeful[0] == (state.action_to_string(S.GROUP), True)
    assert hopeful[-1] == (state.action_to_string(S.ROUND), False)
