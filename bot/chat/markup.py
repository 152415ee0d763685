"""Angle-bracket chat markup: `<@USER_ID>` mentions, `<url|label>` links, `<!channel>`.

Slack writes its text this way, and the Feishu and DingTalk channels write the mentions
they parse the same way, so the model reads and writes one markup whatever the
platform (`ANGLE`, each channel's `Platform.markup`). Special mentions (`<!channel>`,
`<!here|here>`, `<!subteam^S1|@team>`, dates) may reach any platform through remembered
text, so they are defused here, once (`special_mention`).
"""

from __future__ import annotations

import re

BROADCASTS = frozenset({"channel", "here", "everyone", "group"})

# A mention, optionally with a display name: `<@U123>`, `<@U123|alice>`.
MENTION = r"<@([^\s<>|@]+)(?:\|[^<>]*)?>"
_LINK = re.compile(r"<((?:https?|mailto):[^<>|\s]+)(?:\|([^<>]*))?>", re.IGNORECASE)
_ID = re.compile(r"<([@#])([A-Z0-9]+)(?:\|([^<>]*))?>")
_SPECIAL = re.compile(r"<!([^<>|]*)(?:\|([^<>]*))?>")


def special_mention(name: str, label: str | None = None) -> str:
    """Plain text for a special mention `<!name|label>`: "@channel", "@team", a date."""
    kind = name.split("^", 1)[0].strip().lower()
    if kind in BROADCASTS:
        return f"@{kind}"
    label = (label or "").strip()
    if label:
        return label
    return "@group" if kind == "subteam" else ""


class AngleMarkup:
    """The core's `Markup` for angle-bracket text (see the module docstring)."""

    mention_pattern = MENTION

    def mention(self, user: str) -> str:
        return f"<@{user}>"

    def plain(self, text: str) -> str:
        """Links as "label (url)", mentions as "@name", special mentions as plain text:
        "<https://x|label>" -> "label (https://x)", "<@U123>" -> "@U123",
        "<!channel>" -> "@channel"; none of it pings or links once echoed."""

        def link(match: re.Match[str]) -> str:
            url, label = match.group(1), (match.group(2) or "").strip()
            return f"{label} ({url})" if label and label != url else url

        def mention(match: re.Match[str]) -> str:
            return match.group(1) + ((match.group(3) or "").lstrip("@#") or match.group(2))

        text = _LINK.sub(link, text)
        text = _ID.sub(mention, text)
        return _SPECIAL.sub(lambda m: special_mention(m.group(1), m.group(2)), text)


ANGLE = AngleMarkup()

__all__ = ["ANGLE", "BROADCASTS", "MENTION", "AngleMarkup", "special_mention"]
