"""What a remembered statement says, for the dedup policy: content words, values (names,
numbers, dates, status words), slots (residence, job, ...), what a slot is, correction cues,
when a change happened, tense, negation, and the change structure of a correction (read by
``_changes``: "stopped X", "from X to Y", "Y instead of X"). Values are spelled one way first
(``_quantities``); words are folded and stemmed by ``_wordforms``.

Pure Python (stdlib only). Word lists are per kind of word, in English and French.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from langgraph_memory.store._change_verbs import spoken_cues
from langgraph_memory.store._changes import _DETERMINERS, _change
from langgraph_memory.store._forms import spell_forms
from langgraph_memory.store._quantities import CARDINALS as _CARDINALS, canonical as _canonical, spell_values
from langgraph_memory.store._wordforms import _STOP_EN, _STOP_FR, _SYNONYMS, _TIME, _fold, _plain, _stem, _words

_PRONOUNS = _plain("he she they il elle ils elles")
# Copulas, and the verbs a schedule is said with ("the club meets on Thursdays", "a lieu le mardi").
_COPULAS = _plain("is are was were est sont etait sera seront meets meet held")
# A leading "no" / "non" answers what was said before: a correction cue, not a negation.
_LEADING_NO = _plain("no non nope nan")
_ONLY_EN, _ONLY_FR = _STOP_EN - _STOP_FR, _STOP_FR - _STOP_EN
# Correction cues. "plus" is a negation only with ne/n' (otherwise it means "more").
_UPDATE = _words("actually now currently nowadays anymore instead new maintenant desormais dorenavant "
                 "finalement nouveau nouvel nouvelle change changed changes changing changer changé switched "
                 "quit became become devenu devenue devenir sorry oops oups pardon desole desolee scratch lately "
                 "recently recemment dernierement retrained reconverti reconvertie")
_UPDATE_PAIRS = {(_stem(a), _stem(b)) for a, b in (("en", "fait"), ("in", "fact"), ("no", "longer"), ("these", "days"),
                                                   ("ces", "jours"),
                                                   ("the", "moment"), ("ce", "moment"), ("l", "instant"),
                                                   ("depuis", "peu"))}
_UPDATE |= _words("finally")
# "Ben now also plays drums" adds a fact: a cue with one of these is no correction.
_ADDITIVE = _plain("also too aussi egalement")
_ADDITIVE_PAIRS = {("as", "well"), ("en", "plus"), ("de", "plus")}  # "plays squash on fridays as well"
# Matched unstemmed: "notes" stems to "not".
_NEGATION = _plain("not no never nt ne n pas jamais aucun aucune")
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
    ("<residence>", True, False, "live moved relocated reside habite habiter habitent vit vivent vivre "
                                 "demenage demenager installe installer emmenage emmenager"),
    ("<job>", True, False, "work job employed employer travaille travail travaillent bosse boulot taf emploi "
                           "metier profession career hired embauche embauchee recrute recrutee retrained reconverti "
                           "reconvertie"),
    # Occupations are the job slot's values: "est prof" -> "est devenue avocate".
    ("<job>", True, True, "teacher prof professeur enseignant enseignante nurse infirmier infirmiere doctor "
                          "medecin engineer ingenieur developer developpeur lawyer avocat avocate chef cuisinier "
                          "baker boulanger boulangere accountant comptable student etudiant etudiante retired "
                          "retraite cashier caissier caissiere waiter waitress serveur serveuse manager vendeur "
                          "vendeuse plumber plombier electrician electricien mechanic mecanicien pharmacist "
                          "pharmacien architect architecte journalist journaliste designer graphiste secretary "
                          "secretaire banker banquier consultant farmer agriculteur receptionist receptionniste "
                          "programmer programmeur barista courier driver chauffeur livreur livreuse unemployed jobless "
                          "chomage chomeur chomeuse freelance librarian libraire bookseller paralegal hairdresser "
                          "coiffeur coiffeuse firefighter pompier policeman policier policiere pilot pilote "
                          "photographer photographe translator traducteur traductrice researcher chercheur "
                          "chercheuse professor lecturer scientist analyst analyste butcher boucher bouchere "
                          "florist fleuriste carpenter menuisier postman facteur factrice instituteur "
                          "institutrice intern stagiaire nanny nounou tutor paramedic midwife sage soignant soignante "
                          "veterinarian veterinaire ambulancier ambulanciere"),
    ("<age>", True, False, "age aged old ans turned turns"),
    ("<name>", True, False, "name named called nom prenom surnom nickname appelle appellent nomme nommee "
                            "prenomme prenommee surnomme surnommee renamed renomme renommee rebaptise rebaptisee"),
    ("<relationship>", True, False, "husband wife spouse partner mari femme epoux epouse conjoint compagnon compagne "
                                    "girlfriend boyfriend copain copine couple dating"),
    ("<relationship>", True, True, "married marie divorced single celibataire engaged fiance widowed veuf veuve "
                                   "pacse separated separe attached"),
    ("<favourite>", True, False, "favourite favorite prefer preferred fav fave"),
    # One diet at a time: "est végétarienne" -> "est devenue vegan".
    ("<diet>", True, True, "vegetarian vegetarien vegetarienne vegan vegane vegetalien vegetalienne pescatarian "
                           "pescetarien pescetarienne flexitarian flexitarien flexitarienne omnivore"),
    ("<likes>", False, False, "like love enjoy aime aiment adore"),
    # Families that accumulate: two allergies, two languages stand side by side.
    ("<allergy>", False, False, "allergic allergy allergique allergie intolerant intolerance intolerante"),
    ("<language>", False, False, "speak speaks speaking parle parlent"),
    # Plans are not exclusive (two trips can be planned), so only a cue makes a new value a correction.
    ("<plans>", False, False, "plan plans planning planned trip travel voyage vacances holiday holidays partir "
                              "part pars prevoit prevoir"),
]
_SLOT_OF = {w: (key, is_value) for key, _, is_value, words in _SLOTS for w in _words(words)}
_EXCLUSIVE = {key for key, exclusive, _, _ in _SLOTS if exclusive}
# A plan changed after a cue is a changed plan ("finalement elle part en Sardaigne"); not so a liking.
_ACCUMULATING = {key for key, exclusive, _, _ in _SLOTS if not exclusive} - {"<plans>"}
_STATUS = {w for _, _, is_value, words in _SLOTS if is_value for w in _words(words)}
_TOKEN = re.compile(r"[^\W_]+")
_LABEL = re.compile(r"\s*[^\W\d_]+\s*:")


# When a change happened is not the new value: "moved to Bristol last spring", "a déménagé le mois dernier",
# "from next week". Such words are left out when the policy compares values.
_WHEN_BEFORE = _plain("last next this past ce cette cet")  # "last spring", "cette année"
_WHEN_AFTER = _plain("dernier derniere prochain prochaine passe passee ago")  # "le mois dernier", "2 weeks ago"
_FROM = _plain("from starting")
_FEW = _plain("few couple several quelques")  # "a few months ago"
_SINCE = _plain("since depuis")
_OPEN_CHOICE = _plain("or ou between entre either soit hesite hesitating torn undecided")
_IN = _plain("in en during over pendant")
_SEASONS = _words("spring summer autumn fall winter printemps ete automne hiver rentree") | {
    f"month{n}" for n in range(1, 13)}
# Verbs of a change of state: in their statements a month or a season says when it happened.
_CHANGING = _plain("moved relocated demenage demenagee installe installee emmenage emmenagee switched changed "
                   "change changee migrated migre bascule basculee passe passee quit left quitte quittee turned")
# A title makes the next word a name, even in lower case: "dr collins", "le docteur petit".
_TITLES = _plain("dr mr mrs ms docteur maitre mme madame monsieur")
# A past fact is another fact than a present one ("worked at Canon" / "works at Nikon", "a habité à Metz"):
# past forms of the residence and job verbs, "used to", and a past copula.
_OWNERS = _plain("my his her our their your mon ma mes son sa ses ton ta tes notre nos votre vos leur leurs")
_PAST_EN = _plain("lived worked resided was were")
_PAST_FR = _plain("habitait vivait travaillait bossait etait habitaient vivaient travaillaient")
_PARTICIPLES = _plain("habite vecu travaille bosse")  # after "a" / "avait": "a habité", "avait vécu"
_HAVE_FR = _plain("a ai as avons avez ont avait avais avaient")  # "from next week": the change starts then, a cue
# The word before a name said in lower case ("moved to antwerp", "à nancy"); not before a common place.
_PLACE_PREPOSITIONS = {"to", "in", "at", "from", "à", "au", "aux", "chez"}
_COMMON_PLACES = _words("home work school bed church hospital night noon maison domicile boulot travail ecole "
                        "lit eglise hopital")
_NOT_PLACES = _COMMON_PLACES | _KIN | _SPOUSES  # nor a relative ("moved in with his brother")
# What introduces a value: the same kind on both sides, or the swap is another fact ("works at Google" /
# "works from home"). A copula and "as" / "comme" name a role; these prepositions a place.
_INTRO = {**dict.fromkeys(("as", "comme"), "="), **dict.fromkeys(("at", "in", "for", "chez", "à", "au", "aux", "dans",
                                                                  "pour"), "@")}
_ARTICLES = {"the", "a", "an", "le", "la", "les", "l", "un", "une"}
_WHEREABOUTS = {"in", "at", "chez", "à", "au", "aux"}


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
    passed_to_name: bool = False  # "est passée à Linux": a switch or a visit, by what old says
    target: set[str] = field(default_factory=set)  # that new value's words ("switched to soy milk")
    additive: bool = False  # "also", "aussi": a fact beside the others, not instead of one
    attributes: set[str] = field(default_factory=set)  # values right after a copula: "is on Tuesday", "est le 3"
    first: str | None = None  # the first content word, capitalised or not ("kofi switched ...")
    when: set[str] = field(default_factory=set)  # when a change happened: "last spring", "le mois dernier"
    phrases: dict[str, frozenset[str]] = field(default_factory=dict)  # a name's words: "Fiat Panda", "Google Drive"
    # What the statement says something *is*: the words after its last copula or exclusive slot verb ("is lasagne",
    # "works at the library"), and what introduced them ("=" a role or copula, "@" a place).
    predicate: set[str] = field(default_factory=set)
    intro: str = ""
    # Ordinals before a copula: which one is said to be something ("Omid's first job was", "le deuxième poste").
    head: set[str] = field(default_factory=set)
    ordinals: set[str] = field(default_factory=set)
    past: bool = False  # a past fact: "worked at", "used to live", "a habité"
    coordinated: bool = False  # says two things at once: "plays tennis and golf", "un chat et un chien"
    at: dict[str, int] = field(default_factory=dict)  # where each content word stands among all words
    nouns: set[str] = field(default_factory=set)  # content words right after a determiner: things, not verbs
    role: str | None = None  # what a switch changed without naming the new one: "switched banks"
    # Old left a choice open: "hesitates between Lyon and Lille", "a flat in Leith or Portobello".
    open_choice: bool = False
    located: bool = False  # the last copula says where: "is in Galway", "is at KPMG", "est chez Free"
    moved: set[str] = field(default_factory=set)  # what a switch moved: "converting the ingestion service to rust"


def _when(plain: list[str], stems: list[str], changing: bool) -> tuple[set[int], bool]:
    """Positions of the words saying when a change happened, and whether one says it starts then: "since the
    autumn", "depuis la rentrée" start a state; in a statement of change ("moved to Cardiff in October", "s'est
    installée à Annecy en septembre") a month or season after "in" / "en" says when it happened."""
    at: set[int] = set()
    starts = False
    for i, s in enumerate(stems):
        # "été" is also a participle: a season only after "cet", "l'", "en".
        if s not in _TIME and not (plain[i] == "ete" and i and plain[i - 1] in ("cet", "l", "en")):
            continue
        k = i - 1 - (i >= 2 and plain[i - 1] in _ARTICLES | _WHEN_BEFORE)  # past "the", "la", "cet", "last"
        if k >= 0 and (plain[k] in _SINCE or changing and plain[k] in _IN and s in _SEASONS):
            at |= set(range(k - (k >= 1 and plain[k - 1] == "back"), i + 1))  # "back in the summer"
            starts |= plain[k] in _SINCE
        elif i and plain[i - 1] in _WHEN_BEFORE:
            at |= {i - 1, i}
            starts |= i >= 2 and plain[i - 2] in _FROM
        elif plain[i + 1: i + 2] and plain[i + 1] in _WHEN_AFTER:
            at |= {i, i + 1} | ({i - 1} if i and (stems[i - 1].isdigit() or plain[i - 1] in _FEW) else set())
    # "since the timetable change", "depuis le déménagement": since an event, to the end of the statement.
    for i, word in enumerate(plain[:-2]):
        if word in _SINCE and plain[i + 1] in _ARTICLES and len(plain) - i <= 5:
            at |= set(range(i, len(plain)))
            starts = True
    return at, starts


