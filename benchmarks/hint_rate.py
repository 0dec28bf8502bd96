"""How often proactive hints fire on ordinary conversation (issue 25: at most one per 20
turns), and how much preference capture stores from it.

Each speaker of each LoCoMo conversation plays a user (their own namespace), turn by turn,
with the clock at the session's date: the capture pipeline (offline rules) runs on their
message and :meth:`MemoryEvents.count_turn` counts their mentions, exactly as the
post-hook's background work does. Two settings for which concepts are known:

* ``captures``: only the subjects of captured memories (what the default path learns
  when the model stores nothing);
* ``tagged``: also a memory per turn tagged with the names and captured objects it
  contains, as injected memories would teach (a model that stores and tags a lot).

    python benchmarks/hint_rate.py                      # LoCoMo dev, all five conversations
    python benchmarks/hint_rate.py --max-turns 100      # bounded per speaker
    python benchmarks/hint_rate.py --spacing 0          # without the per-user spacing

LoCoMo is read at run time from ``../shared/bench/locomo/locomo_dev.json`` (CC BY-NC 4.0,
evaluation only, never copied here).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._locomo_data import DEFAULT_DATA, load  # noqa: E402
from langgraph_memory import MemoryEvents, MemoryStore, offline_embeddings  # noqa: E402
from langgraph_memory.agent.events import is_concept  # noqa: E402
from langgraph_memory.background._timeframe import _entities  # noqa: E402
from langgraph_memory.background.preferences import PreferenceCapture  # noqa: E402


def run(path: Path, *, max_turns: int | None, tagged: bool, embeddings, spacing: int = 20) -> dict[str, float]:
    conversations = load(path)
    turns = hints = captured = 0
    subjects: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore.open(Path(tmp) / "store", embeddings=embeddings)
        try:
            capture = PreferenceCapture(store)
            for conv in conversations:
                for speaker in conv.speakers:
                    namespace = ("memories", f"{conv.sample_id}-{speaker}")
                    now = [0.0]
                    events = MemoryEvents(clock=lambda: now[0], hint_spacing=spacing)
                    mine = [t for t in conv.turns if t.speaker == speaker][:max_turns]
                    for i, turn in enumerate(mine):
                        now[0] = (turn.when + timedelta(minutes=i)).timestamp()
                        result = capture.capture([turn.text], namespace=namespace)
                        known = list(result.stored)
                        captured += len(result.stored)
                        if tagged:
                            tags = [e.lower() for e in _entities(turn.text)] + [
                                o for c in result.captures for o in c.objects]
                            tags = [t for t in dict.fromkeys(tags) if is_concept(t)][:8]
                            if tags:
                                known.append(store.remember(turn.text, namespace=namespace, subjects=tags,
                                                            dedup=False).memory)
                        due = events.count_turn(store, namespace, turn.text, known)
                        hints += len(due)
                        for hint in due:
                            subjects[hint["subject"]] = subjects.get(hint["subject"], 0) + 1
                        turns += 1
        finally:
            store.close()
    return {"turns": turns, "hints": hints, "hints_per_turn": hints / turns if turns else 0.0,
            "turns_per_hint": turns / hints if hints else float("inf"), "captured": captured,
            "captured_per_turn": captured / turns if turns else 0.0,
            "top_subjects": dict(sorted(subjects.items(), key=lambda kv: -kv[1])[:10])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--max-turns", type=int, default=None, help="turns per speaker (default: all)")
    parser.add_argument("--spacing", type=int, default=20, help="hint_spacing (0: only the per-concept rules)")
    args = parser.parse_args()
    embeddings = offline_embeddings()
    for setting in ("captures", "tagged"):
        started = time.perf_counter()
        figures = run(args.data, max_turns=args.max_turns, tagged=setting == "tagged", embeddings=embeddings,
                      spacing=args.spacing)
        figures["seconds"] = round(time.perf_counter() - started, 1)
        print(setting, json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()},
                                  ensure_ascii=False))


if __name__ == "__main__":
    main()
