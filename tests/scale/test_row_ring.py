"""``RowRing``: rows leave oldest first, through wrap-around, growth and shrinking,
against a plain list of the rows."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from indist_fast.scale.row_ring import RowRing


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(st.tuples(st.booleans(), st.integers(0, 3000)), max_size=30),
       weighted=st.booleans(), limit=st.sampled_from([None, 1500, 5000]))
def test_ring_matches_a_list(ops, weighted, limit):
    ring = RowRing(weighted, True, limit)
    held: list[tuple[float, bool, float, float]] = []
    clock = 0
    for push, k in ops:
        if push:
            k = min(k, (limit or 10**9) - len(held))
            rows = [(float(clock + i) / 7, (clock + i) % 3 == 0, float(i), float(clock + i))
                    for i in range(k)]
            clock += k
            cols = [np.array(c) for c in zip(*rows)] if rows else \
                [np.empty(0), np.empty(0, bool), np.empty(0), np.empty(0)]
            ring.append(cols[0], cols[1].astype(bool), cols[2] if weighted else None, cols[3])
            held += rows
        else:
            k = min(k, len(held))
            gone = ring.pop_front(k)
            assert gone.scores.tolist() == [r[0] for r in held[:k]]
            assert gone.positive.tolist() == [r[1] for r in held[:k]]
            assert (gone.weights is None) == (not weighted)
            held = held[k:]
        assert len(ring) == len(held)
        assert limit is None or ring.capacity <= limit
        rows = ring.rows()
        assert rows.times.tolist() == [r[3] for r in held]
        if held:
            cut = held[len(held) // 2][3] + 0.5
            assert ring.count_before(cut) == sum(r[3] < cut for r in held)
