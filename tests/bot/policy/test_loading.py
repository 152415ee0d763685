"""Reading a policy file: the issue's shape loads, and every wrong file is refused in one
line naming the key, the value and what is accepted."""

from __future__ import annotations

import pytest

from bot.planning.compliance import airline_code
from bot.policy.loading import PolicyError, load_policy
from bot.policy.model import CabinRule
from tests.bot.policy.conftest import EXAMPLE


def test_the_issues_example_loads() -> None:
    policy = load_policy(EXAMPLE, airline=airline_code)
    assert policy.currency == "CNY"
    assert policy.default_grade == "L1"
    assert policy.grades == ("L1", "L3")
    assert policy.hotel_cap("L1", "tier2") == 400 and policy.hotel_cap("L3", "tier1") == 900
    assert policy.hotel_cap("L1", "world1") == 300  # a tier a grade has no cap for: other
    assert policy.rail("L3") == "first" and policy.cabin("L1", 12.0) == "economy"
    assert policy.advance_booking_days == 3
    assert policy.preferred_airlines == ("东航",)
    assert policy.approvers_of("L3") == ("U0APPROVER",)


def test_people_without_a_grade_get_the_default_one() -> None:
    policy = load_policy(EXAMPLE)
    assert policy.grade(None) == "L1"
    assert policy.grade("L3") == "L3"
    assert policy.grade("L9") == "L1"  # a grade the policy no longer names


def test_a_cabin_rule_by_flight_length_and_approvers_by_grade_and_department() -> None:
    policy = load_policy(
        EXAMPLE.replace(
            "flight_cabin: {L1: economy, L3: economy}",
            "flight_cabin:\n  L1: economy\n"
            "  L3: {cabin: economy, long_haul_cabin: business, long_haul_hours: 6}",
        ).replace(
            "approvers: [U0APPROVER]",
            "approvers:\n  default: [U0APPROVER]\n  grades: {L3: [U0DIRECTOR]}\n"
            "  departments: {sales: [U0SALESHEAD, U0DEPUTY]}",
        )
    )
    assert policy.flight_cabin["L3"] == CabinRule("economy", "business", 6.0)
    assert policy.cabin("L3", 5.9) == "economy" and policy.cabin("L3", 6.0) == "business"
    assert policy.approvers_of("L1") == ("U0APPROVER",)
    assert policy.approvers_of("L3") == ("U0DIRECTOR",)
    assert policy.approvers_of("L3", "sales") == ("U0SALESHEAD", "U0DEPUTY")
    assert policy.approvers_of("L1", "legal") == ("U0APPROVER",)


def _set(key: str, text: str) -> str:
    """The example with the line starting `key:` replaced by `text`."""
    lines = [text if line.startswith(f"{key}:") else line for line in EXAMPLE.splitlines()]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            EXAMPLE.replace("tier1: 500", "tier1: lots"),
            "hotel_cap_per_night.L1.tier1=lots is not accepted: expected a whole amount per "
            "night from 1 to 1000000",
        ),
        (
            EXAMPLE.replace("tier1: 500", "tier9: 500"),
            "hotel_cap_per_night.L1.tier9=500 is not accepted: expected a tier: one of tier1, "
            "tier2, tier3, world1, world2, other",
        ),
        (
            EXAMPLE.replace(", other: 300", ""),
            'hotel_cap_per_night.L1=\'{"tier1": 500, "tier2": 400}\' is not accepted: '
            "expected an amount for 'other' too (cities in no tier listed)",
        ),
        (
            _set("currency", "currency: USD"),
            "currency=USD is not accepted: expected CNY (the planner's prices are in yuan)",
        ),
        (
            _set("grades", "grades: {default: L2}"),
            "grades.default=L2 is not accepted: expected a grade the policy names: L1, L3",
        ),
        (
            _set("rail_class", "rail_class: {L1: second, L3: sleeper}"),
            "rail_class.L3=sleeper is not accepted: expected one of second, first, business",
        ),
        (
            _set(
                "flight_cabin",
                "flight_cabin: {L1: economy, L3: {cabin: economy, long_haul_cabin: business}}",
            ),
            'flight_cabin.L3=\'{"cabin": "economy", "long_haul_cabin": "business"}\' is not '
            "accepted: expected long_haul_cabin and long_haul_hours together",
        ),
        (
            _set("advance_booking_days", "advance_booking_days: -1"),
            "advance_booking_days=-1 is not accepted: expected a whole number of days from 0 "
            "to 365",
        ),
        (
            _set("preferred_airlines", "preferred_airlines: [东航, Gotham Air]"),
            "preferred_airlines[1]='Gotham Air' is not accepted: expected an airline the planner "
            "knows, e.g. MU, 东航, China Eastern",
        ),
        (
            _set("approvers", "approvers: [U0 APPROVER]"),
            "approvers[0]='U0 APPROVER' is not accepted: expected a user id of the platform "
            "(no spaces or ':')",
        ),
        (
            EXAMPLE.replace("tier2: [成都,", "tier2: [北京,"),
            "city_tiers.tier2[0]=北京 is not accepted: expected a city in one tier "
            "(it is in tier1)",
        ),
        (
            EXAMPLE + "hotel_caps: {L1: {other: 1}}\n",
            'hotel_caps=\'{"L1": {"other": 1}}\' is not accepted: expected a known key: one of '
            "name, currency, grades, city_tiers, bundled_city_tiers, hotel_cap_per_night, "
            "rail_class, flight_cabin, advance_booking_days, preferred_airlines, "
            "preferred_airlines_only, approvers",
        ),
        (
            EXAMPLE + "rail_class: {L1: first}\n",
            'rail_class (line 14)=\'{"L1": "first"}\' is not accepted: expected each key '
            "once (it is given twice)",
        ),
        (
            EXAMPLE.replace("L3: {tier1: 900", "L3: {tier1: 900, tier1: 800"),
            "hotel_cap_per_night.L3.tier1 (line 8)=800 is not accepted: expected each key "
            "once (it is given twice)",
        ),
        (
            "grades: {default: L1\n",
            "the file is not valid YAML at line 2, column 1: expected ',' or '}', but got "
            "'<stream end>'",
        ),
        ("", "the file is empty: expected a policy (see docs/travel-policy.md)"),
        (
            "- a list\n",
            "(file)='[\"a list\"]' is not accepted: expected a mapping of keys (see "
            "docs/travel-policy.md)",
        ),
        (
            _set("preferred_airlines", "preferred_airlines_only: true"),
            "preferred_airlines_only=true is not accepted: expected false without "
            "preferred_airlines",
        ),
    ],
)
def test_a_wrong_file_is_one_line_naming_key_value_and_what_is_accepted(
    text: str, line: str
) -> None:
    with pytest.raises(PolicyError) as caught:
        load_policy(text, airline=airline_code)
    assert str(caught.value) == line
    assert "\n" not in str(caught.value)


def test_airlines_are_checked_only_when_a_checker_is_given() -> None:
    text = _set("preferred_airlines", "preferred_airlines: [Gotham Air]")
    assert load_policy(text).preferred_airlines == ("Gotham Air",)
    assert airline_code("China Eastern") == airline_code("东航") == airline_code("mu") == "MU"
