"""Model markdown to Slack mrkdwn, and splitting long answers within Slack's limits.

Slack's mrkdwn is not Markdown: bold is `*x*`, italic `_x_`, strike `~x~`, links
`<url|text>`, there are no headings or tables, and `&`, `<`, `>` must be escaped.

What the bot posts may only ping the people it names: of Slack's own `<...>` markup it
keeps user mentions `<@U…>`, channel links `<#C…>` and http(s)/mailto links. Special
mentions (`<!channel>`, `<!here>`, `<!everyone>`, `<!subteam^…>`) become plain text
such as "@channel", which Slack does not notify on (the bot never sets `link_names`),
so neither a user's text nor remembered text echoed by the model can ping a channel.
"""

from __future__ import annotations

import re

from bot.chat.markup import special_mention
from bot.chat.text import pack

# Slack truncates `text` at 40,000 characters and advises staying under 4,000 per
# message; a little headroom keeps each part readable.
MESSAGE_LIMIT = 3500

_FENCE = re.compile(r"^\s*```")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_QUOTE = re.compile(r"^(\s*>+\s?)(.*)$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# Slack's own markup the model may copy and the bot keeps: user mentions, channel links
# and web or mail links, each with an optional label.
_SLACK_TOKEN = re.compile(
    r"<(?:@[UW][A-Z0-9]+|#[CG][A-Z0-9]+|(?:https?|mailto):[^<>\s|]+)(?:\|[^<>]*)?>"
)
# Special mentions (`<!channel>`, `<!subteam^S1|@team>`, `<!date^…|fallback>`): never kept.
_SPECIAL = re.compile(r"<!([^<>|]*)(?:\|([^<>]*))?>")
_SAFE_SCHEME = re.compile(r"(?:https?|mailto):", re.IGNORECASE)
# Placeholders used below; a model could type them, so they are dropped from its text.
_PLACEHOLDERS = re.compile("[\x01-\x03]")
_IMAGE = re.compile(r"!\[([^\]]*)\]\((\S+?)(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\[([^\]]+)\]\((\S+?)(?:\s+\"[^\"]*\")?\)")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")

_BOLD_OPEN, _BOLD_CLOSE = "\x01", "\x02"
_KEEP = "\x03"


def escape(text: str) -> str:
    """Escape the three characters Slack reserves for markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _defuse(text: str) -> str:
    return _SPECIAL.sub(lambda m: special_mention(m.group(1), m.group(2)), text)


def to_mrkdwn(markdown: str) -> str:
    """Convert the Markdown a model writes into Slack mrkdwn (see the module docstring)."""
    out: list[str] = []
    lines = _PLACEHOLDERS.sub("", markdown).replace("\r\n", "\n").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if _FENCE.match(line):
            end = index + 1
            while end < len(lines) and not _FENCE.match(lines[end]):
                end += 1
            body = [escape(code) for code in lines[index + 1 : end]]
            out.append("```\n" + "\n".join(body) + "\n```" if body else "``` ```")
            index = end + 1
            continue
        if (
            _TABLE_ROW.match(line)
            and index + 1 < len(lines)
            and _TABLE_RULE.match(lines[index + 1])
        ):
            end = index + 2
            while end < len(lines) and _TABLE_ROW.match(lines[end]):
                end += 1
            rows = [lines[index], *lines[index + 2 : end]]
            out.append("```\n" + "\n".join(escape(r.strip()) for r in rows) + "\n```")
            index = end
            continue
        out.append(_line(line))
        index += 1
    return "\n".join(out).strip("\n")


def _line(line: str) -> str:
    if _RULE.match(line):
        return "──────────"
    heading = _HEADING.match(line)
    if heading:
        text = _inline(heading.group(1)).replace("*", "")
        return f"*{text}*" if text else ""
    bullet = _BULLET.match(line)
    if bullet:
        return f"{bullet.group(1)}• {_inline(bullet.group(2))}"
    quote = _QUOTE.match(line)
    if quote:
        return ">" * quote.group(1).count(">") + " " + _inline(quote.group(2))
    return _inline(line)


def _inline(text: str) -> str:
    """Inline markup of one line; code spans are escaped but otherwise left alone."""
    parts: list[str] = []
    last = 0
    for match in _INLINE_CODE.finditer(text):
        parts.append(_prose(text[last : match.start()]))
        parts.append("`" + escape(match.group(2).strip("`")) + "`")
        last = match.end()
    parts.append(_prose(text[last:]))
    return "".join(parts)


def _prose(text: str) -> str:
    kept: list[str] = []

    def keep(value: str) -> str:
        kept.append(value)
        return f"{_KEEP}{len(kept) - 1}{_KEEP}"

    text = _SLACK_TOKEN.sub(lambda m: keep(m.group(0)), _defuse(text))
    text = escape(text)
    text = _IMAGE.sub(lambda m: keep(_link(m.group(2), m.group(1) or m.group(2))), text)
    text = _LINK.sub(lambda m: keep(_link(m.group(2), m.group(1))), text)
    text = _BOLD.sub(lambda m: f"{_BOLD_OPEN}{m.group(2)}{_BOLD_CLOSE}", text)
    text = _ITALIC.sub(lambda m: f"_{m.group(1)}_", text)
    text = _STRIKE.sub(lambda m: f"~{m.group(1)}~", text)
    text = text.replace(_BOLD_OPEN, "*").replace(_BOLD_CLOSE, "*")
    return re.sub(f"{_KEEP}(\\d+){_KEEP}", lambda m: kept[int(m.group(1))], text)


def _link(url: str, label: str) -> str:
    label = label.replace("|", "¦").strip()
    if not _SAFE_SCHEME.match(url):  # `[x](!channel)` must not become `<!channel|x>`
        return f"{label} ({url})" if label and label != url else url
    if label == url or not label:
        return f"<{url}>"
    bold = _BOLD.fullmatch(label)
    if bold:
        label = bold.group(2)
    return f"<{url}|{label}>"


# -- splitting ------------------------------------------------------------------------------


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split mrkdwn into parts of at most `limit` characters.

    Breaks between paragraphs where it can, then between lines, then between words;
    a code block cut in two is closed and reopened so both parts render as code.
    """
    if limit < 20:
        raise ValueError("limit must be at least 20 characters")
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    return pack((piece for unit in _units(text) for piece in _fit(unit, limit)), limit, "\n\n")


def _units(text: str) -> list[str]:
    """Paragraphs and whole code blocks, in order."""
    units: list[str] = []
    buffer: list[str] = []
    in_code = False
    for line in text.split("\n"):
        fence = line.strip()
        one_liner = not in_code and len(fence) > 6 and fence.endswith("```")
        if fence.startswith("```") and not one_liner:
            if not in_code and buffer:
                units.append("\n".join(buffer))
                buffer = []
            buffer.append(line)
            if in_code:
                units.append("\n".join(buffer))
                buffer = []
            in_code = not in_code
            continue
        if not in_code and not line.strip():
            if buffer:
                units.append("\n".join(buffer))
                buffer = []
            continue
        buffer.append(line)
    if buffer:
        if in_code:
            buffer.append("```")
        units.append("\n".join(buffer))
    return units


def _fit(unit: str, limit: int) -> list[str]:
    """Split one paragraph or code block into pieces of at most `limit` characters."""
    if len(unit) <= limit:
        return [unit]
    is_code = unit.startswith("```") and unit.endswith("```") and "\n" in unit
    if is_code:
        inner = unit[3:-3].strip("\n")
        room = limit - len("```\n\n```")
        return ["```\n" + chunk + "\n```" for chunk in _pack(inner.split("\n"), room, "\n")]
    return _pack(unit.split("\n"), limit, "\n")


def _pack(lines: list[str], limit: int, joiner: str) -> list[str]:
    return pack((segment for line in lines for segment in _words(line, limit)), limit, joiner)


def _words(line: str, limit: int) -> list[str]:
    """A line longer than `limit` broken at spaces (or hard, for one enormous word)."""
    if len(line) <= limit:
        return [line]
    return pack((piece for word in line.split(" ") for piece in _cut(word, limit)), limit, " ")


def _cut(word: str, limit: int) -> list[str]:
    """One word in pieces of at most `limit` characters (an enormous word, cut hard)."""
    pieces: list[str] = []
    while len(word) > limit:
        cut = _safe_cut(word, limit)
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word]


