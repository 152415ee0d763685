"""Round 27: what a number does in its clause, read from the verb that governs it.

A price is reported: something bought "was / is / costs" the number, a seller "asked / wanted /
quoted" it, 司机 / 老板 "要 / 收" it (`reported_price`). Such a number is money however small
("the cloakroom was 2", "coffee on the train was 4", "the porter asked 5 per bag") and whatever
its shape ("the bag drop was 2.50"), when the thing said before the verb is bought or the one
who said the number sells, and nothing after the number makes it a count, a measure or a time
("the swell was 6 all morning", "the train was 20 late", "my daughter is 7").

A number reached, scored or kept is no money (`level_reached`), with no money in its clause:

- a level gone, climbed or dived to: "the dive went down to 18", "the lift only goes to 12",
  "缆车上到3600的平台";
- a body's reading: "心率到了110", "my heart rate hit 150";
- a score: "I scored 92 on the test";
- the size of a group named as one: "the tour group was 25", "a class of 30";
- time needed to change or connect: "I need at least 45 to change terminals";
- heights crossed: "the trek crosses 3 passes over 5,000";
- a cap said with the unit of a number before it: "we drove 430 km that day, cap it at 300".
"""

from __future__ import annotations

import re

from memory.privacy.vocabulary import MONEY_WORDS, MONEY_WORDS_ZH, money_in

F = re.ASCII | re.IGNORECASE

_CLAUSE_BREAK = re.compile(r"[.!?;:。！？；，,\n](?!\d)")


def _clause_start(text: str, start: int) -> int:
    low = max(0, start - 80)
    breaks = [match.end() for match in _CLAUSE_BREAK.finditer(text, low, start)]
    return breaks[-1] if breaks else low


# --- A price reported -----------------------------------------------------------------------

