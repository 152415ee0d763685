"""Priced things: the words a bare number beside is the price of, for `memory.privacy.prices`.

What a number follows ("hotel 450", "酒店八百"), what it is for ("900 for the hotel",
"两千用来订机票"), a count and its price ("3 nights = 2400", "两晚800"), and a train's or a
lounge's number said with a cue of money ("the Eurostar 89 if booked early"). Kept apart from
`memory.privacy.prices`, which reads a number with them, so each module holds one concept.
"""

from __future__ import annotations

import re

from memory.privacy.vocabulary import CABS, CLOCK, PRICED

F = re.ASCII | re.IGNORECASE

# Cars one hires by the trip (`vocabulary.CABS`) and their apps.
_CARS = rf"{CABS}|lyfts?|didi"
# Priced things (the shared `vocabulary.PRICED` and more): what a bare number beside them is
# the price of. Rooms, flights and trains are left out (room, flight and train numbers); fares
# and tickets for them are in.
# Trips, rides, stays and transfers are counted more often than priced ("trips 12 a year"):
# they are things a number is "for", never things a number follows.
_THINGS_EN = (
    rf"{PRICED}|{_CARS}|motels?|hostels?|inns?|lodging|lodgings|accommodations?|airbnbs?"
    r"|air\s?fares?|(?:flight|plane|train|rail|bus|ferry|air)\s+tickets?"
    r"|car\s+rentals?|rental\s+cars?|parking"
    r"|meals?|dinners?|lunch(?:es)?|breakfasts?|brunch|food|drinks|tips?|visa\s+fees?"
    r"|baggage\s+fees?|upgrades?|car\s+hire|hire\s+cars?|minibar"
    r"|room\s+service|laundry|grabs?|excursions?|day\s+trips?"
    r"|(?:entry|entrance)\s+fees?|(?:rail|jr|railway|metro|subway|bus|day|city|museum|ski)"
    r"\s+pass(?:es)?|massages?|(?:metro|subway|transit|travel|tram|bus|oyster|octopus|suica"
    r"|pasmo)\s+cards?|coffees?|beers?|wines?|cocktails?"
    # Round 25: what else is paid for on a trip ("the visa extension was 95", "wifi on board 8")
    r"|visas?(?:\s+extensions?)?|(?:travel\s+)?insurance|wi-?fi|fast[\s-]?track|rent"
    # A kind of room or bed is priced, where "room 520" is a room's number.
    r"|(?:single|double|twin|king|queen|deluxe|standard|superior|family|executive|shared"
    r"|private|dorm|sea-?view|city-?view)\s+(?:rooms?|beds?)|dorm(?:itory)?\s+beds?|dorms?"
    r"|bunks?|couchettes?|sleepers?(?:\s+(?:berths?|cabins?|compartments?))?|berth\s+on\s+[a-z\s]{3,20}"
)
# Things with a clock time: "lunch 1230", "taxi 1530 from the hotel", "breakfast 730",
# "晚饭1930" (a Chinese ride's time is said with 点: "打车1100" is a fare).
TIMED_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:meals?|dinners?|lunch(?:es)?|breakfasts?|brunch|drinks|{_CARS}"
    r"|pick-?ups?|drop-?offs?)(?![a-z])[^0-9.,;!?\n]{0,20}"
    r"|(?:早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵|宵夜)[^0-9,.;!?，。；！？\n]{0,6})\Z",
    F,
)
# Three digits read as a time in English only ("breakfast 730"; "吃饭150" is a price).
CLOCK_LIKE = re.compile(r"[1-9][0-5]\d\Z")
# Round 25: the hours at which a meal is eaten, on a 12- or a 24-hour clock; three digits
# outside them are no time of that meal ("dinner 230" is a price, "dinner 730" a time; four
# digits, "晚饭1200", are read as a time at any hour).
_MEAL_HOURS = (
    (re.compile(r"breakfast|早饭|早餐", F), {5, 6, 7, 8, 9, 10, 11}),
    (re.compile(r"brunch", F), {9, 10, 11, 12, 13, 1}),
    (re.compile(r"lunch|午饭|午餐", F), {11, 12, 13, 14, 15, 1, 2, 3}),
    (re.compile(r"dinner|supper|晚饭|晚餐", F), {5, 6, 7, 8, 9, 10, 11, *range(17, 24)}),
)


