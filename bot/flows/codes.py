"""What a button or a typed command asks for, kept under a short code.

A channel's message can offer an action as a short command that names a code, such as
`保存行程 K7P2M9QX` (`bot.flows.code_commands`): a button that sends it to the chat as the
person who taps, or a line that says what to type for whoever cannot click. The command
arrives as an ordinary message whose sender the platform vouches for, and the code names
what was offered: the trip to save, or whose memory to forget. Who acts is never taken
from the code itself.

Codes live in Redis (`{prefix}{platform}:action:{code}`, JSON, with a TTL; each platform
its own, so a code works only where it was shown); when Redis is unreachable a bounded
in-process table keeps them, so codes still work in one process. `take` reads and
deletes at once: a confirmation works once. `amend` adds to what a code names, its TTL
kept (where the message that offers it was posted, known only after the code).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

log = logging.getLogger(__name__)

# No 0/O or 1/I/L: a code someone types from a screenshot still works.
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_code() -> str:
    """A fresh code; it always holds a digit, so that a word of eight letters
    ("save trip saturday") is never taken for one (`bot.flows.code_commands`)."""
    while True:
        code = "".join(secrets.choice(_ALPHABET) for _ in range(CODE_LENGTH))
        if any(ch.isdigit() for ch in code):
            return code


class PendingActions:
    """Short codes for what a button offers; thread-safe."""

    def __init__(
        self,
        *,
        client: Any | None,
        platform: str,
        key_prefix: str = "",
        capacity: int = 10_000,
    ) -> None:
        self._client = client
        self._prefix = f"{key_prefix}{platform}:action:"
        self._local: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def key(self, code: str) -> str:
        return f"{self._prefix}{code}"

    def put(self, data: dict[str, Any], *, ttl_seconds: int) -> str:
        """Keep `data` for `ttl_seconds`; the code that names it."""
        code = new_code()
        value = json.dumps(data, ensure_ascii=False)
        if self._client is not None:
            try:
                self._client.set(self.key(code), value, ex=ttl_seconds)
                return code
            except Exception as exc:
                log.warning(
                    "pending action via Redis failed (%s); keeping it locally", type(exc).__name__
                )
        with self._lock:
            while len(self._local) >= self._capacity:
                self._local.popitem(last=False)
            self._local[code] = (time.monotonic() + ttl_seconds, value)
        return code

    def amend(self, code: str, extra: dict[str, Any]) -> bool:
        """Add `extra` to what `code` names, its TTL kept (known only once the offer is
        shown: where its message is); False when the code is gone or Redis failed."""
        code = code.strip().upper()
        with self._lock:
            local = self._local.get(code)
            if local is not None and local[0] > time.monotonic():
                data = {**json.loads(local[1]), **extra}
                self._local[code] = (local[0], json.dumps(data, ensure_ascii=False))
                return True
        if self._client is None:
            return False
        key = self.key(code)
        try:
            raw = self._client.get(key)
            if raw is None:
                return False
            data = {**json.loads(raw), **extra}
            value = json.dumps(data, ensure_ascii=False)
            return bool(self._client.set(key, value, keepttl=True, xx=True))
        except Exception as exc:
            log.warning("pending action not amended (%s)", type(exc).__name__)
            return False

    def get(self, code: str) -> dict[str, Any] | None:
        """What `code` names, or None (unknown or expired)."""
        return self._read(code, delete=False)

    def take(self, code: str) -> dict[str, Any] | None:
        """What `code` names, deleted at once: only one caller gets it."""
        return self._read(code, delete=True)

    def _read(self, code: str, *, delete: bool) -> dict[str, Any] | None:
        code = code.strip().upper()
        if not code or any(c not in _ALPHABET for c in code):
            return None
        with self._lock:
            local = self._local.pop(code, None) if delete else self._local.get(code)
        value: str | None = None
        if local is not None and local[0] > time.monotonic():
            value = local[1]
        elif self._client is not None:
            try:
                key = self.key(code)
                raw = self._client.getdel(key) if delete else self._client.get(key)
                value = raw.decode() if isinstance(raw, bytes) else raw
            except Exception as exc:
                log.warning("pending action unavailable (%s)", type(exc).__name__)
        if value is None:
            return None
        try:
            data = json.loads(value)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None


__all__ = ["CODE_LENGTH", "PendingActions"]
