"""One spelling per value, for the dedup policy: numbers in words and ordinals, months, dates, clock times and
metric quantities are rewritten the same way however they were written ("third" = "3rd" = "troisième",
"2026-03-14" = "14 March 2026", "14h" = "2pm" = "à 14 heures", "1.85 m" = "185 cm", "five kilometres" = "5 km").

Pure Python (stdlib only).
"""

from __future__ import annotations

import re

from langgraph_memory.store._number_words import NUMBER_WORDS, ORDINAL_WORDS, spell_numbers

# Numbers said in words or as ordinals are the same value as in digits: "third floor" = "floor 3" = "3e
# étage", "forty" = "40". Not "one"/"un"/"une" (pronoun and article), nor "neuf" (also "new").
NUMBERS = {w: str(n) for n, words in enumerate([
    "", "first premier premiere", "two second deux deuxieme seconde", "three third trois troisieme",
    "four fourth quatre quatrieme", "five fifth cinq cinquieme", "six sixth six sixieme", "seven seventh sept septieme",
    "eight eighth huit huitieme", "nine ninth neuvieme", "ten tenth dix dixieme", "eleven eleventh onze onzieme",
    "twelve twelfth douze douzieme"]) for w in words.split()}
NUMBERS.update({w: str(n) for n, w in [(20, "twenty"), (30, "thirty"), (40, "forty"), (50, "fifty"), (60, "sixty"),
                                       (70, "seventy"), (80, "eighty"), (90, "ninety"), (100, "hundred"),
                                       (13, "thirteen"), (14, "fourteen"), (15, "fifteen"), (16, "sixteen"),
                                       (17, "seventeen"), (18, "eighteen"), (19, "nineteen"), (13, "treize"),
                                       (14, "quatorze"), (15, "quinze"), (16, "seize"), (20, "vingt"), (30, "trente"),
                                       (40, "quarante"), (50, "cinquante"), (60, "soixante"), (100, "cent")]})
# Every other single number word and ordinal of both languages ("thirteenth", "quatorzième", "vingtième").
NUMBERS.update({w: str(n) for w, n in {**NUMBER_WORDS, **ORDINAL_WORDS}.items()
                if w not in NUMBERS and w not in ("zero", "zeroth", "zeroieme", "one", "un", "une", "neuf", "unieme",
                                                  "vingts", "cents")})
CARDINALS = {w for w in NUMBERS if not w.endswith(("st", "nd", "rd", "th", "ieme", "ier", "iere", "ond", "onde"))}
_ORDINAL = re.compile(r"0*(\d+)(?:st|nd|rd|th|e|er|re|ere|eme|ieme)?")
# Months in both languages are one value ("July" = "juillet" = the 07 of "04/07/1998").
MONTHS = {w: f"month{n}" for n, pair in enumerate(
    "january/janvier february/fevrier march/mars april/avril may/mai june/juin july/juillet august/aout "
    "september/septembre october/octobre november/novembre december/decembre".split(), 1) for w in pair.split("/")}


def canonical(word: str, plain: str) -> str | None:
    """The value a number or month word stands for, or ``None`` (``plain``: ``word`` folded to ascii)."""
    if plain in NUMBERS:
        return NUMBERS[plain]
    number = _ORDINAL.fullmatch(plain)
    if number:
        return number.group(1)
    if plain in MONTHS and (plain != "may" or word[0].isupper()):  # "may" is also a verb
        return MONTHS[plain]
    return None


_SLASHED_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DAY_MONTH = re.compile(r"(?<![\d/.])\b(\d{1,2})/(\d{1,2})\b(?![/.]\d)")  # "12/03": a day and a month


def _spell_date(match: re.Match[str]) -> str:
    day, month, year = (int(g) for g in match.groups())
    if month > 12 >= day:  # 07/04/1998 written month first
        day, month = month, day
    return f"{day} month{month} {year}" if 1 <= month <= 12 else match.group(0)


