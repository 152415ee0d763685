"""DingTalk Stream mode: `travel-bot dingtalk`, a robot without a public URL.

The official SDK, `dingtalk-stream`, parses every frame, routes it to its handler and
builds the acknowledgement (`DingTalkStreamClient.route_message`, `CallbackHandler`,
`AckMessage`). What this module adds around it, for what 0.24.3 gets wrong:

- **Acks at once.** The SDK acks a callback only after its handler returns, and
  DingTalk redelivers to a slow one. `RobotHandler` hands the message to the channel
  (`DingTalkChannel.receive`: the core's pipeline, on the listener pool) and returns; the
  turn runs on the agent pool, and a redelivered `msgId` is answered once (the core's
  claims).
- **A watchdog.** A ping can hang and leave a connection that is silently dead. Every
  `DINGTALK_STREAM_PING_SECONDS` the connection is pinged; no pong within as long
  again and it is dropped and reopened, with exponential back-off between failed
  attempts (`bot.dingtalk.health.Backoff`); a gateway's `disconnect` is reopened at once.
- **A way to stop**, which 0.24.3's `start()` lacks (it swallows one cancellation).
- **The gateway's address** from `DINGTALK_API_URL`, and a timeout on opening the
  connection: the SDK reads `DINGTALK_OPENAPI_ENDPOINT` once at import and posts without
  one, so `StreamClient.open_connection_async` sends the same request its way.

The connection's state is logged on every change and every few minutes as a health
line, and is what `/healthz` shows when the process serves one (`StreamHealth`).
Subscribed topic: the robot's messages (`/v1.0/im/bot/messages/get`) only; the bot sends
no interactive cards, so it needs no card callbacks.

Unlike HTTP mode, a frame carries no `timestamp`/`sign`: the connection itself was opened
with the app's credentials, so there is no signature pair to claim (a redelivered `msgId`
is still answered once). What a message names is checked all the same: its
`sessionWebhook` is used only when it is DingTalk's (`DingTalkChannel.delivery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

import httpx
import websockets
from dingtalk_stream import (
    AckMessage,
    CallbackHandler,
    ChatbotMessage,
    Credential,
    DingTalkStreamClient,
)
from dingtalk_stream.version import VERSION_STRING

from bot.dingtalk.health import Backoff, StreamHealth
from bot.dingtalk.incoming import message_problem

if TYPE_CHECKING:
    from bot.dingtalk.channel import DingTalkChannel
    from bot.metrics import Metrics

log = logging.getLogger(__name__)

TOPIC = ChatbotMessage.TOPIC  # "/v1.0/im/bot/messages/get"
OPEN_TIMEOUT = 10.0
HEALTH_LINE_SECONDS = 300.0


class _QuietPings(logging.Filter):
    """The SDK logs every gateway ping as an "unknown message topic"; keep the rest."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "topic=ping" not in record.getMessage()


_SDK_LOG = logging.getLogger("bot.dingtalk.sdk")
_SDK_LOG.addFilter(_QuietPings())


class StreamClient(DingTalkStreamClient):  # type: ignore[misc]
    """The SDK's client, opening its connection at `api_url` with a timeout."""

    def __init__(self, credential: Credential, *, api_url: str) -> None:
        super().__init__(credential, logger=_SDK_LOG)
        self.api_url = api_url.rstrip("/")

    async def open_connection_async(self) -> dict[str, Any] | None:
        """`POST /v1.0/gateway/connections/open`: the socket's endpoint and ticket, or None."""
        topics: list[dict[str, str]] = [
            {"type": "CALLBACK", "topic": topic} for topic in self.callback_handler_map
        ]
        body = {
            "clientId": self.credential.client_id,
            "clientSecret": self.credential.client_secret,
            "subscriptions": topics,
            "ua": f"dingtalk-sdk-python/v{VERSION_STRING}-union",
            "localIp": "",
        }
        try:
            async with httpx.AsyncClient(timeout=OPEN_TIMEOUT) as http:
                response = await http.post(
                    f"{self.api_url}/v1.0/gateway/connections/open", json=body
                )
        except httpx.HTTPError as exc:
            log.warning("could not open the DingTalk stream (%s)", type(exc).__name__)
            return None
        if response.status_code != 200:
            log.warning("could not open the DingTalk stream (HTTP %d)", response.status_code)
            return None
        try:
            data = response.json()
            if isinstance(data.get("endpoint"), str) and isinstance(data.get("ticket"), str):
                return dict(data)
        except (ValueError, AttributeError):
            pass
        log.warning("the DingTalk gateway answered without an endpoint and ticket")
        return None


class RobotHandler(CallbackHandler):  # type: ignore[misc]
    """The robot-message topic: each message to the robot, acknowledged at once."""

    def __init__(
        self, channel: DingTalkChannel, pool: ThreadPoolExecutor, metrics: Metrics
    ) -> None:
        super().__init__()
        self.logger = _SDK_LOG
        self.channel = channel
        self.pool = pool
        self.metrics = metrics

    async def process(self, message: Any) -> tuple[int, str]:
        data = message.data
        problem = message_problem(data)
        if problem is not None:  # redelivering it would not mend it: ack, log, drop
            log.info("malformed DingTalk robot message: %s", problem)
            self.metrics.inc("dingtalk_events_ignored_total", type="malformed")
            return AckMessage.STATUS_OK, "OK"
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self.pool, self.channel.receive, data)
        except RuntimeError:  # shutting down: a failed ack, so DingTalk delivers it again
            return AckMessage.STATUS_SYSTEM_EXCEPTION, "shutting down"
        except Exception:
            log.exception("could not take a DingTalk robot message")
        return AckMessage.STATUS_OK, "OK"


