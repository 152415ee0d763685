"""MEMORY_DSN=bailian://... and the Bailian user id of a namespace."""

from __future__ import annotations

import pytest

from memory.bailian.target import BailianTarget, user_id


def test_the_default_library_is_left_out_of_every_call() -> None:
    target = BailianTarget.from_dsn("bailian://default")
    assert target == BailianTarget(None, None)
    assert target.scope() == {}


def test_a_library_and_a_memory_rule() -> None:
    target = BailianTarget.from_dsn("bailian://lib_travel-01?project_id=proj42")
    assert target == BailianTarget("lib_travel-01", "proj42")
    assert target.scope() == {"memory_library_id": "lib_travel-01"}


@pytest.mark.parametrize(
    "dsn",
    [
        "bailian://",
        "bailian://" + "x" * 33,
        "bailian://lib/../other",
        "bailian://lib?project=1",
        "bailian://lib?project_id=a/b",
        "sqlite:///x.db",
    ],
)
def test_a_malformed_dsn_is_refused_with_a_message(dsn: str) -> None:
    with pytest.raises(ValueError, match=r"MEMORY_DSN|bailian://"):
        BailianTarget.from_dsn(dsn)


def test_a_namespace_is_the_user_id_and_a_long_one_a_stable_digest() -> None:
    assert user_id("T024BE7LD:U01ABC") == "T024BE7LD:U01ABC"
    long = "feishu:" + "t" * 40 + ":ou_" + "a" * 32
    assert len(long) > 64
    assert user_id(long) == user_id(long)
    assert len(user_id(long)) <= 64 and user_id(long).startswith("ns-")
    assert user_id(long) != user_id(long + "b")
    assert user_id("a b") != "a b" and len(user_id("a b")) <= 64
