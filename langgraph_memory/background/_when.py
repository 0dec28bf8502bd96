"""When a plan is for, relative to the message's time, English and French: an ISO date
(``2026-11-27``), an ISO interval (``2027-06-01/2027-06-30``), open with ``..`` after a
start ("after New Year" is ``2027-01-02/..``), or ``ongoing``.

Each kind of time expression is one detector, tried in order; the first that matches
gives the period, and the word before it (or around it) gives the relation:

* ``before`` / ``avant``: from today to the day before the period;
* ``by`` / ``until`` / ``d'ici`` / ``jusqu'à``: from today to the period's end;
* ``after`` / ``après`` / "once the summer is over" / "une fois l'hiver passé": from the
  day after the period, open;
* ``from`` / ``starting`` / ``à partir de`` / ``dès``: a day stays that day, a longer
  period opens at its start;
* none: the period itself.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from typing import Callable

__all__ = ["next_weekday", "resolve_timeframe", "valid_timeframe"]

_FLAGS = re.IGNORECASE | re.UNICODE
WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
WEEKDAYS.update({d: i for i, d in enumerate("lundi mardi mercredi jeudi vendredi samedi dimanche".split())})
_DAY = "|".join(WEEKDAYS)
MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
MONTHS.update({m: i + 1 for i, m in enumerate(
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split())})
MONTHS.update({"fevrier": 2, "aout": 8, "decembre": 12})
_MON = "|".join(sorted(MONTHS, key=len, reverse=True))
SEASONS = {"spring": 3, "printemps": 3, "summer": 6, "été": 6, "ete": 6, "autumn": 9, "fall": 9, "automne": 9,
           "winter": 12, "hiver": 12}
"""The first month of each season (meteorological seasons: three whole months each)."""
_SEASON = "|".join(sorted(SEASONS, key=len, reverse=True))
_NEXT = r"next|prochain|prochaine"
_ART = r"(?:the\s+|l'|le\s+|la\s+|au\s+|en\s+|cet\s+|ce\s+|this\s+|in\s+|(?:month of|mois de|mois d')\s*)*"
_COUNTS = {"a": 1, "an": 1, "one": 1, "un": 1, "une": 1, "a couple of": 2, "two": 2, "deux": 2, "three": 3, "trois": 3,
           "four": 4, "quatre": 4, "five": 5, "cinq": 5, "six": 6, "seven": 7, "sept": 7, "eight": 8, "huit": 8,
           "nine": 9, "neuf": 9, "ten": 10, "dix": 10, "fifteen": 15, "quinze": 15, "twenty": 20, "vingt": 20}
_COUNT = "|".join(sorted(_COUNTS, key=len, reverse=True))
_ORDINALS = {"first": 1, "premier": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "ninth": 9, "tenth": 10}
_ORD = "|".join(_ORDINALS)

_RELATION = re.compile(
    r"(?:^|\s)(before|avant|by|until|till|d'ici|jusqu'[àa]|after|apr[èe]s|once|une fois|from|starting|as of|"
    r"[àa] partir d[eu']|d[èe]s)\s*(?:(?:the|le|la|les|l'|du|de|on|au)\s*)*$", _FLAGS)
_OVER = re.compile(r"^\s*(?:is|are)?\s*(?:over|done|finished|past|passée?s?|terminée?s?|finie?s?)\b", _FLAGS)

Period = tuple[date, date, int, int]
"""A period's first and last day, and where its expression starts and ends in the text."""


def next_weekday(now: datetime, weekday: int) -> date:
    """The next ``weekday`` (0 = Monday) strictly after ``now``'s date."""
    ahead = (weekday - now.weekday() - 1) % 7 + 1
    return (now + timedelta(days=ahead)).date()


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _span(year: int, first_month: int, months: int) -> tuple[date, date]:
    last_month = first_month + months - 1
    end_year, end_month = year + (last_month - 1) // 12, (last_month - 1) % 12 + 1
    return date(year, first_month, 1), _month_end(end_year, end_month)


