"""Forms of one statement that the dedup policy reads as one: abbreviations and their expansions ("Rd" = "Road",
"appt" = "appointment", "rdv" = "rendez-vous"), naming verbs ("goes by", "is known as", "se fait appeler" =
"is called" / "s'appelle"), synonyms of the name nouns ("last name" = "family name" = "nom de famille" =
"surname"), an acronym and the capitalised words it stands for ("UK" = "United Kingdom", "BNF" = "Bibliothèque
nationale de France"), and the first person said to the agent against the stored third person of the same user
("I work as a welder" = "User works as a welder", "mon chat" = "le chat de l'utilisateur").

The lexicons are closed: every common street, appointment and name-noun abbreviation, not words from examples.

Pure Python (stdlib only).
"""

from __future__ import annotations

import re

__all__ = ["one_form", "spell_forms"]

# Abbreviations of street types after a capitalised name ("Juniper Rd", "Elm St"): one spelling each.
_STREETS = {"rd": "Road", "st": "Street", "str": "Street", "ave": "Avenue", "av": "Avenue", "blvd": "Boulevard",
            "bd": "Boulevard", "bvd": "Boulevard", "ln": "Lane", "sq": "Square", "pl": "Place", "ct": "Court", "cres": "Crescent", "hwy": "Highway", "pkwy": "Parkway", "terr": "Terrace"}
_STREET = re.compile(rf"\b([A-Z][\w'’-]*)\s+((?i:{'|'.join(_STREETS)}))\b\.?(?!\s+[A-Z])")
# Common abbreviations of nouns: one spelling each.
_ABBREVIATIONS = {
    "appt": "appointment", "appts": "appointments", "rdv": "rendez-vous", "rdvs": "rendez-vous", "bday": "birthday",
    "b-day": "birthday", "anniv": "anniversaire", "dept": "department", "govt": "government", "apt": "apartment",
    "appart": "appartement", "mgr": "manager", "asap": "as soon as possible",
    "approx": "approximately", "info": "information", "infos": "informations", "pic": "picture", "pics": "pictures",
    "ppl": "people", "bro": "brother", "sis": "sister", "hubby": "husband",
    # Clipped words said for the whole word, English and French.
    "tv": "television", "telly": "television", "télé": "télévision", "fridge": "refrigerator",
    "frigo": "réfrigérateur", "photo": "photograph", "photos": "photographs", "exam": "examination",
    "exams": "examinations", "maths": "mathematics", "math": "mathematics", "uni": "university", "lab": "laboratory",
    "ad": "advertisement", "advert": "advertisement", "e-mail": "email", "courriel": "email", "prof": "professeur",
    "profs": "professeurs", "ado": "adolescent", "ados": "adolescents", "resto": "restaurant", "restos": "restaurants",
    "ciné": "cinéma", "kiné": "kinésithérapeute", "petit-déj": "petit-déjeuner", "aprèm": "après-midi",
    "aprem": "après-midi", "vacs": "vacances", "gamin": "enfant", "gamins": "enfants",
}
# "was born on March 3" says the birthday: "my birthday is on March 3", "est née le 3 mars" / "son anniversaire est
# le 3 mars" (only with a day after it: "born in Paris" says where).
_BORN = [
    (re.compile(r"\b(?:was|were|is|am)\s+born\s+on\b(?=\s+(?:the\s+)?(?:\d|[A-Z]))"), "birthday is on"),
    (re.compile(r"\b(?:est|suis|es)\s+n[ée]e?s?\s+le\b(?=\s+(?:\d|1er|premier))", re.IGNORECASE), "anniversaire est le"),
]
# "7 yo", "7 y/o", "7 y.o.": years old (only after a number: "yo" is also a greeting).
_YEARS_OLD = re.compile(r"\b(\d+)\s*(?:yo|y/o|y\.o\.?)(?!\w)", re.IGNORECASE)
_ABBREVIATION = re.compile(rf"(?<![\w/])({'|'.join(sorted(map(re.escape, _ABBREVIATIONS), key=len, reverse=True))})"
                           r"(?![\w/])\.?", re.IGNORECASE)
