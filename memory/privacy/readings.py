"""Round 26: a bare number's role read from the words that govern it, both ways.

Money a priced thing owns although a word between seems to number it (`owned_price`):

- a hire or a cover "for the day / week / night …" right before the number: "a private driver
  for the day 240", "travel insurance for the week 64" ("day 3", "week 12" alone stay a day's
  or a week's number);
- a priced ride named with its vehicle: "shuttle bus 28 from the airport", "taxi van 60"
  ("bus 28", "take the shuttle bus 28", "shuttle bus route 28", "坐28路" stay line numbers);
- a bed in a lodging: "hostel bed 19 in Berlin", "青旅一个床位11" (a hostel's name or count,
  "hostel 12", and a bed's number, "11号床", stay);
- a pass or a card "for" two digits or more: "a 3-day metro card for 22" ("tickets for 14 of
  us" counts people).

What a number is when it is no money (`not_money`), each only with no money word and no
priced thing in its clause:

- a place's altitude said without a unit: a place as the subject, "is / sits / lies at", a
  number of 1,000-6,000 ("Cusco is at 3,400", "the lake is at around 1,800"); a hotel or a
  tour "at 1,800" stays a price, as does any number of its clause beside a money word;
- a floor: a venue "on" the number ("the rooftop bar on 58", "the pool up on 40");
- the people of a group: "we were 12 in total", "there were 9 of us";
- a battery's charge: "充电宝还有60", "电量只剩15", "my phone battery was at 20".
"""

from __future__ import annotations

import re

from memory.privacy.evidence import measured
from memory.privacy.priced_things import THING_BEFORE
from memory.privacy.reports import level_reached
from memory.privacy.spoken import spoken_not_money
from memory.privacy.stated import journey_or_hours
from memory.privacy.told import told_not_money
from memory.privacy.vocabulary import MONEY_WORDS, MONEY_WORDS_ZH, clause_span, money_in

F = re.ASCII | re.IGNORECASE

# The clause around a number: no sentence end, semicolon or line break between.
_CLAUSE_END = re.compile(r"[.!?;。！？；\n](?!\d)")


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    return clause_span(_CLAUSE_END, text, start, end)


# Money in the clause: the roles below never take a number with these beside it.
# The shared money words (`vocabulary`), and what these roles add: what a number is per,
# a ticket (the singular only, unlike the other lists), a booking, a tab, a total, a
# currency's code.
_MONEY = money_in(
    MONEY_WORDS,
    r"per|a\s+(?:night|head|person)|each|ticket|book(?:ed|ing)?|tab|totall?ed|usd|eur|rmb|yuan",
    zh=MONEY_WORDS_ZH,
)

# --- Money a priced thing owns -------------------------------------------------------------

# A hire or a cover for a span, right before the number: "driver for the day 240".
_SPAN_BEFORE = re.compile(
    r"(?<![a-z])(?:for|per)\s+(?:the|a|one|each|that|this)\s+(?:whole\s+|full\s+|entire\s+)?"
    r"(?:day|week|weekend|night|trip|stay|month|afternoon|morning|evening|ride|transfer)"
    r"\s*(?:was|is|came\s+to|cost|ran|about|around|like|roughly|only|just|[:=-])?\s*\Z",
    F,
)
_HIRED = re.compile(
    r"(?<![a-z])(?:drivers?|guides?|chauffeurs?|cars?|vans?|boats?|bikes?|scooters?|kayaks?"
    r"|porters?|nann(?:y|ies)|babysitters?|sim\s+cards?|data|wi-?fi|rooms?|cabins?|lockers?"
    r"|insurance|parking|rentals?|hire)(?![a-z])",
    F,
)
# A priced ride named with its vehicle: "shuttle bus 28", "taxi van 60", "ferry boat 35".
_RIDE_VEHICLE = re.compile(
    r"(?<![a-z])(?:shuttles?|taxis?|cabs?|ferry|ferries|limos?|transfers?|private"
    r"|charter(?:ed)?)\s+(?:bus|coach|van|boat|minibus)\s*\Z",
    F,
)
# What makes a number after a vehicle a line, a route or a vehicle's own number.
_LINE_CUE = re.compile(
    r"(?<![a-z])(?:take|takes|took|taking|catch|caught|catching|ride|rode|board(?:ed)?|get"
    r"|got|hop\s+on|jump\s+on|wait(?:ed|ing)?\s+for|route|line|number|no|stop|platform"
    r"|bay|gate|seat|row)(?![a-z])|#",
    F,
)
_LINE_AFTER = re.compile(
    r"\s*(?:leaves|left|departs|departed|runs|ran|goes|went|comes|came|stops|stopped"
    r"|arrives|arrived|every|at\s+\d|is\s+(?:late|delayed|full|packed|cancel+ed|the)"
    r"|to\s+(?:the\s+)?(?:old\s+town|centre|center|station|beach|airport|downtown))(?![a-z])"
    r"|\s*(?:路|号线|号车)",
    F,
)
# A bed in a lodging: "hostel bed 19", "dorm bed in the hostel 22" (the kinds of bed are
# priced things already).
_LODGING_BED = re.compile(
    r"(?<![a-z])(?:hostels?|hotels?|inns?|lodges?|guesthouses?|refuges?|huts?|albergues?)"
    r"\s+(?:bunk\s+)?(?:beds?|bunks?|dorms?)\s*(?:was|is|for|about|around|:)?\s*\Z",
    F,
)
# A Chinese bed said as the unit of a lodging: "青旅一个床位11" (a bed's own number takes 号).
_BED_ZH = re.compile(r"床位[^0-9，。,.；;！？!?\n]{0,3}\Z")
# A pass or a card "for" a number of two digits or more is its price: "a 3-day metro card for
# 22" ("tickets for 14 of us", "a pass for 3 museums" count people or things).
_CARD_FOR = re.compile(
    r"(?<![a-z])(?:pass(?:es)?|cards?|insurance|visas?|wi-?fi|sims?)\s+for\s*\Z", F
)
_COUNTED_AFTER = re.compile(
    r"\s*(?:of\s+us|people|persons?|adults?|kids?|children|days?|nights?|hours?|rides?|trips?"
    r"|journeys?|entries|visits?|museums?|sights?|stops?|zones?|countries|us|them)(?![a-z])",
    F,
)


