"""Numbers written in words, as digits: Chinese numerals and English number words.

Each reader here is a pattern and a replacement for `memory.privacy.text.normalise`:

- `ZH_REPEAT`: a digit said N times ("六个八" is 888888, "4个8" 8888);
- `ZH_RUN`: Chinese numerals read one by one ("一三八零零…") or as a number ("一万二" is
  12000, "两千五" 2500, "3千" 3000);
- `EN_SPELLED`: English digits read one by one ("one three eight…", "oh" for zero);
- `EN_CARDINAL`: an English cardinal ("two thousand", "twelve hundred", "fifty"); "a grand"
  and "two grand" are money, so they read "$1000", "$2000".
"""

from __future__ import annotations

import re

# --- Chinese numerals -------------------------------------------------------------------------

_ZH_DIGITS = {
    **dict.fromkeys("零〇", 0),
    **dict.fromkeys("一壹幺", 1),
    **dict.fromkeys("二贰貳两兩", 2),
    **dict.fromkeys("三叁參", 3),
    **dict.fromkeys("四肆", 4),
    **dict.fromkeys("五伍", 5),
    **dict.fromkeys("六陆陸", 6),
    **dict.fromkeys("七柒", 7),
    **dict.fromkeys("八捌", 8),
    **dict.fromkeys("九玖", 9),
}
_ZH_SMALL_SCALES = {**dict.fromkeys("十拾", 10), **dict.fromkeys("百佰", 100)}
_ZH_SMALL_SCALES.update(dict.fromkeys("千仟", 1000))
_ZH_LARGE_SCALES = {**dict.fromkeys("万萬", 10**4), **dict.fromkeys("亿億", 10**8)}
_ZH_DIGIT_CHARS = "".join(_ZH_DIGITS)
_ZH_SCALE_CHARS = "".join(_ZH_SMALL_SCALES) + "".join(_ZH_LARGE_SCALES)
# A run of numerals and ASCII digits (separators allowed between digits), not starting with
# a bare 百/千/万/亿 ("千万", "万一", "百度" are words). A final 一/二 before a measure word
# is not part of the number: "六百一晚" is 600 a night, "G1234 二等座" a second-class seat;
# after 十 it is ("二十一天" is 21 days).
ZH_RUN = re.compile(
    rf"(?:[0-9]+(?:\.[0-9]+)?|[{_ZH_DIGIT_CHARS}十拾])"
    rf"(?:[ \-._/]{{0,3}}[0-9{_ZH_DIGIT_CHARS}]|(?!万豪|万达)[{_ZH_SCALE_CHARS}]"
    r"|(?<=[0-9])\.[0-9])*"
    r"(?<![^十拾]一(?=[晚夜天日人间张位个次等件趟段条家层种斤把份杯瓶碗盘碟串罐根只包支听套辆台节堂双盒袋顿]|小时))"
    r"(?<![二两](?=等))"
)


def _zh_value(run: str) -> str:
    """A run with scale characters read as one number: "一万二" -> "12000"."""
    total = 0.0
    section = 0.0
    number = 0.0
    digits_since_scale = 0
    last_scale = 0
    decimal: float | None = None
    for ch in run:
        if ch == ".":
            decimal = 0.1
        elif ch.isdigit() or ch in _ZH_DIGITS:
            value = int(ch) if ch.isdigit() else _ZH_DIGITS[ch]
            if decimal is not None:
                number += value * decimal
                decimal /= 10
            else:
                number = number * 10 + value
                digits_since_scale += 1
        elif ch in _ZH_SMALL_SCALES:
            scale = _ZH_SMALL_SCALES[ch]
            section += (number if digits_since_scale or decimal is not None else 1) * scale
            number, digits_since_scale, decimal, last_scale = 0, 0, None, scale
        elif ch in _ZH_LARGE_SCALES:
            scale = _ZH_LARGE_SCALES[ch]
            total += ((section + number) or 1) * scale
            section, number, digits_since_scale, decimal, last_scale = 0, 0, 0, None, scale
    if digits_since_scale == 1 and last_scale >= 100 and run[-2] not in "零〇0":
        number *= last_scale / 10  # colloquial "一万二" (12000), "两千五" (2500), "三百五" (350)
    result = total + section + number
    return str(int(result)) if result == int(result) else f"{result:g}"


# A final 一 before a period is "one" of it, not a digit, in a number said with scales:
# "九万六一年" is 96000 a year, "八千五一月" 8500 a month ("一九六一年" is a year, read digit by
# digit, and "二十一年" 21 years).
_PER_PERIOD = frozenset("年月周季")


# After an allowance or a price word, "五十一天" is 50 a day, not 51 days: "餐补：五十一天",
# "房补四十一晚" ("出差二十一天" stays 21 days).
_PER_DAY = frozenset("天日晚夜")
_RATE_WORD_BEFORE = re.compile(
    r"(?:补|补贴|补助|津贴|费|预算|差标|标准|房价|日薪|工资|小费|价格)[\s:：是为约大概]{0,4}\Z"
)


