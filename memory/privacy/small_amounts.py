"""One-digit amounts: a count is far more often one digit than a price is, so a one-digit
number is money only with a cue no count has (`memory.privacy.money.amounts` asks)."""

from __future__ import annotations

import re

from memory.privacy.vocabulary import ADMISSIONS, HAGGLED_DOWN, PAYING_EN, PAYING_ZH, PER_WORD

F = re.ASCII | re.IGNORECASE

NIGHT_AFTER = re.compile(r"\s*(?:(?:a|per|each|every)\s+|/\s*)(?:night|nt)(?![a-z])", F)
LODGING_BEFORE = re.compile(
    r"(?<![a-z])(?:hostels?|dorms?|guest\s?houses?|hotels?|motels?|inns?|b&b|bunks?|beds?)"
    r"(?![a-z])[^0-9.,;!?\n]{0,24}\Z",
    F,
)


# A one-digit amount needs a cue no count has: a verb of paying right before it ("paid 7 for
# the locker", "花了4"), a fare or a price per ride after it ("6 each way", "2 per ride"),
# or an allowance or a fee word just before it ("breakfast allowance 8 a day", "另收8").
ONE_DIGIT_BEFORE = re.compile(
    rf"(?:(?<![a-z])(?:{PAYING_EN}|charges|{HAGGLED_DOWN}"
    r"|set\s+(?:me|us|him|her|them)\s+back|came\s+to|comes\s+to|(?:tossed|chipped|threw)\s+in"
    r"|(?:allowance|per\s+diem|fee|fare|toll|surcharge|deposit)s?)(?![a-z])"
    r"(?:\s+(?:me|us|him|her|them|about|around|roughly|only|just|up\s+to|at\s+most|like|is|was"
    r"|of|:))*\s*:?\s*"
    rf"|(?:{PAYING_ZH}|花|付|另付|另加|补贴|补助|津贴"
    r"|餐补|房补|车补|小费|费)(?:大概|大约|约|才|就|只|了)*\s*[:：]?\s*)\Z",
    F,
)
ONE_DIGIT_AFTER = re.compile(
    r"\s*(?:(?:one|1)[\s-]way|each\s+way|return|round[\s-]?trip"
    rf"|{PER_WORD}\s*(?:{ADMISSIONS})|from\s+(?:me|us))(?![a-z])"
    r"|\s*(?:单程|往返|来回|一位|每位|一张|每张|一次|每次)",
    F,
)
# "打车花了九块": a single Chinese numeral is left as written, so a paid one is read here.
SINGLE_ZH_PAID = re.compile(
    rf"(?:{PAYING_ZH}|才|只要|就要)\s*"
    r"([一二两三四五六七八九十])\s*(?:块|元|刀)"
)


def one_digit_amount(text: str, start: int, end: int) -> bool:
    """Whether the one-digit number at `start:end` is money: a night's price of a lodging
    ("the hostel in Hanoi 8 a night"), or a cue of paying or of a fare beside it."""
    if NIGHT_AFTER.match(text, end) and LODGING_BEFORE.search(text, max(0, start - 40), start):
        return True
    low = max(0, start - 30)
    return bool(ONE_DIGIT_BEFORE.search(text, low, start) or ONE_DIGIT_AFTER.match(text, end))


__all__ = ["SINGLE_ZH_PAID", "one_digit_amount"]
