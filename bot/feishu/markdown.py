"""The core's Markdown as Feishu card Markdown, and text made inert in it.

Answers are shown in the markdown component of card JSON 2.0, which reads standard
Markdown (headings, lists, bold, links, code) plus a few tags of Feishu's own:
`<at id=ou_…></at>` mentions someone, `<at id=all></at>` everyone, `<font>` and
`<text_tag>` colour text. What the bot shows may only mention the people it names, so:

- `to_card_markdown` keeps the model's Markdown, turns the core's mentions `<@OPEN_ID>`
  into `<at id=OPEN_ID></at>`, makes special mentions plain text ("@channel"), and writes
  every other `<` as `&lt;`, so no tag the model copied (from a message or from memory)
  can ping a group or restyle the card. Code keeps its characters.
- `escape` makes text entirely inert (remembered facts, city and hotel names): every
  character that Markdown or Feishu's tags and emoji codes would read is written as an
  HTML entity, which the card shows as the character.
- `split` cuts a long answer into parts that each fit one card.
"""

from __future__ import annotations

import re

from bot.chat.markup import special_mention
from bot.chat.text import pack

# A card's JSON may not pass 30 KB; a Chinese character takes three bytes.
CARD_TEXT_LIMIT = 6000

_MENTION = re.compile(r"<@([A-Za-z0-9_\-]+)(?:\|[^<>]*)?>")
_SPECIAL = re.compile(r"<!([^<>|]*)(?:\|([^<>]*))?>")
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]+`", re.DOTALL)
_PLACEHOLDER = re.compile("[\x01\x02]")
# What Markdown and Feishu's tags give meaning to anywhere in a line.
_INERT = {"<": "&lt;", ">": "&gt;"} | {c: f"&#{ord(c)};" for c in "[]*_~`\\"}
_LINE_START = re.compile(r"^(\s*)([#>])", re.MULTILINE)  # headings, quotes
_EMOJI = re.compile(r":(?=[A-Za-z][A-Za-z0-9_]*:)")  # Feishu's `:OK:` emoji codes


def escape(text: str) -> str:
    """`text` shown exactly as written: nothing in it links, formats, tags or pings.

    Only what would mean something is written as an entity, so times ("07:30"), amounts
    and plain punctuation stay as they are.
    """
    text = "".join(_INERT.get(c, c) for c in text)
    text = _LINE_START.sub(lambda m: m.group(1) + f"&#{ord(m.group(2))};", text)
    return _EMOJI.sub("&#58;", text)


def mention(open_id: str) -> str:
    """Feishu's mention of one person."""
    return f"<at id={open_id}></at>" if re.fullmatch(r"[A-Za-z0-9_\-]+", open_id) else ""


def to_card_markdown(markdown: str) -> str:
    """The core's Markdown as card Markdown (see the module docstring)."""
    text = _PLACEHOLDER.sub("", markdown.replace("\r\n", "\n"))
    out: list[str] = []
    position = 0
    for code in _CODE.finditer(text):
        out.append(_prose(text[position : code.start()]))
        out.append(code.group())
        position = code.end()
    out.append(_prose(text[position:]))
    return "".join(out).strip()


def _prose(text: str) -> str:
    text = _SPECIAL.sub(lambda m: special_mention(m.group(1), m.group(2)), text)
    people: list[str] = []

    def hold(match: re.Match[str]) -> str:
        people.append(match.group(1))
        return f"\x01{len(people) - 1}\x02"

    text = _MENTION.sub(hold, text)
    text = text.replace("<", "&lt;")
    return re.sub("\x01(\\d+)\x02", lambda m: mention(people[int(m.group(1))]), text)


def split(markdown: str, limit: int = CARD_TEXT_LIMIT) -> list[str]:
    """Parts of at most about `limit` characters, cut between paragraphs where possible;
    a code block cut in two is closed and reopened."""
    text = markdown.strip()
    if len(text) <= limit:
        return [text] if text else []
    return _balance_fences(pack(_paragraphs(text, limit), limit, "\n\n"))


def _paragraphs(text: str, limit: int) -> list[str]:
    found: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        while len(paragraph) > limit:
            cut = paragraph.rfind("\n", 0, limit)
            cut = cut if cut > limit // 2 else limit
            found.append(paragraph[:cut])
            paragraph = paragraph[cut:].lstrip("\n")
        if paragraph:
            found.append(paragraph)
    return found


def _balance_fences(parts: list[str]) -> list[str]:
    balanced: list[str] = []
    carry = False
    for part in parts:
        if carry:
            part = "```\n" + part
        carry = part.count("```") % 2 == 1
        balanced.append(part + "\n```" if carry else part)
    return balanced


__all__ = ["CARD_TEXT_LIMIT", "escape", "mention", "split", "to_card_markdown"]
