"""Edges of the planner kernel's layout: the kernel agrees with its exact twin there, or refuses clearly."""

import json

import numpy as np
import pytest

from solver.cli import main
from solver.kernels import mnemonic as kernel
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.model import layout_of, position_of
from solver.twins import mnemonic_plan as twin

# Ash has rolled (a failure) and may weave; Bo already waits with many extra dice: giving Bo one more die
# used to overflow the 6-bit field of the memo key (63 stored as 64), so two different states could share a key.
WEAVE = ("mnemonic deck-burner r1 scene-weave f0 a0 t0/0/0 last=- | discard 7H@0 | scene card=7H skill=A roll=3 "
         "| P Ash w1 b0 hand=- skills=A=H1,B=S1c | P Bo w1 b{bonus} hand=- skills=C=H1,D=D1")


@pytest.mark.parametrize("bonus", [60, 61, 62, 63])
def test_extra_dice_near_the_layout_limit_agree_with_the_twin(bonus):
    state = MnemonicGame().state_from_notation(WEAVE.format(bonus=bonus))
    for rounds, groups, tail in ((0, 1, False), (0, 1, True)):
        layout = layout_of(state, rounds, None, tail=tail)
        pos = np.asarray(position_of(state, layout, rounds, groups))
        kv, kn, kok, _ = kernel.plan_values(layout.config, layout.skills, pos.reshape(1, -1), 200_000, 0.0)
        tv, tn, tok, _ = twin.plan_values(layout.config, layout.skills, [pos], 200_000, 0)
        assert kok and tok and kn == tn
        assert kv[0] == pytest.approx(float(tv[0]), abs=1e-12)


def test_a_hint_with_63_extra_dice_is_answered(capsys):
    """bonusDice accepts 0..63; at 63 the hint used to stop with 'internal error: ValueError' (exit 3)."""
    state = MnemonicGame().state_from_notation(WEAVE.format(bonus=63))
    assert main(["mnemonic", "hint", json.dumps(state.to_json()), "--horizon", "0,1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rootInfo"]["complete"] is True


def test_more_extra_dice_than_the_layout_holds_are_refused_by_the_kernel():
    state = MnemonicGame().state_from_notation(WEAVE.format(bonus=63))
    layout = layout_of(state, 0, None)
    pos = np.asarray(position_of(state, layout, 0, 1))
    pos[pos == 63] = 85
    with pytest.raises(ValueError, match="extra dice"):
        kernel.plan_values(layout.config, layout.skills, pos.reshape(1, -1), 1000, 0.0)