def meal_hour(said: str, number: str) -> bool:
    """Whether `number` read as a clock time falls in the hours of the meal `said` names (any
    hour for words that name no meal: a taxi, a pick-up, drinks)."""
    hour = int(number[:-2] or "0")
    for meal, hours in _MEAL_HOURS:
        if meal.search(said):
            return hour in hours
    return True


_THINGS_ZH = (
    "酒店|宾馆|民宿|住宿|旅馆|青旅|客栈|房费|机票|车票|高铁票|动车票|火车票|船票|门票|打车|车费"
    "|出租车|网约车|的士|专车|接送机|接机|送机|餐费|晚饭|午饭|早饭|晚餐|午餐|早餐|夜宵|宵夜|吃饭"
    "|饭钱|伙食|请客|签证费|行李费|升舱|租车|停车费|头等舱|商务舱|经济舱|一等座|二等座|商务座|卧铺"
    "|住的话|住一晚|住|标间|标准间|大床房|双床房|套房|单人间|双人间|商务房|行政房|打的|出租|含税|不含税"
    "|签证|保险|房租|包车"
)
# Between a priced thing and its number: a few words of one clause, no digit, no other
# sentence; English words only (a "for" makes the number a count: "dinner for 12").
_GAP_EN = r"(?:[^0-9.,;!?\n]|\.(?=\d)){0,28}?"
_GAP_ZH = r"[^0-9,.;!?，。；！？\n]{0,8}?"
THING_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:{_THINGS_EN})(?![a-z]){_GAP_EN}|(?:{_THINGS_ZH}){_GAP_ZH})\Z", F
)
FOR_COUNT = re.compile(r"(?<![a-z])(?:for|with|at|of|x|by|in)\s*\Z|[×x]\s*\Z", F)

# The number, then what it is for: "900 for the hotel", "250 on meals", "两千用来订机票".
_FOR_EN = (
    r"\s*(?:for|on|toward|towards|to\s+cover|into|per)\s+"
    r"(?:(?:the|a|an|my|our|each|every|one|any|whole|entire|total|nicer|good|decent|cheap"
    r"|business(?:\s+class)?|first(?:\s+class)?|economy|premium|direct|nice|last-minute"
    r"|[A-Z][a-z]+)\s+){0,3}"
)
# Things a small number after "for" may count people of ("20 for the whole trip, people I
# mean", "12 for dinner"): only a number of hundreds is a price for them.
_PEOPLE_THINGS = r"trips?|offsites?|dinners?|lunch(?:es)?|meals?|breakfasts?|brunch|parties|party"
FOR_THING = re.compile(
    rf"{_FOR_EN}(?!(?:{_PEOPLE_THINGS})(?![a-z]))(?:{_THINGS_EN}|flights?|trains?|rooms?"
    r"|seats?|cab\s+rides?|suites?|villas?|tours?|(?:rail\s+)?pass(?:es)?|packages?|excursions?"
    r"|insurance|visas?|lounges?|wi-?fi|guides?|drivers?|cars?|vans?|boats?|ferries|sim\s+cards?"
    r"|porters?|bellhops?|bellboys?|housekeeping|valets?|concierges?|waiters?|servers?|maids?"
    r"|data\s+plans?)(?![a-z])"
    rf"|\s*(?:用来|拿来|用于|花在|留给|给|来)(?:订|买|付|住|打|吃)?(?:{_THINGS_ZH}|打车|住宿|机票|吃饭)"
    r"|\s*(?:住|睡)(?:一|每)?(?:晚|夜)"
    rf"|\s*(?:住|订|买|坐|升)(?:{_THINGS_ZH}|套房|商务舱|头等舱|好一点的|贵一点的)",  # "两千住套房"
    F,
)
FOR_PEOPLE_THING = re.compile(rf"{_FOR_EN}(?:{_PEOPLE_THINGS}|nights?\s+out)(?![a-z])", F)
# A tour's number or a count: "tour 3", small; tours are priced in tens or more.
SMALL_THINGS = re.compile(r"tours?|excursions?", F)
# A kind of room before the number: "single room 520" is a price, "room 520" a room.
ROOM_KIND = re.compile(
    r"(?<![a-z])(?:single|double|twin|king|queen|deluxe|standard|superior|family|executive"
    r"|shared|private|dorm|sea-?view|city-?view)\s+(?:rooms?|beds?)\s*\Z",
    F,
)
# A count and its price: "3 nights = 2400", "两晚800", "两个人1500"; "800 for 2 nights".
COUNT_BEFORE = re.compile(
    r"(?<![0-9a-z])\d+\s*(?:nights?|days?|people|persons?|pax|adults?|rooms?|tickets?|seats?"
    r"|guests?)(?![a-z])\s*(?:=|:|for|total|in\s+total|at|is|are|costs?|came\s+to)?\s*\Z"
    r"|(?:\d+|[一两二三四五六七八九十几])\s*个?(?:晚|夜|天|人|位|间|张|份)"
    r"(?:一共|共|总共|合计|才|要|大概|约|就)?\s*\Z",
    F,
)
FOR_COUNT_AFTER = re.compile(
    r"\s*for\s+(?:the\s+|all\s+|both\s+)?(?:\d+|both|us|all)\s*(?:of\s+us|nights?|days?|people"
    r"|persons?|adults?|rooms?|tickets?|seats?|guests?|pax|us)(?![a-z])",
    F,
)

