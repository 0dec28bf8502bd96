"""What a remembered statement says, for the dedup policy: content words, values (names,
numbers, dates, status words), slots (residence, job, ...), correction cues, negation, and
the change structure of a correction ("stopped X", "from X to Y", "Y instead of X").

Pure Python (stdlib only). Word lists are per kind of word, in English and French.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    # Crude FR/EN stemming, enough to equate lives/living/lived, marié/mariée, peanut/peanuts, Mickaël/Mickael.
    w = "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))
    w = re.sub(r"^(.{3,})s$", r"\1", re.sub(r"^(.{3,})(?:ing|ed)$", r"\1", w))
    return re.sub(r"^(.{3,}?)e+$", r"\1", w)


def _words(text: str) -> set[str]:
    return {_stem(w) for w in text.split()}


@lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def _plain(text: str) -> set[str]:
    # Stopwords are matched unstemmed: stemming folds names into them ("Dan" -> "dan" <- "dans").
    return {_fold(w) for w in text.split()}


# Per-language stopwords, because some are content words in the other language ("son", "pour"). Fillers of
# talk ("oh", "I think", "je te l'avais dit", "still", "wants to") carry no fact either.
_STOP_EN = _plain(
    "a an the and or of to in on at for with by from as is are was were be been being am it its this that these "
    "those he she they we you i me my his her him them their our your s d has have had do does did every very "
    "also just really some any who which what when where there here own owns possess possesses got get gets "
    "getting can could will would should must still oh ah well ok okay yeah yes so um uh hmm think told said "
    "guess want wants wanted days m ll ve re"
)
_STOP_FR = _plain(
    "a le la les l un une des du de d au aux et ou en est sont etait ete suis es ai as avons avez ont avait "
    "avais dans sur pour par avec chez ce c cet cette ces il elle ils elles on nous vous je j tu te t me m moi "
    "toi lui se s sa son ses leur mon ma mes ton ta tes qui que qu quoi dont depuis tres aussi y toujours "
    "vraiment possede avoir eu vient venir comme peut doit oh ah bon ben bah euh alors ouais oui voila crois "
    "pense dit dis veut veux voudrait voulait"
)
_PRONOUNS = _plain("he she they il elle ils elles")
# A leading "no" / "non" answers what was said before: a correction cue, not a negation.
_LEADING_NO = _plain("no non nope nan")
_ONLY_EN, _ONLY_FR = _STOP_EN - _STOP_FR, _STOP_FR - _STOP_EN
# Correction cues. "plus" is a negation only with ne/n' (otherwise it means "more").
_UPDATE = _words("actually now currently nowadays anymore instead new maintenant desormais dorenavant "
                 "finalement nouveau nouvel nouvelle change changed changes changing changer changé switched "
                 "quit became become devenu devenue devenir sorry oops oups pardon desole desolee")
_UPDATE_PAIRS = {("en", "fait"), ("in", "fact"), ("no", "longer")}
_NEGATION = _words("not no never nt ne n pas jamais aucun")
# Dates and durations are values: "last year", "depuis juin", "le 10 janvier".
_TIME = _words(
    "year month week day ago last today yesterday tomorrow an ans mois semaine jour hier aujourd demain dernier "
    "prochain january february march april may june july august september october november december janvier "
    "fevrier mars avril mai juin juillet aout septembre octobre novembre decembre monday tuesday wednesday "
    "thursday friday saturday sunday lundi mardi mercredi jeudi vendredi samedi dimanche spring summer autumn "
    "fall winter printemps automne hiver"
)
# Relatives other than a spouse (spouses belong to the relationship slot): "Omar's brother" is not Omar.
_KIN = _words(
    "brother sister son daughter mother father mom mum dad parent child kid friend colleague boss manager "
    "neighbour neighbor cousin uncle aunt nephew niece grandmother grandfather frere soeur fils fille mere pere "
    "maman papa enfant ami amie collegue patron chef voisin voisine oncle tante neveu"
)
# Slot lexicons: (key, exclusive, words are values, words). An exclusive slot holds one value at a time, so a
# new value there is a correction; liking is not exclusive (liking jazz does not undo liking chocolate).
# Status words keep their own token as a value so that married -> divorced stays visible.
_SLOTS: list[tuple[str, bool, bool, str]] = [
    ("<residence>", True, False, "live moved relocated reside based habite habiter habitent vit vivent vivre "
                                 "demenage demenager installe"),
    ("<job>", True, False, "work job employed employer travaille travail travaillent bosse boulot taf emploi "
                           "metier profession career"),
    # Occupations are the job slot's values: "est prof" -> "est devenue avocate".
    ("<job>", True, True, "teacher prof professeur enseignant enseignante nurse infirmier infirmiere doctor "
                          "medecin engineer ingenieur developer developpeur lawyer avocat avocate chef cuisinier "
                          "baker boulanger boulangere accountant comptable student etudiant etudiante retired "
                          "retraite"),
    ("<age>", True, False, "age aged old ans turned turns"),
    ("<name>", True, False, "name called nom prenom surnom nickname appelle appellent"),
    ("<relationship>", True, False, "husband wife spouse partner mari femme epoux epouse conjoint compagnon compagne "
                                    "girlfriend boyfriend copain copine couple dating"),
    ("<relationship>", True, True, "married marie divorced single celibataire engaged fiance widowed veuf veuve "
                                   "pacse separated separe"),
    ("<favourite>", True, False, "favourite favorite prefer preferred fav"),
    ("<likes>", False, False, "like love enjoy aime aiment adore"),
    # Plans are not exclusive (two trips can be planned), so only a cue makes a new value a correction.
    ("<plans>", False, False, "plan plans planning planned trip travel voyage vacances holiday holidays partir "
                              "part pars prevoit prevoir"),
]
_SLOT_OF = {w: (key, is_value) for key, _, is_value, words in _SLOTS for w in _words(words)}
_EXCLUSIVE = {key for key, exclusive, _, _ in _SLOTS if exclusive}
_STATUS = {w for _, _, is_value, words in _SLOTS if is_value for w in _words(words)}
_TOKEN = re.compile(r"[^\W_]+")


@dataclass
class _Parsed:
    tokens: set[str]  # content stems and slot keys ("<residence>")
    values: set[str]  # tokens carrying a value: names, numbers, dates, status words
    update: bool  # explicit correction cue ("actually", "désormais")
    negated: bool
    kin: set[str]  # relatives the statement is about: "Omar's brother", "le fils de Paul"
    lead: str | None = None  # the first content word when it is a name: who the statement is about
    pronoun: bool = False  # the statement is about "he" / "elle": someone named in an earlier one
    names: set[str] = field(default_factory=set)  # capitalised words: who and where


@lru_cache(maxsize=4096)  # a write parses its text once per candidate; stored texts recur
def _parse(text: str) -> _Parsed:
    raw = _TOKEN.findall(re.sub(r"n['’]t\b", " not", text))
    stems = [_stem(w) for w in raw]
    plain = [_fold(w) for w in raw]
    # Vote on unambiguous stopwords; on a tie drop only words that are stopwords in both languages.
    en, fr = sum(w in _ONLY_EN for w in plain), sum(w in _ONLY_FR for w in plain)
    stop = _STOP_EN if en > fr else _STOP_FR if fr > en else _STOP_EN & _STOP_FR
    leading_no = bool(plain) and plain[0] in _LEADING_NO and plain[1:2] != ["longer"]
    negated = any(s in _NEGATION for s in stems[leading_no:]) or (
        "plus" in stems and bool({"ne", "n"} & set(stems)))
    # "Omar's brother", "le frère de Paul" -- but not "une fille de 8 ans".
    kin = {s for i, s in enumerate(stems) if s in _KIN and (
        (i >= 2 and stems[i - 1] == "s")
        or (stems[i + 1: i + 2] in (["de"], ["d"]) and raw[i + 2: i + 3] and raw[i + 2][0].isupper()))}
    parsed = _Parsed(set(), set(), leading_no, negated, kin)
    for i, (prev, word, s) in enumerate(zip([""] + stems, raw, stems)):
        if i == 0 and leading_no:
            continue
        if s in _UPDATE or (prev, s) in _UPDATE_PAIRS:
            parsed.update = True
        elif plain[i] in _PRONOUNS and not parsed.tokens:
            parsed.pronoun = True
        elif s in _NEGATION or plain[i] in stop or (s == "plus" and negated):
            continue
        elif s == "year" and plain[i + 1: i + 2] == ["old"]:
            continue  # "45 years old": the age, said in full
        elif word[0].isupper() or any(c.isdigit() for c in s):
            # Names are checked before the lexicons: "Marie" is a person, not "mariée".
            if not parsed.tokens and word[0].isupper():
                parsed.lead = s
            if word[0].isupper():
                parsed.names.add(s)
            # "Ryan is 45", "turned 46": a bare number after a copula is an age.
            before = [w for w, t in zip(plain[:i], stems[:i]) if t not in _UPDATE][-1:]  # "is actually 31"
            if s.isdigit() and before in (["is"], ["am"], ["turned"], ["turns"]):
                parsed.tokens.add("<age>")
            parsed.tokens.add(s)
            parsed.values.add(s)
        elif s in _SLOT_OF:  # before _TIME: "ans" in "34 ans" is an age
            key, is_value = _SLOT_OF[s]
            parsed.tokens |= {key, s} if is_value else {key}
            parsed.values |= {s} if is_value else set()
        else:
            parsed.tokens.add(s)
            parsed.values |= {s} if s in _TIME else set()
    return parsed


_SLOT_WORDS = {key: " ".join(words for k, _, _, words in _SLOTS if k == key) for key in _EXCLUSIVE}


def subject_probe(text: str, subjects: Sequence[str] = ()) -> str | None:
    """Words that reach the stored facts a new memory may correct though it shares few words with them: its
    names and explicit subjects, plus every word of its exclusive slots in both languages ("a déménagé"
    reaches "habite", "lives"). ``None`` when it names no one, or says nothing a correction would say (no
    exclusive slot, cue or negation): such a memory needs no candidates beyond its nearest neighbours."""
    parsed = _parse(text)
    slots = parsed.tokens & _EXCLUSIVE
    who = [w for w in _TOKEN.findall(text) if _stem(w) in parsed.names] + list(subjects)
    if not who or not (slots or parsed.update or parsed.negated):
        return None
    return " ".join([*dict.fromkeys(who), *(_SLOT_WORDS[key] for key in sorted(slots))])
