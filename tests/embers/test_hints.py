"""Hints for Fenrys and Aelin, each from that player's own information (EM-80..EM-86)."""

import pytest

from solver import contract
from solver.embers import plan as P
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.search import Limits, SearchContext

from .helpers import GAME, PROLOGUE, one, play, state

BLINK = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- "
         "box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")


def ctx(seed=0, ms=3000):
    return SearchContext(limits=Limits(time_ms=ms), seed=seed)


def moves(result):
    return [(m.move, m.value) for m in result.move_infos]


def test_EM80_fenrys_hint_ignores_aelins_hidden_cards():
    """EM-80: two positions that differ only in Aelin's face-down Resolve give Fenrys the same hint."""
    a = GAME.state_from_notation(BLINK)
    b = GAME.state_from_notation(BLINK.replace("resolve=D1a,G2b,S3,F5", "resolve=F1b,D4,G3,S2b"))
    assert a.observation(0) == b.observation(0)
    ha, hb = contract.hint(GAME, a, ctx(), top=5), contract.hint(GAME, b, ctx(), top=5)
    assert moves(ha) == moves(hb) and ha.move_infos[0].pv == hb.move_infos[0].pv
    assert ha.root_info["fullInformation"] is False and "Resolve" in ha.root_info["hiddenFromPlayer"]


def test_EM80_aelins_hint_uses_her_resolve():
    """EM-80/EM-84: Aelin knows her Resolve: with D1a + F2a (3) she takes C4 (completes 7); with D1a + F1a (2)
    the same Mind gives another order."""
    base = dict(turn="aelin", phase="acknowledge", mind=["C4@0,0", "S1a@1,1", "C3@-1,0"], added=True)
    three = state(**base, resolve=[{"card": "D1a", "cards": ["F2a"]}, {"card": "G2b"}, {"card": "S3"},
                                   {"card": "F5"}])
    assert contract.hint(GAME, three, ctx()).best.move == "take C4"
    five = state(**base, resolve=[{"card": "D1a", "cards": ["F2a", "F1a"]}, {"card": "G2b"}, {"card": "S3"},
                                  {"card": "F5"}])
    assert contract.hint(GAME, five, ctx()).best.move == "take C3"  # 4 + 3 = 7


def test_EM80_fenrys_blink_hint_is_the_optimal_plan():
    """EM-80/EM-70: Fenrys's top move starts the proven optimal plan and carries its value."""
    s = GAME.state_from_notation(BLINK)
    result = contract.hint(GAME, s, ctx(), top=3)
    problem = P.problem_from_state(s)
    best = P.exhaustive(problem)
    assert result.best.value == problem.points(best.value)
    assert result.best.extra["planOptimal"] is True
    assert [m.value for m in result.move_infos] == sorted((m.value for m in result.move_infos), reverse=True)
    assert result.best.pv[0] == result.best.move and len(result.best.pv) == 2


def test_EM81_fenrys_draws_when_nothing_can_be_added():
    """EM-81: stopping with no card that can be added loses at once, so the hint is to draw."""
    s = state(phase="observe", mind=["C1a@0,0", "D3@-1,-1"], row=["C4"])
    result = contract.hint(GAME, s, ctx())
    assert result.best.move == "draw"
    assert [m.move for m in result.move_infos][-1] == "stop"


def test_EM84_aelin_never_empties_the_mind_when_she_can_avoid_it():
    """EM-84/EM-42: taking the last card loses; another card is preferred even if it overflows."""
    s = state(turn="aelin", phase="acknowledge", mind=["D2b@0,0", "S1a@1,1"], added=True,
              resolve=[{"card": "D1a", "cards": ["S5"]}, {"card": "G2b"}, {"card": "S3"}, {"card": "F5"}])
    result = contract.hint(GAME, s, ctx(), top=2)
    assert result.best.move in ("take S1a", "take D2b")
    after = s.clone()
    after.apply_move(result.best.move)
    assert after.mind


