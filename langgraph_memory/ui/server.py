"""The memory browser for a LangGraph server: langgraph.json ``"http": {"app":
"langgraph_memory.ui.server:app"}`` serves it under ``/memory-browser/``, reading the
server's store (langgraph.json ``"store"``). On a server with auth, also set
``"enable_custom_route_auth": true`` so each page knows its user; for other rules than
"each user sees their own memories", build the app yourself with
``memory_browser(policy=...)``."""

from langgraph_memory.ui._routes import memory_browser

__all__ = ["app", "PREFIX"]

PREFIX = "/memory-browser"
app = memory_browser(prefix=PREFIX)
