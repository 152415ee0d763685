"""`travel-bot chat`: piped console sessions with and without a language model."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from openai import OpenAI

from bot.agent.loop import Agent
from bot.cli.chat import run_console
from bot.errors import LLMUnavailable
from bot.messages import REDACTED, t
from bot.settings import Settings
from memory import open_memory
from memory.engine import Memory
from memory.privacy import REDACTED as memory_redacted
from tests.bot.cli.conftest import QUIET_ROOMS
from tests.support.llm_server import Fail, ScriptedModel
from tests.support.services import free_port

USER = "T1:U1"
RED_EYE = "I never take red-eye flights"


def _settings(**values: Any) -> Settings:
    values.setdefault("llm_model", "")
    values.setdefault("redis_url", "")
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def _chat(tmp_path: Path, text: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot chat ARGS` reading `text`, on this test's SQLite file, without Redis
    unless `env` says otherwise."""
    environment = {
        **os.environ,
        "LLM_MODEL": "",
        "MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db",
        "REDIS_URL": "",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", "chat", *args],
        input=text,
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )


def _session(settings: Settings, text: str, **kwargs: Any) -> str:
    out = io.StringIO()
    status = run_console(settings, user=USER, stdin=io.StringIO(text), stdout=out, **kwargs)
    assert status == 0
    return out.getvalue()


def test_without_llm_it_says_what_to_set_and_memory_commands_work(
    sqlite_memory: Memory,
) -> None:
    output = _session(
        _settings(),
        "hello there\n"
        f"/remember {RED_EYE}\n"
        "/remember My passport number is E12345678\n"
        "/recall flights\n"
        "/prefs\n",
        memory=sqlite_memory,
    )
    for setting in ("LLM_MODEL=", "OPENAI_BASE_URL=", "OPENAI_API_KEY="):
        assert setting in output
    assert t("console_no_llm_reminder", "en") in output
    assert f"Remembered: {RED_EYE}" in output
    # The refusal says why in the person's language and never echoes the number.
    assert f"Not saved: My passport number is [redacted]. {t('prefs_privacy_id', 'en')}" in output
    assert not [line for line in output.splitlines() if "E12345678" in line]
    assert f"{RED_EYE}." in output  # the recall summary
    (item,) = sqlite_memory.items(USER)
    assert item.text == RED_EYE and item.source == "console"
    day = item.created_at.date().isoformat()
    assert f"- {RED_EYE}  (from the terminal console · {day})  [{item.id[:8]}]" in output
    # The profile in the page's words, not slot ids.
    assert "Your preferences now: Avoids red-eye flights." in output
    assert "red_eye" not in output
    assert "> " not in output  # no prompt when stdin is not a terminal


def test_refusals_are_in_the_persons_language_and_never_echo_the_whole_text(
    sqlite_memory: Memory,
) -> None:
    long_fact = "靠窗 " * 5000  # 10,000 characters
    output = _session(
        _settings(),
        f"/remember 酒店预算一万二\n/remember hunter2 是我的密码\n/remember {long_fact}\n",
        memory=sqlite_memory,
    )
    # The masked preview speaks the reader's language too (memory masks as "[redacted]").
    assert f"未保存：酒店预算[已隐去]。{t('prefs_privacy_amount', 'zh')}" in output
    assert f"未保存：[已隐去] 是我的密码。{t('prefs_privacy_secret', 'zh')}" in output
    assert "[redacted]" not in output
    assert t("reject_too_long", "zh") in output
    assert "contains" not in output and "hunter2" not in output and "12000" not in output
    assert len(output) < 2000  # the 10,000-character fact is not echoed back
    assert sqlite_memory.items(USER) == []


def test_an_english_refusal_keeps_the_english_mask(sqlite_memory: Memory) -> None:
    output = _session(_settings(), "/remember my password is hunter2\n", memory=sqlite_memory)
    assert "Not saved: my password is [redacted]." in output
    assert "hunter2" not in output
    assert memory_redacted == REDACTED  # bot.messages masks what memory masks


