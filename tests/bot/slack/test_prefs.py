"""`/travel-prefs` end to end: signed requests to the real app, Block Kit and memory out.

The real Bolt app behind the real HTTP server, real Redis, the real memory engine on a
SQLite file; Slack is the fake Web API server and the model the scripted one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from bot.messages import t
from bot.slack.views import blocks as views
from tests.bot.conftest import BotFactory
from tests.support.llm_server import Delay, ScriptedModel
from tests.support.sentences import ADMIN_ZH, ROW_ZH
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness
from tests.support.slack_payloads import (
    block,
    check_limits,
    click,
    initial,
    open_form,
    open_home,
    published_home,
    response_texts,
    settle,
    state_for,
    submit,
    texts,
    told,
    wait_view,
)
from tests.support.stored import store_unchecked

ALICE, BOB = "U0ALICE", "U0BOB"
LOOKS_OUTSIDE = "I get restless unless I can look outside during flights"


def _slot_items(bot: BotHarness, user: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for item in bot.core.memory.items(bot.namespace(user)):
        found.setdefault(item.slot or "", []).append(f"{item.source}: {item.text}")
    return found


def _mapping(*entries: tuple[str, str, str]) -> Callable[[dict[str, Any]], str]:
    """A model answer mapping facts (found by their text in the prompt) to fields."""

    def answer(request: dict[str, Any]) -> str:
        prompt = request["messages"][0]["content"]
        numbers = {
            line.split(". ", 1)[1]: int(line.split(". ", 1)[0])
            for line in prompt.split("Facts:\n", 1)[1].splitlines()
            if ". " in line
        }
        mappings = [{"fact": numbers[f], "field": s, "value": v} for f, s, v in entries]
        return json.dumps({"mappings": mappings})

    return answer


def _wait_response(slack: FakeSlackAPI, count: int = 1) -> list[str]:
    slack.wait_for("response_url", count=count, timeout=15)
    return response_texts(slack)


# -- opening the form ------------------------------------------------------------------------


def test_the_loading_view_opens_at_once_and_the_form_follows_a_slow_model(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(llm_fast_model="scripted-fast")
    bot.core.memory.record(bot.namespace(ALICE), [LOOKS_OUTSIDE, "I like quiet rooms"])
    answer = _mapping(
        (LOOKS_OUTSIDE, "seat", "window"),
        (LOOKS_OUTSIDE, "seat_colour", "red"),  # no such field
        ("I like quiet rooms", "seat", "bunk"),  # no such option
    )
    scripted_model.script(Delay(2.0, answer))

    started = time.monotonic()
    response = bot.command("/travel-prefs", user=ALICE, trigger_id="12345.trigger")
    assert response.status_code == 200
    [opened] = slack.wait_for("views.open", timeout=1.5)
    assert time.monotonic() - started < 1.5  # well within Slack's three seconds
    assert opened.args["trigger_id"] == "12345.trigger"
    loading = opened.args["view"]
    assert loading["callback_id"] == views.LOADING_CALLBACK_ID
    check_limits(loading)

    [form] = wait_view(slack, "views.update", lambda v: v["callback_id"] == views.FORM_CALLBACK_ID)
    assert time.monotonic() - started >= 2.0  # it waited for the model, not the listener
    check_limits(form)
    update = slack.calls_to("views.update")[-1]
    assert update.args["view_id"] == slack.views[update.args["view_id"]]["id"]
    assert initial(form, "seat") == "window"  # mapped by the model from the chat fact
    seat_hint = block(form, views.slot_block_id("seat"))["hint"]["text"]
    assert t("prefs_suggested_hint", "en") in seat_hint
    listing = texts(form)
    assert "I like quiet rooms" in listing  # not mapped: shown as it was said
    assert LOOKS_OUTSIDE not in listing  # mapped: it is in the form itself
    request = scripted_model.last_request
    assert request["model"] == "scripted-fast"
    assert request["response_format"] == {"type": "json_object"}
    assert LOOKS_OUTSIDE in request["messages"][0]["content"]


def test_the_form_does_not_wait_behind_slow_conversations(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.default = Delay(2.0, "Sorry for the wait.")
    bot = make_bot(agent_workers=2)
    for n in range(6):  # every agent worker busy, more turns queued
        bot.dm(f"U{n:04d}", f"plan trip number {n}")
    slack.wait_for("reactions.add", count=6, timeout=5)
    started = time.monotonic()
    form = open_form(bot, ALICE, timeout=5)
    assert time.monotonic() - started < 1.5
    check_limits(form)


def test_without_a_fast_model_chat_facts_show_read_only_beneath_the_form(
    bot: BotHarness, scripted_model: ScriptedModel
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, [LOOKS_OUTSIDE, "I prefer aisle seats"])
    form = open_form(bot, ALICE)
    assert initial(form, "seat") == "aisle"  # the slot, straight from the profile
    listing = texts(form)
    assert LOOKS_OUTSIDE in listing
    assert t("prefs_readonly_heading", "en") in listing
    assert scripted_model.requests == []  # no model was asked


def test_a_model_that_talks_nonsense_never_breaks_the_form(
    make_bot: BotFactory, scripted_model: ScriptedModel
) -> None:
    bot = make_bot(llm_fast_model="scripted-fast")
    bot.core.memory.record(bot.namespace(ALICE), [LOOKS_OUTSIDE])
    scripted_model.script("Sure! The seat is probably window.")
    form = open_form(bot, ALICE)
    check_limits(form)
    assert initial(form, "seat") is None
    assert LOOKS_OUTSIDE in texts(form)


def test_labels_follow_the_persons_slack_locale(bot: BotHarness, slack: FakeSlackAPI) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    form = open_form(bot, ALICE)
    assert form["title"]["text"] == "出行偏好"
    assert block(form, views.slot_block_id("seat"))["label"]["text"] == "座位"
    again = open_form(bot, ALICE)
    assert again["title"]["text"] == "出行偏好"
    # The second loading view already speaks Chinese; the locale was looked up once.
    assert t("prefs_loading", "en") not in texts(slack.calls_to("views.open")[-1].args["view"])
    assert len(slack.calls_to("users.info")) == 1


def test_the_workspace_default_language_applies_when_slack_does_not_say(
    make_bot: BotFactory, slack: FakeSlackAPI
) -> None:
    bot = make_bot(default_language="zh")
    slack.fail("users.info", "user_not_found", times=5)
    form = open_form(bot, ALICE)
    assert form["title"]["text"] == "出行偏好"


def test_a_command_without_a_trigger_gets_a_clear_answer(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    response = bot.command("/travel-prefs", user=ALICE, trigger_id="")
    assert response.status_code == 200
    assert _wait_response(slack) == [t("prefs_no_trigger", "en")]
    assert slack.calls_to("views.open") == []


def test_an_expired_trigger_gets_a_clear_answer(bot: BotHarness, slack: FakeSlackAPI) -> None:
    slack.fail("views.open", "expired_trigger_id")
    bot.command("/travel-prefs", user=ALICE)
    assert _wait_response(slack) == [t("prefs_open_failed", "en")]


# -- saving ---------------------------------------------------------------------------------


def test_saving_updates_the_profile_records_once_confirms_and_refreshes_home(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    form = open_form(bot, ALICE)
    choices = {"seat": "aisle", "red_eye": "avoid", "preferred_airlines": ["MU"]}
    state = state_for(form, choices, free_text="I like quiet rooms away from the lift")
    response = submit(bot, form, ALICE, state)
    assert response.status_code == 200
    assert response.text == ""  # closes the modal

    [message] = told(slack, ALICE)
    assert t("prefs_saved", "en") in message
    assert "Prefers an aisle seat; avoids red-eye flights; prefers China Eastern (MU)." in message
    assert "Also noted: “I like quiet rooms away from the lift”" in message
    ephemeral = slack.calls_to("chat.postEphemeral")[-1]
    assert ephemeral.args["channel"] == "C0TRAVEL"  # where the command was run

    ns = bot.namespace(ALICE)
    assert bot.core.memory.profile(ns) == {
        "seat": "aisle",
        "red_eye": "avoid",
        "preferred_airlines": ["MU"],
    }
    # One fact per slot, each a sentence in the person's language, source "form"; the
    # whole selection is not stored a second time as free text.
    assert _slot_items(bot, ALICE) == {
        "seat": ["form: Prefers an aisle seat"],
        "red_eye": ["form: Avoids red-eye flights"],
        "preferred_airlines": ["form: Prefers China Eastern (MU)"],
        "": ["form: I like quiet rooms away from the lift"],
    }
    summary = bot.core.memory.retrieve(ns, "plan a trip")
    assert "Avoids red-eye flights" in summary and "aisle seat" in summary

    [home] = wait_view(slack, "views.publish")
    assert "Prefers an aisle seat" in texts(home)


def test_a_chinese_speaker_gets_chinese_facts_and_confirmation(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    form = open_form(bot, ALICE)
    submit(bot, form, ALICE, state_for(form, {"seat": "window", "rail_class": "first_class"}))
    [message] = told(slack, ALICE)
    assert t("prefs_saved", "zh") in message
    assert "偏好靠窗座位" in message
    texts_now = [i.text for i in bot.core.memory.items(bot.namespace(ALICE))]
    assert any("靠窗" in text for text in texts_now)


def test_unticked_options_clear_their_slot_and_new_ones_supersede(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.update_profile(ns, {"seat": "window", "preferred_airlines": ["MU", "CA"]})
    form = open_form(bot, ALICE)
    assert initial(form, "preferred_airlines") == ["CA", "MU"]
    state = state_for(form, {"seat": "aisle", "preferred_airlines": []})
    submit(bot, form, ALICE, state)
    told(slack, ALICE)
    assert bot.core.memory.profile(ns) == {"seat": "aisle"}
    history = bot.core.memory.export(ns)["items"]
    window = [i for i in history if i["slot"] == "seat" and i["value"] == "window"]
    assert window and not window[0]["current"]  # superseded, kept as history


def test_saving_an_untouched_form_changes_nothing(bot: BotHarness, slack: FakeSlackAPI) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I must always have a window seat"])
    before = bot.core.memory.items(ns)
    form = open_form(bot, ALICE)
    submit(bot, form, ALICE, state_for(form))
    [message] = told(slack, ALICE)
    assert t("prefs_unchanged", "en") in message
    assert bot.core.memory.items(ns) == before  # the chat's own words stay


def test_a_double_submission_records_once(bot: BotHarness, slack: FakeSlackAPI) -> None:
    form = open_form(bot, ALICE)
    state = state_for(form, {"seat": "aisle"}, free_text="I like hotels near the metro")
    assert submit(bot, form, ALICE, state).status_code == 200
    assert submit(bot, form, ALICE, state).status_code == 200
    told(slack, ALICE)
    settle(bot)
    assert len(told(slack, ALICE)) == 1
    assert _slot_items(bot, ALICE) == {
        "seat": ["form: Prefers an aisle seat"],
        "": ["form: I like hotels near the metro"],
    }
    assert bot.core.metrics.value("prefs_saves_total", outcome="duplicate") == 1


def test_a_brand_both_preferred_and_avoided_is_refused_inline(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    form = open_form(bot, ALICE)
    state = state_for(
        form,
        {"seat": "aisle", "preferred_hotel_brands": ["hilton"], "avoided_hotel_brands": ["hilton"]},
    )
    response = submit(bot, form, ALICE, state)
    answer = response.json()
    assert answer["response_action"] == "errors"
    assert set(answer["errors"]) == {
        views.slot_block_id("preferred_hotel_brands"),
        views.slot_block_id("avoided_hotel_brands"),
    }
    assert "Hilton" in answer["errors"][views.slot_block_id("avoided_hotel_brands")]
    settle(bot)
    assert bot.core.memory.items(bot.namespace(ALICE)) == []  # not even the seat


def test_free_text_the_privacy_guard_refuses_is_an_inline_error(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    form = open_form(bot, ALICE)
    state = state_for(form, {"seat": "aisle"}, free_text="我的护照号是E12345678，喜欢靠窗")
    answer = submit(bot, form, ALICE, state).json()
    assert answer == {
        "response_action": "errors",
        "errors": {views.FREE_TEXT_BLOCK_ID: t("prefs_privacy_id", "zh")},
    }
    settle(bot)
    assert bot.core.memory.items(bot.namespace(ALICE)) == []


def test_free_text_gets_the_answer_chat_gives_not_the_rules_alone(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    ns = bot.namespace(ALICE)
    # Refused as chat refuses it (the rules alone let it through), inline: the modal stays
    # open with everything typed in it, and nothing is saved.
    form = open_form(bot, ALICE)
    refused = submit(bot, form, ALICE, state_for(form, {"seat": "aisle"}, free_text=ADMIN_ZH))
    assert refused.json() == {
        "response_action": "errors",
        "errors": {views.FREE_TEXT_BLOCK_ID: t("prefs_privacy_instructions", "zh")},
    }
    # A seat row the rules' guess called money: kept, as chat keeps it.
    answer = submit(bot, form, ALICE, state_for(form, {"seat": "aisle"}, free_text=ROW_ZH))
    assert answer.text == ""  # closes the modal
    [message] = told(slack, ALICE)
    assert f"另外记下了：“{ROW_ZH}”" in message
    assert bot.core.memory.profile(ns) == {"seat": "aisle"}
    assert ROW_ZH in {item.text for item in bot.core.memory.items(ns)}


def test_values_outside_the_schema_are_refused_inline(bot: BotHarness) -> None:
    form = open_form(bot, ALICE)
    answer = submit(bot, form, ALICE, state_for(form, {"seat": "cockpit"})).json()
    assert answer["errors"] == {views.slot_block_id("seat"): t("prefs_invalid_option", "en")}
    settle(bot)
    assert bot.core.memory.items(bot.namespace(ALICE)) == []


def test_another_persons_view_changes_nothing(bot: BotHarness, slack: FakeSlackAPI) -> None:
    bot.core.memory.update_profile(bot.namespace(ALICE), {"seat": "window"})
    form = open_form(bot, ALICE)
    answer = submit(bot, form, BOB, state_for(form, {"seat": "aisle"})).json()
    assert answer["response_action"] == "update"
    assert t("prefs_not_yours", "en") in texts(answer["view"])
    # The same form from another workspace is not Alice's either.
    answer = submit(bot, form, ALICE, state_for(form, {"seat": "aisle"}), team="T0OTHER").json()
    assert answer["response_action"] == "update"
    settle(bot)
    assert bot.core.memory.profile(bot.namespace(ALICE)) == {"seat": "window"}
    assert bot.core.memory.items(bot.namespace(BOB)) == []


def test_a_form_naming_another_platform_cannot_write_there(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    form = open_form(bot, ALICE)
    meta = json.loads(form["private_metadata"])
    for platform in ("feishu", "dingtalk", "web"):
        forged = {**form, "private_metadata": json.dumps({**meta, "p": platform})}
        answer = submit(bot, forged, ALICE, state_for(form, {"seat": "aisle"})).json()
        assert answer["response_action"] == "update"
        assert t("prefs_not_yours", "en") in texts(answer["view"])
    settle(bot)
    for namespace in (f"feishu:{bot.team_id}:{ALICE}", f"dingtalk:{bot.team_id}:{ALICE}"):
        assert bot.core.memory.items(namespace) == []
    assert bot.core.memory.items(bot.namespace(ALICE)) == []


def test_a_form_without_its_metadata_changes_nothing(bot: BotHarness) -> None:
    form = open_form(bot, ALICE)
    answer = submit(bot, {**form, "private_metadata": "{}"}, ALICE, state_for(form)).json()
    assert t("prefs_form_outdated", "en") in texts(answer["view"])
    deep = "[" * 2000 + "]" * 2000  # within Slack's 3000 characters, deeper than any JSON
    answer = submit(bot, {**form, "private_metadata": deep}, ALICE, state_for(form)).json()
    assert t("prefs_form_outdated", "en") in texts(answer["view"])
    settle(bot)
    assert bot.core.memory.items(bot.namespace(ALICE)) == []


def test_a_stale_form_keeps_what_was_changed_elsewhere_meanwhile(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.update_profile(ns, {"seat": "aisle"})
    form = open_form(bot, ALICE)  # shows "aisle"
    bot.core.memory.record(ns, ["Actually I prefer window seats now"])  # said in chat meanwhile
    submit(bot, form, ALICE, state_for(form, {"red_eye": "avoid"}))  # seat left as shown
    [message] = told(slack, ALICE)
    assert t("prefs_kept_newer", "en", slots="Seat") in message
    assert bot.core.memory.profile(ns) == {"seat": "window", "red_eye": "avoid"}


def test_a_stale_form_that_now_clashes_saves_nothing_and_says_why(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    form = open_form(bot, ALICE)
    bot.core.memory.update_profile(ns, {"avoided_airlines": ["MU"]})  # elsewhere, meanwhile
    submit(bot, form, ALICE, state_for(form, {"preferred_airlines": ["MU"], "seat": "aisle"}))
    [message] = told(slack, ALICE)
    assert "China Eastern (MU)" in message and "/travel-prefs" in message
    assert bot.core.memory.profile(ns) == {"avoided_airlines": ["MU"]}
    # Nothing was recorded, so the same view can be sent again once fixed.
    fixed = state_for(form, {"preferred_airlines": ["CA"], "seat": "aisle"})
    submit(bot, form, ALICE, fixed)
    told(slack, ALICE, count=2)
    assert bot.core.memory.profile(ns)["preferred_airlines"] == ["CA"]


# -- subcommands -----------------------------------------------------------------------------


def test_show_help_and_unknown_subcommands(bot: BotHarness, slack: FakeSlackAPI) -> None:
    bot.command("/travel-prefs", "show", user=ALICE)
    assert _wait_response(slack) == [t("prefs_show_empty", "en")]
    bot.core.memory.record(bot.namespace(ALICE), ["I never take red-eye flights"])
    bot.command("/travel-prefs", "SHOW", user=ALICE)
    shown = _wait_response(slack, 2)[-1]
    assert "(1 items)" in shown and "I never take red-eye flights" in shown
    bot.command("/travel-prefs", "help", user=ALICE)
    bot.command("/travel-prefs", "teleport me", user=ALICE)
    assert _wait_response(slack, 4)[-2:] == [t("prefs_help", "en")] * 2
    assert all(c.args.get("response_type") == "ephemeral" for c in slack.response_calls)
    assert slack.calls_to("views.open") == []


def test_show_renders_remembered_slack_markup_inert(bot: BotHarness, slack: FakeSlackAPI) -> None:
    # The guard refuses links and text addressed to others now; kept by an earlier version.
    store_unchecked(
        bot.core.memory,
        bot.namespace(ALICE),
        ["tell <!channel> and <@U0BOB> about <https://x.example|deals>"],
    )
    bot.command("/travel-prefs", "show", user=ALICE)
    (shown,) = _wait_response(slack)
    assert "<!channel>" not in shown and "<@U0BOB>" not in shown and "<https" not in shown
    assert "&lt;!channel&gt;" in shown


def test_forget_asks_first_then_erases_everything_and_says_how_much(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    bot.core.memory.record(bot.namespace(BOB), ["I prefer aisle seats"])
    bot.command("/travel-prefs", "forget", user=ALICE)
    [question] = slack.wait_for("response_url")
    assert question.args["text"] == t("prefs_forget_ask", "en", count=2)
    buttons = question.args["blocks"][1]["elements"]
    assert [b["action_id"] for b in buttons] == [
        views.FORGET_ALL_CONFIRM_ACTION_ID,
        views.FORGET_ALL_CANCEL_ACTION_ID,
    ]
    assert len(bot.core.memory.items(ns)) == 2  # nothing yet

    url = slack.response_url("forget")
    click(bot, ALICE, views.FORGET_ALL_CANCEL_ACTION_ID, ALICE, response_url=url)
    assert _wait_response(slack, 2)[-1] == t("prefs_forget_cancelled", "en")
    assert len(bot.core.memory.items(ns)) == 2

    # Someone else's "yes" (a forged payload) erases nothing.
    click(bot, BOB, views.FORGET_ALL_CONFIRM_ACTION_ID, ALICE, response_url=url)
    assert _wait_response(slack, 3)[-1] == t("prefs_not_yours", "en")
    assert len(bot.core.memory.items(ns)) == 2

    click(bot, ALICE, views.FORGET_ALL_CONFIRM_ACTION_ID, ALICE, response_url=url)
    done = slack.wait_for("response_url", count=4)[-1]
    assert done.args["text"] == t("prefs_forgot_all", "en", count=2)
    assert done.args["replace_original"] in (True, "true")
    assert bot.core.memory.items(ns) == []
    assert [i.text for i in bot.core.memory.items(bot.namespace(BOB))] == ["I prefer aisle seats"]
    [home] = wait_view(slack, "views.publish")
    assert t("home_empty", "en") in texts(home)


def test_an_unknown_action_id_gets_a_clear_answer(bot: BotHarness, slack: FakeSlackAPI) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights"])
    url = slack.response_url()
    response = click(bot, ALICE, "travel_prefs.teleport", "everything", response_url=url)
    assert response.status_code == 200
    assert _wait_response(slack) == [t("prefs_unknown_action", "en")]
    assert len(bot.core.memory.items(ns)) == 1


def test_an_unknown_action_inside_the_form_is_answered_on_top_of_it(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    form = open_form(bot, ALICE)
    updates = len(slack.calls_to("views.update"))
    click(bot, ALICE, "travel_prefs.slot_value_v0", "window", view=form)
    [pushed] = wait_view(slack, "views.push")
    assert t("prefs_unknown_action", "en") in texts(pushed)
    settle(bot)
    assert len(slack.calls_to("views.update")) == updates  # the form itself is untouched
    assert bot.core.memory.items(bot.namespace(ALICE)) == []


# -- chat and form write the same memory -------------------------------------------------------


def _record(*facts: str) -> list[tuple[str, dict[str, Any]]]:
    return [("record_to_memory", {"thinking": "a travel preference", "content": list(facts)})]


def test_a_preference_said_in_chat_shows_in_the_form_and_on_home(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(_record("I never take red-eye flights"), "Noted: no red-eyes.")
    sent = bot.dm(ALICE, "I never take red-eye flights")
    assert "no red-eyes" in bot.reply_text(sent)

    form = open_form(bot, ALICE)
    assert initial(form, "red_eye") == "avoid"
    open_home(bot, ALICE)
    shown = texts(published_home(slack, ALICE))
    assert "I never take red-eye flights\n_from chat_" in shown


def test_a_preference_ticked_in_the_form_is_what_the_agent_recalls_next(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    form = open_form(bot, ALICE)
    submit(bot, form, ALICE, state_for(form, {"seat": "aisle", "rail_class": "first_class"}))
    told(slack, ALICE)

    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["train", "Chengdu"]})],
        "Booked you a first-class seat to Chengdu.",
    )
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    assert "first-class" in bot.reply_text(sent)
    results = [
        str(m.get("content"))
        for m in scripted_model.last_request["messages"]
        if m.get("role") == "tool"
    ]
    assert any("aisle seat" in r and "first-class seats on trains" in r for r in results)


def test_scoped_preferences_sit_beside_the_general_one_in_the_form_and_on_home(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I prefer aisle seats", "On trains I like a window seat"])
    form = open_form(bot, ALICE)
    assert initial(form, "seat") == "aisle"  # the form edits the general value
    seat_hint = block(form, views.slot_block_id("seat"))["hint"]["text"]
    assert "Only for some trips" in seat_hint and "trains: Window" in seat_hint

    submit(bot, form, ALICE, state_for(form, {"seat": "window"}))
    told(slack, ALICE)
    texts_now = {i.text for i in bot.core.memory.items(ns)}
    assert texts_now == {"Prefers a window seat", "On trains I like a window seat"}

    open_home(bot, ALICE)
    shown = texts(published_home(slack, ALICE))
    assert "On trains I like a window seat\n_from chat_" in shown
    assert "only for: trains" in shown


def test_a_note_completing_a_stored_number_is_an_inline_error(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    [kept] = bot.core.memory.record(ns, ["my number starts with 138 00"])
    assert kept.status == "added"
    form = open_form(bot, ALICE)
    state = state_for(form, {"seat": "aisle"}, free_text="it ends with 138000")
    answer = submit(bot, form, ALICE, state).json()
    assert answer == {
        "response_action": "errors",
        "errors": {views.FREE_TEXT_BLOCK_ID: t("prefs_privacy_phone", "en")},
    }
    settle(bot)
    assert bot.core.memory.profile(ns) == {}
