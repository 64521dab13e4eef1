"""Exact odds against computations written independently of the implementation.

The implementation pools every player die into one maximum; here the players' best roll is built the other
way round, player by player (the CDF of a maximum of independent maxima is the product of their CDFs), and
small cases are enumerated die by die. Pools past the kernel's 128-bit range (49 dice) must stay exact
(MN-7), the fractions must be in lowest terms and the outcomes must sum to exactly 1.
"""

import itertools
import json
from fractions import Fraction
from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cli import main
from solver.errors import InvalidInputError
from solver.mnemonic.odds import MAX_DICE, MAX_EXACT_DICE, group_odds, highest_distribution, individual_odds


def cdf_of_max(pools: list[int], v: int) -> Fraction:
    """P(best kept die of the players <= v): every player's kept die <= v, players independent.
    A player with no dice keeps nothing (counts as 0, always <= v)."""
    out = Fraction(1)
    for n in pools:
        out *= Fraction(v, 6) ** n
    return out


def independent_group(pools: list[int], adversary: int, nobody: str = "draw") -> dict[str, Fraction]:
    """victory = sum_a P(A = a) P(B > a); draw = sum_{a >= 1} P(A = a) P(B = a), B the players' best."""
    if sum(pools) == 0 and adversary == 0:
        return {k: Fraction(int(k == nobody)) for k in ("victory", "defeat", "draw")}
    a_cdf = [Fraction(v, 6) ** adversary for v in range(7)]  # P(A <= v); A = 0 when the pool is empty
    b_cdf = [cdf_of_max(pools, v) for v in range(7)]
    a_pmf = [a_cdf[0]] + [a_cdf[v] - a_cdf[v - 1] for v in range(1, 7)]
    b_pmf = [b_cdf[0]] + [b_cdf[v] - b_cdf[v - 1] for v in range(1, 7)]
    victory = sum(a_pmf[a] * (1 - b_cdf[a]) for a in range(7))
    draw = sum(a_pmf[v] * b_pmf[v] for v in range(1, 7))
    return {"victory": victory, "defeat": 1 - victory - draw, "draw": draw}


def enumerate_group(pools: list[int], adversary: int) -> dict[str, Fraction]:
    """Every roll of every die, read literally: each player keeps their highest; the single highest roll wins."""
    tally = {"victory": 0, "defeat": 0, "draw": 0}
    rolls = list(itertools.product(range(1, 7), repeat=sum(pools) + adversary))
    for roll in rolls:
        at, kept = 0, []
        for n in pools:
            if n:
                kept.append(max(roll[at:at + n]))
            at += n
        players = max(kept, default=0)
        enemy = max(roll[at:], default=0)
        tally["victory" if players > enemy else "defeat" if enemy > players else "draw"] += 1
    return {k: Fraction(v, len(rolls)) for k, v in tally.items()}


def check_json_fractions(data: dict, keys: tuple[str, ...]) -> list[Fraction]:
    """Each value is "num/den" in lowest terms and its float is the fraction's float."""
    assert set(data) == set(keys) | {"floats"} and set(data["floats"]) == set(keys)
    out = []
    for key in keys:
        num, den = (int(x) for x in data[key].split("/"))
        assert den > 0 and gcd(num, den) == 1, data[key]
        out.append(Fraction(num, den))
        assert data["floats"][key] == float(out[-1])
    return out


@pytest.mark.parametrize("pools,adversary", [
    ([1], 1), ([0, 1], 2), ([2, 0, 1], 1), ([1, 1], 2), ([0, 0, 3], 1), ([3], 0), ([0], 2), ([1, 1, 1], 1),
    ([2, 2], 1), ([1], 4), ([0, 0], 0),
])
def test_small_pools_enumerated_die_by_die(pools, adversary):
    """MN-3/MN-4: the rulebook read literally, every die rolled, against both the code and the closed form."""
    got = group_odds(pools, adversary)
    listed = enumerate_group(pools, adversary) if sum(pools) + adversary else independent_group(pools, 0)
    assert (got.victory, got.defeat, got.draw) == (listed["victory"], listed["defeat"], listed["draw"])
    assert listed == independent_group(pools, adversary)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=6), st.integers(0, 70))
