"""Concurrent writers: 8 threads (or 8 asyncio tasks) x 200 distinct facts, nothing lost.

Two writers share each namespace, so the dedup check-then-write runs under contention, and
four namespaces are written in parallel. A reader searches throughout.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

pytestmark = pytest.mark.integration

WRITERS = 8
FACTS_PER_WRITER = 200
NAMESPACES = 4

PEOPLE = ["Alice", "Bruno", "Chloe", "Daniel", "Emma", "Farid", "Giulia", "Hugo", "Ines", "Jonas", "Karim"]
ITEMS = [
    "a blue kettle", "two novels", "running shoes", "a chess set", "green tea", "a road bike",
    "oil paints", "a tent", "a violin", "garden seeds", "a rain jacket", "a desk lamp", "ski goggles",
]
SHOPS = ["the market", "a bookshop", "the mall", "an outlet", "a flea market", "the station kiosk", "a farm stand"]


def fact(writer: int, i: int) -> str:
    """A distinct purchase: buyer, item and shop vary, and each price is unique.

    Any two of these differ by a number, so a correct dedup policy never merges them (this
    was checked pairwise against the lexical rules at cosine 0.99, their worst case).
    """
    k = writer * FACTS_PER_WRITER + i
    return f"{PEOPLE[k % 11]} bought {ITEMS[k % 13]} at {SHOPS[k % 7]} for {20 + k} euros"


def namespace(writer: int) -> tuple[str, str]:
    return ("memories", f"user-{writer % NAMESPACES}")


def expected_contents() -> dict[tuple[str, str], set[str]]:
    out: dict[tuple[str, str], set[str]] = {}
    for w in range(WRITERS):
        out.setdefault(namespace(w), set()).update(fact(w, i) for i in range(FACTS_PER_WRITER))
    return out


def assert_all_stored(store, actions: list[str]) -> None:
    merged = [a for a in actions if a != "inserted"]
    assert merged == [], f"dedup merged {len(merged)} distinct generated facts"
    assert store.count() == WRITERS * FACTS_PER_WRITER
    assert store.count(include_superseded=True) == WRITERS * FACTS_PER_WRITER
    for ns, contents in expected_contents().items():
        stored = [p.payload["content"] for p in store.iter_points(namespace=ns)]
        assert len(stored) == len(contents) and set(stored) == contents


def test_threads_lose_nothing(store):
    assert len({c for cs in expected_contents().values() for c in cs}) == WRITERS * FACTS_PER_WRITER
    start = threading.Barrier(WRITERS + 1)
    done = threading.Event()
    errors: list[BaseException] = []
    actions: list[str] = []
    reads = [0]

    def write(w: int) -> None:
        try:
            start.wait()
            for i in range(FACTS_PER_WRITER):
                actions.append(store.remember(fact(w, i), namespace=namespace(w)).action)
        except BaseException as exc:  # collected: an exception in a thread would be lost
            errors.append(exc)

    def read() -> None:
        try:
            start.wait()
            while not done.is_set():
                for hit in store.search("who bought a violin", namespace=namespace(0), limit=5):
                    assert hit.memory.namespace == namespace(0)
                store.recent(namespace=namespace(1), limit=5)
                reads[0] += 1
                # Pace the reader: qdrant-client's local mode serialises calls, and a reader
                # spinning on it would only starve the writers.
                time.sleep(0.05)
        except BaseException as exc:
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    reader = threading.Thread(target=read)
    for t in (*writers, reader):
        t.start()
    for t in writers:
        t.join()
    done.set()
    reader.join()
    assert errors == []
    assert reads[0] > 0
    assert_all_stored(store, actions)


async def test_async_tasks_lose_nothing(store):
    async def write(w: int) -> list[str]:
        return [
            (await store.aremember(fact(w, i), namespace=namespace(w))).action
            for i in range(FACTS_PER_WRITER)
        ]

    results = await asyncio.gather(*(write(w) for w in range(WRITERS)))
    assert_all_stored(store, [a for r in results for a in r])
    hits = await store.asearch("Hugo bought a violin", namespace=namespace(0), limit=3)
    assert hits and all(h.memory.namespace == namespace(0) for h in hits)
