"""What a bare number in a preference is when it is not money.

`memory.privacy.prices` reads a number of two digits or more that no unit, place or time
explains as an amount: people say prices in too many ways to list them ("ryokan - 38000 incl
dinner", "lounge pass: 45", "商务座一千七太贵了"), and the numbers a travel preference holds for
other reasons can be listed instead. `explained` says whether one of them is what the number
is, from the words around it (normalised text, `memory.privacy.text`):

- a year ("hotels renovated after 2018", a bare 1950-2039), an age ("my kids are 3, 6 and 11",
  "孩子12"), a height ("身高185", "1米93"), the second half of a time or a size written with a
  unit inside ("7点05", "1米85");
- a clock time: a small number after "at", "by", "between 9 and …", or a time of three or
  four digits in a sentence about leaving, arriving or a flight ("trains around 730");
- an aircraft ("坐787不坐737"), a flight or train number written apart ("United 857", "MU 5101",
  "D 2285"), a road or a line ("the 405 freeway", "405国道"), a postcode, an index ("Fortune
  500", "top 100");
- a balance or a status ("积分有12万", "里程5万", "1K status"), a speed ("限速120"), a weight
  of luggage ("baggage limit 23"), a temperature ("空调26"), a rating with a decimal ("4.5"),
  a discount ("八五折" is a unit after);
- part of an identifier ("starts with 88", "开头4403"), a group of a longer number ("138 00"),
  the next item of a list a place word opened ("seat 31A or 31K", "rooms 1204 and 1206"), a
  place word earlier in the clause ("rooms in the 30 range");
- a count whose noun follows later in the clause ("about 20 for the whole trip, people I
  mean"), or a frequency ("trips 12 a year").
"""

from __future__ import annotations

import re

from memory.privacy.measures import more_roles
from memory.privacy.vocabulary import AIRCRAFT_TYPES, YEAR

F = re.ASCII | re.IGNORECASE
_CLAUSE_BEFORE = r"[^0-9.!?;。！？；\n]"
AGE = re.compile(
    r"(?:(?<![a-z])(?:i'?m|i\s+am|he'?s|she'?s|they'?re|aged?|ages|kids?|sons?|daughters?"
    r"|children|child|boy|girl|baby|toddler|teens?|turns?|turning)(?![a-z])[^0-9.!?;\n]{0,16}"
    # Round 16: a family member's or a pet's age said as one ("my dad is 70", "mom's 68", "the
    # dog turns 3") or one's own to come ("I'll be 30"); "my wife says 45 is fine" is not one.
    r"|(?<![a-z])(?:grand(?:ma|pa|mother|father|parents?|kids?|sons?|daughters?)|mom|mum|dad"
    r"|mother|father|parents?|wife|husband|partner|niece|nephew|dog|cat|pet|puppy)"
    r"(?:'s|\s+is|\s+are|\s+turns?|\s+turned|\s+aged?|\s+will\s+be)\s+(?:now\s+|only\s+|just\s+)?"
    r"|(?<![a-z])(?:i'?ll|i\s+will|he'?ll|she'?ll)\s+be\s+(?:turning\s+)?"
    r"|(?:孩子|儿子|女儿|宝宝|小孩|年龄|今年)[^0-9。！？；\n]{0,4})"
    r"(?:\d+\s*(?:,|and|&|、|和|或)\s*)*\Z",
    F,
)
MAX_AGE = 120
# What someone is, said with an article: an elite tier ("I'm a 1K", United's top status) or a
# kind of traveller ("I'm a 10K runner"), not an amount of theirs.
KIND_BEFORE = re.compile(r"(?<![a-z])(?:i'?m|i\s+am|she'?s|he'?s)\s+an?\s+\Z", F)


def is_age(text: str, start: int, number: str) -> bool:
    """Whether the bare number at `start` is someone's age: said as one, and one a person
    can have ("my dad said 250 was enough" is no age)."""
    digits = number.replace(",", "")
    first = _FIRST_OF_RANGE.match(digits)  # "ages 6 to 14": the range's first age
    if first is not None:
        digits = first.group(1)
    if not digits.isdigit() or int(digits) > MAX_AGE:
        return False
    if AGE_ZH_BEFORE.search(text, max(0, start - 12), start) and AGE_ZH_AFTER.match(
        text, start + len(number)
    ):
        return True
    return AGE.search(text, max(0, start - 40), start) is not None


