"""What every store's `record` does before anything is written: the checks and the guard.

Shape first (not text, control characters, empty, too long, too many in one call), then
the privacy guard on the call's facts together, which only asks for the person's stored
facts (`stored`) when a new fact offers a piece of a number. A fact refused here never
reaches a store: for Bailian, it never leaves the machine.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence

from memory.privacy import REASONS, preview
from memory.privacy.guard import PrivacyGuard
from memory.settings import MemorySettings
from memory.types import RecordOutcome

MAX_NAMESPACE_CHARS = 256


def check_namespace(namespace: str) -> None:
    """Refuse what is not a namespace (ValueError): empty, or longer than 256 characters."""
    if not isinstance(namespace, str) or not namespace.strip():
        raise ValueError("namespace must be a non-empty string")
    if len(namespace) > MAX_NAMESPACE_CHARS:
        raise ValueError(f"namespace longer than {MAX_NAMESPACE_CHARS} characters")


def _has_control_chars(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" and ch not in "\n\r\t" for ch in text)


def screen(
    facts: Sequence[object],
    *,
    limits: MemorySettings,
    guard: PrivacyGuard,
    stored: Callable[[], Iterable[str]],
) -> tuple[list[RecordOutcome | None], list[tuple[int, str]]]:
    """(one outcome per fact, None for those accepted; the accepted (index, text)).

    Accepted texts have their whitespace collapsed, as they are stored.
    """
    outcomes: list[RecordOutcome | None] = [None] * len(facts)
    checked: list[tuple[int, str]] = []
    for index, raw in enumerate(facts):
        code, reason = "", ""
        text = " ".join(raw.split()) if isinstance(raw, str) else ""
        if index >= limits.memory_max_facts_per_call:
            code = "too_many"
            reason = f"too many facts in one call (at most {limits.memory_max_facts_per_call})"
        elif not isinstance(raw, str):
            code, reason = "not_text", "not text"
        elif _has_control_chars(raw):
            code, reason = "control_chars", "contains control characters"
        elif not text:
            code, reason = "empty", "empty fact"
        elif len(text) > limits.memory_max_fact_chars:
            code = "too_long"
            reason = (
                f"too long ({len(text)} characters; at most "
                f"{limits.memory_max_fact_chars}): state one preference per fact"
            )
        else:
            checked.append((index, text))
            continue
        outcomes[index] = RecordOutcome(
            text=preview(text or str(raw)), status="rejected", reason=reason, code=code
        )
    verdicts = guard.check([text for _, text in checked], stored=stored)
    accepted: list[tuple[int, str]] = []
    for (index, text), category in zip(checked, verdicts, strict=True):
        if category is None:
            accepted.append((index, text))
        else:
            outcomes[index] = RecordOutcome(
                text=preview(text), status="rejected", reason=REASONS[category], code=category
            )
    return outcomes, accepted


__all__ = ["MAX_NAMESPACE_CHARS", "check_namespace", "screen"]
