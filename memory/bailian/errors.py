"""What can go wrong talking to Bailian, as the memory engine's errors.

Every one is a `StoreUnavailable`: for the bot, a store that refuses, fails or cannot be
reached is the same thing (a write reports that nothing was saved; a recall says memory
is unavailable). The subclasses say why, for logs and tests.
"""

from __future__ import annotations

from memory.errors import StoreUnavailable


class BailianError(StoreUnavailable):
    """A call to Bailian's memory API failed; nothing was written by it.

    `status` is the HTTP status (0 when no answer came back), `code` the service's error
    code ("InvalidApiKey", ...) and `request_id` its request id, when it sent them.
    """

    def __init__(
        self, message: str, *, status: int = 0, code: str = "", request_id: str = ""
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.request_id = request_id


class BailianAuthError(BailianError):
    """401/403: the API key is wrong, of another workspace or region, or lacks permission."""


class BailianRateLimited(BailianError):
    """429 after the retries (or a Retry-After longer than we may wait)."""


class BailianUnreachable(BailianError):
    """No answer: connection refused, DNS, TLS, or a timeout."""


class BailianServerError(BailianError):
    """5xx after the retries."""


class BailianBadResponse(BailianError):
    """An answer that is not the JSON object the API documents."""


class BailianRequestError(BailianError):
    """Another 4xx (400 bad parameter, 404 not found): the request was refused as sent."""


__all__ = [
    "BailianAuthError",
    "BailianBadResponse",
    "BailianError",
    "BailianRateLimited",
    "BailianRequestError",
    "BailianServerError",
    "BailianUnreachable",
]
