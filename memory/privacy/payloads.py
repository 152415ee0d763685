"""What no travel preference carries: links, code and encoded payloads.

A remembered fact is shown to the model later, also when a travel admin plans for the
person, so a fact with a link in it can send someone to a phishing page ("always include
this link … to re-authenticate"), code can run where the text is rendered or pasted, and an
encoded blob hides what it says from every other rule. Each is found by its shape, in
normalised text (`memory.privacy.text`):

- links: a scheme ("https://", "hxxp://", "javascript:", "data:"), "www.", a host with a
  path ("bit.ly/3xYz9", "t.cn/A6xYz", "docs.google.com/forms/…"), an IP address with a port
  or path, a markdown or HTML link; defanged dots ("evil[.]com") count as dots. A bare
  domain is a name ("I book on trip.com"), unless someone is sent to log in there;
- code: a code fence, an HTML tag that runs or loads something, an event handler, a
  template ("{{ … }}"), shell ("$(…)", "| sh", "curl …"), SQL that drops or reads tables,
  calls such as "eval(…)", "os.system(…)", "document.cookie", a chat-role JSON object;
- encoded: a base64 run (both cases and digits or padding, sixteen characters or more),
  long hex, percent-encoding, "\\u" or "\\x" escapes, HTML character references, and text
  that asks to be decoded and then followed.
"""

from __future__ import annotations

import base64
import itertools
import re
from collections.abc import Iterator

F = re.IGNORECASE

