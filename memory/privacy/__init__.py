"""Write-time privacy guard: what must never be remembered, and masking it in logs.

`scan` names the category of the first sensitive thing in a fact (or None):

- "id": ID-card and passport numbers;
- "card": bank-card data (numbers, security codes, expiry dates, "ending 0005");
- "account": membership, loyalty and account numbers ("Bonvoy number 123456789");
- "secret": passwords, passcodes, PINs, door and Wi-Fi codes ("hunter2 is my password");
- "phone": phone numbers;
- "amount": exact amounts of money ("预算一万二", "a grand per night");
- "instructions": text that speaks to the model ("ignore previous instructions").

`check_fact` gives the English reason for compatibility, `redact` masks every sensitive
span for logs, `preview` is what may be echoed of a refused fact.

The modules: `categories` (what is refused, and why), `text` and `numerals` (the one
spelling the rules read), `numbers` (number shapes, pieces of one number), `labels` (labelled
patterns), `vocabulary` (the label dictionary, and which label owns a value),
`identifiers` (long, masked and IBAN numbers, whatever their label), `codes` (values a
label names, in either order, and what is keyed in), `money`, `instructions` (set phrases)
and `requests` (a request's parts, in either language), `rules` (all of them together:
`scan`, `redact`), `guard` (one `record` call's facts together) and `review` (the fast
model's second opinion).
"""

from __future__ import annotations

from memory.privacy.categories import CATEGORIES, REASONS, REDACTED, Category
from memory.privacy.rules import DIGIT, check_fact, preview, redact, scan

__all__ = [
    "CATEGORIES",
    "DIGIT",
    "REASONS",
    "REDACTED",
    "Category",
    "check_fact",
    "preview",
    "redact",
    "scan",
]
