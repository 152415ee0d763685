"""Links, sessions, CSRF, limits and escaping: what an attacker tries, and what they get.

Every refusal reveals nothing: a tampered, expired, replayed or foreign link gets the same
401 page, with no cookie and no trace of whose it was.
"""

from __future__ import annotations

import json
import re
import time
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from bot.prefs.links import issue_token
from tests.bot.conftest import BotFactory
from tests.bot.web.conftest import ALICE, BOB, PrefsBot, start_prefs_bot
from tests.support.services import free_port
from tests.support.stored import store_unchecked

API = "/api/preferences"


def _token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


def _csrf(page: str) -> str:
    match = re.search(r'<meta name="csrf-token" content="([0-9a-f]+)">', page)
    assert match, "the page carries its CSRF token"
    return match.group(1)


def _refusals(bot: PrefsBot) -> dict[str, str]:
    """Links that must not open the page, by how they are wrong."""
    version, payload, signature = bot.token().split(".")
    other_signature = signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB")
    bobs_payload = bot.token(BOB).split(".")[1]
    return {
        "signature changed": f"{version}.{payload}.{other_signature}",
        "payload changed": f"{version}.{payload[:-2]}xy.{signature}",
        "other person's name": f"{version}.{bobs_payload}.{signature}",
        "expired": bot.token(ttl_seconds=1, now=time.time() - 3600),
        "another secret": issue_token(
            "a-different-deployment-secret", bot.namespace(), ttl_seconds=900
        ),
        "garbage": "not-a-token",
    }


def test_bad_links_get_the_same_401_no_cookie_and_reveal_nothing(prefs_bot: PrefsBot) -> None:
    prefs_bot.memory.record(prefs_bot.namespace(), ["I like quiet rooms"])
    bodies = set()
    for how, token in _refusals(prefs_bot).items():
        browser = prefs_bot.client()
        response = browser.get("/prefs", params={"token": token})
        assert response.status_code == 401, how
        assert "set-cookie" not in response.headers, how
        assert ALICE not in response.text and "quiet rooms" not in response.text, how
        bodies.add(response.text)
        assert browser.get("/prefs").status_code == 401, how  # and no session came of it
        api = prefs_bot.api(token).get(API)
        assert api.status_code == 401, how
        assert api.json()["error"] == "unauthorized", how
        assert api.headers["www-authenticate"].startswith("Bearer")
    assert len(bodies) == 1  # the page never says which way a link was wrong


