"""What the live room context adds to the excerpts search found: the follow-up lines of
their authors, and a room's latest messages when the message names that room.

Search alone misses both: "une semaine" right after "je pars en Grèce demain" is far from
any question (and reads as chit-chat), yet it completes the excerpt; "What's new in the
lobby?" is close to no message at all. A room's live messages are bounded (the digest
empties it), so both are read with one listing of the room, and only when a room the run
sees was found or named.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, Sequence

from langgraph_memory.store._rooms import RoomMessage
from langgraph_memory.store.records import Namespace

__all__ = ["FOLLOW_UP_WITHIN", "LATEST_WHEN_NAMED", "more_live"]

FOLLOW_UP_WITHIN = timedelta(minutes=10)
"""A message of the same author this soon after an excerpt, with nobody else speaking in
between, continues it."""
MAX_FOLLOW_UPS = 2
"""Follow-up lines added per excerpt."""
LATEST_WHEN_NAMED = 5
"""A room's latest messages shown when the turn's message names the room."""
_LISTED = 200
"""Follow-ups are looked for among a room's latest this many messages (the room is read
whole, as pages come in id order; the digest keeps it short)."""


def _names_room(text: str, room: str) -> bool:
    return re.search(rf"(?<![\w#])#?{re.escape(room)}(?!\w)", text, re.IGNORECASE) is not None


def more_live(
    store: Any, namespace: Namespace, rooms: Sequence[str], text: str, found: Sequence[RoomMessage],
) -> list[tuple[RoomMessage, str]]:
    """Messages to show beside ``found`` (the searched excerpts, best first), each with its
    reason: ``follow-up of <id>`` or ``latest in #room (named)``; none already in ``found``."""
    named = [r for r in rooms if _names_room(text or "", r)]
    wanted = list(dict.fromkeys([*(m.room for m in found), *named]))
    if not wanted:
        return []
    seen = {m.id for m in found}
    out: list[tuple[RoomMessage, str]] = []
    for room in wanted:
        messages = store.live_messages(namespace=namespace, room=room)[-_LISTED:]
        index = {m.id: i for i, m in enumerate(messages)}
        for excerpt in (m for m in found if m.room == room and m.id in index):
            added = 0
            for later in messages[index[excerpt.id] + 1:]:
                if later.author != excerpt.author or later.timestamp - excerpt.timestamp > FOLLOW_UP_WITHIN:
                    break  # someone else spoke, or too late: no longer the same thought
                if later.id not in seen:
                    seen.add(later.id)
                    out.append((later, f"live #{room} (follow-up of {excerpt.id})"))
                    added += 1
                if added == MAX_FOLLOW_UPS:
                    break
        if room in named:
            for latest in reversed(messages[-LATEST_WHEN_NAMED:]):
                if latest.id not in seen:
                    seen.add(latest.id)
                    out.append((latest, f"live #{room} (latest; the message names the room)"))
    return out
