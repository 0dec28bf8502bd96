"""The commands of the ``langgraph-memory`` CLI and how they print (tables, JSON, progress).

Each ``cmd_*`` takes an open store, the parsed arguments and the two output streams, and
returns the exit status; :mod:`langgraph_memory.cli` parses the command line and opens the
store. Failures meant for the operator raise :class:`CliError` (one line, exit 1).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from langgraph_memory.cli._progress import PROGRESS_MIN_RECORDS, ProgressBar, want_progress
from langgraph_memory.store._labels import shown_namespace
from langgraph_memory.store._reads import check_memory_id
from langgraph_memory.store.backends import StoredPoint, Where
from langgraph_memory.store._garden import vitality_buckets
from langgraph_memory.store.records import (
    KIND_CATEGORIES,
    Memory,
    Namespace,
    namespace_from_key,
    namespace_key,
    parse_ttl,
    utcnow,
    validate_kind,
    validate_memory_type,
    validate_namespace,
    validate_subjects,
)

class CliError(Exception):
    """A failure to report as one line, exit status 1."""


# -- helpers ------------------------------------------------------------------------------


def parse_namespace(text: str) -> Namespace:
    """``"memories/alice"`` → ``("memories", "alice")``; ``%2F`` stands for a ``/`` in a part."""
    if not isinstance(text, str) or not text.strip():
        raise CliError("namespace is empty; write it slash-separated, e.g. memories/alice")
    parts = namespace_from_key(text.strip().strip("/"))
    if any(not p.strip() for p in parts):
        raise CliError(f"namespace {text!r} has an empty part; write it like memories/alice")
    return validate_namespace(parts)


UUID_CHARS = frozenset("0123456789abcdef-")
# How many candidates an ambiguous id prefix lists.
MAX_CANDIDATES = 10


def resolve_memory_id(store: Any, text: str) -> Memory:
    """The record whose id is ``text`` or starts with it, in any namespace (an operator is
    an admin). A prefix seeks in id order (both engines scroll UUIDs in that order), so it
    costs one short scroll, not a scan.

    Raises:
        CliError: no such record, or a prefix several ids share (the message lists them).
    """
    prefix = str(text).strip().lower()
    if not prefix or not set(prefix) <= UUID_CHARS:
        raise CliError(f"{text!r} is not a memory id; give the id (or its first characters) that list prints")
    hexdigits = prefix.replace("-", "")
    if len(hexdigits) >= 32:
        found = store._backend.retrieve([check_memory_id(prefix)])
        if not found:
            raise CliError(f"no memory with id {prefix}")
        return Memory.from_payload(found[0].id, found[0].payload)
    start = hexdigits.ljust(32, "0")
    offset: Any = f"{start[:8]}-{start[8:12]}-{start[12:16]}-{start[16:20]}-{start[20:]}"
    matches: list[StoredPoint] = []
    while offset is not None and len(matches) <= MAX_CANDIDATES:
        points, offset = store._backend.scroll(Where(status=None), limit=MAX_CANDIDATES + 1, offset=offset)
        inside = [p for p in points if p.id.startswith(prefix)]
        matches += inside
        if len(inside) < len(points):
            break  # past the ids that start with the prefix
    if not matches:
        raise CliError(f"no memory id starts with {prefix!r}")
    if len(matches) > 1:
        shown = "; ".join(f"{p.id} ({_short(p.payload.get('content', ''))})" for p in matches[:MAX_CANDIDATES])
        more = " and more" if len(matches) > MAX_CANDIDATES else ""
        raise CliError(f"{prefix!r} matches several memories, give more characters: {shown}{more}")
    return Memory.from_payload(matches[0].id, matches[0].payload)


def _shown(namespace: Namespace) -> str:
    """A namespace as a person reads it (labels decoded: ``memories/alice@example.com``),
    followed by the form a command's argument takes when that differs."""
    shown, key = shown_namespace(namespace), namespace_key(namespace)
    return shown if shown == key else f"{shown} ({key})"


def _short(text: str, width: int = 40) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _time(value: datetime | None) -> str:
    return "" if value is None else value.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M")


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(timezone.utc).isoformat()


def memory_json(m: Memory) -> dict[str, Any]:
    """A memory as plain JSON: times in ISO 8601 UTC, the namespace as slash text."""
    return {
        "id": m.id, "namespace": namespace_key(m.namespace), "content": m.content, "kind": m.kind,
        "memory_type": m.memory_type, "category": m.category, "subjects": list(m.subjects),
        "importance": m.importance, "status": m.status, "expired": m.is_expired(),
        "created_at": _iso(m.created_at), "updated_at": _iso(m.updated_at),
        "expires_at": _iso(m.expires_at), "last_accessed_at": _iso(m.last_accessed_at),
        "access_count": m.access_count, "injection_count": m.injection_count, "source": m.source,
        "supersedes": list(m.supersedes), "superseded_by": m.superseded_by, "metadata": dict(m.metadata),
    }


