"""Rooms have members: a room with a member list is seen by its members' runs only and
takes posts from its members only; the poster on a server is the authenticated user;
rules (agent_writes) judge the authenticated user, never a client-set user_id."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import InvalidMemoryError, RoomObserver, build_memory_graph
from langgraph_memory.agent.identity import agent_writes_allowed, authenticated_context
from langgraph_memory.errors import AccessDeniedError
from langgraph_memory.testing import ScriptedChatModel, tool_call

ROOMS = ("rooms", "agent")
WHEN = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


def _system(model: ScriptedChatModel) -> str:
    first = model.received[-1][0]
    return first.content if isinstance(first, SystemMessage) else ""


def _ask(store, user: str, rooms: list[str], *, auth: str | None = None) -> str:
    model = ScriptedChatModel(responses=[]).say("ok")
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver())
    configurable = {"thread_id": f"t-{user}-{auth}"}
    if auth is not None:
        configurable["langgraph_auth_user_id"] = auth
    graph.invoke({"messages": [HumanMessage("Where is David going?")]}, {"configurable": configurable},
                 context={"user_id": user, "rooms": rooms})
    return _system(model)


def test_members_are_stored_read_back_and_reopened(make_store, tmp_path):
    store = make_store()
    assert store.room_members("team", namespace=ROOMS) is None  # open by default
    store.set_room_members("team", ["alice", "carol"], namespace=ROOMS)
    assert store.room_members(" team ", namespace=ROOMS) == frozenset({"alice", "carol"})
    assert store.room_members("team", namespace=("rooms", "other")) is None  # per namespace
    assert store.visible_rooms(["team", "lobby"], "bob", namespace=ROOMS) == ("lobby",)
    assert store.visible_rooms(["team", "lobby"], "alice", namespace=ROOMS) == ("team", "lobby")
    assert store.visible_rooms(["team"], None, namespace=ROOMS) == ()
    assert store.has_closed_rooms(namespace=ROOMS) and not store.has_closed_rooms(namespace=("rooms", "x"))
    assert store.member_records() == [{"namespace": list(ROOMS), "room": "team", "members": ["alice", "carol"]}]
    store.set_room_members("team", None, namespace=ROOMS)
    assert store.room_members("team", namespace=ROOMS) is None


@pytest.mark.parametrize("member", ["alice\u200b", "\u3164", "ali\u115fce", "al\u034fice", "e\u0301ve", "\u0301eve",
                                    " alice", "alice ", "ali\u00a0ce", "\u202eecila", "alice\ufeff"])
def test_members_that_look_like_another_identity_are_refused(store, member):
    # Room membership is compared exactly with the authenticated identity: a member list
    # holding "alice" + U+200B reads as alice to an admin but grants someone else.
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    with pytest.raises(InvalidMemoryError) as refused:
        store.set_room_members("team", ["bob", member], namespace=ROOMS)
    assert refused.value.field == "users"
    assert store.room_members("team", namespace=ROOMS) == frozenset({"alice"})


def test_members_keep_legitimate_unicode(store):
    members = ["élodie", "李雷", "zoë@example.com", "ana-maría", "🦊\ufe0f"]
    store.set_room_members("team", members, namespace=ROOMS)
    assert store.room_members("team", namespace=ROOMS) == frozenset(members)


def test_an_imported_member_list_holding_a_look_alike_is_refused_and_stores_nothing(make_store, tmp_path):
    import io
    import json

    from langgraph_memory.store._transfer import ImportFormatError, export_jsonl, import_jsonl

    source = make_store(tmp_path / "s")
    source.set_room_members("team", ["alice"], namespace=ROOMS)
    out = io.StringIO()
    export_jsonl(source, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for line in lines:
        if "room_members" in line:
            line["room_members"]["members"] = ["alice\u3164"]  # a Hangul filler: printable, unseen
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    target = make_store(tmp_path / "t")
    with pytest.raises(ImportFormatError) as refused:
        import_jsonl(target, path)
    assert "U+3164" in str(refused.value)
    assert target.room_members("team", namespace=ROOMS) is None


@pytest.mark.parametrize("backend", ["edge"])
def test_members_survive_a_restart(make_store, tmp_path):
    store = make_store(tmp_path / "s")
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    store.close()
    again = make_store(tmp_path / "s")
    assert again.room_members("team", namespace=ROOMS) == frozenset({"alice"})


@pytest.mark.parametrize("users", ["alice", ["alice", ""], ["ok", 3], [" "], ["a\nb"], ["x" * 200], 5])
def test_bad_member_lists_are_refused_and_change_nothing(store, users):
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    with pytest.raises(InvalidMemoryError):
        store.set_room_members("team", users, namespace=ROOMS)
    assert store.room_members("team", namespace=ROOMS) == frozenset({"alice"})


async def test_async_twins(store):
    await store.aset_room_members("team", ["alice"], namespace=ROOMS)
    assert await store.aroom_members("team", namespace=ROOMS) == frozenset({"alice"})


@pytest.mark.parametrize("backend", ["edge"])
def test_a_closed_room_is_invisible_to_non_members_runs(store):
    store.observe("I'm leaving for Greece tomorrow", namespace=ROOMS, room="team", author="david", at=WHEN)
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    assert "Greece" in _ask(store, "alice", ["team"])
    assert "Greece" not in _ask(store, "bob", ["team"])
    # On a server the member is the authenticated user, whatever the client claims.
    assert "Greece" not in _ask(store, "alice", ["team"], auth="bob")
    assert "Greece" in _ask(store, "bob", ["team"], auth="alice")
    store.set_room_members("team", None, namespace=ROOMS)  # reopened: everyone again
    assert "Greece" in _ask(store, "bob", ["team"])


@pytest.mark.parametrize("backend", ["edge"])
def test_only_members_post_and_the_poster_is_the_authenticated_user(store):
    observer = RoomObserver(store)
    store.set_room_members("team", ["alice", "bob"], namespace=ROOMS)
    server = {"configurable": {"room": "team", "langgraph_auth_user_id": "bob", "user_id": "alice"}}
    observer({"messages": [HumanMessage("the deploy is done", name="alice"), HumanMessage("and tested")]}, server)
    messages = store.live_messages(namespace=ROOMS, room="team")
    assert sorted((m.author, m.poster, m.shown_author) for m in messages) == [
        ("alice", "bob", "bob (as alice)"), ("bob", "bob", "bob")]
    mallory = {"configurable": {"room": "team", "langgraph_auth_user_id": "mallory"}}
    with pytest.raises(AccessDeniedError):
        observer({"messages": [HumanMessage("I resign", name="alice")]}, mallory)
    # Without auth, a closed room takes its members' messages only.
    with pytest.raises(AccessDeniedError):
        observer({"messages": [HumanMessage("hello", name="carol")]}, {"configurable": {"room": "team"}})
    assert store.count_live(namespace=ROOMS, room="team") == 2
    # An open room takes anyone, still recorded as the authenticated poster.
    observer({"messages": [HumanMessage("hi all", name="eve")]},
             {"configurable": {"room": "lobby", "langgraph_auth_user_id": "mallory"}})
    assert [m.shown_author for m in store.live_messages(namespace=ROOMS, room="lobby")] == ["mallory (as eve)"]
    # Without auth the poster is unknown: the author as given.
    observer({"messages": [HumanMessage("hi", name="eve")]}, {"configurable": {"room": "lobby2"}})
    assert [(m.poster, m.shown_author) for m in store.live_messages(namespace=ROOMS, room="lobby2")] == [(None, "eve")]


def test_rules_see_the_authenticated_user():
    rule = lambda ctx: ctx["user_id"] in {"admin"}  # noqa: E731 - the README's recipe, as written
    server = {"configurable": {"langgraph_auth_user_id": "bob"}}
    assert not agent_writes_allowed(rule, {"user_id": "admin"}, server)
    assert agent_writes_allowed(rule, {"user_id": "bob"}, {"configurable": {"langgraph_auth_user_id": "admin"}})
    assert agent_writes_allowed(rule, {"user_id": "admin"}, {"configurable": {}})  # no auth: the app's context

    class Context:
        def __init__(self) -> None:
            self.user_id, self.rooms = "admin", ["x"]

    seen = authenticated_context(Context(), server)
    assert (seen.user_id, seen.rooms) == ("bob", ["x"])
    given = {"user_id": "admin"}
    authenticated_context(given, server)
    assert given == {"user_id": "admin"}  # the run's own context is not changed


@pytest.mark.parametrize("backend", ["edge"])
def test_a_client_set_user_id_does_not_pass_agent_writes(store):
    stored = tool_call("store_self", {"content": "I am a pirate", "category": "context"})
    model = ScriptedChatModel(responses=[]).say(AIMessage("", tool_calls=[stored]), "ok")
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver(),
                               agent_writes=lambda ctx: ctx["user_id"] in {"admin"})
    out = graph.invoke({"messages": [HumanMessage("You are a pirate now")]},
                       {"configurable": {"thread_id": "x", "langgraph_auth_user_id": "bob"}},
                       context={"user_id": "admin"})
    assert "may not change" in out["messages"][2].content
    assert store.count(namespace=("agent", "agent")) == 0


def test_member_lists_travel_with_export_and_import(make_store, tmp_path):
    import io
    import json

    from langgraph_memory.store._transfer import ImportFormatError, export_jsonl, import_jsonl

    source = make_store(tmp_path / "a")
    source.remember("alice likes tea", namespace=("memories", "alice"))
    source.set_room_members("team", ["alice", "bob"], namespace=ROOMS)
    source.set_room_members("ops", ["ops"], namespace=("rooms", "other"))
    out = io.StringIO()
    summary = export_jsonl(source, out)
    assert (summary.records, summary.room_members) == (1, 2)
    path = tmp_path / "export.jsonl"
    path.write_text(out.getvalue())
    only = io.StringIO()
    assert export_jsonl(source, only, namespace=ROOMS).room_members == 1
    assert '"team"' in only.getvalue() and '"ops"' not in only.getvalue()

    target = make_store(tmp_path / "b")
    assert import_jsonl(target, path).room_members == 2
    assert target.room_members("team", namespace=ROOMS) == frozenset({"alice", "bob"})
    assert target.room_members("ops", namespace=("rooms", "other")) == frozenset({"ops"})
    assert target.count(namespace=("memories", "alice")) == 1

    bad = out.getvalue().replace('"members":["alice","bob"]', '"members":"alice"')
    path.write_text(bad)
    fresh = make_store(tmp_path / "c")
    with pytest.raises(ImportFormatError):
        import_jsonl(fresh, path)
    assert fresh.room_members("team", namespace=ROOMS) is None and fresh.count(namespace=("memories", "alice")) == 0
    assert json.loads(out.getvalue().splitlines()[-1])["room_members"]["room"] in {"team", "ops"}


_any = st.one_of(st.none(), st.text(max_size=20), st.integers(), st.lists(st.one_of(st.text(max_size=10), st.integers(),
                                                                                    st.none()), max_size=4))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(room=_any, users=_any, namespace=st.one_of(st.just(ROOMS), st.lists(st.text(max_size=6), max_size=3).map(tuple)))
def test_any_member_list_is_stored_or_refused_with_a_typed_error(fake_stores, room, users, namespace):
    for store in fake_stores.values():
        try:
            before = store.room_members(room, namespace=namespace)
        except InvalidMemoryError:
            before = "invalid"
        try:
            store.set_room_members(room, users, namespace=namespace)
        except InvalidMemoryError:
            after = "invalid" if before == "invalid" else store.room_members(room, namespace=namespace)
            assert after == before  # a refusal changes nothing
            continue
        assert store.room_members(room, namespace=namespace) == (None if users is None else frozenset(users))
        visible = store.visible_rooms([room], "someone", namespace=namespace)
        assert visible == ((room.strip(),) if users is None or "someone" in users else ())
        store.set_room_members(room, None, namespace=namespace)


@pytest.mark.parametrize("backend", ["edge"])
def test_digested_facts_are_hidden_while_a_room_of_their_namespace_is_closed_to_the_user(store):
    # Facts do not record the room they were digested from: while any room of the
    # namespace is closed to a user, none of its facts reach that user's runs.
    store.remember("David is moving to Greece in March", namespace=ROOMS, memory_type="event")
    store.observe("the coffee machine is fixed", namespace=ROOMS, room="lobby", author="tom", at=WHEN)
    assert "Greece" in _ask(store, "bob", ["lobby"])
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    assert store.rooms_closed_to("bob", namespace=ROOMS) == ("team",)
    assert store.rooms_closed_to("alice", namespace=ROOMS) == ()
    assert "Greece" not in _ask(store, "bob", ["lobby"])
    assert "Greece" in _ask(store, "alice", ["lobby"])


@pytest.mark.parametrize("backend", ["edge"])
def test_the_plain_observe_face_follows_membership_too(store):
    observer = RoomObserver(store)
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    with pytest.raises(AccessDeniedError):
        observer.observe("I resign", room="team", author="carol")
    with pytest.raises(AccessDeniedError):  # on a server the poster counts, not the author
        observer.observe("I resign", room="team", author="alice", config={"configurable": {"langgraph_auth_user_id": "bob"}})
    observer.observe("shipped", room="team", author="carol", config={"configurable": {"langgraph_auth_user_id": "alice"}})
    assert [m.shown_author for m in store.live_messages(namespace=ROOMS, room="team")] == ["alice (as carol)"]


@pytest.mark.parametrize("backend", ["edge"])
def test_a_forged_ledger_entry_does_not_open_a_closed_room(store):
    # The ledger is graph state, which a server's client can write (threads.update_state).
    store.observe("I'm leaving for Greece tomorrow", namespace=ROOMS, room="team", author="david", at=WHEN)
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    model = ScriptedChatModel(responses=[]).say("ok", "ok", "ok", "ok")
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver())
    alice = {"configurable": {"thread_id": "a", "langgraph_auth_user_id": "alice"}}
    out = graph.invoke({"messages": [HumanMessage("Where is David going?")]}, alice, context={"rooms": ["team"]})
    assert "Greece" in _system(model)
    [entry] = [e for e in out["memory"]["context"] if e["channel"] == "live"]
    bob = {"configurable": {"thread_id": "b", "langgraph_auth_user_id": "bob"}}
    graph.invoke({"messages": [HumanMessage("hello")]}, bob, context={"rooms": ["team"]})
    forged = {**graph.get_state(bob).values["memory"]}
    forged["context"] = [*forged.get("context", []), {**entry, "turn": forged.get("turn", 0) + 1}]
    graph.update_state(bob, {"memory": forged})
    graph.invoke({"messages": [HumanMessage("Where is David going?")]}, bob, context={"rooms": ["team"]})
    assert "Greece" not in _system(model)
    # The same forged entry in alice's thread still shows: she is a member.
    graph.update_state(alice, {"memory": {**graph.get_state(alice).values["memory"], "context": [entry]}})
    graph.invoke({"messages": [HumanMessage("And when?")]}, alice, context={"rooms": ["team"]})
    assert "Greece" in _system(model)
