"""Trips travellers are about to take, kept in the same database as memory.

The scheduler warms the preference cache of travellers whose trips start soon or are
under way (`TripStore.due`); plans saved from chat (`save_planned`) and `travel-bot
trips add` fill it.

A trip outside the company's travel policy keeps its approval state with it (`state`:
`pending`, `approved`, `rejected` or `expired`; None when nothing needed approval),
set by `bot.policy.approvals` in the transaction that asks or decides. A rejected or
expired trip is not warmed for.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from memory.migrations import Migration, migrate
from memory.store import Backend, Cursor, utcnow

if TYPE_CHECKING:
    from bot.planning.plan import PlannedTrip

COMPONENT = "trips"

TRIP_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        version=1,
        description="trips per traveller namespace; one per destination and start date",
        sqlite=(
            """CREATE TABLE IF NOT EXISTS trips (
                id TEXT PRIMARY KEY,
                namespace TEXT NOT NULL,
                origin TEXT,
                destination TEXT NOT NULL,
                start_date TEXT NOT NULL,
                end_date TEXT,
                created_by TEXT NOT NULL,
                created_at TEXT NOT NULL,
                UNIQUE (namespace, destination, start_date)
            )""",
            "CREATE INDEX IF NOT EXISTS trips_start ON trips (start_date)",
            "CREATE INDEX IF NOT EXISTS trips_namespace ON trips (namespace, start_date)",
        ),
        postgres=(
            """CREATE TABLE IF NOT EXISTS trips (
                id TEXT PRIMARY KEY,
                namespace TEXT NOT NULL,
                origin TEXT,
                destination TEXT NOT NULL,
                start_date DATE NOT NULL,
                end_date DATE,
                created_by TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                UNIQUE (namespace, destination, start_date)
            )""",
            "CREATE INDEX IF NOT EXISTS trips_start ON trips (start_date)",
            "CREATE INDEX IF NOT EXISTS trips_namespace ON trips (namespace, start_date)",
        ),
    ),
    Migration(
        version=2,
        description="a trip's approval state (NULL: nothing to approve)",
        sqlite=("ALTER TABLE trips ADD COLUMN state TEXT",),
        postgres=("ALTER TABLE trips ADD COLUMN IF NOT EXISTS state TEXT",),
    ),
    Migration(
        version=3,
        description="the cities as the traveller wrote them (shown back; the keys stay canonical)",
        sqlite=(
            "ALTER TABLE trips ADD COLUMN destination_as_typed TEXT",
            "ALTER TABLE trips ADD COLUMN origin_as_typed TEXT",
        ),
        postgres=(
            "ALTER TABLE trips ADD COLUMN IF NOT EXISTS destination_as_typed TEXT",
            "ALTER TABLE trips ADD COLUMN IF NOT EXISTS origin_as_typed TEXT",
        ),
    ),
)

_COLUMNS = (
    "id, namespace, origin, destination, start_date, end_date, created_by, created_at, state, "
    "destination_as_typed, origin_as_typed"
)
# States whose trips are still going ahead (warmed for); NULL is one too.
GOING = ("pending", "approved")


class InvalidTrip(ValueError):
    """A trip that cannot be saved: a malformed date, or an end before the start."""


@dataclass(frozen=True, slots=True)
class Trip:
    id: str
    namespace: str
    destination: str
    start_date: date
    end_date: date | None
    origin: str | None
    created_by: str
    created_at: datetime
    state: str | None = None  # the approval state, None when nothing needed approval
    # The cities as the traveller wrote them ("成都"); `destination` is the catalogue name
    # that makes "成都" and "Chengdu" one trip. None: as `destination` / `origin`.
    destination_as_typed: str | None = None
    origin_as_typed: str | None = None

    @property
    def shown_destination(self) -> str:
        """The destination in the traveller's own words: what every list shows."""
        return self.destination_as_typed or self.destination

    @property
    def shown_origin(self) -> str | None:
        return (self.origin_as_typed or self.origin) if self.origin else None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "namespace": self.namespace,
            "origin": self.origin,
            "destination": self.destination,
            "start_date": self.start_date.isoformat(),
            "end_date": self.end_date.isoformat() if self.end_date else None,
            "created_by": self.created_by,
            "created_at": self.created_at.isoformat(),
            "state": self.state,
            "destination_as_typed": self.shown_destination,
            "origin_as_typed": self.shown_origin,
        }


