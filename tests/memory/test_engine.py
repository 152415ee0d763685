"""Behaviour of the memory engine as its users see it, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading

import pytest

from memory import StoreUnavailable, open_memory
from memory.engine import Memory
from memory.settings import MemorySettings
from tests.conftest import MemoryFactory

RED_EYE = "I never take red-eye flights"
RAIL = "出差只坐高铁一等座"


def test_semantic_recall_in_chinese_ranks_the_rail_fact_first(
    memory: Memory, namespace: str
) -> None:
    memory.record(
        namespace,
        [RED_EYE, "我喜欢吃辣", RAIL, "I like museums on weekends", "酒店要含早餐"],
    )
    hits = memory.search(namespace, "按我平时的习惯规划去广州", limit=5)
    assert hits[0].text == RAIL
    assert hits[0].score > hits[-1].score


def test_one_travellers_chinese_facts_are_found_by_requests_that_share_no_word(
    memory: Memory, namespace: str
) -> None:
    red_eye = "从不坐红眼航班，太累了"
    facts = [red_eye, "坐高铁只买二等座", "酒店一定要含早餐", "喜欢住希尔顿", "不吃辣"]
    facts += ["转机最多一次", "打车只坐专车", "行李从来不托运", "出差预算有限"]
    memory.record(namespace, [*facts, "I prefer aisle seats on trains"])
    for request in ("有没有凌晨一点起飞的便宜机票", "Any cheap flights leaving at 1am?"):
        assert red_eye in [hit.text for hit in memory.search(namespace, request, limit=3)]


def test_semantic_recall_in_english(memory: Memory, namespace: str) -> None:
    memory.record(namespace, [RED_EYE, "I love spicy food", "Hotels must have a gym"])
    hits = memory.search(namespace, "book me an overnight flight", limit=3)
    assert hits[0].text == RED_EYE


def test_record_reports_one_outcome_per_fact_in_order(memory: Memory, namespace: str) -> None:
    outcomes = memory.record(namespace, [RED_EYE, "", "I like window seats", RED_EYE + "."])
    assert [o.status for o in outcomes] == ["added", "rejected", "added", "duplicate"]
    assert outcomes[1].reason == "empty fact"
    assert outcomes[3].item_id == outcomes[0].item_id
    assert all(o.item_id for o in outcomes if o.status != "rejected")


def test_facts_are_kept_in_the_users_words_and_language(memory: Memory, namespace: str) -> None:
    memory.record(namespace, [RAIL, RED_EYE])
    texts = {item.text for item in memory.items(namespace)}
    assert texts == {RAIL, RED_EYE}


def test_namespaces_never_see_each_other(make_memory: MemoryFactory) -> None:
    mem = make_memory()
    mem.record("T1:alice", ["I never take red-eye flights"])
    mem.record("T1:bob", ["I love red-eye flights, they save a hotel night"])
    assert [i.text for i in mem.search("T1:alice", "red-eye", limit=10)] == [
        "I never take red-eye flights"
    ]
    assert "never" not in mem.retrieve("T1:bob", "red-eye")
    assert "love" not in mem.retrieve("T1:alice", "red-eye")
    assert mem.retrieve("T2:alice", "red-eye") == ""
    assert mem.profile("T1:bob") != mem.profile("T1:alice") or mem.profile("T1:bob") == {}


def test_slot_fact_supersedes_the_previous_value_and_history_is_exported(
    memory: Memory, namespace: str
) -> None:
    first = memory.record(namespace, ["I like window seats"])[0]
    second = memory.record(namespace, ["Now I prefer aisle seats"])[0]
    assert second.status == "updated"
    assert "window" in second.reason
    assert memory.profile(namespace)["seat"] == "aisle"
    assert [i.text for i in memory.search(namespace, "which seat do I like", limit=5)] == [
        "Now I prefer aisle seats"
    ]
    exported = memory.export(namespace)
    json.dumps(exported)  # JSON-serialisable
    old = next(i for i in exported["items"] if i["id"] == first.item_id)
    assert old["current"] is False
    assert old["invalid_at"] is not None
    assert old["superseded_by"] == second.item_id


def test_conflicting_free_text_without_llm_supersedes_and_keeps_history(
    memory: Memory, namespace: str
) -> None:
    """Issue 22: a change of mind no slot knows replaces the old fact offline too (it
    used to keep both); the old one stays in history."""
    [first] = memory.record(namespace, ["我喜欢吃辣"])
    outcome = memory.record(namespace, ["我不吃辣"])[0]
    assert outcome.status == "updated"
    assert outcome.replaced_ids == (first.item_id,)
    assert [i.text for i in memory.items(namespace)] == ["我不吃辣"]
    history = {row["text"]: row for row in memory.export(namespace)["items"]}
    assert history["我喜欢吃辣"]["current"] is False
    assert history["我喜欢吃辣"]["superseded_by"] == outcome.item_id


def test_similar_but_different_facts_are_not_duplicates(memory: Memory, namespace: str) -> None:
    memory.record(namespace, ["Max 1 transfer on long trips"])
    outcome = memory.record(namespace, ["Max 2 transfers on long trips"])[0]
    assert outcome.status != "duplicate"


def test_update_profile_supersedes_and_clears(memory: Memory, namespace: str) -> None:
    memory.record(namespace, ["I like window seats"])
    memory.update_profile(namespace, {"seat": "aisle", "breakfast": "required"})
    assert memory.profile(namespace) == {"seat": "aisle", "breakfast": "required"}
    memory.update_profile(namespace, {"seat": None})
    assert memory.profile(namespace) == {"breakfast": "required"}
    history = memory.export(namespace)["items"]
    assert sum(1 for i in history if i["slot"] == "seat" and not i["current"]) == 2
    assert all(i["source"] == "form" for i in history if i["slot"] == "breakfast")


def test_update_profile_rejects_values_outside_the_schema(memory: Memory, namespace: str) -> None:
    from memory import InvalidSlotValue

    with pytest.raises(InvalidSlotValue):
        memory.update_profile(namespace, {"seat": "on the wing"})
    with pytest.raises(InvalidSlotValue):
        memory.update_profile(namespace, {"no_such_slot": "x"})
    assert memory.profile(namespace) == {}


def test_retrieve_is_a_budgeted_summary_with_hard_constraints_first(
    make_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory(memory_summary_max_facts=3, memory_summary_max_chars=120)
    mem.record(
        namespace,
        ["我喜欢靠窗的座位", "我喜欢博物馆", "我从不坐红眼航班", "酒店要含早餐", "我喜欢吃辣"],
    )
    summary = mem.retrieve(namespace, "规划去成都的行程")
    assert summary.endswith("。")
    parts = summary.rstrip("。").split("；")
    assert len(parts) <= 3
    assert len(summary) <= 120
    assert parts[0] in ("我从不坐红眼航班", "酒店要含早餐")


def test_empty_memory_gives_empty_summary(memory: Memory, namespace: str) -> None:
    assert memory.retrieve(namespace, "anything") == ""
    assert memory.search(namespace, "anything") == []
    assert memory.profile(namespace) == {}


def test_limits_and_bad_input_are_rejected_with_reasons(memory: Memory, namespace: str) -> None:
    facts = ["   ", "bad\x00fact", "x" * 501, *[f"I like city {i} in spring" for i in range(25)]]
    outcomes = memory.record(namespace, facts)
    assert len(outcomes) == len(facts)
    assert outcomes[0].reason == "empty fact"
    assert "control" in outcomes[1].reason
    assert "too long" in outcomes[2].reason
    assert all("too many" in o.reason for o in outcomes[20:])
    assert len(memory.items(namespace)) == 17


def test_namespace_cap_on_current_facts(make_memory: MemoryFactory, namespace: str) -> None:
    assert MemorySettings().memory_max_facts_per_namespace == 500
    # The configured cap may not go below 500; a smaller one (set past validation)
    # exercises the same code without embedding 500 facts.
    mem = make_memory(memory_max_facts_per_namespace=40)
    facts = [f"Preference number {i}: I enjoy destination {i * 7919 % 10007}" for i in range(40)]
    for start in range(0, 40, 20):
        mem.record(namespace, facts[start : start + 20])
    assert len(mem.items(namespace)) == 40
    outcome = mem.record(namespace, ["I like quiet hotel rooms"])[0]
    assert outcome.status == "rejected"
    assert "full" in outcome.reason


def test_privacy_guard_rejects_with_a_reason_to_relay(memory: Memory, namespace: str) -> None:
    outcome = memory.record(namespace, ["My hotel budget is 800 yuan a night"])[0]
    assert outcome.status == "rejected"
    assert "amount" in outcome.reason
    assert memory.items(namespace) == []


def test_forget_one_item_and_everything(memory: Memory, namespace: str) -> None:
    first = memory.record(namespace, ["I like window seats"])[0]
    memory.record(namespace, ["Now I prefer aisle seats", RED_EYE])
    aisle = next(i for i in memory.items(namespace) if "aisle" in i.text)
    # forgetting a fact also erases the older version it replaced
    assert memory.forget(namespace, aisle.id) == 2
    assert all(i["id"] != first.item_id for i in memory.export(namespace)["items"])
    assert memory.forget(namespace, "no-such-id") == 0
    assert memory.forget(namespace) == 1
    assert memory.export(namespace)["items"] == []


def test_concurrent_writers_to_one_namespace_never_corrupt_it(
    make_memory: MemoryFactory, namespace: str
) -> None:
    mems = [make_memory(), make_memory()]
    seats = ["I like window seats", "Now I prefer aisle seats"]
    errors: list[BaseException] = []

    def writer(k: int) -> None:
        try:
            for i in range(6):
                mem = mems[k % 2]
                mem.record(namespace, [seats[(i + k) % 2], f"Writer {k} likes city number {i}"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    current = mems[0].items(namespace)
    assert sum(1 for i in current if i.slot == "seat") == 1
    assert len([i for i in current if i.slot is None]) == 24


def test_database_down_recall_is_empty_and_record_raises(tmp_path: object) -> None:
    mem = open_memory(dsn="postgresql://postgres@127.0.0.1:1/nowhere", redis_url="")
    try:
        assert mem.retrieve("T1:U1", "plan my trip") == ""
        with pytest.raises(StoreUnavailable):
            mem.record("T1:U1", [RED_EYE])
    finally:
        mem.close()


def test_reopening_keeps_everything(dsn: str, namespace: str) -> None:
    first = open_memory(dsn=dsn, redis_url="")
    first.record(namespace, [RED_EYE, RAIL])
    first.close()
    again = open_memory(dsn=dsn, redis_url="")
    try:
        assert {i.text for i in again.items(namespace)} == {RED_EYE, RAIL}
    finally:
        again.close()


def test_a_partly_contradicted_airline_fact_keeps_the_rest(memory: Memory, namespace: str) -> None:
    memory.record(namespace, ["I avoid Air China and China Eastern"])
    outcome = memory.record(namespace, ["I prefer China Eastern"])[0]
    assert outcome.status == "updated"
    assert memory.profile(namespace) == {
        "avoided_airlines": ["CA"],
        "preferred_airlines": ["MU"],
    }
    assert "Air China" in memory.retrieve(namespace, "book a flight")


def test_facts_stored_by_another_embedding_model_are_re_embedded_on_write(
    memory: Memory, namespace: str
) -> None:
    memory.record(namespace, [RED_EYE])
    # as left by a deployment that used a 64-dimensional embedding model
    with memory.store.backend.transaction(namespace) as cur:
        cur.execute(
            memory.store.backend.sql(
                "UPDATE memory_items SET embedding = %s, embedding_model = %s WHERE namespace = %s"
            ),
            (memory.store.backend.blob(bytes(64 * 4)), "openai:old-model", namespace),
        )
    outcomes = memory.record(namespace, [RAIL, RED_EYE])
    assert [o.status for o in outcomes] == ["added", "duplicate"]
    assert memory.search(namespace, "red-eye flights", limit=1)[0].text == RED_EYE


def test_the_fact_that_matters_is_never_pushed_out_by_unrelated_constraints(
    make_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory(memory_summary_max_facts=3)
    constraints = ["我从不坐红眼航班", "出差只坐高铁一等座", "我不吃香菜", "不坐大巴", "必须直飞"]
    mem.record(namespace, [*constraints, "住的地方附近要有健身房，我每天早上练一练"])
    summary = mem.retrieve(namespace, "帮我在杭州找个落脚的酒店")
    assert summary.startswith("住的地方附近要有健身房")  # the relevant fact first
    assert len(summary.rstrip("。").split("；")) == 3


def test_the_default_budget_holds_a_whole_profile_of_thirty_preferences(
    memory: Memory, namespace: str
) -> None:
    facts = [
        "我从不坐红眼航班",
        "出差只坐高铁一等座",
        "酒店要含早餐",
        "I prefer aisle seats",
        "No more than one connection",
        "Vegetarian meals on flights, please",
        "I like hotels within walking distance of the office",
        "喜欢离地铁站近的酒店",
        "我对花生过敏",
        "房间要安静，别在电梯旁边",
        "I collect Marriott points",
        "行李一般就一个登机箱",
        "Coffee within walking distance is a must",
        "我晕车，长途大巴就算了",
        "吃辣没问题，越辣越好",
        "I run every morning, so a gym matters",
        "我习惯用携程订票",
        "去机场我喜欢坐地铁",
        "住酒店要有浴缸",
        "I like museums on a free afternoon",
        "不吃香菜",
        "Pet-friendly places when I bring my dog",
        "行程别排太满，中午要休息一下",
        "I love trying local street food",
        "Refundable fares please, my plans change a lot",
        "喜欢住有设计感的小众酒店",
        "I'm allergic to shellfish",
        "出国最好有中文服务",
        "Late checkout on Sundays",
        "喜欢看日落",
    ]
    for start in range(0, len(facts), 20):
        memory.record(namespace, facts[start : start + 20])
    kept = [item.text for item in memory.items(namespace)]
    assert len(kept) >= 25
    for request in ("", "帮我订去成都的高铁", "find me a hotel in Oslo"):
        summary = memory.retrieve(namespace, request)
        assert all(text in summary for text in kept), request
