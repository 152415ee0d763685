"""One text's verdict, as memory's record path gives it, for every entry point that checks
text before it is kept or shown: the preferences form (chat platforms' modals, the web page
and its REST API) and approval reasons.

`verdict(text)` is `PrivacyGuard.check` on the text recorded alone (what `Memory.record`
does with a form's free text): the rules, the learned reading of numbers only the rules'
guess calls amounts, pieces of one number within the text (or against `stored` facts),
and similarity to instructions. So a sentence gets the same answer on the form as in chat,
with the same category, hence the same message (`bot.messages.rejection`).

Left out: the fast model's second opinion (`memory.privacy.review`), a network call of up to
seconds, too slow for a form's validation (a chat platform's modal must be answered within a
few seconds); the record path still asks it, and a form's save reports what it refused.

`allow` names categories a caller accepts (an approval reason may give a price): the
verdict is then the most specific category found that is not allowed, so an allowed
category found first (a link reads as instructions before anything else) never hides a
phone number after it.

When `allow` holds both "amount" and "instructions" (approval reasons), the learned layers are
skipped: they only ever turn an amount into no finding and no finding into instructions, so
what they would change is allowed anyway, and the verdict costs no embedding.

Cost: one guard per process, built on first use (the bundled model, already loaded when
the memory embeds locally); a text costs one embedding, asked for by whichever learned layer
reads it first (the amount readings for a number the rules refuse as an unnamed amount, the
instruction layer otherwise); the embedder caches it, so the next layer and the same text
recorded right after are not embedded again. The first check in a process would also read
the exemplar and weight files, load the bundled model (when the memory embeds elsewhere) and
run it for the first time: `warm()` does that ahead, and a process calls it at start on a
background thread (`bot.compose.core.warm_privacy`), so nobody's first form waits for it.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable, Collection, Iterable

from memory.privacy.categories import CATEGORIES, Category
from memory.privacy.guard import PrivacyGuard
from memory.privacy.rules import findings
from memory.privacy.text import normalise

_lock = threading.Lock()
_guards: dict[bool, PrivacyGuard] = {}
_LEARNED: frozenset[Category] = frozenset({"amount", "instructions"})
_warmed = threading.Event()


def shared_guard(*, semantic: bool = True) -> PrivacyGuard:
    """The guard `open_memory` builds, without a reviewer (`semantic=False`: without the
    learned layers); one of each per process."""
    with _lock:
        if semantic not in _guards:
            _guards[semantic] = PrivacyGuard(semantic=semantic)
        return _guards[semantic]


def verdict(
    text: str,
    *,
    allow: Collection[Category] = (),
    stored: Callable[[], Iterable[str]] = tuple,
) -> Category | None:
    """The category memory's record path refuses `text` for, or None when it would keep it
    (see the module docstring); categories in `allow` are not refusals."""
    fact = unicodedata.normalize("NFC", " ".join(text.split()))  # as `memory.intake` keeps it
    if not fact:
        return None
    guard = shared_guard(semantic=not frozenset(allow) >= _LEARNED)
    found = guard.check([fact], stored=stored)[0]
    if found is None or found not in allow:
        return found
    rest = {category for category, _, _ in findings(normalise(fact).text)}
    return next((c for c in CATEGORIES if c in rest and c not in allow), None)


def warm() -> None:
    """Load what the first check would (the learned layers' exemplars and vectors, the
    classifier's weights, the model) and run the model once; later calls return at once.
    Safe beside checks on other threads."""
    if _warmed.is_set():
        return
    guard = shared_guard()
    for layer in (guard.similarity, guard.amounts):
        if layer is not None:
            layer.margins(["window seat on long flights"])  # reads the exemplars, embeds once
    if guard.classifier is not None:
        guard.classifier.keeps(["row 12 on the long flights"])  # reads the weights
    _warmed.set()


__all__ = ["shared_guard", "verdict", "warm"]
