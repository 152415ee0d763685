"""Soak and fault benchmark: steady signed Slack events while Redis and the database fail.

`travel-bot serve` runs as `bot_load.py` runs it (a child process, the Slack and model
doubles of `bench/doubles.py` in this process, a fresh SQLite memory), against a
`redis-server` of its own on a free port (`harness.PrivateRedis`; the shared Redis is
never touched). The model answers after `--delay` seconds a call, twice a conversation:
first it records a preference (`record_to_memory`: a write to SQLite), then it answers.

Signed DM events arrive at `--rate` a second, each a new message. Like Slack, a delivery
not acknowledged with a 200 within 3 s is redelivered (`X-Slack-Retry-Num` 1, 2, 3, after
1, 2 and 4 s here instead of Slack's minutes); besides, `--retry-share` of the events are
redelivered once after 0.5-5 s whatever their ack (Slack missed it), so retries cross
every fault's start and end. The phases, `--phase` seconds each:

    steady · Redis killed (SIGKILL) · Redis restarted, empty · steady · Redis frozen
    (SIGSTOP) · Redis thawed (SIGCONT) · SQLite locked (another connection holds
    BEGIN EXCLUSIVE) · steady

then it waits for the answers. Per event (by the phase it was first sent in): answered
once, lost (no reply), duplicated (more than one reply in its thread; with the phases
its deliveries arrived in), error replies (a kind reply instead of the answer: "busy",
"memory unavailable", ...), how late the first reply came beyond the model's 2 calls
(p50, max); and the ack latency of every delivery, p50 / p99 / max, with non-200 answers
and timeouts.

    .venv/bin/python bench/faults.py                       # 8 phases of 10 s, 4 events/s
    .venv/bin/python bench/faults.py --phase 5 --rate 2 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot_load import Bench, _signed, event_body
from doubles import ModelDouble
from harness import HeldSqliteLock, PrivateRedis, http_request, pct, post_raw

ANSWER = "Here is your plan: morning train, hotel near the station."
SLACK_ACK_SECONDS = 3.0  # Slack redelivers an event not acknowledged within 3 s
SLACK_RETRY_AFTER = (1.0, 2.0, 4.0)  # Slack: at once, after 1 min, after 5 min


class RecordingModel(ModelDouble):
    """The model double, recording a preference before every answer (not streamed)."""

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        time.sleep(self._delay)
        number = next(self._ids)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if body["messages"][-1].get("role") == "user":
            arguments = {"thinking": "a preference", "content": ["I like window seats"]}
            call = {"name": "record_to_memory", "arguments": json.dumps(arguments)}
            message["tool_calls"] = [{"id": f"call_{number}", "type": "function", "function": call}]
        else:
            message["content"] = ANSWER
        return {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "bench"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if message["content"] is None else "stop",
                }
            ],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }


@dataclass
class Event:
    ts: str
    body: bytes
    phase: str
    first_sent: float = 0.0
    deliveries: list[tuple[int, float, int]] = field(default_factory=list)  # retry, ack s, status
    delivered_in: list[str] = field(default_factory=list)  # the phase of each delivery


PHASES = (
    "steady",
    "redis killed",
    "redis restarted",
    "steady again",
    "redis frozen",
    "redis thawed",
    "sqlite locked",
    "steady last",
)


class FaultBench(Bench):
    def __init__(self, args: argparse.Namespace) -> None:
        args.private_redis = True
        args.recall = False
        args.conversations = 64
        args.sequential = 0
        super().__init__(args)
        self.model.close()
        self.model = RecordingModel(args.delay, lambda body: ("", None))
        assert self.redis is not None
        self.private: PrivateRedis = self.redis
        self.rng = random.Random(7)
        self.events: list[Event] = []
        self.phase = PHASES[0]
        self.faults: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._timers: list[threading.Timer] = []

    # -- sending --------------------------------------------------------------------------

    def deliver(self, event: Event, retry: int) -> None:
        with self._lock:
            event.delivered_in.append(self.phase)
        headers = {"Content-Type": "application/json", **_signed(event.body)}
        if retry:
            headers["X-Slack-Retry-Num"] = str(retry)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        raw = http_request(self.port, event.body, headers)
        started = time.monotonic()
        try:
            _, acked, status = post_raw(self.port, raw, timeout=SLACK_ACK_SECONDS)
            seconds = acked - started
        except OSError:  # no ack within Slack's 3 s (or refused)
            seconds, status = time.monotonic() - started, 0
        with self._lock:
            event.deliveries.append((retry, seconds, status))
        if status != 200 and retry < len(SLACK_RETRY_AFTER):
            self.later(SLACK_RETRY_AFTER[retry], self.deliver, event, retry + 1)

    def later(self, seconds: float, fn: Any, *args: Any) -> None:
        timer = threading.Timer(seconds, fn, args)
        timer.daemon = True
        with self._lock:
            self._timers.append(timer)
        timer.start()

    def send_new(self, index: int, phase: str) -> None:
        ts = f"3000.{index + 1:06d}"
        user = f"U{index % 97:05d}"
        event_id = f"Ev{uuid.uuid4().hex[:12]}"
        body = event_body(self.slack.team_id, user, f"plan trip {index}", ts, event_id)
        event = Event(ts, body, phase, time.monotonic())
        with self._lock:
            self.events.append(event)
        self.deliver(event, 0)
        if self.rng.random() < self.args.retry_share:
            self.later(self.rng.uniform(0.5, 5.0), self.deliver, event, 1)

    # -- faults ---------------------------------------------------------------------------

    def enter(self, phase: str, sqlite_lock: HeldSqliteLock) -> None:
        previous, self.phase = self.phase, phase
        if phase == "redis killed":
            self.private.kill()
        elif phase == "redis restarted":
            self.private.start()
        elif phase == "redis frozen":
            self.private.freeze()
        elif phase == "redis thawed":
            self.private.thaw()
        elif phase == "sqlite locked":
            sqlite_lock.hold()
        if previous == "sqlite locked":
            sqlite_lock.release()
        self.faults.append((time.monotonic(), phase))

    def run(self) -> dict[str, Any]:
        args = self.args
        self.start_server(SLACK_STREAMING="false", LLM_STREAM="false")
        self.converse_once("U0WARM0", "1000.000001")  # first-use costs
        self.slack.reset()
        sqlite_lock = HeldSqliteLock(f"{self.tmp}/memory.db")
        period = 1.0 / args.rate
        started = time.monotonic()
        index = 0
        for number, phase in enumerate(PHASES):
            if number:
                self.enter(phase, sqlite_lock)
            phase_end = started + (number + 1) * args.phase
            while (due := started + index * period) < phase_end:
                time.sleep(max(0.0, due - time.monotonic()))
                threading.Thread(target=self.send_new, args=(index, phase), daemon=True).start()
                index += 1
        self.phase = "drain"
        sqlite_lock.release()
        sent_until = time.monotonic()
        self.wait_for_answers(timeout=args.drain)
        time.sleep(5.0)  # late duplicates
        return self.report(time.monotonic() - started, sent_until - started)

    def wait_for_answers(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                timers = [t for t in self._timers if t.is_alive()]
                wanted = {e.ts for e in self.events}
            answered = {str(p.args.get("thread_ts")) for p in self.slack.posts}
            if not timers and wanted <= answered:
                return
            time.sleep(0.5)

    # -- the report -----------------------------------------------------------------------

    def report(self, wall: float, sending: float) -> dict[str, Any]:
        replies: dict[str, list[str]] = defaultdict(list)
        for post in self.slack.posts:
            replies[str(post.args.get("thread_ts"))].append(json.dumps(post.args))
        per_phase: dict[str, Counter[str]] = {p: Counter() for p in PHASES}
        acks: dict[str, list[float]] = {p: [] for p in PHASES}
        late: dict[str, list[float]] = {p: [] for p in PHASES}  # first reply - sent - model
        kinds: Counter[str] = Counter()
        duplicate_paths: Counter[str] = Counter()
        posted_at: dict[str, list[float]] = defaultdict(list)
        for post in self.slack.posts:
            posted_at[str(post.args.get("thread_ts"))].append(post.at)
        model_s = 2 * self.args.delay
        for event in self.events:
            counts = per_phase[event.phase]
            counts["events"] += 1
            counts["deliveries"] += len(event.deliveries)
            counts["retries"] += sum(1 for retry, _, _ in event.deliveries if retry)
            counts["ack_not_200"] += sum(1 for _, _, status in event.deliveries if status != 200)
            acks[event.phase].extend(seconds for _, seconds, _ in event.deliveries)
            got = replies.get(event.ts, [])
            answers = [r for r in got if ANSWER.split(":")[0] in r]
            if not got:
                counts["lost"] += 1
            else:
                late[event.phase].append(min(posted_at[event.ts]) - event.first_sent - model_s)
            if len(got) > 1:
                counts["duplicated"] += 1
                duplicate_paths[" -> ".join(event.delivered_in)] += 1
            if len(got) > len(answers):
                counts["error_replies"] += 1
                for reply in got:
                    if reply not in answers:
                        kinds[json.loads(reply).get("text", "")[:60]] += 1
        ms = 1000
        all_acks = [s for values in acks.values() for s in values]
        totals: Counter[str] = Counter()
        for counts in per_phase.values():
            totals.update(counts)
        return {
            "rate_per_s": self.args.rate,
            "phase_s": self.args.phase,
            "model_delay_s": self.args.delay,
            "sending_s": round(sending, 1),
            "wall_s": round(wall, 1),
            "events": totals["events"],
            "deliveries": totals["deliveries"],
            "retries": totals["retries"],
            "lost": totals["lost"],
            "duplicated": totals["duplicated"],
            "error_replies": totals["error_replies"],
            "ack_not_200_or_timeout": totals["ack_not_200"],
            "ack_ms_p50": round(pct(all_acks, 50) * ms, 1),
            "ack_ms_p99": round(pct(all_acks, 99) * ms, 1),
            "ack_ms_max": round(max(all_acks, default=0.0) * ms, 1),
            "phases": {
                phase: {
                    **dict(per_phase[phase]),
                    "ack_ms_p50": round(pct(acks[phase], 50) * ms, 1),
                    "ack_ms_p99": round(pct(acks[phase], 99) * ms, 1),
                    "late_s_p50": round(pct(late[phase], 50), 2),
                    "late_s_max": round(max(late[phase], default=0.0), 2),
                }
                for phase in PHASES
            },
            "duplicates_delivered_in": dict(duplicate_paths),
            "error_reply_texts": dict(kinds),
        }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phase", type=float, default=10.0, help="seconds per phase")
    parser.add_argument("--rate", type=float, default=4.0, help="new events per second")
    parser.add_argument("--retry-share", type=float, default=0.25, help="events redelivered")
    parser.add_argument("--delay", type=float, default=1.0, help="model delay per call (s)")
    parser.add_argument("--workers", type=int, default=16, help="AGENT_WORKERS of the server")
    parser.add_argument("--drain", type=float, default=120.0, help="seconds to wait for answers")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    bench = FaultBench(args)
    try:
        result = bench.run()
    finally:
        bench.close()
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        phases = result.pop("phases")
        texts = result.pop("error_reply_texts")
        paths = result.pop("duplicates_delivered_in")
        for key, value in result.items():
            print(f"{key:<24}  {value}")
        print(f"\n{'phase':<16} " + " ".join(f"{k:>10}" for k in _COLUMNS))
        for phase, counts in phases.items():
            print(f"{phase:<16} " + " ".join(f"{counts.get(k, 0):>10}" for k in _COLUMNS))
        for path, count in paths.items():
            print(f"duplicated x{count}, delivered in: {path}")
        for text, count in texts.items():
            print(f"error reply x{count}: {text}")
    return 0


_COLUMNS = (
    "events",
    "retries",
    "lost",
    "duplicated",
    "error_replies",
    "ack_not_200",
    "ack_ms_p50",
    "ack_ms_p99",
    "late_s_p50",
    "late_s_max",
)

if __name__ == "__main__":
    sys.exit(main())
