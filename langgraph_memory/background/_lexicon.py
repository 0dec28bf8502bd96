"""The cheap half of preference capture, English and French: a lexical filter that lets
through only messages carrying a cue (prefer, like, want, plan, avoid, never, "remind
me", "je préfère", "on a décidé", ...), and the offline rule-based classifier.

The classifier's rules, in order (``tests/data/preference_messages.jsonl`` measures them):

1. A question (``?``, or opening like one) is ``neutral``: asking is not stating.
2. The cue must be the user's own: a first-person subject (I, we, je, j', on, nous) in
   the few words before it, "my favourite / goal / budget", or an imperative addressed to
   the assistant (remind me, always answer, rappelle-moi, ne m'appelle jamais). "My
   sister loves horses" and "Paul préfère le thé" are facts about others: ``neutral``.
3. The category comes from the cue: restrictions (allergic, avoid, never/always as a
   directive, don't eat, can't, budget) are ``constraint``; plans and commitments
   (remind me, plan, intend, going to, will, want to + verb, decided, goal) ``intent``;
   tastes (prefer, like, love, hate, favourite, rather) ``preference``.
4. Confidence: 0.9 for explicit cues (prefer, remind me, allergic), 0.75 for the rest,
   0.6 for weak ones (will, need to, want without a verb).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from langgraph_memory.background._idioms import (DISCOURSE, ELLIPTIC, ELLIPTIC_OVER, ELLIPTIC_TIMED, FUTURE, HYPOTHETICAL, PAST, PAST_PLAN,
                                                  PLAN, REPORTED, RULE, SELF_RULE, TASTE)

__all__ = ["passes_filter", "rule_classify", "RuleVerdict"]

_FLAGS = re.IGNORECASE | re.UNICODE

# Kinds of restriction beyond the explicit verbs (each a family of phrasings, EN and FR).
_NUMBER = (r"(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|"
           r"hundred|un|une|deux|trois|quatre|cinq|sept|huit|neuf|dix|vingt|trente|quarante|cinquante|cent)")
# A habit the user does not have: "I don't drive", "je ne bois plus", "on n'a pas de voiture".
# Verbs of thinking and taste are left out: "I don't know" is not a rule, "I don't like" a taste.
_NEGATED_HABIT = (
    r"(?:don'?t|do not|no longer|won'?t)\s+(?:ever\s+|really\s+)?(?!know|think|care|mind|remember|understand|see\b|get\b|"
    r"mean|feel|like|love|want|need|believe|agree|worry|hate|enjoy|have to|forget|let|give|quit|be\b|hesitate|miss|"
    r"you\b|stop|doubt|wait|rush|blame|regret|deserve|last|define|underestimate|sweat|lose|change|panic)[a-z]+|"
    r"n(?:e\s+|')(?!sais|pense|crois|comprends|vois|suis|est\b|aime|oublie|y\b|supporte|m'int[ée]ress|me pla[iî]|"
    r"m'attire|me tente|me dit|m'emballe|me branche)(?:(?:peux|peut|pouvons|dois|doit)\s+)?(?:me\s+|m'|te\s+|le\s+|la\s+|les\s+|en\s+)?"
    r"\w+\s+(?:pas|plus|jamais|que|qu'|gu[èe]re|ni|rien)\b")
# Avoidance verbs and elliptical refusals: "avoid", "stay away from", "skip", "évite de", "pas de X".
_AVOIDANCE = (r"avoid\w*|stay away from|steer clear of|keep away from|skip|[ée]vit\w*|"
              rf"(?:^\s*{DISCOURSE}(?:please\s+)?|(?<=[,;:])\s*(?:so\s+|donc\s+|alors\s+|but\s+|mais\s+)?)(?:pas de\s+|pas d'|no\s+)(?!worr|prob|doubt|way\b|idea|clue|kidding|big deal|rush|pressure|offen[cs]e|"
              r"need|souci|probl[èe]me|quoi|doute|id[ée]e|stress|blague|panique|pression|matter|thanks|thank)\w+")
# Restriction adverbs: "only", "uniquement", "ne ... que" (in _NEGATED_HABIT).
_RESTRICTION = r"only(?!\s+just)|exclusively|uniquement|seulement(?!\s+d[e'])|exclusivement"
# A limit with a number: "no more than 30 minutes", "pas plus de 30 minutes", "50 euros maximum".
_LIMIT = (rf"(?:no more than|not more than|more than|at most|at the most|under|below|less than|fewer than|up to|"
          rf"pas plus de|plus de|moins de|au plus|jusqu'[àa]|d[ée]passer|exceed|tops out at|caps? at)\s+{_NUMBER}\b|"
          rf"(?:pas plus|plus|moins) d'{_NUMBER}\b|"
          rf"{_NUMBER}\s+(?:\w+\s+){{0,3}}(?:au\s+(?:grand\s+)?)?(?:maximum|max|tops)\b|"
          rf"(?:au\s+)?(?:maximum|max)\s+{_NUMBER}\b")
# A taste said through what suits the user: "not my thing", "pas mon truc", "my jam", "not for me".
_SUITS = (r"(?:my|mon|ma)\s+(?:\w+\s+)?(?:thing|jam|cup of tea|truc|genre|kif|tasse de thé|dada|"
          r"guilty pleasure|kryptonite|péché mignon|comfort food|go-to|happy place|kind of \w+|délire|came)\b|"
          r"(?:not|n't|pas)\s+(?:really\s+|vraiment\s+)?(?:my|mon|ma)\s+(?:scene|style|vibe|bag|forte)\b|très peu pour moi|"
          r"(?:isn'?t|is not|'s not|not)\s+(?:really\s+|very\s+)?(?:for me)\b|"
          r"(?:n'est pas|pas)\s+(?:vraiment\s+|trop\s+)?pour moi\b")
# A plan said in the present with a time to come, before or after it: "we're moving next
# spring", "next Tuesday I'm meeting", "on part en août", "demain soir je passe" (the time
# is :data:`~langgraph_memory.background._idioms.FUTURE`; a past or an imperfect is not a plan).
_TIMED_EN = re.compile(r"(?:i'm|i am|we're|we are)\s+(?:\w+ly\s+|just\s+|still\s+|really\s+)?(?:(?!going to\b|gonna\b)\w+ing\b|off to\b|away\b|back\b)|"
                       r"(?:^|,\s*)(?:off to|heading to|appointment)\s+\w+|\bi(?:'d| would) love to\b|"
                       r"\bmy (?:last|first) day\b|\bi (?:start|begin|leave|fly|move|finish|travel|arrive|return)\b",
                       re.IGNORECASE)
_TIMED_FR = re.compile(
    r"(?:^|,\s*)(?:direction|cap sur|rendez-vous|rdv)\s+\w+|(?<!\w)(?:je\s+|j'|on\s+|nous\s+)(?:m'y\s*|me\s+|m'|nous\s+|y\s+)?"
    r"(?!suis\b|est\b|sommes\b|ai\b|a\b|avons\b|étais|était|avais|avait|devais|allais|[ée]tions|demande|souviens|"
    r"dis\b|pense|crois|sais\b|trouve|espère|imagine|doute|me\b|te\b|se\b|y\b|en\b|le\b|la\b|les\b|lui\b|leur\b)"
    r"(?![^\W\d_]{3,}(?:ais|ait|aient|ions|iez)\b)[^\W\d_]{2,}\b", re.IGNORECASE | re.UNICODE)
_FR_WORDS = re.compile(r"\b(?:le|la|les|de|du|des|je|j|nous|un|une|chez|au|aux|est|et|pour|que|mon|ma|mes|ce|cette|en|"
                       r"cet|dans|avec|sur)\b", re.IGNORECASE | re.UNICODE)
_EN_WORDS = re.compile(r"\b(?:the|a|an|i|i'm|we|my|is|are|to|of|and|for|at|in|with|this|next)\b", re.IGNORECASE)


def _timed_cue(text: str) -> re.Pattern[str]:
    """The present-tense pattern of ``text``'s language (French when its function words say so)."""
    return _TIMED_FR if len(_FR_WORDS.findall(text)) > len(_EN_WORDS.findall(text)) else _TIMED_EN