def _safe_cut(word: str, limit: int) -> int:
    """Where to cut a long word without splitting an `&amp;`-style escape."""
    amp = word.rfind("&", max(0, limit - 5), limit)
    if amp != -1 and ";" in word[amp : amp + 6] and word.find(";", amp) >= limit:
        return amp
    return limit


_SLACK_ESCAPES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))


def clean_text(text: str, bot_user_id: str | None) -> str:
    """Incoming Slack text as plain text: the bot's mention removed, special mentions
    as plain "@channel"-style text, escapes undone."""
    if bot_user_id:
        text = re.sub(rf"[ \t]*<@{re.escape(bot_user_id)}(\|[^>]*)?>[ \t]*", " ", text)
    text = _defuse(text)
    for escaped, plain in _SLACK_ESCAPES:
        text = text.replace(escaped, plain)
    return text.strip()


# -- streamed Markdown (`bot.slack.streaming`) ------------------------------------------

HOLD_LIMIT = 300  # the longest unclosed `<...` or `[...](...` held back
_STREAM_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^)\s]*)\)")
_SAFE_SCHEME = re.compile(r"(?:https?|mailto):", re.IGNORECASE)
# Slack markup not finished yet: "<", "<!chan", "<@U1", "<https://x|label" ("a < b" is not).
_OPEN_ANGLE = re.compile(r"<[^\s<>|]*(?:\|[^<>]*)?")
# A link not finished yet: "[label", "[label]" (a "(" may follow) or "[label](url".
_OPEN_LINK = re.compile(r"\[[^\]\n]*(?:\](?:\([^)\s]*)?)?")


def safe_markdown(text: str) -> str:
    """Markdown that can ping nobody: special mentions as plain text, only web links."""
    text = _SPECIAL.sub(lambda m: special_mention(m.group(1), m.group(2)), text)

    def link(match: re.Match[str]) -> str:
        url = match.group(3)
        if _SAFE_SCHEME.match(url):
            return match.group(0)
        label = match.group(2)
        return f"{label} ({url})" if label and url else label or url

    return _STREAM_LINK.sub(link, text)


def ready(text: str) -> int:
    """How much of `text` can be sent now: all but an unclosed `<...` or `[...](...` tail."""
    cut = len(text)
    angle = text.rfind("<")
    if angle != -1 and cut - angle < HOLD_LIMIT and _OPEN_ANGLE.fullmatch(text[angle:]):
        cut = angle
    bracket = text.rfind("[", 0, cut)
    if bracket != -1 and cut - bracket < HOLD_LIMIT and _OPEN_LINK.fullmatch(text[bracket:cut]):
        cut = bracket
    return cut


__all__ = [
    "HOLD_LIMIT",
    "MESSAGE_LIMIT",
    "clean_text",
    "escape",
    "ready",
    "safe_markdown",
    "special_mention",
    "split_message",
    "to_mrkdwn",
]
