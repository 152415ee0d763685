"""Round 32: everyday English (and Chinese) numbers that are no money, by how they are said.

The older English sets kept tripping on bare numbers chat gives without a unit, where the
words around the number say what it counts. Each reading below holds only with no money word
in the number's sentence (`told.MONEY_IN_CLAUSE`, and the Chinese money words and hired rides):

- a wait, said with its verb: "we waited another 10 for the driver", "we sat 45 on the tarmac"
  ("we waited, then paid 10 for the driver" has a money word);
- a time allowed between or for a step of a journey: "at least 90 between flights", "allow 30
  for the border check", "give yourself 45 for security" ("allow 30 for the taxi" is a fare: a
  taxi is no step one waits in; "I'll cover 120 for the transfer" has no verb of allowing);
- a line one rides, by "the" and where it goes: "I take the 42 to the beach", "catch the 7
  into town" ("take the 42" alone, "the 42 bus" are other rules' business);
- a journey one makes oneself, as "a <number> walk": "it's a 20 walk to the station", "a 45
  drive" ("a 20 taxi ride" is a fare: no hired ride is read);
- a score: "we won 3 to 1", "lost 2-3 in the final"; a golf handicap or par: "my handicap is
  14";
- a small count of counted things under a cap: "keep transfers under 2 per trip", "no more
  than 3 stops a day" (ten or fewer: "rooms under 200 per night" is a rate);
- a stop "at each" place: "the tour bus stops 20 at each viewpoint" ("each" is a price's word
  only where something is priced per person);
- a distance a person covers themselves, by its verb ("I usually run 10 before breakfast", "we
  drove 300 the first day"; not with a hired ride: "my driver drove 300 for the day"), a line
  by its kind ("the 101 express"), a mark out of a scale ("9 out of 10"), time spent in a queue
  or in traffic ("we spent 45 in the queue"; "spent 60 in the duty free" is money) and an age
  at a moment ("I was 22 the last time I went"); a road said with its traffic ("the 405 is a
  nightmare at rush hour") and height gained by its verb ("the climb gains 1200");
- Chinese: a journey's time by its own word (车程, 路程, 航程: "车程三十五"), a way one goes
  oneself from or to a place (从机场过去, 走到海边, 开车过去: "从机场过去三十五", "走到海边十二"),
  and a climb or a walk "要" a number ("爬山要九十"); never with a fare, a hired ride or a money
  word in the sentence ("打车从机场过去三十五", "爬山门票要九十" stay prices).

The round's review (`tests/memory/test_privacy_round32_review.py`) narrowed each reading where a
price takes its shape with no money word: "take the 200 out of the safe", "a 40 walk-in
massage", "the 15 for the congestion zone", "the dorm bed rose 12", "our cab was 35 the last
time", "I spent 40 in traffic fines", "走到海边躺椅三十".
"""

from __future__ import annotations

import re

from memory.privacy.told import MONEY_IN_CLAUSE
from memory.privacy.vocabulary import HIRED_RIDES, MONEY_WORDS_ZH

F = re.ASCII | re.IGNORECASE

_SENTENCE_END = re.compile(r"[.!?;。！？；\n](?!\d)")
_SOFT = (
    r"(?:\s+(?:about|around|roughly|only|just|nearly|almost|over|another|a\s+good|an\s+extra"
    r"|at\s+least|like|maybe))*"
)

