"""What the sparse-check review found still getting past the checks of custom vectors
(``store/_sparse_checks.py``, ``QueryVectors.checked``, ``CheckedSparseEmbeddings``):

- a list whose ``__len__`` is not what iterating it gives: a dense query vector of the
  wrong size reached the engines (their bare errors), and an encoder's short answer made
  ``remember_many`` store fewer memories than it was given, silently;
- numbers whose ``__int__``/``__float__`` raise, and a tuple subclass whose iteration
  lies: their own exceptions, not ours;
- a hand-built query text with a lone surrogate: a bare ``UnicodeEncodeError`` once a
  hybrid search embedded it again for a subject's aliases;
- a dense query vector as a numpy array, or of numpy floats: searched on ``f7bbf71``,
  refused by the check although its sparse side takes numpy;
- a sequence that claims a length and never ends: read to its end (all memory);
- ``embed_query``'s dense half, marked checked without being checked (a custom
  embedder's NaN was searched by Qdrant Edge).

Any of them now works or is our ``InvalidMemoryError``, and a refused write stores nothing."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langchain_qdrant.sparse_embeddings import SparseEmbeddings, SparseVector
from qdrant_client import QdrantClient

from langgraph_memory import MemoryStore, QueryVectors
from langgraph_memory.agent.turn import TurnScopes, select_turn
from langgraph_memory.errors import InvalidMemoryError

NS = ("u", "hostile")


class LyingList(list):
    """A list whose ``__len__`` says ``claimed`` whatever it holds."""

    def __init__(self, items: Any, claimed: int) -> None:
        super().__init__(items)
        self.claimed = claimed

    def __len__(self) -> int:
        return self.claimed


class LyingPair(tuple):
    """``(indices, values)`` whose iteration gives a third item."""

    def __iter__(self) -> Any:
        return iter([*tuple.__getitem__(self, slice(None)), [3]])


class RaisingFloat(float):
    def __float__(self) -> float:
        raise RuntimeError("a hostile __float__")


class RaisingInt(int):
    def __int__(self) -> int:
        raise RuntimeError("a hostile __int__")

    __index__ = __int__


class Encoder(SparseEmbeddings):
    """Valid vectors, unless told to answer ``bad`` for a text holding "zz", or a list of
    vectors one short that says it is whole."""

    def __init__(self) -> None:
        self.bad: Any = None
        self.short = False

    def embed_documents(self, texts: list[str]) -> list[Any]:
        found = [self.bad if self.bad is not None and "zz" in t else SparseVector(indices=[1], values=[1.0])
                 for t in texts]
        return LyingList(found[:-1], len(texts)) if self.short else found

    def embed_query(self, text: str) -> SparseVector:
        return SparseVector(indices=[1], values=[1.0])


@pytest.fixture(scope="module")
def stores(tmp_path_factory, fake_embeddings):
    encoders = {"edge": Encoder(), "qdrant": Encoder()}
    made = {
        "edge": MemoryStore.open(tmp_path_factory.mktemp("hostile") / "s", embeddings=fake_embeddings,
                                 sparse_embeddings=encoders["edge"]),
        "qdrant": MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings,
                              sparse_embeddings=encoders["qdrant"]),
    }
    yield {name: (store, encoders[name]) for name, store in made.items()}
    for store in made.values():
        store.close()


@pytest.fixture(scope="module")
def plain(tmp_path_factory, fake_embeddings):
    """Stores on the package's own BM25 encoder, whose Rust tokenizer refuses a lone surrogate."""
    made = {
        "edge": MemoryStore.open(tmp_path_factory.mktemp("plain") / "s", embeddings=fake_embeddings),
        "qdrant": MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings),
    }
    for store in made.values():
        # A subject with an alias: a hybrid search for "bob" embeds its text again with "robert".
        store.remember("Bob likes green tea", namespace=NS, subjects=["bob"], dedup=False)
        store.remember("The user is Bob, also called Robert", namespace=NS, memory_type="identity",
                       subjects=["bob", "robert"], dedup=False)
    yield made
    for store in made.values():
        store.close()


def _count(store: MemoryStore) -> int:
    return store.count(namespace=("u",))


@pytest.mark.parametrize("backend", ["edge", "qdrant"])
def test_an_encoder_answering_a_list_that_lies_about_its_length_stores_nothing(stores, backend):
    """On 750ee25 ``remember_many`` of three texts stored two and returned; ``remember``
    raised a bare ``ValueError``."""
    store, encoder = stores[backend]
    before = _count(store)
    encoder.short = True
    try:
        with pytest.raises(InvalidMemoryError, match="sparse_embeddings"):
            store.remember_many(["tea one", "tea two", "tea three"], namespace=("u", "many"), dedup=False)
        with pytest.raises(InvalidMemoryError, match="sparse_embeddings"):
            store.remember("tea four", namespace=("u", "one"), dedup=False)
    finally:
        encoder.short = False
    assert _count(store) == before


