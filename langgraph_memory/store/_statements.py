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
    "guess want wants wanted days m ll ve re since"
)
_STOP_FR = _plain(
    "a le la les l un une des du de d au aux et ou en est sont etait ete suis es ai as avons avez ont avait "
    "avais dans sur pour par avec chez ce c cet cette ces il elle ils elles on nous vous je j tu te t me m moi "
    "toi lui se s sa son ses leur mon ma mes ton ta tes qui que qu quoi dont depuis tres aussi y toujours "
    "vraiment possede avoir eu vient venir comme peut doit oh ah bon ben bah euh alors ouais oui voila crois "
    "pense dit dis veut veux voudrait voulait va vais vas allons allez vont lieu tous toutes tout chaque"
)
_PRONOUNS = _plain("he she they il elle ils elles")
_COPULAS = _plain("is are was were est sont etait")
# A leading "no" / "non" answers what was said before: a correction cue, not a negation.
_LEADING_NO = _plain("no non nope nan")
_ONLY_EN, _ONLY_FR = _STOP_EN - _STOP_FR, _STOP_FR - _STOP_EN
# Correction cues. "plus" is a negation only with ne/n' (otherwise it means "more").
_UPDATE = _words("actually now currently nowadays anymore instead new maintenant desormais dorenavant "
                 "finalement nouveau nouvel nouvelle change changed changes changing changer changé switched "
                 "quit became become devenu devenue devenir sorry oops oups pardon desole desolee")
_UPDATE_PAIRS = {(_stem(a), _stem(b)) for a, b in (("en", "fait"), ("in", "fact"), ("no", "longer"), ("these", "days"),
                                                   ("ces", "jours"))}
_UPDATE |= _words("finally")
# "Ben now also plays drums" adds a fact: a cue with one of these is no correction.
_ADDITIVE = _plain("also too aussi egalement")
# Matched unstemmed: "notes" stems to "not".
_NEGATION = _plain("not no never nt ne n pas jamais aucun aucune")
# Dates and durations are values: "last year", "depuis juin", "le 10 janvier".
_TIME = _words(
    "year month week day ago last today yesterday tomorrow an ans mois semaine jour hier aujourd demain dernier "
    "prochain january february march april may june july august september october november december janvier "
    "fevrier mars avril mai juin juillet aout septembre octobre novembre decembre monday tuesday wednesday "
    "thursday friday saturday sunday lundi mardi mercredi jeudi vendredi samedi dimanche spring summer autumn "
    "fall winter printemps automne hiver morning afternoon evening night noon midnight weekend matin soir nuit "
    "midi minuit"
) | {f"month{n}" for n in range(1, 13)}
# Relatives other than a spouse (spouses belong to the relationship slot): "Omar's brother" is not Omar.
_KIN = _words(
    "brother sister son daughter mother father mom mum dad parent child kid friend colleague boss manager "
    "neighbour neighbor cousin uncle aunt nephew niece grandmother grandfather frere soeur fils fille mere pere "
    "maman papa enfant ami amie collegue patron chef voisin voisine oncle tante neveu"
)
# A possessed spouse is another person too ("Yuki's husband works at Nintendo"), though spouses also fill
# the relationship slot ("Jake is married to Emily").
_SPOUSES = _words("husband wife spouse partner mari femme epoux epouse conjoint compagnon compagne girlfriend "
                  "boyfriend copain copine")
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
                          "retraite cashier caissier caissiere waiter waitress serveur serveuse manager vendeur "
                          "vendeuse plumber plombier electrician electricien mechanic mecanicien pharmacist "
                          "pharmacien architect architecte journalist journaliste designer graphiste secretary "
                          "secretaire banker banquier consultant farmer agriculteur receptionist receptionniste "
                          "programmer programmeur"),
    ("<age>", True, False, "age aged old ans turned turns"),
    ("<name>", True, False, "name named called nom prenom surnom nickname appelle appellent nomme nommee "
                            "prenomme prenommee surnomme surnommee"),
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
_LABEL = re.compile(r"\s*[^\W\d_]+\s*:")


# Numbers said in words or as ordinals are the same value as in digits: "third floor" = "floor 3" = "3e
# étage", "forty" = "40". Not "one"/"un"/"une" (pronoun and article), nor "neuf" (also "new").
_NUMBERS = {w: str(n) for n, words in enumerate([
    "", "first premier premiere", "two second deux deuxieme seconde", "three third trois troisieme",
    "four fourth quatre quatrieme", "five fifth cinq cinquieme", "six sixth sixieme", "seven seventh sept septieme",
    "eight eighth huit huitieme", "nine ninth neuvieme", "ten tenth dix dixieme", "eleven eleventh onze onzieme",
    "twelve twelfth douze douzieme"]) for w in words.split()}
_NUMBERS.update({w: str(n) for n, w in [(20, "twenty"), (30, "thirty"), (40, "forty"), (50, "fifty"), (60, "sixty"),
                                        (20, "vingt"), (30, "trente"), (40, "quarante"), (50, "cinquante")]})
