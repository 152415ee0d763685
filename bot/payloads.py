"""JSON from outside (a request body, a form's metadata, a button's value), refused when
it nests deeper than any platform's payload.

`json.loads` recurses once per `[` or `{`: `[` x 1000 raises `RecursionError` (not a
`ValueError`, so it escaped the routes' checks as a 500 and a traceback), and a body just
shallow enough to parse can still exhaust the stack of whatever walks it next (an SDK
decoding it into objects). No payload of a chat platform or of the preferences API
nests beyond a dozen levels, so `parse_json` refuses anything deeper than `MAX_DEPTH`
before parsing (`too_deep`: strings skipped, brackets counted, at C speed for ordinary
bodies) and turns a `RecursionError` into the `ValueError` every route already answers
400 for (and every reader of metadata takes for "malformed").
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class TooDeep(ValueError):
    """JSON nested deeper than `MAX_DEPTH`."""


def too_deep(text: bytes | str, limit: int = MAX_DEPTH) -> bool:
    """Whether the arrays and objects of a JSON text nest deeper than `limit` (strings
    skipped; for text that is not JSON, an upper bound)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    if brackets.count(b"[") + brackets.count(b"{") <= limit:
        return False
    depth = 0
    for byte in brackets:
        depth += 1 if byte in b"[{" else -1
        if depth > limit:
            return True
    return False


def parse_json(text: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads(text)`; `ValueError` (`TooDeep` for nesting) for anything it cannot read."""
    if too_deep(text, max_depth):
        raise TooDeep(f"nested deeper than {max_depth}")
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise TooDeep("nested too deeply") from exc


__all__ = ["MAX_DEPTH", "TooDeep", "parse_json", "too_deep"]