def _state(m: Memory) -> str:
    return "expired" if m.status == "live" and m.is_expired() else m.status


MIN_LAST_COLUMN = 24


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], out: TextIO, *, optional: Sequence[str] = ()
) -> None:
    """Aligned columns. On a terminal, the ``optional`` columns are dropped (in that order)
    until the last one has room, and it is cut to the width; pipes get every column in full."""
    if not rows:
        return
    headers = list(headers)
    cells = [[str(c).replace("\n", " ") for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    if getattr(out, "isatty", lambda: False)():
        columns = shutil.get_terminal_size().columns
        for name in (n for n in optional if n in headers):
            if columns - sum(w + 2 for w in widths[:-1]) >= min(widths[-1], MIN_LAST_COLUMN):
                break
            i = headers.index(name)
            del headers[i], widths[i]
            for row in cells:
                del row[i]
        room = columns - sum(w + 2 for w in widths[:-1])
        widths[-1] = max(min(widths[-1], room), MIN_LAST_COLUMN)
    for row in [headers, *cells]:
        last = row[-1]
        if len(last) > widths[-1]:
            last = last[: widths[-1] - 1] + "…"
        line = "  ".join(c.ljust(w) for c, w in zip(row[:-1], widths)) + ("  " if len(row) > 1 else "") + last
        out.write(line.rstrip() + "\n")


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 namespace``, ``2 namespaces``."""
    return f"{count} {singular if count == 1 else plural_form or singular + 's'}"


def _emit(args: argparse.Namespace, out: TextIO, data: Any, render: Callable[[], None]) -> None:
    if args.json:
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        render()


# -- commands -----------------------------------------------------------------------------


def cmd_list(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if not 1 <= args.limit <= 10_000:
        raise CliError("--limit must be from 1 to 10000")
    prefix = None if args.namespace is None else namespace_key(parse_namespace(args.namespace))
    # The store's own filters are per namespace; an operator lists a whole subtree, so the
    # filter is built here with the store's validation rules.
    known_categories = set().union(*KIND_CATEGORIES.values())
    for category in args.category or ():
        if category not in known_categories:
            raise CliError(f"unknown category {category!r}; expected one of {sorted(known_categories)}")
    where = Where(
        namespace_prefix=prefix,
        status=None if args.all else "live",
        alive_at=None if args.all else utcnow().timestamp(),
        kinds=None if not args.kind else tuple(validate_kind(k) for k in args.kind),
        memory_types=None if not args.memory_type else tuple(validate_memory_type(t) for t in args.memory_type),
        categories=None if not args.category else tuple(args.category),
        subjects=validate_subjects(args.subject) or None,
    )
    points, _ = store._backend.scroll(where, limit=args.limit, order_by="updated_at")
    memories = [Memory.from_payload(p.id, p.payload) for p in points]
    _emit(args, out, [memory_json(m) for m in memories], lambda: table(
        ["ID", "NAMESPACE", "KIND", "TYPE", "IMP", "UPDATED", *(["STATUS"] if args.all else []), "CONTENT"],
        [[m.id, shown_namespace(m.namespace), m.kind, m.memory_type, f"{m.importance:.2f}", _time(m.updated_at),
          *([_state(m)] if args.all else []), m.content] for m in memories],
        out, optional=("UPDATED", "IMP", "KIND", "TYPE"),
    ) if memories else err.write("no memories\n"))
    return 0


def cmd_search(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    hits = store.search(
        args.query, namespace=parse_namespace(args.namespace), limit=args.limit, mode=args.mode,
        kinds=args.kind, memory_types=args.memory_type, categories=args.category,
        subjects=args.subject, min_importance=args.min_importance,
    )
    data = [dict(memory_json(h.memory), score=h.score, dense_score=h.dense_score, sparse_score=h.sparse_score)
            for h in hits]
    _emit(args, out, data, lambda: table(
        ["SCORE", "ID", "KIND", "TYPE", "IMP", "CONTENT"],
        [[f"{h.score:.3f}", h.memory.id, h.memory.kind, h.memory.memory_type, f"{h.memory.importance:.2f}",
          h.memory.content] for h in hits],
        out, optional=("IMP", "KIND", "TYPE"),
    ) if hits else err.write("no matching memories\n"))
    return 0


def cmd_show(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # An operator is an admin: look the id up across namespaces, then read its history
    # inside the namespace it belongs to.
    memory = resolve_memory_id(store, args.id)
    history = store.history(memory.id, namespace=memory.namespace)

    def render() -> None:
        fields = [
            ("id", memory.id), ("namespace", _shown(memory.namespace)), ("status", _state(memory)),
            ("content", memory.content), ("kind", memory.kind), ("type", memory.memory_type),
            ("category", memory.category or ""), ("subjects", ", ".join(memory.subjects)),
            ("importance", f"{memory.importance:.2f}"), ("created", _time(memory.created_at)),
            ("updated", _time(memory.updated_at)), ("expires", _time(memory.expires_at) or "never"),
            ("accessed", f"{memory.access_count} times, last {_time(memory.last_accessed_at) or 'never'}"),
            ("injected", f"{memory.injection_count} times"), ("source", memory.source),
        ]
        if memory.metadata:
            fields.append(("metadata", json.dumps(memory.metadata, ensure_ascii=False)))
        width = max(len(k) for k, _ in fields)
        for key, value in fields:
            out.write(f"{key.ljust(width)}  {value}".rstrip() + "\n")
        out.write(f"\nhistory ({len(history)} version{'s' * (len(history) != 1)}, oldest first):\n")
        table(["", "ID", "STATUS", "UPDATED", "CONTENT"],
              [["*" if m.id == memory.id else "", m.id, _state(m), _time(m.updated_at), m.content] for m in history],
              out)

    _emit(args, out, dict(memory_json(memory), history=[memory_json(m) for m in history]), render)
    return 0


def cmd_stats(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    soon = parse_ttl(args.soon)
    if soon is None:
        raise CliError("--soon needs a duration such as 7d")
    namespace = None if args.namespace is None else parse_namespace(args.namespace)
    now = utcnow().timestamp()
    horizon = now + soon.total_seconds()
    states = ("live", "superseded", "expired", "expiring_soon")
    per_ns: dict[str, Counter[str]] = defaultdict(Counter)
    kinds: Counter[str] = Counter()
    types: Counter[str] = Counter()
    live_payloads: list[dict[str, Any]] = []
    for point in store.iter_points(namespace=namespace, include_superseded=True):
        p = point.payload
        expires = p.get("expires_at")
        counts = per_ns[p.get("namespace", "")]
        if p.get("status") != "live":
            counts["superseded"] += 1  # history, and archived memories
        elif expires is not None and expires <= now:
            counts["expired"] += 1
        else:
            counts["live"] += 1
            live_payloads.append(p)
            kinds[p.get("kind", "fact")] += 1
            types[p.get("memory_type", "fact")] += 1
            counts["expiring_soon"] += expires is not None and expires <= horizon
    totals = {s: sum(c[s] for c in per_ns.values()) for s in states}
    data = {
        **totals, "records": totals["live"] + totals["superseded"] + totals["expired"], "soon": args.soon,
        "namespaces": {ns: {s: c[s] for s in states} for ns, c in sorted(per_ns.items())},
        "kinds": dict(sorted(kinds.items())), "types": dict(sorted(types.items())),
        "vitality": vitality_buckets(live_payloads, store.decay_settings()),
    }

    def render() -> None:
        out.write(f"{data['records']} records: {totals['live']} live, {totals['superseded']} superseded, "
                  f"{totals['expired']} expired; {totals['expiring_soon']} expiring within {args.soon}\n")
        if per_ns:
            out.write("\n")
            table(["NAMESPACE", "LIVE", "SUPERSEDED", "EXPIRED", f"EXPIRING<{args.soon}"],
                  [[shown_namespace(namespace_from_key(ns)), *(c[s] for s in states)] for ns, c in sorted(per_ns.items())],
                  out)
        for title, counter in (("KIND", kinds), ("TYPE", types), ("VITALITY", Counter(data["vitality"]))):
            if counter:
                out.write("\n")
                table([title, "LIVE"], sorted(counter.items()), out)

    _emit(args, out, data, render)
    return 0


def cmd_export(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    namespace = None if args.namespace is None else parse_namespace(args.namespace)
    large = store.count(namespace=namespace, include_superseded=True) >= PROGRESS_MIN_RECORDS
    bar = ProgressBar(err, want_progress(args.progress, err, large))
    try:
        # A file is written beside and renamed: a failed export never looks like a whole one.
        summary = store.export(out if args.file == "-" else args.file, namespace=namespace, progress=bar)
    finally:
        bar.close()
    report = err if args.file == "-" else out  # with "-", stdout carries the export itself
    data = {"exported": summary.records, "live": summary.live, "namespaces": len(summary.namespaces), "file": args.file}
    if args.json:
        report.write(json.dumps(data) + "\n")
    else:
        report.write(f"exported {summary.records} records ({summary.live} live) of "
                     f"{plural(len(summary.namespaces), 'namespace')} to {args.file}\n")
    return 0


def cmd_import(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    spooled = None
    path = args.file
    if path == "-":
        # Import reads the file twice (validate, then write); stdin can be read only once.
        with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as fh:
            shutil.copyfileobj(sys.stdin.buffer, fh)
            spooled = path = fh.name
    elif not Path(path).is_file():
        raise CliError(f"no such file: {path}")
    try:
        large = Path(path).stat().st_size >= PROGRESS_MIN_RECORDS * 8_000  # ~8 kB per 384-d record
        bar = ProgressBar(err, want_progress(args.progress, err, large))
        try:
            summary = store.import_(path, dry_run=args.dry_run, progress=bar)
        finally:
            bar.close()
    finally:
        if spooled:
            Path(spooled).unlink(missing_ok=True)
    data = {"imported": 0 if args.dry_run else summary.records, "valid": summary.records,
            "live": summary.live, "namespaces": len(summary.namespaces), "dry_run": args.dry_run}
    _emit(args, out, data, lambda: out.write(
        f"{'valid: would import' if args.dry_run else 'imported'} {summary.records} records "
        f"({summary.live} live) of {plural(len(summary.namespaces), 'namespace')}\n"))
    return 0


def cmd_purge(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    namespace = None if args.namespace is None else parse_namespace(args.namespace)
    purged = store.purge_expired(namespace)
    _emit(args, out, {"purged": purged}, lambda: out.write(f"purged {purged} expired memories\n"))
    return 0


def _confirm(question: str, err: TextIO, *, nothing_done: str, flag_hint: str) -> None:
    """Ask ``question`` on stderr and read y/N on stdin; anything but yes raises CliError."""
    err.write(f"{question} [y/N] ")
    err.flush()
    answer = sys.stdin.readline() if sys.stdin is not None else ""
    if answer and not sys.stdin.isatty():
        err.write("\n")  # the answer was not echoed: end the prompt's line
    if not answer:
        err.write("\n")
        raise CliError(f"no confirmation on stdin: {nothing_done}; {flag_hint}")
    if answer.strip().lower() not in ("y", "yes"):
        raise CliError(f"aborted: {nothing_done}")


def cmd_delete(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    memory = resolve_memory_id(store, args.id)
    if memory.status == "superseded":
        raise CliError(f"{memory.id} is an older version of {memory.superseded_by}; delete that one "
                       "(its older versions go with it)")
    if memory.status != "live":
        raise CliError(f"{memory.id} is {memory.status} already; 'restore' brings it back")
    verb = "Remove for good" if args.hard else "Forget"
    if not args.yes:
        _confirm(f"{verb} {memory.id} ({_short(memory.content)}) of {_shown(memory.namespace)}?", err,
                 nothing_done="nothing deleted", flag_hint=f"pass --yes to delete {memory.id}")
    deleted = store.delete(memory.id, namespace=memory.namespace, reason=args.reason or "deleted from the command line",
                           hard=args.hard)
    if deleted is None:  # its TTL has passed: reads already hide it
        raise CliError(f"{memory.id} has expired; purge-expired removes it")
    days = store.decay_settings().forgotten_days
    said = (f"removed {memory.id} ({memory.content}) and its older versions for good\n" if args.hard else
            f"forgot {memory.id} ({memory.content}); 'restore {memory.id}' brings it back within {days:g} days\n")
    _emit(args, out, {"deleted": memory.id, "namespace": namespace_key(memory.namespace),
                      "status": "removed" if args.hard else "forgotten"},
          lambda: out.write(said))
    return 0


def cmd_erase(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    namespace = parse_namespace(args.namespace)
    text, shown = namespace_key(namespace), _shown(namespace)
    if not args.yes:
        _confirm(f"Erase all memories of {shown}?", err,
                 nothing_done="nothing erased", flag_hint=f"pass --yes to erase {text}")
    # erase counts every record it removes; say what they were, as stats counts live ones.
    live = store.count(namespace=namespace)
    memories = store.count(namespace=namespace, include_superseded=True)
    erased = store.erase(namespace)
    others = max(0, erased - memories)
    _emit(args, out, {"erased": erased, "namespace": text, "live": live, "history": memories - live, "other": others},
          lambda: out.write(f"erased {plural(erased, 'record')} of {shown}: {plural(live, 'live memory', 'live memories')}, "
                            f"{plural(memories - live, 'older, archived or expired version')}, "
                            f"{plural(others, 'other record')} (exchanges, summaries, room messages, store items)\n"))
    return 0

