"""Why a card a person asked for did not reach them, in the words they are told.

A command's outcome (`FeishuChannel.deliver`) fails in one of four ways, read from Feishu's
documented answers to `im/v1/messages` (send and reply):

- `unreachable`: the bot may not message the person one-to-one. 230013 "Bot has NO
  availability to this user" (outside the app's availability, in its disabled range, or
  gone from the company), 230035 "Send Message Permission deny" (the person blocked the
  bot, or the tenant's rules forbid it), 230038 "Cross tenant p2p chat operate forbid".
  Another message to them fails the same way;
- `busy`: still rate limited (99991400, 11232, 230020) after `FeishuAPI.call` waited as
  long as it would;
- `unconfirmed`: the request may have reached Feishu and no answer came (the uuid was sent
  again once already): the card may be there, so nothing more is said;
- `failed`: anything else Feishu refused, e.g. the card itself (230099 "Failed to create
  card content", 230025 too long, 230028 the data-leak audit): a plain text message still
  goes through.

What still works tells the person, in their language, what happened and what to do: in a
group the thread they wrote in hears it (as DingTalk's channel tells the group when its
one-to-one message fails); from the bot menu, a plain text message to them, except when
they are unreachable: a menu event takes no answer and Feishu lets the bot message nobody
it may not reach one-to-one, so nothing can tell them; that is logged and counted
(`feishu_prefs_undelivered_total{reason}`, every reason counted) for an admin to fix the
app's availability. The reasons, the message keys and the count are the core's
(`bot.flows.undelivered`), shared with Slack and DingTalk.
"""

from __future__ import annotations

from bot.feishu.api import FeishuError, FeishuRateLimited, FeishuUnavailable
from bot.flows import undelivered
from bot.flows.undelivered import Reason

# The person cannot be messaged one-to-one by this app (see the module docstring).
UNREACHABLE_CODES = frozenset({230013, 230035, 230038})


def why(exc: FeishuError) -> Reason:
    """What a failed send of a person's card means for them (see the module docstring)."""
    if isinstance(exc, FeishuUnavailable) and exc.maybe_sent:
        return "unconfirmed"
    if isinstance(exc, FeishuRateLimited):
        return "busy"
    if exc.code in UNREACHABLE_CODES:
        return "unreachable"
    return "failed"


def notice_key(reason: Reason) -> str:
    """The message (`bot.messages`) that tells the person `reason`."""
    return undelivered.notice_key("feishu", reason, "prefs")


__all__ = ["UNREACHABLE_CODES", "Reason", "notice_key", "why"]
