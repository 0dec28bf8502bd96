"""Preference capture on the labelled messages in ``tests/data/``: the lexical filter's
recall on positives and the share of messages it lets through, and the offline
classifier's precision and recall (a positive is preference, intent or constraint),
overall, per language and per type.

    python benchmarks/preference_eval.py            # every set, with the breakdown
    python benchmarks/preference_eval.py --json     # the same, one JSON document

The sets: ``main`` (130 messages, written before the classifier's rules and tuned on),
``kinds`` (74 messages written for issue 25 to tune the kinds of phrasing the rules
missed (negated habits, avoidance verbs, restriction adverbs, limits with numbers, negated
tastes, dated intents) and conversation rituals that are not statements ("I'll let you know",
"no worries"); also tuned on) and ``held_out`` (30, written after the first round
and never used for tuning). Only ``held_out`` measures generalisation.
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
from langgraph_memory.background.preferences import Capture, normalise, rule_classifier

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = {
    "main": DATA / "preference_messages.jsonl",
    "kinds": DATA / "preference_messages_kinds.jsonl",
    "held_out": DATA / "preference_messages_holdout.jsonl",
}
TUNING = ("main", "kinds")
NOW = datetime(2026, 11, 23, tzinfo=timezone.utc)


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def classify(row: dict[str, Any]) -> Capture | None:
    """What the offline pipeline (filter, then rules) captures from one labelled message."""
    if not passes_filter(row["text"]):
        return None
    return normalise(rule_classifier(row["text"], NOW), row["text"])


def evaluate(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The headline figures of one set (flat: every value a number)."""
    positives = [r for r in rows if r["label"] != "neutral"]
    passed = [passes_filter(r["text"]) for r in rows]
    tp = fp = fn = typed = 0
    for row in rows:
        capture = classify(row)
        gold = row["label"] != "neutral"
        tp += gold and capture is not None
        fp += (not gold) and capture is not None
        fn += gold and capture is None
        typed += gold and capture is not None and capture.type == row["label"]
    return {
        "messages": len(rows), "positives": len(positives),
        "filter_recall": sum(passes_filter(r["text"]) for r in positives) / len(positives) if positives else 0.0,
        "filter_pass_share": sum(passed) / len(rows) if rows else 0.0,
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        "type_accuracy": typed / tp if tp else 0.0,
    }


def breakdown(rows: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """Per language (``lang``) and per type: for a language, :func:`evaluate`'s precision
    and recall on its messages; for a type, recall (captured at all), typed recall
    (captured with that type) and precision (of the captures given that type)."""
    by_lang = {lang: evaluate([r for r in rows if r.get("lang") == lang])
               for lang in sorted({r.get("lang", "?") for r in rows})}
    predicted = [(row, classify(row)) for row in rows]
    by_type = {}
    for kind in ("preference", "intent", "constraint"):
        gold = [(r, c) for r, c in predicted if r["label"] == kind]
        given = [(r, c) for r, c in predicted if c is not None and c.type == kind]
        by_type[kind] = {
            "positives": len(gold),
            "recall": sum(c is not None for _, c in gold) / len(gold) if gold else 0.0,
            "typed_recall": sum(c is not None and c.type == kind for _, c in gold) / len(gold) if gold else 0.0,
            "precision": sum(r["label"] == kind for r, _ in given) / len(given) if given else 0.0,
        }
    return {"lang": {k: {m: v[m] for m in ("messages", "positives", "precision", "recall")} for k, v in by_lang.items()},
            "type": by_type}


def report() -> dict[str, Any]:
    """Every set's figures and breakdown."""
    out = {}
    for name, path in SETS.items():
        rows = load(path)
        out[name] = {**evaluate(rows), **breakdown(rows), "tuned_on": name in TUNING}
    return out


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    return value


if __name__ == "__main__":
    figures = _round(report())
    if "--json" in sys.argv:
        print(json.dumps(figures, indent=1))
    else:
        for name, data in figures.items():
            flat = {k: v for k, v in data.items() if not isinstance(v, dict)}
            print(name, json.dumps(flat))
            for lang, figs in data["lang"].items():
                print(f"  lang {lang}: {json.dumps(figs)}")
            for kind, figs in data["type"].items():
                print(f"  type {kind}: {json.dumps(figs)}")
