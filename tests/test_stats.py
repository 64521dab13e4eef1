"""solver.stats: the Student t quantiles and the sign-flip test the benchmarks' paired comparisons use."""

import pytest

from solver.stats import mean_t_ci, sign_flip_p, t95


@pytest.mark.parametrize("df, quantile", [(1, 12.706), (5, 2.571), (30, 2.042), (31, 2.040), (60, 2.000),
                                          (120, 1.980), (10_000, 1.960)])
def test_t95_matches_the_tables(df, quantile):
    assert t95(df) == pytest.approx(quantile, abs=1.5e-3)


def test_t95_refuses_no_degrees_of_freedom():
    with pytest.raises(ValueError):
        t95(0)


def test_mean_t_ci_is_wider_than_the_normal_interval_for_few_values():
    mean, lo, hi = mean_t_ci([1.0, 2.0, 3.0])
    assert (mean, hi - mean) == pytest.approx((2.0, 4.303 / 3 ** 0.5))
    assert mean_t_ci([4.0]) == (4.0, 4.0, 4.0)


def test_sign_flip_p_exact_and_sampled():
    assert sign_flip_p([1.0, 1.0, 1.0]) == pytest.approx(2 / 8)  # all plus or all minus
    assert sign_flip_p([0.0, 0.0]) == 1.0
    assert sign_flip_p([2.0, -2.0]) == 1.0
    many = [1.0] * 20
    assert sign_flip_p(many) == pytest.approx(sign_flip_p(many, seed=0))  # seeded
    assert sign_flip_p(many) < 1e-3  # 2 / 2**20 exactly; the sampled estimate is (hits + 1) / (draws + 1)
    assert sign_flip_p([1.0, -1.0] * 10) == 1.0
