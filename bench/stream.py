"""Benchmark: how soon a person sees the answer in Slack, with the model streaming at a set rate.

Runs `travel-bot serve` as a child process on the two doubles of `bench/doubles.py`: the
model waits `--first-token` seconds (its prefill), then streams `--tokens` words at
`--rate` words a second; Slack records when each streamed answer first showed text
(`chat.startStream`) and when it was complete (`chat.stopStream`, or the one
`chat.postMessage` when not streaming). Conversations run one at a time after a warm-up,
then `--burst` of them at once. With `--recall` the model first calls
`retrieve_from_memory`, so the answer's first token comes in the second request.

Reports, p50 / p95 / max over the conversations, all from the moment the event was sent:
the model's first token of the answer, the first text visible in Slack, and the gap
between the two (target: at most 300 ms); the model's last token and the answer complete
in Slack. `--no-streaming` runs the same with `SLACK_STREAMING=false`, where the first
visible text is the whole answer.

    .venv/bin/python bench/stream.py                         # 20 alone + 10 at once, 30 words/s
    .venv/bin/python bench/stream.py --rate 60 --recall --burst 20
    .venv/bin/python bench/stream.py --no-streaming          # the same, posted once
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from bot_load import Bench, _pct
from doubles import Answer

WORDS = (
    "Here is your plan: the morning train from Hongqiao, a quiet hotel near the venue, "
    "and the evening flight back. I kept to your preferences and skipped the red-eye. "
)


class StreamBench(Bench):
    def __init__(self, args: argparse.Namespace) -> None:
        args.conversations = args.burst
        args.delay = args.first_token
        super().__init__(args)
        self.model.tokens_per_second = args.rate
        words = (WORDS * (args.tokens // len(WORDS.split()) + 1)).split()
        self.answer = " ".join(words[: args.tokens])

    def _reply(self, body: dict[str, Any]) -> Answer:
        last = body["messages"][-1]
        if self.args.recall and last.get("role") == "user":
            return "", {"keywords": ["trip"]}
        return self.answer, None

    def converse(self, index: int, barrier: threading.Barrier | None = None) -> dict[str, float]:
        """One conversation's timings, in seconds from the event."""
        ts, text = f"3000.{index + 1:06d}", f"plan trip number {index}"
        if barrier is not None:
            barrier.wait()
        sent, _ = self.event(f"U3{index:05d}", text, ts)
        timeout = 60 + self.args.tokens / self.args.rate
        [done] = self.slack.wait_for_posts(1, timeout, where=lambda p: p.args["thread_ts"] == ts)
        streamed = self._streamed(text)
        first_text = self.slack.first_text(ts)
        return {
            "first_token": streamed.first_token_at - sent,
            "first_text": (first_text if first_text is not None else done.at) - sent,
            "model_done": streamed.done_at - sent,
            "done": done.at - sent,
        }

    def _streamed(self, text: str) -> Any:
        """The model's record of the answer to `text` (the double writes it down just
        after its last chunk, which can be a moment after Slack has the whole answer)."""
        deadline = time.monotonic() + 5
        while True:
            found = [s for s in self.model.streamed if s.marker == text]
            if found or time.monotonic() > deadline:
                [streamed] = found
                return streamed
            time.sleep(0.005)

    def run(self) -> dict[str, Any]:
        args = self.args
        self.start_server(SLACK_STREAMING="false" if args.no_streaming else "true")
        for index in range(3):  # warm-up: first-use costs
            self.converse(900_000 + index)
        alone = [self.converse(index) for index in range(args.sequential)]
        barrier = threading.Barrier(args.burst + 1)
        burst: list[dict[str, float]] = [{}] * args.burst

        def run_one(index: int) -> None:
            burst[index] = self.converse(10_000 + index, barrier)

        threads = [threading.Thread(target=run_one, args=(i,)) for i in range(args.burst)]
        for thread in threads:
            thread.start()
        barrier.wait()
        for thread in threads:
            thread.join()
        return {
            "streaming": not args.no_streaming,
            "model": f"first token after {args.first_token:g} s, {args.tokens} words "
            f"at {args.rate:g}/s" + (", after a recall" if args.recall else ""),
            "alone": _summary(alone),
            f"burst_of_{args.burst}": _summary(burst),
        }


def _summary(runs: list[dict[str, float]]) -> dict[str, str]:
    def fmt(values: list[float]) -> str:
        ms = [v * 1000 for v in values]
        return f"{_pct(ms, 50):.0f} / {_pct(ms, 95):.0f} / {max(ms):.0f} ms"

    return {
        "conversations": str(len(runs)),
        "model first token (p50 / p95 / max)": fmt([r["first_token"] for r in runs]),
        "first text in Slack": fmt([r["first_text"] for r in runs]),
        "first text - first token": fmt([r["first_text"] - r["first_token"] for r in runs]),
        "model last token": fmt([r["model_done"] for r in runs]),
        "answer complete in Slack": fmt([r["done"] for r in runs]),
        "complete - last token": fmt([r["done"] - r["model_done"] for r in runs]),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first-token", type=float, default=0.5, help="model prefill (s)")
    parser.add_argument("--rate", type=float, default=30.0, help="words a second")
    parser.add_argument("--tokens", type=int, default=120, help="words in the answer")
    parser.add_argument("--recall", action="store_true", help="call retrieve_from_memory first")
    parser.add_argument("--sequential", type=int, default=20, help="conversations one at a time")
    parser.add_argument("--burst", type=int, default=10, help="conversations at once")
    parser.add_argument("--workers", type=int, default=16, help="AGENT_WORKERS of the server")
    parser.add_argument("--no-streaming", action="store_true", help="SLACK_STREAMING=false")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    bench = StreamBench(args)
    try:
        result = bench.run()
    finally:
        bench.close()
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    for key, value in result.items():
        if isinstance(value, dict):
            print(f"{key}:")
            width = max(len(k) for k in value)
            for name, figure in value.items():
                print(f"  {name:<{width}}  {figure}")
        else:
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
