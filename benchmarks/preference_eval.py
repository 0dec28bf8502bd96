"""Preference capture on the labelled messages in ``tests/data/``: the lexical filter's
recall on positives and the share of messages it lets through, and the offline
classifier's precision and recall (a positive is preference, intent or constraint).

    python benchmarks/preference_eval.py            # main set and held-out set

The main set (130 messages) was written before the classifier and its rules were tuned on
it; the held-out set (30) was written after and never used for tuning.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langgraph_memory.background._lexicon import passes_filter
from langgraph_memory.background.preferences import normalise, rule_classifier

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = {"main": DATA / "preference_messages.jsonl", "held_out": DATA / "preference_messages_holdout.jsonl"}


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(rows: list[dict[str, Any]]) -> dict[str, float]:
    now = datetime(2026, 11, 23, tzinfo=timezone.utc)
    positives = [r for r in rows if r["label"] != "neutral"]
    passed = [passes_filter(r["text"]) for r in rows]
    tp = fp = fn = typed = 0
    for row, through in zip(rows, passed):
        capture = normalise(rule_classifier(row["text"], now), row["text"]) if through else None
        gold = row["label"] != "neutral"
        tp += gold and capture is not None
        fp += (not gold) and capture is not None
        fn += gold and capture is None
        typed += gold and capture is not None and capture.type == row["label"]
    return {
        "messages": len(rows), "positives": len(positives),
        "filter_recall": sum(passes_filter(r["text"]) for r in positives) / len(positives),
        "filter_pass_share": sum(passed) / len(rows),
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        "type_accuracy": typed / tp if tp else 0.0,
    }


if __name__ == "__main__":
    for name, path in SETS.items():
        print(name, json.dumps({k: round(v, 3) for k, v in evaluate(load(path)).items()}))
