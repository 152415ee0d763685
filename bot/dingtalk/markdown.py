"""DingTalk's Markdown: the answer as DingTalk renders it, stored text made inert, long
replies split, and the links that make a tap send a message.

- `answer_markdown(md)`: the model's Markdown with the core's mentions `<@STAFF_ID>`
  written `@STAFF_ID` (DingTalk shows the person's name when the message lists the staff
  id in `at`), special mentions (`<!channel>`) as plain text, and links whose scheme is
  not http(s) or mailto shown as text: a `dtmd://` link in an answer would send a
  message as whoever taps it.
- `inert(text)`: text we did not write (remembered preferences, a plan's city names)
  made plain in any Markdown renderer: no link, image, HTML tag, heading or quote can
  form, and no bare URL is linked. It breaks the syntax with invisible zero-width spaces
  and look-alike brackets rather than backslashes, which not every DingTalk client reads.
- `split(text, limit)`: a reply in parts DingTalk accepts (paragraphs, then lines).
- `send_link(text)`: `dtmd://dingtalkclient/sendMessage?content=…`, a link that, when
  tapped in the DingTalk client, sends `text` to the chat as the person who tapped it.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from bot.chat.markup import special_mention
from bot.chat.text import pack

MESSAGE_LIMIT = 3500  # characters per message (the OpenAPI takes 15,000 bytes of msgParam)
TITLE_LIMIT = 30

_ZWSP = "\u200b"
_MENTION = re.compile(r"<@([^\s<>|@]+)(?:\|[^<>]*)?>")
_SPECIAL = re.compile(r"<!([^<>|]*)(?:\|([^<>]*))?>")
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*([^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
_SAFE_SCHEME = re.compile(r"(?:https?|mailto):", re.IGNORECASE)
_BLOCK_START = re.compile(r"^(\s*)([#>]|[-+*]\s|\d+[.)]\s)", re.MULTILINE)
_TITLE_NOISE = re.compile(r"[#*_`>\[\]]|!\[|<[^>]*>")


def answer_markdown(markdown: str) -> tuple[str, tuple[str, ...]]:
    """(the answer as DingTalk Markdown, the staff ids it mentions)."""
    mentioned: list[str] = []

    def mention(match: re.Match[str]) -> str:
        staff_id = match.group(1)
        if staff_id not in mentioned:
            mentioned.append(staff_id)
        return f"@{staff_id}"

    def link(match: re.Match[str]) -> str:
        _, label, url = match.groups()
        if _SAFE_SCHEME.match(url):
            return match.group(0)
        return inert(label or url)  # an image or link with another scheme: its label only

    text = _SPECIAL.sub(lambda m: special_mention(m.group(1), m.group(2)), markdown)
    text = _MENTION.sub(mention, text)
    text = _LINK.sub(link, text)
    text = re.sub(r"(?i)\b(?:dtmd|dingtalk)://", lambda m: m.group(0)[:-2] + _ZWSP + "//", text)
    return text.replace("\r\n", "\n").strip(), tuple(mentioned)


def inert(text: str) -> str:
    """`text` shown as written, with no Markdown or HTML effect (see the module docstring)."""
    text = text.replace("<", "＜").replace(">", "＞")
    text = text.replace("](", "]" + _ZWSP + "(").replace("![", "!" + _ZWSP + "[")
    text = text.replace("://", ":" + _ZWSP + "//")
    text = _BLOCK_START.sub(lambda m: m.group(1) + _ZWSP + m.group(2), text)
    for mark in ("**", "__", "~~"):
        text = text.replace(mark, _ZWSP.join(mark) + _ZWSP)
    return text


def mentions_as_text(text: str) -> str:
    """The core's `<@STAFF_ID>` mentions written `@STAFF_ID` (for plain notes)."""
    return _MENTION.sub(lambda m: f"@{m.group(1)}", text)


def title_of(markdown: str, fallback: str) -> str:
    """A short plain title for the notification: the first line, without markup."""
    for line in markdown.splitlines():
        plain = _TITLE_NOISE.sub("", line).replace(_ZWSP, "").strip()
        if plain:
            return plain if len(plain) <= TITLE_LIMIT else plain[: TITLE_LIMIT - 1] + "…"
    return fallback


def split(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` in parts of at most `limit` characters, broken between paragraphs, then
    lines, then anywhere."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    return pack(_pieces(text, limit), limit, "\n\n")


def _pieces(text: str, limit: int) -> list[str]:
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        if len(paragraph) <= limit:
            pieces.append(paragraph)
            continue
        lines = paragraph.split("\n")
        cut = (
            line[start : start + limit]
            for line in lines
            for start in range(0, len(line) or 1, limit)
        )
        pieces += pack(cut, limit, "\n")
    return pieces


def send_link(text: str) -> str:
    """A link that sends `text` to the chat, as the person who taps it."""
    return "dtmd://dingtalkclient/sendMessage?content=" + quote(text, safe="")


__all__ = [
    "MESSAGE_LIMIT",
    "answer_markdown",
    "inert",
    "mentions_as_text",
    "send_link",
    "split",
    "title_of",
]
