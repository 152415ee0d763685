"""`travel-bot run` picks the mode from what is configured, and a partial set is an error."""

from __future__ import annotations

import argparse
import socket

import pytest

from bot.cli.run import pick_mode
from bot.messages import t
from bot.settings import Settings
from tests.bot.cli.conftest import TravelBot
from tests.support.services import free_port

BOT, SECRET, APP = "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"
VALUES = {BOT: "xoxb-1", SECRET: "s", APP: "xapp-1"}


def _settings(*names: str) -> Settings:
    values = {name.lower(): None for name in VALUES} | {n.lower(): VALUES[n] for n in names}
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("configured", "mode"),
    [
        ((BOT, APP), "socket"),
        ((BOT, APP, SECRET), "socket"),
        ((BOT, SECRET), "serve"),
        ((), "console"),
    ],
)
def test_run_picks_the_mode(configured: tuple[str, ...], mode: str) -> None:
    assert pick_mode(_settings(*configured)) == mode


@pytest.mark.parametrize(
    ("configured", "missing"),
    [
        ((BOT,), f"also set {APP} (Socket Mode) or {SECRET} (HTTP mode)"),
        ((SECRET,), f"also set {BOT} (HTTP mode)"),
        ((APP,), f"also set {BOT} (Socket Mode)"),
        ((SECRET, APP), f"also set {BOT} (Socket Mode or HTTP mode)"),
    ],
)
def test_partial_slack_credentials_stop_run_naming_what_is_missing(
    travel_bot: TravelBot, configured: tuple[str, ...], missing: str
) -> None:
    with pytest.raises(ValueError, match="Slack is configured in part"):
        pick_mode(_settings(*configured))
    ran = travel_bot("run", **{name: VALUES[name] for name in configured})
    assert ran.status == 2
    assert ran.out == ""  # no console
    [line] = ran.err.strip().splitlines()
    assert line.startswith("error: Slack is configured in part: ")
    assert line.endswith(missing)


def test_a_blank_credential_counts_as_unset(travel_bot: TravelBot) -> None:
    ran = travel_bot("run", stdin="/quit\n", SLACK_BOT_TOKEN=" ")
    assert ran.status == 0
    assert "terminal console, as local:you" in ran.err
    assert "LLM_MODEL=" in ran.out  # the console says what to set


def test_a_busy_port_is_one_line_naming_it(travel_bot: TravelBot) -> None:
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        ran = travel_bot(
            "serve", "--host", "127.0.0.1", "--port", str(port), **{BOT: "xoxb-1", SECRET: "s"}
        )
    assert ran.status == 2
    assert ran.err.strip() == (
        f"error: cannot listen on 127.0.0.1:{port}: the port is already in use (set PORT or --port)"
    )


FEISHU_PART = {"FEISHU_APP_ID": "cli_a1"}  # its secret missing
DINGTALK_PART = {"DINGTALK_CLIENT_SECRET": "s"}  # its client id missing
SLACK_HTTP = {BOT: "xoxb-1", SECRET: "s"}
FEISHU_SAID = (
    "error: Feishu is configured in part: FEISHU_APP_ID is set; "
    "also set FEISHU_APP_SECRET (long connection)"
)
DINGTALK_SAID = (
    "error: DingTalk is configured in part: DINGTALK_CLIENT_SECRET is set; "
    "also set DINGTALK_CLIENT_ID (Stream mode)"
)


