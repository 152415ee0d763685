"""Recognising a fact that says again what is already remembered.

Embeddings alone cannot decide it: "出差只坐高铁一等座" and "出差只坐高铁二等座" are
0.99 apart. A near-duplicate must be close in meaning AND use the same content words
(ignoring case, punctuation, articles and plurals).
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff\uf900-\ufaff]")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "i",
        "i'm",
        "im",
        "am",
        "is",
        "are",
        "be",
        "to",
        "of",
        "my",
        "me",
        "for",
        "and",
        "or",
        "please",
        "just",
        "really",
        "also",
        "so",
        "very",
        "的",
        "了",
        "吧",
        "呢",
        "啊",
        "也",
        "都",
        "很",
        "我",
        "是",
    ]
)

SIMILAR = 0.95


def normalise(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def content_words(text: str) -> tuple[str, ...]:
    """Content words in order: "writer 1 ... number 0" is not "writer 0 ... number 1"."""
    words: list[str] = []
    for word in _WORD.findall(normalise(text).replace("-", " ")):
        if word in _STOP:
            continue
        if len(word) > 3 and word.endswith("s") and word.isascii():
            word = word[:-1]
        words.append(word)
    return tuple(words)


def is_near_duplicate(new: str, old: str, similarity: float) -> bool:
    if normalise(new) == normalise(old):
        return True
    return similarity >= SIMILAR and content_words(new) == content_words(old)