_QUESTION_START = re.compile(
    r"^\s*(what|which|who|why|how|when|where|do|does|did|can|could|would|is|are|should|"
    r"quel\w*|qui|pourquoi|comment|quand|o[ùu]|est-ce|peux-tu|tu |combien|qu'est)\b(?!['’])",
    _FLAGS,
)
_FIRST_PERSON = {"i", "i'm", "i've", "i'd", "i'll", "we", "we've", "we're", "we'd", "je", "j", "on", "nous", "me", "m"}
_OWN = re.compile(
    r"\b(my|mon|ma|mes)\s+(\w+\s+)?(favou?rite|goal|budget|objective|objectif|pr[ée]f[ée]r[ée]e?s?|"
    r"thing|jam|cup of tea|truc|genre|kif)\b|\b(for me|pour moi)\b", _FLAGS)
_IMPERATIVE = re.compile(
    rf"^\s*{DISCOURSE}(please\s+)?(remind me|remember to|don'?t let me forget|always|never|"
    r"rappelle-moi|n'oublie pas|r[ée]ponds-moi|ne m'|ne me|toujours|jamais|avoid|skip|stay away|steer clear|"
    r"keep|limit|don'?t|do not|[ée]vite[sz]?|[ée]viter|limite[sz]?|garde[sz]?|pas de|no|make sure|me rappeler)\b",
    _FLAGS,
)
_SENTENCE_END = re.compile(r"[.!?;]\s+|[.!?;]$")


