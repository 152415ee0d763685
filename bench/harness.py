"""Pieces the Slack load and fault benchmarks share (`bot_load.py`, `faults.py`).

- `PrivateRedis`: the tests' own `redis-server` on a free port (`--save ''`, no
  append-only file; `tests/support/redis_server.py`), which it may kill and start again on
  the same port, or freeze (SIGSTOP) and thaw (SIGCONT). The shared Redis
  (127.0.0.1:6379) is never touched.
- `delete_prefix`: removes the keys under one prefix, never anything else (no FLUSHDB).
- `HeldSqliteLock`: a second connection holding `BEGIN EXCLUSIVE` on the bot's SQLite
  file, as a database pause.
- `probe_breakdown`: the spans `ack_probe.py` wrote, summed up for a time window.
- `burst`: sends signed requests all at once from a process of their own over plain
  sockets (`python bench/harness.py burst PORT < requests.json`), so the sender does not
  compete for the benchmark process's GIL with the Slack and model doubles; each request
  is timed from its first byte sent to its status line read (`time.monotonic`, the same
  clock in every process).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.redis_server import RedisServer  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def delete_prefix(url: str, prefix: str) -> None:
    """Delete the keys under `prefix` at `url` (never flush: the database may be shared)."""
    if not prefix:
        raise ValueError("refusing to delete without a key prefix")
    client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start : start + 500])
    finally:
        client.close()


class PrivateRedis(RedisServer):
    """The tests' private `redis-server` (`tests/support/redis_server.py`: kill and start
    again on the same port, freeze and thaw), in a temporary directory removed by `close`."""

    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            raise SystemExit("redis-server is not installed (needed for a private Redis)")
        super().__init__(Path(tempfile.mkdtemp(prefix="bench-redis-")))

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


class HeldSqliteLock:
    """Another connection holding `BEGIN EXCLUSIVE` on `path` until `release` (a paused DB)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None

    def hold(self) -> None:
        self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self._conn.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        if self._conn is not None:
            self._conn.execute("ROLLBACK")
            self._conn.close()
            self._conn = None


class Timeline:
    """What was done when (wall clock), for the report."""

    def __init__(self) -> None:
        self.started = time.time()
        self.events: list[tuple[float, str]] = []
        self._lock = threading.Lock()

    def note(self, what: str) -> None:
        with self._lock:
            self.events.append((time.time() - self.started, what))


# The spans of `ack_probe.py`, in the order a request meets them.
ACK_SPANS = ("read_body", "verify", "parse", "shape", "dispatch_wait", "bolt", "back_to_loop")
LISTENER_SPANS = ("listener_wait", "sink", "claim", "accept")


def probe_breakdown(
    path: str | Path,
    since: float,
    until: float,
    timings: dict[str, tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """p50/p99 (ms) of every span for the requests that started in [since, until].

    With the sender's `timings` (event id -> sent, acknowledged; `time.monotonic`), also
    `sent_accept` (sent to uvicorn's `connection_made`), `sent_to_route` (from there to
    the route starting: h11 and the event loop) and `sent_after_route` (the route's end to
    the status line read by the sender)."""
    requests: list[dict[str, Any]] = []
    lags: dict[str, list[float]] = {"loop_lag": [], "gil_lag": []}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if not since <= row["at"] <= until:
            continue
        if row["kind"] == "request":
            requests.append(row)
        else:
            lags[row["kind"]].append(row["lag"])
    out: dict[str, Any] = {"requests": len(requests)}
    for name in ("route", *ACK_SPANS, *LISTENER_SPANS):
        values = [r[name] for r in requests if name in r]
        if values:
            out[name] = (round(pct(values, 50) * 1000, 2), round(pct(values, 99) * 1000, 2))
    for name, values in lags.items():
        if values:
            out[name] = (round(pct(values, 50) * 1000, 2), round(pct(values, 99) * 1000, 2))
    held = [r["route_end"] - r["connected_at"] for r in requests if r.get("connected_at")]
    if held:  # uvicorn's `connection_made` to the response sent: the server's whole part
        out["server_total"] = (round(pct(held, 50) * 1000, 2), round(pct(held, 99) * 1000, 2))
    if timings:
        by_event = {r.get("event_id"): r for r in requests if r.get("connected_at")}
        split: dict[str, list[float]] = {"accept": [], "to_route": [], "after_route": []}
        for event_id, (sent, acked) in timings.items():
            row = by_event.get(event_id)
            if row is None:
                continue
            split["accept"].append(row["connected_at"] - sent)
            split["to_route"].append(row["route_at"] - row["connected_at"])
            split["after_route"].append(acked - row["route_end"])
        for name, values in split.items():
            if values:
                out[f"sent_{name}"] = (
                    round(pct(values, 50) * 1000, 2),
                    round(pct(values, 99) * 1000, 2),
                )
    return out


def http_request(port: int, body: bytes, headers: dict[str, str]) -> bytes:
    """The bytes of `POST /slack/events` with `body` (connection closed after it)."""
    lines = [
        "POST /slack/events HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Content-Length: {len(body)}",
        "Connection: close",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def post_raw(port: int, raw: bytes, timeout: float = 60.0) -> tuple[float, float, int]:
    """(sent at, status line read at, status) of one request over a new connection."""
    sent = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        head = b""
        while b"\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
        acked = time.monotonic()
    parts = head.split(b" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return sent, acked, status


Timing = tuple[float, float, int]  # (sent at, acknowledged at, HTTP status)


def burst(port: int, requests: list[tuple[bytes, dict[str, str]]]) -> list[Timing]:
    """Send every request at once from a child process; (sent, acked, status) of each."""
    payload = [{"body": body.decode(), "headers": headers} for body, headers in requests]
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run(
        [sys.executable, os.path.join(here, "harness.py"), "burst", str(port)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=True,
        timeout=300,
    )
    return [tuple(row) for row in json.loads(done.stdout)]  # type: ignore[misc]


def _burst_main(port: int) -> None:
    items = json.load(sys.stdin)
    raws = [http_request(port, item["body"].encode(), item["headers"]) for item in items]
    results: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * len(raws)
    barrier = threading.Barrier(len(raws))

    def one(index: int) -> None:
        barrier.wait()
        try:
            results[index] = post_raw(port, raws[index])
        except OSError:
            results[index] = (time.monotonic(), time.monotonic(), 0)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(raws))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    json.dump(results, sys.stdout)


__all__ = [
    "ACK_SPANS",
    "LISTENER_SPANS",
    "HeldSqliteLock",
    "PrivateRedis",
    "Timeline",
    "burst",
    "delete_prefix",
    "free_port",
    "pct",
    "post_raw",
    "probe_breakdown",
]

if __name__ == "__main__" and sys.argv[1:2] == ["burst"]:
    _burst_main(int(sys.argv[2]))