# Round 29: after a thing bought or a paying word in the same clause, "九十一位" is 90 a head,
# "四十一张" 40 a ticket, "八十一个钟" 80 an hour ("请客户吃饭最多九十一位", "门票四十一张"); a
# count said as one ("我们九十一位", "门票买了四十一张", "一共二十一个人") stays one number.
# Food is sold by the bowl, plate, skewer or can as well: "牛肉面二十一碗", "饺子十五一盘".
_PER_UNIT = re.compile(r"(?:位|张|个钟|小时|斤|份|杯|瓶|碗|盘|碟|串|罐|把|套|次|间)")
_PRICED_BEFORE = re.compile(
    r"(?:门票|票|吃饭|饭钱|餐|人均|按摩|足疗|躺椅|停车|租|费|价|预算|花|出到|付|收|要价|报价|包车"
    r"|缆车|船|打车|水果|西瓜|咖啡|奶茶|酒(?!店)|(?<![前后上下里外对见方])面(?!积)|粉(?!丝)|饭(?!店)|菜|饺子|包子|馄饨|串|肉|汤"
    r"|粥|茶|饮料|果汁|甜品|小吃)[^，,。.;；！!？?\n0-9]{0,8}\Z"
)
# A count said as one: a verb of booking, buying or totting up between the thing and the
# number ("门票要订四十一张", "门票一共要四十一张", "船票要买四十一张").
_COUNTED_BEFORE = re.compile(
    r"(?:了|有|计|约了|来了|坐了|住了)\Z|(?:订|买|共|需要|(?<![价想])要)[^，,。.;；！!？?\n0-9]{0,2}\Z"
)
# What follows a price a unit: the clause ends, or a cap or a judgement ("九十一位以内", "太贵");
# "吃饭二十一位都坐得下" goes on about the 21 people.
_PRICE_ENDS = re.compile(
    r"\s*(?:\Z|[。.;；！!？?\n]|以内|以下|左右|上下|封顶|太|不|便宜|贵|还|可以|划算|差不多|吧"
    # a next clause that seats or books them goes on about the people: "…九十一位，包两个厅"
    r"|[，,](?!\s*(?:安排|包|坐|订|预订|开会|留|够|大家|一起)))"
)


def _one_of_period(match: re.Match[str], compact: str) -> bool:
    """Whether the final 一 of a run said with scales is "one" of the period after it."""
    if len(compact) <= 2 or compact[-1] != "一" or match.end() >= len(match.string):
        return False
    after = match.string[match.end()]
    if compact[-2] not in "零〇0十拾":
        return after in _PER_PERIOD
    if compact[-2] not in "十拾" or compact[0] in "十拾一":
        return False  # "十一", "一百一十一": no price said per unit
    if after in _PER_DAY:
        return _RATE_WORD_BEFORE.search(match.string, 0, match.start()) is not None
    unit = _PER_UNIT.match(match.string, match.end())
    return (
        unit is not None
        and _PRICE_ENDS.match(match.string, unit.end()) is not None
        and _PRICED_BEFORE.search(match.string, 0, match.start()) is not None
        and _COUNTED_BEFORE.search(match.string, 0, match.start()) is None
    )


def zh_numerals(match: re.Match[str]) -> str | None:
    run = match.group()
    if len(run) < 2 or not any(ch in _ZH_DIGITS or ch in _ZH_SCALE_CHARS for ch in run):
        return None
    if any(ch in _ZH_SCALE_CHARS for ch in run):
        compact = "".join(ch for ch in run if ch not in " -_/")
        value = (
            _zh_value(compact[:-1]) + "一" if _one_of_period(match, compact) else _zh_value(compact)
        )
        # A Latin word touching a number said with scales ("JR Pass两万九") is a name and its
        # price, never a code: codes are not said in scales. Keep them apart.
        if (
            match.start() > 0
            and match.string[match.start() - 1].isascii()
            and (match.string[match.start() - 1].isalpha())
        ):
            return " " + value
        return value
    return "".join(str(_ZH_DIGITS[ch]) if ch in _ZH_DIGITS else ch for ch in run)


# --- English number words ---------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return text.split(" ")