# Naming verbs that say "is called": "goes by Maxi", "is known as", "se fait appeler", "répond au nom de".
_NAMING = [
    # Not a way of travelling: "goes by Uber now", "goes by Eurostar to Paris" (a vehicle, or a destination after).
    (re.compile(r"\b(?:goes|go|went|going)\s+by\b(?=\s+(?:the\s+name\s+(?:of\s+)?)?[A-Z])"
                r"(?!\s+(?i:uber|lyft|taxi|cab|bus|coach|train|tram|metro|tube|subway|car|bike|bicycle|scooter|plane|"
                r"boat|ferry|foot)\b)(?![^.,;!?]*\b(?:to|from|via|into)\s)"), "is called"),
    (re.compile(r"\b(?:is|are|was)\s+(?:better\s+)?known\s+as\b(?=\s+[A-Z])"), "is called"),
    (re.compile(r"\b(?:se|s['’])\s*fai(?:t|sait)\s+appeler\b", re.IGNORECASE), "s'appelle"),
    (re.compile(r"\br[ée]pond\s+au\s+nom\s+de\b", re.IGNORECASE), "s'appelle"),
]
# The nouns of a family name and a given name in both languages: one each.
_NAME_NOUNS = [
    (re.compile(r"\b(?:last|family)\s+name\b|\bnom\s+de\s+famille\b", re.IGNORECASE), "surname"),
    (re.compile(r"\b(?:first|given|christian)\s+name\b|\bpr[ée]nom\b", re.IGNORECASE), "forename"),
]


def _abbreviation(match: re.Match[str]) -> str:
    word = match.group(1)
    full = _ABBREVIATIONS[word.lower()]
    return full.capitalize() if word[0].isupper() and word[1:].islower() else full


# A relative named by a compound is another relative, one word: "mother-in-law", "step-father", "grand-mère",
# "belle-sœur", "demi-frère" are not "mother", "father", "mère", "sœur", "frère".
_IN_LAW = re.compile(r"\b([^\W\d_]+)[- ]in[- ]law(s?)\b", re.IGNORECASE)
_COMPOUND_RELATIVE = re.compile(r"\b((?:[^\W\d_]+-)+)(?=(?:mother|father|mum|mom|dad|sister|brother|son|daughter|"
                                r"parent|child|m[èe]re|p[èe]re|s(?:œ|oe)ur|fr[èe]re|fils|fille|parents?|enfant)s?\b)",
                                re.IGNORECASE)


def spell_forms(text: str) -> str:
    """``text`` with its abbreviations expanded, its naming verbs said as "is called" and its name nouns one way."""
    text = _IN_LAW.sub(r"\1inlaw\2", text)
    text = _COMPOUND_RELATIVE.sub(lambda m: m.group(1).replace("-", ""), text)
    text = _STREET.sub(lambda m: f"{m.group(1)} {_STREETS[m.group(2).lower()]}", text)
    text = _ABBREVIATION.sub(_abbreviation, _YEARS_OLD.sub(r"\1 years old", text))
    for pattern, said in _NAMING + _NAME_NOUNS + _BORN:
        text = pattern.sub(said, text)
    return text


# ---------------------------------------------------------------------------------------------- acronyms
_CAPITALISED_RUN = re.compile(r"\b[A-ZÀ-Ý][\w'’-]*(?:\s+(?:(?:of|the|and|for|de|des|du|la|le|et|d['’])\s+)*"
                              r"[A-ZÀ-Ýa-zà-ÿ][\w'’-]*)+")
_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
_SMALL = {"of", "the", "and", "for", "de", "des", "du", "la", "le", "et", "d", "l"}


def _expand_acronyms(text: str, other: str) -> str:
    """``text`` with each run of capitalised words that ``other`` says as an acronym written as that acronym."""
    acronyms = set(_ACRONYM.findall(other)) - set(_ACRONYM.findall(text))
    if not acronyms:
        return text

    def shorten(match: re.Match[str]) -> str:
        words = re.findall(r"[\w'’-]+", match.group(0))
        # Drop small words, then try every stretch of the run: "the United Kingdom" -> "UK".
        for i in range(len(words)):
            for j in range(len(words), i + 1, -1):
                part = [w for w in words[i:j] if w.lower().rstrip("'’") not in _SMALL]
                if len(part) >= 2 and part[0][0].isupper() and "".join(w[0] for w in part).upper() in acronyms:
                    head = " ".join(words[:i])
                    tail = " ".join(words[j:])
                    return " ".join(x for x in (head, "".join(w[0] for w in part).upper(), tail) if x)
        return match.group(0)

    return _CAPITALISED_RUN.sub(shorten, text)


