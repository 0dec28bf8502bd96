"""The cheap half of preference capture, English and French: a lexical filter that lets
through only messages carrying a cue (prefer, like, want, plan, avoid, never, "remind
me", "je préfère", "on a décidé", ...), and the offline rule-based classifier.

The classifier's rules, in order (``tests/data/preference_messages.jsonl`` measures them):

1. A question (``?``, or opening like one) is ``neutral``: asking is not stating.
2. The cue must be the user's own: a first-person subject (I, we, je, j', on, nous) in
   the few words before it, "my favourite / goal / budget", or an imperative addressed to
   the assistant (remind me, always answer, rappelle-moi, ne m'appelle jamais). "My
   sister loves horses" and "Paul préfère le thé" are facts about others: ``neutral``.
3. The category comes from the cue: restrictions (allergic, avoid, never/always as a
   directive, don't eat, can't, budget) are ``constraint``; plans and commitments
   (remind me, plan, intend, going to, will, want to + verb, decided, goal) ``intent``;
   tastes (prefer, like, love, hate, favourite, rather) ``preference``.
4. Confidence: 0.9 for explicit cues (prefer, remind me, allergic), 0.75 for the rest,
   0.6 for weak ones (will, need to, want without a verb).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["passes_filter", "rule_classify", "RuleVerdict"]

_FLAGS = re.IGNORECASE | re.UNICODE

# Everything a positive message may carry; anything else never reaches a classifier.
_CUES = re.compile(
    r"\b(prefer\w*|like[sd]?|love[sd]?|hate[sd]?|enjoy\w*|adore[sd]?|dislike[sd]?|can'?t stand|"
    r"favou?rite|fan of|rather|want\w*|plan\w*|intend\w*|going to|gonna|goal|decid\w*|need to|"
    r"will|'ll|avoid\w*|allergic|never|always|don'?t eat|can'?t|cannot|budget|remind me|"
    r"remember to|don'?t let me forget|"
    r"pr[ée]f[èée]r\w*|aim\w*|ador\w*|d[ée]test\w*|kiff\w*|fan de|veu[xt]|voudrais|compt\w*|"
    r"pr[ée]vo\w*|intention|objectif|d[ée]cid\w*|vais|il faut que|[ée]vit\w*|[ée]viter|allergique|"
    r"jamais|toujours|ne mange pas|peux pas|budget|rappelle|n'oublie pas)\b",
    _FLAGS,
)

_QUESTION_START = re.compile(
    r"^\s*(what|which|who|why|how|when|where|do|does|did|can|could|would|is|are|should|"
    r"quel\w*|qui|pourquoi|comment|quand|o[ùu]|est-ce|peux-tu|tu |combien|qu'est)\b",
    _FLAGS,
)
_FIRST_PERSON = {"i", "i'm", "i've", "i'd", "i'll", "we", "we've", "we're", "we'd", "je", "j", "on", "nous", "me", "m"}
_OWN = re.compile(
    r"\b(my|mon|ma|mes)\s+(\w+\s+)?(favou?rite|goal|budget|objective|objectif|pr[ée]f[ée]r[ée]e?s?)\b", _FLAGS)
_IMPERATIVE = re.compile(
    r"(^|[.,;!]\s*)(please\s+)?(remind me|remember to|don'?t let me forget|always|never|"
    r"rappelle-moi|n'oublie pas|r[ée]ponds-moi|ne m'appelle|toujours|jamais)\b",
    _FLAGS,
)

_CONSTRAINT = re.compile(
    r"\b(allergic|allergique|avoid\w*|[ée]vit\w*|don'?t eat|ne mange pas|can'?t(?! stand)|cannot|"
    r"peux pas|budget|never|jamais|always|toujours)\b", _FLAGS)
_INTENT = re.compile(
    r"\b(remind me|remember to|don'?t let me forget|rappelle|n'oublie pas|plan\w*|intend\w*|"
    r"intention|going to|gonna|will|'ll|goal|objectif|decid\w*|d[ée]cid\w*|need to|il faut que je|"
    r"want(s)? to|veu[xt] \w+(?:er|ir|re)\b|compt\w* \w+|pr[ée]vo\w*|vais \w+)\b", _FLAGS)
_PREFERENCE = re.compile(
    r"\b(prefer\w*|like[sd]?|love[sd]?|hate[sd]?|enjoy\w*|adore[sd]?|dislike[sd]?|can'?t stand|"
    r"favou?rite|fan of|rather|pr[ée]f[èée]r\w*|aim\w*|ador\w*|d[ée]test\w*|kiff\w*|fan de|want\w*|veu[xt])\b",
    _FLAGS)
_STRONG = re.compile(r"\b(prefer\w*|pr[ée]f[èe]r\w*|remind me|rappelle|allergic|allergique|favou?rite|d[ée]cid\w*|decid\w*)\b", _FLAGS)
_WEAK = re.compile(r"\b(will|'ll|need to|want|veux)\b", _FLAGS)
_NEGATIVE = re.compile(
    r"\b(hate[sd]?|dislike[sd]?|can'?t stand|don'?t like|avoid\w*|never|d[ée]test\w*|n'aime pas|"
    r"[ée]vit\w*|jamais|allergic|allergique)\b", _FLAGS)
_WORD = re.compile(r"[\w']+", _FLAGS)


def passes_filter(text: str) -> bool:
    """Whether ``text`` carries a cue worth classifying; cheap (one regular expression)."""
    return bool(_CUES.search(text))


@dataclass(frozen=True)
class RuleVerdict:
    label: str
    confidence: float
    sentiment: str
    cue: str | None


def _first_person_before(text: str, start: int, window: int = 5) -> bool:
    words = [w.lower().strip("'") for w in _WORD.findall(text[:start])][-window:]
    words = [w.split("'")[0] if "'" in w else w for w in words]
    return any(w in _FIRST_PERSON for w in words)


def _owned(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The first match of ``pattern`` the user owns (first person before it, or an
    imperative / "my favourite" at it)."""
    for m in pattern.finditer(text):
        own_words = {w.lower().split("'")[0] for w in _WORD.findall(m.group(0))}
        if (_first_person_before(text, m.start()) or own_words & _FIRST_PERSON
                or _IMPERATIVE.search(text) or _OWN.search(text)):
            return m
    return None