def test_recall_says_when_memory_cannot_be_read(tmp_path: Path) -> None:
    broken = open_memory(dsn=f"sqlite:///{tmp_path}", redis_url="")  # a directory: unusable
    output = _session(_settings(), "/recall flights\n", memory=broken)
    broken.close()
    assert t("home_unavailable", "en") in output
    assert t("console_nothing_remembered", "en", user=USER) not in output


def test_forget_one_or_everything(sqlite_memory: Memory) -> None:
    sqlite_memory.record(USER, [RED_EYE, "I prefer aisle seats"])
    aisle = next(i for i in sqlite_memory.items(USER) if "aisle" in i.text)
    output = _session(
        _settings(),
        f"/forget {aisle.id}\n/forget nope\n/prefs\n/forget\n/prefs\n"
        "/forget all\nno\n/prefs\n/forget all\ny\n/recall\n",
        memory=sqlite_memory,
    )
    assert "Forgot 1 item(s)." in output
    # a bare /forget erases nothing and says how
    assert t("console_forget_how", "en") in output
    assert "No remembered fact has the id nope" in output
    assert "aisle" not in output.split("Forgot 1 item(s).")[1]
    # /forget all asks first; "no" keeps everything, "y" erases it.
    question = t("console_forget_all_ask", "en", count=1, user=USER) + " [y/N]"
    assert output.count(question) == 2
    assert t("console_forget_all_kept", "en") in output
    assert output.count(f"- {RED_EYE}") == 3  # /prefs twice before, once after the "no"
    assert sqlite_memory.items(USER) == []
    assert output.rstrip().endswith(t("console_nothing_remembered", "en", user=USER))


def test_forget_takes_an_id_as_the_list_shows_it(sqlite_memory: Memory) -> None:
    sqlite_memory.record(USER, [RED_EYE, "I prefer aisle seats"])
    red_eye = next(i for i in sqlite_memory.items(USER) if i.text == RED_EYE)
    shown = _session(_settings(), "/prefs\n", memory=sqlite_memory)
    [line] = [line for line in shown.splitlines() if RED_EYE in line and line.startswith("  - ")]
    short = line.rpartition("[")[2].rstrip("]")
    assert red_eye.id.startswith(short) and len(short) < len(red_eye.id)

    output = _session(_settings(), f"/forget {short}\n/prefs\n", memory=sqlite_memory)
    assert "Forgot 1 item(s)." in output
    assert [i.text for i in sqlite_memory.items(USER)] == ["I prefer aisle seats"]


def test_an_ambiguous_id_prefix_forgets_nothing(sqlite_memory: Memory) -> None:
    # Ids are random hex: among 17 facts, two share a first character for sure.
    assert {o.status for o in sqlite_memory.record(USER, list(QUIET_ROOMS))} == {"added"}
    ids = [i.id for i in sqlite_memory.items(USER)]
    first = next(c for c in "0123456789abcdef" if sum(i.startswith(c) for i in ids) > 1)
    output = _session(_settings(), f"/forget {first}\n", memory=sqlite_memory)
    count = sum(i.startswith(first) for i in ids)
    assert t("console_forget_ambiguous", "en", item_id=first, count=count) in output
    assert len(sqlite_memory.items(USER)) == len(ids)


def test_prefs_reads_like_the_page_in_both_languages(sqlite_memory: Memory) -> None:
    sqlite_memory.record(USER, ["出差只坐高铁一等座", "In Japan I prefer window seats"])
    english = _session(_settings(), "/prefs\n", memory=sqlite_memory)
    assert "Your preferences now: Takes first-class seats on trains." in english
    assert "Only for some trips (say so in chat to change them): Japan: Window" in english
    assert "What I remember (2):" in english and "only for: Japan" in english
    chinese = _session(_settings(), "/remember\n/prefs 中文\n", memory=sqlite_memory)
    assert "你现在的偏好：高铁坐一等座。" in chinese
    assert "仅限部分行程（在聊天中告诉我即可修改）：日本：靠窗" in chinese
    assert "我记住的内容（2 条）：" in chinese
    assert "rail_class" not in english + chinese and "first_class" not in english + chinese
    # the name people know from Slack, Feishu and DingTalk works here too
    slash = _session(_settings(), "/travel-prefs\n", memory=sqlite_memory)
    assert "Unknown command" not in slash and "What I remember (2):" in slash


