"""Events an app can show: ``preference_captured`` and ``proactive_hint``.

They go to LangGraph's custom stream (:func:`langgraph.config.get_stream_writer`, visible
with ``stream_mode="custom"`` and in Studio) and to an optional callback, never into the
model's messages. The work that produces them runs on the background worker, off the
turn's path: the callback hears an event as soon as it exists, the stream at the user's
next post-hook (the stream writer only exists inside a node).

A proactive hint (seed 003, "compteur de vivacité par concept"): a *concept* is a subject
of one of the user's memories (a captured preference's object, a tag the model gave).
Each turn in which the user's own words name a known concept counts one mention of it
(memories injected by the pre-hook only teach which concepts exist; they count nothing).
When a concept reaches ``hint_threshold`` mentions within ``hint_window``, a hint points
to the most alive memory about it; the concept then rests for ``hint_cooldown`` and the
user gets no other hint for ``hint_spacing`` turns. Subjects that are not concepts
(pronouns, contraction fragments such as "i'll" or "qu'on se", one-letter words) are
ignored. The counters live in the store (its ``jobs`` side collection), so they survive a
restart and are shared by processes using one store.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import defaultdict
from datetime import timedelta
from typing import Any, Callable, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import Memory, Namespace, namespace_key

__all__ = ["MemoryEvents", "emit_to_stream", "is_concept"]

logger = logging.getLogger("langgraph_memory")

_KNOWN_LIMIT = 500
"""Concepts remembered per user (the most recently seen are kept)."""


def emit_to_stream(event: dict[str, Any]) -> bool:
    """Write ``event`` to the running graph's custom stream; ``False`` outside a graph."""
    try:
        from langgraph.config import get_stream_writer

        writer = get_stream_writer()
    except (RuntimeError, ImportError):
        return False
    writer(event)
    return True


_CONCEPT_WORD = re.compile(r"[^\W\d_][\w-]*", re.UNICODE)
# Words a conversation is full of that name no concept: thanks, praise, pronouns, questions.
_NOT_CONCEPTS = frozenset("""
thanks thank great awesome amazing cool nice good wow yeah yes yep nope okay hey hello bye sure love like loved
what how why who when where which they them she her he him you your yours mine ours theirs
really totally definitely absolutely glad happy sorry fun lol haha omg last next first let sounds
merci super génial cool trop oui non ouais salut coucou bien quoi comment pourquoi qui quand où
all both each every everything anything something nothing some any many much more most few other another lot lots
tout tous toute toutes chaque rien quelque chose autre autres beaucoup plus moins
""".split())


def is_concept(subject: str) -> bool:
    """Whether ``subject`` can be a concept the user comes back to: words of three letters
    or more, at least one not a function word, no elided fragment ("i'll", "qu'on se")."""
    from langgraph_memory.background._objects import _END, _SKIP

    if not isinstance(subject, str) or "'" in subject or "’" in subject or len(subject) > 64:
        return False
    words = subject.lower().split()
    if not words or not all(_CONCEPT_WORD.fullmatch(w) for w in words):
        return False
    return any(len(w) >= 3 and w not in _SKIP and w not in _END and w not in _NOT_CONCEPTS for w in words)


def _check_duration(name: str, value: Any, *, positive: bool) -> float:
    if not isinstance(value, timedelta) or value < timedelta(0) or (positive and value == timedelta(0)):
        raise InvalidMemoryError(name, "must be a positive timedelta" if positive else "must be a non-negative timedelta")
    return value.total_seconds()


