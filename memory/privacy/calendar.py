"""Days of the calendar said in Chinese numerals, as dates the guard already reads as dates.

Chinese names a lunar day (初一, 十五, 正月十五, 腊月二十三) and many holidays (五一, 十一, 六一,
三八, 双十一) with bare numerals; read as numbers they are "15", "51" or "11", which the amount
rules take for money ("每月初一、十五吃素", "国庆、五一这种假期不出门"). `CALENDAR` finds them and
`calendar_day` writes them as "M月D日" (or "D日"), a shape `memory.privacy.roles` explains, before
`memory.privacy.numerals` reads the numerals. Only a numeral a calendar word governs is a day:
"十五块的盒饭" stays 15 and money, and so does the price said beside a holiday ("五一期间酒店一晚
八百": the holiday is a date, the 800 still an amount).
"""

from __future__ import annotations

import re

from memory.privacy.money import CURRENCY_AFTER

_NUMERAL = "一二三四五六七八九十"
_VALUES = {ch: i for i, ch in enumerate("一二三四五六七八九", start=1)}
# A day of a month: 一 … 三十一 (one or two numerals and 十).
_DAY = rf"(?:[二三]?十[{_NUMERAL[:-1]}]?|[{_NUMERAL[:-1]}])"
# Holidays named by their date: May Day, National Day (十一 with a holiday word), Children's
# Day, Women's Day, Youth Day; 双十一 / 双十二 the shopping days.
_HOLIDAYS = {
    "五一": "5月1日",
    "十一": "10月1日",
    "六一": "6月1日",
    "三八": "3月8日",
    "五四": "5月4日",
}
_HOLIDAY_WORD = (
    r"(?:节|假期|假日|长假|小长假|黄金周|期间|放假|前后|那几天|那天|出游|[这那]种|人多|高峰)"
)
_FESTIVAL = r"(?:国庆|春节|元旦|清明|端午|中秋|过年|五一|十一|暑假|寒假)"
_NOT_AFTER = rf"(?<![0-9{_NUMERAL}零〇两百千万.第块毛])"
_NATIONAL_NEXT = (
    r"(?:我|咱|全家|一家|家里|带|去|回|出[去门游发国]|要|想|打算|准备|计划|就|都|不|别|还|在家"
    r"|休|哪|的时候|前|后|肯定|一般|通常|每年|又)"
)
CALENDAR = re.compile(
    # 双十一, 双十二, 双11
    r"(?P<double>双(?:十[一二]|1[12]))"
    # a lunar day: 初一 … 初十 (and a day listed after it: "初一、十五", "初一十五")
    rf"|初(?P<first>[{_NUMERAL}])(?:(?P<sep>[、,，和与跟或/]?)(?P<then>{_DAY})(?![0-9{_NUMERAL}]))?"
    # a day every month or of the lunar calendar: 每月十五, 农历十五, 阴历二十三, 每逢十五
    rf"|(?P<cue>每个?月|农历|阴历|每逢|逢)(?P<day>{_DAY})(?![0-9{_NUMERAL}百千万块元钱号日])"
    # a holiday named by its date, before a holiday word or after another holiday
    rf"|{_NOT_AFTER}(?P<holiday>五一|十一|六一|三八|五四)(?![0-9{_NUMERAL}零两百千万点块元钱个位人间晚天月号日岁楼层])"
    rf"(?=[^，。,.!！?？]{{0,4}}{_HOLIDAY_WORD}|[、和跟与或/]{_FESTIVAL})"
    rf"|(?<={_FESTIVAL}[、和跟与或/])(?P<listed>五一|十一|六一|三八|五四)"
    rf"(?![0-9{_NUMERAL}零两百千万点块元钱个位人间晚天月号日岁楼层])"
    # the holidays whose two numerals are no number's reading (51 is 五十一), even alone:
    # "五一我们去海边" ("十一" is also eleven, so it needs a holiday word)
    rf"|{_NOT_AFTER}(?P<bare>五一|六一|三八|五四)"
    rf"(?![0-9{_NUMERAL}零两百千万点块元钱个位人间晚天月号日岁楼层])"
    # 十一 said alone where a sentence or clause starts (or after 今年, 这个 …) and followed by
    # who travels or what they do then: "十一我们去云南", "今年十一回老家" (National Day); a
    # count or a price goes on with its counter or unit, which the lookahead refuses
    rf"|(?:(?<![^，。,.!！?？；;：:\s])|(?<=今年|明年|去年|这个|这次|等到|到了|趁着))"
    rf"(?P<national>十一)(?={_NATIONAL_NEXT})"
)


def _value(numerals: str) -> int:
    """A day written in numerals: "十五" 15, "二十三" 23, "八" 8."""
    if "十" not in numerals:
        return _VALUES[numerals]
    tens, _, ones = numerals.partition("十")
    return (_VALUES[tens] if tens else 1) * 10 + (_VALUES[ones] if ones else 0)


# What may stand between the numeral groups of one number said aloud ("五一 三八 六一").
_SPACING = " \t-._*·"


def _in_a_number(text: str, start: int, end: int) -> bool:
    """A numeral or digit beside the match, past spacing: a phone or card number said group by
    group ("卡号 五一 三八 六一"), no day."""
    before = text[:start].rstrip(_SPACING)[-1:]
    after = text[end:].lstrip(_SPACING)[:1]
    return any(ch and (ch.isdigit() or ch in _NUMERAL + "零〇两") for ch in (before, after))


def calendar_day(match: re.Match[str]) -> str | None:
    """The date a calendar match names, in digits ("初一、十五" -> "初1日、15日"); None where the
    numerals are money after all ("每月十五美元") or part of a longer number."""
    text, (start, end) = match.string, match.span()
    if CURRENCY_AFTER.match(text, end) or _in_a_number(text, start, end):
        return None
    found = match.groupdict()
    if found["double"]:
        month = "11" if found["double"][1:] in ("十一", "11") else "12"
        return f"双{month}月{month}日"
    if found["first"]:
        day = f"初{_value(found['first'])}日"
        if found["then"]:
            day += f"{found['sep']}{_value(found['then'])}日"
        return day
    if found["cue"]:
        return f"{found['cue']}{_value(found['day'])}日"
    holiday = found["holiday"] or found["listed"] or found["bare"] or found["national"]
    return _HOLIDAYS[holiday] if holiday else None


__all__ = ["CALENDAR", "calendar_day"]
