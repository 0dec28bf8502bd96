"""What kind of value a word or a number is, where two statements would otherwise merge on its surface form.

"The school trip is at 6" / "the school trip costs 6 euros" share the number 6, yet one is a time and the other a
price; "800 euros" / "800 dollars" share 800 but not the currency; "a red Skoda" / "a blue Skoda" swap one colour
for another; "lives in Lyon" / "lives in fear" and "travaille chez Airbus" / "travaille chez lui" fill the slot with
a word of another kind (a state of mind, a pronoun). Each of these is another fact, never a duplicate, a refinement
or a correction: merging it would lose what the user said.
"""

from __future__ import annotations

import re

from langgraph_memory.store._number_words import spell_numbers
from langgraph_memory.store._quantities import CARDINALS, MONTHS, NUMBERS
from langgraph_memory.store._wordforms import _fold

__all__ = ["kind_swap", "named_swap", "not_a_place", "number_clash", "one_word_swap", "relation_swap", "worked_for"]

_WORD = re.compile(r"\d+(?:[.,]\d+)?(?:h\d*|am|pm)?|[^\W\d_]+|[€$£¥%]", re.UNICODE)

_CURRENCIES = {
    **dict.fromkeys(("euro", "euros", "eur", "€"), "euro"), **dict.fromkeys(("dollar", "dollars", "usd", "$", "bucks"),
                                                                            "dollar"),
    **dict.fromkeys(("pound", "pounds", "gbp", "£", "quid", "livre", "livres"), "pound"),
    **dict.fromkeys(("yen", "¥"), "yen"), **dict.fromkeys(("franc", "francs", "chf"), "franc"),
    **dict.fromkeys(("zloty", "zlotys", "zlotych", "pln"), "zloty"), **dict.fromkeys(("cent", "cents", "centimes"), "cent"),
}
# A unit after a number names what the number counts or measures ("for 7 people", "12 km", "3 ans").
_UNITS = {
    **dict.fromkeys(("people", "persons", "personnes", "guests", "invites", "invités", "kids", "children", "enfants",
                     "adults", "adultes", "pax", "couverts", "places", "seats"), "people"),
    **dict.fromkeys(("km", "kilometres", "kilometers", "kilomètres", "miles", "mi"), "distance"),
    **dict.fromkeys(("kg", "kilos", "kilograms", "lbs", "lb"), "weight"),
    # A unit of time says which one after the kind: "20 min" / "20 hrs", "7 yo" / "7 months old", "2 weeks" /
    # "2 days" are other values of one kind.
    **dict.fromkeys(("minutes", "min", "mins"), "duration:minute"), **dict.fromkeys(("hours", "hrs"), "duration:hour"),
    **dict.fromkeys(("days", "jours", "nights", "nuits"), "days:day"), **dict.fromkeys(("weeks", "semaines"), "days:week"),
    **dict.fromkeys(("years", "ans", "yrs", "yo"), "years:year"), **dict.fromkeys(("months", "mois"), "years:month"),
    **dict.fromkeys(("percent", "pourcent", "%"), "percent"),
    **dict.fromkeys(("o", "oclock", "h", "heures", "heure", "pm", "am"), "time"),
}
# A label before a number names which one it is ("platform 6", "quai 6", "room 12", "bus 42").
_LABELS = set("platform platforms gate quai voie room salle chambre bus line ligne seat table floor etage étage "
              "terminal flat apartment appartement building batiment bâtiment door porte bay stand row rang "
              "number numéro numero no n° track court terrain field pitch piste lane couloir".split())
_PER = {"a", "an", "per", "par", "each", "every", "chaque"}
_PERIODS = {**dict.fromkeys(("day", "jour"), "day"), **dict.fromkeys(("week", "semaine"), "week"),
            **dict.fromkeys(("month", "mois"), "month"), **dict.fromkeys(("year", "an", "annee", "année"), "year"),
            **dict.fromkeys(("hour", "heure"), "hour")}
_AT = {"at", "à", "vers", "around", "until", "till", "jusqu"}  # "at 6", "à 6", "vers 6", "until 8": a time of day
_PRICED = {"costs", "cost", "coute", "coûte", "coutent", "coûtent", "paid", "pays", "paye", "payé", "price", "prix"}
# "costs 6", "paid 40"


_ORDINAL_SUFFIXES = {"st", "nd", "rd", "th", "e", "er", "re", "ere", "eme", "ieme", "ème", "ième", "ère"}
_NOT_COUNTED = {"and", "or", "et", "ou", "of", "de", "to", "a", "at", "on", "in", "now", "today", "yesterday", "then",
                "so", "but", "mais", "tomorrow", "maintenant", "aujourd", "hier", "demain"}