def _sentence_at(text: str, position: int) -> str:
    """The sentence of ``text`` that holds ``position``."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        if end.end() > position:
            return text[start:end.start()]
        start = end.end()
    return text[start:]
# A limit is the user's when its subject is theirs: "my commute has to stay under 45 minutes".
_OWN_SUBJECT = re.compile(r"^\s*(my|mon|ma|mes|our|notre|nos)\b", _FLAGS)
# The user's body speaks for them: "my knees can't handle long hikes", "mon dos ne supporte plus".
_OWN_BODY = re.compile(r"^\s*(?:my|mon|ma|mes)\s+(?:\w+\s+)?(?:knees?|back|stomach|body|heart|legs?|feet|eyes|ears|skin|"
                       r"genoux?|dos|estomac|ventre|corps|c(?:œ|oe)ur|jambes?|pieds?|yeux|peau|hanches?|hips?)\b", _FLAGS)

# "always" / "never" are rules when they govern an act one can ask for ("never call me",
# "I always fly economy"), not when they colour a feeling or a memory ("I've always
# loved", "never thought"); a directive at a sentence's start is a rule whatever follows.
_RULE_VERBS = (r"(?:eat|drink|call|text|email|e-mail|message|answer|reply|respond|use|book|fly|drive|work|schedule|"
               r"send|wear|travel|smoke|buy|pay|sleep|cook|write|speak|talk|mention|suggest|recommend|order|"
               r"ask|wake|ring|bring|share|post|put|add|include|sit|take|choose|pick|go out|check)\b")
_CANT_IDIOM = (r"(?!\s+(?:wait|believe|thank|imagine|help|stop|say|tell|get over|get enough|remember|describe|"
               r"express|explain|put|understand|argue|complain|deny|disagree|agree|blame|find|see|go wrong|hurt|beat|"
               r"stand(?!\s+(?:for|up|long|still))|even|really|quite|seem|figure|decide|lie|complain))")
_CONSTRAINT = re.compile(
    rf"\b(allergic|allergique|don'?t eat|ne mange pas|can'?t{_CANT_IDIOM}|cannot{_CANT_IDIOM}|"
    rf"peux pas|budget|jamais|toujours)\b|\b(?:always|never)\s+(?:\w+\s+)?{_RULE_VERBS}|"
    rf"(?:^|(?<=[.!;]\s))\s*(?:please\s+)?(?:always|never)\b|(?<!\w)(?:{_NEGATED_HABIT}|{_AVOIDANCE}|{_RESTRICTION}|{_LIMIT})|(?:{RULE})",
    _FLAGS)
_LIMITS = re.compile(rf"(?<!\w)(?:{_LIMIT})", _FLAGS)
_INTENT = re.compile(
    r"\b(remind me|remember to|don'?t let me forget|rappelle|me rappeler|n'oublie pas|plan\w*|intend\w*|"
    r"intention|going to|gonna|will|'ll|goal|objectif|decid\w*|d[ée]cid\w*|need to|il faut que je|"
    r"want(s)? to|(?:'d|would) (?:like|prefer) to|veu[xt] \w+(?:er|ir|re)\b|(?:aimerais|aimerions|voudrais|voudrions) (?:bien |vraiment )?\w+(?:er|ir|re)\b|"
    rf"compt\w* \w+|pr[ée]vo\w*|vais \w+)\b|(?:{PLAN})", _FLAGS)
_PREFERENCE = re.compile(
    r"\b(prefer\w*|like[sd]?|love[sd]?|hate[sd]?|enjoy\w*|adore[sd]?|dislike[sd]?|can'?t stand(?!\s+(?:for|up|long|still))|"
    r"favou?rite|fan (?:of|de|des|du|d')|rather|pr[ée]f[èée]r\w*|aim(?!erais|erions|eriez)\w*|ador\w*|d[ée]test\w*|kiff\w*|want\w*|veu[xt]|"
    r"appr[ée]ci(?:e|es|ent|ons|ez)|j'appr[ée]cie|(?:ça|cela) me va(?: très bien| bien| parfaitement)?|(?:that )?works for me)\b|"
    rf"(?:{_SUITS})|(?:{TASTE})", _FLAGS)
_STRONG = re.compile(r"\b(prefer\w*|pr[ée]f[èe]r\w*|remind me|rappelle|allergic|allergique|favou?rite|d[ée]cid\w*|decid\w*)\b", _FLAGS)
_WEAK = re.compile(r"\b(will|'ll|need to|want|veux)\b", _FLAGS)
_NEGATIVE = re.compile(
    r"\b(hate[sd]?|dislike[sd]?|can'?t stand|don'?t like|avoid\w*|never|d[ée]test\w*|n'aime pas|aime pas|"
    r"[ée]vit\w*|jamais|allergic|allergique|not (?:a )?(?:big )?fan|pas (?:trop )?fan|"
    r"(?:not|pas|isn'?t)\s+(?:really\s+|vraiment\s+|trop\s+)?(?:my|mon|for me|pour moi)|horreur|très peu|saoule|"
    r"ennuie|m'épuise\w*|lasse\w*|creeps|nerves|drives? me|bores? me|not big on|not into|no-go|off-limits|"
    r"out of the question|hors de question|ne me dit rien|does nothing|idea of hell|makes? me sick|rend\w* malade|"
    r"(?:doesn'?t|don'?t) agree|interdiction|surtout pas|zéro|nothing longer|intol[ée]ran\w*)\b", _FLAGS)
_WORD = re.compile(r"[\w']+", _FLAGS)


def _timed(text: str) -> bool:
    """Whether ``text`` names a time to come and no time gone by (a plan in the present)."""
    return bool(FUTURE.search(text)) and not PAST.search(text)


def passes_filter(text: str) -> bool:
    """Whether ``text`` carries a cue worth classifying; cheap (a few regular expressions)."""
    return bool(_CONSTRAINT.search(text) or _PREFERENCE.search(text) or _INTENT.search(text)
                or (_timed_cue(text).search(text) and _timed(text)))


@dataclass(frozen=True)
class RuleVerdict:
    label: str
    confidence: float
    sentiment: str
    cue: str | None


# Conversation rituals, not plans or tastes: "I'll let you know", "I'll keep you posted",
# "I'll do my best", "gonna keep going", "I will!", "I love it!", "je te tiens au courant".
_RITUAL_PLAN = re.compile(
    r"^\s*(?:definitely\s+|surely\s+|totally\s+)?(?:let (?:you|ya|u) know|keep (?:you|ya|u)\b|do (?:my|our) best|"
    r"try (?:my|our) best|keep (?:going|on|at it|it up|pushing|trying|working|pursuing|up|moving|growing|learning|"
    r"that in mind)|make it\b|be there|never forget|always remember|miss (?:you|ya)|see (?:you|ya)|talk (?:to you )?"
    r"(?:soon|later)|make sure|take care|check (?:it|them) out|te tiens au courant|vous tiens au courant|"
    r"(?:faire )?de mon mieux|[!.,;]|$)", _FLAGS)
_CHOICE = re.compile(r"\s*(?:take|pick|choose|go for|have)\b[^.!?]*\b(?:over|rather than|any day|every time)\b", _FLAGS)
""""I'll take a window seat over an aisle any day": a taste said with "will"."""
_WEAK_FUTURE = re.compile(r"(?:will|'ll|gonna|going to|vais(?: faire)?)$", _FLAGS)
_REACTION = re.compile(
    r"^\s*(?:it|them|that|this|those|these|you|ya|ça|cela|ces|le|la|les)\b\s*(?:[!.,;]|$|so much|too\b|a lot|"
    r"already|again)", _FLAGS)


def _ritual(text: str, m: re.Match[str], pattern: re.Pattern[str]) -> bool:
    """Whether the cue at ``m`` opens a conversation ritual rather than a statement."""
    after = text[m.end():]
    if pattern is _INTENT and _WEAK_FUTURE.search(m.group(0)):
        return bool(_RITUAL_PLAN.match(after) or _CHOICE.match(after))
    if pattern is _PREFERENCE:
        return bool(_REACTION.match(after)) and not _dislocated(text[:m.start()])
    return False


_INTERJECTION = re.compile(r"^\s*(?:wow|oh|ah|aw+|m+|hm+|yes|yeah|yep|ok|okay|oui|ouais|merci|thanks|thank you|haha|lol|bon|"
                           r"super|great|génial|trop|cool|nice|honestly|franchement|omg|really|vraiment)\b", _FLAGS)


def _dislocated(before: str) -> bool:
    """Whether a noun phrase stands before the user's words ("Les dimanches pluvieux,
    j'adore ça"): then "ça" / "it" names it, and "I love it" is a taste, not a reaction."""
    head, comma, _ = re.split(r"[.!?]", before)[-1].rpartition(",")
    return bool(comma) and bool(_WORD.search(head)) and not _INTERJECTION.match(head)


