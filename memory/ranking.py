"""Scoring stored facts against a recall request: one pure function, `rank_scores`.

score = cosine(request, fact)
      + a language lift, only for facts in the other language than the request's
      + a subject boost, for facts about what the request is about or implies

*Cosine* between the request's `embed_query` vector and the fact's stored vector. A fact
in the request's language is scored by that alone, exactly as the plain embedding would:
same-language recall, the common case, is never traded away.

*Language lift.* Multilingual e5 puts any Chinese request closer to unrelated Chinese
facts than to the English fact it is about, so in a namespace that mixes languages a fact
in the other language rarely surfaces. Such a fact gets half the embedder's *language gap*
for the request's language: how much closer, on average, a request is to unrelated
sentences in its own language than to unrelated sentences in the other, measured once per
embedder on a few fixed everyday parallel sentences (nothing about travel). Only half: the
whole gap also lifts every unrelated fact in the other language above relevant ones in
the request's own (bench/README.md).

*Subject boost.* A request rarely shares a word with the fact it needs ("有没有凌晨一点起飞
的便宜机票" vs "从不坐红眼航班"), but both are about flights and time of day. For each subject
the request is about (`memory/subjects.py`), facts about it gain `SUBJECT_WEIGHT` times the
subject's rarity in the namespace (inverse document frequency): a subject every fact
shares says nothing; one that only two facts share says a lot. A fact whose own words
name no such subject still gains part of it when at least two of its three nearest
facts do (`memory.features`, `NEIGHBOUR_SHARE`, `NEIGHBOUR_QUORUM`): the vocabulary
misses words, the neighbours fill in some of them. A request also implies what travellers
state preferences about for what it books, when it names none of that itself
(`Subjects.implied`: a flight its connections, a train its class, a meal what one can
eat; a high-altitude place health, a late-night departure a flight); those subjects
count at `IMPLIED_SHARE` of the weight ("帮我订去杭州的高铁" and "高铁要一等座", "plan the
team dinner" and "no spicy food"). A subject the request names only in passing (a time of
day beside a meal or a stay, `Subjects.asked`) is not counted.

*A clear match stays first.* When the fact the embedding alone ranks first (cosine and
language lift) leads the next by `CLEAR_MATCH` standard deviations of all the facts'
scores, no subject boost puts another fact above it: the rules lift what the embedding
does not see, they do not overrule what it sees clearly.

Everything is computed from what is passed in (no store, no cache); deterministic and
independent of the order of the facts. What is read of each fact besides its vector (its
language, its subjects) does not depend on the request: it is derived once per set of
facts (`memory.features`, kept with cached facts), and the formula (`_score`) runs over
whole arrays. What it adds to the cosine for a request needs no vector either
(`_terms`): a recall prepares it while the request is embedded
(`prepare_request`, `memory.recall_steps`).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from memory.embedding import Embedder, Vector
from memory.errors import MemoryEngineError
from memory.features import FactFeatures, fact_features
from memory.lang import detect_lang
from memory.subjects import Subjects, load_subjects

if TYPE_CHECKING:
    from memory.facts import Facts
    from memory.profile import ProfileSchema
    from memory.types import MemoryItem

log = logging.getLogger(__name__)

# Share of the measured language gap given to a fact in the other language (dev-tuned:
# 1.0 costs same-language recall in mixed namespaces, see bench/README.md).
CROSS_LANGUAGE_LIFT = 0.5
# Weight of one shared subject of average rarity, in cosine units of the bundled model.
SUBJECT_WEIGHT = 0.025
# Share of that weight for a subject the request implies without naming it.
IMPLIED_SHARE = 0.75
# The embedding's top fact stays first, whatever the subject boost says, when its score
# (cosine and language lift) leads the next fact's by this many standard deviations of
# all the facts' scores: a clear match (dev-tuned, bench/README.md, the guard round). Only
# among at least CLEAR_MATCH_FACTS facts: in a handful, a spread says little.
CLEAR_MATCH = 2.0
CLEAR_MATCH_FACTS = 10

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


@dataclass(frozen=True, slots=True)
class LanguageGap:
    """Per request language: mean cosine of a request with unrelated facts in its own
    language minus that with unrelated facts in the other language (≥ 0)."""

    zh: float
    en: float

    def of(self, lang: str) -> float:
        return self.zh if lang.startswith("zh") else self.en


def _mean_unrelated(requests: Vector, facts: Vector) -> float:
    """Mean cosine of request i with fact j, over i != j (pair i is a translation/itself)."""
    sims = requests @ facts.T
    n = sims.shape[0]
    return float((sims.sum() - np.trace(sims)) / (n * n - n))


def measure_language_gap(embedder: Embedder) -> LanguageGap:
    """The embedder's language gap, from the fixed parallel sentences (embedded as
    requests and as facts). Embedder errors propagate."""
    english = [en for en, _ in _PARALLEL]
    chinese = [zh for _, zh in _PARALLEL]
    asked_en = np.stack([embedder.embed_query(t) for t in english])
    asked_zh = np.stack([embedder.embed_query(t) for t in chinese])
    stored = embedder.embed_passages(english + chinese)
    stored_en, stored_zh = stored[: len(english)], stored[len(english) :]

    def gap(asked: Vector, own: Vector, other: Vector) -> float:
        value = _mean_unrelated(asked, own) - _mean_unrelated(asked, other)
        return max(0.0, value) if math.isfinite(value) else 0.0

    return LanguageGap(
        zh=gap(asked_zh, stored_zh, stored_en), en=gap(asked_en, stored_en, stored_zh)
    )


_gaps_lock = threading.Lock()
_gaps: dict[tuple[int, str], LanguageGap] = {}


def language_gap(embedder: Embedder) -> LanguageGap | None:
    """The embedder's language gap, measured on first use (None: no lift for now)."""
    key = (id(embedder), embedder.name)
    with _gaps_lock:
        if key not in _gaps:
            try:
                _gaps[key] = measure_language_gap(embedder)
            except MemoryEngineError as exc:
                log.warning("language gap unavailable, no cross-language lift for now: %s", exc)
                return None  # not remembered: measured again next time
        return _gaps[key]


