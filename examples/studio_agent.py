"""The reference memory agent, served by ``langgraph dev`` for LangGraph Studio.

``langgraph.json`` at the repository root points here. Without ``OPENAI_API_KEY`` the agent
runs offline: the store is embedded Qdrant Edge, the embedder is the packaged
all-MiniLM-L6-v2 and the model is :class:`OfflineMemoryModel`, a small deterministic
stand-in that stores what it is told to remember and answers from the memories it is
shown. With the key it uses ``ChatOpenAI`` (``OPENAI_MODEL``, default ``gpt-4o-mini``) and
OpenAI embeddings.

    langgraph dev --no-reload       # then open the Studio link it prints

The store lives in ``LANGGRAPH_MEMORY_PATH`` (default: ``.langgraph_memory/studio`` in the
repository). An embedded store is opened by one process at a time, hence ``--no-reload``:
with reloading on, a reload must wait for the old server process to let the store go.
Each run needs a user: ``user_id`` in the run's context (the assistant's context form in
Studio) or in ``config["configurable"]``.

Rooms (seed 002): the ``room`` graph observes what is said in a room (send it messages
with a ``name``, the author, and ``room`` in the context); a ``memory_agent`` run whose
context names ``rooms: ["lobby"]`` sees the live excerpts relevant to its message; the
``digest`` graph (input ``{"rooms": ["lobby"]}``, or a LangGraph Platform cron) turns the
room into facts and empties it. Offline, the digest keeps each informative message as a
dated fact; with ``OPENAI_API_KEY`` ChatOpenAI extracts them (structured output).
"""

from __future__ import annotations

import atexit
import os
import json
import re
import uuid
from pathlib import Path
from typing import Any, Sequence

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph
from typing_extensions import TypedDict

from langgraph_memory import (
    MemoryStore,
    RoomObserver,
    build_digest_graph,
    build_memory_graph,
    lazy_default_embeddings,
    shared_store,
)
from langgraph_memory.agent.garden_graph import build_garden_graph

DEFAULT_PATH = Path(__file__).resolve().parents[1] / ".langgraph_memory" / "studio"

# "remember that X" / "retiens que X" -> store X; "forget X" / "oublie X" -> delete it.
REMEMBER = re.compile(
    r"^\s*(?:please\s+)?(?:(?P<en>remember|note)(?:\s+that)?|(?P<fr>retiens|souviens-toi|rappelle-toi)"
    r"(?:\s+que\s+|\s+qu'|\s+))\s*(?P<fact>.+?)[\s.!]*$",
    re.IGNORECASE | re.DOTALL,
)
FORGET = re.compile(
    r"^\s*(?:please\s+)?(?:(?P<en>forget)(?:\s+that)?|(?P<fr>oublie)(?:\s+que\s+|\s+qu'|\s+))\s*(?P<fact>.+?)[\s.!]*$",
    re.IGNORECASE | re.DOTALL,
)
# "remember about yourself that X" -> store X as the agent's own (``self``) memory.
REMEMBER_SELF = re.compile(r"^\s*remember about yourself(?:\s+that)?\s+(?P<fact>.+?)[\s.!]*$", re.IGNORECASE | re.DOTALL)
# One line of the rendered <memories> block: '- [tag] (id: <id>, <date>) "<content>"' (the
# content is a JSON string).
MEMORY_LINE = re.compile(r"^- \[(?P<tag>[^\]]+)\] \(id: (?P<id>[^,]+), [^)]*\) (?P<content>\".*\")$")
# One line of the live room block: '• <author> (<dd/mm HH:MM>): "<text>"' (the text is a JSON string; the
# author may hold parentheses: "bob (as alice)").
LIVE_LINE = re.compile(r"^• (?P<author>.+?) \((?P<at>[^()]*)\): (?P<text>\".*\")$")
# One line of the digest's transcript: "[dd/mm/YYYY HH:MM] author: text".
TRANSCRIPT_LINE = re.compile(r"^\[(?P<at>[^\]]+)\] (?P<author>[^:]+): (?P<text>.+)$")
DIGEST_PROMPT = "You read messages overheard in the group chat room"
WORD = re.compile(r"\w+")


class UserContext(TypedDict, total=False):
    """The run's context: whose memories these are, and the rooms the run may see.
    Studio shows it as a form."""

    user_id: str
    rooms: list[str]
    agent_id: str


class RoomContext(TypedDict, total=False):
    """The ``room`` graph's context: which room the messages were said in."""

    room: str
    agent_id: str


def _text(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else message.text


def shown_memories(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
    """The memories in the ``<memories>`` block of the model's system message."""
    if not messages or not isinstance(messages[0], SystemMessage):
        return []
    block = _text(messages[0]).partition("<memories>")[2].partition("</memories>")[0]
    rows = [m.groupdict() for line in block.splitlines() if (m := MEMORY_LINE.match(line.strip()))]
    return [{**row, "content": json.loads(row["content"])} for row in rows]


def shown_excerpts(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
    """The live room excerpts in the model's system message."""
    if not messages or not isinstance(messages[0], SystemMessage):
        return []
    block = _text(messages[0]).partition("<live_room_context>")[2].partition("</live_room_context>")[0]
    rows = [m.groupdict() for line in block.splitlines() if (m := LIVE_LINE.match(line.strip()))]
    return [{**row, "text": json.loads(row["text"])} for row in rows]


def offline_digest(messages: Sequence[BaseMessage]) -> AIMessage:
    """The digest's structured answer, offline: each message of three words or more becomes
    a dated fact about its author, kept two weeks (chit-chat is shorter)."""
    room = re.search(r"room #([\w-]+)", _text(messages[0]))
    facts = []
    for line in _text(messages[-1]).splitlines():
        m = TRANSCRIPT_LINE.match(line.strip())
        if m and len(WORD.findall(m.group("text"))) >= 3:
            author = m.group("author").strip()
            facts.append({"content": f"{author.capitalize()} said in #{room.group(1) if room else 'the room'} "
                                     f"on {m.group('at')}: {m.group('text')}",
                          "subjects": [author.lower()], "memory_type": "event", "ttl": "14d"})
    return _call("DigestFacts", {"facts": facts})


def _call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:12]}",
                                      "type": "tool_call"}])


