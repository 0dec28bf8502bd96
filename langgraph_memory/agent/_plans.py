"""The pre-hook's filters, validated and built once per (namespace, settings).

Every turn read the same namespace with the same settings, and rebuilt and re-validated
the same four filters (~8 µs each: the namespace, the channel, the kinds, a dataclass
``replace`` or two). Only their times change from turn to turn: when a memory counts as
alive (``alive_at``) and where the recent window starts (``updated_since``). So each
(namespace, settings) pair keeps its filters as built the first time, and a turn stamps
them with its own time. A filter is immutable, so the kept ones are shared by threads as
they are; two threads building the same entry at once build equal ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from langgraph_memory.store._checks import check_limit
from langgraph_memory.store._reads import Plan, evolve, fetch_query, memories_of
from langgraph_memory.store._search import identity_where, important_where, recent_where, search_filters
from langgraph_memory.store.backends import FetchQuery, Where
from langgraph_memory.store.records import Memory, Namespace, parse_since

if TYPE_CHECKING:
    from langgraph_memory.agent.injection import Channel, InjectionConfig

__all__ = ["TurnFilters", "turn_filters"]

MAX_KEPT = 1024
"""(namespace, settings) pairs kept at most; past it the memo starts again empty."""


@dataclass(frozen=True)
class _Listing:
    channel: Channel
    where: Where
    limit: int
    order_by: str
    windowed: bool
    """Whether the filter starts at the recent window (``updated_since``)."""


@dataclass(frozen=True)
class TurnFilters:
    """One (namespace, settings) pair's filters, without their times."""

    namespace: Namespace
    room: str | None
    recent_window: Any
    listings: tuple[_Listing, ...]
    _similar: list[Where] = field(default_factory=list, compare=False, repr=False)
    """The similar channel's filter, built the first time a turn has a query (a turn
    without one never validated it): a one-item cache."""

    def metadata_plan(self, now: datetime) -> Plan[dict[Channel, list[Memory]]] | None:
        """The metadata channels' reads (identity, important, recent) at ``now``, as one
        plan: their memories by channel. ``None``: no metadata channel runs."""
        return self._metadata(now) if self.listings else None

    def _metadata(self, now: datetime) -> Plan[dict[Channel, list[Memory]]]:
        # One plan for the three reads: one slot of the turn's round, not three generators
        # started, sent their answers and stopped (~2 µs each).
        queries = self.metadata_queries(now)
        answers = yield list(queries.values())
        return {channel: memories_of(hits) for channel, hits in zip(queries, answers)}

    def metadata_queries(self, now: datetime) -> dict[Channel, FetchQuery]:
        """The metadata channels' fetches at ``now``, by channel."""
        at = now.timestamp()
        queries: dict[Channel, FetchQuery] = {}
        for listing in self.listings:
            if listing.windowed:
                since = parse_since(self.recent_window, now=now).timestamp()
                where = evolve(listing.where, alive_at=at, updated_since=since)
            else:
                where = evolve(listing.where, alive_at=at)
            queries[listing.channel] = fetch_query(where, listing.limit, listing.order_by)
        return queries

    def similar_where(self, now: datetime) -> Where:
        """The similar channel's filter at ``now``: the user's live memories (and with a
        room, those of no channel or of the room)."""
        if not self._similar:
            self._similar.append(search_filters(self.namespace, channel=self.room))
        return evolve(self._similar[0], alive_at=now.timestamp())


_KEPT: dict[tuple[Any, ...], TurnFilters] = {}


def turn_filters(namespace: Namespace, config: InjectionConfig) -> TurnFilters:
    """``namespace``'s filters under ``config``, validated as the store's plans validate
    them (the same typed errors, and nothing kept after one)."""
    try:
        # Equal settings of other types (``True`` for ``1``, ``5.0`` for ``5``) validate
        # otherwise: their types are part of the key.
        key = (namespace, config, *map(type, (
            config.identity_limit, config.important_limit, config.important_min, config.recent_limit,
            config.recent_window, config.channel_scope, config.channel)))
        found = _KEPT.get(key)
    except TypeError:  # a list where a tuple belongs: validated, never kept
        return _build(namespace, config)
    if found is None:
        found = _build(namespace, config)
        if len(_KEPT) >= MAX_KEPT:
            _KEPT.clear()
        _KEPT[key] = found
    return found


def _build(namespace: Namespace, config: InjectionConfig) -> TurnFilters:
    room = config.channel if config.channel_scope else None
    listings: list[_Listing] = []
    for channel in config.channels:
        if channel == "identity" and config.identity_limit:
            check_limit("limit", config.identity_limit)
            where = identity_where(namespace, room)
            listings.append(_Listing(channel, where, config.identity_limit, "importance", False))
        elif channel == "important" and config.important_limit:
            check_limit("limit", config.important_limit)
            where = important_where(namespace, config.important_min, room)
            listings.append(_Listing(channel, where, config.important_limit, "importance", False))
        elif channel == "recent" and config.recent_limit:
            check_limit("limit", config.recent_limit)
            where = recent_where(namespace, config.recent_window, channel=room)
            windowed = config.recent_window is not None
            listings.append(_Listing(channel, where, config.recent_limit, "updated_at", windowed))
    return TurnFilters(namespace, room, config.recent_window, tuple(listings))
