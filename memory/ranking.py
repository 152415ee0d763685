"""Scoring stored facts against a recall request.

Score = cosine between the request and each fact. When the embedder embeds requests and
facts the same way (one embedding space for both), both first lose their component along
the embedder's *language axis*: the direction separating Chinese from English text.
Multilingual e5 puts "酒店要含早餐" much closer to any Chinese request than to
"find me a hotel in Tokyo", so in a namespace that mixes languages a fact in the
request's language wins whatever it says. The axis is the mean difference between the
embeddings of a few fixed, generic parallel sentences (nothing about travel), measured
once per embedder, so it needs no stored data and has no tuned weight.

With e5's asymmetric set-up ("query: " requests, "passage: " facts) the two sides have
different language axes and removing them is not reliably better (bench/README.md), so
such embedders are ranked by plain cosine. Tried on the PrefEval development topics and
rejected (no gain or worse): centring on the namespace's mean fact vector, hub penalties,
pseudo-relevance feedback, word BM25 fused by rank or by score.
"""

from __future__ import annotations

import logging
import threading

import numpy as np

from memory.embedding import Embedder, Vector
from memory.errors import MemoryEngineError

log = logging.getLogger(__name__)

# Everyday sentences with no bearing on travel preferences, English and Chinese.
_PARALLEL: tuple[tuple[str, str], ...] = (
    ("The weather is nice today", "今天天气很好"),
    ("Please send me the report", "请把报告发给我"),
    ("The meeting starts at three", "会议三点开始"),
    ("My phone battery is low", "我的手机快没电了"),
    ("This book is very interesting", "这本书很有意思"),
    ("We need more chairs in the room", "房间里需要更多椅子"),
    ("Thank you for your help", "谢谢你的帮助"),
    ("The price went up last month", "上个月价格上涨了"),
    ("Can you open the window", "你能打开窗户吗"),
    ("He is learning to play the piano", "他在学弹钢琴"),
    ("The children are playing in the park", "孩子们在公园里玩"),
    ("I forgot my umbrella at home", "我把伞忘在家里了"),
)


def _unit(vec: Vector) -> Vector | None:
    norm = float(np.linalg.norm(vec))
    if not np.isfinite(norm) or norm < 1e-6:
        return None
    out: Vector = (vec / norm).astype(np.float32)
    out.setflags(write=False)
    return out


def measure_language_axis(embedder: Embedder) -> Vector | None:
    """The unit vector Chinese minus English, or None when requests and facts are embedded
    differently (e.g. e5 "query: " vs "passage: "). Embedder errors propagate."""
    english = [en for en, _ in _PARALLEL]
    chinese = [zh for _, zh in _PARALLEL]
    probe = english[0]
    as_fact = embedder.embed_passages([probe])[0]
    if float(np.max(np.abs(as_fact - embedder.embed_query(probe)))) > 1e-3:
        return None
    facts = embedder.embed_passages(english + chinese)
    half = len(english)
    return _unit((facts[half:] - facts[:half]).mean(axis=0))


_axes_lock = threading.Lock()
_axes: dict[tuple[int, str], Vector | None] = {}


def language_axis(embedder: Embedder) -> Vector | None:
    """The embedder's language axis (None: rank by plain cosine), measured on first use."""
    key = (id(embedder), embedder.name)
    with _axes_lock:
        if key not in _axes:
            try:
                _axes[key] = measure_language_axis(embedder)
            except MemoryEngineError as exc:
                log.warning("language axis unavailable, plain cosine for now: %s", exc)
                return None  # not remembered: measured again next time
        return _axes[key]


def _without(matrix: Vector, axis: Vector) -> Vector:
    """Rows of `matrix` minus their component along `axis`, re-normalised."""
    flat = matrix - np.outer(matrix @ axis, axis)
    norms = np.linalg.norm(flat, axis=1, keepdims=True)
    norms[norms < 1e-12] = 1.0
    out: Vector = (flat / norms).astype(np.float32)
    return out


def rank_scores(query: Vector, passages: Vector, axis: Vector | None = None) -> Vector:
    """Similarity of each stored fact (rows, L2-normalised) to the request; higher is better.

    `query` is the request's `embed_query` vector. With `axis` (see `language_axis`), both
    sides lose their language component first; without, plain cosine. Deterministic,
    independent of the order of the facts, any namespace size.
    """
    if passages.shape[0] == 0:
        return np.zeros(0, dtype=np.float32)
    if axis is None or axis.shape != query.shape or axis.shape[0] != passages.shape[1]:
        plain: Vector = (passages @ query).astype(np.float32)
        return plain
    request: Vector = _without(query[None, :], axis)[0]
    scores: Vector = (_without(passages, axis) @ request).astype(np.float32)
    return scores
