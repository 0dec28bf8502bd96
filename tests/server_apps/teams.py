"""A team-memory agent behind token auth, for ``tests/test_scope_server.py``: memories live
in ``("teams", "{team_id}", "memories")`` and the auth handler returns each user's team, so
a run's ``team_id`` is the authenticated user's, never the client's."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TypedDict

from langgraph_sdk import Auth

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from studio_agent import make_model, store  # noqa: E402

from langgraph_memory import build_memory_graph  # noqa: E402

TEAMS = ("teams", "{team_id}", "memories")
USERS = {
    "token-alice": {"identity": "alice", "team_id": "red"},
    "token-bob": {"identity": "bob", "team_id": "blue"},
    "token-dana": {"identity": "dana", "team_id": ["red", "blue"]},  # in two teams: the run names one
    "token-carol": {"identity": "carol"},  # in no team
}

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> dict:
    user = USERS.get((authorization or "").removeprefix("Bearer ").strip())
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown or missing token")
    return dict(user)


class TeamContext(TypedDict, total=False):
    team_id: str


graph = build_memory_graph(make_model(), store, namespace=TEAMS, agent_namespace=None, context_schema=TeamContext)
