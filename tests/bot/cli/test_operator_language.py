"""The operator's command line speaks the console's language: `DEFAULT_LANGUAGE` when
set, else the terminal's locale (`bot.cli.language`). Its `error:`, `warning:` and `note:`
prefixes stay as they are in every language (scripts grep them), its exit statuses do
not change, and `--json` prints the same bytes whatever the language."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.language import LOCALE_VARIABLES
from bot.messages import t
from tests.bot.cli.conftest import TravelBot
from tests.support.services import free_port

TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
ZH = {"LANG": "zh_CN.UTF-8"}
EN = {"LANG": "C.UTF-8"}  # a setting given once stays for the test's later runs


def test_memory_show_follows_the_terminal_locale(travel_bot: TravelBot) -> None:
    """`memory show` read only --lang and DEFAULT_LANGUAGE: on a Chinese terminal its
    headings were English while the console beside it spoke Chinese."""
    facts = ("I never take red-eye flights", "出差只坐高铁一等座")
    assert travel_bot("memory", "add", "--user", "T1:U1", *facts).status == 0
    chinese = travel_bot("memory", "show", "--user", "T1:U1", **ZH)
    assert chinese.status == 0
    assert chinese.out.startswith(t("page_summary_heading", "zh"))
    assert "我记住的内容（2 条）：" in chinese.out and "What I remember" not in chinese.out
    assert "I never take red-eye flights" in chinese.out  # facts keep their own words
    # DEFAULT_LANGUAGE, when set, comes before the locale; --lang before both.
    english = travel_bot("memory", "show", "--user", "T1:U1", DEFAULT_LANGUAGE="en", **ZH)
    assert english.out.startswith("How I sum up your preferences: ")
    asked = travel_bot("memory", "show", "--user", "T1:U1", "--lang", "en", **ZH)
    assert asked.out == english.out


def test_json_output_is_the_same_in_every_language(travel_bot: TravelBot) -> None:
    assert travel_bot("memory", "add", "--user", "T1:U1", "I prefer aisle seats").status == 0
    for argv in (
        ("memory", "show", "--user", "T1:U1", "--json"),
        ("memory", "search", "--user", "T1:U1", "--json", "seats"),
        ("trips", "list", "--json"),
    ):
        english = travel_bot(*argv, **EN)
        chinese = travel_bot(*argv, **ZH)
        assert chinese.out == english.out and chinese.status == english.status == 0
        json.loads(chinese.out)


def test_memory_errors_and_status_lines_in_chinese_keep_prefix_and_status(
    travel_bot: TravelBot,
) -> None:
    unknown = travel_bot("memory", "show", "--user", "T1:U9", **ZH)
    assert unknown.status == 0 and unknown.out == "没有为 T1:U9 记住任何内容\n"

    added = travel_bot("memory", "add", "--user", "T1:U1", "I prefer aisle seats", **ZH)
    assert added.status == 0
    assert added.err == "note: T1:U1 是新的：此前没有为它记住任何内容\n"
    refused = travel_bot("memory", "add", "--user", "T1:U1", "my password is hunter2", **ZH)
    assert refused.status == 3  # the word scripts read stays; the reason is in Chinese
    assert refused.out.startswith("rejected: ") and "密码" in refused.out
    assert "hunter2" not in refused.out
    typo = travel_bot("memory", "show", "--user", "T1:U2", **ZH)
    assert typo.out == "没有为 T1:U2 记住任何内容（是不是 T1:U1？）\n"

    missing = travel_bot("memory", "forget", "--user", "T1:U1", "--id", "ffff0000", **ZH)
    assert missing.status == 1
    assert missing.err == "error: T1:U1 的记忆里没有编号为 ffff0000 的记录\n"

    unconfirmed = travel_bot("memory", "forget", "--user", "T1:U1", "--all", **ZH)
    assert unconfirmed.status == 2
    assert unconfirmed.err.startswith("error: 删除为 T1:U1 记住的全部 1 条记录（包括历史）？")
    assert "--yes" in unconfirmed.err and "没有删除任何内容" in unconfirmed.err
    assert travel_bot("memory", "show", "--user", "T1:U1", "--json").status == 0  # kept

    again = travel_bot("memory", "add", "--user", "T1:U1", "Now I prefer window seats")
    assert again.out.startswith("updated")
    done = travel_bot("memory", "forget", "--user", "T1:U1", "--all", "--yes", **ZH)
    assert done.status == 0
    assert done.out == "已删除 1 条记录，以及它取代的 1 个更早的版本\n"
    assert done.err == (  # no Redis here: the page's links could not be revoked
        "warning: Redis 没能记下这次撤销，所以 T1:U1 的偏好页链接和页面会话在过期前仍可使用\n"
    )
    # The same operation in English reads as it always did.
    travel_bot("memory", "add", "--user", "T1:U1", "I prefer aisle seats")
    travel_bot("memory", "add", "--user", "T1:U1", "Now I prefer window seats")
    english = travel_bot("memory", "forget", "--user", "T1:U1", "--all", "--yes", **EN)
    assert english.out == "forgot 1 fact and 1 earlier version it replaced\n"


def test_trips_and_prefs_lines_in_chinese(travel_bot: TravelBot) -> None:
    added = travel_bot(
        "trips", "add", "--user", "T1:U1", "--destination", "成都", "--start", "2099-03-01", **ZH
    )
    assert added.status == 0 and added.out.startswith("已保存：2099-03-01  T1:U1  成都")
    listed = travel_bot("trips", "list", **ZH)
    assert "成都" in listed.out
    gone = travel_bot(
        "trips", "remove", "--user", "T1:U1", "--destination", "重庆", "--start", "2099-03-01",
        **ZH,
    )  # fmt: skip
    assert gone.status == 1
    assert gone.err.startswith("error: T1:U1 没有 2099-03-01 出发去 重庆 的行程")
    removed = travel_bot(
        "trips", "remove", "--user", "T1:U1", "--destination", "成都", "--start", "2099-03-01",
        **ZH,
    )  # fmt: skip
    assert removed.status == 0 and removed.out.startswith("已删除：2099-03-01")
    assert travel_bot("trips", "list", **ZH).out == "（没有行程）\n"
    assert travel_bot("trips", "list", **EN).out == "(no trips)\n"

    link = travel_bot("prefs", "link", "--user", "T1:U1", **ZH)
    assert link.status == 2
    assert link.err.startswith("error: 偏好页没有配置好：")
    env = {"PREFS_LINK_SECRET": "s" * 32, "PUBLIC_URL": "https://bot.example.com", **ZH}
    too_long = travel_bot("prefs", "link", "--user", "T1:U1", "--ttl-minutes", "0", **env)
    assert too_long.status == 2
    assert too_long.err == "error: --ttl-minutes 必须在 1 到 1440 之间\n"


@pytest.mark.parametrize(
    ("argv", "chinese"),
    [
        (("socket",), "error: Socket Mode 需要 SLACK_APP_TOKEN 和 SLACK_BOT_TOKEN\n"),
        (
            ("dingtalk",),
            "error: 钉钉 Stream 模式需要 DINGTALK_CLIENT_ID 和 DINGTALK_CLIENT_SECRET\n",
        ),
        (("feishu",), "error: 飞书长连接需要 FEISHU_APP_ID 和 FEISHU_APP_SECRET\n"),
    ],
)
def test_a_process_missing_its_credentials_says_so_in_chinese(
    travel_bot: TravelBot, argv: tuple[str, ...], chinese: str
) -> None:
    ran = travel_bot(*argv, DEFAULT_LANGUAGE="zh")
    assert ran.status == 2 and ran.err == chinese


def test_an_unreachable_database_in_chinese(travel_bot: TravelBot) -> None:
    port = free_port()
    dsn = f"postgresql://postgres:pw@127.0.0.1:{port}/travel"
    for argv in (("memory", "show", "--user", "local:you"), ("trips", "list"), ("chat",)):
        ran = travel_bot(*argv, MEMORY_DSN=dsn, **ZH)
        assert ran.status == 2
        assert ran.err == (
            f"error: 无法连接 127.0.0.1:{port} 上的 PostgreSQL（MEMORY_DSN）：connection refused\n"
        )


@pytest.mark.parametrize(
    ("locale", "encoding", "said"),
    [
        # Big5 has no simplified Chinese: the line could not be printed, and `memory
        # show` failed with "error: 'big5' codec can't encode character" and exit 1.
        ("zh_TW.Big5", "big5", "nothing remembered for local:you\n"),
        ("zh_CN.GB18030", "gb18030", "没有为 local:you 记住任何内容\n"),
    ],
)
def test_a_chinese_locale_whose_terminal_cannot_show_it_gets_english(
    tmp_path: Path, locale: str, encoding: str, said: str
) -> None:
    env = {
        k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES and k != "DEFAULT_LANGUAGE"
    }
    env |= {"MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db", "REDIS_URL": "", "LANG": locale}
    env["PYTHONIOENCODING"] = encoding  # the terminal's encoding, as the locale would set it
    ran = subprocess.run(
        [TRAVEL_BOT, "memory", "show", "--user", "local:you"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
    )
    assert (ran.returncode, ran.stderr) == (0, b"")
    assert ran.stdout.decode(encoding) == said