def owned_price(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is the price of a thing whose word is separated
    from it by a span, a vehicle or a bed (see the module docstring)."""
    if not number.replace(",", "").replace(".", "").isdigit() or number.count(".") > 1:
        return False
    low = max(0, start - 60)
    if _LODGING_BED.search(text, low, start) or _BED_ZH.search(text, low, start):
        return True
    if (
        len(number) >= 2
        and _CARD_FOR.search(text, low, start)
        and not _COUNTED_AFTER.match(text, end)
    ):
        return True
    span = _SPAN_BEFORE.search(text, low, start)
    if span is not None and (
        _HIRED.search(text, low, span.start()) or THING_BEFORE.search(text, low, span.start())
    ):
        return True
    ride = _RIDE_VEHICLE.search(text, low, start)
    if ride is None:
        return False
    return not (_LINE_CUE.search(text, low, ride.start()) or _LINE_AFTER.match(text, end))


# --- What a number is when it is no money --------------------------------------------------

_PLACE_NOUNS = (
    r"lakes?|towns?|village|city|cities|capital|valley|pass|col|saddle|summit|peak|top|camp"
    r"|base\s+camp|refuge|hut|plateau|altiplano|monastery|ruins|crater|volcano|glacier"
    r"|ridge|trailhead|source|spring|plain|park|reserve|region|area"
)
_AT = (
    r"\s+(?:is|sits|lies|stands|was|'s)\s+(?:at|around|about)\s+"
    r"(?:(?:around|about|roughly|nearly|almost|just\s+over|over|some)\s+)?\Z"
)
_PLACE_AT = re.compile(rf"(?<![a-z])(?:{_PLACE_NOUNS})(?![a-z]){_AT}", F)
_NAME_AT = re.compile(rf"(?<![A-Za-z])[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?{_AT}")
# A name that is no place: a meal, a time of day, a check-in, a lodging, a ride.
_NOT_PLACE = re.compile(
    r"(?<![a-z])(?:breakfast|brunch|lunch|dinner|supper|sunrise|sunset|check-?(?:in|out)"
    r"|departure|arrival|boarding|pick-?up|dinner|meeting|hotels?|hostels?|tours?|flights?"
    r"|trains?|it|this|that|he|she|they|we|everything|rent)\s+(?:is|sits|lies|stands|was|'s)",
    F,
)


def _altitude(text: str, start: int, end: int, number: str) -> bool:
    value = number.rstrip(",.")
    if (
        not re.fullmatch(r"\d,\d{3}|\d{4}", value, re.ASCII)
        or not 1000 <= int(value.replace(",", "")) <= 6000
    ):
        return False
    after = text[end : end + 12]
    if re.match(r"\s*(?:a|per|each|for|pp|p\.p\.)(?![a-z])", after, F):
        return False
    low = max(0, start - 50)
    said = _PLACE_AT.search(text, low, start) or _NAME_AT.search(text, low, start)
    return said is not None and not _NOT_PLACE.search(text, said.start(), start)


_VENUE = re.compile(
    r"(?<![a-z])(?:bar|rooftop|restaurant|lounge|pool|gym|spa|cafe|club|deck|terrace"
    r"|observatory|viewpoint|lobby|office|suite|room|apartment|flat|floor|level|lift|elevator"
    r"|view)(?![a-z])",
    F,
)
_ON_BEFORE = re.compile(r"(?<![a-z])(?:up\s+|down\s+)?on\s+(?:the\s+)?\Z", F)


def _floor(text: str, start: int, end: int, number: str) -> int | None:
    """Where the venue a floor number belongs to ends, or None: "the rooftop bar on 58"."""
    if not number.isdigit() or not 2 <= int(number) <= 163:
        return None
    low = max(0, start - 40)
    on = _ON_BEFORE.search(text, low, start)
    venues = list(_VENUE.finditer(text, low, on.start())) if on is not None else []
    return venues[-1].end() if venues else None


_GROUP_BEFORE = re.compile(
    r"(?<![a-z])(?:we|they)\s+(?:were|are|'re|will\s+be|'ll\s+be)\s+(?:(?:about|around|only"
    r"|just|roughly|maybe)\s+)?\Z|(?<![a-z])there\s+(?:were|are|will\s+be)\s+(?:(?:about"
    r"|around|only|just)\s+)?\Z",
    F,
)
_GROUP_AFTER = re.compile(
    r"\s*(?:in\s+total|in\s+all|altogether|all\s+told|of\s+us|people|adults|on\s|at\s|in\s"
    r"|and\s|but\s|so\s|[,.!?;]|\Z)",
    F,
)


def _group(text: str, start: int, end: int, number: str) -> bool:
    if not number.isdigit() or not 2 <= int(number) <= 99:
        return False
    return bool(
        _GROUP_BEFORE.search(text, max(0, start - 30), start) and _GROUP_AFTER.match(text, end)
    )


_BATTERY = re.compile(
    r"(?:充电宝|电量|电池|手机电|电只?剩|(?<![a-z])(?:battery|batteries|power\s*bank|charge)(?![a-z]))"
    r"[^0-9,.;!?，。；！？\n]{0,10}\Z",
    F,
)


def _battery(text: str, start: int, end: int, number: str) -> bool:
    if not number.isdigit() or not 0 <= int(number) <= 100:
        return False
    return _BATTERY.search(text, max(0, start - 30), start) is not None


# Round 31: a Chinese vehicle's own number, told by what one does with the vehicle or what it
# does: ridden ("坐夜车401去西安", "搭夜班公交381") or running ("夜班公交381就停在酒店门口"); a
# fare of the ride carries no such verb ("夜车四百").
_VEHICLES_ZH = r"(?:车|巴士?|公交|地铁|火车|动车|高铁|船|轮渡|渡轮|班车|专线|夜班车|夜车|夜班公交)"
_VEHICLE_ZH = _VEHICLES_ZH + r"\s*\Z"
# Round 31 review: a ridden vehicle's number is written against it ("坐夜车401"); a figure set
# apart by a space is what the ride cost ("坐了一趟大巴 120").
_RIDDEN_ZH = re.compile(
    r"(?:坐|乘|搭|换乘|转乘|等)(?:上|了|过)?[^0-9，。,.；;！!？?\n]{0,4}?" + _VEHICLES_ZH + r"\Z"
)
_VEHICLE_BEFORE_ZH = re.compile(r"[^0-9，。,.；;！!？?\n]{0,4}?" + _VEHICLE_ZH)
_HAILED_ZH = re.compile(r"出租|网约|专车|包车|的士|打车|租车|滴滴")
_RUNNING_ZH = re.compile(
    r"\s*(?:就|会|也|都|刚好)?(?:停在|停靠|开到|开往|发车|到站|经过|直达|路过)"
)


def _vehicle_zh(text: str, start: int, end: int, number: str) -> bool:
    if not (number.isdigit() and 2 <= len(number) <= 4):
        return False
    low = max(0, start - 12)
    if _HAILED_ZH.search(text, low, start):
        return False  # "坐出租车45到酒店" is a fare
    return bool(
        (len(number) >= 3 and _RIDDEN_ZH.search(text, low, start))  # "坐电车二十五" may be a fare
        or (_VEHICLE_BEFORE_ZH.search(text, low, start) and _RUNNING_ZH.match(text, end))
    )


def not_money(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is an altitude, a floor, a group's size or a
    battery's charge by the words that govern it, with no money in its clause; or (round 27)
    a level reached, a score, a time to connect, a cap in a measure's unit (`reports`)."""
    if level_reached(text, start, end, number) or journey_or_hours(text, start, end, number):
        return True  # round 28: "the drive was 300 with two stops", "breakfast is 7 to 10"
    if told_not_money(text, start, end, number):
        return True  # round 29: "played 18 at St Andrews", "the reef is 20 down"
    if measured(text, start, end, number):
        return True  # round 30: "the gig is 45", "the bike path is 40 along the coast"
    if spoken_not_money(text, start, end, number):
        return True  # round 32: "we waited another 10", "take the 42 to the beach"
    if _battery(text, start, end, number):
        owned = False  # "离开青旅的时候充电宝还有60": the battery is nearer than the hostel
    elif _altitude(text, start, end, number):
        owned = THING_BEFORE.search(text, max(0, start - 40), start) is not None
    elif (venue := _floor(text, start, end, number)) is not None:
        # Round 31: a priced thing before the venue owns the venue, not the floor ("the
        # hotel's rooftop is on 31"); after it, the number ("the rooftop bar on the hotel 58").
        owned = THING_BEFORE.search(text, venue, start) is not None
    elif _group(text, start, end, number) or _vehicle_zh(text, start, end, number):
        owned = False
    else:
        return False
    low, high = _clause(text, start, end)
    return not owned and _MONEY.search(text[low:start] + " " + text[end:high]) is None


__all__ = ["not_money", "owned_price"]