def test_group_odds_equal_the_product_of_cdfs_everywhere(pools, adversary):
    """Many pool combinations, zeros and totals on both sides of the kernel's 49-dice range (MN-7)."""
    got = group_odds(pools, adversary)
    expected = independent_group(pools, adversary)
    assert (got.victory, got.defeat, got.draw) == (expected["victory"], expected["defeat"], expected["draw"])
    values = check_json_fractions(got.to_json(), ("victory", "defeat", "draw"))
    assert sum(values) == 1


@pytest.mark.parametrize("total", [47, 48, 49, 50, 51, 64, 120])
def test_mn7_exact_on_both_sides_of_the_kernels_range(total):
    """MN-7: 49 dice come from the 128-bit kernel, 50 and more from exact integers; both are exact."""
    for players in (total - 1, total // 2, 1):
        pools, adversary = [players // 2, 0, players - players // 2], total - players
        got = group_odds(pools, adversary)
        expected = independent_group(pools, adversary)
        assert (got.victory, got.defeat, got.draw) == (expected["victory"], expected["defeat"], expected["draw"])
    assert individual_odds(total).success == 1 - Fraction(5, 6) ** total
    assert sum(highest_distribution(total)) == 1


def test_mn7_a_large_table_without_complications_is_a_certain_victory():
    """MN-5/MN-7: 50 player dice and no Adversary die: Victory 1/1 (it used to be refused as 'beyond range')."""
    odds = group_odds([25, 25], 0)
    assert (odds.victory, odds.defeat, odds.draw) == (1, 0, 0)
    assert group_odds([25, 24], 1).draw == Fraction(1, 6)  # one Adversary die ties the players' best 1 time in 6
    assert MAX_EXACT_DICE == 49


def test_mn7_queries_past_the_size_cap_name_the_field():
    with pytest.raises(InvalidInputError) as info:
        group_odds([MAX_DICE], 1)
    assert info.value.field == "pools"
    with pytest.raises(InvalidInputError) as info:
        group_odds([1], MAX_DICE + 1)
    assert info.value.field == "adversary"
    with pytest.raises(InvalidInputError) as info:
        individual_odds(MAX_DICE + 1, "--individual")
    assert info.value.field == "--individual"
    group_odds([MAX_DICE - 1], 1)  # the cap itself is fine


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 5, 10, 49, 50, 200])
def test_mn1_mn2_individual_success_is_one_minus_five_sixths_to_the_n(dice):
    """MN-1/MN-2: a 6 among n dice; 0 dice never succeed."""
    odds = individual_odds(dice)
    assert odds.success == 1 - Fraction(5, 6) ** dice and odds.success + odds.complication == 1
    check_json_fractions(odds.to_json(), ("success", "complication"))


@pytest.mark.parametrize("argv,expected", [
    (["--players", "3,2,0", "--adversary", "4"], ([3, 2, 0], 4)),
    (["--players", "0", "--adversary", "3"], ([0], 3)),
    (["--players", "1,1,1,1,1,1"], ([1] * 6, 0)),
    (["--players", "30", "--adversary", "30"], ([30], 30)),
    (["--players", "10,10,10,10,10,10", "--adversary", "12"], ([10] * 6, 12)),
])
def test_cli_group_odds_match_the_closed_form(capsys, argv, expected):
    """The public contract: keys exactly victory/defeat/draw/floats, lowest terms, summing to exactly 1."""
    assert main(["mnemonic", "odds", *argv, "--json"]) == 0
    values = check_json_fractions(json.loads(capsys.readouterr().out), ("victory", "defeat", "draw"))
    closed = independent_group(*expected)
    assert values == [closed["victory"], closed["defeat"], closed["draw"]] and sum(values) == 1


@pytest.mark.parametrize("dice", ["0", "1", "4", "60"])
def test_cli_individual_odds_match_the_closed_form(capsys, dice):
    assert main(["mnemonic", "odds", "--individual", dice, "--json"]) == 0
    success, complication = check_json_fractions(json.loads(capsys.readouterr().out), ("success", "complication"))
    assert success == 1 - Fraction(5, 6) ** int(dice) and success + complication == 1
