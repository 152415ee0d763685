"""A local WebSocket server that plays DingTalk's Stream gateway, for tests.

`FakeDingTalkAPI` answers `POST /v1.0/gateway/connections/open` with this server's
`url` and a ticket from `issue_ticket()`; a connection must present one
(`/connect?ticket=...`, each good once), as DingTalk's does. Then, like the gateway:

- `send_message(data)` pushes a robot message as a CALLBACK frame on topic
  `/v1.0/im/bot/messages/get` (`data` as a JSON *string*, headers with a `messageId`)
  and returns the `messageId`; `resend(message_id)` delivers the same frame again, the
  way DingTalk redelivers one it saw no ack for;
- `send_ping()` sends a SYSTEM ping, `send_disconnect()` a SYSTEM disconnect;
- `hang()` stops reading from the current connection: no pong, no ack is seen any
  more, while the TCP connection stays open (a silently dead connection);
- every ack the client sends is recorded (`acks`, `wait_for_ack(message_id)`).

It runs `websockets.serve` on its own thread and event loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Self

import websockets
from websockets.asyncio.server import ServerConnection

TOPIC = "/v1.0/im/bot/messages/get"


@dataclass(frozen=True)
class Ack:
    message_id: str
    code: int
    data: str
    at: float = field(default_factory=time.monotonic)


class FakeGateway:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Any = None
        self._port = 0
        self._tickets: set[str] = set()
        self._connections: list[ServerConnection] = []
        self._frames: dict[str, dict[str, Any]] = {}
        self._acks: list[Ack] = []
        self._connects = 0
        self._refused = 0
        self._lock = threading.Condition()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> Self:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)

            async def serve() -> Any:
                return await websockets.serve(self._serve, "127.0.0.1", 0, ping_interval=None)

            self._server = loop.run_until_complete(serve())
            self._port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-dingtalk-gateway", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the fake gateway did not start")
        return self

    def close(self) -> None:
        loop = self._loop
        if loop is None:
            return

        async def shutdown() -> None:
            self._server.close()
            for ws in list(self._connections):
                ws.transport.abort()
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/connect"

    def issue_ticket(self) -> str:
        ticket = f"tick+et/{uuid.uuid4().hex[:8]}"  # `+` and `/`: the client must quote it
        with self._lock:
            self._tickets.add(ticket)
        return ticket

    # -- the connection ----------------------------------------------------------------------

    async def _serve(self, ws: ServerConnection) -> None:
        from urllib.parse import parse_qs, urlsplit

        ticket = parse_qs(urlsplit(ws.request.path if ws.request else "").query).get("ticket")
        with self._lock:
            good = bool(ticket) and ticket[0] in self._tickets
            if good:
                self._tickets.discard(ticket[0])
                self._connects += 1
                self._connections.append(ws)
            else:
                self._refused += 1
            self._lock.notify_all()
        if not good:
            await ws.close(4001, "bad ticket")
            return
        try:
            async for raw in ws:
                try:
                    ack = json.loads(raw)
                    headers = ack.get("headers") or {}
                    record = Ack(str(headers.get("messageId")), int(ack.get("code")), ack["data"])
                except (ValueError, KeyError, TypeError):
                    continue
                with self._lock:
                    self._acks.append(record)
                    self._lock.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            with self._lock:
                if ws in self._connections:
                    self._connections.remove(ws)
                self._lock.notify_all()

    @property
    def connects(self) -> int:
        with self._lock:
            return self._connects

    @property
    def open_connections(self) -> int:
        with self._lock:
            return len(self._connections)

    def wait_connected(self, count: int = 1, timeout: float = 15.0) -> None:
        """Until `count` connections have been made in all, one of them open now."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._connects < count or not self._connections:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"{self._connects} connection(s), wanted {count}")
                self._lock.wait(remaining)

    def _current(self) -> ServerConnection:
        with self._lock:
            if not self._connections:
                raise AssertionError("no client is connected")
            return self._connections[-1]

    def _send_frame(self, frame: dict[str, Any]) -> None:
        ws = self._current()
        assert self._loop is not None
        text = json.dumps(frame, ensure_ascii=False)
        asyncio.run_coroutine_threadsafe(ws.send(text), self._loop).result(5)

    # -- frames ------------------------------------------------------------------------------

    def send_message(self, data: dict[str, Any], *, message_id: str | None = None) -> str:
        message_id = message_id or f"msg-{uuid.uuid4().hex[:10]}"
        frame = {
            "specVersion": "1.0",
            "type": "CALLBACK",
            "headers": {
                "appId": "app-1",
                "connectionId": "conn-1",
                "contentType": "application/json",
                "messageId": message_id,
                "time": str(int(time.time() * 1000)),
                "topic": TOPIC,
            },
            "data": json.dumps(data, ensure_ascii=False),
        }
        with self._lock:
            self._frames[message_id] = frame
        self._send_frame(frame)
        return message_id

    def send_raw(self, text: str) -> None:
        ws = self._current()
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(ws.send(text), self._loop).result(5)

    def resend(self, message_id: str) -> None:
        with self._lock:
            frame = self._frames[message_id]
        self._send_frame(frame)

    def send_ping(self) -> str:
        message_id = f"ping-{uuid.uuid4().hex[:8]}"
        self._send_frame(
            {
                "specVersion": "1.0",
                "type": "SYSTEM",
                "headers": {
                    "contentType": "application/json",
                    "messageId": message_id,
                    "topic": "ping",
                },
                "data": json.dumps({"opaque": uuid.uuid4().hex}),
            }
        )
        return message_id

    def send_disconnect(self) -> str:
        message_id = f"bye-{uuid.uuid4().hex[:8]}"
        self._send_frame(
            {
                "specVersion": "1.0",
                "type": "SYSTEM",
                "headers": {
                    "contentType": "application/json",
                    "messageId": message_id,
                    "topic": "disconnect",
                },
                "data": json.dumps({"reason": "server is restarting"}),
            }
        )
        return message_id

    def hang(self) -> None:
        """Stop reading the current connection: it stays open but answers nothing."""
        ws = self._current()
        assert self._loop is not None
        self._loop.call_soon_threadsafe(ws.transport.pause_reading)

    # -- acks --------------------------------------------------------------------------------

    @property
    def acks(self) -> list[Ack]:
        with self._lock:
            return list(self._acks)

    def wait_for_ack(self, message_id: str, timeout: float = 10.0) -> Ack:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for ack in self._acks:
                    if ack.message_id == message_id:
                        return ack
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no ack for {message_id}; acks: {self._acks!r}")
                self._lock.wait(remaining)


__all__ = ["TOPIC", "Ack", "FakeGateway"]
