"""`/api/preferences`: the same memory and rules as chat and the Slack modal, as JSON."""

from __future__ import annotations

import html
import json
import time
from typing import Any

import httpx

from bot.messages import t
from tests.bot.conftest import BotFactory
from tests.bot.web.conftest import ALICE, BOB, PrefsBot, start_prefs_bot
from tests.support.llm_server import ScriptedModel
from tests.support.sentences import HANDS_OVER, ROW_ZH
from tests.support.services import free_port

API = "/api/preferences"


def _post(client: httpx.Client, body: Any, **headers: str) -> httpx.Response:
    return client.post(
        API, content=json.dumps(body), headers={"Content-Type": "application/json", **headers}
    )


def test_get_answers_every_slot_the_facts_the_summary_and_the_schema(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    memory = prefs_bot.memory
    memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    memory.update_profile(ns, {"preferred_airlines": ["MU", "CA"]}, source="form")

    response = prefs_bot.api(prefs_bot.token()).get(API)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    schema_slots = [slot.id for slot in memory.schema.slots]
    assert list(body["slots"]) == schema_slots
    assert body["slots"]["red_eye"] == "avoid"
    assert body["slots"]["preferred_airlines"] == ["CA", "MU"]
    assert body["slots"]["seat"] is None
    by_text = {f["text"]: f for f in body["facts"]}
    assert set(by_text) == {i.text for i in memory.items(ns)}
    quiet = by_text["I like quiet rooms"]
    assert quiet["slot"] is None and quiet["source"] == "chat"
    assert quiet["created_at"].startswith("20") and quiet["id"]
    assert by_text["I never take red-eye flights"]["slot"] == "red_eye"
    assert body["summary"] == memory.retrieve(ns)
    seat = next(s for s in body["schema"]["slots"] if s["id"] == "seat")
    assert seat["kind"] == "single" and seat["label"] == {"en": "Seat", "zh": "座位"}
    assert [o["id"] for o in seat["options"]] == ["window", "aisle"]
    assert body["schema"]["note"]["max_chars"] == 500


def test_chat_facts_fill_empty_slots_through_the_fast_model(
    make_bot: BotFactory, scripted_model: ScriptedModel
) -> None:
    bot = start_prefs_bot(make_bot, llm_fast_model="scripted-fast")
    try:
        ns = bot.namespace()
        bot.memory.record(ns, ["I always want to look outside when I fly"])
        scripted_model.script(
            json.dumps({"mappings": [{"fact": 1, "field": "seat", "value": "window"}]})
        )
        body = bot.api(bot.token()).get(API).json()
        assert body["slots"]["seat"] == "window"
        assert body["suggested"] == ["seat"]
        assert scripted_model.last_request["model"] == "scripted-fast"
        assert bot.memory.profile(ns).get("seat") is None  # a suggestion, not yet saved
    finally:
        bot.close()


def test_a_save_goes_through_the_modal_rules_and_chat_recalls_it_at_once(
    prefs_bot: PrefsBot,
) -> None:
    ns, memory = prefs_bot.namespace(), prefs_bot.memory
    memory.record(ns, ["I prefer aisle seats"])
    assert "aisle" in memory.retrieve(ns)  # cached now

    body = {
        "slots": {"seat": "window", "cabin_class": "economy"},
        "note": "A quiet room away from the lift",
    }
    response = _post(prefs_bot.api(prefs_bot.token()), body)
    assert response.status_code == 200, response.text
    saved = response.json()
    assert saved["ok"] is True and saved["status"] == "saved"
    outcomes = {(o["field"], o["status"]) for o in saved["outcomes"]}
    assert outcomes == {("seat", "updated"), ("cabin_class", "added"), ("note", "added")}
    assert saved["slots"]["seat"] == "window" and saved["slots"]["cabin_class"] == "economy"

    assert memory.profile(ns)["seat"] == "window"
    summary = memory.retrieve(ns)  # a stale cache entry would still say "aisle"
    assert "window" in summary and "aisle" not in summary and "quiet room" in summary
    sources = {i.text: i.source for i in memory.items(ns)}
    assert sources["A quiet room away from the lift"] == "form"


def test_the_same_values_again_change_nothing(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.update_profile(ns, {"seat": "aisle"})
    before = [i.id for i in prefs_bot.memory.items(ns)]
    response = _post(prefs_bot.api(prefs_bot.token()), {"slots": {"seat": "aisle"}})
    assert response.status_code == 200
    assert response.json()["status"] == "unchanged"
    assert [i.id for i in prefs_bot.memory.items(ns)] == before


def test_null_clears_a_slot_and_a_slot_left_out_is_left_alone(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.update_profile(ns, {"seat": "aisle", "breakfast": "required"})
    response = _post(prefs_bot.api(prefs_bot.token()), {"slots": {"seat": None}})
    assert response.status_code == 200
    assert prefs_bot.memory.profile(ns) == {"breakfast": "required"}


def test_an_option_both_preferred_and_avoided_is_refused_per_field(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    body = {"slots": {"preferred_airlines": ["MU"], "avoided_airlines": ["MU", "CA"]}}
    response = _post(prefs_bot.api(prefs_bot.token()), body)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"preferred_airlines", "avoided_airlines"}
    assert "China Eastern" in errors["preferred_airlines"]
    assert prefs_bot.memory.items(ns) == []


def test_a_choice_clashing_with_the_profile_now_is_refused_and_nothing_saved(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.update_profile(ns, {"avoided_airlines": ["MU"]})
    before = prefs_bot.memory.profile(ns)
    body = {"slots": {"preferred_airlines": ["MU"]}, "note": "Aisle near the front"}
    response = _post(prefs_bot.api(prefs_bot.token()), body)
    assert response.status_code == 409
    answer = response.json()
    assert answer["error"] == "conflict"
    assert set(answer["errors"]) == {"preferred_airlines", "avoided_airlines"}
    assert prefs_bot.memory.profile(ns) == before
    assert len(prefs_bot.memory.items(ns)) == 1  # the note was not kept either


def test_the_privacy_guard_refuses_the_note_in_the_persons_language(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    client = prefs_bot.api(prefs_bot.token(lang="zh"))
    response = _post(client, {"slots": {"seat": "aisle"}, "note": "有事打我电话 13812345678"})
    assert response.status_code == 400
    assert response.json()["errors"] == {"note": t("prefs_privacy_phone", "zh")}
    assert prefs_bot.memory.items(ns) == []


def test_a_note_chat_keeps_is_kept_though_the_rules_guess_its_number_is_money(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    client = prefs_bot.api(prefs_bot.token(lang="zh"))
    response = _post(client, {"slots": {"seat": "window"}, "note": ROW_ZH})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "saved"
    assert "另外记下了：“我坐飞机喜欢靠前，最好在10以内”" in body["message"]
    assert ROW_ZH in {item.text for item in prefs_bot.memory.items(ns)}
    # Chat keeps the same sentence: the same answer everywhere.
    [said] = prefs_bot.memory.record(prefs_bot.namespace(BOB), [ROW_ZH])
    assert said.status == "added"


def test_a_note_only_the_learned_layer_refuses_is_refused_as_chat_refuses_it(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    response = _post(
        prefs_bot.api(prefs_bot.token()), {"slots": {"seat": "aisle"}, "note": HANDS_OVER}
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"note": t("prefs_privacy_instructions", "en")}
    assert prefs_bot.memory.items(ns) == []  # nothing saved, the seat neither
    [said] = prefs_bot.memory.record(prefs_bot.namespace(BOB), [HANDS_OVER])
    assert (said.status, said.code) == ("rejected", "instructions")


def test_a_note_that_completes_a_stored_number_is_refused_before_anything_is_saved(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    [kept] = prefs_bot.memory.record(ns, ["my number starts with 138 00"])
    assert kept.status == "added"  # a piece alone says nothing
    body = {"slots": {"seat": "aisle"}, "note": "it ends with 138000"}
    response = _post(prefs_bot.api(prefs_bot.token()), body)
    assert response.status_code == 400  # as chat would refuse it, with the same words
    assert response.json()["errors"] == {"note": t("prefs_privacy_phone", "en")}
    assert prefs_bot.memory.profile(ns) == {}  # the seat is not saved without its note


def test_unknown_fields_options_and_shapes_are_errors_by_field(prefs_bot: PrefsBot) -> None:
    client = prefs_bot.api(prefs_bot.token())
    response = _post(
        client, {"slots": {"seat": "cockpit", "cabin_class": ["economy"], "pets": "dog"}, "note": 5}
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"pets", "note"}  # shapes first, before any option is checked
    response = _post(client, {"slots": {"seat": "cockpit", "cabin_class": ["economy"]}})
    assert set(response.json()["errors"]) == {"seat", "cabin_class"}
    assert response.json()["errors"]["seat"] == t("prefs_invalid_option", "en")
    assert _post(client, {"slots": ["seat"]}).json()["errors"] == {
        "slots": t("api_not_object", "en")
    }
    assert prefs_bot.memory.items(prefs_bot.namespace()) == []


def test_delete_forgets_ones_own_fact_and_nobody_elses(prefs_bot: PrefsBot) -> None:
    memory = prefs_bot.memory
    memory.record(prefs_bot.namespace(ALICE), ["I like quiet rooms", "I prefer aisle seats"])
    memory.record(prefs_bot.namespace(BOB), ["I never take red-eye flights"])
    quiet = next(
        i for i in memory.items(prefs_bot.namespace(ALICE)) if i.text == "I like quiet rooms"
    )
    [bobs] = memory.items(prefs_bot.namespace(BOB))
    alice = prefs_bot.api(prefs_bot.token(ALICE))

    response = alice.delete(f"{API}/facts/{bobs.id}")
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert [i.id for i in memory.items(prefs_bot.namespace(BOB))] == [bobs.id]

    response = alice.delete(f"{API}/facts/{quiet.id}")
    assert response.status_code == 200 and response.json()["forgotten"] == 1
    assert [i.text for i in memory.items(prefs_bot.namespace(ALICE))] == ["I prefer aisle seats"]
    assert "quiet" not in memory.retrieve(prefs_bot.namespace(ALICE))
    assert alice.delete(f"{API}/facts/{quiet.id}").status_code == 404  # already gone
    assert alice.delete(f"{API}/facts/..%2F").status_code == 404
    assert alice.delete(f"{API}/facts/").status_code == 404  # never "forget everything"
    assert alice.get(f"{API}/facts/{quiet.id}").status_code == 405
    assert len(memory.items(prefs_bot.namespace(ALICE))) == 1


def test_forgetting_a_fact_names_it_not_the_versions_it_replaced(prefs_bot: PrefsBot) -> None:
    """One *Forget* is one fact to the person, though the aisle seat it replaced goes too."""
    for lang, aisle, window in (
        ("en", "I prefer aisle seats", "I prefer window seats"),
        ("zh", "我喜欢靠过道的座位", "我喜欢靠窗的座位"),
    ):
        user = f"U_{lang}"
        ns = prefs_bot.namespace(user)
        prefs_bot.memory.record(ns, [aisle])
        prefs_bot.memory.record(ns, [window])  # replaces the aisle seat
        [current] = prefs_bot.memory.items(ns)
        assert current.text == window
        answer = prefs_bot.api(prefs_bot.token(user, lang=lang)).delete(f"{API}/facts/{current.id}")
        assert answer.status_code == 200
        assert answer.json()["message"] == t("page_forgot", lang, text=window)
        assert prefs_bot.memory.items(ns) == []


def test_one_persons_token_shows_nothing_of_anothers(prefs_bot: PrefsBot) -> None:
    prefs_bot.memory.record(prefs_bot.namespace(ALICE), ["I like quiet rooms"])
    body = prefs_bot.api(prefs_bot.token(BOB)).get(API).json()
    assert body["facts"] == [] and body["summary"] == ""


def test_a_memory_that_is_down_is_told_as_unavailable_never_as_empty(
    make_bot: BotFactory,
) -> None:
    closed = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
    bot = start_prefs_bot(make_bot, memory_dsn=closed)
    try:
        api = bot.api(bot.token())
        response = api.get(API)
        assert response.status_code == 503 and response.json()["error"] == "unavailable"
        saved = _post(api, {"slots": {"seat": "aisle"}})
        assert saved.status_code == 503 and saved.json()["error"] == "unavailable"
        erased = api.delete(f"{API}/facts/abc123")
        assert erased.status_code == 503  # an erase that failed is never told as a save's
        assert erased.json()["message"] == t("memory_forget_failed", "en")
        page = bot.client().get(bot.link(), follow_redirects=True)
        assert page.status_code == 503
        assert t("home_unavailable", "en") in html.unescape(page.text)
    finally:
        bot.close()


def test_error_messages_follow_the_request_language_shape_and_status_unchanged(
    prefs_bot: PrefsBot,
) -> None:
    """A script with a bare link token (no language in it) got English errors for a
    Chinese note; the browser's Accept-Language and then the note's own language decide,
    while the JSON fields and status codes stay as they were."""
    token = prefs_bot.token()  # made without --lang
    phone = {"slots": {"seat": "aisle"}, "note": "有事打我电话 13812345678"}
    zh = _post(prefs_bot.api(token), phone).json()
    assert zh == {
        "ok": False,
        "error": "invalid",
        "message": t("api_invalid", "zh"),
        "errors": {"note": t("prefs_privacy_phone", "zh")},
    }
    english = {"slots": {"seat": "aisle"}, "note": "call me on 13812345678 any time"}
    en = _post(prefs_bot.api(token), english)
    assert en.status_code == 400
    assert en.json()["errors"] == {"note": t("prefs_privacy_phone", "en")}
    assert en.json()["message"] == t("api_invalid", "en")
    # The browser's language is said before the note is read: it wins.
    told = _post(prefs_bot.api(token), phone, **{"Accept-Language": "en-GB,en;q=0.9"})
    assert told.json()["errors"] == {"note": t("prefs_privacy_phone", "en")}
    browser = prefs_bot.client(headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    refused = browser.get(API)
    assert refused.status_code == 401
    assert refused.json() == {
        "ok": False,
        "error": "unauthorized",
        "message": t("api_unauthorized", "zh"),
    }
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    malformed = browser.post(API, content="{not json", headers=headers)
    assert malformed.status_code == 400
    assert malformed.json() == {
        "ok": False,
        "error": "malformed_json",
        "message": t("api_malformed_json", "zh"),
    }
    assert prefs_bot.memory.items(prefs_bot.namespace()) == []


def test_a_wrong_method_is_a_json_error_in_the_callers_language(prefs_bot: PrefsBot) -> None:
    """The API's errors are JSON (docs/preferences-page.md), but a wrong method got the
    application's plain-text English "method not allowed"; status and Allow are as before."""
    token = prefs_bot.token()
    zh = prefs_bot.client(headers={"Accept-Language": "zh-CN", "Authorization": f"Bearer {token}"})
    response = zh.put(API, content="{}")
    assert response.status_code == 405 and response.headers["allow"] == "GET, POST, OPTIONS"
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {
        "ok": False,
        "error": "method_not_allowed",
        "message": t("api_method_not_allowed", "zh", methods="GET, POST"),
    }
    fact = prefs_bot.api(token).get(f"{API}/facts/0000ffff")
    assert fact.status_code == 405 and fact.headers["allow"] == "DELETE, OPTIONS"
    assert fact.json()["message"] == t("api_method_not_allowed", "en", methods="DELETE")
    assert prefs_bot.api(token).get(API).status_code == 200  # the methods it takes still work


def test_options_answers_204_with_the_methods_each_path_takes(prefs_bot: PrefsBot) -> None:
    """OPTIONS got a 405, as if asking which methods a path takes were itself wrong: every
    path of the page and its API answers 204 with `Allow`, no body, with or without a
    token (it says nothing but the methods), and no CORS header (same-origin only)."""
    anyone = prefs_bot.client()
    signed = prefs_bot.api(prefs_bot.token())
    for client in (anyone, signed):
        for path, methods in (
            (API, "GET, POST, OPTIONS"),
            (f"{API}/facts/0000ffff", "DELETE, OPTIONS"),
            ("/prefs", "GET, POST, OPTIONS"),
            ("/prefs/forget", "POST, OPTIONS"),
        ):
            answer = client.options(path)
            assert answer.status_code == 204, path
            assert answer.headers["allow"] == methods
            assert answer.content == b""
            assert "content-length" not in answer.headers
            assert not any(h.startswith("access-control-") for h in answer.headers)
    assert signed.get(API).status_code == 200  # the methods it takes still work
    assert prefs_bot.memory.items(prefs_bot.namespace()) == []  # and OPTIONS changed nothing


def test_a_refusal_speaks_the_language_the_link_was_made_in(prefs_bot: PrefsBot) -> None:
    """A script holding a link made with --lang zh, and no Accept-Language, got its wrong
    method and its expired link refused in English: the API's refusals read only the
    browser's header, though the docs (and the page's own refusal) put the link's
    language before it."""
    token = prefs_bot.token(lang="zh")
    wrong = prefs_bot.api(token).put(API, content="{}")
    assert wrong.status_code == 405
    assert wrong.json()["message"] == t("api_method_not_allowed", "zh", methods="GET, POST")
    fact = prefs_bot.api(token).get(f"{API}/facts/0000ffff")
    assert fact.json()["message"] == t("api_method_not_allowed", "zh", methods="DELETE")
    expired = prefs_bot.token(lang="zh", now=time.time() - 3600)
    refused = prefs_bot.api(expired).get(API)
    assert refused.status_code == 401
    assert refused.json()["message"] == t("api_unauthorized", "zh")
    # What the caller asks for still comes first.
    asked = prefs_bot.api(token).put(f"{API}?lang=en", content="{}")
    assert asked.json()["message"] == t("api_method_not_allowed", "en", methods="GET, POST")
