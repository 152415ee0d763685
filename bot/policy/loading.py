"""Reading a travel policy from YAML, refusing a wrong one in one line.

    policy = load_policy(text)          # or PolicyError("hotel_cap_per_night.L1.tier1=abc
                                        #   is not accepted: expected a whole amount ...")

Every problem names the key (dotted, with list positions), the value and what is
accepted, the way a wrong setting is told (`bot.cli.config`); the first problem stops
the load, so nothing half-read is ever stored. Unknown keys and keys given twice are
refused too, so a typo never silently loses a rule. The keys are in
docs/travel-policy.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from bot.policy.model import CABINS, RAIL_CLASSES, Approvers, CabinRule, Policy, rank
from bot.policy.tiers import OTHER, Tiers, fold

CURRENCIES = ("CNY",)  # the inventory's prices are in yuan
KEYS = (
    "name",
    "currency",
    "grades",
    "city_tiers",
    "bundled_city_tiers",
    "hotel_cap_per_night",
    "rail_class",
    "flight_cabin",
    "advance_booking_days",
    "preferred_airlines",
    "preferred_airlines_only",
    "approvers",
)
CABIN_KEYS = ("cabin", "long_haul_cabin", "long_haul_hours")
APPROVER_KEYS = ("default", "grades", "departments")
MAX_BYTES = 256 * 1024
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
_USER_ID = re.compile(r"[^\s:]{1,128}")


class PolicyError(ValueError):
    """A policy file that cannot be used; `str()` is the one line that says why."""

    def __init__(self, key: str, value: object, accepted: str, *, line: str = "") -> None:
        self.key, self.value, self.accepted = key, value, accepted
        super().__init__(line or f"{key}={_shown(value)} is not accepted: expected {accepted}")


def _no_repeats(node: Any, path: str = "") -> None:
    """Refuse a key given twice in one mapping (YAML itself keeps the last silently)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"
            name = f"{path}.{key}" if path else key
            if key in seen:
                where = f"line {key_node.start_mark.line + 1}"
                value = yaml.safe_load(yaml.serialize(value_node))
                raise PolicyError(f"{name} ({where})", value, "each key once (it is given twice)")
            seen.add(key)
            _no_repeats(value_node, name)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _no_repeats(item, f"{path}[{i}]")


