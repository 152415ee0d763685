"""Labelled patterns of the privacy guard: a word that says what a value is, in English or
Chinese, before the value ("passport E1234…", "门禁密码 3692") or after it ("hunter2 is my
password", "987654321 is my Bonvoy number").

They run on the text of `memory.privacy.text.normalise` (ASCII digits, Latin letters, one
kind of space, dash and slash). Every pattern is compiled once, at import, and written so
that no input makes it backtrack more than linearly: repeated groups are separated by a
required character, so there is only one way to split a run.
"""

from __future__ import annotations

import re

F = re.ASCII | re.IGNORECASE

# "is", ":", "number", "号码", "是" … between a label and the value it introduces.
CONNECT = r"(?:\s*(?:number|no\.?|num|is|was|are|:|=|#|-|号码|字号|号|是|为|：))*\s*"
END = r"[^\s,.;!?。、，；()]"  # a character that can belong to a value
UNMASKED = r"(?!\[redacted\])"  # a value that redact() has already masked is not found again
# A value made of digits (with separators), possibly after up to three letters.
# (HKID "A123456(7)", passport "E 1234 5678", membership "MU 1234 5678 9"; six digits or more)
_DIGITS_VALUE = r"([a-z]{0,3}[ \-]?\d(?:[ \-._/()]{0,2}\d){5,24}\)?(?:\s?x)?)(?![0-9a-z])"

# --- ID-card and passport numbers -----------------------------------------------------------

PASSPORT = re.compile(r"(?<![0-9a-z])(?:[cdegps]\d{8}|e[a-z]\d{7})(?![0-9a-z])", F)
_ID_WORDS = (
    r"(?:(?<![a-z])(?:passport|national\s+id|identity\s+card|id\s+card|hkid"
    r"|(?<!member\s)(?<!customer\s)(?<!user\s)(?<!login\s)(?<!wechat\s)id|ssn"
    r"|social\s+security(?:\s+number)?|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e)(?![a-z])"
    r"|护照|身份证|身分证|证件|居民身份|驾驶证|驾照|社保号|通行证|台胞证|回乡证|签证)"
)
ID_LABEL = re.compile(rf"{_ID_WORDS}{CONNECT}{UNMASKED}{_DIGITS_VALUE}", F)

# --- bank cards -------------------------------------------------------------------------------

