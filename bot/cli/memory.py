"""`travel-bot memory ...`: operator commands on one person's memory."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.settings import Settings
from memory import MemoryEngineError, open_memory


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("memory", help="inspect and edit a person's memory")
    verbs = parser.add_subparsers(dest="memory_verb", required=True, metavar="ACTION")

    add = verbs.add_parser("add", help="remember facts")
    add.add_argument("--user", required=True, help="namespace, e.g. T024BE7LD:U01ABC")
    add.add_argument("--source", default="import", help="label kept with the facts")
    add.add_argument("text", nargs="+", help="one fact per argument")

    search = verbs.add_parser("search", help="rank remembered facts by meaning")
    search.add_argument("--user", required=True)
    search.add_argument("--limit", type=int, default=5)
    search.add_argument("--json", action="store_true")
    search.add_argument("query", nargs="+")

    show = verbs.add_parser("show", help="the summary, profile and current facts")
    show.add_argument("--user", required=True)
    show.add_argument("--json", action="store_true")

    forget = verbs.add_parser("forget", help="erase one fact or everything")
    forget.add_argument("--user", required=True)
    forget.add_argument("--id", dest="item_id", default=None)

    export = verbs.add_parser("export", help="everything kept, history included, as JSON")
    export.add_argument("--user", required=True)

    # Bailian memory (issue 17).
    verbs.add_parser(
        "bailian-init",
        help="create the travel profile schema in Bailian when missing (MEMORY_DSN=bailian://...)",
    )

    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.memory_verb == "bailian-init":
        return bailian_init(settings)
    mem = open_memory(settings)
    try:
        return _dispatch(mem, args)
    except (MemoryEngineError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        mem.close()


def _dispatch(mem: Any, args: argparse.Namespace) -> int:
    verb = args.memory_verb
    if verb == "add":
        outcomes = mem.record(args.user, args.text, source=args.source)
        for outcome in outcomes:
            detail = f" ({outcome.reason})" if outcome.reason else ""
            ident = f" [{outcome.item_id}]" if outcome.item_id else ""
            print(f"{outcome.status}{ident}: {outcome.text}{detail}")
        # Scripts importing facts must notice a refusal: exit 3 when any was rejected.
        return 3 if any(o.status == "rejected" for o in outcomes) else 0
    if verb == "search":
        hits = mem.search(args.user, " ".join(args.query), limit=args.limit)
        if args.json:
            rows = [
                {
                    "id": h.id,
                    "text": h.text,
                    "score": round(h.score, 4),
                    "slot": h.slot,
                    "created_at": h.created_at.isoformat(),
                }
                for h in hits
            ]
            print(json.dumps(rows, ensure_ascii=False))
        else:
            for h in hits:
                print(f"{h.score:.3f}  {h.id}  {h.text}")
        return 0
    if verb == "show":
        items = mem.items(args.user)
        if args.json:
            data = {
                "summary": mem.retrieve(args.user),
                "profile": mem.profile(args.user),
                "items": [
                    {
                        "id": i.id,
                        "text": i.text,
                        "source": i.source,
                        "slot": i.slot,
                        "scope": i.scope,
                        "created_at": i.created_at.isoformat(),
                    }
                    for i in items
                ],
            }
            print(json.dumps(data, ensure_ascii=False))
        else:
            print(mem.retrieve(args.user) or "(nothing remembered)")
            for i in items:
                print(f"- {i.text}  [{i.source}, {i.created_at:%Y-%m-%d}, {i.id}]")
        return 0
    if verb == "forget":
        count = mem.forget(args.user, args.item_id)
        print(f"forgot {count} item(s)")
        return 0
    if verb == "export":
        print(json.dumps(mem.export(args.user), ensure_ascii=False, indent=2))
        return 0
    raise ValueError(f"unknown memory action {verb}")


def bailian_init(settings: Settings) -> int:
    """Find or create our profile schema in the Bailian memory library; say what to set."""
    from memory.bailian import open_client
    from memory.bailian.schema import ensure_profile_schema
    from memory.bailian.target import is_bailian_dsn
    from memory.profile import load_schema

    if not is_bailian_dsn(settings.memory_dsn):
        print(
            "error: bailian-init needs MEMORY_DSN=bailian://{memory_library_id}[?project_id=...]"
            " ('default' for the account's default library)",
            file=sys.stderr,
        )
        return 2
    try:
        client = open_client(settings)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        status = ensure_profile_schema(client, load_schema())
    except MemoryEngineError as exc:
        print(f"error: Bailian did not answer as expected: {exc}", file=sys.stderr)
        return 1
    finally:
        client.close()
    done = "created" if status.created else "found"
    print(f"{done} profile schema {status.name}: {status.schema_id}")
    if status.missing:
        print(
            f"warning: that schema lacks {', '.join(status.missing)}; those slots are read "
            "from the memories' words only",
            file=sys.stderr,
        )
    if settings.bailian_profile_schema_id.strip() == status.schema_id:
        print("BAILIAN_PROFILE_SCHEMA_ID is already set to it.")
    else:
        print(f"Set BAILIAN_PROFILE_SCHEMA_ID={status.schema_id} (environment or .env) so every")
        print("write asks Bailian to fill the travel profile and every recall reads it.")
    return 0
