"""LangGraph's own store tests, run against QdrantStore on both backends.

Each test is named after the LangGraph test it mirrors and checks the same cases (from
``libs/checkpoint/tests/test_store.py`` for InMemoryStore, ``libs/checkpoint-sqlite/tests/
test_store.py`` and ``libs/checkpoint-postgres/tests/test_store.py``); they are written
here, not copied. TTL tests are in ``test_base_store_ttl.py``.

Left out, and why:

* ``test_async_batch_store``, ``test_async_batch_store_deduplication``,
  ``MockAsyncBatchedStore`` parts of ``test_cannot_put_empty_namespace``: they test
  LangGraph's ``AsyncBatchedBaseStore`` wrapper, not a store.
* ``test_nonnull_migrations``, ``test_escape_glob_literal``, ``test_namespace_match_pattern``,
  ``test_list_namespaces_prefix_uses_indexable_condition``, the vector-table check of
  ``test_vector_store_initialization``: SQLite / Postgres internals (migrations, SQL).
* ``test_vector_search_ranks_closest_first`` and ``test_scores`` for ``l2`` /
  ``inner_product`` distances: QdrantStore ranks by cosine only (the memories' metric);
  the cosine cases are here.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, Item, ListNamespacesOp, MatchCondition, PutOp, SearchOp

from tests.base_store_support import CharacterEmbeddings, cosine, shared_engine, store_on


@pytest.fixture
def make(backend, tmp_path_factory):
    """QdrantStores over one engine per backend and vector size, emptied for each test."""
    root = tmp_path_factory.getbasetemp()
    emptied: set[int] = set()

    def build(**options: Any):
        dims = (options.get("index") or {}).get("dims", 500)
        engine = shared_engine(backend, dims, root, empty=dims not in emptied)
        emptied.add(dims)
        return store_on(engine, **options)

    return build


@pytest.fixture
def store(make):
    return make()


@pytest.fixture
def embeddings() -> CharacterEmbeddings:
    return CharacterEmbeddings(dims=500)


@pytest.fixture
def vector_store(make, embeddings):
    return make(index={"dims": embeddings.dims, "embed": embeddings})


def fields_store(make, embeddings, fields):
    return make(index={"dims": embeddings.dims, "embed": embeddings, "fields": fields})


# -- batches (sqlite/postgres test_store.py) ------------------------------------------------


def test_batch_order(store):
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    results = store.batch([
        GetOp(("test", "foo"), "key1"),
        PutOp(("test", "bar"), "key2", {"data": "value2"}),
        SearchOp(("test",), filter={"data": "value1"}, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        GetOp(("test",), "key3"),
    ])
    assert len(results) == 5
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[0].key == "key1" and results[0].namespace == ("test", "foo")
    assert results[1] is None
    assert [(i.key, i.value) for i in results[2]] == [("key1", {"data": "value1"})]
    assert ("test", "foo") in results[3] and ("test", "bar") in results[3]
    assert results[4] is None

    again = store.batch([
        SearchOp(("test",), filter=None, limit=5, offset=0),
        GetOp(("test", "bar"), "key2"),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
        PutOp(("test",), "key3", {"data": "value3"}),
        GetOp(("test", "foo"), "key1"),
    ])
    assert len(again[0]) >= 2
    assert again[1].value == {"data": "value2"} and again[1].namespace == ("test", "bar")
    assert len(again[2]) > 0 and again[3] is None
    assert again[4].value == {"data": "value1"}
    assert store.get(("test",), "key3").value == {"data": "value3"}


def test_batch_get_ops(store):
    store.put(("test",), "key1", {"data": "value1"})
    store.put(("test",), "key2", {"data": "value2"})
    results = store.batch([GetOp(("test",), "key1"), GetOp(("test",), "key2"), GetOp(("test",), "key3")])
    assert [r.key if r else None for r in results] == ["key1", "key2", None]


def test_batch_put_ops(store):
    results = store.batch([
        PutOp(("test",), "key1", {"data": "value1"}),
        PutOp(("test",), "key2", {"data": "value2"}),
        PutOp(("test",), "key3", None),
    ])
    assert results == [None, None, None]
    assert store.get(("test",), "key1").value == {"data": "value1"}
    assert store.get(("test",), "key2").value == {"data": "value2"}
    assert store.get(("test",), "key3") is None


def test_batch_search_ops(store):
    for ns, key, value in [(("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
                           (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
                           (("test", "baz"), "key3", {"data": "value3", "tag": "b"})]:
        store.put(ns, key, value)
    tagged, first_two, foo = store.batch([
        SearchOp(("test",), filter={"tag": "a"}, limit=10, offset=0),
        SearchOp(("test",), filter=None, limit=2, offset=0),
        SearchOp(("test", "foo"), filter=None, limit=10, offset=0),
    ])
    assert len(tagged) == 2 and all(i.value["tag"] == "a" for i in tagged)
    assert len(first_two) == 2
    assert [i.namespace for i in foo] == [("test", "foo")]


def test_batch_list_namespaces_ops(store):
    data = [("test", "documents", "public"), ("test", "documents", "private"),
            ("test", "images", "public"), ("prod", "documents", "public")]
    for i, ns in enumerate(data):
        store.put(ns, f"doc{i}", {"content": "x"})
    everything, shallow, public, public_str = store.batch([
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=2, limit=10, offset=0),
        ListNamespacesOp(match_conditions=(MatchCondition("suffix", ("public",)),), max_depth=None, limit=10, offset=0),
        ListNamespacesOp(match_conditions=[MatchCondition("suffix", "public")], max_depth=None, limit=10, offset=0),
    ])
    assert len(everything) == len(data)
    assert shallow and all(len(ns) <= 2 for ns in shallow)
    assert len(public) == 3 and all(ns[-1] == "public" for ns in public)
    assert public_str == public


# -- basic operations -----------------------------------------------------------------------


def test_basic_store_ops(store):
    namespace = ("test", "documents")
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, "doc1")
    assert (item.namespace, item.key, item.value) == (namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    store.put(namespace, "doc1", {"title": "Updated Document", "content": "Hello, Updated!"})
    updated = store.get(namespace, "doc1")
    assert updated.value == {"title": "Updated Document", "content": "Hello, Updated!"}
    assert updated.updated_at > item.updated_at and updated.created_at == item.created_at
    assert store.get(("test", "other_documents"), "doc1") is None
    store.delete(namespace, "doc1")
    assert store.get(namespace, "doc1") is None


def test_basic_store_operations(make, embeddings):
    store = fields_store(make, embeddings, ["key0", "key1", "key3"])
    uid = uuid.uuid4().hex
    namespace = (uid, "test", "documents")
    assert store.search((uid,)) == []
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, "doc1")
    assert item.value == {"title": "Test Document", "content": "Hello, World!"}
    assert item.created_at is not None and item.updated_at is not None
    store.put(namespace, "doc1", {"title": "Updated Test Document", "content": "Hello, LangGraph!"})
    assert store.get(namespace, "doc1").updated_at >= item.updated_at
    assert store.get((uid, "test", "other_documents"), "doc1") is None
    store.put(namespace, "doc2", {"title": "Another Document", "content": "Greetings!"})
    assert {i.key for i in store.search((uid, "test"), limit=10)} == {"doc1", "doc2"}
    assert namespace in store.list_namespaces(prefix=(uid, "test"))
    store.delete(namespace, "doc1")
    store.delete(namespace, "doc2")
    assert store.get(namespace, "doc1") is None and store.get(namespace, "doc2") is None
    assert store.search((uid, "test"), limit=10) == []


def test_search(store):
    data = [(("test", "docs"), "doc1", {"title": "First Doc", "author": "Alice", "tags": ["important"]}),
            (("test", "docs"), "doc2", {"title": "Second Doc", "author": "Bob", "tags": ["draft"]}),
            (("test", "images"), "img1", {"title": "Image 1", "author": "Alice", "tags": ["final"]})]
    for ns, key, value in data:
        store.put(ns, key, value)
    assert len(store.search(["test"])) == 3
    docs = store.search(["test", "docs"])
    assert len(docs) == 2 and all(i.namespace == ("test", "docs") for i in docs)
    alice = store.search(["test"], filter={"author": "Alice"})
    assert len(alice) == 2 and all(i.value["author"] == "Alice" for i in alice)
    assert len(store.search(["test"], limit=2)) == 2
    assert len(store.search(["test"], offset=2)) == 1


def test_search_items(make, embeddings):
    store = fields_store(make, embeddings, ["key0", "key1", "key3"])
    base = "test_search_items"
    data = [((base, "documents", "user1"), {"title": "Doc 1", "author": "John Doe", "tags": ["important"]}),
            ((base, "documents", "user2"), {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]}),
            ((base, "reports", "department1"), {"title": "Report A", "author": "John Doe", "tags": ["final"]}),
            ((base, "reports", "department2"), {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]})]
    for ns, value in data:
        store.put(ns, f"item_{ns[-1]}", value)
    assert [i.namespace[1] for i in store.search((base, "documents"))] == ["documents"] * 2
    assert [i.namespace[1] for i in store.search((base, "reports"))] == ["reports"] * 2
    first, second = store.search((base,), limit=2, offset=0), store.search((base,), limit=2, offset=2)
    assert len(first) == len(second) == 2 and not {i.key for i in first} & {i.key for i in second}
    assert len(store.search((base,))) == 4
    john = store.search((base,), filter={"author": "John Doe"})
    assert len(john) == 2 and all(i.value["author"] == "John Doe" for i in john)
    drafts = store.search((base,), filter={"tags": ["draft"]})
    assert len(drafts) == 2 and all("draft" in i.value["tags"] for i in drafts)


# -- list_namespaces (InMemoryStore test_store.py, sqlite) ----------------------------------


def _put_all(store, namespaces):
    for i, ns in enumerate(namespaces):
        store.put(ns, f"id_{i}", {"data": f"value_{i:02d}"})


def test_list_namespaces_basic(store):
    _put_all(store, [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"),
                     ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"), ("admin", "users", "789")])
    assert sorted(store.list_namespaces(prefix=("a", "b"))) == [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(suffix=("f",))) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert sorted(store.list_namespaces(prefix=("a",), suffix=("f",))) == [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "b"), max_depth=3)) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(store.list_namespaces(prefix=("a", "*", "f"))) == [("a", "b", "f"), ("a", "c", "f")]
    assert sorted(store.list_namespaces(suffix=("*", "f"))) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store):
    _put_all(store, [("users", "123"), ("users", "456"), ("users", "789", "settings"), ("admin", "users", "789"),
                     ("guests", "123"), ("guests", "456", "preferences")])
    assert sorted(store.list_namespaces(prefix=("users", "*"))) == [("users", "123"), ("users", "456"), ("users", "789", "settings")]
    assert store.list_namespaces(suffix=("*", "preferences")) == [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []
    store.put(("admin", "users", "settings", "789"), "foo", {"data": "some_val"})
    assert store.list_namespaces(prefix=("*", "users"), suffix=("settings", "*")) == [("admin", "users", "settings", "789")]


def test_list_namespaces_pagination(store):
    for i in range(20):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": f"value_{i:02d}"})
    for offset in (0, 5, 15):
        assert store.list_namespaces(prefix=("namespace",), limit=5, offset=offset) == [
            ("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


def test_list_namespaces_max_depth(store):
    _put_all(store, [("a", "b", "c", "d"), ("a", "b", "c", "e"), ("a", "b", "f"), ("a", "g"), ("h", "i", "j", "k")])
    assert sorted(store.list_namespaces(max_depth=2)) == [("a", "b"), ("a", "g"), ("h", "i")]


def test_list_namespaces_no_conditions(store):
    _put_all(store, [("a", "b"), ("c", "d"), ("e", "f", "g")])
    assert sorted(store.list_namespaces()) == [("a", "b"), ("c", "d"), ("e", "f", "g")]


def test_list_namespaces_empty_store(store):
    assert store.list_namespaces() == []


def test_list_namespaces(store):
    namespaces = [("test", "documents", "public"), ("test", "documents", "private"), ("test", "images", "public"),
                  ("test", "images", "private"), ("prod", "documents", "public"), ("prod", "documents", "private")]
    for ns in namespaces:
        store.put(ns, "dummy", {"content": "dummy"})
    assert len(store.list_namespaces()) == 6
    assert [ns[0] for ns in store.list_namespaces(prefix=["test"])] == ["test"] * 4
    assert [ns[-1] for ns in store.list_namespaces(suffix=["public"])] == ["public"] * 3
    assert all(len(ns) <= 2 for ns in store.list_namespaces(max_depth=2))
    assert len(store.list_namespaces(limit=3)) == 3
    for ns in namespaces:
        store.delete(ns, "dummy")
    assert store.list_namespaces() == []


def test_list_namespaces_operations(store):
    p = str(uuid.uuid4())
    namespaces = [(p, "test", "documents", "public", p), (p, "test", "documents", "private", p),
                  (p, "test", "images", "public", p), (p, "test", "images", "private", p),
                  (p, "prod", "documents", "public", p), (p, "prod", "documents", "some", "nesting", "public", p),
                  (p, "prod", "documents", "private", p)]
    for ns in namespaces:
        store.put(ns, "dummy", {"content": "dummy"})
    assert len(store.list_namespaces(prefix=(p, "test"))) == 4
    assert len(store.list_namespaces(prefix=(p, "test", "documents"))) == 2
    assert len(store.list_namespaces(suffix=("public", p))) == 4
    assert len(store.list_namespaces(prefix=(p, "test"), suffix=("public", p))) == 2
    assert len(store.list_namespaces(prefix=(p, "*", "documents"))) == 5
    assert len(store.list_namespaces(suffix=("*", "public", p))) == 4
    assert store.list_namespaces(suffix=("some", "*", "public", p)) == [namespaces[5]]
    assert all(len(ns) <= 3 for ns in store.list_namespaces(max_depth=3))
    deep = store.list_namespaces(max_depth=4, prefix=(p, "*", "documents"))
    assert len(set(deep)) == len(deep) == 5
    assert len(store.list_namespaces(prefix=(p,), limit=3)) == 3
    assert len(store.list_namespaces(prefix=(p,), offset=3)) == len(namespaces) - 3
    assert set(store.list_namespaces(prefix=(p,))) == set(namespaces)


def test_list_namespaces_segment_boundary(store):
    for ns in [("foo",), ("foo", "child"), ("foobar",), ("foobar", "baz"), ("uid", "users", "alice"),
               ("uid", "users", "malice"), ("uid", "a", "b", "alice")]:
        store.put(ns, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=["foo"], limit=100)) == {("foo",), ("foo", "child")}
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == {("uid", "users", "alice"), ("uid", "a", "b", "alice")}
    assert set(store.list_namespaces(prefix=["uid", "*", "alice"], limit=100)) == {("uid", "users", "alice")}
    assert len(store.list_namespaces(prefix=["uid"], limit=100)) == 3


def test_list_namespaces_metacharacter_labels(store):
    pairs = [("star*", "starX"), ("q?m", "qXm"), ("br[ack]et", "brXacXket"), ("user_1", "userX1"), ("a%b", "axxb"),
             ("plus+", "plusX"), ("sl/ash", "sl%2Fash")]
    for label, decoy in pairs:
        for ns in [(label,), (decoy,), (label, "child")]:
            store.put(ns, "k", {"v": 1})
    for label, decoy in pairs:
        assert set(store.list_namespaces(prefix=[label], limit=100)) == {(label,), (label, "child")}
        assert set(store.list_namespaces(prefix=[label, "child"], limit=100)) == {(label, "child")}


def test_namespace_labels_with_trailing_newline(store):
    store.put(("users", "alice"), "k", {"v": 1})
    # LangGraph's stores keep "alice\n" as a second namespace; QdrantStore refuses a written
    # label a reader could take for another (docs/input-validation.md), storing nothing.
    with pytest.raises(InvalidNamespaceError):
        store.put(("users", "alice\n"), "k", {"v": 2})
    assert store.get(("users", "alice"), "k").value == {"v": 1}
    assert store.list_namespaces(suffix=["alice"], limit=100) == [("users", "alice")]
    assert store.list_namespaces(prefix=["users", "alice"], limit=100) == [("users", "alice")]


# -- search scopes and filters (sqlite test_store.py) ---------------------------------------


def _scoped(store, prefix):
    return {item.namespace for item in store.search(prefix, limit=100)}


def test_search_namespace_segment_boundary(store):
    for ns in [("foo",), ("foo", "child"), ("foo", "child", "deep"), ("foobar",), ("foobar", "baz"), ("foo2",)]:
        store.put(ns, "k", {"v": 1})
    assert _scoped(store, ("foo",)) == {("foo",), ("foo", "child"), ("foo", "child", "deep")}
    assert _scoped(store, ("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert _scoped(store, ("foo2",)) == {("foo2",)}
    assert _scoped(store, ("fo",)) == set()


def test_search_namespace_wildcard_chars_are_literal(store):
    for ns in [("user_1",), ("user_1", "child"), ("userX1",), ("a%b",), ("axxb",), ("star*",), ("starX",)]:
        store.put(ns, "k", {"v": 1})
    assert _scoped(store, ("user_1",)) == {("user_1",), ("user_1", "child")}
    assert _scoped(store, ("a%b",)) == {("a%b",)}
    assert _scoped(store, ("star*",)) == {("star*",)}


def test_search_namespace_is_case_sensitive(store):
    store.put(("Foo",), "k", {"v": "upper"})
    store.put(("foo",), "k", {"v": "lower"})
    assert _scoped(store, ("foo",)) == {("foo",)} and _scoped(store, ("Foo",)) == {("Foo",)}


def test_search_empty_prefix_is_unconstrained(store):
    for ns in [("a",), ("b", "c"), ("d", "e", "f")]:
        store.put(ns, "k", {"v": 1})
    assert _scoped(store, ()) == {("a",), ("b", "c"), ("d", "e", "f")}


def test_sql_injection_vulnerability(store):
    store.put(("docs",), "public", {"access": "public", "data": "public info"})
    store.put(("docs",), "private", {"access": "private", "data": "secret", "password": "123"})
    assert [i.value["access"] for i in store.search(("docs",), filter={"access": "public"})] == ["public"]
    malicious = "access') = 'public' OR '1'='1' OR json_extract(value, '$."
    with pytest.raises(ValueError, match="Invalid filter key"):
        store.search(("docs",), filter={malicious: "dummy"})
    with pytest.raises(ValueError, match="Invalid filter key"):
        store.search(("docs",), filter={"access') OR 1=1 --": "public"})
    # Keys SqliteStore takes (letters, digits, _ . -) still filter.
    assert [i.key for i in store.search(("docs",), filter={"data": "secret"})] == ["private"]


def test_sql_injection_filter_values(store):
    store.put(("docs",), "doc1", {"access": "public", "title": "Public Document"})
    store.put(("docs",), "doc2", {"access": "private", "title": "Private Document"})
    store.put(("docs",), "doc3", {"access": "secret", "title": "Secret Document"})
    for value in ["public' OR '1'='1", "public'; --", "public' UNION SELECT * FROM store --",
                  "public\x00' OR '1'='1", "''''", "public' OR 'א'='א"]:
        assert store.search(("docs",), filter={"access": value}) == []
    store.put(("docs",), "doc4", {"title": "O'Brien's Document", "access": "public"})
    assert [i.key for i in store.search(("docs",), filter={"title": "O'Brien's Document"})] == ["doc4"]


def test_numeric_filter_safety(store):
    for key, price, quantity in [("item1", 10, 5), ("item2", 20, 3), ("item3", 30, 1)]:
        store.put(("items",), key, {"price": price, "quantity": quantity})
    assert sorted(i.value["price"] for i in store.search(("items",), filter={"price": {"$gt": 15}})) == [20, 30]
    assert len(store.search(("items",), filter={"price": {"$lt": float("inf")}})) == 3
    assert len(store.search(("items",), filter={"price": {"$gt": float("-inf")}})) == 3
    assert store.search(("items",), filter={"price": {"$eq": float("nan")}}) == []
    assert len(store.search(("items",), filter={"price": {"$lt": 10**100}})) == 3
    store.put(("items",), "item4", {"price": -10, "quantity": 0})
    assert [i.key for i in store.search(("items",), filter={"price": {"$lt": 0}})] == ["item4"]


def test_numeric_comparison_filters(store):
    ns = ("test", "scores")
    for key, score in [("a", 2), ("b", 9), ("c", 10), ("d", 11)]:
        store.put(ns, key, {"score": score})

    def scores(flt):
        return sorted(i.value["score"] for i in store.search(ns, filter=flt))

    assert scores({"score": {"$gte": 10}}) == [10, 11]
    assert scores({"score": {"$gt": 9}}) == [10, 11]
    assert scores({"score": {"$lt": 10}}) == [2, 9]
    assert scores({"score": {"$lte": 9}}) == [2, 9]
    store.put(ns, "e", {"score": 9.5})
    assert scores({"score": {"$gt": 9}}) == [9.5, 10, 11]
    store.put(("test", "names"), "a", {"name": "apple"})
    store.put(("test", "names"), "b", {"name": "banana"})
    assert [i.value["name"] for i in store.search(("test", "names"), filter={"name": {"$gt": "apple"}})] == ["banana"]
    assert scores({"score": {"$ne": 10}}) == [2, 9, 9.5, 11]


def test_boolean_filter_safety(store):
    for key, active, name in [("flag1", True, "Feature A"), ("flag2", False, "Feature B"), ("flag3", True, "Feature C")]:
        store.put(("flags",), key, {"active": active, "name": name})
    on = store.search(("flags",), filter={"active": True})
    assert len(on) == 2 and all(i.value["active"] is True for i in on)
    assert [i.value["active"] for i in store.search(("flags",), filter={"active": False})] == [False]


def test_filter_keys_with_hyphens_and_digits(store):
    store.put(("docs",), "hyphen", {"access-level": "public", "user": {"access-level": "nested"}})
    store.put(("docs",), "digit", {"123abc": "ok", "user": {"123abc": "ok2"}})
    assert [i.key for i in store.search(("docs",), filter={"access-level": "public"})] == ["hyphen"]
    assert [i.key for i in store.search(("docs",), filter={"user.access-level": "nested"})] == ["hyphen"]
    assert [i.key for i in store.search(("docs",), filter={"123abc": "ok"})] == ["digit"]
    assert [i.key for i in store.search(("docs",), filter={"user.123abc": "ok2"})] == ["digit"]


# -- namespaces (InMemoryStore test_store.py) ----------------------------------------------


async def test_cannot_put_empty_namespace(store):
    doc = {"foo": "bar"}
    for ns, key in [((), "foo"), (("the", "thing.about"), "foo"), (("some", "fun", ""), "foo"), (("langgraph", "foo"), "bar")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(ns, key, doc)
        with pytest.raises(InvalidNamespaceError):
            await store.aput(ns, key, doc)
    assert store.list_namespaces() == []
    ns = ("foo", "langgraph", "foo")
    await store.aput(ns, "bar", doc)
    assert (await store.aget(ns, "bar")).value == doc
    assert (await store.asearch(ns))[0].value == doc
    await store.adelete(ns, "bar")
    assert await store.aget(ns, "bar") is None
    store.put(ns, "bar", doc)
    assert store.get(ns, "bar").value == doc and store.search(ns)[0].value == doc
    store.delete(ns, "bar")
    assert store.get(ns, "bar") is None
    # Past the public put API, a "langgraph" root is allowed (as in LangGraph's stores).
    await store.abatch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert (await store.aget(("langgraph", "foo"), "bar")).value == doc
    assert (await store.asearch(("langgraph", "foo")))[0].value == doc
    await store.adelete(("langgraph", "foo"), "bar")
    assert await store.aget(("langgraph", "foo"), "bar") is None
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.get(("langgraph", "foo"), "bar").value == doc
    store.delete(("langgraph", "foo"), "bar")
    assert store.get(("langgraph", "foo"), "bar") is None


# -- vectors (all three test files) ---------------------------------------------------------


def test_vector_store_initialization(make, embeddings):
    store = make(index={"dims": embeddings.dims, "embed": embeddings})
    assert store.index_config["dims"] == embeddings.dims and store.index_config["embed"] == embeddings
    assert store.index_config.get("fields") is None and store.index_config["fields"] is None  # as LangGraph's stores
    assert store.embeddings == embeddings
    with_fields = make(index={"dims": embeddings.dims, "embed": embeddings, "fields": ["content", "title"]})
    assert with_fields.index_config["fields"] == ["content", "title"]


DOCS = [("doc1", {"text": "short text"}), ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}), ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}), ("doc6", {"body": "text in body field"})]


def test_vector_insert_with_auto_embedding(vector_store):
    for key, value in DOCS:
        vector_store.put(("test",), key, value)
    keys = [r.key for r in vector_store.search(("test",), query="long text")]
    assert "doc2" in keys and "doc3" in keys


async def test_async_vector_insert_with_auto_embedding(vector_store):
    for key, value in DOCS:
        await vector_store.aput(("test",), key, value)
    keys = [r.key for r in await vector_store.asearch(("test",), query="long text")]
    assert "doc2" in keys and "doc3" in keys


def _vector_update(store, search, put):
    put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    put(("test",), "doc2", {"text": "something about dogs"})
    put(("test",), "doc3", {"text": "text about birds"})
    initial = search(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    put(("test",), "doc1", {"text": "new text about dogs"})
    after = next((r.score for r in search(("test",), query="Zany Xerxes") if r.key == "doc1"), 0.0)
    assert after < initial[0].score
    assert all(r.score > after for r in search(("test",), query="new text about dogs") if r.key == "doc1")
    put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    assert not any(r.key == "doc4" for r in search(("test",), query="new text about dogs", limit=3))


def test_vector_update_with_embedding(vector_store):
    _vector_update(vector_store, vector_store.search, vector_store.put)


async def test_async_vector_update_with_embedding(vector_store):
    def run(method):
        def call(*args, **kwargs):
            return asyncio.run_coroutine_threadsafe(method(*args, **kwargs), loop).result()
        return call

    loop = asyncio.get_running_loop()
    await asyncio.to_thread(_vector_update, vector_store, run(vector_store.asearch), run(vector_store.aput))


FILTER_DOCS = [("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
               ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
               ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
               ("doc4", {"text": "blue car", "color": "blue", "score": 3.5})]


@pytest.mark.parametrize("refresh_ttl", [True, False])
def test_vector_search_with_filters(vector_store, refresh_ttl):
    for key, value in FILTER_DOCS:
        vector_store.put(("test",), key, value)
    red_apple = vector_store.search(("test",), query="apple", filter={"color": "red"}, refresh_ttl=refresh_ttl)
    assert len(red_apple) == 2 and red_apple[0].key == "doc1"
    red_car = vector_store.search(("test",), query="car", filter={"color": "red"}, refresh_ttl=refresh_ttl)
    assert len(red_car) == 2 and red_car[0].key == "doc2"
    high = vector_store.search(("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}}, refresh_ttl=refresh_ttl)
    assert len(high) == 3 and high[0].key == "doc4" and {"doc1", "doc3"} <= {r.key for r in high}
    both = vector_store.search(("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [r.key for r in both] == ["doc3"]


async def test_async_vector_search_with_filters(vector_store):
    for key, value in FILTER_DOCS:
        await vector_store.aput(("test",), key, value)
    assert [r.key for r in await vector_store.asearch(("test",), query="apple", filter={"color": "red"})][0] == "doc1"
    high = await vector_store.asearch(("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}})
    assert len(high) == 3 and high[0].key == "doc4"
    both = await vector_store.asearch(("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [r.key for r in both] == ["doc3"]


async def test_async_batched_vector_search_concurrent(vector_store):
    colors, things, scores = ["red", "blue", "green", "yellow", "purple"], ["apple", "car", "house", "book", "phone"], [3.0, 3.5, 4.0, 4.5, 5.0]
    docs = [(f"doc{i}", {"text": f"{colors[i % 5]} {things[i % 5]}", "color": colors[i % 5], "score": scores[i % 5], "index": i})
            for i in range(50)]
    await asyncio.gather(*[vector_store.aput(("test",), k, v) for k, v in docs])
    await asyncio.gather(*[vector_store.adelete(("test",), k) for k, _ in docs])
    await asyncio.gather(*[vector_store.aput(("test",), k, v) for k, v in docs])
    queries = [("apple", {"color": "red"}), ("car", {"color": "blue"}), ("house", {"color": "green"}),
               ("phone", {"score": {"$gt": 4.99}}), ("book", {"score": {"$lte": 3.5}}),
               ("apple", {"score": {"$gte": 3.0}, "color": "red"}), ("car", {"score": {"$lt": 5.1}, "color": "blue"}),
               ("house", {"index": {"$gt": 25}}), ("phone", {"index": {"$lte": 10}})]
    found = await asyncio.gather(*[vector_store.asearch(("test",), query=q, filter=f) for q, f in queries])
    checks = {"$gt": lambda a, b: a > b, "$gte": lambda a, b: a >= b, "$lt": lambda a, b: a < b, "$lte": lambda a, b: a <= b}
    for results, (_, flt) in zip(found, queries):
        assert results
        for r in results:
            for field, expected in flt.items():
                if isinstance(expected, dict):
                    assert all(checks[op](r.value[field], v) for op, v in expected.items())
                else:
                    assert r.value[field] == expected


def test_vector_search_pagination(vector_store):
    for i in range(5):
        vector_store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = vector_store.search(("test",), query="test", limit=2)
    page2 = vector_store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2 and not {r.key for r in page1} & {r.key for r in page2}
    assert page1[0].score >= page1[1].score and page2[0].score >= page2[1].score
    everything = vector_store.search(("test",), query="test", limit=10)
    assert len(everything) == 5 and everything[0].score >= everything[2].score
    assert [r.key for r in everything] == [r.key for r in page1 + page2] + [everything[4].key]


async def test_async_vector_search_pagination(vector_store):
    for i in range(5):
        await vector_store.aput(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = await vector_store.asearch(("test",), query="test", limit=2)
    page2 = await vector_store.asearch(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2 and page1[0].key != page2[0].key
    assert len(await vector_store.asearch(("test",), query="test", limit=10)) == 5


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_vector_search_edge_cases(vector_store, mode):
    vector_store.put(("test",), "doc1", {"text": "test document"})
    for query in ["", None, "test " * 100, "test!@#$%^&*()"]:
        found = vector_store.search(("test",), query=query) if mode == "sync" else await vector_store.asearch(("test",), query=query)
        assert len(found) == 1


def test_embed_with_path(make, embeddings):
    store = fields_store(make, embeddings, ["key0", "key1", "key3"])
    store.put(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    store.put(("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"})
    xxx = store.search(("test",), query="xxx")
    assert len(xxx) == 2 and xxx[0].key != xxx[1].key
    assert xxx[0].score > 0.9 and xxx[1].score > 0.9 and xxx[0].score == pytest.approx(xxx[1].score, abs=1e-3)
    for query, best in [("uuu", "doc2"), ("zzz", "doc1")]:
        found = store.search(("test",), query=query)
        assert len(found) == 2 and found[0].key == best and found[0].score > found[1].score
        assert found[0].score == pytest.approx(xxx[0].score, abs=1e-3)
    unindexed = store.search(("test",), query="www")
    assert len(unindexed) == 2 and all(r.score < 0.9 for r in unindexed)


def test_embed_with_path_operation_config(make, embeddings):
    store = fields_store(make, embeddings, ["key17"])
    store.put(("test",), "doc3", {"key0": "aaa", "key1": "bbb", "key2": "ccc", "key3": "ddd"}, index=["key0", "key1"])
    store.put(("test",), "doc4", {"key0": "eee", "key1": "bbb", "key2": "fff", "key3": "ggg"}, index=["key1", "key3"])
    for query, best in [("aaa", "doc3"), ("ggg", "doc4")]:
        found = store.search(("test",), query=query)
        assert len({r.key for r in found}) == 2 and found[0].key == best and found[0].score > found[1].score
    bbb = store.search(("test",), query="bbb")
    assert bbb[0].key != bbb[1].key and bbb[0].score == pytest.approx(bbb[1].score, abs=1e-3)
    assert all(r.score < 0.9 for r in store.search(("test",), query="ccc"))
    store.put(("test",), "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    plain = store.search(("test",))
    assert len(plain) == 3 and all(r.score is None for r in plain) and any(r.key == "doc5" for r in plain)
    # Items without a vector follow the scored ones, unscored (as InMemoryStore does).
    hhh = store.search(("test",), query="hhh")
    assert [r.key for r in hhh][-1] == "doc5" and hhh[-1].score is None and len(hhh) == 3


@pytest.mark.parametrize("query", ["aaa", "bbb", "ccc", "abcd", "poisson"])
def test_scores(make, embeddings, query):
    store = fields_store(make, embeddings, ["key0"])
    store.put(("test",), "doc", {"key0": "aaa"}, index=["key0", "key1"])
    [found] = store.search((), query=query)
    assert found.score == pytest.approx(cosine(embeddings.embed_query(query), embeddings.embed_query("aaa")), abs=1e-3)


def test_vector_search_ranks_closest_first(make):
    class Fixed(CharacterEmbeddings):
        vectors = {"a": [1.0, 0.0, 0.0], "b": [2.0, 0.1, 0.0], "c": [0.0, 0.0, 1.0]}

        def _embed(self, text):
            return list(self.vectors[text])

    store = make(index={"dims": 3, "embed": Fixed(3), "fields": ["text"]})
    for key in "abc":
        store.put(("docs",), key, {"text": key})
    found = store.search(("docs",), query="a")
    assert [r.key for r in found] == ["a", "b", "c"]
    for r, expected in zip(found, [1.0, 2.0 / 4.01**0.5, 0.0]):
        assert r.score == pytest.approx(expected, abs=1e-5)


def test_non_ascii(vector_store):
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        vector_store.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, start=1):
        assert vector_store.search(("user_123", "memories"), query=text)[0].key == str(i)


# -- ours: the index's embed as a function ----------------------------------------------------


async def test_embed_as_a_sync_or_async_function(make, embeddings):
    def embed(texts: list[str]) -> list[list[float]]:
        return embeddings.embed_documents(texts)

    async def aembed(texts: list[str]) -> list[list[float]]:
        return embeddings.embed_documents(texts)

    for fn in (embed, aembed):
        store = make(index={"dims": embeddings.dims, "embed": fn, "fields": ["text"]})
        await store.aput(("docs",), "a", {"text": "zany zebra"})
        await store.aput(("docs",), "b", {"text": "quiet dog"})
        assert [r.key for r in await store.asearch(("docs",), query="zebra")][0] == "a"
        if fn is embed:
            assert store.search(("docs",), query="dog")[0].key == "b"
        await store.adelete(("docs",), "a")
        await store.adelete(("docs",), "b")
