"""What the core knows of a chat platform: a name, how its ids make keys, how its text
writes a mention, and how to name it to the person.

A channel describes its platform once (`Platform`, in its `incoming.py`) and every
message it hands the core carries that description, so nothing in the core names a
platform, a namespace shape or a markup:

- **Keys.** Every per-person and per-thread key comes from one rule, `Platform.key`: the
  platform's `prefix`, then the parts, each a platform id made safe (`platform_id`),
  joined with ":". One platform may have no prefix (its keys predate the others'), so
  memory kept before there was a second platform stays reachable; every other one has its
  own, so two platforms can never share a namespace, a thread or a claim.
- **Ids.** `platform_id`: Unicode NFC, then `%`, `:`, whitespace and control or format
  characters percent-encoded (their UTF-8 bytes, `%3A` for a colon). So person `a:b` in
  workspace `X` (`p:X:a%3Ab`) and person `b` in workspace `X:a` (`p:X%3Aa:b`) are two
  people, and every namespace the bot builds is one the command line accepts. Ordinary
  ids (letters, digits, `_-.=+/$@~`, CJK) contain none of these and come out unchanged,
  so nothing kept before needs migrating. An id too long for a namespace part (over
  `MAX_ID_CHARS` once escaped) keeps its first 64 characters and a digest of the whole,
  after `%~`, which no escaped id can contain.
- **Shape.** `Platform.shape` is what the parts of one of its namespaces look like (a
  regular expression), so a command line can refuse a typo instead of creating an empty
  person (`bot.conversation.namespaces`).
- **Markup.** `Platform.markup` reads and writes a mention in the text the model sees, and
  makes stored text plain (`Markup`); the core never writes one by hand.
- **Words.** `place` and `commands` name the platform and its own commands to the model,
  in the person's language (the system prompt's `$place` and `$commands`).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from memory.lang import Lang

MAX_ID_CHARS = 96  # an escaped id longer than this is shortened (see the module docstring)
_ESCAPED = frozenset("%:")
# What memory refuses in a namespace (`memory.intake`), and spaces.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})


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


class Markup(Protocol):
    """How a platform's text writes a mention, and what else in it is markup."""

    @property
    def mention_pattern(self) -> str:
        """A regular expression matching one mention; its first group is the user id."""
        ...

    def mention(self, user: str) -> str:
        """A mention of `user`, as the model reads and writes it."""
        ...

    def plain(self, text: str) -> str:
        """`text` with the platform's markup made plain text: a mention, a link or a
        broadcast in a stored fact can never ping, link or open anything once echoed."""
        ...


class PlainMarkup:
    """A platform without mention markup: `@user`, and text left as it is."""

    mention_pattern = r"(?<![\w@])@([\w.-]{1,64})"

    def mention(self, user: str) -> str:
        return f"@{user}"

    def plain(self, text: str) -> str:
        return text


@dataclass(frozen=True, eq=False)
class Platform:
    """One chat platform as the core sees it (see the module docstring)."""

    name: str  # short and lower-case: metric names start with it ("<name>_replies_total")
    prefix: str  # the first part of its keys; "" for the one platform whose keys have none
    shape: str  # a regular expression for the parts of a namespace after the prefix
    example: str  # one namespace of it, with what its parts are, for error messages
    markup: Markup = field(default_factory=PlainMarkup)
    place: Mapping[Lang, str] = field(default_factory=dict)  # "a company X workspace"
    commands: Mapping[Lang, str] = field(default_factory=dict)  # its own commands, named

    def key(self, *parts: str) -> str:
        """`parts` (ids) joined into a key of this platform (see the module docstring)."""
        ids = [platform_id(part) for part in parts]
        return ":".join((self.prefix, *ids) if self.prefix else ids)

    def in_workspace(self, namespace: str, tenant: str) -> bool:
        """Whether `namespace` is a person's of `tenant` (workspace, tenant or corp) on this
        platform: what a button or form naming a namespace is checked against, so a click
        on one platform can never reach a namespace of another, or of another workspace."""
        prefix = self.key(tenant, "")
        person = namespace[len(prefix) :]
        return namespace.startswith(prefix) and bool(person) and ":" not in person

    def mention(self, user: str) -> str:
        return self.markup.mention(user)

    @cached_property
    def _namespace(self) -> re.Pattern[str]:
        head = re.escape(self.prefix) + ":" if self.prefix else ""
        return re.compile(head + self.shape)

    def owns(self, namespace: str) -> bool:
        """Whether `namespace` has the shape of one of this platform's."""
        return self._namespace.fullmatch(namespace) is not None


def words(texts: Mapping[Lang, str], lang: Lang, default: str = "") -> str:
    """The text of `texts` in `lang` (else in English, else `default`)."""
    return texts.get(lang) or texts.get("en") or default


__all__ = ["MAX_ID_CHARS", "Markup", "PlainMarkup", "Platform", "platform_id", "words"]
