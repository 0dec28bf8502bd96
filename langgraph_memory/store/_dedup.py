"""Dedup policy: what a new memory means relative to one similar stored memory.

Pure Python (stdlib only); langchain-core is only reached through the model given to :class:`LLMDedupJudge`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Sequence

from langgraph_memory.store._changes import CHOICE_STEMS, USES_STEMS, same_word
from langgraph_memory.store._forms import one_form, spelled_out_by
from langgraph_memory.store._frames import _steady, alike, choice_made, frame_swap, moved_on, role_changed, slot_swap
from langgraph_memory.store._slot_aliases import another_item, one_more, same_slot, says_another
from langgraph_memory.store._slots import _LANGUAGES, held_apart, single_value_swap
from langgraph_memory.store._travel import mode_clash, way_changed
from langgraph_memory.store._statements import (_ACCUMULATING, _EXCLUSIVE, _KIN, _SPOUSES, _STATUS, _TIME, _parse,
                                                _Parsed, _stem, subject_probe)
from langgraph_memory.store._value_kinds import (kind_swap, named_swap, not_a_place, number_clash, one_word_swap,
                                                 relation_swap, worked_for)

__all__ = ["DedupDecision", "DedupJudge", "DedupPolicy", "DedupVerdict", "LLMDedupJudge", "subject_probe"]

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


_ORIGINS = {_stem(w) for w in _LANGUAGES}  # languages, and nationalities said the same way ("French")


def _only(a: set[str], b: set[str], exact: set[str]) -> set[str]:
    """Tokens of ``a`` unmatched in ``b``: values and slot keys exactly, other words by a long shared prefix
    (allergic/allergy, allergique/allergie) or as one word inflected (livre/livrer) because the stemmer is
    crude."""
    # A loose match shares its first three letters: compare only within those buckets.
    by_prefix: dict[str, list[str]] = {}
    for u in b:
        by_prefix.setdefault(u[:3], []).append(u)
    return {t for t in a if t not in b and not any(alike(t, u, exact) for u in by_prefix.get(t[:3], ()))}


def _is_value(novel: set[str], values: set[str], cue: bool) -> bool:
    """Whether ``novel`` is a slot value: value tokens only or, after an explicit cue, one bare word ("blue");
    without a cue a bare-word swap is as likely another fact ("works at the hospital" / "at night")."""
    rest = {t for t in novel if t[0] != "<"}
    loose = rest - values
    return bool(rest) and (not loose or (cue and len(loose) == 1 and not rest & values))


_RELATIVES = _KIN | _SPOUSES
_SLOT_KEYS = _EXCLUSIVE | _ACCUMULATING | {"<plans>"}
_DATES = _TIME | {str(year) for year in range(1900, 2101)}
_CLOCK = re.compile(r"t\d{4}")  # a clock time as the statements spell it (t1430)
_WHERE_AND_WORK = {"<residence>", "<job>"}  # the slots a past fact is said about ("worked at", "a habité")
_PLACE_INTROS = {"in", "at", "chez", "à", "au", "aux", "dans", "with", "avec", "en"}


def _ends(n: _Parsed, o: _Parsed, old_only: set[str], new_only: set[str]) -> str | None:
    """Why new ends what old states, or ``None``: "stopped tennis and started padel", "from Heroku to Fly.io",
    "MySQL à la place de PostgreSQL". Only old's own words may be ended, for the same subject, and little else
    may differ (another name left behind in old, or a new context, is another fact). What old itself says has
    ended ("stopped X" said again) ends nothing new."""
    ended = set() if o.negated or o.lead in old_only else {
        t for t in o.tokens - {o.lead} if any(same_word(t, e) for e in n.ended - o.ended)}
    ended |= {w for t in ended for w in o.phrases.get(t, ())}  # a name ends whole: "sold the polo"
    left = old_only - ended - o.when
    if not ended or left & o.names or (o.coordinated and left):  # "plays tennis and golf" / "quit tennis"
        return None
    # What old says beside the ended thing, and a slot new does not name ("for work", "lives in"), is its
    # context: a little of it may go unrepeated ("from X to Y" names both ends: a little more), but not for
    # another context in new ("for personal mail", "for a week"). What came instead is no context.
    loose_old = {t for t in left - o.values - CHOICE_STEMS if t[0] != "<"} | (o.tokens - n.tokens) & _EXCLUSIVE
    context = {t for t in new_only - n.values - n.when - n.target if t[0] != "<" or t in _SLOT_KEYS} \
        - (n.tokens & o.tokens)
    if len(loose_old) > 2 + n.switch or (loose_old and context):
        return None
    now = f" for {', '.join(sorted(new_only))}" if new_only else ""
    return f"ends: {', '.join(sorted(ended))}{now}"


def _two_things(swapped: set[str], values: set[str]) -> bool:
    """Whether a swapped part holds a time and something else: a date and another word, or a clock time and
    another value."""
    clocks = {t for t in swapped if _CLOCK.fullmatch(t)}
    return bool(swapped & _DATES and swapped - _DATES) or bool(clocks and (swapped - clocks) & values)


class DedupPolicy:
    """Classify a new memory against one similar stored memory of the same user and kind.

    Cosine only nominates candidates (``>= candidate_floor``); the decision is mostly lexical because small
    embedders score refinements and different facts about one person alike (MiniLM: a refinement 0.76, a
    different fact 0.73, a residence correction 0.54). A conversational correction shares few words with what
    it corrects ("David habite à Ordizan" / "Non en fait David a déménagé à Toulouse": 0.42), so between
    ``subject_floor`` and ``candidate_floor`` a candidate about the same subject (a shared name or explicit
    subject, or new's first word being old's leading name) is still judged, but only a certain correction
    stands; anything else there is different. Rules, first match wins (docs/judgement.md says each in full):

    1. below ``subject_floor``, disjoint explicit ``subjects``, another relative ("Omar's brother" vs
       "Omar"), another leading name ("Alice works at X" vs "Bob works at X"), a past fact beside a present one
       ("worked at" / "works at"), an ordinal naming another item ("first job" / "second job") -> different;
    2. new says what old states has ended ("stopped X", "from X to Y", "Y instead of X"), old says little else
       and new no other context -> correction;
    3. opposite polarity ("n'est plus", "no longer") over the same content -> correction;
    4. old's content words all in new -> duplicate (nothing new) or refinement; new's all in old -> duplicate;
    5. (when a change happened set aside) two events at two times -> different; shared context, same exclusive
       slot (residence, job, age, name, relationship, favourite, diet) or an explicit cue ("actually", "now",
       "en fait", "désormais"), and only values swapped (or one bare word after a cue, outside families that
       accumulate), or what the slot *is* said again after a cue, or a switch verb's new value -> correction;
    6. the shape of the two statements (``_frames``): one stretch swapped in a shared frame after a change signal,
       a slot's value for another of its kind, an open choice made, which one of something changed ("switched
       GPs"), where someone lives or works said as where they are after a cue -> correction;
    7. at most a word or two swapped, no name/number/date among them, ``cosine >= duplicate_cosine`` -> duplicate;
    8. otherwise -> different.

    Rules 7-8 are uncertain: with a ``judge`` and ``uncertain_band[0] <= cosine <= uncertain_band[1]`` the judge
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
        verdict, certain = self._read(new, old, cosine, new_subjects, old_subjects)
        # A duplicate stores nothing: never on initials alone. The new memory spelling out the old one's acronym
        # supersedes it (nothing lost); an acronym after the words it might stand for keeps both.
        if verdict.decision == "duplicate" and (side := spelled_out_by(new, old)):
            if side == "new":
                return DedupVerdict("refinement", f"spells out an acronym; {verdict.reason}"), certain
            return DedupVerdict("different", f"an acronym read by its initials only; {verdict.reason}"), False
        return verdict, certain

    def _read(self, new: str, old: str, cosine: float, new_subjects: Sequence[str],
              old_subjects: Sequence[str]) -> tuple[DedupVerdict, bool]:
        def out(decision: DedupDecision, why: str, certain: bool = True) -> tuple[DedupVerdict, bool]:
            return DedupVerdict(decision, f"{why} (cosine {cosine:.2f})"), certain

        if cosine < self.subject_floor:
            return out("different", f"below subject floor {self.subject_floor:.2f}")
        ns, os_ = {_stem(s) for s in new_subjects}, {_stem(s) for s in old_subjects}
        if ns and os_ and not ns & os_:
            return out("different", "different subjects")
        new, old = one_form(new, old)  # "UK" / "United Kingdom", "I work" / "User works": one form (store/_forms.py)
        n, o = _parse(new), _parse(old)
        # The same number said as another kind of value ("at 6" / "costs 6 euros", "800 euros" / "800 dollars"),
        # or a place or workplace slot filled with no place ("lives in fear", "travaille chez lui"): another fact.
        clash = number_clash(new, old)
        if clash:
            return out("different", f"the same number, another kind of value: {clash}")
        if relation := relation_swap(new, old):  # "plays piano for Greta" / "with Greta"
            return out("different", f"another relation: {' -> '.join(relation)}")
        if named := named_swap(new, old, _stem):  # "a cat called Pippin" / "a goat named Pippin"
            return out("different", f"the same name for another: {' -> '.join(named)}")
        if (n.tokens & o.tokens & _WHERE_AND_WORK) and (nowhere := {not_a_place(t, _PLACE_INTROS) for t in (new, old)}) \
                and len(nowhere) == 2:
            return out("different", f"no place or workplace: {', '.join(sorted(w for w in nowhere if w))}")
        if worked_for(new, old) and not (n.update or n.switch or n.ended):
            return out("different", "where one works beside whom one works for", certain=False)
        # One single-value slot said again through the same or another verb or noun ("drives a Skoda" / "his car is
        # a Kia", "habite à Nantes" / "l'appart d'Aurélie est à Rennes"), read whole (store/_slot_aliases.py).
        # Below the candidate floor only when both name the same owner.
        said = same_slot(new, old)
        if said and (said.named or cosine >= self.candidate_floor):
            return out(said.decision, said.reason)  # type: ignore[arg-type]
        if cosine < self.candidate_floor:
            # Reached by the subject, not by similarity: only a correction of the same subject counts.
            # The same subject: a shared name, or new's first word is old's leading name ("mathis a demenage").
            # Or new says that what old names has ended ("we migrated off digitalocean onto Hetzner").
            same = bool(ns & os_) or bool(n.names & o.names) or (o.lead is not None and n.first == o.lead) \
                or any(same_word(t, e) for e in n.ended for t in o.values) or bool(n.moved & o.tokens)
            if not same:
                return out("different", f"below candidate floor {self.candidate_floor:.2f}, another subject")
            verdict, certain = self._lexical(new, old, self.candidate_floor, new_subjects, old_subjects)
            if verdict.decision == "correction" and certain:
                return out("correction", f"same subject, {verdict.reason.rsplit(' (cosine', 1)[0]}")
            return out("different", f"below candidate floor {self.candidate_floor:.2f}, not a correction")
        # "Sophie's husband is called Marc" / "Sophie is married to Marc": a spouse named on one side is
        # the relationship the other states, not another person.
        others = {k for k in n.kin ^ o.kin if not (k in _SPOUSES and "<relationship>" in (o if k in n.kin else n).tokens)
                  and not (k in _SPOUSES and k in o.kin and n.ended & o.values)}  # "gus broke up with lee"
        if others:
            return out("different", f"about another person: {', '.join(sorted(others))}")
        if n.past != o.past and not n.ended and n.negated == o.negated \
                and (n.tokens | o.tokens) & (_WHERE_AND_WORK | {"<relationship>"}):  # "was married to": a former one
            return out("different", "a past fact beside a present one")
        # "first job" / "second job", "the 2nd flat" / "the 3rd flat": a number naming which one is another item.
        items = n.head ^ o.head
        if items and n.head and o.head:
            return out("different", f"another item: {', '.join(sorted(items))}")
        exact = n.values | o.values
        old_only, new_only = _only(o.tokens, n.tokens, exact), _only(n.tokens, o.tokens, exact)
        if n.pronoun and n.lead is None and o.lead in old_only:
            old_only.discard(o.lead)  # "he moved to Toulouse": "he" is the one old names
        ends = _ends(n, o, old_only, new_only)
        if ends:
            return out("correction", ends)
        if n.ended - o.ended:
            new_only.add("~ends")  # the stop verb was left out of new's words, yet it says something old does not
        # "n'est plus prof, elle est devenue avocate": old's statement negated, one detail left out.
        restated = len(old_only) == 1 and not old_only & exact and bool(o.tokens - old_only - {o.lead}) \
            and bool(new_only & n.values)
        if n.negated != o.negated and (not old_only or not new_only or restated):
            return out("correction", "same statement, opposite polarity")
        if one_more(new, old):  # "a second recital is April 12" beside "the recital is on the 2nd of April"
            return out("different", "new speaks of one more", certain=False)
        if not old_only and n.past != o.past and not n.ended and (n.when or o.when or "used" in new_only):
            return out("different", "a past fact beside a present one")  # "was on May 4 last year" / "is on May 4"
        if not old_only and new_only and n.additive and not o.additive:  # "gets up at 7" / "also at 7 on sundays"
            return out("different", "new says a fact beside old's", certain=False)
        if not old_only:
            if all(t[0] == "<" for t in new_only):  # e.g. "est infirmière" -> "travaille comme infirmière"
                return out("duplicate", "same content words")
            return out("refinement", f"adds {', '.join(sorted(new_only))}")
        # "a long wool coat" / "a short wool coat": one content word for another, all else said alike.
        swapped = one_word_swap(new, old)
        if swapped and not (_stem(swapped[0]) in old_only and _stem(swapped[1]) in new_only):
            swapped = None  # a verb read as a slot ("prefers" / "likes"), an accent ("Mickael" / "Mickaël")
        if not new_only:
            if swapped:
                return out("different", f"one word for another: {' -> '.join(swapped)}", certain=False)
            return out("duplicate", "new says less than old")

        # When the change happened ("last spring", "le mois dernier") is not the new value.
        # Nor is a verb of choosing, when a named thing was chosen and new says a choice too ("on a choisi
        # Postgres" -> "finalement ce sera MySQL"; not "uses Windows" -> "now has a new laptop").
        chose = old_only - CHOICE_STEMS <= o.values and bool(n.tokens & CHOICE_STEMS or n.ended or n.switch
                                                             or n.intro == "=")
        old_only, new_only = old_only - o.when, new_only - n.when
        if chose:
            old_only, new_only = old_only - CHOICE_STEMS, new_only - CHOICE_STEMS
        if not old_only and not new_only:  # "uses Slack" / "chose Slack" (/ "chose Slack last year": says when)
            if n.when - o.when:
                return out("refinement", f"adds {', '.join(sorted(n.when - o.when))}")
            return out("duplicate", "same content words, another verb of choosing")
        if not old_only or not new_only:
            return out("different", "only when a change happened differs", certain=False)
        # Two slots of one owner ("Wren's accountant" / "wren's lawyer"), or a plural one ("Ottilie's parents live
        # in York" / "in Hull"): a value swap between them replaces nothing, unless new says a change happened.
        apart = held_apart(new, old) or another_item(new, old)
        if apart and (says_another(new, old) or not (n.update or n.switch or n.ended)):
            return out("different", apart, certain=False)
        if o.lead in old_only and n.lead in new_only:
            # "Alice works at Google" -> "Bob works at Google": the swap is who, not a new value.
            return out("different", f"about another subject: {o.lead} -> {n.lead}")
        shared = bool(ns & os_) or any(t[0] != "<" for t in o.tokens - old_only) or (n.pronoun and o.lead is not None)
        slots = (o.tokens | n.tokens) & _EXCLUSIVE
        slot = next((s for s in sorted(slots) if s in o.tokens and s in n.tokens), None)
        # A cue may stand in for a shared slot, but only over a pure value swap ("Mark now drives a Tesla"), and
        # not when a slot is on one side only ("Lily is a nurse" / "Lily no longer smokes").
        one_sided = bool((o.tokens ^ n.tokens) & _EXCLUSIVE)
        # One word for one word, the rest shared: "commutes by car" -> "now commutes by bike".
        # Not in a family that accumulates: "is allergic to bees now" is one more allergy, not instead of wasps.
        single = len(old_only) == len(new_only) == 1 and len(o.tokens - old_only) >= 2 \
            and not (o.tokens | n.tokens) & _ACCUMULATING
        # Nor a value swap in such a family: "speaks Dutch" / "speaks Swahili now" is one more language.
        cue = n.update and not n.additive and not one_sided and not (o.tokens | n.tokens) & _ACCUMULATING and bool(
            slots or (old_only <= o.values and new_only <= n.values) or single)
        # A date swapped for another kind of value is another fact: "boulanger" -> "le dimanche".
        dated = [bool(d) and d - {t for t in d if t[0] == "<"} <= _TIME for d in (old_only, new_only)]
        swap = f"{', '.join(sorted(old_only))} -> {', '.join(sorted(new_only))}"
        # Two events at two times: "moved to Leeds in 2019" / "moved to York in 2022", "went to Crete in June",
        # "call with Bob at 10am" / "call with Ann at 3pm" (a time and another value swapped at once).
        if _two_things(old_only, exact) and _two_things(new_only, exact):
            return out("different", f"new facts: {', '.join(sorted(new_only))}", certain=False)
        # A role for a workplace is another value of the job slot: "works at Acme" / "jo's job is manager".
        role = (bool(old_only & _STATUS) != bool(new_only & _STATUS)) and not n.update
        # So is a nationality for a name: "his wife is Anna" / "his wife is French".
        origin = (bool(old_only & _ORIGINS) != bool(new_only & _ORIGINS)) and not n.update
        # And an age for a name: "his wife is Anna" / "his wife is 40" (another slot, said on one side only).
        aged = slot is not None and bool((old_only ^ new_only) & (_EXCLUSIVE - {slot})) and not n.update
        if shared and (slot or cue) and not n.additive and not role and not origin and not aged \
                and not mode_clash(old_only, new_only) \
                and dated[0] == dated[1] \
                and _is_value(old_only, o.values, n.update) \
                and _is_value(new_only, n.values, n.update):
            return out("correction", f"{slot or 'correction cue'}: {swap}")
        # What an exclusive slot *is*, said again after a cue: "Ruth's favourite dish is lasagne" -> "her fave dish
        # these days is pad thai", "works at the library" -> "now works at a coffee roastery". Both
        # swapped parts lie in what follows the slot verb or copula, introduced alike (not "at" / "from").
        signal = (n.update or n.switch or bool(n.ended)) and not n.additive and not o.additive
        if shared and slot and signal and o.intro == n.intro and old_only <= o.predicate and new_only <= n.predicate \
                and len(old_only) <= 4 and len(new_only) <= 4 and dated[0] == dated[1] and n.negated == o.negated:
            return out("correction", f"{slot} is now: {swap}")
        # Without any cue, a day, time, date or number said as what something *is* holds one value: "the
        # appointment is on Tuesday" -> "is on Friday". (A habit may hold two: "swims on Mondays" / "on Fridays".)
        if shared and single and dated[0] == dated[1] and all(
                d <= a and all(t in _TIME or any(c.isdigit() for c in t) for t in d)
                for d, a in ((old_only, o.attributes), (new_only, n.attributes))):
            return out("correction", f"attribute: {swap}")
        # A switch verb gives a new value ("switched to a Honda", "the class moved to 7pm"): old's value and at
        # most its verb go, only values come, and no slot of old's is left for another.
        clash = bool(o.tokens & _EXCLUSIVE) and bool(n.tokens & _EXCLUSIVE) and slot is None
        said = old_only & o.values
        # Something besides who it is about stays: "takes skimmed milk in his tea" -> "switched to soy milk".
        # A value said in lower case needs that frame; a name needs only the subject ("switched to Nintendo").
        # Or old's verb is one of choosing: "uses an iPhone" -> "switched to android".
        frame = new_only <= n.values or any(t[0] != "<" for t in o.tokens - old_only - {o.lead, o.first}) \
            or bool(said and old_only - said <= CHOICE_STEMS)
        # A target sharing old's words is the same thing changed only where old's value stands beside them:
        # "skimmed milk" -> "switched to soy milk", not "sugar in his tea" -> "switched to herbal tea".
        kept = n.target & o.tokens
        frame = frame and (not kept or any(abs(o.at[t] - o.at[u]) == 1 for t in kept for u in old_only if u in o.at))
        # "est passée à Linux" is a switch only from what old *uses* ("utilise Windows"), not from where old lives.
        switch = n.switch or (n.passed_to_name and bool(said) and old_only - said <= USES_STEMS)
        if switch and shared and frame and not clash and not n.additive and dated[0] == dated[1] and \
                (said or len(old_only) <= 2) and len(old_only - said) <= 1 + (not said) and new_only \
                and new_only <= n.values | n.target:
            return out("correction", f"switch: {swap}")
        # The shape of the two statements: one stretch swapped in the same frame, one value of a slot for
        # another of its kind, an open choice made, or which one of something changed (store/_frames.py).
        shaped = (not mode_clash(old_only, new_only) and frame_swap(n, o, exact)) or slot_swap(n, o, old_only, new_only) \
            or choice_made(n, o, old_only, new_only) or role_changed(n, o, old_only, new_only, exact) \
            or moved_on(n, o, old_only, new_only) or single_value_swap(new, old) \
            or way_changed(n.update and _steady(n, o), o.tokens & n.tokens - {o.lead, o.first}, old_only - o.when,
                           new_only - n.when)
        if shared and shaped:
            return out("correction", shaped)
        # A paraphrase may swap a word or two, never a name, number or date.
        hard = (old_only | new_only) & (exact | _RELATIVES) - _STATUS  # "two sons" / "two daughters"
        hard = hard or kind_swap(old_only, new_only, _stem)  # "a red Skoda" / "a blue Skoda", "euros" / "dollars"
        small = all(len(d) <= 1 + len(t) // 4 for d, t in ((old_only, o.tokens), (new_only, n.tokens)))
        if cosine >= self.duplicate_cosine and small and not hard and not swapped:
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
