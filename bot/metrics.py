"""Process metrics in the Prometheus text format (no client library needed).

A metric's help text is said once, by the part that counts it (`describe`); a channel
describes its own (`<platform>_events_total`, ...)."""

from __future__ import annotations

import threading
from collections import defaultdict

_Labels = tuple[tuple[str, str], ...]

_HELP = {
    "agent_turns_total": ("counter", "Agent turns run"),
    "tool_calls_total": ("counter", "Tool calls made by the agent"),
    "memory_cache_hits_total": ("counter", "Preference cache hits"),
    "memory_cache_misses_total": ("counter", "Preference cache misses"),
    "llm_request_seconds": ("summary", "LLM request latency"),
    "llm_tokens_total": ("counter", "LLM tokens used"),
    "llm_first_token_seconds": ("summary", "Time from a model request to its first token"),
}


class Metrics:
    """Counters and latency summaries; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: dict[str, dict[_Labels, float]] = defaultdict(lambda: defaultdict(float))
        self._sums: dict[str, dict[_Labels, list[float]]] = defaultdict(
            lambda: defaultdict(lambda: [0.0, 0.0])
        )
        self._help = dict(_HELP)

    def describe(self, name: str, text: str, kind: str = "counter") -> None:
        """The help text (and kind) `/metrics` shows for `name`."""
        with self._lock:
            self._help[name] = (kind, text)

    def inc(self, name: str, amount: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._counters[name][key] += amount

    def observe(self, name: str, value: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            entry = self._sums[name][key]
            entry[0] += 1
            entry[1] += value

    def value(self, name: str, **labels: str) -> float:
        with self._lock:
            return self._counters[name].get(tuple(sorted(labels.items())), 0.0)

    def render(self) -> str:
        lines: list[str] = []
        with self._lock:
            for name, series in sorted(self._counters.items()):
                kind, text = self._help.get(name, ("counter", name))
                lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]
                lines += [f"{name}{_fmt(labels)} {value:g}" for labels, value in series.items()]
            for name, sums in sorted(self._sums.items()):
                _, text = self._help.get(name, ("summary", name))
                lines += [f"# HELP {name} {text}", f"# TYPE {name} summary"]
                for labels, (count, total) in sums.items():
                    lines.append(f"{name}_count{_fmt(labels)} {count:g}")
                    lines.append(f"{name}_sum{_fmt(labels)} {total:g}")
        return "\n".join(lines) + "\n"


def _fmt(labels: _Labels) -> str:
    if not labels:
        return ""
    inner = ",".join(f'{k}="{v}"' for k, v in labels)
    return "{" + inner + "}"
