"""Shapes of Slack requests that Bolt relies on, checked before dispatch.

A correctly signed body can still be malformed (a bug on Slack's side, a replayed test
payload, a proxy mangling JSON); Bolt then raises deep inside and the request would
get a 500. `request_problem` names what is wrong so the server can answer 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
_CHECKED_EVENTS = frozenset({"message", "app_mention", "app_home_opened"})
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
