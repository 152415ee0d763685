"""The HTTP client against the local fake: retries, Retry-After, timeouts, bad keys."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest

from memory.bailian.client import BailianClient
from memory.bailian.errors import (
    BailianAuthError,
    BailianBadResponse,
    BailianRateLimited,
    BailianRequestError,
    BailianServerError,
    BailianUnreachable,
)
from memory.bailian.limiter import RateLimiter
from memory.bailian.target import BailianTarget
from memory.errors import StoreUnavailable
from tests.support.bailian_api import Drop, Fail, FakeBailian, Malformed, Slow
from tests.support.services import free_port

ADD = {"user_id": "T1:U1", "messages": [{"role": "user", "content": "I like aisle seats"}]}


def client_for(base_url: str, key: str, **options: float) -> BailianClient:
    settings = {"timeout": 2.0, "backoff": 0.01, "max_retry_wait": 5.0, **options}
    return BailianClient(
        base_url=base_url,
        api_key=key,
        target=BailianTarget(),
        limiter=RateLimiter(total_qpm=6000, add_qpm=6000, search_qpm=6000),
        timeout=settings["timeout"],
        backoff=settings["backoff"],
        max_retry_wait=settings["max_retry_wait"],
    )


@pytest.fixture
def client(bailian: FakeBailian) -> Iterator[BailianClient]:
    c = client_for(bailian.base_url, bailian.api_key)
    yield c
    c.close()


def test_every_call_carries_the_key_and_json(client: BailianClient, bailian: FakeBailian) -> None:
    client.add(ADD, wait=True)
    [request] = bailian.calls("add")
    assert request.headers["authorization"] == f"Bearer {bailian.api_key}"
    assert request.headers["content-type"] == "application/json"
    assert request.body == ADD


def test_429_is_retried_after_the_retry_after_the_service_sent(
    client: BailianClient, bailian: FakeBailian
) -> None:
    bailian.fault(Fail(429, retry_after=0.4), path="search")
    started = time.monotonic()
    answer = client.search({"user_id": "T1:U1", "messages": [{"role": "user", "content": "x"}]})
    assert time.monotonic() - started >= 0.4
    assert answer["memory_nodes"] == []
    assert len(bailian.calls("memory_nodes/search")) == 2


def test_a_retry_after_longer_than_we_wait_fails_at_once(bailian: FakeBailian) -> None:
    c = client_for(bailian.base_url, bailian.api_key, max_retry_wait=1.0)
    bailian.fault(Fail(429, retry_after=30), path="add")
    started = time.monotonic()
    with pytest.raises(BailianRateLimited, match="Retry-After 30"):
        c.add(ADD, wait=True)
    assert time.monotonic() - started < 1.0
    assert len(bailian.calls("add")) == 1
    c.close()


def test_server_errors_are_retried_three_times_then_reported(
    client: BailianClient, bailian: FakeBailian
) -> None:
    bailian.fault(*[Fail(503)] * 4, path="memory_nodes")
    with pytest.raises(BailianServerError) as raised:
        client.list_nodes("T1:U1", page_num=1, page_size=10)
    assert raised.value.status == 503
    assert isinstance(raised.value, StoreUnavailable)
    assert len(bailian.calls("memory_nodes")) == 4
    bailian.fault(Fail(500), Fail(502), path="memory_nodes")
    assert client.list_nodes("T1:U1", page_num=1, page_size=10)["total"] == 0


def test_a_bad_request_is_not_retried(client: BailianClient, bailian: FakeBailian) -> None:
    with pytest.raises(BailianRequestError) as raised:
        client.add({"messages": ADD["messages"]}, wait=True)
    assert (raised.value.status, raised.value.code) == (400, "MissingParameter")
    assert len(bailian.calls("add")) == 1


def test_a_bad_key_is_logged_once_and_then_refused_without_asking(
    bailian: FakeBailian, caplog: pytest.LogCaptureFixture
) -> None:
    c = client_for(bailian.base_url, "sk-wrong")
    with caplog.at_level(logging.WARNING, logger="memory.bailian"):
        for _ in range(3):
            with pytest.raises(BailianAuthError):
                c.list_nodes("T1:U1", page_num=1, page_size=10)
    [line] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "DASHSCOPE_API_KEY" in line.getMessage() and "401" in line.getMessage()
    assert "sk-wrong" not in caplog.text
    assert len(bailian.calls("memory_nodes")) == 1  # the later calls failed fast
    c.close()


def test_malformed_json_is_a_bad_response(client: BailianClient, bailian: FakeBailian) -> None:
    bailian.fault(Malformed(), path="search")
    with pytest.raises(BailianBadResponse):
        client.search({"user_id": "T1:U1", "messages": [{"role": "user", "content": "x"}]})
    bailian.fault(Malformed(b"[1, 2]"), path="memory_nodes")
    with pytest.raises(BailianBadResponse, match="not a JSON object"):
        client.list_nodes("T1:U1", page_num=1, page_size=10)


def test_a_slow_read_times_out_and_is_retried_but_a_slow_write_is_not(
    bailian: FakeBailian,
) -> None:
    c = client_for(bailian.base_url, bailian.api_key, timeout=0.3)
    bailian.fault(Slow(1.0), path="memory_nodes")
    assert c.list_nodes("T1:U1", page_num=1, page_size=10)["total"] == 0  # the retry answered
    bailian.fault(Slow(1.0), path="add")
    with pytest.raises(BailianUnreachable):
        c.add(ADD, wait=True)
    # The write may have arrived: it is never sent twice (add has no idempotency key).
    assert len(bailian.calls("add")) == 1
    c.close()


def test_a_dropped_connection_is_unreachable(client: BailianClient, bailian: FakeBailian) -> None:
    bailian.fault(Drop(), path="add-async")
    with pytest.raises(BailianUnreachable):
        client.add(ADD, wait=False)
    assert len(bailian.calls("add-async")) == 1


def test_an_unreachable_service_is_reported_after_the_retries() -> None:
    c = client_for(f"http://127.0.0.1:{free_port()}/api/v2/apps/memory", "k")
    with pytest.raises(BailianUnreachable, match="no answer"):
        c.add(ADD, wait=True)
    c.close()


def test_ids_never_reroute_a_path(client: BailianClient) -> None:
    with pytest.raises(BailianRequestError):
        client.delete_node("../profile_schemas/x")


def test_a_key_without_permission_is_an_auth_error_too(
    client: BailianClient, bailian: FakeBailian
) -> None:
    bailian.fault(Fail(403, code="Forbidden"), path="memory_nodes")
    with pytest.raises(BailianAuthError) as raised:
        client.list_nodes("T1:U1", page_num=1, page_size=10)
    assert (raised.value.status, raised.value.code) == (403, "Forbidden")
    assert len(bailian.calls("memory_nodes")) == 1
