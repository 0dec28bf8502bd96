"""Word forms for the dedup policy: a crude French/English stem, accent folding, and the per-language
stopwords and time words its statements are read with.

Pure Python (stdlib only).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    # Crude FR/EN stemming, enough to equate lives/living/lived, marié/mariée, peanut/peanuts, Mickaël/Mickael.
    w = _fold(word)
    bare = re.sub(r"^(.{3,})(?:ing|ed)$", r"\1", w)
    if bare != w:  # swimming -> swimm -> swim, planned -> plan (not "ll", "ss": called, passed)
        bare = re.sub(r"^(.{2,})([b-df-hj-kmnp-rt-y])\2$", r"\1\2", bare)
    w = re.sub(r"^(.{3,})s$", r"\1", bare)
    w = re.sub(r"^(.{3,}?)e+$", r"\1", w)
    # British and American spellings are one word: colour/color, organise/organize, analyse/analyze.
    return re.sub(r"^(.{3,})our$", r"\1or", re.sub(r"^(.{4,}[iy])z$", r"\1s", w))


def _words(text: str) -> set[str]:
    return {_stem(w) for w in text.split()}


@lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    # Accents off, and the ligatures NFKD keeps: "sœur" is "soeur", "ex æquo" "ex aequo".
    plain = "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))
    return plain.replace("œ", "oe").replace("æ", "ae")


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
    "guess want wants wanted days m ll ve re since btw fyi apparently anyway basically say says saying heard "
    "over guy guys lol only around about approximately roughly"
)
_STOP_FR = _plain(
    "a le la les l un une des du de d au aux et ou en est sont etait ete suis es ai as avons avez ont avait "
    "avais dans sur pour par avec chez ce c cet cette ces il elle ils elles on nous vous je j tu te t me m moi "
    "toi lui se s sa son ses leur mon ma mes ton ta tes qui que qu quoi dont depuis tres aussi y toujours "
    "vraiment possede avoir eu vient venir comme peut doit oh ah bon ben bah euh alors ouais oui voila crois "
    "pense dit dis veut veux voudrait voulait va vais vas allons allez vont lieu tous toutes tout chaque bref genre "
    "parait apparemment enfin notre nos votre vos vers environ seulement"
)
# Dates and durations are values: "last year", "depuis juin", "le 10 janvier".
_TIME = _words(
    "year month week day ago last today yesterday tomorrow an ans annee annees mois semaine jour hier aujourd demain "
    "dernier "
    "prochain january february march april may june july august september october november december janvier "
    "fevrier mars avril mai juin juillet aout septembre octobre novembre decembre monday tuesday wednesday "
    "thursday friday saturday sunday lundi mardi mercredi jeudi vendredi samedi dimanche spring summer autumn "
    "fall winter printemps automne hiver morning afternoon evening night noon midnight weekend matin soir nuit "
    "midi minuit weekday weekdays weeknight rentree"
) | {f"month{n}" for n in range(1, 13)}

# Colloquial and plural forms the stemmer cannot see, said for the same thing: one stem for each.
_SYNONYMS = {_stem(word): _stem(same) for same, words in (
    ("child", "children kid kids"), ("enfant", "gosse gosses"), ("football", "foot soccer"),
    ("bought", "buy buys purchased purchase purchases"), ("achete", "achat"), ("day", "daily"), ("week", "weekly"),
    ("month", "monthly"), ("night", "nightly"),
    # A relative said familiarly is the same relative: "my mum" / "my mother", "sa maman" / "sa mère".
    ("mother", "mom mum mommy mummy mama"), ("father", "dad daddy"), ("mere", "maman"), ("pere", "papa"),
    ("grandmother", "grandma granny gran nana"), ("grandfather", "grandpa granddad grandad"),
) for word in words.split()}