def _add_months(day: date, months: int) -> date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _next_date(today: date, month: int, day: int) -> date | None:
    """The next ``day`` of ``month`` from ``today`` on (this year's, else next year's)."""
    for year in (today.year, today.year + 1):
        try:
            when = date(year, month, day)
        except ValueError:
            return None
        if when >= today:
            return when
    return None


def _relative(low: str, today: date) -> Period | None:
    """"in two weeks", "dans trois jours", "within a month", "d'ici quinze jours"."""
    low = re.sub(r"\b(a fortnight|une quinzaine)\b", "two weeks", low)
    m = re.search(rf"\b(?:in|within|dans|d'ici)\s+({_COUNT}|\d{{1,3}})\s+(days?|weeks?|fortnights?|months?|years?|jours?|"
                  r"semaines?|mois|ans?|ann[ée]es?)\b", low)
    if not m:
        m = re.search(rf"\b({_COUNT}|\d{{1,3}})\s+(days?|weeks?|months?)\s+from (?:now|today)\b", low)
    if not m:
        return None
    count = int(m.group(1)) if m.group(1).isdigit() else _COUNTS[m.group(1)]
    unit = m.group(2)
    if unit.startswith(("jour", "day")):
        when = today + timedelta(days=14 if count == 15 and unit.startswith("jour") else count)
    elif unit.startswith("fortnight"):
        when = today + timedelta(weeks=2 * count)
    elif unit.startswith(("week", "semaine")):
        when = today + timedelta(weeks=count)
    elif unit.startswith(("month", "mois")):
        when = _add_months(today, count)
    else:
        when = _add_months(today, 12 * count)
    if re.match(r"(?:within|d'ici)\b", m.group(0)):
        return today, when, m.start(), m.end()
    return when, when, m.start(), m.end()


def _period_end(low: str, today: date) -> Period | None:
    """"the end of the month", "la fin de l'année", "this week", "next month", "next year"."""
    m = re.search(r"\b(?:the\s+)?end of (?:the\s+|this\s+)?(week|month|year)\b|"
                  r"\bfin (?:de la |du |de l'|d')(semaine|mois|ann[ée]e)\b", low)
    if m:
        unit = (m.group(1) or m.group(2))[:4]
        if unit in ("week", "sema"):
            end = today + timedelta(days=6 - today.weekday())
        elif unit in ("mont", "mois"):
            end = _month_end(today.year, today.month)
        else:
            end = date(today.year, 12, 31)
        return today, end, m.start(), m.end()
    m = re.search(r"\b(?:(this week|cette semaine)|(next week|la semaine prochaine)|(this month|ce mois-ci)|"
                  r"(next month|le mois prochain)|(this year|cette ann[ée]e)|(next year|l'an prochain|l'ann[ée]e prochaine)|"
                  r"(?:in|en)\s+(20\d\d))\b", low)
    if not m:
        return None
    monday = today - timedelta(days=today.weekday())
    first_next = _add_months(today.replace(day=1), 1)
    spans = [(today, monday + timedelta(days=6)), (monday + timedelta(days=7), monday + timedelta(days=13)),
             (today, _month_end(today.year, today.month)), (first_next, _month_end(first_next.year, first_next.month)),
             (today, date(today.year, 12, 31)), (date(today.year + 1, 1, 1), date(today.year + 1, 12, 31))]
    if m.group(7):
        year = int(m.group(7))
        return date(year, 1, 1), date(year, 12, 31), m.start(), m.end()
    index = next(i for i in range(6) if m.group(i + 1))
    return (*spans[index], m.start(), m.end())


_HOLIDAYS = (
    (r"christmas eve|veille de no[ëe]l|r[ée]veillon de no[ëe]l", 12, 24, 0),
    (r"new year'?s eve|saint-sylvestre|r[ée]veillon du nouvel an", 12, 31, 0),
    (r"christmas(?: day)?|xmas|no[ëe]l", 12, 25, 0),
    (r"new year(?:'?s day)?|nouvel an|jour de l'an", 1, 1, 0),
    (r"the holidays|the holiday season|les f[êe]tes(?: de fin d'ann[ée]e)?", 12, 24, 8),
    (r"halloween", 10, 31, 0),
    (r"valentine'?s day|la saint-valentin", 2, 14, 0),
)


