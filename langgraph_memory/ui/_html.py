"""HTML building blocks of the memory browser: escaping, the page layout, small SVG plots.

Every value that comes from the store (memory text, subjects, namespaces, room names,
authors) goes through :func:`esc` or :func:`attr` before it reaches a page: a memory that
reads ``<script>`` is shown as those characters, never run. Markup is assembled from
:class:`Html` pieces, which are already safe; plain ``str`` is always escaped.
"""

from __future__ import annotations

import html
import math
from datetime import datetime, timezone
from typing import Iterable, Mapping, Sequence
from urllib.parse import urlencode

__all__ = ["Html", "esc", "attr", "join", "page", "bar_chart", "link_graph", "when", "url"]

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:.6em 1.2em;display:flex;gap:1.4em;align-items:baseline}
header a{color:#cfe3ff;text-decoration:none}header strong{font-size:1.05em}
main{padding:1em 1.4em;max-width:1100px}
h1{font-size:1.3em;margin:.2em 0 .6em}h2{font-size:1.1em;margin:1.2em 0 .4em}h3{font-size:1em;margin:1em 0 .3em}
table{border-collapse:collapse;width:100%;background:#fff}
td,th{border-bottom:1px solid #e3e6eb;padding:.35em .5em;text-align:left;vertical-align:top}
th{font-weight:600;color:#4a5568;font-size:.9em}
.content{white-space:pre-wrap;word-break:break-word}
.muted{color:#6b7685;font-size:.9em}.note{background:#fff8e1;border:1px solid #f0d98c;padding:.5em .8em;margin:.6em 0}
.error{background:#fdecea;border:1px solid #f5b5ae;padding:.5em .8em;margin:.6em 0}
.ok{background:#e8f5e9;border:1px solid #a5d6a7;padding:.5em .8em;margin:.6em 0}
.tag{display:inline-block;background:#e8eefc;border-radius:3px;padding:0 .35em;margin:0 .2em .1em 0;font-size:.85em}
.status-live{color:#2e7d32}.status-archived,.status-forgotten{color:#b26a00}.status-superseded{color:#6b7685}
form.inline{display:inline}fieldset{border:1px solid #d5dae1;background:#fff;margin:.8em 0}
input[type=text],input[type=search],textarea,select{font:inherit;padding:.25em}
textarea{width:100%;min-height:4em}button{font:inherit;padding:.2em .8em}
button[disabled]{opacity:.55}
.cards{display:flex;flex-wrap:wrap;gap:1em}.card{background:#fff;border:1px solid #e3e6eb;padding:.6em 1em;min-width:14em}
nav.pages a{margin-right:1em}table.fields th{width:9em}table.grouped{table-layout:fixed}table.grouped th:first-child{width:38%}
"""

# The browser's only script: asks before erasing, and disables a form's buttons once sent.
SCRIPT = """
document.addEventListener('submit', function (event) {
  var form = event.target;
  var ask = form.getAttribute('data-confirm');
  if (ask && !window.confirm(ask)) { event.preventDefault(); return; }
  form.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
});
"""


class Html(str):
    """Markup that is already safe to emit."""


def esc(value: object) -> Html:
    """``value`` as text in HTML, quotes included (also safe inside attributes)."""
    if isinstance(value, Html):
        return value
    return Html(html.escape("" if value is None else str(value), quote=True))


attr = esc


def join(parts: Iterable[object], sep: str = "") -> Html:
    return Html(esc(sep).join(esc(p) for p in parts))


def url(base: str, path: str, **params: object) -> Html:
    """An escaped URL under the app's mount point, with query parameters (``None`` dropped)."""
    query = urlencode({k: v for k, v in params.items() if v is not None and v != ""}, doseq=True)
    return esc(f"{base}{path}" + (f"?{query}" if query else ""))


def when(value: datetime | float | None) -> str:
    if value is None:
        return "—"
    if not isinstance(value, datetime):
        value = datetime.fromtimestamp(float(value), tz=timezone.utc)
    return value.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def page(base: str, title: str, body: Html, *, who: str | None = None, admin: bool = True) -> Html:
    """A whole page: header with the browser's sections (the gardener for admins), then ``body``."""
    nav = join([
        Html(f'<a href="{url(base, "/")}">namespaces</a>'),
        Html(f'<a href="{url(base, "/rooms")}">rooms</a>'),
        *([Html(f'<a href="{url(base, "/gardener")}">gardener</a>')] if admin else []),
    ], " ")
    user = Html(f'<span class="muted">signed in as {esc(who)}</span>') if who else Html("")
    return Html(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{esc(title)} · memory browser</title>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f'<link rel=stylesheet href="{url(base, "/static/style.css")}">'
        f'<script src="{url(base, "/static/browser.js")}" defer></script></head><body>'
        f'<header><strong>memory browser</strong> {nav} {user}</header>'
        f"<main>{body}</main></body></html>"
    )


def bar_chart(counts: Mapping[str, int], *, title: str, width: int = 420, height: int = 180) -> Html:
    """A vertical bar chart (SVG) of ``counts``, labels under the bars."""
    items = list(counts.items())
    if not items:
        return Html('<p class="muted">nothing to plot</p>')
    top = max(max(v for _, v in items), 1)
    pad, label_h = 28, 34
    plot_h = height - label_h - 16
    step = (width - pad) / len(items)
    bars = []
    for i, (name, value) in enumerate(items):
        h = plot_h * value / top
        x = pad + i * step + step * 0.15
        y = 16 + plot_h - h
        bars.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{step * 0.7:.1f}" height="{h:.1f}" fill="#5b8def">'
            f"<title>{esc(name)}: {value}</title></rect>"
            f'<text x="{x + step * 0.35:.1f}" y="{y - 3:.1f}" font-size="11" text-anchor="middle">{value}</text>'
            f'<text x="{x + step * 0.35:.1f}" y="{height - label_h + 14:.1f}" font-size="11" '
            f'text-anchor="middle">{esc(name)}</text>'
        )
    return Html(
        f'<svg class="plot" role="img" aria-label="{attr(title)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{esc(title)}</title>"
        f'<line x1="{pad}" y1="{16 + plot_h}" x2="{width}" y2="{16 + plot_h}" stroke="#999"/>'
        + "".join(bars) + "</svg>"
    )


def link_graph(center: str, edges: Sequence[tuple[str, str, str, str]], *, size: int = 320) -> Html:
    """A small SVG drawing of a memory's links: the memory in the middle, each linked
    memory on a circle around it, an arrow per link labelled with its relation.

    ``edges``: ``(other id, label text, relation, direction)`` with direction ``out``
    (this memory → other) or ``in``.
    """
    if not edges:
        return Html("")
    c = size / 2
    r = size / 2 - 48
    parts = [
        f'<svg class="links" role="img" aria-label="links" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" xmlns="http://www.w3.org/2000/svg">'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#777"/></marker></defs>'
    ]
    for i, (other, label, relation, direction) in enumerate(edges):
        angle = 2 * math.pi * i / len(edges) - math.pi / 2
        x, y = c + r * math.cos(angle), c + r * math.sin(angle)
        x1, y1, x2, y2 = (c, c, x, y) if direction == "out" else (x, y, c, c)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#777" marker-end="url(#arrow)"/>'
            f'<text x="{(c + x) / 2:.1f}" y="{(c + y) / 2 - 4:.1f}" font-size="10" text-anchor="middle" '
            f'fill="#444">{esc(relation)}</text>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="#9ec1ff"><title>{esc(label)}</title></circle>'
            f'<text x="{x:.1f}" y="{y + 22:.1f}" font-size="10" text-anchor="middle">{esc(other[:8])}</text>'
        )
    parts.append(f'<circle cx="{c}" cy="{c}" r="12" fill="#1d2430"><title>{esc(center)}</title></circle>'
                 f'<text x="{c}" y="{c + 26}" font-size="10" text-anchor="middle">{esc(center[:8])}</text></svg>')
    return Html("".join(parts))