_ORDINAL = re.compile(r"0*(\d+)(?:st|nd|rd|th|e|er|re|ere|eme|ieme)?")
# Months in both languages are one value ("July" = "juillet" = the 07 of "04/07/1998").
_MONTHS = {w: f"month{n}" for n, pair in enumerate(
    "january/janvier february/fevrier march/mars april/avril may/mai june/juin july/juillet august/aout "
    "september/septembre october/octobre november/novembre december/decembre".split(), 1) for w in pair.split("/")}
_SLASHED_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")


def _spell_date(match: re.Match[str]) -> str:
    day, month, year = (int(g) for g in match.groups())
    if month > 12 >= day:  # 07/04/1998 written month first
        day, month = month, day
    return f"{day} month{month} {year}" if 1 <= month <= 12 else match.group(0)


def _canonical(word: str, plain: str) -> str | None:
    """The value a number or month word stands for, or ``None``."""
    if plain in _NUMBERS:
        return _NUMBERS[plain]
    number = _ORDINAL.fullmatch(plain)
    if number:
        return number.group(1)
    if plain in _MONTHS and (plain != "may" or word[0].isupper()):  # "may" is also a verb
        return _MONTHS[plain]
    return None


# The change structure of a correction. What a statement says has ended: the object of a stop verb
# ("stopped tennis", "a vendu sa Clio", "a laissé tomber le basket"), of "from" after a switch verb ("switched
# the hosting from Heroku to Fly.io"), of "instead of" / "à la place de", of "replaced". Determiners between a
# verb and its object are skipped.
_DETERMINERS = _plain("the a an his her their my our your its le la les l son sa ses leur leurs mon ma mes ton ta "
                      "tes de d du des un une")
_STOP_VERBS = _plain("stopped stop stops quit quits quitting sold sell sells dropped abandoned replaced arrete "
                     "arretee arretes arreter vendu vendue vendus abandonne abandonnee lache lachee remplace "
                     "remplacee")
_STOP_PAIRS = {("gave", "up"), ("given", "up"), ("give", "up"), ("laisse", "tomber"), ("laissee", "tomber"),
               ("got", "rid")}
_INSTEAD = [("instead", "of"), ("in", "place", "of"), ("rather", "than"), ("plutot", "que"), ("plutot", "qu"),
            *((*head, de) for head in (("a", "la", "place"), ("au", "lieu")) for de in ("de", "d", "du"))]
# Starting the replacement is part of the change, not another fact: "stopped tennis and started padel".
_START_VERBS = _plain("started start starts began begun bought buys adopted took taken picked commence commencee "
                      "mis mise achete achetee adopte adoptee up")
# A switch verb gives the new value: "switched to a Honda", "est passé à une Tesla", "a été déplacé au vendredi".
_SWITCH_VERBS = _plain("switched switch switches switching changed deplace deplacee")
# Moving to a time is rescheduling, not a change of residence: "the meeting moved to Wednesday".
_MOVE_VERBS = _plain("moved relocated demenage")


@dataclass
class _Change:
    skip: set[int] = field(default_factory=set)  # words of the change itself (verbs, "instead of")
    ended: set[str] = field(default_factory=set)  # stems of what the statement says has ended
    switch: bool = False  # a switch verb followed by the new value


def _object(plain: list[str], start: int) -> int | None:
    """Where the object after a verb starts; ``None`` when a preposition follows ("stopped by the bakery")."""
    i = start
    while i < len(plain) and plain[i] in _DETERMINERS:
        i += 1
    return i if i < len(plain) and plain[i] not in _STOP_EN | _STOP_FR else None


_INFLECTIONS = {"e", "s", "es", "ed", "er", "ir", "re", "ing"}


def same_word(a: str, b: str) -> bool:
    """Two stems of one word, one inflected: "fum" (fume) and "fumer"."""
    short, long = sorted((a, b), key=len)
    return a == b or (len(short) >= 3 and long.startswith(short) and long[len(short):] in _INFLECTIONS)


