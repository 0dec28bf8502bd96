"""Fusing dense and sparse rankings into one, and the text a memory is indexed under.

Fusion runs here rather than in the engine because callers need each signal's own score:
the pre-hook applies a floor per signal and explains why a memory was chosen.

Weights were chosen on the LoCoMo dev split (``benchmarks/locomo.py``, see
``docs/benchmarks.md``): BM25 is the stronger signal on conversational memories, and an
unweighted RRF (k=60) of the two loses to BM25 alone. The boosts were chosen by
leave-one-conversation-out on it (``benchmarks/locomo.py --cv``): picked on four
conversations, measured on the fifth, recall_any@10 on turns is 0.829 cross-validated
(0.814 with the former boosts, subject +0.3 and time +0.5).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import itemgetter
import calendar
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, Sequence

from langgraph_memory.store.backends import Hit

DENSE_WEIGHT = 0.4
SPARSE_WEIGHT = 0.6
SUBJECT_BOOST = 1.5
"""A memory tagged with a subject the query names scores this much higher (x2.5): who a
question is about is the strongest hint of where its answer was said."""
TIME_BOOST = 5.0
"""A memory created within a time the query names ("in May 2023", "last week") scores
this much higher (x6): a named time nearly filters, yet a strong match from outside the
window can still rank (people date events loosely)."""
DAY_SLACK = timedelta(days=7)
"""A named day matches memories this close to it: people date events loosely."""
YEARS_BACK = 5
"""A month or day named without a year is looked for in this many past years."""
MAX_QUERY_TERMS = 64
_WORD = re.compile(r"\w+")


@dataclass(slots=True)
class Fused:
    hit: Hit
    score: float
    dense_score: float | None = None
    sparse_score: float | None = None


def weighted_fusion(
    dense: Sequence[Hit],
    sparse: Sequence[Hit],
    *,
    dense_weight: float | None = None,
    sparse_weight: float | None = None,
    boost: Callable[[Hit], float] | None = None,
    max_boost: float = 1.0,
    limit: int | None = None,
) -> list[Fused]:
    """Weighted sum of each signal's score relative to that signal's best, in [0, 1].

    Unlike RRF this keeps how far apart two candidates are: a BM25 hit sharing a rare
    name with the query is not levelled with one sharing a common word. A memory missing
    from a list counts 0 for that signal. ``boost(hit)`` multiplies a memory's score (e.g.
    1.3 when it is tagged with a subject the query names); scores are then divided by
    ``max_boost``, the largest multiplier possible, to stay within [0, 1]. The lists may
    hold the same memory more than once (e.g. from filtered and unfiltered queries).
    The weights default to :data:`DENSE_WEIGHT` and :data:`SPARSE_WEIGHT`, read at each
    call (``benchmarks/locomo.py --cv`` varies them). Best first (equal scores in the order
    the lists first give them); with ``limit``, the best ``limit`` only.
    """
    dense_weight = DENSE_WEIGHT if dense_weight is None else dense_weight
    sparse_weight = SPARSE_WEIGHT if sparse_weight is None else sparse_weight
    # Per memory ``[hit, dense score, sparse score]`` (a list costs less than a ``Fused``,
    # and a search builds one ``Fused`` per winner only: ~40 candidates, 20 winners).
    rows: dict[str, list[Any]] = {}
    top_dense = max([h.score for h in dense], default=0.0)
    top_sparse = max([h.score for h in sparse], default=0.0)
    known = rows.get
    for hit in dense:
        i = hit.point.id
        row = known(i)
        if row is None:
            rows[i] = [hit, hit.score, None]
        else:
            row[1] = hit.score
            if row[0].point.dense is None:
                row[0] = hit
    for hit in sparse:
        i = hit.point.id
        row = known(i)
        if row is None:
            rows[i] = [hit, None, hit.score]
        else:
            row[2] = hit.score
    total = (dense_weight + sparse_weight) * max(max_boost, 1.0) or 1.0
    by_dense, by_sparse = top_dense > 0, top_sparse > 0
    scored: list[tuple[float, list[Any]]] = []
    # The sum below is the docstring's, term for term and in the same order (the same
    # floats), without a call per term.
    for row in rows.values():
        score = 0.0
        hit, d, s = row
        if by_dense and d is not None:
            score += dense_weight * (0.0 if d < 0.0 else d) / top_dense  # max(d, 0.0)
        if by_sparse and s is not None:
            score += sparse_weight * s / top_sparse
        if boost is not None:
            score *= boost(hit)
        scored.append((score / total, row))
    scored.sort(key=_FIRST, reverse=True)  # stable: equal scores keep the lists' order
    return [Fused(row[0], score, row[1], row[2]) for score, row in (scored if limit is None else scored[:limit])]


_FIRST = itemgetter(0)


def query_terms(text: str, *, max_terms: int = MAX_QUERY_TERMS) -> tuple[str, ...]:
    """The words and two- and three-word phrases of ``text``, lowercased, in the form
    subjects are stored in; a query names a subject when one of these equals it."""
    # Words first, then pairs, then triples, each in order, each once.
    return tuple(dict.fromkeys(_grams(_WORD.findall(text.lower()))))[:max_terms]


def query_term_set(text: str) -> set[str]:
    """``set(query_terms(text))``: without putting the terms in order when all of them fit
    (a search wants them as a set, once a turn)."""
    words = _WORD.findall(text.lower())
    if 3 * len(words) - 3 <= MAX_QUERY_TERMS:  # words, pairs and triples: none cut
        return set(_grams(words))
    return set(query_terms(text))


def _grams(words: list[str]) -> list[str]:
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:])]
    triples = [f"{a} {b} {c}" for a, b, c in zip(words, words[1:], words[2:])]
    return [*words, *pairs, *triples]


def index_text(content: str, *, subjects: Iterable[str] = (), context: str | None = None) -> str:
    """The text a memory is indexed under for BM25: its content, after the context it came
    with (``remember(context=)``) and optionally its subjects. The content is unchanged.
    (Indexing subjects did not help once searches look for named subjects, so the store
    leaves them out.)"""
    head = ", ".join(subjects)
    text = f"{head}: {content}" if head else content
    return f"{context}\n{text}" if context else text


_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS.update({m: i + 1 for i, m in enumerate(
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()
)})
_MON = "|".join(sorted(_MONTHS, key=len, reverse=True))
_TH = r"(?:st|nd|rd|th|er)?"
# Most specific first: the first pattern that matches wins.
_ABSOLUTE = [
    re.compile(rf"\b(?P<d>\d{{1,2}}){_TH}\s+(?:of\s+)?(?P<m>{_MON})\.?,?\s+(?P<y>\d{{4}})\b", re.I),
    re.compile(rf"\b(?P<m>{_MON})\.?\s+(?P<d>\d{{1,2}}){_TH},?\s+(?P<y>\d{{4}})\b", re.I),
    re.compile(rf"\b(?P<m>{_MON})\.?,?\s+(?P<y>\d{{4}})\b", re.I),
    re.compile(rf"\b(?P<d>\d{{1,2}}){_TH}\s+(?:of\s+)?(?P<m>{_MON})\b", re.I),
    re.compile(rf"\b(?P<m>{_MON})\s+(?P<d>\d{{1,2}}){_TH}\b", re.I),
    # A bare month name only after a preposition: "may" and "march" are also words.
    re.compile(rf"\b(?:in|during|since|by|of|en|depuis)\s+(?P<m>{_MON})\b", re.I),
    re.compile(r"\b(?:in|during|of|en)\s+(?P<y>(?:19|20)\d{2})\b", re.I),
]
_UNITS = {"day": 1, "days": 1, "jour": 1, "jours": 1, "week": 7, "weeks": 7, "semaine": 7,
          "semaines": 7, "month": 30, "months": 30, "mois": 30, "year": 365, "years": 365,
          "an": 365, "ans": 365, "année": 365, "années": 365}
_AGO = re.compile(r"\b(?P<n>\d+|a|an|one|un|une)\s+(?P<u>days?|weeks?|months?|years?)\s+ago\b"
                  r"|\bil y a\s+(?P<n2>\d+|un|une)\s+(?P<u2>jours?|semaines?|mois|ans?|années?)\b", re.I)
# Relative times, looked back from now: (pattern, days back the window starts, days back it
# ends, the words of an ASCII text it can start from).
_RELATIVE = [
    (re.compile(r"\b(today|tonight|this morning|aujourd'?hui|ce matin|ce soir)\b", re.I), 1, 0,
     {"today", "tonight", "this", "aujourd", "aujourdhui", "ce"}),
    (re.compile(r"\b(yesterday|hier)\b", re.I), 2, 0, {"yesterday", "hier"}),
    (re.compile(r"\b(this week|cette semaine)\b", re.I), 7, 0, {"this", "cette"}),
    (re.compile(r"\b(last week|past week|la semaine derni[eè]re)\b", re.I), 14, 0, {"last", "past", "la"}),
    (re.compile(r"\b(recently|lately|récemment|recemment|dernièrement|dernierement)\b", re.I), 14, 0,
     {"recently", "lately", "recemment", "dernierement"}),
    (re.compile(r"\b(this month|ce mois)\b", re.I), 31, 0, {"this", "ce"}),
    (re.compile(r"\b(last month|past month|le mois dernier)\b", re.I), 62, 0, {"last", "past", "le"}),
    (re.compile(r"\b(this year|cette année)\b", re.I), 366, 0, {"this", "cette"}),
    (re.compile(r"\b(last year|past year|l'an dernier|l'année dernière)\b", re.I), 2 * 366, 0, {"last", "past", "l"}),
]
_MONTH_WORDS = frozenset(m for m in _MONTHS if m.isascii())
"""In an ASCII text, the :data:`_ABSOLUTE` patterns but the last match a month name that is a
whole word of it (each has a boundary, a space or a dot on both sides): none, none of them."""
_AGO_WORDS = {"ago", "il"}


_TIME_WORDS = _MONTH_WORDS | _AGO_WORDS | frozenset().union(*(words for *_, words in _RELATIVE))
"""The words one of the patterns above starts from in an ASCII text (a month, "ago",
"il y a", the first word of a relative time); the others need a digit."""
_DIGIT = re.compile(r"\d")


def _names_no_time(text: str) -> bool:
    """Whether ``text`` surely names no time: ASCII (where ignoring case is plain ASCII
    case), no digit and none of :data:`_TIME_WORDS`. Most messages; trying every
    pattern on one costs ~35 µs, this ~3 µs."""
    return text.isascii() and not _DIGIT.search(text) and _TIME_WORDS.isdisjoint(_WORD.findall(text.lower()))


def _day_window(year: int, month: int, day: int) -> tuple[datetime, datetime] | None:
    try:
        centre = datetime(year, month, day, tzinfo=timezone.utc)
    except ValueError:
        return None
    return centre - DAY_SLACK, centre + timedelta(days=1) + DAY_SLACK


def _month_window(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=timezone.utc)
    days = calendar.monthrange(year, month)[1]
    return start, start + timedelta(days=days)


def time_windows(text: str, *, now: datetime) -> list[tuple[datetime, datetime]]:
    """Time ranges a query names, English or French: dates ("on 3 June, 2023", "in May
    2023", "in March"), and times relative to ``now`` ("yesterday", "last week",
    "recently", "3 weeks ago"). Empty when it names none. No LLM: a few patterns."""
    if _names_no_time(text):
        return []
    # In an ASCII text, a pattern none of whose first words is a word of the text cannot
    # match: it is not tried (each costs 1-8 µs on a question).
    return _scan(text, now, set(_WORD.findall(text.lower())) if text.isascii() else None)


def _scan(text: str, now: datetime, words: set[str] | None) -> list[tuple[datetime, datetime]]:
    """:func:`time_windows` by its patterns; with ``words`` (the lowercased words of an ASCII
    ``text``), only the patterns that can start from one of them."""
    windows: list[tuple[datetime, datetime]] = []
    months = words is None or not _MONTH_WORDS.isdisjoint(words)
    for pattern in _ABSOLUTE if months else _ABSOLUTE[-1:]:  # else the year pattern alone can match
        for m in pattern.finditer(text):
            g = m.groupdict()
            month = _MONTHS.get((g.get("m") or "").lower())
            years = [int(g["y"])] if g.get("y") else list(range(now.year, now.year - YEARS_BACK, -1))
            for year in years:
                if month and g.get("d"):
                    window = _day_window(year, month, int(g["d"]))
                elif month:
                    window = _month_window(year, month)
                else:
                    window = (datetime(year, 1, 1, tzinfo=timezone.utc), datetime(year + 1, 1, 1, tzinfo=timezone.utc))
                if window is not None:
                    windows.append(window)
        if windows:
            break
    for m in _AGO.finditer(text) if words is None or not _AGO_WORDS.isdisjoint(words) else ():
        raw = (m.group("n") or m.group("n2") or "1").lower()
        n = int(raw) if raw.isdigit() else 1
        unit = _UNITS[(m.group("u") or m.group("u2")).lower()]
        centre = now - timedelta(days=n * unit)
        slack = timedelta(days=max(1, unit // 2) if unit > 1 else 1)
        windows.append((centre - slack, centre + slack))
    for pattern, start, end, starts in _RELATIVE:
        if (words is None or not starts.isdisjoint(words)) and pattern.search(text):
            windows.append((now - timedelta(days=start), now - timedelta(days=end) + timedelta(minutes=1)))
    return windows