# What is bought on a trip, beyond the priced things the rules already list.
_BOUGHT = re.compile(
    r"(?<![a-z])(?:cloakrooms?|lockers?|toilets?|restrooms?|loos?|showers?|towels?|sunbeds?"
    r"|(?:sun\s+)?loungers?|deck\s?chairs?|umbrellas?|hammocks?|snacks?|sandwich(?:es)?"
    r"|bottled\s+waters?|bottles?\s+of\s+water|teas?|coffees?|juices?|ice\s?creams?|beers?|wines?|souvenirs?|postcards?"
    r"|chargers?|entry|entrance|admission|tickets?|rides?|rickshaws?|tuk-?tuks?|boats?"
    r"|ferry|ferries|bus\s+fares?|fares?|bag\s+drops?|left\s+luggage|luggage\s+storage"
    r"|storage|wi-?fi|fast[\s-]?track|headphones|blankets?|pillows?|audio\s?guides?|maps?"
    r"|rentals?|massages?|laundry|haircuts?|meals?|breakfasts?|lunch(?:es)?|dinners?|drinks?"
    r"|taxis?|cabs?|ubers?|shuttles?|tours?|parking|tolls?|visas?|sims?|data|pass(?:es)?"
    r"|upgrades?|hotels?|hostels?|rooms?\s+service|minibar|museums?|temples?|galleries"
    r"|zoos?|castles?|palaces?|cable\s+cars?|funiculars?|gondolas?|chairlifts?|trams?"
    r"|metros?|subways?|buses|bus|coach(?:es)?|trains?\s+tickets?|camel\s+rides?)(?![a-z])",
    F,
)
# Who sells: a number they ask for is their price.
_SELLERS = re.compile(
    r"(?<![a-z])(?:guy|driver|cabbie|boatman|boatmen|porter|guide|vendor|seller|stall"
    r"|hawker|shop|shopkeeper|man|woman|lady|owner|host|receptionist|front\s+desk|agent"
    r"|operator|company|place|restaurant|bar|cafe|hotel|hostel)s?(?![a-z])",
    F,
)
# Whose number is no price: people, their age; a wait, a delay, weather, a measure, a score.
_NOT_BOUGHT = re.compile(
    r"(?<![a-z])(?:daughter|son|kids?|child|children|boy|girl|baby|wife|husband|partner|mum"
    r"|mom|dad|mother|father|granny|grandma|grandpa|granddad|i|we|he|she|they|you|group|queue"
    r"|line|wait|delay|layover|temperature|temp|wind|swell|waves?|score|rating|battery|speed"
    r"|limit|altitude|elevation|height|depth|(?<!bag\s)drop|distance|walk|hike|climb|time|number|gate"
    r"|row|seat|platform|floor|level|route|stop|room|capacity|size|age|weight|pressure"
    r"|rate\s+of|heart|pulse|uv|aqi|humidity|mine|ours|yours|his|hers|theirs|curfew|check-?in"
    r"|check-?out|opening|closing|last\s+entry|departure|arrival)(?![a-z])",
    F,
)
_REPORT_VERB = re.compile(
    r"(?:(?<![a-z])(?:is|was|are|were)|'s|(?<![a-z])(?:costs?|asked(?:\s+(?:us|me|for))?|wanted|wants"
    r"|charges?|quoted(?:\s+(?:us|me))?|runs|ran|came\s+to|comes\s+to|goes\s+for|went\s+for"
    r"|sells?\s+for|sold\s+for))(?![a-z])"
    r"(?:\s+(?:like|about|around|roughly|only|just|maybe|probably|still|now|already))*\s*\Z",
    F,
)
_ASKING = re.compile(r"asked|wanted|wants|quoted|charges?", F)
# After a reported price: its end, a rate or a purpose of paying, a judgement.
_PRICE_TAIL = re.compile(
    r"\s*(?:[,.;!?)]|\Z|(?:and|but|so|if|for|with)\s|(?:each|apiece|extra|return"
    r"|on\s+top|a\s+pop|a\s+go|a\s+piece|here|there|now|lol|haha|though|which"
    r"|to\s+(?:get\s+in|enter|rent|hire|use|borrow|park|go\s+in|cross|get\s+across)"
    r"|(?:a|per|an)\s+[a-z]+)(?![a-z]))",
    F,
)
# A vehicle as the subject, not its ticket or fare: "the bus to the airport", "the ferry".
_VEHICLE_HEAD = re.compile(
    r"(?<![a-z])(?:bus|buses|trams?|metros?|subways?|ferry|ferries|boats?|coach(?:es)?|shuttles?"
    r"|cable\s+cars?|funiculars?|gondolas?|chairlifts?|trains?)(?![a-z])"
    r"(?!\s+(?:tickets?|fares?|pass(?:es)?|rides?))",
    F,
)
_RATE_TAIL = re.compile(
    r"\s*(?:each|apiece|extra|return|flat|one[\s-]way|each\s+way|a\s+(?:ride|go|pop|person"
    r"|head|trip|ticket|day|bed|couple|night|piece)|per\s+[a-z]+|to\s+(?:get\s+in|enter|ride"
    r"|use|cross)|(?:and\s+)?(?:totally\s+|so\s+|not\s+)?worth)(?![a-z])",
    F,
)
# A rate said of a thing bought with no verb: "entry to the temple 5 per person".
_PER_PAYER = re.compile(
    r"\s*(?:per|a|each)\s+(?:person|head|adult|child|kid|pax|entry|ticket|go|ride)(?![a-z])", F
)
_NO_PRICE_TAIL = re.compile(
    r"\s*(?:late|early|long|deep|high|tall|wide|down|up|strong|old|of\s|in\s+(?:a|the)\s+row"
    r"|times|minutes?|hours?|all\s+(?:day|morning|night|week))(?![a-z])",
    F,
)
_SELLER_ZH = re.compile(
    r"(?:司机|师傅|老板|摊主|小贩|导游|船夫|车夫|店家|店主|前台|房东|卖家|商贩|大叔|大妈|阿姨)"
    r"[^0-9,.;!?，。；！？\n]{0,10}?(?:开口就?要|开价|喊价|报价|要价|要了?|收了?|喊了?)\s*(?:个)?\Z"
)
# Yuan and tenths said the spoken way, where the numeral is left as written: "渡轮两块五",
# "三块八一瓶", "厕所五毛一次" ("两块蛋糕" counts cakes).
YUAN_JIAO = re.compile(
    r"(?<![一二两三四五六七八九十0-9])(?<![切分掰拆]成)(?:[一二两三四五六七八九十]|[0-9]{1,3})"
    r"(?:块(?:[一二三四五六七八九]|[0-9](?![0-9]*\s?(?:公里|米|斤|个人|人)))"
    r"(?=\Z|[\s,.;!?，。；！？]|[0-9]|[一每毛])"
    r"|毛(?:钱|一次|一个|一张|一位|一人|每)"
    # round 29: whole yuan a unit of sale, "西瓜三块一斤", "停车五块一小时" ("三块蛋糕" counts)
    r"|块(?=钱?[一每](?:斤|个|瓶|杯|份|次|张|位|人|小时|天|晚|碗|盘|碟|罐|听|支|串|根|公斤|袋|盒|包|双|只)))"
)
# Dimes: "厕所五毛一次", "五毛钱" (毛 after a numeral is a tenth of a yuan).
_DIMES_ZH = re.compile(r"\s?毛(?:钱|一次|一个|一张|一位|一人|每)")


