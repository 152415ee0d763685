"""Named choices in free words (`memory.changes`): airlines, hotel chains, board sports
said by name, and memberships of their programmes. A membership is no choice: it holds
beside a later choice that names nothing of it, and two memberships add up; a named
choice given up for another named in a clause of its own is a switch, not a narrower
case of it."""

from __future__ import annotations

from memory.change_clauses import CLAUSE, ClauseReader, Reading

# Aspect groups of `change_terms.json` that hold names only (a booking *app* or *site* is
# no name of one).
NAMES = frozenset(("airline_name", "hotel_chain", "board_sport"))


def membership_holds(a: Reading, b: Reading) -> bool:
    """A membership (`a`), then a choice naming nothing of it (`b`): "我是万豪会员",
    "最近改住希尔顿了"."""
    return "loyalty" in a.aspects - b.aspects and not a.tokens & b.tokens


def memberships_add_up(a: Reading, b: Reading) -> bool:
    """Two memberships, the newer saying no change ("我是东航会员" / "我是南航明珠会员")."""
    return "loyalty" in a.aspects & b.aspects and not b.change


def named_choices(a: Reading, b: Reading, choices: frozenset[str]) -> bool:
    """Whether both facts name a choice of one kind (`choices`: the aspect groups of named
    choices) in one stance: a switch between two names, which the embedding of two names
    alone places lower than other changes."""
    return a.stance == b.stance and bool(a.aspects & b.aspects & choices)


def switches(reader: ClauseReader, a: Reading, new: str) -> bool:
    """Whether a clause of `new` that gives up nothing names another choice of a kind the
    older fact (read as `a`) names (an airline, a hotel chain, a booking site): what is
    given up elsewhere in `new` is then left for it, not narrowed ("I'm not a Sheraton
    member anymore, I switched to Radisson Rewards", "希尔顿的会员不续了，现在是万豪会员")."""
    kinds = a.aspects & NAMES
    for clause in CLAUSE.split(new):
        said = reader.read(clause) if clause.strip() else None
        if said is None or not kinds & said.aspects or said.tokens & a.tokens:
            continue
        if reader.schema.stance(clause) != "negative" and said.tokens:
            return True
    return False


__all__ = ["NAMES", "membership_holds", "memberships_add_up", "named_choices", "switches"]
