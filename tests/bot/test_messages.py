"""The string catalogue: every message a person may read exists in English and Chinese,
with the same blanks to fill; and every way the model can fail is told in both, with
nothing left unfilled ("HTTP None", "after None tries")."""

from __future__ import annotations

import re
import string

import pytest

from bot.errors import LLMUnavailable
from bot.messages import _MESSAGES, t

HAN = re.compile(r"[\u4e00-\u9fff]")


def _blanks(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(_MESSAGES))
def test_every_message_is_in_both_languages_with_the_same_blanks(key: str) -> None:
    entry = _MESSAGES[key]
    assert set(entry) == {"en", "zh"} and entry["en"].strip() and entry["zh"].strip()
    assert _blanks(entry["en"]) == _blanks(entry["zh"])


FAILURES = [
    LLMUnavailable("no answer in time", kind="timeout"),
    LLMUnavailable("refused (HTTP 400)", kind="refused", status=400),
    LLMUnavailable("refused", kind="refused"),  # no status to name
    LLMUnavailable("unreadable", kind="unusable"),
    LLMUnavailable("broke off", kind="broke_off"),
    LLMUnavailable("failed 3 times", kind="exhausted", attempts=3),
    LLMUnavailable("gave up"),  # no count of tries
]


@pytest.mark.parametrize("exc", FAILURES, ids=lambda e: f"{e.kind}-{e.status}-{e.attempts}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_way_the_model_fails_is_told_in_the_persons_language(
    exc: LLMUnavailable, lang: str
) -> None:
    why = t(exc.reason_key, lang, status=exc.status, attempts=exc.attempts)
    told = t("console_llm_unavailable", lang, url="http://127.0.0.1:1", reason=why)
    assert "None" not in told and "{" not in why
    assert bool(HAN.search(why)) == (lang == "zh")
    if exc.status is not None:
        assert str(exc.status) in why
    if exc.attempts is not None:
        assert str(exc.attempts) in why


@pytest.mark.parametrize("exc", FAILURES, ids=lambda e: f"{e.kind}-{e.status}-{e.attempts}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_the_chat_platforms_only_a_refusal_says_to_tell_the_admin(
    exc: LLMUnavailable, lang: str
) -> None:
    """A refusal (bad key, wrong model name, a request the model will not take) fails
    again however often it is tried: it names the admin; every other way may pass and
    says to try again later."""
    told = t(exc.told_key, lang)
    assert bool(HAN.search(told)) == (lang == "zh")
    admin = "admin" in told if lang == "en" else "管理员" in told
    assert admin == (exc.kind == "refused") == exc.permanent
    assert ("try again in a minute" in told) == (lang == "en" and not exc.permanent)
