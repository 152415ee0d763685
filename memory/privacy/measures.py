"""What else a bare number is, by the words of its clause (round 17): a duration ("the drive
took 45"), an altitude ("the pass tops out at 5,416", "海拔5416"), a temperature ("it was 38 in
Seville, too hot"), a rating out of a scale ("10 out of 10"), a name ("a hotel called 1000"),
a number below zero, an interval ("every 15"), a time to get somewhere ("gets you there in
20"), a route going somewhere ("the 12 from the station gets you to the beach"), a way on foot
("the hike is 12 each way"). `memory.privacy.roles.explained` asks; only the fallback "an
unexplained number is an amount" uses it, so a cue of money beside the number still decides.
"""

from __future__ import annotations

import re

from memory.privacy.priced_things import THING_BEFORE
from memory.privacy.vocabulary import ON_FOOT, WAY_AFTER

F = re.ASCII | re.IGNORECASE
THE_BEFORE = re.compile(r"(?<![a-z])the\s+\Z", F)

# A duration: "the drive from the airport took 45", "the walk lasts 40".
DURATION_BEFORE = re.compile(
    r"(?<![a-z])(?:took|takes|take|taking|lasted|lasts|lasting)(?:\s+(?:us|me|them|about"
    r"|around|only|just|under|over|roughly|nearly|almost|maybe|barely))*\s*\Z",
    F,
)
# An altitude: "the pass tops out at 5,416", "海拔5416", "1,800 above the sea", "1,200 vertical".
ALTITUDE_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:altitude|elevation|summit|peaks?|tops?\s+out|climbs?|ascent|descent"
    r"|acclimati[sz]\w*|rises|rising|rose|drops|dropped|plunges|plunged)(?![a-z])"
    r"(?:\s*(?:of|is|was|at|about|around|roughly"
    r"|some|nearly|reaches|reaching|to|:))*\s*|(?:海拔|高度|落差|爬升)[^0-9。！？；\n]{0,4})\Z",
    F,
)
ALTITUDE_AFTER = re.compile(
    r"\s*(?:vertical|up(?!\s*front)|above\s+(?:the\s+)?sea|(?:of\s+)?(?:climb|ascent|descent|elevation"
    r"|altitude))(?![a-z])|\s*(?:的)?(?:海拔|落差|爬升)",
    F,
)
# A temperature: a number a person can feel, in a clause about weather or water ("it was 38
# in Seville, too hot", "the water was 17, too cold to swim", "塞维利亚七月38度").
WEATHER = re.compile(
    r"(?<![a-z])(?:hot|hotter|cold|colder|warm|warmer|chilly|freezing|humid|heat|heatwave"
    r"|weather|forecast|sunny|snowing|swim|swimming|celsius|fahrenheit|coat|layers|sweater"
    r"|jumper|fleece|gloves|indoors?|shade|air-?con|aircon|sweaty)(?![a-z])"
    r"|热|冷|气温|水温|温度|暖和|凉快|下雪|游泳|厚外套|羽绒服|毛衣|防晒|中暑|空调",
    F,
)
# A verb no price follows, right before the number: what a vehicle or a place holds or does,
# how far one went on foot, how late something was ("the tour bus fits 50", "the car does 120",
# "we hiked 18", "our flight was delayed 90", "晚点90"). Verbs of paying, asking, quoting,
# running (a cost) stay out: "the guide wanted 30", "it runs 45".
VERB_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:fits|fit|holds|held|seats|sleeps|carries|carried|accommodates|does|doing"
    r"|hits|hit|reaches|reached|topped|tops|delayed|waited|queued|walked|hiked|trekked|cycled"
    r"|biked|paddled|swam|climbed|descended|gusting|gusts|gusted)(?:\s+(?:about|around|only"
    r"|just|over|under|roughly|nearly|almost|easily|up\s+to|at\s+least))*"
    r"|(?<![a-z])(?:wait|waits|waiting|queue|delay|layover|stopover|connections?|wind|winds|gusts)(?:\s+time)?"
    r"(?:\s+(?:was|is|of|were|are|at|hit|reached))?(?:\s+(?:about|around|only|just|over"
    r"|under|roughly|nearly|almost|at\s+least|min(?:imum)?))*"
    r"|晚点了?|晚了|延误了?|推迟了?|提前了?|风力(?:有|达到?)?|风速(?:有|达到?)?|排队排了|等了"
    # Round 25: how long a ride or a queue went on, how fast one drove ("轮渡开了五十", "排缆车排了
    # 四十", "车开到一百二"); an invoice made out (发票开了) is money
    r"|(?<![票单据])开了|骑了|飞了|走了|排了|堵了|开到|时速|车速|限速"
    # a speed limit said in English: "the speed limit on the island is 40"
    r"|(?<![a-z])speed\s+limits?(?:\s+[a-z]+){0,4}?\s+(?:is|of|at|was|are)(?:\s+(?:about|around"
    r"|only|just))?)\s*\Z",
    F,
)
LATE_AFTER = re.compile(r"\s+(?:late|early|behind(?:\s+schedule)?)(?![a-z])", F)
# A distance between two places: "the night train covers 900 between Vienna and Rome".
COVERS_BEFORE = re.compile(
    r"(?<![a-z])(?:covers|covered|spans|spanned)\s+(?:about\s+|around\s+|roughly\s+)?\Z", F
)
BETWEEN_AFTER = re.compile(r"\s+(?:between\s|from\s+[^0-9,.;!?\n]{1,30}\s+to\s)", F)
# Below zero: "minus 20", "零下20".
BELOW_ZERO_BEFORE = re.compile(r"(?:(?<![a-z])minus|零下|负)\s*\Z", F)
# An interval: "it came every 15", "每隔20".
EVERY_BEFORE = re.compile(r"(?:(?<![a-z])every|每隔|隔)\s*\Z", F)
# A time to get somewhere: "gets you to the beach in 20", "we got there in 35".
IN_TIME_BEFORE = re.compile(
    r"(?<![a-z])(?:gets?|got|getting|takes?|took|brings?|be|are|were|was|is)\s+(?:you|us|me|them"
    r"|there|here|back)(?![a-z])[^0-9.,;!?\n]{0,30}?(?<![a-z])in\s+(?:about\s+|under\s+"
    r"|around\s+|less\s+than\s+|roughly\s+|just\s+)?\Z",
    F,
)
# A route said with "the" whose number goes somewhere, a verb of going later in the clause:
# "the 12 from the central station gets you to the beach".
ROUTE_LATER = re.compile(
    r"\s+(?:from|to|towards)\s+[^0-9.,;!?\n]{0,30}?(?<![a-z])(?:gets\s+you|takes\s+you"
    r"|stops|runs|goes|leaves|departs)(?![a-z])",
    F,
)
# A battery's level: "my laptop was on 12", "keep the phone charged above 50", "只剩12的电".
BATTERY_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:(?:phone|laptop|tablet|watch|battery|power\s*bank)\s+(?:was|is|at|on"
    r"|down\s+to|dies\s+at)|charged|charge\s+(?:was|is|at))(?:\s+(?:on|at|only|just|down\s+to"
    r"|about|around|above|over|below|under))*|电量[^0-9。！？；\n]{0,6}|电池[^0-9。！？；\n]{0,6}"
    r"|(?:充电宝|手机)(?:的电)?(?:只|还|就)?(?:剩下?|有)电?)\s*\Z",
    F,
)
BATTERY_AFTER = re.compile(r"\s*(?:的电|格电|格|的电量)")
# What makes a cap an altitude, in the same clause: "the peaks around it top 4,000", "the trail
# stays under 1,500 so no altitude worries", "山峰都超过4000".
ALTITUDE_CLAUSE = re.compile(
    r"(?<![a-z])(?:peaks?|summits?|altitude|elevation|ridges?|glaciers?|snow\s*line|tree\s*line"
    r"|sea\s+level|acclimati[sz]\w*|waterfalls?|cliffs?|drops|dropped|plunges|climbs"
    r"|ceilings?|headroom|doorways?|doorframes?"
    r"|(?:clos(?:es|ed|ing)|sleep(?:s|ing)?(?:\s+(?:badly|poorly"
    r"|well))?)\s+above)(?![a-z])"
    r"|山峰|山顶|山脊|峰顶|主峰|海拔|高反|雪线|垭口|爬升|攀升|落差",
    F,
)
# Round 20: a number "up" is a climb or an elevation ("about 900 up from the car park", "sits at
# about 2,400 up"); money paid up front, or a price up on last year, is not.
UP_AFTER = re.compile(
    r"\s*up(?![a-z])(?!\s*(?:front|for|to|until|till|on|over|since|compared|from\s+(?:last"
    r"|the\s+last|before|previous|\d)))",
    F,
)


