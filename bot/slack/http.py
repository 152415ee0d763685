"""Slack over HTTP: the `POST /slack/events` route, and what it checks before Bolt.

Events, slash commands and interactivity all arrive on `/slack/events`. Before a byte
of the body is read, the signature headers must be there and the timestamp fresh
(`header_problem`), and a declared `Content-Length` over `HTTP_MAX_BODY_BYTES` gets 413;
then the signature over the body (`signature_problem`). Any wrong: 401, nothing touched,
and a WARNING with the reason ("missing headers", "stale timestamp", "bad signature"...),
never the body, once per reason a minute with a count of the others (a wrong signing
secret shows at once; a flood of unsigned requests does not fill the log). An unreadable
body, or one not shaped like anything Slack sends (`request_problem`), gets 400 with a
short JSON error (so does JSON nested deeper than `bot.payloads.MAX_DEPTH`, checked
before Bolt parses it); then Bolt dispatches it on the dispatch pool, so the event loop never
blocks on a listener. Should Bolt still trip over a body, that is a 400 too, logged
without it.
An Events API event (`event_callback`) is answered 200 as soon as it is verified and
checked, and only then handed to Bolt (`bot.slack.handoff`: at once, or after the acks
of a burst): Bolt would answer it an empty 200 anyway, and under a burst its work and
the turns it starts compete with the acks for the GIL (bench/README.md, "Slack acks
under a burst"). A failure to dispatch it is logged the same way, without the body.

The composition root (`bot.compose.mount_slack`) registers the route on the one HTTP
application (`bot.http.app`).

Why check shapes at all: a correctly signed body can still be malformed (a bug on
Slack's side, a replayed test payload, a proxy mangling JSON); Bolt then raises deep
inside and the request would get a 500. `request_problem` names what is wrong, never
the content.
"""

from __future__ import annotations

import logging
import os
import time
import traceback
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from slack_bolt import App
from slack_bolt.request import BoltRequest

from bot.http.asgi import Receive, Scope, Send, first, headers_of, respond, send_response
from bot.http.routes import JSON, MALFORMED, CallbackRoute, Intake, ShuttingDown
from bot.payloads import TooDeep, too_deep
from bot.slack.handoff import Handoff
from bot.slack.signing import header_problem, sign, signature_problem, verify_signature

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"


class SlackEvents(CallbackRoute):
    """The ASGI route of `POST /slack/events` (see the module docstring)."""

    what = "Slack request"

    def __init__(self, bolt: App, intake: Intake, *, signing_secret: str) -> None:
        super().__init__(intake, secret=signing_secret, log=log)
        self.bolt = bolt
        self._secret = signing_secret.encode("utf-8")
        self.handoff = Handoff(bolt.dispatch, intake.pool, intake.metrics)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        metrics = self.metrics
        headers = headers_of(scope)
        timestamp = first(headers.get("x-slack-request-timestamp"))
        signature = first(headers.get("x-slack-signature"))
        unsigned = header_problem(timestamp=timestamp, signature=signature)
        if unsigned is not None:  # before a byte of the body is read
            await self.unsigned(send, unsigned)
            return
        raw = await self.read(receive, headers, send)
        if raw is None:
            return
        unsigned = signature_problem(self._secret, raw, timestamp=timestamp, signature=signature)
        if unsigned is not None:
            await self.unsigned(send, unsigned)
            return
        try:
            if too_deep(_json_of(raw)):  # before Bolt parses it (see `bot.payloads`)
                raise TooDeep("nested too deeply")
            request = BoltRequest(
                body=raw.decode("utf-8"),
                query=scope.get("query_string", b"").decode("latin-1"),
                headers=dict(headers),
            )
        except Exception as exc:  # undecodable or unparsable body
            problem: str | None = f"unparsable ({type(exc).__name__})"
        else:
            problem = request_problem(request.body)
        if problem is not None:
            await self.malformed(send, problem)
            return
        if request.body.get("type") == "event_callback":
            # Bolt acknowledges every event with an empty 200 before its listeners run:
            # answer that first, then hand it to Bolt (`bot.slack.handoff`).
            metrics.observe("slack_ack_seconds", time.monotonic() - started)
            await respond(send, 200, b"")
            self.handoff.add(request)
            return
        try:
            response = await self.hand_off(send, self.bolt.dispatch, request)
        except ShuttingDown:
            return
        except Exception as exc:  # a shape Bolt trips over that `request_problem` let by
            metrics.inc("http_rejected_total", reason="dispatch_error")
            log.warning(
                "Slack request could not be dispatched (%s at %s)", type(exc).__name__, _where(exc)
            )
            await respond(send, 400, MALFORMED, JSON)
            return
        metrics.observe("slack_ack_seconds", time.monotonic() - started)
        body = response.body.encode("utf-8") if isinstance(response.body, str) else b""
        out_headers: list[tuple[bytes, bytes]] = []
        for name, values in response.headers.items():
            if name.lower() == "content-length":
                continue
            for value in values:
                out_headers.append((name.encode("latin-1"), str(value).encode("latin-1")))
        await send_response(send, response.status, body, out_headers)


