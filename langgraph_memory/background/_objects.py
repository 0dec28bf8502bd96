"""What a preference or a restriction is about (its objects), EN and FR, rule-based.

Capture keys a taste or a rule by its objects, not by a coarse topic: "I'm allergic to
peanuts" and "I can't eat gluten" are two rules (objects ``peanut`` and ``gluten``), while
"I prefer tea over coffee" and "actually I now prefer coffee over tea" are one taste that
changed (objects ``tea``, ``coffee`` on both). An object is a short noun phrase: the words
after the cue, past articles, fillers and light verbs ("eat", "boire"), up to the next
preposition or punctuation; a comparison ("over", "rather than", "plutôt que", "prefer X
to Y", "préférer X à Y") names a second object. A limit ("no more than 30 minutes") is
keyed by what it limits and its unit.
"""

from __future__ import annotations

import re

from langgraph_memory.background._idioms import SUBJECT_IDIOM
from langgraph_memory.background._lexicon import _LIMITS

__all__ = ["objects_of", "same_thing"]

_FLAGS = re.IGNORECASE | re.UNICODE
_WORD = re.compile(r"[^\W\d_][\w-]*|\d+(?:[.,]\d+)?", _FLAGS)
_ELISION = re.compile(r"^(?:d|l|j|qu|m|t|s|n|c)['’]", _FLAGS)

# Words that never start or make an object: articles, pronouns, fillers, light verbs.
_SKIP = set("""
a an the some any my your our his her their this that these those it its i i'm me we us you
to of with about for from in on at by into onto as
really actually now also much very quite so just even still always never ever anymore any more no not
don't do does did be is are am was were been being have has had having get gets got getting
eat eating drink drinking take taking use using make making go going do doing own keep
thing things stuff something anything everything one ones kind sort lot lots
le la les un une des de du d l au aux à en y et ou ce cet cette ces c ça cela mon ma mes ton ta tes son sa ses
notre nos votre vos leur leurs je j me m moi tu te toi il elle on nous vous ils elles ne n pas plus jamais que qu
vraiment maintenant aussi beaucoup plutôt toujours trop très bien encore désormais
manger mange boire bois prendre prends utiliser utilise avoir ai as a être suis est faire fais
truc genre chose choses
propose proposer suggest suggère suggérer send envoie envoyer recommend recommande recommander give donne donner
show montre montrer offer offre offrir stay away steer clear can could will won't would should must may might
peux peut veux veut dois doit spend
too either neither non again anymore back fine ok okay funny supporte supportent raffole craque finalement franchement honestly perso bref bon well anyway
horreur faible penchant passion dingue accro fou folle plaît plait ennuie saoule dit rien nerves creeps sucker
""".split())
# Words that stand for an object named earlier in the sentence: "le jazz, ça me plaît",
# "country music, I quite like it now".
_PRONOUNS = {"it", "them", "that", "this", "those", "ça", "ca", "cela", "ce", "ceci", "le", "la", "les", "lui", "en"}
_FAVOURITE = re.compile(
    r"\b(?:my|our)\s+(?:all-time\s+|very\s+)?favou?rite\s+([^\W\d_]+)|"
    r"\b(?:mon|ma|mes|notre|nos)\s+([^\W\d_]+(?:\s+d[eu]\s+[^\W\d_]+)?)\s+pr[ée]f[ée]r[ée]e?s?\b", _FLAGS)
_PREPOSITION = re.compile(r"\b(?:to|of|about|on|for|with|de|du|des|d'|à|au|aux|pour|sur)\s", _FLAGS)
_FIRST = re.compile(r"\b(?:i|i've|i'm|we|je|j'|on|nous)\b|\bj'", _FLAGS)
# Words that end an object once it has begun.
_END = set("""
in on at for from with when because since so but and or especially except than over then if while during
after before until by per a an the to of this that
since until without like per
dans sur pour avec quand parce puisque mais et ou surtout sauf que plutôt pendant après avant jusqu par depuis
chez vers sans sous entre comme
le la les un une des de du d l au aux à en
""".split())
_COMPARE = re.compile(
    r"\b(?:over|rather than|instead of|more than|than|plutôt que|plutôt qu['’]|au lieu d[eu']|à la place d[eu']|"
    r"plus que)\b", _FLAGS)
_PREFER_TO = re.compile(r"\b(?:to|à|au|aux)\b", _FLAGS)
_NUMBER_UNIT = re.compile(r"\d+(?:[.,]\d+)?\s+([^\W\d_]+)|\b(?:deux|trois|two|three|four|five|ten|dix|vingt|trente)\s+([^\W\d_]+)", _FLAGS)
# Cues that say what suits the user, after the thing: "golf isn't for me", "le jazz, pas mon truc".
_SUITS_CUE = re.compile(r"\b(?:thing|jam|cup of tea|truc|genre|kif|for me|pour moi)\b", _FLAGS)


def _singular(word: str) -> str:
    if len(word) > 3 and word[-1] == "s" and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if len(word) > 3 and word.endswith(("aux", "eux")):
        return word[:-1]
    return word


def _tokens(text: str) -> list[str]:
    words = []
    for raw in _WORD.findall(text.replace("’", "'")):
        word = _ELISION.sub("", raw.lower())
        if len(word) > 1 or word.isdigit():
            words.append(word)
    return words


def _phrase(text: str, limit: int = 2) -> str:
    """The first noun phrase of ``text``: up to ``limit`` content words."""
    words: list[str] = []
    for token in re.split(r"[,.;:!?()\[\]\"]", text, maxsplit=1)[0].split():
        for word in _tokens(token):
            if words and (word in _END or len(words) >= limit):
                return " ".join(words)
            if word in _SKIP or word in _END or word.isdigit():
                continue
            words.append(_singular(word))
    return " ".join(words)


