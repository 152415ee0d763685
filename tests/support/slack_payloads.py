"""Helpers for the `/travel-prefs` and App Home tests: Slack's interactivity payloads.

They build what Slack sends when a person submits the preferences modal, clicks a button
or opens the Home tab, post it signed to the running bot, and read back the views and
messages the fake Slack server received.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from bot.slack.views import blocks as views

if TYPE_CHECKING:  # the pure view helpers below work without a running bot
    import httpx

    from tests.support.slack_api import Call, FakeSlackAPI
    from tests.support.slack_harness import BotHarness

API_APP_ID = "A0TRAVEL"  # as in tests.support.slack_harness

Choice = str | list[str] | None


def post_payload(bot: BotHarness, payload: Mapping[str, Any]) -> httpx.Response:
    body = urlencode({"payload": json.dumps(payload)}).encode()
    return bot.post(body, "application/x-www-form-urlencoded")


def trigger_id() -> str:
    return f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}"


def wait_view(
    slack: FakeSlackAPI,
    method: str,
    where: Callable[[dict[str, Any]], bool] = lambda view: True,
    count: int = 1,
    timeout: float = 15.0,
) -> list[dict[str, Any]]:
    """The views sent with `method` (views.open/update/publish) that match `where`."""
    calls = slack.wait_for(method, count=count, timeout=timeout, where=lambda c: where(_view_of(c)))
    return [_view_of(c) for c in calls]


def _view_of(call: Call) -> dict[str, Any]:
    view = call.args.get("view")
    if isinstance(view, str):
        view = json.loads(view)
    return dict(view or {})


def is_form(view: Mapping[str, Any]) -> bool:
    return view.get("callback_id") == views.FORM_CALLBACK_ID


def open_form(bot: BotHarness, user: str, timeout: float = 15.0) -> dict[str, Any]:
    """Run `/travel-prefs` and return the form as Slack holds it (with id and hash)."""
    before = len([c for c in bot.slack.calls_to("views.update") if is_form(_view_of(c))])
    response = bot.command("/travel-prefs", user=user)
    assert response.status_code == 200
    wait_view(bot.slack, "views.update", is_form, count=before + 1, timeout=timeout)
    form_calls = [c for c in bot.slack.calls_to("views.update") if is_form(_view_of(c))]
    view_id = str(form_calls[-1].args["view_id"])
    deadline = time.monotonic() + timeout  # the call is recorded just before it is stored
    while not is_form(bot.slack.views.get(view_id, {})) and time.monotonic() < deadline:
        time.sleep(0.01)
    return bot.slack.views[view_id]


def block(view: Mapping[str, Any], block_id: str) -> dict[str, Any]:
    for candidate in view["blocks"]:
        if candidate.get("block_id") == block_id:
            return dict(candidate)
    raise AssertionError(f"no block {block_id!r} in the view")


def initial(view: Mapping[str, Any], slot: str) -> Choice:
    """What the form shows for `slot` before the person touches it."""
    element = block(view, views.slot_block_id(slot))["element"]
    if "initial_option" in element:
        return str(element["initial_option"]["value"])
    if "initial_options" in element:
        return sorted(str(o["value"]) for o in element["initial_options"])
    return None


def state_for(
    view: Mapping[str, Any], choices: Mapping[str, Choice] | None = None, free_text: str = ""
) -> dict[str, Any]:
    """`view.state.values` as Slack sends it: untouched inputs keep their initial value."""
    choices = dict(choices or {})
    values: dict[str, Any] = {}
    for candidate in view["blocks"]:
        if candidate.get("type") != "input":
            continue
        block_id, element = candidate["block_id"], candidate["element"]
        kind = element["type"]
        if block_id == views.FREE_TEXT_BLOCK_ID:
            values[block_id] = {
                views.FREE_TEXT_ACTION_ID: {"type": kind, "value": free_text or None}
            }
            continue
        slot = block_id.removeprefix(views.SLOT_BLOCK_PREFIX)
        chosen = choices[slot] if slot in choices else initial(view, slot)
        if kind == "static_select":
            picked = {"text": {"type": "plain_text", "text": str(chosen)}, "value": chosen}
            entry = {"type": kind, "selected_option": picked if chosen else None}
        else:
            ids = [chosen] if isinstance(chosen, str) else list(chosen or [])
            entry = {
                "type": kind,
                "selected_options": [
                    {"text": {"type": "plain_text", "text": i}, "value": i} for i in ids
                ],
            }
        values[block_id] = {views.SLOT_ACTION_ID: entry}
    return values


def submit(
    bot: BotHarness,
    view: Mapping[str, Any],
    user: str,
    state: Mapping[str, Any],
    *,
    team: str | None = None,
) -> httpx.Response:
    """Submit `view` with `state` as `user` (a view_submission payload)."""
    team = team or bot.team_id
    payload = {
        "type": "view_submission",
        "team": {"id": team, "domain": bot.slack.team_domain},
        "user": {"id": user, "username": user.lower(), "name": user.lower(), "team_id": team},
        "api_app_id": API_APP_ID,
        "token": "legacy-verification-token",
        "trigger_id": trigger_id(),
        "view": {**view, "state": {"values": dict(state)}},
        "response_urls": [],
        "is_enterprise_install": False,
    }
    return post_payload(bot, payload)


def click(
    bot: BotHarness, user: str, action_id: str, value: str = "", **options: Any
) -> httpx.Response:
    """Click a button (a block_actions payload) on a view or an ephemeral message; the
    options are `click_payload`'s."""
    return post_payload(bot, click_payload(bot, user, action_id, value, **options))


