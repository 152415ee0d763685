"""Benchmark: N concurrent Slack conversations against `travel-bot serve`.

Starts a Slack Web API double and a model double (`bench/doubles.py`; the model answers
after a fixed delay) in this process, runs `travel-bot serve` as a child process on
127.0.0.1 with a fresh SQLite memory and its own Redis key prefix. After a warm-up it runs
a few conversations one at a time, then sends N signed DM events at once and, while those wait
on the model, a stream of signed slash commands. Reports:

- throughput: conversations answered per second in the burst (first event sent to last
  answer complete: posted, or its stream stopped);
- per-event overhead excluding model time: end-to-end time (event sent to answer complete)
  minus the scripted model delay(s), p50 and p95, for conversations run one at a time
  (the bot's own cost; target p50 <= 20 ms) and within the burst of N (adds queueing for
  the CPU); plus the server's CPU time per conversation;
- ack latency under load: HTTP response time of the N events and of the slash commands
  sent while the N conversations were in flight, p50 and p99 (target p99 < 1 s);
- resident memory of the server process (RSS now and peak);
- the machine while the burst was acknowledged: 1-minute load average before it, the share
  of all CPUs busy and the share the hypervisor took (steal), from /proc/stat.

Redis: `--redis-url` (default `$REDIS_URL`, else redis://127.0.0.1:6379/0) with a key
prefix of its own (`bench-<random>:`), whose keys alone are deleted at the end (never a
flush); `--private-redis` starts a `redis-server` of its own on a free port instead.
`--probe` runs the server under `bench/ack_probe.py` and prints where the burst's
acknowledgements spent their time (spans on the server, p50 / p99 ms).

    .venv/bin/python bench/bot_load.py                     # 50 conversations, 1 s model
    .venv/bin/python bench/bot_load.py -n 200 --private-redis --probe
    .venv/bin/python bench/bot_load.py -n 200 --delay 2 --workers 64 --recall
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
from doubles import Answer, ModelDouble, SlackDouble
from harness import PrivateRedis, delete_prefix, free_port, pct, probe_breakdown
from harness import burst as send_burst

from bot.slack.http import sign

SECRET = "bench-signing-secret"
TOKEN = "xoxb-bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
REDIS_URL = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL  # the default of --redis-url
TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
PROBE = str(Path(__file__).with_name("ack_probe.py"))


def _signed(body: bytes) -> dict[str, str]:
    """The headers Slack sends with `body`."""
    stamp = str(int(time.time()))
    signature = sign(SECRET.encode(), body, timestamp=stamp)
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": signature}


_pct = pct
_free_port = free_port


def event_body(team_id: str, user: str, text: str, ts: str, event_id: str | None = None) -> bytes:
    """A Slack `event_callback` envelope of a DM `message` event."""
    envelope = {
        "type": "event_callback",
        "team_id": team_id,
        "event_id": event_id or f"Ev{uuid.uuid4().hex[:12]}",
        "event": {
            "type": "message",
            "channel_type": "im",
            "channel": "D" + user,
            "user": user,
            "text": text,
            "ts": ts,
        },
    }
    return json.dumps(envelope).encode()


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_ticks() -> tuple[int, int, int] | None:
    """All CPUs' (busy, steal, total) clock ticks so far, from /proc/stat; None elsewhere."""
    try:
        first = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    # user nice system idle iowait irq softirq steal (guest time is already in user)
    ticks = [int(value) for value in first[1:9]]
    idle, steal = ticks[3] + ticks[4], ticks[7]
    total = sum(ticks)
    return total - idle - steal, steal, total


def _machine_share(
    before: tuple[int, int, int] | None, after: tuple[int, int, int] | None
) -> dict[str, float]:
    """How busy the whole machine was, and how much CPU the hypervisor took (steal), in %."""
    if before is None or after is None or after[2] <= before[2]:
        return {}
    total = after[2] - before[2]
    return {
        "machine_busy_pct_in_burst": round(100 * (after[0] - before[0]) / total, 1),
        "cpu_steal_pct_in_burst": round(100 * (after[1] - before[1]) / total, 1),
    }


