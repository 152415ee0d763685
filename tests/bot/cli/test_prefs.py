"""`travel-bot prefs link` and the page served by `travel-bot serve` on `$PORT`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.services import REDIS_URL, free_port
from tests.support.slack_harness import BOT_TOKEN, SIGNING_SECRET

TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
SECRET = "cli-test-secret-3e8a1f0c"


def _env(tmp_path: Path, prefix: str, **extra: str) -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "HF_HOME", "XDG_CACHE_HOME")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(
        MEMORY_DSN=f"sqlite:///{tmp_path}/serve.db",
        REDIS_URL=REDIS_URL,
        REDIS_KEY_PREFIX=prefix,
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TRAVEL_BOT, "prefs", "link", *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_serve_answers_the_link_the_command_line_prints(tmp_path: Path, bot_prefix: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = _env(
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
    process = subprocess.Popen(
        [TRAVEL_BOT, "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            assert time.monotonic() < deadline, "travel-bot serve did not come up"
            time.sleep(0.1)
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
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    log = process.stdout.read().decode() if process.stdout else ""
    assert f"preferences page on {base}/prefs" in log


def test_the_link_command_says_what_is_missing(tmp_path: Path, bot_prefix: str) -> None:
    env = _env(tmp_path, bot_prefix)
    done = _cli(env, "--user", "T1:U1")
    assert done.returncode == 2 and "PREFS_LINK_SECRET is not set" in done.stderr
    env.update(PREFS_LINK_SECRET=SECRET)
    done = _cli(env, "--user", "T1:U1")
    assert done.returncode == 2 and "PUBLIC_URL is not set" in done.stderr
    env.update(PUBLIC_URL="https://travel.example.com")
    for args, problem in (
        (["--user", "T1:U1", "--ttl-minutes", "0"], "--ttl-minutes must be between"),
        (["--user", "  "], "--user: the namespace is empty"),
    ):
        done = _cli(env, *args)
        assert done.returncode == 2 and problem in done.stderr, done.stderr
    done = _cli(env, "--user", "T1:U1", "--lang", "zh")
    assert done.returncode == 0 and done.stdout.startswith(
        "https://travel.example.com/prefs?token="
    )
