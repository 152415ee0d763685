"""What a call to Feishu's open API can fail with (`bot.feishu.api` raises them)."""

from __future__ import annotations


class FeishuError(Exception):
    """Feishu answered with a non-zero code (or could not be asked); `maybe_sent`: a try
    of the call failed after the request may have reached Feishu (it may have acted)."""

    def __init__(
        self, code: int | None, msg: str, *, call: str = "", maybe_sent: bool = False
    ) -> None:
        super().__init__(f"{call}: Feishu code {code}: {msg}" if call else f"code {code}: {msg}")
        self.code = code
        self.msg = msg
        self.call = call
        self.maybe_sent = maybe_sent


class FeishuRateLimited(FeishuError):
    """Still rate limited after waiting as long as the caller would."""


class FeishuUnavailable(FeishuError):
    """Feishu could not be reached, or answered with something that is not JSON."""


__all__ = ["FeishuError", "FeishuRateLimited", "FeishuUnavailable"]
