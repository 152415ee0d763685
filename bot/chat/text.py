"""Long text in parts a platform accepts: pieces packed greedily, in order.

Every channel cuts a long answer into messages or cards within its platform's limit; how
it cuts (paragraphs, lines, words; code fences kept balanced) is its own, packing the
pieces back into parts is the same everywhere (`pack`).
"""

from __future__ import annotations

from collections.abc import Iterable


def pack(pieces: Iterable[str], limit: int, separator: str) -> list[str]:
    """`pieces` joined by `separator` into parts of at most `limit` characters, in order.

    A piece is never split: one longer than `limit` is a part of its own (cut the pieces
    first). Empty pieces between others are kept where they fit.
    """
    parts: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}{separator}{piece}" if current else piece
        if len(joined) <= limit:
            current = joined
            continue
        if current:
            parts.append(current)
        current = piece
    if current:
        parts.append(current)
    return parts


__all__ = ["pack"]
