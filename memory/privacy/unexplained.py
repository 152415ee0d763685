"""Round 15: numbers kept only when something says what they are (a layer after `amounts`).

`memory.privacy.money.amounts` already reads a bare number of two digits or more that nothing
explains as an amount (the last line of `memory.privacy.prices.priced`, with the explanations
of `memory.privacy.roles`). What still passes is a number that something *seems* to explain:
a place, a line, a vehicle or a lodging word before it ("the coach to Hue 19", "hotel 12"),
or a number of one digit. This layer runs only on text the earlier rules keep, and refuses a
number there when what surrounds it is money, whatever word stands before it:

- a price cue right after the number, where no position (a gate, a seat, a row, a room, a
  platform: "gate 12 for the whole trip") stands right before it: a unit of purchase
  ("19 per seat", "14 a bed", "6 apiece", "5 each", "18 all in", "22 plus tax", "一人二十",
  "一次十五" said the other way round: "十五一次");
- a paying or costing verb before it in the same clause, with at most a few words between
  ("paid about 7", "the locker ran us about 5", "花了4"), where no identifier word stands
  right before the number ("paid for seat 12" is a seat);
- a single Chinese numeral of money that normalisation leaves as written ("一人十块").

What explains a number stays as strong as before: a unit or a counter after it (rows, floors,
minutes, km, miles, points, nights, people, %, degrees; `money.NOT_MONEY`), a rating, a clock
time, a year, an age, an aircraft, a flight code; so "each" after "2 bags" never refuses
them. Numbers of more than seven digits are left to the identifier rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.privacy.identifiers import COUNT_AFTER
from memory.privacy.measures import daily_distance
from memory.privacy.money import CANDIDATE, NOT_MONEY, RATING_BEFORE, how_often
from memory.privacy.readings import not_money
from memory.privacy.roles import (
    BALANCE_BEFORE,
    COUNT_LATER,
    FREQUENCY_AFTER,
    TIME_WORDS,
    WEIGHT_BEFORE,
    is_age,
)
from memory.privacy.vocabulary import (
    ADMISSIONS,
    CLOCK,
    ON_FOOT,
    PAYERS,
    PAYING_EN,
    PAYING_PHRASAL,
    PAYING_ZH,
    PER_WORD,
    PLACES,
    PLACES_ZH,
    POSITIONS,
    POSITIONS_ZH,
    WAY_AFTER,
    YEAR,
    numbered_before,
    zero_led_time,
)

F = re.ASCII | re.IGNORECASE

# A unit of purchase after the number: what a price is said "per".
_PER = (
    rf"{PAYERS}|{ADMISSIONS}|seat|pax|go|pop|pitch|piece|trip|bag|locker|item|drink|coffee"
    r"|beer|glass|plate|dish|meal|night|day|hour|hr|bed|room|pass|lesson|class|session|round"
    r"|game|couple|family|car|bike|kayak|board|chair|lounger|umbrella|load|wash|shot|slice"
    r"|portion|box|bottle|can|cup|pint"
)
CUE_AFTER = re.compile(
    # a word "per" needs a space after it: "4 around" is not "a round"
    rf"\s*(?:(?:(?:a|an|per|each|every)\s+|/\s*)(?:{_PER})(?![a-z])"
    r"|apiece|a\s+pop|each(?!\s+(?:of|other|time|way\s+is\s+\d))(?![a-z])"
    r"|all[\s-]+in(?![a-z])|in\s+total|(?:total|extra)(?![a-z])(?!\s*[a-z])"
    r"|plus\s+(?:tax|tip|tips|vat|fees?|service)(?![a-z])|incl(?:uding|\.)?\s+(?:tax|tip|vat"
    r"|breakfast|fees?|service)|out\s+of\s+pocket|up\s*front(?![a-z])"
    r"|for\s+(?:the\s+)?(?:day|night|whole\s+(?:day|night|thing|trip)|pair|both|two\s+of\s+us"
    r"|the\s+lot)(?![a-z]))"
    r"|\s*(?:一位|每位|一人|每人|一张|每张|一次|每次|一份|每份|一个人|全包|封顶|包干)",
    F,
)
PAID_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:{PAYING_EN}|spending|pays|charge|charges|blew|dropped|{PAYING_PHRASAL}|splurged|set\s+(?:me|us)\s+back"
    r"|came\s+to|came\s+in\s+at|ran\s+(?:me|us)|runs\s+(?:me|us)|billed|reimbursed|refunded"
    r"|earn|earns|earned|make|makes|made)(?![a-z])"
    r"(?:\s+[a-z']+){0,3}?\s*:?\s*"
    rf"|(?:{PAYING_ZH}|花|付|另付|给了|赚了?|挣了?)"
    r"[^0-9，。；！？,.;!?\n]{0,4}?)\Z",
    F,
)
# An identifier or counted thing right before the number ("seat 12", "gate 4", "第3"): the
# number is that thing's, whatever was paid in the clause.
IDENTIFIER_BEFORE = numbered_before(
    rf"{PLACES}|locker|spot|space|lot|slot|iphone|pixel|galaxy|windows|season|episode",
    rf"{PLACES_ZH}|座|号",
)
# A single Chinese numeral of money, left as written by normalisation: "电瓶车一人十块" ("两块蛋糕"
# is two pieces of cake, "一块去" is together: 块 ends the clause or is followed by 钱).
SINGLE_ZH_KUAI = re.compile(
    r"(?<![0-9一二两三四五六七八九十百千万])([二两三四五六七八九十])\s*块(?=钱|左右|[一每][次位人张]|\s*(?:[,.;!?，。；！？]|\Z))"
)
# A position right before the number ("gate 12 for the whole trip", "row 14 each time"): its
# number, whatever follows. Vehicles, lines and lodgings are not here: "the funicular 4 each".
POSITION_BEFORE = numbered_before(
    rf"{POSITIONS}|rm|suite|level|storey|zone|aisle|bay|counter|desk|belt|page|door|apt|unit"
    r"|no|number",
    POSITIONS_ZH,
)
# What a one-digit number is given per when it is shared out, not priced: "2 per room", "4 per
# car", "max 3 per booking"; and the words of sharing out before "each": "the kids get 2 each".
_ALLOTTED = re.compile(
    rf"\s*{PER_WORD}\s*(?:{PAYERS}|room|car|table|booking|bed|family|group|couple|pax|bag)"
    r"(?![a-z])",
    F,
)
_SHARED = re.compile(
    r"(?<![a-z])(?:kids|children|we|us|they|them|everyone|everybody|people|get|gets|got|have"
    r"|has|take|takes|carry|carries|bring|brings|need|needs|want|wants)(?![a-z])"
    r"|孩子|我们|他们|每人",
    F,
)
# After a paying verb, a number followed by a word is a count of that word ("I'd pay for 2
# checked bags", "earned 3 upgrades", "made 12 friends"); an amount ends its clause or goes on
# with a preposition, a cue of price or a conjunction ("paid 8 for the bus", "cost 6, cash").
PAID_NUMBER_ENDS = re.compile(
    r"\s*(?:[,.;:!?)]|\Z|(?:for|on|to|towards?|in|at|per|each|a|an|or|and|plus|extra|total|all"
    r"|with|from|including|incl|last|this|that|when|because|but|so|after|before|just|only"
    r"|which|tops|max|apiece|cash|back|there|here|instead|again|then|now|once)(?![a-z])"
    r"|[^\x00-\x7f])",
    F,
)
# Round 20: a device kept charged above a level is a battery, not a price: "keep the phone
# charged above 50" ("the phone shop charged 50" is paid).
DEVICE_CHARGED = re.compile(
    r"(?<![a-z])(?:phones?|laptops?|tablets?|batter(?:y|ies)|power\s*banks?|cameras?|devices?)"
    r"(?:\s+(?:is|was|stays|kept|fully))?\s+charged\s+(?:above|over|past|beyond|to|at\s+least)\s*\Z",
    F,
)
# "the kids 15 each" is pocket money, not an age.
_EACH_AFTER = re.compile(r"\s*(?:each|apiece)(?![a-z])", F)
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")


def _strongly_explained(text: str, start: int, end: int, number: str) -> bool:
    """A unit or counter after it, a rating, a clock time in talk of times, a year."""
    digits = number.replace(",", "")
    low = max(0, start - 40)
    return bool(
        NOT_MONEY.match(text, end)
        or RATING_BEFORE.search(text, max(0, start - 30), start)
        or zero_led_time(digits)
        or (
            len(digits) in (3, 4)
            and CLOCK.fullmatch(digits.rjust(4, "0"))
            and TIME_WORDS.search(text, low, min(len(text), end + 30))
        )
        or (YEAR.fullmatch(digits) and not PAID_BEFORE.search(text, low, start))
        # counted later in the clause ("about 20 for the whole trip, people I mean"), points
        # or miles, a frequency, an age, a balance, kilograms of luggage
        or COUNT_LATER.match(text, end)
        or COUNT_AFTER.match(text, end)
        or FREQUENCY_AFTER.match(text, end)
        or (is_age(text, start, number) and not _EACH_AFTER.match(text, end))
        or BALANCE_BEFORE.search(text, low, start)
        or (len(digits) <= 2 and WEIGHT_BEFORE.search(text, low, start))
        or daily_distance(text, start, end)
    )


def unexplained_amounts(text: str) -> Iterator[tuple[int, int]]:
    """Spans of numbers in normalised `text` that money surrounds and nothing else explains
    (see the module docstring). Meant for text `money.amounts` finds nothing in."""
    yield from (match.span(1) for match in SINGLE_ZH_KUAI.finditer(text))
    for match in CANDIDATE.finditer(text):
        number, (start, end) = match.group(), match.span()
        if sum(ch.isdigit() for ch in number) > 7:
            continue
        if not _WORD.search(text, max(0, start - 40), end + 40):
            continue
        if _strongly_explained(text, start, end, number) or not_money(text, start, end, number):
            continue  # round 26: "we were 12 in total" is a group, not a bill
        low = max(0, start - 40)
        one_digit = sum(ch.isdigit() for ch in number) == 1 and number[-1].isdigit()
        cue = CUE_AFTER.match(text, end)
        if (
            cue is not None
            and not POSITION_BEFORE.search(text, max(0, start - 20), start)
            and not how_often(text, start, end)
            and not (ON_FOOT.search(text, low, start) and WAY_AFTER.match(text, end))
        ):
            shared = _ALLOTTED.match(text, end) or (
                "each" in cue.group().lower() and _SHARED.search(text, low, start)
            )
            if not (one_digit and shared):
                yield start, end
                continue
        if (
            PAID_BEFORE.search(text, low, start)
            and PAID_NUMBER_ENDS.match(text, end)
            and not IDENTIFIER_BEFORE.search(text, low, start)
            and not DEVICE_CHARGED.search(text, low, start)
        ):
            yield start, end


__all__ = ["unexplained_amounts"]