def spelled_out_by(new: str, old: str) -> str | None:
    """Which side spells out by its initials an acronym only the other says: ``"new"`` ("studies at University
    College Leeds" after "UCL"), ``"old"``, or ``None``. Initials alone do not say it is the same institution
    ("UCL" is also University College London), so such a pair is never a silent duplicate (see
    :func:`~langgraph_memory.store._dedup.DedupPolicy`)."""
    if _expand_acronyms(new, old) != new:
        return "new"
    if _expand_acronyms(old, new) != old:
        return "old"
    return None


# ---------------------------------------------------------------------------------------------- the first person
# The stored third person of the user, as memories are written ("User ...", "The user's ...", "L'utilisateur ...").
_USER = re.compile(r"\b(?:the\s+)?user(?:['’]s)?\b|\b(?:de\s+)?l['’]utilisat(?:eur|rice)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:(?:I|me|my|mine|myself|je|moi|mon|ma|mes)(?!\w)|j['’])", re.IGNORECASE)


def _to_first_person(text: str) -> str:
    """The stored third person of the user said as the first person, as far as the policy reads it: "The user's
    cat" -> "my cat", "User is" -> "I is", "le chat de l'utilisateur" -> "le chat moi", "L'utilisateur joue" -> "je
    joue". Verb endings and copulas are stopwords or stemmed away."""
    def said(match: re.Match[str]) -> str:
        word = match.group(0).lower()
        if word.startswith("de "):
            return "moi"
        if word.startswith("l"):
            return "je "
        return "my" if word.endswith(("'s", "’s")) else "I"
    return re.sub(r"je\s+(?=[aeiouhéèê])", "j'", _USER.sub(said, text), flags=re.IGNORECASE)


_FILLERS = {"oh", "ah", "well", "so", "actually", "btw", "yeah", "yes", "hey", "also", "and", "but", "ok", "okay", "now",
            "no", "sorry", "en", "fait", "bon", "euh", "alors", "ouais", "oui", "non", "maintenant", "désormais",
            "desormais", "d'ailleurs", "sinon", "et", "mais", "aussi", "pardon"}


def _opening(text: str) -> str:
    """``text`` from its subject on: leading words of talk ("oh", "actually", "en fait") set aside."""
    words = text.split()
    while words and words[0].lower().strip(",.;:!") in _FILLERS:
        words.pop(0)
    return " ".join(words[:2])


def one_form(new: str, old: str) -> tuple[str, str]:
    """``new`` and ``old`` said in one form where they differ only in form: an acronym on one side for the
    capitalised words it stands for on the other, and the stored third person of the user on one side for the first
    person on the other (only when the other side does not also speak of "the user")."""
    new, old = _expand_acronyms(new, old), _expand_acronyms(old, new)
    # Only where the first person is who the statement is about, its first word past words of talk ("my cat is",
    # "oh I work", "en fait je joue"), not a statement about someone else ("Tom told me he lives in Ghent").
    users = bool(_USER.match(_opening(new))), bool(_USER.match(_opening(old)))
    firsts = bool(_FIRST_PERSON.match(_opening(new))), bool(_FIRST_PERSON.match(_opening(old)))
    if users == (False, True) and firsts[0] and not firsts[1]:
        old = _to_first_person(old)
        new = _conjugated_as(new, old)
    elif users == (True, False) and firsts[1] and not firsts[0]:
        new = _to_first_person(new)
        old = _conjugated_as(old, new)
    return new, old


_FIRST_VERB = re.compile(r"\b(je\s+|j['’])([^\W\d_]+)", re.IGNORECASE)
_IRREGULAR = {"ai": "a", "suis": "est", "vais": "va", "peux": "peut", "veux": "veut"}


def _conjugated_as(first: str, other: str) -> str:
    """French verbs of ``first`` after "je" in the third person where ``other`` says them so ("je fais" / "fait",
    "je prends" / "prend", "je vis" / "vit"): the person is already read, the verb ending is the same verb."""
    said = set(re.findall(r"[^\W\d_]+", other.lower()))

    def third(match: re.Match[str]) -> str:
        verb = match.group(2)
        low = verb.lower()
        for candidate in (_IRREGULAR.get(low, ""), low[:-1] + "t", low[:-1]) if low.endswith(("s", "x")) else ():
            if candidate and candidate in said and low not in said:
                return match.group(1) + candidate
        return match.group(0)

    return _FIRST_VERB.sub(third, first)
