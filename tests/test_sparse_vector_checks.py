"""A custom ``sparse_embeddings=`` encoder is checked (``store/_sparse_checks.py``): any
vector it returns, on any write path or query, either works or is our
``InvalidMemoryError``, and a refused write stores nothing: the points, their vectors and
a client-IDF shard's BM25 counts (``TermCounts``) are as before, and equal a recount.

Before the check, Qdrant Edge stored NaN, infinite and negative weights (one negative
weight made every engine-path BM25 query of the shard read all its matches), panicked on
indices and values of different lengths, and raised bare ``OverflowError``/``TypeError``;
qdrant-client raised bare ``ValueError``/pydantic errors."""

from __future__ import annotations

import asyncio
import json
import math
import zlib
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langchain_qdrant.sparse_embeddings import SparseEmbeddings, SparseVector
from qdrant_client import QdrantClient

from langgraph_memory import MemoryStore, QueryVectors
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.backends import Where
from langgraph_memory.store.backends._bm25_idf import TermCounts
from langgraph_memory.store._transfer import ImportFormatError
from langgraph_memory.store.conversations import index_exchange

MAX_TERMS = 65_536
MAX_VALUE = 1e9


class Vec:
    """What a hostile encoder may return: any ``indices`` and ``values``, unchecked."""

    def __init__(self, indices: Any, values: Any) -> None:
        self.indices, self.values = indices, values

    def __repr__(self) -> str:
        return f"Vec({self.indices!r}, {self.values!r})"


def _good(text: str) -> SparseVector:
    terms = sorted({zlib.crc32(w.encode()) % 1_000 for w in text.split()})
    return SparseVector(indices=terms, values=[1.0] * len(terms))


class Hostile(SparseEmbeddings):
    """Returns ``bad`` for every text holding "zz" and for queries when ``bad_query``."""

    def __init__(self) -> None:
        self.bad: Any = None
        self.bad_query = False
        self.drop = 0  # vectors left out of (negative: added to) embed_documents' answer

    def embed_documents(self, texts: list[str]) -> list[Any]:
        found = [self.bad if "zz" in t else _good(t) for t in texts]
        return found[: len(found) - self.drop] if self.drop >= 0 else found + [_good("x")] * -self.drop

    def embed_query(self, text: str) -> Any:
        return self.bad if self.bad_query else _good(text)


def valid(vector: Any) -> bool:
    """The rule, spelled independently of the store's check."""
    indices, values = getattr(vector, "indices", None), getattr(vector, "values", None)
    if not isinstance(indices, (list, tuple)) or not isinstance(values, (list, tuple)):
        return False
    if len(indices) != len(values) or len(indices) > MAX_TERMS or len(set(map(repr, indices))) != len(indices):
        return False
    if any(type(i) is not int or not 0 <= i < 2**32 for i in indices):
        return False
    return all(type(v) in (int, float) and 0 <= v <= MAX_VALUE and not math.isnan(v) for v in values)


indices = st.one_of(st.integers(0, 40), st.integers(0, 40), st.integers(-2**33, 2**33), st.booleans(),
                    st.floats(), st.text(max_size=2), st.none())
values = st.one_of(st.floats(0, 5), st.floats(0, 5), st.floats(), st.integers(-3, 10**10), st.booleans(),
                   st.none(), st.just(-0.0), st.just(MAX_VALUE), st.just(math.nextafter(MAX_VALUE, math.inf)))
lists = lambda s: st.lists(s, max_size=5)  # noqa: E731
vectors = st.one_of(
    st.builds(lambda i, v: Vec(i, v[: len(i)]), lists(indices), lists(values)),  # lengths agree, often
    st.builds(Vec, lists(indices), lists(values)),
    st.builds(Vec, st.one_of(lists(indices).map(tuple), st.just("12"), st.just({1: 2}), st.none()),
              st.one_of(lists(values).map(tuple), st.just("ab"), st.none())),
    st.just(Vec(list(range(MAX_TERMS + 1)), [1.0] * (MAX_TERMS + 1))),
    st.sampled_from([None, "vector", 3, ([1], [1.0])]),
)
DOC_OPS = ["remember", "remember_dedup", "aremember", "many", "base_put", "base_batch", "exchange"]
QUERY_OPS = ["search_bm25", "search_hybrid", "embed_query"]