CAP_WORD_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:under|over|above|below|tops?|around|about|up\s+to|beyond|roughly|nearly"
    r"|almost|approximately|some|(?:sits|lies|perched)\s+at)|超过|高于|低于"
    r"|在)\s*\Z",
    F,
)
CAP_WORD_AFTER = re.compile(r"\s*(?:以下|以上|左右|上下)")
# Round 20: a height named right before the number, with or without an approximation:
# "爬升大概九百", "山脊最高大概两千八", "海拔约3000" ("去垭口的包车大概六百" is a price).
HEIGHT_RIGHT_BEFORE_ZH = re.compile(
    r"(?:爬升|攀升|海拔|落差|高度|最高点?)(?:有|是|在|达到?)?(?:大概|大约|约|差不多|将近|接近)?\s*\Z"
)


def height_cap(text: str, start: int, end: int) -> bool:
    """A cap or an approximation on a number in a clause about heights and not about money
    ("the peaks top 4,000", "stays under 1,500 so no altitude worries", "山峰都超过4000")."""
    low = max(0, start - 40)
    if not (
        CAP_WORD_BEFORE.search(text, low, start)
        or CAP_WORD_AFTER.match(text, end)
        or HEIGHT_RIGHT_BEFORE_ZH.search(text, low, start)
    ):
        return False
    low, high = _clause(text, start, end)
    altitude = ALTITUDE_CLAUSE.search(text, low, high) or UP_AFTER.match(text, end)
    # A priced thing right before the number owns it ("缆车票大概八十，山顶风景很好").
    owned = THING_BEFORE.search(text, max(0, start - 40), start)
    return bool(altitude and not owned and not _MONEY.search(text, low, high))


