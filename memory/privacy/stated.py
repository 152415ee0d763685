"""Round 28: how a number is stated around a journey, a meal's hours or a price.

Benign (`journey_or_hours`, asked through `readings.not_money`, so every amount rule and the
unexplained layer keep the number), each only with no money word in the sentence:

- a journey's length told with what happened on the way: the subject's head is a ride, a
  drive, a flight, a crossing, a hike, a trek, a walk, a climb, a marathon, a commute, a bike
  or walking tour, and after the number the clause goes on about the way itself ("the drive
  was 300 with two stops", "the ferry crossing is 90 if the sea is calm", "the flight home was
  13 with a stop", "the bike tour was 60 and hilly"); a judgement of the price ("and worth
  it", "pricey") or a rate keeps it money ("the ferry ride is 35 and worth it");
- a span of hours after a meal or an opening word: "breakfast is 7 to 10", "check-in 2 till
  midnight" ("the taxi is 7 to 10" names no hours and stays a price).

Money (`stated_amounts`, a rule that names money, so the learned layers never overturn it):

- a range of prices after a thing bought in the plural or a lodging: "hostels ~25-30",
  "hostels were 25-30 in Laos", "dorms 8 to 12";
- an approximate or capped number after flights, fares, tickets, hotels, hostels, rooms: "flights
  to Bali around 650", "keep flights to Lima around 850" (two digits or more, no unit);
- a total of a thing bought: "ferry 2 adults 1 kid 74 total" (the number before "total" is no
  kid's age when a thing bought leads the clause);
- what a room or a meal came with: "the room was 89 with breakfast", "89 incl. tax";
- a drink or a snack with one digit, a meal outside its hours: "beer 3 at the beach bar",
  "lunch at the market 6" ("dinner 8 at the harbour" is a time);
- Chinese: tenths of a yuan ending a clause ("厕所五毛"; "我喜欢三毛" names the writer), and yuan
  and tenths before a unit of sale that normalisation read as one number ("两块五一斤" becomes
  "两块51斤": no weight is 51 jin after a yuan).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.privacy.priced_things import meal_hour
from memory.privacy.told import departure_time
from memory.privacy.vocabulary import (
    AIRCRAFT_TYPES,
    CLOCK,
    COMMA_CLAUSE_END,
    MONEY_TALK,
    MONEY_WORDS,
    RIDES,
    clause_span,
    money_in,
)

F = re.ASCII | re.IGNORECASE

# The shared money words and chat's talk of money (`vocabulary`), and judgements of value
# these readings add ("shared", "a steal", "affordable").
_MONEY_WORDS = money_in(
    MONEY_WORDS, MONEY_TALK, r"shared|value|steal|overpriced|affordable|reasonable"
)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    return clause_span(COMMA_CLAUSE_END, text, start, end)


# --- Benign: a journey's length, a span of hours --------------------------------------------

# The subject's head is a journey: "the (ferry) crossing", "the drive", "the bike tour".
_JOURNEY_SUBJECT = re.compile(
    r"(?<![a-z])(?P<head>rides?|drives?|flights?|crossings?|journeys?|hikes?|treks?|walks?"
    r"|climbs?|marathons?|races?|commutes?|legs?|stretch|transits?|(?:bike|cycling|walking"
    r"|hiking)\s+tours?|(?:boat|bus|train|ferry|car)\s+trips?|tours?|trains?|bus|buses|ferry"
    r"|ferries|boats?|trams?|coach(?:es)?|gondolas?|cable\s+cars?|funiculars?|sleepers?)"
    r"(?:\s+(?:home|back|there|out|up|down|over|in|from\s+[a-z]+|to\s+[a-z]+"
    r"|(?:to|up|down|across|over|through|along|into|around|from)\s+the\s+[a-z]+))?"
    r"\s+(?:is|was|are|were|takes?|took|'s)(?:\s+(?:like|about|around|roughly|only|just"
    r"|maybe|probably|usually|easily))*\s*\Z",
    F,
)
# After the number, what happened on the way or what it depends on.
_WAY_TAIL = re.compile(
    r"\s*,?\s*(?:(?:with|w/)\s+(?:a|one|two|three|no|[0-9]|several|a\s+few|lots\s+of|many"
    r"|lunch|toilet|photo|rest|coffee|short|long)\s+"
    r"(?:stops?|layovers?|changes?|breaks?|detours?|transfers?|connections?|climbs?|hills?"
    r"|stopovers?)"
    r"|(?:if|when|unless)\s+(?:the\s+)?(?:traffic|roads?|sea|weather|wind|tide|trains?|buses"
    r"|flights?|it'?s?\s+(?:calm|clear|dry|sunny|quiet)|there'?s?\s+no|nothing"
    # the way, not the buying: "if we leave early" ("if you book early" is a price's condition)
    r"|(?:we|you|i)\s+(?:(?:leave|set\s+off|start|go|drive|ride|walk)\s+(?:early|late|fast"
    r"|slowly|before|after|at|straight|non-?stop|direct)|don'?t\s+stop|(?:avoid|hit|miss)"
    r"\s+(?:the\s+)?(?:traffic|rush)))"
    r"|and\s+(?:(?:so\s+|very\s+|really\s+|pretty\s+|quite\s+)?(?:hilly|flat|steep|bumpy|windy"
    r"|winding|scenic|rough|smooth|muddy|dusty|hot|cold|exhausting|tiring|boring|stunning"
    r"|gorgeous|beautiful)|(?:i|we|you|the\s+kids|everyone)\s+(?:slept|dozed|napped|felt"
    r"|got\s+(?:sick|seasick|carsick|tired|bored)|(?:was|were)\s+(?:dead|tired|exhausted|wrecked"
    r"|sick|bored)|walked|saw|spotted)))(?![a-z])",
    F,
)
# A span of hours after what opens or is served: "breakfast is 7 to 10".
_HOURS_SUBJECT = re.compile(
    r"(?<![a-z])(?:breakfast|brunch|lunch|dinner|check-?in|check-?out|reception|front\s+desk"
    r"|pool|gym|spa|sauna|bar|happy\s+hour|opening\s+hours|hours|open|opens|service|quiet"
    r"\s+hours|curfew|room\s+service|the\s+buffet|buffet)"
    r"(?:\s+(?:is|was|are|were|runs?|ran|served|'s))?(?:\s+(?:from|between))?\s*\Z",
    F,
)
_HOUR = r"(?:[0-9]|1[0-9]|2[0-4])(?:[:.][0-5][0-9])?(?:\s*[ap]\.?m\.?)?"
_HOURS_TAIL = re.compile(
    rf"\s*(?:to|till|til|until|-|–|and)\s*(?P<to>{_HOUR}|midnight|noon)(?![0-9])", F
)
_HOURS_HEAD = re.compile(rf"(?:{_HOUR})\Z", F)
_SPAN_SPLIT = re.compile(r"\s*(?:to|till|til|until|-|–)\s*", F)
_SPAN_END = re.compile(r"(?<![a-z])(?:to|till|til|until)\s*\Z|[-–]\s*\Z", F)
# The span's end: "breakfast is 7 to 10" (the 10).
_HOURS_BEFORE = re.compile(
    rf"{_HOURS_SUBJECT.pattern[:-2]}{_HOUR}\s*(?:to|till|til|until|-|–)\s*\Z", F
)


_SPAN_START = re.compile(rf"({_HOUR})\s*(?:to|till|til|until|-|–)\s*\Z", F)

# Plausible hours (review of round 28): a meal's span lies in that meal's hours ("breakfast
# was 15 to 20", "lunch was 8 to 12" are prices); a place that also sells (a bar, a sauna) is
# open "from" or at clock times ("the bar is 8 to 12" is a price of its drinks).
_MEAL_NAMED = re.compile(r"breakfast|brunch|lunch|dinner", F)
_SELLING_PLACE = re.compile(r"pool|gym|spa|sauna|bar|service|buffet", F)
_OPENING_CUE = re.compile(r"(?<![a-z])(?:from|between)(?![a-z])", F)
_CLOCK_SAID = re.compile(r"[:.]|[ap]\.?m|midnight|noon", F)


def _served(meal: str, part: str, closing: bool) -> bool:
    if not part[:1].isdigit():
        return True  # "till noon", "until midnight"
    hour = int(re.findall("[0-9]+", part)[0])
    # a span closes up to an hour after the meal's last hour: "brunch is 10 to 2"
    return any(meal_hour(meal, f"{(hour - back) % 24}00") for back in range(1 + closing))


def _hours_fit(subject: str, first: str, second: str) -> bool:
    meal = _MEAL_NAMED.search(subject)
    if meal:
        return _served(meal.group(), first, False) and _served(meal.group(), second, True)
    if _SELLING_PLACE.search(subject):
        return bool(_OPENING_CUE.search(subject) or _CLOCK_SAID.search(first + second))
    return True


# Plausible lengths (review of round 28): a journey one makes oneself (a drive, a hike) may be
# told in km; one bought (a flight, a train, a ferry) only in hours (at most a day's 24) or in
# round minutes up to three hours, a flight in hours alone ("the flight home was 780 with a
# stop", "the train was 89 and I slept" are prices).
_SELF_MADE = re.compile(
    r"drives?|hikes?|treks?|walks?|climbs?|marathons?|races?|commutes?|legs?|stretch"
    r"|(?:bike|cycling|hiking)\s+tours?",
    F,
)


def _length_fits(head: str, value: int) -> bool:
    if _SELF_MADE.fullmatch(head) or value <= 24:
        return True
    return not head.lower().startswith("flight") and value % 5 == 0 and value <= 180


# A rating scored or given: "that hostel scored 9.1 on the app", "rated 4.5".
_RATED = re.compile(r"(?<![a-z])(?:scored|scores|rated|gets|got|has)\s+(?:a\s+)?\Z", F)
_RATING = re.compile(r"(?:[0-9]|10)\.[0-9]")


def journey_or_hours(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is a journey's length told with the way, the
    start or end of a span of hours after a meal or an opening word, or a rating scored (see
    the module docstring). The anchored tails are read first: most numbers have none."""
    ends = _SPAN_SPLIT.split(number)  # a range read as one number: "7 to 10"
    hour = _HOURS_HEAD.fullmatch(number) is not None
    tail = _HOURS_TAIL.match(text, end) if hour else None
    spans = (len(ends) == 2 and all(_HOURS_HEAD.fullmatch(part) for part in ends)) or bool(tail)
    if tail:
        ends = [number, tail.group("to")]
    closes = hour and _SPAN_END.search(text, max(0, start - 12), start) is not None
    rated = _RATING.fullmatch(number) is not None and _RATED.search(text, max(0, start - 20), start)
    digits = number.replace(",", "")
    way = digits.isdigit() and int(digits) <= 2000 and _WAY_TAIL.match(text, end) is not None
    if not (spans or closes or rated or way):
        return False
    if _MONEY_WORDS.search(text, max(0, start - 80), min(len(text), end + 60)):
        return False
    low, _high = _clause(text, start, end)
    subject = _HOURS_SUBJECT.search(text, low, start) if spans else None
    if subject and _hours_fit(subject.group(), ends[0], ends[-1]):
        return True
    before = _HOURS_BEFORE.search(text, low, start) if closes else None
    opened = _SPAN_START.search(before.group()) if before else None  # "7 to " of "7 to 10"
    if before and opened and _hours_fit(before.group(), opened[1], number):
        return True
    journey = _JOURNEY_SUBJECT.search(text, low, start) if way else None
    return bool(rated or (journey and _length_fits(journey["head"], int(digits))))


