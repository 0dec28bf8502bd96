"""The memory tools through a ToolNode, streaming on both backends, and the scope rule."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agent_harness import build_agent, config, run
from langgraph_memory import MemoryStore, build_memory_graph
from langgraph_memory.agent.hooks import MemoryScopeError
from langgraph_memory.testing import ScriptedChatModel, tool_call

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def shared_store(tmp_path_factory, embeddings):
    with MemoryStore.open(tmp_path_factory.mktemp("tools") / "memory", embeddings=embeddings) as s:
        yield s


@pytest.fixture
def user() -> str:
    return f"eko-{uuid.uuid4().hex[:8]}"


def tool_results(out) -> dict[str, ToolMessage]:
    return {m.name: m for m in out["messages"] if isinstance(m, ToolMessage)}


def test_every_tool_works_through_a_tool_node(shared_store, user):
    ns = ("memories", user)
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[
            tool_call("store_memory", {"content": "David is Mickael's brother", "subjects": ["david", "mickael"],
                                       "memory_type": "fact", "importance": 0.7}),
            tool_call("store_memory", {"content": "Mickael is sick", "subjects": ["mickael"], "ttl": "7d"}),
            tool_call("store_self", {"content": "I can read the Lobby", "category": "capability"}),
            tool_call("store_goal", {"content": "I would like to search the web", "category": "capability_request"}),
        ]),
        AIMessage("", tool_calls=[
            tool_call("search_memories", {"query": "who is David", "subjects": ["david"]}),
            tool_call("get_recent_memories", {"limit": 5}),
            tool_call("search_self", {"query": "what can I do", "category": "capability"}),
            tool_call("search_goals", {"query": "web"}),
        ]),
        "Done.",
    )
    agent = build_agent("graph", shared_store, model)
    cfg = config(user)
    cfg["configurable"]["agent_id"] = user  # self and goal memories are the agent's, shared by its users
    agent_ns = ("agent", user)
    out = run(agent, "sync", "Let me tell you things.", cfg)
    results = tool_results(out)
    assert "David is Mickael's brother" in results["search_memories"].content
    assert "Mickael is sick" not in results["search_memories"].content  # subject filter
    recent = results["get_recent_memories"].content
    assert "Mickael is sick" in recent and "expires" in recent
    assert "[capability]" in results["search_self"].content and "I can read the Lobby" in results["search_self"].content
    assert "I would like to search the web" in results["search_goals"].content
    assert "I can read the Lobby" not in results["search_goals"].content  # kinds stay apart

    fact = shared_store.search("David brother", namespace=ns, kinds="fact", limit=1)[0].memory
    assert shared_store.search("Lobby", namespace=ns, kinds="self") == []  # not the user's
    me = shared_store.search("Lobby", namespace=agent_ns, kinds="self", limit=1)[0].memory
    goal = shared_store.search("web", namespace=agent_ns, kinds="goal", limit=1)[0].memory
    model.say(
        AIMessage("", tool_calls=[
            tool_call("delete_memory", {"id": fact.id, "reason": "the user asked"}),
            tool_call("delete_self", {"id": me.id, "reason": "no longer true"}),
            tool_call("delete_goal", {"id": goal.id, "reason": "achieved"}),
            tool_call("delete_goal", {"id": fact.id, "reason": "wrong kind"}),
        ]),
        "Forgotten.",
    )
    out = run(agent, "sync", "Forget all that.", cfg)
    deletions = [m for m in out["messages"] if isinstance(m, ToolMessage) and m.name.startswith("delete_")][-4:]
    assert [m.status for m in deletions] == ["success", "success", "success", "error"]
    for memory, where in ((fact, ns), (me, agent_ns), (goal, agent_ns)):
        assert shared_store.get(memory.id, namespace=where) is None
    assert out["memory"]["context"] == [] or all(e["id"] not in {fact.id, me.id, goal.id} for e in out["memory"]["context"])


@pytest.mark.parametrize("kind", ["graph", "middleware", "react"])
def test_bad_tool_arguments_become_tool_errors_and_the_graph_goes_on(shared_store, user, kind):
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[
            tool_call("store_self", {"content": "I am a wizard", "category": "wizardry"}),
            tool_call("store_memory", {"content": "Mickael is tired", "ttl": "7x"}),
            tool_call("store_memory", {"content": "   "}),
        ]),
        "Sorry, let me try again later.",
    )
    out = run(build_agent(kind, shared_store, model), "sync", "Remember this", config(user))
    errors = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert [m.status for m in errors] == ["error", "error", "error"]
    assert "category" in errors[0].content
    assert "ttl" in errors[1].content and "7x" in errors[1].content
    assert "content" in errors[2].content
    assert len(model.received) == 2  # the next model call happened
    assert out["messages"][-1].content == "Sorry, let me try again later."
    assert shared_store.count(namespace=("memories", user)) == 0


@pytest.mark.parametrize("mode", ["invoke", "stream", "ainvoke", "astream"])
def test_all_call_styles_work_on_both_backends(make_store, backend, mode):
    store = make_store()
    store.remember("The user's name is Mickael", namespace=("memories", "mickael"), memory_type="identity")
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Mickael likes jazz", "subjects": ["music"]})]),
        "Noted, you like jazz.",
    )
    graph = build_memory_graph(model, store, background_stats=False)
    cfg = {"configurable": {"user_id": "mickael"}}
    payload = {"messages": [HumanMessage("hello, I like jazz")]}
    if mode == "invoke":
        final = graph.invoke(payload, cfg)
    elif mode == "ainvoke":
        final = asyncio.run(graph.ainvoke(payload, cfg))
    else:
        async def collect():
            return [part async for part in graph.astream(payload, cfg, stream_mode=["values", "messages"])]

        parts = list(graph.stream(payload, cfg, stream_mode=["values", "messages"])) if mode == "stream" else asyncio.run(collect())
        values = [chunk for name, chunk in parts if name == "values"]
        streamed = "".join(
            str(message.content) for name, (message, meta) in (p for p in parts if p[0] == "messages")
            if meta.get("langgraph_node") == "agent"
        )
        assert "Noted, you like jazz." in streamed
        final = values[-1]
    assert final["messages"][-1].content == "Noted, you like jazz."
    assert "The user's name is Mickael" in model.received[0][0].content
    assert store.search("jazz", namespace=("memories", "mickael"), limit=1)[0].memory.content == "Mickael likes jazz"


def test_post_hook_records_injections_in_the_background(shared_store, user):
    ns = ("memories", user)
    memory = shared_store.remember("The user's name is Eko's friend", namespace=ns, memory_type="identity").memory
    model = ScriptedChatModel(responses=[]).say("hi", "hi again")
    graph = build_memory_graph(model, shared_store, background_stats=True)
    graph.invoke({"messages": [HumanMessage("hello")]}, {"configurable": {"user_id": user}})
    graph.memory_posthook.wait(timeout=30)
    stored = shared_store.get(memory.id, namespace=ns)
    assert stored.injection_count == 1 and stored.access_count == 1 and stored.last_accessed_at is not None


def test_without_a_user_the_graph_refuses_clearly(shared_store):
    graph = build_memory_graph(ScriptedChatModel(responses=[]).say("hi"), shared_store)
    with pytest.raises(MemoryScopeError, match="user_id"):
        graph.invoke({"messages": [HumanMessage("hello")]})


def test_the_user_can_come_from_the_runtime_context(shared_store, user):
    shared_store.remember("The user's name is Zoé", namespace=("memories", user), memory_type="identity")
    model = ScriptedChatModel(responses=[]).say("Salut Zoé")
    graph = build_memory_graph(model, shared_store, background_stats=False)
    graph.invoke({"messages": [HumanMessage("hello")]}, context={"user_id": user})
    assert "Zoé" in model.received[0][0].content


def _store_with_ttl(store, user: str, ttl) -> ToolMessage:
    from langgraph.graph import START, StateGraph
    from langgraph.prebuilt import ToolNode

    from langgraph_memory import MemoryState, memory_tools

    builder = StateGraph(MemoryState)
    builder.add_node("tools", ToolNode(memory_tools(store)))
    builder.add_edge(START, "tools")
    call = tool_call("store_memory", {"content": "Mickael is sick", "ttl": ttl})
    out = builder.compile().invoke({"messages": [AIMessage("", tool_calls=[call])]}, config(user))
    [answer] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    return answer


@pytest.mark.parametrize("ttl, days", [("7 days", 7), ("1 week", 7), ("2 weeks", 14), ("P7D", 7), ("3 mois", 90),
                                       ("7d", 7)])
def test_the_store_tool_takes_a_ttl_as_the_digest_does(fake_stores, ttl, days):
    store, user = fake_stores["edge"], f"ttl-{uuid.uuid4().hex[:8]}"
    before = datetime.now(timezone.utc)
    answer = _store_with_ttl(store, user, ttl)
    assert answer.status == "success", answer.content
    [memory] = store.recent(namespace=("memories", user), since=None)
    assert timedelta(days=days) <= memory.expires_at - before <= timedelta(days=days, minutes=5)


def test_an_unreadable_ttl_is_a_tool_error_and_stores_nothing(fake_stores):
    store, user = fake_stores["edge"], f"ttl-{uuid.uuid4().hex[:8]}"
    for ttl in ("in a while", "-3 days", "500 years", "0d"):
        answer = _store_with_ttl(store, user, ttl)
        assert answer.status == "error" and "ttl" in answer.content and "Nothing was stored" in answer.content
    assert store.count(namespace=("memories", user)) == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ttl=st.one_of(st.text(max_size=40), st.from_regex(r"\d{1,4} ?(days?|weeks?|mois|semaines?|h|d|w)", fullmatch=True)))
def test_any_ttl_through_the_tool_stores_a_bounded_expiry_or_nothing(fake_stores, ttl):
    store, user = fake_stores["qdrant"], f"ttl-{uuid.uuid4().hex[:8]}"
    answer = _store_with_ttl(store, user, ttl)
    stored = store.recent(namespace=("memories", user), since=None)
    if answer.status == "error":
        assert stored == []
        return
    [memory] = stored
    assert memory.expires_at is None or memory.created_at < memory.expires_at <= memory.created_at + timedelta(days=36500)
