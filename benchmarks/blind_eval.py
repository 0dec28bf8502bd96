"""Issue 25's held-out measurements: dedup and capture on sets nobody tunes on.

    HF_HUB_OFFLINE=1 python benchmarks/blind_eval.py [--round 1|2|3] [--part dedup|capture|sequences|agents] [-v]

Three rounds of sets, each written by a helper that wrote no policy code (see
``docs/judgement-blind-sets.md``):

- round 3 (blind, dedup pairs only: ``--round 3 --part dedup``): ``tests/dedup_blind3_pairs.py``;
  it has no capture messages or sequences, so parts (b), (c) and (d) say so and measure nothing;
- round 2 (the default, blind): ``tests/dedup_blind2_pairs.py``,
  ``tests/data/preference_messages_blind2.jsonl``, ``tests/data/capture_sequences_blind2.jsonl``;
- round 1 (declassified: the policy helpers tune on it from round 2 on, its figures are history):
  ``tests/dedup_blind_pairs.py``, ``tests/data/preference_messages_blind.jsonl``,
  ``tests/data/capture_sequences_blind.jsonl``.

Every round prints the same parts in the same form. Read the figures, never the misses: ``-v``
lists the failing items, and a pair or message that informed a fix is no longer blind (move it to
a tuning set and say so).

What it prints, and the functions it calls (kept to public or clearly named ones, so the script
survives changes to the policies behind them):

(a) dedup -- ``DedupPolicy.for_embedder("all-MiniLM-L6-v2").decide(new, old, cosine)`` on MiniLM
    cosines from ``benchmarks.dedup_pairs.pair_cosines``, tabled by ``benchmarks.dedup_pairs.report``
    (merges found / false merges / exact per label), overall, per language and conversational vs
    written; then the store path: ``MemoryStore.remember(old)`` then ``remember(new)`` in a fresh
    namespace of a real Qdrant Edge store with ``offline_embeddings()``, a merge being any action
    other than ``inserted``.
(b) capture -- ``benchmarks.preference_eval.load`` / ``evaluate`` (filter recall, precision,
    recall, type accuracy) overall and per language; then, per message,
    ``PreferenceCapture(store).classify([text], now)`` (``.captures[i].type`` and ``.timeframe``) for
    precision / recall per type and per language x type, and the date accuracy on intents that
    carry a ``when``. ``now`` is 2026-11-23 (a Monday), as in ``preference_eval``.
(c) sequences -- ``PreferenceCapture(store).capture([first], namespace=ns, now=now)`` then the
    same for ``second`` (two turns) on a real Qdrant Edge store with ``offline_embeddings()``, then
    the live memories of ``ns`` (``MemoryStore.iter_points(namespace=ns, include_superseded=False)``)
    whose ``metadata["capture"]`` is set. Right: ``both`` -> two live captures, one per message;
    ``replace`` -> exactly one live capture, the second message's (the end state is judged: a
    replace whose first message was never captured still ends right). Also printed: how many
    turns produced a capture (``CaptureResult.captures``).
(d) agents -- the same sequences as two user turns of a real agent on each face, every memory
    option at its default: ``create_agent(model, middleware=[MemoryMiddleware(store)])``,
    ``build_memory_graph(model, store)`` and ``create_react_agent(model, **react_agent_hooks(store))``,
    with ``langgraph_memory.testing.ScriptedChatModel`` answering "Noted." (no tool call, so only
    capture writes memories); then ``MemoryStore.flush`` and the same count as (c). This is the
    issue's "capture on every path, on by default".

Date scoring: ``when`` is an ISO date or an ISO interval ``start/end`` (``..`` open). A captured
timeframe (an ISO date, or an interval) is right when it lies inside ``when``; ``ongoing``, a
missed message or an unparsable value is wrong. Seasons are given wide enough for both the
meteorological and the astronomical convention; "before X" runs from today to X.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks.dedup_pairs import pair_cosines, report  # noqa: E402
from benchmarks.preference_eval import evaluate, load  # noqa: E402
from tests import dedup_blind2_pairs, dedup_blind3_pairs, dedup_blind_pairs  # noqa: E402
from tests.dedup_blind_pairs import BlindPair  # noqa: E402

DATA = ROOT / "tests" / "data"


@dataclass(frozen=True)
class BlindRound:
    """One round of held-out sets: dedup pairs, capture messages, capture sequences (None: the
    round has no such set)."""

    number: int
    pairs: list[BlindPair]
    messages: Path | None
    sequences: Path | None


ROUNDS = {
    1: BlindRound(1, dedup_blind_pairs.PAIRS, DATA / "preference_messages_blind.jsonl",
                  DATA / "capture_sequences_blind.jsonl"),
    2: BlindRound(2, dedup_blind2_pairs.PAIRS, DATA / "preference_messages_blind2.jsonl",
                  DATA / "capture_sequences_blind2.jsonl"),
    3: BlindRound(3, dedup_blind3_pairs.PAIRS, None, None),
}
NOW = datetime(2026, 11, 23, tzinfo=timezone.utc)
TYPES = ("preference", "intent", "constraint")


# ----------------------------------------------------------------------------------- helpers

def open_store(directory: str) -> Any:
    """A real store on Qdrant Edge in ``directory`` with the packaged offline MiniLM."""
    from langgraph_memory import MemoryStore, offline_embeddings

    return MemoryStore.open(Path(directory) / "store", embeddings=offline_embeddings())


def without_set(blind: BlindRound, part: str, path: Path | None, what: str) -> bool:
    """True (after saying so) when ``blind`` has no ``what`` set for ``part``: nothing to measure."""
    if path is None:
        print(f"{part}: round {blind.number} has no {what} (dedup pairs only); nothing measured")
    return path is None


def merges_line(name: str, pairs: list[BlindPair], decisions: list[str]) -> str:
    merge = [i for i, p in enumerate(pairs) if p.expected != "different"]
    other = [i for i, p in enumerate(pairs) if p.expected == "different"]
    found = sum(decisions[i] != "different" for i in merge)
    false = sum(decisions[i] != "different" for i in other)
    exact = sum(decisions[i] == p.expected for i, p in enumerate(pairs))
    share = f"{found / len(merge):.0%}" if merge else "-"
    return (f"  {name:<16} {len(pairs):>3} pairs  merges {found:>2}/{len(merge):<2} ({share:>4})  "
            f"false merges {false}/{len(other)}  exact {exact / len(pairs):.0%}")


SUBSETS = {
    "all": lambda p: True,
    "en": lambda p: p.lang == "en",
    "fr": lambda p: p.lang == "fr",
    "conversational": lambda p: p.conversational,
    "written": lambda p: not p.conversational,
    "en conversational": lambda p: p.lang == "en" and p.conversational,
    "fr conversational": lambda p: p.lang == "fr" and p.conversational,
}


def subset_lines(pairs: list[BlindPair], decisions: list[str]) -> list[str]:
    lines = []
    for name, keep in SUBSETS.items():
        idx = [i for i, p in enumerate(pairs) if keep(p)]
        lines.append(merges_line(name, [pairs[i] for i in idx], [decisions[i] for i in idx]))
    return lines


# ----------------------------------------------------------------------------------- (a) dedup

def dedup_part(blind: BlindRound, verbose: bool) -> None:
    from langgraph_memory.store._dedup import DedupPolicy

    pairs = blind.pairs
    policy = DedupPolicy.for_embedder("all-MiniLM-L6-v2")
    cosines = pair_cosines(pairs)
    verdicts = [policy.decide(p.new, p.old, c) for p, c in zip(pairs, cosines)]
    decisions = [v.decision for v in verdicts]
    print(f"(a) dedup policy on {len(pairs)} round-{blind.number} blind pairs (DedupPolicy.decide, all-MiniLM-L6-v2 cosines)")
    print(report(pairs, cosines, decisions))
    print("\n".join(subset_lines(pairs, decisions)))
    if verbose:
        for p, c, v in zip(pairs, cosines, verdicts):
            if v.decision != p.expected:
                print(f"    [{p.lang} {p.kind}] {p.expected} -> {v.decision} ({c:.2f}): {p.old!r} / {p.new!r}: {v.reason}")

    with tempfile.TemporaryDirectory() as directory:
        store = open_store(directory)
        try:
            actions = []
            for i, pair in enumerate(pairs):
                ns = ("memories", f"blind-dedup-{i}")
                store.remember(pair.old, namespace=ns)
                actions.append(store.remember(pair.new, namespace=ns))
        finally:
            store.close()
    store_decisions = [
        "different" if r.action == "inserted" else (r.verdict.decision if r.verdict else r.action) for r in actions
    ]
    print("\n(a') the same pairs through MemoryStore.remember (old, then new) on Qdrant Edge, offline MiniLM")
    print("\n".join(subset_lines(pairs, store_decisions)))
    if verbose:
        for p, r in zip(pairs, actions):
            merged = r.action != "inserted"
            if merged != (p.expected != "different"):
                why = r.verdict.reason if r.verdict else "no candidate"
                print(f"    [{p.lang} {p.kind}] {p.expected} -> {r.action}: {p.old!r} / {p.new!r}: {why}")


# ----------------------------------------------------------------------------------- (b) capture

def parse_span(value: str) -> tuple[date, date] | None:
    """An ISO date or interval as (start, end); ``..`` is open. None when unparsable."""
    try:
        start, _, end = value.strip().partition("/")
        end = end or start
        lo = date.min if start == ".." else date.fromisoformat(start[:10])
        hi = date.max if end == ".." else date.fromisoformat(end[:10])
    except (ValueError, AttributeError):
        return None
    return (lo, hi) if lo <= hi else None


def date_right(captured: Any, expected: str) -> bool:
    got, want = parse_span(str(captured)), parse_span(expected)
    return got is not None and want is not None and want[0] <= got[0] and got[1] <= want[1]


def ratio(num: int, den: int) -> str:
    return f"{num}/{den} ({num / den:.2f})" if den else "-"


def capture_part(blind: BlindRound, verbose: bool) -> None:
    if without_set(blind, "(b) capture", blind.messages, "capture messages"):
        return
    from langgraph_memory import PreferenceCapture

    rows = load(blind.messages)
    print(f"(b) capture on {len(rows)} round-{blind.number} blind messages (benchmarks.preference_eval.evaluate)")
    for name in ("all", "en", "fr"):
        subset = [r for r in rows if name == "all" or r["lang"] == name]
        print(f"  {name:<4}", json.dumps({k: round(v, 3) for k, v in evaluate(subset).items()}))

    with tempfile.TemporaryDirectory() as directory:
        store = open_store(directory)
        try:
            capture = PreferenceCapture(store)
            found = []
            for row in rows:
                captures = capture.classify([row["text"]], now=NOW).captures
                found.append(captures[0] if captures else None)
        finally:
            store.close()

    print("  per type (PreferenceCapture.classify): gold, recall (captured at all), typed recall, precision")
    for kind in TYPES:
        gold = [i for i, r in enumerate(rows) if r["label"] == kind]
        predicted = [i for i, c in enumerate(found) if c is not None and c.type == kind]
        print(f"    {kind:<11} n={len(gold):<3} recall {ratio(sum(found[i] is not None for i in gold), len(gold)):<14} "
              f"typed {ratio(sum(found[i] is not None and found[i].type == kind for i in gold), len(gold)):<14} "
              f"precision {ratio(sum(rows[i]['label'] == kind for i in predicted), len(predicted))}")
    neutral = [i for i, r in enumerate(rows) if r["label"] == "neutral"]
    print(f"    {'neutral':<11} n={len(neutral):<3} captured by mistake {sum(found[i] is not None for i in neutral)}")
    print("  recall per language x type (captured at all)")
    for lang in ("en", "fr"):
        cells = []
        for kind in TYPES:
            gold = [i for i, r in enumerate(rows) if r["label"] == kind and r["lang"] == lang]
            cells.append(f"{kind} {ratio(sum(found[i] is not None for i in gold), len(gold))}")
        print(f"    {lang}: " + ", ".join(cells))

    dated = [i for i, r in enumerate(rows) if r.get("when")]
    right = [i for i in dated if found[i] is not None and date_right(found[i].timeframe, rows[i]["when"])]
    captured = [i for i in dated if found[i] is not None]
    by_lang = ", ".join(
        f"{lang} {ratio(sum(i in right for i in dated if rows[i]['lang'] == lang), sum(rows[i]['lang'] == lang for i in dated))}"
        for lang in ("en", "fr"))
    print(f"  dates: intents with a 'when': {len(dated)}, captured {len(captured)}, date right {ratio(len(right), len(dated))} "
          f"({by_lang}); among captured {ratio(len(right), len(captured))}")
    if verbose:
        for i, (row, cap) in enumerate(zip(rows, found)):
            wrong_label = (cap is None) != (row["label"] == "neutral") or (cap is not None and cap.type != row["label"])
            wrong_date = i in dated and i not in right
            if wrong_label or wrong_date:
                got = "none" if cap is None else f"{cap.type} {cap.timeframe}"
                print(f"    [{row['lang']}] {row['label']} {row.get('when', '')} -> {got}: {row['text']!r}")


# ----------------------------------------------------------------------------------- (c) sequences

def live_captures(store: Any, namespace: tuple[str, ...]) -> list[dict[str, Any]]:
    points = store.iter_points(namespace=namespace, include_superseded=False)
    return [p.payload for p in points if ((p.payload.get("metadata") or {}).get("capture"))]


def says(payload: dict[str, Any], text: str) -> bool:
    said = str(payload["metadata"]["capture"].get("text") or payload.get("content") or "")
    return text.strip() in said or text.strip() in str(payload.get("content") or "")


def sequence_right(row: dict[str, Any], live: list[dict[str, Any]]) -> bool:
    if row["label"] == "both":
        return len(live) == 2 and any(says(p, row["first"]) for p in live) and any(says(p, row["second"]) for p in live)
    return len(live) == 1 and says(live[0], row["second"])


def print_sequence_misses(tag: str, rows: list[dict[str, Any]], outcomes: list[list[dict[str, Any]]]) -> None:
    for row, live in zip(rows, outcomes):
        if not sequence_right(row, live):
            print(f"    [{tag}{row['lang']}] {row['label']} -> {len(live)} live: {row['first']!r} / {row['second']!r}")


def sequences_part(blind: BlindRound, verbose: bool) -> None:
    if without_set(blind, "(c) sequences", blind.sequences, "capture sequences"):
        return
    from langgraph_memory import PreferenceCapture

    rows = load(blind.sequences)
    outcomes, turns_captured = [], []
    with tempfile.TemporaryDirectory() as directory:
        store = open_store(directory)
        try:
            capture = PreferenceCapture(store)
            for i, row in enumerate(rows):
                ns = ("memories", f"blind-seq-{i}")
                for text in (row["first"], row["second"]):
                    result = capture.capture([text], namespace=ns, now=NOW)
                    turns_captured.append(bool(getattr(result, "captures", None)))
                outcomes.append(live_captures(store, ns))
        finally:
            store.close()

    print(f"(c) capture sequences: {len(rows)} round-{blind.number} two-turn pairs through PreferenceCapture.capture on Qdrant Edge")
    for label in ("both", "replace", "all"):
        for lang in ("en", "fr", "all"):
            idx = [i for i, r in enumerate(rows) if label in ("all", r["label"]) and lang in ("all", r["lang"])]
            counts = Counter(len(outcomes[i]) for i in idx)
            print(f"  {label:<7} {lang:<3} right {ratio(sum(sequence_right(rows[i], outcomes[i]) for i in idx), len(idx)):<14} "
                  f"live captures per pair {dict(sorted(counts.items()))}")
    print(f"  turns with a capture: {ratio(sum(turns_captured), len(turns_captured))} "
          f"(a turn the classifier missed cannot end right, except a replace's first)")
    if verbose:
        print_sequence_misses("", rows, outcomes)


def build_agent(path: str, store: Any, model: Any) -> Any:
    """One of the three agent faces, every memory option left at its default."""
    from langgraph.checkpoint.memory import InMemorySaver

    from langgraph_memory import MemoryMiddleware, build_memory_graph, react_agent_hooks

    if path == "graph":
        return build_memory_graph(model, store, checkpointer=InMemorySaver())
    if path == "middleware":
        from langchain.agents import create_agent

        return create_agent(model, tools=[], middleware=[MemoryMiddleware(store)], checkpointer=InMemorySaver())
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_react_agent is deprecated, still used
        from langgraph.prebuilt import create_react_agent

        return create_react_agent(model, checkpointer=InMemorySaver(), **react_agent_hooks(store))


def agents_part(blind: BlindRound, verbose: bool) -> None:
    if without_set(blind, "(d) agents", blind.sequences, "capture sequences"):
        return
    from langchain_core.messages import AIMessage, HumanMessage

    from langgraph_memory.testing import ScriptedChatModel

    rows = load(blind.sequences)
    print(f"(d) the {len(rows)} round-{blind.number} sequences as two user turns of a real agent, memory options at their defaults, "
          "a scripted model that only answers 'Noted.'")
    with tempfile.TemporaryDirectory() as directory:
        store = open_store(directory)
        try:
            for path in ("middleware", "graph", "react"):
                model = ScriptedChatModel(responses=[AIMessage("Noted.") for _ in range(2 * len(rows))])
                agent = build_agent(path, store, model)
                outcomes = []
                for i, row in enumerate(rows):
                    user = f"blind-{path}-{i}"
                    cfg = {"configurable": {"thread_id": f"t-{user}", "user_id": user}}
                    for text in (row["first"], row["second"]):
                        agent.invoke({"messages": [HumanMessage(text)]}, cfg)
                    store.flush(timeout=60)
                    outcomes.append(live_captures(store, ("memories", user)))
                cells = []
                for label in ("both", "replace"):
                    idx = [i for i, r in enumerate(rows) if r["label"] == label]
                    cells.append(f"{label} {ratio(sum(sequence_right(rows[i], outcomes[i]) for i in idx), len(idx))}")
                total = sum(sequence_right(r, o) for r, o in zip(rows, outcomes))
                print(f"  {path:<10} right {ratio(total, len(rows)):<14} ({', '.join(cells)}); "
                      f"live captures per pair {dict(sorted(Counter(len(o) for o in outcomes).items()))}")
                if verbose:
                    print_sequence_misses(f"{path} ", rows, outcomes)
        finally:
            store.close()


PARTS = {"dedup": dedup_part, "capture": capture_part, "sequences": sequences_part, "agents": agents_part}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=2,
                        help="which sets: 2 (default, blind), 3 (blind, dedup pairs only) or 1 (declassified, "
                             "tuned on from round 2 on)")
    parser.add_argument("--part", choices=sorted(PARTS), action="append", help="run only this part (repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the failing items (reading them unblinds them)")
    args = parser.parse_args()
    for name in args.part or list(PARTS):
        PARTS[name](ROUNDS[args.round], args.verbose)
        print()


if __name__ == "__main__":
    main()