def _spell_iso(match: re.Match[str]) -> str:
    year, month, day = (int(g) for g in match.groups())
    return f"{day} month{month} {year}" if 1 <= month <= 12 and 1 <= day <= 31 else match.group(0)


def _clock(hour: int, minute: int) -> str:
    return f"t{hour:02d}{minute:02d}" if hour < 24 and minute < 60 else f"{hour} {minute}"


# Clock times: "6:45", "14h30", "14h", "7pm", "7.30 am", "à 14 heures", "at 7 o'clock".
_AM_PM = re.compile(r"\b(\d{1,2})(?:[:.h](\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_H_OR_COLON = re.compile(r"\b(\d{1,2})(?::(\d{2})\b|\s?h(\d{2})?\b)", re.IGNORECASE)
_SPOKEN_HOUR = re.compile(r"\b(?:(à|a|vers|dès|des)\s+(\d{1,2})\s+heures?|(\d{1,2})\s+o['’]?\s?clock)\b",
                          re.IGNORECASE)


def _spell_am_pm(match: re.Match[str]) -> str:
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if hour > 12:
        return match.group(0)
    hour = hour % 12 + (12 if match.group(3).lower() == "p" else 0)
    return _clock(hour, minute)


def _spell_spoken(match: re.Match[str]) -> str:
    if match.group(3):
        return _clock(int(match.group(3)), 0)
    return f"{match.group(1)} {_clock(int(match.group(2)), 0)}"


# Metric quantities in one unit per dimension (cm, g, ml): "1.85 m" = "185 cm", "5 km" = "five kilometres".
_UNITS = {
    **dict.fromkeys("km kilometre kilometres kilometer kilometers kilomètre kilomètres".split(), (100000, "cm")),
    **dict.fromkeys("m metre metres meter meters mètre mètres".split(), (100, "cm")),
    **dict.fromkeys("cm centimetre centimetres centimeter centimeters centimètre centimètres".split(), (1, "cm")),
    **dict.fromkeys("kg kilo kilos kilogram kilograms kilogramme kilogrammes".split(), (1000, "g")),
    **dict.fromkeys("g gram grams gramme grammes".split(), (1, "g")),
    **dict.fromkeys("l litre litres liter liters".split(), (1000, "ml")),
    **dict.fromkeys("ml millilitre millilitres milliliter milliliters".split(), (1, "ml")),
}
_NUMBER_WORDS = "|".join(sorted(CARDINALS, key=len, reverse=True))
_QUANTITY = re.compile(
    rf"\b(\d+(?:[.,]\d+)?|{_NUMBER_WORDS})\s?({'|'.join(sorted(map(re.escape, _UNITS), key=len, reverse=True))})\b",
    re.IGNORECASE)


def _spell_quantity(match: re.Match[str]) -> str:
    number, unit = match.group(1).lower(), match.group(2).lower()
    value = float(NUMBERS.get(number, number.replace(",", ".")))
    factor, base = _UNITS[unit]
    amount = value * factor
    return f"{round(amount)}{base}" if abs(amount - round(amount)) < 1e-6 else match.group(0)


# Clock times in words: "half past six", "a quarter to eight", "six heures et demie", "8 heures moins le quart".
_HOUR = rf"(\d{{1,2}}|{_NUMBER_WORDS})"
_PAST_TO = re.compile(rf"\b(?:a\s+)?(half|quarter)\s+(past|to)\s+{_HOUR}\b", re.IGNORECASE)
_HEURES = re.compile(rf"\b{_HOUR}\s+heures?\s+(et demie|et quart|moins le quart)\b", re.IGNORECASE)


def _hour(word: str) -> int:
    return int(NUMBERS.get(word.lower(), word))


def _spell_past_to(match: re.Match[str]) -> str:
    hour, minutes = _hour(match.group(3)), 30 if match.group(1).lower() == "half" else 15
    return _clock(hour, minutes) if match.group(2).lower() == "past" else _clock((hour - 1) % 24, 60 - minutes)


def _spell_heures(match: re.Match[str]) -> str:
    hour, part = _hour(match.group(1)), match.group(2).lower()
    return _clock(hour, 30) if part == "et demie" else _clock(hour, 15) if part == "et quart" else \
        _clock((hour - 1) % 24, 45)


# Noon and midnight are clock times ("at noon" = "at 12:00", "à midi et demie" = "à 12h30").
# Not "le Midi" (the south of France), "Canal du Midi": a capital there is a name.
_NOON = re.compile(r"\b((?i:noon|midday|midnight)|midi|minuit)(?:\s+(et demie?|et quart|moins le quart))?\b")
# "14 heures 30", "quatorze heures trente": minutes after the hour.
_HEURES_MINUTES = re.compile(rf"\b{_HOUR}\s+heures?\s+(\d{{2}}|{_NUMBER_WORDS})\b", re.IGNORECASE)
# "à sept heures", "at seven o'clock": an hour in words.
_WORDED_HOUR = re.compile(rf"\b(?:(à|a|vers|dès|des)\s+({_NUMBER_WORDS})\s+heures?|({_NUMBER_WORDS})\s+o['’]?\s?clock)\b",
                          re.IGNORECASE)
# The part of the day after an hour says am or pm: "seven in the evening", "10 at night", "sept heures du soir".
_PART_OF_DAY = r"(in the morning|in the afternoon|in the evening|at night|du matin|de l['’]apr[eè]s-midi|du soir)"
_HOUR_PART = re.compile(rf"\b{_HOUR}(?::(\d{{2}}))?\s+{_PART_OF_DAY}", re.IGNORECASE)
_CLOCK_PART = re.compile(rf"\bt(\d{{2}})(\d{{2}})\s+{_PART_OF_DAY}", re.IGNORECASE)
# A number of hours after a verb of duration is a duration, not a clock time: "dure 2h", "lasts 3 hrs".
_DURATION = re.compile(r"\b(dure|durent|durait|duré|durée|lasts?|lasted|takes?|took|prend|prennent|pendant|for)"
                       rf"(\s+(?:about\s+|environ\s+)?)(\d+(?:[.,]\d+)?|{_NUMBER_WORDS})\s?(?:h|hrs?|hours?|heures?)\b", re.IGNORECASE)
# Units of time, distance, mass and volume said in several ways: one spelling each (after a number).
_UNIT_FORMS = {
    **dict.fromkeys("minutes minute mins min mn".split(), "minute"),
    **dict.fromkeys("hours hour hrs hr".split(), "hour"),  # not "heures": "c'est 18 heures" is a clock time
    **dict.fromkeys("seconds second secs sec secondes seconde".split(), "sec"),
    **dict.fromkeys("miles mile mi".split(), "mile"),
    **dict.fromkeys("feet foot ft".split(), "ft"),
    **dict.fromkeys("inches inch".split(), "inch"),
    **dict.fromkeys("ounces ounce oz".split(), "oz"),
    **dict.fromkeys("lbs lb".split(), "lb"),
    **dict.fromkeys("weeks week wks wk".split(), "week"),
    **dict.fromkeys("years year yrs yr".split(), "year"),
}
_UNIT_FORM = re.compile(rf"\b(\d+(?:[.,]\d+)?)\s?({'|'.join(sorted(_UNIT_FORMS, key=len, reverse=True))})\b(?![:'’])",
                        re.IGNORECASE)


def _part_of_day(hour: int, minute: int, part: str) -> str:
    part = part.lower()
    late = part.endswith(("afternoon", "evening", "soir", "midi")) or (part == "at night" and hour >= 6)
    early = part.endswith(("morning", "matin"))
    if late and hour < 12:
        hour += 12
    elif early and hour == 12:
        hour = 0
    return _clock(hour, minute)


def _spell_noon(match: re.Match[str]) -> str:
    hour = 12 if match.group(1).lower() in ("noon", "midday", "midi") else 0
    part = (match.group(2) or "").lower()
    return _clock(hour, 30) if part.startswith("et demi") else _clock(hour, 15) if part == "et quart" else \
        _clock((hour - 1) % 24, 45) if part else _clock(hour, 0)


def _minutes(word: str) -> int:
    return int(NUMBERS.get(word.lower(), word))


# Quantities said as idioms: "half an hour" = "30 minutes", "un quart d'heure" = "15 minutes", "a dozen" = 12,
# "twice a week" = "2 times a week", "deux fois par semaine" = "2 times par semaine".
_IDIOMS = [
    (re.compile(r"\b(?:half\s+an\s+hour|a\s+half[\s-]hour|une\s+demi[\s-]heure)\b", re.IGNORECASE), "30 minute"),
    (re.compile(r"\b(?:an?|one)\s+hour\s+and\s+a\s+half\b", re.IGNORECASE), "90 minute"),
    (re.compile(r"\b(?:a\s+)?quarter\s+of\s+an\s+hour\b|\bun\s+quart\s+d['’]heure\b", re.IGNORECASE), "15 minute"),
    (re.compile(r"\b(?:three\s+quarters\s+of\s+an\s+hour|trois\s+quarts\s+d['’]heure)\b", re.IGNORECASE),
     "45 minute"),
    (re.compile(r"\b(?:a|one)\s+dozen\b|\bune\s+douzaine\b", re.IGNORECASE), "12"),
    (re.compile(r"\bonce\b(?=\s+(?:a|an|per|every)\s)", re.IGNORECASE), "1 times"),
    (re.compile(r"\btwice\b", re.IGNORECASE), "2 times"),
    (re.compile(r"\bthrice\b", re.IGNORECASE), "3 times"),
    (re.compile(rf"\b(\d+|{_NUMBER_WORDS})\s+fois\b", re.IGNORECASE), lambda m: f"{NUMBERS.get(m.group(1).lower(), m.group(1))} times"),
    (re.compile(r"\bune\s+fois\b(?=\s+par\s)", re.IGNORECASE), "1 times"),
]
# A percentage and a sum of money said with a symbol, a code or a word: one spelling each ("50%" = "50 per cent",
# "$800" = "800 USD" = "800 dollars", "€40" = "40€" = "40 EUR" = "40 euros", "£30" = "30 GBP" = "30 quid").
_PERCENT = re.compile(rf"\b(\d+(?:[.,]\d+)?|{_NUMBER_WORDS})\s?(?:%|per\s?cent\b|pour\s?cents?\b|pourcents?\b)", re.IGNORECASE)
_SYMBOLS = {"$": "dollars", "€": "euros", "£": "pounds"}
_SYMBOL_BEFORE = re.compile(r"([$€£])\s?(\d+(?:[.,]\d+)?)")
_SYMBOL_AFTER = re.compile(r"(\d+(?:[.,]\d+)?)\s?([$€£])")
_CODES = re.compile(r"(\d+(?:[.,]\d+)?)\s?(USD|EUR|GBP|bucks|quid)\b", re.IGNORECASE)
_CODE_WORDS = {"usd": "dollars", "bucks": "dollars", "eur": "euros", "gbp": "pounds", "quid": "pounds"}
# Weekdays shortened after "on", "every", "next", "this", "last": "on Fri" = "on Friday".
_WEEKDAY_SHORT = {"mon": "Monday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday", "thu": "Thursday",
                  "thur": "Thursday", "thurs": "Thursday", "fri": "Friday", "sat": "Saturday", "sun": "Sunday"}
_WEEKDAY = re.compile(rf"\b(on|every|next|this|last)\s+({'|'.join(sorted(_WEEKDAY_SHORT, key=len, reverse=True))})\b\.?"
                      r"(?!\s*[-'’])", re.IGNORECASE)
# Month names shortened beside a day number: "Mar 14", "14 Sept", "le 3 janv.": the month.
_MONTH_SHORT = {"jan": "January", "janv": "janvier", "feb": "February", "fev": "février", "févr": "février",
                "mar": "March", "apr": "April", "avr": "avril", "jun": "June", "jul": "July", "juil": "juillet",
                "aug": "August", "sep": "September", "sept": "September", "oct": "October", "nov": "November",
                "dec": "December", "déc": "décembre"}
_SHORT = "|".join(sorted(_MONTH_SHORT, key=len, reverse=True))
_MONTH_AFTER_DAY = re.compile(rf"\b(\d{{1,2}}(?:st|nd|rd|th|er)?)\s+({_SHORT})\b\.?", re.IGNORECASE)
_MONTH_BEFORE_DAY = re.compile(rf"\b({_SHORT})\b\.?\s+(\d{{1,2}})\b(?!:)", re.IGNORECASE)


def _month(word: str) -> str:
    return _MONTH_SHORT[word.lower()]


def spell_values(text: str) -> str:
    """``text`` with its dates, clock times and quantities written one way (the words around them kept)."""
    for pattern, said in _IDIOMS:
        text = pattern.sub(said, text)
    text = _PERCENT.sub(lambda m: f"{NUMBERS.get(m.group(1).lower(), m.group(1))} percent", text)
    text = _SYMBOL_BEFORE.sub(lambda m: f"{m.group(2)} {_SYMBOLS[m.group(1)]}", text)
    text = _SYMBOL_AFTER.sub(lambda m: f"{m.group(1)} {_SYMBOLS[m.group(2)]}", text)
    text = _CODES.sub(lambda m: f"{m.group(1)} {_CODE_WORDS[m.group(2).lower()]}", text)
    text = _WEEKDAY.sub(lambda m: f"{m.group(1)} {_WEEKDAY_SHORT[m.group(2).lower()]}", text)
    text = _MONTH_AFTER_DAY.sub(lambda m: f"{m.group(1)} {_month(m.group(2))}", text)
    text = _MONTH_BEFORE_DAY.sub(lambda m: f"{_month(m.group(1))} {m.group(2)}", text)
    text = spell_numbers(text)
    text = _DURATION.sub(lambda m: f"{m.group(1)}{m.group(2)}{NUMBERS.get(m.group(3).lower(), m.group(3))} hour", text)
    text = _NOON.sub(_spell_noon, text)
    text = _HEURES_MINUTES.sub(lambda m: _clock(_hour(m.group(1)), _minutes(m.group(2))), text)
    text = _WORDED_HOUR.sub(lambda m: (f"{m.group(1)} {_clock(_hour(m.group(2)), 0)}" if m.group(2)
                                       else _clock(_hour(m.group(3)), 0)), text)
    text = _ISO_DATE.sub(_spell_iso, text)
    text = _SLASHED_DATE.sub(_spell_date, text)
    text = _DAY_MONTH.sub(lambda m: f"{int(m.group(1))} month{int(m.group(2))}" if 1 <= int(m.group(1)) <= 31
                          and 1 <= int(m.group(2)) <= 12 else m.group(0), text)
    text = _PAST_TO.sub(_spell_past_to, text)
    text = _HEURES.sub(_spell_heures, text)
    text = _AM_PM.sub(_spell_am_pm, text)
    text = _SPOKEN_HOUR.sub(_spell_spoken, text)
    text = _HOUR_PART.sub(lambda m: _part_of_day(_hour(m.group(1)), int(m.group(2) or 0), m.group(3)), text)
    text = _H_OR_COLON.sub(lambda m: _clock(int(m.group(1)), int(m.group(2) or m.group(3) or 0)), text)
    text = _CLOCK_PART.sub(lambda m: _part_of_day(int(m.group(1)), int(m.group(2)), m.group(3)), text)
    text = _UNIT_FORM.sub(lambda m: f"{m.group(1)} {_UNIT_FORMS[m.group(2).lower()]}", text)
    text = re.sub(r"\b(\d)m(\d{2})\b", r"\1.\2 m", text)  # "1m65"
    text = re.sub(r"\b(\d+)\s?x\s+(?=a|an|per|par)\b", r"\1 times ", text)  # "3x a week"
    return _QUANTITY.sub(_spell_quantity, text)