@pytest.mark.parametrize("verb", ["run", "serve"])
@pytest.mark.parametrize(
    ("configured", "said"),
    [
        (FEISHU_PART, [FEISHU_SAID]),  # alone
        ({**SLACK_HTTP, **FEISHU_PART}, [FEISHU_SAID]),  # beside a complete Slack
        ({**SLACK_HTTP, **FEISHU_PART, **DINGTALK_PART}, [FEISHU_SAID, DINGTALK_SAID]),
        ({BOT: "xoxb-1", **DINGTALK_PART}, [None, DINGTALK_SAID]),  # two in part: both
    ],
    ids=["alone", "beside-complete", "two-beside-complete", "two-in-part"],
)
def test_every_partial_set_stops_run_and_serve_and_is_named(
    travel_bot: TravelBot, verb: str, configured: dict[str, str], said: list[str | None]
) -> None:
    ran = travel_bot(verb, **configured)
    assert ran.status == 2
    assert ran.out == ""
    lines = ran.err.strip().splitlines()
    assert len(lines) == len(said)
    for line, expected in zip(lines, said, strict=True):
        if expected is None:
            assert line.startswith("error: Slack is configured in part: SLACK_BOT_TOKEN is set")
        else:
            assert line == expected


def test_a_platform_set_up_for_another_mode_is_a_notice_for_serve() -> None:
    from bot.cli.credentials import http_channels

    # Slack in Socket Mode (its own `socket` process) beside DingTalk's callbacks.
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token="xoxb-1",
        slack_app_token="xapp-1",
        dingtalk_client_id="ding1",
        dingtalk_client_secret="s",
    )
    plan = http_channels(settings)
    assert plan.channels == ["dingtalk"] and plan.problems == []
    assert plan.notices == ["Slack's HTTP mode needs SLACK_SIGNING_SECRET; serving dingtalk only"]


def test_serve_with_nothing_to_serve_says_what_to_set(travel_bot: TravelBot) -> None:
    ran = travel_bot("serve")
    assert ran.status == 2
    [line] = ran.err.strip().splitlines()
    assert line.startswith("error: HTTP mode needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET")
    assert line.endswith("or set PREFS_LINK_SECRET to serve the preferences page alone")


def test_socket_mode_stops_on_sigterm(monkeypatch: pytest.MonkeyPatch) -> None:
    """A platform stopping the process (SIGTERM) ends Socket Mode and its expiry teller,
    as it does DingTalk's and Feishu's, instead of leaving their claims running."""
    import os
    import signal
    import threading
    import types

    from bot import compose
    from bot.cli.run import socket_command
    from bot.slack import long_connection

    stopped: list[bool] = []
    teller = types.SimpleNamespace(stop=lambda: stopped.append(True))
    core = types.SimpleNamespace(close=lambda: None)
    monkeypatch.setattr(compose, "open_core", lambda settings: core)
    monkeypatch.setattr(compose, "slack", lambda settings, core, socket_mode: object())
    monkeypatch.setattr(compose, "start_expiry_teller", lambda settings, core: teller)
    monkeypatch.setattr("bot.cli.run._announce", lambda core, mode: None)
    monkeypatch.setattr("bot.cli.run._clock_in_process", lambda settings, core: None)
    ended: list[bool] = []

    def serve(bolt: object, *, app_token: str, stop: threading.Event) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        ended.append(stop.wait(2))

    monkeypatch.setattr(long_connection, "serve_socket_mode", serve)
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: None)  # not the test's end
    try:
        assert socket_command(argparse.Namespace(), _settings(BOT, APP)) == 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    assert ended == [True]
    assert stopped == [True]


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"DEFAULT_LANGUAGE": "zh"}, "zh"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8", "DEFAULT_LANGUAGE": "en"}, "en"),  # the setting wins
        ({}, "en"),
    ],
)
def test_run_on_embedded_defaults_speaks_the_operators_language(
    travel_bot: TravelBot, env: dict[str, str], lang: str
) -> None:
    """`make run` with nothing configured: what is printed before anyone types follows
    DEFAULT_LANGUAGE, else the terminal's locale (a Chinese operator read only English)."""
    ran = travel_bot("run", stdin="/quit\n", **env)
    assert ran.status == 0, ran.err
    assert ran.err.strip() == t("console_no_platform", lang, user="local:you")
    assert ran.out.startswith(t("console_welcome", lang, user="local:you") + "\n")
    assert t("console_no_llm", lang) in ran.out
    other = "en" if lang == "zh" else "zh"
    assert t("console_welcome", other, user="local:you") not in ran.out
