"""What ranking does for a traveller, with the bundled embedding model (and, for exact
properties, hand-made vectors)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from memory.embedding import LocalEmbedder, Vector, shared_local_embedder
from memory.lang import detect_lang
from memory.ranking import (
    CROSS_LANGUAGE_LIFT,
    LanguageGap,
    language_gap,
    rank_scores,
)

RED_EYE = "从不坐红眼航班，太累了"
RAIL = "坐高铁只买二等座"
SPICY = "不吃辣"
LUGGAGE = "行李从来不托运"
CAR = "打车只坐专车"
# One traveller's namespace: all travel, all Chinese (the common case).
TRAVELLER = [
    RED_EYE,
    RAIL,
    "飞机上喜欢靠窗",
    "酒店一定要含早餐",
    "住酒店要安静的房间",
    "喜欢住希尔顿",
    SPICY,
    "转机最多一次",
    CAR,
    LUGGAGE,
    "出差预算有限",
    "不坐海航",
]
BILINGUAL = [
    *TRAVELLER,
    "I love visiting museums",
    "Business class on long flights",
    "I prefer aisle seats on trains",
    "No hotels without a gym",
]


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return shared_local_embedder()


def rank(local: LocalEmbedder, request: str, facts: Sequence[str]) -> list[str]:
    scores = rank_scores(
        request,
        local.embed_query(request),
        facts,
        [detect_lang(t) for t in facts],
        [None] * len(facts),
        local.embed_passages(facts),
        gap=language_gap(local),
    )
    return [facts[i] for i in np.argsort(-scores, kind="stable")]


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("有没有凌晨一点起飞的便宜机票", RED_EYE),
        ("晚上到成都，同事说带我去吃火锅", SPICY),
        ("帮我订趟去南京的动车", RAIL),
        ("从机场到公司帮我叫辆车", CAR),
        ("这次要带两个大箱子，要不要加购额度", LUGGAGE),
    ],
)
def test_a_chinese_request_recalls_the_fact_it_shares_no_word_with(
    local: LocalEmbedder, request_text: str, wanted: str
) -> None:
    assert wanted in rank(local, request_text, TRAVELLER)[:3]


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("Find me a cheap ticket on a plane that leaves at 1am", RED_EYE),
        ("Where should we eat hotpot tonight?", SPICY),
    ],
)
def test_an_english_request_still_finds_a_chinese_fact(
    local: LocalEmbedder, request_text: str, wanted: str
) -> None:
    assert wanted in rank(local, request_text, BILINGUAL)[:3]


def test_a_request_about_no_known_subject_ranks_same_language_facts_by_the_embedding(
    local: LocalEmbedder,
) -> None:
    request = "按我平时的习惯来"
    query, facts = local.embed_query(request), local.embed_passages(TRAVELLER)
    plain = [TRAVELLER[i] for i in np.argsort(-(facts @ query), kind="stable")]
    assert rank(local, request, TRAVELLER) == plain


def test_the_bundled_model_favours_the_requests_language_so_the_lift_is_measured(
    local: LocalEmbedder,
) -> None:
    gap = language_gap(local)
    assert gap is not None
    assert 0.0 < gap.en < gap.zh < 0.5


def unit(*rows: Sequence[float]) -> Vector:
    matrix = np.asarray(rows, dtype=np.float32)
    out: Vector = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return out


def test_only_a_fact_in_the_other_language_is_lifted_and_by_half_the_gap() -> None:
    """Same vector, same words' subjects (none): only the language differs."""
    query = unit([1.0, 0.0, 0.0])[0]
    facts = unit([0.8, 0.6, 0.0], [0.8, 0.6, 0.0], [0.6, 0.8, 0.0])
    texts = ["这本书很有意思", "This book is very interesting", "我的手机快没电了"]
    gap = LanguageGap(zh=0.1, en=0.04)
    scores = rank_scores(
        "今天天气很好", query, texts, ["zh", "en", "zh"], [None] * 3, facts, gap=gap
    )
    assert scores[0] == pytest.approx(0.8, abs=1e-6)
    assert scores[1] - scores[0] == pytest.approx(CROSS_LANGUAGE_LIFT * 0.1, abs=1e-6)
    assert scores[2] == pytest.approx(0.6, abs=1e-6)
    english = rank_scores(
        "nice weather today", query, texts, ["zh", "en", "zh"], [None] * 3, facts, gap=gap
    )
    assert english[0] - english[1] == pytest.approx(CROSS_LANGUAGE_LIFT * 0.04, abs=1e-6)


