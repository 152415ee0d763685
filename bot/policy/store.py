"""Each organisation's travel policy and each person's grade, in the memory database.

    book = PolicyBook(backend, audit=AuditLog(backend), cache_seconds=60)
    book.set("T024BE7LD", yaml_text, by="cli:ana")      # version 1, 2, ...; PolicyError
    book.allowance("T024BE7LD:U01ABC")                   # their grade's rules, or None

A policy is versioned: `set` adds a version (the YAML as given, who, when) and never
changes an older one. Reads are cached in the process for `cache_seconds` (a policy
changed by another process is seen within that time; one set here is seen at once), and
"no policy" is cached too, so planning for an organisation without one costs no query.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.policy.audit import GRADE_SET, POLICY_SET, AuditLog
from bot.policy.loading import load_policy
from bot.policy.model import Policy
from bot.policy.orgs import member, org_of
from bot.policy.rules import Allowance
from bot.policy.schema import Tables
from memory.store import Backend, utcnow

if TYPE_CHECKING:
    pass

MAX_CACHED_PEOPLE = 10_000
_MISSING = object()


@dataclass(frozen=True, slots=True)
class PolicyVersion:
    """One version of an organisation's policy, as set."""

    org: str
    version: int
    text: str
    set_by: str
    set_at: datetime
    policy: Policy


@dataclass(frozen=True, slots=True)
class Person:
    """A person's grade (and department) as a travel admin set them."""

    namespace: str
    grade: str
    department: str | None
    set_by: str
    set_at: datetime