# Round 25: a person and a number said to be reached ("爷爷81了", "我妈都83了", "老伴七十多了"):
# an age; "房费83了" names no one.
AGE_ZH_BEFORE = re.compile(
    r"(?:爷爷|奶奶|姥姥|姥爷|外公|外婆|爸爸?|妈妈?|老爸|老妈|父亲|母亲|老伴|老公|老婆|公公|婆婆|岳父"
    r"|岳母|老人家?|老爷子|老太太|儿子|女儿|闺女|孩子|我|他|她)(?:今年|都|已经|也|才|快|就)*\s*\Z"
)
AGE_ZH_AFTER = re.compile(r"\s*(?:多|来)?(?:了|出头)")


_FIRST_OF_RANGE = re.compile(r"(\d{1,3})\s*(?:~|-|to|至|到)\s*\d{1,3}\Z")


# Round 22: 高 of a word that is no height (高雄, 高铁/高鐵, 高速, 高档, 高端, 高级, 高价, 高峰期)
# is not one ("高鐵台北到高雄1490" is a fare).
HEIGHT = re.compile(
    r"(?:身高|个子|height|tall|高(?!雄|铁|鐵|速|档|檔|端|级|級|价|價|峰期))\s*[^0-9]{0,4}\Z", F
)
# A unit right before the digits: the second half of "7点05", "1米85", "3月12".
UNIT_BEFORE = re.compile(r"(?:点|时|分|号|月|年|米|公里|岁|楼|层|排)\s*\Z")
SMALL_TIME_BEFORE = re.compile(
    r"(?<![a-z])(?:at|by|until|till|before|after|around|from|past|between)\s+(?:\d{1,2}\s*"
    r"(?:and|to|-|till|until)\s*)?\Z",
    F,
)
_ANY_CLOCK = re.compile(r"(?:[01]?\d|2[0-3])[0-5]\d")
# The words before a clock time: "trains around 1430", "resets at 1200 daily".
TIME_BEFORE = re.compile(
    r"(?<![a-z])(?:around|about|at|after|before|by|from|until|till|between|and|earliest"
    r"|latest|resets?)\s*\Z",
    F,
)
TIME_WORDS = re.compile(
    r"(?<![a-z])(?:leave|leaving|depart[a-z]*|arriv[a-z]*|land[a-z]*|wake|flights?|trains?"
    r"|pick-?ups?|check-?(?:in|out)|meet[a-z]*|o'?clock|a\.?m|p\.?m|morning|evening|tonight"
    r"|noon|return|returning|back|outbound|inbound|departure)(?![a-z])"
    r"|起飞|出发|到达|落地|航班|高铁|火车|动车|早上|晚上|下午|上午|中午|回程|返程|去程",
    F,
)
AIRCRAFT_WORDS = re.compile(
    r"(?<![a-z])(?:boeing|airbus|plane|aircraft|jet|max|neo|dreamliner|the|a|an|on|fly|flying)"
    r"(?![a-z])|坐|飞|机型|飞机|客机",
    F,
)
# An airline's code or name, or a train's letter, written apart from the number.
FLIGHT_BEFORE = re.compile(
    r"(?-i:(?<![A-Za-z])(?:[A-Z][A-Z0-9]|[A-Z0-9][A-Z])\s|(?<![A-Za-z])[GDCZTKYL]\s)\Z"
    r"|(?<![a-z])(?:united|delta|american|lufthansa|cathay|emirates|qatar|ana|jal|klm|eva"
    r"|air\s+(?:france|china|canada|india)|british\s+airways|singapore|china\s+(?:eastern"
    r"|southern)|hainan|qantas|flight|flights|train|trains|ice|tgv|ave|ktx|thsr|eurostar|amtrak"
    r"|acela|shinkansen|nozomi|hikari|kodama|frecciarossa|railjet|thalys|express|nightjet"
    r"|intercity|eurocity|ouigo|avlo|sapsan|allegro)\s*\Z",
    F,
)
ROAD_AFTER = re.compile(
    r"\s*(?:freeway|highway|expressway|motorway|interstate|road|line)(?![a-z])"
    r"|\s*(?:国道|省道|高速|公路|号公路|号线|路|环)",
    F,
)
SOFT_PLACE_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:zip|postcode|postal\s+code|fortune|s&p|ftse|dow|nasdaq|nikkei|top|channel"
    r"|apartment|apt|iphone|pixel|galaxy|windows|ios|android|ipad|gen|generation|series|mark"
    r"|interstate|highway|route|road|line|bus|tram|city|town|village|island|destination|location"
    r"|place|spot|stop|station|site|venue|office|campus|region|province|state|county|sector"
    r"|section|option|choice|item|case|leg|segment|round|episode|season|edition|volume|issue"
    r"|part|plan|trip|tour|visit|meeting|event|conference|batch|team|group|class|grade|type"
    r"|category|rank|ranked)(?![a-z])|邮编|第|号线)\s*#?\s*\Z",
    F,
)
# Round 16: more things numbered to be found ("hole 18", "table 21", "locker 14", "pier 39"),
# and a sunscreen's factor ("factor 50", "SPF 30"),
# for numbers below 100 only: these words are also said with a price ("the table 300 minimum
# spend"), and things with a price of their own (beds, cabins, boxes, seats at a stadium)
# are not among them.
NUMBERED_BEFORE = re.compile(
    r"(?<![a-z])(?:hole|table|locker|lot|camp|hangar|window|queue|lane|checkpoint|junction"
    r"|marker|post|bay|stand|trolley|shuttle|metro|subway|ferry|boat|exit|pier|dock|wharf"
    r"|jetty|quay|level|ward|portal|door|wing|plot|pitch|mooring|pontoon|slip|spf|factor)(?![a-z])"
    r"\s*#?\s*\Z",
    F,
)


