"""A leg of a plan as the `plan_itinerary` tool lists it: its best options and what was
ruled out, each a row the model (and every channel, `bot.planning.plan`) reads.

Cabins, seat classes and rates of one service are alternatives: only the best-scored
one of each is listed, so five options are five different choices. With a travel
policy (`bot.planning.compliance`) in-policy options come first, and every row says
whether it is in policy and which rules it breaks, in the traveller's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.messages import t
from bot.planning.compliance import Compliance
from bot.planning.inventory.base import describe
from bot.planning.inventory.catalogue import Catalogue
from bot.planning.scoring import HARD_CAP, Scored
from bot.policy.rules import Break

TOP_PER_LEG = 5
EXCLUDED_PER_LEG = 2


def list_leg(
    scored: Sequence[Scored],
    catalogue: Catalogue,
    lang: str,
    *,
    top: int = TOP_PER_LEG,
    compliance: Compliance | None = None,
) -> dict[str, Any]:
    """The best offer of each flight, train or hotel, best first; plus what was ruled out."""
    seen: set[str] = set()
    distinct = []
    for item in scored:
        if item.option.service not in seen:
            seen.add(item.option.service)
            distinct.append(item)
    note = None
    if compliance is None:
        rows = [row(s, catalogue, lang) for s in distinct[:top]]
        listed = {s.option.service for s in distinct[:top]}
    else:
        marked, note = compliance.order(scored)
        rows = [row(m.scored, catalogue, lang, m.breaks, m.shown_anyway) for m in marked]
        listed = {m.scored.option.service for m in marked}
    rest = [s for s in distinct if s.option.service not in listed]
    excluded = [s for s in rest if s.score <= HARD_CAP][-EXCLUDED_PER_LEG:]
    leg: dict[str, Any] = {"options": rows}
    if note:
        leg["policy_note"] = note
    if excluded:
        leg["ruled_out"] = [
            row(s, catalogue, lang, compliance.mark(s.option) if compliance else None)
            for s in reversed(excluded)
        ]
    leg["candidates"] = len(scored)
    return leg


def row(
    scored: Scored,
    catalogue: Catalogue,
    lang: str,
    breaks: tuple[Break, ...] | None = None,
    shown_anyway: bool = False,
) -> dict[str, Any]:
    """One option; with a policy (`breaks` not None) whether it is in policy and why not."""
    found: dict[str, Any] = {
        "kind": scored.option.kind,
        "option": describe(scored.option, catalogue, lang),
        "score": scored.score,
        "basis": scored.basis,
    }
    if breaks is not None:
        found["in_policy"] = not breaks
    if breaks:
        found["policy_breaks"] = [b.text(lang) for b in breaks]
    if shown_anyway:
        found["policy_note"] = t("policy_shown_out_of_policy", lang)
    return found


__all__ = ["EXCLUDED_PER_LEG", "TOP_PER_LEG", "list_leg", "row"]