def _numbered(text: str) -> list[str]:
    """The words of ``text``, numbers in digits: numbers in words as their digits, an ordinal as digits and "th"."""
    words = []
    text = re.sub(r"\bp(?:er|our)\s+cents?\b", "percent", text, flags=re.IGNORECASE)  # "3 per cent", "3 pour cent"
    for w in _WORD.findall(spell_numbers(text.replace("o'clock", "oclock").replace("o’clock", "oclock"))):
        w, plain = w.lower(), _fold(w)
        if plain in NUMBERS and plain not in ("second", "seconde"):  # "a second job": one more; "a second": a time
            words += [NUMBERS[plain]] if plain in CARDINALS else [NUMBERS[plain], "th"]
        else:
            words.append(w)
    return words


def _roles(text: str) -> dict[str, set[str]]:
    """Each bare number of ``text`` and the kinds of value it is said as, where a word beside it says so. An
    ordinal names which one ("third marathon", or "fourth floor" = "floor 4"), a number before a thing counts
    ("three marathons", "four floors")."""
    words = _numbered(text)
    roles: dict[str, set[str]] = {}
    for i, w in enumerate(words):
        m = re.fullmatch(r"(\d+(?:[.,]\d+)?)(h\d*|am|pm)?", w)
        if not m:
            continue
        number, suffix = m.group(1).replace(",", "."), m.group(2)
        before, after = words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else ""
        role = None
        if after in _ORDINAL_SUFFIXES and not suffix:
            noun = next((x for x in words[i + 2: i + 4] if x not in _FUNCTION), "")
            if noun and noun not in MONTHS and noun != "of":  # "the 14th of March", "14th March": a date
                role = f"label:{noun}" if noun in _LABELS else "ordinal"
            elif not noun and "on" in words[max(0, i - 2): i]:  # "is on the 2nd": a day of the month
                role = "date"
        elif suffix:
            role = "time"
        elif after in _CURRENCIES:
            role = f"money:{_CURRENCIES[after]}"
        elif before in _CURRENCIES:  # "$800", "£40"
            role = f"money:{_CURRENCIES[before]}"
        elif after in _UNITS:
            role = _UNITS[after]
        elif before in _LABELS:
            role = f"label:{before}"
        elif before in _PRICED:
            role = "money"
        elif before in _AT:
            role = "time"
        elif after.isalpha() and after not in _FUNCTION and after not in _NOT_COUNTED and after not in _PER \
                and after not in MONTHS and after not in _PERIODS:
            role = "count"
        if role:
            roles.setdefault(number, set()).add(role)
        for k in (1, 2):  # "800 a month", "600 euros par mois": a rate beside the kind
            if words[i + k: i + k + 2] and len(words[i + k: i + k + 2]) == 2 and words[i + k] in _PER \
                    and words[i + k + 1] in _PERIODS and (k == 1 or after in _CURRENCIES or after in _UNITS):
                roles.setdefault(number, set()).add(f"rate:{_PERIODS[words[i + k + 1]]}")
    return roles


def _clash(a: set[str], b: set[str]) -> bool:
    """Whether two sets of kinds of one number disagree: another kind ("time" / "money"), or the same kind with
    another qualifier ("money:euro" / "money:dollar", "rate:month" / "rate:week"). A kind said without its
    qualifier ("costs 6") fits any, and a rate said on one side only is no clash."""
    kind = {r.split(":")[0] for r in a}, {r.split(":")[0] for r in b}
    # A count says only that it is no ordinal or label: "three marathons" / "third marathon", "four floors" /
    # "fourth floor"; beside any other kind it may be the same value ("is 30 now" / "is 30 years old").
    if "count" in kind[0] ^ kind[1]:
        counted, other = (kind[0], kind[1]) if "count" in kind[0] else (kind[1], kind[0])
        return bool(other & {"ordinal", "label"}) and not counted & {"ordinal", "label"}
    kind = kind[0] - {"count"}, kind[1] - {"count"}
    main = kind[0] - {"rate"}, kind[1] - {"rate"}
    if main[0] and main[1] and not main[0] & main[1]:
        return True
    for k in kind[0] & kind[1]:
        qa, qb = ({r for r in side if r.split(":")[0] == k} for side in (a, b))
        if not qa & qb and all(":" in r for r in qa | qb):
            return True
    return False


