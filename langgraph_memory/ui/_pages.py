"""The memory browser's pages about memories: the start page, a namespace, one memory.

Each function takes the request's :class:`View` (the store, who is looking, the form
token) and its query parameters, and returns the page body as :class:`Html`. Access is
checked by the caller before a namespace's data is read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Sequence

from langgraph_memory.store._labels import shown_namespace
from langgraph_memory.store.records import (
    KIND_CATEGORIES,
    DEFAULT_IMPORTANCE,
    Memory,
    Namespace,
    namespace_key,
    utcnow,
)
from langgraph_memory.ui import _queries as q
from langgraph_memory.ui._access import own_namespace
from langgraph_memory.ui._html import Html, bar_chart, esc, join, link_graph, url, when

__all__ = ["View", "start_page", "namespace_page", "memory_page", "csrf_field", "DONE"]

# Messages shown after an action (the redirect names one by its code: no text travels in URLs).
DONE = {
    "edited": "Saved as a new version.", "edited-new": "Stored as a new memory: the dedup policy judged it a "
    "different fact, so the old one is unchanged.", "edited-same": "Nothing changed: the store already knows this.",
    "deleted": "Deleted.", "forgotten": "Forgotten: restorable from the memory's page.", "restored": "Restored.",
    "erased": "Namespace erased.", "digested": "Digest done.", "gardened": "Gardening pass done.",
}


@dataclass
class View:
    """One request's view of the store."""

    store: Any
    base: str
    """The app's URL prefix (mount point)."""
    identity: str | None
    admin: bool
    csrf: str
    caps: q.Capabilities
    allows: Callable[[Literal["read", "write"], Namespace], bool]

    def href(self, path: str, **params: object) -> Html:
        return url(self.base, path, **params)


def csrf_field(view: View) -> Html:
    return Html(f'<input type="hidden" name="csrf" value="{esc(view.csrf)}">')


def _done(params: Mapping[str, str]) -> Html:
    message = DONE.get(params.get("done", ""))
    return Html(f'<p class="ok" role="status">{esc(message)}</p>') if message else Html("")


def _ttl(m: Memory) -> str:
    if m.expires_at is None:
        return "permanent"
    left = m.expires_at - utcnow()
    if left.total_seconds() <= 0:
        return f"expired {when(m.expires_at)}"
    days = left.total_seconds() / 86400
    return f"{days:.1f} d left" if days >= 1 else f"{left.total_seconds() / 3600:.1f} h left"


def _tags(values: Sequence[str]) -> Html:
    return join((Html(f'<span class="tag">{esc(v)}</span>') for v in values), "")


def _status(m: Memory) -> Html:
    return Html(f'<span class="status-{esc(m.status)}">{esc(m.status)}</span>')


# -- start page ---------------------------------------------------------------------------


def start_page(view: View, params: Mapping[str, str]) -> Html:
    store = view.store
    rows = [r for r in q.namespaces(store) if view.allows("read", q.parse_key(r[1]))]
    own_ns = None if view.identity is None else own_namespace(view.identity)
    own = None if own_ns is None else namespace_key(own_ns)
    if own and own not in {r[1] for r in rows}:
        rows.insert(0, ("users", own, 0, 0))
    body = [Html("<h1>Namespaces</h1>"), _done(params)]
    if view.admin:
        live = store.count()
        size = q.store_size(store)
        body.append(Html(
            '<div class="cards">'
            f'<div class="card"><b>{live}</b> live memories</div>'
            f'<div class="card"><b>{sum(r[3] for r in rows)}</b> records with history</div>'
            f'<div class="card">store: <b>{esc(store.backend_name)}</b>'
            + (f", {size / 2**20:.1f} MiB on disk" if size is not None else "") + "</div></div>"
        ))
        body.append(Html("<h2>Vitality of live memories</h2>"))
        body.append(bar_chart(q.vitality_counts(store), title="live memories per vitality bucket"))
    groups: dict[str, list[tuple[str, str, int, int]]] = {}
    for row in rows:
        groups.setdefault(row[0], []).append(row)
    if not rows:
        body.append(Html('<p class="muted">No memories you may read yet.</p>'))
    for group, items in groups.items():
        body.append(Html(f"<h2>{esc(group)}</h2><table><tr><th>namespace</th><th>live</th><th>records</th></tr>"))
        for _, key, live_count, total in items:
            body.append(Html(
                f'<tr><td><a href="{view.href("/namespace", ns=key)}" title="{esc(key)}">'
                f"{esc(shown_namespace(q.parse_key(key)))}</a></td>"
                f"<td>{live_count}</td><td>{total}</td></tr>"
            ))
        body.append(Html("</table>"))
    return join(body)