_PRONOUN = re.compile(r"i|we|he|she|they|you", F)


def _owned_elsewhere(subject: str, head: re.Match[str]) -> bool:
    """Whether a word of the subject makes its number no price, a pronoun after the thing
    bought aside: "the coffee I had was 4" is the coffee's price, "I was 5" is not one."""
    return any(
        not (_PRONOUN.fullmatch(word.group()) and word.start() > head.start())
        for word in _NOT_BOUGHT.finditer(subject)
    )


def reported_price(text: str, start: int, end: int) -> bool:
    """Whether the bare number text[start:end] is a price reported of something bought ("the
    cloakroom was 2") or asked by a seller ("the porter asked 5 per bag", "司机要三百")."""
    low = _clause_start(text, start)
    if _SELLER_ZH.search(text, low, start) or _DIMES_ZH.match(text, end):
        return True
    verb = _REPORT_VERB.search(text, low, start)
    if verb is None and _PER_PAYER.match(text, end):
        subject = text[low:start]
        bought = _BOUGHT.search(subject)
        return bought is not None and not _owned_elsewhere(subject, bought)
    if verb is None or _NO_PRICE_TAIL.match(text, end) or not _PRICE_TAIL.match(text, end):
        return False
    subject = text[low : verb.start()]
    if _ASKING.match(verb.group()) and _SELLERS.search(subject):
        return True
    head = _BOUGHT.search(subject)
    if head is None or _owned_elsewhere(subject, head):
        return False
    # "the beach bus is 12": a vehicle's number is its line, unless it is said as money
    # ("the bus into town is 2.80") or with a rate ("the ferry was 6 each")
    return not (
        _VEHICLE_HEAD.match(subject, head.start())  # the first thing bought is the head
        and "." not in text[start:end]
        and not _RATE_TAIL.match(text, end)
    )


# --- A number reached, scored or kept -------------------------------------------------------