def _named(word: str) -> bool:
    """A name: capitalised, or with a capital inside ("iPhone", "macOS")."""
    return word[0].isupper() or any(c.isupper() for c in word[1:])


def _spelled(text: str) -> str:
    text = re.sub(r"\b(ca|wo)n['’]t\b|\bcannot\b", lambda m: {"ca": "can", "wo": "will"}.get(m.group(1) or "", "can") + " not",
                  text, flags=re.IGNORECASE)  # "can't" = "cannot" = "can not", "won't" = "will not"
    text = re.sub(r"n['’]t\b", " not", spell_forms(text))
    text = re.sub(r"\b(he|she|it|that|there|what|who)['’]s\b", r"\1 is", text, flags=re.IGNORECASE)
    # A second-hand thing is a used one ("second" would read as the number 2).
    text = re.sub(r"\b(?:second[- ]?hand|pre-?owned)\b", "used", text, flags=re.IGNORECASE)
    # "based in" is where one lives; "base" alone is not (both stem to "bas").
    text = re.sub(r"\bbased(?=\s+(?:in|at)\b)", "residing", text, flags=re.IGNORECASE)
    # "'s" before an article or a preposition is "is": "tilly's a lawyer now", "the review's on Thursday".
    text = re.sub(r"(\w)['’]s\s+(?=(?:a|an|the|at|in|on|from|now|still|back)\b)", r"\1 is ", text,
                  flags=re.IGNORECASE)
    text = re.sub(r"\b(in|since|until|by|of|en) may\b", r"\1 May", text)  # the month, not the verb
    # "au profit de X" is "pour X"; "est partie s'installer à" is "s'est installée à".
    text = re.sub(r"\bau profit d(?:e\b|['’])", "pour ", text, flags=re.IGNORECASE)
    text = re.sub(r"\bpartie?s? (?=(?:s['’]installer|vivre|habiter)\b)", "", text, flags=re.IGNORECASE)
    # "in the end", "au final", "en fin de compte" say what "finally" says.
    text = re.sub(r"\b(?:in the end|at the end of the day)\b", "finally", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:au final|en fin de compte|finalement)\b", "finalement", text, flags=re.IGNORECASE)
    return spell_values(spoken_cues(text))