_SPEAKER = re.compile(r"\b(?:i|i'm|i've|me|my|je|moi|mon|ma|mes)\b|\bj'", _FLAGS)
"""The speaker somewhere in a sentence: "Fridays are a no-go, I pick up the kids"."""
_PAST_HABIT = re.compile(r"\bused to\s+\w+$|\b(?:je|j')\s*(?:n'|ne\s+)?(?:détest|ador|aim|préfér|kiff|support)ais\b(?!.*\b\w)",
                         _FLAGS)
_CLAUSE_START = re.compile(r"[,;]\s*(?:so|donc|alors|but|mais|and|et)?\s*$", _FLAGS)
"""A cue opening a clause of its own ("je bosse le samedi, donc pas dispo"): the sentence's
first person owns it."""


_ATTRIBUTION = re.compile(r"^[^.!?]*[,—–-]\s*(?:said|says|asked|dit|a dit|disait|m'a dit)\s+(?!I\b|je\b)\w+", _FLAGS)


def _reported_before(text: str, start: int) -> bool:
    """Whether someone else's words are reported before ``start`` in its sentence."""
    sentence_start = max((e.end() for e in _SENTENCE_END.finditer(text[:start])), default=0)
    return bool(REPORTED.search(text[sentence_start:start]))


def _first_person_before(text: str, start: int, window: int = 5) -> bool:
    words = [w.lower().strip("'") for w in _WORD.findall(text[:start])][-window:]
    words = [w.split("'")[0] if "'" in w else w for w in words]
    return any(w in _FIRST_PERSON for w in words)


