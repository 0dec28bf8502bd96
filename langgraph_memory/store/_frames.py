"""Corrections read from the shape of two statements, for the dedup policy: the two are aligned word by word,
what differs is set aside, and what remains (the frame) must be the same while what differs is one value of
the same kind. Word lists say which words signal a change; these rules say where the new value stands, so
they hold for verbs and values nobody listed ("walks to school" -> "takes the bus to school now",
"is 17" -> "a fêté ses 18 ans", "switched GPs, she's with dr collins now", "hesitates between Lyon and
Lille" -> "chose Lille in the end").

Pure Python (stdlib only).
"""

from __future__ import annotations

import os.path
from difflib import SequenceMatcher

from langgraph_memory.store._changes import CHOICE_STEMS, same_word
from langgraph_memory.store._statements import (_ACCUMULATING, _COMMON_PLACES, _EXCLUSIVE, _KIN, _SLOT_OF, _SPOUSES,
                                                _STATUS, _TIME, _Parsed)


def alike(t: str, u: str, exact: set[str]) -> bool:
    """Two tokens of one word: values and slot keys exactly, other words by a long shared prefix
    (allergic/allergy, allergique/allergie) or as one word inflected (livre/livrer): the stemmer is crude."""
    if t in exact or u in exact or t[0] == "<" or u[0] == "<":
        return t == u
    n = len(os.path.commonprefix([t, u]))
    return t == u or (n >= 5 and n >= 0.75 * min(len(t), len(u))) or same_word(t, u)


def _kind(token: str, parsed: _Parsed) -> str:
    """What kind of value a token is: a number, a clock time, a time word, a status of one slot, a name."""
    if token.isdigit():
        return "number"
    if token[:1] == "t" and token[1:].isdigit():
        return "clock"
    if token in _TIME:
        return "time"
    if token in _STATUS:
        return _SLOT_OF[token][0]
    return "name" if token in parsed.names else "word"


def _steady(n: _Parsed, o: _Parsed) -> bool:
    """Whether new may replace old at all: the same polarity and tense, and not a fact said beside the others."""
    return n.negated == o.negated and n.past == o.past and not n.additive and not o.additive


