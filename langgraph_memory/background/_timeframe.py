"""Normalisation helpers of preference capture (rule-based, EN and FR): when a plan is for
(an ISO date or ``ongoing``), what a statement is about (its topic, canonical so that two
statements about one thing share a key), its action verb, and the entities it names."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

__all__ = ["resolve_timeframe", "topic_of", "next_weekday", "valid_timeframe"]

_FLAGS = re.IGNORECASE | re.UNICODE
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_WEEKDAYS.update({d: i for i, d in enumerate("lundi mardi mercredi jeudi vendredi samedi dimanche".split())})
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m: i + 1 for i, m in enumerate(
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split())})
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))

# Things people state tastes about, by category: two statements on one category share a
# key, so "I now prefer coffee" replaces "I prefer tea to coffee".
TOPICS: dict[str, tuple[str, ...]] = {
    "drinks": ("tea", "coffee", "thé", "café", "wine", "vin", "beer", "bière", "juice", "jus", "water", "eau"),
    "food": ("food", "cuisine", "pasta", "sushi", "pizza", "cheese", "fromage", "meat", "viande", "gluten",
             "peanuts", "arachides", "cilantro", "fish", "poisson", "dairy"),
    "music": ("music", "musique", "jazz", "rock", "classical", "classique"),
    "movies": ("movie", "movies", "film", "films", "cinema", "cinéma"),
    "communication": ("email", "e-mail", "phone", "call", "calls", "appels", "messages", "sms", "slack"),
    "answers": ("answer", "answers", "replies", "réponds", "réponses", "french", "english", "anglais", "français"),
    "schedule": ("morning", "matin", "evening", "soir", "weekend", "week-end", "meetings", "réunions", "9am", "heures"),
    "travel": ("travel", "voyager", "flights", "plane", "train", "avion"),
    "budget": ("budget", "euros", "dollars"),
}
_STOP = set("""a an the to of in on at for my your and or but i i'm me we it is be with by this that
le la les un une des de du d l au aux à en et ou je j me m mon ma mes ce cette qu que pour sur""".split())
_VERB_FR = re.compile(r"\b(\w+(?:er|ir|re))\b", _FLAGS)
_INTENT_LEAD = re.compile(
    r"(remind me to|remember to|don'?t let me forget to|rappelle-moi d[e']|n'oublie pas de( me)?|"
    r"plan(?:ning)? to|intend to|going to|gonna|want to|need to|will|'ll|decided to|d[ée]cid\w* d(?:e\s|')|"
    r"(?:'d|would) like to|(?:aimerais|aimerions|voudrais|voudrions)\s|(?:i'm|i am|we're|we are)\s+(?=\w+ing)|"
    r"compte|vais|veux|pr[ée]vois de|intention de|objectif est de|goal is to|il faut que je)\s*", _FLAGS)
_WORD = re.compile(r"[\w'-]+", _FLAGS)


def next_weekday(now: datetime, weekday: int) -> date:
    """The next ``weekday`` (0 = Monday) strictly after ``now``'s date."""
    ahead = (weekday - now.weekday() - 1) % 7 + 1
    return (now + timedelta(days=ahead)).date()


_SEASONS = {"spring": 3, "printemps": 3, "summer": 6, "été": 6, "ete": 6, "autumn": 9, "fall": 9, "automne": 9,
            "winter": 12, "hiver": 12}
"""The first month of each season (meteorological seasons: three whole months each)."""
_SEASON = "|".join(sorted(_SEASONS, key=len, reverse=True))
_BEFORE = r"before|by|until|till|avant|d'ici|jusqu'[àa]"
_AFTER = r"after|après|apres|from|starting|à partir de|a partir de|dès|des"
_NEXT = r"next|prochain|prochaine"
_ART = r"(?:the\s+|l'|le\s+|la\s+|au\s+|en\s+|cet\s+|ce\s+|this\s+|in\s+|mid-?)?"


def _months_ahead(now: date, month: int, *, strictly_next: bool = False) -> int:
    """The year of the next ``month`` (this year's if it has not ended, or has not begun
    with ``strictly_next``)."""
    if month > now.month or (month == now.month and not strictly_next):
        return now.year
    return now.year + 1


def _span(year: int, first_month: int, months: int) -> tuple[date, date]:
    start = date(year, first_month, 1)
    last_month = first_month + months - 1
    end_year, end_month = year + (last_month - 1) // 12, (last_month - 1) % 12 + 1
    return start, date(end_year, end_month, calendar.monthrange(end_year, end_month)[1])


def _period(low: str, now: date) -> tuple[date, date, str] | None:
    """The month or season ``low`` names (with its year, or the next one to come), and
    the relation word before it (``before`` / ``after`` / ``in``)."""
    m = re.search(rf"\b(?:({_BEFORE}|{_AFTER})\s+)?{_ART}(?:({_NEXT})\s+)?({_MON}|{_SEASON})(?:[\s-]+({_NEXT}))?"
                  rf"(?:\s+(20\d\d))?\b", low)
    if not m:
        return None
    relation, name, year = m.group(1) or "", m.group(3), m.group(5)
    if m.group(0).strip() == name and name in ("may", "march"):
        return None  # "I may go", "we march": verbs, unless a word before makes them months
    strictly_next = bool(m.group(2) or m.group(4))
    if name in _MONTHS:
        first, months = _MONTHS[name], 1
    else:
        first, months = _SEASONS[name], 3
        if first == 12 and now.month <= 2 and not strictly_next:
            first_year = now.year - 1  # this winter began last December
            return (*_span(first_year, first, months), relation) if not year else (*_span(int(year), first, months), relation)
    if year:
        when = int(year)
    elif months == 3:
        start, end = _span(now.year, first, months)
        when = now.year if (now <= end and not strictly_next) or now < start else now.year + 1
    else:
        when = _months_ahead(now, first, strictly_next=strictly_next)
    start, end = _span(when, first, months)
    return start, end, relation