# Going is reaching only for what moves up or down, never a person's limit ("I'd go up to
# 260 for a room", "not go over 2,400"): the lift, the road, the dive goes to a level.
_MOVER = re.compile(
    r"(?<![a-z])(?:lifts?|elevators?|roads?|trails?|paths?|tracks?|routes?|dives?|gondolas?"
    r"|chairlifts?|cable\s+cars?|funiculars?|plane|aircraft|balloon|descent|ascent)(?![a-z])",
    F,
)
_GOING = re.compile(r"(?<![a-z])(?:go|goes|went|gone|going)(?![a-z])", F)
# Verbs a total or a price also takes ("the total hit 450"): a level only of a mover or a
# measure ("the temperature hit 35").
_RISING = re.compile(
    r"(?<![a-z])(?:hits?|reach(?:es|ed)?|rose|rises?|risen|peaked|topped)(?![a-z])", F
)
_REACHED_EN = re.compile(
    r"(?<![a-z])(?:go|goes|went|gone|going|climb(?:s|ed|ing)?|dove|dived|dive[sd]?|diving"
    r"|descend(?:s|ed|ing)?|ascend(?:s|ed|ing)?|rose|rises?|risen|hik(?:e|ed|es|ing)"
    r"|reach(?:es|ed)?|hit|hits|peaked|topped|summited)"
    r"(?:\s+(?:only|just|all\s+the\s+way|right))*(?:\s+(?:up|down))?(?:\s+(?:to|at|past"
    r"|beyond))?(?:\s+(?:about|around|roughly|nearly|almost|over))?\s*\Z",
    F,
)
_REACHED_ZH = re.compile(r"(?:上到|爬到|登到|潜到|下到)\s*\Z")
_BODY_ZH = re.compile(r"(?:心率|心跳|血压|血氧|脉搏|体温)[^0-9，。,.；;！？!?\n]{0,6}\Z")
_BODY_EN = re.compile(
    r"(?<![a-z])(?:heart\s+rate|pulse|blood\s+pressure|oxygen|spo2|sats)(?![a-z])"
    r"[^0-9,.;!?\n]{0,16}\Z",
    F,
)
_SCORED = re.compile(r"(?<![a-z])(?:scored|scores|score\s+of|got|shot)\s+(?:a\s+)?\Z", F)
_TEST_AFTER = re.compile(
    r"\s*(?:on|in)\s+(?:the|my|a|our)\s+(?:[a-z]+\s+){0,3}(?:test|exam|quiz|course|round"
    r"|paper|assessment)(?![a-z])",
    F,
)
_GROUP_NOUN = re.compile(
    r"(?<![a-z])(?:group|party|crowd|team|choir|band|tour\s+group|family|class(?=\s+of))"
    r"(?:\s+(?:is|was|were|are|of|will\s+be))(?:\s+(?:about|around|only|just|roughly))?\s*\Z",
    F,
)
_CONNECT = re.compile(
    r"(?<![a-z])(?:need|needs|needed|allow|give\s+(?:me|us)|takes?|took)\s+(?:(?:at\s+least"
    r"|about|around|a\s+good|roughly)\s+)?\Z",
    F,
)
_CONNECT_AFTER = re.compile(
    r"\s*(?:to|for)\s+(?:change|connect|transfer|switch|make\s+(?:the|a|my)|get\s+through"
    r"\s+(?:security|customs|immigration|passport\s+control|the\s+(?:airport|border|gates?))"
    r"|clear|walk|catch|run\s+between)(?![a-z])",
    F,
)
_HEIGHTS_OVER = re.compile(
    r"(?<![a-z])(?:passes|peaks|summits|mountains|cols|ridges|saddles|volcanoes)"
    r"\s+(?:over|above|of|topping)\s+\Z",
    F,
)
# A measure's unit said once: the later bare number is a cap or a compare in the same unit.
_MEASURED = re.compile(
    r"(?<![0-9a-z.,])\d[\d,.]*\s?(?:km|kms|kilometres?|kilometers?|miles?|mi|m|metres?"
    r"|meters?|ft|feet|kg|kilos?|lbs?|degrees?|°|%|percent)(?![a-z])",
    F,
)
_CAP_SAID = re.compile(
    r"(?<![a-z])(?:cap(?:ped)?\s+(?:it|that|them|the\s+\w+)?\s*at|keep\s+(?:it|that)\s+(?:under"
    r"|below|to)|max(?:imum)?|at\s+most|under|below|no\s+more\s+than|less\s+than)\s*\Z",
    F,
)
# Round 27, the mirror of a price reported: a measure as the subject of "is / was" owns the
# number ("visibility was about 15", "seat pitch on that airline is 28", "the water was 28").
_MEASURE_SUBJECT = re.compile(
    r"(?<![a-z])(?:visibility|pitch|legroom|rating|score|temperature|temp|(?<!bottled\s)water"
    r"|sea|wind|gusts?|swell|waves?|depth|height|altitude|elevation|length|distance|wait"
    r"|queue|delay|layover|connection|gap|speed|battery|group|party|age|capacity|weight"
    r"|marathon|race|loop|trail|stage|tide|uv|humidity|gradient|slope|incline|ascent|descent"
    r"|vertical|population|heart\s+rate|pulse|signal|ping|range|runway|summit|peak|lake"
    r"|dive|hike|walk|climb|trek|commute|steps|stairs|stops|switchbacks)(?![a-z])",
    F,
)
_COPULA = re.compile(
    r"(?:(?<![a-z])(?:is|was|are|were|stays|stayed|gets|got)|'s)(?![a-z])(?:\s+(?:like|about"
    r"|around|only|just|maybe|roughly|barely|nearly|almost|over|under|below|above|usually"
    r"|always|still|a\s+good|a\s+solid))*\s*\Z",
    F,
)
# Distance said with the verb of going: "we covered 40 on the bikes", "cycled 85".
_WENT_DISTANCE = re.compile(
    r"(?<![a-z])(?:covered|cycled|biked|walked|hiked|trekked|paddled|swam|rowed"
    r"|skied|sailed)\s+(?:(?:about|around|roughly|nearly|almost|over|a\s+good)\s+)?\Z",
    F,
)
# Round 28: "I ran 12" ("the taxi ran 40" has no runner); its review: a run is at most 50
# (km or miles) and is not "on" or "for" what is bought ("we ran 300 on the bar tab", "I ran
# 40 on drinks" are money; "I ran 10 on the treadmill" is a run).
_RAN = re.compile(
    r"(?<![a-z])(?:i|we|he|she|they)\s+(?:ran|run|jogged)"
    r"\s+(?:(?:about|around|roughly|nearly|almost|over|a\s+good)\s+)?\Z",
    F,
)
_RAN_ON_BOUGHT = re.compile(
    r"\s*(?:on|for)\s+(?!(?:(?:the|my|our|a|an|some)\s+)?(?:beach|sand|track|treadmill|trails?"
    r"|paths?|roads?|promenade|boardwalk|sea\s?front|waterfront|river|riverside|canal|course"
    r"|loop|hills?|mountains?|streets?|park|ridge|coast|island|flat|morning|evening|marathon"
    r"|half|race|charity|training|fun)(?![a-z]))",
    F,
)


