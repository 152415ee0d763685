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
    daily_distance,
    distance_after,
    distance_between,
    height_cap,
    room_number,
    verb_before,
)
from memory.privacy.priced_things import (
    CLOCK_LIKE,
    COUNT_BEFORE,
    FOR_COUNT,
    FOR_COUNT_AFTER,
    FOR_PEOPLE_THING,
    FOR_THING,
    LODGING,
    ROOM_KIND,
    SMALL_THINGS,
    THING_BEFORE,
    TIMED_BEFORE,
    meal_hour,
    vehicle_price,
)
from memory.privacy.readings import owned_price
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
    r"\s*(?:号房|号房间|房间|(?:这种|那种|这样的|那样的)(?![^，。,.]{0,6}(?:价|钱|块|元))[^，。,.]{0,6}(?:房|楼层|高层))"
)
# Round 20: what a room has and a price has not, after a number no round price has ("住的2214
# 景观很好", "视野", "朝向"; "住的800视野一般" may be a price, "800景观房" a kind of room).
ROOM_TRAIT_AFTER_ZH = re.compile(r"\s*的?(?:景观|视野|风景|朝向|采光|窗景|阳台|隔音)(?!房)")
# "我们住过1506": stayed in a room; a night's price is said with 一晚 or 花 ("住一晚1506").
STAYED_IN_ZH = re.compile(r"(?:住过|住在|住进了?|入住了?|住的是|住了)\s*\Z")
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_SCALED = re.compile(r"[kw千万]\Z", re.IGNORECASE)
_FORMATTED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d+\.\d\d")


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
    clock = CLOCK.fullmatch(number) or CLOCK_LIKE.match(number)
    return not (clock and _TIME_WORD.search(text, max(0, start - 40), end + 40))


# Round 22: a number judged worth it or not is what something cost ("the extra legroom seat was
# 89 and totally worth it", "早餐一位180，唔抵"); a number with a unit never reaches here.
_WORTH_AFTER = re.compile(
    r"[^0-9.!?;。！？；\n]{0,30}?(?:(?<![a-z])(?:not\s+)?worth\s+(?:it|the\s+money|every)(?![a-z])"
    r"|值回票价|唔抵|好抵|不值|超值|划算)",
    F,
)
# ... said of a value ("was 89"), not of a seat or a room named by its number ("seat 14 was
# worth it for the view").
_VALUE_SAID = re.compile(
    r"(?:(?<![a-z])(?:was|is|were|are|for|about|around|like)\s+|~\s*|[\u4e00-\u9fff]\s*)\Z", F
)


def priced(text: str, start: int, end: int) -> bool:
    """Whether the bare number text[start:end] (no unit after it) reads as money by what
    stands around it (see the module docstring)."""
    number = text[start:end].strip()
    low = max(0, start - 40)
    if not _WORD.search(text, low, end + 40):
        return False  # no word around it: nothing says what it is
    if (
        vehicle_price(text, start, end, number)
        or owned_price(text, start, end, number)  # round 26: "driver for the day 240"
        or PAID_IN.search(text, low, start)
        or (TAKEN_AFTER.match(text, end) and _TOOK.search(text, low, start))
        or (_WORTH_AFTER.match(text, end) and _VALUE_SAID.search(text, low, start))
    ):
        return True
    if (
        ROOM_AFTER_ZH.match(text, end)
        or STAYED_IN_ZH.search(text, low, start)
        or (ROOM_TRAIT_AFTER_ZH.match(text, end) and number.isdigit() and number[-1] != "0")
        or room_number(text, start, end, number)
        or daily_distance(text, start, end)
    ):
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
    if (
        timed is not None
        and (CLOCK.fullmatch(number) or (CLOCK_LIKE.match(number) and timed.group().isascii()))
        and (len(number) == 4 or meal_hour(timed.group(), number))
    ):
        return False  # "lunch 1230", "breakfast 730", "晚饭1930": when, not how much
    thing = THING_BEFORE.search(text, low, start)
    if thing is not None and not FOR_COUNT.search(text, low, start):
        if verb_before(text, start) and not PURCHASE_AFTER.match(text, end):
            return False  # "the tour bus fits 50": what it holds, not what it costs
        # "hotel 12", "Hotel 71 in Chicago", "酒店12": a hotel's name, floor or count; no
        # room is priced under 20, and a capital mid-sentence is a name.
        small_thing = LODGING.match(thing.group()) or SMALL_THINGS.match(thing.group())
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
