"""Tools built from typed functions: schemas, argument checking, errors as text."""

from __future__ import annotations

import json
from typing import Literal

import pytest

from bot.agent.tools import Tool, ToolContext, ToolRegistry, parse_docstring, tool

CTX = ToolContext(namespace="T1:U1", tenant="T1", user_id="U1")


@tool
def find_hotels(
    ctx: ToolContext,
    city: str,
    tags: list[str],
    nights: int = 1,
    max_stars: float | None = None,
    breakfast: bool = False,
    cabin: Literal["economy", "business"] = "economy",
) -> str:
    """Find hotels in a city.

    Call it before proposing a hotel.

    Args:
        city: The city, in the user's language.
        tags: Features the hotel must have,
            e.g. ["gym"].
        nights: How many nights.
        max_stars (float): The most stars.
        breakfast: Whether breakfast must be included.
        cabin: Unused here.

    Returns:
        JSON text.
    """
    return json.dumps(
        {
            "ns": ctx.namespace,
            "city": city,
            "tags": tags,
            "nights": nights,
            "max_stars": max_stars,
            "breakfast": breakfast,
            "cabin": cabin,
        }
    )


def test_schema_comes_from_signature_and_docstring() -> None:
    function = find_hotels.schema["function"]
    assert function["name"] == "find_hotels"
    assert function["description"] == "Find hotels in a city.\n\nCall it before proposing a hotel."
    props = function["parameters"]["properties"]
    assert props["city"] == {"type": "string", "description": "The city, in the user's language."}
    assert props["tags"]["items"] == {"type": "string"}
    assert props["tags"]["description"] == 'Features the hotel must have, e.g. ["gym"].'
    assert props["nights"]["default"] == 1 and props["nights"]["type"] == "integer"
    assert props["max_stars"]["type"] == "number" and "default" not in props["max_stars"]
    assert props["cabin"]["enum"] == ["economy", "business"]
    assert function["parameters"]["required"] == ["city", "tags"]
    assert "ctx" not in props


def test_valid_arguments_are_coerced() -> None:
    result = json.loads(
        find_hotels.invoke(
            CTX,
            '{"city": "成都", "tags": "gym", "nights": "2", "max_stars": 4, '
            '"breakfast": "true", "cabin": "Business"}',
        )
    )
    assert result == {
        "ns": "T1:U1",
        "city": "成都",
        "tags": ["gym"],
        "nights": 2,
        "max_stars": 4.0,
        "breakfast": True,
        "cabin": "business",
    }


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ("{not json", "error: arguments are not valid JSON"),
        ("[1, 2]", "error: arguments must be a JSON object"),
        ('{"tags": []}', "error: missing required argument 'city'"),
        ('{"city": "x", "tags": [], "stars": 3}', "error: unexpected argument 'stars'"),
        ('{"city": 7, "tags": []}', "error: argument 'city' must be a string"),
        ('{"city": "x", "tags": [1]}', "error: argument 'tags' must be a list of strings"),
        ('{"city": "x", "tags": [], "nights": 1.5}', "error: argument 'nights' must be an integer"),
        (
            '{"city": "x", "tags": [], "nights": true}',
            "error: argument 'nights' must be an integer",
        ),
        ('{"city": "x", "tags": [], "max_stars": "NaN"}', "error: argument 'max_stars' must be a"),
        ('{"city": "x", "tags": [], "cabin": "first"}', "error: argument 'cabin' must be one of"),
        ('{"city": null, "tags": []}', "error: argument 'city' must be a string, not null"),
    ],
)
def test_bad_arguments_become_error_text(arguments: str, error: str) -> None:
    assert find_hotels.invoke(CTX, arguments).startswith(error)


def test_null_for_an_optional_argument_means_its_default() -> None:
    result = json.loads(
        find_hotels.invoke(
            CTX,
            '{"city": "成都", "tags": ["gym"], "nights": null, "max_stars": null, '
            '"breakfast": null, "cabin": null}',
        )
    )
    assert (result["nights"], result["max_stars"], result["breakfast"], result["cabin"]) == (
        1,
        None,
        False,
        "economy",
    )
    # A required argument still may not be null.
    assert find_hotels.invoke(CTX, '{"city": "x", "tags": null}').startswith(
        "error: argument 'tags' must be a list of strings, not null"
    )


def test_malformed_json_error_shows_an_example() -> None:
    assert '{"city": "...", "tags": ["..."]}' in find_hotels.invoke(CTX, "{")


def test_exceptions_inside_a_tool_become_error_text() -> None:
    def explode(ctx: ToolContext, city: str) -> str:
        """Always fails."""
        raise RuntimeError(f"no inventory for {city}")

    broken = Tool.from_function(explode)
    assert broken.invoke(CTX, '{"city": "Lhasa"}') == (
        "error: tool 'explode' failed (RuntimeError: no inventory for Lhasa)"
    )


def test_unsupported_parameter_types_are_refused_when_built() -> None:
    def bad(ctx: ToolContext, data: dict[str, int]) -> str:
        """Bad."""
        return ""

    with pytest.raises(TypeError):
        Tool.from_function(bad)


def test_registry_offers_tools_by_context() -> None:
    def secret(ctx: ToolContext) -> str:
        """Only for people who may record."""
        return "ok"

    registry = ToolRegistry([find_hotels])
    registry.add(Tool.from_function(secret, available=lambda ctx: ctx.can_record))
    assert registry.names == ["find_hotels", "secret"]
    admin = ToolContext(namespace="T1:UA", on_behalf_of="T1:UB", can_record=False)
    assert [t.name for t in registry.offered(admin)] == ["find_hotels"]
    assert admin.subject_namespace == "T1:UB"
    with pytest.raises(ValueError):
        registry.add(find_hotels)


def test_docstring_without_sections() -> None:
    assert parse_docstring("Just one line.") == ("Just one line.", {})
    assert parse_docstring("") == ("", {})
