"""`travel-bot run` picks the mode from what is configured, and a partial set is an error."""

from __future__ import annotations

import socket

import pytest

from bot.cli.run import pick_mode
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
