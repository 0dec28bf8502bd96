"""A hostile or broken ``langgraph_memory.json`` beside a store's shard (edited, deleted,
replaced by a link): opening the store gives our typed error with a bounded message,
never the engine's bare ``Exception`` or Python's ``RecursionError``, and changes nothing."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from langgraph_memory.errors import StorageError
from langgraph_memory.store.backends._bm25_idf import IDF_KEY
from langgraph_memory.store.backends.edge import META_FILE


def _made(path, fake_embeddings):
    from langgraph_memory import MemoryStore

    with MemoryStore.open(path, embeddings=fake_embeddings) as store:
        store.remember("Alice drinks tea", namespace=("u",), dedup=False)
    return (path / META_FILE).read_text()


def _deeply_nested(meta_path):
    meta = json.loads(meta_path.read_text())
    text = json.dumps(meta).replace(json.dumps(meta[IDF_KEY]), "[" * 100_000 + "]" * 100_000)
    meta_path.write_text(text)


def _huge_field(meta_path):
    meta = json.loads(meta_path.read_text())
    meta[IDF_KEY] = "c" * 5_000_000
    meta_path.write_text(json.dumps(meta))


def _deleted(meta_path):
    meta_path.unlink()


def _link_to_itself(meta_path):
    meta_path.unlink()
    os.symlink(meta_path, meta_path)


def _link_to_nowhere(meta_path):
    meta_path.unlink()
    os.symlink(meta_path.with_name("gone.json"), meta_path)


@pytest.mark.parametrize("damage", [_deeply_nested, _huge_field, _deleted, _link_to_itself, _link_to_nowhere])
def test_a_damaged_meta_file_is_a_bounded_storage_error(tmp_path, fake_embeddings, damage):
    from langgraph_memory import MemoryStore

    path = tmp_path / "s"
    _made(path, fake_embeddings)
    meta_path = path / META_FILE
    damage(meta_path)
    before = sorted(p.name for p in path.iterdir())
    link = os.readlink(meta_path) if meta_path.is_symlink() else None
    with pytest.raises(StorageError) as raised:
        MemoryStore.open(path, embeddings=fake_embeddings)
    assert str(meta_path) in str(raised.value)
    assert len(str(raised.value)) < 1_000  # a value in the file is named, not copied whole
    assert sorted(p.name for p in path.iterdir()) == before  # nothing written beside the shard
    if link is not None:
        assert os.readlink(meta_path) == link


def _link_to_endless_device(meta_path):
    meta_path.unlink()
    os.symlink("/dev/zero", meta_path)


def _pipe(meta_path):
    meta_path.unlink()
    os.mkfifo(meta_path)


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"), reason="needs /dev/zero and pipes")
@pytest.mark.parametrize("damage", [_link_to_endless_device, _pipe])
def test_a_meta_file_that_is_not_a_file_is_refused_without_reading_it(tmp_path, fake_embeddings, damage):
    """Read whole, a link to ``/dev/zero`` filled memory until ``MemoryError`` and a named
    pipe blocked forever: a meta file is read only when it is a regular file, and boundedly."""
    from langgraph_memory import MemoryStore

    path = tmp_path / "s"
    _made(path, fake_embeddings)
    damage(path / META_FILE)
    with pytest.raises(StorageError, match="not a regular file"):
        MemoryStore.open(path, embeddings=fake_embeddings)


def _directory(meta_path):
    meta_path.unlink()
    meta_path.mkdir()


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"), reason="needs /dev/zero and pipes")
@pytest.mark.parametrize("damage, said", [
    (_pipe, "a named pipe"), (_directory, "a directory"), (_link_to_endless_device, "a character device"),
    (_link_to_nowhere, "which does not exist"), (_link_to_itself, "unreadable"), (_deleted, "has lost its"),
])
def test_the_cli_says_what_a_meta_file_that_is_not_a_file_is(tmp_path, fake_embeddings, damage, said):
    """The CLI said "langgraph_memory.json not found" of a meta file that is there but is a
    pipe, a directory or a link to a device, and of one deleted beside its shard; it now
    names what it is, in one line, without reading it (a pipe would block) and without
    creating anything."""
    from langgraph_memory.cli import main

    path = tmp_path / "s"
    _made(path, fake_embeddings)
    damage(path / META_FILE)
    before = sorted(p.name for p in path.iterdir())
    for command in (["list"], ["stats"]):
        out, err = io.StringIO(), io.StringIO()
        code = main(["--path", str(path), *command], stdout=out, stderr=err, embeddings=fake_embeddings)
        lines = err.getvalue().strip().splitlines()
        assert code == 1 and len(lines) == 1 and len(lines[0]) < 400, err.getvalue()
        assert said in lines[0] and "not found" not in lines[0]
    assert sorted(p.name for p in path.iterdir()) == before


def _unprivileged() -> list[str] | None:
    """A command prefix under which file permissions apply: none for a user; for root,
    ``setpriv`` without capabilities (root reads any file); ``None`` when there is none."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all"] if setpriv else None


@pytest.mark.skipif(not hasattr(os, "geteuid") or _unprivileged() is None, reason="needs a user or setpriv")
@pytest.mark.parametrize("locked", ["file", "directory"])
def test_the_cli_says_a_meta_file_it_may_not_read_is_a_permission_problem(tmp_path, fake_embeddings, locked):
    """On 750ee25 a meta file in a directory the user may not search was "unreadable
    (Permission denied), not a regular file; restore it from a backup or an export", and
    one the user may not read was "damaged ...; restore it from a backup": advice to
    replace a store that is whole. It is now a permission error, and says so."""
    path = tmp_path / "s"
    _made(path, fake_embeddings)
    target = path / META_FILE if locked == "file" else path
    mode = target.stat().st_mode
    os.chmod(target, 0o000 if locked == "file" else 0o600)
    try:
        run = subprocess.run(
            [*_unprivileged(), sys.executable, "-c",
             "import sys; from langgraph_memory.cli import main; sys.exit(main(sys.argv[1:]))",
             "--path", str(path), "stats"],
            capture_output=True, text=True, timeout=300)
    finally:
        os.chmod(target, mode)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 1 and len(lines) == 1, run.stderr
    assert "Permission denied" in lines[0]
    assert not any(word in lines[0] for word in ("restore", "damaged", "not a regular file")), lines[0]
