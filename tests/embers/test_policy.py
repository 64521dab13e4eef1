"""The hint policies' decisions on hand-checked positions (docs/rules/embers-of-memory.md, EM-81, EM-84, EM-85)."""

import numpy as np
import pytest

from solver.embers.policy import (FenrysSettings, aelin_take_scores, observe_scores, turns_from, turns_table)

from .helpers import state

KNOWN_2 = [{"card": "D5", "faceUp": True}, {"card": "G2b"}, {"card": "S3"}, {"card": "F5"}]  # row 1 needs 2


def law(**weights):
    out = np.zeros(8)
    for strength, w in weights.items():
        out[int(strength[1:])] = w
    return out / out.sum()


def test_EM84_turns_table_by_hand():
    """EM-84: with only 1s in the deck a row needing n takes n turns; with 1s and 2s half and half and one card
    a turn, T[1] = 1 + T[1]/2 gives 2 and T[2] = 1 + (T[1] + T[0])/2 gives 2; with three cards a turn the row
    needing 1 fails only when all three are 2s: T[1] = 1 + T[1]/8, so 8/7."""
    assert list(turns_table(law(s1=1), offers=2)) == pytest.approx([0, 1, 2, 3, 4, 5, 6, 7])
    half = law(s1=1, s2=1)
    assert turns_table(half, offers=1)[:3] == pytest.approx([0, 2, 2])
    assert turns_table(half, offers=3)[1] == pytest.approx(8 / 7)
    # one turn of lookahead: a visible 1 finishes a row needing 1 next turn, whatever Fenrys adds
    assert turns_from(turns_table(half), half, 1, [1]) == pytest.approx(1.0)


def test_EM84_aelin_looks_one_turn_ahead():
    """EM-84: Aelin's row needs 5 (G2b); the Mind shows C4, C3 and C2a. Taking the largest card that fits (C4,
    as the greedy baseline does) leaves 1 with no 1 in sight; taking C3 leaves 2 with C2a visible, and taking
    C2a leaves 3 with C3 visible: either finishes the row next turn."""
    resolve = [{"card": "G2b"}, {"card": "D1a"}, {"card": "S3"}, {"card": "F5"}]
    s = state(turn="aelin", phase="acknowledge", added=True, resolve=resolve,
              mind=["C4@0,0", "C3@-1,0", "C2a@1,1"])
    ranked = [s.action_to_string(x.action) for x in aelin_take_scores(s)]
    assert ranked[-1] == "take C4" and set(ranked[:2]) == {"take C3", "take C2a"}


def test_EM81_fenrys_draws_while_a_card_raises_the_chance_enough():
    """EM-81: Aelin's row visibly needs 2 (face-up D5); the Mind shows C4 and the row holds S1a: no visible card
    completes it (stop is worth 0), while one more card is a 2 that can be added about 27% of the time, which
    beats the 10% price of a card: draw."""
    s = state(phase="observe", row=["S1a"], mind=["C4@0,0"], resolve=KNOWN_2)
    ranked = observe_scores(s, 0, FenrysSettings())
    assert [s.action_to_string(x.action) for x in ranked] == ["draw", "stop"]
    assert ranked[1].score == 0 and 0.2 < ranked[0].extra["completionChance"] < 0.35
    assert ranked[0].score == pytest.approx(ranked[0].extra["completionChance"] - 0.1, abs=1e-3)


def test_EM81_fenrys_stops_when_aelin_can_finish_or_drawing_is_capped():
    """EM-81: with a 2 already in the row (C2a completes the row that needs 2) Fenrys stops; he also stops once
    the row holds two memory cards, or the deck is down to eight cards."""
    done = state(phase="observe", row=["C2a"], mind=["C4@0,0"], resolve=KNOWN_2)
    assert done.action_to_string(observe_scores(done, 0, FenrysSettings())[0].action) == "stop"
    capped = state(phase="observe", row=["S1a", "D3"], mind=["C4@0,0"], resolve=KNOWN_2)
    assert capped.action_to_string(observe_scores(capped, 0, FenrysSettings())[0].action) == "stop"
    everything = [c for c in ("C1a C1b C2b C3 C5 D1b D2a D2b D4 F1a F1b F2a F2b F3 F4 G1a G1b G2a G3 G4 G5 S1b "
                              "S2a S2b S4 S5 Cd Dd").split()]
    short = state(phase="observe", row=["S1a"], mind=["C4@0,0"], resolve=KNOWN_2, discard=everything)
    assert len(short.pile) < 8
    assert short.action_to_string(observe_scores(short, 0, FenrysSettings())[0].action) == "stop"