# --- Money: ranges, approximate prices, totals, what came with it ---------------------------

_PRICED_PLURAL = (
    r"hostels?|hotels?|dorms?|dorm\s+beds?|guesthouses?|airbnbs?|motels?|flights|fares"
    rf"|tickets|{RIDES}|meals|beers|drinks|coffees|massages|tours|lessons|classes"
    r"|rentals|transfers|ferries|hostel\s+beds"
)
# No unit after the number: "hostels ~25-30 in Laos" is money, "flights around 650 km" no.
_NO_UNIT = (
    r"(?![0-9])(?!\s*(?:%|(?:km|kms|k|miles?|mi|m|meters?|metres?|mins?|minutes?|h|hrs?|hours?"
    r"|days?|nights?|weeks?|people|pax|ppl|persons?|guests?|degrees?|kgs?|lbs?|points?|pts|floors?"
    r"|rows?|stars?|years?|yrs?|yo|percent|ft|feet|beds?|rooms?|seats?|square|sq|sqm|m2|cm"
    r"|inch(?:es)?|stor(?:e)?ys?|levels?|storeys?|stops?|kilos?|litres?|liters?)(?![a-z])"
    r"|公里|米|分钟|小时|天|晚|人|个|度|岁|层|排|号|平|㎡))"
)
_RANGE = re.compile(
    rf"(?<![a-z])(?:{_PRICED_PLURAL})(?![a-z])[^0-9.,;!?\n]{{0,30}}?"
    r"(?:~|≈|about\s+|around\s+|roughly\s+|like\s+)?"
    rf"([0-9]{{1,4}}(?:\.[0-9]{{1,2}})?\s*(?:-|–|to)\s*[0-9]{{1,4}}(?:\.[0-9]{{1,2}})?){_NO_UNIT}",
    F,
)
_ABOUT = re.compile(
    rf"(?<![a-z])(?:flights|fares|tickets|hotels|hostels|rooms|dorms|airbnbs|guesthouses"
    rf"|motels)(?![a-z])[^0-9.,;!?\n]{{0,30}}?(?<![a-z])(?:around|about|roughly|approx"
    rf"|approximately|~|under|below|max|at\s+most|no\s+more\s+than|tops)\s*"
    rf"([0-9]{{2,5}}|[0-9]{{1,3}},[0-9]{{3}}){_NO_UNIT}",
    F,
)
_TOTAL_BOUGHT = re.compile(
    rf"(?<![a-z])(?:ferry|ferries|boat|tickets?|entry|admission|{RIDES}|tour|dinner|lunch"
    r"|meal|hotel|hostel|room|bus|train|flight|pass)(?![a-z])[^.;!?\n]{0,40}?"
    r"(?<![0-9])([0-9]{1,5})\s*(?:total|in\s+total|all\s+in|altogether)(?![a-z])",
    F,
)
_CAME_WITH = re.compile(
    r"(?<![a-z])(?:room|rooms|hotel|hostel|airbnb|suite|stay|bed|dorm|meal|dinner|lunch|menu"
    r"|set)(?![a-z])[^0-9.;!?\n]{0,20}?(?<![0-9])([0-9]{2,4}(?:\.[0-9]{2})?)\s+(?:with|incl\.?"
    r"|including)\s+(?:breakfast|tax|taxes|vat|tips?|service|half\s+board|dinner|drinks)(?![a-z])",
    F,
)
_SMALL_BOUGHT = re.compile(
    r"(?<![a-z])(beers?|coffees?|espressos?|lattes?|teas?|wines?|cocktails?|juices?|smoothies?"
    r"|snacks?|sandwich(?:es)?|ice\s+creams?|gelatos?|pastr(?:y|ies)|croissants?|tacos?"
    r"|breakfast|lunch|dinner)(?:\s+(?:at|in|on|from)\s+(?:the\s+)?[a-z]+(?:\s+[a-z]+)?)?"
    r"\s+([1-9])(?![0-9:.])(?=\s*(?:[,.;!?]|\Z|(?:at|in|on|from)\s))",
    F,
)
_MEAL = re.compile(r"breakfast|lunch|dinner", F)
_TEA_TIME = re.compile(r"(?<![a-z])(?:afternoon|high|cream)\s+t", F)
# A kind of service (night, day, express ...) with a bare number ending its clause: its fare,
# "night bus 14, the day train 38" ("night bus 14 goes to Camden" goes on: a line).
_SERVICE_FARE = re.compile(
    r"(?<![a-z])(?:night|day|overnight|early|late|express|local|fast|slow|sleeper|first|last"
    r"|morning|evening)\s+(?:bus|train|ferry|boat|coach|flight|shuttle)\s+([0-9]{2}(?:\.[0-9]{2})?|[0-9]{3}\.[0-9]{2})"
    r"(?=\s*(?:[,;!?]|\.(?![0-9])|\Z))",
    F,
)
# Tenths of a yuan ending a clause; a name (the writer Sanmao) after a verb or 的 is no price.
_DIMES_END = re.compile(
    r"(?<![0-9一二两三四五六七八九十百的欢读看像叫是和跟与家猫狗])([一二两三四五六七八九])毛"
    r"(?=\s*(?:[,.;!?，。；！？]|\Z)|一(?:小时|天|晚|斤|瓶|个|张|位|次|人|份|杯))"
)
_YUAN_PER = re.compile(
    r"(?<![0-9])([0-9]{1,3}|[一二两三四五六七八九十])块([1-9])(?=1[斤个瓶张位次份碗杯串盒包])"
)


