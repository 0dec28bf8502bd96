"""The memory browser on a large namespace: how long its pages take with 100k memories in
ONE namespace on Qdrant Edge, measured through the app (routing, store reads, HTML).

    python benchmarks/ui_bench.py [--memories 100000] [--repeat 15]

Memories are synthetic facts spread over 120 days, embedded by garden_bench's seeded hash
embedder (the listing never embeds; MiniLM would take ~20 minutes for 100k texts). The
search figure therefore leaves out the query embedding (~10 ms with the packaged MiniLM).
Each page is requested ``--repeat`` times in rotation (first page, deep page, filtered,
search, start page) and the medians are printed. The issue's target: first page < 300 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from starlette.testclient import TestClient

from benchmarks.garden_bench import TYPES, HashEmbeddings
from benchmarks.prehook_bench import fact
from langgraph_memory import MemoryStore
from langgraph_memory.store.records import new_memory, utcnow
from langgraph_memory.ui import memory_browser

NS = ("memories", "big")
BATCH = 10_000


def load(store: MemoryStore, total: int) -> None:
    rng = random.Random(3)
    now = utcnow()
    for start in range(0, total, BATCH):
        items = [{"content": fact(rng, i), "memory_type": rng.choice(TYPES),
                  "created_at": now - timedelta(days=rng.uniform(0, 120))} for i in range(start, min(total, start + BATCH))]
        # remember_many's bulk path, without its index build every 5k memories (each one
        # rebuilds a growing index: loading 100k that way ran 11 minutes here unfinished);
        # one build at the end instead.
        memories = [new_memory(namespace=NS, **item) for item in items]
        store._writer.write_many(memories, [None] * len(memories), dedup=False, build_index=False)
    store.optimize()


def deep_page(client: TestClient, hops: int) -> str:
    """The URL of page ``hops + 1``, by following the "older" links."""
    path = "/namespace?ns=memories/big"
    for _ in range(hops):
        found = re.search(r'id="next-page" href="([^"]+)"', client.get(path).text)
        path = found.group(1).replace("&amp;", "&")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore.open(Path(tmp) / "store", embeddings=HashEmbeddings())
        t = time.perf_counter()
        load(store, args.memories)
        print(f"loaded {store.count(namespace=NS)} memories in one namespace in {time.perf_counter() - t:.0f} s", flush=True)
        client = TestClient(memory_browser(store))
        pages = {
            "first page (50 newest)": "/namespace?ns=memories/big",
            "page 21 (keyset cursor)": deep_page(client, 20),
            "first page, type=event": "/namespace?ns=memories/big&type=event",
            "search (hybrid, hash embedder)": "/namespace?ns=memories/big&q=my sister lives in Lyon",
            "start page": "/",
            "memory page": None,
        }
        first = client.get(pages["first page (50 newest)"]).text
        pages["memory page"] = re.search(r'<td class="content"><a href="([^"]+)"', first).group(1).replace("&amp;", "&")
        timings: dict[str, list[float]] = {name: [] for name in pages}
        for path in pages.values():
            assert client.get(path).status_code == 200  # warm up
        for _ in range(args.repeat):
            for name, path in pages.items():
                t = time.perf_counter()
                response = client.get(path)
                timings[name].append(time.perf_counter() - t)
                assert response.status_code == 200, (name, response.status_code)
        result = {name: round(statistics.median(v) * 1000, 1) for name, v in timings.items()}
        for name, ms in result.items():
            print(f"{name:32s} median {ms:7.1f} ms  (max {max(timings[name]) * 1000:.1f})")
        print(json.dumps({"memories": args.memories, "repeat": args.repeat, "median_ms": result}))
        store.close()


if __name__ == "__main__":
    main()