_WAITED = re.compile(
    r"(?<![a-z])(?:waits?|waited|waiting|queued|queueing|stood|sat|hung\s+around|held\s+on"
    r"|(?:were|was|got|get)\s+stuck|delayed(?:\s+by)?|held\s+up(?:\s+for)?)" + _SOFT + r"\s*\Z",
    F,
)
# Round 32 review: money saved "between the flights" is no time between them.
_SAVED_BEFORE = re.compile(r"(?<![a-z])(?:sav(?:e|ed|es|ing)|difference)" + _SOFT + r"\s*\Z", F)
_BETWEEN_STEPS = re.compile(
    r"\s+between\s+(?:the\s+)?(?:flights|connections|legs|trains|transfers|planes|gates)(?![a-z])",
    F,
)
# A time allowed for a step names its verb: "allow 30 for the border check" ("I'll cover 120
# for the transfer", "need 50 for the taxi" are money).
_ALLOWED = re.compile(
    r"(?<![a-z])(?:allow|allowing|allowed|give\s+(?:yourself|yourselves|it|us|me)|plan\s+on"
    r"|count\s+on|reckon\s+on|factor\s+in)" + _SOFT + r"\s*\Z",
    F,
)
_STEP_AFTER = re.compile(
    r"\s+for\s+(?:the\s+)?(?:border|security|customs|immigration|passport\s+control|check-?in"
    r"|boarding|connection|transfer|layover|queues?|lines?|bag\s+drop)(?![a-z])",
    F,
)
_LINE_TAKEN = re.compile(
    r"(?<![a-z])(?:take|takes|took|taking|catch|catches|caught|hop\s+on|hopped\s+on|get\s+on"
    r"|got\s+on|ride|rides|rode)\s+the\s+\Z",
    F,
)
# Round 32 review: "out" only with where the line goes ("take the 42 out to the airport"); "take
# the 200 out of the safe", "take the 40 out for the guide" handle a banknote.
_LINE_GOES = re.compile(
    r"(?:\s+(?:bus|tram|line))?\s+(?:to|into|from|up|down|back|home|across|along|every"
    r"|out(?=\s+(?:to|towards|past|of\s+town)(?![a-z])))(?![a-z])",
    F,
)
_A_JOURNEY = re.compile(
    r"\s*(?:-?\s*min(?:ute)?s?\s+)?(?:walk|stroll|hike|climb|run|jog|swim|drive|paddle|cycle"
    r"|bike\s+ride)(?![a-z]|-[a-z])",  # round 32 review: "a 40 walk-in massage" is sold
    F,
)
_A_BEFORE = re.compile(r"(?<![a-z])(?:a|an|the)\s+\Z", F)
_HIRED = re.compile(rf"(?<![a-z])(?:{HIRED_RIDES})(?![a-z])", F)
_SCORE_VERB = re.compile(
    r"(?<![a-z])(?:won|win|wins|lost|lose|beat|drew|draw|tied|tie|scored?|finished|ended)(?![a-z])",
    F,
)
_SCORE_AFTER = re.compile(r"\s*(?:to|-|:)\s*\d{1,2}(?![0-9])", F)
_SCORE = re.compile(r"\d{1,2}\s*(?:to|-)\s*\d{1,2}", F)
_PER_SPAN = re.compile(
    r"\A\s*(?:per|a|each|every)\s+(?:trip|day|journey|week|flight|night|city|stay)(?![a-z])",
    F,
)
_SCORE_BEFORE = re.compile(r"(?<![0-9])\d{1,2}\s*(?:to|-|:)\s*\Z", F)
_HANDICAP = re.compile(r"(?<![a-z])(?:handicap|par)(?:\s+(?:is|was|of|at))?" + _SOFT + r"\s*\Z", F)
_COUNTED_CAP = re.compile(
    r"(?<![a-z])(?:transfers|stops|connections|changes|layovers|legs|bags|suitcases|flights"
    r"|nights|drinks|coffees|people|kids|rooms|hotels|moves|check-?ins|museums|sights)"
    r"(?:\s+[a-z]+)?\s+(?:under|below|at\s+most|no\s+more\s+than|max(?:imum)?|up\s+to"
    r"|fewer\s+than|less\s+than|to)\s*\Z",
    F,
)
_STOPPED = re.compile(  # round 33 review: and a stay ("we stayed 30 at each lookout")
    r"(?<![a-z])(?:stops?|stopped|paus(?:es|ed?)|halts?|halted|lingers?|stay(?:s|ed)?)"
    + _SOFT
    + r"\s*\Z",
    F,
)
_AT_EACH = re.compile(r"\s+at\s+(?:each|every)\s+[a-z]+", F)
# Round 33: a journey's length "each way" ("it's a 20 walk each way"), time stuck "for" a
# number ("the 405 was jammed for 40", "held at the border for 90") and a crossing's length
# in its weather or traffic ("the ferry crossing is 90 on a calm day").
_EACH_WAY = re.compile(r"\s+(?:each|either|both)\s+ways?(?![a-z])|\s+(?:there\s+and\s+back)", F)
_STUCK_FOR = re.compile(
    r"(?<![a-z])(?:stuck|jammed|gridlocked|crawl(?:ed|ing|s)?|backed\s+up|held(?:\s+up)?"
    r"|delayed|at\s+a\s+standstill|queued|waited|sat|stood)(?:\s+[a-z0-9']+){0,5}?"
    r"\s+for" + _SOFT + r"\s*\Z",
    F,
)
# Round 33 review: the same weather words either way ("45 in calm seas", "90 on a rough day").
_WEATHER = r"(?:calm|rough|good|bad|clear|windy|quiet|still|choppy|smooth|no|light|heavy|little)"
_CONDITION = re.compile(
    rf"\s+(?:on\s+a\s+{_WEATHER}\s+(?:day|sea|night)|with\s+a\s+(?:tail|head)wind"
    rf"|(?:with|in)\s+{_WEATHER}\s+(?:traffic|weather|seas?|wind|conditions))(?![a-z])",
    F,
)

