"""Slack's Socket Mode side of the fake Slack Web API: a small RFC 6455 websocket server.

`FakeSlackAPI` answers `apps.connections.open` with `ws://127.0.0.1:PORT/socket-mode`
and upgrades that path to a websocket served by its `SocketModeEndpoint` (`slack.socket`).
Like Slack, the endpoint greets each connection with `{"type": "hello", ...}`, answers
pings with pongs, pings the app itself (`ping_interval`; `pongs` counts the answers),
sends envelopes (`events_api`, `slash_commands`, `interactive`, `disconnect`) and records
what the app sends back: acks (`{"envelope_id": ..., "payload": ...}`).

    handler.connect()  # the app's Socket Mode client
    slack.socket.wait_connected()
    envelope_id = slack.socket.send_event(event_callback_body)
    ack = slack.socket.wait_for_ack(envelope_id)

Stdlib only: the handshake, unfragmented or fragmented text frames, ping/pong and close;
client frames must be masked (a connection sending an unmasked frame is closed with 1002).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import socket
import struct
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


@dataclass(frozen=True)
class Ack:
    """What the app sent back for one envelope."""

    envelope_id: str
    payload: dict[str, Any] | None
    at: float = field(default_factory=time.monotonic)


class _Connection:
    """One accepted websocket: frames out (unmasked) and in (masked by the client)."""

    def __init__(self, sock: socket.socket, rfile: io.BufferedIOBase) -> None:
        self.sock = sock
        self.rfile = rfile
        self.id = uuid.uuid4().hex[:8]
        self._send_lock = threading.Lock()
        self.closed = threading.Event()

    @property
    def open(self) -> bool:
        return not self.closed.is_set()

    def send(self, opcode: int, data: bytes) -> None:
        head = bytes([0x80 | opcode])
        size = len(data)
        if size < 126:
            head += bytes([size])
        elif size < 1 << 16:
            head += bytes([126]) + struct.pack("!H", size)
        else:
            head += bytes([127]) + struct.pack("!Q", size)
        with self._send_lock:
            self.sock.sendall(head + data)

    def send_text(self, message: Mapping[str, Any]) -> None:
        self.send(OP_TEXT, json.dumps(message, ensure_ascii=False).encode("utf-8"))

    def read_frame(self) -> tuple[bool, int, bytes] | None:
        """(fin, opcode, unmasked payload), or None at end of stream.

        Raises ValueError for an unmasked client frame (a protocol error, RFC 6455 5.1).
        """
        head = self._read(2)
        if head is None:
            return None
        fin, opcode = bool(head[0] & 0x80), head[0] & 0x0F
        masked, size = bool(head[1] & 0x80), head[1] & 0x7F
        if size == 126:
            raw = self._read(2)
            if raw is None:
                return None
            (size,) = struct.unpack("!H", raw)
        elif size == 127:
            raw = self._read(8)
            if raw is None:
                return None
            (size,) = struct.unpack("!Q", raw)
        if not masked:
            raise ValueError("client frames must be masked")
        mask = self._read(4)
        data = self._read(size) if size else b""
        if mask is None or data is None:
            return None
        return fin, opcode, bytes(b ^ mask[i % 4] for i, b in enumerate(data))

    def _read(self, n: int) -> bytes | None:
        try:
            data = self.rfile.read(n)
        except OSError:
            return None
        return data if data is not None and len(data) == n else None

    def shutdown(self) -> None:
        self.closed.set()
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)


class SocketModeEndpoint:
    """The websocket connections of the fake, the envelopes sent and the acks received."""

    def __init__(self, *, app_id: str = "A0TRAVEL", ping_interval: float | None = 0.1) -> None:
        self.app_id = app_id
        # Like Slack, the fake pings its clients. slack_sdk's client holds a lock while it
        # blocks in recv (up to 3 s), which its `close()` must take: frequent pings keep
        # the app's shutdown quick.
        self.ping_interval = ping_interval
        self._pongs = 0
        self._lock = threading.Condition()
        self._connections: list[_Connection] = []
        self._acks: list[Ack] = []
        self._received: list[dict[str, Any]] = []
        self._sent: list[dict[str, Any]] = []
        self._connects = 0
        self._closing = False

    # -- recording ------------------------------------------------------------------------

    @property
    def connections(self) -> int:
        """How many websockets are open now."""
        with self._lock:
            return sum(1 for c in self._connections if c.open)

    @property
    def connects(self) -> int:
        """How many websockets were ever opened (reconnects count)."""
        with self._lock:
            return self._connects

    @property
    def pongs(self) -> int:
        """How many pong frames the app sent back (answers to the fake's pings)."""
        with self._lock:
            return self._pongs

    @property
    def acks(self) -> list[Ack]:
        with self._lock:
            return list(self._acks)

    @property
    def received(self) -> list[dict[str, Any]]:
        """Every JSON text message the app sent, oldest first."""
        with self._lock:
            return list(self._received)

    @property
    def sent(self) -> list[dict[str, Any]]:
        """Every message sent to the app (hello included), oldest first."""
        with self._lock:
            return list(self._sent)

    def wait_connected(self, count: int = 1, timeout: float = 10.0) -> None:
        """Block until at least `count` websockets are open (AssertionError on timeout)."""
        self._wait(lambda: self._open_count() >= count, timeout, f"{count} connection(s)")

    def wait_for_ack(self, envelope_id: str, timeout: float = 5.0) -> Ack:
        """Block until the app acked `envelope_id`; AssertionError (with the acks) on timeout."""
        self._wait(
            lambda: any(a.envelope_id == envelope_id for a in self._acks),
            timeout,
            f"the ack of {envelope_id}",
        )
        with self._lock:
            return next(a for a in self._acks if a.envelope_id == envelope_id)

    # -- sending --------------------------------------------------------------------------

    def send(
        self,
        envelope_type: str,
        payload: Mapping[str, Any],
        *,
        accepts_response_payload: bool = False,
        retry_attempt: int = 0,
        retry_reason: str = "",
    ) -> str:
        """Send an envelope over the newest open websocket; returns its `envelope_id`."""
        envelope_id = str(uuid.uuid4())
        envelope: dict[str, Any] = {
            "envelope_id": envelope_id,
            "payload": dict(payload),
            "type": envelope_type,
            "accepts_response_payload": accepts_response_payload,
        }
        if envelope_type == "events_api":
            envelope.update(retry_attempt=retry_attempt, retry_reason=retry_reason)
        self._send(envelope)
        return envelope_id

    def send_event(self, body: Mapping[str, Any], **kwargs: Any) -> str:
        """An `events_api` envelope around an `event_callback` body."""
        return self.send("events_api", body, **kwargs)

    def send_command(self, form: Mapping[str, Any]) -> str:
        """A `slash_commands` envelope (the command's fields as Slack would POST them)."""
        return self.send("slash_commands", form, accepts_response_payload=True)

    def send_interactive(self, payload: Mapping[str, Any]) -> str:
        """An `interactive` envelope (block actions, view submissions, shortcuts)."""
        accepts = payload.get("type") in ("view_submission", "block_suggestion")
        return self.send("interactive", payload, accepts_response_payload=accepts)

    def disconnect(self, reason: str = "refresh_requested") -> None:
        """Ask the app to reconnect, as Slack does before it recycles a connection."""
        self._send({"type": "disconnect", "reason": reason, "debug_info": {"host": "fake"}})

    def reopen(self) -> None:
        """Accept websockets again after `close` (the server was restarted)."""
        with self._lock:
            self._closing = False

    def close(self) -> None:
        """Close every websocket (the server is going away)."""
        with self._lock:
            self._closing = True
            connections = list(self._connections)
            self._lock.notify_all()
        for connection in connections:
            connection.shutdown()

    # -- serving --------------------------------------------------------------------------

    def serve(self, request: BaseHTTPRequestHandler) -> None:
        """Upgrade `request` (a GET with `Upgrade: websocket`) and serve it until it closes."""
        key = request.headers.get("Sec-WebSocket-Key", "")
        if request.headers.get("Sec-WebSocket-Version") != "13" or not key or self._closing:
            request.send_response(400 if not self._closing else 503)
            request.send_header("Content-Length", "0")
            request.end_headers()
            return
        accept = base64.b64encode(hashlib.sha1((key.strip() + _GUID).encode()).digest())
        request.close_connection = True
        request.send_response(101, "Switching Protocols")
        request.send_header("Upgrade", "websocket")
        request.send_header("Connection", "Upgrade")
        request.send_header("Sec-WebSocket-Accept", accept.decode("ascii"))
        request.end_headers()
        request.wfile.flush()
        connection = _Connection(request.connection, request.rfile)
        with self._lock:
            self._connections.append(connection)
            self._connects += 1
            self._lock.notify_all()
        try:
            self._send_to(connection, self._hello())
            if self.ping_interval:
                pinger = threading.Thread(
                    target=self._ping, args=(connection, self.ping_interval), daemon=True
                )
                pinger.name = f"fake-slack-socket-ping-{connection.id}"
                pinger.start()
            self._read_loop(connection)
        finally:
            connection.shutdown()
            with self._lock:
                self._lock.notify_all()

    def _read_loop(self, connection: _Connection) -> None:
        parts: list[bytes] = []
        while connection.open:
            try:
                frame = connection.read_frame()
            except ValueError:
                self._close_frame(connection, 1002)
                return
            if frame is None:
                return
            fin, opcode, data = frame
            if opcode == OP_PING:
                with contextlib.suppress(OSError):
                    connection.send(OP_PONG, data)
            elif opcode == OP_PONG:
                with self._lock:
                    self._pongs += 1
            elif opcode == OP_CLOSE:
                self._close_frame(connection, 1000)
                return
            elif opcode in (OP_TEXT, OP_CONTINUATION):
                parts.append(data)
                if fin:
                    self._receive(b"".join(parts))
                    parts = []

    def _ping(self, connection: _Connection, interval: float) -> None:
        while not connection.closed.wait(interval):
            try:
                connection.send(OP_PING, b"fake-slack")
            except OSError:
                return

    def _close_frame(self, connection: _Connection, code: int) -> None:
        with contextlib.suppress(OSError):
            connection.send(OP_CLOSE, struct.pack("!H", code))

    def _receive(self, data: bytes) -> None:
        try:
            message = json.loads(data.decode("utf-8"))
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        with self._lock:
            self._received.append(message)
            if message.get("envelope_id"):
                payload = message.get("payload")
                self._acks.append(
                    Ack(str(message["envelope_id"]), payload if isinstance(payload, dict) else None)
                )
            self._lock.notify_all()

    def _hello(self) -> dict[str, Any]:
        return {
            "type": "hello",
            "num_connections": self.connections,
            "debug_info": {"host": "fake-slack", "approximate_connection_time": 18060},
            "connection_info": {"app_id": self.app_id},
        }

    def _send(self, message: Mapping[str, Any]) -> None:
        with self._lock:
            live = [c for c in self._connections if c.open]
        if not live:
            raise AssertionError("no Socket Mode connection is open")
        self._send_to(live[-1], message)

    def _send_to(self, connection: _Connection, message: Mapping[str, Any]) -> None:
        with self._lock:
            self._sent.append(dict(message))
        connection.send_text(message)

    def _open_count(self) -> int:
        return sum(1 for c in self._connections if c.open)

    def _wait(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not done():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"timed out waiting for {what}; open: {self._open_count()}, "
                        f"acks: {[a.envelope_id for a in self._acks]}"
                    )
                self._lock.wait(left)


def is_upgrade(request: BaseHTTPRequestHandler) -> bool:
    """Whether `request` asks to switch to the websocket protocol."""
    upgrade = request.headers.get("Upgrade", "").lower()
    connection = request.headers.get("Connection", "").lower()
    return upgrade == "websocket" and "upgrade" in connection


__all__ = ["Ack", "SocketModeEndpoint", "is_upgrade"]