def _rss_kb(pid: int) -> tuple[int, int]:
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            name, value = line.split(":", 1)
            fields[name] = int(value.split()[0])
    return fields.get("VmRSS", 0), fields.get("VmHWM", 0)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.slack = SlackDouble()
        self.model = ModelDouble(args.delay, self._reply)
        self.tmp = tempfile.mkdtemp(prefix="bot-load-")
        self.prefix = f"bench-{uuid.uuid4().hex[:8]}:"
        self.port = free_port()
        self.redis: PrivateRedis | None = None
        if getattr(args, "private_redis", False):
            self.redis = PrivateRedis()
            self.redis.start()
        self.redis_url: str = (
            self.redis.url if self.redis is not None else getattr(args, "redis_url", REDIS_URL)
        )
        self.probe_out = f"{self.tmp}/probe.jsonl" if getattr(args, "probe", False) else None
        self.base = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(
            base_url=self.base,
            timeout=30,
            limits=httpx.Limits(max_connections=args.conversations + 20),
        )
        self.process: subprocess.Popen[bytes] | None = None

    # The model: one answer per conversation (after a retrieval with --recall).
    def _reply(self, body: dict[str, Any]) -> Answer:
        last = body["messages"][-1]
        if self.args.recall and last.get("role") == "user":
            return "", {"keywords": ["trip"]}
        return "Here is your plan: morning train, hotel near the station.", None

    def start_server(self, **settings: str) -> None:
        """`travel-bot serve` on the doubles; `settings` are more environment variables
        (and this environment's `HTTP_*` server settings pass through)."""
        keep = ("PATH", "HOME", "LANG", "TMPDIR", "HF_HOME", "XDG_CACHE_HOME")
        passed = ("PROBE_", "HTTP_")
        env = {k: v for k, v in os.environ.items() if k in keep or k.startswith(passed)}
        env.update(
            PORT=str(self.port),
            WEB_HOST="127.0.0.1",
            MEMORY_DSN=f"sqlite:///{self.tmp}/memory.db",
            REDIS_URL=self.redis_url,
            REDIS_KEY_PREFIX=self.prefix,
            SLACK_BOT_TOKEN=TOKEN,
            SLACK_SIGNING_SECRET=SECRET,
            SLACK_API_URL=self.slack.base_url,
            OPENAI_BASE_URL=self.model.base_url,
            OPENAI_API_KEY="bench",
            LLM_MODEL="scripted-model",
            LLM_TIMEOUT_SECONDS=str(max(30.0, self.args.delay * 4)),
            AGENT_WORKERS=str(self.args.workers),
        )
        env.update(settings)
        command = [TRAVEL_BOT, "--log-level", "WARNING", "serve"]
        if self.probe_out is not None:
            command = [sys.executable, PROBE, self.probe_out, *command[1:]]
        self.process = subprocess.Popen(
            command,
            cwd=self.tmp,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if self.http.get("/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.process.poll() is not None:
                raise SystemExit("travel-bot serve exited during start-up")
            time.sleep(0.1)
        raise SystemExit("travel-bot serve did not come up")

    def event(self, user: str, text: str, ts: str) -> tuple[float, float]:
        """(sent at, acknowledged at) of one signed DM event."""
        body = event_body(self.slack.team_id, user, text, ts)
        return self.send_signed(body, {"Content-Type": "application/json", **_signed(body)})

    def send_signed(self, body: bytes, headers: dict[str, str]) -> tuple[float, float]:
        """(sent at, acknowledged at) of a signed body, built beforehand."""
        sent = time.monotonic()
        response = self.http.post("/slack/events", content=body, headers=headers)
        acked = time.monotonic()
        if response.status_code != 200:
            raise SystemExit(f"event got HTTP {response.status_code}")
        return sent, acked

    def command(self) -> float:
        form = {
            "team_id": self.slack.team_id,
            "channel_id": "C0BENCH",
            "user_id": "U0CMD",
            "command": "/travel-prefs",
            "text": "",
            "response_url": self.slack.response_url(),
            "trigger_id": uuid.uuid4().hex,
        }
        body = urlencode(form).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded", **_signed(body)}
        started = time.monotonic()
        response = self.http.post("/slack/events", content=body, headers=headers)
        if response.status_code != 200:
            raise SystemExit(f"command got HTTP {response.status_code}")
        return time.monotonic() - started

    def converse_once(self, user: str, ts: str) -> float:
        """One conversation on its own: its overhead beyond the model time, in seconds."""
        sent, _ = self.event(user, "plan my trip", ts)
        [reply] = self.slack.wait_for_posts(1, 60, where=lambda p: p.args.get("thread_ts") == ts)
        overhead: float = reply.at - sent - self.model_seconds
        return overhead

    @property
    def model_seconds(self) -> float:
        return float(self.args.delay) * (2 if self.args.recall else 1)

    def run(self) -> dict[str, Any]:
        args = self.args
        self.start_server()
        assert self.process is not None
        pid = self.process.pid
        # Warm-up: first-use costs (auth.test, connections, the embedding model, SQLite).
        for index in range(5):
            self.converse_once(f"U0WARM{index}", f"1000.{index + 1:06d}")
        rss_idle, _ = _rss_kb(pid)

        # One at a time: the bot's own cost of a conversation.
        cpu_before = _cpu_seconds(pid)
        alone = [
            self.converse_once(f"U1{index:04d}", f"1500.{index + 1:06d}")
            for index in range(args.sequential)
        ]
        cpu_alone = (_cpu_seconds(pid) - cpu_before) / max(1, args.sequential)

        # N at once, with slash commands arriving while they wait on the model.
        self.slack.reset()
        n = args.conversations
        sends: list[tuple[str, float, float]] = [("", 0.0, 0.0)] * n
        signed: list[tuple[str, bytes, dict[str, str]]] = []
        for index in range(n):
            ts = f"2000.{index + 1:06d}"
            body = event_body(self.slack.team_id, f"U{index:05d}", f"plan trip number {index}", ts)
            signed.append((ts, body, {"Content-Type": "application/json", **_signed(body)}))
        load_before = os.getloadavg()[0]
        ticks_before = _machine_ticks()
        burst_at = time.time()
        if getattr(args, "sender", "process") == "process":
            results = send_burst(self.port, [(body, headers) for _, body, headers in signed])
            for index, (sent, acked, status) in enumerate(results):
                if status != 200:
                    raise SystemExit(f"event got HTTP {status}")
                sends[index] = (signed[index][0], sent, acked)
            self.burst_timings = {
                json.loads(signed[i][1])["event_id"]: (sent, acked)
                for i, (_, sent, acked) in enumerate(sends)
            }
        else:  # httpx from threads of this process (how it was measured before)
            barrier = threading.Barrier(n + 1)

            def converse(index: int) -> None:
                ts, body, headers = signed[index]
                barrier.wait()
                sent, acked = self.send_signed(body, headers)
                sends[index] = (ts, sent, acked)

            threads = [threading.Thread(target=converse, args=(i,)) for i in range(n)]
            for thread in threads:
                thread.start()
            barrier.wait()
            for thread in threads:
                thread.join()
        burst_acked_at = time.time()
        machine = _machine_share(ticks_before, _machine_ticks())

        command_acks: list[float] = []
        while len(self.slack.posts) < n and len(command_acks) < 40:
            command_acks.append(self.command())
            time.sleep(0.05)

        replies = self.slack.wait_for_posts(n, timeout=max(60.0, args.delay * n))
        rss_now, rss_peak = _rss_kb(pid)
        posted_at = {str(c.args["thread_ts"]): c.at for c in replies}
        burst = [posted_at[ts] - sent - self.model_seconds for ts, sent, _ in sends]
        event_acks = [acked - sent for _, sent, acked in sends]
        wall = max(posted_at.values()) - min(sent for _, sent, _ in sends)
        ms = 1000
        self.burst_window = (burst_at, burst_acked_at)
        return {
            "conversations": n,
            "model_delay_s": args.delay,
            "model_calls_per_conversation": 2 if args.recall else 1,
            "agent_workers": args.workers,
            "burst_wall_s": round(wall, 3),
            "throughput_conversations_per_s": round(n / wall, 2),
            "overhead_alone_ms_p50": round(_pct(alone, 50) * ms, 1),
            "overhead_alone_ms_p95": round(_pct(alone, 95) * ms, 1),
            "server_cpu_ms_per_conversation": round(cpu_alone * ms, 1),
            "overhead_in_burst_ms_p50": round(_pct(burst, 50) * ms, 1),
            "overhead_in_burst_ms_p95": round(_pct(burst, 95) * ms, 1),
            "event_ack_ms_p50": round(_pct(event_acks, 50) * ms, 1),
            "event_ack_ms_p99": round(_pct(event_acks, 99) * ms, 1),
            "command_acks_under_load": len(command_acks),
            "command_ack_ms_p50": round(_pct(command_acks, 50) * ms, 1),
            "command_ack_ms_p99": round(_pct(command_acks, 99) * ms, 1),
            "rss_mb_idle": round(rss_idle / 1024, 1),
            "rss_mb_after": round(rss_now / 1024, 1),
            "rss_mb_peak": round(rss_peak / 1024, 1),
            # what else the machine was doing: a slow burst on a busy or stolen CPU says
            # little about the bot
            "load_avg_1m_before_burst": round(load_before, 2),
            **machine,
        }

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.http.close()
        self.model.close()
        self.slack.close()
        if self.redis is not None:
            self.redis.close()
        else:
            delete_prefix(self.redis_url, self.prefix)

    def breakdown(self) -> dict[str, Any]:
        """The burst's spans on the server (after `close`: the probe writes them at exit)."""
        window = getattr(self, "burst_window", None)
        if self.probe_out is None or window is None or not os.path.exists(self.probe_out):
            return {}
        timings = getattr(self, "burst_timings", None)
        return probe_breakdown(self.probe_out, window[0], window[1], timings)


def add_redis_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url",
        default=REDIS_URL,
        help="the server's Redis, used under a key prefix of its own (default: $REDIS_URL, "
        f"else {DEFAULT_REDIS_URL})",
    )
    parser.add_argument(
        "--private-redis",
        action="store_true",
        help="start a redis-server of its own on a free port instead of --redis-url",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--conversations", type=int, default=50)
    parser.add_argument("--delay", type=float, default=1.0, help="model delay per call (s)")
    parser.add_argument("--workers", type=int, default=64, help="AGENT_WORKERS of the server")
    parser.add_argument("--recall", action="store_true", help="call retrieve_from_memory first")
    parser.add_argument(
        "--sequential", type=int, default=20, help="conversations run one at a time first"
    )
    parser.add_argument(
        "--sender",
        choices=("process", "httpx"),
        default="process",
        help="the burst from a process of its own over plain sockets (default), or from "
        "httpx threads of the benchmark's process, beside the doubles (as measured before)",
    )
    add_redis_arguments(parser)
    parser.add_argument(
        "--probe", action="store_true", help="time the ack path's spans (bench/ack_probe.py)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    bench = Bench(args)
    try:
        result = bench.run()
    finally:
        bench.close()
    spans = bench.breakdown()
    if spans:
        result["probe_requests_in_burst"] = spans.pop("requests")
        for name, (p50, p99) in spans.items():
            result[f"probe_{name}_ms_p50_p99"] = f"{p50} / {p99}"
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        width = max(len(k) for k in result)
        for key, value in result.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