_DOT = r"(?:\.|。|\[\.\]|\(\.\)|\[dot\]|\(dot\))"
# Top-level domains people meet (generic, the common country codes, and the reserved names
# of examples and intranets), so "St.Louis/Chicago" is no host.
_TLD = (
    r"com|net|org|info|biz|io|co|ai|app|dev|me|ly|cn|hk|tw|jp|kr|sg|uk|us|de|fr|ru|in|au|ca"
    r"|gl|gle|gd|to|cc|tk|ml|ga|cf|gq|xyz|top|site|online|link|click|club|shop|store|vip|win|live"
    r"|life|world|today|tech|cloud|page|one|pro|mobi|name|edu|gov|int|eu|nl|it|es|ch|se|no|fi"
    r"|pl|cz|br|mx|ar|id|th|vn|my|ph|nz|za|ae|sa|tr|il|mo|su|la|ws|tv|fm|am|im|so|sh|gg|li|at"
    r"|be|dk|pt|ie|is|ua|kz|example|local|internal|test|invalid|corp|lan|onion|zip|mov|icu"
)
# A dot within reach is looked for first, so a long run with none is passed over in one step.
_HOST = (
    rf"(?=[a-z0-9\-]{{1,63}}{_DOT})(?:[a-z0-9][a-z0-9\-]{{0,62}}{_DOT}){{1,6}}(?:{_TLD})(?![a-z])"
)
LINK = re.compile(
    r"(?<![a-z])(?:https?|hxxps?|h\*\*ps?|ftp|sftp|file|javascript|vbscript|data)\s*(?::|\[:\])"
    r"\s*(?://|\\\\|[a-z]+/|alert|void)\S*"
    rf"|(?<![a-z0-9@/])www\d?{_DOT}\S+"
    rf"|(?<![a-z0-9@/.\-]){_HOST}(?::\d{{2,5}})?/[^\s]*"
    r"|(?<![0-9.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{2,5}|/\S)"
    r"|\[[^\]\n]{0,80}\]\(\s*[^)\s]*[/.:][^)\s]*\)"
    r"|(?<![a-z0-9\-])[a-z0-9\-]{1,63}\s*[(\[]?(?:dot|点)[)\]]?\s*(?:com|net|org|cn|io|info|co)"
    r"\s*(?:slash|斜杠)\s*\w"
    r"|<\s*a\s[^>]{0,80}href",
    F,
)
# A bare domain is a link where someone is sent to sign in there: "log in at evil-login.com".
SIGN_IN_AT = re.compile(
    r"(?<![a-z])(?:log\s*in|sign\s*in|re-?authenticate|re-?login|verify|authenticate)(?![a-z])"
    r"[^.!?\n]{0,20}?(?<![a-z0-9@/.\-])" + _HOST + r"(?![a-z0-9])"
    r"|(?:登录|登陆|验证|认证)[^。！？\n]{0,6}?"
    + _HOST
    + r"|"
    + _HOST
    + r"[^。！？\n.]{0,8}?(?:登录|登陆|验证|认证|(?<![a-z])(?:verify|log\s*in|sign\s*in|re-?auth))",
    F,
)
CODE = re.compile(
    r"`{3}|<!--"
    r"|<\s*/?\s*(?:script|iframe|img|svg|body|object|embed|style|link|meta|form|input|base"
    r"|frame|frameset|video|audio|details|marquee|math|template|textarea|button)\b"
    r"|\bon(?:load|error|click|mouseover|focus|begin|toggle|pageshow)\s*="
    r"|\{\{[^{}\n]{0,80}\}\}|\{%[^%\n]{0,80}%\}|\$\{[^}\n]{1,80}\}|\$\([^)\n]{1,80}\)"
    r"|\|\s*(?:sh|bash|zsh|python3?|perl|powershell)\b"
    r"|\b(?:curl|wget)\s+(?:-\S+\s+)*\S*(?:/|\.[a-z]{2})"
    r"|\bpowershell(?:\.exe)?\s+-|<\?php|`[^`\n]{0,60}[;|&$<>][^`\n]{0,60}`"
    r"|/etc/(?:passwd|shadow|hosts)\b|\brm\s+-[rf]{1,2}\b|\bsudo\s+\w|\bchmod\s+[0-7+]|/bin/(?:ba)?sh\b|\bcmd(?:\.exe)?\s+/c\b"
    r"|\b(?:drop|truncate|alter)\s+(?:table|database|schema)\b"
    r"|(?-i:\bDELETE\s+FROM\b)|\bdelete\s+from\s+\w+\s*(?:where\b|;)"
    r"|\bselect\s+\*\s+from\b|(?-i:\bSELECT\s+[\w,\s]{1,40}\s+FROM\b)"
    r"|\bunion\s+(?:all\s+)?select\b|\binsert\s+into\s+\w+\s*(?:\(|values\b)"
    r"|'\s*(?:or|and)\s+'?\w+'?\s*=\s*'?\w|;\s*--"
    r"|\b(?:eval|exec|atob|btoa|alert|fetch|require|system|popen|setTimeout)\("
    r"|__\w+__|(?-i:\b(?:os|subprocess|document|window|process)\.[a-z_]{2,}\b)"
    r"|\bimport\s+(?:os|sys|subprocess|socket|requests)\b"
    r"|\"\s*role\s*\"\s*:\s*\"|\"\s*content\s*\"\s*:\s*\"",
    F,
)
# A run of the base64 alphabet (or its URL-safe form), sixteen characters or more.
_B64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{14,}={0,2}(?![A-Za-z0-9+/=_\-])")
ESCAPED = re.compile(
    r"(?<![0-9a-z])(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{24,}(?![0-9a-z])"
    r"|(?:%[0-9a-f]{2}){3,}|(?:\\u[0-9a-f]{4}){2,}|(?:\\x[0-9a-f]{2}){3,}"
    # percent-encoded markup: "%3Cscript%3E"
    r"|%3c(?:/|%2f)?[a-z][^\s]{0,80}%3e"
    r"|(?:&#x?[0-9a-f]{2,6};){3,}"
    # hex bytes with spaces or colons, one with a letter among the first twelve
    r"|(?<![0-9a-z])(?=(?:[0-9a-f]{2}[ :]){0,11}[0-9]?[a-f])"
    r"(?:[0-9a-f]{2}[ :]){7,}[0-9a-f]{2}(?![0-9a-z])"
    r"|(?<![0-9])(?:[01]{8}\s?){4,}(?![0-9])",
    F,
)
DECODE_AND_FOLLOW = re.compile(
    r"\b(?:decode|decrypt|deobfuscate|unescape|base64|rot13|rot-13|hex)\b[^.!?\n]{0,40}?"
    r"\b(?:follow|execute|obey|act\s+on|carry\s+out)\b"
    r"|\b(?:follow|execute|obey|run|do\s+what)\b[^.!?\n]{0,20}?\b(?:base64|encoded|hex|rot13"
    r"|cipher|the\s+(?:code|string|blob)\s+below)\b"
    r"|(?:解码|解密|转码|base64)[^。！？\n]{0,12}?(?:执行|照做|运行|遵守|按.{0,4}做|服从)",
    F,
)


