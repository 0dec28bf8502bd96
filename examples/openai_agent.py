"""An agent on OpenAI with long-term memory, end to end: it learns about a user in one
conversation and uses it in another.

    export OPENAI_API_KEY=sk-...
    python examples/openai_agent.py                  # two scripted user messages, two threads
    python examples/openai_agent.py --chat           # talk to it yourself (empty line to quit)

The store stays in ./openai_memory (embedded Qdrant Edge). A new store embeds with OpenAI's
text-embedding-3-small; an existing one keeps the embedder it was built with. Look inside
with ``langgraph-memory --path ./openai_memory list``.
"""

from __future__ import annotations

import argparse
import os
import sys

from langchain.agents import create_agent
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import MemoryMiddleware, MemoryStore

MODEL = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")


def ask(agent, text: str, *, thread: str, user: str) -> str:
    config = {"configurable": {"thread_id": thread, "user_id": user}}
    out = agent.invoke({"messages": [{"role": "user", "content": text}]}, config)
    return out["messages"][-1].content


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chat", action="store_true", help="talk to the agent instead of the two scripted messages")
    parser.add_argument("--path", default="openai_memory", help="store directory (default: ./openai_memory)")
    parser.add_argument("--user", default="alice", help="whose memory (default: alice)")
    args = parser.parse_args(argv)
    if not os.environ.get("OPENAI_API_KEY"):
        print("This example needs OPENAI_API_KEY (python examples/demo.py runs offline).", file=sys.stderr)
        return 2
    with MemoryStore.open(args.path) as store:
        agent = create_agent(ChatOpenAI(model=MODEL), tools=[], middleware=[MemoryMiddleware(store)],
                             checkpointer=InMemorySaver())
        if args.chat:
            thread = 0
            while said := input("you> ").strip():
                print("agent>", ask(agent, said, thread=f"chat-{thread}", user=args.user))
            return 0
        said = "Hi! I'm Alice, I live in Lyon and I'm allergic to peanuts."
        print("you (thread 1)  >", said)
        print("agent           >", ask(agent, said, thread="first", user=args.user))
        store.flush()  # background indexing of the exchange, before the next conversation
        said = "Can you suggest a snack for my train trip tomorrow?"
        print("you (thread 2)  >", said)
        print("agent           >", ask(agent, said, thread="second", user=args.user))
        print("\nWhat the store knows about", args.user + ":")
        for memory in store.recent(namespace=("memories", args.user)):
            print("  -", memory.content)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
