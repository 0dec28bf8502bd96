"""The public lazy embedder: :class:`DeferredEmbedder` that is also a LangChain ``Embeddings``.

Apart from :mod:`langgraph_memory.store.embeddings` because its base class imports
langchain-core, which the command line's read-only commands never load."""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from langgraph_memory.store._deferred_embedder import DeferredEmbedder


class LazyEmbeddings(DeferredEmbedder, Embeddings):
    """An embedder built on its first use; a LangChain ``Embeddings`` anywhere one is asked for.

    A :class:`~langgraph_memory.MemoryStore` opened on an existing store with a lazy
    embedder of the same ``model_name`` takes the vector size from the store instead of
    embedding a probe, so reading, listing and exporting never load the model (the
    offline one takes seconds). ``LazyEmbeddings(default_embeddings,
    default_embedder_name())`` is what the Studio agent uses.

    Arguments as :class:`~langgraph_memory.store.embeddings.DeferredEmbedder`'s:
    ``factory``, ``model_name`` and ``dim``.
    """
