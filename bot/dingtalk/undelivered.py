"""Why a command's answer did not reach the person, read from DingTalk's answers.

`Delivery.send` raises `DingTalkError` only when no way took the answer (a send that may
have arrived is "unconfirmed" and never raises), so what is left is one of the core's
reasons (`bot.flows.undelivered`):

- `unreachable`: the robot may not message the person one-to-one: batchSend named their
  staff id in `invalidStaffIdList` (outside the app's visible range, or gone from the
  organisation), or an external contact whose session webhook failed has no other route;
- `busy`: DingTalk still rate limited the send (`...QpsLimit...`, HTTP 429, or the person
  in `flowControlledStaffIdList`) after `OpenAPI` waited as long as it would;
- `failed`: anything else DingTalk refused or could not take (an invalid message, an
  outage that outlasted the retries).

`ADMIN_FIX[reason]` is what the log says when nothing can tell the person.
"""

from __future__ import annotations

from bot.dingtalk.api import DingTalkError
from bot.flows.undelivered import Reason

ADMIN_FIX: dict[Reason, str] = {
    "unreachable": "add the person to the robot's visible range (可见范围) in the DingTalk "
    "developer console, or ask them to write to the robot one-to-one",
    "busy": "DingTalk rate-limits the robot's sends; spread the load or raise the app's quota",
    "failed": "check the robot's permissions (Robot.*) and DingTalk's status",
    "unconfirmed": "nothing: DingTalk may have shown the answer",
}


def why(exc: DingTalkError) -> Reason:
    """What a failed answer means for the person (see the module docstring)."""
    reason = exc.reason
    if exc.maybe_sent:
        return "unconfirmed"
    if "invalid staff id" in reason or "external contact" in reason:
        return "unreachable"
    if "QpsLimit" in reason or "flow controlled" in reason or "HTTP 429" in reason:
        return "busy"
    return "failed"


def code_of(exc: DingTalkError) -> str:
    """DingTalk's error as the person is told it: its code, without the path it came from."""
    return exc.reason.rsplit(": ", 1)[-1]


__all__ = ["ADMIN_FIX", "code_of", "why"]
