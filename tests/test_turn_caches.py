"""What a pre-hook turn keeps from one turn to the next never outlives a write.

A turn on a small namespace reuses what earlier turns computed: each BM25 term's IDF
(``_bm25_idf.TermCounts``, kept per term until the counts change). Each kept thing is
checked here against the same thing computed from scratch after writes.
"""

from __future__ import annotations

import uuid

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store.backends import StoredPoint
from langgraph_memory.store.backends._bm25_idf import idf
from langgraph_memory.store.backends.edge import EdgeBackend
from tests.test_bm25_client_idf import live_counts

DIM = 4
TERMS = 12


def _backend(path) -> EdgeBackend:
    backend = EdgeBackend(path)
    backend.setup(dim=DIM, meta={"embedder": "test"})
    return backend


_vectors = st.lists(st.integers(0, TERMS - 1), min_size=0, max_size=4, unique=True)
_steps = st.lists(st.one_of(
    st.tuples(st.just("upsert"), st.integers(0, 7), _vectors),
    st.tuples(st.just("delete"), st.integers(0, 7)),
), min_size=1, max_size=10)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_steps, weight=st.floats(0.25, 4.0))
def test_idf_of_a_term_follows_every_write(tmp_path_factory, steps, weight):
    """Each step asks weights for a query never asked before (its own values: no query's
    weights are reused) on terms asked before: the IDF kept per term must be that of the
    counts after the step's write."""
    backend = _backend(tmp_path_factory.mktemp("idf"))
    ids = [str(uuid.UUID(int=k + 1)) for k in range(8)]
    backend.upsert([StoredPoint(ids[k], {"namespace": "u", "status": "live"}, [1.0] * DIM, ([k % TERMS], [1.0]))
                    for k in range(4)])
    terms = list(range(TERMS))
    backend._counts.weights(terms, [weight] * TERMS)  # every term's IDF kept now
    for step, (kind, k, *rest) in enumerate(steps):
        if kind == "upsert":
            sparse = (rest[0], [1.0] * len(rest[0])) if rest[0] else None
            backend.upsert([StoredPoint(ids[k], {"namespace": "u", "status": "live"}, [1.0] * DIM, sparse)])
        else:
            backend.delete([ids[k]])
        values = [weight + step + 1 + t / 16 for t in terms]
        n, df = live_counts(backend)
        expected = [float(np.float32(v) * idf(n, df.get(t, 0))) for t, v in zip(terms, values)]
        assert backend._counts.weights(terms, values) == expected
    backend.close()


def test_idf_kept_per_term_is_the_formula(tmp_path):
    """Two queries sharing terms, the second's IDF read from what the first kept: the same
    bits as computing each term's IDF afresh."""
    backend = _backend(tmp_path / "s")
    backend.upsert([StoredPoint(str(uuid.UUID(int=k + 1)), {"namespace": "u", "status": "live"}, [1.0] * DIM,
                                ([k % 5, 7], [1.0, 2.0])) for k in range(9)])
    n, df = live_counts(backend)
    for terms, values in (([0, 1, 7], [1.5, 0.5, 3.0]), ([7, 1, 9, 0], [0.1, 2.0, 1.0, 7.0])):
        assert backend._counts.weights(terms, values) == [
            float(np.float32(v) * idf(n, df.get(t, 0))) for t, v in zip(terms, values)]
    backend.close()