def test_a_fact_about_what_the_request_asks_outranks_an_equally_close_one() -> None:
    query = unit([1.0, 0.0])[0]
    facts = unit([0.9, 0.1], [0.9, 0.1], [0.9, 0.1])
    texts = ["我喜欢看书", "从不坐红眼航班", "喜欢安静"]
    scores = rank_scores("明天的机票帮我看看", query, texts, ["zh"] * 3, [None] * 3, facts)
    assert int(np.argmax(scores)) == 1
    assert scores[0] == pytest.approx(scores[2])


def test_a_stored_slot_counts_as_what_the_fact_is_about() -> None:
    query = unit([1.0, 0.0])[0]
    facts = unit([0.9, 0.1], [0.9, 0.1])
    texts = ["Prefers it", "Prefers it"]  # rendered form text that names nothing
    scores = rank_scores("book me a flight", query, texts, ["en", "en"], [None, "red_eye"], facts)
    assert scores[1] > scores[0]


def test_a_meal_lifts_what_the_traveller_cannot_eat_above_other_food_facts() -> None:
    query = unit([1.0, 0.0])[0]
    facts = unit([0.9, 0.1], [0.9, 0.1], [0.9, 0.1])
    texts = ["酒店早餐要含", "不吃香菜", "喜欢安静"]
    scores = rank_scores("晚上请客户吃饭，订哪家", query, texts, ["zh"] * 3, [None] * 3, facts)
    assert int(np.argmax(scores)) == 1


def test_a_high_altitude_destination_lifts_the_altitude_sickness_fact() -> None:
    query = unit([1.0, 0.0])[0]
    facts = unit([0.9, 0.1], [0.9, 0.1], [0.9, 0.1])
    texts = ["周末不想出差", "高原反应严重，不去高海拔的地方", "最喜欢下午出发的航班"]
    scores = rank_scores("公司想派我去拉萨待一周", query, texts, ["zh"] * 3, [None] * 3, facts)
    assert int(np.argmax(scores)) == 1


def test_an_evening_meal_does_not_lift_a_time_of_day_fact_over_a_nearer_one() -> None:
    # Neither fact is about the meal: without the time said in passing, the nearer one wins.
    query = unit([1.0, 0.0])[0]
    facts = unit([0.9, 0.1], [0.92, 0.08])
    texts = ["晚上十点以后不要安排活动", "出差带着笔记本电脑"]
    scores = rank_scores("晚上去哪家馆子", query, texts, ["zh"] * 2, [None] * 2, facts)
    assert int(np.argmax(scores)) == 1


def test_a_subject_every_fact_shares_changes_no_order() -> None:
    query = unit([1.0, 0.0, 0.0])[0]
    facts = unit([0.9, 0.1, 0.0], [0.7, 0.0, 0.3], [0.5, 0.5, 0.0])
    texts = ["酒店要含早餐", "酒店要安静", "酒店要高楼层"]
    args = (["zh"] * 3, [None] * 3, facts)
    scores = rank_scores("帮我订个酒店", query, texts, *args)
    assert list(np.argsort(-scores)) == list(np.argsort(-(facts @ query)))


def test_scores_are_deterministic_and_independent_of_fact_order(local: LocalEmbedder) -> None:
    request = "帮我订下周去成都的机票"
    query, facts = local.embed_query(request), local.embed_passages(BILINGUAL)
    langs = [detect_lang(t) for t in BILINGUAL]
    gap = language_gap(local)
    first = rank_scores(request, query, BILINGUAL, langs, [None] * len(langs), facts, gap=gap)
    again = rank_scores(request, query, BILINGUAL, langs, [None] * len(langs), facts, gap=gap)
    assert np.array_equal(first, again)
    order = np.arange(len(BILINGUAL))[::-1]
    shuffled = rank_scores(
        request,
        query,
        [BILINGUAL[i] for i in order],
        [langs[i] for i in order],
        [None] * len(langs),
        facts[order],
        gap=gap,
    )
    assert np.allclose(shuffled, first[order], atol=1e-6)


def test_a_single_fact_or_none_can_be_ranked(local: LocalEmbedder) -> None:
    query = local.embed_query("book me an overnight flight")
    one = local.embed_passages(["I never take red-eye flights"])
    scores = rank_scores("book me an overnight flight", query, ["x"], ["en"], [None], one)
    assert scores.shape == (1,)
    assert rank_scores("anything", query, [], [], [], one[:0]).shape == (0,)


def test_facts_described_inconsistently_are_refused(local: LocalEmbedder) -> None:
    query = local.embed_query("hotel")
    facts = local.embed_passages(["a", "b"])
    with pytest.raises(ValueError, match="same facts"):
        rank_scores("hotel", query, ["a"], ["en", "en"], [None, None], facts)


