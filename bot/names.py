"""How names of places and airlines are compared, wherever they are looked up.

"Xi'an", "xian", "XIAN 市" and "Xian City" are one name: case, width, spaces and
punctuation do not matter, nor does a trailing 市 / 特别行政区 / "City". The planner's
catalogue (`bot.planning.inventory.catalogue`) and the travel policy's city tiers
(`bot.policy.tiers`) both use this one rule, so a city the planner knows is the city the
policy names.
"""

from __future__ import annotations

import re
import unicodedata

_SUFFIXES = ("特别行政区", "市", " city")
_IGNORED = re.compile(r"[\s'’`\-_.·]+")


def fold_name(text: str) -> str:
    """`text` as names are compared."""
    text = unicodedata.normalize("NFKC", text).strip().lower()
    for suffix in _SUFFIXES:
        if text.endswith(suffix) and len(text) > len(suffix) + 1:
            text = text.removesuffix(suffix)
    return _IGNORED.sub("", text)


__all__ = ["fold_name"]
