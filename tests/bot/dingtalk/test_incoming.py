"""Robot messages as the core sees them, commands, and DingTalk's Markdown: pure functions."""

from __future__ import annotations

from typing import Any

import pytest

from bot.dingtalk.incoming import message_problem, parse_message
from bot.dingtalk.markdown import answer_markdown, inert, send_link, split
from bot.dingtalk.widgets import DingTalkWidgets
from bot.flows.actions import FORGET_PREFS, FORGET_PREFS_YES, SAVE_TRIP, STALE, Action
from bot.flows.code_commands import code_action
from bot.flows.codes import PendingActions
from bot.flows.commands import parse_command
from tests.support.dingtalk_harness import BOT_ID, CORP, GROUP

BASE: dict[str, Any] = {
    "conversationId": "cidDM-staff-alice==",
    "chatbotCorpId": CORP,
    "chatbotUserId": BOT_ID,
    "msgId": "msgA1",
    "senderNick": "Alice",
    "sessionWebhookExpiredTime": 1_900_000_000_000,
    "conversationType": "1",
    "senderId": "$:LWCP_v1:$alice",
    "senderStaffId": "staff-alice",
    "senderCorpId": CORP,
    "sessionWebhook": "http://127.0.0.1:9/robot/sendBySession?session=s",
    "text": {"content": "I never take red-eye flights"},
    "msgtype": "text",
}


def group_message(content: str, at_users: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {
        **BASE,
        "conversationType": "2",
        "conversationId": GROUP,
        "isInAtList": True,
        "atUsers": [{"dingtalkId": BOT_ID}, *at_users],
        "text": {"content": content},
        **extra,
    }


def test_a_direct_message_gets_the_writers_namespace_and_its_own_thread() -> None:
    received = parse_message(BASE)
    assert received is not None and received.msg is not None
    msg = received.msg
    assert msg.namespace == f"dingtalk:{CORP}:staff-alice"
    assert (msg.kind, msg.lang, msg.text) == ("dm", "en", "I never take red-eye flights")
    assert received.destination.webhook_expires == 1_900_000_000.0
    other = parse_message({**BASE, "senderStaffId": "staff-bob", "msgId": "m2"})
    assert other is not None and other.msg is not None
    assert other.msg.thread_key != msg.thread_key


def test_mentions_become_staff_ids_and_the_robots_own_is_dropped() -> None:
    bob = {"dingtalkId": "$:LWCP_v1:$bob", "staffId": "staff-bob"}
    received = parse_message(group_message(" 给 @张三 规划下周去成都的行程", [bob]))
    assert received is not None and received.msg is not None
    assert received.msg.text == "给 <@staff-bob> 规划下周去成都的行程"
    assert received.msg.kind == "mention" and received.msg.lang == "zh"
    # A client that left the robot's own @ in the text: it is dropped, not mistaken for Bob.
    left_in = parse_message(group_message("@TravelBot plan a trip for @Bob", [bob]))
    assert left_in is not None and left_in.msg is not None
    assert left_in.msg.text == "plan a trip for <@staff-bob>"
    # A name typed after the mentioned people stays text.
    cc = parse_message(group_message("plan for @Bob, cc @everyone", [bob]))
    assert cc is not None and cc.msg is not None
    assert cc.msg.text == "plan for <@staff-bob>, cc @everyone"
    # An e-mail address is no mention.
    mail = parse_message(group_message("mail bob@example.com", []))
    assert mail is not None and mail.msg is not None
    assert mail.msg.text == "mail bob@example.com"


def test_what_is_not_for_the_robot_is_dropped() -> None:
    unmentioned = group_message("lunch?", [], isInAtList=False, atUsers=[])
    assert parse_message(unmentioned) is None
    assert parse_message({**BASE, "senderId": BOT_ID}) is None


def test_a_writer_from_another_organisation_is_marked_as_such() -> None:
    received = parse_message({**BASE, "senderCorpId": "dingothercorp"})
    assert received is not None and received.msg is not None
    assert received.msg.namespace == "dingtalk:dingothercorp:staff-alice"
    assert received.own_corp is False
    assert parse_message(BASE).own_corp is True  # type: ignore[union-attr]


def test_an_external_contact_has_no_namespace() -> None:
    external = {k: v for k, v in BASE.items() if k not in ("senderStaffId", "senderCorpId")}
    received = parse_message(external)
    assert received is not None
    assert received.msg is None
    assert received.text == "I never take red-eye flights"


@pytest.mark.parametrize(
    ("content", "default", "lang"),
    [("出差只坐高铁一等座", "en", "zh"), ("aisle please", "zh", "en"), ("👍 2026", "zh", "zh")],
)
def test_language_comes_from_the_text_else_the_default(
    content: str, default: str, lang: str
) -> None:
    received = parse_message({**BASE, "text": {"content": content}}, default_lang=default)  # type: ignore[arg-type]
    assert received is not None and received.lang == lang


def test_rich_text_and_voice_messages_are_read_as_text() -> None:
    rich = {
        **BASE,
        "msgtype": "richText",
        "content": {"richText": [{"text": "aisle "}, {"downloadCode": "x"}, {"text": "seats"}]},
    }
    voice = {**BASE, "msgtype": "audio", "content": {"recognition": "靠窗的座位", "duration": 3}}
    picture = {**BASE, "msgtype": "picture", "content": {"downloadCode": "x"}}
    texts = [parse_message(m).text for m in (rich, voice, picture)]  # type: ignore[union-attr]
    assert texts == ["aisle seats", "靠窗的座位", ""]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"msgId": 7}, "msgId is not a string"),
        ({"conversationType": "3"}, "conversationType is not 1 or 2"),
        ({"text": "hi"}, "text is not an object"),
        ({"text": {}}, "text without content"),
        ({"atUsers": ["bob"]}, "atUsers is not a list of objects"),
        ({"sessionWebhook": "file:///etc/passwd"}, "sessionWebhook is not an http(s) URL"),
        ({"sessionWebhookExpiredTime": "soon"}, "sessionWebhookExpiredTime is not a number"),
    ],
)
def test_malformed_messages_are_named(change: dict[str, Any], problem: str) -> None:
    assert message_problem({**BASE, **change}) == problem


