"""The change structure of a correction, for the dedup policy: what a statement says has ended ("stopped X",
"from X to Y", "Y instead of X", "passer de X à Y") and whether a switch verb gives a new value.

Pure Python (stdlib only).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langgraph_memory.store._change_verbs import (BREAKUP, PROVIDERS, VISITED, BACK_EN, INSTEAD_OF_IT, MOVE_EN, MOVE_FR, PARTICLES, RETURN_EN,
                                                  RETURN_FR, START_EN, START_FR, STOP_EN, STOP_FR, STOP_PARTICLES,
                                                  SWITCH_EN, SWITCH_FR)
from langgraph_memory.store._wordforms import _STOP_EN, _STOP_FR, _TIME, _plain, _stem

# The change structure of a correction. What a statement says has ended: the object of a stop verb
# ("stopped tennis", "a vendu sa Clio", "a laissé tomber le basket"), of "from" after a switch verb ("switched
# the hosting from Heroku to Fly.io"), of "instead of" / "à la place de", of "replaced". Determiners between a
# verb and its object are skipped.
_DETERMINERS = _plain("the a an his her their my our your its le la les l son sa ses leur leurs mon ma mes ton ta "
                      "tes de d du des un une")
_STOP_VERBS = _plain("stopped stop stops quit quits quitting sold sell sells dropped abandoned replaced arrete "
                     "arretee arretes arreter vendu vendue vendus abandonne abandonnee lache lachee remplace "
                     "remplacee left quitte quittee traded swapped exchanged echange echangee troque troquee "
                     "demissionne demissionnee cancelled canceled resilie resiliee drop drops dropping leaving "
                     "ditched ditching") | STOP_EN | STOP_FR  # every inflection: store/_change_verbs.py
# A stop verb with its particle: "traded in the golf", "resigned from Airbus", "sold off the boat".
_STOP_PAIRS = {("gave", "up"), ("given", "up"), ("give", "up"), ("laisse", "tomber"), ("laissee", "tomber"),
               ("got", "rid"), ("traded", "in"), ("trade", "in"), ("resigned", "from"), ("sold", "off"),
               ("gave", "away")} | {(verb, particle) for verb, particles in STOP_PARTICLES.items()
                                    for particle in particles}
_INSTEAD = [("instead", "of"), ("in", "place", "of"), ("rather", "than"), ("plutot", "que"), ("plutot", "qu"),
            *((*head, de) for head in (("a", "la", "place"), ("au", "lieu")) for de in ("de", "d", "du"))]
# Starting the replacement is part of the change, not another fact: "stopped tennis and started padel".
_START_VERBS = _plain("started start starts began begun bought buys adopted took taken picked got joined opened "
                      "rejoint ouvert pris commence commencee mis mise achete achetee adopte adoptee up") \
    | START_EN | START_FR
# Verbs of choosing say no more than the choice: "we're going with MySQL instead", "on prend MySQL au lieu de".
_CHOICE_VERBS = _plain("use uses using used utilise utiliser utilisons utilisent prend prendre prenons prennent "
                       "choose chose chosen choisi choisit choisir pick go going went opted opt settled retenu")
# A switch verb gives the new value: "switched to a Honda", "est passé à une Tesla", "a été déplacé au vendredi".
CHOICE_STEMS = {_stem(w) for w in _CHOICE_VERBS}
# What one uses, said through whoever provides it: "our energy supplier is EDF", "sa banque c'est la BNP". Passing
# to another one ("est passée chez boursorama") changes it, as a verb of choosing does.
USES_STEMS = CHOICE_STEMS | {_stem(w) for w in PROVIDERS}
_SWITCH_VERBS = _plain("switched switch switches switching changed deplace deplacee migrated migrate migre migree "
                       "migrer bascule basculee basculer basculons upgraded downgraded") | SWITCH_EN | SWITCH_FR
# Moving to a time is rescheduling, not a change of residence: "the meeting moved to Wednesday". These verbs give
# a new value only when it is a time: "got pushed to 8pm", "a été décalée au jeudi".
_MOVE_VERBS = _plain("moved move moving relocated demenage pushed postponed rescheduled delayed bumped decale decalee reporte "
                     "reportee avance avancee") | MOVE_EN | MOVE_FR
_FROM = ("from", "off", "de", "du", "d")  # "migrated off X onto Y"
_TO_AFTER_FROM = ("to", "onto", "vers", "a", "au")
# "passer de X à Y", "on passe de Slack à Mattermost": X ends, Y is the new value.
_PASS_VERBS = _plain("passe passee passes passer passons passez passent")
_TO = ("to", "onto", "a", "au", "aux", "on", "for", "over", "sur", "vers")
_STOPWORDS = _STOP_EN | _STOP_FR  # built once: the change is read on every parse
_NEXT_CLAUSE = _plain("and et he she they il elle ils elles")


@dataclass
class _Change:
    skip: set[int] = field(default_factory=set)  # words of the change itself (verbs, "instead of")
    ended: set[str] = field(default_factory=set)  # stems of what the statement says has ended
    switch: bool = False  # a switch verb followed by the new value
    target: set[str] = field(default_factory=set)  # stems of that new value ("switched to soy milk")
    # "est passée à Linux" is a switch after "utilise Windows", a visit after "habite à Lyon": the policy decides.
    passed_to_name: bool = False
    # What a switch changed without naming the new value: "switched banks", "a changé de médecin" (one of them).
    role: str | None = None
    # What a switch moved to a new value: "converting the ingestion service to rust", "on passe le front sur svelte".
    moved: set[str] = field(default_factory=set)


def _object(plain: list[str], start: int) -> int | None:
    """Where the object after a verb starts; ``None`` when a preposition follows ("stopped by the bakery")."""
    i = start
    while i < len(plain) and plain[i] in _DETERMINERS:
        i += 1
    return i if i < len(plain) and plain[i] not in _STOPWORDS else None


_INFLECTIONS = {"e", "s", "es", "ed", "er", "ir", "re", "ing"}


def same_word(a: str, b: str) -> bool:
    """Two stems of one word, one inflected: "fum" (fume) and "fumer"."""
    short, long = sorted((a, b), key=len)
    return a == b or (len(short) >= 3 and long.startswith(short) and long[len(short):] in _INFLECTIONS)


def _timed(stems: list[str], k: int) -> bool:
    """Whether the word at ``k`` is a time: a time word or one with a digit ("19h", "t1900")."""
    return k < len(stems) and (stems[k] in _TIME or any(c.isdigit() for c in stems[k]))


def _skip_to(plain: list[str], k: int) -> int:
    """Past the determiners and "to" / "à" words before a new value."""
    while k < len(plain) and (plain[k] in _DETERMINERS or plain[k] in _TO):
        k += 1
    return k


def _target(plain: list[str], stems: list[str], k: int) -> set[str]:
    """The new value a switch verb gives, from ``k``: content words up to the next stopword (three at most)."""
    words = []
    for word, stem in zip(plain[k: k + 3], stems[k: k + 3]):
        if word in _STOPWORDS:
            break
        words.append(stem)
    return set(words)


_BACK = ("to", "on", "onto")
_BACK_FR = ("a", "au", "aux", "sur", "vers")
# Where an object moved by a switch goes: "to rust", "over to backblaze", "in react", "sur svelte", "vers pcloud".
_MOVED_TO = ("to", "onto", "into", "in", "vers", "sur", "a", "au", "aux", "en")
_PLACE_WORDS = ("chez", "a", "au", "aux", "en", "sur", "dans")  # "habite plus à lille", "bosse plus chez orange"
_OF = ("of", "de", "d", "du", "des")  # inside an object: "la base de données", "la collecte des encombrants"


def _back_to(plain: list[str], i: int) -> int | None:
    """Where the value starts after a verb of going back ("went back to", "reverted to", "est revenue à"), or
    ``None``."""
    word, nxt = plain[i], plain[i + 1: i + 2]
    if word in BACK_EN and nxt == ["back"] and plain[i + 2: i + 3] and plain[i + 2] in _BACK:
        return i + 3
    if (word in RETURN_EN and nxt == ["to"]) or (word in RETURN_FR and nxt and nxt[0] in _BACK_FR):
        return i + 2
    return None


def _gone_back(plain: list[str], values: list[bool], i: int, back: int) -> bool:
    """Whether a verb of *going* back reaches a name after "to" / "à": a place one returns to ("went back to Lyon
    for christmas", "est revenue à Lyon"), a trip rather than a new value. Switching back is always a switch."""
    k = _skip_to(plain, back)
    return plain[i] not in SWITCH_EN and plain[back - 1] in ("to", "a", "au", "aux") and k < len(plain) and values[k]


def _moved_object(plain: list[str], stems: list[str], values: list[bool], i: int) -> tuple[int, int] | None:
    """Where the object of a switch verb at ``i`` starts, and where the word saying where it went stands: "converting
    [the ingestion service] [to] rust". The object is a thing said in lower case (a name there is the old value:
    "migrated Jenkins to ..."), not a time ("passe la soirée chez Marc" is a visit)."""
    j = _object(plain, i + 1)
    # Without a determiner, only one bare word right before where it goes: "switching payments over to adyen".
    bare = j == i + 1 and not (plain[j + 1: j + 2] and plain[j + 1] in PARTICLES | set(_MOVED_TO))
    if j is None or bare or values[j] or stems[j] in _TIME or plain[j] in PARTICLES:
        return None
    for m in range(j + 1, min(len(plain), j + 5)):
        if plain[m] in _MOVED_TO and m + 1 < len(plain):
            return j, m
        if plain[m] in PARTICLES or plain[m] in _OF:
            continue
        if plain[m] in _STOPWORDS or values[m]:
            return None
    return None


# What may stand between a stop verb and what it ends: "got rid of", "laid off from", "viré de chez", "rompu avec".
_AFTER_STOP = ("of", "from", "with", "de", "d", "chez", "avec")
_BE_FR = ("est", "suis", "es", "sommes", "etes", "sont")
_NOW = ("now", "nowadays", "maintenant", "desormais", "dorenavant")
_IMPERFECT = ("ait", "ais", "aient")


def _imperfect(word: str) -> bool:
    """A French imperfect ("habitait", "faisait", "jouais"): a state that held before."""
    return len(word) > 5 and word.endswith(_IMPERFECT)


def _was_then(plain: list[str], stems: list[str], i: int, change: _Change) -> None:
    """Reads "used to VERB X ... now Y" / "(avant) VERBait X ... maintenant Y" from ``i``: X ended, Y came instead.
    Nothing without a later "now": "used to live in granada" is a past fact beside a present one."""
    now = next((m for m in range(i + 1, len(plain)) if plain[m] in _NOW), None)
    if now is None or {"also", "too", "aussi", "egalement", "well", "plus"} & set(plain[now:]):
        return  # "maintenant il joue aussi de la guitare": beside, not instead
    start = i + 1
    if _imperfect(plain[i]):
        change.skip.add(i)
    if plain[i] == "used":
        if plain[i + 1: i + 2] != ["to"]:
            return
        change.skip |= {i, i + 1}
        start = i + 3  # past the verb: "used to live"
    elif plain[i] == "avant":
        change.skip.add(i)
        verb = next((m for m in range(i + 1, now) if _imperfect(plain[m])), None)
        if verb is None:
            return
        change.skip.add(verb)
        start = verb + 1
    j = next((m for m in range(start, now) if plain[m] not in _STOPWORDS and plain[m] not in _DETERMINERS), None)
    if j is None:
        return
    change.ended.add(stems[j])
    change.target |= {stems[m] for m in range(now + 1, len(plain)) if plain[m] not in _STOPWORDS
                      and plain[m] not in _PRONOUNS_AND_BE}


_PRONOUNS_AND_BE = {"he", "she", "it", "they", "il", "elle", "ils", "elles", "c", "est", "is", "s"}


def _change(plain: list[str], stems: list[str], values: list[bool]) -> _Change:
    """The change structure of one statement (see :data:`_STOP_VERBS`)."""
    change = _Change()
    n = len(plain)
    for i, word in enumerate(plain):
        pair = tuple(plain[i: i + 2])
        if word in _STOP_VERBS or pair in _STOP_PAIRS:
            after = i + (2 if pair in _STOP_PAIRS else 1)
            # "got rid of", "laid off from ford", "viré de chez renault", "broke up with lee", "a rompu avec hugo"
            while plain[after: after + 1] and plain[after] in _AFTER_STOP:
                after += 1
            j = _object(plain, after)
            if j is not None:
                change.skip |= set(range(i, after)) | ({i - 1} if plain[i - 1: i] == ["fait"] else set())  # "fait virer"
                # "quit playing tennis" ends tennis, not playing ("stopped drinking tea" leaves the coffee).
                k = _object(plain, j + 1) if values[j] is False and plain[j].endswith("ing") else None
                k = None if k is None or stems[k] in _TIME else k
                change.ended.add(stems[j if k is None else k])
                # "a arrêté la boxe pour le judo", "quit tennis for padel": what comes instead.
                for_ = next((m for m in range(j + 1, min(n, j + 4)) if plain[m] in INSTEAD_OF_IT), None)
                to = _object(plain, for_ + 1) if for_ is not None else None
                if to is not None:  # "swapped ansible out for terraform": the particle is the verb's
                    change.skip |= {m for m in range(j + 1, for_ + 1) if plain[m] in PARTICLES | INSTEAD_OF_IT}
                change.target |= _target(plain, stems, to) if to is not None else set()
                # "left the call centre and drives a taxi now", "left austin, he's in denver": the clause after
                # "and" or a new subject is what came instead.
                and_ = next((m for m in range(j + 1, min(n, j + 4)) if plain[m] in _NEXT_CLAUSE), None)
                rest = [m for m in range(and_ + 1, n) if plain[m] not in _STOPWORDS][:3] if and_ is not None else []
                change.target |= {stems[m] for m in rest}
        # "Vitest pour les tests, plus Jest": "plus" before a name (not "en plus", "de plus") ends it.
        if word == "plus" and i and plain[i - 1] not in ("en", "de", "ne", "n") and i + 1 < n and values[i + 1]:
            change.skip.add(i)
            change.ended.add(stems[i + 1])
        # "gus and lee split up", "jade et hugo se sont séparés": the one named beside the subject is the one left.
        rest = i + 1 + (plain[i + 1: i + 2] == ["up"])
        thing = _object(plain, rest)
        if word in BREAKUP and 2 <= i <= 5 and (thing is None or _timed(stems, thing)) \
                and plain[rest: rest + 1] not in (["with"], ["avec"]):  # not "split up the bill"
            and_ = next((m for m in range(1, i) if plain[m] in ("and", "et")), None)
            if and_ is not None and and_ + 1 < i and plain[and_ + 1] not in _STOPWORDS:
                change.skip.add(i)
                change.ended.add(stems[and_ + 1])
        # Spoken French drops "ne": "elle bosse plus chez orange", "on utilise plus trello" (no longer). Not a
        # comparative ("plus de judo que de boxe"), nor "plus" after a copula ("est plus grand").
        spoken_no = 0 < i < n - 1 and (plain[i - 1] not in _STOPWORDS or plain[i - 1] in _BE_FR
                                       and plain[i + 1] in _PLACE_WORDS)  # "est plus sur spotify"
        if word == "plus" and spoken_no and not {"ne", "n"} & set(plain) and not {"que", "qu"} & set(plain[i:]):
            j = i + 1
            while j < n and (plain[j] in _DETERMINERS or plain[j] in _PLACE_WORDS):
                j += 1
            if j < n and plain[j] not in _STOPWORDS and not _timed(stems, j):
                change.skip.add(i)
                change.ended.add(stems[j])
        # "used to live in seville, now she's in cadiz", "avant il faisait du rugby, maintenant c'est le foot": what
        # was so before the statement's "now" has ended, what follows it came instead.
        if word in ("used", "avant") or _imperfect(word):
            _was_then(plain, stems, i, change)
        for phrase in _INSTEAD:
            if tuple(plain[i: i + len(phrase)]) == phrase:
                after = i + len(phrase)
                j = _object(plain, after)
                if j is not None:
                    change.skip |= set(range(i, after))
                    change.ended.add(stems[j])
                    # What stands before "instead of" is the new value: "going with MySQL instead of".
                    back = [m for m in range(max(0, i - 3), i) if plain[m] not in _STOPWORDS]
                    change.target |= {stems[m] for m in back if all(plain[k] not in _STOPWORDS
                                                                    for k in range(m, i))}
        # "passer à" is a switch to a thing ("à une Tesla") or a time ("à 19h"), not a visit ("à Paris").
        # "passer sur" is always a switch ("est passée sur Android").
        passed = word in ("passe", "passee") and (plain[i + 1: i + 2] == ["sur"] or plain[i + 1: i + 2] == ["a"] and (
            plain[i + 2: i + 3] in (["un"], ["une"]) or _timed(stems, i + 2)))
        # "est passée chez boursorama": a bare word after "chez" is a name, in lower case too.
        chez = plain[i + 1: i + 2] == ["chez"] and i + 2 < n and plain[i + 2] not in _STOPWORDS | VISITED
        if word in _PASS_VERBS and (plain[i + 1: i + 2] in (["a"], ["au"]) and i + 2 < n and values[i + 2] or chez) \
                and not passed:
            change.passed_to_name = True
            change.skip.add(i)
            change.target |= _target(plain, stems, i + 2)
        if word in _PASS_VERBS and plain[i + 1: i + 2] in (["de"], ["du"], ["d"]):
            j = _object(plain, i + 2)
            to = next((k for k in range(i + 3, min(n, i + 8)) if plain[k] in ("a", "au", "aux")), None)
            if j is not None and to is not None:
                change.skip |= {i, i + 1, to}
                change.ended.add(stems[j])
                change.switch, change.target = True, change.target | _target(plain, stems, _skip_to(plain, to + 1))
        # "went over to iPhone", "is going over to Linux": a switch said with a verb of going.
        over = word in ("went", "gone", "going", "go", "goes") and plain[i + 1: i + 3] == ["over", "to"]
        # "went back to windows", "switched back to Android", "reverted to Jira", "on est revenus à Jira": back to an
        # earlier value, which follows.
        back = _back_to(plain, i)
        if back and not _gone_back(plain, values, i, back):
            change.skip |= set(range(i, back))
            change.switch, change.target = True, change.target | _target(plain, stems, _skip_to(plain, back))
            continue
        # "converting the ingestion service to rust", "on passe le front sur svelte", "moved the backups over to
        # backblaze": the object changed, and its new value.
        moved = _moved_object(plain, stems, values, i) if word in _SWITCH_VERBS | _MOVE_VERBS | _PASS_VERBS else None
        if moved is not None and not any(plain[m] in ("from", "off") for m in range(i + 1, moved[1])):
            j, to = moved
            change.skip |= {i} | {m for m in range(j + 1, to + 1) if plain[m] in PARTICLES or m == to}
            change.moved |= {stems[m] for m in range(j, to) if plain[m] not in _STOPWORDS | PARTICLES}
            change.switch, change.target = True, change.target | _target(plain, stems, _skip_to(plain, to + 1))
            continue
        if word in _SWITCH_VERBS or word in _MOVE_VERBS or passed or over:
            # "from X (over) to Y", "de X vers Y": X ends, Y is the new value. (French "de" only with a "vers" /
            # "à" after it: "a changé de boulot" names no old value.)
            start = next((m for m in range(i + 1, min(n, i + 6)) if plain[m] in _FROM), None)
            end = next((m for m in range(start + 2, min(n, start + 6)) if plain[m] in _TO_AFTER_FROM), None) \
                if start is not None else None
            both = end is not None
            if start is not None and (plain[start] in ("from", "off") or both):
                j = _object(plain, start + 1)
                if j is not None:
                    change.skip |= {i, start} | ({end} if both else set())
                    change.ended.add(stems[j])
            k = _skip_to(plain, end + 1 if both else i + 1)
            # A switch verb names the new value even in lower case ("switched to soy milk"); a move verb
            # only a time ("moved to 7pm"): "moved to antwerp" is the residence slot's business.
            timed = _timed(stems, k)
            given = k < n and (values[k] or plain[k] not in _STOPWORDS)
            # "switched banks", "changed dentists", "a changé de médecin": which one changed, not the new one.
            if word in _SWITCH_VERBS and not both and given and not timed and not values[k] and (
                    k == i + 1 and plain[k].endswith("s") or plain[i + 1: i + 2] in (["de"], ["d"]) and k == i + 2):
                change.role = stems[k]
                if plain[i + 1: i + 2] not in (["de"], ["d"]):  # "a changé de métier": "changé" stays a cue
                    change.skip.add(i)
                continue
            if timed or (given and (word not in _MOVE_VERBS or both)):
                change.switch = True
                change.skip.add(i)
                change.target |= _target(plain, stems, k)
    if change.ended:
        # What was started instead is the new value: "and bought a mini", "he's got an electric bike now".
        for i, word in enumerate(plain):
            if word in _START_VERBS or word in _CHOICE_VERBS:
                change.skip.add(i)
                k = _object(plain, i + 1 + (plain[i + 1: i + 2] == ["up"]))
                change.target |= _target(plain, stems, k) if k is not None else set()
    return change
