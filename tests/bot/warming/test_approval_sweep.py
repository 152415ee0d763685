"""The clock's approval sweep: a request older than `APPROVAL_TTL_DAYS` expires on the
clock's next tick, once, on SQLite and PostgreSQL; an expired trip no longer warms."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from bot.compose.parts import start_warm_clock
from bot.planning.trips import TripStore
from bot.policy.approvals import Approvals
from bot.settings import Settings
from memory.backends import backend_from_dsn
from tests.conftest import REDIS_URL, MemoryFactory


def test_the_clock_expires_a_request_whose_time_is_up(
    dsn: str, redis_prefix: str, make_memory: MemoryFactory
) -> None:
    prefix = f"{redis_prefix}{uuid.uuid4().hex[:8]}:"
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        memory_dsn=dsn,
        redis_url=REDIS_URL,
        redis_key_prefix=prefix,
        travel_timezone="UTC",
        approval_ttl_days=1,
    )
    trips = TripStore(backend_from_dsn(dsn), timezone=UTC)
    today = datetime.now(UTC).date()
    trip, _ = trips.add("T1:UOLD", "Chengdu", today + timedelta(days=1), created_by="T1:UOLD")
    asked_at = datetime.now(UTC) - timedelta(days=2)  # asked two days ago, a day's TTL
    approvals = Approvals(trips.backend, trips=trips, ttl_days=1, clock=lambda: asked_at)
    request, _ = approvals.request(
        trip_id=trip.id,
        trip="Shanghai → Chengdu",
        traveller="T1:UOLD",
        requester="T1:UOLD",
        choice="Atour Chengdu",
        breaks=[],
        reason="client next door",
        approvers=["T1:UBOSS"],
        policy_version=1,
    )
    assert trips.get(trip.id).state == "pending"  # type: ignore[union-attr]
    assert "T1:UOLD" in set(trips.due(datetime.now(UTC), 72))  # a pending trip warms

    clock = start_warm_clock(settings, make_memory(redis_key_prefix=prefix))
    try:
        assert clock.ran.wait(30)
    finally:
        clock.stop()
    assert approvals.get(request.id).state == "expired"  # type: ignore[union-attr]
    assert trips.get(trip.id).state == "expired"  # type: ignore[union-attr]
    assert "T1:UOLD" not in set(trips.due(datetime.now(UTC), 72))  # nor does an expired one
    trips.close()
