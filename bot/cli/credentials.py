"""Which chat platform `travel-bot run` starts, and which HTTP callbacks `travel-bot serve`
mounts, from the credentials that are set.

Each platform lists its modes, preferred first, with the variables each needs. A
platform none of whose variables is set is simply not configured; one whose variables
are all set for a mode runs in that mode; one set in part (no mode complete) is an
error naming what is missing, never a silent fall-back to the console nor to another
platform: every platform set in part is named, whichever else is complete, for `run`
and `serve` alike. Adding a platform is one more `Platform(...)` in `PLATFORMS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import SecretStr

from bot.compose.links import page_problem
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


class PartlyConfigured(ValueError):
    """Platforms configured in part; `problems` names each one's missing variables."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def choose(settings: Settings, platforms: tuple[Platform, ...] = PLATFORMS) -> Chosen | None:
    """The first configured platform's mode; None when no platform has any variable set.

    `PartlyConfigured` names what is missing when any platform is configured in part.
    """
    check_complete(settings, platforms)
    for platform in platforms:
        present = {name for name in platform.variables if is_set(settings, name)}
        for mode in platform.modes:
            if present and present >= set(mode.needs):
                return Chosen(platform.name, mode.verb)
    return None


def check_complete(settings: Settings, platforms: tuple[Platform, ...] = PLATFORMS) -> None:
    """`PartlyConfigured` naming every platform whose variables are set in part."""
    problems = []
    for platform in platforms:
        present = {name for name in platform.variables if is_set(settings, name)}
        if present and not any(present >= set(mode.needs) for mode in platform.modes):
            problems.append(missing(platform, present))
    if problems:
        raise PartlyConfigured(problems)


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


# The variables each platform's HTTP callbacks need, by the channel `serve` mounts.
HTTP_NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "slack": ("Slack", ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET")),
    "feishu": ("Feishu", ("FEISHU_APP_ID", "FEISHU_APP_SECRET", "FEISHU_VERIFICATION_TOKEN")),
    "dingtalk": ("DingTalk", ("DINGTALK_CLIENT_ID", "DINGTALK_CLIENT_SECRET")),
}
PAGE_ONLY = (
    "no chat platform's HTTP callbacks are configured: serving only the preferences page "
    "and the health checks"
)


@dataclass
class HttpPlan:
    """What `serve` mounts, what stops it (`problems`) and what it says once at start."""

    channels: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def http_channels(settings: Settings) -> HttpPlan:
    """The chat platforms whose HTTP callbacks `serve` mounts.

    Every platform configured in part stops it, each one named. A platform set up for
    another mode only (Slack's Socket Mode, Feishu's long connection) is a notice. With
    no platform to serve, the preferences page alone when `PREFS_LINK_SECRET` is set.
    """
    try:
        check_complete(settings)
    except PartlyConfigured as exc:
        return HttpPlan(problems=exc.problems)
    plan = HttpPlan()
    for name, (label, needs) in HTTP_NEEDS.items():
        gaps = [variable for variable in needs if not is_set(settings, variable)]
        if not gaps:
            plan.channels.append(name)
        elif len(gaps) < len(needs):  # e.g. Slack in Socket Mode beside Feishu's callbacks
            plan.notices.append(f"{label}'s HTTP mode needs {' and '.join(gaps)}")
    page = page_problem(settings)
    if plan.channels:
        plan.notices = [f"{n}; serving {', '.join(plan.channels)} only" for n in plan.notices]
    elif page is None:
        plan.notices.append(PAGE_ONLY)
    else:
        chat = "; ".join(plan.notices) or (
            "HTTP mode needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or FEISHU_APP_ID, "
            "FEISHU_APP_SECRET and FEISHU_VERIFICATION_TOKEN, or DINGTALK_CLIENT_ID and "
            "DINGTALK_CLIENT_SECRET)"
        )
        alone = (
            "or set PREFS_LINK_SECRET to serve the preferences page alone"
            if page.endswith("is not set")
            else f"and the preferences page alone cannot be served: {page}"
        )
        plan.problems, plan.notices = [f"{chat}; {alone}"], []
    return plan


__all__ = [
    "DINGTALK",
    "FEISHU",
    "HTTP_NEEDS",
    "PLATFORMS",
    "SLACK",
    "Chosen",
    "HttpPlan",
    "Mode",
    "PartlyConfigured",
    "Platform",
    "check_complete",
    "choose",
    "http_channels",
    "is_set",
    "missing",
]
