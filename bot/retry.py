"""How long a rate-limited server asks us to wait, read the same way for every server.

The model endpoint (through `openai`) and Slack's Web API both answer 429 with a
`Retry-After` header (delta seconds; OpenAI-compatible servers may send `Retry-After-Ms`
as well). Each caller decides what to do with the answer: the agent waits it out when
it is short and backs off on its own otherwise; a Slack post waits it out within its
patience.
"""

from __future__ import annotations

from collections.abc import Mapping

_HEADERS = (("retry-after-ms", 0.001), ("retry-after", 1.0))


def retry_after(headers: Mapping[str, object]) -> float | None:
    """The wait a response asks for, in seconds; None when it names none we can read.

    Header names match in any case; a value may be a string or a list of them (the
    Slack SDK's shape). An HTTP date is not read: the caller backs off on its own.
    """
    found = {str(name).lower(): value for name, value in headers.items()}
    for name, scale in _HEADERS:
        value = found.get(name)
        if isinstance(value, list | tuple):
            value = value[0] if value else None
        if value is None:
            continue
        try:
            return float(str(value)) * scale
        except ValueError:
            continue
    return None


__all__ = ["retry_after"]
