"""MemoryStore acceptance tests, run on Qdrant Edge and on qdrant-client's local mode."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from qdrant_client import QdrantClient

from langgraph_memory import InvalidMemoryError, MemoryStore, SchemaMismatchError, StoreLockedError
from langgraph_memory.errors import EmbedderMismatchError
from langgraph_memory.store.records import MAX_CONTENT_CHARS

pytestmark = pytest.mark.integration

A = ("memories", "alice")
B = ("memories", "bob")


def ids(items) -> list[str]:
    """Ids of memories or search hits, in order."""
    return [getattr(x, "memory", x).id for x in items]


# -- dedup on remember ------------------------------------------------------------------


def test_refinement_supersedes_and_keeps_history(store):
    first = store.remember("Mickael s'est cassé l'épaule", namespace=A)
    dated = store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=A)
    assert (first.action, dated.action) == ("inserted", "updated")
    assert dated.verdict is not None and dated.verdict.decision == "refinement"
    assert dated.replaced.id == first.memory.id
    live = list(store.iter_points(namespace=A, include_superseded=False))
    assert [p.payload["content"] for p in live] == ["Mickael s'est cassé l'épaule le 10 janvier 2026"]
    assert store.count(namespace=A) == 1 and store.count(namespace=A, include_superseded=True) == 2
    assert store.get(first.memory.id, namespace=A) is None
    old, new = store.history(dated.memory.id, namespace=A)
    assert (old.id, new.id) == (first.memory.id, dated.memory.id)
    assert (old.status, old.superseded_by) == ("superseded", new.id)
    assert new.supersedes == (old.id,)
    # The fact was learned with the first statement: both versions keep that date.
    assert old.created_at == first.memory.created_at == new.created_at
    assert new.updated_at > old.updated_at
    assert ids(store.history(first.memory.id, namespace=A)) == [old.id, new.id]
    assert ids(store.search("épaule cassée", namespace=A)) == [new.id]


def test_different_facts_about_one_person_are_both_kept(store):
    paris = store.remember("Mickael habite à Paris", namespace=A)
    son = store.remember("Mickael a un fils", namespace=A)
    assert (paris.action, son.action) == ("inserted", "inserted")
    assert store.count(namespace=A) == 2
    assert {m.content for m in store.recent(namespace=A)} == {"Mickael habite à Paris", "Mickael a un fils"}


def test_exact_repeat_is_a_duplicate(store):
    first = store.remember("Alice is allergic to peanuts", namespace=A, metadata={"provenance": ["m1"]})
    again = store.remember("Alice is allergic to peanuts", namespace=A, metadata={"provenance": ["m2"]})
    assert again.action == "duplicate" and again.memory.id == first.memory.id
    assert store.count(namespace=A, include_superseded=True) == 1
    # Provenance of both sightings is kept on the one memory.
    assert store.get(first.memory.id, namespace=A).metadata == {"provenance": ["m1", "m2"]}


def test_dedup_false_inserts_a_repeat(store):
    first = store.remember("Alice is allergic to peanuts", namespace=A)
    again = store.remember("Alice is allergic to peanuts", namespace=A, dedup=False)
    assert again.action == "inserted" and again.memory.id != first.memory.id
    assert store.count(namespace=A) == 2


def test_remember_many_with_and_without_dedup(store):
    facts = ["Alice plays the cello", "Alice plays the cello", "Alice has a cat named Miso"]
    done: list[tuple[int, int]] = []
    results = store.remember_many(facts, namespace=A, dedup=True, progress=lambda d, t: done.append((d, t)))
    assert [r.action for r in results] == ["inserted", "duplicate", "inserted"]
    assert done[-1] == (3, 3)
    bulk = store.remember_many([{"content": "Bob sails", "memory_type": "event"}, "Bob cooks"], namespace=B, dedup=False)
    assert [r.memory.memory_type for r in bulk] == ["event", "fact"]
    assert store.count(namespace=A) == 2 and store.count(namespace=B) == 2


# -- reading ----------------------------------------------------------------------------


@pytest.fixture
def seeded(store):
    """One namespace with memories of every kind, one of them learned a month ago."""
    rem = lambda text, **kw: store.remember(text, namespace=A, dedup=False, **kw).memory  # noqa: E731
    month_ago = datetime.now(timezone.utc) - timedelta(days=30)
    return store, {
        "violin": rem("Alice plays the violin every Sunday", subjects=["Alice", "Music"]),
        "remind": rem("I can set reminders for Alice", kind="self", category="capability"),
        "teacher": rem("Find out who taught Alice the violin", kind="goal", category="understanding"),
        "tea": rem("Alice prefers oolong tea over coffee", memory_type="preference", subjects=["alice", "tea"]),
        "marathon": rem("Alice ran the Lyon marathon", memory_type="event", created_at=month_ago),
        "name": rem("Alice's full name is Alice Martin", memory_type="identity"),
        "robot": rem("I am Eko, Alice's companion robot", kind="self", category="context"),
    }


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"kinds": "self"}, {"remind", "robot"}),
        ({"kinds": ["self", "goal"]}, {"remind", "robot", "teacher"}),
        ({"memory_types": "preference"}, {"tea"}),
        ({"memory_types": ["identity", "event"]}, {"name", "marathon"}),
        ({"categories": "capability"}, {"remind"}),
        ({"subjects": "tea"}, {"tea"}),
        ({"subjects": ["TEA", " music "]}, {"tea", "violin"}),
        ({"since": "7d"}, {"violin", "remind", "teacher", "tea", "name", "robot"}),
        ({"until": datetime.now(timezone.utc) - timedelta(days=7)}, {"marathon"}),
        ({"min_importance": 0.8}, {"teacher", "name"}),
        ({"kinds": "fact", "memory_types": "fact"}, {"violin"}),
    ],
)
def test_search_filters(seeded, mode, filters, expected):
    store, m = seeded
    hits = store.search("Alice", namespace=A, limit=20, mode=mode, **filters)
    assert set(ids(hits)) == {m[k].id for k in expected}


@pytest.mark.parametrize(
    ("mode", "query", "expected"),
    [
        ("bm25", "oolong", "tea"),
        ("bm25", "marathon in Lyon", "marathon"),
        ("dense", "What hot drink does she like?", "tea"),
        ("dense", "she makes music on weekends", "violin"),
        ("dense", "long distance running race", "marathon"),
        ("hybrid", "oolong tea", "tea"),
        ("hybrid", "who is the robot", "robot"),
    ],
)
def test_each_mode_finds_the_obvious_match(seeded, mode, query, expected):
    store, m = seeded
    hits = store.search(query, namespace=A, mode=mode, limit=3)
    assert hits[0].memory.id == m[expected].id
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_hit_scores_and_vectors(seeded):
    store, m = seeded
    query = store.embed_query("Alice prefers oolong tea over coffee")
    top = store.search(query, namespace=A, limit=2, with_vectors=True)[0]
    # Ranked first by both signals: the fused score is exactly 1.
    assert top.memory.id == m["tea"].id and top.score == pytest.approx(1.0)
    assert top.dense_score == pytest.approx(1.0, abs=1e-3) and top.sparse_score > 0
    [(_, stored)] = store.get_many([m["tea"].id], namespace=A, with_vectors=True)
    assert top.vector == pytest.approx(stored, abs=1e-6) and len(stored) == store.dim
    assert ids(store.search(query, namespace=A, limit=3)) == ids(store.search(query.text, namespace=A, limit=3))
    dense = store.search(query, namespace=A, mode="dense", min_score=0.5)
    assert ids(dense) == [m["tea"].id] and dense[0].sparse_score is None


def test_recent_identity_important(seeded):
    store, m = seeded
    recent = store.recent(namespace=A, since="1h")
    assert set(ids(recent)) == {m[k].id for k in ("violin", "remind", "teacher", "tea", "name", "robot")}
    assert [x.updated_at for x in recent] == sorted((x.updated_at for x in recent), reverse=True)
    assert ids(store.recent(namespace=A, since="60d", limit=20))[-1] == m["marathon"].id
    assert ids(store.recent(namespace=A, since="1h", kinds="goal")) == [m["teacher"].id]
    assert ids(store.identity(namespace=A)) == [m["name"].id, m["robot"].id]
    assert ids(store.important(namespace=A)) == [m["name"].id, m["teacher"].id]
    assert ids(store.important(namespace=A, min_importance=0.7)) == [m["name"].id, m["teacher"].id, m["tea"].id]


def test_record_access_counts(seeded):
    store, m = seeded
    store.record_access([m["tea"].id, m["name"].id], namespace=A)
    store.record_access([m["tea"].id], namespace=A, injected=True)
    tea = store.get(m["tea"].id, namespace=A)
    assert (tea.access_count, tea.injection_count) == (2, 1) and tea.last_accessed_at is not None
    assert store.get(m["name"].id, namespace=A).access_count == 1
    assert store.get(m["violin"].id, namespace=A).access_count == 0


# -- forgetting -------------------------------------------------------------------------


def test_hard_delete_removes_the_memory_and_its_versions(store):
    old = store.remember("Mickael s'est cassé l'épaule", namespace=A).memory
    new = store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=A).memory
    other = store.remember("Alice sings in a choir", namespace=A).memory
    assert store.delete(old.id, namespace=A) is None  # superseded: not a live memory
    deleted = store.delete(new.id, namespace=A, reason="user asked to forget it", hard=True)
    assert deleted is not None and deleted.id == new.id
    assert store.get(new.id, namespace=A) is None and store.history(old.id, namespace=A) == []
    assert store.count(namespace=A, include_superseded=True) == 1
    assert store.get(other.id, namespace=A) is not None
    assert store.delete("00000000-0000-4000-8000-000000000000", namespace=A) is None
    with pytest.raises(InvalidMemoryError):
        store.delete("not-an-id", namespace=A)
    assert store.count(namespace=A, include_superseded=True) == 1


def test_expired_memories_are_never_returned(store):
    keep = store.remember("Alice's full name is Alice Martin", namespace=A, memory_type="identity").memory
    gone = store.remember("Alice is staying at the Hotel Roma", namespace=A, memory_type="identity", ttl="1s").memory
    goal = store.remember("Find a gift for Alice before Friday", namespace=A, kind="goal", ttl="1s").memory
    bob = store.remember("Bob is staying at the Hotel Roma", namespace=B, memory_type="identity", ttl="1s").memory
    # Wait out the TTL: expires_at is set from the clock at write time, so no time travel.
    last = max(gone.expires_at, goal.expires_at, bob.expires_at)
    time.sleep(max(0.0, (last - datetime.now(timezone.utc)).total_seconds()) + 0.1)

    def assert_hidden(*, recent: list[str], important: list[str]) -> None:
        for x in (gone, goal):
            assert store.get(x.id, namespace=A) is None
        assert store.get_many([gone.id, goal.id, keep.id], namespace=A) == [
            (store.get(keep.id, namespace=A), None)
        ]
        for mode in ("hybrid", "dense", "bm25"):
            for query in ("staying at the Hotel Roma", "gift for Alice", "Alice full name"):
                found = ids(store.search(query, namespace=A, mode=mode, limit=20))
                assert gone.id not in found and goal.id not in found
        assert ids(store.recent(namespace=A, since="1h")) == recent
        assert ids(store.identity(namespace=A)) == [keep.id]
        assert ids(store.important(namespace=A)) == important
        assert store.count(namespace=A) == len(recent)

    assert store.count(namespace=A, include_superseded=True) == 3  # stored, merely hidden
    assert_hidden(recent=[keep.id], important=[keep.id])
    # An expired memory is no dedup candidate: the fact is learned anew.
    again = store.remember("Find a gift for Alice before Friday", namespace=A, kind="goal", ttl="1h")
    assert again.action == "inserted"
    live = {"recent": [again.memory.id, keep.id], "important": [keep.id, again.memory.id]}
    assert_hidden(**live)
    assert store.purge_expired(namespace=A) == 2
    assert_hidden(**live)
    assert store.count(namespace=A, include_superseded=True) == 2
    assert store.count(namespace=B, include_superseded=True) == 1  # purge stayed in A
    assert store.history(gone.id, namespace=A) == []
    assert store.purge_expired() == 1 and store.count(include_superseded=True) == 2


# -- namespace isolation ----------------------------------------------------------------


def test_namespace_isolation(store):
    mine = store.remember("Alice plays chess on Tuesdays", namespace=A).memory
    theirs = store.remember("Bob has a cat named Miso", namespace=B, memory_type="identity").memory
    before = store.get(theirs.id, namespace=B)
    assert store.get(theirs.id, namespace=A) is None
    assert store.get_many([theirs.id, mine.id], namespace=A) == [(mine, None)]
    assert store.history(theirs.id, namespace=A) == []
    assert store.delete(theirs.id, namespace=A, reason="attack") is None
    store.record_access([theirs.id], namespace=A, injected=True)
    for mode in ("hybrid", "dense", "bm25"):
        # The query matches B's memory word for word, and A's only through "chess".
        assert ids(store.search("Bob has a cat named Miso, chess", namespace=A, mode=mode)) == [mine.id]
    assert ids(store.recent(namespace=A)) == [mine.id]
    assert store.identity(namespace=A) == [] and store.important(namespace=A, min_importance=0.0) == [mine]
    # The same fact in A is a new memory, not a duplicate or refinement of B's.
    assert store.remember("Bob has a cat named Miso", namespace=A).action == "inserted"
    assert store.erase(A) == 2
    assert store.get(theirs.id, namespace=B) == before  # untouched: no access counted, not deleted
    assert store.count(namespace=B, include_superseded=True) == 1


def test_erase_covers_child_namespaces_only(store):
    child = ("memories", "alice", "agent-1")
    sibling = ("memories", "alice2")
    for ns in (A, child, sibling):
        store.remember("Alice likes hiking in the Alps", namespace=ns)
    assert store.count(namespace=A) == 2  # A and its child
    assert store.erase(A) == 2
    assert store.count(namespace=A, include_superseded=True) == 0
    assert store.count(namespace=child, include_superseded=True) == 0
    assert store.count(namespace=sibling) == 1


# -- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"content": ""},
        {"content": "   \n "},
        {"content": "x" * (MAX_CONTENT_CHARS + 1)},
        {"memory_type": "memo"},
        {"kind": "thought"},
        {"kind": "self", "category": "mood"},
        {"category": "context"},
        {"ttl": "7x"},
        {"ttl": "-1d"},
        {"ttl": "0d"},
        {"ttl": 7},
        {"importance": 1.01},
        {"importance": -0.5},
        {"namespace": ["memories", "alice"]},
        {"namespace": ()},
        {"namespace": ("memories", "")},
        {"namespace": ("memories", 7)},
        {"subjects": "alice"},
    ],
)
def test_bad_input_raises_and_stores_nothing(store, kwargs):
    store.remember("Alice already has one memory", namespace=A)
    args = {"content": "Alice likes tea", "namespace": A, **kwargs}
    content = args.pop("content")
    with pytest.raises(InvalidMemoryError):
        store.remember(content, **args)
    with pytest.raises(InvalidMemoryError):  # one bad item spoils the whole batch
        store.remember_many(["Alice likes jazz", {"content": content, **kwargs}], namespace=A)
    assert store.count(include_superseded=True) == 1


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.search("tea", namespace=A, mode="fuzzy"),
        lambda s: s.search("tea", namespace=A, limit=0),
        lambda s: s.search("tea", namespace=A, kinds="thought"),
        lambda s: s.search("tea", namespace=A, memory_types="memo"),
        lambda s: s.search("tea", namespace=A, categories="mood"),
        lambda s: s.search("   ", namespace=A),
        lambda s: s.search("tea", namespace=["memories", "alice"]),
        lambda s: s.recent(namespace=A, since="soon"),
        lambda s: s.get("not-an-id", namespace=A),
        lambda s: s.erase(()),
        lambda s: s.delete("00000000-0000-4000-8000-000000000000", namespace=A, reason=3),
    ],
)
def test_bad_queries_raise_typed_errors(store, call):
    with pytest.raises(InvalidMemoryError):
        call(store)


def test_store_open_twice_is_locked(embeddings, tmp_path):
    with MemoryStore.open(tmp_path / "s", embeddings=embeddings) as store:
        store.remember("Alice likes tea", namespace=A)
        with pytest.raises(StoreLockedError):
            MemoryStore.open(tmp_path / "s", embeddings=embeddings)
        assert store.count(include_superseded=True) == 1
    with MemoryStore.open(tmp_path / "s", embeddings=embeddings) as again:  # lock released on close
        assert again.count() == 1


def test_other_embedder_size_is_a_schema_mismatch(embeddings, tmp_path):
    with MemoryStore.open(tmp_path / "s", embeddings=embeddings) as store:
        store.remember("Alice likes tea", namespace=A)
    with pytest.raises(SchemaMismatchError):
        MemoryStore.open(tmp_path / "s", embeddings=DeterministicFakeEmbedding(size=8))
    client = QdrantClient(":memory:")
    MemoryStore(client=client, embeddings=embeddings).remember("Alice likes tea", namespace=A)
    with pytest.raises(SchemaMismatchError):
        MemoryStore(client=client, embeddings=DeterministicFakeEmbedding(size=8))
    with MemoryStore.open(tmp_path / "s", embeddings=embeddings) as store:
        assert store.count() == 1


# -- persistence ------------------------------------------------------------------------


def _snapshot(store: MemoryStore) -> dict[str, tuple]:
    return {p.id: (p.payload, p.dense, p.sparse) for p in store.iter_points(with_vectors=True, batch=3)}


@pytest.mark.parametrize("engine", ["edge", "qdrant-path"])
def test_close_and_reopen_restores_everything(engine, embeddings, tmp_path):
    def open_store() -> MemoryStore:
        if engine == "edge":
            return MemoryStore.open(tmp_path / "edge", embeddings=embeddings)
        return MemoryStore(client=QdrantClient(path=str(tmp_path / "local")), embeddings=embeddings)

    store = open_store()
    store.remember("Mickael s'est cassé l'épaule", namespace=A, subjects=["Mickael"])
    store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=A, metadata={"msg": [1, 2]})
    store.remember("I can set reminders", namespace=A, kind="self", category="capability", ttl="2w")
    store.remember_many([f"Bob visited museum number {i}" for i in range(7)], namespace=B, dedup=False)
    before = _snapshot(store)
    top = ids(store.search("épaule", namespace=A))
    store.close()

    store = open_store()
    try:
        after = _snapshot(store)
        assert len(before) == 10 and after.keys() == before.keys()
        for pid, (payload, dense, sparse) in before.items():
            assert after[pid][0] == payload
            assert after[pid][1] == pytest.approx(dense, abs=1e-7) and len(dense) == store.dim
            assert after[pid][2] == sparse
        assert ids(store.search("épaule", namespace=A)) == top
        assert store.remember("Bob visited museum number 3", namespace=B).action == "duplicate"
    finally:
        store.close()


# -- async ------------------------------------------------------------------------------


async def test_async_twins(make_store):
    store = make_store()
    first = await store.aremember("Mickael s'est cassé l'épaule", namespace=A)
    dated = await store.aremember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=A)
    assert dated.action == "updated"
    await store.aremember_many(["Alice's name is Alice Martin"], namespace=A, memory_type="identity")
    query = await store.aembed_query("Mickael épaule cassée")
    assert (await store.asearch(query, namespace=A, mode="dense"))[0].memory.id == dated.memory.id
    assert len(await store.arecent(namespace=A)) == 2
    assert [m.memory_type for m in await store.aidentity(namespace=A)] == ["identity"]
    assert len(await store.aimportant(namespace=A)) == 1
    assert (await store.aget(dated.memory.id, namespace=A)).id == dated.memory.id
    assert len(await store.aget_many([dated.memory.id, first.memory.id], namespace=A)) == 1
    assert len(await store.ahistory(dated.memory.id, namespace=A)) == 2
    await store.arecord_access([dated.memory.id], namespace=A)
    assert (await store.aget(dated.memory.id, namespace=A)).access_count == 1
    assert (await store.adelete(dated.memory.id, namespace=A)).id == dated.memory.id
    assert await store.apurge_expired() == 0
    assert await store.acount(namespace=A) == 1
    # Forgotten (restorable) and its older version are records until erased.
    assert await store.aerase(A) == 3 and await store.acount(include_superseded=True) == 0
    with pytest.raises(InvalidMemoryError):
        await store.aremember("", namespace=A)
    async with store:
        pass


LAZY_NS = ("memories", "alice")


def test_a_lazy_embedder_loads_only_when_something_is_embedded(backend, embeddings, tmp_path):
    from langgraph_memory import LazyEmbeddings
    from langgraph_memory.store.embeddings import embedder_name

    client = QdrantClient(":memory:") if backend == "qdrant" else None

    def open_store(emb):
        if client is not None:
            return MemoryStore(client=client, embeddings=emb)
        return MemoryStore.open(tmp_path / "lazy", embeddings=emb)

    built = []

    def factory():
        built.append(1)
        return embeddings

    name = embedder_name(embeddings)
    first = open_store(LazyEmbeddings(factory, name))
    assert built == [1]  # a new store: the vector size is measured with the model
    first.remember("Alice plays the cello", namespace=LAZY_NS)
    if client is None:
        first.close()

    lazy = LazyEmbeddings(factory, name)
    store = open_store(lazy)
    assert not lazy.loaded and store.dim == 384
    assert [m.content for m in store.recent(namespace=LAZY_NS)] == ["Alice plays the cello"]
    assert not lazy.loaded and built == [1]
    assert store.search("cello", namespace=LAZY_NS)[0].memory.content == "Alice plays the cello"
    assert lazy.loaded and built == [1, 1]

    # Another model's name: refused before anything is loaded, naming both.
    other = LazyEmbeddings(factory, "another-model")
    if client is None:
        store.close()
    with pytest.raises(EmbedderMismatchError) as caught:
        open_store(other)
    assert (caught.value.stored, caught.value.given) == (name, "another-model")
    assert name in str(caught.value) and "another-model" in str(caught.value)
    assert not other.loaded


def test_lazy_embeddings_reject_bad_arguments():
    from langgraph_memory import LazyEmbeddings

    with pytest.raises(TypeError, match="factory"):
        LazyEmbeddings("not callable", "m")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="model_name"):
        LazyEmbeddings(lambda: None, "")  # type: ignore[arg-type, return-value]


async def test_both_lazy_embedders_load_on_the_first_async_embedding(embeddings, tmp_path):
    # LazyEmbeddings is a LangChain Embeddings; the CLI's DeferredEmbedder is the same
    # machinery without that base class (so reading a store imports no LangChain).
    from langchain_core.embeddings import Embeddings

    from langgraph_memory import LazyEmbeddings
    from langgraph_memory.store.embeddings import DeferredEmbedder, embedder_name

    with MemoryStore.open(tmp_path / "s", embeddings=embeddings) as store:
        store.remember("Alice plays the cello", namespace=LAZY_NS)
    for cls in (LazyEmbeddings, DeferredEmbedder):
        lazy = cls(lambda: embeddings, embedder_name(embeddings))
        assert isinstance(lazy, Embeddings) == (cls is LazyEmbeddings)
        with MemoryStore.open(tmp_path / "s", embeddings=lazy) as store:
            assert not lazy.loaded
            hits = await store.asearch("cello", namespace=LAZY_NS)
            assert lazy.loaded and hits[0].memory.content == "Alice plays the cello"
            assert await lazy.aembed_documents(["a", "b"]) == embeddings.embed_documents(["a", "b"])