class DingTalkStream:
    """One Stream connection, kept open until stopped (see the module docstring)."""

    def __init__(
        self,
        client: StreamClient,
        *,
        metrics: Metrics,
        ping_seconds: float = 20.0,
        pong_timeout: float | None = None,
        backoff: Backoff | None = None,
        health_line_seconds: float = HEALTH_LINE_SECONDS,
    ) -> None:
        self.client = client
        self.metrics = metrics
        self.ping_seconds = ping_seconds
        self.pong_timeout = pong_timeout or ping_seconds
        self.backoff = backoff or Backoff()
        self.health = StreamHealth()
        self.health_line_seconds = health_line_seconds
        self._tasks: set[asyncio.Task[Any]] = set()
        self._alive = False  # this connection has been heard from
        self._no_pong = False  # the watchdog dropped this connection
        self._disconnect_asked = False  # the gateway asked us to reconnect

    def run(self, stop: threading.Event) -> None:
        """Keep the connection open until `stop` is set (blocks; its own event loop)."""
        asyncio.run(self._run(stop))

    async def _run(self, stop: threading.Event) -> None:
        stopping = asyncio.Event()
        helpers = [
            asyncio.create_task(self._watch_stop(stop, stopping)),
            asyncio.create_task(self._report()),
        ]
        try:
            while not stopping.is_set():
                await self._connect_once(stopping)
                if stopping.is_set():
                    break
                if self._alive:
                    self.backoff.reset()
                delay = 0.0 if self._disconnect_asked else self.backoff.next()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), delay)
        finally:
            for task in helpers:
                task.cancel()
            self.health.set("stopped")

    async def _connect_once(self, stopping: asyncio.Event) -> None:
        """Open one connection and read it until it ends."""
        self._alive = self._no_pong = self._disconnect_asked = False
        self.health.set("connecting")
        opened = await self.client.open_connection_async()
        if opened is None:
            self._reconnecting("the gateway would not open a connection")
            return
        uri = f"{opened['endpoint']}?ticket={quote_plus(opened['ticket'])}"
        reason = "closed by the gateway"
        try:
            async with websockets.connect(
                uri, ping_interval=None, open_timeout=OPEN_TIMEOUT, close_timeout=2
            ) as ws:
                self.client.websocket = ws
                self.health.set("connected")
                watchdog = asyncio.create_task(self._watchdog(ws))
                closer = asyncio.create_task(self._close_on(stopping, ws))
                try:
                    async for raw in ws:
                        self._alive = True
                        self.health.heard()
                        self._spawn(self._route(raw, ws))
                finally:
                    closer.cancel()
                    watchdog.cancel()
        except websockets.ConnectionClosed:
            reason = "connection lost"
        except (websockets.WebSocketException, OSError, TimeoutError) as exc:
            reason = f"could not connect ({type(exc).__name__})"
        if stopping.is_set():
            return
        if self._no_pong:
            reason = f"no pong in {self.pong_timeout:g} s"
        elif self._disconnect_asked:
            reason = "the gateway asked to reconnect"
        self._reconnecting(reason)

    async def _route(self, raw: str | bytes, ws: Any) -> None:
        """One frame through the SDK: parsed, handed to its handler, acknowledged."""
        try:
            frame = json.loads(raw)
            if not isinstance(frame, Mapping):
                raise ValueError("not an object")
        except ValueError:
            log.info("unreadable DingTalk stream frame")
            return
        try:
            result = await self.client.route_message(dict(frame))
        except websockets.ConnectionClosed:
            log.info("could not acknowledge a DingTalk frame: the connection closed")
            return
        except Exception:
            log.exception("could not handle a DingTalk stream frame")
            return
        if result == DingTalkStreamClient.TAG_DISCONNECT:
            self._disconnect_asked = True
            await ws.close()

    async def _watchdog(self, ws: Any) -> None:
        """Ping every `ping_seconds`; no pong within `pong_timeout`: drop the connection."""
        while True:
            await asyncio.sleep(self.ping_seconds)
            try:
                async with asyncio.timeout(self.pong_timeout):
                    pong = await ws.ping()
                    await pong
            except TimeoutError:
                log.warning("no pong from the DingTalk gateway in %g s", self.pong_timeout)
                self._no_pong = True
                ws.transport.abort()
                return
            except websockets.ConnectionClosed:
                return
            self._alive = True
            self.health.heard()

    async def _close_on(self, stopping: asyncio.Event, ws: Any) -> None:
        await stopping.wait()
        await ws.close()

    async def _watch_stop(self, stop: threading.Event, stopping: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.sleep(0.1)
        stopping.set()

    async def _report(self) -> None:
        while True:
            await asyncio.sleep(self.health_line_seconds)
            log.info(self.health.line())

    def _reconnecting(self, reason: str) -> None:
        self.metrics.inc("dingtalk_stream_reconnects_total", reason=reason.split(" (")[0])
        self.health.set("reconnecting", reason)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def stream_for(
    channel: DingTalkChannel,
    *,
    client_id: str,
    client_secret: str,
    api_url: str,
    listeners: ThreadPoolExecutor,
    metrics: Metrics,
    ping_seconds: float = 20.0,
) -> DingTalkStream:
    """The Stream connection of the channel's app, subscribed to robot messages."""
    client = StreamClient(Credential(client_id, client_secret), api_url=api_url)
    client.register_callback_handler(TOPIC, RobotHandler(channel, listeners, metrics))
    return DingTalkStream(client, metrics=metrics, ping_seconds=ping_seconds)


__all__ = ["TOPIC", "DingTalkStream", "RobotHandler", "StreamClient", "stream_for"]