def number_clash(new: str, old: str) -> str | None:
    """The number both statements say as another kind of value ("at 6" / "6 euros", "800 euros" / "800 dollars",
    "at 7" / "for 7 people", "at 6" / "platform 6"), or ``None``."""
    n, o = _roles(new), _roles(old)
    for number in sorted(n.keys() & o.keys()):
        if _clash(n[number], o[number]):
            return f"{number}: {', '.join(sorted(o[number]))} / {', '.join(sorted(n[number]))}"
    return None


# Closed classes of attribute words: one member swapped for another is another value, never a paraphrase.
_CLASSES = {
    "colour": "red blue green yellow black white grey gray silver gold orange purple pink brown beige navy "
              "rouge bleu bleue vert verte jaune noir noire blanc blanche gris grise argent doré dorée violet violette "
              "rose marron",
    "size": "big small large tiny huge little petit petite grand grande gros grosse",
    "currency": " ".join(w for w in _CURRENCIES if w.isalpha()),
    "state": "new old used second-hand neuf neuve vieux vieille ancien ancienne occasion",
}


# Classes of words whose groups are two values: a word of one group for a word of another is another fact ("starts
# at noon" / "ends at noon", "studied at the WHO" / "works at WHO"); two words of one group are one ("starts" /
# "begins").
_GROUPS = {
    "start / end": ("start starts started begin begins began commence commences commencent debute debutent ouvre "
                    "ouvrent open opens opened", "end ends ended finish finishes finished close closes closed finit "
                    "finissent termine terminent ferme ferment"),
    "relation to a place": ("study studies studied studying etudie etudies etudiait etudiant", "<job> work works "
                            "worked working travaille travailles travaillait bosse bossait", "teach teaches taught teaching "
                            "enseigne enseignait", "<residence> live lives lived "
                            "living habite habitait vit vivait"),
}


def _group_swap(old_words: set[str], new_words: set[str], stem) -> str | None:  # noqa: ANN001
    for kind, groups in _GROUPS.items():
        said = [{i for i, g in enumerate(groups) if side & {stem(w) for w in g.split()}} for side in (old_words, new_words)]
        if said[0] and said[1] and not said[0] & said[1]:
            return kind
    return None


def kind_swap(old_words: set[str], new_words: set[str], stem) -> str | None:  # noqa: ANN001 - the caller's stemmer
    """The class of attribute word ("colour") of which old and new each say another member, or ``None``."""
    grouped = _group_swap(old_words, new_words, stem)
    if grouped:
        return grouped
    # A compound holding the other word is another thing: "bikes" / "motorbikes", "ball" / "football".
    if any(len(a) >= 3 and len(b) > len(a) + 2 and (b.endswith(a) or b.startswith(a))
           for x, y in ((old_words, new_words), (new_words, old_words)) for a in x for b in y if a[0] != "<"):
        return "compound"
    for kind, members in _CLASSES.items():
        stems = {stem(w) for w in members.split()}
        if old_words & stems and new_words & stems and (old_words & stems) != (new_words & stems):
            return kind
    return None


# What fills a place or workplace slot without being one: a pronoun ("chez lui", "with him"), home, a state of mind
# ("lives in fear", "vit dans la peur").
_NOT_PLACES = set("lui elle eux elles moi toi soi nous vous him her them me us himself herself themselves home maison "
                  "fear hope peace poverty luxury comfort denial misery harmony sin terror dread chaos silence "
                  "solitude anxiety hiding exile sorrow squalor happiness ignorance limbo style secret debt "
                  "peur crainte misère misere pauvreté pauvrete luxe paix espoir terreur angoisse exil déni deni "
                  "ignorance bonheur".split())


def not_a_place(text: str, intro_words: set[str]) -> str | None:
    """The word after a place or workplace introducer of ``text`` that is no place or workplace, or ``None``."""
    words = [w.lower() for w in _WORD.findall(text)]
    for i, w in enumerate(words[:-1]):
        if w in intro_words:
            after = words[i + 1]
            if after in {"la", "le", "l", "les", "the"} and i + 2 < len(words):
                after = words[i + 2]
            if after in _NOT_PLACES:
                return after
    return None



# Words a paraphrase may swap freely: articles, copulas, pronouns, prepositions and other function words.
_FUNCTION = set("a an the is are was were be been has have had of to in on at for with by it its this that these "
                "those my your his her our their un une le la les l de du des d est sont a ont au aux en et son sa "
                "ses mon ma mes ton ta tes notre nos votre vos leur leurs ce cet cette c s".split())


