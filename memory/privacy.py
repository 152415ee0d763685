"""Write-time privacy guard: what must never be remembered, and masking it in logs.

`check_fact` refuses a fact that carries an ID-card or passport number, a bank-card number,
a password or PIN, a phone number or an exact amount of money, with a short reason the
agent can relay; `redact` masks the same spans. Detection leans on structure (checksums,
birth dates, labels, currency, words such as 人均 or "per night") so that flight and train
numbers, dates, times, seats, distances and durations pass. The patterns themselves live in
`memory.privacy_patterns`.

Both functions look at a normalised copy of the text (`_normalise`): full-width forms are
folded ("１３８…", "￥３０００"), other scripts' digits become ASCII, and invisible characters
are dropped (format characters such as zero-width spaces, joiners and bidi overrides, and
combining marks), so "138\u200b0013\u200b8000" is read as "13800138000". `redact` maps what
it finds back onto the original text: everything outside a masked span is returned exactly as
given, invisible characters included.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Callable, Iterator
from datetime import date

from memory import privacy_patterns as P

REDACTED = "[redacted]"

_Span = tuple[int, int]

REASON_ID = "contains an ID or passport number; keep the preference and leave the number out"
REASON_CARD = (
    "contains a bank-card number; name the card type (e.g. 'corporate Visa') without the number"
)
REASON_SECRET = "contains a password or PIN; never share secrets, keep only the preference"
REASON_PHONE = "contains a phone number; keep the preference and leave the number out"
REASON_AMOUNT = "contains an exact amount; say 'budget-conscious' instead"

# --- ID-card and passport numbers -----------------------------------------------------------

_PROVINCES = frozenset(
    {11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46}
    | {50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83}
)
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"  # ISO 7064 MOD 11-2, indexed by the weighted sum mod 11


def _compact(run: str) -> str:
    return run.translate(P.RUN_SEPARATORS)


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
    for match in P.RUN.finditer(text):
        if _is_id_card(_compact(match.group())):
            yield match.span()
    for match in P.PASSPORT.finditer(text):
        yield match.span()
    for match in P.ID_LABEL.finditer(text):
        if len(_compact(match.group(1)).lstrip(string.ascii_letters)) >= 4:
            yield match.span(1)


# --- bank cards -------------------------------------------------------------------------------


def _luhn(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        value = int(digit) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _cards(text: str) -> Iterator[_Span]:
    for match in P.RUN.finditer(text):
        number = _compact(match.group())
        if 13 <= len(number) <= 19 and number.isdigit() and _luhn(number):
            yield match.span()
    for match in P.CARD_LABEL.finditer(text):
        yield match.span(1)


# --- passwords and PINs -----------------------------------------------------------------------


def _secrets(text: str) -> Iterator[_Span]:
    for match in P.SECRET.finditer(text):
        yield match.span(1) if match.group(1) is not None else match.span(2)
    for pattern in (P.SECRET_ZH_LATIN, P.SECRET_PASS):
        for match in pattern.finditer(text):
            yield match.span(1)


# --- phone numbers ----------------------------------------------------------------------------


def _digit_count(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def _phones(text: str) -> Iterator[_Span]:
    for match in P.RUN.finditer(text):
        if P.MOBILE.fullmatch(_compact(match.group())):
            yield match.span()
    for match in P.INTL_PHONE.finditer(text):
        if 8 <= _digit_count(match.group()) <= 15:
            yield match.span()
    for pattern in (P.LANDLINE, P.NANP):
        for match in pattern.finditer(text):
            yield match.span()
    for pattern, fewest in ((P.PHONE_LABEL, 6), (P.NUMBER_LABEL, 7)):
        for match in pattern.finditer(text):
            value = match.group(1)
            if _digit_count(value) >= fewest and not P.DATE.fullmatch(value.strip("()")):
                yield match.span(1)


# --- exact amounts of money -------------------------------------------------------------------


def _money_context(text: str, start: int, end: int) -> bool:
    """Whether the bare number at text[start:end] reads as a price."""
    low = max(0, start - 40)
    return bool(
        P.MONEY_BEFORE.search(text, low, start)  # "预算3000", "budget of 800"
        or P.PER_BEFORE.search(text, low, start)  # "人均300", "per night 600"
        or P.PER_AFTER.match(text, end)  # "800 a night", "600每晚"
        or P.MONEY_AFTER.match(text, end)  # "三千预算", "3000 budget"
        or P.THING_AFTER.match(text, end)  # "3000以内的酒店"
        or P.THING_BEFORE_EN.search(text, low, start)  # "hotels under 800"
        or (
            P.THING_BEFORE_ZH.search(text, low, start)  # "酒店不超过800", "机票1500以内"
            and (P.CAP_BEFORE_ZH.search(text, low, start) or P.LIMIT_AFTER_ZH.match(text, end))
        )
    )


def _priced(text: str, start: int, end: int) -> bool:
    return not P.NOT_MONEY.match(text, end) and _money_context(text, start, end)


def _amounts(text: str) -> Iterator[_Span]:
    for match in P.EXPLICIT.finditer(text):
        yield match.span()
    for match in P.CANDIDATE.finditer(text):
        number, (start, end) = match.group(), match.span()
        big_enough = _digit_count(number) >= 2 or not number[-1].isdigit()
        if big_enough and _priced(text, start, end):
            yield start, end
    # Number words: with a currency ("two hundred bucks", "five euros"), or ten or more with
    # a price around them ("budget three thousand"); "one room per night" is no price.
    for match in P.EN_NUMBER.finditer(text):
        start, end = match.span()
        currency = P.CURRENCY_AFTER.match(text, end)
        if currency:
            yield start, currency.end()
        elif P.EN_LARGE.search(match.group()) and _priced(text, start, end):
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


# Removed before checking: format characters (zero-width space and joiners, word joiner,
# byte-order mark, soft hyphen, bidi controls …) and combining marks (variation selectors,
# the keycap of "1️⃣"), none of which changes what a reader sees as the number.
_INVISIBLE = frozenset({"Cf", "Mn", "Me"})


def _normalise(text: str) -> tuple[str, list[int]]:
    """The text as the guard reads it, and for each of its characters the index of the
    original character it came from (plus len(text) at the end).

    Per character: invisible characters are dropped, NFKC folds full-width forms when it
    yields one character, every kind of space becomes " " (line and paragraph separators
    "\\n"), and any other script's decimal digit becomes its ASCII digit."""
    chars: list[str] = []
    origins: list[int] = []
    for index, old in enumerate(text):
        if old.isascii():  # unchanged by every step below
            chars.append(old)
            origins.append(index)
            continue
        if unicodedata.category(old) in _INVISIBLE:
            continue
        new = unicodedata.normalize("NFKC", old)
        new = new if len(new) == 1 else old
        category = unicodedata.category(new)
        if category[0] == "Z":  # no-break, thin, ideographic … spaces; line separators
            new = " " if category == "Zs" else "\n"
        digit = unicodedata.decimal(new, None)
        chars.append(new if digit is None or new.isascii() else str(digit))
        origins.append(index)
    origins.append(len(text))
    return "".join(chars), origins


def check_fact(text: str) -> str | None:
    """None when the text may be stored; otherwise a short English reason the agent can relay
    to the user, e.g. "contains an exact amount; say 'budget-conscious' instead"."""
    normalised, _ = _normalise(text)
    for detect, reason in _CHECKS:
        if next(detect(normalised), None) is not None:
            return reason
    return None


def redact(text: str) -> str:
    """The original text with every sensitive span replaced by "[redacted]", for logs.

    Spans are found in the normalised text and mapped back to the original, so the rest of
    the text is kept as typed; invisible characters inside a span go with it."""
    normalised, origins = _normalise(text)
    spans = sorted(
        (origins[start], origins[end - 1] + 1)
        for detect, _ in _CHECKS
        for start, end in detect(normalised)
        if end > start
    )
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
