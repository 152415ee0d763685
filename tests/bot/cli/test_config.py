"""A wrong setting is one line naming the variable, its value and what is accepted (the
line the README promises), exit status 2 and no traceback, whichever verb was asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.config import ConfigError, load_settings
from tests.bot.cli.conftest import TravelBot

# (variable, bad value, words the sentence must hold besides the variable and the value)
BAD = [
    ("PORT", "abc", "a whole number from 1 to 65535"),
    ("DEFAULT_LANGUAGE", "fr", "one of en, zh"),
    ("EMBEDDING_PROVIDER", "bogus", "one of local, openai"),
    ("MEMORY_DSN", "mysql://x", "sqlite:///"),
    ("MEMORY_DSN", "sqlite://memory.db", "three slashes"),
    ("REDIS_URL", "notaurl", "redis://host:6379/0"),
    ("REDIS_URL", "redis://localhost:port/0", "port"),
    ("REDIS_URL", "redis+cluster://", "redis+cluster://host:port"),
    ("REDIS_URL", "redis+cluster://10.0.0.1:7000,10.0.0.2:x", "port"),
    ("WARM_CONCURRENCY", "50", "from 1 to 10"),
    ("SCHEDULER_IN_WEB", "maybe", "true or false"),
    ("TRAVEL_TIMEZONE", "Mars/Olympus", "Asia/Shanghai"),
    ("OPENAI_BASE_URL", "localhost:11434/v1", "http://"),
    ("LLM_TIMEOUT_SECONDS", "soon", "a number greater than 0"),
]

VERBS = [
    ("memory", "show", "--user", "T1:U1"),
    ("memory", "add", "--user", "T1:U1", "I like aisle seats"),
    ("memory", "search", "--user", "T1:U1", "seats"),
    ("memory", "forget", "--user", "T1:U1", "--all", "--yes"),
    ("memory", "export", "--user", "T1:U1"),
    ("trips", "add", "--user", "T1:U1", "--destination", "成都", "--start", "2099-01-01"),
    ("trips", "list"),
    ("chat",),
    ("run",),
    ("serve",),
    ("socket",),
    ("warm", "--once"),
    ("clock",),
]


@pytest.mark.parametrize(("variable", "value", "accepted"), BAD)
def test_a_bad_setting_is_one_sentence(
    travel_bot: TravelBot, variable: str, value: str, accepted: str
) -> None:
    ran = travel_bot("memory", "show", "--user", "T1:U1", **{variable: value})
    assert ran.status == 2
    assert ran.out == ""
    [line] = ran.err.strip().splitlines()
    assert line.startswith(f"error: {variable}={value} is not accepted: ")
    assert accepted in line


def test_the_line_is_the_one_the_readme_shows(travel_bot: TravelBot) -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    ran = travel_bot("trips", "list", PORT="abc")
    assert ran.status == 2
    [line] = ran.err.splitlines()
    assert f"`{line}`" in " ".join(readme.split())


@pytest.mark.parametrize("argv", VERBS, ids=lambda argv: " ".join(argv[:2]))
def test_every_verb_refuses_a_bad_setting_before_doing_anything(
    travel_bot: TravelBot, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    ran = travel_bot(*argv, PORT="abc", SLACK_BOT_TOKEN="xoxb-1", SLACK_SIGNING_SECRET="s")
    assert ran.status == 2
    assert ran.err.startswith("error: PORT=abc is not accepted")
    assert len(ran.err.strip().splitlines()) == 1
    assert not (tmp_path / "cli.db").exists()  # nothing was opened


def test_several_bad_settings_are_each_named(travel_bot: TravelBot) -> None:
    ran = travel_bot("trips", "list", PORT="abc", DEFAULT_LANGUAGE="fr")
    assert ran.status == 2
    lines = ran.err.strip().splitlines()
    assert len(lines) == 2  # one line each
    assert {line.split("=")[0] for line in lines} == {"error: DEFAULT_LANGUAGE", "error: PORT"}


def test_a_secret_is_never_echoed() -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings(_env_file=None, slack_bot_token=["xoxb-secret"])
    assert "xoxb-secret" not in str(refused.value)
    assert "SLACK_BOT_TOKEN=(hidden)" in str(refused.value)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("REDIS_URL", ""),
        ("REDIS_URL", "redis://127.0.0.1:6379/0"),
        ("REDIS_URL", "rediss://:secret@cache.internal:6380/2"),
        ("REDIS_URL", "unix:///run/redis/redis.sock"),
        ("REDIS_URL", "redis+cluster://10.0.0.1:7000,10.0.0.2:7001"),
        ("REDIS_URL", "rediss+cluster://user:pw@10.0.0.1:7000"),
        ("MEMORY_DSN", "sqlite:///./data/memory.db"),
        ("MEMORY_DSN", "sqlite:////var/lib/travel/memory.db"),
        ("MEMORY_DSN", "postgresql://postgres@127.0.0.1:5432/test?options=-csearch_path%3Dx"),
        ("MEMORY_DSN", "postgres://u:p@db/travel"),
        ("TRAVEL_TIMEZONE", "Europe/Berlin"),
    ],
)
def test_good_shapes_are_accepted(variable: str, value: str) -> None:
    settings = load_settings(_env_file=None, **{variable.lower(): value})
    assert getattr(settings, variable.lower()) == value


def test_a_bad_setting_prints_no_traceback_from_the_installed_command(tmp_path: Path) -> None:
    env = {**os.environ, "REDIS_URL": "notaurl", "MEMORY_DSN": f"sqlite:///{tmp_path}/x.db"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "memory", "show", "--user", "T1:U1"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: REDIS_URL=notaurl is not accepted: not a URL; expected")
    assert len(done.stderr.strip().splitlines()) == 1
