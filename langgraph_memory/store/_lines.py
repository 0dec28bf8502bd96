"""Text that reaches a model is data: one line per item, whatever it holds.

Two rules, shared by every place where stored text meets a prompt (the memories block, the
live room block, the digest's transcript, tool answers):

* **names** (a room, an author) are refused at the API when they hold a character that can
  break a line or reorder what is shown (:func:`check_name`): a name is short and chosen by
  a program, so refusing loses nothing;
* **text** (a message, a memory) is never refused for this: refusing would lose what someone
  said. It is normalised when it is shown (:func:`one_line`): every line break becomes a
  space and every other control, format (bidi overrides, zero-width) or surrogate
  character is dropped, so it cannot start a line, a section or a role of its own.

Both look at Unicode categories rather than a list of code points, so a character added by a
later Unicode version falls under the same rule.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from langgraph_memory.errors import InvalidMemoryError

__all__ = ["UNSAFE_CATEGORIES", "bare_line", "check_name", "one_line", "quoted_line", "unsafe_characters"]

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
"""Control (NUL, ESC, ``\\n``, ``\\r``, U+0085...), format (bidi embeddings, overrides and
isolates U+202A-U+202E, U+2066-U+2069, zero-width characters, U+FEFF...), line and paragraph
separators (U+2028, U+2029) and lone surrogates."""

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
