"""The console as a newcomer first meets it: what they type is answered in their language
and leads somewhere (`travel-bot chat`, no chat platform)."""

from __future__ import annotations

import io
from typing import Any

from bot.cli.chat import run_console
from bot.messages import t
from bot.settings import Settings
from memory.engine import Memory
from tests.support.llm_server import ScriptedModel

USER = "local:you"
RED_EYE = "I never take red-eye flights"


def _settings(**values: Any) -> Settings:
    values.setdefault("llm_model", "")
    values.setdefault("redis_url", "")
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def _session(settings: Settings, text: str, memory: Memory) -> str:
    out = io.StringIO()
    status = run_console(settings, user=USER, stdin=io.StringIO(text), stdout=out, memory=memory)
    assert status == 0
    return out.getvalue()


def test_forget_all_or_an_id_answers_a_chinese_speaker_in_chinese(sqlite_memory: Memory) -> None:
    """`all` and an id are no English: after 我的偏好 the question and answers stay Chinese."""
    sqlite_memory.record(USER, ["出差只坐高铁一等座", RED_EYE])
    output = _session(_settings(), "我的偏好\n/forget all\n不\n/forget 0000ffff\n", sqlite_memory)
    assert t("console_forget_all_ask", "zh", count=2, user=USER) + " [y/N]" in output
    assert t("console_forget_all_kept", "zh") in output
    assert t("console_forget_missing", "zh", item_id="0000ffff") in output
    assert "Forget all" not in output and "Nothing was forgotten" not in output
    assert len(sqlite_memory.items(USER)) == 2


def test_travel_prefs_link_gives_the_page_or_says_what_to_set(sqlite_memory: Memory) -> None:
    """Slack's `/travel-prefs link` printed the command help here; it is the person's link."""
    off = _session(_settings(), "/travel-prefs link\n我的偏好\n/travel-prefs link\n", sqlite_memory)
    assert t("console_link_off", "en") in off and t("console_link_off", "zh") in off
    assert "Commands:" not in off
    page = _settings(prefs_link_secret="0123456789abcdef0123", public_url="http://127.0.0.1:3917")
    output = _session(page, "出差只坐高铁一等座\n/travel-prefs link\n", sqlite_memory)
    [line] = [line for line in output.splitlines() if line.startswith("你的偏好页面：")]
    assert line.startswith("你的偏好页面：http://127.0.0.1:3917/prefs?token=")
    assert "15 分钟内有效" in output


def test_without_a_model_a_preference_said_plainly_is_not_lost_silently(
    sqlite_memory: Memory,
) -> None:
    """The README's own example, typed as a message with no model: the person is told it
    was not saved and given the line that saves it, in their language."""
    output = _session(_settings(), f"出差只坐高铁一等座\n{RED_EYE}\n", sqlite_memory)
    assert "这句话没有保存。如果是要记住的出行偏好，请输入：/remember 出差只坐高铁一等座" in output
    keep = f"Nothing was saved. If it is a travel preference to keep, type: /remember {RED_EYE}"
    assert keep in output
    assert sqlite_memory.items(USER) == []
    # Nor is what the privacy guard would refuse: no advice to save a password or card.
    output = _session(
        _settings(), "my password is hunter2\n我的卡号是 6222 0212 3456 7890 123\n", sqlite_memory
    )
    assert t("console_no_llm_reminder", "en") in output and "/remember my" not in output
    assert "hunter2" not in output and "6222" not in output
    # A greeting, thanks or a question is no preference: no advice to remember it.
    said = "你好\nhi there!\n谢谢\nwhat can you do?\n能帮我订去成都的票吗\nx\nno red-eyes\n"
    output = _session(_settings(), said, sqlite_memory)
    assert output.count(t("console_no_llm_reminder", "zh")) == 3
    assert "/remember 你好" not in output and "/remember hi" not in output
    assert "/remember 谢谢" not in output and "/remember what" not in output
    assert "/remember 能帮我" not in output
    assert "type: /remember x\n" not in output  # a stray key names nothing to remember
    assert "type: /remember no red-eyes" in output  # two words can be a preference
    # A very long line is not repeated back.
    long_line = "靠窗 " * 500
    output = _session(_settings(), f"{long_line}\n", sqlite_memory)
    assert t("console_no_llm_reminder", "zh") in output and "/remember 靠窗" not in output


def test_a_pasted_wall_of_text_is_refused_before_the_model_as_on_every_platform(
    scripted_model: ScriptedModel, sqlite_memory: Memory
) -> None:
    """A paste over MAX_MESSAGE_CHARS is refused with the platforms' words; it is never
    sent to the model (which would cost the tokens and answer, at best, 'HTTP 400')."""
    settings = _settings(
        llm_model="scripted",
        openai_base_url=scripted_model.base_url,
        openai_api_key="test",
        max_message_chars=500,
    )
    scripted_model.script("A daytime flight to Chengdu.")
    wall = "帮我规划去成都的行程，" * 60  # 660 characters
    output = _session(settings, f"{wall}\n帮我规划去成都的行程\n", sqlite_memory)
    assert t("message_too_long", "zh", length=len(wall), limit=500) in output
    assert "A daytime flight to Chengdu." in output  # the next message goes on as usual
    assert len(scripted_model.requests) == 1
    assert wall not in scripted_model.requests[0]["messages"][-1]["content"]


def test_remember_with_nothing_to_remember_says_so_in_the_speakers_language(
    sqlite_memory: Memory,
) -> None:
    """'/remember x' was refused as instructions to me; '/remember 好' was kept as a preference."""
    output = _session(_settings(), "/remember x\n我的偏好\n/remember 好\n", sqlite_memory)
    assert t("reject_no_content", "en") in output and t("reject_no_content", "zh") in output
    assert "instructions" not in output
    assert sqlite_memory.items(USER) == []


def test_recall_punctuates_each_fact_in_its_own_language(sqlite_memory: Memory) -> None:
    """`/recall 航班` once read "I never take red-eye flights；I prefer aisle seats。":
    Chinese marks between English facts because the request was Chinese. Each fact now
    keeps its own language's separator and stop, whatever the request's."""
    rail, aisle = "出差只坐高铁一等座", "I prefer aisle seats"
    sqlite_memory.record(USER, [RED_EYE, aisle])
    for query in ("航班", "flights"):
        output = _session(_settings(), f"/recall {query}\n", sqlite_memory)
        [line] = [line for line in output.splitlines() if RED_EYE in line]
        assert line in (f"{RED_EYE}; {aisle}.", f"{aisle}; {RED_EYE}.")
    sqlite_memory.record(USER, [rail])
    after = {RED_EYE: "; ", aisle: "; ", rail: "；"}
    stop = {RED_EYE: ".", aisle: ".", rail: "。"}
    for query in ("航班", "flights", ""):
        output = _session(_settings(), f"/recall {query}\n", sqlite_memory)
        [line] = [line for line in output.splitlines() if RED_EYE in line]
        shown = [fact for fact in (RED_EYE, aisle, rail) if fact in line]
        order = sorted(shown, key=line.index)
        assert len(order) == 3, line
        assert line == "".join(f + after[f] for f in order[:-1]) + order[-1] + stop[order[-1]]
