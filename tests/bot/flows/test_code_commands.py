"""The commands that name a code, read the same way on every platform
(`bot.flows.code_commands`): what one platform's message offers is what the person may
type, in either language, and a platform reads only the commands it offers, each from
its own codes."""

from __future__ import annotations

import pytest
import redis

from bot.flows.actions import APPROVAL_REASON, APPROVE, SAVE_TRIP, STALE, Action
from bot.flows.code_commands import code_action, command_for
from bot.flows.codes import PendingActions

SLACK_CODE_ACTIONS = frozenset({SAVE_TRIP})  # what Slack's messages offer under codes
TRIP = {"ns": "T1:U0ALICE", "by": "U0ALICE", "o": "上海", "d": "成都", "s": "2026-12-10"}


@pytest.mark.parametrize(
    ("typed", "lang"),
    [
        ("save trip {code}", "en"),
        ("Save  Trip {code}.", "en"),
        ("/save-trip {code}", "en"),
        ("/travel-prefs save trip {code}", "en"),
        ("保存行程 {code}", "zh"),
        ("保存行程{code}。", "zh"),
    ],
)
def test_every_way_of_typing_save_trip_reads_back_the_trip(typed: str, lang: str) -> None:
    codes = PendingActions(client=None, platform="slack")
    code = codes.put({"a": SAVE_TRIP, **TRIP}, ttl_seconds=60)
    found = code_action(typed.format(code=code.lower()), codes, accepts=SLACK_CODE_ACTIONS)
    assert found == (Action(SAVE_TRIP, TRIP), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_a_message_offers_is_what_the_parser_reads(lang: str) -> None:
    codes = PendingActions(client=None, platform="slack")
    offered = command_for(Action(SAVE_TRIP, TRIP), lang, codes)  # type: ignore[arg-type]
    assert offered.startswith("保存行程 " if lang == "zh" else "save trip ")
    assert code_action(offered, codes, accepts=SLACK_CODE_ACTIONS) == (
        Action(SAVE_TRIP, TRIP),
        lang,
    )


def test_a_gone_code_is_stale_and_a_command_a_platform_does_not_offer_is_a_message() -> None:
    codes = PendingActions(client=None, platform="slack")
    stale = code_action("save trip ZZZZ2222", codes, accepts=SLACK_CODE_ACTIONS)
    assert stale == (Action(STALE, {"was": SAVE_TRIP}), "en")
    approve = codes.put({"a": APPROVE, "id": "r1"}, ttl_seconds=60)
    # Slack's approvers use buttons: "approve CODE" is a message for the assistant there.
    assert code_action(f"approve {approve}", codes, accepts=SLACK_CODE_ACTIONS) is None
    assert code_action(f"approve {approve}", codes) == (Action(APPROVE, {"id": "r1"}), "en")
    assert code_action("save trip", codes) is None  # no code: a request for the assistant


@pytest.mark.parametrize(
    "typed",
    [
        "save trip saturday",
        "Save trip tomorrow",
        "保存行程 tomorrow",
        "reason tomorrow is a holiday",
    ],
)
def test_an_eight_letter_word_after_a_command_word_is_a_message_for_the_assistant(
    typed: str,
) -> None:
    codes = PendingActions(client=None, platform="dingtalk")
    assert code_action(typed, codes) is None


def test_codes_always_hold_a_digit_and_an_older_one_without_is_still_found() -> None:
    codes = PendingActions(client=None, platform="dingtalk")
    made = [codes.put({"a": SAVE_TRIP, **TRIP}, ttl_seconds=60) for _ in range(300)]
    assert all(any(ch.isdigit() for ch in code) for code in made)
    # A code kept before codes held a digit (still within its TTL after a deploy).
    codes._local["SATURDAY"] = codes._local.pop(made[0])
    assert code_action("save trip saturday", codes) == (Action(SAVE_TRIP, TRIP), "en")


def test_each_platform_reads_only_its_own_codes(
    redis_client: redis.Redis, redis_prefix: str
) -> None:
    dingtalk = PendingActions(client=redis_client, key_prefix=redis_prefix, platform="dingtalk")
    slack = PendingActions(client=redis_client, key_prefix=redis_prefix, platform="slack")
    code = dingtalk.put({"a": SAVE_TRIP, **TRIP}, ttl_seconds=60)
    assert redis_client.exists(f"{redis_prefix}dingtalk:action:{code}")  # as before
    assert code_action(f"save trip {code}", dingtalk) == (Action(SAVE_TRIP, TRIP), "en")
    stale = code_action(f"save trip {code}", slack, accepts=SLACK_CODE_ACTIONS)
    assert stale == (Action(STALE, {"was": SAVE_TRIP}), "en")


@pytest.mark.parametrize(
    "typed",
    [
        "reason {code} The client's office is next door.\nMy knee needs a lift!  ",
        "理由 {code} 客户办公室就在隔壁。\n需要无障碍房间！",
    ],
)
def test_a_reason_reaches_the_approver_as_written(typed: str) -> None:
    """Its lines and punctuation kept (only its ends stripped), as the approver reads it."""
    codes = PendingActions(client=None, platform="dingtalk")
    code = codes.put({"a": APPROVAL_REASON, "trip": "t1"}, ttl_seconds=60)
    found = code_action(typed.format(code=code), codes)
    assert found is not None
    written = typed.format(code=code).strip().split(code, 1)[1].strip()
    assert found[0] == Action(APPROVAL_REASON, {"trip": "t1", "reason": written})
    assert "\n" in found[0].data["reason"] and found[0].data["reason"][-1] in "!！"


@pytest.mark.parametrize("in_redis", [True, False])
def test_what_a_code_names_can_be_added_to_and_it_expires_as_before(
    in_redis: bool, redis_client: redis.Redis, redis_prefix: str
) -> None:
    codes = PendingActions(
        client=redis_client if in_redis else None, key_prefix=redis_prefix, platform="slack"
    )
    typed = command_for(Action(SAVE_TRIP, {"ns": "slack:T1:U1"}), "en", codes)
    code = typed.rsplit(" ", 1)[-1]
    if in_redis:
        redis_client.expire(codes.key(code), 100)
    assert codes.amend(code, {"plan_at": {"channel": "D1", "ts": "1.2"}})
    assert codes.get(code) == {
        "a": SAVE_TRIP,
        "ns": "slack:T1:U1",
        "plan_at": {"channel": "D1", "ts": "1.2"},
    }
    if in_redis:
        assert 0 < redis_client.ttl(codes.key(code)) <= 100  # its TTL kept
    assert not codes.amend("ZZZZ2222", {"plan_at": {}})  # a gone code stays gone
    assert codes.get("ZZZZ2222") is None