def _check_count(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 1_000_000:
        raise InvalidMemoryError(name, f"must be an integer from {low} to 1000000")
    return value


class MemoryEvents:
    """Where memory events go, and the per-concept counters behind proactive hints.

    Args:
        callback: called with each event (a dict with an ``event`` key), in the thread
            that produced it (the worker); exceptions it raises are logged, never raised
            into a turn.
        hint_threshold: turns naming one concept within ``hint_window`` that raise a hint.
        hint_window: how far back mentions count.
        hint_cooldown: after a hint, the same concept stays quiet this long.
        hint_spacing: after a hint, the user gets no other one for this many turns.
        clock: seconds since the epoch (tests pass a fake one); default ``time.time``
            (wall time: the counters outlive the process).
    """

    def __init__(
        self,
        callback: Callable[[dict[str, Any]], None] | None = None,
        *,
        hint_threshold: int = 3,
        hint_window: timedelta = timedelta(days=7),
        hint_cooldown: timedelta = timedelta(days=7),
        hint_spacing: int = 20,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if callback is not None and not callable(callback):
            raise InvalidMemoryError("callback", "must be callable")
        self.hint_threshold = _check_count("hint_threshold", hint_threshold, 1)
        self.hint_window = _check_duration("hint_window", hint_window, positive=True)
        self.hint_cooldown = _check_duration("hint_cooldown", hint_cooldown, positive=False)
        self.hint_spacing = _check_count("hint_spacing", hint_spacing, 0)
        self.callback = callback
        self.clock = clock or time.time
        self._pending: dict[str, list[dict[str, Any]]] = defaultdict(list)
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
        """From the worker: the callback now, the stream at the user's next post-hook."""
        self.emit(event, stream=False)
        with self._lock:
            pending = self._pending[namespace_key(namespace)]
            pending.append(event)
            del pending[:-100]  # a user who never comes back does not grow the queue forever

    def drain(self, namespace: Namespace) -> None:
        """Inside a node: stream the events the worker produced since the last one."""
        with self._lock:
            pending = self._pending.pop(namespace_key(namespace), [])
        for event in pending:
            emit_to_stream(event)

    def count_turn(self, store: Any, namespace: Namespace, text: str, known: Sequence[Memory] = ()) -> list[dict[str, Any]]:
        """One user turn: learn the concepts of ``known`` memories (injected or captured,
        not counted), count one mention per known concept the user's ``text`` names, and
        return the ``proactive_hint`` events now due. The counters are read from and
        written back to ``store``."""
        from langgraph_memory.background.jobs import JobState
        from langgraph_memory.store._fusion import query_terms

        key = namespace_key(namespace)
        jobs = JobState(store)
        now = self.clock()
        with self._lock:
            state = jobs.get("hints", key) or {}
            turn = int(state.get("turn", 0)) + 1
            about: dict[str, list[Any]] = dict(state.get("about") or {})
            for m in known:
                for subject in m.subjects:
                    if is_concept(subject):
                        about[subject] = [m.id, m.content, m.memory_type]
            if len(about) > _KNOWN_LIMIT:
                about = dict(list(about.items())[-_KNOWN_LIMIT:])
            terms = set(query_terms(text)) if text else set()
            mentions: dict[str, list[float]] = {k: v for k, v in (state.get("mentions") or {}).items() if k in about}
            resting: dict[str, float] = {k: v for k, v in (state.get("resting") or {}).items() if v > now}
            last_hint = int(state.get("last_hint_turn", -self.hint_spacing - 1))
            hints = []
            for subject in sorted(s for s in about if s in terms):
                seen = [t for t in mentions.get(subject, []) if now - t <= self.hint_window] + [now]
                mentions[subject] = seen[-self.hint_threshold:]
                if len(seen) < self.hint_threshold or subject in resting or turn - last_hint < self.hint_spacing or hints:
                    continue
                memory_id, content, memory_type = about[subject]
                hints.append({"event": "proactive_hint", "subject": subject, "mentions": len(seen),
                              "memory_id": memory_id, "content": content, "memory_type": memory_type})
                resting[subject] = now + self.hint_cooldown
                mentions[subject] = []
                last_hint = turn
            jobs.put("hints", key, {"turn": turn, "about": about, "mentions": mentions, "resting": resting,
                                    "last_hint_turn": last_hint})
        return hints
