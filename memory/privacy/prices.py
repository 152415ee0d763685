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

Numbers that count, place or time something pass as before (`money.NOT_MONEY` after the
number; a place word before it: "room 1208", "gate 45", "floor 15", "car 5"; a year after
"since"/"after"; a street address; a clock time after "at"), and a priced thing owns a
number only within its clause, with no other number between them.
"""

from __future__ import annotations

import re

from memory.privacy.identifiers import COUNT_AFTER

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
    r"|baggage\s+fees?|upgrades?|limos?|shuttles?"
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
    "|住的话|住一晚|住"
)
# Between a priced thing and its number: a few words of one clause, no digit, no other
# sentence; English words only (a "for" makes the number a count: "dinner for 12").
_GAP_EN = r"(?:[^0-9.,;!?\n(]|\.(?=\d)){0,28}?"
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
    r"|seats?|cab\s+rides?)(?![a-z])"
    rf"|\s*(?:用来|拿来|用于|花在|留给|给|来)(?:订|买|付|住|打|吃)?(?:{_THINGS_ZH}|打车|住宿|机票|吃饭)"
    r"|\s*(?:住|睡)(?:一|每)?(?:晚|夜)",
    F,
)
FOR_PEOPLE_THING = re.compile(rf"{_FOR_EN}(?:{_PEOPLE_THINGS}|nights?\s+out)(?![a-z])", F)
# What was spent, paid, given or set aside, right before the number: "spent 2300",
# "came to 1340", "ran me 410", "set aside 3000", "花了23000", "一共2400", "给酒店留800".
SPENT_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:spent|spend(?:s|ing)?|paid|pay(?:s|ing)?|cost(?:s|ing)?|charged"
    r"|blew|blown|dropped|forked\s+out|shelled\s+out|splurged|burned|wasted|owe[sd]?"
    r"|set\s+(?:me|us|him|her|them)\s+back|came\s+(?:out\s+)?to|comes\s+to|ran\s+(?:me|us)"
    r"|runs\s+(?:me|us)|totall?ed|totals?|grand\s+total|subtotal|billed|expensed|reimbursed"
    r"|cover|covers|covered|set\s+aside|put\s+aside|budgeted|allot(?:ted)?|earmark(?:ed)?"
    r"|all\s+in|all-in|in\s+total|altogether)(?![a-z])"
    r"(?:\s+(?:me|us|about|around|roughly|nearly|almost|over|under|like|only|just|a\s+total\s+of"
    r"|up\s+to|at\s+least|at\s+most|maybe|probably|close\s+to|~))*\s*:?\s*"
    r"|(?:花了|花掉|花费|花|付了|付过|付|交了|掏了|掏|刷了|刷|消费了?|开销|开支|用了|报销了?|报了|报"
    r"|结账|结了|共计|合计|总计|总共|一共|总额|总价|总花费|总费用|账单|跳到|跳表|打表|留了?|预留"
    r"|准备了?|出了|给了|挣了?|赚了?)"
    r"(?:大概|大约|约|差不多|将近|快|才|就|只|了|个|共)*\s*[:：]?\s*)\Z",
    F,
)
# Rates of allowance or pay: "每天给报200", "日均300", "90 daily", "95k a year".
RATE_BEFORE_ZH = re.compile(
    r"(?:每天|每日|一天|日均|每月|每个月|一个月|月均|每周|每年|一年)[^0-9,.;!?，。；！？\n]{0,6}?\Z"
)
RATE_AFTER = re.compile(
    r"\s*(?:(?:-?ish|or\s+so)\s*)?(?:daily|a\s+day|per\s+day|/\s?day|each\s+day|every\s+day"
    r"|/\s?d(?![a-z]))(?![a-z])|\s*(?:一天|每天|/天|每日)",
    F,
)
# Pay: a number and "a month", "a year", "an hour" is a wage when it is large or scaled.
WAGE_AFTER = re.compile(
    r"\s*(?:(?:a|an|per|each|every|/)\s*(?:month|year|yr|hour|hr|week|annum)|monthly|yearly"
    r"|annually|hourly|weekly|p\.?a\.?)(?![a-z])|\s*(?:一个月|每月|每年|一年|每小时|一小时)",
    F,
)
PAY_AFTER = re.compile(
    r"\s*(?:[a-z\-]+\s+){0,2}?(?:bonus(?:es)?|salary|salaries|commission|stipend|allowance"
    r"|per\s+diem|raise|pay\s+rise|pay\s?check|pay\s?cheque|wage)(?![a-z])"
    r"|\s*的?(?:年终奖|奖金|工资|月薪|年薪|提成|补贴|补助|津贴|餐补|日补|差补)",
    F,
)
# A place, a line or a position before the number: "room 1208", "gate 45", "T2", "第12排".
PLACE_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:room|rm|suite|floor|level|storey|row|seat|gate|terminal|platform|track"
    r"|car|coach|carriage|bus|line|route|exit|zone|tier|group|size|no|number|version|model"
    r"|boeing|airbus|aisle|block|building|tower|pier|berth|cabin|deck|hall|door|apt|unit|bay"
    r"|stand|counter|desk|belt|carousel|page|step|phase|stage|week|day|top|chapter|area"
    r"|district|avenue|street|road|highway|interstate|flight|train|lounge|wing|concourse"
    r"|pavilion|stall|booth|ward|zip|postcode|since|after|before|in|from|until|till|by|during"
    r"|circa|year|ref|reference|booking|order|confirmation|conf|pnr|code|id|locator|voucher"
    r"|invoice|receipt|ext|extension)\.?\s*(?:no\.?|number|#)?\s*[:#]?\s*|#\s*)\Z"
    r"|(?:第|房间|房|楼|层|排|座|号线|路|航站楼|站台|登机口|车厢|月台|出口)\s*\Z",
    F,
)
_CLOCK = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d\Z")
TIME_BEFORE = re.compile(
    r"(?<![a-z])(?:at|around|about|by|before|after|from|until|till|between|and|earliest"
    r"|latest|resets?)\s*\Z",
    F,
)
# A street address: "200 Park Avenue", "45 Main St".
ADDRESS_AFTER = re.compile(
    r"\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive"
    r"|Dr|Way|Place|Pl|Square|Sq|Plaza)\b"
)
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")
_SCALED = re.compile(r"[kw千万]\Z", re.IGNORECASE)


def _digits(number: str) -> int:
    return sum(ch.isdigit() for ch in number)


def priced(text: str, start: int, end: int) -> bool:
    """Whether the bare number text[start:end] (no unit after it) reads as money by what
    stands around it (see the module docstring)."""
    number = text[start:end].strip()
    low = max(0, start - 40)
    if not _WORD.search(text, low, end + 40):
        return False  # no word around it: nothing says what it is
    if (
        _digits(number) > 7  # no price: a reference, an account, a phone number
        or PLACE_BEFORE.search(text, low, start)
        or ADDRESS_AFTER.match(text, end)
    ):
        return False
    if _CLOCK.match(number) and TIME_BEFORE.search(text, low, start):
        return False  # "resets at 1200 daily", "around 1430 for the train"
    if number == "12306" or COUNT_AFTER.match(text, end):
        return False  # the railway's booking site; "spent 40000 Hilton points"
    scaled = _SCALED.search(number) is not None
    large = _digits(number) >= 3 or scaled
    if SPENT_BEFORE.search(text, low, start):
        return True
    timed = TIMED_BEFORE.search(text, low, start)
    if timed is not None and (
        _CLOCK.match(number) or (_CLOCK_LIKE.match(number) and timed.group().isascii())
    ):
        return False  # "lunch 1230", "breakfast 730", "晚饭1930": when, not how much
    if THING_BEFORE.search(text, low, start) and not _FOR_COUNT.search(text, low, start):
        return True
    return bool(
        FOR_THING.match(text, end)
        or (large and FOR_PEOPLE_THING.match(text, end))
        or PAY_AFTER.match(text, end)
        or RATE_AFTER.match(text, end)
        or RATE_BEFORE_ZH.search(text, low, start)
        or (WAGE_AFTER.match(text, end) and (_digits(number) >= 4 or scaled))
    )


__all__ = ["priced"]
