"""An attacker's requests to a LangGraph server's store API, run as the server runs them:
``protect_store``'s handler first (it may refuse, or narrow the request in place), then the
store call with what the handler left, on the real engines (Qdrant Edge and qdrant-client's
``:memory:``). ``tests/test_auth_server.py`` drives a real ``langgraph dev``; these call the
same handler and store in-process.

bob tries to learn the names of rooms closed to him, an identity labelled ``*`` tries to
list every user's namespaces, a reader tries to keep the agent's items alive, and any user
tries to break or slow the store for everyone: a value nested past the engine's decoder,
filter keys that each build a payload index, one item naming thousands of texts to embed.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from langchain_core.embeddings import DeterministicFakeEmbedding
from langgraph.store.base import PutOp, SearchOp
from langgraph_sdk import Auth

from langgraph_memory import MemoryStore
from langgraph_memory.auth import AccessPolicy, protect_store
from langgraph_memory.base_store import QdrantStore
from langgraph_memory.base_store._items import item_point_id, namespace_matches
from langgraph_memory.base_store._reads import DEFAULT_FIELD_INDEXES, FIELD_INDEXES_ENV, field_index_limit
from langgraph_memory.base_store._writes import MAX_ITEM_TEXTS
from langgraph_memory.errors import InvalidMemoryError, LangGraphMemoryError
from langgraph_memory.store._checks import MAX_JSON_DEPTH, MAX_NAMESPACE_PART_CHARS, MAX_NAMESPACE_PARTS, MAX_QUERY_CHARS
from langgraph.store.base import MatchCondition

ROOMS = ("rooms", "agent")


class _User:
    def __init__(self, identity: str) -> None:
        self.identity, self.is_authenticated, self.permissions = identity, True, []


def _handle(auth: Auth, action: str, identity: str, value: dict[str, Any]) -> dict[str, Any]:
    [handler] = auth._handlers[("store", action)]
    ctx = Auth.types.AuthContext(user=_User(identity), permissions=[], resource="store", action=action)
    asyncio.run(handler(ctx=ctx, value=value))
    return value


def _refused(call) -> int:
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        call()
    return refused.value.status_code


def list_namespaces(auth: Auth, face: QdrantStore, identity: str, prefix=None, suffix=None, max_depth=None):
    """``POST /store/namespaces`` as langgraph-api serves it."""
    value = _handle(auth, "list_namespaces", identity, {"namespace": prefix, "suffix": suffix,
                                                         "max_depth": max_depth, "limit": 100, "offset": 0})
    return face.list_namespaces(prefix=value["namespace"], suffix=value["suffix"], max_depth=value["max_depth"],
                                limit=value["limit"], offset=value["offset"])


def search(auth: Auth, face: QdrantStore, identity: str, prefix, **kwargs: Any):
    """``POST /store/items/search`` as langgraph-api serves it."""
    value = _handle(auth, "search", identity, {"namespace": prefix, "filter": kwargs.get("filter"), "limit": 10,
                                               "offset": 0, "query": None, "refresh_ttl": kwargs.get("refresh_ttl")})
    return face.search(value["namespace"], filter=value["filter"], limit=value["limit"], offset=value["offset"],
                       refresh_ttl=value["refresh_ttl"])


def get(auth: Auth, face: QdrantStore, identity: str, namespace, key, refresh_ttl=None):
    """``GET /store/items`` as langgraph-api serves it."""
    value = _handle(auth, "get", identity, {"namespace": namespace, "key": key, "refresh_ttl": refresh_ttl})
    return face.get(value["namespace"], value["key"], refresh_ttl=value["refresh_ttl"])


def put(auth: Auth, face: QdrantStore, identity: str, namespace, key, item, index=None):
    """``PUT /store/items`` as langgraph-api serves it."""
    value = _handle(auth, "put", identity, {"namespace": namespace, "key": key, "value": item, "index": index,
                                            "ttl": None})
    face.put(value["namespace"], value["key"], value["value"], index=value["index"])


@pytest.fixture(params=["edge", "qdrant"])
def memory_store(request, tmp_path):
    from qdrant_client import QdrantClient

    embeddings = DeterministicFakeEmbedding(size=16)
    if request.param == "edge":
        store = MemoryStore.open(tmp_path / "store", embeddings=embeddings)
    else:
        store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    yield store
    store.close()


@pytest.fixture
def served(memory_store):
    """The store API of a deployment with admin ``ops``, its face and its policy."""
    auth = Auth()
    policy = protect_store(auth, admins={"ops"}, store=memory_store)
    return auth, memory_store.as_base_store(), policy


def _deep(levels: int) -> dict[str, Any]:
    """A JSON object whose objects nest ``levels`` deep."""
    value: dict[str, Any] = {}
    node = value
    for _ in range(levels - 1):
        node["n"] = {}
        node = node["n"]
    return value


# -- listings ---------------------------------------------------------------------------------


def test_a_wildcard_listing_names_no_room_closed_to_the_user(served, memory_store):
    auth, face, _ = served
    put(auth, face, "ops", ROOMS + ("secret-team",), "plan", {"content": "the merger"})
    put(auth, face, "ops", ROOMS + ("lobby",), "hello", {"content": "welcome"})
    memory_store.set_room_members("secret-team", ["alice"], namespace=ROOMS)
    # bob may not read the closed room, so no listing may name it, wildcard or not.
    for prefix in (ROOMS + ("*",), ROOMS + ("*", "*"), ("rooms", "*"), ("*",), ("*", "agent")):
        assert _refused(lambda: list_namespaces(auth, face, "bob", prefix)) == 403, prefix
    assert _refused(lambda: list_namespaces(auth, face, "bob", ROOMS + ("*",), max_depth=3)) == 403
    assert _refused(lambda: list_namespaces(auth, face, "bob", ROOMS + ("*",), suffix=("secret-team",))) == 403
    # The open room stays readable by name; alice, for whom no room is closed, lists both.
    assert get(auth, face, "bob", ROOMS + ("lobby",), "hello").value == {"content": "welcome"}
    assert list_namespaces(auth, face, "alice", ROOMS + ("*",)) == [ROOMS + ("lobby",), ROOMS + ("secret-team",)]
    # A wildcard below one's own namespace is fine.
    put(auth, face, "bob", ("memories", "bob", "notes"), "k", {"content": "mine"})
    assert list_namespaces(auth, face, "bob", ("memories", "bob", "*")) == [("memories", "bob", "notes")]


def test_an_identity_labelled_star_lists_no_other_users_namespaces(served):
    auth, face, _ = served
    put(auth, face, "alice", ("memories", "alice", "diary"), "k", {"content": "alice's"})
    put(auth, face, "*", ("memories", "*"), "k", {"content": "star's own"})
    # Its own root ("memories", "*") reads as "every user's" in a listing: refused, never widened.
    for prefix in (None, ("memories",), ("memories", "*")):
        assert _refused(lambda: list_namespaces(auth, face, "*", prefix)) == 403, prefix
    # A search takes its prefix literally: the star user finds its own item, nobody else's.
    assert [(i.namespace, i.key) for i in search(auth, face, "*", None)] == [(("memories", "*"), "k")]
    assert _refused(lambda: get(auth, face, "*", ("memories", "alice", "diary"), "k")) == 403


labels = st.sampled_from(["memories", "agent", "rooms", "alice", "bob", "*", "team", "lobby", "a*", "x"])
UNIVERSE = [("memories", "alice"), ("memories", "alice", "x"), ("memories", "bob"), ("memories", "*"),
            ("memories", "*", "x"), ("agent", "agent"), ("agent", "other"), ROOMS, ROOMS + ("team",),
            ROOMS + ("lobby",), ROOMS + ("*",), ROOMS + ("team", "x"), ("rooms", "other", "lobby"), ("x",)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(identity=st.sampled_from(["alice", "bob", "*", "a*", "ops", "team"]),
       prefix=st.one_of(st.none(), st.lists(labels, max_size=4).map(tuple)))
def test_a_listing_never_matches_a_namespace_the_user_may_not_read(room_store, identity, prefix):
    policy = AccessPolicy(admins={"ops"}, store=room_store)
    scoped = policy.scope_prefix(identity, prefix, wildcards=True)
    if scoped is None:
        return
    condition = [MatchCondition(match_type="prefix", path=scoped)] if scoped else []
    for namespace in UNIVERSE:
        if namespace_matches(namespace, condition):
            assert policy.allows(identity, "read", namespace), (identity, prefix, scoped, namespace)


@pytest.fixture(scope="module")
def room_store(tmp_path_factory):
    store = MemoryStore.open(tmp_path_factory.mktemp("rooms") / "s", embeddings=DeterministicFakeEmbedding(size=16))
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    yield store
    store.close()


# -- reads that write -------------------------------------------------------------------------


def _expiry(face: QdrantStore, namespace, key) -> float:
    [point] = face._backend.retrieve([item_point_id(namespace, key)])
    return point.payload["expires_at"]


def test_a_reader_keeps_no_item_alive_where_they_may_not_write(memory_store):
    auth = Auth()
    protect_store(auth, admins={"ops"}, store=memory_store)
    face = QdrantStore.over(memory_store, ttl={"default_ttl": 60, "refresh_on_read": True})
    face._cache = None  # each read goes to the engine, as on a Qdrant server
    put(auth, face, "ops", ("agent", "agent"), "motto", {"content": "short-lived"})
    put(auth, face, "bob", ("memories", "bob"), "note", {"content": "his own"})
    agent_expiry, own_expiry = _expiry(face, ("agent", "agent"), "motto"), _expiry(face, ("memories", "bob"), "note")
    time.sleep(0.05)
    for refresh in (None, True):
        assert get(auth, face, "bob", ("agent", "agent"), "motto", refresh_ttl=refresh).value["content"] == "short-lived"
        assert [i.key for i in search(auth, face, "bob", ("agent", "agent"), refresh_ttl=refresh)] == ["motto"]
    assert _expiry(face, ("agent", "agent"), "motto") == agent_expiry  # bob may only read there
    get(auth, face, "bob", ("memories", "bob"), "note", refresh_ttl=True)
    assert _expiry(face, ("memories", "bob"), "note") > own_expiry  # his own: refreshed, as asked
    get(auth, face, "ops", ("agent", "agent"), "motto", refresh_ttl=True)
    assert _expiry(face, ("agent", "agent"), "motto") > agent_expiry  # the admin may write there


# -- breaking the store for everyone ------------------------------------------------------------


def test_a_value_nested_past_the_engines_decoder_is_refused_and_nothing_is_written(served, memory_store):
    auth, face, _ = served
    ns = ("memories", "bob")
    deepest = {"content": "x", "v": _deep(MAX_JSON_DEPTH - 1)}
    put(auth, face, "bob", ns, "deep", deepest, index=False)
    face._cache = None  # read back from the engine, not from what the face wrote
    assert face.get(ns, "deep").value == deepest
    for levels in (MAX_JSON_DEPTH + 1, 130, 500):
        with pytest.raises(InvalidMemoryError, match="value: nests deeper"):
            put(auth, face, "bob", ns, f"deep{levels}", {"v": _deep(levels)})
    # In a batch, the refusal of one put stores none of the others.
    with pytest.raises(InvalidMemoryError):
        face.batch([PutOp(ns, "fine", {"content": "ok"}), PutOp(ns, "bad", {"v": _deep(200)}, ttl=0.001)])
    assert face.get(ns, "fine") is None and face.get(ns, "bad") is None
    # A memory's metadata (remember, a memory's item, an import) is bounded the same way.
    before = memory_store.count(include_superseded=True)
    with pytest.raises(InvalidMemoryError, match="nests deeper"):
        memory_store.remember("bob likes tea", namespace=ns, metadata={"m": _deep(130)})
    assert memory_store.count(include_superseded=True) == before
    # What reads every record still works: the sweeper, the gardener, export.
    assert face.sweep_ttl() == 0
    assert memory_store.garden(None)["seen"] == memory_store.count()
    assert [i.key for i in face.search(())] == ["deep"]


def test_client_filter_keys_build_a_bounded_number_of_indexes(memory_store, monkeypatch):
    assert field_index_limit() == DEFAULT_FIELD_INDEXES == 32
    monkeypatch.setenv(FIELD_INDEXES_ENV, "3")
    auth = Auth()
    protect_store(auth, store=memory_store)
    face = memory_store.as_base_store()
    built: list[str] = []
    create = face._backend.create_field_index
    monkeypatch.setattr(face._backend, "create_field_index", lambda path, kind: (built.append(path), create(path, kind)))
    ns = ("memories", "bob")
    put(auth, face, "bob", ns, "a", {"content": "a", "f9": "x", "n": 1})
    put(auth, face, "bob", ns, "b", {"content": "b", "f9": "y", "n": 2})
    for i in range(12):
        assert search(auth, face, "bob", ns, filter={f"f{i}": "x"}) is not None
    assert built == ["value.f0", "value.f1", "value.f2"]
    if memory_store.backend_name == "edge":  # local mode keeps no index list
        assert {p for p in face._backend.field_indexes() if p.startswith("value.")} == set(built)
    # Unindexed fields filter exactly all the same.
    assert [i.key for i in search(auth, face, "bob", ns, filter={"f9": "x"})] == ["a"]
    assert [i.key for i in search(auth, face, "bob", ns, filter={"n": {"$gt": 1}})] == ["b"]


def test_one_item_names_a_bounded_number_of_texts_to_embed(served):
    auth, face, _ = served
    ns = ("memories", "bob")
    most = {"content": "x", "items": [f"word {i}" for i in range(MAX_ITEM_TEXTS)]}
    put(auth, face, "bob", ns, "most", most, index=["items[*]"])
    assert face.get(ns, "most").value == most
    too_many = {"content": "x", "items": [f"word {i}" for i in range(20_000)]}
    with pytest.raises(InvalidMemoryError, match=f"more than {MAX_ITEM_TEXTS} texts"):
        put(auth, face, "bob", ns, "many", too_many, index=["items[*]"])
    with pytest.raises(InvalidMemoryError):
        face.batch([PutOp(ns, "fine", {"content": "ok"}), PutOp(ns, "many", too_many, index=["content", "items[*]"])])
    assert face.get(ns, "fine") is None and face.get(ns, "many") is None
    # Repeated texts count once.
    put(auth, face, "bob", ns, "same", {"content": "x", "items": ["same"] * 5_000}, index=["items[*]"])
    assert face.get(ns, "same") is not None


# -- what found no hole ------------------------------------------------------------------------------


def test_filters_read_the_value_never_the_records_own_fields(served):
    auth, face, _ = served
    put(auth, face, "alice", ("memories", "alice"), "secret", {"content": "alice's secret"})
    put(auth, face, "bob", ("memories", "bob"), "plain", {"content": "bob's"})
    put(auth, face, "bob", ("memories", "bob"), "odd", {"content": "bob's", "status": "item", "namespace": "x"})
    for flt in ({"namespace": "memories/alice"}, {"ns_prefixes": "memories/alice"}, {"status": "live"},
                {"item_key": "secret"}, {"value_json": {"$ne": None}}, {"content": {"$ne": "zzz"}},
                {"status": "item"}, {"namespace": {"$ne": "nothing"}}):
        for prefix in (None, ("memories",), ("memories", "bob")):
            found = {(i.namespace, i.key) for i in search(auth, face, "bob", prefix, filter=flt)}
            assert all(ns == ("memories", "bob") for ns, _ in found), (flt, found)
    # Top-level names are value fields like any other: only the item holding them matches.
    assert [i.key for i in search(auth, face, "bob", None, filter={"status": "item"})] == ["odd"]
    assert search(auth, face, "bob", None, filter={"status": "live"}) == []


def test_a_search_query_is_bounded_before_it_is_embedded(served):
    auth, face, _ = served
    face.put(("memories", "bob"), "k", {"content": "tea"})
    assert [i.key for i in face.search(("memories", "bob"), query="t" * MAX_QUERY_CHARS)] == ["k"]
    with pytest.raises(InvalidMemoryError, match="query"):
        face.search(("memories", "bob"), query="t" * (MAX_QUERY_CHARS + 1))
    with pytest.raises(InvalidMemoryError, match="query"):
        face.batch([PutOp(("memories", "bob"), "new", {"content": "x"}),
                    SearchOp(("memories", "bob"), query="t" * 1_000_000)])
    assert face.get(("memories", "bob"), "new") is None


def test_an_import_file_with_metadata_nested_past_the_decoder_is_refused_whole(memory_store, tmp_path):
    import json

    from langgraph_memory.store._transfer import ImportFormatError

    kept = memory_store.remember("bob plays the cello", namespace=("memories", "bob")).memory
    memory_store.export(tmp_path / "bob.jsonl")
    header, record = (tmp_path / "bob.jsonl").read_text().splitlines()
    fresh = json.loads(record)
    fresh["id"] = "00000000-0000-4000-8000-000000000001"
    fresh["payload"]["metadata"] = {"m": _deep(130)}
    crafted = json.loads(header)
    crafted["count"] = 2
    (tmp_path / "crafted.jsonl").write_text("\n".join([json.dumps(crafted), record, json.dumps(fresh)]) + "\n")
    with pytest.raises(ImportFormatError, match="line 3: payload.metadata: nests deeper"):
        memory_store.import_(tmp_path / "crafted.jsonl")
    assert [m.id for m in memory_store.recent(namespace=("memories", "bob"), since=None)] == [kept.id]
    assert memory_store.garden(None)["seen"] == 1


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                         st.text(max_size=6))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                                  st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                           max_leaves=12)


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    from qdrant_client import QdrantClient

    embeddings = DeterministicFakeEmbedding(size=16)
    stores = [MemoryStore.open(tmp_path_factory.mktemp("faces") / "s", embeddings=embeddings),
              MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)]
    faces = [s.as_base_store() for s in stores]
    for face in faces:
        face._cache = None  # read back from the engine
    yield faces
    for store in stores:
        store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inner=json_values, wrap=st.integers(0, 140), texts=st.integers(0, 300),
       query=st.one_of(st.none(), st.text(max_size=20), st.integers(MAX_QUERY_CHARS - 2, MAX_QUERY_CHARS + 2)),
       labels=st.lists(st.sampled_from(["x", "y" * 256, "z" * 257]), max_size=18))
def test_a_put_or_search_either_works_or_is_refused_storing_nothing(faces, inner, wrap, texts, query, labels):
    value: dict[str, Any] = {"content": "x", "v": inner, "items": [f"t{i}" for i in range(texts)]}
    for _ in range(wrap):
        value = {"n": value}
    if isinstance(query, int):
        query = "q" * query
    namespace = ("memories", "bob", *labels)
    for face in faces:
        key = f"k{time.monotonic_ns()}"
        ops = [PutOp(namespace, key, value, index=["items[*]", "n.items[*]"]),
               SearchOp(("memories", "bob"), query=query, limit=1)]
        try:
            face.batch(ops)
        except LangGraphMemoryError:  # the package's typed errors
            assert face.get(namespace, key) is None
            continue
        stored = face.get(namespace, key)
        assert stored is not None and stored.value == value



def test_an_items_namespace_is_bounded_as_a_memorys(served):
    from langgraph.store.base import InvalidNamespaceError

    auth, face, _ = served
    own = ("memories", "bob")
    deepest = own + tuple(f"l{i}" for i in range(MAX_NAMESPACE_PARTS - 2))
    put(auth, face, "bob", deepest, "k", {"content": "deep but fine"})
    put(auth, face, "bob", own + ("x" * MAX_NAMESPACE_PART_CHARS,), "k", {"content": "long but fine"})
    # One request naming thousands of labels stored the keys of all their prefixes: the
    # square of the request's size on disk (10 such 15 KB requests took 180 MiB).
    for namespace in (deepest + ("one-more",), own + ("x" * (MAX_NAMESPACE_PART_CHARS + 1),),
                      own + tuple("x" for _ in range(3_000))):
        with pytest.raises(InvalidNamespaceError, match="at most|the limit"):
            put(auth, face, "bob", namespace, "k", {"content": "x"})
        with pytest.raises(InvalidNamespaceError):
            face.batch([PutOp(own, "fine", {"content": "ok"}), PutOp(namespace, "k", {"content": "x"})])
        assert face.get(own, "fine") is None
        assert face.get(namespace, "k") is None  # reads and deletes take any namespace
        face.delete(namespace, "k")
    assert face.get(deepest, "k").value == {"content": "deep but fine"}


# -- the memory browser, asking the same policy -----------------------------------------------------


def test_the_browser_shows_bob_no_closed_room_and_escapes_every_name(memory_store):
    from starlette.testclient import TestClient
    from test_ui import Identified, token

    from langgraph_memory.ui import memory_browser

    hostile = '<img src=x onerror=alert(1)>'
    memory_store.observe("hello <b>all</b>", namespace=ROOMS, room=hostile, author='"><script>alert(2)</script>')
    memory_store.set_room_members(hostile, ["bob", "<i>carol</i>"], namespace=ROOMS)
    alice = memory_store.remember("alice's secret", namespace=("memories", "alice")).memory
    app = memory_browser(memory_store, policy=AccessPolicy(admins={"ops"}, store=memory_store))
    bob = TestClient(Identified(app), headers={"x-test-user": "bob"})
    page = bob.get("/rooms").text
    assert "&lt;img src=x" in page and "<img src=x" not in page
    assert "<script>alert(2)" not in page and "<i>carol" not in page and "&lt;b&gt;all" in page
    memory_store.set_room_members("secret", ["alice"], namespace=ROOMS)
    memory_store.observe("alice's plans", namespace=ROOMS, room="secret", author="alice")
    page = bob.get("/rooms").text
    assert "plans" not in page and "secret" not in page
    for path in ("/namespace?ns=rooms/agent", "/namespace?ns=rooms/agent/secret", "/namespace?ns=memories/alice",
                 "/conversations?ns=memories/alice", "/namespace?ns=memories/%2A"):
        assert bob.get(path).status_code == 403, path
    assert bob.get(f"/memory?ns=memories/bob&id={alice.id}").status_code == 404  # her id under his name
    csrf = token(bob, "/namespace?ns=memories/bob")
    for form in ({"ns": "memories/bob", "id": alice.id}, {"ns": "memories/alice", "id": alice.id},
                 {"ns": "rooms/agent", "room": "secret"}):
        action = "/actions/digest" if "room" in form else "/actions/delete"
        assert bob.post(action, data={**form, "csrf": csrf}, follow_redirects=False).status_code in (403, 404)
    assert memory_store.get(alice.id, namespace=("memories", "alice")) is not None
