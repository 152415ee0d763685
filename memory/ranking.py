"""Scoring stored facts against a recall query."""

from __future__ import annotations

import numpy as np

from memory.embedding import Vector


def rank_scores(query: Vector, passages: Vector) -> Vector:
    """Similarity of each passage (rows, L2-normalised) to the query, higher is better."""
    if passages.shape[0] == 0:
        return np.zeros(0, dtype=np.float32)
    return (passages @ query).astype(np.float32)
