"""Mnemonic hints that read right (issue 22, section 2): where the chance of a Victory saturates, the moves are told
apart by what the rules value next and the hint says which measure decides; percentages never round to a certainty
they are not; exact fractions only on request."""

from __future__ import annotations

import re

from solver import contract
from solver.mnemonic.hints import SATURATED
from solver.registry import load_game
from solver.results import percent
from solver.search import Limits, SearchContext

GAME = load_game("mnemonic(mode=into-the-grey)")
#: a first scene of Into the Grey with an empty Adversary's pool: every card's Victory chance shows as 100%
SATURATED_VIEW = ("view:0 mnemonic into-the-grey r1 scene-card f0 a0 t0/0/0 last=- | discard - | P Player_1 w1 b0 "
                  "hand=3H,5H,7H,JH,QH,3D,JD,KD,2C,4C,5C,6C,TC,AC,2S,5S,7S,JS "
                  "skills=Fight_With_Hands=H2,Bargain=D2,Endure=C3,Sneak=S3 | P Player_2 w1 b0 hand=?18 "
                  "skills=Fight_With_Hands=H1,Bargain=D1,Endure=C3,Sneak=S3 | P Player_3 w1 b0 hand=?18 "
                  "skills=Fight_With_Hands=H1,Bargain=D1,Endure=C3,Sneak=S2")


def hint(**options):
    return contract.hint(GAME, SATURATED_VIEW, SearchContext(limits=Limits(nodes=20_000)), top=6, **options)


def test_saturated_moves_are_told_apart_by_the_chance_of_a_complication():
    result = hint()
    infos = result.move_infos
    assert all(m.value >= SATURATED for m in infos)
    assert result.root_info["decidedBy"] == "complications"
    chances = [m.extra["noComplication"] for m in infos]
    assert chances == sorted(chances, reverse=True) and chances[0] > chances[-1]
    assert "the chance this scene adds no complication decides" in infos[0].why
    for above, info in zip(infos, infos[1:]):   # a move told apart is never called exactly as good
        if info.extra["noComplication"] != above.extra["noComplication"]:
            assert "exactly as good" not in info.why


def test_percentages_never_round_to_a_certainty_and_fractions_come_on_request():
    assert percent(0.9996) == ">99.9%" and percent(1.0) == "100%" and percent(0.997) == "99.7%"
    assert percent(0.0004) == "<0.1%" and percent(0.0) == "0%"
    text = contract.render_text(GAME, "hint", hint())
    assert not re.search(r"\d+/\d{3,}", text)             # no long fraction unless asked for
    assert "42.1%" in text and "1   " not in text.splitlines()[2]
    fractions = contract.render_text(GAME, "hint", hint(fractions=True))
    assert "91/216 (42.1%)" in fractions
