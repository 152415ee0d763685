"""`travel-bot warm --once` and `travel-bot clock`: warm the preference cache before trips.

`warm --once` with its database not answering when it starts says so in one line naming
the host, the port and the variable, and exits 2, like every one-shot command (nothing on
standard output: no pass ran). A database lost during the pass ends the pass: its JSON line
says `"aborted": "database-unavailable"` and the status is 1. `clock` keeps running and
tries again at the next interval.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import threading
from typing import Any

from bot.settings import Settings

log = logging.getLogger("bot.warming.scheduler")  # the clock's lines, as before


def register(subparsers: Any) -> None:
    warm = subparsers.add_parser(
        "warm",
        help="warm the preference cache of travellers whose trips start soon",
        description="Cache the preferences of every traveller whose trip starts within "
        "WARM_HORIZON_HOURS (or is under way), so their first question is answered without "
        "the database. Several instances at once are safe (a Redis lock).",
    )
    warm.add_argument(
        "--once",
        action="store_true",
        help="run one pass now and print its counts as one JSON line "
        "(without it: run every WARM_INTERVAL_MINUTES, like `clock`)",
    )
    warm.set_defaults(handler=run_warm)

    clock = subparsers.add_parser(
        "clock",
        help="the scheduler process: warm the cache every WARM_INTERVAL_MINUTES",
        description="The scheduler process (the Procfile's `clock`): a warming pass every "
        "WARM_INTERVAL_MINUTES until SIGTERM. Instead of it, SCHEDULER_IN_WEB=true runs the "
        "same schedule inside the bot's process.",
    )
    clock.set_defaults(handler=run_clock)


def run_clock(args: argparse.Namespace, settings: Settings) -> int:
    """The `clock` process: warm every interval until SIGTERM or SIGINT."""
    from bot.compose.parts import start_warm_clock
    from memory import open_memory

    memory = open_memory(settings)
    stopping = threading.Event()

    def request_stop(signum: int, frame: Any) -> None:
        stopping.set()

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    clock = start_warm_clock(settings, memory)
    try:
        while not stopping.wait(1.0):
            pass
        log.info("clock stopping")
    finally:
        clock.stop()
        memory.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def run_warm(args: argparse.Namespace, settings: Settings) -> int:
    """One pass; exit 0 unless the trips could not be read (Redis down is not an error):
    2 when a database does not answer at the start, 1 when the pass lost it."""
    if not args.once:
        return run_clock(args, settings)

    from bot.cli import say
    from bot.cli.language import operator_lang
    from bot.cli.services import memory_problem, quiet_libraries, trips_problem
    from bot.compose.parts import open_trip_store, open_warm_redis, warmer
    from memory import open_memory

    quiet_libraries(args.log_level)
    lang = operator_lang(settings)
    problem = trips_problem(settings, lang) or memory_problem(settings, lang)
    if problem:
        say.error(problem)
        return 2
    memory = open_memory(settings)
    trips = open_trip_store(settings)
    client = open_warm_redis(settings)
    try:
        report = warmer(settings, memory=memory, trips=trips, redis=client).run_once()
    finally:
        if client is not None:
            client.close()
        trips.close()
        memory.close()
    print(json.dumps(report.to_json()), flush=True)
    return 1 if report.aborted == "database-unavailable" else 0
