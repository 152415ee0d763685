"""JSON nested deeper than any payload is refused before it is parsed; strings don't count."""

from __future__ import annotations

import json

import pytest

from bot.payloads import MAX_DEPTH, TooDeep, parse_json, too_deep


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_nesting_up_to_the_limit_parses_and_beyond_is_refused() -> None:
    assert parse_json(nested(MAX_DEPTH)) == json.loads(nested(MAX_DEPTH))
    with pytest.raises(TooDeep):
        parse_json(nested(MAX_DEPTH + 1))
    with pytest.raises(ValueError):  # TooDeep is a ValueError: every caller already handles it
        parse_json('{"a":' * 5000 + "1" + "}" * 5000)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"note": "[" * 500 + '\\" {{{', "list": ["]]]", '"[[['] * 300})
    assert not too_deep(text)
    assert parse_json(text)["list"][0] == "]]]"


def test_wide_but_shallow_bodies_pass() -> None:
    text = json.dumps([[i] for i in range(50_000)])
    assert not too_deep(text.encode())
    assert len(parse_json(text)) == 50_000


def test_unclosed_and_unparsable_text_is_a_value_error() -> None:
    for text in ("[" * 100_000, "not json", '{"a": "unterminated'):
        with pytest.raises(ValueError):
            parse_json(text)
