"""Our profile schema as a Bailian profile schema, and its values read back."""

from __future__ import annotations

import pytest

from memory.bailian.client import BailianClient
from memory.bailian.limiter import RateLimiter
from memory.bailian.schema import (
    MAX_DESCRIPTION,
    MAX_NAME,
    ProfileMapping,
    bailian_schema,
    ensure_profile_schema,
)
from memory.bailian.target import BailianTarget
from memory.profile import load_schema
from tests.support.bailian_api import FakeBailian

SCHEMA = load_schema()


def test_every_slot_is_one_attribute_within_the_service_limits() -> None:
    body = bailian_schema(SCHEMA)
    names = [a["name"] for a in body["attributes"]]
    assert len(names) == len(SCHEMA.slots) == len(set(names))
    assert len(body["name"]) <= 32
    for attribute, slot in zip(body["attributes"], SCHEMA.slots, strict=True):
        assert len(attribute["name"]) <= MAX_NAME
        assert len(attribute["description"]) <= MAX_DESCRIPTION
        # The extraction is told every option it may write.
        assert all(o.labels["zh"] in attribute["description"] for o in slot.options)


@pytest.mark.parametrize(
    ("attribute", "value", "expected"),
    [
        ("座位", "过道", {"seat": "aisle"}),
        ("座位", "用户喜欢靠窗的位置", {"seat": "window"}),
        ("seat", "Aisle", {"seat": "aisle"}),
        ("舱位", "超级经济舱", {"cabin_class": "premium_economy"}),
        ("酒店早餐", "不含早餐", {"breakfast": "not_needed"}),
        ("酒店早餐", "含早餐", {"breakfast": "required"}),
        ("偏好航司", "东航; 国航", {"preferred_airlines": ("CA", "MU")}),
        ("偏好航司", "China Eastern, Air China", {"preferred_airlines": ("CA", "MU")}),
        ("偏好酒店品牌", "洲际、希尔顿", {"preferred_hotel_brands": ("hilton", "ihg")}),
        ("最多转机次数", "最多转机1次", {"max_transfers": "1"}),
        ("红眼航班", "从不坐红眼航班", {"red_eye": "avoid"}),
    ],
)
def test_profile_values_map_to_slot_options(
    attribute: str, value: str, expected: dict[str, object]
) -> None:
    values, unplaced = ProfileMapping(SCHEMA).read({attribute: value})
    assert (values, unplaced) == (expected, {})


def test_what_fits_no_option_is_kept_as_text() -> None:
    mapping = ProfileMapping(SCHEMA)
    assert mapping.read({"座位": "都行", "宠物": "猫"}) == ({}, {"座位": "都行", "宠物": "猫"})
    # A single-choice slot naming two options is not guessed.
    assert mapping.read({"座位": "靠窗或过道"}) == ({}, {"座位": "靠窗或过道"})


def test_the_schema_is_created_once_and_found_afterwards(bailian: FakeBailian) -> None:
    client = BailianClient(
        base_url=bailian.base_url,
        api_key=bailian.api_key,
        target=BailianTarget("lib1"),
        limiter=RateLimiter(total_qpm=600, add_qpm=60, search_qpm=60),
    )
    first = ensure_profile_schema(client, SCHEMA)
    second = ensure_profile_schema(client, SCHEMA)
    client.close()
    assert first.created and not second.created
    assert first.schema_id == second.schema_id and second.missing == ()
    [create] = [r for r in bailian.requests if r.method == "POST"]
    assert create.path == "profile_schemas"
    assert create.body["memory_library_id"] == "lib1"  # type: ignore[index]
