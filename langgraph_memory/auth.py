"""Who may reach which memories through a LangGraph server's store API.

A LangGraph server with custom auth (``langgraph.json`` ``"auth"``) authenticates every
request, but its store API (``client.store.search_items / get_item / put_item /
delete_item / list_namespaces``, Studio's memory view) checks nothing by itself: any
authenticated user reaches every namespace. One line in the app's auth module closes it::

    from langgraph_sdk import Auth
    from langgraph_memory.auth import protect_store

    auth = Auth()

    @auth.authenticate
    async def authenticate(authorization: str | None) -> str: ...

    protect_store(auth, admins={"ops"})

:class:`AccessPolicy` is the one rule; the store API's handlers and the memory browser both
ask it. A user reaches:

* their own memories: namespaces starting with the user namespace template filled with
  their identity's label (``("memories", namespace_label(identity), ...)`` by default,
  ``"alice@example%2Ecom"`` for ``"alice@example.com"``), read and write;
* the agent's shared identity (``("agent", <agent_id>, ...)``, for the ``agent_ids`` the app
  pins, default ``"agent"``): read; write only where ``agent_writes`` allows, judged on the
  authenticated identity;
* the rooms' namespace (``("rooms", <agent_id>)``, the digest's facts): read when ``store``
  is given and no room there is closed to them (a fact's rooms are metadata, not a filter); ``("rooms", <agent_id>, <room>, ...)``: read
  by the room's members (every user for an open room); room messages are posted through
  the ``room`` graph, never the store API;
* nothing else. Admins reach everything; an anonymous request reaches nothing.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Sequence

from langgraph_memory.agent.hooks import DEFAULT_NAMESPACE
from langgraph_memory.agent.identity import DEFAULT_AGENT_ID, DEFAULT_AGENT_NAMESPACE, AgentWrites
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE
from langgraph_memory.agent.scope import InvalidIdentityError, namespace_label, namespace_value

__all__ = ["AccessPolicy", "Action", "protect_store"]

Action = Literal["read", "write"]
STORE_ACTIONS = ("get", "search", "put", "delete", "list_namespaces")
_READS = {"get": "read", "search": "read", "list_namespaces": "read", "put": "write", "delete": "write"}


def _pattern(template: Sequence[str], what: str, *, user: bool) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A template as (regex with ``{user_id}`` left as a marker, fields) per part."""
    if not template or not all(isinstance(p, str) and p for p in template):
        raise ValueError(f"{what}: expected a non-empty tuple of non-empty labels, got {template!r}")
    parts = []
    for part in template:
        fields = tuple(f for _, f, _, _ in string.Formatter().parse(part) if f)
        parts.append((part, fields))
    if parts[0][1]:
        # A template starting with a placeholder would let an identity such as "agent" or
        # "rooms" claim another kind of namespace as its own.
        raise ValueError(f"{what}: the first label must be fixed text, got {template[0]!r}")
    has_user = any("user_id" in f for _, f in parts)
    if user and not has_user:
        raise ValueError(f"{what}: a user namespace template needs {{user_id}}, got {template!r}")
    if not user and has_user:
        raise ValueError(f"{what}: a shared namespace template cannot hold {{user_id}}, got {template!r}")
    return tuple(parts)


def _part_matches(part: str, fields: tuple[str, ...], label: str, identity: str | None,
                  agents: frozenset[str] | None = None) -> bool:
    if not fields:
        return part == label
    if "agent_id" in fields and agents is not None and not agents:
        return False
    if part == "{agent_id}" and agents is not None:
        return label in agents
    regex = []
    for literal, name, _, _ in string.Formatter().parse(part):
        regex.append(re.escape(literal))
        if name == "user_id":
            if identity is None:
                return False
            regex.append(re.escape(namespace_label(identity)))
        elif name == "agent_id" and agents is not None:
            regex.append("(?:" + "|".join(re.escape(a) for a in sorted(agents)) + ")")
        elif name:
            regex.append(r".+")
    return re.fullmatch("".join(regex), label, re.DOTALL) is not None


