"""One engine, two faces: MemoryStore and its BaseStore (``as_base_store``), on both backends.

Memories written by ``remember`` are items of their namespace keyed by memory id; items put
through the BaseStore face stay out of memory reads unless the app opts in; deletes and
updates cross faces; scopes stay strict. Then LangGraph's own uses: ``compile(store=...)``
with ``runtime.store`` in a node, and LangMem's tools over it. Bad input fails as it does in
LangGraph's stores and stores nothing.
"""

from __future__ import annotations

import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.base import InvalidNamespaceError, PutOp

from langgraph_memory import LangGraphMemoryError, MemoryStore, QdrantStore, StoreLockedError, shared_store
from langgraph_memory.base_store import InvalidEmbeddingError, InvalidItemValueError
from langgraph_memory.testing import ScriptedChatModel, tool_call
from tests.base_store_support import CharacterEmbeddings, open_store

ALICE, BOB = ("memories", "alice"), ("memories", "bob")


@pytest.fixture
def memories(make_store):
    return make_store()


@pytest.fixture
def items(memories):
    return memories.as_base_store()


def test_memories_are_items_keyed_by_id(memories, items):
    lina = memories.remember("my sister Lina lives in Lyon", namespace=ALICE, subjects=["lina"]).memory
    item = items.get(ALICE, lina.id)
    assert item.key == lina.id and item.namespace == ALICE
    assert item.value["content"] == "my sister Lina lives in Lyon" and item.value["subjects"] == ["lina"]
    assert item.created_at == lina.created_at and item.updated_at == lina.updated_at
    assert [i.key for i in items.search(ALICE)] == [lina.id]
    found = items.search(("memories",), query="where does my sister live?")
    assert found[0].key == lina.id and 0 < found[0].score <= 1
    assert items.list_namespaces(prefix=("memories",)) == [ALICE]
    assert items.search(("memories",), filter={"kind": "fact"})[0].key == lina.id


def test_items_stay_out_of_memory_reads_unless_opted_in(memories, items):
    items.put(ALICE, "note", {"content": "Alice likes sailing"})
    assert items.get(ALICE, "note").value == {"content": "Alice likes sailing"}
    assert memories.search("sailing", namespace=ALICE) == []
    assert memories.recent(namespace=ALICE, since=None) == [] and memories.count(namespace=ALICE) == 0
    assert memories.count(include_superseded=True) == 0 and list(memories.iter_points()) == []  # nor exports

    opted = memories.as_base_store(memory_field="content")
    opted.put(ALICE, "boat", {"content": "Alice owns a red boat", "size": 7})
    [hit] = memories.search("red boat", namespace=ALICE)
    assert hit.memory.content == "Alice owns a red boat" and hit.memory.source == "base_store"
    assert opted.get(ALICE, "boat").value == {"content": "Alice owns a red boat", "size": 7}
    assert {i.key for i in items.search(ALICE)} == {"note", "boat"}
    items.delete(ALICE, "boat")
    assert memories.search("red boat", namespace=ALICE) == []


def test_deletes_and_updates_cross_faces(memories, items):
    first = memories.remember("I play the cello", namespace=ALICE).memory
    second = memories.remember("my cat is called Miso", namespace=ALICE).memory
    memories.delete(first.id, namespace=ALICE)
    assert items.get(ALICE, first.id) is None
    items.delete(ALICE, second.id)
    assert memories.get(second.id, namespace=ALICE) is None

    third = memories.remember("I live in Nantes", namespace=ALICE, memory_type="identity").memory
    items.put(ALICE, third.id, {"content": "I live in Rennes"})
    updated = memories.get(third.id, namespace=ALICE)
    assert updated.content == "I live in Rennes" and updated.memory_type == "identity"
    assert updated.created_at == third.created_at and updated.updated_at > third.updated_at
    assert memories.search("Rennes", namespace=ALICE)[0].memory.id == third.id
    with pytest.raises(LangGraphMemoryError):  # a memory stays a memory: it needs content
        items.put(ALICE, third.id, {"text": "no content"})
    assert memories.get(third.id, namespace=ALICE).content == "I live in Rennes"


def test_scopes_stay_strict(memories, items):
    secret = memories.remember("my PIN is 4321", namespace=ALICE).memory
    assert items.get(BOB, secret.id) is None
    assert items.search(BOB) == [] and items.search(BOB, query="PIN") == []
    items.put(BOB, secret.id, {"content": "bob's own note"})  # bob's item, not alice's memory
    items.delete(BOB, secret.id)
    assert memories.get(secret.id, namespace=ALICE).content == "my PIN is 4321"
    assert items.list_namespaces() == [ALICE]


def test_the_embedded_path_opens_once_per_process(tmp_path, embeddings):
    store = shared_store(tmp_path / "m", embeddings=embeddings)
    try:
        assert shared_store(tmp_path / "m") is store
        with pytest.raises(StoreLockedError):
            QdrantStore.open(tmp_path / "m")
        face = store.as_base_store()
        face.put(ALICE, "k", {"content": "x"})
        face.close()  # the face never closes the memory store's engine
        assert store.as_base_store().get(ALICE, "k").value == {"content": "x"}
    finally:
        store.close()
    assert shared_store(tmp_path / "m", embeddings=embeddings) is not store
    shared_store(tmp_path / "m").close()


