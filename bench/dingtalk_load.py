"""Benchmark: N concurrent DingTalk conversations against `travel-bot serve` in HTTP mode.

The same burst as `bot_load.py` (Slack), on the DingTalk route: a DingTalk double and a
model double (`bench/doubles.py`; the model answers after a fixed delay) run in this
process, `travel-bot serve` runs as a child process on 127.0.0.1 with only DingTalk
credentials, a fresh SQLite memory and its own Redis key prefix. After a warm-up it runs
a few conversations one at a time, then POSTs N signed one-to-one robot callbacks at
once and, while those wait on the model, a stream of signed `/travel-prefs` callbacks.
Reports:

- ack latency under load: HTTP response time of the N callbacks and of the commands
  sent while the N conversations were in flight, p50 and p99 (target p99 < 1 s);
- throughput: conversations answered per second in the burst;
- overhead beyond model time, p50/p95, one at a time and within the burst;
- resident memory of the server process.

    .venv/bin/python bench/dingtalk_load.py                  # 50 conversations, 1 s model
    .venv/bin/python bench/dingtalk_load.py -n 200 --delay 2 --workers 64
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
from typing import Any

import httpx
import redis
from bot_load import REDIS_URL, TRAVEL_BOT, _cpu_seconds, _free_port, _pct, _rss_kb
from doubles import Answer, DingTalkDouble, ModelDouble, Post

from bot.dingtalk.http import compute_sign

CLIENT_ID = "dingbenchappkey"
SECRET = "bench-app-secret"
CORP = "dingbenchcorp"


_last_stamp = 0
_stamps = threading.Lock()


def _signed() -> dict[str, str]:
    """Headers for one callback, each with a millisecond of its own: the bot accepts a
    `(timestamp, sign)` pair once, so two callbacks signed in the same millisecond would
    see the second refused (401), which is not what this benchmark measures."""
    global _last_stamp
    with _stamps:
        _last_stamp = max(int(time.time() * 1000), _last_stamp + 1)
        stamp = str(_last_stamp)
    return {"timestamp": stamp, "sign": compute_sign(SECRET, stamp)}


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dingtalk = DingTalkDouble()
        self.model = ModelDouble(args.delay, self._reply)
        self.tmp = tempfile.mkdtemp(prefix="dingtalk-load-")
        self.prefix = f"bench-{uuid.uuid4().hex[:8]}:"
        self.port = _free_port()
        self.http = httpx.Client(
            base_url=f"http://127.0.0.1:{self.port}",
            timeout=30,
            limits=httpx.Limits(max_connections=args.conversations + 20),
        )
        self.process: subprocess.Popen[bytes] | None = None

    def _reply(self, body: dict[str, Any]) -> Answer:
        return "Here is your plan: morning train, hotel near the station.", None

    def start_server(self) -> None:
        keep = ("PATH", "HOME", "LANG", "TMPDIR", "HF_HOME", "XDG_CACHE_HOME")
        env = {k: v for k, v in os.environ.items() if k in keep}
        env.update(
            PORT=str(self.port),
            WEB_HOST="127.0.0.1",
            MEMORY_DSN=f"sqlite:///{self.tmp}/memory.db",
            REDIS_URL=REDIS_URL,
            REDIS_KEY_PREFIX=self.prefix,
            DINGTALK_CLIENT_ID=CLIENT_ID,
            DINGTALK_CLIENT_SECRET=SECRET,
            DINGTALK_API_URL=self.dingtalk.base,
            DINGTALK_PROGRESS_SECONDS="0",
            OPENAI_BASE_URL=self.model.base_url,
            OPENAI_API_KEY="bench",
            LLM_MODEL="scripted-model",
            LLM_TIMEOUT_SECONDS=str(max(30.0, self.args.delay * 4)),
            AGENT_WORKERS=str(self.args.workers),
        )
        log: Any = subprocess.DEVNULL
        if self.args.server_log:
            log = open(self.args.server_log, "wb")  # noqa: SIM115 (the child keeps it)
        self.process = subprocess.Popen(
            [TRAVEL_BOT, "--log-level", self.args.log_level, "serve"],
            cwd=self.tmp,
            env=env,
            stdout=log,
            stderr=log,
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

    def callback(self, staff_id: str, text: str, session: str) -> tuple[float, float]:
        """(sent at, acknowledged at) of one signed one-to-one robot callback."""
        data = {
            "msgId": f"msg{uuid.uuid4().hex[:16]}",
            "msgtype": "text",
            "text": {"content": text},
            "conversationType": "1",
            "conversationId": f"cid{staff_id}",
            "senderId": f"$:LWCP_v1:${staff_id}",
            "senderStaffId": staff_id,
            "senderCorpId": CORP,
            "chatbotCorpId": CORP,
            "chatbotUserId": "$:LWCP_v1:$bot",
            "robotCode": CLIENT_ID,
            "sessionWebhook": self.dingtalk.webhook(session, staff_id),
            "sessionWebhookExpiredTime": int((time.time() + 5400) * 1000),
        }
        body = json.dumps(data).encode()
        headers = {"Content-Type": "application/json", **_signed()}
        sent = time.monotonic()
        response = self.http.post("/dingtalk/events", content=body, headers=headers)
        acked = time.monotonic()
        if response.status_code != 200:
            raise SystemExit(f"callback got HTTP {response.status_code}")
        return sent, acked

    def converse_once(self, staff_id: str, session: str) -> float:
        """One conversation on its own: its overhead beyond the model time, in seconds."""
        sent, _ = self.callback(staff_id, "plan my trip", session)
        [reply] = self.dingtalk.wait_for_replies(
            1, 60, where=lambda p: p.args.get("session") == session
        )
        return reply.at - sent - self.args.delay

    def run(self) -> dict[str, Any]:
        args = self.args
        self.start_server()
        assert self.process is not None
        pid = self.process.pid
        for index in range(5):  # first-use costs: the embedding model, SQLite, connections
            self.converse_once(f"warm{index}", f"warm-{index}")
        rss_idle, _ = _rss_kb(pid)

        cpu_before = _cpu_seconds(pid)
        alone = [self.converse_once(f"one{i:04d}", f"one-{i}") for i in range(args.sequential)]
        cpu_alone = (_cpu_seconds(pid) - cpu_before) / max(1, args.sequential)

        self.dingtalk.reset()
        n = args.conversations
        sends: list[tuple[str, float, float]] = [("", 0.0, 0.0)] * n
        failed: dict[str, str] = {}  # session -> why its callback was not acknowledged
        barrier = threading.Barrier(n + 1)

        def converse(index: int) -> None:
            session = f"burst-{index}"
            barrier.wait()
            try:
                sent, acked = self.callback(
                    f"staff{index:05d}", f"plan trip number {index}", session
                )
            except (SystemExit, httpx.HTTPError) as exc:  # a thread would drop it silently
                failed[session] = str(exc) or type(exc).__name__
                return
            sends[index] = (session, sent, acked)

        threads = [threading.Thread(target=converse, args=(i,)) for i in range(n)]
        for thread in threads:
            thread.start()
        barrier.wait()
        for thread in threads:
            thread.join()
        if failed:
            reasons = sorted(set(failed.values()))
            raise SystemExit(f"{len(failed)} of {n} burst callbacks not acknowledged: {reasons}")

        command_acks: list[float] = []

        def in_burst(post: Post) -> bool:
            return str(post.args["session"]).startswith("burst-")

        while self.dingtalk.answered(in_burst) < n and len(command_acks) < 40:
            started = time.monotonic()
            self.callback(
                f"cmd{len(command_acks):03d}", "/travel-prefs", f"cmd-{len(command_acks)}"
            )
            command_acks.append(time.monotonic() - started)
            time.sleep(0.05)

        try:
            replies = self.dingtalk.wait_for_replies(
                n, timeout=max(60.0, args.delay * n), where=in_burst
            )
        except SystemExit as exc:
            answered = {p.args["session"] for p in self.dingtalk.replies}
            missing = [s for s, _, _ in sends if s not in answered]
            raise SystemExit(f"{exc}; no reply to {missing[:20]}") from None
        rss_now, rss_peak = _rss_kb(pid)
        answered_at = {str(p.args["session"]): p.at for p in replies}
        burst = [answered_at[s] - sent - args.delay for s, sent, _ in sends]
        acks = [acked - sent for _, sent, acked in sends]
        wall = max(answered_at.values()) - min(sent for _, sent, _ in sends)
        ms = 1000
        return {
            "conversations": n,
            "model_delay_s": args.delay,
            "agent_workers": args.workers,
            "burst_wall_s": round(wall, 3),
            "throughput_conversations_per_s": round(n / wall, 2),
            "replies_via_openapi": sum(1 for p in replies if p.args.get("via") == "openapi"),
            "overhead_alone_ms_p50": round(_pct(alone, 50) * ms, 1),
            "overhead_alone_ms_p95": round(_pct(alone, 95) * ms, 1),
            "server_cpu_ms_per_conversation": round(cpu_alone * ms, 1),
            "overhead_in_burst_ms_p50": round(_pct(burst, 50) * ms, 1),
            "overhead_in_burst_ms_p95": round(_pct(burst, 95) * ms, 1),
            "callback_ack_ms_p50": round(_pct(acks, 50) * ms, 1),
            "callback_ack_ms_p99": round(_pct(acks, 99) * ms, 1),
            "command_acks_under_load": len(command_acks),
            "command_ack_ms_p50": round(_pct(command_acks, 50) * ms, 1),
            "command_ack_ms_p99": round(_pct(command_acks, 99) * ms, 1),
            "rss_mb_idle": round(rss_idle / 1024, 1),
            "rss_mb_after": round(rss_now / 1024, 1),
            "rss_mb_peak": round(rss_peak / 1024, 1),
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
        self.dingtalk.close()
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--conversations", type=int, default=50)
    parser.add_argument("--delay", type=float, default=1.0, help="model delay per call (s)")
    parser.add_argument("--workers", type=int, default=64, help="AGENT_WORKERS of the server")
    parser.add_argument("--sequential", type=int, default=20, help="conversations one at a time")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--log-level", default="WARNING", help="the server's log level")
    parser.add_argument("--server-log", default="", help="write the server's log to this file")
    args = parser.parse_args(argv)
    bench = Bench(args)
    try:
        result = bench.run()
    finally:
        bench.close()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        width = max(len(k) for k in result)
        for key, value in result.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
