"""Events an app can show: ``preference_captured`` and ``proactive_hint``.

They go to LangGraph's custom stream (:func:`langgraph.config.get_stream_writer`, visible
with ``stream_mode="custom"`` and in Studio) and to an optional callback, never into the
model's messages. The stream writer only exists inside a node, so the post-hook emits
them itself; work finished later on the background worker (a chat-model classifier)
reaches the callback at once and the stream at the next post-hook of the same user.

A proactive hint: each subject (a memory's subject tag, or a captured topic) counts one
mention each time a memory tagged with it is injected or the user names it; when a
subject reaches ``hint_threshold`` mentions within ``hint_window``, a hint points to the
most alive memory about it, then the subject rests for ``hint_cooldown``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Callable, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import Memory, Namespace, namespace_key

__all__ = ["MemoryEvents", "emit_to_stream"]

logger = logging.getLogger("langgraph_memory")


def emit_to_stream(event: dict[str, Any]) -> bool:
    """Write ``event`` to the running graph's custom stream; ``False`` outside a graph."""
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except (RuntimeError, ImportError):
        return False
    writer(event)
    return True


@dataclass(frozen=True)
class _HintSettings:
    threshold: int
    window: float
    cooldown: float


class MemoryEvents:
    """Where memory events go, and the per-subject counters behind proactive hints.

    Args:
        callback: called with each event (a dict with an ``event`` key), in the thread
            that produced it; exceptions it raises are logged, never raised into a turn.
        hint_threshold: mentions of one subject within ``hint_window`` that raise a hint.
        hint_window: how far back mentions count.
        hint_cooldown: after a hint, the same subject stays quiet this long.
        clock: seconds (tests pass a fake one); default ``time.monotonic``.
    """

    def __init__(
        self,
        callback: Callable[[dict[str, Any]], None] | None = None,
        *,
        hint_threshold: int = 3,
        hint_window: timedelta = timedelta(hours=24),
        hint_cooldown: timedelta = timedelta(hours=24),
        clock: Callable[[], float] | None = None,
    ) -> None:
        if callback is not None and not callable(callback):
            raise InvalidMemoryError("callback", "must be callable")
        if isinstance(hint_threshold, bool) or not isinstance(hint_threshold, int) or hint_threshold < 1:
            raise InvalidMemoryError("hint_threshold", "must be a positive integer")
        for name, value in (("hint_window", hint_window), ("hint_cooldown", hint_cooldown)):
            if not isinstance(value, timedelta) or value < timedelta(0):
                raise InvalidMemoryError(name, "must be a non-negative timedelta")
        if hint_window <= timedelta(0):
            raise InvalidMemoryError("hint_window", "must be positive")
        self.callback = callback
        self.hints = _HintSettings(hint_threshold, hint_window.total_seconds(), hint_cooldown.total_seconds())
        self.clock = clock or time.monotonic
        self._mentions: dict[tuple[str, str], deque[float]] = defaultdict(deque)
        self._resting: dict[tuple[str, str], float] = {}
        self._pending: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._about: dict[tuple[str, str], Memory] = {}
        self._lock = threading.Lock()

    def emit(self, event: dict[str, Any], *, stream: bool = True) -> None:
        """Send ``event`` to the callback and (inside a node, if ``stream``) the custom stream."""
        if stream:
            emit_to_stream(event)
        if self.callback is not None:
            try:
                self.callback(event)
            except Exception as exc:
                logger.warning("memory event callback failed on %s: %s", event.get("event"), exc)

    def later(self, namespace: Namespace, event: dict[str, Any]) -> None:
        """From the worker: the callback now, the stream at the user's next post-hook (any thread)."""
        self.emit(event, stream=False)
        with self._lock:
            self._pending[namespace_key(namespace)].append(event)

    def drain(self, namespace: Namespace) -> None:
        """Inside a node: stream the events the worker produced since the last one."""
        with self._lock:
            pending = self._pending.pop(namespace_key(namespace), [])
        for event in pending:
            emit_to_stream(event)

    def mentions(self, namespace: Namespace, memories: Sequence[Memory], text: str = "") -> list[dict[str, Any]]:
        """Count one mention per subject of ``memories`` (injected or captured this turn)
        and per known subject the user's ``text`` names; returns the ``proactive_hint``
        events now due."""
        from langgraph_memory.store._fusion import query_terms

        key = namespace_key(namespace)
        now = self.clock()
        subjects: set[str] = set()
        hints = []
        with self._lock:
            for m in memories:
                for s in m.subjects:
                    subjects.add(s)
                    known = self._about.get((key, s))
                    if known is None or (m.vitality or 0.0, m.updated_at) >= (known.vitality or 0.0, known.updated_at):
                        self._about[(key, s)] = m
            subjects.update(t for t in query_terms(text) if (key, t) in self._about)
            for subject in sorted(subjects):
                slot = (key, subject)
                seen = self._mentions[slot]
                seen.append(now)
                while seen and now - seen[0] > self.hints.window:
                    seen.popleft()
                if len(seen) < self.hints.threshold or now < self._resting.get(slot, float("-inf")):
                    continue
                best = self._about[slot]
                hints.append({"event": "proactive_hint", "subject": subject, "mentions": len(seen),
                              "memory_id": best.id, "content": best.content, "memory_type": best.memory_type})
                self._resting[slot] = now + self.hints.cooldown
                seen.clear()
        return hints


def after_turn(
    store: Any, capture: Any, events: MemoryEvents | None, namespace: Namespace, texts: Sequence[str],
    injected_ids: Sequence[str], submit: Callable[..., Any], source: dict[str, Any],
) -> None:
    """The post-hook's event work for one turn, inside the node: stream what the worker
    produced since last turn; capture preferences (the rules classify here, cheaply, and
    their events stream now; storing, or a chat model's classifying, runs via ``submit``
    on the worker); count mentions and stream the hints due."""
    emit = events.emit if events is not None else emit_to_stream
    if events is not None:
        events.drain(namespace)
    if capture is not None and texts:
        if capture.cheap:
            result = capture.classify(texts)
            for event in capture.events(result):
                emit(event)
            if result.captures:
                submit(capture.store_captures, result, namespace=namespace, source=source, label="preferences")
        else:
            def classify_and_store() -> None:
                result = capture.capture(texts, namespace=namespace, source=source)
                for event in capture.events(result):
                    if events is not None:
                        events.later(namespace, event)
            submit(classify_and_store, label="preferences")
    if events is not None and (injected_ids or texts):
        memories = [m for m, _ in store.get_many(list(injected_ids), namespace=namespace)] if injected_ids else []
        for hint in events.mentions(namespace, memories, " ".join(texts)):
            events.emit(hint)
