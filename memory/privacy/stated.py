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
from memory.privacy.vocabulary import CLOCK

F = re.ASCII | re.IGNORECASE

_CLAUSE_END = re.compile(r"[.!?;。！？；，\n](?!\d)|,(?!\d)")
_MONEY_WORDS = re.compile(
    r"(?<![a-z])(?:budget|pric(?:e|es|ey|ed|ing)|costs?|fares?|pa(?:y|id|ying)|spen[dt]|fees?"
    r"|rates?|tips?|bills?|charged?|quoted|deposit|bucks|dollars?|euros?|quid|cheap(?:er)?"
    r"|expensive|rent(?:al)?|hire|tickets?|split|shared|worth|value|deal|bargain|steal|rip-?off|overpriced"
    r"|steep|affordable|reasonable|cash|card|each|per|apiece|total|extra|return|one[\s-]way"
    r"|a\s+(?:night|head|person|day)|for\s+(?:two|both|the\s+two|us|all))(?![a-z])|[$€£¥]",
    F,
)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    low = max(0, start - 80)
    ends = [match.end() for match in _CLAUSE_END.finditer(text, low, start)]
    low = ends[-1] if ends else low
    after = _CLAUSE_END.search(text, end, end + 80)
    return low, after.start() if after else min(len(text), end + 80)


# --- Benign: a journey's length, a span of hours --------------------------------------------

# The subject's head is a journey: "the (ferry) crossing", "the drive", "the bike tour".
_JOURNEY_SUBJECT = re.compile(
    r"(?<![a-z])(?:rides?|drives?|flights?|crossings?|journeys?|hikes?|treks?|walks?|climbs?"
    r"|marathons?|races?|commutes?|legs?|stretch|transits?|(?:bike|cycling|walking|hiking)"
    r"\s+tours?|(?:boat|bus|train|ferry|car)\s+trips?|tours?|trains?|bus|buses|ferry|ferries"
    r"|boats?|trams?|coach(?:es)?|gondolas?|cable\s+cars?|funiculars?|sleepers?)"
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
    r"|flights?|it'?s?\s+(?:calm|clear|dry|sunny|quiet)|there'?s?\s+no|nothing|we|you|i)"
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
    rf"\s*(?:to|till|til|until|-|–|and)\s*(?:{_HOUR}|midnight|noon)(?![0-9])", F
)
_HOURS_HEAD = re.compile(rf"(?:{_HOUR})\Z", F)
_SPAN_SPLIT = re.compile(r"\s*(?:to|till|til|until|-|–)\s*", F)
_SPAN_END = re.compile(r"(?<![a-z])(?:to|till|til|until)\s*\Z|[-–]\s*\Z", F)
# The span's end: "breakfast is 7 to 10" (the 10).
_HOURS_BEFORE = re.compile(
    rf"{_HOURS_SUBJECT.pattern[:-2]}{_HOUR}\s*(?:to|till|til|until|-|–)\s*\Z", F
)


# A rating scored or given: "that hostel scored 9.1 on the app", "rated 4.5".
_RATED = re.compile(r"(?<![a-z])(?:scored|scores|rated|gets|got|has)\s+(?:a\s+)?\Z", F)
_RATING = re.compile(r"(?:[0-9]|10)\.[0-9]")


