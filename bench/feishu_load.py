"""Benchmark: N concurrent Feishu conversations against `travel-bot serve`.

The Feishu sibling of `bot_load.py`, under the same burst. Starts a Feishu open API double
and a model double (`bench/doubles.py`; the model answers after a fixed delay) in this
process and runs `travel-bot serve` as a child process on 127.0.0.1 with only Feishu
credentials (`POST /feishu/events`), a fresh SQLite memory and its own Redis key prefix.
After a warm-up it runs a few conversations one at a time, then sends N sealed and signed
`im.message.receive_v1` callbacks at once and, while those wait on the model, a stream of
card button callbacks. Reports:

- event ack latency: HTTP response time of the N callbacks, p50 and p99 (Feishu re-sends
  an event not acknowledged within about 3 s; target p99 < 1 s);
- card callback latency under that load, p50 and p99 (Feishu shows an error after 3 s);
- throughput and per-conversation overhead beyond the model time, alone and in the burst
  (callback sent to the reply's arrival at the double, minus the scripted model delay).

    .venv/bin/python bench/feishu_load.py                  # 50 conversations, 1 s model
    .venv/bin/python bench/feishu_load.py -n 200 --delay 2 --workers 64
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import redis
from Crypto.Cipher import AES
from doubles import Answer, FeishuDouble, ModelDouble

from bot.feishu.http import signature_of

APP_ID, APP_SECRET = "cli_bench", "bench-secret"
TOKEN, KEY = "bench-verification-token", "bench-encrypt-key"
TENANT = "tk_bench"
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"  # keys under a prefix
TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")


def _sealed(body: dict[str, Any]) -> bytes:
    """The callback's raw body, encrypted as Feishu encrypts it."""
    data = json.dumps(body, ensure_ascii=False).encode()
    pad = 16 - len(data) % 16
    iv = os.urandom(16)
    cipher = AES.new(hashlib.sha256(KEY.encode()).digest(), AES.MODE_CBC, iv)
    sealed = base64.b64encode(iv + cipher.encrypt(data + bytes([pad]) * pad)).decode()
    return json.dumps({"encrypt": sealed}).encode()


def _signed(raw: bytes) -> dict[str, str]:
    stamp, nonce = str(int(time.time())), uuid.uuid4().hex[:16]
    return {
        "Content-Type": "application/json",
        "X-Lark-Request-Timestamp": stamp,
        "X-Lark-Request-Nonce": nonce,
        "X-Lark-Signature": signature_of(raw, timestamp=stamp, nonce=nonce, encrypt_key=KEY),
    }


