"""Write-time privacy guard: what must never be remembered, and masking it in logs.

`check_fact` refuses a fact that carries an ID-card or passport number, a bank-card number,
a password or PIN, a phone number or an exact amount of money, with a short reason the
agent can relay; `redact` masks the same spans. Full-width characters are folded first,
so "１３８…" and "￥３０００" are caught like "138…" and "¥3000". Detection leans on
structure (checksums, birth dates, labels, currency) so that flight and train numbers,
dates, times, seats, distances and durations pass.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from datetime import date

REDACTED = "[redacted]"

_Span = tuple[int, int]
_F = re.ASCII | re.IGNORECASE

REASON_ID = "contains an ID or passport number; keep the preference and leave the number out"
REASON_CARD = (
    "contains a bank-card number; name the card type (e.g. 'corporate Visa') without the number"
)
REASON_SECRET = "contains a password or PIN; never share secrets, keep only the preference"
REASON_PHONE = "contains a phone number; keep the preference and leave the number out"
REASON_AMOUNT = "contains an exact amount; say 'budget-conscious' instead"

# "is", ":", "number", "号码", "是" … between a label and the value it introduces.
_CONNECT = r"(?:\s*(?:number|no\.?|num|is|was|:|=|#|号码|号|是|为))*\s*"
_END = r"[^\s,.;!?。、]"  # a character that can belong to a value (after folding)

# --- ID-card and passport numbers -----------------------------------------------------------

# Digits, optionally in groups of three or more split by one space or dash (so "2026-12-10"
# stays three short runs), optionally ending in the X of an ID-card number.
_RUN = re.compile(r"(?<![0-9a-z+])\d+(?:(?<=\d{3})[ \-](?=\d{3})\d+)*x?(?![0-9a-z])", _F)
_PROVINCES = frozenset(
    {11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46}
    | {50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83}
)
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"  # ISO 7064 MOD 11-2, indexed by the weighted sum mod 11
_PASSPORT = re.compile(r"(?<![0-9a-z])(?:[cdegps]\d{8}|e[a-z]\d{7})(?![0-9a-z])", _F)
_ID_LABEL = re.compile(
    r"(?:(?<![a-z])(?:passport|national\s+id|identity\s+card|id\s*(?:card|number|no\.?(?![a-z])|#))"
    r"|护照|身份证|证件)" + _CONNECT + r"([a-z]{0,2}\d[0-9a-z]{3,})",
    _F,
)


def _compact(run: str) -> str:
    return run.replace(" ", "").replace("-", "")


def _born(year: int, month: int, day: int) -> bool:
    try:
        birth = date(year, month, day)
    except ValueError:
        return False
    return date(1900, 1, 1) <= birth <= date.today()


def _is_id_card(number: str) -> bool:
    """An 18-character ID number with a valid check character, or the old 15-digit form."""
    if not number[:2].isdigit() or int(number[:2]) not in _PROVINCES:
        return False
    if len(number) == 18 and number[:17].isdigit():
        total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True))
        return number[17].upper() == _ID_CHECK[total % 11] and _born(
            int(number[6:10]), int(number[10:12]), int(number[12:14])
        )
    if len(number) == 15 and number.isdigit():
        return _born(1900 + int(number[6:8]), int(number[8:10]), int(number[10:12]))
    return False


def _ids(text: str) -> Iterator[_Span]:
    for match in _RUN.finditer(text):
        if _is_id_card(_compact(match.group())):
            yield match.span()
    for match in _PASSPORT.finditer(text):
        yield match.span()
    for match in _ID_LABEL.finditer(text):
        yield match.span(1)


# --- bank cards -------------------------------------------------------------------------------

_CARD_LABEL = re.compile(
    r"(?:(?<![a-z])(?:card\s*(?:number|no\.?(?![a-z])|num|#)|(?:credit|debit|bank)\s*card)"
    r"|卡号|银行卡|信用卡|储蓄卡|借记卡)" + _CONNECT + r"(\d(?:[ \-]?\d){3,18})",
    _F,
)


def _luhn(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        value = int(digit) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _cards(text: str) -> Iterator[_Span]:
    for match in _RUN.finditer(text):
        number = _compact(match.group())
        if 13 <= len(number) <= 19 and number.isdigit() and _luhn(number):
            yield match.span()
    for match in _CARD_LABEL.finditer(text):
        yield match.span(1)


# --- passwords and PINs -----------------------------------------------------------------------

_SECRET = re.compile(
    r"(?:(?<![a-z])(?:password|passwd|passphrase|passcode|pass\s+code|pwd"
    r"|pin(?:\s*(?:code|number|no\.?(?![a-z]))|码)?)(?![a-z])|支付密码|密码|口令|验证码)"
    rf"(?:(?:\s*(?:is|was|:|=|是|为))+\s*(?!\[redacted\])({_END}+)"  # "password is hunter2"
    rf"|\s*(?!\[redacted\])((?={_END}*\d){_END}+))",  # "PIN 1234", "密码123456"
    _F,
)


def _secrets(text: str) -> Iterator[_Span]:
    for match in _SECRET.finditer(text):
        yield match.span(1) if match.group(1) is not None else match.span(2)


# --- phone numbers ----------------------------------------------------------------------------

_MOBILE = re.compile(r"(?:0086|86)?1[3-9]\d{9}")
_INTL_PHONE = re.compile(r"(?<![0-9a-z])\+\d{1,3}(?:[ \-.]?\(?\d{1,5}\)?){2,6}(?![0-9a-z])", _F)
_LANDLINE = re.compile(r"(?<![0-9a-z])0\d{2,3}-\d{7,8}(?![0-9a-z])", _F)
_PHONE_LABEL = re.compile(
    r"(?:(?<![a-z])(?:telephone|phone|mobile|cell|tel|contact)(?![a-z])|电话|手机|联系方式|座机)"
    + _CONNECT
    + r"(\+?\(?\d[\d \-()]{4,}\d)",
    _F,
)


def _digit_count(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def _phones(text: str) -> Iterator[_Span]:
    for match in _RUN.finditer(text):
        if _MOBILE.fullmatch(_compact(match.group())):
            yield match.span()
    for match in _INTL_PHONE.finditer(text):
        if 8 <= _digit_count(match.group()) <= 15:
            yield match.span()
    for match in _LANDLINE.finditer(text):
        yield match.span()
    for match in _PHONE_LABEL.finditer(text):
        if _digit_count(match.group(1)) >= 6:
            yield match.span(1)


# --- exact amounts of money -------------------------------------------------------------------

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?(?:k|w|thousand|grand|千|万|百)(?![a-z]))?"
_ZH_DIGIT = "[零〇一二两三四五六七八九十百千万]"
_ZH_BIG = f"{_ZH_DIGIT}*[十百千万]{_ZH_DIGIT}*"  # "两千", "五百"; not the "一" of "一等座"
_TO = r"(?:\s*(?:~|to|至|到)\s*|-(?=\d{3}))"  # ranges: "500-800", "两千到三千"
_AMOUNT = rf"{_NUM}(?:{_TO}{_NUM})?|{_ZH_BIG}(?:{_TO}{_ZH_BIG})?"
_CODES = r"rmb|cny|usd|eur|gbp|jpy|hkd|sgd|aud|cad|twd|krw|thb"
_CUR_BEFORE = (
    rf"(?:(?<![a-z])[a-z]{{1,2}}\$|[¥$€£₩₹]|(?<![a-z])(?:{_CODES})(?![a-z])"
    r"|人民币|美元|美金|欧元|港币)"
)
_CUR_AFTER = (
    r"(?:元(?!旦)|圆|块(?:钱)?(?!儿)|人民币|美元|美金|欧元|英镑|日元|港币|港元|澳元|加元"
    rf"|(?<![a-z])(?:{_CODES}|yuan|dollars?|bucks|euros?|yen)(?![a-z]))"
)
_EXPLICIT = re.compile(
    rf"{_CUR_BEFORE}\s?(?:{_AMOUNT}|{_ZH_DIGIT}+)|(?<![0-9a-z.,])(?:{_AMOUNT})\s?{_CUR_AFTER}", _F
)
_CANDIDATE = re.compile(rf"(?<![0-9a-z.,:/\-])(?:{_AMOUNT})(?![0-9a-z])", _F)
# A number followed by one of these counts something other than money.
_NOT_MONEY = re.compile(
    r"\s?(?:%|percent|pct|°|degrees?|h|hrs?|hours?|mins?|minutes?|secs?|seconds?|am|pm|a\.m"
    r"|p\.m|km|kms|m|mi|miles?|meters?|metres?|yards?|feet|ft|sqm|kg|lbs?|pounds?|g|stars?"
    r"|th|st|nd|rd|nights?|days?|weeks?|months?|years?|times?|people|persons?|pax|guests?"
    r"|pieces?|bags?|stops?|transfers?|connections?|layovers?|legs?|floors?|rows?|seats?|x)"
    r"(?![a-z])|[:/.]\d|-\d{1,2}(?!\d)"
    r"|\s?(?:分钟|分|秒|小时|个|天|日|号|月|年|周|星期|晚|夜|点|时|次|人|位|件|箱|张|间|层|楼"
    r"|站|公斤|千克|斤|公里|千米|米|平|星|岁|倍|度|条|排)",
    _F,
)
_GAP = r"[^0-9,.;!?。、\n]"  # stays within one clause and before the first number
_MONEY_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:budget|price[sd]?|pricing|costs?|fares?|rates?|spend(?:ing)?|allowance"
    r"|per\s+diem|reimburs[a-z]*|expenses?|pay(?:ing)?)(?![a-z])"
    r"|预算|价格|价位|价钱|房价|票价|费用|花费|开销|报销|差标|住宿标准|差旅标准|住宿费|消费"
    rf"|单价|均价|限额|额度){_GAP}{{0,15}}\Z",
    _F,
)
_PER_AFTER = re.compile(
    r"\s*(?:(?:per|a|an|each|every|/)\s*(?:night|room|ticket|person|day|trip)|nightly)(?![a-z])"
    r"|\s*(?:每|一|/)(?:晚|间|张|人|天|夜)",
    _F,
)
_THING_ZH = "(?:酒店|宾馆|民宿|住宿|房费|房间|房|机票|车票|票)"
_LIMIT_ZH = "(?:以内|以下|之内|左右|上下|封顶)"
_THING_AFTER = re.compile(f"(?:{_LIMIT_ZH}|内)的?{_THING_ZH}")
_THING_BEFORE_ZH = re.compile(rf"{_THING_ZH}{_GAP}{{0,8}}\Z")
_CAP_BEFORE_ZH = re.compile(r"(?:不超过|不高于|低于|少于|最多|最高|控制在)\s*\Z")
_LIMIT_AFTER_ZH = re.compile(_LIMIT_ZH)
_THING_BEFORE_EN = re.compile(
    r"(?<![a-z])(?:hotels?|rooms?|tickets?|fares?|flights?|trains?|stays?|accommodation)"
    rf"(?![a-z]){_GAP}{{0,20}}?(?<![a-z])(?:under|below|less\s+than|cheaper\s+than|up\s+to"
    r"|at\s+most|max(?:imum)?|no\s+more\s+than|not\s+over|around|about|within|<=?)\s*\Z",
    _F,
)


def _money_context(text: str, start: int, end: int) -> bool:
    """Whether the bare number at text[start:end] reads as a price."""
    low = max(0, start - 40)
    return bool(
        _MONEY_BEFORE.search(text, low, start)  # "预算3000", "budget of 800"
        or _PER_AFTER.match(text, end)  # "800 a night", "600每晚"
        or _THING_AFTER.match(text, end)  # "3000以内的酒店"
        or _THING_BEFORE_EN.search(text, low, start)  # "hotels under 800"
        or (
            _THING_BEFORE_ZH.search(text, low, start)  # "酒店不超过800", "机票1500以内"
            and (_CAP_BEFORE_ZH.search(text, low, start) or _LIMIT_AFTER_ZH.match(text, end))
        )
    )


def _amounts(text: str) -> Iterator[_Span]:
    for match in _EXPLICIT.finditer(text):
        yield match.span()
    for match in _CANDIDATE.finditer(text):
        number, (start, end) = match.group(), match.span()
        big_enough = _digit_count(number) >= 2 or not number[-1].isdigit()
        if big_enough and not _NOT_MONEY.match(text, end) and _money_context(text, start, end):
            yield start, end


# --- public API -------------------------------------------------------------------------------

# Most specific first, so a card number is reported as a card and not as a phone number.
_CHECKS: tuple[tuple[Callable[[str], Iterator[_Span]], str], ...] = (
    (_ids, REASON_ID),
    (_cards, REASON_CARD),
    (_secrets, REASON_SECRET),
    (_phones, REASON_PHONE),
    (_amounts, REASON_AMOUNT),
)


def _fold(text: str) -> str:
    """NFKC per character (full-width digits, letters, ¥, colons, spaces), keeping indices."""
    folded = (unicodedata.normalize("NFKC", ch) for ch in text)
    return "".join(new if len(new) == 1 else old for old, new in zip(text, folded, strict=True))


def check_fact(text: str) -> str | None:
    """None when the text may be stored; otherwise a short English reason the agent can relay
    to the user, e.g. "contains an exact amount; say 'budget-conscious' instead"."""
    folded = _fold(text)
    for detect, reason in _CHECKS:
        if next(detect(folded), None) is not None:
            return reason
    return None


def redact(text: str) -> str:
    """The text with every sensitive span replaced by "[redacted]", for logs."""
    folded = _fold(text)
    spans = sorted(span for detect, _ in _CHECKS for span in detect(folded))
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    parts: list[str] = []
    position = 0
    for start, end in merged:
        parts += [text[position:start], REDACTED]
        position = end
    parts.append(text[position:])
    return "".join(parts)
