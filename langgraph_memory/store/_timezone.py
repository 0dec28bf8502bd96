"""The time zone room excerpts, digests and schedules use unless told: the machine's own.

``LANGGRAPH_MEMORY_TIMEZONE`` (an IANA name such as ``Europe/Paris``) overrides it, e.g. on
a server kept in UTC whose users live elsewhere. Read at each use, not at import.
"""

from __future__ import annotations

import os

ENV_TIMEZONE = "LANGGRAPH_MEMORY_TIMEZONE"


def local_timezone() -> str:
    """``$LANGGRAPH_MEMORY_TIMEZONE``, else the machine's zone (``tzlocal``), else ``UTC``."""
    named = os.environ.get(ENV_TIMEZONE, "").strip()
    if named:
        return named
    try:
        from tzlocal import get_localzone_name

        return get_localzone_name() or "UTC"
    except Exception:  # no tzlocal, or a machine whose zone has no IANA name
        return "UTC"
