"""Hints: ranked by win probability from what the player has seen, with expected turns and a reason."""

from __future__ import annotations

import json

import numpy as np
import pytest

import solver
from solver import contract
from solver.engine import Engine
from solver.errors import InvalidInputError
from solver.memorinth.game import MemorinthGame
from solver.memorinth.layout import DOWN, SEEN, UP
from solver.search import Limits, SearchContext
from solver.testing import TimedLines

GAME = MemorinthGame()


def ctx(nodes=3000, seed=0):
    return SearchContext(limits=Limits(nodes=nodes), seed=seed)


def test_hint_uses_only_what_the_player_has_seen():
    """MR-21: two positions that differ only in undersides player 0 has not seen get the very same hint."""
    state = GAME.deal(4)
    state.apply_move(state.action_to_string(state.legal_actions()[0]))
    state.apply_move(state.action_to_string(state.legal_actions()[3]))
    other = state.clone()
    hidden = [c for c in range(25) if not state.vec[SEEN + c] & 1 and state.vec[UP + c] % 2 == 0]
    a, b = hidden[0], hidden[1]
    other.vec[DOWN + a], other.vec[DOWN + b] = other.vec[DOWN + b], other.vec[DOWN + a]
    assert other.observation(0) == state.observation(0) and other.to_json() != state.to_json()
    first = contract.hint(GAME, state, ctx(), top=20).to_json()
    second = contract.hint(GAME, other, ctx(), top=20).to_json()
    first["rootInfo"].pop("seconds"), second["rootInfo"].pop("seconds")
    assert first == second
    full = contract.hint(GAME, state, ctx(), top=20, full_information=True).to_json()
    assert full["rootInfo"]["fullInformation"] is True and first["rootInfo"]["fullInformation"] is False


def test_a_known_winning_flip_is_ranked_first_with_certainty(position, load):
    """Player 0 has seen 20M under a1 (R, north) and stands on the top row: flipping a1 wins at once."""
    state = load(position({"c1": "17S", "a1": "20S"}, pieces=["c1", "c3"], seen=[["a1"], []],
                          characters={"N": "RG", "E": "HX", "S": "BT", "W": "FP"}))
    result = contract.hint(GAME, state, ctx(), top=3)
    best = result.best
    assert best.move == "flip a1" and best.value == 1.0 and best.extra["winCI"][0] > 0.9
    assert best.extra["expectedTurns"] == 1.0
    assert "you leave the forest" in best.why and "reveals 20M" in best.why


def test_reason_names_paths_opened_for_other_players(position, load):
    """Flipping e3 (13S -> 13M, east-west) opens blue's way east from d3; player 0 has seen that underside."""
    state = load(position({"d3": "11S", "e3": "13S"}, pieces=["a5", "d3"], seen=[["e3"], []]))
    result = contract.hint(GAME, state, ctx(), top=30)
    info = next(m for m in result.move_infos if m.move == "flip e3")
    assert "opens the path east for blue" in info.why


def test_unseen_flip_reason_gives_the_odds():
    """MR-21: in round 1 the 12 Sun-up forest cards hide 12 Moon sides the player does not know (the clearing's
    Moon side is known: it is on the back of the clearing)."""
    state = GAME.deal(1)
    info = contract.hint(GAME, state, ctx(), top=1).best
    assert info.why.startswith("unseen underside (one of 12 Moon sides you have not seen)")
    assert 0 < info.extra["playouts"] and len(info.extra["winCI"]) == 2


def test_character_choice_is_ranked(position, load):
    """MR-8: with R (east) and H (north) revealed, the choice that leaves the forest is ranked first."""
    state = load(position({"c1": "CS", "c3": "9S", "d1": "11S", "a1": "19S"}, pieces=["c1", "e5"],
                          characters={"N": "HG", "E": "RX", "S": "BT", "W": "FP"}))
    state.apply_move("flip a1")
    assert state.phase == "choose"
    result = contract.hint(GAME, state, ctx(), top=2)
    assert result.best.move == "choose H" and result.best.value == 1.0
    assert result.to_json()["rootInfo"]["phase"] == "choose"


