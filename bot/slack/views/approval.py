"""Block Kit for approvals (`bot.flows.approvals`): the reason modal and the approver's
message.

- `reason_modal`: "why this option?", a modal (`APPROVAL_REASON_CALLBACK`) with one
  multi-line input (`REASON_BLOCK`/`REASON_ACTION`); its `private_metadata` is the core's
  submit data, so the submission carries the trip and the thread it was asked from.
- `reason_message`: the same question as a message, for where no modal can open (a typed
  `save trip CODE` has no click to open it with): *Give a reason* (`REASON_OPEN_ACTION`,
  value the typed command `reason CODE`) opens the modal, or the person sends
  `reason CODE why` (`bot.flows.code_commands`);
- `approval_message`: the trip, the traveller, the rules broken, the reason, and
  *Approve* / *Reject* (`APPROVE_ACTION`, `REJECT_ACTION`, value `{"id": …}`) while the
  request is pending; its outcome once decided.
"""

from __future__ import annotations

import json
from typing import Any

from bot.flows.approvals import approval_body, reason_ask, state_line
from bot.flows.commands import PREFS as COMMAND
from bot.flows.views import ApprovalView, ReasonForm
from bot.messages import t
from bot.slack.markdown import escape
from bot.slack.views.blocks import MAX_BUTTON_CHARS, MAX_TEXT_CHARS, clip

APPROVAL_REASON_CALLBACK = "approval_reason"
REASON_BLOCK = "approval_reason_block"
REASON_ACTION = "approval_reason_input"
REASON_OPEN_ACTION = "approval_reason_open"
REASON_OPEN_BLOCK = "approval_reason_open_block"
APPROVE_ACTION = "approval_approve"
REJECT_ACTION = "approval_reject"
APPROVAL_BLOCK = "approval_buttons"
MAX_METADATA_CHARS = 3000  # Slack's limit on a view's private_metadata


# The response_url of *Give a reason*'s click, kept in the modal's metadata (never the core's).
ANSWER_URL = "answer_url"


def fitted_metadata(data: dict[str, Any]) -> str:
    """`data` as a modal's private_metadata, whole JSON within Slack's limit: what matters
    least is dropped first (the question to replace, the rules broken, the options' words,
    the trip's words, the thread), never cut mid-JSON; the trip and language always stay."""
    metadata = json.dumps(data, ensure_ascii=False)
    for step in range(6):
        if len(metadata) <= MAX_METADATA_CHARS:
            return metadata
        _shed(data, step)
        metadata = json.dumps(data, ensure_ascii=False)
    if len(metadata) > MAX_METADATA_CHARS:
        metadata = json.dumps({k: data[k] for k in ("trip", "l") if k in data})
    return metadata


def _shed(data: dict[str, Any], step: int) -> None:
    """Step `step` of making `data` smaller (`fitted_metadata`)."""
    if step == 0:
        data.pop(ANSWER_URL, None)
    elif step == 1 and "br" in data:
        data["br"] = []
    elif step == 2 and "ch" in data:
        data["ch"] = [str(c)[:80] for c in data["ch"]][:3]
    elif step == 3 and "t" in data:
        data["t"] = str(data["t"])[:200]
    elif step == 4:
        data.pop("w", None)
    elif step == 5:
        data.pop("ch", None)


def reason_modal(view: ReasonForm) -> dict[str, Any]:
    lang = view.lang
    ask = reason_ask(view, escape)
    metadata = fitted_metadata(dict(view.submit.data))
    return {
        "type": "modal",
        "callback_id": APPROVAL_REASON_CALLBACK,
        "private_metadata": metadata,
        "title": {"type": "plain_text", "text": clip(t("approval_reason_title", lang), 24)},
        "submit": {"type": "plain_text", "text": clip(t("approval_reason_submit", lang), 24)},
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": clip(ask, MAX_TEXT_CHARS)}},
            {
                "type": "input",
                "block_id": REASON_BLOCK,
                "label": {"type": "plain_text", "text": t("approval_reason_label", lang)},
                "element": {
                    "type": "plain_text_input",
                    "action_id": REASON_ACTION,
                    "multiline": True,
                    "max_length": 500,
                    "placeholder": {
                        "type": "plain_text",
                        "text": t("approval_reason_hint", lang),
                    },
                },
            },
        ],
    }


def reason_message(view: ReasonForm, *, typed: str) -> tuple[str, list[dict[str, Any]]]:
    """(fallback text, blocks) asking the reason in a message: why the last answer was
    refused, the question, *Give a reason* (its value: `typed`, the command that names
    the form's code) and what to send instead."""
    lang = view.lang
    ask = reason_ask(view, escape)
    send = t("slack_reason_or_send", lang, command=f"`{typed}`", slash=f"`{COMMAND} {typed}`")
    error = t(view.error, lang) if view.error else ""
    blocks: list[dict[str, Any]] = []
    if error:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": error}]})
    button = {
        "type": "button",
        "action_id": REASON_OPEN_ACTION,
        "style": "primary",
        "text": {
            "type": "plain_text",
            "text": clip(t("slack_reason_button", lang), MAX_BUTTON_CHARS),
        },
        "value": typed,
    }
    blocks += [
        {"type": "section", "text": {"type": "mrkdwn", "text": clip(ask, MAX_TEXT_CHARS)}},
        {"type": "actions", "block_id": REASON_OPEN_BLOCK, "elements": [button]},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": send}]},
    ]
    return "\n".join(line for line in (error, ask, send) if line), blocks


def approval_message(view: ApprovalView) -> tuple[str, list[dict[str, Any]]]:
    """(fallback text, blocks) of the approver's message."""
    lang = view.lang
    title = t("approval_title", lang, trip=escape(view.trip))
    body = approval_body(view, escape)
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": clip(title, 150)}},
        {"type": "section", "text": {"type": "mrkdwn", "text": clip(body, MAX_TEXT_CHARS)}},
    ]
    state = state_line(view)
    if state:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": state}]})
    buttons = []
    for action, action_id, label, style in (
        (view.approve, APPROVE_ACTION, "approval_approve", "primary"),
        (view.reject, REJECT_ACTION, "approval_reject", "danger"),
    ):
        if action is not None:
            buttons.append(
                {
                    "type": "button",
                    "action_id": action_id,
                    "style": style,
                    "text": {"type": "plain_text", "text": clip(t(label, lang), MAX_BUTTON_CHARS)},
                    "value": json.dumps(dict(action.data)),
                }
            )
    if buttons:
        blocks.append({"type": "actions", "block_id": APPROVAL_BLOCK, "elements": buttons})
    return "\n".join(line for line in (title, body, state) if line), blocks


__all__ = [
    "APPROVAL_BLOCK",
    "APPROVAL_REASON_CALLBACK",
    "APPROVE_ACTION",
    "REASON_ACTION",
    "REASON_BLOCK",
    "REASON_OPEN_ACTION",
    "REASON_OPEN_BLOCK",
    "REJECT_ACTION",
    "approval_message",
    "reason_message",
    "reason_modal",
]
