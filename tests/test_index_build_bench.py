"""The index-build benchmark's parts on tiny data: what it writes and what it reports."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import index_build_bench as bench  # noqa: E402


def test_table_embeddings_map_each_text_to_its_row():
    table, _ = bench.vectors(5, 2, seed=1)
    embeddings = bench.TableEmbeddings(table)
    assert embeddings.embed_documents(["memory 3", "memory 0"]) == [table[3].tolist(), table[0].tolist()]
    assert len(embeddings.embed_query("dimension probe")) == bench.DIM


def test_queries_are_unit_vectors_near_a_stored_one():
    table, queries = bench.vectors(50, 10, seed=2)
    assert np.allclose(np.linalg.norm(queries, axis=1), 1.0, atol=1e-5)
    assert (queries @ table.T).max(axis=1).min() > 0.7  # random pairs are near 0


def test_the_ticker_records_a_gap_while_the_gil_is_held():
    with bench.Ticker() as ticker:
        sum(range(20_000_000))  # one C call: no other thread runs until it returns
    assert ticker.gaps and ticker.max_ms > 2 * bench.TICK * 1e3


def test_the_store_part_feeds_both_stores_and_reports_the_ratios(tmp_path, capsys):
    table, queries = bench.vectors(60, 6, seed=3)
    args = argparse.Namespace(dedup=True, optimize_fed=False)
    results = bench.bench_store(args, table, queries, tmp_path)
    for name in ("fed", "bulk"):
        assert "points_count=60" in results[f"{name} shard"]
    assert results["fed/bulk search"] == pytest.approx(results["fed search p50 ms"] / results["bulk search p50 ms"])
    assert results["fed/bulk engine"] > 0
    assert "fed writes" in results and results["fed writes"]["max_gap_ms"] > 0
    assert "target <= 2" in capsys.readouterr().out


def test_incremental_segments_are_built_as_they_fill(tmp_path):
    table, queries = bench.vectors(400, 4, seed=4)
    results = bench.bench_incremental([200], table, queries, tmp_path)
    assert results[200]["builds"] == 2
    assert results[200]["segments"] >= 2
    assert results["bulk"]["indexed query p50 ms"] > 0


def test_timed_reports_seconds_and_gaps():
    results: dict = {}
    with bench.timed("nap", results):
        time.sleep(0.05)
    assert results["nap"]["seconds"] >= 0.05
    assert set(results["nap"]) == {"seconds", "max_gap_ms", "gaps_over_100ms"}