def _json_of(raw: bytes) -> bytes | str:
    """The JSON a Slack body carries: the body itself, or a form's `payload` field."""
    if raw.lstrip()[:1] in (b"{", b"["):
        return raw
    return (parse_qs(raw.decode("utf-8", "replace")).get("payload") or [""])[0]


def _where(exc: BaseException) -> str:
    """`file.py:line` where `exc` was raised (no message: it may quote the body)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno}"


# Fields Bolt reads as strings (or compares with strings) wherever they appear.
_STRING_FIELDS = (
    "type",
    "team_id",
    "api_app_id",
    "enterprise_id",
    "event_id",
    "callback_id",
    "action_id",
    "trigger_id",
    "response_url",
    "challenge",
)
# Fields Bolt reads as objects (`.get` on them) wherever they appear.
_OBJECT_FIELDS = (
    "event",
    "user",
    "team",
    "channel",
    "enterprise",
    "container",
    "message",
    "state",
    "view",
    "assistant_thread",
    "function_data",
    "workflow_step",
)
_LIST_FIELDS = ("authorizations", "actions", "response_urls")
# The events the bot subscribes to, whose fields its listeners read as strings.
_CHECKED_EVENTS = frozenset({"message", "app_mention", "app_home_opened", "agent_session_stopped"})
_EVENT_STRING_FIELDS = (
    "type",
    "subtype",
    "user",
    "channel",
    "channel_type",
    "team",
    "user_team",
    "ts",
    "thread_ts",
    "event_ts",
    "text",
    "bot_id",
)
_COMMAND_FIELDS = ("command", "team_id", "user_id")
_COMMAND_OPTIONAL = (
    "text",
    "channel_id",
    "trigger_id",  # the listener answers its absence kindly
    "response_url",
    "user_name",
    "enterprise_id",
)
# Interactivity payloads and the field Bolt matches their listeners on.
_MATCHED_ON = {
    "block_suggestion": "action_id",
    "shortcut": "callback_id",
    "message_action": "callback_id",
    "interactive_message": "callback_id",
    "dialog_submission": "callback_id",
    "dialog_cancellation": "callback_id",
    "dialog_suggestion": "callback_id",
    "workflow_step_edit": "callback_id",
}


def request_problem(body: object) -> str | None:
    """Why a (signed) request body cannot be something Slack sends, or None if it can be.

    Bolt indexes into events, commands and interactivity payloads without checking their
    shapes, so a body it would trip over is refused here first. The reason names fields,
    never their content.
    """
    if not isinstance(body, dict) or not body:
        return "not a JSON object or form"
    if "command" in body:
        return _command_problem(body)
    for key in _STRING_FIELDS:
        if key in body and not isinstance(body[key], str):
            return f"{key} is not a string"
    for key in _OBJECT_FIELDS:
        if body.get(key) is not None and not isinstance(body[key], dict):
            return f"{key} is not an object"
    for key in _LIST_FIELDS:
        value = body.get(key)
        if value is not None and not (
            isinstance(value, list) and all(isinstance(item, dict) for item in value)
        ):
            return f"{key} is not a list of objects"
    for key in ("user", "team", "channel", "enterprise"):
        value = body.get(key)
        if isinstance(value, dict) and not isinstance(value.get("id", ""), str):
            return f"{key}.id is not a string"
    kind = body.get("type")
    if not kind:
        return "no type"
    if kind == "url_verification" and "challenge" not in body:
        return "no challenge"
    if kind == "event_callback":
        return _event_problem(body.get("event"))
    if kind == "block_actions":
        actions = body.get("actions")
        if not actions or not all(isinstance(a.get("action_id"), str) for a in actions):
            return "actions without an action_id"
    if kind in ("view_submission", "view_closed"):
        view = body.get("view")
        if not isinstance(view, dict):
            return "no view"
        if not isinstance(view.get("type"), str) or not isinstance(view.get("callback_id"), str):
            return "view without a type or callback_id"
    matched_on = _MATCHED_ON.get(kind)
    if matched_on is not None and not isinstance(body.get(matched_on), str):
        return f"no {matched_on}"
    return None


def _event_problem(event: object) -> str | None:
    if not isinstance(event, dict):
        return "event is not an object"
    if not isinstance(event.get("type"), str) or not event["type"]:
        return "event without a type"
    if event["type"] not in _CHECKED_EVENTS:  # e.g. `team_join`, whose `user` is an object
        return None
    for key in _EVENT_STRING_FIELDS:
        if event.get(key) is not None and not isinstance(event[key], str):
            return f"event.{key} is not a string"
    return None


def _command_problem(body: Mapping[str, Any]) -> str | None:
    for key in _COMMAND_FIELDS:
        if not isinstance(body.get(key), str) or not body[key]:
            return f"command without {key}"
    if not str(body["command"]).startswith("/"):
        return "command does not start with /"
    for key in _COMMAND_OPTIONAL:
        if body.get(key) is not None and not isinstance(body[key], str):
            return f"{key} is not a string"
    return None


__all__ = [
    "EVENTS_PATH",
    "SlackEvents",
    "header_problem",
    "request_problem",
    "sign",
    "signature_problem",
    "verify_signature",
]