@lru_cache(maxsize=4096)  # a write parses its text once per candidate; stored texts recur
def _parse(text: str) -> _Parsed:
    raw = _TOKEN.findall(_spelled(text))
    plain = [_fold(w) for w in raw]
    canon = [_canonical(w, p) for w, p in zip(raw, plain)]
    stems = [c or _SYNONYMS.get(_stem(w), _stem(w)) for c, w in zip(canon, raw)]
    valued = [c is not None or _named(w) or any(ch.isdigit() for ch in s) or s in _TIME
              for c, w, s in zip(canon, raw, stems)]
    change = _change(plain, stems, valued)
    change.ended |= {_SLOT_OF[e][0] for e in change.ended if e in _SLOT_OF}
    if _LABEL.match(text):
        change.skip.add(0)  # "Decision: use MySQL": a label of the memory's type, not who it is about
    copula = False
    # Vote on unambiguous stopwords; on a tie drop only words that are stopwords in both languages.
    # Time words vote for neither language ("l'an dernier": "an" is no English article there).
    en, fr = (sum(w in only and s not in _TIME for w, s in zip(plain, stems)) for only in (_ONLY_EN, _ONLY_FR))
    stop = _STOP_EN if en > fr else _STOP_FR if fr > en else _STOP_EN & _STOP_FR
    leading_no = bool(plain) and plain[0] in _LEADING_NO and plain[1:2] != ["longer"]
    negated = any(w in _NEGATION for w in plain[leading_no:])
    # "Omar's brother", "le frère de Paul", "Eli has a son named Max" -- but not "une fille de 8 ans".
    kin = {s for i, s in enumerate(stems) if s in _KIN | _SPOUSES and (
        (i >= 2 and stems[i - 1] == "s")
        # Another owner inside the head: "my son's school" is not "my school" (but "Marie's" is a name).
        or (stems[i + 1: i + 2] == ["s"] and raw[i][:1].islower())
        or (i >= 2 and plain[i - 2] in ("de", "d", "of") and plain[i - 1] in _OWNERS)  # "la voiture de mon frère"
        # A relative said at the head of the statement is who it is about: "my brother works as",
        # "ma sœur utilise plus asana", "his son quit judo".
        or (i == 1 and plain[0] in _OWNERS)
        or (i >= 2 and plain[i - 1] in ("a", "an", "un", "une") and plain[i - 2] in ("has", "have", "had", "a"))
        or (i >= 3 and plain[i - 1] in ("new", "nouveau", "nouvelle") and plain[i - 2] in ("a", "un", "une")
            and plain[i - 3] in ("has", "have", "had", "a"))
        or (stems[i + 1: i + 2] in (["de"], ["d"]) and raw[i + 2: i + 3] and (raw[i + 2][0].isupper() or (
            raw[i + 2].isalpha() and plain[i + 2] not in _STOP_FR and stems[i + 2] not in _TIME))))}
    when, starts = _when(plain, stems, bool(change.ended or change.switch or _CHANGING & set(plain)))
    past = any(w in _PAST_EN or w in _PAST_FR or (w == "used" and plain[i + 1: i + 2] == ["to"])
               or (w in _PARTICIPLES and raw[i][-1:].lower() in "éu" and i and plain[i - 1] in _HAVE_FR)
               for i, w in enumerate(plain))
    parsed = _Parsed(set(), set(), leading_no or starts, negated, kin, ended=change.ended, switch=change.switch,
                     passed_to_name=change.passed_to_name,
                     target=change.target, additive=bool(_ADDITIVE & set(plain)) or any(
                         pair in _ADDITIVE_PAIRS for pair in zip(plain, plain[1:])), past=past,
                     coordinated=bool({"and", "et", "&"} & set(plain)), role=change.role, moved=change.moved,
                     open_choice=bool(_OPEN_CHOICE & set(plain)))
    # "a" is an article in English, a verb in French ("a fêté ses 18 ans").
    determiners = _DETERMINERS - ({"a"} if stop is _STOP_FR else set()) | ({"s"} if stop is _STOP_EN else set())
    shouted = text.isupper()  # "I LIVE IN PARIS": capitals say nothing there
    run: list[str] = []  # the capitalised words of the current name
    placed: set[str] = set()  # lower-case words after "to", "in", "à", "chez"...
    for i, (prev, word, s) in enumerate(zip([""] + stems, raw, stems)):
        named = (_named(word) or i and plain[i - 1] in _TITLES and s not in stop) and canon[i] is None \
            and i not in change.skip
        if run and not named:
            parsed.phrases.update(dict.fromkeys(run, frozenset(run)))
            run = []
        if i == 0 and leading_no or i in change.skip:
            continue
        if plain[i] in _COPULAS or (s in _SLOT_OF and s not in _STATUS and s[0] != "<" and
                                   _SLOT_OF[s][0] in _EXCLUSIVE):
            # The value comes next: what introduces it, past cue words and determiners.
            nxt = next((w.lower() for w, t in zip(raw[i + 1:], stems[i + 1:]) if t not in _UPDATE and
                        w.lower() not in _ARTICLES), "")
            parsed.predicate, parsed.intro = set(), "=" if plain[i] in _COPULAS else _INTRO.get(nxt, nxt)
            if plain[i] in _COPULAS:
                parsed.located = nxt in _WHEREABOUTS  # "mo's in galway now", "est chez Free"
                parsed.head = parsed.ordinals & parsed.tokens
                copula = True
                continue
        if s in _UPDATE or (prev, s) in _UPDATE_PAIRS:
            parsed.update = True
            continue
        if plain[i] in _PRONOUNS and not parsed.tokens:
            parsed.pronoun = True
            continue
        # An acronym is a name even when it spells a stopword: "works at WHO", "works in IT", "moved to the US".
        acronym = len(word) >= 2 and word.isupper() and plain[i] not in ("ok", "i") and not shouted
        if (plain[i] in _NEGATION or plain[i] in stop or (plain[i] == "plus" and negated)) and not acronym:
            continue
        if s == "year" and plain[i + 1: i + 2] == ["old"]:
            continue  # "45 years old": the age, said in full
        if canon[i] is not None and not plain[i].isdigit() and plain[i] not in _CARDINALS:
            parsed.ordinals.add(s)  # "first", "2nd", "troisième"
        if parsed.first is None:
            parsed.first = s
        parsed.at.setdefault(s, i)
        if i and plain[i - 1] in determiners:
            parsed.nouns.add(s)
        if i in when:
            parsed.when.add(s)
        if named or any(c.isdigit() for c in s):
            # Names are checked before the lexicons: "Marie" is a person, not "mariée".
            if not parsed.tokens and named:
                parsed.lead = s
            if named:
                parsed.names.add(s)
                run.append(s)
            if copula:
                parsed.attributes.add(s)
            # "Ryan is 45", "turned 46": a bare number after a copula is an age.
            before = [w for w, t in zip(plain[:i], stems[:i]) if t not in _UPDATE][-1:]  # "is actually 31"
            if s.isdigit() and before in (["is"], ["am"], ["turned"], ["turns"]):
                parsed.tokens.add("<age>")
            parsed.tokens.add(s)
            parsed.values.add(s)
        elif s in _SLOT_OF and plain[i] not in ("call", "calls"):  # before _TIME: "ans" in "34 ans" is an age
            # ("a call with Bob" is no name: only "called" names)
            key, is_value = _SLOT_OF[s]
            parsed.tokens |= {key, s} if is_value else {key}
            parsed.values |= {s} if is_value else set()
            parsed.predicate |= {s} if is_value else set()
            copula = False
            continue
        else:
            parsed.tokens.add(s)
            # A name said in lower case: "moved to antwerp", "à nancy".
            after = raw[i - 1: i] and raw[i - 1].lower() in _PLACE_PREPOSITIONS
            if after and s not in _NOT_PLACES:
                placed.add(s)
            parsed.values |= {s} if s in _TIME else set()
            parsed.attributes |= {s} if s in _TIME and copula else set()
        parsed.predicate.add(s)
        copula = False
    if run:
        parsed.phrases.update(dict.fromkeys(run, frozenset(run)))
    if parsed.tokens & {"<residence>", "<job>"}:
        parsed.values |= placed  # a place or employer said in lower case: "moved to antwerp", "bosse chez free"
    return parsed


