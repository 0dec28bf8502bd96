"""Dedup policy: what a new memory means relative to one similar stored memory.

Pure Python (stdlib only); langchain-core is only reached through the model given to :class:`LLMDedupJudge`.
"""

from __future__ import annotations

import os.path
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol, Sequence

DedupDecision = Literal["duplicate", "refinement", "correction", "different"]
_DECISIONS: tuple[DedupDecision, ...] = ("duplicate", "refinement", "correction", "different")


@dataclass(frozen=True)
class DedupVerdict:
    """What to do with a new memory given one stored candidate.

    ``duplicate``: keep old, store nothing; ``refinement`` (old's fact and more) and ``correction`` (same subject
    and slot, new value): new supersedes old; ``different``: insert. ``judged``: the LLM judge made the call.
    """

    decision: DedupDecision
    reason: str
    judged: bool = False


class DedupJudge(Protocol):
    """Tie-breaker for the uncertain band; ``None`` means "no opinion"."""

    def __call__(self, new: str, old: str, cosine: float) -> DedupDecision | None: ...


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


def _only(a: set[str], b: set[str], exact: set[str]) -> set[str]:
    """Tokens of ``a`` unmatched in ``b``: values and slot keys exactly, other words by a long shared prefix
    (allergic/allergy, allergique/allergie) because the stemmer is crude."""
    def same(t: str, u: str) -> bool:
        if t in exact or u in exact or t[0] == "<" or u[0] == "<":
            return t == u
        n = len(os.path.commonprefix([t, u]))
        return t == u or (n >= 5 and n >= 0.75 * min(len(t), len(u)))
    # A loose match shares its first five letters: compare only within those buckets.
    by_prefix: dict[str, list[str]] = {}
    for u in b:
        by_prefix.setdefault(u[:5], []).append(u)
    return {t for t in a if t not in b and not any(same(t, u) for u in by_prefix.get(t[:5], ()))}


def _is_value(novel: set[str], values: set[str], cue: bool) -> bool:
    """Whether ``novel`` is a slot value: value tokens only or, after an explicit cue, one bare word ("blue");
    without a cue a bare-word swap is as likely another fact ("works at the hospital" / "at night")."""
    rest = {t for t in novel if t[0] != "<"}
    loose = rest - values
    return bool(rest) and (not loose or (cue and len(loose) == 1 and not rest & values))


