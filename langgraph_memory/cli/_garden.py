"""``langgraph-memory garden``: one gardening pass from a terminal or a cron job; and
``restore``, which brings back what a pass archived or a delete forgot."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from langgraph_memory.cli._commands import CliError, _emit, parse_namespace, plural, resolve_memory_id, table
from langgraph_memory.store.records import namespace_key


def cmd_garden(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run a pass (or, with ``--dry-run``, report what one would change) and print its report."""
    namespace = None if args.namespace is None else parse_namespace(args.namespace)
    report = store.garden(namespace, dry_run=args.dry_run)

    def render() -> None:
        verb = "would archive" if args.dry_run else "archived"
        out.write(
            f"{'dry run: ' if args.dry_run else ''}{plural(report['seen'], 'live memory', 'live memories')} in "
            f"{plural(report['namespaces'], 'namespace')}: {report['decayed']} {'would fade' if args.dry_run else 'faded'}, "
            f"{report['boosted']} used since the last pass, {verb} {report['archived']}, "
            f"{'would purge' if args.dry_run else 'purged'} {report['purged']}, "
            f"{'would remove' if args.dry_run else 'removed'} {report['expired']} expired, "
            f"{report['protected']} protected ({report['duration_ms']:.0f} ms)\n"
        )
        before, after = report["vitality_before"], report["vitality_after"]
        if before["mean"] is not None:
            out.write("\n")
            table(["VITALITY", "MEAN", "P10", "P50", "P90"],
                  [[name, *(f"{v[k]:.3f}" for k in ("mean", "p10", "p50", "p90"))]
                   for name, v in (("before", before), ("after", after)) if v["mean"] is not None], out)
            out.write("\n")
            table(["BUCKET", "LIVE"], list(report["buckets"].items()), out)
        if report["changes"]:
            out.write("\n")
            table(["ACTION", "ID", "NAMESPACE", "VITALITY"],
                  [[c["action"], c["id"], c["namespace"], f"{c['vitality_before']:.3f}"] for c in report["changes"]], out)
        if report["skipped_busy"]:
            out.write(f"\nskipped (another pass is running): {', '.join(report['skipped_busy'])}\n")

    _emit(args, out, dict(report), render)
    return 0


def cmd_restore(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    memory = resolve_memory_id(store, args.id)
    if memory.status not in ("forgotten", "archived"):
        raise CliError(f"{memory.id} is {memory.status}: only forgotten or archived memories are restored")
    restored = store.restore(memory.id, namespace=memory.namespace)
    if restored is None:
        raise CliError(f"{memory.id} was forgotten too long ago to restore; the next garden pass purges it")
    _emit(args, out, {"restored": memory.id, "namespace": namespace_key(memory.namespace), "was": memory.status},
          lambda: out.write(f"restored {memory.id} ({memory.content}), {memory.status} before\n"))
    return 0
