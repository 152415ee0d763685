"""The clauses of a newer fact that say a change (`memory.changes`): whether one says it
about what the older fact is about, and whether it narrows what it changes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from memory import change_vocab
from memory.framing import stem
from memory.profile import ProfileSchema
from memory.subjects import Subjects

# A dash between words ends a clause ("I'm done with Hilton - can you find me a Hyatt?"); a
# hyphen inside a word ("T-Mobile", "Wi-Fi") does not; "Hotels.com", "7.30": no clause ends.
CLAUSE = re.compile(r"[,，;；。!！?？]|\.(?!\w)|\s[-–—]+\s|[—–]+")
_NEGATION = re.compile(r"\w+n't|cannot|not|no|never")
# A clause about what one is busy with lately chooses nothing ("最近在学潜水"): its change
# word is a word of time about something else.
_PROGRESSIVE = re.compile(
    r"(?:正|最近|近来|这阵子)在(?:学|练|看|读|忙|准备)|\b(?:i've been|i'm|i am) "
    r"(?:learning|reading|watching|practi[cs]ing|training)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reading:
    """What one fact's words say, read once."""

    lang: str
    units: tuple[str, ...]  # words or Chinese characters, change words out, likes as one
    content: frozenset[str]  # the units that are neither stop words nor generic ones
    tokens: frozenset[str]  # content words (English) or character pairs (Chinese)
    aspects: frozenset[str]  # specific subjects and aspect groups it has words of
    facets: frozenset[str]  # its scope, modes and aspects left out
    stance: str  # "negative", "accept" or "positive" (also when no cue says it)
    change: bool  # says that something changed ("now", "no longer", "以后", "改成")
    additive: bool  # adds to what was said ("too", "也")
    listed: bool  # of a kind that adds up (allergies)
    past: bool = False  # its only change word says what was ("I used to want a window")
    gives_up: bool = False  # a give-up verb ("I've stopped using Uber": not said again)


class ClauseReader(Protocol):
    """What these rules need of `memory.changes.ChangeReader`."""

    schema: ProfileSchema
    subjects: Subjects
    _change: re.Pattern[str]
    _past: re.Pattern[str]
    _generic_words: re.Pattern[str]
    _groups: dict[str, re.Pattern[str]]  # aspect groups of `change_terms.json`
    _habitual: re.Pattern[str]
    _choices: frozenset[str]  # aspect groups of named choices

    def read(self, text: str) -> Reading: ...

    def _about(self, text: str) -> frozenset[str]: ...


def change_about(reader: ClauseReader, a: Reading, new: str) -> bool:
    """Whether a change word of `new` sits in a clause about what the older fact (read
    as `a`) is about (a shared word or subject), in one that chooses something, or in
    one of change words alone ("On second thought, ..."): "Skiing is off the list now,
    the kids find it too cold" gives up skiing, not beach holidays with the kids. What a
    choice replaces, named in another clause, is named by a word, not a subject alone: "I
    always fly with Bose headphones now, the cabin noise is too much" is no change of "Quiet
    room on a high floor"."""
    named = bool(reader.read(new).tokens & a.tokens)
    for clause in CLAUSE.split(new):
        said = reader.read(clause) if clause.strip() else None
        if said is None or not said.change:
            continue
        if said.tokens & a.tokens or said.aspects & a.aspects:
            return True
        choice = reader.schema.stance(clause) != "negative" and not _PROGRESSIVE.search(clause)
        if choice and named:
            return True  # a choice: what it replaces may be named in another clause
            # ("现在改成住房车了，帐篷太累"); giving up something else is not
        bare = reader.read(reader._change.sub(" ", clause.casefold()))
        if not (bare.tokens or bare.aspects):
            return True
    return False


def complains(reader: ClauseReader, clause: str) -> bool:
    """Whether a clause complains of a service ("东航老延误", "Uber was late again") or reports
    one occasion ("I was stuck in a window seat again") and says no stance nor change, or asks
    for one occasion ("这次给我订靠窗的", "Window seat this time please") with no change: it
    chooses nothing."""
    said = change_vocab.COMPLAINT.search(clause) or change_vocab.REPORT.search(clause)
    once = re.search(change_vocab.ONCE, clause, re.IGNORECASE)
    if said is None or (reader.schema.stance(clause) and not once):
        return False
    return not reader.read(clause).change