_TAKEN = re.compile(
    r"(?<![a-z])(?:take|takes|took|taking|catch|catches|caught|board|boarded|ride|rode|on|get"
    r"|got|via|by|number|no\.?|line|route|use|uses|used|using)\s+(?:the\s+|a\s+)?\Z",
    F,
)


# A time or a position among the words before a range or an approximate number: "flights
# 0800-1100", "prefer flights around 0900 in the morning", "rooms on floors 20-25".
_POSITION = re.compile(
    r"(?<![a-z])(?:floors?|levels?|storeys?|rows?|seats?|gates?|numbers?|nos?|morning|evening"
    r"|afternoon|(?<!a\s)(?<!per\s)(?<!each\s)night|depart(?:ing|ure)?|leav(?:e|es|ing)|arriv(?:e|es|al|ing)|land(?:s|ing)?"
    r"|am|pm|o'?clock|between|from)(?![a-z])",
    F,
)


def _timed_or_placed(text: str, match: re.Match[str]) -> bool:
    ends = _SPAN_SPLIT.split(match.group(1))
    if any(end.startswith("0") or CLOCK.fullmatch(end) for end in ends):
        return True
    return _POSITION.search(text, match.start(), min(len(text), match.end() + 30)) is not None


# Review of round 28: what else a range, a total or a service's number is. How often ("tours
# 2-3 a week", "taxis 2-3 times"), an age band ("tours for 18-35s"), a flight's hours or
# clock ("flights 8 to 10", "flights around 12"); a group's size before "total" ("the tour
# group was 12 total"); the first or last service's time ("the last train 23", "first bus 06").
_OFTEN = re.compile(
    r"\s*(?:times?(?![a-z])|(?:a|per|every|each)\s+(?:day|week|month|year|trip)(?![a-z]))", F
)
_AGED = re.compile(r"s(?![a-z])|\s*(?:years?|yrs?|yo|olds?|crowd|age)(?![a-z])", F)
_AGED_BEFORE = re.compile(r"(?<![a-z])(?:for|ages?|aged)\s+(?:an?\s+)?\Z", F)
_GROUP_BEFORE = re.compile(
    r"(?<![a-z])(?:group|party|people|travell?ers|guests|of\s+us|us)(?:\s+(?:was|were|is|are"
    r"|of))?\s*\Z",
    F,
)
_TIMED_SERVICE = re.compile(r"first|last|early|late|morning|evening", F)