def rank_scores(
    request: str,
    query: Vector,
    texts: Sequence[str],
    langs: Sequence[str],
    slots: Sequence[str | None],
    passages: Vector,
    *,
    gap: LanguageGap | None = None,
    subjects: Subjects | None = None,
    features: FactFeatures | None = None,
) -> Vector:
    """Relevance of each stored fact to the request; higher is better.

    `query` is the request's `embed_query` vector; `passages` holds the facts' stored
    vectors (rows, L2-normalised) in the order of `texts`, `langs` ("zh"/"en") and
    `slots` (profile slot ids or None). `gap` (see `language_gap`) enables the
    cross-language lift; `subjects` defaults to the bundled vocabulary. `features`:
    what ranking reads of these facts besides their vectors (`memory.features`), when
    already derived with the same vocabulary (`Facts.features`); derived here otherwise.
    The scores are the same either way.
    """
    count = passages.shape[0]
    if count == 0:
        return np.zeros(0, dtype=np.float32)
    if not len(texts) == len(langs) == len(slots) == count:
        raise ValueError("texts, langs, slots and passages must describe the same facts")
    vocabulary = subjects or load_subjects()
    if features is None or not features.fits(vocabulary, count):
        features = fact_features(texts, langs, slots, vocabulary, passages)
    asked = vocabulary.asked(request)
    implied = vocabulary.implied(asked)
    return _score(passages @ query, detect_lang(request), asked, features, gap, implied)


# What the formula adds to each fact's cosine for one request, one array per term in the
# order added: the embedding's view (the language lift), then the subject boosts.
Terms = tuple[tuple[npt.NDArray[np.float64], ...], tuple[npt.NDArray[np.float64], ...]]


def _terms(
    lang: str,
    asked: Iterable[str],
    facts: FactFeatures,
    gap: LanguageGap | None,
    implied: Iterable[str] = (),
) -> Terms:
    """The formula's terms (module docstring) for a request in language `lang`, about the
    subjects `asked` and those they `implied` (`Subjects.implied`). None needs the
    request's vector, so a recall makes them while the request is still being embedded
    (`prepare_request`)."""
    view: list[npt.NDArray[np.float64]] = []
    if gap is not None:
        lift = CROSS_LANGUAGE_LIFT * gap.of(lang)
        other = facts.zh != (_norm(lang) == "zh")
        view.append(lift * other)
    count = len(facts)
    weights = [(subject, SUBJECT_WEIGHT) for subject in asked]
    weights += [(subject, SUBJECT_WEIGHT * IMPLIED_SHARE) for subject in implied]
    boosts: list[npt.NDArray[np.float64]] = []
    for subject, weight in weights:
        j = facts.column(subject)
        having = facts.weight_of(j)
        n = int(facts.counts[j])
        if n:
            boosts.append(weight * math.log((count + 1) / (n + 0.5)) * having)
    return tuple(view), tuple(boosts)


