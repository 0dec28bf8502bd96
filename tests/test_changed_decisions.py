"""Changed decisions (seed 001 section 3.3) through real turns: a scripted model, the real store and the
real offline embedder. Two paths leave one live decision with the old one in history: the model says
which memory the new one updates (``store_memory(..., updates=id)``, the id read from the injected
block), or it does not and the dedup policy recognises the change by itself."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from langgraph_memory.testing import ScriptedChatModel, tool_call

from agent_harness import build_agent, config, run

pytestmark = pytest.mark.integration

USER = "seed-001"
NS = ("memories", USER)

CHANGES = {
    "seed 001, English": ("Let's use PostgreSQL for the database layer.",
                          "Decision: use PostgreSQL for the database layer",
                          "Actually, let's go with MySQL instead.",
                          "Decision: use MySQL for the database layer instead"),
    "seed 001, French": ("On part sur PostgreSQL pour la couche de données.",
                         "Décision : utiliser PostgreSQL pour la couche de données",
                         "En fait j'ai changé d'avis, on va utiliser MySQL à la place",
                         "On va utiliser MySQL à la place de PostgreSQL"),
    # Decided in English, changed in French: the change names what it replaces ("à la place de PostgreSQL").
    "seed 001, English then French": ("Let's use PostgreSQL for the database layer.",
                                      "Decision: use PostgreSQL for the database layer",
                                      "En fait on va plutôt prendre MySQL",
                                      "On va utiliser MySQL à la place de PostgreSQL"),
    "hosting switch": ("The API runs on Heroku.",
                       "Decision: host the API on Heroku",
                       "We moved off Heroku last week.",
                       "We switched the API hosting from Heroku to Fly.io"),
}


def live_decisions(store) -> list[str]:
    return sorted(p.payload["content"] for p in store.iter_points(namespace=NS, include_superseded=False)
                  if p.payload.get("memory_type") == "decision")


@pytest.mark.parametrize("kind", ["graph", "middleware"])
@pytest.mark.parametrize("path", ["model says updates", "policy alone"])
@pytest.mark.parametrize("case", sorted(CHANGES))
def test_a_changed_decision_leaves_one_live_decision_and_the_old_one_in_history(store, kind, path, case):
    said_first, first, said_then, then = CHANGES[case]
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("store_memory", {"content": first, "memory_type": "decision"})]),
        "Noted.",
    )
    agent = build_agent(kind, store, model)
    cfg = config(USER)
    run(agent, "sync", said_first, cfg)
    [old] = [m for m in store.recent(namespace=NS, since=None) if m.content == first]

    args = {"content": then, "memory_type": "decision"}
    if path == "model says updates":
        args["updates"] = old.id
    model.say(AIMessage("", tool_calls=[tool_call("store_memory", args)]), "Updated.")
    out = run(agent, "sync", said_then, cfg)
    # The model could only have taken the id from what it was shown: the injected block or, as here, the
    # earlier store_memory result in the thread (a memory injected or stored once is not injected again).
    assert any(old.id in str(m.content) for m in model.received[2])

    reply = [m for m in out["messages"] if isinstance(m, ToolMessage)][-1]
    assert f"of {old.id}" in reply.content and "which it replaces" in reply.content
    assert live_decisions(store) == [then]
    [new] = [m for m in store.recent(namespace=NS, since=None) if m.content == then]
    history = store.history(new.id, namespace=NS)
    assert [(m.content, m.status) for m in history] == [(first, "superseded"), (then, "live")]
    assert history[0].superseded_by == new.id and new.supersedes == (old.id,)
    # The ledger forgets the old id and holds the new one: the next turn is not shown the old decision.
    assert old.id not in out["memory"]["injected"] and new.id in out["memory"]["injected"]


def test_updates_with_an_id_from_another_user_is_not_found_and_stores_nothing(store):
    theirs = store.remember("Decision: use PostgreSQL for the database layer", namespace=("memories", "other"),
                            memory_type="decision").memory
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Decision: use MySQL for the database layer",
                                                              "memory_type": "decision", "updates": theirs.id})]),
        "Sorry.",
    )
    out = run(build_agent("graph", store, model), "sync", "Use MySQL instead", config(USER))
    [reply] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert reply.status == "error" and "no live fact memory" in reply.content and "Nothing was stored" in reply.content
    assert live_decisions(store) == []
    assert store.get(theirs.id, namespace=("memories", "other")) is not None


def test_the_default_instructions_ask_for_updates_on_a_changed_decision():
    from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS

    assert "updates" in MEMORY_INSTRUCTIONS and "changes a decision" in MEMORY_INSTRUCTIONS
    assert "delete_self" in MEMORY_INSTRUCTIONS  # seed 002: a contradicted limitation is deleted, not left beside