_SLOT_WORDS = {key: " ".join(words for k, _, _, words in _SLOTS if k == key) for key in _EXCLUSIVE}


def subject_probe(text: str, subjects: Sequence[str] = ()) -> str | None:
    """Words that reach the stored facts a new memory may correct though it shares few words with them: its
    names and explicit subjects, plus every word of its exclusive slots in both languages ("a déménagé"
    reaches "habite", "lives"). ``None`` when it names no one, or says nothing a correction would say (no
    exclusive slot, cue or negation): such a memory needs no candidates beyond its nearest neighbours."""
    parsed = _parse(text)
    slots = parsed.tokens & _EXCLUSIVE
    # Who, and what it says has ended: "migrated off digitalocean" reaches "hosting is on DigitalOcean".
    who = [w for w in _TOKEN.findall(text) if _stem(w) in parsed.names | parsed.ended | parsed.moved] + list(subjects)
    if not who and parsed.first and parsed.first[0].isalpha() and parsed.first not in _SLOT_OF:
        who = [w for w in _TOKEN.findall(text) if _stem(w) == parsed.first][:1]  # "mathis a demenage ..."
    if not who or not (slots or parsed.update or parsed.negated or parsed.ended or parsed.switch):
        return None
    return " ".join([*dict.fromkeys(who), *(_SLOT_WORDS[key] for key in sorted(slots))])
