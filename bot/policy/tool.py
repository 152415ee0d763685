"""The agent's read-only `travel_policy` tool: the rules of a grade, in the person's words.

Anyone may ask about their own grade's rules ("what's my travel policy?", "我的差标是
什么？"); a travel admin may also ask about another grade, or about every grade at once
("what is our hotel cap in Chengdu?"). When an admin plans for a colleague, "their"
rules are the colleague's. The organisation is always the asker's own (`org_of` of the
asker's namespace): no argument can name another, so no other organisation's policy is
ever read. The tool never writes anything.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from bot.agent.tools import Tool, ToolContext
from bot.policy.model import Policy
from bot.policy.orgs import org_of, user_of
from bot.policy.rules import CABIN_LABELS, RAIL_LABELS, Named
from bot.policy.store import PolicyBook
from bot.policy.tiers import OTHER
from memory.errors import StoreUnavailable

log = logging.getLogger(__name__)

TOOL_NAME = "travel_policy"
CITIES_SHOWN = 6
NO_POLICY = (
    "No travel policy is set for this organisation, so plans follow the traveller's "
    "preferences only. A travel admin sets one with `travel-bot policy set --org ORG FILE`."
)
UNREADABLE = "error: the travel policy cannot be read right now; say so and try again later"
AMOUNTS = (
    "Amounts a trip may cost are the company's travel policy, not a personal preference: "
    "they are never remembered."
)


def policy_tools(
    book: PolicyBook, *, city: Callable[[str], Named | None] | None = None
) -> list[Tool]:
    """`travel_policy`, reading `book`; `city` names a city in both languages (the
    planner's catalogue), so "Chengdu" finds a tier the policy lists as "成都"."""

    def travel_policy(ctx: ToolContext, city_name: str = "", grade: str = "") -> str:
        """Read the company's travel policy (差标): what a grade may book and who approves
        exceptions. Read-only.

        Call it when someone asks about their travel policy, a hotel cap, a cabin or a train
        class ("what's my travel policy?", "what is our hotel cap in Chengdu?", "我的差标是
        什么？"), and when someone states their own budget or price limit ("我的预算3000"):
        amounts a trip may cost are the company's policy, never a preference to remember,
        so answer with the policy instead. The person gets their own grade's rules (the
        colleague's when planning for one); only a travel admin may ask about another grade.

        Args:
            city_name: A city to give the hotel cap for, in Chinese or English; "" for the
                caps of every city tier.
            grade: A grade to read, e.g. "L3" (travel admins only); "" for the person's own
                (or, for a travel admin asking about a city, every grade).
        """
        org = org_of(ctx.namespace)
        try:
            current = book.current(org) if org else None
            if current is None:
                return NO_POLICY
            subject = (
                ctx.subject_namespace if org_of(ctx.subject_namespace) == org else ctx.namespace
            )
            person = book.person(subject)
        except StoreUnavailable as exc:
            log.warning("travel_policy: store unavailable (%s)", type(exc).__name__)
            return UNREADABLE
        policy, lang = current.policy, ctx.lang
        own = policy.grade(person.grade if person else None)
        department = person.department if person else None
        answer: dict[str, Any] = {"policy_version": current.version, "currency": policy.currency}
        wanted = grade.strip()
        admin = bool(wanted or city_name.strip()) and ctx.is_travel_admin()
        if wanted and wanted != own and not admin:
            answer["refused"] = (
                f"only travel admins can read another grade's rules; these are the "
                f"{'traveller' if ctx.on_behalf_of else 'person'}'s own ({own})"
            )
            wanted = ""
        if wanted and wanted not in policy.grades:
            return (
                f"error: the policy has no grade {wanted!r}; its grades: {', '.join(policy.grades)}"
            )
        named = _city(city_name, city) if city_name.strip() else None
        if admin and not wanted and named is not None:
            answer["hotel_cap_in"] = _city_caps(policy, named, policy.grades, lang)
            answer["note"] = AMOUNTS
            return json.dumps(answer, ensure_ascii=False)
        shown = wanted or own
        answer["grade"] = shown
        if not wanted:
            answer["whose"] = (
                "the traveller planned for" if ctx.on_behalf_of else "the person asking"
            )
            answer["grade_set_for_them"] = person is not None and person.grade == own
        answer.update(_rules(policy, shown, named, lang))
        approvers = policy.approvers_of(shown, department if not wanted else None)
        mention = ctx.platform.mention if ctx.platform is not None else str
        answer["approvers"] = [mention(user_of(a)) for a in approvers] or "a travel admin"
        answer["note"] = AMOUNTS
        return json.dumps(answer, ensure_ascii=False)

    return [Tool.from_function(travel_policy, name=TOOL_NAME, status="status_policy")]


def _city(text: str, resolve: Callable[[str], Named | None] | None) -> Named:
    found = resolve(text) if resolve is not None else None
    return found or Named(text.strip(), text.strip())


def _rules(policy: Policy, grade: str, city: Named | None, lang: str) -> dict[str, Any]:
    zh = lang == "zh"
    rules: dict[str, Any] = {}
    if city is not None:
        rules["hotel_cap_in"] = _city_caps(policy, city, (grade,), lang)
    elif policy.hotel_caps.get(grade):
        caps = policy.hotel_caps[grade]
        rules["hotel_cap_per_night"] = {
            _tier(policy, tier, lang): cap for tier, cap in caps.items()
        }
    cabin = policy.flight_cabin.get(grade)
    if cabin is not None:
        text = CABIN_LABELS[cabin.cabin][zh]
        if cabin.long_haul_cabin and cabin.long_haul_hours:
            long = CABIN_LABELS[cabin.long_haul_cabin][zh]
            text += f"; {long} on flights of {cabin.long_haul_hours:g} h or more"
        rules["flight_cabin"] = text
    if policy.rail(grade):
        rules["rail_class"] = RAIL_LABELS[policy.rail_class[grade]][zh]
    if policy.advance_booking_days is not None:
        rules["book_flights_days_ahead"] = policy.advance_booking_days
    if policy.preferred_airlines:
        rules["preferred_airlines"] = list(policy.preferred_airlines)
        rules["only_preferred_airlines"] = policy.preferred_airlines_only
    return rules


def _city_caps(policy: Policy, city: Named, grades: tuple[str, ...], lang: str) -> dict[str, Any]:
    tier = policy.tier_of(city.all)
    caps = {g: policy.hotel_cap(g, tier) for g in grades}
    return {
        "city": city.name(lang),
        "tier": tier,
        "cap_per_night": {g: c for g, c in caps.items() if c is not None} or "no cap",
    }


def _tier(policy: Policy, tier: str, lang: str) -> str:
    if tier == OTHER:
        return "other cities"
    cities = policy.tiers.cities(tier, lang)
    more = ", …" if len(cities) > CITIES_SHOWN else ""
    return f"{tier} ({', '.join(cities[:CITIES_SHOWN])}{more})"


__all__ = ["NO_POLICY", "TOOL_NAME", "policy_tools"]
