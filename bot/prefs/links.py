"""Signed, expiring links to a person's preferences page, the same for every chat platform.

A link is `PUBLIC_URL/prefs?token=T`. The token `T` is `v1.<payload>.<signature>`: the
payload a compact JSON object, base64url-encoded, with the namespace (`n`), the expiry in
Unix seconds (`e`), when it was issued in Unix milliseconds (`i`: erasing the person's
memory revokes everything issued until then, `bot.prefs.revocations`), a random id (`j`,
which makes every link single-use: the page records its exchange, and an exchanged link
is spent for the API too, see `bot.web.sessions`) and, when known, the person's
language (`l`); the signature HMAC-SHA256 over `v1.<payload>`.

Each use of `PREFS_LINK_SECRET` signs with a key derived for that purpose alone
(`Signer(secret, purpose)`), so a page session cookie can never pass as a link, nor a
link as a session. Checking a token compares signatures in constant time and answers
None for anything wrong (tampered, expired, malformed, signed with another secret)
without saying which.

`link_url(base, secret, namespace, ...)` makes a link; reading `PREFS_LINK_SECRET` and
`PUBLIC_URL` for it (`preferences_url`, the channels' `page_links`) is the composition
root's, `bot.compose.links`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from memory.lang import Lang

VERSION = "v1"
MIN_SECRET_CHARS = 16
MAX_TOKEN_CHARS = 1024  # anything longer is refused unread
MAX_NAMESPACE_CHARS = 256  # the memory engine's own limit
PAGE_PATH = "/prefs"
LINK_PURPOSE = "prefs-link"


class Signer:
    """Signs small JSON payloads for one purpose, with a key derived from the secret."""

    def __init__(self, secret: str, purpose: str) -> None:
        if len(secret) < MIN_SECRET_CHARS:
            raise ValueError(f"the secret must have at least {MIN_SECRET_CHARS} characters")
        label = f"travel-bot/{VERSION}/{purpose}".encode()
        self._key = hmac.new(secret.encode("utf-8"), label, hashlib.sha256).digest()

    def sign(self, payload: Mapping[str, object]) -> str:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        body = f"{VERSION}.{_b64(data.encode('utf-8'))}"
        return f"{body}.{_b64(self._mac(body))}"

    def unsign(self, token: object) -> dict[str, Any] | None:
        """The payload of a token this signer made, or None (nothing says why)."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
            return None
        body, _, signature = token.rpartition(".")
        version, _, payload = body.partition(".")
        if version != VERSION or not payload or not signature:
            return None
        # The encoded forms are compared, so no other spelling of the same bytes passes.
        expected = _b64(self._mac(body))
        if not hmac.compare_digest(expected.encode("ascii"), signature.encode("utf-8", "replace")):
            return None
        raw = _unb64(payload)
        try:
            data = json.loads(raw.decode("utf-8")) if raw is not None else None
        except (UnicodeDecodeError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _mac(self, body: str) -> bytes:
        return hmac.new(self._key, body.encode("ascii"), hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class LinkClaims:
    """What a valid link token says: whose page, until when, its id and language."""

    namespace: str
    expires_at: int  # Unix seconds
    jti: str
    lang: Lang | None = None
    issued_at: int = 0  # Unix milliseconds (0: a link from before they said)

    def seconds_left(self, now: float | None = None) -> int:
        return max(0, self.expires_at - int(time.time() if now is None else now))


def issue_token(
    secret: str,
    namespace: str,
    *,
    ttl_seconds: int,
    lang: Lang | None = None,
    now: float | None = None,
    purpose: str = LINK_PURPOSE,
) -> str:
    """A token for `namespace`'s page, valid for `ttl_seconds` from `now`."""
    check_namespace(namespace)
    if ttl_seconds < 1:
        raise ValueError("a link must be valid for at least a second")
    issued = time.time() if now is None else now
    expires = int(issued) + ttl_seconds
    payload: dict[str, object] = {
        "n": namespace,
        "e": expires,
        "i": int(issued * 1000),
        "j": secrets.token_urlsafe(12),
    }
    if lang is not None:
        payload["l"] = lang
    return Signer(secret, purpose).sign(payload)


def read_token(
    secret: str, token: object, *, now: float | None = None, purpose: str = LINK_PURPOSE
) -> LinkClaims | None:
    """The claims of a valid, unexpired token, or None."""
    data = Signer(secret, purpose).unsign(token)
    if data is None:
        return None
    namespace, expires, jti, lang = data.get("n"), data.get("e"), data.get("j"), data.get("l")
    if not isinstance(namespace, str) or namespace_problem(namespace):
        return None
    if isinstance(expires, bool) or not isinstance(expires, int):
        return None
    if not isinstance(jti, str) or not 8 <= len(jti) <= 64:
        return None
    if lang not in (None, "en", "zh"):
        return None
    if expires <= int(time.time() if now is None else now):
        return None
    issued = data.get("i", 0)
    if isinstance(issued, bool) or not isinstance(issued, int) or issued < 0:
        return None
    return LinkClaims(namespace, expires, jti, cast("Lang | None", lang), issued)


def named_namespace(token: object) -> str | None:
    """The namespace a token (a link, or a page session cookie) names, read WITHOUT
    checking its signature or expiry: only for choosing words on a page that refuses it
    (which chat platform to ask for a new link), never for access. The payload is plain
    base64 JSON that whoever holds the token can read anyway, and reading it unchecked
    keeps the refusal the same for a forged, an expired and a spent token alike."""
    namespace = _unchecked(token).get("n")
    if not isinstance(namespace, str) or namespace_problem(namespace):
        return None
    return namespace


def named_lang(token: object) -> Lang | None:
    """The language a token names, read unchecked as `named_namespace` reads its
    namespace: the words of the page that refuses it, the same for every refused token."""
    lang = _unchecked(token).get("l")
    return "zh" if lang == "zh" else "en" if lang == "en" else None


def _unchecked(token: object) -> dict[str, object]:
    """A token's payload, its signature and expiry unchecked ({} when unreadable)."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
        return {}
    version, _, rest = token.partition(".")
    raw = _unb64(rest.partition(".")[0]) if version == VERSION else None
    try:
        data = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def namespace_problem(namespace: str) -> str | None:
    if not namespace.strip():
        return "the namespace is empty"
    if len(namespace) > MAX_NAMESPACE_CHARS:
        return f"the namespace is longer than {MAX_NAMESPACE_CHARS} characters"
    if any(unicodedata.category(ch) in ("Cs", "Cc", "Cf", "Zl", "Zp") for ch in namespace):
        return "the namespace contains control characters or broken Unicode"
    return None


def check_namespace(namespace: str) -> None:
    problem = namespace_problem(namespace)
    if problem:
        raise ValueError(problem)


def public_url_problem(url: str) -> str:
    """What is wrong with a `PUBLIC_URL` that `public_base` cannot use."""
    url = url.strip()
    if not url:
        return "PUBLIC_URL is not set"
    if "://" not in url:
        return f"PUBLIC_URL={url} has no scheme: write https://{url} or http://{url}"
    return f"PUBLIC_URL={url} is not an http:// or https:// URL"


def public_base_of(url: str) -> str:
    """A `PUBLIC_URL` without its trailing slash ("" when empty or not an http(s) URL)."""
    url = url.strip().rstrip("/")
    return url if url.startswith(("https://", "http://")) else ""


def link_url(
    base: str, secret: str, namespace: str, *, ttl_minutes: int, lang: Lang | None = None
) -> str:
    """A fresh link to `namespace`'s page at `base` (PUBLIC_URL, no trailing slash): valid
    for `ttl_minutes`, once; opens in `lang` when given (else the browser's language)."""
    token = issue_token(secret, namespace, ttl_seconds=ttl_minutes * 60, lang=lang)
    return f"{base}{PAGE_PATH}?token={token}"


LinkProvider = Callable[[str, str], str | None]  # (namespace, lang) -> URL or None


def no_link(namespace: str, lang: str) -> str | None:
    """A link provider for a deployment without the web page: no *Edit* button."""
    return None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes | None:
    if not text or len(text) % 4 == 1 or not _URLSAFE.issuperset(text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


_URLSAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

__all__ = [
    "LINK_PURPOSE",
    "MIN_SECRET_CHARS",
    "PAGE_PATH",
    "LinkClaims",
    "LinkProvider",
    "Signer",
    "issue_token",
    "link_url",
    "named_namespace",
    "namespace_problem",
    "no_link",
    "public_base_of",
    "public_url_problem",
    "read_token",
]
