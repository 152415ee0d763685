"""Reading `change_terms.json`: each entry a list of words or patterns per language; a
malformed file fails loudly, naming the file and the entry."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from memory.errors import MemoryEngineError

LANGS = ("en", "zh")


class ChangeTermsError(MemoryEngineError, ValueError):
    """The change vocabulary file is malformed; the message names the file and the entry."""


def term_words(data: Mapping[str, Any], name: str, source: str) -> list[str]:
    raw: Any = data.get(name)
    require(isinstance(raw, dict) and set(raw) == set(LANGS), source, name)
    words = [w for lang in LANGS for w in raw[lang]]
    require(all(isinstance(w, str) and w for w in words), source, name)
    return words


def require(ok: object, source: str, where: str) -> None:
    if not ok:
        raise ChangeTermsError(f"{source}: {where} is malformed")


def term_patterns(data: Mapping[str, Any], name: str, source: str) -> re.Pattern[str]:
    raw: Any = data.get(name)
    require(isinstance(raw, dict) and set(raw) == set(LANGS), source, name)
    listed = [p for lang in LANGS for p in raw[lang]]
    require(listed and all(isinstance(p, str) and p for p in listed), source, name)
    try:
        return re.compile("|".join(f"(?:{p})" for p in listed), re.IGNORECASE)
    except re.error as exc:
        raise ChangeTermsError(f"{source}: {name}: {exc}") from exc


__all__ = ["LANGS", "ChangeTermsError", "require", "term_patterns", "term_words"]
