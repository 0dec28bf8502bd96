"""The memory browser's ASGI app: routes, who is looking, form tokens, and the actions.

Reads are GET pages; every change is a POST carrying a form token (CSRF): an HMAC of the
browser's session cookie (``SameSite=Strict``, ``HttpOnly``) and the viewer's identity,
under a secret of this app. A POST without the cookie, with another token, or from another
origin is refused before anything is read. Store calls run in a worker thread, one at a
time (qdrant-client's local mode is not thread-safe).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import threading
from typing import Any, Awaitable, Callable, Literal
from urllib.parse import parse_qs, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from langgraph_memory.errors import InvalidMemoryError, LangGraphMemoryError
from langgraph_memory.store._labels import shown_namespace
from langgraph_memory.store.records import Namespace
from langgraph_memory.ui import _access, _queries as q
from langgraph_memory.ui._html import Html, esc, page
from langgraph_memory.ui._pages import View

__all__ = ["SECURITY_HEADERS"]

logger = logging.getLogger("langgraph_memory")

COOKIE = "lgm_browser"
SESSION = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
MAX_FORM_BYTES = 64 * 1024
SECURITY_HEADERS = {
    # Everything is served from here; the one script is a file, never inline.
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Browser:
    def __init__(self, store: Any, policy: Any, digest_model: Any, prefix: str, secret: bytes | None) -> None:
        self.store = store
        self.policy = policy
        self.digest_model = digest_model
        self.prefix = prefix.rstrip("/")
        self.secret = secret or secrets.token_bytes(32)
        self.lock = threading.Lock()
        self.last_garden: dict[str, Any] | None = None

    # -- who is looking, at which store ---------------------------------------------------

    async def _resolve_store(self) -> Any:
        if self.store is not None:
            return self.store
        # Mounted in a LangGraph server: the server's own store (langgraph.json "store"),
        # which for this package is a QdrantStore face over a MemoryStore.
        from langgraph_api.store import get_store

        face = await get_store()
        store = getattr(face, "memory_store", None)
        if store is None:
            raise _Refused(500, "the server's store (langgraph.json \"store\") is not a langgraph-memory store: "
                                "point it at memory_store.as_base_store()")
        return store

    def _identity(self, request: Request) -> str | None:
        user = request.scope.get("user")
        if user is not None and getattr(user, "is_authenticated", False):
            identity = getattr(user, "identity", None)
            if isinstance(identity, str) and identity:
                return identity
        if self.store is None and _server_has_auth():
            raise _Refused(401, "this server has authentication, but it did not run for the memory browser: set "
                                '"http": {"enable_custom_route_auth": true} in langgraph.json')
        return None

    async def view(self, request: Request) -> tuple[View, str | None]:
        """The request's view, and a new session id when the browser has none yet."""
        identity = self._identity(request)
        store = await self._resolve_store()
        session = request.cookies.get(COOKIE, "")
        new = None
        if not SESSION.match(session):
            session = new = secrets.token_urlsafe(32)
        policy = self.policy

        def allows(action: Literal["read", "write"], namespace: Namespace) -> bool:
            return _access.allows(policy, identity, action, namespace)

        base = request.scope.get("root_path", "") + self.prefix
        return View(store=store, base=base, identity=identity, admin=_access.is_admin(policy, identity),
                    csrf=self._token(session, identity), caps=q.Capabilities.of(store), allows=allows), new

    def _token(self, session: str, identity: str | None) -> str:
        return hmac.new(self.secret, f"{session}\0{identity or ''}".encode(), hashlib.sha256).hexdigest()

    # -- plumbing ------------------------------------------------------------------------

    def respond(self, request: Request, view: View | None, new_session: str | None, title: str, body: Html,
                status: int = 200) -> Response:
        html = page(view.base if view else request.scope.get("root_path", "") + self.prefix, title, body,
                    who=view.identity if view else None, admin=view.admin if view else False)
        response = HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
        if new_session:
            response.set_cookie(COOKIE, new_session, httponly=True, samesite="strict",
                                secure=request.url.scheme == "https", path=(view.base if view else "") or "/")
        return response

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        def locked() -> Any:
            with self.lock:
                return function(*args)

        return await run_in_threadpool(locked)

    async def answer(self, request: Request, work: Callable[[View, str | None], Awaitable[Response]]) -> Response:
        """``work``'s response for this request's view, or the page saying why not."""
        view, new = None, None
        try:
            view, new = await self.view(request)
            return await work(view, new)
        except _Refused as exc:
            return self.respond(request, view, new, "refused", _message("error", str(exc)), exc.status)
        except LangGraphMemoryError as exc:  # bad input: 400; the store or a model failing: 503
            status = 400 if isinstance(exc, InvalidMemoryError) else 503
            return self.respond(request, view, new, "error", _message("error", str(exc)), status)

    def page_route(self, path: str, title: str, render: Callable[[View, dict[str, str]], Html]) -> Route:
        async def endpoint(request: Request) -> Response:
            async def work(view: View, new: str | None) -> Response:
                body = await self.run(render, view, dict(request.query_params.items()))
                return self.respond(request, view, new, title, body)

            return await self.answer(request, work)

        return Route(self.prefix + path, endpoint, methods=["GET"])

    def action_route(self, path: str, act: Callable[[View, dict[str, str]], str]) -> Route:
        async def endpoint(request: Request) -> Response:
            async def work(view: View, new: str | None) -> Response:
                form = await _form(request)
                self._check_post(request, view, new, form)
                target = await self.run(act, view, form)
                return RedirectResponse(target, status_code=303, headers=SECURITY_HEADERS)

            return await self.answer(request, work)

        return Route(self.prefix + path, endpoint, methods=["POST"])

    def _check_post(self, request: Request, view: View, new_session: str | None, form: dict[str, str]) -> None:
        origin = request.headers.get("origin")
        if origin and origin != "null" and urlsplit(origin).netloc != request.headers.get("host"):
            raise _Refused(403, "refused: the form was sent from another site")
        if request.headers.get("sec-fetch-site") not in (None, "same-origin", "none"):
            raise _Refused(403, "refused: the form was sent from another site")
        if new_session or not hmac.compare_digest(form.get("csrf", ""), view.csrf):
            raise _Refused(403, "refused: the form's token is missing or stale; reload the page and try again")


def _server_has_auth() -> bool:
    try:
        from langgraph_api import config
    except ImportError:
        return False
    return bool(getattr(config, "LANGGRAPH_AUTH", None))


async def _form(request: Request) -> dict[str, str]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise _Refused(415, "expected a form")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise _Refused(413, "form too large")
    try:
        parsed = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
    except UnicodeDecodeError:
        raise _Refused(400, "the form is not UTF-8") from None
    return {k: v[0] for k, v in parsed.items()}


def _message(kind: str, text: str) -> Html:
    return Html(f'<p class="{esc(kind)}" role="alert">{esc(text)}</p>')


def _namespace(view: View, params: dict[str, str], action: Literal["read", "write"]) -> Namespace:
    namespace = q.parse_key(params.get("ns"))
    if not view.allows(action, namespace):
        raise _Refused(403, f"you may not {action} {shown_namespace(namespace)}")
    return namespace


def _admin(view: View) -> None:
    if not view.admin:
        raise _Refused(403, "this page is for the store's administrators")
