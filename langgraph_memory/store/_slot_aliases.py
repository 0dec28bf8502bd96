"""One single-value slot said through another verb or noun, for the dedup policy.

The commonest slots that hold one value at a time are said two ways: through a verb of the owner ("Tomasz drives a
Skoda", "lives in Lyon", "works at Acme", "teaches maths", "conduit une Clio", "bosse chez Airbus", "sort avec
Manon") or through a noun the owner possesses ("his car is a Kia", "her flat is in Paris", "her employer is
Globex", "his subject is physics", "la voiture de Lucien", "son boulot c'est chez Thales"). A small table maps both
forms, in English and French, to one slot (vehicle, home, employer, subject taught, doctor, dentist, partner,
spouse, phone number, school). Nouns of one slot are aliases of each other ("GP" / "doctor", "mobile" / "phone
number", "médecin traitant" / "médecin").

A statement is read whole as OWNER, SLOT, VALUE, nothing else beside a change word ("now", "these days",
"maintenant", "cette année"): an accumulation marker, a plural or another owner ("his wife's car", "les enfants
d'Odile"), a modifier on the noun ("holiday flat", "second job", "work phone"), a value with a context ("a van
for work", "le samedi") or of another kind makes it no such statement, and both memories stay.

The same reader normalises values, so a date or time said with or without its introducer ("is on May 4" / "is May
14th", "at 6" / "7 o'clock", "à 20h" / "21 heures", "le samedi 5 octobre" / "le 12 octobre") and a street name in
capitals or lower case ("Baker Street" / "oxford road", "rue de Rivoli" / "avenue de l'opéra") are one kind of
value in any slot named by the same definite head ("the school trip", "Saanvi's piano recital").

Pure Python (stdlib only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from langgraph_memory.store._quantities import canonical as _canonical
from langgraph_memory.store._slots import _JOINED, _LANGUAGES, _clause, accumulates, held_apart
from langgraph_memory.store._statements import _KIN, _SPOUSES, _TOKEN, _UPDATE, _named
from langgraph_memory.store._wordforms import _fold, _plain, _stem

__all__ = ["SlotSaid", "another_item", "one_more", "same_slot", "says_another"]


def _phrases(text: str) -> set[tuple[str, ...]]:
    return {tuple(p.split()) for p in text.split("|")}


# The slots and the nouns that name each one (folded; "|" between phrases).
_NOUNS: dict[str, set[tuple[str, ...]]] = {
    "vehicle": _phrases("car|vehicle|voiture|bagnole|auto"),
    "home": _phrases("home|flat|apartment|appartement|appart|domicile|address|adresse|logement|home address|place"),
    "employer": _phrases("employer|job|workplace|employeur|boulot|travail|taf|emploi|boite"),
    "subject": _phrases("subject|matiere|discipline"),
    "doctor": _phrases("gp|doctor|family doctor|medecin|medecin traitant|generaliste"),
    "dentist": _phrases("dentist|dentiste"),
    "partner": _phrases("partner|boyfriend|girlfriend|copain|copine|compagnon|compagne"),
    "spouse": _phrases("husband|wife|spouse|mari|femme|epoux|epouse"),
    "phone": _phrases("phone|phone number|number|mobile|mobile number|cell|cell number|numero|numero de telephone|"
                      "portable|telephone"),
    "school": _phrases("school|ecole|college|lycee|uni|university|universite|fac"),
}
_SLOT_OF_NOUN = {noun: slot for slot, nouns in _NOUNS.items() for noun in nouns}
# The verbs that say a slot of their subject: (verb, what must follow it or "" for nothing) -> slot. "lives in",
# "works at / for", "habite à", "travaille chez", "roule en"; "is dating", "is married to", "sort avec".
_VERBS: dict[tuple[str, str], str] = {
    **{(v, p): "vehicle" for v in ("drives", "drive", "conduit", "conduis") for p in ("",)},
    ("roule", "en"): "vehicle",
    **{(v, p): "home" for v in ("lives", "live") for p in ("in", "at")},
    **{(v, p): "home" for v in ("habite", "habites", "vit", "vis") for p in ("a", "au", "en")},
    **{(v, p): "employer" for v in ("works", "work") for p in ("at", "for")},
    **{(v, p): "home" for v in ("resides", "reside") for p in ("in", "at", "a", "au", "en")},
    **{(v, p): "employer" for v in ("travaille", "travailles", "bosse", "bosses", "taffe") for p in ("chez", "pour")},
    **{(v, p): "employer" for v in ("employed", "employe", "employee") for p in ("at", "by", "chez", "par")},
    **{(v, p): "subject" for v in ("teaches", "teach", "enseigne", "enseignes") for p in ("",)},
    ("sort", "avec"): "partner",
    ("dating", ""): "partner",
    ("married", "to"): "spouse",
    **{(v, p): "spouse" for v in ("marie", "mariee") for p in ("a", "avec")},
    ("attends", ""): "school",
    **{(v, p): "school" for v in ("studies", "study", "etudie") for p in ("at", "a", "au")},
    **{(v, p): "subject" for v in ("prof", "professeur", "professeure") for p in ("de", "d")},
}
# What each slot's value may be.
# A subject is one however written ("Latin", "la géo"); other slots keep names apart from words.
_AS_WORD = {"subject"}
_KINDS = {"vehicle": {"name"}, "home": {"name", "place", "address"}, "employer": {"name"}, "subject": {"word", "name"},
          "doctor": {"name"}, "dentist": {"name"}, "partner": {"name"}, "spouse": {"name"}, "phone": {"phone"},
          "school": {"name"}}
# A slot named by its own head (not in the table) is compared only on these kinds of value.
_HEAD_KINDS = {"date", "clock", "address"}

_ARTICLES = _plain("a an the un une le la l les des du")
_TITLES = _plain("dr doctor docteur mr mrs ms mme madame monsieur maitre")
_INTRODUCERS = _plain("in at on to for by with from a au aux en chez dans sur pour avec par de d vers")
_COPULAS = _plain("is est")
_POSSESSIVES = {**dict.fromkeys(_plain("my mon ma"), "i"), **dict.fromkeys(_plain("our notre"), "we"),
                **dict.fromkeys(_plain("his"), "he"), **dict.fromkeys(_plain("her"), "she"),
                **dict.fromkeys(_plain("son sa"), "third"), **dict.fromkeys(_plain("your votre ton ta"), "you")}
_PERSONS = {**dict.fromkeys(_plain("i je j"), "i"), **dict.fromkeys(_plain("we nous"), "we"),
            **dict.fromkeys(_plain("he il"), "he"), **dict.fromkeys(_plain("she elle"), "she"),
            **dict.fromkeys(_plain("you tu vous"), "you")}
_THIRD = {"he", "she", "third"}
_PLURAL_DETERMINERS = _plain("their leur mes nos ses leurs tes vos les")
_STREETS = _plain("street st road rd avenue ave lane boulevard bd way drive square place rue allee impasse chemin "
                  "quai cours")
_WEEKDAYS = _plain("monday tuesday wednesday thursday friday saturday sunday lundi mardi mercredi jeudi vendredi "
                   "samedi dimanche")
_NEAR = _plain("near next opposite behind off close beside pres cote face derriere loin proche")
# Words saying when, or that a change happened, around a statement: "now", "these days", "cette année".
_WHEN_PAIRS = {("these", "days"), ("this", "year"), ("this", "term"), ("cette", "annee"), ("en", "fait"),
               ("in", "fact"), ("ce", "moment"), ("at", "the", "moment")}
_NAMED_AS = {("s", "appelle"), ("is", "called"), ("is", "named"), ("se", "nomme"), ("se", "prenomme")}
_FILLERS = _plain("so well oh btw ok okay bon alors")
# Whom one teaches is no subject: "teaches kids", "enseigne aux adultes".
_AUDIENCES = {_stem(w) for w in _plain("kids children students pupils adults beginners teenagers people classes "
                                       "enfants eleves etudiants adultes debutants ados gens cours")}
_NOT_PLACES = _plain("home work school bed town maison boulot ville")
_RELATIVES = _KIN | _SPOUSES
_THEY = _plain("they ils elles on people everyone everybody nobody personne")
_VERB_WORDS = {v for v, _ in _VERBS} | _COPULAS


# Words saying which one of a slot's things is meant: "second job", "old job", "holiday flat", "side job", "le
# deuxième boulot", "l'ancien appart", "la maison de vacances", "la résidence secondaire".
_WHICH = _plain("second third other side old former previous ex next future dream holiday summer weekend weekday "
                "evening night temporary temp backup spare deuxieme troisieme seconde ancien ancienne prochain "
                "prochaine futur future vacances secondaire campagne autre")
_SLOT_WORDS = {w for nouns in _NOUNS.values() for noun in nouns for w in noun} | _plain(
    "house maison residence office bureau cottage studio gig")
# Days that bound a value: "at Globex on Saturdays", "chez Bouygues le week-end", "at weekends".
_SOME_DAYS = _WEEKDAYS | {d + "s" for d in _WEEKDAYS} | _plain("weekend weekends weekdays")


@dataclass(frozen=True)
class _Statement:
    owner: str  # a folded name, a person ("i", "we", "he", "she", "third", "you"), or "" for a definite head
    slot: str  # a slot of the table, or "=" and the head's words
    value: tuple[str, ...]  # normalised
    kind: str  # name, place, address, word, phone, date, clock
    verb: bool  # said through a verb ("drives", "lives in"), not a noun


@dataclass(frozen=True)
class SlotSaid:
    """The verdict of the alias rule: ``decision`` (correction, duplicate or refinement), why, and whether the
    owner is named on both sides (which lets it stand below the candidate floor)."""

    decision: str
    reason: str
    named: bool


def _words(text: str) -> tuple[list[str], list[str]] | None:
    """The statement's words (written and folded), with change words, "c'" and fillers set aside; ``None`` when it
    is negated or in the past."""
    said = _clause(text)
    if said is None:
        return None
    raw, plain = said
    keep = [True] * len(raw)
    for size in (2, 3):
        for i in range(len(plain) - size + 1):
            if tuple(plain[i:i + size]) in _WHEN_PAIRS:
                keep[i:i + size] = [False] * size
    for i, (w, p) in enumerate(zip(raw, plain)):
        nxt = plain[i + 1] if i + 1 < len(plain) else ""
        if _stem(w) in _UPDATE or (p == "c" and nxt == "est") or (i == 0 and p in _FILLERS):
            keep[i] = False
    raw, plain = [w for w, k in zip(raw, keep) if k], [p for p, k in zip(plain, keep) if k]
    for i in range(len(plain) - 1):  # "s'appelle", "is called", "se nomme": the slot's name is what it is
        if (plain[i], plain[i + 1]) in _NAMED_AS:
            return raw[:i] + ["is"] + raw[i + 2:], plain[:i] + ["is"] + plain[i + 2:]
    return raw, plain


def _value(raw: list[str], plain: list[str], intro: str) -> tuple[tuple[str, ...], str] | None:
    """A value, normalised, and its kind; ``None`` when the words say more than one value."""
    if not plain or set(plain) & _JOINED:
        return None
    if any(p in _STREETS for p in plain):  # "Baker Street", "oxford road", "rue de Rivoli", "bd voltaire"
        words = tuple(p for p in plain if p not in _ARTICLES)
        near = set(words) & (_INTRODUCERS | _NEAR) - _plain("de d")  # "near Oxford Road", "en face de la rue"
        return (words, "address") if len(words) <= 5 and not near else None
    article, titled = plain[0] in _ARTICLES, False
    while plain and (plain[0] in _ARTICLES or plain[0] in _TITLES):
        titled = titled or plain[0] in _TITLES  # "dr shah", "le docteur vidal": a name, even in lower case
        raw, plain = raw[1:], plain[1:]
    if plain and plain[0] in _WEEKDAYS and len(plain) > 1:  # "le samedi 5 octobre": the date says the day
        raw, plain = raw[1:], plain[1:]
    if not plain:
        return None
    # Clock times: "t1700" (as spelled), "7 o'clock", "21 heures", a bare hour after "at" / "à".
    if len(plain) == 1 and re.fullmatch(r"t\d{4}", plain[0]):
        return (plain[0],), "clock"
    hour = plain[0].isdigit() and int(plain[0]) <= 24
    if hour and plain[1:] in (["o", "clock"], ["heures"], ["heure"], ["h"]) or hour and len(plain) == 1 and intro in (
            "at", "a"):
        h = int(plain[0])  # "at 6", "6 o'clock": 6am or 6pm
        return ((f"t{h:02d}00", f"t{h + 12:02d}00") if 0 < h < 12 and plain[1:2] != ["heures"] else (f"t{h:02d}00",)), \
            "clock"
    # Dates: a month and a day, in either order ("May 4", "4 May", "the 4th of May", "le 12 octobre", "March 13th").
    canon = [_canonical(w, p) or p for w, p in zip(raw, plain) if p != "of"]
    if len(canon) == 2 and sum(c.startswith("month") for c in canon) == 1:
        day = next(c for c in canon if not c.startswith("month"))
        month = next(c for c in canon if c.startswith("month"))
        if day.isdigit() and 1 <= int(day) <= 31:
            return (month, str(int(day))), "date"
    if all(p.isdigit() for p in plain):
        digits = "".join(plain)
        return ((digits,), "phone") if len(digits) >= 6 else None
    if len(plain) > 3 or set(plain) & _INTRODUCERS:
        return None  # "a delivery van for work", "un petit boulot le samedi": a value with its context
    if titled or _named(raw[0]):
        return tuple(plain), "name"
    if intro and not article and len(plain) <= 2 and plain[0] not in _NOT_PLACES:
        return tuple(plain), "place"  # "lives in hove", "habite à nancy"
    if not intro and len(plain) <= 2 and all(p.isalpha() and _stem(p) not in _AUDIENCES for p in plain):
        return tuple(plain), "word"  # "teaches geography", "la géo"
    return None


def _read(text: str) -> _Statement | None:
    """The statement as OWNER, SLOT, VALUE, or ``None`` when it says anything else."""
    words = _words(text)
    if words is None or accumulates(text):
        return None
    raw, plain = words
    if len(plain) < 3:
        return None
    owner = ""
    # Through a verb: "Tomasz drives a Skoda", "elle habite à Lyon", "he is married to Ana", "j'habite à Lyon".
    person = _PERSONS.get(plain[0]) or (
        _fold(raw[0]) if plain[0] not in _ARTICLES | _PLURAL_DETERMINERS | set(_POSSESSIVES) | _RELATIVES | _THEY
        and (_named(raw[0]) or plain[1] in _VERB_WORDS) else "")
    rest = 2 if plain[1] in _COPULAS else 1  # "is married to", "is dating", "est mariée à"
    if person and len(plain) > rest + 1:
        v = plain[rest]
        nxt = plain[rest + 1]
        if (v, nxt) in _VERBS:
            slot, intro, start = _VERBS[(v, nxt)], nxt, rest + 2
        elif (v, "") in _VERBS:
            slot, intro, start = _VERBS[(v, "")], "", rest + 1
        else:
            slot = ""
        if slot:
            said = _value(raw[start:], plain[start:], "" if slot in _AS_WORD else intro)  # "prof d'anglais"
            if said is None or said[1] not in _KINDS[slot] or (
                    slot == "vehicle" and not intro and plain[start:start + 1] != [] and plain[start] not in _ARTICLES):
                return None  # one drives "a Skoda", "une Clio"; "drives Uber" says for whom
            return _Statement(person, slot, said[0], said[1], True)
    # Through a noun: "Tomasz's car is", "his car is", "la voiture de Lucien est", "l'appart d'Aurélie est".
    if not any(p in _COPULAS for p in plain):
        return None
    k = plain.index(next(p for p in plain if p in _COPULAS))
    before = plain[:k]
    first = before[0] if before else ""
    if not before or first in _PLURAL_DETERMINERS:
        return None
    if first in _POSSESSIVES:
        owner, head = _POSSESSIVES[first], before[1:]
    elif len(before) > 2 and before[1] == "s" and first not in _ARTICLES:
        owner, head = first, before[2:]
    elif first in _ARTICLES:
        head = before[1:]
        if len(head) >= 3 and head[-2] in ("de", "d") and head[-1] not in _ARTICLES:
            owner, head = head[-1], head[:-2]  # "la voiture de Lucien", "l'appart d'Aurélie"
    else:
        return None
    slot = _SLOT_OF_NOUN.get(tuple(head))
    # Another owner inside the head ("his wife's car", "la voiture de la femme de Lucien", "le cours du fils de
    # Marc"); only a plural one names a thing of its own ("the parents' evening", "the kids' swimming lesson").
    if not head or _stem(owner) in _RELATIVES or any(
            _stem(w) in _RELATIVES and not (slot is None and w.endswith("s") and head[i + 1] == "s")
            for i, w in enumerate(head[:-1])):
        return None
    after_raw, after = raw[k + 1:], plain[k + 1:]
    intro = after[0] if after and after[0] in _INTRODUCERS else ""
    if intro:
        after_raw, after = after_raw[1:], after[1:]
    said = _value(after_raw, after, intro)
    if said is None:
        return None
    if slot:
        return _Statement(owner, slot, said[0], said[1], False) if said[1] in _KINDS[slot] else None
    if said[1] not in _HEAD_KINDS or len(head) > 5:
        return None  # a date, a time or an address of one named thing ("le dîner chez les Morel", "the book fair")
    return _Statement(owner, "=" + " ".join(head), said[0], said[1], False)


def _same_owner(a: str, b: str) -> tuple[bool, bool]:
    """Whether two owners are one (a name and a third-person pronoun may be), and whether both are named."""
    people = set(_PERSONS.values()) | {"third"}
    if a == b:
        return True, a not in people and a != ""
    if "" in (a, b):
        return False, False
    if (a in people) and (b in people):
        return {a, b} <= _THIRD and "third" in (a, b), False
    person = a if a in people else b if b in people else None
    return person in _THIRD, False


def same_slot(new: str, old: str) -> SlotSaid | None:
    """Whether new says old's single-value slot again, through the same or another verb or noun, and how: a new
    value is a correction, the same value a duplicate, a fuller value a refinement. ``None`` when either says
    anything else, when a value is held beside others (an accumulation marker, ``held_apart``), or when the
    owners differ."""
    n, o = _read(new), _read(old)
    if n is not None and o is not None and n.slot in _AS_WORD:
        # A subject in capitals is a language ("Latin", "French"); a name there is whom one teaches ("prof de Léo").
        if any(s.kind == "name" and not set(s.value) <= _LANGUAGES for s in (n, o)):
            return None
        n, o = (replace(s, kind="word") if s.kind == "name" else s for s in (n, o))
    elif n is not None and o is not None and any(s.kind == "name" and set(s.value) <= _LANGUAGES for s in (n, o)):
        return None  # "his wife is French", "her car is German": where from, not who or which one
    if n is None or o is None or n.slot != o.slot or n.kind != o.kind or (n.verb and o.verb):
        return None  # a slot said twice through a verb is for the other rules ("teaches geography" / "history")
    same, named = _same_owner(n.owner, o.owner)
    if not same:
        return None
    apart = held_apart(new, old)
    if apart and not apart.startswith("another slot"):  # two alias nouns are two heads to the frame reader
        return None
    slot = o.slot.lstrip("=")
    if o.kind == "clock" and set(n.value) & set(o.value):  # "at 6" / "6 o'clock" / "at 6pm": one time
        return SlotSaid("duplicate" if len(n.value) >= len(o.value) else "refinement",
                        f"same slot ({slot}), the same time: {' / '.join(o.value)}", named)
    if n.value == o.value:
        return SlotSaid("duplicate", f"same slot ({slot}), said again: {' '.join(o.value)}", named)
    if o.kind == "name" and n.value[:len(o.value)] == o.value:
        return SlotSaid("refinement", f"same slot ({slot}), said more fully: {' '.join(n.value)}", named)
    if o.kind == "name" and o.value[:len(n.value)] == n.value:
        return SlotSaid("duplicate", f"same slot ({slot}), said more briefly: {' '.join(n.value)}", named)
    return SlotSaid("correction", f"same slot ({slot}): {' '.join(o.value)} -> {' '.join(n.value)}", named)


def _which(plain: list[str]) -> set[str]:
    """The words saying which one of a slot's things a statement means ("second job", "maison de vacances")."""
    found = set()
    for i, p in enumerate(plain):
        if p in _WHICH and (plain[i + 1: i + 2] and plain[i + 1] in _SLOT_WORDS
                            or any(q in _SLOT_WORDS for q in plain[max(0, i - 2): i])):
            found.add(p)
    return found


