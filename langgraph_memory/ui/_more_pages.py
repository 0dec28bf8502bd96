"""The memory browser's pages about what surrounds memories: rooms, the gardener, and a
user's conversations (exchanges and summaries)."""

from __future__ import annotations

from typing import Any, Mapping

from langgraph_memory.store._labels import shown_namespace
from langgraph_memory.store._lines import with_codes
from langgraph_memory.store.records import Namespace, namespace_key
from langgraph_memory.ui import _queries as q
from langgraph_memory.ui._html import Html, bar_chart, esc, join, when
from langgraph_memory.ui._pages import View, csrf_field, _done

__all__ = ["rooms_page", "gardener_page", "conversations_page"]

MAX_ROOM_MESSAGES = 100
DRY_RUN_AT_ONCE = 20_000
"""Up to this many live memories the gardener page computes its dry run on opening."""


def rooms_page(view: View, params: Mapping[str, str], *, digest_model: Any) -> Html:
    from langgraph_memory.background.digest import digest_key
    from langgraph_memory.background.jobs import JobState

    store = view.store
    body = [Html("<h1>Rooms</h1>"), _done(params)]
    if digest_model is None:
        body.append(Html(
            '<p class="note" id="digest-note">"digest now" is off: no chat model is configured. Start the browser '
            "with <code>langgraph-memory ui --model MODULE:ATTR</code> or set <code>OPENAI_API_KEY</code> "
            "(mounted in a server: pass <code>digest_model=</code> to <code>memory_browser</code>).</p>"
        ))
    jobs = JobState(store)
    shown = 0
    for key in q.room_namespaces(store):
        namespace = q.parse_key(key)
        if not view.allows("read", namespace):
            continue
        rooms = q.room_names(store, namespace)
        body.append(Html(f"<h2>{esc(shown_namespace(namespace))}</h2>"))
        if not rooms:
            body.append(Html('<p class="muted">No room has been observed here yet.</p>'))
        for room, count in rooms:
            shown += 1
            body.append(_room(view, namespace, room, count, digest_model, jobs, digest_key(namespace, room)))
    if not shown and len(body) == 2:
        body.append(Html('<p class="muted">No room you may read.</p>'))
    return join(body)


def _room(view: View, namespace: Namespace, room: str, count: int, model: Any, jobs: Any, job_key: str) -> Html:
    store = view.store
    key = namespace_key(namespace)
    out = [Html(f'<h3 class="room">#{esc(with_codes(room))} <span class="muted">{count} live message{"s" * (count != 1)}</span></h3>')]
    if view.caps.room_members:
        members = store.room_members(room, namespace=namespace)
        out.append(Html("<p>members: " + ("open room (anyone may read and post)" if members is None
                                          else esc(", ".join(sorted(members)) or "none")) + "</p>"))
    else:
        out.append(Html('<p class="muted">members: this store version has no room membership (every room is open).</p>'))
    messages = store.live_messages(namespace=namespace, room=room)[-MAX_ROOM_MESSAGES:]
    out.append(Html("<table><tr><th>when</th><th>author</th><th>message</th></tr>"))
    out += [Html(f'<tr><td class="muted">{esc(when(m.timestamp))}</td><td>{esc(m.author)}</td>'
                 f'<td class="content">{esc(m.content)}</td></tr>') for m in messages]
    out.append(Html("</table>"))
    report = jobs.get("report", job_key)
    if report:
        out.append(Html(
            f'<p class="muted">last digest {esc(report.get("started_at", "")[:16].replace("T", " "))} UTC: '
            f'read {esc(report.get("read"))}, stored {esc(report.get("stored"))}, updated {esc(report.get("updated"))}, '
            f'duplicate {esc(report.get("duplicate"))}, rejected {esc(report.get("rejected"))}</p>'
        ))
    else:
        out.append(Html('<p class="muted">never digested</p>'))
    if view.allows("write", namespace):
        disabled = " disabled" if model is None else ""
        out.append(Html(
            f'<form method="post" action="{view.href("/actions/digest")}">{csrf_field(view)}'
            f'<input type="hidden" name="ns" value="{esc(key)}"><input type="hidden" name="room" value="{esc(room)}">'
            f'<button type="submit" class="digest"{disabled}>digest now</button></form>'
        ))
    return join(out)