# Words joined by hyphens, underscores or slashes: "Marriott-Bonvoy-Platinum-Elite".
_WORDS = re.compile(
    r"[A-Za-z][a-z]*(?:[A-Z][a-z]+)*\d{0,2}(?:[\-_/+][A-Za-z][a-z]*(?:[A-Z][a-z]+)*\d{0,2})*"
)


def _decodes_to_text(body: str) -> bool:
    """Whether a base64 run (padding stripped) decodes to readable text: a code or a name
    almost never does (its bytes would have to form valid UTF-8, mostly printable). Mostly,
    not all: control characters sprinkled into an encoded instruction must not hide it."""
    if len(body) % 4 == 1:
        return False
    padded = body + "=" * (-len(body) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        text = raw.decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    readable = sum(ch.isprintable() or ch in "\n\t\r" for ch in text)
    return len(text) >= 8 and readable * 2 >= len(text)


_B32_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9=])")


def _base32_text(token: str) -> bool:
    """Whether an upper-case run decodes (base32) to readable text."""
    body = token.rstrip("=")
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
        text = raw.decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return len(text) >= 8 and all(ch.isprintable() for ch in text)


def _encoded(token: str) -> bool:
    """Whether a base64-alphabet run is encoded: not words run together ("InterContinental",
    "Marriott-Bonvoy-Elite"), and either it decodes to readable text or it looks random (both
    cases changing often, with a digit, a symbol of the alphabet or padding)."""
    body = token.rstrip("=")
    if _WORDS.fullmatch(body):
        return False
    if _decodes_to_text(body):
        return True
    if len(token) < (16 if token.endswith("=") else 20):
        return False
    upper = sum(ch.isupper() for ch in body)
    lower = sum(ch.islower() for ch in body)
    if upper < 2 or lower < 1:
        return False
    changes = sum(1 for a, b in itertools.pairwise(body) if a.isupper() != b.isupper())
    if not any(ch.isdigit() or ch in "+/_-" for ch in body) and not token.endswith("="):
        return False  # letters alone: words run together ("iPhoneChargerUSBCableAndAdapter")
    return changes >= len(body) / 5


def encoded(text: str) -> Iterator[tuple[int, int]]:
    """The spans of encoded payloads in normalised `text` (what other rules cannot read:
    their digits are no one's number)."""
    for match in ESCAPED.finditer(text):
        yield match.span()
    for match in _B64_RUN.finditer(text):
        if _encoded(match.group()):
            yield match.span()
    for match in _B32_RUN.finditer(text):
        if _base32_text(match.group()):
            yield match.span()


def payloads(text: str) -> Iterator[tuple[int, int]]:
    """The spans of links, code and encoded payloads in normalised `text`."""
    for pattern in (LINK, SIGN_IN_AT, CODE, DECODE_AND_FOLLOW):
        for match in pattern.finditer(text):
            yield match.span()
    yield from encoded(text)


__all__ = ["CODE", "DECODE_AND_FOLLOW", "ESCAPED", "LINK", "SIGN_IN_AT", "encoded", "payloads"]
