"""Which strings can name a person's memory: the namespace shapes of every platform.

Namespaces come from `bot.conversation.incoming.qualified`: Slack's are `TEAM:USER`
(Slack ids, upper-case letters and digits: `T024BE7LD:U01ABC`), every other platform's
carry its name first (`feishu:TENANT:OPEN_ID`, `dingtalk:CORP:STAFF_ID`), and the
terminal console's are `local:NAME` (`local:you` by default). The command line checks
`--user` against these shapes, so a typo is refused instead of creating an empty person.
A new platform adds its name to `PREFIXED`.

Every id goes into a key through one rule, `platform_id`: Unicode NFC, then `%`, `:`,
whitespace and control or format characters percent-encoded (their UTF-8 bytes, `%3A`
for a colon). So staff `a:b` in corp `X` (`dingtalk:X:a%3Ab`) and staff `b` in corp `X:a`
(`dingtalk:X%3Aa:b`) are two people, and every namespace the bot builds is one the
command line accepts. Ordinary ids (letters, digits, `_-.=+/$@~`, CJK) contain none of
these and come out unchanged, so nothing kept before needs migrating. An id too long for
a namespace part (over `MAX_ID_CHARS` once escaped) keeps its first 64 characters and a
digest of the whole, after `%~`, which no escaped id can contain.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from memory.errors import InvalidNamespace
from memory.intake import check_namespace

CONSOLE_USER = "local:you"  # the terminal console's person, unless `--user` says otherwise

SLACK_SHAPE = re.compile(r"[TE][A-Z0-9]{1,30}:[UW][A-Z0-9]{1,30}")
LOCAL_SHAPE = re.compile(r"local:[A-Za-z0-9_.-]{1,64}")
# Platforms whose namespaces are `platform:TENANT:USER` (ids as the platform spells them).
PREFIXED = ("feishu", "dingtalk")
_PART = r"[^\s:]{1,128}"
MAX_ID_CHARS = 96  # an escaped id longer than this is shortened (see the module docstring)
_ESCAPED = frozenset("%:")
# What memory refuses in a namespace (`memory.intake`), and spaces.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})

EXAMPLES = (
    "T024BE7LD:U01ABC (Slack: TEAM:USER)",
    "feishu:TENANT:OPEN_ID",
    "dingtalk:CORP:STAFF_ID",
    f"{CONSOLE_USER} (the terminal console)",
)


def platform_id(value: str) -> str:
    """`value` (a platform's id: team, tenant, corp, user, chat...) as it goes into a key:
    NFC, separators and invisible characters escaped (see the module docstring)."""
    text = unicodedata.normalize("NFC", value)
    if text.isascii() and text.isprintable() and " " not in text and not _ESCAPED & set(text):
        escaped = text  # the common case: nothing to escape
    else:
        escaped = "".join(_escape(ch) for ch in text)
    if len(escaped) <= MAX_ID_CHARS:
        return escaped
    head = escaped[:64]
    partial = head.rfind("%", 62)  # an escape cut in two at the end
    digest = hashlib.sha256(escaped.encode()).hexdigest()[:24]
    return f"{head if partial < 0 else head[:partial]}%~{digest}"


def _escape(ch: str) -> str:
    if ch in _ESCAPED or ch.isspace() or unicodedata.category(ch) in _ESCAPED_CATEGORIES:
        return "".join(f"%{byte:02X}" for byte in ch.encode("utf-8", "surrogatepass"))
    return ch


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


__all__ = [
    "CONSOLE_USER",
    "EXAMPLES",
    "MAX_ID_CHARS",
    "PREFIXED",
    "namespace_problem",
    "platform_id",
]