@pytest.fixture(scope="module")
def hostile_stores(tmp_path_factory, fake_embeddings):
    encoders = {"edge": Hostile(), "qdrant": Hostile()}
    stores = {
        "edge": MemoryStore.open(tmp_path_factory.mktemp("sparse") / "s", embeddings=fake_embeddings,
                                 sparse_embeddings=encoders["edge"]),
        "qdrant": MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings,
                              sparse_embeddings=encoders["qdrant"]),
    }
    for name, store in stores.items():
        store.remember("a first memory about tea", namespace=("u", "seed"), dedup=False)
        index_exchange(store, "seed question", "seed answer", namespace=("u", "seed"))
    yield {name: (store, encoders[name]) for name, store in stores.items()}
    for store in stores.values():
        store.close()


def _points(backend: Any) -> dict[str, tuple[Any, Any]]:
    out, offset = {}, None
    while True:
        page, offset = backend.scroll(Where(status=None), limit=512, with_vectors=True, offset=offset)
        for p in page:
            out[p.id] = (dict(p.payload), p.sparse and (list(p.sparse[0]), list(p.sparse[1])))
        if offset is None:
            return out


def _counts(backend: Any) -> tuple[int, Counter] | None:
    counts = getattr(backend, "_counts", None)
    if counts is None:
        return None
    if not counts.known:
        counts.recount()
    return counts.n, +counts.df


def _recounted(backend: Any) -> tuple[int, Counter]:
    fresh = TermCounts(lambda: backend.shard)
    fresh.recount()
    return fresh.n, +fresh.df


def _state(store: MemoryStore) -> list[Any]:
    return [(_points(b), _counts(b)) for b in (store._backend, *store._sides.values())]


def _write(store: MemoryStore, op: str, ns: tuple[str, ...], text: str) -> None:
    if op == "remember":
        store.remember(text, namespace=ns, dedup=False)
    elif op == "remember_dedup":
        store.remember(text, namespace=ns, subjects=["tea"])
    elif op == "aremember":
        asyncio.run(store.aremember(text, namespace=ns, dedup=False))
    elif op == "many":
        store.remember_many(["one fine line", text, "another fine line"], namespace=ns, dedup=False)
    elif op == "base_put":
        store.as_base_store(memory_field="content").put(ns, "k", {"content": text})
    elif op == "base_batch":
        from langgraph.store.base import PutOp

        store.as_base_store(memory_field="content").batch(
            [PutOp(ns, "k1", {"content": "a fine item"}), PutOp(ns, "k2", {"content": text})])
    elif op == "exchange":
        index_exchange(store, text, "a fine answer", namespace=ns)
    elif op == "search_bm25":
        store.search("tea zz", namespace=ns, mode="bm25")
    elif op == "search_hybrid":
        store.search("tea zz", namespace=ns, mode="hybrid")
    else:
        store.embed_query("tea zz")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(backend=st.sampled_from(["edge", "qdrant"]), op=st.sampled_from(DOC_OPS + QUERY_OPS), vector=vectors,
       drop=st.sampled_from([0, 0, 0, 0, 1, -1]), n=st.integers(0, 10**6))
