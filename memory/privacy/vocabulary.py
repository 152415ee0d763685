"""Shared word lists of the amount rules: the words around a bare number that say what it is
(a year, a clock time, a position, a verb of paying, a money word, a ride one hires, a thing
one prices), each defined once as alternatives of a regular expression, which the modules
combine with words of their own (each module says why it adds what it adds).

The label dictionary (which word names a value, and which label owns one) is
`memory.privacy.label_words`.
"""

from __future__ import annotations

import re

F = re.ASCII | re.IGNORECASE

# A year said alone (1950-2039), as the amount rules read one ("in 2019").
YEAR = re.compile(r"(?:19[5-9]\d|20[0-3]\d)")
# A year inside a date or a number ("20240315", "1990-2024"): any of 1900-2099.
DATE_YEAR = re.compile(r"(?:19|20)\d\d")
# A clock time written as four digits: "trains around 1430".
CLOCK = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
# Aircraft types said by their number alone: "the 319", "737比A320舒服".
AIRCRAFT_TYPES = frozenset(
    (
        *("707", "717", "727", "737", "747", "757", "767", "777", "787"),  # Boeing
        *("319", "320", "321", "330", "340", "350", "380", "220"),  # Airbus
        *("190", "195"),  # Embraer
    )
)


def zero_led_time(number: str) -> bool:
    """Three or four digits starting with 0 are a clock time ("0900"), never a price."""
    return len(number) in (3, 4) and number.isdigit() and number.startswith("0")


# A way on foot, whose number "each way" is a distance, not a fare: "the hike to the lake is
# 12 each way", "徒步单程12".
ON_FOOT = re.compile(
    r"(?<![a-z])(?:hikes?|hiking|walks?|walking|treks?|trekking|trails?|climbs?|runs?|running"
    r"|jogs?|swims?|paddles?)(?![a-z])|徒步|步行|走路|爬山",
    F,
)
WAY_AFTER = re.compile(r"\s*(?:each\s+way|one\s+way|(?:a|per)\s+way)(?![a-z])|\s*单程", F)

# A price talked down: "we haggled the tuk-tuk down to 8", "knocked it down to 40".
HAGGLED_DOWN = (
    r"(?:haggled|bargained|negotiated|talked|knocked|beat|got|brought)(?:\s+[a-z'\-]+){0,3}?"
    r"\s+down\s+to"
)

# What a price is said "per": before it "a", "an", "per", "each", "every" or "/"; the people
# it is paid for and the admissions it buys. Alternatives of a regular expression, for `rf"…"`.
PER_WORD = r"(?:a|an|per|each|every|/)"
PAYERS = r"person|head|adult|child|kid"
ADMISSIONS = r"ticket|ride|visit|entry"
# Verbs of paying, right before an amount ("paid 7", "cost 90", "花了4", "被收了九十五").
PAYING_EN = r"spent|spend|paid|pay|paying|costs?|costing|charged|tipped"
# Phrasal paying verbs in every tense ("I fork out 600 a month", "shelled out", "cough up").
PAYING_PHRASAL = r"(?:fork|shell|splash)(?:s|es|ed|ing)?\s+out|cough(?:s|ed|ing)?\s+up"
PAYING_ZH = r"花了|花掉|付了|交了|掏了|刷了|另收|加收|被收了?|收了我?"
# Cars hired with their driver for a trip: the rides `priced_things` also prices by what follows
# them ("taxi 40"); transfers, tuk-tuks and rickshaws are counted there more often than priced.
CABS = r"taxis?|cabs?|ubers?|limos?|shuttles?"
# Rides one hires, whose number is a fare (`told`, `stated`, `evidence`); alternatives for `rf"…"`.
RIDES = rf"{CABS}|grab|lyft|transfers?|tuk-?tuks?|rickshaws?"
# A ride hired with whoever drives it: a journey in its clause is bought, not made oneself
# (`told`, `evidence`).
HIRED_RIDES = rf"drivers?|chauffeurs?|{RIDES}"
# Things a number said after them is the price of ("hotel 450", "tickets 30"), in every list
# of them (`priced_things`; `evidence`, where one keeps a number from being read as a length).
PRICED = r"hotels?|fares?|tickets?|tours?|tolls?|admission"
# Money words in English, in every list of them: one in a number's clause says it is money
# (`told`, `stated`, `reports`, `readings`, each adding words of its own; `money_in`).
MONEY_WORDS = (
    r"budget|pric(?:e|es|ed|ing)|costs?|fares?|pa(?:y|id|ying)|spen[dt]|fees?|rates?|tips?|bills?"
    r"|charged?|quoted|deposit|bucks|dollars?|euros?|quid|cheap|expensive|rent(?:al)?|hire"
)
# The same in Chinese (`reports`, `readings`).
MONEY_WORDS_ZH = r"块|元|钱|费|价|花了|付|买|租|贵|便宜|预算"
# How chat talks of money around a number (`told`, `stated`): a judgement of price, how it was
# paid, what it is for or per ("pricey", "cash", "apiece", "a night", "for two").
MONEY_TALK = (
    r"pricey|cheaper|tickets?|split|worth|deal|bargain|rip-?off|steep|cash|card|each|per|apiece"
    r"|total|extra|return|one[\s-]way|a\s+(?:night|head|person|day)"
    r"|for\s+(?:two|2(?![0-9])|both|us|all|the\s+(?:two|2(?![0-9])))"
)


