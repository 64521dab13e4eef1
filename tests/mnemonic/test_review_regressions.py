"""Bugs found in review, each pinned by a test that failed before its fix."""

import json

import pytest

from solver.cli import main
from solver.errors import ImpossibleStateError
from solver.mnemonic.commands import demo_record
from solver.mnemonic.game import MnemonicGame
from solver.record import Record, record_from_json
from solver.review import render_review, review
from solver.search import Limits

HEAD = "mnemonic deck-burner r1 {phase} f0 a{attempts} t{tally} last={last} | discard - | "
PLAYERS = "P Ash w1 b0 hand=- skills=A=H2,B=S1c | P Bo w1 b0 hand=- skills=C=D2"


def parse(phase: str, attempts: int, tally: str, last: str):
    return MnemonicGame().state_from_notation(HEAD.format(phase=phase, attempts=attempts, tally=tally, last=last)
                                              + PLAYERS)


@pytest.mark.parametrize("phase,attempts,tally,last,field", [
    ("after-victory", 1, "0/0/0", "victory", "state.lastOutcome"),   # a Victory the tally does not count
    ("after-defeat", 1, "1/0/0", "defeat", "state.lastOutcome"),
    ("after-defeat", 3, "0/1/0", "defeat", "state.attempts"),        # 3 Group Scenes, only 1 played
    ("table", 0, "0/2/0", "-", "state.lastOutcome"),                 # Group Scenes played, none named last
])
def test_mn31_tally_and_last_outcome_must_agree(phase, attempts, tally, last, field):
    """MN-31: the session's return reads the tally, so an after-victory state with no Victory counted would
    have reported a lost session; such states are now refused, naming the field."""
    with pytest.raises(ImpossibleStateError) as info:
        parse(phase, attempts, tally, last)
    assert info.value.field == field


def test_mn31_a_consistent_after_victory_state_is_won():
    state = parse("after-victory", 1, "1/0/0", "victory")
    state.apply_move("end")
    assert state.returns() == [1.0, 1.0]


def test_cli_reports_an_inconsistent_tally_in_one_line(capsys):
    line = HEAD.format(phase="after-victory", attempts=1, tally="0/0/0", last="victory") + PLAYERS
    assert main(["mnemonic", "show", line]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lastOutcome" in err and "'victory'" in err


def test_mn18_extra_dice_past_the_kernels_odds_range_still_roll(capsys):
    """MN-7/MN-18: a Group Scene with more than 49 dice in all used to fail with a 'beyond the exact range'
    error while applying 'result victory'; the odds are now exact at any size."""
    state = MnemonicGame().state_from_notation(
        "mnemonic into-the-grey r1 group-roll f0 a1 t0/0/0 last=- | discard "
        + ",".join(f"{c}@{i % 2}" for i, c in enumerate(_all_cards()))
        + " | group turn=2 cards=-,- skills=A,C | P Ash w0 b30 hand=- skills=A=H2,B=S1c | P Bo w0 b30 hand=- skills=C=D2"
        + ' | rules intoTheGrey.groupCard="none"')
    outcomes = dict(state.chance_outcomes_exact())
    assert sum(outcomes.values()) == 1 and len(outcomes) == 3
    state.apply_move("result victory")
    assert state.phase == "after-victory"


def _all_cards() -> list[str]:
    from solver.mnemonic.cards import card_code
    from solver.mnemonic.cards import grey_deal_classes
    from solver.mnemonic.cards import card_class
    # Into the Grey: every card played, each by the player the deal gave it to
    order = [c for cls in range(3) for c in range(54) if card_class(c) == cls]
    assert grey_deal_classes(2)
    return [card_code(c) for c in order]


@pytest.mark.parametrize("command", [["show"], ["hint"], ["apply", "draw"]])
def test_a_missing_state_file_is_named_as_a_missing_file(capsys, command, tmp_path):
    """Issue 16: 'mnemonic show nonexistent.json' answered with the notation's header format, where Aetherya
    says 'no such file'."""
    missing = str(tmp_path / "nonexistent.json")
    code = main(["mnemonic", command[0], missing, *command[1:]])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert "STATE: no such file" in err and "header" not in err and missing in err


@pytest.mark.parametrize("command", [["show"], ["score"], ["legal-moves"]])
def test_a_missing_state_file_without_an_extension_is_named_as_a_missing_file(capsys, command, tmp_path):
    """A word that is no file and does not start the notation ('mnemonic ...') is a missing file (Game.NOTATION_START),
    not a broken header; a real notation is still read."""
    missing = str(tmp_path / "nonexistent")
    assert main(["mnemonic", command[0], missing]) == 1
    err = capsys.readouterr().err
    assert "STATE: no such file" in err and "header" not in err and err.count("\n") == 1


def _review(record: Record, nodes: int = 30000) -> dict:
    return review(MnemonicGame(), record, 0, Limits(nodes=nodes), seed=0)


def test_mn49_ending_a_session_already_won_is_not_graded():
    """MN-49: the demo's review graded 'end' after the won Group Scene a 100-point blunder (the hint's measure is
    another Victory, MN-33), although the session was already won (MN-31). It is now shown but not graded."""
    result = _review(record_from_json(json.loads(demo_record())))
    last = result["decisions"][-1]
    assert last["played"] == "end" and last["best"] == "round" and last["playedValue"] == 0
    assert last["grade"] is None and last["loss"] == 0 and "MN-49" in last["decided"]
    assert result["grades"] == {"inaccuracy": 0, "mistake": 0, "blunder": 0} and result["mistakes"] == []
    assert all("decided" not in d for d in result["decisions"][:-1])   # before the Victory: graded as before
    assert "Not graded (round 1): the session already has a Victory" in render_review(result)


def test_mn49_ending_before_any_victory_is_still_a_blunder():
    """MN-49 leaves a session not yet won alone: ending at the table with no Victory gives up the chance."""
    view = MnemonicGame().state_from_notation(HEAD.format(phase="table", attempts=0, tally="0/0/0", last="-")
                                              + PLAYERS).view(0)
    result = _review(Record.start_of(view).extended(["end"], stamp=False))
    (decision,) = result["decisions"]
    assert decision["grade"] == "blunder" and "decided" not in decision
