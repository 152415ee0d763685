"""Number shapes the privacy guard recognises without any label around them.

A Chinese resident ID number (region, birth date, ISO 7064 check character), a payment-card
number (Luhn check and an issuer prefix a card can start with) and a Chinese mobile number
(11 digits, 13x-19x). Runs of digits are read two ways: strictly (groups of three or more
digits split by single separators, so "2026-12-10" stays a date) and loosely (any digits
with up to three separator characters between them), so "1 3 8-0 0_1 3/8 0 0 0" is still
one number.

`pieces` finds halves of numbers that only together are one ("my number starts with 1380",
"and ends with 0138000"): digits introduced by a word that says they are a part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Literal

F = re.ASCII | re.IGNORECASE
Shape = Literal["id", "card", "phone"]

# Groups of three or more digits split by one separator; an ID number may end in X.
STRICT_RUN = re.compile(r"(?<![0-9a-z+])\d+(?:(?<=\d{3})[ \-._/](?=\d{3})\d+)*x?(?![0-9a-z])", F)
# Any digits, up to three separator characters between two of them.
LOOSE_RUN = re.compile(r"(?<![0-9a-z+])\d(?:[ \-._/]{0,3}\d)*(?:[ \-._/]{0,3}x)?(?![0-9a-z])", F)
_NOT_DIGIT = re.compile(r"[^0-9x]", F)

_PROVINCES = frozenset(
    {11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46}
    | {50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83}
)
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"  # ISO 7064 MOD 11-2, indexed by the weighted sum mod 11
_MOBILE = re.compile(r"(?:0086|86)?1[3-9]\d{9}")
# Card issuers: Amex/Diners/JCB (3), Visa (4), Mastercard (5, 2221-2720), Discover,
# UnionPay and Maestro (6), and Chinese domestic debit cards (9). A number starting 1, 7, 8
# or 2000-2220 (a run of dates, an order number) is no card.
_CARD_PREFIX = re.compile(r"[34569]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)")


def compact(run: str) -> str:
    """The digits (and a final X) of a run, separators dropped."""
    return _NOT_DIGIT.sub("", run)


def _born(year: int, month: int, day: int) -> bool:
    try:
        birth = date(year, month, day)
    except ValueError:
        return False
    return date(1900, 1, 1) <= birth <= date.today()


def is_id_card(number: str) -> bool:
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


def luhn(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        value = int(digit) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def is_card(number: str) -> bool:
    return (
        13 <= len(number) <= 19
        and number.isdigit()
        and bool(_CARD_PREFIX.match(number))
        and luhn(number)
    )


def is_mobile(number: str) -> bool:
    return bool(_MOBILE.fullmatch(number))


def shape(number: str) -> Shape | None:
    """What a compact run of digits is, most specific first."""
    if is_id_card(number):
        return "id"
    if is_card(number):
        return "card"
    if is_mobile(number):
        return "phone"
    return None


def shaped_runs(text: str) -> Iterator[tuple[Shape, int, int]]:
    """Every run of digits in `text` that has a sensitive shape, with its span."""
    for pattern in (STRICT_RUN, LOOSE_RUN):
        for match in pattern.finditer(text):
            number = compact(match.group())
            found = shape(number)
            if found is None and number[-1:] in "xX":  # "… 2 x" is not an ID's check X
                found = shape(number[:-1])
            if found is not None:
                yield found, match.start(), match.end()


# --- pieces of one number across facts -------------------------------------------------------

# Words that say the digits after them are a part of a number, not a number of their own.
_PART = (
    r"(?:(?<![a-z])(?:(?:first|second|other|last|next|remaining)\s+(?:half|part|bit|digits)"
    # round 30: "the last four are 5678" ("four" is 4 by now), "first 6 digits: 110101"
    r"|(?:first|last|final)\s+[2-8](?:\s+digits)?\s*(?:are|is|were|=|:)"
    r"|(?:starts?|begins?|ends?|continues?)(?:\s+with)?|the\s+rest(?:\s+is)?|then)(?![a-z])"
    r"|前半|后半|前面|后面|前几位|后几位|开头|结尾|剩下|其余|接着|前[\d一二三四五六七八九几]+位|后[\d一二三四五六七八九几]+位)"
)
# A part is digits, or up to two letters and digits (a passport's "EA12" … "34567"); the last
# part of an ID number may end in its check X ("后面是19900307123X").
PIECE = re.compile(
    _PART + r"[^0-9\n]{0,12}?(?<![0-9a-z])([a-z]{1,2}\d(?:[ \-._/]{0,3}\d){1,11}"
    r"|\d(?:[ \-._/]{0,3}\d){2,11}x?)(?![0-9a-z])",
    F,
)


# The words that name an ID or passport number (`guard` reads a part named by them across a
# call's facts too). Round 31 review: not an errand done with the document, whose "starts" is a
# time or a year ("passport control starts 0600", "ID check begins 0800", "护照办理开始2027").
ID_NAMES = (
    r"(?:(?<![a-z])(?:passport|id|identity|licen[cs]e|ssn|social\s+security)(?![a-z])"
    r"(?:\s+card)?(?:\s*(?:number|no\.?|#))?|护照|身份证|证件号|驾照)"
    r"(?!\s*(?:(?:control|checks?|renewals?|applications?|appointments?|office|queue|photos?"
    r"|stamps?|desk|counter|gates?|scans?|e-?gates?)(?![a-z])|办理|换发|补办|照片|检查|查验|窗口))"
)
_ID_NAMED = re.compile(rf"(?:{ID_NAMES})[^.;!?。；！？\n,，]{{0,16}}\Z", re.IGNORECASE)
# A list goes on after "then" or 接着; a part sits where "starts" or "the last four" say.
_LIST_WORD = re.compile(r"\A(?:then|接着)", re.IGNORECASE)


# Round 32: a card named by its number (not a card one holds: "the card ends in" is round 8's
# tail rule); "card number starts 4929" is half of it, like a passport's.
CARD_NAMES = (
    r"(?:(?<![a-z])(?:(?:credit|debit|bank|visa|mastercard|amex)\s+)?card\s*(?:number|no\.?|#)"
    r"|卡号|信用卡|银行卡|储蓄卡)"
)
_CARD_NAMED = re.compile(rf"{CARD_NAMES}[^.;!?。；！？\n,，]{{0,16}}\Z", re.IGNORECASE)
# Round 32: what a part is said to mean is no part of the number ("身份证开头的110是北京",
# "the 110 at the start of an ID stands for Beijing"), and a bare year after "starts" or
# "ends" (no "with") of a document, not of its number, is when it is valid ("my license starts
# 2025 and ends 2035"; "passport number starts 2031" stays a part).
_MEANS_AFTER = re.compile(
    r"\s*(?:是|代表|表示|指|就是|说明)(?![\d一二三四五六七八九零〇])"
    r"|\s+(?:means|stands\s+for|is\s+for|is\s+the\s+code)(?![a-z])",
    re.IGNORECASE,
)
_DATED_PART = re.compile(r"(?:starts?|begins?|ends?)\s+(?:19|20)\d\d\Z", re.IGNORECASE)


_NUMBER_WORD = re.compile(r"(?<![a-z])(?:number|no\.?|#)|号", re.IGNORECASE)


def _named_parts(text: str, named: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    for match in PIECE.finditer(text):
        if _LIST_WORD.match(match.group()) or _MEANS_AFTER.match(text, match.end()):
            continue
        owner = named.search(text, max(0, match.start() - 40), match.start())
        if owner is None:
            continue
        if _DATED_PART.search(match.group()) and not _NUMBER_WORD.search(owner.group()):
            continue  # "my license starts 2025": the document, not its number, starts
        yield match.span(1)


def named_id_parts(text: str) -> Iterator[tuple[int, int]]:
    """Round 31: the spans of parts of an ID or passport number named as such ("passport
    number: starts X1234", "身份证开头是110101"): half of that number, even alone."""
    yield from _named_parts(text, _ID_NAMED)


def named_card_parts(text: str) -> Iterator[tuple[int, int]]:
    """Round 32: the same for a card's number ("card number starts 4929")."""
    yield from _named_parts(text, _CARD_NAMED)


def pieces(text: str) -> list[str]:
    """The parts `text` offers of a longer number, in order: digits, and the letters a
    document number starts with."""
    return [_SEPARATOR.sub("", match.group(1)) for match in PIECE.finditer(text)]


_SEPARATOR = re.compile(r"[ \-._/]")
# A passport number made of pieces: "EA12" + "34567", "E1234" + "5678".
_PASSPORT = re.compile(r"(?:[cdegps]\d{8}|e[a-z]\d{7})", F)


def pieces_shape(joined: str) -> Shape | None:
    """What the parts make together: an ID, card or phone number, or a passport number."""
    found = shape(compact(joined)) if joined[:1].isdigit() else None
    return found or ("id" if _PASSPORT.fullmatch(joined) else None)


def joined_shape(parts: Sequence[str]) -> Shape | None:
    """The shape two or three consecutive parts make together, if any."""
    for size in (2, 3):
        for start in range(len(parts) - size + 1):
            found = shape("".join(parts[start : start + size]))
            if found is not None:
                return found
    return None


__all__ = [
    "LOOSE_RUN",
    "STRICT_RUN",
    "Shape",
    "compact",
    "is_card",
    "is_id_card",
    "is_mobile",
    "joined_shape",
    "luhn",
    "named_card_parts",
    "pieces",
    "pieces_shape",
    "shape",
    "shaped_runs",
]
