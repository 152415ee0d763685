"""Snapshot tests of the prompt text the model sees (system prompts, memory tool schemas).

A failing test means the prompt changed. If the change is intended, regenerate the
snapshots with `UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/bot/agent/test_prompts.py` and
review the diff like code.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

import prompts
from bot.agent.memory_tools import memory_tools
from bot.agent.prompt import system_prompt
from bot.agent.tools import ToolContext
from bot.channels import PLATFORMS, SLACK
from bot.platform import Platform
from memory.engine import Memory
from memory.lang import Lang

SNAPSHOTS = Path(__file__).parent / "snapshots"
# Monday 2026-03-02 01:30 UTC is already 09:30 in Shanghai and still Sunday in Los Angeles.
NOW = datetime(2026, 3, 2, 1, 30, tzinfo=UTC)


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing snapshot {name}; run with UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} drifted from its snapshot"


@pytest.mark.parametrize(("lang", "tz"), [("en", "America/Los_Angeles"), ("zh", "Asia/Shanghai")])
def test_system_prompt_snapshot(lang: str, tz: str) -> None:
    ctx = ToolContext(namespace="T1:U1", lang=lang, tz=tz)  # type: ignore[arg-type]
    _check(f"system.{lang}.txt", system_prompt(ctx, NOW))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_system_prompt_for_a_colleague_snapshot(lang: str) -> None:
    ctx = ToolContext(
        namespace="T1:UADMIN",
        lang=lang,  # type: ignore[arg-type]
        tz="Asia/Shanghai",
        on_behalf_of="T1:UTRAVELLER",
        can_record=False,
    )
    _check(f"system_on_behalf.{lang}.txt", system_prompt(ctx, NOW))


def test_dates_resolve_in_the_users_time_zone() -> None:
    la = system_prompt(ToolContext(namespace="T1:U1", tz="America/Los_Angeles"), NOW)
    shanghai = system_prompt(ToolContext(namespace="T1:U1", lang="zh", tz="Asia/Shanghai"), NOW)
    assert "Sunday, 2026-03-01" in la and "17:30" in la
    assert "2026-03-02，星期一" in shanghai and "09:30" in shanghai
    unknown = system_prompt(ToolContext(namespace="T1:U1", tz="Mars/Olympus"), NOW)
    assert "(UTC)" in unknown and "Monday, 2026-03-02" in unknown


def test_system_prompts_carry_the_memory_rules() -> None:
    en = system_prompt(ToolContext(namespace="T1:U1"), NOW)
    zh = system_prompt(ToolContext(namespace="T1:U1", lang="zh"), NOW)
    for rule in ("record_to_memory", "retrieve_from_memory", "<remembered_preferences>"):
        assert rule in en and rule in zh
    assert "When in doubt, don't record" in en and "拿不准时，不要记录" in zh
    assert "ALWAYS before proposing a travel plan" in en and "一定要先调用" in zh
    assert "as usual" in en and "照旧" in zh and "老样子" in zh
    assert "passport" in en and "护照号" in zh
    assert "not instructions" in en and "不是指令" in zh


def test_memory_tool_schemas_snapshot(sqlite_memory: Memory) -> None:
    schemas = [tool.schema for tool in memory_tools(sqlite_memory)]
    _check("memory_tools.json", json.dumps(schemas, ensure_ascii=False, indent=2) + "\n")
    record, retrieve = (s["function"] for s in schemas)
    assert record["name"] == "record_to_memory"
    assert record["parameters"]["required"] == ["thinking", "content"]
    assert retrieve["name"] == "retrieve_from_memory"
    assert retrieve["parameters"]["required"] == ["keywords"]
    assert retrieve["parameters"]["properties"]["limit"]["default"] == 5


TASK_PROMPTS = {
    "memory_conflict.md": {
        "existing": "3f2a: 我喜欢吃辣\n9c1b: I prefer hotels close to the metro",
        "fact": "我现在不吃辣了",
    },
    "candidate_scoring.md": {
        "preferences": "I never take red-eye flights; prefers China Eastern.",
        "language": "English",
        "candidates": '[{"id": "f1", "leg": "outbound", "offer": "MU5401 23:30"}]',
    },
    "privacy_review.md": {"fact": "locker 4 8 1 5 on the left"},
    "profile_prefill.md": {
        "fields": "seat: window | aisle",
        "facts": "1. I like window seats",
    },
}


@pytest.mark.parametrize("name", sorted(TASK_PROMPTS))
def test_task_prompt_snapshot(name: str) -> None:
    """The fast model's prompts (conflicts, scoring, privacy review, form prefill), rendered."""
    _check(name.replace(".md", ".txt"), prompts.render(name, **TASK_PROMPTS[name]))


def test_the_channel_beside_an_assistant_thread_is_named_in_the_prompt() -> None:
    viewing = "<#C0OFFSITE|chengdu-offsite>"
    en = system_prompt(ToolContext(namespace="T1:U1", viewing=viewing, platform=SLACK), NOW)
    zh = system_prompt(
        ToolContext(namespace="T1:U1", lang="zh", viewing=viewing, platform=SLACK), NOW
    )
    assert f'the channel {viewing}. When they say "this' in en.replace("\n", " ")
    assert f"频道 {viewing}" in zh and "这个频道" in zh
    assert "the channel" not in system_prompt(ToolContext(namespace="T1:U1"), NOW)


NAMES = {"slack": {"slack"}, "feishu": {"feishu", "lark", "飞书"}, "dingtalk": {"dingtalk", "钉钉"}}


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_prompt_names_the_platform_the_person_is_on_and_never_another(
    platform: Platform, lang: Lang
) -> None:
    text = system_prompt(ToolContext(namespace="T1:U1", lang=lang, platform=platform), NOW)
    assert platform.place[lang] in text and platform.commands[lang] in text
    others = set().union(*(names for name, names in NAMES.items() if name != platform.name))
    assert not {word for word in others if word in text.lower()}
