"""Room messages the agent overhears (seed 002's "live" collection), beside the memories.

One message is one point of the store's ``rooms`` side collection (see
:meth:`StoreConnection.side_collection`): its text, ``author``, ``room``, ``timestamp``
and the namespace the room belongs to. Fact search, ``recent`` and the memory tools never
see them; the pre-hook searches them with the turn's query embedding, and the digest
(:mod:`langgraph_memory.background.digest`) turns them into facts and removes them.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence


from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import TIME_MIN, check_datetime, clean_query, stored_time
from langgraph_memory.store._lines import check_identifier, check_name
from langgraph_memory.store._reads import QueryVectors
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store._writing import normalise
from langgraph_memory.store.backends import Backend, DenseQuery, StoredPoint, Where
from langgraph_memory.store.records import (
    MAX_CONTENT_CHARS,
    Namespace,
    namespace_key,
    utcnow,
    validate_content,
    validate_namespace,
)

__all__ = ["MAX_ROOMS", "RoomMessage", "RoomMessages", "ROOM_COLLECTION", "check_room_count", "room_name"]

ROOM_COLLECTION = "rooms"
"""The side collection holding room messages."""
MAX_NAME_CHARS = 128
MAX_ROOMS = 64
"""The most rooms one read may name (a run's ``rooms``, :meth:`RoomMessages.search_live`,
:meth:`~langgraph_memory.store._room_members.RoomMembers.visible_rooms`): each is a
filter term, and on a server the run's list comes from the client."""
_SCROLL_BATCH = 256


@dataclass(frozen=True)
class RoomMessage:
    """One observed message of a room."""

    id: str
    content: str
    author: str
    room: str
    timestamp: datetime
    namespace: Namespace
    score: float | None = None
    """Cosine to the query, for messages found by :meth:`RoomMessages.search_live`."""
    poster: str | None = None
    """Who posted it when known (on a server with auth: the authenticated user)."""

    @property
    def shown_author(self) -> str:
        """The author as the live block and the digest show it: ``"bob (as alice)"`` when
        the poster wrote under another name, so nobody takes it for alice's."""
        if self.poster is None or self.poster == self.author:
            return self.author
        return f"{self.poster} (as {self.author})"

    @classmethod
    def from_point(cls, point: StoredPoint, score: float | None = None) -> "RoomMessage":
        p = point.payload
        return cls(
            id=point.id, content=p["content"], author=p["author"], room=p["room"],
            # Stored before times were bounded, a message may hold any number: clamped.
            timestamp=stored_time(p.get("created_at")) or TIME_MIN,
            namespace=tuple(p["namespace_parts"]), score=score, poster=p.get("poster"),
        )


def _name(field: str, value: Any) -> str:
    # Authors, and rooms a read names, are shown to models: no line breaks, controls or bidi.
    return check_name(field, value, MAX_NAME_CHARS)


def room_name(field: str, value: Any) -> str:
    """A room name a write or a run brings in, or :class:`InvalidMemoryError`: shown to
    models and people and keyed on by member lists, so also refused when a reader could
    take it for another room (see :func:`~langgraph_memory.store._lines.identifier_fault`).
    Reads check names with :func:`_name` only, so rooms stored before this rule still read."""
    return check_identifier(field, value, MAX_NAME_CHARS)


def check_room_count(names: Sequence[Any]) -> None:
    """:class:`InvalidMemoryError` when ``names`` holds more than :data:`MAX_ROOMS` rooms."""
    if len(names) > MAX_ROOMS:
        raise InvalidMemoryError("rooms", f"names {len(names)} rooms; at most {MAX_ROOMS} may be read at once")


def _when(at: Any, field: str = "at") -> datetime:
    if at is None:
        return utcnow()
    return check_datetime(field, at)


