"""The compiled patterns behind the privacy guard in `memory.privacy`.

They run on normalised text: full-width forms folded, other scripts' digits made ASCII and
invisible characters removed (see `privacy._normalise`). Every pattern is compiled once, at
import, and written so that no input makes it backtrack more than linearly: a number run can
only start where the previous character could not continue it, and repeated groups are
separated by a required character, so there is only one way to split a run.
"""

from __future__ import annotations

import re

F = re.ASCII | re.IGNORECASE

# "is", ":", "number", "号码", "是" … between a label and the value it introduces.
CONNECT = r"(?:\s*(?:number|no\.?|num|is|was|:|=|#|号码|号|是|为))*\s*"
END = r"[^\s,.;!?。、]"  # a character that can belong to a value
_UNMASKED = r"(?!\[redacted\])"  # a value that redact() has already masked is not found again

# --- ID-card and passport numbers -----------------------------------------------------------

# Digits, optionally in groups of three or more split by one space, dash, dot or underscore
# (so "2026-12-10" and "2026.12.10" stay three short runs), optionally ending in the X of an
# ID-card number.
RUN = re.compile(r"(?<![0-9a-z+])\d+(?:(?<=\d{3})[ \-._](?=\d{3})\d+)*x?(?![0-9a-z])", F)
RUN_SEPARATORS = str.maketrans("", "", " -._")
PASSPORT = re.compile(r"(?<![0-9a-z])(?:[cdegps]\d{8}|e[a-z]\d{7})(?![0-9a-z])", F)
# "passport E 1234 5678": up to two letters, then digit groups split by single separators.
ID_LABEL = re.compile(
    r"(?:(?<![a-z])(?:passport|national\s+id|identity\s+card|id\s*(?:card|number|no\.?(?![a-z])|#))"
    rf"|护照|身份证|证件){CONNECT}([a-z]{{0,2}}[ \-]?\d[0-9a-z]*(?:[ \-]\d[0-9a-z]*)*)",
    F,
)

# --- bank cards -------------------------------------------------------------------------------

CARD_LABEL = re.compile(
    r"(?:(?<![a-z])(?:card\s*(?:number|no\.?(?![a-z])|num|#)|(?:credit|debit|bank)\s*card)"
    rf"|卡号|银行卡|信用卡|储蓄卡|借记卡){CONNECT}(\d(?:[ \-._]?\d){{3,18}})",
    F,
)

# --- passwords and PINs -----------------------------------------------------------------------

_SECRET_EN = (
    r"(?<![a-z])(?:password|passwd|passphrase|passcode|pass\s+code|pwd|pw"
    r"|pin(?:\s*(?:code|number|no\.?(?![a-z]))|码)?)(?![a-z])"
)
_SECRET_ZH = "支付密码|密码|口令|暗号|验证码"  # 登录密码, 开机密码 … end in 密码
SECRET = re.compile(
    rf"(?:{_SECRET_EN}|{_SECRET_ZH})"
    rf"(?:(?:\s*(?:is|was|:|=|是|为))+\s*{_UNMASKED}({END}+)"  # "password is hunter2"
    rf"|\s*{_UNMASKED}((?={END}{{0,64}}\d){END}+))",  # "PIN 1234", "密码123456"
    F,
)
# After a Chinese label any Latin token is the secret itself: "登录密码 qwerty", "口令 abcd".
# ("密码 manager" and the like name a tool, not a secret.)
_SECRET_TOOL = r"(?:manager|protected|policy|reset|app|vault|keeper)(?![a-z])"
SECRET_ZH_LATIN = re.compile(
    rf"(?:{_SECRET_ZH})\s*[:=]?\s*{_UNMASKED}(?!{_SECRET_TOOL})((?![:=])(?:(?![,.;!?])[!-~])+)",
    F,
)
# "pass: hunter2" at the start of a clause or after "my"/"wifi"; not "boarding pass: …".
SECRET_PASS = re.compile(
    r"(?:(?<![a-z\s])\s*|(?<![a-z])(?:my|wifi|wi-fi|login|account)\s+)pass(?![a-z])"
    rf"\s*[:=]\s*{_UNMASKED}({END}+)",
    F,
)

# --- phone numbers ----------------------------------------------------------------------------