_CARD_WORDS = (
    r"(?:(?<![a-z])(?:card|visa|master\s?card|amex|american\s+express|unionpay|union\s+pay"
    r"|jcb|discover|diners)(?![a-z])|卡号|银行卡|信用卡|储蓄卡|借记卡|公司卡|卡)"
)
CARD_LABEL = re.compile(
    rf"{_CARD_WORDS}{CONNECT}{UNMASKED}(\d(?:[ \-._/]{{0,2}}\d){{7,18}})(?![0-9a-z])", F
)
# Security codes: "CVV 737", "security code: 123", "卡背面三位码737", "安全码 319".
_CVV_WORDS = (
    r"(?:(?<![a-z])(?:cvv2?|cvc2?|csc|cvn|(?:card\s+)?security\s+code|card\s+code"
    r"|card\s+verification(?:\s+(?:code|value|number))?)(?![a-z])"
    r"|安全码|校验码|cvv码|cvc码|(?:背面|背后|反面)[^0-9\s]{0,4}?[三四34]位(?:数字|数|码)?)"
)
# A few words may stand between a label and its value: "expiry date of my visa card is …".
_FILLER = r"(?:\s+[a-z]+){0,5}?"
CVV_WORD = re.compile(_CVV_WORDS, F)
CVV = re.compile(
    rf"{_CVV_WORDS}{_FILLER}(?:\s*(?:on\s+the\s+back|is|was|:|=|#|-|是|为|码))*\s*{UNMASKED}"
    r"(\d{3,4})(?!\d)",
    F,
)
# The last digits of a card: "ending 0005", "ends in 4242", "尾号6789", "last four 1111".
TAIL = re.compile(
    r"(?:(?<![a-z])(?:ending(?:\s+(?:in|with))?|ends?\s+(?:in|with)|last\s+(?:4|four)"
    r"(?:\s+digits)?(?:\s+(?:are|is))?)(?![a-z])|尾号(?:是|为)?|后四位(?:是|为)?|后4位(?:是|为)?"
    rf"|末四位|末4位)\s*:?\s*{UNMASKED}(\d{{4}})(?![0-9]|[\-./:]\d)",
    F,
)
PHONE_NEAR = re.compile(r"(?<![a-z])(?:phone|mobile|cell|tel)|手机|电话|号码", F)
CARD_NEAR = re.compile(
    r"(?<![a-z])(?:cards?|visa|master\s?card|amex|unionpay|jcb|discover|diners|debit|credit)"
    r"(?![a-z])|卡|银行|信用|借记|储蓄",
    F,
)
# Expiry dates: "exp 09/27", "expiring 12/28", "有效期08/29", "有效期至2027年11月".
_EXPIRY_WORDS = (
    r"(?:(?<![a-z])(?:exp(?:iry|ires|iring|iration)?\.?(?:\s+date)?|valid\s+(?:thru|through"
    r"|until|till)|good\s+thru)(?![a-z])|有效期(?:至|到)?|到期(?:日|时间)?)"
)
EXPIRY = re.compile(
    rf"{_EXPIRY_WORDS}{_FILLER}(?:\s*(?:is|on|in|at|:|=|是|为|至|到))*\s*{UNMASKED}"
    r"((?:0?[1-9]|1[0-2])\s?[/\-]\s?(?:20)?\d{2}(?![0-9/])|20\d{2}\s?年\s?(?:0?[1-9]|1[0-2])\s?月"
    r"|20\d{2}[/\-](?:0?[1-9]|1[0-2])(?![0-9/\-]))",
    F,
)
# A date of these is not a card's: "passport expires 05/31", "会员有效期至2027年3月".
NOT_CARD_EXPIRY = re.compile(
    r"(?<![a-z])(?:passport|membership|status|points|miles|voucher|coupon|tier)(?![a-z])"
    r"|护照|签证|会员|积分|里程|券",
    F,
)

# --- phone numbers ----------------------------------------------------------------------------

# "+8613800000000", "+44 20 7946 0958", "+1 (415) 555-0100"; a group never ends before a digit,
# so a long run of digits can be split only one way.
INTL_PHONE = re.compile(
    r"(?<![0-9a-z])\+(?:\d{8,15}|\d{1,3}(?:[ \-.]?\(?\d{1,5}(?!\d)\)?){2,6})(?![0-9a-z])", F
)
LANDLINE = re.compile(r"(?<![0-9a-z])0[1-9]\d{1,2}[ \-]\d{3,4}[ \-]?\d{4}(?![0-9a-z])", F)
# North American numbers: "(415) 555-0132", "415 555 0132", "1-415-555-0132".
NANP = re.compile(
    r"(?<![0-9a-z+\-.])(?:1[ \-.])?(?:\(\d{3}\)\s?|[2-9]\d{2}[ \-.])[2-9]\d{2}[ \-.]\d{4}"
    r"(?![0-9a-z]|[\-.]\d)",
    F,
)
_PHONE_VALUE = r"(\+?\(?\d[\d \-().]{4,}\d)"
_PHONE_WORDS = (
    r"(?:(?<![a-z])(?:telephone|phone|mobile|cell|tel|contact|whatsapp|wechat|signal|sms"
    r"|(?:call|text|reach|ring|message)\s+(?:me|him|her|us|my\s+\w+))(?![a-z])"
    r"|电话|手机|联系方式|座机|联系我|打给我|微信|短信|号码)"
)
PHONE_LABEL = re.compile(
    rf"{_PHONE_WORDS}(?:\s*(?:number|no\.?|num|is|was|at|on|:|=|#|号码|号|是|为))*\s*"
    rf"{UNMASKED}{_PHONE_VALUE}",
    F,
)
# "my number is 5550132": a bare "number" after a possessive (not "booking number").
NUMBER_LABEL = re.compile(
    r"(?:(?<![a-z])(?:my|his|her|our|their|your)\s+(?:number|no\.?|num)(?![a-z])"
    r"|(?:我|他|她|我们)的(?:号码|电话))"
    rf"(?:\s*(?:is|was|:|=|是|为))*\s*{UNMASKED}{_PHONE_VALUE}",
    F,
)
# A date after "phone"/"call me on" is when, not whom: "call me on 2026-12-10".
DATE = re.compile(r"\d{4}([\-./])\d{1,2}\1\d{1,2}|\d{1,2}([\-./])\d{1,2}\2\d{2,4}")