def parse_date(text: str, *, field: str = "date") -> date:
    """A `YYYY-MM-DD` date, or `InvalidTrip` naming the field and the expected form."""
    try:
        return date.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        raise InvalidTrip(f"{field} must be a date written YYYY-MM-DD (got {text!r})") from None


def canonical_city(text: str) -> tuple[str, bool]:
    """`(name, known)`: a catalogue city's English name, or the text as typed.

    Saving "成都" and "Chengdu" must be the same trip, so callers store this name (and
    the text as typed beside it, to show back).
    """
    from bot.planning.inventory.catalogue import load_catalogue

    city = load_catalogue().city(text)
    return (city.en, True) if city is not None else (" ".join(text.split()), False)


def save_planned(
    store: TripStore, trip: PlannedTrip, traveller: str, *, created_by: str
) -> tuple[Trip, bool]:
    """Save a planned trip for the `traveller` namespace, under catalogue city names."""
    origin = canonical_city(trip.origin)[0] if trip.origin else None
    destination = canonical_city(trip.destination)[0]
    return store.add(
        traveller,
        destination,
        trip.start,
        trip.end,
        origin,
        created_by=created_by,
        as_typed=(trip.destination, trip.origin),
    )


class TripStore:
    """Trips on a memory `Backend` (SQLite or PostgreSQL); the schema is created on first use.

    `timezone` is where trip dates are local: it decides which day "today" is in `due`.
    """

    def __init__(self, backend: Backend, *, timezone: tzinfo = UTC) -> None:
        self.backend = backend
        self.timezone = timezone
        self._migrated = False

    def _ready(self) -> None:
        if not self._migrated:
            migrate(self.backend, COMPONENT, TRIP_MIGRATIONS)
            self._migrated = True

    def prepare(self) -> None:
        """Create or upgrade the trips table now (approvals need it before they write)."""
        self._ready()

    def _date_param(self, value: date | None) -> Any:
        if value is None:
            return None
        return value if self.backend.name == "postgresql" else value.isoformat()

    @staticmethod
    def _date_value(value: Any) -> date | None:
        if value is None:
            return None
        if isinstance(value, datetime):
            return value.date()
        if isinstance(value, date):
            return value
        return date.fromisoformat(str(value))

    def _trip(self, row: Any) -> Trip:
        start = self._date_value(row[4])
        assert start is not None
        return Trip(
            id=str(row[0]),
            namespace=str(row[1]),
            origin=row[2],
            destination=str(row[3]),
            start_date=start,
            end_date=self._date_value(row[5]),
            created_by=str(row[6]),
            created_at=self.backend.from_db_time(row[7]),
            state=row[8],
            destination_as_typed=row[9],
            origin_as_typed=row[10],
        )

    def add(
        self,
        namespace: str,
        destination: str,
        start: date,
        end: date | None = None,
        origin: str | None = None,
        *,
        created_by: str,
        as_typed: tuple[str | None, str | None] = (None, None),
    ) -> tuple[Trip, bool]:
        """Save a trip; `(trip, created)`. Saving the same trip again saves nothing new.

        A trip is the same when namespace, destination and start date match; a repeat
        only fills in an end date or origin the first save did not have. `as_typed`: the
        destination and origin as the traveller wrote them, kept to show back.
        """
        namespace = namespace.strip()
        destination = " ".join(destination.split())
        origin = " ".join(origin.split()) if origin else None
        typed = [" ".join(said.split()) or None if said else None for said in as_typed]
        typed_origin = typed[1] if origin else None
        if not namespace:
            raise InvalidTrip("a trip needs the traveller's namespace")
        if not destination:
            raise InvalidTrip("a trip needs a destination")
        if end is not None and end < start:
            raise InvalidTrip(
                f"the end date {end.isoformat()} is before the start date {start.isoformat()}"
            )
        self._ready()
        sql = self.backend.sql
        key = (namespace, destination, self._date_param(start))
        with self.backend.transaction(f"trips:{namespace}") as cur:
            cur.execute(
                sql(
                    f"INSERT INTO trips ({_COLUMNS}) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (namespace, destination, start_date) DO NOTHING"
                ),
                (
                    uuid.uuid4().hex,
                    namespace,
                    origin,
                    destination,
                    self._date_param(start),
                    self._date_param(end),
                    created_by,
                    self.backend.to_db_time(utcnow()),
                    None,
                    typed[0],
                    typed_origin,
                ),
            )
            created = cur.rowcount == 1
            if not created:
                cur.execute(
                    sql(
                        "UPDATE trips SET end_date = COALESCE(end_date, %s), "
                        # The typed origin goes with the origin it names: a new one, or
                        # the one saved before cities were kept as typed (then NULL).
                        "origin_as_typed = CASE WHEN origin_as_typed IS NULL "
                        "AND COALESCE(origin, %s) = %s THEN %s ELSE origin_as_typed END, "
                        "origin = COALESCE(origin, %s), "
                        "destination_as_typed = COALESCE(destination_as_typed, %s) "
                        "WHERE namespace = %s AND destination = %s AND start_date = %s"
                    ),
                    (self._date_param(end), origin, origin, typed_origin, origin, typed[0], *key),
                )
            cur.execute(
                sql(
                    f"SELECT {_COLUMNS} FROM trips "
                    "WHERE namespace = %s AND destination = %s AND start_date = %s"
                ),
                key,
            )
            row = cur.fetchone()
        return self._trip(row), created

    def remove(self, namespace: str, destination: str, start: date) -> Trip | None:
        """Delete the trip `add` would save under these; the trip deleted, or None."""
        self._ready()
        key = (namespace.strip(), " ".join(destination.split()), self._date_param(start))
        where = "WHERE namespace = %s AND destination = %s AND start_date = %s"
        with self.backend.transaction(f"trips:{key[0]}") as cur:
            cur.execute(self.backend.sql(f"SELECT {_COLUMNS} FROM trips {where}"), key)
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute(self.backend.sql(f"DELETE FROM trips {where}"), key)
        return self._trip(row)

    def list(self, namespace: str | None = None, *, limit: int | None = None) -> list[Trip]:
        """Trips by start date (one traveller's, or everyone's)."""
        self._ready()
        params: list[Any] = [namespace] if namespace else []
        where = "WHERE namespace = %s " if namespace else ""
        tail = "LIMIT %s" if limit is not None else ""
        if limit is not None:
            params.append(limit)
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    f"SELECT {_COLUMNS} FROM trips {where}"
                    f"ORDER BY start_date, namespace, destination {tail}"
                ),
                tuple(params),
            )
            rows = cur.fetchall()
        return [self._trip(row) for row in rows]

    def get(self, trip_id: str) -> Trip | None:
        self._ready()
        with self.backend.transaction() as cur:
            cur.execute(self.backend.sql(f"SELECT {_COLUMNS} FROM trips WHERE id = %s"), (trip_id,))
            row = cur.fetchone()
        return self._trip(row) if row else None

    def set_state(self, cur: Cursor, trip_id: str, state: str | None) -> bool:
        """Set a trip's approval state inside the caller's transaction (`cur`, on this
        store's database); False when there is no such trip."""
        cur.execute(self.backend.sql("UPDATE trips SET state = %s WHERE id = %s"), (state, trip_id))
        return bool(cur.rowcount == 1)

    def due(self, now: datetime, horizon_hours: float, *, batch_size: int = 500) -> Iterator[str]:
        """Namespaces with a trip starting within `horizon_hours` of `now`, or under way.

        Under way: started on or before today and not yet ended (a trip without an end
        date is under way on its start day only). Each namespace is yielded once, in
        order, fetched `batch_size` at a time in short transactions, so ten thousand
        travellers never sit in memory or hold a transaction open.
        """
        self._ready()
        moment = now if now.tzinfo is not None else now.replace(tzinfo=UTC)
        local = moment.astimezone(self.timezone)
        today = local.date()
        last_day = (local + timedelta(hours=max(horizon_hours, 0))).date()
        statement = self.backend.sql(
            "SELECT DISTINCT namespace FROM trips "
            "WHERE start_date <= %s AND (start_date >= %s OR end_date >= %s) "
            "AND (state IS NULL OR state IN (%s, %s)) "
            "AND namespace > %s ORDER BY namespace LIMIT %s"
        )
        after = ""
        while True:
            with self.backend.transaction() as cur:
                cur.execute(
                    statement,
                    (
                        self._date_param(last_day),
                        self._date_param(today),
                        self._date_param(today),
                        *GOING,
                        after,
                        batch_size,
                    ),
                )
                batch = [str(row[0]) for row in cur.fetchall()]
            yield from batch
            if len(batch) < batch_size:
                return
            after = batch[-1]

    def close(self) -> None:
        self.backend.close()
