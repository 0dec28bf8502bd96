"""The Qdrant Edge store's meta file (``langgraph_memory.json``: the embedder, the vector
size, BM25's IDF mode), read as hostile input and written atomically."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from langgraph_memory.errors import StorageError

MAX_META_BYTES = 1 << 20
"""A meta file is under 1 KiB; past this it is not one (read no further: a link to
``/dev/zero`` never ends)."""


MISSING = "missing"
"""What :func:`not_a_file` says of a meta file that is not there at all."""
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def not_a_file(meta_path: Path) -> str | None:
    """``None`` when ``meta_path`` is a regular file (through links); else :data:`MISSING`
    or what it is instead ("a named pipe", "a directory (through a link to '/x')", ...),
    found without opening it (a pipe would block)."""
    target = os.readlink(meta_path) if os.path.islink(meta_path) else None
    link = "" if target is None else f" (through a link to {target!r})"
    try:
        mode = os.stat(meta_path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return MISSING if target is None else f"a link to {target!r}, which does not exist"
    except PermissionError:  # a directory we may not search: the file may be whole
        raise
    except OSError as exc:  # a link to itself (ELOOP)
        return f"unreadable ({exc.strerror}){link}"
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file") + link


def read_meta(meta_path: Path) -> dict[str, Any] | None:
    """The meta file's object; ``None`` when there is none (a new store). A damaged one,
    or one that is not a regular file (a pipe would block), is our :class:`StorageError`."""
    try:
        if not meta_path.exists():
            return None
        if not meta_path.is_file():
            raise OSError(f"not a regular file: {not_a_file(meta_path)}")
        with meta_path.open(encoding="utf-8") as file:
            meta = json.loads(file.read(MAX_META_BYTES))
    except PermissionError as exc:  # not damage: restoring a whole store would be the wrong advice
        raise StorageError(f"{meta_path} cannot be read ({exc.strerror}); check its permissions") from None
    except (OSError, ValueError, RecursionError) as exc:  # RecursionError: arrays nested 100k deep
        raise StorageError(f"{meta_path} is damaged ({exc}); restore it from a backup or an export") from None
    if not isinstance(meta, dict):
        raise StorageError(f"{meta_path} is damaged (not a JSON object); restore it from a backup or an export")
    return meta


def write_meta(meta_path: Path, meta: dict[str, Any]) -> None:
    """Write ``meta`` whole or not at all (a temporary file moved into place)."""
    tmp = meta_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(meta, indent=2))
    tmp.replace(meta_path)
