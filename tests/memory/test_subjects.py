"""The subject vocabulary that ranking uses to connect requests to facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.profile import load_schema
from memory.slots import ProfileSchemaError
from memory.subjects import Subjects, load_subjects


@pytest.fixture(scope="module")
def subjects() -> Subjects:
    return load_subjects()


@pytest.mark.parametrize(
    ("request_text", "fact", "shared"),
    [
        ("有没有凌晨一点起飞的便宜机票", "从不坐红眼航班，太累了", {"flight", "time"}),
        ("下周去杭州开会，帮我看看住哪", "酒店一定要含早餐", {"lodging"}),
        ("Which carrier should I pick for Denver?", "I always fly United", {"flight"}),
        ("Which carrier should I pick for Seoul?", "I'm SkyTeam elite, so Korean Air", {"flight"}),
        ("Get me a car from the airport", "打车只坐专车", {"ground"}),
        ("帮我订去南京的动车票", "On trains I like a window seat", {"rail"}),
    ],
)
def test_a_request_and_the_fact_it_needs_share_a_subject_without_sharing_a_word(
    subjects: Subjects, request_text: str, fact: str, shared: set[str]
) -> None:
    assert shared <= subjects.of(request_text) & subjects.of(fact)


def test_everyday_words_outside_travel_are_not_taken_for_travel(subjects: Subjects) -> None:
    assert subjects.of("This book is very interesting") == frozenset()
    assert "lodging" not in subjects.of("Some cozy rugs for my living room")
    assert "food" not in subjects.of("Recommend a coffee table")
    assert "lodging" not in subjects.of("How do I stay motivated while studying?")


def test_airline_and_hotel_names_come_from_the_profile_schema(subjects: Subjects) -> None:
    assert {"brand", "flight"} <= subjects.of("川航的餐食好吃")
    assert {"brand", "lodging"} <= subjects.of("I like Marriott")


def test_a_stored_slot_adds_its_subjects(subjects: Subjects) -> None:
    assert subjects.of("Prefers it") == frozenset()
    assert {"flight", "time"} <= subjects.of("Prefers it", "red_eye")
    assert subjects.of("Prefers it", "no_such_slot") == frozenset()


def write(tmp_path: Path, spec: object) -> Path:
    path = tmp_path / "subjects.json"
    path.write_text(json.dumps({"subjects": spec}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"flight": {"slots": ["no_such_slot"]}}, "no_such_slot"),
        ({"flight": {"en": ["(unclosed"]}}, "invalid"),
        ({"flight": {"zh": ["飞?"]}}, "matches empty text"),
        ({"flight": {}}, "no words and no slots"),
        ({}, "non-empty"),
    ],
)
def test_a_broken_vocabulary_is_refused_with_a_message_naming_the_problem(
    tmp_path: Path, spec: object, message: str
) -> None:
    with pytest.raises(ProfileSchemaError, match=message):
        load_subjects(write(tmp_path, spec), load_schema())


@pytest.mark.parametrize(
    ("request_text", "implied"),
    [
        ("晚上跟客户去哪家馆子", {"diet"}),
        ("Pick a restaurant for the team dinner", {"diet"}),
        ("Book me a flight to Tokyo", {"transfers"}),
        ("帮我订去杭州的高铁", {"class"}),
        ("公司想派我去拉萨待一周", {"health"}),
        ("Should we do the island day trip?", {"health"}),
        ("Grab me the 11:45pm to Newark", {"flight"}),
        ("How do I get from the airport to my hotel?", set()),
    ],
)
def test_a_booking_implies_the_aspects_of_it_a_traveller_states_preferences_about(
    subjects: Subjects, request_text: str, implied: set[str]
) -> None:
    assert subjects.implied(subjects.of(request_text)) == implied


def test_a_request_that_names_an_aspect_implies_nothing_more(subjects: Subjects) -> None:
    asked = subjects.of("飞乌鲁木齐五个小时，能不能选个宽敞点的位置")
    assert {"flight", "seat"} <= asked
    assert subjects.implied(asked) == frozenset()


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("到长沙玩，晚上去哪家馆子", {"food", "meal"}),
        ("周末去大理住哪种地方", {"lodging"}),
        ("周五晚上十一点五十有一班去大连的", {"days", "time", "late"}),
        ("Is there a flight on Sunday evening?", {"flight", "days", "time"}),
    ],
)
def test_a_time_of_day_beside_a_meal_or_a_stay_only_says_when(
    subjects: Subjects, request_text: str, asked: set[str]
) -> None:
    assert subjects.asked(request_text) == asked


def test_a_meal_skipped_is_no_diet_but_a_food_refused_is(subjects: Subjects) -> None:
    assert "diet" not in subjects.of("午饭不吃也行，晚饭要吃好")
    assert "diet" in subjects.of("我不吃香菜")


@pytest.mark.parametrize("text", ["飞机餐不吃，自己带吃的", "工作餐不吃牛羊"])
def test_a_refusal_after_a_meal_word_is_still_a_diet(subjects: Subjects, text: str) -> None:
    assert "diet" in subjects.of(text)


def test_an_implication_naming_an_unknown_subject_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "subjects.json"
    spec = {"subjects": {"flight": {"en": ["\\bflights?\\b"]}}, "implies": {"flight": ["nope"]}}
    path.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(ProfileSchemaError, match="nope"):
        load_subjects(path, load_schema())


@pytest.mark.parametrize(
    ("text", "highland"),
    [
        ("订上海浦东香格里拉两晚", False),
        ("Book the Shangri-La in Singapore", False),
        ("出差只住香格里拉酒店", False),
        ("Can you stay in Leh for the night, lah?", False),
        ("亚丁转机去欧洲", False),
        ("下个月去香格里拉玩几天", True),
        ("Flying to Shangri-La next month", True),
        ("去稻城亚丁要准备什么", True),
        ("川西高原自驾", True),
    ],
)
def test_a_high_place_is_the_place_not_a_hotel_of_its_name(
    subjects: Subjects, text: str, highland: bool
) -> None:
    assert ("highland" in subjects.of(text)) is highland
    assert ("highland" in subjects.asked(text)) is highland


@pytest.mark.parametrize(
    ("text", "late"),
    [
        ("dinner at 7:10 pm", False),
        ("I land at 10:12 am", False),
        ("晚上五点到酒店", False),
        ("下午三点的会", False),
        ("晚上十点以后的航班", True),
        ("晚上10点以后的航班", True),
        ("夜里两点的车", True),
        ("22点出发", True),
        ("the 11:45pm to Newark", True),
        ("a 23:30 departure", True),
        ("leaving at 3am", True),
    ],
)
def test_late_is_the_same_hours_in_both_languages_nine_pm_to_before_five(
    subjects: Subjects, text: str, late: bool
) -> None:
    assert ("late" in subjects.of(text)) is late


@pytest.mark.parametrize("request_text", ["半夜太吵了睡不着", "半夜胃疼怎么办", "Wake me at 4am"])
def test_a_late_hour_about_sleep_or_the_body_implies_no_flight(
    subjects: Subjects, request_text: str
) -> None:
    assert "flight" not in subjects.implied(subjects.asked(request_text))


def test_the_time_of_a_boat_trip_is_a_journey_time_not_said_in_passing(subjects: Subjects) -> None:
    assert {"boat", "time"} <= subjects.asked("带孩子晚上坐游船")


@pytest.mark.parametrize(
    ("text", "about", "not_about"),
    [
        ("Where should I kip in Manchester for two nights?", "lodging", "time"),
        ("住两晚就走", "lodging", "time"),
        ("Cheap digs in Lisbon for the weekend?", "days", "time"),
        ("周末不想出差", "days", "time"),
        ("Which fare type for the Miami trip?", "fare", "money"),
        ("Cheapest way to get from Stansted to Dublin?", None, "money"),
        ("What should I request when checking in at Kuala Lumpur?", "lodging", "luggage"),
        ("Anything I should request at the front desk in Wichita?", "lodging", "work"),
        ("Reserve my spot on the Eurostar to Paris", "rail", None),
        ("There's a long wait in Doha between legs, what can I do?", "transfers", None),
        ("Pick a spot for the crew's end-of-job night out", "leisure", "time"),
        ("Where do we sleep near the Masai Mara?", "lodging", "quiet"),
    ],
)
def test_words_once_misread_name_what_they_are_about(
    subjects: Subjects, text: str, about: str | None, not_about: str | None
) -> None:
    found = subjects.of(text)
    assert about is None or about in found
    assert not_about is None or not_about not in found


def test_a_night_flight_is_still_a_time_of_day_and_a_cheaper_option_still_money(
    subjects: Subjects,
) -> None:
    assert "time" in subjects.of("I hate night flights")
    assert "money" in subjects.of("Is the cheaper hotel an hour away worth it?")
    assert "money" in subjects.of("Lounge access matters more to me than a cheaper fare")
    assert "quiet" in subjects.of("Light sleeper, I can't sleep near the lift")


@pytest.mark.parametrize(
    ("text", "about", "not_about"),
    [
        ("Any must-haves for the Svalbard cabin?", "lodging", "flight"),
        ("We love a cozy cabin in the woods, nothing fancy", "lodging", "flight"),
        ("Cabin bags only, I never check anything", "flight", "lodging"),
        ("Which cabin for the long haul to Perth?", "class", "lodging"),
        ("Which part of Niagara Falls should we sleep in?", "lodging", "quiet"),
        ("which part of Berlin to sleep in", "lodging", "quiet"),
        ("Loganair's fine but I'll no go near BA after they lost my bags", "brand", "location"),
        ("Book me a hotel near the station", "location", None),
    ],
)
def test_a_word_of_two_senses_is_read_in_the_one_its_neighbours_give(
    subjects: Subjects, text: str, about: str, not_about: str | None
) -> None:
    found = subjects.of(text)
    assert about in found
    assert not_about is None or not_about not in found


def test_sleeping_in_late_and_a_light_sleeper_are_not_a_place_to_stay(subjects: Subjects) -> None:
    assert "lodging" not in subjects.of("I like to sleep in on Sundays")
    assert "quiet" in subjects.of("Very light sleeper, the lift keeps me up")