@example(backend="edge", op="remember", vector=Vec([1], [-1.0]), drop=0, n=1)
@example(backend="edge", op="many", vector=Vec([1, 2], [1.0]), drop=0, n=2)
@example(backend="edge", op="base_put", vector=Vec([1], [math.nan]), drop=0, n=3)
@example(backend="qdrant", op="exchange", vector=Vec([2**32], [1.0]), drop=0, n=4)
@example(backend="edge", op="search_bm25", vector=Vec([1], [-1.0]), drop=0, n=5)
@example(backend="edge", op="many", vector=Vec([1], [1.0]), drop=1, n=6)
def test_any_vector_of_a_custom_encoder_works_or_is_refused_and_stores_nothing(
    hostile_stores, backend, op, vector, drop, n
):
    store, encoder = hostile_stores[backend]
    ns = ("u", f"n{n}")
    query = op in QUERY_OPS
    drop = 0 if query else drop  # embed_query answers one vector
    encoder.bad, encoder.bad_query, encoder.drop = vector, query, drop
    before = _state(store)
    try:
        _write(store, op, ns, "zz a fine memory about tea")
    except InvalidMemoryError as exc:
        assert exc.field == "sparse_embeddings"
        assert not valid(vector) or drop, (vector, drop)
        assert _state(store) == before  # the points, their vectors and the BM25 counts
    else:
        assert valid(vector) and not drop, (vector, drop)
        new = [s for i, (p, s) in _points(store._backend).items()
               if i not in before[0][0] and p.get("content") == "zz a fine memory about tea"]
        for stored in new:  # stored as given (to float32: Edge's precision; in index order)
            given_ = sorted(zip(vector.indices, (float(np.float32(v)) for v in vector.values)))
            assert ([(i, float(np.float32(v))) for i, v in sorted(zip(*stored))] if stored else []) == given_
    finally:
        encoder.bad, encoder.bad_query, encoder.drop = None, False, 0
    for b in (store._backend, *store._sides.values()):
        counts = getattr(b, "_counts", None)
        if counts is not None:
            assert not counts.negative
            assert _counts(b) == _recounted(b)


def test_an_encoder_that_is_not_one_is_refused_before_the_store_opens(tmp_path, fake_embeddings):
    with pytest.raises(InvalidMemoryError, match="sparse_embeddings"):
        MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings, sparse_embeddings="bm25")
    with MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings) as store:  # not left locked
        assert store.count(namespace=("u",)) == 0


json_indices = st.one_of(st.integers(0, 40), st.integers(-2**33, 2**33), st.integers(10**30, 10**31),
                         st.booleans(), st.floats(), st.text(max_size=2), st.none())
json_values = st.one_of(st.floats(0, 5), st.floats(), st.integers(-3, 10**10), st.integers(10**400, 10**401),
                        st.booleans(), st.none(), st.just(-0.0))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(backend=st.sampled_from(["edge", "qdrant"]), idx=st.lists(json_indices, max_size=4),
       vals=st.lists(json_values, max_size=4), n=st.integers(0, 10**6))
@example(backend="edge", idx=[1], vals=[-1.0], n=1)
@example(backend="edge", idx=[1], vals=[10**400], n=2)
@example(backend="qdrant", idx=[1], vals=[1e300], n=3)
def test_any_sparse_vector_of_an_import_file_works_or_is_refused_and_stores_nothing(
    hostile_stores, tmp_path_factory, backend, idx, vals, n
):
    """An export file is a client value: its sparse vectors obey the encoder's rule."""
    store, _ = hostile_stores[backend]
    ns = ("imp", f"n{n}")
    store.erase(ns)  # an earlier example may have imported into it
    store.remember("an imported memory about tea", namespace=ns, dedup=False)
    path = tmp_path_factory.mktemp("imp") / "x.jsonl"
    store.export(path, namespace=ns)
    store.erase(ns)
    header, record = path.read_text().splitlines()[:2]
    obj = json.loads(record)
    obj["sparse"] = {"indices": idx, "values": vals}
    path.write_text(header + "\n" + json.dumps(obj) + "\n")
    before = _state(store)
    try:
        store.import_(path)
    except ImportFormatError as exc:
        assert "sparse" in str(exc)
        assert not valid(Vec(idx, vals))
        assert _state(store) == before
    else:
        assert valid(Vec(idx, vals)), (idx, vals)
    for b in (store._backend, *store._sides.values()):
        if getattr(b, "_counts", None) is not None:
            assert not b._counts.negative
            assert _counts(b) == _recounted(b)


