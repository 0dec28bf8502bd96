"""The memory browser: a small web app to look at, search, edit and forget memories.

``langgraph-memory ui`` serves it for a store on this machine (bound to 127.0.0.1); the same
app mounts in a LangGraph server through langgraph.json (``"http": {"app":
"langgraph_memory.ui.server:app"}``), where it reads the server's own store and shows each
authenticated user only what the access policy lets them reach. Server-rendered HTML,
one small script, no build step and nothing fetched from elsewhere: it works offline.
Needs Starlette (the ``ui`` extra).
"""

from langgraph_memory.ui._routes import memory_browser

__all__ = ["memory_browser"]
