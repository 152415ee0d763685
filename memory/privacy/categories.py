"""What the privacy guard refuses: its categories, and the reason given for each."""

from __future__ import annotations

from typing import Literal

Category = Literal["id", "card", "account", "secret", "phone", "amount", "instructions"]
CATEGORIES: tuple[Category, ...] = (
    "id",
    "card",
    "account",
    "secret",
    "phone",
    "amount",
    "instructions",
)
REDACTED = "[redacted]"

REASON_ID = "contains an ID or passport number; keep the preference and leave the number out"
REASON_CARD = (
    "contains bank-card details (a bank-card number, security code or expiry); name the card "
    "type (e.g. 'corporate Visa') without the number"
)
REASON_ACCOUNT = (
    "contains a membership or account number; say which programme (e.g. 'Bonvoy member') "
    "without the number"
)
REASON_SECRET = "contains a password or PIN; never share secrets, keep only the preference"
REASON_PHONE = "contains a phone number; keep the preference and leave the number out"
REASON_AMOUNT = "contains an exact amount; say 'budget-conscious' instead"
REASON_INSTRUCTIONS = (
    "reads as instructions to the assistant or to other people, or carries a link, code or "
    "encoded data; state only the travel preference"
)
REASONS: dict[Category, str] = {
    "id": REASON_ID,
    "card": REASON_CARD,
    "account": REASON_ACCOUNT,
    "secret": REASON_SECRET,
    "phone": REASON_PHONE,
    "amount": REASON_AMOUNT,
    "instructions": REASON_INSTRUCTIONS,
}


__all__ = [
    "CATEGORIES",
    "REASONS",
    "REASON_ACCOUNT",
    "REASON_AMOUNT",
    "REASON_CARD",
    "REASON_ID",
    "REASON_INSTRUCTIONS",
    "REASON_PHONE",
    "REASON_SECRET",
    "REDACTED",
    "Category",
]
