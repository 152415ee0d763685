"""The typed profile schema: slot recognition in both languages, validation, rendering."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memory.errors import InvalidSlotValue
from memory.profile import ProfileSchema, load_schema
from memory.slots import MAX_LABEL_CHARS, ProfileSchemaError
from memory.types import Polarity, SlotMatch

SCHEMA_FILE = Path(__file__).parents[2] / "memory" / "profile_schema.json"


@pytest.fixture(scope="module")
def schema() -> ProfileSchema:
    return load_schema()


def case(text: str, slot: str, value: Any, polarity: Polarity, id: str) -> Any:
    return pytest.param(text, SlotMatch(slot, value, polarity), id=id)


DETECTED = [
    # red-eye: negation and acceptance
    case("I never take red-eye flights", "red_eye", "avoid", "avoid", "en-red-eye-never"),
    case("No red-eyes please", "red_eye", "avoid", "avoid", "en-red-eye-no"),
    case("Red-eyes are not ok for me", "red_eye", "avoid", "avoid", "en-red-eye-not-ok"),
    case("Red-eye flights are fine", "red_eye", "accept", "prefer", "en-red-eye-fine"),
    case("I don't mind red-eyes", "red_eye", "accept", "prefer", "en-red-eye-dont-mind"),
    case("我从不坐红眼航班", "red_eye", "avoid", "avoid", "zh-red-eye-never"),
    case("避开红眼航班", "red_eye", "avoid", "avoid", "zh-red-eye-avoid"),
    case("红眼航班也可以", "red_eye", "accept", "prefer", "zh-red-eye-also-ok"),
    case("我不能接受红眼航班", "red_eye", "avoid", "avoid", "zh-red-eye-cannot-accept"),
    # airlines: the stance decides preferred or avoided
    case("I avoid China Southern", "avoided_airlines", ("CZ",), "avoid", "en-avoid-cz"),
    case("不坐南航", "avoided_airlines", ("CZ",), "avoid", "zh-avoid-cz"),
    case("prefer China Eastern", "preferred_airlines", ("MU",), "prefer", "en-prefer-mu"),
    case("优先东航", "preferred_airlines", ("MU",), "prefer", "zh-prefer-mu"),
    case("偏好东航、国航", "preferred_airlines", ("CA", "MU"), "prefer", "zh-prefer-two"),
    case("只坐东航和国航", "preferred_airlines", ("CA", "MU"), "must", "zh-only-two"),
    case(
        "I never fly China Southern and Hainan Airlines",
        "avoided_airlines",
        ("CZ", "HU"),
        "avoid",
        "en-negation-carries-over-and",
    ),
    # rail and cabin class, with the must upgrade
    case("出差只坐高铁一等座", "rail_class", "first_class", "must", "zh-rail-first-only"),
    case("高铁坐商务座", "rail_class", "business_seat", "prefer", "zh-rail-business"),
    case(
        "I only take first class on high-speed trains",
        "rail_class",
        "first_class",
        "must",
        "en-rail-first-beats-cabin-first",
    ),
    case("I always fly business class", "cabin_class", "business", "must", "en-cabin-always"),
    case("超级经济舱", "cabin_class", "premium_economy", "prefer", "zh-premium-economy"),
    case("经济舱就行", "cabin_class", "economy", "prefer", "zh-economy-is-enough"),
    # seat, including a negated mention meaning the other option
    case("I like window seats", "seat", "window", "prefer", "en-window"),
    case("Now I prefer aisle seats", "seat", "aisle", "prefer", "en-aisle-now"),
    case("I don't want a window seat", "seat", "aisle", "prefer", "en-not-window"),
    case("I prefer aisle seats, not window", "seat", "aisle", "prefer", "en-aisle-not-window"),
    case("我喜欢靠窗的座位", "seat", "window", "prefer", "zh-window"),
    # breakfast
    case("酒店要含早餐", "breakfast", "required", "prefer", "zh-breakfast-required"),
    case("Breakfast must be included", "breakfast", "required", "must", "en-breakfast-must"),
    case("I don't need breakfast", "breakfast", "not_needed", "prefer", "en-no-breakfast"),
    case("不含早也可以", "breakfast", "not_needed", "prefer", "zh-no-breakfast-ok"),
    # connections
    case("direct flights only", "max_transfers", "0", "must", "en-direct-only"),
    case("只坐直飞", "max_transfers", "0", "must", "zh-direct-only"),
    case("At most one stop, please", "max_transfers", "1", "prefer", "en-one-stop"),
    case("I hate layovers", "max_transfers", "0", "prefer", "en-hate-layovers"),
    # budget, hotels, transport mode
    case("I'm budget-conscious", "budget_sensitivity", "budget_conscious", "prefer", "en-budget"),
    case("预算敏感", "budget_sensitivity", "budget_conscious", "prefer", "zh-budget"),
    case("舒适优先", "budget_sensitivity", "comfort_first", "prefer", "zh-comfort-first"),
    case(
        "I prefer Marriott and Hilton hotels",
        "preferred_hotel_brands",
        ("hilton", "marriott"),
        "prefer",
        "en-hotels-preferred",
    ),
    case(
        "不住汉庭和如家",
        "avoided_hotel_brands",
        ("hanting", "home_inn"),
        "avoid",
        "zh-hotels-avoided",
    ),
    # "if possible" is not a condition
    case("Avoid Air China if possible", "avoided_airlines", ("CA",), "avoid", "en-if-possible"),
    case("如果可以的话优先东航", "preferred_airlines", ("MU",), "prefer", "zh-if-possible"),
    case("能坐高铁就不坐飞机", "transport_mode", "prefer_rail", "prefer", "zh-rail-over-plane"),
    case(
        "I'd rather take the train than fly",
        "transport_mode",
        "prefer_rail",
        "prefer",
        "en-rather-train",
    ),
]


@pytest.mark.parametrize(("text", "expected"), DETECTED)
def test_detect_recognises_the_slot_a_fact_sets(
    schema: ProfileSchema, text: str, expected: SlotMatch
) -> None:
    assert schema.detect(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("I love spicy food", id="en-food"),
        pytest.param("I like hotels near the metro", id="en-hotel-location"),
        pytest.param("我喜欢吃辣", id="zh-food"),
        pytest.param("我喜欢安静的房间", id="zh-quiet-room"),
        pytest.param("I want a room with a window", id="en-room-window-is-not-a-seat"),
        pytest.param("宾至如家的感觉", id="zh-idiom-is-not-home-inn"),
        pytest.param("我下周去香格里拉", id="zh-city-is-not-a-hotel"),
        pytest.param("航班不要太早", id="zh-no-early-flights-is-not-breakfast"),
        pytest.param("window or aisle, either is fine", id="en-undecided-seat"),
        pytest.param("I avoid red-eye flights and prefer China Eastern", id="en-two-slots"),
        pytest.param("不坐红眼，优先东航", id="zh-two-slots"),
        pytest.param("No transits through Hong Kong please", id="en-no-slot-via"),
        pytest.param("坐火车喜欢靠窗，坐飞机喜欢过道", id="zh-two-scopes-in-one-fact"),
        pytest.param("", id="empty"),
    ],
)
def test_detect_leaves_free_text_and_mixed_facts_alone(schema: ProfileSchema, text: str) -> None:
    assert schema.detect(text) is None


def scoped(text: str, slot: str, value: Any, polarity: Polarity, scope: str, id: str) -> Any:
    return pytest.param(text, SlotMatch(slot, value, polarity, scope), id=id)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        scoped(
            "Business class for flights over 6 hours",
            "cabin_class",
            "business",
            "prefer",
            "trip:>6h",
            "en-duration",
        ),
        scoped(
            "超过4小时的航班坐商务舱",
            "cabin_class",
            "business",
            "prefer",
            "trip:>4h",
            "zh-duration",
        ),
        scoped(
            "I prefer China Eastern for domestic flights",
            "preferred_airlines",
            ("MU",),
            "prefer",
            "trip:domestic",
            "en-domestic",
        ),
        scoped(
            "I prefer aisle seats on long flights",
            "seat",
            "aisle",
            "prefer",
            "mode:flight|trip:long_haul",
            "en-mode-and-length",
        ),
        scoped(
            "Window seat when flying over the Alps",
            "seat",
            "window",
            "prefer",
            "mode:flight|place:Alps",
            "en-place-not-in-the-gazetteer",
        ),
        scoped("坐火车喜欢靠窗看风景", "seat", "window", "prefer", "mode:train", "zh-train"),
        scoped(
            "For flights to New York a red-eye is fine",
            "red_eye",
            "accept",
            "prefer",
            "place:new_york",
            "en-flights-are-implied-by-red-eye",
        ),
        scoped(
            "在日本住温泉旅馆的时候不用含早餐",
            "breakfast",
            "not_needed",
            "prefer",
            "place:japan|when:温泉",
            "zh-place-and-condition",
        ),
        scoped(
            "带孩子的时候坐超级经济舱",
            "cabin_class",
            "premium_economy",
            "prefer",
            "when:kids",
            "zh-with-kids",
        ),
        scoped(
            "去婺源玩的时候不用含早",
            "breakfast",
            "not_needed",
            "prefer",
            "place:婺源|when:holiday",
            "zh-generic-place-shape",
        ),
    ],
)
def test_detect_reads_the_scope_a_fact_is_limited_to(
    schema: ProfileSchema, text: str, expected: SlotMatch
) -> None:
    assert schema.detect(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("出差只坐高铁一等座", id="zh-business-travel-is-the-default"),
        pytest.param("I fly economy on work trips", id="en-work-trips-are-the-default"),
        pytest.param("Actually I now prefer window seats", id="en-change-of-mind-words"),
        pytest.param("以后高铁坐二等座就行", id="zh-change-of-mind-words"),
        pytest.param("靠过道的座位，方便起身", id="zh-a-reason-is-no-scope"),
        pytest.param("I like window seats so I can sleep", id="en-a-reason-is-no-scope"),
        pytest.param("飞机高铁都靠窗", id="zh-planes-and-trains-are-every-seat"),
        pytest.param("Window seat when it's available", id="en-when-available"),
        pytest.param("方便的话靠窗", id="zh-if-convenient"),
        pytest.param("I'm based in Beijing; aisle seats please", id="en-home-city"),
        pytest.param("我喜欢中国东方航空", id="zh-country-inside-an-airline-name"),
    ],
)
def test_general_facts_have_no_scope(schema: ProfileSchema, text: str) -> None:
    match = schema.detect(text)
    assert match is not None and match.scope is None, match


@pytest.mark.parametrize(
    ("scope", "lang", "expected"),
    [
        pytest.param("mode:train", "zh", "火车", id="zh-mode"),
        pytest.param("mode:flight|place:new_york", "en", "flights, New York", id="en-two"),
        pytest.param("place:japan|when:温泉", "zh", "日本、温泉", id="zh-own-words"),
        pytest.param("trip:>4h", "en", "over 4 h", id="en-duration"),
        pytest.param(None, "en", "", id="general"),
    ],
)
def test_scope_labels(schema: ProfileSchema, scope: str | None, lang: str, expected: str) -> None:
    assert schema.scope_label(scope, lang) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("高铁一等座改成二等座", "second_class", id="zh-changed-to"),
        pytest.param("以后经济舱换成超级经济舱", "premium_economy", id="zh-swapped-for"),
        pytest.param("I switched from a window seat to an aisle seat", "aisle", id="en-from-to"),
        # a multi-choice slot too: the chain left is not preferred (it read as both)
        pytest.param("I've switched from Marriott to Hilton", ("hilton",), id="en-chain"),
        pytest.param("从万豪换成希尔顿了", ("hilton",), id="zh-chain"),
        pytest.param("Hilton instead of Marriott", ("hilton",), id="en-instead-of"),
    ],
)
def test_a_fact_that_moves_from_one_option_to_another_sets_the_new_one(
    schema: ProfileSchema, text: str, value: str | tuple[str, ...]
) -> None:
    match = schema.detect(text)
    assert match is not None and match.value == value and match.scope is None, match


def test_every_option_reads_back_as_itself_in_both_languages(schema: ProfileSchema) -> None:
    """What the form writes (the rendered phrase) is recognised as the same slot and value."""
    for slot in schema.slots:
        for option in slot.options:
            value = option.id if slot.kind == "single" else (option.id,)
            for lang in ("en", "zh"):
                text = schema.render(slot.id, value, lang)
                match = schema.detect(text)
                assert match is not None, text
                assert (match.slot, match.value) == (slot.id, value), text
                assert match.polarity in (option.polarity, "must"), text


@pytest.mark.parametrize(
    ("slot", "value", "expected"),
    [
        pytest.param("seat", "window", "window", id="single"),
        pytest.param("seat", " aisle ", "aisle", id="single-stripped"),
        pytest.param("max_transfers", 0, "0", id="number-as-id"),
        pytest.param("seat", None, None, id="single-cleared"),
        pytest.param("preferred_airlines", ["MU", "CA"], ("CA", "MU"), id="list-sorted"),
        pytest.param("preferred_airlines", {"CZ"}, ("CZ",), id="set"),
        pytest.param("avoided_airlines", ("HU", "HU"), ("HU",), id="tuple-deduplicated"),
        pytest.param("avoided_airlines", "MU", ("MU",), id="one-id"),
        pytest.param("preferred_hotel_brands", "hilton, atour", ("atour", "hilton"), id="csv"),
        pytest.param("preferred_airlines", [], None, id="empty-multi-clears"),
        pytest.param("preferred_airlines", None, None, id="multi-cleared"),
    ],
)
def test_validate_normalises(
    schema: ProfileSchema, slot: str, value: object, expected: Any
) -> None:
    assert schema.validate(slot, value) == expected


@pytest.mark.parametrize(
    ("slot", "value", "message"),
    [
        pytest.param("no_such_slot", "x", "unknown profile slot 'no_such_slot'", id="slot"),
        pytest.param("seat", "middle", "'middle' is not an option of 'seat'", id="option"),
        pytest.param("seat", ["window"], "takes one option id", id="list-for-single"),
        pytest.param("max_transfers", True, "takes one option id", id="bool"),
        pytest.param("max_transfers", 3, "'3' is not an option", id="number-out-of-range"),
        pytest.param("preferred_airlines", ["MU", "XX"], "'XX' is not an option", id="multi"),
        pytest.param("preferred_airlines", 5, "takes a list of option ids", id="int-for-multi"),
        pytest.param("avoided_airlines", [1], "takes a list of option ids", id="int-in-list"),
    ],
)
def test_validate_rejects_with_a_clear_message(
    schema: ProfileSchema, slot: str, value: object, message: str
) -> None:
    with pytest.raises(InvalidSlotValue, match=message):
        schema.validate(slot, value)


@pytest.mark.parametrize(
    ("slot", "value", "lang", "expected"),
    [
        pytest.param("red_eye", "avoid", "zh", "避开红眼航班", id="zh-single"),
        pytest.param("red_eye", "avoid", "en", "avoids red-eye flights", id="en-single"),
        pytest.param(
            "preferred_airlines",
            ("MU", "CA"),
            "en",
            "prefers China Eastern (MU), Air China (CA)",
            id="en-multi",
        ),
        pytest.param("preferred_airlines", ("CA", "MU"), "zh", "偏好东航、国航", id="zh-multi"),
        pytest.param("avoided_hotel_brands", "hanting", "zh-CN", "避免入住汉庭", id="zh-region"),
        pytest.param("max_transfers", "0", "en", "wants nonstop flights only", id="en-nonstop"),
    ],
)
def test_render_phrases(
    schema: ProfileSchema, slot: str, value: Any, lang: str, expected: str
) -> None:
    assert schema.render(slot, value, lang) == expected


PROFILE = {
    "breakfast": "required",
    "red_eye": "avoid",
    "preferred_airlines": ["MU"],
    "budget_sensitivity": "budget_conscious",
    "seat": None,
}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        pytest.param("zh", "避开红眼航班；偏好东航；酒店要含早餐；预算敏感。", id="zh"),
        pytest.param(
            "en",
            "Avoids red-eye flights; prefers China Eastern (MU); needs breakfast included; "
            "is budget-conscious.",
            id="en",
        ),
    ],
)
def test_render_sentence_reads_the_whole_profile(
    schema: ProfileSchema, lang: str, expected: str
) -> None:
    assert schema.render_sentence(PROFILE, lang) == expected


def test_render_sentence_of_an_empty_profile_is_empty(schema: ProfileSchema) -> None:
    assert schema.render_sentence({}, "en") == ""
    assert schema.render_sentence({"seat": None, "avoided_airlines": []}, "zh") == ""


def test_render_refuses_values_outside_the_schema(schema: ProfileSchema) -> None:
    with pytest.raises(InvalidSlotValue, match="not an option"):
        schema.render("seat", "middle", "en")
    with pytest.raises(InvalidSlotValue, match="unknown profile slot"):
        schema.render_sentence({"shoe_size": "42"}, "en")


def test_polarity_follows_the_option(schema: ProfileSchema) -> None:
    assert schema.polarity("red_eye", "avoid") == "avoid"
    assert schema.polarity("seat", "window") == "prefer"
    assert schema.polarity("avoided_airlines", ("CZ",)) == "avoid"
    assert schema.polarity("preferred_airlines", ("MU", "CA")) == "prefer"


def test_schema_integrity(schema: ProfileSchema) -> None:
    """Every slot and option is labelled, renders and can be recognised in both languages."""
    ids = [slot.id for slot in schema.slots]
    assert len(ids) == len(set(ids))
    required = {"seat", "cabin_class", "rail_class", "red_eye", "preferred_airlines"}
    required |= {"avoided_airlines", "preferred_hotel_brands", "avoided_hotel_brands"}
    assert required | {"breakfast", "max_transfers", "budget_sensitivity"} <= set(ids)
    for slot in schema.slots:
        for lang in ("en", "zh"):
            assert 0 < len(slot.label(lang)) <= MAX_LABEL_CHARS
            assert slot.help[lang]
        for option in slot.options:
            value = option.id if slot.kind == "single" else (option.id,)
            for lang in ("en", "zh"):
                assert 0 < len(option.label(lang)) <= MAX_LABEL_CHARS, (slot.id, option.id)
                phrase = schema.render(slot.id, value, lang)
                assert phrase and "{" not in phrase, (slot.id, option.id, lang)
            assert option.patterns or (option.stance and slot.topic), (slot.id, option.id)
        if slot.exclusive_with:
            partner = schema.slot(slot.exclusive_with)
            assert partner.exclusive_with == slot.id
            assert [o.id for o in partner.options] == [o.id for o in slot.options]
            assert {o.polarity for o in slot.options} | {o.polarity for o in partner.options} == {
                "prefer",
                "avoid",
            }


def test_slot_lookup(schema: ProfileSchema) -> None:
    seat = schema.slot("seat")
    assert (seat.kind, seat.label("zh"), seat.option("window").label("en")) == (
        "single",
        "座位",
        "Window",
    )
    with pytest.raises(InvalidSlotValue, match="unknown profile slot"):
        schema.slot("colour")


def test_load_schema_is_cached_per_file(tmp_path: Path) -> None:
    assert load_schema() is load_schema()
    copy = tmp_path / "schema.json"
    copy.write_text(SCHEMA_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_schema(copy) is not load_schema()
    assert [s.id for s in load_schema(str(copy)).slots] == [s.id for s in load_schema().slots]


def broken(tmp_path: Path, edit: Any) -> Path:
    data = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _seat(data: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in data["slots"] if s["id"] == "seat")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(
            lambda d: _seat(d)["labels"].pop("zh"), "slot 'seat' labels", id="missing-label"
        ),
        pytest.param(
            lambda d: _seat(d)["options"][0]["labels"].update(en="x" * 76),
            "longer than 75",
            id="long-label",
        ),
        pytest.param(
            lambda d: _seat(d)["options"].append(_seat(d)["options"][0]),
            "slot 'seat': option ids must be present and unique",
            id="duplicate-option",
        ),
        pytest.param(
            lambda d: _seat(d)["options"][0]["patterns"]["en"].append("(unclosed"),
            "slot 'seat' option 'window': pattern '\\(unclosed' is invalid",
            id="bad-regex",
        ),
        pytest.param(
            lambda d: _seat(d).update(exclusive_with="red_eye"),
            "slot 'seat': exclusive_with",
            id="one-sided-exclusive",
        ),
        pytest.param(
            lambda d: _seat(d)["options"][0].update(polarity="maybe"),
            "polarity must be",
            id="bad-polarity",
        ),
    ],
)
def test_a_broken_schema_file_fails_loudly_naming_file_and_slot(
    tmp_path: Path, edit: Any, message: str
) -> None:
    path = broken(tmp_path, edit)
    with pytest.raises(ProfileSchemaError, match=message) as raised:
        load_schema(path)
    assert str(path) in str(raised.value)
