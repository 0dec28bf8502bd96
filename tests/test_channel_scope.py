"""Channel scope (seed 001's ``channel_scope``): memories carry the channel they were
learned in; with the setting on, a run naming a ``channel_id`` sees the user's memories of
no channel plus that channel's, and its recent channel only that channel's."""

from __future__ import annotations

import pytest

from langgraph_memory import InvalidMemoryError
from langgraph_memory.agent.injection import InjectionConfig, select_memories

pytestmark = pytest.mark.integration

NS = ("memories", "chan-user")


def _seed(store):
    general = store.remember("Nina prefers green tea", namespace=NS).memory
    work = store.remember("Nina's tea order for the team is due Friday", namespace=NS, channel="work").memory
    home = store.remember("Nina's tea kettle at home is broken", namespace=NS, channel="home").memory
    return general, work, home


def test_store_reads_take_a_channel(store):
    general, work, home = _seed(store)
    assert work.channel == "work" and store.get(work.id, namespace=NS).channel == "work"
    everything = {h.memory.id for h in store.search("Nina tea", namespace=NS)}
    assert everything == {general.id, work.id, home.id}
    scoped = {h.memory.id for h in store.search("Nina tea", namespace=NS, channel="work")}
    assert scoped == {general.id, work.id}
    assert [m.id for m in store.recent(namespace=NS, channel="work")] == [work.id]
    with pytest.raises(InvalidMemoryError):
        store.search("tea", namespace=NS, channel="")
    with pytest.raises(InvalidMemoryError):
        store.remember("Nina likes oolong", namespace=NS, channel="\x00")


def test_the_prehook_scopes_to_the_runs_channel(store):
    general, work, home = _seed(store)
    scoped = InjectionConfig(channel_scope=True, channel="work")
    chosen = {c.memory.id: c.channel for c in select_memories(store, namespace=NS, query="tea", config=scoped).chosen}
    assert home.id not in chosen and general.id in chosen and work.id in chosen
    recent = {c.memory.id for c in select_memories(
        store, namespace=NS, query=None, config=scoped.replace(channels=("recent",))).chosen}
    assert recent == {work.id}  # the channel filter in the recent channel
    # Off (the default), the channel changes nothing.
    off = {c.memory.id for c in select_memories(store, namespace=NS, query="tea", config=InjectionConfig(channel="work")).chosen}
    assert {general.id, work.id, home.id} <= off


def test_a_run_stores_and_reads_with_its_channel(make_store):
    from langchain_core.messages import AIMessage, ToolMessage

    from agent_harness import build_agent, config, run
    from langgraph_memory.testing import ScriptedChatModel, tool_call

    store = make_store()
    _, _, home = _seed(store)
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Nina books the meeting room on Mondays"})]),
        AIMessage("", tool_calls=[tool_call("search_memories", {"query": "Nina tea kettle"})]),
        "Done.",
    )
    agent = build_agent("graph", store, model, config=InjectionConfig(channel_scope=True))
    cfg = config("chan-user")
    cfg["configurable"]["channel_id"] = "work"
    out = run(agent, "sync", "Nina books the room on Mondays.", cfg)
    [stored] = [h.memory for h in store.search("meeting room Mondays", namespace=NS, limit=1)]
    assert stored.channel == "work"
    found = [m for m in out["messages"] if isinstance(m, ToolMessage) and m.name == "search_memories"][0].content
    assert home.id not in found  # another channel's memory stays out of this channel's search
    # A client cannot set the channel through memory_config.
    with pytest.raises(InvalidMemoryError):
        InjectionConfig().override({"channel": "home"})