def _ran(text: str, low: int, start: int, end: int, number: str) -> bool:
    digits = number.replace(",", "")
    return (
        _RAN.search(text, low, start) is not None
        and digits.isdigit()
        and int(digits) <= 50
        and _RAN_ON_BOUGHT.match(text, end) is None
    )


_GAP_OF = re.compile(r"(?<![a-z])(?:gap|buffer|window|margin)\s+of\s+(?:about\s+)?\Z", F)


# The head of a subject comes before any preposition, and no noun follows it: "seat pitch on
# that airline", not "the hut on the trail", "altitude sickness pills", "the water taxi".
_PREPOSITION = re.compile(
    r"(?<![a-z])(?:on|at|in|from|to|of|for|with|by|near|over|under|up|into)(?![a-z])", F
)
_HEAD_END = re.compile(
    r"\s*(?:'s|(?:is|was|are|were|stays|stayed|gets|got|on|at|in|of|for|from|to|up|down|as"
    r"|there|here|today|yesterday|usually|always|this|that|last)(?![a-z])|,|\Z)",
    F,
)


_COUNTED = re.compile(r"steps|stairs|stops|switchbacks", F)


def _measured(text: str, low: int, start: int) -> bool:
    verb = _COPULA.search(text, low, start)
    if verb is None:
        return False
    measure = _MEASURE_SUBJECT.search(text, low, verb.start())
    return (
        measure is not None
        # "the lounge day pass"; a place's steps or stops are counted (round 28: "the temple
        # steps are 300")
        and (
            _BOUGHT.search(text, low, measure.end()) is None
            or _COUNTED.fullmatch(measure.group()) is not None
        )
        and _PREPOSITION.search(text, low, measure.start()) is None
        and _HEAD_END.match(text, measure.end()) is not None
    )


# The shared money words (`vocabulary`), and pay, cover and what is paid by the period.
_MONEY = money_in(
    MONEY_WORDS,
    r"insurance|salary|salaries|wages?|income|bonus|allowance|per\s+diem|stipend"
    r"|earn(?:s|ed|ings)?|tickets?|(?:a|per)\s+(?:month|year|week|night)",
    zh=rf"{MONEY_WORDS_ZH}|票|薪|工资|收入|补贴|奖金|酒店|住宿|房",
)


def level_reached(text: str, start: int, end: int, number: str) -> bool:
    """Whether the bare number text[start:end] is a level reached, a reading of the body, a
    score, a group's size, a time to connect, a height crossed or a cap in a measure's unit."""
    low = _clause_start(text, start)
    sentence_low = max(0, start - 80)
    if _MONEY.search(text, sentence_low, min(len(text), end + 40)) or _RATE_TAIL.match(text, end):
        return False  # "the cooking class was 75 each", "the hut on the trail is 50 a bed"
    digits = number.replace(",", "")
    high = digits.isdigit() and 1000 <= int(digits) <= 9000
    bought = _BOUGHT.search(text, low, start)  # "the taxi went up to 40"
    if bought and high and _MOVER.fullmatch(bought.group()):
        bought = (
            None  # a lift that is also paid for goes up to a height: "the gondola goes up to 2,200"
        )
    return bool(
        (
            _REACHED_EN.search(text, low, start)
            and not bought
            and (not _GOING.search(text, low, start) or _MOVER.search(text, low, start))
            and (
                not _RISING.search(text, low, start)
                or _MOVER.search(text, low, start)
                or _MEASURE_SUBJECT.search(text, low, start)
            )
        )
        or _REACHED_ZH.search(text, low, start)
        or _BODY_ZH.search(text, low, start)
        or _BODY_EN.search(text, low, start)
        or (_SCORED.search(text, low, start) and _TEST_AFTER.match(text, end))
        or _GROUP_NOUN.search(text, low, start)
        or _measured(text, low, start)
        or _WENT_DISTANCE.search(text, low, start)
        or _ran(text, low, start, end, number)
        or _GAP_OF.search(text, low, start)
        or (_CONNECT.search(text, low, start) and _CONNECT_AFTER.match(text, end))
        or (_HEIGHTS_OVER.search(text, low, start) and high)
        or (
            _CAP_SAID.search(text, low, start)
            and _MEASURED.search(text, sentence_low, start) is not None
        )
    )


__all__ = ["YUAN_JIAO", "level_reached", "reported_price"]
