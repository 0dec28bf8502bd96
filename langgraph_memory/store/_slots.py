"""Slots that hold one value at a time, for the dedup policy: read from the grammar of a statement's frame, not
from a list of sentences.

A statement is read as ``HEAD LINK VALUE``. The head is who or what the statement is about: a possessive or
definite noun phrase ("our dentist", "Wren's accountant", "la voiture de Gaëlle", "the team's standup") or a
person ("Magnus", "elle"). The link is a copula ("is", "c'est") or a functional relation, one that holds one
value at a time ("lives in", "works at", "is married to", "is called", "s'appelle"), or, after a singular noun
head, any verb that gives a number, a time or a date ("ends in 7731", "lands at 6pm", "finit par 42").

Such a slot holds one value at a time when its head is singular and nothing marks accumulation ("also", "too",
"another", "a second", "aussi", "en plus", "autre", two values joined by "and"). Two statements that share the
head and the link and differ in one value of the same kind (a name for a name, a number for a number, a time,
a date, a status; an ordinary word only in a slot that is itself a choice: "favourite colour is green") say
the slot changed: a correction, with or without a change word. Another head ("accountant" / "lawyer"), a plural
head ("parents live in York" / "in Hull") or a habit of a person ("swims at 7am" / "at 6pm") holds more than
one value, and is no such correction.

Pure Python (stdlib only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from langgraph_memory.store._quantities import canonical as _canonical
from langgraph_memory.store._statements import (_CHANGING, _COPULAS, _KIN, _NEGATION, _PAST_EN, _PAST_FR, _PRONOUNS,
                                                _SLOT_OF, _STATUS, _TIME, _TITLES, _TOKEN, _UPDATE, _named,
                                                _spelled)
from langgraph_memory.store._wordforms import _SYNONYMS, _fold, _plain, _stem, _words

__all__ = ["accumulates", "held_apart", "single_value_swap"]

# Words that mark a value held beside others: "also", "another", "a second", "aussi", "en plus", "l'autre".
_MORE = _plain("also too aussi egalement another other others autre autres additional extra")
# An ordinal marks one more only after an indefinite article: "a second bakery", "une deuxième maison" (not "au
# deuxième étage", which says where).
_MORE_PAIRS = {("as", "well"), ("en", "plus"), ("de", "plus"), ("in", "addition"), ("one", "more")} | {
    (a, o) for a in ("a", "un", "une") for o in ("second", "seconde", "deuxieme", "third", "troisieme")}
# "a second-hand Saab", "une voiture de seconde main": no second one.
_NOT_MORE = {("second", "hand"), ("seconde", "main")}
# Two values joined: "Ben and Carl", "Lyon ou Lille".
_JOINED = _plain("and et or ou")
_ARTICLES = _plain("a an the le la les l un une")
_TITLE_WORDS = _TITLES | _plain("docteure ms")
# Who owns the slot: a possessive determiner (singular or plural head) or a definite article.
_SINGULAR_HEADS = _plain("my our his her their your its mon ma notre son sa leur votre ton ta le la l the")
_PLURAL_HEADS = _plain("mes nos ses leurs les tes vos")
_THIRD_PERSON = _plain("his her its son sa")  # an owner said by a pronoun ("their car" may be a household's)
_FRENCH_SINGULAR = _plain("mon ma notre son sa leur votre ton ta le la l")
# People one may have several of: "my daughter", "le frère de Malik", "her client", "le prof de Léo" name one
# among them, not a slot. (One mother, one boss: those are slots.)
_SEVERAL = _KIN - _words("mother father mom mum dad mere pere maman papa boss manager patron chef") | _words(
    "client customer patient student pupil teacher tutor coach teammate roommate flatmate housemate cliente "
    "patiente eleve etudiant etudiante prof professeur coequipier coequipiere colocataire coloc")
_VALUES = {"name", "number", "clock", "date", "day"}
# Languages, and the nationalities said the same way: "French" is where one is from, never a name.
_LANGUAGES = _plain("latin greek french english german spanish italian chinese mandarin arabic russian japanese "
                    "portuguese dutch hebrew polish grec francais anglais allemand espagnol italien chinois "
                    "arabe russe japonais portugais")
_PLURAL_COPULAS = _plain("are were sont etaient seront")
# The relations that hold one value at a time: where one lives, where one works, one's name, one's partner.
_FUNCTIONAL = {"<residence>", "<job>", "<name>", "<relationship>"}
_WEEKDAYS = _words("monday tuesday wednesday thursday friday saturday sunday lundi mardi mercredi jeudi vendredi "
                   "samedi dimanche weekend weekday weekdays")
# A value is introduced by one of these after a verb ("ends in 7731", "finit par 42", "lands at 6pm").
_INTRODUCERS = _plain("in at on to by for par a au en de d chez avec with sur")
# Living or working *with* someone, working *on* something: companions and projects, several at a time.
_ALONGSIDE = {(key, p) for key in ("<residence>", "<job>") for p in ("with", "avec")} | {
    ("<job>", "on"), ("<job>", "sur")}


@dataclass(frozen=True)
class _Frame:
    tokens: tuple[str, ...]  # the statement's words, normalised: copulas "=", relation words their slot key
    kinds: tuple[str, ...]  # each token's kind of value: name, number, clock, date, day, status, word
    link: int  # where the link stands (-1: no copula nor relation, a verb after a noun head)
    head: tuple[str, ...]  # what the slot is, without its owner: ("accountant",), ("couleur", "<favourite>")
    person: bool  # the head is a person (a name or a pronoun), not a noun phrase
    # A plural noun head ("Ottilie's parents", "les enfants de Lisette", "Chen's neighbours are"), or the slot of one
    # relative among several ("my son's school"): more than one value may be held.
    plural: bool
    more: bool  # an accumulation marker anywhere: "also", "another", "en plus", "l'autre"
    at: int = -1  # where the value's frame ends: the link, or the word introducing a value after a verb
    owner: tuple[int, int] = (0, 0)  # where the owner stands: "Ruth's", "her", "de Ninon", "Magnus"
    named: str = ""  # the owner is one name ("name") or a third-person pronoun ("pronoun"), else ""


def _slot(token: str | None) -> str | None:
    """The slot a normalised token names: its key, or the slot of a status word ("marie" -> relationship)."""
    if token is None or token[:1] == "<":
        return token
    return _SLOT_OF[token][0] if token in _STATUS else None


@lru_cache(maxsize=4096)
def accumulates(text: str) -> bool:
    """Whether a statement marks a value held beside others ("also", "too", "another", "a second", "aussi",
    "en plus", "l'autre", "as well"): such a statement never replaces one."""
    plain = [_fold(w) for w in _TOKEN.findall(text)]
    return bool(_MORE & set(plain)) or any(pair in _MORE_PAIRS and (pair[1], after) not in _NOT_MORE
                                           for pair, after in zip(zip(plain, plain[1:]), [*plain[2:], ""]))


def _kind(raw: str, stem: str, titled: bool) -> str:
    if re.fullmatch(r"t\d{4}", stem):
        return "clock"
    if stem.isdigit():
        return "number"
    if stem in _WEEKDAYS:
        return "day"
    if stem in _TIME:
        return "date"
    if stem in _STATUS:
        return _SLOT_OF[stem][0]
    if _fold(raw) in _LANGUAGES:
        return "word"
    return "name" if titled or _named(raw) else "word"


def _clause(text: str) -> tuple[list[str], list[str]] | None:
    """A statement's words, written and folded ("the kids' lesson": owned, "kids s lesson"); ``None`` when it is
    negated, in the past or empty."""
    raw = _TOKEN.findall(_spelled(re.sub(r"(?<=s)['’](?=\s)", " s", text)))
    plain = [_fold(w) for w in raw]
    if not raw or set(plain) & (_NEGATION | _PAST_EN | _PAST_FR):
        return None
    return raw, plain


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], str] | None:
    """A statement's words normalised for comparing frames (copulas "=", relation words their slot key, articles,
    titles and change words left out), each word's kind of value, its written form, the copulas said, and its
    first word; ``None`` when it is negated, in the past or empty."""
    said = _clause(text)
    if said is None:
        return None
    raw, plain = said
    tokens: list[str] = []
    kinds: list[str] = []
    raws: list[str] = []
    copulas: list[str] = []
    titled = False
    for i, (w, p) in enumerate(zip(raw, plain)):
        canon = _canonical(w, p)
        stem = canon or _SYNONYMS.get(_stem(w), _stem(w))
        nxt = plain[i + 1] if i + 1 < len(plain) else ""
        if p in _ARTICLES - _INTRODUCERS or (p == "c" and nxt == "est") or stem in _UPDATE:
            continue  # "c'est" is "est"; a change word is no part of the frame
        if p in _TITLE_WORDS or (w == "M" and raw[i + 1: i + 2] and _named(raw[i + 1])):
            titled = True  # "dr collins", "M. Roux": the next word is a name, the title no part of it
            continue
        if p in ("s", "se") and nxt and (_SLOT_OF.get(_stem(raw[i + 1]), ("",))[0] == "<name>" or nxt in _COPULAS):
            continue  # "s'appelle", "se nomme", "s'est"
        if p in _INTRODUCERS:
            tokens.append(p)  # "par" is no plan, "à" no article
        elif p in _COPULAS:
            copulas.append(p)
            tokens.append("=")
        elif stem in _SLOT_OF and stem not in _STATUS:
            tokens.append(_SLOT_OF[stem][0])
        else:
            tokens.append(stem)
        kinds.append(_kind(w, stem, titled) if tokens[-1] in (stem, p) else "link")
        if kinds[-1] == "number" and i and plain[i - 1] in ("at", "a") and raw[i - 1] != "a":
            kinds[-1] = "clock"  # "at 10", "à 9": an hour
        raws.append(w)
        titled = False
    # "is called", "is employed at", "est mariée à": the copula belongs to the relation that follows it.
    for i in range(len(tokens) - 2, -1, -1):
        if tokens[i] == "=" and tokens[i + 1] in _FUNCTIONAL:
            del tokens[i], kinds[i], raws[i]
    return tuple(tokens), tuple(kinds), tuple(raws), tuple(copulas), plain[0]


@lru_cache(maxsize=4096)
def _frame(text: str) -> _Frame | None:
    """The statement's frame, or ``None`` when it is no single clause about one slot (negated, past, empty)."""
    read = _read(text)
    if read is None:
        return None
    tokens, kinds, raws, copulas, first = read
    # The link: the first copula, else the first relation word that is no noun owned by someone ("Ottilie's
    # partner works at": "partner" is the head).
    owned = {"s"} | _SINGULAR_HEADS | _PLURAL_HEADS
    link = next((i for i, t in enumerate(tokens) if t == "="), -1)
    if link < 0:
        link = next((i for i, t in enumerate(tokens) if t in _FUNCTIONAL and not (i and tokens[i - 1] in owned)), -1)
    if link == 0:
        return None
    if link < 0:
        # No copula nor relation: a noun head, a verb, then the value ("phone number ends in 7731"). The head runs
        # to the first value, less the words that introduce it; the verb stays in it.
        value = max((i for i in range(2, len(tokens) - 1) if tokens[i] in _INTRODUCERS and kinds[i + 1] in _VALUES),
                    default=None)
        if value is None:
            return None
        before = tokens[:value]
    else:
        before = tokens[:link]
    person = link > 0 and len(before) == 1 and first not in owned  # "Magnus works at", "elle habite à"
    cut = -1
    at = link if link >= 0 else len(before)
    if person:
        head: tuple[str, ...] = ()
        plural = first in _plain("they ils elles")
        owner, named = (0, 1), "pronoun" if first in _PRONOUNS else "name"
    else:
        # The owner: what stands before the last "'s", or after the last "de" / "d'" / "du" / "des" in French.
        cut = max((i for i, t in enumerate(before) if t == "s"), default=-1)
        de = max((i for i, t in enumerate(before) if t in ("de", "d", "du", "des") and i > cut + 1),
                 default=len(before))
        head = tuple(before[cut + 1:de])
        head = head[1:] if cut < 0 and head[:1] and head[0] in owned else head  # "my car", "son chien"
        if not head or not (first in owned or cut >= 0):
            return None
        # Plural: said by the determiner in French, by the copula, or by the head noun itself ("parents live").
        # In English the head noun says it ("parents live in"), or, with no copula nor relation, the verb that ends
        # the head does ("number ends in", "kids finish at").
        # The owner's place, and whether it is one name or a pronoun: "Ruth's", "her", "de Ninon", "son".
        if cut >= 0:
            owner, named = (0, cut + 1), "name" if cut == 1 else ""
        elif de < len(before) and link >= 0:
            owner, named = (de, len(before)), "name" if len(before) - de == 2 else ""
        else:
            owner, named = (0, 1), "pronoun" if first in _THIRD_PERSON else ""
        said = raws[len(before) - 1 if link < 0 else de - 1].lower()
        plural = first in _PLURAL_HEADS or bool(set(copulas) & _PLURAL_COPULAS) or any(t in _JOINED for t in before) \
            or (first not in _FRENCH_SINGULAR and bool(re.fullmatch(r"[a-z]*[^siu']s", said)) == (link >= 0))
    # A slot of one relative among several: "my son's school" may be either son's.
    plural = plural or any(t in _SEVERAL and re.fullmatch(r".*[^sx]", raws[i].lower())
                           for i, t in enumerate(before[:max(cut, 0)]))
    return _Frame(tuple(tokens), tuple(kinds), link, head, person, plural, accumulates(text), at, owner, named)


