"""The memory browser's pages and actions, wired into one Starlette app."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import namespace_key, utcnow
from langgraph_memory.ui import _queries as q
from langgraph_memory.ui._app import SECURITY_HEADERS, _admin, _Browser, _namespace, _Refused
from langgraph_memory.ui._html import SCRIPT, STYLE, Html
from langgraph_memory.ui._more_pages import conversations_page, gardener_page, rooms_page
from langgraph_memory.ui._pages import View, memory_page, namespace_page, start_page

__all__ = ["memory_browser"]


def memory_browser(
    store: Any = None,
    *,
    policy: Any = None,
    digest_model: Any = None,
    prefix: str = "",
    secret: bytes | None = None,
) -> Starlette:
    """The memory browser as an ASGI (Starlette) app.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore` to show. ``None``: the app is
            mounted in a LangGraph server (langgraph.json ``"http": {"app": ...}``) and
            reads the server's own store (langgraph.json ``"store"``, a
            ``memory_store.as_base_store()``), opened once by the server.
        policy: who may read and write which namespace: the
            ``langgraph_memory.auth.AccessPolicy`` of ``protect_store(auth)``. Without
            one, an anonymous viewer sees everything (the CLI binds to 127.0.0.1) and an
            authenticated user only their own ``("memories", identity)`` namespaces.
        digest_model: the chat model of "digest now" on the rooms page; ``None`` shows the
            action disabled.
        prefix: the URL path the pages live under (``"/memory-browser"`` when mounted).
        secret: the key form tokens are signed with; default a random one per app, so
            several worker processes behind one address need the same ``secret``.
    """
    if not isinstance(prefix, str) or (prefix and not prefix.startswith("/")):
        raise InvalidMemoryError("prefix", "expected a URL path starting with '/', or ''")
    if secret is not None and (not isinstance(secret, bytes) or len(secret) < 16):
        raise InvalidMemoryError("secret", "expected at least 16 bytes")
    browser = _Browser(store, policy, digest_model, prefix, secret)
    routes = [
        browser.page_route("/", "namespaces", start_page),
        browser.page_route("/namespace", "namespace", _namespace_page),
        browser.page_route("/memory", "memory", _memory_page),
        browser.page_route("/conversations", "conversations", _conversations_page),
        browser.page_route("/rooms", "rooms", lambda view, params: rooms_page(
            view, params, digest_model=browser.digest_model)),
        browser.page_route("/gardener", "gardener", lambda view, params: _gardener_page(browser, view, params)),
        browser.action_route("/actions/edit", _edit),
        browser.action_route("/actions/delete", _delete),
        browser.action_route("/actions/restore", _restore),
        browser.action_route("/actions/erase", _erase),
        browser.action_route("/actions/digest", lambda view, form: _digest(browser, view, form)),
        browser.action_route("/actions/garden", lambda view, form: _garden(browser, view, form)),
        _static(prefix + "/static/style.css", STYLE, "text/css"),
        _static(prefix + "/static/browser.js", SCRIPT, "text/javascript"),
    ]
    return Starlette(routes=routes)


def _static(path: str, text: str, media_type: str) -> Route:
    async def endpoint(request: Any) -> Response:
        headers = {**SECURITY_HEADERS, "Cache-Control": "max-age=300"}
        return Response(text, media_type=f"{media_type}; charset=utf-8", headers=headers)

    return Route(path, endpoint, methods=["GET"])


# -- pages needing a namespace ------------------------------------------------------------


def _namespace_page(view: View, params: dict[str, str]) -> Html:
    return namespace_page(view, _namespace(view, params, "read"), params)


def _memory_page(view: View, params: dict[str, str]) -> Html:
    namespace = _namespace(view, params, "read")
    memory = q.find_memory(view.store, params.get("id"), namespace)
    if memory is None:
        raise _Refused(404, "no such memory in this namespace")
    return memory_page(view, namespace, memory, params)


def _conversations_page(view: View, params: dict[str, str]) -> Html:
    return conversations_page(view, _namespace(view, params, "read"), params)


def _gardener_page(browser: _Browser, view: View, params: dict[str, str]) -> Html:
    _admin(view)
    return gardener_page(view, params, last_run=browser.last_garden)


# -- actions (each returns where to go next) ----------------------------------------------


def _target(view: View, form: dict[str, str]) -> tuple[Any, Any]:
    namespace = _namespace(view, form, "write")
    memory = q.find_memory(view.store, form.get("id"), namespace)
    if memory is None:
        raise _Refused(404, "no such memory in this namespace")
    return namespace, memory


def _edit(view: View, form: dict[str, str]) -> str:
    namespace, memory = _target(view, form)
    if memory.status != "live":
        raise _Refused(409, f"this memory is {memory.status}: only the live version can be edited")
    ttl = None
    if memory.expires_at is not None:
        ttl = max(memory.expires_at - utcnow(), timedelta(seconds=1))
    options: dict[str, Any] = dict(
        namespace=namespace, kind=memory.kind, memory_type=memory.memory_type, category=memory.category,
        subjects=memory.subjects, importance=memory.importance, ttl=ttl, source=memory.source,
    )
    if view.caps.remember_updates:
        options["updates"] = memory.id
    result = view.store.remember(form.get("content", ""), **options)
    if result.action == "duplicate":
        done = "edited-same"
    elif result.action == "updated" and result.replaced is not None and result.replaced.id == memory.id:
        done = "edited"
    else:
        done = "edited-new"
    return _href(view, "/memory", ns=namespace_key(namespace), id=result.memory.id, done=done)


def _delete(view: View, form: dict[str, str]) -> str:
    namespace, memory = _target(view, form)
    reason = form.get("reason") or None
    key = namespace_key(namespace)
    if view.caps.soft_delete:
        view.store.delete(memory.id, namespace=namespace, reason=reason or "deleted in the memory browser")
        return _href(view, "/memory", ns=key, id=memory.id, done="forgotten")
    if form.get("permanent") != "yes":
        raise _Refused(400, "tick 'I understand': without soft delete, deleting cannot be undone")
    view.store.delete(memory.id, namespace=namespace, reason=reason or "deleted in the memory browser")
    return _href(view, "/namespace", ns=key, done="deleted")


def _restore(view: View, form: dict[str, str]) -> str:
    namespace, memory = _target(view, form)
    restored = view.store.restore(memory.id, namespace=namespace)
    if restored is None:
        raise _Refused(409, f"this memory is {memory.status}: nothing to restore")
    return _href(view, "/memory", ns=namespace_key(namespace), id=restored.id, done="restored")


def _erase(view: View, form: dict[str, str]) -> str:
    namespace = _namespace(view, form, "write")
    key = namespace_key(namespace)
    if form.get("confirm") != key:
        raise _Refused(400, f"nothing erased: type {key} exactly to confirm")
    view.store.erase(namespace)
    return _href(view, "/", done="erased")


def _digest(browser: _Browser, view: View, form: dict[str, str]) -> str:
    from langgraph_memory.background.digest import digest

    namespace = _namespace(view, form, "write")
    if browser.digest_model is None:
        raise _Refused(409, "no chat model is configured for the digest")
    digest(view.store, namespace=namespace, room=form.get("room", ""), model=browser.digest_model)
    return _href(view, "/rooms", done="digested")


def _garden(browser: _Browser, view: View, form: dict[str, str]) -> str:
    _admin(view)
    browser.last_garden = dict(view.store.garden(None))
    return _href(view, "/gardener", done="gardened")


def _href(view: View, path: str, **params: object) -> str:
    # A Location header is not HTML: undo the escaping of the page links.
    return str(view.href(path, **params)).replace("&amp;", "&")
