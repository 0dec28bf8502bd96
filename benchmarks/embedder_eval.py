"""Offline embedders side by side on a small French/English set: retrieval, dedup, latency.

The set is written for this benchmark (``FACTS``, ``QUERIES``, ``SAME``, ``DIFFERENT``): the
same user facts in English and in French, one question per fact in its language, and pairs
of sentences that say the same fact (a refinement or a rewording, which dedup must catch)
or two different facts about the same person (which dedup must keep apart).

* **retrieval**: each question is asked of the facts of its language (dense cosine only);
  recall@1 and MRR.
* **dedup**: AUC of the cosine between same-fact and different-fact pairs (the probability
  that a same-fact pair is closer than a different-fact pair: 1.0 separates them with one
  threshold, 0.5 is chance); and the gap between the medians.
* **latency**: median time of one query embedding, systems alternated in one process.

Usage (from the repo root, offline)::

    python benchmarks/embedder_eval.py                    # minilm and e5
    python benchmarks/embedder_eval.py --embedders minilm,e5 --json OUT.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (English, French): the same fact in both languages.
FACTS = [
    ("Alice lives in Lyon with her partner Marc.", "Alice habite à Lyon avec son compagnon Marc."),
    ("Alice is allergic to peanuts.", "Alice est allergique aux cacahuètes."),
    ("Alice works as a nurse at the Édouard Herriot hospital.", "Alice est infirmière à l'hôpital Édouard Herriot."),
    ("Alice broke her shoulder skiing in January.", "Alice s'est cassé l'épaule au ski en janvier."),
    ("Alice's daughter Léa starts school in September.", "Léa, la fille d'Alice, entre à l'école en septembre."),
    ("Alice plays the cello in an amateur orchestra.", "Alice joue du violoncelle dans un orchestre amateur."),
    ("Alice prefers tea to coffee.", "Alice préfère le thé au café."),
    ("Alice is learning Japanese for a trip to Kyoto.", "Alice apprend le japonais pour un voyage à Kyoto."),
    ("Alice's cat is called Pixel.", "Le chat d'Alice s'appelle Pixel."),
    ("Alice runs a half marathon every spring.", "Alice court un semi-marathon chaque printemps."),
    ("Alice drives an old blue Renault.", "Alice conduit une vieille Renault bleue."),
    ("Alice is vegetarian since 2019.", "Alice est végétarienne depuis 2019."),
    ("Alice's birthday is on 14 March.", "L'anniversaire d'Alice est le 14 mars."),
    ("Alice wants to move to the countryside.", "Alice veut déménager à la campagne."),
    ("Alice reads crime novels before sleeping.", "Alice lit des romans policiers avant de dormir."),
    ("Alice's brother Tom lives in Montreal.", "Tom, le frère d'Alice, vit à Montréal."),
]
# (English, French) question for the fact of the same index.
QUERIES = [
    ("Where does Alice live?", "Où habite Alice ?"),
    ("What food must Alice avoid?", "Qu'est-ce qu'Alice ne doit pas manger ?"),
    ("What is Alice's job?", "Quel est le métier d'Alice ?"),
    ("Did Alice have an injury?", "Alice s'est-elle blessée ?"),
    ("Does Alice have children?", "Alice a-t-elle des enfants ?"),
    ("Which instrument does Alice play?", "De quel instrument joue Alice ?"),
    ("What does Alice like to drink?", "Qu'aime boire Alice ?"),
    ("Which language is Alice studying?", "Quelle langue Alice étudie-t-elle ?"),
    ("Does Alice have a pet?", "Alice a-t-elle un animal de compagnie ?"),
    ("What sport does Alice do?", "Quel sport pratique Alice ?"),
    ("What car does Alice have?", "Quelle voiture a Alice ?"),
    ("Does Alice eat meat?", "Alice mange-t-elle de la viande ?"),
    ("When is Alice's birthday?", "Quand est l'anniversaire d'Alice ?"),
    ("What are Alice's plans for the future?", "Quels sont les projets d'Alice ?"),
    ("What does Alice read?", "Que lit Alice ?"),
    ("Does Alice have siblings?", "Alice a-t-elle des frères et sœurs ?"),
]
# Same fact (a refinement or a rewording): dedup should merge these.
SAME = {
    "en": [
        ("Alice broke her shoulder.", "Alice broke her shoulder skiing on 10 January 2026."),
        ("Alice lives in Lyon.", "Alice has been living in Lyon since 2020."),
        ("Alice likes tea.", "Alice prefers tea to coffee."),
        ("Alice has a cat.", "Alice has a cat named Pixel."),
        ("Alice is a nurse.", "Alice works as a nurse in a hospital."),
        ("Alice plays the cello.", "Alice plays cello in an amateur orchestra."),
        ("Alice is vegetarian.", "Alice stopped eating meat in 2019."),
        ("Alice's brother lives in Canada.", "Alice's brother Tom lives in Montreal."),
    ],
    "fr": [
        ("Alice s'est cassé l'épaule.", "Alice s'est cassé l'épaule au ski le 10 janvier 2026."),
        ("Alice habite à Lyon.", "Alice vit à Lyon depuis 2020."),
        ("Alice aime le thé.", "Alice préfère le thé au café."),
        ("Alice a un chat.", "Alice a un chat qui s'appelle Pixel."),
        ("Alice est infirmière.", "Alice travaille comme infirmière à l'hôpital."),
        ("Alice joue du violoncelle.", "Alice joue du violoncelle dans un orchestre amateur."),
        ("Alice est végétarienne.", "Alice ne mange plus de viande depuis 2019."),
        ("Le frère d'Alice vit au Canada.", "Tom, le frère d'Alice, habite à Montréal."),
    ],
}
# Different facts about the same person: dedup must keep both.
DIFFERENT = {
    "en": [
        ("Alice broke her shoulder.", "Alice was sick last week."),
        ("Alice lives in Lyon.", "Alice works in Villeurbanne."),
        ("Alice likes tea.", "Alice likes jazz."),
        ("Alice has a cat.", "Alice has a daughter."),
        ("Alice is a nurse.", "Alice is learning Japanese."),
        ("Alice plays the cello.", "Alice plays tennis."),
        ("Alice is vegetarian.", "Alice is allergic to peanuts."),
        ("Alice's brother lives in Canada.", "Alice's sister lives in Spain."),
    ],
    "fr": [
        ("Alice s'est cassé l'épaule.", "Alice était malade la semaine dernière."),
        ("Alice habite à Lyon.", "Alice travaille à Villeurbanne."),
        ("Alice aime le thé.", "Alice aime le jazz."),
        ("Alice a un chat.", "Alice a une fille."),
        ("Alice est infirmière.", "Alice apprend le japonais."),
        ("Alice joue du violoncelle.", "Alice joue au tennis."),
        ("Alice est végétarienne.", "Alice est allergique aux cacahuètes."),
        ("Le frère d'Alice vit au Canada.", "La sœur d'Alice vit en Espagne."),
    ],
}


def _unit(vectors: Any) -> np.ndarray:
    array = np.asarray(vectors, dtype=np.float32)
    return array / np.linalg.norm(array, axis=-1, keepdims=True)


def retrieval(embeddings: Any, lang: int) -> dict[str, float]:
    """recall@1 and MRR of each question against the facts of its language."""
    docs = _unit(embeddings.embed_documents([f[lang] for f in FACTS]))
    ranks = []
    for i, query in enumerate(QUERIES):
        scores = docs @ _unit(embeddings.embed_query(query[lang]))
        ranks.append(int((scores > scores[i]).sum()) + 1)
    return {"recall@1": sum(r == 1 for r in ranks) / len(ranks), "mrr": sum(1 / r for r in ranks) / len(ranks)}


def _cosines(embeddings: Any, pairs: Sequence[tuple[str, str]]) -> list[float]:
    left = _unit(embeddings.embed_documents([a for a, _ in pairs]))
    right = _unit(embeddings.embed_documents([b for _, b in pairs]))
    return [float(x) for x in (left * right).sum(axis=1)]


def dedup(embeddings: Any, lang: str) -> dict[str, float]:
    """How well one cosine threshold separates same-fact from different-fact pairs."""
    same, different = _cosines(embeddings, SAME[lang]), _cosines(embeddings, DIFFERENT[lang])
    wins = sum((s > d) + 0.5 * (s == d) for s in same for d in different)
    return {"auc": wins / (len(same) * len(different)),
            "same_median": statistics.median(same), "different_median": statistics.median(different)}


def latencies(systems: dict[str, Any], rounds: int = 60) -> dict[str, float]:
    """Median ms of one query embedding per system, the systems alternated each round."""
    texts = [q[r % 2] + f" ({r})" for r, q in enumerate(QUERIES * 4)]
    times: dict[str, list[float]] = {name: [] for name in systems}
    for r in range(rounds):
        for name, emb in systems.items():
            start = time.perf_counter()
            emb.embed_query(texts[r % len(texts)])
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(t) for name, t in times.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedders", default="minilm,e5", help="comma-separated embedder names")
    parser.add_argument("--json", dest="json_out", help="write the figures here")
    args = parser.parse_args(argv)
    from langgraph_memory import named_embeddings

    systems = {}
    for name in args.embedders.split(","):
        start = time.perf_counter()
        systems[name] = named_embeddings(name).inner
        systems[name].embed_query("warm up")
        print(f"{name}: loaded in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    rows = {name: {"retrieval_en": retrieval(emb, 0), "retrieval_fr": retrieval(emb, 1),
                   "dedup_en": dedup(emb, "en"), "dedup_fr": dedup(emb, "fr")} for name, emb in systems.items()}
    for name, ms in latencies(systems).items():
        rows[name]["query_ms"] = ms
    print(f"{'embedder':<10} {'EN R@1':>7} {'EN MRR':>7} {'FR R@1':>7} {'FR MRR':>7} "
          f"{'EN dedup AUC':>13} {'FR dedup AUC':>13} {'query ms':>9}")
    for name, r in rows.items():
        print(f"{name:<10} {r['retrieval_en']['recall@1']:>7.2f} {r['retrieval_en']['mrr']:>7.2f} "
              f"{r['retrieval_fr']['recall@1']:>7.2f} {r['retrieval_fr']['mrr']:>7.2f} "
              f"{r['dedup_en']['auc']:>13.2f} {r['dedup_fr']['auc']:>13.2f} {r['query_ms']:>9.1f}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
