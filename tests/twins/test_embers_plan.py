"""The compiled Blink plan search and its twin agree: same answer, same plan, same node count, also when the
node budget cuts the search short or the first add is forced."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import embers_plan as kernel
from solver.twins import embers_plan as twin

positions = st.integers(-2, 2)
minds = st.lists(st.tuples(positions, positions, st.integers(1, 15), st.integers(0, 4), st.integers(1, 5),
                           st.integers(0, 60)), min_size=1, max_size=5)
rows = st.lists(st.tuples(st.integers(1, 15), st.integers(0, 4), st.integers(1, 5), st.integers(0, 60)),
                min_size=1, max_size=3)


def _arguments(mind, row, data):
    reveal = np.array([sorted(data.draw(st.lists(st.integers(0, 300), min_size=len(row) + 1,
                                                 max_size=len(row) + 1))) for _ in range(5)], dtype=np.int64)
    first = data.draw(st.one_of(st.just((-1, 0, 0)), st.tuples(st.integers(0, len(row) - 1), positions, positions)))
    return (np.array([m[0] for m in mind], dtype=np.int32), np.array([m[1] for m in mind], dtype=np.int32),
            np.array([m[2] for m in mind], dtype=np.uint8), np.array([m[3] for m in mind], dtype=np.uint8),
            np.array([m[4] for m in mind], dtype=np.uint8), np.array([m[5] for m in mind], dtype=np.int64),
            np.array([r[0] for r in row], dtype=np.uint8), np.array([r[1] for r in row], dtype=np.uint8),
            np.array([r[2] for r in row], dtype=np.uint8), np.array([r[3] for r in row], dtype=np.int64),
            reveal, data.draw(st.integers(0, 31)), np.array(data.draw(st.lists(st.integers(0, 3), min_size=5,
                                                                                max_size=5)), dtype=np.int64),
            data.draw(st.sampled_from([0, 1000])), data.draw(st.sampled_from([0, 150])),
            data.draw(st.integers(0, (1 << len(row)) - 1)), data.draw(st.booleans()), *first,
            data.draw(st.sampled_from([1, 3, 10, 40, 10**6])))


@settings(max_examples=250, deadline=None)
@given(minds, rows, st.data())
def test_search_plans_agree(mind, row, data):
    args = _arguments(mind, row, data)
    plan_k = np.full((len(row), 3), -9, dtype=np.int32)
    plan_t = np.full((len(row), 3), -9, dtype=np.int32)
    out_k = kernel.search_plans(*args, plan_k)
    out_t = twin.search_plans(*args, plan_t)
    assert out_k == out_t
    assert np.array_equal(plan_k[:out_k[2]], plan_t[:out_t[2]])
