"""Exact amounts of money, as the privacy guard finds them in normalised text.

An amount is a number with a currency ("¥3000", "800 dollars", "1200刀", "伍佰元"), or a
bare number a price stands around: a money word before it ("预算：3000", "budget of 800",
"房价 800"), a rate ("人均300", "每晚:800", "per night about 450", "800/晚", "600 a night"),
a priced thing ("3000以内的酒店", "hotels under 800", "酒店不超过800"). Number words are
digits by now ("a grand" is 1000, "一万二" 12000), so they need no rules of their own.

Numbers that count something else pass: durations, distances, sizes ("25 square meters",
"30平米"), weights, ratings ("评分不低于4.7"), stars, floors, rows, people, nights, points,
times ("flights around 0900", "trains around 1430").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from memory.privacy.chat_prices import aged, chat_price, range_owner, ranges
from memory.privacy.measures import daily_distance, height_cap
from memory.privacy.prices import PLACE_BEFORE, priced
from memory.privacy.readings import not_money
from memory.privacy.reports import YUAN_JIAO, reported_price
from memory.privacy.roles import TIME_BEFORE, small_numbered
from memory.privacy.small_amounts import SINGLE_ZH_PAID, one_digit_amount
from memory.privacy.vocabulary import (
    ADMISSIONS,
    CLOCK,
    PAYERS,
    PER_WORD,
    POSITIONS,
    zero_led_time,
)
from memory.privacy.zh_scales import THING_ZH, scaled

F = re.ASCII | re.IGNORECASE

_NUM = (
    r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
    r"(?:\s?(?:k|w|hundred|thousand|grand|千|万|百)(?![a-z]))?"
)
# ranges: "500-800", "两千到三千", "3-4k"
_TO = (
    r"(?:\s*(?:~|to|至|到)\s*|-(?=\d{3}|\d{1,3}(?:\.\d+)?\s?[kw千万](?![a-z])"
    # two-digit ranges priced by a rate: "25-30 a night", "40-50/day"
    r"|\d{2}(?![0-9])\s*(?:(?:a|an|per|each|every)\s+|/\s*)(?:night|day|person|head|meal)"
    r"(?![a-z])))"
)
_AMOUNT = rf"{_NUM}(?:{_TO}{_NUM})?"
# Single Chinese numerals are left as written by normalisation ("三元桥" is a place); the
# formal ones are written almost only for money ("伍元"), and so are "百元", "千元".
_ZH_SINGLE = "壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬百千万"

_CODES = r"rmb|cny|usd|eur|gbp|jpy|hkd|sgd|aud|cad|twd|krw|thb|chf|myr|inr"
# Codes and names of other currencies, read after a number only ("3000 baht", "25000 won").
_OTHER_MONEY = (
    r"ntd|mop|vnd|idr|aed|sar|rub|brl|mxn|zar|nzd|sek|nok|dkk|pln|huf|czk|ils|egp|pkr|lkr|bdt"
    r"|qar|kwd|php|baht|won|dong|rupees?|rupiah|ringgit|pesos?|lira|liras|rand|dirhams?|riyals?"
    r"|francs?|krona|kronor|kroner|krone|zloty|forint|shekels?|rubles?|roubles?|dinars?|renminbi"
    r"|pesetas?|clams|smackers|cash"
)
_CUR_BEFORE = (
    rf"(?:(?<![a-z])[a-z]{{1,2}}\$|[¥$€£₩₹]|(?<![a-z])(?:{_CODES})(?![a-z])"
    r"|人民币|美元|美金|欧元|港币|(?:新)?台币|日币|日圆|韩币|韩元|泰铢|新币|澳币|加币|马币|英镑)"
)
_CUR_AFTER = (
    r"(?:元(?!旦)|圆|块(?:钱)?(?!儿)|刀(?!叉)|美刀|人民币|美元|美金|欧元?(?![洲美])|英镑|镑|日元"
    r"|港币|港元|澳元|加元|大洋|rmb|(?:新)?台币|日币|日圆|韩币|韩元|泰铢|新币|澳币|加币|马币"
    rf"|(?<![a-z])(?:{_CODES}|yuan|kuai|dollars?|bucks|quid|euros?|yen|pounds?(?:\s+sterling)?"
    r"|bills|蚊|大洋)(?![a-z])"
    rf"|\s?(?:in\s+)?(?<![a-z])(?:{_OTHER_MONEY})(?![a-z])|[,.]-(?![0-9])"
    r"|卢比|林吉特|越南盾|印尼盾|比索|披索|里拉|卢布|迪拉姆|里亚尔|法郎|克朗|澳门币|澳门元|葡币|兰特"
    r"|雷亚尔|第纳尔|先令|软妹币|现金)"
)
# A currency or a multiplier right after a number ("十五 美元", "三十k", "二十万"): what makes a
# number said like a calendar day money (`memory.privacy.calendar`).
CURRENCY_AFTER = re.compile(rf"\s*(?:多|来|余|几)?(?:{_CUR_AFTER}|[kw万千百](?![a-z]))", F)
EXPLICIT = re.compile(
    rf"{_CUR_BEFORE}\s?(?:{_AMOUNT})"
    rf"|(?<![0-9a-z.,])(?:{_AMOUNT}|[{_ZH_SINGLE}])[\s\-]?(?:多|来|余|几)?{_CUR_AFTER}"
    rf"|(?<![0-9a-z.,])(?:{_AMOUNT})\s?[¥$€£₩₹]",
    F,
)
# A number not inside another one or a time ("21:30"), and not right after a letter ("300ish"
# is 300); after a comma only where a clause ends ("报销款到了，1340", not "1,340").
CANDIDATE = re.compile(
    rf"(?<![0-9a-z./\-])(?<![0-9a-z.],)(?<!\d:)(?:{_AMOUNT})"
    r"(?=-?ish(?![a-z])|p{1,3}n?(?![a-z])|(?![0-9a-z]))",  # "95pp" is 95 a person
    F,
)
# A number followed by one of these counts something other than money.
NOT_MONEY = re.compile(
    r"\+?[\s\-]?(?:%|percent|pct|°|degrees?|h|hrs?|hours?|mins?|minutes?|secs?"
    r"|seconds?(?!\s+class)|am|pm|a\.m"
    r"|p\.m|km|kms|m|m2|mi|miles?|meters?|metres?|yards?|feet|ft|sq|sqm|sqft|square|cm|inch(?:es)?"
    r"|kg|kilos?|kilograms?|lbs?|g|gb|stars?|th|st|nd|rd|nights?|days?|weeks?|months?"
    r"|years?|times?|people|persons?|pax|guests?|adults?|kids?|children|pieces?|bags?|stops?"
    r"|transfers?|connections?|layovers?|legs?|segments?|floors?|rows?|seats?|rooms?|beds?"
    r"|steps?|points?|pts|x|visits?|trips?|flights?|trains?|hotels?|cities|countries|stays"
    r"|bookings?|cars?|items?|calls?|meetings?|colleagues?|members?|mah|ml|w|kw|mbps|hz|lines?"
    r"|words?|pages?|photos?|emails?|laps?|reps?|cups?|bottles?|mb|tb|inch|★|☆|score|rating|bus|tram|ferry"
    r"|reviews?|comments?|ratings|votes?|grams?|kph|mph|db|decibels?|characters?|chars?|weekends?"
    r"|wide|long|tall|high|deep|thick|strong"
    r"|run|race|marathon|tv|video|screen|monitor|resolution|dpi|lux"
    r"|avios|mqms?|xp|kcal|calories|o'?clock|legs?|cars?|seaters?|berths?|holes?)"
    r"(?![a-z])|[:/.]\d|-\d{1,2}(?!\d)"
    r"|\s?(?:多|余|来|几)?(?:分钟|分|秒|小时|个|天|日(?![租薪])|号|月(?![租薪])|年(?![租薪])|周(?![末租薪])|星期|晚|夜|点|时|次|人|位|件|箱"
    r"|张|间|层|楼|站|公斤|千克|斤|串|碗|盘|罐|碟|公里|千米|米|平|星|岁|倍|度|条|排|步|段|积分|里程|寸|厘米|公分|趟"
    r"|家|座|所|辆|班|架|轮|顿|杯|瓶|份|本|页|封|首|场|届|圈|遍|口|只|双|套|台|部|款|种|类|项|回(?!来)"
    r"|批|列|节|车厢|号线|路(?!费)|毫升|升(?![舱级])|瓦|兆|码|篇|跳|分之|号?房(?![费价补租])|★|车(?![费钱票])|折|名|洞"
    r"|舱(?![费价位]))",
    F,
)
_GAP = r"[^0-9,.;!?。、\n]"  # stays within one clause and before the first number
_MONEY_WORDS = (
    r"(?:(?<![a-z])(?:budget|price[sd]?|pricing|costs?|fares?|rates?|spend(?:ing)?|allowance"
    r"|per\s+diem|reimburs[a-z]*|expenses?|pay(?:ing)?|cap|tariff|salary|salaries|income"
    r"|wages?|earn(?:s|ing|ings)?|paid|deposit|fees?|stipend|subsid(?:y|ies)|bonus(?:es)?"
    r"|commission|take-?home|pay\s?check|pay\s?cheque|hourly\s+rate|day\s+rate|daily\s+rate"
    r"|ctc|(?:annual|comp(?:ensation)?|salary|pay|total)\s+package|total|subtotal|refunds?"
    r"|rebates?|cashback|vouchers?|coupons?|(?:travel\s+|store\s+|airline\s+)?credits?"
    r"|penalt(?:y|ies)|tolls?|surcharges?|(?:service\s+)?charges?|tax(?:es)?|vat|minibar|cash"
    r"|worth|ceiling|quotes?|raise|pay\s+rise|rent(?!\s+(?:a|an|the|out|some|\d))|mortgage|(?:daily|spending|expense|budget|meal|trip"
    r"|per-day|card)\s+limits?|(?<!speed\s)(?<!weight\s)(?<!age\s)(?<!height\s)(?<!size\s)"
    r"(?<!baggage\s)(?<!luggage\s)(?<!bag\s)(?<!time\s)(?<!data\s)(?<!word\s)(?<!road\s)"
    r"(?<!motorway\s)(?<!highway\s)(?<!freeway\s)(?<!autobahn\s)limit)(?![a-z])"
    r"|预算|价格|价位|价钱|房价|票价|费用|花费|开销|报销|差标|住宿标准|差旅标准|住宿费|消费"
    r"|月薪|年薪|工资|收入|薪水|薪资|底薪|押金|定金|订金|房费|补贴|补助|津贴|餐补|差补|日补|房补"
    r"|车补|饭补|餐标|奖金|年终奖|提成|分红|绩效|薪酬|年包|到手|税后|税前|时薪|日薪|周薪|月入"
    r"|年入|工钱|劳务费|月收入|年收入|挣|赚|涨薪|加薪|退款|差价|红包|现金|报价|充值|转账|小费"
    r"|房租|租金|月租|周租|日租|年租|房贷"
    r"|[\u4e00-\u9fff]{1,3}费(?!用户)"
    r"|单价|均价|限额|额度|上限(?!速)|标准|钱(?!包))"
)
MONEY_WORD = re.compile(_MONEY_WORDS, F)
MONEY_BEFORE = re.compile(rf"{_MONEY_WORDS}{_GAP}{{0,24}}\Z", F)
# "人均300", "每晚不超过600", "per person 300", "a night about 500": a rate right before the
# number, with at most a few words of limit or approximation between them.
PER_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:per\s+(?:person|head|night|room|meal|day|diem|trip|ticket)|a\s+night"
    r"|each\s+night|nightly)(?![a-z])|人均|每人|每晚|一晚|每夜|每间(?:房)?|每天|每餐|每张)"
    r"\s*(?:(?:is|of|about|around|roughly|under|below|max(?:imum)?|up\s+to|at\s+most"
    r"|no\s+more\s+than|less\s+than|not\s+over|:|=|约|大约|大概|差不多|在|是|为|不超过|不高于"
    r"|低于|少于|最多|最高|控制在|消费|别超过|不要超过|不能超过|超过|上限|不到|不足|顶多|至多"
    r"|封顶)\s*)*\Z",
    F,
)
PER_AFTER = re.compile(
    r"\s*(?:(?:range|or\s+so|-?ish|tops|max(?:imum)?|at\s+most|or\s+less|or\s+under|and\s+under)"
    rf"\s*)?(?:{PER_WORD}\s*(?:{PAYERS}|{ADMISSIONS}|night|room|day|trip|meal|mile|km)"
    r"|nightly)(?![a-z])"
    r"|\s*(?:每|一|/)(?:晚|间|张|人|位|天|夜|餐|件|趟)|\s*人均",
    F,
)
# "三千预算", "3000 budget"; but "20 budget hotels" are cheap hotels, not a price.
MONEY_AFTER = re.compile(
    r"\s*的?(?:预算|经费|房费|差标)"
    r"|\s*(?:(?:flight|hotel|travel|trip|meal|food|taxi|cab|lodging|accommodation|airfare"
    r"|monthly|weekly|daily|nightly|total|overall)\s+)?budget(?![a-z])(?!\s+(?:hotels?|airlines?|carriers?|chains?|brands?|options?|rooms?"
    r"|stays?|flights?|travel|inns?|hostels?|accommodation)(?![a-z]))",
    F,
)
_LIMIT_ZH = "(?:以内|以下|之内|左右|上下|封顶)"
THING_AFTER = re.compile(f"(?:{_LIMIT_ZH}|内)的?{THING_ZH}")
THING_BEFORE_ZH = re.compile(rf"(?:{THING_ZH}|住的?){_GAP}{{0,8}}\Z")
CAP_BEFORE_ZH = re.compile(
    r"(?:不超过|不高于|(?<!不)低于|少于|最多|最高|控制在|别超过|不到|≤|<=?)"
    r"(?:能|可以|愿意|肯)?(?:报|花|给|付|出|订|到)?\s*\Z"
)
LIMIT_AFTER_ZH = re.compile(rf"\s?{_LIMIT_ZH}")
# "高铁二等座能接受，最多六百": a cap on a number of hundreds, in a sentence about a priced
# thing, across its commas.
THING_IN_SENTENCE_ZH = re.compile(
    rf"(?:{THING_ZH}|高铁|动车|火车|航班|飞机|座|舱|住)[^。！？!?;\n]{{0,30}}\Z"
)
# "hotels under 800", "fares below 3000"; "around"/"about" only for things without a time,
# so "flights around 0900" is a time.
_THINGS_EN = (
    r"hotels?|rooms?|tickets?|fares?|flights?|trains?|stays?|accommodation|trips?|taxis?|cabs?"
    r"|ubers?|meals?|dinners?|lunch(?:es)?|breakfasts?"
)
_CAPS_EN = (
    r"under|below|less\s+than|cheaper\s+than|up\s+to|at\s+most|max(?:imum)?|no\s+more\s+than"
    r"|not\s+over|within|<=?|≤"
)
THING_BEFORE_EN = re.compile(
    rf"(?<![a-z])(?:{_THINGS_EN})(?![a-z]){_GAP}{{0,20}}?(?<![a-z])(?:{_CAPS_EN})\s*\Z",
    F,
)
# "under 2k for the flight", "max 800 on the hotel": the cap first, the thing after.
CAP_BEFORE_EN = re.compile(rf"(?<![a-z])(?:{_CAPS_EN})\s*\Z", F)
_FOR_THE = r"\s*(?:for|on)\s+(?:(?:the|a|an|my|each|every|one|per|any|whole|entire|total)\s+){0,2}"
THING_AFTER_EN = re.compile(rf"{_FOR_THE}(?:{_THINGS_EN})(?![a-z])", F)
# "approx 1500 for the whole trip": an approximation, for a thing that has no clock time.
APPROX_BEFORE_EN = re.compile(
    r"(?<![a-z])(?:approx(?:imately)?|about|around|roughly|~|circa|ca)\.?\s*\Z", F
)
UNTIMED_AFTER_EN = re.compile(
    rf"{_FOR_THE}(?:trips?|hotels?|rooms?|stays?|accommodation|meals?|dinners?)(?![a-z])", F
)
ABOUT_BEFORE_EN = re.compile(
    rf"(?<![a-z])(?:hotels?|rooms?|stays?|accommodation|fares?|tickets?)(?![a-z]){_GAP}{{0,20}}?"
    r"(?<![a-z])(?:around|about|approximately)\s*\Z",
    F,
)
# A score, not a price: "评分不低于4.7", "rated 8.5".
RATING_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:rating|rated|score|reviews?|stars?|aqi|index|pm\s?2\.?5|level)(?![a-z])"
    r"|评分|评价|打分|分数|星级|指数|空气质量|数量|人数|次数|房间数|步数|[^\x00-\x7f]数"
    r"|(?<![a-z])(?:number|no\.)\s+of(?![a-z]))"
    rf"{_GAP}{{0,12}}\Z",
    F,
)
# "trains around 1430", "flights between 0800 and 1100": a clock time after a time word,
# in a clause about travelling and not about money.
TIME_NOUN = re.compile(
    r"(?<![a-z])(?:flights?|trains?|depart[a-z]*|arriv[a-z]*|leav[a-z]*|land[a-z]*|take\s*off"
    r"|wake|pick-?ups?|check-?(?:in|out)|meetings?|bus(?:es)?|ferry|ferries)(?![a-z])"
    r"|起飞|出发|到达|航班|高铁|火车|动车",
    F,
)


# A number alone in its clause, after a clause about money: "报销款到了，1340".
LONE_AFTER_MONEY = re.compile(rf"{_MONEY_WORDS}[^0-9.;!?\n]{{0,16}}[,:]\s*\Z", F)
CLAUSE_END = re.compile(r"\s*(?:块|元)?\s*(?:[,.;!?]|\Z)")


# Round 16: a position named right before the number owns it, whatever money word stands
# earlier in the clause ("I paid for seat 12 last time" is a seat; "budget: 800" is money).
POSITION_RIGHT_BEFORE = re.compile(
    rf"(?<![a-z])(?:{POSITIONS}|cabin|carriage|coach|car|dock)\s*(?:no\.?|number|#)?\s*\Z",
    F,
)


def _money_context(text: str, start: int, end: int) -> bool:
    """Whether the bare number at text[start:end] reads as a price."""
    low = max(0, start - 40)
    return bool(
        (LONE_AFTER_MONEY.search(text, low, start) and CLAUSE_END.match(text, end))
        or (  # "预算3000", "budget of 800"; "paid for seat 12" is a seat
            MONEY_BEFORE.search(text, low, start)
            and not POSITION_RIGHT_BEFORE.search(text, low, start)
        )
        or PER_BEFORE.search(text, low, start)  # "人均300", "per night 600"
        or (PER_AFTER.match(text, end) and not how_often(text, start, end))  # "800 a night"
        or MONEY_AFTER.match(text, end)  # "三千预算", "3000 budget"
        or THING_AFTER.match(text, end)  # "3000以内的酒店"
        or THING_BEFORE_EN.search(text, low, start)  # "hotels under 800"
        or ABOUT_BEFORE_EN.search(text, low, start)  # "hotels around 900"
        or (THING_AFTER_EN.match(text, end) and CAP_BEFORE_EN.search(text, low, start))
        or (
            _hundreds(text[start:end])  # "approx 1500 for the whole trip"
            and UNTIMED_AFTER_EN.match(text, end) is not None
            and APPROX_BEFORE_EN.search(text, low, start) is not None
        )
        or (
            THING_BEFORE_ZH.search(text, low, start)  # "酒店不超过800", "机票1500以内"
            and (CAP_BEFORE_ZH.search(text, low, start) or LIMIT_AFTER_ZH.match(text, end))
        )
        or (
            _hundreds(text[start:end])  # "高铁二等座能接受，最多六百"
            and CAP_BEFORE_ZH.search(text, low, start) is not None
            and THING_IN_SENTENCE_ZH.search(text, low, start) is not None
        )
    )


# Round 17: "every night" after a number a place or a numbered thing owns says how often, not
# what it costs: "table 21 every night", "bus 14 every morning", "gate 5 every time".
EVERY_AFTER = re.compile(r"\s*every(?![a-z])", F)


def how_often(text: str, start: int, end: int) -> bool:
    if EVERY_AFTER.match(text, end) is None:
        return False
    low = max(0, start - 40)
    number = text[start:end]
    return bool(PLACE_BEFORE.search(text, low, start) or small_numbered(text, start, number))


def _over(number: str, limit: int) -> bool:
    digits = number.replace(",", "")
    return not digits.isdigit() or int(digits) > limit


def _hundreds(number: str) -> bool:
    return sum(ch.isdigit() for ch in number) >= 3 or not number[-1].isdigit()


# "200多点" is a little over 200: 点 is a clock's only up to 24.
_BIT_MORE = re.compile(r"\s?多点")


def _not_money(text: str, start: int, end: int, number: str) -> bool:
    low = max(0, start - 30)
    counted = NOT_MONEY.match(text, end)
    if counted is not None and _BIT_MORE.fullmatch(counted.group()) and _over(number, 24):
        counted = None
    if counted is not None and MONEY_AFTER.match(text, end):
        counted = None  # "1,200 flight budget" is a budget for flights, not 1,200 flights
    return bool(
        counted
        or RATING_BEFORE.search(text, low, start)
        or zero_led_time(number)  # "0900"
        or (
            CLOCK.fullmatch(number) is not None
            and TIME_BEFORE.search(text, low, start) is not None
            and TIME_NOUN.search(text, low, start) is not None
            and MONEY_WORD.search(text, low, start) is None
        )
    )


# "Pounds" weigh where luggage is spoken of: "bags under 50 pounds".
WEIGHT = re.compile(
    r"(?<![a-z])(?:luggage|baggage|bags?|suitcases?|carry-?ons?|checked|weigh[a-z]*|kg|lbs?"
    r"|heavy|lift|dumbbells?)(?![a-z])|行李|箱",
    F,
)
_POUNDS = re.compile(r"pounds?\Z", F)


_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")


def amounts(text: str) -> Iterator[tuple[int, int]]:
    """The spans of exact amounts of money in normalised `text`."""
    yield from scaled(text)  # "三张一晚", "月入过万", "酒店大几百都行", "酒店最好别过千"
    yield from (match.span(1) for match in SINGLE_ZH_PAID.finditer(text))
    yield from (match.span() for match in YUAN_JIAO.finditer(text))  # round 27: "两块五"
    for match in EXPLICIT.finditer(text):
        start, end = match.span()
        if _POUNDS.search(match.group()) and WEIGHT.search(text, max(0, start - 40), end + 40):
            continue
        yield start, end
    found: list[tuple[int, int]] = []  # round 33 review: yielded one by one, so a caller
    for match in CANDIDATE.finditer(text):  # that stops at the first amount reads no further
        if _candidate(text, *match.span()):
            found.append(match.span())
            yield match.span()
    for start, end, upper_only, upper_end in ranges(text, found):  # round 33: "60-70"
        if _candidate(upper_only, start, upper_end, owner=range_owner):
            yield start, end


def _candidate(
    text: str, start: int, end: int, owner: Callable[[str, int, int], bool] = priced
) -> bool:
    """Whether the bare number at text[start:end] is read as money (the cheap test first)."""
    if not _WORD.search(text, max(0, start - 40), end + 40) or aged(text, start):
        return False  # no word around it: nothing says it is money; "aged 35" is an age
    number = text[start:end]
    reported = reported_price(text, start, end)  # round 27: "the cloakroom was 2"
    said = chat_price(text, start, end, number)  # round 33: "entry is 8 at each temple"
    big_enough = sum(ch.isdigit() for ch in number) >= 2 or not number[-1].isdigit()
    return bool(
        (big_enough or reported or said or one_digit_amount(text, start, end))
        and not _not_money(text, start, end, number)
        and not height_cap(text, start, end)
        and not daily_distance(text, start, end)
        and not not_money(text, start, end, number)  # round 26: "Cusco is at 3,400"
        and (reported or said or _money_context(text, start, end) or owner(text, start, end))
    )


__all__ = ["amounts", "how_often"]
