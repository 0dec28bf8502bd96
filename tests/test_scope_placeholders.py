"""On a server with auth, namespace placeholders other than ``{user_id}`` are client values
too: ``("teams", "{team_id}", "memories")`` filled from a client's ``team_id`` let any user
read and write any team's memories. There, a placeholder above the user's own namespace
comes from the authenticated user (``configurable["langgraph_auth_user"]``, what the app's
``@auth.authenticate`` returned); a client value fills only the labels after the one holding
``{user_id}``. Without auth, the app's own code is trusted as before."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.agent.identity import with_agent_default
from langgraph_memory.agent.scope import authenticated_user_field, resolve_namespace
from langgraph_memory.errors import MemoryScopeError

TEAMS = ("teams", "{team_id}", "memories")


def server(identity: str = "bob", **fields: Any) -> dict[str, Any]:
    """A run's config as a LangGraph server with custom auth makes it: the user the auth
    handler returned (here a dict, as the handler returns it) beside its identity."""
    return {"configurable": {"langgraph_auth_user_id": identity,
                             "langgraph_auth_user": {"identity": identity, **fields}}}


def test_a_client_team_id_does_not_reach_another_team_on_a_server() -> None:
    config = server(team_id="blue")
    config["configurable"]["team_id"] = "red"
    assert resolve_namespace(TEAMS, config=config, context={"team_id": "red"}) == ("teams", "blue", "memories")


def test_a_placeholder_the_authenticated_user_lacks_is_refused_with_how_to_supply_it() -> None:
    with pytest.raises(MemoryScopeError) as refused:
        resolve_namespace(TEAMS, config=server(), context={"team_id": "red"})
    message = str(refused.value)
    assert "team_id" in message and "@auth.authenticate" in message and "after {user_id}" in message


def test_placeholders_below_the_users_own_namespace_take_the_clients_value() -> None:
    config = server()
    assert resolve_namespace(("memories", "{user_id}", "{project}"), config=config,
                             context={"user_id": "alice", "project": "red"}) == ("memories", "bob", "red")
    # In the label that holds {user_id} itself, a client value could make another user's
    # label ("al" + "ice"): refused there.
    with pytest.raises(MemoryScopeError):
        resolve_namespace(("memories", "{user_id}{project}"), config=config, context={"project": "x"})
    # Above it, refused.
    with pytest.raises(MemoryScopeError):
        resolve_namespace(("m", "{project}", "{user_id}"), config=config, context={"project": "x"})


def test_a_list_on_the_authenticated_user_lets_the_run_choose_among_its_own() -> None:
    config = server(team_id=["red", "blue"])
    assert resolve_namespace(TEAMS, config=config, context={"team_id": "blue"}) == ("teams", "blue", "memories")
    for sent in ("green", None):
        with pytest.raises(MemoryScopeError):
            resolve_namespace(TEAMS, config=config, context={} if sent is None else {"team_id": sent})


def test_the_authenticated_users_fields_as_the_server_holds_them() -> None:
    class User:  # an object the handler returned (the server wraps it, proxying attributes)
        identity = "bob"
        org = 42
        admin = True

        def keys(self) -> list[str]:
            return []

    config = {"configurable": {"langgraph_auth_user_id": "bob", "langgraph_auth_user": User()}}
    assert authenticated_user_field(config, "org") == "42"
    assert authenticated_user_field(config, "identity") == "bob"
    for unusable in ("admin", "keys", "missing"):  # a flag or a method names no namespace
        assert authenticated_user_field(config, unusable) is None
    assert authenticated_user_field({"configurable": {}}, "org") is None


def test_without_auth_the_apps_own_values_are_used_as_before() -> None:
    assert resolve_namespace(TEAMS, config={"configurable": {"team_id": "red"}}) == ("teams", "red", "memories")
    assert resolve_namespace(TEAMS, context={"team_id": "red"}) == ("teams", "red", "memories")


def test_a_pinned_agent_id_still_fills_the_agents_namespace_on_a_server() -> None:
    filled = with_agent_default(server(), {"agent_id": "pet"}, "agent", ["pet"])
    assert resolve_namespace(("agent", "{agent_id}"), **filled) == ("agent", "pet")
    # Without the check behind it, a client agent_id above the user is no longer taken.
    with pytest.raises(MemoryScopeError):
        resolve_namespace(("agent", "{agent_id}"), config=server(), context={"agent_id": "pet"})


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(sent=st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["red", "blue", "red.x", " "])),
       where=st.sampled_from(["context", "configurable"]),
       own=st.one_of(st.none(), st.sampled_from(["blue", "a.b"]), st.lists(st.sampled_from(["red", "blue"]), max_size=2)))
def test_any_client_team_id_reaches_only_a_team_the_authenticated_user_holds(sent, where, own) -> None:
    config = server() if own is None else server(team_id=own)
    if sent is not None and where == "configurable":
        config["configurable"]["team_id"] = sent
    context = {"team_id": sent} if sent is not None and where == "context" else {}
    try:
        namespace = resolve_namespace(TEAMS, config=config, context=context)
    except MemoryScopeError:
        assert own is None or isinstance(own, list) and sent not in own
        return
    assert own is not None
    team = namespace[1].replace("%2E", ".")
    assert team == own if isinstance(own, str) else team == sent and sent in own


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware", "react"])
def test_a_client_naming_another_team_reads_and_stores_nothing_there(kind, make_store) -> None:
    from langchain_core.messages import AIMessage

    from agent_harness import build_agent, config, run
    from langgraph_memory.testing import ScriptedChatModel, tool_call

    store = make_store()
    store.remember("The red team's launch code is 0000", namespace=("teams", "red", "memories"))

    def turn(**user: Any) -> ScriptedChatModel:
        model = ScriptedChatModel(responses=[]).say(
            AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Bob was here"})]),
            AIMessage("", tool_calls=[tool_call("search_memory", {"query": "launch code"})]),
            "Done.",
        )
        agent = build_agent(kind, store, model, namespace=TEAMS)
        cfg = config("bob")
        cfg["configurable"].update(langgraph_auth_user_id="bob", langgraph_auth_user={"identity": "bob", **user},
                                   team_id="red")
        run(agent, "sync", "What is the launch code?", cfg)
        return model

    with pytest.raises(MemoryScopeError):
        turn()  # the auth handler gave bob no team: his client's team_id is not taken
    model = turn(team_id="blue")
    assert "0000" not in str(model.received)
    assert [m.content for m in store.recent(namespace=("teams", "red", "memories"), since=None)] == [
        "The red team's launch code is 0000"]
    assert [m.content for m in store.recent(namespace=("teams", "blue", "memories"), since=None)] == ["Bob was here"]
