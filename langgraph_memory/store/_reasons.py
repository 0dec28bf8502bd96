"""Dedup reasons in the words a user wrote.

The policy compares crude stems ("cass", "epaul", "toulous") and names slots ("<residence>");
its reasons say so. What :meth:`MemoryStore.remember` returns is read by people (notebooks,
logs, tools), so the write path shows each stem as the word of the two memories it came from.
"""

from __future__ import annotations

import dataclasses
import re

from langgraph_memory.store._dedup import DedupVerdict, _stem

__all__ = ["in_words"]

_WORD = re.compile(r"[^\W_]+")
_SLOT = re.compile(r"<(\w+)>")
# "<why>: <terms> (cosine 0.80)" or "adds <terms> (cosine 0.80)": only the terms are stems.
_TERMS = re.compile(r"^(?P<head>adds |[^:()]*: )(?P<terms>.*?)(?P<tail> \(cosine [^)]*\))?$")


def in_words(verdict: DedupVerdict, new: str, old: str) -> DedupVerdict:
    """``verdict`` with its reason's stems replaced by the words of ``new`` and ``old``."""
    words: dict[str, str] = {}
    for text in (new, old):
        for word in _WORD.findall(text):
            words.setdefault(_stem(word), word)
    reason = _SLOT.sub(r"\1", verdict.reason)
    match = _TERMS.match(reason)
    if match is None:
        return dataclasses.replace(verdict, reason=reason)
    terms = _WORD.sub(lambda m: words.get(m.group(0), m.group(0)), match.group("terms"))
    return dataclasses.replace(verdict, reason=f"{match.group('head')}{terms}{match.group('tail') or ''}")
