"""The few ASGI pieces every HTTP route shares: types, reading a body, answering.

No framework: the application (`bot.http.app`) and each channel's routes (e.g.
`bot.slack.http`) speak ASGI directly, so a request costs nothing beyond what it does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = Mapping[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Route = Callable[[Scope, Receive, Send], Awaitable[None]]


class PayloadTooLarge(Exception):
    pass


class ClientDisconnected(Exception):
    """The client went away (or was cut off by the body deadline) before its whole body
    arrived: there is no one to answer. `WebApp` drops the request quietly."""


async def read_body(receive: Receive, headers: Mapping[str, list[str]], limit: int) -> bytes:
    """The request body, at most `limit` bytes (`PayloadTooLarge` beyond).

    A declared `Content-Length` over `limit` is refused before a byte is read, and
    nothing beyond `limit` is ever kept; a body cut short raises `ClientDisconnected`.
    """
    if declared_too_large(headers, limit):
        raise PayloadTooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnected
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def declared_too_large(headers: Mapping[str, list[str]], limit: int) -> bool:
    """Whether the request's `Content-Length` says its body is longer than `limit`
    (checked before reading; a chunked body is counted as it is read)."""
    declared = first(headers.get("content-length"))
    return declared is not None and declared.strip().isdigit() and int(declared) > limit


def headers_of(scope: Scope) -> dict[str, list[str]]:
    """The request headers, lower-case names, every value kept."""
    headers: dict[str, list[str]] = {}
    for name, value in scope.get("headers", []):
        headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    return headers


def first(values: list[str] | None) -> str | None:
    return values[0] if values else None


async def respond(
    send: Send,
    status: int,
    body: bytes,
    content_type: str = "text/plain; charset=utf-8",
    **extra: str,
) -> None:
    """A whole response: status, content type, any extra headers, the body."""
    headers = [(b"content-type", content_type.encode())]
    headers += [(k.encode(), v.encode()) for k, v in extra.items()]
    await send_response(send, status, body, headers)


NO_BODY = frozenset({204, 304})


async def send_response(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    if status not in NO_BODY:  # a 204 has no body, so no length (RFC 9110, 8.6)
        headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = [
    "NO_BODY",
    "ClientDisconnected",
    "Message",
    "PayloadTooLarge",
    "Receive",
    "Route",
    "Scope",
    "Send",
    "declared_too_large",
    "first",
    "headers_of",
    "read_body",
    "respond",
    "send_response",
]
