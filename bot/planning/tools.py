"""The travel tools an agent is given: `plan_itinerary` and, with a policy book, the
read-only `travel_policy`; both name cities and airlines through the planner's catalogue.

    tools = travel_tools(planner, policy=book)
    agent = Agent(llm=..., model=..., memory=mem, tools=tools)

The composition root builds them from the settings (`bot.compose.parts.travel_tools`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.agent.tools import Tool
from bot.planning.compliance import city_named
from bot.planning.planner import Planner, planning_tools
from bot.policy.tool import policy_tools

if TYPE_CHECKING:
    from bot.policy.store import PolicyBook


def travel_tools(planner: Planner, *, policy: PolicyBook | None = None) -> list[Tool]:
    """`plan_itinerary` (checking plans against `policy` when given) and `travel_policy`."""
    tools = planning_tools(planner)
    if policy is not None:
        catalogue = planner.catalogue
        tools += policy_tools(policy, city=lambda text: city_named(catalogue, text))
    return tools


__all__ = ["travel_tools"]