_USER_IN_CUE = re.compile(r"\b(?:my|me|moi|mon|ma|mes|our|notre|nos|self|myself)\b|\bm'", _FLAGS)
"""An idiom whose object is the user: "gets on my nerves", "ça me saoule", "m'ennuie"."""
_TASTE_WORD = re.compile(r"(?:beurk|berk|yuck|yum|miam|(?:ça|cela) me va(?: très bien| bien| parfaitement)?|"
                         r"(?:that )?works for me)", _FLAGS)
"""An interjection of taste, the user's when it follows the thing: "Le chocolat blanc, beurk"."""


def _owned(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The first match of ``pattern`` the user owns (first person before it, or an
    imperative / "my favourite" at it)."""
    for m in pattern.finditer(text):
        if _ritual(text, m, pattern):
            continue
        if _TASTE_WORD.fullmatch(m.group(0)):  # "Ça me va, merci" is a ritual, "Les réunions à 9 h, ça me va" a taste
            if _dislocated(text[:m.start()]):
                return m
            continue
        sentence = _sentence_at(text, m.start())
        if _PAST_HABIT.search(text[:m.end()]):
            continue  # "I used to hate olives", "je détestais": a taste that was
        if _reported_before(text, m.start()) or _ATTRIBUTION.search(text[m.end():]):
            continue  # "my doctor says I should…", "Hard pass, said my brother": someone else's words
        own_words = {w.lower().split("'")[0] for w in _WORD.findall(m.group(0))}
        if (_first_person_before(text, m.start()) or own_words & _FIRST_PERSON or _USER_IN_CUE.search(m.group(0))
                or _IMPERATIVE.match(sentence) or ELLIPTIC.match(sentence) or ELLIPTIC_OVER.search(sentence)
                or (ELLIPTIC_TIMED.match(sentence) and _timed(sentence))
                or _OWN.search(text)
                or (_OWN_SUBJECT.match(text) and _LIMITS.search(m.group(0)))
                or (_OWN_BODY.match(text) and pattern is _CONSTRAINT)
                or (SELF_RULE.search(m.group(0)) and _SPEAKER.search(sentence))
                or (_CLAUSE_START.search(text[:m.start()]) and _first_person_before(sentence, len(sentence), 40))):
            return m
    return None


# A request to the assistant phrased as a question is a directive: "Could you avoid booking
# me on Mondays?", "Tu peux me rappeler d'appeler ma mère dimanche ?".
_REQUEST = re.compile(
    r"^\s*(?:(?:could|can|would|will) you|(?:tu peux|peux-tu|pourrais-tu|tu pourrais|vous pouvez|pouvez-vous|"
    r"pourriez-vous))\s+(?:please\s+|stp\s+|s'il te plaît\s+)?(?=remind me(?!\s+(?:what|who|when|where|why|how|which|if|"
    r"whether|of)\b)|avoid|make sure|never|always|not\b|stop|"
    r"keep|skip|only|me rappeler(?!\s+(?:ce|qui|quand|où|comment|si|pourquoi)\b)|[ée]viter|ne pas|ne jamais|toujours|arrêter)",
    _FLAGS)


def rule_classify(text: str) -> RuleVerdict:
    """The offline classifier: ``preference`` / ``intent`` / ``constraint`` / ``neutral``
    with a confidence, following the module's rules."""
    request = _REQUEST.match(text)
    if request:
        return rule_classify(text[request.end():].rstrip(" ?"))
    stripped = text.strip()
    if (not stripped or stripped.endswith("?") or _QUESTION_START.match(stripped) or HYPOTHETICAL.match(stripped)
            or PAST_PLAN.search(stripped)):
        return RuleVerdict("neutral", 0.9, "neutral", None)
    found: tuple[str, re.Match[str]] | None = None
    pref = _owned(stripped, _PREFERENCE)
    timed = _timed_cue(stripped) if _timed(stripped) else None
    plan = _owned(stripped, timed) if timed is not None else None
    if pref is not None and plan is not None and plan.start() <= pref.start() < plan.end():
        pref = None  # "I'd love to visit Iceland next summer": a plan, its "love" is part of it
    for label, pattern in (("constraint", _CONSTRAINT), ("intent", _INTENT), ("preference", _PREFERENCE),
                           ("intent", timed)):
        if pattern is None:
            continue
        m = pref if pattern is _PREFERENCE else _owned(stripped, pattern)
        if m is None:
            continue
        # "J'ai toujours aimé", "I've always loved": the adverb colours a taste.
        if (label == "constraint" and pref is not None and m.group(0).lower() in ("toujours", "jamais", "always", "never")
                and 0 <= pref.start() - m.end() <= 3):
            continue
        # "I don't like" is a taste, not a restriction; "can't stand" likewise.
        if (label == "constraint" and pref is not None and pref.start() < m.start() and not _IMPERATIVE.match(stripped)
                and not _LIMITS.search(m.group(0))):
            continue
        if label == "intent" and pref is not None and pref.start() < m.start() < pref.end():
            continue  # "Musicals make me want to scream": the plan words are inside a taste idiom
        # "I want to learn" is a plan; "I want a quiet room" a taste.
        if label == "intent" and pref is not None and pref.start() < m.start() and not re.search(
            r"(want|veu[xt]|compt\w*|vais)\s", m.group(0) + " ", _FLAGS) and "to" not in m.group(0):
            continue
        found = (label, m)
        break
    if found is None:
        return RuleVerdict("neutral", 0.8, "neutral", None)
    label, m = found
    cue = m.group(0)
    if label == "preference" and PAST.search(stripped) and re.search(r"(?:ed|é|ée|és)$", cue, _FLAGS):
        return RuleVerdict("neutral", 0.7, "neutral", None)  # "I loved yesterday's talk": a reaction, not a taste
    confidence = 0.9 if _STRONG.search(stripped) else 0.6 if _WEAK.fullmatch(cue) else 0.75
    if label == "intent":
        sentiment = "neutral"
    else:
        sentiment = "negative" if _NEGATIVE.search(stripped) else "positive"
    return RuleVerdict(label, confidence, sentiment, cue)
