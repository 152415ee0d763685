"""The text as the privacy guard reads it: one spelling for every way of writing a number.

`normalise` folds what a reader sees as the same into one form, so that the patterns of
`memory.privacy.labels` only ever meet ASCII digits, ASCII letters and a few separators:

- invisible characters are dropped (zero-width spaces and joiners, bidi controls, soft
  hyphens, variation selectors, the keycap of "1️⃣");
- NFKC folds full-width, circled, superscript and mathematical forms ("１３８", "①",
  "¹³⁸", "𝟏𝟑𝟖"), every script's decimal digits become ASCII ("١٣٨"), Cyrillic and Greek
  letters that look Latin become Latin ("pаssword" with a Cyrillic а);
- every space is " ", every dash "-", every slash "/", middle dots "."; a star, bullet, bar
  or emoji between two digits is a space ("186*1234*5678", "138🔸0013");
- inside a run of digits the letters O/o stand for 0 and l/I for 1 ("138OO138OOO");
- traditional Chinese characters of the labels become simplified ("電話" -> "电话");
- Chinese calendar days and holidays become dates ("初一、十五" -> "初1日、15日", "五一" ->
  "5月1日"; `memory.privacy.calendar`);
- Chinese numerals become digits, read one by one ("一三八零零…") or as a number ("一万二"
  is 12000, "两千五" 2500, "3千" 3000);
- English number words become digits, read one by one ("one three eight…", "oh" for
  zero) or as a number ("two thousand", "a grand", "twelve hundred", "fifty").

Every character of the result remembers the span of the original it came from, so a
span found in the normalised text can be masked in the text as typed (`Normalised.span`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from memory.privacy.calendar import CALENDAR, calendar_day
from memory.privacy.numerals import (
    EN_CARDINAL,
    EN_SPELLED,
    ZH_REPEAT,
    ZH_RUN,
    cardinal,
    spelled,
    zh_numerals,
    zh_repeat,
)

# Format characters, non-spacing and enclosing marks: none changes what a reader sees as
# the number.
_INVISIBLE = frozenset({"Cf", "Mn", "Me"})
# Cyrillic and Greek letters that look like Latin ones (the common confusables).
_CONFUSABLES = {
    **dict(zip("АВЕКМНОРСТХУІЈЅԁаеорсхуіјѕһԛԝ", "ABEKMHOPCTXYIJSdaeopcxyijshqw", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧνοτ", "ABEZHIKMNOPTYXvot", strict=True)),
}
# Traditional characters of the words the guard looks for, as simplified ones: "電話",
# "護照號碼", "密碼", "會員", "預算", "忽略所有規則" read like their simplified forms.
_TRADITIONAL = dict(
    zip(
        "電話機碼護證號會員預規則銀帳賬戶價額費錢塊幣統聯繫絡歐鎊輸顯說從開門鎖險們這個麼給發"
        "訊資記憶裡裏駕駛過內標準報銷單後積級層樓時點鐘間張條務貨與對讓將還問題覽關設計劃"
        "護兩貳參陸萬億圓鑰舊",
        "电话机码护证号会员预规则银帐账户价额费钱块币统联系络欧镑输显说从开门锁险们这个么给发"
        "讯资记忆里里驾驶过内标准报销单后积级层楼时点钟间张条务货与对让将还问题览关设计划"
        "护两贰参陆万亿圆钥旧",
        strict=True,
    )
)
_DASHES = frozenset("‐‑‒–—―−⁃﹘")
_SLASHES = frozenset("⁄∕⧸")
_DOTS = frozenset("·・‧․∙")


@dataclass(frozen=True, slots=True)
class Normalised:
    """The normalised text, and for each of its characters the original span."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span behind normalised text[start:end] (end > start)."""
        return self.starts[start], self.ends[end - 1]


class _Buffer:
    def __init__(self) -> None:
        self.chars: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, text: str, start: int, end: int) -> None:
        for ch in text:
            self.chars.append(ch)
            self.starts.append(start)
            self.ends.append(end)