def journey_or_hours(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is a journey's length told with the way, the
    start or end of a span of hours after a meal or an opening word, or a rating scored (see
    the module docstring). The anchored tails are read first: most numbers have none."""
    ends = _SPAN_SPLIT.split(number)  # a range read as one number: "7 to 10"
    hour = _HOURS_HEAD.fullmatch(number) is not None
    spans = (len(ends) == 2 and all(_HOURS_HEAD.fullmatch(part) for part in ends)) or (
        hour and _HOURS_TAIL.match(text, end) is not None
    )
    closes = hour and _SPAN_END.search(text, max(0, start - 12), start) is not None
    rated = _RATING.fullmatch(number) is not None and _RATED.search(text, max(0, start - 20), start)
    digits = number.replace(",", "")
    way = digits.isdigit() and int(digits) <= 2000 and _WAY_TAIL.match(text, end) is not None
    if not (spans or closes or rated or way):
        return False
    if _MONEY_WORDS.search(text, max(0, start - 80), min(len(text), end + 60)):
        return False
    low, _high = _clause(text, start, end)
    return bool(
        (spans and _HOURS_SUBJECT.search(text, low, start))
        or (closes and _HOURS_BEFORE.search(text, low, start))
        or rated
        or (way and _JOURNEY_SUBJECT.search(text, low, start))
    )


# --- Money: ranges, approximate prices, totals, what came with it ---------------------------

_PRICED_PLURAL = (
    r"hostels?|hotels?|dorms?|dorm\s+beds?|guesthouses?|airbnbs?|motels?|flights|fares"
    r"|tickets|taxis|cabs|ubers|meals|beers|drinks|coffees|massages|tours|lessons|classes"
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
    r"(?<![a-z])(?:ferry|ferries|boat|tickets?|entry|admission|taxi|cab|uber|tour|dinner|lunch"
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
# A kind of service (night, day, express ...) with a bare number ending its clause: its fare,
# "night bus 14, the day train 38" ("night bus 14 goes to Camden" goes on: a line).
_SERVICE_FARE = re.compile(
    r"(?<![a-z])(?:night|day|overnight|early|late|express|local|fast|slow|sleeper|first|last"
    r"|morning|evening)\s+(?:bus|train|ferry|boat|coach|flight|shuttle)\s+([0-9]{2,3}(?:\.[0-9]{2})?)"
    r"(?=\s*(?:[,;!?]|\.(?![0-9])|\Z))",
    F,
)
# Tenths of a yuan ending a clause; a name (the writer Sanmao) after a verb or 的 is no price.
_DIMES_END = re.compile(
    r"(?<![0-9一二两三四五六七八九十百的欢读看像叫是和跟与])([一二两三四五六七八九])毛"
    r"(?=\s*(?:[,.;!?，。；！？]|\Z)|一(?:小时|天|晚|斤|瓶|个|张|位|次|人|份|杯))"
)
_YUAN_PER = re.compile(
    r"(?<![0-9])([0-9]{1,3}|[一二两三四五六七八九十])块([1-9])(?=1[斤个瓶张位次份碗杯串盒包])"
)


_TAKEN = re.compile(
    r"(?<![a-z])(?:take|takes|took|taking|catch|catches|caught|board|boarded|ride|rode|on|get"
    r"|got|via|by|number|no\.?|line|route)\s+(?:the\s+|a\s+)?\Z",
    F,
)


# A time or a position among the words before a range or an approximate number: "flights
# 0800-1100", "prefer flights around 0900 in the morning", "rooms on floors 20-25".
_POSITION = re.compile(
    r"(?<![a-z])(?:floors?|levels?|storeys?|rows?|seats?|gates?|numbers?|nos?|morning|evening"
    r"|afternoon|night|depart(?:ing|ure)?|leav(?:e|es|ing)|arriv(?:e|es|al|ing)|land(?:s|ing)?"
    r"|am|pm|o'?clock|between|from)(?![a-z])",
    F,
)


def _timed_or_placed(text: str, match: re.Match[str]) -> bool:
    ends = _SPAN_SPLIT.split(match.group(1))
    if any(end.startswith("0") or CLOCK.fullmatch(end) for end in ends):
        return True
    return _POSITION.search(text, match.start(), min(len(text), match.end() + 30)) is not None


def stated_amounts(text: str) -> Iterator[tuple[int, int]]:
    """Spans of amounts in normalised `text` stated as ranges, approximate prices, totals,
    prices with what came with them, small drinks and Chinese tenths (module docstring)."""
    patterns = (_RANGE, _ABOUT, _TOTAL_BOUGHT, _CAME_WITH, _SERVICE_FARE, _DIMES_END, _YUAN_PER)
    for pattern in patterns:
        for match in pattern.finditer(text):
            if pattern in (_RANGE, _ABOUT) and _timed_or_placed(text, match):
                continue
            if pattern is _SERVICE_FARE and _TAKEN.search(
                text, max(0, match.start() - 20), match.start()
            ):
                continue  # "I take the night bus 14": its line
            yield match.span(1) if pattern is not _YUAN_PER else match.span()
    for match in _SMALL_BOUGHT.finditer(text):
        said, number = match.group(1), match.group(2)
        if _MEAL.fullmatch(said) and meal_hour(said, f"{number}00"):
            continue  # "dinner 8 at the harbour" is a time
        yield match.span(2)


__all__ = ["journey_or_hours", "stated_amounts"]
