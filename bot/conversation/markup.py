"""Chat markup every platform shares: broadcast and special mentions made plain text.

The core writes mentions as `<@USER_ID>` whatever the platform; special mentions
(`<!channel>`, `<!here|here>`, `<!subteam^S1|@team>`, dates) come from Slack's markup but
may reach any platform through remembered text, so they are defused here, once.
"""

from __future__ import annotations

BROADCASTS = frozenset({"channel", "here", "everyone", "group"})


def special_mention(name: str, label: str | None = None) -> str:
    """Plain text for a special mention `<!name|label>`: "@channel", "@team", a date."""
    kind = name.split("^", 1)[0].strip().lower()
    if kind in BROADCASTS:
        return f"@{kind}"
    label = (label or "").strip()
    if label:
        return label
    return "@group" if kind == "subteam" else ""


__all__ = ["BROADCASTS", "special_mention"]
