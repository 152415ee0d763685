"""Feishu's long connection: `travel-bot feishu`, for a bot without a public URL.

`lark-oapi`'s `ws.Client` asks `/callback/ws/endpoint` for a WebSocket URL with the app id
and secret, connects, pings, and hands each event frame to the same dispatcher as the
HTTP route (unencrypted and unsigned: the connection itself is authenticated), then
acknowledges the frame with the handler's answer. (So there is no
`X-Lark-Request-Timestamp` to check here; card clicks are claimed once all the same, by
the handler both transports share.) Three things in it need care:

- Its event loop is a module-level global, created when the SDK is imported, and
  `start()` blocks forever on it. `LongConnection` runs the client on a thread of its
  own, with an event loop of its own installed as that global before the client is
  built (in that thread).
- That global makes two clients in one process share one loop: one connection per
  process (`start` refuses a second).
- There is no `stop()`. A client left connected after a restart keeps receiving, and
  Feishu spreads events over every connection of the app, so an orphan steals them.
  `stop` turns reconnecting off, closes the socket, cancels every task of the loop and
  closes it, so the process leaves nothing behind.

Handlers run on that loop: they only queue work (the conversation's agent pool, the
task pool) and card buttons wait for their work only briefly (`ANSWER_WITHIN`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import TYPE_CHECKING, Any, ClassVar

import lark_oapi as lark
import lark_oapi.ws.client as ws_client

from bot.feishu.events import dispatcher

if TYPE_CHECKING:
    from bot.feishu.channel import FeishuChannel

log = logging.getLogger(__name__)

ANSWER_WITHIN = 0.2  # seconds a card button holds the connection's loop for its work


class LongConnection:
    """One long connection of this process (see the module docstring)."""

    _active: ClassVar[LongConnection | None] = None
    _guard: ClassVar[threading.Lock] = threading.Lock()

    def __init__(
        self, *, app_id: str, app_secret: str, handler: Any, domain: str, reconnect: bool = True
    ) -> None:
        self.app_id = app_id
        self._secret = app_secret
        self.handler = handler
        self.domain = domain.rstrip("/")
        self.reconnect = reconnect
        self.error: BaseException | None = None
        self._client: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._built = threading.Event()

    @property
    def connected(self) -> bool:
        client = self._client
        return client is not None and getattr(client, "_conn", None) is not None

    def start(self, *, timeout: float = 30.0) -> bool:
        """Connect on a thread of its own; True once connected within `timeout` (else it
        keeps trying in the background). Raises what Feishu refused for good (a wrong
        app id or secret), and `RuntimeError` for a second connection in one process."""
        with LongConnection._guard:
            if LongConnection._active is not None:
                raise RuntimeError("one Feishu long connection per process")
            LongConnection._active = self
        self._thread = threading.Thread(target=self._run, name="feishu-ws", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connected:
                return True
            if not self._thread.is_alive():
                self._release()
                if self.error is not None:
                    raise self.error
                return False
            time.sleep(0.02)
        return self.connected

    def stop(self, timeout: float = 10.0) -> None:
        """Disconnect for good and end the thread (see the module docstring)."""
        if self._thread is None:  # never started
            self._release()
            return
        self._built.wait(timeout)
        loop, client = self._loop, self._client
        if loop is not None and client is not None and not loop.is_closed():

            async def shut() -> None:
                client._auto_reconnect = False
                try:
                    await asyncio.wait_for(client._disconnect(), timeout / 2)
                except Exception as exc:
                    log.info("closing the Feishu connection failed (%s)", type(exc).__name__)
                current = asyncio.current_task()
                for task in asyncio.all_tasks():
                    if task is not current:
                        task.cancel()

            try:
                asyncio.run_coroutine_threadsafe(shut(), loop).result(timeout)
            except Exception as exc:  # the loop already ended, or is stuck in a request
                log.info("stopping the Feishu connection: %s", type(exc).__name__)
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the Feishu connection thread did not end in time")
        self._release()

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_closed_quietly)
        asyncio.set_event_loop(loop)
        ws_client.loop = loop  # the SDK's module-level loop: this thread's own
        self._loop = loop
        try:
            self._client = lark.ws.Client(
                self.app_id,
                self._secret,
                event_handler=self.handler,
                domain=self.domain,
                log_level=lark.LogLevel.WARNING,
                auto_reconnect=self.reconnect,
            )
            self._built.set()
            self._client.start()  # blocks until `stop` cancels its tasks
        except asyncio.CancelledError:
            pass  # stopped
        except BaseException as exc:
            self.error = exc
            log.error("the Feishu long connection failed (%s)", type(exc).__name__)
        finally:
            self._built.set()
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

    def _release(self) -> None:
        with LongConnection._guard:
            if LongConnection._active is self:
                LongConnection._active = None


def _closed_quietly(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The SDK's receive task ends with the socket's close, an exception nobody awaits:
    not worth an error in the log (the SDK logs the disconnection itself)."""
    if type(context.get("exception")).__name__.startswith("ConnectionClosed"):
        return
    loop.default_exception_handler(context)


def serve_long_connection(
    channel: FeishuChannel,
    *,
    app_id: str,
    app_secret: str,
    domain: str,
    encrypt_key: str = "",
    verification_token: str = "",
    stop: threading.Event,
    connect_timeout: float = 30.0,
) -> None:
    """Answer Feishu over the long connection until `stop` is set; then disconnect.

    Card buttons hold the connection's loop only `ANSWER_WITHIN` for their work."""
    if not app_secret or not app_id:
        raise ValueError("FEISHU_APP_ID and FEISHU_APP_SECRET are not set")
    channel.answer_within = ANSWER_WITHIN
    handler = dispatcher(channel, encrypt_key=encrypt_key, verification_token=verification_token)
    connection = LongConnection(
        app_id=app_id, app_secret=app_secret, handler=handler, domain=domain
    )
    try:
        if connection.start(timeout=connect_timeout):
            log.info("Feishu long connection established")
        else:
            log.warning("Feishu is not reachable yet; the connection keeps trying")
        stop.wait()
    finally:
        connection.stop()


__all__ = ["ANSWER_WITHIN", "LongConnection", "serve_long_connection"]
