"""Bare numbers that are money by what stands around them, with no currency word.

`memory.privacy.money` finds a number with a currency, a money word, a rate or a cap. These
read the rest of what people say about money ("hotel 450", "900 for the hotel", "the cab was
95", "spent 2300 on the trip", "日补80", "年终奖发了五万"), by structure rather than by
sentence:

- a priced thing, then the number in the same clause: "hotel 450", "airfare 1200 round
  trip", "uber to the airport 45 usually", "酒店八百", "打车去机场大概八十";
- the number, then what it is for: "900 for the hotel", "2k for flights", "250 on meals",
  "400 toward a nicer room", "两千用来订机票", "留1500给机票";
- what was spent or paid: "spent 2300", "set me back 4100", "came to 1340", "the Hilton
  ran me 410", "花了两万三", "一共2400", "刷了四千多";
- an amount given, kept or set aside: "I'll cover 120", "set aside 3000", "给酒店留八百";
- a rate of pay or of allowance: "90 daily", "每天给报200", "95k a year", "a 5000 bonus".

- a count and its price ("3 nights = 2400", "两晚800", "800 for 2 nights"), a cap or an
  approximation on a number of hundreds ("keep it under 800", "大概一千二", "比500便宜");
- and, when none of these says so, any number of two digits or more that nothing explains as
  something else (`memory.privacy.roles`: years, ages, times, flights, balances, counts …):
  people say prices in more ways than can be listed ("lounge pass: 45").

Numbers that count, place or time something pass as before (`money.NOT_MONEY` after the
number; a place word before it: "room 1208", "gate 45", "floor 15", "car 5"; a street
address; a clock time after "at"), and a priced thing owns a number only within its clause,
with no other number between them.
"""

from __future__ import annotations

import re

from memory.privacy.guessing import guessing
from memory.privacy.identifiers import COUNT_AFTER
from memory.privacy.measures import (
    CALLED_BEFORE,
    TAKEN_AFTER,
    distance_after,
    distance_between,
    height_cap,
    verb_before,
)
from memory.privacy.roles import (
    BALANCE_BEFORE,
    FLIGHT_BEFORE,
    PLURAL_AFTER,
    TIME_BEFORE,
    explained,
)
from memory.privacy.spending import (
    BACK_AFTER,
    BOOKED_FOR,
    CAP_AFTER,
    CAP_BEFORE,
    EARN_BEFORE,
    FARE_AFTER,
    GOT_BEFORE,
    HARD_CAP_AFTER,
    HARD_CAP_BEFORE,
    PAID_IN,
    PAY_AFTER,
    PURCHASE_AFTER,
    RATE_AFTER,
    RATE_BEFORE_ZH,
    SPENT_BEFORE,
    WAGE_AFTER,
)
from memory.privacy.vocabulary import (
    AIRCRAFT_TYPES,
    CLOCK,
    ON_FOOT,
    PLACES,
    PLACES_ZH,
    numbered_before,
)

F = re.ASCII | re.IGNORECASE

