"""Round 33: prices said in chat by the shape of what is priced, not by a money word.

Each reading names money where no currency or money word stands by the number:

- a price "at each" place, said of a thing or of what one hands out, not of a stop or a time:
  "entry is 8 at each temple", "we gave the porters 5 at each stop" ("the tour bus waits 15
  at each stop", "allow 45 at each site" are times: `spoken`);
- a price per kind of person, in a list that lets someone in free or names two kinds with a
  number each: "kids under 12 go free, adults 18", "students 8, everyone else 14" ("adults 2,
  children 1 on the booking" counts people: small numbers, nothing free);
- a thing got by a verb of a bargain "for" a number: "scored a room for 89", "snagged a bed
  for 12" ("booked a table for 6" counts diners: "booked" is no bargain, and ten or fewer is
  a party); a discount "off" a priced thing: "knocked 20 off the room".

A range no other pattern reads ("the room was 60-70") is read as its upper end by
`money.amounts` (`ranges`), so every reading of one number that explains it (a unit, a row, a
score, a wait) explains the range; it is money only with a money word or rate around it or
a thing that is bought before it in its clause (`range_owner`: a room, a meal, a drink, a
guide, a ride; "it gets to 30-35 in July", "groups of 8-10" have none); a range right after
a plural noun numbers it ("rooms 1001-1020", "floors 20-25") and one after "a" / "an"
describes the noun after it ("an 18-35 crowd").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

F = re.ASCII | re.IGNORECASE

_AT_EACH = re.compile(r"\s+at\s+(?:each|every)\s+[a-z]+", F)
# What a stop or a time at each place is said with: the number is then no price.
_TIMED = re.compile(
    r"(?<![a-z])(?:stops?|stopped|paus(?:es|ed?)|halts?|halted|lingers?|waits?|waited|waiting"
    r"|allow(?:ing|ed)?|spend|spent|stay|stayed|linger|give\s+(?:yourself|it)|takes?|took"
    r"|idles?|dwells?|sits?|sat)(?![a-z])",
    F,
)
_CLAUSE_START = re.compile(r"[.!?;,\n](?!\d)")
_SENTENCE_END = re.compile(r"[.!?;\n](?!\d)")

_KINDS = (
    r"adults?|kids?|children|child|students?|seniors?|pensioners?|grown-?ups|teens?|teenagers"
    r"|youths?|toddlers|infants|babies|concessions?|locals|foreigners|tourists|members"
    r"|non-?members|everyone\s+else|over\s+\d{1,2}s|under\s+\d{1,2}s|under-\d{1,2}s"
)
_KIND_BEFORE = re.compile(
    rf"(?<![a-z])(?:{_KINDS})(?![a-z])\s*(?:are|is|pay|:|=)?\s*\Z",
    F,
)
_KIND_NUMBER = re.compile(rf"(?<![a-z])(?:{_KINDS})(?![a-z])\s*(?:are|is|pay|:|=)?\s*\d", F)
_AGE_AFTER = re.compile(  # "kids 5 and under go free": an age
    r"\s*(?:\+|(?:and|or|&)\s+(?:under|up|over|older|younger|below|above)(?![a-z]))", F
)
_FREE = re.compile(
    r"(?<![a-z])(?:free|half[\s-]price|half|discount(?:ed)?|nothing|gratis)(?![a-z])", F
)

_BARGAIN = re.compile(
    r"(?<![a-z])(?:scored|snagged|grabbed|nabbed|bagged|landed|found|picked\s+up|snapped\s+up"
    r"|got\s+hold\s+of)\s+(?:[a-z'-]+\s+){1,5}?for\s*\Z",
    F,
)

# Round 33 review: and off every other thing that is bought (`_BOUGHT`: "took 5 off the ride").
_OFF_THINGS = (
    r"rooms?|bill|price|fare|total|rate|tickets?|tours?|meals?|stay|suite|villa|booking|massage"
    r"|car|rental|night"
)


def _value(number: str) -> int | None:
    digits = number.replace(",", "")
    return int(digits) if digits.isdigit() else None


def chat_price(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is a price by the round's readings (see the
    module docstring)."""
    value = _value(number)
    if value is None or value == 0:
        return False
    low = max(0, start - 60)
    cuts = [match.end() for match in _CLAUSE_START.finditer(text, low, start)]
    clause = cuts[-1] if cuts else low
    if _AT_EACH.match(text, end):
        return value <= 500 and _TIMED.search(text, clause, start) is None
    if _KIND_BEFORE.search(text, low, start) and not _AGE_AFTER.match(text, end):
        sentence_end = _SENTENCE_END.search(text, end, end + 120)  # review: bounded
        last = sentence_end.start() if sentence_end else min(len(text), end + 120)
        first = max(0, start - 120)
        if _FREE.search(text, first, last):
            return True
        pairs = len(_KIND_NUMBER.findall(text, first, last))
        return pairs >= 2 and value >= 5
    if _BARGAIN.search(text, low, start):
        return value > 10
    return _OFF.match(text, end) is not None  # "knocked 20 off the room"


