"""Aetherya scoring: one test per interpretation (AE-n, docs/rules/aetherya.md) and the rulebook example."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import contract
from solver.aetherya.cards import LEGENDS, deck_counts, legend
from solver.aetherya.scoring import KingdomScore, format_kingdom, parse_kingdom, score_kingdom
from solver.cli import main
from solver.errors import InvalidInputError, NotationError, UnknownCardError
from solver.testing import command_line


def cats(kingdom, legends=()):
    s = score_kingdom(kingdom, legends)
    return dict(elves=s.elves, dwarves=s.dwarves, humans=s.humans, goblins=s.goblins, dragons=s.dragons,
                legends=s.legends, conflicts=s.conflicts, total=s.total)


def satisfied(kingdom):
    return {leg.slug for leg in score_kingdom(kingdom).satisfied}


E = "????/????/????"  # three empty rows


def test_AE_1_adjacency_is_orthogonal():
    assert cats("EF??/" + E)["elves"] == 2
    assert cats("E???/?F??/????/????")["elves"] == 0  # diagonal


def test_AE_2_portal_connects_the_cards_around_it():
    assert cats("EOF?/" + E)["elves"] == 2               # left and right of the Portal
    assert cats("E???/O???/F???/????")["elves"] == 2     # above and below
    assert cats("?E??/?OF?/????/????")["elves"] == 2     # above and right: diagonal, but linked by the Portal
    assert cats("E???/?OF?/????/????")["elves"] == 0     # a1 is diagonal to the Portal: not linked


def test_AE_2_adjacent_portals_form_one_hub():
    assert cats("EOOF/" + E)["elves"] == 2
    assert cats("E???/OOO?/??F?/????")["elves"] == 2     # a1 above one end of the hub, c3 below the other
    assert cats("E???/OOO?/???F/????")["elves"] == 0     # d3 is diagonal to the hub's end c2


def test_AE_3_a_pair_linked_twice_counts_once():
    # b1 and c1 are adjacent and also both around the hub b2-c2
    assert cats("?EF?/?OO?/????/????")["elves"] == 2
    assert cats("?GH?/?OO?/????/????")["conflicts"] == -2


def test_AE_4_tribe_points_per_connected_card():
    assert cats("PHF?/?S??/????/????")["humans"] == 2 + 1 - 1
    assert cats("MH??/" + E)["humans"] == 1
    assert cats("FEF?/?S??/????/????")["elves"] == 2 + 2 - 1
    assert cats("MDM?/?S??/????/????")["dwarves"] == 4     # Dwarves are immune to Marshes
    assert cats("PEM?/" + E)["elves"] == 0                 # Elves care only for Forests and Swamps


def test_AE_5_goblins_cannot_use_portals():
    assert cats("GS??/" + E)["goblins"] == 3
    assert cats("GOS?/" + E)["goblins"] == 0
    assert cats("SGS?/?S??/????/????")["goblins"] == 9
    assert cats("EOS?/" + E)["elves"] == -1               # an Elf does use the Portal


def test_AE_6_conflicts_count_each_hated_pair_once_through_portals():
    assert cats("GOH?/" + E)["conflicts"] == -2           # through a Portal, Goblin included
    assert cats("GG??/" + E)["conflicts"] == 0            # Goblin-Goblin is no conflict
    assert cats("GH??/E???/????/????")["conflicts"] == -4  # G-H and G-E; H-E is no conflict
    assert cats("ED??/" + E)["conflicts"] == -2
    assert cats("HD??/HE??/????/????")["conflicts"] == -2  # only the E-D pair
    assert cats("DEG?/" + E)["conflicts"] == -4            # D-E and E-G


def test_AE_7_dragons():
    assert cats("HRH?/" + E)["dragons"] == 3             # one Dragon, tamed
    assert cats("HR??/" + E)["dragons"] == -3            # one Human is not enough
    assert cats("GRG?/" + E)["dragons"] == -3            # Goblins never tame
    assert cats("HRE?/" + E)["dragons"] == -3            # two Tribes, but not of the same kind
    assert cats("HOH?/?R??/????/????")["dragons"] == 3   # tamed through a Portal
    assert cats("HRH?/HRH?/????/????")["dragons"] == 10  # two Dragons, both tamed: 5 each
    assert cats("HRH?/?R??/?R??/????")["dragons"] == 6 - 6 - 6  # three: 6 each, one tamed
    # four Dragons all meeting the condition: only 3 can be tamed, the 4th is wild
    assert cats("HRH?/HRH?/HRH?/HRH?")["dragons"] == 6 * 3 - 6
    assert cats("????/" + E)["dragons"] == 0


def test_AE_8_two_goblins_must_be_orthogonally_adjacent():
    assert "goblins-2" in satisfied("GG??/" + E)
    assert "goblins-2" not in satisfied("GOG?/" + E)


def test_AE_9_two_against_one():
    assert "goblin-human" in satisfied("GHG?/" + E)        # a Human between two Goblins
    assert "goblin-human" in satisfied("HGH?/" + E)        # a Goblin between two Humans
    assert "goblin-human" in satisfied("GOH?/?G??/????/????")  # the Human in the middle sees through the Portal
    assert "goblin-human" not in satisfied("HOGH/" + E)    # a Goblin in the middle sees only orthogonally
    assert "elf-dwarf" in satisfied("EOE?/?D??/????/????")
    assert "goblin-dwarf" not in satisfied("GD??/" + E)


def test_AE_10_three_linked_lands_portals_count():
    assert "plains-3" in satisfied("PPP?/" + E)
    assert "plains-3" in satisfied("PP??/P???/????/????")  # an L
    assert "plains-3" in satisfied("POP?/?P??/????/????")  # linked via a Portal
    assert "plains-3" not in satisfied("P?P?/?P??/????/????")  # diagonals do not link
    assert "forests-3" in satisfied("F???/F???/F???/????")
    assert "swamps-3" not in satisfied("SS??/" + E)


def test_AE_11_four_tribes_need_not_be_connected():
    assert "four-tribes" in satisfied("H??E/????/????/D??G")
    assert "four-tribes" not in satisfied("H??E/????/????/D???")


def test_AE_12_unexplored_cells_score_nothing():
    assert cats("E???/?S??/????/????")["total"] == 0
    assert cats("E?F?/" + E)["elves"] == 0
    assert satisfied("????/????/????/????") == set()
    assert "plains-3" not in satisfied("PP?P/" + E)


def test_AE_13_tiebreak_compares_best_categories_first():
    # the rulebook: Jordan 23 (best category Elves 10), Cecile 23 with Goblins 12: Cecile wins
    jordan = KingdomScore(elves=10, dwarves=4, humans=8, goblins=0, dragons=3, legends=0, conflicts=-2)
    cecile = KingdomScore(elves=0, dwarves=4, humans=5, goblins=12, dragons=0, legends=4, conflicts=-2)
    assert jordan.total == cecile.total == 23
    assert jordan.tiebreak == [10, 8, 4, 3, 0, 0, -2]
    assert cecile.rank_key() > jordan.rank_key()


def test_AE_14_deck_has_two_copies_per_player_of_each_type():
    assert deck_counts(2) == [4] * 10
    assert sum(deck_counts(4)) == 80


def test_AE_15_held_legends_score_even_when_no_longer_met():
    assert cats("????/????/????/????", ["plains-3", 7])["legends"] == 8


def test_AE_16_two_linked_tribes_through_a_portal():
    assert "humans-2" in satisfied("HOH?/" + E)
    assert "humans-2" not in satisfied("H?H?/" + E)
    assert {"elves-2", "dwarves-2"} <= satisfied("EE??/DD??/????/????")


def test_rulebook_example_jordan():
    """Jordan's kingdom of the rulebook's scoring example, built to match every sentence of its description.

    H O P D     a1 Human: the Plains c1 only through the Portal b1 (+2), the Marsh a2 (-1): 1 point
    S R H M     c2 Human: Plains, Mountain, Forest: 4;  d3 Human: Mountain and 2 Forests: 3
    D E F H     c4 Elf: 3 Forests (6), b3 Elf: 2 Forests (4); a3 and d1 Dwarves: one Mountain each
    M F E F     b2 Dragon: tamed by the Humans c2 (adjacent) and a1 (through the Portal)
    """
    kingdom = "HOPD/SRHM/DEFH/MFEF"
    assert cats(kingdom) == dict(elves=10, dwarves=4, humans=8, goblins=0, dragons=3, legends=0, conflicts=-2,
                                 total=23)
    assert score_kingdom(kingdom).tiebreak == [10, 8, 4, 3, 0, 0, -2]


def test_worked_example_from_readme():
    score = score_kingdom("FEFP/MDMH/PHFS/SSGS", ["plains-3"])
    assert score.to_json() == {"elves": 4, "dwarves": 4, "humans": 4, "goblins": 6, "dragons": 0, "legends": 4,
                               "conflicts": -2, "total": 20, "tiebreak": [6, 4, 4, 4, 4, 0, -2],
                               "satisfied_legends": ["human-dwarf", "four-tribes"]}


# -- symmetry and notation -------------------------------------------------------------------

def _symmetries(codes):
    grid = np.asarray(codes).reshape(4, 4)
    out = []
    for k in range(4):
        rot = np.rot90(grid, k)
        out += [rot, np.fliplr(rot)]
    return [g.reshape(16).astype(np.uint8) for g in out]


kingdom_codes = st.lists(st.integers(0, 10) | st.sampled_from([8, 9]), min_size=16, max_size=16)


@settings(max_examples=200, deadline=None)
@given(kingdom_codes)
def test_score_is_invariant_under_the_8_board_symmetries(codes):
    scores = {score_kingdom(s).categories + (tuple(l.slug for l in score_kingdom(s).satisfied),)
              for s in _symmetries(codes)}
    assert len(scores) == 1


@settings(max_examples=200, deadline=None)
@given(kingdom_codes)
def test_notation_round_trip(codes):
    text = format_kingdom(codes)
    assert list(parse_kingdom(text)) == codes
    assert format_kingdom(parse_kingdom(text.lower())) == text


@pytest.mark.parametrize("bad, error, field", [
    ("PPP", NotationError, "kingdom"),
    ("PPPP/PPPP/PPPP", NotationError, "kingdom"),
    ("PPPP/PPPP/PPPP/PPPPP", NotationError, "kingdom"),
    ("PPPP/PPPP/PPPP/PPPX", UnknownCardError, "kingdom"),
    (42, NotationError, "kingdom"),
])
def test_bad_kingdoms_name_the_field_and_value(bad, error, field):
    with pytest.raises(error) as info:
        score_kingdom(bad)
    assert info.value.field == field
    assert repr(bad if not isinstance(bad, str) or "X" not in bad else "X") in str(info.value)


def test_bad_legends_are_rejected():
    with pytest.raises(UnknownCardError, match="'plains-4'"):
        score_kingdom("PPPP/PPPP/PPPP/PPPP", ["plains-4"])
    with pytest.raises(InvalidInputError, match="twice"):
        score_kingdom("PPPP/PPPP/PPPP/PPPP", ["plains-3", 12])
    with pytest.raises(UnknownCardError):
        legend(16, "legends[0]")


def test_legend_table_totals_44_points():
    assert len(LEGENDS) == 15 and sum(l.points for l in LEGENDS) == 44


def test_bad_legends_name_their_field_in_the_engine_and_the_cli(tmp_path, capfd, monkeypatch):
    """A bad Legend in a score request is reported under the field the user typed (it was 'legends[1]')."""
    from solver.aetherya.game import AetheryaGame
    with pytest.raises(InvalidInputError) as err:
        contract.score(AetheryaGame(), {"kingdom": "FEFP/MDMH/PHFS/SSGS", "legends": ["plains-3", "plains-3"]})
    assert err.value.field == "state.legends[1]"
    out = command_line(main, ["aetherya", "score", "FEFP/MDMH/PHFS/SSGS", "--legends", "plains-3,0"], capfd)
    assert out.returncode == 1 and out.stderr.startswith("memory-solver: error: --legends[1]:"), out.stderr
    monkeypatch.chdir(tmp_path)
    missing = command_line(main, ["aetherya", "hint", "no/such/state.json"], capfd)
    assert missing.returncode == 1 and "no such file" in missing.stderr and "Traceback" not in missing.stderr
