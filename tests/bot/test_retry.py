"""Reading how long a rate-limited server asks us to wait (the model endpoint and Slack)."""

from __future__ import annotations

import pytest

from bot.retry import retry_after


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