class OfflineMemoryModel(BaseChatModel):
    """A deterministic chat model for offline Studio sessions, no LLM needed.

    * "remember that X" / "retiens que X": calls ``store_memory`` with X;
    * "remember about yourself that X": calls ``store_self`` with X (the agent's identity);
    * "forget X" / "oublie X": calls ``delete_memory`` on the shown memory sharing the most
      words with X;
    * after a tool result: confirms in one line;
    * anything else: lists the memories and live room excerpts it was shown, or says it
      remembers nothing;
    * asked for a digest (structured output): keeps each message of three words or more.

    Unlike a scripted list it never runs out, so a Studio session can go on. ``bind_tools``
    returns the model itself: it already knows the memory tools it calls.
    """

    @property
    def _llm_type(self) -> str:
        return "offline-memory"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> "OfflineMemoryModel":  # type: ignore[override]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.reply(messages))])

    def reply(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """The next move for this model input."""
        if messages and isinstance(messages[0], SystemMessage) and _text(messages[0]).startswith(DIGEST_PROMPT):
            return offline_digest(messages)
        human = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
        said = _text(human) if human is not None else ""
        french = bool((m := REMEMBER.match(said) or FORGET.match(said)) and m.group("fr"))
        last = messages[-1] if messages else None
        if isinstance(last, ToolMessage):
            if last.status == "error":
                return AIMessage(f"{'Ça n’a pas marché' if french else 'That did not work'}: {_text(last)}")
            return AIMessage(f"{'C’est noté.' if french else 'Noted.'} {_text(last)}")
        if (m := REMEMBER_SELF.match(said)) is not None:
            return _call("store_self", {"content": m.group("fact"), "category": "context"})
        if (m := REMEMBER.match(said)) is not None:
            return _call("store_memory", {"content": m.group("fact")})
        shown = shown_memories(messages)
        if (m := FORGET.match(said)) is not None:
            wanted = {w.lower() for w in WORD.findall(m.group("fact"))}
            best = max(shown, key=lambda s: len(wanted & {w.lower() for w in WORD.findall(s["content"])}),
                       default=None)
            if best is not None and wanted & {w.lower() for w in WORD.findall(best["content"])}:
                return _call("delete_memory", {"id": best["id"], "reason": "the user asked to forget it"})
            return AIMessage("Je ne me souviens de rien à ce sujet." if french else "I don't remember anything about that.")
        excerpts = [f"- {e['author']} ({e['at']}): {e['text']}" for e in shown_excerpts(messages)]
        if not shown and not excerpts:
            return AIMessage("I don't remember anything about that.")
        lines = "\n".join(f"- {s['content']}" for s in shown)
        parts = [f"Here is what I remember:\n{lines}"] if shown else []
        if excerpts:
            parts.append("Said in the room:\n" + "\n".join(excerpts))
        return AIMessage("\n".join(parts))


def make_model() -> BaseChatModel:
    """``ChatOpenAI`` when ``OPENAI_API_KEY`` is set, else the offline model."""
    if os.environ.get("OPENAI_API_KEY"):
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"))
    return OfflineMemoryModel()


def open_store() -> MemoryStore:
    """The embedded store; OpenAI embeddings with the key, else the offline embedder, loaded
    on the first message, not at import: ``langgraph dev`` times the graph's import.

    ``langgraph dev`` loads this file once per graph and once for the store of
    ``langgraph.json``: :func:`shared_store` gives them all the one store of this process."""
    path = Path(os.environ.get("LANGGRAPH_MEMORY_PATH") or DEFAULT_PATH)
    path.parent.mkdir(parents=True, exist_ok=True)
    store = shared_store(path, embeddings=lazy_default_embeddings())
    # Release the directory's lock on a clean shutdown, so the next server can open it.
    atexit.register(store.close)
    return store


def build_room_graph(store: MemoryStore) -> Any:
    """A graph that observes the human messages it is sent (author: the message ``name``)
    into the room its context names."""
    builder = StateGraph(MessagesState, context_schema=RoomContext)
    builder.add_node("observe", RoomObserver(store))
    builder.add_edge(START, "observe")
    builder.add_edge("observe", END)
    return builder.compile(name="room")


store = open_store()
model = make_model()
# No checkpointer: the LangGraph server keeps the threads (and their memory ledgers).
graph = build_memory_graph(model, store, context_schema=UserContext)
# The server's store (langgraph.json "store"): the same memories as LangGraph items, for the
# SDK's client.store.* and Studio's memory view.
base_store = store.as_base_store()
room_graph = build_room_graph(store)
digest_graph = build_digest_graph(store, model)
# The same store's gardening pass, for a cron of the deployment (langgraph.json: "garden").
garden_graph = build_garden_graph(store)
