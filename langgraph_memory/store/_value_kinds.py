"""What kind of value a word or a number is, where two statements would otherwise merge on its surface form.

"The school trip is at 6" / "the school trip costs 6 euros" share the number 6, yet one is a time and the other a
price; "800 euros" / "800 dollars" share 800 but not the currency; "a red Skoda" / "a blue Skoda" swap one colour
for another; "lives in Lyon" / "lives in fear" and "travaille chez Airbus" / "travaille chez lui" fill the slot with
a word of another kind (a state of mind, a pronoun). Each of these is another fact, never a duplicate, a refinement
or a correction: merging it would lose what the user said.
"""

from __future__ import annotations

import re

__all__ = ["kind_swap", "not_a_place", "number_clash"]

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
    **dict.fromkeys(("minutes", "min", "mins", "hours", "hrs"), "duration"),
    **dict.fromkeys(("days", "jours", "weeks", "semaines", "nights", "nuits"), "days"),
    **dict.fromkeys(("years", "ans", "yrs", "months"), "years"),
    **dict.fromkeys(("percent", "pourcent", "%"), "percent"),
    **dict.fromkeys(("o", "oclock", "h", "heures", "heure", "pm", "am"), "time"),
}
# A label before a number names which one it is ("platform 6", "quai 6", "room 12", "bus 42").
_LABELS = set("platform platforms gate quai voie room salle chambre bus line ligne seat table floor etage étage "
              "terminal flat apartment appartement building batiment bâtiment door porte bay stand row rang "
              "number numéro numero no n° track court".split())
_AT = {"at", "à", "vers", "around"}  # "at 6", "à 6", "vers 6": a time of day
_PRICED = {"costs", "cost", "coute", "coûte", "coutent", "coûtent", "paid", "pays", "paye", "payé", "price", "prix"}
# "costs 6", "paid 40"


def _roles(text: str) -> dict[str, set[str]]:
    """Each bare number of ``text`` and the kinds of value it is said as, where a word beside it says so."""
    words = [w.lower() for w in _WORD.findall(text.replace("o'clock", "oclock").replace("o’clock", "oclock"))]
    roles: dict[str, set[str]] = {}
    for i, w in enumerate(words):
        m = re.fullmatch(r"(\d+(?:[.,]\d+)?)(h\d*|am|pm)?", w)
        if not m:
            continue
        number, suffix = m.group(1).replace(",", "."), m.group(2)
        before, after = words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else ""
        role = None
        if suffix:
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
        if role:
            roles.setdefault(number, set()).add(role)
    return roles


def _compatible(a: str, b: str) -> bool:
    """A price said without its currency ("costs 6") fits any currency ("6 euros")."""
    return a == b or (a.split(":")[0] == b.split(":")[0] and (":" not in a or ":" not in b))


def number_clash(new: str, old: str) -> str | None:
    """The number both statements say as another kind of value ("at 6" / "6 euros", "800 euros" / "800 dollars",
    "at 7" / "for 7 people", "at 6" / "platform 6"), or ``None``."""
    n, o = _roles(new), _roles(old)
    for number in sorted(n.keys() & o.keys()):
        if not any(_compatible(a, b) for a in n[number] for b in o[number]):
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


def kind_swap(old_words: set[str], new_words: set[str], stem) -> str | None:  # noqa: ANN001 - the caller's stemmer
    """The class of attribute word ("colour") of which old and new each say another member, or ``None``."""
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

