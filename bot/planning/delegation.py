"""Planning for someone else: whom a message plans for, and whether its writer may.

`delegate(...)` decides, before the agent runs, whether a message asks to plan for a
colleague (`parse_plan_for`: the mention must be the object of a plan/book/arrange verb,
in English or Chinese) and whether the writer may: only a travel admin
(`bot.planning.admins`) may, and the run then reads the traveller's memory and cannot
write it. An admin's follow-up in the same thread keeps planning for that colleague
unless it clearly speaks of the admin's own trip (`about_self`). Every such run is
audited (`record_read`: the admin's plan reads the colleague's memory). After a run
that planned a trip, `auto_save` saves an admin-requested trip at once.

Mentions are read in the platform's own markup: the caller gives its pattern
(`Platform.markup.mention_pattern`, a regular expression whose first group is the user
id), and the patterns below are built around it, once per markup.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.planning.plan import PlannedTrip
from bot.planning.trips import InvalidTrip, TripStore, save_planned
from memory.errors import StoreUnavailable

log = logging.getLogger(__name__)

# Where the platform's mention pattern goes in the patterns below.
_MENTION = "\x00MENTION\x00"
_NOT_POSSESSIVE = r"(?!\s*['’]s\b)"

# English: a plan/book/arrange verb whose object is the mention.
_EN_VERB = (
    r"\b(?:plan\w*|book\w*|arrang\w*|organi[sz]\w*|schedul\w*|reserv\w*|prepar\w*|"
    r"find|get|sort\s+out|set\s+up|look\s+(?:at|into|up)|check|review|change|update)"
)
_EN_TRIP = (
    r"(?:trips?|travel\w*|itinerar\w*|flights?|hotels?|trains?|journeys?|bookings?|"
    r"tickets?|plans?|visits?)\b"
)
_EN_FILLER = r"(?:(?!(?:my|me|our|us|myself)\b)[\w-]+\s+){0,3}?"  # "a", "the next business"
_EN_ROUTE = r"(?:\s+(?:to|from|in)\s+[^\s,.;:!?]+){0,2}"  # " to Chengdu", " from X to Y"
_EN_STRONG_PATTERNS = [
    # "book @U a flight", "plan @U a trip"
    _EN_VERB + r"\s+" + _MENTION + _NOT_POSSESSIVE + r"\s+" + _EN_FILLER + _EN_TRIP,
    # "plan @U's trip", "book @U's flights", "plan for @U's trip"
    _EN_VERB + r"\s+(?:for\s+)?" + _MENTION + r"\s*['’]s\s+" + _EN_FILLER + _EN_TRIP,
    # "plan a trip for @U", "book a flight to Chengdu for @U", "plan for @U"
    _EN_VERB
    + r"\s+(?:(?:it|something|everything)\s+|"
    + _EN_FILLER
    + _EN_TRIP
    + _EN_ROUTE
    + r"\s+)?for\s+"
    + _MENTION
    + _NOT_POSSESSIVE,
]
_EN_STRONG = [(p, re.IGNORECASE) for p in _EN_STRONG_PATTERNS]
# "plan ... for @U" with a longer phrase in between (no clause break): the mention is
# probably the traveller, unless the writer also speaks of their own trip.
_EN_WEAK = (
    _EN_VERB + r"(?:\s+[^\s,.;:!?]+){0,8}?\s+for\s+" + _MENTION + _NOT_POSSESSIVE,
    re.IGNORECASE,
)

# Chinese: 给/帮/为/替 @U + a planning verb, a verb + @U的行程, 把@U的行程….
_ZH_TRIP = r"(?:行程|出差|旅行|旅程|差旅|机票|酒店|住宿|高铁|火车|航班|车票|票)"
_ZH_VERB = r"(?:规划|安排|预订|预定|订|计划|准备|买)"
_ZH_LOOK = r"(?:查|找|做|定|看看|看一下|弄|搞)"
_ZH_STRONG = [
    (r"(?:给|帮|为|替)\s*" + _MENTION + r"\s*" + _ZH_VERB, 0),
    (
        r"(?:给|帮|为|替)\s*"
        + _MENTION
        + r"\s*"
        + _ZH_LOOK
        + r"[^，。,.;；!?！？]{0,8}?"
        + _ZH_TRIP,
        0,
    ),
    (
        r"(?:"
        + _ZH_VERB
        + r"|"
        + _ZH_LOOK
        + r"|查一下|查查)(?:一下|下)?\s*"
        + _MENTION
        + r"\s*的\s*[^，。,.;；!?！？]{0,6}?"
        + _ZH_TRIP,
        0,
    ),
    (r"把\s*" + _MENTION + r"\s*的\s*[^，。,.;；!?！？]{0,6}?" + _ZH_TRIP, 0),
]
# "@U 的行程规划一下": the mention opens a clause that then asks for a plan.
_ZH_WEAK = (
    r"(?:^|[\s，。,.;；:：!?！？>])"
    + _MENTION
    + r"\s*的\s*[^，。,.;；!?！？]{0,6}?"
    + _ZH_TRIP
    + r"[^，。,.;；!?！？]{0,10}?(?:"
    + _ZH_VERB
    + r"|"
    + _ZH_LOOK
    + r")",
    0,
)

# The writer speaks of their own trip.
_FIRST_PERSON = re.compile(
    r"\bmy\s+(?:[\w-]+\s+){0,2}?"
    + _EN_TRIP
    + r"|\b(?:for|with|book|get|find|plan|arrange|reserve)\s+(?:me|myself|us)\b"
    + r"|\bI(?:['’]m|\s+am|['’]ll|\s+will)\s+(?:be\s+)?(?:going|travell?ing|flying|heading)\b"
    + r"|我的[^，。,.;；!?！？]{0,6}?"
    + _ZH_TRIP
    + r"|(?:帮|给|为|替)我(?:\s*"
    + _ZH_VERB
    + r"|[^，。,.;；!?！？]{0,8}?"
    + _ZH_TRIP
    + r")"
    + r"|我自己",
    re.IGNORECASE,
)


@functools.cache
def _compiled(mention: str) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """(strong, weak) patterns with `mention`, a platform's mention pattern, in place."""

    def build(patterns: list[tuple[str, int]]) -> list[re.Pattern[str]]:
        return [re.compile(p.replace(_MENTION, f"(?:{mention})"), flags) for p, flags in patterns]

    return build([*_EN_STRONG, *_ZH_STRONG]), build([_EN_WEAK, _ZH_WEAK])