# An English traveller whose voice the vocabulary was not written from (terse, chatty,
# British, Indian and Singaporean English, typos): the dev traveller "sanjay" of
# bench/travel_people.json, added for the ranking round that looked for a guard.
VOICES = [
    "no redeyes pls, im useless the next day",
    "Window seat always, I lean on the wall and sleep",
    "KrisFlyer gold here, so SQ whenever can lah",
    "Brekkie has to be in the room rate, not paying extra for eggs",
    "I'm veg - no meat, no fish, eggs are ok",
    "Max one connection, I don't do two stops",
    "Mornings are for meetings, so fly me in the evening the day before",
    "My 4yo daughter comes along most school holidays, need a cot or extra bed",
    "Abroad I stick to Marriott, I'm Bonvoy titanium",
    "Near the office beats near the sights, I hate commuting",
    "Budget is tight this year - cheapest reasonable option please",
    "Gym is non-negotiable, I lift at 6 daily",
]


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("theres a 1:10am departure to Sydney thats half price, worth it?", VOICES[0]),
        ("When should I leave for the Monday workshop in Pune?", VOICES[6]),
        ("Family trip to Goa in December, sort the room?", VOICES[7]),
        ("Where should I stay in Dubai?", VOICES[8]),
        ("Which neighbourhood to book in Bangalore, client is in Whitefield", VOICES[9]),
    ],
)
def test_an_english_voice_the_vocabulary_was_not_written_from_gets_its_preference_first(
    local: LocalEmbedder, request_text: str, wanted: str
) -> None:
    assert rank(local, request_text, VOICES)[0] == wanted


def _clear_lead_namespace(lead: float) -> tuple[Vector, Vector, list[str]]:
    """Twelve English facts: the first `lead` above ten packed ones, and one about flights
    (the only fact the request's subject lifts) among the packed ones."""
    query = unit([1.0, 0.0])[0]
    angles = [0.30 - lead] + [0.30 + 0.002 * i for i in range(11)]
    facts = unit(*[[float(np.cos(a)), float(np.sin(a))] for a in angles])
    texts = ["Always a cab to the terminal, I won't lug bags onto the train"]
    texts += [f"I keep receipt number {i} for my records" for i in range(10)]
    texts += ["I never take red-eye flights"]
    return query, facts, texts


def test_a_clear_match_stays_first_despite_a_rule_match_elsewhere() -> None:
    query, facts, texts = _clear_lead_namespace(0.25)
    request = "How do I get to Changi for my flight on Friday?"
    scores = rank_scores(request, query, texts, ["en"] * 12, [None] * 12, facts)
    assert int(np.argmax(scores)) == 0  # the cab fact, the embedding's clear choice


def test_a_close_call_is_still_decided_by_what_the_request_is_about() -> None:
    query, facts, texts = _clear_lead_namespace(0.01)
    request = "Can you book me a flight to Denver?"
    scores = rank_scores(request, query, texts, ["en"] * 12, [None] * 12, facts)
    assert int(np.argmax(scores)) == 11  # the red-eye fact: the lead is no clear match


# The same traveller's other preferences that his requests misread before: counted
# nights, weekends and weekdays taken for a time of day, "fare" and "cheapest" for a
# budget, and words for a hotel check-in, a rail operator and a fare that named nothing.
MISREAD = [
    *VOICES,
    "Premier Inn is fine by me in the UK, clean and predictable",
    "Light sleeper. high floor, away from the lift please",
    "Carry-on only. never check luggage",
    "I'll never fly Ryanair again, their fees are a joke",
    "On trains i prefer the aisle, bad knees",
    "Lounge access matters more to me than a cheaper fare",
    "Not a fan of hostels or shared bathrooms, ever",
]


@pytest.mark.parametrize(
    ("request_text", "wanted", "within"),
    [
        ("Where should I kip in Manchester for two nights?", MISREAD[12], 3),
        ("Which fare type for the Miami trip?", MISREAD[14], 3),
        ("Reserve my spot on the Eurostar to Paris", MISREAD[16], 1),
        ("Cheapest way to get from Stansted to Dublin?", MISREAD[15], 3),
    ],
)
def test_a_request_the_vocabulary_misread_gets_the_preference_it_needs(
    local: LocalEmbedder, request_text: str, wanted: str, within: int
) -> None:
    assert wanted in rank(local, request_text, MISREAD)[:within]


def test_checking_in_is_about_the_hotel_not_the_luggage(local: LocalEmbedder) -> None:
    order = rank(local, "What should I request when checking in at Kuala Lumpur?", MISREAD)
    assert order.index(MISREAD[13]) < order.index(MISREAD[14])  # light sleeper, carry-on


def test_a_weekend_stay_does_not_lift_a_time_of_day_preference(local: LocalEmbedder) -> None:
    order = rank(local, "Cheap digs in Lisbon for the weekend?", MISREAD)
    assert MISREAD[6] not in order[:5]  # "Mornings are for meetings, so fly me ..."
