"""The preferences page: one web form and REST API for every chat platform.

A person reaches it through a signed, expiring, single-use link (`bot.prefs.links`) that
any channel can make; the page (`page`) and the JSON API (`api`) read and write the same
memory, through the same form and saving rules, as the Slack modal (`bot.prefs`).
`sessions` says who is asking, `state` what they see, `render` draws it (templates and
static files are package data), `site` holds what the routes share and `request` the
request and response pieces.

`mount(web, secret=..., ...)` serves it on the one HTTP application of `travel-bot serve`;
the composition root calls it when `PREFS_LINK_SECRET` is set (and long enough), and
otherwise logs one line saying the page is off, mounts nothing (every route answers 404)
and the rest of the bot runs on (`bot.compose.core.mount_prefs_site`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.prefs.links import public_base_of, public_url_problem
from bot.web.api import EVERY_METHOD, FACTS_PREFIX, PrefsAPI
from bot.web.page import PrefsPage
from bot.web.site import MAX_BODY_BYTES, NewLinkLines, PrefsSite

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from bot.conversation.claims import Claims
    from bot.http.app import WebApp
    from bot.metrics import Metrics
    from bot.planning.trips import TripStore
    from bot.prefs.prefill import SlotMapper
    from bot.prefs.revocations import Revocations
    from memory.lang import Lang
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)


def mount(
    web: WebApp,
    *,
    secret: str,
    public_url: str,
    memory: LongTermMemory,
    metrics: Metrics,
    claims: Claims,
    revocations: Revocations,
    tasks: ThreadPoolExecutor,
    new_link: NewLinkLines,
    trips: TripStore | None = None,
    mapper: SlotMapper | None = None,
    session_minutes: int = 60,
    free_text_limit: int = 500,
    default_lang: Lang = "en",
    max_body_bytes: int = MAX_BODY_BYTES,
) -> None:
    """Serve the page and its API on `web`, its links signed with `secret` and made for
    `public_url` (a warning, and no links, when that is not an http(s) URL)."""
    site = PrefsSite(
        memory=memory,
        metrics=metrics,
        claims=claims,
        revocations=revocations,
        tasks=tasks,
        secret=secret,
        new_link=new_link,
        mapper=mapper,
        public_url=public_url,
        session_minutes=session_minutes,
        free_text_limit=free_text_limit,
        default_lang=default_lang,
        max_body_bytes=max_body_bytes,
        trips=trips,
    )
    page, api = PrefsPage(site), PrefsAPI(site)
    web.mount("/prefs", page, methods=("GET", "POST"))
    web.mount("/prefs/forget", page.forget, methods=("POST",))
    for name in site.assets:
        web.mount(f"/prefs/static/{name}", page.static, methods=("GET",))
    web.mount("/api/preferences", api.preferences, methods=EVERY_METHOD)  # 405s as JSON
    web.mount(FACTS_PREFIX, api.fact, methods=EVERY_METHOD, prefix=True)
    public = public_base_of(public_url)
    if public:
        log.info("preferences page on %s/prefs", public)
    else:
        problem = public_url_problem(public_url)
        log.warning("preferences page on /prefs, but %s: no links can be made", problem)


__all__ = ["mount"]
