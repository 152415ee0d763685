"""Codes a label names: the value near a label, in either order, whatever stands between.

- After (or just before) a label of an identifier, a code with letters and at least three
  digits ("AAdvantage #: 7XK82M4", "ppt no. C01X00T47"), or six digits or more in groups
  ("national insurance number is QQ 12 34 56 C", "HH# 987654321").
- Near a label of a password, a code with a letter and a digit or symbol, anything quoted,
  or three digits or more that count, measure or place nothing ("pwd for the site: Tr@vel!88",
  "my trip.com password? it's dragonfly88", "'hunter22' — that's the passcode").
- Right after an account label, a login with a digit ("携程账号 zhang.wei88").
- After a security-code label, three or four digits in the same sentence ("digits on the
  back: 737", "CVV? 4 digits on the front of the amex: 1234", "卡背面的三个数字是 318").
- The first or last digits of something ("尾号0312", "ID no. ending in 341X", "身份证号以4403
  开头"): the category of the nearest label of an identifier.
- An expiry written as four digits ("expiry 0928 on the mastercard"), beside a card word.
- What is keyed in on a keypad ("*1234#"; "6093#" where something is pressed or opened).

The label that owns a value is the nearest in its sentence (`memory.privacy.label_words`), so
"member ID: 40051234" is an account and "booking number 12345678" is nobody's secret.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.privacy.categories import Category
from memory.privacy.identifiers import COUNT_AFTER, harmless_shape
from memory.privacy.label_words import Label, category_of, labels, nearest, same_sentence
from memory.privacy.numbers import compact
from memory.privacy.vocabulary import DATE_YEAR

F = re.ASCII | re.IGNORECASE
Found = Iterator[tuple[Category, int, int]]
_IDENTIFIERS = ("id", "account", "phone", "card")

# A code: letters and digits mixed, at least three digits ("7XK82M4", "C01X00T47", "AB123456").
CODE = re.compile(
    r"(?<![0-9a-z])(?=[0-9a-z]*[a-z])(?=(?:[a-z]*\d){3})[0-9a-z]{6,20}(?![0-9a-z])", F
)
# A flight or train number, a seat, a size: codes that are no secret ("CA981", "12A", "5G").
_TRAVEL_CODE = re.compile(r"[a-z]{1,2}\d{1,4}|\d{1,3}[a-z]|[a-z]\d[a-z]?|\d+[a-z]{1,4}", F)
# A password: a token with a letter and a digit or symbol, or anything in quotes.
SECRET_VALUE = re.compile(
    r"(?P<quoted>(?<=[\"'`“‘「])[^\s\"'`”’」]{3,64}(?=[\"'`”’」]))"
    r"|(?<![^\s:=#(\[{<>,;，：])(?P<token>[!-~]{4,64}?)(?=[\s,;:.!?)，。；]*(?:\s|$))",
    F,
)
_LETTER = re.compile(r"[a-z]", F)
# An e-mail address, a web address or a version is named, not secret.
_NOT_A_PASSWORD = re.compile(
    r"[^@\s]+@[^@\s]+\.[a-z]{2,}|(?:https?://|www\.)\S+|v?\d+(?:\.\d+)+[a-z]?",
    F,
)
_DIGIT_OR_SYMBOL = re.compile(r"[0-9!@#$%^&*_+=?~]")


def _secret_like(match: re.Match[str]) -> bool:
    value = match.group()
    if "[redacted]" in value or "redacted]" in value:
        return False
    if match.group("quoted"):
        return True
    return (
        _LETTER.search(value) is not None
        and _DIGIT_OR_SYMBOL.search(value) is not None
        and not _TRAVEL_CODE.fullmatch(value.rstrip("!?.+"))
        and not _NOT_A_PASSWORD.fullmatch(value.rstrip("!?.,"))
    )


# A number that counts, measures or places something is no PIN ("4 digits", "2 km", "room 12").
_SMALL = re.compile(r"(?<![0-9a-z#])#?(\d(?:[ \-]?\d){2,11})[#*]?(?![0-9a-z%°:.])", F)
_COUNTED = re.compile(
    r"\s*(?:digits?|chars?|characters?|letters?|times?|tries|attempts|hours?|hrs?|minutes?|mins?"
    r"|days?|weeks?|months?|years?|am|pm|km|m|mbps|gb|kg|people|nights?|位|次|天|小时|分钟|点|个)"
    r"(?![a-z])",
    F,
)
_PLACED = re.compile(
    r"(?<![a-z])(?:room|rm|floor|gate|row|seat|terminal|platform|at|by|until|till|before"
    r"|after|since|every|version|v|chrome|ios|android|windows|iphone)\s*#?\s*\Z|[房楼层排座第]\s*\Z",
    F,
)
# A year after an article or a preposition is when, not a PIN: "book the 2024 conference".
_DATED = re.compile(r"(?<![a-z])(?:the|in|of|since|from|for|during)\s*\Z", F)
_SECRET_WINDOW = 48  # as far as a label before a value may own it (label_words.BEFORE)
# A login right after an account label: "携程账号 zhang.wei88", "username: li_wei1990".
ACCOUNT_LOGIN = re.compile(
    r"\s*(?:is|:|=|#|是|为)?\s*"
    r"((?=[a-z0-9._\-@]*[a-z])(?=[a-z0-9._\-@]*\d)[a-z0-9][a-z0-9._\-@]{4,40})(?![a-z0-9._\-@])",
    F,
)
# Six digits or more that a label of an identifier owns: "QQ 12 34 56 C", "HH# 987654321".
NUMBER = re.compile(r"(?<![0-9a-z])\d(?:[ \-._/]{0,2}\d){5,}(?![0-9])", F)
# A security code after its label: "CVV: 028", "digits on the back: 737", "安全码是 369".
CVV_VALUE = re.compile(r"(?<![0-9a-z.,:/\-])\d(?:[ \-]?\d){2,3}(?![0-9a-z]|[.,:/\-]\d)", F)


def _secret_values(text: str, label: Label) -> Iterator[tuple[int, int]]:
    end = min(len(text), label.end + _SECRET_WINDOW)
    for match in SECRET_VALUE.finditer(text, label.end, end):
        if _secret_like(match):
            yield match.span()
    for match in _SMALL.finditer(text, label.end, end):
        start = match.start(1)
        if (
            _COUNTED.match(text, match.end(1))
            or _PLACED.search(text, max(0, start - 12), start)
            or (
                DATE_YEAR.fullmatch(match.group(1))
                and _DATED.search(text, max(0, start - 8), start)
            )
        ):
            continue
        yield match.span(1)


def _category(label: Label) -> Category:
    category = category_of(label)
    assert category is not None  # only labels of identifiers are asked
    return category


def labelled_codes(text: str, found: list[Label] | None = None) -> Found:
    """Codes and passwords named by the label nearest to them (see the module docstring)."""
    found = labels(text) if found is None else found
    for match in CODE.finditer(text):
        value = match.group()
        if _TRAVEL_CODE.fullmatch(value) or harmless_shape(value):
            continue
        label = nearest(found, match.start(), match.end(), text)
        if label is not None and label.kind in _IDENTIFIERS:
            yield _category(label), match.start(), match.end()
    for match in NUMBER.finditer(text):
        start, end = match.span()
        number = compact(match.group())
        if (
            len(number) < 6
            or harmless_shape(match.group())
            or COUNT_AFTER.match(text, end)
            or _COUNTED.match(text, end)
            or _PLACED.search(text, max(0, start - 12), start)
        ):
            continue
        label = nearest(found, start, end, text)
        if label is not None and label.kind in _IDENTIFIERS:
            yield _category(label), start, end
    for label in found:
        if label.kind == "account":
            login = ACCOUNT_LOGIN.match(text, label.end)
            if login is not None and not _TRAVEL_CODE.fullmatch(login.group(1)):
                yield "account", login.start(1), login.end(1)
        if label.kind == "secret":
            for start, end in _secret_values(text, label):
                # A value that is itself a label names something ("no password for 12306").
                named = any(other.start <= start and end <= other.end for other in found)
                if not named and nearest(found, start, end, text) == label:
                    yield "secret", start, end
        elif label.kind == "cvv":
            end = min(len(text), label.end + _SECRET_WINDOW)
            for digits in CVV_VALUE.finditer(text, label.end, end):
                if not _COUNTED.match(text, digits.end()) and same_sentence(
                    text, label.end, digits.start()
                ):
                    yield "card", digits.start(), digits.end()
    # The value first, the label after: "'hunter22' — that's the passcode".
    for match in SECRET_VALUE.finditer(text):
        label = nearest(found, match.start(), match.end(), text)
        if (
            label is not None
            and label.kind == "secret"
            and label.start >= match.end()
            and _secret_like(match)
        ):
            yield "secret", match.start(), match.end()


# --- the first or last digits of something ----------------------------------------------------

# A part of a number, said as a part: "ending in 0005", "尾号0312", "starts with 4403", "开头是
# 4403", "最后是341X", "前六位 440304".
TAIL = re.compile(
    r"(?:(?<![a-z])(?:ending(?:\s+(?:in|with))?|ends?\s+(?:in|with)?|last|final|first"
    r"|starts?\s+with|starting(?:\s+with)?|begins?\s+with|beginning\s+with)"
    r"(?:\s+(?:\d|four|three|six|4|3|6)(?:\s+digits?)?)?(?![a-z])"
    r"|尾号|尾数|(?:末尾|最后|后|末|前|头)(?:[三四五六3-6]|几)位(?:数字|数|号)?|末尾|开头|结尾|最后)"
    r"\s*(?:is|are|was|:|=|是|为)?\s*(\d{3,6}x?)(?![0-9a-z])",
    F,
)
# The part first, then the word: "以4403开头", "341X结尾".
HEAD = re.compile(r"(?<![0-9a-z])(\d{3,6}x?)\s*(?:开头|打头|起头|结尾|结束)", F)


def tails(text: str, found: list[Label] | None = None) -> Found:
    found = labels(text) if found is None else found
    for match in (*TAIL.finditer(text), *HEAD.finditer(text)):
        if _COUNTED.match(text, match.end(1)) or COUNT_AFTER.match(text, match.end(1)):
            continue  # "最后是300米外": a distance, not the last digits
        owners = [
            label
            for label in found
            if label.kind in _IDENTIFIERS and abs(label.start - match.start()) <= 48
        ]
        if owners:
            owner = min(owners, key=lambda label: abs(label.start - match.start()))
            yield _category(owner), match.start(1), match.end(1)


# "expiry 0928 on the mastercard": a month and year without a slash, beside a card word.
EXPIRY_MMYY = re.compile(
    r"(?:(?<![a-z])(?:exp(?:iry|ires|iring|iration)?(?:\s+date)?|valid\s+(?:thru|through|until)"
    r"|good\s+thru)(?![a-z])|有效期(?:至|到)?|到期(?:日)?)"
    r"\s*(?:is|:|=|是|为|至|到)?\s*((?:0[1-9]|1[0-2])\d\d)(?![0-9])",
    F,
)


def expiries(text: str, found: list[Label] | None = None) -> Found:
    found = labels(text) if found is None else found
    for match in EXPIRY_MMYY.finditer(text):
        if any(label.kind == "card" and abs(label.start - match.start()) <= 48 for label in found):
            yield "card", match.start(1), match.end(1)


# What is keyed in on a keypad: "*1234#" whatever the words around it; "6093#" where a key
# is pressed or something opened ("按 6093# 开门", "press 2580# at the gate").
KEYPAD = re.compile(r"(?<![0-9a-z*#])(?:(\*\d{3,10}[#*])|(\d{3,10}#))(?![0-9a-z#*])", F)
_PRESSED = re.compile(
    r"(?<![a-z])(?:press|punch|dial|key|enter|type|opens?|unlocks?)(?![a-z])|按|输|开|摁|拨", F
)


# Digits keyed in to open something: "use 7788 for the garage", "enter 2580 at the door",
# "输入2580开门".
KEYED = re.compile(
    r"(?<![a-z])(?:use|enter|punch\s+in|key\s+in|type(?:\s+in)?|press|dial|input)\s+"
    r"(\d(?:[ \-]?\d){2,9})\s+(?:(?:for|at|on|to\s+open|to\s+unlock)\s+(?:the\s+|my\s+)?)"
    r"(?:front\s+door|door|gate|garage|safe|lock|lockbox|keypad|alarm|locker|building|entrance"
    r"|villa|apartment|flat|room\s+safe)(?![a-z])"
    r"|(?:输入?|按|摁)\s*(\d(?:[ \-]?\d){2,9})\s*#?\s*(?:就能|就可以|即可|可以)?"
    r"(?:开门|开锁|解锁|进门|进入|打开)",
    F,
)


def keypads(text: str) -> Found:
    for match in KEYPAD.finditer(text):
        start, end = match.span()
        if match.group(1) or _PRESSED.search(text[max(0, start - 20) : end + 12]):
            yield "secret", start, end
    for match in KEYED.finditer(text):
        yield "secret", *match.span(1 if match.group(1) else 2)


def codes(text: str, found: list[Label] | None = None) -> Found:
    """Everything this module finds in normalised `text`, with its category."""
    found = labels(text) if found is None else found
    yield from labelled_codes(text, found)
    yield from tails(text, found)
    yield from expiries(text, found)
    yield from keypads(text)


__all__ = [
    "CODE",
    "KEYPAD",
    "SECRET_VALUE",
    "TAIL",
    "codes",
    "expiries",
    "keypads",
    "labelled_codes",
    "tails",
]
