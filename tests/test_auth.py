"""AccessPolicy, the one rule of who reaches which namespace, and the store API handlers
protect_store registers (called here as the server calls them; ``tests/test_auth_server.py``
runs them under a real ``langgraph dev``)."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings, strategies as st
from langgraph_sdk import Auth

from langgraph_memory import namespace_label
from langgraph_memory.auth import AccessPolicy, protect_store

ROOMS = ("rooms", "agent")
labels = st.text(min_size=0, max_size=12)
identities = st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["alice", "bob", "admin", "memories",
                                                                        "agent", "rooms", "a/b", "", " "]))
namespaces = st.one_of(
    st.lists(labels, max_size=5).map(tuple),
    st.tuples(st.sampled_from(["memories", "agent", "rooms"]), identities.map(lambda i: i or "x"),
              ).flatmap(lambda t: st.lists(labels, max_size=3).map(lambda rest: t + tuple(rest))),
    st.just(None), st.integers(), st.lists(st.integers(), max_size=2).map(tuple),
)
actions = st.one_of(st.sampled_from(["read", "write"]), st.text(max_size=6), st.none())


class _User:
    def __init__(self, identity: str, authenticated: bool = True) -> None:
        self.identity, self.is_authenticated, self.permissions = identity, authenticated, []


def _ctx(identity: str | None, action: str, authenticated: bool = True) -> Auth.types.AuthContext:
    return Auth.types.AuthContext(user=_User(identity or "", authenticated), permissions=[],
                                  resource="store", action=action)


def _call(auth: Auth, action: str, identity: str | None, value: dict, authenticated: bool = True) -> dict:
    [handler] = auth._handlers[("store", action)]
    asyncio.run(handler(ctx=_ctx(identity, action, authenticated), value=value))
    return value


@settings(max_examples=400, deadline=None)
@given(identity=identities, action=actions, namespace=namespaces)
def test_allows_never_raises_and_never_grants_another_users_memories(identity, action, namespace):
    policy = AccessPolicy(admins={"root"})
    granted = policy.allows(identity, action, namespace)
    assert isinstance(granted, bool)
    if granted:
        assert isinstance(identity, str) and identity.strip() and action in ("read", "write")
        ns = tuple(namespace)
        if ns[:1] == ("memories",):
            assert ns[1:2] == (namespace_label(identity),)  # only one's own memories
        elif ns[:1] == ("agent",):
            assert action == "read"  # agent_writes=False by default
            assert ns[1:2] == ("agent",)  # the one agent the policy allows by default
        else:
            assert False, f"{identity!r} granted {action} on {ns!r}"


@settings(max_examples=200, deadline=None)
@given(identity=identities, prefix=st.one_of(st.none(), st.lists(labels, max_size=4).map(tuple)))
def test_a_listing_is_only_ever_narrowed_to_what_the_user_may_read(identity, prefix):
    policy = AccessPolicy()
    scoped = policy.scope_prefix(identity, prefix)
    if scoped is not None:
        assert policy.allows(identity, "read", scoped)


def test_the_rule_in_words():
    policy = AccessPolicy(admins={"ops"}, agent_writes=lambda ctx: ctx["user_id"] == "editor")
    assert policy.allows("alice", "write", ("memories", "alice"))
    assert policy.allows("alice", "read", ("memories", "alice", "notes", "x"))
    for other in [("memories", "bob"), ("memories",), ("memories", "alice2"), ("memories", "alic"),
                  ("memories", "bob", "alice"), ("alice",), ("memories", "alice ")]:
        assert not policy.allows("alice", "read", other), other
    assert policy.allows("alice", "read", ("agent", "agent"))
    assert not policy.allows("alice", "write", ("agent", "agent"))
    assert policy.allows("editor", "write", ("agent", "agent"))
    assert not policy.allows("alice", "read", ROOMS)  # no store given: membership unknown
    assert policy.allows("ops", "write", ("memories", "alice")) and policy.is_admin("ops")
    assert not policy.is_admin("admin") and not policy.is_admin(None) and not policy.is_admin("")
    # Identities that look like other namespaces' labels are just names.
    assert not policy.allows("agent", "write", ("agent", "agent"))
    assert policy.allows("memories", "read", ("memories", "memories"))
    assert not policy.allows("memories", "read", ("memories", "alice"))
    assert policy.allows("a/b", "write", ("memories", "a/b")) and not policy.allows("a/b", "read", ("memories", "a"))
    assert policy.own_root("alice") == ("memories", "alice") and policy.own_root("") is None


def test_templates_with_more_placeholders():
    policy = AccessPolicy(namespace=("memories", "{user_id}", "{agent_id}"))
    assert policy.allows("alice", "write", ("memories", "alice", "eko"))
    assert not policy.allows("alice", "write", ("memories", "bob", "eko"))
    assert policy.own_root("alice") == ("memories", "alice")
    prefixed = AccessPolicy(namespace=("tenant", "{app_id}", "u-{user_id}"))
    assert prefixed.allows("alice", "read", ("tenant", "t1", "u-alice"))
    assert not prefixed.allows("alice", "read", ("tenant", "t1", "u-alicex"))
    assert prefixed.own_root("alice") is None  # the identity comes after a shared placeholder
    for bad in [("{user_id}",), ("memories",), ("agent", "{user_id}")]:
        with pytest.raises(ValueError):
            AccessPolicy(namespace=bad)
    with pytest.raises(ValueError):
        AccessPolicy(agent_namespace=("memories", "{agent_id}"))  # would overlap users'
    with pytest.raises(ValueError):
        AccessPolicy(admins="ops")


def test_room_namespaces_follow_membership(store):
    policy = AccessPolicy(store=store)
    assert policy.allows("bob", "read", ROOMS) and not policy.allows("bob", "write", ROOMS)
    store.set_room_members("team", ["alice"], namespace=ROOMS)
    assert not policy.allows("bob", "read", ROOMS)  # digest facts of a closed room live there
    assert policy.allows("alice", "read", ROOMS)  # no room there is closed to her
    assert policy.allows("alice", "read", ROOMS + ("team",))
    assert not policy.allows("bob", "read", ROOMS + ("team",))
    assert policy.allows("bob", "read", ROOMS + ("lobby",))
    assert AccessPolicy(store=store.as_base_store()).allows("alice", "read", ROOMS + ("team",))


def test_protect_store_handlers():
    auth = Auth()
    policy = protect_store(auth, admins={"ops"})
    assert isinstance(policy, AccessPolicy)
    assert {a for (r, a) in auth._handlers if r == "store"} == {"get", "search", "put", "delete", "list_namespaces"}
    for action in ("get", "put", "delete"):
        _call(auth, action, "bob", {"namespace": ("memories", "bob"), "key": "k", "value": {}})
        with pytest.raises(Auth.exceptions.HTTPException) as denied:
            _call(auth, action, "bob", {"namespace": ("memories", "alice"), "key": "k", "value": {}})
        assert denied.value.status_code == 403
        with pytest.raises(Auth.exceptions.HTTPException) as anonymous:
            _call(auth, action, "bob", {"namespace": ("memories", "bob"), "key": "k"}, authenticated=False)
        assert anonymous.value.status_code == 401
    assert _call(auth, "get", "bob", {"namespace": ("agent", "agent"), "key": "k"})
    with pytest.raises(Auth.exceptions.HTTPException):
        _call(auth, "put", "bob", {"namespace": ("agent", "agent"), "key": "k", "value": {}})
    for action in ("search", "list_namespaces"):
        for prefix in (None, (), ("memories",)):
            assert _call(auth, action, "bob", {"namespace": prefix})["namespace"] == ("memories", "bob")
        assert _call(auth, action, "bob", {"namespace": ("agent",) + ("agent",)})["namespace"] == ("agent", "agent")
        for prefix in (("memories", "alice"), ("agent",), ("rooms",), ("other",)):
            with pytest.raises(Auth.exceptions.HTTPException):
                _call(auth, action, "bob", {"namespace": prefix})
        assert _call(auth, action, "ops", {"namespace": None})["namespace"] is None  # admins: everything
    with pytest.raises(ValueError):
        protect_store(auth)  # a second rule for the same paths would leave one unchecked
    own = Auth()

    @own.on.store
    async def app_rule(ctx, value):  # noqa: ANN001 - the SDK's handler shape
        return None

    with pytest.raises(ValueError, match=r"already has an @auth.on.store handler \(\*\)"):
        protect_store(own)
    assert set(own._handlers) == {("store", "*")}  # nothing half-registered