# --- passwords, PINs and access codes ---------------------------------------------------------

_SECRET_EN = (
    r"(?<![a-z])(?:password|passwd|passphrase|passcode|pass\s+code|pwd|pw|otp"
    r"|one[\s\-]time\s+(?:code|password)|verification\s+code"
    r"|(?:door|gate|entry|access|lock|keypad|alarm|garage|building|lobby|lockbox|safe|locker"
    r"|unlock|wi-?fi|network|router)\s+(?:code|key|pin|combination|combo)"
    r"|(?:safe|lock|locker|padlock)\s+combination"
    r"|(?:code|pin|combo|combination|password)\s+(?:to|for|of)\s+(?:(?:my|the|our)\s+)?"
    r"(?:building|front\s+door|door|gate|room|apartment|flat|house|home|garage|safe|locker"
    r"|lockbox|wi-?fi|network|alarm|office|suitcase|lock)"
    r"|pin(?:\s*(?:code|number|no\.?(?![a-z]))|码)?)(?![a-z])"
)
# 登录密码, 门禁密码 … end in 密码
_SECRET_ZH = "支付密码|密码|口令|暗号|验证码|门禁码|开门码|动态码|密钥|秘钥|开锁码|解锁码"
SECRET = re.compile(
    rf"(?:{_SECRET_EN}|{_SECRET_ZH})"
    r"(?:\s+(?:for|of|to|on|at)\s+(?:(?:the|my|our)\s+)?[a-z\-]+(?:\s+[a-z\-]+)?)?"  # "for the X"
    rf"(?:(?:\s*(?:is|was|'s|:|=|是|为|就是))+\s*{UNMASKED}({END}+)"  # "password is hunter2"
    rf"|\s*{UNMASKED}((?={END}{{0,64}}\d){END}+))",  # "PIN 1234", "密码123456"
    F,
)
# After a Chinese label any Latin token is the secret itself: "登录密码 qwerty", "口令 abcd".
# ("密码 manager" and the like name a tool, not a secret.)
_SECRET_TOOL = r"(?:manager|protected|policy|reset|app|vault|keeper)(?![a-z])"
SECRET_ZH_LATIN = re.compile(
    rf"(?:{_SECRET_ZH})\s*[:=]?\s*{UNMASKED}(?!{_SECRET_TOOL})((?![:=])(?:(?![,.;!?])[!-~])+)",
    F,
)
# "pass: hunter2" at the start of a clause or after "my"/"wifi"; not "boarding pass: …".
SECRET_PASS = re.compile(
    r"(?:(?<![a-z\s])\s*|(?<![a-z])(?:my|wifi|wi-fi|login|account)\s+)pass(?![a-z])"
    rf"\s*[:=]\s*{UNMASKED}({END}+)",
    F,
)
# "Wi-Fi: network X, key sunflower77": a key or code after a network is named.
WIFI_KEY = re.compile(
    r"(?<![a-z])(?:wi-?fi|wlan|network|router)(?![a-z])[^.;!?\n]{0,40}?(?<![a-z])"
    rf"(?:key|code|pass)(?![a-z])\s*[:=]?\s*{UNMASKED}((?={END}{{0,64}}\d){END}+)",
    F,
)