def occasional(norm: str) -> str:
    """`norm` without its complaints ("老延误", "was late again") and without "again" / 又 in
    its clauses that report one occasion ("I got a window seat again on my last flight"):
    neither says a change."""
    parts = re.split(f"({CLAUSE.pattern})", change_vocab.COMPLAINT.sub(" ", norm))
    report, again = change_vocab.REPORT, change_vocab.AGAIN
    return "".join(again.sub(" ", c) if report.search(c) else c for c in parts)


# A clause asked, not said: it ends in a question mark ("Should I switch to Lyft?", "要不要改用
# 微信支付？"; "I use Lyft now, is that ok?" and "I'm done with Marriott. Can you find Hiltons?"
# keep what they say before it). A request is said, though asked: "Could you book me window
# seats from now on?", "以后能帮我订靠窗的吗？".
_ASKED = re.compile(r"(?:(?!\s[-–—]+\s|[—–])[^,，;；。!！?？.]|\.(?=\w))*[?？]")
_REQUEST = re.compile(
    r"\b(?:can|could|would|will)\s+you\b|\bplease\b|帮我|给我|替我|麻烦|能不能|可不可以"
    r"|(?:好|可以|行)吗[?？]$|好不好[?？]$",
    re.IGNORECASE,
)


def unasked(norm: str) -> str:
    """`norm` without its questions: "Should I switch to Lyft?" asks and says no change; a
    request ("Can you book Hilton for me from now on?") stays."""
    return _ASKED.sub(lambda m: m.group(0) if _REQUEST.search(m.group(0)) else " ", norm)


def swaps(reader: ClauseReader, old: str, new: str) -> bool:
    """Whether `new` drops words of `old` and says others: a part replaced ("早餐喜欢吃西式的"
    / "早餐现在改吃中式了"), not the older said again with more ("Window seat again please,
    last trip I got stuck in the middle")."""
    a, b = reader.read(old), reader.read(new)
    return bool(a.tokens - b.tokens) and bool(b.tokens - a.tokens)


def untimed(schema: ProfileSchema, words: tuple[re.Pattern[str], ...], norm: str) -> str:
    """`norm` without the words of time (`words`: times, events, likings of
    `change_terms.json`) of its clauses that state what happened or what one has, with no
    liking or stance: "这两年去了好多次成都", "As of last year I have Delta status so bags
    are free" say no change of mind."""
    times, events, likes = words
    parts = re.split(f"({CLAUSE.pattern})", norm)  # the clauses and what ends them
    return "".join(
        times.sub(" ", c)
        if events.search(c) and not likes.search(c) and not schema.stance(c)
        else c
        for c in parts
    )


def gives_up(reader: ClauseReader, new: str) -> bool:
    """Whether every clause of `new` that says a change gives something up (a negative
    stance): none chooses anything ("I check a bag every time now, tired of lugging it"
    chooses a bag; "吃怕了飞机餐" only gives plane food up)."""
    said = [c for c in CLAUSE.split(new) if c.strip() and reader.read(c).change]
    return bool(said) and all(reader.schema.stance(c) == "negative" for c in said)


def was_and_is(reader: ClauseReader, text: str) -> tuple[str, str]:
    """`text` split into what it says was (from "used to" to the end of its clause) and what
    it says is: "I used to get airsick so I always want a window" still wants a window."""
    said = reader._past.search(text.casefold())
    if said is None:
        return "", text
    end = _CLAUSE_END.search(text, said.end())
    cut = end.start() if end else len(text)
    return text[said.start() : cut], text[: said.start()] + " " + text[cut:]


def ends(reader: ClauseReader, a: Reading, b: Reading, new: str) -> bool:
    """Whether `new` (read as `b`), which only says what was, says that what the older fact
    (read as `a`) holds was: all it is about, in its stance and scope, in the clause that says
    what was and not in the rest ("I hate red-eyes" / "I used to hate red-eyes"; not "I drink
    coffee" / "I used to drink tea", nor "Window seat please" / "I used to get airsick so I
    always want a window")."""
    was, now = (reader.read(t) for t in was_and_is(reader, new))
    held = a.tokens and a.tokens <= was.tokens and not a.tokens & now.tokens
    return bool(held) and (a.stance, a.facets) == (was.stance, b.facets)


def adds_to(reader: ClauseReader, a: Reading, new: str) -> bool:
    """Whether an additive word of `new` ("too", "也") adds to what the older fact (read
    as `a`) is about: it sits in a clause that shares a word or subject with it, or that
    says the change, or `new` is one clause. An additive word in a reason said after a
    switch adds to the reason ("现在改住亚朵了，床更舒服，早餐也不错")."""
    clauses = [reader.read(c) for c in CLAUSE.split(new) if c.strip()]
    additive = [said for said in clauses if said.additive]
    if len(clauses) < 2 or not additive:
        return True  # one clause, or an additive phrase across two ("还是X，只是…")
    return any(s.change or s.tokens & a.tokens or s.aspects & a.aspects for s in additive)