@pytest.mark.parametrize("weight", [-1.5, math.nan, math.inf])
def test_a_store_that_already_holds_a_bad_weight_still_opens_and_answers(tmp_path, fake_embeddings, weight):
    """Written before the check (here: past it, through the engine layer): the store opens,
    and BM25 and hybrid searches answer on both paths (snapshot and engine)."""
    from langgraph_memory.store.backends import SparseQuery, StoredPoint

    path = tmp_path / "s"
    with MemoryStore.open(path, embeddings=fake_embeddings, sparse_embeddings=Hostile()) as store:
        kept = [store.remember(f"memory {i} about tea", namespace=("u",), dedup=False).memory for i in range(5)]
        point = store._backend.retrieve([kept[0].id], with_vectors=True)[0]
        store._backend.upsert([StoredPoint(point.id, point.payload, point.dense,
                                           (list(point.sparse[0]), [weight] * len(point.sparse[0])))])
    with MemoryStore.open(path, embeddings=fake_embeddings, sparse_embeddings=Hostile()) as store:
        for mode in ("bm25", "hybrid"):
            hits = store.search("memory about tea", namespace=("u",), mode=mode, limit=3)
            assert hits and all(h.memory.id in {m.id for m in kept} for h in hits)
        good = _good("memory about tea")
        where = Where(namespace="u")
        for cached in (False, True):
            [hits] = store._backend.query_batch([SparseQuery(good.indices, good.values, where, 3)], cached=cached)
            assert len(hits) == 3
        assert store._backend._counts.negative == (weight < 0)


BAD_QUERY_VECTORS = {
    "negative sparse weight": lambda dim: QueryVectors("tea", [1.0] + [0.0] * (dim - 1), ([1], [-1.0])),
    "indices and values of two lengths": lambda dim: QueryVectors("tea", [1.0] + [0.0] * (dim - 1), ([1, 2], [1.0])),
    "NaN in the dense vector": lambda dim: QueryVectors("tea", [math.nan] * dim, ([1], [1.0])),
    "dense vector of another size": lambda dim: QueryVectors("tea", [1.0] * (dim + 1), ([1], [1.0])),
}


@pytest.mark.parametrize("case", sorted(BAD_QUERY_VECTORS))
@pytest.mark.parametrize("backend", ["edge", "qdrant"])
def test_query_vectors_built_by_hand_are_checked_at_every_entry_point(hostile_stores, backend, case):
    """``QueryVectors`` may be built by the caller: every entry point taking one checks it as
    ``embed_query``'s own output is, and a store's own vectors pass unchanged."""
    from langgraph_memory.agent.injection import select_memories
    from langgraph_memory.store.conversations import search_conversations

    store, _ = hostile_stores[backend]
    bad = BAD_QUERY_VECTORS[case](store.dim)
    calls = [
        lambda q: store.search(q, namespace=("u", "seed"), mode="hybrid"),
        lambda q: search_conversations(store, q, namespace=("u", "seed")),
        lambda q: store.search_live(q, namespace=("u", "seed"), rooms="r"),
        lambda q: select_memories(store, namespace=("u", "seed"), query=q),
    ]
    for call in calls:
        with pytest.raises(InvalidMemoryError, match="query"):
            call(bad)
        call(store.embed_query("tea"))


@pytest.mark.parametrize("where", ["dense", "sparse"])
def test_an_import_number_too_large_for_a_float_is_a_format_error(hostile_stores, tmp_path, where):
    """JSON takes an integer of any length: ``math.isfinite(10**400)`` raised a bare
    ``OverflowError`` out of the import's validation."""
    store, _ = hostile_stores["edge"]
    ns = ("imp", "huge", where)
    store.erase(ns)
    store.remember("an imported memory about tea", namespace=ns, dedup=False)
    path = tmp_path / "x.jsonl"
    store.export(path, namespace=ns)
    store.erase(ns)
    header, record = path.read_text().splitlines()
    obj = json.loads(record)
    if where == "dense":
        obj["dense"][0] = 10**400
    else:
        obj["sparse"] = {"indices": [1], "values": [10**400]}
    path.write_text(header + "\n" + json.dumps(obj) + "\n")
    before = _state(store)
    with pytest.raises(ImportFormatError, match=where):
        store.import_(path)
    assert _state(store) == before