def _earlier(before: str) -> str:
    """The noun phrase nearest before a cue whose object is a pronoun or nothing ("les
    champignons, j'ai horreur de ça", "Loud restaurants get on my nerves")."""
    for segment in reversed(re.split(r"[,;:]", before)):
        if _FIRST.search(segment):
            tail = list(_PREPOSITION.finditer(segment + " "))
            segment = segment[tail[-1].end():] if tail else ""
        phrase = _phrase(segment)
        if phrase:
            return phrase
    return ""


_DIET = re.compile(r"\b(?:i'm|i am|i've been|i have been|je suis|je suis devenue?|now|désormais|maintenant)\s+(?:\w+\s+)?(?:vegetarian|vegan|pescatarian|"
                   r"pescetarian|omnivore|flexitarian|v[ée]g[ée]tarien(?:ne)?|v[ée]gane?|v[ée]g[ée]talien(?:ne)?|"
                   r"pesc[ée]tarien(?:ne)?|flexitarien(?:ne)?|omnivore|v[ée]g[ée])\b", _FLAGS)
# An availability is keyed by its slot: "je suis dispo le mardi" and "le mardi ça ne marche
# plus pour moi" are one rule about Tuesdays.
_AVAILABILITY = re.compile(r"\b(?:available|free|busy|unavailable|booked|dispo|disponible|indisponible|libre|pris|prise|"
                           r"works? for me|marche (?:pas|plus)|convient)\b", _FLAGS)
_SLOT = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|"
                   r"samedi|dimanche|weekend|week-end|morning|evening|afternoon|night|matin|soir|après-midi|nuit)s?\b",
                   _FLAGS)


def objects_of(text: str, cue: str, action: str = "") -> tuple[str, ...]:
    """The objects a taste or a rule in ``text`` is about, given the ``cue`` the rules
    matched ("prefer", "allergic", "don't drive", "pas mon truc") and its ``action``.

    Never empty for a non-empty text: when nothing follows the cue, the cue's own verb
    ("drive") or the words before it ("le jazz, c'est pas mon truc") name the object."""
    low = text.replace("’", "'")
    slot = _SLOT.search(low) if _AVAILABILITY.search(low) else None
    if slot:
        return (slot.group(1).lower(),)
    favourite = _FAVOURITE.search(low)
    if favourite:  # "my favourite dessert is…": the slot, so another dessert replaces it
        return (_singular((favourite.group(1) or favourite.group(2)).lower().split()[0]),)
    at = low.lower().find(cue.lower()) if cue else -1
    before, after = (low[:at], low[at + len(cue):]) if at >= 0 else ("", low)
    diet = _DIET.search(low)
    if diet:  # "I'm vegetarian" then "I'm pescatarian now": one diet that changed
        return ("diet",)
    earlier = _earlier(before)
    if earlier and (_SUITS_CUE.search(cue) or SUBJECT_IDIOM.search(cue)):
        return (earlier,)
    if _LIMITS.search(cue):
        unit = _NUMBER_UNIT.search(cue + after)
        unit_word = _singular((unit.group(1) or unit.group(2)).lower()) if unit else ""
        what = _phrase(before, 1) or (_phrase((cue + after)[unit.end():], 1) if unit else "")
        named = " ".join(dict.fromkeys(p for p in (what, unit_word) if p))
        if named:
            return (named,)
    own = [w for w in _tokens(cue) if w not in _SKIP and w not in _END]
    first = next(iter(_tokens(after)), "")
    # "Ne m'appelle jamais avant 9 h", "pas de réunions avant 10 h": the verb or the noun
    # is in the cue and what follows is a complement.
    if own and len(cue.split()) > 1 and (not first or first in _END):
        return (_singular(own[-1]),)
    if earlier and _phrase(after) in _PRONOUNS | {""}:
        return (earlier,)
    parts = _COMPARE.split(after)
    if len(parts) == 1 and action == "prefer":
        parts = _PREFER_TO.split(after, maxsplit=1)
        if not _phrase(parts[0]):  # "prefer to work": an infinitive, not a comparison
            parts = [after]
    objects = [p for p in (_phrase(part) for part in parts[:2]) if p]
    if not objects and own:
        objects = [_singular(own[-1])]
    if not objects:
        objects = [p for p in (_phrase(before.split(",")[0]),) if p]
    if not objects:
        objects = [_phrase(low, 2) or "general"]
    return tuple(dict.fromkeys(objects))


def _same_word(a: str, b: str) -> bool:
    """One word in two forms: "coffee" / "coffees", "appelle" / "appeler" (a shared stem
    at most two letters shorter than the shorter word, and at least four letters)."""
    if a == b:
        return True
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return common >= max(4, min(len(a), len(b)) - 2)


def _words_in(small: list[str], large: list[str]) -> bool:
    return all(any(_same_word(w, v) for v in large) for w in small)


def same_thing(new: tuple[str, ...] | list[str], old: tuple[str, ...] | list[str], *, choice: bool = False) -> bool:
    """Whether two captures' objects name one thing: an object of one is, word for word
    (in any order, any inflection), inside an object of the other ("sweet coffee" / "coffee
    sweet", "wine" / "red wine"). For two choices (``prefer`` both times) sharing the head
    noun is enough: "les réponses courtes" then "des réponses détaillées" is one slot."""
    for a in new:
        for b in old:
            wa, wb = a.split(), b.split()
            if not wa or not wb:
                continue
            small, large = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
            if _words_in(small, large):
                return True
            if choice and (_same_word(wa[0], wb[0]) or _same_word(wa[-1], wb[-1])) and len(wa) > 1 and len(wb) > 1:
                return True
    return False