def small_numbered(text: str, start: int, number: str) -> bool:
    """A number below 100 after a thing numbered to be found (`NUMBERED_BEFORE`)."""
    digits = number.replace(",", "")
    if not digits.isdigit() or int(digits) >= 100:
        return False
    return NUMBERED_BEFORE.search(text, max(0, start - 40), start) is not None


BALANCE_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:points?|miles|avios|balance|status|tier|elite|level|credits?\s+left)"
    r"(?![a-z])|积分|里程|会员等级)[^0-9。.!?]{0,12}\Z",
    F,
)
STATUS_AFTER = re.compile(
    r"\s*(?:status|tier|elite|member|level)(?![a-z])|\s*(?:会员|级)"
    r"|\s*[^\x00-\x7f]{0,4}(?:积分|里程|点数)",  # "12万万豪积分"
    F,
)
SPEED_BEFORE = re.compile(
    r"(?:时速|限速|速度|(?<![a-z])(?:speed|velocity)(?![a-z]))[^0-9]{0,10}\Z", F
)
WEIGHT_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:baggage|luggage|bags?|suitcases?|carry-?ons?|checked|weight)(?![a-z])"
    r"|行李|箱子|托运)[^0-9.!?;。！？\n]{0,20}\Z",
    F,
)
TEMPERATURE_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:temperature|thermostat|a/?c|aircon|heating)(?![a-z])|空调|温度|室温)"
    r"[^0-9]{0,8}\Z",
    F,
)
PART_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:starts?|begins?|ends?|starting|ending|beginning)(?:\s+(?:with|in))?"
    r"(?![a-z])|开头|结尾|尾号|前几位|后几位)[^0-9]{0,6}\Z",
    F,
)
PART_AFTER = re.compile(r"\s*(?:开头|结尾|打头)")
# The next item of a list a place word opened: "seat 31A or 31K", "rooms 1204 and 1206".
PLACE_LIST = re.compile(
    r"(?<![a-z])(?:rooms?|seats?|rows?|gates?|floors?|terminals?|platforms?|cars?|coaches?"
    r"|flights?|trains?|buses|lines?)(?![a-z])\s*#?\s*[0-9a-z]{1,6}(?:\s*(?:,|/|or|and|、|或|和"
    r"|to|到|-|through|thru)\s*[0-9a-z]{1,6}){0,4}\s*(?:,|/|or|and|、|或|和|to|到|-|through"
    r"|thru)\s*\Z",
    F,
)
# A place word earlier in the clause: "rooms in the 30 range", "the room was 1208"; an
# airline's code and its list: "CX 300 or 302".
PLACE_NEAR = re.compile(
    r"(?:(?<![a-z])(?:rooms?|seats?|rows?|floors?|gates?|platforms?|terminals?|carriages?"
    r"|coaches?|exits?|piers?|docks?|tracks?|carousels?|(?:shoe|dress|shirt|ring)\s+sizes?"
    r"|sizes?)(?![a-z])|房间|座位|楼层|登机口|站台|鞋码|尺码|码数)[^0-9.!?;。！？；\n]{0,20}\Z"
    r"|(?-i:(?<![A-Za-z])[A-Z][A-Z0-9]\s?\d{1,4})\s*(?:,|/|or|and|、|或|和)\s*\Z",
    F,
)
COUNT_LATER = re.compile(
    r"[^0-9.!?;。！？；\n]{0,30}?(?:(?<![a-z])(?:people|persons?|guests?|pax|of\s+us|adults?"
    r"|kids|children|visits?|times)(?![a-z])|人|位)",
    F,
)
FREQUENCY_AFTER = re.compile(
    r"\s*(?:times?\s+)?(?:a|per|each|every|/)\s*(?:year|month|week|yr|mo)(?![a-z])"
    r"|\s*(?:次)?(?:一年|每年|一个月|每月|每周)",
    F,
)


