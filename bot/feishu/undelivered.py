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

import logging
from typing import TYPE_CHECKING

from bot.feishu.api import FeishuError, FeishuRateLimited, FeishuUnavailable
from bot.flows import undelivered
from bot.flows.messengers import Sent
from bot.flows.undelivered import Reason
from bot.messages import t

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.feishu.api import FeishuAPI
    from memory.lang import Lang

log = logging.getLogger(__name__)

# The person cannot be messaged one-to-one by this app (see the module docstring).
UNREACHABLE_CODES = frozenset({230013, 230035, 230038})
ADMIN_FIX: dict[Reason, str] = {
    "unreachable": "the bot may not message the person one-to-one and a menu event takes "
    "no answer; add them to the app's availability",
    "busy": "Feishu rate-limits the bot's messages; spread the load",
    "failed": "check the app's permissions (im:message) and Feishu's status",
    "unconfirmed": "nothing: Feishu may have shown the card",
}


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


def notice(exc: FeishuError, lang: Lang) -> str:
    """What the person is told; with no code (the request never reached Feishu) that is
    said, not "code None"."""
    if exc.code is None:
        return t("feishu_prefs_not_reached", lang)
    return t(notice_key(why(exc)), lang, code=exc.code)


def ways(
    api: FeishuAPI, reason: Reason, *, reply_to: str, open_id: str, uuid: str, direct: bool
) -> list[Callable[[str], bool]]:
    """How a notice can still reach the person, in order: the thread they wrote in, else
    (a menu event takes no answer) a message to them unless they are unreachable."""

    def by(send: Callable[[dict[str, str]], object]) -> Callable[[str], bool]:
        def way(text: str) -> bool:
            try:
                send({"text": text})
                return True
            except FeishuError as again:
                log.warning("could not tell the person either (%s)", again.code)
                return again.maybe_sent

        return way

    if reply_to and not (direct and reason == "unreachable"):
        return [by(lambda c: api.reply(reply_to, msg_type="text", content=c, uuid=uuid))]
    if reason != "unreachable":
        return [
            by(
                lambda c: api.send(
                    open_id, id_type="open_id", msg_type="text", content=c, uuid=uuid
                )
            )
        ]
    return []


# Feishu's answers to a send or reply that will not change if it is sent again: the
# person cannot be messaged (`bot.feishu.undelivered`), the bot is not in the chat
# (230002), the message to reply to was recalled (230011); with what an admin must do.
_REFUSED_FOR_GOOD = {code: ADMIN_FIX["unreachable"] for code in UNREACHABLE_CODES} | {
    230002: "add the bot to the chat again (it was removed from it)",
    230011: "nothing: the message it answers was recalled; the person is told one-to-one",
}


def sent_of(exc: FeishuError, what: str) -> Sent:
    """What became of an approval's send that failed (`bot.flows.messengers.Sent`):
    unconfirmed when Feishu may have it (its uuid was sent again
    as far as `FeishuAPI.call` goes, and no answer came); unreachable when Feishu refused
    it for good (logged with the admin's fix); else not delivered."""
    if exc.maybe_sent:
        log.warning("%s: unconfirmed, Feishu may have it (%s)", what, exc.code)
        return Sent.UNCONFIRMED
    fix = _REFUSED_FOR_GOOD.get(exc.code) if isinstance(exc.code, int) else None
    if fix is not None:
        log.warning("%s: Feishu refuses it for good (%s); an admin must: %s", what, exc.code, fix)
        return Sent.UNREACHABLE
    log.warning("%s (%s)", what, exc.code)
    return Sent.NOT_DELIVERED


__all__ = [
    "ADMIN_FIX",
    "UNREACHABLE_CODES",
    "Reason",
    "notice",
    "notice_key",
    "sent_of",
    "ways",
    "why",
]
