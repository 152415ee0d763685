"""A change of mind said in free words (issue 22): it replaces the old preference, kept in
history, whether or not a slot knows it; offline, and with the fast model when one is
configured; where the engine is unsure it keeps both, and what the agent receives says
which is newer. Through the real `Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from memory.engine import Memory
from tests.conftest import MemoryFactory
from tests.memory.change_outcomes import assert_kept_both_unmarked, said_after
from tests.support.llm_server import Delay, ScriptedModel


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I'm fine with budget airlines", "I don't fly budget airlines anymore", id="en-no-more"
        ),
        pytest.param("I like evening flights", "I prefer morning flights now", id="en-time-of-day"),
        pytest.param("酒店订在公司附近", "酒店订在火车站附近", id="zh-no-cue-word"),
        pytest.param("喜欢有行政酒廊的酒店", "行政酒廊现在无所谓", id="zh-no-longer-matters"),
        pytest.param("我住万豪", "我住希尔顿", id="zh-hotel-chain-slot"),
        pytest.param(
            "红眼航班可以，省一晚房费", "红眼航班不坐了，太折腾", id="zh-saving-a-night-no-scope"
        ),
        pytest.param(
            "I'm loyal to Hilton", "I'm done with Hilton, Marriott from now on", id="en-done-with"
        ),
        pytest.param(
            "I stay at hotels", "I prefer serviced apartments now", id="en-another-kind-of-lodging"
        ),
        pytest.param("出差住酒店", "现在更喜欢住服务式公寓", id="zh-another-kind-of-lodging"),
        pytest.param(
            "I fly Ryanair to save money",
            "I'm done with Ryanair, I'd rather pay a bit more",
            id="en-budget-fact-about-flights",
        ),
        pytest.param(
            "喜欢吃辣，越辣越好", "现在胃不好，辣的吃不了了", id="zh-cannot-said-as-a-change"
        ),
        pytest.param(
            "为了省钱可以住青旅", "青旅不住了，太吵", id="zh-no-longer-staying-is-a-change"
        ),
        # round 7: giving-up words are a negative stance, not a liking
        pytest.param(
            "I stay at Hilton when I travel for work", "I'm done with Hilton", id="en-done-alone"
        ),
        pytest.param("我一般住希尔顿", "希尔顿就算了，服务越来越差", id="zh-jiu-suan-le"),
        pytest.param("每天早上要喝咖啡", "咖啡现在不喝了，睡不好", id="zh-bu-verb-le-same-verb"),
    ],
)
def test_a_change_said_in_free_words_supersedes_offline_and_keeps_history(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    [first] = memory.record(namespace, [old])
    assert memory.retrieve(namespace, "")  # cached before the change
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    assert outcome.replaced_ids == (first.item_id,)
    assert outcome.reason == f"replaces: {old}"
    assert [i.text for i in memory.items(namespace)] == [new]
    summary = memory.retrieve(namespace, "")
    assert new.rstrip("。.") in summary and old not in summary
    history = {row["text"]: row for row in memory.export(namespace)["items"]}
    assert history[old]["current"] is False
    assert history[old]["superseded_by"] == outcome.item_id


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I stay near the office", "In Shanghai I stay near the Bund", id="en-place"),
        pytest.param("I stay at Marriott", "I also stay at Hyatt", id="en-also"),
        pytest.param("不坐廉航", "海航也不坐", id="zh-also-avoid"),
        pytest.param("喜欢大型商务酒店", "度假的时候喜欢住民宿", id="zh-holidays"),
        pytest.param("I'm allergic to shellfish", "I'm allergic to peanuts", id="en-adds-up"),
    ],
)
def test_a_scoped_or_complementary_fact_keeps_both(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("我是南航明珠会员", "现在都坐国航了", id="zh-airline-membership"),
        pytest.param("I'm a Delta SkyMiles member", "These days I fly United", id="en-membership"),
        pytest.param("我是万豪会员", "最近改住希尔顿了", id="zh-hotel-membership"),
    ],
)
def test_a_membership_is_kept_when_the_traveller_now_chooses_another_brand(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    """A new airline or hotel chain does not end a membership the traveller still holds
    (the card still earns miles on a partner, the status still counts): both stay."""
    outcome = said_after(memory, namespace, old, new)
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {old, new}
    assert old in memory.retrieve(namespace, "")


TRAVELLER = [
    "I run every morning, so a hotel near a park is ideal",
    "Nothing before 8am, I hate early flights",
    "I need strong wifi for video calls in hotels",
    "I prefer Lyft to taxis",
    "I like evening flights",
    "I'm allergic to shellfish",
    "Marriott Bonvoy member, I stay Marriott whenever possible",
]


def test_among_many_facts_only_the_one_changed_is_superseded(
    memory: Memory, namespace: str
) -> None:
    outcomes = memory.record(namespace, TRAVELLER)
    assert [o.status for o in outcomes] == ["added"] * len(TRAVELLER)  # none replaces another
    evening = outcomes[TRAVELLER.index("I like evening flights")].item_id
    [outcome] = memory.record(namespace, ["I prefer morning flights now"])
    assert outcome.replaced_ids == (evening,)
    current = {i.text for i in memory.items(namespace)}
    assert current == (set(TRAVELLER) - {"I like evening flights"}) | {
        "I prefer morning flights now"
    }


def test_a_change_word_on_a_shared_subject_replaces_the_fact_it_is_about(
    memory: Memory, namespace: str
) -> None:
    """Breakfast and a departure time share a subject (meals of the day); "after lunch"
    is about when to fly, so the breakfast fact stays."""
    facts = ["I need breakfast included", "Morning departures work best for me"]
    outcomes = memory.record(namespace, facts)
    [outcome] = memory.record(namespace, ["I'd rather leave after lunch these days"])
    assert outcome.status == "updated", outcome
    assert outcome.replaced_ids == (outcomes[1].item_id,)
    assert {i.text for i in memory.items(namespace)} == {
        "I need breakfast included",
        "I'd rather leave after lunch these days",
    }


def test_a_scoped_fact_or_one_in_another_language_does_not_block_the_change(
    memory: Memory, namespace: str
) -> None:
    """The leisure-trips fact is closer in what it is about, but a general change cannot
    change a scoped fact: the general one is replaced; the scoped and the Chinese fact stay
    and the agent is told only the newer general preference."""
    facts = [
        "For leisure trips I like boutique hotels over big chains",
        "我喜欢提前两个小时到机场",
        "I like big business hotels",
        "I'm allergic to shellfish",
    ]
    outcomes = memory.record(namespace, facts)
    [outcome] = memory.record(namespace, ["I've switched to small boutique places"])
    assert outcome.status == "updated", outcome
    assert outcome.replaced_ids == (outcomes[2].item_id,)
    summary = memory.retrieve(namespace, "")
    assert "I like big business hotels" not in summary
    for kept in [facts[0], facts[1], facts[3], "I've switched to small boutique places"]:
        assert kept in summary


def test_two_facts_avoiding_different_things_add_up(memory: Memory, namespace: str) -> None:
    """ "No budget carriers" and "I never book non-refundable fares" share only a
    subject (money): no change of mind, both reach the agent."""
    memory.record(namespace, ["I never book non-refundable fares", "Aisle seat please"])
    [outcome] = memory.record(namespace, ["No budget carriers for me anymore"])
    assert outcome.status == "added", outcome
    summary = memory.retrieve(namespace, "")
    assert "I never book non-refundable fares" in summary
    assert "No budget carriers for me anymore" in summary


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("酒店房间要无烟的", "酒店房间要有办公桌", id="zh-generic-frame"),
        pytest.param("早餐必须有中式的", "I prefer hotels with free breakfast", id="slot-strength"),
    ],
)
def test_an_unrelated_detail_on_the_same_thing_keeps_both_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    """Two facts that share only generic words ("hotel room"), or a slot value said with
    another strength and another detail, are no change of mind: both stay, unmarked."""
    outcome = said_after(memory, namespace, old, new)
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {old, new}
    assert all(i.contested_by is None for i in memory.items(namespace))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "Fast wifi, I'm on calls all day", "No calls after 11pm", id="en-word-in-passing"
        ),
        pytest.param("怕冷，冬天别去太北的地方", "冬天喜欢去南方", id="zh-word-in-passing"),
        pytest.param(
            "酒店最好含早餐，早上我不想出去找吃的",
            "早上的航班太早我起不来，九点以后出发比较好",
            id="zh-after-nine-is-no-from-now-on",
        ),
        pytest.param(
            "Please keep my schedule light on Fridays, I like to wind down",
            "Window blinds that actually block light, I sleep late",
            id="en-actually-in-a-clause",
        ),
        pytest.param(
            "I like the aisle so I can stretch my legs",
            "Window blinds that block the light",
            id="en-blinds-are-no-window-seat",
        ),
        pytest.param("喜欢吃海鲜", "太油的菜真吃不了", id="zh-potential-complement-is-no-change"),
        pytest.param("房间要安静", "有一点噪音就睡不着了", id="zh-cannot-sleep-is-no-change"),
        pytest.param(
            "早餐要有咖啡", "不爱喝茶，还是咖啡好", id="zh-haishi-is-rather-not-changed-to"
        ),
        pytest.param("下午的航班最好", "下午的会别排太满", id="zh-a-meeting-is-not-a-flight"),
        pytest.param(
            "晚上喜欢去夜市逛逛", "晚上别订太晚到的航班", id="zh-a-flight-is-not-a-night-market"
        ),
        pytest.param(
            "I like long walks in a new city",
            "No more than a ten-minute walk from the hotel to the metro",
            id="en-no-more-than-is-no-change",
        ),
        pytest.param(
            "I stay in big chain hotels",
            "Now and then I'll try a small boutique hotel",
            id="en-now-and-then-is-no-change",
        ),
    ],
)
def test_one_persons_unrelated_preferences_recorded_one_after_another_all_stay(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    """A reversed stance on a word said in passing or on another thing ("会", "航班"), a
    time ("九点以后"), an intensifier, a potential complement ("吃不了", "睡不着"), "还是"
    (rather), "no more than" or "now and then" read as a change word, or window blinds read
    as a window seat, replaced a person's preference by another they hold too; the agent
    then lost the first."""
    outcome = said_after(memory, namespace, old, new)
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {old, new}
    assert all(i.contested_by is None for i in memory.items(namespace))
    summary = memory.retrieve(namespace, "")
    assert old.rstrip("。.") in summary and new.rstrip("。.") in summary


@pytest.mark.parametrize(
    ("old", "new", "newer_note", "older_note"),
    [
        pytest.param(
            "I like Marriott hotels",
            "I like Hyatt hotels",
            " (newer, said ",
            " (older, said ",
            id="en",
        ),
        pytest.param("喜欢晚上的航班", "喜欢早上的航班", "（较新，", "（较早，", id="zh"),
        # round 5: a change said about a shared subject just under the similarity floor
        pytest.param(
            "Find me something downtown",
            "From now on book hotels close to the airport",
            " (newer, said ",
            " (older, said ",
            id="en-just-under-the-floor",
        ),
        # round 6: a narrower case, or another activity, on a shared word is no
        # replacement (the older may still hold), but the newer is marked newer
        pytest.param(
            "I take lots of pictures of street art",
            "I don't print my pictures anymore",
            " (newer, said ",
            " (older, said ",
            id="en-another-activity-on-a-shared-word",
        ),
        pytest.param(
            "每天早上要喝咖啡",
            "机场的咖啡不买了，太贵",
            "（较新，",
            "（较早，",
            id="zh-a-narrower-case",
        ),
        # round 6: a change with no shared word, whose object is close in meaning
        pytest.param(
            "I always pack my noise-cancelling headphones",
            "I've switched to earplugs, they're lighter",
            " (newer, said ",
            " (older, said ",
            id="en-no-shared-word-close-objects",
        ),
        pytest.param(
            "出门带纸质地图", "现在都用导航软件了", "（较新，", "（较早，", id="zh-no-shared-word"
        ),
        # round 7: a narrower case given up with a giving-up word, another verb in 不…了,
        # and a general change about what an older fact limited to a scope said
        pytest.param(
            "喜欢逛博物馆", "排长队的博物馆就算了", "（较新，", "（较早，", id="zh-narrower-case"
        ),
        pytest.param(
            "喜欢拍照片", "现在照片不洗出来了", "（较新，", "（较早，", id="zh-bu-another-verb-le"
        ),
        pytest.param(
            "I love street markets",
            "I'm done with tourist-trap markets",
            " (newer, said ",
            " (older, said ",
            id="en-narrower-done-with",
        ),
        pytest.param(
            "A spa treatment is a must on every holiday",
            "I skip the spa these days, it's not worth the money",
            " (newer, said ",
            " (older, said ",
            id="en-general-change-of-a-scoped-fact",
        ),
    ],
)
def test_an_unsure_change_keeps_both_and_the_agent_is_told_which_is_newer(
    memory: Memory, namespace: str, old: str, new: str, newer_note: str, older_note: str
) -> None:
    [first] = memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "added", outcome
    items = {i.text: i for i in memory.items(namespace)}
    assert items[old].contested_by == outcome.item_id
    day = items[new].created_at.date().isoformat()
    for _ in range(2):  # from the store, then from the cached summary
        summary = memory.retrieve(namespace, "")
        assert summary.index(new) < summary.index(old), summary
        assert f"{new}{newer_note}{day}" in summary
        assert older_note in summary
    # a request-specific recall from the cached facts (not the cached summary) says it too
    summary = memory.retrieve(namespace, old)
    assert summary.index(new) < summary.index(old) and newer_note in summary
    exported = {row["text"]: row for row in memory.export(namespace)["items"]}
    assert exported[old]["current"] is True
    assert exported[old]["contested_by"] == outcome.item_id
    # forgetting the newer fact leaves the older one as it was, without a note
    assert memory.forget(namespace, outcome.item_id) == 1
    assert memory.retrieve(namespace, "").rstrip("。.") == old
    assert [i.id for i in memory.items(namespace)] == [first.item_id]


# -- with the fast model ---------------------------------------------------------------


@pytest.fixture
def fast_model() -> Iterator[ScriptedModel]:
    with ScriptedModel() as model:
        yield model


def _judged(make_memory: MemoryFactory, model: ScriptedModel, **overrides: Any) -> Memory:
    return make_memory(llm_fast_model="fast", openai_base_url=model.base_url, **overrides)


def _shown(request: dict[str, Any]) -> dict[str, str]:
    """The existing facts the model was shown: text -> id."""
    prompt = request["messages"][-1]["content"]
    lines = prompt.split("Existing facts (id: text):\n")[1].split("\n\nNew fact:")[0]
    return {line[34:]: line[:32] for line in lines.splitlines()}


def test_the_fast_model_decides_a_change_the_offline_rule_misses(
    make_memory: MemoryFactory, fast_model: ScriptedModel, namespace: str
) -> None:
    memory = _judged(make_memory, fast_model)
    [old] = memory.record(namespace, ["I rent from Hertz"])
    fast_model.script(
        lambda req: json.dumps({"action": "update", "replaces": [_shown(req)["I rent from Hertz"]]})
    )
    [outcome] = memory.record(namespace, ["Avis is my rental company now"])
    assert outcome.status == "updated" and outcome.replaced_ids == (old.item_id,)
    assert [i.text for i in memory.items(namespace)] == ["Avis is my rental company now"]
    summary = memory.retrieve(namespace, "")
    assert "Avis is my rental company now" in summary and "Hertz" not in summary


def test_the_fast_model_overrules_the_offline_rule(
    make_memory: MemoryFactory, fast_model: ScriptedModel, namespace: str
) -> None:
    memory = _judged(make_memory, fast_model)
    memory.record(namespace, ["I like evening flights"])
    fast_model.script(json.dumps({"action": "add", "replaces": []}))
    [outcome] = memory.record(namespace, ["I prefer morning flights now"])
    assert outcome.status == "added"
    assert len(memory.items(namespace)) == 2


def test_the_fast_model_judges_two_hotel_chains_and_can_be_unsure(
    make_memory: MemoryFactory, fast_model: ScriptedModel, namespace: str
) -> None:
    """Two preferred options of one slot reach the model (the slot rules keep both); its
    "unsure" keeps both and marks the newer, where the offline rule would replace."""
    memory = _judged(make_memory, fast_model)
    memory.record(namespace, ["I always stay at Marriott"])
    fast_model.script(
        lambda req: json.dumps(
            {"action": "unsure", "replaces": [_shown(req)["I always stay at Marriott"]]}
        )
    )
    [outcome] = memory.record(namespace, ["I stay at Hilton these days"])
    assert outcome.status == "added"
    summary = memory.retrieve(namespace, "")
    assert summary.index("I stay at Hilton these days (newer, said ") < summary.index("Marriott")
    assert memory.profile(namespace) == {"preferred_hotel_brands": ["hilton", "marriott"]}


def test_the_fast_model_is_shown_a_change_said_in_other_words(
    make_memory: MemoryFactory, fast_model: ScriptedModel, namespace: str
) -> None:
    """ "Downtown" and "close to the airport" are far apart as sentences; as what they are
    about (where to stay) they are the closest, so the model sees the older fact."""
    memory = _judged(make_memory, fast_model)
    facts = ["I'm allergic to shellfish", "Find me something downtown", "Aisle seat please"]
    outcomes = memory.record(namespace, facts)
    fast_model.script(
        lambda req: json.dumps(
            {"action": "update", "replaces": [_shown(req)["Find me something downtown"]]}
        )
    )
    [outcome] = memory.record(namespace, ["From now on book hotels close to the airport"])
    assert outcome.status == "updated" and outcome.replaced_ids == (outcomes[1].item_id,)
    assert "I'm allergic to shellfish" in {i.text for i in memory.items(namespace)}


def test_a_model_slower_than_its_timeout_leaves_the_decision_to_the_offline_rule(
    make_memory: MemoryFactory, fast_model: ScriptedModel, namespace: str
) -> None:
    memory = _judged(make_memory, fast_model, llm_timeout_seconds=0.5)
    [old] = memory.record(namespace, ["廉航也可以坐"])
    answer = Delay(3.0, then=json.dumps({"action": "add", "replaces": []}))
    fast_model.script(answer, answer, answer)  # the client may retry a timeout
    [outcome] = memory.record(namespace, ["现在不坐廉航了"])
    assert fast_model.requests, "the model was asked"
    assert outcome.status == "updated" and outcome.replaced_ids == (old.item_id,)
    assert [i.text for i in memory.items(namespace)] == ["现在不坐廉航了"]


def test_a_change_just_under_the_floor_among_other_facts_is_marked_newer_first(
    memory: Memory, namespace: str
) -> None:
    """Round 5: the unsure band marks the fact the change is about (it must be the closest
    in aspect: `_ASPECT_MARGIN[0]`), not the traveller's others, and what the agent
    receives puts the newer first with its note."""
    others = ["I'm allergic to peanuts", "I eat anything", "I pay with a corporate card"]
    memory.record(namespace, others)
    old, new = "Find me something downtown", "From now on book hotels close to the airport"
    outcome = said_after(memory, namespace, old, new)
    assert outcome.status == "added" and outcome.replaced_ids == ()
    marked = {i.text for i in memory.items(namespace) if i.contested_by == outcome.item_id}
    assert marked == {old}
    summary = memory.retrieve(namespace, "")
    assert summary.index(f"{new} (newer, said ") < summary.index(f"{old} (older, said ")
    for text in others:
        assert text.rstrip(".") in summary and f"{text} (older" not in summary


def test_a_single_slot_value_limited_to_a_mode_is_changed_in_free_words(
    memory: Memory, namespace: str
) -> None:
    """Round 5: "hotel night" limits the older red-eye fact to a mode only; the newer one,
    general, says a change on the same word: it replaces, kept in history."""
    [old] = memory.record(namespace, ["I like red-eye flights to save a hotel night"])
    [new] = memory.record(namespace, ["No more red-eyes, I can't sleep on planes"])
    assert new.status == "updated" and new.replaced_ids == (old.item_id,)
    history = {r["text"]: r for r in memory.export(namespace)["items"]}
    assert history["I like red-eye flights to save a hotel night"]["current"] is False


def test_two_seat_values_of_two_modes_said_without_a_change_keep_both_unmarked(
    memory: Memory, namespace: str
) -> None:
    memory.record(namespace, ["坐飞机要靠窗，孩子喜欢看"])
    [new] = memory.record(namespace, ["我喜欢过道"])
    assert new.status == "added"
    assert all(i.contested_by is None for i in memory.items(namespace))


def test_a_change_about_two_facts_alike_keeps_both_marked_rather_than_replace_the_wrong_one(
    memory: Memory, namespace: str
) -> None:
    """Round 5: the offline reader finds "打车换成高德了" changes two facts on a shared
    word (打车), about as close in text and aspect; it cannot tell which, and a wrong
    replacement would be lost to the agent: both stay, each marked older, the newer
    first in the summary."""
    olds = ["打车喜欢滴滴专车", "打车用滴滴"]
    for text in olds:
        memory.record(namespace, [text])
    [outcome] = memory.record(namespace, ["打车换成高德了"])
    assert outcome.status == "added" and outcome.replaced_ids == ()
    marked = {i.text for i in memory.items(namespace) if i.contested_by == outcome.item_id}
    assert marked == set(olds)
    summary = memory.retrieve(namespace, "")
    newer = summary.index("打车换成高德了（较新，")
    assert all(newer < summary.index(f"{text}（较早，") for text in olds), summary


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        pytest.param(
            "我喜欢安静，老伴爱拍照", "老伴现在不爱拍照了", True, id="zh-companion-changes"
        ),
        pytest.param("My kids love theme parks", "We hate theme parks now", True, id="en-we"),
        pytest.param("我喜欢安静，老伴爱拍照", "拍照我不喜欢，老伴拍就行", False, id="zh-own"),
        pytest.param("I love hiking", "My husband doesn't like hiking, his knees", False, id="en"),
    ],
)
def test_a_companions_change_of_mind_replaces_their_liking_and_the_writers_own_dislike_does_not(
    memory: Memory, namespace: str, old: str, new: str, replaced: bool
) -> None:
    """Round 24 review: of several likings in a fact, the one about what the other fact is
    about is whose it is; "we" speaks for the family too."""
    outcome = said_after(memory, namespace, old, new)
    current = {i.text for i in memory.items(namespace)}
    assert current == ({new} if replaced else {old, new}), outcome
    assert (outcome.status == "updated") is replaced


@pytest.mark.parametrize(
    ("old", "new", "ask"),
    [
        pytest.param(
            "I always stay at Hyatt",
            "I've dropped Hyatt, I stay at the Standard now",
            "Book me a hotel in Chicago for next Tuesday",
            id="en-dropped-for-a-hotel-no-list-names",
        ),
        pytest.param(
            "出差一直住凯悦",
            "凯悦不住了，现在都住丽思卡尔顿",
            "下周去成都出差，帮我订个酒店",
            id="zh-given-up-for-another-chain",
        ),
    ],
)
def test_a_hotel_chain_dropped_reaches_the_agent_as_the_current_choice(
    memory: Memory, namespace: str, old: str, new: str, ask: str
) -> None:
    """Among a traveller's other preferences, what the agent receives for a hotel request
    carries the new hotel and not the dropped chain as a current preference; the old one
    stays in history."""
    others = ["I prefer aisle seats", "No red-eye flights please", "早餐要有中式的"]
    memory.record(namespace, [*others, old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    text = memory.retrieve(namespace, ask)
    assert new.rstrip("。.") in text
    assert old not in text
    history = {row["text"]: row for row in memory.export(namespace)["items"]}
    assert history[old]["current"] is False
    assert all(history[o]["current"] for o in others)
