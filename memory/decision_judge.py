"""Which facts the fast model is shown for a new one (`consult_judge`): those close to it
in meaning, and a few less close that it says a change about; its answer goes into the
candidate's `decision` for `memory.decision.FactDecider` to apply."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory.changes import ChangeReader
from memory.conflicts import ConflictJudge
from memory.decision import ASPECT_FLOOR, Candidate
from memory.dedupe import is_near_duplicate
from memory.profile import ProfileSchema
from memory.relations import comparable
from memory.store import StoredItem

# The fast model sees the facts at least this close to a new one (the closest first),
# and up to `_JUDGE_IN_OTHER_WORDS` less close ones (from `ASPECT_FLOOR`) that the new fact
# says a change about: a change said in other words sits lower ("Find me something
# downtown" / "From now on book hotels close to the airport": 0.815).
_JUDGE_MIN_SIMILARITY = 0.84
_JUDGE_IN_OTHER_WORDS = 2
_JUDGE_CANDIDATES = 6


def consult_judge(
    judge: ConflictJudge,
    schema: ProfileSchema,
    current: Sequence[StoredItem],
    candidates: Sequence[Candidate],
    *,
    changes: ChangeReader | None = None,
) -> None:
    """Ask the fast model whether each candidate changes one of the `current` facts it
    closely resembles (not a near duplicate, and a pair the slots leave unrelated) or,
    with the `changes` reader, one a little less close that it says a change about, on a
    shared word or subject (a change in other words: "Find me something downtown" ->
    "From now on book hotels close to the airport"); its answer goes into
    `candidate.decision` for the write to follow (None: no usable answer, the offline rule
    decides)."""
    if not current:
        return
    matrix = np.stack([s.embedding for s in current])
    for cand in candidates:
        sims = matrix @ cand.embedding
        open_ = [
            int(i)
            for i in np.argsort(-sims)
            if sims[i] >= ASPECT_FLOOR and comparable(schema, current[i].item, cand.match)
        ]
        order = [i for i in open_ if sims[i] >= _JUDGE_MIN_SIMILARITY][:_JUDGE_CANDIDATES]
        if changes is not None:
            said = [
                i
                for i in open_
                if i not in order and changes.says_change(current[i].item.text, cand.text)
            ]
            order += said[:_JUDGE_IN_OTHER_WORDS]
        if order and not any(
            is_near_duplicate(cand.text, current[i].item.text, float(sims[i])) for i in order
        ):
            cand.decision = judge.judge(cand.text, [current[i].item for i in order])