# Priced things: what a bare number beside them is the price of. Rooms, flights and trains
# are left out (room, flight and train numbers); fares and tickets for them are in.
# Trips, rides, stays and transfers are counted more often than priced ("trips 12 a year"):
# they are things a number is "for", never things a number follows.
_THINGS_EN = (
    r"hotels?|motels?|hostels?|inns?|lodging|lodgings|accommodations?|airbnbs?"
    r"|air\s?fares?|fares?|(?:flight|plane|train|rail|bus|ferry|air)\s+tickets?|tickets?"
    r"|taxis?|cabs?|ubers?|lyfts?|didi|car\s+rentals?|rental\s+cars?|parking"
    r"|meals?|dinners?|lunch(?:es)?|breakfasts?|brunch|food|drinks|tips?|visa\s+fees?"
    r"|baggage\s+fees?|upgrades?|limos?|shuttles?|car\s+hire|hire\s+cars?|minibar"
    r"|room\s+service|laundry|tolls?|grabs?|tours?|excursions?|day\s+trips?|admission"
    r"|(?:entry|entrance)\s+fees?|(?:rail|jr|railway|metro|subway|bus|day|city|museum|ski)"
    r"\s+pass(?:es)?|massages?|(?:metro|subway|transit|travel|tram|bus|oyster|octopus|suica"
    r"|pasmo)\s+cards?|coffees?|beers?|wines?|cocktails?"
    # A kind of room or bed is priced, where "room 520" is a room's number.
    r"|(?:single|double|twin|king|queen|deluxe|standard|superior|family|executive|shared"
    r"|private|dorm|sea-?view|city-?view)\s+(?:rooms?|beds?)|dorm(?:itory)?\s+beds?|dorms?"
    r"|bunks?|couchettes?|sleepers?(?:\s+(?:berths?|cabins?|compartments?))?|berth\s+on\s+[a-z\s]{3,20}"
)
# Things with a clock time: "lunch 1230", "taxi 1530 from the hotel", "breakfast 730",
# "晚饭1930" (a Chinese ride's time is said with 点: "打车1100" is a fare).
TIMED_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:meals?|dinners?|lunch(?:es)?|breakfasts?|brunch|drinks|taxis?|cabs?"
    r"|ubers?|lyfts?|didi|limos?|shuttles?|pick-?ups?|drop-?offs?)(?![a-z])[^0-9.,;!?\n]{0,20}"
    r"|(?:早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵|宵夜)[^0-9,.;!?，。；！？\n]{0,6})\Z",
    F,
)
# Three digits read as a time in English only ("breakfast 730"; "吃饭150" is a price).
_CLOCK_LIKE = re.compile(r"[1-9][0-5]\d\Z")
_THINGS_ZH = (
    "酒店|宾馆|民宿|住宿|旅馆|青旅|客栈|房费|机票|车票|高铁票|动车票|火车票|船票|门票|打车|车费"
    "|出租车|网约车|的士|专车|接送机|接机|送机|餐费|晚饭|午饭|早饭|晚餐|午餐|早餐|夜宵|宵夜|吃饭"
    "|饭钱|伙食|请客|签证费|行李费|升舱|租车|停车费|头等舱|商务舱|经济舱|一等座|二等座|商务座|卧铺"
    "|住的话|住一晚|住|标间|标准间|大床房|双床房|套房|单人间|双人间|商务房|行政房|打的|出租|含税|不含税"
)
# Between a priced thing and its number: a few words of one clause, no digit, no other
# sentence; English words only (a "for" makes the number a count: "dinner for 12").
_GAP_EN = r"(?:[^0-9.,;!?\n]|\.(?=\d)){0,28}?"
_GAP_ZH = r"[^0-9,.;!?，。；！？\n]{0,8}?"
THING_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:{_THINGS_EN})(?![a-z]){_GAP_EN}|(?:{_THINGS_ZH}){_GAP_ZH})\Z", F
)
_FOR_COUNT = re.compile(r"(?<![a-z])(?:for|with|at|of|x|by|in)\s*\Z|[×x]\s*\Z", F)

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
# An aircraft type beside another or beside its seats: "737比A320舒服", "777的第1排很好".
AIRCRAFT_NEAR = re.compile(
    r"(?<![a-z0-9])(?:a3[1-8]\d|b?7[0-8]7|boeing|airbus|dreamliner|rows?|seats?|upper\s+deck"
    r"|exit\s+row|bulkhead)(?![0-9a-z])|波音|空客|机型|排|座位|上层|安全出口",
    F,
)
# An aircraft type said as one flies it: "the 319", "fly the 787".
AIRCRAFT_SAID = re.compile(
    r"(?<![a-z])(?:the|an?|fly|flying|flew|flown|prefer|ride|board(?:ed)?)\s+\Z", F
)
# A tour's number or a count: "tour 3", small; tours are priced in tens or more.
_SMALL_THINGS = re.compile(r"tours?|excursions?", F)
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
_TIME_WORD = re.compile(
    r"(?<![a-z])(?:leave|leaving|depart[a-z]*|arriv[a-z]*|land[a-z]*|wake|start|flights?|trains?"
    r"|pick-?up|check-?(?:in|out)|meet[a-z]*)(?![a-z])",
    F,
)
# A place, a line or a position before the number: "room 1208", "gate 45", "T2", "第12排".
# Besides the shared places: steps, areas, stalls, postcodes, words of time ("since 1998"),
# references and codes; 座 is a seat but not in 二等座, 商务座, 硬座, 软座, 卧座.
PLACE_BEFORE = numbered_before(
    rf"{PLACES}|storey|group|step|phase|area|interstate|concourse|pavilion|stall|booth|ward"
    r"|zip|postcode|after|before|from|until|till|by|during|circa|ref|reference|booking|order"
    r"|confirmation|conf|pnr|code|id|locator|voucher|invoice|receipt|ext|extension",
    rf"{PLACES_ZH}|(?<![等务硬软卧])座",
)
# A street address: "200 Park Avenue", "45 Main St".
ADDRESS_AFTER = re.compile(
    r"\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive"
    r"|Dr|Way|Place|Pl|Square|Sq|Plaza)\b"
)
# A room named by what follows the number: "喜欢住1801这种高层房间", "1208号房"; "800的房间" is a
# room's price (the CAP_AFTER cue), and a price word beside it keeps it one.
ROOM_AFTER_ZH = re.compile(
    r"\s*(?:号房|号房间|房间|(?:这种|那种|这样的|那样的)(?![^，。,.]{0,6}(?:价|钱|块|元))"
    r"[^，。,.]{0,6}(?:房|楼层|高层))"
)
# "我们住过1506": stayed in a room; a night's price is said with 一晚 or 花 ("住一晚1506").
STAYED_IN_ZH = re.compile(r"(?:住过|住在|住进了?|入住了?|住的是|住了)\s*\Z")
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_SCALED = re.compile(r"[kw千万]\Z", re.IGNORECASE)

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