@pytest.mark.parametrize("bad", [
    SparseVector.model_construct(indices=[1], values=[RaisingFloat(0.5)]),
    SparseVector.model_construct(indices=[RaisingInt(1)], values=[0.5]),
], ids=["value", "index"])
@pytest.mark.parametrize("backend", ["edge", "qdrant"])
def test_a_number_whose_conversion_raises_is_refused_and_stores_nothing(stores, backend, bad):
    store, encoder = stores[backend]
    before = _count(store)
    encoder.bad = bad
    try:
        with pytest.raises(InvalidMemoryError, match="sparse_embeddings"):
            store.remember("zz tea", namespace=("u", "num"), dedup=False)
    finally:
        encoder.bad = None
    assert _count(store) == before


def _search(store: MemoryStore, query: Any) -> list[tuple[str, float]]:
    return [(h.memory.id, round(h.score, 6)) for h in store.search(query, namespace=NS, mode="hybrid")]


@pytest.mark.parametrize("backend", ["edge", "qdrant"])
def test_a_dense_query_vector_of_numpy_floats_searches_as_a_list_does(plain, backend):
    """As on f7bbf71, and as the sparse side of the same ``QueryVectors`` takes numpy."""
    store = plain[backend]
    mine = store.embed_query("bob tea")
    plain = QueryVectors("bob tea", list(mine.dense), mine.sparse)
    expected = _search(store, plain)
    assert expected
    for dense in (np.array(mine.dense), np.array(mine.dense, dtype=np.float32).astype(np.float64),
                  [np.float64(x) for x in mine.dense]):
        assert _search(store, QueryVectors("bob tea", dense, mine.sparse)) == expected
    as32 = [np.float32(x) for x in mine.dense]
    assert _search(store, QueryVectors("bob tea", as32, mine.sparse)) == _search(
        store, QueryVectors("bob tea", [float(x) for x in as32], mine.sparse))


texts = st.sampled_from(["bob tea", "bob \ud800 tea", "bob\x00 tea", "", "bob " * 2_500, 3, None])
numbers_ = st.one_of(st.floats(-1, 1), st.floats(), st.integers(-2, 2), st.booleans(), st.none(), st.text(max_size=1),
                     st.just(np.float32(0.5)), st.just(np.float64(0.25)), st.just(RaisingFloat(0.5)))


DIM = 128  # conftest's fake embedder
UNIT = [1.0] + [0.0] * (DIM - 1)


def _dense(dim: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(numbers_, min_size=dim, max_size=dim),
        st.lists(st.floats(-1, 1), min_size=dim, max_size=dim).map(np.array),
        st.builds(LyingList, st.lists(st.floats(-1, 1), min_size=1, max_size=3),
                  st.sampled_from([dim - 1, dim, dim + 1])),
        st.builds(lambda items, k: LyingList(items + [0.5] * k, dim),
                  st.lists(st.floats(-1, 1), min_size=dim, max_size=dim), st.integers(1, 3)),
        st.sampled_from([None, "dense", {1: 2.0}]),
    )


pairs = st.one_of(
    st.just(([1], [1.0])),
    st.builds(lambda i, v: (i, v), st.lists(st.integers(0, 3), max_size=3), st.lists(numbers_, max_size=3)),
    st.just(LyingPair(([1], [1.0]))),
    st.just([[1], [1.0]]),
    st.just((np.array([1, 2]), np.array([0.5, 1.5], dtype=np.float32))),
    st.just((LyingList([1], 2), LyingList([1.0], 2))),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(backend=st.sampled_from(["edge", "qdrant"]), text=texts, dense=_dense(DIM), sparse=pairs,
       entry=st.sampled_from(["search", "select_turn"]))
@example(backend="edge", text="bob tea", dense=LyingList([0.5], DIM), sparse=([1], [1.0]), entry="search")
@example(backend="qdrant", text="bob tea", dense=LyingList(UNIT + [0.5], DIM), sparse=([1], [1.0]), entry="search")
@example(backend="edge", text="bob tea", dense=UNIT, sparse=LyingPair(([1], [1.0])), entry="search")
@example(backend="edge", text="bob \ud800 tea", dense=UNIT, sparse=([1], [1.0]), entry="search")
@example(backend="qdrant", text="bob \ud800 tea", dense=UNIT, sparse=([1], [1.0]), entry="select_turn")
def test_any_hand_built_query_vectors_work_or_are_refused_as_a_query(plain, backend, text, dense, sparse, entry):
    """On 750ee25: bare engine errors (a dense list whose length lies), a bare
    ``TypeError`` (a tuple subclass's iteration), a bare ``UnicodeEncodeError`` (a lone
    surrogate, embedded again for the alias "robert")."""
    store = plain[backend]
    assert store.dim == DIM
    query = QueryVectors(text, dense, sparse)
    try:
        if entry == "search":
            store.search(query, namespace=NS, mode="hybrid")
        else:
            select_turn(store, scopes=TurnScopes(user=NS, agent=NS), query=query)
    except InvalidMemoryError as exc:
        assert exc.field == "query"
    else:
        dense = list(query.dense)
        assert len(dense) == store.dim and all(
            isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x) for x in dense)
        assert isinstance(text, str) and "\ud800" not in text


