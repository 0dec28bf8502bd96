"""Normalisation helpers of preference capture (rule-based, EN and FR): when a plan is for
(an ISO date or ``ongoing``), what a statement is about (its topic, canonical so that two
statements about one thing share a key), its action verb, and the entities it names."""

from __future__ import annotations

import re

from langgraph_memory.background._when import MONTHS as _MONTHS
from langgraph_memory.background._when import SEASONS as _SEASONS
from langgraph_memory.background._when import WEEKDAYS as _WEEKDAYS
from langgraph_memory.background._when import next_weekday, resolve_timeframe, valid_timeframe

__all__ = ["resolve_timeframe", "topic_of", "next_weekday", "valid_timeframe"]

_FLAGS = re.IGNORECASE | re.UNICODE
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