def _under(pattern: tuple[tuple[str, tuple[str, ...]], ...], namespace: tuple[str, ...],
           identity: str | None = None, agents: frozenset[str] | None = None) -> bool:
    """Whether ``namespace`` is the pattern's namespace or one below it (``{agent_id}``
    standing for one of the ``agents`` labels, when given)."""
    return len(namespace) >= len(pattern) and all(
        _part_matches(part, fields, label, identity, agents) for (part, fields), label in zip(pattern, namespace))


def _valid_identity(identity: Any) -> str | None:
    return identity if isinstance(identity, str) and identity.strip() else None


def _valid_namespace(namespace: Any) -> tuple[str, ...] | None:
    if not isinstance(namespace, (tuple, list)) or not all(isinstance(p, str) and p for p in namespace):
        return None
    return tuple(namespace)


@dataclass(frozen=True)
class AccessPolicy:
    """The single rule deciding which namespaces an identity may read or write.

    Args:
        admins: identities that reach every namespace (compared exactly).
        agent_writes: who may write the agent's shared namespace: a flag, or a function
            of ``{"user_id": <authenticated identity>}``, like the memory tools' rule.
        namespace: the user namespace template (must hold ``{user_id}``).
        agent_namespace: the agent's shared namespace template.
        room_namespace: the rooms' namespace template.
        store: the :class:`~langgraph_memory.MemoryStore` (or a ``QdrantStore`` made by its
            ``as_base_store()``) holding room member lists; without it no room namespace is
            readable by non-admins, since membership cannot be checked.
        agent_ids: the agents whose shared and room namespaces (``{agent_id}`` in
            ``agent_namespace`` and ``room_namespace``) users reach, default the default
            agent (``"agent"``): the ids the app's graphs pin (``default_agent_id`` plus
            ``agent_ids``). Another agent's namespaces are the admins' only.
    """

    admins: frozenset[str] = frozenset()
    agent_writes: AgentWrites = False
    namespace: tuple[str, ...] = DEFAULT_NAMESPACE
    agent_namespace: tuple[str, ...] = DEFAULT_AGENT_NAMESPACE
    room_namespace: tuple[str, ...] = DEFAULT_ROOM_NAMESPACE
    store: Any = None
    agent_ids: frozenset[str] = frozenset({DEFAULT_AGENT_ID})
    _patterns: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.admins, str):
            raise ValueError("admins: expected a collection of identities, not one string")
        object.__setattr__(self, "admins", frozenset(a for a in self.admins if _valid_identity(a)))
        if isinstance(self.agent_ids, str) or not all(isinstance(a, str) and a.strip() for a in self.agent_ids):
            raise ValueError(f"agent_ids: expected a collection of non-blank agent ids, got {self.agent_ids!r}")
        object.__setattr__(self, "agent_ids", frozenset(self.agent_ids))
        # Namespaces hold each id as its label (an id "pet.v2" lives in ("agent", "pet%2Ev2")).
        self._patterns["agents"] = frozenset(namespace_label(a) for a in self.agent_ids)
        for name in ("namespace", "agent_namespace", "room_namespace"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        self._patterns["user"] = _pattern(self.namespace, "namespace", user=True)
        self._patterns["agent"] = _pattern(self.agent_namespace, "agent_namespace", user=False)
        self._patterns["rooms"] = _pattern(self.room_namespace, "room_namespace", user=False)
        heads = [self.namespace[0], self.agent_namespace[0], self.room_namespace[0]]
        if len(set(heads)) != 3:
            raise ValueError(f"the user, agent and room namespaces must start with different labels, got {heads}")

    def is_admin(self, identity: str | None) -> bool:
        """Whether ``identity`` is one of the admins."""
        return _valid_identity(identity) is not None and identity in self.admins

    def allows(self, identity: str | None, action: Action, namespace: tuple[str, ...]) -> bool:
        """Whether ``identity`` may ``action`` (``"read"`` or ``"write"``) the namespace
        ``namespace`` and every namespace below it. Never raises: anything malformed
        (no identity, an unknown action, a namespace that is not a tuple of labels) is
        refused."""
        try:
            return self._allows(identity, action, namespace)
        except Exception:  # a rule of the app's (agent_writes) or the store failed: refuse
            return False

    def _allows(self, identity: Any, action: Any, namespace: Any) -> bool:
        user = _valid_identity(identity)
        ns = _valid_namespace(namespace)
        if user is None or ns is None or action not in ("read", "write"):
            return False
        if user in self.admins:
            return True
        if _under(self._patterns["user"], ns, user):
            return True
        agents = self._patterns["agents"]
        if _under(self._patterns["agent"], ns, agents=agents):
            return action == "read" or self._agent_writable(user)
        rooms = self._patterns["rooms"]
        if action == "read" and _under(rooms, ns, agents=agents) and self.store is not None:
            members = _room_members(self.store)
            if members is None:
                return False
            base = ns[: len(rooms)]
            if len(ns) == len(rooms):
                return not members.rooms_closed_to(user, namespace=base)
            # The room's label names it ("team%2Ealpha" for "team.alpha"): membership is
            # asked of the room itself; a label of no room id is refused.
            room = namespace_value(ns[len(rooms)])
            if room is None:
                return False
            allowed = members.room_members(room, namespace=base)
            return allowed is None or user in allowed
        return False

    def _agent_writable(self, user: str) -> bool:
        rule = self.agent_writes
        return bool(rule({"user_id": user, "langgraph_auth_user_id": user})) if callable(rule) else bool(rule)

    def own_root(self, identity: str | None) -> tuple[str, ...] | None:
        """The longest namespace that is entirely ``identity``'s: the user template up to
        its first placeholder other than ``{user_id}`` (``("memories", identity)`` by
        default), or ``None`` when that stops before ``{user_id}``."""
        user = _valid_identity(identity)
        if user is None:
            return None
        try:
            label = namespace_label(user)
        except InvalidIdentityError:  # no namespace can be theirs
            return None
        root: list[str] = []
        for part, fields in self._patterns["user"]:
            if any(f != "user_id" for f in fields):
                break
            root.append(part.replace("{user_id}", label) if fields else part)
        named = any(fields for _, fields in self._patterns["user"][: len(root)])
        return tuple(root) if named else None

    def scope_prefix(self, identity: str | None, prefix: tuple[str, ...] | None, *,
                     wildcards: bool = False) -> tuple[str, ...] | None:
        """The prefix a listing or search by ``identity`` may use: ``prefix`` itself when
        all below it is readable, the user's own root when ``prefix`` is above it (no
        prefix, ``("memories",)``), else ``None`` (refused).

        ``wildcards``: the prefix is read as ``list_namespaces`` reads it, a ``"*"`` label
        matching any label. Then the labels before the first ``"*"`` must be readable
        themselves, since the listing covers everything below them: ``("rooms", "agent",
        "*")`` would otherwise name the rooms closed to the user, and an identity whose
        label is ``"*"`` would list every user's namespaces as its own."""
        ns = () if prefix is None else _valid_namespace(prefix)
        if ns is None:
            return None
        if self.is_admin(identity):
            return ns
        scoped = ns if ns and self.allows(identity, "read", ns) else None
        if scoped is None:
            root = self.own_root(identity)
            scoped = root if root is not None and root[: len(ns)] == ns else None
        if scoped is not None and wildcards and "*" in scoped:
            literal = scoped[: scoped.index("*")]
            if not (literal and self.allows(identity, "read", literal)):
                return None
        return scoped


def _room_members(store: Any) -> Any:
    """The object answering membership questions: a MemoryStore, or the memory store
    behind a QdrantStore made by ``as_base_store()``."""
    for candidate in (store, getattr(store, "_memory_store", None)):
        if candidate is not None and hasattr(candidate, "has_closed_rooms"):
            return candidate
    return None


def _identity_of(ctx: Any) -> str | None:
    user = getattr(ctx, "user", None)
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    identity = getattr(user, "identity", None)
    return _valid_identity(identity)


def _read_only(policy: AccessPolicy, identity: str, namespace: tuple[str, ...], value: dict[str, Any]) -> None:
    """A read restarts the TTLs of what it returns (``refresh_ttl``, with a store whose TTL
    config says ``refresh_on_read``): that is a write, so it is left to those who may write
    there. A reader of the agent's or a room's namespace keeps nothing alive by reading it."""
    if "refresh_ttl" in value and not policy.allows(identity, "write", namespace):
        value["refresh_ttl"] = False


def _handler(policy: AccessPolicy, action: str, exceptions: Any) -> Callable[..., Any]:
    def deny(status: int, detail: str) -> Exception:
        return exceptions.HTTPException(status_code=status, detail=detail)

    async def handler(ctx: Any, value: dict[str, Any]) -> None:
        identity = _identity_of(ctx)
        if identity is None:
            raise deny(401, "authentication required for the memory store")
        if policy.is_admin(identity):
            return None
        namespace = value.get("namespace")
        if action in ("search", "list_namespaces"):
            scoped = policy.scope_prefix(identity, namespace, wildcards=action == "list_namespaces")
            if scoped is None:
                raise deny(403, f"{identity!r} may not list or search namespace {tuple(namespace or ())!r}")
            value["namespace"] = scoped
            _read_only(policy, identity, scoped, value)
            return None
        ns = _valid_namespace(namespace)
        if ns is None or not policy.allows(identity, _READS[action], ns):  # type: ignore[arg-type]
            raise deny(403, f"{identity!r} may not {action} in namespace {tuple(ns or ())!r}")
        _read_only(policy, identity, ns, value)
        return None

    handler.__name__ = f"langgraph_memory_store_{action}"
    return handler


def protect_store(
    auth: Any,
    *,
    admins: Iterable[str] = (),
    agent_writes: AgentWrites = False,
    namespace: Sequence[str] = DEFAULT_NAMESPACE,
    agent_namespace: Sequence[str] = DEFAULT_AGENT_NAMESPACE,
    room_namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
    store: Any = None,
    agent_ids: Iterable[str] = (DEFAULT_AGENT_ID,),
) -> AccessPolicy:
    """Guard the LangGraph server's store API with :class:`AccessPolicy`.

    Registers one ``@auth.on.store.<action>`` handler per store action (get, search, put,
    delete, list_namespaces) on the app's ``langgraph_sdk.Auth``: a request without an
    authenticated user gets 401, one outside the user's reach 403. A search or listing
    above the user's own namespace (no prefix, ``["memories"]``) is narrowed to it, so no
    user can enumerate another's namespaces. Registering fails with ``ValueError`` if the
    app already has a store handler (``@auth.on.store`` or one of its actions): the server
    runs one handler per path, so one of the two rules would silently not run.

    Args:
        auth: the app's ``langgraph_sdk.Auth`` (``langgraph.json`` ``"auth"``).
        admins: identities reaching every namespace.
        agent_writes: who may write the agent's shared namespace through the store API
            (a flag, or a function of ``{"user_id": <authenticated identity>}``).
        namespace, agent_namespace, room_namespace: the templates the app's graphs use.
        store: the store holding room member lists (see :class:`AccessPolicy`).
        agent_ids: the agents whose shared and room namespaces users reach (see
            :class:`AccessPolicy`): the same ids the app's graphs pin.

    Returns:
        The policy, for other faces (the memory browser) to ask the same rule.
    """
    policy = AccessPolicy(
        admins=frozenset(admins), agent_writes=agent_writes, namespace=tuple(namespace),
        agent_namespace=tuple(agent_namespace), room_namespace=tuple(room_namespace), store=store,
        agent_ids=frozenset(agent_ids) if not isinstance(agent_ids, str) else agent_ids,  # type: ignore[arg-type]
    )
    taken = sorted(a for r, a in getattr(auth, "_handlers", {}) if r == "store")
    if taken:
        # The server runs the most specific handler only: the app's store rule would
        # silently stop running (or ours would). Say so, before registering anything.
        raise ValueError(f"the app already has an @auth.on.store handler ({', '.join(taken)}): protect_store "
                         "replaces it, remove it (or fold its rule into admins / agent_writes)")
    exceptions = type(auth).exceptions
    on_store = auth.on.store
    for action in STORE_ACTIONS:
        getattr(on_store, action)(_handler(policy, action, exceptions))
    return policy

