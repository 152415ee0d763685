"""BailianMemory against the local fake service and the real Redis cache."""

from __future__ import annotations

import logging
import time

import pytest

from memory.bailian import BailianMemory
from memory.bailian.schema import ensure_profile_schema
from memory.errors import InvalidNamespace, StoreUnavailable
from memory.profile import load_schema
from tests.conftest import BailianFactory
from tests.support.bailian_api import Fail, FakeBailian, Malformed, Slow
from tests.support.services import free_port


def generation(mem: BailianMemory, namespace: str) -> int:
    return int(mem.cache.generation(namespace) or 0)


def test_a_fact_is_sent_as_a_message_of_the_traveller(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    [outcome] = bailian_memory.record(namespace, ["I never take red-eye flights"], source="chat")
    assert outcome.status == "added" and "accepted" in outcome.reason
    [request] = bailian.calls("add-async")
    assert request.body == {
        "user_id": namespace,
        "messages": [{"role": "user", "content": "I never take red-eye flights"}],
        "meta_data": {"source": "chat"},
    }
    assert bailian_memory.follower.settle()
    assert bailian_memory.retrieve(namespace, "red-eye flights to Chengdu") == (
        "I never take red-eye flights."
    )
    [item] = bailian_memory.items(namespace)
    assert (item.slot, item.value, item.source) == ("red_eye", "avoid", "chat")


def test_a_refused_fact_never_leaves_the_machine(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    outcomes = bailian_memory.record(
        namespace, ["My passport number is G12345678", "I prefer aisle seats", "预算：3000"]
    )
    assert [o.status for o in outcomes] == ["rejected", "added", "rejected"]
    assert [o.code for o in outcomes] == ["id", "", "amount"]
    sent = bailian.sent()
    # (the namespace is random hex: "3000" could stand in it, "预算" never does)
    assert "G12345678" not in sent and "预算" not in sent
    assert "I prefer aisle seats" in sent
    # A call whose every fact is refused sends nothing at all.
    bailian.requests.clear()
    [outcome] = bailian_memory.record(namespace, ["my card is 4111 1111 1111 1111"])
    assert outcome.status == "rejected"
    assert bailian.calls("add-async") == [] and bailian.calls("add") == []


def test_a_recall_request_goes_out_with_sensitive_spans_redacted(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.add_node(namespace, "I prefer aisle seats")
    bailian_memory.recall(namespace, "book with passport G12345678 an aisle seat")
    [search] = bailian.calls("memory_nodes/search")
    assert "G12345678" not in bailian.sent()
    assert "aisle seat" in search.body["messages"][0]["content"]  # type: ignore[index]


def test_namespaces_are_walls_even_when_the_service_answers_sloppily(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.add_node(namespace, "I prefer aisle seats on trains")
    theirs = bailian.add_node(f"{namespace}X", "I prefer window seats on trains, secret colleague")
    bailian.sloppy = True
    everything = [
        bailian_memory.retrieve(namespace, "seats on trains"),
        bailian_memory.retrieve(namespace),
        *(i.text for i in bailian_memory.search(namespace, "window seats on trains")),
        *(i.text for i in bailian_memory.items(namespace)),
        str(bailian_memory.export(namespace)),
        str(bailian_memory.profile(namespace)),
    ]
    assert not any("colleague" in text for text in everything)
    assert any("aisle" in text for text in everything)
    # Deleting by id is not checked by the service: only the traveller's own ids go out.
    assert bailian_memory.forget(namespace, theirs) == 0
    assert bailian.calls(f"memory_nodes/{theirs}") == []
    assert bailian_memory.forget(namespace) == 1
    assert bailian.visible(f"{namespace}X") == ["I prefer window seats on trains, secret colleague"]
    for request in bailian.requests:
        uid = (request.body or {}).get("user_id") or request.query.get("user_id")
        assert uid in (None, namespace)


def test_the_cache_is_invalidated_on_acceptance_and_again_when_visible(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.hold_events = True
    writer, reader = make_bailian(), make_bailian()  # two processes, one Redis
    bailian.add_node(namespace, "出差只坐高铁一等座")
    assert reader.retrieve(namespace) == "出差只坐高铁一等座。"
    before = generation(reader, namespace)
    writer.record(namespace, ["酒店要含早餐"])
    assert generation(reader, namespace) == before + 1  # on acceptance
    # Extraction still running: a recall now reads (and caches) what Bailian shows.
    assert "早餐" not in reader.retrieve(namespace)
    assert reader.recall(namespace).cached
    bailian.complete_events()
    started = time.monotonic()
    assert writer.follower.settle(5)
    assert time.monotonic() - started < 2  # about one poll (0.05 s here)
    assert generation(reader, namespace) == before + 2  # when visible
    recalled = reader.recall(namespace)
    assert not recalled.cached and "酒店要含早餐" in recalled.summary
    assert writer.follower.counts["visible"] == 1


def test_a_write_still_invisible_after_the_timeout_is_invalidated_anyway(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.hold_events = True
    mem = make_bailian(bailian_event_timeout_seconds=0.3)
    mem.record(namespace, ["I prefer aisle seats"])
    before = generation(mem, namespace)
    assert mem.follower.settle(5)
    assert generation(mem, namespace) == before + 1
    assert mem.follower.counts["timed_out"] == 1


def test_sync_writes_report_the_service_changes_and_invalidate_after_a_delay(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    # A delay long enough that no delayed invalidation lands before `before` is read, even
    # on a loaded machine (0.2 s did once).
    mem = make_bailian(bailian_write_mode="sync", bailian_visibility_delay_seconds=1.5)
    [added] = mem.record(namespace, ["I prefer aisle seats"])
    assert added.status == "added" and added.item_id
    assert bailian.calls("add") and not bailian.calls("add-async")
    [again] = mem.record(namespace, ["I prefer aisle seats"])
    assert again.status == "duplicate"
    before = generation(mem, namespace)
    assert mem.follower.settle(10)
    assert generation(mem, namespace) == before + 2  # one delayed invalidation per write


@pytest.mark.parametrize(
    "fault",
    [Fail(500), Malformed(), Slow(1.5), Fail(429, retry_after=60)],
    ids=["server-error", "malformed", "slow", "rate-limited"],
)
def test_a_failing_service_makes_recall_unavailable_and_a_write_not_saved(
    make_bailian: BailianFactory, bailian: FakeBailian, fault: object, namespace: str
) -> None:
    mem = make_bailian(
        bailian_timeout_seconds=0.5, bailian_max_retry_wait_seconds=1, bailian_max_retries=1
    )
    bailian.fault(*[fault] * 8)  # type: ignore[arg-type]
    recalled = mem.recall(namespace, "plan my trip")
    assert (recalled.status, recalled.summary) == ("unavailable", "")
    with pytest.raises(StoreUnavailable):
        mem.record(namespace, ["I prefer aisle seats"])


def test_an_unreachable_service(make_bailian: BailianFactory, namespace: str) -> None:
    mem = make_bailian(bailian_base_url=f"http://127.0.0.1:{free_port()}/api/v2/apps/memory")
    assert mem.recall(namespace, "plan my trip").status == "unavailable"
    with pytest.raises(StoreUnavailable):
        mem.record(namespace, ["I prefer aisle seats"])
    assert mem.health()["database"] is False


def test_an_invalid_namespace_never_reaches_the_service(
    bailian_memory: BailianMemory, bailian: FakeBailian
) -> None:
    odd = "slack:T1:U\ud800"
    assert bailian_memory.recall(odd, "plan my trip \udc00").summary == ""
    assert bailian_memory.recall(odd).status == "empty"
    with pytest.raises(InvalidNamespace):
        bailian_memory.record(odd, ["I prefer aisle seats"])
    with pytest.raises(InvalidNamespace):
        bailian_memory.forget(odd)
    assert bailian.requests == []


def test_a_bad_key_logs_one_clear_line_and_recall_is_unavailable(
    make_bailian: BailianFactory, caplog: pytest.LogCaptureFixture, namespace: str
) -> None:
    mem = make_bailian(dashscope_api_key="sk-wrong")
    with caplog.at_level(logging.WARNING):
        for query in ("plan my trip", "hotel in Chengdu", ""):
            assert mem.recall(namespace, query).status == "unavailable"
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and "DASHSCOPE_API_KEY" in lines[0].getMessage()


def test_a_429_with_a_short_retry_after_is_waited_for(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.add_node(namespace, "I prefer aisle seats")
    bailian.fault(Fail(429, retry_after=0.2), path="search")
    assert bailian_memory.recall(namespace, "aisle seats").summary == "I prefer aisle seats."


def test_a_repeated_request_is_answered_from_the_cache(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.add_node(namespace, "I prefer aisle seats")
    first = bailian_memory.recall(namespace, "aisle seats please")
    second = bailian_memory.recall(namespace, "Aisle seats  please")
    assert (first.cached, second.cached) == (False, True)
    assert first.summary == second.summary
    assert len(bailian.calls("memory_nodes/search")) == 1


def test_a_warmed_traveller_is_answered_without_the_service_in_either_language(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    bailian.add_node(namespace, "I never take red-eye flights")
    bailian.add_node(namespace, "出差只坐高铁一等座")
    assert bailian_memory.warm(namespace) == "warmed"
    assert bailian_memory.warm(namespace) == "cached"
    bailian.requests.clear()
    english = bailian_memory.recall(namespace, "plan my trip to Chengdu")
    chinese = bailian_memory.recall(namespace, "帮我订去广州的机票")
    assert english.cached and chinese.cached and bailian.requests == []
    # Each fact punctuated in its own language, whatever the request's.
    joined = {
        "I never take red-eye flights; 出差只坐高铁一等座。",
        "出差只坐高铁一等座；I never take red-eye flights.",
    }
    assert english.summary in joined and chinese.summary in joined
    assert bailian_memory.warm(f"{namespace}X") == "empty"


def test_the_summary_puts_constraints_first_within_the_budget(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    mem = make_bailian(memory_summary_max_facts=3)
    for text in ["I like quiet cafes", "I enjoy art museums", "I like night markets"]:
        bailian.add_node(namespace, text)
    bailian.add_node(namespace, "I never take red-eye flights")
    summary = mem.retrieve(namespace)
    assert summary.startswith("I never take red-eye flights; ")
    assert summary.count("; ") == 2


def test_typed_slots_come_from_the_bailian_profile(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    setup = make_bailian()
    status = ensure_profile_schema(setup.store.client, load_schema())
    mem = make_bailian(bailian_profile_schema_id=status.schema_id)
    bailian.set_profile(status.schema_id, namespace, {"座位": "过道", "偏好航司": "东航、国航"})
    bailian.add_node(namespace, "I like quiet cafes")
    assert mem.profile(namespace) == {"seat": "aisle", "preferred_airlines": ["CA", "MU"]}
    summary = mem.retrieve(namespace, "cafes near the hotel")
    assert summary == (
        "Prefers an aisle seat; Prefers China Eastern (MU), Air China (CA); I like quiet cafes."
    )


def test_the_form_writes_through_a_message_and_replaces_the_old_fact(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    setup = make_bailian()
    status = ensure_profile_schema(setup.store.client, load_schema())
    mem = make_bailian(bailian_profile_schema_id=status.schema_id)
    old = bailian.add_node(namespace, "用户偏好靠窗座位")
    scoped = bailian.add_node(namespace, "坐火车喜欢靠窗")  # a scope: the form leaves it
    mem.update_profile(namespace, {"seat": "aisle"}, lang="zh")
    [add] = bailian.calls("add-async")
    assert add.body["profile_schema"] == status.schema_id  # type: ignore[index]
    assert add.body["messages"] == [{"role": "user", "content": "偏好过道座位。"}]  # type: ignore[index]
    assert [r.method for r in bailian.calls(f"memory_nodes/{old}")] == ["DELETE"]
    assert bailian.calls(f"memory_nodes/{scoped}") == []
    assert mem.follower.settle()
    assert mem.profile(namespace)["seat"] == "aisle"
    assert mem.retrieve(namespace) == "偏好过道座位；坐火车喜欢靠窗。"  # newest first
    [train] = mem.scoped_profile(namespace)
    assert (train.slot, train.value, train.scope) == ("seat", "window", "mode:train")


def test_export_lists_what_bailian_keeps(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    node = bailian.add_node(namespace, "出差只坐高铁一等座", source="form")
    exported = bailian_memory.export(namespace)
    assert exported["namespace"] == namespace and exported["store"] == "bailian"
    [item] = exported["items"]
    assert (item["id"], item["source"], item["slot"], item["current"]) == (
        node,
        "form",
        "rail_class",
        True,
    )
    assert exported["profile"] == {"rail_class": "first_class"}


def test_a_bailian_dsn_without_a_key_is_refused_with_what_to_set() -> None:
    from memory import open_memory

    with pytest.raises(ValueError, match="DASHSCOPE_API_KEY"):
        open_memory(dsn="bailian://default", redis_url="", dashscope_api_key="")
    with pytest.raises(ValueError, match="at most 50"):
        open_memory(
            dsn="bailian://default",
            redis_url="",
            dashscope_api_key="k",
            memory_max_facts_per_call=60,
        )


def test_a_warmed_traveller_is_answered_from_the_cache_while_bailian_is_down(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str
) -> None:
    mem = make_bailian(memory_summary_max_facts=2, bailian_max_retries=0)
    for text in ["I never take red-eye flights", "I like quiet cafes", "I enjoy art museums"]:
        bailian.add_node(namespace, text)
    assert mem.warm(namespace) == "warmed"
    bailian.fault(*[Fail(503)] * 2, path="search")
    recalled = mem.recall(namespace, "plan my trip to Chengdu")
    assert recalled.status == "ok" and recalled.cached
    assert recalled.summary.startswith("I never take red-eye flights; ")
