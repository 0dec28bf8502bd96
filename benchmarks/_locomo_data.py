"""Reading LoCoMo files and scoring evidence recall, shared by the benchmarks.

LoCoMo (Maharana et al., 2024; CC BY-NC 4.0) is read from outside the repository, by
default ``../shared/bench/locomo/locomo_dev.json`` relative to the repo root; nothing of
it is copied here. A file is a list of conversations, each with ``conversation``
(``speaker_a``, ``speaker_b``, ``session_<n>`` turn lists and ``session_<n>_date_time``),
``observation`` (per session and speaker, ``[fact, evidence]`` pairs) and ``qa``
(``question``, ``evidence`` dialog ids ``D<session>:<turn>``, ``category``).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Sequence

from langchain_core.embeddings import Embeddings

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"

# LoCoMo's own numbering; category 5 (adversarial, unanswerable) has no evidence to find.
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 5, 10, 20)

# A few evidence ids in the data are typos ("D:11:26") or several ids in one string
# ("D8:6; D9:17"); this pattern recovers all of them.
_EVIDENCE_RE = re.compile(r"D:?(\d+):(\d+)")
_SESSION_RE = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    when: datetime
    caption: str | None = None
    """The BLIP caption of a photo shared in the turn, if any."""

    @property
    def content(self) -> str:
        """The memory text: what was said, plus what a shared photo shows (that is part of
        the turn as the other speaker saw it)."""
        if self.caption:
            return f"{self.text} [shared a photo: {self.caption}]"
        return self.text


@dataclass(frozen=True)
class Observation:
    text: str
    speaker: str
    evidence: tuple[str, ...]
    when: datetime


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: frozenset[str]


@dataclass
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    observations: list[Observation]
    questions: list[Question]
    dropped_evidence: list[str] = field(default_factory=list)
    """Evidence ids naming no turn of the conversation (unfindable, so not scored)."""


def parse_session_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` -> an aware UTC datetime."""
    return datetime.strptime(" ".join(text.split()), "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def parse_evidence(raw: Iterable[Any]) -> list[str]:
    """Normalised dialog ids from a raw evidence list, typos repaired, junk dropped."""
    ids: list[str] = []
    for item in raw:
        ids.extend(f"D{s}:{t}" for s, t in _EVIDENCE_RE.findall(str(item)))
    return list(dict.fromkeys(ids))


def _conversation(raw: dict[str, Any]) -> Conversation:
    conv = raw["conversation"]
    turns: list[Turn] = []
    dates: dict[str, datetime] = {}
    sessions = sorted(
        (int(m.group(1)), key) for key in conv if (m := _SESSION_RE.match(key)) and isinstance(conv[key], list)
    )
    for number, key in sessions:
        when = parse_session_date(conv[f"{key}_date_time"])
        dates[str(number)] = when
        for t in conv[key]:
            turns.append(Turn(t["dia_id"], t["speaker"], t["text"], when, t.get("blip_caption")))
    known = {t.dia_id for t in turns}
    observations: list[Observation] = []
    for key, per_speaker in (raw.get("observation") or {}).items():
        number = re.search(r"session_(\d+)_", key)
        when = dates.get(number.group(1)) if number else None
        for speaker, facts in per_speaker.items():
            for fact, evidence in facts:
                ev = parse_evidence(evidence if isinstance(evidence, list) else [evidence])
                if when is not None:
                    observations.append(Observation(fact, speaker, tuple(ev), when))
    questions: list[Question] = []
    dropped: list[str] = []
    for qa in raw["qa"]:
        if qa.get("category") not in CATEGORIES:
            continue
        ev = parse_evidence(qa.get("evidence") or [])
        dropped.extend(e for e in ev if e not in known)
        ev = [e for e in ev if e in known]
        if ev:  # a question without findable evidence cannot measure retrieval
            questions.append(Question(qa["question"], qa["category"], frozenset(ev)))
    return Conversation(
        raw.get("sample_id", f"conv-{id(raw)}"), (conv["speaker_a"], conv["speaker_b"]),
        turns, observations, questions, dropped,
    )


def load(path: str | Path) -> list[Conversation]:
    """Every conversation of a LoCoMo file, with its category 1-4 questions."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of LoCoMo conversations")
    return [_conversation(raw) for raw in data]


def score(ranked: Sequence[Iterable[str]], evidence: frozenset[str], k: int) -> tuple[float, float]:
    """(recall_any, recall_frac) of the first ``k`` retrieved items against ``evidence``.

    Each item is the set of dialog ids it stands for (one for a turn, its provenance for
    an observation). recall_any is 1 when any evidence turn is covered; recall_frac is
    LoCoMo's fraction of the evidence turns covered.
    """
    covered: set[str] = set()
    for item in ranked[:k]:
        covered.update(item)
    found = len(evidence & covered)
    return (1.0 if found else 0.0), found / len(evidence)


class CachedEmbeddings(Embeddings):
    """Memoises an embedder by text, so repeated texts and queries cost a dict lookup.

    The benchmarks use it to embed the data once and to time storage and retrieval
    without the query embedding. ``model_name`` is the wrapped model's, so the store picks
    the same dedup policy as with the bare embedder.
    """

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.model_name = getattr(inner, "model_name", None) or type(inner).__name__
        self._cache: dict[str, list[float]] = {}
        self._queries: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            vectors = self.inner.embed_documents(missing)
            with self._lock:
                self._cache.update(zip(missing, vectors))
        return [self._cache[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        # Apart from documents: an asymmetric model (E5's "query: " / "passage: ") embeds
        # the same text differently as a question.
        hit = self._queries.get(text)
        if hit is None:
            hit = self.inner.embed_query(text)
            with self._lock:
                self._queries[text] = hit
        return hit