def narrows(reader: ClauseReader, old: str, new: str, shared: frozenset[str]) -> bool:
    """Whether a clause of `new` that says the change (a change word) about a word it
    shares with `old` adds words `old` does not have (a qualifier or another verb:
    "airports", "print", "机场"), stance and change words aside. A reason or an
    alternative said in a clause of its own ("No more red-eyes, I can't sleep on
    planes", "现在不租车了，都打车") is no narrowing."""
    a = reader.read(old)
    zh = a.lang == "zh"
    before = reader._about(old) if zh else {stem(w) for w in a.content} | a.tokens
    for clause in _SUBCLAUSE.split(new):
        clause = change_vocab.REASON.split(clause)[0]  # "... after the strikes": why, not what
        said = reader.read(clause) if clause.strip() else None
        if said is None or not said.change or not said.tokens & shared:
            continue
        if zh:
            extra = set(reader._about(clause) - before)
        else:
            bare = reader.read(reader.schema.cue_pattern.sub(" ", clause))
            extra = {stem(w) for w in bare.content if not _NEGATION.fullmatch(w)}
            extra -= before
        if extra - _listed_with(clause, shared, zh):
            return True
    return False


def _listed_with(clause: str, shared: frozenset[str], zh: bool) -> set[str]:
    """What a list in `clause` names beside a word of `shared`: other options given up with
    it ("I'm done with Hilton and Marriott", "汉庭和如家不住了"), no narrower case of it."""
    found: set[str] = set()
    for m in (_ZH_LIST if zh else _EN_LIST).finditer(clause.casefold()):
        sides = [m["a"], m["b"]]
        if zh:
            pairs = [{s[i : i + 2] for i in range(len(s) - 1)} for s in sides]
            if any(p & shared for p in pairs):
                found |= {c for s in sides for c in s}
        elif any(stem(w) in shared for w in sides):
            found |= {stem(w) for w in sides}
    return found


