"""Benchmark: `travel-bot serve` under connections that never finish (issue 11).

Runs `travel-bot serve` as a child process (its file limit set with `--files` before it
starts), the Slack Web API double (`doubles.SlackDouble`) in this process, then opens
`--stalled` connections that each send the start of a request and never the rest, and
measures what a person and an operator would notice:

- how long `/healthz` takes to answer once they are open;
- how long signed Slack events take to be acknowledged meanwhile (`--events` of them,
  one after the other, each on a new connection as Slack sends them);
- how long until the server has closed every stalled connection;
- how many log lines the whole run wrote, and how many tracebacks.

With `--slow-bodies N`, N more connections each announce a 1 MiB body with a fresh
timestamp and a wrong signature, send 90 % of it and hold on; the server's resident
memory (VmRSS) is sampled before and at its peak.

    .venv/bin/python bench/slow_clients.py --files 256 --stalled 300
    .venv/bin/python bench/slow_clients.py --stalled 1000            # the default limit
    .venv/bin/python bench/slow_clients.py --files 1024 --stalled 1100 --slow-bodies 100

`--redis-url` (default `$REDIS_URL`, else the local one) and its own key prefix, removed
afterwards; `--header-timeout` sets HTTP_HEADER_TIMEOUT_SECONDS (default: the bot's 10 s).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import resource
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

import httpx
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent))
import contextlib

from doubles import SlackDouble

TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
SECRET = "bench-signing-secret"
TOKEN = "xoxb-bench"
LAUNCHER = (
    "import os, resource, sys\n"
    "_, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), hard))\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


def sign(body: bytes, secret: str = SECRET) -> dict[str, str]:
    stamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), b"v0:" + stamp.encode() + b":" + body, hashlib.sha256)
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": "v0=" + digest.hexdigest()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Run:
    def __init__(self, args: argparse.Namespace, tmp: Path) -> None:
        self.args = args
        self.tmp = tmp
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.prefix = f"bench-slow-{uuid.uuid4().hex[:8]}:"
        self.slack = SlackDouble()
        self.log = tmp / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        keep = ("PATH", "HOME", "LANG", "TMPDIR", "HF_HOME", "XDG_CACHE_HOME")
        env = {k: v for k, v in os.environ.items() if k in keep}
        env.update(
            PORT=str(self.port),
            WEB_HOST="127.0.0.1",
            MEMORY_DSN=f"sqlite:///{self.tmp}/memory.db",
            REDIS_URL=self.args.redis_url,
            REDIS_KEY_PREFIX=self.prefix,
            SLACK_BOT_TOKEN=TOKEN,
            SLACK_SIGNING_SECRET=SECRET,
            SLACK_API_URL=self.slack.base_url,
            PYTHONUNBUFFERED="1",
        )
        if self.args.header_timeout:
            env["HTTP_HEADER_TIMEOUT_SECONDS"] = str(self.args.header_timeout)
        command = [TRAVEL_BOT, "serve"]
        if self.args.files:
            command = [sys.executable, "-c", LAUNCHER, str(self.args.files), *command]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=self.tmp, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.process.poll() is not None:
                raise SystemExit("travel-bot serve exited during start-up:\n" + self.output())
            time.sleep(0.2)
        raise SystemExit("travel-bot serve did not come up")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> int | None:
        if self.process is None:
            return None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            self.slack.close()
            client = redis.Redis.from_url(self.args.redis_url)
            keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
            if keys:
                client.delete(*keys)
            client.close()

    def stalled(self, count: int) -> list[socket.socket]:
        opened = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nX-Never-Ends: ")
            opened.append(sock)
        return opened

    def slow_bodies(self, count: int) -> list[socket.socket]:
        size = 1 << 20
        opened = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            headers = sign(b"x", secret="not-the-secret")
            head = (
                "POST /slack/events HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
                f"Content-Length: {size}\r\n"
                + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
                + "\r\n"
            )
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.send(head.encode() + b"x" * (size * 9 // 10))
            opened.append(sock)
        return opened

    def ack_seconds(self) -> float:
        ts = f"{time.time():.6f}"
        event = {
            "type": "event_callback",
            "team_id": self.slack.team_id,
            "event_id": f"Ev{uuid.uuid4().hex[:12]}",
            "event": {
                "type": "message",
                "channel_type": "im",
                "channel": "D0BENCH",
                "user": "U0BENCH",
                "text": "hello",
                "ts": ts,
            },
        }
        body = json.dumps(event).encode()
        headers = {"Content-Type": "application/json", **sign(body)}
        started = time.monotonic()
        response = httpx.post(
            f"{self.base}/slack/events", content=body, headers=headers, timeout=60
        )
        elapsed = time.monotonic() - started
        if response.status_code != 200:
            raise SystemExit(f"a signed event got {response.status_code}")
        return elapsed


def wait_closed(sockets: list[socket.socket], started: float, timeout: float) -> float | None:
    """Seconds from `started` until the server closed the last of `sockets` (None: not
    all within `timeout`)."""
    still = {s.fileno(): s for s in sockets}
    last = None
    while still and time.monotonic() - started < timeout:
        poller = select.poll()
        for fd in still:
            poller.register(fd, select.POLLIN)
        for fd, _event in poller.poll(500):
            try:
                data = still[fd].recv(65536)
            except OSError:
                data = b""
            if not data:
                del still[fd]
                last = time.monotonic() - started
    return None if still else last


def measure(
    run: Run, args: argparse.Namespace, *, limit: int
) -> tuple[list[str], list[socket.socket]]:
    """The figures (as lines to print), and the sockets opened to get them."""
    pid = run.process.pid if run.process else 0
    print(f"server file limit {limit}; {args.stalled} stalled connections", flush=True)
    rss_before = rss_mb(pid)
    bodies = run.slow_bodies(args.slow_bodies) if args.slow_bodies else []
    opened_at = time.monotonic()
    stalled = run.stalled(args.stalled)
    opened = time.monotonic() - opened_at
    started = time.monotonic()
    try:
        httpx.get(f"{run.base}/healthz", timeout=60).raise_for_status()
        healthz = f"{time.monotonic() - started:.2f} s"
    except httpx.HTTPError as exc:
        healthz = f"failed ({type(exc).__name__} after {time.monotonic() - started:.0f} s)"
    acks: list[float] = []
    failed = 0
    for _ in range(args.events):
        try:
            acks.append(run.ack_seconds())
        except httpx.HTTPError:
            failed += 1
    rss_peak = rss_mb(pid)
    closed = wait_closed(stalled, started, timeout=120)
    rss_after = rss_mb(pid)
    report = [
        f"opening the stalled connections took {opened:.2f} s",
        f"/healthz answered after {healthz}",
        (
            f"signed events acknowledged: p50 {statistics.median(acks) * 1000:.0f} ms, "
            f"max {max(acks) * 1000:.0f} ms ({len(acks)} events, {failed} failed)"
            if acks
            else f"signed events: all {failed} failed"
        ),
        "all stalled connections closed after "
        + (f"{closed:.1f} s" if closed is not None else "NOT within 120 s"),
    ]
    if args.slow_bodies:
        report.append(
            f"server memory: {rss_before:.0f} MB before, {rss_peak:.0f} MB with the slow "
            f"bodies, {rss_after:.0f} MB after"
        )
    return report, stalled + bodies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=0, help="the server's file limit (0: as is)")
    parser.add_argument("--stalled", type=int, default=300)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--slow-bodies", type=int, default=0)
    parser.add_argument("--header-timeout", type=float, default=0)
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    )
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.stalled + args.slow_bodies + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))

    with tempfile.TemporaryDirectory() as tmp:
        run = Run(args, Path(tmp))
        sockets: list[socket.socket] = []
        try:
            run.start()
            report, sockets = measure(run, args, limit=args.files or soft)
        finally:
            code = run.stop()
            for sock in sockets:
                sock.close()
        output = run.output()
    for line in report:
        print(line)
    lines = output.splitlines()
    print(f"log: {len(lines)} lines, {output.count('Traceback')} tracebacks; exit code {code}")
    for line in lines:
        if "WARNING" in line or "ERROR" in line:
            print("   ", line[:160])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
