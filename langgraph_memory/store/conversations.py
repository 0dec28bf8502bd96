"""Conversation recall (seed 004): exchanges and summaries beside the facts, and one search
across the three.

Facts live in the store's main collection. What was *said* lives in one side collection,
``conversations`` (:meth:`~langgraph_memory.MemoryStore.side_collection`), with a
``source`` field, ``exchange`` or ``summary``: one collection rather than two, because a
search across both then costs one engine query, and the records share every filter
(namespace, thread, channel, time). Memory reads never see it.

:func:`search_conversations` ranks facts, exchanges and summaries by cosine to the query,
the one signal every source has on the same scale, and drops what scores below a floor
chosen per embedder (:data:`MIN_SCORE`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import TIME_MIN, check_datetime, clean_query, stored_time
from langgraph_memory.store._lines import bare_line, one_line
from langgraph_memory.store._reads import QueryVectors
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store.backends import Backend, DenseQuery, FetchQuery, StoredPoint, Where
from langgraph_memory.store.records import (
    Namespace,
    namespace_key,
    prefix_keys,
    utcnow,
    validate_namespace,
)

__all__ = [
    "COLLECTION",
    "Exchange",
    "MIN_SCORE",
    "RecallHit",
    "SOURCES",
    "Summary",
    "asearch_conversations",
    "index_exchange",
    "index_summary",
    "new_exchange",
    "new_summary",
    "search_conversations",
    "write_records",
]

Source = Literal["fact", "exchange", "summary"]
SOURCES: tuple[Source, ...] = ("fact", "exchange", "summary")

COLLECTION = "conversations"
KEYWORD_FIELDS = ("source", "thread_id", "channel")

MIN_SCORE: dict[str, float] = {
    "all-MiniLM-L6-v2": 0.3,
    "text-embedding-3-small": 0.3,
}
"""Cosine floor of :func:`search_conversations` per embedder. MiniLM: 0.3, seed 004's value.
Measured on the six exchanges of ``tests/test_conversations.py``: queries about a detail
of one turn score 0.59-0.76 on it, off-topic ones ("what's the weather like", "how do I
cook pasta", "tell me a joke", "zzzz") 0.08-0.23, and "hello" 0.32 on "Hi, I'm planning my
week". ``text-embedding-3-small`` takes the same value, unmeasured here (no network).
Other embedders get :data:`DEFAULT_MIN_SCORE`; pass ``min_score=`` to tune."""
DEFAULT_MIN_SCORE = 0.3

MAX_MESSAGE_CHARS = 20_000
"""Each side of an exchange keeps at most this much text (embedders read far less)."""
MAX_LIMIT = 50


def _now() -> datetime:
    return utcnow()


def _text_field(name: str, value: Any, *, required: bool = True) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidMemoryError(name, f"expected a string, got {type(value).__name__}")
    # What was said is kept, never refused: lone surrogates (no engine stores them) become
    # U+FFFD and stray controls spaces, as for room messages.
    text = clean_query(value, max_chars=len(value)).strip()
    if not text and required:
        raise InvalidMemoryError(name, "is empty")
    return text[:MAX_MESSAGE_CHARS] or None


def _time_field(name: str, value: Any) -> datetime:
    if value is None:
        return _now()
    return check_datetime(name, value)  # bounded like every stored time (1970-2200)


def _record_id(name: str, value: Any, *parts: str) -> str:
    if value is None:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, "|".join(parts)))
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        raise InvalidMemoryError(name, f"{value!r} is not a UUID") from None


@dataclass(frozen=True)
class Exchange:
    """One turn as it was said: the user's message(s) and the assistant's final answer."""

    id: str
    namespace: Namespace
    thread_id: str | None
    user_message: str
    assistant_message: str
    timestamp: datetime
    channel: str | None = None

    @property
    def text(self) -> str:
        """What is embedded and shown: both sides, concatenated."""
        return f"User: {self.user_message}\nAssistant: {self.assistant_message}"

    def to_payload(self) -> dict[str, Any]:
        return {
            **_common(self.namespace, "exchange", self.thread_id, self.channel, self.timestamp),
            "content": self.text,
            "user_message": self.user_message,
            "assistant_message": self.assistant_message,
        }


@dataclass(frozen=True)
class Summary:
    """A thread's summary (e.g. written by LangChain's ``SummarizationMiddleware``) and the
    time span of the conversation it replaced."""

    id: str
    namespace: Namespace
    thread_id: str | None
    content: str
    span_start: datetime
    span_end: datetime
    channel: str | None = None

    def to_payload(self) -> dict[str, Any]:
        return {
            **_common(self.namespace, "summary", self.thread_id, self.channel, self.span_end),
            "content": self.content,
            "span_start": self.span_start.timestamp(),
            "span_end": self.span_end.timestamp(),
        }


def _common(namespace: Namespace, source: str, thread_id: str | None, channel: str | None, when: datetime) -> dict[str, Any]:
    # namespace / ns_prefixes / status / created_at mirror the memories' payload, so the
    # same Where filters (and an erase by namespace prefix) apply to both collections.
    key = namespace_key(namespace)
    return {
        "namespace": key,
        "ns_prefixes": prefix_keys(key),
        "status": "live",
        "source": source,
        "thread_id": thread_id,
        "channel": channel,
        "created_at": when.timestamp(),
        "updated_at": when.timestamp(),
    }


def new_exchange(
    user_message: Any,
    assistant_message: Any,
    *,
    namespace: Any,
    thread_id: Any = None,
    channel: Any = None,
    timestamp: Any = None,
    exchange_id: Any = None,
) -> Exchange:
    """Validate an exchange; raises :class:`InvalidMemoryError` before anything is written.

    Without ``exchange_id`` the id is derived from the namespace, thread, time and text, so
    handing the same exchange twice stores it once."""
    ns = validate_namespace(namespace)
    user = _text_field("user_message", user_message)
    answer = _text_field("assistant_message", assistant_message)
    thread = _text_field("thread_id", thread_id, required=False)
    chan = _text_field("channel", channel, required=False)
    when = _time_field("timestamp", timestamp)
    rid = _record_id("exchange_id", exchange_id, "exchange", namespace_key(ns), thread or "", user or "", answer or "")
    return Exchange(rid, ns, thread, user or "", answer or "", when, chan)


def new_summary(
    summary: Any,
    *,
    namespace: Any,
    thread_id: Any = None,
    span_start: Any = None,
    span_end: Any = None,
    channel: Any = None,
    summary_id: Any = None,
) -> Summary:
    """Validate a summary; raises :class:`InvalidMemoryError` before anything is written."""
    ns = validate_namespace(namespace)
    text = _text_field("summary", summary)
    thread = _text_field("thread_id", thread_id, required=False)
    chan = _text_field("channel", channel, required=False)
    end = _time_field("span_end", span_end)
    start = _time_field("span_start", span_start) if span_start is not None else end
    if start > end:
        raise InvalidMemoryError("span_start", "is after span_end")
    rid = _record_id("summary_id", summary_id, "summary", namespace_key(ns), thread or "", text or "")
    return Summary(rid, ns, thread, text or "", start, end, chan)


def conversations(store: Any) -> Backend:
    """The store's ``conversations`` side collection, opened on first use."""
    return store.side_collection(COLLECTION, keyword_fields=KEYWORD_FIELDS)


