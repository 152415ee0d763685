"""The readable view's short ids: as short as 8 characters, longer only where needed."""

from __future__ import annotations

from bot.prefs.remembered import match_id, short_ids


def test_short_ids_are_eight_characters_unless_two_would_look_alike() -> None:
    ids = ["0123456789abcdef", "0123456780000000", "fedcba9876543210", "0123"]
    shown = short_ids(ids)
    assert shown["fedcba9876543210"] == "fedcba98"
    # The two that share their first nine characters show ten.
    assert shown["0123456789abcdef"] == "0123456789"
    assert shown["0123456780000000"] == "0123456780"
    assert shown["0123"] == "0123"  # shorter than eight: whole
    for full, short in shown.items():
        assert match_id(short, ids) == [full]


def test_match_id_takes_whole_ids_and_unambiguous_beginnings() -> None:
    ids = ["abc123", "abd456", "abc123ff"]
    assert match_id("abc123", ids) == ["abc123"]  # a whole id, though it begins another
    assert match_id("abd", ids) == ["abd456"]
    assert sorted(match_id("ab", ids)) == ["abc123", "abc123ff", "abd456"]
    assert match_id("zz", ids) == [] and match_id("  ", ids) == []