# "and" before the writer again starts a clause of its own: "Been renting from Sixt the last
# few trips and honestly I'm not going back to Hertz" gives Hertz up whole; the trips and
# the other company are another clause, no narrower case of it.
_SUBCLAUSE = re.compile(
    CLAUSE.pattern
    + r"|\band\s+(?=(?:(?:honestly|frankly|now|so|tbh)\s+)?(?:i|i'm|i've|i'll|we|we're|we've)\b)",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(
    CLAUSE.pattern + r"|\b(?:so|but|and|because|since|though|although|yet|while|whereas)\b",
    re.IGNORECASE,
)
_EN_LIST = re.compile(r"(?=\b(?P<a>\w+)\s*(?:,\s*)?(?:and|or|nor|&|/)\s*(?P<b>\w+)\b)")
_ZH_LIST = re.compile(
    r"(?=(?P<a>[\u4e00-\u9fff]{2})(?:酒店|宾馆)?(?:[和、或与跟及/]|或者)(?P<b>[\u4e00-\u9fff]{2}))"
)
# Whose liking a fact states: a companion's ("老伴爱拍照", "My wife loves museums") or the
# writer's own ("拍照我不喜欢被拍", "I can't stand museums"). A stance said by one of them does not
# reverse the other's: both hold.
_COMPANION = re.compile(
    r"(?:(?:我们?|咱们)(?:的|家)?)?(?:老伴|老婆|老公|爱人|媳妇|妻子|丈夫|太太|孩子|儿子|女儿|闺女|孙子|孙女"
    r"|爸妈|爸爸|妈妈|爸|妈|父母|家人|对象|女朋友|男朋友)|她|(?<!其)他"
    r"|\b(?:(?:my|our)\s+(?:wife|husband|partner|spouse|son|daughter|kids|children|mum|mom|dad"
    r"|parents|girlfriend|boyfriend|family)|the\s+kids|she|he)\b",
    re.IGNORECASE,
)
_SELF = re.compile(r"我|\b(?:i|i'm|i'd|i've|me|my)\b", re.IGNORECASE)
# "We" / 我们 / 咱们 speak for the writer and the family at once: a change said of "us"
# replaces a companion's liking as much as one's own ("My kids love theme parks" / "We hate
# theme parks now").
_WE = re.compile(r"我们|咱们|\b(?:we|we're|we'd|we've|we'll|us|our)\b", re.IGNORECASE)
_LIKING = re.compile(
    r"不?(?:爱|喜欢|讨厌|怕|受不了)|\b(?:love|loves|like|likes|hate|hates|enjoy|enjoys|prefer"
    r"|prefers|wants?|can't\s+stand|don't\s+like|doesn't\s+like|adore|adores)\b",
    re.IGNORECASE,
)


def _said_by(before: str) -> str:
    """Who is named before a liking word in its clause."""
    rest = _COMPANION.sub(" ", before)
    if _WE.search(rest):
        return "both"
    return "companion" if _COMPANION.search(before) and not _SELF.search(rest) else "self"


def holder(reader: ClauseReader, text: str, other: Reading) -> str | None:
    """Whose liking a fact states about what the other fact (read as `other`) is about:
    "companion" (named before the liking word in its clause, the writer not), "self" (the
    writer), "both" ("we", 我们), None when it states none or clauses of two holders share
    words with the other fact. Of several likings, the one in a clause sharing a word or
    subject with the other fact is meant: "我喜欢安静，老伴爱拍照" / "老伴现在不爱拍照了" is
    the companion's change of mind, not the writer's quiet."""
    stated = []
    for clause in CLAUSE.split(text):
        found = _LIKING.search(clause)
        if found:
            stated.append((clause, _said_by(clause[: found.start()])))
    if len(stated) > 1:
        read = [(reader.read(clause), who) for clause, who in stated]
        stated = [
            ("", who)
            for said, who in read
            if said.tokens & other.tokens or said.aspects & other.aspects
        ]
    holders = {who for _, who in stated}
    return holders.pop() if len(holders) == 1 else None


# Others a fact may be said of, beyond the companions of `_COMPANION`: "My boss flies United
# now", "同事现在都住希尔顿".
_OTHERS = re.compile(
    r"(?:我们?的?)?(?:哥哥|姐姐|弟弟|妹妹|哥|姐|弟|妹|朋友|同事|老板|领导|助理|秘书|客户|公司|单位)"
    r"|\b(?:my|our)\s+(?:sister|brother|friends?|boss|colleagues?|assistant|manager|team"
    r"|company)\b",
    re.IGNORECASE,
)
_LEAD = re.compile(r"^\W*(?:(?:现在|最近|如今|这两年|honestly|now|these days|lately),?\s*)?")
# What another person does as a choice, right after them ("My son uses Lyft", "同事现在都住
# 希尔顿"); "孩子大了" (a reason) is no choice of theirs.
_CHOOSES = re.compile(
    r"^\s*(?:(?:always|usually|now|also|just|has|have|had|only)\s+)*"
    r"(?:uses?|used|using|switch\w*|mov\w+|fl(?:y|ies|ew|own)|stay\w*|prefer\w*|wants?|likes?"
    r"|lov\w+|book\w*|pa(?:ys?|id)|takes?|took|drives?|rent\w*|swears?|goes|went|is|was|gets?"
    r"|gone|chose|choose\w*|order\w*|drinks?|doesn't|does|won't|never)\b"
    r"|^(?:现在|最近|一般|基本|统一|还|也|都|只|总|常){0,3}不?(?:用|坐|住|喜欢|爱|订|改|换|选|开|打|喝|刷|叫|飞|要)",
    re.IGNORECASE,
)


def said_of_others(text: str) -> bool:
    """Whether a fact is said of someone else's choice, not the writer's: its first clause
    opens with a companion or another person and what they choose, and names the writer
    nowhere else in it ("My wife switched to Visa", "My son uses Lyft these days",
    "我老公现在喜欢坐过道"; not "现在孩子大了，游乐场不去了")."""
    first = CLAUSE.split(text.strip(), maxsplit=1)[0]
    lead = _LEAD.match(first)
    rest = first[lead.end() if lead else 0 :]
    found = _COMPANION.match(rest) or _OTHERS.match(rest)
    if found is None or not _CHOOSES.search(rest[found.end() :]):
        return False
    return not _SELF.search(_OTHERS.sub(" ", _COMPANION.sub(" ", rest[found.end() :])))


def another(old: str, new: str) -> bool:
    """Whether `new` is another's choice and `old` names nobody but the writer: another's
    choice changes nothing of the writer's own ("I pay with Amex" / "My wife switched to
    Visa"); a companion's change of mind still changes what the older said of them ("I like
    quiet hotels, my wife loves museums" / "My wife doesn't like museums anymore")."""
    return said_of_others(new) and not (_COMPANION.search(old) or _OTHERS.search(old))
