"""Signed requests acted on once: a signature proves who sent a request, not that it is new.

Every platform signs its callbacks, but a captured request stays valid for a while
(minutes on one platform, an hour or more on others), and sent again as it
was it would act again: erase what was told since, save a trip twice. So whatever acts
on a callback first claims it once, through the claims every message uses
(`bot.conversation.claims`: Redis and an in-process table, so it holds while Redis is
down):

- `first_request(claims, platform, *ids)`: the request's own single-use ids (a trigger
  id, a card callback's event id and action token). True the first time; a replay gets
  False and does nothing. The core's pipeline claims a `Request`'s `once` names the same
  way (`request_name`).
- `first_signature(claims, platform, signature, body)`: for a signature that does not
  cover the body (one that covers only its timestamp), the signature itself
  is claimed, with a digest of the body: "first" for a new signature, "again" for the
  same signature with the same body (a redelivery, harmless: acknowledge and drop),
  "reused" for the same signature with another body (a forgery: refuse it, 401).

Claims last `ttl_seconds`, which must outlive the window in which the platform's
signature is accepted, so a replay always finds its claim.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from bot.conversation.claims import Claims
    from bot.platform import Platform

Seen = Literal["first", "again", "reused"]


def request_name(platform: Platform, request_id: str) -> str:
    """The claim's name of one request id of `platform`."""
    return f"bot:seen:request:{platform.key(request_id)}"


def first_request(claims: Claims, platform: Platform, *ids: str, ttl_seconds: int) -> bool:
    """True the first time a request carrying any of `ids` comes (each is claimed)."""
    names = [request_name(platform, request_id) for request_id in ids if request_id]
    return claims.claim(*names, ttl_seconds=ttl_seconds) if names else True


def first_signature(
    claims: Claims, platform: Platform, signature: str, body: bytes, *, ttl_seconds: int
) -> Seen:
    """Whether `signature` comes for the first time, again with the same body, or reused
    with another body (see the module docstring)."""
    name = request_name(platform, f"sign-{hashlib.sha256(signature.encode()).hexdigest()}")
    with_body = f"{name}:{hashlib.sha256(body).hexdigest()[:32]}"
    if claims.claim(name, ttl_seconds=ttl_seconds):
        claims.claim(with_body, ttl_seconds=ttl_seconds)
        return "first"
    if claims.claim(with_body, ttl_seconds=ttl_seconds):
        claims.release(with_body)  # never seen with this body: the body is not the one signed
        return "reused"
    return "again"


__all__ = ["Seen", "first_request", "first_signature", "request_name"]
