"""`travel-bot policy ...`: an organisation's travel policy, grades and audit log.

    travel-bot policy set --org ORG FILE        store FILE (YAML) as ORG's next version
    travel-bot policy check --org ORG FILE      validate only; nothing is stored
    travel-bot policy show --org ORG            the current version (--version N, --history)
    travel-bot policy grade --user NS GRADE     a person's grade (--department, --csv FILE)
    travel-bot policy audit --org ORG           decisions and colleagues' memory reads

A wrong file stops with one line naming the key, the value and what is accepted, and
exit status 2, like a wrong setting; nothing is stored. Exit statuses: 0 done, 1 the
database failed, 2 wrong input. Scripts drive these verbs: keep their names.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli import policy_people
from bot.cli.language import operator_lang
from bot.cli.options import org
from bot.cli.services import quiet_libraries, trips_problem
from bot.compose.parts import open_policy_book
from bot.planning.compliance import airline_code, city_named
from bot.planning.inventory.catalogue import load_catalogue
from bot.policy.loading import PolicyError, load_policy
from bot.policy.model import Policy
from bot.policy.store import PolicyBook, PolicyVersion
from bot.policy.tiers import twins
from bot.settings import Settings
from memory.errors import StoreUnavailable


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "policy",
        help="organisations' travel policies, grades and audit log",
        description="Travel policy (差标) per organisation: ORG is a Slack workspace "
        "(T024BE7LD), feishu:TENANT, dingtalk:CORP, or local. The YAML keys are in "
        "docs/travel-policy.md.",
    )
    verbs = parser.add_subparsers(dest="policy_verb", required=True, metavar="ACTION")
    put = verbs.add_parser(
        "set",
        help="store a policy file as the next version",
        description="Validate FILE "
        "and store it as the organisation's next version (every version is kept).",
    )
    _org(put)
    put.add_argument("file", metavar="FILE", help="the policy, YAML ('-' reads standard input)")
    _by(put)
    check = verbs.add_parser(
        "check", help="validate a policy file", description="Validate FILE; store nothing."
    )
    _org(check)
    check.add_argument("file", metavar="FILE", help="the policy, YAML ('-' reads standard input)")
    show = verbs.add_parser(
        "show", help="the current policy", description="The organisation's policy as set."
    )
    _org(show)
    show.add_argument("--version", type=int, default=None, metavar="N", help="an older version")
    show.add_argument("--history", action="store_true", help="list every version")
    show.add_argument("--json", action="store_true", help="print JSON")
    policy_people.register(verbs, by=_by)
    parser.set_defaults(handler=run)


def _org(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--org", required=True, type=org, metavar="ORG", help="the organisation")


def _by(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--by", default=None, metavar="WHO", help="who makes the change (default cli:LOGIN)"
    )


def who(args: argparse.Namespace) -> str:
    if args.by and str(args.by).strip():
        return str(args.by).strip()
    try:
        return f"cli:{getpass.getuser()}"
    except (OSError, KeyError):
        return "cli"


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.policy_verb == "check":
        return _check(args)
    quiet_libraries(args.log_level)
    problem = trips_problem(settings, operator_lang(settings))  # in the trips' database
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.policy_verb in ("grade", "audit"):
        return policy_people.run(args, settings, who(args) if args.policy_verb == "grade" else "")
    book = open_policy_book(settings)
    try:
        if args.policy_verb == "set":
            return _set(book, args)
        return _show(book, args)
    except StoreUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        book.close()


def read_policy(path: str) -> tuple[str, Policy]:
    """The file's text and the policy it writes; `PolicyError` (or OSError) when wrong."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    return text, load_policy(text, airline=airline_code)


def _load(args: argparse.Namespace) -> tuple[str, Policy] | None:
    try:
        return read_policy(args.file)
    except PolicyError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        print(f"error: {args.file}: cannot be read ({reason})", file=sys.stderr)
    return None


def _check(args: argparse.Namespace) -> int:
    loaded = _load(args)
    if loaded is None:
        return 2
    policy = loaded[1]
    grades = f"grades {', '.join(policy.grades)}; default {policy.default_grade}"
    print(f"ok: {args.file} is a valid policy for {args.org} ({grades})")
    for note in notes(policy):
        print(f"note: {note}")
    return 0


def _set(book: PolicyBook, args: argparse.Namespace) -> int:
    loaded = _load(args)
    if loaded is None:
        return 2
    text, policy = loaded
    version = book.set(args.org, text, by=who(args), airline=airline_code)
    print(f"set: {args.org} travel policy version {version.version} (by {version.set_by})")
    for note in notes(policy):
        print(f"note: {note}")
    return 0


def _show(book: PolicyBook, args: argparse.Namespace) -> int:
    if args.history:
        versions = book.history(args.org)
        if args.json:
            print(json.dumps([_json(v, text=False) for v in versions], ensure_ascii=False))
            return 0
        for v in versions:
            print(f"version {v.version}  {v.set_at.isoformat(timespec='seconds')}  by {v.set_by}")
        if not versions:
            print(f"(no travel policy for {args.org})")
        return 0
    found = book.version(args.org, args.version) if args.version else book.current(args.org)
    if args.json:
        print(json.dumps(_json(found) if found else None, ensure_ascii=False))
        return 0
    if found is None:
        which = f"version {args.version} of the " if args.version else ""
        print(f"(no {which}travel policy for {args.org})")
        return 0 if args.version is None else 1
    when = found.set_at.isoformat(timespec="seconds")
    print(f"# {args.org} travel policy, version {found.version}, set by {found.set_by} at {when}")
    print(found.text.rstrip("\n"))
    return 0


def _json(version: PolicyVersion, *, text: bool = True) -> dict[str, Any]:
    found: dict[str, Any] = {
        "org": version.org,
        "version": version.version,
        "set_by": version.set_by,
        "set_at": version.set_at.isoformat(),
        "grades": list(version.policy.grades),
        "default_grade": version.policy.default_grade,
    }
    if text:
        found["text"] = version.text
    return found


def notes(policy: Policy) -> list[str]:
    """What may not be meant: cities of the policy's own tiers the planner does not know
    (they only match that very name)."""
    catalogue = load_catalogue()
    found = []
    for tier, cities in policy.tiers.own.items():
        unknown = [c for c in cities if city_named(catalogue, c) is None and not twins(c)]
        if unknown:
            names = ", ".join(unknown)
            found.append(
                f"city_tiers.{tier}: the planner knows no city {names}; matched as written"
            )
    return found


__all__ = ["read_policy", "register", "who"]
