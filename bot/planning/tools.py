"""The travel tools an agent is given: `plan_itinerary` and, with a policy book, the
read-only `travel_policy`; both name cities and airlines through the planner's catalogue.

    tools = travel_tools(settings, memory, policy=book)
    agent = build_agent(settings, memory, extra_tools=tools)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.agent.tools import Tool
from bot.planning.compliance import city_named
from bot.planning.planner import ProfileSource, open_planner, planning_tools
from bot.policy.tool import policy_tools

if TYPE_CHECKING:
    from bot.policy.store import PolicyBook
    from bot.settings import Settings


def travel_tools(
    settings: Settings, memory: ProfileSource | None, *, policy: PolicyBook | None = None
) -> list[Tool]:
    """`plan_itinerary` (checking plans against `policy` when given) and `travel_policy`."""
    planner = open_planner(settings, memory, policy=policy)
    tools = planning_tools(planner)
    if policy is not None:
        catalogue = planner.catalogue
        tools += policy_tools(policy, city=lambda text: city_named(catalogue, text))
    return tools


__all__ = ["travel_tools"]