def test_help_unknown_commands_chinese_and_quit(sqlite_memory: Memory) -> None:
    output = _session(
        _settings(),
        "/help\n/book\n/remember 出差只坐高铁一等座\n/quit\n/remember never read\n",
        memory=sqlite_memory,
    )
    assert "/remember TEXT" in output
    assert "Unknown command /book" in output
    assert "已记住：出差只坐高铁一等座" in output
    assert [i.text for i in sqlite_memory.items(USER)] == ["出差只坐高铁一等座"]


def test_with_llm_the_agent_records_and_recalls(
    scripted_model: ScriptedModel, sqlite_memory: Memory
) -> None:
    settings = _settings(
        llm_model="scripted",
        openai_base_url=scripted_model.base_url,
        openai_api_key="test",
    )
    scripted_model.script(
        [("record_to_memory", {"thinking": "preference", "content": [RED_EYE]})],
        "Noted: no red-eye flights.",
        [("retrieve_from_memory", {"keywords": ["Chengdu"]})],
        "A daytime flight to Chengdu.",
    )
    output = _session(
        settings, f"{RED_EYE}\nplan my trip to Chengdu\n/prefs\n", memory=sqlite_memory
    )

    assert "LLM_MODEL" not in output
    assert "Noted: no red-eye flights." in output
    assert "A daytime flight to Chengdu." in output
    assert [i.text for i in sqlite_memory.items(USER)] == [RED_EYE]
    last = scripted_model.last_request["messages"]
    assert RED_EYE in last[-1]["content"]  # the recalled fact reached the model
    assert {"role": "assistant", "content": "Noted: no red-eye flights."} in last  # history


def test_model_failure_ends_in_a_kind_message(
    scripted_model: ScriptedModel, sqlite_memory: Memory
) -> None:
    scripted_model.script(*[Fail(500)] * 3, "Back again.")
    agent = Agent(
        llm=OpenAI(base_url=scripted_model.base_url, api_key="test"),
        model="scripted",
        memory=sqlite_memory,
        max_retries=1,
        backoff_seconds=0.01,
        clock=lambda: datetime(2026, 3, 2, tzinfo=UTC),
    )
    output = _session(_settings(), "hi\nhi again\n", memory=sqlite_memory, agent=agent)
    # Which model did not answer, and what still works without it.
    said = next(line for line in output.splitlines() if "can't reach" in line)
    assert said.startswith(f"I can't reach the language model at {scripted_model.base_url}")
    assert said.endswith("/remember, /recall, /prefs and /forget still work.")
    assert "Back again." in output


