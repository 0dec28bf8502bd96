"""The LoCoMo benchmark's pipeline and scoring, on a tiny LoCoMo-shaped file written here.

The conversation is built so each retrieval's result is known by hand: the questions share
rare words with exactly the turns named below, and the corpus has five turns, so a dense
search at k=5 returns all of them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import locomo  # noqa: E402
from benchmarks._locomo_data import load, parse_evidence, score  # noqa: E402

TINY = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Alice",
            "speaker_b": "Bob",
            "session_1_date_time": "10:00 am on 1 May, 2023",
            "session_1": [
                {"speaker": "Alice", "dia_id": "D1:1", "text": "I adopted a ferret named Zorblat."},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Lovely! Weather here stays rainy."},
                {"speaker": "Alice", "dia_id": "D1:3", "text": "My sister Quintessa visits every Sunday for pancakes."},
                {"speaker": "Bob", "dia_id": "D1:4", "text": "I am training for a marathon in Copenhagen."},
            ],
            "session_2_date_time": "3:00 pm on 2 June, 2023",
            "session_2": [
                {"speaker": "Alice", "dia_id": "D2:1", "text": "Zorblat chewed through my couch cushions."},
            ],
        },
        "observation": {
            "session_1_observation": {
                "Alice": [["Alice adopted a ferret named Zorblat.", "D1:1"]],
                "Bob": [["Bob is training for a marathon in Copenhagen.", "D1:4"]],
            },
            "session_2_observation": {
                # The same fact again, from another turn: dedup must merge it and keep both ids.
                "Alice": [["Alice adopted a ferret named Zorblat.", "D2:1"]],
            },
        },
        "qa": [
            {"question": "Who visits every Sunday for pancakes?", "evidence": ["D1:3"], "category": 4},
            {"question": "Which marathon?", "evidence": ["D1:4; D1:2"], "category": 1},
            {"question": "When did Alice adopt the ferret Zorblat?", "evidence": ["D:1:1", "D2:1"], "category": 2},
            {"question": "What is Bob's favourite ferret?", "evidence": ["D1:1"], "category": 5},
            {"question": "Is Quintessa kind?", "evidence": [], "category": 3},
        ],
    }
]


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("locomo") / "tiny.json"
    path.write_text(json.dumps(TINY))
    return path


@pytest.fixture(scope="module")
def results(tiny_file, embeddings):
    modes = ("search", "dense", "bm25", "prehook", "rank_bm25", "inmemorystore")
    # Without the previous turn as BM25 context, so each turn matches only its own words.
    return locomo.run(tiny_file, modes=modes, embeddings=embeddings, context=False, log=lambda s: None)


def cell(rows, corpus, mode, category, k):
    [row] = [r for r in rows if (r["corpus"], r["mode"], r["category"], r["k"]) == (corpus, mode, category, k)]
    return row["recall_any"], row["recall_frac"]


def test_score_counts_the_turns_covered_by_the_first_k_items():
    ranked = [("D1:1",), ("D1:5", "D1:2"), ("D1:3",)]
    evidence = frozenset({"D1:2", "D1:3", "D1:9"})
    assert score(ranked, evidence, 1) == (0.0, 0.0)
    assert score(ranked, evidence, 2) == (1.0, pytest.approx(1 / 3))
    assert score(ranked, evidence, 20) == (1.0, pytest.approx(2 / 3))
    assert score([], evidence, 5) == (0.0, 0.0)


def test_evidence_typos_are_repaired_and_unscorable_questions_skipped(tiny_file):
    assert parse_evidence(["D:11:26", "D8:6; D9:17", "D", "D1:3"]) == ["D11:26", "D8:6", "D9:17", "D1:3"]
    [conv] = load(tiny_file)
    assert [len(conv.turns), len(conv.observations)] == [5, 3]
    # Category 5 and a question with no evidence are not scored.
    assert [(q.category, sorted(q.evidence)) for q in conv.questions] == [
        (4, ["D1:3"]), (1, ["D1:2", "D1:4"]), (2, ["D1:1", "D2:1"]),
    ]
    assert conv.turns[4].when.month == 6 and conv.turns[0].speaker == "Alice"


def test_bm25_recall_matches_the_hand_count(results):
    rows, _ = results
    # q1 finds its only turn first; q2 can only ever find D1:4 of {D1:4, D1:2} (no shared
    # word with D1:2); q3's two turns both hold "Zorblat", D1:1 also "ferret" and "adopt":
    # it ranks first.
    for mode in ("bm25", "rank_bm25"):
        assert cell(rows, "turns", mode, "single-hop", 1) == (1.0, 1.0)
        assert cell(rows, "turns", mode, "multi-hop", 20) == (1.0, 0.5)
        assert cell(rows, "turns", mode, "temporal", 1) == (1.0, 0.5)
        assert cell(rows, "turns", mode, "temporal", 5) == (1.0, 1.0)
        any_, frac = cell(rows, "turns", mode, "all", 1)
        assert any_ == 1.0 and frac == pytest.approx((1 + 0.5 + 0.5) / 3, abs=1e-4)
        any_, frac = cell(rows, "turns", mode, "all", 5)
        assert any_ == 1.0 and frac == pytest.approx((1 + 0.5 + 1) / 3, abs=1e-4)


def test_dense_modes_return_the_whole_small_corpus_at_k5(results):
    rows, _ = results
    for mode in ("dense", "inmemorystore"):
        assert cell(rows, "turns", mode, "all", 5) == (1.0, 1.0)
    assert {r["category"] for r in rows} == {"all", "single-hop", "multi-hop", "temporal"}
    assert {r["k"] for r in rows if r["mode"] != "prehook"} == {1, 5, 10, 20}


def test_prehook_rows_use_the_budget_as_k(results):
    rows, _ = results
    prehook = [r for r in rows if r["mode"] == "prehook"]
    assert prehook and {r["k"] for r in prehook} == {20}
    # Every question shares a distinctive word and meaning with one of its turns.
    assert cell(rows, "turns", "prehook", "all", 20)[0] == 1.0


def test_dedup_merges_the_repeated_fact_and_keeps_both_provenances(results):
    rows, summary = results
    assert summary["facts"] == 3 and summary["live_after_dedup"] == 2
    assert summary["dedup_actions"]["duplicate"] + summary["dedup_actions"]["updated"] == 1
    assert summary["provenance_lost"] == 0
    # With dedup the top fact carries D1:1 and D2:1; without, each copy carries one.
    assert cell(rows, "observations", "search", "temporal", 1) == (1.0, 1.0)
    assert cell(rows, "observations", "search_dedup_off", "temporal", 1) == (1.0, 0.5)
    assert cell(rows, "observations", "search_dedup_off", "temporal", 5) == (1.0, 1.0)


def test_main_writes_the_json_rows(tiny_file, tmp_path, embeddings, monkeypatch, capsys):
    monkeypatch.setattr("langgraph_memory.offline_embeddings", lambda: embeddings)
    out = tmp_path / "rows.json"
    assert locomo.main(["--data", str(tiny_file), "--json", str(out), "--modes", "search,bm25"]) == 0
    rows = json.loads(out.read_text())
    assert {tuple(sorted(r)) for r in rows} == {("category", "corpus", "k", "mode", "recall_any", "recall_frac")}
    assert {r["mode"] for r in rows} == {"search", "bm25", "search_dedup_off"}
    assert {r["corpus"] for r in rows} == {"turns", "observations"}
    printed = capsys.readouterr().out
    assert "| turns | bm25 | all |" in printed and "1 merged" in printed


def test_latency_times_every_operation_of_every_system_and_prints_ratios(tiny_file, embeddings):
    from benchmarks import latency

    rows = latency.run(tiny_file, sizes=[20], namespaces=2, budget_s=0.0, min_reps=2, max_reps=2,
                       embeddings=embeddings, log=lambda s: None)
    timed = {(r["system"], r["op"]) for r in rows}
    assert timed == {(s, op) for s in ("edge", "qdrant") for op in latency.OPS} | {
        ("inmemory", op) for op in ("prehook", "search", "remember")}
    assert all(r["median_ms"] > 0 and r["reps"] == 2 for r in rows)
    table = latency.format_table(rows)
    edge_prehook = next(line for line in table.splitlines() if line.startswith("| prehook | edge |"))
    assert edge_prehook.endswith("| 1.0 |")  # its own ratio
    assert "| engine_query | qdrant |" in table and "engine_query | inmemory" not in table


def test_cv_holds_out_each_conversation_and_reproduces_the_store(tmp_path, embeddings, monkeypatch, capsys):
    # Three copies of the tiny conversation: three folds, each tuned on the other two.
    path = tmp_path / "three.json"
    path.write_text(json.dumps([{**TINY[0], "sample_id": f"tiny-{i}"} for i in range(3)]))
    monkeypatch.setattr("langgraph_memory.offline_embeddings", lambda: embeddings)
    assert locomo.main(["--data", str(path), "--cv", "--no-context"]) == 0
    printed = capsys.readouterr().out
    assert [line.split(" | ")[0] for line in printed.splitlines() if line.startswith("| tiny-")] == [
        "| tiny-0", "| tiny-1", "| tiny-2"]
    # Every question of this corpus is answerable in the top 10 whatever the weights.
    assert "cross-validated recall_any@10: 1.000" in printed and "(dev split, current defaults" in printed
    assert printed.rstrip().endswith(": 0")  # re-fusion agrees with the store on every question