def held_apart(new: str, old: str) -> str | None:
    """Why two statements about one owner fill two slots, or hold more than one value, so that no value swap
    between them is a correction: an accumulation marker, another head ("Wren's accountant" / "wren's lawyer"), or
    a plural one ("Ottilie's parents live in York" / "in Hull"). ``None`` when new says a change happened."""
    if _CHANGING & {_fold(w) for w in _TOKEN.findall(new)}:
        return None  # "Ottilie's parents moved to Hull": a change said happened, for the other rules to read
    if accumulates(new) or accumulates(old):
        return "a value said beside the others"  # "Wren's rent is 950 euros as well", "another", "autre"
    n, o = _frame(new), _frame(old)
    if n is None or o is None:
        return None
    if n.plural or o.plural:
        return "a plural slot, or one of several people's, holds more than one value"
    if any(f.link >= 0 and f.tokens[f.link + 1: f.link + 2] and (f.tokens[f.link], f.tokens[f.link + 1]) in _ALONGSIDE
           for f in (n, o)):
        return "lives or works alongside several"
    if set(n.head) & set(o.head) & _SEVERAL:
        return f"one of several: {' '.join(sorted(set(n.head) & set(o.head) & _SEVERAL))}"
    if n.link >= 0 and o.link >= 0 and n.head and o.head and n.head != o.head \
            and "<favourite>" not in set(n.head) & set(o.head):
        return f"another slot: {' '.join(o.head)} / {' '.join(n.head)}"
    return None


