"""A summary cached before a deploy that renders summaries differently is never served
after it (issue: "old punctuation for up to 30 minutes").

The facts value carries its layout's version; a summary is text, so its cache fields
carry `memory.summary.FORMAT_VERSION`. The rendering of a fixed traveller is pinned per
version below: a change to how summaries read fails here until the version is bumped
(and with it every field a lookup asks for), so no deploy serves the text before it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import redis

from memory.cache import FACTS, MAX_FIELDS, general_field, query_field
from memory.engine import Memory
from memory.facts import Facts
from memory.summary import FORMAT_VERSION, summarize, summarize_facts
from memory.types import MemoryItem

START = datetime(2026, 1, 1, tzinfo=UTC)

# What version 2 renders for `_traveller()`: the whole profile, a short budget, and the
# ranked path, each on a line. Bump FORMAT_VERSION (memory/summary.py) and pin the new
# rendering under the new number whenever this changes.
PINNED = {
    2: (
        "I never take red-eye flights; 出差只坐高铁一等座；"
        "I now prefer window seats (newer, said 2026-01-04); "
        "I prefer aisle seats (older, said 2026-01-03); 酒店要含早餐。\n"
        "I never take red-eye flights; 出差只坐高铁一等座。\n"
        "酒店要含早餐；I never take red-eye flights; 出差只坐高铁一等座；"
        "I now prefer window seats (newer, said 2026-01-04); "
        "I prefer aisle seats (older, said 2026-01-03)."
    ),
}


def _traveller() -> list[MemoryItem]:
    """Both languages, hard and soft, and a change of mind the engine was unsure of."""
    said = [
        ("a1", "I never take red-eye flights", "en", None),
        ("a2", "出差只坐高铁一等座", "zh", None),
        ("a3", "I prefer aisle seats", "en", "a4"),
        ("a4", "I now prefer window seats", "en", None),
        ("a5", "酒店要含早餐", "zh", None),
    ]
    return [
        MemoryItem(
            id=ident,
            namespace="t",
            text=text,
            source="chat",
            created_at=START + timedelta(days=n),
            lang=lang,
            contested_by=contested,
        )
        for n, (ident, text, lang, contested) in enumerate(said)
    ]


def _rendered() -> str:
    items = _traveller()
    facts = Facts(tuple(items), np.eye(len(items), dtype=np.float32))
    ranked, _, _ = summarize_facts(
        facts,
        "book a hotel",
        rank=lambda f, q: [4, 0, 1, 3, 2],
        max_facts=8,
        max_chars=2000,
    )
    return "\n".join(
        [
            summarize(items, max_facts=8, max_chars=2000),
            summarize(items, max_facts=8, max_chars=50),
            ranked,
        ]
    )


def test_the_rendering_of_each_summary_format_is_pinned_to_its_version() -> None:
    rendered = _rendered()
    assert PINNED.get(FORMAT_VERSION) == rendered, (
        "summaries render differently: bump FORMAT_VERSION in memory/summary.py and pin "
        f"this under {FORMAT_VERSION + 1}:\n{rendered}"
    )


def test_the_summary_fields_name_the_format() -> None:
    assert query_field("Plan my trip").startswith(f"q:{FORMAT_VERSION}:")
    assert general_field("zh") == f"*:{FORMAT_VERSION}:zh"


def test_a_summary_cached_in_an_earlier_format_is_never_served(
    memory: Memory, namespace: str, redis_client: redis.Redis
) -> None:
    """A warmed traveller's entry after a deploy: the facts still readable, summaries in
    the format before (version 1's unversioned field, and the version just before). The
    traveller gets the summary as this version writes it, from the cached facts."""
    memory.record(namespace, ["出差只坐高铁一等座", "I prefer aisle seats"])
    request = "plan my trip to Chengdu"
    fresh = memory.retrieve(namespace, request)
    assert fresh == "出差只坐高铁一等座；I prefer aisle seats."
    memory.cache.settle()
    key = memory.cache.key(namespace)
    assert redis_client.hexists(key, FACTS)
    field = query_field(request)
    digest = field.rpartition(":")[2]
    stale = "出差只坐高铁一等座；I prefer aisle seats。"  # the punctuation before
    redis_client.hdel(key, field)
    redis_client.hset(
        key,
        mapping={
            f"q:{digest}": stale,  # version 1: no version in the field
            f"q:{FORMAT_VERSION - 1}:{digest}": stale,
            f"*:{FORMAT_VERSION - 1}:zh": stale,
        },
    )
    hits = memory.cache.stats.fact_hits
    assert memory.retrieve(namespace, request) == fresh
    assert memory.retrieve(namespace, "规划去成都的行程") == fresh
    assert memory.cache.stats.fact_hits > hits  # ranked from the cached facts, no store
    memory.cache.settle()
    assert redis_client.hget(key, field) == fresh.encode()  # cached again, in this format


def test_a_full_entry_of_an_earlier_format_makes_room_for_this_ones(
    memory: Memory, namespace: str, redis_client: redis.Redis
) -> None:
    """A traveller warmed before a deploy: the entry already holds `MAX_FIELDS` fields,
    the facts and the summaries of 32 requests in the format before. Those are never
    asked for again, yet they counted against the limit, so no summary of this format
    was cached until the key expired: every request was ranked again each time."""
    memory.record(namespace, ["出差只坐高铁一等座", "I prefer aisle seats"])
    request = "plan my trip to Chengdu"
    fresh = memory.retrieve(namespace, request)
    memory.cache.settle()
    key = memory.cache.key(namespace)
    redis_client.hdel(key, query_field(request))
    earlier = {f"q:{n:020x}": "an earlier format's summary" for n in range(MAX_FIELDS - 2)}
    earlier[f"*:{FORMAT_VERSION - 1}:zh"] = "an earlier format's summary"
    redis_client.hset(key, mapping=earlier)
    assert redis_client.hlen(key) == MAX_FIELDS
    assert memory.retrieve(namespace, request) == fresh  # ranked from the cached facts
    memory.cache.settle()
    assert redis_client.hget(key, query_field(request)) == fresh.encode()
    assert sorted(redis_client.hkeys(key)) == sorted(
        [FACTS.encode(), query_field(request).encode()]
    )
    ranked = memory.cache.stats.fact_hits
    assert memory.retrieve(namespace, request) == fresh
    assert memory.cache.stats.fact_hits == ranked  # asked again: the summary, one read
