"""`travel-bot policy set/check/show/grade/audit` and the trips' approval state in
`travel-bot trips list`, on a real SQLite file and a real PostgreSQL schema."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.planning.trips import TripStore
from bot.policy.approvals import Approvals
from bot.policy.audit import AuditLog
from bot.policy.loading import load_policy
from bot.policy.rules import Allowance, Named
from memory.backends import backend_from_dsn
from tests.bot.cli.conftest import TravelBot
from tests.bot.policy.conftest import EXAMPLE

ORG = "T0ACME"


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "policy.yaml"
    path.write_text(EXAMPLE, encoding="utf-8")
    return path


def test_set_show_and_check(travel_bot: TravelBot, dsn: str, policy_file: Path) -> None:
    checked = travel_bot("policy", "check", "--org", ORG, str(policy_file), MEMORY_DSN=dsn)
    assert checked.status == 0
    assert (
        checked.out
        == f"ok: {policy_file} is a valid policy for {ORG} (grades L1, L3; default L1)\n"
    )
    assert (
        travel_bot("policy", "show", "--org", ORG, MEMORY_DSN=dsn).out
        == f"(no travel policy for {ORG})\n"
    )

    done = travel_bot(
        "policy", "set", "--org", ORG, str(policy_file), "--by", "ana", MEMORY_DSN=dsn
    )
    assert (done.status, done.out) == (0, f"set: {ORG} travel policy version 1 (by ana)\n")
    shown = travel_bot("policy", "show", "--org", ORG, MEMORY_DSN=dsn)
    header, *body = shown.out.splitlines()
    assert header.startswith(f"# {ORG} travel policy, version 1, set by ana at ")
    assert "\n".join(body) + "\n" == EXAMPLE
    travel_bot("policy", "set", "--org", ORG, str(policy_file), MEMORY_DSN=dsn)
    history = travel_bot(
        "policy", "show", "--org", ORG, "--history", MEMORY_DSN=dsn
    ).out.splitlines()
    assert [line.split()[:2] for line in history] == [["version", "1"], ["version", "2"]]
    assert history[0].endswith("by ana") and " by cli:" in history[1]  # --by, or the login


def test_a_wrong_file_is_one_line_and_stores_nothing(
    travel_bot: TravelBot, dsn: str, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(EXAMPLE.replace("tier2: 400", "tier2: 四百"), encoding="utf-8")
    for verb in ("check", "set"):
        ran = travel_bot("policy", verb, "--org", ORG, str(bad), MEMORY_DSN=dsn)
        assert ran.status == 2 and ran.out == ""
        assert ran.err == (
            f"error: {bad}: hotel_cap_per_night.L1.tier2=四百 is not accepted: expected a "
            "whole amount per night from 1 to 1000000\n"
        )
    missing = travel_bot("policy", "check", "--org", ORG, str(tmp_path / "nope.yaml"))
    assert missing.status == 2 and "cannot be read (No such file or directory)" in missing.err
    wrong_org = travel_bot("policy", "show", "--org", "T1:U1")
    assert wrong_org.status == 2 and "'T1:U1' is not an organisation" in wrong_org.err
    assert (
        travel_bot("policy", "show", "--org", ORG, MEMORY_DSN=dsn).out
        == f"(no travel policy for {ORG})\n"
    )


def test_grades_one_at_a_time_and_from_csv(
    travel_bot: TravelBot, dsn: str, policy_file: Path, tmp_path: Path
) -> None:
    early = travel_bot("policy", "grade", "--user", f"{ORG}:U0ALICE", "L3", MEMORY_DSN=dsn)
    assert early.status == 0 and "note: T0ACME has no travel policy yet" in early.out
    travel_bot("policy", "set", "--org", ORG, str(policy_file), MEMORY_DSN=dsn)
    unknown = travel_bot("policy", "grade", "--user", f"{ORG}:U0ALICE", "L9", MEMORY_DSN=dsn)
    assert unknown.status == 2
    assert (
        unknown.err
        == "error: grade=L9 is not accepted: expected a grade of T0ACME's policy: L1, L3\n"
    )

    people = tmp_path / "people.csv"
    people.write_text(
        f"namespace,grade,department\n{ORG}:U0BOB,L1\n{ORG}:U0CAROL,L3,sales\n", encoding="utf-8"
    )
    ran = travel_bot("policy", "grade", "--csv", str(people), "--by", "hr", MEMORY_DSN=dsn)
    assert (ran.status, ran.out) == (
        0,
        f"set: {ORG}:U0BOB grade L1\nset: {ORG}:U0CAROL grade L3 (sales)\n",
    )

    broken = tmp_path / "broken.csv"
    broken.write_text(f"{ORG}:U0DAN,L1\nT0ACME-U0ERIN,L3\n", encoding="utf-8")
    refused = travel_bot("policy", "grade", "--csv", str(broken), MEMORY_DSN=dsn)
    assert refused.status == 2 and refused.err.startswith(
        f"error: {broken} line 2: 'T0ACME-U0ERIN' is not a namespace"
    )
    audit = travel_bot("policy", "audit", "--org", ORG, MEMORY_DSN=dsn).out
    assert "U0DAN" not in audit  # the whole file was refused
    assert f"grade L3 (sales)  by hr  for {ORG}:U0CAROL" in audit


def test_audit_lists_decisions_and_reads_and_trips_list_shows_the_state(
    travel_bot: TravelBot, dsn: str, policy_file: Path
) -> None:
    travel_bot("policy", "set", "--org", ORG, str(policy_file), "--by", "ana", MEMORY_DSN=dsn)
    alice, approver = f"{ORG}:U0ALICE", f"{ORG}:U0APPROVER"
    trips = TripStore(backend_from_dsn(dsn))
    try:
        trip, _ = trips.add(
            alice, "Chengdu", date(2026, 12, 10), date(2026, 12, 12), "Shanghai", created_by=alice
        )
        audit = AuditLog(trips.backend)
        approvals = Approvals(trips.backend, trips=trips, audit=audit)
        breaks = Allowance(load_policy(EXAMPLE), "L1").hotel(Named("Chengdu", "成都"), 580)
        request, _ = approvals.request(
            trip_id=trip.id,
            trip="Shanghai -> Chengdu, 2026-12-10..2026-12-12",
            traveller=alice,
            requester=alice,
            choice="Atour Hotel, CNY 580/night",
            breaks=breaks,
            reason="client office next door",
            approvers=[approver],
            policy_version=1,
        )
        listed = travel_bot("trips", "list", "--user", alice, MEMORY_DSN=dsn).out
        assert listed.rstrip().endswith("[approval pending]")
        approvals.decide(request.id, decider=approver, approve=True, is_admin=False)
        audit.memory_read(reader=f"{ORG}:U0ADMIN", traveller=alice, turn="t1")
    finally:
        trips.close()
    assert travel_bot("trips", "list", MEMORY_DSN=dsn).out.rstrip().endswith("[approval approved]")
    lines = travel_bot("policy", "audit", "--org", ORG, MEMORY_DSN=dsn).out.splitlines()
    kinds = [line.split("  ")[1] for line in lines]
    assert kinds == [
        "policy version 1",
        "approval requested",
        "approved",
        "read a colleague's memory to plan",
    ]
    decided = lines[2]
    assert (
        f"by {approver}  for {alice}  trip: Shanghai -> Chengdu, 2026-12-10..2026-12-12" in decided
    )
    assert "rule: over policy: Chengdu hotel cap 400/night (L1), this hotel 580/night" in decided
    assert decided.endswith('reason: "client office next door"')
    chinese = travel_bot("policy", "audit", "--org", ORG, "--lang", "zh", MEMORY_DSN=dsn).out
    assert "rule: 超出差标：成都酒店上限 400/晚（L1），此酒店 580/晚" in chinese
    assert (
        travel_bot("policy", "audit", "--org", "T0OTHER", MEMORY_DSN=dsn).out
        == "(nothing audited for T0OTHER)\n"
    )
