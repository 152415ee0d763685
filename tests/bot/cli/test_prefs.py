"""`travel-bot prefs link` and the page served by `travel-bot serve` on `$PORT`."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.bot.cli.conftest import TravelBot
from tests.support.processes import bot_env, wait_until_healthy
from tests.support.services import free_port
from tests.support.slack_harness import BOT_TOKEN, SIGNING_SECRET

TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
SECRET = "cli-test-secret-3e8a1f0c"


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TRAVEL_BOT, "prefs", "link", *args], env=env, capture_output=True, text=True, timeout=60
    )


@contextmanager
def _serving(tmp_path: Path, env: dict[str, str], base: str) -> Iterator[list[str]]:
    """`travel-bot serve` until the block ends; then the lines it logged, in the list."""
    logged: list[str] = []
    process = subprocess.Popen(
        [TRAVEL_BOT, "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_until_healthy(
            process, base, lambda: process.stdout.read().decode() if process.stdout else ""
        )
        yield logged
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
        logged += (process.stdout.read().decode() if process.stdout else "").splitlines()


def _open(env: dict[str, str], base: str, user: str) -> tuple[str, httpx.Response]:
    done = _cli(env, "--user", user, "--ttl-minutes", "5")
    assert done.returncode == 0, done.stderr
    link = done.stdout.strip()
    assert link.startswith(f"{base}/prefs?token=v1.")
    with httpx.Client() as browser:
        return link, browser.get(link, follow_redirects=True)


def test_serve_answers_the_link_the_command_line_prints(tmp_path: Path, bot_prefix: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = bot_env(
        tmp_path,
        bot_prefix,
        PORT=str(port),
        WEB_HOST="127.0.0.1",
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL="http://127.0.0.1:9/api/",
        PREFS_LINK_SECRET=SECRET,
        PUBLIC_URL=base,
    )
    subprocess.run(
        [TRAVEL_BOT, "memory", "add", "--user", "T1:U1", "I like quiet rooms"],
        env=env,
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=120,
    )
    with _serving(tmp_path, env, base) as logged:
        done = _cli(env, "--user", "T1:U1", "--ttl-minutes", "5")
        assert done.returncode == 0, done.stderr
        link = done.stdout.strip()
        assert link.startswith(f"{base}/prefs?token=v1.")
        token = link.split("token=", 1)[1]
        bearer = {"Authorization": f"Bearer {token}"}
        api = httpx.get(f"{base}/api/preferences", headers=bearer)
        assert api.status_code == 200
        assert [f["text"] for f in api.json()["facts"]] == ["I like quiet rooms"]
        with httpx.Client() as browser:
            page = browser.get(link, follow_redirects=True)
            assert page.status_code == 200 and "I like quiet rooms" in page.text
        # Opened on the page, the link is spent: as a bearer token too.
        assert httpx.get(f"{base}/api/preferences", headers=bearer).status_code == 401
        used = httpx.get(link)  # a Slack deployment says where to get a new one
        assert used.status_code == 401 and "in Slack: /travel-prefs link" in used.text
    assert f"preferences page on {base}/prefs" in "\n".join(logged)


def test_serve_runs_the_page_alone_without_a_chat_platform(tmp_path: Path, bot_prefix: str) -> None:
    """The five-minute try of the README: console, /remember, prefs link, browser."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = bot_env(
        tmp_path, bot_prefix, PORT=str(port), WEB_HOST="127.0.0.1", PREFS_LINK_SECRET=SECRET
    )
    env["PUBLIC_URL"] = base
    chat = subprocess.run(
        [TRAVEL_BOT, "chat"],
        input="/remember 出差只坐高铁一等座\n",
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert chat.returncode == 0 and "已记住：出差只坐高铁一等座" in chat.stdout
    with _serving(tmp_path, env, base) as logged:
        assert httpx.get(f"{base}/readyz").status_code == 200
        link, page = _open(env, base, "local:you")
        assert page.status_code == 200 and "出差只坐高铁一等座" in page.text
        used = httpx.get(link)
        assert used.status_code == 401
        assert "travel-bot prefs link" in used.text and "Slack" not in used.text
        assert httpx.post(f"{base}/slack/events", json={}).status_code == 404  # no chat platform
    notices = [line for line in logged if "WARNING" in line or "ERROR" in line]
    assert len(notices) == 1, logged  # one notice, no "no LLM configured" beside it
    assert notices[0].endswith(
        "no chat platform's HTTP callbacks are configured: serving only the preferences page "
        "and the health checks"
    )


def test_the_link_command_says_what_is_missing(tmp_path: Path, bot_prefix: str) -> None:
    env = bot_env(tmp_path, bot_prefix)
    done = _cli(env, "--user", "T1:U1")
    assert done.returncode == 2 and "PREFS_LINK_SECRET is not set" in done.stderr
    env.update(PREFS_LINK_SECRET=SECRET)
    done = _cli(env, "--user", "T1:U1")
    assert done.returncode == 2 and "PUBLIC_URL is not set" in done.stderr
    # A URL without its scheme is said as such, not as "not set".
    done = _cli({**env, "PUBLIC_URL": "localhost:8080"}, "--user", "T1:U1")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: the preferences page is not configured: PUBLIC_URL=localhost:8080 has no "
        "scheme: write https://localhost:8080 or http://localhost:8080"
    )
    env.update(PUBLIC_URL="https://travel.example.com")
    for args, problem in (
        (["--user", "T1:U1", "--ttl-minutes", "0"], "--ttl-minutes must be between"),
        # --user is refused as every other --user is, before anything is signed.
        (["--user", "  "], "argument --user: '' is not a namespace"),
        (["--user", "bogus"], "argument --user: 'bogus' is not a namespace; expected one like"),
        (["--user", "t1:u1"], "argument --user: 't1:u1' is not a namespace"),
    ):
        done = _cli(env, *args)
        assert done.returncode == 2 and problem in done.stderr, done.stderr
        assert done.stdout == ""  # no link
    usage = _cli(env, "--help").stdout
    assert "--user NS" in usage and "--user USER" not in usage
    done = _cli(env, "--user", "T1:U1", "--lang", "zh")
    assert done.returncode == 0 and done.stdout.startswith(
        "https://travel.example.com/prefs?token="
    )


def test_a_link_to_a_namespace_nothing_was_kept_for_says_so(travel_bot: TravelBot) -> None:
    """A typo in --user would send a person a page whose saves never reach them."""
    assert travel_bot("memory", "add", "--user", "T1:U1", "I prefer aisle seats").status == 0
    env = {"PREFS_LINK_SECRET": SECRET, "PUBLIC_URL": "https://travel.example.com"}
    typo = travel_bot("prefs", "link", "--user", "T1:U7", **env)
    assert typo.status == 0 and typo.out.startswith("https://travel.example.com/prefs?token=")
    assert typo.err.strip() == (
        "note: nothing remembered for T1:U7 (did you mean T1:U1?); the page starts empty"
    )
    known = travel_bot("prefs", "link", "--user", "T1:U1", **env)
    assert known.status == 0 and known.err == ""
