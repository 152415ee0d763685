"""DingTalk's Markdown: the answer as DingTalk renders it, stored text made inert, long
replies split, and the links that make a tap send a message.

- `answer_markdown(md)`: the model's Markdown with the core's mentions `<@STAFF_ID>`
  written `@STAFF_ID` (DingTalk shows the person's name when the message lists the staff
  id in `at`), special mentions (`<!channel>`) as plain text, and links whose scheme is
  not http(s) or mailto shown as text: a `dtmd://` link in an answer would send a
  message as whoever taps it. Then `renderable`.
- `renderable(md)`: Markdown DingTalk renders. It shows headings, quotes, bold and
  italic, links, images, lists and "two spaces + newline" breaks, and nothing else: a
  table, a code fence or a single newline arrives as raw text. So a table becomes
  "label：value" lines (a two-column one, a list of them), a code block quoted lines
  (indentation kept), inline code plain text, a rule a paragraph break, and a single
  newline a hard break; paragraphs stay paragraphs.
- `inert(text)`: text we did not write (remembered preferences, a plan's city names)
  made plain in any Markdown renderer: no link, image, HTML tag, heading or quote can
  form, and no bare URL is linked. It breaks the syntax with invisible zero-width spaces
  and look-alike brackets rather than backslashes, which not every DingTalk client reads.
- `without_reasoning(text)`: the answer without the model's reasoning (`<think>…</think>`
  and the like, which some models write into their answer): it is never shown; while
  the answer streams, an unclosed block or a tag still arriving is held back.
- `split(text, limit)`: a reply in parts DingTalk accepts (paragraphs, then lines).
- `send_link(text)`: `dtmd://dingtalkclient/sendMessage?content=…`, a link that, when
  tapped in the DingTalk client, sends `text` to the chat as the person who tapped it.
"""

from __future__ import annotations

import itertools
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
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_STARTS_BLOCK = re.compile(r"^\s*(?:[-+*]|\d+[.)])\s|^\s{0,3}#{1,6}\s")
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_BREAK = "  \n"  # DingTalk's line break within a paragraph
_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?(?:</\1>\s*|$)", re.DOTALL | re.IGNORECASE)
_REASONING_TAGS = ("<think>", "<thinking>", "<reasoning>")


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
    return renderable(text), tuple(mentioned)


def without_reasoning(text: str, *, final: bool = True) -> str:
    """`text` without the model's reasoning blocks (see the module docstring); not
    `final`: a tag that may still be arriving at the end is held back too."""
    text = _REASONING.sub("", text)
    if not final:
        start = text.rfind("<")
        if start != -1 and any(tag.startswith(text[start:].lower()) for tag in _REASONING_TAGS):
            text = text[:start]
    return text


def renderable(markdown: str) -> str:
    """`markdown` in the subset DingTalk renders (see the module docstring)."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    paragraphs: list[list[str]] = []
    current: list[str] = []

    def end() -> None:
        nonlocal current
        if current:
            paragraphs.append(current)
            current = []

    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence:
            end()
            closing = index + 1
            while closing < len(lines) and not lines[closing].strip().startswith(fence.group(1)):
                closing += 1
            paragraphs.append(_quoted_code(lines[index + 1 : closing]))
            index = closing + 1
        elif _table_starts(lines, index):
            end()
            rows = [_cells(lines[index])]
            index += 2
            while index < len(lines) and "|" in lines[index] and lines[index].strip():
                rows.append(_cells(lines[index]))
                index += 1
            paragraphs.extend(_table(rows[0], rows[1:]))
        else:
            if not line.strip() or _RULE.match(line):
                end()
            else:
                current.append(_INLINE_CODE.sub(r"\1", line.rstrip()))
            index += 1
    end()
    return "\n\n".join(_joined(p) for p in paragraphs).strip()


def _joined(lines: list[str]) -> str:
    """A paragraph's lines: a hard break between them, a plain newline before a list
    item or a heading (they start a line of their own) and after a heading."""
    out = lines[0]
    for before, line in itertools.pairwise(lines):
        plain = _STARTS_BLOCK.match(line) or re.match(r"^\s{0,3}#{1,6}\s", before)
        out += ("\n" if plain else _BREAK) + line
    return out


def _quoted_code(code: list[str]) -> list[str]:
    """A code block as quoted lines, their indentation kept, nothing in them markup."""
    quoted = []
    for line in code:
        body = line.rstrip().expandtabs(4)
        indent = len(body) - len(body.lstrip(" "))
        body = body.lstrip(" ")
        body = "\u00a0" * indent + _BLOCK_START.sub(lambda m: m.group(1) + _ZWSP + m.group(2), body)
        quoted.append(f"> {body}" if body else ">")
    return quoted or [">"]


def _table_starts(lines: list[str], index: int) -> bool:
    return (
        index + 1 < len(lines)
        and "|" in lines[index]
        and "|" in lines[index + 1]
        and bool(_TABLE_RULE.match(lines[index + 1]))
    )


def _cells(line: str) -> list[str]:
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") else line
    return [_INLINE_CODE.sub(r"\1", cell.strip()) for cell in line.split("|")]


def _table(header: list[str], rows: list[list[str]]) -> list[list[str]]:
    """A table as DingTalk can show it: two columns, a list of "label：value"; more, one
    paragraph per row, its first cell in bold and "header：cell" lines under it."""
    every = " ".join(header + [cell for row in rows for cell in row])
    colon = "：" if _CJK.search(every) else ": "
    if len(header) <= 2:
        items = []
        for row in rows:
            label, value = [*row, "", ""][:2]
            items.append(f"- {_bold(label)}{colon}{value}" if value else f"- {label}")
        return [items or [f"- {' '.join(header)}"]]
    paragraphs = []
    for row in rows:
        cells = row + [""] * (len(header) - len(row))
        lines = [_bold(cells[0] or header[0])]
        pairs = zip(header[1:], cells[1:], strict=False)
        lines += [f"{name}{colon}{cell}" for name, cell in pairs if cell]
        paragraphs.append(lines)
    return paragraphs


def _bold(text: str) -> str:
    return text if not text or text.startswith("**") else f"**{text}**"


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
    "renderable",
    "send_link",
    "split",
    "title_of",
    "without_reasoning",
]
