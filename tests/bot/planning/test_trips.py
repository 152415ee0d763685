"""The trip store on a real SQLite file and a real PostgreSQL schema."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.cli import build_parser
from bot.planning.trips import COMPONENT, TRIP_MIGRATIONS, InvalidTrip, TripStore, parse_date
from bot.settings import Settings
from memory.backends import backend_from_dsn
from memory.migrations import migrate


@pytest.fixture
def trips(dsn: str) -> Iterator[TripStore]:
    store = TripStore(backend_from_dsn(dsn), timezone=ZoneInfo("Asia/Shanghai"))
    yield store
    store.close()


def test_saving_twice_saves_once(trips: TripStore) -> None:
    first, created = trips.add("T1:U1", "Chengdu", date(2026, 12, 10), created_by="T1:UADMIN")
    again, created_again = trips.add(
        "T1:U1",
        "Chengdu",
        date(2026, 12, 10),
        end=date(2026, 12, 12),
        origin="Shanghai",
        created_by="T1:U1",
    )
    assert created and not created_again
    assert again.id == first.id
    # The repeat fills in what the first save lacked, and keeps who created it.
    assert again.end_date == date(2026, 12, 12)
    assert again.origin == "Shanghai"
    assert again.created_by == "T1:UADMIN"
    assert [t.id for t in trips.list("T1:U1")] == [first.id]


def test_list_by_traveller_and_everyone(trips: TripStore) -> None:
    trips.add("T1:U2", "Beijing", date(2026, 12, 20), created_by="cli")
    trips.add("T1:U1", "Chengdu", date(2026, 12, 10), end=date(2026, 12, 11), created_by="cli")
    trips.add("T1:U1", "Shenzhen", date(2026, 11, 30), created_by="cli")

    mine = trips.list("T1:U1")
    assert [(t.destination, t.start_date) for t in mine] == [
        ("Shenzhen", date(2026, 11, 30)),
        ("Chengdu", date(2026, 12, 10)),
    ]
    assert mine[1].end_date == date(2026, 12, 11)
    assert mine[1].to_json()["start_date"] == "2026-12-10"
    assert len(trips.list()) == 3


def test_end_before_start_is_refused(trips: TripStore) -> None:
    with pytest.raises(InvalidTrip, match="before the start date"):
        trips.add("T1:U1", "Chengdu", date(2026, 12, 10), end=date(2026, 12, 9), created_by="cli")
    assert trips.list() == []


def test_parse_date_explains_the_expected_form() -> None:
    assert parse_date("2026-12-10") == date(2026, 12, 10)
    with pytest.raises(InvalidTrip, match="YYYY-MM-DD"):
        parse_date("10/12/2026", field="--start")


def test_due_finds_upcoming_and_ongoing_trips_once(trips: TripStore) -> None:
    # 2026-12-01 09:00 in Shanghai.
    now = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
    trips.add("T1:SOON", "Chengdu", date(2026, 12, 2), created_by="cli")
    trips.add("T1:SOON", "Beijing", date(2026, 12, 3), created_by="cli")  # same person twice
    trips.add("T1:TODAY", "Xi'an", date(2026, 12, 1), created_by="cli")
    trips.add("T1:UNDERWAY", "Hangzhou", date(2026, 11, 28), end=date(2026, 12, 4), created_by="c")
    trips.add("T1:OVER", "Wuhan", date(2026, 11, 20), end=date(2026, 11, 30), created_by="cli")
    trips.add("T1:PAST", "Nanjing", date(2026, 11, 30), created_by="cli")
    trips.add("T1:LATER", "Guangzhou", date(2026, 12, 9), created_by="cli")

    assert sorted(trips.due(now, 48)) == ["T1:SOON", "T1:TODAY", "T1:UNDERWAY"]
    assert sorted(trips.due(now, 24 * 8)) == ["T1:LATER", "T1:SOON", "T1:TODAY", "T1:UNDERWAY"]


def test_due_streams_many_travellers_in_batches(trips: TripStore) -> None:
    for i in range(23):
        trips.add(f"T1:U{i:03d}", "Chengdu", date(2026, 12, 2), created_by="cli")
    now = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
    found = list(trips.due(now, 48, batch_size=5))
    assert found == sorted(found)
    assert len(found) == len(set(found)) == 23


def test_trips_survive_a_new_store_on_the_same_database(dsn: str) -> None:
    first = TripStore(backend_from_dsn(dsn))
    first.add("T1:U1", "Chengdu", date(2026, 12, 10), created_by="cli")
    first.close()
    second = TripStore(backend_from_dsn(dsn))
    try:
        assert [t.destination for t in second.list("T1:U1")] == ["Chengdu"]
    finally:
        second.close()


# The `travel-bot trips` command line.


def cli(dsn: str, *argv: str) -> int:
    args = build_parser().parse_args(["trips", *argv])
    result: int = args.handler(args, Settings(memory_dsn=dsn))
    return result


def test_cli_adds_and_lists_trips(dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Fixed dates, whatever today is: --allow-past keeps the test about adding and listing.
    common = ("--user", "T1:U1", "--start", "2026-12-10", "--end", "2026-12-12", "--allow-past")
    assert cli(dsn, "add", *common, "--destination", "成都", "--origin", "上海") == 0
    # Shown back in the traveller's words (it said "Shanghai -> Chengdu").
    assert "saved: 2026-12-10..2026-12-12  T1:U1  上海 -> 成都  (by cli)" in capsys.readouterr().out
    # The same trip named in English is the same trip, still shown as first typed.
    assert cli(dsn, "add", *common, "--destination", "chengdu") == 0
    assert capsys.readouterr().out.startswith(
        "already saved: 2026-12-10..2026-12-12  T1:U1  上海 -> 成都"
    )
    assert (
        cli(
            dsn,
            "add",
            "--user",
            "T1:U2",
            "--destination",
            "Atlantis",
            "--start",
            "2026-12-01",
            "--allow-past",
        )
        == 0
    )
    assert "not in the city catalogue" in capsys.readouterr().out

    assert cli(dsn, "list", "--user", "T1:U1", "--json") == 0
    [trip] = json.loads(capsys.readouterr().out)
    assert trip["destination"] == "Chengdu" and trip["end_date"] == "2026-12-12"  # the key
    assert trip["destination_as_typed"] == "成都" and trip["origin_as_typed"] == "上海"
    assert trip["created_by"] == "cli"
    assert cli(dsn, "list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["2026-12-01", "2026-12-10..2026-12-12"]
    assert lines == [
        "2026-12-01  T1:U2  Atlantis  (by cli)",
        "2026-12-10..2026-12-12  T1:U1  上海 -> 成都  (by cli)",
    ]


def test_cli_refuses_bad_dates(dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ("add", "--user", "T1:U1", "--destination", "成都")
    assert cli(dsn, *base, "--start", "2026-12-10", "--end", "2026-12-09") == 2
    assert "error: --end 2026-12-09 is before --start 2026-12-10" in capsys.readouterr().err
    assert cli(dsn, *base, "--start", "next friday") == 2
    assert "--start must be a date written YYYY-MM-DD" in capsys.readouterr().err
    assert cli(dsn, "list") == 0
    assert capsys.readouterr().out.strip() == "(no trips)"


def test_cli_refuses_a_trip_that_is_over_unless_told(
    dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    today = datetime.now(ZoneInfo(Settings().travel_timezone)).date()
    base = ("add", "--user", "T1:U1", "--destination", "成都")
    assert cli(dsn, *base, "--start", "2020-01-01") == 2
    assert "add --allow-past" in capsys.readouterr().err
    # A trip under way (started yesterday, ends tomorrow) is not over.
    yesterday, tomorrow = today - timedelta(days=1), today + timedelta(days=1)
    under_way = ("--start", yesterday.isoformat(), "--end", tomorrow.isoformat())
    assert cli(dsn, *base, *under_way) == 0
    assert cli(dsn, *base, "--start", "2020-01-01", "--allow-past") == 0
    capsys.readouterr()
    assert cli(dsn, "list", "--user", "T1:U1") == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_cli_removes_a_trip_by_what_it_was_added_with(
    dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for user in ("T1:U1", "T1:U2"):
        added = ("--user", user, "--destination", "成都", "--start", "2099-03-01")
        assert cli(dsn, "add", *added) == 0
    capsys.readouterr()
    # Named in the other language, it is the same trip; only that traveller's goes.
    gone = ("--user", "T1:U1", "--destination", "Chengdu", "--start", "2099-03-01")
    assert cli(dsn, "remove", *gone) == 0
    assert capsys.readouterr().out.startswith("removed: 2099-03-01  T1:U1  成都")
    assert cli(dsn, "list", "--json") == 0
    assert [t["namespace"] for t in json.loads(capsys.readouterr().out)] == ["T1:U2"]
    # Removing it again: nothing to remove, said, exit 1.
    assert cli(dsn, "remove", *gone) == 1
    err = capsys.readouterr().err
    assert "no trip of T1:U1 to Chengdu starting 2099-03-01" in err and "nothing was removed" in err
    assert cli(dsn, "remove", "--user", "T1:U2", "--destination", "成都", "--start", "soon") == 2
    assert "--start must be a date written YYYY-MM-DD" in capsys.readouterr().err


@pytest.mark.parametrize("verb", ["add", "remove"])
@pytest.mark.parametrize("destination", ["", "   "])
def test_an_empty_destination_is_a_usage_error(
    dsn: str, capsys: pytest.CaptureFixture[str], verb: str, destination: str
) -> None:
    with pytest.raises(SystemExit) as refused:
        cli(dsn, verb, "--user", "T1:U1", "--destination", destination, "--start", "2099-01-01")
    assert refused.value.code == 2
    assert "argument --destination: empty text" in capsys.readouterr().err


def test_the_store_removes_one_trip(trips: TripStore) -> None:
    trips.add("T1:U1", "Chengdu", date(2099, 1, 1), created_by="test")
    trips.add("T1:U1", "Chengdu", date(2099, 2, 1), created_by="test")
    removed = trips.remove("T1:U1", "Chengdu", date(2099, 1, 1))
    assert removed is not None and removed.start_date == date(2099, 1, 1)
    assert trips.remove("T1:U1", "Chengdu", date(2099, 1, 1)) is None
    assert [t.start_date for t in trips.list("T1:U1")] == [date(2099, 2, 1)]


def test_trips_stay_in_a_database_when_memory_is_in_bailian(tmp_path: Path) -> None:
    """Bailian memory (issue 17): saved trips need SQL of their own (`TRIPS_DSN`)."""
    sql = f"sqlite:///{tmp_path}/m.db"
    assert Settings(memory_dsn=sql).trips_database == sql
    assert Settings(memory_dsn="bailian://default").trips_database == "sqlite:///./data/trips.db"
    own = f"sqlite:///{tmp_path}/trips.db"
    assert Settings(memory_dsn="bailian://lib1", trips_dsn=own).trips_database == own


def test_a_trip_saved_before_the_upgrade_is_shown_in_one_language_once_named_again(
    dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database of the release before cities were kept as typed holds its trips under
    catalogue names only. Upgraded, it keeps them; the traveller naming one again in their
    words shows it so, origin too: the repeat once filled in only the destination, and
    the trip read "Shanghai -> 成都"."""
    backend = backend_from_dsn(dsn)
    migrate(backend, COMPONENT, TRIP_MIGRATIONS[:2])  # trips as the release before kept them
    start = date(2099, 3, 1)
    with backend.transaction("trips:T1:U1") as cur:
        cur.execute(
            backend.sql(
                "INSERT INTO trips (id, namespace, origin, destination, start_date, end_date, "
                "created_by, created_at, state) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            ),
            (
                "old",
                "T1:U1",
                "Shanghai",
                "Chengdu",
                start if backend.name == "postgresql" else start.isoformat(),
                None,
                "cli",
                backend.to_db_time(datetime.now(UTC)),
                "pending",
            ),
        )
    backend.close()
    assert cli(dsn, "list") == 0
    assert (
        capsys.readouterr().out
        == "2099-03-01  T1:U1  Shanghai -> Chengdu  (by cli)  [approval pending]\n"
    )
    again = (
        "--user",
        "T1:U1",
        "--start",
        "2099-03-01",
        "--destination",
        "成都",
        "--origin",
        "上海",
    )
    assert cli(dsn, "add", *again) == 0
    assert capsys.readouterr().out.startswith("already saved: 2099-03-01  T1:U1  上海 -> 成都  ")
    assert cli(dsn, "list", "--json") == 0
    [trip] = json.loads(capsys.readouterr().out)
    assert (trip["id"], trip["state"], trip["origin"], trip["destination"]) == (
        "old",
        "pending",
        "Shanghai",
        "Chengdu",
    )
    assert (trip["origin_as_typed"], trip["destination_as_typed"]) == ("上海", "成都")