def test_EM85_EM86_aelin_splits_and_reveals():
    """EM-85: Aelin keeps the section that fits her row; EM-86: she turns a Resolve card when she may."""
    s = state(phase="split", added=True, row=["G3"], mind=["S4@0,0", "F3@5,5", "C3@5,5"],
              resolve=[{"card": "D1a", "cards": ["F2a", "F1b"]}, {"card": "G2b"}, {"card": "S3"}, {"card": "F5"}])
    assert contract.hint(GAME, s, ctx()).best.move == "keep C3"  # C3 completes 1 + 2 + 1 + 3; S4 would overflow
    resolve = one()["resolve"]
    resolve[2] = {"card": "C5", "faceUp": False, "cards": []}
    r = state(phase="blink", row=["C3"], resolve=resolve)
    play(r, "add C3@-1,0")
    assert contract.hint(GAME, r, ctx()).best.move == "reveal 3"


def test_hint_errors_and_guessed_states():
    """Nobody decides a chance node; a finished game has no hint; the player must be the one to move; Aelin's
    hint needs her real Resolve cards."""
    with pytest.raises(InvalidInputError):  # the shared template: no player is to act at a chance node
        contract.hint(GAME, state(phase="draw", row=[]), ctx())
    with pytest.raises(UnsupportedActionError):
        contract.hint(GAME, state(phase="draw", row=[]).view(0), ctx())
    with pytest.raises(InvalidInputError) as err:
        contract.hint(GAME, GAME.state_from_notation(BLINK), ctx(), player=1)
    assert err.value.field == "player"
    rows = [{"card": "?", "cards": ["F2a"]}, {"card": "?"}, {"card": "?"}, {"card": "?"}]
    guessed = GAME.state_from_json(one(turn="aelin", phase="acknowledge", mind=["C4@0,0"], added=True, resolve=rows))
    with pytest.raises(InvalidInputError):
        contract.hint(GAME, guessed, ctx())
    fenrys_view = GAME.state_from_json(one(phase="blink", row=["C3"], resolve=rows))
    assert contract.hint(GAME, fenrys_view, ctx()).best.move.startswith("add C3")
    over = state(turn="aelin", phase="acknowledge", mind=["D2b@0,0"], added=True,
                 resolve=[{"card": "D1a", "cards": ["S5"]}, {"card": "G2b"}, {"card": "S3"}, {"card": "F5"}])
    play(over, "take D2b")
    with pytest.raises(InvalidInputError):
        contract.hint(GAME, over, ctx())
    with pytest.raises(UnsupportedActionError):
        contract.hint(GAME, over.view(1), ctx())


def test_full_information_hints_are_labelled():
    """A full-information analysis says so in rootInfo."""
    result = contract.hint(GAME, GAME.state_from_notation(BLINK), ctx(), full_information=True)
    assert result.root_info["fullInformation"] is True and "hiddenFromPlayer" not in result.root_info


def test_prologue_hints():
    """Hints work through both parts of the prologue."""
    s = PROLOGUE.new_initial_state(3)
    result = contract.hint(PROLOGUE, s, ctx())
    assert result.best.move.startswith("add ") and result.root_info["role"] == "rowan"


@pytest.mark.parametrize("nodes", [1_000_000, 1])
def test_EM70_every_blink_pv_is_the_whole_plan_forced_discards_included(nodes):
    """Issue 16: 'add C3@-1,0' had pv ['add C3@-1,0'] although C1b can then only be discarded. Every move's pv,
    proven (EXHAUSTIVE) or greedy (a node budget of 1), replays in the rules engine (Fenrys's moves; Aelin's
    reveals in between) and handles every card of the row."""
    from solver.embers.policy import FenrysSettings, blink_scores
    s = GAME.state_from_notation(BLINK)
    row = [c for c in s.row if not s.deck.cards[c].is_demon]
    scored = blink_scores(s, 0, FenrysSettings(search_nodes=nodes))
    statuses = {x.extra.get("planStatus") for x in scored[1:]}
    assert statuses == ({"EXHAUSTIVE"} if nodes > 1 else {"GREEDY"})
    by_move = {s.action_to_string(x.action): [s.action_to_string(a) for a in x.pv] for x in scored}
    if nodes > 1:
        assert by_move["add C3@-1,0"] == ["add C3@-1,0", "discard C1b"]
    for x in scored:
        replay = s.clone()
        for action in x.pv:
            while replay.phase != "blink":          # a relive lets Aelin reveal a Resolve card meanwhile
                replay.apply_action(replay.legal_actions()[0])
            assert action in replay.legal_actions(), (x.pv, replay.to_notation())
            replay.apply_action(action)
        assert not any(c in replay.row for c in row), (x.pv, replay.to_notation())