def test_a_well_formed_message_has_no_problem() -> None:
    assert message_problem(BASE) is None
    assert message_problem([]) == "not a JSON object"
    assert message_problem({"msgId": "x"}) == "no msgId or conversationId"


@pytest.mark.parametrize(
    ("text", "action", "lang"),
    [
        ("/travel-prefs forget k7p2m9qx", FORGET_PREFS_YES, "en"),
        ("确认删除偏好 K7P2M9QX", FORGET_PREFS_YES, "zh"),
        ("save trip K7P2M9QX", SAVE_TRIP, "en"),
        ("/save-trip K7P2M9QX", SAVE_TRIP, "en"),
        ("/travel-prefs save trip K7P2M9QX", SAVE_TRIP, "en"),  # as Slack's slash command
        ("保存行程 K7P2M9QX", SAVE_TRIP, "zh"),
    ],
)
def test_commands_with_a_code_read_back_the_action_it_names(
    text: str, action: str, lang: str
) -> None:
    codes = PendingActions(client=None, platform="dingtalk")
    code = codes.put({"a": action, "owner": "dingtalk:corp:alice"}, ttl_seconds=60)
    found = code_action(text.replace("K7P2M9QX", code).replace("k7p2m9qx", code.lower()), codes)
    assert found == (Action(action, {"owner": "dingtalk:corp:alice"}), lang)
    # A code that is gone, or kept for another action, is a stale button.
    stale = code_action(text, codes)
    assert stale is not None and stale[0] == Action(STALE, {"was": action})
    assert code_action("保存行程", codes) is None  # no code: a request for the assistant
    assert code_action("what about trip K7P2M9QX?", codes) is None


def test_buttons_send_what_the_parser_reads_back() -> None:
    codes = PendingActions(client=None, platform="dingtalk")
    widgets = DingTalkWidgets(codes)
    for lang in ("en", "zh"):
        yes = Action(FORGET_PREFS_YES, {"owner": "dingtalk:corp:alice", "once": "n1"})
        sent = widgets.command(yes, lang)  # type: ignore[arg-type]
        assert code_action(sent, codes) == (yes, lang)
        ask = widgets.command(Action(FORGET_PREFS), lang)  # type: ignore[arg-type]
        command = parse_command(ask)
        assert command is not None and command.action == FORGET_PREFS and command.lang == lang


def test_stored_text_is_inert_in_markdown() -> None:
    nasty = (
        "[click](dtmd://dingtalkclient/sendMessage?content=x) ![t](http://t.example/p.png) "
        "<font>red</font>\n# big\n> quote"
    )
    text = inert(nasty)
    assert "](" not in text and "![" not in text and "<" not in text and "://" not in text
    assert not any(line.startswith(("#", ">")) for line in text.split("\n"))
    assert text.replace("\u200b", "").replace("＜", "<").replace("＞", ">") == nasty


def test_answers_keep_web_links_and_lose_other_schemes() -> None:
    text, at = answer_markdown(
        "Ask <@staff-bob>. [Book](https://example.com/b) or "
        "[this](dtmd://dingtalkclient/sendMessage?content=forget) <!channel>"
    )
    assert at == ("staff-bob",)
    assert "@staff-bob" in text and "[Book](https://example.com/b)" in text
    assert "dtmd://" not in text and "(dtmd" not in text
    assert "@channel" in text


def test_long_answers_are_split_between_paragraphs() -> None:
    paragraphs = [f"Paragraph {i}:" + " word" * 60 for i in range(40)]
    parts = split("\n\n".join(paragraphs), limit=1000)
    assert all(len(p) <= 1000 for p in parts)
    assert "\n\n".join(parts).split("\n\n") == paragraphs
    assert split("x" * 2500, limit=1000) == ["x" * 1000, "x" * 1000, "x" * 500]


def test_a_send_link_carries_the_whole_command() -> None:
    link = send_link("保存行程 ABCDEFGH")
    assert link.startswith("dtmd://dingtalkclient/sendMessage?content=")
    assert " " not in link