def addresses(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` names one of ``names`` as a word ("eko", "@Eko", "Eko," but not
    "ekonomy"): such messages go to the agent itself, which answers them live."""
    return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.IGNORECASE) for n in names if n)


def _rooms(rooms: str | Sequence[str]) -> tuple[str, ...]:
    names = (rooms,) if isinstance(rooms, str) else tuple(rooms)
    if not names:
        raise InvalidMemoryError("rooms", "name at least one room")
    check_room_count(names)
    return tuple(_name("rooms", r) for r in names)  # a read: rooms stored before room_name's rule still read


class RoomMessages:
    """Room observation, mixed into :class:`~langgraph_memory.MemoryStore`.

    ``agent_names`` (settable on the store, default none) are the names that address the
    agent: a message naming one is not observed, since the agent handles it live.
    """

    agent_names: tuple[str, ...] = ()

    def _rooms_backend(self) -> Backend:
        return self.side_collection(ROOM_COLLECTION, keyword_fields=("room", "author"))  # type: ignore[attr-defined]

    def _room_point(
        self, text: Any, namespace: Namespace, room: Any, author: Any, at: Any,
        agent_names: Sequence[str] | None, poster: Any = None,
    ) -> StoredPoint | None:
        # A message is never refused for its characters (that would lose what was said):
        # controls other than tabs and line breaks go, lone surrogates become U+FFFD, and
        # what is left is shown as one line wherever it reaches a model.
        content = validate_content(clean_query(text, max_chars=len(text)) if isinstance(text, str) else text)
        if len(content) > MAX_CONTENT_CHARS:
            raise InvalidMemoryError("text", f"at most {MAX_CONTENT_CHARS} characters")
        ns = validate_namespace(namespace)
        room, author, when = room_name("room", room), _name("author", author), _when(at)
        poster = None if poster is None else _name("poster", poster)
        names = self.agent_names if agent_names is None else tuple(agent_names)
        if addresses(content, names):
            return None
        payload = {
            "namespace": namespace_key(ns), "namespace_parts": list(ns), "status": "live",
            "room": room, "author": author, "content": content,
            "created_at": when.timestamp(), "timestamp": when.isoformat(),
        }
        if poster is not None:
            payload["poster"] = poster
        return StoredPoint(str(uuid.uuid4()), payload)

    def observe(
        self,
        text: str,
        *,
        namespace: Namespace,
        room: str = "lobby",
        author: str,
        at: datetime | None = None,
        agent_names: Sequence[str] | None = None,
        poster: str | None = None,
    ) -> str | None:
        """Index one room message (one embedding) so the agent can use it at once.

        Args:
            text: the message as written.
            namespace: whose room it is, e.g. ``("rooms", "my-app")``; the pre-hook reads it
                from the runtime, never from the model.
            room: the room's name, e.g. ``"lobby"``.
            author: who wrote it.
            at: when (default now); naive datetimes are UTC.
            agent_names: names addressing the agent; default :attr:`agent_names`.
            poster: who posted it, when known and possibly not ``author`` (shown
                ``"poster (as author)"``).

        Returns:
            The message id, or ``None`` when it addresses the agent and was skipped.

        Raises:
            InvalidMemoryError: bad input; nothing was stored.
        """
        [found] = self.observe_many(
            [{"text": text, "author": author, "at": at, "room": room, "poster": poster}],
            namespace=namespace, agent_names=agent_names,
        )
        return found

    def observe_many(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        namespace: Namespace,
        room: str = "lobby",
        agent_names: Sequence[str] | None = None,
    ) -> list[str | None]:
        """Index many messages with one embedding batch. Each is a dict with ``text``,
        ``author`` and optionally ``at``, ``room`` (default ``room``) and ``poster`` (who
        posted it, when that is known and may differ from ``author``). All are validated
        before anything is written; returns one id (or ``None``, skipped) per message."""
        if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
            raise InvalidMemoryError("messages", "expected a list of dicts")
        points: list[StoredPoint | None] = []
        for i, m in enumerate(messages):
            if not isinstance(m, Mapping):
                raise InvalidMemoryError(f"messages[{i}]", "expected a dict with text and author")
            try:
                points.append(self._room_point(
                    m.get("text"), namespace, m.get("room", room), m.get("author"), m.get("at"), agent_names,
                    m.get("poster")))
            except InvalidMemoryError as exc:
                raise InvalidMemoryError(f"messages[{i}].{exc.field}", str(exc).split(": ", 1)[-1]) from exc
        kept = [p for p in points if p is not None]
        if kept:
            self._embed_messages(kept)
            self._rooms_backend().upsert(kept)
        return [None if p is None else p.id for p in points]

    def _embed_messages(self, points: list[StoredPoint]) -> None:
        import numpy as np  # not at import: the CLI's reads never load it

        # The author is part of what a message says: "leaving for Greece tomorrow" answers
        # "where is David going?" because David wrote it. But then "david: lol" is close
        # to every question about David too; its ``substance`` (how far the content moves
        # the vector away from the bare author's) tells the two apart. An author's own
        # vector is embedded once per store, in the same batch as the messages.
        cache: dict[str, Any] = self.__dict__.setdefault("_author_vectors", {})
        new_authors = sorted({p.payload["author"] for p in points} - cache.keys())
        texts = [f"{p.payload['author']}: {p.payload['content']}" for p in points]
        vectors = self.embeddings.embed_documents(texts + [f"{a}:" for a in new_authors])  # type: ignore[attr-defined]
        for vector in vectors:
            if len(vector) != self.dim:  # type: ignore[attr-defined]
                raise InvalidMemoryError("embeddings", f"expected {self.dim} dimensions, got {len(vector)}")  # type: ignore[attr-defined]
        for author, vector in zip(new_authors, vectors[len(points):]):
            cache[author] = np.asarray(normalise(vector), dtype=np.float32)
        for point, vector in zip(points, vectors):
            point.dense = normalise(vector)
            own = float(np.asarray(point.dense, dtype=np.float32) @ cache[point.payload["author"]])
            point.payload["substance"] = round(1.0 - own, 4)

    def search_live(
        self,
        query: str | QueryVectors,
        *,
        namespace: Namespace,
        rooms: str | Sequence[str],
        limit: int = 10,
        min_score: float | None = None,
        min_substance: float | None = None,
    ) -> list[RoomMessage]:
        """The live messages of ``rooms`` closest in meaning to ``query`` (cosine), best
        first; pass the turn's :class:`QueryVectors` to reuse its embedding.

        ``min_score`` drops messages below this cosine; ``min_substance`` drops chit-chat:
        messages whose content barely moves their vector away from their author's alone
        ("ok", "lol", a greeting score about 0.1-0.45; informative messages 0.4-0.8 with
        MiniLM, see ``docs/benchmarks.md``).
        """
        if not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidMemoryError("limit", "must be an integer from 1 to 1000")
        where = self._room_where(namespace, rooms)
        vectors = self.query_vectors(query)  # type: ignore[attr-defined]
        # Chit-chat is filtered after the search, so look a little deeper than ``limit``.
        depth = limit if min_substance is None else min(1000, 4 * limit)
        [hits] = self._rooms_backend().query_batch([DenseQuery(vectors.dense, where, depth)])
        found = [
            RoomMessage.from_point(h.point, h.score) for h in hits
            if (min_score is None or h.score >= min_score)
            and (min_substance is None or float(h.point.payload.get("substance", 1.0)) >= min_substance)
        ]
        return found[:limit]

    def live_messages(
        self, *, namespace: Namespace, room: str, until: datetime | None = None, limit: int | None = None,
    ) -> list[RoomMessage]:
        """The room's live messages, oldest first (those observed up to ``until``); the
        ``limit`` oldest of them when given."""
        where = self._room_where(namespace, room, until=until)
        backend = self._rooms_backend()
        found: list[RoomMessage] = []
        offset = None
        # Every page is read even with a limit: pages come in id order, not time order, so
        # stopping early would return some messages rather than the oldest.
        while True:
            points, offset = backend.scroll(where, limit=_SCROLL_BATCH, offset=offset)
            found += [RoomMessage.from_point(p) for p in points]
            if offset is None:
                break
        found.sort(key=lambda m: (m.timestamp, m.id))
        return found if limit is None else found[:limit]

    def live_ids(self, ids: Sequence[str], *, namespace: Namespace) -> set[str]:
        """Which of ``ids`` are still live messages of ``namespace`` (not yet digested)."""
        if not ids:
            return set()
        key = namespace_key(validate_namespace(namespace))
        return {p.id for p in self._rooms_backend().retrieve(list(ids)) if p.payload.get("namespace") == key}

    def room_messages(self, ids: Sequence[str], *, namespace: Namespace) -> list[RoomMessage]:
        """The live messages of ``namespace`` among ``ids``, in the order of ``ids`` (the
        pre-hook's ledger keeps their ids only; their text is read here at each call)."""
        if not ids:
            return []
        key = namespace_key(validate_namespace(namespace))
        found = {
            p.id: RoomMessage.from_point(p)
            for p in self._rooms_backend().retrieve(list(ids)) if p.payload.get("namespace") == key
        }
        return [found[i] for i in ids if i in found]

    def forget_messages(self, ids: Sequence[str], *, namespace: Namespace) -> int:
        """Remove these live messages of ``namespace`` (ids of another namespace are left
        alone); returns how many were removed."""
        mine = sorted(self.live_ids(ids, namespace=namespace))
        if mine:
            self._rooms_backend().delete(mine)
        return len(mine)

    def count_live(self, *, namespace: Namespace, room: str | None = None) -> int:
        """How many live messages ``room`` (or every room of ``namespace``) holds."""
        if room is None:
            return self._rooms_backend().count(Where(namespace=namespace_key(validate_namespace(namespace))))
        return self._rooms_backend().count(self._room_where(namespace, room))

    def _room_where(self, namespace: Namespace, rooms: str | Sequence[str], until: datetime | None = None) -> Where:
        return Where(
            namespace=namespace_key(validate_namespace(namespace)),
            fields=(("room", _rooms(rooms)),),
            created_until=None if until is None else _when(until, "until").timestamp(),
        )

    aobserve = async_twin(observe)
    aobserve_many = async_twin(observe_many)
    asearch_live = async_twin(search_live)
    alive_messages = async_twin(live_messages)
    aforget_messages = async_twin(forget_messages)
