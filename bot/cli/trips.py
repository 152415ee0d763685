"""`travel-bot trips ...`: add, list and remove the trips the scheduler warms the cache for.

A trip is one traveller's destination and start date (catalogue city names: "成都" and
"Chengdu" are one trip, shown as first typed). `list` shows a trip's approval state when
it needed one (pending, approved, rejected, expired), after expiring the approval
requests whose time is up. Exit statuses: 0 done, 1 failed (the trip store unavailable,
no such trip to remove), 2 wrong usage (an empty destination, a malformed date, a trip
that is over without `--allow-past`) or the database not answering.
"""

from __future__ import annotations

import argparse
import json
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.cli import say
from bot.cli.language import operator_lang
from bot.cli.options import add_user, text
from bot.cli.services import quiet_libraries, trips_problem
from bot.compose.parts import open_approvals, open_trip_store
from bot.messages import t
from bot.planning.trips import (
    InvalidTrip,
    Trip,
    TripStore,
    canonical_city,
    parse_date,
)
from bot.settings import Settings
from memory.errors import StoreUnavailable

USER_HELP = "the traveller's namespace, e.g. T024BE7LD:U01ABC or local:you"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "trips",
        help="add, list and remove travellers' trips",
        description="Travellers' trips: the scheduler (`travel-bot clock`) warms each "
        "traveller's preference cache before their trip starts. Plans saved in chat are "
        "trips too.",
    )
    verbs = parser.add_subparsers(dest="trips_verb", required=True, metavar="ACTION")

    add = verbs.add_parser(
        "add",
        help="save a trip (saving the same trip twice saves once)",
        description="Save a trip; the scheduler warms the traveller's cache before it starts.",
    )
    add_user(add, help=USER_HELP)
    add.add_argument(
        "--destination", required=True, type=text, help='city, e.g. "成都" or "Chengdu"'
    )
    add.add_argument("--start", required=True, help="first day, YYYY-MM-DD")
    add.add_argument("--end", default=None, help="last day, YYYY-MM-DD")
    add.add_argument("--origin", default=None, help="departure city")
    add.add_argument("--created-by", default="cli", help="who saved it (default: cli)")
    add.add_argument(
        "--allow-past",
        action="store_true",
        help="save a trip that started before today (TRAVEL_TIMEZONE); refused otherwise",
    )

    listing = verbs.add_parser(
        "list", help="trips by start date", description="Saved trips, by start date."
    )
    add_user(listing, help="only this traveller's trips (default: everyone's)", required=False)
    listing.add_argument("--json", action="store_true", help="one JSON array")

    remove = verbs.add_parser(
        "remove",
        help="delete a trip (a cancelled one need not be warmed for)",
        description="Delete the trip saved for NS to DESTINATION starting on START.",
    )
    add_user(remove, help=USER_HELP)
    remove.add_argument(
        "--destination", required=True, type=text, help="the trip's city, as it was added"
    )
    remove.add_argument("--start", required=True, help="the trip's first day, YYYY-MM-DD")

    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    quiet_libraries(args.log_level)
    end: date | None = None
    try:
        if args.trips_verb in ("add", "remove"):
            start = parse_date(args.start, field="--start")
        if args.trips_verb == "add":
            end = parse_date(args.end, field="--end") if args.end else None
            if end is not None and end < start:
                raise InvalidTrip(f"--end {end.isoformat()} is before --start {start.isoformat()}")
            today = datetime.now(ZoneInfo(settings.travel_timezone)).date()
            if (end or start) < today and not args.allow_past:
                raise InvalidTrip(
                    f"the trip is over: it ended before today ({today.isoformat()}); "
                    "add --allow-past to save it anyway"
                )
    except InvalidTrip as exc:  # refused input, like argparse's own refusals
        say.error(str(exc))
        return 2
    args.operator_lang = operator_lang(settings)
    problem = trips_problem(settings, args.operator_lang)
    if problem:
        say.error(problem)
        return 2
    store = open_trip_store(settings)
    try:
        if args.trips_verb == "add":
            return _add(store, args, start, end)
        if args.trips_verb == "remove":
            return _remove(store, args, start)
        return _list(store, args, settings)
    except (InvalidTrip, StoreUnavailable) as exc:
        say.error(str(exc))
        return 1
    finally:
        store.close()


def _add(store: TripStore, args: argparse.Namespace, start: date, end: date | None) -> int:
    destination, known = canonical_city(args.destination)
    origin = canonical_city(args.origin)[0] if args.origin else None
    typed = (args.destination, args.origin)  # shown back as typed; matched by catalogue name
    trip, created = store.add(
        args.user, destination, start, end, origin, created_by=args.created_by, as_typed=typed
    )
    lang = args.operator_lang
    print(t("cli_trip_saved" if created else "cli_trip_already_saved", lang, trip=_line(trip)))
    if not known:  # on standard output, as it always was (scripts read it there)
        print(f"note: {t('cli_city_not_in_catalogue', lang, city=args.destination)}")
    return 0


def _remove(store: TripStore, args: argparse.Namespace, start: date) -> int:
    destination = canonical_city(args.destination)[0]
    trip = store.remove(args.user, destination, start)
    lang = args.operator_lang
    if trip is None:
        city = " ".join(args.destination.split())
        start_day = start.isoformat()
        say.error(t("cli_no_such_trip", lang, namespace=args.user, city=city, start=start_day))
        return 1
    print(t("cli_trip_removed", lang, trip=_line(trip)))
    return 0


def _list(store: TripStore, args: argparse.Namespace, settings: Settings) -> int:
    open_approvals(settings, store, store.backend).expire_due()
    trips = store.list(args.user)
    if args.json:
        print(json.dumps([trip.to_json() for trip in trips], ensure_ascii=False))
        return 0
    if not trips:
        print(t("cli_no_trips", args.operator_lang))
    for trip in trips:
        print(_line(trip))
    return 0


def _line(trip: Trip) -> str:
    dates = trip.start_date.isoformat()
    if trip.end_date and trip.end_date != trip.start_date:
        dates += f"..{trip.end_date.isoformat()}"
    where = trip.shown_destination
    route = f"{trip.shown_origin} -> {where}" if trip.shown_origin else where
    state = f"  [approval {trip.state}]" if trip.state else ""
    return f"{dates}  {trip.namespace}  {route}  (by {trip.created_by}){state}"