_EN_DIGITS = {
    w: i for i, w in enumerate(_words("zero one two three four five six seven eight nine"))
}
_EN_TEENS = {
    w: 10 + i
    for i, w in enumerate(
        _words("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
    )
}
_EN_TENS = {
    w: 10 * (i + 2)
    for i, w in enumerate(_words("twenty thirty forty fifty sixty seventy eighty ninety"))
}
_EN_SCALES = {"hundred": 100, "thousand": 1000, "grand": 1000, "million": 10**6}
_DIGIT_WORD = r"(?:zero|one|two|three|four|five|six|seven|eight|nine)"
# "Grand" is a thousand (of money) only where no noun follows: "two grand for the trip",
# "a grand per night", not "a grand view" or "two grand hotels".
_GRAND = (
    r"grand(?!\s+(?!(?:a|an|per|each|for|total|tops|max|or|and|is|was|in|on|at|budget|a\s+night)"
    r"(?![a-z]))[a-z])"
)
_ANY_WORD = "|".join([*_EN_DIGITS, *_EN_TEENS, *_EN_TENS, "hundred", "thousand", "million"])
_ANY_WORD += "|" + _GRAND
# Digits read one by one, three or more: "one three eight", "four one five, five five five,
# oh one three two", "double eight".
EN_SPELLED = re.compile(
    rf"(?<![a-z])(?:(?:double|triple)\s+)?(?:{_DIGIT_WORD}|oh|o)"
    rf"(?:(?:\s*,\s*|[\s\-]+)(?:(?:double|triple)\s+)?(?:{_DIGIT_WORD}|oh|o)(?![a-z])){{2,}}"
    rf"(?![a-z])",
    re.IGNORECASE,
)
# A cardinal: "two hundred and fifty", "twenty-five", "fifty", "a grand", "3 thousand". A
# scale word never starts one ("Grand Hyatt", "hundreds of").
_FIRST_WORD = "|".join([*_EN_DIGITS, *_EN_TEENS, *_EN_TENS])
EN_CARDINAL = re.compile(
    r"(?<![a-z0-9.])(?:(?:an?|\d+(?:\.\d+)?|(?:a\s+)?(?:couple(?:\s+of)?|few)|several)"
    r"\s+(?:hundred|thousand|million|" + _GRAND + ")"
    rf"|(?:{_FIRST_WORD}))(?![a-z])"
    rf"(?:(?:(?<=hundred)\s+and\s+|(?<=thousand)\s+and\s+|[\s\-]+)(?:{_ANY_WORD})(?![a-z]))*",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z]+|\d+(?:\.\d+)?", re.IGNORECASE)


def spelled(match: re.Match[str]) -> str:
    digits: list[str] = []
    repeat = 1
    for word in _WORD.findall(match.group().lower()):
        if word in ("double", "triple"):
            repeat = 2 if word == "double" else 3
            continue
        digits.append(("0" if word in ("oh", "o") else str(_EN_DIGITS[word])) * repeat)
        repeat = 1
    return "".join(digits)


def cardinal(match: re.Match[str]) -> str | None:
    """The number the words say, or None when they are not one number ("one two"). Prices
    are said in pairs: "two-fifty" is 250, "twelve ninety-nine" 1299."""
    words = [w for w in _WORD.findall(match.group().lower()) if w != "and"]
    if (
        len(words) >= 2
        and (words[0] in _EN_DIGITS or words[0] in _EN_TEENS)
        and words[0] != "zero"
        and (words[1] in _EN_TENS or words[1] in _EN_TEENS)
        and all(w in _EN_DIGITS for w in words[2:3])
        and len(words) <= 3
    ):
        head = _EN_DIGITS.get(words[0], 0) + _EN_TEENS.get(words[0], 0)
        tail = _EN_TENS.get(words[1], 0) + _EN_TEENS.get(words[1], 0)
        tail += _EN_DIGITS.get(words[2], 0) if len(words) == 3 and words[1] in _EN_TENS else 0
        if len(words) == 3 and words[1] in _EN_TEENS:
            return None
        return str(head * 100 + tail)
    total = 0.0
    current = 0.0
    last = ""  # "unit", "tens" or "scale": what the previous word was
    for word in _WORD.findall(match.group().lower()):
        if word == "and":
            continue
        if word in ("a", "an", "of"):
            current, last = (current or 1.0), "unit"
        elif word in ("couple", "few", "several"):  # "a couple hundred" is about 200
            current, last = (2.0 if word == "couple" else 3.0), "unit"
        elif word[0].isdigit():
            current, last = float(word), "unit"
        elif word in _EN_DIGITS or word in _EN_TEENS:
            if last == "unit" or (last == "tens" and word in _EN_TEENS):
                return None
            current += _EN_DIGITS.get(word, 0) + _EN_TEENS.get(word, 0)
            last = "unit"
        elif word in _EN_TENS:
            if last in ("unit", "tens"):
                return None
            current += _EN_TENS[word]
            last = "tens"
        elif word == "hundred":
            current, last = (current or 1) * 100, "scale"
        else:
            total += (current or 1) * _EN_SCALES[word]
            current, last = 0, "scale"
    value = total + current
    number = str(int(value)) if value == int(value) else f"{value:g}"
    return "$" + number if "grand" in words else number  # a grand is money, whatever currency


# "六个八" is 888888, "三个六" 666: a digit said N times (not "两个人", "一个二等座").
# Digits too: "门锁 4个8" is 8888.
ZH_REPEAT = re.compile(
    "(?<![0-9零〇一二三四五六七八九十])([一二两三四五六七八九2-9])个([零〇一二三四五六七八九幺0-9])"
    "(?![0-9.晚夜天日人间张位个次等件趟段条家层种星米寸岁])"
)


def zh_repeat(match: re.Match[str]) -> str:
    times, digit = match.group(1), match.group(2)
    return digit * (int(times) if times.isdigit() else _ZH_DIGITS[times])


__all__ = [
    "EN_CARDINAL",
    "EN_SPELLED",
    "ZH_REPEAT",
    "ZH_RUN",
    "cardinal",
    "spelled",
    "zh_numerals",
    "zh_repeat",
]