# After a negation comes what is not done: "can't drive" / "can't ski".
_NEGATED = {"not", "t", "never", "pas", "jamais", "plus"}
_ARTICLES = {"an": "a", "une": "un", "la": "le", "the": "le"}  # "un mâle" / "une femelle": one swap, not two


def one_word_swap(new: str, old: str) -> tuple[str, str] | None:
    """The content word of old that new replaces by another after a determiner, copula or preposition, all else
    said alike ("a long wool coat" / "a short wool coat", "takes the bus" / "takes the tram"), or ``None``. Such a
    swap is another value, never a paraphrase: the statements differ only where the fact lies."""
    n, o = ([_ARTICLES.get(w, w) for w in _numbered(t) if w != "th"] for t in (new, old))
    if len(n) != len(o):
        return None
    # One word for one word, the rest lines up (a function word for another is no difference: "has" / "have").
    differ = [i for i, (a, b) in enumerate(zip(o, n)) if a != b and not (a in _FUNCTION and b in _FUNCTION)]
    if len(differ) != 1:
        return None
    i1 = differ[0]
    gone, came = o[i1], n[i1]
    if gone in _FUNCTION or came in _FUNCTION or not gone.isalpha() or not came.isalpha():
        return None
    if not i1 or not (o[i1 - 1] in _FUNCTION or o[i1 - 1] in _NEGATED or o[i1 - 1].isdigit()):
        return None  # right after its subject the word is a verb: "Ines keeps / stores her bike" says it again
    return gone, came


_WORK_VERBS = set("works work working travaille travailles travaillent bosse bosses".split())


def worked_for(new: str, old: str) -> bool:
    """Whether one statement says where someone works ("works at Acme", "travaille chez Airbus") and the other whom
    for ("works for Sarah", "travaille pour Léa"): a person and a company look alike by name, so without a change
    word the two may both hold."""
    said = []
    for text in (new, old):
        words = [w.lower() for w in _WORD.findall(text)]
        said.append(next(((b, words[i + 2: i + 3]) for i, (a, b) in enumerate(zip(words, words[1:]))
                          if a in _WORK_VERBS and b in ("at", "for", "chez", "pour")), (None, [])))
    (intro_new, value_new), (intro_old, value_old) = said
    where, whom = {"at", "chez"}, {"for", "pour"}
    return value_new != value_old and (
        (intro_new in where and intro_old in whom) or (intro_new in whom and intro_old in where))


# Prepositions that say how someone takes part: "works for Ayo" / "works with Ayo", "plays for" / "plays against".
_RELATIONS = set("for with without against by pour avec sans contre par".split())


def relation_swap(new: str, old: str) -> tuple[str, str] | None:
    """The preposition of old that new replaces by another of how someone takes part, all else said alike ("plays
    piano for Greta" / "with Greta"), or ``None``: another relation, never the same fact."""
    n, o = ([w.lower() for w in _WORD.findall(t)] for t in (new, old))
    if len(n) != len(o):
        return None
    differ = [(a, b) for a, b in zip(o, n) if a != b]
    if len(differ) == 1 and differ[0][0] in _RELATIONS and differ[0][1] in _RELATIONS:
        return differ[0]
    return None


_NAMED = re.compile(r"([^\W\d_]+)(?:\s+(?:de|of)\s+(?:l['’]|la\s+|le\s+|the\s+)?[^\W\d_]+|\s+d['’][^\W\d_]+)?"
                    r"\s+(?:(?:is|was|qui)\s+)?(?:called|named|nomm[ée]e?s?|pr[ée]nomm[ée]e?s?|"
                    r"s['’]appelle|se\s+nomme|se\s+pr[ée]nomme)\s+([^\W\d_]+)", re.IGNORECASE)


def named_swap(new: str, old: str, stem) -> tuple[str, str] | None:  # noqa: ANN001 - the caller's stemmer
    """The thing a name is given to, where both statements give the same name to another one ("a cat called
    Pippin" / "goat is named Pippin", "un chat qui s'appelle Moka" / "un lapin qui se nomme Moka"), or ``None``."""
    found = [_NAMED.search(t) for t in (new, old)]
    if not all(found):
        return None
    (thing_new, name_new), (thing_old, name_old) = ((m.group(1), m.group(2)) for m in found)  # type: ignore[union-attr]
    if name_new.lower() == name_old.lower() and stem(thing_new) != stem(thing_old):
        return thing_old, thing_new
    return None
