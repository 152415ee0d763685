"""Toy's transport: `POST /toy/events` (a message: 200 at once, handled on the dispatch
pool) and `POST /toy/clicks` (a button: answered with the widget that replaces it)."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

from bot.http.asgi import Receive, Scope, Send, headers_of, read_body, respond
from tests.toy.channel import Toy

EVENTS_PATH, CLICKS_PATH = "/toy/events", "/toy/clicks"


class ToyRoute:
    def __init__(self, toy: Toy, pool: ThreadPoolExecutor, *, clicks: bool = False) -> None:
        self.toy, self.pool, self.clicks = toy, pool, clicks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = json.loads(await read_body(receive, headers_of(scope), 65536))
        loop = asyncio.get_running_loop()
        if not self.clicks:
            await loop.run_in_executor(self.pool, self.toy.receive, body)
            await respond(send, 200, b"{}", "application/json")
            return
        shown = await loop.run_in_executor(self.pool, self.toy.click, body)
        await respond(send, 200, json.dumps(shown, ensure_ascii=False).encode(), "application/json")


__all__ = ["CLICKS_PATH", "EVENTS_PATH", "ToyRoute"]