_FORMATTED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d+\.\d\d")


def _vehicle_price(text: str, start: int, end: int, number: str) -> bool:
    low = max(0, start - 40)
    if not number.isdigit() or not VEHICLE_BEFORE.search(text, low, start):
        return False
    cue = VEHICLE_MONEY_AFTER.match(text, end)
    if cue is not None and 2 <= len(number) <= 4:
        clock = CLOCK.fullmatch(number) or _CLOCK_LIKE.match(number)
        return not (cue.group("ret") and clock)
    return len(number) in (2, 3) and CLASS_ON_THE.search(text, low, start) is not None


LODGING = re.compile(
    r"(?:hotels?|motels?|hostels?|inns?|lodging|lodgings|accommodations?)(?![a-z])"
    r"|酒店|宾馆|民宿|旅馆|青旅|客栈",
    F,
)


# Round 17: money taken, after a verb of taking: "the porter took 10 off me", "took 45 in
# fees", "拿了120".
_TOOK = re.compile(r"(?:(?<![a-z])(?:took|takes|take|taken|taking|wanted|got)|拿了|收了)\s*\Z", F)
# Round 17: a lodging one has read or heard of is named: "I read about hotel 1000 in Seattle".
HEARD_OF = re.compile(
    r"(?<![a-z])(?:read|heard|hear|know|knew|learned|saw|seen|told\s+(?:me|us)"
    r"|tells?\s+(?:me|us))\s+(?:about|of)\s+(?:the\s+|a\s+)?\Z",
    F,
)


def _small(number: str) -> bool:
    return number.isdigit() and int(number) < 20


def _named(text: str, thing: re.Match[str]) -> bool:
    """Whether the priced thing is written as a name: capitalised after a sentence's start."""
    before = text[: thing.start()].rstrip()
    return thing.group()[:1].isupper() and bool(before) and before[-1] not in ".!?:;"


def _digits(number: str) -> int:
    return sum(ch.isdigit() for ch in number)


def _capped(text: str, start: int, end: int, number: str) -> bool:
    """A number of hundreds under a cap or an approximation, unless it is a clock time in a
    sentence about leaving or arriving ("around 730 I leave"). A hard limit is never a time:
    "trains in Europe, 150 max for first class"."""
    if HARD_CAP_AFTER.match(text, end) or HARD_CAP_BEFORE.search(text, max(0, start - 30), start):
        return True
    if not (CAP_BEFORE.search(text, max(0, start - 30), start) or CAP_AFTER.match(text, end)):
        return False
    clock = CLOCK.fullmatch(number) or _CLOCK_LIKE.match(number)
    return not (clock and _TIME_WORD.search(text, max(0, start - 40), end + 40))