_RANGE = re.compile(r"(?<![0-9a-z./\-:,])(\d{1,4})\s?-\s?(\d{1,4})(?![0-9a-z.:/\-]|,\d)", F)


def ranges(text: str, found: list[tuple[int, int]]) -> Iterator[tuple[int, int, str, int]]:
    """Each range of `text` no span of `found` covers, whose upper end is above its lower and
    at most four times it: its span, the text with the range replaced by its upper end, and
    where that upper end ends."""
    for match in _RANGE.finditer(text):
        start, end = match.span()
        lower, upper = match.group(1), match.group(2)
        if any(low < end and start < high for low, high in found):
            continue
        if int(lower) < int(upper) <= 4 * int(lower):
            yield start, end, text[:start] + upper + text[end:], start + len(upper)


_BOUGHT = (
    r"rooms?|hostels?|hotels?|airbnbs?|apartments?|villas?|guesthouses?|dorms?"
    r"|beds?|dinners?|lunch(?:es)?|breakfasts?|meals?|menus?|food|beers?|wines?|drinks?"
    r"|cocktails?|coffees?|massages?|guides?|tours?|boats?|taxis?|cabs?|tuk-?tuks?|rides?"
    r"|tickets?|entry|entrance|admission|ferry|ferries|transfers?|tabs?|bills?|laundry"
    r"|souvenirs?"
)
_OWNER = re.compile(
    rf"(?<![a-z])(?:{_BOUGHT}|asked|asks|asking|charges?|charged|go(?:es)?\s+for|went\s+for"
    r"|came\s+to|comes\s+to|expect|set\s+(?:me|us)\s+back|cost)(?![a-z])",
    F,
)
# A discount: "knocked 20 off the room", "got 15 off the tour" ("20 off the coast" is a place).
_OFF = re.compile(
    rf"\s+off\s+(?:(?:the|our|my|a|each|every|per)\s+)?(?:[a-z]+\s+)?(?:{_OFF_THINGS}|{_BOUGHT})"
    r"(?![a-z])",
    F,
)


_NUMBERED_BEFORE = re.compile(
    r"(?<![a-z])(?!(?:was|is|has|does|as|this|across|plus|less|costs|charges|asks|comes|goes)"
    r"\s*\Z)[a-z]+s\s*\Z",
    F,
)


# "an 18-35 crowd", "a 3-4 day trip": a range after an article describes the noun after it.
_ARTICLE_BEFORE = re.compile(r"(?<![a-z])(?:a|an)\s*\Z", F)


def range_owner(text: str, start: int, end: int) -> bool:
    """Whether a thing that is bought or a verb of pricing stands before a range's upper end
    in its clause ("the room was 60-70", "the guide asked 50-60")."""
    low = max(0, start - 120)  # round 33 review: a clause of chat, not all of a long text
    near = max(0, start - 40)
    cuts = [match.end() for match in _CLAUSE_START.finditer(text, low, start)]
    if _NUMBERED_BEFORE.search(text, near, start) or _ARTICLE_BEFORE.search(text, near, start):
        return False  # "rooms 1001-1020", "floors 20-25": things named right before are numbered
    return _OWNER.search(text, cuts[-1] if cuts else low, start) is not None


# Round 33 review: a number right after "aged" / "ages" is an age, whatever is priced before it
# ("the dorm takes guests aged 18-35 only").
_AGED = re.compile(r"(?<![a-z])(?:aged|ages)\s+(?:(?:from|between)\s+)?\Z", F)


def aged(text: str, start: int) -> bool:
    """Whether the number at `start` is said right after "aged" or "ages"."""
    return _AGED.search(text, max(0, start - 20), start) is not None


__all__ = ["aged", "chat_price", "range_owner", "ranges"]
