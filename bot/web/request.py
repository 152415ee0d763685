"""The request and response pieces the preferences page and its API share.

`Request` is what a route reads of an ASGI request (method, path, query, headers,
cookies, the body within a limit). `Reply` is a whole response; every one of them goes out
with headers that keep the page to itself: a Content-Security-Policy that allows only our
own styles and script and forms posting back to us, no framing, no referrer (a link
token must never leak through a `Referer` header), no caching of personal pages, and no
content-type sniffing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from bot.http.asgi import (
    NO_BODY,
    Receive,
    Scope,
    Send,
    first,
    headers_of,
    read_body,
    send_response,
)

CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = (
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
)
HTML = "text/html; charset=utf-8"
JSON = "application/json; charset=utf-8"


@dataclass
class Request:
    scope: Scope
    receive: Receive
    headers: dict[str, list[str]]
    query: dict[str, list[str]]
    cookies: dict[str, str]

    @classmethod
    def of(cls, scope: Scope, receive: Receive) -> Request:
        headers = headers_of(scope)
        raw_query = scope.get("query_string", b"").decode("latin-1")
        try:
            query = parse_qs(raw_query, keep_blank_values=True, max_num_fields=50)
        except ValueError:  # too many fields: none of them is read
            query = {}
        return cls(scope, receive, headers, query, _cookies(headers.get("cookie", [])))

    @property
    def method(self) -> str:
        return str(self.scope["method"])

    @property
    def path(self) -> str:
        return str(self.scope["path"])

    def header(self, name: str) -> str | None:
        return first(self.headers.get(name))

    def arg(self, name: str) -> str | None:
        return first(self.query.get(name))

    @property
    def https(self) -> bool:
        """Whether the request came over HTTPS (uvicorn sets the scheme from
        `X-Forwarded-Proto` only for the proxies `FORWARDED_ALLOW_IPS` trusts)."""
        return self.scope.get("scheme") == "https"

    async def body(self, limit: int) -> bytes:
        """The body, at most `limit` bytes (`bot.http.asgi.PayloadTooLarge` beyond)."""
        return await read_body(self.receive, self.headers, limit)


@dataclass
class Reply:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)

    async def send(self, send: Send) -> None:
        typed = [] if self.status in NO_BODY else [("content-type", self.content_type)]
        headers = [*typed, *SECURITY_HEADERS, *self.headers]
        if not any(name == "cache-control" for name, _ in self.headers):
            headers.append(("cache-control", "no-store"))
        encoded = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        await send_response(send, self.status, self.body, encoded)


def html(status: int, text: str, **headers: str) -> Reply:
    return Reply(status, text.encode("utf-8"), HTML, list(headers.items()))


def json_reply(status: int, payload: Mapping[str, Any], *extra: tuple[str, str]) -> Reply:
    """JSON, with `<`, `>` and `&` escaped so no stored text can ever read as markup."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Reply(status, text.encode("utf-8"), JSON, list(extra))


def error(status: int, code: str, message: str, *extra: tuple[str, str], **more: Any) -> Reply:
    """A JSON error: `{"ok": false, "error": code, "message": ...}` and anything in `more`."""
    return json_reply(status, {"ok": False, "error": code, "message": message, **more}, *extra)


def redirect(location: str, *extra: tuple[str, str]) -> Reply:
    return Reply(303, b"", "text/plain; charset=utf-8", [("location", location), *extra])


def cookie(name: str, value: str, *, max_age: int, secure: bool, path: str = "/") -> str:
    """A `Set-Cookie` value: HttpOnly, SameSite=Strict, Secure behind HTTPS."""
    parts = [f"{name}={value}", f"Path={path}", f"Max-Age={max_age}", "HttpOnly", "SameSite=Strict"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def form_fields(body: bytes) -> dict[str, list[str]] | None:
    """An `application/x-www-form-urlencoded` body, or None when it cannot be read."""
    try:
        text = body.decode("utf-8")
        return parse_qs(text, keep_blank_values=True, strict_parsing=False, max_num_fields=500)
    except (UnicodeDecodeError, ValueError):
        return None


def _cookies(values: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for value in values:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(value)
        except CookieError:
            continue
        for name, morsel in jar.items():
            found.setdefault(name, morsel.value)
    return found


__all__ = [
    "CSP",
    "HTML",
    "JSON",
    "Reply",
    "Request",
    "cookie",
    "error",
    "form_fields",
    "html",
    "json_reply",
    "redirect",
]