def _score(
    cosine: Vector,
    lang: str,
    asked: Iterable[str],
    facts: FactFeatures,
    gap: LanguageGap | None,
    implied: Iterable[str] = (),
) -> Vector:
    """The formula (module docstring), over every fact at once: `cosine` of the request
    with each fact, the request's language `lang`, the subjects it is `asked` about and
    those they `implied`."""
    return _combine(cosine, _terms(lang, asked, facts, gap, implied))


def _combine(cosine: Vector, terms: Terms) -> Vector:
    """`cosine` plus the request's `terms`, added in float64 in their order; the
    embedding's clear match (`_clear_match` of the cosine and the view) stays first."""
    view, boosts = terms
    scores = cosine.astype(np.float64)
    for term in view:
        scores += term
    clear = _clear_match(scores)
    for term in boosts:
        scores += term
    if clear is not None:
        scores[clear] = max(float(scores.max()), float(scores[clear])) + 1e-6
    out: Vector = scores.astype(np.float32)
    return out


def _clear_match(view: npt.NDArray[np.float64]) -> int | None:
    """The position of the fact the embedding alone (`view`: cosine and language lift)
    ranks first when it leads the next by `CLEAR_MATCH` standard deviations of `view`,
    else None."""
    count = len(view)
    if count < CLEAR_MATCH_FACTS:
        return None
    top = np.partition(view, count - 2)
    mean = float(view.sum()) / count
    spread = math.sqrt(max(float(view @ view) / count - mean * mean, 0.0))
    if spread <= 0 or float(top[-1] - top[-2]) < CLEAR_MATCH * spread:
        return None
    return int(view.argmax())


@dataclass(frozen=True, slots=True, eq=False)
class PreparedRequest:
    """A request made ready to rank `count` facts before its vector is known: what the
    formula reads of it (`lang`, `asked`, `implied`, the facts' `features`, the `gap`)
    and the `terms` made of that."""

    request: str
    count: int
    lang: str
    asked: tuple[str, ...]
    implied: tuple[str, ...]
    features: FactFeatures
    gap: LanguageGap | None
    terms: Terms


def prepare_request(
    facts: Facts, request: str, embedder: Embedder, schema: ProfileSchema
) -> PreparedRequest:
    """Everything ranking `facts` for `request` needs but the request's vector."""
    vocabulary = load_subjects(schema=schema)
    features = facts.features(vocabulary)
    gap = language_gap(embedder)
    lang = detect_lang(request)
    asked = tuple(vocabulary.asked(request))
    implied = tuple(vocabulary.implied(asked))
    terms = _terms(lang, asked, features, gap, implied)
    return PreparedRequest(request, len(facts), lang, asked, implied, features, gap, terms)


def _prepared_scores(cosine: Vector, prepared: PreparedRequest) -> Vector:
    """The scores of a prepared request, given its `cosine` with each fact (the one place
    a recall scores, so a replay can read what it was given: bench/ranking_replay.py)."""
    return _combine(cosine, prepared.terms)


def ranked(facts: Facts, prepared: PreparedRequest, vector: Vector) -> list[int]:
    """The positions of `facts`, best first (as `rank_order`), for a request prepared
    before its vector was known."""
    if prepared.count != len(facts):
        raise ValueError("the request was prepared for other facts")
    scores = _prepared_scores(facts.matrix @ vector, prepared)
    order: list[int] = np.argsort(-scores, kind="stable").tolist()
    return order


def rank_order(
    facts: Facts,
    query: str,
    embedder: Embedder,
    schema: ProfileSchema,
    vector: Vector | None = None,
) -> tuple[list[int], Vector]:
    """The positions of `facts`, best first for `query`, and every fact's score
    (`rank_scores`); no `MemoryItem` is built. `vector`: the query's `embed_query`
    vector when it is already known."""
    if not facts:
        return [], np.zeros(0, dtype=np.float32)
    prepared = prepare_request(facts, query, embedder, schema)
    scores = _prepared_scores(
        facts.matrix @ (embedder.embed_query(query) if vector is None else vector),
        prepared,
    )
    return np.argsort(-scores, kind="stable").tolist(), scores


def rank_facts(
    facts: Facts,
    query: str,
    embedder: Embedder,
    schema: ProfileSchema,
    limit: int | None = None,
) -> list[MemoryItem]:
    """The best `limit` of `facts` (all by default) for `query`, best first, each with its
    score (`rank_scores`)."""
    order, scores = rank_order(facts, query, embedder, schema)
    return [replace(facts.items[i], score=float(scores[i])) for i in order[:limit]]


def _norm(lang: str) -> str:
    return "zh" if lang.startswith("zh") else "en"