def write_records(store: Any, records: Sequence[Exchange | Summary]) -> None:
    """Embed validated exchanges and summaries in one batch and write them (idempotent:
    the same id overwrites). This is the job the background worker runs."""
    if not records:
        return
    texts = [r.text if isinstance(r, Exchange) else r.content for r in records]
    vectors = store._writer.embed_documents(texts)
    conversations(store).upsert(
        [StoredPoint(r.id, r.to_payload(), dense, sparse) for r, (dense, sparse) in zip(records, vectors)]
    )


def index_exchange(store: Any, user_message: str, assistant_message: str, *, namespace: Namespace, **fields: Any) -> Exchange:
    """Index one exchange now (the hooks do it on the background worker instead).

    ``fields``: ``thread_id``, ``channel``, ``timestamp``, ``exchange_id`` (see
    :func:`new_exchange`)."""
    exchange = new_exchange(user_message, assistant_message, namespace=namespace, **fields)
    write_records(store, [exchange])
    return exchange


def index_summary(store: Any, summary: str, *, namespace: Namespace, **fields: Any) -> Summary:
    """Index a thread's summary as knowledge, searchable from every thread of the user.

    Call it with the text your summariser wrote (``MemoryMiddleware`` does it for LangChain's
    ``SummarizationMiddleware``). ``fields``: ``thread_id``, ``span_start``, ``span_end``,
    ``channel``, ``summary_id`` (see :func:`new_summary`)."""
    record = new_summary(summary, namespace=namespace, **fields)
    write_records(store, [record])
    return record


def first_exchange_time(store: Any, namespace: Namespace, thread_id: str | None) -> datetime | None:
    """When the thread's earliest indexed exchange was said (a summary's span start)."""
    where = _where(namespace, ("exchange",), thread_id)
    [hits] = conversations(store).query_batch([FetchQuery(where, 1, order_by="created_at", descending=False)])
    return (stored_time(hits[0].point.payload.get("created_at")) or TIME_MIN) if hits else None


def known(store: Any, record_id: str) -> bool:
    """Whether a conversation record is already indexed."""
    return bool(conversations(store).retrieve([record_id]))


