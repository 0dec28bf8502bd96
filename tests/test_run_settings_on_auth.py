"""A run's ``memory_config`` on a LangGraph server with auth: the client sends it, so it may
narrow what the app configured (fewer memories, fewer channels, a channel scope turned on),
never widen it. Off-server (no authenticated identity) the app's own code sends it, as before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from langchain_core.messages import HumanMessage

from langgraph_memory import InvalidMemoryError
from langgraph_memory.agent.injection import InjectionConfig
from langgraph_memory.testing import ScriptedChatModel

from agent_harness import build_agent, config, run, system_text

APP = InjectionConfig(similar_limit=5, max_tokens=400, channel_scope=True, channels=("identity", "similar"))
BUDGETS = ("identity_limit", "important_limit", "recent_limit", "similar_limit", "max_semantic_buffer",
           "max_injection_count", "max_tokens")


@pytest.mark.parametrize("name", BUDGETS)
def test_a_client_run_cannot_raise_a_budget(name):
    with pytest.raises(InvalidMemoryError, match=name):
        APP.override({name: getattr(APP, name) + 1}, narrow_only=True)
    assert getattr(APP.override({name: getattr(APP, name) + 1}), name) == getattr(APP, name) + 1  # the app may
    assert getattr(APP.override({name: 0}, narrow_only=True), name) == 0


def test_a_client_run_cannot_undo_the_channel_scope_or_add_channels_or_kinds():
    with pytest.raises(InvalidMemoryError, match="channel_scope"):
        APP.override({"channel_scope": False}, narrow_only=True)
    with pytest.raises(InvalidMemoryError, match="channels"):
        APP.override({"channels": ["identity", "recent"]}, narrow_only=True)
    assert APP.override({"channels": ["similar"]}, narrow_only=True).channels == ("similar",)
    kinds = InjectionConfig(kinds=("fact",))
    for wider in (None, ["fact", "self"]):
        with pytest.raises(InvalidMemoryError, match="kinds"):
            kinds.override({"kinds": wider}, narrow_only=True)
    assert InjectionConfig().override({"kinds": ["goal"]}, narrow_only=True).kinds == ("goal",)
    assert InjectionConfig().override({"channel_scope": True}, narrow_only=True).channel_scope


def test_a_client_run_cannot_keep_memories_in_view_longer_than_the_app():
    """``reinject_after_turns`` is how long an injected memory stays in the model's view
    (every turn renders all of them): raised, each turn's memories pile up in the prompt
    past the app's token budget, turn after turn. Lowered, a memory comes back sooner,
    within each turn's budget."""
    with pytest.raises(InvalidMemoryError, match="reinject_after_turns"):
        APP.override({"reinject_after_turns": 1_000_000}, narrow_only=True)
    assert APP.override({"reinject_after_turns": 1_000_000}).reinject_after_turns == 1_000_000  # the app may
    assert APP.override({"reinject_after_turns": 2}, narrow_only=True).reinject_after_turns == 2


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([*BUDGETS, "channel_scope", "channels", "kinds", "similar_min_cosine"]),
                       st.one_of(st.integers(-5, 3000), st.booleans(), st.none(), st.floats(allow_nan=True),
                                 st.lists(st.sampled_from(["identity", "important", "recent", "similar", "fact",
                                                           "self", "goal", "x"]), max_size=4)),
                       max_size=4))
def test_any_client_settings_narrow_the_app_or_raise_our_error(changes):
    try:
        narrowed = APP.override(changes, narrow_only=True)
    except InvalidMemoryError:
        return
    for name in BUDGETS:
        assert getattr(narrowed, name) <= getattr(APP, name)
    assert narrowed.channel_scope and set(narrowed.channels) <= set(APP.channels)


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware", "react"])
def test_a_run_on_an_auth_server_that_widens_the_settings_is_refused_before_anything_is_read(store, kind):
    store.remember("Ines keeps bees on her balcony", namespace=("memories", "ines"))
    model = ScriptedChatModel(responses=[]).say("ok").say("ok")
    agent = build_agent(kind, store, model, config=APP)
    wide = config("ines", thread=f"w-{kind}", max_tokens=1_000_000)
    wide["configurable"]["langgraph_auth_user_id"] = "ines"
    with pytest.raises(InvalidMemoryError, match="max_tokens"):
        run(agent, "sync", "what about my bees?", wide)
    assert not model.received  # refused before the model, nothing injected
    narrow = config("ines", thread=f"n-{kind}", max_tokens=200)
    narrow["configurable"]["langgraph_auth_user_id"] = "ines"
    assert run(agent, "sync", "what about my bees?", narrow)["messages"][-1].text == "ok"
    assert "bees" in system_text(model)
    # The same widening from the app's own code (no authenticated identity) is the app's call.
    assert run(agent, "sync", [HumanMessage("my bees again?")], config("ines", thread=f"a-{kind}",
                                                                       max_tokens=1_000_000))["messages"][-1].text == "ok"
