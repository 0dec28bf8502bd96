"""An exact JSON copy (``metadata_json`` of a memory, ``value_json`` of a BaseStore item),
written beside a value holding floats, is a payload field like any other: a record written
by hand, by an older or foreign writer, or damaged may hold anything there. One such
record must not fail every read that meets it: every reader (get, search, recent, the
BaseStore face, the memory browser, export and its import) falls back to the engine's copy."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import DeterministicFakeEmbedding

from langgraph_memory import MemoryStore
from langgraph_memory.base_store._items import item_point_id
from test_store_api_attacks import memory_store  # noqa: F401  (fixture: both engines)

NS = ("memories", "alice")
THIRD = 0.1 / 3
BROKEN = ["{not json", "[1, 2]", "null", '"text"', "5", '{"a": NaN}', '{"a": Infinity}', "[" * 100_000,
          5, ["x"], {"a": 1}, True]


def _engine_close(metadata: dict, expected: dict) -> bool:
    return metadata.keys() == expected.keys() and all(abs(metadata[k] - expected[k]) <= 1e-15 for k in expected)


@pytest.mark.parametrize("broken", BROKEN, ids=lambda b: repr(b)[:20])
def test_a_memory_whose_exact_copy_is_broken_reads_as_its_engine_copy_everywhere(memory_store, broken, tmp_path):
    from starlette.testclient import TestClient
    from test_ui import Identified

    from langgraph_memory.auth import AccessPolicy
    from langgraph_memory.ui import memory_browser

    store = memory_store
    memory = store.remember("Alice plays the cello", namespace=NS, metadata={"score": THIRD}).memory
    store.remember("Alice lives in Lyon", namespace=NS)
    store._backend.set_payload([memory.id], {"metadata_json": broken})

    assert _engine_close(store.get(memory.id, namespace=NS).metadata, {"score": THIRD})
    assert [h.memory.id for h in store.search("cello", namespace=NS, limit=5)]
    assert len(store.recent(namespace=NS, since=None)) == 2
    face = store.as_base_store()
    face._cache = None  # read back from the engine
    assert _engine_close(face.get(NS, memory.id).value["metadata"], {"score": THIRD})
    assert len(face.search(NS, limit=10)) == 2

    app = memory_browser(store, policy=AccessPolicy(admins={"ops"}, store=store))
    ops = TestClient(Identified(app), headers={"x-test-user": "ops"})
    for path in ("/namespace?ns=memories/alice", f"/memory?ns=memories/alice&id={memory.id}"):
        page = ops.get(path)
        assert page.status_code == 200 and "cello" in page.text, path

    store.export(tmp_path / "all.jsonl")
    with MemoryStore.open(tmp_path / "restored", embeddings=DeterministicFakeEmbedding(size=16)) as restored:
        restored.import_(tmp_path / "all.jsonl")
        assert _engine_close(restored.get(memory.id, namespace=NS).metadata, {"score": THIRD})


@pytest.mark.parametrize("broken", BROKEN, ids=lambda b: repr(b)[:20])
def test_an_item_whose_exact_copy_is_broken_reads_as_its_engine_copy(memory_store, broken):
    face = memory_store.as_base_store()
    face.put(("memories", "alice", "notes"), "k", {"score": THIRD, "text": "cello"})
    face.put(("memories", "alice", "notes"), "plain", {"text": "lyon"})
    [point] = face._backend.retrieve([item_point_id(("memories", "alice", "notes"), "k")])
    assert point.payload["value_json"] is not None  # the float made an exact copy
    face._backend.set_payload([point.id], {"value_json": broken})
    face._cache = None  # read back from the engine
    item = face.get(("memories", "alice", "notes"), "k")
    assert item.value["text"] == "cello" and abs(item.value["score"] - THIRD) <= 1e-15
    assert {i.key for i in face.search(("memories", "alice"), limit=10)} == {"k", "plain"}
    assert face.list_namespaces(prefix=("memories",)) == [("memories", "alice", "notes")]


@settings(max_examples=300)
@given(exact=st.one_of(st.text(max_size=30), st.none(), st.integers(), st.lists(st.text(max_size=3), max_size=2),
                       st.dictionaries(st.text(max_size=3), st.integers(), max_size=2).map(json.dumps),
                       st.sampled_from(["[" * 5000, '{"a": -Infinity}', '{"a": [1, {"b": 2.5}]}'])),
       engine=st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.text(max_size=3)))
def test_any_stored_copy_reads_as_a_json_object_never_an_error(exact, engine) -> None:
    from langgraph_memory.store._checks import stored_object

    value = stored_object(exact, engine)
    assert type(value) is dict
    try:
        parsed = json.loads(exact) if isinstance(exact, str) else None
    except (ValueError, RecursionError):
        parsed = None
    if type(parsed) is dict and _plain(parsed):
        assert value == parsed
    else:
        assert value == (engine if isinstance(engine, dict) else {})


def _plain(value: dict) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:  # NaN or an infinity: no plain JSON holds one
        return False
    return True
