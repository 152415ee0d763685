"""Request text and namespaces as memory takes them: found by one scan, decided as by
Unicode's categories character by character."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.errors import InvalidNamespace
from memory.intake import _CONTROL, check_namespace, clean_text


def test_the_control_scan_finds_exactly_unicodes_control_characters() -> None:
    found = {cp for cp in range(sys.maxunicode + 1) if _CONTROL.match(chr(cp))}
    controls = {
        cp
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) == "Cc" and chr(cp) not in "\n\r\t"
    }
    assert found == controls and len(controls) == 62


def by_character(text: str) -> str:
    """`clean_text` as it was, one character at a time."""
    if not text.isascii():
        if any("\ud800" <= ch <= "\udfff" for ch in text):
            text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        text = unicodedata.normalize("NFC", text)
    control = {"Cc"}
    return "".join(
        " " if unicodedata.category(ch) in control and ch not in "\n\r\t" else ch for ch in text
    )


@given(st.text(st.characters(codec=None), max_size=60))
def test_a_request_is_cleaned_as_character_by_character(text: str) -> None:
    assert clean_text(text) == by_character(text)


def test_a_request_keeps_its_words_and_loses_its_controls() -> None:
    assert clean_text("plan my\x00trip\x1b to 成都\u0085\tnow\n") == "plan my trip  to 成都 \tnow\n"
    assert clean_text("a \ud83d\ude00 b \ud800") == "a 😀 b \ufffd"


@given(st.text(st.characters(codec=None), min_size=1, max_size=30))
def test_a_namespace_is_refused_exactly_when_a_character_is_of_those_kinds(name: str) -> None:
    bad = {"Cs", "Cc", "Cf", "Zl", "Zp"}
    if not name.strip() or any(unicodedata.category(ch) in bad for ch in name):
        with pytest.raises(InvalidNamespace):
            check_namespace(name)
    else:
        assert check_namespace(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize("name", ["T1:U1\x7f", "T1:\x00U1", "T024BE7LD:U01ABC\t"])
def test_an_ascii_namespace_with_a_control_character_is_refused(name: str) -> None:
    with pytest.raises(InvalidNamespace):
        check_namespace(name)
    assert check_namespace("T024BE7LD:U01ABC") == "T024BE7LD:U01ABC"