def _time_on_a_day(new: str, old: str) -> str | None:
    """A recurring thing on a given day happens at one time on it, whoever does it: "swims on Mondays at 7" ->
    "at 8", "joue au foot le mardi à 18h" -> "à 19h". (Without the day, two times may both hold: "swims at 7am" /
    "at 6pm"; two days joined hold two times.)"""
    n, o = _read(new), _read(old)
    if n is None or o is None or accumulates(new) or accumulates(old) or _JOINED & set(n[0] + o[0]):
        return None
    ops = [op for op in SequenceMatcher(None, o[0], n[0], autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    days = [t for t, k in zip(o[0][:i1] + o[0][i2:], o[1][:i1] + o[1][i2:]) if k == "day"]
    if i2 - i1 != 1 or j2 - j1 != 1 or o[1][i1] != "clock" or n[1][j1] != "clock" or len(days) != 1:
        return None
    return f"time on {days[0]}: {o[0][i1]} -> {n[0][j1]}"


def _owned(f: _Frame) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """A frame's words and kinds without its owner, and where its value's frame ends then."""
    s, e = f.owner
    return f.tokens[:s] + f.tokens[e:], f.kinds[:s] + f.kinds[e:], f.at - (e - s if e <= f.at else 0)


def single_value_swap(new: str, old: str) -> str | None:
    """Why new corrects old by giving one slot a new value, or ``None``: the same singular head and link, nothing
    marking accumulation, and one stretch of the value swapped for one of the same kind ("our dentist is Dr
    Okafor" -> "our dentist is dr lindqvist", "la voiture de Margaux est une Peugeot" -> "c'est une Dacia")."""
    timed = _time_on_a_day(new, old)
    if timed:
        return timed
    n, o = _frame(new), _frame(old)
    if n is None or o is None or n.more or o.more or n.plural or o.plural or n.person != o.person:
        return None
    if n.head != o.head or (n.link < 0) != (o.link < 0) or set(o.head) & _SEVERAL:
        return None  # "Priya's daughter is called Lily" / "is called Rose": she may have two daughters
    link = o.tokens[o.link] if o.link >= 0 else None
    after = o.tokens[o.link + 1] if 0 <= o.link < len(o.tokens) - 1 else None
    if n.person and _slot(link) not in _FUNCTIONAL and not (link == "=" and _slot(after) in _FUNCTIONAL):
        return None  # a person holds one value only in a relation: "lives in", "works at", "is married to"
    if held_apart(new, old):
        return None
    # The same owner, or one said by a pronoun the other names: "Ruth's dentist is Dr Blanc" / "her dentist is dr
    # petit", "le chien de Ninon" / "son chien".
    (o_tokens, o_kinds, o_at), (n_tokens, n_kinds, n_at) = _owned(o), _owned(n)
    if o.tokens[slice(*o.owner)] == n.tokens[slice(*n.owner)] or {o.named, n.named} != {"name", "pronoun"}:
        (o_tokens, o_kinds, o_at), (n_tokens, n_kinds, n_at) = (o.tokens, o.kinds, o.at), (n.tokens, n.kinds, n.at)
    ops = [op for op in SequenceMatcher(None, o_tokens, n_tokens, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    # "works at Siemens" / "works for Bosch", "mariée à Paul" / "mariée avec Gérard": in a relation, the value's
    # introducer may change with it.
    if n.person or link in _FUNCTIONAL:
        i1 += i2 - i1 > 1 and o_tokens[i1] in _INTRODUCERS
        j1 += j2 - j1 > 1 and n_tokens[j1] in _INTRODUCERS
    if i1 <= o_at or j1 <= n_at:
        return None  # the swap must lie in the value, after the head and its link
    gone, came = o_tokens[i1:i2], n_tokens[j1:j2]
    kinds = set(o_kinds[i1:i2]) | set(n_kinds[j1:j2])
    if len(gone) > 3 or len(came) > 3 or len(kinds) != 1 or any(t in _JOINED for t in gone + came):
        return None
    [kind] = kinds
    if o.link < 0 and (kind not in ("number", "clock", "date") or o_tokens[i1 - 1] not in _INTRODUCERS):
        return None  # after any verb, only a number, a time or a date given by a preposition ("ends in 7731")
    if kind in ("day", "link") or (kind == "word" and "<favourite>" not in o.head):
        return None  # a weekday may be one of several; an ordinary word is one value only of a choice
    return f"single-value slot ({' '.join(o.head) or o.tokens[0]}): {' '.join(gone)} -> {' '.join(came)}"
