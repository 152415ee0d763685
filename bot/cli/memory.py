"""`travel-bot memory ...`: operator commands on one person's memory.

`--user` must have a namespace's shape (`bot.conversation.namespaces`); a namespace
nothing was ever remembered for is said so ("nothing remembered for ...", with the
closest known one when there is one), never shown as an empty person in silence.
`show` prints the readable view the console's `/prefs` and the web page use
(`bot.prefs.remembered`): summary, profile in words, facts with short ids. `forget`
needs `--id ID` (an id, or its beginning as `show` prints it) or `--all`; `--all` asks on
a terminal and needs `--yes` otherwise; erasing everything also ends the person's links
to the preferences page and their page sessions (a warning says so when Redis could not
record it). Exit statuses: 0 done, 1 failed (memory unavailable, an unknown or ambiguous
id, declined), 2 wrong usage or the database not answering, 3 some fact was refused by
`add`.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from typing import Any

from bot.cli import say
from bot.cli.language import operator_lang
from bot.cli.options import MAX_LIMIT, add_user, limit, text
from bot.cli.services import memory_problem, quiet_libraries
from bot.compose.parts import open_revocations
from bot.messages import rejection, t
from bot.prefs.remembered import match_id, read_view, view_lines
from bot.prefs.revocations import forget_everything
from bot.settings import Settings
from memory import MemoryEngineError, open_memory
from memory.lang import Lang

USER_HELP = "whose memory: a namespace such as local:you (the console) or T024BE7LD:U01ABC"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "memory",
        help="inspect and edit a person's memory",
        description="Inspect and edit one person's memory. NS is a namespace: TEAM:USER "
        "for Slack (e.g. T024BE7LD:U01ABC), feishu:TENANT:OPEN_ID, dingtalk:CORP:STAFF_ID, "
        "or local:you for the terminal console.",
    )
    verbs = parser.add_subparsers(dest="memory_verb", required=True, metavar="ACTION")

    add = verbs.add_parser("add", help="remember facts", description="Remember facts.")
    add_user(add, help=USER_HELP)
    add.add_argument(
        "--source", default="import", help="label kept with the facts (default import)"
    )
    add.add_argument(
        "text", nargs="+", type=text, metavar="TEXT", help="one fact per argument, quoted"
    )

    search = verbs.add_parser(
        "search", help="rank remembered facts by meaning", description="Rank facts by meaning."
    )
    add_user(search, help=USER_HELP)
    search.add_argument(
        "--limit", type=limit, default=5, help=f"most facts to show, 1 to {MAX_LIMIT} (default 5)"
    )
    search.add_argument("--json", action="store_true", help="print one JSON array")
    search.add_argument(
        "query", nargs="+", type=text, metavar="QUERY", help="what to look for, in any words"
    )

    show = verbs.add_parser(
        "show",
        help="the summary, profile and current facts",
        description="The summary, the profile in words and every current fact with its "
        "short id, as the console's /prefs and the preferences page show them.",
    )
    add_user(show, help=USER_HELP)
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.add_argument(
        "--lang",
        choices=("en", "zh"),
        default=None,
        help="the language of the words around the facts (default DEFAULT_LANGUAGE, "
        "else the terminal's locale)",
    )

    forget = verbs.add_parser(
        "forget",
        help="erase one fact or everything",
        description="Erase one fact (with the versions it replaced) or everything.",
    )
    add_user(forget, help=USER_HELP)
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--id",
        dest="item_id",
        metavar="ID",
        help="the fact to erase: its id, or the beginning of it that memory show prints",
    )
    which.add_argument(
        "--all", action="store_true", help="erase everything remembered for NS, history included"
    )
    forget.add_argument(
        "--yes",
        action="store_true",
        help="confirm --all without being asked (needed when not on a terminal)",
    )

    export = verbs.add_parser(
        "export",
        help="everything kept, history included, as JSON",
        description="Everything kept about NS, superseded history included, as JSON.",
    )
    add_user(export, help=USER_HELP)

    # Bailian memory (issue 17).
    verbs.add_parser(
        "bailian-init",
        help="create the travel profile schema in Bailian when missing (MEMORY_DSN=bailian://...)",
        description="Find the travel profile schema in the Bailian memory library of "
        "MEMORY_DSN=bailian://..., create it when it is missing, and print the "
        "BAILIAN_PROFILE_SCHEMA_ID to set. Running it again changes nothing.",
    )

    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    quiet_libraries(args.log_level)
    args.operator_lang = operator_lang(settings)
    if args.memory_verb == "bailian-init":
        return bailian_init(settings)
    problem = memory_problem(settings, args.operator_lang)
    if problem:
        say.error(problem)
        return 2
    mem = open_memory(settings)
    try:
        return _dispatch(mem, args, settings)
    except (MemoryEngineError, ValueError) as exc:
        say.error(str(exc))
        return 1
    finally:
        _close(mem, args)


def _close(mem: Any, args: argparse.Namespace) -> None:
    """Close memory, saying so when Redis could not be told of a change. It is kept in
    the store and delivered by whichever process reaches Redis first (`memory.redelivery`),
    so only a store that also failed leaves the old preferences cached until they expire."""
    cache: Any = getattr(mem, "cache", None)
    lost = cache is not None and not cache.flush()  # close() tries once more
    deferred = 0 if cache is None else cache.deferred
    mem.close()
    lang = args.operator_lang
    if lost:
        minutes = -(-cache.ttl // 60)
        say.warning(t("cli_cache_not_dropped", lang, namespace=args.user, minutes=minutes))
    elif deferred:
        say.note(t("cli_cache_deferred", lang, namespace=args.user))


def _dispatch(mem: Any, args: argparse.Namespace, settings: Settings) -> int:
    verb = args.memory_verb
    if verb == "add":
        return _add(mem, args)
    if verb == "search":
        return _search(mem, args)
    if verb == "show":
        return _show(mem, args, args.lang or args.operator_lang)
    if verb == "forget":
        return _forget_all(mem, args, settings) if args.all else _forget_one(mem, args)
    if verb == "export":
        exported = mem.export(args.user)
        print(json.dumps(exported, ensure_ascii=False, indent=2))
        if not exported.get("items"):
            _nothing_remembered(mem, args)
        return 0
    raise ValueError(f"unknown memory action {verb}")


def _add(mem: Any, args: argparse.Namespace) -> int:
    new = not _known(mem, args.user)
    outcomes = mem.record(args.user, args.text, source=args.source)
    if new and any(o.status != "rejected" for o in outcomes):
        say.note(t("cli_new_namespace", args.operator_lang, namespace=args.user))
    for outcome in outcomes:
        reason = outcome.reason
        if reason and outcome.code and args.operator_lang != "en":  # English: as always
            reason = rejection(outcome.code, reason, args.operator_lang)
        detail = f" ({reason})" if reason else ""
        ident = f" [{outcome.item_id}]" if outcome.item_id else ""
        print(f"{outcome.status}{ident}: {outcome.text}{detail}")
    # Scripts importing facts must notice a refusal: exit 3 when any was rejected.
    return 3 if any(o.status == "rejected" for o in outcomes) else 0


def _search(mem: Any, args: argparse.Namespace) -> int:
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
    if not hits:
        _nothing_remembered(mem, args)
    return 0


def _show(mem: Any, args: argparse.Namespace, lang: Lang) -> int:
    items = mem.items(args.user)
    if args.json:
        data = {
            "summary": mem.retrieve(args.user) if items else "",
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
    elif items:
        print("\n".join(view_lines(read_view(mem, args.user, lang), lang)))
    if not items:
        _nothing_remembered(mem, args, stream=sys.stderr if args.json else sys.stdout)
    return 0


def _forget_one(mem: Any, args: argparse.Namespace) -> int:
    current = {item.id for item in mem.items(args.user)}
    kept = [item["id"] for item in mem.export(args.user).get("items", [])]
    # A current fact first (show prints their short ids), else an earlier version.
    named = match_id(args.item_id, sorted(current)) or match_id(args.item_id, kept)
    lang, who, prefix = args.operator_lang, args.user, args.item_id
    if len(named) > 1:
        say.error(t("cli_ambiguous_id", lang, count=len(named), namespace=who, prefix=prefix))
        return 1
    if not named:
        say.error(t("cli_no_such_fact", lang, prefix=prefix, namespace=who))
        if not kept:
            _nothing_remembered(mem, args, stream=sys.stderr)
        return 1
    [item_id] = named
    erased = mem.forget(args.user, item_id)
    what = _counted(1, "fact" if item_id in current else "earlier version", lang)
    print(t("cli_forgot", lang, what=what, earlier=_earlier(erased - 1, 1, lang)))
    return 0


def _forget_all(mem: Any, args: argparse.Namespace, settings: Settings) -> int:
    lang = args.operator_lang
    count = len(mem.items(args.user))
    if not count and not _known(mem, args.user):
        _nothing_remembered(mem, args)
        return 0
    if not args.yes:
        question = t("cli_forget_all_question", lang, count=count, namespace=args.user)
        if not sys.stdin.isatty():
            say.error(t("cli_forget_all_needs_yes", lang, question=question))
            return 2
        print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() not in ("y", "yes", "是"):
            print(t("cli_nothing_forgotten", lang), file=sys.stderr)
            return 1
    revocations = open_revocations(settings)
    try:
        erased = forget_everything(mem, revocations, args.user)
        unrevoked = revocations.pending
    finally:
        revocations.close()
    what = _counted(count, "fact", lang)
    print(t("cli_forgot", lang, what=what, earlier=_earlier(erased - count, count, lang)))
    if unrevoked:
        say.warning(t("cli_links_not_revoked", lang, namespace=args.user))
    return 0


def _earlier(count: int, facts: int, lang: Lang) -> str:
    """ " and 2 earlier versions they replaced", or "" when none was."""
    if count <= 0:
        return ""
    versions = _counted(count, "earlier version", lang)
    key = "cli_replaced_by_it" if facts == 1 else "cli_replaced_by_them"
    return t(key, lang, versions=versions)


_COUNTED = {
    "fact": ("cli_one_fact", "cli_facts"),
    "earlier version": ("cli_one_earlier_version", "cli_earlier_versions"),
}


def _counted(count: int, noun: str, lang: Lang) -> str:
    """ "1 fact", "3 facts", " 3 条记录": `noun` ("fact" or "earlier version") counted."""
    one, many = _COUNTED[noun]
    return t(one, lang) if count == 1 else t(many, lang, count=count)


def _known(mem: Any, namespace: str) -> bool:
    """True when anything, current or history, was ever kept for `namespace`."""
    return bool(mem.export(namespace).get("items"))


def _nothing_remembered(mem: Any, args: argparse.Namespace, *, stream: Any = None) -> None:
    """Say that nothing is remembered for `--user`, and the closest known namespace."""
    print(_nothing_line(mem, args.user, args.operator_lang), file=stream or sys.stderr)


def _nothing_line(mem: Any, namespace: str, lang: Lang) -> str:
    line = t("cli_nothing_remembered", lang, namespace=namespace)
    try:
        close = difflib.get_close_matches(namespace, list(mem.store.namespaces()), n=1)
    except MemoryEngineError:
        close = []
    return line + (t("cli_did_you_mean", lang, namespace=close[0]) if close else "")


def unknown_note(settings: Settings, namespace: str, lang: Lang = "en") -> str:
    """ "nothing remembered for NS (did you mean ...?)" when nothing was ever kept for
    `namespace` (a typo, or a person new to the bot); "" when something was, or when
    memory cannot say (a link never waits on the database)."""
    if memory_problem(settings):
        return ""
    mem = open_memory(settings)
    try:
        return "" if _known(mem, namespace) else _nothing_line(mem, namespace, lang)
    except MemoryEngineError:
        return ""
    finally:
        mem.close()


def bailian_init(settings: Settings) -> int:
    """Find or create our profile schema in the Bailian memory library; say what to set."""
    from memory.bailian import open_client
    from memory.bailian.schema import ensure_profile_schema
    from memory.dsn import is_bailian_dsn
    from memory.profile import load_schema

    lang = operator_lang(settings)
    if not is_bailian_dsn(settings.memory_dsn):
        dsn = "bailian://{memory_library_id}[?project_id=...]"
        say.error(t("cli_bailian_needs_dsn", lang, dsn=dsn))
        return 2
    try:
        client = open_client(settings)
    except ValueError as exc:
        say.error(str(exc))
        return 2
    try:
        status = ensure_profile_schema(client, load_schema())
    except MemoryEngineError as exc:
        say.error(t("cli_bailian_unexpected", lang, reason=exc))
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