def one_swap(n: _Parsed, o: _Parsed, exact: set[str]) -> tuple[list[str], list[str], list[str], tuple[int, int, int, int]] | None:
    """How :func:`frame_swap` lines two statements up, before its size guards: after a change signal, old's
    words, new's, new's with each word alike one of old's written as old's, and the one stretch replaced
    ``(i1, i2, j1, j2)`` (who it is about and when set aside); ``None`` unless exactly one stretch differs."""
    if not (n.update or n.switch or n.ended) or not _steady(n, o) or (n.tokens | o.tokens) & _ACCUMULATING \
            or (n.tokens ^ o.tokens) & _EXCLUSIVE:  # a slot on one side only: "to work" / "to school now"
        return None
    who = {o.lead, o.first} if o.first in (n.first, n.lead) or n.pronoun else {o.lead}
    old = [t for t in sorted(o.at, key=o.at.__getitem__) if t not in o.when and t not in who]
    new = [t for t in sorted(n.at, key=n.at.__getitem__) if t not in n.when and t not in who | {n.lead, n.first}]
    matched = [next((u for u in old if alike(t, u, exact)), t) for t in new]
    diffs = [op for op in SequenceMatcher(None, old, matched, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(diffs) != 1 or diffs[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = diffs[0]
    return old, new, matched, (i1, i2, j1, j2)


def frame_swap(n: _Parsed, o: _Parsed, exact: set[str]) -> str | None:
    """After a change signal (a cue, a switch or a stop verb), one stretch of old's words replaced by one stretch
    of new's, the rest the same: "Elliot walks to school" -> "elliot takes the bus to school now". The frame must
    hold a word after the swapped stretch or two words in all besides who it is about (one shared verb is not a
    frame: "takes the train to work" / "takes the ferry to visit her parents"), a slot on one side only or a
    family that accumulates (allergies, languages, likes) stops it."""
    swap = one_swap(n, o, exact)
    if swap is None:
        return None
    old, _, new, (i1, i2, j1, j2) = swap
    gone, came = set(old[i1:i2]), set(new[j1:j2])
    frame = old[:i1] + old[i2:]
    # Two words of old swapped around a one-word frame is a verb and its object: "puts sugar in his tea" /
    # "switched to herbal tea", "office is on the 3rd floor" / "flat is on the 5th floor".
    if not (old[i2:] or len(frame) >= 2) or len(gone) > (1 if len(frame) < 2 else 2) or len(came) > 3 \
            or (gone | came) & (_KIN | _SPOUSES):
        return None
    if gone & o.values and not came & n.values:  # a name for bare words is another fact
        return None
    if bool(gone & _TIME) != bool(came & _TIME):  # a time for another kind of word: another fact
        return None
    return f"same frame ({', '.join(frame)}): {', '.join(sorted(gone))} -> {', '.join(sorted(came))}"


def slot_swap(n: _Parsed, o: _Parsed, old_only: set[str], new_only: set[str]) -> str | None:
    """One value for another of the same kind (a number, a time, a status), in an exclusive slot said with a verb
    or two nobody listed ("Léon a 17 ans" -> "léon a fêté ses 18 ans"), or after a cue in fewer words ("le cours
    de yoga est à 18h" -> "le yoga est à 19h dorénavant"). New's extra words must not be things (a word after a
    determiner: "a un chien de 3 ans" is another fact); after a cue old may lose one word, new adds none."""
    slots = o.tokens & n.tokens & _EXCLUSIVE
    cue = n.update and not slots and not (n.tokens | o.tokens) & _ACCUMULATING
    if not (slots or cue) or not _steady(n, o) or not (o.tokens - old_only - {o.lead, o.first}):
        return None
    gone, came = old_only - o.when, new_only - n.when
    was, now = gone & o.values, came & n.values
    loose = came - now
    if len(was) != 1 or len(now) != 1 or len(gone - was) > cue or len(loose) > 2 * (not cue) or loose & n.nouns \
            or any(t[0] == "<" for t in loose | gone):
        return None
    [was_], [now_] = was, now
    # Not names: "favourite film is Amélie" / "favourite film director is Varda" is another slot.
    if _kind(was_, o) != _kind(now_, n) or _kind(now_, n) in ("name", "word"):
        return None
    return f"{min(slots) if slots else 'correction cue'}: {was_} -> {now_}"


def choice_made(n: _Parsed, o: _Parsed, old_only: set[str], new_only: set[str]) -> str | None:
    """Old left a choice open between named options and new keeps one of them, with a verb of choosing or a cue:
    "hesitates between Lyon and Lille" -> "chose Lille in the end"."""
    if not o.open_choice or n.open_choice or n.negated or not (n.update or n.tokens & CHOICE_STEMS):
        return None
    options = o.values - {o.lead, o.first}
    kept, dropped = options & n.tokens, options - n.tokens
    if len(kept) != 1 or not dropped or new_only - n.when - CHOICE_STEMS:
        return None
    return f"chose {min(kept)} over {', '.join(sorted(dropped))}"


def role_changed(n: _Parsed, o: _Parsed, old_only: set[str], new_only: set[str], exact: set[str]) -> str | None:
    """New changed which one old names ("switched GPs", "a changé de médecin") and names another: "Keiko's GP is
    Dr Ahmed" -> "keiko switched GPs, she's with dr collins now"."""
    if n.role is None or not any(alike(n.role, t, exact) for t in o.tokens) or not _steady(n, o):
        return None
    gone, came = old_only & o.values - {o.lead}, new_only - n.when - {n.role}
    loose = came - n.values  # a verb may come with the new one ("sees dr moreau"), not a thing
    if not gone or not came & n.values or len(loose) > 1 or loose & n.nouns:
        return None
    return f"another {n.role}: {', '.join(sorted(gone))} -> {', '.join(sorted(came))}"


_WHERE_AND_WORK = {"<residence>", "<job>"}


def moved_on(n: _Parsed, o: _Parsed, old_only: set[str], new_only: set[str]) -> str | None:
    """Where someone lives or works, said again as where they *are* after a cue, with one new place and nothing
    else: "Mo lives in Dublin" -> "mo's in galway now", "works at Deloitte" -> "is at KPMG these days". Without a
    cue being somewhere is a visit, and so is a common place or a thing ("is at the hospital now", "at the
    gym now")."""
    if not (o.tokens & _WHERE_AND_WORK) or n.tokens & _EXCLUSIVE or not (n.located and n.update) \
            or not _steady(n, o) or o.intro != "@":
        return None
    gone, came = old_only - o.when - _WHERE_AND_WORK, new_only - n.when
    # A place in lower case counts only bare, as names are said: "in galway", not "at the gym".
    if len(gone) != 1 or not gone <= o.values or len(came) != 1 or not came <= n.values | n.predicate \
            or came & (_COMMON_PLACES | n.nouns):
        return None
    return f"now at: {min(gone)} -> {min(came)}"
