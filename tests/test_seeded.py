"""``solver.seeded``: a numpy-free stream that draws what ``numpy.random.default_rng(seed)`` draws (issue 24), and
``solver.lazynp``/``solver.buffers``, the other two pieces that keep numpy out of a short hint's process."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import buffers, seeded

SEEDS = st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 2**200),
                  st.lists(st.integers(0, 2**40), min_size=1, max_size=6))
BOUNDS = st.one_of(st.integers(1, 100), st.sampled_from([2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62, 2**63 - 1]))
CALLS = st.lists(st.one_of(
    st.tuples(st.just("integers"), BOUNDS),
    st.tuples(st.just("range"), st.integers(-100, 100), st.integers(1, 200)),
    st.tuples(st.just("random")),
    st.tuples(st.just("choice"), st.integers(1, 60)),
    st.tuples(st.just("weighted"), st.lists(st.integers(0, 50), min_size=1, max_size=12)),
    st.tuples(st.just("shuffle"), st.integers(0, 60)),
), min_size=1, max_size=25)


def _draw(rng, call, numpy_side: bool):
    kind, *args = call
    if kind == "integers":
        return int(rng.integers(args[0]))
    if kind == "range":
        return int(rng.integers(args[0], args[0] + args[1]))
    if kind == "random":
        return float(rng.random())
    if kind == "choice":
        return int(rng.choice(args[0]))
    if kind == "weighted":
        weights = [args[0][0] + 1, *args[0][1:]]
        total = sum(weights)
        p = np.array(weights, dtype=float) / total if numpy_side else [w / total for w in weights]
        return int(rng.choice(len(weights), p=p))
    items = list(range(args[0]))
    rng.shuffle(items)
    return items


@settings(max_examples=300, deadline=None)
@given(SEEDS, CALLS)
def test_a_stream_draws_what_numpy_draws(seed, calls):
    ours, theirs = seeded.default_rng(seed), np.random.default_rng(seed)
    assert [_draw(ours, c, False) for c in calls] == [_draw(theirs, c, True) for c in calls]
    assert not ours._numpy  # every call above is the stream's own


@settings(max_examples=60, deadline=None)
@given(SEEDS, CALLS)
def test_any_other_call_goes_on_in_numpy_from_the_same_state(seed, calls):
    ours, theirs = seeded.default_rng(seed), np.random.default_rng(seed)
    for call in calls:
        _draw(ours, call, False), _draw(theirs, call, True)
    assert ours.permutation(9).tolist() == theirs.permutation(9).tolist()
    assert ours.normal() == theirs.normal()
    assert int(ours.integers(1000)) == int(theirs.integers(1000))  # and on in numpy after that


def test_numpys_own_errors_come_through():
    with pytest.raises(ValueError):
        seeded.default_rng(1).choice(3, p=[0.5, 0.6, -0.1])
    with pytest.raises(ValueError):
        seeded.default_rng(1).integers(0)
    with pytest.raises(ValueError):
        seeded.default_rng(-1)


def test_typed_buffers_and_matrices():
    flat = buffers.zeros(buffers.UINT64, 6)
    view = buffers.matrix(flat, 3)
    view[1, 2] = 5
    assert view.shape == (2, 3) and flat.tolist() == [0, 0, 0, 0, 0, 5]
    assert np.asarray(buffers.stacked([buffers.typed(buffers.INT32, [1, 2]),
                                       buffers.typed(buffers.INT32, [3, 4])])).tolist() == [[1, 2], [3, 4]]
    empty = buffers.matrix(buffers.typed(buffers.INT32, []), 2)
    assert empty.shape == (0, 2) and empty.dtype == np.int32


def test_lazy_numpy_imports_numpy_on_the_first_name_read(tmp_path):
    code = ("import sys\nfrom solver.lazynp import np\nbefore = 'numpy' in sys.modules\n"
            "print(before, np.zeros(2).tolist(), np.random.default_rng(1).integers(9), 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120, check=True).stdout.split()
    assert out == ["False", "[0.0,", "0.0]", str(np.random.default_rng(1).integers(9)), "True"]
