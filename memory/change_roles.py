"""Changes of mind between names no list holds (`memory.changes`): an eSIM provider, a phone
carrier, a bank, a booking app, a small airline or hotel. "I use Airalo for my eSIM" / "I use
Holafly now", "My phone carrier is Verizon" / "I'm on T-Mobile now": the newer fact names
another name where the older named one, in the older's stance and scope, says a change and
nothing the older is not about. No list grows for it: a name is read from its shape
(capitalised words that are no place, no word of the vocabulary), and what the two names
are for from the rest of the two facts.

Also what a change says before the questions and requests that follow it ("I've switched to
Lyft, any tips for LA?", "现在改坐高铁了，帮我看看明天的车次": the trip asked about is no scope
of the change)."""

from __future__ import annotations

import re

from memory.change_clauses import CLAUSE, ClauseReader, Reading
from memory.scope import facets_of

# Capitalised words, one to three ("Holafly", "T-Mobile", "Motel One"), or a word with a
# capital inside it ("easyJet", "eDreams").
_NAME = re.compile(
    r"(?<![\w'-])(?:[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,2}|[a-z]+[A-Z][\w-]*)(?![\w'-])"
)
# Capitalised words that open a sentence or a clause and name nothing.
_OPENERS = frozenset(
    (
        "honestly",
        "actually",
        "nowadays",
        "lately",
        "recently",
        "moved",
        "switched",
        "changed",
        "been",
        "it's",
        "these",
        "now",
        "yes",
        "yeah",
        "ok",
        "okay",
        "so",
        "and",
        "but",
        "also",
        "since",
        "after",
        "on",
        "in",
        "for",
        "when",
        "from",
        "with",
        "at",
        "every",
        "all",
    )
)
# Words of time written capitalised, which name no brand ("I fly out on Mondays").
_TIME_NAME = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|may|june|"
    r"july|august|september|october|november|december|christmas|easter",
    re.IGNORECASE,
)
# A question or a request after the clauses that say a change: asked of the trip at hand.
_ASIDE = re.compile(
    r"[?？]\s*$|^\W*(?:any|what|what's|which|how|where|when|does|do|is|are|can|could|would|"
    r"will|should|please|let me know)\b|^\W*(?:帮我|给我|替我|麻烦|请|能不能|可不可以|有没有|"
    r"哪|什么|怎么|推荐|你觉得|你看)|[呢吗][?？!！。.]?\s*$",
    re.IGNORECASE,
)
# A switch phrase right before a name: what the older fact names it for carries over ("I've
# switched to Kobo"; "moved to" a name only with what it is for: "moved to Wise for travel
# money", not "I've moved to Denver").
_SWITCHED_TO = re.compile(
    r"\b(?:switched|switching|changed|changing|gone over|went over|swapped|swapping) (?:over )?"
    r"to (?:an? |the )?$",
    re.IGNORECASE,
)
_MOVED_TO = re.compile(
    r"\b(?:moved|moving) (?:over )?to (?:[A-Z]|[a-z]+[A-Z])[\w-]*(?: \w+)? for\b"
)
# Words before a name that say one role: what one uses ("use", "bank with", "on", "from").
_USES = frozenset(("use", "uses", "using", "used", "with", "on", "from", "through", "via"))
_SKIP = re.compile(r"(?:\s+(?:a|an|the|my|our))*\s*$", re.IGNORECASE)


def _before(text: str, name: str) -> str:
    """The words of `text` before `name` (case folded), articles before it left out."""
    at = text.casefold().find(name)
    return _SKIP.sub("", text[: max(at, 0)].casefold()) if at > 0 else ""


def _role(text: str, name: str) -> str:
    """The role `name` has in `text`: the word before it ("use", "fly", "with"), one word for
    all that say use; "" when it opens the fact ("Holafly is my eSIM now")."""
    words = _before(text, name).split()
    word = words[-1] if words else ""
    return "use" if word in _USES else word


def _switched_to(text: str, name: str) -> bool:
    return bool(_SWITCHED_TO.search(_before(text, name) + " ")) or bool(_MOVED_TO.search(text))


# "Uber's out, Lyft's in": Lyft instead of Uber.
_OUT_IN = re.compile(
    r"^\W*(?P<out>[^,;.]+?)(?:'s| is| are) out\s*[,;]\s*(?P<in>[^,;.]+?)(?:'s| is| are) in\b",
    re.IGNORECASE,
)


