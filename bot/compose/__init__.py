"""The composition root: every part of the bot built from what it uses, in one place.

Only the command line (`bot.cli`) and the tests' harnesses call it. Read top to
bottom, it follows a message:

- `open_core(settings)` builds what every process shares (`Core`): memory, the agent,
  Redis, trips and travel policies, the travel-admin resolver, thread history, claims,
  the worker pools and the conversation;
- `pipeline(settings, core)` the one path of every channel's events (`bot.flows`): count
  → parse → claim once → the flows (preferences, trips) or the conversation;
- `slack`, `feishu` and `dingtalk` each channel, from its own settings and the pipeline:
  its transport hands each event to it, it parses it for the pipeline, and the answer
  goes back through its sink and widgets;
- `web_app` the one HTTP application (health, metrics), on which `mount_slack`,
  `mount_feishu`, `mount_dingtalk` and `mount_prefs_site` put their routes, and `server`
  its server with the slow-client limits;
- `start_expiry_teller(settings, core)` the loop of a process serving platforms that
  tells travellers their approval request expired (the `clock` only expires);
- `parts` the core's services (trips, policies, planner, agent, warmer, ...) built from
  the settings, for `open_core` and the command line's one-shot verbs.

Nothing else reads `Settings` for a channel or a core service: each takes what it uses
as constructor arguments.
"""

from __future__ import annotations

from bot.compose.channels import (
    dingtalk,
    feishu,
    mount_dingtalk,
    mount_feishu,
    mount_slack,
    slack,
)
from bot.compose.core import (
    Core,
    approval_flows,
    mount_prefs_site,
    open_core,
    pipeline,
    server,
    start_expiry_teller,
    warm_privacy,
    web_app,
)

__all__ = [
    "Core",
    "approval_flows",
    "dingtalk",
    "feishu",
    "mount_dingtalk",
    "mount_feishu",
    "mount_prefs_site",
    "mount_slack",
    "open_core",
    "pipeline",
    "server",
    "slack",
    "start_expiry_teller",
    "warm_privacy",
    "web_app",
]
