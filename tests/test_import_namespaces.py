"""Import never moves a memory across namespaces: an export line carrying bob's memory id
with alice's namespace is refused with a typed error naming the id, and nothing is
imported; the same rule holds in the Python API (a BaseStore put with bob's memory id in
alice's namespace never touches bob's memory)."""

from __future__ import annotations

import io
import json

import pytest

from langgraph_memory import LangGraphMemoryError
from langgraph_memory.cli import main
from langgraph_memory.store._transfer import ImportNamespaceError, export_jsonl, import_jsonl

ALICE = ("memories", "alice")
BOB = ("memories", "bob")


def _as_alice(record: dict) -> dict:
    payload = dict(record["payload"], namespace="memories/alice", ns_prefixes=["memories", "memories/alice"])
    return dict(record, payload=payload)


def _export(store, tmp_path, edit=lambda r: r):
    out = io.StringIO()
    export_jsonl(store, out)
    header, *records = [json.loads(line) for line in out.getvalue().splitlines()]
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [header, *map(edit, records)]) + "\n")
    return path


def test_an_edited_export_cannot_move_bobs_memory_to_alice(store, tmp_path):
    bob = store.remember("Bob's bank PIN hint is his cat's name", namespace=BOB).memory
    mine = store.remember("Alice likes green tea", namespace=ALICE).memory
    path = _export(store, tmp_path, lambda r: _as_alice(r) if r["id"] == bob.id else r)
    for dry_run in (True, False):
        with pytest.raises(ImportNamespaceError) as caught:
            import_jsonl(store, path, dry_run=dry_run)
        assert caught.value.memory_id == bob.id and bob.id in str(caught.value)
        assert "memories/bob" not in str(caught.value)  # the other namespace is not disclosed
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, LangGraphMemoryError)
    assert store.get(bob.id, namespace=BOB).content == bob.content
    assert [m.id for m in store.recent(namespace=ALICE, since=None)] == [mine.id]
    # The CLI says the same in one line and imports nothing.
    err = io.StringIO()
    assert main(["import", str(path)], store=store, stdout=io.StringIO(), stderr=err) != 0
    assert bob.id in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1
    assert store.get(bob.id, namespace=BOB) is not None and store.get(bob.id, namespace=ALICE) is None


def test_the_same_file_imports_where_the_id_is_unknown_or_already_in_its_namespace(make_store, tmp_path):
    source = make_store(tmp_path / "source")
    bob = source.remember("Bob plays the cello", namespace=BOB).memory
    path = _export(source, tmp_path)
    assert import_jsonl(source, path).records == 1  # same namespace: replaced in place
    target = make_store(tmp_path / "target")
    moved = _export(source, tmp_path, _as_alice)
    assert import_jsonl(target, moved).records == 1  # a store that never held it: alice's own record
    assert target.get(bob.id, namespace=ALICE) is not None and target.get(bob.id, namespace=BOB) is None


def test_a_history_link_across_namespaces_is_refused(make_store, tmp_path):
    source = make_store(tmp_path / "source")
    old = source.remember("Bob lives in Lyon", namespace=BOB).memory
    new = source.remember("Bob lives in Paris since May", namespace=BOB).memory
    source._backend.set_payload([old.id], {"status": "superseded", "superseded_by": new.id})
    source._backend.set_payload([new.id], {"supersedes": [old.id]})
    path = _export(source, tmp_path, lambda r: _as_alice(r) if r["id"] == new.id else r)
    target = make_store(tmp_path / "target")
    with pytest.raises(ImportNamespaceError) as caught:
        import_jsonl(target, path)
    assert caught.value.memory_id == old.id and target.count(namespace=ALICE, include_superseded=True) == 0
    assert target.count(namespace=BOB, include_superseded=True) == 0


def test_a_base_store_put_with_bobs_memory_id_never_touches_bobs_memory(store):
    bob = store.remember("Bob's locker code is 4411", namespace=BOB).memory
    base = store.as_base_store()
    base.put(ALICE, bob.id, {"content": "overwritten by alice"})
    assert store.get(bob.id, namespace=BOB).content == bob.content
    assert base.get(BOB, bob.id).value["content"] == bob.content
    assert base.get(ALICE, bob.id).value == {"content": "overwritten by alice"}
    base.delete(ALICE, bob.id)
    assert store.get(bob.id, namespace=BOB) is not None
