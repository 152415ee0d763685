"""Where a Slack acknowledgement spends its time: `travel-bot serve` with perf_counter spans.

Run in place of `travel-bot` (`bot_load.py --probe` does): it wraps the pieces of the ack
path of `POST /slack/events` (`bot.slack.http`) and of the listener behind it, then runs
the ordinary command line. Nothing in the bot is changed; the spans are written as JSON
lines to OUT when the process exits (SIGTERM, as `bot_load.py` stops it).

    .venv/bin/python bench/ack_probe.py OUT.jsonl --log-level WARNING serve

Spans of one request (seconds, `time.perf_counter`), recorded per request with its wall
clock start (`at`) so a benchmark can keep those of its burst:

- `route`: `SlackEvents.__call__`, from its first line to the response sent;
- `read_body`, `verify` (signature), `parse` (`BoltRequest`: JSON or form), `shape`
  (`request_problem`): on the event loop;
- `dispatch_wait`: from the request being handed to the dispatch pool to Bolt starting
  on it (pool queueing and the GIL); `bolt`: `App.dispatch` (middleware, matching the
  listener, `ack()`, queueing the listener);
- `back_to_loop`: from Bolt's return to the route's end (the event loop picking the
  result up, and sending the response);
- `listener_wait`: Bolt's return to our listener starting on the listener pool; then
  `accept` (`Pipeline.message`: count, parse, claim, start the turn), of which `claim`
  (`Claims.claim_message`, Redis) and `sink` (`SlackChannel.sink_for`: the reply sink,
  one Redis read for a threaded DM).

Per request also `connected_at` (uvicorn's `connection_made`), `route_at` and `route_end`
on `time.monotonic`, the clock of the sender's timings, and its `event_id`: a benchmark
splits its acknowledgement into the wait for the connection to be accepted, uvicorn and
the event loop until the route starts, the route, and the response's way back.

`PROBE_PROFILE=FILE` also writes a cProfile of the event loop's thread (pstats), and
`PROBE_SWITCH_INTERVAL=SECONDS` tries another `sys.setswitchinterval`; `bot_load.py`
passes `PROBE_*` variables on to the server.

Besides the spans, two samplers: `loop_lag` (how late a 5 ms `asyncio.sleep` on the
server's event loop wakes up: the loop blocked or starved of the GIL) and `gil_lag` (how
late a 10 ms `time.sleep` in a thread of its own wakes up: contention for the GIL and the
CPU), each with its wall clock time.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import functools
import json
import os
import sys
import threading
import time
from typing import Any

Record = dict[str, Any]

_records: list[Record] = []
_samples: list[tuple[str, float, float]] = []  # (kind, wall clock, lag in seconds)
_by_event: dict[str, Record] = {}
_connected: dict[int, float] = {}  # client port -> when uvicorn saw the connection
_current: contextvars.ContextVar[Record | None] = contextvars.ContextVar("probe", default=None)
_lock = threading.Lock()


def _span(record: Record | None, name: str, started: float) -> None:
    if record is not None:
        record[name] = record.get(name, 0.0) + time.perf_counter() - started


def install() -> None:
    """Wrap the ack path (see the module docstring)."""
    from slack_bolt import App

    from bot.conversation.claims import Claims
    from bot.flows.pipeline import Pipeline
    from bot.slack import http
    from bot.slack.channel import SlackChannel

    route_call = http.SlackEvents.__call__
    loop_sampler: list[asyncio.Task[None]] = []

    async def route(self: Any, scope: Any, receive: Any, send: Any) -> None:
        if not loop_sampler:
            loop_sampler.append(asyncio.get_running_loop().create_task(_sample_loop()))
        record: Record = {"at": time.time(), "route_at": time.monotonic()}
        client = scope.get("client")
        if client:
            with _lock:
                record["connected_at"] = _connected.pop(client[1], None)
        token = _current.set(record)
        started = time.perf_counter()
        try:
            await route_call(self, scope, receive, send)
        finally:
            ended = time.perf_counter()
            record["route_end"] = time.monotonic()
            record["route"] = ended - started
            if "bolt_end" in record:
                record["back_to_loop"] = ended - record.pop("bolt_end")
            _current.reset(token)
            with _lock:
                _records.append(record)

    http.SlackEvents.__call__ = route  # type: ignore[method-assign]

    read_body = http.read_body

    async def timed_read_body(*args: Any, **kwargs: Any) -> bytes:
        started = time.perf_counter()
        try:
            return await read_body(*args, **kwargs)
        finally:
            _span(_current.get(), "read_body", started)

    http.read_body = timed_read_body  # type: ignore[assignment]
    http.verify_signature = _timed(http.verify_signature, "verify")  # type: ignore[assignment]
    http.request_problem = _timed(http.request_problem, "shape")  # type: ignore[assignment]

    bolt_request = http.BoltRequest

    def parse(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        request = bolt_request(*args, **kwargs)
        record = _current.get()
        _span(record, "parse", started)
        if record is not None:
            request.context["probe"] = record
            body = request.body
            event_id = body.get("event_id") if isinstance(body, dict) else None
            if isinstance(event_id, str):
                record["event_id"] = event_id
                with _lock:
                    _by_event[event_id] = record
        return request

    http.BoltRequest = parse  # type: ignore[misc]

    dispatch = App.dispatch

    def timed_dispatch(self: Any, req: Any) -> Any:
        started = time.perf_counter()
        record = req.context.get("probe") if hasattr(req, "context") else None
        if record is not None and "shape_end" in record:
            record["dispatch_wait"] = started - record.pop("shape_end")
        try:
            return dispatch(self, req)
        finally:
            ended = time.perf_counter()
            if record is not None:
                record["bolt"] = ended - started
                record["bolt_end"] = ended
                record["bolt_end_listener"] = ended

    App.dispatch = timed_dispatch  # type: ignore[method-assign]

    accept = Pipeline.message

    def timed_accept(self: Any, edge: Any, event: Any, **kwargs: Any) -> str:
        started = time.perf_counter()
        body = event[0] if isinstance(event, tuple) and event else {}
        event_id = body.get("event_id") if isinstance(body, dict) else None
        try:
            return accept(self, edge, event, **kwargs)
        finally:
            record = _by_event.pop(event_id, None) if isinstance(event_id, str) else None
            if record is not None:
                record["accept"] = time.perf_counter() - started

    Pipeline.message = timed_accept  # type: ignore[method-assign]

    claim_message = Claims.claim_message

    def timed_claim(self: Any, msg: Any) -> bool:
        started = time.perf_counter()
        try:
            return claim_message(self, msg)
        finally:
            record = _by_event.get(msg.delivery_id or "")
            _span(record, "claim", started)

    Claims.claim_message = timed_claim  # type: ignore[method-assign]

    sink = SlackChannel.sink_for

    def timed_sink(self: Any, msg: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        record = _by_event.get(msg.delivery_id or "")
        if record is not None and "bolt_end_listener" in record:
            record["listener_wait"] = started - record.pop("bolt_end_listener")
        try:
            return sink(self, msg, **kwargs)
        finally:
            _span(record, "sink", started)

    SlackChannel.sink_for = timed_sink  # type: ignore[method-assign]

    # `shape` ends right before the route hands the request to the dispatch pool.
    problem = http.request_problem

    def shape_then_mark(body: object) -> Any:
        result = problem(body)
        record = _current.get()
        if record is not None:
            record["shape_end"] = time.perf_counter()
        return result

    http.request_problem = shape_then_mark  # type: ignore[assignment]

    from uvicorn.protocols.http.h11_impl import H11Protocol

    protocols: list[Any] = [H11Protocol]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        protocols.append(HttpToolsProtocol)
    except ImportError:  # httptools is not installed: uvicorn uses h11
        pass
    for protocol in protocols:
        _stamp_connections(protocol)

    threading.Thread(target=_sample_gil, name="probe-gil", daemon=True).start()


def _stamp_connections(protocol: Any) -> None:
    """Note when uvicorn's `protocol` sees each connection, by the client's port."""
    connection_made = protocol.connection_made

    def stamped(self: Any, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        if peer:
            with _lock:
                _connected[peer[1]] = time.monotonic()
        connection_made(self, transport)

    protocol.connection_made = stamped


def _timed(fn: Any, name: str) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            _span(_current.get(), name, started)

    return wrapper


async def _sample_loop() -> None:
    while True:
        started = time.perf_counter()
        await asyncio.sleep(0.005)
        _samples.append(("loop_lag", time.time(), time.perf_counter() - started - 0.005))


def _sample_gil() -> None:
    while True:
        started = time.perf_counter()
        time.sleep(0.01)
        _samples.append(("gil_lag", time.time(), time.perf_counter() - started - 0.01))


def _dump(path: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        with _lock:
            records = list(_records)
        for record in records:
            record.pop("bolt_end_listener", None)
            record.pop("shape_end", None)
            out.write(json.dumps({"kind": "request", **record}) + "\n")
        for kind, at, lag in list(_samples):
            out.write(json.dumps({"kind": kind, "at": at, "lag": lag}) + "\n")


def main() -> int:
    out, argv = sys.argv[1], sys.argv[2:]
    interval = os.environ.get("PROBE_SWITCH_INTERVAL")  # to try `sys.setswitchinterval`
    if interval:
        sys.setswitchinterval(float(interval))
    install()
    atexit.register(_dump, out)
    profile_to = os.environ.get("PROBE_PROFILE")  # cProfile of the event loop's thread
    if profile_to:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        atexit.register(lambda: (profiler.disable(), profiler.dump_stats(profile_to)))
    from bot.cli import main as cli

    return cli(argv)


if __name__ == "__main__":
    sys.exit(main())
