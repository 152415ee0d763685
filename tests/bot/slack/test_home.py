"""The App Home tab end to end: what is remembered, with edit and forget controls."""

from __future__ import annotations

from collections.abc import Callable

from bot.messages import t
from bot.slack.views import blocks as views
from tests.bot.conftest import BotFactory
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness
from tests.support.slack_payloads import (
    buttons,
    check_limits,
    click,
    is_form,
    open_home,
    published_home,
    settle,
    state_for,
    submit,
    texts,
    told,
    wait_view,
)
from tests.support.stored import store_unchecked

ALICE, BOB = "U0ALICE", "U0BOB"


def test_home_shows_the_summary_each_fact_with_source_and_date_and_what_is_never_stored(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    bot.core.memory.update_profile(ns, {"seat": "aisle"}, source="form")
    bot.core.memory.record(ns, ["Prefers hotels near the office"], source="admin")
    assert open_home(bot, ALICE).status_code == 200

    home = published_home(slack, ALICE)
    check_limits(home)
    assert home["type"] == "home"
    shown = texts(home)
    summary = bot.core.memory.retrieve(ns)
    assert t("home_summary_heading", "en") + "\n" + summary in shown
    assert "I never take red-eye flights\n_from chat_ · <!date^" in shown
    assert "Prefers an aisle seat\n_from the form_ · <!date^" in shown
    assert "Prefers hotels near the office\n_added by a travel admin_ · <!date^" in shown
    assert t("home_never_stores", "en") in shown
    ids = {item.id for item in bot.core.memory.items(ns)}
    assert {b["value"] for b in buttons(home, views.FORGET_ITEM_ACTION_ID)} == ids
    assert buttons(home, views.EDIT_ACTION_ID)


def test_home_speaks_the_persons_language(bot: BotHarness, slack: FakeSlackAPI) -> None:
    slack.add_user(ALICE, locale="zh-TW")
    bot.core.memory.record(bot.namespace(ALICE), ["出差只坐高铁一等座"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    shown = texts(home)
    assert home["blocks"][0]["text"]["text"] == t("home_title", "zh")
    assert "出差只坐高铁一等座\n_来自聊天_" in shown
    assert [b["text"]["text"] for b in buttons(home, views.EDIT_ACTION_ID)] == ["编辑偏好"]


def test_forget_removes_that_fact_only_and_refreshes_home(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    bot.core.memory.record(bot.namespace(BOB), ["I prefer aisle seats"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    quiet = next(i for i in bot.core.memory.items(ns) if i.text == "I like quiet rooms")

    click(bot, ALICE, views.FORGET_ITEM_ACTION_ID, quiet.id, view=home)
    refreshed = published_home(slack, ALICE, count=2)
    assert "I like quiet rooms" not in texts(refreshed)
    assert "I never take red-eye flights" in texts(refreshed)
    assert [i.text for i in bot.core.memory.items(ns)] == ["I never take red-eye flights"]
    # The recall cache forgot it too.
    assert "quiet" not in bot.core.memory.retrieve(ns, "hotel")


def _forget_quiet_rooms(bot: BotHarness, slack: FakeSlackAPI, steer: Callable[[], None]) -> None:
    """Alice forgets one of two facts on her Home tab, `steer` set up before the click."""
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    quiet = next(i for i in bot.core.memory.items(ns) if i.text == "I like quiet rooms")
    steer()
    click(bot, ALICE, views.FORGET_ITEM_ACTION_ID, quiet.id, view=home)
    settle(bot)


def test_a_home_refresh_rate_limited_once_is_published_after_the_wait(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    _forget_quiet_rooms(bot, slack, lambda: slack.rate_limit("views.publish", retry_after=1))
    assert [c.status for c in slack.calls_to("views.publish")] == [200, 429, 200]
    assert "I like quiet rooms" not in texts(published_home(slack, ALICE, count=3))
    assert told(slack, ALICE, count=0) == []


def test_a_home_refresh_slack_refuses_after_forget_tells_the_person_it_is_forgotten(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    _forget_quiet_rooms(bot, slack, lambda: slack.fail("views.publish", "invalid_arguments"))
    assert told(slack, ALICE) == [t("home_forgot_not_refreshed", "en")]
    assert [i.text for i in bot.core.memory.items(bot.namespace(ALICE))] == [
        "I never take red-eye flights"
    ]


def test_a_forget_button_cannot_reach_anyone_elses_memory(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    bob = bot.namespace(BOB)
    bot.core.memory.record(bob, ["I prefer aisle seats"])
    bot.core.memory.record(bot.namespace(ALICE), ["I like quiet rooms"])
    [bobs] = bot.core.memory.items(bob)
    click(bot, ALICE, views.FORGET_ITEM_ACTION_ID, bobs.id)  # a forged payload
    click(bot, ALICE, views.FORGET_ITEM_ACTION_ID, "")  # no id must not mean "everything"
    published_home(slack, ALICE, count=2)
    assert [i.text for i in bot.core.memory.items(bob)] == ["I prefer aisle seats"]
    assert [i.text for i in bot.core.memory.items(bot.namespace(ALICE))] == ["I like quiet rooms"]


def test_forget_everything_on_home_erases_all_and_says_how_many(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    [forget_all] = buttons(home, views.FORGET_ALL_ACTION_ID)
    assert forget_all["confirm"]  # Slack asks before the click reaches the bot

    click(bot, ALICE, views.FORGET_ALL_ACTION_ID, forget_all["value"], view=home)
    assert told(slack, ALICE) == [t("prefs_forgot_all", "en", count=2)]
    assert bot.core.memory.items(ns) == []
    empty = published_home(slack, ALICE, count=2)
    assert t("home_empty", "en") in texts(empty)
    assert not buttons(empty, views.FORGET_ALL_ACTION_ID)


def test_edit_preferences_opens_the_same_form_and_saving_refreshes_home(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)

    click(bot, ALICE, views.EDIT_ACTION_ID, "edit", view=home)
    [opened] = slack.wait_for("views.open")
    assert opened.args["trigger_id"]
    [form] = wait_view(slack, "views.update", is_form)
    check_limits(form)
    view_id = slack.calls_to("views.update")[-1].args["view_id"]
    form = {**form, "id": view_id, "hash": "h1"}

    submit(bot, form, ALICE, state_for(form, {"seat": "window"}))
    [message] = told(slack, ALICE)  # no channel: a DM
    assert slack.calls_to("chat.postMessage")[-1].args["channel"] == ALICE
    assert "Prefers a window seat" in message
    refreshed = published_home(slack, ALICE, count=2)
    assert "Prefers a window seat\n_from the form_" in texts(refreshed)
    assert "I never take red-eye flights" in texts(refreshed)


def test_edit_without_a_trigger_gets_a_clear_answer(bot: BotHarness, slack: FakeSlackAPI) -> None:
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    click(bot, ALICE, views.EDIT_ACTION_ID, "edit", view=home, with_trigger=False)
    assert told(slack, ALICE) == [t("prefs_no_trigger", "en")]
    assert slack.calls_to("views.open") == []


def test_many_facts_page_within_100_blocks(bot: BotHarness, slack: FakeSlackAPI) -> None:
    ns = bot.namespace(ALICE)
    cities = ["Chengdu", "Xi'an", "Harbin", "Lhasa", "Kunming", "Guilin", "Dalian", "Suzhou"]
    things = ["tea houses", "night markets", "museums", "river walks", "hot pot", "temples"]
    facts = [
        f"In {c} I enjoy {s} after work, trip {n}"
        for n, (c, s) in enumerate((c, s) for c in cities for s in things)
    ]
    for start in range(0, len(facts), 20):
        bot.core.memory.record(ns, facts[start : start + 20])
    total = len(bot.core.memory.items(ns))
    assert total > views.HOME_PAGE_SIZE

    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    check_limits(home)
    assert len(buttons(home, views.FORGET_ITEM_ACTION_ID)) == views.HOME_PAGE_SIZE
    assert t("prefs_more", "en", count=total - views.HOME_PAGE_SIZE) in texts(home)
    [older] = buttons(home, views.HOME_OLDER_ACTION_ID)

    click(bot, ALICE, views.HOME_OLDER_ACTION_ID, older["value"], view=home)
    second = published_home(slack, ALICE, count=2)
    check_limits(second)
    assert len(buttons(second, views.FORGET_ITEM_ACTION_ID)) == total - views.HOME_PAGE_SIZE
    assert buttons(second, views.HOME_NEWER_ACTION_ID)


def test_an_unknown_button_on_home_refreshes_it_and_changes_nothing(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I like quiet rooms"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    response = click(bot, ALICE, "travel_prefs.forget_all_v0", "all", view=home)
    assert response.status_code == 200
    published_home(slack, ALICE, count=2)
    assert len(bot.core.memory.items(ns)) == 1


def test_other_tabs_publish_nothing(bot: BotHarness, slack: FakeSlackAPI) -> None:
    bot.event({"type": "app_home_opened", "user": ALICE, "channel": "D0ALICE", "tab": "messages"})
    settle(bot)
    assert slack.calls_to("views.publish") == []


def test_remembered_slack_markup_is_shown_as_text_on_home(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    said = "tell <!channel> and <@U0BOB> about <https://x.example|deals>"
    # The guard refuses links and text addressed to others now; kept by an earlier version.
    store_unchecked(bot.core.memory, ns, [said])
    assert open_home(bot, ALICE).status_code == 200
    shown = texts(published_home(slack, ALICE))
    for markup in ("<!channel>", "<@U0BOB>", "<https://x.example"):
        assert markup not in shown  # nobody is pinged, no link is made
    assert "tell &lt;!channel&gt; and &lt;@U0BOB&gt;" in shown


def test_a_forget_while_memory_is_down_says_nothing_was_erased(
    make_bot: BotFactory, slack: FakeSlackAPI
) -> None:
    """Not "nothing was remembered": after asking to erase, that reads as done."""
    bot = make_bot(memory_dsn="postgresql://postgres@127.0.0.1:1/test?connect_timeout=1")
    click(bot, ALICE, views.FORGET_ITEM_ACTION_ID, "0123abcd0123abcd0123abcd0123abcd")
    settle(bot)
    assert told(slack, ALICE) == [t("memory_forget_failed", "en")]