def click_payload(
    bot: BotHarness,
    user: str,
    action_id: str,
    value: str = "",
    *,
    view: Mapping[str, Any] | None = None,
    response_url: str | None = None,
    with_trigger: bool = True,
) -> dict[str, Any]:
    """The block_actions payload Slack sends for a click (see `click`)."""
    team = bot.team_id
    payload: dict[str, Any] = {
        "type": "block_actions",
        "team": {"id": team, "domain": bot.slack.team_domain},
        "user": {"id": user, "username": user.lower(), "name": user.lower(), "team_id": team},
        "api_app_id": API_APP_ID,
        "token": "legacy-verification-token",
        "actions": [
            {
                "type": "button",
                "action_id": action_id,
                "block_id": "b1",
                "value": value,
                "text": {"type": "plain_text", "text": "button"},
                "action_ts": f"{time.time():.6f}",
            }
        ],
        "is_enterprise_install": False,
    }
    if with_trigger:
        payload["trigger_id"] = trigger_id()
    if view is not None:
        payload["view"] = dict(view)
        payload["container"] = {"type": "view", "view_id": view.get("id")}
    if response_url is not None:
        payload["response_url"] = response_url
        payload["container"] = {
            "type": "message",
            "message_ts": f"{time.time():.6f}",
            "channel_id": "C0TRAVEL",
            "is_ephemeral": True,
        }
        payload["channel"] = {"id": "C0TRAVEL", "name": "travel"}
    return payload


def open_home(bot: BotHarness, user: str) -> httpx.Response:
    event = {"type": "app_home_opened", "user": user, "channel": "D" + user, "tab": "home"}
    response, _ = bot.event(event)
    return response


def published_home(
    slack: FakeSlackAPI, user: str, count: int = 1, timeout: float = 15.0
) -> dict[str, Any]:
    """The latest Home view published for `user`, once `count` publishes arrived."""
    calls = slack.wait_for(
        "views.publish", count=count, timeout=timeout, where=lambda c: c.args["user_id"] == user
    )
    return _view_of(calls[-1])


def texts(view: Mapping[str, Any]) -> str:
    """Every text of a view's blocks, joined (for "does the person see X" checks)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if isinstance(node.get("text"), str):
                found.append(node["text"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(view.get("blocks", []))
    return "\n".join(found)


def buttons(view: Mapping[str, Any], action_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for candidate in view["blocks"]:
        elements = list(candidate.get("elements") or [])
        if candidate.get("accessory"):
            elements.append(candidate["accessory"])
        found += [e for e in elements if e.get("action_id") == action_id]
    return found


def check_limits(view: Mapping[str, Any]) -> None:
    """Slack's limits on a view: blocks, title, labels, option and button texts."""
    blocks = view["blocks"]
    assert 0 < len(blocks) <= 100
    if view.get("title"):
        assert len(view["title"]["text"]) <= 24
    for key in ("submit", "close"):
        if view.get(key):
            assert len(view[key]["text"]) <= 24
    assert len(view.get("private_metadata") or "") <= 3000
    for candidate in blocks:
        if candidate["type"] == "input":
            assert len(candidate["label"]["text"]) <= 2000
            if candidate.get("hint"):
                assert len(candidate["hint"]["text"]) <= 2000
            element = candidate["element"]
            options = element.get("options") or []
            assert len(options) <= (10 if element["type"] == "checkboxes" else 100)
            for option in options:
                assert len(option["text"]["text"]) <= 75
                assert len(option["value"]) <= 150
        if candidate["type"] in ("section", "header") and candidate.get("text"):
            limit = 150 if candidate["type"] == "header" else 3000
            assert len(candidate["text"]["text"]) <= limit
        for element in [*(candidate.get("elements") or []), candidate.get("accessory") or {}]:
            if element.get("type") == "button":
                assert len(element["text"]["text"]) <= 75
                assert len(element.get("value") or "") <= 2000
    ids = [b["block_id"] for b in blocks if "block_id" in b]
    assert len(ids) == len(set(ids)), "block ids must be unique in a view"


def settle(bot: BotHarness) -> None:
    """Wait until every request sent so far is fully handled (the pools stop)."""
    bot.core.pools.listeners.shutdown(wait=True)  # listeners hand work to the task pool
    bot.core.pools.tasks.shutdown(wait=True)
    bot.drain()


def response_texts(slack: FakeSlackAPI) -> list[str]:
    return [str(c.args.get("text") or "") for c in slack.response_calls]


def told(slack: FakeSlackAPI, user: str, count: int = 1, timeout: float = 15.0) -> list[str]:
    """What the bot told `user` in ephemeral messages or DMs, oldest first."""
    methods = ("chat.postEphemeral", "chat.postMessage")
    deadline = time.monotonic() + timeout
    while True:
        found = [
            str(c.args.get("text") or "")
            for c in slack.calls
            if c.method in methods and (c.args.get("user") == user or c.args.get("channel") == user)
        ]
        if len(found) >= count or time.monotonic() > deadline:
            assert len(found) >= count, f"expected {count} message(s) to {user}, got {found}"
            return found
        time.sleep(0.02)


__all__ = [
    "block",
    "buttons",
    "check_limits",
    "click",
    "click_payload",
    "initial",
    "is_form",
    "open_form",
    "open_home",
    "post_payload",
    "published_home",
    "response_texts",
    "settle",
    "state_for",
    "submit",
    "texts",
    "told",
    "trigger_id",
    "wait_view",
]