# --- membership, loyalty and account numbers --------------------------------------------------

_ACCOUNT_WORDS = (
    r"(?:(?<![a-z])(?:member(?:ship)?|loyalty|rewards?|frequent[\s\-]+fl[yi]er|ffp?"
    r"|account|acct|customer|bonvoy|honou?rs|avios|skymiles|aadvantage|mileageplus"
    r"|krisflyer|asia\s+miles|phoenixmiles|ihg|marriott|hilton|hyatt|accor|world\s+of\s+hyatt"
    r"|flying\s+blue|miles\s*&\s*more|club|mileage(?:\s+(?:bank|plan|club))?)(?![a-z])"
    r"|会员|常旅客|里程卡|账号|帐号|账户|帐户|户号|客户号|知音|万里行|积分卡|华住会|凤凰)"
)
# Balances are not accounts: "Bonvoy points 120000", "积分 50000".
_BALANCE = r"(?!\s*(?:points?|pts|miles|nights?|stays|status|积分|里程|晚))"
# ... and a number followed by what it counts is a balance too: "Hyatt 120000 points".
BALANCE_AFTER = re.compile(
    r"\s*(?:[a-z]+\s+){0,2}?(?:points?|pts|miles|nights?|stays|km|kms|kilomet(?:er|re)s?)(?![a-z])"
    r"|\s*(?:积分|里程|晚|公里|分)",
    F,
)
ACCOUNT_LABEL = re.compile(
    rf"{_ACCOUNT_WORDS}{_BALANCE}(?:\s+[a-z]+){{0,2}}?(?:卡号|编号|卡)?{CONNECT}{UNMASKED}"
    + _DIGITS_VALUE,
    F,
)

# --- a label and a number in one clause -------------------------------------------------------

# When a sensitive label and a number share a clause (no punctuation between them), the
# number is what the label names, however many words stand between: "Room safe code last
# time was 0852", "The last 4 of my Visa are 1881", "公司门禁：#6688", "身份证后六位 071233".
_CLAUSE = r"(?:[^.;!?,。；！？，\n]|(?<=[a-z])\.(?=\s)){0,40}?"  # "no." and "nr." go on
NEAR_LABELS = {
    "id": re.compile(rf"{_ID_WORDS}{_CLAUSE}(?<![0-9a-z])([a-z]{{0,2}}\d[\d ]{{4,}}\d)", F),
    "card": re.compile(
        rf"(?:{_CVV_WORDS}|(?<![a-z])(?:last\s+(?:4|four)|final\s+(?:4|four)|ending|ends)"
        rf"(?![a-z])|末尾|尾号|后四位|后4位|末四位|末4位){_CLAUSE}(?<![0-9a-z])(\d(?:\s?\d){{2,3}})"
        r"(?![0-9a-z])",
        F,
    ),
    "secret": re.compile(
        rf"(?:{_SECRET_EN}|{_SECRET_ZH}|门禁|门锁|safe\s+code|(?<![a-z])code(?![a-z])(?=[^.;!?,]{{0,20}}"
        r"(?:door|gate|safe|lock|wifi|wi-fi|alarm|building)))"
        rf"{_CLAUSE}(?<![0-9a-z])#?(\d(?:[\s\-]?\d){{2,11}}[#*]?(?![0-9a-z])"
        r"|(?<![^\s:#])(?=[^\s,.;!?]{6,64}(?![^\s,.;!?]))[^\s,.;!?:]{0,30}?[a-z]"
        r"[^\s,.;!?]{0,30}?\d[^\s,.;!?]{0,30})",
        F,
    ),
}
# A number right after one of these is a place or a time: "… on the card in room 1208",
# "resets at 1200".
PLACED = re.compile(
    r"(?:(?<![a-z])(?:room|rm|floor|gate|row|seat|terminal|page|platform|at|by|until|till"
    r"|before|after|since|in|on|every)|房间|房|楼|层|排|座|第|在)\s*#?\s*\Z",
    F,
)
# A number followed by one of these counts something: "door code changes every 24 hours".
COUNTED = re.compile(
    r"\s*(?:%|hours?|hrs?|h|minutes?|mins?|days?|weeks?|months?|years?|times?|nights?|am|pm"
    r"|digits?|chars?|characters?|steps?|tries|attempts"
    r"|pages?|floors?|rooms?|people|km|m|kg|points?|miles|stars?|分钟|小时|天|次|点|号|晚|年|月|层|楼"
    r"|个|位数|位|米|公里|分)(?![a-z])|[:/]\d",
    F,
)

