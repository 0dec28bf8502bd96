"""The pre-hook with the link source on and off, alternated in one process: 1k memories
of prehook_bench.py (none linked), 60 decisions each, medians excluding the embedding.

    python benchmarks/link_source_ab.py
"""
import statistics, sys, tempfile, time, random
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from prehook_bench import load, QUERIES
from langgraph_memory import InjectionConfig, MemoryStore, offline_embeddings
from langgraph_memory.agent.injection import VectorCache, select_memories
emb = offline_embeddings()
with tempfile.TemporaryDirectory() as tmp:
    store = MemoryStore.open(f"{tmp}/s", embeddings=emb)
    ns = load(store, 1000)
    vecs = [store.embed_query(q) for q in QUERIES]
    on, off = InjectionConfig(similar_links=True), InjectionConfig(similar_links=False)
    times = {"on": [], "off": []}
    for rep in range(60):
        for name, cfg in (("on", on), ("off", off)) if rep % 2 else (("off", off), ("on", on)):
            v = vecs[rep % len(vecs)]
            t = time.perf_counter(); select_memories(store, namespace=ns, query=v, config=cfg, cache=VectorCache()); times[name].append(time.perf_counter() - t)
    m = {k: statistics.median(x) * 1000 for k, x in times.items()}
    print(f"median ms: on {m['on']:.2f}, off {m['off']:.2f}, ratio on/off {m['on']/m['off']:.3f}")
    store.close()