def _no_price(pattern: re.Pattern[str], text: str, match: re.Match[str]) -> bool:
    start, end = match.span(1)
    ends = [int(float(part)) for part in _SPAN_SPLIT.split(match.group(1).replace(",", ""))]
    if pattern in (_RANGE, _ABOUT):
        if _timed_or_placed(text, match):
            return True
        often = _OFTEN.match(text, end)
        if often and (max(ends) <= 7 or "time" in often.group().lower()):
            return True
        if (
            16 <= ends[0] <= 21
            and 25 <= ends[-1] <= 45
            and (_AGED.match(text, end) or _AGED_BEFORE.search(text, max(0, start - 12), start))
        ):
            return True
        return match.group().lower().startswith("flights") and max(ends) <= 24
    if pattern is _TOTAL_BOUGHT:
        return _GROUP_BEFORE.search(text, match.start(), start) is not None
    if pattern is _SERVICE_FARE:
        timed = _TIMED_SERVICE.match(match.group()) and (ends[0] <= 24 or text[start] == "0")
        return bool(timed or _TAKEN.search(text, max(0, match.start() - 20), match.start()))
    return False


# A flight's price said with its verb: "the flight was 450" (a flight's hours are at most a
# day's 24; a time, "the flight is 920 tomorrow", a plane, "the flight was 787", or a flight's
# number going somewhere, "my flight is 447 to Boston", stay kept).
_FLIGHT_WAS = re.compile(
    r"(?<![a-z])flights?(?:\s+(?:home|back|out|there|over|(?:from|to)\s+[a-z]+))?\s+(?:is|was"
    r"|were|are|'s)(?:\s+(?:like|about|around|roughly|only|just))*\s+([0-9]{3,4}|[0-9],[0-9]{3})"
    rf"(?![0-9.,:]){_NO_UNIT}(?!\s*(?:[ap]\.?m|tomorrow|tonight|today|sharp|o'?clock|in\s+the"
    r"|on\s+[a-z]+day|local|this|next|to|from|at|departs|leav|out\s+of|gate|terminal))",
    F,
)