# Money in the clause keeps a cap a price: "the altitude trek budget is under 1,500".
# Narrower than `vocabulary.MONEY_WORDS` (no tips, bills, deposits, bucks ...) and with
# Chinese of its own; not built from it, since widening it would refuse more heights.
_MONEY = re.compile(
    r"(?<![a-z])(?:budget|pric(?:e|es|ed|ing)|cost|costs|fares?|pay|paid|spend|spent|fee|fees|rate"
    r"|rates|per|a\s+night"
    r"|each)(?![a-z])|预算|价|费|花|付|块|元|票|每人|一晚|出到|肯出|能出",
    F,
)


# A rating out of a scale: "10 out of 10", "满分10分".
OUT_OF_AFTER = re.compile(r"\s*(?:out\s+of|/)\s*\d", F)
OUT_OF_BEFORE = re.compile(r"(?:(?<![a-z])out\s+of|满分)\s*\Z", F)
# A name said as one: "a hotel called 1000", "叫1000的酒店", "named 21".
CALLED_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:called|named|known\s+as)\s+(?:the\s+)?|叫做|叫作|名叫|名为|叫)\s*\Z", F
)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the clause around text[start:end] (commas end no clause here)."""
    low = max(0, start - 40)
    cut = max(text.rfind(mark, low, start) for mark in ".!?;。！？；\n")
    high = min(len(text), end + 40)
    ends = [i for i in (text.find(mark, end, high) for mark in ".!?;。！？；\n") if i != -1]
    return (cut + 1 if cut >= low else low), (min(ends) if ends else high)


def _temperature(text: str, start: int, end: int, value: float | None) -> bool:
    if value is None or not 0 <= value <= 50:
        return False
    low, high = _clause(text, start, end)
    return bool(WEATHER.search(text, low, high) and not _bought(text, start, end))


def _bought(text: str, start: int, end: int) -> bool:
    """Money or shopping in the clause: a summit's shop, a coat in a sale."""
    low, high = _clause(text, start, end)
    return bool(_MONEY.search(text, low, high) or _BOUGHT.search(text, low, high))


