"""Which chat platform `travel-bot run` starts, from the credentials that are set.

Each platform lists its modes, preferred first, with the variables each needs. A
platform none of whose variables is set is simply not configured; one whose variables
are all set for a mode runs in that mode; one set in part is an error naming what is
missing, never a silent fall-back to the console. Adding a platform is one more
`Platform(...)` in `PLATFORMS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import SecretStr

from bot.settings import Settings


@dataclass(frozen=True, slots=True)
class Mode:
    verb: str  # the `travel-bot` verb that runs it, e.g. "socket"
    label: str  # how people call it, e.g. "Socket Mode"
    needs: tuple[str, ...]  # the environment variables it needs, e.g. ("SLACK_BOT_TOKEN", ...)


@dataclass(frozen=True, slots=True)
class Platform:
    name: str
    modes: tuple[Mode, ...]  # preferred first

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for mode in self.modes for name in mode.needs))


@dataclass(frozen=True, slots=True)
class Chosen:
    platform: str
    mode: str  # the verb


SLACK = Platform(
    "Slack",
    (
        Mode("socket", "Socket Mode", ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN")),
        Mode("serve", "HTTP mode", ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET")),
    ),
)
FEISHU = Platform(
    "Feishu",
    (Mode("feishu", "long connection", ("FEISHU_APP_ID", "FEISHU_APP_SECRET")),),
)
DINGTALK = Platform(
    "DingTalk",
    (Mode("dingtalk", "Stream mode", ("DINGTALK_CLIENT_ID", "DINGTALK_CLIENT_SECRET")),),
)
PLATFORMS: tuple[Platform, ...] = (SLACK, FEISHU, DINGTALK)


def is_set(settings: Settings, variable: str) -> bool:
    """True when `variable` has a non-blank value in `settings`."""
    value = getattr(settings, variable.lower(), None)
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    return bool(value and str(value).strip())


def choose(settings: Settings, platforms: tuple[Platform, ...] = PLATFORMS) -> Chosen | None:
    """The first configured platform's mode; None when no platform has any variable set.

    `ValueError` names what is missing when a platform is configured in part.
    """
    for platform in platforms:
        present = {name for name in platform.variables if is_set(settings, name)}
        if not present:
            continue
        for mode in platform.modes:
            if present >= set(mode.needs):
                return Chosen(platform.name, mode.verb)
        raise ValueError(missing(platform, present))
    return None


def missing(platform: Platform, present: set[str]) -> str:
    """E.g. "Slack is configured in part: SLACK_BOT_TOKEN is set; also set
    SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)"."""
    gaps = [(mode, [n for n in mode.needs if n not in present]) for mode in platform.modes]
    fewest = min(len(gap) for _, gap in gaps)
    options: dict[str, list[str]] = {}
    for mode, gap in gaps:
        if len(gap) == fewest:
            options.setdefault(" and ".join(gap), []).append(mode.label)
    wanted = " or ".join(f"{names} ({' or '.join(labels)})" for names, labels in options.items())
    have = " and ".join(name for name in platform.variables if name in present)
    verb = "is" if len(present) == 1 else "are"
    return f"{platform.name} is configured in part: {have} {verb} set; also set {wanted}"


__all__ = [
    "DINGTALK",
    "FEISHU",
    "PLATFORMS",
    "SLACK",
    "Chosen",
    "Mode",
    "Platform",
    "choose",
    "is_set",
    "missing",
]
