"""What every store does with text from outside before it reaches SQL, Redis or a model.

Namespaces are checked and normalised (`check_namespace`), request text is repaired
(`clean_text`), and `record`'s facts are screened: shape first (not text, control
characters or broken Unicode, empty, too long, too many in one call), then
the privacy guard on the call's facts together, which only asks for the person's stored
facts (`stored`) when a new fact offers a piece of a number; last, a fact the guard let
pass that names nothing ("ok", "x", "5678" alone) is refused as `no_content`. A fact
refused here never reaches a store: for Bailian, it never leaves the machine.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from memory.errors import InvalidNamespace
from memory.privacy import REASONS, preview
from memory.privacy.guard import PrivacyGuard
from memory.settings import MemorySettings
from memory.types import RecordOutcome

MAX_NAMESPACE_CHARS = 256
# Lone surrogates, control and format characters, line and paragraph separators.
_NOT_IN_IDS = ("Cs", "Cc", "Cf", "Zl", "Zp")
# Unicode's control characters (category Cc: U+0000-U+001F and U+007F-U+009F) but tab,
# newline and carriage return; and surrogates. Found by one scan in C: every recall's
# request passes here, and a loop over its characters cost a hit ~10-25 us.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")
# A fact that names nothing to remember: "x", "ok", "好", "1", "…" (a stray key, a reply
# to the bot). Letters and CJK characters are what a preference is made of.
_ACKNOWLEDGED = frozenset(
    {"ok", "okay", "yes", "yep", "no", "nope", "sure", "thanks", "thank you", "done", "test"}
    | {"好", "好的", "嗯", "嗯嗯", "是", "是的", "对", "行", "可以", "谢谢", "收到"}
)
_NO_CONTENT = "names no preference: say what to remember"
_PUNCT = re.compile(r"[\W_]+")
_CJK = re.compile(r"[\u3400-\u9fff]")


def check_namespace(namespace: object) -> str:
    """The namespace as memory keys it (Unicode NFC), or `InvalidNamespace` (a ValueError).

    Refused: what is not text, empty or blank, longer than 256 characters, or holds a
    character no platform id has and no database or Redis key should carry: a lone
    surrogate (not encodable as UTF-8), a control character, an invisible format
    character (zero-width, bidi overrides), a line or paragraph separator.
    """
    if not isinstance(namespace, str) or not namespace.strip():
        raise InvalidNamespace("namespace must be a non-empty string")
    if len(namespace) > MAX_NAMESPACE_CHARS:
        raise InvalidNamespace(f"namespace longer than {MAX_NAMESPACE_CHARS} characters")
    if namespace.isascii() and namespace.isprintable():
        return namespace  # no ASCII character of those kinds but the unprintable (Cc)
    for ch in namespace:
        if unicodedata.category(ch) in _NOT_IN_IDS:
            raise InvalidNamespace(
                f"namespace contains an invalid character (U+{ord(ch):04X}); "
                "expected an id like T024BE7LD:U01ABC"
            )
    return unicodedata.normalize("NFC", namespace)


def clean_text(text: str) -> str:
    """Request text (a query, an id) made safe for UTF-8 stores: surrogate pairs joined,
    lone surrogates replaced by U+FFFD, control characters by spaces, then NFC."""
    if not text.isascii():
        text = repaired(text)
        text = unicodedata.normalize("NFC", text)
    if _CONTROL.search(text) is not None:
        text = _CONTROL.sub(" ", text)
    return text


def repaired(text: str) -> str:
    """`text` with surrogate pairs joined and lone surrogates replaced by U+FFFD (JSON
    can carry a lone one, `"\\ud800"`, which no UTF-8 store or socket accepts)."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _has_control_chars(text: str) -> bool:
    return _CONTROL.search(text) is not None


def says_nothing(text: str) -> bool:
    """True for a fact too bare to be a preference: one CJK character or fewer than three
    letters with no CJK, digits and marks aside; or a bare acknowledgement ("ok", "好的")."""
    bare = " ".join(_PUNCT.sub(" ", text.lower()).split())
    if bare in _ACKNOWLEDGED:
        return True
    cjk = len(_CJK.findall(bare))
    letters = sum(ch.isalpha() for ch in bare) - cjk
    return letters + 2 * cjk < 3


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
        fixed = repaired(raw) if isinstance(raw, str) else ""
        text = unicodedata.normalize("NFC", " ".join(fixed.split()))
        if index >= limits.memory_max_facts_per_call:
            code = "too_many"
            reason = f"too many facts in one call (at most {limits.memory_max_facts_per_call})"
        elif not isinstance(raw, str):
            code, reason = "not_text", "not text"
        elif _has_control_chars(raw) or ("\ufffd" in fixed and "\ufffd" not in raw):
            code, reason = "control_chars", "contains control characters or broken Unicode"
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
        if category in (None, "instructions") and says_nothing(text):  # "5678": maybe a half
            outcomes[index] = RecordOutcome(
                text=preview(text), status="rejected", reason=_NO_CONTENT, code="no_content"
            )
        elif category is None:
            accepted.append((index, text))
        else:
            outcomes[index] = RecordOutcome(
                text=preview(text), status="rejected", reason=REASONS[category], code=category
            )
    return outcomes, accepted


__all__ = [
    "MAX_NAMESPACE_CHARS",
    "check_namespace",
    "clean_text",
    "repaired",
    "says_nothing",
    "screen",
]
