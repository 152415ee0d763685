"""Exact amounts of money (issue 22, rounds 13 and 14): refused with a clear message in both
languages, in digits and in Chinese numerals, with or without a currency word; numbers that are
not money kept; an amount or a number split over two facts of one call refused.

Decisions (docs/privacy.md): a budget said as a range ("500-800 a night", "两千到三千") is still
refused, as the seed rule is about exact figures and a range of them tells as much; a room
number ("room 1512", "1512房") is a place and kept, while a kind of room and its number
("single room 520") is a price.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.privacy import check_fact, scan
from memory.privacy.categories import REASON_AMOUNT
from memory.privacy.guard import PrivacyGuard
from memory.privacy.text import normalise

CORPUS = Path(__file__).parent / "privacy_corpus"

AMOUNTS = (
    # a priced thing and a bare number
    "hotel near the expo 480 was fine",
    "the airport limo 95 each way",
    "single room 430 by the lake",
    "Shinkansen to Osaka 13500 one way",
    # the number and what it is for; "$", "k" after it
    "I'd put 700 toward the flights",
    "a 60$ dinner is plenty",
    "about 4k for the whole Japan trip",
    "hostels 25-30 a night are fine",
    # spent, reimbursed, refunded
    "spent north of 1500 in Lisbon",
    "got 640 back on the cancelled hotel",
    "the company reimbursed 2,180 for Berlin",
    # allowances and pay
    "per diem is 65 in Chicago",
    "meals covered up to 80 daily",
    "my salary is 16000 a month",
    "year-end bonus 25k",
    "1,800 hotel budget for the week",
    # Chinese: digits, numerals, currency words
    "上海的酒店七百二还行",
    "机票往返一千三",
    "打车去虹桥一百一左右",
    "一千二百块的房间可以",
    "晚饭人均90$",
    "酒店300刀一晚",
    "机票RMB 2400",
    "预算1.2万去日本",
    "两千到三千的预算",
    "上个月报销了五千四",
    "这趟一共花了两万三",
    "出差补贴一天一百五",
    "公司每月给两千房补",
    "工资涨到九万六一年",
    "年终奖拿了三万五",
    "到手八千五",
    "报销款下来了，一千八百二",
)

KEPT = (
    "row 34 or further back",
    "a room on floor 16 or higher",
    "connections of at least 75 minutes",
    "no flights over 9 hours",
    "the hotel within 3 km of the office",
    "I have 150000 Bonvoy points",
    "80000 miles with Star Alliance",
    "CA1234 is my usual flight",
    "the G123 train at 7:30",
    "leaving on 2026-03-14",
    "4-star hotels at least",
    "party of 6 with 4 bags",
    "team of 12 travelling together",
    "room 1512 had the best view",
    "keep the room at 21 degrees",
    "1130 return is fine",
    "35 km from the airport is too far",
    "后排，34排以后",
    "16楼以上",
    "转机至少75分钟",
    "离公司3公里以内",
    "积分有15万",
    "常坐G123次",
    "三月十四号出发",
    "至少四星级",
    "六个人四个箱子",
    "上次住1512房很满意",
    "空调二十一度",
    "737比A320舒服",
    "一九六一年的老酒店很有味道",
)


@pytest.mark.parametrize("text", AMOUNTS)
def test_exact_amounts_are_refused_with_a_clear_message(text: str) -> None:
    assert scan(text) == "amount"
    assert check_fact(text) == REASON_AMOUNT
    assert "exact amount" in REASON_AMOUNT


@pytest.mark.parametrize("text", KEPT)
def test_numbers_that_are_not_money_are_kept(text: str) -> None:
    assert scan(text) is None
    assert check_fact(text) is None


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("工资涨到九万六一年", "工资涨到96000一年"),  # pay a year, not 90061 years
        ("八千五一个月", "8500一个月"),
        ("一九六一年", "1961年"),  # a year read digit by digit
        ("二十一年", "21年"),
        ("一万一", "11000"),
    ],
)
def test_chinese_numerals_before_a_period_are_read_as_money(text: str, normalised: str) -> None:
    assert normalise(text).text == normalised


@pytest.mark.parametrize(
    "facts",
    [
        ["my mobile is 139 1234", "5678"],
        ["call me on 138 0013", "the rest is 8000"],
        ["我手机前半是138 0013", "后面是8000"],
        ["出差每天补贴", "两百"],
        ["hotel in Osaka:", "680 a night"],
    ],
)
def test_a_value_split_over_two_facts_of_one_call_is_refused(facts: list[str]) -> None:
    """Every fact holding a part of the value is refused (a label alone, "出差每天补贴", may
    be kept: it holds nothing)."""
    verdicts = PrivacyGuard(semantic=False).check(facts)
    kept = [
        fact
        for fact, verdict in zip(facts, verdicts, strict=True)
        if verdict is None and any(ch.isdigit() for ch in normalise(fact).text)
    ]
    assert kept == [], verdicts
    assert any(verdicts)


@pytest.mark.parametrize(
    "facts",
    [
        ["aisle seat", "row 30", "connections under 2 hours"],
        ["I'm on a tight budget", "12306 app keeps logging me out"],
        ["靠过道", "30排", "每天", "2小时以内的航班"],
    ],
)
def test_ordinary_facts_of_one_call_are_kept(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == [None] * len(facts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_13_development_targets(lang: str) -> None:
    """The set the round was tuned on: at least 97% of amounts refused, at most 1 benign
    number in 40 (the fresh set, r13_fresh, is only measured: bench/privacy.py)."""
    doc = json.loads((CORPUS / "r13_dev.json").read_text(encoding="utf-8"))
    cases = [c["text"] for c in doc["sensitive"] if c["lang"] == lang]
    missed = [text for text in cases if scan(text) != "amount"]
    assert len(missed) <= len(cases) * 0.03, missed
    benign = [c["text"] for c in doc["benign"] if c["lang"] == lang]
    refused = [text for text in benign if scan(text) is not None]
    assert len(refused) <= len(benign) / 40, refused


# Round 14: one-digit amounts with a cue no count has, a train's or a lounge's number with a cue
# of money, numbers written as money, a Latin word touching a Chinese number, "五十一天" after
# an allowance.
AMOUNTS_R14 = (
    "paid 6 for a bottle of water",
    "the shuttle bus cost 8",
    "tram tickets 3 a ride",
    "the water taxi is 7 each way",
    "meal allowance 9 a day",
    "the ICE to Cologne 79 if booked early",
    "lounge 50 walk-in at Changi",
    "second class on the Eurostar 95",
    "the TGV 64.50",
    "地铁票花了3",
    "行李寄存另收6",
    "出租车花了八块",
    "JR Pass两万一",
    "房补：七十一天",
    "机场快线二十五一位",
)

KEPT_R14 = (
    "highway 1 along the coast",
    "TGV 6201 in the morning",
    "the lounge 30 minutes before boarding",
    "lounge 3 near gate 40",
    "platform 4 for the airport express",
    "bus 12 to the old town",
    "a berth on train 477 to Vienna",
    "2 bags each way",
    "5 stars in Dubai",
    "row 12 on the A350",
    "spent 3 days in Porto",
    "G7到北京很准",
    "提前40分钟到贵宾厅",
    "花了3个小时排队",
    "出差二十一天",
    "我们一块去",
)


@pytest.mark.parametrize("text", AMOUNTS_R14)
def test_round_14_amounts_are_refused_with_the_amount_reason(text: str) -> None:
    assert scan(text) == "amount"
    assert check_fact(text) == REASON_AMOUNT


@pytest.mark.parametrize("text", KEPT_R14)
def test_round_14_numbers_that_are_not_money_are_kept(text: str) -> None:
    assert scan(text) is None
    assert check_fact(text) is None


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("餐补：五十一天", "餐补:50一天"),  # 50 a day after an allowance, not 51 days
        ("出差二十一天", "出差21天"),
        ("JR Pass两万九", "JR Pass 29000"),  # a name and its price, apart
    ],
)
def test_round_14_chinese_numerals_in_context(text: str, normalised: str) -> None:
    assert normalise(text).text == normalised


def test_a_bare_scaled_number_is_the_value_of_the_fact_before_it() -> None:
    verdicts = PrivacyGuard(semantic=False).check(["JR Pass买的七日券", "两万九"])
    assert verdicts[1] == "amount"


@pytest.mark.parametrize(
    "facts",
    [
        ["接机的专车一共", "一百二十六"],  # two scales: 百 and 十
        ["接机的专车一共", "126"],  # digits alone
        ["打车去机场花了", "七十四"],
        ["the transfer from the station came to", "47"],
    ],
)
def test_a_total_said_over_two_facts_of_a_turn_is_refused(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts)[1] == "amount"


@pytest.mark.parametrize(
    "facts", [["6站台", "11车厢3A座"], ["一共三个人出差", "都要靠窗"], ["I like row", "12"]]
)
def test_numbers_of_a_turn_that_are_not_money_are_kept(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == [None, None]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_14_development_targets(lang: str) -> None:
    """r14_dev, tuned on: at least 97% of amounts refused, no benign number refused (r14_fresh
    is only measured: bench/privacy.py)."""
    doc = json.loads((CORPUS / "r14_dev.json").read_text(encoding="utf-8"))
    cases = [c["text"] for c in doc["sensitive"] if c["lang"] == lang]
    missed = [text for text in cases if scan(text) != "amount"]
    assert len(missed) <= len(cases) * 0.03, missed
    benign = [c["text"] for c in doc["benign"] if c["lang"] == lang]
    assert [text for text in benign if scan(text) is not None] == []


# Round 15: a number money surrounds is refused whatever word stands before it
# (`memory/privacy/unexplained.py`); written in new words, not copied from the corpus.
AMOUNTS_R15 = (
    "the rowing boats on the lake 16 an hour",  # a unit of purchase after the number
    "sunbeds at the lido 12 apiece",
    "the gondola up the hill 11 each",
    "the guesthouse in Sintra 70 plus tax",
    "the hammam 45 all in",
    "the parking garage charged us roughly 6",  # a paying verb, one digit
    "the souvenir magnet cost me about 3",
    "观光小火车一人二十",
    "码头存包一次十五",
    "买水花了三块",  # a single Chinese numeral of money
)
KEPT_R15 = (
    "2 bags each for the kids",  # a unit between the number and "each"
    "row 14 each time",
    "we walked 9 km total",
    "I spent 4 days in Porto",
    "gate 12 for the whole trip, every time",
    "each of the 3 rooms with a bathtub",
    "back in 2016 we paid a visit to Oslo",
    "两块蛋糕就够了",
    "我们一块去",
    "每人带2个箱子",
    "每次坐第4节车厢",
    "2 extra nights in Seville",
    "I'd pay for 2 checked bags",  # after a paying verb, a number and a noun is a count
    "I earned 3 upgrades last year",
    "2 per room is the max",  # one digit shared out, not priced
    "the kids get 1 each",
)


@pytest.mark.parametrize("text", AMOUNTS_R15)
def test_round_15_amounts_money_surrounds_are_refused(text: str) -> None:
    assert scan(text) == "amount"
    assert check_fact(text) == REASON_AMOUNT


@pytest.mark.parametrize("text", KEPT_R15)
def test_round_15_counts_and_identifiers_are_kept(text: str) -> None:
    assert check_fact(text) is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_15_development_targets(lang: str) -> None:
    """r15_dev, tuned on: every amount refused; no benign number refused but one the rules
    before round 15 already refuse ("I paid for seat 12 last time": paid, then a number).
    r15_fresh is only measured (bench/privacy.py)."""
    doc = json.loads((CORPUS / "r15_dev.json").read_text(encoding="utf-8"))
    cases = [c["text"] for c in doc["sensitive"] if c["lang"] == lang]
    assert [text for text in cases if scan(text) != "amount"] == []
    benign = [c["text"] for c in doc["benign"] if c["lang"] == lang]
    refused = [text for text in benign if scan(text) is not None]
    assert len(refused) <= 1, refused


# Round 16: widen what explains a number (identifiers and quantities in context) so the
# "an unexplained number is an amount" fallback stops refusing them, and keep the amounts.
AMOUNTS_R16 = (
    "tossed in 25 for the porter",  # money put in; "in 2019" stays a year
    "I chipped in 50 for the guide",
    "the toll road set us back 9",  # a one-digit amount after "set us back"
    "the funicular up was 6 each",
    "the ferry to Capri was 22 one way",
    "a bunk in the hostel was 28",
    "the guided walk was 15 a head",
    "the bus to the airport was 12",
    "the night bus was 30 instead of the 90 train",
    "the Eurostar ticket set me back 160",
    "entry to the park was 35 per car",
    "my Bonvoy balance paid nothing, I spent 950 on the room",
    "住一晚青旅四十",
    "渡轮单程二十五",
    "打车到酒店五十八",
    "the factor 50 sunscreen at the airport was 18",  # the factor kept, its price refused
)
KEPT_R16 = (
    "Nightjet 466 to Zurich",  # a service and where it goes
    "Nightjet 466去苏黎世",
    "take the 101 Freeway, not the 405",  # a contrast with an explained number
    "the bus 62 or the 64 both go to the beach",
    "I run a 10K most mornings, find hotels near a park",  # a race
    "the marathon is 42 km, I'm running it in Berlin",
    "喜欢住1801这种高层房间",  # a room named after the number
    "I paid for seat 12 last time and loved it",  # a position right before the number
    "my Bonvoy balance is around 95,000",  # a balance
    "our gate was 52 last time, miles from security",
    "my shoe size is 44 so boots take half the bag",
    "I always get off at exit 7 for the old town",
    "pier 21 is where the ferries to the islands leave",
    "the 28 tram is the prettiest ride in Lisbon",
    "I'd rather take the Glacier Express 902 than drive",
    "my grandma is 82 and needs step-free access",
    "back in 2016 we paid a visit to Oslo",
    "坐38路公交去海边",
    "我妈妈82岁了，需要无障碍房间",
    "I always pack factor 50 sunscreen",  # a sunscreen's factor
    "SPF 30 at least, I burn easily",
)


@pytest.mark.parametrize("text", AMOUNTS_R16)
def test_round_16_amounts_are_refused_with_the_amount_reason(text: str) -> None:
    assert scan(text) == "amount"
    assert check_fact(text) == REASON_AMOUNT


@pytest.mark.parametrize("text", KEPT_R16)
def test_round_16_identifiers_and_quantities_are_kept(text: str) -> None:
    assert check_fact(text) is None


@pytest.mark.parametrize("name", ["r14_fresh", "r15_fresh"])
def test_round_16_targets_on_the_sets_it_was_tuned_on(name: str) -> None:
    """r14_fresh and r15_fresh, measured blind in rounds 14 and 15, tuned on in round 16:
    every amount refused, no benign number refused. r16_fresh is only measured."""
    doc = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))
    missed = [c["text"] for c in doc["sensitive"] if scan(c["text"]) != "amount"]
    refused = [c["text"] for c in doc["benign"] if scan(c["text"]) is not None]
    assert (missed, refused) == ([], [])


# Prices that round 16's wider explanations (a family member's age, things numbered to be
# found) let through, found in review: an age is one a person can have and said as one; a
# numbered thing explains a small number only, and things with a price of their own do not.
PRICES_NOT_AGES_OR_PLACES = [
    "my wife says 450 is fine for a hotel night",
    "my dad said 250 was enough for the hotel",
    "mom's max is 400",
    "my dog's vet bill was 900",
    "I'll be 300 over budget",
    "the table 300 minimum spend",
    "the box 120 at the opera",
    "stadium 80 for the match",
    "a bed 40 in Hanoi was fine",
    "the locker was 0.50 per hour",
]
AGES_AND_PLACES = [
    "my dad is 70 and needs an aisle seat",
    "mom's 68, book her a lower berth",
    "I'll be 30 next month, plan something fun",
    "table 21 by the window please",
    "pier 39 is close to the hotel",
    "the dog turns 3 in May",
    "United is my carrier of choice, I'm a 1K",  # an elite tier, not a thousand
]


@pytest.mark.parametrize("text", PRICES_NOT_AGES_OR_PLACES)
def test_a_price_is_no_age_and_no_numbered_place(text: str) -> None:
    assert check_fact(text) == REASON_AMOUNT


@pytest.mark.parametrize("text", AGES_AND_PLACES)
def test_ages_and_numbered_places_are_kept(text: str) -> None:
    assert check_fact(text) is None
