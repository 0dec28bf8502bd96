"""Numbers said in several words, in English and French, written as digits for the dedup policy: "thirty-six" =
"thirty six" = 36, "twelve hundred" = 1200, "quatre-vingt-dix-sept" = 97, "soixante et onze" = 71, "deux cent
cinquante" = 250, "twenty-third" = "23rd", "vingt et unième" = "21e"; and digits grouped by thousands ("1,200",
"1 200", "1.200") as one number.

Only numbers of two words or more are rewritten here (and "six", which no other word is spelled like): a single
number word is read by ``_quantities.canonical``, which keeps "one", "un", "une" (a pronoun, an article) and "neuf"
("new") out. The lexicon is closed: every number word of both languages, never words taken from examples.

The lexicon finds the runs; `text2num <https://pypi.org/project/text2num/>`_ (a Rust parser of number words in
eight languages) reads each run's value.
"""

from __future__ import annotations

import re
import unicodedata

from text_to_num import text2num

__all__ = ["NUMBER_WORDS", "ORDINAL_WORDS", "spell_numbers"]

_UNITS = {
    **{w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                  "fourteen fifteen sixteen seventeen eighteen nineteen".split())},
    **{w: n for n, w in enumerate("zero un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze "
                                  "quinze seize".split())},
    "une": 1,
    **{w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)},
    **{w: 10 * n for n, w in enumerate("vingt trente quarante cinquante soixante".split(), 2)},
    "vingts": 20,
}
_SCALES = {"hundred": 100, "cent": 100, "cents": 100, "thousand": 1000, "mille": 1000}
_ORDINALS = {
    **{w: n for n, w in enumerate("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
                                  "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
                                  "nineteenth".split())},
    **{w: 10 * n for n, w in enumerate("twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth "
                                       "ninetieth".split(), 2)},
    "hundredth": 100, "thousandth": 1000,
    **{w: n for n, w in enumerate("zeroieme unieme deuxieme troisieme quatrieme cinquieme sixieme septieme huitieme "
                                  "neuvieme dixieme onzieme douzieme treizieme quatorzieme quinzieme seizieme".split())},
    **{w: 10 * n for n, w in enumerate("vingtieme trentieme quarantieme cinquantieme soixantieme".split(), 2)},
    "centieme": 100, "millieme": 1000,
}
_EN_CARDINALS = {n: w for w, n in _UNITS.items() if w in "zero one two three four five six seven eight nine ten eleven "
                 "twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty "
                 "seventy eighty ninety".split()} | {100: "hundred", 1000: "thousand"}
_FR_CARDINALS = {n: w for w, n in _UNITS.items() if w in "un deux trois quatre cinq six sept huit neuf dix onze douze "
                 "treize quatorze quinze seize vingt trente quarante cinquante soixante".split()} | {100: "cent", 1000: "mille"}
_JOINERS = {"and", "et"}  # "one hundred and five", "vingt et un"


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def _cardinal_of(ordinal: str) -> str:
    """The cardinal word an ordinal word says ("third" -> "three", "unieme" -> "un", "hundredth" -> "hundred")."""
    french = ordinal.endswith("ieme")
    value = _ORDINALS[ordinal]
    words = _FR_CARDINALS if french else _EN_CARDINALS
    return words[value]


def _value(words: list[str]) -> int | None:
    """The number a run of number words says, or ``None`` when the run is no well-formed number.

    Read by text2num's parser (English, then French); an ordinal last word is read as its cardinal. A run that
    is no single number ("one one two", "twenty twenty", "zero seven": a code, a year, a score said word by word)
    is refused by the parser or, for a leading zero, here: it is never added up."""
    if words[0] == "zero" and len(words) > 1:
        return None
    said = [*words[:-1], _cardinal_of(words[-1]) if words[-1] in _ORDINALS and words[-1] not in _UNITS else words[-1]]
    for lang in ("en", "fr"):
        try:
            return text2num(" ".join(said), lang)
        except ValueError:
            continue
    return None


_WORD = r"[^\W\d_]+"
_RUN = re.compile(rf"{_WORD}(?:(?:[\s-]+|\s+(?:and|et)[\s-]+|-et-){_WORD})*", re.IGNORECASE)
_GROUPED = re.compile(r"(?<![\d.,])(\d{1,3})((?:[,.\u202f\u00a0 ]\d{3})+)(?![\d]|[.,]\d)")


def _spell_run(match: re.Match[str]) -> str:
    """A stretch of words with its number-word runs written in digits (an ordinal keeps an ordinal suffix)."""
    raw = re.findall(rf"{_WORD}|[\s-]+", match.group(0))
    out: list[str] = []
    run: list[tuple[str, str]] = []  # (raw, folded) words of the current number, with their separators

    def flush() -> None:
        words = [f for r, f in run if f.strip(" -")]
        while words and words[-1] in _JOINERS:  # "three and" : the joiner belongs to the text
            words.pop()
        kept = len(words)
        numbered = [w for w in words if w not in _JOINERS]
        ordinal = bool(numbered) and numbered[-1] in _ORDINALS and numbered[-1] not in _UNITS
        wordy = [r for r, f in run if f.strip(" -")]
        single = len(numbered) == 1 and numbered[0] != "six"
        valid = numbered and not single and all(w not in _ORDINALS or w in _UNITS for w in numbered[:-1])
        if valid and not ordinal and numbered[-1] in _ORDINALS and numbered[-1] not in _UNITS:
            valid = False
        value = _value(words) if valid else None  # with its joiners: "vingt et un"
        if value is not None:
            out.append(f"{value}th" if ordinal else str(value))
            rest = wordy[kept:]
            if rest:
                out.append(" " + " ".join(rest))
        else:
            out.append("".join(r for r, _ in run))
        run.clear()

    def close() -> None:
        """Write the current run out; its trailing separators go back to the text."""
        tail = []
        while run and not run[-1][1].strip(" -"):
            tail.append(run.pop()[0])
        flush()
        out.extend(reversed(tail))

    for piece in raw:
        folded = _fold(piece)
        is_number = folded in _UNITS or folded in _SCALES or folded in _ORDINALS
        if is_number or (run and (not folded.strip(" -") or folded in _JOINERS)):
            run.append((piece, folded))
            continue
        if run:
            close()
        out.append(piece)
    if run:
        close()
    return "".join(out)


def spell_numbers(text: str) -> str:
    """``text`` with its numbers of several words written in digits, and its digits grouped by thousands as one
    number ("1,200" -> "1200"); everything else kept."""
    text = _GROUPED.sub(lambda m: m.group(1) + re.sub(r"\D", "", m.group(2)), text)
    return _RUN.sub(_spell_run, text)


NUMBER_WORDS = {w: n for w, n in _UNITS.items()}
ORDINAL_WORDS = {w: n for w, n in _ORDINALS.items() if w not in _UNITS}
