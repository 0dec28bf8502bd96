"""Retrieval features of the hybrid search: weighted fusion, subjects and aliases, the
context a memory came with, times named in the query, and the pre-hook's floors."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory.store.backends import Hit, StoredPoint
from langgraph_memory.store._fusion import index_text, query_terms, time_windows, weighted_fusion
from langgraph_memory.store._transfer import export_jsonl, import_jsonl
from langgraph_memory.errors import InvalidMemoryError

NS = ("memories", "mickael")
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def hit(point_id: str, score: float) -> Hit:
    return Hit(StoredPoint(point_id, {"content": point_id}), score)


def test_weighted_fusion_keeps_how_far_apart_scores_are():
    dense = [hit("a", 0.9), hit("b", 0.45)]
    sparse = [hit("b", 10.0), hit("c", 2.0)]
    fused = {f.hit.point.id: f for f in weighted_fusion(dense, sparse, dense_weight=0.4, sparse_weight=0.6)}
    # Each signal divided by its best: a = 0.4*1, b = 0.4*0.5 + 0.6*1, c = 0.6*0.2.
    assert fused["a"].score == pytest.approx(0.4)
    assert fused["b"].score == pytest.approx(0.8)
    assert fused["c"].score == pytest.approx(0.12)
    assert (fused["b"].dense_score, fused["b"].sparse_score) == (0.45, 10.0)
    assert fused["c"].dense_score is None
    boosted = weighted_fusion(dense, sparse, dense_weight=0.4, sparse_weight=0.6,
                              boost=lambda h: 4.0 if h.point.id == "c" else 1.0, max_boost=4.0)
    # c: 0.12 x 4 = 0.48 overtakes a (0.4), not b (0.8); all divided by the largest boost.
    assert [f.hit.point.id for f in boosted] == ["b", "c", "a"]
    assert [f.score for f in boosted] == pytest.approx([0.2, 0.12, 0.1])


def test_query_terms_and_index_text():
    assert set(query_terms("Where is New York, Mickael?")) >= {"new york", "mickael", "where"}
    assert index_text("likes ski", subjects=("mickael", "ski")) == "mickael, ski: likes ski"
    assert index_text("Bright orange!", context="What colour?") == "What colour?\nBright orange!"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What happened in May 2023?", [("2023-05-01", "2023-06-01")]),
        ("the week before August 3, 2023", [("2023-07-27", "2023-08-11")]),
        ("on 25 février 2022", [("2022-02-18", "2022-03-05")]),
        ("What did we talk about yesterday?", [("2026-11-20", "2026-11-22")]),
        ("qu'a-t-on fait la semaine dernière ?", [("2026-11-08", "2026-11-22")]),
        ("I may go skiing", []),
        ("When did Caroline go to the group?", []),
    ],
)
def test_time_windows(text, expected):
    got = [(a.date().isoformat(), b.date().isoformat()) for a, b in time_windows(text, now=NOW)]
    assert got == expected


def test_a_month_without_year_looks_in_past_years():
    windows = time_windows("What did I buy in December?", now=NOW)
    assert [a.year for a, _ in windows] == [2026, 2025, 2024, 2023, 2022]
    assert all(a.month == 12 and a.day == 1 for a, _ in windows)


def test_a_subject_the_query_names_finds_memories_that_do_not_say_it(store):
    store.remember_many(
        [
            {"content": "Broke his shoulder skiing last winter", "subjects": ["mickael", "injury"]},
            {"content": "Alice broke her arm falling off a horse", "subjects": ["alice", "injury"]},
            {"content": "Bob hurt his knee playing football", "subjects": ["bob", "injury"]},
        ],
        namespace=NS, dedup=False,
    )
    hits = store.search("What happened to Mickael?", namespace=NS, limit=3)
    assert hits[0].memory.subjects == ("mickael", "injury")
    assert hits[0].matched == ("subject:mickael",)
    assert all(h.matched == () for h in hits[1:])
    # The subject is a filter and a boost, not indexed text: BM25 alone does not see it.
    assert store.search("Mickael", namespace=NS, mode="bm25") == []


def test_an_alias_stored_as_an_identity_memory_is_searched_too(store):
    """Seed 000: "dev" is Mickael; asking about dev must reach what is known of Mickael."""
    store.remember_many(
        [
            {"content": "Is going on holiday to Greece in June", "subjects": ["mickael", "travel"]},
            {"content": "Alice is going on holiday to Spain", "subjects": ["alice", "travel"]},
            {"content": "Bob is going on holiday to Italy", "subjects": ["bob", "travel"]},
        ],
        namespace=NS, dedup=False,
    )
    before = store.search("What is dev up to?", namespace=NS, limit=3)
    assert all("subject:mickael" not in h.matched for h in before)
    store.remember("The user called dev is really named Mickael", namespace=NS,
                   memory_type="identity", subjects=["dev", "mickael"])
    after = store.search("What is dev up to?", namespace=NS, limit=4)
    greece = next(h for h in after if "Greece" in h.memory.content)
    assert "subject:mickael" in greece.matched
    assert after.index(greece) <= 1  # only the alias memory itself may come first
    assert all("Spain" not in h.memory.content and "Italy" not in h.memory.content for h in after[:2])


# Same length, one word in common with "tea": one BM25 score for all ten.
TEAS = [f"Alice drinks tea with {w}" for w in (
    "lemon", "honey", "milk", "sugar", "mint", "ginger", "cinnamon", "cardamom", "vanilla", "jasmine")]


def test_equal_bm25_scores_come_in_id_order_whatever_the_insertion_order(make_store, tmp_path):
    first = make_store(tmp_path / "first")
    first.remember_many(["Alice drinks tea", *TEAS, "Bob sails on Sundays"], namespace=NS, dedup=False)
    # The same memories (same ids) in a second store, written one at a time, last id first.
    export = tmp_path / "export.jsonl"
    with export.open("w") as out:
        export_jsonl(first, out)
    header, *records = export.read_text().splitlines()
    export.write_text("\n".join([header, *reversed(records)]) + "\n")
    second = make_store(tmp_path / "second")
    import_jsonl(second, export, batch=1)

    top, *tied = first.search("tea", namespace=NS, mode="bm25", limit=20)
    assert top.memory.content == "Alice drinks tea" and len(tied) == len(TEAS)
    assert len({h.score for h in tied}) == 1  # one tie group, which every limit below cuts
    tied_ids = sorted(h.memory.id for h in tied)
    for store in (first, second):
        for limit in (2, 4, 7, 11):
            found = store.search("tea", namespace=NS, mode="bm25", limit=limit)
            assert [h.memory.id for h in found] == [top.memory.id, *tied_ids[: limit - 1]]


def test_the_same_text_stored_twice_comes_in_id_order_in_every_mode(store, backend):
    ids = sorted(r.memory.id for r in store.remember_many(["Alice drinks tea"] * 6, namespace=NS, dedup=False))
    # qdrant-client's local mode computes cosines with numpy, whose last bit depends on a
    # vector's row: equal vectors do not score equal there, and no tie is left to break.
    for mode in ("bm25", "dense", "hybrid") if backend == "edge" else ("bm25",):
        found = store.search("Alice drinks tea", namespace=NS, mode=mode, limit=4)
        assert len({h.score for h in found}) == 1, mode
        assert [h.memory.id for h in found] == ids[:4], mode


def test_context_is_indexed_for_bm25_but_never_returned(store):
    result = store.remember("Bright orange!", namespace=NS, context="Bob: What colour is your new kayak?")
    store.remember_many(
        [{"content": "Sure, why not", "context": "Bob: Shall we go sailing?"}, "My car is blue"],
        namespace=NS, dedup=False,
    )
    [found] = store.search("kayak colour", namespace=NS, mode="bm25")
    assert found.memory.id == result.memory.id and found.memory.content == "Bright orange!"
    assert store.search("sailing", namespace=NS, mode="bm25")[0].memory.content == "Sure, why not"
    assert "kayak" not in str(store.get(result.memory.id, namespace=NS))
    # The dense vector is the content's alone, so dedup still compares contents.
    [dense] = store.search("Bright orange!", namespace=NS, mode="dense", limit=1)
    assert dense.memory.id == result.memory.id and dense.score == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(InvalidMemoryError, match="context"):
        store.remember("Green", namespace=NS, context=42)  # type: ignore[arg-type]
    with pytest.raises(InvalidMemoryError, match=r"items\[1\]\.context"):
        store.remember_many(["Red", {"content": "Blue", "context": ["x"]}], namespace=NS)
    assert store.count(namespace=NS) == 3


def test_a_time_the_query_names_ranks_memories_from_then_first(store):
    store.remember_many(
        [
            {"content": "Went to a rock concert with friends", "created_at": datetime(2023, 8, 12)},
            {"content": "Went to a jazz concert with friends", "created_at": datetime(2023, 5, 8)},
            {"content": "Went to a folk concert with friends", "created_at": datetime(2022, 5, 20)},
        ],
        namespace=NS, dedup=False,
    )
    hits = store.search("Which concert did I go to in May 2023?", namespace=NS, limit=3)
    assert "jazz" in hits[0].memory.content and hits[0].matched == ("time",)
    assert [h.matched for h in hits[1:]] == [(), ()]
    store.remember("Went to a blues concert with friends", namespace=NS, dedup=False)
    recent = store.search("Which concert did I go to yesterday?", namespace=NS, limit=4)
    assert "blues" in recent[0].memory.content and recent[0].matched == ("time",)


def test_prehook_floors_drop_nonsense_but_keep_what_the_message_names(store):
    from langgraph_memory.agent.injection import select_memories

    store.remember_many(
        [
            {"content": "Broke his shoulder skiing last winter", "subjects": ["mickael"]},
            {"content": "Likes strong black coffee in the morning"},
            {"content": "Plays the cello in an amateur orchestra"},
        ],
        namespace=NS, dedup=False, created_at=datetime(2025, 1, 10),  # not in the recent channel
    )
    assert select_memories(store, namespace=NS, query="qwertyuiop zxcvbnm").chosen == []
    chosen = select_memories(store, namespace=NS, query="Mickael?").chosen
    assert [c.memory.subjects for c in chosen if c.channel == "similar"][0] == ("mickael",)


@pytest.mark.parametrize("message", ["ok", "lorem ipsum dolor sit amet", "hmm", "zzzzzz"])
def test_a_message_sharing_a_word_but_no_meaning_injects_nothing(store, message):
    from langgraph_memory.agent.injection import select_memories

    store.remember_many(
        [
            {"content": "Said the knee surgery went ok and recovery is slow"},
            {"content": "Asked the kids to sit still during the concert"},
            {"content": "Ha ha, yeah, just doing it!"},
        ],
        namespace=NS, dedup=False, created_at=datetime(2025, 1, 10),
    )
    assert select_memories(store, namespace=NS, query=message).chosen == []
    related = select_memories(store, namespace=NS, query="How is the knee recovering after surgery?").chosen
    assert [c.memory.content for c in related][:1] == ["Said the knee surgery went ok and recovery is slow"]


def test_the_same_words_on_another_day_are_another_event(store):
    from langgraph_memory.agent.injection import InjectionConfig, select_memories

    for day, where in ((datetime(2025, 5, 3), ""), (datetime(2025, 7, 12), " downtown")):
        # Cosines 0.87-0.92 between the two days' memories (MiniLM): close, yet below
        # PARAPHRASE_COSINE (0.95), so another event rather than the same words again.
        store.remember_many(
            [{"content": f"Went to the LGBTQ support group meeting{where}"},
             {"content": f"Went to the LGBTQ support group meeting{where} tonight"}],
            namespace=NS, dedup=False, created_at=day,
        )
    query = "When did she go to the support group?"
    chosen = select_memories(store, namespace=NS, query=query).chosen
    # One per day: the near-repeat of the same day is dropped, the other day's is kept.
    assert sorted(c.memory.created_at.date().isoformat() for c in chosen) == ["2025-05-03", "2025-07-12"]
    across = select_memories(store, namespace=NS, query=query, config=InjectionConfig(semantic_same_day_only=False))
    assert len(across.chosen) == 1 and across.dropped["similar"] == 3