def test_an_unreachable_model_is_named_and_memory_commands_go_on(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    text = f"plan my trip\n/remember {RED_EYE}\n"
    result = _chat(tmp_path, text, LLM_MODEL="qwen2.5:7b-instruct", OPENAI_BASE_URL=url)
    assert result.returncode == 0, result.stderr
    reply, remembered = result.stdout.splitlines()[-2:]
    assert reply.startswith(f"I can't reach the language model at {url} (")
    assert reply.endswith("/remember, /recall, /prefs and /forget still work.")
    assert remembered == f"Remembered: {RED_EYE}"


def test_cli_verb_runs_piped(tmp_path: Path) -> None:
    result = _chat(tmp_path, f"/remember {RED_EYE}\n/recall\n", "--user", USER)
    assert result.returncode == 0, result.stderr
    assert "LLM_MODEL=" in result.stdout
    assert f"Remembered: {RED_EYE}" in result.stdout
    mem = open_memory(dsn=f"sqlite:///{tmp_path}/cli.db", redis_url="")
    assert [i.text for i in mem.items(USER)] == [RED_EYE]
    mem.close()


def test_the_console_shows_only_the_conversation(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    """Redis down and a model answering: one notice at the start, then only the talk."""
    scripted_model.script(
        [("record_to_memory", {"thinking": "preference", "content": [RED_EYE]})],
        "Noted: no red-eye flights.",
        "Hello again.",
    )
    result = _chat(
        tmp_path,
        f"{RED_EYE}\nhello\n/remember I prefer aisle seats\n/forget all\nyes\n",
        LLM_MODEL="scripted",
        OPENAI_BASE_URL=scripted_model.base_url,
        OPENAI_API_KEY="test",
        REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    log_file = Path("data") / "travel-bot.log"
    assert result.stdout.splitlines() == [
        t("console_welcome", "en", user="local:you"),
        t("console_cache_off", "en"),
        t("console_log_file", "en", path=str(log_file)),
        "Noted: no red-eye flights.",
        "Hello again.",
        "Remembered: I prefer aisle seats",
        t("console_forget_all_ask", "en", count=2, user="local:you") + " [y/N]",
        "Forgot 2 item(s).",
    ]
    logged = (tmp_path / log_file).read_text(encoding="utf-8")
    assert "httpx" in logged and "memory.cache" in logged  # kept, just not on the terminal


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_each_step_is_a_dim_line_and_the_preferences_used_follow(
    scripted_model: ScriptedModel, sqlite_memory: Memory
) -> None:
    settings = _settings(
        llm_model="scripted", openai_base_url=scripted_model.base_url, openai_api_key="test"
    )
    sqlite_memory.record(USER, [RED_EYE])
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["Chengdu"]})], "A daytime flight to Chengdu."
    )
    out = _Terminal()
    stdin = io.StringIO("plan my trip to Chengdu\n")
    run_console(settings, user=USER, stdin=stdin, stdout=out, memory=sqlite_memory)
    lines = out.getvalue().splitlines()
    step = lines.index("\x1b[2m· Recalling your travel preferences\x1b[0m")
    answer = lines.index("A daytime flight to Chengdu.")
    assert step < answer
    said = sqlite_memory.items(USER)[0].created_at.astimezone(ZoneInfo(settings.travel_timezone))
    used = f"Used: {RED_EYE} (said on {said.date().isoformat()})"
    assert lines[answer + 1] == f"\x1b[2m{used}\x1b[0m"

    scripted_model.script([("retrieve_from_memory", {"keywords": ["成都"]})], "给你订白天的航班。")
    out = _Terminal()
    stdin = io.StringIO("帮我规划去成都\n")
    run_console(settings, user=USER, stdin=stdin, stdout=out, memory=sqlite_memory)
    assert "\x1b[2m· 正在回忆你的出行偏好\x1b[0m" in out.getvalue()
    assert f"\x1b[2m用到：{RED_EYE} (" in out.getvalue()

    # Piped, the output is the conversation alone.
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["Chengdu"]})], "A daytime flight again."
    )
    piped = _session(settings, "plan it again\n", memory=sqlite_memory)
    assert "A daytime flight again." in piped
    assert "Recalling" not in piped and "Used:" not in piped


def test_a_memory_that_cannot_be_reached_is_never_told_as_a_failed_save(tmp_path: Path) -> None:
    """Reading or erasing while the store is down says what failed: "nothing was
    remembered" after /forget would read as if the person's memory were gone."""
    broken = open_memory(dsn=f"sqlite:///{tmp_path}", redis_url="")  # a directory: unusable
    output = _session(_settings(), "/prefs\n/forget 0123abcd\n/forget all\n", memory=broken)
    broken.close()
    assert output.count(t("home_unavailable", "en")) == 1  # /prefs
    assert output.count(t("memory_forget_failed", "en")) == 2  # /forget ID, /forget all
    assert t("memory_unavailable", "en") not in output
    chinese = _session(_settings(), "/forget 全部 0123abcd\n", memory=broken)
    assert t("memory_forget_failed", "zh") in chinese


def test_the_platforms_preferences_commands_mean_the_same_here(sqlite_memory: Memory) -> None:
    sqlite_memory.record(USER, ["出差只坐高铁一等座", RED_EYE])
    # 我的偏好 is the list, as on Feishu and DingTalk, not a message for the model.
    shown = _session(_settings(), "我的偏好\n", memory=sqlite_memory)
    assert "我记住的内容（2 条）：" in shown
    assert t("console_no_llm_reminder", "zh") not in shown
    # /travel-prefs forget asks before erasing everything, as in Slack; "no" keeps it all.
    asked = "/travel-prefs forget\nno\n删除我的偏好\n不\n"
    kept = _session(_settings(), asked, memory=sqlite_memory)
    assert t("console_forget_all_ask", "en", count=2, user=USER) + " [y/N]" in kept
    assert t("console_forget_all_ask", "zh", count=2, user=USER) + " [y/N]" in kept
    assert "What I remember" not in kept and len(sqlite_memory.items(USER)) == 2
    assert kept.count(t("console_forget_all_kept", "en")) == 1
    assert kept.count(t("console_forget_all_kept", "zh")) == 1
    erased = _session(_settings(), "/travel-prefs forget\ny\n", memory=sqlite_memory)
    assert t("console_forgot", "en", count=2) in erased
    assert sqlite_memory.items(USER) == []


