"""Preferences links: signed, expiring, bound to one person, refused whole when anything is off."""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.compose.links import links_problem, page_problem, preferences_url
from bot.prefs.links import LinkClaims, Signer, issue_token, read_token
from bot.settings import Settings

SECRET = "links-test-secret-0a9f7c"
NS = "T1:U1"


def _settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg, arg-type]


def _payload(token: str) -> dict[str, object]:
    part = token.split(".")[1]
    data: dict[str, object] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return data


def _with_payload(token: str, payload: dict[str, object]) -> str:
    version, _, signature = token.split(".")
    raw = json.dumps(payload, separators=(",", ":")).encode()
    part = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return f"{version}.{part}.{signature}"


def test_a_token_names_its_person_language_and_expiry_and_each_is_unique() -> None:
    now = time.time()
    token = issue_token(SECRET, NS, ttl_seconds=900, lang="zh", now=now)
    claims = read_token(SECRET, token, now=now)
    assert isinstance(claims, LinkClaims)
    assert (claims.namespace, claims.lang, claims.expires_at) == (NS, "zh", int(now) + 900)
    again = read_token(SECRET, issue_token(SECRET, NS, ttl_seconds=900, now=now), now=now)
    assert again is not None and again.jti != claims.jti and again.lang is None


def test_an_expired_token_is_refused() -> None:
    token = issue_token(SECRET, NS, ttl_seconds=60, now=1_000_000)
    assert read_token(SECRET, token, now=1_000_059) is not None
    assert read_token(SECRET, token, now=1_000_060) is None


def test_every_single_character_changed_anywhere_is_refused() -> None:
    token = issue_token(SECRET, NS, ttl_seconds=900)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    for index, char in enumerate(token):
        for other in (alphabet[(alphabet.index(char) + 1) % len(alphabet)], "A", "z"):
            if other != char:
                changed = token[:index] + other + token[index + 1 :]
                assert read_token(SECRET, changed) is None, (index, other)


def test_a_token_rewritten_for_another_person_or_longer_life_is_refused() -> None:
    token = issue_token(SECRET, NS, ttl_seconds=900)
    payload = _payload(token)
    assert read_token(SECRET, _with_payload(token, {**payload, "n": "T1:U2"})) is None
    assert read_token(SECRET, _with_payload(token, {**payload, "e": 4_000_000_000})) is None


def test_another_secret_another_purpose_and_junk_are_refused() -> None:
    token = issue_token(SECRET, NS, ttl_seconds=900)
    assert read_token("another-secret-entirely-1", token) is None
    # The same secret signing for another purpose (the page's session) is no link.
    session = Signer(SECRET, "prefs-session").sign({"n": NS, "e": 4_000_000_000, "j": "x" * 16})
    assert read_token(SECRET, session) is None
    for junk in ["", "v1", "v1..", "v2." + token[3:], token + "=", "x" * 5000, "v1.%%%.%%%"]:
        assert read_token(SECRET, junk) is None
    assert read_token(SECRET, None) is None


def test_preferences_url_needs_the_secret_and_the_public_url() -> None:
    assert preferences_url(_settings(), NS) is None
    assert preferences_url(_settings(public_url="https://bot.example.com"), NS) is None
    assert preferences_url(_settings(prefs_link_secret=SECRET), NS) is None
    short = _settings(prefs_link_secret="too-short", public_url="https://bot.example.com")
    assert preferences_url(short, NS) is None
    assert page_problem(short) == "PREFS_LINK_SECRET is shorter than 16 characters"
    assert links_problem(_settings(prefs_link_secret=SECRET)) == "PUBLIC_URL is not set"

    settings = _settings(prefs_link_secret=SECRET, public_url="https://bot.example.com/")
    url = preferences_url(settings, NS, lang="en", ttl_minutes=5)
    assert url is not None and url.startswith("https://bot.example.com/prefs?token=v1.")
    claims = read_token(SECRET, parse_qs(urlsplit(url).query)["token"][0])
    assert claims is not None and claims.namespace == NS and claims.lang == "en"
    assert 290 <= claims.seconds_left() <= 300


def test_the_default_lifetime_is_prefs_link_ttl_minutes() -> None:
    settings = _settings(prefs_link_secret=SECRET, public_url="https://h", prefs_link_ttl_minutes=3)
    url = preferences_url(settings, NS)
    assert url is not None
    claims = read_token(SECRET, parse_qs(urlsplit(url).query)["token"][0])
    assert claims is not None and 170 <= claims.seconds_left() <= 180
    assert _settings().prefs_link_ttl_minutes == 15


@pytest.mark.parametrize("namespace", ["", "   ", "x" * 300, "T1:U1\n", "T1:\u2028U1"])
def test_no_token_for_a_malformed_namespace(namespace: str) -> None:
    with pytest.raises(ValueError):
        issue_token(SECRET, namespace, ttl_seconds=60)
