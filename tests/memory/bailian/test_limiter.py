"""The rate limiter keeps a process under the QPM limits it is given."""

from __future__ import annotations

from memory.bailian.limiter import PUBLISHED_QPM, RateLimiter
from memory.settings import MemorySettings


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_adds_go_out_at_the_add_rate_after_a_short_burst() -> None:
    clock = Clock()
    limiter = RateLimiter(
        total_qpm=3000, add_qpm=120, search_qpm=300, clock=clock, sleep=clock.sleep
    )
    for _ in range(130):
        assert limiter.acquire("add", max_wait=60)
    # 130 adds: a burst of 10 (five seconds' worth), then 2 a second.
    assert 59 <= clock.now <= 61
    # Searches have their own bucket: the adds did not use it up.
    before = clock.now
    assert limiter.acquire("search", max_wait=0)
    assert clock.now == before


def test_a_call_that_would_wait_too_long_takes_nothing() -> None:
    clock = Clock()
    limiter = RateLimiter(total_qpm=60, add_qpm=60, search_qpm=60, clock=clock, sleep=clock.sleep)
    for _ in range(5):
        assert limiter.acquire("other", max_wait=0)
    assert not limiter.acquire("other", max_wait=0.5)
    assert clock.now == 0.0
    assert limiter.acquire("other", max_wait=2)


def test_the_defaults_stay_under_the_published_limits() -> None:
    s = MemorySettings(_env_file=None)  # type: ignore[call-arg]
    assert s.bailian_qpm < PUBLISHED_QPM["total"]
    assert s.bailian_add_qpm < PUBLISHED_QPM["add"]
    assert s.bailian_search_qpm < PUBLISHED_QPM["search"]
