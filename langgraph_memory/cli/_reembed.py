"""``langgraph-memory reembed``: rebuild a store's vectors with another embedder."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from langgraph_memory.cli._commands import CliError, _emit
from langgraph_memory.cli._progress import ProgressBar, want_progress


def cmd_reembed(store: Any, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """An embedded store (``--path``) is rebuilt beside itself and swapped in; on a server the
    store is copied into ``--to-collection``. ``store`` is ``None`` for ``--path`` (the
    command opens it itself, as it must close it before the swap)."""
    from langgraph_memory.store._reembed import copy_reembedded, reembed

    if not args.embedder:
        raise CliError("reembed needs --embedder NAME: the embedder to rebuild the store with")
    bar = ProgressBar(err, want_progress(args.progress, err, True))
    try:
        if store is None:
            report = reembed(args.path, args.embedder, progress=bar)
        else:
            if not args.to_collection:
                raise CliError("on a server, reembed copies the store: give --to-collection NAME (a new collection)")
            from langgraph_memory.store import MemoryStore

            if store._backend.client.collection_exists(args.to_collection):
                raise CliError(f"collection {args.to_collection!r} exists: re-embedding writes into a new one")
            target = MemoryStore(client=store._backend.client, collection_name=args.to_collection,
                                 embeddings=args.embedder)
            report = copy_reembedded(store, target, progress=bar)
    finally:
        bar.close()
    data = {"from": report.source_embedder, "to": report.target_embedder, **report.counts,
            "previous": None if report.previous_path is None else str(report.previous_path)}

    def render() -> None:
        parts = ", ".join(f"{n} {part}" for part, n in report.counts.items())
        out.write(f"re-embedded with {report.target_embedder} (was {report.source_embedder}): {parts}\n")
        if report.previous_path is not None:
            out.write(f"the previous store is in {report.previous_path}; delete it once this one serves\n")
        else:
            out.write(f"the re-embedded store is collection {args.to_collection!r}; point the application at it\n")

    _emit(args, out, data, render)
    return 0
