"""docs/travel-policy.md agrees with the code: its example is the one the tests load, and
every key the loader accepts is documented, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from bot.policy.loading import APPROVER_KEYS, CABIN_KEYS, KEYS, load_policy
from bot.policy.tiers import bundled
from tests.bot.policy.conftest import EXAMPLE

DOC = (Path(__file__).resolve().parents[3] / "docs" / "travel-policy.md").read_text("utf-8")


def test_the_example_is_the_one_that_loads() -> None:
    [example] = re.findall(r"```yaml\n(.*?)```", DOC, re.DOTALL)
    assert example == EXAMPLE
    assert load_policy(example).grades == ("L1", "L3")


def test_every_key_is_documented() -> None:
    rows = re.findall(r"^\| `([a-z_.]+)` \|", DOC, re.MULTILINE)
    top = {row.split(".")[0] for row in rows}
    assert top == set(KEYS)
    for key in (*CABIN_KEYS, *APPROVER_KEYS):
        assert f"{key}" in DOC, key


def test_the_bundled_tiers_table_lists_the_bundled_cities() -> None:
    for tier, cities in bundled().items():
        [row] = re.findall(rf"^\| `{tier}` \| (.*) \|$", DOC, re.MULTILINE)
        assert row.split(", ") == [names[0] for names in cities], tier
