"""Feishu's long connection, played locally: a WebSocket server speaking the SDK's frames.

`FakeFeishuAPI` answers `/callback/ws/endpoint` with this server's URL (attach it:
`fake.ws = server`). Like Feishu, it accepts the client's connection, answers its pings
(CONTROL frames, header `type=ping`) with pongs, pushes events as DATA frames (header
`type=event`, `message_id`, `trace_id`, `sum`, `seq`; a payload may be split over several
frames) and records the client's acknowledgements: the same frame echoed back with a
`biz_rt` header and a JSON payload (`{"code": 200}`, or `{"code": 200, "data": base64 of
the card callback's answer}`). Frames are the SDK's own protobuf `Frame`.

    server = FeishuLongConnectionServer().start()
    fake.ws = server
    ...                                   # the bot connects
    server.wait_connected()
    message_id = server.push(event_body)
    ack = server.wait_for_ack(message_id)
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from lark_oapi.ws.pb.pbbp2_pb2 import Frame
from websockets.asyncio.server import ServerConnection, serve

SERVICE_ID = 7
CONTROL, DATA = 0, 1


@dataclass(frozen=True)
class WsAck:
    """What the client sent back for one pushed event."""

    message_id: str
    code: int
    data: dict[str, Any] | None  # a card callback's answer, decoded
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)


class FeishuLongConnectionServer:
    """The long connection's server side (see the module docstring)."""

    def __init__(self, *, reconnect_interval: int = 1) -> None:
        self.reconnect_interval = reconnect_interval
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: Any = None
        self._connections: set[ServerConnection] = set()
        self._cond = threading.Condition()
        self.acks: dict[str, WsAck] = {}
        self.pings = 0
        self.connects = 0
        self.port = 0

    def start(self) -> FeishuLongConnectionServer:
        self._thread.start()
        self._server = self._call(self._open())
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._call(self._server.wait_closed())
            self._server = None
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def endpoint(self) -> dict[str, Any]:
        """What `/callback/ws/endpoint` answers: the URL and the client's configuration."""
        url = f"ws://127.0.0.1:{self.port}/ws?device_id=dev-{uuid.uuid4().hex[:6]}"
        return {
            "URL": f"{url}&service_id={SERVICE_ID}",
            "ClientConfig": {
                "ReconnectCount": -1,
                "ReconnectInterval": self.reconnect_interval,
                "ReconnectNonce": 0,
                "PingInterval": 120,
            },
        }

    # -- what the tests do ------------------------------------------------------------------

    @property
    def connected(self) -> int:
        with self._cond:
            return len(self._connections)

    def wait_connected(self, count: int = 1, timeout: float = 15.0) -> None:
        self._wait(lambda: len(self._connections) >= count, timeout, f"{count} connection(s)")

    def wait_disconnected(self, timeout: float = 10.0) -> None:
        self._wait(lambda: not self._connections, timeout, "no connection")

    def push(self, payload: dict[str, Any], *, parts: int = 1, message_id: str = "") -> str:
        """Send an event (split over `parts` frames) to every connection; its message id."""
        message_id = message_id or f"ws-{uuid.uuid4().hex[:10]}"
        data = json.dumps(payload, ensure_ascii=False).encode()
        size = -(-len(data) // parts)
        frames = []
        for seq in range(parts):
            frame = Frame()
            frame.SeqID, frame.LogID, frame.service, frame.method = seq + 1, 0, SERVICE_ID, DATA
            for key, value in (
                ("type", "event"),
                ("message_id", message_id),
                ("trace_id", uuid.uuid4().hex[:8]),
                ("sum", str(parts)),
                ("seq", str(seq)),
            ):
                header = frame.headers.add()
                header.key, header.value = key, value
            frame.payload = data[seq * size : (seq + 1) * size]
            frames.append(frame.SerializeToString())
        self._call(self._broadcast(frames))
        return message_id

    def wait_for_ack(self, message_id: str, timeout: float = 10.0) -> WsAck:
        self._wait(lambda: message_id in self.acks, timeout, f"an ack of {message_id}")
        with self._cond:
            return self.acks[message_id]

    def drop_connections(self) -> None:
        """Close every connection from the server's side (the client should reconnect)."""
        self._call(self._drop())

    # -- the server -------------------------------------------------------------------------

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)

    def _wait(self, ready: Any, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not ready():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"waited {timeout} s for {what}")
                self._cond.wait(min(left, 0.1))

    async def _open(self) -> Any:
        return await serve(self._serve, "127.0.0.1", 0)

    async def _broadcast(self, frames: list[bytes]) -> None:
        for connection in list(self._connections):
            for frame in frames:
                await connection.send(frame)

    async def _drop(self) -> None:
        for connection in list(self._connections):
            await connection.close()

    async def _serve(self, connection: ServerConnection) -> None:
        with self._cond:
            self._connections.add(connection)
            self.connects += 1
            self._cond.notify_all()
        try:
            async for message in connection:
                if isinstance(message, bytes):
                    await self._received(connection, message)
        except Exception:
            pass
        finally:
            with self._cond:
                self._connections.discard(connection)
                self._cond.notify_all()

    async def _received(self, connection: ServerConnection, message: bytes) -> None:
        frame = Frame()
        frame.ParseFromString(message)
        headers = {h.key: h.value for h in frame.headers}
        if frame.method == CONTROL and headers.get("type") == "ping":
            with self._cond:
                self.pings += 1
            pong = Frame()
            pong.SeqID, pong.LogID, pong.service, pong.method = 0, 0, SERVICE_ID, CONTROL
            header = pong.headers.add()
            header.key, header.value = "type", "pong"
            await connection.send(pong.SerializeToString())
            return
        if frame.method == DATA and "biz_rt" in headers:
            answer = json.loads(frame.payload or b"{}")
            data = answer.get("data")
            decoded = json.loads(base64.b64decode(data)) if data else None
            ack = WsAck(headers.get("message_id", ""), int(answer.get("code", 0)), decoded, headers)
            with self._cond:
                self.acks[ack.message_id] = ack
                self._cond.notify_all()


__all__ = ["FeishuLongConnectionServer", "WsAck"]
