"""The preferences page in the browser: plain HTML forms, no JavaScript needed.

- `GET /prefs?token=T` spends the link on a session cookie and redirects (303) to
  `/prefs`, so the token leaves the address bar and history; a link opened again gets
  401, unless this browser already holds that person's session (then it simply goes on).
- `GET /prefs` shows the form (every slot, prefilled), the summary and each remembered
  fact with a *Forget* button; `?lang=en|zh` switches the language.
- `POST /prefs` saves the form (`bot.prefs.saving`, as the Slack modal does); mistakes
  come back on the page beside their fields, with what was typed kept.
- `POST /prefs/forget` forgets one fact of the session's person.
- `GET /prefs/static/…` the stylesheet and the small optional script.

Every POST needs the session's CSRF token (403 without it). A missing or invalid session
or link gets 401 and a page that says only that the link cannot be used, and where a new
one comes from: on the chat platform of the person the link names, when this deployment
serves it, else on every platform it serves (`PrefsSite.new_link`). The page is the same
for every refused link of a person, so it never tells which way a link was wrong; so does
one revoked by erasing the person's memory (`bot.prefs.revocations`). While Redis cannot
say whether it was, the page is shown but every POST gets 503: changes fail closed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.http.asgi import PayloadTooLarge, Receive, Scope, Send, first
from bot.messages import t
from bot.prefs import remembered
from bot.prefs.form import FREE_TEXT, UNREADABLE
from bot.prefs.links import LinkClaims
from bot.web.render import Result, read_base
from bot.web.request import Reply, Request, form_fields, html, redirect
from bot.web.sessions import CSRF_FIELD, Session
from bot.web.state import NOTE
from memory.errors import MemoryEngineError
from memory.lang import Lang
from memory.profile import Value

if TYPE_CHECKING:
    from bot.web.site import PrefsSite

log = logging.getLogger(__name__)

ITEM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SLOT_FIELD = "slot."  # + the slot id: a radio group or a set of checkboxes
CONTINUED = "continue"  # marks the page's own second navigation (see `PrefsPage.get`)


class PrefsPage:
    def __init__(self, site: PrefsSite) -> None:
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request.of(scope, receive)
        reply = await (self.save(request) if request.method == "POST" else self.get(request))
        await reply.send(send)

    async def forget(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request.of(scope, receive)
        await (await self._forget(request)).send(send)

    async def static(self, scope: Scope, receive: Receive, send: Send) -> None:
        asset = self.site.assets[str(scope["path"]).rpartition("/")[2]]
        cache = ("cache-control", "public, max-age=86400")
        await Reply(200, asset.body, asset.content_type, [cache]).send(send)

    # -- showing --------------------------------------------------------------------------

    async def get(self, request: Request) -> Reply:
        token = request.arg("token")
        if token is not None:
            return await self.exchange(request, token)
        session = self.site.session(request)
        if session is None and self.cross_site(request):
            # The link was opened from another site (a chat app): the browser did not send
            # the SameSite=Strict cookie set a moment ago along the redirect. Opening the
            # page again from this one makes the navigation same-site, and it is sent.
            lang = self.site.lang(request)
            target = f"{self.site.page_url}?{CONTINUED}=1"
            return html(200, self.site.render.continue_page(lang, target))
        if session is None or await self.site.session_standing(session) == "revoked":
            return self.denied(request)
        headers: list[tuple[str, str]] = []
        lang = self.site.lang(request, session.lang)
        if lang != session.lang:
            session = self.site.sessions.with_lang(session, lang)
            headers.append(self.site.session_cookie(session, request))
        reply = await self.show(session)
        reply.headers += headers
        return reply

    def cross_site(self, request: Request) -> bool:
        """A browser navigation that began on another site, not already sent back once."""
        fetch_site = (request.header("sec-fetch-site") or "").lower()
        return fetch_site == "cross-site" and request.arg(CONTINUED) is None

    async def exchange(self, request: Request, token: str) -> Reply:
        site = self.site
        try:
            outcome = await site.run(site.sessions.exchange, token)
        except RuntimeError:  # shutting down
            return self.notice(request, 503, "page_unavailable_title", "home_unavailable")
        site.metrics.inc("prefs_web_links_total", result=_kind(outcome))
        if not isinstance(outcome, LinkClaims):
            current, link = site.session(request), site.sessions.link(token)
            if outcome == "replayed" and current and link and current.namespace == link.namespace:
                return redirect(site.page_url)  # this browser already opened it: go on
            return self.denied(request)
        lang = site.lang(request, outcome.lang)
        session = site.sessions.open(outcome.namespace, lang, outcome.issued_at)
        return redirect(site.page_url, site.session_cookie(session, request))

    async def show(
        self,
        session: Session,
        *,
        result: Result | None = None,
        errors: dict[str, str] | None = None,
        values: Mapping[str, Value | None] | None = None,
        note: str = "",
        status: int = 200,
    ) -> Reply:
        site = self.site
        try:
            # The fast model's suggestions only when the page is opened, never after an
            # action: a save or a forget answers without waiting for the model.
            suggest = result is None and values is None
            state = await site.run(site.state, session.namespace, session.lang, values, suggest)
            trips = await site.run(site.trip_lines, session.namespace, state.form.lang)
        except (MemoryEngineError, RuntimeError) as exc:
            log.warning("the preferences page could not read memory (%s)", type(exc).__name__)
            text = site.render.notice(session.lang, "page_unavailable_title", "home_unavailable")
            return html(503, text)
        csrf = site.sessions.csrf(session)
        text = site.render.page(
            state, csrf=csrf, result=result, errors=errors, note=note, trips=trips
        )
        return html(status, text)

    def denied(self, request: Request) -> Reply:
        """401: the link or session cannot be used, and where to get a new link."""
        lines = ("page_denied", *self.site.new_link(self.site.named(request)))
        # In the language the link (or cookie) was made in, as the page it would have opened.
        known = self.site.named_lang(request)
        return self.notice(request, 401, "page_denied_title", *lines, known=known)

    def notice(
        self, request: Request, status: int, heading: str, *lines: str, known: Lang | None = None
    ) -> Reply:
        session = self.site.session(request)
        lang = self.site.lang(request, known or (session.lang if session else None))
        return html(status, self.site.render.notice(lang, heading, *lines))

    # -- changing ---------------------------------------------------------------------------

    async def _posted(self, request: Request) -> tuple[Session, dict[str, list[str]]] | Reply:
        """The session and the fields of a POST, or the page that refuses it."""
        session = self.site.session(request)
        standing = "revoked" if session is None else await self.site.session_standing(session)
        if session is None or standing == "revoked":
            return self.denied(request)
        if standing == "unknown":  # not known to be unrevoked: change nothing
            return self.notice(request, 503, "page_unavailable_title", "prefs_change_unavailable")
        try:
            body = await request.body(self.site.max_body)
        except PayloadTooLarge:
            return self.notice(request, 413, "page_forbidden_title", "page_too_large")
        fields = form_fields(body)
        if fields is None:
            return self.notice(request, 400, "page_forbidden_title", "page_bad_request")
        if not self.site.sessions.csrf_ok(session, first(fields.get(CSRF_FIELD))):
            return self.notice(request, 403, "page_forbidden_title", "page_forbidden")
        return session, fields

    async def save(self, request: Request) -> Reply:
        posted = await self._posted(request)
        if isinstance(posted, Reply):
            return posted
        session, fields = posted
        site, lang = self.site, session.lang
        note = first(fields.get(NOTE)) or ""
        try:  # off the event loop: the note's check embeds it
            checked = await site.run(
                site.check, session.namespace, self.choices(fields), note, lang
            )
        except RuntimeError:
            result = Result("error", [t("memory_unavailable", lang)])
            return await self.show(session, result=result, note=note, status=503)
        errors = {NOTE if key == FREE_TEXT else key: text for key, text in checked.errors.items()}
        values = dict(checked.values)
        if errors:
            result = self.errors_result(errors, lang, t("page_errors", lang))
            return await self.show(
                session, result=result, errors=errors, values=values, note=note, status=400
            )
        base = read_base(first(fields.get("base")))
        try:
            saved = await site.run(site.save, session.namespace, checked, lang, base)
        except RuntimeError:
            saved = None
        if saved is None or (saved.outcome == "failed" and saved.unavailable):
            result = Result("error", [t("memory_unavailable", lang)])
            return await self.show(session, result=result, values=values, note=note, status=503)
        if saved.outcome == "failed":
            return await self.show(
                session, result=Result("error", [t("page_outdated", lang)]), status=409
            )
        if saved.outcome == "conflict":
            errors = site.clash_errors(saved.clashes, lang)
            result = self.errors_result(errors, lang, t("page_save_conflict", lang))
            return await self.show(
                session, result=result, errors=errors, values=values, note=note, status=409
            )
        return await self.show(session, result=Result(saved.outcome, saved.text.split("\n")))

    def choices(self, fields: dict[str, list[str]]) -> dict[str, object]:
        """Every slot's choice as the form sent it (the page shows every slot, so a slot
        with nothing ticked is cleared); a single slot with several values is unreadable."""
        chosen: dict[str, object] = {}
        for slot in self.site.schema.slots:
            picked = [v for v in fields.get(SLOT_FIELD + slot.id, []) if v]
            if slot.kind == "multi":
                chosen[slot.id] = picked
            elif len(picked) > 1:
                chosen[slot.id] = UNREADABLE
            else:
                chosen[slot.id] = picked[0] if picked else None
        return chosen

    def errors_result(self, errors: dict[str, str], lang: Lang, heading: str) -> Result:
        order = [slot.id for slot in self.site.schema.slots] + [NOTE]
        listed = [
            (key, self.site.field_label(key, lang), errors[key]) for key in order if key in errors
        ]
        return Result("error", [heading], listed)

    async def _forget(self, request: Request) -> Reply:
        posted = await self._posted(request)
        if isinstance(posted, Reply):
            return posted
        session, fields = posted
        site, lang = self.site, session.lang
        item_id = first(fields.get("id")) or ""
        if not ITEM_ID.match(item_id):  # never "forget" without an id: that erases everything
            return self.notice(request, 400, "page_forbidden_title", "page_bad_request")

        try:
            _, text = await site.run(
                remembered.forget_fact, site.memory, session.namespace, item_id, site.metrics
            )
        except (MemoryEngineError, RuntimeError):
            result = Result("error", [t("memory_forget_failed", lang)])
            return await self.show(session, result=result, status=503)
        if not text:
            return await self.show(session, result=Result("forgot", [t("page_forgot_gone", lang)]))
        shown = text if len(text) <= 120 else text[:119] + "…"
        return await self.show(
            session, result=Result("forgot", [t("page_forgot", lang, text=shown)])
        )


def _kind(outcome: object) -> str:
    return "ok" if isinstance(outcome, LinkClaims) else str(outcome)


__all__ = ["PrefsPage"]
