"""Dedup reasons in the words a user wrote.

The policy compares crude stems ("cass", "epaul", "toulous"), names slots ("<residence>",
"<job>") and reads values in a normal form ("month6" for "juin", "t1900" for "7pm",
"500000cm" for "5 km"); its reasons say so. What :meth:`MemoryStore.remember` returns is read
by people (notebooks, logs, tools, the memory browser), so the write path shows each term
as the words of the two memories it came from: a stem as its word, a slot or a value as the
shortest stretch of the text the policy reads it in ("travaille", "juin", "7pm", "5 km").
"""

from __future__ import annotations

import dataclasses
import re

from langgraph_memory.store._dedup import DedupVerdict, _stem
from langgraph_memory.store._statements import _parse

__all__ = ["in_words"]

_WORD = re.compile(r"[^\W_]+")
_SLOT = re.compile(r"<(\w+)>")
# "<why>: <terms> (cosine 0.80)" or "adds <terms> (cosine 0.80)": only the terms are stems.
_TERMS = re.compile(r"^(?P<head>adds |[^:()]*: )(?P<terms>.*?)(?P<tail> \(cosine [^)]*\))?$")
_TOKEN = re.compile(r"<\w+>|[^\W_]+")
_JOINS = re.compile(r"( -> | for )")
_EDGES = ".,;:!?()[]{}\"'«»“”‘’"
_LONGEST = 3
"""The most words a value spans as written ("1,80 m", "5 km", "dix ans")."""
_MAX_READS = 400
"""Stretches of text read per reason at most, half per text (~35 µs each): a long memory
keeps a write fast, and a term not found by then is shown as the policy wrote it."""


def _read(stretch: str) -> set[str]:
    """The policy's terms in ``stretch``, read past its cache: these stretches must not push
    stored texts out of it."""
    return _parse.__wrapped__(stretch).tokens


def in_words(verdict: DedupVerdict, new: str, old: str) -> DedupVerdict:
    """``verdict`` with its reason's terms (stems, slots, values) replaced by the words of
    ``new`` and ``old``."""
    match = _TERMS.match(verdict.reason)
    if match is None:
        return dataclasses.replace(verdict, reason=_SLOT.sub(r"\1", verdict.reason))
    # Terms are listed with ", "; " -> " (a swap) and " for " (what ended, for what) join lists.
    parts = _JOINS.split(match.group("terms"))
    sides, joins = [part.split(", ") for part in parts[::2]], parts[1::2]
    words: dict[str, str] = {}
    for text in (new, old):
        for word in _WORD.findall(text):
            words.setdefault(_stem(word), word)
    said = {term: words[term] for side in sides for term in side if term in words}
    # Only a token can be read in a stretch: not the policy's prose ("few swapped words") or markers ("~ends").
    tokens = {term for side in sides for term in side if _TOKEN.fullmatch(term)}
    said.update(_stretches(tokens - said.keys(), (new, old)))
    shown = [", ".join(dict.fromkeys(said.get(term) or _SLOT.sub(r"\1", term) for term in side)) for side in sides]
    terms = "".join(part for pair in zip(shown, [*joins, ""]) for part in pair)
    head, tail = (_SLOT.sub(r"\1", match.group(g) or "") for g in ("head", "tail"))
    return dataclasses.replace(verdict, reason=f"{head}{terms}{tail}")


def _stretches(terms: set[str], texts: tuple[str, ...]) -> dict[str, str]:
    """Each of ``terms`` the policy reads in a stretch of one to :data:`_LONGEST` words of
    ``texts``, mapped to the shortest (then first) such stretch; terms not found are left out."""
    found: dict[str, str] = {}
    reads = [0] * len(texts)  # each text's share of the budget: a long one leaves the other its own
    for size in range(1, _LONGEST + 1):
        for t, text in enumerate(texts):
            words = text.split()
            for i in range(len(words) - size + 1):
                if not terms - found.keys():
                    return found
                if reads[t] >= _MAX_READS // len(texts):
                    break
                stretch = " ".join(words[i:i + size]).strip(_EDGES)
                if stretch:
                    reads[t] += 1
                    for term in _read(stretch) & terms:
                        found.setdefault(term, stretch)
    return found
