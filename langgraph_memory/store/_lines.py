"""Text that reaches a model is data: one line per item, whatever it holds.

Rules shared by every place where stored text meets a prompt (the memories block, the
live room block, the digest's transcript, tool answers):

* **names** (a room, an author) are refused at the API when they hold a character that can
  break a line or reorder what is shown (:func:`check_name`): a name is short and chosen by
  a program, so refusing loses nothing;
* **identifiers** (a user or agent id, a room a run or a write brings in, a thread, a
  channel) are names people tell apart, so they are also refused when they could look like
  another (:func:`identifier_fault`: blank letters, odd spaces, not NFC), and a stored one
  is shown with codes for what a reader cannot see (:func:`with_codes`);
* **text** (a message, a memory) is never refused for this: refusing would lose what someone
  said. It is normalised when it is shown (:func:`one_line`): every line break becomes a
  space and every other control, format (bidi overrides, zero-width) or surrogate
  character is dropped, so it cannot start a line, a section or a role of its own.

They look at Unicode categories rather than a list of code points, so a character added by a
later Unicode version falls under the same rule.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from langgraph_memory.errors import InvalidMemoryError

__all__ = [
    "UNSAFE_CATEGORIES",
    "bare_line",
    "check_identifier",
    "check_name",
    "identifier_fault",
    "is_mark",
    "one_line",
    "quoted_line",
    "unsafe_characters",
    "with_codes",
]

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
"""Control (NUL, ESC, ``\\n``, ``\\r``, U+0085...), format (bidi embeddings, overrides and
isolates U+202A-U+202E, U+2066-U+2069, zero-width characters, U+FEFF...), line and paragraph
separators (U+2028, U+2029) and lone surrogates."""

# Characters outside those categories that show as nothing: the combining grapheme joiner
# and the Hangul fillers (default-ignorable code points in Unicode). Variation selectors,
# also default-ignorable, are kept: emoji need them.
_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u3164\uffa0")

# Every way a string can end a line (str.splitlines), so one item cannot start another.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


def unsafe_characters(text: str) -> list[str]:
    """The distinct characters of ``text`` that :func:`one_line` would drop or replace,
    as ``U+XXXX`` codes (for error messages)."""
    found = dict.fromkeys(c for c in text if unicodedata.category(c) in UNSAFE_CATEGORIES)
    return [f"U+{ord(c):04X}" for c in found]


def one_line(text: str) -> str:
    """``text`` as one line: line breaks (and runs of them) become one space; other control,
    format and surrogate characters are dropped. Idempotent; never raises."""
    flat = _LINE_BREAKS.sub(" ", text)
    return "".join(c for c in flat if unicodedata.category(c) not in UNSAFE_CATEGORIES)


def quoted_line(text: str) -> str:
    """Text shown to a model as one line of data, quoted: :func:`one_line`, then ``<`` and
    ``>`` become ``‹ ›`` so it cannot close the block around it (``</memories>``), and JSON
    string quotes mark where it starts and ends."""
    return json.dumps(one_line(text).replace("<", "‹").replace(">", "›"), ensure_ascii=False)


def bare_line(text: str) -> str:
    """:func:`quoted_line` without the quotes, for short labels (an author's name)."""
    return one_line(text).replace("<", "‹").replace(">", "›")


def check_name(field: str, value: Any, max_chars: int) -> str:
    """A name (a room, an author) stripped, or :class:`InvalidMemoryError`: not a string,
    empty, longer than ``max_chars``, or holding a line break, control, bidi, zero-width
    or surrogate character (a name has no use for one, and one could forge the lines
    around it)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidMemoryError(field, "expected a non-empty string")
    if len(value) > max_chars:
        raise InvalidMemoryError(field, f"at most {max_chars} characters")
    bad = unsafe_characters(value)
    if bad:
        raise InvalidMemoryError(
            field, f"holds control, line-separator, bidi or invisible characters ({', '.join(bad[:5])})"
        )
    return value.strip()


def identifier_fault(value: str) -> str | None:
    """Why ``value`` cannot be an identifier a person reads (a user or agent id, a room, a
    thread, a channel), or ``None`` when it can.

    Two identifiers must never look the same while being different, or an admin acts on
    the wrong one ("alice" and "alice\\u200b" are two users). So an identifier holds no
    character a reader cannot see or tell from another: the :data:`UNSAFE_CATEGORIES`
    (controls, bidi, zero-width, line separators, surrogates), the blank letters (Hangul
    fillers, U+034F) and spaces other than U+0020, it does not start with a combining mark
    (which would join what is shown before it), and it is in Unicode normal form NFC.
    A value in another form (``e`` + U+0301 for ``é``) is refused rather than normalised:
    normalising would give two distinct values one identity (two users, one namespace),
    and a label would no longer decode to the value it was made from. Look-alikes across
    scripts (Latin ``a``, Cyrillic ``а``) are visible letters and not caught here.
    """
    if value.isascii() and value.isprintable():  # most ids: no control, no odd space, NFC
        return None
    bad = dict.fromkeys(c for c in value if _unseen(c))
    if bad:
        codes = ", ".join(f"U+{ord(c):04X}" for c in list(bad)[:5])
        return f"holds control, line-separator, bidi or invisible characters ({codes})"
    if value and is_mark(value[0]):
        return f"starts with a combining mark (U+{ord(value[0]):04X}), which joins what is shown before it"
    if not unicodedata.is_normalized("NFC", value):
        return "is not in Unicode normal form NFC (a letter written with a separate accent); send its NFC form"
    return None


def is_mark(c: str) -> bool:
    """Whether ``c`` is a combining mark (Unicode category M*): drawn joined to what is shown before it."""
    return unicodedata.category(c).startswith("M")


def _unseen(c: str) -> bool:
    return unicodedata.category(c) in UNSAFE_CATEGORIES or c in _BLANK_LETTERS or (c.isspace() and c != " ")


def with_codes(text: str, also: str = "") -> str:
    """``text`` with every character :func:`identifier_fault` refuses, and those of
    ``also``, written as its code (``alice\u200b`` -> ``alice[U+200B]``): how a stored
    name a reader could take for another is shown to people. Never raises."""
    return "".join(f"[U+{ord(c):04X}]" if _unseen(c) or c in also or (not i and is_mark(c))
                   else c for i, c in enumerate(text))


def check_identifier(field: str, value: Any, max_chars: int) -> str:
    """:func:`check_name` for an identifier (a room): also refused when
    :func:`identifier_fault` finds it ambiguous (blank letters, odd spaces, not NFC)."""
    name = check_name(field, value, max_chars)
    fault = identifier_fault(name)
    if fault:
        raise InvalidMemoryError(field, fault)
    return name
