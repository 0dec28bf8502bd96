"""An importance is what ``remember`` returns, what reads back, and what orders and filters
memories, on every engine. Qdrant Edge read 1 - 2**-53 back as 1.0 from its payload while
its float index kept 0.9999999999999999: the memory sorted below the true 1.0s and
``min_importance=1.0`` left it out. Importances are now kept to 15 decimals
(``records.IMPORTANCE_DECIMALS``); values of 15 decimals or fewer are unchanged."""

from __future__ import annotations

import json

import pytest
from qdrant_client import QdrantClient

from langgraph_memory import MemoryStore

ODD = [1.0, 1 - 2**-53, 1.0, 1 - 2**-52, 0.42451918914251396, 0.9762551055929201, 0.7, 0.125, 5e-324, 0.0]
NS = ("u", "imp")


@pytest.fixture(params=["edge", "qdrant"])
def fake_store(request, tmp_path, fake_embeddings):
    store = (MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings) if request.param == "edge"
             else MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings))
    yield store
    store.close()


def _agree(store: MemoryStore, given: dict[str, float], returned: dict[str, float]) -> None:
    read = {i: store.get(i, namespace=NS).importance for i in given}
    assert read == returned  # what the write returned is what reads back
    for i, value in given.items():
        assert abs(read[i] - value) <= 5e-16
        if len(repr(value).split(".")[-1]) <= 15 and "e" not in repr(value):
            assert read[i] == value  # a value of 15 decimals or fewer is kept as given
    ordered = store.important(namespace=NS, min_importance=0.0, limit=len(given))
    assert [m.id for m in ordered] == sorted(given, key=lambda i: (-read[i], i))
    assert [m.importance for m in ordered] == sorted(read.values(), reverse=True)
    top = store.important(namespace=NS, min_importance=1.0, limit=len(given))
    assert {m.id for m in top} == {i for i in given if read[i] >= 1.0}


def _reimported(store: MemoryStore, tmp_path, edit) -> None:
    """``NS`` exported, each record's object passed to ``edit``, erased and imported again."""
    path = tmp_path / "x.jsonl"
    store.export(path, namespace=NS)
    header, *records = path.read_text().splitlines()
    edited = []
    for line in records:
        obj = json.loads(line)
        edit(obj)
        edited.append(json.dumps(obj))
    path.write_text("\n".join([header, *edited]) + "\n")
    store.erase(NS)
    store.import_(path)


def test_an_importance_reads_back_sorts_and_filters_as_it_was_returned(fake_store):
    results = [fake_store.remember(f"fact number {i}", namespace=NS, importance=v, dedup=False)
               for i, v in enumerate(ODD)]
    _agree(fake_store, {r.memory.id: v for r, v in zip(results, ODD)},
           {r.memory.id: r.memory.importance for r in results})


def test_an_imported_importance_reads_back_and_sorts_as_remembered_ones(fake_store, tmp_path):
    results = [fake_store.remember(f"fact number {i}", namespace=NS, importance=0.5, dedup=False)
               for i in range(len(ODD))]
    path = tmp_path / "x.jsonl"
    fake_store.export(path, namespace=NS)
    header, *records = path.read_text().splitlines()
    edited = []
    for line, value in zip(records, ODD):
        obj = json.loads(line)
        obj["payload"]["importance"] = obj["payload"]["vitality"] = value
        edited.append(json.dumps(obj))
    path.write_text("\n".join([header, *edited]) + "\n")
    fake_store.import_(path)
    by_id = {json.loads(line)["id"]: v for line, v in zip(records, ODD)}
    _agree(fake_store, by_id, {i: round(v, 15) for i, v in by_id.items()})
    assert {r.memory.id for r in results} == set(by_id)


def test_an_imported_memory_without_importance_filters_and_sorts_as_it_reads(fake_store, tmp_path):
    """A hand-written import may leave ``importance`` out. On 750ee25 it was stored without
    one: reads filled in 0.6, while the engines' ``min_importance`` filter and
    ``important()`` order, which read the stored field, did not see the memory at all."""
    identity = fake_store.remember("the user is called Ada", namespace=NS, memory_type="identity", dedup=False).memory
    fact = fake_store.remember("Ada likes tea", namespace=NS, importance=0.3, dedup=False).memory
    _reimported(fake_store, tmp_path, lambda obj: obj["payload"].pop("importance"))
    read = {i: fake_store.get(i, namespace=NS).importance for i in (identity.id, fact.id)}
    found = {h.memory.id for h in fake_store.search("Ada", namespace=NS, mode="bm25", min_importance=0.5)}
    assert found == {i for i, v in read.items() if v >= 0.5}
    ordered = fake_store.important(namespace=NS, min_importance=0.0, limit=5)
    assert [m.id for m in ordered] == sorted(read, key=lambda i: (-read[i], i))
    assert read == {identity.id: identity.importance, fact.id: 0.6}  # each type's default


def test_an_imported_memory_without_kind_or_type_is_found_by_the_filters_it_reads_as(fake_store, tmp_path):
    """A hand-written import may leave ``kind`` and ``memory_type`` out. They were stored
    absent: reads filled in ``fact``/``fact`` (``goal`` for a goal), while the engines'
    ``kinds=``/``memory_types=`` filters and the identity channel, which read the stored
    fields, missed the memory."""
    fact = fake_store.remember("Ada likes tea", namespace=NS, dedup=False).memory
    goal = fake_store.remember("Ada wants to learn Welsh", namespace=NS, kind="goal", dedup=False).memory

    def edit(obj: dict) -> None:
        if obj["id"] == fact.id:
            del obj["payload"]["kind"]
        del obj["payload"]["memory_type"]

    _reimported(fake_store, tmp_path, edit)
    read = {i: fake_store.get(i, namespace=NS) for i in (fact.id, goal.id)}
    assert (read[fact.id].kind, read[fact.id].memory_type) == ("fact", "fact")
    assert (read[goal.id].kind, read[goal.id].memory_type) == ("goal", "goal")
    for kind, memory_type, expected in (("fact", "fact", fact.id), ("goal", "goal", goal.id)):
        by_kind = {h.memory.id for h in fake_store.search("Ada", namespace=NS, mode="bm25", kinds=kind)}
        by_type = {h.memory.id for h in fake_store.search("Ada", namespace=NS, mode="bm25", memory_types=memory_type)}
        assert by_kind == by_type == {expected}
