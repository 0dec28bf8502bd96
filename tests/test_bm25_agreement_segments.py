"""A client-IDF Edge store's BM25 lists, from a held snapshot (scored in numpy) and from
the engine path (the engine's candidates scored again, asked deeper until settled), are
the same ids and the same float scores after random overwrites, deletes and index
builds (``optimize``: several segments, whose sums the engine adds in other orders)."""

from __future__ import annotations

import random
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._bm25 import Bm25SparseEmbeddings
from langgraph_memory.store._reads import ranked
from langgraph_memory.store.backends import DenseQuery, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends.edge import EdgeBackend

WORDS = "tea coffee chess paris london sister brother job dog cat garden piano river tennis music".split()
NAMESPACES = ("a", "b", "c")
_BM25 = Bm25SparseEmbeddings()


def _lists(backend: EdgeBackend, query: SparseQuery, cached: bool) -> list[tuple[str, float]]:
    """``query``'s list as the store's reads ask it (:func:`ranked`: slack, ties by id)."""
    plan = ranked([query])
    asked = next(plan)
    try:
        while True:
            asked = plan.send(backend.query_batch(asked, cached=cached))
    except StopIteration as done:
        return [(h.point.id, h.score) for h in done.value[0]]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_snapshot_and_engine_path_agree_across_segments(tmp_path_factory, seed):
    rng = random.Random(seed)
    backend = EdgeBackend(tmp_path_factory.mktemp("segments") / "s")
    backend.setup(dim=4, meta={"embedder": "test"})
    backend._snapshots.max_points = 3_000
    ids: dict[str, list[str]] = {n: [] for n in NAMESPACES}
    compared = 0
    try:
        for _ in range(8):
            ns = rng.choice(NAMESPACES)
            texts = [" ".join(rng.choices(WORDS, k=rng.randint(1, 6))) for _ in range(rng.randint(1, 150))]
            points = []
            for text, vector in zip(texts, _BM25.embed_documents(texts)):
                overwrite = ids[ns] and rng.random() < 0.2
                pid = rng.choice(ids[ns]) if overwrite else str(uuid.UUID(int=rng.getrandbits(122)))
                ids[ns] += [] if overwrite else [pid]
                points.append(StoredPoint(pid, {"namespace": ns, "status": "live", "content": text},
                                          [rng.random() for _ in range(4)], (list(vector.indices), list(vector.values))))
            backend.upsert(points)
            if rng.random() < 0.3 and ids[ns]:
                dead = rng.sample(ids[ns], min(len(ids[ns]), rng.randint(1, 40)))
                backend.delete(dead)
                ids[ns] = [i for i in ids[ns] if i not in dead]
            if rng.random() < 0.4:
                backend.optimize()
            for _ in range(3):
                asked = rng.choice(NAMESPACES)
                words = _BM25.embed_query(" ".join(rng.choices(WORDS, k=rng.randint(1, 4))))
                query = SparseQuery(list(words.indices), list(words.values), Where(namespace=asked),
                                    rng.choice([1, 3, 10, 20]), payload=False)
                # a search's dense round counts as a read of the namespace: it is then held
                dense = DenseQuery([1.0, 0.0, 0.0, 0.0], Where(namespace=asked), 3)
                for _ in range(40):
                    backend.query_batch([query, dense], cached=True)
                if backend._snapshots._held.get(asked) is None:
                    continue
                compared += 1
                assert _lists(backend, query, cached=True) == _lists(backend, query, cached=False)
        assert compared
    finally:
        backend.close()