class _Cache:
    """A small in-process cache with a time to live, bounded in size."""

    def __init__(self, seconds: float, size: int, clock: Callable[[], float]) -> None:
        self.seconds, self.size, self.clock = seconds, size, clock
        self._items: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is None or found[0] <= self.clock():
                return _MISSING
            self._items.move_to_end(key)
            return found[1]

    def put(self, key: str, value: Any) -> None:
        if self.seconds <= 0:
            return
        with self._lock:
            self._items[key] = (self.clock() + self.seconds, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class PolicyBook:
    """Policies and grades on a memory `Backend`; the tables are created on first use."""

    def __init__(
        self,
        backend: Backend,
        *,
        audit: AuditLog | None = None,
        cache_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.backend = backend
        self.audit = audit if audit is not None else AuditLog(backend)
        self._tables = Tables(backend)
        self._policies = _Cache(cache_seconds, MAX_CACHED_PEOPLE, clock)
        self._people = _Cache(cache_seconds, MAX_CACHED_PEOPLE, clock)

    # -- policies ----------------------------------------------------------------------

    def set(
        self, org: str, text: str, *, by: str, airline: Callable[[str], str | None] | None = None
    ) -> PolicyVersion:
        """Store `text` as the organisation's next version; `PolicyError` if it is wrong
        (then nothing is stored). `airline` checks airline names (`load_policy`)."""
        policy = load_policy(text, airline=airline)
        self._tables.ready()
        with self.backend.transaction(f"policy:{org}") as cur:
            cur.execute(
                self.backend.sql("SELECT MAX(version) FROM travel_policies WHERE org = %s"),
                (org,),
            )
            row = cur.fetchone()
            number = (int(row[0]) if row and row[0] is not None else 0) + 1
            now = utcnow()
            cur.execute(
                self.backend.sql(
                    "INSERT INTO travel_policies (org, version, body, set_by, set_at) "
                    "VALUES (%s, %s, %s, %s, %s)"
                ),
                (org, number, text, by, self.backend.to_db_time(now)),
            )
            self.audit.record(org, POLICY_SET, actor=by, detail={"version": number}, cur=cur)
        version = PolicyVersion(org, number, text, by, now, policy)
        self._policies.put(org, version)
        return version

    def current(self, org: str) -> PolicyVersion | None:
        """The organisation's newest version (cached), or None when it has none."""
        cached = self._policies.get(org)
        if cached is not _MISSING:
            result: PolicyVersion | None = cached
            return result
        found = self._select(org, "ORDER BY version DESC LIMIT 1", ())
        version = found[0] if found else None
        self._policies.put(org, version)
        return version

    def version(self, org: str, number: int) -> PolicyVersion | None:
        found = self._select(org, "AND version = %s", (number,))
        return found[0] if found else None

    def history(self, org: str) -> list[PolicyVersion]:
        """Every version, oldest first."""
        return self._select(org, "ORDER BY version", ())

    def _select(self, org: str, tail: str, params: tuple[Any, ...]) -> list[PolicyVersion]:
        self._tables.ready()
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "SELECT org, version, body, set_by, set_at FROM travel_policies "
                    f"WHERE org = %s {tail}"
                ),
                (org, *params),
            )
            rows = cur.fetchall()
        return [
            PolicyVersion(
                org=str(row[0]),
                version=int(row[1]),
                text=str(row[2]),
                set_by=str(row[3]),
                set_at=self.backend.from_db_time(row[4]),
                policy=load_policy(str(row[2])),
            )
            for row in rows
        ]

    # -- people ------------------------------------------------------------------------

    def set_people(self, people: Iterable[tuple[str, str, str | None]], *, by: str) -> list[Person]:
        """Set `(namespace, grade, department)` for each person, all in one transaction."""
        rows = list(people)
        if not rows:
            return []
        self._tables.ready()
        now = utcnow()
        saved = []
        with self.backend.transaction("policy:people") as cur:
            for namespace, grade, department in rows:
                cur.execute(
                    self.backend.sql(
                        "INSERT INTO policy_people "
                        "(namespace, org, grade, department, set_by, set_at) "
                        "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (namespace) DO UPDATE "
                        "SET grade = excluded.grade, department = excluded.department, "
                        "set_by = excluded.set_by, set_at = excluded.set_at"
                    ),
                    (
                        namespace,
                        org_of(namespace),
                        grade,
                        department,
                        by,
                        self.backend.to_db_time(now),
                    ),
                )
                detail = {"grade": grade, "department": department}
                self.audit.record(
                    org_of(namespace),
                    GRADE_SET,
                    actor=by,
                    subject=namespace,
                    detail=detail,
                    cur=cur,
                )
                saved.append(Person(namespace, grade, department, by, now))
        for person in saved:
            self._people.put(person.namespace, person)
        return saved

    def person(self, namespace: str) -> Person | None:
        """The person's grade as set (cached), or None when nobody set one."""
        cached = self._people.get(namespace)
        if cached is not _MISSING:
            result: Person | None = cached
            return result
        self._tables.ready()
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "SELECT namespace, grade, department, set_by, set_at FROM policy_people "
                    "WHERE namespace = %s"
                ),
                (namespace,),
            )
            row = cur.fetchone()
        person = (
            Person(str(row[0]), str(row[1]), row[2], str(row[3]), self.backend.from_db_time(row[4]))
            if row
            else None
        )
        self._people.put(namespace, person)
        return person

    def people(self, org: str) -> list[Person]:
        """Everyone of the organisation with a grade set, by namespace."""
        self._tables.ready()
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "SELECT namespace, grade, department, set_by, set_at FROM policy_people "
                    "WHERE org = %s ORDER BY namespace"
                ),
                (org,),
            )
            rows = cur.fetchall()
        return [
            Person(str(r[0]), str(r[1]), r[2], str(r[3]), self.backend.from_db_time(r[4]))
            for r in rows
        ]

    # -- what applies to one person ------------------------------------------------------

    def allowance(self, namespace: str) -> Allowance | None:
        """What the person's organisation's policy allows them (their grade, or the
        policy's default grade), or None when the organisation has no policy."""
        current = self.current(org_of(namespace))
        if current is None:
            return None
        person = self.person(namespace)
        grade = current.policy.grade(person.grade if person else None)
        department = person.department if person else None
        return Allowance(current.policy, grade, department, current.version)

    def approvers(self, namespace: str) -> tuple[str, ...]:
        """The namespaces of who approves the person's exceptions (the policy's named
        approvers for their department or grade); () without a policy or approvers."""
        allowance = self.allowance(namespace)
        if allowance is None:
            return ()
        ids = allowance.policy.approvers_of(allowance.grade, allowance.department)
        return tuple(member(org_of(namespace), user) for user in ids)

    def close(self) -> None:
        self.backend.close()


__all__ = ["Person", "PolicyBook", "PolicyVersion"]
