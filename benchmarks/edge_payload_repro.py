"""Minimal reproduction: Qdrant Edge's Python binding pays per payload value for the types
it tries before the right one, and the shard's payload indexes cost every upsert.

    python benchmarks/edge_payload_repro.py          # ~20 s

Needs only ``qdrant-edge-py``. Part one times ``qe.Point(id, {}, payload)`` (no engine call:
the payload's conversion alone) for a one-field payload of each JSON type, minus the empty
payload's time. The binding tries a boolean, then an unsigned and a signed integer, a float,
a string, a list and an object in turn, and each failed try raises a Python error, so the
cost grows with the type's place in that order rather than with its size. Part two times
``EdgeShard.update`` of points built beforehand, on a shard without payload indexes and on
one with twelve (as many as a memory store keeps), the points holding none or all of their
fields.
See ``docs/upstream/qdrant-edge-payload.md``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import timeit
import uuid
from typing import Any

import qdrant_edge as qe

ONE_FIELD: dict[str, Any] = {
    "null": None, "bool": True, "int": 7, "negative int": -7, "float": 0.5, "string": "x",
    "string of 1,000": "x" * 1000, "empty list": [], "list of 2 strings": ["x", "y"], "empty object": {},
    "object of 2 strings": {"a": "x", "b": "y"},
}


def conversion(number: int) -> dict[str, float]:
    """Seconds each one-field payload adds to ``qe.Point``'s construction (best of 5)."""
    point_id = uuid.uuid4()

    def best(payload: dict[str, Any]) -> float:
        return min(timeit.repeat(lambda: qe.Point(point_id, {}, payload), number=number, repeat=5)) / number

    empty = best({})
    return {"empty payload (absolute)": empty, **{name: best({"f": v}) - empty for name, v in ONE_FIELD.items()}}


FIELDS: dict[str, Any] = {**{f"k{i}": f"v{i}" for i in range(8)}, **{f"f{i}": i + 0.5 for i in range(4)}}
"""A payload holding a value for each of the 12 indexed fields."""


def index_cost(points: int, tmp: str) -> dict[str, float]:
    """Median seconds of one upsert, without and with 12 payload indexes (8 keyword, 4
    float), of a point holding none of their fields and of one holding all of them."""
    shards = {}
    for name, indexed in (("no payload index", False), ("12 payload indexes", True)):
        shard = qe.EdgeShard.create(f"{tmp}/{name.replace(' ', '-')}", qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)}))
        if indexed:
            for i in range(8):
                shard.update(qe.UpdateOperation.create_field_index(f"k{i}", qe.KeywordIndexParams()))
            for i in range(4):
                shard.update(qe.UpdateOperation.create_field_index(f"f{i}", qe.FloatIndexParams()))
        shards[name] = shard
    cases = [(f"{name}, {what}", shard, payload) for name, shard in shards.items()
             for what, payload in (("empty payload", {}), ("the 12 fields", FIELDS))]
    samples: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for _ in range(points):
        for name, shard, payload in cases:  # alternated, each point built before the clock starts
            point = qe.Point(uuid.uuid4(), {}, payload)
            start = time.perf_counter()
            shard.update(qe.UpdateOperation.upsert_points([point]))
            samples[name].append(time.perf_counter() - start)
    for shard in shards.values():
        shard.close()
    return {name: statistics.median(s) for name, s in samples.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000, help="constructions per timing")
    parser.add_argument("--points", type=int, default=3_000, help="upserts per shard")
    args = parser.parse_args(argv)
    print(f"qdrant-edge-py: qe.Point(id, {{}}, {{'f': value}}), µs added to the empty payload's\n")
    for name, seconds in conversion(args.number).items():
        print(f"- {name}: {seconds * 1e6:.2f} µs")
    with tempfile.TemporaryDirectory() as tmp:
        print("\nEdgeShard.update of a prebuilt point, median µs\n")
        for name, seconds in index_cost(args.points, tmp).items():
            print(f"- {name}: {seconds * 1e6:.2f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
