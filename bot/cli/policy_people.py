"""`travel-bot policy grade` and `travel-bot policy audit`: people's grades, and the log.

    travel-bot policy grade --user T024BE7LD:U01ABC L3 [--department sales]
    travel-bot policy grade --csv people.csv        # namespace,grade[,department] a line
    travel-bot policy audit --org T024BE7LD [--since 2026-12-01] [--json] [--lang zh]

A grade the organisation's policy does not name is refused (exit 2); without a policy
yet any well-formed grade is kept, with a note. A CSV file is checked whole first: one
wrong line stops it with that line's number and nothing is saved. `audit` first expires
approval requests whose time is up, so what it lists is what stands.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from bot.cli.options import add_user, namespace, org
from bot.compose.parts import open_approvals, open_trip_store
from bot.planning.trips import TripStore
from bot.policy.audit import AuditEntry
from bot.policy.orgs import org_of
from bot.policy.rules import Break
from bot.policy.store import PolicyBook
from bot.settings import Settings
from memory.errors import StoreUnavailable

GRADE = re.compile(r"[A-Za-z0-9_.-]{1,32}")
MAX_DEPARTMENT = 64
Row = tuple[str, str, str | None]


class BadInput(ValueError):
    """Input refused before anything is saved; the message is the whole line to print."""


def register(verbs: Any, *, by: Callable[[argparse.ArgumentParser], None]) -> None:
    grade = verbs.add_parser(
        "grade",
        help="set people's grades",
        description="Set a person's grade (and department), or many from a CSV file of "
        "namespace,grade[,department] lines. People without a grade get grades.default.",
    )
    add_user(grade, help="the person's namespace, e.g. T024BE7LD:U01ABC", required=False)
    grade.add_argument("grade", nargs="?", default=None, metavar="GRADE", help="e.g. L3")
    grade.add_argument("--department", default=None, help="their department (for approvers)")
    grade.add_argument("--csv", default=None, metavar="FILE", help="many people at once")
    by(grade)
    audit = verbs.add_parser(
        "audit",
        help="decisions and colleagues' memory reads",
        description="Every approval decision (who, when, which trip, which rule, which "
        "reason), refused attempts, requests, policy and grade changes, and every turn in "
        "which a travel admin's plan read a colleague's memory; oldest first.",
    )
    audit.add_argument("--org", required=True, type=org, metavar="ORG", help="the organisation")
    audit.add_argument("--since", default=None, metavar="YYYY-MM-DD", help="from this day (UTC)")
    audit.add_argument("--json", action="store_true", help="one JSON array")
    audit.add_argument("--lang", choices=("en", "zh"), default="en", help="rules in this language")


def run(args: argparse.Namespace, settings: Settings, by: str) -> int:
    trips = open_trip_store(settings)
    book = PolicyBook(trips.backend, cache_seconds=0)
    try:
        if args.policy_verb == "grade":
            return _grade(book, args, by)
        return _audit(book, trips, settings, args)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except StoreUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        trips.close()


def _grade(book: PolicyBook, args: argparse.Namespace, by: str) -> int:
    if args.csv:
        if args.user or args.grade or args.department:
            raise BadInput("--csv FILE sets many people: give no --user, GRADE or --department")
        rows = read_csv(args.csv)
    elif not args.user or not args.grade:
        raise BadInput("give --user NAMESPACE GRADE, or --csv FILE")
    else:
        rows = [_row(args.user, args.grade, args.department, where="")]
    notes = _check_grades(book, rows, where=args.csv or "")
    saved = book.set_people(rows, by=by)
    for person in saved:
        department = f" ({person.department})" if person.department else ""
        print(f"set: {person.namespace} grade {person.grade}{department}")
    for note in notes:
        print(f"note: {note}")
    return 0


def read_csv(path: str) -> list[Row]:
    """`namespace,grade[,department]` lines (a header line is skipped); `BadInput` names
    the first wrong line."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise BadInput(f"{path}: cannot be read ({reason})") from None
    rows: list[Row] = []
    for number, cells in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in cells]
        if not any(cells) or (number == 1 and cells[0].lower() == "namespace"):
            continue
        if not 2 <= len(cells) <= 3:
            raise BadInput(f"{path} line {number}: expected namespace,grade[,department]")
        department = cells[2] if len(cells) == 3 and cells[2] else None
        rows.append(_row(cells[0], cells[1], department, where=f"{path} line {number}: "))
    if not rows:
        raise BadInput(f"{path}: no people in it (namespace,grade[,department] a line)")
    return rows


