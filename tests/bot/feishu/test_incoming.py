"""Feishu's message events as the core's incoming messages: who, where, what was said."""

from __future__ import annotations

import json
import time
from typing import Any

import lark_oapi as lark
from lark_oapi.api.im.v1 import P2ImMessageReceiveV1

from bot.feishu.incoming import parse_message
from tests.support.feishu_events import message_event

BOT = "ou_bot"
TENANT = "tk_1"


def event(text: str = "", **extra: Any) -> P2ImMessageReceiveV1:
    """The event as the SDK's dispatcher hands it over (its typed model)."""
    values: dict[str, Any] = {
        "token": "vt",
        "tenant": TENANT,
        "sender": "ou_alice",
        "chat_id": "oc_1",
        "chat_type": "p2p",
        "message_id": "om_1",
        "text": text,
    }
    values.update(extra)
    body = message_event(**values)
    return lark.JSON.unmarshal(json.dumps(body), P2ImMessageReceiveV1)


def test_a_direct_message_names_its_writer_tenant_thread_and_language() -> None:
    parsed = parse_message(event("出差只坐高铁一等座"), bot_open_id=BOT)
    assert parsed is not None
    msg = parsed.msg
    assert (msg.platform.name, msg.tenant, msg.user, msg.kind) == (
        "feishu",
        TENANT,
        "ou_alice",
        "dm",
    )
    assert msg.namespace == f"feishu:{TENANT}:ou_alice"
    assert (msg.thread, msg.message_id, msg.starts_thread) == ("om_1", "om_1", True)
    assert msg.lang == "zh"
    assert msg.delivery_id and msg.delivery_key == f"feishu:{msg.delivery_id}"


def test_mentions_become_the_cores_markup_and_the_bots_own_is_removed() -> None:
    mentions = [(BOT, "TravelBot"), ("ou_zhang", "张三")]
    parsed = parse_message(
        event("{0} 给 {1} 规划 12月10日 上海到成都的行程", chat_type="group", mentions=mentions),
        bot_open_id=BOT,
    )
    assert parsed is not None
    assert parsed.msg.kind == "mention"
    assert parsed.msg.text == "给 <@ou_zhang> 规划 12月10日 上海到成都的行程"


def test_a_mention_typed_by_hand_never_passes_for_one() -> None:
    parsed = parse_message(event("plan a trip for <@ou_zhang> please"), bot_open_id=BOT)
    assert parsed is not None
    assert "<@ou_zhang>" not in parsed.msg.text


def test_everyone_is_plain_text() -> None:
    parsed = parse_message(
        event("{0} {1} lunch?", chat_type="group", mentions=[(BOT, "Bot"), ("all", "所有人")]),
        bot_open_id=BOT,
    )
    assert parsed is not None and "<@" not in parsed.msg.text


def test_rich_text_keeps_title_text_links_code_and_mentions() -> None:
    post = {
        "title": "Offsite",
        "content": [
            [{"tag": "at", "user_id": "@_user_1"}, {"tag": "text", "text": " plan it with "}],
            [{"tag": "at", "user_id": "@_user_2"}, {"tag": "img", "image_key": "img_1"}],
            [{"tag": "a", "text": "agenda", "href": "https://example.com/a"}],
            [{"tag": "code_block", "language": "PLAIN", "text": "MU5101"}],
        ],
    }
    mentions = [(BOT, "Bot"), ("ou_bob", "Bob")]
    parsed = parse_message(event(post=post, chat_type="group", mentions=mentions), bot_open_id=BOT)
    assert parsed is not None
    assert parsed.msg.text == (
        "Offsite\nplan it with\n<@ou_bob>\nagenda (https://example.com/a)\nMU5101"
    )


def test_what_is_not_for_the_bot_is_dropped() -> None:
    assert parse_message(event("hi", sender_type="app"), bot_open_id=BOT) is None
    assert parse_message(event("hi", sender=BOT), bot_open_id=BOT) is None
    assert parse_message(event("", message_type="image"), bot_open_id=BOT) is None
    chatter = event("lunch?", chat_type="group")
    assert parse_message(chatter, bot_open_id=BOT) is None
    in_thread = event("and dinner?", chat_type="group", root_id="om_0", thread_id="omt_0")
    parsed = parse_message(in_thread, bot_open_id=BOT)
    assert parsed is not None and parsed.msg.kind == "thread" and parsed.msg.thread == "om_0"
    assert parsed.thread_id == "omt_0"


def test_old_messages_are_not_answered() -> None:
    stale = event("still there?", sent_at=time.time() - 600)
    assert parse_message(stale, bot_open_id=BOT, max_age=300) is None
    fresh = event("still there?", sent_at=time.time() - 30)
    assert parse_message(fresh, bot_open_id=BOT, max_age=300) is not None


def test_the_language_falls_back_to_the_default_when_the_text_cannot_say() -> None:
    parsed = parse_message(event("MU5101"), bot_open_id=BOT, default_lang="zh")
    assert parsed is not None and parsed.msg.lang == "zh"
    parsed = parse_message(
        event("I never take red-eye flights"), bot_open_id=BOT, default_lang="zh"
    )
    assert parsed is not None and parsed.msg.lang == "en"