@dataclass(frozen=True)
class RecallHit:
    """One result of :func:`search_conversations`: what it is, when, and in which thread."""

    source: Source
    id: str
    text: str
    """The fact, the summary, or ``"User: ...\\nAssistant: ..."``."""
    score: float
    """Cosine between the query and the text."""
    when: datetime
    """The exchange's time, the summary's span end, or when the fact was learned."""
    thread_id: str | None = None
    channel: str | None = None
    user_message: str | None = None
    assistant_message: str | None = None
    span_start: datetime | None = None
    """For a summary: when the conversation it replaced began."""

    def describe(self) -> str:
        """One line for a tool result."""
        when = f"{self.when:%Y-%m-%d %H:%M} UTC"
        if self.source == "summary" and self.span_start is not None:
            when = f"{self.span_start:%Y-%m-%d %H:%M} to {when}"
        where = "" if self.thread_id is None else f", thread {bare_line(str(self.thread_id))}"
        where += "" if self.channel is None else f", channel {bare_line(str(self.channel))}"
        text = one_line(self.text.replace("\r\n", "\n").replace("\n", " / "))  # one line whatever it holds
        return f"- [{self.source}] ({when}{where}; id: {self.id}; score {self.score:.2f}) {text}"


def _where(namespace: Namespace, sources: tuple[str, ...], thread_id: str | None = None) -> Where:
    fields: tuple[tuple[str, tuple[str, ...]], ...] = (("source", sources),)
    if thread_id is not None:
        fields += (("thread_id", (thread_id,)),)
    return Where(namespace=namespace_key(validate_namespace(namespace)), fields=fields)


def _sources(sources: Any) -> tuple[Source, ...]:
    values = (sources,) if isinstance(sources, str) else sources
    if not isinstance(values, (tuple, list)) or not values:
        raise InvalidMemoryError("sources", f"expected some of {list(SOURCES)}")
    unknown = [s for s in values if s not in SOURCES]
    if unknown:
        raise InvalidMemoryError("sources", f"unknown sources {unknown}; expected some of {list(SOURCES)}")
    return tuple(dict.fromkeys(values))


def min_score_for(embedder: str) -> float:
    """The default floor of :func:`search_conversations` for the store's embedder."""
    return MIN_SCORE.get(embedder, DEFAULT_MIN_SCORE)


def search_conversations(
    store: Any,
    query: str | QueryVectors,
    *,
    namespace: Namespace,
    sources: Sequence[Source] = SOURCES,
    limit: int = 5,
    min_score: float | None = None,
    thread_id: str | None = None,
) -> list[RecallHit]:
    """Facts, exchanges and summaries of ``namespace`` closest to ``query``, best first.

    Args:
        query: text, or :class:`QueryVectors` from ``store.embed_query`` (benchmarks).
        sources: which of ``fact``, ``exchange``, ``summary`` to search.
        limit: at most this many results (1..50), 5 by default.
        min_score: cosine floor; default :func:`min_score_for` the store's embedder.
        thread_id: only exchanges and summaries of this thread (facts are not per thread).
    """
    wanted = _sources(sources)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidMemoryError("limit", f"must be an integer from 1 to {MAX_LIMIT}")
    if min_score is not None and (isinstance(min_score, bool) or not isinstance(min_score, (int, float))):
        raise InvalidMemoryError("min_score", "must be a number")
    if thread_id is not None and not isinstance(thread_id, str):
        raise InvalidMemoryError("thread_id", "must be a string")
    floor = min_score_for(store.embedder) if min_score is None else float(min_score)
    validate_namespace(namespace)
    vectors = store.query_vectors(query)
    hits: list[RecallHit] = []
    if "fact" in wanted:
        for h in store.search(vectors, namespace=namespace, limit=limit, mode="dense", kinds="fact", min_score=floor):
            m = h.memory
            hits.append(RecallHit("fact", m.id, m.content, h.score, m.created_at))
    said = tuple(s for s in wanted if s != "fact")
    if said:
        [found] = conversations(store).query_batch([DenseQuery(vectors.dense, _where(namespace, said, thread_id), limit)])
        hits += [_recall_hit(h.point, h.score) for h in found if h.score >= floor]
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits[:limit]


def _recall_hit(point: StoredPoint, score: float) -> RecallHit:
    p = point.payload
    start = p.get("span_start")
    return RecallHit(
        source=p["source"],
        id=point.id,
        text=p["content"],
        score=score,
        when=stored_time(p.get("created_at")) or TIME_MIN,  # old data may hold any number: clamped
        thread_id=p.get("thread_id"),
        channel=p.get("channel"),
        user_message=p.get("user_message"),
        assistant_message=p.get("assistant_message"),
        span_start=stored_time(start),
    )


asearch_conversations = async_twin(search_conversations)
aindex_exchange = async_twin(index_exchange)
aindex_summary = async_twin(index_summary)
