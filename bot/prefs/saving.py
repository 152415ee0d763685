"""Saving a submitted `/travel-prefs` form, apart from Slack: which slots to write
(`merge_changes`), which options would end up both preferred and avoided (`clashes`),
recording the free text (`record_note`), and making a double submission of one view
save once (`SubmitClaims`). The listeners that call these are `bot.slack.listeners.prefs_command`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.messages import rejection, t
from bot.slack.views.prefs_modal import clip
from memory.errors import MemoryEngineError
from memory.lang import Lang
from memory.profile import ProfileSchema, Value

if TYPE_CHECKING:
    from memory.engine import Memory

log = logging.getLogger(__name__)

SUBMIT_TTL_SECONDS = 86400


def merge_changes(
    base: Mapping[str, Value],
    current: Mapping[str, Value],
    submitted: Mapping[str, Value | None],
) -> tuple[dict[str, Value | None], list[str]]:
    """What to write, and the slots changed elsewhere that the form leaves alone.

    `base` is the profile when the form opened, `current` the profile now. A slot the
    person did not change in the form is never written (a newer value stays); a slot
    they changed is written unless it already holds that value.
    """
    changes: dict[str, Value | None] = {}
    kept: list[str] = []
    for slot, value in submitted.items():
        before, now = base.get(slot), current.get(slot)
        if value == before:
            if now != before:
                kept.append(slot)
        elif value != now:
            changes[slot] = value
    return changes, kept


def clashes(schema: ProfileSchema, profile: Mapping[str, Value | None], lang: Lang) -> str:
    """Options that would be both preferred and avoided, described for the person."""
    found = []
    for slot in schema.slots:
        other = slot.exclusive_with
        if not other or slot.id > other:
            continue
        both = set(profile.get(slot.id) or ()) & set(profile.get(other) or ())
        for option in slot.options:
            if option.id in both:
                pair = f"{slot.label(lang)} / {schema.slot(other).label(lang)}"
                found.append(f"{option.label(lang)} ({pair})")
    return ("、" if lang == "zh" else ", ").join(found)


def record_note(memory: Memory, namespace: str, text: str, lang: Lang) -> tuple[list[str], bool]:
    """Record the free text (source "form"): what to tell the person, and if it was kept."""
    if not text:
        return [], False
    shown = clip(text, 200)
    try:
        outcomes = memory.record(namespace, [text], source="form")
    except MemoryEngineError as exc:
        log.warning("the form's free text was not saved (%s)", type(exc).__name__)
        return [t("prefs_note_failed", lang, text=shown)], False
    lines, kept = [], False
    for outcome in outcomes:
        if outcome.status in ("added", "updated"):
            lines.append(t("prefs_note_added", lang, text=shown))
            kept = True
        elif outcome.status == "duplicate":
            lines.append(t("prefs_note_duplicate", lang, text=shown))
        else:  # never echo a refused text whole: the outcome's preview is masked and short
            reason = rejection(outcome.code, outcome.reason, lang)
            lines.append(t("prefs_note_rejected", lang, text=outcome.text, reason=reason))
    return lines, kept


class SubmitClaims:
    """The submissions already taken, by view id and hash, so a double submission saves once.

    Kept in Redis (every process sees them) when there is one; otherwise, or while Redis
    is down, in this process's memory.
    """

    def __init__(self, *, redis: Any | None, key_prefix: str) -> None:
        self._redis = redis
        self._key_prefix = key_prefix
        self._claims: dict[str, float] = {}  # used when there is no Redis
        self._lock = threading.Lock()

    def _key(self, claim: str) -> str:
        return f"{self._key_prefix}travel-prefs:submit:{claim}"

    def claim(self, claim: str) -> bool:
        """True for the first submission of a view (same id and hash)."""
        if not claim:
            return True
        if self._redis is not None:
            try:
                return bool(self._redis.set(self._key(claim), "1", nx=True, ex=SUBMIT_TTL_SECONDS))
            except Exception as exc:  # Redis down: fall back to this process's memory
                log.warning("submission claim without Redis (%s)", type(exc).__name__)
        now = time.monotonic()
        with self._lock:
            self._claims = {k: v for k, v in self._claims.items() if v > now}
            if claim in self._claims:
                return False
            self._claims[claim] = now + SUBMIT_TTL_SECONDS
            return True

    def release(self, claim: str) -> None:
        """Let the same view be submitted again (its save did not happen)."""
        if not claim:
            return
        with self._lock:
            self._claims.pop(claim, None)
        if self._redis is not None:
            try:
                self._redis.delete(self._key(claim))
            except Exception as exc:
                log.warning("could not release a submission claim (%s)", type(exc).__name__)


__all__ = ["SUBMIT_TTL_SECONDS", "SubmitClaims", "clashes", "merge_changes", "record_note"]