# A train's or a lounge's number is kept ("TGV 6201", "lounge 3"); a price is said of them
# with a cue of money after the number ("the Eurostar 89 if booked early", "airport lounge 40
# walk-in", "ICE 89 each way") or, for two or three digits, a class or a berth on "the" train
# before it ("first class on the TGV 120", "bunk on the night train 120"; "a berth on train
# 477" stays a train).
_TRAINS = (
    r"trains?|ice|tgv|ave|ktx|eurostar|amtrak|acela|shinkansen|nozomi|hikari|kodama"
    r"|frecciarossa|railjet|thalys|italo|express"
)
VEHICLE_BEFORE = re.compile(rf"(?<![a-z])(?:{_TRAINS}|lounges?)\s*\Z", F)
VEHICLE_MONEY_AFTER = re.compile(
    r"\s*(?:(?:one|1)[\s-]way|each\s+way|round[\s-]?trip|(?P<ret>return)|pp|p\.p\."
    r"|per\s+(?:person|head|seat|ticket|visit|entry)|a\s+(?:head|seat|ticket|visit)"
    r"|if\s+(?:you\s+)?book(?:ed)?|booked|walk-?in|at\s+the\s+door|incl|including"
    r"|in\s+(?:first|second|business|economy|coach|standard|premier)(?:\s+class)?"
    r"|plus\s+(?:tax|fees)|for\s+(?:a|the|one|two|each)\s+(?:seat|bunk|berth|ticket|pass"
    r"|visit|entry))(?![a-z])",
    F,
)
CLASS_ON_THE = re.compile(
    r"(?<![a-z])(?:(?:first|second|business|standard|premier|economy|coach)\s+class|bunks?"
    r"|berths?|couchettes?|sleepers?|tickets?|upgrades?)\s+(?:on|in|for)\s+the\s+"
    rf"(?:[a-z]+\s+)?(?:{_TRAINS})\s*\Z",
    F,
)


def vehicle_price(text: str, start: int, end: int, number: str) -> bool:
    low = max(0, start - 40)
    if not number.isdigit() or not VEHICLE_BEFORE.search(text, low, start):
        return False
    cue = VEHICLE_MONEY_AFTER.match(text, end)
    if cue is not None and 2 <= len(number) <= 4:
        clock = CLOCK.fullmatch(number) or CLOCK_LIKE.match(number)
        return not (cue.group("ret") and clock)
    return len(number) in (2, 3) and CLASS_ON_THE.search(text, low, start) is not None


LODGING = re.compile(
    r"(?:hotels?|motels?|hostels?|inns?|lodging|lodgings|accommodations?)(?![a-z])"
    r"|酒店|宾馆|民宿|旅馆|青旅|客栈",
    F,
)


__all__ = [
    "CLASS_ON_THE",
    "CLOCK_LIKE",
    "COUNT_BEFORE",
    "FOR_COUNT",
    "FOR_COUNT_AFTER",
    "FOR_PEOPLE_THING",
    "FOR_THING",
    "LODGING",
    "ROOM_KIND",
    "SMALL_THINGS",
    "THING_BEFORE",
    "TIMED_BEFORE",
    "VEHICLE_BEFORE",
    "VEHICLE_MONEY_AFTER",
    "meal_hour",
    "vehicle_price",
]
