"""The preferences REST API: what the page shows and does, as JSON, for any client.

- `GET /api/preferences`: `{"slots", "facts", "summary", "suggested", "scoped", "lang",
  "schema"}` (shapes in `bot.web.state`); slots prefilled from chat facts by the
  fast model when `LLM_FAST_MODEL` is set.
- `POST /api/preferences` with `{"slots": {slot_id: option | [options] | null}, "note":
  "free text"}`: checked (`validate_form`: options, clashes, the privacy guard on the
  note) and saved as the Slack modal saves (`bot.prefs.saving`); a slot left out is left
  alone, `null` clears it. 200 with the outcome of every fact written and the new state;
  400 with `errors` by field (`note` for the free text) when something is wrong; 409 when
  a choice clashes with the profile as it is now.
- `DELETE /api/preferences/facts/{id}`: forget one fact of the caller's own (404 for an
  id that is not theirs).

Authentication: `Authorization: Bearer T` with a link token, or the page's session cookie,
which must then send the session's `X-CSRF-Token` on POST and DELETE. A link opened on
the page is spent (401 as a bearer token from then on), and erasing all of a person's
memory revokes every link and session they had (401); while Redis cannot tell, GET
still answers and POST and DELETE get 503. Errors are JSON
(`{"ok": false, "error": code, "message": …}`): 401 unauthorized, 403 csrf, 413
too_large, 415 json_only, 400 malformed_json / not_object / invalid, 404 not_found,
405 method_not_allowed (with `Allow`), 503 unavailable; every message in the request's
language (`PrefsSite.lang`). `OPTIONS` on either path: 204 with `Allow` and no body, before
any authentication (it reveals nothing but the methods); no CORS headers, as the page
and its API are same-origin and the application has no cross-origin policy.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.http.app import allowed
from bot.http.asgi import PayloadTooLarge, Receive, Scope, Send
from bot.messages import t
from bot.payloads import parse_json
from bot.prefs import remembered
from bot.prefs.form import FREE_TEXT
from bot.web.page import ITEM_ID
from bot.web.request import Reply, Request, error, json_reply
from bot.web.sessions import CSRF_HEADER, Caller
from bot.web.state import NOTE, outcome_json, schema_json, state_json
from memory.errors import MemoryEngineError
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.web.site import PrefsSite

log = logging.getLogger(__name__)

FACTS_PREFIX = "/api/preferences/facts/"
Posted = tuple[dict[str, object], str | None]  # the slots as sent, and the note
_CHALLENGE = ("www-authenticate", 'Bearer realm="travel-preferences"')
PREFERENCES_METHODS = ("GET", "POST")
FACT_METHODS = ("DELETE",)
# Mounted for every method, so a wrong one is answered here, as JSON in the caller's
# language, rather than by the application's plain-text 405.
EVERY_METHOD = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


class PrefsAPI:
    def __init__(self, site: PrefsSite) -> None:
        self.site = site

    async def preferences(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request.of(scope, receive)
        if request.method not in PREFERENCES_METHODS:
            await self.not_allowed(request, PREFERENCES_METHODS).send(send)
            return
        caller = await self.site.caller(request)
        if caller is None:
            reply = self.unauthorized(request)
        elif request.method == "POST":
            reply = await self.post(request, caller)
        else:
            reply = await self.get(request, caller)
        await reply.send(send)

    async def fact(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request.of(scope, receive)
        if request.method not in FACT_METHODS:
            await self.not_allowed(request, FACT_METHODS).send(send)
            return
        caller = await self.site.caller(request)
        reply = self.unauthorized(request) if caller is None else await self.delete(request, caller)
        await reply.send(send)

    # -- the routes ----------------------------------------------------------------------

    async def get(self, request: Request, caller: Caller) -> Reply:
        site, lang = self.site, self.site.lang(request, caller.lang)
        try:
            state = await site.run(site.state, caller.namespace, lang)
        except (MemoryEngineError, RuntimeError):
            return self.unavailable(lang)
        body = state_json(site.schema, state)
        body["schema"] = schema_json(site.schema, site.free_text_limit)
        return json_reply(200, body)

    async def post(self, request: Request, caller: Caller) -> Reply:
        site, lang = self.site, self.site.lang(request, caller.lang)
        refused = self.refuse_change(request, caller, lang)
        if refused is not None:
            return refused
        content_type = (request.header("content-type") or "").split(";")[0].strip().lower()
        if content_type != "application/json" and not content_type.endswith("+json"):
            return error(415, "json_only", t("api_json_only", lang))
        try:
            raw = await request.body(site.max_body)
        except PayloadTooLarge:
            return error(413, "too_large", t("api_too_large", lang, limit=site.max_body))
        try:
            data = parse_json(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return error(400, "malformed_json", t("api_malformed_json", lang))
        if isinstance(data, Mapping) and isinstance(data.get("note"), str):
            lang = site.lang(request, caller.lang, data["note"])  # nothing else said: the note
        parsed = self.read_request(data, lang)
        if isinstance(parsed, Reply):
            return parsed
        chosen, note = parsed
        try:  # off the event loop: the note's check embeds it
            checked = await site.run(site.check, caller.namespace, chosen, note, lang)
        except RuntimeError:
            return self.unavailable(lang)
        if checked.errors:
            errors = {NOTE if k == FREE_TEXT else k: v for k, v in checked.errors.items()}
            return error(400, "invalid", t("api_invalid", lang), errors=errors)
        try:
            saved = await site.run(site.save, caller.namespace, checked, lang, None)
        except RuntimeError:
            return self.unavailable(lang)
        if saved.outcome == "conflict":
            errors = site.clash_errors(saved.clashes, lang)
            return error(409, "conflict", t("page_save_conflict", lang), errors=errors)
        if saved.outcome == "failed":
            if saved.unavailable:
                return error(503, "unavailable", saved.text)
            return error(409, "outdated", t("page_outdated", lang))
        body: dict[str, Any] = {
            "ok": True,
            "status": "saved" if saved.outcome == "saved" else "unchanged",
            "message": saved.text,
            "kept": list(saved.kept),
        }
        try:
            state = await site.run(site.state, caller.namespace, lang, None, False)
        except (MemoryEngineError, RuntimeError):
            state = None
        items = state.items if state is not None else ()
        body["outcomes"] = [outcome_json(o, items, site.schema, lang) for o in saved.results] + [
            outcome_json(o, items, site.schema, lang, note=True) for o in saved.noted
        ]
        if state is not None:
            body.update(state_json(site.schema, state))
        return json_reply(200, body)

    async def delete(self, request: Request, caller: Caller) -> Reply:
        site, lang = self.site, self.site.lang(request, caller.lang)
        refused = self.refuse_change(request, caller, lang)
        if refused is not None:
            return refused
        item_id = request.path[len(FACTS_PREFIX) :]
        if not ITEM_ID.match(item_id):  # never "forget" without an id: that erases everything
            return error(404, "not_found", t("api_not_found", lang))
        try:
            count, text = await site.run(
                remembered.forget_fact, site.memory, caller.namespace, item_id, site.metrics
            )
        except (MemoryEngineError, RuntimeError):
            return error(503, "unavailable", t("memory_forget_failed", lang))
        if not count:
            return error(404, "not_found", t("api_not_found", lang))
        shown = text if len(text) <= 120 else text[:119] + "…"
        message = t("page_forgot", lang, text=shown) if text else t("api_forgot", lang, count=count)
        return json_reply(200, {"ok": True, "id": item_id, "forgotten": count, "message": message})

    # -- checks ----------------------------------------------------------------------------

    def refuse_change(self, request: Request, caller: Caller, lang: Lang) -> Reply | None:
        """503 for a change by a caller not known to be unrevoked (Redis could not say:
        changes fail closed); 403 for one made with the session cookie but without its
        CSRF token."""
        if not caller.checked:
            return error(503, "unavailable", t("prefs_change_unavailable", lang))
        if caller.session is None:
            return None
        if self.site.sessions.csrf_ok(caller.session, request.header(CSRF_HEADER)):
            return None
        return error(403, "csrf", t("api_csrf", lang))

    def read_request(
        self, data: object, lang: Lang
    ) -> tuple[dict[str, object], str | None] | Reply:
        """The slots and note of a POST body, or the 400 that says what is wrong with it."""
        if not isinstance(data, Mapping):
            return error(400, "not_object", t("api_not_object", lang))
        slots, note = data.get("slots", {}), data.get("note")
        errors: dict[str, str] = {}
        if slots is None:
            slots = {}
        if not isinstance(slots, Mapping):
            errors["slots"] = t("api_not_object", lang)
            slots = {}
        known = {slot.id for slot in self.site.schema.slots}
        for key in slots:
            if key not in known:
                errors[str(key)[:64]] = t("api_unknown_field", lang)
        if note is not None and not isinstance(note, str):
            errors[NOTE] = t("reject_unreadable", lang)
        if errors:
            return error(400, "invalid", t("api_invalid", lang), errors=errors)
        return dict(slots), note if isinstance(note, str) else None

    def unauthorized(self, request: Request) -> Reply:
        lang = self.site.lang(request, self.site.named_lang(request))  # as the page's refusal
        return error(401, "unauthorized", t("api_unauthorized", lang), _CHALLENGE)

    def not_allowed(self, request: Request, methods: tuple[str, ...]) -> Reply:
        """204 with `Allow` for OPTIONS; else the 405, in the caller's language."""
        if request.method == "OPTIONS":
            return Reply(204, headers=[("allow", allowed(methods))])
        lang = self.site.lang(request, self.site.named_lang(request))
        message = t("api_method_not_allowed", lang, methods=", ".join(methods))
        return error(405, "method_not_allowed", message, ("allow", allowed(methods)))

    def unavailable(self, lang: Lang) -> Reply:
        return error(503, "unavailable", t("home_unavailable", lang))


__all__ = ["EVERY_METHOD", "FACTS_PREFIX", "FACT_METHODS", "PREFERENCES_METHODS", "PrefsAPI"]