def priced(text: str, start: int, end: int) -> bool:
    """Whether the bare number text[start:end] (no unit after it) reads as money by what
    stands around it (see the module docstring)."""
    number = text[start:end].strip()
    low = max(0, start - 40)
    if not _WORD.search(text, low, end + 40):
        return False  # no word around it: nothing says what it is
    if (
        _vehicle_price(text, start, end, number)
        or PAID_IN.search(text, low, start)
        or (TAKEN_AFTER.match(text, end) and _TOOK.search(text, low, start))
    ):
        return True
    if ROOM_AFTER_ZH.match(text, end) or STAYED_IN_ZH.search(text, low, start):
        return False  # a room: "住1801这种高层房间"
    if (
        CALLED_BEFORE.search(text, low, start)
        or height_cap(text, start, end)
        or distance_between(text, start, end)
        or (distance_after(text, end) and not SPENT_BEFORE.search(text, low, start))
        or (PLURAL_AFTER.match(text, end) and not PURCHASE_AFTER.match(text, end))
    ):
        return False  # a name: "一家叫1000的酒店", "a bar called 21"
    # Written as money: thousands separated or two decimals ("the TGV 89.50", "lounge
    # 1,200"); no room, gate, line or train is numbered so.
    formatted = _FORMATTED.fullmatch(number) is not None
    if (
        _digits(number) > 7  # no price: a reference, an account, a phone number
        or (
            PLACE_BEFORE.search(text, low, start)
            and not ROOM_KIND.search(text, low, start)
            and not formatted
        )
        or ADDRESS_AFTER.match(text, end)
    ):
        return False
    if number in AIRCRAFT_TYPES and AIRCRAFT_NEAR.search(
        text[low:start] + " " + text[end : end + 40]
    ):
        return False  # an aircraft: "737比A320舒服", "777的第1排很好"
    if (
        number in AIRCRAFT_TYPES
        and AIRCRAFT_SAID.search(text, low, start)
        and not SPENT_BEFORE.search(text, low, start)
        and not PAY_AFTER.match(text, end)  # "got a 340 bonus" is pay, not an Airbus
    ):
        return False  # "I prefer the 319 on short flights"
    if CLOCK.fullmatch(number) and TIME_BEFORE.search(text, low, start):
        return False  # "resets at 1200 daily", "around 1430 for the train"
    if number == "12306" or COUNT_AFTER.match(text, end):
        return False  # the railway's booking site; "spent 40000 Hilton points"
    scaled = _SCALED.search(number) is not None
    large = _digits(number) >= 3 or scaled
    spent = SPENT_BEFORE.search(text, low, start)
    if not spent and BALANCE_BEFORE.search(text, low, start):
        return False  # a balance: "my Bonvoy balance is around 95,000"
    if spent or (BACK_AFTER.match(text, end) and GOT_BEFORE.search(text, low, start)):
        return True
    if (_digits(number) >= 4 or scaled) and EARN_BEFORE.search(text, low, start):
        return True
    if large and (BOOKED_FOR.search(text, low, start) or _capped(text, start, end, number)):
        return True
    if COUNT_BEFORE.search(text, low, start) or FOR_COUNT_AFTER.match(text, end):
        return True
    fare = FARE_AFTER.match(text, end)
    if (
        fare is not None
        and not FLIGHT_BEFORE.search(text, low, start)
        and not ON_FOOT.search(text, low, start)  # "the hike to the lake is 12 each way"
        and not (CLOCK.fullmatch(number) and "return" in fare.group().lower())  # "1130 return"
    ):
        return True  # "Shinkansen to Kyoto 14000 one way", "the water taxi was 120 return"
    timed = TIMED_BEFORE.search(text, low, start)
    if timed is not None and (
        CLOCK.fullmatch(number) or (_CLOCK_LIKE.match(number) and timed.group().isascii())
    ):
        return False  # "lunch 1230", "breakfast 730", "晚饭1930": when, not how much
    thing = THING_BEFORE.search(text, low, start)
    if thing is not None and not _FOR_COUNT.search(text, low, start):
        if verb_before(text, start) and not PURCHASE_AFTER.match(text, end):
            return False  # "the tour bus fits 50": what it holds, not what it costs
        # "hotel 12", "Hotel 71 in Chicago", "酒店12": a hotel's name, floor or count; no
        # room is priced under 20, and a capital mid-sentence is a name.
        small_thing = LODGING.match(thing.group()) or _SMALL_THINGS.match(thing.group())
        named = _named(text, thing) or HEARD_OF.search(text, low, thing.start()) is not None
        return not (small_thing and (_small(number) or named))
    if (
        FOR_THING.match(text, end)
        or (large and FOR_PEOPLE_THING.match(text, end))
        or PAY_AFTER.match(text, end)
        or RATE_AFTER.match(text, end)
        or RATE_BEFORE_ZH.search(text, low, start)
        or (WAGE_AFTER.match(text, end) and (_digits(number) >= 4 or scaled))
    ):
        return True
    # Round 16: a unit of purchase after the number is money, whatever word before it seems
    # to number it ("the night ferry 60 per cabin"; a position right before it returned above).
    if PURCHASE_AFTER.match(text, end):
        return True
    # Nothing says it is money, and nothing says what else it is: in a travel preference an
    # unexplained number is a price ("lounge pass: 45", "商务座一千七太贵了").
    if formatted and (
        FLIGHT_BEFORE.search(text, low, start) or PLACE_BEFORE.search(text, low, start)
    ):
        return True
    return guessing() and not explained(text, start, end, number)


__all__ = ["priced"]
