"""Requests that name no subject the vocabulary knew, or none the needed fact shares,
recall that fact among the first three through the real engine (issue 22, "Ranking"):
preparing a trip brings up its insurance and mobile data, being taken out what one does
not eat or drink, asking the way between two cities the choice of train, a gondola the
fear of cable cars, nowhere to sleep yet the kind of place one stays in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory import open_memory
from memory.engine import Memory

ENGLISH = [
    "Business class for anything transatlantic",
    "Always insure the camera kit separately, not just travel cover",
    "I'm teetotal, so no pub crawls or wine tastings for me",
    "Trains wherever they go, I can work on them",
    "Fear of heights, no cable cars",
    "Need reliable mobile data, I upload every night",
    "Quiet room away from the lift, I'm a light sleeper",
    "Marriott gold, so stick me in one of theirs",
    "Window seat on planes, I like the view",
    "No red-eyes, I arrive wrecked",
    "I run every morning, so a park nearby is ideal",
    "Hire a pickup, not a hatchback, the kit is heavy",
]
CHINESE = [
    "出国一定要买旅游保险，医疗要保",
    "不喝酒，饭局上别劝我",
    "能坐火车就坐火车，飞机总晚点",
    "恐高，缆车索道都不坐",
    "穷学生，住青旅就行",
    "高铁要靠窗的位子",
    "晚上十点以后起飞的航班别订",
    "酒店要有健身房",
    "打车只坐专车",
    "行李从来不托运",
    "早饭要吃中式的",
    "喜欢住市中心，出门方便",
]


def first_three(summary: str, separator: str) -> list[str]:
    """The first three preferences the summary handed to the planner lists."""
    return [part.rstrip("。.") for part in summary.split(separator)[:3]]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path: Path = tmp_path_factory.mktemp("words") / "memory.db"
    mem = open_memory(dsn=f"sqlite:///{path}", redis_url="")
    mem.record("words:en", ENGLISH)
    mem.record("words:zh", CHINESE)
    yield mem
    mem.close()


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("Anything to sort out before the Peru shoot?", ENGLISH[1]),
        ("The client wants to take the crew out on Friday, book somewhere", ENGLISH[2]),
        ("What's the best way from Madrid to Seville?", ENGLISH[3]),
        ("We're riding the gondola up to the summit in Chamonix", ENGLISH[4]),
        ("Which SIM should I get for two weeks in Chile?", ENGLISH[5]),
    ],
)
def test_an_english_request_recalls_the_preference_a_new_link_names(
    memory: Memory, request_text: str, wanted: str
) -> None:
    assert wanted in [i.text for i in memory.search("words:en", request_text, limit=3)]
    assert wanted in first_three(memory.retrieve("words:en", request_text), "; ")


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("下个月去泰国，出发前要准备些什么", CHINESE[0]),
        ("老板说周五晚上请大家吃顿好的", CHINESE[1]),
        ("寒假回哈尔滨老家怎么走", CHINESE[2]),
        ("去张家界天门山，上山那段怎么安排", CHINESE[3]),
        ("五一去西安玩，睡哪", CHINESE[4]),
    ],
)
def test_a_chinese_request_recalls_the_preference_a_new_link_names(
    memory: Memory, request_text: str, wanted: str
) -> None:
    assert wanted in [i.text for i in memory.search("words:zh", request_text, limit=3)]
    assert wanted in first_three(memory.retrieve("words:zh", request_text), "；")
