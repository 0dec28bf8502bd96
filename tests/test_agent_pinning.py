"""On a server with auth, ``agent_id`` is a client value: a run may name only the agents
the app pinned (``default_agent_id`` plus ``agent_ids``), and the store API reaches only
their shared and room namespaces. Another agent id raises ``AgentScopeError`` and nothing
is read or stored."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import AccessPolicy, namespace_label
from langgraph_memory.agent.identity import AgentScopeError, with_agent_default
from langgraph_memory.agent.scope import resolve_namespace

AGENT_IDS = st.one_of(st.sampled_from(["agent", "pet", "pet.v2", "other", "", " "]), st.text(max_size=10))
AUTH = {"configurable": {"langgraph_auth_user_id": "bob"}}


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(sent=AGENT_IDS, where=st.sampled_from(["context", "configurable"]),
       pinned=st.one_of(st.none(), st.lists(st.sampled_from(["pet", "pet.v2", "zoo"]), max_size=2)))
def test_a_run_on_a_server_names_only_a_pinned_agent(sent: str, where: str, pinned) -> None:
    config = {"configurable": {**AUTH["configurable"], **({"agent_id": sent} if where == "configurable" else {})}}
    context = {"agent_id": sent} if where == "context" else None
    allowed = {"agent", *(pinned or ())}
    try:
        filled = with_agent_default(config, context, "agent", pinned)
    except AgentScopeError:
        assert sent not in allowed
        return
    assert sent in allowed
    assert resolve_namespace(("agent", "{agent_id}"), **filled) == ("agent", namespace_label(sent))


@settings(max_examples=100)
@given(sent=AGENT_IDS)
def test_without_auth_the_apps_own_agent_id_is_trusted_unless_it_pinned_some(sent: str) -> None:
    filled = with_agent_default(None, {"agent_id": sent}, "agent")  # an embedded app: unchanged
    assert filled["context"] == {"agent_id": sent}
    if sent not in ("agent", "pet"):
        with pytest.raises(AgentScopeError):
            with_agent_default(None, {"agent_id": sent}, "agent", ["pet"])


def test_nothing_named_is_the_default_agent() -> None:
    assert resolve_namespace(("agent", "{agent_id}"), **with_agent_default(AUTH, {}, "pet")) == ("agent", "pet")


@pytest.mark.parametrize("bad", [dict(default_agent_id=""), dict(default_agent_id=3), dict(agent_ids="pet"),
                                 dict(agent_ids=["pet", ""])])
def test_a_slip_in_the_pinned_agents_fails_when_the_graph_is_built(bad, fake_stores) -> None:
    from langgraph_memory import MemoryMiddleware

    with pytest.raises(ValueError):
        MemoryMiddleware(fake_stores["qdrant"], garden_daily=False, **bad)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(agent=AGENT_IDS, rest=st.lists(st.text(min_size=1, max_size=4), max_size=2),
       action=st.sampled_from(["read", "write"]))
def test_the_store_api_reaches_only_the_pinned_agents_namespaces(agent: str, rest: list[str], action) -> None:
    policy = AccessPolicy(agent_ids={"agent", "pet.v2"}, agent_writes=True)
    try:
        label = namespace_label(agent)
    except ValueError:
        return
    granted = policy.allows("bob", action, ("agent", label, *rest))
    assert granted == (agent in ("agent", "pet.v2"))
    assert policy.allows("root", action, ("agent", label, *rest)) == granted  # one rule for every user


def test_the_default_policy_is_the_default_agents(store) -> None:
    store.set_room_members("team", ["bob"], namespace=("rooms", "other"))
    policy = AccessPolicy(store=store)
    assert policy.allows("bob", "read", ("agent", "agent"))
    assert not policy.allows("bob", "read", ("agent", "other"))
    assert policy.allows("bob", "read", ("rooms", "agent", "lobby"))
    assert not policy.allows("bob", "read", ("rooms", "other", "team"))  # even as a member: not this app's agent
    assert AccessPolicy(store=store, agent_ids=["other"]).allows("bob", "read", ("rooms", "other", "team"))


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware", "react"])
def test_a_client_naming_another_agent_is_refused_and_nothing_is_stored(kind, make_store) -> None:
    from langchain_core.messages import AIMessage

    from agent_harness import build_agent, config, run
    from langgraph_memory.testing import ScriptedChatModel, tool_call

    store = make_store()
    store.remember("I am Zorblax, the secret agent of another app", namespace=("agent", "other"), kind="self", category="context")

    def turn(agent_id: str | None, pinned=None):
        model = ScriptedChatModel(responses=[]).say(
            AIMessage("", tool_calls=[tool_call("store_self", {"content": "I speak Klingon", "category": "context"})]),
            AIMessage("", tool_calls=[tool_call("search_self", {"query": "secret agent"})]),
            "Done.",
        )
        agent = build_agent(kind, store, model, agent_ids=pinned)
        cfg = config("bob")
        cfg["configurable"]["langgraph_auth_user_id"] = "bob"
        if agent_id is not None:
            cfg["configurable"]["agent_id"] = agent_id
        return model, run(agent, "sync", "Who are you?", cfg)

    with pytest.raises(AgentScopeError):
        turn("other")
    assert [m.content for m in store.recent(namespace=("agent", "other"), since=None, kinds=("self",))] == [
        "I am Zorblax, the secret agent of another app"]
    assert store.count(namespace=("agent", "agent")) == 0
    # The default agent, and an agent the app pinned, work as before.
    model, _ = turn(None)
    assert "Zorblax" not in str(model.received)
    assert [m.content for m in store.recent(namespace=("agent", "agent"), since=None, kinds=("self",))] == [
        "I speak Klingon"]
    model, _ = turn("other", pinned=["other"])
    assert "Zorblax" in str(model.received)
