"""The engine path's margin (``_bm25_local.order_margin``) holds only when every product is
non-negative: a store that holds a negative sparse value is noted as such (``negative``),
whatever else its vector holds. ``min()`` of a vector starting with ``nan`` is ``nan``, which
is not below zero: the negative value beside it went unnoticed, and the margin let the engine
path keep a list whose best point (by our score) the engine had scored 0. Such vectors are
refused at write since the sparse checks (``tests/test_sparse_vector_checks.py``); a store
written before them holds them, as here (written through the engine layer)."""

from __future__ import annotations

import pytest

from langgraph_memory.store._reads import sparse_query
from langgraph_memory.store.backends import Where
from tests.test_bm25_client_idf import open_backend
from tests.test_bm25_rescore_reads import _expected
from tests.test_snapshot_bm25 import _load
from tests.test_snapshot_reads import DIM

# Term ids for which the engine, after an index build, adds X's products in another order
# than the query's: 1e8 - 1e8 + small here, (1e8 + small) - 1e8 = 0 there.
A, C, E = 1047664194, 201561927, 60875733


@pytest.mark.parametrize("reopened", [False, True])
def test_a_negative_value_beside_a_nan_is_noted(tmp_path, reopened):
    path = tmp_path / "edge"
    engine = open_backend(path, dim=DIM)
    x = {0: float("nan"), A: 1e8, C: -1e8, E: 1.0}  # term 0 sorts first: min() of the values is nan
    rows = [({"status": "live"}, x)] + [({"status": "live"}, {E: 0.001 * k}) for k in range(1, 40)]
    _load(engine, "n", rows[:20])
    engine.optimize()
    _load(engine, "n", rows[20:])
    engine.optimize()
    if reopened:  # counted again from the records (a store opened later)
        engine.close()
        engine = open_backend(path, dim=DIM)
    try:
        for limit in (1, 2, 3):
            [hits] = engine.query_batch([sparse_query([A, C, E], [1.0] * 3, Where(namespace="n"), limit, False)])
            assert [(h.point.id, h.score) for h in hits] == _expected(engine, "n", [A, C, E], limit)
        assert engine._counts.negative  # counted by then (a store opened later counts at its first query)
    finally:
        engine.close()
