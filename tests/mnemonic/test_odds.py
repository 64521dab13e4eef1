"""Exact odds checked against independent hand computations and brute-force enumeration."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import InvalidInputError
from solver.mnemonic.odds import fraction_text, group_odds, highest_distribution, individual_odds


def brute_group(pools, adversary, nobody="draw"):
    """Enumerate every roll of every die: the obvious (slow) reading of the rulebook."""
    dice = [p for p in pools for _ in range(p)]
    owners = [i for i, p in enumerate(pools) for _ in range(p)]
    total = 6 ** (len(dice) + adversary)
    tally = {"victory": 0, "defeat": 0, "draw": 0}
    for roll in itertools.product(range(1, 7), repeat=len(dice) + adversary):
        kept = {}
        for owner, value in zip(owners, roll[:len(dice)]):
            kept[owner] = max(kept.get(owner, 0), value)
        players = max(kept.values(), default=0)
        enemy = max(roll[len(dice):], default=0)
        if players == 0 and enemy == 0:
            tally[nobody] += 1
        elif players > enemy:
            tally["victory"] += 1
        elif enemy > players:
            tally["defeat"] += 1
        else:
            tally["draw"] += 1
    return {k: Fraction(v, total) for k, v in tally.items()}


def test_mn1_individual_one_die_succeeds_one_time_in_six():
    """MN-1: one die succeeds only on a 6."""
    odds = individual_odds(1)
    assert odds.success == Fraction(1, 6) and odds.complication == Fraction(5, 6)


def test_mn1_individual_two_and_three_dice_by_hand():
    """MN-1: 2 dice: 36 rolls, 25 without a 6 -> 11/36; 3 dice: 216 - 125 = 91."""
    assert individual_odds(2).success == Fraction(11, 36)
    assert individual_odds(3).success == Fraction(91, 216)
    assert individual_odds(3).to_json() == {"success": "91/216", "complication": "125/216",
                                            "floats": {"success": 91 / 216, "complication": 125 / 216}}


def test_mn2_a_pool_of_no_dice_cannot_succeed():
    """MN-2: zero dice roll no 6, so the skill becomes complicated."""
    odds = individual_odds(0)
    assert odds.success == 0 and odds.complication == 1
    assert odds.to_json()["success"] == "0/1"


def test_highest_distribution_by_hand():
    """Two dice: highest is 1 in 1 way, 2 in 3, 3 in 5, ... 6 in 11."""
    assert highest_distribution(2) == [0] + [Fraction(2 * v - 1, 36) for v in range(1, 7)]
    assert highest_distribution(0) == [1, 0, 0, 0, 0, 0, 0]


def test_mn4_one_die_each_by_hand():
    """MN-4: one player die against one Adversary die: 15 wins, 15 losses, 6 ties of 36."""
    odds = group_odds([1], 1)
    assert (odds.victory, odds.defeat, odds.draw) == (Fraction(5, 12), Fraction(5, 12), Fraction(1, 6))


def test_issue_example_three_two_zero_against_four():
    """The issue's example: players 3,2,0 against 4 complications."""
    odds = group_odds([3, 2, 0], 4)
    assert fraction_text(odds.victory) == "3511399/10077696"
    assert odds.victory + odds.defeat + odds.draw == 1
    assert odds.to_json()["defeat"] == "2519351/10077696"
    assert odds.to_json()["draw"] == "674491/1679616"  # 4046946/10077696 in lowest terms


def test_mn3_a_player_with_no_skill_contributes_nothing():
    """MN-3: a pool of 0 changes nothing; the players' best is the highest of all their dice."""
    assert group_odds([3, 2, 0], 4) == group_odds([3, 2, 0], 4)
    assert (group_odds([3, 2, 0], 4).victory == group_odds([3, 2], 4).victory == group_odds([5], 4).victory)


def test_mn4_two_players_sharing_the_top_roll_is_a_victory():
    """MN-4: the highest roll belongs to the players even when two of them share it (enumerated)."""
    assert group_odds([1, 1], 1).victory == brute_group([1, 1], 1)["victory"]
    # by hand: P(max of 2 player dice > adversary die) = sum_v P(max = v) (v-1)/6
    by_hand = sum(Fraction(2 * v - 1, 36) * Fraction(v - 1, 6) for v in range(1, 7))
    assert group_odds([1, 1], 1).victory == by_hand


def test_mn5_only_one_side_rolls():
    """MN-5: players roll and the Adversary pool is empty -> Victory; only the Adversary rolls -> Defeat."""
    assert group_odds([2, 1], 0).victory == 1
    assert group_odds([0, 0], 3).defeat == 1
    assert group_odds([], 2).defeat == 1


@pytest.mark.parametrize("nobody", ["draw", "victory", "defeat"])
def test_mn6_nobody_rolls_follows_the_rules_setting(nobody):
    """MN-6: no player dice and no complications: the outcome named by group.nobodyRolls."""
    odds = group_odds([0, 0, 0], 0, nobody)
    assert odds.nobody_rolls and odds.get(nobody) == 1 and odds.victory + odds.defeat + odds.draw == 1


@pytest.mark.parametrize("pools,adversary", [([1], 0), ([2], 1), ([1, 2], 2), ([3, 0], 2), ([1, 1, 1], 1),
                                             ([0], 3), ([2, 2], 2)])
def test_group_matches_brute_force_enumeration(pools, adversary):
    odds = group_odds(pools, adversary)
    brute = brute_group(pools, adversary)
    assert (odds.victory, odds.defeat, odds.draw) == (brute["victory"], brute["defeat"], brute["draw"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=5), st.integers(0, 24))
def test_group_outcomes_sum_to_exactly_one_in_lowest_terms(pools, adversary):
    odds = group_odds(pools, adversary)
    assert odds.victory + odds.defeat + odds.draw == 1
    for text in odds.to_json().values():
        if isinstance(text, str):
            num, den = map(int, text.split("/"))
            assert Fraction(num, den).denominator == den  # already in lowest terms


def test_mn7_exact_past_the_kernels_range():
    """MN-7: 49 dice in all is the kernel's range; beyond it the answer is still exact (Python integers)."""
    for pools, adversary in (([25], 24), ([25], 25), ([40], 40)):
        odds = group_odds(pools, adversary)
        assert odds.victory + odds.defeat + odds.draw == 1
        assert odds.victory == sum((Fraction(v, 6) ** pools[0] - Fraction(v - 1, 6) ** pools[0])
                                   * Fraction(v - 1, 6) ** adversary for v in range(1, 7))
    assert individual_odds(50).success == 1 - Fraction(5, 6) ** 50


@pytest.mark.parametrize("pools,adversary,field", [([-1], 2, "pools[0]"), ([1.5], 2, "pools[0]"),
                                                   ([True], 1, "pools[0]"), ("32", 1, "pools"), ([2], -3, "adversary")])
def test_bad_pools_name_the_field(pools, adversary, field):
    with pytest.raises(InvalidInputError) as info:
        group_odds(pools, adversary)
    assert info.value.field == field