def test_a_link_opens_a_session_once_and_the_token_leaves_the_address(prefs_bot: PrefsBot) -> None:
    link = prefs_bot.link()
    browser = prefs_bot.client()
    response = browser.get(link)
    assert response.status_code == 303
    assert response.headers["location"] == "/prefs"  # no token in the address any more
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("travel_prefs_session=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http here; see the next test
    assert browser.get("/prefs").status_code == 200

    # The same link again: refused to anyone else, a no-op for the browser that opened it.
    stranger = prefs_bot.client()
    replay = stranger.get(link)
    assert replay.status_code == 401 and "set-cookie" not in replay.headers
    again = browser.get(link)
    assert again.status_code == 303 and "set-cookie" not in again.headers


def test_a_replay_is_refused_on_a_second_server_too(
    prefs_bot: PrefsBot, make_bot: BotFactory
) -> None:
    """The exchange is recorded in Redis, so another `serve` process refuses it too."""
    other = start_prefs_bot(make_bot)
    try:
        link = prefs_bot.link()
        assert prefs_bot.client().get(link).status_code == 303
        path = urlsplit(link)
        assert other.client().get(f"{path.path}?{path.query}").status_code == 401
    finally:
        other.close()


def test_cookies_are_secure_behind_https(make_bot: BotFactory) -> None:
    https = start_prefs_bot(make_bot, public_url="https://travel.example.com")
    try:
        token = https.token()
        cookie = https.client().get("/prefs", params={"token": token}).headers["set-cookie"]
        assert "Secure" in cookie
    finally:
        https.close()


def test_a_trusted_proxys_forwarded_https_makes_the_cookie_secure(prefs_bot: PrefsBot) -> None:
    # uvicorn trusts X-Forwarded-Proto from FORWARDED_ALLOW_IPS only (127.0.0.1 by default).
    response = prefs_bot.client().get(
        "/prefs", params={"token": prefs_bot.token()}, headers={"X-Forwarded-Proto": "https"}
    )
    assert "Secure" in response.headers["set-cookie"]


def test_forwarded_allow_ips_comes_from_the_settings(make_bot: BotFactory) -> None:
    """FORWARDED_ALLOW_IPS is a setting (so `.env` sets it too): a proxy it does not name
    cannot claim HTTPS."""
    bot = start_prefs_bot(make_bot, forwarded_allow_ips="10.9.9.9")
    try:
        response = bot.client().get(
            "/prefs", params={"token": bot.token()}, headers={"X-Forwarded-Proto": "https"}
        )
        assert response.status_code == 303
        assert "Secure" not in response.headers["set-cookie"]
    finally:
        bot.close()


def test_every_page_and_answer_keeps_to_itself(prefs_bot: PrefsBot) -> None:
    browser = prefs_bot.signed_in()
    for response in (browser.get("/prefs"), browser.get(API), prefs_bot.client().get("/prefs")):
        headers = response.headers
        assert "default-src 'none'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
        assert headers["cache-control"] == "no-store"


def test_changes_without_the_csrf_token_are_refused_and_change_nothing(
    prefs_bot: PrefsBot,
) -> None:
    ns = prefs_bot.namespace()
    prefs_bot.memory.record(ns, ["I like quiet rooms", "I prefer aisle seats"])
    before = sorted(i.id for i in prefs_bot.memory.items(ns))
    alice = prefs_bot.signed_in()
    token = _csrf(alice.get("/prefs").text)
    bobs = _csrf(prefs_bot.signed_in(BOB).get("/prefs").text)
    fact = before[0]

    for csrf in (None, "", bobs, token[:-1] + ("0" if token[-1] != "0" else "1")):
        form = {"slot.seat": "window", "note": "Late checkout"}
        if csrf is not None:
            form["csrf_token"] = csrf
        assert alice.post("/prefs", data=form).status_code == 403
        forget = {"id": fact, **({"csrf_token": csrf} if csrf is not None else {})}
        assert alice.post("/prefs/forget", data=forget).status_code == 403
        headers = {"Content-Type": "application/json"}
        if csrf is not None:
            headers["X-CSRF-Token"] = csrf
        body = json.dumps({"slots": {"seat": "window"}})
        posted = alice.post(API, content=body, headers=headers)
        assert posted.status_code == 403 and posted.json()["error"] == "csrf"
        assert alice.delete(f"{API}/facts/{fact}", headers=headers).status_code == 403
    assert sorted(i.id for i in prefs_bot.memory.items(ns)) == before

    # With the session's own token, the same requests go through.
    ok = alice.post(
        API,
        content=json.dumps({"slots": {"seat": "window"}}),
        headers={"Content-Type": "application/json", "X-CSRF-Token": token},
    )
    assert ok.status_code == 200
    assert prefs_bot.memory.profile(ns)["seat"] == "window"


def test_oversized_malformed_and_non_json_bodies_get_clear_errors(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    api = prefs_bot.api(prefs_bot.token())
    json_type = {"Content-Type": "application/json"}
    huge = json.dumps({"slots": {}, "note": "x" * 200_000})
    cases = [
        (huge, json_type, 413, "too_large"),
        ('{"slots": {"seat": "aisle"', json_type, 400, "malformed_json"),
        ("\xff\xfe", json_type, 400, "malformed_json"),
        ("[1, 2, 3]", json_type, 400, "not_object"),
        ("null", json_type, 400, "not_object"),
        ("[" * 100_00 + "]" * 100_00, json_type, 400, "malformed_json"),
        ('{"a":' * 5000 + "1" + "}" * 5000, json_type, 400, "malformed_json"),
        ("[" * 200 + "]" * 200, json_type, 400, "malformed_json"),  # deeper than any form
        ('{"slots": {"seat": "aisle"}}', {"Content-Type": "text/plain"}, 415, "json_only"),
    ]
    for body, headers, status, code in cases:
        response = api.post(API, content=body.encode("latin-1"), headers=headers)
        assert response.status_code == status, (code, response.text)
        answer = response.json()
        assert answer["ok"] is False and answer["error"] == code and answer["message"]
    browser = prefs_bot.signed_in()
    big_form = {"csrf_token": "x", "note": "y" * 100_000}
    assert browser.post("/prefs", data=big_form).status_code == 413
    many = "&".join(f"f{n}=1" for n in range(200))
    assert browser.get(f"/prefs?{many}").status_code == 200  # none of them read, no error
    assert api.get(f"{API}?{many}").status_code == 200
    assert prefs_bot.memory.items(ns) == []


INJECTIONS = [
    "<script>alert('fact')</script> quiet rooms",
    '"><img src=x onerror=alert(1)> aisle',
    "</textarea><script>alert(2)</script>",
    "{{ 7*7 }} and {% raw %} templates",
]


def test_html_in_stored_facts_is_inert_everywhere(prefs_bot: PrefsBot) -> None:
    ns = prefs_bot.namespace()
    # The guard refuses code and templates now; these were kept by an earlier version.
    store_unchecked(prefs_bot.memory, ns, INJECTIONS)
    prefs_bot.memory.record(ns, ["On trains <b>I like</b> a window seat"])
    browser = prefs_bot.signed_in()
    page = browser.get("/prefs").text
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>I like" not in page
    assert "&lt;script&gt;alert(&#39;fact&#39;)&lt;/script&gt; quiet rooms" in page
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt; aisle" in page
    assert "{{ 7*7 }} and {% raw %} templates" in page  # never evaluated as a template
    # In attributes too (the Forget button's label and the confirmation).
    assert 'aria-label="Forget “&lt;script&gt;' in page
    # Only our own script tag is on the page.
    assert re.findall(r"<script[^>]*>", page) == [
        f'<script src="{m}" defer>' for m in re.findall(r'<script src="([^"]+)" defer>', page)
    ]
    answer = browser.get(API).text
    assert "<" not in answer and ">" not in answer and "\\u003cscript\\u003e" in answer

    # Typed into the note and sent back with an error: still text.
    csrf = _csrf(page)
    typed = "</textarea><script>alert(3)</script> call 13812345678"
    refused = browser.post("/prefs", data={"csrf_token": csrf, "note": typed})
    assert refused.status_code == 400
    assert "<script>alert(3)" not in refused.text
    assert "&lt;/textarea&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in refused.text


def test_the_page_is_off_without_a_secret(
    make_bot: BotFactory, caplog: pytest.LogCaptureFixture
) -> None:
    for secret in (None, "short"):
        with caplog.at_level("INFO", logger="bot.web"):
            harness = make_bot(prefs_link_secret=secret, public_url="https://travel.example.com")
        assert harness.prefs_page is False
        client = httpx.Client(base_url=harness.server.url)
        try:
            for path in ("/prefs", API, "/prefs/static/prefs.css"):
                assert client.get(path).status_code == 404
            assert client.delete(f"{API}/facts/abc").status_code == 404
            assert client.get("/healthz").status_code == 200  # the rest of the bot is up
        finally:
            client.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.web"]
    assert lines == [
        "preferences page off: PREFS_LINK_SECRET is not set",
        "preferences page off: PREFS_LINK_SECRET is shorter than 16 characters",
    ]


def test_with_redis_down_a_link_still_opens_once(make_bot: BotFactory) -> None:
    """The exchange falls back to the process's own record: one opening, never two."""
    bot = start_prefs_bot(make_bot, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    try:
        link = bot.link()
        assert bot.client().get(link, follow_redirects=True).status_code == 200
        assert bot.client().get(link).status_code == 401
    finally:
        bot.close()


def test_a_refused_chinese_link_is_refused_in_chinese_whichever_way_it_is_wrong(
    prefs_bot: PrefsBot,
) -> None:
    """A link made in Chinese (`--lang zh`, a Chinese person's card) opened again, or
    tampered with, says so in Chinese even when the browser names no language, as the
    page it would have opened; and the same words either way, so nothing tells which."""
    link = prefs_bot.link(lang="zh")
    assert prefs_bot.client().get(link).status_code == 303  # spent
    spent = prefs_bot.client().get(link)
    version, payload, signature = _token_of(link).split(".")
    forged = f"{version}.{payload}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"
    tampered = prefs_bot.client().get("/prefs", params={"token": forged})
    expired = prefs_bot.client().get(
        "/prefs",
        params={"token": prefs_bot.token(lang="zh", ttl_seconds=1, now=time.time() - 3600)},
    )
    for refused in (spent, tampered, expired):
        assert refused.status_code == 401
        assert "此链接无法使用" in refused.text and "can't be used" not in refused.text
    assert spent.text == tampered.text == expired.text
    # The browser's own choice of page language still wins when it asks for one.
    asked = {"token": _token_of(link), "lang": "en"}
    english = prefs_bot.client().get("/prefs", params=asked)
    assert "This link can&#39;t be used" in english.text