MOBILE = re.compile(r"(?:0086|86)?1[3-9]\d{9}")
# "+8613800000000", "+44 20 7946 0958", "+1 (415) 555-0100"; a group never ends before a digit,
# so a long run of digits can be split only one way.
INTL_PHONE = re.compile(
    r"(?<![0-9a-z])\+(?:\d{8,15}|\d{1,3}(?:[ \-.]?\(?\d{1,5}(?!\d)\)?){2,6})(?![0-9a-z])", F
)
LANDLINE = re.compile(r"(?<![0-9a-z])0\d{2,3}-\d{7,8}(?![0-9a-z])", F)
# North American numbers: "(415) 555-0132", "415 555 0132", "1-415-555-0132".
NANP = re.compile(
    r"(?<![0-9a-z+\-.])(?:1[ \-.])?(?:\(\d{3}\)\s?|[2-9]\d{2}[ \-.])[2-9]\d{2}[ \-.]\d{4}"
    r"(?![0-9a-z]|[\-.]\d)",
    F,
)
_PHONE_VALUE = r"(\+?\(?\d[\d \-().]{4,}\d)"
PHONE_LABEL = re.compile(
    r"(?:(?<![a-z])(?:telephone|phone|mobile|cell|tel|contact|whatsapp"
    r"|(?:call|text|reach|ring)\s+me)(?![a-z])|电话|手机|联系方式|座机|联系我|打给我)"
    r"(?:\s*(?:number|no\.?|num|is|was|at|on|:|=|#|号码|号|是|为))*\s*" + _PHONE_VALUE,
    F,
)
# A date after "phone"/"call me on" is when, not whom: "call me on 2026-12-10".
DATE = re.compile(r"\d{4}([\-./])\d{1,2}\1\d{1,2}|\d{1,2}([\-./])\d{1,2}\2\d{2,4}")
# "my number is 5550132": a bare "number" after a possessive (not "booking number").
NUMBER_LABEL = re.compile(
    r"(?:(?<![a-z])(?:my|his|her|our|their|your)\s+(?:number|no\.?|num)(?![a-z])"
    r"|(?:我|他|她|我们)的(?:号码|电话))"
    r"(?:\s*(?:is|was|:|=|是|为))*\s*" + _PHONE_VALUE,
    F,
)

# --- exact amounts of money -------------------------------------------------------------------

_NUM = (
    r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
    r"(?:\s?(?:k|w|hundred|thousand|grand|千|万|百)(?![a-z]))?"
)
_ZH_FORMAL = "壹贰貳叁參肆伍陆陸柒捌玖"  # 大写 digits, written almost only for money
_ZH_UNITS = "零〇一二两三四五六七八九" + _ZH_FORMAL
_ZH_SCALES = "十百千万拾佰仟萬亿億"
ZH_NUMERALS = _ZH_UNITS + _ZH_SCALES
_ZH_DIGIT = f"[{ZH_NUMERALS}]"
# "两千", "五百", "伍佰"; not the "一" of "一等座"; and "六百一晚" is 600 a night, not 610.
_ZH_BIG = f"[{_ZH_UNITS}]*[{_ZH_SCALES}](?:(?!一[晚夜天日人间张位个次]){_ZH_DIGIT})*"
_TO = r"(?:\s*(?:~|to|至|到)\s*|-(?=\d{3}))"  # ranges: "500-800", "两千到三千"
_AMOUNT = rf"{_NUM}(?:{_TO}{_NUM})?|{_ZH_BIG}(?:{_TO}{_ZH_BIG})?"
# English number words: "three thousand", "two hundred and fifty", "ninety".
_EN_SMALL = "zero|one|two|three|four|five|six|seven|eight|nine"
_EN_LARGE = (
    "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    "|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|grand|million"
)
_EN_WORD = rf"(?:{_EN_SMALL}|{_EN_LARGE})(?![a-z])"
_EN_NUM = rf"(?<![a-z])(?:an?\s+)?{_EN_WORD}(?:(?:\s+and)?[\s\-]+{_EN_WORD})*"
EN_NUMBER = re.compile(_EN_NUM, F)
EN_LARGE = re.compile(rf"(?<![a-z])(?:{_EN_LARGE})(?![a-z])", F)  # ten or more: a price

