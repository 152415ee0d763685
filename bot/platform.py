"""What the core knows of a chat platform: a name, how its ids make keys, how its text
writes a mention, and how to name it to the person.

A channel describes its platform once (`Platform`, in its `incoming.py`) and every
message it hands the core carries that description, so nothing in the core names a
platform, a namespace shape or a markup:

- **Keys.** Every per-person and per-thread key comes from one rule, `Platform.key`: the
  platform's `prefix`, then the parts, joined with ":". One platform may have no prefix
  (its keys predate the others'), so memory kept before there was a second platform stays
  reachable; every other one has its own, so two platforms can never share a namespace,
  a thread or a claim.
- **Shape.** `Platform.shape` is what the parts of one of its namespaces look like (a
  regular expression), so a command line can refuse a typo instead of creating an empty
  person (`bot.conversation.namespaces`).
- **Markup.** `Platform.markup` reads and writes a mention in the text the model sees, and
  makes stored text plain (`Markup`); the core never writes one by hand.
- **Words.** `place` and `commands` name the platform and its own commands to the model,
  in the person's language (the system prompt's `$place` and `$commands`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from memory.lang import Lang


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
        """`parts` joined into a key of this platform (see the module docstring)."""
        return ":".join((self.prefix, *parts) if self.prefix else parts)

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


__all__ = ["Markup", "PlainMarkup", "Platform", "words"]
