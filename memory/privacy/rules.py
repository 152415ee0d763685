"""The rules of the privacy guard: which spans of a fact are sensitive, and of what category.

`scan` names the category of the first sensitive thing in a fact (or None), `check_fact`
gives the English reason for compatibility, `redact` masks every sensitive span for logs,
`preview` is what may be echoed of a refused fact.

It reads the text as `memory.privacy.text.normalise` spells it (every digit ASCII, Chinese
numerals and number words as digits, look-alikes and invisible characters folded), then
looks for number shapes (`memory.privacy.numbers`), labels in English and Chinese on either
side of a value (`memory.privacy.labels`), long, masked and IBAN numbers named by the label
that owns them (`memory.privacy.identifiers`), codes a label names in either order
(`memory.privacy.codes`), prices (`memory.privacy.money`, `memory.privacy.prices`) and
instructions (`memory.privacy.instructions`, with `commands` and `payloads`). Flight and
train numbers, dates, times, seats, ratings, sizes, distances and counts pass
(`memory.privacy.roles`). An encoded payload or a link is reported as instructions before
anything else: its digits are no one's number ("00.com/-" is a link, not an amount).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from memory.privacy import labels as P
from memory.privacy.categories import REASONS, REDACTED, Category
from memory.privacy.codes import codes
from memory.privacy.evidence import evidenced_amounts
from memory.privacy.identifiers import glued, ibans, long_numbers, masked
from memory.privacy.instructions import instructions
from memory.privacy.label_words import labels
from memory.privacy.money import amounts
from memory.privacy.numbers import named_card_parts, named_id_parts, shaped_runs
from memory.privacy.payloads import LINK, encoded
from memory.privacy.stated import stated_amounts
from memory.privacy.text import normalise
from memory.privacy.unexplained import unexplained_amounts

_Spans = Iterator[tuple[int, int]]
_LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9]")
DIGIT = re.compile(r"\d")


def _digits(value: str) -> int:
    return sum(ch.isdigit() for ch in value)


def _reverse(text: str, kind: str) -> _Spans:
    """Values named by a label after them: "hunter2 is my password"."""
    for match in P.REVERSE.finditer(text):
        if match.group(kind) is None:
            continue
        value = match.group("value")
        if value == REDACTED or value.lower() in P.REVERSE_STOPWORDS:
            continue
        if kind == "secret":
            # A plain word is a secret only where a clause starts ("letmein is the wifi
            # password"); a value with digits or symbols anywhere ("… s3cret! is my password").
            before = text[: match.start()].rstrip()
            starts_clause = not before or before[-1] in ",;:"
            if not _LATIN_OR_DIGIT.search(value) or (value.isalpha() and not starts_clause):
                continue
        elif _digits(value) < (3 if kind == "card" else 6):
            continue
        yield match.span("value")


def _labelled(pattern: re.Pattern[str], text: str, fewest: int) -> _Spans:
    for match in pattern.finditer(text):
        value = match.group(1)
        if _digits(value) >= fewest and not P.DATE.fullmatch(value.strip("() ")):
            yield match.span(1)


def _near(text: str, kind: str) -> _Spans:
    """A number in the same clause as a label of `kind`, unless it counts something."""
    for match in P.NEAR_LABELS[kind].finditer(text):
        value = match.group(1)
        start = match.start(1)
        if (
            P.COUNTED.match(text, match.end(1))
            or P.PLACED.search(text, max(0, start - 12), start)
            or P.DATE.fullmatch(value.strip())
        ):
            continue
        if kind == "card" and not P.CARD_NEAR.search(text) and not P.CVV_WORD.search(text):
            continue  # "ending 2026" is no card's last digits without a card word
        yield match.span(1)


def _ids(text: str) -> _Spans:
    yield from ((s, e) for kind, s, e in shaped_runs(text) if kind == "id")
    yield from (m.span() for m in P.PASSPORT.finditer(text))
    yield from _labelled(P.ID_LABEL, text, 6)
    yield from _near(text, "id")
    yield from _reverse(text, "id")
    yield from named_id_parts(text)  # round 31: "passport number: starts X1234" alone


def _card_numbers(text: str) -> _Spans:
    yield from ((s, e) for kind, s, e in shaped_runs(text) if kind == "card")
    yield from named_card_parts(text)  # round 32: "card number starts 4929" alone


def _card_details(text: str) -> _Spans:
    yield from _labelled(P.CARD_LABEL, text, 8)
    yield from (m.span(1) for m in P.CVV.finditer(text))
    if P.CARD_NEAR.search(text) and not P.PHONE_NEAR.search(text):
        yield from (m.span(1) for m in P.TAIL.finditer(text))
    for match in P.EXPIRY.finditer(text):
        if not P.NOT_CARD_EXPIRY.search(text, max(0, match.start() - 40), match.start()):
            yield match.span(1)
    yield from _near(text, "card")
    yield from _reverse(text, "card")


def _accounts(text: str) -> _Spans:
    for start, end in _labelled(P.ACCOUNT_LABEL, text, 6):
        if not P.BALANCE_AFTER.match(text, end):
            yield start, end
    yield from _reverse(text, "account")


def _secrets(text: str) -> _Spans:
    for match in P.SECRET.finditer(text):
        if match.group(1) is not None and match.group(1).lower() in P.NOT_A_SECRET:
            continue  # "the wifi password is on the card", "… is the same as before"
        start, end = match.span(1) if match.group(1) is not None else match.span(2)
        if text[start:end].isdigit() and P.COUNTED.match(text, end):
            continue  # "PIN 4 digits only", "2 step verification": a count, not the PIN
        yield start, end
    for pattern in (P.SECRET_ZH_LATIN, P.SECRET_PASS, P.WIFI_KEY):
        yield from (m.span(1) for m in pattern.finditer(text))
    yield from _near(text, "secret")
    yield from _reverse(text, "secret")


def _phones(text: str) -> _Spans:
    yield from ((s, e) for kind, s, e in shaped_runs(text) if kind == "phone")
    for match in P.INTL_PHONE.finditer(text):
        if 8 <= _digits(match.group()) <= 15:
            yield match.span()
    for pattern in (P.LANDLINE, P.NANP):
        yield from (m.span() for m in pattern.finditer(text))
    yield from _labelled(P.PHONE_LABEL, text, 6)
    yield from _labelled(P.NUMBER_LABEL, text, 7)
    if P.PHONE_NEAR.search(text):
        yield from (m.span(1) for m in P.TAIL.finditer(text))
    yield from _reverse(text, "phone")


def _structural(text: str, *, guess: bool = True) -> Iterator[tuple[Category, int, int]]:
    """What the shape and the owning label say (`identifiers`, `codes`), with categories."""
    found = labels(text)  # once: the dictionary is the slowest pattern
    yield from long_numbers(text, found, guess=guess)
    yield from ibans(text)
    yield from glued(text)
    yield from masked(text, found)
    yield from codes(text, found)


# Most specific first: a card number is reported as a card, not as a phone number.
_CHECKS: tuple[tuple[Callable[[str], _Spans], Category], ...] = (
    (_ids, "id"),
    (_card_numbers, "card"),
    (_accounts, "account"),
    (_card_details, "card"),
    (_secrets, "secret"),
    (_phones, "phone"),
    (amounts, "amount"),
    (stated_amounts, "amount"),  # round 28: "hostels ~25-30", "flights to Bali around 650"
    (evidenced_amounts, "amount"),  # round 30: "the drive was 60, we split it"
    (instructions, "instructions"),
    # Round 15: a number money surrounds that nothing else explains; after every other rule,
    # so it only refuses what they keep.
    (unexplained_amounts, "amount"),
)


def scan(text: str) -> Category | None:
    """The category of the first sensitive thing in `text`, or None when it may be kept."""
    normalised = normalise(text).text
    if next(encoded(normalised), None) is not None or LINK.search(normalised):
        return "instructions"  # an encoded blob or a link: its digits are no one's number
    shaped = {category for category, _, _ in _structural(normalised)}
    for detect, category in _CHECKS:
        if category in shaped or next(detect(normalised), None) is not None:
            return category
    return None


def check_fact(text: str) -> str | None:
    """None when the text may be stored; otherwise a short English reason the agent can relay
    to the user, e.g. "contains an exact amount; say 'budget-conscious' instead"."""
    category = scan(text)
    return REASONS[category] if category else None


def findings(normalised: str, *, guess: bool = True) -> list[tuple[Category, int, int]]:
    """Every sensitive span of normalised text, with its category. Without `guess`, a long
    number no label owns counts only when its shape says what it is (see `long_numbers`)."""
    found = [(category, s, e) for detect, category in _CHECKS for s, e in detect(normalised)]
    found += _structural(normalised, guess=guess)
    return [(category, s, e) for category, s, e in found if e > s]


def redact(text: str) -> str:
    """The original text with every sensitive span replaced by "[redacted]", for logs.

    Spans are found in the normalised text and mapped back to the original, so the rest of
    the text is kept as typed; invisible characters inside a span go with it."""
    normalised = normalise(text)
    found = findings(normalised.text)
    spans = sorted(normalised.span(start, end) for _, start, end in found)
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


def preview(text: str, limit: int = 60) -> str:
    """What may be shown of a refused fact: sensitive spans masked, every other digit shown
    as "•" (the pieces of a number, or what the fast model found, are not spans the rules
    mask), at most `limit` characters."""
    masked = DIGIT.sub("•", " ".join(redact(text[: limit * 4]).split()))
    return masked if len(masked) <= limit and len(text) <= limit * 4 else masked[:limit] + "…"


__all__ = [
    "DIGIT",
    "check_fact",
    "findings",
    "preview",
    "redact",
    "scan",
]