def resolve_timeframe(text: str, now: datetime) -> str:
    """When a plan is for, as ISO 8601, or ``ongoing``: a day (``2026-11-27``: weekdays,
    the next one; today / tonight, tomorrow, this weekend, next week / month, "March 3" /
    "3 mars"), or an interval ``start/end`` for a month, a season (meteorological: spring
    is March to May) or a year ("in June", "en août", "next spring", "au printemps
    prochain", "in 2027"), open-ended for "before" / "after" ("avant mars" is
    ``../2027-02-28``, "after the summer" ``2026-09-01/..``)."""
    low = text.lower()
    for name, index in _WEEKDAYS.items():
        if re.search(rf"\b{name}\b", low):
            return next_weekday(now, index).isoformat()
    if re.search(r"\b(today|tonight|aujourd'?hui|ce soir)\b", low):
        return now.date().isoformat()
    if re.search(r"\b(tomorrow|demain)\b", low):
        return (now + timedelta(days=1)).date().isoformat()
    if re.search(r"\b(this weekend|ce week-end|ce weekend)\b", low):
        return next_weekday(now - timedelta(days=1), 5).isoformat()
    if re.search(r"\b(next week|la semaine prochaine)\b", low):
        return (now + timedelta(days=7)).date().isoformat()
    if re.search(r"\b(next month|le mois prochain)\b", low):
        first = (now.replace(day=1) + timedelta(days=32)).replace(day=1)
        return first.date().isoformat()
    m = re.search(rf"\b(?:({_MON})\s+(\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})(?:er)?\s+({_MON}))\b", low)
    if m:
        month = _MONTHS[m.group(1) or m.group(4)]
        day = int(m.group(2) or m.group(3))
        try:
            when = date(now.year, month, day)
        except ValueError:
            return "ongoing"
        return (when if when >= now.date() else when.replace(year=now.year + 1)).isoformat()
    period = _period(low, now.date())
    if period is not None:
        start, end, relation = period
        if re.fullmatch(_BEFORE, relation):
            # "by June" includes June; "before June" ends the day before it starts.
            last = end if relation in ("by", "until", "till", "d'ici", "jusqu'à", "jusqu'a") else start - timedelta(days=1)
            return f"../{last.isoformat()}"
        if re.fullmatch(_AFTER, relation):
            first = start if relation not in ("after", "après", "apres") else end + timedelta(days=1)
            return f"{first.isoformat()}/.."
        return f"{start.isoformat()}/{end.isoformat()}"
    m = re.search(r"\b(?:(next year|l'année prochaine|l'an prochain)|(?:in|en)\s+(20\d\d))\b", low)
    if m:
        year = now.year + 1 if m.group(1) else int(m.group(2))
        return f"{date(year, 1, 1).isoformat()}/{date(year, 12, 31).isoformat()}"
    return "ongoing"


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


def _entities(text: str) -> list[str]:
    """Capitalised words after the first, i.e. names (Lina, Lisbon, Marc)."""
    words = _WORD.findall(text)
    return list(dict.fromkeys(w for w in words[1:] if w[:1].isupper() and w.lower() not in _STOP
                              and w.lower() not in _WEEKDAYS and w.lower() not in _MONTHS))


def topic_of(text: str, label: str, cue: str) -> tuple[str, str, list[str]]:
    """``(topic, action, entities)`` of a statement. Tastes and restrictions take the
    category of the first thing they name (:data:`TOPICS`), else its first content words;
    plans take their action and object ("call lina")."""
    entities = _entities(text)
    words = [w.lower().strip("'") for w in _WORD.findall(text)]
    if label == "intent":
        lead = _INTENT_LEAD.search(text)
        rest = text[lead.end():] if lead else text
        tokens = [w.lower() for w in _WORD.findall(rest)]
        tokens = [t for t in tokens if t not in _STOP and t not in _WEEKDAYS and t not in _MONTHS and t not in _SEASONS
                  and t not in ("tomorrow", "demain", "today", "tonight", "next", "week", "month", "prochain",
                                "prochaine", "before", "after", "avant", "après", "by", "this", "year")]
        action = tokens[0] if tokens else "plan"
        decided = bool(re.search(r"decid|décid", cue + " " + text, _FLAGS))
        return (" ".join(tokens[:2]) or "plan"), ("decide" if decided else action), entities
    for topic, names in TOPICS.items():
        if any(n in words for n in names):
            return topic, _action(cue), entities
    after = text.lower().split(cue.lower(), 1)[-1] if cue else text.lower()
    content = [w for w in _WORD.findall(after) if w.lower() not in _STOP][:2]
    return (" ".join(w.lower() for w in content) or "general"), _action(cue), entities


def _action(cue: str) -> str:
    low = cue.lower()
    for stem, verb in (("prefer", "prefer"), ("préf", "prefer"), ("pref", "prefer"), ("hate", "hate"),
                       ("détest", "hate"), ("dislike", "dislike"), ("avoid", "avoid"), ("évit", "avoid"),
                       ("love", "love"), ("ador", "love"), ("like", "like"), ("aim", "like"),
                       ("allerg", "avoid"), ("never", "avoid"), ("jamais", "avoid")):
        if stem in low:
            return verb
    return low.split()[0] if low.split() else "state"