def _header(event_type: str) -> dict[str, Any]:
    return {
        "event_id": f"ev_{uuid.uuid4().hex}",
        "token": TOKEN,
        "create_time": str(int(time.time() * 1000)),
        "event_type": event_type,
        "tenant_key": TENANT,
        "app_id": APP_ID,
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.feishu = FeishuDouble()
        self.model = ModelDouble(args.delay, self._reply)
        self.tmp = tempfile.mkdtemp(prefix="feishu-load-")
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
            FEISHU_APP_ID=APP_ID,
            FEISHU_APP_SECRET=APP_SECRET,
            FEISHU_VERIFICATION_TOKEN=TOKEN,
            FEISHU_ENCRYPT_KEY=KEY,
            FEISHU_API_URL=self.feishu.base_url,
            OPENAI_BASE_URL=self.model.base_url,
            OPENAI_API_KEY="bench",
            LLM_MODEL="scripted-model",
            LLM_TIMEOUT_SECONDS=str(max(30.0, self.args.delay * 4)),
            AGENT_WORKERS=str(self.args.workers),
        )
        self.process = subprocess.Popen(
            [TRAVEL_BOT, "--log-level", "WARNING", "serve"],
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

    def event(self, user: str, text: str, message_id: str) -> tuple[float, float]:
        """(sent at, acknowledged at) of one sealed and signed direct message."""
        body = {
            "schema": "2.0",
            "header": _header("im.message.receive_v1"),
            "event": {
                "sender": {"sender_id": {"open_id": user}, "sender_type": "user"},
                "message": {
                    "message_id": message_id,
                    "create_time": str(int(time.time() * 1000)),
                    "chat_id": f"oc_{user}",
                    "chat_type": "p2p",
                    "message_type": "text",
                    "content": json.dumps({"text": text}),
                },
            },
        }
        raw = _sealed(body)
        sent = time.monotonic()
        response = self.http.post("/feishu/events", content=raw, headers=_signed(raw))
        acked = time.monotonic()
        if response.status_code != 200:
            raise SystemExit(f"event got HTTP {response.status_code}")
        return sent, acked

    def card_click(self) -> float:
        """One card button callback (a cancelled "forget everything?"): its latency."""
        body = {
            "schema": "2.0",
            "header": _header("card.action.trigger"),
            "event": {
                "operator": {"open_id": "ou_clicker", "tenant_key": TENANT},
                "action": {"value": {"a": "prefs.forget.no", "owner": "ou_clicker"}},
                "context": {"open_message_id": "om_card"},
            },
        }
        raw = _sealed(body)
        started = time.monotonic()
        response = self.http.post("/feishu/events", content=raw, headers=_signed(raw))
        if response.status_code != 200:
            raise SystemExit(f"card callback got HTTP {response.status_code}")
        return time.monotonic() - started

    def converse_once(self, user: str, message_id: str) -> float:
        sent, _ = self.event(user, "plan my trip", message_id)
        replied = self.feishu.wait_for_replies([message_id], 60)[message_id]
        return replied - sent - self.args.delay

    def run(self) -> dict[str, Any]:
        args = self.args
        self.start_server()
        for index in range(5):  # first-use costs: the token, the model, SQLite
            self.converse_once(f"ou_warm{index}", f"om_warm{index}")
        alone = [self.converse_once(f"ou_one{i}", f"om_one{i}") for i in range(args.sequential)]

        n = args.conversations
        sends: list[tuple[str, float, float]] = [("", 0.0, 0.0)] * n
        barrier = threading.Barrier(n + 1)

        def converse(index: int) -> None:
            message_id = f"om_burst{index:05d}"
            barrier.wait()
            sent, acked = self.event(f"ou_u{index:05d}", f"plan trip number {index}", message_id)
            sends[index] = (message_id, sent, acked)

        threads = [threading.Thread(target=converse, args=(i,)) for i in range(n)]
        for thread in threads:
            thread.start()
        barrier.wait()
        for thread in threads:
            thread.join()
        ids = [message_id for message_id, _, _ in sends]
        clicks: list[float] = []
        while len(clicks) < 40 and any(m not in self.feishu.replies for m in ids):
            clicks.append(self.card_click())
            time.sleep(0.05)
        replied = self.feishu.wait_for_replies(ids, timeout=max(60.0, args.delay * n))
        burst = [replied[m] - sent - args.delay for m, sent, _ in sends]
        acks = [acked - sent for _, sent, acked in sends]
        wall = max(replied.values()) - min(sent for _, sent, _ in sends)
        ms = 1000
        return {
            "conversations": n,
            "model_delay_s": args.delay,
            "agent_workers": args.workers,
            "burst_wall_s": round(wall, 3),
            "throughput_conversations_per_s": round(n / wall, 2),
            "overhead_alone_ms_p50": round(_pct(alone, 50) * ms, 1),
            "overhead_in_burst_ms_p50": round(_pct(burst, 50) * ms, 1),
            "overhead_in_burst_ms_p95": round(_pct(burst, 95) * ms, 1),
            "event_ack_ms_p50": round(_pct(acks, 50) * ms, 1),
            "event_ack_ms_p99": round(_pct(acks, 99) * ms, 1),
            "card_callbacks_under_load": len(clicks),
            "card_callback_ms_p50": round(_pct(clicks, 50) * ms, 1),
            "card_callback_ms_p99": round(_pct(clicks, 99) * ms, 1),
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
        self.feishu.close()
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
