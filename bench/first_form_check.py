"""Benchmark: the first preferences-form privacy check in a fresh bot process, with and
without the start-up warm-up (`bot.compose.core.warm_privacy`).

Each run is a child process that opens the memory as `open_core` does (SQLite, no Redis;
the local embedder, or `--provider openai`, where nothing else loads the bundled model and no
endpoint is called), starts the warm-up thread when asked, waits 3 s (a person's first form
comes after start-up), then times one form check (`memory.privacy.verdict`: wall time, and
the checking thread's CPU time) and the next one.

    .venv/bin/python bench/first_form_check.py [--runs 5] [--provider local|openai]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import json, sys, tempfile, time
from bot.settings import Settings
from memory import open_memory
provider, warm = sys.argv[1], sys.argv[2] == "warm"
folder = tempfile.mkdtemp()
settings = Settings(_env_file=None, memory_dsn=f"sqlite:///{folder}/m.db", redis_url="",
                    embedding_provider=provider, openai_base_url="http://127.0.0.1:9/v1")
open_memory(settings)
started = 0.0
if warm:
    from bot.compose.core import warm_privacy
    t = time.perf_counter(); warm_privacy(); started = (time.perf_counter() - t) * 1000
time.sleep(3)
from memory.privacy import verdict
c, t = time.thread_time(), time.perf_counter()
verdict("I prefer aisle seats and hotels with breakfast")
first, cpu = (time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000
t = time.perf_counter()
verdict("我喜欢靠窗的座位，酒店要含早餐")
second = (time.perf_counter() - t) * 1000
print(json.dumps({"start": started, "first": first, "cpu": cpu, "second": second}))
"""


def run(provider: str, mode: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, provider, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _line(values: list[float]) -> str:
    return f"median {statistics.median(values):.0f} ms ({min(values):.0f}-{max(values):.0f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--provider", choices=("local", "openai"), default="local")
    args = parser.parse_args(argv)
    for mode in ("cold", "warm"):
        found = [run(args.provider, mode) for _ in range(args.runs)]
        print(
            f"{args.provider} {mode}: first check {_line([f['first'] for f in found])}, "
            f"its CPU {_line([f['cpu'] for f in found])}, "
            f"second {_line([f['second'] for f in found])}, "
            f"start-up cost {max(f['start'] for f in found):.1f} ms at most"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
