"""Round 30: what marks a bare number as money, or as a measure, by the shape of its sentence.

Rounds 25-29 listed the words that say what a number is, and each new batch of sentences
brought words no list held. These readings look at the evidence a sentence gives instead.

Money (`evidenced_amounts`, a rule that names money, so neither the learned layers nor the
keep-readings of `told`, `stated` and `readings` overturn it), for a number of two digits or
more with no unit after it:

- a cost shared anywhere in the sentence: "the drive to the airport was 60, we split it",
  "we went halves", "chipped in 25", "我们AA", "平摊" (one shares what was paid, never a
  length or a count: "we split the driving" shares no cost, "we split it over two days" a
  hike, "split between Rome and Milan" a trip);
- a place of shopping right after the number, after a verb of doing: "scored 200 at the duty
  free", "dropped 80 at the outlet mall", "blew 150 at the night market" ("we were 12 at the
  market" is a group, "waited 40 at the duty free" a wait);
- a judgement of price in the number's sentence: "the boat trip 55, pricey but fun", "a bit
  of a rip-off", "a steal", "worth every penny", "有点坑", "超值"; and "but ... worth it" right
  after the number, unless the number is read as a measure ("the documentary was 110 and
  worth it" is its length; "hotel room 189 but it was worth it" a price);
- a lounge with two digits or more: "the airport lounge 39", "the lounge at Heathrow 52",
  "贵宾厅三十九" (a lounge's own number is one digit: "lounge 3").

No money (`measured`, asked through `readings.not_money`), each only with no money word in
the clause and no hired ride or priced thing before the number:

- the length of something nobody buys: a layover, a stopover, a sermon, a speech, a playlist
  ("the layover is 75 in Doha"), and of a journey one makes oneself (a walk, a hike, a swim);
- the length of something sold by the ticket or the session (a gig, a set, a show, a concert,
  a film, a match, a lecture, a ceremony, a session, a service) only with a time in the
  sentence: a unit, "long", an interval, extra time, a clock time ("the opera was 180 with two
  intervals"); "the concert was 120" alone is as likely its ticket, so money (review of round
  30: it cost a blind set an amount; "in the morning" is no length);
- the length of a way (a path, a trail, a loop, a road, a towpath, a greenway) only with where
  it runs after the number or a unit in the sentence ("the bike path is 40 along the coast",
  "the river path was 18 each way to the old mill"; "the road is 60" may be a toll, "the boat
  was 40 around the island" has no way); all up to 300;
- Chinese: the length of a way said with 有 / 是 / 大概 or nothing, where the sentence says
  where it runs (沿着, 环湖, 穿过, 全长: "绿道沿着海边有四十", "环湖步道十四"; "路线两百" may
  be a guided day's price).

Money evidence said anywhere in the sentence never claims a number a word names as a place, a
service or a year ("pricey, but room 412 has a view", "we split the bill, then flight 302",
"AA 100", "back in 2019").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.privacy.told import MONEY_IN_CLAUSE
from memory.privacy.vocabulary import (
    COMMA_CLAUSE_END,
    HIRED_RIDES,
    MONEY_WORDS_ZH,
    POSITIONS,
    PRICED,
    YEAR,
    clause_span,
)

F = re.ASCII | re.IGNORECASE

# --- Money ----------------------------------------------------------------------------------

# "split it over two days" splits a drive or a hike, "split between Rome and Milan" a trip.
_SPLIT_TIME = (
    r"(?!\s+(?:up\s+)?(?:over|into|across|in(?:to)?\s+(?:two|three|2|3))\s+(?:[a-z0-9]+\s+){0,2}"
    r"(?:days?|nights?|legs?|stages?|parts?|sections?|mornings?|afternoons?|trips?|stops?|goes))"
)
_SHARED_COST = re.compile(
    r"(?<![a-z])(?:split\s+(?:it|that|this|the\s+(?:bill|cost|costs|fare|tab|check|cheque"
    rf"|price|difference|lot|total))(?![a-z]){_SPLIT_TIME}|split\s+(?:it\s+)?(?:two|three|four"
    r"|five|\d)\s+ways|split\s+between\s+(?:us|you|them|me|him|her|everyone|all|the\s+(?:two"
    r"|three|four|five|group|lot))|went\s+(?:halves|dutch|50/50)|go\s+(?:halves|dutch)"
    r"|chipped\s+in|chip\s+in|each\s+(?:paid|put\s+in|chipped)|my\s+(?:share|half|cut)\s+(?:was|is)"
    r"|venmo(?:ed)?|paid\s+(?:him|her|them|me)\s+back)(?![a-z])"
    # AA as the Chinese "each pays their own" sits beside Chinese ("我们AA", "AA制"), never
    # in "flight AA 100" or in "Haarlem"
    r"|(?<![a-z0-9])aa(?:制|(?![a-z0-9])(?<=[\u4e00-\u9fff]aa)|(?=\s?[\u4e00-\u9fff，,。]))"
    r"|平摊|均摊|分摊|各付|各出|凑钱|一人一半",
    F,
)
_SHOP_AFTER = re.compile(
    r"\s+(?:at|in)\s+(?:the\s+|a\s+|that\s+|this\s+)?(?:airport\s+)?(?:duty[\s-]?free|outlets?"
    r"(?:\s+mall)?|malls?|night\s+markets?|markets?|bazaars?|souks?|gift\s+shops?|souvenir"
    r"\s+(?:shops?|stalls?)|shops|boutiques?|supermarkets?|department\s+stores?|flea\s+markets?"
    r"|ikea|costco|7-?eleven|uniqlo|zara|h&m|apple\s+store|sephora|pharmacy)(?![a-z])",
    F,
)
_DOING_BEFORE = re.compile(
    r"(?<![a-z])(?:scored|dropped|blew|blown|burned|burnt|left|did|racked\s+up|splurged"
    r"|splashed\s+out|forked\s+out|shelled\s+out|threw\s+down|went\s+through|got\s+through"
    r"|lost)\s+(?:about\s+|around\s+|like\s+|nearly\s+|almost\s+|over\s+)?\Z",
    F,
)
_PRICE_JUDGED = re.compile(
    r"(?<![a-z])(?:pricey|pricy|overpriced|rip[\s-]?off|a\s+steal|a\s+bargain|a\s+snip"
    r"|worth\s+every\s+(?:penny|cent|dollar|euro|pound)|daylight\s+robbery|not\s+cheap"
    r"|cheap\s+as\s+chips)(?![a-z])"
    r"|有点坑|太坑|被坑|坑人|超值|性价比|物超所值|不便宜|好贵|有点贵|太贵",
    F,
)
_BUT_WORTH = re.compile(
    r"\s*,?\s*(?:but|though|yet)\s+(?:(?:it\s+was|it'?s|it\s+is|honestly|totally|so|well"
    r"|definitely|still|really)\s+){0,3}worth(?![a-z])"
    r"|\s*[，,]?\s*(?:但是?|不过)(?:真的|很|挺|也)?(?:值|值得)",
    F,
)
# Round 31: a number "for" a person one pays for a service is what they were paid: "the hike
# was 120 for the guide", "80 for our driver" ("a table for 12 for the guide" has no such shape:
# the person must follow the number itself).
_PAID_PERSON_AFTER = re.compile(
    r"\s+(?:each\s+)?for\s+(?:the|our|my|a|each|his|her|their)\s+(?:(?:local|private|mountain"
    r"|tour|dive|ski|surf|hotel)\s+)?(?:guides?|drivers?|porters?|chauffeurs?|instructors?"
    r"|sherpas?|boatm[ae]n|muleteers?|babysitters?|nann(?:y|ies)|cooks?|chefs?|skippers?"
    r"|captains?|photographers?|translators?|interpreters?|coach(?:es)?|trainers?|caddies|caddy|caddie|valets?|maids?)(?![a-z])",
    F,
)
# Round 31 review: a wait for a person is no pay ("we waited 20 for the driver").
_WAITED_BEFORE = re.compile(
    r"(?<![a-z])(?:waits?|waited|waiting|queued|stood|sat|hung\s+around|held\s+on)"
    r"(?:\s+(?:about|around|roughly|only|just|nearly|almost|over|another|a\s+good))*\s*\Z",
    F,
)
_LOUNGE = re.compile(
    r"(?:(?<![a-z])(?:the|airport|business|priority|vip|club|an?)\s+lounges?"
    r"(?:\s+(?:at|in)\s+[a-z]+(?:\s+[a-z0-9]+)?)?\s*(?:pass\s*)?(?:was|is|cost|costs|:|-)?"
    r"|(?:机场)?贵宾厅|(?:机场)?休息室)\s*\Z",
    F,
)
_CANDIDATE = re.compile(r"(?<![0-9a-z.,/:\-])(\d{2,5}(?:\.\d{1,2})?)(?![0-9a-z%°:/]|\.\d)", F)
# A unit or a counter after the number: it counts or measures something else.
_UNIT_AFTER = re.compile(
    r"\s*(?:(?!(?:was|is|has|does|plus|less|this|thus|yes|us|as|its|his|ours|yours|unless|across"
    r"|always|perhaps|besides|towards|afterwards|bucks|dollars|euros|quid|pounds|pesos|bills)(?![a-z]))"
    r"[a-z]{1,12}s|mins?|minutes?|hours?|hrs?|km|kms|miles?|m|ft|feet|kg|pm|am|people"
    r"|pax|of\s+us|percent|degrees?|points?|pts|x|k)(?![a-z])|\s*(?:分钟|小时|公里|米|人|位|个"
    r"|天|晚|次|岁|层|号|点|张|件|%|度|楼|房|室|排|座|栋|路)",
    F,
)
# What names a number as a place, a service or a year, however the sentence feels about
# money: "pricey, but room 412 has a view", "we split the bill, then flight 302 home", "AA 100",
# "in 2019". ("hotel room 189 but it was worth it" is still a price: "but ... worth" sits right
# after the number.)
_NAMED_BEFORE = re.compile(
    rf"(?<![a-z])(?:{POSITIONS}|flights?|trains?|bus|buses|trams?|lines?|routes?|coach|ferry"
    r"|level|deck|suite|cabin|car|carriage|bay|no\.?|number)\s*#?\s*\Z",
    F,
)
_YEAR_BEFORE = re.compile(r"(?<![a-z])(?:in|since|of|until|till|from)\s+\Z", F)
_CODE_BEFORE = re.compile(r"(?<![A-Za-z0-9])(?:[A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])\s\Z")
_SENTENCE_END = re.compile(r"[.!?;。！？；\n](?!\d)")


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    return clause_span(_SENTENCE_END, text, start, end)


def _unit_after(text: str, end: int) -> bool:
    return _UNIT_AFTER.match(text, end) is not None


def _named(text: str, low: int, start: int, number: str) -> bool:
    return bool(
        _CODE_BEFORE.search(text, low, start)
        or _NAMED_BEFORE.search(text, low, start)
        or (YEAR.fullmatch(number) and _YEAR_BEFORE.search(text, low, start))
    )


def evidenced_amounts(text: str) -> Iterator[tuple[int, int]]:
    """Spans of bare numbers the sentence marks as money (see the module docstring)."""
    for match in _CANDIDATE.finditer(text):
        start, end = match.span(1)
        if _unit_after(text, end):
            continue
        low = max(0, start - 60)
        first, last = _sentence(text, start, end)
        evidence = (
            _SHARED_COST.search(text, first, last)
            or _PRICE_JUDGED.search(text, first, last)
            or (_SHOP_AFTER.match(text, end) and _DOING_BEFORE.search(text, low, start))
            or _LOUNGE.search(text, low, start)
            or (_PAID_PERSON_AFTER.match(text, end) and not _WAITED_BEFORE.search(text, low, start))
        )
        number = match.group(1)
        if (evidence and not _named(text, low, start, number)) or (
            _BUT_WORTH.match(text, end) and not measured(text, start, end, number, judged=True)
        ):
            yield start, end


# --- No money -------------------------------------------------------------------------------

_LINK = (
    r"(?:\s+(?:is|was|'s|runs?|ran|lasts?|lasted|takes?|took|are|were)|:)"
    r"(?:\s+(?:like|about|around|roughly|only|just|maybe|probably|usually|over|under|nearly"
    r"|almost|a\s+solid))*\s*\Z"
)
# Things one attends whose number is only ever a length: nobody buys a layover or a sermon.
_UNBOUGHT_EVENT = re.compile(
    r"(?<![a-z])(?:layovers?|stopovers?|connections?|sermons?|speech(?:es)?|keynotes?"
    r"|briefings?|rehearsals?|warm-?ups?|encores?|playlists?|podcasts?|episodes?|mass)"
    rf"(?:\s+(?:in|at|on)\s+(?:the\s+)?[a-z]+)?{_LINK}",
    F,
)
# Things one attends that are also sold by the ticket or the session ("the concert was 120",
# "the surf session was 60", "the set was 45" a set menu, "the service was 45" a service
# charge): their number is a length only with a time in the sentence (`_TIME_CUE`).
_TICKETED_EVENT = re.compile(
    r"(?<![a-z])(?:gigs?|sets?|shows?|concerts?|films?|movies?|matche?s?|games?|lectures?"
    r"|talks?|ceremon(?:y|ies)|recitals?|screenings?|documentar(?:y|ies)|albums?"
    r"|performances?|operas?|plays?|panels?|sessions?|services?|classes|class|lessons?"
    r"|workshops?|workouts?|practices?|rehearsals?|tours?|excursions?)"
    rf"(?:\s+(?:in|at|on)\s+(?:the\s+)?[a-z]+)?{_LINK}",
    F,
)
# A time or a length said in the sentence ("in the morning" is no length): a unit, "long",
# a running time, an interval, extra time, a clock time.
_TIME_CUE = re.compile(
    r"(?<![a-z])(?:minutes?|mins?|hours?|hrs?|long|length|lengthy|runtime|run(?:ning)?\s+time"
    r"|duration|intervals?|intermissions?|half[\s-]?time|extra\s+time|overtime|stoppage\s+time"
    r"|full[\s-]?time|penalt(?:y|ies)|shoot-?outs?|tie-?breaks?|kick-?off"
    r"|injury\s+time|overran|ran\s+(?:over|long)|km|kms|kilomet(?:er|re)s?|miles?|met(?:er|re)s"
    r"|noon|midnight)(?![a-z])"
    r"|(?<![0-9])(?:[01]?\d|2[0-3])[:.][0-5]\d(?![0-9])|(?<![0-9.])(?:1[0-2]|0?[1-9])\s*[ap]\.?m(?![a-z])"
    r"|(?<![a-z])(?:starts?|begins?|ends?|finish(?:es)?|till|until|by|doors)\s+(?:at\s+)?"
    r"(?:1[0-2]|0?[1-9])(?![0-9.,])"
    r"|分钟|小时|公里|千米|[0-9]点",
    F,
)
# Round 31 review: sessions sold by the seat, whose "ran 80" is what they cost (an event "ran 50"
# is its length).
_SESSION = re.compile(
    r"(?<![a-z])(?:classes|class|lessons?|workshops?|workouts?|practices?|tours?|excursions?)"
    rf"(?:\s+(?:in|at|on)\s+(?:the\s+)?[a-z]+)?{_LINK}",
    F,
)
# Round 31: a verb of lasting says the number is a time whoever the subject is ("the tour
# lasted 90", "the talk went on for 40"); "ran" does for an event ("the lecture ran 50"; "the
# taxi ran me 40" is a fare: "ran" must stand right before the number).
_LASTED = re.compile(
    r"(?<![a-z])(?:lasts?|lasted|lasting|went\s+on(?:\s+for)?|dragged\s+on(?:\s+for)?"
    r"|stops?|stopped|paus(?:es|ed?)|halts?|halted)"
    r"(?:\s+(?:about|around|roughly|only|just|nearly|almost|over|under|a\s+good|a\s+solid))*\s*\Z",
    F,
)
_RAN = re.compile(
    r"(?<![a-z])(?:runs?|ran)(?:\s+(?:about|around|roughly|only|just|nearly|almost|over|under))*"
    r"\s*\Z",
    F,
)
# The Chinese: a stop or a stay said with its verb ("每个观景台停二十", "在山顶待了四十"), and a
# journey one makes oneself to somewhere ("开车去酒庄九十", "走路到古城二十"; "骑行团带午饭六十五"
# goes nowhere: a lunch's price), with no money word or hired
# ride in the clause ("租车一天三百", "开车去机场停车费六十" stay prices).
_LASTED_ZH = re.compile(r"(?:停留|停|待|呆|逗留)了?(?:大概|差不多|约|大约)?\s*\Z")
_SELF_MADE_ZH = re.compile(
    r"(?:开车|自驾|走路|步行|骑车|骑行|徒步|跑步)(?:(?:去|到|回|上|下)[^0-9，,。.;；！!？?\n]{1,6}?)?"
    r"(?:要|得|大概|差不多|约|大约)?\s*\Z"
)
# Round 31 review: pay and a rate said before the number are money too ("自驾去大理每天补贴
# 三百", "开车去工地一天三百"), and so is a money word anywhere in the sentence ("开车去酒庄
# 九十，门票另外").
_MONEY_ZH = re.compile(
    rf"{MONEY_WORDS_ZH}|包车|打车|出租|油|过路|停车|门票|票|补贴|补助|工资|薪|小费|押金|报销"
    r"|[一每](?:天|人|晚|次|趟)|人均"
)
# When a session is held, right after its number: "the yoga class is 75 in the morning" (a
# price is not said with the part of the day it is paid in).
_WHEN_AFTER = re.compile(
    r"\s+(?:(?:in|on)\s+the\s+(?:mornings?|afternoons?|evenings?)|at\s+(?:night|dawn|dusk"
    r"|sunrise|sunset)|(?:every|each)\s+(?:morning|afternoon|evening|night)|before\s+breakfast)"
    r"(?![a-z])",
    F,
)
# Journeys one makes oneself, as `told` reads them: "the walk was 20 but worth it".
_SELF_MADE = re.compile(
    r"(?<![a-z])(?:walks?|hikes?|treks?|climbs?|swims?)"
    rf"(?:\s+(?:to|from|up|down|around)\s+(?:the\s+)?[a-z]+)?{_LINK}",
    F,
)
# Ways, whose number may also be a toll, a pass or a guided day ("the road is 60", "the route
# was 45"): a length only where the sentence says where it runs or gives a unit.
_WAY = re.compile(
    r"(?<![a-z])(?:paths?|trails?|loops?|tracks?|roads?|routes?|lanes?|towpaths?|greenways?"
    r"|boardwalks?|promenades?|circuits?|coastlines?|beach(?:es)?|ridges?|walkways?|footpaths?"
    r"|bridleways?|stretch(?:es)?|switchbacks|detours?|shortcuts?)"
    rf"(?:\s+(?:walk|ride|section|bit|part|one))?(?:\s+(?:to|from|up|down|around)\s+(?:the\s+)?"
    rf"[a-z]+)?{_LINK}",
    F,
)
_WHERE_AFTER = re.compile(
    r"(?:\s+each\s+way)?\s+(?:along|around|round|through|across|over|into|up|down|past|beside"
    r"|alongside|to)"
    r"\s+(?:the\s+|a\s+|town|to\s+)",
    F,
)
_WAY_ZH = re.compile(
    r"(?:步道|绿道|骑行道|栈道|环湖|环岛|徒步路线|登山道|海滨路|滨海路|林道|古道|山路|路线)"
    r"[^0-9，,。.;；！!？?\n]{0,8}?(?:有|是|约|大概|差不多|全长)?\s*\Z"
)
# Where a Chinese way runs, or its length said as one, as "along" is in English: 沿着, 环湖,
# 穿过, 全长 ("路线两百" may be a guided day's price).
_WHERE_ZH = re.compile(r"沿|环湖|环岛|绕|穿过|穿越|经过|横跨|全长|一圈|到[^0-9,，。]{1,6}")
_HIRED = re.compile(rf"(?<![a-z])(?:{HIRED_RIDES})(?![a-z])", F)
_WORTH = re.compile(r"(?<![a-z])worth(?![a-z])", F)
# Not money words here: "each way" of a path, "extra time" of a match.
_NOT_MONEY_HERE = re.compile(r"(?<![a-z])(?:each\s+way|extra\s+time)(?![a-z])", F)
# A priced thing before the number (`vocabulary.PRICED`), and what else is priced here: a
# taxi, an entry, a class, a lesson, a room, a pass, a rental or a hire.
_PRICED_BEFORE = re.compile(
    rf"(?<![a-z])(?:{PRICED}|taxis?|entry|rooms?|passes?|rentals?|hire)"
    r"(?![a-z])|票|费|价|钱",
    F,
)


# The thing is the head of its subject: "the hut on the trail is 50 a bed" is a hut's price.
_HEAD_OF_PHRASE = re.compile(
    r"(?<![a-z])(?:on|of|at|in|by|near|off|from|beside|above|below|along)\s+(?:the\s+|that\s+"
    r"|this\s+|a\s+|our\s+|my\s+)?(?:[a-z]+\s+)?\Z",
    F,
)
_RATE_AFTER = re.compile(
    r"\s*(?:a|an|per|for\s+the|/)\s*(?:bed|bunk|night|day|head|person|hour|week|ticket|go"
    r"|ride|seat|room|visit|pp)(?![a-z])",
    F,
)


def _subject(pattern: re.Pattern[str], text: str, low: int, start: int) -> bool:
    said = pattern.search(text, low, start)
    return said is not None and _HEAD_OF_PHRASE.search(text, low, said.start()) is None


def measured(text: str, start: int, end: int, number: str, *, judged: bool = False) -> bool:
    """Whether the bare number text[start:end] is a length or a span by the shape of its
    sentence, with no money word in its clause (see the module docstring). `judged`: the
    number is followed by "but ... worth it", which is then no money word of its own (effort
    is worth it too: "the walk was 20 but worth it")."""
    digits = number.replace(",", "")
    if not digits.isdigit() or not 2 <= int(digits) <= 300:
        return False
    low = max(0, start - 60)
    lasted = _LASTED.search(text, low, start) is not None
    first_s, last_s = _sentence(text, start, end)
    if _LASTED_ZH.search(text, low, start) or _SELF_MADE_ZH.search(text, low, start):
        return _MONEY_ZH.search(text, first_s, last_s) is None
    unbought = _subject(_UNBOUGHT_EVENT, text, low, start) or _subject(_SELF_MADE, text, low, start)
    ticketed = not unbought and _subject(_TICKETED_EVENT, text, low, start)
    way = not (unbought or ticketed) and _subject(_WAY, text, low, start)
    way_zh = not (unbought or ticketed or way) and _WAY_ZH.search(text, low, start) is not None
    if not (unbought or ticketed or way or way_zh or lasted):
        return False
    first, last = clause_span(COMMA_CLAUSE_END, text, start, end)
    after = _NOT_MONEY_HERE.sub(" ", text[end:last])
    clause = text[first:start] + " " + (_WORTH.sub(" ", after) if judged else after)
    if MONEY_IN_CLAUSE.search(clause) or _HIRED.search(text, first, last):
        return False
    if _RATE_AFTER.match(text, end):
        return False
    if lasted:
        return True  # a price does not last: "the tour lasted 90"
    if _PRICED_BEFORE.search(text, first, start):
        return False
    if unbought:
        return True
    if ticketed and _WHEN_AFTER.match(text, end):
        # Round 31 review: a session held in the morning is paid for in its sentence's other
        # clause too ("the cooking class was 75 in the morning, paid cash").
        return MONEY_IN_CLAUSE.search(text, first_s, last_s) is None
    if ticketed and _RAN.search(text, low, start) and not _subject(_SESSION, text, low, start):
        return True  # "the lecture ran 50"; a class or a tour that "ran 80" cost it
    if way_zh:
        return _WHERE_ZH.search(text, first, last) is not None
    if way and _WHERE_AFTER.match(text, end):
        return True
    return _TIME_CUE.search(text[first_s:start] + " " + text[end:last_s]) is not None


__all__ = ["evidenced_amounts", "measured"]