class QueryEmbedder:
    """The fake embedder's documents; for queries, ``bad`` when it is set."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.bad = inner, None

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> Any:
        return self.inner.embed_query(text) if self.bad is None else self.bad


@pytest.mark.parametrize("bad", ["nan", "inf", "short", "long"])
@pytest.mark.parametrize("backend", ["edge", "qdrant"])
def test_a_dense_embedder_s_bad_query_vector_is_refused_before_it_is_marked_checked(
    tmp_path, fake_embeddings, backend, bad
):
    """``embed_query`` marks its vectors as checked (``_marked_for``) and no entry point looks
    at them again, but on 750ee25 it did not check its dense half: Qdrant Edge searched a
    NaN vector (answering hits) and raised a bare ``Exception`` on a wrong size; qdrant-client
    raised bare ``ValueError``s."""
    embedder = QueryEmbedder(fake_embeddings)
    store = (MemoryStore.open(tmp_path / "s", embeddings=embedder) if backend == "edge"
             else MemoryStore(client=QdrantClient(":memory:"), embeddings=embedder))
    with store:
        store.remember("Bob likes green tea", namespace=NS, dedup=False)
        embedder.bad = {"nan": [math.nan] * DIM, "inf": [math.inf] + [0.0] * (DIM - 1), "short": [1.0] * (DIM - 1),
                        "long": [1.0] * (DIM + 1)}[bad]
        for call in (lambda: store.embed_query("tea"), lambda: store.search("tea", namespace=NS),
                     lambda: select_turn(store, scopes=TurnScopes(user=NS, agent=NS), query="tea")):
            with pytest.raises(InvalidMemoryError, match="embeddings"):
                call()
        embedder.bad = None
        assert store.search("green tea", namespace=NS)


class Endless(list):
    """Claims ``claimed`` items and yields without end, counting what was read."""

    def __init__(self, claimed: int, item: Any) -> None:
        super().__init__()
        self.claimed, self.item, self.read = claimed, item, 0

    def __len__(self) -> int:
        return self.claimed

    def __iter__(self) -> Any:
        while self.read < 10 * (self.claimed + 10):  # the test's own bound, far past the check's
            self.read += 1
            yield self.item


@pytest.mark.parametrize("backend", ["edge", "qdrant"])
def test_a_sequence_that_never_ends_is_read_no_further_than_its_length(stores, plain, backend):
    """The check reads a sequence "only once its length is known to be in bounds"; on
    750ee25 it read it to its end, which for one that never ends is all memory."""
    store, encoder = stores[backend]
    before = _count(store)
    bad = Endless(2, 1), Endless(2, 0.5)
    encoder.bad = SparseVector.model_construct(indices=bad[0], values=bad[1])
    try:
        with pytest.raises(InvalidMemoryError, match="sparse_embeddings"):
            store.remember("zz tea", namespace=("u", "endless"), dedup=False)
    finally:
        encoder.bad = None
    assert _count(store) == before
    assert bad[0].read <= 3
    answers = Endless(1, SparseVector(indices=[1], values=[1.0]))
    encoder.embed_documents = lambda texts: answers  # type: ignore[method-assign]
    try:
        with pytest.raises(InvalidMemoryError, match="sparse_embeddings"):
            store.remember("tea", namespace=("u", "endless"), dedup=False)
    finally:
        del encoder.embed_documents
    assert _count(store) == before
    assert answers.read <= 2
    dense = Endless(DIM, 0.5)
    with pytest.raises(InvalidMemoryError, match="query"):
        plain[backend].search(QueryVectors("tea", dense, ([1], [1.0])), namespace=NS)
    assert dense.read <= DIM + 1
