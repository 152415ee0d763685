"""Properties of the ranking function, with the bundled embedding model."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from memory.embedding import LocalEmbedder, Vector, shared_local_embedder
from memory.ranking import language_axis, rank_scores

RAIL = "出差只坐高铁一等座"
BREAKFAST = "酒店要含早餐"
NAMESPACE = [
    "I read science fiction before bed",
    BREAKFAST,
    "My dog is a golden retriever",
    RAIL,
    "I love spicy food",
    "周末喜欢爬山",
]


class QueryPrefixEmbedder:
    """The bundled model embedding stored facts with the e5 "query: " prefix too, so
    requests and facts share one embedding space (a configuration the engine supports)."""

    name = "local:multilingual-e5-small+query-prefix"

    def __init__(self, model: LocalEmbedder) -> None:
        self._model = model
        self.dim = model.dim

    def embed_passages(self, texts: Sequence[str]) -> Vector:
        return np.stack([self._model.embed_query(t) for t in texts])

    def embed_query(self, text: str) -> Vector:
        return self._model.embed_query(text)


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return shared_local_embedder()


def top(scores: Vector, texts: Sequence[str]) -> str:
    return texts[int(np.argmax(scores))]


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("按我平时的习惯规划去广州", RAIL),
        ("帮我订酒店", BREAKFAST),
        ("book a hotel in Shanghai for me", BREAKFAST),
    ],
)
def test_the_relevant_fact_outranks_unrelated_ones_in_a_bilingual_namespace(
    local: LocalEmbedder, request_text: str, wanted: str
) -> None:
    scores = rank_scores(
        local.embed_query(request_text), local.embed_passages(NAMESPACE), language_axis(local)
    )
    assert top(scores, NAMESPACE) == wanted


def test_scores_are_deterministic_and_independent_of_fact_order(local: LocalEmbedder) -> None:
    query = local.embed_query("plan my trip to Chengdu")
    facts = local.embed_passages(NAMESPACE)
    first = rank_scores(query, facts, language_axis(local))
    again = rank_scores(query, facts.copy(), language_axis(local))
    assert np.array_equal(first, again)
    order = np.arange(len(NAMESPACE))[::-1]
    shuffled = rank_scores(query, facts[order], language_axis(local))
    assert np.allclose(shuffled, first[order], atol=1e-6)
    assert np.all(first <= 1.0 + 1e-5) and np.all(first >= -1.0 - 1e-5)


def test_a_single_fact_or_none_can_be_ranked(local: LocalEmbedder) -> None:
    query = local.embed_query("book me an overnight flight")
    one = local.embed_passages(["I never take red-eye flights"])
    scores = rank_scores(query, one, language_axis(local))
    assert scores.shape == (1,)
    assert -1.0 <= float(scores[0]) <= 1.0
    assert rank_scores(query, one[:0]).shape == (0,)


def test_the_bundled_model_embeds_facts_like_requests_so_the_language_axis_applies(
    local: LocalEmbedder,
) -> None:
    fact = "I never take red-eye flights"
    assert np.allclose(local.embed_passages([fact])[0], local.embed_query(fact), atol=1e-5)
    assert language_axis(local) is not None


def test_with_one_embedding_space_language_no_longer_outweighs_meaning(
    local: LocalEmbedder,
) -> None:
    """An English request finds the Chinese hotel fact, not the nearest English one."""
    embedder = QueryPrefixEmbedder(local)
    axis = language_axis(embedder)
    assert axis is not None
    assert float(np.linalg.norm(axis)) == pytest.approx(1.0, abs=1e-5)
    query = embedder.embed_query("book a hotel in Shanghai for me")
    facts = embedder.embed_passages(NAMESPACE)
    assert top(rank_scores(query, facts), NAMESPACE) != BREAKFAST  # language wins without it
    assert top(rank_scores(query, facts, axis), NAMESPACE) == BREAKFAST


def test_the_language_component_is_ignored_on_both_sides() -> None:
    """Hand-made vectors: dimension 0 is 'language', the others are meaning."""
    axis = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    query = np.array([0.8, 0.6, 0.0], dtype=np.float32)
    same_language_other_meaning = np.array([0.9, 0.0, 0.436], dtype=np.float32)
    other_language_same_meaning = np.array([-0.6, 0.8, 0.0], dtype=np.float32)
    facts = np.stack([same_language_other_meaning, other_language_same_meaning])
    facts /= np.linalg.norm(facts, axis=1, keepdims=True)
    plain = rank_scores(query, facts)
    assert plain[0] > plain[1]
    scores = rank_scores(query, facts, axis)
    assert scores[1] == pytest.approx(1.0, abs=1e-5)
    assert scores[0] == pytest.approx(0.0, abs=1e-5)