def _mentions(patterns: list[re.Pattern[str]], text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            user = next(g for g in match.groups() if g)
            found.append((match.start(), user))
    return sorted(found)


def about_self(text: str) -> bool:
    """True when the writer clearly speaks of their own trip ("my trip", "for me", "帮我订")."""
    return bool(text) and _FIRST_PERSON.search(text) is not None


def parse_plan_for(text: str, *, mention: str, bot_user_id: str | None = None) -> str | None:
    """The user id of the colleague a trip is to be planned for, or None.

    `mention` is the platform's mention pattern (`Platform.markup.mention_pattern`); below,
    a mention of U123 is written @U123. The mention must be the traveller: the object of
    a plan/book/arrange verb ("plan a trip for @U123", "plan @U123's trip", "book @U123 a
    flight", "给@U123规划…", "帮 @U123 订…", "为@U123安排…", "看看@U123的行程"; mentions may
    carry a name).  A mention that is merely nearby ("same flight as @U's", "for
    @U's offsite", "我和@U的行程一样") never counts, and a looser "plan ... for @U"
    does not count when the writer speaks of their own trip ("my trip", "for me", "我的行程",
    "帮我订"). The bot's own mention never counts. Comparing the result with the requester
    is the caller's business.
    """
    if not text:
        return None
    strong, weak = _compiled(mention)
    found = _mentions(strong, text)
    if not about_self(text):
        found += _mentions(weak, text)
    for _, user in found:
        if user != bot_user_id:
            return user
    return None


@dataclass(frozen=True, slots=True)
class Delegation:
    """A request to plan for `traveller` (a user id); `allowed` only for admins."""

    traveller: str
    namespace: str
    allowed: bool


def delegate(
    text: str,
    *,
    user_id: str,
    namespace_of: Callable[[str], str],
    is_admin: Callable[[], bool],
    mention: str,
    bot_user_id: str | None = None,
    thread_subject: str | None = None,
) -> Delegation | None:
    """None when the message is about the writer's own travel.

    `namespace_of` names a user's namespace in the writer's workspace; `is_admin` says
    whether the writer is a travel admin (asked only when it matters); `mention` is the
    platform's mention pattern.
    `thread_subject` is the traveller an admin's earlier message in the same thread
    planned for: an admin's follow-up without a new mention keeps planning for them,
    unless it clearly speaks of the admin's own trip ("now plan my trip", "帮我订票");
    anyone else writing in that thread speaks for themselves.
    """
    traveller = parse_plan_for(text, mention=mention, bot_user_id=bot_user_id)
    if traveller is None and (thread_subject is None or about_self(text)):
        return None
    admin = is_admin()
    if traveller is None and admin:
        traveller = thread_subject
    if traveller is None or traveller == user_id:
        return None
    return Delegation(traveller=traveller, namespace=namespace_of(traveller), allowed=admin)


class ReadLog(Protocol):
    """Where reads of a colleague's memory are audited (`bot.policy.audit.AuditLog`)."""

    def memory_read(self, *, reader: str, traveller: str, turn: str = "") -> bool: ...


def record_read(
    audit: ReadLog | None, delegation: Delegation, *, reader: str, turn: str = ""
) -> None:
    """Audit that the travel admin `reader`'s plan reads the colleague's memory (once per
    turn, before it runs); a failure to log is logged and never stops the turn."""
    if audit is not None and delegation.allowed:
        audit.memory_read(reader=reader, traveller=delegation.namespace, turn=turn)


def asked_once(question: Callable[[], bool]) -> Callable[[], bool]:
    """`question`, asked at most once (the answer is kept): an admin check that may call
    the chat platform is made only when something needs it, and only once a turn."""
    answers: list[bool] = []
    lock = threading.Lock()

    def ask() -> bool:
        with lock:
            if not answers:
                answers.append(bool(question()))
            return answers[0]

    return ask


def auto_save(
    trips: TripStore | None, trip: PlannedTrip, *, traveller_ns: str, requester_ns: str
) -> bool:
    """Save an admin-requested trip; True when it is (now or already) saved."""
    if trips is None:
        return False
    try:
        save_planned(trips, trip, traveller_ns, created_by=requester_ns)
    except (InvalidTrip, StoreUnavailable) as exc:
        log.warning("could not save an admin-requested trip (%s)", type(exc).__name__)
        return False
    return True


__all__ = [
    "Delegation",
    "ReadLog",
    "about_self",
    "asked_once",
    "auto_save",
    "delegate",
    "parse_plan_for",
    "record_read",
]
