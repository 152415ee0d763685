"""Preference scoring of demo candidates: deterministic slots and the fast model's pass."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from openai import OpenAI

from bot.planning.inventory.base import FlightOption, HotelOption, Option, TrainOption
from bot.planning.inventory.demo import DemoInventory
from bot.planning.scoring import HARD_CAP, NEUTRAL, Preferences, Scored, Scorer, read_preferences
from memory.profile import load_schema
from tests.support.llm_server import Fail, ScriptedModel

DAY = date(2026, 12, 10)


@pytest.fixture(scope="module")
def demo() -> DemoInventory:
    return DemoInventory()


@pytest.fixture(scope="module")
def legs(demo: DemoInventory) -> dict[str, list[Option]]:
    city = demo.catalogue.city
    sha, ctu = city("上海"), city("成都")
    assert sha is not None and ctu is not None
    outbound: list[Option] = [*demo.flights(sha, ctu, DAY), *demo.trains(sha, ctu, DAY)]
    hotels: list[Option] = [*demo.hotels(ctu, DAY, date(2026, 12, 12))]
    return {"outbound": outbound, "hotel": hotels}


@pytest.fixture
def scorer(demo: DemoInventory) -> Scorer:
    return Scorer(catalogue=demo.catalogue, schema=load_schema())


def flights(scored: list[Scored]) -> list[Scored]:
    return [s for s in scored if isinstance(s.option, FlightOption)]


@pytest.mark.parametrize(
    ("lang", "why"),
    [("en", "Red-eye flight; the traveller avoids red-eyes"), ("zh", "红眼航班，用户明确避开")],
)
def test_red_eye_scores_lowest_for_someone_who_avoids_them(
    scorer: Scorer, legs: dict[str, list[Option]], lang: str, why: str
) -> None:
    result = scorer.score(legs, Preferences(profile={"red_eye": "avoid"}), lang)
    outbound = result["outbound"]
    red_eyes = [s for s in outbound if isinstance(s.option, FlightOption) and s.option.red_eye]
    others = [s for s in outbound if s not in red_eyes]
    assert red_eyes and others
    assert max(s.score for s in red_eyes) < min(s.score for s in others)
    assert all(s.score <= HARD_CAP for s in red_eyes)
    assert all(s.basis.startswith(why) for s in red_eyes)
    assert outbound[-1] in red_eyes  # listed last


def test_no_preferences_means_the_same_neutral_score_for_all(
    scorer: Scorer, legs: dict[str, list[Option]]
) -> None:
    for lang, words in (("en", "No preferences are known"), ("zh", "暂无该出行人的偏好")):
        result = scorer.score(legs, Preferences(profile={}), lang)
        every = [s for leg in result.values() for s in leg]
        assert len(every) == sum(len(v) for v in legs.values())
        assert {s.score for s in every} == {NEUTRAL}
        assert all(words in s.basis for s in every)


def test_the_preferred_airline_ranks_first(scorer: Scorer, legs: dict[str, list[Option]]) -> None:
    outbound = legs["outbound"]
    carrier = next(o.carrier for o in outbound if isinstance(o, FlightOption) and not o.red_eye)
    result = scorer.score(legs, Preferences(profile={"preferred_airlines": [carrier]}), "en")
    ranked = flights(result["outbound"])
    assert isinstance(ranked[0].option, FlightOption) and ranked[0].option.carrier == carrier
    assert "the traveller's preferred airline" in ranked[0].basis
    others = [
        s for s in ranked if isinstance(s.option, FlightOption) and s.option.carrier != carrier
    ]
    assert all(s.score < ranked[0].score for s in others)


def test_an_avoided_airline_is_ruled_out(scorer: Scorer, legs: dict[str, list[Option]]) -> None:
    result = scorer.score(legs, Preferences(profile={"avoided_airlines": ["CZ", "HU"]}), "zh")
    for s in flights(result["outbound"]):
        assert isinstance(s.option, FlightOption)
        if s.option.carrier in ("CZ", "HU"):
            assert s.score <= HARD_CAP and "用户避开的航司" in s.basis


def test_rail_class_puts_other_classes_lower(scorer: Scorer, legs: dict[str, list[Option]]) -> None:
    result = scorer.score(legs, Preferences(profile={"rail_class": "first_class"}), "zh")
    trains = [s for s in result["outbound"] if isinstance(s.option, TrainOption)]
    first = [s for s in trains if s.option.seat_class == "first_class"]  # type: ignore[union-attr]
    rest = [s for s in trains if s not in first]
    assert first and rest
    assert min(s.score for s in first) > NEUTRAL > max(s.score for s in rest)
    assert all("一等座" in s.basis for s in trains)


def test_must_rail_class_from_the_summary_is_hard(
    scorer: Scorer, legs: dict[str, list[Option]]
) -> None:
    prefs = read_preferences({}, "出差只坐高铁一等座。", load_schema())
    assert prefs.profile == {"rail_class": "first_class"} and "rail_class" in prefs.hard
    result = scorer.score(legs, prefs, "zh")
    trains = [s for s in result["outbound"] if isinstance(s.option, TrainOption)]
    assert all(
        s.score <= HARD_CAP
        for s in trains
        if s.option.seat_class != "first_class"  # type: ignore[union-attr]
    )


@pytest.mark.parametrize(("value", "winner"), [("required", True), ("not_needed", False)])
def test_hotel_breakfast(
    scorer: Scorer, legs: dict[str, list[Option]], value: str, winner: bool
) -> None:
    result = scorer.score(legs, Preferences(profile={"breakfast": value}), "en")
    hotels = result["hotel"]
    with_it = [s for s in hotels if isinstance(s.option, HotelOption) and s.option.breakfast]
    without = [s for s in hotels if s not in with_it]
    best, worst = (with_it, without) if winner else (without, with_it)
    assert min(s.score for s in best) > max(s.score for s in worst)
    assert "breakfast" in hotels[0].basis.lower()
    if value == "required":
        assert all("needs breakfast included" in s.basis for s in without)


def test_summary_text_is_read_for_slots_when_memory_has_none(
    scorer: Scorer, legs: dict[str, list[Option]]
) -> None:
    prefs = read_preferences(
        {}, "I never take red-eye flights; I prefer China Eastern.", load_schema()
    )
    assert prefs.profile == {"red_eye": "avoid", "preferred_airlines": ["MU"]}
    # The stored profile wins over the text where both speak.
    stored = read_preferences({"red_eye": "accept"}, "I never take red-eye flights", load_schema())
    assert stored.profile["red_eye"] == "accept"


def test_a_value_limited_to_a_scope_never_stands_in_for_the_general_one(
    scorer: Scorer, legs: dict[str, list[Option]]
) -> None:
    """ "On long-haul flights I want business class" says nothing about a domestic hop."""
    text = "On long-haul flights I want business class; 去纽约的航班红眼也可以"
    prefs = read_preferences({"red_eye": "avoid"}, text, load_schema())
    assert prefs.profile == {"red_eye": "avoid"}
    assert prefs.text == text  # left to the model, which reads conditions
    result = scorer.score(legs, prefs, "en")
    assert not any("business" in s.basis.lower() for s in flights(result["outbound"]))


# The fast model scores free text in one batched call.


@pytest.fixture
def model() -> Iterator[ScriptedModel]:
    with ScriptedModel() as scripted:
        yield scripted


def llm_scorer(demo: DemoInventory, model: ScriptedModel) -> Scorer:
    client = OpenAI(base_url=model.base_url, api_key="test", max_retries=0, timeout=5)
    return Scorer(catalogue=demo.catalogue, schema=load_schema(), client=client, model="fast")


def candidate_ids(request: dict[str, Any]) -> list[str]:
    prompt = request["messages"][-1]["content"]
    return re.findall(r'"id": "([^"]+)"', prompt)


def test_free_text_is_scored_by_the_fast_model_in_one_call(
    demo: DemoInventory, legs: dict[str, list[Option]], model: ScriptedModel
) -> None:
    def judge(request: dict[str, Any]) -> str:
        scores = [
            {"id": cid, "score": 90, "basis": "大堂安静，符合用户喜好"}
            for cid in candidate_ids(request)
            if "atour" in cid
        ]
        return json.dumps({"scores": scores}, ensure_ascii=False)

    model.script(judge)
    prefs = Preferences(profile={}, text="喜欢安静、有书的酒店大堂")
    result = llm_scorer(demo, model).score(legs, prefs, "zh")
    assert len(model.requests) == 1
    assert model.last_request["response_format"] == {"type": "json_object"}
    assert "喜欢安静" in model.last_request["messages"][-1]["content"]
    top = result["hotel"][0]
    assert isinstance(top.option, HotelOption) and top.option.brand == "atour"
    assert top.score > NEUTRAL and top.basis == "大堂安静，符合用户喜好"
    assert {s.score for s in result["outbound"]} == {NEUTRAL}


@pytest.mark.parametrize(
    "reply",
    [
        "not json at all",
        json.dumps({"scores": "all good"}),
        json.dumps({"scores": [{"id": "nope", "score": 99}, {"id": 1, "score": "high"}]}),
        Fail(500),
    ],
)
def test_invalid_model_output_is_ignored(
    demo: DemoInventory, legs: dict[str, list[Option]], model: ScriptedModel, reply: Any
) -> None:
    model.script(reply)
    prefs = Preferences(profile={"red_eye": "avoid"}, text="I never take red-eye flights")
    result = llm_scorer(demo, model).score(legs, prefs, "en")
    red_eyes = [s for s in flights(result["outbound"]) if s.option.red_eye]  # type: ignore[union-attr]
    assert red_eyes and all(s.score <= HARD_CAP for s in red_eyes)
    assert len(model.requests) == 1


def test_out_of_range_scores_are_dropped_one_by_one(
    demo: DemoInventory, legs: dict[str, list[Option]], model: ScriptedModel
) -> None:
    def judge(request: dict[str, Any]) -> str:
        ids = [cid for cid in candidate_ids(request) if cid.startswith("H-")]
        rows = [
            {"id": ids[0], "score": 250, "basis": "x"},
            {"id": ids[1], "score": 0, "basis": "差"},
        ]
        return json.dumps({"scores": rows}, ensure_ascii=False)

    model.script(judge)
    result = llm_scorer(demo, model).score(legs, Preferences(profile={}, text="x"), "zh")
    scores = sorted(s.score for s in result["hotel"])
    assert scores[0] == NEUTRAL - NEUTRAL // 2 and scores[-1] == NEUTRAL
