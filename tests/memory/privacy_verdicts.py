"""What the privacy guard does with one fact, as the bot would: kept, or refused as an amount.

Both the fast rules (`scan`) and the guard a record goes through (`PrivacyGuard`, without
its semantic layer) must agree, so a test of a sentence checks what a traveller sees."""

from __future__ import annotations

from memory.privacy import scan
from memory.privacy.guard import PrivacyGuard


def assert_kept(text: str) -> None:
    assert scan(text) is None
    assert PrivacyGuard(semantic=False).check([text]) == [None]


def assert_refused(text: str) -> None:
    assert scan(text) == "amount"
    assert PrivacyGuard(semantic=False).check([text]) == ["amount"]