def money_in(*words: str, zh: str = "") -> re.Pattern[str]:
    """A money word: one of `words` (English alternatives, e.g. `MONEY_WORDS` and a module's
    own) as a whole word, a currency sign, or one of `zh` (Chinese alternatives)."""
    english = "|".join(words)
    # Round 33 review: every alternative starts with a letter, a sign or a Chinese character;
    # saying so first lets a long clause be searched about twice as fast.
    return re.compile(
        rf"(?=[a-z$€£¥]|[^\x00-\x7f])(?:(?<![a-z])(?:{english})(?![a-z])|[$€£¥]"
        + (f"|{zh})" if zh else ")"),
        F,
    )


# Positions, whose number is where one is, not what one paid: "seat 12", "gate 4", "第3排".
POSITIONS = r"room|floor|row|seat|gate|terminal|platform|track|exit|pier|berth|stand|carousel"
POSITIONS_ZH = r"第|房间|楼|层|排|号线|航站楼|站台|登机口|车厢|月台|出口"
# Places, lines and numbered things before a number ("room 1208", "bus 21", "version 3"):
# the shared part of `prices.PLACE_BEFORE` and `unexplained.IDENTIFIER_BEFORE`.
PLACES = (
    rf"{POSITIONS}|rm|suite|level|car|coach|carriage|bus|line|route|zone|tier|size|no|number"
    r"|version|model|boeing|airbus|aisle|block|building|tower|cabin|deck|hall|door|apt|unit|bay"
    r"|counter|desk|belt|page|stage|week|day|top|chapter|district|avenue|street|road|highway"
    r"|flight|train|lounge|wing|year|in|since"
)
PLACES_ZH = rf"{POSITIONS_ZH}|房|路"


def numbered_before(words: str, words_zh: str) -> re.Pattern[str]:
    """A word of `words` (or of `words_zh`) right before the end of the searched text, with
    "no.", "number", "#" or ":" between: "room 1208", "seat no. 4", "gate #12", "第3"."""
    return re.compile(
        rf"(?:(?<![a-z])(?:{words})\.?\s*(?:no\.?|number|#)?\s*[:#]?\s*|#\s*)\Z"
        rf"|(?:{words_zh})\s*\Z",
        F,
    )


# Where a clause ends for the readings that stop at a comma: a stop or a comma, not one inside
# a number ("1,200", "3.5").
COMMA_CLAUSE_END = re.compile(r"[.!?;。！？；，\n](?!\d)|,(?!\d)")


def clause_span(ends: re.Pattern[str], text: str, start: int, end: int) -> tuple[int, int]:
    """The clause around `text[start:end]`: up to 80 characters either side, cut at the
    nearest match of `ends` (a reading's own idea of where a clause ends)."""
    low = max(0, start - 80)
    cuts = [match.end() for match in ends.finditer(text, low, start)]
    low = cuts[-1] if cuts else low
    after = ends.search(text, end, end + 80)
    return low, after.start() if after else min(len(text), end + 80)


__all__ = [
    "ADMISSIONS",
    "AIRCRAFT_TYPES",
    "CABS",
    "CLOCK",
    "COMMA_CLAUSE_END",
    "DATE_YEAR",
    "HAGGLED_DOWN",
    "HIRED_RIDES",
    "MONEY_TALK",
    "MONEY_WORDS",
    "MONEY_WORDS_ZH",
    "ON_FOOT",
    "PAYERS",
    "PAYING_EN",
    "PAYING_PHRASAL",
    "PAYING_ZH",
    "PER_WORD",
    "PLACES",
    "PLACES_ZH",
    "POSITIONS",
    "POSITIONS_ZH",
    "PRICED",
    "RIDES",
    "WAY_AFTER",
    "YEAR",
    "clause_span",
    "money_in",
    "numbered_before",
    "zero_led_time",
]