def _failing_agent(scripted_model: ScriptedModel, memory: Memory) -> Agent:
    return Agent(
        llm=OpenAI(base_url=scripted_model.base_url, api_key="test"),
        model="scripted",
        memory=memory,
        max_retries=1,
        backoff_seconds=0.01,
        clock=lambda: datetime(2026, 3, 2, tzinfo=UTC),
    )


def test_a_chinese_speaker_is_told_why_the_model_failed_in_chinese(
    scripted_model: ScriptedModel, sqlite_memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    scripted_model.script(Fail(500), Fail(500), Fail(400))
    agent = _failing_agent(scripted_model, sqlite_memory)
    caplog.set_level(logging.WARNING, logger="bot.cli.chat")
    output = _session(
        _settings(), "帮我订去上海的机票\n再试一次\n", memory=sqlite_memory, agent=agent
    )
    url = scripted_model.base_url
    tried, refused = [line for line in output.splitlines() if line.startswith("连不上")]
    assert tried == t("console_llm_unavailable", "zh", url=url, reason="试了 2 次都没有回应")
    reasons = [line.partition("（")[2].partition("）")[0] for line in (tried, refused)]
    assert reasons[1] == "模型拒绝了请求，HTTP 400"
    assert not [r for r in reasons if re.search(r"[a-z]{3,}", r)]  # no English words
    # The operator's log keeps the English detail.
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "the model failed 2 times (HTTP 500)" in logged
    assert "the model refused the request (HTTP 400)" in logged


class _GivesUp(Agent):
    """A model client that gives up without saying how many tries it made."""

    def run(self, *args: Any, **kwargs: Any) -> Any:
        raise LLMUnavailable("the model gave up")


@pytest.mark.parametrize("lang, text", [("en", "plan my trip"), ("zh", "帮我订去上海的机票")])
def test_a_failure_without_a_count_of_tries_is_told_without_one(
    scripted_model: ScriptedModel, sqlite_memory: Memory, lang: str, text: str
) -> None:
    agent = _GivesUp(
        llm=OpenAI(base_url=scripted_model.base_url, api_key="test"),
        model="scripted",
        memory=sqlite_memory,
    )
    output = _session(_settings(), f"{text}\n", memory=sqlite_memory, agent=agent)
    why = t("llm_reason_timeout", lang)
    said = t("console_llm_unavailable", lang, url=scripted_model.base_url, reason=why)
    assert said in output.splitlines()
    assert "None" not in output


class _RefusesUnnamed(Agent):
    """A model client that says the model refused but has no HTTP status to name."""

    def run(self, *args: Any, **kwargs: Any) -> Any:
        raise LLMUnavailable("the model refused the request", kind="refused")


@pytest.mark.parametrize(
    "lang, text, why",
    [
        ("en", "plan my trip", "it refused the request"),
        ("zh", "帮我订去上海的机票", "模型拒绝了请求"),
    ],
)
def test_a_refusal_without_a_status_is_told_without_one(
    scripted_model: ScriptedModel, sqlite_memory: Memory, lang: str, text: str, why: str
) -> None:
    agent = _RefusesUnnamed(
        llm=OpenAI(base_url=scripted_model.base_url, api_key="test"),
        model="scripted",
        memory=sqlite_memory,
    )
    output = _session(_settings(), f"{text}\n", memory=sqlite_memory, agent=agent)
    said = t("console_llm_unavailable", lang, url=scripted_model.base_url, reason=why)
    assert said in output.splitlines()
    assert "HTTP" not in output and "None" not in output
