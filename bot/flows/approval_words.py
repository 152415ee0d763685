"""The words of approvals, the same on every platform: the reason form's question, the
approver's card in lines (`card_text`, `approval_body`, `state_line`: a channel's widgets
draw with them) and what the traveller is told of the cards sent (`asked_notice`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from bot.flows.messengers import Sent, person_id
from bot.flows.views import ApprovalView, Notice, ReasonForm
from bot.messages import t

if TYPE_CHECKING:
    from bot.platform import Platform
    from memory.lang import Lang


def _as_is(text: str) -> str:
    return text


def reason_ask(form: ReasonForm, quote: Callable[[str], str] = _as_is) -> str:
    """What the reason form asks, the person's words put through the channel's `quote`
    (its escaping for the markup it draws in)."""
    return t(
        "approval_reason_ask",
        form.lang,
        trip=quote(form.trip),
        choice=quote("; ".join(form.choice)),
        breaks=quote("; ".join(form.breaks)),
    )


def approval_body(card: ApprovalView, quote: Callable[[str], str] = _as_is) -> str:
    """Who asks, for what, which rules it breaks and why; the traveller is a mention in
    the channel's markup, the rest goes through the channel's `quote`."""
    return t(
        "approval_body",
        card.lang,
        traveller=card.traveller,
        choice=quote(card.choice),
        breaks=quote("; ".join(card.breaks)),
        reason=quote(card.reason),
    )


def card_text(card: ApprovalView) -> str:
    """The approver's card in plain lines (what a channel shows without widgets)."""
    lang = card.lang
    lines = [
        t("approval_title", lang, trip=card.trip),
        approval_body(card),
        state_line(card),
    ]
    return "\n".join(line for line in lines if line)


def state_line(card: ApprovalView) -> str:
    """What became of the request, in a line (its expiry day while pending), and the
    card's note under it."""
    if card.state == "pending":
        line = t("approval_expires", card.lang, day=card.expires) if card.expires else ""
    else:
        line = t(f"approval_state_{card.state}", card.lang, who=card.decided_by or "")
    note = t(card.note, card.lang) if card.note else ""
    return "\n".join(part for part in (line, note) if part)


# How each end of a post is counted (`..._approval_cards_total`, `..._approval_told_total`).
COUNTED = {
    Sent.DELIVERED: "sent",
    Sent.NOT_DELIVERED: "failed",
    Sent.UNREACHABLE: "unreachable",
    Sent.UNCONFIRMED: "unconfirmed",
}


def asked_notice(ends: Mapping[str, Sent], platform: Platform, trip: str, lang: Lang) -> Notice:
    """What the traveller is told of the cards sent to their approvers (`ends`: what
    became of each): asked; asked, but unconfirmed for some; asked, but not sent to
    some (and unconfirmed for others); or sent to none (and unconfirmed for the rest)."""
    failed = [a for a, end in ends.items() if end.missed]
    unsure = [a for a, end in ends.items() if end is Sent.UNCONFIRMED]
    reached = [a for a in ends if a not in failed]

    def mentions(people: Sequence[str]) -> str:
        return ", ".join(platform.mention(person_id(a)) for a in people)

    params = {"trip": trip, "approvers": mentions(reached)}
    if failed and unsure:  # the traveller hears of both, and "asked" names the sure ones only
        params.update(failed=mentions(failed), unconfirmed=mentions(unsure))
        sure = [a for a in reached if a not in unsure]
        params["approvers"] = mentions(sure)
        key = "approval_sent_partly_unconfirmed" if sure else "approval_not_delivered_unconfirmed"
    elif failed:
        params["failed"] = mentions(failed)
        key = "approval_sent_partly" if reached else "approval_not_delivered"
    elif unsure:
        params["unconfirmed"] = mentions(unsure)
        key = "approval_sent_unconfirmed"
    else:
        key = "approval_sent"
    return Notice(key, lang, params)


__all__ = [
    "COUNTED",
    "approval_body",
    "asked_notice",
    "card_text",
    "reason_ask",
    "state_line",
]