def _row(user: str, grade: str, department: str | None, *, where: str) -> Row:
    try:
        ns = namespace(user)
    except argparse.ArgumentTypeError as exc:
        raise BadInput(f"{where}{exc}") from None
    if not GRADE.fullmatch(grade.strip()):
        raise BadInput(f"{where}grade={grade!r} is not accepted: expected letters, digits, - _ .")
    dept = department.strip() if department and department.strip() else None
    if dept is not None and len(dept) > MAX_DEPARTMENT:
        raise BadInput(
            f"{where}department is not accepted: expected at most {MAX_DEPARTMENT} characters"
        )
    return ns, grade.strip(), dept


def _check_grades(book: PolicyBook, rows: list[Row], *, where: str) -> list[str]:
    """Refuse grades the person's organisation's policy does not name; notes for
    organisations without a policy yet."""
    notes: list[str] = []
    for i, (ns, grade, _) in enumerate(rows, start=1):
        current = book.current(org_of(ns))
        if current is None:
            note = f"{org_of(ns)} has no travel policy yet; its grades apply once one is set"
            if note not in notes:
                notes.append(note)
        elif grade not in current.policy.grades:
            at = f"{where} row {i}: " if where else ""
            known = f"a grade of {org_of(ns)}'s policy: {', '.join(current.policy.grades)}"
            raise BadInput(f"{at}grade={grade} is not accepted: expected {known}")
    return notes


def _audit(book: PolicyBook, trips: TripStore, settings: Settings, args: argparse.Namespace) -> int:
    since = None
    if args.since:
        try:
            since = datetime.combine(date.fromisoformat(args.since), datetime.min.time(), UTC)
        except ValueError:
            raise BadInput(f"--since={args.since!r} is not accepted: expected YYYY-MM-DD") from None
    open_approvals(settings, trips, trips.backend).expire_due()
    entries = book.audit.entries(args.org, since=since)
    if args.json:
        print(json.dumps([e.to_json() for e in entries], ensure_ascii=False))
        return 0
    if not entries:
        print(f"(nothing audited for {args.org})")
    for entry in entries:
        print(line(entry, args.lang))
    return 0


def line(entry: AuditEntry, lang: str = "en") -> str:
    """One audit row in words: when, what, who, whose, which trip, rule and reason."""
    d: dict[str, Any] = dict(entry.detail)
    parts = [
        entry.at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ"),
        _what(entry),
        f"by {entry.actor}",
    ]
    if entry.subject:
        parts.append(f"for {entry.subject}")
    if d.get("trip"):
        parts.append(f"trip: {d['trip']}")
    if d.get("choice"):
        parts.append(f"choice: {d['choice']}")
    breaks = [Break.from_json(b).text(lang) for b in d.get("breaks") or []]
    if breaks:
        parts.append("rule: " + "; ".join(breaks))
    if d.get("reason"):
        parts.append(f"reason: {json.dumps(d['reason'], ensure_ascii=False)}")
    if d.get("note"):
        parts.append(f"note: {json.dumps(d['note'], ensure_ascii=False)}")
    return "  ".join(parts)


def _what(entry: AuditEntry) -> str:
    d = entry.detail
    if entry.kind == "decision_refused":
        return f"refused ({d.get('why', '?')}, wanted {d.get('wanted', '?')})"
    if entry.kind == "policy_set":
        return f"policy version {d.get('version', '?')}"
    if entry.kind == "grade_set":
        department = f" ({d['department']})" if d.get("department") else ""
        return f"grade {d.get('grade', '?')}{department}"
    if entry.kind == "memory_read":
        return "read a colleague's memory to plan"
    return {"approval_requested": "approval requested"}.get(entry.kind, entry.kind)


__all__ = ["BadInput", "line", "read_csv", "register", "run"]
