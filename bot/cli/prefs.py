"""`travel-bot prefs link`: print a link to a person's preferences page.

The link (`PUBLIC_URL/prefs?token=…`) is signed with `PREFS_LINK_SECRET`, bound to the
one namespace given (`--user NS`, checked like every other `--user`), works once and
expires after `--ttl-minutes` (default `PREFS_LINK_TTL_MINUTES`); see `bot.prefs.links`.
Exits 2, saying what to set, when the page is not configured. A namespace nothing was
ever kept for is said on standard error, with the closest one known (a typo's page
would take a person's saves into a memory nobody reads).
"""

from __future__ import annotations

import argparse
from typing import Any

from bot.cli import say
from bot.cli.language import operator_lang
from bot.cli.memory import unknown_note
from bot.cli.options import add_user
from bot.compose.links import links_problem, preferences_url
from bot.messages import t
from bot.settings import Settings

MAX_TTL_MINUTES = 1440


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "prefs",
        help="links to the web preferences page",
        description="Links to the web preferences page, where a person sees and edits "
        "what is remembered about them (needs PREFS_LINK_SECRET and PUBLIC_URL, and "
        "`travel-bot serve` answering there).",
    )
    verbs = parser.add_subparsers(dest="prefs_verb", required=True, metavar="ACTION")
    link = verbs.add_parser(
        "link",
        help="print a one-time link to a person's preferences page",
        description="Print a link to NS's preferences page. It opens once, for "
        "--ttl-minutes, and shows that person's memory: send it to them alone.",
    )
    add_user(
        link,
        help="whose page: a namespace such as local:you (the console) or T024BE7LD:U01ABC",
    )
    link.add_argument(
        "--ttl-minutes",
        type=int,
        default=None,
        metavar="N",
        help="minutes the link stays valid (default PREFS_LINK_TTL_MINUTES, 15)",
    )
    link.add_argument("--lang", choices=("en", "zh"), default=None, help="the page's language")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    lang = operator_lang(settings)
    problem = links_problem(settings)
    if problem:
        say.error(t("cli_page_not_configured", lang, problem=problem))
        return 2
    minutes = args.ttl_minutes
    if minutes is not None and not 1 <= minutes <= MAX_TTL_MINUTES:
        say.error(t("cli_ttl_out_of_range", lang, most=MAX_TTL_MINUTES))
        return 2
    print(preferences_url(settings, args.user, lang=args.lang, ttl_minutes=minutes))
    note = unknown_note(settings, args.user, lang)  # a typo's page would take saves for no one
    if note:
        say.note(t("cli_page_starts_empty", lang, note=note))
    return 0


__all__ = ["register"]
