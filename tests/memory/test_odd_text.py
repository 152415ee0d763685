"""Text from outside that no store should see as is: namespaces and texts with lone
surrogates, control or format characters, or in decomposed Unicode, on SQLite and
PostgreSQL behind the real Redis cache."""

from __future__ import annotations

import pytest
import redis

from memory.cache import PreferenceCache, query_field
from memory.errors import InvalidNamespace
from memory.types import Recall
from tests.conftest import MemoryFactory

RED_EYE = "I never take red-eye flights"
ODD_NAMESPACES = [
    "slack:T1:U\ud800",  # a lone surrogate: not encodable as UTF-8
    "T1:U\udc00X",
    "T1:U1\x00",
    "T1:U1\n",
    "T1:U\u200b1",  # zero-width space: looks like T1:U1
    "T1:U\u202e1",  # a right-to-left override
    "",
    "   ",
    "T1:" + "U" * 300,
]


@pytest.mark.parametrize("odd", ODD_NAMESPACES)
def test_an_invalid_namespace_is_refused_on_write_and_has_nothing_on_read(
    make_memory: MemoryFactory, namespace: str, odd: str
) -> None:
    mem = make_memory()
    mem.record(namespace, [RED_EYE])
    assert mem.retrieve(namespace, "trip") == "I never take red-eye flights."  # now cached

    assert mem.recall(odd, "plan my trip") == Recall("", "empty")
    assert mem.retrieve(odd) == ""
    for write in (
        lambda: mem.record(odd, [RED_EYE]),
        lambda: mem.update_profile(odd, {"seat": "aisle"}),
        lambda: mem.forget(odd),
    ):
        with pytest.raises(InvalidNamespace):
            write()
    with pytest.raises(ValueError):  # what it was before: still a ValueError
        mem.items(odd)

    # Everyone else's cache is untouched: the next recall is a hit, and nothing failed.
    hits = mem.cache.stats.hits
    assert mem.retrieve(namespace, "trip") == "I never take red-eye flights."
    assert mem.cache.stats.hits == hits + 1
    assert mem.cache.stats.errors == 0


def test_a_namespace_is_one_whichever_unicode_form_it_arrives_in(
    make_memory: MemoryFactory,
) -> None:
    mem = make_memory()
    decomposed, composed = "local:cafe\u0301", "local:caf\u00e9"
    mem.record(decomposed, [RED_EYE])
    assert [i.text for i in mem.items(composed)] == [RED_EYE]
    assert mem.retrieve(composed, "trip") == "I never take red-eye flights."
    assert mem.forget(composed) == 1
    assert mem.items(decomposed) == []


def test_odd_text_in_facts_queries_and_ids_never_reaches_the_store_raw(
    make_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory()
    broken, paired = mem.record(
        namespace,
        [
            "I like window seats \ud800",  # a lone surrogate
            "I love \ud83d\ude00 hotels with a gym",  # a pair as two code points
        ],
    )
    assert broken.status == "rejected" and broken.code == "control_chars"
    assert "\ud800" not in broken.text
    assert paired.status == "added"
    assert [i.text for i in mem.items(namespace)] == ["I love \U0001f600 hotels with a gym"]

    for query in ("hotel \ud800", "gym\x00\x1b", "\udfff", "hotel\u202e"):
        assert mem.recall(namespace, query).status == "ok"
        assert [i.text for i in mem.search(namespace, query)] == [paired.text]
    assert mem.forget(namespace, "id\ud800") == 0
    assert len(mem.items(namespace)) == 1
    assert mem.cache.stats.errors == 0


def test_a_fact_that_names_nothing_is_refused_and_a_short_preference_kept(
    make_memory: MemoryFactory, namespace: str
) -> None:
    """A stray key or a reply to the bot ("x", "ok", "好的", "1") would sit in the profile and
    in every summary; two Chinese characters or three letters can be a preference."""
    mem = make_memory()
    outcomes = mem.record(namespace, ["x", "ok!", "好的", "1", "…", "靠窗", "素食", "no red-eyes"])
    assert [o.code == "no_content" for o in outcomes] == [True] * 5 + [False] * 3
    assert sorted(i.text for i in mem.items(namespace)) == ["no red-eyes", "素食", "靠窗"]


def test_a_failing_call_turns_the_cache_off_only_when_redis_is_unreachable(
    redis_client: redis.Redis, redis_prefix: str, namespace: str
) -> None:
    cache = PreferenceCache(client=redis_client, key_prefix=f"{redis_prefix}odd:")
    assert cache.fill(namespace, {"q:1": b"Aisle seat."}, "0")
    # Redis refuses this one value (it is no string): the call fails, nothing else does.
    assert not cache.fill(namespace, {"q:2": object()}, "0")  # type: ignore[dict-item]
    assert cache.stats.errors == 1
    assert cache.lookup(namespace, ["q:1"]).summary == "Aisle seat."

    down = PreferenceCache(
        client=redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2),
        key_prefix=f"{redis_prefix}odd:",
    )
    assert down.lookup(namespace, ["q:1"]).summary is None
    assert not down.enabled or down.stats.errors == 1
    assert down.lookup(namespace, ["q:1"]).summary is None
    assert down.stats.errors == 1  # backing off: the second lookup never tried
    cache.invalidate(namespace)


def test_keys_of_text_that_is_not_utf8_never_fail_to_encode() -> None:
    cache = PreferenceCache(client=None)
    assert cache.key("T1:U\ud800") != cache.key("T1:U\udc00")
    assert query_field("trip \ud800") != query_field("trip \udc00")
