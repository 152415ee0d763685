"""`travel-bot warm --once` and `travel-bot clock`: warm the preference cache before trips."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.settings import Settings


def register(subparsers: Any) -> None:
    warm = subparsers.add_parser(
        "warm", help="warm the preference cache of travellers whose trips start soon"
    )
    warm.add_argument(
        "--once",
        action="store_true",
        help="run one pass now and print its counts as one JSON line "
        "(without it: run every WARM_INTERVAL_MINUTES, like `clock`)",
    )
    warm.set_defaults(handler=run_warm)

    clock = subparsers.add_parser(
        "clock", help="the scheduler process: warm the cache every WARM_INTERVAL_MINUTES"
    )
    clock.set_defaults(handler=run_clock)


def run_clock(args: argparse.Namespace, settings: Settings) -> int:
    from bot.warming.scheduler import run_clock as clock

    return clock(settings)


def run_warm(args: argparse.Namespace, settings: Settings) -> int:
    """One pass; exit 0 unless the trips could not be read (Redis down is not an error)."""
    if not args.once:
        return run_clock(args, settings)

    from bot.planning.trips import open_trip_store
    from bot.warming.warmer import Warmer, open_redis
    from memory import open_memory

    memory = open_memory(settings)
    trips = open_trip_store(settings)
    client = open_redis(settings)
    try:
        warmer = Warmer.from_settings(settings, memory=memory, trips=trips, redis=client)
        report = warmer.run_once()
    finally:
        if client is not None:
            client.close()
        trips.close()
        memory.close()
    print(json.dumps(report.to_json()), flush=True)
    return 1 if report.aborted == "database-unavailable" else 0
