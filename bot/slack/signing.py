"""Slack's v0 request signature: `X-Slack-Signature` over the raw body and
`X-Slack-Request-Timestamp`, and why a request fails it (so the refusal can be logged
with its reason, never the body). `header_problem` needs only the headers, so it runs
before a byte of the body is read.
"""

from __future__ import annotations

import hashlib
import hmac
import time


def header_problem(
    *,
    timestamp: str | None,
    signature: str | None,
    now: float | None = None,
    tolerance: float = 300,
) -> str | None:
    """Why the signature headers alone already fail (checked before the body is read):
    "missing headers", "bad timestamp" or "stale timestamp"; None when they may pass."""
    if not timestamp or not signature:
        return "missing headers"
    try:
        sent = int(timestamp)
    except ValueError:
        return "bad timestamp"
    if abs((time.time() if now is None else now) - sent) > tolerance:
        return "stale timestamp"
    return None


def signature_problem(
    secret: bytes,
    body: bytes,
    *,
    timestamp: str | None,
    signature: str | None,
    now: float | None = None,
    tolerance: float = 300,
) -> str | None:
    """Why the request is not signed by Slack (the headers' problem, or "bad signature"),
    or None when it is."""
    problem = header_problem(timestamp=timestamp, signature=signature, now=now, tolerance=tolerance)
    if problem is not None or not timestamp or not signature:
        return problem or "missing headers"
    expected = sign(secret, body, timestamp=timestamp).encode()
    ok = hmac.compare_digest(expected, signature.encode("utf-8", "replace"))
    return None if ok else "bad signature"


def verify_signature(
    secret: bytes,
    body: bytes,
    *,
    timestamp: str | None,
    signature: str | None,
    now: float | None = None,
    tolerance_seconds: int = 300,
) -> bool:
    """Slack's v0 request signature over the raw bytes, and a timestamp not too old."""
    problem = signature_problem(
        secret, body, timestamp=timestamp, signature=signature, now=now, tolerance=tolerance_seconds
    )
    return problem is None


def sign(secret: bytes, body: bytes, *, timestamp: str) -> str:
    """Slack's v0 signature (`X-Slack-Signature`) of `body` sent at `timestamp`."""
    base = b"v0:" + timestamp.encode("ascii", "replace") + b":" + body
    return "v0=" + hmac.new(secret, base, hashlib.sha256).hexdigest()


__all__ = ["header_problem", "sign", "signature_problem", "verify_signature"]
