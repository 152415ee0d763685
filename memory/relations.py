"""Whether two facts can repeat, replace or change one another, by their typed slots and
scopes (`memory.decision` decides with it; `memory.changes` reads free words)."""

from __future__ import annotations

from typing import Literal

from memory.profile import ProfileSchema
from memory.scope import facets_of, same_scope
from memory.types import MemoryItem, SlotMatch

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
        if (
            old.value == new.value
            and old.polarity != new.polarity
            and "avoid"
            not in (
                old.polarity,
                new.polarity,
            )
        ):
            # The same value said with another strength ("I prefer hotels with free
            # breakfast" after "早餐必须有中式的"): no change of mind, and each may hold a
            # detail the slot does not; both stay.
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


def comparable(schema: ProfileSchema, old: MemoryItem, new: SlotMatch | None) -> bool:
    """Whether a change of mind said in free words can relate two facts the slots leave
    unrelated: any pair with a free-text fact (a slot fact scoped beyond a mode excepted:
    only its own scope changes it), and two preferred choices of one multi-choice slot in the same
    scope ("I stay at Marriott" -> "I stay at Hilton")."""
    if old.slot is None and new is None:
        return True
    if old.slot is None or new is None:
        # A slot fact limited to a mode only ("I fly Ryanair to save money": budget-conscious
        # on flights) is about that mode, as a free-text fact is (the reader leaves modes
        # out of a fact's scope): a free-text change can replace it; a place, trip kind
        # or situation still keeps both.
        scope = old.scope if new is None else new.scope
        return all(kind == "mode" for kind, _ in facets_of(scope))
    if relation(schema, old, new) != "unrelated" or old.slot != new.slot:
        return False
    if schema.slot(new.slot).kind == "single" and not same_scope(old.scope, new.scope):
        # One value of a single slot limited to a mode only, the other general ("I like
        # red-eye flights to save a hotel night" / "No more red-eyes"): the slots keep
        # both, as they keep any two scopes; a mode is what free text is about, so the
        # reader may read a change there, as it does between a mode-only slot fact and
        # free text. Two modes ("高铁喜欢坐靠窗" / "坐飞机还是靠过道") are two things.
        if old.scope is not None and new.scope is not None:
            return False
        scope = old.scope if new.scope is None else new.scope
        modes_only = all(kind == "mode" for kind, _ in facets_of(scope))
        return modes_only and old.value != new.value
    if schema.slot(new.slot).kind != "multi" or not same_scope(old.scope, new.scope):
        return False
    held = set(old.value or ())
    return "avoid" not in (old.polarity, new.polarity) and not set(new.value) & held


__all__ = ["Relation", "comparable", "relation"]