# What makes a number beside warm words a price: shopping and food ("the coat was 45 in the
# outlet sale", "38 for the hot pot", "打折买的羽绒服45").
_BOUGHT = re.compile(
    r"(?<![a-z])(?:shop|shops|shopping|store|outlet|sale|sales|boutique|market|bought|buy"
    r"|buying|robbery|rip-?off|hot\s*pot|hotpot|menu|dish|meal|dinner|lunch|breakfast|drinks?"
    r"|coffee|beer|eat|ate)(?![a-z])|买|卖|店|打折|奥特莱斯|火锅|吃|喝",
    F,
)
# Money taken: "took 45 in fees", "took 10 off me", "took 120 from each of us".
TAKEN_AFTER = re.compile(
    r"\s+(?:in\s+(?:fees?|charges?|commission|tips?|cash|cuts?)|(?:off|from)\s+(?:me|us|my|our"
    r"|each|every|him|her|them|everyone|everybody)|手续费)(?![a-z])",
    F,
)


def more_roles(text: str, start: int, end: int, value: float | None) -> bool:
    """Round 17's explanations: a duration, an altitude, a temperature, a rating out of a
    scale, a name, a way on foot."""
    low = max(0, start - 40)
    if TAKEN_AFTER.match(text, end):
        return False  # money taken, whatever the verb: "the porter took 10 off me"
    return bool(
        DURATION_BEFORE.search(text, low, start)
        or (
            (ALTITUDE_BEFORE.search(text, low, start) or ALTITUDE_AFTER.match(text, end))
            and not _bought(text, start, end)
        )
        or OUT_OF_AFTER.match(text, end)
        or OUT_OF_BEFORE.search(text, low, start)
        or CALLED_BEFORE.search(text, low, start)
        or VERB_BEFORE.search(text, low, start)
        or LATE_AFTER.match(text, end)
        or BELOW_ZERO_BEFORE.search(text, low, start)
        or BATTERY_BEFORE.search(text, low, start)
        or BATTERY_AFTER.match(text, end)
        or height_cap(text, start, end)
        or EVERY_BEFORE.search(text, low, start)
        or IN_TIME_BEFORE.search(text, low, start)
        or (THE_BEFORE.search(text, low, start) and ROUTE_LATER.match(text, end))
        or _temperature(text, start, end, value)
        or (ON_FOOT.search(text, low, start) and WAY_AFTER.match(text, end))  # a distance
    )


def verb_before(text: str, start: int) -> bool:
    """A verb no price follows, or "every", right before the number ("the tour bus fits 50",
    "the shuttle ran every 20")."""
    low = max(0, start - 40)
    return bool(VERB_BEFORE.search(text, low, start) or EVERY_BEFORE.search(text, low, start))


# How far or how long, by the way one goes or where it lies: "about 200 by road", "40 off
# the coast", "15 on foot", "an hour away" ("away" after any number).
WAY_GONE_AFTER = re.compile(
    r"\s+(?:by\s+(?:road|car|train|rail|bus|coach|boat|ferry|air|plane|bike|bicycle|foot)"
    r"|on\s+foot|away|off\s+(?:the\s+)?(?:coast|shore|mainland)|offshore|inland"
    r"|(?:north|south|east|west)\s+of\s+(?-i:[A-Z]))(?![a-z])",
    F,
)