def _thanksgiving(year: int) -> date:
    """The fourth Thursday of November."""
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def _holiday(low: str, today: date) -> Period | None:
    m = re.search(r"\bthanksgiving\b", low)
    if m:
        when = next(d for d in (_thanksgiving(today.year), _thanksgiving(today.year + 1)) if d >= today)
        return when, when, m.start(), m.end()
    for pattern, month, day, length in _HOLIDAYS:
        m = re.search(rf"\b(?:{pattern})\b", low)
        if m:
            start = _next_date(today - timedelta(days=length), month, day)
            if start is not None:
                return start, start + timedelta(days=length), m.start(), m.end()
    return None


def _day_of_month(low: str, today: date) -> Period | None:
    """"March 3", "3 mars", "le 1er décembre", "the first of December", "on the 12th", "le 15"."""
    m = re.search(rf"\b(?:(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th|er)?(?:\s+of)?\s+({_MON})|({_MON})\s+(?:the\s+)?"
                  rf"(\d{{1,2}})(?:st|nd|rd|th)?|(?:the\s+)?({_ORD})\s+(?:of\s+)?({_MON}))\b", low)
    if m:
        month = MONTHS[m.group(2) or m.group(3) or m.group(6)]
        day = int(m.group(1) or m.group(4)) if (m.group(1) or m.group(4)) else _ORDINALS[m.group(5)]
        when = _next_date(today, month, day)
        return (when, when, m.start(), m.end()) if when else None
    m = re.search(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b|\ble\s+(\d{1,2}|1er)\b(?!\s*(?:h\b|heures?|%|€|euros?|km|kilo|"
                  r"minutes?|ans|mois|jours|fois|personnes|[,.]\d))", low)
    if not m:
        return None
    day = int((m.group(1) or m.group(2)).replace("er", ""))
    when = _next_date(today, today.month, day) if day >= today.day else None
    if when is None:
        following = _add_months(today.replace(day=1), 1)
        when = _next_date(following, following.month, day)
    return (when, when, m.start(), m.end()) if when else None


def _weekday(low: str, today: date) -> Period | None:
    """The next named weekday ("on Friday", "jeudi", "next Tuesday"), not a recurring one
    ("on Mondays", "le lundi", "every Friday", "tous les mardis")."""
    for m in re.finditer(rf"\b({_DAY})(s?)\b", low):
        before = low[:m.start()]
        if m.group(2) or re.search(r"\b(?:le|les|every|each|tous les|chaque)\s+$", before):
            continue
        when = next_weekday(datetime(today.year, today.month, today.day), WEEKDAYS[m.group(1)])
        return when, when, m.start(), m.end()
    return None


def _near(low: str, today: date) -> Period | None:
    """Today, tonight, tomorrow, the day after tomorrow, this / next weekend."""
    table = ((r"the day after tomorrow|apr[èe]s-demain", 2, 2), (r"today|tonight|aujourd'hui|ce soir|this evening", 0, 0),
             (r"tomorrow|demain", 1, 1))
    for pattern, first, last in table:
        m = re.search(rf"\b(?:{pattern})\b", low)
        if m:
            return today + timedelta(days=first), today + timedelta(days=last), m.start(), m.end()
    m = re.search(r"\b(?:(this|next|coming) weekend|(ce) week-?end|le week-?end (prochain))\b", low)
    if m:
        saturday = next_weekday(datetime(today.year, today.month, today.day) - timedelta(days=1), 5)
        if today.weekday() == 6:
            saturday = today - timedelta(days=1)
        if (m.group(1) == "next" or m.group(3)) and today.weekday() >= 4:
            saturday += timedelta(days=7)
        return max(saturday, today), saturday + timedelta(days=1), m.start(), m.end()
    return None


def _month_or_season(low: str, today: date) -> Period | None:
    """A month or a season with its year, or the next one to come; "early / mid / late
    March" and "début / mi / fin mars" narrow a month to its third."""
    m = re.search(rf"\b(?:(early|beginning of|the beginning of|début|d[ée]but de|mid|mid-|middle of|the middle of|mi-|"
                  rf"late|the end of|end of|fin|fin de|la fin de)\s*)?{_ART}(?:({_NEXT})\s+)?({_MON}|{_SEASON})"
                  rf"(?:[\s-]+({_NEXT}))?(?:\s+(20\d\d))?\b", low)
    if not m:
        return None
    part, name, year = (m.group(1) or "").strip(), m.group(3), m.group(5)
    if m.group(0).strip() == name and name in ("may", "march"):
        return None  # "I may go", "we march": verbs, unless a word before makes them months
    strictly_next = bool(m.group(2) or m.group(4))
    if name in MONTHS:
        first, months = MONTHS[name], 1
        if year:
            when = int(year)
        else:
            when = today.year if first > today.month or (first == today.month and not strictly_next) else today.year + 1
    else:
        first, months = SEASONS[name], 3
        if year:
            when = int(year)
        elif first == 12 and today.month <= 2 and not strictly_next:
            when = today.year - 1  # this winter began last December
        else:
            start, end = _span(today.year, first, months)
            when = today.year if (today <= end and not strictly_next) or today < start else today.year + 1
    start, end = _span(when, first, months)
    if months == 1 and part:
        third = 0 if part.startswith(("early", "beginning", "the beginning", "début", "debut", "dé")) else \
            1 if part.startswith(("mi", "the middle")) else 2
        start = start + timedelta(days=10 * third)
        end = end if third == 2 else start + timedelta(days=9)
    return start, end, m.start(), m.end()


_DETECTORS: tuple[Callable[[str, date], Period | None], ...] = (
    _relative, _period_end, _holiday, _day_of_month, _weekday, _near, _month_or_season)


def resolve_timeframe(text: str, now: datetime) -> str:
    """When a plan in ``text`` is for, relative to ``now`` (see the module's rules), as an
    ISO date, an ISO interval or ``ongoing``."""
    low = text.lower().replace("’", "'")
    today = now.date()
    for detect in _DETECTORS:
        period = detect(low, today)
        if period is not None:
            return _with_relation(low, today, period)
    return "ongoing"


def _with_relation(low: str, today: date, period: Period) -> str:
    start, end, at, until = period
    relation = _RELATION.search(low[:at])
    word = relation.group(1).lower() if relation else ""
    if word in ("once", "une fois") and not _OVER.match(low[until:]):
        word = ""
    if word in ("before", "avant") and start <= today:
        word = "by"  # "before the end of the month": the period has begun, its end bounds it
    if word in ("before", "avant"):
        last = max(start - timedelta(days=1), today)
        return f"{today.isoformat()}/{last.isoformat()}" if last > today else today.isoformat()
    if word in ("by", "until", "till", "d'ici") or word.startswith("jusqu"):
        return f"{min(today, start).isoformat()}/{end.isoformat()}" if end > today else today.isoformat()
    if word.startswith(("after", "apr", "once", "une fois")):
        return f"{(end + timedelta(days=1)).isoformat()}/.."
    if word and start != end:
        return f"{start.isoformat()}/.."
    return start.isoformat() if start == end else f"{start.isoformat()}/{end.isoformat()}"


def valid_timeframe(value: str) -> str | None:
    """``value`` as a canonical timeframe (``ongoing``, an ISO date, or an ISO interval
    whose ends are dates or ``..``), or ``None`` when it is none of these."""
    value = value.strip().lower()
    if value == "ongoing":
        return value
    ends = value.split("/")
    if len(ends) > 2:
        return None
    parsed = []
    for end in ends:
        if end == ".." and len(ends) == 2:
            parsed.append(end)
            continue
        try:
            parsed.append(date.fromisoformat(end[:10]).isoformat())
        except ValueError:
            return None
    if parsed == ["..", ".."] or (len(parsed) == 2 and ".." not in parsed and parsed[0] > parsed[1]):
        return None
    return "/".join(parsed)