def test_master_action_choices_are_ranked(position, load):
    """MR-12: the shift lines are ranked; the one that carries the piece out of reach is not first."""
    state = load(position({"a1": "6S"}, variant="master",
                          characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "HXPT"}))
    state.apply_move("flip a1")
    result = contract.hint(MemorinthGame(variant="master"), state, ctx(nodes=2500), top=5)
    assert {m.move for m in result.move_infos} == {f"shift col {c} north" for c in "abcde"}
    assert all("shift" in m.move and m.why for m in result.move_infos)


def test_many_candidates_are_screened(position, load):
    """Swapping two cards offers hundreds of moves: all are screened, the best get the playouts."""
    state = load(position({"a1": "6S"}, variant="master", actionSide="special", clovers=[1, 1], supply=3,
                          characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XPHT"}))
    state.apply_move("flip a1")
    assert len(state.legal_actions()) > 200
    result = contract.hint(MemorinthGame(variant="master", action_side="special"), state, ctx(nodes=3000), top=3)
    assert len(result.move_infos) == 3 and result.root_info["candidates"] == len(state.legal_actions())


def test_hint_is_deterministic_for_a_seed_and_a_node_limit():
    state = GAME.deal(8)
    one = contract.hint(GAME, state, ctx(seed=5)).to_json()
    two = contract.hint(GAME, state, ctx(seed=5)).to_json()
    one["rootInfo"].pop("seconds"), two["rootInfo"].pop("seconds")
    assert one == two


def test_hint_errors():
    state = GAME.deal(0)
    with pytest.raises(InvalidInputError, match="player 0's turn") as info:
        contract.hint(GAME, state, ctx(), player=1)
    assert info.value.field == "player"
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[rng.integers(len(state.legal_actions()))])
    with pytest.raises(InvalidInputError, match="over"):
        contract.hint(GAME, state, ctx())
    with pytest.raises(Exception, match="chance outcome comes next"):
        contract.hint(GAME, MemorinthGame(chance_setup=True).new_initial_state(), ctx())


def test_hint_through_the_api_and_the_engine():
    state = GAME.deal(2)
    result = solver.hint("memorinth", state.to_notation(), nodes=1500)
    assert result.best is not None and result.root_info["valueMeaning"].startswith("probability")
    out = TimedLines()
    engine = Engine(out)
    engine.serve([
        json.dumps({"id": "a", "game": "memorinth", "action": "hint", "state": state.to_json(),
                    "limits": {"nodes": 1000}, "top": 2}),
        json.dumps({"id": "b", "game": "memorinth", "action": "legal_moves", "state": state.to_notation()}),
        json.dumps({"id": "c", "game": "memorinth", "action": "hint", "state": {"board": ["1S"]}}),
        json.dumps({"id": "d", "game": "memorinth", "action": "score", "state": state.to_json()}),
        json.dumps({"id": "e", "game": "memorinth(players=7)", "action": "hint", "state": "x"}),
    ])
    answers = {a["id"]: a for a in out.answers()}
    assert len(answers["a"]["moveInfos"]) == 2 and answers["a"]["isDuringSearch"] is False
    assert "flip a1" in answers["b"]["moves"]
    assert answers["c"]["field"] == "state.board" and "error" in answers["c"]
    assert answers["d"]["players"][0]["cell"] == "c3"
    assert answers["e"]["field"] == "game.players"


def test_interim_reports_during_search():
    reports = []
    state = GAME.deal(2)
    search = SearchContext(limits=Limits(time_ms=300), report=reports.append, report_every=0.01)
    final = contract.hint(GAME, state, search)
    assert reports and all(r.is_during_search for r in reports) and not final.is_during_search


def test_mr27_the_playout_policy_uses_only_what_the_mover_has_seen():
    """MR-27: the greedy policy weighs an unseen underside by the pool of unseen sides, so two positions with the
    same observation for the player to move get the same decision."""
    from solver.kernels import memorinth as K
    state = GAME.deal(12)
    state.apply_action(state.legal_actions()[1])
    other = state.clone()
    mover = other.current_player()
    hidden = [c for c in range(25) if not state.seen_by(c, mover) and state.vec[UP + c] % 2 == 0]
    other.vec[DOWN + hidden[0]], other.vec[DOWN + hidden[-1]] = (other.vec[DOWN + hidden[-1]],
                                                                 other.vec[DOWN + hidden[0]])
    assert other.observation(mover) == state.observation(mover)
    for seed in range(40):
        assert (K.policy_action(state.vec, state.deck_table, 1, seed)
                == K.policy_action(other.vec, other.deck_table, 1, seed))


def _same_view_world(state, player, rng):
    """A copy of ``state`` whose undersides ``player`` has not seen are dealt anew (Sun-up and Moon-up apart),
    including those other players have looked at in private: the same observation for ``player``."""
    other = state.clone()
    for face in (0, 1):
        cells = [c for c in range(25) if not state.knows_underside(c, player) and state.vec[UP + c] % 2 == face]
        values = [int(state.vec[DOWN + c]) for c in cells]
        for c, v in zip(cells, rng.permutation(values)):
            other.vec[DOWN + c] = v
    return other


@pytest.mark.parametrize("spec,obj_changes", [
    (dict(), dict(seen=[["a1"], ["b2", "e3"]], round=3, toMove=0)),
    (dict(players=3, variant="master", action_side="special"),
     dict(seen=[["e1"], ["b2", "d4", "a5"], ["b2", "e5"]], round=2, toMove=0, clovers=[1, 2, 0], supply=2)),
])
def test_mr21_hints_ignore_what_the_player_has_not_seen_including_other_players_peeks(spec, obj_changes):
    """MR-21 / MR-16: positions that differ only in undersides the advised player has not seen (among them the
    ones other players looked at in private) get identical hints for the same seed, in every phase."""
    game = MemorinthGame(**spec)
    obj = game.deal(6).to_json()
    obj.update(obj_changes)
    if "clovers" not in obj_changes:
        obj.pop("clovers", None), obj.pop("supply", None)
    obj["startCard"] = None
    state = game.state_from_json({k: v for k, v in obj.items() if v is not None or k in ("lastFlipped",
                                                                                          "pending", "winner")})
    rng = np.random.default_rng(1)
    checked_phases = set()
    for step in range(6):
        worlds = [state] + [_same_view_world(state, 0, rng) for _ in range(3)]
        assert all(w.observation(0) == state.observation(0) for w in worlds)
        assert len({json.dumps(w.to_json()) for w in worlds}) > 1
        answers = []
        for world in worlds:
            answer = contract.hint(game, world, ctx(nodes=400, seed=9), top=400).to_json()
            answer["rootInfo"].pop("seconds")
            answers.append(answer)
        assert all(a == answers[0] for a in answers)
        checked_phases.add(state.phase)
        # play on as player 0 (a choose/act step when there is one), then let the others play
        state.apply_action(state.legal_actions()[-1])
        while not state.is_terminal() and state.current_player() != 0:
            state.apply_action(state.legal_actions()[0])
        if state.is_terminal():
            break
    assert "flip" in checked_phases


def test_a_whole_number_float_player_is_accepted_like_every_integer_field():
    """Issue 11 item 9: "player": 1.0 passes the engine's checks (solver.validate.as_int) but the Memorinth
    hint refused it; 0.5 is still refused, naming the field."""
    import io
    import json

    from solver.engine import Engine
    from solver.memorinth.game import MemorinthGame
    state = MemorinthGame().deal(3)
    out = io.StringIO()
    Engine(out).serve([json.dumps({"id": qid, "game": "memorinth", "action": "hint", "state": state.to_json(),
                                   "player": player, "limits": {"nodes": 200}}) for qid, player in ((1, 0.0), (2, 0.5))])
    answers = {a["id"]: a for a in (json.loads(line) for line in out.getvalue().splitlines())}
    assert "error" not in answers[1] and answers[1]["moveInfos"]
    assert answers[2]["field"] == "player" and "0.5" in answers[2]["error"]