# A label of an identifier before it: "my mobile is 139", "卡号6222": the identifier rules
# judge it (a lone piece is no one's number; pieces together are, in `memory.privacy.guard`).
IDENTIFIER_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:phone|mobile|cell|tel|number|no\.|card|passport|id|account|member(?:ship)?"
    r"|pin|code|ext|extension)(?![a-z])|手机|电话|号码|卡号|身份证|护照|证件|账号|会员)"
    r"[^0-9.!?;。！？\n]{0,16}\Z",
    F,
)
# A group and its size: "team of 12", "party of 5" ("a total of 500" is no group).
GROUP_OF = re.compile(
    r"(?<![a-z])(?:team|group|party|family|crew|delegation|class|band|tour\s+group|squad)"
    r"\s+of\s+(?:about\s+|around\s+|roughly\s+|up\s+to\s+)?\Z",
    F,
)
# Round 16: a service numbered and where it goes: "Nightjet 466 to Zurich", "466去苏黎世";
# a price goes after the place ("Thalys to Amsterdam 59").
DESTINATION_AFTER = re.compile(
    r"\s+(?:to|towards|bound\s+for)\s+(?-i:[A-Z])|\s*(?:去|开往|开去|飞往|往)[\u4e00-\u9fff]", F
)
# A race is a distance: "I run a 10K", "the 5k loop", "a half marathon".
RACE_BEFORE = re.compile(
    r"(?<![a-z])(?:run|runs|ran|running|race|races|racing|jog|jogs|jogging|do|did|doing|finished"
    r"|training\s+for|train\s+for)\s+(?:a|an|the|my|our|one|that)?\s*\Z",
    F,
)
RACE_AFTER = re.compile(r"\s*(?:runs?|races?|loops?|route|trail|course|fun\s+run)(?![a-z])", F)
_KILO = re.compile(r"\d{1,2}\s?k\Z", re.IGNORECASE)
# The next item of a contrast or a list after a number something explained: "take the 101
# Freeway, not the 405", "the A350 rather than the 777".
PARALLEL_BEFORE = re.compile(
    r"(?:[,;]\s*)?(?<![a-z])(?:not|or|and|than|vs\.?|versus|instead\s+of|rather\s+than|over|nor"
    r"|then|(?:and\s+)?then\s+change\s+to)"
    r"\s+(?:the\s+|a\s+|an\s+)?\Z|(?:不是|而不是|或者?|和|比|不坐|不走)\s*\Z",
    F,
)
# A route or an aircraft said with "the" that does what a vehicle does: "the 44 goes up the
# hill", "the 38 stops by the hotel".
ROUTE_VERB_AFTER = re.compile(
    r"\s+(?:goes|go|runs|run|stops|stop|leaves|departs|heads|loops|climbs|winds|comes|gets\s+you"
    r"|takes\s+you|will\s+take\s+you|drops\s+you|passes|connects|links|terminates|arrives)(?![a-z])",
    F,
)
THE_BEFORE = re.compile(r"(?<![a-z])the\s+\Z", F)
# A count of things: a plural noun right after the number ("100 parkruns", "50 states"), or
# a part of a count ("12 of the 20 stages"). Money words in the plural are read before this
# (`money.EXPLICIT`: dollars, euros, bucks, quid, rupees...).
_NOT_NOUNS = (
    r"always|perhaps|towards?|afterwards|besides|sometimes|plus|less|unless|across|yes|this"
    r"|thus|does|was|has|its|his|hers|ours|yours|theirs|upwards|backwards|downwards|extras?"
    r"|bucks|dollars|euros|pounds|quid|cents|pence|rupees|pesos|francs|bills|notes|grand|tops"
    r"|credits|vouchers|coupons|tips|fees|fares|rates|prices|costs|payments|refunds"
)
PLURAL_AFTER = re.compile(
    rf"\s+(?!(?:{_NOT_NOUNS})(?![a-z]))[a-z]{{2,}}(?<![su])s(?![a-z'])"
    r"|\s+of\s+(?:the|my|our|their|all|those|these)\s+\d+\s+[a-z]{3,}s(?![a-z])"
    # Round 25: a kind of day, night or hour counted ("45 vacation days", "12 hotel nights")
    r"|\s+[a-z]{3,}(?:-[a-z]+)?\s+(?:days|nights|weeks|months|hours|minutes|miles|kms?|points|stops)(?![a-z])",
    F,
)
_PREVIOUS_NUMBER = re.compile(r"(?<![0-9a-z.])\d+(?:\.\d+)?(?![0-9])", F)
_GROUP_BEFORE = re.compile(r"\d[ \-_/]{1,3}\Z")
_GROUP_AFTER = re.compile(r"[ \-_/]{1,3}\d")
_BEFORE = (
    KIND_BEFORE,
    HEIGHT,
    UNIT_BEFORE,
    FLIGHT_BEFORE,
    SOFT_PLACE_BEFORE,
    BALANCE_BEFORE,
    SPEED_BEFORE,
    TEMPERATURE_BEFORE,
    PART_BEFORE,
    PLACE_LIST,
    PLACE_NEAR,
    IDENTIFIER_BEFORE,
    GROUP_OF,
)
_AFTER = (ROAD_AFTER, STATUS_AFTER, PART_AFTER, COUNT_LATER, FREQUENCY_AFTER)
# What numbers a service before a destination: its name or "the" ("Nightjet 466 to Zurich",
# "the 466 to Zurich"); "老板批了两千五去东京" is money approved for a trip.
NAMED_BEFORE = re.compile(r"(?<![a-z])(?:[a-z]{2,}|the)\s*\Z", F)


