"""Preferences, intentions and constraints, captured from what the user says, without a
tool call (seed 003's hybrid pipeline).

1. A lexical filter (:func:`~langgraph_memory.background._lexicon.passes_filter`) keeps
   only messages carrying a cue, so most messages never reach a classifier.
2. A classifier labels each survivor ``preference`` / ``intent`` / ``constraint`` /
   ``neutral`` with a confidence, topic, action, timeframe, sentiment and entities: a
   chat model with structured output when one is given (:class:`ChatModelClassifier`),
   else the documented rule-based :func:`rule_classifier`.
3. Normalisation (:func:`normalise`) canonicalises topic and action, resolves the
   timeframe to an ISO date or ``ongoing``, and rejects what does not fit (counted).
4. :meth:`PreferenceCapture.store_captures` keeps one live memory per (user, type, object):
   a taste or a rule replaces only one about the same thing (one of its objects, see
   :mod:`~langgraph_memory.background._objects`): "I prefer coffee over tea" replaces "I
   prefer tea over coffee", while "I can't eat gluten" and "I'm allergic to peanuts" both
   stay. A plan replaces one with the same action and object ("call lina"). A second
   capture of the same statement merges confidences; a changed one supersedes the old
   memory, which stays in ``history``. Capture writes with the store's own dedup off: its
   key decides, so two distinct allergies are never merged by similarity.
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Callable, Literal, Mapping, Sequence

from pydantic import BaseModel, Field, ValidationError

from langgraph_memory.background._lexicon import passes_filter, rule_classify
from langgraph_memory.background._objects import objects_of, same_thing
from langgraph_memory.background._timeframe import TOPICS, resolve_timeframe, topic_of, valid_timeframe
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_datetime
from langgraph_memory.store._dedup import DedupVerdict
from langgraph_memory.store._reads import live_where, memories_plan
from langgraph_memory.store.records import Memory, Namespace, metadata_fields, new_memory, utcnow, validate_namespace

__all__ = ["Capture", "CaptureResult", "ChatModelClassifier", "PreferenceCapture", "normalise", "rule_classifier"]

logger = logging.getLogger("langgraph_memory")

CaptureType = Literal["preference", "intent", "constraint"]
MEMORY_TYPE: dict[str, str] = {"preference": "preference", "intent": "todo", "constraint": "decision"}
"""How a capture is stored: a taste is a ``preference``, a plan a ``todo`` (a decision
when the user says it was decided), a restriction a ``decision`` the user made."""
EVENT_CONFIDENCE = 0.6
MAX_MESSAGE_CHARS = 2000


@dataclass(frozen=True)
class Capture:
    """One classified statement of the user."""

    type: CaptureType
    confidence: float
    topic: str
    action: str
    timeframe: str
    """An ISO date (``2026-11-27``), an ISO interval (``2027-06-01/2027-06-30``, open with
    ``..``: ``../2027-02-28`` is "before March") or ``ongoing``."""
    sentiment: Literal["positive", "negative", "neutral"]
    entities: tuple[str, ...]
    text: str
    """The message it came from."""
    objects: tuple[str, ...] = ()
    """What a taste or a rule is about (``("tea", "coffee")``); empty for plans."""

    @property
    def key(self) -> str:
        """What a new capture replaces: a plan its action and object (``intent:call lina``),
        a taste or a rule its objects (``constraint:peanut``)."""
        if self.type == "intent" or not self.objects:
            return f"{self.type}:{self.topic}"
        return f"{self.type}:{'|'.join(self.objects)}"

    def replaces(self, previous: Mapping[str, Any]) -> bool:
        """Whether this capture is about the same thing as ``previous`` (a stored
        capture's metadata). A plan: the same key. A taste or a rule: an object in common
        (:func:`~langgraph_memory.background._objects.same_thing`); a taste and a rule
        replace each other too ("I'm avoiding caffeine", then "coffee is fine for me
        again"), since both are the user's stance on that thing."""
        old_type = previous.get("type")
        if old_type != self.type and {old_type, self.type} != {"preference", "constraint"}:
            return False
        old_objects = previous.get("objects")
        if self.type == "intent" or not self.objects or not old_objects:
            return previous.get("key") == self.key
        choice = self.action == "prefer" and previous.get("action") == "prefer"
        return same_thing(self.objects, [str(o) for o in old_objects], choice=choice)


class CaptureSchema(BaseModel):
    """What a chat model classifier returns for one message (structured output)."""

    type: Literal["preference", "intent", "constraint", "neutral"] = Field(
        description="preference: a taste; intent: a plan or commitment; constraint: a restriction; "
        "neutral: anything else, including facts about other people and questions")
    confidence: float = Field(ge=0.0, le=1.0)
    topic: str = Field(description="short normalised subject, e.g. 'drinks', 'call lina'")
    action: str = Field(description="the verb in the infinitive, e.g. 'prefer', 'call'")
    timeframe: str = Field(description="ISO 8601 date or interval (2027-06-01/2027-06-30, ../2027-02-28) "
                           "if a time is named, else 'ongoing'")
    sentiment: Literal["positive", "negative", "neutral"]
    entities: list[str] = Field(default_factory=list, description="people, tools, places named")
    objects: list[str] = Field(default_factory=list, description="for a preference or constraint, the things it is "
                               "about, lowercase singular, e.g. ['tea', 'coffee'] or ['peanut']")


@dataclass
class CaptureResult:
    """What one capture run did: captures stored, merged, and messages skipped and why."""

    stored: list[Memory] = field(default_factory=list)
    captures: list[Capture] = field(default_factory=list)
    outcomes: list[tuple[Capture, Memory, str | None]] = field(default_factory=list)
    """For each stored capture: the capture, its memory, and the id of the memory it
    superseded (``None`` when it was new or the same statement again)."""
    filtered: int = 0
    """Messages the lexical filter stopped."""
    neutral: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    """Counted skips: ``invalid`` (classifier output that does not fit), ``error``."""

    def skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1


Classifier = Callable[[str, datetime], "Mapping[str, Any] | CaptureSchema | None"]


def rule_classifier(text: str, now: datetime) -> dict[str, Any]:
    """The offline classifier (rules in :mod:`langgraph_memory.background._lexicon`)."""
    verdict = rule_classify(text)
    if verdict.label == "neutral":
        return {"type": "neutral", "confidence": verdict.confidence, "topic": "", "action": "",
                "timeframe": "ongoing", "sentiment": "neutral", "entities": []}
    topic, action, entities = topic_of(text, verdict.label, verdict.cue or "")
    # A rule's weekday ("only on Tuesdays") recurs: only a plan is for a date.
    timeframe = resolve_timeframe(text, now) if verdict.label == "intent" else "ongoing"
    objects = [] if verdict.label == "intent" else list(objects_of(text, verdict.cue or "", action))
    if objects and topic not in TOPICS:
        topic = objects[0]  # no known category: the thing itself, never a fragment of the sentence
    return {"type": verdict.label, "confidence": verdict.confidence, "topic": topic, "action": action,
            "timeframe": timeframe, "sentiment": verdict.sentiment, "entities": entities, "objects": objects}


class ChatModelClassifier:
    """A chat model with structured output as the classifier (seed 003 used gpt-4o-mini).

    Args:
        model: any LangChain chat model supporting ``with_structured_output``, e.g.
            ``ChatOpenAI(model="gpt-4o-mini")``.
    """

    PROMPT = (
        "Classify the user's message for a long-term memory. Today is {today}. Return type "
        "preference (a taste of the user), intent (a plan, commitment or reminder of the user), "
        "constraint (a restriction the user lives by) or neutral (anything else: chit-chat, "
        "questions, facts about other people), a confidence in [0, 1], a short lowercase topic "
        "(the category for tastes, e.g. 'drinks'; the action and object for plans, e.g. 'call "
        "lina'), the action verb in the infinitive, the timeframe relative to today as an ISO date, an "
        "ISO interval (a month: 2027-06-01/2027-06-30; 'before March': {today}/2027-02-28; 'after the summer': "
        "2027-09-01/..) or 'ongoing', "
        "the sentiment, and the people, tools and places named. Message:\n{text}"
    )

    def __init__(self, model: Any) -> None:
        # The JSON schema, not the class: the answer comes back as a dict and
        # :func:`normalise` validates it (a model may localise or capitalise keys).
        self.runnable = model.with_structured_output(CaptureSchema.model_json_schema())

    def __call__(self, text: str, now: datetime) -> Any:
        return self.runnable.invoke(self.PROMPT.format(today=now.date().isoformat(), text=text))


_SPACE = re.compile(r"\s+")


def normalise(raw: Any, text: str) -> Capture | None:
    """A classifier's answer as a :class:`Capture`; ``None`` for ``neutral``.

    Keys are matched case-insensitively (a model may answer ``"Type"``), the topic is
    lowercased and single-spaced, the timeframe must be an ISO date, an ISO interval
    (ends may be ``..``) or ``ongoing``.

    Raises:
        InvalidMemoryError: the answer does not fit (the caller counts it as a skip).
    """
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if not isinstance(raw, Mapping):
        raise InvalidMemoryError("classifier", f"expected a mapping, got {type(raw).__name__}")
    lowered = {str(k).strip().lower(): v for k, v in raw.items()}
    try:
        parsed = CaptureSchema.model_validate(lowered)
    except ValidationError as exc:
        raise InvalidMemoryError("classifier", f"unusable answer: {exc.errors()[0]['msg']}") from None
    if parsed.type == "neutral":
        return None
    topic = _SPACE.sub(" ", parsed.topic.strip().lower())[:64]
    if not topic:
        raise InvalidMemoryError("classifier", "empty topic")
    timeframe = valid_timeframe(parsed.timeframe)
    if timeframe is None:
        raise InvalidMemoryError("classifier", f"timeframe {parsed.timeframe!r} is not ISO or 'ongoing'")
    entities = tuple(dict.fromkeys(e.strip() for e in parsed.entities if isinstance(e, str) and e.strip()))[:20]
    action = parsed.action.strip().lower() or "state"
    objects: tuple[str, ...] = ()
    if parsed.type != "intent":
        given = [_SPACE.sub(" ", o.strip().lower())[:64] for o in parsed.objects if isinstance(o, str) and o.strip()]
        # A model that names no object: the rules find it in the text.
        objects = tuple(dict.fromkeys(given))[:8] or objects_of(text, rule_classify(text).cue or "", action)
    return Capture(parsed.type, float(parsed.confidence), topic, action,
                   timeframe, parsed.sentiment, entities, text, objects)


def merged_confidence(old: float, new: float, same_value: bool) -> float:
    """A second capture of the same key: the same value reinforces (noisy-or); a changed
    value is weighted toward the newer statement (0.7 new, 0.3 old)."""
    if same_value:
        return round(1.0 - (1.0 - old) * (1.0 - new), 4)
    return round(0.7 * new + 0.3 * old, 4)


class PreferenceCapture:
    """The pipeline, from user messages to memories and ``preference_captured`` events.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        classifier: a callable ``(text, now) -> mapping``; default :func:`rule_classifier`.
            Give ``model=`` instead to classify with a chat model.
        model: a chat model with structured output (:class:`ChatModelClassifier`).
        event_confidence: a capture above this confidence raises ``preference_captured``.
    """

    def __init__(self, store: Any, *, classifier: Classifier | None = None, model: Any = None,
                 event_confidence: float = EVENT_CONFIDENCE) -> None:
        if classifier is not None and model is not None:
            raise InvalidMemoryError("classifier", "give a classifier or a model, not both")
        self.store = store
        self.classifier: Classifier = classifier or (ChatModelClassifier(model) if model is not None else rule_classifier)
        self.event_confidence = event_confidence

    @property
    def cheap(self) -> bool:
        """Whether classifying costs no model call (the rules): it may then run in a node."""
        return self.classifier is rule_classifier

    def classify(self, texts: Sequence[str], now: datetime | None = None) -> CaptureResult:
        """Filter and classify ``texts``; nothing is stored. ``now`` (default: the current
        time) is what relative dates are read against: a datetime within the storable range
        (1970-2200), naive ones taken as UTC, or :class:`InvalidMemoryError`."""
        now = utcnow() if now is None else check_datetime("now", now)
        result = CaptureResult()
        for text in texts:
            if not isinstance(text, str) or not text.strip() or len(text) > MAX_MESSAGE_CHARS:
                result.skip("invalid")
                continue
            if not passes_filter(text):
                result.filtered += 1
                continue
            try:
                capture = normalise(self.classifier(text, now), text)
            except (InvalidMemoryError, ValidationError) as exc:
                logger.info("preference capture skipped a message: %s", exc)
                result.skip("invalid")
                continue
            except Exception as exc:  # a model outage must not lose the turn
                logger.warning("preference classifier failed: %s", exc)
                result.skip("error")
                continue
            if capture is None:
                result.neutral += 1
            else:
                result.captures.append(capture)
        return result

    def events(self, result: CaptureResult) -> list[dict[str, Any]]:
        """``preference_captured`` events for the confident captures of ``result``: once
        stored, each names its memory (``memory_id``) and the memory it replaced
        (``supersedes``), so an app can ask the user to confirm or undo
        (``store.delete(memory_id)`` / ``store.restore(supersedes)``)."""
        stored = result.outcomes or [(c, None, None) for c in result.captures]
        return [
            {"event": "preference_captured", "capture_type": c.type, "topic": c.topic, "action": c.action,
             "timeframe": c.timeframe, "sentiment": c.sentiment, "confidence": c.confidence,
             "entities": list(c.entities), "objects": list(c.objects), "text": c.text,
             "memory_id": memory.id if memory is not None else None, "supersedes": superseded}
            for c, memory, superseded in stored if c.confidence > self.event_confidence
        ]

    def store_captures(self, result: CaptureResult, *, namespace: Namespace, source: Mapping[str, Any] | None = None) -> CaptureResult:
        """Store each capture of ``result`` under its key (see :attr:`Capture.key`)."""
        validate_namespace(namespace)
        for capture in result.captures:
            try:
                memory, superseded = self._store_one(capture, namespace, dict(source or {}))
            except InvalidMemoryError as exc:
                logger.info("preference capture not stored: %s", exc)
                result.skip("invalid")
                continue
            result.stored.append(memory)
            result.outcomes.append((capture, memory, superseded))
        return result

    def capture(self, texts: Sequence[str], *, namespace: Namespace, now: datetime | None = None,
                source: Mapping[str, Any] | None = None) -> CaptureResult:
        """Classify and store: the whole pipeline for one turn's user messages."""
        validate_namespace(namespace)
        return self.store_captures(self.classify(texts, now), namespace=namespace, source=source)

    def _store_one(self, capture: Capture, namespace: Namespace, source: dict[str, Any]) -> tuple[Memory, str | None]:
        memory_type = "decision" if capture.action == "decide" else MEMORY_TYPE[capture.type]
        label = {"preference": "Preference", "intent": "Intent", "constraint": "Constraint"}[capture.type]
        about = capture.topic if capture.type == "intent" or not capture.objects else ", ".join(capture.objects)
        when = "" if capture.timeframe == "ongoing" else f" (when: {capture.timeframe})"
        content = f"{label} ({about}){when}: {capture.text.strip()}"
        meta = {"capture": {**asdict(capture), "entities": list(capture.entities), "objects": list(capture.objects),
                            "key": capture.key, "captures": 1}, **source}
        subjects = [capture.topic, *capture.objects, *(e.lower() for e in capture.entities)]
        memory = new_memory(content, namespace=namespace, memory_type=memory_type,
                            subjects=list(dict.fromkeys(subjects))[:20],
                            source="preference-capture", metadata=meta)
        store = self.store
        with store._writer.lock(namespace, "__captures__"):
            # A taste and a rule about one thing replace each other: read both kinds.
            kinds = (memory_type,) if capture.type == "intent" else ("preference", "decision")
            [existing] = store._read(memories_plan(live_where(namespace, memory_types=kinds), 1000))
            old = next((m for m in existing if capture.replaces(m.metadata.get("capture") or {})), None)
            if old is None:
                # The store's similarity dedup stays off: the key decides (two allergies
                # are close in embedding space and must both stay).
                return store._writer.write_many([memory], [None], dedup=False, build_index=False)[0].memory, None
            previous = old.metadata["capture"]
            same = previous.get("text", "").strip().lower() == capture.text.strip().lower()
            merged = {**meta["capture"], "captures": int(previous.get("captures", 1)) + 1,
                      "confidence": merged_confidence(float(previous.get("confidence", 0.5)), capture.confidence, same)}
            if same:
                store._backend.set_payload([old.id], metadata_fields({**old.metadata, "capture": merged}))
                return old.evolve(metadata={**old.metadata, "capture": merged}), None
            memory = memory.evolve(metadata={**meta, "capture": merged})
            [(dense, sparse)] = store._writer.embed_memories([memory], [None])
            verdict = DedupVerdict("correction", f"a new capture of {capture.key} replaces {previous.get('key')}")
            return store._writer._supersede(old, memory, dense, sparse, verdict).memory, old.id