# Round 32 (second part): a distance one covers oneself, said by its verb after a person ("I
# usually run 10 before breakfast", "we drove 300 the first day"); a line named by its kind
# after the number ("the 101 express"); a mark "out of" a scale ("9 out of 10"); time "spent"
# in a queue or in traffic; a person's age at a moment ("I was 22 the last time").
# Round 32 review: "my" or "our" only with a person ("our cab was 35 the last time", "my
# massage was 40 when I went" are prices).
_PERSON = (
    r"(?:i|we|he|she|they|you|(?:my|our|his|her)\s+(?:dad|father|mum|mom|mother|parents|son"
    r"|daughter|kids?|child(?:ren)?|boys?|girls?|baby|wife|husband|partner|brother|sister"
    r"|grand(?:ma|pa|mother|father|parents)|granny|nan|friends?|uncle|aunt|cousin|niece"
    r"|nephew|twins|eldest|youngest|boss|colleague|mates?|team|family|group))"
)
_COVERED = re.compile(
    rf"(?<![a-z']){_PERSON}(?:\s+(?:usually|often|always|only|just|then|also|easily|still))*"
    r"\s+(?:run|ran|runs|jog|jogged|jogs|swim|swam|swims|walk|walked|walks|cycle|cycled|cycles"
    r"|hike|hiked|hikes|drive|drove|drives|paddle|paddled|row|rowed|ride|rode|rides|bike|biked)"
    + _SOFT
    + r"\s*\Z",
    F,
)
_SPENT_ON = re.compile(
    r"\s+on\s+(?!(?:the\s+)?(?:beach|track|trail|treadmill|sand|road|promenade|boardwalk"
    r"|first|second|third|last|day|weekend|sunday|saturday)(?![a-z]))",
    F,
)
_LINE_KIND_AFTER = re.compile(
    r"\s+(?:express(?!\s+(?:pass(?:es)?|lunch|menu|meals?|breakfast|dinner|service|shipping"
    r"|delivery|laundry|lanes?|entry|upgrade|check-?in|option)(?![a-z]))|limited|night\s+bus"
    r"|nightliner)(?![a-z])",
    F,
)  # round 32 review: "the 60 express pass" is sold
_OUT_OF = re.compile(r"\s+out\s+of\s+\d", F)
_OUT_OF_BEFORE = re.compile(r"(?<![0-9])\d{1,3}\s+out\s+of\s+\Z", F)
_SPENT_WAITING = re.compile(
    r"\A\s+(?:minutes\s+)?(?:in|stuck\s+in)\s+(?:the\s+|a\s+)?(?:queues?|lines?|traffic"
    r"|customs|security|immigration|transit)(?![a-z])"
    # round 32 review: the place said alone ("spent 40 in traffic fines", "in the transit
    # lounge bar" are money)
    r"(?=\s*(?:\Z|[,.;:!?)]|\s+(?:at|on|for|to|in|into|through|before|after|when|while|and"
    r"|but|so|because|with|from|this|last|that|near|outside|by|again|every|each|alone"
    r"|going|getting|coming|lines?|queues?|checks?|control|halls?|jams?)(?![a-z])))",
    F,
)
# Round 32 review: a tab run at a bar or a shop ("I ran 200 at the hotel bar").
_SPENT_AT = re.compile(
    r"\s+(?:at|in)\s+(?:the\s+|a\s+)?(?:[a-z]+\s+)?(?:bar|pub|casino|shops?|stores?|market"
    r"|restaurant|cafe|spa|club|minibar|duty\s+free|tab)(?![a-z])",
    F,
)
_SPENT_BEFORE = re.compile(r"(?<![a-z])spent" + _SOFT + r"\s*\Z", F)
_AGE_THEN = re.compile(
    rf"(?<![a-z']){_PERSON}\s+(?:was|were)\s*\Z",
    F,
)
_AGE_MOMENT_AFTER = re.compile(
    r"\s+(?:when|the\s+(?:last|first)\s+time|back\s+then|at\s+the\s+time|on\s+(?:my|our|his"
    r"|her)\s+first)(?![a-z])",
    F,
)

