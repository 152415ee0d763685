"""The preferences page: one web form and REST API for every chat platform.

A person reaches it through a signed, expiring, single-use link (`bot.prefs.links`) that
any channel can make; the page (`page`) and the JSON API (`api`) read and write the same
memory, through the same form and saving rules, as the Slack modal (`bot.prefs`).
`sessions` says who is asking, `state` what they see, `render` draws it (templates and
static files are package data), `site` holds what the routes share and `request` the
request and response pieces.

`mount(web, settings, ...)` serves it on the one HTTP application of `travel-bot serve`
when `PREFS_LINK_SECRET` is set (and long enough); otherwise it logs one line saying the
page is off, mounts nothing (every route answers 404) and the rest of the bot runs on.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.prefs.links import link_secret, page_problem, public_base, public_url_problem
from bot.web.api import FACTS_PREFIX, PrefsAPI
from bot.web.page import PrefsPage
from bot.web.site import PrefsSite

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from bot.conversation.claims import Claims
    from bot.http.app import WebApp
    from bot.metrics import Metrics
    from bot.planning.trips import TripStore
    from bot.prefs.revocations import Revocations
    from bot.settings import Settings
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)


def mount(
    web: WebApp,
    settings: Settings,
    *,
    memory: LongTermMemory,
    metrics: Metrics,
    claims: Claims,
    revocations: Revocations,
    tasks: ThreadPoolExecutor,
    new_link: tuple[str, ...],
    trips: TripStore | None = None,
) -> bool:
    """Serve the page and its API on `web`; False (and one log line) when it is off."""
    problem = page_problem(settings)
    secret = link_secret(settings)
    if problem is not None or secret is None:
        log.info("preferences page off: %s", problem)
        return False
    site = PrefsSite(
        settings=settings,
        memory=memory,
        metrics=metrics,
        claims=claims,
        revocations=revocations,
        tasks=tasks,
        secret=secret,
        new_link=new_link,
        trips=trips,
    )
    page, api = PrefsPage(site), PrefsAPI(site)
    web.mount("/prefs", page, methods=("GET", "POST"))
    web.mount("/prefs/forget", page.forget, methods=("POST",))
    for name in site.assets:
        web.mount(f"/prefs/static/{name}", page.static, methods=("GET",))
    web.mount("/api/preferences", api.preferences, methods=("GET", "POST"))
    web.mount(FACTS_PREFIX, api.fact, methods=("DELETE",), prefix=True)
    public = public_base(settings)
    if public:
        log.info("preferences page on %s/prefs", public)
    else:
        problem = public_url_problem(settings.public_url)
        log.warning("preferences page on /prefs, but %s: no links can be made", problem)
    return True


__all__ = ["mount"]
