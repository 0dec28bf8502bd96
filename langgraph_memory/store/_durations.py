"""Durations as people and models write them: "7d", "7 days", "1 week", "2 weeks",
"a month", "P7D", "PT12H", "3 mois", "une semaine", "quinze jours".

:func:`duration_seconds` reads one as a number of seconds, or ``None`` when it says
nothing we can read. It is the one reader of durations: :func:`parse_ttl` (every TTL of
every entry point, the memory tools' included) bounds what it reads, :func:`parse_since`
reads a time back from now, and the digest keeps a fact whose TTL it cannot read without one.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import MAX_TTL, check_datetime

__all__ = ["duration_seconds", "parse_since", "parse_ttl", "utcnow"]

_MAX_TTL_CHARS = 64
_TTL_EXAMPLES = "use a number and a unit, e.g. 30m, 1h, 7d, 2w, '7 days', '2 weeks', P7D"
_PERMANENT = {"", "none", "null", "permanent", "never", "forever"}

_FLAGS = re.IGNORECASE | re.UNICODE
_SECONDS = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "seconde": 1, "secondes": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "heure": 3600, "heures": 3600,
    "d": 86400, "day": 86400, "days": 86400, "jour": 86400, "jours": 86400, "j": 86400,
    "w": 7 * 86400, "wk": 7 * 86400, "week": 7 * 86400, "weeks": 7 * 86400, "semaine": 7 * 86400,
    "semaines": 7 * 86400, "sem": 7 * 86400,
    "mo": 30 * 86400, "month": 30 * 86400, "months": 30 * 86400, "mois": 30 * 86400,
    "y": 365 * 86400, "yr": 365 * 86400, "year": 365 * 86400, "years": 365 * 86400, "an": 365 * 86400,
    "ans": 365 * 86400, "année": 365 * 86400, "années": 365 * 86400,
}
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "un": 1, "une": 1, "two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4,
    "quatre": 4, "five": 5, "cinq": 5, "six": 6, "seven": 7, "sept": 7, "eight": 8, "huit": 8, "nine": 9,
    "neuf": 9, "ten": 10, "dix": 10, "fifteen": 15, "quinze": 15, "twenty": 20, "vingt": 20, "thirty": 30,
    "trente": 30, "couple of": 2, "few": 3, "quelques": 3,
}
_UNIT = "|".join(sorted(_SECONDS, key=len, reverse=True))
_AMOUNT = r"\d+(?:[.,]\d+)?|" + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True))
_PHRASE = re.compile(rf"^(?:for\s+|pendant\s+|during\s+|about\s+|environ\s+)?(?:({_AMOUNT})\s*)?({_UNIT})$", _FLAGS)
_ISO = re.compile(r"^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$", _FLAGS)
_ISO_SECONDS = (365 * 86400, 30 * 86400, 7 * 86400, 86400, 3600, 60, 1)


def duration_seconds(text: str) -> float | None:
    """``text`` (one duration, its spaces already collapsed) in seconds; ``None`` when it is
    not a duration we can read. Neither sign nor bounds are checked here."""
    iso = _ISO.fullmatch(text)
    if iso and any(iso.groups()):
        return sum(int(v) * unit for v, unit in zip(iso.groups(), _ISO_SECONDS) if v)
    phrase = _PHRASE.fullmatch(text)
    if phrase is None:
        return None
    amount, unit = phrase.group(1), phrase.group(2).lower()
    if amount is None:
        number = 1.0
    elif amount.lower() in _NUMBER_WORDS:
        number = float(_NUMBER_WORDS[amount.lower()])
    else:
        number = float(amount.replace(",", "."))
    if amount and amount.lower() == "quinze" and unit.startswith("jour"):
        number = 14.0  # "quinze jours" is two weeks
    return number * _SECONDS[unit]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def parse_ttl(ttl: str | timedelta | None) -> timedelta | None:
    """Parse a TTL such as ``"30m"``, ``"1h"``, ``"7d"``, ``"2w"``, or as a person or model
    writes one: ``"7 days"``, ``"1 week"``, ``"P7D"``, ``"3 mois"``, ``"une semaine"``
    (:func:`duration_seconds`).

    ``None`` (or ``"permanent"``) means the memory never expires.

    Raises:
        InvalidMemoryError: the TTL is malformed, zero, negative or longer than a century.
    """
    if ttl is None:
        return None
    if isinstance(ttl, timedelta):
        if ttl <= timedelta(0):
            raise InvalidMemoryError("ttl", "must be positive")
        if ttl > MAX_TTL:
            raise InvalidMemoryError("ttl", f"is longer than {MAX_TTL.days} days")
        return ttl
    if not isinstance(ttl, str):
        raise InvalidMemoryError("ttl", f"expected a string like '7d', got {type(ttl).__name__}")
    if len(ttl) > _MAX_TTL_CHARS:
        raise InvalidMemoryError("ttl", f"is not a duration; {_TTL_EXAMPLES}")
    text = " ".join(ttl.split())
    if text.lower() in _PERMANENT:
        return None
    seconds = duration_seconds(text)
    if seconds is None:
        raise InvalidMemoryError("ttl", f"{ttl!r} is not a duration; {_TTL_EXAMPLES}")
    if seconds > MAX_TTL.total_seconds():
        raise InvalidMemoryError("ttl", f"is longer than {MAX_TTL.days} days")
    seconds = round(seconds)
    if seconds <= 0:
        raise InvalidMemoryError("ttl", "must be positive")
    return timedelta(seconds=seconds)


def parse_since(since: str | timedelta | datetime, *, now: datetime | None = None) -> datetime:
    """A point in time from a duration back from now (``"6h"``, a timedelta) or a datetime."""
    if isinstance(since, datetime):
        return check_datetime("since", since)
    try:
        delta = parse_ttl(since) if isinstance(since, (str, timedelta)) else since
    except InvalidMemoryError as exc:
        raise InvalidMemoryError("since", str(exc).split(": ", 1)[-1]) from None
    if delta is None:
        raise InvalidMemoryError("since", "needs a duration such as '6h'")
    if not isinstance(delta, timedelta):
        raise InvalidMemoryError("since", "expected a duration string, timedelta or datetime")
    return (now or utcnow()) - delta