def gardener_page(view: View, params: Mapping[str, str], *, last_run: Mapping[str, Any] | None) -> Html:
    store = view.store
    body = [Html("<h1>Gardener</h1>"), _done(params)]
    if last_run:
        body.append(Html("<h2>Last pass run from here</h2>"))
        body.append(_summary(last_run, dry_run=False))
    live = store.count()
    if live > DRY_RUN_AT_ONCE and params.get("dry") != "1":
        # A pass reads every live memory, paced to leave turns room (minutes at 100k).
        body.append(Html(
            f'<p class="note">{live} live memories: a dry run reads them all and takes a while. '
            f'<a id="dry-run" href="{view.href("/gardener", dry="1")}">compute the dry run</a></p>'
        ))
        return join([*body, _run_form(view)])
    report = store.garden(None, dry_run=True)
    body.append(Html("<h2>What a pass would do now (dry run)</h2>"))
    body.append(_summary(report, dry_run=True))
    body.append(bar_chart(report["buckets"], title="live memories per vitality bucket after this pass"))
    before, after = report["vitality_before"], report["vitality_after"]
    if before["mean"] is not None:
        body.append(Html("<table><tr><th>vitality</th><th>mean</th><th>p10</th><th>p50</th><th>p90</th></tr>"))
        body += [Html(f"<tr><td>{name}</td>" + "".join(f"<td>{v[k]:.3f}</td>" for k in ("mean", "p10", "p50", "p90")) + "</tr>")
                 for name, v in (("before", before), ("after", after)) if v["mean"] is not None]
        body.append(Html("</table>"))
    if report["changes"]:
        body.append(Html("<h3>Would change</h3><table><tr><th>action</th><th>memory</th><th>vitality</th></tr>"))
        for c in report["changes"][:100]:
            body.append(Html(
                f'<tr><td>{esc(c["action"])}</td><td><a href="{view.href("/memory", ns=c["namespace"], id=c["id"])}">'
                f'{esc(c["namespace"])} {esc(str(c["id"])[:8])}</a></td><td>{c["vitality_before"]:.3f}</td></tr>'
            ))
        body.append(Html("</table>"))
    return join([*body, _run_form(view)])


def _run_form(view: View) -> Html:
    return Html(
        f'<form method="post" action="{view.href("/actions/garden")}">{csrf_field(view)}'
        '<button type="submit" id="garden-run">run now</button> '
        '<span class="muted">fade unused memories, archive the faded (restorable), purge old archives</span></form>'
    )


def _summary(report: Mapping[str, Any], *, dry_run: bool) -> Html:
    would = "would " if dry_run else ""
    return Html(
        f'<p class="garden-summary">{report["seen"]} live memories in {report["namespaces"]} namespaces: '
        f'{report["decayed"]} {would}fade, {report["boosted"]} used since the last pass, {would}archive '
        f'{report["archived"]}, {would}purge {report["purged"]}, {report["protected"]} protected '
        f'({report["duration_ms"]:.0f} ms)</p>'
    )


def conversations_page(view: View, namespace: Namespace, params: Mapping[str, str]) -> Html:
    from langgraph_memory.store.conversations import search_conversations

    key = namespace_key(namespace)
    query = (params.get("q") or "").strip()
    body = [
        Html(f'<p><a href="{view.href("/namespace", ns=key)}">« {esc(shown_namespace(namespace))}</a></p>'
             f"<h1>Conversations of {esc(shown_namespace(namespace))}</h1>"),
        Html(f'<form method="get" action="{view.href("/conversations")}"><input type="hidden" name="ns" value="{esc(key)}">'
             f'<input type="search" name="q" id="conv-q" value="{esc(query)}" placeholder="what was said" size="40"> '
             '<button type="submit">search</button></form>'
             '<p class="muted">Searches the exchanges (each turn as it was said) and the summaries indexed for this user.</p>'),
    ]
    if not query:
        latest = q.latest_said(view.store, namespace)
        if not latest:
            return join([*body, Html('<p class="muted">Nothing indexed for this user yet.</p>')])
        body.append(Html('<h2>Latest</h2><table class="conversations"><tr><th>when</th><th>what</th><th>thread</th><th>text</th></tr>'))
        body += [Html(
            f'<tr><td class="muted">{esc(when(p.get("created_at")))}</td><td>{esc(p.get("source"))}</td>'
            f'<td>{esc(p.get("thread_id") or "—")}</td><td class="content">{esc(p.get("content"))}</td></tr>'
        ) for p in latest]
        return join([*body, Html("</table>")])
    hits = search_conversations(view.store, query, namespace=namespace, sources=("exchange", "summary"), limit=20,
                                min_score=0.0)
    if not hits:
        body.append(Html('<p class="muted">Nothing found.</p>'))
        return join(body)
    body.append(Html('<table class="conversations"><tr><th>when</th><th>what</th><th>score</th><th>thread</th><th>text</th></tr>'))
    for hit in hits:
        body.append(Html(
            f'<tr><td class="muted">{esc(when(hit.when))}</td><td>{esc(hit.source)}</td><td>{hit.score:.2f}</td>'
            f'<td>{esc(hit.thread_id or "—")}</td><td class="content">{esc(hit.text)}</td></tr>'
        ))
    body.append(Html("</table>"))
    return join(body)
