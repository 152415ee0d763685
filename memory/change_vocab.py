"""Reading `change_terms.json`: each entry a list of words or patterns per language; a
malformed file fails loudly, naming the file and the entry."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from memory.errors import MemoryEngineError

LANGS = ("en", "zh")
# A reason said inside the clause that says a change ("I'm done with Lufthansa after the
# strikes"): its words say why, not what is given up.
REASON = re.compile(r"\b(?:after|because|since|due to|thanks to)\b|因为|由于")
# "不…了" says a change and a negation; the verb right after 不 is what is no longer done
# ("现在照片不洗出来了": printing, not the photos), which the change pattern would hide
# (what follows it, an object or a direction, is left out as before).
NOT_ANY_MORE = re.compile(r"不(?:太|再)?([^，。,.；;！!？?不了])[^，。,.；;！!？?不了]{0,7}了")


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


__all__ = [
    "LANGS",
    "NOT_ANY_MORE",
    "REASON",
    "ChangeTermsError",
    "require",
    "term_patterns",
    "term_words",
]