def explained(text: str, start: int, end: int, number: str) -> bool:
    """Whether what stands around the bare number text[start:end] says what it is, other
    than money (see the module docstring)."""
    low = max(0, start - 40)
    digits = number.replace(",", "")
    value = float(digits) if digits.replace(".", "", 1).isdigit() else None
    if (YEAR.fullmatch(digits) and not text[end : end + 1].isdigit()) or (
        value is not None and "." in digits and value < 10
    ):
        return True  # a year; a rating such as 4.5
    if value is not None and value <= 24 and SMALL_TIME_BEFORE.search(text, low, start):
        return True
    if _ANY_CLOCK.fullmatch(digits) and TIME_WORDS.search(text, low, min(len(text), end + 30)):
        return True
    if digits in AIRCRAFT_TYPES and AIRCRAFT_WORDS.search(text, max(0, start - 12), start):
        return True
    if _GROUP_BEFORE.search(text, max(0, start - 4), start) or _GROUP_AFTER.match(text, end):
        return True  # a group of a longer number ("138 00", "4111 11"): the identifier rules'
    if value is not None and value < 100 and WEIGHT_BEFORE.search(text, low, start):
        return True  # kilograms of luggage
    before = any(pattern.search(text, low, start) for pattern in _BEFORE)
    before = before or is_age(text, start, number) or small_numbered(text, start, number)
    if before or any(pattern.match(text, end) for pattern in _AFTER):
        return True
    if more_roles(text, start, end, value):
        return True
    if DESTINATION_AFTER.match(text, end) and NAMED_BEFORE.search(text, low, start):
        return True  # "Nightjet 466 to Zurich", "Nightjet 466去苏黎世"
    if PLURAL_AFTER.match(text, end) or (
        THE_BEFORE.search(text, low, start) and ROUTE_VERB_AFTER.match(text, end)
    ):
        return True  # "100 parkruns", "12 of the 20 stages"; "the 44 goes up the hill"
    if _KILO.fullmatch(number) and (
        RACE_BEFORE.search(text, low, start) or RACE_AFTER.match(text, end)
    ):
        return True  # a race: "I run a 10K most mornings"
    return _parallel(text, start)


def _parallel(text: str, start: int) -> bool:
    """The number stands in a contrast or a list with the number before it, and that one is
    explained as something else: "the 101 Freeway, not the 405"."""
    low = max(0, start - 40)
    joint = PARALLEL_BEFORE.search(text, low, start)
    if joint is None:
        return False
    numbers = list(_PREVIOUS_NUMBER.finditer(text, low, joint.start()))
    previous = numbers[-1] if numbers else None
    if previous is None or text[previous.end() : joint.start()].strip(" ,;").count(" ") > 4:
        return False
    return explained(text, previous.start(), previous.end(), previous.group())


__all__ = ["FLIGHT_BEFORE", "TIME_BEFORE", "explained", "is_age"]
