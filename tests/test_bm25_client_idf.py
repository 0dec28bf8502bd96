"""Client-side BM25 IDF on Qdrant Edge (``store/backends/_bm25_idf.py``).

A new store is created without the engine's IDF modifier, says so in its meta file, and
weights every BM25 query by IDF from counts of its live points. An old store (no field)
keeps the engine's IDF and is not changed by opening it. On data only inserted, the
engine's scores with our weights are the same bits as the engine's own IDF; after any
writes our counts are those of the live points.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.errors import StorageError
from langgraph_memory.store._bm25 import Bm25SparseEmbeddings
from langgraph_memory.store.backends import SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._bm25_idf import CLIENT, IDF_KEY, idf
from langgraph_memory.store.backends.edge import META_FILE, EdgeBackend

DIM = 4
WORDS = ("apple banana cherry dog elephant fish garden house island jungle kite lemon mango night ocean "
         "piano queen river sun tree umbrella violin water yellow zebra coffee paris tennis sister job").split()


def sentences(n: int, seed: int) -> list[str]:
    """One-sentence memories over a small vocabulary: shared terms and equal scores on purpose;
    every 17th is stopwords only (an empty sparse vector, which N does not count)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        if i % 17 == 5:
            out.append("it is what it was ;)")
        else:
            out.append("I like the " + " and the ".join(rng.choice(WORDS, size=int(rng.integers(1, 6)))))
    return out


@pytest.fixture(scope="module")
def bm25():
    return Bm25SparseEmbeddings()


def points(bm25, texts: list[str], namespace_of=lambda i: f"u{i % 3}", seed: int = 0) -> list[StoredPoint]:
    rng = np.random.default_rng(seed)
    out = []
    for i, (text, vector) in enumerate(zip(texts, bm25.embed_documents(texts))):
        out.append(StoredPoint(str(uuid.UUID(int=int(rng.integers(1 << 62)) + i)),
                               {"namespace": namespace_of(i), "status": "live", "content": text},
                               rng.normal(size=DIM).tolist(), (list(vector.indices), list(vector.values))))
    return out


def open_backend(path, *, old: bool = False, dim: int = DIM) -> EdgeBackend:
    """A backend at ``path``; ``old``: a store in the format made before client IDF (its meta
    file written first, without the field, as those stores have it: the engine's IDF)."""
    if old and not (path / META_FILE).exists():
        path.mkdir(parents=True, exist_ok=True)
        (path / META_FILE).write_text(json.dumps({"embedder": "test", "dim": dim}))
    backend = EdgeBackend(path)
    backend.setup(dim=dim, meta={"embedder": "test"})
    return backend


def engine_scores(backend: EdgeBackend, namespace: str, indices, values) -> dict[str, float]:
    """Every hit of the engine's own BM25 query (weighted by our IDF on a client-IDF store)."""
    query = SparseQuery(list(indices), list(values), Where(namespace=namespace, status=None), 10_000, payload=False)
    [hits] = backend._one_round([query])
    return {h.point.id: h.score for h in hits}


def live_counts(backend: EdgeBackend) -> tuple[int, Counter]:
    """N and df counted from scratch over the live points (another scroll than the backend's)."""
    n, df = 0, Counter()
    for p in backend.retrieve([p.id for p in backend.scroll(Where(status=None), limit=100_000)[0]], with_vectors=True):
        if p.sparse is not None and p.sparse[0]:
            n += 1
            df.update(set(p.sparse[0]))
    return n, df


def test_new_store_is_client_idf_and_reopens(tmp_path, bm25):
    backend = open_backend(tmp_path / "s")
    assert json.loads((tmp_path / "s" / META_FILE).read_text())[IDF_KEY] == CLIENT
    assert backend._counts is not None
    backend.upsert(points(bm25, sentences(30, 1)))
    before = engine_scores(backend, "u0", *_query(bm25, "apple and banana"))
    backend.close()
    again = open_backend(tmp_path / "s")
    assert again._counts is not None and not again._counts.known  # counted at first need
    assert engine_scores(again, "u0", *_query(bm25, "apple and banana")) == before
    again.close()


def test_old_store_keeps_the_engine_idf_and_its_meta_file(tmp_path, bm25):
    backend = open_backend(tmp_path / "s", old=True)
    meta = (tmp_path / "s" / META_FILE).read_bytes()
    assert backend._counts is None
    backend.upsert(points(bm25, sentences(20, 2)))
    backend.close()
    again = open_backend(tmp_path / "s")  # no flag now: its meta decides
    assert again._counts is None
    assert (tmp_path / "s" / META_FILE).read_bytes() == meta
    again.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                        max_size=3), max_leaves=5))
