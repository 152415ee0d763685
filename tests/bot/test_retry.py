"""Reading how long a rate-limited server asks us to wait (the model endpoint and Slack),
and whether a failed request certainly never reached the server (every channel's HTTP
stack: httpx, requests, urllib)."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable
from email.message import Message

import httpx
import pytest
import requests

from bot.retry import never_sent, once_more_if_never_sent, retry_after
from tests.support.taker import Taker


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "3"}, 3.0),
        ({"retry-after": ["2"]}, 2.0),  # the Slack SDK's shape
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),  # the finer one wins
        ({"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}, None),  # a date: back off alone
        ({"content-type": "application/json"}, None),
        ({}, None),
    ],
)
def test_retry_after(headers: dict[str, object], expected: float | None) -> None:
    assert retry_after(headers) == expected


# -- never_sent: each channel's HTTP stack against real sockets ------------------------------


def _raised(call: Callable[[], object]) -> BaseException:
    try:
        call()
    except Exception as exc:
        return exc
    raise AssertionError("no error")


def test_httpx_a_refused_connection_was_never_sent_and_a_reset_may_have_been(
    taker: Taker, closed_url: str
) -> None:
    assert never_sent(_raised(lambda: httpx.post(closed_url, json={"a": 1})))
    assert not never_sent(_raised(lambda: httpx.post(taker.url, json={"a": 1})))
    assert taker.taken == 1


def test_requests_a_refused_connection_was_never_sent_and_a_reset_may_have_been(
    taker: Taker, closed_url: str
) -> None:
    assert never_sent(_raised(lambda: requests.post(closed_url, json={"a": 1}, timeout=5)))
    assert not never_sent(_raised(lambda: requests.post(taker.url, json={"a": 1}, timeout=5)))


def test_urllib_a_refused_connection_was_never_sent_and_a_reset_may_have_been(
    taker: Taker, closed_url: str
) -> None:
    def post(url: str) -> object:
        return urllib.request.urlopen(urllib.request.Request(url, data=b"{}"), timeout=5)

    assert never_sent(_raised(lambda: post(closed_url)))
    assert not never_sent(_raised(lambda: post(taker.url)))


def test_an_answer_or_a_read_timeout_is_not_never_sent() -> None:
    request = httpx.Request("POST", "http://127.0.0.1/")
    assert not never_sent(httpx.ReadTimeout("slow", request=request))
    assert not never_sent(httpx.RemoteProtocolError("hung up", request=request))
    answer = urllib.error.HTTPError("http://x/", 503, "down", Message(), None)
    assert not never_sent(answer)
    assert never_sent(httpx.ConnectTimeout("no SYN-ACK", request=request))


def test_once_more_if_never_sent_retries_only_what_never_left(closed_url: str) -> None:
    calls: list[str] = []

    def refused() -> object:
        calls.append("refused")
        return httpx.post(closed_url)

    with pytest.raises(httpx.ConnectError):
        once_more_if_never_sent(refused, what="test", sleep=lambda _: None)
    assert calls == ["refused", "refused"]

    def timed_out() -> object:
        calls.append("timeout")
        raise httpx.ReadTimeout("slow", request=httpx.Request("POST", closed_url))

    with pytest.raises(httpx.ReadTimeout):
        once_more_if_never_sent(timed_out, what="test", sleep=lambda _: None)
    assert calls[2:] == ["timeout"]
