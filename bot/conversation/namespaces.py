"""Which strings can name a person's memory: the namespace shapes of every platform.

Namespaces come from `bot.conversation.incoming.qualified`: Slack's are `TEAM:USER`
(Slack ids, upper-case letters and digits: `T024BE7LD:U01ABC`), every other platform's
carry its name first (`feishu:TENANT:OPEN_ID`, `dingtalk:CORP:STAFF_ID`), and the
terminal console's are `local:NAME` (`local:you` by default). The command line checks
`--user` against these shapes, so a typo is refused instead of creating an empty person.
A new platform adds its name to `PREFIXED`.
"""

from __future__ import annotations

import re

from memory.errors import InvalidNamespace
from memory.intake import check_namespace

CONSOLE_USER = "local:you"  # the terminal console's person, unless `--user` says otherwise

SLACK_SHAPE = re.compile(r"[TE][A-Z0-9]{1,30}:[UW][A-Z0-9]{1,30}")
LOCAL_SHAPE = re.compile(r"local:[A-Za-z0-9_.-]{1,64}")
# Platforms whose namespaces are `platform:TENANT:USER` (ids as the platform spells them).
PREFIXED = ("feishu", "dingtalk")
_PART = r"[^\s:]{1,128}"

EXAMPLES = (
    "T024BE7LD:U01ABC (Slack: TEAM:USER)",
    "feishu:TENANT:OPEN_ID",
    "dingtalk:CORP:STAFF_ID",
    f"{CONSOLE_USER} (the terminal console)",
)


def namespace_problem(namespace: str) -> str | None:
    """Why `namespace` cannot name a person, or None when it can.

    Beyond its shape, whatever memory would refuse (`memory.intake.check_namespace`: a
    lone surrogate, control or format characters, too long) is refused here too.
    """
    try:
        if check_namespace(namespace) != namespace:
            return f"{namespace!r} is not a namespace: it is not in Unicode NFC form"
    except InvalidNamespace as exc:
        return f"{namespace!r} is not a namespace: {exc}"
    if SLACK_SHAPE.fullmatch(namespace) or LOCAL_SHAPE.fullmatch(namespace):
        return None
    prefix = namespace.partition(":")[0]
    if prefix in PREFIXED and re.fullmatch(rf"{prefix}:{_PART}:{_PART}", namespace):
        return None
    return f"{namespace!r} is not a namespace; expected one like " + ", ".join(EXAMPLES)


__all__ = ["CONSOLE_USER", "EXAMPLES", "PREFIXED", "namespace_problem"]
