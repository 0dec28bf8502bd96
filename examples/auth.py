"""The reference memory agent for many users: token auth plus ``protect_store``.

``langgraph_auth.json`` serves it::

    langgraph dev --no-reload --config langgraph_auth.json

Every request needs ``Authorization: Bearer <token>``; the server then knows who the user
is, and:

* each run's memories are the authenticated user's (``("memories", <identity>)``), whatever
  ``user_id`` the client puts in its context;
* ``protect_store(auth, ...)`` (the one line an app adds) limits the store API
  (``client.store.*``, Studio's memory view) to the user's own memories, reads of the
  agent's identity and the rooms they may see; anonymous requests get 401;
* threads and crons are their owner's (LangGraph's own resource rule, below): a thread's
  messages and memory ledger are nobody else's to read;
* the agent's own ``self``/``goal`` memories change only in runs of ``ADMINS``: the rule
  below receives the run's context with ``user_id`` set to the authenticated identity;
* a room with members (``store.set_room_members``) is seen and posted to by its members only.

The tokens are demo values: a real app checks a JWT or asks its identity provider in
``authenticate`` and returns the user's stable id.
"""

from __future__ import annotations

import sys
from pathlib import Path

from langgraph_sdk import Auth

sys.path.insert(0, str(Path(__file__).resolve().parent))

from studio_agent import UserContext, base_store, make_model, store  # noqa: E402

from langgraph_memory import build_memory_graph  # noqa: E402
from langgraph_memory.agent.garden_graph import build_garden_graph  # noqa: E402
from langgraph_memory.auth import protect_store  # noqa: E402
from langgraph_memory.ui import memory_browser  # noqa: E402

ADMINS = {"ops"}
"""Identities that may reach every namespace and change the agent's identity."""
DEMO_TOKENS = {"token-alice": "alice", "token-bob": "bob", "token-ops": "ops", "token-eve": "eve@example.com"}
"""eve has an e-mail identity, as real providers give: her memories live in
``("memories", "eve@example%2Ecom")`` (``namespace_label``: store API labels hold no period)."""

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """Who sent the request: the user of a known bearer token, else 401."""
    user = DEMO_TOKENS.get((authorization or "").removeprefix("Bearer ").strip())
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown or missing token")
    return {"identity": user}


@auth.on.threads
async def own_threads(ctx: Auth.types.AuthContext, value: dict) -> Auth.types.FilterType:
    """Threads (their messages and memory ledgers) and their runs are their owner's:
    tagged with the owner on create, filtered by owner on every read, search and run."""
    owner = {"owner": ctx.user.identity}
    metadata = value.setdefault("metadata", {}) if isinstance(value, dict) else None
    if isinstance(metadata, dict):
        metadata.update(owner)
    return owner


auth.on.crons(own_threads)


@auth.on.assistants
async def shared_assistants(ctx: Auth.types.AuthContext, value: dict) -> bool:
    """Everyone may use the served assistants; only admins change them."""
    return ctx.action in ("read", "search") or ctx.user.identity in ADMINS


# The one line that keeps each user's memories theirs on the store API (client.store.*).
policy = protect_store(auth, admins=ADMINS, store=base_store)

graph = build_memory_graph(make_model(), store, context_schema=UserContext,
                           agent_writes=lambda ctx: ctx["user_id"] in ADMINS)


# A gardening pass decays and archives: its namespace input is a client value, so a user
# gardens their own memories and admins (a cron they created) anything.
garden_graph = build_garden_graph(
    store, may_garden=lambda who, ns: policy.is_admin(who) or (ns is not None and policy.allows(who, "write", ns)))

# The memory browser at /memory-browser/ (langgraph_auth.json "http"), asking the same rule as
# the store API: each user sees their own memories, the agent's and their rooms; admins all.
browser = memory_browser(policy=policy, prefix="/memory-browser")
