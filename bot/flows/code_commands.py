"""The commands that name a code (`bot.flows.codes`), in either language: what a button
sends, what a message tells a person to type, and how both are read back.

- save a planned trip: `save trip CODE`, `/save-trip CODE`, `/travel-prefs save trip CODE`;
  `保存行程 CODE`;
- forget everything, yes: `/travel-prefs forget CODE`; `确认删除偏好 CODE`;
- the reason for an out-of-policy choice: `reason CODE why`; `理由 CODE 为什么` (or `原因`);
- approve, reject: `approve CODE`, `reject CODE`; `批准 CODE`, `驳回 CODE`.

Matched as a whole (spaces folded, trailing punctuation dropped, any case; a reason is
kept as written, its lines and punctuation, only its ends stripped); a code is
eight letters and digits. A code that is gone (expired, used, never made here) or names
another action reads as a stale action, which the flows answer kindly (`trip_save_unknown`
for a trip). Every platform reads them with `code_action` and writes them with
`command_for`, so what one shows is what the others accept.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bot.flows.actions import (
    APPROVAL_REASON,
    APPROVE,
    FORGET_PREFS,
    FORGET_PREFS_NO,
    FORGET_PREFS_YES,
    REJECT,
    SAVE_TRIP,
    Action,
)
from bot.flows.commands import tidy

if TYPE_CHECKING:
    from collections.abc import Collection

    from bot.flows.codes import PendingActions
    from memory.lang import Lang

SAVE_TTL_SECONDS = 7 * 24 * 3600
# An approval's codes outlive any request (`APPROVAL_TTL_DAYS` is at most 90): a late tap
# is told the request expired, not that the button is unknown.
APPROVAL_TTL_SECONDS = 91 * 24 * 3600
CONFIRM_TTL_SECONDS = 600

_CODE = r"([A-Za-z0-9]{8})"
# The commands a button sends, by what they ask for: (English, Chinese); `{code}` names
# the action kept under a code. Read back (with the core's own commands) by the parser.
PHRASES: dict[str, tuple[str, str]] = {
    FORGET_PREFS: ("/travel-prefs forget", "删除我的偏好"),
    FORGET_PREFS_YES: ("/travel-prefs forget {code}", "确认删除偏好 {code}"),
    FORGET_PREFS_NO: ("/travel-prefs cancel", "取消删除偏好"),
    SAVE_TRIP: ("save trip {code}", "保存行程 {code}"),
    APPROVAL_REASON: ("reason {code}", "理由 {code}"),
    APPROVE: ("approve {code}", "批准 {code}"),
    REJECT: ("reject {code}", "驳回 {code}"),
}
# How long a code lives, by what it acts on (a confirmation: minutes).
_CODE_TTL = {
    SAVE_TRIP: SAVE_TTL_SECONDS,
    APPROVAL_REASON: SAVE_TTL_SECONDS,
    APPROVE: APPROVAL_TTL_SECONDS,
    REJECT: APPROVAL_TTL_SECONDS,
}
# The commands that carry a code, as a person may also type them.
_CODE_RULES: tuple[tuple[str, Lang, str], ...] = (
    (FORGET_PREFS_YES, "en", r"/travel-prefs\s+forget\s+"),
    (FORGET_PREFS_YES, "zh", r"确认删除偏好\s*"),
    (SAVE_TRIP, "en", r"(?:/travel-prefs\s+save\s+trip|/save-trip|save\s+trip)\s+"),
    (SAVE_TRIP, "zh", r"保存行程\s*"),
    (APPROVAL_REASON, "en", r"reason\s+"),  # the code alone: no reason given
    (APPROVAL_REASON, "zh", r"(?:理由|原因)\s*"),
    (APPROVE, "en", r"approve\s+"),
    (APPROVE, "zh", r"批准\s*"),
    (REJECT, "en", r"reject\s+"),
    (REJECT, "zh", r"驳回\s*"),
)
CODE_COMMANDS = tuple(
    (name, lang, re.compile(rule + _CODE, re.IGNORECASE)) for name, lang, rule in _CODE_RULES
)
# The reason for an out-of-policy choice: the code, then the reason in the person's words.
REASON_COMMANDS: tuple[tuple[Lang, re.Pattern[str]], ...] = (
    ("en", re.compile(r"reason\s+" + _CODE + r"\s+(.+)", re.IGNORECASE | re.DOTALL)),
    ("zh", re.compile(r"(?:理由|原因)\s*" + _CODE + r"\s*(.+)", re.DOTALL)),
)


def command_for(action: Action, lang: Lang, codes: PendingActions) -> str:
    """What a person sends for `action` (its data kept under a code when it has any)."""
    return coded_command(action, lang, codes)[0]


def coded_command(action: Action, lang: Lang, codes: PendingActions) -> tuple[str, str]:
    """`command_for`, and the code it names ("" when none)."""
    english, chinese = PHRASES[action.name]
    phrase = chinese if lang == "zh" else english
    if "{code}" not in phrase:
        return phrase, ""
    ttl = _CODE_TTL.get(action.name, CONFIRM_TTL_SECONDS)
    code = codes.put({"a": action.name, **action.data}, ttl_seconds=ttl)
    return phrase.format(code=code), code


def code_action(
    text: str, codes: PendingActions, *, accepts: Collection[str] | None = None
) -> tuple[Action, Lang] | None:
    """The action a code command stands for (a stale one when its code is gone, or names
    another action), or None when `text` is not a code command (`accepts`: the actions
    this platform offers under codes; None, all)."""
    raw, text = text.strip(), tidy(text)
    for lang, pattern in REASON_COMMANDS:
        if accepts is not None and APPROVAL_REASON not in accepts:
            break
        match = pattern.fullmatch(raw)  # the reason as written: its lines, its full stop
        if match:
            data = codes.get(match.group(1).upper())
            if data is None and _a_word(match.group(1)):
                break
            action = _action(data, expected=APPROVAL_REASON)
            if action.name == APPROVAL_REASON:
                action = Action(action.name, {**action.data, "reason": match.group(2).strip()})
            return action, lang
    for name, lang, pattern in CODE_COMMANDS:
        if accepts is not None and name not in accepts:
            continue
        match = pattern.fullmatch(text)
        if match:
            data = codes.get(match.group(1).upper())
            if data is None and _a_word(match.group(1)):
                continue
            return _action(data, expected=name), lang
    return None


def _a_word(code: str) -> bool:
    """An unknown "code" without a digit is a word ("save trip saturday"): codes made
    now always hold one (`codes.new_code`); an older one without a digit is still found."""
    return not any(ch.isdigit() for ch in code)


def _action(data: dict[str, Any] | None, *, expected: str) -> Action:
    if data is not None and "kind" in data and "a" not in data:  # a code kept before 2.3
        data = {
            **data,
            "a": {"save_trip": SAVE_TRIP, "forget_all": FORGET_PREFS_YES}.get(
                str(data["kind"]), ""
            ),
        }
        data.setdefault("owner", data.get("ns"))
    if data is None or data.get("a") != expected:
        return Action("stale", {"was": expected})
    return Action(expected, {k: v for k, v in data.items() if k not in ("a", "kind")})


__all__ = [
    "APPROVAL_TTL_SECONDS",
    "CODE_COMMANDS",
    "CONFIRM_TTL_SECONDS",
    "PHRASES",
    "REASON_COMMANDS",
    "SAVE_TTL_SECONDS",
    "code_action",
    "coded_command",
    "command_for",
]