# Round 32 (fourth part): a road said with its traffic ("the 405 is a nightmare at rush hour")
# and height gained or lost by its verb ("the climb gains 1200 over the day").
_TRAFFIC = re.compile(
    r"(?<![a-z])(?:rush\s+hour|traffic|jammed|gridlock(?:ed)?|backed\s+up|congest(?:ed|ion)"
    r"|roadworks|lanes?|exits?|on-?ramps?|speed\s+cameras?)(?![a-z])",
    F,
)
# Round 32 review: "the 15 for the congestion zone", "the 25 they want for the lanes" say what
# something costs, not which road.
_ROAD_PRICED = re.compile(r"\s+(?:for|they|we|you|it|he|she)(?![a-z])", F)
_THE_BEFORE = re.compile(
    r"(?:\A|[,;:(]\s*|(?<![a-z])(?:on|off|take|avoid|via|from|to)\s+)the\s+\Z", F
)
_GAINED = re.compile(
    r"(?<![a-z])(?:gains?|gained|climbs?|climbed|descends?|descended|rises?|rose"
    r"|ascends?|ascended)(?:\s+(?:about|around|roughly|only|just|nearly|almost|over"
    r"|another|a\s+good|a\s+further))*\s*\Z",
    F,
)
# Round 32 review: height is gained by a way, a mountain or a walker, not by a bed ("the dorm
# bed rose 12 this year"), and not "on" a deal ("we gained 30 on the currency swap").
_CLIMBER = re.compile(
    r"(?<![a-z])(?:trails?|paths?|routes?|roads?|tracks?|climbs?|hikes?|treks?|walks?|rides?"
    r"|stages?|legs?|sections?|pass|ascents?|descents?|ridges?|volcano(?:es)?|mountains?|peaks?"
    r"|hills?|summits?|streets?|stairs|steps|way|we|i|you|they|he|she)(?![a-z])",
    F,
)
_GAINED_ON = re.compile(
    r"\s+on\s+(?!(?:the\s+)?(?:way|trail|climb|ascent|first|second|third|last|final|day"
    r"|foot)(?![a-z]))",
    F,
)

_ZH_LENGTH = re.compile(
    r"(?:车程|路程|航程|飞行时间|开车时间|步行时间|走路时间|骑行时间)(?:大概|差不多|约|大约|要|是|只有)?\s*\Z"
)
_STOP = "，,。.;；！!？?\n"
# How Chinese place names end: 海边, 大门, 车站, 外滩, 山脚, 故宫, 外婆家
_PLACE = (
    "[边口门站场山顶脚湖海滩岸园街路桥寺庙城镇村屯楼馆院宫塔湾岛港头"
    "店区里家市处宿点下面近心堂厅所台营铁峰坡底河江道]"
)
_ZH_WAY = re.compile(
    rf"(?:从[^0-9{_STOP}]{{1,6}}?(?:开车|走路|步行|骑车)?(?:过去|过来|出发|回来|走)"
    # round 32 review: gone "到" a place that ends as places do, or a name with no place word
    # in it ("走到迪士尼"); a thing after a place is bought there ("走到海边躺椅三十")
    rf"|(?:走|开|骑|开车|走路|步行|骑车)(?:过去|过来|到(?:[^0-9{_STOP}]{{0,5}}?{_PLACE}"
    rf"|(?:(?!{_PLACE})[^0-9{_STOP}]){{1,6}}?))"
    r"|(?:爬山|登山|爬上去|上山|下山|徒步|散步|游过去))"
    r"(?:要|得|需要|大概|差不多|约|大约)*\s*\Z"
)
_ZH_MONEY = re.compile(
    rf"{MONEY_WORDS_ZH}|坐|乘|搭|缆车|索道|船|马|驴|打车|出租|的士|滴滴|网约车|包车|专车|门票|票|小费|油|过路|停车|补贴"
    # round 32 review: the driver paid, and things bought where one walked to ("走到海边冰淇淋十五")
    r"|司机|师傅|给了|给他|给她|咖啡|拿铁|奶茶|饮料|矿泉水|冰淇淋|雪糕|小吃|饭团|盒饭|啤酒|椰子|纪念品|躺椅"
    r"|[一每][人晚位碗份杯个瓶盘串斤次天趟张间]|人均"
)