class DedupPolicy:
    """Classify a new memory against one similar stored memory of the same user and kind.

    Cosine only nominates candidates (``>= candidate_floor``); the decision is mostly lexical because small
    embedders score refinements and different facts about one person alike (MiniLM: a refinement 0.76, a
    different fact 0.73, a residence correction 0.54). A conversational correction shares few words with what
    it corrects ("David habite à Ordizan" / "Non en fait David a déménagé à Toulouse": 0.42), so between
    ``subject_floor`` and ``candidate_floor`` a candidate about the same subject (a shared name or explicit
    subject) is still judged, but only a correction by rules 2 or 4 stands; anything else there is different.
    Rules, first match wins:

    1. below ``subject_floor``, disjoint explicit ``subjects``, another relative ("Omar's brother" vs
       "Omar"), or another leading name ("Alice works at X" vs "Bob works at X") -> different;
    2. opposite polarity ("n'est plus", "no longer") over the same content -> correction;
    3. old's content words all in new -> duplicate (nothing new) or refinement; new's all in old -> duplicate;
    4. shared context, same exclusive slot (residence, job, age, name, relationship, favourite) or an explicit
       cue ("actually", "now", "en fait", "désormais"), and only values swapped (names, numbers, dates, status
       words; one bare word after a cue) -> correction;
    5. at most a word or two swapped, no name/number/date among them, ``cosine >= duplicate_cosine`` -> duplicate;
    6. otherwise -> different.

    Rules 5-6 are uncertain: with a ``judge`` and ``uncertain_band[0] <= cosine <= uncertain_band[1]`` the judge
    decides (its ``None`` keeps the lexical verdict). Presets by embedder (cosine of normalised vectors):

    ======================  =====  =======  =========  ============  ============================================
    embedder                floor  subject  duplicate  band          why
    ======================  =====  =======  =========  ============  ============================================
    all-MiniLM-L6-v2        0.45   0.30     0.90       (0.55, 0.90)  measured: lowest tidy merge pair 0.54, lowest
                                                                     conversational correction 0.34; a different
                                                                     fact with one word swapped reaches 0.86
    text-embedding-3-small  0.40   0.25     0.92       (0.50, 0.92)  estimated (its cosines run lower)
    anything else           0.50   0.40     0.95       (0.60, 0.95)  conservative: cosine alone almost never merges
    ======================  =====  =======  =========  ============  ============================================
    """

    _PRESETS: dict[str, dict[str, Any]] = {
        "all-minilm-l6-v2": {"candidate_floor": 0.45, "subject_floor": 0.30, "duplicate_cosine": 0.90,
                             "uncertain_band": (0.55, 0.90)},
        "text-embedding-3-small": {"candidate_floor": 0.40, "subject_floor": 0.25, "duplicate_cosine": 0.92,
                                   "uncertain_band": (0.50, 0.92)},
        # multilingual-e5-small's cosines run high (different facts 0.82-0.98 on the labelled
        # pairs): fitted on those pairs, not blind (docs/embedders.md).
        "multilingual-e5-small": {"candidate_floor": 0.85, "subject_floor": 0.80, "duplicate_cosine": 0.97,
                                  "uncertain_band": (0.88, 0.97)},
    }

    def __init__(self, *, candidate_floor: float = 0.50, subject_floor: float | None = None,
                 duplicate_cosine: float = 0.95, uncertain_band: tuple[float, float] = (0.60, 0.95),
                 judge: DedupJudge | None = None) -> None:
        lo, hi = uncertain_band
        subject_floor = max(0.0, candidate_floor - 0.10) if subject_floor is None else subject_floor
        if not (0 <= subject_floor <= candidate_floor <= 1 and 0 <= duplicate_cosine <= 1 and 0 <= lo <= hi <= 1):
            raise ValueError("thresholds must lie in [0, 1] with subject_floor <= candidate_floor and "
                             "uncertain_band[0] <= uncertain_band[1]")
        self.candidate_floor = candidate_floor
        self.subject_floor = subject_floor
        self.duplicate_cosine = duplicate_cosine
        self.uncertain_band = (lo, hi)
        self.judge = judge

    @classmethod
    def for_embedder(cls, embedder_name: str, **overrides: Any) -> DedupPolicy:
        """Preset for a known embedder (short name, model directory or full id); conservative otherwise."""
        name = embedder_name.lower().replace("_", "-")
        preset = next((p for key, p in cls._PRESETS.items() if key in name), {})
        return cls(**{**preset, **overrides})

    def decide(self, new: str, old: str, cosine: float, *, new_subjects: Sequence[str] = (),
               old_subjects: Sequence[str] = ()) -> DedupVerdict:
        """Verdict for remembering ``new`` while ``old`` is stored, ``cosine`` apart."""
        verdict, certain = self._lexical(new, old, cosine, new_subjects, old_subjects)
        lo, hi = self.uncertain_band
        if certain or self.judge is None or not lo <= cosine <= hi:
            return verdict
        try:
            judged = self.judge(new, old, cosine)
        except Exception:  # a failing judge must never block a write
            judged = None
        if judged not in _DECISIONS:
            return verdict
        return DedupVerdict(judged, f"judge: {judged} (cosine {cosine:.2f}, lexical {verdict.decision})", True)

    def _lexical(self, new: str, old: str, cosine: float, new_subjects: Sequence[str],
                 old_subjects: Sequence[str]) -> tuple[DedupVerdict, bool]:
        def out(decision: DedupDecision, why: str, certain: bool = True) -> tuple[DedupVerdict, bool]:
            return DedupVerdict(decision, f"{why} (cosine {cosine:.2f})"), certain

        if cosine < self.subject_floor:
            return out("different", f"below subject floor {self.subject_floor:.2f}")
        ns, os_ = {_stem(s) for s in new_subjects}, {_stem(s) for s in old_subjects}
        if ns and os_ and not ns & os_:
            return out("different", "different subjects")
        n, o = _parse(new), _parse(old)
        if cosine < self.candidate_floor:
            # Reached by the subject, not by similarity: only a correction of the same subject counts.
            same = bool(ns & os_) or bool(n.names & o.names)
            if not same:
                return out("different", f"below candidate floor {self.candidate_floor:.2f}, another subject")
            verdict, certain = self._lexical(new, old, self.candidate_floor, new_subjects, old_subjects)
            if verdict.decision == "correction" and certain:
                return out("correction", f"same subject, {verdict.reason.rsplit(' (cosine', 1)[0]}")
            return out("different", f"below candidate floor {self.candidate_floor:.2f}, not a correction")
        if n.kin != o.kin:
            return out("different", f"about another person: {', '.join(sorted(n.kin ^ o.kin))}")
        exact = n.values | o.values
        old_only, new_only = _only(o.tokens, n.tokens, exact), _only(n.tokens, o.tokens, exact)
        if n.pronoun and n.lead is None and o.lead in old_only:
            old_only.discard(o.lead)  # "he moved to Toulouse": "he" is the one old names
        # "n'est plus prof, elle est devenue avocate": old's statement negated, one detail left out.
        restated = len(old_only) == 1 and not old_only & exact and bool(o.tokens - old_only - {o.lead}) \
            and bool(new_only & n.values)
        if n.negated != o.negated and (not old_only or not new_only or restated):
            return out("correction", "same statement, opposite polarity")
        if not old_only:
            if all(t[0] == "<" for t in new_only):  # e.g. "est infirmière" -> "travaille comme infirmière"
                return out("duplicate", "same content words")
            return out("refinement", f"adds {', '.join(sorted(new_only))}")
        if not new_only:
            return out("duplicate", "new says less than old")

        if o.lead in old_only and n.lead in new_only:
            # "Alice works at Google" -> "Bob works at Google": the swap is who, not a new value.
            return out("different", f"about another subject: {o.lead} -> {n.lead}")
        shared = bool(ns & os_) or any(t[0] != "<" for t in o.tokens - old_only) or (n.pronoun and o.lead is not None)
        slots = (o.tokens | n.tokens) & _EXCLUSIVE
        slot = next((s for s in sorted(slots) if s in o.tokens and s in n.tokens), None)
        # A cue may stand in for a shared slot, but only over a pure value swap ("Mark now drives a Tesla"), and
        # not when a slot is on one side only ("Lily is a nurse" / "Lily no longer smokes").
        one_sided = bool((o.tokens ^ n.tokens) & _EXCLUSIVE)
        cue = n.update and not one_sided and bool(slots or (old_only <= o.values and new_only <= n.values))
        # A date swapped for another kind of value is another fact: "boulanger" -> "le dimanche".
        dated = [bool(d) and d - {t for t in d if t[0] == "<"} <= _TIME for d in (old_only, new_only)]
        if shared and (slot or cue) and dated[0] == dated[1] and _is_value(old_only, o.values, n.update) \
                and _is_value(new_only, n.values, n.update):
            swap = f"{', '.join(sorted(old_only))} -> {', '.join(sorted(new_only))}"
            return out("correction", f"{slot or 'correction cue'}: {swap}")
        # A paraphrase may swap a word or two, never a name, number or date.
        hard = (old_only | new_only) & exact - _STATUS
        small = all(len(d) <= 1 + len(t) // 4 for d, t in ((old_only, o.tokens), (new_only, n.tokens)))
        if cosine >= self.duplicate_cosine and small and not hard:
            return out("duplicate", "paraphrase: few swapped words, high cosine", certain=False)
        return out("different", f"new facts: {', '.join(sorted(new_only))}", certain=False)


_JUDGE_PROMPT = (
    "You deduplicate long-term memories about a user. Compare the OLD stored memory with the NEW one and answer "
    "with exactly one word:\nduplicate: NEW says nothing that OLD does not say\nrefinement: NEW says what OLD "
    "says and adds detail\ncorrection: NEW gives a new value for the same subject and attribute as OLD\n"
    "different: NEW is another fact, even about the same person\n\nOLD: {old}\nNEW: {new}\nAnswer:"
)


class LLMDedupJudge:
    """Ask any langchain-core chat model (``BaseChatModel``) for one of the four decisions; ``None`` on errors or
    unparsable answers, so that the policy keeps its lexical verdict."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def __call__(self, new: str, old: str, cosine: float) -> DedupDecision | None:
        try:
            content = self.model.invoke(_JUDGE_PROMPT.format(old=old, new=new)).content
            if not isinstance(content, str):  # a list of content blocks
                content = " ".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
        except Exception:
            return None
        words = re.findall(r"[a-z]+", content.lower())
        found = [w for w in words if w in _DECISIONS]
        # A leading label wins ("correction. The city changed"); otherwise only an unambiguous one counts.
        if found and (words[0] == found[0] or len(set(found)) == 1):
            return found[0]  # type: ignore[return-value]
        return None
