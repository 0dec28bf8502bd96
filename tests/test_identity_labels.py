"""Identities holding a period (e-mail ids from real auth providers) own a namespace the
store API can name: ``namespace_label`` writes ``.`` as ``%2E`` and ``%`` as ``%25``,
injectively, and leaves ordinary ids unchanged."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import AccessPolicy, InvalidIdentityError, namespace_label
from langgraph_memory.agent.scope import MemoryScopeError, resolve_namespace

# Text rich in the escape's own characters, so collisions would be found if they existed.
TRICKY = st.text(alphabet=st.sampled_from(".%2Ee5a@/ \x00\ud800"), max_size=12)
IDENTITIES = st.one_of(TRICKY, st.text(max_size=40))


def _decoded(label: str) -> str:
    return label.replace("%2E", ".").replace("%25", "%") if "%" in label else label


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(value=IDENTITIES)
def test_a_label_holds_no_period_and_decodes_back_to_its_value(value: str) -> None:
    try:
        label = namespace_label(value)
    except InvalidIdentityError:
        return
    assert "." not in label
    # The exact inverse, left to right: a label decodes to one value only.
    out, i = [], 0
    while i < len(label):
        if label.startswith("%2E", i):
            out.append(".")
            i += 3
        elif label.startswith("%25", i):
            out.append("%")
            i += 3
        else:
            assert label[i] != "%"  # every % in a label starts an escape
            out.append(label[i])
            i += 1
    assert "".join(out) == value
    if "." not in value and "%" not in value:
        assert label == value  # ordinary ids keep their namespace


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(a=IDENTITIES, b=IDENTITIES)
def test_distinct_identities_never_share_a_label(a: str, b: str) -> None:
    try:
        la, lb = namespace_label(a), namespace_label(b)
    except InvalidIdentityError:
        return
    assert (la == lb) == (a == b)


@pytest.mark.parametrize("value", ["alice@example%2Ecom", "50%25", "a.%2E"])
def test_an_id_that_looks_escaped_gets_a_label_of_its_own(value: str) -> None:
    label = namespace_label(value)
    assert label != value and label != namespace_label(_decoded(value))


@pytest.mark.parametrize("value", ["", "   ", "a\x00b", "bell\x07", "\ud800", "x" * 256 + ".", 7])
def test_an_identity_no_label_can_hold_raises_a_typed_error(value) -> None:
    with pytest.raises((InvalidIdentityError, MemoryScopeError)):
        namespace_label(value)
    if isinstance(value, str) and value.strip():
        config = {"configurable": {"langgraph_auth_user_id": value}}
        with pytest.raises(InvalidIdentityError):
            resolve_namespace(("memories", "{user_id}"), config=config)


def test_every_runtime_value_is_written_as_its_label() -> None:
    config = {"configurable": {"langgraph_auth_user_id": "alice@example.com", "user_id": "bob"}}
    assert resolve_namespace(("memories", "{user_id}"), config=config) == ("memories", "alice@example%2Ecom")
    assert resolve_namespace(("agent", "{agent_id}"), context={"agent_id": "pet.v2"}) == ("agent", "pet%2Ev2")
    assert resolve_namespace(("memories", "{user_id}"), context={"user_id": "plain-id_1"}) == ("memories", "plain-id_1")


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(me=IDENTITIES, other=IDENTITIES, deeper=st.lists(st.text(min_size=1, max_size=5), max_size=2))
def test_the_policy_gives_each_identity_its_own_label(me: str, other: str, deeper: list[str]) -> None:
    policy = AccessPolicy()
    try:
        theirs = ("memories", namespace_label(other), *deeper)
    except InvalidIdentityError:
        return
    for action in ("read", "write"):
        assert policy.allows(me, action, theirs) == (me == other and bool(me.strip()))
    if me == other and me.strip():
        assert policy.own_root(me) == ("memories", namespace_label(me))
        assert policy.scope_prefix(me, ("memories",)) == ("memories", namespace_label(me))


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware", "react"])
def test_an_email_identity_keeps_memories_the_store_api_can_reach(kind, make_store) -> None:
    from langchain_core.messages import AIMessage

    from agent_harness import build_agent, config, run, system_text
    from langgraph_memory.testing import ScriptedChatModel, tool_call

    user = "alice@example.com"
    label = ("memories", "alice@example%2Ecom")
    store = make_store()
    seeded = store.remember("Alice keeps bees on the roof", namespace=label).memory
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Alice's sister Lina lives in Lyon"})]),
        "Noted.",
    )
    agent = build_agent(kind, store, model)
    cfg = config(user)
    cfg["configurable"]["langgraph_auth_user_id"] = user  # as a server with auth sets it
    run(agent, "sync", "What about my bees? Also, my sister Lina lives in Lyon.", cfg)
    assert "bees" in system_text(model, 0)  # the pre-hook read the label's namespace
    base = store.as_base_store()
    contents = {i.value["content"] for i in base.search(label, limit=10)}
    assert contents == {"Alice keeps bees on the roof", "Alice's sister Lina lives in Lyon"}
    assert base.get(label, seeded.id).value["content"] == "Alice keeps bees on the roof"
    assert base.list_namespaces(prefix=("memories",)) == [label]


def test_the_browser_and_the_cli_name_the_label() -> None:
    from langgraph_memory.cli._commands import parse_namespace
    from langgraph_memory.ui import _access

    mine = ("memories", namespace_label("alice@example.com"))
    # Without a policy, an authenticated browser user reaches their own label's namespace only.
    assert _access.allows(None, "alice@example.com", "read", mine)
    assert not _access.allows(None, "alice@example.com", "read", ("memories", "alice@example.com"))
    assert not _access.allows(None, "alice@example%2Ecom", "read", mine)
    assert not _access.allows(None, "bell\x07", "read", ("memories", "bell\x07"))
    assert parse_namespace("memories/alice@example%2Ecom") == mine


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(value=IDENTITIES, label=st.one_of(TRICKY, st.text(max_size=20)))
def test_a_label_names_one_value_and_back(value: str, label: str) -> None:
    from langgraph_memory.agent.scope import namespace_value

    try:
        assert namespace_value(namespace_label(value)) == value
    except InvalidIdentityError:
        pass
    decoded = namespace_value(label)
    assert decoded is None or namespace_label(decoded) == label  # never two labels for one value


ROOMS = ("rooms", "agent")


def test_a_room_namespace_names_its_room_by_label(fake_stores) -> None:
    store = fake_stores["edge"]
    store.set_room_members("team.alpha", ["alice@example.com"], namespace=ROOMS)
    store.set_room_members("team.beta", None, namespace=ROOMS)
    policy = AccessPolicy(store=store)
    alpha, beta = (*ROOMS, namespace_label("team.alpha")), (*ROOMS, namespace_label("team.beta"))
    assert alpha[-1] == "team%2Ealpha"
    assert policy.allows("alice@example.com", "read", alpha) and policy.allows("alice@example.com", "read", (*alpha, "x"))
    assert not policy.allows("bob", "read", alpha) and not policy.allows("bob", "read", (*alpha, "x"))
    assert policy.allows("bob", "read", beta)
    # A label of no room id (a raw period, another escape) is nobody's but the admins'.
    for label in ("team.alpha", "team%2ealpha", "team%41lpha"):
        assert not policy.allows("alice@example.com", "read", (*ROOMS, label))
        assert not policy.allows("bob", "read", (*ROOMS, label))
    assert AccessPolicy(store=store, admins=["root"]).allows("root", "read", (*ROOMS, "team.alpha"))
    store.set_room_members("team.alpha", None, namespace=ROOMS)


ROOM_IDS = st.one_of(st.text(alphabet=st.sampled_from(".%2Eab-"), min_size=1, max_size=8), IDENTITIES)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(closed=ROOM_IDS, opened=ROOM_IDS)
def test_each_room_is_reached_through_its_own_label_only(fake_stores, closed: str, opened: str) -> None:
    from langgraph_memory import InvalidMemoryError

    store = fake_stores["edge"]
    if closed == opened:
        return
    try:
        closed_label, opened_label = namespace_label(closed), namespace_label(opened)
        store.set_room_members(closed, ["alice"], namespace=ROOMS)
        store.set_room_members(opened, None, namespace=ROOMS)
    except (InvalidIdentityError, InvalidMemoryError):
        return
    try:
        policy = AccessPolicy(store=store)
        assert policy.allows("alice", "read", (*ROOMS, closed_label))
        assert not policy.allows("bob", "read", (*ROOMS, closed_label))
        assert policy.allows("bob", "read", (*ROOMS, opened_label))
    finally:
        store.set_room_members(closed, None, namespace=ROOMS)