# -- a namespace --------------------------------------------------------------------------


def _select(name: str, values: Sequence[str], chosen: str, blank: str | None) -> Html:
    options = [Html(f'<option value="">{esc(blank)}</option>')] if blank is not None else []
    options += [Html(f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>{esc(v)}</option>') for v in values]
    return Html(f'<select name="{esc(name)}" id="f-{esc(name)}">{join(options)}</select>')


def _memory_row(view: View, m: Memory, key: str, extra: Html = Html("")) -> Html:
    return Html(
        f'<tr class="memory" data-id="{esc(m.id)}">{extra}'
        f'<td class="content"><a href="{view.href("/memory", ns=key, id=m.id)}">{esc(m.content)}</a></td>'
        f"<td>{m.importance:.2f}</td><td>{'—' if m.vitality is None else f'{m.vitality:.2f}'}</td>"
        f'<td class="muted">{esc(when(m.created_at))}<br>used {esc(when(m.last_accessed_at))}</td>'
        f"<td>{esc(_ttl(m))}</td><td>{_tags(m.subjects)}</td><td>{esc(m.source)}</td></tr>"
    )


HEAD = "<th>importance</th><th>vitality</th><th>created / last used</th><th>TTL</th><th>subjects</th><th>source</th>"


def namespace_page(view: View, namespace: Namespace, params: Mapping[str, str]) -> Html:
    store = view.store
    key = namespace_key(namespace)
    status = params.get("status") or "live"
    kind = params.get("kind") or ""
    memory_type = params.get("type") or ""
    query = (params.get("q") or "").strip()
    counts = q.status_counts(store, namespace)
    body = [Html(f"<h1>{esc(shown_namespace(namespace))}</h1>"), _done(params), Html('<p class="muted">')]
    body += [Html(f'<a href="{view.href("/namespace", ns=key, status=s)}">{esc(s)}: {counts[s]}</a> · ') for s in q.STATUSES]
    if namespace[0] == "memories":
        body.append(Html(f'<a href="{view.href("/conversations", ns=key)}">conversations</a>'))
    body.append(Html("</p>"))
    body.append(Html(
        f'<form method="get" action="{view.href("/namespace")}" class="filters">'
        f'<input type="hidden" name="ns" value="{esc(key)}">'
        f'<input type="search" name="q" id="f-q" value="{esc(query)}" placeholder="search (hybrid: meaning + keywords)" size="40"> '
        f'kind {_select("kind", list(KIND_CATEGORIES), kind, "any")} '
        f'type {_select("type", list(DEFAULT_IMPORTANCE), memory_type, "any")} '
        f'status {_select("status", q.STATUSES, status, None)} <button type="submit">show</button></form>'
    ))
    kinds = [kind] if kind else []
    types = [memory_type] if memory_type else []
    if query:
        body.append(_search_results(view, namespace, query, kinds, types, status))
    else:
        body.append(_listing(view, namespace, params, status, kinds, types))
    if view.allows("write", namespace):
        body.append(Html(
            f'<fieldset><legend>Erase this namespace</legend><form method="post" action="{view.href("/actions/erase")}" '
            f'data-confirm="Erase every memory of this namespace, history included?">{csrf_field(view)}'
            f'<input type="hidden" name="ns" value="{esc(key)}">'
            f'<p class="muted">Removes every memory of {esc(shown_namespace(namespace))} and the namespaces under '
            f"it, history and conversations included, at once and for good. Type <code>{esc(key)}</code> to confirm.</p>"
            f'<input type="text" name="confirm" id="erase-confirm" autocomplete="off" placeholder="{esc(key)}"> '
            '<button type="submit" id="erase">erase</button></form></fieldset>'
        ))
    return join(body)


def _search_results(view: View, namespace: Namespace, query: str, kinds: list[str], types: list[str], status: str) -> Html:
    key = namespace_key(namespace)
    hits = view.store.search(query, namespace=namespace, limit=20, kinds=kinds or None, memory_types=types or None)
    out = [Html(f"<h2>Search: {esc(query)}</h2>")]
    if status != "live":
        out.append(Html('<p class="note">Search looks at live memories only.</p>'))
    if not hits:
        return join([*out, Html('<p class="muted">No matching memory.</p>')])
    out.append(Html(f'<table class="hits"><tr><th>score</th><th>why</th><th>memory</th>{HEAD}</tr>'))
    for hit in hits:
        why = []
        if hit.dense_score is not None:
            why.append(f"meaning {hit.dense_score:.2f}")
        if hit.sparse_score:
            why.append(f"keywords {hit.sparse_score:.2f}")
        why += [m.replace("subject:", "subject ") for m in hit.matched]
        extra = Html(f"<td>{hit.score:.3f}</td><td class=\"why\">{esc(', '.join(why) or 'ranked')}</td>")
        out.append(_memory_row(view, hit.memory, key, extra))
    out.append(Html("</table>"))
    return join(out)


def _listing(view: View, namespace: Namespace, params: Mapping[str, str], status: str, kinds: list[str], types: list[str]) -> Html:
    key = namespace_key(namespace)
    before = _float(params.get("before"))
    skip = tuple(s for s in (params.get("skip") or "").split(",") if s)
    found = q.memory_page(view.store, namespace, status=status, kinds=kinds, types=types, before=before, skip=skip)
    if not found.memories:
        return Html(f'<p class="muted">No {esc(status)} memory here{" on this page" if before else ""}.</p>')
    groups: dict[tuple[str, str], list[Memory]] = {}
    for m in found.memories:  # newest first within each group: the page is in that order
        groups.setdefault((m.kind, m.category or m.memory_type), []).append(m)
    out = []
    for (kind, label), memories in sorted(groups.items()):
        out.append(Html(f'<h3>{esc(kind)} · {esc(label)} <span class="muted">({len(memories)} on this page)</span></h3>'
                        f'<table class="grouped"><tr><th>memory</th>{HEAD}</tr>'))
        out += [_memory_row(view, m, key) for m in memories]
        out.append(Html("</table>"))
    nav = []
    if before is not None:
        nav.append(Html(f'<a href="{view.href("/namespace", ns=key, status=status, kind=params.get("kind"), type=params.get("type"))}">« newest</a>'))
    if found.next_before is not None:
        nav.append(Html(
            f'<a id="next-page" href="{view.href("/namespace", ns=key, status=status, kind=params.get("kind"), type=params.get("type"), before=repr(found.next_before), skip=",".join(found.next_skip))}">older »</a>'
        ))
    out.append(Html(f'<nav class="pages">{join(nav)}</nav>'))
    return join(out)


def _float(value: str | None) -> float | None:
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number == number and abs(number) < 1e12 else None


# -- one memory ---------------------------------------------------------------------------


def memory_page(view: View, namespace: Namespace, memory: Memory, params: Mapping[str, str]) -> Html:
    store = view.store
    key = namespace_key(namespace)
    m = memory
    fields: list[tuple[str, object]] = [
        ("status", _status(m)), ("kind", m.kind), ("type", m.memory_type), ("category", m.category or "—"),
        ("subjects", _tags(m.subjects)), ("importance", f"{m.importance:.2f}"),
        ("vitality", "—" if m.vitality is None else f"{m.vitality:.2f}"), ("created", when(m.created_at)),
        ("updated", when(m.updated_at)), ("TTL", _ttl(m)),
        ("used", f"{m.access_count} times, last {when(m.last_accessed_at)}"),
        ("injected", f"{m.injection_count} times"), ("source", m.source),
    ]
    if m.metadata:
        fields.append(("metadata", Html(f'<code class="content">{esc(json.dumps(m.metadata, ensure_ascii=False, indent=1))}</code>')))
    body = [
        Html(f'<p><a href="{view.href("/namespace", ns=key)}">« {esc(shown_namespace(namespace))}</a></p>'), _done(params),
        Html(f'<h1>Memory <code>{esc(m.id[:8])}</code></h1><p class="content" id="memory-content">{esc(m.content)}</p>'),
        Html("<table class=\"fields\">"), join(Html(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>") for k, v in fields), Html("</table>"),
    ]
    if view.allows("write", namespace):
        body.append(_actions(view, m, key))
    history = store.history(m.id, namespace=namespace)
    body.append(Html(f"<h2>History ({len(history)} version{'s' * (len(history) != 1)}, oldest first)</h2>"
                     '<table id="history"><tr><th>version</th><th>status</th><th>updated</th><th>content</th></tr>'))
    for version in history:
        mark = " (this one)" if version.id == m.id else ""
        body.append(Html(
            f'<tr><td><a href="{view.href("/memory", ns=key, id=version.id)}">{esc(version.id[:8])}</a>{esc(mark)}</td>'
            f'<td>{_status(version)}</td><td>{esc(when(version.updated_at))}</td><td class="content">{esc(version.content)}</td></tr>'
        ))
    body.append(Html("</table>"))
    body.append(_links(view, namespace, m))
    return join(body)


def _actions(view: View, m: Memory, key: str) -> Html:
    hidden = Html(f'{csrf_field(view)}<input type="hidden" name="ns" value="{esc(key)}"><input type="hidden" name="id" value="{esc(m.id)}">')
    out = []
    if m.status == "live":
        how = ("supersedes this memory" if view.caps.remember_updates
               else "goes through remember: the dedup policy decides whether it is a new version of this one")
        out.append(Html(
            f'<fieldset><legend>Edit</legend><form method="post" action="{view.href("/actions/edit")}">{hidden}'
            f'<textarea name="content" id="edit-content">{esc(m.content)}</textarea>'
            f'<p class="muted">Saving stores a new version ({esc(how)}); the old text stays in the history.</p>'
            '<button type="submit" id="save">save as new version</button></form></fieldset>'
        ))
        if view.caps.soft_delete:
            out.append(Html(
                f'<fieldset><legend>Delete</legend><form method="post" action="{view.href("/actions/delete")}">{hidden}'
                '<input type="text" name="reason" id="delete-reason" placeholder="reason (optional)" size="40"> '
                '<button type="submit" id="delete">delete</button>'
                '<p class="muted">The memory is forgotten: no longer searched nor injected, restorable here.</p></form></fieldset>'
            ))
        else:
            out.append(Html(
                f'<fieldset><legend>Delete</legend><form method="post" action="{view.href("/actions/delete")}" '
                f'data-confirm="Delete this memory and its older versions for good?">{hidden}'
                '<p class="note" id="soft-delete-note">This store has no soft delete yet: deleting removes the memory '
                'and its older versions for good, and cannot be undone.</p>'
                '<input type="text" name="reason" id="delete-reason" placeholder="reason (for the log)" size="40"> '
                '<label><input type="checkbox" name="permanent" value="yes" id="delete-permanent"> I understand</label> '
                '<button type="submit" id="delete">delete permanently</button></form></fieldset>'
            ))
    restorable = m.status == "archived" or (m.status == "forgotten" and view.caps.soft_delete)
    if restorable:
        out.append(Html(
            f'<form method="post" action="{view.href("/actions/restore")}">{hidden}'
            f'<button type="submit" id="restore">restore</button> <span class="muted">brings the {esc(m.status)} '
            "memory back: searched and injected again</span></form>"
        ))
    elif m.status == "forgotten":
        out.append(Html('<p class="note">Restoring a forgotten memory needs soft delete, which this store lacks.</p>'))
    return join(out)


def _link_ends(link: Any) -> tuple[str | None, str | None, str]:
    get = link.get if isinstance(link, Mapping) else lambda k, d=None: getattr(link, k, d)
    source = get("source_id") or get("source")
    target = get("target_id") or get("target")
    return (None if source is None else str(source), None if target is None else str(target),
            str(get("relation", "related_to")))


def _links(view: View, namespace: Namespace, m: Memory) -> Html:
    key = namespace_key(namespace)
    if not view.caps.links:
        return Html('<h2>Links</h2><p class="note" id="links-note">This store version records no typed links '
                    "between memories; supersedes are shown in the history above.</p>")
    links = view.store.links(m.id, namespace=namespace)
    if not links:
        return Html('<h2>Links</h2><p class="muted">No links.</p>')
    edges, rows = [], []
    for link in links:
        source, target, relation = _link_ends(link)
        other, direction = (target, "out") if source == m.id else (source, "in")
        if other is None:
            continue
        found = q.find_memory(view.store, other, namespace)
        label = found.content if found else "(gone)"
        edges.append((other, label, relation, direction))
        arrow = f"this {relation} →" if direction == "out" else f"← {relation} this"
        rows.append(Html(
            f'<tr><td>{esc(arrow)}</td><td><a href="{view.href("/memory", ns=key, id=other)}">{esc(other[:8])}</a></td>'
            f'<td class="content">{esc(label)}</td></tr>'
        ))
    return join([Html("<h2>Links</h2>"), link_graph(m.id, edges),
                 Html("<table><tr><th>relation</th><th>memory</th><th>content</th></tr>"), join(rows), Html("</table>")])
