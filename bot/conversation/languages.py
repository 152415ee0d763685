"""The language a person is answered in when an event carries none of theirs.

Each message is answered in its own language (its text's, read by the channel's parser;
`DEFAULT_LANGUAGE` when the text says nothing, e.g. "MU5101"). Some events carry no text
and no locale (a platform's bot menu): for those, a person's language is

1. the language their last message was answered in (kept in Redis per namespace,
   `{prefix}bot:lang:{namespace}`, for `TTL_SECONDS`: only "en" or "zh", nothing they
   wrote);
2. else the language most of their remembered facts are in (their own words, kept in
   their language);
3. else unknown (None): the caller falls back to `DEFAULT_LANGUAGE`.

Redis or memory failing means unknown, never an error: the answer still goes out.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from memory.lang import Lang
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

TTL_SECONDS = 180 * 24 * 3600


class Languages:
    """Each person's language as last seen (see the module docstring)."""

    def __init__(
        self,
        *,
        client: Any | None,
        memory: LongTermMemory | None = None,
        key_prefix: str = "",
        ttl_seconds: int = TTL_SECONDS,
    ) -> None:
        self._client = client
        self._memory = memory
        self._prefix = key_prefix
        self.ttl_seconds = ttl_seconds

    def key(self, namespace: str) -> str:
        return f"{self._prefix}bot:lang:{namespace}"

    def note(self, namespace: str, lang: Lang) -> None:
        """The person `namespace` was just answered in `lang`."""
        if self._client is None or lang not in ("en", "zh"):
            return
        try:
            self._client.set(self.key(namespace), lang, ex=self.ttl_seconds)
        except Exception as exc:
            log.warning("could not note a person's language (%s)", type(exc).__name__)

    def of(self, namespace: str) -> Lang | None:
        """The person's language, or None when nothing says it."""
        seen = self._last(namespace)
        return seen if seen is not None else self._of_facts(namespace)

    def _last(self, namespace: str) -> Lang | None:
        if self._client is None:
            return None
        try:
            raw = self._client.get(self.key(namespace))
        except Exception as exc:
            log.warning("could not read a person's language (%s)", type(exc).__name__)
            return None
        value = raw.decode() if isinstance(raw, bytes) else raw
        return "zh" if value == "zh" else "en" if value == "en" else None

    def _of_facts(self, namespace: str) -> Lang | None:
        if self._memory is None:
            return None
        try:
            items = self._memory.items(namespace)
        except MemoryEngineError as exc:
            log.warning("could not read a person's facts for their language (%s)", exc)
            return None
        if not items:
            return None
        zh = sum(1 for item in items if item.lang.startswith("zh"))
        return "zh" if zh * 2 > len(items) else "en"


__all__ = ["TTL_SECONDS", "Languages"]
