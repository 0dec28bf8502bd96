"""Who may see and change what in the memory browser: one rule, the store API's.

The browser asks :func:`allows` before every read and every action. With an access
policy (``langgraph_memory.auth.AccessPolicy``, the object ``protect_store(auth)``
returns) the answer is the policy's, the same rule the server's store API applies. Without
one, an anonymous viewer (``langgraph-memory ui``, or a server without auth) is the store's
operator and sees everything, while an authenticated user reaches only their own
``("memories", <identity>, ...)`` namespaces: the narrowest reading of the trust model.
"""

from __future__ import annotations

from typing import Literal, Protocol

from langgraph_memory.agent.scope import InvalidIdentityError, namespace_label
from langgraph_memory.store.records import Namespace

__all__ = ["Policy", "allows", "is_admin", "own_namespace"]


class Policy(Protocol):
    """The interface of ``langgraph_memory.auth.AccessPolicy`` the browser relies on."""

    def allows(self, identity: str | None, action: Literal["read", "write"], namespace: tuple[str, ...]) -> bool: ...

    def is_admin(self, identity: str | None) -> bool: ...


def allows(policy: Policy | None, identity: str | None, action: Literal["read", "write"], namespace: Namespace) -> bool:
    """May ``identity`` (``None``: no authentication) ``action`` ``namespace``?"""
    if policy is not None:
        return bool(policy.allows(identity, action, tuple(namespace)))
    if identity is None:
        return True
    own = own_namespace(identity)
    return own is not None and tuple(namespace[:2]) == own


def own_namespace(identity: str) -> Namespace | None:
    """``("memories", <identity's label>)``, or ``None`` when no label can hold it."""
    try:
        return ("memories", namespace_label(identity))
    except InvalidIdentityError:
        return None


def is_admin(policy: Policy | None, identity: str | None) -> bool:
    """Admins see every namespace, the rooms and the gardener."""
    if policy is not None:
        return bool(policy.is_admin(identity))
    return identity is None
