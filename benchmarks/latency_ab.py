"""latency.py's rows of one engine for one checkout: run it on two checkouts, alternated.

A single pair of full ``latency.py`` runs cannot show 10% on these shared machines (the
``InMemoryStore`` rows, unchanged code, move 0.76-1.51x between two runs). This times the
same operations (``prehook``, ``search``, ``remember``, ``engine_query``: see
``latency.py``) on Qdrant Edge (or ``--system qdrant``, qdrant-client's local mode) with
the CPU time of the whole process (``time.process_time``: less sensitive to other
processes than the wall clock, and counting the engine's search threads, where Qdrant
Edge reads its segments), after a warm-up; ``--clock wall`` times the wall clock::

    python benchmarks/latency_ab.py --tree ../old-checkout --size 10000
    python benchmarks/latency_ab.py --size 10000        # this checkout; repeat, alternating

``--tree`` is a checkout whose ``langgraph_memory`` and ``benchmarks/latency.py`` are
timed (its code, this script's harness). Every text is embedded once with the real
offline embedder into ``--vectors`` (an ``.npz``; the first run writes it) and read from
there by every run, so both checkouts see the same vectors and no embedding is timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=str(ROOT), help="checkout to time (default: this one)")
    parser.add_argument("--size", type=int, default=10_000, help="memories over 100 namespaces")
    parser.add_argument("--calls", type=int, default=300, help="timed calls per operation")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--system", choices=("edge", "qdrant"), default="edge",
                        help="qdrant: qdrant-client's local mode (the server code path)")
    parser.add_argument("--vectors", default=str(Path(tempfile.gettempdir()) / "lgm-latency-vectors.npz"))
    args = parser.parse_args(argv)
    tree = Path(args.tree).resolve()
    sys.path.insert(0, str(tree))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import numpy as np

    import langgraph_memory
    from benchmarks import latency
    from benchmarks._locomo_data import DEFAULT_DATA, CachedEmbeddings

    if Path(langgraph_memory.__file__).resolve().parents[1] != tree:
        parser.error(f"imported langgraph_memory from {langgraph_memory.__file__}, not from {tree}")
    items, questions = latency._data(DEFAULT_DATA)
    fresh = [f"Later on, {it['content']}" for it in items[:400]]
    texts = list(dict.fromkeys([it["content"] for it in items] + questions + fresh))
    cached = CachedEmbeddings(langgraph_memory.offline_embeddings())
    if Path(args.vectors).exists():
        data = np.load(args.vectors, allow_pickle=False)
        cached._cache.update(zip(data["texts"].tolist(), data["vectors"].tolist()))
    missing = [t for t in texts if t not in cached._cache]
    if missing:
        print(f"embedding {len(missing)} texts once into {args.vectors}", file=sys.stderr, flush=True)
        cached.embed_documents(missing)
        np.savez(args.vectors, texts=np.array(list(cached._cache)),
                 vectors=np.array(list(cached._cache.values()), dtype=np.float32))
    with tempfile.TemporaryDirectory(prefix="latency-ab-") as tmp:
        ours = latency.Ours(args.system, cached, Path(tmp))
        ours.load(latency._spread(items, args.size))
        ops = ours.ops(questions, fresh)
        clock = time.process_time if args.clock == "cpu" else time.perf_counter
        medians = {}
        for name in ("prehook", "search", "engine_query", "remember"):
            op = ops[name]
            for i in range(min(30, args.calls)):
                op(i)
            samples = []
            for i in range(min(30, args.calls), min(30, args.calls) + args.calls):
                t0 = clock()
                op(i)
                samples.append(clock() - t0)
            medians[name] = statistics.median(samples) * 1e3
        ours.close()
    print(f"{args.size} {tree.name} {args.system} {args.clock} " + " ".join(f"{k}={v:.3f}" for k, v in medians.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
