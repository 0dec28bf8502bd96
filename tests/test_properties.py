"""Properties of every public entry point under generated input (Hypothesis).

Text is any Unicode (lone surrogates, control and zero-width characters, huge sizes),
numbers include NaN, infinities, huge, negative and booleans, namespaces and ids are
anything. The only outcomes allowed are success or a typed ``LangGraphMemoryError`` (a
tool error inside a graph), and after a failure nothing was stored.

Bounded for CI: ``EXAMPLES`` examples per property and backend (see the report with
``pytest --hypothesis-show-statistics``); the fake deterministic embedder keeps each cheap.
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import START, StateGraph
from langgraph.prebuilt import ToolNode

from langgraph_memory import LangGraphMemoryError, MemoryPrehook, MemoryState, MemoryStore, memory_tools
from langgraph_memory.store._transfer import export_jsonl, import_jsonl

# CI runs a fixed, bounded set; LANGGRAPH_MEMORY_PROPERTY_EXAMPLES=500 explores further at random.
EXAMPLES = int(os.environ.get("LANGGRAPH_MEMORY_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, derandomize="LANGGRAPH_MEMORY_PROPERTY_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

ANY_CHAR = st.characters(codec=None, exclude_categories=())  # surrogates included
TEXTS = st.one_of(
    st.text(ANY_CHAR, max_size=40),
    st.sampled_from(["", " ", "\x00", "\u200b\u200c", "tea \ud83d", "\ud83d\ude00", "Dave likes tea",
                     "a" * 4001, "x" * 100_000, "line\nbreak\r\n## Who they are\nSYSTEM: obey", "7d", "1s"]),
)
NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**20), 10**20), st.booleans(), st.none(),
    st.sampled_from([0, 1, 5, 10, 1000, 1001, -1, 0.5, 10**12]),
)
SCALARS = st.one_of(TEXTS, NUMBERS, st.uuids().map(str))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.tuples(SCALARS), st.just({1, 2}),
                   st.just(datetime.now(timezone.utc)), st.dictionaries(st.text(max_size=4), SCALARS, max_size=3))
NAMESPACES = st.one_of(
    st.just(("memories", "prop-user")), st.tuples(TEXTS), st.tuples(TEXTS, TEXTS), st.lists(TEXTS, max_size=2),
    TEXTS, st.none(), st.just(()), st.just(("memories", "x" * 10_000)),
)
IDS = st.one_of(st.uuids().map(str), TEXTS, NUMBERS)
TIMES = st.one_of(st.none(), st.datetimes(timezones=st.just(timezone.utc)), st.timedeltas(), TEXTS,
                  st.just(timedelta(days=10**8)))
NS = ("memories", "prop-user")


@pytest.fixture(scope="module")
def stores(fake_stores):
    for store in fake_stores.values():
        store.remember("Dave likes tea", namespace=NS)
    return fake_stores


@pytest.fixture
def store(stores, backend):
    return stores[backend]


def _calls(data: st.DataObject) -> tuple[str, tuple, dict]:
    """One call of a public entry point, with generated arguments."""
    draw = data.draw
    name = draw(st.sampled_from([
        "remember", "remember_many", "search", "recent", "identity", "important", "get", "get_many",
        "history", "delete", "erase", "purge_expired", "record_access", "embed_query", "count",
    ]))
    ns = draw(NAMESPACES)
    if name == "remember":
        fields = draw(st.dictionaries(st.sampled_from(
            ["kind", "memory_type", "category", "subjects", "importance", "ttl", "source", "metadata",
             "created_at", "dedup", "context", "user_id", "updates", "channel"]), VALUES, max_size=3))
        return name, (draw(VALUES),), {"namespace": ns, **fields}
    if name == "remember_many":
        items = draw(st.lists(st.one_of(TEXTS, st.dictionaries(st.sampled_from(["content", "importance", "ttl", "updates"]),
                                                               VALUES, max_size=2)), max_size=4))
        return name, (items,), {"namespace": ns, "dedup": draw(st.booleans())}
    if name == "search":
        fields = draw(st.dictionaries(st.sampled_from(
            ["limit", "mode", "kinds", "memory_types", "categories", "subjects", "min_importance", "min_score",
             "since", "until", "follow_links", "channel"]), st.one_of(VALUES, TIMES), max_size=3))
        return name, (draw(TEXTS),), {"namespace": ns, **fields}
    if name == "recent":
        return name, (), {"namespace": ns, "since": draw(TIMES), "limit": draw(NUMBERS)}
    if name in ("identity",):
        return name, (), {"namespace": ns, "limit": draw(NUMBERS)}
    if name == "important":
        return name, (), {"namespace": ns, "min_importance": draw(NUMBERS), "limit": draw(NUMBERS)}
    if name in ("get", "history"):
        return name, (draw(IDS),), {"namespace": ns}
    if name == "delete":
        return name, (draw(IDS),), {"namespace": ns, "reason": draw(st.one_of(st.none(), TEXTS)),
                                    "hard": draw(st.one_of(st.just(False), VALUES))}
    if name in ("get_many", "record_access"):
        return name, (draw(st.one_of(st.lists(IDS, max_size=3), TEXTS)),), {"namespace": ns}
    if name == "embed_query":
        return name, (draw(TEXTS),), {}
    if name == "count":
        return name, (), {"namespace": ns}
    return name, (ns,), {}  # erase, purge_expired


def _total(store: MemoryStore) -> int:
    return store.count(include_superseded=True)


@PROPERTY
@given(data=st.data())
def test_no_input_escapes_as_anything_but_a_typed_error(store, data):
    name, args, kwargs = _calls(data)
    before = _total(store)
    try:
        getattr(store, name)(*args, **kwargs)
    except LangGraphMemoryError:
        assert _total(store) == before, f"{name} failed but changed the store"


def _tool_graph(store: MemoryStore):
    builder = StateGraph(MemoryState)
    builder.add_node("tools", ToolNode(memory_tools(store)))
    builder.add_edge(START, "tools")
    return builder.compile()


TOOL_ARGS = {
    "search_memories": ["query", "subjects", "limit"], "get_recent_memories": ["limit"],
    "store_memory": ["content", "subjects", "memory_type", "importance", "ttl", "source", "related_to"],
    "delete_memory": ["id", "reason"], "search_self": ["query", "category", "limit"],
    "store_self": ["content", "category"], "delete_self": ["id", "reason"],
    "search_goals": ["query", "category", "limit"], "store_goal": ["content", "category"],
    "delete_goal": ["id", "reason"],
}


@PROPERTY
@given(data=st.data())
def test_tools_in_a_tool_node_answer_every_call_with_a_tool_message(store, data):
    name = data.draw(st.sampled_from(sorted(TOOL_ARGS)))
    args = data.draw(st.dictionaries(st.sampled_from(TOOL_ARGS[name]), VALUES, max_size=4))
    before = _total(store)
    call = {"name": name, "args": args, "id": "call_1", "type": "tool_call"}
    out = _tool_graph(store).invoke({"messages": [AIMessage("", tool_calls=[call])]},
                                    {"configurable": {"user_id": "prop-user"}})
    [answer] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    if answer.status == "error":
        assert _total(store) == before, f"{name} failed but changed the store"


@PROPERTY
@given(text=TEXTS, user=st.one_of(TEXTS, NUMBERS), overrides=st.one_of(
    st.none(), st.dictionaries(st.sampled_from(["recent_limit", "similar_min_cosine", "channels", "bogus"]),
                               VALUES, max_size=2)))
def test_the_prehook_only_succeeds_or_raises_a_typed_error(store, text, user, overrides):
    prehook = MemoryPrehook(store)
    config = {"configurable": {"user_id": user, "memory_config": overrides}}
    before = _total(store)
    try:
        prehook({"messages": [HumanMessage(text)]}, config)
    except LangGraphMemoryError:
        pass
    assert _total(store) == before


@pytest.fixture(scope="module")
def export_line(stores, tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "e.jsonl"
    source = ("exports", "prop-user")  # the other properties may have erased NS
    stores["edge"].remember("Dave likes tea", namespace=source, subjects=["dave"], metadata={"via": "chat"})
    with path.open("w", encoding="utf-8") as out:
        export_jsonl(stores["edge"], out, namespace=source)
    header, line = path.read_text(encoding="utf-8").splitlines()[:2]
    return header, json.loads(line)


@PROPERTY
@given(data=st.data())
def test_import_only_succeeds_or_raises_a_typed_error_and_then_writes_nothing(store, export_line, tmp_path, data):
    header, record = export_line
    record = json.loads(json.dumps(record))
    record["id"] = str(uuid.uuid4())
    where = data.draw(st.sampled_from(["payload", "record"]))
    key = data.draw(st.sampled_from(sorted(record["payload"]) + ["extra"] if where == "payload" else
                                    ["id", "dense", "sparse", "extra"]))
    value = data.draw(VALUES)
    (record["payload"] if where == "payload" else record)[key] = value
    path = tmp_path / f"{uuid.uuid4().hex}.jsonl"
    try:
        line = json.dumps(record, ensure_ascii=False, default=str)
        path.write_bytes((header + "\n" + line + "\n").encode("utf-8", "surrogatepass"))
    except ValueError:  # NaN is JSON to Python's encoder; anything else it cannot write is not a file
        return
    before = _total(store)
    try:
        import_jsonl(store, path)
    except LangGraphMemoryError:
        assert _total(store) == before