def parse_yaml(text: str) -> Any:
    """The YAML document in `text`; `PolicyError` for a file that is not valid YAML."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise PolicyError("(file)", f"{len(text)} characters", f"at most {MAX_BYTES} bytes")
    try:
        _no_repeats(yaml.compose(text, Loader=yaml.SafeLoader))
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        line = f"the file is not valid YAML at {where}: {exc.problem}"
        raise PolicyError("(file)", where, "valid YAML", line=line) from None
    except yaml.YAMLError as exc:
        line = f"the file is not valid YAML ({type(exc).__name__})"
        raise PolicyError("(file)", "", "valid YAML", line=line) from None


def load_policy(text: str, *, airline: Callable[[str], str | None] | None = None) -> Policy:
    """The policy `text` writes; `PolicyError` naming the first wrong key.

    `airline` names an airline's code from how the file writes it ("东航" -> "MU"), or
    None when it knows no such airline; without it airline names are not checked.
    """
    data = parse_yaml(text)
    if data is None:
        line = "the file is empty: expected a policy (see docs/travel-policy.md)"
        raise PolicyError("(file)", "", "a policy", line=line)
    if not isinstance(data, Mapping):
        raise PolicyError("(file)", data, "a mapping of keys (see docs/travel-policy.md)")
    top = _keys("(file)", data, KEYS)
    currency = str(top.get("currency", "CNY"))
    if currency not in CURRENCIES:
        raise PolicyError("currency", currency, "CNY (the planner's prices are in yuan)")
    name = top.get("name", "")
    if not isinstance(name, str) or len(name) > 200:
        raise PolicyError("name", name, "a short text")
    bundled = top.get("bundled_city_tiers", True)
    if not isinstance(bundled, bool):
        raise PolicyError("bundled_city_tiers", bundled, "true or false")
    tiers = Tiers(_city_tiers(top.get("city_tiers", {})), use_bundled=bundled)
    caps = _hotel_caps(top.get("hotel_cap_per_night", {}), tiers)
    rail = {
        grade: _choice(f"rail_class.{grade}", value, RAIL_CLASSES)
        for grade, value in _grades_map("rail_class", top.get("rail_class", {})).items()
    }
    cabins = {
        grade: _cabin_rule(f"flight_cabin.{grade}", value)
        for grade, value in _grades_map("flight_cabin", top.get("flight_cabin", {})).items()
    }
    named = [*caps, *rail, *cabins]
    default = _default_grade(top.get("grades"), named)
    approvers = _approvers(top.get("approvers", []), [default, *named])
    days = top.get("advance_booking_days")
    if days is not None and (not _whole(days) or not 0 <= days <= 365):
        raise PolicyError("advance_booking_days", days, "a whole number of days from 0 to 365")
    only = top.get("preferred_airlines_only", False)
    if not isinstance(only, bool):
        raise PolicyError("preferred_airlines_only", only, "true or false")
    airlines = _airlines(top.get("preferred_airlines", []), airline)
    if only and not airlines:
        raise PolicyError("preferred_airlines_only", only, "false without preferred_airlines")
    return Policy(
        currency=currency,
        default_grade=default,
        tiers=tiers,
        hotel_caps=caps,
        rail_class=rail,
        flight_cabin=cabins,
        advance_booking_days=days,
        preferred_airlines=airlines,
        preferred_airlines_only=only,
        approvers=approvers,
        name=name,
    )


def _keys(where: str, data: Mapping[Any, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str) or key not in allowed:
            shown = key if where == "(file)" else f"{where}.{key}"
            raise PolicyError(str(shown), value, "a known key: one of " + ", ".join(allowed))
        out[key] = value
    return out


def _grades_map(key: str, value: Any) -> dict[str, Any]:
    """A mapping keyed by grade names."""
    if not isinstance(value, Mapping):
        raise PolicyError(key, value, "a mapping of grade -> value, e.g. {L1: ..., L3: ...}")
    out: dict[str, Any] = {}
    for grade, rule in value.items():
        name = str(grade) if isinstance(grade, str | int) and not isinstance(grade, bool) else ""
        if not _NAME.fullmatch(name):
            raise PolicyError(f"{key}.{grade}", rule, "a grade name of letters, digits, - _ .")
        out[name] = rule
    return out


def _city_tiers(value: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise PolicyError("city_tiers", value, "a mapping of tier -> list of cities")
    tiers: dict[str, tuple[str, ...]] = {}
    placed: dict[str, str] = {}
    for tier, cities in value.items():
        key = f"city_tiers.{tier}"
        if not isinstance(tier, str) or not _NAME.fullmatch(tier) or tier == OTHER:
            raise PolicyError(key, cities, "a tier name of letters, digits, - _ . (not 'other')")
        if not isinstance(cities, list) or not cities:
            raise PolicyError(key, cities, "a list of city names, e.g. [成都, Hangzhou]")
        names = []
        for i, city in enumerate(cities):
            if not isinstance(city, str) or not city.strip() or len(city) > 64:
                raise PolicyError(f"{key}[{i}]", city, "a city name, in Chinese or English")
            if fold(city) in placed:
                raise PolicyError(
                    f"{key}[{i}]", city, f"a city in one tier (it is in {placed[fold(city)]})"
                )
            placed[fold(city)] = tier
            names.append(city.strip())
        tiers[tier] = tuple(names)
    return tiers


def _hotel_caps(value: Any, tiers: Tiers) -> dict[str, dict[str, int]]:
    caps: dict[str, dict[str, int]] = {}
    known = tiers.names
    for grade, per_tier in _grades_map("hotel_cap_per_night", value).items():
        key = f"hotel_cap_per_night.{grade}"
        if not isinstance(per_tier, Mapping) or not per_tier:
            raise PolicyError(
                key, per_tier, "a mapping of tier -> amount, e.g. {tier1: 500, other: 300}"
            )
        amounts: dict[str, int] = {}
        for tier, amount in per_tier.items():
            if tier not in known:
                raise PolicyError(f"{key}.{tier}", amount, "a tier: one of " + ", ".join(known))
            if not _whole(amount) or not 1 <= amount <= 1_000_000:
                raise PolicyError(
                    f"{key}.{tier}", amount, "a whole amount per night from 1 to 1000000"
                )
            amounts[str(tier)] = int(amount)
        if OTHER not in amounts:
            raise PolicyError(
                key, dict(per_tier), "an amount for 'other' too (cities in no tier listed)"
            )
        caps[grade] = amounts
    return caps


def _cabin_rule(key: str, value: Any) -> CabinRule:
    if isinstance(value, str):
        return CabinRule(_choice(key, value, CABINS))
    if not isinstance(value, Mapping):
        raise PolicyError(
            key, value, "a cabin (" + ", ".join(CABINS) + ") or a rule by flight length"
        )
    rule = _keys(key, value, CABIN_KEYS)
    cabin = _choice(f"{key}.cabin", rule.get("cabin"), CABINS)
    long_cabin = rule.get("long_haul_cabin")
    hours = rule.get("long_haul_hours")
    if (long_cabin is None) != (hours is None):
        raise PolicyError(key, dict(value), "long_haul_cabin and long_haul_hours together")
    if long_cabin is None:
        return CabinRule(cabin)
    long_cabin = _choice(f"{key}.long_haul_cabin", long_cabin, CABINS)
    if rank(CABINS, long_cabin) < rank(CABINS, cabin):
        raise PolicyError(f"{key}.long_haul_cabin", long_cabin, f"a cabin at least {cabin}")
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 24:
        raise PolicyError(f"{key}.long_haul_hours", hours, "a number of hours from 0 to 24")
    return CabinRule(cabin, long_cabin, float(hours))


def _default_grade(value: Any, named: list[str]) -> str:
    if not isinstance(value, Mapping):
        raise PolicyError("grades", value, "a mapping with the default grade, e.g. {default: L1}")
    grades = _keys("grades", value, ("default",))
    default = grades.get("default")
    name = str(default) if isinstance(default, str | int) and not isinstance(default, bool) else ""
    if not _NAME.fullmatch(name):
        raise PolicyError("grades.default", default, "a grade name of letters, digits, - _ .")
    if named and name not in named:
        raise PolicyError(
            "grades.default", name, "a grade the policy names: " + ", ".join(dict.fromkeys(named))
        )
    return name


def _approvers(value: Any, grades: list[str]) -> Approvers:
    if not isinstance(value, Mapping):
        return Approvers(default=_user_ids("approvers", value))
    parts = _keys("approvers", value, APPROVER_KEYS)
    by_grade = {}
    for grade, ids in _grades_map("approvers.grades", parts.get("grades", {})).items():
        if grade not in grades:
            raise PolicyError(
                f"approvers.grades.{grade}",
                ids,
                "a grade the policy names: " + ", ".join(dict.fromkeys(grades)),
            )
        by_grade[grade] = _user_ids(f"approvers.grades.{grade}", ids)
    departments = parts.get("departments", {})
    if not isinstance(departments, Mapping):
        raise PolicyError(
            "approvers.departments", departments, "a mapping of department -> user ids"
        )
    by_department = {}
    for department, ids in departments.items():
        if not isinstance(department, str) or not department.strip() or len(department) > 64:
            raise PolicyError(f"approvers.departments.{department}", ids, "a department name")
        by_department[department.strip()] = _user_ids(f"approvers.departments.{department}", ids)
    return Approvers(
        _user_ids("approvers.default", parts.get("default", [])), by_grade, by_department
    )


def _user_ids(key: str, value: Any) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise PolicyError(key, value, "a list of the platform's user ids, e.g. [U0APPROVER]")
    for i, item in enumerate(items):
        if not isinstance(item, str) or not _USER_ID.fullmatch(item):
            raise PolicyError(f"{key}[{i}]", item, "a user id of the platform (no spaces or ':')")
    return tuple(dict.fromkeys(items))


def _airlines(value: Any, airline: Callable[[str], str | None] | None) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise PolicyError("preferred_airlines", value, "a list of airlines, e.g. [东航, CA]")
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item.strip():
            raise PolicyError(f"preferred_airlines[{i}]", item, "an airline's name or code")
        if airline is not None and airline(item) is None:
            raise PolicyError(
                f"preferred_airlines[{i}]",
                item,
                "an airline the planner knows, e.g. MU, 东航, China Eastern",
            )
    return tuple(item.strip() for item in items)


def _choice(key: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise PolicyError(key, value, "one of " + ", ".join(choices))
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    simple = text and all(ch.isprintable() and not ch.isspace() for ch in text)
    return text if simple else repr(text)


__all__ = ["CURRENCIES", "KEYS", "PolicyError", "load_policy", "parse_yaml"]