def told(reader: ClauseReader, text: str) -> str:
    """`text` up to the questions and requests that follow what it says changed: "I've
    switched to Lyft, any tips for LA?" says "I've switched to Lyft". All of `text` when no
    clause before them says a change about something (a change word alone: "From now on, can
    you book me aisle seats?" asks for what changes). "X's out, Y's in" reads "Y instead of X"."""
    text = _OUT_IN.sub(lambda m: f"{m['in']} instead of {m['out']} now", text)
    parts = re.split(f"({CLAUSE.pattern})", text)
    clauses = ["".join(parts[i : i + 2]) for i in range(0, len(parts), 2)]
    keep = len(clauses)
    while keep > 1 and (not clauses[keep - 1].strip() or _ASIDE.search(clauses[keep - 1])):
        keep -= 1
    if keep == len(clauses) or not clauses[keep - 1].strip():
        return text
    head = "".join(clauses[:keep]).strip()
    said = reader.read(head)
    bare = reader.read(reader._change.sub(" ", head.casefold()))
    return head if said.change and (bare.tokens or bare.aspects) else text


def names(reader: ClauseReader, text: str) -> frozenset[str]:
    """The names `text` says by their shape: no place, no word of the vocabulary (stop,
    generic, change words), no option of the profile ("Economy")."""
    phrases = reader.schema.phrases(text)
    found = set()
    for m in _NAME.finditer(text):
        words = m.group(0).split()
        while words and (words[0].casefold() in _OPENERS or words[0] in ("I", "I'm", "I've")):
            words = words[1:]
        name = re.sub(r"'s$", "", " ".join(words))  # "Uber's out": Uber
        if (
            not name
            or _TIME_NAME.fullmatch(name)
            or any(s < m.end() and m.start() < e for s, e in phrases)
        ):
            continue
        folded = name.casefold()
        if reader.read(folded).tokens == frozenset() or reader._change.fullmatch(folded):
            continue
        if any(k == "place" for k, _ in facets_of(reader.schema.scopes.read(name))):
            continue
        found.add(folded)
    return frozenset(found)


# "X has replaced Y", "X took over from Y", "用X代替Y", "X取代了Y": X stays, Y is left.
_REPLACED = re.compile(
    r"^\W*(?P<kept>[^,;.!?]+?)\s+(?:has |had |have )?(?:replaced|(?:took|taken) over from)\s+"
    r"(?P<left>[^,;.!?]+)|(?:用)?(?P<zkept>[^，。,.；;！!？?用]+?)(?:取代|代替|替代)了?"
    r"(?P<zleft>[^，。,.；;！!？?]+)",
    re.IGNORECASE,
)


def replaced_other(reader: ClauseReader, old: str, new: str) -> bool:
    """Whether `new` says that something replaced what is none of `old`'s words and names, so
    it leaves nothing of the older: the older's own name is what stays ("I use Airbnb for
    longer stays" / "Airbnb replaced hotels for my parents", "Monzo took over from my old
    bank years ago"), or nothing else in `new` says a change ("早餐喜欢喝咖啡" / "下午茶用点心
    代替正餐")."""
    found = _REPLACED.search(new)
    if found is None or not reader.read(new).change:
        return False
    kept, left = (found["kept"], found["left"]) if found["kept"] else found.group("zkept", "zleft")
    a, named = reader.read(old), names(reader, old)

    def shares(part: str) -> bool:
        return bool(reader.read(part).tokens & a.tokens or names(reader, part) & named)

    if shares(left):
        return False
    return shares(kept) or not reader.read(new[: found.start()] + new[found.end() :]).change


def unlisted_switch(reader: ClauseReader, a: Reading, b: Reading, old: str, new: str) -> bool:
    """Whether `new` (read as `b`) moves from the name `old` (read as `a`) says to another no
    list may hold, in one stance and scope: it says a change (not what was, not an addition),
    names none of the older's names, and says nothing the older is not about but its name
    (its other words are the older's, or it shares one of them: "I bank with Monzo when
    travelling" / "I've moved to Wise for travel money")."""
    named = (a.aspects & reader._choices, b.aspects & reader._choices)
    if any(named) and not named[0] & named[1]:
        return False  # a listed name of a kind the other fact names none of
    if not b.change or b.past or b.additive or a.stance != b.stance or b.stance == "negative":
        return False
    if a.facets != b.facets or a.listed or b.listed:
        return False
    older, newer = names(reader, old), names(reader, new)
    if not older or not newer or older & newer:
        return False
    words = {t for n in older | newer for t in reader.read(n).tokens}
    if words & a.tokens & b.tokens:
        return False  # a name shares a word with the other fact: the reader's rules decide
    roles = {_role(old, n) for n in older}
    switched = any(_switched_to(new, n) for n in newer)  # "switched to Starling for X"
    if not switched and not any(_role(new, n) in roles for n in newer):
        return False  # "I bank with Chase" / "I've moved to Denver": another role
    rest_a, rest_b = a.tokens - words, b.tokens - words
    return not rest_b or bool(rest_a & rest_b) or (switched and len(rest_b) <= 1)


__all__ = ["names", "replaced_other", "told", "unlisted_switch"]