# Round 32 review: money said as a wrong charge or its return ("I'll take the 50 back to the
# front desk, they overcharged").
_CHARGED = re.compile(r"(?<![a-z])(?:overcharg|undercharg|refund|reimburs)", F)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    # Round 33 review: at most 120 characters either side, so a long text's numbers are not
    # each read against all of it (a sentence of chat is far shorter).
    low = max(0, start - 120)
    cuts = [match.end() for match in _SENTENCE_END.finditer(text, low, start)]
    after = _SENTENCE_END.search(text, end, end + 120)
    return (cuts[-1] if cuts else low), (after.start() if after else min(len(text), end + 120))


def spoken_not_money(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is a wait, a time allowed, a line ridden, a
    journey's length, a score, a handicap, a small count or a stop, by the words said right
    around it, with no money word in its sentence (see the module docstring)."""
    low = max(0, start - 60)
    first, last = _sentence(text, start, end)
    if _SCORE.fullmatch(number):  # "3 to 1", read as one span by the range rules
        return _SCORE_VERB.search(text, low, start) is not None
    digits = number.replace(",", "")
    if not digits.isdigit():
        return False
    value = int(digits)
    if _ZH_LENGTH.search(text, low, start) or _ZH_WAY.search(text, low, start):
        return 2 <= value <= 300 and _ZH_MONEY.search(text, first, last) is None
    after = text[end:last]
    after = _EACH_WAY.sub(" ", after, count=1)
    if _AT_EACH.match(text, end) and (
        _STOPPED.search(text, low, start) or _ALLOWED.search(text, low, start)
    ):
        read = value <= 300  # "stops 20 at each viewpoint": "each" prices nothing here
        after = _AT_EACH.sub(" ", after, count=1)
    elif _SPENT_BEFORE.search(text, low, start) and _SPENT_WAITING.match(text[end:last]):
        read = value <= 300  # "we spent 45 in the queue": time, not money
        spent = _SPENT_BEFORE.search(text, low, start)
        before = text[first : spent.start() if spent else start]
        return read and not _money(before + " " + text[end:last])
    elif _COUNTED_CAP.search(text, low, start):
        read = value <= 10  # "keep transfers under 2 per trip": "per trip" counts
        after = _PER_SPAN.sub(" ", after, count=1)
    else:
        read = _english(text, low, start, end, value)
    return read and not _money(text[first:end] + " " + after)


def _money(words: str) -> bool:
    return bool(MONEY_IN_CLAUSE.search(words) or _CHARGED.search(words))


def _english(text: str, low: int, start: int, end: int, value: int) -> bool:
    if (
        _WAITED.search(text, low, start)
        or (_BETWEEN_STEPS.match(text, end) and not _SAVED_BEFORE.search(text, low, start))
        or (_ALLOWED.search(text, low, start) and _STEP_AFTER.match(text, end))
    ):
        return value <= 300
    if _STUCK_FOR.search(text, low, start) or (
        _CONDITION.match(text, end) and not _HIRED.search(text, low, end + 40)
    ):
        return value <= 300  # round 33: "jammed for 40", "90 on a calm day"
    if _LINE_TAKEN.search(text, low, start) and _LINE_GOES.match(text, end):
        return value < 1000
    if _A_BEFORE.search(text, low, start) and _A_JOURNEY.match(text, end):
        return value <= 300 and not _HIRED.search(text, low, end + 40)  # "a 20 taxi ride"
    if _SCORE_VERB.search(text, low, start) and (
        _SCORE_AFTER.match(text, end) or _SCORE_BEFORE.search(text, low, start)
    ):
        return value < 100
    if _HANDICAP.search(text, low, start):
        return value <= 80
    if _OUT_OF.match(text, end) or _OUT_OF_BEFORE.search(text, low, start):
        return value <= 100
    if (
        _THE_BEFORE.search(text, low, start)
        and _TRAFFIC.search(text, low, end + 60)
        and not _ROAD_PRICED.match(text, end)
    ):
        return 10 <= value < 1000  # "the 405 is a nightmare at rush hour": a road
    gained = _GAINED.search(text, low, start)
    if gained and _CLIMBER.search(text, low, gained.start()) and not _GAINED_ON.match(text, end):
        return value <= 9000 and not _HIRED.search(text, low, end + 40)
    if _LINE_KIND_AFTER.match(text, end):
        return value < 1000
    if _AGE_THEN.search(text, low, start) and _AGE_MOMENT_AFTER.match(text, end):
        return value <= 110
    return (
        _COVERED.search(text, low, start) is not None
        and value <= 1000
        and not _SPENT_ON.match(text, end)  # "I ran 200 on souvenirs" ran up a bill
        and not _SPENT_AT.match(text, end)
        and not _HIRED.search(text, low, end + 40)
    )


__all__ = ["spoken_not_money"]