# --- the value first, the label after ---------------------------------------------------------

# "hunter2 is my password", "987654321 is my Bonvoy number", "Qwerty!23 是我携程的登录密码".
_IS_MY = (
    r"\s*(?:is|was|=|are|(?<!不)是|为|就是)\s*(?:(?:my|our|the|his|her|我的|我们的|我|他的|她的)\s*)?"
    r"(?:(?:(?!(?:not|never|no)\s)[a-z0-9'\-]{1,15}\s+){0,3}?|[^\x00-\x7f\s，。；]{0,8}?)"
)
REVERSE = re.compile(
    r"(?<![^\s,;:(\"'“‘])(?P<value>[^\s,;:()\"'“”‘’]{3,64}?)"
    + _IS_MY
    + r"(?:(?P<secret>(?:login\s+|account\s+|wi-?fi\s+)?(?:password|passcode|pin|passphrase)"
    r"(?![a-z])(?!\s*(?:manager|protected|policy|reset))|密码|口令)"
    r"|(?P<id>(?:passport|id(?:\s+card)?)(?:\s+(?:number|no))?(?![a-z])|护照号?|身份证号?)"
    r"|(?P<card>(?:cvv|cvc|security\s+code|card\s+number)(?![a-z])|安全码|卡号)"
    r"|(?P<phone>(?:phone|mobile|cell)(?:\s+number)?(?![a-z])|手机号?|电话)"
    r"|(?P<account>(?:member(?:ship)?|loyalty|account|frequent\s+flyer|bonvoy|honors|avios"
    r"|skymiles)(?:\s+(?:number|no|id))?(?![a-z])|会员号|账号|卡号))",
    F,
)
# Words that stand where a value would, but are none: "this is my password".
_STOPWORDS = (
    "it this that what which who where here there mine something nothing anything everything "
    "same one below above following also never not always still why how so 这 那 这个 那个 "
    "什么 哪个 这就 也 都 就 还 不"
)
REVERSE_STOPWORDS = frozenset(_STOPWORDS.split(" "))
# Words after "password is" that describe where or how it is, not what it is.
_NOT_A_SECRET = (
    "on in at the a an my your not written printed same different stored saved changed "
    "required needed there here below above attached posted taped usually always never "
    "easy hard long short weak strong expired wrong"
)
NOT_A_SECRET = frozenset(_NOT_A_SECRET.split(" "))

__all__ = [
    "ACCOUNT_LABEL",
    "CARD_LABEL",
    "CARD_NEAR",
    "CONNECT",
    "COUNTED",
    "CVV",
    "CVV_WORD",
    "DATE",
    "END",
    "EXPIRY",
    "ID_LABEL",
    "INTL_PHONE",
    "LANDLINE",
    "NANP",
    "NEAR_LABELS",
    "NOT_A_SECRET",
    "NOT_CARD_EXPIRY",
    "NUMBER_LABEL",
    "PASSPORT",
    "PHONE_LABEL",
    "PHONE_NEAR",
    "PLACED",
    "REVERSE",
    "REVERSE_STOPWORDS",
    "SECRET",
    "SECRET_PASS",
    "SECRET_ZH_LATIN",
    "TAIL",
    "UNMASKED",
    "WIFI_KEY",
]
