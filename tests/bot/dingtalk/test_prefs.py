"""Preferences in DingTalk: the summary card, the web page button, and forgetting
everything (asked first, only by the owner, only once), through the real robot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from bot.messages import t
from bot.prefs.links import read_token
from tests.support.dingtalk_api import FakeDingTalkAPI, Sent
from tests.support.dingtalk_harness import CORP, GROUP, HTTPRobot
from tests.support.llm_server import ScriptedModel
from tests.support.stored import store_unchecked

ALICE, BOB = "staff-alice", "staff-bob"


def tap(robot: HTTPRobot, url: str, *, staff_id: str = ALICE) -> None:
    """What the DingTalk client does for a `dtmd://` button: send its content as the tapper."""
    assert url.startswith("dtmd://dingtalkclient/sendMessage?")
    [content] = parse_qs(urlsplit(url).query)["content"]
    response, _ = robot.send(content, staff_id=staff_id)
    assert response.status_code == 200


def button(sent: Sent, title: str) -> str:
    [url] = [u for name, u in sent.buttons if name == title]
    return url


def test_travel_prefs_shows_the_summary_inert_with_a_forget_button(
    robot: HTTPRobot, scripted_model: ScriptedModel
) -> None:
    namespace = robot.namespace(ALICE)
    robot.core.memory.record(namespace, ["I never take red-eye flights"])
    # The guard refuses links now; this one was kept by an earlier version.
    store_unchecked(robot.core.memory, namespace, ["Hotels: see [my list](http://evil.example)"])
    robot.send("/travel-prefs")
    [card] = robot.answers()
    assert card.kind == "actionCard"
    assert card.title == t("home_title", "en")
    assert "What I remember about you" in card.text and "(2 items)" in card.text
    assert "red-eye" in card.text
    assert "](" not in card.text and "://" not in card.text  # stored text stays text
    # No page link provider yet: only the Forget button.
    assert [name for name, _ in card.buttons] == [t("home_forget_all", "en")]
    assert scripted_model.requests == []  # a command, not a turn of the assistant


def test_the_page_button_shows_when_the_link_provider_gives_a_url(
    make_robot: Callable[..., HTTPRobot], dingtalk: FakeDingTalkAPI
) -> None:
    asked: list[tuple[str, str]] = []

    def page(namespace: str, lang: str) -> str | None:
        asked.append((namespace, lang))
        return f"https://travel.example/prefs?t={namespace}"

    robot = make_robot(preferences_url=page)
    robot.send("我的偏好")
    [card] = robot.answers()
    assert asked == [(robot.namespace(ALICE), "zh")]
    assert card.text == t("prefs_show_empty", "zh")
    assert card.buttons == (
        (t("dingtalk_prefs_edit", "zh"), f"https://travel.example/prefs?t=dingtalk:{CORP}:{ALICE}"),
    )


def test_with_the_web_page_configured_the_button_opens_the_persons_own_page(
    make_robot: Callable[..., HTTPRobot],
) -> None:
    secret = "a-long-enough-secret-for-links"
    robot = make_robot(public_url="https://travel.example", prefs_link_secret=secret)
    robot.send("我的偏好")
    [card] = robot.answers()
    [(label, url)] = card.buttons[:1]
    assert label == t("dingtalk_prefs_edit", "zh")
    assert url.startswith("https://travel.example/prefs?token=")
    claims = read_token(secret, parse_qs(urlsplit(url).query)["token"][0])
    assert claims is not None
    assert (claims.namespace, claims.lang) == (robot.namespace(ALICE), "zh")


def test_forget_all_asks_first_and_only_the_owner_can_confirm_once(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    memory = robot.core.memory
    memory.record(robot.namespace(ALICE), ["I never take red-eye flights", "Aisle seats"])
    memory.record(robot.namespace(BOB), ["Window seats"])
    robot.send("/travel-prefs")
    [card] = robot.answers()

    tap(robot, button(card, t("home_forget_all", "en")))
    [_, prompt] = robot.answers(2)
    assert t("prefs_forget_ask", "en", count=2) in prompt.text
    assert len(memory.items(robot.namespace(ALICE))) == 2  # nothing forgotten yet
    yes = button(prompt, t("prefs_forget_yes", "en"))

    tap(robot, yes, staff_id=BOB)  # someone else's tap (a forwarded card)
    [*_, refused] = robot.answers(3)
    assert refused.text == t("dingtalk_forget_not_yours", "en")
    assert len(memory.items(robot.namespace(ALICE))) == 2

    tap(robot, yes)
    [*_, done] = robot.answers(4)
    assert done.text == t("prefs_forgot_all", "en", count=2)
    assert memory.items(robot.namespace(ALICE)) == []
    assert len(memory.items(robot.namespace(BOB))) == 1

    tap(robot, yes)  # the same "yes" again
    [*_, again] = robot.answers(5)
    assert again.text == t("prefs_forget_expired", "en")


def test_cancel_forgets_nothing_and_answers_in_chinese(robot: HTTPRobot) -> None:
    robot.core.memory.record(robot.namespace(ALICE), ["出差只坐高铁一等座"])
    robot.send("删除我的偏好")
    [prompt] = robot.answers()
    assert t("prefs_forget_ask", "zh", count=1) in prompt.text
    tap(robot, button(prompt, t("prefs_cancel", "zh")))
    [_, cancelled] = robot.answers(2)
    assert cancelled.text == t("prefs_forget_cancelled", "zh")
    assert len(robot.core.memory.items(robot.namespace(ALICE))) == 1


def test_nothing_to_forget_is_said_so(robot: HTTPRobot) -> None:
    robot.send("/travel-prefs forget")
    [answer] = robot.answers()
    assert answer.text == t("prefs_forget_nothing", "en")


def test_in_a_group_preferences_go_to_the_person_privately(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    robot.core.memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    robot.send("/travel-prefs show", group=True)
    sent = robot.answers(2)
    private = next(s for s in sent if s.users == (ALICE,))
    note = next(s for s in sent if s.conversation == GROUP)
    assert private.via == "openapi" and "red-eye" in private.text
    assert private.buttons  # the card, with its buttons, in the one-to-one chat
    assert note.text == t("dingtalk_prefs_private", "en")
    assert "red-eye" not in note.text


def test_a_command_delivered_twice_is_answered_once(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    data: dict[str, Any] = robot.message("/travel-prefs help")
    robot.post(data)
    robot.post(data)
    [answer] = robot.answers()
    assert answer.text == t("dingtalk_prefs_help", "en")
    robot.core.pools.tasks.submit(lambda: None).result(5)
    assert len(dingtalk.sent) == 1