def rule_classify(text: str) -> RuleVerdict:
    """The offline classifier: ``preference`` / ``intent`` / ``constraint`` / ``neutral``
    with a confidence, following the module's rules."""
    stripped = text.strip()
    if not stripped or stripped.endswith("?") or _QUESTION_START.match(stripped):
        return RuleVerdict("neutral", 0.9, "neutral", None)
    found: tuple[str, re.Match[str]] | None = None
    pref = _owned(stripped, _PREFERENCE)
    for label, pattern in (("constraint", _CONSTRAINT), ("intent", _INTENT), ("preference", _PREFERENCE)):
        m = pref if label == "preference" else _owned(stripped, pattern)
        if m is None:
            continue
        # "I don't like" is a taste, not a restriction; "can't stand" likewise.
        if label == "constraint" and pref is not None and pref.start() < m.start() and not _IMPERATIVE.match(stripped):
            continue
        # "I want to learn" is a plan; "I want a quiet room" a taste.
        if label == "intent" and pref is not None and pref.start() < m.start() and not re.search(
            r"(want|veu[xt]|compt\w*|vais)\s", m.group(0) + " ", _FLAGS) and "to" not in m.group(0):
            continue
        found = (label, m)
        break
    if found is None:
        return RuleVerdict("neutral", 0.8, "neutral", None)
    label, m = found
    cue = m.group(0)
    confidence = 0.9 if _STRONG.search(stripped) else 0.6 if _WEAK.fullmatch(cue) else 0.75
    if label == "intent":
        sentiment = "neutral"
    else:
        sentiment = "negative" if _NEGATIVE.search(stripped) else "positive"
    return RuleVerdict(label, confidence, sentiment, cue)