def test_compile_with_store_and_runtime_store(memories, items):
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.runtime import Runtime

    def node(state: MessagesState, runtime: Runtime) -> dict:
        runtime.store.put(ALICE, "last", {"content": state["messages"][-1].content})
        found = runtime.store.search(ALICE, query=state["messages"][-1].content, limit=3)
        return {"messages": [AIMessage(", ".join(i.value["content"] for i in found))]}

    builder = StateGraph(MessagesState)
    builder.add_node("remember", node)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(store=items)
    memories.remember("Alice likes green tea", namespace=ALICE)
    out = graph.invoke({"messages": [HumanMessage("tea")]})
    assert set(out["messages"][-1].content.split(", ")) == {"tea", "Alice likes green tea"}


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_langmem_tools_create_update_search_delete(memories, items, mode):
    from langchain.agents import create_agent
    from langmem import create_manage_memory_tool, create_search_memory_tool

    namespace = ("memories", "{user_id}")
    model = ScriptedChatModel(responses=[])
    agent = create_agent(model, tools=[create_manage_memory_tool(namespace), create_search_memory_tool(namespace)],
                         store=items)
    config = {"configurable": {"user_id": "alice"}}

    async def turn(*calls):
        model.say(AIMessage("", tool_calls=[tool_call(name, args) for name, args in calls]), "done")
        state = {"messages": [HumanMessage("go")]}
        out = agent.invoke(state, config) if mode == "sync" else await agent.ainvoke(state, config)
        return [m.content for m in out["messages"] if m.type == "tool"]

    [created] = await turn(("manage_memory", {"action": "create", "content": "Alice prefers tea"}))
    key = created.split()[-1]
    assert items.get(ALICE, key).value["content"] == "Alice prefers tea"
    await turn(("manage_memory", {"action": "update", "id": key, "content": "Alice prefers green tea"}))
    assert items.get(ALICE, key).value["content"] == "Alice prefers green tea"
    [found] = await turn(("search_memory", {"query": "what does Alice drink?"}))
    assert key in found and "green tea" in found
    assert items.search(BOB) == [] and memories.search("tea", namespace=ALICE) == []  # an item, not a memory
    await turn(("manage_memory", {"action": "delete", "id": key}))
    assert items.get(ALICE, key) is None and items.search(ALICE) == []


# -- bad input: as LangGraph's stores fail, nothing stored -----------------------------------


def test_bad_input_fails_as_langgraph_stores_and_stores_nothing(backend, tmp_path):
    emb = CharacterEmbeddings(dims=16)
    store = open_store(backend, tmp_path / "bad", index={"dims": 16, "embed": emb})
    try:
        for namespace in [(), ("a", ""), ("a", "b.c"), ("a", 3), ("langgraph", "x")]:
            with pytest.raises(InvalidNamespaceError):
                store.put(namespace, "k", {"v": 1})
        for namespace in [(), ("a", ""), ("a", "b.c")]:
            with pytest.raises(InvalidNamespaceError) as caught:
                store.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(namespace, "k", {"v": 1})])
            assert isinstance(caught.value, LangGraphMemoryError)
        with pytest.raises(TypeError) as caught:
            store.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(("ok",), "k2", {"when": object()})])
        assert isinstance(caught.value, InvalidItemValueError)
        with pytest.raises(TypeError):
            store.put(("ok",), "k", {"nan": float("nan")} | {"x": {1, 2}})
        assert store.search(()) == [] and store.list_namespaces() == []

        wrong = open_store(backend, tmp_path / "bad2", index={"dims": 8, "embed": emb}) if backend == "qdrant" else None
        target = wrong or QdrantStore(_backend=store._backend, index={"dims": 16, "embed": CharacterEmbeddings(dims=8)})
        with pytest.raises(ValueError) as caught:
            target.batch([PutOp(("ok",), "k", {"text": "a"}), PutOp(("ok",), "k2", {"text": "b"})])
        assert isinstance(caught.value, InvalidEmbeddingError)
        assert target.search(()) == [] and store.search(()) == []
        store.put(("ok",), "k", {"v": 1})
        assert [i.key for i in store.search(())] == ["k"]
    finally:
        store.close()


def test_an_unknown_memory_id_is_an_ordinary_key(items):
    key = str(uuid.uuid4())
    items.put(ALICE, key, {"content": "an item under a uuid key"})
    assert items.get(ALICE, key).value == {"content": "an item under a uuid key"}
    items.put(ALICE, key, None)
    assert items.get(ALICE, key) is None


def test_memory_store_opened_twice_in_one_process_is_refused(tmp_path, embeddings):
    with MemoryStore.open(tmp_path / "x", embeddings=embeddings):
        with pytest.raises(StoreLockedError):
            QdrantStore.open(tmp_path / "x", index={"dims": 384, "embed": embeddings})


def test_an_update_through_the_base_store_keeps_the_memorys_links_and_channel(memories, items):
    home = memories.remember("I live in Nantes", namespace=ALICE, channel="family").memory
    job = memories.remember("I work at the Nantes harbour", namespace=ALICE).memory
    memories.link(job.id, home.id, "related_to", namespace=ALICE)
    memories.link(home.id, job.id, "caused_by", namespace=ALICE)
    before = {(link.source_id, link.relation, link.target_id) for link in memories.links(home.id, namespace=ALICE)}
    assert len(before) == 2
    items.put(ALICE, home.id, {"content": "I live in Rennes"})
    updated = memories.get(home.id, namespace=ALICE)
    assert updated.content == "I live in Rennes" and updated.channel == "family"
    assert {(link.source_id, link.relation, link.target_id)
            for link in memories.links(home.id, namespace=ALICE)} == before
    # Still found in its channel, and still out of another channel's reads.
    assert [m.id for m in memories.recent(namespace=ALICE, since=None, channel="family")] == [home.id]
    assert home.id not in {m.id for m in memories.recent(namespace=ALICE, since=None, channel="work")}
