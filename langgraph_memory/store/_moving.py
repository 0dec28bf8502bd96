"""Moving a store: export to and import from JSON Lines (:mod:`._transfer` has the format),
the public face of what ``langgraph-memory export`` / ``import`` do."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TextIO

from langgraph_memory.errors import EmbedderMismatchError, InvalidMemoryError
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store.records import Namespace, validate_namespace

if TYPE_CHECKING:
    from langgraph_memory.store._transfer import TransferSummary


class Moving:
    """:class:`~langgraph_memory.MemoryStore`'s export and import (``embedder``, ``dim`` and
    the backend come from the store)."""

    embedder: str
    dim: int
    _backend: Any



    def export(
        self, file: str | os.PathLike[str] | TextIO, *, namespace: Namespace | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> TransferSummary:
        """Write every record (live, history, expired; vectors included) of the store, or of
        ``namespace`` and below, to ``file`` (a path or an open text file) as JSON Lines:
        :meth:`import_` gives back an identical store, on either backend (this is how an
        embedded store moves to a Qdrant server). A path is written beside and renamed, so a
        failed export never leaves half a file. ``progress(phase, done, total)``."""
        from langgraph_memory.store._transfer import export_jsonl

        if namespace is not None:
            validate_namespace(namespace)
        if not isinstance(file, (str, os.PathLike)):
            return export_jsonl(self, file, namespace=namespace, progress=progress)
        target = Path(file)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                summary = export_jsonl(self, fh, namespace=namespace, progress=progress)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return summary

    def import_(
        self, path: str | os.PathLike[str], *, dry_run: bool = False,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> TransferSummary:
        """Load an :meth:`export` file: every line is validated first (nothing is written if
        one is malformed), then records are upserted by id, history included.

        Raises:
            ImportFormatError: a malformed line (``line N: problem``); nothing was written.
            EmbedderMismatchError: the file's vectors come from another embedder than this
                store's; nothing was written (re-embed one of them first).
        """
        from langgraph_memory.store._transfer import _records, import_jsonl

        if not isinstance(path, (str, os.PathLike)) or not Path(path).is_file():
            raise InvalidMemoryError("path", f"no such export file: {path!r}")
        records = _records(Path(path))
        try:
            header = next(records, (0, 0, {}))[2]
        finally:
            records.close()
        made_with = header.get("embedder") if isinstance(header, dict) else None
        if made_with and made_with != self.embedder:
            raise EmbedderMismatchError(
                f"{path} holds vectors of {made_with!r}; this store embeds with {self.embedder!r}: import it "
                f"into a store of {made_with!r}, then re-embed (langgraph-memory reembed)",
                stored=self.embedder, given=str(made_with))
        return import_jsonl(self, path, dry_run=dry_run, progress=progress)

    aexport = async_twin(export)
    aimport_ = async_twin(import_)