def _change(plain: list[str], stems: list[str], values: list[bool]) -> _Change:
    """The change structure of one statement (see :data:`_STOP_VERBS`)."""
    change = _Change()
    n = len(plain)
    for i, word in enumerate(plain):
        pair = tuple(plain[i: i + 2])
        if word in _STOP_VERBS or pair in _STOP_PAIRS:
            after = i + (2 if pair in _STOP_PAIRS else 1)
            after += plain[after: after + 1] == ["of"]  # "got rid of"
            j = _object(plain, after)
            if j is not None:
                change.skip |= set(range(i, after))
                change.ended.add(stems[j])
                if j + 1 < n and values[j] is False and plain[j].endswith("ing"):
                    change.ended.add(stems[j + 1])  # "quit playing tennis"
        for phrase in _INSTEAD:
            if tuple(plain[i: i + len(phrase)]) == phrase:
                after = i + len(phrase)
                j = _object(plain, after)
                if j is not None:
                    change.skip |= set(range(i, after))
                    change.ended.add(stems[j])
        # "passer à" is a switch to a thing ("à une Tesla") or a time ("à 19h"), not a visit ("à Paris").
        passed = word in ("passe", "passee") and plain[i + 1: i + 2] == ["a"] and (
            plain[i + 2: i + 3] in (["un"], ["une"]) or (i + 2 < n and (stems[i + 2] in _TIME or stems[i + 2][:1].isdigit())))
        if word in _SWITCH_VERBS or word in _MOVE_VERBS or passed:
            if "from" in plain[i + 1: i + 6]:
                j = _object(plain, plain.index("from", i + 1) + 1)
                if j is not None:
                    change.skip |= {i, plain.index("from", i + 1)}
                    change.ended.add(stems[j])
            k = i + 1
            while k < n and (plain[k] in _DETERMINERS or plain[k] in ("to", "a", "au", "aux", "on", "for")):
                k += 1
            if k < n and values[k] and (word not in _MOVE_VERBS or stems[k] in _TIME or any(c.isdigit() for c in stems[k])):
                change.switch = True
                change.skip.add(i)
    if change.ended:
        change.skip |= {i for i, word in enumerate(plain) if word in _START_VERBS}
    return change


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
    ended: set[str] = field(default_factory=set)  # what the statement says has ended ("stopped tennis")
    switch: bool = False  # "switched to a Honda", "moved to Wednesday": the new value of something
    additive: bool = False  # "also", "aussi": a fact beside the others, not instead of one
    attributes: set[str] = field(default_factory=set)  # values right after a copula: "is on Tuesday", "est le 3"


@lru_cache(maxsize=4096)  # a write parses its text once per candidate; stored texts recur
def _parse(text: str) -> _Parsed:
    raw = _TOKEN.findall(_SLASHED_DATE.sub(_spell_date, re.sub(r"n['’]t\b", " not", text)))
    plain = [_fold(w) for w in raw]
    canon = [_canonical(w, p) for w, p in zip(raw, plain)]
    stems = [c or _stem(w) for c, w in zip(canon, raw)]
    valued = [c is not None or w[0].isupper() or any(ch.isdigit() for ch in s) or s in _TIME
              for c, w, s in zip(canon, raw, stems)]
    change = _change(plain, stems, valued)
    change.ended |= {_SLOT_OF[e][0] for e in change.ended if e in _SLOT_OF}
    if _LABEL.match(text):
        change.skip.add(0)  # "Decision: use MySQL": a label of the memory's type, not who it is about
    copula = False
    # Vote on unambiguous stopwords; on a tie drop only words that are stopwords in both languages.
    en, fr = sum(w in _ONLY_EN for w in plain), sum(w in _ONLY_FR for w in plain)
    stop = _STOP_EN if en > fr else _STOP_FR if fr > en else _STOP_EN & _STOP_FR
    leading_no = bool(plain) and plain[0] in _LEADING_NO and plain[1:2] != ["longer"]
    negated = any(w in _NEGATION for w in plain[leading_no:]) or (
        "plus" in stems and bool({"ne", "n"} & set(stems)))
    # "Omar's brother", "le frère de Paul" -- but not "une fille de 8 ans".
    kin = {s for i, s in enumerate(stems) if s in _KIN | _SPOUSES and (
        (i >= 2 and stems[i - 1] == "s")
        or (stems[i + 1: i + 2] in (["de"], ["d"]) and raw[i + 2: i + 3] and raw[i + 2][0].isupper()))}
    parsed = _Parsed(set(), set(), leading_no, negated, kin, ended=change.ended, switch=change.switch,
                     additive=bool(_ADDITIVE & set(plain)))
    for i, (prev, word, s) in enumerate(zip([""] + stems, raw, stems)):
        if i == 0 and leading_no or i in change.skip:
            continue
        if plain[i] in _COPULAS:
            copula = True
            continue
        if s in _UPDATE or (prev, s) in _UPDATE_PAIRS:
            parsed.update = True
        elif plain[i] in _PRONOUNS and not parsed.tokens:
            parsed.pronoun = True
        elif plain[i] in _NEGATION or plain[i] in stop or (s == "plus" and negated):
            continue
        elif s == "year" and plain[i + 1: i + 2] == ["old"]:
            continue  # "45 years old": the age, said in full
        elif word[0].isupper() or any(c.isdigit() for c in s):
            # Names are checked before the lexicons: "Marie" is a person, not "mariée".
            named = word[0].isupper() and canon[i] is None
            if not parsed.tokens and named:
                parsed.lead = s
            if named:
                parsed.names.add(s)
            if copula:
                parsed.attributes.add(s)
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
            parsed.attributes |= {s} if s in _TIME and copula else set()
        copula = False
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
    if not who or not (slots or parsed.update or parsed.negated or parsed.ended or parsed.switch):
        return None
    return " ".join([*dict.fromkeys(who), *(_SLOT_WORDS[key] for key in sorted(slots))])
