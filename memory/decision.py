"""How one new fact relates to what a namespace already remembers.

A near-duplicate is reported, not stored twice; a fact that fills a typed slot
supersedes the slot's previous value *of the same scope* (and, for a preferred/avoided
pair, only the options it contradicts): "On trains I like a window seat" leaves "I prefer
aisle seats" current, and the reverse; a free-text fact the fast model judged an update
supersedes what it names; anything else is added, within the namespace's cap.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from memory.conflicts import ConflictJudge, Decision
from memory.dedupe import SIMILAR, is_near_duplicate
from memory.embedding import Embedder
from memory.lang import Lang
from memory.profile import ProfileSchema
from memory.scope import same_scope
from memory.store import StoredItem, Tx, utcnow
from memory.types import MemoryItem, RecordOutcome, SlotMatch

Relation = Literal["duplicate", "replaces", "unrelated"]


def relation(schema: ProfileSchema, old: MemoryItem, new: SlotMatch) -> Relation:
    """How a recognised slot fact relates to one remembered fact.

    Only a fact of the same slot (or, for a preferred/avoided pair, its partner) and
    the same scope can repeat or replace it; a scoped fact and a general one, or two
    different scopes, are unrelated and both stay.
    """
    if old.slot is None or not same_scope(old.scope, new.scope):
        return "unrelated"
    spec = schema.slot(new.slot)
    if spec.kind == "single":
        if old.slot != new.slot:
            return "unrelated"
        same = old.value == new.value and old.polarity == new.polarity
        return "duplicate" if same else "replaces"
    wanted = set(new.value)
    if old.slot == new.slot:
        held = wanted <= set(old.value or ()) and old.polarity == new.polarity
        return "duplicate" if held else "unrelated"
    if old.slot == spec.exclusive_with and wanted & set(old.value or ()):
        return "replaces"
    return "unrelated"


@dataclasses.dataclass(slots=True)
class Candidate:
    """A fact that passed validation, with what is known about it before the write."""

    index: int
    text: str
    lang: Lang
    embedding: Any
    match: SlotMatch | None
    decision: Decision | None = None


class FactDecider:
    def __init__(self, *, schema: ProfileSchema, embedder: Embedder) -> None:
        self.schema = schema
        self.embedder = embedder

    def decide(
        self, tx: Tx, current: list[StoredItem], cand: Candidate, source: str, limit: int
    ) -> RecordOutcome:
        """Apply one fact inside the namespace's write transaction; `current` is kept up
        to date for the facts after it in the same call."""
        sims = (
            np.stack([s.embedding for s in current]) @ cand.embedding
            if current
            else np.zeros(0, dtype=np.float32)
        )
        for stored, sim in zip(current, sims, strict=True):
            if (sim >= SIMILAR or stored.item.text == cand.text) and is_near_duplicate(
                cand.text, stored.item.text, float(sim)
            ):
                return _duplicate(cand, stored.item)
        replaced: list[StoredItem] = []
        match = cand.match
        if match is not None:
            relations = [(s, relation(self.schema, s.item, match)) for s in current]
            for s, found in relations:
                if found == "duplicate":
                    return _duplicate(cand, s.item)
            replaced = [s for s, found in relations if found == "replaces"]
        elif cand.decision is not None:
            known = {s.item.id: s for s in current}
            if cand.decision.action == "duplicate" and cand.decision.replaces:
                if cand.decision.replaces[0] in known:
                    return _duplicate(cand, known[cand.decision.replaces[0]].item)
            elif cand.decision.action == "update":
                replaced = [known[i] for i in cand.decision.replaces if i in known]
        if len(current) - len(replaced) >= limit:
            return RecordOutcome(
                cand.text,
                "rejected",
                f"memory is full ({limit} facts); forget something first",
            )
        item = MemoryItem(
            id=uuid.uuid4().hex,
            namespace=tx.namespace,
            text=cand.text,
            source=source,
            created_at=utcnow(),
            slot=match.slot if match else None,
            value=match.value if match else None,
            polarity=match.polarity if match else None,
            lang=cand.lang,
            scope=match.scope if match else None,
        )
        tx.insert(item, cand.embedding, self.embedder.name)
        for old in replaced:
            tx.supersede(
                old.item.id, by=item.id, reason=f"replaced by: {cand.text}", at=item.created_at
            )
            current.remove(old)
        current.append(StoredItem(item, cand.embedding, self.embedder.name))
        if match is not None and self.schema.slot(match.slot).kind == "multi":
            for old in replaced:
                self._keep_remainder(tx, current, old, set(match.value))
        if replaced:
            olds = "; ".join(old.item.text for old in replaced)
            return RecordOutcome(
                cand.text,
                "updated",
                f"replaces: {olds}",
                item.id,
                tuple(o.item.id for o in replaced),
            )
        return RecordOutcome(cand.text, "added", "", item.id)

    def _keep_remainder(
        self, tx: Tx, current: list[StoredItem], old: StoredItem, contradicted: set[str]
    ) -> None:
        """ "I prefer China Eastern" contradicts only MU of "I avoid Air China and China
        Eastern": the Air China part stays remembered, as a fact of its own."""
        assert old.item.slot is not None
        rest = tuple(sorted(set(old.item.value or ()) - contradicted))
        if not rest:
            return
        text = self.schema.render(old.item.slot, rest, old.item.lang)
        if old.item.scope:  # the rest keeps its scope, in words too ("上海：避免入住汉庭")
            label = self.schema.scope_label(old.item.scope, old.item.lang)
            text = f"{label}{'：' if old.item.lang == 'zh' else ': '}{text}"
        text = text[:1].upper() + text[1:]
        vector = self.embedder.embed_passages([text])[0]
        item = dataclasses.replace(
            old.item, id=uuid.uuid4().hex, text=text, value=rest, created_at=utcnow()
        )
        tx.insert(item, vector, self.embedder.name)
        current.append(StoredItem(item, vector, self.embedder.name))


def _duplicate(cand: Candidate, existing: MemoryItem) -> RecordOutcome:
    return RecordOutcome(
        cand.text, "duplicate", f"already remembered: {existing.text}", existing.id
    )


_JUDGE_MIN_SIMILARITY = 0.85
_JUDGE_CANDIDATES = 3


def consult_judge(
    judge: ConflictJudge, current: Sequence[StoredItem], candidates: Sequence[Candidate]
) -> None:
    """Ask the fast model whether each free-text candidate updates one of the `current`
    free-text facts it closely resembles (not a near duplicate); its answer goes into
    `candidate.decision` for the write to follow."""
    if not current:
        return
    matrix = np.stack([s.embedding for s in current])
    for cand in candidates:
        if cand.match is not None:
            continue
        sims = matrix @ cand.embedding
        order = [int(i) for i in np.argsort(-sims)[:_JUDGE_CANDIDATES]]
        similar = [current[i].item for i in order if sims[i] >= _JUDGE_MIN_SIMILARITY]
        if similar and not any(
            is_near_duplicate(cand.text, item.text, float(sims[i]))
            for i, item in zip(order, similar, strict=False)
        ):
            cand.decision = judge.judge(cand.text, similar)
