"""Minimal reproduction: Qdrant Edge reads some payload floats back one unit in the last
place (ULP) off what was written.

    python benchmarks/edge_float_repro.py            # 3,000 random floats in one payload

Needs only ``qdrant-edge-py``. It writes one point whose payload holds random floats, reads
it back with ``retrieve`` and counts the floats that differ, and by how many ULPs. A JSON
parser without correctly rounded float parsing (serde_json without ``float_roundtrip``) gives
exactly this. Our face therefore writes such values a second time as JSON text and its dates
in whole microseconds. See ``docs/upstream/qdrant-edge-floats.md``.
"""

from __future__ import annotations

import argparse
import math
import random
import tempfile

import qdrant_edge as qe


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=3_000)
    args = parser.parse_args()
    rng = random.Random(0)
    floats = [rng.random() * 10 ** rng.randint(-6, 12) for _ in range(args.n)]
    with tempfile.TemporaryDirectory() as tmp:
        shard = qe.EdgeShard.create(f"{tmp}/shard", qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)}))
        shard.update(qe.UpdateOperation.upsert_points([qe.Point(1, {"dense": [1.0, 0, 0, 0]}, {"x": floats})]))
        back = shard.retrieve([1], with_payload=True, with_vector=False)[0].payload["x"]
        shard.close()
    off = [abs(a - b) / math.ulp(a) for a, b in zip(floats, back) if a != b]
    print(f"{len(off)} of {len(floats)} floats read back differently; largest gap {max(off, default=0):.0f} ULP")
    print("examples:", [(a, b) for a, b in zip(floats, back) if a != b][:3])


if __name__ == "__main__":
    main()
