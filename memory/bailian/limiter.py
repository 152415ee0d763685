"""Keeping this process under Bailian's published rate limits.

The memory library's limits are per Alibaba Cloud account: every call together at most
3000 QPM, the add call 120 QPM and the search call 300 QPM; beyond them the service
answers HTTP 429 ("限流说明",
https://help.aliyun.com/zh/model-studio/long-term-memory-api-reference#使用限制 and
https://help.aliyun.com/en/model-studio/memory/limits). Neither page says whether
add-async shares the add limit; we assume it does.

One token bucket per limit, refilled continuously at its rate, holding at most five
seconds' worth, so a burst goes out at once and a steady stream never exceeds the rate.
A call takes a token from the total bucket and from its own (add or search). The limits
are per process (`BAILIAN_QPM`, `BAILIAN_ADD_QPM`, `BAILIAN_SEARCH_QPM`, 90% of the
published ones by default): with several processes, divide them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Literal

Kind = Literal["add", "search", "other"]

PUBLISHED_QPM = {"total": 3000, "add": 120, "search": 300}
_BURST_SECONDS = 5.0


class TokenBucket:
    """`rate_per_minute` tokens a minute, at most `capacity` saved up."""

    def __init__(
        self,
        rate_per_minute: float,
        *,
        capacity: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate_per_minute / 60.0
        self.capacity = capacity if capacity is not None else max(1.0, self.rate * _BURST_SECONDS)
        self._clock = clock
        self._tokens = self.capacity
        self._at = clock()

    def wait_time(self) -> float:
        """Seconds until a token is there (0 when one is); call under the limiter's lock."""
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._at) * self.rate)
        self._at = now
        return 0.0 if self._tokens >= 1 else (1 - self._tokens) / self.rate

    def take(self) -> None:
        self._tokens -= 1


class RateLimiter:
    """Thread-safe: `acquire(kind)` waits until the call may go out, within `max_wait`."""

    def __init__(
        self,
        *,
        total_qpm: float,
        add_qpm: float,
        search_qpm: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._buckets = {
            "total": TokenBucket(total_qpm, clock=clock),
            "add": TokenBucket(add_qpm, clock=clock),
            "search": TokenBucket(search_qpm, clock=clock),
        }
        self._lock = threading.Lock()
        self._sleep = sleep
        self.waited_seconds = 0.0

    def acquire(self, kind: Kind, max_wait: float) -> bool:
        """Take the tokens for one call of `kind`; False (and nothing taken) when that
        would mean waiting longer than `max_wait` seconds."""
        names = ("total",) if kind == "other" else ("total", kind)
        waited = 0.0
        while True:
            with self._lock:
                wait = max(self._buckets[name].wait_time() for name in names)
                if wait <= 0:
                    for name in names:
                        self._buckets[name].take()
                    self.waited_seconds += waited
                    return True
            if waited + wait > max_wait:
                return False
            self._sleep(wait)
            waited += wait


__all__ = ["PUBLISHED_QPM", "RateLimiter", "TokenBucket"]
