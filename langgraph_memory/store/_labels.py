"""Namespace labels: the value a label stands for, and how a person reads it.

:func:`namespace_label` writes a runtime value (a user identity, an agent id, ...) as a
namespace label and :func:`namespace_value` reads it back; :func:`shown_namespace` is what
the memory browser and the CLI show. Here rather than in :mod:`langgraph_memory.agent.scope`
(which re-exports them) so the CLI can show namespaces without loading LangChain.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Sequence

from langgraph_memory.errors import InvalidMemoryError, MemoryScopeError
from langgraph_memory.store._checks import MAX_NAMESPACE_PART_CHARS, check_text
from langgraph_memory.store._lines import identifier_fault, is_mark, with_codes

__all__ = ["InvalidIdentityError", "identity_fault", "namespace_label", "namespace_value", "shown_label", "shown_namespace"]


class InvalidIdentityError(MemoryScopeError):
    """An identity (or another runtime value filling a namespace placeholder, a run's
    channel or thread) that no namespace label can hold, even escaped: blank, holding
    control characters or a lone surrogate, longer than a label may be once escaped, or
    one a reader could take for another (invisible, bidi or line-separator characters,
    spaces around it, not in Unicode NFC). Nothing is read or stored."""


def identity_fault(value: str) -> str | None:
    """Why ``value`` cannot be an identity (a user or agent id, a member of a room), or
    ``None`` when it can: :func:`~langgraph_memory.store._lines.identifier_fault`, and no
    spaces around it (``"alice "`` would read as ``"alice"``)."""
    return identifier_fault(value) or ("starts or ends with a space" if value != value.strip() else None)


def namespace_label(value: str) -> str:
    """The namespace label standing for ``value`` (a user identity, an agent id, ...).

    ``%`` becomes ``%25`` and ``.`` becomes ``%2E`` (percent-encoding of those two
    characters only), so the label holds no period, which LangGraph's stores and a
    server's store API refuse, and two distinct values never share a label (decoding
    ``%25`` and ``%2E`` gives the value back). A value holding neither character is its
    own label: namespaces of ordinary ids do not change.

    A label is shown to people (the memory browser, the CLI), so no two values may look
    alike: ``value`` is refused when it holds a character a reader cannot see or tell from
    another (zero-width, bidi controls such as U+202E, line separators, any other Unicode
    format character, spaces other than U+0020), starts or ends with a space, or is not in
    Unicode normal form NFC. Non-NFC values are refused, not normalised: normalising would
    put two distinct identities ("é" as one code point and as ``e`` + U+0301) in one
    namespace, and :func:`namespace_value` would no longer give the value back. Labels
    stored before this rule still read: only new values are checked here.

    Raises:
        InvalidIdentityError: ``value`` is not a string, is blank, holds control,
            invisible or bidi characters or a lone surrogate, has spaces around it, is
            not NFC, or its label is longer than 256 characters.
    """
    if not isinstance(value, str):
        raise InvalidIdentityError(f"a namespace value must be a string, got {type(value).__name__}")
    fault = identity_fault(value)
    if fault:
        raise InvalidIdentityError(f"{ascii(value[:80])} cannot name a memory namespace: it {fault}")
    label = value.replace("%", "%25").replace(".", "%2E") if ("%" in value or "." in value) else value
    try:
        check_text("namespace", label, MAX_NAMESPACE_PART_CHARS)
    except InvalidMemoryError as exc:
        raise InvalidIdentityError(
            f"{value[:80]!r} cannot name a memory namespace: its label {str(exc).removeprefix('namespace: ')}"
        ) from None
    return label


def namespace_value(label: str) -> str | None:
    """The value whose :func:`namespace_label` is ``label`` (``"team%2Ealpha"`` ->
    ``"team.alpha"``), or ``None`` when ``label`` is the label of no value: it holds a
    period, or a ``%`` other than ``%25`` and ``%2E``. Decoding left to right is the exact
    inverse, so a value and its label stand for each other one to one."""
    if not isinstance(label, str):
        return None
    value = _ESCAPED.sub(lambda m: "%" if m.group(1) == "25" else ".", label) if "%" in label else label
    try:
        return value if namespace_label(value) == label else None
    except InvalidIdentityError:
        return None


_ESCAPED = re.compile("%(25|2E)")


# Written as codes wherever a label is shown, so the shown form reads back one way only:
# "[" starts every code, "‹ ›" mark a label of no value, "/" separates the parts.
_MARKS = "[\u2039\u203a/"


def shown_label(label: str) -> str:
    """A namespace label as a person reads it (the memory browser, the CLI): the value it
    stands for (``alice@example%2Ecom`` reads ``alice@example.com``). A label that stands
    for no value (stored by hand or before labels were checked: a raw period, another
    escape, an invisible or bidi character) is shown between ``‹ ›``, with each character
    a reader could not see written as its code (``‹alice[U+200B]›``; in a label not in NFC, its
    combining marks too: ``‹e[U+0301].x›``), so it never passes
    for the label of the value it looks like. ``[``, ``‹``, ``›`` and ``/`` are written as
    codes too, so two labels never look the same. Never raises: any stored label reads.
    """
    value = namespace_value(label)
    if value is not None:
        return with_codes(value, also=_MARKS)
    text = str(label)
    # Not NFC ("e" + U+0301): its marks as codes too, or it is drawn as its normal form is.
    marks = "" if unicodedata.is_normalized("NFC", text) else "".join(
        {c for c in text if is_mark(c)})
    return f"\u2039{with_codes(text, also=_MARKS + marks)}\u203a"


def shown_namespace(namespace: Sequence[str]) -> str:
    """A namespace as a person reads it: :func:`shown_label` of each part, joined by ``/``.
    Two namespaces never read the same. Where the namespace is an identifier (a URL, a
    command's argument, JSON) use its key instead."""
    return "/".join(shown_label(part) for part in namespace)