def test_a_garbled_idf_field_is_a_storage_error(tmp_path_factory, value):
    if value in (CLIENT, "engine") and type(value) is str:
        return
    path = tmp_path_factory.mktemp("garbled")
    (path / META_FILE).write_text(json.dumps({"embedder": "test", "dim": DIM, IDF_KEY: value}))
    before = (path / META_FILE).read_bytes()  # bytes: a NaN drawn is not equal to itself
    backend = EdgeBackend(path)
    with pytest.raises(StorageError, match=IDF_KEY):
        backend.setup(dim=DIM, meta={"embedder": "test"})
    assert backend._shard is None
    assert not (path / "shard").exists()  # nothing created
    assert (path / META_FILE).read_bytes() == before


def _query(bm25, text: str) -> tuple[list[int], list[float]]:
    q = bm25.embed_query(text)
    return list(q.indices), list(q.values)


def test_our_idf_is_the_engines_to_the_bit_on_inserted_data(tmp_path, bm25):
    """Every term alone: the same points and the same float32 scores as the engine's own
    IDF (so N, df and the IDF are the engine's). Several terms: the engine adds them in
    another order without its modifier (another search path), so a sum may be an ulp
    apart (measured: 2 of 20,905): the same points, within two ulps."""
    old, new = open_backend(tmp_path / "old", old=True), open_backend(tmp_path / "new")
    assert old._counts is None and new._counts is not None
    texts = sentences(600, 3)
    for start in range(0, len(texts), 97):  # several writes; the empty vectors among them
        batch = points(bm25, texts[start:start + 97], seed=start)
        old.upsert(batch)
        new.upsert(batch)
    single = 0
    for word in WORDS + ["like"]:
        indices, values = _query(bm25, word)
        for ns in ("u0", "u1", "u2"):
            a, b = engine_scores(old, ns, indices, values), engine_scores(new, ns, indices, values)
            assert a == b  # same points, same float32 bits
            single += len(a)
    assert single > 1_000
    equal = compared = 0
    for text in sentences(40, 4) + ["coffee in paris", "the sister and the job"]:
        indices, values = _query(bm25, text)
        for ns in ("u0", "u1", "u2"):
            a, b = engine_scores(old, ns, indices, values), engine_scores(new, ns, indices, values)
            assert a.keys() == b.keys()
            for k, score in a.items():
                assert abs(np.float32(score) - np.float32(b[k])) <= 2 * np.spacing(np.float32(score))
            equal += sum(a[k] == b[k] for k in a)
            compared += len(a)
    assert compared > 5_000 and equal >= 0.99 * compared
    n, df = live_counts(new)
    assert (new._counts.n, +new._counts.df) == (n, df)
    old.close()
    new.close()


def test_idf_is_the_engines_formula_in_float32():
    assert idf(1, 1) == np.float32(np.log(np.float64(np.float32(0.5) / np.float32(1.5) + np.float32(1))))
    assert idf(10, 0) > idf(10, 1) > idf(10, 9) > 0
    assert idf(0, 0).dtype == np.float32


ops = st.lists(st.one_of(
    st.tuples(st.just("upsert"), st.lists(st.tuples(st.integers(0, 11), st.integers(0, 40)), min_size=1, max_size=5)),
    st.tuples(st.just("delete"), st.lists(st.integers(0, 11), max_size=4)),
    st.tuples(st.just("delete_where"), st.integers(0, 2)),
    st.tuples(st.just("set_payload"), st.lists(st.integers(0, 11), min_size=1, max_size=4), st.integers(0, 2)),
    st.tuples(st.just("reopen")),
    st.tuples(st.just("fail")),
), max_size=12)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=ops)
def test_counts_equal_a_recount_after_any_writes(tmp_path_factory, bm25, steps):
    path = tmp_path_factory.mktemp("counts")
    texts = sentences(41, 5) + [""]
    vectors = bm25.embed_documents(texts)
    ids = [str(uuid.UUID(int=k + 1)) for k in range(12)]
    backend = open_backend(path)
    backend._counts.weights([1], [1.0])  # counted now: every write below keeps the counts
    for step in steps:
        if step[0] == "upsert":
            batch = []
            for k, t in step[1]:
                sparse = None if t == 40 else (list(vectors[t].indices), list(vectors[t].values))
                batch.append(StoredPoint(ids[k], {"namespace": f"u{k % 3}", "status": "live"}, [1.0] * DIM, sparse))
            backend.upsert(batch)
        elif step[0] == "delete":
            backend.delete([ids[k] for k in step[1]])
        elif step[0] == "delete_where":
            backend.delete_where(Where(namespace=f"u{step[1]}", status=None))
        elif step[0] == "set_payload":
            present = [p.id for p in backend.retrieve([ids[k] for k in step[1]])]  # (an absent id fails)
            backend.set_payload(present, {"namespace": f"u{step[2]}"})
        elif step[0] == "reopen":
            backend.close()
            backend = open_backend(path)
            backend._counts.weights([1], [1.0])
        else:  # a write the engine refuses (a vector of another size): the counts are not kept wrong
            with pytest.raises(Exception):
                backend.upsert([StoredPoint(ids[0], {"namespace": "u0"}, [1.0] * (DIM + 1), ([3], [1.0]))])
            assert not backend._counts.known
            backend._counts.weights([1], [1.0])
        assert backend._counts.known
        n, df = live_counts(backend)
        assert (backend._counts.n, +backend._counts.df) == (n, df)
    backend.close()


