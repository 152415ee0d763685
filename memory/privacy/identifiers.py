"""Long numbers: values sensitive by their shape alone, named by the label that owns them
(`memory.privacy.label_words`), whatever words stand between.

- A long number: seven digits or more once its separators are joined, letters before it or
  not ("EJ4829173", "07700 900123", "2345 6789 0123"), is an identifier unless it has a
  harmless shape (a date, a date or time range, two numbers as a range or alternatives,
  times or years in a list, an IP address or version) or a harmless owner (a unit after it,
  "booking", "order", "flight" before it). Its category is its label's; without one, its
  shape's (a card number, a mobile, a letter-led document number, else a phone number).
- A partly masked number ("4111 **** **** 1234", "138xxxx8000"): four digits or more in view
  and ten characters or more in all; its label's category, else a card or a phone.
- An IBAN (two letters, two check digits, the account; the ISO 13616 check holds).
- Digit groups joined by a word ("139 then 1234 then 5678", "139，然后1234 5678") that
  together are a mobile, card or ID number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.privacy.categories import Category
from memory.privacy.label_words import Label, category_of, labels, nearest
from memory.privacy.numbers import compact, shape
from memory.privacy.vocabulary import CLOCK, DATE_YEAR

F = re.ASCII | re.IGNORECASE
Found = Iterator[tuple[Category, int, int]]

# Digits with up to three separator characters between two of them, a few letters before.
LONG_RUN = re.compile(
    r"(?<![0-9a-z'’])(?:[a-z]{1,4}(?=\d)|(?-i:[A-Z])(?=[ \-]\d))?[ \-]?\d(?:[ \-._/]{0,3}\d)*"
    r"(?:\s?\(\d\))?x?(?![0-9])",
    F,
)
_GROUPS = re.compile(r"\d+")
_LETTERS = re.compile(r"[a-z]", F)
# Letters set apart from the digits, or five digits or more after them: no flight number.
_DOCUMENT_START = re.compile(r"[a-z]+(?:[ \-]|\d{5})", F)
_SEPARATORS = re.compile(r"\d([ \-._/]{1,3})(?=\d)")
# What follows a number that counts something: "1500000 lifetime miles", "1 200 000 points".
COUNT_AFTER = re.compile(
    r"\s*(?:[a-z]+\s+){0,2}?(?:miles|points?|pts|avios|steps|km|kms|meters?|metres?|people"
    r"|visitors|followers|views|nights|stays|mqms?|xp|calories|kcal)(?![a-z])"
    r"|\s*(?:积分|里程|公里|米|步|人|晚|分(?!机))|\s*[^\x00-\x7f]{1,4}(?:积分|里程)",
    F,
)
# Currencies whose amounts run to seven digits: "2000000 dong" is money, not a phone number.
MONEY_AFTER = re.compile(
    r"\s*(?:dong|rupiah|won|yen|yuan|rmb|vnd|idr|krw|jpy|dollars?|pesos?)(?![a-z])"
    r"|\s*(?:元|块|盾|韩元|日元|越南盾|印尼盾)",
    F,
)
_DATE_PART = r"(?:(?:19|20)\d\d[\-./])?(?:0?[1-9]|1[0-2])[\-./](?:0?[1-9]|[12]\d|3[01])"
_DAY_FIRST = r"(?:0?[1-9]|[12]\d|3[01])[\-./](?:0?[1-9]|1[0-2])[\-./](?:19|20)?\d\d"
DATE_SHAPE = re.compile(
    rf"(?:{_DATE_PART}|{_DAY_FIRST})(?:\s?[\-~/]\s?(?:{_DATE_PART}|{_DAY_FIRST}|\d{{1,2}}))?",
    F,
)
_IP_OR_VERSION = re.compile(r"\d{1,3}(?:\.\d{1,3}){2,3}")


def _valid_ymd(digits: str) -> bool:
    if len(digits) != 8 or not DATE_YEAR.fullmatch(digits[:4]):
        return False
    month, day = int(digits[4:6]), int(digits[6:])
    return 1 <= month <= 12 and 1 <= day <= 31


def harmless_shape(run: str) -> bool:
    """Whether a run of digits reads as a date, a range, times, years or a version."""
    body = run.strip(" -._/")
    if _LETTERS.search(body):
        return False  # "AB1CD23" is a code, whatever its digits look like
    groups = _GROUPS.findall(body)
    separators = {sep.strip() or " " for sep in _SEPARATORS.findall(body)}
    if DATE_SHAPE.fullmatch(body) or _IP_OR_VERSION.fullmatch(body):
        return True
    if len(groups) == 1 and _valid_ymd(groups[0]):  # "20240315"
        return True
    if len(groups) == 2 and separators <= {"-", "/", "~", "_"} and all(len(g) <= 5 for g in groups):
        return True  # "0800-1100", "1000-1500", "5101/5102": a range or alternatives
    if len(groups) >= 2 and (
        all(CLOCK.fullmatch(g) for g in groups) or all(DATE_YEAR.fullmatch(g) for g in groups)
    ):
        return " " not in separators or len(groups) > 2  # "0800 1100 1400", "2019-2021"
    return False


# A US social security number: three, two and four digits ("078-05-1120").
SSN = re.compile(r"(?<![0-9])\d{3}-\d{2}-\d{4}(?![0-9])")


def _default(number: str, letters: bool) -> Category:
    found = shape(number)
    if found is not None:
        return found
    if letters:
        return "id"
    return "phone" if len(number) <= 12 else "account"


def long_numbers(text: str, found: list[Label] | None = None, *, guess: bool = True) -> Found:
    """Numbers of seven digits or more that no harmless shape or owner explains. Without
    `guess`, an unlabelled one counts only when its shape says what it is (facts joined
    together: digits of two unrelated facts are no one's number)."""
    found = labels(text) if found is None else found
    for match in LONG_RUN.finditer(text):
        run = match.group()
        letters = run[:1].isalpha()
        digits_part = run.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -")
        number = compact(digits_part).rstrip("xX")
        # "E-8765-4321" is a document number where "8765-4321" may be a range; "MU5101/5102"
        # is a flight and its alternative.
        document = letters and _DOCUMENT_START.match(run) is not None
        if len(number) < 7 or (not document and harmless_shape(digits_part.rstrip("xX() "))):
            continue
        start, end = match.span()
        if (
            COUNT_AFTER.match(text, end)
            or MONEY_AFTER.match(text, end)
            or text[max(0, start - 1) : start] == "+"
        ):
            continue  # counted or money ("2000000 dong"); "+86 …" is the international rules'

        label = nearest(found, start, end, text)
        if SSN.fullmatch(run.strip()):
            yield "id", start, end
        elif label is None:
            if guess or shape(number) is not None:
                yield _default(number, letters), start, end
        elif (category := category_of(label)) is not None:
            yield category, start, end


# --- numbers partly masked ---------------------------------------------------------------------

# "4111 **** **** 1234", "138xxxx8000", "6222 •••• •••• 0123": the digits left in view are
# still the number's, and a masked number is only ever an identifier.
MASKED = re.compile(
    r"(?<![0-9a-z])(?=[0-9*x•# \-.]{0,54}\d)(?:\d{1,6}(?!\d)|[*x•#]{2,8}(?![*x•#]))"
    r"(?:[ \-.]?(?:\d{1,6}(?!\d)|[*x•#]{2,8}(?![*x•#]))){1,5}(?![0-9a-z])",
    F,
)
_MASK = re.compile(r"[*x•#]{2,}", F)


def masked(text: str, found: list[Label] | None = None) -> Found:
    found = labels(text) if found is None else found
    for match in MASKED.finditer(text):
        run = match.group()
        digits = sum(ch.isdigit() for ch in run)
        length = digits + sum(len(m) for m in _MASK.findall(run))
        label = nearest(found, match.start(), match.end(), text)
        card_tail = label is not None and label.kind == "card" and length >= 8  # "visa **** 4242"
        if not _MASK.search(run) or digits < 4 or (length < 10 and not card_tail):
            continue
        category = category_of(label) if label is not None else None
        if label is None:
            category = "card" if length >= 13 else "phone"
        if category is not None and category != "amount":
            yield category, match.start(), match.end()


# --- IBAN -------------------------------------------------------------------------------------

IBAN = re.compile(
    r"(?<![0-9a-z])[a-z]{2}\d{2}(?:\s?[0-9a-z]{4}){2,7}(?:\s?[0-9a-z]{1,4})?(?![0-9a-z])", F
)


def iban_valid(candidate: str) -> bool:
    code = re.sub(r"\s", "", candidate).upper()
    if not 15 <= len(code) <= 34:
        return False
    moved = code[4:] + code[:4]
    digits = "".join(str(int(ch, 36)) for ch in moved)
    return int(digits) % 97 == 1


def ibans(text: str) -> Found:
    """IBANs whose check digits hold; spaced groups may run into the next words, so shorter
    readings of a match are tried too."""
    for match in IBAN.finditer(text):
        value = match.group()
        ends = [m.end() for m in re.finditer(r"\S+", value)]
        for end in reversed(ends):
            if iban_valid(value[:end]):
                yield "account", match.start(), match.start() + end
                break


# --- digit groups joined by words -------------------------------------------------------------

GLUED = re.compile(
    r"(?<![0-9])\d{2,8}(?:(?:\s*(?:,|，|、)?\s*(?:and\s+then|then|and|plus|(?:the\s+)?rest(?:\s+is)?"
    r"|followed\s+by|再|然后|接着|后面是|后面|剩下的?是?|其余的?是?)"
    r"\s*[:：]?\s*|\s*[,，、]\s*|[ \-]{1,3})\d{2,8}){1,5}(?![0-9])",
    F,
)


def glued(text: str) -> Found:
    for match in GLUED.finditer(text):
        found = shape(compact(match.group()))
        if found is not None:
            yield found, match.start(), match.end()


__all__ = [
    "COUNT_AFTER",
    "IBAN",
    "LONG_RUN",
    "MASKED",
    "glued",
    "harmless_shape",
    "iban_valid",
    "ibans",
    "long_numbers",
    "masked",
]
