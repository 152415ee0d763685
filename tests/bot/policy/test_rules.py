"""A grade's rules against an option's facts, and each break said in the traveller's
language, as the issue writes them."""

from __future__ import annotations

from bot.policy.loading import load_policy
from bot.policy.rules import Allowance, Break, Named, summarise
from tests.bot.policy.conftest import EXAMPLE

CHENGDU = Named("Chengdu", "成都", ("chengdu", "CTU", "蓉"))
SHANGHAI = Named("Shanghai", "上海", ("shanghai",))
CHINA_EASTERN = Named("China Eastern", "东航", ("MU",))
CHINA_SOUTHERN = Named("China Southern", "南航", ("CZ",))
LONG_HAUL = EXAMPLE.replace(
    "flight_cabin: {L1: economy, L3: economy}",
    "flight_cabin:\n  L1: economy\n"
    "  L3: {cabin: economy, long_haul_cabin: business, long_haul_hours: 6}",
)


def test_a_hotel_over_the_cap_says_so_in_the_issues_words() -> None:
    l1 = Allowance(load_policy(EXAMPLE), "L1")
    [over] = l1.hotel(CHENGDU, 580)
    assert over.text("zh") == "超出差标：成都酒店上限 400/晚（L1），此酒店 580/晚"
    assert over.text("en") == "over policy: Chengdu hotel cap 400/night (L1), this hotel 580/night"
    assert l1.hotel(CHENGDU, 400) == []
    assert l1.hotel(SHANGHAI, 480) == []  # tier1: 500
    assert Allowance(load_policy(EXAMPLE), "L3").hotel(CHENGDU, 580) == []


def test_a_cabin_above_the_grades_says_what_the_grade_flies() -> None:
    l1 = Allowance(load_policy(EXAMPLE), "L1")
    [business] = l1.flight("business", hours=2.5, airline=CHINA_EASTERN, days_ahead=9)
    assert business.text("en") == "business class: L1 flies economy"
    assert business.text("zh") == "超出差标：商务舱，L1 应乘经济舱"
    assert l1.flight("economy", hours=2.5, airline=CHINA_EASTERN, days_ahead=9) == []

    l3 = Allowance(load_policy(LONG_HAUL), "L3")
    [short] = l3.flight("business", hours=2.5, airline=CHINA_EASTERN, days_ahead=9)
    assert short.text("en") == "business class: L3 flies economy on flights under 6 h"
    assert short.text("zh") == "超出差标：商务舱，L3 在 6 小时以内的航班应乘经济舱"
    assert l3.flight("business", hours=13.0, airline=CHINA_EASTERN, days_ahead=9) == []
    [first] = l3.flight("first", hours=13.0, airline=CHINA_EASTERN, days_ahead=9)
    assert first.text("en") == "first class: L3 flies business class"


def test_booking_late_and_an_airline_not_preferred_when_only_those_may_be_booked() -> None:
    l1 = Allowance(load_policy(EXAMPLE), "L1")
    [late] = l1.flight("economy", hours=2.5, airline=CHINA_SOUTHERN, days_ahead=1)
    assert late.text("en") == "booked 1 day(s) ahead: the policy asks for 3"
    assert late.text("zh") == "超出差标：提前 1 天预订，差标要求至少提前 3 天"
    only = Allowance(load_policy(EXAMPLE + "preferred_airlines_only: true\n"), "L1")
    [other] = only.flight(
        "economy", hours=2.5, airline=CHINA_SOUTHERN, days_ahead=9, preferred=[CHINA_EASTERN]
    )
    assert other.text("en") == "China Southern: the policy books China Eastern only"
    assert other.text("zh") == "超出差标：南航，差标只订东航"
    assert only.flight("economy", hours=2.5, airline=CHINA_EASTERN, days_ahead=9) == []


def test_a_train_seat_above_the_grades_class() -> None:
    l1 = Allowance(load_policy(EXAMPLE), "L1")
    [first] = l1.train("first_class")
    assert first.text("en") == "first class: L1 rides second class"
    assert first.text("zh") == "超出差标：一等座，L1 应乘二等座"
    assert l1.train("second_class") == []
    assert Allowance(load_policy(EXAMPLE), "L3").train("first_class") == []


def test_breaks_survive_storage_and_are_summed_up_by_the_limit_broken() -> None:
    l1 = Allowance(load_policy(EXAMPLE), "L1")
    breaks = [*l1.hotel(CHENGDU, 580), *l1.hotel(CHENGDU, 620), *l1.train("business_seat")]
    assert [Break.from_json(b.to_json()) for b in breaks] == breaks
    assert summarise(breaks, "en") == [
        "2 over the Chengdu hotel cap of 400/night (L1)",
        "1 above second class (L1 rides second class)",
    ]
    assert summarise(breaks, "zh")[0] == "2 个超过成都酒店上限 400/晚（L1）"


def test_a_break_known_only_by_its_words_is_said_as_written() -> None:
    said = Break.stated("超出差标：成都酒店上限 400/晚（L1），此酒店 580/晚")
    assert (
        said.text("en") == said.text("zh") == "超出差标：成都酒店上限 400/晚（L1），此酒店 580/晚"
    )
    assert Break.from_json(said.to_json()) == said
