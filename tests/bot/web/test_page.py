"""The page itself, driven as a browser without JavaScript drives it: plain GETs and form
POSTs. The same memory as chat: what one writes, the other shows at once."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import Any

from bot.messages import t
from bot.prefs.links import issue_token
from tests.bot.conftest import BotFactory
from tests.bot.web.conftest import ALICE, BOB, SECRET, PrefsBot, start_prefs_bot
from tests.support.llm_server import ScriptedModel
from tests.support.sentences import ADMIN_ZH, FLOOR_EN


def _csrf(page: str) -> str:
    match = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page)
    assert match
    return match.group(1)


def _base(page: str) -> str:
    match = re.search(r'name="base" value="([^"]*)"', page)
    assert match
    return match.group(1).replace("&#34;", '"')


def _checked(page: str) -> dict[str, list[str]]:
    """The choices the page shows ticked, by slot."""
    found: dict[str, list[str]] = {}
    for name, value in re.findall(r'name="slot\.([a-z_]+)" value="([^"]*)" checked', page):
        found.setdefault(name, []).append(value)
    return found


def _form(page: str, **slots: Any) -> dict[str, Any]:
    """What the browser sends: every ticked choice as shown, with `slots` changed."""
    data: dict[str, Any] = {"csrf_token": _csrf(page), "base": _base(page), "note": ""}
    shown = _checked(page)
    for slot, values in shown.items():
        data[f"slot.{slot}"] = values
    for slot, value in slots.items():
        data[f"slot.{slot}"] = value
    return data


def test_the_page_shows_every_slot_prefilled_scoped_values_and_each_fact(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.record(
        ns, ["I prefer aisle seats", "On trains I like a window seat", "I like quiet rooms"]
    )
    page = prefs_bot.signed_in(lang="en").get("/prefs").text
    assert '<html lang="en">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    schema = prefs_bot.memory.schema
    for slot in schema.slots:  # one fieldset per slot, named by its legend
        assert f'<fieldset id="field-{slot.id}"' in page
        assert f"<legend>{slot.label('en')}</legend>" in page
    assert _checked(page)["seat"] == ["aisle"]
    assert _checked(page)["transport_mode"] == [""]  # "No preference"
    assert "Only for some trips (say so in chat to change them): trains: Window" in page
    assert '<label for="note">Anything else?</label>' in page
    for item in prefs_bot.memory.items(ns):
        assert f'<input type="hidden" name="id" value="{item.id}">' in page
    assert "I like quiet rooms" in page and "only for: trains" in page
    assert "What I remember (3)" in page
    assert prefs_bot.memory.retrieve(ns) in page


def test_the_page_speaks_chinese_from_the_link_the_browser_or_the_switch(
    prefs_bot: PrefsBot,
) -> None:
    prefs_bot.memory.record(prefs_bot.namespace(), ["出差只坐高铁一等座"])
    page = prefs_bot.signed_in(lang="zh").get("/prefs").text
    assert '<html lang="zh-CN">' in page
    assert "<legend>高铁座席</legend>" in page and t("prefs_save", "zh") in page
    assert _checked(page)["rail_class"] == ["first_class"]

    browser = prefs_bot.client(headers={"Accept-Language": "fr;q=1, zh-TW;q=0.8, en;q=0.5"})
    browser.get(prefs_bot.link(), follow_redirects=True)  # a link that names no language
    assert '<html lang="zh-CN">' in browser.get("/prefs").text

    switched = browser.get("/prefs", params={"lang": "en"})
    assert '<html lang="en">' in switched.text and "set-cookie" in switched.headers
    assert '<html lang="en">' in browser.get("/prefs").text  # the session remembers it


def test_saving_the_form_without_javascript_writes_memory_and_shows_the_result(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.record(ns, ["I prefer aisle seats"])
    browser = prefs_bot.signed_in()
    page = browser.get("/prefs").text
    form = _form(page, seat="window", cabin_class="business")
    form["slot.preferred_airlines"] = ["MU", "CA"]
    form["note"] = "A quiet room away from the lift"
    response = browser.post("/prefs", data=form)
    assert response.status_code == 200
    assert t("prefs_saved", "en") in response.text
    assert "Also noted: “A quiet room away from the lift”" in response.text
    assert 'role="status"' in response.text
    profile = prefs_bot.memory.profile(ns)
    assert profile["seat"] == "window" and profile["cabin_class"] == "business"
    assert sorted(profile["preferred_airlines"]) == ["CA", "MU"]
    assert _checked(response.text)["seat"] == ["window"]  # the page shows the new state
    assert "A quiet room away from the lift" in prefs_bot.memory.retrieve(ns)


def test_a_change_made_in_chat_while_the_page_was_open_is_kept(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    browser = prefs_bot.signed_in()
    page = browser.get("/prefs").text
    prefs_bot.memory.record(ns, ["I never take red-eye flights"])  # said in chat meanwhile
    response = browser.post("/prefs", data=_form(page, seat="aisle"))
    assert response.status_code == 200
    assert prefs_bot.memory.profile(ns) == {"seat": "aisle", "red_eye": "avoid"}
    assert "Red-eye flights" in response.text and "kept the newer choice" in response.text


def test_mistakes_come_back_beside_their_fields_with_what_was_typed(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    browser = prefs_bot.signed_in()
    page = browser.get("/prefs").text
    form = _form(page, preferred_airlines=["MU"], avoided_airlines=["MU"], seat="cockpit")
    form["note"] = "Prefer hotels near the office"
    response = browser.post("/prefs", data=form)
    assert response.status_code == 400
    text = response.text
    assert 'role="alert"' in text and t("page_errors", "en") in text
    assert 'href="#field-preferred_airlines"' in text and 'href="#field-avoided_airlines"' in text
    assert 'id="error-seat"' in text and t("prefs_invalid_option", "en") in text
    assert 'aria-describedby="help-seat error-seat"' in text
    assert ">Prefer hotels near the office</textarea>" in text  # nothing typed is lost
    assert _checked(text)["avoided_airlines"] == ["MU"]
    assert prefs_bot.memory.items(ns) == []


def test_a_note_chat_refuses_comes_back_with_chats_reason_and_nothing_lost(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    browser = prefs_bot.signed_in(lang="zh")
    form = _form(browser.get("/prefs").text, seat="aisle")
    form["note"] = ADMIN_ZH
    response = browser.post("/prefs", data=form)
    assert response.status_code == 400
    text = response.text
    assert 'id="error-note"' in text and t("prefs_privacy_instructions", "zh") in text
    assert f">{ADMIN_ZH}</textarea>" in text  # what was typed is all still there
    assert _checked(text)["seat"] == ["aisle"]
    assert prefs_bot.memory.items(ns) == []
    # Fixed, the same form saves; a floor the rules' guess called money is kept, as in chat.
    form = _form(text)
    form["note"] = FLOOR_EN
    saved = browser.post("/prefs", data=form)
    assert saved.status_code == 200
    assert f"另外记下了：“{FLOOR_EN}”" in saved.text
    assert prefs_bot.memory.profile(ns) == {"seat": "aisle"}


def test_forget_removes_one_fact_from_memory_and_the_page(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.record(ns, ["I like quiet rooms", "I prefer aisle seats"])
    quiet = next(i for i in prefs_bot.memory.items(ns) if i.text == "I like quiet rooms")
    browser = prefs_bot.signed_in()
    csrf = _csrf(browser.get("/prefs").text)
    response = browser.post("/prefs/forget", data={"csrf_token": csrf, "id": quiet.id})
    assert response.status_code == 200
    assert "Forgot “I like quiet rooms”." in response.text
    assert f'value="{quiet.id}"' not in response.text
    assert [i.text for i in prefs_bot.memory.items(ns)] == ["I prefer aisle seats"]
    again = browser.post("/prefs/forget", data={"csrf_token": csrf, "id": quiet.id})
    assert t("page_forgot_gone", "en") in again.text
    assert browser.post("/prefs/forget", data={"csrf_token": csrf, "id": ""}).status_code == 400
    assert len(prefs_bot.memory.items(ns)) == 1


def test_chat_and_page_share_one_memory(prefs_bot: PrefsBot, scripted_model: ScriptedModel) -> None:
    harness = prefs_bot.harness
    browser = prefs_bot.signed_in()
    assert _checked(browser.get("/prefs").text)["red_eye"] == [""]

    record = [
        (
            "record_to_memory",
            {"thinking": "a preference", "content": ["I never take red-eye flights"]},
        )
    ]
    scripted_model.script(record, "Noted.")
    harness.reply_text(harness.dm(ALICE, "I never take red-eye flights"))
    page = browser.get("/prefs").text
    assert _checked(page)["red_eye"] == ["avoid"]  # said in chat, on the page at once

    browser.post("/prefs", data=_form(page, rail_class="first_class"))
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["train", "Chengdu"]})], "Planned."
    )
    harness.reply_text(harness.dm(ALICE, "plan my trip to Chengdu"))
    recalled = [
        str(m.get("content"))
        for m in scripted_model.last_request["messages"]
        if m.get("role") == "tool"
    ]
    assert any("first-class seats on trains" in r and "red-eye" in r for r in recalled)


def test_a_link_opened_from_another_site_gets_its_cookie_on_a_second_navigation(
    prefs_bot: PrefsBot,
) -> None:
    """SameSite=Strict cookies are not sent along a redirect that began on another site (a
    chat app): `/prefs` then opens itself once more, from its own page."""
    cross = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    browser = prefs_bot.client()
    response = browser.get("/prefs", headers=cross)
    assert response.status_code == 200
    assert '<meta http-equiv="refresh" content="0; url=/prefs?continue=1">' in response.text
    # Coming back (now same-site) without a session is refused as usual: no loop.
    assert browser.get("/prefs?continue=1", headers=cross).status_code == 401
    assert browser.get("/prefs", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 401


def test_the_stylesheet_and_script_are_served_for_long_caching(prefs_bot: PrefsBot) -> None:
    page = prefs_bot.signed_in().get("/prefs").text
    [css] = re.findall(r'href="(/prefs/static/prefs\.css\?v=[0-9a-f]+)"', page)
    [js] = re.findall(r'src="(/prefs/static/prefs\.js\?v=[0-9a-f]+)"', page)
    client = prefs_bot.client()
    for url, kind in ((css, "text/css"), (js, "text/javascript")):
        response = client.get(url)
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
        assert response.headers["cache-control"] == "public, max-age=86400"


def test_suggestions_from_chat_are_shown_saved_with_the_form_and_asked_for_once(
    make_bot: BotFactory, scripted_model: ScriptedModel
) -> None:
    bot = start_prefs_bot(make_bot, llm_fast_model="scripted-fast")
    try:
        ns = bot.namespace()
        bot.memory.record(ns, ["I always want to look outside when I fly"])
        mapping = {"mappings": [{"fact": 1, "field": "seat", "value": "window"}]}
        scripted_model.script(json.dumps(mapping))
        browser = bot.client()
        page = browser.get(bot.link(), follow_redirects=True).text
        assert _checked(page)["seat"] == ["window"]
        assert t("prefs_suggested_hint", "en") in page
        saved = browser.post("/prefs", data=_form(page))
        assert saved.status_code == 200
        assert bot.memory.profile(ns)["seat"] == "window"  # accepted by saving as shown
        assert len(scripted_model.requests) == 1  # the answer did not wait for the model
    finally:
        bot.close()


def test_a_used_link_says_where_this_deployment_gives_a_new_one(make_bot: BotFactory) -> None:
    """Slack alone: "in Slack"; Feishu beside it, for a link of a person on neither (a
    DingTalk person's, from before DingTalk was turned off): both; never a platform it does
    not serve."""
    feishu = {"feishu_app_id": "cli_a1", "feishu_app_secret": "feishu-secret"}
    for extra, wanted, unwanted in (
        ({}, ["in Slack: /travel-prefs link"], ["Feishu", "DingTalk"]),
        (feishu, ["in Slack: /travel-prefs link", "in Feishu: send /travel-prefs"], ["DingTalk"]),
    ):
        bot = start_prefs_bot(make_bot, **extra)
        try:
            link = bot.link() if not extra else _link(bot, "dingtalk:corp1:staff1")
            assert bot.client().get(link, follow_redirects=True).status_code == 200
            used = bot.client().get(link)
            assert used.status_code == 401
            for words in wanted:
                assert words in used.text
            for words in unwanted:
                assert words not in used.text
            # In Chinese too, for a browser that asks for it.
            zh = bot.client(headers={"Accept-Language": "zh-CN"}).get(link)
            assert "在 Slack 中输入 /travel-prefs link" in zh.text
        finally:
            bot.close()


def _link(bot: PrefsBot, namespace: str, **kwargs: Any) -> str:
    return f"/prefs?token={issue_token(SECRET, namespace, ttl_seconds=900, **kwargs)}"


def test_a_used_link_names_the_platform_of_the_person_it_was_for(make_bot: BotFactory) -> None:
    """Issue 26: a Feishu person whose link is spent is told how to get one in Feishu, not
    in Slack too; a console person, the command line. A forged or expired link of the same
    person gets the very same page (the words depend only on whose link it says it is)."""
    served = {"feishu_app_id": "cli_a1", "feishu_app_secret": "feishu-secret"}
    bot = start_prefs_bot(make_bot, **served)
    slack, feishu = "in Slack: /travel-prefs link", "in Feishu: send /travel-prefs"
    local = "travel-bot prefs link --user NS"
    try:
        for namespace, wanted in (
            (bot.namespace(), slack),
            ("feishu:tenant1:ou_1", feishu),
            ("local:you", local),
        ):
            link = _link(bot, namespace)
            assert bot.client().get(link, follow_redirects=True).status_code == 200
            spent = bot.client().get(link)
            assert spent.status_code == 401
            for words in (slack, feishu, local):
                assert (words in spent.text) == (words == wanted), (namespace, words)
            forged = bot.client().get(link[:-6] + ("AAAAAA" if link[-6:] != "AAAAAA" else "BBBBBB"))
            expired = bot.client().get(_link(bot, namespace, now=0))
            for refused in (forged, expired):
                assert refused.status_code == 401
                assert refused.text == spent.text
        zh = bot.client(headers={"Accept-Language": "zh-CN"}).get(_link(bot, "feishu:t:ou", now=0))
        assert "在飞书中发送" in zh.text and "Slack" not in zh.text
        # The console's own command makes one too, the way a console person knows.
        console = bot.client().get(_link(bot, "local:you", now=0))
        assert "in the terminal console (/travel-prefs link)" in console.text
    finally:
        bot.close()


def test_the_page_lists_coming_trips_with_their_approval_state(prefs_bot: PrefsBot) -> None:
    trips = prefs_bot.harness.core.trips
    assert trips is not None
    soon = date.today() + timedelta(days=10)
    trip, _ = trips.add(prefs_bot.namespace(), "Chengdu", soon, None, "Shanghai", created_by="x")
    trips.add(prefs_bot.namespace(), "Xi'an", date.today() - timedelta(days=30), created_by="x")
    later = soon + timedelta(days=5)
    typed = ("成都", "上海")  # as `trips add --destination 成都 --origin 上海` saves it
    trips.add(
        prefs_bot.namespace(), "Chengdu", later, None, "Shanghai", created_by="x", as_typed=typed
    )
    with trips.backend.transaction() as cur:
        trips.set_state(cur, trip.id, "pending")
    page = prefs_bot.signed_in(lang="en").get("/prefs").text
    assert '<h2 id="trips-heading">Your trips</h2>' in page
    assert f"Shanghai → Chengdu, {soon.isoformat()} · waiting for approval" in page
    assert f"上海 → 成都, {later.isoformat()}" in page  # the traveller's words, not the key
    assert "Xi&#39;an" not in page and "Xi'an" not in page  # over: not listed
    other = prefs_bot.signed_in(user=BOB, lang="zh").get("/prefs").text
    assert "Chengdu" not in other and "你的行程" not in other  # nobody else's trips
