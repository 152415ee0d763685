"""Property tests: however a sensitive number is written, with separators, invisible
characters, other scripts' digits, Chinese numerals, look-alike letters or digit words
between and instead of its digits, the guard still refuses it; and travel numbers written
with the same separators (flights, dates, times, seats) are still kept.

The bound the guard promises: at most three visible separator characters between two
digits (any number of invisible ones). A lone capital "I" between spaces is the pronoun,
so the look-alike cases use "l", "O" and "o".
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.privacy import scan

# PRIVACY_EXAMPLES=2000 for a longer hunt than the suite's.
EXAMPLES = int(os.environ.get("PRIVACY_EXAMPLES", "150"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

VISIBLE_SEPARATORS = [" ", "\u00a0", "\u3000", "\u2009", "-", "‐", "–", ".", "·", "_", "/", "／"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\ufe0f"]
DIGIT_FORMS = [
    0xFF10,  # full-width
    0x1D7CE,  # mathematical bold
    0x1D7D8,  # mathematical double-struck
    0x1D7E2,  # mathematical sans-serif
    0x1D7F6,  # mathematical monospace
    0x0660,  # Arabic-Indic
    0x06F0,  # extended Arabic-Indic
    0x0966,  # Devanagari
    0x09E6,  # Bengali
    0x0E50,  # Thai
]
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
ZH_DIGITS = ["零〇", "一幺", "二", "三", "四", "五", "六", "七", "八", "九"]
EN_DIGITS = [["zero", "oh"], ["one"], ["two"], ["three"], ["four"], ["five"], ["six"]]
EN_DIGITS += [["seven"], ["eight"], ["nine"]]
CONTEXTS = ["{}", "call {} please", "我的号码 {}", "pay with {}", "证件 {} 谢谢"]


def _luhn_digit(partial: str) -> str:
    total = 0
    for i, digit in enumerate(reversed(partial)):
        doubled = int(digit) * (2 if i % 2 == 0 else 1)
        total += doubled - 9 if doubled > 9 else doubled
    return str((10 - total % 10) % 10)


def _id_check(body: str) -> str:
    total = sum(int(digit) * pow(2, 17 - i, 11) for i, digit in enumerate(body))
    check = (12 - total % 11) % 11
    return "X" if check == 10 else str(check)


mobiles = st.builds(
    lambda second, rest: "1" + second + rest,
    st.sampled_from("3456789"),
    st.text("0123456789", min_size=9, max_size=9),
)
cards = st.builds(
    lambda prefix, rest: prefix + rest + _luhn_digit(prefix + rest),
    st.sampled_from(["4", "51", "55", "62", "37", "6011", "35"]),
    st.text("0123456789", min_size=12, max_size=12),
).map(lambda n: n[:16] if len(n) > 16 else n)
ids = st.builds(
    lambda region, year, month, day, seq: (
        (body := f"{region}{year}{month:02d}{day:02d}{seq}") + _id_check(body)
    ),
    st.sampled_from(["110105", "310104", "440106", "510107", "330102"]),
    st.integers(1950, 2005).map(str),
    st.integers(1, 12),
    st.integers(1, 28),
    st.text("0123456789", min_size=3, max_size=3),
)
numbers = st.one_of(mobiles, cards.filter(lambda n: _luhn_digit(n[:-1]) == n[-1]), ids)


@st.composite
def gaps(draw: st.DrawFn) -> str:
    """What goes between two digits: up to three visible separators, invisible ones too."""
    visible = draw(st.lists(st.sampled_from(VISIBLE_SEPARATORS), max_size=3))
    hidden = draw(st.lists(st.sampled_from(INVISIBLE), max_size=2))
    mixed = draw(st.permutations(visible + hidden))
    return "".join(mixed)


@st.composite
def spread(draw: st.DrawFn, pieces: list[str]) -> str:
    return "".join(
        piece + (draw(gaps()) if i < len(pieces) - 1 else "") for i, piece in enumerate(pieces)
    )


def _refused(number: str, written: str, context: str) -> None:
    text = context.format(written)
    assert scan(text) is not None, f"{number!r} written as {text!r} was not refused"


@SETTINGS
@given(number=numbers, data=st.data(), context=st.sampled_from(CONTEXTS))
def test_separators_and_invisible_characters_never_let_a_number_pass(
    number: str, data: st.DataObject, context: str
) -> None:
    _refused(number, data.draw(spread(list(number))), context)


@SETTINGS
@given(number=numbers, data=st.data(), context=st.sampled_from(CONTEXTS))
def test_other_digit_forms_never_let_a_number_pass(
    number: str, data: st.DataObject, context: str
) -> None:
    def form(ch: str) -> str:
        if not ch.isdigit():
            return ch
        choice = data.draw(st.integers(0, len(DIGIT_FORMS) + 1))
        if choice == len(DIGIT_FORMS):
            return ch
        if choice == len(DIGIT_FORMS) + 1:
            return SUPERSCRIPTS[int(ch)]
        return chr(DIGIT_FORMS[choice] + int(ch))

    _refused(number, data.draw(spread([form(ch) for ch in number])), context)


@SETTINGS
@given(number=numbers, data=st.data(), context=st.sampled_from(CONTEXTS))
def test_chinese_numerals_never_let_a_number_pass(
    number: str, data: st.DataObject, context: str
) -> None:
    pieces = [
        ch if not ch.isdigit() else data.draw(st.sampled_from(ZH_DIGITS[int(ch)])) for ch in number
    ]
    _refused(number, data.draw(spread(pieces)), context)


@SETTINGS
@given(number=numbers, data=st.data(), context=st.sampled_from(CONTEXTS))
def test_look_alike_letters_never_let_a_number_pass(
    number: str, data: st.DataObject, context: str
) -> None:
    def form(ch: str) -> str:
        choices = {"0": "0Oo", "1": "1l"}.get(ch, ch)
        return data.draw(st.sampled_from(choices))

    _refused(number, data.draw(spread([form(ch) for ch in number])), context)


@SETTINGS
@given(number=numbers.filter(lambda n: n.isdigit()), data=st.data())
def test_digits_read_out_as_words_never_let_a_number_pass(number: str, data: st.DataObject) -> None:
    words = [data.draw(st.sampled_from(EN_DIGITS[int(ch)])) for ch in number]
    joined = "".join(
        word + (data.draw(st.sampled_from([" ", ", ", "-", "  "])) if i < len(words) - 1 else "")
        for i, word in enumerate(words)
    )
    _refused(number, joined, "my number is {}")


# --- travel numbers written the same ways are kept --------------------------------------------

AIRLINES = ["MU", "CA", "CZ", "HU", "3U", "UA", "DL", "BA", "G", "D", "K"]


@SETTINGS
@given(
    airline=st.sampled_from(AIRLINES),
    flight=st.integers(1, 9999),
    year=st.integers(2025, 2030),
    month=st.integers(1, 12),
    day=st.integers(1, 28),
    hour=st.integers(0, 23),
    minute=st.sampled_from([0, 5, 15, 30, 45, 50]),
    row=st.integers(1, 60),
    seat=st.sampled_from("ABCDEFHJK"),
    hours=st.integers(1, 14),
    separator=st.sampled_from(["-", ".", "/"]),
)
def test_flights_dates_times_and_seats_are_kept(
    airline: str,
    flight: int,
    year: int,
    month: int,
    day: int,
    hour: int,
    minute: int,
    row: int,
    seat: str,
    hours: int,
    separator: str,
) -> None:
    date = separator.join([str(year), f"{month:02d}", f"{day:02d}"])
    texts = [
        f"flight {airline}{flight} on {date} at {hour:02d}:{minute:02d}, seat {row}{seat}",
        f"{date} 坐{airline}{flight}，{hour}点{minute}分出发，{row}排{seat}座，{hours}小时以内",
        f"prefer departures around {hour:02d}{minute:02d}, row {row}, under {hours} hours",
    ]
    for text in texts:
        assert scan(text) is None, text