_CODES = r"rmb|cny|usd|eur|gbp|jpy|hkd|sgd|aud|cad|twd|krw|thb"
_CUR_BEFORE = (
    rf"(?:(?<![a-z])[a-z]{{1,2}}\$|[¥$€£₩₹]|(?<![a-z])(?:{_CODES})(?![a-z])"
    r"|人民币|美元|美金|欧元|港币)"
)
_CUR_AFTER = (
    r"(?:元(?!旦)|圆|块(?:钱)?(?!儿)|人民币|美元|美金|欧元|英镑|日元|港币|港元|澳元|加元"
    rf"|(?<![a-z])(?:{_CODES}|yuan|kuai|dollars?|bucks|quid|euros?|yen)(?![a-z]))"
)
_NOT_AFTER_NUMBER = rf"(?<![0-9a-z.,{ZH_NUMERALS}])"  # a number starts here, not inside one
EXPLICIT = re.compile(
    rf"{_CUR_BEFORE}\s?(?:{_AMOUNT}|{_ZH_DIGIT}+|{_EN_NUM})"
    rf"|{_NOT_AFTER_NUMBER}(?:{_AMOUNT}|[{_ZH_FORMAL}]+)\s?{_CUR_AFTER}",
    F,
)
CURRENCY_AFTER = re.compile(rf"\s?{_CUR_AFTER}", F)  # "two hundred bucks", checked in code
CANDIDATE = re.compile(rf"(?<![0-9a-z.,:/\-{ZH_NUMERALS}])(?:{_AMOUNT})(?![0-9a-z])", F)
# A number followed by one of these counts something other than money.
NOT_MONEY = re.compile(
    r"\s?(?:%|percent|pct|°|degrees?|h|hrs?|hours?|mins?|minutes?|secs?|seconds?|am|pm|a\.m"
    r"|p\.m|km|kms|m|mi|miles?|meters?|metres?|yards?|feet|ft|sqm|kg|kilos?|kilograms?|lbs?"
    r"|pounds?|g|stars?|th|st|nd|rd|nights?|days?|weeks?|months?|years?|times?|people|persons?"
    r"|pax|guests?|adults?|kids?|children|pieces?|bags?|stops?|transfers?|connections?"
    r"|layovers?|legs?|floors?|rows?|seats?|rooms?|beds?|steps?|x)"
    r"(?![a-z])|[:/.]\d|-\d{1,2}(?!\d)"
    r"|\s?(?:分钟|分|秒|小时|个|天|日|号|月|年|周|星期|晚|夜|点|时|次|人|位|件|箱|张|间|层|楼"
    r"|站|公斤|千克|斤|公里|千米|米|平|星|岁|倍|度|条|排|步)",
    F,
)
_GAP = r"[^0-9,.;!?。、\n]"  # stays within one clause and before the first number
MONEY_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:budget|price[sd]?|pricing|costs?|fares?|rates?|spend(?:ing)?|allowance"
    r"|per\s+diem|reimburs[a-z]*|expenses?|pay(?:ing)?)(?![a-z])"
    r"|预算|价格|价位|价钱|房价|票价|费用|花费|开销|报销|差标|住宿标准|差旅标准|住宿费|消费"
    rf"|单价|均价|限额|额度){_GAP}{{0,15}}\Z",
    F,
)
# "人均300", "每晚不超过600", "per person 300", "a night about 500": a rate right before the
# number, with at most a few words of limit or approximation between them.
PER_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:per\s+(?:person|head|night|room)|a\s+night|each\s+night|nightly)"
    r"(?![a-z])|人均|每人|每晚|一晚|每夜|每间(?:房)?)"
    r"\s*(?:(?:is|of|about|around|roughly|under|below|max(?:imum)?|up\s+to|at\s+most"
    r"|no\s+more\s+than|less\s+than|not\s+over|:|=|约|大约|大概|差不多|在|是|为|不超过|不高于"
    r"|低于|少于|最多|最高|控制在|消费)\s*)*\Z",
    F,
)
PER_AFTER = re.compile(
    r"\s*(?:(?:per|a|an|each|every|/)\s*(?:night|room|ticket|person|head|day|trip)"
    r"|nightly)(?![a-z])"
    r"|\s*(?:每|一|/)(?:晚|间|张|人|天|夜)|\s*人均",
    F,
)
# "三千预算", "3000 budget"; but "20 budget hotels" are cheap hotels, not a price.
MONEY_AFTER = re.compile(
    r"\s*的?(?:预算|经费|房费|差标)"
    r"|\s*budget(?![a-z])(?!\s+(?:hotels?|airlines?|carriers?|chains?|brands?|options?|rooms?"
    r"|stays?|flights?|travel|inns?|hostels?|accommodation)(?![a-z]))",
    F,
)
_THING_ZH = "(?:酒店|宾馆|民宿|住宿|房费|房间|房|机票|车票|票)"
_LIMIT_ZH = "(?:以内|以下|之内|左右|上下|封顶)"
THING_AFTER = re.compile(f"(?:{_LIMIT_ZH}|内)的?{_THING_ZH}")
THING_BEFORE_ZH = re.compile(rf"{_THING_ZH}{_GAP}{{0,8}}\Z")
CAP_BEFORE_ZH = re.compile(r"(?:不超过|不高于|低于|少于|最多|最高|控制在)\s*\Z")
LIMIT_AFTER_ZH = re.compile(_LIMIT_ZH)
THING_BEFORE_EN = re.compile(
    r"(?<![a-z])(?:hotels?|rooms?|tickets?|fares?|flights?|trains?|stays?|accommodation)"
    rf"(?![a-z]){_GAP}{{0,20}}?(?<![a-z])(?:under|below|less\s+than|cheaper\s+than|up\s+to"
    r"|at\s+most|max(?:imum)?|no\s+more\s+than|not\s+over|around|about|within|<=?)\s*\Z",
    F,
)
