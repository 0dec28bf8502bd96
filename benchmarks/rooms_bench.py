"""Rooms: observe throughput, the pre-hook's added cost with a 10k-message room, and the
chit-chat measure.

    python benchmarks/rooms_bench.py [--observe 500] [--room-size 10000] [--queries 200]

* observe: messages per second through ``store.observe`` (one message, one embedding, one
  upsert) and ``observe_many`` (batches of 100), offline MiniLM, embedded Qdrant Edge.
* pre-hook: one turn's selection (:func:`~langgraph_memory.agent.turn.select_turn`) for a
  user with 1,000 memories, with and without a named room of ``--room-size`` messages,
  excluding the query embedding (the turn's vectors are computed once beforehand), the two
  interleaved query by query; medians and their difference.
* chit-chat: the 200-message room of ``benchmarks/room_data.py`` (150 chit-chat lines), 20
  questions: how many live blocks hold no chit-chat line.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.prehook_bench import QUERIES, load  # noqa: E402
from benchmarks.room_data import CHITCHAT, QUESTIONS, room_messages  # noqa: E402
from langgraph_memory import MemoryStore, offline_embeddings  # noqa: E402
from langgraph_memory.agent.injection import InjectionConfig, VectorCache  # noqa: E402
from langgraph_memory.agent.rooms import LiveConfig  # noqa: E402
from langgraph_memory.agent.turn import TurnScopes, select_turn  # noqa: E402

ROOMS = ("rooms", "bench")


def observe_rate(store: MemoryStore, count: int) -> tuple[float, float]:
    texts = [m["text"] + f" ({i})" for i, m in enumerate(room_messages() * (count // 200 + 1))][:count]
    start = time.perf_counter()
    for i, text in enumerate(texts):
        store.observe(text, namespace=ROOMS, room="one", author=f"user{i % 7}")
    single = count / (time.perf_counter() - start)
    start = time.perf_counter()
    for i in range(0, count, 100):
        store.observe_many([{"text": t, "author": f"user{j % 7}"} for j, t in enumerate(texts[i:i + 100])],
                           namespace=ROOMS, room="many")
    batched = count / (time.perf_counter() - start)
    return single, batched


def fill_room(store: MemoryStore, size: int) -> None:
    # A 10k room through observe_many would mostly measure MiniLM: embed a pool of 1,000
    # distinct messages once and reuse their vectors, so the engine holds ``size`` points.
    pool = [f"{m['text']} #{i}" for i, m in enumerate(room_messages() * 5)]
    authors = [f"user{i % 11}" for i in range(len(pool))]
    points = [store._room_point(t, ROOMS, "lobby", a, None, ()) for t, a in zip(pool, authors)]
    store._embed_messages([p for p in points if p is not None])
    backend = store._rooms_backend()
    for start in range(0, size, 500):
        batch = []
        for i in range(start, min(size, start + 500)):
            src = points[i % len(points)]
            fresh = store._room_point(src.payload["content"], ROOMS, "lobby", src.payload["author"], None, ())
            fresh.dense, fresh.payload["substance"] = src.dense, src.payload["substance"]
            batch.append(fresh)
        backend.upsert(batch)


def prehook_cost(store: MemoryStore, queries: int) -> tuple[list[float], list[float]]:
    user = load(store, 1000)
    plain = TurnScopes(user=user, agent=("agent", "bench"))
    rooms = TurnScopes(user=user, agent=("agent", "bench"), rooms_namespace=ROOMS, rooms=("lobby",))
    vectors = {q: store.embed_query(q) for q in QUERIES}
    config, live, cache = InjectionConfig(), LiveConfig(), VectorCache()
    for scopes in (plain, rooms):  # warm up
        select_turn(store, scopes=scopes, query=vectors[QUERIES[0]], config=config, live=live, cache=cache)
    without, with_room = [], []
    for i in range(queries):
        v = vectors[QUERIES[i % len(QUERIES)]]
        for scopes, into in ((plain, without), (rooms, with_room)) if i % 2 else ((rooms, with_room), (plain, without)):
            start = time.perf_counter()
            select_turn(store, scopes=scopes, query=v, config=config, live=live, cache=cache)
            into.append(time.perf_counter() - start)
    return without, with_room


def chitchat_clean(store: MemoryStore) -> int:
    ns = ("rooms", "chitchat")
    store.observe_many(room_messages(), namespace=ns, room="lobby")
    live = LiveConfig()
    return sum(
        not any(m.content in CHITCHAT for m in store.search_live(
            q, namespace=ns, rooms="lobby", limit=live.limit, min_score=live.min_cosine,
            min_substance=live.min_substance))
        for q, _ in QUESTIONS
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observe", type=int, default=500)
    parser.add_argument("--room-size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    embeddings = offline_embeddings()
    with tempfile.TemporaryDirectory() as tmp, MemoryStore.open(f"{tmp}/s", embeddings=embeddings) as store:
        single, batched = observe_rate(store, args.observe)
        print(f"observe: {single:.0f} messages/s one by one, {batched:.0f} messages/s in batches of 100 "
              f"({args.observe} messages, offline MiniLM, Qdrant Edge)")
        fill_room(store, args.room_size)
        without, with_room = prehook_cost(store, args.queries)
        a, b = statistics.median(without) * 1e3, statistics.median(with_room) * 1e3
        print(f"pre-hook, excluding the query embedding ({args.queries} turns, interleaved, medians): "
              f"{a:.2f} ms without a room, {b:.2f} ms with a {store.count_live(namespace=ROOMS, room='lobby'):,}"
              f"-message room: +{b - a:.2f} ms ({b / a:.2f}x)")
        clean = chitchat_clean(store)
        print(f"chit-chat: {clean}/20 live blocks hold no chit-chat line (200 messages, 150 chit-chat)")


if __name__ == "__main__":
    main()