def _fold(ch: str) -> str:
    """One character, folded (possibly into several, e.g. "㎡" -> "m2", or none)."""
    if ch.isascii():
        return ch
    if unicodedata.category(ch) in _INVISIBLE:
        return ""
    out = []
    for new in unicodedata.normalize("NFKC", ch):
        category = unicodedata.category(new)
        if new.isascii():
            pass
        elif category[0] == "Z":  # no-break, thin, ideographic … spaces; line separators
            new = " " if category == "Zs" else "\n"
        elif new in _CONFUSABLES:
            new = _CONFUSABLES[new]
        elif new in _TRADITIONAL:
            new = _TRADITIONAL[new]
        elif new in _DASHES:
            new = "-"
        elif new in _SLASHES:
            new = "/"
        elif new in _DOTS:
            new = "."
        elif unicodedata.digit(new, None) is not None:
            new = str(unicodedata.digit(new))
        out.append(new)
    return "".join(out)


def _rewrite(
    text: Normalised, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str | None]
) -> Normalised:
    """Replace each match by `replace(match)` (None keeps it); replaced characters all map
    to the span of the whole match."""
    buffer = _Buffer()
    position = 0
    for match in pattern.finditer(text.text):
        new = replace(match)
        if new is None:
            continue
        start, end = match.span()
        for i in range(position, start):
            buffer.add(text.text[i], text.starts[i], text.ends[i])
        if end > start:
            buffer.add(new, text.starts[start], text.ends[end - 1])
        position = end
    if position == 0 and not buffer.chars:
        return text
    for i in range(position, len(text.text)):
        buffer.add(text.text[i], text.starts[i], text.ends[i])
    return Normalised("".join(buffer.chars), tuple(buffer.starts), tuple(buffer.ends))


# --- look-alike letters inside digit runs ----------------------------------------------------

_LOOKALIKES = str.maketrans("OolI", "0011")
# Tokens of digits and O/o/l/I, joined by up to three separators (and an ID number's X).
_LOOKALIKE_RUN = re.compile(
    r"(?<![A-Za-z0-9])[0-9OolI]+(?:[ \-._/]{1,3}[0-9OolI]+)*(?:[ \-._/]{0,3}[xX])?(?![A-Za-z0-9])"
)
_PRONOUN = re.compile(r"(?<![^ ])I(?![^ ])")  # "I" standing alone between spaces


def _lookalikes(match: re.Match[str]) -> str | None:
    run = match.group()
    if sum(ch.isdigit() for ch in run) < 4 or run.isdigit():
        return None
    # The pronoun stays: "at 1430 I leave" is not "14301 leave".
    parts = _PRONOUN.split(run)
    return "I".join(part.translate(_LOOKALIKES) for part in parts)


# --- symbols between digits ------------------------------------------------------------------

# A star, a bullet, a bar or an emoji between two digits separates them like a space:
# "186*1234*5678", "138🔸0013🔸8000", "一三九•一二三四".
_DIGITISH = "0-9零〇一二三四五六七八九幺两"
_SYMBOL_BETWEEN = re.compile(rf"(?<=[{_DIGITISH}])[^\w\s.,:;/\-](?=[{_DIGITISH}])")
# "十月" is October: a lone 十 before 月 is the month, not a scale.
_TENTH_MONTH = re.compile("(?<![零〇一二三四五六七八九两十0-9])十(?=月)")


def _symbol(match: re.Match[str]) -> str | None:
    ch = match.group()
    return " " if ch in "*•|" or unicodedata.category(ch) == "So" else None


# --- the whole pipeline -----------------------------------------------------------------------


def normalise(text: str) -> Normalised:
    """`text` as the guard reads it (see the module docstring)."""
    buffer = _Buffer()
    for index, ch in enumerate(text):
        buffer.add(_fold(ch), index, index + 1)
    out = Normalised("".join(buffer.chars), tuple(buffer.starts), tuple(buffer.ends))
    out = _rewrite(out, _SYMBOL_BETWEEN, _symbol)
    out = _rewrite(out, CALENDAR, calendar_day)
    out = _rewrite(out, _TENTH_MONTH, lambda _: "10")
    out = _rewrite(out, _LOOKALIKE_RUN, _lookalikes)
    out = _rewrite(out, ZH_REPEAT, zh_repeat)
    out = _rewrite(out, ZH_RUN, zh_numerals)
    out = _rewrite(out, EN_SPELLED, spelled)
    out = _rewrite(out, EN_CARDINAL, cardinal)
    return out


__all__ = ["Normalised", "normalise"]
