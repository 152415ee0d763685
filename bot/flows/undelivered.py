"""When a command's answer cannot reach the person who asked: the reasons every channel
tells apart, the message that says each, and what is counted.

Each channel reads its platform's documented answers into one of four reasons (in a
module of its own folder):

- `unreachable`: the platform will not let the bot message this person (outside the
  app's availability or visible range, the bot blocked, a deactivated account...);
  another message to them by the same route fails the same way;
- `busy`: still rate limited after the client waited as long as it would;
- `unconfirmed`: the request may have reached the platform and no answer came (a read
  error or timeout after it was sent): the answer may be there, so nothing more is said;
- `failed`: anything else the platform refused (often the message itself); a short
  plain text may still go through.

What every channel then does is the same: every reason is counted
(`{platform}_{subject}_undelivered_total{reason}`); unless unconfirmed, a short notice in
the person's language (`notice_key`) says what happened and what to do, by whatever route
still works; when none does, the log says what an admin must fix. `tell` does those steps
once for every channel, which brings its reason, its notice and its ordered ways.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import logging
    from collections.abc import Callable, Mapping, Sequence

    from bot.metrics import Metrics

Reason = Literal["unreachable", "busy", "unconfirmed", "failed"]


def notice_key(platform: str, reason: Reason, subject: str = "command") -> str:
    """The message (`bot.messages`) that tells the person `reason`, e.g.
    `dingtalk_command_busy`."""
    return f"{platform}_{subject}_{reason}"


def count(metrics: Metrics, platform: str, reason: Reason, subject: str = "command") -> None:
    """Count an answer that did not reach its person, by `reason`."""
    metrics.inc(f"{platform}_{subject}_undelivered_total", reason=reason)


def tell(
    metrics: Metrics,
    platform: str,
    reason: Reason,
    *,
    error: str,
    notice: Callable[[], str],
    ways: Sequence[Callable[[str], bool]],
    admin_fix: Mapping[Reason, str],
    log: logging.Logger,
    subject: str = "command",
) -> None:
    """An answer that reached nobody: count it, log `error`, and unless it is unconfirmed
    try `ways` in order with the `notice` text until one takes it (True: taken, or may
    have been); when none does, log what an admin must fix (`admin_fix[reason]`)."""
    count(metrics, platform, reason, subject)
    log.warning("could not answer a %s %s (%s: %s)", platform, subject, reason, error)
    if reason == "unconfirmed":  # the answer may be there: a notice could contradict it
        return
    text = notice() if ways else ""  # a reason no way can take may have no notice
    for way in ways:
        if way(text):
            return
    log.warning(
        "nobody can tell the person their answer is lost; an admin can: %s", admin_fix[reason]
    )


__all__ = ["Reason", "count", "notice_key", "tell"]
