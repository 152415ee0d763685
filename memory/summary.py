"""The budgeted natural-language summary that recall returns."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.lang import Lang
from memory.types import MemoryItem

_HARD_EN = re.compile(
    r"\b(never|always|must|only|cannot|can't|won't|don't|do not|avoid|refuse|allergic|no longer)\b",
    re.IGNORECASE,
)
_HARD_ZH = re.compile(
    r"从不|绝不|不坐|不要|不吃|不住|不能|只坐|只住|只要|只|必须|一定|务必|避免|避开|过敏"
)
_TRAILING = re.compile(r"[\s。．.!！;；,，、]+$")


def is_hard(item: MemoryItem) -> bool:
    """A must/avoid constraint: typed slots know their polarity; free text is read for it."""
    if item.polarity is not None:
        return item.polarity in ("must", "avoid")
    return bool(_HARD_EN.search(item.text) or _HARD_ZH.search(item.text))


def summarize(items: Sequence[MemoryItem], *, lang: Lang, max_facts: int, max_chars: int) -> str:
    """Hard constraints first, then the rest in the given (relevance) order, within budget.

    Facts keep the words and language they were stated in; only the joining
    punctuation follows `lang`.
    """
    ordered = [item for item in items if is_hard(item)] + [
        item for item in items if not is_hard(item)
    ]
    sep, end = ("；", "。") if lang == "zh" else ("; ", ".")
    parts: list[str] = []
    used = len(end)
    for item in ordered:
        if len(parts) >= max_facts:
            break
        text = _TRAILING.sub("", " ".join(item.text.split()))
        if not text:
            continue
        cost = len(text) + (len(sep) if parts else 0)
        if used + cost > max_chars:
            if parts:
                break
            text = text[: max(1, max_chars - used - 1)] + "…"
            cost = len(text)
        parts.append(text)
        used += cost
    return sep.join(parts) + end if parts else ""
