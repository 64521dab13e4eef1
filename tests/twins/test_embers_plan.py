"""The compiled Blink plan search and its twin agree: same answer, same plan, same node count, also when the
node budget cuts the search short or the first add is forced."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import embers as kernel
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


def _search_arguments(row):
    """The kernel's arguments for a Blink of ``row`` onto a 2-card Mind (7 cards: 30,661 nodes; 10: millions)."""
    from solver.embers import plan as planlib
    from solver.embers.notation import state_from_notation
    from solver.registry import load_game
    state = state_from_notation(load_game("embers"), "embers/one day=1 turn=fenrys phase=blink "
                                f"mind=C4@0,0;S1a@1,1 row={row} demons=Cd:C2b discard=- box=- "
                                "resolve=D1a,G2b,S3,F5 completed=0 added=0 pending=- result=-")
    return list(planlib.search_arguments(planlib.problem_from_state(state), 10**9))


def test_a_raised_stop_flag_stops_kernel_and_twin_at_the_same_node():
    """control[0] is read every 1024 nodes: raised before the call, both stop at node 1024 with the same best
    plan so far and write the nodes to control[1]; lowered, control changes nothing."""
    *args, plan = _search_arguments("C3,C1b,F1a,G3,D3,S4,F2a")
    free = kernel.search_plans(*args, np.zeros_like(plan))
    assert free[3] > 2048 and free[4]
    outs = []
    for search in (kernel.search_plans, twin.search_plans):
        control = np.array([1, 0], dtype=np.int64)
        out_plan = np.full_like(plan, -9)
        out = search(*args, out_plan, control)
        outs.append((out, out_plan[:out[2]].tolist(), control.tolist()))
    assert outs[0] == outs[1]
    (found, _, _, nodes, complete), _, control = outs[0]
    assert found and nodes == 1024 and not complete and control == [1, 1024]
    lowered = np.zeros(2, dtype=np.int64)
    assert kernel.search_plans(*args, np.zeros_like(plan), lowered) == free and lowered[1] == free[3] // 1024 * 1024


def test_the_stop_flag_is_read_while_the_kernel_runs():
    """Another thread raising control[0] stops a long kernel call (the kernel runs without the GIL)."""
    import threading
    import time
    *args, plan = _search_arguments("C3,C1b,F1a,G3,D3,S4,F2a,G2a,D2b,S2b")
    control = np.zeros(1, dtype=np.int64)
    timer = threading.Timer(0.05, lambda: control.__setitem__(0, 1))
    args[-1] = 10**12  # max_nodes: only the flag can stop it early
    start = time.perf_counter()
    timer.start()
    out = kernel.search_plans(*args, np.zeros_like(plan), control)
    timer.join()
    assert time.perf_counter() - start < 2 and not out[4] and out[3] % 1024 == 0 and out[0]
