"""Property tests for the structural rules of the privacy guard: a long number is refused
whatever label (or none) stands near it and however its groups are separated; a valid IBAN
is refused; a password-shaped code near a password label is refused in either word order;
an amount with any currency cue is refused; a code keyed in to open something, and the first
or last digits of an identifier, are refused. And the harmless shapes the same rules must
leave alone (date and time ranges, lists of years, big counts with their unit, flights)
are kept.
"""

from __future__ import annotations

import os
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.privacy import scan
from memory.privacy.identifiers import iban_valid

EXAMPLES = int(os.environ.get("PRIVACY_EXAMPLES", "150"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

SEPARATORS = [" ", "-", "_", "/", "\u00a0", " - ", "  "]
# Labels in both languages, abbreviations among them, and none at all.
LABELLED = [
    "{}",
    "pls note {} thx",
    "ppt no. {} (german)",
    "mob: {} (UK)",
    "acct {}",
    "my wife's is {}",
    "tel {}, evenings only",
    "会员号：{}",
    "证件号 {} 记一下",
    "联系我 {}",
    "Name: Li Wei / Doc: {} / Seat: aisle",
    "{} is the one to use",
]


@st.composite
def long_numbers(draw: st.DrawFn) -> str:
    """Nine to twelve digits in groups of four (no group can be a year, a month or a clock
    time, so no harmless shape), joined by any separators."""
    digits = draw(st.text("0123456789", min_size=8, max_size=11))
    number = draw(st.sampled_from("3456789")) + digits
    groups = [number[i : i + 4] for i in range(0, len(number), 4)]
    return "".join(
        group + (draw(st.sampled_from(SEPARATORS)) if i < len(groups) - 1 else "")
        for i, group in enumerate(groups)
    )


@SETTINGS
@given(number=long_numbers(), template=st.sampled_from(LABELLED))
def test_a_long_number_is_refused_whatever_its_label(number: str, template: str) -> None:
    text = template.format(number)
    assert scan(text) is not None, text


@SETTINGS
@given(
    letters=st.text(string.ascii_uppercase, min_size=1, max_size=2),
    digits=st.text("0123456789", min_size=7, max_size=9),
    template=st.sampled_from(LABELLED),
)
def test_a_letter_led_document_number_is_refused(letters: str, digits: str, template: str) -> None:
    text = template.format(letters + digits)
    assert scan(text) is not None, text


def _iban(country: str, account: str) -> str:
    moved = account + country + "00"
    check = 98 - int("".join(str(int(ch, 36)) for ch in moved)) % 97
    return f"{country}{check:02d}{account}"


@SETTINGS
@given(
    country=st.sampled_from(["GB", "DE", "FR", "NL", "ES", "IT", "CH"]),
    # No vowels: a group like "TEN" would read as a number word, not as letters.
    account=st.text(string.digits + "BCDFGHJKLMNPQRSTVWXZ", min_size=14, max_size=22),
    spaced=st.booleans(),
)
def test_a_valid_iban_is_refused(country: str, account: str, spaced: bool) -> None:
    iban = _iban(country, account)
    assert iban_valid(iban)
    written = " ".join(iban[i : i + 4] for i in range(0, len(iban), 4)) if spaced else iban
    assert scan(f"refunds to {written} please") is not None, written


SECRET_TEMPLATES = [
    "my pw is {}",
    "pwd for the booking site: {}",
    "my trip.com password? it's {}",
    "'{}' — thats the passcode for my email",
    "wifi: {}",
    "{} is my wifi password lol",
    "门锁密码：{}",
    "登录密码就是 {}",
    "wifi 密码 is {}",
]


@SETTINGS
@given(
    word=st.sampled_from(["sunshine", "Dragon", "tr@vel", "Qwerty", "abc", "hunter", "LetMeIn"]),
    digits=st.text("0123456789", min_size=1, max_size=4),
    symbol=st.sampled_from(["", "!", "#", "@", "_"]),
    template=st.sampled_from(SECRET_TEMPLATES),
)
def test_a_password_near_its_label_is_refused_in_either_order(
    word: str, digits: str, symbol: str, template: str
) -> None:
    text = template.format(word + digits + symbol)
    assert scan(text) == "secret", text


MONEY_TEMPLATES = [
    "hotel max {n} quid",
    "around {n} pounds a night",
    "RMB {n} per night tops",
    "budget ~ {n}",
    "{n}元左右的酒店",
    "每晚{n}块以内",
    "机票{n}刀以内",
    "my salary is {n} a month",
    "月薪{n}",
    "{n}多块的酒店",
    "每晚{n}来块就行",
    "under {n} for the flight please",
    "somewhere in the {n} range per night",
    "住的 {n} 以下",
]


@SETTINGS
@given(n=st.integers(50, 99999), template=st.sampled_from(MONEY_TEMPLATES))
def test_an_amount_with_any_money_cue_is_refused(n: int, template: str) -> None:
    text = template.format(n=n)
    assert scan(text) == "amount", text


KEYPAD_TEMPLATES = [
    "the villa gate opens with *{}#",
    "按 {}# 开门",
    "use {} for the garage",
    "输入{}开门",
    "PIN for the hotel safe? use {}",
]


@SETTINGS
@given(
    code=st.text("0123456789", min_size=4, max_size=6), template=st.sampled_from(KEYPAD_TEMPLATES)
)
def test_a_code_keyed_in_to_open_something_is_refused(code: str, template: str) -> None:
    text = template.format("-".join(code) if "?" in template else code)
    assert scan(text) == "secret", text


PART_TEMPLATES = [
    "我的身份证号以{head}开头，最后是{tail}，中间的你有",
    "passport number starts with {head}, ends with {tail}",
    "会员号开头是{head}",
    "phone ending in {tail}",
]


@SETTINGS
@given(
    head=st.text("123456789", min_size=4, max_size=6),
    tail=st.text("0123456789", min_size=4, max_size=4),
    template=st.sampled_from(PART_TEMPLATES),
)
def test_the_first_or_last_digits_of_an_identifier_are_refused(
    head: str, tail: str, template: str
) -> None:
    text = template.format(head=head, tail=tail)
    assert scan(text) in ("id", "account", "phone"), text


@SETTINGS
@given(
    number=st.one_of(
        st.text("0123456789", min_size=16, max_size=16),
        st.builds(lambda rest: "1" + rest, st.text("3456789", min_size=10, max_size=10)),
    ),
    mask=st.sampled_from(["*", "x", "X", "•", "#"]),
    separator=st.sampled_from([" ", "-", ""]),
    template=st.sampled_from(["card {} please", "{} 那张卡", "mob {}", "{}"]),
)
def test_a_partly_masked_number_is_refused(
    number: str, mask: str, separator: str, template: str
) -> None:
    """Digits left in view around a mask are still the number's: "4111 **** **** 1234"."""
    if len(number) == 16:
        groups = [number[:4], mask * 4, mask * 4, number[12:]]
    else:
        groups = [number[:3], mask * 4, number[7:]]
    text = template.format(separator.join(groups))
    assert scan(text) is not None, text


# --- harmless shapes the structural rules leave alone ------------------------------------------


@SETTINGS
@given(
    month=st.integers(1, 12),
    day=st.integers(1, 19),
    nights=st.integers(1, 9),
    year=st.integers(2015, 2030),
    start=st.integers(0, 20),
    length=st.integers(1, 3),
    count=st.integers(1_000_000, 9_999_999),
    separator=st.sampled_from(["-", "/", "."]),
)
def test_ranges_lists_and_counts_are_kept(
    month: int,
    day: int,
    nights: int,
    year: int,
    start: int,
    length: int,
    count: int,
    separator: str,
) -> None:
    back = f"{month}{separator}{day + nights}"
    texts = [
        f"trip is {month}{separator}{day}-{back}, flexible by a day",
        f"{year}{separator}{month:02d}{separator}{day:02d}-{year}{separator}{month:02d}"
        f"{separator}{day + nights:02d} in Kyoto",
        f"flights {start:02d}00-{start + length:02d}00 work best",
        f"on the {year}{month:02d}{day:02d} trip the hotel was too loud",
        f"trips in {year}, {year + 1} and {year + 2} were all by train",
        f"{year - 3}-{year} I flew Star Alliance only",
        f"I have flown {count:,} miles with United",
        f"会员积分已经有{count}分了",
        f"MU{start + 5100}/{start + 5101} both fine",
    ]
    for text in texts:
        assert scan(text) is None, text