def another_item(new: str, old: str) -> str | None:
    """Why two statements name two things of one slot, so that no value swap between them is a correction: a word
    saying which one on one side only ("works at Acme" / "jo's second job is at Globex", "habite à Nantes" / "la
    maison de vacances d'Aurélie est à Pornic"), or days that bound one value only ("works at Acme" / "her job is at
    Globex on Saturdays", "travaille aussi chez Bouygues le week-end")."""
    words = [_TOKEN.findall(_fold(t).replace("week-end", "weekend")) for t in (new, old)]
    which = [_which(w) for w in words]
    if which[0] ^ which[1]:
        return f"another one: {' '.join(sorted(which[0] ^ which[1]))}"
    days = [{d for i, d in enumerate(w) if d in _SOME_DAYS and not (w[i + 1: i + 2] and w[i + 1].isdigit())}
            for w in words]  # "le samedi 14 juin" is a date
    if bool(days[0]) != bool(days[1]):
        return f"on some days: {' '.join(sorted(days[0] | days[1]))}"
    return None


def says_another(new: str, old: str) -> bool:
    """Whether new itself says its value is one more ("also", "a second", "le deuxième boulot"), which no change
    word undoes: "Anatole a maintenant un deuxième boulot chez Dassault" replaces nothing."""
    return accumulates(new) or bool(_which(_TOKEN.findall(_fold(new))) - _which(_TOKEN.findall(_fold(old))))


_ONE_MORE = {("another",), ("one", "more"), ("encore", "un"), ("encore", "une")} | {
    (a, o) for a in ("a", "an", "un", "une") for o in ("second", "seconde", "deuxieme", "third", "troisieme", "autre",
                                                       "extra", "additional")}


def one_more(new: str, old: str) -> bool:
    """Whether new speaks of one more thing than old ("another", "a second", "un autre", "une deuxième"), so that
    whatever it shares with old is no refinement of it: "a second recital is April 12" adds a recital."""
    def said(text: str) -> bool:
        plain = [_fold(w) for w in _TOKEN.findall(text)]
        return accumulates(text) and any(tuple(plain[i:i + len(m)]) == m for m in _ONE_MORE for i in range(len(plain)))
    return said(new) and not said(old)
