"""One configuration of what every memory path captures from the user's words, and the
events it raises: :class:`CaptureConfig`, taken as ``capture=`` by
:class:`~langgraph_memory.MemoryMiddleware` (``create_agent``),
:func:`~langgraph_memory.build_memory_graph` and
:func:`~langgraph_memory.react_agent_hooks`. Capture is on by default; ``capture=False``
turns it off.

After each turn the post-hook hands the user's messages to the background worker, which
classifies them (:class:`~langgraph_memory.background.preferences.PreferenceCapture`),
stores the captures, raises ``preference_captured`` (with the memory's id and the id it
superseded) and counts the user's mentions of known concepts for proactive hints
(:class:`~langgraph_memory.agent.events.MemoryEvents`). Nothing of it runs on the turn's
path; the events reach the callback at once and the custom stream at the user's next turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from langgraph_memory.agent.events import MemoryEvents
from langgraph_memory.background.preferences import EVENT_CONFIDENCE, Classifier, PreferenceCapture
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import Namespace

__all__ = ["CaptureConfig", "Capturing", "capturing"]


@dataclass(frozen=True)
class CaptureConfig:
    """What the memory paths capture and which events they raise (the same object can be
    given to several paths).

    Args:
        preferences: capture preferences, intentions and constraints from the user's
            messages (default ``True``).
        model: a chat model that classifies them (structured output); default: the
            offline rules.
        classifier: a callable ``(text, now) -> mapping`` instead of either.
        event_confidence: a capture above this confidence raises ``preference_captured``.
        events: where events go (a callback) and the hint settings; default a
            :class:`~langgraph_memory.agent.events.MemoryEvents` that only streams.
        hints: raise ``proactive_hint`` events when the user keeps coming back to a concept.
    """

    preferences: bool = True
    model: Any = None
    classifier: Classifier | None = None
    event_confidence: float = EVENT_CONFIDENCE
    events: MemoryEvents | None = None
    hints: bool = True

    def __post_init__(self) -> None:
        for name in ("preferences", "hints"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidMemoryError(name, "must be true or false")
        if self.events is not None and not isinstance(self.events, MemoryEvents):
            raise InvalidMemoryError("events", "must be a MemoryEvents")
        if self.classifier is not None and not callable(self.classifier):
            raise InvalidMemoryError("classifier", "must be callable")
        if isinstance(self.event_confidence, bool) or not isinstance(self.event_confidence, (int, float)) \
                or not 0.0 <= self.event_confidence <= 1.0:
            raise InvalidMemoryError("event_confidence", "must be a number from 0 to 1")


@dataclass(frozen=True)
class Capturing:
    """A path's resolved capture: the pipeline (``None`` when preferences are off), where
    events go, and whether hints are counted."""

    preferences: PreferenceCapture | None
    events: MemoryEvents
    hints: bool

    def after_turn(self, store: Any, namespace: Namespace, texts: Sequence[str], injected_ids: Sequence[str],
                   submit: Callable[..., Any], source: dict[str, Any], *, remembered: Sequence[str] = ()) -> None:
        """The post-hook's part, inside the node: stream what the worker produced since
        the user's last turn, and queue this turn's work on the worker. ``remembered``:
        the memories the model stored with a tool this turn."""
        self.events.drain(namespace)
        if texts and (self.preferences is not None or self.hints):
            # What the user said about themselves must not be lost to a full queue.
            submit(self.work, store, namespace, list(texts), list(injected_ids), source, list(remembered),
                   label="preferences", droppable=False)

    def work(self, store: Any, namespace: Namespace, texts: list[str], injected_ids: list[str],
             source: dict[str, Any], remembered: Sequence[str] = ()) -> None:
        """On the worker: capture and store, raise the events, count the mentions. A
        capture the model already stored this turn ("Mickael likes jazz" for "I like
        jazz": a memory of the turn naming every object) is not stored twice."""
        stored = []
        if self.preferences is not None:
            result = self.preferences.classify(texts)
            if remembered and result.captures:
                contents = [m.content.lower() for m, _ in store.get_many(list(remembered), namespace=namespace)]
                kept = [c for c in result.captures if not any(_names_all(c, text) for text in contents)]
                for _ in range(len(result.captures) - len(kept)):
                    result.skip("stored_by_model")
                result.captures = kept
            result = self.preferences.store_captures(result, namespace=namespace, source=source)
            stored = result.stored
            for event in self.preferences.events(result):
                self.events.later(namespace, event)
        if self.hints:
            known = [m for m, _ in store.get_many(injected_ids, namespace=namespace)] if injected_ids else []
            for hint in self.events.count_turn(store, namespace, " ".join(texts), [*known, *stored]):
                self.events.later(namespace, hint)


def _names_all(capture: Any, content: str) -> bool:
    words = [w for phrase in (capture.objects or (capture.topic,)) for w in phrase.split()]
    return bool(words) and all(re.search(rf"\b{re.escape(w)}", content) for w in words)


def capturing(value: Any, store: Any) -> Capturing | None:
    """A path's ``capture=`` argument resolved: ``True`` (the default configuration), a
    :class:`CaptureConfig`, a :class:`PreferenceCapture` (its pipeline, default events),
    or ``False`` / ``None`` (off)."""
    if value is None or value is False:
        return None
    if value is True:
        value = CaptureConfig()
    if isinstance(value, PreferenceCapture):
        return Capturing(value, MemoryEvents(), True)
    if not isinstance(value, CaptureConfig):
        raise InvalidMemoryError("capture", "expected True, False, a CaptureConfig or a PreferenceCapture")
    pipeline = None
    if value.preferences:
        pipeline = PreferenceCapture(store, classifier=value.classifier, model=value.model,
                                     event_confidence=value.event_confidence)
    return Capturing(pipeline, value.events or MemoryEvents(), value.hints)