def _flight_prices(text: str) -> Iterator[tuple[int, int]]:
    for match in _FLIGHT_WAS.finditer(text):
        number = match.group(1).replace(",", "")
        if departure_time(text, match.start(1), number):
            continue  # round 29: "the flight is 930" is when it leaves
        if int(number) > 180 and not CLOCK.fullmatch(number) and number not in AIRCRAFT_TYPES:
            yield match.span(1)


def stated_amounts(text: str) -> Iterator[tuple[int, int]]:
    """Spans of amounts in normalised `text` stated as ranges, approximate prices, totals,
    prices with what came with them, small drinks and Chinese tenths (module docstring)."""
    patterns = (_RANGE, _ABOUT, _TOTAL_BOUGHT, _CAME_WITH, _SERVICE_FARE, _DIMES_END, _YUAN_PER)
    for pattern in patterns:
        for match in pattern.finditer(text):
            if pattern in (_RANGE, _ABOUT, _TOTAL_BOUGHT, _SERVICE_FARE) and _no_price(
                pattern, text, match
            ):
                continue  # a time, a count, an age, a line taken ("I take the night bus 14")
            yield match.span(1) if pattern is not _YUAN_PER else match.span()
    for match in _SMALL_BOUGHT.finditer(text):
        said, number = match.group(1), match.group(2)
        if _MEAL.fullmatch(said) and meal_hour(said, f"{number}00"):
            continue  # "dinner 8 at the harbour" is a time
        if _TEA_TIME.search(text, max(0, match.start() - 12), match.start() + 1):
            continue  # "afternoon tea 4 at the Ritz" is a time
        yield match.span(2)
    yield from _flight_prices(text)


__all__ = ["journey_or_hours", "stated_amounts"]
