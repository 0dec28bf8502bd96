"""``benchmarks/face_bench.py`` runs end to end on a few items and prints every row."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import face_bench  # noqa: E402


def test_every_operation_and_the_put_floor_are_printed(capsys):
    assert face_bench.main(["--items", "30", "--calls", "6"]) == 0
    out = capsys.readouterr().out
    for op in ("put", "get", "search", "list_namespaces", "delete"):
        row = re.search(rf"^\| {op} \|(.*)\|$", out, re.M)
        assert row is not None, op
        cells = [c.strip() for c in row.group(1).split("|")]
        assert len(cells) == 8 and all(re.fullmatch(r"[0-9.]+×?", c) for c in cells), cells
    for name in ("face put", "face put, no cache", "engine upsert, old payload", "engine upsert, our payload",
                 "engine upsert, minimal payload", "engine upsert, empty payload", "inmemory put"):
        assert re.search(rf"^- {re.escape(name)}: [0-9.]+ µs \([0-9.]+×\)$", out, re.M), name


def test_the_floor_upserts_the_payload_the_face_writes(tmp_path):
    from langgraph_memory import QdrantStore
    from langgraph_memory.base_store._items import item_point_id

    with QdrantStore.open(tmp_path / "face") as store:
        store.put(*face_bench._key(7), face_bench._value(7))
        written = store._backend.retrieve([item_point_id(*face_bench._key(7))])[0].payload
    ours = face_bench.floor_payloads(7, written["created_at"])["our payload"]
    assert ours == written