# Round 25: how far one goes in a day on foot or by bike ("we averaged 18 a day on the Camino",
# "I can do about 20 a day on the bike", "走朝圣之路平均一天十八"); hiring the bike is money.
_PER_DAY_AFTER = re.compile(r"\s*(?:(?:a|per|each|every)\s+day|/\s*day)(?![a-z])", F)
_PER_DAY_BEFORE_ZH = re.compile(r"(?:平均)?(?:一天|每天|每日)(?:能|可以|大概|差不多|平均)*\s*\Z")
_MOVING = re.compile(
    r"(?<![a-z])(?:walk\w*|hik\w+|hike|trek\w*|cycl\w+|bik(?:e|es|ed|ing)|rode|ride|riding"
    r"|camino|pilgrim\w*|on\s+foot)(?![a-z])|徒步|骑行|骑车|走路|朝圣|步行|走了?",
    F,
)
# What makes the day's number a price: hiring, paying, food, a paid guide or tour.
_HIRED = re.compile(
    r"(?<![a-z])(?:rent\w*|hire\w*|lease\w*|charg\w*|spen[dt]\w*|costs?|pa(?:y|id|ys)|fees?|food"
    r"|eat\w*|tours?|guides?|porters?|drivers?|budget\w*|allowance|per\s+diem)(?![a-z])"
    r"|租|花|付|费|导游|司机|门票|吃|预算|补",
    F,
)


def daily_distance(text: str, start: int, end: int) -> bool:
    """A distance covered in a day on foot or by bike, with no money or hire in its clause."""
    if not (
        _PER_DAY_AFTER.match(text, end)
        or _PER_DAY_BEFORE_ZH.search(text, max(0, start - 12), start)
    ):
        return False
    digits = text[start:end].replace(",", "")
    if not digits.isdigit() or int(digits) > 150:
        return False  # no one walks or rides more than 150 (km or miles) a day
    low, high = _clause(text, start, end)
    return bool(
        _MOVING.search(text, low, high)
        and not _HIRED.search(text, low, high)
        and not _bought(text, start, end)
    )


def distance_after(text: str, end: int) -> bool:
    return WAY_GONE_AFTER.match(text, end) is not None


def distance_between(text: str, start: int, end: int) -> bool:
    """ "covers 900 between Vienna and Rome": a distance, where "covers" is otherwise paying."""
    low = max(0, start - 40)
    return bool(COVERS_BEFORE.search(text, low, start) and BETWEEN_AFTER.match(text, end))


# Round 25: a room named by its number: a floor and a door ("504", "1208", "3305"; a round
# number is as likely a price) said with what a room has, in a clause with no money in it
# ("we've asked for 504 again since it faces the sea", "住1608那间", "房间是1208", "3305转角房").
_ROOM_SHAPED = re.compile(r"[1-9]\d?[0-4][1-9]\Z")
_ROOM_TRAIT = re.compile(
    r"(?<![a-z])(?:faces|facing|balcony|corner\s+room|(?:sea|ocean|city|lake|river|harbou?r"
    r"|garden|pool|mountain)\s+view|room\s+(?:number|no))(?![a-z])"
    r"|朝海|朝南|朝东|朝西|朝北|海景|江景|湖景|山景|转角|角房|那间|这间|房间[是号]|房号|门牌",
    F,
)


def room_number(text: str, start: int, end: int, number: str) -> bool:
    """A room's number said with what the room has, and no money in its clause."""
    if not _ROOM_SHAPED.match(number):
        return False
    low, high = _clause(text, start, end)
    wider = min(len(text), end + 20)
    return bool(_ROOM_TRAIT.search(text, low, max(high, wider)) and not _bought(text, start, end))


__all__ = [
    "CALLED_BEFORE",
    "TAKEN_AFTER",
    "daily_distance",
    "distance_after",
    "distance_between",
    "height_cap",
    "more_roles",
    "room_number",
    "verb_before",
]