def test_counts_stay_right_under_threads(tmp_path, bm25):
    """Writers on overlapping ids and readers of the counts at once: every reader sees a
    whole state (no term held by more points than N), and the counts end as a recount."""
    import threading

    texts = sentences(40, 6)
    vectors = bm25.embed_documents(texts)
    ids = [str(uuid.UUID(int=k + 1)) for k in range(16)]
    backend = open_backend(tmp_path / "s")
    backend._counts.weights([1], [1.0])
    seen_bad: list[tuple[int, int]] = []

    def write(seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(60):
            k, t = int(rng.integers(16)), int(rng.integers(40))
            if rng.random() < 0.7:
                backend.upsert([StoredPoint(ids[k], {"namespace": f"u{k % 2}", "status": "live"}, [1.0] * DIM,
                                            (list(vectors[t].indices), list(vectors[t].values)))])
            elif rng.random() < 0.8:
                backend.delete([ids[k]])
            else:
                backend.delete_where(Where(namespace=f"u{k % 2}", status=None, ids=(ids[k],)))

    def read() -> None:
        for _ in range(200):
            assert all(w > 0 for w in backend._counts.weights([3, 5], [1.0, 1.0]))
            with backend._counts.lock:
                if backend._counts.df and max(backend._counts.df.values()) > backend._counts.n:
                    seen_bad.append((backend._counts.n, max(backend._counts.df.values())))

    threads = [threading.Thread(target=write, args=(s,)) for s in range(2)] + [threading.Thread(target=read)
                                                                               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not seen_bad
    n, df = live_counts(backend)
    assert (backend._counts.n, +backend._counts.df) == (n, df)
    backend.close()


@pytest.mark.parametrize("value", [None, 1, "Client", "", ["client"], {"client": True}])
def test_a_store_with_a_garbled_idf_field_does_not_open(tmp_path, fake_embeddings, value):
    from langgraph_memory import MemoryStore

    with MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings) as store:
        store.remember("Alice drinks tea", namespace=("u",), dedup=False)
    meta = json.loads((tmp_path / "s" / META_FILE).read_text())
    assert meta[IDF_KEY] == CLIENT
    meta[IDF_KEY] = value
    (tmp_path / "s" / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(StorageError, match=IDF_KEY):
        MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings)
    assert json.loads((tmp_path / "s" / META_FILE).read_text())[IDF_KEY] == value  # left as it was
    meta[IDF_KEY] = CLIENT
    (tmp_path / "s" / META_FILE).write_text(json.dumps(meta))
    with MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings) as store:
        assert [h.memory.content for h in store.search("tea", namespace=("u",), mode="bm25")] == ["Alice drinks tea"]


@pytest.mark.parametrize("made_old, says", [(False, None), (False, "engine"), (True, CLIENT)])
def test_a_meta_file_that_does_not_match_its_shard_is_a_storage_error(tmp_path, fake_embeddings, made_old, says):
    """A meta file copied between stores (or edited) says one IDF mode and the shard was
    made with the other: the engine refuses to load it; the user gets our typed error
    naming the field, not the engine's bare ``Exception``, and nothing is changed."""
    from langgraph_memory import MemoryStore

    path = tmp_path / "s"
    if made_old:
        path.mkdir()
        (path / META_FILE).write_text(json.dumps({"embedder": "DeterministicFakeEmbedding", "dim": 128}))
    with MemoryStore.open(path, embeddings=fake_embeddings) as store:
        store.remember("Alice drinks tea", namespace=("u",), dedup=False)
    meta = json.loads((path / META_FILE).read_text())
    if says is None:
        meta.pop(IDF_KEY, None)
    else:
        meta[IDF_KEY] = says
    (path / META_FILE).write_text(json.dumps(meta))
    with pytest.raises(StorageError, match=IDF_KEY):
        MemoryStore.open(path, embeddings=fake_embeddings)
    assert json.loads((path / META_FILE).read_text()) == meta  # left as it was
