"""`travel-bot serve` at a low file limit holds under connections that never finish
their headers (issue 11): a process of its own whose RLIMIT_NOFILE is set before it
starts, real sockets, its log read afterwards."""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.processes import wait_until_healthy
from tests.support.services import REDIS_URL, free_port
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BOT_TOKEN, SIGNING_SECRET, new_ts, sign

TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
# Sets the soft file limit, then becomes `travel-bot` (exec keeps the limit).
LAUNCHER = (
    "import os, resource, sys\n"
    "_, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), hard))\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


class Served:
    def __init__(self, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.process = process
        self.port = port
        self.log = log
        self.base = f"http://127.0.0.1:{port}"

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def serve_with_file_limit(
    files: int, tmp_path: Path, bot_prefix: str, slack: FakeSlackAPI, **env: str
) -> Served:
    port = free_port()
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "HF_HOME", "XDG_CACHE_HOME")
    environment = {k: v for k, v in os.environ.items() if k in keep}
    environment.update(
        MEMORY_DSN=f"sqlite:///{tmp_path}/serve.db",
        REDIS_URL=REDIS_URL,
        REDIS_KEY_PREFIX=bot_prefix,
        PYTHONUNBUFFERED="1",
        PORT=str(port),
        WEB_HOST="127.0.0.1",
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=slack.base_url,
        **env,
    )
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(files), TRAVEL_BOT, "serve"],
            cwd=tmp_path,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    served = Served(process, port, log)
    wait_until_healthy(process, served.base, served.output, seconds=90, poll=0.2)
    return served


def stalled_connections(port: int, count: int) -> list[socket.socket]:
    """`count` connections that send the start of a request and never the rest."""
    opened = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nX-Never-Ends: ")
        opened.append(sock)
    return opened


def wait_all_closed(sockets: list[socket.socket], timeout: float) -> int:
    """Wait until the server closed every socket (EOF or reset); how many it did."""
    still = {s.fileno(): s for s in sockets}
    deadline = time.monotonic() + timeout
    while still and time.monotonic() < deadline:
        poller = select.poll()
        for fd in still:
            poller.register(fd, select.POLLIN)
        for fd, _event in poller.poll(500):
            try:
                data = still[fd].recv(65536)
            except (ConnectionResetError, OSError):
                data = b""
            if not data:
                del still[fd]
    return len(sockets) - len(still)


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def test_at_a_file_limit_of_256_three_hundred_stalled_connections_do_not_take_it_down(
    tmp_path: Path, bot_prefix: str, slack: FakeSlackAPI, sockets: list[socket.socket]
) -> None:
    served = serve_with_file_limit(
        256, tmp_path, bot_prefix, slack, HTTP_HEADER_TIMEOUT_SECONDS="3"
    )
    try:
        sockets += stalled_connections(served.port, 300)
        # Health answers and a signed event is acknowledged while they hang on.
        assert httpx.get(f"{served.base}/healthz", timeout=20).status_code == 200
        ts = new_ts()
        event = {
            "type": "event_callback",
            "team_id": slack.team_id,
            "event_id": f"Ev{ts.replace('.', '')}",
            "event": {"type": "app_home_opened", "user": "U0ALICE", "tab": "home"},
        }
        body = json.dumps(event).encode()
        headers = {"Content-Type": "application/json", **sign(body)}
        acked = httpx.post(f"{served.base}/slack/events", content=body, headers=headers, timeout=20)
        assert acked.status_code == 200
        for _ in range(30):  # uvicorn logs each of these; the log shows one
            with socket.create_connection(("127.0.0.1", served.port), timeout=30) as garbage:
                garbage.sendall(b"NOT HTTP AT ALL\r\n\r\n")
                assert garbage.recv(65536).startswith(b"HTTP/1.1 400")
        # Every stalled connection is closed (evicted at the cap, or at its deadline).
        assert wait_all_closed(sockets, timeout=30) == 300

        # Shutting down with stalled connections open still ends cleanly.
        sockets += stalled_connections(served.port, 50)
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(timeout=40) == 0
    finally:
        if served.process.poll() is None:
            served.process.kill()
            served.process.wait()
    output = served.output()
    assert "Traceback" not in output, output[-3000:]
    # Errors under pressure are logged per kind, not per connection.
    assert len(output.splitlines()) < 60, output[-3000:]
    assert output.count("Invalid HTTP request received") == 1, output[-3000:]
